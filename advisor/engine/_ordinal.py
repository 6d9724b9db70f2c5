r"""Metrics of ordered classes: weighted kappa (Cohen 1968) and (macro-averaged) mean absolute error.

Classes are ordered ``0 … k−1`` (the order of ``labels``); the distance of an error is the rank
distance ``|i − j|``. Everything is computed from the non-zero cells ``(i, j, c_ij)`` of the
confusion matrix and from moments or class sums, never from a dense k×k array:

* ``mae = Σ c_ij |i − j| / n``;
* ``mae_macro = (1/k') Σ_{i: a_i>0} (Σ_j c_ij |i − j|) / a_i`` over the k' classes present in the truth
  (Baccianella, Esuli & Sebastiani 2009; a class absent from the truth has no items to average and is
  left out under every convention — it is recorded);
* ``κ_w = 1 − n Σ c_ij w_ij / Σ_ij a_i b_j w_ij`` with ``w_ij = |i − j|`` (linear) or ``(i − j)²``
  (quadratic). The quadratic chance term is ``n Σ a_i i² + n Σ b_j j² − 2 (Σ a_i i)(Σ b_j j)``
  (moments only); the linear one is ``Σ_i a_i Σ_j b_j |i − j|`` by cumulative sums over the classes.

Counts may carry a leading batch axis (``counts`` of shape ``(..., nnz)``), which is how the bootstrap
evaluates thousands of resampled cell tables in one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names
from ._components import MetricResult, UndefinedValue
from ._structure_args import resolve_ids

__all__ = ["ORDINAL_METRICS", "OrdinalCells", "ordinal_cells", "ordinal_metrics"]

# relative size under which weighted kappa's chance term counts as zero (0 exactly for integer counts)
_TOL = 1e-12
ORDINAL_METRICS: tuple[str, ...] = ("weighted_kappa_linear", "weighted_kappa_quadratic", "mae", "mae_macro")


@dataclass(frozen=True)
class OrdinalCells:
    """The non-zero cells of an ordered confusion matrix: ``rows[c]``, ``cols[c]`` (ranks), ``counts[..., c]``."""

    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray
    labels: tuple[Any, ...]

    @property
    def k(self) -> int:
        return len(self.labels)


def ordinal_cells(matrix: Any = None, labels: Sequence[Any] | None = None, *, y_true: Any = None,
                  y_pred: Any = None, order: Sequence[Any] | None = None) -> OrdinalCells:
    """Non-zero cells from a matrix ordered as ``labels`` or from two label sequences and an ``order``.

    >>> c = ordinal_cells(y_true=["lo", "hi", "mid"], y_pred=["mid", "hi", "mid"], order=["lo", "mid", "hi"])
    >>> c.rows.tolist(), c.cols.tolist(), c.counts.tolist()
    ([0, 1, 2], [1, 1, 2], [1.0, 1.0, 1.0])
    """
    if matrix is not None:
        from ._confusion import counts_and_labels

        counts, labs = counts_and_labels(matrix)
        if counts.ndim != 2:
            raise InputError("matrix must be a single k×k confusion matrix in class order.")
        rows, cols = np.nonzero(counts)
        lab = tuple(labels) if labels is not None else labs
        if len(lab) != counts.shape[0]:
            raise InputError(f"labels has {len(lab)} entries but the matrix has {counts.shape[0]} classes.")
        return OrdinalCells(rows, cols, counts[rows, cols], lab)
    if order is None:
        raise InputError("order is required for ordinal metrics from labels (the classes from lowest to highest).")
    order = list(order)
    if len(set(map(str, order))) != len(order) or len(order) < 2:
        raise InputError(f"order must list at least two distinct classes; got {order!r}.")
    index = {str(o): i for i, o in enumerate(order)}
    t = _ranks(y_true, index, "y_true", order)
    p = _ranks(y_pred, index, "y_pred", order)
    if t.shape != p.shape:
        raise InputError(f"y_true and y_pred differ in length ({t.size} vs {p.size}).")
    if t.size == 0:
        raise InputError("y_true is empty: there is nothing to evaluate.")
    k = len(order)
    codes, cnt = np.unique(t * k + p, return_counts=True)
    return OrdinalCells(codes // k, codes % k, cnt.astype(np.float64), tuple(order))


def _ranks(values: Any, index: dict[str, int], name: str, order: list[Any]) -> np.ndarray:
    arr = np.asarray(values).reshape(-1)
    if arr.dtype.kind in "iuU":  # one type: find the distinct values first, name only those
        distinct, inv = np.unique(arr, return_inverse=True)
        uniq = np.array([str(v) for v in distinct.tolist()], dtype=object)
    else:
        vals = np.asarray(values, dtype=object).reshape(-1)
        uniq, inv = np.unique(np.array([str(v) for v in vals], dtype=object), return_inverse=True)
    bad = [u for u in uniq if u not in index]
    if bad:
        raise InputError(f"{name} holds {bad[0]!r}, which is not in the ordinal order "
                         f"{few_names(order)}; list every class in --order / classes.")
    return np.array([index[u] for u in uniq], dtype=np.int64)[inv]


def _class_sums(idx: np.ndarray, w: np.ndarray, k: int) -> np.ndarray:
    """Σ of ``w[..., c]`` per class ``idx[c]``: shape ``(..., k)`` (no k×k array)."""
    flat = w.reshape(-1, w.shape[-1])
    out = np.zeros((flat.shape[0], k))
    np.add.at(out.T, idx, flat.T)
    return out.reshape(w.shape[:-1] + (k,))


def _linear_chance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Σ_i a_i Σ_j b_j |i − j|`` in O(k) per matrix by cumulative sums."""
    x = np.arange(a.shape[-1], dtype=np.float64)
    bc = np.cumsum(b, axis=-1)
    mc = np.cumsum(b * x, axis=-1)
    n = bc[..., -1:]
    mt = mc[..., -1:]
    f = x * bc - mc + (mt - mc) - x * (n - bc)
    return (a * f).sum(axis=-1)


