"""Confusion data as nonzero cells: what every metric is computed from, for any number of classes.

A confusion matrix of ``k`` classes has ``k²`` cells but at most ``n`` of them are non-zero (and
usually far fewer). :class:`Cells` keeps only the non-zero cells — true index, predicted index and
mass, sorted row-major — possibly for a whole batch of matrices that share one cell pattern (the
bootstrap's resamples: ``w`` has shape ``(..., nnz)``). From them it derives, in ``O(nnz + k)`` per
matrix, the sums every metric needs (science.md §1):

* ``a_i`` (true sizes, row sums), ``b_i`` (predicted sizes, column sums), ``TP_i`` (the diagonal),
  ``n``;
* the off-diagonal mass ``n − Σ TP_i``, summed directly from the off-diagonal cells, so that it is
  exactly 0 for a diagonal matrix and exact for integer counts;
* the cell term of the confusion entropy, which is the only metric that needs single cells.

No ``k × k`` array is ever built here except by :meth:`Cells.to_dense`, which is for people looking
at small matrices.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["EXACT_LIMIT", "Cells", "MAX_TOTAL", "others"]

# The largest total mass the metric formulas can square twice without overflow (MCC's denominator
# is a product of two sums of a_i (n − a_i), i.e. of order n⁴ ≤ 1.8e308).
MAX_TOTAL = 1e75

# Counts below 2**53 are exact integers in float64; whole-number totals from there on are refused
# (advisor.engine._confusion._check_total): a class of a few items would vanish in the sums.
EXACT_LIMIT = 2**53
_EXACT_LIMIT = float(EXACT_LIMIT)

# Up to this many classes the off-diagonal mass outside a row and column is summed directly per class.
_DIRECT_OUTSIDE = 64

# From this many cells, column sums of whole-number batches are one bincount per matrix (the loop's
# per-matrix overhead is then small against the gather of a segmented sum).
_ROW_BINCOUNT = 2048


class Cells:
    """A batch of confusion matrices that share one pattern of non-zero cells.

    Parameters
    ----------
    rows, cols : int arrays of shape (nnz,)
        True and predicted class index of each cell; unique pairs, in row-major order unless made
        otherwise (:meth:`by_columns`).
    w : float array of shape (..., nnz)
        Mass of each cell in each matrix of the batch (zeros allowed, e.g. in resamples).
    k : int
        Number of classes.

    Examples
    --------
    >>> c = Cells.from_dense(np.array([[5.0, 1.0], [0.0, 3.0]]))
    >>> c.rows.tolist(), c.cols.tolist(), c.w.tolist()
    ([0, 0, 1], [0, 1, 1], [5.0, 1.0, 3.0])
    >>> c.a.tolist(), c.b.tolist(), c.tp.tolist(), float(c.n), float(c.off)
    ([6.0, 3.0], [5.0, 4.0], [5.0, 3.0], 9.0, 1.0)
    """

    __slots__ = ("_cache", "_pattern", "cols", "k", "rows", "w")

    def __init__(self, rows: np.ndarray, cols: np.ndarray, w: np.ndarray, k: int, *, exact: bool | None = None) -> None:
        self.rows = np.asarray(rows, dtype=np.int64)
        self.cols = np.asarray(cols, dtype=np.int64)
        w = np.asarray(w)
        # whole-number draws stay integers (sums of them are exact; per-class sums are float64)
        self.w = w if w.dtype.kind in "iu" else w.astype(np.float64, copy=False)
        self.k = int(k)
        self._cache: dict[str, Any] = {} if exact is None else {"exact": bool(exact)}
        self._pattern: dict[str, Any] = {}  # index arrays that depend on rows/cols only

    def with_masses(self, w: np.ndarray, *, exact: bool | None = None) -> Cells:
        """Cells with the same pattern and new masses ``w`` (..., nnz), sharing the pattern's index
        arrays (the bootstrap calls this once per chunk of resamples). ``exact`` may be given when the
        caller knows the masses are whole numbers (multinomial draws)."""
        out = Cells(self.rows, self.cols, w, self.k, exact=exact)
        out._pattern = self._pattern
        return out

    def share_true_sizes(self, other: Cells) -> None:
        """Take ``a`` and ``n`` from ``other``, a batch with the same items (a paired resample's other
        system: the true classes are the same), when both hold whole numbers — the sums are then exact,
        so the values are those this batch would compute itself."""
        if "a" in other._cache and other.exact and self.w.dtype.kind in "iu" and self._cache.get("exact"):
            self._cache["a"] = other._cache["a"]
            self._cache["n"] = other.n

    def _index(self, name: str) -> Any:
        """Index arrays of the cell pattern: the diagonal and off-diagonal cells, and per axis ``rows``
        or ``cols``: ``<axis>_sorted`` (the cells are in that axis's order, so its sums are contiguous
        runs), ``<axis>_order`` (a stable sort of the cells by that axis) and ``<axis>_starts`` (where
        each run begins once sorted). Sums over the cells themselves (``off``, the entropy's
        ``Σ C log C``) run in storage order, so cells in another order can differ in the last bit."""
        pat = self._pattern
        if name not in pat:
            if name == "diag":  # positions of the diagonal cells, and their class
                pos = np.flatnonzero(self.rows == self.cols)
                pat[name] = (pos, self.rows[pos])
            elif name == "offd":
                pat[name] = np.flatnonzero(self.rows != self.cols)
            else:
                axis, what = name.split("_")
                keys = self.rows if axis == "rows" else self.cols
                if what == "sorted":
                    pat[name] = bool(np.all(keys[1:] >= keys[:-1]))
                elif what == "order":
                    pat[name] = np.argsort(keys, kind="stable")
                else:  # starts
                    pat[name] = _starts(keys if self._index(f"{axis}_sorted") else keys[self._index(f"{axis}_order")])
        return pat[name]

    def _axis_sums(self, axis: str) -> np.ndarray:
        """Sums of every matrix's cells per row (``axis="rows"``: ``a``) or column (``"cols"``: ``b``),
        shape (B, k) float64. Cells already in that axis's order are summed run by run; many cells of
        whole numbers (item resamples) by one bincount per matrix, while its row is in cache (every
        partial sum is a whole number below 2⁵³, so the order is moot); others are gathered in order."""
        flat = self._flat()
        keys = self.rows if axis == "rows" else self.cols
        if self._index(f"{axis}_sorted"):
            return _segment_sums(flat, keys, self.k, self._index(f"{axis}_starts"))
        # (exactness as declared by the caller: asking ``self.exact`` would need these very sums)
        if self.nnz >= _ROW_BINCOUNT and self.w.dtype.kind in "iu" and self._cache.get("exact") is True:
            out = np.empty((flat.shape[0], self.k))
            for r in range(flat.shape[0]):
                out[r] = np.bincount(keys, weights=flat[r], minlength=self.k)
            return out
        order = self._index(f"{axis}_order")
        # np.take walks each matrix's row in turn; ``flat[:, order]`` copies strided columns
        return _segment_sums(np.take(flat, order, axis=1), keys[order], self.k, self._index(f"{axis}_starts"))

    def by_columns(self) -> tuple[Cells, np.ndarray]:
        """The same matrices with the cells in column-major order, and where each cell went
        (``position[i]`` = new index of cell ``i``). Column sums are then contiguous runs — cheaper
        for a batch whose row sums come from elsewhere (:meth:`share_true_sizes`)."""
        order = np.lexsort((self.rows, self.cols))
        position = np.empty_like(order)
        position[order] = np.arange(order.shape[0])
        return Cells(self.rows[order], self.cols[order], self.w[..., order], self.k), position

    @classmethod
    def from_dense(cls, counts: Any) -> Cells:
        """The non-zero cells of a (stack of) dense matrices ``(..., k, k)`` (union of the patterns)."""
        c = np.asarray(counts, dtype=np.float64)
        k = c.shape[-1]
        flat = c.reshape(c.shape[:-2] + (k * k,))
        mask = flat != 0 if flat.ndim == 1 else np.any(flat.reshape(-1, k * k) != 0, axis=0)
        idx = np.flatnonzero(mask)
        return cls(idx // k, idx % k, flat[..., idx], k)

    @classmethod
    def from_pairs(cls, rows: np.ndarray, cols: np.ndarray, w: np.ndarray, k: int) -> Cells:
        """Cells from unsorted, possibly repeated ``(row, col)`` pairs; repeats are summed.

        ``w`` may be batched ``(..., m)``; the result has one column per distinct pair.
        """
        key = np.asarray(rows, dtype=np.int64) * k + np.asarray(cols, dtype=np.int64)
        uniq, inv = np.unique(key, return_inverse=True)
        inv = inv.reshape(-1)
        return cls(uniq // k, uniq % k, aggregate(np.asarray(w, dtype=np.float64), inv, uniq.shape[0]), k)

    # -- shape -----------------------------------------------------------------------------
    @property
    def batch(self) -> tuple[int, ...]:
        return self.w.shape[:-1]

    @property
    def nnz(self) -> int:
        return int(self.rows.shape[0])

    def _flat(self) -> np.ndarray:
        rows = math.prod(self.batch)
        return self.w.reshape(rows, self.nnz)

    def _per_class(self, name: str, values: np.ndarray) -> np.ndarray:
        self._cache[name] = values.reshape(self.batch + (self.k,))
        return self._cache[name]

    # -- sums ------------------------------------------------------------------------------
    @property
    def a(self) -> np.ndarray:
        """True sizes ``a_i`` (row sums), shape ``(..., k)``."""
        if "a" not in self._cache:
            self._per_class("a", self._axis_sums("rows"))
        return self._cache["a"]

    @property
    def b(self) -> np.ndarray:
        """Predicted sizes ``b_j`` (column sums), shape ``(..., k)``."""
        if "b" not in self._cache:
            self._per_class("b", self._axis_sums("cols"))
        return self._cache["b"]

    @property
    def tp(self) -> np.ndarray:
        """The diagonal ``TP_i = C_ii``, shape ``(..., k)``."""
        if "tp" not in self._cache:
            pos, classes = self._index("diag")
            flat = self._flat()
            out = np.zeros((flat.shape[0], self.k))
            out[:, classes] = np.take(flat, pos, axis=1)
            self._per_class("tp", out)
        return self._cache["tp"]

    @property
    def n(self) -> np.ndarray:
        """Total mass ``n = Σ a_i``, shape ``(...)``."""
        if "n" not in self._cache:
            self._cache["n"] = self.a.sum(axis=-1)  # float64: a is float64
        return self._cache["n"]

    @property
    def off(self) -> np.ndarray:
        """Mass off the diagonal, summed from the off-diagonal cells (exactly 0 for a diagonal matrix)."""
        if "off" not in self._cache:
            if self.exact:  # whole numbers below 2⁵³: n − Σ TP is exact
                self._cache["off"] = self.n - self.tp.sum(axis=-1)
            else:
                self._cache["off"] = self._off_masses().sum(axis=-1).reshape(self.batch)
        return self._cache["off"]

    def _off_masses(self) -> np.ndarray:
        """The masses of the off-diagonal cells, (B, nnz_off) (gathered once)."""
        if "offw" not in self._cache:
            self._cache["offw"] = self._flat()[:, self._index("offd")]
        return self._cache["offw"]

    def off_sums(self, axis: str) -> np.ndarray:
        """Off-diagonal mass of each row (``"rows"``: ``FN_i = a_i − TP_i``) or column (``"cols"``:
        ``FP_j = b_j − TP_j``), summed from the off-diagonal cells (no difference of large sums)."""
        key = f"off_{axis}"
        if key not in self._cache:
            idx = self._index("offd")
            keys = (self.rows if axis == "rows" else self.cols)[idx]
            sums = _per_key(self._off_masses(), keys, self.k)
            self._cache[key] = sums.reshape(self.batch + (self.k,))
        return self._cache[key]

    def off_outside(self) -> tuple[np.ndarray, np.ndarray]:
        """Per class ``i``, the off-diagonal mass outside row ``i`` and column ``i`` (part of ``TN_i``), and
        whether it is positive — decided by counting positive cells, so a tiny mass is never taken for 0."""
        if "outside" not in self._cache:
            offw = self._off_masses()
            idx = self._index("offd")
            r, c = self.rows[idx], self.cols[idx]
            pos = (offw > 0).astype(np.float64)
            count = pos.sum(axis=-1)[:, None] - _per_key(pos, r, self.k) - _per_key(pos, c, self.k)
            if self.k <= _DIRECT_OUTSIDE:  # a sum of non-negative masses per class
                classes = np.arange(self.k)[:, None]
                value = offw @ ((r[None, :] != classes) & (c[None, :] != classes)).T.astype(np.float64)
            else:
                rows = self.off_sums("rows").reshape(-1, self.k)
                cols = self.off_sums("cols").reshape(-1, self.k)
                value = np.maximum(offw.sum(axis=-1)[:, None] - rows - cols, 0.0)
            positive = count > 0
            self._cache["outside"] = (np.where(positive, value, 0.0).reshape(self.batch + (self.k,)),
                                      positive.reshape(self.batch + (self.k,)))
        return self._cache["outside"]

    @property
    def exact(self) -> bool:
        """True when every mass is a whole number and every total is below 2⁵³ (float64 is exact)."""
        if "exact" not in self._cache:
            w = self.w
            whole = w.dtype.kind in "iu" or bool(np.all(w == np.floor(w)))
            self._cache["exact"] = whole and bool(np.all(self.n < _EXACT_LIMIT))
        return self._cache["exact"]

    def entropy_sum(self) -> np.ndarray:
        """``Σ_{i≠j} C_ij [log(C_ij / (a_i + b_i)) + log(C_ij / (a_j + b_j))]``, shape ``(...)``.

        The cell sum of the confusion entropy (seed 003, Table 1). Only ``Σ C_ij log C_ij`` needs the
        non-zero off-diagonal cells; the ``log S`` terms collect per class, since
        ``Σ_{j≠i} C_ij = a_i − TP_i`` and ``Σ_{i≠j} C_ij = b_j − TP_j``:
        ``2 Σ_{i≠j} C_ij log C_ij − Σ_i (a_i − TP_i) log S_i − Σ_j (b_j − TP_j) log S_j``, ``S = a + b``.
        """
        tp = self.tp
        with np.errstate(invalid="ignore", divide="ignore"):
            flat = self._flat() if self.w.dtype.kind in "iu" and self.exact else None
            # no cell exceeds its row's sum: the (smaller) row sums bound the lookup table
            top = (float(self.a.max()) if flat.size else 0.0) if flat is not None else 0.0
            if flat is not None and top > _XLOGX_TABLE and flat.size:
                top = float(flat.max())
            if flat is not None and top <= _XLOGX_TABLE:  # whole numbers: Σ_all − Σ_diagonal, by lookup
                table = _xlogx_table(int(top))
                # np.take: the same values as ``table[flat]``, gathered about a third faster
                diag = np.take(table, tp.astype(np.intp)).sum(axis=-1)
                wlogw = np.take(table, flat).sum(axis=-1).reshape(self.batch) - diag
            else:
                wlogw = _xlogx(self._off_masses(), self.exact).sum(axis=-1).reshape(self.batch)
            log_s = np.log(np.maximum(self.a + self.b, 1e-300))
        row_mass = np.maximum(self.a - tp, 0.0)  # off-diagonal mass of each row / column
        col_mass = np.maximum(self.b - tp, 0.0)
        return 2.0 * wlogw - (row_mass * log_s).sum(axis=-1) - (col_mass * log_s).sum(axis=-1)

    # -- views -----------------------------------------------------------------------------
    def to_dense(self) -> np.ndarray:
        """The dense ``(..., k, k)`` array (for people looking at small matrices)."""
        out = np.zeros(self.batch + (self.k * self.k,))
        out[..., self.rows * self.k + self.cols] = self.w
        return out.reshape(self.batch + (self.k, self.k))

    def take(self, index: Any) -> Cells:
        """The matrices ``index`` of the batch (same cell pattern)."""
        return Cells(self.rows, self.cols, self.w[index], self.k)


def _xlogx(w: np.ndarray, exact: bool) -> np.ndarray:
    """``w log w`` (0 at 0); whole-number masses (resamples) are looked up in a table of ``v log v``."""
    top = float(w.max()) if w.size else 0.0
    # the table pays when it exists or when there are many masses per entry; a single matrix of large
    # counts (10^7 items) would otherwise build an 8 MB table (and its temporaries) for a few cells.
    # Both give the same numbers: the table holds exactly ``v * log(v)``
    if exact and top <= _XLOGX_TABLE and (top < _TABLE.shape[0] or 4 * w.size >= top):
        return np.take(_xlogx_table(int(top)), w.astype(np.intp))
    return np.where(w > 0, w * np.log(np.where(w > 0, w, 1.0)), 0.0)


def _xlogx_table(top: int) -> np.ndarray:
    """``v log v`` for ``v = 0 .. ≥ top`` (cached, grown on demand)."""
    global _TABLE
    if _TABLE.shape[0] <= top:
        v = np.arange(max(top + 1, 2 * _TABLE.shape[0]), dtype=np.float64)
        _TABLE = v * np.log(np.maximum(v, 1.0))
    return _TABLE


# Whole-number masses up to this use a lookup table for w log w (16 MB at most), grown on demand.
_XLOGX_TABLE = 1 << 20
_TABLE = np.zeros(1)


def aggregate(w: np.ndarray, inverse: np.ndarray, size: int) -> np.ndarray:
    """Sum the columns of ``w`` (..., m) into ``size`` groups given by ``inverse`` (m,)."""
    if w.ndim == 1:
        return np.bincount(inverse, weights=w, minlength=size).astype(np.float64)
    flat = w.reshape(-1, w.shape[-1])
    rows = flat.shape[0]
    key = (np.arange(rows, dtype=np.int64)[:, None] * size + inverse[None, :]).reshape(-1)
    out = np.bincount(key, weights=flat.reshape(-1), minlength=rows * size)
    return out.reshape(w.shape[:-1] + (size,))


def _per_key(flat: np.ndarray, keys: np.ndarray, k: int) -> np.ndarray:
    """Sums of the columns of ``flat`` (B, m) per key (m,) → (B, k); no columns → zeros."""
    if flat.shape[-1] == 0:
        return np.zeros((flat.shape[0], k))
    return aggregate(flat, keys, k)


def others(x: np.ndarray) -> np.ndarray:
    """``Σ_{j≠i} x_j`` for every ``i`` along the last axis, as running sums from both ends — sums of
    non-negative terms, so it is 0 exactly when every other entry is 0 (``n − a_i`` is not)."""
    x = np.asarray(x, dtype=np.float64)
    zero = np.zeros(x.shape[:-1] + (1,))
    left = np.concatenate([zero, np.cumsum(x[..., :-1], axis=-1)], axis=-1)
    right = np.concatenate([np.cumsum(x[..., :0:-1], axis=-1)[..., ::-1], zero], axis=-1)
    return left + right


def _segment_sums(flat: np.ndarray, keys: np.ndarray, k: int, starts: np.ndarray) -> np.ndarray:
    """Sums of the columns of ``flat`` (B, nnz) per value of the sorted ``keys`` (segments beginning
    at ``starts``) → (B, k) float64."""
    out = np.zeros((flat.shape[0], k))
    if keys.shape[0] == 0:
        return out
    out[:, keys[starts]] = np.add.reduceat(flat, starts, axis=1)
    return out


def _starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted ``keys`` begins."""
    if keys.shape[0] == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
