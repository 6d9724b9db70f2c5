r"""One metric of a paired comparison: each system's interval, every pair's difference, the winners.

* **A system's interval**: as for one table (:mod:`._choice`): Clopper–Pearson for a proportion of
  whole items, otherwise BCa with the acceleration of a jackknife over the paired unit, the basic
  interval where BCa's levels are not supported, none where no interval contains the estimate.
* **A difference** ``a − b``: the same, on the paired resampled differences, with the acceleration of
  the jackknife of the difference (the same unit leaves both systems). Systems that agree on every
  item have the difference 0 in every resample, and the interval ``[0, 0]``, except under Newcombe's. A proportion among a fixed set of
  items both systems classify (accuracy, recall, specificity: :data:`._mcnemar.PAIRED_PROPORTIONS`) whose own
  interval is Clopper–Pearson gets Newcombe's interval for paired proportions instead (Newcombe 1998, method
  10: :func:`._proportions.newcombe_paired`), computed from the pair's 2×2 table (method ``newcombe``).
* **Groups resampled** (``PairedInputs.jackknife``: the leave-one-group-out values): each system's interval and
  each difference's is the delete-one-group jackknife's ``θ̂ ± t_{G−1} · SE`` instead (:func:`._jackknife.jackknife_t`;
  Cameron & Miller 2015), and a pair's test the matching t test — a bootstrap of few groups gives intervals that are
  too narrow (benchmarks/README.md, ``bench_few_groups_methods.py``). Ranks and ``P(first)`` still come from the
  resampled groups.
* **The test of a pair**: the two-sided paired-bootstrap test ``2 (1 − Φ(|d̂| / se*))`` with ``se*`` the
  standard deviation of the resampled differences, for every metric. For accuracy, recall and specificity
  McNemar's exact test on the discordant items is reported beside it (:mod:`._mcnemar`, ``Comparison.mcnemar``); the winners
  rest on one procedure for every metric.
* **Winners**: with two systems the best, and the other when the difference's interval contains 0 (or,
  where the difference has no interval, the bootstrap p-value exceeds α). With more, the top system and every
  system its one-sided test at ``α/(m − 1)`` does not separate from it: multiple comparisons with the best
  (:func:`._familywise.winners_against_best`; Hsu 1996).
* **Resolvable difference** of a pair: the smallest difference its test would call separable —
  ``z · se*`` with ``z = Φ⁻¹(1 − α/2)`` for two systems and ``Φ⁻¹(1 − α/(m − 1))`` for ``m`` (the one-sided test
  against the top system). It says what "not separable" means on this test set.
* ``P(a better)``: share of resamples in which ``a`` is better (ties half); P(rank 1) and rank intervals
  as before (percentile intervals of the resampled ranks).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
from scipy.special import stdtrit

from ..engine import LOWER_IS_BETTER
from ._bounds import bounds_of, difference_bounds
from ._compare_models import Interval, MetricComparison, PairResult, SystemResult, _num
from ._familywise import best_level, paired_p_value, winners_against_best
from ._intervals import percentile_interval, resampled_intervals
from ._jackknife import jackknife_p_value, jackknife_se, jackknife_t
from ._ranks import average_ranks

__all__ = ["PairedInputs", "summarise"]

#: Metric ids whose pairs are also tested with McNemar's exact test.
MCNEMAR_IDS = ("accuracy", "micro_f1")


@dataclass
class PairedInputs:
    """What the intervals of one metric need beyond the resampled values.

    ``methods``: the interval method per system ("auto", "clopper_pearson", …); ``accel``: BCa's
    acceleration per system; ``diff_accel``: per pair of system indices; ``proportions``: per system the
    ``(count, denominator)`` of a proportion and the interval it gives; ``paired_differences``: per pair of system
    indices Newcombe's interval of their difference, in place of the bootstrap's.
    """

    methods: Sequence[str] | str = "auto"
    no_interval: str | None = None  # why a method "none" gives no interval
    accel: np.ndarray | None = None
    diff_accel: Mapping[tuple[int, int], float] = field(default_factory=dict)
    proportions: Mapping[int, tuple[float, float]] = field(default_factory=dict)
    paired_differences: Mapping[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    #: per pair of system indices McNemar's exact p-value, where Newcombe's interval replaces the bootstrap's: the
    #: row's test and the winners rest on the same paired 2×2 table as its interval
    paired_p: Mapping[tuple[int, int], float] = field(default_factory=dict)
    #: resampled groups: each system's values with one group left out (groups, systems), for the jackknife t
    #: intervals of the systems and their differences (method ``jackknife_t``) in place of BCa's
    jackknife: np.ndarray | None = None


def _better_share(x: np.ndarray, y: np.ndarray) -> float:
    """Share of rows with both defined where oriented ``x`` > ``y`` (ties count half)."""
    ok = ~(np.isnan(x) | np.isnan(y))
    if not ok.any():
        return float("nan")
    xs, ys = x[ok], y[ok]
    return float(((xs > ys).sum() + 0.5 * (xs == ys).sum()) / ok.sum())


def _first_shares(oriented: np.ndarray) -> np.ndarray:
    """Probability of ranking first per column of ``oriented`` (resamples, systems)."""
    defined = ~np.isnan(oriented)
    filled = np.where(defined, oriented, -np.inf)
    best = filled.max(axis=1, keepdims=True)
    tied = defined & (filled == best)
    cnt = tied.sum(axis=1, keepdims=True)
    rows = cnt[:, 0] > 0
    if not rows.any():
        return np.full(oriented.shape[1], np.nan)
    return (tied[rows] / cnt[rows]).sum(axis=0) / rows.sum()


def _rank_intervals(systems: list[str], oriented: np.ndarray, confidence: float) -> dict[str, tuple[float | None, float | None]]:
    """Percentile interval of each system's rank (1 = best) over the resamples; undefined → last."""
    r = average_ranks(np.where(np.isnan(oriented), -np.inf, oriented))
    lo, hi = percentile_interval(r, confidence)
    return {s: (_num(lo[j]), _num(hi[j])) for j, s in enumerate(systems)}


