"""Reading predictions, confusion matrices and count tables from files.

Formats are chosen by extension: ``.csv``, ``.tsv``/``.tab``, ``.jsonl``/``.ndjson`` (JSON Lines) and
``.parquet``/``.pq``; a confusion matrix may also be ``.json``. Prediction and count files are read in
chunks of ``chunk_rows`` rows (pyarrow's streaming CSV reader, Parquet row batches, JSON Lines line by
line), and only the distinct label combinations are kept, so memory does not grow with the number of
rows.

Labels
------
Label cells are read as text, whatever the format (a Parquet or JSON integer ``7`` reads as ``"7"``;
an integral float ``7.0`` too), with surrounding whitespace removed. At the end the labels of all
files together are typed once: if every label is a canonical decimal integer (``0``, ``17``, ``-3``;
not ``01``, ``+1`` or ``1.0``) they become ``int``, otherwise every label stays the string exactly as
written. So ``"01"`` and ``"1"`` are two different classes, and a label like ``007`` keeps its zeros —
no label is ever silently merged with another. Labels are sorted (integers numerically, strings
lexicographically) unless ``labels=`` fixes the set and order.

Rows are counted from 1, not counting a header line.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from ._confusion import ConfusionMatrix, Label, normalise_labels
from ._exceptions import InputError
from ._joint import JointCounts
from ._probabilities import ProbabilityAccumulator

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["PredictionSet", "read_counts", "read_matrix", "read_predictions"]

PathLike = Union[str, Path]

_TABLE_FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
}
_CANONICAL_INT = re.compile(r"-?[1-9][0-9]*|0")
_PROBA_PREFIX = re.compile(r"^(?:p|proba)_(.+)$")
_SNIFF_BYTES = 8192


# ----------------------------------------------------------------------------------------------
# Result type
# ----------------------------------------------------------------------------------------------
@dataclass
class PredictionSet:
    """Predictions of one or more systems on the same items, summarised without the items.

    Attributes
    ----------
    labels : tuple of int or str
        The classes, shared by every system.
    systems : dict of str → ConfusionMatrix
        One matrix per system (file), all on ``labels``.
    joint : JointCounts
        Distinct (true, pred_1, …, pred_m) combinations and their counts — what the paired bootstrap
        resamples.
    n_items : int
        Number of items (rows per file).
    probabilities : dict of str → dict
        ``{system: {"log_loss": …, "brier": …}}`` for the systems whose file has probability columns.
    files : dict of str → Path
        The file each system was read from.
    notes : list of str
        Things the reader did that a report should mention (e.g. renormalised probability rows).
    """

    labels: tuple[Label, ...]
    systems: dict[str, ConfusionMatrix]
    joint: JointCounts
    n_items: int
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------------------------
# Files and formats
# ----------------------------------------------------------------------------------------------
def _table_format(path: Path, allowed: Mapping[str, str] = _TABLE_FORMATS) -> str:
    fmt = allowed.get(path.suffix.lower())
    if fmt is None:
        exts = ", ".join(sorted(allowed))
        raise InputError(f"{path} has extension {path.suffix or '(none)'!r}; supported extensions are {exts}.")
    return fmt


def _check_file(path: Path, fmt: str) -> None:
    """Exists, is a non-empty file, and — for text formats — looks like UTF-8 text."""
    if not path.exists():
        raise InputError(f"file not found: {path}.")
    if path.is_dir():
        raise InputError(f"{path} is a directory, not a file.")
    if path.stat().st_size == 0:
        raise InputError(f"{path} is empty; it needs a header line and at least one row.")
    if fmt in ("parquet",):
        return
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    try:
        if b"\x00" in head:
            raise UnicodeDecodeError("utf-8", head, 0, 1, "NUL byte")
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        raise InputError(f"{path} is not a UTF-8 text file (it looks binary); expected {fmt.upper()} text.") from None


def _arrow_error(path: Path, fmt: str, exc: Exception) -> InputError:
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    first = first.split(". ")[0]  # one sentence
    return InputError(f"could not read {path} as {fmt.upper()}: {first.rstrip('.')}.")


def _csv_header(path: Path, delimiter: str) -> list[str]:
    with path.open("r", encoding="utf-8-sig", newline="") as fh:
        row = next(csv.reader(fh, delimiter=delimiter), None)
    if not row or not any(c.strip() for c in row):
        raise InputError(f"{path} has no header line; the first line must name the columns.")
    return [c.strip() for c in row]


def _label_text(value: Any) -> str | None:
    """A JSON/Python label value as text (None for a missing value)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and np.isfinite(value) and value == int(value):
        return str(int(value))
    raise InputError(f"label {value!r} is not an integer or a string")


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        return float(value.strip()) if value.strip() else None
    raise ValueError(value)


