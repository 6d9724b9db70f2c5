"""Issue 25 item 18: every formula and math span a context brings is bounded before it reaches TeX.

A formula 900 braces deep in ``--context`` passed the allow-list; advisor exited 0 and pdflatex died
("TeX capacity exceeded"). Every metric formula and every inline math span anywhere in a context
(methods, justification) is now bounded — at most 2,000 characters, groups (braces, ``\\left…\\right``,
``\\begin…\\end``) nested at most 16 deep, at most 6 ``\\sqrt``/``\\boldsymbol`` (typeset four times each) —
and a context beyond is refused with one sentence naming the field (exit 2); formulas within the bounds
still render (and compile, where pdflatex is installed).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from advisor import InputError
from advisor.catalogue import get_catalogue
from advisor.report._context_check import load_context
from advisor.report._texsafe import MAX_MATH_DEPTH, math_bounds, safe_math


@lru_cache(maxsize=1)
def _base() -> str:
    from advisor import build_report
    from advisor.report._render import _context_json

    ctx = build_report({"task": "multiclass", "n_classes": 3},
                       {"a": [[20, 3, 1], [2, 15, 4], [0, 2, 9]], "b": [[18, 5, 1], [4, 12, 5], [1, 1, 9]]},
                       bootstrap=0)
    return _context_json(ctx)


def _math_span(d: Any) -> dict[str, Any]:
    stack = [d]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if x.get("kind") == "math":
                return x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    raise AssertionError("the context has no math span")


def _nested(depth: int) -> str:
    return "{" * depth + "x" + "}" * depth


DEEP = {
    "900 braces": _nested(900),
    "17 braces": _nested(MAX_MATH_DEPTH + 1),
    "left-right 40 deep": r"\left(" * 40 + "x" + r"\right)" * 40,
    "matrices 20 deep": r"\begin{matrix}" * 20 + "x" + r"\end{matrix}" * 20,
    "seven square roots": r"\sqrt{" * 7 + "x" + "}" * 7,
    "2,001 characters": "x" * 2001,
    "mixed 17 deep": (r"\frac{" * 9 + r"\left(" * 8 + "x" + r"\right)" * 8 + "}{2}" * 9),
}


@pytest.mark.parametrize("where", ["formula", "span"])
@pytest.mark.parametrize("name", list(DEEP))
@pytest.mark.parametrize("fmt", ["tex", "md", "html"])
def test_a_formula_beyond_the_bounds_is_refused(cli, tmp_path: Path, where: str, name: str, fmt: str) -> None:
    d = json.loads(_base())
    tex = DEEP[name]
    if where == "formula":
        d["metric_definitions"][1]["formula"] = tex
    else:
        _math_span(d)["text"] = tex
    p = tmp_path / "ctx.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(InputError):
        load_context(p)
    out = tmp_path / f"x.{fmt}"
    res = cli("report", "--context", p, "-o", out)
    assert res.exit_code == 2, res.output
    err = res.stderr
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err, err
    assert ("metric_definitions[1].formula" if where == "formula" else "spans[") in err
    assert not out.exists()


def test_the_bounds_are_far_above_the_catalogue() -> None:
    for m in get_catalogue().metrics.values():
        assert math_bounds(m.formula or "") is None, m.id
        if m.formula:
            assert math_bounds(_nested(MAX_MATH_DEPTH // 4) + m.formula) is None  # four times as deep still passes


def test_safe_math_refuses_beyond_the_bounds_too() -> None:
    """A context built in Python and rendered without load_context: the formula is shown as text."""
    assert safe_math(_nested(900)) is None and safe_math(_nested(MAX_MATH_DEPTH)) == _nested(MAX_MATH_DEPTH)


def test_api_render_of_a_crafted_context_writes_no_deep_math(tmp_path: Path) -> None:
    from advisor.report import render_report
    from advisor.report import context_from_json

    d = json.loads(_base())
    d["metric_definitions"][0]["formula"] = _nested(900)
    ctx = context_from_json(d)
    out = render_report(ctx, "tex", tmp_path / "r.tex")[0]
    assert "{" * 100 not in Path(out).read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_a_formula_at_the_bound_compiles(cli, tmp_path: Path) -> None:
    d = json.loads(_base())
    d["metric_definitions"][1]["formula"] = r"\frac{1}{" * (MAX_MATH_DEPTH - 1) + "k" + "}" * (MAX_MATH_DEPTH - 1)
    p = tmp_path / "ctx.json"
    p.write_text(json.dumps(d), encoding="utf-8")
    assert cli("report", "--context", p, "-o", tmp_path / "r.tex").exit_code == 0
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]
