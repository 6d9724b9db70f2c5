"""A :class:`~advisor.questionnaire.Recommendation` as an HTML table, for a notebook."""

from __future__ import annotations

from typing import Any

from .._format import html_table

__all__ = ["recommendation_html"]


def recommendation_html(rec: Any) -> str:
    """One row per metric (primary, report beside, avoid) and per warning: role, metric, why."""
    p = rec.primary
    params = ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}" for k, v in p.params.items())
    rows: list[list[Any]] = [["primary", f"{p.name or p.metric} ({p.metric})" + (f" with {params}" if params else ""),
                              p.reason]]
    rows += [["report beside it", f"{a.name or a.metric} ({a.metric})", a.reason] for a in rec.complementary]
    rows += [["avoid", f"{a.name or a.metric} ({a.metric})", a.reason] for a in rec.discouraged]
    rows += [["warning", w.code, w.message] for w in rec.warnings]
    rows += [["reporting duty", "", d] for d in rec.duties]
    return html_table(["role", "metric", "why"], rows, "recommendation")
