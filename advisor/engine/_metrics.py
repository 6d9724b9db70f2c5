"""Every metric of the science brief (§2), computed from confusion matrices.

Design
------
* One pass of shared statistics (``a_i`` true sizes, ``b_i`` predicted sizes, ``TP_i``, ``n``) feeds
  every metric; each per-class quantity (recall, precision, F1, ...) is defined once in
  :mod:`advisor.engine._components` and each metric once in :data:`METRICS`. Binary metrics are the per-class
  quantities of the positive class, not a second copy of the formulas.
* Confusion data are held as non-zero cells (:class:`advisor.engine._cells.Cells`): each metric is
  computed from what it needs — the diagonal, row and column sums, the off-diagonal mass, and (for
  the confusion entropy only) the non-zero off-diagonal cells — in ``O(nnz + k)``; no ``k × k``
  table is built, so 100,000 classes cost what their non-zero cells cost.
* Everything is vectorised over leading batch axes: a dense ``(..., k, k)`` stack or a batch of cells,
  so the bootstrap evaluates thousands of resampled matrices in one call.
* No tolerance decides that something is zero: every zero test is on a sum of non-negative masses
  (``Σ_{j≠i} a_j`` rather than ``n − a_i``; false negatives and positives from the off-diagonal cells),
  which is 0 only when every term is — a class of one item among 10¹⁵, or of weight 10⁻³ beside 10¹⁵,
  is a class. Integer counts are exact in float64 below 2⁵³; whole-number totals from 2⁵³ on are
  refused (a class of a few items would vanish in the sums), as are totals above 10⁷⁵, which the
  formulas could not square without overflow. Rates that are differences from 1 (FPR = 1 − TNR,
  FNR, the false omission rate) are computed from the counts, so LR± do not cancel.
* Undefined values (zero denominators) are resolved by one of three conventions and every resolution
  is recorded (for unbatched input) so reports can say what happened:

  ``zero``     undefined ratios count as 0; MCC and kappa are 0 when their denominator is 0
               (Opitz & Burst 2019). This is what scikit-learn's ``precision_score``,
               ``recall_score``, ``f1_score``, ``fbeta_score`` and ``jaccard_score`` compute with
               ``zero_division=0`` (macro averages over the union of the labels), and MCC matches
               ``matthews_corrcoef``. It differs from ``balanced_accuracy_score``, which drops a class
               absent from the truth (that is the ``omit`` convention here), and from
               ``cohen_kappa_score``, which returns NaN where kappa is 0 here
               (tests/test_exact_counts.py checks each of these statements).
  ``baseline`` Gösgens et al. (2021), Appendix B: a ratio ``C_ii / a_i`` with ``a_i = 0`` takes its
               expected value ``b_i / n`` (and 1 when ``b_i = 0`` too: a class absent from both
               labelings is one they agree on completely, so maximal agreement holds);
               singularities that only occur at maximal agreement (e.g. F1 or Jaccard with
               ``a_i = b_i = 0``) take the maximum; a correlation whose
               denominator vanishes takes 1 (both labelings constant and equal), −1 (constant and
               different) or 0 (only one constant: constant baseline).
  ``omit``     undefined per-class values are left out of averages; a scalar metric that is itself
               undefined is NaN ("not reported").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import get_close_matches
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError, UnknownMetricError
from ._cells import Cells
from ._components import (
    CONVENTIONS,
    PER_CLASS_FIELDS,
    MetricResult,
    UndefinedValue,
    _harmonic,
    _tn,
    _Stats,
)
from ._confusion import ConfusionMatrix, Label, cells_and_labels, label_index
from ._decisions import extra_specs as decision_specs
from ._names import metric_list
from ._scores import extra_specs
from ._selective import extra_specs as selective_specs
from ._bias import extra_specs as bias_specs
from ._fairness import extra_specs as fairness_specs

__all__ = [
    "BINARY_METRICS",
    "CONVENTIONS",
    "LOWER_IS_BETTER",
    "METRICS",
    "MULTICLASS_METRICS",
    "NEEDS_PARAMETERS",
    "ONE_VS_REST",
    "PARAMETER_OF",
    "PER_CLASS_FIELDS",
    "PROBABILITY_METRICS",
    "MetricResult",
    "UndefinedValue",
    "CLASS_METRICS",
    "class_metric",
    "class_metric_id",
    "class_subset_mask",
    "class_weight_vector",
    "compute_metrics",
    "evaluate_batch",
    "per_class",
    "values_by_class",
]

# ----------------------------------------------------------------------------------------------
# Metrics
# ----------------------------------------------------------------------------------------------
def _accuracy(s: _Stats) -> np.ndarray:
    return s.tp.sum(axis=-1) / s.n


def _balanced_accuracy(s: _Stats) -> np.ndarray:
    return s.once("balanced_accuracy", lambda s: s.mean(s.comp("recall").value))


def _adjusted_balanced_accuracy(s: _Stats) -> np.ndarray:
    return (_balanced_accuracy(s) - 1.0 / s.k) / (1.0 - 1.0 / s.k)


def _class_weighted_recall(s: _Stats) -> np.ndarray:
    """``Σ_i w_i R_i / Σ_i w_i`` with the user's class weights (balanced accuracy when they are equal)."""
    if s.weights is None:
        raise InputError("class_weighted_recall needs class weights (class_weights={class: weight, …}).")
    return s.weighted(s.comp("recall").value, s.weights)


def _class_weighted_accuracy(s: _Stats) -> np.ndarray:
    """``Σ_i w_i C_ii / Σ_i w_i a_i``: accuracy with each item weighted by its true class's weight (the weighted
    accuracy of the PhysioNet Challenge 2022, Reyna et al. 2023; accuracy when the weights are equal).

    Its denominator is 0 only when every class with a positive weight is absent from the truth. The baseline
    convention then takes what the class-weighted mean recall takes there, ``Σ w_i r_i / Σ w_i`` with the
    expected recall ``r_i = b_i / n`` of a class absent from the truth (1 when it is not predicted either)."""
    if s.weights is None:
        raise InputError("class_weighted_accuracy needs class weights (class_weights={class: weight, …}).")
    w = s.weights
    num = (w * s.tp).sum(axis=-1)
    den = (w * s.a).sum(axis=-1)  # non-negative terms: 0 exactly when every weighted class is absent
    undef = ~(den > 0)
    val = num / np.where(undef, 1.0, den)
    base: Any = 0.0
    if s.convention == "baseline":
        expected = np.where(s.b > 0, s.b / s.nk, 1.0)
        base = (w * expected).sum(axis=-1) / w.sum(axis=-1)
    return s.scalar_undefined(val, undef, 0.0, base, "weighted class size Σ w_i a_i",
                              "every class with a positive weight is absent from the test items",
                              "the weighted mean of the expected recalls b_i/n (1 for a class not predicted either)")


