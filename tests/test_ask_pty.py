"""``advisor ask`` in a real pseudo-terminal (pexpect), with the installed console script."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from advisor.questionnaire import Answers, load_answers

pexpect = pytest.importorskip("pexpect")

SCRIPT = Path(sys.executable).parent / "advisor"
PROMPT = r"\(\? for help\) > "
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason=f"console script not installed at {SCRIPT}")


def _spawn(args: list[str], cwd: Path):
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    return pexpect.spawn(str(SCRIPT), args, cwd=str(cwd), env=env, encoding="utf-8", timeout=60)


def _finish_with_defaults(child) -> None:
    """Press Enter at every remaining prompt until the answers are saved."""
    for _ in range(40):
        if child.expect([PROMPT, "Saved your answers"]) == 1:
            return
        child.sendline("")
    raise AssertionError("the questionnaire did not end")


def test_nonsense_is_reasked_defaults_carry_through_and_the_file_round_trips(tmp_path) -> None:
    out = tmp_path / "answers.yaml"
    child = _spawn(["ask", "--out", str(out)], tmp_path)
    # the situation in the author's words (context, item name, field), then the structure questions asked before
    # the task (issue 23 item 6: label_structure, annotators, top_k, abstention, subgroups, group): Enter
    for _ in range(3 + 6):
        child.expect(PROMPT)
        child.sendline("")
    child.expect("Is this a binary task")
    child.expect(PROMPT)
    child.sendline("banana")
    child.expect("Not allowed: 'banana' is not one of binary, multiclass")
    child.expect(PROMPT)  # asked again
    child.sendline("binary")
    child.expect("class names")
    child.expect(PROMPT)
    child.sendline("neg, pos")
    child.expect("interchangeable")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("Definition 3")  # the help text
    child.expect(PROMPT)
    child.sendline("no")
    _finish_with_defaults(child)
    child.expect("Lead with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = load_answers(out)
    # Enter accepts each default, "preferred" chance correction included (an answer, not the unanswered None)
    assert saved == Answers(task="binary", classes=["neg", "pos"], chance_correction="preferred")


def test_an_existing_file_is_not_overwritten(tmp_path) -> None:
    out = tmp_path / "answers.yaml"
    out.write_text("task: binary\n", encoding="utf-8")
    child = _spawn(["ask", "--out", str(out)], tmp_path)
    child.expect("already exists")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert out.read_text(encoding="utf-8") == "task: binary\n"
