"""Item-level resampling for tables with many non-zero cells per item.

The bootstrap draws ``Multinomial(n, C/n)`` over the non-zero cells (:mod:`advisor.stats._bootstrap`),
which costs one binomial draw per cell and resample. When a table has almost as many non-zero cells
as items — a thousand classes and fifty thousand items, or a paired joint table — drawing the ``n``
items themselves is cheaper: ``n`` uniform integers, then one ``np.bincount`` into the cells. Both
are the same distribution (the multinomial *is* the tabulated item bootstrap); only the random
stream differs, so this path is used where it is clearly faster, or when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from .._exceptions import InputError

__all__ = ["CLASS_DESIGNS", "DRAWS", "CellStrata", "ClassKeeper", "ItemStrata", "chance_all_kept", "check_classes",
           "class_design", "items_of", "iter_item_resamples", "use_items"]

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
    rng: np.random.Generator, item_table: np.ndarray, sizes: Sequence[int], n_resamples: int, size: int,
    strata: ItemStrata | None = None, keeper: ClassKeeper | None = None,
) -> Iterator[tuple[int, list[np.ndarray]]]:
    """Yield ``(start, [masses, ...])``: per resample ``n`` items drawn with replacement (one draw of
    ``rng.integers(0, n, n)``), tabulated into each of the tables whose columns ``item_table`` holds
    (``item_table[i, t]`` = cell of item ``i`` in table ``t``, which has ``sizes[t]`` cells; shape
    ``(n, tables)``, ``intp``); each ``masses`` has shape (chunk, sizes[t]), integer. A paired
    bootstrap maps the same items into every system's table. With ``strata`` the items are drawn within
    their true class (:class:`ItemStrata`); with ``keeper`` a resample that lacks a class is drawn again
    (:class:`ClassKeeper`, its units the items).

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
            idx = rng.integers(0, n, n, dtype=np.intp) if strata is None else strata.draw(rng)
            if keeper is not None:
                idx = keeper.keep_items(idx, n)
            counts = np.bincount(np.take(item_table, idx[:block], axis=0).ravel(), minlength=total)
            for lo in range(block, n, block):
                counts += np.bincount(np.take(item_table, idx[lo : lo + block], axis=0).ravel(), minlength=total)
            for out, lo, hi in zip(outs, offsets[:-1], offsets[1:]):
                out[r] = counts[lo:hi]
        yield start, outs


# Cells of all tables gathered at once for one resample (8 MB of indices); larger draws go by blocks.
_GATHER_CELLS = 1 << 20


# ----------------------------------------------------------------------------------------------
# Resamples that keep every true class
# ----------------------------------------------------------------------------------------------
#: How a bootstrap of items treats the true classes (``classes=``):
#: ``"kept"`` — each resample draws the ``n`` items as the plain bootstrap does (so a class's count varies as in a
#: random test split), and a resample that lacks a class of the test set is drawn again;
#: ``"fixed"`` — each class's items are drawn among themselves (the stratified bootstrap, Davison & Hinkley 1997,
#: §3.2), every resample holding exactly the test set's count of each class, as in a test set sampled per class;
#: ``"free"`` — the plain bootstrap, whose resamples can lack a rare class.
CLASS_DESIGNS = ("kept", "fixed", "free")

#: "kept" redraws a resample that lacks a class; below this chance that a resample holds every class of the test set
#: (many rare classes, so that many redraws would be needed and the condition would shape the resamples), each
#: class's count is fixed instead.
MIN_KEPT_CHANCE = 0.5


def check_classes(classes: str) -> str:
    """``classes`` itself, or a one-sentence :class:`InputError`."""
    if classes not in CLASS_DESIGNS:
        raise InputError(f"classes must be one of {', '.join(CLASS_DESIGNS)}; got {classes!r}.")
    return classes


