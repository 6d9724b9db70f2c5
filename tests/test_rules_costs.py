"""Rules for costs, scores and probabilities (rules_costs.yaml, issue 11)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.questionnaire import Answers, load_answers, recommend

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "answers"


def test_medical_screening_example_leads_with_nec_at_two_percent() -> None:
    r = recommend(load_answers(EXAMPLES / "medical_screening.yaml"))
    assert r.primary.metric == "normalized_expected_cost"
    assert r.primary.params["priors"] == {"healthy": 0.98, "disease": 0.02}
    assert "healthy: 0.98, disease: 0.02" in r.primary.reason
    beside = [a.metric for a in r.complementary]
    assert "recall" in beside and "specificity" in beside
    # evaluated at the stated shares: no prevalence warning against the lead
    assert not any("Normalized expected cost" in w.message for w in r.warnings if w.code == "prevalence_dependent")


def test_without_the_new_keys_the_costs_still_define_the_lead() -> None:
    """Issue 19, item 1: labels (or outputs not stated) are decisions at a fixed operating point, so known costs
    define the lead whether or not operating_point is answered; only an open threshold changes that."""
    data = load_answers(EXAMPLES / "medical_screening.yaml").model_dump()
    data.pop("operating_point")
    assert recommend(Answers(**data)).primary.metric == "normalized_expected_cost"
    for outputs in ("labels", None):
        assert recommend(Answers(**{**data, "outputs": outputs, "probabilities": False})).primary.metric == \
            "normalized_expected_cost"
    data.pop("error_costs")
    assert recommend(Answers(**data)).primary.metric == "balanced_accuracy"


def test_retrieval_like_costs_keep_f_beta() -> None:
    a = Answers(task="binary", classes=["other", "hit"], positive_class="hit", true_negatives_meaningful=False,
                error_costs={"false_negative": 4, "false_positive": 1}, operating_point="fixed", outputs="labels")
    assert recommend(a).primary.metric == "f_beta"


@pytest.mark.parametrize(("answers", "lead"), [
    (dict(task="binary", classes=["ok", "fraud"], positive_class="fraud", true_negatives_meaningful=False,
          test_set_balanced=False, outputs="scores", operating_point="open"), "average_precision"),
    (dict(task="binary", classes=["ok", "fraud"], positive_class="fraud", true_negatives_meaningful=True,
          outputs="scores", operating_point="open"), "roc_auc"),
    (dict(task="binary", classes=["no", "yes"], positive_class="yes", probabilities=True, risk_estimates=True),
     "log_loss"),
    (dict(classes=["a", "b", "c"], error_costs={"matrix": [[0, 1, 4], [1, 0, 1], [8, 2, 0]]},
          operating_point="fixed"), "normalized_expected_cost"),
])
def test_new_keys_set_the_lead(answers: dict, lead: str) -> None:
    r = recommend(Answers(**answers))
    assert r.primary.metric == lead
    assert r.primary.metric not in [d.metric for d in r.discouraged]


def test_risk_estimates_put_brier_and_calibration_beside_log_loss() -> None:
    # issue 21: binary risks are checked the clinical way (intercept, slope, ICI), not by the top-label ECE, which
    # can call risks that are all too high well calibrated; multi-class risks keep the ECE
    r = recommend(Answers(task="binary", classes=["no", "yes"], positive_class="yes", outputs="probabilities",
                          risk_estimates=True))
    beside = {a.metric for a in r.complementary}
    # two classes: the Brier score in its binary form (scikit-learn's and most fields')
    assert {"brier_binary", "calibration_intercept", "calibration_slope", "ici"} <= beside and "ece" not in beside
    assert not beside & {"accuracy", "recall", "specificity", "precision"}  # no decisions at a threshold nobody chose
    r = recommend(Answers(task="multiclass", classes=["a", "b", "c"], outputs="probabilities", risk_estimates=True))
    assert {"brier", "ece"} <= {a.metric for a in r.complementary}


@pytest.mark.parametrize("name", ["fraud_ranking.yaml", "risk_estimates.yaml"])
def test_new_examples_load_and_lead(name: str) -> None:
    r = recommend(load_answers(EXAMPLES / name))
    assert r.primary.metric == {"fraud_ranking.yaml": "average_precision", "risk_estimates.yaml": "log_loss"}[name]


def test_ask_takes_a_cost_matrix_for_multiclass_tasks() -> None:
    from advisor.questionnaire._answers import QUESTIONS
    from advisor.questionnaire._ask import parse_reply
    from advisor.questionnaire._conditions import holds

    q = next(q for q in QUESTIONS if q.key == "error_costs")
    answers = {"task": "multiclass", "classes": ["a", "b", "c"]}
    assert holds(q.applies_when, Answers(**answers).facts())
    got = parse_reply(q, "matrix: 0 1 4; 1 0 1; 8 2 0", answers)
    assert got == {"matrix": [[0.0, 1.0, 4.0], [1.0, 0.0, 1.0], [8.0, 2.0, 0.0]]}
    assert Answers(**answers, error_costs=got).error_costs.matrix == got["matrix"]
    with pytest.raises(ValueError, match="square"):
        parse_reply(q, "matrix: 0 1; 1 0", answers)


def test_probabilities_true_still_means_outputs_probabilities() -> None:
    assert Answers(task="binary", probabilities=True).facts()["outputs"] == "probabilities"
    assert Answers(task="binary", outputs="scores").facts()["outputs"] == "scores"
