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
# -- 2. overwriting needs --force ----------------------------------------------------------------------
def test_render_report_refuses_an_existing_file_unless_forced(inputs: dict[str, Path]) -> None:
    from advisor import UnsafeOutputError
    from advisor.report import build_report, render_report

    ctx = build_report(inputs["answers"], {"sys": MATRIX["matrix"]}, bootstrap=0)
    target = inputs["out"] / "r.json"
    target.write_text("mine", encoding="utf-8")
    with pytest.raises(UnsafeOutputError, match="--force"):
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
