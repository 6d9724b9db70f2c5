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

__all__ = ["SCORE_COLUMN", "ScoredFile", "has_scores", "read_scored", "read_scored_frame", "read_scored_sql",
           "scored_from_table"]

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


def _table(path: Path, label_cols: tuple[str, ...] = ()) -> object:
    """The whole file as a pyarrow Table (labels kept as text)."""
    import pyarrow as pa

    from ._duck import TABLE_FORMATS, check_file
    from ._structures import _check_json_depth

    suffix = path.suffix.lower()
    fmt = TABLE_FORMATS.get(suffix, "csv")  # any other extension (.gz/.zst too) is read as CSV, as before
    check_file(path, fmt)  # regular, non-empty, UTF-8 text where text is expected: a FIFO would block the read
    if fmt == "jsonl":
        _check_json_depth(path)  # pyarrow's JSON parser recurses on the C stack
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return pq.read_table(path)
        if fmt == "jsonl":
            import pyarrow.json as pj

            return pj.read_json(path)
        import pyarrow.csv as pc

        delim = "\t" if fmt == "tsv" else ","
        return pc.read_csv(path, parse_options=pc.ParseOptions(delimiter=delim),
                           convert_options=pc.ConvertOptions(column_types={c: pa.string() for c in label_cols}))
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"{path} cannot be read as a table of scores: {str(exc).splitlines()[0]}") from None


_MAX_JSON_LINE = 16 * 1024 * 1024  # the largest record the JSON readers take


def _columns(path: Path) -> list[str]:
    """The column names, from the header (CSV/TSV, first block), the schema (Parquet) or the first line (JSON Lines)."""
    import pyarrow as pa

    if not path.is_file():  # a FIFO would block the read until a writer comes; the readers say why
        raise InputError(f"{path} is not a regular file; save the data to a file first.")
    suffix = path.suffix.lower()
    try:
        if suffix in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            return list(pq.read_schema(path).names)
        if suffix in (".jsonl", ".ndjson"):
            import json

            from ._structures import _MAX_JSON_DEPTH, _json_depth

            with open(path, encoding="utf-8") as f:
                first = f.readline(_MAX_JSON_LINE)
            if _json_depth(first) > _MAX_JSON_DEPTH:  # json.loads recurses: RecursionError past ~1000
                raise InputError(f"{path.name} row 1: a JSON record nested deeper than {_MAX_JSON_DEPTH} levels; "
                                 "a record holds a few labels and scores.")
            record = json.loads(first) if first.strip() else {}
            return list(record) if isinstance(record, dict) else []
        import pyarrow.csv as pc

        delim = "\t" if suffix in (".tsv", ".tab") else ","
        with pc.open_csv(path, parse_options=pc.ParseOptions(delimiter=delim)) as reader:
            return list(reader.schema.names)
    except (OSError, ValueError, pa.ArrowInvalid) as exc:
        raise InputError(f"{path} cannot be read as a table of scores: {str(exc).splitlines()[0]}") from None


def _proba_columns(columns: list[str]) -> list[tuple[str, str]]:
    return [(m.group(1).strip(), c) for c in columns if (m := _PROBA_PREFIX.match(c))]


def has_scores(path: Path, chunk_rows: int = 1_000_000) -> bool:
    """Whether the file has probability columns or a ``score`` column."""
    cols = _columns(Path(path))
    return bool(_proba_columns(cols)) or SCORE_COLUMN in cols


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
    return scored_from_table(_table(path, (true_col, pred_col)), str(path), true_col=true_col, pred_col=pred_col)


