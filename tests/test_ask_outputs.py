"""``advisor ask --out`` obeys the rules every output obeys (advisor/report/_safe_io.py): only a regular
file is ever written or replaced, without --force an exclusive create, nothing half-written — and when the
final write fails after the last question, every answer is still in the draft and the message says so."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.cli import app
from advisor.questionnaire import QUESTIONS, load_answers
from advisor.questionnaire._draft import draft_path, load_draft

runner = CliRunner()
ENTER_ALL = "\n" * (len(QUESTIONS) + 5)
# context, item name, field skipped; then Enter at the structure questions asked before the task (issue 23
# item 6: label_structure, annotators, top_k, abstention, subgroups, group)
REPLIES = "\n" * 3 + "\n" * 6 + "binary\nneg, pos\n" + ENTER_ALL
# what Enter at those six structure questions keeps in the draft
STRUCTURE_DRAFT = {"label_structure": "nominal", "annotators": None, "top_k": None, "abstention": False,
                   "subgroups": [], "group": None}


def _ask(out: Path, *extra: str, replies: str = REPLIES):
    return runner.invoke(app, ["ask", "--out", str(out), *extra], input=replies)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("force", [False, True])
def test_a_fifo_is_refused_before_the_first_question(tmp_path: Path, force: bool) -> None:
    fifo = tmp_path / "answers.yaml"
    os.mkfifo(fifo)
    result = _ask(fifo, *(["--force"] if force else []))
    assert result.exit_code == 2
    assert "FIFO" in result.stderr and "regular file" in result.stderr
    assert "Is this a binary task" not in result.output  # refused up front, not after every question
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and not draft_path(fifo).exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_like_dev_full_is_never_replaced_even_with_force(tmp_path: Path) -> None:
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # the device /dev/full is
    result = _ask(full, "--force")
    assert result.exit_code == 2 and "character device" in result.stderr
    assert stat.S_ISCHR(full.lstat().st_mode) and _leftovers(tmp_path) == []


def test_a_directory_and_a_dangling_symlink_are_refused(tmp_path: Path) -> None:
    assert "directory" in _ask(tmp_path, "--force").stderr
    link = tmp_path / "dangling.yaml"
    link.symlink_to(tmp_path / "nowhere" / "x.yaml")
    result = _ask(link, "--force")
    assert result.exit_code == 2 and "dangling symbolic link" in result.stderr
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


def test_a_symlink_to_a_file_is_replaced_not_written_through(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "answers.yaml"
    link.symlink_to(target)
    refused = _ask(link)
    assert refused.exit_code == 2 and "already exists" in refused.stderr
    forced = _ask(link, "--force")
    assert forced.exit_code == 0, forced.output
    assert target.read_text(encoding="utf-8") == "keep me\n"  # the link's target is untouched
    assert not link.is_symlink() and load_answers(link).task == "binary"


def test_an_input_file_is_refused_as_the_output(tmp_path: Path) -> None:
    data = tmp_path / "preds.csv"
    data.write_text("y_true,y_pred\na,a\nb,a\n", encoding="utf-8")
    result = _ask(data, "--force", "--data", str(data))
    assert result.exit_code == 2 and "input file" in result.stderr
    assert data.read_text(encoding="utf-8") == "y_true,y_pred\na,a\nb,a\n"


def test_a_file_created_meanwhile_is_not_overwritten_and_the_draft_keeps_every_answer(tmp_path, monkeypatch):
    """The exclusive create: another run wrote the file while the questions were answered."""
    import advisor.questionnaire as ask_module  # the CLI asks through the questionnaire's public name

    out = tmp_path / "answers.yaml"
    real = ask_module.ask_questions

    def then_someone_writes(*args, **kwargs):
        answers = real(*args, **kwargs)
        out.write_text("theirs\n", encoding="utf-8")
        return answers

    monkeypatch.setattr(ask_module, "ask_questions", then_someone_writes)
    result = _ask(out)
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "already exists" in err and str(draft_path(out)) in err and "--resume" in err
    assert out.read_text(encoding="utf-8") == "theirs\n"
    assert load_draft(draft_path(out))["classes"] == ["neg", "pos"]
    assert _leftovers(tmp_path) == []


def test_a_full_disk_at_the_end_keeps_the_draft_and_leaves_no_half_file(tmp_path, monkeypatch) -> None:
    import advisor.report._safe_io as safe_io

    out = tmp_path / "answers.yaml"
    real = safe_io._stage

    def no_space_for_the_answers(path, data):  # the draft still fits; the answers file does not
        if Path(path) == out:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)

    monkeypatch.setattr(safe_io, "_stage", no_space_for_the_answers)
    result = _ask(out)
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "could not save the answers" in err and "No space left on device" in err
    assert str(draft_path(out)) in err and "internal error" not in err
    assert not out.exists() and _leftovers(tmp_path) == []
    kept = load_draft(draft_path(out))
    assert kept["task"] == "binary" and kept["classes"] == ["neg", "pos"]
    monkeypatch.undo()
    resumed = _ask(out, "--resume", replies=ENTER_ALL)  # nothing left to ask: saved at once
    assert resumed.exit_code == 0, resumed.output
    assert load_answers(out).classes == ["neg", "pos"] and not draft_path(out).exists()


def test_a_full_disk_while_keeping_the_draft_says_what_is_kept(tmp_path, monkeypatch) -> None:
    import advisor.report._safe_io as safe_io

    real, calls = safe_io._stage, {"n": 0}

    def full_after_two(path, data):  # the task and the classes after the three skipped situation questions (kept as
        calls["n"] += 1  # null) and the six structure questions asked before the task (issue 23 item 6)
        if calls["n"] > 11:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)

    monkeypatch.setattr(safe_io, "_stage", full_after_two)
    out = tmp_path / "answers.yaml"
    result = _ask(out)
    assert result.exit_code == 2
    err = " ".join(result.stderr.split())
    assert "could not keep your last answer" in err and "No space left on device" in err
    # kept: label_structure, abstention, subgroups (the structure answers Enter gave), task, classes
    assert "(5) are kept" in err and "--resume" in err and "internal error" not in err
    assert load_draft(draft_path(out)) == {"context": None, "item_name": None, "field": None,
                                           **STRUCTURE_DRAFT, "task": "binary", "classes": ["neg", "pos"]}
    assert _leftovers(tmp_path) == [] and not out.exists()
