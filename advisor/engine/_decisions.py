r"""Metrics of decisions under operating constraints, clinical calibration, decision curves and ordered
probabilistic forecasts (issue 21). Every function takes item weights (a bootstrap resample is a weighting,
item ``t`` drawn ``w_t`` times): ``w`` of shape ``(n,)`` or ``(b, n)``; the result has the leading shape.

* **TPR at an FPR budget** ``f``: the items are sorted once by score; a threshold ``τ`` flags the items with
  ``s ≥ τ``. Among the thresholds at the distinct scores (and "flag nothing"), the one whose false positive
  rate on these items is at most ``f`` and whose true positive rate is highest — no interpolation between
  thresholds, so the value is that of a threshold one can use: scikit-learn's ``roc_curve`` points with
  ``fpr ≤ f``, the best ``tpr`` among them.
* **Standardized partial ROC AUC** up to an FPR budget ``f`` (McClish 1989): ``A_f``, the area under the ROC
  curve between false positive rates 0 and ``f`` — the curve's points (one per distinct score, so a tie is a
  straight segment, as ROC AUC counts ties half) joined by straight lines, the last segment cut at ``f`` by
  linear interpolation — standardized to ``½(1 + (A_f − f²/2)/(f − f²/2))``, so a ranking no better than chance
  scores 0.5 and a perfect one 1, whatever ``f``: scikit-learn's ``roc_auc_score(y, s, max_fpr=f)``.
* **Kolmogorov–Smirnov statistic** (KS; the credit-scoring benchmark of Lessmann et al. 2015 reports it):
  ``KS = max_τ (TPR(τ) − FPR(τ))`` over the thresholds ``τ`` at the distinct scores and the two ends (flag nothing,
  flag everything, both 0), the items with ``s ≥ τ`` flagged — the largest vertical gap between the ROC curve and
  the diagonal, and the largest distance between the empirical score distributions of the negatives and of the
  positives in the direction "positives score higher" (one-sided: 0 when no threshold does better than chance).
* **Precision and recall at K** (a review budget): the ``K`` highest-scored items are reviewed; a tie group
  that straddles the cut is reviewed fractionally, each of its items counting ``(K − above)/size`` — the
  expected value over a random order within the tie. ``precision@K = TP_K / K``, ``recall@K = TP_K / P``.
* **Calibration intercept and slope** (Cox 1958; Van Calster et al. 2019) of binary risks ``p`` with
  ``L = logit p`` (``p`` clipped to ``[ε, 1 − ε]``): the slope ``b`` of the logistic regression
  ``y ~ a + b L``, and the intercept (calibration-in-the-large) ``a`` of ``y ~ a + offset(L)``; ideal
  ``a = 0``, ``b = 1``. Fitted by Newton's method (IRLS) on one or two parameters. Observed/expected
  ``O/E = Σ y / Σ p``.
* **Integrated calibration index** (Austin & Steyerberg 2019): ``ICI = Σ w_t |f(p_t) − p_t| / Σ w_t`` where
  ``f`` is a loess (locally linear, tricube weights, span 0.75, no robustness iterations) smooth of the
  outcome on the risk (Cleveland's lowess without robustness steps), evaluated at up to :data:`SMOOTH_GRID` risk quantiles and interpolated linearly
  between them. Under resampling each local fit keeps the bandwidth of the full sample.
* **Net benefit** (Vickers & Elkin 2006) at risk threshold ``t`` when those with ``p ≥ t`` are treated:
  ``NB(t) = TP/n − FP/n · t/(1 − t)``; treat-all ``π − (1 − π) t/(1 − t)``; treat-none 0.
* **Ranked probability score** (Epstein 1969; Murphy 1971) of forecasts over ``k`` ordered classes:
  ``RPS = (1/n) Σ_t Σ_{j=1}^{k−1} (F_tj − O_tj)²`` with ``F`` the cumulative forecast and ``O`` the cumulative
  outcome — the sum over the ``k − 1`` cumulative categories, *not* divided by ``k − 1``. For a one-hot
  forecast it is the number of class steps between forecast and outcome, so on hard outputs RPS is the mean
  rank distance. Skill ``RPSS = 1 − RPS / RPS_clim`` against the climatology of these items (every item
  forecast with the class shares of the test set), for which ``RPS_clim = Σ_j C_j (1 − C_j)`` with ``C_j`` the
  cumulative shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._probabilities import LOG_LOSS_EPS

__all__ = [
    "DECISION_IDS",
    "SMOOTH_GRID",
    "SMOOTH_SPAN",
    "calibration_fit",
    "check_budget",
    "check_decision_thresholds",
    "ici",
    "ks_statistic",
    "loess_curve",
    "net_benefit",
    "net_benefit_id",
    "partial_roc_auc",
    "precision_recall_at_k",
    "ranked_probability_score",
    "recalibration_loss",
    "rps_skill",
    "tpr_at_fpr",
]

#: ids of the metrics of this module (``net_benefit@t`` ids are made by :func:`net_benefit_id`)
DECISION_IDS = ("tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k", "recall_at_k", "calibration_intercept",
                "calibration_slope", "ici", "ranked_probability_score", "rps_skill")
SMOOTH_SPAN = 0.75
SMOOTH_GRID = 100
# risks are clipped to [ε, 1 − ε] before the logit with log loss's ε, the float64 machine epsilon that scikit-learn's
# log_loss clips with (logit ε ≈ −36.04): one clipping constant in a report (issue 22 read 2.2e-16 for log loss and
# 1e-15 for the calibration fits); statsmodels, the oracle of the fits, takes the clipped logit as given
_CLIP = LOG_LOSS_EPS


def net_benefit_id(t: float) -> str:
    """``net_benefit@0.1`` — the id of the net benefit at risk threshold ``t`` (shortest exact decimal)."""
    return f"net_benefit@{float(t):g}"


def net_benefit_name(thresholds: Any) -> str:
    """The name of a lead of net benefits at several risk thresholds, as every view says it.

    >>> net_benefit_name([0.05, 0.1, 0.2])
    'Net benefit at risk thresholds 0.05, 0.1 and 0.2'
    >>> net_benefit_name(["0.1"])
    'Net benefit at risk threshold 0.1'
    """
    ts = [f"{float(t):g}" for t in thresholds]
    joined = ts[0] if len(ts) == 1 else ", ".join(ts[:-1]) + " and " + ts[-1]
    return f"Net benefit at risk threshold{'s' if len(ts) > 1 else ''} {joined}"


def check_budget(value: Any, what: str) -> float:
    """A share strictly between 0 and 1, or one sentence naming ``what``."""
    try:
        f = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number strictly between 0 and 1; got {value!r}.") from None
    if isinstance(value, bool) or not 0.0 < f < 1.0:
        raise InputError(f"{what} must be a number strictly between 0 and 1 (a share, e.g. 0.05); got {value!r}.")
    return f


def check_decision_thresholds(values: Any, what: str) -> list[float]:
    """Risk thresholds strictly between 0 and 1, increasing, or one sentence naming ``what``."""
    if isinstance(values, str):
        values = [v for v in values.replace(";", ",").split(",") if v.strip()]
    if not isinstance(values, (list, tuple)) or not values:
        raise InputError(f"{what} must be a list of risk thresholds strictly between 0 and 1, in increasing order "
                         f"(e.g. 0.05,0.1,0.2); got {values!r}.")
    out: list[float] = []
    for v in values:
        try:
            t = float(v)
        except (TypeError, ValueError):
            raise InputError(f"{what} must hold numbers strictly between 0 and 1; {v!r} is not a number.") from None
        if isinstance(v, bool) or not 0.0 < t < 1.0:
            raise InputError(f"{what} must hold risk thresholds strictly between 0 and 1; got {v!r}.")
        if out and t <= out[-1]:
            raise InputError(f"{what} must be in increasing order without repeats; {t:g} follows {out[-1]:g}.")
        out.append(t)
    if len(out) > 50:
        raise InputError(f"{what} has {len(out)} thresholds; give at most 50 (the decision curve's points).")
    return out


def _w(w: Any, n: int) -> np.ndarray:
    return np.ones(n) if w is None else np.asarray(w, dtype=np.float64)


def _roc_points(y: Any, score: Any, w: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(TPR, FPR, distinct score, positive weight, negative weight)`` of the ROC curve's points, one per tie group
    of the scores from the highest down (NaN rates without positives or negatives)."""
    y = np.asarray(y, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    gp, gn, values = _groups(s, y, _w(w, y.shape[0]))
    tp, fp = np.cumsum(gp, axis=-1), np.cumsum(gn, axis=-1)
    p, n = tp[..., -1:], fp[..., -1:]
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp / p, fp / n, values, p, n


def _groups(score: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(positive weight, negative weight, distinct score)`` per tie group, in decreasing score order."""
    order = np.argsort(-score, kind="stable")
    ss = score[order]
    starts = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])
    wy = w[..., order] * y[order]
    wn = w[..., order] * (1.0 - y[order])
    return np.add.reduceat(wy, starts, axis=-1), np.add.reduceat(wn, starts, axis=-1), ss[starts]


def tpr_at_fpr(y: Any, score: Any, max_fpr: float, w: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(TPR, threshold)`` of the best threshold whose FPR on these items is ≤ ``max_fpr``.

    ``y`` is 0/1 (1 = positive), ``score`` higher = more positive. The threshold is the lowest score flagged
    (``inf`` when flagging nothing is the best allowed). NaN without positives or negatives.

    >>> tpr, thr = tpr_at_fpr([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], 0.34)
    >>> round(float(tpr), 4), float(thr)
    (0.6667, 0.8)
    """
    tpr, fpr, values, p, n = _roc_points(y, score, w)
    ok = fpr <= max_fpr + 1e-12
    best = np.where(ok, tpr, -1.0)
    j = np.argmax(best, axis=-1)  # the first (highest) threshold reaching the best allowed TPR
    val = np.take_along_axis(best, j[..., None], axis=-1)[..., 0]
    thr = np.where(val >= 0, values[j], np.inf)
    val = np.maximum(val, 0.0)
    bad = (p[..., 0] <= 0) | (n[..., 0] <= 0)
    val = np.where(bad, np.nan, val)
    return val, thr


def partial_roc_auc(y: Any, score: Any, max_fpr: float, w: Any = None) -> np.ndarray:
    """McClish's standardized partial area under the ROC curve between false positive rates 0 and ``max_fpr``.

    ``y`` is 0/1 (1 = positive), ``score`` higher = more positive; NaN without positives or negatives.

    >>> round(float(partial_roc_auc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], 0.5)), 6)  # ½(1 + (1/3 − 1/8)/(3/8))
    0.777778
    """
    f = float(max_fpr)
    tpr, fpr, _, p, n = _roc_points(y, score, w)
    zero = np.zeros(tpr.shape[:-1] + (1,))
    x0, x1 = np.concatenate([zero, fpr[..., :-1]], axis=-1), fpr  # each segment of the curve, from (0, 0)
    y0, y1 = np.concatenate([zero, tpr[..., :-1]], axis=-1), tpr
    width = np.clip(np.minimum(x1, f) - x0, 0.0, None)  # the part of the segment left of f
    with np.errstate(invalid="ignore", divide="ignore"):
        end = np.where(x1 > x0, y0 + (y1 - y0) * width / np.where(x1 > x0, x1 - x0, 1.0), y1)
    area = (width * (y0 + end) / 2.0).sum(axis=-1)
    low, high = f * f / 2.0, f
    out = 0.5 * (1.0 + (area - low) / (high - low))
    bad = (p[..., 0] <= 0) | (n[..., 0] <= 0)
    return np.where(bad, np.nan, out)


def ks_statistic(y: Any, score: Any, w: Any = None) -> np.ndarray:
    """The Kolmogorov–Smirnov statistic of a binary score: ``max(TPR − FPR)`` over the thresholds.

    ``KS = max_τ (TP_τ/P − FP_τ/N)`` where ``TP_τ`` and ``FP_τ`` count the positives and negatives scored at or
    above ``τ``, ``τ`` running over the distinct scores and the two ends (where the gap is 0), so ``0 ≤ KS ≤ 1``:
    the one-sided two-sample KS statistic of the scores of the positives against those of the negatives,
    ``max_x (F_−(x) − F_+(x))`` with ``F`` the empirical distribution functions (scipy's
    ``ks_2samp(positives, negatives, alternative="less")``). A tie group is one threshold: its items are flagged
    together. ``y`` is 0/1 (1 = positive), ``score`` higher = more positive; NaN without positives or negatives.
    Lessmann et al. (2015) report it beside ROC AUC for credit scorecards.

    >>> float(ks_statistic([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9]))  # τ = 0.8: 2/3 − 0
    0.6666666666666666
    >>> float(ks_statistic([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9]))  # reversed: no threshold beats chance
    0.0
    """
    tpr, fpr, _, p, n = _roc_points(y, score, w)
    with np.errstate(invalid="ignore"):
        gap = np.maximum((tpr - fpr).max(axis=-1), 0.0)  # the ends (flag nothing, flag all) give 0
    bad = (p[..., 0] <= 0) | (n[..., 0] <= 0)
    return np.where(bad, np.nan, gap)


def precision_recall_at_k(y: Any, score: Any, k: float, w: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(precision@K, recall@K)`` of the ``K`` highest-scored items, a tie at the cut shared fractionally.

    >>> p, r = precision_recall_at_k([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.2, 0.1], 2)
    >>> float(p), float(r)
    (0.75, 0.5)
    """
    y = np.asarray(y, dtype=np.float64)
    s = np.asarray(score, dtype=np.float64)
    w = _w(w, y.shape[0])
    gp, gn, _ = _groups(s, y, w)
    size = gp + gn
    cum = np.cumsum(size, axis=-1)
    before = cum - size
    frac = np.clip((k - before) / np.where(size > 0, size, 1.0), 0.0, 1.0)
    tp = (gp * frac).sum(axis=-1)
    pos = gp.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp / k, np.where(pos > 0, tp / np.where(pos > 0, pos, 1.0), np.nan)


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, _CLIP, 1.0 - _CLIP)
    return np.log(q) - np.log1p(-q)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))



def _loglik(w: np.ndarray, y: np.ndarray, eta: np.ndarray) -> np.ndarray:
    """The weighted Bernoulli log-likelihood of the linear predictor ``eta`` (…, n)."""
    return (w * (y * eta - np.logaddexp(0.0, eta))).sum(axis=-1)


def _climb(w: np.ndarray, y: np.ndarray, x: np.ndarray, params: tuple[np.ndarray, ...],
           steps: tuple[np.ndarray, ...], cur: np.ndarray, eta: Any
           ) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """One Newton step per fit, halved (up to 40 times) where it would lower the log-likelihood ``cur``; a fit
    that no halving improves stays put. Returns the parameters, their log-likelihood and how far each moved."""
    t = np.ones(cur.shape)
    for _ in range(40):
        trial = tuple(p + t * d for p, d in zip(params, steps))
        new = _loglik(w, y, eta(trial))
        worse = ~(new >= cur - 1e-12 * np.abs(cur))  # NaN counts as worse
        if not np.any(worse):
            break
        t = np.where(worse, t / 2, t)
    kept = tuple(np.where(worse, p, q) for p, q in zip(params, trial))
    moved = np.where(worse, 0.0, sum(np.abs(t * d) for d in steps))
    return kept, np.where(worse, cur, new), moved


def calibration_fit(y: Any, p: Any, w: Any = None, *, iterations: int = 50) -> dict[str, np.ndarray]:
    """``{"intercept", "slope", "slope_intercept", "observed_expected"}`` of binary risks ``p`` for outcomes
    ``y`` (0/1): the calibration intercept ``a`` of ``y ~ a + offset(logit p)``, the slope ``b`` of
    ``y ~ a' + b logit p`` (with its own intercept ``a'``) and ``Σ y / Σ p``, each under item weights.

    >>> fit = calibration_fit([0, 0, 1, 1, 0, 1, 0, 0], [0.1, 0.3, 0.6, 0.8, 0.4, 0.5, 0.2, 0.7])
    >>> round(float(fit["intercept"]), 4), round(float(fit["slope"]), 4)
    (-0.3906, 1.7952)
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    w = _w(w, y.shape[0])
    x = _logit(p)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        # Newton steps halved until the weighted log-likelihood does not fall: plain Newton from a = 0, b = 1
        # can leave the optimum for good on a resample (a slope of 6.9 where statsmodels finds 0.42)
        a = np.zeros(w.shape[:-1])
        cur = _loglik(w, y, a[..., None] + x)
        for _ in range(iterations):  # one parameter: Newton on the intercept with offset x
            mu = _sigmoid(a[..., None] + x)
            g = (w * (y - mu)).sum(axis=-1)
            h = (w * mu * (1.0 - mu)).sum(axis=-1)
            step = np.clip(np.where(h > 0, g / np.where(h > 0, h, 1.0), 0.0), -5.0, 5.0)
            (a,), cur, moved = _climb(w, y, x, (a,), (step,), cur, lambda v: v[0][..., None] + x)
            if np.all(moved < 1e-12):
                break
        a0, b = np.zeros(w.shape[:-1]), np.ones(w.shape[:-1])
        cur = _loglik(w, y, a0[..., None] + b[..., None] * x)
        for _ in range(iterations):  # two parameters: IRLS, the 2×2 system solved in closed form
            mu = _sigmoid(a0[..., None] + b[..., None] * x)
            r = w * (y - mu)
            v = w * mu * (1.0 - mu)
            g0, g1 = r.sum(axis=-1), (r * x).sum(axis=-1)
            h00, h01, h11 = v.sum(axis=-1), (v * x).sum(axis=-1), (v * x * x).sum(axis=-1)
            det = h00 * h11 - h01 * h01
            safe = np.where(np.abs(det) > 0, det, 1.0)
            d0 = np.where(np.abs(det) > 0, (h11 * g0 - h01 * g1) / safe, 0.0)
            d1 = np.where(np.abs(det) > 0, (h00 * g1 - h01 * g0) / safe, 0.0)
            scale = np.maximum(1.0, np.maximum(np.abs(d0), np.abs(d1)) / 10.0)  # damped far from the optimum
            (a0, b), cur, moved = _climb(w, y, x, (a0, b), (d0 / scale, d1 / scale), cur,
                                         lambda v: v[0][..., None] + v[1][..., None] * x)
            if np.all(moved < 1e-12):
                break
        oe = (w * y).sum(axis=-1) / (w * p).sum(axis=-1)
    both = ((w * y).sum(axis=-1) > 0) & ((w * (1 - y)).sum(axis=-1) > 0)
    nan = np.full(a.shape, np.nan)
    return {"intercept": np.where(both, a, nan), "slope": np.where(both, b, nan),
            "slope_intercept": np.where(both, a0, nan), "observed_expected": oe}


def _grid(p: np.ndarray, size: int = SMOOTH_GRID) -> np.ndarray:
    distinct = np.unique(p)
    if distinct.shape[0] <= size:
        return distinct
    return np.unique(np.quantile(p, np.linspace(0.0, 1.0, size)))


def _kernel(p: np.ndarray, grid: np.ndarray, span: float) -> np.ndarray:
    """Tricube weights ``(len(grid), n)`` of the nearest ``⌊span n⌋`` items around each grid point, as
    Cleveland's lowess: ``h`` the distance to the farthest of them, weight 1 within ``0.001 h``, 0 beyond
    ``0.999 h``, ``(1 − (d/h)³)³`` between."""
    n = p.shape[0]
    r = max(2, min(n, int(span * n + 1e-10)))
    d = np.abs(grid[:, None] - p[None, :])
    h = np.partition(d, r - 1, axis=1)[:, r - 1]
    h = np.where(h > 0, h, 1.0)
    u = d / h[:, None]
    return np.where(u <= 0.001, 1.0, np.where(u > 0.999, 0.0, (1.0 - np.clip(u, 0.0, 1.0) ** 3) ** 3))


def _local_linear(k: np.ndarray, p: np.ndarray, y: np.ndarray, grid: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Locally weighted linear fits at ``grid`` under item weights ``w`` (``(n,)`` or ``(b, n)``)."""
    x = p - 0.0
    kw = w[..., None, :] * k  # (..., G, n)
    s0 = kw.sum(axis=-1)
    s1 = (kw * x).sum(axis=-1)
    s2 = (kw * x * x).sum(axis=-1)
    t0 = (kw * y).sum(axis=-1)
    t1 = (kw * x * y).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        det = s0 * s2 - s1 * s1
        slope = np.where(np.abs(det) > 1e-300, (s0 * t1 - s1 * t0) / np.where(np.abs(det) > 1e-300, det, 1.0), 0.0)
        icpt = (t0 - slope * s1) / s0
    return icpt + slope * grid


def loess_curve(y: Any, p: Any, w: Any = None, *, span: float = SMOOTH_SPAN,
                grid: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(grid, smoothed observed risk at grid)``: loess of the outcome on the risk (locally linear, tricube).

    >>> g, f = loess_curve([0, 0, 1, 0, 1, 1], [0.1, 0.2, 0.4, 0.5, 0.7, 0.9])
    >>> g.tolist() == [0.1, 0.2, 0.4, 0.5, 0.7, 0.9], bool(f[0] < f[-1])
    (True, True)
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    g = _grid(p) if grid is None else np.asarray(grid, dtype=np.float64)
    k = _kernel(p, g, span)
    return g, _local_linear(k, p, y, g, _w(w, y.shape[0]))


def ici(y: Any, p: Any, w: Any = None, *, span: float = SMOOTH_SPAN, chunk: int = 64) -> np.ndarray:
    """Integrated calibration index: the weighted mean of ``|f(p_t) − p_t|`` for the loess curve ``f``.

    >>> round(float(ici([0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.2, 0.4, 0.5, 0.7, 0.9, 0.3, 0.6])), 4) >= 0
    True
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    w = _w(w, y.shape[0])
    g = _grid(p)
    k = _kernel(p, g, span)
    pos = np.clip(np.searchsorted(g, p, side="left"), 1, max(g.shape[0] - 1, 1))
    out = np.empty(w.shape[:-1])
    rows = w.reshape(-1, w.shape[-1])
    flat = out.reshape(-1)
    for start in range(0, rows.shape[0], chunk):
        ww = rows[start:start + chunk]
        f = _local_linear(k, p, y, g, ww)  # (c, G)
        if g.shape[0] == 1:
            at = np.repeat(f, p.shape[0], axis=-1)
        else:
            x0, x1 = g[pos - 1], g[pos]
            f0, f1 = f[:, pos - 1], f[:, pos]
            t = np.where(x1 > x0, (p - x0) / np.where(x1 > x0, x1 - x0, 1.0), 0.0)
            at = f0 + t * (f1 - f0)
        flat[start:start + chunk] = (ww * np.abs(at - p)).sum(axis=-1) / ww.sum(axis=-1)
    return out


def net_benefit(y: Any, p: Any, thresholds: Sequence[float], w: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(net benefit of the model, of treating all)`` at each threshold: shape ``(..., len(thresholds))``.

    >>> nb, all_ = net_benefit([1, 0, 1, 0], [0.9, 0.6, 0.4, 0.1], [0.5])
    >>> nb.tolist(), all_.tolist()
    ([0.0], [0.0])
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    w = _w(w, y.shape[0])
    t = np.asarray(thresholds, dtype=np.float64)
    treat = (p[None, :] >= t[:, None]).astype(np.float64)  # (T, n)
    n = w.sum(axis=-1)[..., None]
    tp = (w * y) @ treat.T
    fp = (w * (1.0 - y)) @ treat.T
    odds = t / (1.0 - t)
    prev = (w * y).sum(axis=-1)[..., None] / n
    return tp / n - fp / n * odds, prev - (1.0 - prev) * odds


def _cumulative(idx: np.ndarray, proba: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = proba.shape[1]
    f = np.cumsum(proba, axis=1)[:, : k - 1]
    o = (idx[:, None] <= np.arange(k - 1)[None, :]).astype(np.float64)
    return f, o


def ranked_probability_score(idx: Any, proba: Any, w: Any = None) -> np.ndarray:
    """Mean RPS of forecasts ``proba`` (n, k; columns in class order, lowest first) for true class indices.

    >>> float(ranked_probability_score([0, 2], [[1, 0, 0], [1, 0, 0]]))   # one step of 0, two of 2: (0 + 2) / 2
    1.0
    """
    idx = np.asarray(idx)
    proba = np.asarray(proba, dtype=np.float64)
    if proba.ndim != 2 or proba.shape[1] < 2:
        raise InputError("the ranked probability score needs one probability column per ordered class (at least two).")
    f, o = _cumulative(idx, proba)
    per_item = ((f - o) ** 2).sum(axis=1)
    w = _w(w, idx.shape[0])
    return (w @ per_item) / w.sum(axis=-1)


def rps_skill(idx: Any, proba: Any, w: Any = None) -> np.ndarray:
    """``1 − RPS / RPS_clim``, the climatology being the class shares of the same (weighted) items.

    >>> round(float(rps_skill([0, 1, 2, 2], [[.8, .2, 0], [.1, .8, .1], [0, .2, .8], [0, .1, .9]])), 4)
    0.9371
    """
    idx = np.asarray(idx)
    proba = np.asarray(proba, dtype=np.float64)
    k = proba.shape[1]
    w = _w(w, idx.shape[0])
    rps = ranked_probability_score(idx, proba, w)
    onehot = (idx[:, None] == np.arange(k)[None, :]).astype(np.float64)
    shares = (w @ onehot) / w.sum(axis=-1)[..., None]
    c = np.cumsum(shares, axis=-1)[..., : k - 1]
    clim = (c * (1.0 - c)).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(clim > 0, 1.0 - rps / np.where(clim > 0, clim, 1.0), np.nan)


#: metrics whose ideal is a value, not an end of the scale (intercept 0, slope 1): no system "wins" them
TARGET_VALUED = {"calibration_intercept": 0.0, "calibration_slope": 1.0}
#: metrics that a single binary score (not only probabilities) gives
SCORE_ONLY = ("tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k", "recall_at_k")


def _item_level(s: Any) -> np.ndarray:  # pragma: no cover - guarded where metrics are resolved
    raise InputError("this metric needs item-level scores or probabilities, not a confusion matrix.")


def extra_specs(spec: Any) -> dict[str, Any]:
    """The :class:`~._metrics.MetricSpec` records of this module's metrics (``spec`` is the class)."""
    binary = ("tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k", "recall_at_k", "calibration_intercept",
              "calibration_slope", "ici", "net_benefit")
    out = {mid: spec(mid, _item_level, binary_only=True, needs_probabilities=True) for mid in binary}
    out["ici"] = spec("ici", _item_level, binary_only=True, needs_probabilities=True, higher_is_better=False)
    out["ranked_probability_score"] = spec("ranked_probability_score", _item_level, needs_probabilities=True,
                                           higher_is_better=False)
    out["rps_skill"] = spec("rps_skill", _item_level, needs_probabilities=True)
    return out


def recalibration_loss(y: Any, p: Any, *, folds: int = 5, seed: int = 0) -> float:
    """Share of the log loss of binary risks ``p`` removed by a logistic recalibration (intercept and slope on
    ``logit p``) fitted on the other folds of a seeded ``folds``-fold split and applied to the held-out fold —
    the part of the log loss due to miscalibration, which temperature scaling (no intercept) cannot see when the
    risks are too high or too low on average.

    >>> rng = np.random.default_rng(0); q = rng.random(2000) * 0.3; y = (rng.random(2000) < q).astype(float)
    >>> recalibration_loss(y, q) < 0.01 < recalibration_loss(y, np.clip(q * 2.7, 0, 0.99))
    True
    """
    y = np.asarray(y, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    n = y.shape[0]
    if n < 2 * folds:
        return float("nan")
    fold = np.random.default_rng(seed).permutation(n) % folds
    x = _logit(p)
    q = np.empty(n)
    for f in range(folds):
        train = fold != f
        fit = calibration_fit(y[train], p[train])
        a, b = float(fit["slope_intercept"]), float(fit["slope"])
        if not (np.isfinite(a) and np.isfinite(b)):
            a, b = 0.0, 1.0
        q[~train] = _sigmoid(a + b * x[~train])

    def ll(r: np.ndarray) -> float:
        r = np.clip(r, LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS)
        return float(-np.mean(y * np.log(r) + (1.0 - y) * np.log1p(-r)))

    before = ll(p)
    return (before - ll(q)) / before if before > 0 else 0.0
