r"""Intervals for the gaps across subgroups (``--by``; issue 23 item 1): a stratified bootstrap.

A gap is ``Δ = max_g θ_g − min_g θ_g`` over the subgroups ``g`` of one column (the equalized-odds difference: the
larger of the TPR and FPR gaps). Each resample draws every subgroup's items anew from that subgroup alone, so the
subgroup sizes stay as observed (stratified by subgroup) — or, when the items come in groups (``--group``: a patient,
a document), draws the subgroup's groups; every system is scored on the same draws.

**Why not an interval of the resampled gaps.** A maximum minus a minimum is biased upward: the range is a convex
function of the subgroup values, so ``E[Δ̂] ≥ Δ`` (Jensen), most where subgroups are small and their values noisy —
with no true gap at all the plug-in gap is still positive. The resampled gaps are biased once more
(``E*[Δ*] ≥ Δ̂``), so the percentile interval of ``Δ*`` lies above the plug-in gap and almost never covers a true gap
of 0; the basic interval ``[2Δ̂ − q_hi, 2Δ̂ − q_lo]`` undoes part of the bias but is too narrow once the gap is
comparable to the sampling error (``benchmarks/bench_subgroup_gaps.py``, figures in ``benchmarks/README.md``).

**The interval advisor gives** (:data:`GAP_METHOD`) rests on the differences between two subgroups, which are smooth
and unbiased. For every pair ``(i, j)`` of subgroups with a value, ``d_ij = θ_i − θ_j`` gets the interval
``d̂_ij ± c · se_ij``, ``se_ij`` the standard deviation of its resampled values and ``c`` the ``confidence``
quantile of the resampled ``max_ij |d*_ij − d̂_ij| / se_ij`` — simultaneous intervals (max-t), which hold together
with the given confidence. When every ``d_ij`` lies in its interval, ``Δ = max_ij |d_ij|`` lies between the
largest lower end of the ``|d_ij|`` intervals (0 for a pair whose interval contains 0) and the largest upper end;
that range is the gap's interval (for the equalized-odds difference the pairs of both rates are taken together).
The point value reported stays the plug-in gap, fairlearn's. Where a subgroup holds only a dozen items of a class
its resampled rates are coarse and the coverage falls below the level (the benchmark's four-subgroup rows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import JointCounts, evaluate_batch
from ._bootstrap import chunk_size, iter_resamples, make_rng, resample_cells, trials_and_probabilities
from ._clusters import iter_cluster_resamples

__all__ = ["GAP_METHOD", "gap_intervals", "value_range"]

#: The interval method of every gap (see the module docstring)
GAP_METHOD = "simultaneous_pairwise_bootstrap"
#: Below this share of resamples in which a gap is defined (two subgroups with a value) it gets no interval.
_MIN_DEFINED = 0.9


def _rates(cells: Any, pos: int) -> dict[str, np.ndarray]:
    """TPR, FPR, selection rate and precision of a batch of binary matrices (NaN for an empty denominator)."""
    w = np.asarray(cells.w, dtype=np.float64).reshape(-1, cells.nnz)
    r, c = np.asarray(cells.rows), np.asarray(cells.cols)

    def mass(rt: bool, cp: bool) -> np.ndarray:
        sel = ((r == pos) == rt) & ((c == pos) == cp)
        return w[:, sel].sum(axis=1)

    tp, fn, fp, tn = mass(True, True), mass(True, False), mass(False, True), mass(False, False)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"tpr": np.where(tp + fn > 0, tp / (tp + fn), np.nan),
                "fpr": np.where(fp + tn > 0, fp / (fp + tn), np.nan),
                "selection_rate": np.where(tp + fp + fn + tn > 0, (tp + fp) / (tp + fp + fn + tn), np.nan),
                "precision": np.where(tp + fp > 0, tp / (tp + fp), np.nan)}


def _draws(sub: JointCounts, rng: np.random.Generator, n_resamples: int, groups: np.ndarray | None
           ) -> Any:
    """Chunks ``(start, masses)`` of one subgroup's resamples: its items, or its groups of items."""
    size = chunk_size(2 * sub.counts.shape[0] + resample_cells(sub.counts.shape[0], sub.k), n_resamples)
    if groups is not None:
        _, gi = np.unique(groups, return_inverse=True)
        return iter_cluster_resamples(rng, sub.counts, gi.reshape(-1), int(gi.max()) + 1, n_resamples, size)
    trials, p, scale = trials_and_probabilities(sub.counts, "the subgroup's items")
    return iter_resamples(rng, trials, p, n_resamples, size, scale)


