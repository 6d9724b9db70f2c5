"""DuckDB sources: a file, a DataFrame or a query as a relation whose label columns read as text.

Every input the readers accept becomes a :class:`Source`: a ``FROM`` clause DuckDB can scan (a
``read_csv``/``read_json``/``read_parquet`` call — compressed ``.gz``/``.zst`` files too — a registered
Arrow table or DataFrame, or a user's query), its column names and types, and the SQL that turns each
label column into its text (see :mod:`advisor.io._readers` for the typing rule) and each number column
into a DOUBLE. The counting itself (``GROUP BY``) is in :mod:`advisor.io._scan`.

DuckDB runs in-process; one connection per read, closed when the read ends (also on an error, so no
reader thread outlives the command).
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._exceptions import InputError

__all__ = [
    "MAX_LABEL_CHARS",
    "Connection",
    "TABLE_FORMATS",
    "Source",
    "check_file",
    "connect",
    "duck_error",
    "file_source",
    "quote",
    "table_format",
]

TABLE_FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
COMPRESSIONS = {".gz": "gzip", ".zst": "zstd"}
#: Longest label accepted (characters); a longer one is refused with its row named.
MAX_LABEL_CHARS = 10_000
_SNIFF_BYTES = 8192
_WS = "' \t\r\n\x0b\x0c'"  # what a label is trimmed of, as a SQL string
_INT_TYPES = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
              "UBIGINT", "UHUGEINT")
_FLOAT_TYPES = ("FLOAT", "DOUBLE", "REAL")
# floats are exact integers only up to 2**53: beyond it a label would silently merge with its neighbours
_FLOAT_INT_LIMIT = 2.0 ** 53


def quote(name: str) -> str:
    """A SQL identifier, quoted."""
    return '"' + str(name).replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + str(text).replace("'", "''") + "'"


#: DuckDB's memory budget. Counting needs little (the hash table of distinct cells, the readers'
#: buffers — the JSON reader's are 32 MB); without a budget DuckDB may cache up to 80 % of RAM. Beyond
#: it, it spills to a private temporary folder, never to the user's working directory.
DUCKDB_MEMORY = "256MB"


class Connection:
    """An in-memory DuckDB connection whose ``close`` also removes its private spill folder."""

    def __init__(self) -> None:
        import tempfile

        import duckdb

        self._tmp = tempfile.mkdtemp(prefix="advisor-duckdb-")
        self._con = duckdb.connect(":memory:")
        for setting in ("enable_progress_bar = false", "preserve_insertion_order = true",
                        f"memory_limit = '{DUCKDB_MEMORY}'", f"temp_directory = {_literal(self._tmp)}"):
            self._con.execute(f"SET {setting}")

    def execute(self, sql: str) -> Any:
        return self._con.execute(sql)

    def path_for(self, path: Path) -> str:
        """The path to give DuckDB: a link with a plain name where ``path`` has glob characters
        (DuckDB would read ``{a,b}.csv`` or ``x[1].csv`` as a pattern, not as the file)."""
        text = str(path)
        if not re.search(r"[*?\[\]{}\\]", text):
            return text
        import os

        link = Path(self._tmp) / f"input{len(os.listdir(self._tmp))}{''.join(path.suffixes[-2:])}"
        link.symlink_to(path.resolve())
        return str(link)

    def register(self, name: str, obj: Any) -> None:
        self._con.register(name, obj)

    def close(self) -> None:
        import shutil

        self._con.close()
        shutil.rmtree(self._tmp, ignore_errors=True)


def connect() -> Connection:
    """A fresh in-memory DuckDB connection (progress bar off, insertion order kept, memory bounded)."""
    return Connection()


def duck_error(what: str, fmt: str, exc: Exception) -> InputError:
    """One sentence from a DuckDB error: ``could not read X as FMT: <first line>.``"""
    text = str(exc).strip()
    line = re.search(r"CSV Error on Line: (\d+)", text)
    if line:
        return InputError(f"{what} row {max(int(line.group(1)) - 1, 1)}: {_csv_reason(text)}.")
    if "maximum_object_size" in text or "maximum recursion depth" in text:
        return InputError(f"{what} has a JSON record larger than 16 MB or nested deeper than 128 levels; a record "
                          f"holds a few labels, and a label may have at most {MAX_LABEL_CHARS:,} characters.")
    first = next((line.strip() for line in text.splitlines() if line.strip()), type(exc).__name__)
    first = re.sub(r"^[A-Za-z ]*Error: ", "", first).split(". ")[0].rstrip(".!")
    if len(first) > 200:
        first = first[:200] + "…"
    if "unicode" in first.lower() or "utf-8" in first.lower() or "utf8" in first.lower():
        return InputError(f"{what} is not UTF-8 text: convert it with iconv (e.g. iconv -f LATIN1 -t UTF-8).")
    return InputError(f"could not read {what} as {fmt}: {first}.")


def _csv_reason(text: str) -> str:
    cols = re.search(r"Expected Number of Columns: (\d+) Found: (\d+)", text)
    if cols:
        return f"the row has {cols.group(2)} cells but the header names {cols.group(1)} columns"
    low = text.lower()
    if "unterminated quote" in low:
        return "a quoted cell is never closed (a \" without its partner)"
    if "maximum line size" in low or "line size" in low:
        return "the line is longer than 2 MB, far more than a few labels need"
    if "unicode" in low:
        return "the text is not UTF-8: convert it with iconv (e.g. iconv -f LATIN1 -t UTF-8)"
    return "it is not valid CSV here"


# ----------------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------------
def table_format(path: Path, allowed: dict[str, str] = TABLE_FORMATS) -> str:
    """The format of ``path`` from its extension (a ``.gz``/``.zst`` suffix is looked through)."""
    suffixes = [s.lower() for s in path.suffixes]
    ext = suffixes[-2] if len(suffixes) >= 2 and suffixes[-1] in COMPRESSIONS and allowed is TABLE_FORMATS else path.suffix.lower()
    fmt = allowed.get(ext)
    if fmt is None:
        exts = ", ".join(sorted(allowed))
        extra = " (each may be compressed: .gz, .zst)" if allowed is TABLE_FORMATS else ""
        raise InputError(f"{path} has extension {path.suffix or '(none)'!r}; supported extensions are {exts}{extra}.")
    return fmt


def compression(path: Path) -> str | None:
    return COMPRESSIONS.get(path.suffix.lower())


def check_file(path: Path, fmt: str) -> None:
    """Exists, is a regular non-empty file, and — for uncompressed text formats — looks like UTF-8 text."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(f"file not found: {path}.") from None
    except OSError as exc:
        raise InputError(f"cannot open {path}: {exc.strerror or exc}.") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path} is a directory, not a file.")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode)
                or stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise InputError(f"{path} is {kind}, not a regular file; save the data to a file first.")
    if st.st_size == 0:
        raise InputError(f"{path} is empty; it needs a header line and at least one row.")
    if fmt == "parquet" or compression(path):
        return
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    _check_text(path, head, fmt)


