"""Planned names of per-class figures (issue 22: "nothing dropped silently", answers included).

A land-cover author plans "user's accuracy" and "producer's accuracy", the per-class precision and recall of map
accuracy assessment (Congalton 1991); an intent-detection author plans "out-of-scope recall", the recall of one
class. The catalogue has no entry for these names, so they used to be "not reported". They are figures of the
per-class table: the plan shows that table, the paragraph promises it in the author's words, and the answer
records where it went.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.io import read_predictions
from advisor.plan import make_plan
from advisor.questionnaire import per_class_reading
from advisor.report import build_report

ROOT = Path(__file__).resolve().parents[1]
LAND = {"context": "A land-cover map is checked against reference labels of a sample of pixels.",
        "item_name": "sample pixel", "task": "multiclass",
        "classes": ["forest", "cropland", "grassland", "water", "urban", "bare"], "outputs": "labels",
        "planned_metrics": ["overall accuracy", "user's accuracy", "producer's accuracy"]}
INTENT = {"task": "multiclass", "n_classes": 151, "outputs": "labels", "item_name": "utterance",
          "planned_metrics": ["accuracy", "out-of-scope recall"]}


@pytest.mark.parametrize(("name", "classes", "words", "matched"), [
    ("user's accuracy", None, "the precision of every class", True),
    ("Producer’s accuracy", None, "the recall of every class", True),
    ("per-class F1", None, "the F1 of every class", True),
    ("Out-of-scope recall", ["book_flight", "out-of-scope"], "the recall of the class “out-of-scope”", True),
    ("out of scope recall", ["book_flight", "out-of-scope"], "the recall of the class “out-of-scope”", True),
    ("neutral class precision", ["negative", "neutral", "positive"], "the precision of the class “neutral”", True),
    ("oos recall", None, "the recall of the class “oos”", False),
    ("9 sensitivity", [7, 8, 9], "the recall of the class “9”", True),
])
def test_a_per_class_name_reads_as_a_figure_of_the_per_class_table(name, classes, words, matched) -> None:
    r = per_class_reading(name, classes)
    assert r is not None and (r.words, r.matched) == (words, matched)


@pytest.mark.parametrize("name", ["macro recall", "micro F1", "weighted precision", "balanced accuracy", "recall",
                                  "F1", "accuracy", "top-k recall", "hierarchical precision"])
def test_averaged_and_plain_names_are_not_read_as_a_class(name) -> None:
    assert per_class_reading(name, ["a", "b", "c"]) is None


def test_a_name_of_a_class_that_is_not_there_is_not_read() -> None:
    assert per_class_reading("fraud recall", ["ok", "theft"]) is None


def _uses(plan, key="planned_metrics"):
    return {str(u.value): u for u in plan.answers if u.key == key}


def test_map_accuracy_terms_show_the_per_class_table_in_the_authors_words() -> None:
    plan = make_plan(LAND)
    assert plan.diagnostics[0].id == "per_class" and "per_class_recall" not in [d.id for d in plan.diagnostics]
    uses = _uses(plan)
    assert uses["user's accuracy"].used_by == ["shown in the per-class table: the precision of every class"]
    assert uses["producer's accuracy"].used_by == ["shown in the per-class table: the recall of every class"]
    ctx = build_report(LAND, None, bootstrap=2000, seed=1)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "the precision (user's accuracy), recall (producer's accuracy) and F1 of every class" in text
    assert "user's accuracy”" not in text and "Not reported" not in [p.heading for p in ctx.methods]


def test_the_recall_of_a_class_not_yet_seen_is_said_with_its_condition() -> None:
    plan = make_plan(INTENT)
    use = _uses(plan)["out-of-scope recall"]
    assert use.used_by == ["shown in the per-class table: the recall of the class “out-of-scope”, if the data have "
                           "a class of that name"]
    ctx = build_report(INTENT, None, bootstrap=2000, seed=1)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "the precision, recall and F1 of every class, among them the recall of “out-of-scope”" in text


def test_with_data_the_class_is_matched_and_a_class_not_there_stays_unreported() -> None:
    answers = {"task": "multiclass", "n_classes": 10, "outputs": "labels", "item_name": "image",
               "planned_metrics": ["accuracy", "9 recall", "12 recall"]}
    data = read_predictions([ROOT / "examples/digits/logreg.csv", ROOT / "examples/digits/tree.csv"])
    ctx = build_report(answers, data, bootstrap=0)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "among them the recall of “9”" in text
    note = next(p for p in ctx.methods if p.heading == "Not reported")
    said = "".join(s.text for s in note.spans)
    assert "12 recall" in said and "9 recall" not in said
    uses = {u["value"]: u for u in ctx.plan["answers"] if u["key"] == "planned_metrics"}
    assert uses["9 recall"]["used_by"] == ["shown in the per-class table: the recall of the class “9”"]
    assert not uses["12 recall"]["used_by"]


def test_two_classes_keep_their_own_metrics() -> None:
    plan = make_plan({"task": "binary", "classes": ["ok", "fraud"], "positive_class": "fraud",
                      "outputs": "labels", "planned_metrics": ["ok recall"]})
    assert "per_class" not in [d.id for d in plan.diagnostics]


def test_a_metric_of_one_class_planned_among_several_is_the_per_class_table() -> None:
    """AAMI heartbeat classification plans "sensitivity" and "positive predictive value" per class (de Chazal et al.
    2004): among five classes they are columns of the per-class table, said in the author's words, not "neither
    reported nor advised against" (issue 22)."""
    plan = make_plan(ROOT / "tests/situations/ecg.yaml")
    uses = _uses(plan)
    assert uses["sensitivity"].used_by == ["shown in the per-class table: the recall of every class"]
    assert uses["positive predictive value"].used_by == ["shown in the per-class table: the precision of every class"]
    ctx = build_report(ROOT / "tests/situations/ecg.yaml", None, bootstrap=2000, seed=1)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    # in the field's own names, which are the author's planned ones (the ECG reader, issue 22)
    assert "the sensitivity (Se), positive predictivity (+P) and F1 of every class" in text
    assert "Not reported" not in [p.heading for p in ctx.methods]
