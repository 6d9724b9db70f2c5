"""One statement per run: every input read once, side by side, into a small temporary table.

:func:`stage` runs::

    CREATE TEMP TABLE staged AS
    SELECT <the columns advisor reads, of every part>, count(*) AS "#n", min("#rn") AS "#row"
    FROM (SELECT *, row_number() OVER () AS "#rn" FROM part0 POSITIONAL JOIN part1 …)
    GROUP BY ALL

Each part contributes only the columns a later stage may read, chosen by name in the same scan
(DuckDB's ``COLUMNS(regex)``, so the header is inspected once, by the reader itself): the label
columns, ``id``, ``score``, ``p_``/``proba_``/``score_``/``true_``/``pred_``/``rater_`` columns, a count
column — everything else (a text column holding a document) is never materialised. A JSON Lines part
contributes its records, whose keys are read from the staged table (:func:`unpack_json`).

Grouping makes the table as small as the data allow: the distinct label combinations for label-only
files (a confusion table, whatever the number of rows), one row per item where scores or ids make the
rows distinct. ``"#n"`` counts the rows of each combination and ``"#row"`` is the first of them (rows
counted from 1 without the header), so every check names the first offending row and item arrays come
back in file order, without reading the file again. Several files are put side by side by row order
(``POSITIONAL JOIN``); a shorter file leaves its ``"<i>:#h"`` column NULL on the extra rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import InputError
from ._duck import Source, diagnose_text, duck_error, quote
from ._open import Part, file_part, retry_buffer

__all__ = ["LinesFailed", "Staged", "StagedPart", "role_regex", "stage"]

TABLE = "staged"
WEIGHT = '"#n"'
FIRST = '"#row"'
#: Column-name prefixes read besides the named columns: probabilities, per-class scores, multi-label
#: bits and annotators.
PREFIXES = ("p", "proba", "score", "true", "pred", "rater")
_FMT_NAMES = {"csv": "CSV", "tsv": "TSV", "jsonl": "JSON Lines", "parquet": "Parquet", "sql": "a query result",
              "table": "a table"}


def _re_escape(name: str) -> str:
    """``name`` as a literal in DuckDB's (RE2) regular expressions."""
    return re.sub(r"([\\.^$|?*+()\[\]{}])", r"\\\1", name)


def role_regex(names: Sequence[str], prefixes: bool = True) -> str:
    """The regular expression selecting the columns a part contributes (always also ``#h``)."""
    alts = [_re_escape(n) for n in dict.fromkeys(names)]
    if prefixes:
        alts.append(f"(?:{'|'.join(PREFIXES)})_.+")
    return "^(" + "|".join([*alts, "#h"]) + ")$"


@dataclass
class StagedPart:
    """One part in the staged table: its columns (as the user named them) → staged column and type."""

    part: Part
    index: int
    columns: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)
    duplicated: list[str] = field(default_factory=list)
    table: str = TABLE

    alone: bool = False

    @property
    def present(self) -> str:
        """SQL that is NULL on the rows a shorter part lacks (always 1 for the only part)."""
        return "1" if self.alone else quote(f"{self.index}:#h")

    def source(self) -> Source:
        """A :class:`Source` whose label and number SQL read this part's staged columns."""
        return Source(self.part.what, self.part.fmt, self.table, list(self.columns), dict(self.types),
                      dict(self.columns), self.part.location)


@dataclass
class Staged:
    """The staged table of a run and its parts."""

    parts: list[StagedPart]
    table: str = TABLE


def _part_sql(sp: Part, i: int, regex: str | None, dup_regex: str | None, alone: bool) -> str:
    """One part's select. ``alone``: the only part, so every row is present and no ``#h`` column is needed
    (a constant grouping key costs a third of the scan's time on a label-only file)."""
    h = "" if alone else f", 1 AS {quote(f'{i}:#h')}"
    if sp.mode == "lines":
        return f"SELECT l AS {quote(f'{i}:#line')}{h} FROM {sp.relation}"
    if sp.fmt == "jsonl":
        return f"SELECT json AS {quote(f'{i}:#json')}{h} FROM {sp.relation}"
    if regex is None:
        return f"SELECT COLUMNS('^(.*)$') AS '{i}:\\1'{h} FROM {sp.relation}"
    cols = f"COLUMNS('{regex}') AS '{i}:\\1'{h}"
    if not dup_regex:
        return f"SELECT {cols} FROM {sp.relation}"
    cols += f", COLUMNS('{dup_regex}') AS '{i}:#dup:\\1'"
    return f"SELECT {cols} FROM (SELECT *, NULL::VARCHAR AS \"#pad\" FROM {sp.relation})"


