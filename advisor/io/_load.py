"""``advisor.load``: every input of a run read once into a :class:`~advisor.io._dataset.Dataset`.

One DuckDB statement stages all prediction inputs of a run — files (CSV, TSV, JSON Lines, Parquet,
compressed too), a ``sql=`` query or a DataFrame/Arrow table — side by side (:mod:`advisor.io._stage`);
count tables are staged by a second statement of their own, and confusion matrices (small) are read by
Python; so each file is opened once and a query runs once. Everything else comes from the staged
tables: the joint counts and probability sums (:mod:`advisor.io._scan`), item-level scores and the
columns of structured inputs (:mod:`advisor.io._items`) — the latter only where the columns or the
options ask for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg
from ..engine import Label, answered_matrix, check_reject_label
from ._counts import count_tables
from ._dataset import Dataset, SourceInfo
from ._duck import connect
from ._load_args import check_load_arguments, input_paths
from ._load_common import is_frame
from ._load_predictions import load_predictions
from ._matrices import read_matrix
from ._naming import system_names

__all__ = ["load", "with_reject"]

def load(sources: Any = (), *, sql: str | None = None, matrices: Sequence[Any] = (), counts: Sequence[Any] = (),
         true_col: str | None = None, pred_col: str | None = None, count_col: str = "count",
         id_col: str | None = "id", systems: Sequence[str] | str | None = None, labels: Sequence[Label] | None = None,
         proba_cols: Any = "auto", order: Sequence[Any] | None = None, label_sep: str | None = None,
         top_k: int | None = None, structure: str | None = None, group: str | None = None,
         names: Sequence[str] | None = None, by: Sequence[str] | str | None = None,
         reject_label: Label | None = None) -> Dataset:
    """Read the inputs of one evaluation, each once, into a :class:`~advisor.io._dataset.Dataset`.

    Parameters
    ----------
    sources : path, sequence of paths, or a DataFrame / Arrow table
        Prediction files (``.csv``, ``.tsv``, ``.jsonl``/``.ndjson``, ``.parquet``, each also ``.gz``/``.zst``),
        one system per file on the same items (matched by ``id`` when every file has one, else by row
        order); or one pandas/polars DataFrame or pyarrow Table with a true-label column and one column
        per system.
    sql : str, optional
        Exactly one DuckDB ``SELECT`` returning the true labels and one column per system (``y_pred`` for
        one), optionally ``p_<label>``/``score`` columns; it replaces ``sources`` and runs once.
    matrices, counts : sequences of paths
        Confusion matrices (CSV/JSON) and ``true,pred,count`` tables (``count_col`` holds the counts).
    true_col, pred_col : str, optional
        Label columns (default ``y_true``/``y_pred``; ``true``/``pred`` for count tables).
    systems : column name or list, optional
        A DataFrame's or query's prediction columns (default ``y_pred``, else every column that is not the
        truth, ``id``, ``score`` or a probability column).
    labels : sequence, optional
        Fix the classes and their order.
    proba_cols : "auto", None, list or mapping
        Probability columns (``"auto"``: the ``p_<label>``/``proba_<label>`` columns).
    order, label_sep, top_k, structure
        Ordered classes, the separator of label sets, top-k, or the structure itself (``ordinal``,
        ``multilabel``, ``top_k``, ``agreement``): the inputs are then read as structured inputs
        (:attr:`Dataset.structured`), as are files with ``rater_<name>`` or ``true_<l>``/``pred_<l>`` columns.
    names : sequence of str, optional
        The system name of each prediction file (default: the file stems); distinct.
    group : str, optional
        A column of the (first) prediction input naming the group each item belongs to — a patient, a
        document, a query: the bootstrap then resamples groups, not items (``Dataset.predictions.groups``).
    by : column name or list of column names, optional
        Subgroup columns of the (first) prediction input (sex, site, …): the joint table is also counted per
        value of each (``Dataset.predictions.by``), for the per-subgroup results of :func:`advisor.subgroups`.
    reject_label : label, optional
        The label a system writes when it abstains (selective prediction): not a class and never a true label.
        Each system's confusion matrix — and so every flat metric — holds the items it answered; the items it
        abstained on are counted in ``Dataset.abstained`` (its coverage: :meth:`Dataset.coverage`); the paired
        table keeps them (code ``k``, :meth:`~advisor.engine.JointCounts.with_reject`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "m.csv").write_text("y_true,y_pred,p_cat,p_dog\\ncat,cat,.9,.1\\ndog,cat,.6,.4\\ndog,dog,.2,.8\\n")
    >>> ds = load(d / "m.csv")
    >>> ds.systems["m"].counts.tolist(), sorted(ds.probabilities["m"]), ds.scores["m"].proba.shape
    ([[1.0, 0.0], [1.0, 1.0]], ['brier', 'log_loss'], (3, 2))
    >>> ds.sources[0].format, ds.sources[0].columns
    ('csv', ['y_true', 'y_pred', 'p_cat', 'p_dog'])
    """
    check_load_arguments(sql=sql, true_col=true_col, pred_col=pred_col, count_col=count_col, id_col=id_col,
                         systems=systems, labels=labels, proba_cols=proba_cols, order=order, label_sep=label_sep,
                         top_k=top_k, structure=structure, group=group, names=names, by=by)
    frame = sources if is_frame(sources) else None
    paths = [] if frame is not None else input_paths(sources, "sources")
    mats, tabs = input_paths(matrices, "matrices"), input_paths(counts, "counts")
    if sql is not None and (paths or frame is not None or mats or tabs):
        raise InputError(f"{arg('sql')} replaces {arg('sources')}; give either {arg('sources')} or {arg('sql')}, not both.")
    if not (paths or frame is not None or sql is not None or mats or tabs):
        raise InputError("no input given; pass prediction files, confusion matrices or count tables.")
    if group is not None and (mats or tabs):
        raise InputError(f"{arg('group', group)} resamples groups of items, which confusion matrices and count tables "
                         f"do not keep; give the prediction files (or {arg('sql')}), or leave {arg('group')} out.")
    if group is not None and (not isinstance(group, str) or not group.strip()):
        raise InputError(f"group must name a column of the predictions; got {group!r}.")
    by_cols = _by_columns(by, bool(mats or tabs))
    if reject_label is not None:
        reject_label = check_reject_label(reject_label, ())
        other = next((what for what, v in (("an order of the classes", order), ("a label separator", label_sep),
                                           ("top-k", top_k)) if v is not None), None)
        if other is not None or structure not in (None, "nominal"):
            raise InputError(f"the reject label {reject_label!r} marks abstentions among single-label predictions of "
                             f"unordered classes; with {other or 'the structure ' + repr(structure)} leave it out.")
        if labels is not None and reject_label not in {str(x) for x in labels}:
            labels = [*labels, reject_label]  # a label the predictions may hold, taken out of the classes again
    opts = dict(true_col=true_col, pred_col=pred_col, id_col=id_col, systems=systems, labels=labels,
                proba_cols=proba_cols, order=order, label_sep=label_sep, top_k=top_k, structure=structure,
                group_col=group, by_cols=by_cols, reject_label=reject_label)
    given, names = names, system_names([*paths, *mats, *tabs])
    if given is not None:
        given = [str(x) for x in given]
        if len(given) != len(paths) or len(set(given)) != len(given):
            raise InputError(f"names must give each of the {len(paths)} prediction files its own system name; got "
                             f"{given!r}.")
        names = [*given, *names[len(paths):]]
    ds = Dataset()
    con = connect()
    try:
        if paths or frame is not None or sql is not None:
            load_predictions(con, ds, paths, names[:len(paths)], frame=frame, sql=sql, **opts)
        _load_tables(con, ds, mats, tabs, names[len(paths):], true_col, pred_col, count_col)
    finally:
        con.close()
    if reject_label is not None:
        _reject(ds, reject_label)
    if paths and (mats or tabs):
        ds.mixed, ds.predictions = True, None
    return ds


def with_reject(data: Any, reject_label: Label | None) -> Any:
    """``data`` (a :class:`Dataset` or a :class:`~advisor.io.PredictionSet`) as if read with ``reject_label=``:
    a copy whose systems hold the items each answered (see :func:`load`); the same object when ``reject_label`` is
    None or it was read with that label; anything else is returned as it is."""
    if reject_label is None:
        return data
    r = check_reject_label(reject_label, ())
    if isinstance(data, Dataset):
        if data.reject_label is not None:
            if str(data.reject_label) != r:
                raise InputError(f"the data was read with the reject label {data.reject_label!r}, not {r!r}; give one "
                                 "reject label.")
            return data
        out = replace(data, systems=dict(data.systems), abstained={}, notes=list(data.notes))
        _reject(out, r)
        return out
    if hasattr(data, "joint") and hasattr(data, "systems") and hasattr(data, "labels"):  # a PredictionSet
        joint = data.joint.with_reject(r)
        if joint is data.joint:
            return data
        systems = joint.matrices()
        return replace(data, joint=joint, labels=joint.labels,
                       systems={n: systems.get(n, cm) for n, cm in data.systems.items()})
    return data


def _reject(ds: Dataset, reject: str) -> None:
    """The reject label taken out of every system's classes (the paired table's already, when read with it)."""
    if ds.structured is not None:
        raise InputError(f"the reject label {reject!r} marks abstentions among single-label predictions; the "
                         f"{ds.structured.structure.replace('_', '-')} inputs here have none, so leave it out.")
    ds.reject_label = reject
    joint = ds.joint
    if joint is not None and joint.reject is None:  # read without the reject label
        ds.predictions = with_reject(ds.predictions, reject)
        joint = ds.joint
    if joint is not None and ds.predictions is not None:
        ds.systems.update(ds.predictions.systems)
    for name, cm in list(ds.systems.items()):
        if joint is not None and name in joint.systems:
            continue
        ds.systems[name], ds.abstained[name] = answered_matrix(cm, reject)
    if joint is not None:
        answered = joint.answered()
        ds.abstained.update({name: joint.n - a for name, a in answered.items()})
    if ds.predictions is not None:
        ds.predictions.systems = {n: cm for n, cm in ds.systems.items() if n in ds.predictions.systems}
    if not any(ds.abstained.values()):
        ds.notes.append(f"no system wrote the reject label {reject!r}: every item was answered (coverage 1).")


def _by_columns(by: Sequence[str] | str | None, tables: bool) -> tuple[str, ...]:
    """The subgroup columns of ``by=``, each once; refused with matrices or count tables."""
    cols = [by] if isinstance(by, str) else list(by or ())
    for col in cols:
        if not isinstance(col, str) or not col.strip():
            raise InputError(f"by must name columns of the predictions; got {col!r}.")
    if cols and tables:
        raise InputError(f"{arg('by', cols[0])} evaluates subgroups of items, which confusion matrices and count tables "
                         f"do not keep; give the prediction files (or {arg('sql')}), or leave {arg('by')} out.")
    return tuple(dict.fromkeys(cols))


def _load_tables(con: Any, ds: Dataset, mats: list[Path], tabs: list[Path], names: list[str],
                 true_col: str | None, pred_col: str | None, count_col: str) -> None:
    """Confusion matrices (read by Python, once each) and count tables (one staging statement)."""
    for path, name in zip(mats, names):
        ds.systems[name] = read_matrix(path)
        fmt = "json" if path.suffix.lower() == ".json" else "tsv" if path.suffix.lower() in (".tsv", ".tab") else "csv"
        ds.sources.append(SourceInfo(str(path), "matrix", "file", fmt, systems=[name]))
    if not tabs:
        return

    for name, (cm, info) in zip(names[len(mats):], count_tables(con, tabs, true_col or "true", pred_col or "pred",
                                                                  count_col)):
        ds.systems[name] = cm
        info.systems = [name]
        ds.sources.append(info)
