"""CSV and TSV files staged as whole lines, split by DuckDB afterwards: fast, exact, and checked for lost lines.

Parsing every cell of a 10^7-row file as text costs DuckDB's CSV reader about 1.5× its bare ``GROUP
BY`` on typed columns; a label-only file, though, has few distinct lines. So when every input of a run
is CSV/TSV, the staging statement reads each file as lines (one opaque string per line, no quoting)
and groups them (:mod:`advisor.io._stage`); :func:`unpack_lines` then takes the header from the first
line (Python's ``csv``, so a repeated column name is seen as such) and splits the staged distinct
lines with DuckDB's ``string_split`` — or, for a line holding a quote, with a regular expression whose
match must cover the whole line. Rows stay counted from 1 without the header.

Two checks make sure no line was lost or misread, and send the run to the ordinary CSV reader
(:class:`Reparse`, a second read of the files) when either fails:

* every byte is accounted for: the staged lines (with their line ends) add up to the file's size —
  DuckDB 2.0.1's reader can drop a line longer than its buffer without an error, and this finds it
  (uncompressed files; a compressed file's lines are read with a buffer of :data:`~._open.LARGE_BUFFER`);
* no line holds an odd number of quotes: a quoted cell spanning lines needs the real CSV parser.
"""

from __future__ import annotations

import collections
import csv
import re
from collections.abc import Sequence
from typing import Any

from .._exceptions import InputError
from ._duck import _WS, _literal, diagnose_text, number_of, quote
from ._label_limits import check_labels
from ._stage import FIRST, PACK, PACK_RAW, PACKED, WEIGHT, Staged, StagedPart

__all__ = ["Reparse", "unpack_lines"]


class Reparse(Exception):
    """The lines cannot be trusted or split as lines: read the files with DuckDB's CSV parser instead."""


def _header(sp: StagedPart, line: Any) -> list[str]:
    if line is None or not str(line).strip():
        raise InputError(f"{sp.part.what} has no header line; the first line must name the columns.")
    delim = "," if sp.part.fmt == "csv" else "\t"
    try:
        return [c.strip() for c in next(csv.reader([str(line).lstrip("\ufeff")], delimiter=delim))]
    except csv.Error:
        raise Reparse from None


def _check_bytes(sp: StagedPart, lines: int, chars: int) -> None:
    """Every byte of an uncompressed file is in the staged lines (or its line ends, a BOM, a last newline)."""
    if sp.part.path is None or sp.part.compression is not None:
        return
    left = sp.part.path.stat().st_size - chars
    if any(left - crs in (-1, 0, 2, 3) for crs in (0, lines - 1, lines)):  # LF or CRLF ends, a BOM, no last newline
        return
    raise Reparse


def _cells_sql(col: str, delim: str) -> str:
    """The cells of a line: ``string_split``, or for a line with a quote a field-by-field match."""
    d = _literal(delim)
    esc = "\\t" if delim == "\t" else delim
    field = f'("(?:[^"]|"")*"|[^{esc}"]*)({esc}|$)'
    quoted = (f"list_transform(regexp_extract_all({col}, {_literal(field)}, 1), "
              f"lambda x: CASE WHEN starts_with(x, '\"') THEN replace(x[2:-2], '\"\"', '\"') ELSE x END)")
    # the match list ends with a spurious empty field unless the line ends with the delimiter
    quoted = f"CASE WHEN ends_with({col}, {d}) THEN {quoted} ELSE {quoted}[:-2] END"
    return f"CASE WHEN contains({col}, '\"') THEN {quoted} ELSE string_split({col}, {d}) END"


def _quoted_ok_sql(col: str, delim: str) -> str:
    """Whether the quote-aware split of ``col`` covered the whole line with its quotes paired (else a quoted
    cell spans lines, or the line is not plain CSV)."""
    esc = "\\t" if delim == "\t" else delim
    field = f'("(?:[^"]|"")*"|[^{esc}"]*)({esc}|$)'
    raw = f"regexp_extract_all({col}, {_literal(field)}, 0)"
    # CASE: the regular expression runs on the lines with a quote only (an OR evaluates both sides on every line)
    return (f"(CASE WHEN contains({col}, '\"') THEN list_sum(list_transform({raw}, lambda x: strlen(x))) = strlen({col}) "
            f"AND (strlen({col}) - strlen(replace({col}, '\"', ''))) % 2 = 0 ELSE true END)")


def unpack_lines(con: Any, staged: Staged, regexes: list[str | None], labels: Sequence[str] = ()) -> None:
    """Replace each lines part's lines by the cells of the columns it contributes (VARCHAR, as written).

    A file that does not split as CSV is first looked at for its encoding (UTF-16, binary), which then
    is the message."""
    try:
        _unpack(con, staged, regexes, labels)
    except InputError:
        for sp in staged.parts:
            if sp.part.path is not None:
                diagnose_text(sp.part.path, sp.part.fmt)
        raise


