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

Score columns (``p_<label>``, ``proba_<label>``, ``score_<label>``) are packed into ONE ``DOUBLE[]``
column per part, ``"<i>:#p"`` (:data:`PACKED`), in the order of the file, each cell converted to a
number as a lone column would be (an empty cell or a non-number is NULL); where a row holds a cell that
is not a number, ``"<i>:#praw"`` keeps that row's cells as written, for the message that names it. A
file with 20,000 classes is then one list per row — DuckDB groups rows of at most 256 KB and nests
expressions at most 1,000 deep, so 20,000 separate columns (or a sum over 1,000 of them) cannot be
staged or scanned. The staged part maps every packed column to its position (:attr:`StagedPart.elements`),
so a later stage reads one of them as ``"<i>:#p"[j]`` and all of them as one list expression. The names of
a parsed input's columns (Parquet, a DataFrame, a query, a CSV read by the CSV parser) are read first
(``DESCRIBE``: the Parquet footer through the one descriptor, a query bound but not run); CSV/TSV lines
and JSON Lines records are packed when they are split (:mod:`advisor.io._csv_lines`, :func:`unpack_json`).

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
from ._duck import _INT_TYPES, Source, diagnose_text, duck_error, number_of, quote
from ._open import Part, file_part, retry_buffer
from ._watch import read_watch

__all__ = ["PACKED", "LinesFailed", "Staged", "StagedPart", "pack_lists", "role_regex", "stage"]

TABLE = "staged"
WEIGHT = '"#n"'
FIRST = '"#row"'
#: Column-name prefixes read besides the named columns: probabilities, per-class scores, multi-label
#: bits and annotators.
PREFIXES = ("p", "proba", "score", "true", "pred", "rater")
#: The score columns packed into one ``DOUBLE[]`` column per part (see the module docstring).
PACKED = re.compile(r"^(?:p|proba|score)_.+$")
PACK, PACK_RAW = "#p", "#praw"
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
    return "^(" + "|".join([*alts, "#h", PACK, PACK_RAW]) + ")$"


def _number_type(dtype: str) -> bool:
    t = dtype.upper()
    return t in _INT_TYPES or t in ("FLOAT", "DOUBLE", "REAL", "BOOLEAN") or t.startswith("DECIMAL")


def pack_lists(cells: Sequence[tuple[str, str]], same: str | None = None) -> tuple[str, str | None]:
    """``(values, raw)``: SQL of the ``DOUBLE[]`` of ``cells`` (``(SQL, DuckDB type)`` pairs) and of their text
    (None when every cell is a number type, so a NULL is an empty cell). ``same``: every cell has this type,
    and the values are one ``list_transform`` over them."""
    if same is not None:
        listed = "[" + ", ".join(c for c, _ in cells) + "]"
        conv = number_of("x", same)
        values = (f"CAST({listed} AS DOUBLE[])" if conv == "CAST(x AS DOUBLE)"
                  else f"list_transform({listed}, lambda x: CAST({conv or 'NULL'} AS DOUBLE))")
        raw = None if _number_type(same) else f"list_transform({listed}, lambda x: CAST(x AS VARCHAR))"
        return values, raw
    values = "[" + ", ".join(f"CAST({number_of(c, t) or 'NULL'} AS DOUBLE)" for c, t in cells) + "]"
    if all(_number_type(t) for _, t in cells):
        return values, None
    return values, "[" + ", ".join(f"CAST({c} AS VARCHAR)" for c, _ in cells) + "]"


