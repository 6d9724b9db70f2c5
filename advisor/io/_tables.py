"""Table files read in chunks: columns as text or numbers, labels as growing integer codes.

The machinery under :mod:`advisor.io._readers`: pick the format from the extension, check the file, stream
selected columns in chunks of a fixed number of rows (pyarrow's CSV stream reader, Parquet row batches,
JSON Lines line by line), map label texts to integer codes chunk by chunk, and merge the distinct code
combinations with their counts — so memory depends on the chunk size and the number of distinct
combinations, never on the number of rows. See :mod:`advisor.io._readers` for the label-typing rule.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._exceptions import InputError
from ..engine._confusion import Label, normalise_labels

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "CANONICAL_INT",
    "TABLE_FORMATS",
    "Cells",
    "Columns",
    "Encoder",
    "check_file",
    "csv_header",
    "first_bad_row",
    "rechunk",
    "rows_text",
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
CANONICAL_INT = re.compile(r"-?[1-9][0-9]*|0")
_SNIFF_BYTES = 8192


# ----------------------------------------------------------------------------------------------
# Files and formats
# ----------------------------------------------------------------------------------------------
def table_format(path: Path, allowed: Mapping[str, str] = TABLE_FORMATS) -> str:
    fmt = allowed.get(path.suffix.lower())
    if fmt is None:
        exts = ", ".join(sorted(allowed))
        raise InputError(f"{path} has extension {path.suffix or '(none)'!r}; supported extensions are {exts}.")
    return fmt


def check_file(path: Path, fmt: str) -> None:
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


def csv_header(path: Path, delimiter: str) -> list[str]:
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


class Columns:
    """Chunks of selected columns of one table file: labels as text, numbers as float64.

    Every chunk is a dict column → ``pyarrow.Array``; label arrays are strings (nulls for missing
    cells), number arrays float64 (nulls for missing cells).
    """

    def __init__(self, path: Path, fmt: str, chunk_rows: int) -> None:
        self.path, self.fmt, self.chunk_rows = path, fmt, chunk_rows
        check_file(path, fmt)
        self.columns = self._read_columns()

    # -- schema --------------------------------------------------------------------------------
    def _read_columns(self) -> list[str]:
        if self.fmt in ("csv", "tsv"):
            return csv_header(self.path, "," if self.fmt == "csv" else "\t")
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
        repeated = [c for c in wanted if self.columns.count(c) > 1]
        if repeated:
            raise InputError(f"{self.path} has {self.columns.count(repeated[0])} columns named {repeated[0]!r}; "
                             "rename all but one so it is clear which to read.")

    # -- chunks ---------------------------------------------------------------------------------
    def chunks(self, label_cols: Sequence[str], number_cols: Sequence[str]) -> Iterator[dict[str, pa.Array]]:
        self.require([*label_cols, *number_cols])
        if self.fmt in ("csv", "tsv"):
            gen = self._csv_chunks(label_cols, number_cols)
        elif self.fmt == "parquet":
            gen = self._parquet_chunks(label_cols, number_cols)
        else:
            gen = self._json_chunks(label_cols, number_cols)
        return rechunk(gen, self.chunk_rows)

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
            lines = iter(fh)
            while True:
                try:
                    line = next(lines)
                except StopIteration:
                    return
                except UnicodeDecodeError:  # the first 8 KiB were sniffed; a bad byte can come later
                    raise InputError(f"{self.path} is not valid UTF-8 text; save it as UTF-8.") from None
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


def rechunk(chunks: Iterator[dict[str, pa.Array]], rows: int) -> Iterator[dict[str, pa.Array]]:
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


def rows_text(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


def first_bad_row(bad: np.ndarray) -> int:
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
            i = first_bad_row(~ok)
            raise InputError(f"{path} row {offset + i + 1}: {col} is {float(values[i])!r}, not an integer or a string label.")
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
class Encoder:
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
            row = offset + first_bad_row(empty) + 1
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
        typed: list[Label] = [int(s) for s in texts] if all(CANONICAL_INT.fullmatch(s) for s in texts) else texts
        order = sorted(range(len(typed)), key=lambda i: (isinstance(typed[i], str), typed[i]))
        perm = np.empty(len(order), dtype=np.int64)
        perm[order] = np.arange(len(order))
        return tuple(typed[i] for i in order), perm


class Cells:
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