def _in_scope_accuracy(s: _Stats) -> np.ndarray:
    """``Σ_{i≠o} C_ii / Σ_{i≠o} a_i``: the accuracy over the items whose true class is not the out-of-scope class
    ``o`` (the class of interest), the in-scope accuracy of intent classification with out-of-scope queries
    (Larson et al. 2019). An in-scope item predicted as out-of-scope counts as an error; out-of-scope items do not
    count. Its denominator is 0 only when every item is out-of-scope; the baseline convention then takes what
    accuracy takes on no items, the expected recall of a class absent from the truth, 1."""
    if s.pos is None:
        raise InputError("in_scope_accuracy needs the out-of-scope class as the class of interest (positive_label).")
    inside = np.arange(s.k) != s.pos
    num = s.tp[..., inside].sum(axis=-1)
    den = s.a[..., inside].sum(axis=-1)
    undef = ~(den > 0)
    val = num / np.where(undef, 1.0, den)
    return s.scalar_undefined(val, undef, 0.0, 1.0, "number of in-scope items Σ_{i≠o} a_i",
                              "every test item is of the out-of-scope class", "1")


def _fallback_of(s: _Stats, mid: str) -> int:
    if s.fallback is None:
        raise InputError(f"{mid} needs the class whose prediction takes no action (fallback_class=class).")
    return s.fallback


def _wrong_action_rate(s: _Stats) -> np.ndarray:
    """``Σ_{j≠f} (b_j − C_jj) / n``: the share of the items on which an action is taken (the predicted class is not
    the fallback class ``f``, which takes none) and is wrong (the predicted class is not the true one). An item of
    the fallback class taken as another class counts; an item taken as the fallback class does not. Its
    denominator ``n`` is never 0 (an empty matrix is refused)."""
    f = _fallback_of(s, "wrong_action_rate")
    acting = np.arange(s.k) != f
    return (s.b[..., acting] - s.tp[..., acting]).sum(axis=-1) / s.n  # non-negative terms: b_j ≥ C_jj


def _fallback_rate(s: _Stats) -> np.ndarray:
    """``(b_f − C_ff) / Σ_{i≠f} a_i``: among the items whose true class is not the fallback class ``f``, the share
    predicted as ``f`` (no action taken where one was due). Its denominator is 0 only when every item is of the
    fallback class; the baseline convention then takes the expected share of a class absent from the truth,
    ``b_f / n``."""
    f = _fallback_of(s, "fallback_rate")
    others = np.arange(s.k) != f
    num = s.b[..., f] - s.tp[..., f]  # the column of f off its diagonal: items of other classes predicted as f
    den = s.a[..., others].sum(axis=-1)
    undef = ~(den > 0)
    val = num / np.where(undef, 1.0, den)
    return s.scalar_undefined(val, undef, 0.0, s.b[..., f] / s.n, "number of items of other classes Σ_{i≠f} a_i",
                              "every test item is of the fallback class", "b_f / n")


def _actions_of(s: _Stats, mid: str) -> np.ndarray:
    if s.actions is None:
        raise InputError(f"{mid} needs the classes of the action of interest (action_classes=[class, …]).")
    return s.actions


def _action_share(s: _Stats, group: np.ndarray) -> np.ndarray:
    """``Σ_{i∈g}Σ_{j∈g} C_ij / Σ_{i∈g} a_i``: among the items whose true class is in ``g``, the share classified
    into a class of ``g`` (the same action taken). Its denominator is 0 only when no item's true class is in ``g``;
    the baseline convention then takes the expected share classified into ``g``, ``Σ_{j∈g} b_j / n``."""
    if hasattr(s.cells, "w"):
        inside = (s.cells.w * (group[s.cells.rows] & group[s.cells.cols])).sum(axis=-1)
    else:  # a chance reference given by its sums (engine._chance): C_ij = a_i b_j / n, so the block is a product
        inside = s.a[..., group].sum(axis=-1) * s.b[..., group].sum(axis=-1) / s.n
    den = s.a[..., group].sum(axis=-1)
    undef = ~(den > 0)
    val = inside / np.where(undef, 1.0, den)
    return s.scalar_undefined(val, undef, 0.0, s.b[..., group].sum(axis=-1) / s.n,
                              "number of items whose true class is in the group",
                              "no test item's true class leads to this action", "Σ_{j∈G} b_j / n")


def _action_sensitivity(s: _Stats) -> np.ndarray:
    """``Σ_{i∈G}Σ_{j∈G} C_ij / Σ_{i∈G} a_i``: the share of the items whose true class leads to the action of
    interest (the classes ``G``) that are classified into a class leading to it too; an error between two classes
    of ``G`` does not count."""
    return _action_share(s, _actions_of(s, "action_sensitivity"))


def _action_specificity(s: _Stats) -> np.ndarray:
    """``Σ_{i∉G}Σ_{j∉G} C_ij / Σ_{i∉G} a_i``: the share of the items whose true class does not lead to the action
    of interest that are classified into a class that does not lead to it either."""
    return _action_share(s, ~_actions_of(s, "action_specificity"))


def _stratified_accuracy(s: _Stats) -> np.ndarray:
    """``Σ_j W_j C_jj / b_j / Σ_j W_j``: overall accuracy of a sample stratified by the predicted (map) class, each
    stratum's share correct (its user's accuracy, the precision of class j) weighted by the share ``W_j`` of the
    population predicted as j (Olofsson et al. 2014, eqs. 1 and 4: the sum of the estimated diagonal proportions
    ``p̂_jj = W_j C_jj / b_j``). With weights proportional to the predicted sizes b_j it is accuracy. A stratum with
    no sample items has no precision; its undefined value is resolved as in macro precision."""
    if s.weights is None:
        raise InputError("stratified_accuracy needs the mapped share of each predicted class "
                         "(class_weights={class: share, …}).")
    return s.weighted(s.comp("precision").value, s.weights)


