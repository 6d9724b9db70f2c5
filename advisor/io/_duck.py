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
import hashlib
import os
import re
import shutil
import socket
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, and no sweep either
    fcntl = None  # type: ignore[assignment]

from .._exceptions import InputError
from ._fdfs import fd_filesystem

__all__ = [
    "MAX_LABEL_CHARS",
    "Connection",
    "TABLE_FORMATS",
    "Source",
    "check_file",
    "connect",
    "diagnose_text",
    "duck_error",
    "number_of",
    "quote",
    "sweep_spill_folders",
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


def duckdb_memory() -> str:
    """DuckDB's memory budget, sized from the machine: half its memory, at least 256 MB.

    A fixed 256 MB (the earlier setting) was too small for some inputs that are not large at all: a
    12 MB label needs a 16 MB block, and 100 system files read side by side hold two buffers each, so
    both failed with DuckDB's "failed to allocate"/"failed to pin block" instead of a clear answer.
    Counting itself needs little — the hash table of distinct cells and the readers' buffers — and the
    budget is only a ceiling; beyond it DuckDB spills to a private temporary folder, never to the
    user's working directory. When the budget is still too small, the message names it
    (:func:`duck_error`).
    """
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not a POSIX system
        total = 0
    return f"{max(256, total // 2 // 2**20)}MB"


#: The spill folders' names: the host and the owning process's id first, so a later run on the same host can tell a
#: dead process's folder; the lock file inside is held while the connection is open
_SPILL_PREFIX = "advisor-duckdb-"
_SPILL_NAME = re.compile(re.escape(_SPILL_PREFIX) + r"([0-9a-f]{8})-(\d+)-[A-Za-z0-9_]+")
_LOCK = ".lock"


def _host_tag() -> str:
    """Eight hex digits naming this host (a temporary folder shared with other machines or containers holds
    folders whose process ids mean nothing here)."""
    return hashlib.sha256(socket.gethostname().encode("utf-8", "replace")).hexdigest()[:8]


def _running(pid: int) -> bool:
    """Whether a process with this id exists (POSIX; a process of another user, or an id out of range, counts as
    running: the folder is then left alone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):
        return True
    return True


def _in_use(folder: str) -> bool:
    """Whether a live connection holds the folder's lock file. A folder without one was left between its creation
    and its lock, by a process that is gone; a lock this process can take is held by no one. A folder whose process
    is gone never gains a new holder, so the lock need not be kept while the folder is removed."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return True
    try:
        fd = os.open(os.path.join(folder, _LOCK), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return False
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def sweep_spill_folders(root: str | None = None) -> list[str]:
    """Remove the spill folders that advisor processes left when they died without closing their connection
    (killed by SIGKILL or a termination signal, out of memory, a crash), and return their paths.

    A folder is removed only when its name is ``advisor-duckdb-<host>-<pid>-…`` with this host's tag, it is a real
    folder (not a link) owned by this user, no process ``<pid>`` runs, and no one holds the lock file a live
    connection keeps locked inside it: a live run's folder (also one whose process id this host cannot see, in
    another container sharing the folder), another user's, another host's, or a folder whose process id was taken
    again is left alone. DuckDB's spilled blocks can be as large as the data read, so a killed run would otherwise
    leave them for good (found by the signal tests: a SIGTERM landing as a connection opened left its folder in the
    temporary directory). On systems without POSIX process ids and locks nothing is removed.
    """
    if os.name != "posix":  # pragma: no cover - os.kill(pid, 0) would end the process on Windows
        return []
    root = root or tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError:
        return []
    host, removed = _host_tag(), []
    for name in names:
        m = _SPILL_NAME.fullmatch(name)
        if m is None or m.group(1) != host or int(m.group(2)) == os.getpid():
            continue
        path = os.path.join(root, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or _running(int(m.group(2))):
            continue
        if _in_use(path):
            continue
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            removed.append(path)
    return removed


def _hold_lock(folder: str) -> int | None:
    """A lock file in ``folder``, locked for as long as the connection is open (None where locks are unavailable):
    a sweep elsewhere sees the folder is in use even when it cannot see this process."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return None
    fd = os.open(os.path.join(folder, _LOCK), os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # pragma: no cover - a file system without locks: the process id still guards it
        pass
    return fd


class Connection:
    """An in-memory DuckDB connection whose ``close`` also removes its private spill folder; opening one first
    removes the folders of dead runs (:func:`sweep_spill_folders`)."""

    def __init__(self) -> None:
        import duckdb

        try:
            sweep_spill_folders()
        except Exception:  # pragma: no cover - cleaning up after others never stops this run
            pass
        self._tmp = tempfile.mkdtemp(prefix=f"{_SPILL_PREFIX}{_host_tag()}-{os.getpid()}-")
        self._lock = _hold_lock(self._tmp)
        self._con = duckdb.connect(":memory:")
        self.memory = duckdb_memory()
        self._fs: Any = None  # Parquet files are read through one descriptor each (see _fdfs.py), on first use
        # no extension is installed or loaded behind the user's back (a query naming an s3:// path or a
        # .xlsx file would otherwise download and write an extension); the settings are locked before
        # any user query runs, so a query cannot change them
        # progress is tracked (a long read is estimated and shown by advisor._progress) but never printed by DuckDB
        for setting in ("enable_progress_bar = true", "enable_progress_bar_print = false",
                        "preserve_insertion_order = true",
                        f"memory_limit = '{self.memory}'", f"temp_directory = {_literal(self._tmp)}",
                        "autoinstall_known_extensions = false", "autoload_known_extensions = false",
                        "lock_configuration = true"):
            self._con.execute(f"SET {setting}")

    @property
    def spill_folder(self) -> str:
        """The private folder DuckDB spills to beyond its memory budget, removed by :meth:`close`."""
        return self._tmp

    def execute(self, sql: str) -> Any:
        return self._con.execute(sql)

    def query_progress(self) -> float:
        """How far the running statement is, in percent (negative while DuckDB cannot tell)."""
        return float(self._con.query_progress())

    def path_for(self, path: Path) -> str:
        """The path to give DuckDB: a link with a plain name where ``path`` has glob characters
        (DuckDB would read ``{a,b}.csv`` or ``x[1].csv`` as a pattern, not as the file)."""
        text = str(path)
        if not re.search(r"[*?\[\]{}\\]", text):
            return text

        link = Path(self._tmp) / f"input{len(os.listdir(self._tmp))}{''.join(path.suffixes[-2:])}"
        link.symlink_to(path.resolve())
        return str(link)

    def open_once(self, path: Path) -> str | None:
        """Open ``path`` here, once, and return the name DuckDB reads it by (None: DuckDB opens the path)."""
        if self._fs is None:
            self._fs = fd_filesystem()
            if self._fs is None:
                return None
            self._con.register_filesystem(self._fs)
        return self._fs.add(path)

    def register(self, name: str, obj: Any) -> None:
        self._con.register(name, obj)

    def close(self) -> None:
        self._con.close()
        if self._fs is not None:
            self._fs.close_all()
        if self._lock is not None:  # the lock file first, by its path alone, then the folder
            os.close(self._lock)
            self._lock = None
            try:
                os.unlink(os.path.join(self._tmp, _LOCK))
            except OSError:
                pass
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
    low = text.lower()
    if "out of memory" in low or "failed to allocate" in low or "failed to pin" in low:
        return InputError(f"reading {what} needs more memory than DuckDB's budget of {duckdb_memory()} (half of this "
                          "machine's memory); read fewer files at once, or run on a machine with more memory.")
    json_line = re.search(r"Malformed JSON in file .*?, at byte \d+ in line (\d+)", text)
    if json_line:  # DuckDB 2.0.1 counts the lines from 2
        row = max(int(json_line.group(1)) - 1, 1)
        if "utf-8" in low:
            return InputError(f"{what} row {row} is not UTF-8 text: convert it with iconv (e.g. iconv -f LATIN1 -t "
                              "UTF-8).")
        return InputError(f"{what} row {row} is not valid JSON; each line must be one JSON object.")
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
    """Exists, is a regular, non-empty file — from ``stat`` alone, without opening it.

    The file is opened once, by the statement that reads it (:mod:`advisor.io._open`); whether text is
    UTF-8 is found there, and only when that read fails is the file's start looked at again, to say
    which encoding it is in (:func:`diagnose_text`).
    """
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


def diagnose_text(path: Path, fmt: str) -> None:
    """After a failed read: raise the encoding problem of an uncompressed text file, if it has one.

    This opens the file a second time, on the error path only (the run stops with this message).
    """
    if fmt == "parquet" or compression(path):
        return
    try:
        with path.open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return
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
    #: packed score columns (``p_``/``proba_``/``score_<label>``) → their 1-based position in the one
    #: ``DOUBLE[]`` column ``physical`` maps them to (see :mod:`advisor.io._stage`)
    elements: dict[str, int] = field(default_factory=dict)
    #: the ``VARCHAR[]`` column holding the packed cells as written, on the rows where one is not a number
    raw_list: str | None = None

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
        if name in self.elements:
            return f"{quote(self.physical[name])}[{self.elements[name]}]"
        return quote(self.physical.get(name, name))

    def pack(self, names: Sequence[str]) -> str | None:
        """SQL for the ``DOUBLE[]`` of the packed columns ``names`` in that order (None unless every one is
        packed): the whole list, or the elements selected from it — one expression however many columns."""
        if not names or any(n not in self.elements for n in names):
            return None
        lists = {self.physical[n] for n in names}
        if len(lists) != 1:
            return None
        whole = quote(lists.pop())
        idx = [self.elements[n] for n in names]
        if idx == list(range(1, len(self.elements) + 1)):
            return whole
        return f"list_select({whole}, [{', '.join(map(str, idx))}])"

    def pack_raw(self, names: Sequence[str]) -> str:
        """The cells of :meth:`pack` as written (text), for the messages about a cell that is not a number."""
        packed = self.pack(names)
        assert packed is not None
        if self.raw_list is None:
            return f"CAST({packed} AS VARCHAR[])"
        idx = ", ".join(str(self.elements[n]) for n in names)
        whole = quote(self.physical[names[0]])
        return f"list_select(coalesce({quote(self.raw_list)}, CAST({whole} AS VARCHAR[])), [{idx}])"

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
        sql = number_of(c, t)
        if sql is None:
            raise InputError(f"{self.what}: column {name!r} has type {t}; it must hold numbers.")
        return sql

    def raw_sql(self, name: str) -> str:
        """The cell as written, as text (for error messages)."""
        if name in self.elements and self.raw_list is not None:
            return f"coalesce({quote(self.raw_list)}[{self.elements[name]}], CAST({self.col(name)} AS VARCHAR))"
        return f"CAST({self.col(name)} AS VARCHAR)"


def number_of(c: str, dtype: str) -> str | None:
    """SQL giving the value ``c`` (an expression of DuckDB type ``dtype``) as DOUBLE — NULL for an empty
    cell or a non-number — or None for a type that holds no numbers."""
    t = dtype.upper()
    if t == "JSON":
        return (f"CASE WHEN json_type({c}) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN TRY_CAST({c} AS DOUBLE) "
                f"WHEN json_type({c}) = 'VARCHAR' THEN TRY_CAST(trim({c} ->> '$', {_WS}) AS DOUBLE) END")
    if t.startswith(("VARCHAR", "STRING", "TEXT")):
        return f"TRY_CAST(nullif(trim({c}, {_WS}), '') AS DOUBLE)"
    if t in _INT_TYPES or t in _FLOAT_TYPES or t.startswith("DECIMAL") or t == "BOOLEAN":
        return f"CAST({c} AS DOUBLE)"
    return None


def _float_label(x: str) -> str:
    return (f"CASE WHEN isfinite({x}) AND {x} = trunc({x}) AND abs({x}) <= {_FLOAT_INT_LIMIT!r} "
            f"THEN CAST(CAST({x} AS BIGINT) AS VARCHAR) END")