def _values(sub: JointCounts, ids: Sequence[str], rates: bool, pos: int | None, beta: float, undefined: str,
            rng: np.random.Generator, n_resamples: int, groups: np.ndarray | None) -> dict[str, dict[str, np.ndarray]]:
    """``{system: {metric: (n_resamples,) values}}`` of one subgroup's resamples."""
    systems = list(sub.systems)
    out = {s: {m: np.full(n_resamples, np.nan) for m in [*ids, *(("tpr", "fpr", "selection_rate", "precision")
                                                                  if rates else ())]} for s in systems}
    for start, masses in _draws(sub, rng, n_resamples, groups):
        rows = masses.shape[0]
        for s, cells in zip(systems, sub.system_cells(masses)):
            if ids:
                vals = evaluate_batch(cells, list(ids), positive_index=pos, beta=float(beta), undefined=undefined)
                for m in ids:
                    out[s][m][start:start + rows] = np.asarray(vals[m], dtype=np.float64).reshape(-1)
            if rates and pos is not None:
                for m, v in _rates(cells, pos).items():
                    out[s][m][start:start + rows] = v
    return out


def value_range(vals: Mapping[str, float]) -> dict[str, Any]:
    """The gap across a column's values of one figure (undefined values already left out): max − min, min / max
    (for figures ≥ 0) and the values at either end; none with fewer than two values.

    >>> value_range({"a": 0.8, "b": 0.6})["gap"], value_range({"a": 0.8})["reason"]
    (0.20000000000000007, 'defined in fewer than two subgroups')
    """
    if len(vals) < 2:
        return {"gap": None, "ratio": None, "reason": "defined in fewer than two subgroups"}
    hi, lo = max(vals, key=vals.__getitem__), min(vals, key=vals.__getitem__)
    return {"gap": vals[hi] - vals[lo], "ratio": vals[lo] / vals[hi] if vals[hi] > 0 and vals[lo] >= 0 else None,
            "max": vals[hi], "argmax": hi, "min": vals[lo], "argmin": lo}


def _range(stack: np.ndarray) -> np.ndarray:
    """max − min over the subgroups (axis 0) where at least two are defined, else NaN."""
    defined = np.isfinite(stack)
    enough = defined.sum(axis=0) >= 2
    with np.errstate(invalid="ignore"):
        hi = np.where(defined, stack, -np.inf).max(axis=0)
        lo = np.where(defined, stack, np.inf).min(axis=0)
    return np.where(enough, hi - lo, np.nan)


_UNDEFINED = "the gap is undefined (a value in fewer than two subgroups) in too many resamples"


def _enough(draws: np.ndarray) -> bool:
    ok = np.isfinite(draws)
    return bool(ok.sum() >= max(2, _MIN_DEFINED * draws.shape[0]))


def _on_range(point: float, draws: np.ndarray, confidence: float, method: str) -> dict[str, Any]:
    """The percentile or the basic bootstrap interval of the resampled gaps themselves, clipped at 0."""
    if not _enough(draws):
        return {"low": None, "high": None, "method": method, "reason": _UNDEFINED}
    a = (1.0 - confidence) / 2.0
    q_lo, q_hi = np.quantile(draws[np.isfinite(draws)], [a, 1.0 - a])
    if method == "percentile":
        return {"low": float(q_lo), "high": float(q_hi), "method": method}
    return {"low": float(max(0.0, 2.0 * point - q_hi)), "high": float(max(0.0, 2.0 * point - q_lo)), "method": method}