def with_pack(relation: str, values: str, raw: str | None, drop: Sequence[str]) -> str:
    """``relation`` with its columns ``drop`` replaced by the packed list ``"#p"`` (and ``"#praw"``, the cells
    as written, on the rows where one of them is not a number)."""
    rel = f"(SELECT *, {values} AS {quote(PACK)} FROM {relation})"
    if raw is not None:
        p = quote(PACK)
        rel = f"(SELECT *, CASE WHEN list_count({p}) < len({p}) THEN {raw} END AS {quote(PACK_RAW)} FROM {rel})"
    return f"(SELECT * EXCLUDE ({', '.join(quote(c) for c in drop)}) FROM {rel})"


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
    #: packed score column → its 1-based position in the part's ``"<i>:#p"`` list
    elements: dict[str, int] = field(default_factory=dict)
    #: the part's ``"<i>:#praw"`` column (cells as written where one is not a number), if it has one
    raw_list: str | None = None
    #: a CSV/TSV part's header line split into names, once advisor.io._csv_lines has read it
    header: list[str] | None = None

    @property
    def present(self) -> str:
        """SQL that is NULL on the rows a shorter part lacks (always 1 for the only part)."""
        return "1" if self.alone else quote(f"{self.index}:#h")

    def source(self) -> Source:
        """A :class:`Source` whose label and number SQL read this part's staged columns."""
        return Source(self.part.what, self.part.fmt, self.table, list(self.columns), dict(self.types),
                      dict(self.columns), self.part.location, dict(self.elements), self.raw_list)

    def set_pack(self, names: Sequence[str], raw: bool) -> None:
        """Record that ``names`` are packed, in this order, into ``"<i>:#p"`` (and ``"<i>:#praw"``)."""
        col = f"{self.index}:{PACK}"
        for j, name in enumerate(names, 1):
            self.columns[name] = col
            self.types[name] = "DOUBLE"
            self.elements[name] = j
        self.raw_list = f"{self.index}:{PACK_RAW}" if raw else None


@dataclass
class Staged:
    """The staged table of a run and its parts."""

    parts: list[StagedPart]
    table: str = TABLE


def _part_sql(sp: Part, i: int, regex: str | None, dup_regex: str | None, alone: bool,
              packed: Sequence[tuple[str, str]] = ()) -> str:
    """One part's select. ``alone``: the only part, so every row is present and no ``#h`` column is needed
    (a constant grouping key costs a third of the scan's time on a label-only file). ``packed``: the
    ``(name, type)`` of the parsed part's score columns, staged as one list."""
    h = "" if alone else f", 1 AS {quote(f'{i}:#h')}"
    if sp.mode == "lines":
        return f"SELECT l AS {quote(f'{i}:#line')}{h} FROM {sp.relation}"
    if sp.fmt == "jsonl":
        return f"SELECT json AS {quote(f'{i}:#json')}{h} FROM {sp.relation}"
    relation = sp.relation
    if packed:
        types = {t for _, t in packed}
        values, raw = pack_lists([(quote(n), t) for n, t in packed], types.pop() if len(types) == 1 else None)
        relation = with_pack(relation, values, raw, [n for n, _ in packed])
    if regex is None:
        return f"SELECT COLUMNS('^(.*)$') AS '{i}:\\1'{h} FROM {relation}"
    cols = f"COLUMNS('{regex}') AS '{i}:\\1'{h}"
    if not dup_regex:
        return f"SELECT {cols} FROM {relation}"
    cols += f", COLUMNS('{dup_regex}') AS '{i}:#dup:\\1'"
    return f"SELECT {cols} FROM (SELECT *, NULL::VARCHAR AS \"#pad\" FROM {relation})"


def _statement(parts: Sequence[Part], regexes: Sequence[str | None], dups: Sequence[str | None], table: str,
               packs: Sequence[Sequence[tuple[str, str]]]) -> str:
    alone = len(parts) == 1
    subs = [f"({_part_sql(p, i, r, d, alone, pk)})" for i, (p, r, d, pk) in enumerate(zip(parts, regexes, dups, packs))]
    joined = " POSITIONAL JOIN ".join(subs)
    keys = "COLUMNS('^[0-9]+:([^#]|#h$|#json$|#line$|#p$|#praw$)')"
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
    orders: list[list[str]] = [[] for _ in parts]
    for _ in range(8):  # a retry only when a line is longer than the reader's buffer (see _open.py)
        try:
            packs = []
            for k, (p, rx) in enumerate(zip(parts, regexes)):
                orders[k], pack = _parsed_columns(con, p, rx)
                packs.append(pack)
            for p in parts:
                p.opened()
            with read_watch(_reading(parts), con.query_progress):  # a long read is estimated and shown
                con.execute(_statement(parts, regexes, dups, table, packs))
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
    raws = set()
    for name, dtype, *_ in desc:
        m = re.match(r"^([0-9]+):(.*)$", str(name))
        if m:
            sp = staged[int(m.group(1))]
            user = m.group(2)
            if user == "#h" or user == "#dup:#pad" or user == PACK:
                continue
            if user == PACK_RAW:
                raws.add(sp.index)
                continue
            if user.startswith("#dup:"):
                sp.duplicated.append(user[5:])
                continue
            sp.columns[user] = str(name)
            sp.types[user] = "JSON" if user == "#json" else str(dtype)
    for sp, pack, order in zip(staged, packs, orders):
        if pack:
            sp.set_pack([n for n, _ in pack], sp.index in raws)
        if order:  # the columns in the input's own order
            rank = {c: j for j, c in enumerate(order)}
            sp.columns = dict(sorted(sp.columns.items(), key=lambda kv: rank.get(kv[0], len(rank))))
    return Staged(staged, table)


