"""The author's field in the methods paragraph (issue 22): its customary figure said right after the lead, in the
field's own words (``fields.yaml`` ``terms``), with a reason when it does not lead, and what a diagnostic answers in
that field (``readings``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..questionnaire import CommunityField, load_fields
from ..questionnaire import join_words as _join_words
from ..questionnaire import lower_name as _lower_name
from . import _methods_text as W
from ._methods_lists import Text, prose_name
from ._models import MetricEntry

__all__ = ["field_of", "field_sentences", "in_field_terms", "promise_sentence"]


def field_of(answers: Mapping[str, Any]) -> CommunityField | None:
    return load_fields().get(str(answers.get("field"))) if answers.get("field") else None


def in_field_terms(rec: Sequence[MetricEntry], answers: Mapping[str, Any]) -> list[MetricEntry]:
    """The metrics under the field's own names where the catalogue's name already glosses them ("sensitivity" for
    "Recall (sensitivity, true positive rate)", "top-1 accuracy" for accuracy): a diagnostic-accuracy reader reads
    "recall and specificity" as a machine-learning text (issue 22). Other terms are said by the field sentence."""
    field = field_of(answers)
    if field is None or not field.terms:
        return list(rec)
    out = []
    for m in rec:
        term = field.terms.get(m.id)
        if term and _glossed(term, m.name):
            m = m.model_copy(update={"name": term[:1].upper() + term[1:]})
        out.append(m)
    return out


def _glossed(term: str, name: str) -> bool:
    """Whether a field's word for a metric is one of the catalogue name's glosses, or the name qualified."""
    low, short = term.lower(), _lower_name(name).lower()
    return low in name.lower() or low.endswith(" " + short)


def field_sentences(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry], primary: MetricEntry | None,
                     cite: Any, why: Callable[[Sequence[MetricEntry]], str | None] | None = None) -> set[str]:
    """What the author's field reports (fields.yaml, with its source), said right after the lead: the lead is that
    figure (with the field's other figures), or the field's figure is reported beside it for comparison and, when
    the answers give a reason, why it does not lead. Said only for a field the answers name; returns the metrics
    it named, which the sentence of the other metrics then leaves out."""
    field = field_of(answers)
    if field is None:
        return set()
    key = [field.source]
    others = [m for m in rec if m.role == "complementary" and m.id in field.metrics]
    names = [prose_name(m) for m in others]
    if primary is not None and primary.id in field.metrics:
        term = field.terms.get(primary.id)
        named = W.S["field_named"].format(term=term) if term and not _glossed(term, primary.name) else ""
        if names:
            p.t(W.S["field_lead_with"].format(names=_join_words(names), field=field.name, named=named))
        else:
            p.t(W.S["field_lead"].format(field=field.name, named=named))
        p.cite(key).t(". ")
        return {m.id for m in others}
    if not names:
        return set()
    p.t(W.S["field_beside"].format(names=_join_words(names), field=field.name)).cite(key)
    reason = why(others) if why is not None else None
    if reason:
        p.t(W.S["field_why"].format(it="it" if len(names) == 1 else "them", they="it" if len(names) == 1 else "they",
                                    reason=reason))
    p.t(". ")
    return {m.id for m in others}


def promise_sentence(p: Text, answers: Mapping[str, Any], shown: Sequence[str]) -> None:
    """"We also give …" of what the report shows; a diagnostic the author's field reads in its own way (fields.yaml
    ``readings``) goes last, with that reading and the field's source: the pairwise kappa of an LLM judge and two
    humans is the field's comparison of the judge with the humans (issue 22)."""
    field = field_of(answers)
    readings = {W.PROMISE.get(did): reading for did, reading in (field.readings.items() if field else ())}
    read = [x for x in shown if x in readings][:1]
    said = [x for x in shown if x not in read] + read
    p.t(W.S["duties"] + _join_words(said))
    if read and field is not None:
        p.t(W.S["field_reading"].format(field=field.name, reading=readings[read[0]])).cite([field.source])
    p.t(". ")
