"""``advisor ask`` and ``advisor recommend`` through Typer's CliRunner (exit codes first)."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from advisor.cli import app
from advisor.questionnaire import QUESTIONS, Answers, load_answers

runner = CliRunner()
ENTER_ALL = "\n" * (len(QUESTIONS) + 5)
# the situation in the author's words: context, item name, field (skipped); then Enter at the structure questions
# asked before the task (issue 23 item 6): label_structure, annotators, top_k, abstention, subgroups, group
WORDS = "\n" * 3 + "\n" * 6


def _invoke(args: list[str], input: str | None = None):
    return runner.invoke(app, args, input=input)


def _stderr(result) -> str:
    try:
        return result.stderr
    except (ValueError, AttributeError):  # older runners mix the streams
        return result.output


# ----------------------------------------------------------------------------------------------
# advisor ask
# ----------------------------------------------------------------------------------------------
def test_ask_defaults_carry_a_user_through_and_the_file_round_trips(tmp_path) -> None:
    out = tmp_path / "answers.yaml"
    result = _invoke(["ask", "--out", str(out)], ENTER_ALL)
    assert result.exit_code == 0, result.output
    saved = load_answers(out)
    assert saved == Answers(chance_correction="preferred")  # Enter accepts the question's default as an answer
    assert "Saved your answers" in result.output and "Lead with" in result.output
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["deployment_prevalence"] == "unknown"


def test_ask_reasks_a_nonsense_answer(tmp_path) -> None:
    out = tmp_path / "a.yaml"
    result = _invoke(["ask", "--out", str(out)], WORDS + "banana\nbinary\n" + ENTER_ALL)
    assert result.exit_code == 0, result.output
    assert "Not allowed: 'banana' is not one of binary, multiclass" in result.output
    assert result.output.count("Is this a binary task") == 1  # the question is not repeated,
    assert result.output.count("[multiclass] (? for help) >") == 2  # only its prompt
    assert load_answers(out).task == "binary"


def test_ask_help_then_answers(tmp_path) -> None:
    out = tmp_path / "a.yaml"
    replies = ["multiclass", "4", "a, b, c, d", "?", "yes"] + [""] * 20
    result = _invoke(["ask", "--out", str(out)], WORDS + "\n".join(replies) + "\n")
    assert result.exit_code == 0, result.output
    assert "Gösgens et al. (2021), Definition 3" in result.output  # the help of the symmetric question
    saved = load_answers(out)
    assert saved.symmetric is True and saved.classes == ["a", "b", "c", "d"] and saved.n_classes == 4


def test_ask_refuses_to_overwrite_unless_forced(tmp_path) -> None:
    out = tmp_path / "answers.yaml"
    out.write_text("task: binary\n", encoding="utf-8")
    result = _invoke(["ask", "--out", str(out)], ENTER_ALL)
    assert result.exit_code == 2
    assert "already exists" in _stderr(result) and "--force" in _stderr(result)
    assert out.read_text(encoding="utf-8") == "task: binary\n"
    forced = _invoke(["ask", "--out", str(out), "--force"], ENTER_ALL)
    assert forced.exit_code == 0, forced.output
    assert load_answers(out) == Answers(chance_correction="preferred")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answers.yaml"]  # no temporary file left


def test_ask_input_ending_early_saves_nothing(tmp_path) -> None:
    out = tmp_path / "a.yaml"
    result = _invoke(["ask", "--out", str(out)], WORDS + "binary\n")
    assert result.exit_code == 2
    assert "input ended" in _stderr(result)
    assert not out.exists()


def _predictions(tmp_path, name: str, rows: list[tuple[str, str]]):
    f = tmp_path / f"{name}.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in rows), encoding="utf-8")
    return f


def test_ask_with_data_infers_and_asks_only_to_confirm(tmp_path) -> None:
    truth = ["cat"] * 40 + ["dog"] * 40 + ["owl"] * 10
    a = _predictions(tmp_path, "sys_a", [(t, t) for t in truth])
    b = _predictions(tmp_path, "sys_b", [(t, "cat") for t in truth])
    out = tmp_path / "a.yaml"
    result = _invoke(["ask", "--out", str(out), "--data", str(a), "--data", str(b)], ENTER_ALL)
    assert result.exit_code == 0, result.output
    assert "The data shows: multiclass" in result.output
    assert "The data shows: cat, dog, owl" in result.output
    saved = load_answers(out)
    assert saved.classes == ["cat", "dog", "owl"] and saved.n_classes == 3
    assert saved.test_set_balanced is False and saved.ranking is True
    assert "Undefined values:" in result.output  # sys_b never predicts dog or owl
    assert "Small sample:" in result.output  # owl has 10 items


# ----------------------------------------------------------------------------------------------
# advisor recommend
# ----------------------------------------------------------------------------------------------
def _answers_file(tmp_path, text: str):
    f = tmp_path / "answers.yaml"
    f.write_text(text, encoding="utf-8")
    return f


def test_recommend_json_has_exactly_the_documented_shape(tmp_path) -> None:
    f = _answers_file(tmp_path, "task: multiclass\nn_classes: 3\nranking: true\nplanned_metrics: [macro F1]\n")
    result = _invoke(["recommend", "--answers", str(f), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"plan", "primary", "complementary", "discouraged", "warnings", "rationale", "answers"}
    assert {"metrics", "diagnostics", "design", "answers", "unused", "conflicts", "avoid"} <= set(data["plan"])
    assert set(data["primary"]) == {"metric", "params"}
    assert all(set(c) == {"metric", "reason", "params"} for c in data["complementary"])
    assert all(set(c) == {"metric", "reason"} for c in data["discouraged"])
    assert all(set(w) == {"code", "message"} for w in data["warnings"])
    assert set(data["answers"]) == set(Answers.model_fields)
    assert {"macro_f1_ambiguous", "ranking_sensitivity"} <= {w["code"] for w in data["warnings"]}


def test_recommend_text(tmp_path) -> None:
    f = _answers_file(tmp_path, "task: binary\nclasses: [n, p]\npositive_class: p\n"
                                "true_negatives_meaningful: false\nerror_costs: {false_negative: 4, false_positive: 1}\n")
    result = _invoke(["recommend", "--answers", str(f)])
    assert result.exit_code == 0, result.output
    # one screen, no internal ids; β stated; the full reasoning behind --explain (issue 10)
    assert "Lead with F-beta score" in result.output and "β = 2" in result.output
    assert "f_beta" not in result.output and "score 7" not in result.output
    for header in ("Also report", "Avoid as the lead"):
        assert header in result.output
    assert len(result.output.splitlines()) <= 25
    full = _invoke(["recommend", "--answers", str(f), "--explain"])
    assert full.exit_code == 0 and "Reasoning" in full.output and "[f_beta" not in result.output
    assert len(full.output) > len(result.output)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("tsak: binary\n", ["unknown key 'tsak'", "'binary'", "did you mean 'task'"]),
        ("chance_correction: always\n", ["key 'chance_correction'", "'always'", "required, preferred or not_needed"]),
        ("probabilities: {yes: 1}\n", ["key 'probabilities'", "true or false"]),
    ],
)
def test_recommend_malformed_answers_give_one_sentence(tmp_path, text, fragments) -> None:
    f = _answers_file(tmp_path, text)
    result = _invoke(["recommend", "--answers", str(f)])
    assert result.exit_code == 2
    err = _stderr(result).strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in err


def test_recommend_missing_file(tmp_path) -> None:
    result = _invoke(["recommend", "--answers", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert "not found" in _stderr(result)


def test_recommend_with_a_matrix(tmp_path) -> None:
    f = _answers_file(tmp_path, "deployment_prevalence: unknown\n")
    m = tmp_path / "m.json"
    m.write_text(json.dumps({"labels": ["a", "b", "c"], "matrix": [[50, 0, 0], [5, 40, 0], [3, 2, 0]]}), encoding="utf-8")
    result = _invoke(["recommend", "--answers", str(f), "--matrix", str(m), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    codes = {w["code"] for w in data["warnings"]}
    assert {"undefined_values", "small_sample"} <= codes
    assert data["answers"]["classes"] == ["a", "b", "c"] and data["answers"]["test_set_balanced"] is False
