"""The range of every metric the bootstrap resamples, so that a reflected interval stays inside it.

The catalogue is the single source of metric ranges, but statistics sit below it; this table repeats
the ranges of the resampled ids and ``tests/test_interval_methods.py`` checks it against the catalogue.
A metric not listed has no known bound (``(-inf, inf)``).
"""

from __future__ import annotations

import math

__all__ = ["bounds_of", "difference_bounds"]

_INF = math.inf
_SIGNED = ("adjusted_balanced_accuracy", "cohen_kappa", "mcc", "gm1", "informedness", "markedness",
           "weighted_kappa_linear", "weighted_kappa_quadratic", "fleiss_kappa", "krippendorff_alpha",
           "krippendorff_alpha_ordinal", "pair_correlation", "pearson_r")
_UNBOUNDED_ABOVE = ("lr_plus", "lr_minus", "normalized_expected_cost", "mae", "mae_macro")
_OTHER: dict[str, tuple[float, float]] = {
    "confusion_entropy": (0.0, 1.0615),
    "log_loss": (0.0, 36.04365338911715),
    "brier": (0.0, 2.0),
    # issue 21 (the catalogue's ranges; net_benefit@t ids below)
    "calibration_intercept": (-40.0, 40.0),
    "calibration_slope": (-40.0, 40.0),
    "net_benefit": (-1.0, 1.0),
    "ranked_probability_score": (0.0, 1e9),
    "rps_skill": (-1e9, 1.0),
    # issue 23: partitions (the adjusted indices can fall below 0 by chance)
    "adjusted_rand_index": (-0.5, 1.0),
    "adjusted_mutual_info": (-1.0, 1.0),
}
_UNIT = ("accuracy", "micro_f1", "balanced_accuracy", "class_weighted_recall", "class_weighted_accuracy",
         "stratified_accuracy",
         "macro_recall", "macro_precision", "macro_f1", "macro_f1_of_classes", "f1_of_averages", "weighted_f1",
         "macro_jaccard", "weighted_jaccard", "micro_jaccard", "sba",
         "correlation_distance", "geometric_macro_recall", "harmonic_macro_recall", "minority_weighted_f1",
         "precision", "recall", "f1", "f_beta", "specificity", "npv", "jaccard", "fowlkes_mallows", "expected_cost",
         "lam", "roc_auc", "average_precision", "brier_binary", "ece", "multilabel_micro_f1", "multilabel_macro_f1",
         "multilabel_samples_f1", "hamming_loss", "subset_accuracy", "top_k_accuracy", "tpr_at_fpr", "partial_roc_auc",
         "ks_statistic",
         "precision_at_k", "recall_at_k", "ici", "aurc", "selective_risk", "coverage_at_risk",
         "coverage_guaranteed_risk", "risk_at_frozen_coverage",
         "pair_correlation_distance", "purity", "inverse_purity", "normalized_mutual_info",
         "hierarchical_f1", "hierarchical_precision", "hierarchical_recall", "adjacent_accuracy", "in_scope_accuracy",
         "wrong_action_rate", "fallback_rate", "action_sensitivity", "action_specificity", "level_accuracy",
         "subgroup_auc", "bpsn_auc", "bnsp_auc", "adverse_impact_ratio", "jigsaw_bias_score",
         "multilabel_macro_roc_auc")


def bounds_of(metric: str) -> tuple[float, float]:
    """``(low, high)`` of a metric's values.

    >>> bounds_of("mcc"), bounds_of("lr_plus"), bounds_of("no such id")
    ((-1.0, 1.0), (0.0, inf), (-inf, inf))
    """
    if metric in _UNIT:
        return 0.0, 1.0
    if metric in _SIGNED:
        return -1.0, 1.0
    if metric in _UNBOUNDED_ABOVE:
        return 0.0, _INF
    if metric.startswith("net_benefit@"):  # TP/n − (FP/n)·t/(1 − t): from −t/(1 − t) (all negatives flagged) to 1
        try:
            t = float(metric.split("@", 1)[1])
        except ValueError:
            return -_INF, _INF
        return (min(-1.0, -t / (1.0 - t)), 1.0) if 0.0 < t < 1.0 else (-_INF, _INF)
    return _OTHER.get(metric, (-_INF, _INF))


def difference_bounds(metric: str) -> tuple[float, float]:
    """The range of a difference of two values of ``metric``."""
    lo, hi = bounds_of(metric)
    return lo - hi, hi - lo
