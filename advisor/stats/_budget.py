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
  the spread and the Clopper–Pearson bound at ``N`` claims too much. The bound is then **Korn & Graubard's (1998)**:
  the Clopper–Pearson bound at the effective sample size ``n* = p̂(1 − p̂) / v̂(p̂)``, ``v̂`` the cluster-robust
  variance of the ratio ``p̂ = Σ_g FP_g / Σ_g N_g`` over the ``G`` groups,
  ``v̂ = G/(G − 1) · Σ_g (FP_g − p̂ N_g)² / (Σ_g N_g)²``, with ``n*`` at most ``N`` (a design effect
  ``N / n*`` below 1 is taken as 1) and ``n* = N`` when ``p̂`` is 0 or 1 (no variance to estimate); ``n*`` is then
  multiplied by ``(t_{N−1} / t_{G−1})²``, the ``1 − α`` quantiles of Student's t, for the ``G − 1`` degrees of
  freedom of ``v̂``. The bound is ``B⁻¹(1 − α; x* + 1, n* − x*)`` with ``x* = p̂ n*``: one bound, exact in form,
  whose width follows the clustering the data show (``G`` counts the groups with negatives). Its coverage under
  clustering is measured in ``benchmarks/bench_budget_bound.py`` beside the earlier bound, the larger of
  Clopper–Pearson and the cluster bootstrap's percentile: at least as high in every row, about 95% wherever any bound
  reaches it; strong clustering with few groups leaves every bound short, this one the least.
* **Verdict**: the upper bound at most the budget — "within the budget"; the point estimate above it — "over the
  budget"; else "not shown to be within the budget" (the data allow a rate above it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import stdtrit

from ._proportions import beta_quantile

__all__ = ["BudgetCheck", "KornGraubard", "LIMIT_VERDICTS", "VERDICTS", "budget_verdict", "fpr_budget_check",
           "grouped_design_effect", "korn_graubard_upper", "one_sided_upper", "risk_limit_check", "t_quantile"]

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


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (``q ≥ 0.5``; 0 below): scipy's ``stdtrit``,
    the one the jackknife's intervals and the paired tests use.

    >>> round(t_quantile(0.95, 9), 4), round(t_quantile(0.975, 30), 4)  # the tables' 1.8331 and 2.0423
    (1.8331, 2.0423)
    """
    return float(stdtrit(df, q)) if q > 0.5 else 0.0


@dataclass(frozen=True)
class KornGraubard:
    """Korn & Graubard's (1998) one-sided bound of a ratio over clustered items: the Clopper–Pearson bound at the
    effective sample size."""

    upper: float
    effective_n: float  # n*, after the design effect (at least 1) and the degrees-of-freedom factor
    design_effect: float  # N / n* before the degrees-of-freedom factor, at least 1
    groups: int


def grouped_design_effect(x_g: Any, n_g: Any) -> float:
    """Kish's design effect of the ratio ``p̂ = Σ x_g / Σ n_g`` over ``G`` groups: its cluster-robust variance
    ``G/(G − 1) · Σ_g (x_g − p̂ n_g)² / N²`` over the binomial one ``p̂(1 − p̂)/N``, at least 1; 1 when ``p̂`` is 0 or 1
    or fewer than two groups have items (no variance to estimate). One computation for Korn & Graubard's bound and
    for selection with guaranteed risk at an effective sample size (:mod:`._frozen_cut`).

    >>> round(grouped_design_effect([2, 0, 0], [2, 2, 2]), 9), grouped_design_effect([1, 1], [2, 2])
    (3.0, 1.0)
    """
    x = np.atleast_1d(np.asarray(x_g, dtype=np.float64))
    n = np.atleast_1d(np.asarray(n_g, dtype=np.float64))
    big_n = float(n.sum())
    g = int(np.count_nonzero(n > 0))
    p = float(x.sum()) / big_n if big_n > 0 else float("nan")
    if g < 2 or not 0.0 < p < 1.0:
        return 1.0
    var = g / (g - 1.0) * float(np.sum((x - p * n) ** 2)) / big_n ** 2
    return max(1.0, var / (p * (1.0 - p) / big_n))


def korn_graubard_upper(x_g: Any, n_g: Any, confidence: float = 0.95) -> KornGraubard:
    """The one-sided ``confidence`` upper bound of ``Σ x_g / Σ n_g`` with the items of each group dependent (Korn &
    Graubard 1998): the Clopper–Pearson bound ``B⁻¹(confidence; x* + 1, n* − x*)`` at ``x* = p̂ n*``, where
    ``n* = min(N, p̂(1 − p̂)/v̂) · (t_{N−1}/t_{G−1})²`` (``N`` when ``p̂`` is 0 or 1), ``v̂`` the cluster-robust
    variance of the ratio over the ``G`` groups, ``G/(G − 1) · Σ_g (x_g − p̂ n_g)² / N²``. With fewer than two
    groups no variance can be estimated: the plain Clopper–Pearson bound at ``N``.

    >>> kg = korn_graubard_upper([0, 0, 6, 0, 1, 0, 0, 2], [90, 120, 100, 80, 110, 100, 95, 105])
    >>> round(kg.design_effect, 2), round(kg.effective_n, 1), round(kg.upper, 4), round(one_sided_upper(9, 800), 4)
    (3.92, 154.0, 0.0377, 0.0195)
    """
    x = np.atleast_1d(np.asarray(x_g, dtype=np.float64))
    n = np.atleast_1d(np.asarray(n_g, dtype=np.float64))
    big_n, total = float(n.sum()), float(x.sum())
    g = int(np.count_nonzero(n > 0))
    if not big_n > 0:
        return KornGraubard(float("nan"), float("nan"), float("nan"), g)
    p = total / big_n
    if g < 2:
        return KornGraubard(one_sided_upper(total, big_n, confidence), big_n, 1.0, g)
    deff = grouped_design_effect(x, n)  # p̂ = 0 or 1: 1, so n* = N
    n_star = big_n / deff
    n_star *= (t_quantile(confidence, big_n - 1.0) / t_quantile(confidence, g - 1.0)) ** 2
    if p >= 1.0:
        return KornGraubard(1.0, n_star, deff, g)
    x_star = p * n_star
    return KornGraubard(beta_quantile(confidence, x_star + 1.0, n_star - x_star), n_star, deff, g)


@dataclass(frozen=True)
class BudgetCheck:
    """The false positive rate of one system's labels against the budget."""

    false_positives: float
    negatives: float
    rate: float
    exact_upper: float  # one-sided Clopper–Pearson at N, the negatives taken as independent
    group_upper: float | None  # Korn & Graubard's bound over the groups (None: items independent)
    upper: float  # the bound the verdict uses: Korn & Graubard's with groups, else Clopper–Pearson's
    budget: float
    confidence: float
    verdict: str
    groups: int | None = None  # the groups with items (None: items independent)
    effective_n: float | None = None  # Korn & Graubard's effective sample size n*
    design_effect: float | None = None

    def to_json(self) -> dict[str, Any]:
        def num(v: float | None) -> float | None:
            return float(v) if v is not None and math.isfinite(v) else None
        return {"false_positives": num(self.false_positives), "negatives": num(self.negatives), "rate": num(self.rate),
                "upper": num(self.upper), "exact_upper": num(self.exact_upper), "group_upper": num(self.group_upper),
                "groups": self.groups, "effective_negatives": num(self.effective_n),
                "design_effect": num(self.design_effect),
                "budget": self.budget, "confidence": self.confidence, "verdict": self.verdict}


