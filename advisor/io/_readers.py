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

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ..engine._confusion import ConfusionMatrix, Label
from ._duck import COMPRESSIONS, Source, connect, file_source
from ._lines import scan_lines
from ._matrices import PathLike, read_counts, read_matrix
from ._predset import PredictionSet, _probability_columns, prediction_set
from ._scan import Side, scan

__all__ = ["LoadedInputs", "PredictionSet", "load_inputs", "read_predictions"]


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
