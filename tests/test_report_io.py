"""Writing reports: every output location is checked before anything is written, nothing the user owns
is overwritten without --force, errors name the real output path, and build_report's arguments are
checked (a --positive that contradicts the answers, an unknown convention, a title that is no text)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

MATRIX = {"labels": [0, 1], "matrix": [[50, 10], [5, 35]]}
ANSWERS = "task: binary\npositive_class: 1\n"


def assert_one_error(result, *words: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr, result.exception)
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    d = tmp_path / "in"
    d.mkdir()
    (d / "sys.json").write_text(json.dumps(MATRIX), encoding="utf-8")
    (d / "answers.yaml").write_text(ANSWERS, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    return {"matrix": d / "sys.json", "answers": d / "answers.yaml", "out": out}


def _report(cli, inputs: dict[str, Path], output: Path, *extra: object):
    return cli("report", "--answers", inputs["answers"], "--matrix", inputs["matrix"], "--bootstrap", "0",
               "-o", output, *extra)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(folder.rglob("*"))}


# -- 1. a figures "folder" that is a file: nothing is written ------------------------------------------
def test_figures_path_that_is_a_file_is_refused_before_anything_is_written(cli, inputs: dict[str, Path]) -> None:
    out = inputs["out"]
    (out / "q-figures").write_text("my notes", encoding="utf-8")
    before = _tree(out)
    result = _report(cli, inputs, out / "q.md")
    assert_one_error(result, "q-figures")
    assert _tree(out) == before  # no q.md, no temporary file


def test_output_folder_below_a_file_is_refused(cli, inputs: dict[str, Path]) -> None:
    out = inputs["out"]
    (out / "blocker").write_text("x", encoding="utf-8")
    before = _tree(out)
    assert_one_error(_report(cli, inputs, out / "blocker" / "sub" / "q.md"), "blocker")
    assert _tree(out) == before


def test_missing_output_folders_are_created(cli, inputs: dict[str, Path]) -> None:
    target = inputs["out"] / "new" / "deeper" / "q.md"
    result = _report(cli, inputs, target)
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert target.is_file() and (target.parent / "q-figures").is_dir()


# -- 2. overwriting needs --force ----------------------------------------------------------------------
@pytest.mark.parametrize("suffix", ["md", "json", "html"])
def test_report_refuses_an_existing_output_without_force(cli, inputs: dict[str, Path], suffix: str) -> None:
    target = inputs["out"] / f"q.{suffix}"
    target.write_text("mine", encoding="utf-8")
    before = _tree(inputs["out"])
    assert_one_error(_report(cli, inputs, target), str(target), "--force")
    assert _tree(inputs["out"]) == before
    result = _report(cli, inputs, target, "--force")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert target.read_text(encoding="utf-8") != "mine"


def test_report_refuses_its_figure_files_existing_without_force(cli, inputs: dict[str, Path]) -> None:
    out = inputs["out"]
    figs = out / "q-figures"
    figs.mkdir()
    (figs / "notes.txt").write_text("keep me", encoding="utf-8")
    (figs / "metrics.svg").write_text("my own drawing", encoding="utf-8")
    before = _tree(out)
    assert_one_error(_report(cli, inputs, out / "q.md"), str(figs / "metrics.svg"), "--force")
    assert _tree(out) == before
    result = _report(cli, inputs, out / "q.md", "--force")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert (figs / "notes.txt").read_text(encoding="utf-8") == "keep me"  # not the report's: left alone
    assert (figs / "metrics.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")  # the report's: replaced


def test_other_files_in_the_figure_folder_are_left_alone(cli, inputs: dict[str, Path]) -> None:
    figs = inputs["out"] / "q-figures"
    figs.mkdir()
    (figs / "notes.txt").write_text("keep me", encoding="utf-8")
    result = _report(cli, inputs, inputs["out"] / "q.md")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert (figs / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert (figs / "metrics.svg").is_file()
    # a LaTeX report of the same name shares the folder: its figures are PDFs, nothing collides
    result = _report(cli, inputs, inputs["out"] / "q.tex")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert (figs / "metrics.pdf").is_file() and (figs / "metrics.svg").read_text(encoding="utf-8").startswith("<svg")


def test_a_second_run_needs_force(cli, inputs: dict[str, Path]) -> None:
    target = inputs["out"] / "q.md"
    assert _report(cli, inputs, target).exit_code == 0
    first = _tree(inputs["out"])
    assert_one_error(_report(cli, inputs, target), "q.md", "--force")
    assert _tree(inputs["out"]) == first
    assert _report(cli, inputs, target, "--force").exit_code == 0
    assert set(_tree(inputs["out"])) == set(first)


def test_latex_bib_beside_the_report_is_not_overwritten(cli, inputs: dict[str, Path]) -> None:
    out = inputs["out"]
    (out / "q.bib").write_text("% my bibliography", encoding="utf-8")
    before = _tree(out)
    assert_one_error(_report(cli, inputs, out / "q.tex"), "q.bib", "--force")
    assert _tree(out) == before


def test_methods_refuses_an_existing_output_without_force(cli, inputs: dict[str, Path]) -> None:
    target = inputs["out"] / "methods.md"
    target.write_text("mine", encoding="utf-8")
    assert_one_error(cli("methods", "--answers", inputs["answers"], "-o", target), str(target), "--force")
    assert target.read_text(encoding="utf-8") == "mine"
    result = cli("methods", "--answers", inputs["answers"], "-o", target, "--force")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert "Methods" in target.read_text(encoding="utf-8") or target.read_text(encoding="utf-8") != "mine"


def test_render_report_refuses_an_existing_file_unless_forced(inputs: dict[str, Path]) -> None:
    from advisor import UnsafeOutputError
    from advisor.report import build_report, render_report

    ctx = build_report(inputs["answers"], {"sys": MATRIX["matrix"]}, bootstrap=0)
    target = inputs["out"] / "r.json"
    target.write_text("mine", encoding="utf-8")
    with pytest.raises(UnsafeOutputError, match=r"pass force=True"):
        render_report(ctx, out_path=target)
    assert target.read_text(encoding="utf-8") == "mine"
    assert render_report(ctx, out_path=target, force=True) == [target]
    assert json.loads(target.read_text(encoding="utf-8"))["primary"] == ctx.primary


# -- 3. errors name the output, not the temporary file -------------------------------------------------
def _deny_replace_and_link(monkeypatch: pytest.MonkeyPatch) -> None:
    def deny(src: object, dst: object, *a: object, **k: object) -> None:
        raise PermissionError(13, "Permission denied", str(src))  # what the OS reports: the temp file

    monkeypatch.setattr(os, "replace", deny)
    monkeypatch.setattr(os, "link", deny)


def test_atomic_write_error_names_the_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.report._safe_io import atomic_write

    target = tmp_path / "r.json"
    _deny_replace_and_link(monkeypatch)
    with pytest.raises(PermissionError) as info:
        atomic_write(target, "{}")
    assert info.value.filename == str(target)
    assert os.listdir(tmp_path) == []


def test_cli_write_error_names_the_output_and_leaves_nothing(cli, inputs: dict[str, Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    target = inputs["out"] / "new" / "q.md"
    _deny_replace_and_link(monkeypatch)
    result = _report(cli, inputs, target)
    assert_one_error(result, "permission denied", str(inputs["out"] / "new"))
    assert ".tmp" not in result.stderr
    assert list(inputs["out"].iterdir()) == []  # the folders it created are gone again


def test_write_outputs_failure_midway_leaves_nothing_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from advisor.report._safe_io import write_outputs

    real_link = os.link
    calls = []

    def link_once(src: str, dst: str, *a: object, **k: object) -> None:
        calls.append(dst)
        if len(calls) > 1:
            raise OSError(28, "No space left on device", str(src))
        real_link(src, dst, *a, **k)

    monkeypatch.setattr(os, "link", link_once)
    with pytest.raises(OSError) as info:
        write_outputs({tmp_path / "r.md": "a", tmp_path / "r-figures" / "f.svg": "<svg/>"})
    assert info.value.filename == str(tmp_path / "r-figures" / "f.svg")
    assert os.listdir(tmp_path) == []


# -- 4. --positive against the answers' positive_class ----------------------------------------------------
def test_positive_contradicting_the_answers_is_refused(cli, inputs: dict[str, Path]) -> None:
    before = _tree(inputs["out"])
    assert_one_error(_report(cli, inputs, inputs["out"] / "q.json", "--positive", "0"), "--positive", "0", "1")
    assert _tree(inputs["out"]) == before
    result = _report(cli, inputs, inputs["out"] / "q.json", "--positive", "1")  # the same class: fine
    assert result.exit_code == 0, (result.stderr, result.exception)


def test_build_report_refuses_a_contradicting_positive_label(inputs: dict[str, Path]) -> None:
    from advisor import InputError
    from advisor.report import build_report

    with pytest.raises(InputError, match="positive"):
        build_report(inputs["answers"], {"sys": MATRIX["matrix"]}, bootstrap=0, positive_label=0)
    ctx = build_report({"task": "binary"}, {"sys": MATRIX["matrix"]}, bootstrap=0, positive_label=0)
    assert ctx.task is not None and ctx.task.positive_label == "0"


# -- 5. build_report's own arguments ---------------------------------------------------------------------
@pytest.mark.parametrize("data", [None, {"sys": MATRIX["matrix"]}])
def test_build_report_unknown_convention(data: object) -> None:
    from advisor import InputError
    from advisor.report import build_report

    with pytest.raises(InputError) as info:
        build_report({"task": "binary"}, data, undefined="x")
    msg = str(info.value)
    assert "undefined" in msg and "'x'" in msg and "zero, baseline, omit" in msg


def test_methods_paragraph_unknown_convention() -> None:
    from advisor import InputError
    from advisor.report import methods_paragraph

    with pytest.raises(InputError, match="undefined"):
        methods_paragraph({"task": "binary"}, undefined="x")


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"title": 5}, ["title", "5", "text"]),
    ({"title": ["a"]}, ["title", "['a']"]),
    ({"digits": -1}, ["digits", "-1"]),
    ({"digits": "4"}, ["digits", "'4'"]),
])
def test_build_report_bad_arguments_are_one_sentence(kwargs: dict, words: list[str]) -> None:
    from advisor import InputError
    from advisor.report import build_report

    with pytest.raises(InputError) as info:
        build_report({"task": "binary"}, None, **kwargs)
    msg = str(info.value)
    assert msg.count("\n") == 0 and msg.endswith(".")
    for w in words:
        assert w in msg, (w, msg)
