"""Confusion matrices (CSV or JSON) and ``true,pred,count`` tables, read into the engine's tables."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Union

import numpy as np

from .._exceptions import InputError
from ..engine import ConfusionMatrix, Label
from ._counts import count_tables
from ._duck import _check_text, connect
from ._open import read_small
from ._scan import count_range_problem, type_labels

__all__ = ["read_counts", "read_matrix"]

PathLike = Union[str, Path]


def _type_labels(texts: Sequence[str]) -> list[Label]:
    """The module's rule: all canonical integers → ints, else the strings as written (order kept)."""
    typed = type_labels(list(texts))
    return [int(s) for s in texts] if typed and isinstance(typed[0], int) else list(texts)


def read_matrix(path: PathLike, *, costs: bool = False) -> ConfusionMatrix:
    """Read a confusion matrix (rows = true classes, columns = predicted classes).

    Formats
    -------
    CSV/TSV
        First row: the predicted labels (the top-left cell is ignored); first column: the true labels;
        the cells are counts. Columns may be in another order than the rows — they are matched by label.
    JSON
        ``{"labels": [...], "matrix": [[...], ...]}`` or a bare list of lists (labels ``0 … k−1``).

    Counts may be non-integer but must be finite and ≥ 0; the matrix must be square and not all zero.
    ``costs=True`` reads a cost matrix in the same layout: the limits of counts (smallest positive count,
    total, not all zero) do not apply to costs, which the cost parser checks itself.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "m.csv"
    >>> _ = f.write_text("true\\\\pred,neg,pos\\nneg,50,10\\npos,5,35\\n")
    >>> read_matrix(f)
    ConfusionMatrix(labels=['neg', 'pos'], counts=[[50.0, 10.0], [5.0, 35.0]])
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"path must be the path of a confusion matrix file (CSV or JSON); got {type(path).__name__}.")
    p = Path(path)
    fmt, raw = read_small(p, {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json"})  # the one open
    try:
        text = _text(p, raw, fmt)
        cm = _matrix_json(p, text) if fmt == "json" else _matrix_csv(p, "," if fmt == "csv" else "\t", text,
                                                                     "cost" if costs else "count")
    except InputError as exc:
        msg = str(exc)
        raise InputError(msg if msg.startswith(str(p)) else f"{p}: {msg}") from None
    except UnicodeDecodeError:  # the first 8 KiB were sniffed; a bad byte can come later
        raise InputError(f"{p} is not valid UTF-8 text; save it as UTF-8.") from None
    if costs:
        return cm
    problem = count_range_problem(cm.counts)
    if problem:
        raise InputError(f"{p}: {problem}.")
    if cm.n <= 0:
        raise InputError(f"{p}: the confusion matrix is all zeros; there is nothing to evaluate.")
    return cm


def _text(p: Path, raw: bytes, fmt: str) -> str:
    """The file's text (UTF-8, a BOM dropped); an encoding problem is one sentence."""
    _check_text(p, raw[:8192], fmt)
    return raw.decode("utf-8-sig")


def _check_json_counts(p: Path, rows: Any) -> None:
    """Counts in JSON must be numbers: ``"2"`` or ``true`` are refused rather than silently converted."""
    if not isinstance(rows, list):
        return  # the matrix constructor reports the shape
    for i, row in enumerate(rows):
        for j, cell in enumerate(row if isinstance(row, list) else []):
            if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                raise InputError(f"{p}: the count at row {i + 1}, column {j + 1} is {cell!r}; counts must be numbers.")


#: Longest integer literal read from a JSON matrix: a count or label with more digits is refused (Python's
#: own limit, 4,300 digits, would otherwise end in an internal error; no count needs a hundred digits).
MAX_JSON_DIGITS = 100


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_DIGITS:
        raise InputError(f"a number in it has {digits:,} digits; counts and labels have at most {MAX_JSON_DIGITS} "
                         "(a count that large would not be exact anyway — divide the counts by a common factor).")
    return int(text)