def _macro_f1_of_classes(s: _Stats) -> np.ndarray:
    """``(1/|S|) Σ_{i∈S} 2C_ii / (a_i + b_i)``: the mean per-class F1 over the chosen classes S only (F1^PN of the
    SemEval sentiment tasks, S = {positive, negative}; Rosenthal et al. 2017). The other classes are not averaged
    over, but their items still count: one predicted as a class of S is a false positive of it. A class of S
    absent from both labelings has an undefined F1, resolved as in macro F1 (0, its maximum 1, or left out)."""
    if s.subset is None:
        raise InputError("macro_f1_of_classes needs the classes to average over (f1_classes=[class, …]).")
    return s.mean(s.comp("f1").value[..., s.subset])


def _macro_precision(s: _Stats) -> np.ndarray:
    return s.once("macro_precision", lambda s: s.mean(s.comp("precision").value))


def _macro_f1(s: _Stats) -> np.ndarray:
    return s.mean(s.comp("f1").value)


def _f1_of_averages(s: _Stats) -> np.ndarray:
    return _harmonic(_macro_precision(s), _balanced_accuracy(s))


def _weighted_f1(s: _Stats) -> np.ndarray:
    return s.weighted(s.comp("f1").value, s.a)


def _macro_jaccard(s: _Stats) -> np.ndarray:
    return s.mean(s.comp("jaccard").value)


def _weighted_jaccard(s: _Stats) -> np.ndarray:
    return s.weighted(s.comp("jaccard").value, s.a)


def _micro_jaccard(s: _Stats) -> np.ndarray:
    t = s.tp.sum(axis=-1)
    return t / (2 * s.n - t)


def _chance_disagreement(s: _Stats) -> tuple[np.ndarray, np.ndarray]:
    """``n² − Σ a_i b_i`` and ``n · (mass off the diagonal)``, both without cancellation.

    ``n Σ C_ii − Σ a_i b_i = (n² − Σ a_i b_i) − n (n − Σ C_ii)``; writing the first term as
    ``Σ a_i (n − b_i)`` (non-negative terms) and the second from the off-diagonal cells makes kappa
    and MCC exactly 1 on a diagonal matrix and keeps rounding small near |MCC| = 1.
    """
    den = s.once("chance", lambda s: (s.a * s.others_b).sum(axis=-1))
    off = s.cells.off  # summed from the off-diagonal cells: exactly 0 when diagonal
    return den, s.n * off


def _single_class(x: np.ndarray) -> np.ndarray:
    """Whether one class holds all the mass (decided by which sizes are positive, not by a tolerance)."""
    return (x > 0).sum(axis=-1) <= 1


def _cohen_kappa(s: _Stats) -> np.ndarray:
    den, n_off = _chance_disagreement(s)
    # Σ a_i (n − b_i) is 0 exactly when every true class's items all go to that same one predicted class
    undef = ~np.any((s.a > 0) & (s.others_b > 0), axis=-1) | ~(den > 0)
    val = (den - n_off) / np.where(undef, 1.0, den)
    return s.scalar_undefined(val, undef, 0.0, 1.0, "kappa denominator n² − Σ a_i b_i",
                              "both labelings put every item in the same single class", "1 (maximal agreement)")


def _mcc_parts(s: _Stats) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    chance, n_off = _chance_disagreement(s)
    num = chance - n_off  # = n Σ C_ii − Σ a_i b_i
    # n² − Σ a_i² written as Σ a_i (n − a_i) (Σ a_i = n): non-negative terms, so rounding is not
    # amplified near |MCC| = 1, where correlation_distance = arccos(MCC)/π is most sensitive
    var_b = (s.b * s.others_b).sum(axis=-1)
    var_a = (s.a * s.others_a).sum(axis=-1)
    const_a = _single_class(s.a) | ~(var_a > 0)  # (or every product underflowed)
    const_b = _single_class(s.b) | ~(var_b > 0)
    return num, var_a * var_b, const_a, const_b


def _mcc(s: _Stats) -> np.ndarray:
    return s.once("mcc", _mcc_values)


def _mcc_values(s: _Stats) -> np.ndarray:
    num, den2, const_a, const_b = _mcc_parts(s)
    undef = const_a | const_b
    val = np.clip(num / np.sqrt(np.where(undef, 1.0, den2)), -1.0, 1.0)
    # Baseline resolution (Gösgens et al. App. B): both constant -> 1 if the same class, else -1;
    # only one constant -> 0 (constant baseline).
    base: Any = 0.0
    if s.convention == "baseline":
        same = np.all((s.a > 0) == (s.b > 0), axis=-1)
        base = np.where(const_a & const_b, np.where(same, 1.0, -1.0), 0.0)
    return s.scalar_undefined(val, undef, 0.0, base, "MCC denominator",
                              "one labeling puts every item in the same class",
                              "1 / −1 if both labelings are constant (same / different class), else 0")


def _sba(s: _Stats) -> np.ndarray:
    # SBA = (1/2k) Σ (C_ii/a_i + C_ii/b_i) = ½ (BA(C) + BA(Cᵀ)), seed 003 Table 1.
    return 0.5 * (_balanced_accuracy(s) + _macro_precision(s))


def _gm1(s: _Stats) -> np.ndarray:
    return s.mean(s.comp("gm1").value)


def _correlation_distance(s: _Stats) -> np.ndarray:
    return np.arccos(np.clip(_mcc(s), -1.0, 1.0)) / np.pi


def _confusion_entropy(s: _Stats) -> np.ndarray:
    # Seed 003 Table 1 (after Wei et al. 2010):
    # CE = −1/(2n) Σ_{i≠j} [c_ji log_{2k−2}(c_ji/(a_j+b_j)) + c_ij log_{2k−2}(c_ij/(a_j+b_j))]
    # summed over the non-zero off-diagonal cells only (advisor.engine._cells.Cells.entropy_sum)
    total = s.cells.entropy_sum()
    return 0.0 - total / (2 * s.n * np.log(2 * s.k - 2))  # 0.0 − x: no negative zero


def _geometric_macro_recall(s: _Stats) -> np.ndarray:
    r = s.comp("recall").value
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(r > 0, np.log(np.where(r > 0, r, 1.0)), -np.inf)
        logs = np.where(np.isnan(r), np.nan, logs)
    m = s.mean(logs) if s.convention == "omit" else logs.mean(axis=-1)
    return np.exp(m)


