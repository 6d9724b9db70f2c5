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
    # as JSON: an undefined value (NaN under the default omit convention) is null there, equal to itself
    assert ev.to_json() == arrays.to_json() == duck.to_json()


def test_integer_and_float_labels_type_like_files(spark) -> None:
    d = _data(seed=1)
    cols = {"y_true": [int(x) for x in d["y"]], "y_pred": [float(x) for x in d["a"]]}
    ev = advisor.spark.evaluate(_frame(spark, cols))
    assert ev.labels == [0, 1, 2] and ev.to_json() == advisor.evaluate(d["y"], d["a"]).to_json()


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


def _scored(n: int = 300, seed: int = 4) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.round(rng.normal(y, 1.0), 1)  # about 50 distinct values: ties across the classes
    names = np.array(["neg", "pos"])
    return {"y_true": names[y].tolist(), "y_pred": names[(score > 0.5).astype(int)].tolist(),
            "score": [float(x) for x in score]}


def _same(ev, ref) -> None:
    """Equal Evaluations, the score metrics to 1e-12."""
    for name in ref.metrics:
        assert ev.metrics[name].keys() == ref.metrics[name].keys()
        for m, v in ref.metrics[name].items():
            assert ev.metrics[name][m] == pytest.approx(v, abs=1e-12, nan_ok=True), m
    assert ev.model_copy(update={"metrics": ref.metrics}).to_json() == ref.to_json()  # NaN: null in both


def test_score_column_equals_the_dataframe_path(spark) -> None:
    import pandas as pd

    cols = _scored()
    kw = {"positive_label": "pos", "costs": "fn=10,fp=1", "priors": "pos=0.02,neg=0.98"}
    ev = advisor.spark.evaluate(_frame(spark, cols), **kw)
    ref = advisor.evaluate(pd.DataFrame(cols), **kw)
    assert {"roc_auc", "average_precision", "normalized_expected_cost"} <= set(ev.metrics["y_pred"])
    _same(ev, ref)
    only = advisor.spark.evaluate(_frame(spark, cols), positive_label="pos", metrics=["accuracy", "roc_auc"])
    assert list(only.metrics["y_pred"]) == ["accuracy", "roc_auc"]
    assert only.metrics["y_pred"]["roc_auc"] == pytest.approx(ref.metrics["y_pred"]["roc_auc"], abs=1e-12)


@pytest.mark.parametrize("case", ["constant", "single_class"])
def test_constant_scores_and_a_single_class(spark, case: str) -> None:
    import pandas as pd

    cols = _scored(40)
    if case == "constant":
        cols["score"] = [0.25] * 40
    else:
        cols["y_true"] = ["pos"] * 40
    kw = {"positive_label": "pos", "labels": ["neg", "pos"]}
    ev = advisor.spark.evaluate(_frame(spark, cols), **kw)
    _same(ev, advisor.evaluate(pd.DataFrame(cols), **kw))
    auc = ev.metrics["y_pred"]["roc_auc"]
    assert auc == 0.5 if case == "constant" else np.isnan(auc)


@pytest.mark.parametrize("k", [2, 3])
def test_probability_columns_give_the_score_metrics_of_the_dataframe_path(spark, k: int) -> None:
    import pandas as pd

    d = _data(seed=5, k=k)
    d["y"][::4], d["p"][::4] = d["y"][1::4], d["p"][1::4]  # tied probabilities (of the same class)
    cols = {"y_true": [int(x) for x in d["y"]], "y_pred": [int(x) for x in d["a"]]}
    cols.update({f"p_{j}": [float(x) for x in d["p"][:, j]] for j in range(k)})
    kw = {"positive_label": 1} if k == 2 else {}
    ev = advisor.spark.evaluate(_frame(spark, cols), proba_cols="auto", metrics=["accuracy"], **kw)
    ref = advisor.evaluate(pd.DataFrame(cols), metrics=["accuracy"], **kw)
    assert {"roc_auc", "ece"} <= set(ev.metrics["y_pred"]) and ("brier_binary" in ev.metrics["y_pred"]) == (k == 2)
    # average precision is the positive class's (issue 19 item 10): reported for k = 2 with positive_label only
    assert ("average_precision" in ev.metrics["y_pred"]) == (k == 2)
    _same(ev, ref)


def test_bad_scores_are_one_sentence(spark) -> None:
    d = _data(seed=6)
    multi = {"y_true": [int(x) for x in d["y"]], "y_pred": [int(x) for x in d["a"]],
             "score": [float(x) for x in d["p"][:, 0]]}
    with pytest.raises(advisor.InputError, match="has a 'score' column but the task has 3 classes"):
        advisor.spark.evaluate(_frame(spark, multi), positive_label=1)
    cols = _scored(20)
    cols["score"][3] = float("nan")
    with pytest.raises(advisor.InputError, match="1 rows whose column 'score' is missing or not a finite number"):
        advisor.spark.evaluate(_frame(spark, cols), positive_label="pos")
    with pytest.raises(advisor.InputError, match="name the class high scores point to"):
        advisor.spark.evaluate(_frame(spark, _scored(20)))


def test_ece_from_counts_even_where_an_edge_falls_inside_tied_confidences(spark) -> None:
    # a run of equal confidence, half right, where an equal-mass edge would fall: issue 20 keeps tied
    # confidences in one bin, so the ECE no longer depends on the row order and the counts give it (it was
    # refused here before)
    import pandas as pd

    y = [0, 1, 0, 1] + [0] * 26
    cols = {"y_true": y, "y_pred": [0] * 30, "p_0": [0.6] * 4 + [0.9] * 26, "p_1": [0.4] * 4 + [0.1] * 26}
    ev = advisor.spark.evaluate(_frame(spark, cols), proba_cols="auto", positive_label=1)
    ref = advisor.evaluate(pd.DataFrame(cols), positive_label=1)
    assert ev.metrics["y_pred"]["ece"] == pytest.approx(ref.metrics["y_pred"]["ece"], abs=1e-15)
    ev = advisor.spark.evaluate(_frame(spark, cols), proba_cols="auto", positive_label=1, metrics=["roc_auc"])
    assert list(ev.metrics["y_pred"]) == ["roc_auc"]