def _matrix_json(p: Path, text: str) -> ConfusionMatrix:
    try:
        data = json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise InputError(f"{p} is not valid JSON ({exc.msg} at line {exc.lineno}).") from None
    except RecursionError:  # the decoder recurses once per level: 100,000 levels exhaust the stack
        raise InputError(f"{p}: the JSON is nested too deeply to be a confusion matrix, which is "
                         '{"labels": [...], "matrix": [[...], ...]} (two levels of lists).') from None
    if isinstance(data, dict) and "matrix" in data:
        labels = data.get("labels")
        if labels is not None and not isinstance(labels, list):
            raise InputError(f'{p}: "labels" must be a list with one label per row; got {type(labels).__name__}.')
        _check_json_counts(p, data["matrix"])
        return ConfusionMatrix.from_dict(data)
    if isinstance(data, list):
        _check_json_counts(p, data)
        return ConfusionMatrix(data)
    raise InputError('a confusion matrix in JSON is {"labels": [...], "matrix": [[...], ...]} or a list of lists.')


def _matrix_csv(p: Path, delimiter: str, text: str, word: str = "count") -> ConfusionMatrix:
    rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) if any(c.strip() for c in r)]
    if not rows:
        raise InputError("the file has no rows.")
    header = [c.strip() for c in rows[0][1:]]
    body = rows[1:]
    if not body:
        raise InputError("the file has a header row of predicted labels but no rows of counts.")
    k = len(body)
    if len(header) != k:
        raise InputError(f"the matrix is not square: {k} rows of true labels but {len(header)} predicted-label columns.")
    row_texts = [r[0].strip() for r in body]
    for what, texts in (("predicted", header), ("true", row_texts)):
        if any(t == "" for t in texts):
            raise InputError(f"a {what} label is empty; the first row and first column must name the classes.")
        if len(set(texts)) != len(texts):
            dup = next(t for t in texts if texts.count(t) > 1)
            raise InputError(f"{what} label {dup!r} appears twice.")
    if set(header) != set(row_texts):
        extra = sorted(set(header) ^ set(row_texts))
        raise InputError(f"the row labels and column labels differ (e.g. {extra[0]!r}); they must name the same classes.")
    counts = np.empty((k, k))
    for i, r in enumerate(body):
        cells = r[1:]
        if len(cells) != k:
            raise InputError(f"row {i + 1} (true label {row_texts[i]!r}) has {len(cells)} counts but there are {k} columns; the matrix must be square.")
        for j, cell in enumerate(cells):
            try:
                counts[i, j] = float(cell.strip())
            except ValueError:
                what = "empty" if not cell.strip() else f"{cell.strip()!r}, not a number"
                raise InputError(f"row {i + 1} (true {row_texts[i]!r}), column {header[j]!r}: the {word} is {what}.") from None
            if not (np.isfinite(counts[i, j]) and counts[i, j] >= 0):
                raise InputError(f"row {i + 1} (true {row_texts[i]!r}), column {header[j]!r}: the {word} is "
                                 f"{counts[i, j]:g}; {word}s must be finite and ≥ 0 (a negative {word} is not allowed).")
    order = [header.index(t) for t in row_texts]
    return ConfusionMatrix(counts[:, order], _type_labels(row_texts))


def read_counts(
    path: PathLike,
    true_col: str = "true",
    pred_col: str = "pred",
    count_col: str = "count",
    *,
    chunk_rows: int = 1_000_000,
) -> ConfusionMatrix:
    """Read a ``true, pred, count`` table — what ``GROUP BY true, pred`` in SQL, Spark or DuckDB gives.

    Repeated (true, pred) pairs are summed; counts may be non-integer but must be finite and ≥ 0.
    CSV, TSV, JSON Lines and Parquet (compressed too), summed by DuckDB like :func:`read_predictions`,
    with the same label typing. ``chunk_rows`` is kept for compatibility and unused.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "counts.csv"
    >>> _ = f.write_text("true,pred,count\\n1,1,40\\n1,0,10\\n0,0,45\\n0,1,5\\n1,1,2\\n")
    >>> read_counts(f).counts.tolist()
    [[45.0, 5.0], [10.0, 42.0]]
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"path must be the path of a true,pred,count table; got {type(path).__name__}.")
    p = Path(path)
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InputError(f"chunk_rows must be a positive integer; got {chunk_rows!r}.")

    con = connect()
    try:
        return count_tables(con, [p], true_col, pred_col, count_col)[0][0]
    finally:
        con.close()
