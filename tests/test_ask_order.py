"""Issue 23 item 6: the questionnaire asks what kind of evaluation this is first, then only the questions
that apply; one output question; ``ask --data`` on an agreement study (``rater_<name>`` columns)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from advisor.cli import app
from advisor.questionnaire import QUESTIONS, load_answers
from advisor.questionnaire._answers import _BY_KEY
from advisor.questionnaire._ask import ask_questions

runner = CliRunner()
KEYS = [q.key for q in QUESTIONS]
TASK_QUESTIONS = ["task", "n_classes", "classes", "symmetric", "distance", "positive_class", "error_costs",
                  "deployment_prevalence", "test_set_balanced", "class_weighting", "chance_correction",
                  "strict_monotonicity", "outputs"]
# the flat-classification questions a multi-label study is not asked (one class per item, or a flat ranking
# of the catalogue's properties, or the classifier's outputs as one score per item)
NOT_FOR_MULTILABEL = ["task", "n_classes", "symmetric", "distance", "positive_class", "true_negatives_meaningful",
                      "error_costs", "deployment_prevalence", "test_set_balanced", "chance_correction",
                      "strict_monotonicity", "outputs", "annotators", "top_k", "abstention"]


def _asked(replies: list[str], inferred=None) -> tuple[list[str], object]:
    """The keys asked, in order, and the answers."""
    it = iter(replies)
    by_prompt = {q.prompt: q.key for q in QUESTIONS}
    asked: list[str] = []

    def write(line: str) -> None:
        head, _, rest = line.partition(". ")
        if head.isdigit() and rest in by_prompt:
            asked.append(by_prompt[rest])

    answers = ask_questions(lambda prompt: next(it, ""), write, inferred)
    return asked, answers


def test_the_structure_questions_come_before_the_task_questions() -> None:
    assert KEYS[:3] == ["context", "item_name", "field"]  # issue 22: the situation in the author's words
    assert KEYS[3] == "label_structure"
    structure = [KEYS.index(k) for k in ("label_structure", "annotators", "top_k", "abstention", "subgroups",
                                         "group")]
    assert max(structure) < min(KEYS.index(k) for k in TASK_QUESTIONS)
    asked, _ = _asked([])  # and asked in that order
    assert asked.index("label_structure") < asked.index("annotators") < asked.index("task")


def test_a_multilabel_answer_skips_the_questions_that_do_not_apply() -> None:
    asked, answers = _asked(["", "", "", "multilabel"])
    assert answers.label_structure == "multilabel"
    assert not set(NOT_FOR_MULTILABEL) & set(asked), set(NOT_FOR_MULTILABEL) & set(asked)
    # what the multi-label rules still read is asked: the labels and whether every label counts the same
    assert {"classes", "class_weighting", "ranking", "subgroups", "group", "planned_metrics"} <= set(asked)


def test_a_scope_outside_advisor_asks_no_classification_question() -> None:
    asked, _ = _asked(["", "", "", "regression"])
    assert asked == ["context", "item_name", "field", "label_structure", "planned_metrics", "notes"]


def test_the_outputs_are_asked_once() -> None:
    asked, _ = _asked([])
    assert asked.count("outputs") == 1 and "probabilities" not in asked
    assert _BY_KEY["probabilities"].asked is False
    # data with probabilities suggests the one output question's answer
    _, answers = _asked([], inferred={"task": "binary", "classes": ["a", "b"], "outputs": "probabilities"})
    assert answers.outputs == "probabilities"


def test_the_older_probabilities_key_is_still_read(tmp_path: Path) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("task: binary\nprobabilities: true\n", encoding="utf-8")
    assert load_answers(f).facts()["outputs"] == "probabilities"


def test_the_jargon_questions_are_asked_as_consequences_with_an_example() -> None:
    mono, dist = _BY_KEY["strict_monotonicity"].prompt, _BY_KEY["distance"].prompt
    assert "corrected" in mono and "e.g." not in mono and "patient" in mono and "go up" in mono
    assert "triangle inequality" not in dist and "e.g." in dist and "close to" in dist
    assert _BY_KEY["strict_monotonicity"].decides == ["monotonicity", "strong_monotonicity", "opitz_monotonicity"]
    assert _BY_KEY["distance"].decides == ["distance", "approximate_constant_baseline"]


def test_ask_data_with_rater_columns_suggests_the_annotators(tmp_path: Path) -> None:
    data = tmp_path / "raters.csv"
    data.write_text("rater_ann,rater_bob,rater_cy\na,a,b\nb,b,b\na,b,a\nc,c,c\na,a,a\n", encoding="utf-8")
    out = tmp_path / "answers.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out), "--data", str(data)], input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert "y_true" not in result.output
    assert "The data shows: 3 — press Enter to confirm." in result.output  # three annotators
    saved = load_answers(out)
    assert saved.annotators == 3 and saved.symmetric is True and saved.classes == ["a", "b", "c"]
    assert "Krippendorff" in result.output  # the agreement lead
    assert "interchangeable" not in result.output  # symmetric follows from the annotators: not asked


def test_ask_data_without_y_true_nor_raters_still_says_so(tmp_path: Path) -> None:
    data = tmp_path / "x.csv"
    data.write_text("a,b\n1,2\n", encoding="utf-8")
    result = runner.invoke(app, ["ask", "--out", str(tmp_path / "o.yaml"), "--data", str(data)], input="\n" * 5)
    assert result.exit_code == 2 and "y_true" in result.stderr


# -- ask --data prefills what the data tells: label sets, numeric classes (issue 23 item 6) -------------------------
STRUCT = Path(__file__).resolve().parent.parent / "examples" / "structures"


def test_ask_data_on_the_bundled_multilabel_files_suggests_label_sets(tmp_path: Path) -> None:
    out = tmp_path / "answers.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out), "--data", str(STRUCT / "tagger_a.csv"), "--data",
                                 str(STRUCT / "tagger_b.csv")], input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert "The data shows: multilabel — press Enter to confirm." in result.output
    assert "empty" not in result.output  # an empty label set is no missing label
    saved = load_answers(out)
    assert saved.label_structure == "multilabel" and saved.ranking is True
    assert saved.classes == ["culture", "economy", "health", "politics", "science", "sport"]
    assert "Hamming loss" in result.output  # the multi-label recommendation
    for key in NOT_FOR_MULTILABEL:
        assert key not in out.read_text(encoding="utf-8").split("classes:")[0] or key == "task", key


def test_ask_data_takes_a_label_separator_or_indicator_columns(tmp_path: Path) -> None:
    semi = tmp_path / "semi.csv"
    semi.write_text("y_true,y_pred\na;b,a\nb,b;c\n,c\na;c,a;c\n", encoding="utf-8")
    out = tmp_path / "a.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out), "--data", str(semi), "--label-sep", ";"],
                           input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert load_answers(out).label_structure == "multilabel" and load_answers(out).classes == ["a", "b", "c"]
    wide = tmp_path / "wide.csv"
    wide.write_text("true_x,true_y,pred_x,pred_y\n1,0,1,0\n1,1,0,1\n0,1,0,1\n", encoding="utf-8")
    result = runner.invoke(app, ["ask", "--out", str(tmp_path / "b.yaml"), "--data", str(wide)],
                           input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert load_answers(tmp_path / "b.yaml").classes == ["x", "y"]


def test_ask_data_on_the_bundled_ordinal_file_prefills_the_classes_and_asks_the_order(tmp_path: Path) -> None:
    out = tmp_path / "answers.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out), "--data", str(STRUCT / "ordinal_near.csv")],
                           input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert "The classes are numbers (1, 2, 3, 4, 5): if their order matters" in result.output
    saved = load_answers(out)
    assert saved.label_structure == "nominal" and saved.classes == [1, 2, 3, 4, 5]  # the order is asked, not guessed
    replies = "\n\n\nordinal\n" + "\n" * (len(QUESTIONS) + 5)
    result = runner.invoke(app, ["ask", "--out", str(tmp_path / "o.yaml"), "--data", str(STRUCT / "ordinal_near.csv")],
                           input=replies)
    assert result.exit_code == 0, result.output
    saved = load_answers(tmp_path / "o.yaml")
    assert saved.label_structure == "ordinal" and saved.classes == [1, 2, 3, 4, 5]
    assert "kappa" in result.output.split("Saved your answers", 1)[1].lower()  # an ordinal lead


def test_ask_data_hints_nothing_for_named_classes(tmp_path: Path) -> None:
    data = tmp_path / "p.csv"
    data.write_text("y_true,y_pred\ncat,dog\ndog,dog\ncow,cat\ncat,cat\n", encoding="utf-8")
    result = runner.invoke(app, ["ask", "--out", str(tmp_path / "a.yaml"), "--data", str(data)],
                           input="\n" * (len(QUESTIONS) + 5))
    assert result.exit_code == 0, result.output
    assert "are numbers" not in result.output
