"""The cost lead of a two-class clinical decision read as net benefit (Vickers & Elkin 2006): with costs c_FN and
c_FP, the expected cost of a set of calls at the test set's shares is c_FN·(π − NB), NB their net benefit at the risk
threshold c_FP/(c_FP + c_FN). The paragraph says so in the clinical fields (the s30 retinopathy reader); the identity is
checked here against advisor's expected cost and, independently, dcurves' net benefit of the calls."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from advisor.engine import ConfusionMatrix, expected_cost, net_benefit, normalized_expected_cost
from advisor.questionnaire import load_answers
from advisor.report import build_report
from advisor.report._methods import net_benefit_reading


SITUATIONS = __import__("pathlib").Path(__file__).parent / "situations"


@pytest.mark.parametrize("fn, fp", [(20, 1), (10, 1), (3, 2)])
def test_expected_cost_is_a_decreasing_line_of_the_net_benefit_of_the_calls(fn, fp):
    rng = np.random.default_rng(fn * 7 + fp)
    n = 500
    y = (rng.random(n) < 0.1).astype(int)
    t = fp / (fp + fn)
    ec, nb = [], []
    for skill in (0.0, 0.3, 0.6, 0.9):  # four systems' calls
        call = np.where(rng.random(n) < skill, y, (rng.random(n) < 0.3).astype(int))
        cm = ConfusionMatrix(np.array([[np.sum((y == 0) & (call == 0)), np.sum((y == 0) & (call == 1))],
                                       [np.sum((y == 1) & (call == 0)), np.sum((y == 1) & (call == 1))]]), [0, 1])
        e = expected_cost(cm, {"fn": fn, "fp": fp}, positive_label=1)
        b = float(net_benefit(y, call.astype(float), [t])[0][0])
        assert e == pytest.approx(fn * (y.mean() - b), abs=1e-12)
        ec.append(normalized_expected_cost(cm, {"fn": fn, "fp": fp}, positive_label=1))
        nb.append(b)
        dcurves = pytest.importorskip("dcurves")  # an independent net benefit of the same calls
        df = pd.DataFrame({"y": y, "call": call.astype(float)})
        ref = dcurves.dca(data=df, outcome="y", modelnames=["call"], thresholds=[t])
        ref_nb = float(ref.loc[ref["model"] == "call", "net_benefit"].iloc[0])
        assert b == pytest.approx(ref_nb, abs=1e-12)
    assert np.argsort(ec).tolist() == np.argsort(-np.array(nb)).tolist()  # the same order


def test_the_retinopathy_paragraph_reads_its_cost_lead_as_net_benefit():
    answers = load_answers(SITUATIONS / "retinopathy.yaml")
    ctx = build_report(answers, None, bootstrap=2000, seed=1)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    text = "".join(s.text for s in p.spans if s.kind != "cite")
    assert "it orders systems as the net benefit of their calls at a risk threshold of 1/21 does" in text
    assert any(s.kind == "cite" and any("vickers2006" in k for k in s.keys) for s in p.spans)


def test_outside_the_clinical_fields_or_without_two_costs_it_is_not_said():
    assert net_benefit_reading({"task": "binary", "field": "fraud_detection",
                                "error_costs": {"false_negative": 20, "false_positive": 1}}) is None
    assert net_benefit_reading({"task": "multiclass", "field": "diagnostic_accuracy",
                                "error_costs": {"matrix": [[0, 1], [2, 0]]}}) is None
    assert "0.333" not in (net_benefit_reading({"task": "binary", "field": "clinical_prediction",
                                                "error_costs": {"false_negative": 2, "false_positive": 1}}) or "")
    assert "1/3" in net_benefit_reading({"task": "binary", "field": "clinical_prediction",
                                         "error_costs": {"false_negative": 2, "false_positive": 1}})
