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
    "build_report": "._build_api",  # the flat report, or classes in a tree with taxonomy= (issue 23)
    "build_structured_report": "._build_structures",  # load_structured's inputs (issue 12)
    "methods_paragraph": "._render",
    "render_report": "._render",
    # what the CLI's report, methods, advise and catalogue commands need beside the three stages
    "atomic_write": "._safe_io",
    "check_count_totals": "._context_check",
    "check_outputs": "._safe_io",
    "check_resampling": "._inputs",
    "check_structured": "._build_structures",
    "format_for": "._render",
    "load_context": "._context_check",
    "methods_texts": "._render",
    "ordinal_tables_for_answers": "._build_structures",
    "output_plan": "._render",
    "render_checked": "._context_check",
    "require_pdf_engine": "._render",
    "structure_options": "._build_structures",
    "write_outputs": "._safe_io",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
