"""Issue 25 item 17: every SVG advisor writes is well-formed XML, whatever the labels hold.

U+FFFE and U+FFFF in a label were written raw into the confusion-matrix SVG, which then did not parse
(browsers refuse it). Every code point XML 1.0 forbids — C0 controls other than tab/newline/CR, the
lone surrogates U+D800–U+DFFF, U+FFFE, U+FFFF — is now written as a visible escape (``\\ufffe``) in every
document (SVG, HTML, Markdown, LaTeX) and on the terminal. Checked by parsing, with ``xml.etree``, every
SVG file of reports on hostile labels and every inline ``<svg>`` of the HTML reports, for nominal,
scored, multi-system and structured inputs, from the command line and from the Python API.
"""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor._format import display_label, html_escape, latex_escape, markdown_escape, terminal_safe

FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
HOSTILE = ["a\ufffeb", "c\uffffd", "e\x01f\x0bg", "<h>&amp;]]>\"'", "i\x0cj\x1bk"]


def _parse_svgs(folder: Path) -> int:
    n = 0
    for svg in folder.rglob("*.svg"):
        text = svg.read_text(encoding="utf-8")
        assert not FORBIDDEN.search(text), svg
        ET.fromstring(text)  # well-formed XML, or ParseError
        n += 1
    return n


def _parse_inline(html: str) -> int:
    assert not FORBIDDEN.search(html)
    pieces = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    for piece in pieces:  # inline SVG leaves out the namespace declarations (HTML supplies them)
        ET.fromstring(piece.replace("<svg", '<svg xmlns:xlink="http://www.w3.org/1999/xlink"', 1))
    return len(pieces)


