"""The result of reading predictions — :class:`PredictionSet` — and how a scan becomes one.

Shared by every way predictions come in (files, DataFrames, queries, Spark), so each gives the same
object with the same notes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import ConfusionMatrix, JointCounts, Label, normalise_labels
from ._duck import Source
from ._scan import Scan, matrix_from_cells

__all__ = ["PredictionSet", "prediction_set"]

_PROBA_PREFIX = re.compile(r"^(?:p|proba)_(.+)$")


# ----------------------------------------------------------------------------------------------
# Result type
# ----------------------------------------------------------------------------------------------
@dataclass
class PredictionSet:
    """Predictions of one or more systems on the same items, summarised without the items.

    Attributes
    ----------
    labels : tuple of int or str
        The classes, shared by every system.
    systems : dict of str → ConfusionMatrix
        One matrix per system (file), all on ``labels``.
    joint : JointCounts
        Distinct (true, pred_1, …, pred_m) combinations and their counts — what the paired bootstrap
        resamples.
    n_items : int
        Number of items (rows per file).
    probabilities : dict of str → dict
        ``{system: {"log_loss": …, "brier": …}}`` for the systems whose file has probability columns.
    files : dict of str → Path
        The file each system was read from.
    notes : list of str
        Things the reader did that a report should mention (e.g. renormalised probability rows).
    log_loss_zero : dict of str → int
        For the systems with probabilities: how many items got probability 0 (below the clipping
        ``ε`` of log loss) for their true class.
    """

    labels: tuple[Label, ...]
    systems: dict[str, ConfusionMatrix]
    joint: JointCounts
    n_items: int
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    log_loss_zero: dict[str, int] = field(default_factory=dict)
    #: with a group column (issue 20): the group of each row of ``joint`` (index into ``group_labels``), the
    #: column it came from, and the groups; the bootstrap then resamples groups, not items
    groups: Any = None
    group_labels: tuple[Label, ...] = ()
    group_col: str | None = None
    #: with subgroup columns (``by=``, issue 23): per column, the value of each row of ``joint`` (index into
    #: the column's values) and the values, in the order given
    by: dict[str, tuple[Any, tuple[Label, ...]]] = field(default_factory=dict)


def _probability_columns(table: Source, proba_cols: Any) -> list[tuple[str, str]]:
    """``[(label text, column), …]`` of one file's probability columns (empty: none)."""
    if proba_cols is None:
        return []
    if isinstance(proba_cols, str) and proba_cols == "auto":
        found: dict[str, str] = {}
        for col in table.columns:
            m = _PROBA_PREFIX.match(col)
            if m:
                lab = m.group(1).strip()
                if lab in found:
                    raise InputError(f"{table.what} has two probability columns for label {lab!r}: {found[lab]!r} and {col!r}.")
                found[lab] = col
        return list(found.items())
    if isinstance(proba_cols, str):
        raise InputError(f"proba_cols must be None, 'auto', a list of columns or a label→column mapping; got {proba_cols!r}.")
    if isinstance(proba_cols, Mapping):
        pairs = [(str(normalise_labels([lab])[0]), str(col)) for lab, col in proba_cols.items()]
    else:
        pairs = []
        for col in proba_cols:
            m = _PROBA_PREFIX.match(str(col))
            if not m:
                raise InputError(f"probability column {col!r} is not named p_<label> or proba_<label>; pass a label→column mapping instead.")
            pairs.append((m.group(1).strip(), str(col)))
    table.require([c for _, c in pairs], "probability column")
    return pairs


def prediction_set(counted: Scan, names: Sequence[str], whats: Sequence[str],
                   files: dict[str, Path] | None = None, reject_label: Label | None = None) -> PredictionSet:
    """The :class:`PredictionSet` of a scan: one matrix per system, the joint table, scores and notes.

    ``reject_label``: the label a system writes when it abstains — no class; each system's matrix holds the
    items it answered (:meth:`~advisor.engine.JointCounts.with_reject`)."""
    final_labels = counted.labels
    if reject_label is not None and len(final_labels) >= 2:
        final_labels = tuple(x for x in final_labels if str(x) != str(reject_label)) or final_labels
    if counted.n_items == 0:
        raise InputError(f"{whats[0]} has a header but no data rows.")
    if len(final_labels) < 2:
        raise InputError(
            f"only one class ({final_labels[0]!r}) occurs in {', '.join(whats)}; "
            "metrics need at least two (pass labels= to name the others)."
        )
    # one canonical cell order (lexicographic in the codes, truth first), whatever order the reader
    # grouped in: the bootstrap draws cells in this order, so intervals do not depend on the reader
    keys = counted.codes if counted.groups is None else np.column_stack([counted.codes, counted.groups])
    if counted.by:
        keys = np.column_stack([keys, *[v for v, _ in counted.by.values()]])
    order = np.lexsort(keys.T[::-1])
    codes, counts = counted.codes[order], counted.counts[order]
    joint = JointCounts(counted.labels, tuple(names), codes, counts)
    if reject_label is not None:
        joint = joint.with_reject(reject_label)
        final_labels = joint.labels
        systems = joint.matrices()
    else:
        systems = {name: matrix_from_cells(codes[:, 0], codes[:, 1 + s], counts, final_labels, whats[s])
                   for s, name in enumerate(names)}
    result = PredictionSet(final_labels, systems, joint, counted.n_items, files=dict(files or {}))
    if counted.groups is not None:
        result.groups, result.group_labels = counted.groups[order], counted.group_labels
    result.by = {col: (v[order], labs) for col, (v, labs) in counted.by.items()}
    lookalike = _same_number(final_labels)
    if lookalike:
        result.notes.append(f"the labels {' and '.join(map(repr, lookalike))} are different classes because they are "
                            "written differently; if they mean the same class, write them the same way in every file.")
    zero = counted.zero or [0] * len(names)
    for name, what, proba, ren, z in zip(names, whats, counted.probabilities, counted.renormalised, zero):
        if proba is None:
            continue
        result.probabilities[name] = proba
        result.log_loss_zero[name] = z
        if ren:
            result.notes.append(f"{what}: {ren} probability rows summed to within 1e-3 of 1 and were renormalised.")
    return result


# ----------------------------------------------------------------------------------------------
# Confusion matrices and count tables
# ----------------------------------------------------------------------------------------------
def _same_number(labels: Sequence[Label]) -> list[str]:
    """The first group of label texts that spell the same number (``1`` and ``1.0``, ``01``), if any.

    >>> _same_number(["1", "1.0", "2"]), _same_number(["a", "b"])
    (['1', '1.0'], [])
    """
    groups: dict[float, list[str]] = {}
    for lab in labels:
        try:
            value = float(lab)
        except (TypeError, ValueError):
            continue
        if value == value:  # not NaN
            groups.setdefault(value, []).append(str(lab))
    return next((texts for texts in groups.values() if len(texts) > 1), [])
