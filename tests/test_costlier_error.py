"""The costlier error named without a ratio (answers key ``costlier_error``; issue 22, the STARD reader: "It leads
with balanced accuracy 'as no ratio … was given', but the author says missed TB is the costly error").

Rule (rules_costs.yaml, ``costlier_error_named``): the rate of the costlier error leads, the other error's rate is
reported beside it and not merged with it; no weighted figure is defined without the ratio.
"""

from __future__ import annotations

import pytest

from advisor.questionnaire import QUESTIONS, Answers, condition_holds, recommend
from advisor.report import methods_texts

BASE = dict(context="A positive read leads to confirmatory testing, a negative one to discharge.", item_name="participant",
            task="binary", classes=["no tuberculosis", "tuberculosis"], positive_class="tuberculosis",
            true_negatives_meaningful=True, deployment_prevalence="same", test_set_balanced=False, outputs="labels",
            field="diagnostic_accuracy")


def _rec(**kw):
    return recommend({**BASE, **kw})


def _beside(r) -> set[str]:
    return {a.metric for a in r.complementary}


@pytest.mark.parametrize(("said", "tn", "lead", "other"), [
    ("missed", True, "recall", "specificity"),
    ("missed", False, "recall", "precision"),
    ("false_alarm", True, "specificity", "recall"),
    ("false_alarm", False, "precision", "recall"),
])
def test_the_costlier_errors_rate_leads_with_the_other_beside(said, tn, lead, other) -> None:
    r = _rec(costlier_error=said, true_negatives_meaningful=tn)
    assert r.primary.metric == lead
    assert other in _beside(r)
    assert "f_beta" not in {r.primary.metric} and "normalized_expected_cost" != r.primary.metric


@pytest.mark.parametrize("said", [None, "equal", "unknown"])
def test_without_a_named_costlier_error_the_balanced_lead_stays(said) -> None:
    kw = {} if said is None else {"costlier_error": said}
    assert _rec(**kw).primary.metric == "balanced_accuracy"


def test_known_costs_decide_and_the_question_is_not_asked() -> None:
    r = _rec(error_costs={"false_negative": 5, "false_positive": 1})
    assert r.primary.metric != "recall"  # the ratio defines a weighted figure
    a = Answers(**{**BASE, "error_costs": {"false_negative": 5, "false_positive": 1}})
    q = next(q for q in QUESTIONS if q.key == "costlier_error")
    assert not condition_holds(q.applies_when, a.facts())
    assert condition_holds(q.applies_when, Answers(**BASE).facts())


def test_an_open_threshold_keeps_the_ranking_lead() -> None:
    r = _rec(costlier_error="missed", outputs="scores", operating_point="open")
    assert r.primary.metric in ("roc_auc", "average_precision")


def test_an_unknown_answer_is_refused_in_one_sentence() -> None:
    with pytest.raises(ValueError, match="costlier_error"):
        Answers(**{**BASE, "costlier_error": "both"})


def _methods(**kw) -> str:
    return methods_texts({**BASE, **kw}, seed=1)[0]


def test_the_paragraph_argues_from_the_named_error() -> None:
    text = _methods(costlier_error="missed")
    assert ("Because a missed “tuberculosis” is the costlier error, we lead with sensitivity, the share of the "
            "participants with “tuberculosis” that are found.") in text
    assert "specificity stands beside the lead, not merged with it" in text
    assert "calls every participant “tuberculosis”" in text
    assert "balanced accuracy" not in text.split("**Evaluation.**")[1].split("Below,")[0]


def test_the_other_rate_is_not_listed_twice() -> None:
    text = _methods(costlier_error="missed", true_negatives_meaningful=False, field=None)
    body = text.split("**Evaluation.**")[1].split("Below,")[0]
    assert body.count("precision") == 1, body


def test_a_false_alarm_lead_says_what_is_cleared() -> None:
    text = _methods(costlier_error="false_alarm")
    # the other class named, as the missed-error lead names its class (the loan reader: who is approved)
    assert ("Because a false alarm is the costlier error, we lead with specificity, the share of “no tuberculosis” "
            "participants the system calls “no tuberculosis”") in text
    assert "never calls a participant “tuberculosis”" in text


@pytest.mark.parametrize(("said", "clause"), [
    ("equal", "as the two errors were said to cost alike"),
    (None, "as no ratio of the two errors' costs was fixed in advance"),
    ("unknown", "as no ratio of the two errors' costs was fixed in advance"),
])
def test_the_balanced_lead_says_why_in_the_authors_terms(said, clause) -> None:
    kw = {} if said is None else {"costlier_error": said}
    assert clause in _methods(**kw)


def test_the_screen_says_the_named_error_leads() -> None:
    # the loan reader: the screen said "specificity averages the per-class scores", a property, for a lead the
    # author's named error chose
    for costlier, words in (("false_alarm", "reads the costlier error, a false alarm"),
                            ("missed", "reads the costlier error, a missed positive")):
        screen = recommend(Answers(**{**BASE, "costlier_error": costlier})).to_text()
        assert words in " ".join(screen.split()), screen
        assert "averages the per-class scores" not in screen