def _check_text(path: Path, head: bytes, fmt: str) -> None:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        enc = "UTF-32" if head.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) else "UTF-16"
        raise InputError(f"{path} is {enc} text, not UTF-8: convert it with iconv -f {enc} -t UTF-8.")
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        bad = b"\x00" in head
    except UnicodeDecodeError:
        bad = True
    if not bad:
        return
    if b"\x00" in head:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if max(even, odd) > len(head) // 4 and min(even, odd) < len(head) // 50:  # ASCII in UTF-16 without BOM
            raise InputError(f"{path} looks like UTF-16 text, not UTF-8: convert it with iconv -f UTF-16 -t UTF-8.")
        raise InputError(f"{path} is not a UTF-8 text file (it looks binary); expected {fmt.upper()} text.")
    raise InputError(f"{path} is not UTF-8 text (perhaps Latin-1 or Windows-1252): convert it with "
                     "iconv -f LATIN1 -t UTF-8.")


def _open_text(path: Path) -> io.TextIOBase:
    if compression(path) == "gzip":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline="")  # type: ignore[return-value]
    if compression(path) == "zstd":
        raise _NoPythonReader
    return path.open("r", encoding="utf-8-sig", newline="")  # type: ignore[return-value]


class _NoPythonReader(Exception):
    pass


