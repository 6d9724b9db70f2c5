r"""Intervals from resampled values: the method per statistic, and never one that excludes its estimate.

The percentile interval is honest only for a statistic whose resampled values centre on its estimate.
Macro F1 over many small classes, confusion entropy, the geometric mean of recalls or ECE are biased:
their resamples sit to one side of the estimate, so the percentile interval moves away from it and
can exclude it (macro F1 0.7396 with 95 % interval [0.7236, 0.7393] at 1,000 classes). Here

* **BCa** (Efron 1987; Efron & Tibshirani 1993, §14.3; DiCiccio & Efron 1996): quantiles at the
  levels ``Φ(z₀ + (z₀ + z_α)/(1 − a(z₀ + z_α)))``, with the bias correction ``z₀`` from the share of
  resamples below the estimate (ties count half) and the acceleration ``a`` from a jackknife over the
  resampling unit (:mod:`._jackknife`). It corrects bias and skewness to second order. Its levels
  move into the tails as the bias grows: with 2,000 resamples and a bias of one standard error the
  upper level is 0.99996, far beyond the largest resample. Where fewer than
  :data:`~._limits.MIN_TAIL_DRAWS` resamples lie beyond a level (the rule every advisor interval
  follows), that end is read from the normal approximation of the resamples, ``mean + sd Φ⁻¹(α)``,
  when it lies farther out than the empirical quantile — BCa's own value for a normal resampling
  distribution — and kept inside the metric's range. Simulations (``benchmarks/bench_coverage.py``)
  show why: at 1,000 classes macro F1's bias is about one standard error and the empirical far
  quantile (the largest resample) cut the upper end short (coverage 0.92, geometric mean of recalls
  0.77); at 60 items the resampling distribution is skewed and bounded, and BCa's empirical tails
  hold (0.95–0.96) where a normal interval falls to 0.92.
* **basic** (reflected percentile; Davison & Hinkley 1997, eq. 5.6): ``[2θ̂ − q_{1−α/2}, 2θ̂ − q_{α/2}]``,
  kept inside the metric's range (only when asked for).
* **percentile**: ``[q_{α/2}, q_{1−α/2}]`` (only when asked for).

``auto`` is BCa. Whatever the method, an interval that does not contain its estimate is not given
(NaN) and the reason is kept: the estimate is then biased by more than its sampling error, which the
reason states in numbers. A statistic whose resamples do not vary at all (a perfect classifier's
MCC) gets no interval under ``auto`` either: the bootstrap cannot see the uncertainty of a value at
the edge of its range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ._limits import MIN_TAIL_DRAWS

__all__ = ["RESAMPLED_METHODS", "Intervals", "bca_levels", "percentile_interval", "quantiles", "resampled_intervals"]

#: Interval methods computed from resampled values.
RESAMPLED_METHODS = ("auto", "bca", "basic", "percentile")

_NORMAL = NormalDist()


def _phi(x: np.ndarray) -> np.ndarray:
    return np.vectorize(_NORMAL.cdf, otypes=[float])(x)


def _phi_inv(p: np.ndarray) -> np.ndarray:
    return np.vectorize(_NORMAL.inv_cdf, otypes=[float])(p)


def quantiles(values: np.ndarray, q: np.ndarray | float) -> np.ndarray:
    """Quantiles along axis 0 ignoring NaN, with linear interpolation (numpy's default method).

    ``q`` broadcasts against ``values.shape[1:]`` (BCa uses a different level per column). Where a
    column has no defined value the result is NaN. Unlike :func:`numpy.nanquantile`, equal infinite
    neighbours give that infinity rather than NaN.

    >>> quantiles(np.array([[1.0], [2.0], [np.nan], [4.0]]), 0.5).tolist()
    [2.0]
    """
    v = np.sort(values, axis=0)  # NaN sorts last
    cnt = (~np.isnan(v)).sum(axis=0)
    q = np.broadcast_to(np.asarray(q, dtype=np.float64), cnt.shape)
    h = np.maximum(cnt - 1, 0) * q
    lo = np.floor(h).astype(np.intp)
    hi = np.minimum(lo + 1, np.maximum(cnt - 1, 0))
    g = h - lo
    vlo = np.take_along_axis(v, lo[None], axis=0)[0]
    vhi = np.take_along_axis(v, hi[None], axis=0)[0]
    with np.errstate(invalid="ignore"):
        val = np.where((g == 0) | (vlo == vhi), vlo, vlo + g * (vhi - vlo))
    return np.where(cnt > 0, val, np.nan)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` percentile interval along axis 0, ignoring NaN."""
    alpha = 1.0 - confidence
    return quantiles(values, alpha / 2), quantiles(values, 1 - alpha / 2)


def bca_levels(
    values: np.ndarray, estimate: np.ndarray, accel: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted quantile levels ``(α₁, α₂)`` per column of ``values`` (B, metrics).

    ``α_{1,2} = Φ(z₀ + (z₀ + z_{α/2, 1−α/2}) / (1 − a (z₀ + z_{α/2, 1−α/2})))``; the share below the
    estimate is clamped to ``[1/(2B), 1 − 1/(2B)]`` so a one-sided distribution stays finite.
    """
    defined = ~np.isnan(values)
    cnt = np.maximum(defined.sum(axis=0), 1)
    with np.errstate(invalid="ignore"):
        below = np.sum(defined & (values < estimate), axis=0) + 0.5 * np.sum(defined & (values == estimate), axis=0)
    share = np.clip(below / cnt, 0.5 / cnt, 1 - 0.5 / cnt)
    z0 = _phi_inv(share)
    alpha = 1.0 - confidence
    levels = []
    for z in (_NORMAL.inv_cdf(alpha / 2), _NORMAL.inv_cdf(1 - alpha / 2)):
        t = z0 + z
        den = 1.0 - accel * t
        adj = np.where(den > 0, z0 + t / np.where(den > 0, den, 1.0), np.sign(z) * np.inf)
        levels.append(np.clip(_phi(adj), 0.0, 1.0))
    # an estimate that is itself undefined (NaN) gives no correction
    nan_est = np.isnan(estimate)
    levels[0] = np.where(nan_est, alpha / 2, levels[0])
    levels[1] = np.where(nan_est, 1 - alpha / 2, levels[1])
    return levels[0], levels[1]


@dataclass
class Intervals:
    """Per column: the ends (NaN where none is given), the method that made each, and why one is missing."""

    low: np.ndarray
    high: np.ndarray
    methods: list[str] = field(default_factory=list)
    reasons: list[str | None] = field(default_factory=list)


def _fmt(x: float) -> str:
    return f"{x:.4g}"


def _bias_reason(v: np.ndarray, est: float) -> str:
    """Why no interval contains the estimate: its bias, in numbers."""
    fin = v[np.isfinite(v)]
    if fin.size < 2:
        return "the resampled values do not bracket the estimate"
    bias, sd = float(fin.mean() - est), float(fin.std(ddof=1))
    side = "below" if bias < 0 else "above"
    share = float(np.mean(fin < est) if bias < 0 else np.mean(fin > est))
    ratio = f", {abs(bias) / sd:.1f} times their standard deviation" if sd > 0 else ""
    return (f"{share:.0%} of the resampled values lie {side} the estimate (mean shift {_fmt(bias)}{ratio}): the "
            "estimate is biased by more than its sampling error, so no interval around it is honest")


def resampled_intervals(values: np.ndarray, estimate: np.ndarray, confidence: float, methods: str | Sequence[str],
                        accel: np.ndarray | None = None, bounds: Sequence[tuple[float, float]] | None = None,
                        degenerate: str = "none") -> Intervals:
    """Intervals of every column of ``values`` (resamples, columns) around ``estimate`` (columns,).

    ``methods``: one of :data:`RESAMPLED_METHODS` for all columns or one per column; ``accel``: BCa's
    acceleration per column (0 when None); ``bounds``: each column's range, for the basic interval;
    ``degenerate``: ``"none"`` (no interval when the resamples do not vary; per-system values) or
    ``"point"`` (``[θ̂, θ̂]``; a paired difference of systems that agree on every item).
    """
    values = np.asarray(values, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)
    m = values.shape[1]
    wanted = [methods] * m if isinstance(methods, str) else list(methods)
    acc = np.zeros(m) if accel is None else np.asarray(accel, dtype=np.float64)
    alpha = 1.0 - confidence
    q_lo, q_hi = quantiles(values, alpha / 2), quantiles(values, 1 - alpha / 2)
    l1, l2 = bca_levels(values, est, acc, confidence)
    b_lo, b_hi = quantiles(values, l1), quantiles(values, l2)
    count = (~np.isnan(values)).sum(axis=0)
    b_lo, b_hi = _normal_tails(values, count, (l1, l2), (b_lo, b_hi), bounds)
    out = Intervals(np.full(m, np.nan), np.full(m, np.nan))
    for j in range(m):
        lo, hi, method, reason = _one(values[:, j], float(est[j]), wanted[j], int(count[j]),
                                      (float(q_lo[j]), float(q_hi[j])), (float(b_lo[j]), float(b_hi[j])),
                                      None if bounds is None else bounds[j], degenerate)
        out.low[j], out.high[j] = lo, hi
        out.methods.append(method)
        out.reasons.append(reason)
    return out


def _normal_tails(values: np.ndarray, count: np.ndarray, levels: tuple[np.ndarray, np.ndarray],
                  ends: tuple[np.ndarray, np.ndarray], bounds: Sequence[tuple[float, float]] | None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """BCa's ends where fewer than :data:`MIN_TAIL_DRAWS` resamples lie beyond their level: the farther of the
    empirical quantile and the normal approximation's ``mean + sd Φ⁻¹(level)``, inside the metric's range."""
    fin = np.isfinite(values)
    cnt = fin.sum(axis=0)
    x = np.where(fin, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = x.sum(axis=0) / cnt
        sd = np.sqrt(np.where(fin, (values - mean) ** 2, 0.0).sum(axis=0) / (cnt - 1))
    lo_b = np.array([b[0] for b in bounds]) if bounds is not None else np.full(values.shape[1], -np.inf)
    hi_b = np.array([b[1] for b in bounds]) if bounds is not None else np.full(values.shape[1], np.inf)
    low, high = ends[0].copy(), ends[1].copy()
    ok = (cnt > 1) & (cnt == count) & np.isfinite(sd)  # no infinite resamples (LR+): their tails stay empirical
    few_lo = ok & (count * levels[0] < MIN_TAIL_DRAWS) & (levels[0] > 0)
    few_hi = ok & (count * (1.0 - levels[1]) < MIN_TAIL_DRAWS) & (levels[1] < 1)
    if few_lo.any():
        z = _phi_inv(np.clip(levels[0][few_lo], 1e-300, 1.0))
        low[few_lo] = np.maximum(np.minimum(low[few_lo], mean[few_lo] + sd[few_lo] * z), lo_b[few_lo])
    if few_hi.any():
        z = _phi_inv(np.clip(levels[1][few_hi], 0.0, 1.0 - 1e-16))
        high[few_hi] = np.minimum(np.maximum(high[few_hi], mean[few_hi] + sd[few_hi] * z), hi_b[few_hi])
    return low, high


def _one(v: np.ndarray, est: float, wanted: str, count: int, pct: tuple[float, float], bca: tuple[float, float],
         bounds: tuple[float, float] | None, degenerate: str) -> tuple[float, float, str, str | None]:
    nan = float("nan")
    if count == 0:
        return nan, nan, "none", "every resampled value is undefined"
    if np.isnan(est):
        return nan, nan, "none", "the estimate is undefined"
    defined = v[~np.isnan(v)]
    if np.all(defined == est):
        if wanted == "auto" and degenerate == "none":
            return nan, nan, "none", (f"every resample gives the same value ({_fmt(est)}), as at the edge of the "
                                      "metric's range, so resampling cannot measure its uncertainty")
        return est, est, "bca" if wanted == "auto" else wanted, None
    basic = (2 * est - pct[1], 2 * est - pct[0])
    if bounds is not None:
        basic = (max(basic[0], bounds[0]), min(basic[1], bounds[1]))
    method = "bca" if wanted == "auto" else wanted
    lo, hi = {"bca": bca, "basic": basic, "percentile": pct}[method]
    if not lo <= est <= hi:  # NaN ends fail too
        return nan, nan, "none", _bias_reason(defined, est)
    return lo, hi, method, None