def _pairs(points: Sequence[np.ndarray], draws: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``(d̂, d*)`` of every pair of subgroups with a value, over the families given (TPR and FPR for the
    equalized-odds difference): ``d̂`` of shape (pairs,), ``d*`` (pairs, resamples)."""
    dh, ds = [], []
    for pt, dr in zip(points, draws):
        idx = [g for g in range(pt.shape[0]) if np.isfinite(pt[g])]
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                dh.append(pt[idx[a]] - pt[idx[b]])
                ds.append(dr[idx[a]] - dr[idx[b]])
    return np.asarray(dh, dtype=np.float64), np.asarray(ds, dtype=np.float64).reshape(len(dh), -1)


def _simultaneous(points: Sequence[np.ndarray], draws: Sequence[np.ndarray], confidence: float) -> dict[str, Any]:
    """The gap's interval from simultaneous intervals of every pairwise difference (see the module docstring)."""
    dh, ds = _pairs(points, draws)
    if dh.shape[0] == 0 or not _enough(np.where(np.isfinite(ds).all(axis=0), 0.0, np.nan)):
        return {"low": None, "high": None, "method": GAP_METHOD, "reason": _UNDEFINED}
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.nanstd(ds, axis=1, ddof=1)
        t = np.abs(ds - dh[:, None]) / np.where(se > 0, se, np.inf)[:, None]
    t_max = np.fmax.reduce(np.where(np.isfinite(t), t, np.nan), axis=0) if t.size else np.zeros(0)
    t_max = t_max[np.isfinite(t_max)]
    c = float(np.quantile(t_max, confidence)) if t_max.size else 0.0
    lo, hi = dh - c * se, dh + c * se
    low_abs = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    high_abs = np.maximum(np.abs(lo), np.abs(hi))
    return {"low": float(low_abs.max()), "high": float(high_abs.max()), "method": GAP_METHOD}


def gap_intervals(joint: JointCounts, values: np.ndarray, n_values: int, gaps: Mapping[str, Any],
                  ids: Sequence[str], pos: int | None, beta: float, undefined: str, n_resamples: int,
                  confidence: float, seed: Any, groups: np.ndarray | None = None,
                  method: str = GAP_METHOD) -> dict[str, dict[str, Any]]:
    """``{metric: {system: {"low", "high", "method"[, "reason"]}}}`` for the gaps of one subgroup column.

    ``values`` is the subgroup (index into ``n_values``) of each row of ``joint``; ``gaps`` the point gaps
    (``{metric: {system: {"gap", …}}}``, with ``equalized_odds`` for a binary task); ``ids`` the matrix metrics;
    ``pos`` the class of interest's index (the rates); ``groups`` the resampling unit of each row (``--group``).
    ``method``: :data:`GAP_METHOD`, or ``"percentile"``/``"basic"`` on the resampled gaps (the benchmark's
    comparison).
    """
    rng = make_rng(seed)
    rates = pos is not None and "tpr" in gaps
    per: list[dict[str, dict[str, np.ndarray]]] = []
    subs = []
    for j in range(n_values):
        mask = values == j
        if not mask.any():
            continue
        sub = JointCounts(joint.labels, joint.systems, joint.codes[mask], joint.counts[mask], reject=joint.reject)
        subs.append(sub)
        per.append(_values(sub, ids, rates, pos, beta, undefined, rng, n_resamples,
                           None if groups is None else np.asarray(groups)[mask]))
    point = [_values_at(sub, ids, rates, pos, beta, undefined) for sub in subs]

    def interval(gap: float, system: str, metrics: Sequence[str]) -> dict[str, Any]:
        stacks = [np.stack([g[system][m] for g in per]) for m in metrics]
        if method == GAP_METHOD:
            return _simultaneous([np.array([p[system][m] for p in point]) for m in metrics], stacks, confidence)
        ranged = np.fmax.reduce([_range(x) for x in stacks]) if len(stacks) > 1 else _range(stacks[0])
        if len(stacks) > 1:
            ranged = np.where(np.all([np.isfinite(_range(x)) for x in stacks], axis=0), ranged, np.nan)
        return _on_range(gap, ranged, confidence, method)

    out: dict[str, dict[str, Any]] = {}
    for m, by_system in gaps.items():
        if m == "equalized_odds":
            continue
        out[m] = {s: interval(float(pt["gap"]), s, [m]) for s, pt in by_system.items()
                  if pt.get("gap") is not None and all(m in g[s] for g in per)}
    if "equalized_odds" in gaps and rates:
        out["equalized_odds"] = {s: interval(float(pt["gap"]), s, ["tpr", "fpr"])
                                 for s, pt in gaps["equalized_odds"].items() if pt.get("gap") is not None}
    return out


def _values_at(sub: JointCounts, ids: Sequence[str], rates: bool, pos: int | None, beta: float,
               undefined: str) -> dict[str, dict[str, float]]:
    """``{system: {metric: value}}`` of one subgroup as observed (the same formulas as its resamples)."""
    out: dict[str, dict[str, float]] = {}
    for s, cells in zip(sub.systems, sub.system_cells()):
        vals = evaluate_batch(cells, list(ids), positive_index=pos, beta=float(beta), undefined=undefined) if ids \
            else {}
        out[s] = {m: float(np.asarray(v).reshape(-1)[0]) for m, v in vals.items()}
        if rates and pos is not None:
            out[s].update({m: float(v[0]) for m, v in _rates(cells, pos).items()})
    return out