def _kappa(num: np.ndarray, chance: np.ndarray, n: np.ndarray, convention: str) -> tuple[np.ndarray, np.ndarray]:
    undef = chance <= _TOL * np.maximum(n, 1.0) ** 2
    val = 1.0 - n * num / np.where(undef, 1.0, chance)
    fill = {"zero": 0.0, "baseline": 1.0, "omit": np.nan}[convention]
    return np.where(undef, fill, val), undef


def _evaluate(cells: OrdinalCells, ids: Sequence[str], convention: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    r, c = cells.rows.astype(np.float64), cells.cols.astype(np.float64)
    w = np.asarray(cells.counts, dtype=np.float64)
    n = w.sum(axis=-1)
    dist = np.abs(r - c)
    out: dict[str, np.ndarray] = {}
    events: dict[str, Any] = {}
    if "mae" in ids:
        out["mae"] = (w * dist).sum(axis=-1) / n
    if "mae_macro" in ids:
        a = _class_sums(cells.rows, w, cells.k)
        err = _class_sums(cells.rows, w * dist, cells.k)
        present = a > 0
        per = np.where(present, err / np.where(present, a, 1.0), 0.0)
        out["mae_macro"] = per.sum(axis=-1) / present.sum(axis=-1)
        events["mae_macro"] = ~present
    if "weighted_kappa_quadratic" in ids:
        s1a, s2a = (w * r).sum(-1), (w * r * r).sum(-1)
        s1b, s2b = (w * c).sum(-1), (w * c * c).sum(-1)
        chance = n * s2a + n * s2b - 2.0 * s1a * s1b
        out["weighted_kappa_quadratic"], events["weighted_kappa_quadratic"] = _kappa(
            (w * dist * dist).sum(-1), chance, n, convention)
    if "weighted_kappa_linear" in ids:
        a = _class_sums(cells.rows, w, cells.k)
        b = _class_sums(cells.cols, w, cells.k)
        out["weighted_kappa_linear"], events["weighted_kappa_linear"] = _kappa(
            (w * dist).sum(-1), _linear_chance(a, b), n, convention)
    return out, events


def evaluate_ordinal_batch(cells: OrdinalCells, ids: Sequence[str], undefined: str = "zero") -> dict[str, np.ndarray]:
    """The fast path for the bootstrap: ``cells.counts`` of shape ``(B, nnz)``; no provenance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _evaluate(cells, ids, undefined)[0]


def ordinal_metrics(data: Any, metrics: Sequence[str] | None = None, *, labels: Sequence[Any] | None = None,
                    undefined: str = "zero") -> MetricResult:
    r"""Weighted kappa (linear, quadratic), MAE and macro MAE of an ordered confusion matrix.

    ``data`` is an :class:`OrdinalCells` or a k×k matrix whose classes are in order (lowest first).
    Undefined values: weighted kappa's chance term is 0 only when both labelings put every item in one
    and the same class — ``zero`` gives 0, ``baseline`` 1 (maximal agreement), ``omit`` NaN.

    >>> r = ordinal_metrics([[3, 1, 0], [1, 2, 1], [0, 1, 3]])
    >>> round(r["weighted_kappa_quadratic"], 6), round(r["mae"], 6), round(r["mae_macro"], 6)
    (0.75, 0.333333, 0.333333)
    """
    cells = data if isinstance(data, OrdinalCells) else ordinal_cells(data, labels)
    ids = resolve_ids(metrics, undefined, ORDINAL_METRICS, "an ordinal")
    if cells.k < 2:
        raise InputError("an ordinal evaluation needs at least two ordered classes.")
    if np.asarray(cells.counts).sum() <= 0:
        raise InputError("the confusion matrix is all zeros: there is nothing to evaluate.")
    with np.errstate(invalid="ignore", divide="ignore"):
        vals, events = _evaluate(cells, ids, undefined)
    records: list[UndefinedValue] = []
    for m, mask in events.items():
        if m == "mae_macro":
            records += [UndefinedValue(m, "class MAE", cells.labels[i], "class is absent from the truth (a_i = 0)",
                                       "left out of the average (every convention)", None)
                        for i in np.flatnonzero(mask)]
        elif bool(mask):
            records.append(UndefinedValue(m, "weighted kappa chance term", None,
                                          "both labelings put every item in the same single class",
                                          {"zero": "0", "baseline": "1 (maximal agreement)", "omit": "not reported"}[undefined],
                                          None if np.isnan(vals[m]) else float(vals[m])))
    values = {m: float(vals[m]) for m in ids}
    return MetricResult(values, records, undefined, cells.labels, None, 1.0)
