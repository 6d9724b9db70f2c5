"""The metric engine: count tables in, numbers out.

Owns confusion data (:class:`ConfusionMatrix`, paired joint tables), every metric of the catalogue,
the per-class components, chance levels, undefined-value conventions and probability scores.
It reads no files and imports only numpy, pydantic and advisor's base modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "BINARY_METRICS": "._metrics",
    "CONVENTIONS": "._conventions",
    "DEFAULT_CONVENTION": "._conventions",
    "ConfusionMatrix": "._confusion",
    "Evaluation": "._evaluate",
    "JointCounts": "._joint",
    "LOWER_IS_BETTER": "._metrics",
    "METRICS": "._metrics",
    "MULTICLASS_METRICS": "._metrics",
    "NEEDS_PARAMETERS": "._metrics",
    "ONE_VS_REST": "._metrics",
    "CLASS_METRICS": "._metrics",
    "class_metric": "._metrics",
    "class_metric_id": "._metrics",
    "PARAMETER_OF": "._metrics",
    "class_subset_mask": "._metrics",
    "class_weight_vector": "._metrics",
    "values_by_class": "._metrics",
    "MetricResult": "._metrics",
    "PROBABILITY_METRICS": "._metrics",
    "UndefinedValue": "._metrics",
    "average_precision": "._scores",
    "bayes_decisions": "._costs",
    "cost_matrix": "._costs",
    "ece": "._scores",
    "expected_cost": "._costs",
    "normalized_expected_cost": "._costs",
    "roc_auc": "._scores",
    "score_metrics": "._score_eval",
    "chance_levels": "._chance",
    "compute_metrics": "._metrics",
    "confusion_matrix": "._confusion",
    "evaluate": "._evaluate",
    "per_class": "._metrics",
    "probability_metrics": "._probabilities",
    # log loss and the Brier score at the class shares in use: each class's mean score weighted by its share
    "PRIOR_SCORES": "._prior_scores",
    "PriorScores": "._prior_scores",
    "scores_at_priors": "._prior_scores",
    "undefined_case": "._probe",
    "undefined_whole": "._probe",
    "reference_matrices": "._chance",
    # ordered classes, label sets, top-k and agreement (issue 12)
    "STRUCTURE_METRICS": "._structures",
    "evaluate_inputs": "._structures",
    "agreement_metrics": "._agreement",
    "label_sets": "._multilabel",
    "scored_label_sets": "._multilabel",
    "LABEL_CUT": "._multilabel",
    "label_aucs": "._multilabel",
    "multilabel_metrics": "._multilabel",
    "ordinal_cells": "._ordinal",
    "ordinal_chance_levels": "._ordinal",
    "ordinal_metrics": "._ordinal",
    "per_label_metrics": "._multilabel",
    "ratings_table": "._agreement",
    "top_k_accuracy": "._topk",
    # a judge (an LLM, a model) against human raters (issue 22)
    "JudgeRatings": "._judge",
    # classes grouped by the action they lead to
    "ActionRate": "._actions",
    "action_rates": "._actions",
    "collapse_to_actions": "._actions",
    "evaluate_judge_batch": "._judge",
    "judge_comparison": "._judge",
    "human_ratings": "._judge",
    "judge_ratings": "._judge",
    "resolve_judge": "._judge",
    "tie_category": "._judge",
    "baseline_ratings": "._judge",
    "BASELINE_QUANTITIES": "._judge",
    # the engine's building blocks that io, stats, the catalogue, the report and the CLI compute with
    "COST_IDS": "._score_eval",
    "Calibration": "._scores",
    "Cells": "._cells",
    "ECE_BINS": "._scores",
    "LOG_LOSS_EPS": "._probabilities",
    "Label": "._confusion",
    "LabelSets": "._multilabel",
    "HIERARCHY_BESIDE": "._structures",
    "NOMINAL_BESIDE": "._structures",
    "OrdinalCells": "._ordinal",
    "ProbabilityAccumulator": "._probabilities",
    "RENORMALISE_TOLERANCE": "._probabilities",
    "Ranking": "._scores",
    "Ratings": "._agreement",
    "SCORE_IDS": "._score_eval",
    "SCORE_ON_REQUEST": "._score_eval",
    "SUM_TOLERANCE": "._probabilities",
    "ValuesMapping": "._components",
    "align_probabilities": "._score_eval",
    "ap_note": "._score_eval",
    "cells_and_labels": "._confusion",
    "check_metric_ids": "._evaluate",
    "class_values": "._ordinal",
    "cost_metrics": "._score_eval",
    "cost_value": "._costs",
    "evaluate_agreement_batch": "._agreement",
    "evaluate_batch": "._metrics",
    "evaluate_multilabel_batch": "._multilabel",
    "evaluate_ordinal_batch": "._ordinal",
    "expected_cost_batch": "._costs",
    "grouped_auc": "._scores",
    "grouped_ap": "._scores",
    "metric_id": "._names",
    "metric_list": "._names",
    "metrics_of_cells": "._metrics",
    "multiclass_auc": "._scores",
    "nominal_beside": "._structures",
    "normalise_labels": "._confusion",
    "ordinal_ranks": "._ordinal",
    "ratings_from_codes": "._agreement",
    "reported_ids": "._structures",
    "resolve_priors": "._costs",
    "score_inputs": "._scores",
    "set_name_resolver": "._names",
    "top_k_hits": "._topk",
    "untied_auc_ap": "._scores",
    "with_counts": "._ordinal",
    # operating constraints, clinical calibration, decision curves, ordered forecasts (issue 21)
    "DECISION_IDS": "._decisions",
    "TARGET_VALUED": "._decisions",
    "calibration_fit": "._decisions",
    "check_budget": "._decisions",
    "check_decision_thresholds": "._decisions",
    "ici": "._decisions",
    "loess_curve": "._decisions",
    "net_benefit": "._decisions",
    "net_benefit_id": "._decisions",
    "net_benefit_name": "._decisions",
    "precision_recall_at_k": "._decisions",
    "ranked_probability_score": "._decisions",
    "recalibration_loss": "._decisions",
    "rps_skill": "._decisions",
    "tpr_at_fpr": "._decisions",
    "partial_roc_auc": "._decisions",
    "ks_statistic": "._decisions",
    # selective prediction: risk-coverage, AURC, selective risk (issue 23 item 2)
    # the bias AUCs of a subgroup column (Borkan et al. 2019)
    "BIAS_AUC_IDS": "._bias",
    "bias_auc_masks": "._bias",
    "bias_aucs": "._bias",
    "bias_undefined_reason": "._bias:undefined_reason",
    # the adverse impact ratio (four-fifths rule) and the Jigsaw competition's bias score
    "FAIRNESS_IDS": "._fairness",
    "FOUR_FIFTHS": "._fairness",
    "JIGSAW_POWER": "._fairness",
    "JIGSAW_WEIGHT": "._fairness",
    "adverse_impact": "._fairness",
    "equal_error_threshold": "._fairness",
    "favourable_class": "._fairness",
    "identity_values": "._fairness",
    "jigsaw_bias_score": "._fairness",
    "line_verdict": "._fairness",
    "power_mean": "._fairness",
    "SELECTIVE_IDS": "._selective",
    "aurc": "._selective",
    "answered_matrix": "._selective",
    "check_coverage": "._selective",
    "check_target_risk": "._selective",
    "check_reject_label": "._selective",
    "coverage_at_risk": "._selective",
    "coverage_guaranteed_risk": "._selective",
    "risk_tail_bound": "._selective",
    "risk_coverage_curve": "._selective",
    "selective_by_class": "._selective",
    "selective_items": "._selective",
    "selective_risk": "._selective",
    "selective_summary": "._selective",
    "answered_count": "._selective",
    # partitions: two clusterings of the same items (issue 23 item 3)
    "PARTITION_INDICES": "._partition",
    "PARTITION_METRICS": "._partition",
    "PartitionRows": "._partition",
    "PartitionTable": "._partition",
    "cluster_sizes": "._partition",
    "pair_count_indices": "._partition",
    "partition_cells_batch": "._partition",
    "partition_metrics": "._partition",
    "partition_table": "._partition",
    # probability columns for classes no item has (issue 25)
    "score_classes": "._score_eval",
    # hierarchies: classes in a taxonomy (issue 23 item 4)
    "HIERARCHY_METRICS": "._hierarchy",
    "HierarchyCells": "._hierarchy",
    "Taxonomy": "._hierarchy",
    "evaluate_hierarchy_batch": "._hierarchy",
    "hierarchy_cells": "._hierarchy",
    "hierarchy_metrics": "._hierarchy",
    "hierarchy_tables": "._hierarchy",
    "hierarchy_with_counts": "._hierarchy",
    "level_accuracies": "._hierarchy",
    "one_depth": "._hierarchy",
    "taxonomy_from_edges": "._hierarchy",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._partition import PartitionRows as PartitionRows
    from ._partition import PartitionTable as PartitionTable
    from ._partition import cluster_sizes as cluster_sizes
    from ._partition import pair_count_indices as pair_count_indices
    from ._partition import partition_cells_batch as partition_cells_batch
    from ._partition import partition_table as partition_table
    from ._names import metric_list as metric_list
    from ._selective import answered_matrix as answered_matrix
    from ._selective import selective_summary as selective_summary
    from ._agreement import (
        Ratings as Ratings,
        agreement_metrics as agreement_metrics,
        evaluate_agreement_batch as evaluate_agreement_batch,
        ratings_from_codes as ratings_from_codes,
        ratings_table as ratings_table,
    )
    from ._cells import Cells as Cells
    from ._actions import ActionRate as ActionRate, action_rates as action_rates
    from ._actions import collapse_to_actions as collapse_to_actions
    from ._judge import (
        JudgeRatings as JudgeRatings,
        BASELINE_QUANTITIES as BASELINE_QUANTITIES,
        baseline_ratings as baseline_ratings,
        evaluate_judge_batch as evaluate_judge_batch,
        human_ratings as human_ratings,
        judge_comparison as judge_comparison,
        judge_ratings as judge_ratings,
        resolve_judge as resolve_judge,
        tie_category as tie_category,
    )
    from ._chance import chance_levels as chance_levels, reference_matrices as reference_matrices
    from ._components import ValuesMapping as ValuesMapping
    from ._confusion import (
        ConfusionMatrix as ConfusionMatrix,
        Label as Label,
        cells_and_labels as cells_and_labels,
        confusion_matrix as confusion_matrix,
        normalise_labels as normalise_labels,
    )
    from ._conventions import CONVENTIONS as CONVENTIONS
    from ._conventions import DEFAULT_CONVENTION as DEFAULT_CONVENTION
    from ._costs import (
        bayes_decisions as bayes_decisions,
        cost_matrix as cost_matrix,
        cost_value as cost_value,
        expected_cost as expected_cost,
        expected_cost_batch as expected_cost_batch,
        normalized_expected_cost as normalized_expected_cost,
        resolve_priors as resolve_priors,
    )
    from ._decisions import (
        DECISION_IDS as DECISION_IDS,
        TARGET_VALUED as TARGET_VALUED,
        calibration_fit as calibration_fit,
        check_budget as check_budget,
        check_decision_thresholds as check_decision_thresholds,
        ici as ici,
        ks_statistic as ks_statistic,
        loess_curve as loess_curve,
        net_benefit as net_benefit,
        net_benefit_id as net_benefit_id,
        net_benefit_name as net_benefit_name,
        partial_roc_auc as partial_roc_auc,
        precision_recall_at_k as precision_recall_at_k,
        ranked_probability_score as ranked_probability_score,
        recalibration_loss as recalibration_loss,
        rps_skill as rps_skill,
        tpr_at_fpr as tpr_at_fpr,
    )
    from ._evaluate import Evaluation as Evaluation, check_metric_ids as check_metric_ids, evaluate as evaluate
    from ._hierarchy import (
        HIERARCHY_METRICS as HIERARCHY_METRICS,
        HierarchyCells as HierarchyCells,
        Taxonomy as Taxonomy,
        evaluate_hierarchy_batch as evaluate_hierarchy_batch,
        hierarchy_cells as hierarchy_cells,
        hierarchy_metrics as hierarchy_metrics,
        hierarchy_tables as hierarchy_tables,
        hierarchy_with_counts as hierarchy_with_counts,
        level_accuracies as level_accuracies,
        one_depth as one_depth,
        taxonomy_from_edges as taxonomy_from_edges,
    )
    from ._joint import JointCounts as JointCounts
    from ._metrics import (
        BINARY_METRICS as BINARY_METRICS,
        LOWER_IS_BETTER as LOWER_IS_BETTER,
        METRICS as METRICS,
        MULTICLASS_METRICS as MULTICLASS_METRICS,
        MetricResult as MetricResult,
        NEEDS_PARAMETERS as NEEDS_PARAMETERS,
        ONE_VS_REST as ONE_VS_REST,
        CLASS_METRICS as CLASS_METRICS,
        class_metric as class_metric,
        class_metric_id as class_metric_id,
        PARAMETER_OF as PARAMETER_OF,
        PROBABILITY_METRICS as PROBABILITY_METRICS,
        UndefinedValue as UndefinedValue,
        class_subset_mask as class_subset_mask,
        class_weight_vector as class_weight_vector,
        compute_metrics as compute_metrics,
        evaluate_batch as evaluate_batch,
        metrics_of_cells as metrics_of_cells,
        per_class as per_class,
        values_by_class as values_by_class,
    )
    from ._multilabel import (
        LABEL_CUT as LABEL_CUT,
        LabelSets as LabelSets,
        evaluate_multilabel_batch as evaluate_multilabel_batch,
        label_aucs as label_aucs,
        label_sets as label_sets,
        multilabel_metrics as multilabel_metrics,
        per_label_metrics as per_label_metrics,
        scored_label_sets as scored_label_sets,
    )
    from ._names import metric_id as metric_id, set_name_resolver as set_name_resolver
    from ._ordinal import (
        OrdinalCells as OrdinalCells,
        class_values as class_values,
        evaluate_ordinal_batch as evaluate_ordinal_batch,
        ordinal_cells as ordinal_cells,
        ordinal_chance_levels as ordinal_chance_levels,
        ordinal_metrics as ordinal_metrics,
        ordinal_ranks as ordinal_ranks,
        with_counts as with_counts,
    )
    from ._partition import PARTITION_INDICES as PARTITION_INDICES, PARTITION_METRICS as PARTITION_METRICS
    from ._partition import partition_metrics as partition_metrics
    from ._probabilities import (
        LOG_LOSS_EPS as LOG_LOSS_EPS,
        ProbabilityAccumulator as ProbabilityAccumulator,
        RENORMALISE_TOLERANCE as RENORMALISE_TOLERANCE,
        SUM_TOLERANCE as SUM_TOLERANCE,
        probability_metrics as probability_metrics,
    )
    from ._prior_scores import PRIOR_SCORES as PRIOR_SCORES, PriorScores as PriorScores
    from ._prior_scores import scores_at_priors as scores_at_priors
    from ._probe import undefined_case as undefined_case
    from ._probe import undefined_whole as undefined_whole
    from ._score_eval import (
        COST_IDS as COST_IDS,
        SCORE_IDS as SCORE_IDS,
        SCORE_ON_REQUEST as SCORE_ON_REQUEST,
        align_probabilities as align_probabilities,
        ap_note as ap_note,
        cost_metrics as cost_metrics,
        score_classes as score_classes,
        score_metrics as score_metrics,
    )
    from ._scores import (
        Calibration as Calibration,
        ECE_BINS as ECE_BINS,
        Ranking as Ranking,
        average_precision as average_precision,
        ece as ece,
        grouped_ap as grouped_ap,
        grouped_auc as grouped_auc,
        multiclass_auc as multiclass_auc,
        roc_auc as roc_auc,
        score_inputs as score_inputs,
        untied_auc_ap as untied_auc_ap,
    )
    from ._bias import (
        BIAS_AUC_IDS as BIAS_AUC_IDS,
        bias_auc_masks as bias_auc_masks,
        bias_aucs as bias_aucs,
        undefined_reason as bias_undefined_reason,
    )
    from ._fairness import (
        FAIRNESS_IDS as FAIRNESS_IDS,
        FOUR_FIFTHS as FOUR_FIFTHS,
        JIGSAW_POWER as JIGSAW_POWER,
        JIGSAW_WEIGHT as JIGSAW_WEIGHT,
        adverse_impact as adverse_impact,
        equal_error_threshold as equal_error_threshold,
        favourable_class as favourable_class,
        identity_values as identity_values,
        jigsaw_bias_score as jigsaw_bias_score,
        line_verdict as line_verdict,
        power_mean as power_mean,
    )
    from ._selective import (
        SELECTIVE_IDS as SELECTIVE_IDS,
        answered_count as answered_count,
        aurc as aurc,
        check_coverage as check_coverage,
        check_target_risk as check_target_risk,
        check_reject_label as check_reject_label,
        coverage_at_risk as coverage_at_risk,
        coverage_guaranteed_risk as coverage_guaranteed_risk,
        risk_tail_bound as risk_tail_bound,
        risk_coverage_curve as risk_coverage_curve,
        selective_by_class as selective_by_class,
        selective_items as selective_items,
        selective_risk as selective_risk,
    )
    from ._structures import (
        HIERARCHY_BESIDE as HIERARCHY_BESIDE,
        NOMINAL_BESIDE as NOMINAL_BESIDE,
        STRUCTURE_METRICS as STRUCTURE_METRICS,
        evaluate_inputs as evaluate_inputs,
        nominal_beside as nominal_beside,
        reported_ids as reported_ids,
    )
    from ._topk import top_k_accuracy as top_k_accuracy, top_k_hits as top_k_hits
