r"""A confidence cut fixed on held-out calibration groups, frozen, and tested on the other groups.

A system that may abstain, with a target risk and no cut fixed in advance: selection with guaranteed risk (SGR;
Geifman & El-Yaniv 2017, Algorithm 1) chooses the cut, and what it guarantees is a statement about the draw of the
sample it was run on — with probability at least ``1 − δ`` over that draw, the population risk of the items answered
at the chosen threshold is at most the target, the threshold then frozen and used on items from the same
distribution. Choosing the cut on the test items and reporting its coverage on them is calibration, not a test (the
selective-classification methodologist). So:

* **The split** (:func:`calibration_split`): the groups (the matters of the documents; every item its own group
  without a group column) are shuffled with the report's seed and the first ``⌊G/2⌋`` form the calibration part,
  the others the test part. Stated before data (the seed) and with data (the counts).
* **The cut** (:func:`clustered_sgr`): SGR on the calibration items only. Its binomial bound takes the items as
  independent; documents of one matter are not, so with groups the bound at each threshold tried is taken at the
  **effective sample size** ``m / deff`` (Kish 1965), ``deff = Var̂(r̂) / (r̂(1 − r̂)/m)`` with ``Var̂`` the
  ratio-estimator (cluster-robust) variance of the error rate ``r̂`` of the ``m`` answered items over their groups,
  floored at 1, and 1 when ``r̂`` is 0 or 1 (no variance to estimate; Korn & Graubard 1998 do the same) — the
  Clopper–Pearson bound at ``r̂ m/deff`` errors out of ``m/deff`` (:func:`advisor.stats.one_sided_upper`). The design
  effect is itself estimated, so with groups the guarantee is approximate: ``benchmarks/bench_frozen_cut.py`` measures
  how often the population risk at the frozen cut exceeds the target.
* **A target coverage instead** (:func:`quantile_cut`): with a share ``c`` to answer and no cut fixed in advance,
  the cut is the confidence of the ``⌈c·n_c⌉``-th most confident of the ``n_c`` calibration items (the dermatology
  reader: "fix the deferral threshold on a validation split"); the same split, frozen and tested the same way.
* **The test** (:func:`frozen_cut`): at the frozen threshold, on the test part, the share of items answered
  (realised coverage) and the error rate among them (realised selective risk), each with a BCa interval from
  resamples of the test groups (the acceleration from deleting one group at a time), and the error rate's one-sided
  upper bound against the target from :func:`advisor.stats.risk_limit_check` (the bound of a cut fixed in advance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import answered_count, check_coverage, check_target_risk, coverage_guaranteed_risk
from ._budget import BudgetCheck, grouped_design_effect, one_sided_upper, risk_limit_check
from ._clusters import group_weights
from ._intervals import resampled_intervals
from ._jackknife import EXACT_UNITS, GROUPS, acceleration

__all__ = ["FrozenCut", "SgrFit", "calibration_split", "clustered_sgr", "design_effect", "frozen_cut", "quantile_cut"]


def _units(n: int, groups: Any) -> np.ndarray:
    """The unit index of each of ``n`` items: its group's, or its own without groups."""
    if groups is None:
        return np.arange(n, dtype=np.intp)
    g = np.asarray(groups)
    if g.ndim != 1 or g.shape[0] != n:
        raise InputError(f"groups must give one group per item ({n}); got shape {g.shape}.")
    return np.unique(g, return_inverse=True)[1].astype(np.intp)


