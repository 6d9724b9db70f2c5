"""Statistics on top of the engine: bootstrap intervals, paired comparison of systems, projection
to other class prevalences and prevalence calibration.

It may import the engine and the base modules, never io, catalogue, questionnaire, report or cli.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "BootstrapResult": "._bootstrap",
    "Comparison": "._compare",
    "PrevalenceProjection": "._prevalence",
    "bootstrap": "._bootstrap",
    "calibrate": "._calibrate",
    "calibrated_metrics": "._calibrate",
    "compare_joint": "._compare",
    "RunLayout": "._runs",
    "compare_scored": "._items",
    "compare_systems": "._compare",
    "prevalence_sensitivity": "._prevalence",
    "project_to_prevalence": "._prevalence",
    "projected_score_intervals": "._prevalence",  # log loss and the Brier score at the shares in use, resampled
    "proportion_interval": "._proportions",
    # proportions among a fixed set of items both systems classify: McNemar's test, Newcombe's paired interval
    "PAIRED_PROPORTIONS": "._mcnemar",
    # the false positive rate of the labels in use against a budget, with its one-sided upper bound
    "BudgetCheck": "._budget",
    "fpr_budget_check": "._budget",
    "one_sided_upper": "._budget",
    "risk_limit_check": "._budget",  # the same bound, for the error rate of the answers at a fixed cut
    # a cut fixed on calibration groups (selection with guaranteed risk, or a coverage's quantile), tested on the others
    "FrozenCut": "._frozen_cut",
    "SgrFit": "._frozen_cut",
    "calibration_split": "._frozen_cut",
    "clustered_sgr": "._frozen_cut",
    "design_effect": "._frozen_cut",
    "frozen_cut": "._frozen_cut",
    "quantile_cut": "._frozen_cut",
    "KornGraubard": "._budget",  # the bound over groups: Clopper–Pearson at the effective sample size (1998)
    "korn_graubard_upper": "._budget",
    "structure_bootstrap": "._structures",
    "structure_comparison": "._structures",
    # used by the catalogue's checker, the report and the CLI
    "average_ranks": "._compare",
    "calibrate_counts": "._calibrate",
    "check_enough_resamples": "._limits",
    "kendall_tau_b": "._compare",
    "spearman_rho": "._compare",
    "structure_compare": "._structures",
    # intervals: the method per metric and the seed always stated (issue 20)
    "METHOD_WORDS": "._choice",
    "interval_methods": "._choice",
    "tied_shares": "._choice",
    "pick_seed": "._bootstrap",
    # partitions: pair-distinct resamples of the pair-counting indices; the mutual-information indices without an interval
    "MIN_PARTITION_UNITS": "._partitions:MIN_UNITS",
    "PARTITION_PAIR_DISTINCT": "._partitions:PAIR_DISTINCT",
    "PARTITION_NO_INTERVAL": "._partitions:NO_INTERVAL",
    "JACKKNIFE_EXACT_UNITS": "._jackknife:EXACT_UNITS",
    "JACKKNIFE_SETS": "._jackknife:GROUPS",
    "partition_comparison": "._partitions",
    "partition_intervals": "._partitions",
    "subgroups": "._subgroups",
    "subgroup_smd": "._subgroups",
    "BIAS_AUC_NAMES": "._subgroup_aucs",
    "subgroup_aucs": "._subgroup_aucs",
    "SUBGROUP_SCORE_IDS": "._subgroup_scores:SCORE_IDS",
    # a sample stratified by the predicted (map) class (Olofsson et al. 2014)
    "StratifiedEstimates": "._strata",
    "stratified_estimates": "._strata",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._runs import RunLayout as RunLayout
    from ._partitions import MIN_UNITS as MIN_PARTITION_UNITS
    from ._partitions import NO_INTERVAL as PARTITION_NO_INTERVAL, PAIR_DISTINCT as PARTITION_PAIR_DISTINCT
    from ._jackknife import EXACT_UNITS as JACKKNIFE_EXACT_UNITS, GROUPS as JACKKNIFE_SETS
    from ._partitions import partition_comparison as partition_comparison
    from ._partitions import partition_intervals as partition_intervals
    from ._bootstrap import BootstrapResult as BootstrapResult, bootstrap as bootstrap, pick_seed as pick_seed
    from ._calibrate import (
        calibrate as calibrate,
        calibrate_counts as calibrate_counts,
        calibrated_metrics as calibrated_metrics,
    )
    from ._choice import METHOD_WORDS as METHOD_WORDS, interval_methods as interval_methods, tied_shares as tied_shares
    from ._compare import (
        Comparison as Comparison,
        average_ranks as average_ranks,
        compare_joint as compare_joint,
        compare_systems as compare_systems,
        kendall_tau_b as kendall_tau_b,
        spearman_rho as spearman_rho,
    )
    from ._items import compare_scored as compare_scored
    from ._limits import check_enough_resamples as check_enough_resamples
    from ._prevalence import (
        PrevalenceProjection as PrevalenceProjection,
        prevalence_sensitivity as prevalence_sensitivity,
        project_to_prevalence as project_to_prevalence,
        projected_score_intervals as projected_score_intervals,
    )
    from ._proportions import proportion_interval as proportion_interval
    from ._mcnemar import PAIRED_PROPORTIONS as PAIRED_PROPORTIONS
    from ._budget import BudgetCheck as BudgetCheck, fpr_budget_check as fpr_budget_check
    from ._budget import one_sided_upper as one_sided_upper, risk_limit_check as risk_limit_check
    from ._frozen_cut import FrozenCut as FrozenCut, SgrFit as SgrFit, calibration_split as calibration_split
    from ._frozen_cut import clustered_sgr as clustered_sgr, design_effect as design_effect, frozen_cut as frozen_cut
    from ._frozen_cut import quantile_cut as quantile_cut
    from ._budget import KornGraubard as KornGraubard, korn_graubard_upper as korn_graubard_upper
    from ._subgroup_aucs import BIAS_AUC_NAMES as BIAS_AUC_NAMES, subgroup_aucs as subgroup_aucs
    from ._subgroup_scores import SCORE_IDS as SUBGROUP_SCORE_IDS
    from ._structures import (
        structure_bootstrap as structure_bootstrap,
        structure_compare as structure_compare,
        structure_comparison as structure_comparison,
    )
    from ._strata import StratifiedEstimates as StratifiedEstimates, stratified_estimates as stratified_estimates
    from ._subgroups import subgroup_smd as subgroup_smd
    from ._subgroups import subgroups as subgroups
