"""Report generator: from answers and predictions to the evaluation section, in every format.

Stages (each a pydantic model or a pure function, so a report can be re-rendered from its JSON):

1. :func:`build_report` computes everything — recommendation, metrics, intervals, winners,
   per-class tables, chance levels, undefined values, figure data, references — into a
   :class:`ReportContext`.
2. :func:`render_report` turns a context into Markdown, LaTeX, HTML, PDF or JSON through the
   sandboxed Jinja templates in ``templates/``.
3. :func:`methods_paragraph` writes the methods paragraph alone, from the answers (no data).

It may import every stage below it (questionnaire, catalogue, stats, io, engine) and the base
modules; never the CLI.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY = {
    "FORMATS": "._render",
    "ReportContext": "._models",
    "build_report": "._build",
    "build_structured_report": "._build_structures",  # load_structured's inputs (issue 12)
    "methods_paragraph": "._render",
    "render_report": "._render",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