def _systems(metric: str, systems: list[str], points: np.ndarray, values: np.ndarray, confidence: float,
             extra: PairedInputs, oriented: np.ndarray) -> dict[str, SystemResult]:
    m = len(systems)
    wanted = [extra.methods] * m if isinstance(extra.methods, str) else list(extra.methods)
    resampled = ["auto" if w not in ("bca", "basic", "percentile") else w for w in wanted]
    iv = resampled_intervals(values, points, confidence, resampled, extra.accel, [bounds_of(metric)] * m)
    for j, w in enumerate(wanted):
        if w == "none":
            iv.low[j] = iv.high[j] = np.nan
            iv.methods[j], iv.reasons[j] = "none", extra.no_interval
        elif extra.jackknife is not None and w == "auto":
            iv.low[j], iv.high[j], iv.reasons[j] = jackknife_t(extra.jackknife[:, j], float(points[j]), confidence,
                                                               bounds_of(metric))
            iv.methods[j] = "none" if iv.reasons[j] else "jackknife_t"
    for j, (lo, hi) in extra.proportions.items():
        iv.low[j], iv.high[j] = lo, hi
        iv.methods[j], iv.reasons[j] = wanted[j], None
        if np.isnan(lo):
            iv.methods[j], iv.reasons[j] = "none", "its denominator is 0, so its value is set by convention"
    first = _first_shares(oriented)
    nan_counts = np.isnan(values).sum(axis=0)
    return {s: SystemResult(estimate=_num(points[j]), low=_num(iv.low[j]), high=_num(iv.high[j]), method=iv.methods[j],
                            reason=iv.reasons[j], p_first=_num(first[j]), nan_resamples=int(nan_counts[j]))
            for j, s in enumerate(systems)}


