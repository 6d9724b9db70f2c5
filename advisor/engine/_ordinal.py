r"""Metrics of ordered classes: weighted kappa (Cohen 1968), (macro-averaged) mean absolute error and adjacent
agreement.

Classes are ordered ``0 … k−1`` (the order of ``labels``). Each class ``i`` has a position ``x_i``
on which the distance of an error ``|x_i − x_j|`` is measured (:attr:`OrdinalCells.distance`):

* ``"values"`` — the classes are numbers (ratings 1–5, grades): ``x_i`` is the label's value, so an
  error of 1 → 4 counts 3 even when nobody chose 2 or 3 and the order was inferred from the labels
  present, and MAE is scikit-learn's ``mean_absolute_error`` of the values;
* ``"ranks"`` — the classes are not numbers (low, mid, high): ``x_i = i``, steps of the declared order.

Weighted kappa weighs by the same positions, except that a *declared* order (``--order``, the answers'
``classes``, an ordered categorical) is its scale as Cohen (1968) and scikit-learn's
``cohen_kappa_score(labels=order)`` define it: the ranks of every declared category, present or not.
Everything is computed from the non-zero cells ``(i, j, c_ij)`` of the confusion matrix and from
moments or class sums, never from a dense k×k array:

* ``mae = Σ c_ij |x_i − x_j| / n``;
* ``adjacent_accuracy = Σ_{|i − j| ≤ 1} c_ij / n``: the share of items predicted at most one step of the order from
  the true class (Williamson, Xi & Breyer 2012: "adjacent agreement"). Steps are ranks ``i`` of the order in
  use, never label values — on an integer scale 1–6 one step is one point, while on a scale of half points
  (1, 1.5, 2 …) a value difference of 1 would be two steps;
* ``mae_macro = (1/k') Σ_{i: a_i>0} (Σ_j c_ij |x_i − x_j|) / a_i`` over the k' classes present in the
  truth (Baccianella, Esuli & Sebastiani 2009; a class absent from the truth has no items to average
  and is left out under every convention — it is recorded);
* ``smd = (m_p − m_t) / √((s_p² + s_t²)/2)``, the standardized mean difference of predicted (machine) minus true
  (human) scores (Williamson, Xi & Breyer 2012): ``m_t = Σ a_i x_i / n`` and ``m_p = Σ b_j x_j / n`` are the means of
  the class positions under the truth and the prediction, ``s_t²``, ``s_p²`` their variances (divisor ``n − 1``). It is
  signed: 0 is best, positive means the predictions score higher on average. It is undefined when both labelings are
  constant (both variances 0) or n ≤ 1: 0 under ``zero`` and ``baseline``, NaN under ``omit``. It is not among the
  metrics every ordinal evaluation reports (:data:`ORDINAL_METRICS`); ask for it by id (:data:`ORDINAL_SIGNED`);
* ``pearson_r = Σ c_ij (x_i − m_t)(x_j − m_p) / √(Σ a_i (x_i − m_t)² · Σ b_j (x_j − m_p)²)``, the Pearson
  (product-moment) correlation of the predicted (machine) and true (human) scores over the same positions ``x`` as the
  standardized mean difference, which automated essay scoring reports beside the quadratically weighted kappa
  (Williamson, Xi & Breyer 2012). It is undefined when either labeling is constant (its variance 0): 0 under ``zero``;
  under ``baseline`` 1 when both put every item in one and the same class (maximal agreement), else 0 (the chance
  value of one constant labeling); NaN under ``omit``. Computed when asked for (:data:`ORDINAL_ASKED`);
* ``κ_w = 1 − n Σ c_ij w_ij / Σ_ij a_i b_j w_ij`` with ``w_ij = |x_i − x_j|`` (linear) or ``(x_i − x_j)²``
  (quadratic). The quadratic chance term is ``n Σ a_i x_i² + n Σ b_j x_j² − 2 (Σ a_i x_i)(Σ b_j x_j)``
  (moments only, positions centred and scaled to a unit span first, which leaves κ unchanged); the
  linear one is ``Σ_i a_i Σ_j b_j |x_i − x_j|`` by cumulative sums over the classes in position order.

Counts may carry a leading batch axis (``counts`` of shape ``(..., nnz)``), which is how the bootstrap
evaluates thousands of resampled cell tables in one call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError, arg
from .._format import few_names
from ._components import MetricResult, UndefinedValue
from ._confusion import counts_and_labels
from ._structure_args import as_tuple, resolve_ids

__all__ = ["ORDINAL_ASKED", "ORDINAL_METRICS", "ORDINAL_SIGNED", "OrdinalCells", "class_values", "ordinal_cells",
           "ordinal_chance_levels", "ordinal_metrics", "with_counts"]

ORDINAL_METRICS: tuple[str, ...] = ("weighted_kappa_linear", "weighted_kappa_quadratic", "mae", "mae_macro",
                                     "adjacent_accuracy")
#: signed ordinal metrics (best at 0, the sign says which way), computed when asked for: the standardized mean
#: difference of Williamson, Xi & Breyer (2012)
ORDINAL_SIGNED: tuple[str, ...] = ("smd",)
#: ordinal metrics computed when asked for, not by every ordinal evaluation: the Pearson correlation of the scores
#: (Williamson, Xi & Breyer 2012)
ORDINAL_ASKED: tuple[str, ...] = ("pearson_r",)


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def class_values(labels: Sequence[Any]) -> tuple[float, ...] | None:
    """Each label's value when every label is a finite number (or a number written as text), else None.

    >>> class_values([1, 2, 10]), class_values(["1", "2.5"]), class_values(["low", "high"]), class_values([True, 2])
    ((1.0, 2.0, 10.0), (1.0, 2.5), None, None)
    """
    out = []
    for lab in labels:
        if isinstance(lab, bool) or not isinstance(lab, (int, float, np.integer, np.floating, str)):
            return None
        if isinstance(lab, str) and not _NUMBER.fullmatch(lab.strip()):
            return None
        x = float(lab)
        if not np.isfinite(x):
            return None
        out.append(x)
    if len(set(out)) < len(out):
        twins = [lab for lab, x in zip(labels, out) if out.count(x) > 1]
        raise InputError(f"the ordered classes {few_names([repr(t) for t in twins])} are the same number written "
                         "differently, so their distance would be 0; write each class one way.")
    return tuple(out)


@dataclass(frozen=True)
class OrdinalCells:
    """The non-zero cells of an ordered confusion matrix: ``rows[c]``, ``cols[c]`` (ranks), ``counts[..., c]``.

    ``values`` are the classes' numeric values (None when they are not numbers): errors are then measured
    as differences of values (:attr:`distance` ``"values"``), else in ranks. ``declared`` says the order
    was declared rather than inferred from numeric labels; weighted kappa then weighs by its ranks.
    """

    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray
    labels: tuple[Any, ...]
    values: tuple[float, ...] | None = None
    declared: bool = True

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def distance(self) -> str:
        """``"values"`` or ``"ranks"``: how MAE and macro MAE measure an error."""
        return "ranks" if self.values is None else "values"

    @property
    def kappa_distance(self) -> str:
        """``"values"`` or ``"ranks"``: what weighted kappa's weights are differences of."""
        return "ranks" if self.values is None or self.declared else "values"

    def positions(self, what: str) -> np.ndarray:
        """Each class's position for ``"mae"`` or ``"kappa"`` distances."""
        kind = self.distance if what == "mae" else self.kappa_distance
        if kind == "values":
            return np.asarray(self.values, dtype=np.float64)
        return np.arange(self.k, dtype=np.float64)


