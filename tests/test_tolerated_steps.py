"""Ordered classes where one step off is tolerable (answers key ``tolerated_steps``; issue 22, the essay-scoring
reader: "The macro-MAE lead does not encode '2+ points matters, 1 point is tolerable'")."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.engine import ordinal_metrics
from advisor.questionnaire import Answers, recommend
from advisor.report import methods_texts

BASE = dict(context="Essays are scored 1-6 by the model against the resolved human score.", item_name="essay",
            label_structure="ordinal", task="multiclass", classes=[1, 2, 3, 4, 5, 6], outputs="labels")


def test_one_tolerated_step_puts_adjacent_agreement_first_with_a_distance_beside() -> None:
    r = recommend({**BASE, "tolerated_steps": 1})
    assert r.primary.metric == "adjacent_accuracy"
    beside = {a.metric for a in r.complementary}
    assert {"mae_macro", "weighted_kappa_quadratic"} <= beside  # a two-step error is not a five-step one


@pytest.mark.parametrize("kw", [{}, {"tolerated_steps": 0}])
def test_every_step_counting_keeps_the_distance_lead(kw) -> None:
    assert recommend({**BASE, **kw}).primary.metric == "mae_macro"


@pytest.mark.parametrize("bad", [2, -1, "one"])
def test_other_values_are_refused_naming_the_key(bad) -> None:
    with pytest.raises(ValueError, match="tolerated_steps"):
        Answers(**{**BASE, "tolerated_steps": bad})


def test_the_paragraph_says_why_in_the_authors_items() -> None:
    text = methods_texts({**BASE, "tolerated_steps": 1}, seed=1)[0]
    # the metric's source is cited at its definition; the reason is the author's premise, cited to no one
    assert ("We lead with adjacent agreement, the share of essays predicted within one step of "
            "the true class (Williamson et al. 2012), because one step off is tolerable here and a larger "
            "error is not.") in text


def test_with_the_field_named_the_premise_is_not_attributed_to_williamson() -> None:
    text = methods_texts({**BASE, "tolerated_steps": 1, "field": "automated_essay_scoring"}, seed=1)[0]
    assert "because one step off is tolerable here and a larger error is not. " in text
    assert "is not (Williamson" not in text


def test_one_tolerated_step_drops_figures_without_a_reason_of_the_authors() -> None:
    # balanced accuracy counts the tolerated step as a miss; plain MAE and the linear kappa had no reason here
    beside = {a.metric for a in recommend({**BASE, "tolerated_steps": 1}).complementary}
    assert not beside & {"balanced_accuracy", "mae", "weighted_kappa_linear"}
    assert {"balanced_accuracy", "mae", "weighted_kappa_linear"} <= \
        {a.metric for a in recommend({**BASE, "tolerated_steps": 0, "test_set_balanced": False}).complementary}


def test_one_minus_the_lead_is_the_share_off_by_two_steps_or_more() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(1, 7, 500)
    p = np.clip(y + rng.integers(-3, 4, 500), 1, 6)
    cm = np.zeros((6, 6))
    np.add.at(cm, (y - 1, p - 1), 1)  # rows: true class, in order
    adj = ordinal_metrics(cm, ["adjacent_accuracy"])["adjacent_accuracy"]
    assert 1 - adj == pytest.approx(float(np.mean(np.abs(y - p) >= 2)), abs=1e-12)
