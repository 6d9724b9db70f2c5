"""Which interval each statistic gets, and the counts of the proportions.

* A **proportion** — accuracy (and micro F1, the same number), recall, precision, specificity,
  negative predictive value, the binary Jaccard index — of whole items resampled one by one: the
  Clopper–Pearson interval of its count over its denominator (:mod:`._proportions`), exact at any n.
* The **plug-in ECE**: none. It is biased upwards by about the sampling error of the bins' accuracies
  (0.07 for a perfectly calibrated model at n = 100), so no interval around it covers the calibration
  error; the debiased calibration error beside it carries the interval (:mod:`._calibration`).
* The **overall accuracy of a sample stratified by map class** (``stratified_accuracy``): the normal interval of
  the stratified estimator, estimate ± z·SE with SE² = Σ_j W_j² U_j(1 − U_j)/(b_j − 1) (Olofsson et al. 2014,
  eq. 5; :mod:`._strata`) — the strata's sample sizes are fixed by the design, which an item bootstrap ignores.
* **Everything else**: BCa, falling back to the basic interval where the resamples cannot support BCa's
  levels, and to none where no interval contains the estimate (:mod:`._intervals`).

Weighted (non-integer) counts and clustered items are not binomial: their proportions take the
resampling route too. So do top-k shares whose scores tie with the true class at the cut-off: such an item counts
a fraction of a hit (:func:`advisor.engine._topk.top_k_hits`), and the exact interval is used only when every item
counts 0 or 1 (:func:`advisor.stats._structure_eval.whole_credits`, decided on the data).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["METHOD_WORDS", "PROPORTIONS", "STRATIFIED", "TIED_SHARES", "interval_method", "interval_methods",
           "proportion_counts", "tied_shares"]

#: Metric ids that are one count of items over another.
PROPORTIONS = ("accuracy", "micro_f1", "recall", "precision", "specificity", "npv", "jaccard")
#: Shares of the items whose true class leads to an action (or not) that are classified into a class leading to the
#: same action: one count over another, given the classes of the action of interest (``group``).
ACTION_SHARES = ("action_sensitivity", "action_specificity")
#: Shares of whole items defined by the fallback class ``f`` (wrong-action and fallback rate) or the class of interest
#: (in-scope accuracy, outside it): one count over another, as accuracy is (the s28 intent reader: "in-scope accuracy
#: and the fallback rate are binomial too, yet they get BCa").
FALLBACK_SHARES = ("wrong_action_rate", "fallback_rate", "in_scope_accuracy")
#: Shares of whole items among the structured metrics (their resampling gives the same exact interval).
SHARES = ("top_k_accuracy", "subset_accuracy", "adjacent_accuracy")
#: Shares of items evaluated by their scores (top-k accuracy, and accuracy as its cut-off 1): an item whose true
#: class ties with other classes at the cut-off counts a fraction of a hit, and the share then gets BCa, not the
#: exact interval — which of the two is known only from the data.
TIED_SHARES = ("top_k_accuracy", "accuracy")
#: Metric ids of a sample stratified by map class: the stratified estimator's normal interval.
STRATIFIED = ("stratified_accuracy",)
#: Metric ids whose estimate gets no interval, and why.
NO_INTERVAL = {"ece": "the plug-in ECE is biased upwards by the sampling error of each bin's accuracy, so no interval "
                      "around it covers the calibration error; see the debiased calibration error"}

#: How each method is named for readers.
METHOD_WORDS = {
    "bca": "BCa",
    "basic": "basic bootstrap",
    "percentile": "percentile",
    "clopper_pearson": "Clopper–Pearson",
    "wilson": "Wilson",
    "stratified": "stratified-estimator normal",
    "none": "none",
}


def interval_method(metric: str, *, whole_items: bool = True, proportion: str = "clopper_pearson") -> str:
    """The interval ``metric`` gets: ``proportion`` for a proportion of whole items, ``none`` for the
    plug-in ECE, ``auto`` (BCa, else basic) otherwise.

    >>> interval_method("recall"), interval_method("macro_f1"), interval_method("ece")
    ('clopper_pearson', 'auto', 'none')
    >>> interval_method("accuracy", whole_items=False)
    'auto'
    """
    if metric in NO_INTERVAL:
        return "none"
    if metric in STRATIFIED:
        return "stratified"
    if (metric in PROPORTIONS or metric in SHARES or metric in ACTION_SHARES or metric in FALLBACK_SHARES) \
            and whole_items:
        return proportion
    return "auto"


def interval_methods(metrics: Iterable[str], **kw: Any) -> dict[str, str]:
    """:func:`interval_method` of each id."""
    return {m: interval_method(m, **kw) for m in metrics}


def tied_shares(metrics: Iterable[str], scored: bool, **kw: Any) -> list[str]:
    """The ids among ``metrics`` whose exact interval (:func:`interval_method` with ``kw``) holds only while no
    score ties with the true class at the cut-off: top-k accuracy and accuracy when the items are evaluated by their
    scores (``scored``, a top-k evaluation), none otherwise.

    >>> tied_shares(["top_k_accuracy", "accuracy", "macro_f1"], True), tied_shares(["accuracy"], False)
    (['top_k_accuracy', 'accuracy'], [])
    """
    return [m for m in metrics if scored and m in TIED_SHARES
            and interval_method(m, **kw) in ("clopper_pearson", "wilson")]


def proportion_counts(metric: str, table: Any, pos: int | None,
                      group: np.ndarray | None = None, fallback: int | None = None) -> tuple[float, float] | None:
    """``(count, denominator)`` of a proportion metric; None for any other id.

    ``table`` is a k×k array (rows true, columns predicted) or an :class:`advisor.engine._cells.Cells`
    table; ``pos`` is the positive class of the binary metrics (recall … Jaccard), None without one; ``group``
    the mask of the classes of the action of interest (``action_sensitivity``, ``action_specificity``);
    ``fallback`` the fallback class of the wrong-action and fallback rates (in-scope accuracy leaves out ``pos``).

    >>> m = np.array([[30, 5, 5], [4, 10, 6], [3, 2, 35]])
    >>> [proportion_counts(x, m, 2, fallback=2) for x in ("wrong_action_rate", "fallback_rate", "in_scope_accuracy")]
    [(14.0, 100.0), (11.0, 60.0), (40.0, 60.0)]

    >>> proportion_counts("precision", np.array([[50, 10], [5, 35]]), 1)
    (35.0, 45.0)
    >>> m = np.array([[30, 5, 5], [4, 10, 6], [3, 2, 35]])
    >>> g = np.array([True, True, False])
    >>> proportion_counts("action_sensitivity", m, None, g), proportion_counts("action_specificity", m, None, g)
    ((49.0, 60.0), (35.0, 40.0))
    """
    if hasattr(table, "rows"):
        rows, cols, w = np.asarray(table.rows), np.asarray(table.cols), np.asarray(table.w, dtype=np.float64)
    else:
        c = np.asarray(table, dtype=np.float64)
        rows, cols = np.nonzero(np.ones_like(c, dtype=bool))
        w = c.reshape(-1)
    n = float(w.sum())
    if metric in ("accuracy", "micro_f1"):
        return float(w[rows == cols].sum()), n
    if metric in ACTION_SHARES:
        if group is None:
            return None
        g = np.asarray(group, dtype=bool)
        g = g if metric == "action_sensitivity" else ~g
        return float(w[g[rows] & g[cols]].sum()), float(w[g[rows]].sum())
    if metric in ("wrong_action_rate", "fallback_rate"):
        if fallback is None:
            return None
        if metric == "wrong_action_rate":  # an action taken (a class other than f) and wrong
            return float(w[(cols != fallback) & (rows != cols)].sum()), n
        return float(w[(cols == fallback) & (rows != fallback)].sum()), float(w[rows != fallback].sum())
    if metric == "in_scope_accuracy":
        if pos is None:
            return None
        return float(w[(rows == cols) & (rows != pos)].sum()), float(w[rows != pos].sum())
    if pos is None or metric not in PROPORTIONS:
        return None
    tp = float(w[(rows == pos) & (cols == pos)].sum())
    a, b = float(w[rows == pos].sum()), float(w[cols == pos].sum())
    tn = float(w[(rows != pos) & (cols != pos)].sum())
    union = float(w[(rows == pos) | (cols == pos)].sum())
    return {"recall": (tp, a), "precision": (tp, b), "specificity": (tn, float(w[rows != pos].sum())),
            "npv": (tn, float(w[cols != pos].sum())), "jaccard": (tp, union)}[metric]
