"""Every user string is safe in every format: control characters escaped in Markdown, HTML, LaTeX
and SVG (which stays valid XML), ``[`` at a LaTeX line start, labels longer than the display limit
shortened (issue 15, item 4)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.dom.minidom
from pathlib import Path

import pytest

from advisor._format import LABEL_DISPLAY_LIMIT, display_label, html_escape, latex_escape, markdown_escape

LONG = "W" * 5000
HOSTILE = [LONG, "[UNK]", "a\x1b]0;pwned\x07b", "c\x1b[2Jd\u202ee\x00"]
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e]")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    m = {"labels": HOSTILE, "matrix": [[20, 3, 1, 0], [2, 15, 4, 1], [0, 2, 9, 1], [1, 1, 1, 7]]}
    (d / "sys one.json").write_text(json.dumps(m), encoding="utf-8")
    (d / "sys\x1b[31mtwo.json").write_text(json.dumps(m), encoding="utf-8")
    (d / "answers.yaml").write_text("task: multiclass\nn_classes: 4\n", encoding="utf-8")
    return {"dir": d, "answers": d / "answers.yaml", "matrices": sorted(d.glob("sys*.json"))}


def _run(cli, hostile: dict[str, Path], out: Path):
    args = ["report", "--answers", hostile["answers"], "--bootstrap", "0", "-o", out]
    for m in hostile["matrices"]:
        args += ["--matrix", m]
    res = cli(*args)
    assert res.exit_code == 0, res.stderr
    return res


@pytest.mark.parametrize("fmt", ["md", "html", "tex"])
def test_control_characters_are_escaped_in_every_format(cli, hostile: dict[str, Path], tmp_path: Path,
                                                        fmt: str) -> None:
    out = tmp_path / f"r.{fmt}"
    _run(cli, hostile, out)
    text = out.read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(text), RAW_CONTROL.search(text)
    assert "x1b" in text and "pwned" in text  # shown, as a visible escape
    assert LONG not in text  # shortened in display
    assert display_label(LONG)[:-1] in text
    for svg in tmp_path.glob("r-figures/*.svg"):
        content = svg.read_text(encoding="utf-8")
        assert not RAW_CONTROL.search(content), svg.name
        xml.dom.minidom.parseString(content)  # valid XML


def test_json_context_keeps_labels_whole(cli, hostile: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    _run(cli, hostile, out)
    ctx = json.loads(out.read_text(encoding="utf-8"))
    assert LONG in ctx["task"]["labels"] and "a\x1b]0;pwned\x07b" in ctx["task"]["labels"]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_unk_and_a_5000_character_label_compile_with_pdflatex(cli, hostile: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "r.tex"
    _run(cli, hostile, out)
    # a table row starts with it (issue 10 sorts labels naturally, so it may be the first row, after \endhead)
    assert re.search(r"(\\\\|\\endhead)\s*\{\[\}UNK\{\]\}", out.read_text(encoding="utf-8"))
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:]
    assert (tmp_path / "r.pdf").stat().st_size > 1000


def test_escapers_make_controls_visible() -> None:
    s = "a\x1b[2Jb\x07\u202e"
    assert latex_escape(s) == r"a\textbackslash{}x1b{[}2Jb\textbackslash{}x07\textbackslash{}u202e"
    assert markdown_escape(s) == r"a\\x1b\[2Jb\\x07\\u202e"
    assert html_escape(s) == r"a\x1b[2Jb\x07\u202e"
    assert latex_escape("[UNK]") == "{[}UNK{]}"
    assert latex_escape("a\tb\nc") == "a b c"  # whitespace stays whitespace


def test_display_label_limit() -> None:
    assert display_label("x" * LABEL_DISPLAY_LIMIT) == "x" * LABEL_DISPLAY_LIMIT
    assert display_label("x" * (LABEL_DISPLAY_LIMIT + 1)) == "x" * (LABEL_DISPLAY_LIMIT - 1) + "…"


def test_long_labels_alike_stay_distinct() -> None:
    from advisor import build_report
    from advisor.engine._confusion import ConfusionMatrix
    from advisor.report._render import display_context

    a, b = "Q" * 100 + "a", "Q" * 100 + "b"
    ctx = build_report({"task": "binary"}, {"s": ConfusionMatrix([[5, 1], [2, 4]], labels=[a, b])}, bootstrap=0)
    shown = display_context(ctx)
    assert len(set(shown.task.labels)) == 2
    assert all(len(x) <= LABEL_DISPLAY_LIMIT for x in shown.task.labels)
    assert ctx.task.labels == [a, b]  # the context itself is unchanged
