r"""McNemar's exact test of two systems' correct/incorrect decisions on the same items (McNemar 1947).

Only the items on which the two systems disagree about correctness carry information: ``b`` items
system a gets right and b wrong, ``c`` the reverse. Under the null hypothesis of equal accuracy each
such item falls either way with probability ½, so the exact two-sided p-value is
``min(1, 2 P(X ≤ min(b, c)))`` with ``X ~ Binomial(b + c, ½)`` — statsmodels'
``mcnemar(table, exact=True)``; Dietterich (1998) and Dror et al. (2018) recommend it for comparing
two classifiers' accuracy on one test set.

**Resolvable difference.** With ``D = b + c`` discordant items, the accuracy difference is
``(b − c) / n`` and the test separates the systems only when ``|b − c|`` reaches the smallest value whose
p-value is at most α: that value over ``n`` is the smallest accuracy difference this test set can
resolve, given how often the systems disagree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._proportions import binomial_two_sided

__all__ = ["discordant_counts", "mcnemar_resolvable"]


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
