r"""Formulas: one LaTeX source (the catalogue's), typeset as inline SVG for HTML and PDF.

Markdown writes the LaTeX between ``$…$``, LaTeX output inlines it, and HTML/PDF get an SVG drawn
by ziamath (glyphs as paths, so the PDF's text layer never contains TeX source). Each distinct
formula is typeset once per process.

>>> svg = formula_svg(r"\frac{1}{k}\sum_i R_i")
>>> svg.startswith("<svg") and "http" not in svg and "\\frac" not in svg
True
"""

from __future__ import annotations

import threading
from functools import lru_cache

from markupsafe import Markup

from ._escape import html_escape
from ._svg import clean_svg

__all__ = ["formula_svg"]

_LOCK = threading.Lock()


@lru_cache(maxsize=1024)
def _typeset(latex: str, size: float, display: bool) -> tuple[str, float]:
    import ziamath  # deferred: loads the math font

    with _LOCK:
        old = ziamath.config.svg2
        ziamath.config.svg2 = False  # paths inline, no <symbol> ids to clash between formulas
        try:
            m = ziamath.Latex(latex, size=size, inline=not display)
            svg = m.svg()
            yofst = float(m.getyofst()) if not display else 0.0
        finally:
            ziamath.config.svg2 = old
    return svg, yofst


def formula_svg(latex: str, *, display: bool = False, size: float = 14.0, label: str | None = None) -> Markup:
    """Inline SVG of ``latex``, baseline-aligned with the surrounding text when ``display`` is false.

    ``label`` (plain words, e.g. the metric's name) becomes the picture's accessible name.
    """
    svg, yofst = _typeset(latex, float(size), bool(display))
    cls = "formula-display" if display else "formula"
    attrs = f'class="{cls}" role="img" aria-label="{html_escape(label or "formula")}"'
    if not display and yofst:
        attrs += f' style="vertical-align: {yofst:.2f}px"'
    return Markup(clean_svg(svg, inline=True, extra_attrs=attrs))
