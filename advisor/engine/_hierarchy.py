"""Hierarchical classification (issue 23, item 4): classes are nodes of a tree (a taxonomy).

A flat metric counts a wrong shelf in the right aisle like a wrong department. Kiritchenko, Matwin, Nock &
Famili (2006) score each item by its *ancestor-augmented* label sets: ``A(c)`` is the class ``c`` and all its
ancestors, the root excluded (every class shares it). Micro-averaged over the items,

* ``hierarchical_precision`` ``hP = Σ_i |A(t_i) ∩ A(p_i)| / Σ_i |A(p_i)|``,
* ``hierarchical_recall`` ``hR = Σ_i |A(t_i) ∩ A(p_i)| / Σ_i |A(t_i)|``,
* ``hierarchical_f1`` ``hF = 2·hP·hR / (hP + hR)``.

Each sum depends only on the pair (true class, predicted class), so the metrics are computed from the
confusion matrix the one reader counts: a cell ``(t, p)`` with ``c`` items contributes ``c·|A(t) ∩ A(p)|``.
Its non-zero cells are what the bootstrap resamples (as for ordinal tables), so no item arrays are needed.

Beside them: the accuracy at each depth (depth 1 = the top categories below the root: is the predicted
class's ancestor at that depth the true one's, over the items whose true class is that deep) and the
distribution of tree distances between the true and the predicted class (the number of edges on the path
between them: ``|A(t)| + |A(p)| − 2·|A(t) ∩ A(p)|``; 0 = correct).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names

__all__ = ["HIERARCHY_METRICS", "HierarchyCells", "Taxonomy", "evaluate_hierarchy_batch", "hierarchy_cells",
           "hierarchy_metrics", "hierarchy_tables", "hierarchy_with_counts", "level_accuracies", "one_depth",
           "taxonomy_from_edges"]

HIERARCHY_METRICS = ("hierarchical_f1", "hierarchical_precision", "hierarchical_recall")


@dataclass(frozen=True)
class Taxonomy:
    """A tree of classes: ``parent[node]`` (None below the root). ``root`` is the explicit root's name, or
    None when the root is implicit (several nodes have no parent)."""

    parent: dict[str, str | None]
    root: str | None = None

    def ancestors(self, node: str) -> tuple[str, ...]:
        """``A(node)``: the node and its ancestors from the top category down, the root excluded."""
        out = []
        cur: str | None = node
        while cur is not None:
            out.append(cur)
            cur = self.parent[cur]
        return tuple(reversed(out))

    @property
    def depth(self) -> int:
        """The depth of the deepest node (top categories have depth 1)."""
        return max((len(self.ancestors(n)) for n in self.parent), default=0)


def taxonomy_from_edges(edges: Sequence[tuple[str, str | None]], source: str = "the taxonomy") -> Taxonomy:
    """A tree from ``(child, parent)`` pairs (an empty parent: a top category). One node with no parent is the
    root (excluded from the label sets); several are the top categories of an implicit root. A child with two
    parents or a cycle is refused in one sentence.

    >>> t = taxonomy_from_edges([("shoes", "clothing"), ("shirts", "clothing"), ("tv", "electronics")])
    >>> t.ancestors("shoes"), t.root
    (('clothing', 'shoes'), None)
    >>> taxonomy_from_edges([("a", "root"), ("b", "root")]).ancestors("a")
    ('a',)
    """
    parent: dict[str, str | None] = {}
    pairs = list(edges) if isinstance(edges, (list, tuple)) else None
    if pairs is None or not all(isinstance(e, (list, tuple)) and len(e) == 2 for e in pairs):
        raise InputError(f"edges must be a list of (child, parent) pairs, the parent None for a top category; got "
                         f"{edges!r:.80}.")
    for child, par in pairs:
        par = par or None
        if child == par:
            raise InputError(f"{source} makes {child!r} its own parent (a cycle); a taxonomy is a tree.")
        if child in parent and parent[child] != par:
            raise InputError(f"{child!r} has two parents in {source} ({parent[child]!r} and {par!r}); a taxonomy is a "
                             "tree, so each class has one parent.")
        parent[child] = par
    if not parent:
        raise InputError(f"{source} has no child,parent rows.")
    for par in [p for p in parent.values() if p is not None]:
        parent.setdefault(par, None)
    for start in parent:  # walk up from every node; a walk longer than the tree revisits a node: a cycle
        seen = [start]
        cur = parent[start]
        while cur is not None:
            if cur in seen:
                loop = seen[seen.index(cur):] + [cur]
                raise InputError(f"{source} has a cycle ({' → '.join(loop)}); a taxonomy is a tree, so following the "
                                 "parents from any class must end at the root.")
            seen.append(cur)
            cur = parent[cur]
    tops = [n for n, p in parent.items() if p is None]
    if len(tops) == 1:  # an explicit root: its children are the top categories
        root = tops[0]
        return Taxonomy({n: (None if p == root else p) for n, p in parent.items() if n != root}, root)
    return Taxonomy(parent)


@dataclass(frozen=True)
class HierarchyCells:
    """The non-zero cells of a confusion matrix over taxonomy classes: ``rows[c]``, ``cols[c]`` (class indices),
    ``counts[..., c]``; ``paths[i, d]`` is the ancestor of class ``i`` at depth ``d + 1`` as a node number (−1 below
    the class's own depth), from which every per-cell size is computed at once."""

    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray
    labels: tuple[str, ...]
    taxonomy: Taxonomy
    paths: np.ndarray

    @property
    def k(self) -> int:
        return len(self.labels)

    def pair_sizes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(|A(t) ∩ A(p)|, |A(t)|, |A(p)|)`` of each cell (in a tree the common ancestors are a common prefix of
        the two paths, so they are counted depth by depth)."""
        pt, pp = self.paths[self.rows], self.paths[self.cols]
        common = ((pt == pp) & (pt >= 0)).sum(axis=1).astype(np.float64)
        size = (self.paths >= 0).sum(axis=1).astype(np.float64)
        return common, size[self.rows], size[self.cols]

    def level_hits(self) -> tuple[np.ndarray, np.ndarray]:
        """``(reaches (depth, cell), hit (depth, cell))``: the true class has that depth, and the predicted class's
        ancestor at that depth is the true one's."""
        pt, pp = self.paths[self.rows], self.paths[self.cols]
        return (pt >= 0).T, ((pt >= 0) & (pt == pp)).T


def _paths(labels: Sequence[str], taxonomy: Taxonomy) -> np.ndarray:
    anc = [taxonomy.ancestors(lab) if lab in taxonomy.parent else () for lab in labels]  # unused labels: no path
    number = {node: i for i, node in enumerate(taxonomy.parent)}
    out = np.full((len(labels), max((len(a) for a in anc), default=0)), -1, dtype=np.int64)
    for i, a in enumerate(anc):
        out[i, :len(a)] = [number[x] for x in a]
    return out


def hierarchy_cells(counts: Any, labels: Sequence[Any], taxonomy: Taxonomy, source: str = "the taxonomy",
                    present: Sequence[Any] | None = None) -> HierarchyCells:
    """The cells of a ``k×k`` confusion matrix (rows true, columns predicted, ordered as ``labels``); a label that
    is not a node of the taxonomy (or is its root) refused in one sentence.

    ``present`` are the labels that occur (default: those with a non-zero row or column).
    """
    c = np.asarray(counts, dtype=np.float64)
    labs = tuple(str(x) for x in labels)
    if c.ndim != 2 or c.shape != (len(labs), len(labs)):
        raise InputError("a confusion matrix over the taxonomy's classes is one k×k table.")
    used = [labs[i] for i in range(len(labs)) if c[i].sum() > 0 or c[:, i].sum() > 0] if present is None else \
        [str(x) for x in present]
    outside = [x for x in used if x not in taxonomy.parent]
    if taxonomy.root is not None and taxonomy.root in used:
        raise InputError(f"label {taxonomy.root!r} is the root of {source}, which every class shares; hierarchical "
                         "metrics exclude the root, so a label must be a class below it.")
    if outside:
        raise InputError(f"label{'s' if len(outside) > 1 else ''} {few_names(repr(x) for x in outside)} "
                         f"{'are' if len(outside) > 1 else 'is'} not in {source}; every true and predicted label must "
                         "be a class of the taxonomy (a child,parent row names it).")
    rows, cols = np.nonzero(c)
    if rows.size == 0:
        raise InputError("the confusion matrix has no items.")
    return HierarchyCells(rows, cols, c[rows, cols], labs, taxonomy, _paths(labs, taxonomy))


def one_depth(cells: Sequence[HierarchyCells]) -> int | None:
    """The depth every true and predicted class of these systems sits at, or None when they differ.

    At one depth ``d`` every item's sets ``A(t)`` and ``A(p)`` have ``d`` classes, so ``Σ|A(p)| = Σ|A(t)|`` and
    hierarchical precision, recall and F1 are one number — on these data and on every resample of their cells.

    >>> tax = taxonomy_from_edges([("a", None), ("b", None), ("a1", "a"), ("a2", "a"), ("b1", "b")])
    >>> one_depth([hierarchy_cells([[2, 1, 0], [0, 1, 1], [0, 0, 3]], ["a1", "a2", "b1"], tax)])
    2
    >>> one_depth([hierarchy_cells([[2, 1], [0, 1]], ["a1", "b"], tax)]) is None
    True
    """
    depths: set[int] = set()
    for c in cells:
        depth = (c.paths >= 0).sum(axis=1)
        used = np.unique(np.concatenate([c.rows[c.counts > 0], c.cols[c.counts > 0]]))
        depths.update(int(x) for x in depth[used])
    return depths.pop() if len(depths) == 1 else None


def hierarchy_with_counts(cells: HierarchyCells, counts: np.ndarray, rows: np.ndarray | None = None,
                cols: np.ndarray | None = None) -> HierarchyCells:
    """The same classes and taxonomy with other counts (and cells): what the bootstrap evaluates."""
    return HierarchyCells(cells.rows if rows is None else rows, cells.cols if cols is None else cols, counts,
                          cells.labels, cells.taxonomy, cells.paths)


def evaluate_hierarchy_batch(cells: HierarchyCells, ids: Sequence[str], masses: Any = None) -> dict[str, np.ndarray]:
    """The metrics of ``masses`` ``(..., cells)`` (default: the cells' counts) over the cells: each ``(...)``."""
    w = np.asarray(cells.counts if masses is None else masses, dtype=np.float64)
    common, t_size, p_size = cells.pair_sizes()
    inter, pred, true = w @ common, w @ p_size, w @ t_size
    with np.errstate(invalid="ignore", divide="ignore"):
        hp, hr = inter / pred, inter / true
        hf = np.where(hp + hr > 0, 2 * hp * hr / np.where(hp + hr > 0, hp + hr, 1.0), 0.0)
    values = {"hierarchical_precision": hp, "hierarchical_recall": hr, "hierarchical_f1": hf}
    unknown = [m for m in ids if m not in values]
    if unknown:
        raise InputError(f"{unknown[0]!r} is not a hierarchical metric; they are {', '.join(HIERARCHY_METRICS)}.")
    return {m: values[m] for m in ids}


def hierarchy_metrics(cells: HierarchyCells, metrics: Sequence[str] | None = None) -> dict[str, float]:
    """hierarchical precision, recall and F1 of one table.

    >>> t = taxonomy_from_edges([("shoes", "clothing"), ("shirts", "clothing"), ("tv", "electronics")])
    >>> c = hierarchy_cells([[1, 1, 0], [0, 1, 0], [0, 0, 1]], ["shoes", "shirts", "tv"], t)
    >>> {m: round(v, 4) for m, v in hierarchy_metrics(c).items()}
    {'hierarchical_f1': 0.875, 'hierarchical_precision': 0.875, 'hierarchical_recall': 0.875}
    """
    if not isinstance(cells, HierarchyCells):
        raise InputError(f"cells must be the HierarchyCells of hierarchy_cells; got {type(cells).__name__}.")
    ids = list(metrics or HIERARCHY_METRICS)
    return {m: float(v) for m, v in evaluate_hierarchy_batch(cells, ids).items()}


def _level_counts(cells: HierarchyCells, masses: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(items that reach each level, items right at it)``, each ``(..., D)``."""
    w = np.asarray(cells.counts if masses is None else masses, dtype=np.float64)
    reach, hit = cells.level_hits()
    return w @ reach.T.astype(np.float64), w @ (reach & hit).T.astype(np.float64)


def level_accuracies(cells: HierarchyCells, masses: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """``(accuracy, items)`` at each level ``l = 1 … D`` of the taxonomy (the catalogue's ``level_accuracy``), each
    ``(..., D)`` for masses ``(..., cells)`` (default: the cells' counts): among the items whose true class is at least
    ``l`` deep, the share whose predicted class's ancestor at level ``l`` is the true class's. A predicted class
    shallower than ``l`` has no ancestor there and is wrong at that level; a level no item reaches has accuracy nan.

    With every true and predicted class at one depth ``D``, hierarchical precision, recall and F1 all equal the mean
    of the ``D`` accuracies (each item's two ancestor sets have ``D`` classes; their common part is the levels where
    the two paths agree).

    >>> t = taxonomy_from_edges([("shoes", "clothing"), ("shirts", "clothing"), ("tv", "electronics")])
    >>> c = hierarchy_cells([[1, 1, 0], [0, 1, 0], [0, 0, 1]], ["shoes", "shirts", "tv"], t)
    >>> acc, n = level_accuracies(c)
    >>> acc.tolist(), n.tolist(), float(acc.mean())
    ([1.0, 0.75], [4.0, 4.0], 0.875)
    """
    items, right = _level_counts(cells, masses)
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.where(items > 0, right / np.where(items > 0, items, 1.0), np.nan)
    return acc, items


def hierarchy_tables(cells: HierarchyCells) -> dict[str, Any]:
    """The per-level accuracies ``levels`` (``[{"depth", "items", "correct", "accuracy"}]``) and the error
    distances ``distances`` (``[{"distance", "items", "share"}]``, distance 0 = correct) of one table."""
    w = np.asarray(cells.counts, dtype=np.float64)
    acc, items = level_accuracies(cells)
    right = _level_counts(cells)[1]
    levels = [{"depth": d + 1, "items": float(items[d]), "correct": float(right[d]), "accuracy": float(acc[d])}
              for d in range(items.shape[0])]
    common, t_size, p_size = cells.pair_sizes()
    dist = (t_size + p_size - 2 * common).astype(np.int64)
    total = float(w.sum())
    distances = [{"distance": int(d), "items": float(w[dist == d].sum()), "share": float(w[dist == d].sum()) / total}
                 for d in np.unique(dist)]
    return {"levels": levels, "distances": distances}
