"""Report safety: escaping, allow-listed TeX, atomic writes, refusing to overwrite inputs, the fetcher."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor import UnsafeOutputError
from advisor._format import html_escape, latex_escape, markdown_escape, safe_filename
from advisor.report._fetcher import make_fetcher
from advisor.report._safe_io import atomic_write, check_outputs, write_outputs
from advisor.report._svg import clean_svg
from advisor.report._texsafe import safe_math

EVIL = ["<script>alert(1)</script>", r"\input{/etc/passwd}", "{{ 7*7 }}", "50% & $x$ #1 _a ^b ~c |d"]


# -- escaping ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", EVIL)
def test_latex_escape_leaves_no_active_character(text: str) -> None:
    out = latex_escape(text)
    # after removing the escape commands nothing active is left: no bare \, {, }, $, &, %, #, _, ^, ~
    stripped = out
    for cmd in (r"\textbackslash{}", r"\textless{}", r"\textgreater{}", r"\textbar{}", r"\textasciitilde{}",
                r"\textasciicircum{}", r"$\$$", r"\{", r"\}", r"\&", r"\%", r"\#", r"\_"):
        stripped = stripped.replace(cmd, "")
    assert not any(c in stripped for c in "\\{}$&%#_^~<>|")


def test_latex_escape_examples() -> None:
    assert latex_escape(r"\input{/etc/passwd}") == r"\textbackslash{}input\{/etc/passwd\}"
    assert latex_escape("{{ 7*7 }}") == r"\{\{ 7*7 \}\}"
    assert latex_escape("a\nb") == "a b"
    assert latex_escape("Gösgens ≥ β") == r"Gösgens $\geq$ $\beta$"
    assert "[U+" in latex_escape("漢")  # unknown characters never break compilation


@pytest.mark.parametrize("text", EVIL)
def test_markdown_escape_round_trips(text: str) -> None:
    out = markdown_escape(text)
    assert "<" not in out.replace("\\<", "")
    assert "|" not in out.replace("\\|", "")
    # CommonMark drops the backslash before punctuation: the reader sees the text itself
    import re

    assert re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", out) == text


@pytest.mark.parametrize("text", ["rater_1", "english_learner", "a__b", "_x_", "x _y_ z", "snake_case_id_", "*_a_*",
                                  "é_ü and _é_", "__init__", "a_b_c d_e"])
def test_markdown_escape_leaves_intraword_underscores_bare_and_inert(text: str) -> None:
    # an underscore between two letters or digits is left bare (a column name reads "rater_1"), and CommonMark
    # (markdown-it-py, the parser Rich uses) renders every escaped text as the text itself, with no emphasis
    from markdown_it import MarkdownIt

    out = markdown_escape(text)
    html = MarkdownIt("commonmark").render(f"“{out}” in a sentence")
    assert "<em>" not in html and "<strong>" not in html, (out, html)
    assert html == f"<p>“{html_escape(text)}” in a sentence</p>\n".replace("&#x27;", "'"), (out, html)
    assert all(out[i - 1] != "\\" for i, ch in enumerate(out) if ch == "_" and 0 < i < len(out) - 1
               and out[i - 1].isalnum() and out[i + 1].isalnum())


def test_html_escape() -> None:
    assert html_escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"


def test_safe_filename() -> None:
    assert safe_filename("../../etc/passwd") == "etc-passwd"
    assert safe_filename("   ") == "item"


@pytest.mark.parametrize("tex", [
    r"\frac{1}{k}\sum_{i=1}^{k} \frac{C_{ii}}{a_i}",
    r"\mathrm{MCC} = \frac{n \sum_i C_{ii} - \sum_i a_i b_i}{\sqrt{(n^2 - \sum_i b_i^2)(n^2 - \sum_i a_i^2)}}",
    r"\begin{cases} 1 & x \\ 0 & y \end{cases}",
])
def test_safe_math_accepts_formulas(tex: str) -> None:
    assert safe_math(tex) == tex


@pytest.mark.parametrize("tex", [
    r"\input{/etc/passwd}", r"x \write18{rm -rf /}", r"\def\x{1}", r"\catcode`\^=7", "a $ b", r"^^5cinput",
    r"\begin{verbatim}x\end{verbatim}", r"\immediate", r"\csname input\endcsname", "{unbalanced",
])
def test_safe_math_refuses(tex: str) -> None:
    assert safe_math(tex) is None


# -- writing -----------------------------------------------------------------------------------
def test_atomic_write_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    p = tmp_path / "r.md"
    atomic_write(p, "one")
    atomic_write(p, "two")
    assert p.read_text() == "two"
    assert sorted(os.listdir(tmp_path)) == ["r.md"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "r.md"
    p.write_text("old")

    def boom(*a: object, **k: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        atomic_write(p, "new")
    assert p.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["r.md"]


def test_refuses_to_overwrite_an_input(tmp_path: Path) -> None:
    inp = tmp_path / "preds.csv"
    inp.write_text("y_true,y_pred\n")
    with pytest.raises(UnsafeOutputError, match="input file"):
        check_outputs([inp], [inp])
    with pytest.raises(UnsafeOutputError):  # the same file through another spelling
        check_outputs([tmp_path / "." / "preds.csv"], [inp])
    link = tmp_path / "link.csv"
    link.symlink_to(inp)
    with pytest.raises(UnsafeOutputError):  # a symlink to the input is the input
        check_outputs([link], [inp])
    with pytest.raises(UnsafeOutputError):
        write_outputs({tmp_path / "ok.md": "x", inp: "y"}, [inp])
    assert inp.read_text() == "y_true,y_pred\n"
    assert not (tmp_path / "ok.md").exists()  # nothing is written when any output is refused
    with pytest.raises(UnsafeOutputError, match="directory"):
        check_outputs([tmp_path], [])


# -- the PDF renderer's fetcher ----------------------------------------------------------------
@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/x.png", "https://example.org/a.css", "file:///etc/passwd", "ftp://h/x",
    "data:image/png;base64,iVBORw0KGgo=",
])
def test_fetcher_refuses_what_the_report_did_not_create(url: str) -> None:
    f = make_fetcher({"data:image/png;base64,AAAA": (b"\x89PNG", "image/png")})
    with pytest.raises(ValueError):
        f(url)
    assert f.refused == [url]


def test_fetcher_serves_registered_resources() -> None:
    f = make_fetcher({"data:image/png;base64,AAAA": (b"\x89PNG", "image/png")})
    r = f("data:image/png;base64,AAAA")
    body = r.read() if hasattr(r, "read") else r["string"]
    assert body == b"\x89PNG"
    assert f.refused == []


def test_weasyprint_loads_nothing_from_outside() -> None:
    from advisor.report._render import html_to_pdf

    fetcher = make_fetcher({})
    html = ('<html><head><link rel="stylesheet" href="http://127.0.0.1:9/s.css"></head><body>'
            '<img src="file:///etc/passwd"><img src="https://example.org/x.png"><p>text</p></body></html>')
    pdf = html_to_pdf(html, fetcher=fetcher)
    assert pdf.startswith(b"%PDF")
    assert set(fetcher.refused) >= {"http://127.0.0.1:9/s.css", "file:///etc/passwd", "https://example.org/x.png"}
    assert fetcher.served == []


def test_clean_svg_inlines_safely() -> None:
    svg = ('<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
           '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1">'
           '<metadata><rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/"/></metadata>'
           '<defs><style type="text/css">*{stroke-linejoin: round}</style><clipPath id="c1"/></defs>'
           '<g clip-path="url(#c1)" style="fill: #fff; stroke: none"><use xlink:href="#c1"/></g></svg>')
    out = clean_svg(svg, prefix="f1-")
    assert "http" not in out and "<style" not in out and "<?xml" not in out
    assert 'id="f1-c1"' in out and "url(#f1-c1)" in out and 'xlink:href="#f1-c1"' in out
    assert 'fill="#fff"' in out and 'stroke-linejoin="round"' in out


def test_every_catalogue_formula_is_allowed_and_typesets() -> None:
    from advisor.catalogue import get_catalogue
    from advisor.report._math import formula_svg

    for mid, rec in get_catalogue().metrics.items():
        assert rec.formula, mid
        assert safe_math(rec.formula) == rec.formula, (mid, rec.formula)
        svg = formula_svg(rec.formula, display=True)
        assert svg.startswith("<svg") and "http" not in svg, mid
