"""``advisor ask`` loses no work: every answer kept in a draft, --resume, Ctrl-C, follow-ups, help, yes/no/unknown."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from advisor.catalogue._models import PROPERTY_IDS
from advisor.cli import app
from advisor.questionnaire import QUESTIONS, load_answers
from advisor.questionnaire._answers import _BY_KEY
from advisor.questionnaire._ask import ask_questions, parse_reply
from advisor.questionnaire._draft import draft_path, load_draft

runner = CliRunner()
PROMPT = r"\(\? for help\) > "
SCRIPT = Path(sys.executable).parent / "advisor"
# Enter at the structure questions asked before the task (issue 23 item 6): label_structure, annotators, top_k,
# abstention, subgroups, group — and what that Enter keeps in the draft
STRUCTURE_DEFAULTS = [""] * 6
STRUCTURE_DRAFT = {"label_structure": "nominal", "annotators": None, "top_k": None, "abstention": False,
                   "subgroups": [], "group": None}

# multiclass, 3 classes, custom class weights: the follow-up question must be asked (the "none" after the
# positive class answers the error-cost question, asked for multi-class tasks too since issue 11; the Enter after it
# skips the classes that matter most, focus_classes, asked next)
CUSTOM = ["", "", "", *STRUCTURE_DEFAULTS, "multiclass", "3", "a, b, c", "no", "no", "none", "none", "", "same", "no", "custom", "a=1, b=2, c=3"]


def _dialogue(replies, **kw):
    it = iter(replies)
    lines: list[str] = []
    answers = ask_questions(lambda prompt: next(it, ""), lines.append, **kw)
    return answers, lines


def test_custom_weighting_asks_for_the_weights() -> None:
    answers, lines = _dialogue(CUSTOM)
    assert answers.class_weighting == "custom" and answers.class_weights == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert any("Give the class weights" in line for line in lines)
    # questions after it still follow the answers (facts were reset to defaults before)
    assert any("Must a random or constant classifier" in line for line in lines)


def test_custom_weighting_through_the_cli_saves_the_weights(tmp_path: Path) -> None:
    out = tmp_path / "a.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out)], input="\n".join(CUSTOM) + "\n" * 30)
    assert result.exit_code == 0, result.output
    assert load_answers(out).class_weights == {"a": 1.0, "b": 2.0, "c": 3.0}
    assert not draft_path(out).exists()  # the draft is gone once the answers are saved


def test_every_answer_is_kept_in_the_draft_as_it_is_given(tmp_path: Path) -> None:
    out = tmp_path / "a.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out)], input="\n\n\n" + "\n" * 6 + "binary\nneg, pos\n")
    assert result.exit_code == 2 and "input ended" in result.stderr
    assert "5 answers so far are kept" in result.stderr and "--resume" in result.stderr
    assert not out.exists()
    # the situation questions skipped with Enter are kept as null, so --resume does not ask them again
    assert load_draft(draft_path(out)) == {"context": None, "item_name": None, "field": None, **STRUCTURE_DRAFT,
                                           "task": "binary", "classes": ["neg", "pos"]}
    # without --resume a new run refuses to start over the draft
    again = runner.invoke(app, ["ask", "--out", str(out)], input="\n" * 30)
    assert again.exit_code == 2 and "--resume" in again.stderr
    # --resume asks only what is still open
    resumed = runner.invoke(app, ["ask", "--out", str(out), "--resume"], input="yes\n" + "\n" * 30)
    assert resumed.exit_code == 0, resumed.output
    assert "Is this a binary task" not in resumed.output and "kept from the draft" in resumed.output
    saved = load_answers(out)
    assert saved.task == "binary" and saved.classes == ["neg", "pos"] and saved.symmetric is True
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


def test_resume_without_a_draft_or_with_a_foreign_one_is_one_sentence(tmp_path: Path) -> None:
    out = tmp_path / "a.yaml"
    result = runner.invoke(app, ["ask", "--out", str(out), "--resume"], input="\n")
    assert result.exit_code == 2 and "no draft to resume" in result.stderr and result.stderr.count("\n") == 1
    draft_path(out).write_text("rm: -rf\n", encoding="utf-8")
    result = runner.invoke(app, ["ask", "--out", str(out), "--resume"], input="\n")
    assert result.exit_code == 2 and "not a draft" in result.stderr


def test_a_draft_answer_that_no_longer_fits_is_asked_again() -> None:
    answers, lines = _dialogue(["", "", "", *STRUCTURE_DEFAULTS, "a, b"], given={"task": "binary", "classes": ["x", "y", "z"]})
    assert answers.task == "binary" and answers.classes == ["a", "b"]
    assert sum("kept from the draft" in line for line in lines) == 1


def test_help_is_in_plain_words_and_cites_its_passage() -> None:
    for q in QUESTIONS:
        for pid in (p for p in PROPERTY_IDS if "_" in p):  # 'symmetry' is also a plain word
            assert pid not in q.help, (q.key, pid)  # no property ids ...
        assert not re.search(r"\bP(I{1,3}|IV|V)\b", q.help), q.key  # ... nor Opitz's property numbers
        if q.decides:  # ... and the passage that says why
            assert re.search(r"\(\d{4}\)|I2ML slides", q.help) and re.search(r"§|Definition|Table|Appendix|slides",
                                                                            q.help), q.key


@pytest.mark.parametrize("reply, expected", [("yes", True), ("No", False), ("unknown", None), ("maybe", None),
                                             ("not sure", None)])
def test_yes_no_unknown_and_maybe_where_unknown_is_offered(reply, expected) -> None:
    assert parse_reply(_BY_KEY["test_set_balanced"], reply, {}) is expected


def test_maybe_where_unknown_is_a_choice_or_a_count_is_not_known() -> None:
    assert parse_reply(_BY_KEY["deployment_prevalence"], "not sure", {}) == "unknown"
    assert parse_reply(_BY_KEY["deployment_prevalence"], "maybe", {}) == "unknown"
    assert parse_reply(_BY_KEY["n_classes"], "maybe", {}) is None
    with pytest.raises(ValueError, match="not one of"):  # no 'unknown' among the choices
        parse_reply(_BY_KEY["chance_correction"], "maybe", {})


def test_maybe_where_only_yes_or_no_is_offered_says_what_to_do() -> None:
    with pytest.raises(ValueError, match="needs a yes or a no.*press Enter"):
        parse_reply(_BY_KEY["symmetric"], "maybe", {})
    _, lines = _dialogue(["", "", "", *STRUCTURE_DEFAULTS, "multiclass", "", "", "maybe", "no"])
    refused = [line for line in lines if "Not allowed" in line]
    assert refused and "allowed: yes or no." in refused[0] and "true or false" not in refused[0]


def test_the_prompt_offers_what_it_accepts() -> None:
    prompts: list[str] = []
    it = iter([])

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(it, "")

    ask_questions(read, lambda _: None)
    assert any(p.startswith("   yes/no [no]") for p in prompts)
    assert any(p.startswith("   yes/no/unknown [unknown]") for p in prompts)


# -- in a real terminal: Ctrl-C, then --resume -----------------------------------------------------
@pytest.mark.skipif(not SCRIPT.exists(), reason=f"console script not installed at {SCRIPT}")
def test_ctrl_c_keeps_the_draft_exits_130_and_resume_continues(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    out = tmp_path / "answers.yaml"

    def spawn(*extra: str):
        return pexpect.spawn(str(SCRIPT), ["ask", "--out", str(out), *extra], cwd=str(tmp_path), env=env,
                             encoding="utf-8", timeout=60)

    child = spawn()
    for reply in ["", "", "", *STRUCTURE_DEFAULTS, "multiclass", "3", "a, b, c"]:  # context, item name, field skipped
        child.expect(PROMPT)
        child.sendline(reply)
    child.expect("interchangeable")
    child.expect(PROMPT)
    child.sendintr()  # Ctrl-C: the terminal sends SIGINT
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    assert not out.exists()
    assert load_draft(draft_path(out)) == {"context": None, "item_name": None, "field": None, **STRUCTURE_DRAFT,
                                           "task": "multiclass", "n_classes": 3, "classes": ["a", "b", "c"]}

    child = spawn("--resume")
    child.expect("Resuming: 6 answers")  # with label_structure, abstention and subgroups (issue 23 item 6)
    child.expect("interchangeable")  # the first open question; the three answered ones are not asked
    child.expect(PROMPT)
    child.sendline("no")
    for _ in range(40):
        if child.expect([PROMPT, "Saved your answers"]) == 1:
            break
        child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert saved["classes"] == ["a", "b", "c"] and saved["n_classes"] == 3
    assert not draft_path(out).exists()
