r"""McNemar's exact test of two systems' correct/incorrect decisions on the same items (McNemar 1947).

Only the items on which the two systems disagree about correctness carry information: ``b`` items
system a gets right and b wrong, ``c`` the reverse. Under the null hypothesis of equal accuracy each
such item falls either way with probability ½, so the exact two-sided p-value is
``min(1, 2 P(X ≤ min(b, c)))`` with ``X ~ Binomial(b + c, ½)`` — statsmodels'
``mcnemar(table, exact=True)``; Dietterich (1998) and Dror et al. (2018) recommend it for comparing
two classifiers' accuracy on one test set.

**Other proportions over a fixed set of items.** Sensitivity (recall) is a proportion among the items whose
true class is the positive one, specificity among the others: both systems classify the same items, so the
same test applies to the items of that set on which the two disagree (a diagnostic accuracy study compares
paired sensitivities and specificities this way). Precision and NPV are not: their denominators are each
system's own positive (negative) calls, different items for each system. :func:`paired_counts` gives the
paired 2×2 table of such a proportion, for the test and for Newcombe's interval of the difference
(:func:`advisor.stats._proportions.newcombe_paired`).

**Resolvable difference.** With ``D = b + c`` discordant items, the accuracy difference is
``(b − c) / n`` and the test separates the systems only when ``|b − c|`` reaches the smallest value whose
p-value is at most α: that value over ``n`` is the smallest accuracy difference this test set can
resolve, given how often the systems disagree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._proportions import binomial_two_sided

__all__ = ["PAIRED_PROPORTIONS", "discordant_counts", "mcnemar_resolvable", "paired_counts"]

#: Proportions among a fixed set of items that every system classifies: accuracy (all items), recall (the
#: positives), specificity (the negatives); micro-F1 is accuracy.
PAIRED_PROPORTIONS = ("accuracy", "micro_f1", "recall", "specificity")


def discordant_counts(joint: Any, a: int, b: int) -> tuple[float, float] | None:
    """``(b, c)``: items system ``a`` gets right and ``b`` wrong, and the reverse, from a joint table
    (:class:`advisor.engine._joint.JointCounts`); None when its counts are not whole items."""
    counts = np.asarray(joint.counts, dtype=np.float64)
    if not np.all(counts == np.round(counts)) or getattr(joint, "abstains", False):
        return None  # abstentions: the accuracies compared are on the items each system answered, not paired
    codes = np.asarray(joint.codes)
    right_a = codes[:, 0] == codes[:, a + 1]
    right_b = codes[:, 0] == codes[:, b + 1]
    return float(counts[right_a & ~right_b].sum()), float(counts[~right_a & right_b].sum())


def paired_counts(joint: Any, metric: str, a: int, b: int,
                  positive_index: int | None = None) -> tuple[float, float, float, float] | None:
    """``(both, a only, b only, neither)``: the items of ``metric``'s fixed set that systems ``a`` and ``b`` both
    get right, only ``a``, only ``b``, neither. None when the metric is not one of :data:`PAIRED_PROPORTIONS`
    (recall and specificity need ``positive_index``) or the counts are not whole items."""
    if metric not in PAIRED_PROPORTIONS or (metric in ("recall", "specificity") and positive_index is None):
        return None
    counts = np.asarray(joint.counts, dtype=np.float64)
    if not np.all(counts == np.round(counts)) or getattr(joint, "abstains", False):
        return None
    codes = np.asarray(joint.codes)
    truth = codes[:, 0]
    if metric in ("recall", "specificity"):  # among the positives: called positive; among the rest: not
        pos = metric == "recall"
        among = (truth == positive_index) == pos
        right_a, right_b = (codes[:, a + 1] == positive_index) == pos, (codes[:, b + 1] == positive_index) == pos
    else:
        among, right_a, right_b = np.ones(len(truth), dtype=bool), truth == codes[:, a + 1], truth == codes[:, b + 1]
    w = np.where(among, counts, 0.0)
    return (float(w[right_a & right_b].sum()), float(w[right_a & ~right_b].sum()),
            float(w[~right_a & right_b].sum()), float(w[~right_a & ~right_b].sum()))


def mcnemar_resolvable(discordant: float, n: float, alpha: float) -> float | None:
    """The smallest accuracy difference ``|b − c| / n`` that McNemar's exact test calls significant at
    ``alpha`` with ``discordant = b + c`` disagreeing items; None when no split of them would.

    >>> mcnemar_resolvable(12, 100, 0.05)  # 10 against 2 gives p = 0.039, 9 against 3 p = 0.146
    0.08
    """
    d = int(round(discordant))
    if d <= 0:
        return None
    if binomial_two_sided(0, d) > alpha:
        return None
    lo, hi = 0, d // 2  # p grows with the minority min(b, c): the largest minority still significant
    while hi > lo:
        mid = (lo + hi + 1) // 2
        if binomial_two_sided(mid, d - mid) <= alpha:
            lo = mid
        else:
            hi = mid - 1
    return (d - 2 * lo) / float(n)
