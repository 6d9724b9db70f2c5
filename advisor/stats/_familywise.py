"""Winners of several systems: the systems that cannot be told from the best (issue 11; the s35 shared-task readers).

With ``m`` systems the question a ranking asks is which of them could be the best, not how every pair compares:
Holm over all ``m(m−1)/2`` pairs (300 for 25 teams) left the tests almost no power, and the winners a large tied set.
So each system is compared with the top-ranked one only — multiple comparisons with the best (Hsu 1996) —
by a one-sided paired test at ``α/(m − 1)`` (Bonferroni's bound in place of the one-sided Dunnett quantile, which
needs equal, independent errors). The winners are the top system and every system it does not separate. Why that
keeps the truly best system ``i*`` among the winners with probability at least ``1 − α`` although the top one is
chosen from the data: ``i*`` is dropped only when some system ``j`` beats it with ``Z_{j,i*} > z_{1 − α/(m−1)}``;
as ``μ_j ≤ μ_{i*}``, each of the ``m − 1`` such events has probability at most ``α/(m − 1)``, so their union at most
``α``. Holm's step-down over these ``m − 1`` tests has no such guarantee: the family is chosen by the data.
All pairs' differences and tests are still computed and reported; :func:`familywise_winners` (Holm over all
pairs) is kept for callers that want the family-wise error of every pair's call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import NormalDist

import numpy as np

__all__ = ["best_level", "familywise_winners", "paired_p_value", "paired_test_words", "winners_against_best",
           "winners_method"]


WINNERS_TWO = ("two systems: the best by point estimate, plus the other if the interval of their paired difference "
               "contains 0 (one pair, no multiplicity correction needed)")
WINNERS_BEST = ("more than two systems: each system against the top-ranked one (the best point estimate) with a "
                "one-sided {test} at α/{others} = {level:.3g} (Bonferroni over the {others} comparisons); the winners "
                "are the top system and every system it does not separate, so the best system is among them with "
                "probability at least 1 − α = {conf:g} (multiple comparisons with the best; Hsu 1996)")

#: The paired test of resampled groups (the delete-one-group jackknife, :func:`._jackknife.jackknife_p_value`).
TEST_JACKKNIFE = ("two-sided jackknife t test: p = 2 T_{G−1}(−|d| / se), d the difference of the two systems and se the "
                  "delete-one-group jackknife's standard error of it, with G − 1 degrees of freedom for G groups")
#: The paired test behind the winners, named (issue 20).
TEST_BOOTSTRAP = ("two-sided paired-bootstrap test: p = 2(1 − Φ(|d| / se)), d the difference of the two systems and se "
                  "the standard deviation of its paired resamples")
TEST_MCNEMAR = ("McNemar's exact test on the items one system gets right and the other wrong is reported beside it "
                "for {metrics}")


def best_level(m: int, alpha: float) -> float:
    """The two-sided p-value at or below which a system is separated from the top one among ``m`` systems: the
    one-sided test at ``α/(m − 1)`` (:data:`WINNERS_BEST`), so ``2α/(m − 1)`` two-sided; ``α`` for two systems.

    >>> best_level(2, 0.05), round(best_level(25, 0.05), 6)
    (0.05, 0.004167)
    """
    return alpha if m <= 2 else 2.0 * alpha / (m - 1)


def winners_method(m: int, confidence: float, jackknife: bool = False) -> str:
    """The sentence that says how the winners of ``m`` systems were chosen (``jackknife``: groups resampled, the
    tests against the top system are the jackknife's t tests)."""
    if m <= 2:
        return WINNERS_TWO
    alpha = round(1.0 - confidence, 12)
    return WINNERS_BEST.format(test="jackknife t test" if jackknife else "paired-bootstrap test", others=m - 1,
                               level=alpha / (m - 1), conf=round(confidence, 12))


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

    The normal form keeps resolution below ``1/B``, which small levels (α/24 for 25 systems, α/190 for Holm over all
    pairs of 20) need;
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


def winners_against_best(names: Sequence[str], oriented: Sequence[float], p_values: Mapping[tuple[str, str], float],
                         alpha: float = 0.05) -> list[str]:
    """The top system(s) by ``oriented`` (higher = better) and every system no top one separates: a system is dropped
    when its two-sided p-value against a top system is at most :func:`best_level` (one-sided ``α/(m − 1)``). The best
    system is then among the winners with probability at least ``1 − α`` (module docstring; Hsu 1996). A system that
    could not be evaluated (NaN) is never a winner; an undefined p-value is 1 (never separated).

    >>> p = {("a", "b"): 0.2, ("a", "c"): 0.001, ("b", "c"): 0.01, ("a", "d"): 0.03, ("b", "d"): 0.5, ("c", "d"): 0.5}
    >>> winners_against_best(["a", "b", "c", "d"], [0.9, 0.8, 0.5, 0.7], p)  # cut 2 · 0.05 / 3 = 0.033
    ['a', 'b']
    """
    score = dict(zip(names, oriented))
    finite = [v for v in oriented if not np.isnan(v)]
    if not finite:
        return []
    top = max(finite)
    best = [s for s in names if score[s] == top]
    cut = best_level(len(names), alpha)

    def p(a: str, b: str) -> float:
        value = p_values.get((a, b), p_values.get((b, a), 1.0))
        return 1.0 if np.isnan(value) else float(value)

    return [s for s in names if not np.isnan(score[s])
            and (s in best or not any(p(b, s) <= cut for b in best))]
