r"""The false positive rate of the labels in use, tested against a false positive rate budget.

A bank that accepts declining at most 1% of genuine transactions, a mail filter that may send at most 1 in 1,000
legitimate messages to junk: the budget bounds the false positive rate of the threshold in use, so the question a
reader asks is whether the data show that rate to be within it. The point estimate ``FP / N`` (``N`` the negatives)
cannot say so; its one-sided upper confidence bound can.

* **One-sided Clopper–Pearson bound** (Clopper & Pearson 1934): the rate ``u`` at which observing ``FP`` or fewer
  false positives among ``N`` negatives has probability ``α``, ``u = B⁻¹(1 − α; FP + 1, N − FP)`` (1 when
  ``FP = N``), ``B⁻¹`` the beta quantile. It is the upper end of the two-sided interval at level ``1 − 2α``:
  statsmodels' ``proportion_confint(FP, N, alpha=0.10, method="beta")`` gives the 95% one-sided bound. Its
  coverage is at least ``1 − α`` for every ``N`` and every true rate, when the negatives are independent.
* **Groups** (transactions of one card, messages of one recipient): the declines of one card are not independent
  — a card whose genuine spending looks unusual is declined again and again — so the binomial model understates
  the spread and the Clopper–Pearson bound alone is too low. The groups are then resampled (the cluster bootstrap,
  Davison & Hinkley 1997, §3.8) and the ``1 − α`` quantile of ``Σ_g w_g FP_g / Σ_g w_g N_g`` is taken. That
  percentile bound, in turn, collapses to 0 when no false positive occurred and is anti-conservative with few
  false positives, where the exact bound is not; neither is honest alone, so the bound is **the larger of the
  two**: exact where the counts are small, wide enough where the groups make the items dependent.
* **Verdict**: the upper bound at most the budget — "within the budget"; the point estimate above it — "over the
  budget"; else "not shown to be within the budget" (the data allow a rate above it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._clusters import group_weights
from ._proportions import beta_quantile

__all__ = ["BudgetCheck", "LIMIT_VERDICTS", "VERDICTS", "budget_verdict", "fpr_budget_check", "one_sided_upper",
           "risk_limit_check"]

#: the three verdicts, as the report says them
VERDICTS = ("within the budget", "over the budget", "not shown to be within the budget")
#: the same verdicts said of a target risk (the error rate of the answers of a system that may abstain)
LIMIT_VERDICTS = ("within the limit", "over the limit", "not shown to be within the limit")


def one_sided_upper(x: float, n: float, confidence: float = 0.95) -> float:
    """The one-sided Clopper–Pearson upper bound of ``x`` successes out of ``n`` at level ``confidence``.

    >>> round(one_sided_upper(0, 300), 6)  # the "rule of three": 1 − 0.05^(1/300) ≈ 3/300
    0.009936
    >>> round(one_sided_upper(3, 1000), 6)
    0.007735
    """
    if not n > 0:
        return float("nan")
    if x >= n:
        return 1.0
    return beta_quantile(confidence, x + 1.0, n - x)


def budget_verdict(rate: float, upper: float, budget: float) -> str:
    """One of :data:`VERDICTS`: the bound within the budget, the estimate over it, or neither.

    >>> budget_verdict(0.004, 0.008, 0.01), budget_verdict(0.012, 0.015, 0.01), budget_verdict(0.008, 0.012, 0.01)
    ('within the budget', 'over the budget', 'not shown to be within the budget')
    """
    if math.isfinite(upper) and upper <= budget:
        return VERDICTS[0]
    if math.isfinite(rate) and rate > budget:
        return VERDICTS[1]
    return VERDICTS[2]


@dataclass(frozen=True)
class BudgetCheck:
    """The false positive rate of one system's labels against the budget."""

    false_positives: float
    negatives: float
    rate: float
    exact_upper: float  # one-sided Clopper–Pearson, the negatives taken as independent
    group_upper: float | None  # the percentile bound of the cluster bootstrap (None: items independent)
    upper: float  # the bound the verdict uses: the larger of the two
    budget: float
    confidence: float
    verdict: str

    def to_json(self) -> dict[str, Any]:
        def num(v: float | None) -> float | None:
            return float(v) if v is not None and math.isfinite(v) else None
        return {"false_positives": num(self.false_positives), "negatives": num(self.negatives), "rate": num(self.rate),
                "upper": num(self.upper), "exact_upper": num(self.exact_upper), "group_upper": num(self.group_upper),
                "budget": self.budget, "confidence": self.confidence, "verdict": self.verdict}


