"""Issue 11, item 6: metrics beside the lead are chosen for the information they add.

Tested on principle over every bundled answers file, not on the examples' outputs only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.questionnaire import load_answers, recommend
from advisor.questionnaire._choice import load_choice
from advisor.questionnaire._rules import load_rules
from advisor.questionnaire._words import CAVEAT

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = sorted([*ROOT.glob("examples/answers/*.yaml"), *ROOT.glob("examples/**/*answers*.yaml")])
ANSWERS = list(dict.fromkeys(ANSWERS))


def _rec(path: Path):
    return recommend(load_answers(path))


def test_there_are_answers_files_to_scan():
    assert len(ANSWERS) >= 10


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name)
def test_no_metric_is_both_recommended_and_advised_against(path: Path):
    r = _rec(path)
    recommended = {r.primary.metric, *(a.metric for a in r.complementary)}
    names = {r.primary.name, *(a.name for a in r.complementary)}
    assert not recommended & {d.metric for d in r.discouraged}
    for w in r.warnings:
        if w.code in CAVEAT:  # said as a caveat beside the metric it names, not against it
            continue
        head = w.message.split(":")[0]
        assert not any(f"Use {n}" in w.message for n in names if n and n != r.primary.name), (w.code, w.message)
        assert "does not fit" not in head, (w.code, w.message)


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name)
def test_metrics_beside_the_lead_add_distinct_views(path: Path):
    r = _rec(path)
    book = load_rules()
    ids = [r.primary.metric, *(a.metric for a in r.complementary)]
    names = {r.primary.metric: r.primary.name, **{a.metric: a.name for a in r.complementary}}
    reasons = {a.metric: a.reason for a in r.complementary}
    assert len(ids) == len(set(ids))
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            # two metrics that rank every set of systems alike add one view, unless the reason of the
            # second states the relation (the impossibility theorem's way out: MCC beside arccos(MCC)/π)
            said = names[a].lower() in reasons[b].lower()
            assert not book.equivalent(a, b) or said, f"{a} and {b} rank every set of systems alike"
    for a in r.complementary:
        assert "runner-up among" not in a.reason and "(property score" not in a.reason  # the old runners-up


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name)
def test_caveats_are_said_wherever_the_metric_is_offered(path: Path):
    caveats = load_choice().caveats
    for a in _rec(path).complementary:
        if a.metric in caveats:
            assert caveats[a.metric] in a.reason


def test_recall_means_that_vanish_with_one_class_say_so():
    r = recommend({"task": "multiclass", "n_classes": 4, "planned_metrics": ["G-mean"]})
    beside = {a.metric: a.reason for a in r.complementary}
    assert "recall 0" in beside["geometric_macro_recall"]


def test_ranking_views_replace_the_runners_up():
    """The issue's examples: no geometric/harmonic recall for digits, no macro precision for 100 classes."""
    digits = _rec(ROOT / "examples/report/digits_answers.yaml")
    ids = {a.metric for a in digits.complementary}
    assert digits.primary.metric == "balanced_accuracy"
    assert not ids & {"geometric_macro_recall", "harmonic_macro_recall"}
    assert {"accuracy", "macro_f1"} <= ids  # customary figure and the planned community metric
    many = recommend({"task": "multiclass", "n_classes": 100, "ranking": True})
    assert "macro_precision" not in {a.metric for a in many.complementary}
    assert many.primary.metric == "balanced_accuracy"
    assert [a.metric for a in many.complementary] == ["accuracy"]


def test_annotation_study_names_the_customary_figure_first():
    r = recommend({"task": "multiclass", "n_classes": 4, "symmetric": True, "chance_correction": "required",
                   "ranking": True})
    assert r.primary.metric == "sba"  # the verified property filter still decides the lead
    assert r.complementary[0].metric == "cohen_kappa"


def test_planned_community_metric_is_reported_beside_the_lead_with_its_formula():
    r = _rec(ROOT / "examples/answers/shared_task_multiclass.yaml")
    assert r.primary.metric == "balanced_accuracy"
    beside = {a.metric: a.reason for a in r.complementary}
    assert "macro_f1" in beside and "(1/k) Σ_i F1_i" in beside["macro_f1"]
    assert "not as the lead (prevalence invariance (PIV)" in beside["macro_f1"]
    assert "macro_f1" not in {d.metric for d in r.discouraged}
    assert "f1_of_averages" in {d.metric for d in r.discouraged}  # the other "macro F1" is still discouraged
    comment = next(e.text for e in r.rationale if e.rule == "planned_metric")
    # issue 22: what a community reports is said only from the table of fields, with its citation; a planned
    # metric is reported "as planned", with its formula
    assert "as planned, with its formula" in comment and "community reports" not in comment


def test_chance_view_is_added_when_the_lead_has_no_fixed_chance_score():
    r = recommend({"task": "multiclass", "n_classes": 5, "class_weighting": "per_instance", "ranking": True,
                   "chance_correction": "preferred"})
    assert r.primary.metric == "accuracy"
    ids = [a.metric for a in r.complementary]
    assert "adjusted_balanced_accuracy" in ids or "balanced_accuracy" in ids


def test_choice_names_only_catalogue_metrics():
    from advisor.catalogue import get_catalogue

    assert load_choice().metric_ids() <= set(get_catalogue().metrics)


def _situations():
    import itertools

    tasks = [{"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos"},
             {"task": "binary", "classes": ["a", "b"]}, {"task": "multiclass", "n_classes": 4},
             {"task": "multiclass", "n_classes": 40}]
    extras = [{}, {"symmetric": True}, {"true_negatives_meaningful": False},
              {"error_costs": {"false_negative": 5, "false_positive": 1}, "operating_point": "fixed"},
              {"deployment_prevalence": "unknown", "class_weighting": "equal"},
              {"class_weighting": "per_instance"}]
    for task, extra, ranking, chance, planned in itertools.product(
            tasks, extras, (True, False), ("preferred", "required", "not_needed"),
            ([], ["macro F1"], ["accuracy", "G-mean"], ["MCC", "Cohen's kappa"])):
        answers = {**task, **extra, "ranking": ranking, "chance_correction": chance, "planned_metrics": planned}
        if task["task"] == "multiclass" and ("error_costs" in extra or "true_negatives_meaningful" in extra):
            continue
        if "positive_class" not in task and ("true_negatives_meaningful" in extra or "error_costs" in extra):
            continue  # a false negative needs a positive class (the answers refuse fn/fp costs without one)
        yield answers


def test_principles_hold_in_every_situation_of_a_grid():
    book, caveats = load_rules(), load_choice().caveats
    n = 0
    for answers in _situations():
        r = recommend(answers)
        recommended = [r.primary.metric, *(a.metric for a in r.complementary)]
        assert len(recommended) == len(set(recommended)), answers
        assert not set(recommended) & {d.metric for d in r.discouraged}, answers
        for a in r.complementary:
            assert "runner-up among" not in a.reason, answers
            if a.metric in caveats:
                assert caveats[a.metric] in a.reason, answers
        names = {r.primary.metric: r.primary.name, **{a.metric: a.name for a in r.complementary}}
        for i, a in enumerate(r.complementary):
            for b in recommended[: i + 1]:  # the lead and the metrics named before it
                said = names[b].lower() in a.reason.lower()
                assert not book.equivalent(a.metric, b) or said, (answers, a.metric, b)
        n += 1
    assert n > 300