def chance_all_kept(counts: np.ndarray) -> float:
    """The chance that ``n`` items drawn with replacement hold every class of ``counts`` (its class sizes), by the
    product of each class's chance of being drawn at least once (close for the few rare classes that matter).

    >>> round(chance_all_kept(np.array([405, 7])), 4)  # a class of 7 among 412: e^-7 of the resamples lack it
    0.9991
    """
    c = np.asarray(counts, dtype=np.float64)
    c = c[c > 0]
    n = float(c.sum())
    if n <= 0:
        return 1.0
    return float(np.prod(-np.expm1(n * np.log1p(-np.minimum(c / n, 1.0)))))


def class_design(counts: np.ndarray, classes: str) -> str:
    """The design a resampling carries out: ``classes``, except "kept" becomes "fixed" where fewer than
    :data:`MIN_KEPT_CHANCE` of plain resamples would hold every class, and both become "free" where no resample
    could lack a class (a single class)."""
    check_classes(classes)
    present = int(np.count_nonzero(np.asarray(counts) > 0))
    if classes == "free" or present < 2:
        return "free" if present < 2 else classes
    if classes == "kept" and chance_all_kept(counts) < MIN_KEPT_CHANCE:
        return "fixed"
    return classes


class ClassKeeper:
    """Draws again, from a generator of its own, each resample that lacks a class of the test set ("kept").

    The resamples are the plain bootstrap's, from the caller's generator: where no resample lacks a class they are
    exactly those of ``classes="free"``, and the rest keep their place in the stream. A lacking resample is
    replaced by the next draw of a generator spawned from the caller's (spawning consumes nothing of its stream)
    that holds every class; the replacements come in the order of the resamples, so nothing depends on the
    chunk size. ``redrawn`` counts the resamples replaced.
    """

    def __init__(self, rng: np.random.Generator, unit_class: np.ndarray, k: int, masses: np.ndarray | None = None
                 ) -> None:
        self.side = rng.spawn(1)[0]
        self.unit_class = np.asarray(unit_class, dtype=np.intp).reshape(-1)
        self.k = int(k)
        # the classes of the test set: those with some mass (a cell of mass 0 is drawn over but holds nobody)
        mass = np.ones(self.unit_class.shape[0]) if masses is None else np.asarray(masses, dtype=np.float64)
        totals = np.bincount(self.unit_class, weights=mass, minlength=self.k)
        self.classes = np.flatnonzero(totals > 0)
        # no resample can be expected to lack a class (each misses with a chance below 10^-16): nothing to check
        self.idle = chance_all_kept(totals) >= 1.0
        held = np.isin(self.unit_class, self.classes)
        self.order = np.flatnonzero(held)[np.argsort(self.unit_class[held], kind="stable")]
        sorted_class = self.unit_class[self.order]
        self.starts = np.flatnonzero(np.r_[True, sorted_class[1:] != sorted_class[:-1]])
        self.redrawn = 0
        self.lacked = np.zeros(self.k, dtype=np.int64)  # per class: the resamples drawn again that lacked it

    def lacking_masses(self, masses: np.ndarray) -> np.ndarray:
        """Which resamples (rows of masses over the units, each unit of one class) lack a class."""
        totals = np.add.reduceat(np.asarray(masses)[:, self.order], self.starts, axis=1)
        return np.asarray((totals <= 0).any(axis=1))

    def lacking_items(self, idx: np.ndarray) -> bool:
        """Whether drawn unit indices (one resample) lack a class."""
        return bool(np.bincount(self.unit_class[idx], minlength=self.k)[self.classes].min() <= 0)

    def keep_masses(self, masses: np.ndarray, draw: Callable[[np.random.Generator], np.ndarray]) -> np.ndarray:
        """``masses`` with each lacking row replaced by the first ``draw(side generator)`` that lacks none."""
        if self.idle:
            return masses
        totals = np.add.reduceat(np.asarray(masses)[:, self.order], self.starts, axis=1)
        for r in np.flatnonzero((totals <= 0).any(axis=1)):
            self.lacked[self.classes[totals[r] <= 0]] += 1
            while True:
                new = draw(self.side)
                if not self.lacking_masses(new[None, :])[0]:
                    break
            masses[r] = new
            self.redrawn += 1
        return masses

    def keep_items(self, idx: np.ndarray, n: int) -> np.ndarray:
        """One resample's drawn item indices, drawn again (``n`` of ``n``) while they lack a class."""
        if self.idle:
            return idx
        held = np.bincount(self.unit_class[idx], minlength=self.k)[self.classes]
        if held.min() > 0:
            return idx
        self.lacked[self.classes[held <= 0]] += 1
        self.redrawn += 1
        while True:
            idx = self.side.integers(0, n, n, dtype=np.intp)
            if not self.lacking_items(idx):
                return idx


