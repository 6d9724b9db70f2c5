"""The classes the author names as costly (answers ``focus_classes``): figures of their own, chosen by the family.

A mean over every class can hide a poor result on the one class whose errors the context says matter (Opitz 2024,
§8: report per-class figures beside the mean). The context is free text, so the classes are an answer of their own,
and each gets what its family measures of one class:

* single-label classes (a confusion matrix of decisions): the per-class figure the lead is the mean of (the F1 of the
  class beside macro F1, its recall beside balanced accuracy), else its recall, precision and F1, one-vs-rest, as
  metrics of the registry with their class (``f1@deny``, :func:`advisor.engine.class_metric_id`);
* labels with scores (multi-label): the label's ROC AUC, which the per-label table already gives; the focus labels
  are put first there (the ``label_aucs`` diagnostic's ``focus``);
* a system that may abstain: the class's recall among the answered items at the target coverage, which the by-class
  table at that coverage gives (the ``per_class_recall`` diagnostic's ``focus``);
* a sample stratified by map class (area estimation): the classes' areas with their intervals and the error matrix's
  cells between them, which the stratified estimates give (the ``stratified_estimates`` diagnostic's ``focus``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import CLASS_METRICS, class_metric_id
from ..questionnaire import Answers
from ._models import Diagnostic, MetricSpec

__all__ = ["FOCUS_DIAGNOSTICS", "focus_diagnostics", "focus_family", "focus_figures", "focus_specs"]

#: the names of the per-class figures, as the methods and Table 1 say them
_NAMES = {"recall": "Recall", "precision": "Precision", "f1": "F1 score"}
#: leads that are a mean of one per-class figure: a focus class gets that figure (the F1 of “deny” beside macro F1, the
#: recall of a class beside balanced accuracy); beside any other lead, its recall, precision and F1
_MEAN_OF = {"macro_f1": ("f1",), "macro_f1_of_classes": ("f1",), "balanced_accuracy": ("recall",),
            "macro_recall": ("recall",), "class_weighted_recall": ("recall",), "geometric_macro_recall": ("recall",),
            "harmonic_macro_recall": ("recall",), "macro_precision": ("precision",)}
#: the diagnostic whose figures already give a focus class its own, by family
FOCUS_DIAGNOSTICS = {"scores": "label_aucs", "selective": "per_class_recall", "area": "stratified_estimates"}


def focus_family(answers: Answers) -> str | None:
    """Which figures a focus class gets: ``single`` (its recall, precision and F1), ``scores`` (a label's ROC AUC),
    ``selective`` (its recall among the answered items) or ``area`` (its estimated area); None when the answers name
    no focus class or the structure has none of these."""
    if not answers.focus_classes:
        return None
    structure = answers.label_structure or "nominal"
    if structure == "multilabel":
        return "scores" if answers.label_scores() else None
    if structure != "nominal" or answers.top_k or answers.annotators or answers.judge:
        return None  # top-k scores, raters without a reference: no confusion matrix of decisions to take a class from
    if answers.map_shares:
        return "area"
    if answers.abstention:
        return "selective"
    return "single"


def focus_figures(lead: str) -> tuple[str, ...]:
    """The per-class figures a focus class of single-label decisions gets beside ``lead``: the one the lead is the
    mean of (the F1 of the class beside macro F1, its recall beside balanced accuracy), else recall, precision and F1.

    >>> focus_figures("macro_f1"), focus_figures("mcc")
    (('f1',), ('recall', 'precision', 'f1'))
    """
    return _MEAN_OF.get(lead, CLASS_METRICS)


def focus_specs(answers: Answers, reported: Sequence[MetricSpec]) -> list[MetricSpec]:
    """The metrics of the focus classes of single-label decisions, each beside the lead with its class, one-vs-rest
    (:func:`focus_figures` of the lead, the first of ``reported``); a figure the plan already reports for that class
    (the positive class's recall of a binary task) is not repeated."""
    if focus_family(answers) != "single" or not reported:
        return []
    have = {(m.id, str(m.params.get("positive_label", answers.positive_class))) for m in reported}
    out: list[MetricSpec] = []
    for label in answers.focus_classes or []:
        for metric in focus_figures(reported[0].id):
            if (metric, str(label)) in have and answers.task == "binary":
                continue
            out.append(MetricSpec(
                id=class_metric_id(metric, label), name=f"{_NAMES[metric]} of “{label}”", role="beside",
                params={"class": label},
                reason="a class whose errors the context names as costly, with a figure of its own",
                answers=["focus_classes"], family="confusion"))
    return out


def focus_diagnostics(answers: Answers, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostic that already gives each focus class its figure (the per-label ROC AUCs, the by-class table at
    the target coverage, the stratified estimates of area) records the classes in its ``focus`` parameter and rests
    on the answer; the diagnostics as they are otherwise."""
    did = FOCUS_DIAGNOSTICS.get(focus_family(answers) or "")
    if did is None:
        return diagnostics
    out = []
    for d in diagnostics:
        if d.id == did:
            d = d.model_copy(update={"params": {**d.params, "focus": list(answers.focus_classes or [])},
                                     "answers": sorted({*d.answers, "focus_classes"})})
        out.append(d)
    return out
