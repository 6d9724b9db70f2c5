"""A drawn figure and how it is written (SVG, PDF), shared by every figure module."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._format import display_label

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.typing import RcKeyType

__all__ = ["Figure", "save_figure"]

# Okabe–Ito palette: distinguishable with the common colour-vision deficiencies.
_PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]


_WIDTH = 6.3  # inches: the text width of an A4 page with 2.5 cm margins


def _text(s: object, limit: int = 24) -> str:
    """User text for matplotlib: shortened and control characters visible (:func:`display_label`; the
    SVG stays valid XML), no mathtext (``$`` escaped)."""
    return display_label(s, limit).replace("$", r"\$")


def _colour(i: int) -> str:
    return _PALETTE[i % len(_PALETTE)]


_RC: dict[RcKeyType, Any] = {
    "font.size": 8.0,
    "axes.titlesize": 9.0,
    "axes.labelsize": 8.0,
    "xtick.labelsize": 7.5,
    "ytick.labelsize": 7.5,
    "legend.fontsize": 7.5,
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "svg.hashsalt": "advisor-report",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
    "savefig.dpi": 150,  # resolution of the heatmaps' embedded images
    "pdf.fonttype": 42,
}


class _Factory:
    """Creates figures without pyplot: no global figure registry, no backend switching."""

    def __init__(self) -> None:
        from matplotlib.figure import Figure as _MplFigure

        self._cls = _MplFigure

    def subplots(self, nrows: int = 1, ncols: int = 1, *, figsize: tuple[float, float], squeeze: bool = True) -> Any:
        fig = self._cls(figsize=figsize)
        axes = fig.subplots(nrows, ncols, squeeze=squeeze)
        return fig, axes



@dataclass
class Figure:
    """One drawn figure: its id, caption (plain text) and the bytes/text in each format asked for."""

    id: str
    caption: str
    svg: str | None = None
    pdf: bytes | None = None


def save_figure(fid: str, caption: str, fig: Any, formats: tuple[str, ...] | Any) -> Figure:
    """``fig`` written in each of ``formats`` (reproducible: no dates), then cleared."""
    out = Figure(fid, caption)
    try:
        if "svg" in formats:
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
            out.svg = buf.getvalue()
        if "pdf" in formats:
            bbuf = io.BytesIO()
            fig.savefig(bbuf, format="pdf", metadata={"CreationDate": None, "Creator": None})
            out.pdf = bbuf.getvalue()
    finally:
        fig.clear()
    return out
