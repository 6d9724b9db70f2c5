"""A raw expected cost is given with its reference point (the sarcasm reader: "a raw value such as 0.21 cannot be
judged"): what calling no item and every item positive cost at the same shares, and the normalized expected cost
beside it, which is exactly the expected cost divided by the cheaper of the two (Ferrer 2022). Values against the
`expected-cost` package of Ferrer's group and against sums by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml
from expected_cost import ec as ferrer  # the expected-cost package (Ferrer & Estienne), an independent implementation

from advisor import ConfusionMatrix
from advisor.engine import expected_cost, normalized_expected_cost
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report

SITUATIONS = Path(__file__).parent / "situations"
SARCASM = ConfusionMatrix([[610, 90], [40, 60]], ["literal", "sarcastic"])  # one post in eight sarcastic


def _evaluation(answers: Any, data: Any = None) -> str:
    ctx = build_report(answers, data, bootstrap=0, seed=1)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return " ".join("".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans).split())


def _package(counts: np.ndarray, fn: float, fp: float, priors: np.ndarray | None) -> tuple[float, float]:
    """(EC, NEC) by the expected-cost package: rows true class (negative first), columns decisions."""
    R = counts / counts.sum(axis=1, keepdims=True)
    pi = counts.sum(axis=1) / counts.sum() if priors is None else priors
    costs = ferrer.CostMatrix(np.array([[0.0, fp], [fn, 0.0]]))
    return (float(ferrer.average_cost_from_confusion_matrix(R, pi, costs)),
            float(ferrer.average_cost_from_confusion_matrix(R, pi, costs, adjusted=True)))


def test_the_normalized_expected_cost_is_the_expected_cost_over_the_cheaper_trivial_decision() -> None:
    plan = make_plan(load_answers(SITUATIONS / "sarcasm.yaml"))
    assert plan.lead.id == "expected_cost"
    nec = next(m for m in plan.beside if m.id == "normalized_expected_cost")
    assert nec.params.get("costs") == plan.lead.params["costs"] == {"fn": 3.0, "fp": 1.0}
    assert nec.params.get("priors") == plan.lead.params.get("priors")  # the same shares, the test set's
    counts = np.array([[610.0, 90.0], [40.0, 60.0]])
    pi = 100 / 800
    ec_ = expected_cost(SARCASM, nec.params["costs"], positive_label="sarcastic")
    nec_ = normalized_expected_cost(SARCASM, nec.params["costs"], positive_label="sarcastic")
    never, every = 3 * pi, 1 * (1 - pi)  # calling no post sarcastic: every sarcastic one missed; every post: all flagged
    assert abs(ec_ - (3 * 40 + 90) / 800) < 1e-12 and abs(nec_ - ec_ / min(never, every)) < 1e-12
    assert abs(nec_ - 0.7) < 1e-12
    pkg_ec, pkg_nec = _package(counts, 3, 1, None)
    assert abs(ec_ - pkg_ec) < 1e-12 and abs(nec_ - pkg_nec) < 1e-12
    # at other shares and costs, where always flagging is the cheaper trivial decision
    shares = np.array([0.3, 0.7])
    ec2 = expected_cost(SARCASM, {"fn": 5, "fp": 2}, {"literal": 0.3, "sarcastic": 0.7}, positive_label="sarcastic")
    nec2 = normalized_expected_cost(SARCASM, {"fn": 5, "fp": 2}, {"literal": 0.3, "sarcastic": 0.7},
                                    positive_label="sarcastic")
    assert abs(nec2 - ec2 / min(5 * 0.7, 2 * 0.3)) < 1e-12
    pkg_ec2, pkg_nec2 = _package(counts, 5, 2, shares)
    assert abs(ec2 - pkg_ec2) < 1e-12 and abs(nec2 - pkg_nec2) < 1e-12


def test_the_expected_cost_lead_is_said_with_its_reference_point() -> None:
    answers = load_answers(SITUATIONS / "sarcasm.yaml")
    # without data: the two trivial decisions' costs as formulas in the share of "sarcastic"
    before = _evaluation(answers)
    assert ("For reference, calling no reported post “sarcastic” costs 3π and calling every one 1 − π, with π the "
            "share of “sarcastic”; we also give the normalized expected cost, expected cost divided by the cheaper "
            "of the two.") in before
    # with data: the numbers at the test set's shares (100 of 800 posts sarcastic: 3 × 0.125 and 0.875)
    after = _evaluation(answers, {"detector": SARCASM})
    assert "calling no reported post “sarcastic” costs 0.38 here and calling every one 0.88" in after
    ctx = build_report(answers, {"detector": SARCASM}, bootstrap=0, seed=1)
    assert "normalized_expected_cost" in [m.id for m in ctx.metrics]


def test_a_second_cost_situation_weighs_the_reference_at_the_shares_in_use(tmp_path: Path) -> None:
    # a spam filter whose shares in use are given: the reference costs are at those shares, not the test set's
    spam: dict[str, Any] = {
        "context": "Incoming mail is filtered for spam; a lost legitimate mail costs five missed spams.",
        "item_name": "mail", "task": "binary", "classes": ["ham", "spam"], "positive_class": "spam",
        "true_negatives_meaningful": False, "test_set_balanced": False, "deployment_prevalence": "shifted",
        "target_prevalence": {"ham": 0.4, "spam": 0.6}, "error_costs": {"false_negative": 1, "false_positive": 5},
        "outputs": "labels"}
    (tmp_path / "spam.yaml").write_text(yaml.safe_dump(spam, allow_unicode=True), encoding="utf-8")
    answers = load_answers(tmp_path / "spam.yaml")
    plan = make_plan(answers)
    assert plan.lead.id == "expected_cost" and plan.lead.params.get("priors") == {"ham": 0.4, "spam": 0.6}
    assert any(m.id == "normalized_expected_cost" and m.params.get("priors") == plan.lead.params["priors"]
               for m in plan.beside)
    cm = ConfusionMatrix([[300, 20], [50, 130]], ["ham", "spam"])
    text = _evaluation(answers, {"filter": cm})
    assert "calling no mail “spam” costs 0.60 here and calling every one 2.00" in text  # 1 × 0.6 and 5 × 0.4
