"""Issue 21 end to end: operating constraints lead when given, thresholds are said, binary risks are checked the
clinical way (a model whose risks are 2.7× too high is caught), decision curves, and bad input in one sentence."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor import InputError
from advisor.cli import app
from advisor.plan import PlanOptions, make_plan
from advisor.report import build_report

FRAUD = dict(task="binary", classes=["genuine", "fraud"], positive_class="fraud", outputs="scores")
RISK = dict(task="binary", classes=["alive", "dead"], positive_class="dead", outputs="probabilities",
            risk_estimates=True)


def _fraud(n: int = 3000, seed: int = 1):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.03, "fraud", "genuine")
    s = (y == "fraud") * 1.8 + rng.normal(0, 1, n)
    return y, s, np.where(s > 2.5, "fraud", "genuine")


def _mortality(n: int = 3000, seed: int = 0):
    """Risks 2.7× too high on average (mean 0.24 where about 0.09 is observed), ranking intact."""
    rng = np.random.default_rng(seed)
    lin = rng.normal(-2.6, 1.0, n)
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-lin)), "dead", "alive")
    p = 1 / (1 + np.exp(-(lin + 1.25)))
    return y, p, np.where(p >= 0.5, "dead", "alive")


def test_an_fpr_budget_leads_with_tpr_at_that_fpr_and_roc_auc_beside() -> None:
    plan = make_plan({**FRAUD, "fpr_budget": 0.05})
    assert plan.lead.id == "tpr_at_fpr" and plan.lead.params["max_fpr"] == 0.05
    assert [m.id for m in plan.beside] == ["roc_auc"]
    assert not plan.unused


def test_a_review_budget_leads_with_precision_at_k_and_no_decision_metric_at_an_unchosen_threshold() -> None:
    plan = make_plan({**FRAUD, "review_share": 0.002, "true_negatives_meaningful": False})
    assert plan.lead.id == "precision_at_k"
    beside = [m.id for m in plan.beside]
    assert "recall_at_k" in beside and "average_precision" in beside
    assert not set(beside) & {"precision", "recall", "f1", "accuracy", "balanced_accuracy"}


def test_open_threshold_recommends_no_precision_and_recall_at_a_threshold() -> None:
    plan = make_plan({**FRAUD, "operating_point": "open", "true_negatives_meaningful": False,
                      "test_set_balanced": False})
    assert plan.lead.id == "average_precision"
    assert not {m.id for m in plan.beside} & {"precision", "recall", "f1"}


def test_report_tpr_at_fpr_states_the_threshold_and_that_it_was_chosen_on_the_test_set() -> None:
    from sklearn.metrics import roc_curve

    y, s, pred = _fraud()
    ctx = build_report({**FRAUD, "fpr_budget": 0.05}, {"y_true": list(y), "m": list(pred)}, scores={"m": s},
                       bootstrap=200, seed=1)
    fpr, tpr, _ = roc_curve(y == "fraud", s)
    assert ctx.primary == "tpr_at_fpr"
    assert ctx.systems[0].values["tpr_at_fpr"] == pytest.approx(tpr[fpr <= 0.05].max())
    iv = ctx.systems[0].intervals["tpr_at_fpr"]
    assert iv.low <= iv.estimate <= iv.high
    table = next(t for t in ctx.tables if t.id == "operating_point")
    threshold = float(table.rows[0][1])
    assert ((s >= threshold) & (y == "genuine")).sum() / (y == "genuine").sum() <= 0.05
    text = "".join(sp.text for sp in ctx.methods[0].spans)
    assert "at most 5%" in text and "chosen on the test set" in text


def test_report_precision_at_k_from_alerts_counts_the_top_k() -> None:
    y, s, pred = _fraud()
    ctx = build_report(FRAUD, {"y_true": list(y), "m": list(pred)}, scores={"m": s}, bootstrap=200, seed=1,
                       alerts=60)
    assert ctx.primary == "precision_at_k"
    top = np.argsort(-s)[:60]
    assert ctx.systems[0].values["precision_at_k"] == pytest.approx((y[top] == "fraud").mean())
    assert "K = 60" in "".join(sp.text for sp in ctx.methods[0].spans)


def test_clinical_calibration_catches_risks_that_are_too_high() -> None:
    import statsmodels.api as sm

    y, p, pred = _mortality()
    ctx = build_report({**RISK, "decision_thresholds": [0.05, 0.1, 0.2]}, {"y_true": list(y), "model": list(pred)},
                       scores={"model": np.c_[1 - p, p]}, bootstrap=200, seed=1)
    v = ctx.systems[0].values
    outcome = (y == "dead").astype(float)
    logit = np.log(p / (1 - p))
    glm = sm.GLM(outcome, np.ones((len(p), 1)), family=sm.families.Binomial(), offset=logit).fit()
    assert v["calibration_intercept"] == pytest.approx(glm.params[0], abs=1e-6) and v["calibration_intercept"] < -1
    assert "ece" not in {m.id for m in ctx.metrics if m.role != "appendix"}
    cal = next(t for t in ctx.tables if t.id == "clinical_calibration")
    assert float(cal.rows[0][3]) < 0.5  # observed / expected
    assert ctx.scores.recalibration_loss["model"] > 0.1  # the share temperature scaling cannot see
    # a result, given by the calibration table beside the intercept and slope it comes from, not in the methods
    assert cal.columns[-1] == "recalibration gain" and "logistic recalibration" in cal.caption
    assert cal.rows[0][-1] == f"{ctx.scores.recalibration_loss['model'] * 100:.1f}%"
    text = "".join(sp.text for sp in ctx.methods[0].spans)
    assert "logistic recalibration" not in text and "Temperature scaling" not in text
    nb = next(t for t in ctx.tables if t.id == "decision_curve")
    assert [r[0] for r in nb.rows] == ["0.05", "0.1", "0.2"]
    assert {f"net_benefit@{t}" for t in ("0.05", "0.1", "0.2")} <= set(v)
    words = len(re.findall(r"\S+", text))
    assert words <= 220


def test_bad_options_are_one_sentence_before_any_work() -> None:
    for kw in ({"max_fpr": 1.0}, {"max_fpr": 0}, {"alerts": 0}, {"decision_thresholds": "0.3,0.2"},
               {"decision_thresholds": [0.0, 0.5]}):
        with pytest.raises(InputError) as e:
            PlanOptions(**kw).check()
        assert not re.search(r"[.!?] [A-Z]", str(e.value)) and str(e.value).endswith(".")  # one sentence
    y, s, pred = _fraud(n=100)
    with pytest.raises(InputError, match="larger than the test set"):
        build_report(FRAUD, {"y_true": list(y), "m": list(pred)}, scores={"m": s}, bootstrap=0, alerts=101)


@pytest.mark.parametrize("args, word", [(["--max-fpr", "1.5"], "--max-fpr"), (["--alerts", "0"], "--alerts"),
                                        (["--alerts", "99999"], "larger than the test set"),
                                        (["--decision-thresholds", "0.2,0.1"], "--decision-thresholds")])
def test_cli_refuses_bad_constraints_with_exit_2(tmp_path: Path, args: list[str], word: str) -> None:
    y, s, pred = _fraud(n=300)
    with open(tmp_path / "m.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y_true", "y_pred", "score"])
        w.writerows(zip(y, pred, s))
    (tmp_path / "a.yaml").write_text("task: binary\nclasses: [genuine, fraud]\npositive_class: fraud\noutputs: scores\n")
    r = CliRunner().invoke(app, ["report", "--answers", str(tmp_path / "a.yaml"), str(tmp_path / "m.csv"), *args,
                                 "-o", str(tmp_path / "r.md")])
    assert r.exit_code == 2, r.output
    assert word in r.output and "Traceback" not in r.output
    assert not (tmp_path / "r.md").exists()


def test_answers_refuse_bad_budgets_in_one_sentence() -> None:
    from advisor.questionnaire import answers_from_mapping

    for bad, key in (({**FRAUD, "fpr_budget": 1.5}, "fpr_budget"), ({**FRAUD, "review_share": 0}, "review_share"),
                     ({**RISK, "decision_thresholds": [0.2, 0.1]}, "decision_thresholds"),
                     ({"task": "multiclass", "fpr_budget": 0.05}, "fpr_budget")):
        with pytest.raises(InputError, match=key):
            answers_from_mapping(bad)


def test_ordered_forecasts_lead_with_the_ranked_probability_score_in_the_class_order() -> None:
    order = ["none", "light", "heavy"]
    answers = {"task": "multiclass", "classes": order, "label_structure": "ordinal", "risk_estimates": True,
               "outputs": "probabilities"}
    plan = make_plan(answers)
    assert plan.lead.id == "ranked_probability_score" and plan.lead.params["order"] == order
    assert {"log_loss", "rps_skill"} <= {m.id for m in plan.beside}
    rng = np.random.default_rng(3)
    y = rng.choice(order, size=300)
    proba = rng.dirichlet(np.ones(3), size=300) * 0.4
    proba[np.arange(300), [order.index(v) for v in y]] += 0.6
    pred = np.array(order)[proba.argmax(axis=1)]
    labels = sorted(order)  # probability arrays follow the data's classes (sorted), not the order of the answers
    given = proba[:, [order.index(c) for c in labels]]
    ctx = build_report(answers, {"y_true": list(y), "m": list(pred)}, scores={"m": given}, bootstrap=200, seed=1)
    assert ctx.scores.rps_order == order
    # a direct double loop over items and the k − 1 cumulative categories, in the class order
    total = 0.0
    for t in range(300):
        for j in range(2):
            total += (proba[t, : j + 1].sum() - float(order.index(y[t]) <= j)) ** 2
    v = ctx.systems[0].values
    assert v["ranked_probability_score"] == pytest.approx(total / 300)
    assert ctx.primary == "ranked_probability_score" and 0 < v["rps_skill"] < 1
    iv = ctx.systems[0].intervals["ranked_probability_score"]
    assert iv.low <= iv.estimate <= iv.high
