"""Scores, probabilities and costs in reports (issue 11): build_report/advisor report with costs, priors
and item-level scores through files, --sql, DataFrames and arrays; values under metrics[system][id]; bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm
from typer.testing import CliRunner

import advisor
from advisor.cli import app

EX = Path(__file__).resolve().parent.parent / "examples"
MED = EX / "answers" / "medical_screening.yaml"
SCREEN = [EX / "scores" / "screening_sensitive.csv", EX / "scores" / "screening_specific.csv"]
FRAUD = [EX / "scores" / "fraud_gbm.csv", EX / "scores" / "fraud_rules.csv"]


def _data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = y + rng.normal(0, 1, n)
    pred = (s > 0.5).astype(int)
    return y, s, pred


def test_build_report_takes_costs_priors_and_scores():
    y, s, pred = _data()
    ctx = advisor.build_report({"task": "binary", "positive_class": 1}, {"y_true": y, "m": pred},
                               scores={"m": s}, costs={"fn": 10, "fp": 1}, priors={1: 0.02, 0: 0.98},
                               bootstrap=200, seed=1)
    v = ctx.systems[0].values
    assert v["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert v["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    cm = skm.confusion_matrix(y, pred)
    fnr, fpr = cm[1, 0] / cm[1].sum(), cm[0, 1] / cm[0].sum()
    assert v["normalized_expected_cost"] == pytest.approx((0.2 * fnr + 0.98 * fpr) / 0.2, abs=1e-12)
    assert ctx.scores is not None and ctx.scores.roc["m"].x[0] == 0.0
    assert ctx.scores.cost_curve["m"].y and ctx.scores.priors == {"0": 0.98, "1": 0.02}
    # the context re-renders from its JSON (figures included)
    again = advisor.ReportContext.model_validate_json(ctx.model_dump_json())
    assert again.scores == ctx.scores


def test_string_costs_and_priors_as_on_the_command_line():
    y, s, pred = _data()
    a = advisor.build_report({"task": "binary", "positive_class": 1}, {"y_true": y, "m": pred}, costs="fn=10,fp=1",
                             priors="1=0.02,0=0.98", bootstrap=0)
    b = advisor.build_report({"task": "binary", "positive_class": 1}, {"y_true": y, "m": pred},
                             costs={"fn": 10, "fp": 1}, priors={1: 0.02, 0: 0.98}, bootstrap=0)
    assert a.systems[0].values["expected_cost"] == b.systems[0].values["expected_cost"]


def test_dataframe_score_column_reaches_the_report():
    pd = pytest.importorskip("pandas")
    y, s, pred = _data()
    df = pd.DataFrame({"y_true": y, "y_pred": pred, "score": s})
    ctx = advisor.build_report({"task": "binary", "positive_class": 1}, df, bootstrap=0)
    assert ctx.systems[0].values["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


def test_medical_screening_report_leads_with_nec_at_two_percent(tmp_path):
    out = tmp_path / "med.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(MED), *map(str, SCREEN), "--bootstrap", "200",
                                 "--seed", "7", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "**Primary metric:** Normalized expected cost" in text
    methods = text.split("## Methods")[1].split("## Results")[0]
    # said once: in the author's words, the answers' context (issue 22), not again in advisor's paraphrase
    assert "costs ten times a false referral" in methods and "about 2% of the screened population" in methods
    assert methods.count("2%") == 1 and "10 times as much as a false alarm" not in methods
    assert "cost 10 and a false alarm 1" not in text
    assert "“healthy” for everyone" in text and "above a probability of 0.83" in text
    for fig in ("roc_pr", "reliability", "cost_curve"):
        assert (tmp_path / "med-figures" / f"{fig}.svg").exists()
    js = tmp_path / "med.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(MED), *map(str, SCREEN), "--bootstrap", "200",
                                 "--seed", "7", "-o", str(js)])
    ctx = json.loads(js.read_text())
    nec = {s: ctx["metrics"][s]["normalized_expected_cost"] for s in ctx["systems"]}
    assert nec["screening_specific"] < 1 < nec["screening_sensitive"]
    assert ctx["intervals"][ctx["systems"][0]]["normalized_expected_cost"]["low"] is not None


def test_report_costs_option_overrides_the_answers(tmp_path):
    out = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(MED), *map(str, SCREEN), "--bootstrap", "0",
                                 "--costs", "fn=1,fp=1", "--priors", "disease=0.5,healthy=0.5", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    v = ctx["metrics"][ctx["systems"][1]]
    # 0/1 costs at equal shares: EC = 1 − balanced accuracy
    assert v["expected_cost"] == pytest.approx(1 - v["balanced_accuracy"], abs=1e-12)


def test_report_with_sql_reads_the_score_column(tmp_path):
    out = tmp_path / "r.json"
    q = f"SELECT y_true, y_pred, score FROM '{FRAUD[0]}'"
    r = CliRunner().invoke(app, ["report", "--answers", str(EX / "answers" / "fraud_ranking.yaml"), "--sql", q,
                                 "--bootstrap", "0", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    v = ctx["metrics"][ctx["systems"][0]]
    import csv

    rows = list(csv.DictReader(FRAUD[0].open()))
    y = [r["y_true"] == "fraud" for r in rows]
    s = [float(r["score"]) for r in rows]
    assert v["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)


@pytest.mark.parametrize("content,args,message", [
    ("y_true,y_pred,score\na,a,0.1\nb,b,0.5\nc,c,0.9\n", [], "needs a binary task"),
    ("y_true,y_pred,p_a,p_b\na,a,0.7,0.2\nb,b,0.1,0.9\n", [], "summing to 0.9"),
    ("y_true,y_pred,score\na,a,0.1\nb,b,nan\n", [], "not a finite number"),
    ("y_true,y_pred,score\na,a,0.1\nb,b,0.5\n", ["--costs", "fn=-1,fp=1"], "non-negative"),
])
def test_bad_score_input_is_one_sentence(tmp_path, content, args, message):
    f = tmp_path / "m.csv"
    f.write_text(content)
    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\npositive_class: b\n")
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(f), "--bootstrap", "0",
                                 "-o", str(tmp_path / "r.md"), *args])
    assert r.exit_code != 0
    assert message in r.output and "Traceback" not in r.output and "internal error" not in r.output
    assert len([line for line in r.output.splitlines() if line.strip()]) == 1


def test_api_score_arrays_of_a_multiclass_task_are_refused():
    with pytest.raises(advisor.InputError, match="single score needs a binary task"):
        advisor.build_report({"task": "multiclass"}, {"y_true": ["a", "b", "c"], "m": ["a", "b", "b"]},
                             scores={"m": [0.1, 0.2, 0.3]}, bootstrap=0)


def test_compute_sql_score_column_in_json():
    q = f"SELECT y_true, y_pred, score FROM '{FRAUD[0]}'"
    r = CliRunner().invoke(app, ["compute", "--sql", q, "--positive", "fraud", "--costs", "fn=10,fp=1", "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.stdout)["metrics"]["y_pred"]
    for mid in ("roc_auc", "average_precision", "expected_cost", "normalized_expected_cost"):
        assert isinstance(m[mid], float)
    f = json.loads(CliRunner().invoke(app, ["compute", str(FRAUD[0]), "--positive", "fraud", "--costs", "fn=10,fp=1",
                                            "--json"]).stdout)["metrics"]["fraud_gbm"]
    assert all(m[k] == pytest.approx(f[k], abs=1e-12) for k in ("roc_auc", "average_precision", "normalized_expected_cost"))


def test_evaluate_takes_costs_priors_and_scores_like_the_cli():
    pd = pytest.importorskip("pandas")
    y, s, pred = _data()
    ev = advisor.evaluate(y, pred, scores=s, costs="fn=10,fp=1", priors={1: 0.02, 0: 0.98}, positive_label=1)
    m = ev.metrics["y_pred"]
    assert m["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    cm = skm.confusion_matrix(y, pred)
    fnr, fpr = cm[1, 0] / cm[1].sum(), cm[0, 1] / cm[0].sum()
    assert m["expected_cost"] == pytest.approx(10 * 0.02 * fnr + 0.98 * fpr, abs=1e-12)
    df = pd.DataFrame({"y_true": y, "y_pred": pred, "score": s})
    m2 = advisor.evaluate(df, positive_label=1, costs={"fn": 10, "fp": 1}, priors="1=0.02,0=0.98").metrics["y_pred"]
    assert m2["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)
    assert m2["expected_cost"] == pytest.approx(m["expected_cost"], abs=1e-12)
    df2 = pd.DataFrame({"gold": y, "m": pred})
    m3 = advisor.evaluate(df2, y_true="gold", systems=["m"], scores={"m": s}, positive_label=1).metrics["m"]
    assert m3["roc_auc"] == m["roc_auc"]
    mats = advisor.evaluate({"a": cm}, costs={"fn": 10, "fp": 1}, priors=[0.98, 0.02], positive_label=1).metrics["a"]
    assert mats["expected_cost"] == pytest.approx(m["expected_cost"], abs=1e-12)
    p = np.c_[1 - 1 / (1 + np.exp(-s)), 1 / (1 + np.exp(-s))]
    m4 = advisor.evaluate(y, pred, scores=p, positive_label=1).metrics["y_pred"]
    assert m4["log_loss"] == pytest.approx(skm.log_loss(y, p), abs=1e-12)
    assert m4["brier_binary"] == pytest.approx(skm.brier_score_loss(y, p[:, 1]), abs=1e-12)


@pytest.mark.parametrize("kw,message", [
    ({"costs": "fn=-2,fp=1"}, "non-negative"),
    ({"costs": {"fn": 1, "fp": 1}, "priors": {0: 0.5, 1: 0.6}}, "sum to 1"),
    ({"scores": [0.1, float("nan"), 0.3, 0.4]}, "NaN"),
    ({"scores": [[0.5, 0.2], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]}, "sum to 1"),
])
def test_evaluate_bad_cost_and_score_input(kw, message):
    with pytest.raises(advisor.InputError, match=message):
        advisor.evaluate([0, 1, 1, 0], [0, 1, 0, 0], positive_label=1, **kw)


def test_score_only_files(tmp_path):
    f = tmp_path / "s.csv"
    f.write_text("y_true,score\n1,0.5\n0,-1\n1,2\n0,0.7\n")
    r = CliRunner().invoke(app, ["compute", str(f), "--positive", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["metrics"]["s"]["roc_auc"] == pytest.approx(skm.roc_auc_score([1, 0, 1, 0],
                                                                                             [0.5, -1, 2, 0.7]))
    three = tmp_path / "t.csv"
    three.write_text("y_true,score\na,0.5\nb,-1\nc,2\n")
    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\npositive_class: 1\n")
    for args in (["compute", str(three), "--positive", "a"],
                 ["report", "--answers", str(answers), str(three), "-o", str(tmp_path / "r.md")]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code != 0 and "a single score needs a binary task" in r.output
        assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(f), "-o", str(tmp_path / "r.md")])
    assert r.exit_code != 0 and "no y_pred column" in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "r.md").exists()


def test_methods_state_normalisation_prior_adjustment_binning_and_convention():
    from advisor.report._methods_scores import score_sentences
    from advisor.report._models_scores import ScoreData

    s = ScoreData(positive_label="ill", positive_share=0.5, costs=[[0, 1], [10, 0]], cost_labels=["well", "ill"],
                  priors={"well": 0.98, "ill": 0.02}, bayes_threshold=0.83, ece_bins=15,
                  calibration_loss={"a": 0.16})
    text = " ".join(t for t, _ in score_sentences(["normalized_expected_cost", "brier_binary", "ece",
                                                   "average_precision"], s))
    for words in ("cost 10 and a false alarm 1", "ill 2% and well 98%", "“well” for everyone",
                  "reweighted from the test set's class shares", "above a probability of 0.83",
                  "without interpolation", "the sum over both classes, also called the Brier score, is twice it",
                  "15 equal-mass bins", "16% of the log loss"):
        assert words in text, words
    assert "_" not in text and "--" not in text  # no internal ids, no flags
    said = ScoreData(**{**s.model_dump(), "costs_said": True})
    assert "cost 10" not in " ".join(t for t, _ in score_sentences(["normalized_expected_cost"], said))


def test_bayes_threshold_is_the_prior_adjusted_cost_ratio():
    y, s, pred = _data()
    p = np.c_[1 - 1 / (1 + np.exp(-s)), 1 / (1 + np.exp(-s))]
    ctx = advisor.build_report({"task": "binary", "positive_class": 1}, {"y_true": y, "m": pred}, scores={"m": p},
                               costs={"fn": 10, "fp": 1}, priors={1: 0.02, 0: 0.98}, bootstrap=0)
    rho1 = y.mean()
    a, b = 0.02 / rho1 * 10, 0.98 / (1 - rho1) * 1
    assert ctx.scores.bayes_threshold == pytest.approx(b / (a + b), abs=1e-12)
    # the engine's Bayes decisions with the same prior adjustment switch at that probability
    from advisor.engine._costs import bayes_decisions

    grid = np.linspace(0.01, 0.99, 99)
    dec = np.asarray(bayes_decisions(np.c_[1 - grid, grid], [0, 1], {"fn": 10, "fp": 1}, {0: 0.98, 1: 0.02},
                                     train_priors=[1 - rho1, rho1], positive_label=1))
    assert np.all((dec == 1) == (grid > ctx.scores.bayes_threshold))


def test_matrices_get_unpaired_cost_intervals_and_a_cost_curve(tmp_path):
    m1, m2 = tmp_path / "m1.csv", tmp_path / "m2.csv"
    m1.write_text(",healthy,disease\nhealthy,290,10\ndisease,40,260\n")
    m2.write_text(",healthy,disease\nhealthy,200,100\ndisease,5,295\n")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(MED), "--matrix", str(m1), "--matrix", str(m2),
                                 "--bootstrap", "200", "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    first = ctx["systems"][0]
    iv = ctx["intervals"][first]["normalized_expected_cost"]
    assert iv["low"] < ctx["metrics"][first]["normalized_expected_cost"] < iv["high"]
    assert set(ctx["scores"]["cost_curve"]) == {"m1", "m2"}
    # re-rendered from the JSON context alone, with the cost curve
    md = tmp_path / "again.md"
    r = CliRunner().invoke(app, ["report", "--context", str(out), "-o", str(md)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "again-figures" / "cost_curve.svg").exists()


def test_sql_with_two_systems_and_a_cost_matrix(tmp_path):
    costs = tmp_path / "costs.csv"
    costs.write_text(",a,b,c\na,0,1,4\nb,1,0,1\nc,8,1,0\n")
    data = tmp_path / "d.csv"
    rng = np.random.default_rng(3)
    y = rng.choice(["a", "b", "c"], 300)
    p1 = np.where(rng.random(300) < 0.8, y, rng.choice(["a", "b", "c"], 300))
    p2 = np.where(rng.random(300) < 0.6, y, rng.choice(["a", "b", "c"], 300))
    data.write_text("y_true,m1,m2\n" + "".join(f"{a},{b},{c}\n" for a, b, c in zip(y, p1, p2)))
    answers = tmp_path / "a.yaml"
    answers.write_text("task: multiclass\nclasses: [a, b, c]\n")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), "--sql", f"SELECT * FROM '{data}'",
                                 "--costs", str(costs), "--priors", "a=0.2,b=0.3,c=0.5", "--bootstrap", "200",
                                 "--seed", "2", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    c = np.array([[0, 1, 4], [1, 0, 1], [8, 1, 0]], float)
    pi = np.array([0.2, 0.3, 0.5])
    for s, pred in zip(ctx["systems"], (p1, p2)):
        cm = skm.confusion_matrix(y, pred, labels=["a", "b", "c"]).astype(float)
        ec = float((pi[:, None] * c * cm / cm.sum(axis=1, keepdims=True)).sum())
        assert ctx["metrics"][s]["expected_cost"] == pytest.approx(ec, abs=1e-12)
        assert ctx["metrics"][s]["normalized_expected_cost"] == pytest.approx(ec / (pi @ c).min(), abs=1e-12)
        assert ctx["intervals"][s]["expected_cost"]["low"] is not None
    best = min(ctx["systems"], key=lambda s: ctx["metrics"][s]["expected_cost"])
    assert best in ctx["winners"]["expected_cost"]  # lower is better: the cheapest system is among the winners


def test_binary_probabilities_without_a_positive_class_still_report(tmp_path):
    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\n")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(EX / "scores" / "risk_calibrated.csv"),
                                 "--bootstrap", "0", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    v = ctx["metrics"][ctx["systems"][0]]
    assert v["roc_auc"] is not None and v["log_loss"] is not None


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_score_column_through_every_file_reader(tmp_path, suffix):
    pa = pytest.importorskip("pyarrow")
    y, s, pred = _data(200, seed=4)
    t = pa.table({"y_true": y.astype(str), "y_pred": pred.astype(str), "score": s})
    f = tmp_path / f"m{suffix}"
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        pq.write_table(t, f)
    elif suffix == ".jsonl":
        f.write_text("".join(json.dumps({"y_true": str(a), "y_pred": str(b), "score": float(c)}) + "\n"
                             for a, b, c in zip(y, pred, s)))
    else:
        sep = "\t" if suffix == ".tsv" else ","
        f.write_text(f"y_true{sep}y_pred{sep}score\n" + "".join(f"{a}{sep}{b}{sep}{float(c)!r}\n" for a, b, c in zip(y, pred, s)))
    r = CliRunner().invoke(app, ["compute", str(f), "--positive", "1", "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.stdout)["metrics"]["m"]
    assert m["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    assert m["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-12)


def test_the_appendix_f_beta_takes_beta_from_the_answers_costs():
    # the screening report: its justification said β² = 10 (the cost ratio) while Fβ was computed with β = 1, F1
    # under another name; with error costs and Fβ not planned, β still comes from the costs
    y, s, pred = _data()
    answers = {"task": "binary", "classes": [0, 1], "positive_class": 1, "true_negatives_meaningful": True,
               "error_costs": {"false_negative": 10, "false_positive": 1}, "deployment_prevalence": "same"}
    ctx = advisor.build_report(answers, {"y_true": y, "m": pred}, bootstrap=0)
    v = ctx.systems[0].values
    assert v["f_beta"] == pytest.approx(skm.fbeta_score(y, pred, beta=10 ** 0.5), abs=1e-12)
    entry = next(m for m in ctx.metrics if m.id == "f_beta")
    assert "β = √10 ≈ 3.16" in (entry.variant or "")


def test_the_binary_brier_scores_chance_levels_are_its_constant_predictors():
    """The chance rows of the binary Brier score (the form a two-class report gives, the s40 and s41 readers): a
    constant 1/2, each class's share and all mass on the larger class, each scored by scikit-learn."""
    from advisor.report import build_report

    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    y = (rng.random(300) < 0.3).astype(int)
    p = np.clip(0.3 + 0.4 * (y - 0.3) + rng.normal(0, 0.15, y.size), 0.01, 0.99)
    data = pd.DataFrame({"y_true": np.where(y == 1, "yes", "no"), "y_pred": np.where(p > 0.5, "yes", "no"),
                         "p_no": 1 - p, "p_yes": p})
    answers = {"task": "binary", "classes": ["no", "yes"], "positive_class": "yes", "outputs": "probabilities"}
    ctx = build_report(answers, advisor.load(data), seed=1, bootstrap=0)
    row = next(r for r in ctx.chance if r.metric == "brier_binary")
    share = y.mean()
    assert row.uniform == pytest.approx(skm.brier_score_loss(y, np.full(y.size, 0.5)), abs=1e-12)
    assert row.prevalence == pytest.approx(skm.brier_score_loss(y, np.full(y.size, share)), abs=1e-12)
    assert row.majority == pytest.approx(skm.brier_score_loss(y, np.full(y.size, float(share > 0.5))), abs=1e-12)
