"""Similarity of two partitions with arbitrary cluster ids (issue 23, item 3), from their contingency table.

When the labels are cluster ids — two clusterings of the same items, with no correspondence between the ids —
no classification metric applies: renaming the clusters of either side must not change the score. These
indices depend only on the contingency table ``C`` (rows: clusters of the first partition, columns: of the
second; the confusion matrix the one reader counts, empty rows and columns dropped):

* ``adjusted_rand_index`` — the Rand index corrected for chance under the permutation model (Hubert & Arabie
  1985): ``(N11 − A·B/N) / (½(A + B) − A·B/N)`` with ``N11 = Σ C(c_ij, 2)``, ``A = Σ C(a_i, 2)``,
  ``B = Σ C(b_j, 2)``, ``N = C(n, 2)``;
* ``adjusted_mutual_info`` — mutual information corrected for chance, normalised by the arithmetic mean of the
  two entropies (Vinh, Epps & Bailey 2010; scikit-learn's default);
* ``normalized_mutual_info`` — the same mutual information without the chance correction, ``I / ½(H_a + H_b)``
  (the arithmetic-mean normalisation, one of the variants Vinh et al. 2010 list; scikit-learn's default): the figure
  topic-clustering papers customarily report. Not corrected for chance — independent partitions with many clusters
  score above 0 — so it is computed on request, for an author who plans it, and reported beside the chance-corrected
  indices, never instead;
* ``pair_correlation`` — the Pearson correlation of the two pair indicators (is a pair of items in one cluster?),
  ``(N·N11 − A·B) / √(A·B·(N − A)·(N − B))``, with its correlation distance ``arccos(CC)/π``
  (``pair_correlation_distance``). Gösgens, Tikhonov & Prokhorenkova (2021, ICML) prove it has every property
  they ask of a cluster similarity index except being a distance — among them strong monotonicity, which the
  adjusted Rand index lacks (both are monotone and have a constant baseline); the correlation distance trades the
  exact constant baseline for the distance. So the correlation coefficient is the lead for comparing partitions;
* ``purity`` — the share of items in the majority reference cluster of their own cluster, ``(1/n) Σ_j max_i C_ij``
  (Manning, Raghavan & Schütze 2008, §16.3): not symmetric, not corrected for chance, and 1 whenever every cluster
  of the second partition lies inside one of the first — one item per cluster included — so it rewards
  over-splitting;
* ``inverse_purity`` — purity with the two partitions' roles exchanged, ``(1/n) Σ_i max_j C_ij``: the share of
  items in the largest cluster of their own reference cluster (Amigó, Gonzalo, Artiles & Verdejo 2009). It is 1
  whenever every reference cluster lies inside one cluster — one cluster for all the items included — so it
  rewards merging, exactly what purity penalises. Purity and inverse purity are computed so that a planned purity
  is reported as text-clustering studies report it, beside its inverse, never alone.

A partition with one cluster (or fewer than two items) has no pair of items apart: every index is 0/0 there and
is refused in one sentence; so is the pair correlation of a partition whose clusters are all single items (no pair
of items together: the pair indicator is constant).

:func:`partition_cells_batch` evaluates a batch of tables over the same non-zero cells (the bootstrap's resamples,
the jackknife's deletions); with ``population=True`` it gives the index of the distribution the table's shares
define — pairs drawn with replacement (``Σ c_ij²`` in place of ``Σ c_ij(c_ij − 1)``) and the mutual information
without its chance correction — the value a resampled AMI is read against (:mod:`advisor.stats._partitions`); with
``squares`` (each cell's ``Σ m²`` over its items' copies) the pair counts leave out the pairs an item forms with its
own copies, as the resampled pair-counting indices do.
NMI, purity and inverse purity are functions of the table's shares alone, so their population value is the table's own: no pair of
an item with itself enters them, and leaving out the pairs of an item's copies has no counterpart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.special import gammaln

from .._exceptions import InputError

__all__ = ["PARTITION_INDICES", "PARTITION_METRICS", "PartitionRows", "PartitionTable", "cluster_sizes",
           "contingency_table", "pair_count_indices", "partition_cells_batch", "partition_metrics", "partition_table"]

PARTITION_METRICS = ("pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info")
#: every index computed on request: the reported ones, and NMI and purity with its inverse, reported beside them when
#: the author plans NMI or purity
PARTITION_INDICES = (*PARTITION_METRICS, "normalized_mutual_info", "purity", "inverse_purity")
#: the indices that are not functions of the four pair counts
_NOT_PAIR_COUNTING = ("adjusted_mutual_info", "normalized_mutual_info", "purity", "inverse_purity")

#: Elements of the n_ij × window array of the expected mutual information evaluated at once.
_EMI_CHUNK = 2_000_000


def contingency_table(counts: Any, names: Sequence[str] = ("the partition in y_true", "the partition in y_pred")) -> np.ndarray:
    """The contingency table of a confusion matrix (rows true, columns predicted), empty rows and columns dropped;
    a partition with one cluster refused.

    >>> contingency_table([[2, 0, 0], [0, 0, 0], [1, 0, 3]]).tolist()
    [[2.0, 0.0], [1.0, 3.0]]
    """
    try:
        c = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        c = np.full(1, np.nan)  # not numbers: refused below
    if c.ndim != 2 or np.any(c < 0) or not np.all(np.isfinite(c)):
        raise InputError("counts must be a contingency table: a 2-D table of non-negative counts.")
    c = c[c.sum(1) > 0][:, c.sum(0) > 0]
    n = c.sum()
    if n < 2:
        raise InputError(f"comparing partitions needs at least two items; got {n:g}.")
    for axis, name in ((1, names[0]), (0, names[1])):
        if c.shape[1 - axis] < 2:
            raise InputError(f"{name} has one cluster, so no pair of items is apart and the adjusted Rand index, "
                             "adjusted mutual information and pair-counting correlation coefficient are undefined; compare partitions "
                             "with at least two clusters each.")
    return c


@dataclass(frozen=True)
class PartitionTable:
    """One partition of the items against the reference partition: their contingency table (rows: the reference's
    clusters, columns: this partition's; empty rows and columns dropped) and the cluster ids of its rows and
    columns."""

    counts: np.ndarray
    true_labels: tuple[Any, ...]
    pred_labels: tuple[Any, ...]

    @property
    def n(self) -> float:
        return float(self.counts.sum())


def partition_table(counts: Any, labels: Sequence[Any] | None = None, pred_labels: Sequence[Any] | None = None,
                    name: str | None = None) -> PartitionTable:
    """The :class:`PartitionTable` of a confusion matrix of cluster ids (``labels`` name its rows, ``pred_labels`` its
    columns, ``labels`` both when not given); a partition with one cluster is refused in one sentence naming
    ``name`` (a system)."""
    c = np.asarray(counts, dtype=np.float64)
    rows = list(labels) if labels is not None else list(range(c.shape[0] if c.ndim == 2 else 0))
    cols = list(pred_labels) if pred_labels is not None else (list(labels) if labels is not None else
                                                               list(range(c.shape[1] if c.ndim == 2 else 0)))
    where = f" of {name}" if name else ""
    table = contingency_table(c, (f"the partition in y_true{where}", f"the partition in y_pred{where}"))
    keep_r, keep_c = np.flatnonzero(c.sum(1) > 0), np.flatnonzero(c.sum(0) > 0)
    return PartitionTable(table, tuple(rows[i] for i in keep_r), tuple(cols[j] for j in keep_c))


@dataclass(frozen=True)
class PartitionRows:
    """What a resampling of partitions draws: distinct (reference cluster, each partition's cluster) combinations
    of items, ``counts[r]`` items each, and — when whole groups of items are resampled — the group of each row.

    ``true[r]`` and ``pred[system][r]`` are cluster codes (any integers); systems given together share the rows
    (paired items).
    """

    true: np.ndarray
    pred: dict[str, np.ndarray]
    counts: np.ndarray
    groups: np.ndarray | None = None
    n_groups: int = 0
    group_col: str | None = None
    labels: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = field(default_factory=dict)

    @property
    def n(self) -> float:
        return float(np.sum(self.counts))

    @property
    def units(self) -> int:
        """The resampled units: groups, or items."""
        return int(self.n_groups) if self.groups is not None else int(round(self.n))

    def cells(self, system: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
        """``(cell of each row, row of each cell, column of each cell, (clusters of the reference, of the
        system))``: the system's non-zero cells, rows and columns numbered from 0."""
        t, p = np.asarray(self.true), np.asarray(self.pred[system])
        tu, ti = np.unique(t, return_inverse=True)
        pu, pi = np.unique(p, return_inverse=True)
        code = ti.astype(np.int64) * len(pu) + pi
        uniq, cell = np.unique(code, return_inverse=True)
        return cell, uniq // len(pu), uniq % len(pu), (len(tu), len(pu))

    @classmethod
    def from_labels(cls, y_true: Any, y_pred: Any, groups: Any = None) -> PartitionRows:
        """The rows of cluster ids given item by item: ``y_true`` the reference partition, ``y_pred`` one partition
        of the same items (named ``"system"``) or a mapping name → partition (several, compared on the same items),
        ``groups`` the group of each item when whole groups are resampled (None: items).

        >>> r = PartitionRows.from_labels(["a", "a", "b", "b"], {"km": [1, 1, 1, 2]})
        >>> r.counts.tolist(), r.units
        ([2.0, 1.0, 1.0], 4)
        """
        t = np.asarray(y_true, dtype=object).reshape(-1)
        preds = {str(s): np.asarray(p, dtype=object).reshape(-1) for s, p in
                 (y_pred.items() if isinstance(y_pred, dict) else [("system", y_pred)])}
        arrays = [("y_true", t), *(("y_pred" if len(preds) == 1 else f"y_pred[{s!r}]", p) for s, p in preds.items())]
        if groups is not None:
            arrays.append(("groups", np.asarray(groups, dtype=object).reshape(-1)))
        bad = [(k, v.size) for k, v in arrays if v.size != t.size]
        if bad:
            raise InputError(f"{bad[0][0]} has {bad[0][1]:,} entries and y_true {t.size:,}; give one cluster id (or "
                             "group) per item, the items in the same order.")
        codes = np.column_stack([np.unique(v.astype(str), return_inverse=True)[1].reshape(-1) for _, v in arrays])
        uniq, counts = np.unique(codes, axis=0, return_counts=True)
        return cls(true=uniq[:, 0], pred={s: uniq[:, 1 + j] for j, s in enumerate(preds)},
                   counts=counts.astype(np.float64), groups=uniq[:, -1] if groups is not None else None,
                   n_groups=int(codes[:, -1].max()) + 1 if groups is not None else 0,
                   group_col="groups" if groups is not None else None)

    @classmethod
    def of_table(cls, table: PartitionTable, system: str) -> PartitionRows:
        """The rows of one contingency table (its non-zero cells; items resampled one by one)."""
        r, c = np.nonzero(table.counts)
        return cls(true=r.astype(np.int64), pred={system: c.astype(np.int64)},
                   counts=table.counts[r, c].astype(np.float64),
                   labels={system: (table.true_labels, table.pred_labels)})


def _sums(w: np.ndarray, index: np.ndarray, k: int) -> np.ndarray:
    """``(R, k)``: the masses ``w`` (R, cells) summed by ``index`` (the row or column of each cell)."""
    onehot = csr_matrix((np.ones(index.size), (np.arange(index.size), index)), shape=(index.size, k))
    return np.asarray((onehot.T @ w.T).T)


def _pairs(x: Any) -> Any:
    return x * (x - 1.0) / 2.0


def _entropy(counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Entropy (nats) of each row of ``counts`` (..., k) with totals ``n``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / n[..., None]
        return -np.sum(np.where(counts > 0, p * np.log(np.where(counts > 0, p, 1.0)), 0.0), axis=-1)


def _expected_mutual_info(a: np.ndarray, b: np.ndarray, n: np.ndarray) -> np.ndarray:
    """E[MI] under the hypergeometric (permutation) model, Vinh, Epps & Bailey (2010), eq. (24a), for a batch:
    ``a`` (R, ka) and ``b`` (R, kb) cluster sizes, ``n`` (R,) items.

    The sum over ``n_ij`` runs over ``max(1, a_i + b_j − n) … min(a_i, b_j)``, cut to the hypergeometric mean ± 12
    standard deviations + 8 (the terms beyond weigh less than 1e-30 of the sum).
    """
    R = a.shape[0]
    rr, ii, jj = np.nonzero((a[:, :, None] > 0) & (b[:, None, :] > 0))
    if rr.size == 0:
        return np.zeros(R)
    ai, bj, nn = a[rr, ii].astype(np.float64), b[rr, jj].astype(np.float64), n[rr].astype(np.float64)
    lo, hi = np.maximum(1.0, ai + bj - nn), np.minimum(ai, bj)
    mean = ai * bj / nn
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(np.maximum(ai * bj * (nn - ai) * (nn - bj) / (nn * nn * np.maximum(nn - 1.0, 1.0)), 0.0))
    lo = np.maximum(lo, np.floor(mean - 12.0 * sd - 8.0))
    hi = np.minimum(hi, np.ceil(mean + 12.0 * sd + 8.0))
    length = np.maximum(hi - lo + 1.0, 0.0).astype(np.int64)
    base = gammaln(ai + 1) + gammaln(bj + 1) + gammaln(nn - ai + 1) + gammaln(nn - bj + 1) - gammaln(nn + 1)
    terms = np.zeros(rr.size)
    order = np.argsort(length, kind="stable")
    start = 0
    while start < order.size:  # triples of similar window length together: little padding
        width = int(max(length[order[min(order.size - 1, start + 1)]], 1))
        stop = start + max(1, _EMI_CHUNK // width)
        idx = order[start:stop]
        width = int(max(length[idx].max(), 1))
        k = lo[idx, None] + np.arange(width)[None, :]
        ok = k <= hi[idx, None]
        kk = np.where(ok, k, 1.0)
        a_, b_, n_ = ai[idx, None], bj[idx, None], nn[idx, None]
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            log_p = (base[idx, None] - gammaln(kk + 1) - gammaln(a_ - kk + 1) - gammaln(b_ - kk + 1)
                     - gammaln(n_ - a_ - b_ + kk + 1))
            t = kk / n_ * np.log(n_ * kk / (a_ * b_)) * np.exp(log_p)
        terms[idx] = np.sum(np.where(ok, t, 0.0), axis=1)
        start = stop
    return np.bincount(rr, weights=terms, minlength=R)


def _mutual_info(w: np.ndarray, rows: np.ndarray, cols: np.ndarray, a: np.ndarray, b: np.ndarray,
                 n: np.ndarray) -> np.ndarray:
    """``(R,)``: the mutual information (nats) ``I = Σ_ij (C_ij/n) log(n C_ij / (a_i b_j))`` of each table of masses
    ``w`` (R, cells), cell ``c`` in row ``rows[c]`` and column ``cols[c]``; ``a`` (R, ka) and ``b`` (R, kb) its row and
    column sums, ``n`` (R,) its totals.

    >>> w = np.array([[2., 2.]])  # two items together, two together: identical partitions of four items
    >>> round(float(_mutual_info(w, np.array([0, 1]), np.array([0, 1]), w, w, np.array([4.]))[0]), 6)  # log 2
    0.693147
    """
    outer = a[:, rows] * b[:, cols]
    pos = w > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sum(np.where(pos, w / n[:, None] * np.log(np.where(pos, n[:, None] * w / np.where(pos, outer, 1.0),
                                                                      1.0)), 0.0), axis=1)


def _normalized_mutual_info(mi: np.ndarray, norm: np.ndarray, two_sides: np.ndarray) -> np.ndarray:
    """NMI ``= I / ½(H_a + H_b)``: the mutual information over the arithmetic mean of the two partitions' entropies
    (Vinh, Epps & Bailey 2010, who list this and the other normalisations — geometric mean, max, min, joint entropy;
    the arithmetic mean is scikit-learn's default ``average_method``). ``mi`` and ``norm`` ``(R,)``; NaN where a side
    has fewer than two non-empty clusters (``two_sides`` false).

    Undefined values: a partition with one cluster has entropy 0 and no pair of items apart. scikit-learn then returns
    1 (both partitions one cluster) or 0 (one of them); advisor refuses it, as it refuses every partition index there
    (:func:`contingency_table`), and a resample that loses every cluster but one gives NaN. When both sides have two
    or more clusters both entropies are positive, so the denominator is never 0.

    >>> _normalized_mutual_info(np.array([np.log(2), 0.0]), np.array([np.log(2), np.log(2)]), np.array([True, True]))
    array([1., 0.])
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(two_sides & (norm > 0), np.clip(mi / np.where(norm > 0, norm, 1.0), 0.0, 1.0), np.nan)


def _purity(w: np.ndarray, cols: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``(R,)``: ``(1/n) Σ_j max_i C_ij`` of each table of masses ``w`` (R, cells): every column's largest cell, summed.
    Given the cells' rows in place of their columns, the same sum over rows: inverse purity, ``(1/n) Σ_i max_j C_ij``.

    >>> _purity(np.array([[3., 1., 2.]]), np.array([0, 0, 1]), np.array([6.])).tolist()  # column 0: 3 and 1
    [0.8333333333333334]
    >>> _purity(np.array([[3., 1., 2.]]), np.array([0, 1, 1]), np.array([6.])).tolist()  # rows: 3; 1 and 2
    [0.8333333333333334]
    """
    if w.shape[1] == 0:
        return np.full(w.shape[0], np.nan)
    order = np.argsort(cols, kind="stable")
    sorted_cols = cols[order]
    starts = np.flatnonzero(np.r_[True, sorted_cols[1:] != sorted_cols[:-1]])
    largest = np.maximum.reduceat(w[:, order], starts, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return largest.sum(axis=1) / n


def pair_count_indices(n11: Any, a: Any, b: Any, n: Any, metrics: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """The pair-counting indices as functions of the pair counts: ``n11`` pairs of items together in both
    partitions, ``a`` together in the first, ``b`` in the second, ``n`` pairs in all (any non-negative numbers,
    also ones no pair of partitions has — the domain of Gösgens et al.'s strong monotonicity). NaN where 0/0.

    >>> {m: round(float(v), 4) for m, v in pair_count_indices(2, 3, 3, 6).items()}
    {'pair_correlation': 0.3333, 'pair_correlation_distance': 0.3918, 'adjusted_rand_index': 0.3333}
    """
    ids = [m for m in (metrics or PARTITION_METRICS) if m not in _NOT_PAIR_COUNTING]
    n11, a, b, n = (np.asarray(x, dtype=np.float64) for x in (n11, a, b, n))
    out: dict[str, np.ndarray] = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        if {"pair_correlation", "pair_correlation_distance"} & set(ids):
            ok = (a > 0) & (b > 0) & (a < n) & (b < n)
            cc = np.where(ok, (n * n11 - a * b) / np.sqrt(np.where(ok, a * b * (n - a) * (n - b), 1.0)), np.nan)
            cc = np.where(np.isnan(cc), np.nan, np.clip(cc, -1.0, 1.0))
            out["pair_correlation"] = cc
            out["pair_correlation_distance"] = np.arccos(cc) / np.pi
        if "adjusted_rand_index" in ids:
            expected = a * b / n
            den = 0.5 * (a + b) - expected
            out["adjusted_rand_index"] = np.where(den != 0, (n11 - expected) / np.where(den != 0, den, 1.0), np.nan)
    return {m: out[m] for m in ids}


def pair_counts(w: np.ndarray, q: np.ndarray, rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(N₁₁, A, B, N)`` of a batch of resampled tables counting only pairs of two distinct original items: ``w``
    (R, cells) the copies in each cell (``Σ m`` over its original items), ``q`` their ``Σ m²``. Pairs of copies of
    distinct items in one cell number ``Σ_{i<j} m_i m_j = (w² − q)/2``; a cluster's and the whole set's likewise.

    Items 0, 1 and 2 together in both partitions, item 0 drawn twice and item 1 once (item 2 not drawn): the pairs
    (0, 1) and (0′, 1), not (0, 0′).

    >>> [float(x[0]) for x in pair_counts(np.array([[3.]]), np.array([[5.]]), np.array([0]), np.array([0]), (1, 1))]
    [2.0, 2.0, 2.0, 2.0]
    """
    a, b = _sums(w, rows, shape[0]), _sums(w, cols, shape[1])
    qa, qb = _sums(q, rows, shape[0]), _sums(q, cols, shape[1])
    n, qn = w.sum(1), q.sum(1)
    return ((w * w - q).sum(1) / 2, (a * a - qa).sum(1) / 2, (b * b - qb).sum(1) / 2, (n * n - qn) / 2)


def partition_cells_batch(masses: Any, rows: Any, cols: Any, shape: tuple[int, int], metrics: Sequence[str] | None = None,
                          *, population: bool = False, squares: Any = None) -> dict[str, np.ndarray]:
    """The partition indices of a batch of contingency tables given by their masses over the same cells:
    ``masses`` (R, cells), cell ``c`` in row ``rows[c]`` and column ``cols[c]`` of a ``shape`` table. Empty rows and
    columns are allowed; a table with fewer than two non-empty clusters on a side (or, for the pair correlation,
    only clusters of one item) gives NaN.

    ``population=True``: the index of the distribution the table's shares define — pairs drawn with replacement,
    so an item pairs with itself (``N₁₁ = Σ c²/2``, ``A = Σ a²/2``, ``B = Σ b²/2``, ``N = n²/2``), and the
    mutual information without chance correction (``I / ½(H_a + H_b)``, the table's NMI; NMI, purity and inverse
    purity are the same either way).

    ``squares`` (R, cells): a resample's ``Σ m²`` over the original items of each cell, ``m`` the number of copies
    of an item in it (``masses`` is ``Σ m``). The pair counts then count only pairs of two distinct original items —
    an item's copies never pair with each other: ``N₁₁ = Σ (w² − q)/2``, and so on for the cluster sizes and ``N``
    (:func:`pair_counts`). Without it each unit of mass is one item (``q = w``). The mutual information, NMI, purity
    and inverse purity do not count pairs and ignore it.

    >>> r = partition_cells_batch([[5, 1, 1, 5]], [0, 0, 1, 1], [0, 1, 0, 1], (2, 2), ["adjusted_rand_index"])
    >>> round(float(r["adjusted_rand_index"][0]), 4)
    0.3889
    """
    ids = list(metrics or PARTITION_METRICS)
    w = np.atleast_2d(np.asarray(masses, dtype=np.float64))
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    ka, kb = int(shape[0]), int(shape[1])
    R = w.shape[0]
    a, b = _sums(w, rows, ka), _sums(w, cols, kb)
    n = w.sum(axis=1)
    two_sides = ((a > 0).sum(1) >= 2) & ((b > 0).sum(1) >= 2)
    if population:
        n11, pa, pb, pn = (w * w).sum(1) / 2, (a * a).sum(1) / 2, (b * b).sum(1) / 2, n * n / 2
    elif squares is not None:
        n11, pa, pb, pn = pair_counts(w, np.atleast_2d(np.asarray(squares, dtype=np.float64)), rows, cols, (ka, kb))
    else:
        n11, pa, pb, pn = _pairs(w).sum(1), _pairs(a).sum(1), _pairs(b).sum(1), _pairs(n)
    out = pair_count_indices(n11, pa, pb, pn, [m for m in ids if m not in _NOT_PAIR_COUNTING])
    out = {m: np.where(two_sides, v, np.nan) for m, v in out.items()}
    if "purity" in ids:  # a share of the items, the same for the table and the distribution of its shares
        out["purity"] = np.where(two_sides, _purity(w, cols, n), np.nan)
    if "inverse_purity" in ids:  # purity with the partitions' roles exchanged: every row's largest cell
        out["inverse_purity"] = np.where(two_sides, _purity(w, rows, n), np.nan)
    if {"adjusted_mutual_info", "normalized_mutual_info"} & set(ids):
        mi, norm = _mutual_info(w, rows, cols, a, b, n), 0.5 * (_entropy(a, n) + _entropy(b, n))
        # NMI is a function of the table's shares: the table's value is also that of the distribution of its shares
        nmi = _normalized_mutual_info(mi, norm, two_sides)
        if "normalized_mutual_info" in ids:
            out["normalized_mutual_info"] = nmi
        if "adjusted_mutual_info" in ids:
            if population:  # the mutual information of the shares, without chance correction: their NMI
                out["adjusted_mutual_info"] = nmi
            else:
                emi = np.zeros(R)
                if two_sides.any():
                    emi[two_sides] = _expected_mutual_info(a[two_sides], b[two_sides], n[two_sides])
                with np.errstate(invalid="ignore", divide="ignore"):
                    den = norm - emi
                    eps = np.finfo(float).eps
                    den = np.where(den < 0, np.minimum(den, -eps), np.maximum(den, eps))  # scikit-learn's guard
                    out["adjusted_mutual_info"] = np.where(two_sides, (mi - emi) / den, np.nan)
    return {m: out[m] for m in ids}


def partition_metrics(counts: Any, metrics: Sequence[str] | None = None) -> dict[str, float]:
    """The partition indices of a contingency table (or a confusion matrix of cluster ids).

    >>> r = partition_metrics([[5, 1], [1, 5]])
    >>> round(r["adjusted_rand_index"], 4), round(r["pair_correlation"], 4)
    (0.3889, 0.3889)
    """
    ids = list(metrics or PARTITION_METRICS)
    bad = [m for m in ids if m not in PARTITION_INDICES]
    if bad:
        raise InputError(f"{bad[0]!r} is not a partition metric; they are {', '.join(PARTITION_INDICES)}.")
    c = contingency_table(counts)
    a, b = c.sum(1), c.sum(0)
    pa, pb, pn = _pairs(a).sum(), _pairs(b).sum(), float(_pairs(np.float64(c.sum())))
    if (pa == 0 or pb == 0) and {"pair_correlation", "pair_correlation_distance"} & set(ids):
        side = "y_true" if pa == 0 else "y_pred"
        raise InputError(f"the partition in {side} puts every item in a cluster of its own, so no pair of items is "
                         "together and the pair-counting correlation coefficient is undefined; compare partitions with at least one "
                         "cluster of two or more items each.")
    r, col = np.nonzero(c)
    out = partition_cells_batch(c[r, col][None], r, col, c.shape, ids)
    return {m: float(out[m][0]) for m in ids}


def cluster_sizes(table: PartitionTable) -> dict[str, dict[str, float]]:
    """How many clusters each side has and how large they are: ``{"true" | "predicted": {"clusters", "largest",
    "median", "smallest", "singletons", "largest_share"}}`` (y_true's partition, y_pred's).

    >>> cluster_sizes(partition_table([[3, 0], [1, 2]]))["predicted"]["largest"]
    4.0
    """
    out = {}
    for side, sizes in (("true", table.counts.sum(1)), ("predicted", table.counts.sum(0))):
        s = np.sort(np.asarray(sizes, dtype=np.float64))
        out[side] = {"clusters": int(s.size), "largest": float(s[-1]), "median": float(np.median(s)),
                     "smallest": float(s[0]), "singletons": int(np.sum(s == 1)),
                     "largest_share": float(s[-1] / s.sum())}
    return out
