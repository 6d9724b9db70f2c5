"""Issue 23, item 5: what advisor does not evaluate is said first — on the screen and in the methods — as
"advisor does not evaluate this; use …, because …", never with a flat classification lead; planned metric names
are matched against the table of external metrics (questionnaire/scope.yaml)."""

from __future__ import annotations

import pytest
import yaml

import advisor
from advisor.plan._screen import plan_text
from advisor.questionnaire._scope import external_metrics, scope_notes, scope_tasks
from advisor.report._render import methods_texts

TASKS = ["detection", "segmentation", "regression", "generation"]


@pytest.mark.parametrize(("name", "task"), [
    ("nDCG@10", "ranking"), ("MAP", "ranking"), ("mAP", "detection"), ("Dice", "segmentation"),
    ("IoU for boxes", "detection"), ("BLEU", "generation"), ("ROUGE-L", "generation"), ("BERTScore", "generation"),
    ("RMSE", "regression"), ("R²", "regression"), ("Spearman", "other"), ("equalized odds", "other")])
def test_table_knows_what_each_name_belongs_to(name: str, task: str) -> None:
    [note] = external_metrics(name)
    assert note.task == task and note.use and note.because


def test_ambiguous_name_names_both_tasks() -> None:
    assert {n.task for n in external_metrics("mean average precision")} == {"ranking", "detection"}


def test_catalogue_names_stay_with_the_catalogue() -> None:
    assert scope_notes("nominal", ["accuracy", "MCC", "macro F1", "unheard-of score"]) == []


@pytest.mark.parametrize("task", TASKS)
def test_out_of_scope_task_first_on_screen_and_in_methods(task: str) -> None:
    answers = {"task": "multiclass", "n_classes": 3, "label_structure": task}
    plan = advisor.make_plan(answers)
    assert plan.lead.family == "external" and plan.lead.id == f"external_{task}"
    assert [n.task for n in plan.out_of_scope] == [task]
    screen = plan_text(plan)
    assert screen.startswith("Not evaluated by advisor\n")
    first = screen.split("\n", 2)[1]
    assert "advisor does not evaluate this; use" in first
    assert "because" in " ".join(screen.split("Lead with")[0].split())
    md = methods_texts(answers, "md")
    text = md if isinstance(md, str) else str(md)
    assert "Not evaluated by advisor" in text and "advisor does not evaluate this; use" in text
    assert "We lead with" not in text and "classifier" not in text  # no flat classification paragraph


def test_planned_external_metrics_first_on_screen_with_a_classification_lead() -> None:
    plan = advisor.make_plan({"task": "multiclass", "n_classes": 4,
                              "planned_metrics": ["nDCG@10", "MAP", "BLEU", "accuracy"]})
    screen = plan_text(plan)
    head = " ".join(screen.split("Lead with")[0].split())
    assert screen.startswith("Not evaluated by advisor")
    assert "Ranked retrieval (you planned 'nDCG@10', 'MAP'): advisor does not evaluate this; use pytrec_eval" in head
    assert "'BLEU' belongs to generated text: advisor does not evaluate this" in head
    assert "The lead below scores one class per item" in head
    assert "nothing can be said about its properties" not in screen
    unused = {u.value: u.unused for u in plan.unused}
    assert "advisor does not evaluate" in unused["nDCG@10"]
    assert {n.planned_as for n in plan.out_of_scope} == {"nDCG@10", "MAP", "BLEU"}


def test_unknown_name_still_said_unknown() -> None:
    plan = advisor.make_plan({"task": "binary", "planned_metrics": ["zorblax index"]})
    assert plan.out_of_scope == []
    assert "advisor does not know this metric" in {u.value: u.unused for u in plan.unused}["zorblax index"]


def test_report_with_data_refused_in_one_sentence(tmp_path) -> None:
    from typer.testing import CliRunner

    from advisor.cli import app

    ans = tmp_path / "a.yaml"
    ans.write_text(yaml.safe_dump({"task": "binary", "label_structure": "regression"}))
    data = tmp_path / "p.csv"
    data.write_text("y_true,y_pred\n1,1\n0,1\n")
    r = CliRunner().invoke(app, ["report", "--answers", str(ans), str(data), "-o", str(tmp_path / "r.md")])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "advisor does not evaluate regression" in r.output and r.output.strip().count("\n") == 0


def test_every_task_of_the_table_is_an_answer_choice() -> None:
    from advisor.questionnaire import QUESTIONS

    q = next(q for q in QUESTIONS if q.key == "label_structure")
    assert set(scope_tasks()) <= set(q.choices)