class _Columns:
    """Chunks of selected columns of one table file: labels as text, numbers as float64.

    Every chunk is a dict column → ``pyarrow.Array``; label arrays are strings (nulls for missing
    cells), number arrays float64 (nulls for missing cells).
    """

    def __init__(self, path: Path, fmt: str, chunk_rows: int) -> None:
        self.path, self.fmt, self.chunk_rows = path, fmt, chunk_rows
        _check_file(path, fmt)
        self.columns = self._read_columns()

    # -- schema --------------------------------------------------------------------------------
    def _read_columns(self) -> list[str]:
        if self.fmt in ("csv", "tsv"):
            return _csv_header(self.path, "," if self.fmt == "csv" else "\t")
        if self.fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            try:
                return list(pq.ParquetFile(self.path).schema_arrow.names)
            except (pa.ArrowException, OSError) as exc:
                raise _arrow_error(self.path, self.fmt, exc) from None
        for _, record in self._json_records():
            return list(record)
        raise InputError(f"{self.path} has no JSON records; it needs at least one line.")

    def require(self, wanted: Sequence[str], what: str = "column") -> None:
        missing = [c for c in wanted if c not in self.columns]
        if missing:
            have = ", ".join(repr(c) for c in self.columns[:30]) or "none"
            raise InputError(f"{self.path} has no {what} {missing[0]!r}; its columns are {have}.")

    # -- chunks ---------------------------------------------------------------------------------
    def chunks(self, label_cols: Sequence[str], number_cols: Sequence[str]) -> Iterator[dict[str, pa.Array]]:
        self.require([*label_cols, *number_cols])
        if self.fmt in ("csv", "tsv"):
            gen = self._csv_chunks(label_cols, number_cols)
        elif self.fmt == "parquet":
            gen = self._parquet_chunks(label_cols, number_cols)
        else:
            gen = self._json_chunks(label_cols, number_cols)
        return _rechunk(gen, self.chunk_rows)

    def _csv_chunks(self, label_cols: Sequence[str], number_cols: Sequence[str]) -> Iterator[dict[str, pa.Array]]:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.csv as pcsv

        cols = list(dict.fromkeys([*label_cols, *number_cols]))
        names = self.columns
        reader_opts = pcsv.ReadOptions(block_size=1 << 18, column_names=names, skip_rows=1, use_threads=False)
        parse = pcsv.ParseOptions(delimiter="," if self.fmt == "csv" else "\t")
        convert = pcsv.ConvertOptions(column_types={c: pa.string() for c in cols}, include_columns=cols,
                                      strings_can_be_null=False, quoted_strings_can_be_null=False)
        offset = 0
        try:
            # Arrow's streaming reader reads ahead about 32 blocks (given a path, even more), so memory
            # is bounded by the block size: 256 KiB blocks through a Python file object stay under ~10 MB.
            with self.path.open("rb") as fh, pcsv.open_csv(pa.PythonFile(fh, mode="r"), read_options=reader_opts,
                                                           parse_options=parse, convert_options=convert) as reader:
                for batch in reader:
                    out = {c: pc.utf8_trim_whitespace(batch.column(c)) for c in label_cols}
                    for c in number_cols:
                        out[c] = _text_to_float(batch.column(c), self.path, c, offset)
                    offset += batch.num_rows
                    yield out
        except pa.ArrowException as exc:
            raise _arrow_error(self.path, self.fmt, exc) from None

    def _parquet_chunks(self, label_cols: Sequence[str], number_cols: Sequence[str]) -> Iterator[dict[str, pa.Array]]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = list(dict.fromkeys([*label_cols, *number_cols]))
        offset = 0
        try:
            pf = pq.ParquetFile(self.path)
            for batch in pf.iter_batches(batch_size=self.chunk_rows, columns=cols):
                out = {c: _arrow_labels(batch.column(c), self.path, c, offset) for c in label_cols}
                for c in number_cols:
                    out[c] = _arrow_numbers(batch.column(c), self.path, c, offset)
                offset += batch.num_rows
                yield out
        except pa.ArrowException as exc:
            raise _arrow_error(self.path, self.fmt, exc) from None

    def _json_records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        row = 0
        with self.path.open("r", encoding="utf-8-sig") as fh:
            for line in fh:
                if not line.strip():
                    continue
                row += 1
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"{self.path} row {row} is not valid JSON ({exc.msg}).") from None
                if not isinstance(record, dict):
                    raise InputError(f"{self.path} row {row} is not a JSON object; each line must be one record.")
                yield row, record

    def _json_chunks(self, label_cols: Sequence[str], number_cols: Sequence[str]) -> Iterator[dict[str, pa.Array]]:
        import pyarrow as pa

        def flush(buf: dict[str, list[Any]]) -> dict[str, pa.Array]:
            out = {c: pa.array(buf[c], type=pa.string()) for c in label_cols}
            out.update({c: pa.array(buf[c], type=pa.float64()) for c in number_cols})
            return out

        buf: dict[str, list[Any]] = {c: [] for c in [*label_cols, *number_cols]}
        size = 0
        for row, record in self._json_records():
            for c in label_cols:
                try:
                    buf[c].append(_label_text(record.get(c)))
                except InputError as exc:
                    raise InputError(f"{self.path} row {row}: {c} {exc}.") from None
            for c in number_cols:
                try:
                    buf[c].append(_number(record.get(c)))
                except ValueError:
                    raise InputError(f"{self.path} row {row}: {c} is {record.get(c)!r}, not a number.") from None
            size += 1
            if size >= min(self.chunk_rows, 1 << 16):  # Python lists are bulky: hand over to Arrow often
                yield flush(buf)
                buf = {c: [] for c in buf}
                size = 0
        if size:
            yield flush(buf)


