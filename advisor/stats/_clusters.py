r"""Resampling groups of items — patients, documents, queries — instead of items (issue 20 item 3).

Several recordings of one patient, sentences of one document or nodes of one graph are not independent:
resampling them one by one treats a patient with ten recordings as ten independent cases and makes the
intervals too narrow. The cluster bootstrap (Davison & Hinkley 1997, §3.8; Field & Welsh 2007) draws
``G`` of the ``G`` groups with replacement and keeps every item of a drawn group.

The joint table is counted per group (:attr:`advisor.io.PredictionSet.groups`: the group of each row,
a combination of labels met in several groups having one row per group), so a resample is the table's
counts times each row's group multiplicity — ``O(rows)`` per resample, whatever the number of items
(10⁶ items in 10⁴ groups: a few ten thousand rows). BCa's jackknife deletes one group at a time (up to
1,000 groups), or 200 random sets of groups above (:mod:`._jackknife`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from .._exceptions import InputError

__all__ = ["check_groups", "group_weights", "item_weights", "iter_cluster_resamples"]


def check_groups(groups: Any, rows: int, counts: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """``(group index per row, number of groups)``; one sentence when they cannot be resampled."""
    g = np.asarray(groups)
    if g.ndim != 1 or g.shape[0] != rows:
        raise InputError(f"groups must give one group per row of the table ({rows}); got shape {g.shape}.")
    uniq, idx = np.unique(g, return_inverse=True)
    if uniq.shape[0] < 2:
        raise InputError("every item is in one group; resampling groups needs at least two.")
    if counts is not None:
        sizes = np.bincount(idx, weights=np.asarray(counts, dtype=np.float64), minlength=uniq.shape[0])
        if np.all(sizes <= 1):
            raise InputError("every group holds a single item, so resampling groups is resampling items; group "
                             "several items (a patient, a document) or resample items.")
    return idx.astype(np.intp), int(uniq.shape[0])


def group_weights(rng: np.random.Generator, n_groups: int, rows: int) -> np.ndarray:
    """Multiplicities of ``n_groups`` groups drawn with replacement, ``rows`` resamples (rows, groups)."""
    return rng.multinomial(n_groups, np.full(n_groups, 1.0 / n_groups), size=rows)


def item_weights(rng: np.random.Generator, n: int, rows: int, groups: np.ndarray | None = None) -> np.ndarray:
    """Bootstrap multiplicities of ``n`` items, ``rows`` resamples (rows, n), as floats: the items drawn with
    replacement, or with ``groups`` (each item's group index, 0 … G − 1) whole groups, each item weighing its
    group's multiplicity.

    >>> item_weights(np.random.default_rng(0), 4, 2).sum(axis=1).tolist()
    [4.0, 4.0]
    >>> w = item_weights(np.random.default_rng(0), 4, 3, np.array([0, 0, 1, 1]))
    >>> bool((w[:, 0] == w[:, 1]).all() and (w[:, 2] == w[:, 3]).all())
    True
    """
    if groups is None:
        return rng.multinomial(n, np.full(n, 1.0 / n), size=rows).astype(np.float64)
    return group_weights(rng, int(groups.max()) + 1, rows)[:, groups].astype(np.float64)


def iter_cluster_resamples(rng: np.random.Generator, counts: np.ndarray, groups: np.ndarray, n_groups: int,
                           n_resamples: int, size: int) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(start, masses)``: the table's counts times the multiplicity of each row's group."""
    base = np.asarray(counts)
    whole = bool(np.all(base == np.round(base)))
    base = base.astype(np.int64) if whole else base.astype(np.float64)
    for start in range(0, n_resamples, size):
        rows = min(size, n_resamples - start)
        m = group_weights(rng, n_groups, rows)
        yield start, base[None, :] * m[:, groups]