def _unpack(con: Any, staged: Staged, regexes: list[str | None], labels: Sequence[str]) -> None:
    parts = [sp for sp in staged.parts if "#line" in sp.columns]
    if not parts:
        return
    table = staged.table
    outs: list[str] = []
    inner: list[str] = []
    raws: list[tuple[str, str, str]] = []  # (packed list, its cells as written, the raw column) per packing part
    lines_of: dict[int, str] = {}
    for sp in parts:
        col = quote(sp.columns.pop("#line"))
        sp.types.pop("#line", None)
        lines_of[sp.index] = col
        delim = "," if sp.part.fmt == "csv" else "\t"
        # one pass over the staged lines: bytes, header, lines that do not split as CSV
        lines, chars, head, bad = con.execute(
            f"SELECT sum({WEIGHT}), sum({WEIGHT} * (coalesce(strlen({col}), 0) + 1)), "
            f"max(CASE WHEN {FIRST} = 0 THEN {col} END), "
            f"min(CASE WHEN {FIRST} > 0 AND {col} IS NOT NULL AND NOT ({_quoted_ok_sql(col, delim)}) THEN 1 END) "
            f"FROM {table} WHERE {sp.present} IS NOT NULL").fetchone()
        _check_bytes(sp, int(lines or 0), int(chars or 0))
        if bad is not None:
            raise Reparse
        sp.header = header = _header(sp, head)
        _take_columns(sp, regexes[sp.index])
        cells = _cells_sql(col, delim)
        n = len(header)
        row = con.execute(f"SELECT {FIRST}, len({cells}) AS k FROM {table} WHERE {FIRST} > 0 AND {col} IS NOT NULL AND "
                          f"len({cells}) <> {n} ORDER BY {FIRST} LIMIT 1").fetchone()
        if row is not None:
            raise InputError(f"{sp.part.what} row {row[0]}: the row has {row[1]} cells but the header names {n} "
                             "columns.")
        # an id column taken for the labels is refused before ten million lines are split (issue 25 item 9)
        cell = {c: f"({cells})[{header.index(c) + 1}]" for c in labels if c in header}
        check_labels(con, sp.part.what, sp.part.fmt, table,
                     {c: (x, f"trim({x}, {_WS})") for c, x in cell.items()}, f"{col} IS NOT NULL AND {FIRST} > 0 AND "
                     f"{sp.present}")
        name = quote(f"{sp.index}:#cells")
        inner.append(f"{cells} AS {name}")
        at: dict[str, int] = {}  # each name's first position (a repeated name is refused below)
        for j, c in enumerate(header):
            at.setdefault(c, j)
        packed = [c for c in sp.columns if PACKED.match(c)]
        outs += [f"{name}[{at[c] + 1}] AS {quote(t)}" for c, t in sp.columns.items() if not PACKED.match(c)]
        if packed:  # the score columns as one DOUBLE[] (see advisor.io._stage)
            texts = f"list_select({name}, [{', '.join(str(at[c] + 1) for c in packed)}])"
            pcol, tcol = quote(f"{sp.index}:{PACK}"), quote(f"{sp.index}:#ptext")
            outs += [f"list_transform({texts}, lambda x: {number_of('x', 'VARCHAR')}) AS {pcol}", f"{texts} AS {tcol}"]
            raws.append((pcol, tcol, quote(f"{sp.index}:{PACK_RAW}")))
            for c in packed:
                del sp.columns[c]
                sp.types.pop(c, None)
            sp.set_pack(packed, True)
            sp.columns = dict(sorted(sp.columns.items(), key=lambda kv: at.get(kv[0], len(at))))
    blank = " AND ".join(f"coalesce(trim({c}), '') = ''" for c in lines_of.values())
    keep = ", ".join(quote(c) for c in _other_columns(con, table, list(lines_of.values())))
    # the header lines (row 0) are no data; a data row equal to them keeps its count (and is placed at row 1)
    select = (f"SELECT {keep}{', ' if keep else ''}"
              f"{WEIGHT} - CASE WHEN {FIRST} = 0 THEN 1 ELSE 0 END AS {WEIGHT}, greatest({FIRST}, 1) AS {FIRST}, "
              f"{', '.join(outs)} FROM (SELECT *, {', '.join(inner)} FROM {table} WHERE NOT ({blank}) AND "
              f"NOT ({FIRST} = 0 AND {WEIGHT} = 1))")
    if raws:  # the cells as written stay only on the rows where one of them is not a number
        select = (f"SELECT * EXCLUDE ({', '.join(t for _, t, _ in raws)}), "
                  + ", ".join(f"CASE WHEN list_count({p}) < len({p}) THEN {t} END AS {r}" for p, t, r in raws)
                  + f" FROM ({select})")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS {select} ORDER BY {FIRST}")
    for sp in parts:
        times = collections.Counter(sp.header or [])
        repeated = next((c for c in sp.header or [] if times[c] > 1 and c in sp.columns), None)
        if repeated is not None:
            raise InputError(f"{sp.part.what} has {times[repeated]} columns named {repeated!r}; rename "
                             "all but one so it is clear which to read.")


def _take_columns(sp: StagedPart, rx: str | None) -> None:
    """The header's columns this part contributes (those the part's regular expression selects)."""
    for name in sp.header or []:
        if name in sp.columns or (rx is not None and not re.fullmatch(rx, name)):
            continue
        sp.columns[name] = f"{sp.index}:{name}"
        sp.types[name] = "VARCHAR"


def _other_columns(con: Any, table: str, lines: list[str]) -> list[str]:
    """The staged columns that are neither lines nor the weight and first row (the parts' ``#h``)."""
    skip = {c.strip('"').replace('""', '"') for c in lines} | {WEIGHT.strip('"'), FIRST.strip('"')}
    return [str(r[0]) for r in con.execute(f"DESCRIBE {table}").fetchall() if str(r[0]) not in skip]