def fpr_budget_check(false_positives: Any, negatives: Any, budget: float, confidence: float = 0.95, *,
                     groups: Any = None, n_resamples: int = 2000, seed: Any = 0) -> BudgetCheck:
    """The false positive rate ``Σ FP / Σ N`` against ``budget``, with its one-sided upper bound.

    ``false_positives`` and ``negatives`` are numbers (items independent) or arrays, one entry per group (the
    groups are resampled; the bound is the larger of the exact and the percentile bound); with ``groups`` (the
    group of each entry) the entries are first summed per group.

    >>> c = fpr_budget_check(3, 1000, 0.01)
    >>> round(c.rate, 3), round(c.upper, 6), c.verdict
    (0.003, 0.007735, 'within the budget')
    """
    fp_g = np.atleast_1d(np.asarray(false_positives, dtype=np.float64))
    n_g = np.atleast_1d(np.asarray(negatives, dtype=np.float64))
    if groups is not None:
        _, idx = np.unique(np.asarray(groups), return_inverse=True)
        fp_g = np.asarray(np.bincount(idx, weights=fp_g), dtype=np.float64)
        n_g = np.asarray(np.bincount(idx, weights=n_g), dtype=np.float64)
    fp, n = float(fp_g.sum()), float(n_g.sum())
    rate = fp / n if n > 0 else float("nan")
    exact = one_sided_upper(fp, n, confidence)
    group: float | None = None
    if fp_g.shape[0] > 1 and n > 0 and n_resamples > 0:
        w = group_weights(np.random.default_rng(seed), fp_g.shape[0], int(n_resamples)).astype(np.float64)
        num, den = w @ fp_g, w @ n_g
        with np.errstate(invalid="ignore", divide="ignore"):
            draws = num / den
        draws = draws[np.isfinite(draws)]
        group = float(np.quantile(draws, confidence)) if draws.size else float("nan")
    upper = max(exact, group) if group is not None and math.isfinite(group) else exact
    return BudgetCheck(false_positives=fp, negatives=n, rate=rate, exact_upper=exact, group_upper=group, upper=upper,
                       budget=float(budget), confidence=float(confidence), verdict=budget_verdict(rate, upper, budget))


def risk_limit_check(errors: Any, answered: Any, limit: float, confidence: float = 0.95, *,
                     groups: Any = None, n_resamples: int = 2000, seed: Any = 0) -> BudgetCheck:
    """The error rate of the answers at a confidence cut fixed in advance, ``Σ errors / Σ answered``, against a
    target risk ``limit``, with the bound of :func:`fpr_budget_check`: one-sided Clopper–Pearson when the items are
    independent; with groups (the documents of one matter), the larger of that and the ``confidence`` quantile over
    resamples of the groups. Only the answered items count: the errors of the answers among the answers. The verdict
    is said of a limit (:data:`LIMIT_VERDICTS`).

    >>> c = risk_limit_check(3, 400, 0.02)
    >>> round(c.rate, 4), round(c.upper, 4), c.verdict   # scipy: beta.ppf(0.95, 4, 397)
    (0.0075, 0.0193, 'within the limit')
    """
    check = fpr_budget_check(errors, answered, limit, confidence, groups=groups, n_resamples=n_resamples, seed=seed)
    verdict = LIMIT_VERDICTS[VERDICTS.index(check.verdict)]
    return BudgetCheck(false_positives=check.false_positives, negatives=check.negatives, rate=check.rate,
                       exact_upper=check.exact_upper, group_upper=check.group_upper, upper=check.upper,
                       budget=check.budget, confidence=check.confidence, verdict=verdict)
