"""The reasoning in reader terms: the justification a reviewer reads names no internals.

The rule engine's rationale carries what a maintainer needs — answers keys ("(class_weighting =
equal)"), metric and property ids, the framework's property numbers ("PIV"), the property score
that ranked the candidates. :func:`reader_terms` says the same reasoning for a reader: ids become
names, the answers and scores that only restate the situation are dropped, and Opitz's property
numbers give way to the property's name with its citation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["FORMULA", "plain_formulas", "protect_formulas", "reader_terms"]

#: A formula in running text is written between backquotes (`Fβ = (1+β²)·TP / (…)`): prose helpers leave it as
#: it is — its parentheses and subscripts are mathematics, not prose (issue 22: formulas are data).
FORMULA = re.compile(r"(`[^`]*`)")


def protect_formulas(text: str, fn: Any) -> str:
    """``fn`` applied to the prose of ``text``, every backquoted formula kept exactly as written.

    >>> protect_formulas("x_y `a_j (b)`", str.upper)
    'X_Y `a_j (b)`'
    """
    return "".join(part if i % 2 else fn(part) for i, part in enumerate(FORMULA.split(text)))


def plain_formulas(text: str) -> str:
    """The text for a terminal: formulas without their backquotes."""
    return text.replace("`", "")


_ROMAN = r"P(?:I|II|III|IV|V)"
_TAGS = re.compile(rf"\s*\({_ROMAN}(?:,\s*{_ROMAN})*\)")  # "(PIV)"
_OPITZ_LABEL = re.compile(rf"\(Opitz\s+{_ROMAN}\)")  # "monotonicity (Opitz PI)": which framework's, said by name
_OPITZ_TAG = re.compile(rf"\bOpitz\s+{_ROMAN}\b")  # "Opitz PIV" in running text
_BARE_TAG = re.compile(rf"\s+{_ROMAN}\b(?=\s+holds|\s+fails|,|;|\))")  # "prevalence invariance PIV holds"
_SCORE = re.compile(r"\s*\((?:property\s+)?score\s[^()]*\)")  # "(score 7, the weighted count …)"
_ANSWER = re.compile(r"\s*\((?:[a-z]+_[a-z0-9_]+|task|ranking|probabilities|outputs|symmetric|distance|annotators)"
                     r"\s*(?:=|:)\s*[^()]*\)")  # "(class_weighting = equal)", "(task = multiclass, k = 10)"
_PLANNED = re.compile(r"(?:'[^']+'|\"[^\"]+\"|“[^”]+”) → ")  # "'macro F1' → Macro F1 …": the name as planned, then what it means
_PAREN_ID = re.compile(r"\s*\(([a-z][a-z0-9]*(?:_[a-z0-9]+)*)\)")  # "(macro_f1)", "(accuracy)"
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def reader_terms(text: str, names: Mapping[str, str] | None = None) -> str:
    """``text`` with internal ids, answers keys, property numbers and scores replaced or dropped;
    ``names`` maps a metric id to its name in running text.

    >>> reader_terms("Balanced accuracy matches best (score 7, the weighted count) — required: "
    ...              "prevalence invariance (PIV) holds (Opitz 2024, Table 5; verified).")
    'Balanced accuracy matches best — required: prevalence invariance holds (Opitz 2024, Table 5; verified).'
    >>> reader_terms("every class should count equally (class_weighting = equal), so it must be "
    ...              "prevalence-invariant (Opitz PIV)")
    'every class should count equally, so it must be prevalence-invariant (Opitz 2024)'
    >>> reader_terms("'macro F1' → Macro F1 (macro_f1): does not fit; macro_f1 is the mean",
    ...              {"macro_f1": "macro F1"})
    'Macro F1: does not fit; macro F1 is the mean'
    """
    from ..catalogue._render import LONG

    if "`" in text:  # a backquoted formula is mathematics: its subscripts and parentheses stay (issue 22)
        return protect_formulas(text, lambda t: reader_terms(t, names))
    names = names or {}
    text = _SCORE.sub("", text)
    text = _ANSWER.sub("", text)
    text = _TAGS.sub("", text)
    text = _OPITZ_LABEL.sub("(Opitz 2024)", text)
    text = _OPITZ_TAG.sub("Opitz 2024", text)
    text = _BARE_TAG.sub("", text)
    text = _PLANNED.sub("", text)
    text = text.replace("Catalogue note: ", "")
    text = _PAREN_ID.sub(lambda m: "" if m.group(1) in names or "_" in m.group(1) else m.group(0), text)

    def name(m: re.Match[str]) -> str:
        ident = m.group(0)
        if ident in names:
            return names[ident]
        label = _OPITZ_LABEL.sub("(Opitz 2024)", _TAGS.sub("", LONG.get(ident, "")))
        return (label[:1].lower() + label[1:]) if label else ident.replace("_", " ")

    text = _SNAKE.sub(name, text)
    text = re.sub(r"(?<!\bal)(?<!e\.g)(?<!i\.e)([.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return re.sub(r"\s+([,;:.])", r"\1", text)