def _reading(parts: Sequence[Part]) -> str:
    """What a read is called in the sentence that estimates it: ``reading a.csv and b.csv (1.2 GB)``."""
    names = [p.path.name if p.path is not None else p.what for p in parts]
    sizes = [p.path.stat().st_size for p in parts if p.path is not None]
    shown = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}" if len(names) <= 3 \
        else f"{names[0]} and {len(names) - 1} more files"
    total = sum(sizes)
    size = "" if not sizes else f" ({total / 1e9:.1f} GB)" if total >= 1e9 else f" ({max(total / 1e6, 1):.0f} MB)"
    return f"reading {shown}{size}"


def _parsed_columns(con: Any, part: Part, regex: str | None) -> tuple[list[str], list[tuple[str, str]]]:
    """``(names, packed)`` of a part DuckDB parses (Parquet, a DataFrame, a query, CSV by the CSV parser):
    its column names in order, and the ``(name, type)`` of the score columns this part packs. Lines and
    JSON Lines parts are packed when they are split; they give ``([], [])``."""
    if part.mode == "lines" or part.fmt == "jsonl":
        return [], []
    wanted = lambda n: PACKED.match(n) and (regex is None or re.fullmatch(regex, n))  # noqa: E731
    if part.schema is not None and all(t != "?" for n, t in part.schema if wanted(n)):
        return [n for n, _ in part.schema], [(n, t) for n, t in part.schema if wanted(n)]
    desc = con.execute(f"DESCRIBE SELECT * FROM {part.relation}").fetchall()
    return [str(r[0]) for r in desc], [(str(n), str(t)) for n, t, *_ in desc if wanted(str(n))]


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
        return InputError(err.text.replace(f"could not read {part.what} as a query result:", f"{part.what} failed:"))
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
    raws: list[tuple[str, str, str]] = []
    for sp in jparts:
        col = quote(sp.columns.pop("#json"))
        sp.types.pop("#json", None)
        _check_records(con, sp, col, table)
        keys = [str(r[0]) for r in con.execute(f"SELECT DISTINCT unnest(json_keys({col})) FROM {table} "
                                               f"WHERE {col} IS NOT NULL").fetchall()]
        rx = regexes[sp.index]
        wanted = [k for k in keys if rx is None or re.fullmatch(rx, k)]
        wanted.sort(key=keys.index)
        packed = [k for k in wanted if PACKED.match(k)]
        for k in wanted:
            if k in packed:
                continue
            name = f"{sp.index}:{k}"
            extracted.append(f"json_extract({col}, {_pointer(k)}) AS {quote(name)}")
            sp.columns[k] = name
            sp.types[k] = "JSON"
        if packed:  # the score keys as one DOUBLE[] (see the module docstring)
            values = f"json_extract({col}, [{', '.join(_pointer(k) for k in packed)}])"
            pcol, tcol = quote(f"{sp.index}:{PACK}"), quote(f"{sp.index}:#ptext")
            extracted += [f"list_transform({values}, lambda x: CAST({number_of('x', 'JSON')} AS DOUBLE)) AS {pcol}",
                          f"list_transform({values}, lambda x: CAST(x AS VARCHAR)) AS {tcol}"]
            raws.append((pcol, tcol, quote(f"{sp.index}:{PACK_RAW}")))
            sp.set_pack(packed, True)
            at = {k: j for j, k in enumerate(wanted)}
            sp.columns = dict(sorted(sp.columns.items(), key=lambda kv: at.get(kv[0], len(at))))
    drop = ", ".join(quote(f"{sp.index}:#json") for sp in jparts)
    select = f"SELECT * EXCLUDE ({drop}){''.join(', ' + e for e in extracted)} FROM {table}"
    if raws:  # the cells as written stay only on the rows where one of them is not a number
        select = (f"SELECT * EXCLUDE ({', '.join(t for _, t, _ in raws)}), "
                  + ", ".join(f"CASE WHEN list_count({p}) < len({p}) THEN {t} END AS {r}" for p, t, r in raws)
                  + f" FROM ({select})")
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS {select} ORDER BY {FIRST}")


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
