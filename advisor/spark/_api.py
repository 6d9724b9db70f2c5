"""``advisor.spark.evaluate`` and ``advisor.spark.compare``: the local API's results, counted by Spark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._exceptions import InputError, check_keywords
from ..engine import SCORE_IDS, Label, metric_id, score_metrics
from ..engine import evaluate as evaluate_matrices
from ..io import add_scores
from ..stats import compare_joint
from ._count import _label, _proba_columns, count_spark
from ._scores import count_scores

__all__ = ["compare", "evaluate"]

#: The keywords of :func:`evaluate` and :func:`compare`: their own and those ``**options`` passes on.
_EVALUATE = ("y_true", "systems", "labels", "proba_cols", "costs", "priors", "metrics", "positive_label", "beta",
             "undefined", "class_weights", "f1_classes")
_COMPARE = ("y_true", "systems", "n_resamples", "seed", "metrics", "labels", "confidence", "positive_label", "beta",
            "undefined", "progress", "draw", "class_weights", "method", "proportion",
            "f1_classes")


def evaluate(df: Any, y_true: str = "y_true", systems: Sequence[str] | str | None = None, *,
             labels: Sequence[Label] | None = None, proba_cols: Any = None, costs: Any = None, priors: Any = None,
             **options: Any) -> Any:
    """Metrics, per-class tables and chance levels of the systems in a Spark DataFrame.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per item.
    y_true : str
        The true-label column.
    systems : column name or list of column names, optional
        One prediction column per system; by default ``y_pred`` if present, else every other column
        except ``id``, ``score`` and probability columns.
    labels : sequence, optional
        Fix the classes and their order.
    proba_cols : None, "auto" or mapping label → column
        Probability columns (one system only): log loss and Brier score, and the score metrics.
    costs, priors
        As in :func:`advisor.evaluate`: the expected costs of the confusion matrices.
    **options
        ``metrics``, ``positive_label``, ``beta``, ``undefined`` — as in :func:`advisor.evaluate`.
        ``metrics`` may also name score metrics (``roc_auc``, ``average_precision``, ``brier_binary``,
        ``ece``) to compute only those.

    With one system, a ``score`` column (binary tasks; any real number, higher = more positive; needs
    ``positive_label``) or the probability columns add ROC AUC and average precision (with
    probabilities also the binary Brier score and the ECE), computed from Spark's
    ``groupBy(true label, score)`` counts — exactly the values of the items themselves (the ECE too: tied
    confidences share a bin, so it does not depend on the row order).

    Returns
    -------
    Evaluation
        The same object :func:`advisor.evaluate` returns for the same data.
    """
    check_keywords("advisor.spark.evaluate", options, _EVALUATE)
    ps = count_spark(df, y_true, systems, labels=labels, proba_cols=proba_cols)
    options.setdefault("probabilities", ps.probabilities or None)
    matrix_ids, score_ids = _split_metrics(options.pop("metrics", None))
    ev = evaluate_matrices(ps.systems, metrics=matrix_ids, **options)
    found = None
    if len(ps.systems) == 1:
        found = count_scores(df, _label(df, y_true), _proba_columns(df, proba_cols))
    if found is not None:
        name = next(iter(ps.systems))
        v, _ = score_metrics(found.y_true, list(ev.labels), proba=found.proba, proba_labels=found.proba_labels,
                             score=found.score, positive_label=ev.positive_label, metrics=score_ids,
                             what="the Spark DataFrame", weights=found.weights)
        values = {n: dict(m) for n, m in ev.metrics.items()}
        values[name].update(v)
        ev = ev.model_copy(update={"metrics": values})
    elif score_ids:
        raise InputError(f"{score_ids[0]} needs a 'score' column or probability columns (proba_cols=…) of one system.")
    return add_scores(ev, ps.systems, costs=costs, priors=priors)


def _split_metrics(metrics: Any) -> tuple[list[str] | None, list[str] | None]:
    """``metrics`` split into confusion-matrix ids and score ids (None: each side's defaults)."""
    if metrics is None:
        return None, None
    ids = [metric_id(m) for m in ([metrics] if isinstance(metrics, str) else metrics)]
    scored = [m for m in ids if m in SCORE_IDS]
    return [m for m in ids if m not in SCORE_IDS], scored or None


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
    check_keywords("advisor.spark.compare", options, _COMPARE)
    ps = count_spark(df, y_true, systems, labels=labels)
    if len(ps.joint.systems) < 2:
        raise InputError(f"compare needs at least two systems (prediction columns); got {len(ps.joint.systems)}.")
    return compare_joint(ps.joint, n_resamples, seed, metrics, **options)