def _statement(parts: Sequence[Part], regexes: Sequence[str | None], dups: Sequence[str | None], table: str) -> str:
    alone = len(parts) == 1
    subs = [f"({_part_sql(p, i, r, d, alone)})" for i, (p, r, d) in enumerate(zip(parts, regexes, dups))]
    joined = " POSITIONAL JOIN ".join(subs)
    keys = "COLUMNS('^[0-9]+:([^#]|#h$|#json$|#line$)')"
    dup_aggs = ", count(COLUMNS('^[0-9]+:#dup:'))" if any(dups) else ""
    first = 'min("#rn") - 1' if any(p.mode == "lines" for p in parts) else 'min("#rn")'  # lines: row 0 is the header
    return (f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT {keys}{dup_aggs}, count(*) AS {WEIGHT}, "
            f'{first} AS {FIRST} FROM (SELECT *, row_number() OVER () AS "#rn" FROM {joined}) GROUP BY ALL')


def stage(con: Any, parts: list[Part], regexes: Sequence[str | None], dups: Sequence[str | None] | None = None,
          table: str = TABLE) -> Staged:
    """Read every part once, side by side, into the staged table (see the module docstring).

    ``regexes[i]`` selects the columns of part ``i`` (None: all, for a query); ``dups[i]`` the names
    under which DuckDB would rename a repeated label column (``y_true_1``), looked at, not grouped on.
    """
    dups = list(dups) if dups is not None else [None] * len(parts)
    for _ in range(8):  # a retry only when a line is longer than the reader's buffer (see _open.py)
        try:
            for p in parts:
                p.opened()
            con.execute(_statement(parts, regexes, dups, table))
            break
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - every DuckDB error becomes one sentence naming the input
            culprit = _culprit(parts, exc)
            if "No matching columns" in str(exc):
                raise _no_columns(con, parts, regexes) from None
            if culprit.mode == "lines" and "Maximum line size" not in str(exc):
                raise LinesFailed from None  # the CSV reader proper reads it again and names the problem
            bigger = retry_buffer(culprit, exc)
            if bigger is None:
                raise _stage_error(culprit, exc) from None
            at = parts.index(culprit)
            parts[at] = file_part(con, culprit.path, culprit.fmt, bigger,  # type: ignore[arg-type]
                                  lines=culprit.mode == "lines")
    desc = con.execute(f"DESCRIBE {table}").fetchall()
    staged = [StagedPart(p, i, table=table, alone=len(parts) == 1) for i, p in enumerate(parts)]
    for name, dtype, *_ in desc:
        m = re.match(r"^([0-9]+):(.*)$", str(name))
        if m:
            sp = staged[int(m.group(1))]
            user = m.group(2)
            if user == "#h" or user == "#dup:#pad":
                continue
            if user.startswith("#dup:"):
                sp.duplicated.append(user[5:])
                continue
            sp.columns[user] = str(name)
            sp.types[user] = "JSON" if user == "#json" else str(dtype)
    return Staged(staged, table)


def _no_columns(con: Any, parts: Sequence[Part], regexes: Sequence[str | None]) -> InputError:
    """None of the columns advisor reads is in a part: say which part and what it has (read again: error path)."""
    for p, rx in zip(parts, regexes):
        try:
            names = [str(r[0]) for r in con.execute(f"DESCRIBE SELECT * FROM {p.relation}").fetchall()]
        except Exception:  # noqa: BLE001
            continue
        if rx is not None and not any(re.fullmatch(rx, n) for n in names):
            wanted = re.sub(r"[\\^$()]|\|#h|\|\(\?:.*", "", rx).replace("|", ", ")
            have = ", ".join(repr(n) for n in names[:30]) or "none"
            return InputError(f"{p.what} has none of the columns advisor reads ({wanted}, p_<label>, …); its columns "
                              f"are {have}.")
    return InputError(f"{parts[0].what} has none of the columns advisor reads.")


