"""The classes the author names as costly (answers ``focus_classes``), said in one sentence after the lead.

"Because “deny” and “query” are the classes that matter most here, we give the recall, precision and F1 of each
beside the lead." The context said why they matter, in the author's words; this sentence points back to it and says
which figures give each class its own: the class's recall, precision and F1 (single-label decisions), the label's
ROC AUC (label scores), the class's recall among the answered items at the target coverage and how many of its
items are answered as another class (a system that may abstain), their estimated areas and the cells of the error
matrix between them (a sample stratified by map class). See :mod:`advisor.plan._focus`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import class_metric
from ..questionnaire import join_words, plural
from . import _methods_text as W
from ._methods_lists import Text
from ._models import MetricEntry

__all__ = ["focus_area_clause", "focus_sentence"]

#: the per-class figures as the sentence names them, in the order they are listed
_FIGURES = {"recall": "recall", "precision": "precision", "f1": "F1 score"}


def _focus(answers: Mapping[str, Any]) -> list[str]:
    return [str(c) for c in answers.get("focus_classes") or []]


def _opening(classes: Sequence[str], what: str, quoted: bool = True) -> str:
    """"Because “deny” and “query” are the classes that matter most here" / "Because melanoma is the class …"."""
    names = join_words([f"“{c}”" if quoted else c for c in classes])
    one = len(classes) == 1
    return W.S["focus_because"].format(names=names, are="is" if one else "are", what=what if one else plural(what),
                                       matter="matters" if one else "matter")


def focus_sentence(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry]) -> set[str]:
    """The sentence after the lead for the classes the author names as costly; the ids it names (they are not listed
    again beside the lead). Nothing when no such class is named or no figure of the report gives it its own."""
    classes = _focus(answers)
    if not classes:
        return set()
    one = len(classes) == 1
    if answers.get("label_structure") == "multilabel":
        if not any(m.id == "multilabel_macro_roc_auc" for m in rec):
            return set()  # the per-label ROC AUCs are what give a label its own figure
        p.t(_opening(classes, "label", quoted=False) + W.S["focus_label_aucs"].format(
            their="its" if one else "their", aucs="ROC AUC" if one else "ROC AUCs") + ". ")
        return set()
    if answers.get("abstention") and any(m.id == "selective_risk" for m in rec):
        coverage = answers.get("target_coverage")
        if coverage is None:
            return set()
        items = plural(str(answers.get("item_name") or "item"))
        p.t(_opening(classes, "class") + W.S["focus_selective"].format(
            its="its" if one else "each one's", items=items, coverage=f"{float(coverage):.0%}") + ". ")
        return set()
    if answers.get("abstention") and any(m.id == "risk_at_frozen_coverage" for m in rec):
        # the by-class table at the cut frozen on the calibration half, on the test half (the dermatology reader)
        items = plural(str(answers.get("item_name") or "item"))
        p.t(_opening(classes, "class") + W.S["focus_selective_frozen"].format(
            its="its" if one else "each one's", items=items) + ". ")
        return set()
    named = [m for m in rec if class_metric(m.id) is not None and class_metric(m.id)[1] in classes]  # type: ignore[index]
    if not named:
        return set()
    kinds = [f for f in _FIGURES if any(class_metric(m.id)[0] == f for m in named)]  # type: ignore[index]
    figures = join_words([_FIGURES[f] for f in kinds])
    p.t(_opening(classes, "class") + W.S["focus_figures_one" if one else "focus_figures"].format(figures=figures)
        + ". ")
    return {m.id for m in named}


def focus_area_clause(p: Text, answers: Mapping[str, Any]) -> None:
    """A sample stratified by map class: the areas of the focus classes are among the stratified estimates the
    sentence says (each class's area with its interval), so a clause of it adds the cells of the error matrix between
    them, for the classes the author names: "…, with 95% intervals, and, since forest and cropland matter most here,
    the two cells between them"."""
    classes = _focus(answers)
    if not classes:
        return
    one = len(classes) == 1
    p.t(W.S["focus_area"].format(names=join_words(classes), matter="matters" if one else "matter",
                                 cells="its row and column" if one else "the two cells between them"
                                 if len(classes) == 2 else "the cells between them"))