def _write(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


@pytest.fixture
def nominal(tmp_path):
    rng = np.random.default_rng(17)
    y = rng.integers(0, len(HOSTILE), 200)
    y[: len(HOSTILE)] = np.arange(len(HOSTILE))
    files = []
    for name, acc in (("sys\ufffeA", 0.8), ("sys\uffffB", 0.6)):
        p = np.where(rng.random(200) < acc, y, rng.integers(0, len(HOSTILE), 200))
        files.append(_write(tmp_path / f"{name}.csv", ["y_true", "y_pred"],
                            [[HOSTILE[t], HOSTILE[q]] for t, q in zip(y, p)]))
    ans = tmp_path / "a.yaml"
    ans.write_text(f"task: multiclass\nn_classes: {len(HOSTILE)}\n")
    return files, ans


@pytest.mark.parametrize("fmt", ["md", "html", "tex"])
def test_reports_on_hostile_labels_write_well_formed_svg(tmp_path, cli, nominal, fmt):
    files, ans = nominal
    out = tmp_path / "out" / f"report.{fmt}"
    r = cli("report", "--answers", ans, *files, "-o", out, "--bootstrap", "200", "--seed", "1")
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert not FORBIDDEN.search(text)
    if fmt == "html":
        assert _parse_inline(text) >= 2
    elif fmt == "md":
        assert _parse_svgs(out.parent) >= 2
    assert "ufffe" in text and "\ufffe" not in text  # the label is shown, visibly escaped (LaTeX: PDF figures)


def test_scored_binary_report_figures_parse(tmp_path, cli):
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = y * 1.2 + rng.normal(0, 1, 300)
    pos, neg = "p\ufffe<os>", "n\uffff&eg"
    f = _write(tmp_path / "m\ufffe.csv", ["y_true", "y_pred", "score"],
               [[pos if t else neg, pos if v > 0.6 else neg, f"{v:.6f}"] for t, v in zip(y, s)])
    ans = tmp_path / "a.yaml"
    ans.write_text("task: binary\n")
    out = tmp_path / "o" / "r.md"
    r = cli("report", "--answers", ans, f, "--positive", pos, "--costs", "fn=5,fp=1", "-o", out,
            "--bootstrap", "200", "--seed", "2")
    assert r.exit_code == 0, r.output
    assert _parse_svgs(out.parent) >= 3  # ROC/PR curves, reliability or cost curve among them


@pytest.mark.parametrize("kind", ["multilabel", "ordinal", "agreement"])
def test_structured_report_figures_parse(tmp_path, cli, kind):
    ans = tmp_path / "a.yaml"
    if kind == "multilabel":
        labs = ["x\ufffe", "y\uffff", "z\x01"]
        rng = np.random.default_rng(5)
        Y = rng.integers(0, 2, (40, 3))
        P = np.where(rng.random((40, 3)) < 0.8, Y, 1 - Y)
        header = [c for lab in labs for c in (f"true_{lab}", f"pred_{lab}")]
        rows = [[int(v) for j in range(3) for v in (Y[i, j], P[i, j])] for i in range(40)]
        f = _write(tmp_path / "ml.csv", header, rows)
        ans.write_text("label_structure: multilabel\n")
        extra: list[str] = []
    elif kind == "ordinal":
        order = ["lo\ufffe", "mid\uffff", "hi\x01"]
        rng = np.random.default_rng(6)
        t = rng.integers(0, 3, 60)
        p = np.clip(t + rng.integers(-1, 2, 60), 0, 2)
        f = _write(tmp_path / "o.csv", ["y_true", "y_pred"], [[order[a], order[b]] for a, b in zip(t, p)])
        ans.write_text("label_structure: ordinal\n")
        extra = ["--order", ",".join(order)]
    else:
        cats = ["u\ufffe", "v\uffff"]
        rng = np.random.default_rng(7)
        f = _write(tmp_path / "r.csv", ["rater_a\ufffe", "rater_b\uffff", "rater_c"],
                   [[cats[rng.integers(0, 2)] for _ in range(3)] for _ in range(40)])
        ans.write_text("annotators: 3\n")
        extra = []
    for fmt in ("md", "html"):
        out = tmp_path / fmt / f"r.{fmt}"
        r = cli("report", "--answers", ans, f, *extra, "-o", out, "--bootstrap", "200", "--seed", "1")
        assert r.exit_code == 0, r.output
        text = out.read_text(encoding="utf-8")
        assert not FORBIDDEN.search(text)
        assert (_parse_inline(text) if fmt == "html" else _parse_svgs(out.parent)) >= 1


def test_python_api_labels_with_lone_surrogates(tmp_path):
    """A lone surrogate cannot come from a UTF-8 file but can from Python; it cannot even be encoded."""
    labs = ["a\ud800", "b\udfff", "c"]
    y = [labs[i % 3] for i in range(60)]
    p = [labs[(i + (i % 7 == 0)) % 3] for i in range(60)]
    ctx = advisor.build_report({"task": "multiclass", "n_classes": 3}, {"y_true": y, "m\ud800": p}, bootstrap=0)
    from advisor.report import render_report

    for fmt in ("md", "html"):
        written = render_report(ctx, fmt, tmp_path / fmt / f"r.{fmt}")
        text = Path(written[0]).read_text(encoding="utf-8")
        assert "\\ud800" in text and not FORBIDDEN.search(text)
        if fmt == "html":
            assert _parse_inline(text) >= 1
        else:
            assert _parse_svgs(tmp_path / fmt) >= 1


@pytest.mark.parametrize("ch", ["\ufffe", "\uffff", "\ud800", "\udfff", "\x00", "\x0b", "\x1f"])
def test_every_escape_makes_the_code_point_visible(ch):
    for f in (display_label, html_escape, markdown_escape, latex_escape, terminal_safe):
        out = f(f"x{ch}y")
        assert ch not in out and "\\" in out, (f.__name__, out)
    terminal_safe(f"x{ch}y").encode("utf-8")  # printable on any UTF-8 terminal


def test_terminal_output_of_hostile_labels(cli, nominal):
    files, _ = nominal
    r = cli("compute", files[0])
    assert r.exit_code == 0, r.output
    assert "\ufffe" not in r.output and "\\ufffe" in r.output