def _culprit(parts: Sequence[Part], exc: Exception) -> Part:
    text = str(exc)
    return next((p for p in parts if p.kind == "file" and (p.location in text or p.what in text)), parts[0])


class LinesFailed(Exception):
    """A CSV/TSV read as lines failed in DuckDB (a line holding the \\x01 separator, bad bytes): read it again
    with DuckDB's CSV parser, which names the problem (:mod:`advisor.io._csv_lines`)."""


def _stage_error(part: Part, exc: Exception) -> InputError:
    if part.kind == "file" and part.path is not None and part.fmt in ("csv", "tsv", "jsonl"):
        diagnose_text(part.path, part.fmt)  # an encoding problem (UTF-16, binary) is the message, when it is one
    err = duck_error(part.what, _FMT_NAMES.get(part.fmt, part.fmt), exc)
    if part.kind == "sql":
        return InputError(str(err).replace(f"could not read {part.what} as a query result:", f"{part.what} failed:"))
    return err


_MAX_JSON_DEPTH = 128  # as deep as a record may nest (a few labels, a list of labels)


def _pointer(key: str) -> str:
    return "'/" + key.replace("~", "~0").replace("/", "~1").replace("'", "''") + "'"


def unpack_json(con: Any, staged: Staged, regexes: Sequence[str | None]) -> None:
    """Replace each JSON Lines part's records by the keys it contributes (each as a JSON value).

    The keys are those of the staged records that the part's regular expression selects; a record
    that is not a JSON object, or nests deeper than 128 levels, is refused with its row named.
    """
    jparts = [sp for sp in staged.parts if "#json" in sp.columns]
    if not jparts:
        return
    table = staged.table
    extracted: list[str] = []
    for sp in jparts:
        col = quote(sp.columns.pop("#json"))
        sp.types.pop("#json", None)
        _check_records(con, sp, col, table)
        keys = [str(r[0]) for r in con.execute(f"SELECT DISTINCT unnest(json_keys({col})) FROM {table} "
                                               f"WHERE {col} IS NOT NULL").fetchall()]
        rx = regexes[sp.index]
        wanted = [k for k in keys if rx is None or re.fullmatch(rx, k)]
        wanted.sort(key=keys.index)
        for k in wanted:
            name = f"{sp.index}:{k}"
            extracted.append(f"json_extract({col}, {_pointer(k)}) AS {quote(name)}")
            sp.columns[k] = name
            sp.types[k] = "JSON"
    drop = ", ".join(quote(f"{sp.index}:#json") for sp in jparts)
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * EXCLUDE ({drop})"
                f"{''.join(', ' + e for e in extracted)} FROM {table} ORDER BY {FIRST}")


def _check_records(con: Any, sp: StagedPart, col: str, table: str) -> None:
    row = con.execute(f"SELECT {FIRST}, json_type({col}) FROM {table} WHERE {col} IS NOT NULL AND "
                      f"json_type({col}) <> 'OBJECT' ORDER BY {FIRST} LIMIT 1").fetchone()
    if row is not None:
        raise InputError(f"{sp.part.what} row {row[0]}: the line is a JSON {str(row[1]).lower()}, not an object; each "
                         "line must be one JSON object such as {\"y_true\": \"a\", \"y_pred\": \"b\"}.")
    deep = con.execute(f"SELECT {FIRST}, CAST({col} AS VARCHAR) FROM {table} WHERE {col} IS NOT NULL AND "
                       f"length(CAST({col} AS VARCHAR)) - length(replace(replace(CAST({col} AS VARCHAR), '[', ''), "
                       f"'{{', '')) > {_MAX_JSON_DEPTH} ORDER BY {FIRST}").fetchall()
    for r, text in deep:
        if _json_depth(text) > _MAX_JSON_DEPTH:
            raise InputError(f"{sp.part.what} row {r}: a JSON record nested deeper than {_MAX_JSON_DEPTH} levels; a "
                             "record holds a few labels (or one list of labels).")


def _json_depth(line: str) -> int:
    """The deepest nesting of ``[``/``{`` in one JSON text, brackets inside strings not counted."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest
