"""Systems ranked on one shared test set: the field's figure leads when what set it aside matters only where class
shares change between the test set and use (the RumourEval reader). Every system meets the same shares there, so a
prevalence-dependent figure ranks them as well; a figure that fails what a ranking on one set depends on (monotone,
class-sensitive where every class counts) keeps the property lead, and so does a ranking whose shares in use were
said to differ."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from advisor.engine import chance_levels
from advisor.plan import make_plan
from advisor.questionnaire import load_answers, recommend

SITUATIONS = Path(__file__).parent / "situations"


def _answers(name: str, **changes: Any) -> dict[str, Any]:
    data = yaml.safe_load((SITUATIONS / f"{name}.yaml").read_text())
    data.update(changes)
    return dict(data)


def test_the_shared_task_ranks_by_the_fields_macro_f1_with_balanced_accuracy_beside() -> None:
    rec = recommend(load_answers(SITUATIONS / "shared_task.yaml"))
    assert rec.primary.metric == "macro_f1"
    beside = {a.metric: a.reason for a in rec.complementary}
    assert "does not change when only the class frequencies change" in beside["balanced_accuracy"]
    assert "every random classifier scores 1/4 on it in expectation" in beside["balanced_accuracy"]
    # avoided only for depending on class shares: no longer avoided; weighted F1 still is, for not being monotone
    against = {d.metric: d.reason for d in rec.discouraged}
    assert "macro_precision" not in against and "f1_of_averages" not in against
    assert "monotonicity" in against["weighted_f1"] and "prevalence invariance" not in against["weighted_f1"]
    screen = " ".join(rec.to_text().split())
    assert "The systems are ranked on one test set, where every system meets the same class shares" in screen
    # only the 2019 edition ranked by macro F1 (the s35 reader): the figure is said to be that edition's
    assert "macro F1 is the figure reported in RumourEval 2019" in screen and "shared tasks" not in screen
    # the plan agrees, and says which answers the lead rests on
    plan = make_plan(load_answers(SITUATIONS / "shared_task.yaml"))
    assert plan.lead.id == "macro_f1" and {"field", "ranking"} <= set(plan.lead.answers)


def test_a_field_whose_figure_is_the_property_lead_keeps_it() -> None:
    # SemEval-2017 Task 4A ranks by AvgRec, balanced accuracy: ranking changes nothing there
    for ranking in (False, True):
        rec = recommend(_answers("sentiment", ranking=ranking))
        assert rec.primary.metric == "balanced_accuracy"
        assert "The systems are ranked on one test set" not in rec.to_text()


def test_shares_said_to_differ_in_use_keep_the_property_lead() -> None:
    # the author said the shares in use differ: a ranking at the test set's shares need not be the ranking in use
    rec = recommend(_answers("shared_task", deployment_prevalence="shifted"))
    assert rec.primary.metric == "balanced_accuracy"


def test_a_field_figure_that_lets_the_large_classes_decide_does_not_lead_a_ranking() -> None:
    # topic classification reports accuracy; ranked on an imbalanced test set where every class counts equally,
    # accuracy is not class-sensitive, which matters on one test set too: the property lead stays
    answers = {"context": "News articles are sorted into four topics in a benchmark that ranks many systems.",
               "item_name": "article", "task": "multiclass", "classes": ["world", "sports", "business", "tech"],
               "field": "text_classification", "ranking": True, "test_set_balanced": False,
               "deployment_prevalence": "unknown", "class_weighting": "equal"}
    assert recommend(answers).primary.metric == "balanced_accuracy"
    # with shares said to differ in use, not either
    shifted = {**answers, "deployment_prevalence": "shifted"}
    assert recommend(shifted).primary.metric == "balanced_accuracy"
    # where every item counts alike, nothing argues against the field's accuracy
    items = {**answers, "class_weighting": "per_instance"}
    assert recommend(items).primary.metric == "accuracy"


def test_a_required_chance_correction_keeps_the_property_lead() -> None:
    # a fixed chance score demanded: macro F1 has no constant baseline, so it cannot lead
    rec = recommend(_answers("shared_task", chance_correction="required"))
    assert rec.primary.metric != "macro_f1"


def test_balanced_accuracy_scores_one_over_k_for_every_random_classifier() -> None:
    # the claim behind "every random guesser scores 1/4 on it": the chance levels module's three references on an
    # imbalanced four-class test set, and by hand a random classifier of any bias, C[i, j] = a_i q_j
    a = np.array([700.0, 60.0, 90.0, 150.0])
    levels = chance_levels(np.diag(a), ["balanced_accuracy"])["balanced_accuracy"]
    assert all(abs(v - 0.25) < 1e-12 for v in levels.values())
    for q in (np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.97, 0.01, 0.01, 0.01])):
        C = np.outer(a, q)
        assert abs(np.mean(np.diag(C) / C.sum(axis=1)) - 0.25) < 1e-12
        # and so its chance-corrected form (BA − 1/k)/(1 − 1/k) is an increasing affine map of it: the same ranking