def _rechunk(chunks: Iterator[dict[str, pa.Array]], rows: int) -> Iterator[dict[str, pa.Array]]:
    """Regroup chunks of any size into chunks of exactly ``rows`` rows (the last may be shorter)."""
    import pyarrow as pa

    pending: list[dict[str, pa.Array]] = []
    have = 0
    for chunk in chunks:
        size = len(next(iter(chunk.values())))
        if size == 0:
            continue
        pending.append(chunk)
        have += size
        while have >= rows:
            merged = {c: pa.concat_arrays([p[c] for p in pending]) if len(pending) > 1 else pending[0][c]
                      for c in chunk}
            yield {c: a.slice(0, rows) for c, a in merged.items()}
            have -= rows
            pending = [{c: a.slice(rows) for c, a in merged.items()}] if have else []
    if have:
        cols = pending[0].keys()
        yield {c: pa.concat_arrays([p[c] for p in pending]) if len(pending) > 1 else pending[0][c] for c in cols}


def _rows(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


def _first_bad_row(bad: np.ndarray) -> int:
    return int(np.flatnonzero(bad)[0])


def _text_to_float(arr: pa.Array, path: Path, col: str, offset: int) -> pa.Array:
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pc.utf8_trim_whitespace(arr)
    text = pc.if_else(pc.equal(text, ""), pa.scalar(None, pa.string()), text)
    try:
        return pc.cast(text, pa.float64())
    except pa.ArrowInvalid:
        for i, value in enumerate(text.to_pylist()):
            try:
                _number(value)
            except ValueError:
                raise InputError(f"{path} row {offset + i + 1}: {col} is {value!r}, not a number.") from None
        raise  # pragma: no cover - pyarrow and float() disagree


def _arrow_labels(arr: pa.Array, path: Path, col: str, offset: int) -> pa.Array:
    """A typed Arrow column of labels as text (integers and integral floats as decimal text)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = arr.type
    if pa.types.is_dictionary(t):
        return _arrow_labels(arr.dictionary_decode(), path, col, offset)
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return pc.utf8_trim_whitespace(arr.cast(pa.string()))
    if pa.types.is_boolean(t):
        return arr.cast(pa.int8()).cast(pa.string())
    if pa.types.is_integer(t):
        return arr.cast(pa.string())
    if pa.types.is_floating(t):
        values = arr.to_numpy(zero_copy_only=False)
        ok = np.isnan(values) | (values == np.round(values))
        if not ok.all():
            i = _first_bad_row(~ok)
            raise InputError(f"{path} row {offset + i + 1}: {col} is {values[i]!r}, not an integer or a string label.")
        return pc.cast(pc.cast(arr, pa.int64(), safe=False), pa.string())
    raise InputError(f"{path}: column {col!r} has type {t}; labels must be integers or strings.")


def _arrow_numbers(arr: pa.Array, path: Path, col: str, offset: int) -> pa.Array:
    import pyarrow as pa

    t = arr.type
    if pa.types.is_dictionary(t):
        arr, t = arr.dictionary_decode(), arr.type.value_type
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
        return arr.cast(pa.float64())
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return _text_to_float(arr.cast(pa.string()), path, col, offset)
    raise InputError(f"{path}: column {col!r} has type {t}; it must hold numbers.")


# ----------------------------------------------------------------------------------------------
# Labels → codes, cells → counts
# ----------------------------------------------------------------------------------------------
class _Encoder:
    """Map label texts to integer codes, growing as new labels appear (or fixed by ``labels=``)."""

    def __init__(self, labels: Sequence[Label] | None) -> None:
        self.fixed = None if labels is None else normalise_labels(labels)
        self.codes: dict[str, int] = {}
        if self.fixed is not None:
            for lab in self.fixed:
                if str(lab) in self.codes:
                    raise InputError(f"labels must be unique; {lab!r} is repeated.")
                self.codes[str(lab)] = len(self.codes)

    def encode(self, arr: pa.Array, path: Path, col: str, offset: int) -> np.ndarray:
        import pyarrow.compute as pc

        empty = pc.fill_null(pc.equal(arr, ""), True).to_numpy(zero_copy_only=False)
        if empty.any():
            row = offset + _first_bad_row(empty) + 1
            raise InputError(f"{path} row {row}: the {col} cell is empty; every row needs a label.")
        enc = arr.dictionary_encode()
        lut = np.empty(len(enc.dictionary), dtype=np.int64)
        for j, text in enumerate(enc.dictionary.to_pylist()):
            code = self.codes.get(text)
            if code is None:
                if self.fixed is not None:
                    row = offset + int(np.flatnonzero(pc.equal(arr, text).to_numpy(zero_copy_only=False))[0]) + 1
                    raise InputError(f"{path} row {row}: {col} {text!r} is not one of labels={self.fixed!r}.")
                code = self.codes[text] = len(self.codes)
            lut[j] = code
        return lut[enc.indices.to_numpy(zero_copy_only=False)]

    @property
    def size(self) -> int:
        return len(self.codes)

    def finish(self) -> tuple[tuple[Label, ...], np.ndarray]:
        """Typed labels in their final order and the permutation old code → new code."""
        texts = list(self.codes)
        if self.fixed is not None:
            return tuple(self.fixed), np.arange(len(texts))
        typed: list[Label] = [int(s) for s in texts] if all(_CANONICAL_INT.fullmatch(s) for s in texts) else texts
        order = sorted(range(len(typed)), key=lambda i: (isinstance(typed[i], str), typed[i]))
        perm = np.empty(len(order), dtype=np.int64)
        perm[order] = np.arange(len(order))
        return tuple(typed[i] for i in order), perm


class _Cells:
    """Distinct rows of codes and their summed weights, merged chunk by chunk."""

    _DENSE_LIMIT = 1 << 22

    def __init__(self, width: int) -> None:
        self.codes = np.empty((0, width), dtype=np.int64)
        self.counts = np.empty(0, dtype=np.float64)

    def add(self, columns: Sequence[np.ndarray], weights: np.ndarray | None, base: int) -> None:
        chunk = np.stack(columns, axis=1).astype(np.int64, copy=False)
        w = np.ones(chunk.shape[0]) if weights is None else weights
        codes = np.concatenate([self.codes, chunk])
        mass = np.concatenate([self.counts, w])
        width = codes.shape[1]
        base = max(base, 1)
        if base ** width < (1 << 62):
            key = np.zeros(codes.shape[0], dtype=np.int64)
            for j in range(width):
                key = key * base + codes[:, j]
            if base ** width <= self._DENSE_LIMIT:
                occupied = np.bincount(key, minlength=base ** width) > 0
                summed = np.bincount(key, weights=mass, minlength=base ** width)
                uniq = np.flatnonzero(occupied)
                self.counts = summed[uniq]
            else:
                uniq, inv = np.unique(key, return_inverse=True)
                self.counts = np.bincount(inv.reshape(-1), weights=mass, minlength=uniq.shape[0])
            out = np.empty((uniq.shape[0], width), dtype=np.int64)
            rem = uniq.astype(np.int64)
            for j in range(width - 1, -1, -1):
                out[:, j] = rem % base
                rem //= base
            self.codes = out
        else:  # pragma: no cover - needs ~k**(1+m) ≥ 2**62
            uniq_rows, inv = np.unique(codes, axis=0, return_inverse=True)
            self.counts = np.bincount(inv.reshape(-1), weights=mass, minlength=uniq_rows.shape[0])
            self.codes = uniq_rows


# ----------------------------------------------------------------------------------------------
# Predictions
# ----------------------------------------------------------------------------------------------
def _system_names(paths: Sequence[Path]) -> list[str]:
    """File stems; where different files share a stem, enough parent folders to tell them apart.

    The same file given twice gets ``#2``, ``#3``….
    """
    resolved = [p.resolve() for p in paths]

    def name(p: Path, depth: int) -> str:
        return "/".join([*p.parent.parts[len(p.parent.parts) - depth + 1:], p.stem]) if depth > 1 else p.stem

    names = []
    for p in resolved:
        depth = 1
        while depth < len(p.parts) and any(q != p and name(q, depth) == name(p, depth) for q in resolved):
            depth += 1
        names.append(name(p, depth))
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


def _probability_columns(table: _Columns, proba_cols: Any) -> list[tuple[str, str]]:
    """``[(label text, column), …]`` of one file's probability columns (empty: none)."""
    if proba_cols is None:
        return []
    if isinstance(proba_cols, str) and proba_cols == "auto":
        found: dict[str, str] = {}
        for col in table.columns:
            m = _PROBA_PREFIX.match(col)
            if m:
                lab = m.group(1).strip()
                if lab in found:
                    raise InputError(f"{table.path} has two probability columns for label {lab!r}: {found[lab]!r} and {col!r}.")
                found[lab] = col
        return list(found.items())
    if isinstance(proba_cols, str):
        raise InputError(f"proba_cols must be None, 'auto', a list of columns or a label→column mapping; got {proba_cols!r}.")
    if isinstance(proba_cols, Mapping):
        pairs = [(str(normalise_labels([lab])[0]), str(col)) for lab, col in proba_cols.items()]
    else:
        pairs = []
        for col in proba_cols:
            m = _PROBA_PREFIX.match(str(col))
            if not m:
                raise InputError(f"probability column {col!r} is not named p_<label> or proba_<label>; pass a label→column mapping instead.")
            pairs.append((m.group(1).strip(), str(col)))
    table.require([c for _, c in pairs], "probability column")
    return pairs


@dataclass
class _ProbaState:
    columns: list[tuple[str, str]]
    acc: ProbabilityAccumulator
    auto: bool


def read_predictions(
    paths: PathLike | Sequence[PathLike],
    *,
    true_col: str = "y_true",
    pred_col: str = "y_pred",
    labels: Sequence[Label] | None = None,
    proba_cols: Any = "auto",
    chunk_rows: int = 1_000_000,
) -> PredictionSet:
    """Read item-level predictions of one or more systems.

    Parameters
    ----------
    paths : path or sequence of paths
        One file per system (``.csv``, ``.tsv``, ``.jsonl``/``.ndjson``, ``.parquet``). Every file lists
        the same items in the same order; the system name is the file stem (parent folders are added
        when stems repeat). The ``true_col`` columns must agree row by row.
    true_col, pred_col : str
        Column names of the true and predicted labels.
    labels : sequence of int or str, optional
        Fix the classes and their order; a label outside them is an error. By default the sorted
        labels occurring in any file (typed as described in the module docstring).
    proba_cols : None, "auto", sequence of str or mapping label → column
        Probability columns, one per class. ``"auto"`` (default) takes the columns named
        ``p_<label>`` or ``proba_<label>``; a file without such columns simply has no probability
        metrics. A single column ``p_<label>`` of a two-class task is the probability of that label.
        Each row must hold numbers in [0, 1] summing to 1 (see :mod:`advisor._probabilities` for the
        tolerance and renormalisation of rounded rows).
    chunk_rows : int
        Rows read at a time; memory is proportional to this, not to the file length.

    Returns
    -------
    PredictionSet

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "model.csv").write_text("y_true,y_pred\\ncat,cat\\ndog,cat\\ndog,dog\\n")
    >>> ps = read_predictions(d / "model.csv")
    >>> ps.labels, ps.n_items, ps.systems["model"].counts.tolist()
    (('cat', 'dog'), 3, [[1.0, 0.0], [1.0, 1.0]])
    """
    path_list = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    if not path_list:
        raise InputError("no prediction files were given.")
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InputError(f"chunk_rows must be a positive integer; got {chunk_rows!r}.")
    names = _system_names(path_list)
    tables = [_Columns(p, _table_format(p), chunk_rows) for p in path_list]
    probas: list[_ProbaState | None] = []
    for t in tables:
        t.require([true_col, pred_col])
        cols = _probability_columns(t, proba_cols)
        probas.append(_ProbaState(cols, ProbabilityAccumulator(max(len(cols), 2)), proba_cols == "auto") if cols else None)

    encoder = _Encoder(labels)
    cells = _Cells(1 + len(tables))
    streams = [
        t.chunks([true_col, pred_col], [c for _, c in (st.columns if st else [])])
        for t, st in zip(tables, probas)
    ]
    offset = 0
    while True:
        parts = [next(s, None) for s in streams]
        if all(p is None for p in parts):
            break
        sizes = [0 if p is None else len(p[true_col]) for p in parts]
        if len(set(sizes)) > 1:
            short = int(np.argmin(sizes))
            long = int(np.argmax(sizes))
            raise InputError(
                f"{path_list[short]} has {_rows(offset + sizes[short])} but {path_list[long]} has more; "
                "every system file must list the same items in the same order."
            )
        truth = encoder.encode(parts[0][true_col], path_list[0], true_col, offset)  # type: ignore[index]
        columns = [truth]
        for i, part in enumerate(parts):
            assert part is not None
            if i:
                other = encoder.encode(part[true_col], path_list[i], true_col, offset)
                if not np.array_equal(other, truth):
                    r = _first_bad_row(other != truth)
                    texts = {c: s for s, c in encoder.codes.items()}
                    raise InputError(
                        f"{path_list[i]} row {offset + r + 1}: {true_col} is {texts[int(other[r])]!r} but "
                        f"{path_list[0]} has {texts[int(truth[r])]!r}; system files must list the same items in the same order."
                    )
            columns.append(encoder.encode(part[pred_col], path_list[i], pred_col, offset))
            if probas[i] is not None:
                _add_probabilities(probas[i], part, truth, encoder, path_list[i], offset)  # type: ignore[arg-type]
        cells.add(columns, None, encoder.size)
        offset += sizes[0]

    if offset == 0:
        raise InputError(f"{path_list[0]} has a header but no data rows.")
    final_labels, perm = encoder.finish()
    if len(final_labels) < 2:
        raise InputError(
            f"only one class ({final_labels[0]!r}) occurs in {', '.join(map(str, path_list))}; "
            "metrics need at least two (pass labels= to name the others)."
        )
    joint = JointCounts(final_labels, tuple(names), perm[cells.codes], cells.counts)
    result = PredictionSet(final_labels, joint.matrices(), joint, offset,
                           files=dict(zip(names, path_list)))
    for name, st, path in zip(names, probas, path_list):
        if st is None:
            continue
        if len(st.columns) == 1 and (len(final_labels) != 2 or st.columns[0][0] not in encoder.codes):
            raise InputError(f"{path} has one probability column ({st.columns[0][1]!r}); that form needs a two-class "
                             f"task with {st.columns[0][0]!r} as one of the classes — otherwise give one p_<label> column per class.")
        result.probabilities[name] = st.acc.result()
        if st.acc.renormalised:
            result.notes.append(f"{path}: {st.acc.renormalised} probability rows summed to within 1e-3 of 1 "
                                "and were renormalised.")
    return result


def _add_probabilities(
    st: _ProbaState, part: dict[str, pa.Array], truth: np.ndarray, encoder: _Encoder, path: Path, offset: int
) -> None:
    """Validate one chunk of probability columns and add it to the file's accumulator."""
    p = np.column_stack([part[c].to_numpy(zero_copy_only=False) for _, c in st.columns]).astype(np.float64)
    col_of = {lab: j for j, (lab, _) in enumerate(st.columns)}
    texts = list(encoder.codes)
    lut = np.array([col_of.get(s, -1) for s in texts], dtype=np.int64)
    if len(st.columns) == 1:  # binary task given as the probability of one label
        if encoder.size > 2:
            raise InputError(f"{path} has one probability column ({st.columns[0][1]!r}) but more than two classes occur; "
                             "give one p_<label> column per class.")
        is_pos = lut[truth] == 0
        p = np.column_stack([1.0 - p[:, 0], p[:, 0]])
        true_index = is_pos.astype(np.int64)
    else:
        true_index = lut[truth]
        if (true_index < 0).any():
            r = _first_bad_row(true_index < 0)
            have = ", ".join(c for _, c in st.columns)
            raise InputError(f"{path} row {offset + r + 1}: label {texts[int(truth[r])]!r} has no probability column "
                             f"(found {have}).")
    problem = st.acc.check(p)
    if problem is not None:
        hint = " (columns named p_<label> or proba_<label> are read as class probabilities)" if st.auto else ""
        raise InputError(f"{path} row {offset + problem[0] + 1} {problem[1]}{hint}.")
    st.acc.update(true_index, p)


# ----------------------------------------------------------------------------------------------
# Confusion matrices and count tables
# ----------------------------------------------------------------------------------------------
def _type_labels(texts: Sequence[str]) -> list[Label]:
    """The module's rule: all canonical integers → ints, else the strings as written."""
    return [int(s) for s in texts] if all(_CANONICAL_INT.fullmatch(s) for s in texts) else list(texts)


def read_matrix(path: PathLike) -> ConfusionMatrix:
    """Read a confusion matrix (rows = true classes, columns = predicted classes).

    Formats
    -------
    CSV/TSV
        First row: the predicted labels (the top-left cell is ignored); first column: the true labels;
        the cells are counts. Columns may be in another order than the rows — they are matched by label.
    JSON
        ``{"labels": [...], "matrix": [[...], ...]}`` or a bare list of lists (labels ``0 … k−1``).

    Counts may be non-integer but must be finite and ≥ 0; the matrix must be square and not all zero.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "m.csv"
    >>> _ = f.write_text("true\\\\pred,neg,pos\\nneg,50,10\\npos,5,35\\n")
    >>> read_matrix(f)
    ConfusionMatrix(labels=['neg', 'pos'], counts=[[50.0, 10.0], [5.0, 35.0]])
    """
    p = Path(path)
    fmt = _table_format(p, {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json"})
    _check_file(p, fmt)
    try:
        cm = _matrix_json(p) if fmt == "json" else _matrix_csv(p, "," if fmt == "csv" else "\t")
    except InputError as exc:
        msg = str(exc)
        raise InputError(msg if msg.startswith(str(p)) else f"{p}: {msg}") from None
    if cm.n <= 0:
        raise InputError(f"{p}: the confusion matrix is all zeros; there is nothing to evaluate.")
    return cm


def _matrix_json(p: Path) -> ConfusionMatrix:
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{p} is not valid JSON ({exc.msg} at line {exc.lineno}).") from None
    if isinstance(data, list):
        return ConfusionMatrix(data)
    if isinstance(data, dict) and "matrix" in data:
        return ConfusionMatrix.from_dict(data)
    raise InputError('a confusion matrix in JSON is {"labels": [...], "matrix": [[...], ...]} or a list of lists.')


def _matrix_csv(p: Path, delimiter: str) -> ConfusionMatrix:
    with p.open("r", encoding="utf-8-sig", newline="") as fh:
        rows = [r for r in csv.reader(fh, delimiter=delimiter) if any(c.strip() for c in r)]
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
                raise InputError(f"row {i + 1} (true {row_texts[i]!r}), column {header[j]!r}: the count is {what}.") from None
            if not (np.isfinite(counts[i, j]) and counts[i, j] >= 0):
                raise InputError(f"row {i + 1} (true {row_texts[i]!r}), column {header[j]!r}: the count is "
                                 f"{counts[i, j]:g}; counts must be finite and ≥ 0 (a negative count is not allowed).")
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
    CSV, TSV, JSON Lines and Parquet; read in chunks like :func:`read_predictions`, with the same
    label typing.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "counts.csv"
    >>> _ = f.write_text("true,pred,count\\n1,1,40\\n1,0,10\\n0,0,45\\n0,1,5\\n1,1,2\\n")
    >>> read_counts(f).counts.tolist()
    [[45.0, 5.0], [10.0, 42.0]]
    """
    p = Path(path)
    table = _Columns(p, _table_format(p), chunk_rows)
    encoder = _Encoder(None)
    cells = _Cells(2)
    offset = 0
    for part in table.chunks([true_col, pred_col], [count_col]):
        w = part[count_col].to_numpy(zero_copy_only=False).astype(np.float64)
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            r = _first_bad_row(bad)
            what = "empty" if np.isnan(w[r]) else f"{w[r]:g}"
            raise InputError(f"{p} row {offset + r + 1}: {count_col} is {what}; counts must be finite numbers ≥ 0.")
        t = encoder.encode(part[true_col], p, true_col, offset)
        q = encoder.encode(part[pred_col], p, pred_col, offset)
        cells.add([t, q], w, encoder.size)
        offset += len(w)
    if offset == 0:
        raise InputError(f"{p} has a header but no data rows.")
    labels, perm = encoder.finish()
    k = len(labels)
    counts = np.zeros((k, k))
    np.add.at(counts, (perm[cells.codes[:, 0]], perm[cells.codes[:, 1]]), cells.counts)
    if counts.sum() <= 0:
        raise InputError(f"{p}: every count is zero; there is nothing to evaluate.")
    if k < 2:
        raise InputError(f"{p}: only one class ({labels[0]!r}) occurs; metrics need at least two.")
    return ConfusionMatrix(counts, labels)
