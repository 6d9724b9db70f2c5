"""The classes the author names as costly (answers ``focus_classes``) get figures of their own.

The context is free text ("denials and queries are what signals a false rumour"), so the tool cannot know which
classes it means; the answer names them. Each gets what its family measures of one class: single-label decisions
the per-class figure the lead averages (the F1 of “deny” beside macro F1; recall, precision and F1 beside any other
lead) as metrics of the one registry, computed one-vs-rest with intervals (``f1@deny``); labels with scores their
ROC AUCs, first in the per-label table; a system that may abstain its recall among the answered items and the
number answered as another class at the target coverage; a sample stratified by map class the cells of the error
matrix between them, beside the areas the estimates already give. The methods say why in one sentence after the
lead. Oracles: scikit-learn's one-vs-rest precision, recall and F1 and a direct count.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.metrics import f1_score, precision_score, recall_score

from advisor import ConfusionMatrix, InputError, build_report, compute_metrics, make_plan
from advisor.engine import class_metric, class_metric_id, selective_by_class
from advisor.questionnaire import answers_from_mapping
from advisor.report import methods_paragraph

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = ROOT / "tests" / "situations"
STANCE = ["support", "deny", "query", "comment"]


def _situation(name: str, **extra) -> dict:
    return {**yaml.safe_load((SITUATIONS / f"{name}.yaml").read_text(encoding="utf-8")), **extra}


def _evaluation(md: str) -> str:
    return md.split("\n\n", 1)[0]


# -- the answer ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("data", "fragment"), [
    ({"classes": STANCE, "focus_classes": ["deny", "denial"]},
     "'denial' is not a declared class; each must be one of support, deny, query, comment"),
    ({"classes": STANCE, "focus_classes": ["deny", "deny"]}, "a class is named twice"),
    ({"classes": STANCE, "focus_classes": []}, "name at least one class"),
    ({"focus_classes": ["deny"]}, "each must be one of the declared classes, and none are listed"),
    ({"label_structure": "multilabel", "classes": ["edema", "pleural effusion"], "focus_classes": ["effusion"]},
     "'effusion' is not a declared label"),
])
def test_the_answer_names_declared_classes(data, fragment):
    with pytest.raises(InputError) as err:
        answers_from_mapping(data, "answers")
    msg = str(err.value)
    assert "key 'focus_classes'" in msg and fragment in msg, msg


def test_the_question_is_asked_beside_the_costs():
    from advisor.questionnaire import QUESTIONS

    keys = [q.key for q in QUESTIONS]
    assert keys.index("costlier_error") < keys.index("focus_classes") < keys.index("deployment_prevalence")


# -- the engine: one registry, a metric of one named class -----------------------------------------------------------
def test_a_metric_of_one_class_is_one_vs_rest_against_scikit_learn():
    rng = np.random.default_rng(7)
    y, p = rng.integers(0, 4, 400), rng.integers(0, 4, 400)
    p[:250] = y[:250]
    C = np.zeros((4, 4))
    np.add.at(C, (y, p), 1)
    r = compute_metrics(ConfusionMatrix(C, STANCE), ["recall@deny", "precision@deny", "f1@query"])
    assert r["recall@deny"] == pytest.approx(recall_score(y, p, labels=[1], average="macro"), abs=1e-12)
    assert r["precision@deny"] == pytest.approx(precision_score(y, p, labels=[1], average="macro"), abs=1e-12)
    assert r["f1@query"] == pytest.approx(f1_score(y, p, labels=[2], average="macro"), abs=1e-12)
    assert class_metric(class_metric_id("f1", "pleural effusion")) == ("f1", "pleural effusion")
    assert class_metric("net_benefit@0.1") is None
    from advisor.engine._names import metric_id

    assert metric_id("recall@K") == "recall_at_k"  # a catalogue name stays the catalogue's metric
    assert metric_id("recall@deny") == "recall@deny"
    with pytest.raises(InputError, match="'denial', which is not a class of the data"):
        compute_metrics(ConfusionMatrix(C, STANCE), ["f1@denial"])


def test_an_undefined_value_is_recorded_for_its_class_only():
    C = np.array([[5, 1, 0], [2, 3, 0], [1, 1, 0]], dtype=float)  # “c” is never predicted
    r = compute_metrics(ConfusionMatrix(C, ["a", "b", "c"]), ["precision@c", "precision@a"], undefined="zero")
    assert r["precision@c"] == 0.0
    assert {(u.metric, u.label) for u in r.undefined} == {("precision@c", "c")}


# -- the plan --------------------------------------------------------------------------------------------------------
def test_the_plan_gives_each_focus_class_the_figure_the_lead_averages_and_records_where_it_went():
    plan = make_plan(_situation("shared_task"))
    assert plan.lead.id == "macro_f1"
    focus = [m for m in plan.beside if "focus_classes" in m.answers]
    assert [(m.id, m.name, m.params) for m in focus] == [
        ("f1@deny", "F1 score of “deny”", {"class": "deny"}), ("f1@query", "F1 score of “query”", {"class": "query"})]
    use = next(a for a in plan.answers if a.key == "focus_classes")
    assert use.given and use.unused is None
    assert use.used_by == ["beside the lead: F1 score of “deny”", "beside the lead: F1 score of “query”"]


def test_beside_a_lead_that_averages_no_per_class_figure_each_class_gets_recall_precision_and_f1():
    answers = {"task": "multiclass", "classes": ["a", "b", "c"], "chance_correction": "required",
               "symmetric": True, "focus_classes": ["c"]}
    plan = make_plan(answers)
    assert plan.lead.id not in ("macro_f1", "balanced_accuracy")
    assert [m.id for m in plan.beside if "focus_classes" in m.answers] == ["recall@c", "precision@c", "f1@c"]


@pytest.mark.parametrize(("name", "diagnostic"), [("chex", "label_aucs"), ("landcover", "stratified_estimates")])
def test_a_family_whose_figures_exist_records_the_classes_in_them(name, diagnostic):
    plan = make_plan(_situation(name))
    d = plan.diagnostic(diagnostic)
    assert d is not None and d.params["focus"] == _situation(name)["focus_classes"]
    assert "focus_classes" in d.answers
    assert not [m for m in plan.beside if "focus_classes" in m.answers]
    use = next(a for a in plan.answers if a.key == "focus_classes")
    assert use.unused is None and use.used_by


# -- the report ------------------------------------------------------------------------------------------------------
def test_table_1_of_a_small_report_gives_the_f1_of_each_focus_class_with_its_interval():
    a = np.array([[20, 3, 2, 5], [2, 10, 3, 5], [1, 2, 12, 5], [5, 5, 5, 80]], dtype=float)
    b = np.array([[18, 4, 3, 5], [4, 8, 3, 5], [2, 2, 11, 5], [6, 4, 5, 80]], dtype=float)
    answers = {k: v for k, v in _situation("shared_task").items() if k != "group"}
    ctx = build_report(answers, {"a": ConfusionMatrix(a, STANCE), "b": ConfusionMatrix(b, STANCE)},
                       bootstrap=300, seed=3)
    entries = {m.id: m for m in ctx.metrics}
    assert entries["f1@deny"].role == "complementary" and entries["f1@deny"].name == "F1 score of “deny”"
    assert entries["f1@deny"].variant == "computed for the class “deny” against all others"
    rep = next(r for r in ctx.systems if r.name == "a")
    for mid, i in (("f1@deny", 1), ("f1@query", 2)):
        want = 2 * a[i, i] / (a[i].sum() + a[:, i].sum())
        iv = rep.intervals[mid]
        assert iv.estimate == pytest.approx(want, abs=1e-12)
        assert iv.low < iv.estimate < iv.high
    from advisor.report._render import render_text

    md = render_text(ctx, "md")
    assert re.search(r"\| F1 score of “deny” \| 0\.5", str(md)), "Table 1 lacks the row of “deny”"


def test_the_selective_by_class_table_counts_the_items_answered_as_another_class():
    truth = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    error = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0, 0], dtype=float)
    conf = np.array([0.9, 0.8, 0.2, 0.95, 0.9, 0.85, 0.7, 0.6, 0.5, 0.1])
    r = selective_by_class(truth, error, conf, 0.8, ["melanoma", "nevus"])
    # the 8 most confident are answered: melanoma 0 (wrong) and 1 (right); its third, wrong, item is deferred
    assert r["melanoma"]["answered_wrong"] == 1.0 and r["melanoma"]["recall_answered"] == 0.5
    assert r["nevus"]["answered_wrong"] == 1.0


# -- the paragraph ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "sentence"), [
    ("shared_task", "Because “deny” and “query” matter most, we give the F1 score of each."),
    ("chex", "Because edema and pleural effusion matter most, we give their ROC AUCs first in the per-label "
             "table."),
    # at the cut frozen on a calibration half of the patients, on the other half (the dermatology reader)
    ("derm", "Because “melanoma” matters most, we give its recall among its lesions answered at that cut, "
             "how many of those are answered as another class, and for every class the share answered."),
    ("landcover", "From it we report overall, user's and producer's accuracy and the area of each class, with 95% "
                  "intervals, and, since forest and cropland matter most here, the two cells between them."),
])
def test_the_paragraph_says_why_in_one_sentence_after_the_lead(name, sentence):
    text = _evaluation(methods_paragraph(SITUATIONS / f"{name}.yaml", "md", seed=2024)).replace("\\", "")
    assert sentence in text, text
    assert text.count(sentence) == 1  # one sentence, said once
    if name == "shared_task":  # the figures named in it are not listed again beside the lead
        assert "F1 score of “deny”" not in text and "We also give how often each system ranks first" in text


def test_without_the_answer_nothing_changes_in_the_paragraph():
    answers = {k: v for k, v in _situation("shared_task").items() if k != "focus_classes"}
    text = _evaluation(methods_paragraph(answers, "md", seed=2024))
    assert "matter most," not in text and "“deny”" not in text
    assert not [m for m in make_plan(answers).beside if "@" in m.id]


def test_the_per_label_table_gives_the_focus_labels_first(tmp_path, cli):
    labels = yaml.safe_load((SITUATIONS / "chex.yaml").read_text(encoding="utf-8"))["classes"]
    rng = np.random.default_rng(5)
    n = 80
    y = (rng.random((n, len(labels))) < 0.35).astype(int)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random((n, len(labels))), 0, 1), 3)
    data = tmp_path / "chex.csv"
    cols = [f"true_{lab}" for lab in labels] + [f"p_{lab}" for lab in labels]
    data.write_text(",".join(cols) + "\n" + "\n".join(
        ",".join([*map(str, y[i]), *(repr(float(v)) for v in s[i])]) for i in range(n)) + "\n")
    answers = tmp_path / "a.yaml"
    answers.write_text(yaml.safe_dump({k: v for k, v in _situation("chex").items() if k != "group"}))
    out = tmp_path / "r.md"
    res = cli("report", "--answers", answers, data, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    rows = [ln.split("|")[1].strip() for ln in out.read_text().splitlines()
            if ln.startswith("| ") and ln.split("|")[1].strip() in labels]
    assert rows[:5] == ["edema", "pleural effusion", "atelectasis", "cardiomegaly", "consolidation"], rows
