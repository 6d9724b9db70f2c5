"""Issue 24, acceptance 7: every error a user can trigger through the Python API names the API argument — never
a command-line flag — and is advisor's own exception, never a raw TypeError, ValueError, KeyError,
FileNotFoundError or pydantic ValidationError from the code beneath.

The library and the command line share the code that refuses bad input; a message names an argument with
``advisor._exceptions.arg``, which ``str()`` spells as the Python argument (``sql=``) and the command line as
its option (``--sql``). The table below makes bad calls of every public entry point and checks the Python
wording; a few command-line runs check that the same refusals still name the options there. The scan at the
end passes a value of the wrong kind to each argument of each entry point in turn.
"""

from __future__ import annotations

import inspect
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import advisor
import advisor.engine as engine
import advisor.io as io_api
import advisor.stats as stats_api
from advisor._exceptions import arg, render_arguments
from advisor.cli import app
from advisor.cli._common import error_message
from advisor.report import load_context, render_report

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
LR, NB = EX / "breast_cancer" / "logreg.csv", EX / "breast_cancer" / "naive_bayes.csv"
ANSWERS = {"task": "binary", "classes": ["benign", "malignant"], "positive_class": "malignant", "outputs": "labels"}
#: a command-line option in a message (``--sql``, ``--max-fpr``); ``x--y`` or an em dash are not one
FLAG = re.compile(r"(?<![\w-])--[a-z]")
#: exceptions that must never reach an API user for bad input
RAW = (TypeError, KeyError, AttributeError, IndexError, FileNotFoundError, OSError)


def _frame(**extra: Any) -> pd.DataFrame:
    df = pd.read_csv(LR)
    for k, v in extra.items():
        df[k] = v
    return df


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("api_errors")
    df = _frame(site=["north", "south"] * 100, patient=list(range(200)), one=["x"] * 200)
    ds = advisor.load(df, by="site")
    ctx = advisor.build_report(ANSWERS, ds, bootstrap=0)
    existing = tmp / "report.md"
    existing.write_text("mine\n", encoding="utf-8")
    words = pd.DataFrame({"y_true": ["lo", "hi", "mid", "hi"], "y_pred": ["hi", "hi", "mid", "lo"]})
    return {"df": df, "ds": ds, "ds_plain": advisor.load(_frame()), "cm": advisor.confusion_matrix(df["y_true"], df["y_pred"]),
            "ctx": ctx, "existing": existing, "tmp": tmp, "words": words,
            "joint": advisor.load([LR, NB]).joint}


def _is_message(exc: BaseException) -> str:
    """The checks every refusal passes: advisor's exception, one sentence, no command-line option."""
    assert isinstance(exc, advisor.AdvisorError), f"{type(exc).__module__}.{type(exc).__name__}: {exc}"
    msg = str(exc)
    assert msg and "\n" not in msg and len(msg) <= 800, msg
    assert msg.rstrip(")").endswith(".") or msg.endswith(")."), msg
    assert not FLAG.search(msg), f"a command-line option in an API message: {msg}"
    assert "\x1f" not in msg and "\x1e" not in msg, repr(msg)  # argument marks are always spelled out
    return msg


def _refused(call: Callable[[], Any]) -> BaseException:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the kind is what is checked
        return exc
    raise AssertionError("the call was accepted")


