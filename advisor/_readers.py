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

import csv
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from ._confusion import ConfusionMatrix, Label, normalise_labels
from ._exceptions import InputError
from ._joint import JointCounts
from ._probabilities import ProbabilityAccumulator
from ._tables import CANONICAL_INT, Cells, Columns, Encoder, check_file, first_bad_row, rows_text, table_format

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = ["LoadedInputs", "PredictionSet", "load_inputs", "read_counts", "read_matrix", "read_predictions"]

PathLike = Union[str, Path]

_PROBA_PREFIX = re.compile(r"^(?:p|proba)_(.+)$")


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
# Predictions
# ----------------------------------------------------------------------------------------------
def _system_names(paths: Sequence[Path]) -> list[str]:
    """File stems; where different files share a stem, enough parent folders to tell them apart.

    The same file given twice gets ``#2``, ``#3``….
    """
    resolved = [p.resolve() for p in paths]

    def leaf(p: Path) -> str:  # the extension only where a sibling shares the stem (a.csv, a.parquet)
        return p.name if any(q.parent == p.parent and q.stem == p.stem and q != p for q in resolved) else p.stem

    def name(p: Path, depth: int) -> str:
        return "/".join([*p.parent.parts[len(p.parent.parts) - depth + 1:], leaf(p)]) if depth > 1 else leaf(p)

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


def _probability_columns(table: Columns, proba_cols: Any) -> list[tuple[str, str]]:
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
    tables = [Columns(p, table_format(p), chunk_rows) for p in path_list]
    probas: list[_ProbaState | None] = []
    for t in tables:
        t.require([true_col, pred_col])
        cols = _probability_columns(t, proba_cols)
        probas.append(_ProbaState(cols, ProbabilityAccumulator(max(len(cols), 2)), proba_cols == "auto") if cols else None)

    encoder = Encoder(labels)
    cells = Cells(1 + len(tables))
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
                f"{path_list[short]} has {rows_text(offset + sizes[short])} but {path_list[long]} has more; "
                "every system file must list the same items in the same order."
            )
        truth = encoder.encode(parts[0][true_col], path_list[0], true_col, offset)  # type: ignore[index]
        columns = [truth]
        for i, part in enumerate(parts):
            assert part is not None
            if i:
                other = encoder.encode(part[true_col], path_list[i], true_col, offset)
                if not np.array_equal(other, truth):
                    r = first_bad_row(other != truth)
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
    lookalike = _same_number(final_labels)
    if lookalike:
        result.notes.append(f"the labels {' and '.join(map(repr, lookalike))} are different classes because they are "
                            "written differently; if they mean the same class, write them the same way in every file.")
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
    st: _ProbaState, part: dict[str, pa.Array], truth: np.ndarray, encoder: Encoder, path: Path, offset: int
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
            r = first_bad_row(true_index < 0)
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
    return [int(s) for s in texts] if all(CANONICAL_INT.fullmatch(s) for s in texts) else list(texts)