def calibration_split(n: int, groups: Any = None, seed: Any = 0) -> np.ndarray:
    """Whether each of ``n`` items is in the calibration part: its group (or the item itself, without groups) among
    the first ``⌊G/2⌋`` of the ``G`` groups shuffled with ``seed``; the others are the test part.

    >>> calibration_split(6, ["a", "a", "b", "b", "c", "d"], seed=1).tolist()
    [True, True, True, True, False, False]
    >>> int(calibration_split(9, seed=3).sum())
    4
    """
    unit = _units(int(n), groups)
    count = int(unit.max()) + 1 if unit.size else 0
    if count < 4:
        raise InputError(f"a cut fixed on one half of the {'groups' if groups is not None else 'items'} and tested on "
                         f"the other needs at least 4 of them; " + (f"these items are in {count} groups."
                                                                     if groups is not None else f"there are {count}."))
    order = np.random.default_rng(seed).permutation(count)
    calib = np.zeros(count, dtype=bool)
    calib[order[: count // 2]] = True
    return calib[unit]


def design_effect(errors: Any, groups: Any) -> float:
    """Kish's design effect of the error rate ``r̂ = Σ e / m`` of ``m`` items in groups: the ratio-estimator variance
    over the ``G`` groups, ``G/(G − 1) Σ_g (E_g − r̂ m_g)² / m²``, over the binomial one ``r̂(1 − r̂)/m``; at least 1,
    and 1 when ``r̂`` is 0 or 1 or there are fewer than two groups.

    >>> round(design_effect([1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 2, 2]), 9)   # the errors all in one group
    3.0
    >>> design_effect([1, 0, 1, 0], [0, 0, 1, 1])                 # one error in each group: no clustering
    1.0
    """
    e = np.asarray(errors, dtype=np.float64)
    unit = _units(e.shape[0], groups)
    return grouped_design_effect(np.bincount(unit, weights=e), np.bincount(unit))


@dataclass(frozen=True)
class SgrFit:
    """The cut selection with guaranteed risk fixes on the calibration items."""

    threshold: float | None  # None: no threshold tried qualifies (nothing is answered)
    coverage: float  # the share of the calibration items answered at it
    bound: float | None  # the bound on the risk at it (at δ/K), at the effective sample size with groups
    answered: int
    errors: int
    design_effect: float  # of the error rate at the cut (1 without groups)
    items: int
    units: int  # the groups of the calibration items (the items without groups)


def clustered_sgr(error: Any, confidence: Any, target_risk: float, delta: float = 0.05,
                  groups: Any = None) -> SgrFit:
    """Selection with guaranteed risk on these (calibration) items; with ``groups`` each bound is taken at the
    effective sample size ``m/deff`` (:func:`design_effect` of the items answered at that threshold).

    >>> f = clustered_sgr([0] * 100, [i / 100 for i in range(100)], 0.1)
    >>> f.threshold, f.coverage, round(f.bound, 4), f.design_effect   # no error: the plain search and bound
    (0.01, 0.99, 0.0487, 1.0)
    """
    e = np.asarray(error, dtype=np.float64)
    c = np.asarray(confidence, dtype=np.float64)
    unit = _units(e.shape[0], groups)
    bound = None
    if groups is not None:
        def bound(answered: np.ndarray, d: float) -> float:
            deff = design_effect(e[answered], unit[answered])
            m = float(answered.shape[0])
            return one_sided_upper(float(e[answered].sum()) / deff, m / deff, 1.0 - d)
    cov, theta, b = coverage_guaranteed_risk(e, c, target_risk, delta, bound=bound)
    units = int(np.unique(unit).shape[0])
    if not math.isfinite(theta):
        return SgrFit(None, 0.0, None, 0, 0, 1.0, int(e.shape[0]), units)
    at = c >= theta
    deff = design_effect(e[at], unit[at]) if groups is not None else 1.0
    return SgrFit(float(theta), float(cov), float(b), int(at.sum()), int(round(float(e[at].sum()))), deff,
                  int(e.shape[0]), units)


def quantile_cut(confidence: Any, coverage: float) -> float | None:
    """The confidence cut that answers the share ``coverage`` of these (calibration) items: the confidence of the
    ``⌈c·n⌉``-th most confident item, so that the items at least that confident are answered (more than ``⌈c·n⌉``
    when others tie with it); None without items.

    >>> quantile_cut([0.9, 0.5, 0.7, 0.6, 0.95], 0.6)   # ⌈0.6·5⌉ = 3 answered: 0.95, 0.9 and 0.7
    0.7
    >>> quantile_cut([0.9, 0.5], 1.0)
    0.5
    """
    c = np.sort(np.asarray(confidence, dtype=np.float64).ravel())[::-1]
    if c.shape[0] == 0:
        return None
    m = int(min(answered_count(c.shape[0], check_coverage(coverage)), c.shape[0]))
    return float(c[m - 1])


@dataclass(frozen=True)
class FrozenCut:
    """What the frozen threshold does on the test items: each figure ``(estimate, low, high)``."""

    items: int
    units: int  # the groups of the test items (the items without groups)
    answered: float
    errors: float
    coverage: tuple[float, float | None, float | None]
    risk: tuple[float, float | None, float | None]
    check: BudgetCheck | None  # the error rate's one-sided bound against the target (None without a target)
    methods: tuple[str, str]  # of the coverage's and the risk's interval: "bca" (or its fallbacks), else "none"
    reasons: tuple[str | None, str | None]  # why an interval is missing

    def to_json(self) -> dict[str, Any]:
        def est(t: tuple[float, float | None, float | None], j: int) -> dict[str, Any]:
            return {"estimate": _num(t[0]), "low": _num(t[1]), "high": _num(t[2]), "method": self.methods[j],
                    "reason": self.reasons[j]}
        out = {"items": self.items, "units": self.units, "answered": self.answered, "errors": self.errors,
               "coverage": est(self.coverage, 0), "risk": est(self.risk, 1)}
        if self.check is not None:
            out["upper"], out["verdict"] = _num(self.check.upper), self.check.verdict
        return out


def _deletions(count: int) -> np.ndarray:
    """The jackknife's weights (deletions, units): each unit left out once, or above :data:`EXACT_UNITS` units one
    of :data:`GROUPS` fixed sets of them."""
    if count <= EXACT_UNITS:
        return 1.0 - np.eye(count)
    block = np.random.default_rng(count).permutation(count) % GROUPS
    return (block[None, :] != np.arange(GROUPS)[:, None]).astype(np.float64)


def _num(x: float | None) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def frozen_cut(error: Any, confidence: Any, threshold: float | None, target_risk: float | None = None,
               level: float = 0.95, groups: Any = None, n_resamples: int = 2000, seed: Any = 0) -> FrozenCut:
    """The realised coverage and selective risk of the items whose confidence is at least ``threshold`` (None:
    nothing answered), with BCa intervals over ``n_resamples`` resamples of the groups (the items without groups),
    and the risk's one-sided ``level`` bound against ``target_risk`` (:func:`risk_limit_check`, over the groups).

    >>> f = frozen_cut([0, 1, 0, 0], [0.9, 0.8, 0.4, 0.95], 0.5, n_resamples=0)
    >>> f.coverage[0], round(f.risk[0], 4), f.answered, f.errors
    (0.75, 0.3333, 3.0, 1.0)
    """
    e = np.asarray(error, dtype=np.float64)
    c = np.asarray(confidence, dtype=np.float64)
    unit = _units(e.shape[0], groups)
    _, unit = np.unique(unit, return_inverse=True)
    at = (c >= threshold) if threshold is not None else np.zeros(e.shape[0], dtype=bool)
    size = np.bincount(unit).astype(np.float64)
    ans = np.bincount(unit, weights=at.astype(np.float64), minlength=size.shape[0])
    err = np.bincount(unit, weights=e * at, minlength=size.shape[0])
    count = size.shape[0]

    def figures(w: np.ndarray) -> np.ndarray:  # (b, units) weights → (b, 2): coverage, risk
        with np.errstate(invalid="ignore", divide="ignore"):
            a = w @ ans
            return np.stack([a / (w @ size), (w @ err) / a], axis=-1)

    est = figures(np.ones((1, count)))[0]
    low: list[float | None] = [None, None]
    high: list[float | None] = [None, None]
    methods: tuple[str, str] = ("none", "none")
    reasons: tuple[str | None, str | None] = ("no resamples were drawn", "no resamples were drawn")
    if n_resamples > 0 and count > 1:
        w = group_weights(np.random.default_rng(seed), count, int(n_resamples)).astype(np.float64)
        values = figures(w)
        leave = figures(_deletions(count))
        iv = resampled_intervals(values, est, level, "auto", accel=acceleration(leave), bounds=[(0.0, 1.0)] * 2)
        low = [_num(float(x)) for x in iv.low]
        high = [_num(float(x)) for x in iv.high]
        methods, reasons = (iv.methods[0], iv.methods[1]), (iv.reasons[0], iv.reasons[1])
    check = None
    if target_risk is not None:
        check = risk_limit_check(err, ans, check_target_risk(target_risk), level,
                                 n_resamples=n_resamples if groups is not None else 0, seed=seed)
    return FrozenCut(items=int(e.shape[0]), units=count, answered=float(ans.sum()), errors=float(err.sum()),
                     coverage=(float(est[0]), low[0], high[0]), risk=(float(est[1]), low[1], high[1]), check=check,
                     methods=methods, reasons=reasons)
