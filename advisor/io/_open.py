"""The one place where inputs are opened: each file once per run, by the statement that stages it.

An input is a :class:`Part`: a prediction or count file (CSV, TSV, JSON Lines, Parquet, each also
compressed ``.gz``/``.zst``), a DataFrame or Arrow table registered with DuckDB, or a ``sql=`` query.
:func:`file_part`, :func:`frame_part` and :func:`sql_part` turn each into the ``FROM`` clause of DuckDB's
own reader; :mod:`advisor.io._stage` puts every part of a run into ONE statement, so each file is
opened exactly once and each query runs exactly once. Every later pass (counts, probabilities,
scores, structured columns, error rows) reads the staged table, never the file again.

How each format is read, and why:

* CSV/TSV: when every input of a run is CSV/TSV, as whole lines (:mod:`advisor.io._csv_lines`: a
  label-only file has few distinct lines, so this is as fast as DuckDB's bare ``GROUP BY``) with 2 MB
  buffers; otherwise, and whenever the lines cannot be trusted, by ``read_csv`` with the dialect fixed
  (delimiter, ``"`` quote and escape, no comment character, no rows skipped) and every cell as text,
  DuckDB reading the header line itself in the same scan. DuckDB's CSV reader drops or splits a line
  longer than its buffer without always saying so (DuckDB 2.0.1: a 5 MB last line of a 300,000-row file
  was silently lost with 2 MB buffers, a quoted 3 MB cell raised a false "unterminated quote"). The
  lines are therefore checked byte for byte against the file's size; the CSV reader proper reads an
  uncompressed file up to :data:`WHOLE_FILE_BUFFER` with a buffer larger than the file, so no line can
  exceed it, and larger or compressed files with :data:`LARGE_BUFFER`, a line DuckDB reports as longer
  being read again with a buffer that holds it (:func:`retry_buffer`). Those fallbacks read the file a
  second time; a line of a compressed file longer than :data:`LARGE_BUFFER` that DuckDB drops without
  an error cannot be detected (the uncompressed size is not known without reading).
* JSON Lines: ``read_ndjson_objects`` — each line one JSON value, parsed once; its reader is exact for
  long lines (a record over ``maximum_object_size`` is an error, never a lost row), and needs no schema:
  the keys are read from the staged records.
* Parquet: through one open descriptor (:mod:`advisor.io._fdfs`; DuckDB alone opens it three times).
* DataFrames, Arrow tables: DuckDB's own scans in place (no pyarrow on any read path).
* ``sql=``: exactly one ``SELECT`` statement (parsed by DuckDB), run once.

:data:`OPENS` counts, per file, how often a statement that reads it was run — the in-process half
of the proof that a run opens each input file once (``tests/test_open_once.py``).
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg
from ._duck import COMPRESSIONS, TABLE_FORMATS, _literal, check_file, compression, table_format

__all__ = ["OPENS", "Part", "file_part", "frame_part", "read_small", "retry_buffer", "sql_part", "valid_query"]

#: file (resolved path) → number of statements run that read it; tests reset and inspect it.
OPENS: collections.Counter[str] = collections.Counter()

MB = 1024 * 1024
#: An uncompressed CSV/TSV up to this size is read with a buffer larger than the whole file.
WHOLE_FILE_BUFFER = 64 * MB
#: The CSV buffer for larger and compressed files (DuckDB's default size): lines up to it are exact.
LARGE_BUFFER = 32 * MB
#: The buffer of an uncompressed CSV/TSV read as lines: small (memory flat in the file's length), because
#: every byte is accounted for afterwards (a lost line is found and the file read again).
LINE_BUFFER = 2 * MB
#: The largest buffer a retry asks for: a line longer than this is refused with its row named.
MAX_BUFFER = 1024 * MB
_JSON_OBJECT = 16 * MB


@dataclass
class Part:
    """One input of a run, as DuckDB will read it.

    Attributes
    ----------
    what : str
        How messages name it: the path, ``the DataFrame`` or ``the SQL query``.
    kind : str
        ``file``, ``frame`` or ``sql``.
    fmt : str
        ``csv``, ``tsv``, ``jsonl``, ``parquet``, ``table`` or ``sql``.
    relation : str
        The ``FROM`` clause of DuckDB's reader (a ``read_csv(…)`` call, a registered name, a query).
    path : Path or None
        The file, for a file part.
    compression : str or None
        ``gzip`` or ``zstd`` for a compressed file.
    buffer : int
        The CSV reader's buffer (bytes).
    """

    what: str
    kind: str
    fmt: str
    relation: str
    path: Path | None = None
    compression: str | None = None
    buffer: int = 0
    location: str = ""
    mode: str = "parsed"  # "lines": a CSV/TSV read as whole lines (advisor/io/_csv_lines.py)
    #: ``(name, DuckDB type)`` of every column when known without asking DuckDB (a pandas DataFrame's dtypes:
    #: binding a 20,000-column frame costs DuckDB seconds per statement); ``?`` for a type not known
    schema: list[tuple[str, str]] | None = None

    def opened(self) -> None:
        """Count one statement that reads this part (files only)."""
        if self.path is not None:
            OPENS[str(self.path.resolve())] += 1


def _csv_relation(location: str, fmt: str, buffer: int) -> str:
    delim = "," if fmt == "csv" else "\t"
    # every option the sniffer would otherwise guess is fixed: a '#' at the start of a row is data, not a
    # comment; no leading row is skipped; cells are text (labels keep their spelling)
    return (f"read_csv({_literal(location)}, header=true, all_varchar=true, delim={_literal(delim)}, quote='\"', "
            f"escape='\"', comment='', skip=0, strict_mode=true, null_padding=false, ignore_errors=false, "
            f"compression='auto', buffer_size={buffer})")


def csv_buffer(path: Path) -> int:
    """A buffer no line of ``path`` can exceed when the file is small and uncompressed, else :data:`LARGE_BUFFER`."""
    size = path.stat().st_size
    if compression(path) is None and size < WHOLE_FILE_BUFFER:
        return max(2 * MB, size + 1)
    return LARGE_BUFFER


def file_part(con: Any, path: Path, fmt: str | None = None, buffer: int | None = None, lines: bool = False) -> Part:
    """The :class:`Part` of a prediction or count file (checked first from ``stat``: see :func:`check_file`).

    ``lines``: a CSV/TSV read as whole lines, with small buffers and every byte accounted for afterwards
    (:mod:`advisor.io._csv_lines`).
    """
    fmt = fmt or table_format(path)
    check_file(path, fmt)
    location = con.path_for(path)
    comp = compression(path)
    if fmt in ("csv", "tsv") and lines:
        size = buffer or (LINE_BUFFER if comp is None else LARGE_BUFFER)
        relation = (f"read_csv({_literal(location)}, columns={{'l': 'VARCHAR'}}, header=false, delim='\x01', "
                    f"quote='', escape='', comment='', skip=0, auto_detect=false, strict_mode=true, "
                    f"null_padding=false, compression='auto', buffer_size={size})")
        return Part(str(path), "file", fmt, relation, path, comp, size, location, "lines")
    if fmt in ("csv", "tsv"):
        size = buffer or csv_buffer(path)
        return Part(str(path), "file", fmt, _csv_relation(location, fmt, size), path, comp, size, location)
    if fmt == "parquet":  # through one descriptor: DuckDB alone opens a Parquet file three times (_fdfs.py)
        named = con.open_once(path) or location
        return Part(str(path), "file", fmt, f"read_parquet({_literal(named)})", path, comp, 0, named)
    # a record over maximum_object_size is an error (never a lost row) and is read again with room for it
    # (retry_buffer); the limit sizes the reader's buffers, so it stays small: memory flat in the file's length
    limit = buffer or _JSON_OBJECT
    relation = f"read_ndjson_objects({_literal(location)}, compression='auto', maximum_object_size={limit})"
    return Part(str(path), "file", "jsonl", relation, path, comp, limit, location)


def retry_buffer(part: Part, exc: Exception) -> int | None:
    """A buffer that holds the line DuckDB reported too long for ``part``'s reader, or None.

    Only reached for a file larger than :data:`WHOLE_FILE_BUFFER` or compressed, with a line longer
    than :data:`LARGE_BUFFER`: the file is then read a second time (and refused, its row named, beyond
    :data:`MAX_BUFFER`).
    """
    text = str(exc)
    size = re.search(r"Actual Size:\s*(\d+)", text) or re.search(r"exceeded while reading file .*\(>(\d+) bytes\)", text)
    if part.kind != "file" or size is None:
        return None
    need = 1 << (int(size.group(1)) + 2).bit_length()
    if need > MAX_BUFFER:
        row = re.search(r"CSV Error on Line: (\d+)", text)
        where = f" row {max(int(row.group(1)) - 1, 1)}" if row else ""
        raise InputError(f"{part.what}{where}: a line is {int(size.group(1)):,} bytes long; lines of up to "
                         f"{MAX_BUFFER // MB:,} MB are read, far more than a few labels and scores need.")
    return max(need, 2 * part.buffer)


def frame_part(con: Any, frame: Any, name: str = "advisor_frame") -> Part:
    """A pandas or polars DataFrame or a pyarrow Table (anything DuckDB scans), registered in place."""
    try:
        con.register(name, frame)
    except Exception as exc:  # noqa: BLE001
        raise InputError(f"cannot read a {type(frame).__name__} as a table ({str(exc).splitlines()[0][:150]}); "
                         "pass a pandas or polars DataFrame or a pyarrow Table.") from None
    return Part("the DataFrame", "frame", "table", name, schema=_pandas_schema(frame))


def _pandas_schema(frame: Any) -> list[tuple[str, str]] | None:
    """The columns of a pandas DataFrame with the DuckDB type of its number columns (``?`` for others), or None."""
    if type(frame).__module__.split(".")[0] != "pandas" or not hasattr(frame, "dtypes"):
        return None
    kinds = {"f": "DOUBLE", "i": "BIGINT", "u": "UBIGINT", "b": "BOOLEAN"}
    return [(str(c), kinds.get(getattr(dt, "kind", "O"), "?")) for c, dt in zip(frame.columns, frame.dtypes)]


#: Statements an injected ``sql=`` may try; none is a SELECT, so each is refused before anything runs.
_SQL_HINT = "e.g. \"SELECT label AS y_true, pred AS y_pred FROM 'preds.parquet'\""


def valid_query(query: Any) -> str:
    """``query`` if it is exactly one ``SELECT`` statement, as DuckDB parses it; one sentence otherwise.

    Nothing runs here: the text is only parsed, so a ``COPY``, ``ATTACH``, ``INSTALL``, ``EXPORT``,
    ``CREATE``… never gets to run, nor does a second statement behind a comment or a ``;``.
    """
    import duckdb

    if not isinstance(query, str) or not query.strip():
        raise InputError(f"{arg('sql')} needs a query, {_SQL_HINT}.")
    try:
        statements = duckdb.extract_statements(query)
    except Exception as exc:  # noqa: BLE001 - a parser error is the user's query
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = re.sub(r"^[A-Za-z ]*Error: ", "", first).rstrip(".")[:200]
        raise InputError(f"the {arg('sql')} query failed: {first}.") from None
    kinds = [str(getattr(s.type, "name", s.type)).upper() for s in statements]
    if len(statements) != 1 or kinds[0] != "SELECT":
        what = (f"{len(statements)} statements" if len(statements) != 1 else f"a {kinds[0]} statement")
        raise InputError(f"{arg('sql')} must be exactly one SELECT query; got {what}, which is refused before anything "
                         f"runs ({_SQL_HINT}).")
    return statements[0].query


def sql_part(query: str) -> Part:
    """The part of a ``sql=`` query (checked by :func:`valid_query`); it runs once, in the staging statement."""
    text = valid_query(query).strip().rstrip(";")
    return Part("the SQL query", "sql", "sql", f"(\n{text}\n)")


def read_small(path: Path, allowed: dict[str, str] | None = None) -> tuple[str, bytes]:
    """``(format, bytes)`` of a small input read by Python (a confusion matrix, a cost matrix), opened once."""
    fmt = table_format(path, allowed) if allowed is not None else table_format(path)
    check_file(path, fmt)
    OPENS[str(path.resolve())] += 1
    try:
        return fmt, path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot open {path}: {exc.strerror or exc}.") from None


def is_table_file(path: Path) -> bool:
    """Whether ``path`` has one of the table extensions (compressed too)."""
    suffixes = [s.lower() for s in path.suffixes]
    ext = suffixes[-2] if len(suffixes) >= 2 and suffixes[-1] in COMPRESSIONS else path.suffix.lower()
    return ext in TABLE_FORMATS
