"""The report of classes in a taxonomy (issue 23, item 4): the per-level and error-distance tables and the methods
sentence that says how the hierarchical metrics were computed."""

from __future__ import annotations

from typing import Any

from ..stats import proportion_interval
from ._models import Paragraph, Span, TableBlock

__all__ = ["hierarchy_equal", "hierarchy_methods", "hierarchy_tables"]


def _tree_words(tax: dict[str, Any]) -> str:
    per_level = " / ".join(f"{n:,}" for n in tax.get("classes_per_level") or [])
    root = (f"the root {tax['root']!r} excluded" if tax.get("root") is not None else "under an implicit root")
    return f"depth {tax.get('depth')}, {per_level} classes per level, {root}"


def hierarchy_tables(structure: Any, confidence: float, digits: int) -> list[TableBlock]:
    """The accuracy at each depth (with Clopper–Pearson intervals) and the items per error distance, per system."""
    names = list(structure.levels)
    places = max(digits - 1, 2)  # as Table 1 (three places at the default four digits)
    num = lambda v: "—" if v is None else f"{v:.{places}f}"  # noqa: E731
    depths = sorted({r["depth"] for rows in structure.levels.values() for r in rows})
    rows = []
    for d in depths:
        row = [str(d)]
        for n in names:
            r = next((x for x in structure.levels[n] if x["depth"] == d), None)
            if r is None:
                row.append("—")
                continue
            lo, hi = proportion_interval(r["correct"], r["items"], confidence)
            row.append(f"{num(r['accuracy'])} [{num(float(lo))}, {num(float(hi))}]")
        items = next((x["items"] for x in structure.levels[names[0]] if x["depth"] == d), 0)
        rows.append([row[0], f"{items:,.0f}", *row[1:]])
    levels = TableBlock(
        id="hierarchy_levels", title="Accuracy at each depth of the taxonomy",
        caption=(f"Depth 1 is the top categories ({_tree_words(structure.taxonomy)}). An item counts at a depth when "
                 "its true class is that deep; it is right there when the predicted class's ancestor at that depth is "
                 f"the true class's. {confidence:.0%} Clopper–Pearson intervals."),
        columns=["depth", "items", *names], numeric=[True] * (2 + len(names)), rows=rows)
    dists = sorted({r["distance"] for rows_ in structure.distances.values() for r in rows_})
    drows = []
    for d in dists:
        row = [str(d)]
        for n in names:
            r = next((x for x in structure.distances[n] if x["distance"] == d), None)
            row.append("0" if r is None else f"{r['items']:,.0f} ({r['share']:.1%})")
        drows.append(row)
    distances = TableBlock(
        id="hierarchy_distances", title="Error distances in the taxonomy",
        caption=("Items per tree distance between the true and the predicted class: the number of edges on the path "
                 "between them (0: right; 2: a sibling, a wrong shelf in the right aisle). Share of the items in "
                 "brackets."),
        columns=["distance", *names], numeric=[True] * (1 + len(names)), rows=drows)
    return [levels, distances]


#: The hierarchical metrics that are one number when every class sits at one depth (``engine.one_depth``).
_ONE_NUMBER = ("hierarchical_f1", "hierarchical_precision", "hierarchical_recall")


def hierarchy_equal(depth: int | None, lead: str) -> dict[str, str]:
    """The hierarchical metrics beside the lead that equal it on these data (every class at one ``depth``), each
    with the reason; none when the depths differ or the lead is not one of them.

    >>> hierarchy_equal(3, "hierarchical_f1")["hierarchical_recall"]
    'it equals hierarchical F1 here: every class in the data sits at depth 3'
    """
    if depth is None or lead not in _ONE_NUMBER:
        return {}
    names = {"hierarchical_f1": "hierarchical F1", "hierarchical_precision": "hierarchical precision",
             "hierarchical_recall": "hierarchical recall"}
    return {m: f"it equals {names[lead]} here: every class in the data sits at depth {depth}"
            for m in _ONE_NUMBER if m != lead}


def hierarchy_methods(structure: Any, depth: int | None = None, lead: str = "hierarchical F1") -> Paragraph:
    """The methods sentence: the tree, and how hierarchical precision, recall and F1 and the tables are computed;
    with every class at one ``depth``, that the three are one number."""
    tax = structure.taxonomy
    same = [] if depth is None else [Span(text=(
        f" Every true and predicted class here sits at depth {depth}, so each item's two sets have {depth} classes "
        "and share those of the levels where the true and the predicted path agree: hierarchical precision, recall "
        f"and F1 are one number, the mean of the {depth} per-level accuracies. We report it as "
        f"{lead[:1].lower() + lead[1:]}, beside the accuracy at each level."))]
    return Paragraph(spans=[
        Span(text=f"The classes form a taxonomy ({_tree_words(tax)}). Hierarchical precision, recall and F1 are "
                  "micro-averaged over the items' ancestor-augmented label sets — each class with its ancestors, the "
                  "root excluded "),
        Span(kind="cite", keys=["kiritchenko2006learning"]),
        Span(text=" — and computed from the confusion matrix, so the bootstrap resamples its cells. The accuracy at "
                  "each depth asks whether the predicted class's ancestor at that depth is the true class's; the "
                  "error distance is the number of edges between the true and the predicted class."),
        *same,
    ])
