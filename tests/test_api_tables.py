"""The Python API takes what users have and gives what notebooks show: DataFrames, HTML tables,
metric names and aliases, label arrays and DataFrames for build_report."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app

pd = pytest.importorskip("pandas")

CM = advisor.ConfusionMatrix([[5, 1, 0], [2, 3, 1], [0, 1, 4]], ["cat", "dog", "<b>owl</b>"])


@pytest.fixture(scope="module")
def arrays():
    rng = np.random.default_rng(0)
    y = rng.choice(["a", "b", "c"], 300)
    good = np.where(rng.random(300) < 0.8, y, "a")
    weak = np.where(rng.random(300) < 0.6, y, "b")
    return y, good, weak


# -- DataFrames ----------------------------------------------------------------------------------
def test_per_class_converts_to_a_frame_and_records_pandas_reads() -> None:
    res = advisor.per_class(CM)
    frame = res.to_frame()
    assert list(frame.index) == ["cat", "dog", "<b>owl</b>"] and frame.index.name == "class"
    assert frame.loc["dog", "recall"] == pytest.approx(res["dog"]["recall"])
    assert {"support", "precision", "recall", "f1"} <= set(frame.columns)
    direct = pd.DataFrame(res.records())  # a records form pandas reads directly
    assert list(direct["class"]) == ["cat", "dog", "<b>owl</b>"] and direct.shape == (3, 1 + len(res["cat"]))


def test_metric_and_bootstrap_results_convert_to_frames() -> None:
    res = advisor.compute_metrics(CM)
    frame = res.to_frame()
    assert frame.index.name == "metric" and frame.loc["mcc", "value"] == pytest.approx(res["mcc"])
    boot = advisor.bootstrap(CM, n_resamples=200, seed=0, metrics=["accuracy", "mcc"])
    bf = boot.to_frame()
    assert list(bf.columns) == ["estimate", "low", "high"] and list(bf.index) == ["accuracy", "mcc"]


def test_pandas_reads_results_directly_as_the_dicts_they_are() -> None:
    """pandas tests for ``dict``, not ``Mapping``: a Mapping became one column of class names."""
    import copy
    import json
    import pickle

    pc = advisor.per_class(CM)
    direct = pd.DataFrame(pc)  # pandas' reading of a dict of dicts: one column per class
    assert list(direct.columns) == ["cat", "dog", "<b>owl</b>"]
    assert direct.loc["recall", "dog"] == pytest.approx(pc["dog"]["recall"])
    rows = pd.DataFrame.from_dict(pc, orient="index")
    pd.testing.assert_frame_equal(rows, pc.to_frame().rename_axis(None), check_dtype=False)
    res = advisor.compute_metrics(CM)
    assert pd.Series(res)["mcc"] == pytest.approx(res["mcc"])
    one_row = pd.DataFrame([res])
    assert one_row.shape == (1, len(res)) and one_row.loc[0, "mcc"] == pytest.approx(res["mcc"])
    boot = advisor.bootstrap(CM, n_resamples=200, seed=0, metrics=["accuracy", "mcc"])
    assert list(pd.DataFrame(boot).columns) == ["accuracy", "mcc"]
    assert json.loads(json.dumps(res))["mcc"] == pytest.approx(res["mcc"])
    # still read-only, and pickling/copying keeps the provenance
    with pytest.raises(TypeError, match="read-only"):
        res["mcc"] = 1.0
    for change in (lambda r: r.update(mcc=1.0), lambda r: r.pop("mcc"), lambda r: r.clear(),
                   lambda r: r.setdefault("x", 1), lambda r: r.popitem()):
        with pytest.raises(TypeError, match="read-only"):
            change(res)
    assert res["mcc"] == pytest.approx(advisor.compute_metrics(CM)["mcc"])
    for back in (pickle.loads(pickle.dumps(res)), copy.deepcopy(res), copy.copy(res)):
        assert type(back) is type(res) and back == res and back.labels == res.labels
        assert back.convention == res.convention and back.undefined == res.undefined
    boot2 = pickle.loads(pickle.dumps(boot))
    assert boot2 == boot and boot2.n_resamples == 200 and boot2.estimates == boot.estimates


def test_comparison_converts_to_a_frame(arrays) -> None:
    y, good, weak = arrays
    c = advisor.compare_systems(y, {"good": good, "weak": weak}, n_resamples=200, seed=0, metrics=["accuracy", "mcc"])
    frame = c.to_frame()
    assert frame.index.names == ["metric", "system"] and len(frame) == 4
    assert bool(frame.loc[("accuracy", "good"), "winner"]) is True
    assert pd.DataFrame(c.records()).shape[0] == 4


# -- notebooks -------------------------------------------------------------------------------------
def test_results_comparisons_and_recommendations_show_as_html_tables(arrays) -> None:
    y, good, weak = arrays
    html = advisor.per_class(CM)._repr_html_()
    assert html.startswith("<table>") and "<th>recall</th>" in html
    assert "&lt;b&gt;owl&lt;/b&gt;" in html and "<b>owl" not in html  # labels escaped
    assert "<td>mcc</td>" in advisor.compute_metrics(CM)._repr_html_()
    assert "<th>estimate</th>" in advisor.bootstrap(CM, n_resamples=200, seed=0, metrics=["mcc"])._repr_html_()
    c = advisor.compare_systems(y, {"good": good, "weak": weak}, n_resamples=200, seed=0, metrics=["accuracy"])
    assert "<th>good</th><th>weak</th>" in c._repr_html_()
    rec = advisor.recommend(advisor.Answers(task="binary", classes=["ham", "spam"], positive_class="spam"))
    html = rec._repr_html_()
    assert html.startswith("<table>") and "primary" in html and rec.primary.metric in html


# -- names and aliases -------------------------------------------------------------------------------
def test_every_function_that_takes_metric_ids_takes_names_and_aliases(arrays) -> None:
    y, good, weak = arrays
    res = advisor.compute_metrics(CM, metrics=["MCC", "Youden's J", "balanced accuracy", "kappa"])
    assert list(res) == ["mcc", "adjusted_balanced_accuracy", "balanced_accuracy", "cohen_kappa"]
    assert res["mcc"] == advisor.compute_metrics(CM, metrics=["mcc"])["mcc"]
    assert list(advisor.bootstrap(CM, n_resamples=200, seed=0, metrics=["Matthews correlation"])) == ["mcc"]
    assert list(advisor.chance_levels(CM, metrics=["Cohen's kappa"])) == ["cohen_kappa"]
    c = advisor.compare_systems(y, {"good": good, "weak": weak}, n_resamples=200, seed=0, metrics=["MCC", "UAR"])
    assert list(c.metrics) == ["mcc", "balanced_accuracy"]
    assert c.winners("Matthews correlation coefficient") == c.winners("mcc")
    ev = advisor.evaluate({"a": CM}, metrics=["MCC"])
    assert list(ev.metrics["a"]) == ["mcc"]
    assert list(advisor.compute_metrics(CM, metrics=["micro_f1"])) == ["micro_f1"]  # ids stay as they are


def test_an_ambiguous_name_names_both_meanings_and_an_unknown_one_fails_clearly() -> None:
    with pytest.raises(advisor.InputError) as err:
        advisor.compute_metrics(CM, metrics=["macro F1"])
    assert "ambiguous" in str(err.value) and "macro_f1" in str(err.value) and "f1_of_averages" in str(err.value)
    with pytest.raises(advisor.UnknownMetricError, match="'macro F9'.*close names"):
        advisor.compute_metrics(CM, metrics=["macro F9"])


def test_cli_metrics_options_take_names(tmp_path, arrays) -> None:
    y, good, weak = arrays
    files = []
    for name, pred in (("good", good), ("weak", weak)):
        f = tmp_path / f"{name}.csv"
        f.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, pred)), encoding="utf-8")
        files.append(str(f))
    runner = CliRunner()
    res = runner.invoke(app, ["compute", files[0], "--metrics", "MCC,balanced accuracy", "--json"])
    assert res.exit_code == 0, res.stderr
    import json

    assert list(json.loads(res.stdout)["metrics"]["good"]) == ["mcc", "balanced_accuracy"]
    res = runner.invoke(app, ["compare", *files, "--metrics", "kappa", "--bootstrap", "200", "--json"])
    assert res.exit_code == 0 and all(list(v) == ["cohen_kappa"] for v in json.loads(res.stdout)["metrics"].values())
    res = runner.invoke(app, ["compute", files[0], "--metrics", "macro F1"])
    assert res.exit_code == 2 and "ambiguous" in res.stderr and res.stderr.count("\n") == 1


# -- build_report takes label arrays and DataFrames ------------------------------------------------
def test_build_report_takes_label_arrays_and_a_dataframe_like_files(tmp_path, arrays) -> None:
    y, good, weak = arrays
    answers = {"task": "multiclass"}
    from_arrays = advisor.build_report(answers, {"y_true": y, "good": good, "weak": weak}, bootstrap=200, seed=1)
    frame = pd.DataFrame({"y_true": y, "good": good, "weak": weak})
    from_frame = advisor.build_report(answers, frame, bootstrap=200, seed=1)
    files = []
    for name, pred in (("good", good), ("weak", weak)):
        f = tmp_path / f"{name}.csv"
        f.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, pred)), encoding="utf-8")
        files.append(f)
    from_files = advisor.build_report(answers, advisor.read_predictions(files), bootstrap=200, seed=1)
    assert [s.name for s in from_arrays.systems] == ["good", "weak"]
    assert from_arrays.model_dump() == from_frame.model_dump()
    assert [s.values for s in from_arrays.systems] == [s.values for s in from_files.systems]
    one = advisor.build_report(answers, pd.DataFrame({"y_true": y, "y_pred": good}), bootstrap=0)
    assert [s.name for s in one.systems] == ["system"]


def test_build_report_says_what_label_data_lacks(arrays) -> None:
    y, good, _ = arrays
    with pytest.raises(advisor.InputError, match="no y_true"):
        advisor.build_report({}, {"good": list(good)}, bootstrap=0)
    with pytest.raises(advisor.InputError, match="needs a y_true column"):
        advisor.build_report({}, pd.DataFrame({"truth": y, "good": good}), bootstrap=0)
    with pytest.raises(advisor.InputError, match="no system"):
        advisor.build_report({}, {"y_true": y}, bootstrap=0)


def test_an_evaluation_converts_to_a_frame_and_shows_as_a_table(arrays) -> None:
    y, good, weak = arrays
    ev = advisor.evaluate(y, {"good": good, "<weak>": weak})
    frame = ev.to_frame()
    assert list(frame.columns) == ["good", "<weak>"] and frame.index.name == "metric"
    assert frame.loc["mcc", "good"] == pytest.approx(ev.metrics["good"]["mcc"])
    assert pd.DataFrame(ev.records()).shape == (len(frame), 3)
    html = ev._repr_html_()
    assert html.startswith("<table>") and "&lt;weak&gt;" in html and "<weak>" not in html
