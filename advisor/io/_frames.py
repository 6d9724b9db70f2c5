"""DataFrames, Arrow tables and SQL queries to the engine's count tables, counted by DuckDB in place.

A pandas or polars DataFrame, a pyarrow Table (or anything else DuckDB can scan: a RecordBatchReader,
a dataset) is registered with an in-process DuckDB connection and read where it lies — no copy of the
rows is made — and a query (``sql=``) is run as a subquery. Either way one ``GROUP BY``
over the true-label column and one column per system gives the joint table, exactly as for files
(same label typing, same checks, same messages naming the row).

:func:`evaluate` is the public ``advisor.evaluate``: matrices as before, label arrays
(``evaluate(y_true, y_pred)``), or a DataFrame with ``y_true=`` and ``systems=[column, …]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError, check_keywords
from ..engine import COST_IDS, DEFAULT_CONVENTION, HIERARCHY_METRICS, JointCounts, Label, evaluate_inputs, metric_id, metric_list
from ..engine import evaluate as evaluate_matrices
from ._dataset import Dataset
from ._evaluate_scores import add_scores
from ._load import load
from ._load_common import frame_columns
from ._load_common import is_frame as is_table
from ._predset import PredictionSet
from ._taxonomy import hierarchy_of

__all__ = ["evaluate", "read_frame", "read_sql"]

_PROBA = ("p_", "proba_")
#: The keywords of :func:`evaluate`: its own and the engine's (``**options``).
EVALUATE_KEYWORDS = ("y_pred", "y_true", "systems", "labels", "costs", "priors", "scores", "metrics", "positive_label",
                     "beta", "undefined", "probabilities", "class_weights", "f1_classes", "proba_cols",
                     "taxonomy")


def read_frame(frame: Any, y_true: str = "y_true", systems: Sequence[str] | str | None = None, *,
               labels: Sequence[Label] | None = None, proba_cols: Any = None) -> PredictionSet:
    """Count a DataFrame (pandas, polars), a pyarrow Table or a RecordBatchReader in place with DuckDB.

    Parameters
    ----------
    frame : DataFrame or Arrow table
        One row per item.
    y_true : str
        The true-label column.
    systems : column name or list of column names, optional
        One prediction column per system (the system is named after its column). By default
        ``y_pred`` if there is such a column, else every other column except ``id`` and probability
        columns.
    labels, proba_cols
        As in :func:`advisor.read_predictions` (probability columns only with one system; by default
        none are read).

    Examples
    --------
    >>> import pyarrow as pa
    >>> t = pa.table({"gold": ["a", "b", "b"], "m1": ["a", "b", "a"], "m2": ["b", "b", "b"]})
    >>> ps = read_frame(t, "gold", ["m1", "m2"])
    >>> ps.systems["m1"].counts.tolist(), ps.n_items
    ([[1.0, 0.0], [1.0, 1.0]], 3)
    """
    return _predictions(load(frame, true_col=y_true, systems=systems, labels=labels, proba_cols=proba_cols,
                             structure="nominal"), "the DataFrame")


def read_sql(query: str, *, y_true: str = "y_true", systems: Sequence[str] | str | None = None,
             labels: Sequence[Label] | None = None, proba_cols: Any = "auto") -> PredictionSet:
    """Run ``query`` in DuckDB and count its result: ``y_true`` and ``y_pred`` or one column per system.

    The query may read any file or folder DuckDB can (``FROM 'preds/*.parquet'``, ``read_csv(…)``), join
    and filter; only the grouped counts come back. Columns ``p_<label>``/``proba_<label>`` are the
    probabilities of a single system; a column ``id`` is ignored.

    Examples
    --------
    >>> ps = read_sql("SELECT * FROM (VALUES (1, 1), (1, 0), (0, 0)) t(y_true, y_pred)")
    >>> ps.labels, ps.systems["y_pred"].counts.tolist()
    ((0, 1), [[1.0, 0.0], [1.0, 1.0]])
    """
    return _predictions(load(sql=query, true_col=y_true, systems=systems, labels=labels, proba_cols=proba_cols,
                             structure="nominal"), "the SQL query")


def _predictions(ds: Dataset, what: str) -> PredictionSet:
    if ds.predictions is None:
        raise InputError(f"{what} has no prediction column; a query returns y_true and y_pred, or one column per "
                         "system.")
    return ds.predictions


def _is_frame(x: Any) -> bool:
    return is_table(x)


def evaluate(data: Any, y_pred: Any = None, *, y_true: str | None = None, systems: Sequence[str] | str | None = None,
             labels: Sequence[Label] | None = None, costs: Any = None, priors: Any = None, scores: Any = None,
             taxonomy: Any = None, **options: Any) -> Any:
    """Evaluate systems given as matrices, as label arrays, or as columns of a DataFrame.

    * ``evaluate({"a": cm_a, "b": cm_b}, …)`` — confusion matrices (see :func:`advisor.engine.evaluate`);
    * ``evaluate(y_true, y_pred)`` or ``evaluate(y_true, {"a": pred_a, "b": pred_b})`` — label arrays
      (lists, numpy, pandas/polars Series, pyarrow arrays); one system is named ``"y_pred"``;
    * ``evaluate(df, y_true="gold", systems=["a", "b"])`` — a pandas/polars DataFrame or a pyarrow
      Table, counted in place by DuckDB (probability columns ``p_<label>`` too, with one system).

    Other keywords (``metrics``, ``positive_label``, ``beta``, ``undefined``, ``probabilities``) are
    those of the engine's :func:`~advisor.engine._evaluate.evaluate`. ``costs`` and ``priors`` (as on the
    command line: ``"fn=10,fp=1"``, ``{"fn": 10, "fp": 1}``, a cost-matrix CSV, ``"ill=0.02,well=0.98"``)
    add the expected costs; ``scores`` (system → n scores or n × k probabilities, with label arrays; a
    DataFrame's ``score``/``p_<label>`` columns by default) add ROC AUC, average precision, Brier and ECE —
    see :mod:`advisor.io._evaluate_scores`.

    ``taxonomy`` (issue 23): the classes are nodes of a tree — a ``child,parent`` CSV file's path, a mapping
    child → parent or a list of ``(child, parent)`` pairs. The result is then the hierarchical evaluation as
    ``advisor compute --taxonomy FILE --json`` gives it without intervals, a dict: ``{"structure": "hierarchy",
    "systems", "labels", "metrics": {system: {hierarchical_f1, hierarchical_precision, hierarchical_recall,
    accuracy, balanced_accuracy}}, "levels": {system: [{depth, items, correct, accuracy}]}, "distances":
    {system: [{distance, items, share}]}, "taxonomy": {file, root, depth, classes_per_level}}``; ``metrics`` may
    choose among those ids, and no other option applies.

    Examples
    --------
    >>> ev = evaluate([0, 1, 1, 0], [0, 1, 0, 0], metrics=["accuracy"])
    >>> ev.systems, ev.metrics["y_pred"]["accuracy"]
    (['y_pred'], 0.75)
    """
    check_keywords("evaluate", options, EVALUATE_KEYWORDS)
    if options.get("metrics") is not None:
        options["metrics"] = metric_list(options["metrics"])
    if taxonomy is not None:
        return _hierarchy(data, y_pred, y_true, systems, taxonomy, {**options, "labels": labels, "costs": costs,
                                                                     "priors": priors, "scores": scores})
    asked = _cost_ids(options, costs)
    ev = _evaluate(data, y_pred, y_true, systems, labels, costs, priors, scores, options, evaluate_matrices)
    if asked is None:
        return ev
    keep = {name: {m: v for m, v in vals.items() if m in asked} for name, vals in ev.metrics.items()}
    return ev.model_copy(update={"metrics": keep})


def _hierarchy(data: Any, y_pred: Any, y_true: str | None, systems: Any, taxonomy: Any,
               options: dict[str, Any]) -> dict[str, Any]:
    """``evaluate(…, taxonomy=…)``: the hierarchical metrics, accuracy at each depth and error distances."""
    metrics = options.pop("metrics", None)
    given = [k for k, v in options.items() if v is not None and not (k == "undefined" and v == DEFAULT_CONVENTION)]
    if given:
        raise InputError(f"{given[0]} does not apply with taxonomy: hierarchical metrics score one class per item in "
                         "the tree, with no positive class, costs, scores or fixed labels; leave it out.")
    if y_pred is not None:
        preds = dict(y_pred) if isinstance(y_pred, Mapping) else {"y_pred": y_pred}
        data = {"y_true": data, **preds}
    elif y_true is not None or _is_frame(data):
        ds = load(data, true_col=y_true or "y_true", systems=systems, structure="nominal")
        data = ds
    elif systems is not None:
        raise InputError("systems= goes with a DataFrame (y_true=…).")
    inputs = hierarchy_of(data, taxonomy)
    known = (*HIERARCHY_METRICS, "accuracy", "balanced_accuracy")
    ids = None
    if metrics is not None:
        ids = [metric_id(m) for m in ([metrics] if isinstance(metrics, str) else metrics)]
        bad = [m for m in ids if m not in known]
        if bad:
            raise InputError(f"metrics {bad[0]!r} is not computed with taxonomy; the metrics are {', '.join(known)}.")
    out = evaluate_inputs(inputs, metrics=ids)
    out["taxonomy"] = dict(inputs.taxonomy or {})
    return out


def _check_columns(frame: Any, y_true: str, systems: Any) -> None:
    """The columns ``y_true=`` and ``systems=`` name are in the table (one sentence naming the argument)."""
    if not _is_frame(frame):
        raise InputError(f"y_true= names a column of a DataFrame or Arrow table given as data; got a "
                         f"{type(frame).__name__} (for label arrays: evaluate(y_true, y_pred)).")
    if not isinstance(y_true, str):
        raise InputError(f"y_true must name the true-label column of the DataFrame; got {y_true!r:.40}.")
    if systems is not None and not isinstance(systems, str) and (
            not isinstance(systems, (list, tuple)) or not all(isinstance(c, str) for c in systems)):
        raise InputError(f"systems must be a column name or a list of column names; got {systems!r:.40}.")
    cols = frame_columns(frame)
    named = [("y_true", y_true)] + [("systems", s) for s in ([systems] if isinstance(systems, str) else systems or [])]
    for arg_name, col in named:
        if str(col) not in cols:
            raise InputError(f"the DataFrame has no column {col!r} ({arg_name}=); its columns are "
                             f"{', '.join(map(repr, cols[:30]))}.")


def _cost_ids(options: dict[str, Any], costs: Any) -> list[str] | None:
    """Expected costs asked for in ``metrics``: computed from ``costs`` beside the matrix metrics — never with
    silent unit costs (without ``costs`` it is one sentence, as on the command line). None: nothing to filter."""
    metrics = options.get("metrics")
    if metrics is None:
        return None

    ids = metric_list(metrics) or []
    cost = [m for m in ids if m in COST_IDS]
    if not cost:
        return None
    if costs is None:
        raise InputError(f"metrics {', '.join(cost)} need the error costs: give costs='fn=10,fp=1' (binary, with "
                         "positive_label=) or a cost matrix; advisor does not assume unit costs.")
    options["metrics"] = [m for m in ids if m not in COST_IDS] or ["accuracy"]
    return ids


def _evaluate(data: Any, y_pred: Any, y_true: str | None, systems: Any, labels: Any, costs: Any, priors: Any,
              scores: Any, options: dict[str, Any], evaluate_matrices: Any) -> Any:
    if y_true is not None or _is_frame(data):
        if y_pred is not None:
            raise InputError("give either a DataFrame with y_true= and systems=, or y_true and y_pred arrays, not both.")
        proba_cols = options.pop("proba_cols", "auto")
        _check_columns(data, y_true or "y_true", systems)

        ds = load(data, true_col=y_true or "y_true", systems=systems, labels=labels, proba_cols=proba_cols,
                  structure="nominal")  # one scan of the table: counts, probability sums and scores
        ps = _predictions(ds, "the DataFrame")
        options.setdefault("probabilities", ps.probabilities or None)
        ev = evaluate_matrices(ps.systems, **options)
        if scores is None and len(ps.systems) == 1:
            found = ds.scores.get(next(iter(ps.systems)))
            scores = {next(iter(ps.systems)): found} if found is not None else None
            return add_scores(ev, ps.systems, y_true=[], scores=scores, costs=costs, priors=priors)
        if scores is not None and not isinstance(scores, Mapping) and len(ps.systems) == 1:
            scores = {next(iter(ps.systems)): scores}  # one system: its scores as one array
        items = None if scores is None else list(data.column(y_true or "y_true").to_pylist() if hasattr(data, "column")
                                                 else data[y_true or "y_true"])
        return add_scores(ev, ps.systems, y_true=items, scores=scores, costs=costs, priors=priors)
    if y_pred is not None:
        preds = dict(y_pred) if isinstance(y_pred, Mapping) else {"y_pred": y_pred}
        joint = JointCounts.from_arrays(data, preds, labels=labels)
        mats = joint.matrices()
        if scores is not None and not isinstance(scores, Mapping):
            scores = {"y_pred": scores}  # one system: its scores as one array
        return add_scores(evaluate_matrices(mats, **options), mats, y_true=list(data), scores=scores, costs=costs,
                          priors=priors)
    if systems is not None or labels is not None:
        raise InputError("systems= and labels= go with a DataFrame (y_true=…) or with label arrays.")
    if scores is not None:
        raise InputError("scores need the true labels of the same items: evaluate(y_true, y_pred, scores=…).")
    if not isinstance(data, Mapping):
        raise InputError("data must be a mapping of system name to confusion matrix, a DataFrame or Arrow table (with "
                         f"y_true=), or the true labels with y_pred; got {type(data).__name__}.")
    mats = dict(data)
    return add_scores(evaluate_matrices(data, **options), mats, costs=costs, priors=priors)
