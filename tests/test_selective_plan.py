"""Issue 23 item 2: answers `abstention` and `target_coverage`, and the plan they lead to.

A system that may abstain leads with the selective risk at the target coverage — at the cut frozen on a calibration
half when no cut was fixed in advance (the dermatology reader), at the test set's own cut otherwise — or with the AURC
when no coverage was fixed; never with a flat metric of every item (the issue's dermatology case got a 4-class ROC AUC).
"""

from __future__ import annotations

import pytest

from advisor import make_plan
from advisor._exceptions import InputError
from advisor.questionnaire import Answers, answers_from_mapping, recommend

DERM = {"task": "multiclass", "classes": ["melanoma", "nevus", "keratosis", "other"], "outputs": "probabilities",
        "abstention": True, "context": "A dermatology model that defers to a dermatologist when unsure."}


def test_abstention_with_a_target_coverage_leads_with_the_selective_risk_at_it() -> None:
    # no cut fixed in advance: the cut that answers the coverage is fixed on a calibration half and frozen
    plan = make_plan({**DERM, "target_coverage": 0.8})
    assert plan.lead.id == "risk_at_frozen_coverage"
    assert plan.lead.params == {"coverage": 0.8, "confidence_from": "top-label probability"}
    assert plan.lead.family == "score"
    assert "target_coverage" in plan.lead.answers and "abstention" in plan.lead.answers
    assert "aurc" in [m.id for m in plan.beside] and "selective_risk" not in [m.id for m in plan.beside]
    assert "0.8" in plan.lead.reason and "random half" in plan.lead.reason and "frozen" in plan.lead.reason
    # a cut fixed in advance: the selective risk at the coverage, the most confident items of the test set
    plan = make_plan({**DERM, "target_coverage": 0.8, "operating_point": "fixed"})
    assert plan.lead.id == "selective_risk"
    assert plan.lead.params == {"coverage": 0.8, "confidence_from": "top-label probability"}
    assert "aurc" in [m.id for m in plan.beside]
    assert "0.8" in plan.lead.reason and "most confident" in plan.lead.reason


def test_abstention_without_a_coverage_leads_with_aurc() -> None:
    rec = recommend(Answers(**DERM))
    assert rec.primary.metric == "aurc"
    assert make_plan(DERM).lead.id == "aurc"


def test_without_abstention_nothing_changes() -> None:
    plain = {k: v for k, v in DERM.items() if k != "abstention"}
    assert make_plan(plain).lead.id not in ("aurc", "selective_risk")


def test_coverage_option_replaces_the_answers_and_implies_abstention() -> None:
    plain = {k: v for k, v in DERM.items() if k != "abstention"}
    plan = make_plan(plain, options={"coverage": 0.7})
    assert plan.lead.id == "risk_at_frozen_coverage" and plan.lead.params["coverage"] == 0.7


@pytest.mark.parametrize("bad", [0, -0.2, 1.5, float("nan")])
def test_target_coverage_outside_zero_one_is_refused(bad: float) -> None:
    with pytest.raises(InputError, match="greater than 0 and at most 1") as err:
        answers_from_mapping({**DERM, "target_coverage": bad}, "answers")
    assert "key 'target_coverage'" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(InputError, match="greater than 0 and at most 1"):
        make_plan(DERM, options={"coverage": bad})


def test_target_coverage_one_is_allowed_and_needs_abstention() -> None:
    assert answers_from_mapping({**DERM, "target_coverage": 1.0}, "answers").target_coverage == 1.0
    with pytest.raises(InputError, match="abstention: true"):
        answers_from_mapping({**DERM, "abstention": False, "target_coverage": 0.9}, "answers")


def test_a_reject_label_that_is_a_class_is_refused() -> None:
    with pytest.raises(InputError, match="also a true class"):
        make_plan(DERM, options={"reject_label": "nevus"})
    with pytest.raises(InputError, match="also one of the classes") as err:
        answers_from_mapping({**DERM, "reject_label": "nevus"}, "answers")
    assert "key 'reject_label'" in str(err.value)


def test_a_reject_label_is_stated_in_the_plan() -> None:
    plan = make_plan({**DERM, "target_coverage": 0.9}, options={"reject_label": "unsure"})
    assert plan.lead.params["reject_label"] == "unsure"
    assert plan.lead.params["confidence_from"].startswith("reject label")
    assert "reject_label" in plan.lead.answers


def test_the_questionnaire_asks_coverage_only_of_a_system_that_abstains() -> None:
    from advisor.questionnaire import QUESTIONS
    from advisor.questionnaire._ask import parse_reply

    q = next(q for q in QUESTIONS if q.key == "target_coverage")
    assert q.applies_when == {"abstention": True}
    assert parse_reply(q, "80%", {}) == 0.8 and parse_reply(q, "1", {}) == 1.0 and parse_reply(q, "none", {}) is None
    for bad in ("0", "1.2", "most"):
        with pytest.raises(ValueError):
            parse_reply(q, bad, {})


def test_abstention_with_labels_alone_warns_instead_of_promising_a_selective_risk() -> None:
    plan = make_plan({**DERM, "outputs": "labels", "target_coverage": 0.8})
    assert plan.lead.id not in ("selective_risk", "aurc")
    assert "abstention_without_confidence" in [w.code for w in plan.warnings]
