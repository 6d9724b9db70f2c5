"""Joint table of (true label, prediction of system 1, …, prediction of system m) combinations.

Several systems evaluated on the same items are summarised, without keeping the items, by the
distinct combinations of their labels and the mass of each combination. Every system's confusion
matrix is a marginal of this table, and resampling its cells from a multinomial is exactly a paired
item-level bootstrap — at a cost that does not grow with the number of items.

A system that may abstain (selective prediction, issue 23) writes a **reject label** instead of a class on some
items. With :meth:`JointCounts.with_reject` the reject label leaves the classes: its code in a system's column is
``k`` (one past the last class), and that system's confusion matrix — and every flat metric computed from it — holds
the items it answered only; the share it answered is its coverage (:meth:`JointCounts.answered`). The paired
bootstrap still resamples the items, so each resample's matrices hold the resampled items each system answered.
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
    reject : label or None
        The label a system writes when it abstains (not a class, not in ``labels``): code ``k`` in a system's
        column marks an item that system did not answer (:meth:`with_reject`).
    """

    labels: tuple[Label, ...]
    systems: tuple[str, ...]
    codes: np.ndarray
    counts: np.ndarray
    reject: Label | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "codes", np.asarray(self.codes, dtype=np.int64))
        object.__setattr__(self, "counts", np.asarray(self.counts, dtype=np.float64))
        if self.codes.ndim != 2 or self.codes.shape[1] != 1 + len(self.systems):
            raise InputError("joint codes must have one column for the truth and one per system.")
        if self.counts.shape != (self.codes.shape[0],):
            raise InputError("joint counts must have one entry per combination.")
        k = len(self.labels)
        top = k if self.reject is not None else k - 1  # code k: an abstention, in a system's column only
        if self.codes.size and (self.codes.min() < 0 or self.codes[:, 0].max() >= k or self.codes.max() > top):
            raise InputError(f"joint codes must be label indices in 0..{k - 1}"
                             + (f" (and {k} for an abstention in a system's column)." if self.reject is not None
                                else "."))

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def n(self) -> float:
        return float(self.counts.sum())

    @property
    def abstains(self) -> bool:
        """Whether some system abstained on some item (wrote the reject label)."""
        return self.reject is not None and bool(np.any(self.codes[:, 1:] == self.k))

    def answered(self) -> dict[str, float]:
        """Per system, the mass of the items it answered (all of them without abstentions)."""
        k = self.k
        return {name: float(self.counts[self.codes[:, 1 + s] < k].sum()) for s, name in enumerate(self.systems)}

    def decoded_labels(self) -> tuple[Label, ...]:
        """The labels a code stands for: the classes, then the reject label (code ``k``) when there is one."""
        return (*self.labels, self.reject) if self.reject is not None else self.labels

    def with_reject(self, reject: Label) -> JointCounts:
        """The same table with ``reject`` taken out of the classes: the label a system writes when it abstains.

        Its code in a system's column becomes ``k`` (the classes keep their order); no item may have it as its true
        label (one sentence otherwise). A reject label no system wrote leaves every item answered.

        >>> j = JointCounts.from_arrays(["a", "b", "a"], {"m": ["a", "?", "b"]}).with_reject("?")
        >>> j.labels, j.answered(), j.matrix("m").counts.tolist()
        (('a', 'b'), {'m': 2.0}, [[1.0, 1.0], [0.0, 0.0]])
        """
        if self.reject is not None:
            if str(self.reject) == str(reject):
                return self
            raise InputError(f"the table already has the reject label {self.reject!r}; give one reject label.")
        texts = [str(x) for x in self.labels]
        r = str(reject)
        if not r:
            raise InputError("the reject label is empty; give the label a system writes when it abstains.")
        if r not in texts:
            return JointCounts(self.labels, self.systems, self.codes, self.counts, reject=reject)
        j = texts.index(r)
        if np.any(self.codes[:, 0] == j):
            raise InputError(f"the reject label {r!r} is also a true class of these items; a system's abstention "
                             "must be a label no item has as its truth.")
        labels = tuple(x for i, x in enumerate(self.labels) if i != j)
        if len(labels) < 2:
            raise InputError(f"apart from the reject label {r!r} only one class ({labels[0]!r}) occurs; metrics need "
                             "at least two.")
        codes = np.where(self.codes > j, self.codes - 1, self.codes)
        codes[:, 1:] = np.where(self.codes[:, 1:] == j, len(labels), codes[:, 1:])
        out = JointCounts(labels, self.systems, codes, self.counts, reject=self.labels[j])
        none = [name for name, a in out.answered().items() if a <= 0]
        if none:
            raise InputError(f"system {none[0]!r} abstains on every item (writes the reject label {r!r} everywhere), "
                             "so no metric of its answers can be computed.")
        return out

    def _system_maps(self) -> list[tuple[Cells, np.ndarray, np.ndarray]]:
        """Per system: its distinct (true, predicted) cells, row-major (a pattern shared by every
        resample), the joint cells ordered by the system cell they add to, and where each group starts.
        The joint cells where a system abstained are in none of its cells."""
        cached = self.__dict__.get("_maps")
        if cached is None:
            k = self.k
            cached = []
            for s in range(len(self.systems)):
                kept = np.flatnonzero(self.codes[:, 1 + s] < k)
                key = self.codes[kept, 0].astype(np.int64) * k + self.codes[kept, 1 + s]
                uniq, inv = np.unique(key, return_inverse=True)
                sort = np.argsort(inv.reshape(-1), kind="stable")
                order = kept[sort]
                starts = np.flatnonzero(np.concatenate(([True], np.diff(inv.reshape(-1)[sort]) != 0)))[:uniq.shape[0]]
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
            masses = (np.add.reduceat(w[..., order], starts, axis=-1) if starts.shape[0] else
                      np.zeros(w.shape[:-1] + (0,), dtype=w.dtype))
            out.append(base.with_masses(masses, exact=whole))
        return out

    def system_item_cells(self) -> tuple[list[Cells], np.ndarray]:
        """Each system's cell pattern and, for every item of the (whole-number) table, its cell in each
        system: an ``(n, systems)`` array (one column per system, filled in turn, so no second copy).

        Items are listed joint cell by joint cell, as :func:`advisor.stats._draws.items_of` lists them,
        so drawing item indices and tabulating them here equals tabulating the joint table first. An item a
        system abstained on has the cell ``base.nnz`` (one past its last) in that system's column.
        """
        item_joint = np.repeat(np.arange(self.counts.shape[0], dtype=np.intp), self.counts.astype(np.int64))
        maps = self._system_maps()
        table = np.empty((item_joint.shape[0], len(maps)), dtype=np.intp)
        bases = []
        for t, (base, order, starts) in enumerate(maps):
            inv = np.full(self.counts.shape[0], base.nnz, dtype=np.intp)
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
        reject_label: Label | None = None,
    ) -> JointCounts:
        """Build the table from item-level arrays (all systems predict the same items); ``reject_label``: the
        label a system writes when it abstains (:meth:`with_reject`)."""
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
            if reject_label is not None and str(reject_label) not in {str(x) for x in labs}:
                labs = [*labs, *normalise_labels([reject_label])]  # not a class: taken out again below
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
        out = cls(tuple(labs), names, codes, counts)
        return out if reject_label is None else out.with_reject(reject_label)