def with_counts(cells: OrdinalCells, counts: np.ndarray, rows: np.ndarray | None = None,
                cols: np.ndarray | None = None) -> OrdinalCells:
    """The same classes, values and order with other counts (and cells): what the bootstrap evaluates."""
    return OrdinalCells(cells.rows if rows is None else rows, cells.cols if cols is None else cols, counts,
                        cells.labels, cells.values, cells.declared)


def ordinal_cells(matrix: Any = None, labels: Sequence[Any] | None = None, *, y_true: Any = None,
                  y_pred: Any = None, order: Sequence[Any] | None = None, declared: bool = True) -> OrdinalCells:
    """Non-zero cells from a matrix ordered as ``labels`` or from two label sequences and an ``order``.

    Numeric classes keep their values (errors measured as value differences); ``declared=False`` says
    the order was inferred from the labels rather than given.

    >>> c = ordinal_cells(y_true=["lo", "hi", "mid"], y_pred=["mid", "hi", "mid"], order=["lo", "mid", "hi"])
    >>> c.rows.tolist(), c.cols.tolist(), c.counts.tolist(), c.distance
    ([0, 1, 2], [1, 1, 2], [1.0, 1.0, 1.0], 'ranks')
    """
    if matrix is not None:
        counts, labs = counts_and_labels(matrix)
        if counts.ndim != 2:
            raise InputError("matrix must be a single k×k confusion matrix in class order.")
        rows, cols = np.nonzero(counts)
        lab = as_tuple(labels, "labels", "the classes, lowest first") if labels is not None else labs
        if len(lab) != counts.shape[0]:
            raise InputError(f"labels has {len(lab)} entries but the matrix has {counts.shape[0]} classes.")
        return OrdinalCells(rows, cols, counts[rows, cols], lab, class_values(lab), declared)
    if order is None:
        raise InputError("order is required for ordinal metrics from labels (the classes from lowest to highest).")
    order = list(order)
    if len(set(map(str, order))) != len(order) or len(order) < 2:
        raise InputError(f"order must list at least two distinct classes; got {order!r}.")
    index = {str(o): i for i, o in enumerate(order)}
    t = ordinal_ranks(y_true, index, "y_true", order)
    p = ordinal_ranks(y_pred, index, "y_pred", order)
    if t.shape != p.shape:
        raise InputError(f"y_true and y_pred differ in length ({t.size} vs {p.size}).")
    if t.size == 0:
        raise InputError("y_true is empty: there is nothing to evaluate.")
    k = len(order)
    codes, cnt = np.unique(t * k + p, return_counts=True)
    return OrdinalCells(codes // k, codes % k, cnt.astype(np.float64), tuple(order), class_values(order), declared)


def ordinal_ranks(values: Any, index: dict[str, int], name: str, order: list[Any]) -> np.ndarray:
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
                         f"{few_names(order)}; list every class in {arg('order')} (or the answers' classes).")
    return np.array([index[u] for u in uniq], dtype=np.int64)[inv]