def fpr_budget_check(false_positives: Any, negatives: Any, budget: float, confidence: float = 0.95, *,
                     groups: Any = None, n_resamples: int = 2000, seed: Any = 0) -> BudgetCheck:
    """The false positive rate ``Σ FP / Σ N`` against ``budget``, with its one-sided upper bound.

    ``false_positives`` and ``negatives`` are numbers (items independent: Clopper–Pearson) or arrays, one entry
    per group (Korn & Graubard's bound, :func:`korn_graubard_upper`); with ``groups`` (the group of each entry) the
    entries are first summed per group. ``n_resamples`` and ``seed`` are kept for callers of the earlier bound,
    which resampled the groups; this one needs no resampling and ignores them.

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
    if fp_g.shape[0] > 1 and n > 0:
        kg = korn_graubard_upper(fp_g, n_g, confidence)
        return BudgetCheck(false_positives=fp, negatives=n, rate=rate, exact_upper=exact, group_upper=kg.upper,
                           upper=kg.upper, budget=float(budget), confidence=float(confidence),
                           verdict=budget_verdict(rate, kg.upper, budget), groups=kg.groups,
                           effective_n=kg.effective_n, design_effect=kg.design_effect)
    return BudgetCheck(false_positives=fp, negatives=n, rate=rate, exact_upper=exact, group_upper=None, upper=exact,
                       budget=float(budget), confidence=float(confidence), verdict=budget_verdict(rate, exact, budget))


def risk_limit_check(errors: Any, answered: Any, limit: float, confidence: float = 0.95, *,
                     groups: Any = None, n_resamples: int = 2000, seed: Any = 0) -> BudgetCheck:
    """The error rate of the answers at a confidence cut fixed in advance, ``Σ errors / Σ answered``, against a
    target risk ``limit``, with the bound of :func:`fpr_budget_check`: one-sided Clopper–Pearson when the items are
    independent; with groups (the documents of one matter), Korn & Graubard's bound at the effective sample size.
    Only the answered items count: the errors of the answers among the answers. The verdict is said of a limit
    (:data:`LIMIT_VERDICTS`).

    >>> c = risk_limit_check(3, 400, 0.02)
    >>> round(c.rate, 4), round(c.upper, 4), c.verdict   # scipy: beta.ppf(0.95, 4, 397)
    (0.0075, 0.0193, 'within the limit')
    """
    check = fpr_budget_check(errors, answered, limit, confidence, groups=groups, n_resamples=n_resamples, seed=seed)
    verdict = LIMIT_VERDICTS[VERDICTS.index(check.verdict)]
    return BudgetCheck(false_positives=check.false_positives, negatives=check.negatives, rate=check.rate,
                       exact_upper=check.exact_upper, group_upper=check.group_upper, upper=check.upper,
                       budget=check.budget, confidence=check.confidence, verdict=verdict, groups=check.groups,
                       effective_n=check.effective_n, design_effect=check.design_effect)