# (id, call taking the fixture, words one of which the message must hold: the argument's name)
CASES: list[tuple[str, Callable[[dict[str, Any]], Any], tuple[str, ...]]] = [
    # advisor.load
    ("load sql and files", lambda e: advisor.load(LR, sql="SELECT 1"), ("sql=",)),
    ("load sql empty", lambda e: advisor.load(sql="  "), ("sql=",)),
    ("load sql not a select", lambda e: advisor.load(sql="DROP TABLE t"), ("sql=",)),
    ("load sql syntax", lambda e: advisor.load(sql="SELEC 1"), ("sql=",)),
    ("load sql not text", lambda e: advisor.load(sql=5), ("sql=",)),
    ("load group with matrices", lambda e: advisor.load(matrices=[EX / "papers" / "grandini2020_fig1.csv"], group="g"),
     ("group=",)),
    ("load by with matrices", lambda e: advisor.load(matrices=[EX / "papers" / "grandini2020_fig1.csv"], by="site"),
     ("by=",)),
    ("load missing by column", lambda e: advisor.load(e["df"], by="sex"), ("by=",)),
    ("load missing group column", lambda e: advisor.load(e["df"], group="ward"), ("group=",)),
    ("load missing true column", lambda e: advisor.load(e["df"], true_col="gold"), ("true_col=",)),
    ("load one subgroup value", lambda e: advisor.load(e["df"], by="one"), ("by=",)),
    ("load one item per group", lambda e: advisor.load(e["df"], group="patient"), ("group=",)),
    ("load sources of a number", lambda e: advisor.load(5), ("sources=",)),
    ("load unknown structure", lambda e: advisor.load(e["df"], structure="tree"), ("structure=",)),
    ("load top_k text", lambda e: advisor.load(e["df"], top_k="3"), ("top_k=",)),
    ("load names too many", lambda e: advisor.load(LR, names=["a", "b"]), ("names",)),
    ("load order of words unknown", lambda e: advisor.load(e["words"], structure="ordinal"), ("order=",)),
    ("load counts text path missing", lambda e: advisor.load(counts="nope.csv"), ("nope.csv",)),
    # advisor.evaluate
    ("evaluate unknown keyword by", lambda e: advisor.evaluate(e["df"], by="site"), ("'by'",)),
    ("evaluate score for scores", lambda e: advisor.evaluate(e["df"], score=e["df"]["p_malignant"]), ("scores=",)),
    ("evaluate scores Series without positive", lambda e: advisor.evaluate(e["df"], scores=e["df"]["p_malignant"]),
     ("positive_label=",)),
    ("evaluate scores not numbers", lambda e: advisor.evaluate(e["df"], scores={"y_pred": ["a"] * 200},
                                                               positive_label="malignant"), ("scores",)),
    ("evaluate missing y_true column", lambda e: advisor.evaluate(e["df"], y_true="gold"), ("y_true=",)),
    ("evaluate missing system column", lambda e: advisor.evaluate(e["df"], systems="svm"), ("systems=",)),
    ("evaluate negative cost", lambda e: advisor.evaluate(e["df"], costs="fn=-1,fp=1"), ("costs=",)),
    ("evaluate priors text", lambda e: advisor.evaluate(e["df"], priors="half"), ("priors=",)),
    ("evaluate metrics number", lambda e: advisor.evaluate(e["df"], metrics=5), ("metrics",)),
    ("evaluate cost metric without costs", lambda e: advisor.evaluate(e["df"], metrics=["expected_cost"]),
     ("costs=",)),
    ("evaluate data number", lambda e: advisor.evaluate(5), ("data",)),
    # paired comparisons, intervals, runs and groups
    ("compare too few resamples", lambda e: advisor.compare_systems(e["df"]["y_true"], {"a": e["df"]["y_pred"]},
                                                                    n_resamples=1), ("n_resamples=",)),
    ("compare predictions not a mapping", lambda e: advisor.compare_systems(e["df"]["y_true"], e["df"]["y_pred"]),
     ("predictions",)),
    ("compare groups too short", lambda e: advisor.compare_systems(
        e["df"]["y_true"], {"a": e["df"]["y_pred"], "b": e["df"]["y_pred"]}, groups=[1, 2], n_resamples=200),
     ("groups",)),
    ("compare progress not callable", lambda e: advisor.compare_systems(
        e["df"]["y_true"], {"a": e["df"]["y_pred"]}, n_resamples=200, progress=5), ("progress",)),
    ("compare_joint runs too many", lambda e: advisor.compare_joint(e["joint"], 200, 0, runs=["a", "b", "c"]),
     ("runs",)),
    ("compare_scored runs", lambda e: stats_api.compare_scored(["a", "b"] * 10, {"x": [0.1] * 20}, runs=["x", "x"],
                                                               positive_label="b", n_resamples=200), ("runs",)),
    ("bootstrap confidence", lambda e: advisor.bootstrap(e["cm"], confidence=2), ("confidence",)),
    ("bootstrap seed text", lambda e: advisor.bootstrap(e["cm"], n_resamples=200, seed="x"), ("seed",)),
    ("compute class_weights number", lambda e: advisor.compute_metrics(e["cm"], class_weights=3), ("class_weights",)),
    ("confusion sample_weight text", lambda e: advisor.confusion_matrix([0, 1], [0, 1], sample_weight="w"),
     ("sample_weight",)),
    # build_report, render_report, methods_paragraph
    ("report too few resamples", lambda e: advisor.build_report(ANSWERS, e["ds"], bootstrap=1), ("bootstrap=",)),
    ("report coverage", lambda e: advisor.build_report(ANSWERS, e["ds"], coverage=2), ("coverage=",)),
    ("report max_fpr", lambda e: advisor.build_report(ANSWERS, e["ds"], max_fpr=2), ("max_fpr=",)),
    ("report subgroup not read", lambda e: advisor.build_report(ANSWERS, e["ds_plain"], by="site"), ("by=",)),
    ("report positive contradicts", lambda e: advisor.build_report(ANSWERS, e["ds"], positive_label="benign"),
     ("positive_label=",)),
    ("report answers file missing", lambda e: advisor.build_report("missing_answers.yaml"), ("answers",)),
    ("report seed text", lambda e: advisor.build_report(ANSWERS, e["ds"], seed="x"), ("seed=",)),
    ("report order text", lambda e: advisor.build_report(ANSWERS, e["ds"], order="1,2"), ("order",)),
    ("report recommendation", lambda e: advisor.build_report(ANSWERS, e["ds"], recommendation=5),
     ("recommendation",)),
    ("report partition task", lambda e: advisor.build_report({"label_structure": "partition"}, e["ds"]),
     ("partition_inputs",)),
    ("render unknown format", lambda e: render_report(e["ctx"], "docx"), ("fmt=",)),
    ("render neither format nor path", lambda e: render_report(e["ctx"]), ("out_path=", "fmt=")),
    ("render unknown extension", lambda e: render_report(e["ctx"], out_path=e["tmp"] / "r.docx"), ("fmt=",)),
    ("render over a file", lambda e: render_report(e["ctx"], out_path=e["existing"], figures=False),
     ("force=True",)),
    ("render out_path number", lambda e: render_report(e["ctx"], out_path=5), ("out_path",)),
    ("methods unknown format", lambda e: advisor.methods_paragraph(ANSWERS, "docx"), ("fmt=",)),
    ("context file missing", lambda e: load_context(e["tmp"] / "missing.json"), ("load_context",)),
    # make_plan
    ("plan answers file missing", lambda e: advisor.make_plan("missing.yaml"), ("answers",)),
    ("plan unknown option", lambda e: advisor.make_plan(ANSWERS, options={"bogus": 1}), ("options=",)),
    ("plan option of the wrong type", lambda e: advisor.make_plan(ANSWERS, options={"seed": "x"}), ("options['seed']",)),
    ("plan options a list", lambda e: advisor.make_plan(ANSWERS, options=[1]), ("options=",)),
    ("plan answers a number", lambda e: advisor.make_plan(5), ("answers=",)),
    ("plan coverage", lambda e: advisor.make_plan(ANSWERS, options={"coverage": 2}), ("coverage=",)),
    ("plan alerts without data", lambda e: advisor.make_plan(ANSWERS, options={"alerts": 10}), ("alerts=",)),
    ("plan decision thresholds", lambda e: advisor.make_plan(ANSWERS, options={"decision_thresholds": [0.5, 0.2]}),
     ("decision_thresholds=",)),
    ("plan empty reject label", lambda e: advisor.make_plan(ANSWERS, options={"reject_label": ""}),
     ("reject_label=",)),
    # subgroups
    ("subgroups none read", lambda e: advisor.subgroups(e["ds_plain"]), ("by=",)),
    ("subgroups column not read", lambda e: advisor.subgroups(e["ds"], by="sex"), ("by=",)),
    ("subgroups data a number", lambda e: advisor.subgroups(5), ("by=",)),
    # selective prediction (abstention)
    ("coverage zero", lambda e: engine.check_coverage(0), ("coverage=",)),
    ("selective risk coverage", lambda e: engine.selective_risk([0, 1], [0.5, 0.4], 1.5), ("coverage=",)),
    ("reject label is a class", lambda e: engine.selective_items(["a", "b"], ["a", "a"], reject_label="a"),
     ("reject_label=",)),
    # classes in a tree (taxonomy, hierarchy)
    ("taxonomy file missing", lambda e: io_api.read_taxonomy(e["tmp"] / "tree.csv"), ("taxonomy",)),
    ("taxonomy path a number", lambda e: io_api.read_taxonomy(5), ("path",)),
    ("taxonomy edges a number", lambda e: engine.taxonomy_from_edges(5), ("edges",)),
    ("taxonomy cycle", lambda e: engine.taxonomy_from_edges([("a", "b"), ("b", "a")]), ("cycle",)),
    ("hierarchy cells", lambda e: engine.hierarchy_metrics(5), ("cells",)),
    # partitions
    ("partition of text", lambda e: engine.partition_metrics("x"), ("counts",)),
    ("partition unknown metric", lambda e: engine.partition_metrics([[3, 4], [1, 2]], ["rand"]), ("partition metric",)),
    # structured inputs
    ("structured sources a number", lambda e: advisor.load_structured(5), ("sources",)),
    ("structured inputs", lambda e: advisor.build_structured_report(ANSWERS, 5), ("inputs",)),
    ("agreement of a number", lambda e: advisor.agreement_metrics(5), ("ratings",)),
    ("ordinal alpha without order", lambda e: advisor.agreement_metrics([["lo", "hi"], ["hi", "hi"]],
                                                                        ["krippendorff_alpha_ordinal"]),
     ("categories=",)),
    ("top-k labels a number", lambda e: advisor.top_k_accuracy([[0.1, 0.9]], [1], 1, labels=5), ("labels",)),
    ("answers file missing", lambda e: advisor.load_answers("missing.yaml"), ("answers",)),
]


