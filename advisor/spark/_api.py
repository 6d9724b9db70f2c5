"""``advisor.spark.evaluate`` and ``advisor.spark.compare``: the local API's results, counted by Spark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._exceptions import InputError
from ..engine._confusion import Label
from ._count import count_spark

__all__ = ["compare", "evaluate"]


def evaluate(df: Any, y_true: str = "y_true", systems: Sequence[str] | str | None = None, *,
             labels: Sequence[Label] | None = None, proba_cols: Any = None, **options: Any) -> Any:
    """Metrics, per-class tables and chance levels of the systems in a Spark DataFrame.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per item.
    y_true : str
        The true-label column.
    systems : column name or list of column names, optional
        One prediction column per system; by default ``y_pred`` if present, else every other column
        except ``id`` and probability columns.
    labels : sequence, optional
        Fix the classes and their order.
    proba_cols : None, "auto" or mapping label → column
        Probability columns (one system only): log loss and Brier score.
    **options
        ``metrics``, ``positive_label``, ``beta``, ``undefined`` — as in :func:`advisor.evaluate`.

    Returns
    -------
    Evaluation
        The same object :func:`advisor.evaluate` returns for the same data.
    """
    from ..engine._evaluate import evaluate as evaluate_matrices

    ps = count_spark(df, y_true, systems, labels=labels, proba_cols=proba_cols)
    options.setdefault("probabilities", ps.probabilities or None)
    return evaluate_matrices(ps.systems, **options)


def compare(df: Any, y_true: str = "y_true", systems: Sequence[str] | None = None, n_resamples: int = 10000,
            seed: int | None = None, metrics: Sequence[str] | None = None, *,
            labels: Sequence[Label] | None = None, **options: Any) -> Any:
    """Paired bootstrap comparison of the systems in a Spark DataFrame (at least two columns).

    The joint table (true label × every system's prediction) is counted by Spark; the bootstrap runs
    locally on it, exactly as :func:`advisor.compare_systems` does on arrays. ``options``:
    ``confidence``, ``positive_label``, ``beta``, ``undefined``, ``progress``.

    Returns
    -------
    Comparison
    """
    from ..stats._compare import compare_joint

    ps = count_spark(df, y_true, systems, labels=labels)
    if len(ps.joint.systems) < 2:
        raise InputError(f"compare needs at least two systems (prediction columns); got {len(ps.joint.systems)}.")
    return compare_joint(ps.joint, n_resamples, seed, metrics, **options)
