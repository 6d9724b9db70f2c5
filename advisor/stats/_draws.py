"""Item-level resampling for tables with many non-zero cells per item.

The bootstrap draws ``Multinomial(n, C/n)`` over the non-zero cells (:mod:`advisor.stats._bootstrap`),
which costs one binomial draw per cell and resample. When a table has almost as many non-zero cells
as items — a thousand classes and fifty thousand items, or a paired joint table — drawing the ``n``
items themselves is cheaper: ``n`` uniform integers, then one ``np.bincount`` into the cells. Both
are the same distribution (the multinomial *is* the tabulated item bootstrap); only the random
stream differs, so this path is used where it is clearly faster, or when asked for.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from .._exceptions import InputError

__all__ = ["DRAWS", "items_of", "iter_item_resamples", "use_items"]

DRAWS = ("auto", "cells", "items")

# One binomial draw of the multinomial costs about as much as this many item draws (measured:
# ~80 ns a cell against ~10 ns an item for integers + gather + bincount).
_ITEMS_PER_CELL = 8
# Below this many items the choice does not matter; the cell draw keeps its long-standing stream.
_MIN_ITEMS = 10_000


def use_items(masses: np.ndarray, draw: str) -> bool:
    """Whether to resample items rather than cells (``draw`` is "auto", "cells" or "items").

    Items need whole-number masses; "auto" takes them when they are at least ``_MIN_ITEMS`` and fewer
    than ``_ITEMS_PER_CELL`` per non-zero cell.
    """
    if draw not in DRAWS:
        raise InputError(f"draw must be one of {', '.join(DRAWS)}; got {draw!r}.")
    if draw == "cells":
        return False
    whole = bool(np.all(masses == np.floor(masses)))
    if draw == "items":
        if not whole:
            raise InputError("draw='items' needs whole-number counts; weighted counts are resampled by cells.")
        return True
    n = float(masses.sum())
    cells = int(np.count_nonzero(masses))
    return whole and n >= _MIN_ITEMS and n <= _ITEMS_PER_CELL * cells


def items_of(masses: np.ndarray) -> np.ndarray:
    """The cell index of every item of a whole-number table (``n`` entries, cells in order)."""
    return np.repeat(np.arange(masses.shape[0], dtype=np.intp), masses.astype(np.int64))


def iter_item_resamples(
    rng: np.random.Generator, item_table: np.ndarray, sizes: Sequence[int], n_resamples: int, size: int
) -> Iterator[tuple[int, list[np.ndarray]]]:
    """Yield ``(start, [masses, ...])``: per resample ``n`` items drawn with replacement (one draw of
    ``rng.integers(0, n, n)``), tabulated into each of the tables whose columns ``item_table`` holds
    (``item_table[i, t]`` = cell of item ``i`` in table ``t``, which has ``sizes[t]`` cells; shape
    ``(n, tables)``, ``intp``); each ``masses`` has shape (chunk, sizes[t]), integer. A paired
    bootstrap maps the same items into every system's table.

    The draws take the table over: each table's cells are offset in place after the previous tables'
    ones, so that a single gather fetches all of an item's cells at once (one random access instead
    of one per table) and a single bincount tabulates every table. Memory is the table, one index
    vector, a block of gathered cells and the chunk.
    """
    n = int(item_table.shape[0])
    offsets = np.concatenate(([0], np.cumsum(sizes, dtype=np.int64)))
    item_table += offsets[:-1].astype(np.intp)
    total = int(offsets[-1])
    block = max(1, _GATHER_CELLS // len(sizes))  # items gathered at once: ~_GATHER_CELLS cells
    for start in range(0, n_resamples, size):
        rows = min(size, n_resamples - start)
        outs = [np.empty((rows, c), dtype=np.int64) for c in sizes]  # contiguous: later gathers are faster
        for r in range(rows):
            # pointer-sized indices gather fastest; below 2³² numpy draws them from the same 32-bit
            # stream as a 32-bit request would, so the resamples do not depend on the width asked for
            idx = rng.integers(0, n, n, dtype=np.intp)
            counts = np.bincount(np.take(item_table, idx[:block], axis=0).ravel(), minlength=total)
            for lo in range(block, n, block):
                counts += np.bincount(np.take(item_table, idx[lo : lo + block], axis=0).ravel(), minlength=total)
            for out, lo, hi in zip(outs, offsets[:-1], offsets[1:]):
                out[r] = counts[lo:hi]
        yield start, outs


# Cells of all tables gathered at once for one resample (8 MB of indices); larger draws go by blocks.
_GATHER_CELLS = 1 << 20
