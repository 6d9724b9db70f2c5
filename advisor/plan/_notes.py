"""What the author is told of a planned metric the plan does not report under its name (issue 22: never dropped
without a word, and never with a note that is empty or false).

Every such note argues from the situation, in the author's words (the answers' ``item_name`` and ``classes``):

* the reported metrics cover it under more specific names — the planned "F1" of a multi-label task is reported for
  each label and as its macro, micro and sample averages;
* it needs an input the answers do not give — ROC AUC without scores, a rate at a budget nobody stated — said with
  the answers key that would give it, or, when no answer can, what advisor does not read;
* it ignores what the task's structure makes the lead respect — a flat metric counts a wrong class in the right
  branch of a taxonomy like one in another branch, a classification metric reads cluster ids as classes;
* the metric catalogue does not know the name: then it is plainly not computed.

The patterns are ``str.format`` templates a writer can edit; the plan stores the sentence (``AnswerUse.note``), which
the report's "Not reported" paragraph says as it stands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..catalogue import MetricRecord, get_catalogue
from ..questionnaire import (AVOID_PHRASES, PROPERTY_PHRASES, Answers, article, join_words, load_fields, lower_name,
                             missing_input, per_class_reading)
from ._models import Diagnostic, MetricSpec

__all__ = ["FLAT", "LABEL_QUANTITIES", "NOTE", "covered_note", "planned_quantity", "unknown_reason", "unreported_reason", "whole_task_reason"]

#: The sentences, one per verdict ({name}: the planned name in quotes; {reason}: a clause).
NOTE: dict[str, str] = {
    "not_reported": "The planned “{name}” is not reported: {reason}.",
    "not_computed": "The planned “{name}” is not computed: {reason}.",
    "covered": "The planned “{name}” is reported {how}.",
    # no answer fixes where a label's score becomes a label: kept, but never as a result (the CheXpert reader)
    "covered_illustration": ("The planned “{name}” is given {how}, as an illustration at the conventional score cut of "
                             "{cut:g}, not one chosen for this study, and not as a result."),
}

#: Why a metric of one class per item (a flat, nominal metric) is not reported when the labels have a structure:
#: what the lead respects and the metric ignores, with {an} {item} / {items} the author's word for a test item.
FLAT: dict[str, str] = {
    "hierarchy": ("it counts {an} {item} put in the wrong class of the right branch as wrong as one put in another "
                  "branch of the taxonomy"),
    "partition": ("it reads the cluster ids as classes, so renaming the clusters changes it, whereas the ids of "
                  "either partition are arbitrary names"),
    "multilabel": "it scores one class per {item}, whereas each {item} here carries a set of labels",
    "ordinal": "it counts an error of one step in the class order like an error of several steps",
    "top_k": "it scores only the highest-scored class of each {item}",
    "agreement": "it needs a reference labeling, and no annotator here is taken as the reference",
}
#: Said after FLAT when a flat metric is reported beside the lead: kept for comparison with flat results, not as if
#: it gave what the planned one would (the taxonomy reader: macro F1 also weighs classes alike, which accuracy does not)
FLAT_SHOWN = "; {names}, flat too, {verb} kept beside the lead only for comparison with flat results"
#: A planned metric not computed that the author's field reports: the field said with the name.
FIELD_FIGURE = "The planned “{name}”, which papers in {field} report ({cite}), is not computed: {reason}."
#: The task itself is one advisor does not evaluate (spans, rankings, …): what to use instead.
WHOLE_TASK = "the task is {what}, which advisor does not evaluate; use {use}"
#: The quantities of one label a multi-label evaluation reports per label (the per-label table) and averaged.
_QUANTITY = {"f1": "F1", "macro_f1": "F1", "micro_f1": "F1", "weighted_f1": "F1", "f1_of_averages": "F1",
             "precision": "precision", "macro_precision": "precision", "recall": "recall"}
_AVERAGES = {"multilabel_macro_f1": "macro", "multilabel_micro_f1": "micro", "multilabel_samples_f1": "sample"}
#: the quantities of one label, in the per-label table's order
LABEL_QUANTITIES = ("precision", "recall", "F1")


def planned_quantity(ids: Sequence[str]) -> str | None:
    """The quantity of one label or class a planned name's readings are ("F1" of "macro F1"), None when none.

    >>> planned_quantity(["multilabel_micro_f1", "micro_f1"]), planned_quantity(["roc_auc"])
    ('F1', None)
    """
    return next((_QUANTITY[i] for i in ids if i in _QUANTITY), None)


def _cite(text: str) -> str:
    """"Irvin et al. (2019)" → "Irvin et al. 2019" (one level of parentheses in prose)."""
    return re.sub(r"\((\d{4}[a-z]?)\)", r"\1", text)


def _labels(classes: Sequence[Any] | None, most: int = 6) -> str:
    """"for each of atelectasis, … and pleural effusion" (the author's labels), or "for each label"."""
    if classes and len(classes) <= most:
        return "for each of " + join_words([str(c) for c in classes])
    return "for each label"


def covered_note(name: str, ids: Sequence[str], answers: Answers, reported: Sequence[str],
                 diagnostics: Sequence[Diagnostic]) -> tuple[str, str] | None:
    """``(used, sentence)`` for a planned quantity of one label ("F1", "precision") that a multi-label evaluation
    reports under more specific names — for each label in the per-label table, and F1 as its averages; None when
    the name is no such quantity or nothing reports it.

    >>> covered_note("F1", ["f1"], Answers(label_structure="multilabel", classes=["a", "b"]),
    ...              ["multilabel_macro_f1", "multilabel_micro_f1"], [Diagnostic(id="per_label", promise="")])[1]
    'The planned “F1” is reported for each of a and b, and as its macro and micro averages.'
    """
    if answers.label_structure != "multilabel":
        return None
    quantity = planned_quantity(ids)
    if quantity is None:
        return None
    # no cut chosen (the labels' ROC AUCs shown instead): only what was planned is shown per label, as an illustration
    open_cut = next((d for d in diagnostics if d.id == "label_aucs"), None)
    per_label = any(d.id == "per_label" for d in diagnostics) or (
        open_cut is not None and quantity in (open_cut.params.get("quantities") or []))
    averages = [_AVERAGES[m] for m in _AVERAGES if m in reported] if quantity == "F1" else []
    if not per_label and not averages:
        return None
    # the paragraph's ROC AUC sentence names the labels when their scores are read: said once, there
    where = "for each label" if "multilabel_macro_roc_auc" in reported else _labels(answers.classes)
    parts = ([where] if per_label else []) + (
        [f"as its {join_words(averages)} average{'s' if len(averages) > 1 else ''}"] if averages else [])
    how = ", and ".join(parts) if len(parts) > 1 else parts[0]
    used = ("reported under more specific names: "
            + join_words((["every label's " + quantity + " (the per-label table)"] if per_label else [])
                         + ([f"its {join_words(averages)} averages beside the lead"] if averages else [])))
    if open_cut is not None:
        cut = float(open_cut.params.get("cut") or 0.5)
        return (used + f", for illustration only at the conventional score cut of {cut:g}",
                NOTE["covered_illustration"].format(name=name, how=how, cut=cut))
    return used, NOTE["covered"].format(name=name, how=how)


def _flat(m: MetricRecord, answers: Answers, lead: MetricSpec, beside: Sequence[MetricSpec]) -> str | None:
    """Why a flat metric is not reported for labels with a structure, or None when the labels have none."""
    structure = "agreement" if answers.annotators else (
        "top_k" if answers.top_k else (answers.label_structure or "nominal"))
    if m.structure != "nominal" or structure not in FLAT:
        return None
    item = answers.item_name or "item"
    reason = FLAT[structure].format(an=article(item), item=item, items=item + "s", lead=lower_name(lead.name))
    cat = get_catalogue().metrics
    flat = [lower_name(b.name) for b in beside if b.id in cat and cat[b.id].structure == "nominal"]
    if flat and structure in ("hierarchy", "ordinal", "top_k"):
        reason += FLAT_SHOWN.format(names=join_words(flat), verb="is" if len(flat) == 1 else "are")
    return reason


def unreported_reason(name: str, ids: Sequence[str], answers: Answers, lead: MetricSpec,
                      beside: Sequence[MetricSpec]) -> tuple[str, str]:
    """``(reason, sentence)`` for a planned metric of the catalogue that the plan neither reports, advises against
    nor shows: what the labels' structure asks that it ignores, else the input it needs that the answers do not give,
    else what the lead has that it lacks.

    >>> lead = MetricSpec(id="hierarchical_f1", name="Hierarchical F1", role="lead")
    >>> unreported_reason("macro F1", ["macro_f1"], Answers(label_structure="hierarchy", item_name="product"),
    ...                   lead, [MetricSpec(id="accuracy", name="Accuracy", role="beside")])[1][:95]
    'The planned “macro F1” is not reported: it counts a product put in the wrong class of the right'
    """
    cat = get_catalogue().metrics
    records = [cat[i] for i in ids if i in cat]
    for m in records:  # labels with a structure first: no answer makes a flat metric of them computable
        if not (answers.label_structure == "multilabel" and m.needs_probabilities):  # (a per-label score might)
            flat = _flat(m, answers, lead, beside)
            if flat is not None:
                return flat, NOTE["not_reported"].format(name=name, reason=flat)
    for m in records:
        need = missing_input(m, answers)
        if need is None:
            continue
        f = load_fields().get(answers.field) if answers.field else None
        reason = f"it needs {need}"
        if f is not None and (m.id in f.metrics or (m.id == "multilabel_macro_roc_auc" and "roc_auc" in f.metrics)):
            # the field's own figure (CheXpert's AUROC per finding)
            return reason, FIELD_FIGURE.format(name=name, field=f.name, cite=_cite(f.cite), reason=reason)
        return reason, NOTE["not_computed"].format(name=name, reason=reason)
    lead_record = cat.get(lead.id)
    for m in records:  # computable, and flat where the lead is flat too: a property the lead has and it lacks
        lacks = [pid for pid, claim in (lead_record.properties.items() if lead_record else ())
                 if claim.status == "holds" and pid in AVOID_PHRASES and pid in PROPERTY_PHRASES
                 and pid in m.properties and m.properties[pid].status == "fails"]
        if lacks:
            reason = f"it {AVOID_PHRASES[lacks[0]]}, whereas {lower_name(lead.name)} {PROPERTY_PHRASES[lacks[0]]}"
            return reason, NOTE["not_reported"].format(name=name, reason=reason)
    reason = (f"it is computable here, but none of the recommendation's rules calls for it beside "
              f"{lower_name(lead.name)}, and none advises against it")
    return reason, NOTE["not_reported"].format(name=name, reason=reason)


def whole_task_reason(name: str, what: str, use: str) -> tuple[str, str]:
    """A planned metric of a task advisor does not evaluate as a whole (span extraction: its F1 is seqeval's)."""
    reason = WHOLE_TASK.format(what=what, use=use)
    return reason, NOTE["not_computed"].format(name=name, reason=reason)


def unknown_reason(name: str, classes: Sequence[Any] | None = None) -> tuple[str, str]:
    """An unknown name: plainly not computed (never "if it is another name of a reported metric, that metric stands
    for it", which no one checked); a name that reads as a quantity of a class the classes do not have says so.

    >>> unknown_reason("12 recall", ["0", "1", "2"])[1]
    'The planned “12 recall” is not computed: it reads as the recall of the class “12”, and no class here has that name (0, 1 and 2).'
    """
    reading = per_class_reading(name)
    if reading is not None and reading.cls is not None and classes:
        shown = [str(c) for c in classes]
        some = join_words(shown) if len(shown) <= 6 else ", ".join(shown[:3]) + ", …, " + shown[-1]
        reason = f"it reads as {reading.words}, and no class here has that name ({some})"
        return reason, NOTE["not_computed"].format(name=name, reason=reason)
    reason = ("advisor does not know this metric, so it does not compute it: the metric catalogue has no metric of "
              "that name (advisor metrics lists the names it knows)")
    return reason, NOTE["not_computed"].format(
        name=name, reason="the metric catalogue knows no metric of that name (advisor metrics lists the names it "
        "knows)")
