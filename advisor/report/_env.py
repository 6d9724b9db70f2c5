"""Sandboxed Jinja environments, one per output format, with escaping that cannot be forgotten.

* Every environment is an :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment`: templates cannot
  reach Python internals or mutate the context, and user strings are only ever *data* — no template
  is built from user text, so ``{{ 7*7 }}`` in a class name stays literal.
* Autoescaping is on in every format, and a ``finalize`` hook escapes every value that is not
  already :class:`~markupsafe.Markup` with the format's escaper (for HTML
  :func:`~advisor._format.html_escape`, which also shows control characters as visible escapes), so each ``{{ … }}`` is escaped unless a filter deliberately produced markup
  (``math``, ``cite``, numbers).
* LaTeX templates use ``((* … *))`` for statements and ``((( … )))`` for expressions, so TeX braces
  never collide with Jinja syntax.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from .._format import format_count, format_number, html_escape, latex_escape, markdown_code, markdown_escape

__all__ = ["anchor", "environment", "fmt_num", "template_dir"]

_ESCAPERS: dict[str, Callable[[object], str]] = {
    "html": html_escape,
    "md": markdown_escape,
    "tex": latex_escape,
}


def template_dir() -> Path:
    """``advisor/templates`` in an installed wheel, else ``<repository>/templates``."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "templates", here.parent / "templates"):
        if (candidate / "report.html.j2").is_file():
            return candidate
    raise FileNotFoundError("advisor's report templates are missing (expected advisor/templates or templates/).")


def fmt_num(value: Any, digits: int = 4) -> str:
    """A number as the reports print it (:func:`advisor._format.format_number`): not given → ``n/a``; NaN, a value
    with a zero denominator under the ``omit`` convention, → ``undefined``.

    >>> fmt_num(0.81234), fmt_num(None), fmt_num(float("nan")), fmt_num(float("inf")), fmt_num(3.0, 0)
    ('0.8123', 'n/a', 'undefined', 'inf', '3')
    """
    return format_number(value, digits, nan="undefined")


def anchor(key: Any) -> Markup:
    """An id or citation key safe in HTML ids and LaTeX ``\\cite``: ASCII letters, digits, ``_`` and ``-``.

    >>> str(anchor("opitz2024closer")), str(anchor('x"><script>'))
    ('opitz2024closer', 'x---script-')
    """
    return Markup(re.sub(r"[^A-Za-z0-9_-]", "-", str(key)))


def fmt_count(value: Any) -> str:
    """Counts as the reports print them (:func:`advisor._format.format_count`)."""
    return format_count(value)


def _make_finalize(escape: Callable[[object], str]) -> Callable[[Any], Any]:
    def finalize(value: Any) -> Any:
        if isinstance(value, Markup):
            return value
        if value is None:
            return Markup("")
        return Markup(escape(value))

    return finalize


def _make_join(escape: Callable[[object], str]) -> Callable[..., Markup]:
    def join(items: Iterable[Any], sep: str = ", ") -> Markup:
        parts = [v if isinstance(v, Markup) else Markup(escape(v)) for v in items]
        return Markup(escape(sep) if not isinstance(sep, Markup) else sep).join(parts)

    return join


def _make_fill(escape: Callable[[object], str]) -> Callable[..., Markup]:
    """``pattern|fill(name=value, …)``: a prose pattern of :mod:`._report_text` with its fields filled.

    The pattern's words and plain values are escaped for the format; a value that is already markup
    (a ``\\usepackage`` line, a formula) goes in as it is.
    """
    def fill(pattern: Any, **parts: Any) -> Markup:
        out = []
        for literal, field, spec, _ in string.Formatter().parse(str(pattern)):
            out.append(escape(literal) if literal else "")
            if field is not None:
                value = parts[field]
                out.append(str(value) if isinstance(value, Markup) else escape(format(value, spec or "")))
        return Markup("".join(out))

    return fill


@lru_cache(maxsize=8)
def environment(fmt: str) -> ImmutableSandboxedEnvironment:
    """The sandboxed environment for ``fmt`` (``html``, ``md`` or ``tex``), cached."""
    escape = _ESCAPERS[fmt]
    options: dict[str, Any] = {
        "loader": FileSystemLoader(str(template_dir())),
        "autoescape": True,
        "undefined": StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
    }
    options["finalize"] = _make_finalize(escape)  # HTML too: html_escape also makes control characters visible
    if fmt == "tex":
        options.update(
            block_start_string="((*",
            block_end_string="*))",
            variable_start_string="(((",
            variable_end_string=")))",
            comment_start_string="((=",
            comment_end_string="=))",
        )
    env = ImmutableSandboxedEnvironment(**options)

    def esc(value: Any) -> Markup:
        return value if isinstance(value, Markup) else Markup(escape(value))

    env.filters["esc"] = esc
    env.filters["join"] = _make_join(escape)
    env.filters["fill"] = _make_fill(escape)
    env.globals["raw"] = Markup
    env.filters["num"] = lambda v, digits=4: Markup(escape(fmt_num(v, digits)))
    env.filters["count"] = lambda v: Markup(escape(fmt_count(v)))
    env.filters["capitalize_first"] = lambda v: esc(str(v)[:1].upper() + str(v)[1:])
    env.filters["anchor"] = anchor
    env.filters["code"] = (lambda v: Markup(markdown_code(v))) if fmt == "md" else esc
    env.filters["pct"] = lambda v, digits=0: Markup(escape("n/a" if v is None else f"{100 * float(v):.{digits}f}%"))
    return env