def _same_number(labels: Sequence[Label]) -> list[str]:
    """The first group of label texts that spell the same number (``1`` and ``1.0``, ``01``), if any.

    >>> _same_number(["1", "1.0", "2"]), _same_number(["a", "b"])
    (['1', '1.0'], [])
    """
    groups: dict[float, list[str]] = {}
    for lab in labels:
        try:
            value = float(lab)
        except (TypeError, ValueError):
            continue
        if value == value:  # not NaN
            groups.setdefault(value, []).append(str(lab))
    return next((texts for texts in groups.values() if len(texts) > 1), [])


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
    fmt = table_format(p, {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json"})
    check_file(p, fmt)
    try:
        cm = _matrix_json(p) if fmt == "json" else _matrix_csv(p, "," if fmt == "csv" else "\t")
    except InputError as exc:
        msg = str(exc)
        raise InputError(msg if msg.startswith(str(p)) else f"{p}: {msg}") from None
    except UnicodeDecodeError:  # the first 8 KiB were sniffed; a bad byte can come later
        raise InputError(f"{p} is not valid UTF-8 text; save it as UTF-8.") from None
    if cm.n <= 0:
        raise InputError(f"{p}: the confusion matrix is all zeros; there is nothing to evaluate.")
    return cm


def _check_json_counts(p: Path, rows: Any) -> None:
    """Counts in JSON must be numbers: ``"2"`` or ``true`` are refused rather than silently converted."""
    if not isinstance(rows, list):
        return  # the matrix constructor reports the shape
    for i, row in enumerate(rows):
        for j, cell in enumerate(row if isinstance(row, list) else []):
            if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                raise InputError(f"{p}: the count at row {i + 1}, column {j + 1} is {cell!r}; counts must be numbers.")


def _matrix_json(p: Path) -> ConfusionMatrix:
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise InputError(f"{p} is not valid JSON ({exc.msg} at line {exc.lineno}).") from None
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
    table = Columns(p, table_format(p), chunk_rows)
    encoder = Encoder(None)
    cells = Cells(2)
    offset = 0
    for part in table.chunks([true_col, pred_col], [count_col]):
        w = part[count_col].to_numpy(zero_copy_only=False).astype(np.float64)
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            r = first_bad_row(bad)
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


# ----------------------------------------------------------------------------------------------
# Every input of a command at once
# ----------------------------------------------------------------------------------------------
@dataclass
class LoadedInputs:
    """What :func:`load_inputs` read: one confusion matrix per system, and the paired predictions if any.

    Attributes
    ----------
    systems : dict of str → ConfusionMatrix
        Every system, in the order given: prediction files, then matrices, then count tables.
    predictions : PredictionSet or None
        The predictions when every input is a prediction file (the systems are then paired: the
        same items); None when matrices or count tables are among the inputs.
    probabilities : dict of str → dict
        Probability scores of the systems whose prediction file has probability columns.
    notes : list of str
        What the readers noted (see :attr:`PredictionSet.notes`).
    mixed : bool
        Prediction files together with matrices or count tables: the systems are not paired.
    """

    systems: dict[str, ConfusionMatrix]
    predictions: PredictionSet | None = None
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    mixed: bool = False

    @property
    def data(self) -> PredictionSet | dict[str, ConfusionMatrix]:
        """The predictions if paired, else the matrices by system: what ``recommend`` and ``build_report`` take."""
        return self.predictions if self.predictions is not None else self.systems


def load_inputs(
    prediction_files: Sequence[PathLike] = (),
    matrix_files: Sequence[PathLike] = (),
    count_files: Sequence[PathLike] = (),
    *,
    true_col: str | None = None,
    pred_col: str | None = None,
    count_col: str = "count",
) -> LoadedInputs:
    """Read the prediction files, confusion matrices and count tables of a command into one set of systems.

    Parameters
    ----------
    prediction_files, matrix_files, count_files : sequences of paths
        Read with :func:`read_predictions`, :func:`read_matrix` and :func:`read_counts`.
    true_col, pred_col : str, optional
        Label columns; the default is ``y_true``/``y_pred`` for prediction files and ``true``/``pred``
        for count tables.
    count_col : str
        Count column of the count tables.

    Every system is named by one rule, :func:`read_predictions`' own, over all the files together:
    the file stem; the extension too where a file beside it shares the stem (``m.csv``,
    ``m.json``); parent folders where files elsewhere share the name (``x/m``, ``y/m``); and
    ``#2``, ``#3``… for the same file given again.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.json").write_text(json.dumps([[5, 1], [2, 4]]))
    >>> got = load_inputs(matrix_files=[d / "m.json", d / "m.json"])
    >>> list(got.systems), got.predictions is None
    (['m', 'm#2'], True)
    """
    preds = [Path(p) for p in prediction_files]
    mats = [Path(p) for p in matrix_files]
    tables = [Path(p) for p in count_files]
    if not (preds or mats or tables):
        raise InputError("no input given; pass prediction files, confusion matrices or count tables.")
    names = _system_names([*preds, *mats, *tables])
    out = LoadedInputs({})
    if preds:
        ps = read_predictions(preds, true_col=true_col or "y_true", pred_col=pred_col or "y_pred")
        out.notes.extend(ps.notes)
        for given, name in zip(ps.joint.systems, names):  # the same rule, so the same names when alone
            out.systems[name] = ps.systems[given]
            if given in ps.probabilities:
                out.probabilities[name] = ps.probabilities[given]
        if mats or tables:
            out.mixed = True
        else:
            out.predictions = ps
    rest = names[len(preds):]
    for path, name in zip(mats, rest):
        out.systems[name] = read_matrix(path)
    for path, name in zip(tables, rest[len(mats):]):
        out.systems[name] = read_counts(path, true_col or "true", pred_col or "pred", count_col)
    return out
