"""The human–human baseline in the methods (issue 22, the essay reader): a machine scored against a resolved human
score is read against the raters' agreement with each other (Williamson, Xi & Breyer 2012).

With the answers key ``rater_columns`` the plan carries the diagnostic ``human_baseline``; the paragraph then says,
in a sentence of its own, that the same figures are given for the raters against each other, what the degradation
is and that its interval is paired, and — in a field with thresholds (``fields.yaml`` ``baseline``) — what is
flagged, citing the field's source. A field that expects the baseline, without rater columns, gets one sentence
saying it is not available. The Definitions give the degradation with every symbol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..questionnaire import join_words, load_fields
from ._methods_lists import Text, where_clause
from ._models import MetricEntry

__all__ = ["baseline_definitions", "baseline_sentence"]


def _field(answers: Mapping[str, Any]) -> Any:
    return load_fields().get(str(answers.get("field"))) if answers.get("field") else None


def _kappa(field: Any) -> str:
    """The field's initials for the quadratically weighted kappa ("QWK", introduced by the field's sentence), else
    the name."""
    term = field.terms.get("weighted_kappa_quadratic") if field is not None else None
    return term if term and term.isupper() else "quadratically weighted kappa"


def baseline_sentence(p: Text, answers: Mapping[str, Any], intervals: bool = True) -> None:
    """""We give these figures for the machine against each rater and for “rater_1” against “rater_2”, the
    human–human baseline, …": said when the answers give rater columns, or — in a field that expects the baseline —
    that it is not available.

    >>> t = Text()
    >>> baseline_sentence(t, {"field": "automated_essay_scoring", "item_name": "essay"})
    >>> t.spans[0].text[:80]
    "The raters' own scores are not in the data, so the human–human baseline cannot b"
    >>> t = Text()
    >>> baseline_sentence(t, {"rater_columns": ["r1", "r2"]})
    >>> "“r1” against “r2”" in t.spans[0].text, len(t.spans)
    (True, 1)
    """
    field = _field(answers)
    base = field.baseline if field is not None else None
    raters = [str(r) for r in answers.get("rater_columns") or []]
    qwk = _kappa(field)
    if not raters:
        if base is None:
            return
        p.t("The raters' own scores are not in the data, so the human–human baseline cannot be given; a "
            f"{qwk} below {base.qwk_floor:.2f} is flagged")
        p.cite([field.source]).t(". ")
        return
    named = [f"“{r}”" for r in raters]
    pairs = f"{named[0]} against {named[1]}" if len(named) == 2 else f"each pair of {join_words(named)}"
    theirs = "theirs" if len(named) == 2 else "their mean over the pairs"
    # like for like: one rater against one rater on both sides; the resolved score pools two raters, so the machine
    # set against it would be favoured (the essay reader, issue 22)
    said = (f"We give these figures for the machine against each rater and for {pairs}, the human–human baseline, "
            f"and the degradation (the machine's mean {qwk} with single raters minus {theirs})"
            + (" with a paired interval" if intervals else ""))
    if base is None:
        p.t(said + ". ")
        return
    # the flags in a sentence of their own ("theirs" there would point back across a full stop)
    raters_own = "the raters'" if len(named) == 2 else "the raters' mean over the pairs"
    p.t(said + f". A {qwk} below {base.qwk_floor:.2f}, or more than {base.degradation:.2f} below {raters_own}, is "
        "flagged")
    if not any(s.kind == "cite" and field.source in s.keys for s in p.spans):  # once a paragraph, not at each use
        p.cite([field.source])
    p.t(". ")


def baseline_definitions(answers: Mapping[str, Any]) -> list[MetricEntry]:
    """The degradation's formula, every symbol defined (the kappa's own formula is in the Definitions above)."""
    raters = answers.get("rater_columns") or []
    if not raters:
        return []
    two = len(raters) == 2
    formula = (r"D=\frac{1}{2}\left(\kappa^{w}_{M1}+\kappa^{w}_{M2}\right)-\kappa^{w}_{12}" if two else
               r"D=\frac{1}{H}\sum_{h=1}^{H}\kappa^{w}_{Mh}-\frac{2}{H(H-1)}\sum_{h<h'}\kappa^{w}_{hh'}")
    symbols = ({r"\kappa^{w}_{M1}, \kappa^{w}_{M2}": "the quadratically weighted kappas of the machine's scores $M$ "
                                                     "against human raters 1 and 2",
                r"\kappa^{w}_{12}": "that of the two human raters against each other"} if two else
               {r"\kappa^{w}_{Mh}": "the quadratically weighted kappa of the machine's scores $M$ against human rater "
                                    "$h$",
                r"\kappa^{w}_{hh'}": "that of human raters $h$ and $h'$", "H": "the number of human raters"})
    return [MetricEntry(id="human_degradation", name="Degradation from the human–human kappa", formula=formula,
                        role="complementary", where=where_clause(symbols))]


def said_baseline(promised: Sequence[str] | None, answers: Mapping[str, Any], promise: str) -> bool:
    """Whether the paragraph says the baseline: the report shows it, or (before data) the answers give raters."""
    if promised is None:
        return bool(answers.get("rater_columns"))
    return promise in promised
