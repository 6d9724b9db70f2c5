"""Reading predictions, confusion matrices and count tables from files — thin wrappers over :func:`advisor.load`.

:func:`read_predictions` and :func:`load_inputs` are kept for the public API; both read through the one
reader (:mod:`advisor.io._load`), which opens each file once. Formats are chosen by extension: ``.csv``, ``.tsv``/``.tab``, ``.jsonl``/``.ndjson`` (JSON Lines) and
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
from ..engine import ConfusionMatrix, Label
from ._load import load
from ._load_args import input_paths
from ._matrices import PathLike
from ._naming import _system_names
from ._predset import PredictionSet

__all__ = ["LoadedInputs", "PredictionSet", "load_inputs", "read_predictions"]


# ----------------------------------------------------------------------------------------------
# Predictions
# ----------------------------------------------------------------------------------------------
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
    path_list = input_paths(paths, "paths")
    if not path_list:
        raise InputError("no prediction files were given.")
    if not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise InputError(f"chunk_rows must be a positive integer; got {chunk_rows!r}.")

    ds = load(path_list, true_col=true_col, pred_col=pred_col, labels=labels, proba_cols=proba_cols, id_col=id_col,
              structure="nominal")
    if ds.predictions is None:  # files of true labels and scores only
        raise InputError(f"{path_list[0]} has no column {pred_col!r}; a prediction file needs the predicted labels.")
    return ds.predictions


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
    systems = [pred_col] if sql is not None and pred_col and pred_col != "y_pred" else None
    files, mats, tabs = (input_paths(prediction_files, "prediction_files"), input_paths(matrix_files, "matrix_files"),
                         input_paths(count_files, "count_files"))
    ds = load(files, sql=sql, matrices=mats, counts=tabs,
              true_col=true_col, pred_col=pred_col, count_col=count_col, systems=systems, structure="nominal")
    out = LoadedInputs(dict(ds.systems), ds.predictions, dict(ds.probabilities), list(ds.notes), ds.mixed)
    return out
