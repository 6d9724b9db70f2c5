"""Counting a Spark DataFrame where it lies: Spark's ``groupBy`` makes the joint table, only it comes home.

The true-label column and one column per system are turned into label text on the cluster (the rule
of :mod:`advisor.io._readers`: integers and whole floats as decimal text, strings trimmed, booleans as
``1``/``0``), grouped with ``groupBy(...).agg(count)``, and the distinct combinations — at most a few
per confusion-matrix cell — are collected. With one system, probability columns ``p_<label>`` add the
log-loss and Brier sums (clipping and renormalisation as in :mod:`advisor.engine._probabilities`) to
the same aggregation. The result is the same :class:`~advisor.io.PredictionSet` a file gives, so the
engine, the bootstrap and the reports do not know where the data was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import LOG_LOSS_EPS, RENORMALISE_TOLERANCE, SUM_TOLERANCE, Label
from ..io import MAX_LABEL_CHARS, PredictionSet, Scan, prediction_set, type_labels

__all__ = ["count_spark"]

_WHAT = "the Spark DataFrame"
_FLOAT_INT_LIMIT = 2.0 ** 53


def _label(df: Any, name: str) -> Any:
    """A Spark column expression: the label text of column ``name`` (null when unusable)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    c = F.col(f"`{name}`")
    t = df.schema[name].dataType
    if isinstance(t, T.StringType):
        return F.trim(c)
    if isinstance(t, T.BooleanType):
        return F.when(c, F.lit("1")).when(~c, F.lit("0"))
    if isinstance(t, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return c.cast("string")
    if isinstance(t, (T.FloatType, T.DoubleType, T.DecimalType)):
        x = c.cast("double")
        ok = ~F.isnan(x) & (F.abs(x) <= _FLOAT_INT_LIMIT) & (x == F.floor(x))
        return F.when(ok, x.cast("long").cast("string"))
    raise InputError(f"{_WHAT}: column {name!r} has type {t.simpleString()}; labels must be integers or strings.")


def _proba_columns(df: Any, proba_cols: Any) -> list[tuple[str, str]]:
    if proba_cols is None:
        return []
    if isinstance(proba_cols, str) and proba_cols == "auto":
        cols = [(c.split("_", 1)[1].strip(), c) for c in df.columns if c.startswith(("p_", "proba_"))]
    elif isinstance(proba_cols, dict):
        cols = [(str(lab), str(col)) for lab, col in proba_cols.items()]
    else:
        raise InputError(f"proba_cols must be None, 'auto' or a label→column mapping; got {proba_cols!r}.")
    missing = [c for _, c in cols if c not in df.columns]
    if missing:
        raise InputError(f"{_WHAT} has no probability column {missing[0]!r}.")
    return cols


def _proba_aggregates(t: Any, cols: list[tuple[str, str]]) -> list[Any]:
    """Sums of bad rows, renormalised rows, log-loss and Brier terms (one system)."""
    from pyspark.sql import functions as F

    q = [F.col(f"`{c}`").cast("double") for _, c in cols]
    if len(q) == 1:
        q0 = q[0]
        q, pt = [F.lit(1.0) - q0, q0], F.when(t == F.lit(cols[0][0]), q0).otherwise(F.lit(1.0) - q0)
    else:
        pt = F.lit(None).cast("double")
        for (lab, _), qj in reversed(list(zip(cols, q))):
            pt = F.when(t == F.lit(lab), qj).otherwise(pt)
    total = q[0]
    for qj in q[1:]:
        total = total + qj
    off = F.abs(total - F.lit(1.0))
    ok = off <= RENORMALISE_TOLERANCE
    for qj in q:
        ok = ok & qj.isNotNull() & ~F.isnan(qj) & (qj >= 0) & (qj <= 1)
    sn = F.when(off > SUM_TOLERANCE, total).otherwise(F.lit(1.0))
    ll = -F.log(F.greatest(F.least(pt / sn, F.lit(1 - LOG_LOSS_EPS)), F.lit(LOG_LOSS_EPS)))
    br = F.lit(1.0) - 2 * pt / sn
    for qj in q:
        br = br + (qj / sn) * (qj / sn)
    return [F.sum(F.when(F.coalesce(ok, F.lit(False)), 0).otherwise(1)).alias("bad_"),
            F.sum(F.when(off > SUM_TOLERANCE, 1).otherwise(0)).alias("ren_"),
            F.sum(ll).alias("ll_"), F.sum(br).alias("br_"),
            F.sum(F.when(pt / sn < F.lit(LOG_LOSS_EPS), 1).otherwise(0)).alias("z_")]


def count_spark(df: Any, y_true: str, systems: Sequence[str] | str | None, *,
                labels: Sequence[Label] | None = None, proba_cols: Any = None) -> PredictionSet:
    """The :class:`PredictionSet` of a Spark DataFrame: ``groupBy`` on the cluster, counts collected."""
    from pyspark.sql import functions as F

    if not hasattr(df, "groupBy") or not hasattr(df, "schema"):
        raise InputError(f"df must be a Spark DataFrame; got {type(df).__name__}.")
    if not isinstance(y_true, str):
        raise InputError(f"y_true must be the name of the true-label column; got {y_true!r:.60}.")
    if isinstance(systems, str):
        systems = [systems]
    if systems is not None and (not isinstance(systems, (list, tuple)) or not all(isinstance(c, str) for c in systems)):
        raise InputError(f"systems must be a column name or a list of column names; got {systems!r:.60}.")
    if systems is None:
        systems = ["y_pred"] if "y_pred" in df.columns else [
            c for c in df.columns if c not in (y_true, "id", "score") and not c.startswith(("p_", "proba_"))]
    systems = [str(s) for s in systems]
    for name, c in [("y_true", y_true), *(("systems", s) for s in systems)]:
        if c not in df.columns:
            raise InputError(f"{_WHAT} has no column {c!r} ({name}=); its columns are "
                             f"{', '.join(map(repr, df.columns[:30]))}.")
    if not systems:
        raise InputError(f"{_WHAT} has no prediction column besides {y_true!r}; name them with systems=[…].")
    cols = _proba_columns(df, proba_cols) if len(systems) == 1 else []
    t = _label(df, y_true).alias("t0")
    preds = [_label(df, s).alias(f"p{i}") for i, s in enumerate(systems)]
    aggs = [F.count(F.lit(1)).alias("n")] + (_proba_aggregates(_label(df, y_true), cols) if cols else [])
    rows = df.groupBy(t, *preds).agg(*aggs).collect()
    return _finish(rows, systems, cols, labels)


def _finish(rows: list[Any], systems: list[str], cols: list[tuple[str, str]],
            labels: Sequence[Label] | None) -> PredictionSet:
    m = len(systems)
    if not rows:
        raise InputError(f"{_WHAT} has no rows.")
    for j, name in enumerate(["t0", *[f"p{i}" for i in range(m)]]):
        bad = sum(r["n"] for r in rows if r[name] is None or r[name] == "" or len(r[name]) > MAX_LABEL_CHARS)
        if bad:
            col = "the true-label column" if j == 0 else f"column {systems[j - 1]!r}"
            raise InputError(f"{_WHAT}: {col} has {bad} rows with a missing or unusable label (null, empty, NaN, "
                             f"a fraction, or longer than {MAX_LABEL_CHARS:,} characters); every row needs a label.")
    texts = sorted({r[name] for r in rows for name in ["t0", *[f"p{i}" for i in range(m)]]})
    if labels is not None:
        final = tuple(labels)
        unknown = set(texts) - {str(x) for x in final}
        if unknown:
            raise InputError(f"{_WHAT}: label {sorted(unknown)[0]!r} is not one of labels={list(final)!r}.")
    else:
        final = tuple(type_labels(texts))
    index = {str(lab): i for i, lab in enumerate(final)}
    codes = np.array([[index[r["t0"]], *(index[r[f"p{i}"]] for i in range(m))] for r in rows], dtype=np.int64)
    counts: np.ndarray = np.array([r["n"] for r in rows], dtype=np.float64)  # float64 after the weighted bincount too
    codes, inv = np.unique(codes, axis=0, return_inverse=True)  # the cell order of the array path
    counts = np.bincount(inv.reshape(-1), weights=counts, minlength=codes.shape[0])
    probas: list[dict[str, float] | None] = [None] * m
    renorm, zero = [0] * m, [0] * m
    if cols:
        bad = sum(r["bad_"] for r in rows)
        if bad:
            raise InputError(f"{_WHAT} has {bad} rows whose probabilities are missing, outside [0, 1] or do not sum "
                             "to 1 (within 1e-3); each row needs one probability per class.")
        have = {lab for lab, _ in cols}
        lacking = sorted({r["t0"] for r in rows} - have) if len(cols) > 1 else []
        if lacking:
            raise InputError(f"{_WHAT}: label {lacking[0]!r} has no probability column.")
        if len(cols) == 1 and len(final) != 2:
            raise InputError(f"{_WHAT} has one probability column but {len(final)} classes; give one per class.")
        n = float(counts.sum())
        probas[0] = {"log_loss": sum(r["ll_"] for r in rows) / n, "brier": sum(r["br_"] for r in rows) / n}
        renorm[0] = int(sum(r["ren_"] for r in rows))
        zero[0] = int(sum(r["z_"] for r in rows))
    scan = Scan(final, codes, counts, int(counts.sum()), probas, renorm, zero)
    return prediction_set(scan, systems, [_WHAT] * m)
