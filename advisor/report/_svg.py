"""Making SVG (from matplotlib or ziamath) safe and tidy to inline in an HTML page.

Inline SVG shares the page's id namespace and CSS, so each picture is cleaned:

* the XML declaration, DOCTYPE (it names an external DTD), ``<metadata>`` and comments go;
* ``style="a: b; c: d"`` becomes presentation attributes ``a="b" c="d"`` and a ``<style>`` element
  becomes attributes of the root (a stylesheet inside inline SVG would apply to the whole page);
* every ``id`` gets a per-picture prefix and every ``#id`` / ``url(#id)`` reference follows it;
* for inlining, the namespace declarations (URLs) are dropped: HTML parsing puts ``<svg>`` in the
  SVG namespace by itself, and the report then contains no URL at all;
* a code point XML forbids (U+FFFE, a lone surrogate, a C0 control) becomes a visible ``\\uNNNN``.

>>> s = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><path id="a" style="fill: red"/><use xlink:href="#a"/></svg>'
>>> clean_svg(s, prefix="f1-", inline=True)
'<svg><path id="f1-a" fill="red"/><use xlink:href="#f1-a"/></svg>'
"""

from __future__ import annotations

import re

from .._format import XML_INVALID

__all__ = ["clean_svg"]

_DROP = [
    re.compile(r"<\?xml.*?\?>", re.S),
    re.compile(r"<!DOCTYPE.*?>", re.S),
    re.compile(r"<metadata>.*?</metadata>", re.S),
    re.compile(r"<!--.*?-->", re.S),
]
_STYLE_ELEMENT = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
_STYLE_ATTR = re.compile(r'\sstyle="([^"]*)"')
_ID = re.compile(r'\sid="([^"]+)"')
_REF = re.compile(r'(href="#|url\(#)([^")]+)')
_NS = re.compile(r'\s(xmlns(?::\w+)?|version)="[^"]*"')
_PROP = re.compile(r"^[a-z-]+$")
_DATA_HREF = re.compile(r'href="data:[^"]*"')


def _style_to_attrs(style: str) -> str:
    parts = []
    for decl in style.split(";"):
        if ":" not in decl:
            continue
        name, value = (x.strip() for x in decl.split(":", 1))
        if _PROP.match(name) and '"' not in value and "<" not in value:
            parts.append(f' {name}="{value}"')
    return "".join(parts)


def clean_svg(svg: str, *, prefix: str = "", inline: bool = True, extra_attrs: str = "") -> str:
    """Return ``svg`` cleaned for embedding (see the module docstring).

    Parameters
    ----------
    prefix : str
        Prepended to every id (and reference) so several pictures can share one page.
    inline : bool
        Drop the namespace declarations (for inline use in HTML); keep them for standalone files.
    extra_attrs : str
        Attributes (already escaped) to add to the root ``<svg>`` element, e.g. ``role="img"``.
    """
    # the last net: a code point XML forbids (a control, a lone surrogate, U+FFFE/U+FFFF) is written as a
    # visible escape, so the picture parses whatever text reached it (labels are escaped before drawing)
    svg = XML_INVALID.sub(lambda mm: f"\\u{ord(mm.group()):04x}", svg)
    for pat in _DROP:
        svg = pat.sub("", svg)
    root_attrs = ""
    m = _STYLE_ELEMENT.search(svg)
    if m:
        body = re.sub(r"^[^{]*\{|\}\s*$", "", m.group(1).strip())
        root_attrs = _style_to_attrs(body)
        svg = _STYLE_ELEMENT.sub("", svg)
        svg = re.sub(r"<defs>\s*</defs>", "", svg)
    svg = _STYLE_ATTR.sub(lambda mm: _style_to_attrs(mm.group(1)), svg)
    svg = _DATA_HREF.sub(lambda mm: re.sub(r"\s+", "", mm.group(0)), svg)  # wrapped base64 → one URL
    if prefix:
        svg = _ID.sub(lambda mm: f' id="{prefix}{mm.group(1)}"', svg)
        svg = _REF.sub(lambda mm: f"{mm.group(1)}{prefix}{mm.group(2)}", svg)
    if inline:
        start = svg.find("<svg")
        end = svg.find(">", start)
        svg = svg[:start] + _NS.sub("", svg[start:end]) + svg[end:]
    if root_attrs or extra_attrs:
        start = svg.find("<svg") + 4
        svg = svg[:start] + root_attrs + (" " + extra_attrs if extra_attrs else "") + svg[start:]
    return svg.strip()
