"""The templates lay text out; they do not write it (issue 10, item 6).

Every caption, heading, column header and sentence of the reports lives once, in
:mod:`advisor.report._report_text` (or the methods prose modules), and the Markdown, LaTeX and HTML
templates print it. This test scans each template for English words outside markup: template
comments, Jinja expressions (except string literals printed from them), HTML tags, LaTeX commands
with their environment and column-spec arguments are markup; whatever else is a word must be on the
short allowlist below.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).resolve().parents[1] / "templates").glob("*.j2"))

#: Words a template may hold: LaTeX environments, packages, option values, units and file kinds
#: that the markup itself needs, none of them prose.
ALLOWED = {
    # LaTeX environment, package and option names, dimensions
    "document", "article", "longtable", "figure", "description", "itemize", "thebibliography", "centering",
    "linewidth", "textheight", "keepaspectratio", "width", "height", "htbp", "numbers", "sort", "utf8",
    "margin", "cm", "pt", "hidelinks", "tab", "fig", "sec", "advisor", "results", "pfirst", "evaluation",
    "amsmath", "amssymb", "booktabs", "array", "graphicx", "natbib", "hyperref", "inputenc", "geometry",
    "a4paper", "11pt", "LTcapwidth", "labelitemi", "bullet", "downarrow", "scriptsize", "small", "footnotesize",
    "toprule", "midrule", "bottomrule", "endfirsthead", "endhead", "item", "bibitem",
    # HTML, and CSS classes chosen in expressions
    "DOCTYPE", "html", "wide", "best",
}

_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\(\(\(.*?\)\)\)|\(\(\*.*?\*\)\)", re.S)
_OUTPUT = re.compile(r"^(\{\{|\(\(\()")
_COMMENT = re.compile(r"\{#.*?#\}|\(\(=.*?=\)\)", re.S)
_LITERAL = re.compile(r"""(==|!=|\bin)?\s*(["'])(.*?)\2(\s*:)?""")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")


def _printed_literals(tag: str) -> list[str]:
    """String literals of an output tag that reach the output (not compared against, not dict keys)."""
    if not _OUTPUT.match(tag):
        return []
    return [text for op, _, text, key in _LITERAL.findall(tag) if not op and not key]


def _strip_markup(text: str, name: str) -> str:
    if ".html" in name:
        text = re.sub(r"<!DOCTYPE[^>]*>", " ", text)
        text = re.sub(r"<[^>]*>", " ", text)
        text = re.sub(r"&\w+;", " ", text)
    if ".tex" in name:
        text = re.sub(r"\\(begin|end|documentclass|usepackage|label|includegraphics|setlength|renewcommand)(?![A-Za-z])"
                      r"(\[[^\]]*\])?(\{[^{}]*(\{[^{}]*\}[^{}]*)*\})*", " ", text)
        text = re.sub(r"\\[A-Za-z]+", " ", text)
        text = re.sub(r"\[[a-z0-9.=,\\ ]*\]", " ", text)
    return text


def words_outside_markup(path: Path) -> list[str]:
    """English-looking words in a template that are neither markup nor on the allowlist."""
    src = _COMMENT.sub(" ", path.read_text(encoding="utf-8"))
    found = []
    for tag in _TAG.findall(src):
        for lit in _printed_literals(tag):
            lit = re.sub(r"\\+[A-Za-z]+(\{[^{}]*\})?", " ", lit)  # LaTeX markup handed to raw()
            found += [w for w in _WORD.findall(lit) if w not in ALLOWED]
    rest = _strip_markup(_TAG.sub(" ", src), path.name)
    found += [w for w in _WORD.findall(rest) if w not in ALLOWED]
    return found


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.name for p in TEMPLATES])
def test_templates_hold_no_prose(path):
    assert words_outside_markup(path) == []


def test_the_scanner_sees_prose():
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        for name, body in [("a.md.j2", "*Table 2.* Probability of ranking first {{ x }}"),
                           ("b.html.j2", '<th>Metric</th>{{ " (lower is better)" if y else "" }}'),
                           ("c.tex.j2", "\\caption{Every undefined value} & Count \\\\")]:
            p = Path(d) / name
            p.write_text(body, encoding="utf-8")
            assert words_outside_markup(p), name
        ok = Path(d) / "d.tex.j2"
        ok.write_text('((* if p.heading == "Definitions" *))\\begin{description}((( T.c_metric )))', encoding="utf-8")
        assert words_outside_markup(ok) == []


def test_every_phrase_is_used():
    """No orphan in the prose source: every key of T is printed by some template or by Python code."""
    from advisor.report._report_text import T

    root = Path(__file__).resolve().parents[1]
    text = " ".join(p.read_text(encoding="utf-8") for p in [*TEMPLATES, *root.glob("advisor/report/*.py")])
    unused = [k for k in T if f"T.{k}" not in text and f'T["{k}"]' not in text]
    assert not unused, unused