def summarise(metric: str, systems: list[str], points: np.ndarray, values: np.ndarray, confidence: float,
              lower: Collection[str] = LOWER_IS_BETTER, extra: PairedInputs | None = None) -> MetricComparison:
    """``points`` (systems,), ``values`` (resamples, systems) → one :class:`MetricComparison`."""
    extra = extra or PairedInputs()
    sign = -1.0 if metric in lower else 1.0
    oriented = sign * values
    alpha = 1.0 - confidence
    m = len(systems)
    sys_out = _systems(metric, systems, points, values, confidence, extra, oriented)
    level = 1.0 - best_level(m, alpha) / 2.0  # two systems: two-sided α; more: one-sided α/(m − 1) against the top
    z = NormalDist().inv_cdf(level)
    pairs: list[PairResult] = []
    separated: dict[tuple[int, int], bool] = {}
    p_values: dict[tuple[str, str], float] = {}
    for a in range(m):
        for b in range(a + 1, m):
            with np.errstate(invalid="ignore"):
                d = values[:, a] - values[:, b]
                est = points[a] - points[b]
            iv = resampled_intervals(d[:, None], np.array([est]), confidence, "auto",
                                     np.array([extra.diff_accel.get((a, b), 0.0)]), [difference_bounds(metric)],
                                     degenerate="point")
            with np.errstate(invalid="ignore"):  # infinite values (LR+) give no standard error
                od = sign * d
                od = od[~np.isnan(od)]
                test, p = "paired bootstrap", paired_p_value(float(sign * est), od)
            if (a, b) in extra.paired_p:  # a paired proportion: McNemar's exact test, as its Newcombe interval
                test, p = "McNemar's exact test", float(extra.paired_p[(a, b)])
            if extra.jackknife is not None:  # resampled groups: the jackknife's t interval and t test of the pair
                with np.errstate(invalid="ignore"):
                    left = extra.jackknife[:, a] - extra.jackknife[:, b]
                # every deletion defined (one undefined leaves the jackknife without a variance: _jackknife.py)
                if left.size and np.all(np.isfinite(left)) and np.all(left == est):  # no group moves the difference: [d̂, d̂] (as the
                    lo_j, hi_j, why_j = float(est), float(est), None  # bootstrap's degenerate "point")
                else:
                    lo_j, hi_j, why_j = jackknife_t(left, float(est), confidence, difference_bounds(metric))
                iv.low[0], iv.high[0] = lo_j, hi_j
                iv.methods[0], iv.reasons[0] = ("none" if why_j else "jackknife_t"), why_j
                test, p = "jackknife t test", jackknife_p_value(sign * left, float(sign * est))
            fin = od[np.isfinite(od)]
            resolvable = z * float(fin.std(ddof=1)) if fin.size > 1 and fin.size == od.size else None
            if extra.jackknife is not None:  # the smallest difference the jackknife's t test separates
                se_j, d_j = jackknife_se(left)
                resolvable = float(stdtrit(d_j - 1, level)) * se_j if d_j > 1 and np.isfinite(se_j) else None
            p_values[(systems[a], systems[b])] = 1.0 if np.isnan(p) else p  # undefined: never separated
            lo, hi, how, why = iv.low[0], iv.high[0], iv.methods[0], iv.reasons[0]
            if (a, b) in extra.paired_differences:  # a paired proportion: Newcombe's interval
                lo, hi = extra.paired_differences[(a, b)]
                how, why = "newcombe", None
            if np.isnan(lo):
                separated[(a, b)] = p_values[(systems[a], systems[b])] <= alpha
            else:
                separated[(a, b)] = not lo <= 0.0 <= hi
            pairs.append(PairResult(
                a=systems[a], b=systems[b],
                difference=Interval(estimate=_num(est), low=_num(lo), high=_num(hi), method=how, reason=why),
                p_a_better=_num(_better_share(oriented[:, a], oriented[:, b])), p_value=_num(p), test=test,
                resolvable=None if resolvable is None else _num(resolvable)))
    best, winners = _winners(systems, sign * points, p_values, separated, alpha)
    return MetricComparison(
        metric=metric, higher_is_better=sign > 0, systems=sys_out, pairs=pairs, best=best, winners=winners,
        rank_intervals=_rank_intervals(systems, oriented, confidence),
    )


def _winners(systems: list[str], opoints: np.ndarray, p_values: dict[tuple[str, str], float],
             separated: dict[tuple[int, int], bool], alpha: float) -> tuple[list[str], list[str]]:
    m = len(systems)
    if not np.any(~np.isnan(opoints)):
        return [], []
    top = np.nanmax(opoints)
    best_idx = [j for j in range(m) if opoints[j] == top]
    best = [systems[j] for j in best_idx]
    if m > 2:  # each system against the top one (multiple comparisons with the best; _familywise.py)
        return best, winners_against_best(systems, list(opoints), p_values, alpha)
    ref = best_idx[0]  # a system that could not be evaluated is never a winner
    winners = [systems[j] for j in range(m) if j in best_idx
               or (not np.isnan(opoints[j]) and not separated.get((min(ref, j), max(ref, j)), False))]
    return best, winners