def _class_sums(idx: np.ndarray, w: np.ndarray, k: int) -> np.ndarray:
    """Σ of ``w[..., c]`` per class ``idx[c]``: shape ``(..., k)`` (no k×k array)."""
    flat = w.reshape(-1, w.shape[-1])
    out = np.zeros((flat.shape[0], k))
    np.add.at(out.T, idx, flat.T)
    return out.reshape(w.shape[:-1] + (k,))


def _linear_chance(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``Σ_i a_i Σ_j b_j |x_i − x_j|`` in O(k log k) per matrix, in position order.

    ``Σ_j b_j |x_i − x_j|`` is the part below ``x_i`` plus the part above, each a running sum of
    non-negative terms (no difference of large sums, so a class of one item among 10¹⁵ still counts).
    """
    by = np.argsort(x, kind="stable")
    x, a, b = x[by], a[..., by], b[..., by]
    step = np.diff(x)
    below = np.cumsum(b, axis=-1)[..., :-1] * step  # moving up one class: everything at or below moves away
    above = np.cumsum(b[..., ::-1], axis=-1)[..., :-1][..., ::-1] * step
    zero = np.zeros(b.shape[:-1] + (1,))
    left = np.concatenate([zero, np.cumsum(below, axis=-1)], axis=-1)
    right = np.concatenate([np.cumsum(above[..., ::-1], axis=-1)[..., ::-1], zero], axis=-1)
    return (a * (left + right)).sum(axis=-1)


def _quadratic_chance(a: np.ndarray, b: np.ndarray, x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``Σ_ij a_i b_j (x_i − x_j)²`` from moments about the pooled mean m of both labelings:
    ``n Σ a_i d_i² + n Σ b_j d_j² + 2 (Σ a_i d_i)²`` with ``d = x − m`` — a sum of non-negative terms."""
    m = ((a + b) * x).sum(axis=-1) / (2.0 * np.where(n > 0, n, 1.0))
    d = x - m[..., None]
    s = (a * d).sum(axis=-1)
    return n * (a * d * d).sum(axis=-1) + n * (b * d * d).sum(axis=-1) + 2.0 * s * s


def _kappa(num: np.ndarray, chance: np.ndarray, n: np.ndarray, single: np.ndarray,
           convention: str) -> tuple[np.ndarray, np.ndarray]:
    """κ_w; undefined exactly when both labelings put every item in one and the same class (``single``)
    — decided from the class sums, not by a tolerance that a class of one item among 10¹⁵ would fall under."""
    undef = single | ~(chance > 0)
    val = 1.0 - n * num / np.where(undef, 1.0, chance)
    fill = {"zero": 0.0, "baseline": 1.0, "omit": np.nan}[convention]
    return np.where(undef, fill, val), undef


def _moments(cells: OrdinalCells, w: np.ndarray, a: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(x, b, m_t, m_p, S_t, S_p)``: the class positions (:meth:`OrdinalCells.positions` ``"mae"``), the predicted
    class sums, the mean true and predicted positions, and the sums of squares about each mean (no difference of
    large sums)."""
    x = cells.positions("mae")
    b = _class_sums(cells.cols, w, cells.k)
    safe = np.where(n > 0, n, 1.0)
    mt, mp = (a * x).sum(-1) / safe, (b * x).sum(-1) / safe
    return x, b, mt, mp, (a * (x - mt[..., None]) ** 2).sum(-1), (b * (x - mp[..., None]) ** 2).sum(-1)


def _smd(cells: OrdinalCells, w: np.ndarray, a: np.ndarray, n: np.ndarray,
         convention: str) -> tuple[np.ndarray, np.ndarray]:
    """The standardized mean difference (prediction minus truth) from the class sums and the positions of
    :meth:`OrdinalCells.positions` (``"mae"``: values for numeric classes, else ranks); variances about each mean,
    so no difference of large sums."""
    _, _, mt, mp, st, sp = _moments(cells, w, a, n)
    dof = np.where(n > 1, n - 1.0, 1.0)
    vt, vp = st / dof, sp / dof
    undef = ~(n > 1) | ~(vt + vp > 0)
    val = (mp - mt) / np.sqrt(np.where(undef, 1.0, (vt + vp) / 2.0))
    fill = np.nan if convention == "omit" else 0.0
    return np.where(undef, fill, val), undef


def _pearson(cells: OrdinalCells, w: np.ndarray, a: np.ndarray, n: np.ndarray,
             convention: str) -> tuple[np.ndarray, np.ndarray]:
    """The Pearson correlation of the predicted and true class positions (:meth:`OrdinalCells.positions` ``"mae"``,
    as the standardized mean difference) from the cells and the class sums: sums of products about each mean, so no
    difference of large sums. Undefined when either labeling is constant."""
    x, b, mt, mp, vt, vp = _moments(cells, w, a, n)
    cov = (w * (x[cells.rows] - mt[..., None]) * (x[cells.cols] - mp[..., None])).sum(-1)
    # constant: one class holds every item of the labeling (decided from the class sums, not by a tolerance)
    const_t, const_p = (a > 0).sum(-1) <= 1, (b > 0).sum(-1) <= 1
    undef = const_t | const_p | ~(vt > 0) | ~(vp > 0)
    val = np.clip(cov / np.sqrt(np.where(undef, 1.0, vt * vp)), -1.0, 1.0)
    same = const_t & const_p & (a.argmax(-1) == b.argmax(-1))
    fill = {"zero": np.zeros_like(val), "baseline": np.where(same, 1.0, 0.0),
            "omit": np.full_like(val, np.nan)}[convention]
    return np.where(undef, fill, val), undef


def _evaluate(cells: OrdinalCells, ids: Sequence[str], convention: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    xm = cells.positions("mae")
    w = np.asarray(cells.counts, dtype=np.float64)
    n = w.sum(axis=-1)
    dist = np.abs(xm[cells.rows] - xm[cells.cols])
    out: dict[str, np.ndarray] = {}
    events: dict[str, Any] = {}
    if "mae" in ids:
        out["mae"] = (w * dist).sum(axis=-1) / n
    if "adjacent_accuracy" in ids:  # steps of the order (ranks), whatever the labels' values
        near = np.abs(cells.rows - cells.cols) <= 1
        out["adjacent_accuracy"] = (w * near).sum(axis=-1) / n
    a = _class_sums(cells.rows, w, cells.k)
    if "mae_macro" in ids:
        err = _class_sums(cells.rows, w * dist, cells.k)
        present = a > 0
        per = np.where(present, err / np.where(present, a, 1.0), 0.0)
        out["mae_macro"] = per.sum(axis=-1) / present.sum(axis=-1)
        events["mae_macro"] = ~present
    if "smd" in ids:
        out["smd"], events["smd"] = _smd(cells, w, a, n, convention)
    if "pearson_r" in ids:
        out["pearson_r"], events["pearson_r"] = _pearson(cells, w, a, n, convention)
    kappas = [m for m in ("weighted_kappa_quadratic", "weighted_kappa_linear") if m in ids]
    if kappas:
        xk = cells.positions("kappa")
        b = _class_sums(cells.cols, w, cells.k)
        single = ((a > 0).sum(-1) == 1) & ((b > 0).sum(-1) == 1) & (a.argmax(-1) == b.argmax(-1))
        kdist = np.abs(xk[cells.rows] - xk[cells.cols])
        if "weighted_kappa_quadratic" in ids:
            out["weighted_kappa_quadratic"], events["weighted_kappa_quadratic"] = _kappa(
                (w * kdist * kdist).sum(-1), _quadratic_chance(a, b, xk, n), n, single, convention)
        if "weighted_kappa_linear" in ids:
            out["weighted_kappa_linear"], events["weighted_kappa_linear"] = _kappa(
                (w * kdist).sum(-1), _linear_chance(a, b, xk), n, single, convention)
    return out, events


def evaluate_ordinal_batch(cells: OrdinalCells, ids: Sequence[str], undefined: str = DEFAULT_CONVENTION) -> dict[str, np.ndarray]:
    """The fast path for the bootstrap: ``cells.counts`` of shape ``(B, nnz)``; no provenance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _evaluate(cells, ids, undefined)[0]


def ordinal_metrics(data: Any, metrics: Sequence[str] | None = None, *, labels: Sequence[Any] | None = None,
                    undefined: str = DEFAULT_CONVENTION) -> MetricResult:
    r"""Weighted kappa (linear, quadratic), MAE, macro MAE and adjacent agreement of an ordered confusion matrix.

    ``data`` is an :class:`OrdinalCells` or a k×k matrix whose classes are in order (lowest first).
    Undefined values: weighted kappa's chance term is 0 only when both labelings put every item in one
    and the same class — ``zero`` gives 0, ``baseline`` 1 (maximal agreement), ``omit`` NaN.

    >>> r = ordinal_metrics([[3, 1, 0], [1, 2, 1], [0, 1, 3]])
    >>> round(r["weighted_kappa_quadratic"], 6), round(r["mae"], 6), round(r["mae_macro"], 6)
    (0.75, 0.333333, 0.333333)
    >>> r["adjacent_accuracy"], round(ordinal_metrics([[3, 0, 1], [0, 2, 0], [0, 0, 3]])["adjacent_accuracy"], 6)
    (1.0, 0.888889)
    >>> round(ordinal_metrics([[3, 1, 0], [1, 2, 1], [0, 1, 3]], ["smd"], labels=[1, 2, 3])["smd"], 6)
    0.0
    >>> round(ordinal_metrics([[3, 1, 0], [1, 2, 1], [0, 1, 3]], ["pearson_r"], labels=[1, 2, 3])["pearson_r"], 6)
    0.75
    """
    cells = data if isinstance(data, OrdinalCells) else ordinal_cells(data, labels)
    ids = resolve_ids(metrics, undefined, (*ORDINAL_METRICS, *ORDINAL_SIGNED, *ORDINAL_ASKED), "an ordinal",
                      default=ORDINAL_METRICS)
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
        elif m == "pearson_r":
            if bool(mask):
                records.append(UndefinedValue(m, "standard deviation", None,
                                              "a labeling puts every item in one class (its variance is 0)",
                                              {"zero": "0", "omit": "reported as undefined"}.get(
                                                  undefined, "1 when both are the same single class, else 0"),
                                              None if np.isnan(vals[m]) else float(vals[m])))
        elif m == "smd":
            if bool(mask):
                records.append(UndefinedValue(m, "standard deviations", None,
                                              "both labelings put every item in one class, or n ≤ 1",
                                              "reported as undefined" if undefined == "omit" else "0",
                                              None if np.isnan(vals[m]) else float(vals[m])))
        elif bool(mask):
            records.append(UndefinedValue(m, "weighted kappa chance term", None,
                                          "both labelings put every item in the same single class",
                                          {"zero": "0", "baseline": "1 (maximal agreement)", "omit": "reported as undefined"}[undefined],
                                          None if np.isnan(vals[m]) else float(vals[m])))
    values = {m: float(vals[m]) for m in ids}
    return MetricResult(values, records, undefined, cells.labels, None, 1.0)


#: ordinal metrics where lower is better (the others are higher-is-better, or signed with their best value at 0)
_LOWER = ("mae", "mae_macro")


def ordinal_chance_levels(cells: OrdinalCells, ids: Sequence[str], undefined: str = DEFAULT_CONVENTION,
                          max_classes: int = 200) -> dict[str, dict[str, Any]]:
    """Each ordinal metric's value for the reference predictors of the chance levels (science.md §2) on the true class
    sizes ``a`` of ``cells`` — ``uniform`` (``C_ij = a_i / k``), ``prevalence`` (``C_ij = a_i a_j / n``), ``majority``
    (every item predicted as the largest class) — and for the **best constant prediction**: every item given one and
    the same class, the class that scores best (``constant``, its class ``constant_class``). A constant middle class
    is what adjacent agreement is read against: it scores the share of items within one step of it, often most of the
    test set, whereas the quadratically weighted kappa of any constant prediction is 0. None where a value is
    undefined; {} above ``max_classes`` classes (k² cells a reference).

    >>> ch = ordinal_chance_levels(ordinal_cells([[1, 1, 0, 0], [0, 4, 1, 0], [0, 1, 3, 0], [0, 0, 1, 1]], [1, 2, 3, 4]),
    ...                            ["adjacent_accuracy", "weighted_kappa_quadratic"])
    >>> round(ch["adjacent_accuracy"]["constant"], 6), ch["adjacent_accuracy"]["constant_class"]
    (0.846154, 2)
    >>> abs(ch["weighted_kappa_quadratic"]["constant"]) < 1e-12
    True
    """
    k = cells.k
    if k > max_classes or not ids:
        return {}
    w = np.asarray(cells.counts, dtype=np.float64)
    if w.ndim != 1:
        raise InputError("ordinal_chance_levels takes one table of cells, not a batch.")
    a = _class_sums(cells.rows, w, k)
    n = float(a.sum())
    rows, cols = np.divmod(np.arange(k * k), k)
    ref = [np.repeat(a / k, k), (a[:, None] * a[None, :] / n).reshape(-1)]
    for c in (int(np.argmax(a)), *range(k)):  # the majority class, then every constant prediction
        table = np.zeros((k, k))
        table[:, c] = a
        ref.append(table.reshape(-1))
    batch = OrdinalCells(rows, cols, np.stack(ref), cells.labels, cells.values, cells.declared)
    with np.errstate(invalid="ignore", divide="ignore"):
        vals = _evaluate(batch, list(ids), undefined)[0]
    out: dict[str, dict[str, Any]] = {}
    for m, v in vals.items():
        const = v[3:]
        ok = ~np.isnan(const)
        best: int | None = None
        if ok.any():
            score = -np.abs(const) if m in ORDINAL_SIGNED else (-const if m in _LOWER else const)
            best = int(np.flatnonzero(ok)[np.argmax(score[ok])])
        out[m] = {"uniform": _num(v[0]), "prevalence": _num(v[1]), "majority": _num(v[2]),
                  "constant": None if best is None else _num(const[best]),
                  "constant_class": None if best is None else cells.labels[best]}
    return out


def _num(x: float) -> float | None:
    return None if np.isnan(x) else float(x)
