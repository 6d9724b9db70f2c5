"""A :class:`~advisor.stats.Comparison` as records, a pandas DataFrame and a notebook HTML table."""

from __future__ import annotations

from typing import Any

from .._format import format_number, html_table

__all__ = ["comparison_html", "comparison_records", "comparison_frame"]


def comparison_records(comparison: Any) -> list[dict[str, Any]]:
    """One dict per metric and system: estimate, interval, P(rank 1) and whether it is a winner."""
    out = []
    for mid, mc in comparison.metrics.items():
        for name, r in mc.systems.items():
            out.append({"metric": mid, "system": name, "estimate": r.estimate, "low": r.low, "high": r.high,
                        "p_first": r.p_first, "winner": name in mc.winners,
                        "higher_is_better": mc.higher_is_better})
    return out


def comparison_frame(comparison: Any) -> Any:
    """A pandas DataFrame indexed by (metric, system)."""
    import pandas as pd

    return pd.DataFrame.from_records(comparison_records(comparison)).set_index(["metric", "system"])


def comparison_html(comparison: Any) -> str:
    """A metric per row, a system per column (estimate [low, high], * for the winners)."""
    def fmt(x: Any) -> str:
        return format_number(x, none="undefined", nan="undefined", inf=("∞", "−∞"))

    rows = []
    for mid, mc in comparison.metrics.items():
        cells = [f"{fmt(r.estimate)} [{fmt(r.low)}, {fmt(r.high)}]" + (" *" if name in mc.winners else "")
                 for name, r in mc.systems.items()]
        rows.append([mid + ("" if mc.higher_is_better else " (lower is better)"), *cells])
    caption = (f"{len(comparison.systems)} systems, {comparison.n_resamples} paired bootstrap resamples, "
               f"{comparison.confidence:.0%} intervals; * = winners (not separable from the best)")
    return html_table(["metric", *comparison.systems], rows, caption)
