"""Reading predictions, confusion matrices and count tables from files.

Formats are chosen by extension: ``.csv``, ``.tsv``/``.tab``, ``.jsonl``/``.ndjson`` (JSON Lines) and
``.parquet``/``.pq``; a confusion matrix may also be ``.json``. Prediction and count files are read
through DuckDB (compressed ``.gz``/``.zst`` files too) with one ``GROUP BY`` over the label columns,
so only the distinct label combinations come back and memory does not grow with the number of rows.

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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ..engine._confusion import ConfusionMatrix, Label, normalise_labels
from ..engine._joint import JointCounts
from ._duck import COMPRESSIONS, Source, connect, file_source
from ._matrices import PathLike, read_counts, read_matrix
from ._lines import scan_lines
from ._scan import Scan, Side, matrix_from_cells, scan

__all__ = ["LoadedInputs", "PredictionSet", "load_inputs", "read_predictions"]


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

    def stem(p: Path) -> str:  # m.csv.gz → m
        return Path(p.stem).stem if p.suffix.lower() in COMPRESSIONS else p.stem

    def leaf(p: Path) -> str:  # the extension only where a sibling shares the stem (a.csv, a.parquet)
        return p.name if any(q.parent == p.parent and stem(q) == stem(p) and q != p for q in resolved) else stem(p)

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


def _probability_columns(table: Source, proba_cols: Any) -> list[tuple[str, str]]:
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
                    raise InputError(f"{table.what} has two probability columns for label {lab!r}: {found[lab]!r} and {col!r}.")
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
    id_col: str | None = "id",
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
        Each row must hold numbers in [0, 1] summing to 1 (see :mod:`advisor.engine._probabilities` for the
        tolerance and renormalisation of rounded rows).
    chunk_rows : int
        Kept for compatibility: DuckDB streams the files itself (memory grows with the number of
        distinct label combinations, not with the number of rows).
    id_col : str or None
        With several files that all have this column, items are matched by it (a missing or extra
        id is an error saying how many); otherwise by row order, with lengths checked. None: always
        by row order.

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
    con = connect()
    try:
        sides = [_side(file_source(con, p), true_col, pred_col, proba_cols) for p in path_list]
        counted = scan_lines(con, sides, labels) or scan(con, sides, labels=labels, id_col=id_col)
    finally:
        con.close()
    return prediction_set(counted, names, [str(p) for p in path_list], files=dict(zip(names, path_list)))


def _side(src: Source, true_col: str, pred_col: str, proba_cols: Any) -> Side:
    """Check one input's label columns and find its probability columns."""
    from ._duck import json_relation

    src.require([true_col, pred_col])
    cols = _probability_columns(src, proba_cols)
    if src.fmt == "jsonl":
        json_relation(src, [true_col, pred_col, "id", *[c for _, c in cols]])
    return Side(src, true_col, pred_col, cols, isinstance(proba_cols, str) and proba_cols == "auto")


def prediction_set(counted: Scan, names: Sequence[str], whats: Sequence[str],
                   files: dict[str, Path] | None = None) -> PredictionSet:
    """The :class:`PredictionSet` of a scan: one matrix per system, the joint table, scores and notes."""
    final_labels = counted.labels
    if counted.n_items == 0:
        raise InputError(f"{whats[0]} has a header but no data rows.")
    if len(final_labels) < 2:
        raise InputError(
            f"only one class ({final_labels[0]!r}) occurs in {', '.join(whats)}; "
            "metrics need at least two (pass labels= to name the others)."
        )
    codes, counts = counted.codes, counted.counts
    joint = JointCounts(final_labels, tuple(names), codes, counts)
    systems = {name: matrix_from_cells(codes[:, 0], codes[:, 1 + s], counts, final_labels, whats[s])
               for s, name in enumerate(names)}
    result = PredictionSet(final_labels, systems, joint, counted.n_items, files=dict(files or {}))
    lookalike = _same_number(final_labels)
    if lookalike:
        result.notes.append(f"the labels {' and '.join(map(repr, lookalike))} are different classes because they are "
                            "written differently; if they mean the same class, write them the same way in every file.")
    for name, what, proba, ren in zip(names, whats, counted.probabilities, counted.renormalised):
        if proba is None:
            continue
        result.probabilities[name] = proba
        if ren:
            result.notes.append(f"{what}: {ren} probability rows summed to within 1e-3 of 1 and were renormalised.")
    return result


# ----------------------------------------------------------------------------------------------
# Confusion matrices and count tables
# ----------------------------------------------------------------------------------------------
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
    sql: str | None = None,
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
    sql : str, optional
        A DuckDB query returning ``y_true`` and ``y_pred`` (or one column per system, optional ``id``
        and ``p_<label>`` columns); see :func:`advisor.io._frames.read_sql`. It replaces the files.

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
    if sql is not None:
        if preds or mats or tables:
            raise InputError("--sql replaces the input files; give either files or --sql, not both.")
        from ._frames import read_sql

        ps = read_sql(sql, y_true=true_col or "y_true", systems=[pred_col] if pred_col and pred_col != "y_pred" else None)
        return LoadedInputs(dict(ps.systems), ps, dict(ps.probabilities), list(ps.notes))
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
