"""Joint table of (true label, prediction of system 1, …, prediction of system m) combinations.

Several systems evaluated on the same items are summarised, without keeping the items, by the
distinct combinations of their labels and the mass of each combination. Every system's confusion
matrix is a marginal of this table, and resampling its cells from a multinomial is exactly a paired
item-level bootstrap — at a cost that does not grow with the number of items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._cells import Cells
from ._confusion import ConfusionMatrix, Label, confusion_matrix, item_weights, normalise_labels

__all__ = ["JointCounts"]


@dataclass(frozen=True)
class JointCounts:
    """Distinct (true, pred_1, …, pred_m) combinations and their masses.

    Attributes
    ----------
    labels : tuple
        Class labels; ``codes`` index into them.
    systems : tuple of str
        System names, in column order (column 0 of ``codes`` is the true label).
    codes : ndarray of shape (cells, 1 + m), int
    counts : ndarray of shape (cells,), float
    """

    labels: tuple[Label, ...]
    systems: tuple[str, ...]
    codes: np.ndarray
    counts: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "codes", np.asarray(self.codes, dtype=np.int64))
        object.__setattr__(self, "counts", np.asarray(self.counts, dtype=np.float64))
        if self.codes.ndim != 2 or self.codes.shape[1] != 1 + len(self.systems):
            raise InputError("joint codes must have one column for the truth and one per system.")
        if self.counts.shape != (self.codes.shape[0],):
            raise InputError("joint counts must have one entry per combination.")
        if self.codes.size and (self.codes.min() < 0 or self.codes.max() >= len(self.labels)):
            raise InputError(f"joint codes must be label indices in 0..{len(self.labels) - 1}.")

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def n(self) -> float:
        return float(self.counts.sum())

    def _system_maps(self) -> list[tuple[Cells, np.ndarray, np.ndarray]]:
        """Per system: its distinct (true, predicted) cells, row-major (a pattern shared by every
        resample), the joint cells ordered by the system cell they add to, and where each group starts."""
        cached = self.__dict__.get("_maps")
        if cached is None:
            k = self.k
            cached = []
            for s in range(len(self.systems)):
                key = self.codes[:, 0].astype(np.int64) * k + self.codes[:, 1 + s]
                uniq, inv = np.unique(key, return_inverse=True)
                order = np.argsort(inv.reshape(-1), kind="stable")
                starts = np.flatnonzero(np.concatenate(([True], np.diff(inv.reshape(-1)[order]) != 0)))
                cached.append((Cells(uniq // k, uniq % k, np.zeros(uniq.shape[0]), k), order, starts))
            object.__setattr__(self, "_maps", cached)
        return cached

    def system_cells(self, counts: np.ndarray | None = None) -> list[Cells]:
        """Each system's confusion data as cells, for joint masses ``counts`` (..., cells).

        The marginal of system ``s`` adds the joint cells that share its (true, predicted) pair
        (a bincount over the batch), so no k×k table is built; used by the paired bootstrap with
        resampled masses. Without ``counts`` the observed masses are used.
        """
        w = self.counts if counts is None else np.asarray(counts)
        whole = True if w.dtype.kind in "iu" and self.n < 2.0**53 else None  # resampled item counts
        out = []
        for base, order, starts in self._system_maps():
            # joint cells grouped by the system's cell (every group non-empty): integers stay integers
            masses = np.add.reduceat(w[..., order], starts, axis=-1)
            out.append(base.with_masses(masses, exact=whole))
        return out

    def system_item_cells(self) -> tuple[list[Cells], np.ndarray]:
        """Each system's cell pattern and, for every item of the (whole-number) table, its cell in each
        system: an ``(n, systems)`` array (one column per system, filled in turn, so no second copy).

        Items are listed joint cell by joint cell, as :func:`advisor.stats._draws.items_of` lists them,
        so drawing item indices and tabulating them here equals tabulating the joint table first.
        """
        item_joint = np.repeat(np.arange(self.counts.shape[0], dtype=np.intp), self.counts.astype(np.int64))
        maps = self._system_maps()
        table = np.empty((item_joint.shape[0], len(maps)), dtype=np.intp)
        bases = []
        for t, (base, order, starts) in enumerate(maps):
            inv = np.empty(self.counts.shape[0], dtype=np.intp)
            inv[order] = np.repeat(np.arange(base.nnz), np.diff(np.append(starts, order.shape[0])))
            bases.append(base)
            table[:, t] = inv[item_joint]
        return bases, table

    def matrices_from_counts(self, counts: np.ndarray) -> np.ndarray:
        """Dense confusion matrices of every system for cell masses ``counts`` of shape (..., cells).

        Returns an array of shape (..., m, k, k) — a view for people at small k; the engine itself
        works on :meth:`system_cells`.
        """
        return np.stack([c.to_dense() for c in self.system_cells(counts)], axis=-3)

    def matrix(self, system: str) -> ConfusionMatrix:
        """The confusion matrix of one system (a marginal of the joint table)."""
        if system not in self.systems:
            raise InputError(f"no system named {system!r}; systems are {', '.join(self.systems)}.")
        return self.matrices()[system]

    def matrices(self) -> dict[str, ConfusionMatrix]:
        out = {}
        for name, c in zip(self.systems, self.system_cells()):
            out[name] = ConfusionMatrix.from_cells(c.rows, c.cols, c.w, self.labels)
        return out

    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        predictions: Mapping[str, Any],
        labels: Sequence[Label] | None = None,
        sample_weight: Any = None,
    ) -> JointCounts:
        """Build the table from item-level arrays (all systems predict the same items)."""
        if not isinstance(predictions, Mapping):
            raise InputError("predictions must map each system's name to its predicted labels, e.g. "
                             f"{{'model': y_pred}}; got a {type(predictions).__name__}.")
        if not predictions:
            raise InputError("predictions is empty; give at least one system.")
        names = tuple(str(n) for n in predictions)
        t = np.asarray(y_true)
        preds = [np.asarray(p) for p in predictions.values()]
        for what, a in (("y_true", t), *((f"the predictions of {n!r}", p) for n, p in zip(names, preds))):
            if a.ndim == 0:
                raise InputError(f"{what} must be a list or array of labels, one per item; got the single value "
                                 f"{a.item()!r:.40}.")
        for name, p in zip(names, preds):
            if p.shape[0] != t.shape[0]:
                raise InputError(
                    f"system {name!r} has {p.shape[0]} predictions but y_true has {t.shape[0]} items."
                )
        if labels is None:
            # the sorted union over truth and every system, via the engine's own label handling
            union: set[Label] = set()
            for p in preds:
                union.update(confusion_matrix(t, p).labels)
            labs = sorted(union, key=lambda x: (isinstance(x, str), x))
        else:
            labs = normalise_labels(labels)
        pos = {str(lab): i for i, lab in enumerate(labs)}

        def encode(arr: np.ndarray, what: str) -> np.ndarray:
            vals = normalise_labels(np.unique(arr)) if arr.dtype.kind in "iufb" else None
            if vals is not None and all(isinstance(v, int) for v in vals):
                lut_keys = np.array(vals)
                codes_u = np.array([pos.get(str(v), -1) for v in vals])
                out = codes_u[np.searchsorted(lut_keys, arr.astype(np.int64))]
            else:
                uniq, inv = np.unique(np.asarray(arr).astype(str), return_inverse=True)
                codes_u = np.array([pos.get(str(u), -1) for u in uniq])
                out = codes_u[inv.reshape(-1)]
            if np.any(out < 0):
                raise InputError(f"{what} contains a label that is not in labels.")
            return out

        cols = [encode(t, "y_true")] + [encode(p, f"system {n!r}") for n, p in zip(names, preds)]
        k = len(labs)
        w = item_weights(sample_weight, t.shape[0])
        if k ** len(cols) < 2**62:  # one integer key per combination
            key = np.zeros(t.shape[0], dtype=np.int64)
            for c in cols:
                key = key * k + c
            uniq, inv = np.unique(key, return_inverse=True)
            codes = np.empty((uniq.shape[0], len(cols)), dtype=np.int64)
            rem = uniq.copy()
            for j in range(len(cols) - 1, -1, -1):
                codes[:, j] = rem % k
                rem //= k
        else:  # k^(systems + 1) would overflow a key: distinct rows instead (same order)
            codes, inv = np.unique(np.stack(cols, axis=1).astype(np.int64), axis=0, return_inverse=True)
        counts = np.bincount(inv.reshape(-1), weights=w, minlength=codes.shape[0]).astype(np.float64)
        return cls(tuple(labs), names, codes, counts)
