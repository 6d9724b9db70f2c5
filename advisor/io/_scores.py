"""Item-level scores and probabilities (for ROC AUC, average precision, ECE, …): what :func:`advisor.load` keeps.

Score metrics sort the items, so a system with a ``score`` column (binary tasks: any real number,
higher = more positive) or ``p_<label>``/``proba_<label>`` columns keeps one row per item — its true
label (text), its predicted label when there is a ``y_pred`` column, and the numbers — as a
:class:`ScoredFile` in :attr:`advisor.Dataset.scores`. They come from the same single read as the counts
(:mod:`advisor.io._items`); the functions here are thin wrappers over :func:`advisor.load` for callers
that want one input's scores. Missing or non-numeric cells are an error naming the row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._items import SCORE_COLUMN, ScoredFile

__all__ = ["SCORE_COLUMN", "ScoredFile", "read_scored", "read_scored_frame", "read_scored_sql"]


def _only(ds: Any) -> ScoredFile | None:
    return next(iter(ds.scores.values()), None)


def read_scored(path: Path, *, true_col: str = "y_true", pred_col: str = "y_pred", chunk_rows: int = 1_000_000
                ) -> ScoredFile | None:
    """The labels, probability columns and score column of one prediction file, item by item (None without any).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); f = d / "m.csv"
    >>> _ = f.write_text("y_true,score\\n1,2.5\\n0,-1\\n")
    >>> r = read_scored(f); r.y_true, r.score.tolist(), r.y_pred
    (['1', '0'], [2.5, -1.0], None)
    """
    from ._load import load

    return _only(load(Path(path), true_col=true_col, pred_col=pred_col, structure="nominal"))


def read_scored_sql(query: str, *, true_col: str = "y_true", pred_col: str = "y_pred") -> ScoredFile | None:
    """The item-level outputs a ``--sql`` query returns (``score`` or ``p_<label>`` columns), or None without any.

    >>> r = read_scored_sql("SELECT * FROM (VALUES ('a', 'a', 0.9), ('b', 'a', 0.2)) t(y_true, y_pred, score)")
    >>> r.y_true, r.score.tolist()
    (['a', 'b'], [0.9, 0.2])
    """
    from ._load import load

    return _only(load(sql=query, true_col=true_col, systems=[pred_col], structure="nominal"))


def read_scored_frame(frame: object, *, true_col: str = "y_true", pred_col: str = "y_pred") -> ScoredFile | None:
    """The ``score``/``p_<label>`` columns of a pandas/polars DataFrame or Arrow table, or None without any.

    >>> import pandas as pd
    >>> read_scored_frame(pd.DataFrame({"y_true": [1, 0], "y_pred": [1, 1], "score": [0.3, 0.1]})).score.tolist()
    [0.3, 0.1]
    """
    from ._items import probability_columns
    from ._load import load
    from ._load_common import frame_columns

    cols = frame_columns(frame)
    if not (SCORE_COLUMN in cols or probability_columns(cols)):
        return None
    return _only(load(frame, true_col=true_col, systems=[pred_col] if pred_col in cols else None,
                      structure="nominal"))
