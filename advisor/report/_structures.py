"""The evaluation section for ordinal, multi-label, top-k and agreement evaluations (Markdown).

A standalone renderer while the main report (``_build``/templates) is restructured: methods (the lead
metric from the questionnaire and why, every reported metric with its catalogue formula, resampling,
undefined-value convention), results with bootstrap intervals, one figure
(:mod:`._figures_structures`) and references. Every user-supplied string is escaped for Markdown.
"""

from __future__ import annotations

from typing import Any

from .._format import format_number, markdown_escape

__all__ = ["structure_report_markdown"]

_WHAT = {
    "ordinal": "ordered classes (order: {order})",
    "multilabel": "label sets: each item carries any number of the labels {labels}; each label is also a binary task",
    "top_k": "scores over {n} classes, an item counting as right when its true class is among the {k} highest-scored",
    "agreement": "ratings of {n_items} items by {n_raters} annotators without a gold standard",
}
_RESAMPLING = {
    "ordinal": "resampling the cells of each confusion table (multinomially, as many draws as items)",
    "multilabel": "resampling items",
    "top_k": "resampling items",
    "agreement": "resampling items (every annotator's ratings of an item stay together)",
}


def _n(v: Any) -> str:
    return format_number(v, none="—")


def _methods(data: dict[str, Any], rec: Any, cat: Any, n_boot: int, confidence: float, undefined: str) -> list[str]:
    s = data["structure"]
    first = next(iter(data["metrics"].values()))
    what = _WHAT[s].format(order=" < ".join(map(str, data.get("order", []))), labels=", ".join(data.get("labels", [])),
                           n=len(data.get("labels", [])), k=data.get("k"), n_items=data.get("n_items", "the"),
                           n_raters=len(data.get("raters", {})))
    lead = rec.primary
    out = ["## Methods", "", markdown_escape(f"The data are {what}."), ""]
    if lead.metric in cat.metrics:
        out += [markdown_escape(f"We lead with {lead.name}: {lead.reason}."), "",
                f"$${cat.metrics[lead.metric].formula}$$", ""]
    out.append("Beside it we report:")
    out.append("")
    for mid in first:
        if mid == lead.metric or mid not in cat.metrics:
            continue
        rec_m = cat.metrics[mid]
        out.append(f"* {markdown_escape(rec_m.name)} (`{mid}`): {markdown_escape(rec_m.interpretation)} "
                   f"$`{rec_m.formula}`$")
    out.append("")
    if n_boot:
        out.append(markdown_escape(f"Intervals are {int(round(confidence * 100))} % percentile bootstrap intervals from "
                                   f"{n_boot} resamples, {_RESAMPLING[s]}."))
    conv = {"zero": "counted as 0", "baseline": "resolved by the baseline convention (agreement where both are "
            "empty)", "omit": "left out of the averages"}[undefined]
    out += ["", markdown_escape(f"Undefined values (a zero denominator) are {conv}; each one is listed below."), ""]
    return out


def _results(data: dict[str, Any], cat: Any, intervals: dict[str, Any] | None) -> list[str]:
    systems = data["systems"]
    out = ["## Results", "", "| metric | " + " | ".join(markdown_escape(s) for s in systems) + " |",
           "|---|" + "---:|" * len(systems)]
    ids = list(dict.fromkeys(m for s in systems for m in data["metrics"][s]))
    for m in ids:
        name = cat.metrics[m].name if m in cat.metrics else m
        cells = []
        for s in systems:
            v = data["metrics"][s].get(m)
            iv = (intervals or {}).get(s, {}).get(m)
            cells.append(_n(v) + ("" if iv is None else f" [{_n(iv['low'])}, {_n(iv['high'])}]"))
        out.append(f"| {markdown_escape(name)} | " + " | ".join(cells) + " |")
    out.append("")
    for s, recs in data["undefined"].items():
        for u in recs:
            out.append(markdown_escape(f"* {s}: {u['metric']} — {u['quantity']}: {u['reason']}; resolved as "
                                       f"{u['resolution']}."))
    if "per_label" in data:  # each label its own binary task
        out += ["", "Per label (each label a binary task; precision / recall / F1):", "",
                "| label | " + " | ".join(markdown_escape(s) for s in systems) + " |", "|---|" + "---:|" * len(systems)]
        for lab in data["per_label"][systems[0]]:
            cells = [" / ".join(_n(data["per_label"][s][lab][m]) for m in ("precision", "recall", "f1")) for s in systems]
            out.append(f"| {markdown_escape(lab)} | " + " | ".join(cells) + " |")
    if data["structure"] == "agreement":
        out += ["", markdown_escape("Ratings per annotator: " + ", ".join(f"{k} {v}" for k, v in data["raters"].items())
                                    + ". Cohen's kappa per pair: " + ", ".join(
                                        f"{k} {_n(v)}" for k, v in data["pairs"].items()) + ".")]
    return out + [""]


def structure_report_markdown(data: dict[str, Any], rec: Any, *, figure: str | None, title: str | None = None,
                              intervals: dict[str, Any] | None = None, n_boot: int = 0, confidence: float = 0.95,
                              undefined: str = "zero") -> str:
    """The report as Markdown; ``figure`` is the relative path of the PNG written beside it."""
    from ..catalogue import get_catalogue
    from ._bib import parse_bibtex

    cat = get_catalogue()
    lines = [f"# {markdown_escape(title or 'Evaluation')}", ""]
    lines += _methods(data, rec, cat, n_boot, confidence, undefined)
    lines += _results(data, cat, intervals)
    if figure:
        lines += [f"![{markdown_escape(_caption(data['structure']))}]({figure})", "",
                  f"*Figure 1. {markdown_escape(_caption(data['structure']))}*", ""]
    from ..catalogue._load import BIB_FILE

    bib = parse_bibtex(BIB_FILE.read_text(encoding="utf-8"))
    keys = list(dict.fromkeys(k for s in data["systems"] for m in data["metrics"][s] if m in cat.metrics
                              for k in cat.metrics[m].references))
    lines += ["## References", ""] + [f"* {markdown_escape(bib[k].text)}" for k in keys if k in bib]
    return "\n".join(lines) + "\n"


def _caption(structure: str) -> str:
    return {"ordinal": "Confusion matrices in class order; the shading of a cell is the distance of the error.",
            "multilabel": "F1 of each label (its own binary task), sorted, with the label's share of items.",
            "top_k": "Top-k accuracy as k grows; the dotted line marks the k of the evaluation.",
            "agreement": "Cohen's kappa of each pair of annotators."}[structure]