# ----------------------------------------------------------------------------------------------
# Sources
# ----------------------------------------------------------------------------------------------
@dataclass
class Source:
    """One relation to count from.

    Attributes
    ----------
    what : str
        How messages name it (the path, or "the query").
    fmt : str
        ``csv``, ``tsv``, ``jsonl``, ``parquet``, ``table`` (a DataFrame or Arrow table) or ``sql``.
    relation : str
        The ``FROM`` clause.
    columns : list of str
        Column names as the user wrote them.
    types : dict column → DuckDB type name (``JSON`` for JSON Lines values; ``VARCHAR`` for CSV cells)
    physical : dict column → column name in ``relation``
    location : str
        The path DuckDB reads, for a file (see :meth:`Connection.path_for`).
    """

    what: str
    fmt: str
    relation: str
    columns: list[str]
    types: dict[str, str] = field(default_factory=dict)
    physical: dict[str, str] = field(default_factory=dict)
    location: str = ""  # the path DuckDB reads (a file source)

    def require(self, wanted: Sequence[str], what: str = "column") -> None:
        missing = [c for c in wanted if c not in self.columns]
        if missing:
            have = ", ".join(repr(c) for c in self.columns[:30]) or "none"
            raise InputError(f"{self.what} has no {what} {missing[0]!r}; its columns are {have}.")
        repeated = [c for c in wanted if self.columns.count(c) > 1]
        if repeated:
            raise InputError(f"{self.what} has {self.columns.count(repeated[0])} columns named {repeated[0]!r}; "
                             "rename all but one so it is clear which to read.")

    def col(self, name: str) -> str:
        return quote(self.physical.get(name, name))

    def label_sql(self, name: str) -> str:
        """SQL giving the label text of column ``name`` (NULL for a missing or unusable label)."""
        c, t = self.col(name), self.types.get(name, "VARCHAR").upper()
        if t == "JSON":
            return (f"CASE json_type({c}) WHEN 'VARCHAR' THEN trim({c} ->> '$', {_WS}) "
                    f"WHEN 'BIGINT' THEN {c} ->> '$' WHEN 'UBIGINT' THEN {c} ->> '$' "
                    f"WHEN 'DOUBLE' THEN {_float_label(f'TRY_CAST({c} AS DOUBLE)')} "
                    f"WHEN 'BOOLEAN' THEN CASE WHEN {c} ->> '$' = 'true' THEN '1' ELSE '0' END END")
        if t.startswith(("VARCHAR", "STRING", "TEXT")) or t == "ENUM" or t.startswith("ENUM("):
            return f"trim(CAST({c} AS VARCHAR), {_WS})"
        if t in _INT_TYPES:
            return f"CAST({c} AS VARCHAR)"
        if t == "BOOLEAN":
            return f"CASE WHEN {c} THEN '1' WHEN NOT {c} THEN '0' END"
        if t in _FLOAT_TYPES or t.startswith("DECIMAL"):
            return _float_label(f"CAST({c} AS DOUBLE)")
        raise InputError(f"{self.what}: column {name!r} has type {t}; labels must be integers or strings.")

    def number_sql(self, name: str) -> str:
        """SQL giving column ``name`` as DOUBLE (NULL for an empty cell or a non-number)."""
        c, t = self.col(name), self.types.get(name, "VARCHAR").upper()
        if t == "JSON":
            return (f"CASE WHEN json_type({c}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN TRY_CAST({c} AS DOUBLE) "
                    f"WHEN json_type({c}) = 'VARCHAR' THEN TRY_CAST(trim({c} ->> '$', {_WS}) AS DOUBLE) END")
        if t.startswith(("VARCHAR", "STRING", "TEXT")):
            return f"TRY_CAST(nullif(trim({c}, {_WS}), '') AS DOUBLE)"
        if t in _INT_TYPES or t in _FLOAT_TYPES or t.startswith("DECIMAL") or t == "BOOLEAN":
            return f"CAST({c} AS DOUBLE)"
        raise InputError(f"{self.what}: column {name!r} has type {t}; it must hold numbers.")

    def raw_sql(self, name: str) -> str:
        """The cell as written, as text (for error messages)."""
        return f"CAST({self.col(name)} AS VARCHAR)"


