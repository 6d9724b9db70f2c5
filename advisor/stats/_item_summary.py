r"""Intervals, differences and winners of the item bootstrap of score, probability and cost metrics.

Each metric is summarised as the paired comparison of confusion matrices summarises it
(:func:`advisor.stats._paired.summarise`): BCa intervals with the acceleration of a jackknife over the
items (:mod:`._jackknife`: every item once up to 1,000 items, 200 random groups above), the basic
interval where BCa's levels are not supported, none where no interval contains the estimate; paired
differences with their own intervals, the paired-bootstrap test, the smallest resolvable difference,
the winners.

**ECE.** The plug-in ECE is biased upwards by the sampling error of each bin's accuracy — 0.07 for a
perfectly calibrated model at n = 100 — so it gets no interval. Beside it, every system with
probabilities gets the debiased squared ℓ2 calibration error of Kumar, Liang & Ma (2019),
``T = Σ_b (W_b/W)[(ȳ_b − p̄_b)² − ȳ_b(1 − ȳ_b)/(W_b − 1)]`` over the same tie-safe bins, unbiased for a
fixed binning. ``T`` is not the plug-in of its target: in the resampling world the target is the
plug-in ``P = Σ_b (W_b/W)(ȳ_b − p̄_b)²`` of the observed items, so ``T* − P`` stands for ``T − CE²`` and the
interval is the basic bootstrap one on that pivot, ``[T + P − q*_{1−α/2}, T + P − q*_{α/2}]`` (BCa would
take the resamples' upward shift ``P − T`` for a bias of ``T`` and push the interval below 0). It is
computed on ``T``, which can be negative, and reported on the scale of the root-mean-square
calibration error, ``√max(T, 0)``, so a calibrated model's interval reaches 0.
Binary tasks get the same for the positive-class probability ``p_t⁺`` against ``y_t = +`` — the
calibration a risk model is judged by — beside the top label's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._choice import NO_INTERVAL
from ._compare_models import MetricComparison
from ._intervals import resampled_intervals
from ._jackknife import EXACT_UNITS, GROUPS, acceleration, item_groups
from ._paired import PairedInputs, summarise
from ._runs import combine_points, combine_resamples

__all__ = ["CALIBRATION_KEYS", "canonical_order", "item_jackknife", "summarise_items"]

#: Statistics resampled beside "ece": (key, what it measures).
CALIBRATION_KEYS = {"top_label": ("_ece_sq", "ece"), "positive_class": ("_ece_pos_sq", "_ece_pos")}
_CHUNK_ITEMS = 800_000


def canonical_order(y: np.ndarray, outputs: list[np.ndarray]) -> np.ndarray:
    """A permutation that lists the items in an order fixed by their values alone (true class, then two
    fixed random projections of every system's outputs), so that resampling — and every interval — is the
    same whatever the order of the rows. Items equal in every value are interchangeable."""
    cols = [np.asarray(y, dtype=np.float64).reshape(len(y), -1)]
    cols += [np.asarray(o, dtype=np.float64).reshape(len(y), -1) for o in outputs]
    rows = np.concatenate(cols, axis=1)
    r = np.random.default_rng(12_345).standard_normal((2, rows.shape[1]))
    h1, h2 = (rows * r[0]).sum(axis=1), (rows * r[1]).sum(axis=1)
    return np.lexsort((h2, h1, rows[:, 0]))


def item_jackknife(systems: dict[str, Any], n: int, clusters: tuple[np.ndarray, int] | None = None
                   ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """``({statistic: θ₍g₎ of shape (deletions, systems)}, weights)``: each item (up to
    :data:`EXACT_UNITS`) or each of :data:`GROUPS` random groups of items left out in turn; with
    ``clusters`` (group of each item, number of groups) each group of items, or random sets of groups."""
    names = list(systems)
    units = n if clusters is None else clusters[1]
    deal = np.arange(units) if units <= EXACT_UNITS else item_groups(units)
    group = deal if clusters is None else deal[clusters[0]]
    count = units if units <= EXACT_UNITS else GROUPS
    out: dict[str, np.ndarray] = {}
    step = max(1, _CHUNK_ITEMS // max(n, 1))
    for start in range(0, count, step):
        g = np.arange(start, min(count, start + step))
        w = (group[None, :] != g[:, None]).astype(np.float64)  # one row per deletion
        for j, name in enumerate(names):
            for key, v in systems[name].evaluate(w).items():
                out.setdefault(key, np.full((count, len(names)), np.nan))[start:start + g.size, j] = v
    return out, np.ones(count)


def _inputs(key: str, theta: dict[str, np.ndarray], weights: np.ndarray, m: int) -> PairedInputs:
    th = theta.get(key)
    extra = PairedInputs(methods="none" if key in NO_INTERVAL else "auto", no_interval=NO_INTERVAL.get(key))
    if th is not None:
        extra.accel = acceleration(th, weights)
        with np.errstate(invalid="ignore"):
            extra.diff_accel = {(a, b): float(acceleration((th[:, a] - th[:, b])[:, None], weights)[0])
                                for a in range(m) for b in range(a + 1, m)}
    return extra


def _calibration(names: list[str], point: dict[str, dict[str, np.ndarray]], draws: dict[str, np.ndarray],
                 confidence: float) -> dict[str, dict[str, Any]]:
    """Per system: the plug-in ECE and the debiased ℓ2 calibration error with its interval, of the top label
    and (binary) of the positive-class probability."""
    out: dict[str, dict[str, Any]] = {s: {} for s in names}
    for part, (sq, plug) in CALIBRATION_KEYS.items():
        if sq not in draws:
            continue
        est = np.array([float(point[s][sq]) for s in names])
        target = np.array([float(point[s][sq + "_plugin"]) for s in names])
        # the basic interval on the pivot T* − P (P: the target in the resampling world): shift the resamples
        # so that P sits where T is, then reflect about T
        iv = resampled_intervals(draws[sq] - (target - est)[None, :], est, confidence, "basic", None,
                                 [(-1.0, 1.0)] * len(names))
        def root(x: float) -> float | None:
            return None if np.isnan(x) else float(np.sqrt(max(x, 0.0)))

        for j, s in enumerate(names):
            out[s][part] = {
                "ece": float(point[s][plug]),
                "rms_debiased": root(est[j]), "low": root(iv.low[j]), "high": root(iv.high[j]),
                "method": iv.methods[j], **({"reason": iv.reasons[j]} if iv.reasons[j] else {}),
            }
    return out


def summarise_items(systems: dict[str, Any], ids: list[str], point: dict[str, dict[str, np.ndarray]],
                    draws: dict[str, np.ndarray], n: int, confidence: float,
                    clusters: tuple[np.ndarray, int] | None = None, layout: Any = None,
                    rng: np.random.Generator | None = None
                    ) -> tuple[dict[str, MetricComparison], dict[str, dict[str, Any]]]:
    """``({metric: MetricComparison}, {system: calibration})`` from the point values and the resampled
    ``draws[statistic]`` (resamples, systems). With ``layout`` (:class:`advisor.stats._runs.RunLayout`) the
    columns are runs: each system is summarised as its mean over runs, resampled over runs and items (the
    calibration stays per run)."""
    columns = list(systems)
    theta, weights = item_jackknife(systems, n, clusters)
    names = columns if layout is None else layout.names
    out = {}
    for m in ids:
        pts, values, th = np.array([float(point[s][m]) for s in columns]), draws[m], dict(theta)
        if layout is not None:
            assert rng is not None, "runs are resampled with the comparison's own generator"
            pts, values = combine_points(pts, layout), combine_resamples(values, layout, rng)
            th = {m: combine_points(theta[m], layout)} if m in theta else {}
        out[m] = summarise(m, names, pts, values, confidence, extra=_inputs(m, th, weights, len(names)))
    return out, _calibration(columns, point, draws, confidence)
