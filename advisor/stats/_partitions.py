r"""Intervals for the partition indices — the pair-counting correlation coefficient (CC), its correlation distance
and ARI; AMI, NMI, purity and inverse purity get their estimate alone (issue 23, item 3).

**Why the usual bootstrap is wrong here.** A bootstrap resample draws the items with replacement, so about a quarter
of the items appear two or more times. An item and its copy form a pair that both partitions put together: the
resample's pair-counting agreement is inflated, and its adjusted mutual information too (the copies make the
table's shares look more concentrated than the items are). The resampled values then sit above the estimate — for
ARI at 60 moderately related items by 0.17 of their standard deviation — so the percentile interval covers the
population's value less often than it says (0.88–0.96 for a 95 % interval in
``benchmarks/bench_partition_intervals.py``), and BCa, whose bias correction reads that shift as a bias of the
*estimate*, moves the interval the other way by as much (0.60–0.81 for weakly related or independent partitions).

**What advisor does.** *Pair-counting indices* (:data:`PAIR_DISTINCT`): a resample counts only pairs of two
distinct original items — the pairs an item forms with its own copies are left out (``N₁₁ = Σ (w² − q)/2`` with
``w`` a cell's copies and ``q`` their ``Σ m²``, :func:`advisor.engine.partition_cells_batch` with ``squares``).
Each pair of distinct items then enters a resample with the same expected weight, so the resampled pair counts
centre on the test set's and the interval is BCa on the resamples as they are (the rule of every advisor interval,
:mod:`._intervals`). Items are drawn one by one (their multiplicities, not only each cell's total), which costs one
draw per item and resample; a group drawn ``m`` times gives each of its items ``m`` copies.
*The mutual-information indices* (:data:`NO_INTERVAL`: AMI, and NMI when reported) count no pairs, so nothing
can be left out, and copies inflate them: their resamples sit near the index of the test set's shares, above AMI's
estimate. They get their estimate alone — no interval and no paired test — because nothing measured covers at the
stated rate below a few hundred items (``benchmarks/README.md``): BCa on the resamples, advisor's earlier recentring
``θ̂ + (θ̂* − θ(F̂))`` (``θ(F̂)`` the table's NMI, kept as ``_errors(recentre=…)`` for the benchmark) and m-out-of-n
subsampling without replacement (:mod:`._partition_subsamples`, Politis & Romano 1994, at m = n/2 and n/4, with the
rate ``√(m/n)`` alone or with the finite-population factor) covered 0.56–0.85 where the partitions agree well on 60
and 200 items; the jackknife normal interval, 0.81–0.89 there at up to 46 % more width. Every BCa acceleration comes from a jackknife that deletes each
resampled unit once (an item of a non-zero cell, or a group; :mod:`._jackknife`), which no copy enters. An interval
that would not contain its estimate is not given, as everywhere.
*Purity and inverse purity* (also :data:`NO_INTERVAL`) are means of per-cluster maxima, not pair counts: a sample's
largest cell of each cluster overstates the population's (the maximum of noisy counts), most where two cells of a
cluster are close. BCa on the item bootstrap covered purity 0.82–0.96 and inverse purity 0.85–0.96 at 60 and 200
items where the partitions are related, and inverse purity 0.56 for independent partitions with equal clusters on
one side (``benchmarks/README.md``, ``--purity``); only at 1,000 items did both reach 0.95. So they too get their
estimate alone, no interval and no paired test.

Measured (``benchmarks/README.md``, the same test sets and resamples for every method): the pair-distinct
resamples cover at least as well as the earlier recentring of every index, ``θ̂ + θ̂* − θ(F̂)`` with ``θ(F̂)``
the index of pairs drawn with replacement, in every row (0.94–0.98 against 0.91–0.97 from 20 to 1,000 items,
0.93–0.945 for 40 groups), and are a little wider. Where the two partitions are independent the indices are
(nearly) degenerate U-statistics (their error shrinks faster than 1/√n) and every bootstrap over-covers.

**Resampled unit.** Items, or — with a group column (``--group``) — whole groups of items (documents of one
source, recordings of one patient): the cluster bootstrap of :mod:`._clusters`, its rows the distinct (reference
cluster, each clustering's cluster, group) combinations. Several clusterings of the same items share every
resample (a paired comparison); contingency tables given alone are resampled by their cells.

**Too few units.** With fewer than :data:`MIN_UNITS` resampled items (or groups) no interval is computed: many
resamples then lose a cluster, and the resampled distribution is a handful of values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

from .._exceptions import InputError
from ..engine import PARTITION_INDICES, PARTITION_METRICS, STRUCTURE_METRICS, PartitionRows, partition_cells_batch
from ._bootstrap import check_arguments, pick_seed
from ._bounds import bounds_of
from ._clusters import iter_cluster_resamples
from ._compare_models import Comparison
from ._intervals import resampled_intervals
from ._jackknife import acceleration, leave_out_values
from ._paired import PairedInputs, summarise
from ._ranks import ranking_agreement

__all__ = ["MIN_UNITS", "NO_INTERVAL", "PAIR_DISTINCT", "partition_comparison", "partition_intervals",
           "partition_resamples"]

#: The pair-counting indices: a resample's pair counts leave out the pairs an item forms with its own copies, and
#: the interval is BCa on those resamples as they are (see the module's text).
PAIR_DISTINCT = ("pair_correlation", "pair_correlation_distance", "adjusted_rand_index")
#: The indices given without an interval or a paired test: the mutual-information indices, for which no resampling
#: measured (the bootstrap, recentred or not, and m-out-of-n subsampling) covers at the stated rate below a few hundred
#: items, and purity and inverse purity, whose BCa intervals on the item bootstrap did not either (see the module's
#: text and ``benchmarks/README.md``).
NO_INTERVAL = ("adjusted_mutual_info", "normalized_mutual_info", "purity", "inverse_purity")
#: Why, in the record of each such index.
_MI_REASON = ("no resampling measured gives the mutual-information indices intervals that cover at the stated rate on "
              "small test sets (benchmarks/bench_partition_intervals.py)")
_PURITY_REASON = ("the bootstrap intervals of purity and inverse purity did not cover at the stated rate on test sets "
                  "of up to a few hundred items (benchmarks/bench_partition_intervals.py --purity)")
NO_INTERVAL_REASON = {"adjusted_mutual_info": _MI_REASON, "normalized_mutual_info": _MI_REASON,
                      "purity": _PURITY_REASON, "inverse_purity": _PURITY_REASON}
#: advisor's earlier reading of AMI's resamples, against the test set's own NMI: kept for the benchmark
_RECENTRED = ("adjusted_mutual_info",)

#: The fewest resampled units (items, or groups) an interval of a partition index is computed from.
MIN_UNITS = 20

_CHUNK = 4_000_000  # resamples × rows (and resamples × cells) materialised at once

Progress = Callable[[int, int], None]


class _System:
    """One clustering's cells: the map from rows to its contingency table's non-zero cells."""

    def __init__(self, rows: PartitionRows, name: str) -> None:
        cell, self.r, self.c, self.shape = rows.cells(name)
        self.onehot = csr_matrix((np.ones(cell.size), (np.arange(cell.size), cell)), shape=(cell.size, self.r.size))

    def cell_masses(self, masses: np.ndarray) -> np.ndarray:
        return np.asarray((self.onehot.T @ np.atleast_2d(masses).T).T)

    def evaluate(self, masses: np.ndarray, ids: Sequence[str], population: bool = False,
                 squares: np.ndarray | None = None) -> np.ndarray:
        """``(batch, ids)``: the indices of a batch of row masses; with ``squares`` (each row's ``Σ m²`` over its
        original items, ``m`` an item's copies) the pair-counting indices count only pairs of distinct items."""
        sq = None if squares is None else self.cell_masses(squares)
        vals = partition_cells_batch(self.cell_masses(masses), self.r, self.c, self.shape, ids, population=population,
                                     squares=sq)
        return np.column_stack([vals[m] for m in ids])


def _check(rows: PartitionRows, ids: Sequence[str], n_resamples: int, confidence: float) -> list[str]:
    check_arguments(n_resamples, confidence)
    ids = list(ids)
    bad = [m for m in ids if m not in PARTITION_INDICES]
    if bad:
        raise InputError(f"metrics lists {bad[0]!r}, which is not a partition index; they are "
                         f"{', '.join(PARTITION_INDICES)}.")
    counts = np.asarray(rows.counts, dtype=np.float64)
    if rows.groups is None and np.any(np.abs(counts - np.round(counts)) > 1e-9):
        raise InputError("a partition's item counts must be whole numbers to resample items; got fractional counts.")
    units = rows.units
    if units < MIN_UNITS:
        what = f"groups (column {rows.group_col!r})" if rows.groups is not None else "items"
        raise InputError(f"an interval for a partition index needs at least {MIN_UNITS} resampled {what}; got "
                         f"{units:,} — compare larger samples, or leave out the intervals (--bootstrap, n_resamples).")
    return ids


def _item_copies(multiplicity: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(Σ m, Σ m²)`` per row, each ``(resamples, rows)``: ``multiplicity`` (resamples, items) the copies of each
    original item in a resample, the items in row order, ``counts[r]`` of them in row ``r``.

    >>> s, q = _item_copies(np.array([[2, 0, 1, 1]]), np.array([3., 1.]))
    >>> s.tolist(), q.tolist()
    ([[3.0, 1.0]], [[5.0, 1.0]])
    """
    m = np.asarray(multiplicity, dtype=np.float64)
    c = np.asarray(counts).astype(np.int64)
    s, q = np.zeros((m.shape[0], c.size)), np.zeros((m.shape[0], c.size))
    full = np.flatnonzero(c > 0)
    if full.size:
        starts = np.concatenate([[0], np.cumsum(c)[:-1]])[full]
        s[:, full], q[:, full] = np.add.reduceat(m, starts, axis=1), np.add.reduceat(m * m, starts, axis=1)
    return s, q


def _masses(rows: PartitionRows, n_resamples: int, rng: np.random.Generator, progress: Progress | None
            ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Chunks ``(start, masses, squares)``, each ``(chunk, rows)``: the copies of each row's items in a resample and
    their ``Σ m²`` over its original items (``m`` an item's copies), which the pair counts need to leave out the
    pairs of an item with its own copies. Items are drawn one by one (their multiplicities, not only each row's
    total); a group's items all have the group's multiplicity."""
    counts = np.asarray(rows.counts, dtype=np.float64)
    if rows.groups is not None:
        size = max(1, _CHUNK // max(counts.size, 1))
        for start, m in iter_cluster_resamples(rng, counts, np.asarray(rows.groups), int(rows.n_groups),
                                               n_resamples, size):
            w = np.asarray(m, dtype=np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                yield start, w, np.where(counts > 0, w * w / np.where(counts > 0, counts, 1.0), 0.0)
            if progress is not None:
                progress(min(start + w.shape[0], n_resamples), n_resamples)
        return
    n = int(round(counts.sum()))
    size = max(1, _CHUNK // max(n, 1))
    for start in range(0, n_resamples, size):
        k = min(size, n_resamples - start)
        draws = rng.integers(0, n, size=(k, n)) + (np.arange(k) * n)[:, None]
        w, q = _item_copies(np.bincount(draws.reshape(-1), minlength=k * n).reshape(k, n), counts)
        yield start, w, q
        if progress is not None:
            progress(start + k, n_resamples)


def partition_resamples(rows: PartitionRows, metrics: Sequence[str] | None = None, *, n_resamples: int = 2000,
                        seed: Any = None, progress: Progress | None = None) -> dict[str, np.ndarray]:
    """``{system: (n_resamples, metrics)}``: each resample's indices ``θ̂*``, every system on the same resamples.
    The pair-counting indices count only pairs of two distinct original items (an item's copies never pair with
    each other); the mutual information indices, purity and inverse purity count an item drawn twice as two items."""
    return _resample_values(rows, list(metrics or PARTITION_METRICS), n_resamples, seed, progress)


def _resample_values(rows: PartitionRows, ids: list[str], n_resamples: int, seed: Any, progress: Progress | None,
                     self_pairs: bool = False) -> dict[str, np.ndarray]:
    """:func:`partition_resamples`; ``self_pairs=True`` counts the pairs of an item with its own copies too (the
    resamples of advisor's earlier method, kept for ``benchmarks/bench_partition_intervals.py``)."""
    systems = {s: _System(rows, s) for s in rows.pred}
    out = {s: np.empty((n_resamples, len(ids))) for s in systems}
    for start, m, q in _masses(rows, n_resamples, np.random.default_rng(seed), progress):
        for s, sy in systems.items():
            out[s][start:start + m.shape[0]] = sy.evaluate(m, ids, squares=None if self_pairs else q)
    return out


def _errors(rows: PartitionRows, ids: list[str], n_resamples: int, seed: Any, progress: Progress | None,
            recentre: Sequence[str] = ()
            ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """``(estimates, resamples, leave-out values, their weights)`` per system; the leave-out values of all systems
    come from the same deletions. The indices in ``recentre`` (advisor's earlier reading of AMI, :data:`_RECENTRED`,
    kept for the benchmark) are moved to the estimate, ``θ̂ + θ̂* − θ(F̂)``; the others are ``θ̂*`` as drawn."""
    base = np.asarray(rows.counts, dtype=np.float64)[None]
    systems = {s: _System(rows, s) for s in rows.pred}
    point = {s: sy.evaluate(base, ids)[0] for s, sy in systems.items()}
    # θ(F̂): the recentred indices' resamples are read against the table's NMI; every other index as drawn
    population = {s: np.where(np.isin(ids, list(recentre)), sy.evaluate(base, ids, population=True)[0], point[s])
                  for s, sy in systems.items()}
    draws = _resample_values(rows, ids, n_resamples, seed, progress)
    moved = {s: draws[s] - (population[s] - point[s])[None] for s in systems}  # exactly θ̂* where not recentred
    names = list(systems)

    def evaluate(masses: np.ndarray) -> np.ndarray:
        return np.concatenate([systems[s].evaluate(masses, ids) for s in names], axis=1)

    groups = (np.asarray(rows.groups), int(rows.n_groups)) if rows.groups is not None else None
    theta, weights = leave_out_values(base[0], len(ids) * len(names), evaluate, max(1, _CHUNK // max(base.size, 1)),
                                      groups=groups)
    k = len(ids)
    return point, moved, {s: theta[:, j * k:(j + 1) * k] for j, s in enumerate(names)}, \
        {s: weights for s in names}


def partition_intervals(rows: PartitionRows, metrics: Sequence[str] | None = None, *, n_resamples: int = 2000,
                        confidence: float = 0.95, seed: Any = None, progress: Progress | None = None
                        ) -> dict[str, dict[str, dict[str, Any]]]:
    """``{system: {id: {"estimate", "low", "high", "method"[, "reason"]}}}``: BCa intervals of the partition indices
    from the bootstrap of their error (see the module's text), items or groups resampled.

    >>> from advisor.engine import PartitionRows
    >>> t = np.repeat([0, 0, 1, 1, 2], [30, 5, 4, 25, 20]); p = np.repeat([0, 1, 0, 1, 1], [30, 5, 4, 25, 20])
    >>> rows = PartitionRows(true=np.array([0, 0, 1, 1, 2]), pred={"a": np.array([0, 1, 0, 1, 1])},
    ...                      counts=np.array([30., 5., 4., 25., 20.]))
    >>> r = partition_intervals(rows, ["adjusted_rand_index"], n_resamples=500, seed=1)["a"]["adjusted_rand_index"]
    >>> r["low"] < r["estimate"] < r["high"], r["method"]
    (True, 'bca')
    """
    ids = _check(rows, metrics or PARTITION_METRICS, n_resamples, confidence)
    seed = pick_seed(seed)
    drawn = [m for m in ids if m not in NO_INTERVAL]
    out: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in rows.pred}
    if drawn:
        point, moved, theta, weights = _errors(rows, drawn, n_resamples, seed, progress)
        for s in point:
            iv = resampled_intervals(moved[s], point[s], confidence, "auto", acceleration(theta[s], weights[s]),
                                     [bounds_of(m) for m in drawn])
            out[s] = {m: {"estimate": float(point[s][j]), "low": float(iv.low[j]), "high": float(iv.high[j]),
                          "method": iv.methods[j], **({"reason": iv.reasons[j]} if iv.reasons[j] else {})}
                      for j, m in enumerate(drawn)}
    for s, est in _estimates(rows, [m for m in ids if m in NO_INTERVAL]).items():
        out[s].update({m: {"estimate": v, "low": float("nan"), "high": float("nan"), "method": "none",
                           "reason": NO_INTERVAL_REASON[m]} for m, v in est.items()})
    return {s: {m: out[s][m] for m in ids} for s in out}


def _estimates(rows: PartitionRows, ids: list[str]) -> dict[str, dict[str, float]]:
    """``{system: {id: estimate}}`` of the test set itself."""
    if not ids:
        return {}
    base = np.asarray(rows.counts, dtype=np.float64)[None]
    return {s: dict(zip(ids, (float(v) for v in _System(rows, s).evaluate(base, ids)[0]))) for s in rows.pred}


def partition_comparison(rows: PartitionRows, metrics: Sequence[str] | None = None, *, n_resamples: int = 2000,
                         confidence: float = 0.95, seed: Any = None, progress: Progress | None = None) -> Comparison:
    """The paired comparison of two or more clusterings of the same items against the same reference: per index
    each system's interval, every pair's difference (both from the bootstrap of the error, on the same resamples),
    P(a better than b), P(first) and the winners, as :func:`advisor.stats.compare_joint` defines them."""
    ids = _check(rows, metrics or PARTITION_METRICS, n_resamples, confidence)
    names = list(rows.pred)
    if len(names) < 2:
        raise InputError("a comparison needs at least two clusterings of the same items.")
    seed = pick_seed(seed)
    drawn = [m for m in ids if m not in NO_INTERVAL]  # the others: estimates only, no interval and no test
    point, moved, theta, weights = _errors(rows, drawn, n_resamples, seed, progress) if drawn else ({}, {}, {}, {})
    lower = frozenset(m for m in ids if not STRUCTURE_METRICS[m].higher_is_better)
    per_metric = {}
    for j, m in enumerate(drawn):
        th = np.column_stack([theta[s][:, j] for s in names])
        w = weights[names[0]]
        extra = PairedInputs(accel=acceleration(th, w))
        with np.errstate(invalid="ignore"):
            extra.diff_accel = {(a, b): float(acceleration((th[:, a] - th[:, b])[:, None], w)[0])
                                for a in range(len(names)) for b in range(a + 1, len(names))}
        per_metric[m] = summarise(m, names, np.array([point[s][j] for s in names]),
                                  np.column_stack([moved[s][:, j] for s in names]), float(confidence), lower=lower,
                                  extra=extra)
    every = _estimates(rows, ids)
    matrix = np.array([[every[s][m] for s in names] for m in ids], dtype=float)
    return Comparison(systems=names, labels=[], n=rows.n, n_resamples=int(n_resamples), confidence=float(confidence),
                      seed=int(seed), convention="zero", positive_label=None, beta=1.0, metrics=per_metric,
                      ranking_agreement=ranking_agreement(ids, names, matrix, lower), undefined={s: [] for s in names},
                      groups=int(rows.n_groups) if rows.groups is not None else None)