def _float_label(x: str) -> str:
    return (f"CASE WHEN isfinite({x}) AND {x} = trunc({x}) AND abs({x}) <= {_FLOAT_INT_LIMIT!r} "
            f"THEN CAST(CAST({x} AS BIGINT) AS VARCHAR) END")


def file_source(con: Any, path: Path, fmt: str | None = None) -> Source:
    """The :class:`Source` of a prediction or count file (checked first: see :func:`check_file`)."""
    fmt = fmt or table_format(path)
    check_file(path, fmt)
    location = con.path_for(path)
    p = _literal(location)
    if fmt in ("csv", "tsv"):
        return _csv_source(con, path, fmt, location)
    if fmt == "parquet":
        relation = f"read_parquet({p})"
    else:
        relation = f"read_json({p}, format='newline_delimited', maximum_depth=2)"
    try:
        desc = con.execute(f"DESCRIBE SELECT * FROM {relation}").fetchall()
    except Exception as exc:  # noqa: BLE001 - every DuckDB error becomes one sentence
        raise duck_error(str(path), "Parquet" if fmt == "parquet" else "JSON Lines", exc) from None
    names = [row[0] for row in desc]
    if fmt == "parquet":
        return Source(str(path), fmt, relation, names, {row[0]: str(row[1]) for row in desc}, location=location)
    if not names or names == ["json"]:
        raise InputError(f"{path} has no JSON records; each line must be one JSON object.")
    return Source(str(path), fmt, relation, names, {n: "JSON" for n in names}, location=location)


def json_relation(source: Source, wanted: Sequence[str]) -> None:
    """Read only ``wanted`` keys of a JSON Lines source, each as a raw JSON value."""
    cols = ", ".join(f"{_literal(c)}: 'JSON'" for c in dict.fromkeys(wanted))
    p = source.relation.split("(", 1)[1].split(",", 1)[0]
    source.relation = (f"read_json({p}, format='newline_delimited', columns={{{cols}}}, "
                       "maximum_object_size=16777216)")


def _csv_source(con: Any, path: Path, fmt: str, location: str) -> Source:
    delim = "," if fmt == "csv" else "\t"
    try:
        with _open_text(path) as fh:
            header = next(csv.reader(fh, delimiter=delim), None)
    except _NoPythonReader:
        header = _duck_header(con, path, location, delim)
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text: convert it with iconv (e.g. iconv -f LATIN1 -t UTF-8).") from None
    except (OSError, EOFError, csv.Error) as exc:
        raise InputError(f"could not read {path} as {fmt.upper()}: {exc}.") from None
    if not header or not any(c.strip() for c in header):
        raise InputError(f"{path} has no header line; the first line must name the columns.")
    names = [c.strip() for c in header]
    physical = {n: f"c{i}" for i, n in reversed(list(enumerate(names)))}  # the first of repeated names
    cols = ", ".join(f"'c{i}': 'VARCHAR'" for i in range(len(names)))
    # 2 MB buffers: DuckDB's default (32 MB, several in flight) made the peak memory grow with the file
    # (104 -> 183 MB for 10^6 -> 10^7 rows with two probability columns; now 99 -> 105 MB, same CPU time)
    relation = (f"read_csv({_literal(location)}, columns={{{cols}}}, header=false, skip=1, delim={_literal(delim)}, "
                "quote='\"', escape='\"', auto_detect=false, null_padding=false, "
                "compression='auto', parallel=true, buffer_size=2097152)")
    return Source(str(path), fmt, relation, names, {n: "VARCHAR" for n in names}, physical, location)


def _duck_header(con: Any, path: Path, location: str, delim: str) -> list[str]:
    try:
        row = con.execute(f"SELECT * FROM read_csv({_literal(location)}, header=false, all_varchar=true, "
                          f"delim={_literal(delim)}, quote='\"', escape='\"', null_padding=true) LIMIT 1").fetchone()
    except Exception as exc:  # noqa: BLE001
        raise duck_error(str(path), "CSV", exc) from None
    return [("" if v is None else str(v)) for v in (row or [])]