class CellStrata:
    """The cells of a table grouped by their true class, for the bootstrap within classes ("fixed"): a class's
    cells drawn as ``Multinomial(n_c, C_c / n_c)``, which is exactly the item bootstrap of that class's ``n_c``
    items, so every resample keeps each class's count (Davison & Hinkley 1997, §3.2). Each class draws from a
    generator of its own, spawned from the caller's, so the draws do not depend on the chunk size. Non-integer
    masses: ``round`` of the class's mass trials (at least one), scaled back to the class's mass, as
    :func:`advisor.stats._bootstrap.iter_resamples` does for the whole table.
    """

    def __init__(self, classes: np.ndarray, masses: np.ndarray) -> None:
        classes = np.asarray(classes, dtype=np.int64).reshape(-1)
        masses = np.asarray(masses, dtype=np.float64).reshape(-1)
        self.size = int(masses.shape[0])
        self.groups: list[tuple[np.ndarray, int, np.ndarray, float]] = []
        for c in np.unique(classes):
            idx = np.flatnonzero((classes == c) & (masses > 0))
            total = float(masses[idx].sum())
            if idx.size == 0 or not total > 0:
                continue
            trials = max(1, int(round(total)))
            p = masses[idx] / total
            self.groups.append((idx, trials, p / p.sum(), total / trials))
        self.whole = all(scale == 1.0 for _, _, _, scale in self.groups)

    def iter_resamples(self, rng: np.random.Generator, n_resamples: int, size: int
                       ) -> Iterator[tuple[int, np.ndarray]]:
        """Yield ``(start, masses)`` with ``masses`` of shape (chunk, cells): integers for whole counts."""
        gens = rng.spawn(len(self.groups))
        for start in range(0, n_resamples, size):
            rows = min(size, n_resamples - start)
            out = np.zeros((rows, self.size), dtype=np.int64 if self.whole else np.float64)
            for g, (idx, trials, p, scale) in zip(gens, self.groups):
                if idx.size == 1:  # a class in one cell keeps it whole: nothing to draw
                    out[:, idx[0]] = trials if self.whole else trials * scale
                    continue
                draw = g.multinomial(trials, p, size=rows)
                out[:, idx] = draw if self.whole else draw * scale
            yield start, out


class ItemStrata:
    """Positions for drawing items within their true class ("fixed"): ``n_c`` of the ``n_c`` items of class ``c``,
    with replacement, from one vector of uniforms per resample (so the draws do not depend on the chunk size).

    >>> y = np.array([1, 0, 1, 1, 0])
    >>> idx = ItemStrata(y).draw(np.random.default_rng(0))
    >>> sorted(y[idx].tolist())
    [0, 0, 1, 1, 1]
    """

    def __init__(self, item_class: np.ndarray) -> None:
        cls = np.asarray(item_class).reshape(-1)
        self.order = np.argsort(cls, kind="stable").astype(np.intp)
        _, first, sizes = np.unique(cls[self.order], return_index=True, return_counts=True)
        self.base = np.repeat(first, sizes).astype(np.intp)
        self.sizes = np.repeat(sizes, sizes).astype(np.float64)
        self.last = np.repeat(sizes - 1, sizes).astype(np.intp)

    def draw(self, rng: np.random.Generator, rows: int | None = None) -> np.ndarray:
        """Drawn item indices, shape (n,) or (rows, n)."""
        n = self.order.shape[0]
        u = rng.random(n if rows is None else (rows, n))
        return self.order[self.base + np.minimum((u * self.sizes).astype(np.intp), self.last)]
