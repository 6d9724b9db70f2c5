"""Reading item-level scores and probabilities (for ROC AUC, average precision, ECE, …).

Score metrics sort the items, so unlike :func:`advisor.io._readers.read_predictions` this keeps one
row per item: the true label (text), the predicted label when there is a ``y_pred`` column, the
probability columns ``p_<label>``/``proba_<label>`` and a ``score`` column (binary tasks: any real
number, higher = more positive). Missing or non-numeric cells are an error naming the row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._exceptions import InputError
from ._tables import Columns, table_format

__all__ = ["SCORE_COLUMN", "ScoredFile", "has_scores", "read_scored"]

SCORE_COLUMN = "score"


@dataclass
class ScoredFile:
    """One file's item-level outputs; ``proba`` columns follow ``proba_labels`` (label texts)."""

    y_true: list[str]
    y_pred: list[str] | None
    proba: np.ndarray | None
    proba_labels: list[str]
    score: np.ndarray | None


_PROBA_PREFIX = re.compile(r"^(?:p|proba)_(.+)$")  # the prediction reader's naming of probability columns


def _proba_columns(table: Columns) -> list[tuple[str, str]]:
    return [(m.group(1).strip(), c) for c in table.columns if (m := _PROBA_PREFIX.match(c))]


def has_scores(path: Path, chunk_rows: int = 1_000_000) -> bool:
    """Whether the file has probability columns or a ``score`` column."""
    t = Columns(Path(path), table_format(Path(path)), chunk_rows)
    return bool(_proba_columns(t)) or SCORE_COLUMN in t.columns


def read_scored(path: Path, *, true_col: str = "y_true", pred_col: str = "y_pred",
                chunk_rows: int = 1_000_000) -> ScoredFile:
    """Read the labels, probability columns and score column of one prediction file, item by item.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); f = d / "m.csv"
    >>> _ = f.write_text("y_true,score\\n1,2.5\\n0,-1\\n")
    >>> r = read_scored(f); r.y_true, r.score.tolist(), r.y_pred
    (['1', '0'], [2.5, -1.0], None)
    """
    path = Path(path)
    t = Columns(path, table_format(path), chunk_rows)
    pcols = _proba_columns(t)
    score = SCORE_COLUMN in t.columns
    if pcols and score:
        raise InputError(f"{path} has both probability columns (p_<label>) and a {SCORE_COLUMN!r} column; keep one.")
    pred = pred_col in t.columns
    labels_cols = [true_col] + ([pred_col] if pred else [])
    numbers = [c for _, c in pcols] + ([SCORE_COLUMN] if score else [])
    y: list[str] = []
    yp: list[str] = []
    nums: list[np.ndarray] = []
    offset = 0
    for chunk in t.chunks(labels_cols, numbers):
        col = chunk[true_col].to_pylist()
        for i, v in enumerate(col):
            if v is None:
                raise InputError(f"{path} row {offset + i + 1}: {true_col} is empty; every item needs a true label.")
        y.extend(col)
        if pred:
            yp.extend("" if v is None else v for v in chunk[pred_col].to_pylist())
        if numbers:
            block = np.column_stack([chunk[c].to_numpy(zero_copy_only=False) for c in numbers]).astype(np.float64)
            bad = ~np.isfinite(block)
            if bad.any():
                r, c = np.argwhere(bad)[0]
                raise InputError(f"{path} row {offset + r + 1}: column {numbers[c]!r} is missing or not a finite number "
                                 "(NaN); every item needs one.")
            nums.append(block)
        offset += len(col)
    data = np.concatenate(nums) if nums else np.empty((0, len(numbers)))
    return ScoredFile(y, yp if pred else None, data if pcols else None, [lab for lab, _ in pcols],
                      data[:, 0] if score else None)
