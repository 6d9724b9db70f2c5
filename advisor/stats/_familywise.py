"""Winners of several systems with the family-wise error controlled over all pairs (issue 11).

With ``m`` systems there are ``m(m−1)/2`` paired comparisons; declaring "separable" every pair whose own
interval excludes 0 calls some equal systems separable by chance almost surely once ``m`` is large.
Holm's step-down (Holm 1979) over the two-sided paired-bootstrap p-values keeps the chance of any such
false call at most ``α``; the winners are the systems no other system beats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import NormalDist

import numpy as np

__all__ = ["familywise_winners", "paired_p_value", "paired_test_words", "winners_method"]


WINNERS_TWO = ("two systems: the best by point estimate, plus the other if the interval of their paired difference "
               "contains 0 (one pair, no multiplicity correction needed)")
WINNERS_HOLM = ("more than two systems: Holm's step-down over all {pairs} pairs of two-sided paired-bootstrap "
                "p-values (normal form with the bootstrap standard error) at α = {alpha:g}; the winners are the "
                "systems no other system beats, with a family-wise error of at most α")

#: The paired test of resampled groups (the delete-one-group jackknife, :func:`._jackknife.jackknife_p_value`).
TEST_JACKKNIFE = ("two-sided jackknife t test: p = 2 T_{G−1}(−|d| / se), d the difference of the two systems and se the "
                  "delete-one-group jackknife's standard error of it, with G − 1 degrees of freedom for G groups")
WINNERS_HOLM_JACKKNIFE = ("more than two systems: Holm's step-down over all {pairs} pairs of two-sided jackknife t "
                          "test p-values at α = {alpha:g}; the winners are the systems no other system beats, with a "
                          "family-wise error of at most α")

#: The paired test behind the winners, named (issue 20).
TEST_BOOTSTRAP = ("two-sided paired-bootstrap test: p = 2(1 − Φ(|d| / se)), d the difference of the two systems and se "
                  "the standard deviation of its paired resamples")
TEST_MCNEMAR = ("McNemar's exact test on the items one system gets right and the other wrong is reported beside it "
                "for {metrics}")


def winners_method(m: int, confidence: float, jackknife: bool = False) -> str:
    """The sentence that says how the winners of ``m`` systems were chosen (``jackknife``: groups resampled, the
    pairs' tests are the jackknife's t tests)."""
    if m <= 2:
        return WINNERS_TWO
    return (WINNERS_HOLM_JACKKNIFE if jackknife else WINNERS_HOLM).format(pairs=m * (m - 1) // 2,
                                                                          alpha=round(1.0 - confidence, 12))


def paired_test_words(m: int, mcnemar: Sequence[str] = (), jackknife: bool = False) -> str:
    """The paired test(s) behind the winners of ``m`` systems, named: McNemar's exact test beside it for the
    metrics ``mcnemar`` (accuracy, recall, specificity, when compared), the paired-bootstrap test for every metric.

    >>> paired_test_words(2, ["accuracy", "recall"]).endswith("beside it for accuracy and recall")
    True
    """
    if m < 2:
        return ""
    names = list(dict.fromkeys(mcnemar))
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""
    return (TEST_JACKKNIFE if jackknife else TEST_BOOTSTRAP) + ("; " + TEST_MCNEMAR.format(metrics=said) if names
                                                                else "")


def paired_p_value(observed: float, d: np.ndarray) -> float:
    """Two-sided p-value of a paired difference: ``2 (1 − Φ(|d̂| / se))`` with ``se`` the bootstrap SD of ``d``.

    The normal form keeps resolution below ``1/B``, which Holm's thresholds (α/190 for 20 systems) need;
    the share of resamples on one side cannot go below ``1/B``. A difference with no spread is 0 when it
    is not 0 and 1 otherwise.
    """
    if d.size < 2 or np.isnan(observed):
        return 1.0
    se = float(d.std(ddof=1))
    if se == 0.0:
        return 1.0 if observed == 0 else 0.0
    return float(2.0 * (1.0 - NormalDist().cdf(abs(observed) / se)))


def familywise_winners(names: Sequence[str], oriented: Sequence[float], p_values: Mapping[tuple[str, str], float],
                       alpha: float = 0.05) -> list[str]:
    """Systems no other system beats after Holm's step-down over all pairs (family-wise error ≤ ``alpha``).

    ``oriented`` are point estimates with higher = better; ``p_values[(a, b)]`` is the two-sided p-value of
    the paired difference of ``a`` and ``b`` (each unordered pair once). Holm (1979): with the ``m`` p-values
    sorted, ``p_(i)`` is rejected while ``p_(i) ≤ α / (m − i + 1)``; a rejected pair separates its worse
    system from the better one. So with 20 systems and 190 pairs, the chance that any pair of equal
    systems is called separable is at most α. A system that could not be evaluated (NaN) is never a winner.

    >>> familywise_winners(["a", "b", "c"], [0.9, 0.8, 0.5], {("a", "b"): 0.2, ("a", "c"): 0.001, ("b", "c"): 0.01})
    ['a', 'b']
    """
    keys = sorted(p_values, key=lambda key: p_values[key])
    m = len(keys)
    beaten: set[str] = set()
    score = dict(zip(names, oriented))
    for i, (a, b) in enumerate(keys):
        if not p_values[(a, b)] <= alpha / (m - i):
            break
        if score[a] != score[b]:
            beaten.add(b if score[a] > score[b] else a)
    return [s for s in names if s not in beaten and not np.isnan(score[s])]
