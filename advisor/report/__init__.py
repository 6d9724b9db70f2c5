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

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY = {
    "FORMATS": "._render",
    "ReportContext": "._models",
    "build_report": "._build_api",  # the flat report, or classes in a tree with taxonomy= (issue 23)
    "build_structured_report": "._build_structures",  # load_structured's inputs (issue 12)
    "methods_paragraph": "._render",
    "notebook_html": "._render",
    "render_report": "._render",
    # what the CLI's report, methods, advise and catalogue commands need beside the three stages
    "atomic_write": "._safe_io",
    "check_count_totals": "._context_check",
    "check_outputs": "._safe_io",
    "check_resampling": "._inputs",
    "runs_mismatch": "._runs:mismatch",
    "RUNS_SUPPORTED": "._runs:SUPPORTED",
    "check_structured": "._build_structures",
    "context_from_json": "._context_json",  # the JSON of render_report(ctx, "json") read back
    "context_json": "._context_json",
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


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._build_api import build_report as build_report
    from ._build_structures import (
        build_structured_report as build_structured_report,
        check_structured as check_structured,
        ordinal_tables_for_answers as ordinal_tables_for_answers,
        structure_options as structure_options,
    )
    from ._context_check import (
        check_count_totals as check_count_totals,
        load_context as load_context,
        render_checked as render_checked,
    )
    from ._inputs import check_resampling as check_resampling
    from ._runs import SUPPORTED as RUNS_SUPPORTED, mismatch as runs_mismatch
    from ._models import ReportContext as ReportContext
    from ._context_json import context_from_json as context_from_json
    from ._context_json import context_json as context_json
    from ._render import (
        FORMATS as FORMATS,
        format_for as format_for,
        methods_paragraph as methods_paragraph,
        notebook_html as notebook_html,
        methods_texts as methods_texts,
        output_plan as output_plan,
        render_report as render_report,
        require_pdf_engine as require_pdf_engine,
    )
    from ._safe_io import atomic_write as atomic_write, check_outputs as check_outputs, write_outputs as write_outputs
