"""advisor on Spark: count where the data is, evaluate at home (``pip install 'advisor[spark]'``).

::

    import advisor.spark
    ev = advisor.spark.evaluate(df, y_true="label", systems=["model_a", "model_b"])
    cmp = advisor.spark.compare(df, y_true="label", systems=["model_a", "model_b"], seed=0)

Spark's own ``groupBy`` counts the distinct (true, prediction, …) combinations on the cluster; only
those aggregates (and, with probability columns, the log-loss and Brier sums; with a ``score`` or
probability columns, the ``groupBy(true label, score)`` counts for ROC AUC, average precision, the
binary Brier score and the ECE) are collected. They are
handed to the same engine as a file or a DataFrame, so :func:`evaluate` returns the
:class:`~advisor.Evaluation` of :func:`advisor.evaluate` and :func:`compare` the
:class:`~advisor.Comparison` of :func:`advisor.compare_systems`.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "compare": "._api",
    "count_spark": "._count",
    "evaluate": "._api",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
