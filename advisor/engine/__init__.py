"""The metric engine: count tables in, numbers out.

Owns confusion data (:class:`ConfusionMatrix`, paired joint tables), every metric of the catalogue,
the per-class components, chance levels, undefined-value conventions and probability scores.
It reads no files and imports only numpy, pydantic and advisor's base modules.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "BINARY_METRICS": "._metrics",
    "CONVENTIONS": "._conventions",
    "ConfusionMatrix": "._confusion",
    "Evaluation": "._evaluate",
    "JointCounts": "._joint",
    "LOWER_IS_BETTER": "._metrics",
    "METRICS": "._metrics",
    "MULTICLASS_METRICS": "._metrics",
    "NEEDS_PARAMETERS": "._metrics",
    "ONE_VS_REST": "._metrics",
    "class_weight_vector": "._metrics",
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
    "undefined_case": "._probe",
    "reference_matrices": "._chance",
    # ordered classes, label sets, top-k and agreement (issue 12)
    "STRUCTURE_METRICS": "._structures",
    "evaluate_inputs": "._structures",
    "agreement_metrics": "._agreement",
    "label_sets": "._multilabel",
    "multilabel_metrics": "._multilabel",
    "ordinal_cells": "._ordinal",
    "ordinal_metrics": "._ordinal",
    "per_label_metrics": "._multilabel",
    "ratings_table": "._agreement",
    "top_k_accuracy": "._topk",
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
    "precision_recall_at_k": "._decisions",
    "ranked_probability_score": "._decisions",
    "recalibration_loss": "._decisions",
    "rps_skill": "._decisions",
    "tpr_at_fpr": "._decisions",
    # selective prediction: risk-coverage, AURC, selective risk (issue 23 item 2)
    "SELECTIVE_IDS": "._selective",
    "aurc": "._selective",
    "check_coverage": "._selective",
    "check_reject_label": "._selective",
    "coverage_at_risk": "._selective",
    "risk_coverage_curve": "._selective",
    "selective_items": "._selective",
    "selective_risk": "._selective",
    # hierarchies: classes in a taxonomy (issue 23 item 4)
    "HIERARCHY_METRICS": "._hierarchy",
    "HierarchyCells": "._hierarchy",
    "Taxonomy": "._hierarchy",
    "evaluate_hierarchy_batch": "._hierarchy",
    "hierarchy_cells": "._hierarchy",
    "hierarchy_metrics": "._hierarchy",
    "hierarchy_tables": "._hierarchy",
    "hierarchy_with_counts": "._hierarchy",
    "nominal_beside": "._structures",
    "taxonomy_from_edges": "._hierarchy",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
