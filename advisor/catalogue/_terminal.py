"""The catalogue for a terminal: ``explain`` as Markdown a terminal renders (Rich), ``metrics`` as a
table that fits 80 columns with its abbreviations explained, and the metric groups ``compare``
prints one table each for.

Formulas are shown as their LaTeX source in a code block: exact, copyable, and readable without a
math renderer. Counterexamples and the long notes of the property claims stay in
``advisor explain NAME --format md`` and ``docs/metrics.md``.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

from .._format import markdown_code
from ._models import GOESGENS_PROPERTIES, OPITZ_PROPERTIES, PROPERTY_IDS, Catalogue, MetricRecord
from ._render import LONG, SHORT, STATUS_WORDS, SYMBOLS, _explain_md, record_body
from ._resolve import Resolution

__all__ = ["METRIC_GROUPS", "explain_terminal", "group_metrics", "metrics_table"]

# The groups ``advisor compare`` prints one table each for (ids of other metrics go to "other").
METRIC_GROUPS: dict[str, tuple[str, ...]] = {
    "overall agreement": ("accuracy", "micro_f1", "balanced_accuracy", "macro_recall", "adjusted_balanced_accuracy",
                          "cohen_kappa", "mcc", "sba", "gm1", "correlation_distance", "confusion_entropy"),
    "averages over classes": ("macro_precision", "macro_f1", "f1_of_averages", "weighted_f1", "minority_weighted_f1",
                              "macro_jaccard", "weighted_jaccard", "micro_jaccard", "geometric_macro_recall",
                              "harmonic_macro_recall"),
    "positive class": ("precision", "recall", "f1", "f_beta", "specificity", "npv", "jaccard", "fowlkes_mallows",
                       "informedness", "markedness", "lr_plus", "lr_minus", "lam"),
    "probabilities": ("log_loss", "brier"),
}


def group_metrics(ids: Iterable[str]) -> dict[str, list[str]]:
    """``ids`` split into :data:`METRIC_GROUPS` (in the given order; unknown ids under "other").

    >>> group_metrics(["mcc", "macro_f1", "accuracy", "expected_cost"])
    {'overall agreement': ['mcc', 'accuracy'], 'averages over classes': ['macro_f1'], 'other': ['expected_cost']}
    """
    where = {mid: name for name, members in METRIC_GROUPS.items() for mid in members}
    out: dict[str, list[str]] = {}
    for mid in ids:
        out.setdefault(where.get(mid, "other"), []).append(mid)
    order = [*METRIC_GROUPS, "other"]
    return {name: out[name] for name in order if name in out}


# ----------------------------------------------------------------------------------------------
# explain
# ----------------------------------------------------------------------------------------------
def _claim_line(rec: MetricRecord, pid: str) -> str:
    c = rec.properties[pid]
    text = f"{SYMBOLS[c.status]} {LONG[pid]}: {STATUS_WORDS[c.status]}"
    if c.condition:
        text += f" if {c.condition}"
    if c.chance_correction is not None:
        text += f" (ω(k) = {c.chance_correction.baseline})"
    if c.status == "not_applicable":  # issue 12: the reason instead of a verification mark
        return text + (f": {c.note}" if c.note else "")
    return text + ("" if c.verified or rec.needs_probabilities else " (not verified)")


def _formula_lines(formula: str) -> list[str]:
    r"""A formula's LaTeX source one definition a line (split at ``,\quad``), so a terminal need not
    break it inside a command.

    >>> _formula_lines(r"a+b,\quad a=\frac{1}{2}")
    ['a+b,', 'a=\\frac{1}{2}']
    """
    parts = [p.strip() for p in re.split(r"(?<=,)\s*\\q?quad\s*", formula.strip())]
    return [p for p in parts if p]


def _record(rec: MetricRecord, heading: str) -> list[str]:
    formula = ["```latex", *_formula_lines(rec.formula), "```"]
    properties = ["**Properties** (sources and counterexamples: `--format md`).", ""]
    properties += [f"- {_claim_line(rec, pid)}" for pid in PROPERTY_IDS if pid in rec.properties] + [""]
    return [heading, "", *record_body(rec, formula, properties)]


def explain_terminal(res: Resolution) -> str:
    """``advisor explain`` as Markdown for a terminal renderer: formulas as LaTeX code blocks,
    properties one short line each. The user's query is shown as an inline code span."""
    return _explain_md(res, quoted=markdown_code(res.query), record=_record)


# ----------------------------------------------------------------------------------------------
# metrics
# ----------------------------------------------------------------------------------------------
def _block(cat: Catalogue, pids: tuple[str, ...], title: str, width: int) -> list[str]:
    cols = [SHORT[p] for p in pids]
    cell = max(5, *(len(c) + 1 for c in cols))
    lines = [title, "metric".ljust(width) + "".join(c.ljust(cell) for c in cols).rstrip()]
    for mid, rec in cat.metrics.items():
        marks = [SYMBOLS[rec.properties[p].status] + ("" if rec.properties[p].verified or rec.needs_probabilities
                                                      or rec.properties[p].status == "not_applicable" else "?")
                 for p in pids]
        lines.append(mid.ljust(width) + "".join(m.ljust(cell) for m in marks).rstrip())
    return lines


def metrics_table(cat: Catalogue, columns: int = 80) -> str:
    """The catalogue as two plain-text tables (Opitz's properties, Gösgens et al.'s) that fit
    ``columns`` columns, with every abbreviation spelled out below them."""
    width = max(len(mid) for mid in cat.metrics) + 2
    lines = _block(cat, OPITZ_PROPERTIES, "Properties of Opitz (2024):", width) + [""]
    lines += _block(cat, GOESGENS_PROPERTIES, "Properties of Gösgens et al. (2021):", width) + [""]
    wrap = textwrap.TextWrapper(width=columns - 1, subsequent_indent="  ")
    for title, pids in (("Opitz (2024)", OPITZ_PROPERTIES), ("Gösgens et al. (2021)", GOESGENS_PROPERTIES)):
        words = " · ".join(f"{SHORT[p]} {LONG[p].split(' (')[0].lower()}".replace(" ", _NBSP) for p in pids)
        lines += wrap.wrap(f"{title}: {words}")
    legend = [f"{mark} {words}".replace(" ", _NBSP) for mark, words in (
        ("✓", "holds"), ("✗", "fails"), ("b", "two classes only"), ("(✓)", "after prevalence calibration"),
        ("c", "under a condition"), ("–", "does not apply"), ("?", "not verified."))]
    lines += wrap.wrap("  ".join(legend) + " Details: advisor explain NAME, advisor metrics --json, docs/metrics.md")
    return "\n".join(lines).replace(_NBSP, " ")


_NBSP = "\u00a0"  # keeps an abbreviation and its words on one line when the legend is wrapped
