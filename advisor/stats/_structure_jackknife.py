"""Point estimates, jackknife accelerations and exact proportions for the structured resamplings.

Ordinal tables are resampled by their cells, label sets, top-k scores and ratings by items
(:mod:`._structures`); the jackknife deletes the same unit — an item of a cell (a cell's items are
interchangeable), or an item — once each up to 1,000 units, in 200 random groups above
(:mod:`._jackknife`). Accuracy-like shares of whole items (accuracy, top-k accuracy, subset accuracy)
get Clopper–Pearson intervals, as the nominal proportions do — only when every item counts 0 or 1
(:func:`._structure_eval.whole_credits`). Top-k scores tied with the true class at the cut-off give an item a
fraction of a hit; the count is then no binomial count of items, and the share keeps its bootstrap interval (BCa, as
for every other metric), with that method recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import NOMINAL_BESIDE, evaluate_ordinal_batch, nominal_beside, with_counts

from ._bounds import bounds_of
from ._choice import SHARES as CHOICE_SHARES
from ._intervals import resampled_intervals
from ._jackknife import EXACT_UNITS, GROUPS, acceleration, item_groups, leave_out_values
from ._paired import PairedInputs
from ._proportions import proportion_interval
from ._structure_eval import _size, _weighted, cells_evaluator, whole_credits

__all__ = ["paired_structure_inputs", "structure_intervals"]

#: Structured ids that are a share of whole items.
SHARES = ("accuracy", *CHOICE_SHARES)


def _ordinal(c: Any, ids: Sequence[str], undefined: str) -> dict[str, np.ndarray]:
    """The metrics of ordinal or hierarchy cells (a batch of counts over a confusion matrix's cells)."""
    return cells_evaluator(c, ids, undefined)[0](c)


def _with_counts(c: Any, *args: Any) -> Any:
    return cells_evaluator(c, (), "zero")[1](c, *args)


def _items(data: Any, ids: Sequence[str], w: np.ndarray, undefined: str, top_k: int | None) -> dict[str, np.ndarray]:
    return _weighted(data, ids, w, undefined, top_k)


def _item_theta(evaluate: Any, n: int, columns: int, groups: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Leave-out values of an item-weighted evaluation ``evaluate(w) → (rows, columns)``; with ``groups`` (the
    group index of each item, groups resampled) a whole group leaves at a time."""
    units = n if groups is None else int(groups.max()) + 1
    unit = np.arange(units) if units <= EXACT_UNITS else item_groups(units)
    group = unit if groups is None else unit[groups]
    count = units if units <= EXACT_UNITS else GROUPS
    theta = np.full((count, columns), np.nan)
    step = max(1, 4_000_000 // max(n, 1))
    for start in range(0, count, step):
        g = np.arange(start, min(count, start + step))
        theta[start:start + g.size] = evaluate((group[None, :] != g[:, None]).astype(np.float64))
    return theta, np.ones(count)


def _one_system(structure: str, data: Any, ids: list[str], undefined: str, top_k: int | None,
                groups: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """``(point estimates, θ₍g₎ (deletions, ids), weights, items)`` of one structured input."""
    def stack(vals: dict[str, np.ndarray]) -> np.ndarray:
        return np.column_stack([np.asarray(vals[m], dtype=np.float64).reshape(-1) for m in ids])

    if structure in ("ordinal", "hierarchy"):
        base = np.asarray(data.counts, dtype=np.float64)
        point = stack(_ordinal(_with_counts(data, base[None]), ids, undefined))[0]
        # with the group of each cell (ordinal, groups resampled): a whole group leaves at a time
        cells_of = None if groups is None or structure != "ordinal" else (groups, int(groups.max()) + 1)
        theta, weights = leave_out_values(base, len(ids), lambda m: stack(_ordinal(_with_counts(data, m), ids, undefined)),
                                          max(1, 4_000_000 // max(base.size, 1)), cells_of)
        return point, theta, weights, float(base.sum())
    n = _size(data)
    point = stack(_items(data, ids, np.ones((1, n)), undefined, top_k))[0]
    theta, weights = _item_theta(lambda w: stack(_items(data, ids, w, undefined, top_k)), n, len(ids), groups)
    return point, theta, weights, float(n)


def _share_interval(mid: str, est: float, n: float, confidence: float, data: Any, top_k: int | None
                    ) -> tuple[float, float] | None:
    """Clopper–Pearson interval of a share of whole items, or None when some item of ``data`` counts a fraction
    (tied top-k scores) or ``est · n`` is not whole."""
    if mid not in SHARES or not n > 0 or np.isnan(est):
        return None
    x = est * n
    if abs(x - round(x)) > 1e-9 * max(1.0, n) or not whole_credits(data, mid, top_k):
        return None
    return proportion_interval(float(round(x)), n, confidence)


def structure_intervals(structure: str, data: Any, ids: list[str], draws: dict[str, np.ndarray], confidence: float,
                        undefined: str, top_k: int | None, groups: np.ndarray | None = None
                        ) -> dict[str, dict[str, Any]]:
    """``{id: {"estimate", "low", "high", "method"[, "reason"]}}`` of one system from its resamples (``groups``:
    resampled groups of items, so no share gets an interval that takes its items as independent)."""
    point, theta, weights, n = _one_system(structure, data, ids, undefined, top_k, groups)
    values = np.column_stack([np.asarray(draws[m], dtype=np.float64) for m in ids])
    iv = resampled_intervals(values, point, confidence, "auto", acceleration(theta, weights),
                             [bounds_of(m) for m in ids])
    out = {}
    for j, m in enumerate(ids):
        exact = _share_interval(m, float(point[j]), n, confidence, data, top_k) if groups is None else None
        if exact is not None:
            iv.low[j], iv.high[j] = exact
            iv.methods[j], iv.reasons[j] = "clopper_pearson", None
        out[m] = {"estimate": float(point[j]), "low": float(iv.low[j]), "high": float(iv.high[j]),
                  "method": iv.methods[j], **({"reason": iv.reasons[j]} if iv.reasons[j] else {})}
    return out


def _ordinal_joint_theta(systems: dict[str, Any], ids: list[str], items: Any, undefined: str) -> tuple[np.ndarray, np.ndarray]:
    """Leave-out values (deletions, ids, systems) over the joint table of (true, each system's prediction)."""
    names = list(systems)
    k = systems[names[0]].k
    codes = np.asarray(items[names[0]][0]).astype(np.int64)
    for s in names:
        codes = codes * k + np.asarray(items[s][1])
    joint, cnt = np.unique(codes, return_counts=True)
    preds: dict[str, np.ndarray] = {}
    rest = joint.copy()
    for s in reversed(names):
        preds[s], rest = rest % k, rest // k

    def evaluate(masses: np.ndarray) -> np.ndarray:
        cols = []
        for s in names:
            vals = _ordinal(_with_counts(systems[s], masses, rest, preds[s]), ids, undefined)
            cols.append(np.column_stack([np.asarray(vals[m], dtype=np.float64) for m in ids]))
        return np.stack(cols, axis=-1).reshape(masses.shape[0], -1)

    theta, weights = leave_out_values(cnt.astype(np.float64), len(ids) * len(names), evaluate,
                                      max(1, 4_000_000 // max(cnt.size * len(names), 1)))
    return theta.reshape(theta.shape[0], len(ids), len(names)), weights


def paired_structure_inputs(structure: str, systems: dict[str, Any], ids: list[str], points: dict[str, dict[str, float]],
                            undefined: str, top_k: int | None, items: Any, confidence: float,
                            groups: np.ndarray | None = None) -> dict[str, PairedInputs]:
    """Per metric the :class:`PairedInputs` of a paired structured comparison (the same deletions for all)."""
    names = list(systems)
    m = len(names)
    if structure in ("ordinal", "hierarchy"):
        if items is None:
            return {}
        theta, weights = _ordinal_joint_theta(systems, ids, items, undefined)
        n = float(np.asarray(items[names[0]][0]).shape[0])
    else:
        n = float(_size(next(iter(systems.values()))))

        def evaluate(w: np.ndarray) -> np.ndarray:
            cols = [np.column_stack([np.asarray(v, dtype=np.float64) for v in
                                     (_items(systems[s], ids, w, undefined, top_k)[mid] for mid in ids)])
                    for s in names]
            return np.stack(cols, axis=-1).reshape(w.shape[0], -1)

        flat, weights = _item_theta(evaluate, int(n), len(ids) * m, groups)
        theta = flat.reshape(flat.shape[0], len(ids), m)
    out = {}
    for i, mid in enumerate(ids):
        extra = PairedInputs(accel=acceleration(theta[:, i, :], weights))
        with np.errstate(invalid="ignore"):
            extra.diff_accel = {(a, b): float(acceleration((theta[:, i, a] - theta[:, i, b])[:, None], weights)[0])
                                for a in range(m) for b in range(a + 1, m)}
        shares = {j: _share_interval(mid, float(points[s][mid]), n, confidence, systems[s], top_k)
                  if groups is None else None
                  for j, s in enumerate(names)}
        whole = {j: v for j, v in shares.items() if v is not None}
        # exact for every system or for none: one method per metric, which the report names (a system with tied
        # top-k scores gives every system of the comparison the BCa interval)
        if len(whole) == len(shares):
            extra.methods = "clopper_pearson"
            extra.proportions = whole
        out[mid] = extra
    return out