@pytest.mark.parametrize("call,names", [pytest.param(c, n, id=i) for i, c, n in CASES])
def test_a_bad_api_call_is_one_sentence_naming_the_argument(env: dict[str, Any], call: Callable, names: tuple) -> None:
    exc = _refused(lambda: call(env))
    msg = _is_message(exc)
    assert not isinstance(exc, RAW) or isinstance(exc, (advisor.InputError, advisor.UnknownMetricError)), msg
    assert any(n in msg for n in names), f"{msg!r} names none of {names}"


def test_the_table_covers_every_area() -> None:
    assert len(CASES) >= 30
    words = " ".join(i for i, _, _ in CASES)
    for area in ("load", "evaluate", "compare", "report", "render", "plan", "subgroups", "coverage", "taxonomy",
                 "partition", "runs", "groups"):
        assert area in words, area


# ----------------------------------------------------------------------------------------------
# One message, two callers: Python names the argument, the command line the option
# ----------------------------------------------------------------------------------------------
def test_an_argument_is_spelled_for_its_caller() -> None:
    text = f"{arg('sql')} replaces {arg('sources')}; leave {arg('group', 'ward')} out ({arg('force', True)})."
    exc = advisor.InputError(text)
    assert str(exc) == "sql= replaces sources=; leave group='ward' out (force=True)."
    assert error_message(exc) == "--sql replaces the input files; leave --group ward out (--force)."
    assert render_arguments(text) == str(exc) and repr(exc).count("\x1f") == 0
    other = advisor.InputError(f"see {arg('partitions', python='partition_metrics', cli='`advisor compute --partitions`')}.")
    assert str(other) == "see partition_metrics." and error_message(other) == "see `advisor compute --partitions`."
    assert error_message(advisor.InputError("plain words.")) == "plain words."
    quoted = advisor.InputError(f"system 'a': {exc.text}")  # an error quoting another keeps its arguments
    assert error_message(quoted).endswith("--sql replaces the input files; leave --group ward out (--force).")


@pytest.mark.parametrize("argv,flag,python", [
    (["compute", str(LR), "--sql", "SELECT 1"], "--sql replaces", "sql= replaces"),
    (["compute", "--sql", "DROP TABLE t"], "--sql must be exactly one SELECT", "sql= must be exactly one SELECT"),
    (["compute", "--matrix", str(EX / "papers" / "grandini2020_fig1.csv"), "--group", "g"], "--group g resamples",
     "group='g' resamples"),
    (["compute", str(LR), "--costs", "fn=-1,fp=1"], "--costs: cost fn", "costs=: cost fn"),
    (["compute", str(LR), "--by", "sex"], "no column 'sex' (--by)", "no column 'sex' (by=)"),
])
def test_the_command_line_names_its_options_for_the_same_refusal(argv: list[str], flag: str, python: str,
                                                                 env: dict[str, Any]) -> None:
    res = CliRunner().invoke(app, argv)
    assert res.exit_code == 2 and flag in res.stderr and res.stderr.count("\n") == 1, res.stderr
    assert "sql=" not in res.stderr and "group=" not in res.stderr
    api = {"--sql replaces": lambda: advisor.load(LR, sql="SELECT 1"),
           "--sql must be exactly one SELECT": lambda: advisor.load(sql="DROP TABLE t"),
           "--group g resamples": lambda: advisor.load(matrices=[EX / "papers" / "grandini2020_fig1.csv"], group="g"),
           "--costs: cost fn": lambda: advisor.evaluate(env["df"], costs="fn=-1,fp=1"),
           "no column 'sex' (--by)": lambda: advisor.load(LR, by="sex")}[flag]
    assert python in _is_message(_refused(api))


# ----------------------------------------------------------------------------------------------
# The scan: a value of the wrong kind for each argument of each entry point, in turn
# ----------------------------------------------------------------------------------------------
class _Opaque:
    """A value no argument takes."""

    def __repr__(self) -> str:
        return "<opaque>"


WRONG = (_Opaque(), -7, "zz", [_Opaque()])


def _entries(env: dict[str, Any]) -> dict[str, tuple[Callable[..., Any], dict[str, Any]]]:
    df, cm = env["df"], env["cm"]
    y, pr = df["y_true"].tolist(), df["p_malignant"].to_numpy()
    struct = advisor.load_structured([{"y_true": [1, 2, 3, 3], "y_pred": [1, 3, 3, 2]}], order=[1, 2, 3])
    return {
        "load": (advisor.load, {"sources": df}),
        "evaluate": (advisor.evaluate, {"data": df, "y_true": "y_true", "systems": ["y_pred"]}),
        "compare_systems": (advisor.compare_systems, {"y_true": df["y_true"], "n_resamples": 200, "seed": 0,
                                                      "predictions": {"a": df["y_pred"], "b": df["y_pred"][::-1].values},
                                                      "metrics": ["accuracy"]}),
        "compare_joint": (advisor.compare_joint, {"joint": env["joint"], "n_resamples": 200, "seed": 0,
                                                  "metrics": ["accuracy"]}),
        "bootstrap": (advisor.bootstrap, {"matrix": cm, "n_resamples": 200, "seed": 0, "metrics": ["accuracy"]}),
        "compute_metrics": (advisor.compute_metrics, {"matrix": cm}),
        "per_class": (advisor.per_class, {"matrix": cm}),
        "confusion_matrix": (advisor.confusion_matrix, {"y_true": df["y_true"], "y_pred": df["y_pred"]}),
        "make_plan": (advisor.make_plan, {"answers": ANSWERS}),
        "recommend": (advisor.recommend, {"answers": ANSWERS}),
        "build_report": (advisor.build_report, {"answers": ANSWERS, "data": env["ds"], "bootstrap": 0}),
        "build_structured_report": (advisor.build_structured_report, {
            "answers": {"label_structure": "ordinal", "classes": [1, 2, 3]}, "inputs": struct, "bootstrap": 0}),
        "render_report": (render_report, {"context": env["ctx"], "fmt": "md"}),
        "methods_paragraph": (advisor.methods_paragraph, {"answers": ANSWERS}),
        "subgroups": (advisor.subgroups, {"data": env["ds"], "by": "site"}),
        "load_answers": (advisor.load_answers, {"path": EX / "report" / "digits_answers.yaml"}),
        "read_matrix": (advisor.read_matrix, {"path": EX / "papers" / "grandini2020_fig1.csv"}),
        "read_predictions": (advisor.read_predictions, {"paths": LR}),
        "read_frame": (advisor.read_frame, {"frame": df}),
        "load_structured": (advisor.load_structured, {"sources": [{"y_true": [1, 2, 3, 3], "y_pred": [1, 3, 3, 2]}],
                                                      "order": [1, 2, 3]}),
        "roc_auc": (advisor.roc_auc, {"y_true": y, "scores": pr, "positive_label": "malignant"}),
        "ece": (advisor.ece, {"y_true": y, "proba": np.c_[1 - pr, pr]}),
        "ordinal_metrics": (advisor.ordinal_metrics, {"data": [[5, 1, 0], [1, 4, 1], [0, 1, 6]]}),
        "multilabel_metrics": (advisor.multilabel_metrics, {"data": [[1, 0], [0, 1]], "y_pred": [[1, 0], [1, 1]]}),
        "agreement_metrics": (advisor.agreement_metrics, {"data": [["a", "a"], ["b", "a"], ["b", "b"]]}),
        "top_k_accuracy": (advisor.top_k_accuracy, {"scores": [[0.1, 0.9], [0.8, 0.2]], "true_index": [1, 1], "k": 1}),
    }


