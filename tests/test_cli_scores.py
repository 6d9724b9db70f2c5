"""advisor compute with score/probability columns, --costs and --priors (issue 11)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn import metrics as skm
from typer.testing import CliRunner

from advisor.cli import app


def _files(tmp_path):
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.15).astype(int)
    s = y * 1.5 + rng.normal(0, 1, n)
    p = np.round(1 / (1 + np.exp(-(s - 2))), 6)
    lab = np.where(y == 1, "pos", "neg")
    sc = tmp_path / "scores.csv"
    sc.write_text("y_true,y_pred,score\n" + "".join(f"{a},{'pos' if b > 1 else 'neg'},{b!r}\n" for a, b in zip(lab, s.tolist())))
    pr = tmp_path / "probs.csv"
    pr.write_text("y_true,y_pred,p_neg,p_pos\n" + "".join(f"{a},{'pos' if b > .5 else 'neg'},{1 - b:.6f},{b:.6f}\n"
                                                          for a, b in zip(lab, p)))
    return y, s, p, sc, pr


def test_score_column_and_costs_in_json(tmp_path):
    y, s, _, sc, _ = _files(tmp_path)
    r = CliRunner().invoke(app, ["compute", str(sc), "--positive", "pos", "--costs", "fn=10,fp=1",
                                 "--priors", "pos=0.02,neg=0.98", "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.stdout)["metrics"]["scores"]
    assert m["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-9)
    assert m["average_precision"] == pytest.approx(skm.average_precision_score(y, s), abs=1e-9)
    pred = s > 1
    fnr, fpr = np.mean(~pred[y == 1]), np.mean(pred[y == 0])
    assert m["expected_cost"] == pytest.approx(10 * 0.02 * fnr + 0.98 * fpr, abs=1e-12)
    assert m["normalized_expected_cost"] == pytest.approx(m["expected_cost"] / min(0.2, 0.98), abs=1e-12)


def test_probability_columns_give_every_score_metric(tmp_path):
    y, _, p, _, pr = _files(tmp_path)
    r = CliRunner().invoke(app, ["compute", str(pr), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    m = d["metrics"]["probs"]
    assert m["roc_auc"] == pytest.approx(skm.roc_auc_score(y, p), abs=1e-9)
    assert m["brier_binary"] == pytest.approx(skm.brier_score_loss(y, p), abs=1e-9)
    assert m["brier"] == pytest.approx(2 * m["brier_binary"], abs=1e-9)
    assert set(d["score_details"]["probs"]) >= {"zero_probability_items", "calibration_loss", "ece_binning"}


def test_cost_matrix_csv_and_metric_selection(tmp_path):
    _, _, _, sc, _ = _files(tmp_path)
    cm = tmp_path / "costs.csv"
    cm.write_text(",neg,pos\nneg,0,1\npos,10,0\n")
    r = CliRunner().invoke(app, ["compute", str(sc), "--positive", "pos", "--costs", str(cm),
                                 "--metrics", "normalized_expected_cost", "--json"])
    assert r.exit_code == 0, r.output
    assert list(json.loads(r.stdout)["metrics"]["scores"]) == ["accuracy", "normalized_expected_cost"]


@pytest.mark.parametrize(("args", "message"), [
    (["--costs", "fn=10,fp=-1", "--positive", "pos"], "non-negative"),
    (["--costs", "fn=x", "--positive", "pos"], "not a number"),
    (["--priors", "pos=0.5,neg=0.6", "--positive", "pos", "--costs", "fn=1,fp=1"], "sum to 1"),
    ([], "--positive"),
])
def test_bad_cost_input_is_one_sentence(tmp_path, args, message):
    _, _, _, sc, _ = _files(tmp_path)
    r = CliRunner().invoke(app, ["compute", str(sc), *args])
    assert r.exit_code != 0
    assert message in r.output and "Traceback" not in r.output


def test_score_column_beside_multiclass_task_is_one_sentence(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text("y_true,y_pred,score\na,a,1\nb,b,2\nc,a,3\n")
    r = CliRunner().invoke(app, ["compute", str(f), "--positive", "a"])
    assert r.exit_code != 0 and "needs a binary task" in r.output


def test_probabilities_not_summing_to_one_is_one_sentence(tmp_path):
    f = tmp_path / "m.csv"
    f.write_text("y_true,y_pred,p_a,p_b\na,a,0.9,0.3\nb,b,0.2,0.8\n")
    r = CliRunner().invoke(app, ["compute", str(f)])
    assert r.exit_code != 0 and "sum" in r.output and "Traceback" not in r.output


def test_compare_adds_paired_score_comparison(tmp_path):
    y, s, p, sc, pr = _files(tmp_path)
    sc2 = tmp_path / "scores2.csv"
    rng = np.random.default_rng(1)
    s2 = y + rng.normal(0, 3, len(y))
    lab = np.where(y == 1, "pos", "neg")
    sc2.write_text("y_true,y_pred,score\n" + "".join(f"{a},{'pos' if b > 1 else 'neg'},{b!r}\n"
                                                     for a, b in zip(lab, s2.tolist())))
    r = CliRunner().invoke(app, ["compare", str(sc), str(sc2), "--positive", "pos", "--bootstrap", "200", "--seed", "0",
                                 "--costs", "fn=10,fp=1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)  # the score metrics sit where the others do: metrics[system][id], intervals[system][id]
    assert d["metrics"]["scores"]["roc_auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-9)
    assert d["intervals"]["scores"]["roc_auc"]["estimate"] == d["metrics"]["scores"]["roc_auc"]
    assert "multiple comparisons with the best" in d["bootstrap"]["score_method"]
    assert set(d["winners"]) >= {"roc_auc", "average_precision", "expected_cost"}
    assert all("roc_auc" in d["rank_intervals"][name] for name in ("scores", "scores2"))
    assert {(p["a"], p["b"]) for p in d["pairs"]["roc_auc"]} == {("scores", "scores2")}
    assert 0 <= d["pairs"]["roc_auc"][0]["p_a_better"] <= 1


def test_score_figures_are_drawn(tmp_path):
    from advisor.report._figures_scores import curve_points, score_figures

    y, s, p, _, _ = _files(tmp_path)
    labels = ["neg", "pos"]
    yt = np.where(y == 1, "pos", "neg")
    f, t, _ = curve_points(y, s)
    assert np.trapezoid(t, f) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    figs = score_figures(yt, {"a": s, "b": np.c_[1 - p, p]}, labels, positive_label="pos",
                         decisions={"a": np.where(s > 1, "pos", "neg")}, costs={"fn": 10, "fp": 1},
                         priors={"pos": 0.02, "neg": 0.98})
    assert [f.id for f in figs] == ["roc_pr", "reliability", "cost_curve"]
    assert all(f.svg and f.svg.lstrip().startswith("<?xml") for f in figs)