def read_scored_sql(query: str, *, true_col: str = "y_true", pred_col: str = "y_pred") -> ScoredFile | None:
    """The item-level outputs a ``--sql`` query returns (``score`` or ``p_<label>`` columns), or None without any.

    Unlike the counting readers this fetches one row per item (score metrics sort the items), as an
    Arrow table; only the label, decision and score columns are kept.

    >>> r = read_scored_sql("SELECT * FROM (VALUES ('a', 0.9), ('b', 0.2)) t(y_true, score)")
    >>> r.y_true, r.score.tolist()
    (['a', 'b'], [0.9, 0.2])
    """
    from ._duck import connect

    con = connect()
    try:
        rel = f"({query.strip().rstrip(';')})"
        try:
            cols = [str(r[0]) for r in con.execute(f"DESCRIBE SELECT * FROM {rel}").fetchall()]
        except Exception as exc:  # noqa: BLE001 - one sentence naming the input
            raise InputError(f"the --sql query failed: {str(exc).splitlines()[0][:200]}") from None
        keep = [c for c in cols if c in (true_col, pred_col, SCORE_COLUMN) or _PROBA_PREFIX.match(c)]
        if not (SCORE_COLUMN in keep or _proba_columns(keep)):
            return None
        from ._duck import quote

        select = ", ".join(quote(c) if c not in (true_col, pred_col) else f"CAST({quote(c)} AS VARCHAR) AS {quote(c)}"
                           for c in keep)
        import pyarrow as pa

        cols_np = con.execute(f"SELECT {select} FROM {rel}").fetchnumpy()
        table = pa.table({c: [None if v is None else v for v in np.asarray(cols_np[c]).tolist()] for c in keep})
    finally:
        con.close()
    return scored_from_table(table, "the --sql query", true_col=true_col, pred_col=pred_col)


def read_scored_frame(frame: object, *, true_col: str = "y_true", pred_col: str = "y_pred") -> ScoredFile | None:
    """The ``score``/``p_<label>`` columns of a pandas/polars DataFrame or Arrow table, or None without any.

    >>> import pyarrow as pa
    >>> read_scored_frame(pa.table({"y_true": [1, 0], "score": [0.3, 0.1]})).score.tolist()
    [0.3, 0.1]
    """
    import pyarrow as pa

    cols = [str(c) for c in (frame.column_names if isinstance(frame, pa.Table) else getattr(frame, "columns", []))]
    if not (SCORE_COLUMN in cols or _proba_columns(cols)):
        return None
    if isinstance(frame, pa.Table):
        table = frame
    elif hasattr(frame, "to_arrow"):  # polars
        table = frame.to_arrow()
    else:
        try:
            table = pa.Table.from_pandas(frame, preserve_index=False)
        except Exception as exc:  # noqa: BLE001
            raise InputError(f"cannot read the score columns of a {type(frame).__name__}: "
                             f"{str(exc).splitlines()[0][:150]}") from None
    return scored_from_table(table, "the DataFrame", true_col=true_col, pred_col=pred_col)


def scored_from_table(t: object, what: str, *, true_col: str = "y_true", pred_col: str = "y_pred") -> ScoredFile:
    """A :class:`ScoredFile` from an Arrow table; ``what`` names the input in error messages."""
    cols = [str(c) for c in t.column_names]  # type: ignore[attr-defined]
    if true_col not in cols:
        raise InputError(f"{what} has no column {true_col!r}; its columns are {', '.join(cols)}.")
    pcols = _proba_columns(cols)
    score = SCORE_COLUMN in cols
    if pcols and score:
        raise InputError(f"{what} has both probability columns (p_<label>) and a {SCORE_COLUMN!r} column; keep one.")

    def text(c: str) -> list[str]:
        return ["" if v is None else str(v).strip() for v in t.column(c).to_pylist()]  # type: ignore[attr-defined]

    y = text(true_col)
    if any(v == "" for v in y):
        raise InputError(f"{what} row {y.index('') + 1}: {true_col} is empty; every item needs a true label.")
    if score and len(set(y)) > 2:
        raise InputError(f"{what} has a {SCORE_COLUMN!r} column but {len(set(y))} classes in {true_col}; a single "
                         "score needs a binary task — give one probability column p_<label> per class instead.")
    numbers = [c for _, c in pcols] + ([SCORE_COLUMN] if score else [])
    data = np.empty((len(y), len(numbers)))
    for j, c in enumerate(numbers):
        vals = t.column(c).to_pylist()  # type: ignore[attr-defined]
        for i, v in enumerate(vals):
            try:
                data[i, j] = float(v)
            except (TypeError, ValueError):
                data[i, j] = np.nan
        bad = ~np.isfinite(data[:, j])
        if bad.any():
            raise InputError(f"{what} row {int(np.argmax(bad)) + 1}: column {c!r} is missing or not a finite number "
                             "(NaN); every item needs one.")
    return ScoredFile(y, text(pred_col) if pred_col in cols else None, data if pcols else None,
                      [lab for lab, _ in pcols], data[:, 0] if score else None)