def test_a_value_of_the_wrong_kind_never_leaks_a_raw_exception(env: dict[str, Any], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a wrong value may still be a usable name: render_report(out_path="zz") writes zz
    leaks, refused = [], 0
    for name, (fn, base) in _entries(env).items():
        fn(**base)  # the baseline call is accepted
        for param in inspect.signature(fn).parameters.values():
            if param.kind is param.VAR_KEYWORD:
                continue
            for bad in WRONG:
                try:
                    fn(**{**base, param.name: bad})
                except advisor.AdvisorError as exc:
                    refused += 1
                    msg = str(exc)
                    if FLAG.search(msg) or "\n" in msg:
                        leaks.append(f"{name}({param.name}={bad!r}): {msg}")
                except Exception as exc:  # noqa: BLE001 - what leaks is the finding
                    leaks.append(f"{name}({param.name}={bad!r}): {type(exc).__name__}: {str(exc)[:120]}")
    assert not leaks, "\n".join(leaks)
    assert refused > 200  # the scan refuses most wrong values (some, like a title of "zz", are fine)


# ----------------------------------------------------------------------------------------------
# advisor.spark: its own argument checks (needs pyspark and Java, always in CI)
# ----------------------------------------------------------------------------------------------
def _spark_missing() -> str | None:
    try:
        import pyspark  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the machine
        return "pyspark is not installed (pip install 'advisor[spark]')"
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        return "no Java runtime (Spark needs one)"
    return None


def test_spark_refuses_what_it_cannot_count_without_spark() -> None:
    """Checked before Spark is asked for anything: no session needed."""
    pytest.importorskip("pyspark")
    import advisor.spark

    msg = _is_message(_refused(lambda: advisor.spark.evaluate(_frame())))
    assert "df must be a Spark DataFrame" in msg
    msg = _is_message(_refused(lambda: advisor.spark.evaluate(_frame(), score="p_malignant")))
    assert "'score'" in msg and "advisor.spark.evaluate()" in msg
    msg = _is_message(_refused(lambda: advisor.spark.compare(_frame(), n_resample=200)))
    assert "did you mean n_resamples=" in msg


@pytest.mark.skipif(_spark_missing() is not None, reason=_spark_missing() or "")
def test_spark_names_its_arguments() -> None:
    if _spark_missing() and os.environ.get("CI"):  # pragma: no cover
        raise RuntimeError(f"Spark tests must run in CI: {_spark_missing()}")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").appName("advisor-api-errors")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
             .config("spark.driver.memory", "512m").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        _spark_cases(spark)
    finally:
        spark.stop()


def _spark_cases(spark: Any) -> None:
    import advisor.spark

    sdf = spark.createDataFrame(_frame()[["y_true", "y_pred", "p_malignant"]])
    cases = [
        (lambda: advisor.spark.evaluate(sdf, score="p_malignant"), "'score'"),
        (lambda: advisor.spark.evaluate(sdf, y_true="gold"), "y_true="),
        (lambda: advisor.spark.evaluate(sdf, systems=["svm"]), "systems="),
        (lambda: advisor.spark.evaluate(sdf, systems=5), "systems"),
        (lambda: advisor.spark.evaluate(sdf, proba_cols=5), "proba_cols"),
        (lambda: advisor.spark.compare(sdf, systems=["y_pred"], n_resamples=200), "systems"),
    ]
    for call, name in cases:
        assert name in _is_message(_refused(call))
