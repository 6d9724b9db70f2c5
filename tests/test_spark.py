"""advisor.spark on a local Spark session: the same results as the array and DuckDB paths.

Skipped only when pyspark or a Java runtime is missing — and never in CI (``CI=true``), where
``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import advisor
import advisor.spark

_MISSING = None
try:
    import pyspark  # noqa: F401  (only whether it is there)
except ImportError:  # pragma: no cover - depends on the machine
    _MISSING = "pyspark is not installed (pip install 'advisor[spark]')"
if _MISSING is None and shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    _MISSING = "no Java runtime (Spark needs one)"
if _MISSING and os.environ.get("CI"):
    raise RuntimeError(f"Spark tests must run in CI: {_MISSING}")
pytestmark = pytest.mark.skipif(_MISSING is not None, reason=_MISSING or "")


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("advisor-tests")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.driver.memory", "512m").config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _data(n: int = 400, k: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n))
    return {"y": y, "a": a, "b": b, "p": rng.dirichlet(np.ones(k), size=n)}


def _frame(spark, columns: dict[str, list]):
    names = list(columns)
    return spark.createDataFrame(list(zip(*columns.values())), names)


def test_evaluate_equals_the_array_and_duckdb_paths(spark) -> None:
    d = _data()
    names = ["ant", "bee", "cat"]
    cols = {"gold": [names[i] for i in d["y"]], "a": [names[i] for i in d["a"]], "b": [names[i] for i in d["b"]]}
    ev = advisor.spark.evaluate(_frame(spark, cols), y_true="gold", systems=["a", "b"])
    arrays = advisor.evaluate(cols["gold"], {"a": cols["a"], "b": cols["b"]})
    import pyarrow as pa

    duck = advisor.evaluate(pa.table(cols), y_true="gold", systems=["a", "b"])
    assert ev == arrays == duck


def test_integer_and_float_labels_type_like_files(spark) -> None:
    d = _data(seed=1)
    cols = {"y_true": [int(x) for x in d["y"]], "y_pred": [float(x) for x in d["a"]]}
    ev = advisor.spark.evaluate(_frame(spark, cols))
    assert ev.labels == [0, 1, 2] and ev == advisor.evaluate(d["y"], d["a"])


def test_probabilities_equal_the_in_memory_function(spark) -> None:
    d = _data(seed=2)
    cols = {"y_true": [int(x) for x in d["y"]], "y_pred": [int(x) for x in d["a"]]}
    cols.update({f"p_{j}": [float(x) for x in d["p"][:, j]] for j in range(3)})
    ev = advisor.spark.evaluate(_frame(spark, cols), proba_cols="auto")
    ref = advisor.probability_metrics(d["y"], d["p"], [0, 1, 2])
    assert ev.metrics["y_pred"]["log_loss"] == pytest.approx(ref["log_loss"], abs=1e-12)
    assert ev.metrics["y_pred"]["brier"] == pytest.approx(ref["brier"], abs=1e-12)


def test_compare_equals_compare_systems(spark) -> None:
    d = _data(seed=3)
    cols = {"y": [int(x) for x in d["y"]], "a": [int(x) for x in d["a"]], "b": [int(x) for x in d["b"]]}
    got = advisor.spark.compare(_frame(spark, cols), "y", ["a", "b"], n_resamples=200, seed=7)
    ref = advisor.compare_systems(d["y"], {"a": d["a"], "b": d["b"]}, n_resamples=200, seed=7)
    assert got.to_dict() == ref.to_dict()


def test_missing_labels_are_refused(spark) -> None:
    df = _frame(spark, {"y_true": [0.0, 1.0, float("nan")], "y_pred": [0, 1, 1]})
    with pytest.raises(advisor.InputError, match="1 rows with a missing or unusable label"):
        advisor.spark.evaluate(df)
