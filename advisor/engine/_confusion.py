"""The confusion matrix: rows are true classes, columns are predicted classes.

``C[i, j]`` is the (possibly weighted) number of items of true class ``i`` predicted as ``j``.
Counts are float64 so that weighted or "soft" counts are first-class; metric code never assumes
integers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Union

import numpy as np

from .._exceptions import InputError
from ._cells import EXACT_LIMIT, MAX_TOTAL, Cells

__all__ = ["ConfusionMatrix", "Label", "cells_and_labels", "confusion_matrix", "counts_and_labels", "label_index",
           "normalise_labels"]

Label = Union[int, str]

# Integer labels whose span (max - min + 1) is at most this go through one dense np.bincount of
# span² cells (≤ 32 MB); wider spans are counted sparsely.
_MAX_DENSE_SPAN = 1 << 11


class ConfusionMatrix:
    """A k×k table of non-negative counts with the labels of its rows and columns.

    The data are held as the non-zero cells (:class:`advisor.engine._cells.Cells`: true index,
    predicted index, mass) plus per-class sums; the dense k×k array (:attr:`counts`) is built only
    when someone asks for it, so a matrix of 100,000 classes costs memory in proportion to its
    non-zero cells, not to k².

    Parameters
    ----------
    counts : array-like of shape (k, k)
        ``counts[i, j]`` = mass of items of true class ``labels[i]`` predicted as ``labels[j]``.
        (:meth:`from_cells` builds one from non-zero cells instead.)
    labels : sequence of int or str, optional
        One label per row/column; defaults to ``0 .. k-1``.

    Examples
    --------
    >>> cm = ConfusionMatrix([[5, 1], [2, 3]], labels=["neg", "pos"])
    >>> cm.n, cm.k, cm.labels
    (11.0, 2, ('neg', 'pos'))
    >>> cm.true_sizes.tolist(), cm.predicted_sizes.tolist()
    ([6.0, 5.0], [7.0, 4.0])
    >>> ConfusionMatrix.from_cells([0, 1, 0], [0, 1, 1], [5, 3, 1], ["neg", "pos"]).counts.tolist()
    [[5.0, 1.0], [0.0, 3.0]]
    """

    __slots__ = ("_cells", "_dense", "_labels")
    _dense: np.ndarray | None

    def __init__(self, counts: Any, labels: Sequence[Label] | None = None) -> None:
        if isinstance(counts, ConfusionMatrix) and counts._dense is None:  # a copy that stays sparse
            c = counts.cells
            self._dense, self._cells = None, Cells(c.rows, c.cols, c.w, c.k)
            self._labels = _checked_labels(labels if labels is not None else counts.labels, c.k)
            return
        arr = _as_square_counts(counts, "counts")
        arr.setflags(write=False)
        self._dense = arr
        self._labels = _checked_labels(labels, arr.shape[0])
        self._cells = Cells.from_dense(arr)

    @classmethod
    def from_cells(cls, true_idx: Any, pred_idx: Any, counts: Any, labels: Sequence[Label]) -> ConfusionMatrix:
        """A matrix from its cells: ``counts[c]`` items of true class ``labels[true_idx[c]]``
        predicted as ``labels[pred_idx[c]]``. Repeated cells are added; zero cells are dropped.

        No k×k array is built, whatever the number of labels.

        >>> cm = ConfusionMatrix.from_cells([2, 0, 2], [2, 0, 1], [4, 5, 1], labels=["a", "b", "c"])
        >>> cm.k, cm.n, cm.nnz, cm.true_sizes.tolist()
        (3, 10.0, 3, [5.0, 0.0, 5.0])
        """
        labs = _checked_labels(labels, None)
        k = len(labs)
        t = _index_array(true_idx, "true_idx", k)
        p = _index_array(pred_idx, "pred_idx", k)
        try:
            w = np.asarray(counts, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise InputError("counts must hold numbers, one per cell.") from None
        if not (t.shape[0] == p.shape[0] == w.shape[0]):
            raise InputError(
                f"true_idx, pred_idx and counts must have one entry per cell; got {t.shape[0]}, "
                f"{p.shape[0]} and {w.shape[0]}."
            )
        _check_masses(w, "counts")
        with np.errstate(over="ignore"):
            _check_total(float(w.sum()), "counts", w)
        keep = w != 0
        cells = Cells.from_pairs(t[keep], p[keep], w[keep], k)
        out = cls.__new__(cls)
        out._dense, out._labels, out._cells = None, labs, cells
        return out

    # -- basic views -------------------------------------------------------------------------
    @property
    def counts(self) -> np.ndarray:
        """The k×k float64 array (read-only), built on first use; refused when k² is huge."""
        if self._dense is None:
            k = self.k
            if k * k > _MAX_DENSE_VIEW:
                raise InputError(
                    f"the dense view of this {k}×{k} matrix would need {8 * k * k / 1e9:.1f} GB (more than "
                    f"{_MAX_DENSE_VIEW:,} cells); use .cells, .true_sizes or .predicted_sizes instead."
                )
            dense = self._cells.to_dense()
            dense.setflags(write=False)
            self._dense = dense
        return self._dense

    @property
    def cells(self) -> Cells:
        """The non-zero cells (true index, predicted index, mass), row-major."""
        return self._cells

    @property
    def nnz(self) -> int:
        """Number of non-zero cells."""
        return self._cells.nnz

    @property
    def labels(self) -> tuple[Label, ...]:
        return self._labels

    @property
    def k(self) -> int:
        return self._cells.k

    @property
    def n(self) -> float:
        """Total mass ``Σ C``."""
        return float(self._cells.n)

    @property
    def true_sizes(self) -> np.ndarray:
        """``a_i = Σ_j C[i, j]``: how many items truly belong to each class."""
        return self._cells.a.copy()

    @property
    def predicted_sizes(self) -> np.ndarray:
        """``b_j = Σ_i C[i, j]``: how many items were predicted as each class."""
        return self._cells.b.copy()

    def index_of(self, label: Any) -> int:
        """Position of ``label``; a string that spells an integer label matches it too."""
        return label_index(self._labels, label)

    def normalised(self, axis: str = "true") -> np.ndarray:
        """Row-normalised (``axis='true'``) or column-normalised (``'pred'``) matrix; empty rows stay 0."""
        if axis not in ("true", "pred"):
            raise InputError(f"axis must be 'true' or 'pred', got {axis!r}.")
        sums = self.true_sizes[:, None] if axis == "true" else self.predicted_sizes[None, :]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(sums > 0, self.counts / np.where(sums > 0, sums, 1.0), 0.0)
        return out

    def transpose(self) -> ConfusionMatrix:
        """The matrix with the roles of the two labelings exchanged."""
        c = self._cells
        return ConfusionMatrix.from_cells(c.cols, c.rows, c.w, self._labels)

    # -- conversions -------------------------------------------------------------------------
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.counts.astype(dtype) if dtype is not None else self.counts.copy()

    def to_dict(self) -> dict[str, Any]:
        """``{"labels": [...], "matrix": [[...], ...]}`` (JSON-ready); above 1,000 classes the
        non-zero cells ``{"labels": [...], "cells": [[i, j, count], ...]}`` instead."""
        if self.k <= _MAX_DICT_DENSE:
            return {"labels": list(self._labels), "matrix": self.counts.tolist()}
        c = self._cells
        return {"labels": list(self._labels),
                "cells": [[int(i), int(j), float(x)] for i, j, x in zip(c.rows, c.cols, c.w)]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfusionMatrix:
        if isinstance(data, dict) and "cells" in data and "labels" in data:
            try:
                cells = np.asarray(data["cells"], dtype=np.float64).reshape(-1, 3)
            except (TypeError, ValueError):
                raise InputError('"cells" must be a list of [true index, predicted index, count] triples.') from None
            return cls.from_cells(cells[:, 0], cells[:, 1], cells[:, 2], data["labels"])
        if not isinstance(data, dict) or "matrix" not in data:
            raise InputError('a confusion matrix object needs a "matrix" key (and optionally "labels").')
        return cls(data["matrix"], data.get("labels"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        a, b = self._cells, other._cells
        return (self._labels == other._labels and np.array_equal(a.rows, b.rows)
                and np.array_equal(a.cols, b.cols) and np.array_equal(a.w, b.w))

    def __hash__(self) -> int:  # pragma: no cover - rarely used
        c = self._cells
        return hash((self._labels, c.rows.tobytes(), c.cols.tobytes(), c.w.tobytes()))

    def __repr__(self) -> str:
        if self.k <= 20:
            return f"ConfusionMatrix(labels={list(self._labels)!r}, counts={self.counts.tolist()!r})"
        return f"ConfusionMatrix(k={self.k}, n={self.n:g}, nonzero cells={self.nnz})"


# The dense k×k view is refused above this many cells (8 bytes each: 400 MB).
_MAX_DENSE_VIEW = 50_000_000
# to_dict writes the dense matrix up to this many classes, the non-zero cells above.
_MAX_DICT_DENSE = 1000


def label_index(labels: Sequence[Label], label: Any) -> int:
    """Position of ``label`` in ``labels``; a string that spells an integer label matches it too."""
    for i, lab in enumerate(labels):
        if lab == label or str(lab) == str(label):
            return i
    shown = ", ".join(repr(x) for x in labels[:20])
    raise InputError(f"label {label!r} does not occur; the labels are {shown}.")


def _checked_labels(labels: Sequence[Label] | None, k: int | None) -> tuple[Label, ...]:
    if labels is None:
        assert k is not None
        return tuple(range(k))
    if isinstance(labels, (str, bytes)):
        raise InputError(f"labels must be a sequence of labels; got the single text {labels!r}.")
    labs = tuple(normalise_labels(labels))
    if k is not None and len(labs) != k:
        raise InputError(f"labels has {len(labs)} entries but the matrix is {k}×{k}; give one label per row.")
    if not labs:
        raise InputError("labels is empty; give at least one class.")
    texts = [str(x) for x in labs]  # 1 and "1" would print, key JSON and match --positive alike
    if len(set(texts)) != len(labs):
        dupes = sorted(t for t, c in Counter(texts).items() if c > 1)
        same = " (the number 1 and the text '1' count as the same label)" if len(set(labs)) == len(labs) else ""
        raise InputError(f"labels must be unique{same}; repeated: {', '.join(dupes[:20])}.")
    return labs


def _index_array(values: Any, name: str, k: int) -> np.ndarray:
    try:
        arr = np.asarray(values).reshape(-1)
        if arr.dtype.kind == "f":
            if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
                raise TypeError
        elif arr.size and arr.dtype.kind not in "iub":
            raise TypeError
        arr = arr.astype(np.int64)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{name} must hold whole-number class indices.") from None
    if arr.size and (arr.min() < 0 or arr.max() >= k):
        bad = int(arr.min()) if arr.min() < 0 else int(arr.max())
        raise InputError(f"{name} contains the index {bad}, outside 0..{k - 1} (one per label).")
    return arr


def _check_masses(arr: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(arr)):
        raise InputError(f"{name} contains a missing, infinite or NaN entry; every cell must be a finite count.")
    if np.any(arr < 0):
        raise InputError(f"{name} has a negative count {float(arr[arr < 0][0]):g}; counts must be ≥ 0.")


def _check_total(total: float, name: str, masses: np.ndarray | None = None) -> None:
    """Refuse totals the metric formulas cannot square without overflow, and whole-number counts that
    total 2⁵³ or more, which float64 cannot count exactly (decided before computing).

    Whole numbers below 2⁵³ add up exactly in float64, so the float total is ≥ 2⁵³ exactly when the
    true total is. From there on ``2⁵³ + 1`` is ``2⁵³``, a class of a few items is lost beside the
    others, and the metrics would be silently wrong; no tolerance can make them right.
    """
    if not np.isfinite(total) or total > MAX_TOTAL:
        shown = "more than the largest float" if not np.isfinite(total) else f"{total:.3g}"
        raise InputError(
            f"{name} add up to {shown}, above the {MAX_TOTAL:g} that the metric formulas can square "
            "without overflow; divide every count by a common factor (no metric changes)."
        )
    if total >= EXACT_LIMIT and masses is not None and bool(np.all(masses == np.floor(masses))):
        raise InputError(
            f"{name} are whole numbers adding up to {total:,.0f}, at or above 2**53 = {EXACT_LIMIT:,}, beyond "
            "which floating-point counts are not exact (a class of a few items would vanish); divide every "
            "count by a common factor, e.g. 1,000 (no metric changes)."
        )


def _as_square_counts(counts: Any, name: str) -> np.ndarray:
    if isinstance(counts, ConfusionMatrix):
        return counts.counts.astype(np.float64, copy=True)
    try:
        arr = np.array(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a square table of numbers; it contains a non-numeric entry.") from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] == 0:
        raise InputError(f"{name} must be a non-empty square k×k table; got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise InputError(f"{name} contains a missing, infinite or NaN entry; every cell must be a finite count.")
    if np.any(arr < 0):
        i, j = np.argwhere(arr < 0)[0]
        raise InputError(f"{name} has a negative count {arr[i, j]:g} at row {i}, column {j}; counts must be ≥ 0.")
    with np.errstate(over="ignore"):
        _check_total(float(arr.sum()), name, arr)
    return arr


def normalise_labels(values: Iterable[Any]) -> list[Label]:
    """Turn labels into ints or strings: integral floats and numpy scalars become ``int``."""
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise InputError(f"labels must be a list of the classes (ints or strings); got {type(values).__name__}.")
    out: list[Label] = []
    for v in values:
        if isinstance(v, (bool, np.bool_)):
            out.append(int(v))
        elif isinstance(v, (int, np.integer)):
            out.append(int(v))
        elif isinstance(v, (float, np.floating)):
            if not np.isfinite(v) or float(v) != int(v):
                raise InputError(f"label {v!r} is not an integer or a string; labels must be ints or strings.")
            out.append(int(v))
        elif isinstance(v, str):
            out.append(str(v))  # np.str_ -> str
        elif isinstance(v, bytes):
            out.append(v.decode("utf-8", errors="replace"))
        else:
            raise InputError(f"label {v!r} of type {type(v).__name__} is not allowed; labels must be ints or strings.")
    return out


def _sort_labels(labels: Iterable[Label]) -> list[Label]:
    """Sorted union: integers numerically first, then strings."""
    return sorted(set(labels), key=lambda x: (isinstance(x, str), x))


def _to_array(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind in "US" and not isinstance(values, np.ndarray):
        # A list mixing numbers and strings: numpy would turn 2 into "2" (sorted after "10").
        if any(not isinstance(v, (str, bytes)) for v in values):
            arr = np.asarray(values, dtype=object)
    if arr.ndim != 1:
        arr = arr.reshape(-1) if arr.ndim == 0 or arr.size == 0 else arr
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional; got shape {arr.shape}.")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)):
            raise InputError(f"{name} contains a missing or NaN label.")
        if np.any(arr != np.round(arr)):
            raise InputError(f"{name} contains a non-integer number; labels must be ints or strings.")
        arr = arr.astype(np.int64)
    elif arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    return arr


def item_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """``sample_weight`` as n finite non-negative numbers (None stays None), or one sentence naming it."""
    if sample_weight is None:
        return None
    try:
        w = np.asarray(sample_weight, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InputError(f"sample_weight must be one number per item; got {type(sample_weight).__name__}.") from None
    if w.shape[0] != n:
        raise InputError(f"sample_weight has {w.shape[0]} entries but there are {n} items.")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InputError("sample_weight must hold finite, non-negative numbers.")
    return w


def confusion_matrix(
    y_true: Any,
    y_pred: Any,
    labels: Sequence[Label] | None = None,
    sample_weight: Any = None,
) -> ConfusionMatrix:
    """Count how often each true class was predicted as each class.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels (ints or strings).
    labels : sequence, optional
        The classes and their order. By default the sorted union of the labels occurring in either
        array. A label outside ``labels`` is an error rather than silently dropped.
    sample_weight : array-like of shape (n,), optional
        Non-negative weight of each item; the matrix then holds weighted (soft) counts.

    Returns
    -------
    ConfusionMatrix
        Rows are true classes, columns predicted classes.

    Examples
    --------
    >>> cm = confusion_matrix(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    >>> cm.labels
    ('a', 'b', 'c')
    >>> cm.counts.tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
    """
    t = _to_array(y_true, "y_true")
    p = _to_array(y_pred, "y_pred")
    if t.shape[0] != p.shape[0]:
        raise InputError(f"y_true has {t.shape[0]} items but y_pred has {p.shape[0]}; they must be the same length.")
    if t.shape[0] == 0:
        raise InputError("y_true and y_pred are empty; there is nothing to count.")
    w = item_weights(sample_weight, t.shape[0])

    if t.dtype.kind in "iu" and p.dtype.kind in "iu":
        fast = _integer_fast_path(t, p, labels, w)
        if fast is not None:
            return fast
    return _generic_path(t, p, labels, w)


def _integer_fast_path(
    t: np.ndarray, p: np.ndarray, labels: Sequence[Label] | None, w: np.ndarray | None
) -> ConfusionMatrix | None:
    """Counting with one ``np.bincount`` over ``(y_true - lo) * span + (y_pred - lo)``; no sorting."""
    lo = int(min(t.min(), p.min()))
    hi = int(max(t.max(), p.max()))
    span = hi - lo + 1
    if labels is not None:
        labs = normalise_labels(labels)
        if not all(isinstance(x, int) for x in labs):
            return None
    if span > _MAX_DENSE_SPAN:
        return _integer_sparse_path(t, p, labels, w, lo, span)
    if lo == 0:
        idx = t.astype(np.intp, copy=False) * span
        idx += p
    else:
        idx = (t.astype(np.intp) - lo) * span + (p.astype(np.intp) - lo)
    dense_occ = np.bincount(idx, minlength=span * span).reshape(span, span)
    dense: np.ndarray  # float64 (numpy's stubs type a weighted bincount as integers)
    if w is None:
        dense = dense_occ.astype(np.float64)
    else:
        dense = np.bincount(idx, weights=w, minlength=span * span).reshape(span, span)
    occurs = (dense_occ.sum(axis=1) > 0) | (dense_occ.sum(axis=0) > 0)
    present = [lo + int(i) for i in np.flatnonzero(occurs)]
    if labels is None:
        sel = np.flatnonzero(occurs)
        return ConfusionMatrix(dense[np.ix_(sel, sel)], present)
    labs_int = [int(x) for x in normalise_labels(labels)]
    missing = sorted(set(present) - set(labs_int))
    if missing:
        raise InputError(
            f"the data contain label {missing[0]!r}, which is not in labels={labs_int!r}; "
            "add it to labels or remove those items."
        )
    k = len(labs_int)
    out = np.zeros((k, k))
    inside = [(pos, lab - lo) for pos, lab in enumerate(labs_int) if lo <= lab <= hi]
    if inside:
        pos_idx = np.array([x for x, _ in inside])
        den_idx = np.array([y for _, y in inside])
        out[np.ix_(pos_idx, pos_idx)] = dense[np.ix_(den_idx, den_idx)]
    return ConfusionMatrix(out, labs_int)


def _integer_sparse_path(
    t: np.ndarray, p: np.ndarray, labels: Sequence[Label] | None, w: np.ndarray | None, lo: int, span: int
) -> ConfusionMatrix:
    """Integer labels spread over a wide range: class codes by a lookup table over the range (or by
    sorting when the range is huge), then the cells by ``np.unique``; no k² array."""
    table = span <= _MAX_LOOKUP_SPAN
    if table:
        seen = np.zeros(span, dtype=bool)
        seen[t - lo] = True
        seen[p - lo] = True
        present = np.flatnonzero(seen) + lo
    else:
        present = np.unique(np.concatenate([np.unique(t), np.unique(p)]))
    if labels is None:
        labs = present
    else:
        labs = np.asarray([int(x) for x in normalise_labels(labels)], dtype=np.int64)
        missing = np.setdiff1d(present, labs)
        if missing.size:
            raise InputError(
                f"the data contain label {int(missing[0])!r}, which is not in labels; "
                "add it to labels or remove those items."
            )
    if table:
        inside = (labs >= lo) & (labs < lo + span)
        lut = np.full(span, -1, dtype=np.int64)
        lut[labs[inside] - lo] = np.flatnonzero(inside)
        ti, pi = lut[t - lo], lut[p - lo]
    else:
        order = np.argsort(labs, kind="stable")
        sorted_labs = labs[order]
        ti = order[np.searchsorted(sorted_labs, t)]
        pi = order[np.searchsorted(sorted_labs, p)]
    ones = np.ones(t.shape[0]) if w is None else w
    return ConfusionMatrix.from_cells(ti, pi, ones, labs.tolist())


# Integer label ranges up to this many values are coded through a lookup table (8 bytes a value).
_MAX_LOOKUP_SPAN = 1 << 24


def _generic_path(
    t: np.ndarray, p: np.ndarray, labels: Sequence[Label] | None, w: np.ndarray | None
) -> ConfusionMatrix:
    t_list = t.astype(object) if t.dtype.kind not in "OU" else t
    p_list = p.astype(object) if p.dtype.kind not in "OU" else p
    uniq_t, inv_t = np.unique(np.asarray(normalise_labels(t_list), dtype=object).astype(str), return_inverse=True)
    uniq_p, inv_p = np.unique(np.asarray(normalise_labels(p_list), dtype=object).astype(str), return_inverse=True)
    # Recover the original (int or str) label for each unique string.
    first_t = {s: lab for s, lab in zip(uniq_t, _first_labels(t_list, inv_t, len(uniq_t)))}
    first_p = {s: lab for s, lab in zip(uniq_p, _first_labels(p_list, inv_p, len(uniq_p)))}
    occurring = {**first_p, **first_t}
    if labels is None:
        labs = _sort_labels(occurring.values())
    else:
        labs = normalise_labels(labels)
        known = {str(x) for x in labs}
        missing = sorted(s for s in occurring if s not in known)
        if missing:
            raise InputError(
                f"the data contain label {occurring[missing[0]]!r}, which is not in labels; "
                "add it to labels or remove those items."
            )
    pos = {str(lab): i for i, lab in enumerate(labs)}
    map_t = np.array([pos[s] for s in uniq_t], dtype=np.intp)
    map_p = np.array([pos[s] for s in uniq_p], dtype=np.intp)
    ones = np.ones(inv_t.size) if w is None else w
    return ConfusionMatrix.from_cells(map_t[inv_t.reshape(-1)], map_p[inv_p.reshape(-1)], ones, labs)


def _first_labels(values: np.ndarray, inverse: np.ndarray, m: int) -> list[Label]:
    first = np.full(m, -1, dtype=np.intp)
    inv = inverse.reshape(-1)
    order = np.arange(inv.shape[0])[::-1]
    first[inv[order]] = order
    return normalise_labels(values[first])


def counts_and_labels(matrix: Any) -> tuple[np.ndarray, tuple[Label, ...]]:
    """Counts (float64, shape ``(..., k, k)``) and labels of a :class:`ConfusionMatrix` or array."""
    if isinstance(matrix, ConfusionMatrix):
        return matrix.counts, matrix.labels
    try:
        arr = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("matrix must be a ConfusionMatrix or a k×k array of numbers.") from None
    if arr.ndim < 2 or arr.shape[-1] != arr.shape[-2]:
        raise InputError(f"matrix must have shape (..., k, k); got {arr.shape}.")
    if not np.all(np.isfinite(arr)):
        raise InputError("matrix contains a NaN or infinite count; every cell must be a finite count.")
    if np.any(arr < 0):
        raise InputError("matrix contains a negative count; counts must be ≥ 0.")
    with np.errstate(over="ignore"):
        totals = arr.sum(axis=(-2, -1))
    _check_total(float(np.max(totals)) if totals.size else 0.0, "the matrix's counts", arr)
    return arr, tuple(range(arr.shape[-1]))


def cells_and_labels(matrix: Any) -> tuple[Cells, tuple[Label, ...]]:
    """Non-zero cells (a :class:`Cells` batch for a stack ``(..., k, k)``) and labels of a matrix."""
    if isinstance(matrix, ConfusionMatrix):
        return matrix.cells, matrix.labels
    arr, labels = counts_and_labels(matrix)
    return Cells.from_dense(arr), labels