def _harmonic_macro_recall(s: _Stats) -> np.ndarray:
    r = s.comp("recall").value
    ok = ~np.isnan(r)
    cnt = ok.sum(axis=-1)
    zero_any = np.any(ok & (r <= 0), axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(ok & (r > 0), 1.0 / np.where(r > 0, r, 1.0), 0.0).sum(axis=-1)
        val = np.where(zero_any, 0.0, cnt / np.where(inv > 0, inv, 1.0))
    return np.where(cnt > 0, val, np.nan)


def _minority_weighted_f1(s: _Stats) -> np.ndarray:
    # Seed 004: harmonic mean of Σ w_i P_i and Σ w_i R_i with w_i = (n − a_i)/((k − 1) n).
    w = s.others_a / ((s.k - 1) * s.nk)
    return _harmonic(s.weighted(s.comp("precision").value, w), s.weighted(s.comp("recall").value, w))


# -- binary metrics: the positive class's per-class quantities ----------------------------------
def _positive(name: str) -> Callable[[_Stats], np.ndarray]:
    def metric(s: _Stats) -> np.ndarray:
        assert s.pos is not None
        return s.comp(name).value[..., s.pos]

    metric.__name__ = f"_positive_{name}"
    return metric


def _fowlkes_mallows(s: _Stats) -> np.ndarray:
    return np.sqrt(_positive("precision")(s) * _positive("recall")(s))


def _complement(s: _Stats, name: str, count: np.ndarray, size: np.ndarray) -> np.ndarray:
    """``1 − rate`` of the positive class computed as ``count / size`` from the counts (FPR = FP/(n − a),
    FNR = FN/a, false omission rate = FN/(n − b)): ``1 − x`` cancels when x is within 10⁻¹² of 1. Where
    the rate itself is undefined its resolution stands, as ``1 −`` the resolved value."""
    comp = s.comp(name)
    p = s.pos
    rate = comp.value[..., p]
    with np.errstate(divide="ignore", invalid="ignore"):
        direct = count[..., p] / np.where(size[..., p] > 0, size[..., p], 1.0)
    return np.where(comp.undefined[..., p], 1.0 - rate, direct)


def _fpr(s: _Stats) -> np.ndarray:
    return _complement(s, "specificity", s.fp, s.others_a)


def _fnr(s: _Stats) -> np.ndarray:
    return _complement(s, "recall", s.fn, s.a)


def _informedness(s: _Stats) -> np.ndarray:
    return _positive("recall")(s) - _fpr(s)  # TPR + TNR − 1, without the cancellation of 1 − TNR


def _markedness(s: _Stats) -> np.ndarray:
    return _positive("precision")(s) - _complement(s, "npv", s.fn, s.others_b)  # PPV + NPV − 1 = PPV − FOR


def _likelihood_ratio(s: _Stats, num: np.ndarray, den: np.ndarray, name: str) -> np.ndarray:
    """``num/den``; ``x/0`` with x > 0 is +inf (the limit), ``0/0`` is undefined (baseline: 1). Both rates
    come from the counts, so they are 0 exactly when their count is."""
    undef = (den <= 0) & (num <= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)
    val = np.where(np.isnan(num) | np.isnan(den), np.nan, val)  # an omitted TPR/TNR is not x/0
    return s.scalar_undefined(val, undef, 0.0, 1.0, f"{name} 0/0",
                              "the classifier is constant, so both error rates in the ratio are 0",
                              "1 (an uninformative test)")


def _lr_plus(s: _Stats) -> np.ndarray:
    return _likelihood_ratio(s, _positive("recall")(s), _fpr(s), "LR+")  # TPR / FPR, FPR = FP / (FP + TN)


def _lr_minus(s: _Stats) -> np.ndarray:
    return _likelihood_ratio(s, _fnr(s), _positive("specificity")(s), "LR−")  # FNR / TNR, FNR = FN / (TP + FN)


def _lam(s: _Stats) -> np.ndarray:
    """The logistic average misclassification of the TREC Spam Track (Cormack & Lynam 2005), as a proportion (lam% is
    100 times it): ``logit⁻¹((logit(hm) + logit(sm)) / 2)``, hm the share of negatives (ham) predicted positive (the
    FPR) and sm the share of positives (spam) predicted negative (the FNR). The odds of hm and sm are FP/TN and FN/TP,
    so the logit average is the geometric mean of the odds, and ``lam = √(FP·FN) / (√(FP·FN) + √(TP·TN))``, which also
    holds where a rate is 0 (its logit −∞: lam 0 unless the other rate is 1). Its denominator is 0 only when
    FP·FN = TP·TN = 0 with FP·FN's logit average −∞ + ∞ (a constant classifier, or a class absent from the truth);
    the baseline convention takes every random classifier's value, 1/2 (its expected matrix has FP·FN = TP·TN).

    >>> import math
    >>> logit = lambda p: math.log(p / (1 - p))
    >>> hm, sm = 3 / 200, 12 / 80  # FP = 3 of 200 ham, FN = 12 of 80 spam
    >>> trec = 1 / (1 + math.exp(-(logit(hm) + logit(sm)) / 2))
    >>> r = compute_metrics([[197, 3], [12, 68]], ["lam"], positive_label=1)
    >>> round(trec, 12) == round(float(r["lam"]), 12), round(100 * float(r["lam"]), 3)
    (True, 4.928)
    >>> float(compute_metrics([[200, 0], [12, 68]], ["lam"], positive_label=1)["lam"])  # no ham misfiled
    0.0
    """
    p = s.pos
    fp, fn, tp, tn = s.fp[..., p], s.fn[..., p], s.tp[..., p], _tn(s)[..., p]
    wrong, right = np.sqrt(fp * fn), np.sqrt(tp * tn)
    den = wrong + right
    undef = ~(den > 0)
    val = wrong / np.where(undef, 1.0, den)
    return s.scalar_undefined(val, undef, 0.0, 0.5, "√(FP·FN) + √(TP·TN)",
                              "no item is misclassified in one direction while none is right in the other (a constant "
                              "classifier, or a class absent from the truth)", "1/2, every random classifier's value")


@dataclass(frozen=True)
class MetricSpec:
    """How to compute one metric id."""

    id: str
    fn: Callable[[_Stats], np.ndarray]
    binary_only: bool = False
    #: computed with respect to the class of interest among any number of classes (the out-of-scope class)
    needs_positive: bool = False
    needs_probabilities: bool = False
    alias_of: str | None = None
    higher_is_better: bool = True
    #: compares the subgroups of a subgroup column (the adverse impact ratio): item predictions and by=, no matrix
    needs_subgroups: bool = False


def _spec_table() -> dict[str, MetricSpec]:
    multi: list[tuple[str, Callable[[_Stats], np.ndarray]]] = [
        ("accuracy", _accuracy),
        ("balanced_accuracy", _balanced_accuracy),
        ("macro_recall", _balanced_accuracy),
        ("adjusted_balanced_accuracy", _adjusted_balanced_accuracy),
        ("macro_precision", _macro_precision),
        ("macro_f1", _macro_f1),
        ("f1_of_averages", _f1_of_averages),
        ("weighted_f1", _weighted_f1),
        ("micro_f1", _accuracy),
        ("macro_jaccard", _macro_jaccard),
        ("weighted_jaccard", _weighted_jaccard),
        ("micro_jaccard", _micro_jaccard),
        ("cohen_kappa", _cohen_kappa),
        ("mcc", _mcc),
        ("sba", _sba),
        ("gm1", _gm1),
        ("correlation_distance", _correlation_distance),
        ("confusion_entropy", _confusion_entropy),
        ("geometric_macro_recall", _geometric_macro_recall),
        ("harmonic_macro_recall", _harmonic_macro_recall),
        ("minority_weighted_f1", _minority_weighted_f1),
        ("class_weighted_recall", _class_weighted_recall),
        ("class_weighted_accuracy", _class_weighted_accuracy),
        ("macro_f1_of_classes", _macro_f1_of_classes),
        ("stratified_accuracy", _stratified_accuracy),
    ]
    binary: list[tuple[str, Callable[[_Stats], np.ndarray]]] = [
        ("precision", _positive("precision")),
        ("recall", _positive("recall")),
        ("f1", _positive("f1")),
        ("f_beta", _positive("f_beta")),
        ("specificity", _positive("specificity")),
        ("npv", _positive("npv")),
        ("jaccard", _positive("jaccard")),
        ("fowlkes_mallows", _fowlkes_mallows),
        ("informedness", _informedness),
        ("markedness", _markedness),
        ("lr_plus", _lr_plus),
        ("lr_minus", _lr_minus),
        ("lam", _lam),
    ]
    table = {mid: MetricSpec(mid, fn) for mid, fn in multi}
    table["in_scope_accuracy"] = MetricSpec("in_scope_accuracy", _in_scope_accuracy, needs_positive=True)
    table["wrong_action_rate"] = MetricSpec("wrong_action_rate", _wrong_action_rate, higher_is_better=False)
    table["fallback_rate"] = MetricSpec("fallback_rate", _fallback_rate, higher_is_better=False)
    table["action_sensitivity"] = MetricSpec("action_sensitivity", _action_sensitivity)
    table["action_specificity"] = MetricSpec("action_specificity", _action_specificity)
    table["macro_recall"] = MetricSpec("macro_recall", _balanced_accuracy, alias_of="balanced_accuracy")
    table["micro_f1"] = MetricSpec("micro_f1", _accuracy, alias_of="accuracy")
    table.update({mid: MetricSpec(mid, fn, binary_only=True) for mid, fn in binary})
    for mid in ("log_loss", "brier"):
        table[mid] = MetricSpec(mid, _needs_probabilities, needs_probabilities=True)
    for mid in ("correlation_distance", "confusion_entropy", "lr_minus", "lam", "log_loss", "brier"):
        table[mid] = replace(table[mid], higher_is_better=False)
    table.update(extra_specs(MetricSpec))  # cost and score metrics (issue 11), defined in their own module
    table.update(decision_specs(MetricSpec))  # operating constraints, calibration, forecasts (issue 21)
    table.update(selective_specs(MetricSpec))  # selective prediction (issue 23 item 2)
    table.update(bias_specs(MetricSpec))  # the bias AUCs of a subgroup column (Borkan et al. 2019)
    table.update(fairness_specs(MetricSpec))  # the adverse impact ratio and the Jigsaw bias score, across subgroups
    return table


def _needs_probabilities(s: _Stats) -> np.ndarray:  # pragma: no cover - guarded in _resolve_ids
    raise InputError("log_loss and brier need predicted probabilities, not a confusion matrix.")


METRICS: dict[str, MetricSpec] = _spec_table()
#: metrics that need a parameter nobody can default (the user's class weights, the classes averaged over):
#: computed when asked for
NEEDS_PARAMETERS: tuple[str, ...] = ("class_weighted_recall", "class_weighted_accuracy", "macro_f1_of_classes",
                                     "stratified_accuracy", "wrong_action_rate", "fallback_rate",
                                     "action_sensitivity", "action_specificity")
#: the parameter each of them needs, as the engine's keyword names it
PARAMETER_OF: dict[str, str] = {"class_weighted_recall": "class_weights", "class_weighted_accuracy": "class_weights",
                                "macro_f1_of_classes": "f1_classes",
                                # the weights of the strata: the shares of the population predicted as each class
                                "stratified_accuracy": "class_weights",
                                # the class whose prediction takes no action (asks to rephrase, defers to a human)
                                "wrong_action_rate": "fallback_class", "fallback_rate": "fallback_class",
                                # the classes that lead to the action of interest (a child referred)
                                "action_sensitivity": "action_classes", "action_specificity": "action_classes"}
#: binary metrics of one class that are also computed one-vs-rest for a class of interest among several
ONE_VS_REST: tuple[str, ...] = ("precision", "recall", "f1", "f_beta", "specificity", "npv", "jaccard")
#: the per-class figures a metric of one named class can be (``f1@deny``: the F1 of the class “deny”, one-vs-rest),
#: whatever the positive class: several classes the author names as costly each get their own (answers
#: focus_classes)
CLASS_METRICS: tuple[str, ...] = ("recall", "precision", "f1")


def class_metric_id(metric: str, label: Any) -> str:
    """The id of ``metric`` (one of :data:`CLASS_METRICS`) computed one-vs-rest for the class ``label``.

    >>> class_metric_id("f1", "deny")
    'f1@deny'
    """
    if metric not in CLASS_METRICS:
        raise InputError(f"{metric} is no per-class figure; one of {', '.join(CLASS_METRICS)}.")
    return f"{metric}@{label}"


def class_metric(metric_id: str) -> tuple[str, str] | None:
    """``(metric, class)`` of a metric of one named class (``"f1@deny"`` → ``("f1", "deny")``), None for any other
    id (net benefit at a risk threshold, ``net_benefit@0.1``, is none).

    >>> class_metric("recall@pleural effusion"), class_metric("net_benefit@0.1"), class_metric("f1")
    (('recall', 'pleural effusion'), None, None)
    """
    base, sep, label = metric_id.partition("@")
    return (base, label) if sep and base in CLASS_METRICS and label else None


def class_indices(ids: Sequence[str], labels: Sequence[Label]) -> dict[str, int] | None:
    """Each metric of one named class among ``ids`` → the index of its class among ``labels`` (matched as text);
    None when there is none. A class that is not among ``labels`` is one sentence naming it."""
    out: dict[str, int] = {}
    for m in ids:
        named = class_metric(m)
        if named is None:
            continue
        i = next((j for j, lab in enumerate(labels) if str(lab) == named[1]), None)
        if i is None:
            raise InputError(f"{m} is the {named[0]} of the class {named[1]!r}, which is not a class of the data; the "
                             f"classes are {', '.join(map(str, list(labels)[:10]))}{' …' if len(labels) > 10 else ''}.")
        out[m] = i
    return out or None


def _class_value(s: _Stats, metric_id: str, index: int) -> np.ndarray:
    """The one-vs-rest figure of one class: its recall, precision or F1 under the convention in force."""
    named = class_metric(metric_id)
    assert named is not None
    return s.comp(named[0]).value[..., index]


MULTICLASS_METRICS: tuple[str, ...] = tuple(m for m, s in METRICS.items() if not s.binary_only and not s.needs_probabilities
                                             and m not in ("expected_cost", "normalized_expected_cost")
                                             and m not in NEEDS_PARAMETERS and not s.needs_positive
                                             and not s.needs_subgroups)
BINARY_METRICS: tuple[str, ...] = tuple(m for m, s in METRICS.items() if s.binary_only and not s.needs_probabilities
                                        and not s.needs_subgroups)
PROBABILITY_METRICS: tuple[str, ...] = ("log_loss", "brier")
LOWER_IS_BETTER: frozenset[str] = frozenset(m for m, s in METRICS.items() if not s.higher_is_better)


# ----------------------------------------------------------------------------------------------
# Public entry points
# ----------------------------------------------------------------------------------------------
def _check_convention(undefined: str) -> None:
    if undefined not in CONVENTIONS:
        raise InputError(f"undefined must be one of {', '.join(CONVENTIONS)}; got {undefined!r}.")


def _resolve_ids(metrics: Sequence[str] | None, k: int, has_positive: bool) -> list[str]:
    if metrics is None:
        ids = list(MULTICLASS_METRICS)
        if k == 2 and has_positive:
            ids += list(BINARY_METRICS)
        return ids
    ids = []
    for m in metric_list(metrics) or []:  # catalogue names and aliases → ids (advisor/engine/_names.py)
        if class_metric(m) is not None:  # the figure of one named class (f1@deny): its class is checked with the labels
            if m not in ids:
                ids.append(m)
            continue
        if m not in METRICS:
            hint = get_close_matches(m, METRICS.keys(), n=1)
            extra = f" Did you mean {hint[0]!r}?" if hint else ""
            raise UnknownMetricError(f"unknown metric id {m!r}.{extra} Known ids: {', '.join(METRICS)}.")
        spec = METRICS[m]
        if spec.needs_probabilities:
            raise InputError(f"{m} needs predicted probabilities (one column per class), not a confusion matrix.")
        if spec.needs_subgroups:
            raise InputError(f"{m} compares the subgroups of a subgroup column: give it to the report with a subgroup "
                             "column (--by), not a confusion matrix.")
        if spec.needs_positive and not has_positive:
            raise InputError(f"{m} is computed with respect to a class of interest (the out-of-scope class), but no "
                             "positive label (class of interest) was given.")
        if spec.binary_only and not has_positive:
            raise InputError(f"{m} is a metric of one class, but no positive label (class of interest) was given.")
        if spec.binary_only and k != 2 and m not in ONE_VS_REST:
            raise InputError(f"{m} is a binary metric of a positive class, but the task has {k} classes; for a class "
                             f"of interest among several, {', '.join(ONE_VS_REST)} are computed one-vs-rest.")
        if m not in ids:
            ids.append(m)
    return ids


def evaluate_batch(
    counts: Any,
    metrics: Sequence[str],
    *,
    positive_index: int | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    class_weights: np.ndarray | None = None,
    f1_classes: np.ndarray | None = None,
    fallback_index: int | None = None,
    action_mask: np.ndarray | None = None,
    class_index: Mapping[str, int] | None = None,
) -> dict[str, np.ndarray]:
    """Evaluate ``metrics`` on a batch of matrices without provenance records.

    ``counts`` is a :class:`~advisor.engine._cells.Cells` batch (what the bootstrap draws) or a dense
    stack ``(..., k, k)`` (converted to its non-zero cells). The fast path used by the bootstrap;
    ids must already be valid; ``class_weights`` and ``f1_classes`` are resolved already (a weight vector and a
    boolean mask of the classes, in label order); ``class_index`` maps each metric of one named class (``f1@deny``)
    to its class's index (:attr:`MetricResult.class_index`).
    """
    cells = counts if isinstance(counts, Cells) else Cells.from_dense(counts)
    s = _Stats(cells, undefined, beta, positive_index)
    s.weights = class_weights
    s.subset = None if f1_classes is None else np.asarray(f1_classes, dtype=bool)
    s.fallback = fallback_index
    s.actions = None if action_mask is None else np.asarray(action_mask, dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {m: _class_value(s, m, class_index[m]) if class_index and m in class_index else METRICS[m].fn(s)
                for m in metrics}


def compute_metrics(
    matrix: Any,
    metrics: Sequence[str] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    class_weights: Any = None,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
) -> MetricResult:
    r"""Compute classification metrics from a confusion matrix.

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like of shape (k, k) or (..., k, k)
        Rows are true classes, columns predicted classes. Leading axes are a batch. A
        :class:`ConfusionMatrix` built from cells (``ConfusionMatrix.from_cells``) is evaluated from
        its non-zero cells in ``O(nnz + k)``, whatever ``k``.
    metrics : sequence of str, optional
        Metric ids (see :data:`METRICS`). By default every multi-class metric, plus the binary ones
        when ``k == 2`` and ``positive_label`` is given.
    positive_label : int or str, optional
        The class the binary metrics (precision, recall, F1, ...) refer to. For a bare array it is
        the class index.
    beta : float
        The β of ``f_beta`` (recall weighted β times as much as precision).
    undefined : {"zero", "baseline", "omit"}
        How undefined values are resolved (see the module docstring); each one is listed in
        ``result.undefined``.
    class_weights : mapping label → weight, or k weights in label order, optional
        The weights of ``class_weighted_recall``, ``Σ w_i R_i / Σ w_i``, and of ``class_weighted_accuracy``,
        ``Σ w_i C_ii / Σ w_i a_i`` (every class needs one; 0 is allowed).
    f1_classes : sequence of labels, optional
        The classes ``macro_f1_of_classes`` averages the per-class F1 over (F1^PN: ``["positive", "negative"]``);
        each must be a class of the matrix, named once.
    fallback_class : int or str, optional
        The class whose prediction takes no action (asks to rephrase, defers to a human), for
        ``wrong_action_rate`` and ``fallback_rate``; a class of the matrix.
    action_classes : sequence of labels, optional
        The classes that lead to the action of interest (a child classified murmur "present" or "unknown" is
        referred), for ``action_sensitivity`` and ``action_specificity``; each a class of the matrix, named once,
        and not every class.

    Returns
    -------
    MetricResult
        Mapping metric id → float (arrays for batched input).

    Examples
    --------
    >>> r = compute_metrics([[5, 1], [2, 3]])
    >>> round(r["accuracy"], 4), round(r["balanced_accuracy"], 4), round(r["mcc"], 4)
    (0.7273, 0.7167, 0.4485)
    >>> r = compute_metrics([[5, 0], [2, 0]], ["macro_precision"])  # the never-predicted class is left out
    >>> round(r["macro_precision"], 4), r.undefined[0].reason
    (0.7143, 'class is never predicted (b_i = 0)')
    >>> round(compute_metrics([[5, 0], [2, 0]], ["macro_precision"], undefined="zero")["macro_precision"], 4)
    0.3571
    >>> r = compute_metrics([[2 * 10**12, 0], [0, 1]], ["balanced_accuracy", "mcc"])
    >>> r["balanced_accuracy"], r["mcc"]
    (1.0, 1.0)
    """
    cells, labels = cells_and_labels(matrix)
    return metrics_of_cells(cells, labels, metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                            class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)


def class_weight_vector(weights: Any, labels: Sequence[Label]) -> np.ndarray | None:
    """The class weights in the order of ``labels`` (None for None); every class needs a finite weight ≥ 0 and
    at least one must be positive.

    >>> class_weight_vector({"b": 1, "a": 3}, ["a", "b"]).tolist()
    [3.0, 1.0]
    """
    if weights is None:
        return None
    if hasattr(weights, "items"):
        values = values_by_class(weights, labels, "class_weights", "no weight for class {label!r}; give every class "
                                 "a weight (0 leaves a class out)")
    else:
        if isinstance(weights, (str, bytes)) or not hasattr(weights, "__iter__"):
            raise InputError("class_weights must give each class a weight: a mapping class → weight or one number per "
                             f"class; got {type(weights).__name__}.")
        values = list(weights)
        if len(values) != len(labels):
            raise InputError(f"class_weights has {len(values)} weights for {len(labels)} classes.")
    try:
        w = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("class_weights must be numbers.") from None
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise InputError(f"class_weights must be finite numbers ≥ 0, at least one positive; got {values!r}.")
    return w


def values_by_class(mapping: Any, labels: Sequence[Any], key: str, missing: str) -> list[Any]:
    """The values of a mapping class → value in the order of ``labels``, classes matched as text; a class the
    mapping names that is not among ``labels``, or a class of ``labels`` it leaves out, is one sentence naming
    ``key`` (``missing`` says what is missing, with ``{label}``).

    >>> values_by_class({"b": 1, "a": 3}, ["a", "b"], "class_weights", "no weight for class {label!r}")
    [3, 1]
    """
    by_text = {str(c): v for c, v in mapping.items()}
    unknown = [c for c in by_text if c not in {str(lab) for lab in labels}]
    if unknown:
        raise InputError(f"{key} names {unknown[0]!r}, which is not a class; the classes are "
                         f"{', '.join(map(str, list(labels)[:10]))}{' …' if len(labels) > 10 else ''}.")
    absent = [lab for lab in labels if str(lab) not in by_text]
    if absent:
        raise InputError(f"{key} gives " + missing.format(label=absent[0]) + ".")
    return [by_text[str(lab)] for lab in labels]


def class_subset_mask(classes: Any, labels: Sequence[Label]) -> np.ndarray | None:
    """The classes ``macro_f1_of_classes`` averages over, as a mask in the order of ``labels`` (None for None).
    Each is a class of ``labels`` (matched as written or as text), named once; a mask of ``k`` booleans is taken
    as it is (what :class:`MetricResult` keeps).

    >>> class_subset_mask(["positive", "negative"], ["negative", "neutral", "positive"]).tolist()
    [True, False, True]
    """
    if classes is None:
        return None
    if isinstance(classes, np.ndarray) and classes.dtype == bool:
        if classes.shape != (len(labels),) or not classes.any():
            raise InputError(f"f1_classes as a mask needs {len(labels)} booleans, at least one true; got "
                             f"{classes.tolist()!r}.")
        return classes.copy()
    if isinstance(classes, (str, bytes)) or not hasattr(classes, "__iter__") or hasattr(classes, "items"):
        raise InputError(f"f1_classes must be a list of classes to average the F1 over, e.g. [positive, negative]; "
                         f"got {classes!r}.")
    named = list(classes)
    if not named:
        raise InputError("f1_classes is empty; name at least one class to average the F1 over.")
    by_text = {str(lab): i for i, lab in enumerate(labels)}
    mask = np.zeros(len(labels), dtype=bool)
    for c in named:
        i = next((j for j, lab in enumerate(labels) if lab == c), by_text.get(str(c)))
        if i is None:
            raise InputError(f"f1_classes names {c!r}, which is not a class; the classes are "
                             f"{', '.join(map(str, labels[:10]))}{' …' if len(labels) > 10 else ''}.")
        if mask[i]:
            raise InputError(f"f1_classes names {c!r} twice; name each class to average over once.")
        mask[i] = True
    return mask


def _action_mask(classes: Any, labels: Sequence[Label], ids: Sequence[str]) -> np.ndarray | None:
    """The mask of the classes of the action of interest; a metric that needs it and has none is refused, and so is
    a group of every class (nothing would lead to the other action)."""
    needing = [m for m in ids if PARAMETER_OF.get(m) == "action_classes"]
    if classes is None:
        if needing:
            raise InputError(f"{needing[0]} needs the classes of the action of interest (action_classes=[class, …]).")
        return None
    try:
        mask = class_subset_mask(classes, labels)
    except InputError as e:
        raise InputError(str(e).replace("f1_classes", "action_classes").replace("average the F1 over",
                                                                                 "group into the action")) from None
    if mask is not None and mask.all():
        raise InputError("action_classes names every class; the other action needs at least one class.")
    return mask


def metrics_of_cells(
    cells: Cells,
    labels: tuple[Label, ...],
    metrics: Sequence[str] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    records: bool = True,
    class_weights: Any = None,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
) -> MetricResult:
    """:func:`compute_metrics` on confusion data already held as cells (``labels`` index them).

    ``records=False`` skips the undefined-value records (for callers that only need the values).
    """
    _check_convention(undefined)
    if not (isinstance(beta, (int, float)) and np.isfinite(beta) and beta > 0):
        raise InputError(f"beta must be a positive number; got {beta!r}.")
    k = cells.k
    if k < 2:
        raise InputError(f"the matrix has only {k} class; metrics need at least two classes (pass the full label set).")
    if np.any(cells.n <= 0):
        raise InputError("the confusion matrix is all zeros: there is nothing to evaluate.")
    pos = None
    pos_label = None
    if positive_label is not None:
        pos = label_index(labels, positive_label)
        pos_label = labels[pos]
    ids = _resolve_ids(metrics, k, pos is not None)
    weights = class_weight_vector(class_weights, labels)
    subset = class_subset_mask(f1_classes, labels)
    needing = [m for m in ids if PARAMETER_OF.get(m) == "class_weights"]
    if weights is None and needing:
        raise InputError(f"{needing[0]} needs class weights (class_weights={{class: weight, …}}).")
    if subset is None and "macro_f1_of_classes" in ids:
        raise InputError("macro_f1_of_classes needs the classes to average over (f1_classes=[class, …]).")
    fallback = None if fallback_class is None else label_index(labels, fallback_class)
    needing = [m for m in ids if PARAMETER_OF.get(m) == "fallback_class"]
    if fallback is None and needing:
        raise InputError(f"{needing[0]} needs the class whose prediction takes no action (fallback_class=class).")
    s = _Stats(cells, undefined, float(beta), pos)
    s.weights = weights
    s.subset = subset
    s.fallback = fallback
    s.actions = _action_mask(action_classes, labels, ids)
    s.classes = class_indices(ids, labels)
    values: dict[str, Any] = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for m in ids:
            s.current = m
            v = _class_value(s, m, s.classes[m]) if s.classes and m in s.classes else METRICS[m].fn(s)
            values[m] = float(v) if np.ndim(v) == 0 else np.asarray(v)
    s.current = None
    found = _records(s, ids, labels, values) if records and not cells.batch else []
    return MetricResult(values, found, undefined, labels, pos_label, float(beta), weights, subset, fallback,
                        s.actions, s.classes)


def _records(
    s: _Stats, ids: list[str], labels: tuple[Label, ...], values: dict[str, Any] | None = None
) -> list[UndefinedValue]:
    out: list[UndefinedValue] = []
    for m in ids:
        for name in s.used.get(m, []):
            comp = s._cache[name]
            idx = np.flatnonzero(comp.undefined)
            spec = METRICS.get(m)  # None for the per-class table ("per_class")
            if spec is not None and spec.binary_only and s.pos is not None:
                idx = idx[idx == s.pos]
            if m == "macro_f1_of_classes" and s.subset is not None:  # the classes averaged over, not the others
                idx = idx[s.subset[idx]]
            if s.classes and m in s.classes:  # the figure of one named class: its class only
                idx = idx[idx == s.classes[m]]
            for i in idx:
                val = comp.value[i]
                out.append(UndefinedValue(m, name, labels[i], comp.reason, comp.resolution,
                                          None if np.isnan(val) else float(val)))
    for m, quantity, mask, reason, resolution in s.scalar_events:
        if np.any(mask):
            val = (values or {}).get(m)
            resolved = None if val is None or np.ndim(val) or np.isnan(val) else float(val)
            out.append(UndefinedValue(m, quantity, None, reason, resolution, resolved))
    return out


def per_class(matrix: Any, *, beta: float = 1.0, undefined: str = DEFAULT_CONVENTION) -> MetricResult:
    """Per-class table: support, predicted count, precision, recall, F1, Jaccard, specificity, NPV.

    Returns a :class:`MetricResult` mapping each label to a dict of those fields; undefined values are
    resolved by ``undefined`` and listed in ``result.undefined`` (with ``metric="per_class"``).

    Examples
    --------
    >>> t = per_class(ConfusionMatrix([[5, 1], [2, 3]], ["neg", "pos"]))
    >>> t["pos"]["recall"], t["pos"]["support"]
    (0.6, 5.0)
    """
    cells, labels = cells_and_labels(matrix)
    _check_convention(undefined)
    if isinstance(beta, bool) or not (isinstance(beta, (int, float)) and np.isfinite(beta) and beta > 0):
        raise InputError(f"beta must be a positive number; got {beta!r:.40}.")
    if cells.batch:
        raise InputError("per_class takes a single k×k matrix.")
    if cells.n <= 0:
        raise InputError("the confusion matrix is all zeros: there is nothing to evaluate.")
    s = _Stats(cells, undefined, float(beta), None)
    s.current = "per_class"
    comps = {f: s.comp(f) for f in PER_CLASS_FIELDS[2:]}
    rows: dict[Any, Any] = {}
    for i, lab in enumerate(labels):
        row = {"support": float(s.a[i]), "predicted": float(s.b[i])}
        row.update({f: float(c.value[i]) for f, c in comps.items()})
        rows[lab] = row
    return MetricResult(rows, _records(s, ["per_class"], labels), undefined, labels, None, float(beta))

