"""The fast path for label-only text files: DuckDB groups whole lines, Python parses the distinct ones.

A CSV, TSV or JSON Lines file whose only columns are the true and predicted labels has few distinct
lines (at most one per cell of the confusion matrix, whatever the number of rows). So DuckDB reads each
line as one opaque string and counts the distinct lines — cheaper than splitting and typing every
cell — and each distinct line is then parsed once, exactly, by Python's own ``csv`` and ``json``
modules with the label rule of :mod:`advisor.io._readers`. Several files are put side by side with
``POSITIONAL JOIN``.

This is only an accelerator: on anything unusual (a quote, a parse error, a missing or odd label,
different lengths, different truths, a label outside ``labels=``) it returns None and the general scan
(:func:`advisor.io._scan.scan`) reads the files again and names the offending row.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine._confusion import Label
from ._duck import MAX_LABEL_CHARS, _literal
from ._scan import Scan, Side, _build

__all__ = ["scan_lines"]

_FLOAT_INT_LIMIT = 2.0 ** 53
#: Threads of the line scan, per format. DuckDB's parallel reader holds more buffers (and more of its
#: allocator's memory) the longer the file: with its default 32 MB buffers even a bare count took
#: 75 → 112 → 158 MB peak for 10^6 → 10^7 → 3·10^7 CSV rows. CSV/TSV keep DuckDB's threads (all
#: cores) with 2 MB buffers: ~93 → 104 → 114 MB on two cores, and the wall time of DuckDB's own scan;
#: one thread would stay at ~91 MB but take twice that on an idle machine. JSON Lines read with one
#: thread stays at ~112 MB for any length (two threads: 127 → 167 MB) at about the same wall time.
#: ``None``: DuckDB's default (one per core). See ``benchmarks/bench_io.py``.
_LINE_THREADS: dict[str, int | None] = {"csv": None, "tsv": None, "jsonl": 1}
_LINE_BUFFER_BYTES = 2 * 1024 * 1024


def _eligible(side: Side) -> bool:
    src = side.source
    if side.proba or src.fmt not in ("csv", "tsv", "jsonl"):
        return False
    wanted = {side.true_col, side.pred_col}
    return set(src.columns) == wanted and len(src.columns) == len(wanted)


def _lines_relation(side: Side) -> str:
    src = side.source
    path = _literal(src.location or src.what)
    skip = 1 if src.fmt in ("csv", "tsv") else 0
    return (f"read_csv({path}, columns={{'l': 'VARCHAR'}}, header=false, skip={skip}, delim='\x01', quote='', "
            "escape='', auto_detect=false, null_padding=false, compression='auto', "
            f"buffer_size={_LINE_BUFFER_BYTES})")


def scan_lines(con: Any, sides: Sequence[Side], labels: Sequence[Label] | None) -> Scan | None:
    """The joint table of label-only text files, or None when the general scan must decide."""
    if not all(_eligible(s) for s in sides):
        return None
    m = len(sides)
    subs = ", ".join(f"s{i} AS (SELECT l AS l{i}, 1 AS h{i} FROM {_lines_relation(s)})" for i, s in enumerate(sides))
    join = " POSITIONAL JOIN ".join(f"s{i}" for i in range(m))
    keys = ", ".join(f"l{i}, h{i}" for i in range(m))
    fixed = [n for s in sides if (n := _LINE_THREADS.get(s.source.fmt)) is not None]
    threads = min(fixed) if fixed else None  # the fewest any side's format asks for
    try:
        if threads is not None:
            con.execute(f"SET threads = {threads}")
        rows = con.execute(f"WITH {subs} SELECT {keys}, count(*) FROM {join} GROUP BY ALL").fetchall()
    except Exception:  # noqa: BLE001 - the general scan reports it properly
        return None
    finally:
        if threads is not None:
            con.execute("RESET threads")
    parsers = [_csv_parser(s) if s.source.fmt in ("csv", "tsv") else _json_parser(s) for s in sides]
    cells: dict[tuple[str, ...], int] = {}
    for row in rows:
        lines, present, n = row[0:2 * m:2], row[1:2 * m:2], row[-1]
        if any(h is None for h in present):
            return None
        if all(line is None or not line.strip() for line in lines):
            continue  # a blank line in every file
        parsed = [parse(line) for parse, line in zip(parsers, lines)]
        if any(p is None for p in parsed):
            return None
        truth = parsed[0][0]  # type: ignore[index]
        if any(p[0] != truth for p in parsed):  # type: ignore[index]
            return None
        key = (truth, *(p[1] for p in parsed))  # type: ignore[index]
        cells[key] = cells.get(key, 0) + int(n)
    if not cells:
        return None
    keys_list = list(cells)
    res: dict[str, Any] = {"t0": np.array([k[0] for k in keys_list], dtype=object),
                           "n": np.array(list(cells.values()), dtype=np.int64)}
    for i in range(m):
        res[f"p{i}"] = np.array([k[1 + i] for k in keys_list], dtype=object)
    if labels is not None:
        allowed = {str(x) for x in labels}
        if any(x not in allowed for k in keys_list for x in k):
            return None
    return _build(con, sides, res, res["n"], labels)


def _ok(text: str) -> bool:
    return text != "" and len(text) <= MAX_LABEL_CHARS


def _csv_parser(side: Side) -> Any:
    delim = "," if side.source.fmt == "csv" else "\t"
    names = side.source.columns
    ti, pi = names.index(side.true_col), names.index(side.pred_col)

    def parse(line: str | None) -> tuple[str, str] | None:
        if line is None or '"' in line or "\r" in line.rstrip("\r") or len(line) > 4 * MAX_LABEL_CHARS:
            return None
        try:
            cells = next(csv.reader([line.rstrip("\r")], delimiter=delim), [])
        except csv.Error:
            return None
        if len(cells) != len(names):
            return None
        t, p = cells[ti].strip(), cells[pi].strip()
        return (t, p) if _ok(t) and _ok(p) else None

    return parse


def _json_label(value: Any) -> str | None:
    if isinstance(value, str):
        text = value.strip()
    elif isinstance(value, bool):
        text = str(int(value))
    elif isinstance(value, int):
        text = str(value)
    elif isinstance(value, float) and math.isfinite(value) and value == int(value) and abs(value) <= _FLOAT_INT_LIMIT:
        text = str(int(value))
    else:
        return None
    return text if _ok(text) else None


def _json_parser(side: Side) -> Any:
    def parse(line: str | None) -> tuple[str, str] | None:
        if line is None or len(line) > 4 * MAX_LABEL_CHARS:
            return None
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            return None
        if not isinstance(record, dict):
            return None
        t, p = _json_label(record.get(side.true_col)), _json_label(record.get(side.pred_col))
        return None if t is None or p is None else (t, p)

    return parse
