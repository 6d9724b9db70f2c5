r"""Formulas: one LaTeX source (the catalogue's), typeset as inline SVG for HTML and PDF.

Markdown writes the LaTeX between ``$…$``, LaTeX output inlines it, and HTML/PDF get an SVG drawn
by ziamath (glyphs as paths, so the PDF's text layer never contains TeX source). Each distinct
formula is typeset once per process and kept in a small on-disk cache (``$ADVISOR_CACHE_DIR``,
else ``$XDG_CACHE_HOME/advisor`` or ``~/.cache/advisor``; set ``ADVISOR_CACHE_DIR`` to an empty
string to disable it), so the next report does not even import ziamath.

>>> svg = formula_svg(r"\frac{1}{k}\sum_i R_i")
>>> svg.startswith("<svg") and "http" not in svg and "\\frac" not in svg
True
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path

from markupsafe import Markup

from .._format import html_escape
from ._safe_io import atomic_write
from ._svg import clean_svg

__all__ = ["flush_formula_cache", "formula_svg"]

_LOCK = threading.Lock()
_CACHE_VERSION = 1
_disk: dict[str, list] | None = None
_dirty = False


def _cache_file() -> Path | None:
    base = os.environ.get("ADVISOR_CACHE_DIR")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = str(Path(xdg) / "advisor") if xdg else str(Path.home() / ".cache" / "advisor")
    if not base:
        return None
    try:
        zv = version("ziamath")
    except Exception:  # pragma: no cover - metadata missing
        zv = "unknown"
    return Path(base) / f"formulas-v{_CACHE_VERSION}-ziamath{zv}.json"


def _disk_cache() -> dict[str, list]:
    global _disk
    if _disk is None:
        _disk = {}
        path = _cache_file()
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict):
                    _disk = {k: v for k, v in data.items()
                             if isinstance(v, list) and len(v) == 2 and isinstance(v[0], str)
                             and v[0].startswith("<svg") and isinstance(v[1], (int, float))}
            except (OSError, ValueError):
                pass
    return _disk


def flush_formula_cache() -> None:
    """Write newly typeset formulas to the on-disk cache (best effort, atomic)."""
    global _dirty
    path = _cache_file()
    if not _dirty or path is None or _disk is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, json.dumps(_disk))
        _dirty = False
    except OSError:
        pass


def _key(latex: str, size: float, display: bool) -> str:
    return hashlib.sha256(f"{size}|{int(display)}|{latex}".encode()).hexdigest()[:32]


@lru_cache(maxsize=1024)
def _typeset(latex: str, size: float, display: bool) -> tuple[str, float]:
    global _dirty
    key = _key(latex, size, display)
    hit = _disk_cache().get(key)
    if hit is not None:
        return hit[0], float(hit[1])
    svg, yofst = _typeset_now(latex, size, display)
    _disk_cache()[key] = [svg, yofst]
    _dirty = True
    return svg, yofst


def _typeset_now(latex: str, size: float, display: bool) -> tuple[str, float]:
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
