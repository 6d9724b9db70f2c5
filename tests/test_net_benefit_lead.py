"""Net benefit leads when the author states the risks at which the probabilities are acted on (decision_thresholds).

The sepsis reader (blind, clinical prediction): "The log-loss lead ignores the stated 5–20% action range … it rewards
accuracy at risks nobody acts on." A proper score weighs every risk; with the thresholds of use stated, the lead is
what acting on the risks gains there, against treating everyone and no one (Vickers & Elkin 2006). Without stated
thresholds the proper score keeps the lead. Checked on the sepsis situation and on a second, different answers file
(no field, one threshold, another item), and the values against the formula by hand and against ``dcurves``.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from advisor.plan import make_plan
from advisor.questionnaire import load_answers, recommend
from advisor.report import build_report, render_report

SITUATIONS = Path(__file__).parent / "situations"

#: a second kind of answers: a readmission risk model, no field, one threshold, patients
READMISSION = dict(task="binary", classes=["home", "readmitted"], positive_class="readmitted", item_name="patient",
                   outputs="probabilities", risk_estimates=True, decision_thresholds=[0.15],
                   true_negatives_meaningful=True, deployment_prevalence="same")


def _evaluation(answers, data=None, **kw) -> str:
    ctx = build_report(answers, data, bootstrap=kw.pop("bootstrap", 2000), seed=1, **kw)
    return "".join(s.text if s.kind in ("text", "strong") else " X " for p in ctx.methods
                   if p.heading == "Evaluation" for s in p.spans)


def test_sepsis_leads_with_net_benefit_at_its_thresholds_everywhere() -> None:
    answers = load_answers(SITUATIONS / "sepsis.yaml")
    rec = recommend(answers)
    assert rec.primary.metric == "net_benefit" and rec.primary.params["thresholds"] == [0.05, 0.1, 0.2]
    assert "log_loss" in {a.metric for a in rec.complementary}  # an overall score, beside
    assert rec.to_text().startswith("Lead with net benefit at risk thresholds 0.05, 0.1 and 0.2\n")
    plan = make_plan(answers)
    assert plan.lead.id == "net_benefit" and plan.lead.name == "Net benefit at risk thresholds 0.05, 0.1 and 0.2"
    assert [m.id for m in plan.lead_rows()] == ["net_benefit@0.05", "net_benefit@0.1", "net_benefit@0.2"]
    assert plan.to_json_dict()["metrics"][0]["id"] == "net_benefit"
    beside = {m.id for m in plan.beside}
    assert {"roc_auc", "calibration_intercept", "calibration_slope", "ici", "log_loss", "brier_binary"} <= beside
    assert not any(i.startswith("net_benefit") for i in beside)  # the lead is not listed again beside itself
    text = _evaluation(answers)
    assert ("Because the risks of “sepsis” are acted on at the thresholds 0.05, 0.1 and 0.2, we lead with the net "
            "benefit at each of them, against treating every admission and treating none") in text
    assert "Log loss and Brier score, which also weigh the accuracy of risks at which no one acts, are given as " \
           "overall scores" in text
    assert "we lead with log loss" not in text.lower()
    assert text.count("decision curve") == 1  # the curve's sentence is kept, not repeated
    assert "ROC AUC, calibration intercept and calibration slope" in text  # discrimination and calibration beside


def test_a_second_kind_of_answers_gets_the_same_principle() -> None:
    rec = recommend(READMISSION)
    assert rec.primary.metric == "net_benefit"
    plan = make_plan(READMISSION)
    assert [m.id for m in plan.lead_rows()] == ["net_benefit@0.15"]
    assert plan.lead.name == "Net benefit at risk threshold 0.15"
    text = _evaluation(READMISSION)
    assert ("Because the risks of “readmitted” are acted on at the threshold 0.15, we lead with the net benefit at "
            "it, against treating every patient and treating none") in text, text
    assert "are given as overall scores" in text and "we lead with log loss" not in text.lower()


@pytest.mark.parametrize("answers", [READMISSION, "sepsis"])
def test_without_stated_thresholds_the_proper_score_keeps_the_lead(answers) -> None:
    a = (load_answers(SITUATIONS / f"{answers}.yaml").model_dump(exclude_unset=True) if isinstance(answers, str)
         else dict(answers))
    del a["decision_thresholds"]
    assert recommend(a).primary.metric == "log_loss"
    assert make_plan(a).lead.id == "log_loss"
    assert not any(m.id.startswith("net_benefit") for m in make_plan(a).beside)
    assert "we lead with log loss" in _evaluation(a).lower()


def test_a_fixed_decision_with_the_costlier_error_keeps_its_one_lead() -> None:
    # the loan reader's single lead: the costlier error's rate, net benefit beside it
    a = load_answers(SITUATIONS / "loan.yaml").model_dump(exclude_unset=True)
    a["decision_thresholds"] = [0.1, 0.3]
    plan = make_plan(a)
    assert plan.lead.id == "specificity"
    assert {"net_benefit@0.1", "net_benefit@0.3"} <= {m.id for m in plan.beside}


def _risks(n: int = 500, seed: int = 7):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    p = 1 / (1 + np.exp(-(-1.8 + 1.2 * x)))
    y = np.where(rng.random(n) < p, "readmitted", "home")
    q = np.clip(p * rng.uniform(0.7, 1.3, size=n), 1e-6, 1 - 1e-6)  # a second, noisier model
    return y, p, q


def test_the_lead_rows_are_the_net_benefit_by_hand_and_by_dcurves() -> None:
    dcurves = pytest.importorskip("dcurves")
    import pandas as pd

    y, p, q = _risks()
    answers = {**READMISSION, "decision_thresholds": [0.05, 0.15, 0.3]}
    data = {"y_true": list(y), "a": list(np.where(p >= 0.15, "readmitted", "home")),
            "b": list(np.where(q >= 0.15, "readmitted", "home"))}
    ctx = build_report(answers, data, scores={"a": np.c_[1 - p, p], "b": np.c_[1 - q, q]}, bootstrap=200, seed=1)
    assert ctx.lead_ids == ["net_benefit@0.05", "net_benefit@0.15", "net_benefit@0.3"]
    assert ctx.lead_name == "Net benefit at risk thresholds 0.05, 0.15 and 0.3"
    yy = (y == "readmitted").astype(int)
    n = len(yy)
    for name, r in (("a", p), ("b", q)):
        values = next(s for s in ctx.systems if s.name == name).values
        frame = dcurves.dca(data=pd.DataFrame({"y": yy, "r": r}), outcome="y", modelnames=["r"],
                            thresholds=[0.05, 0.15, 0.3])
        for t in (0.05, 0.15, 0.3):
            hand = ((r >= t) & (yy == 1)).sum() / n - ((r >= t) & (yy == 0)).sum() / n * t / (1 - t)
            theirs = frame[(frame.model == "r") & np.isclose(frame.threshold, t)].net_benefit.iloc[0]
            assert values[f"net_benefit@{t:g}"] == pytest.approx(hand, abs=1e-12)
            assert values[f"net_benefit@{t:g}"] == pytest.approx(theirs, abs=1e-12)
            every = frame[(frame.model == "all") & np.isclose(frame.threshold, t)].net_benefit.iloc[0]
            assert ctx.treat_all(f"net_benefit@{t:g}") == pytest.approx(every, abs=1e-12)
            assert ctx.systems[0].intervals.get(f"net_benefit@{t:g}") is not None
    # the summary box gives every threshold its values, its winners and treating everyone and none
    md = render_report(ctx, "md")
    box = md.split("## Methods")[0]
    assert "**Primary metric:** Net benefit at risk thresholds 0.05, 0.15 and 0.3." in box
    for t in ("0.05", "0.15", "0.3"):
        assert f"*At risk threshold {t}* (treating everyone " in box and box.count(f"At risk threshold {t}*") == 1
    assert len(re.findall(r"^> a: ", box, flags=re.M)) == 3 and box.count("Winner") == 3
    html = render_report(ctx, "html")
    assert html.count("<em>At risk threshold") == 3
