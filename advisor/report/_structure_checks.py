"""Checks on the answers of a structured task that :func:`advisor.report.build_report` also makes (issue 12).

Kept apart from :mod:`._build_structures`, which builds on :mod:`._build`, so both can use them.
"""

from __future__ import annotations

from typing import Any

from .._exceptions import InputError, arg
from ..engine import reported_ids
from ..questionnaire import out_of_scope_task

__all__ = ["label_words", "refuse_external", "reported_items", "structure_items"]

#: Where the report of two partitions (pair correlation, ARI, AMI with their intervals) is built.
_PARTITIONS = arg("partitions", python="advisor.build_structured_report(answers, advisor.io.partition_inputs(ds))",
                  cli="`advisor report --partitions`")
#: Where the methods paragraph of a task advisor does not evaluate is written without data.
_METHODS = arg("answers", python="advisor.methods_paragraph(answers)", cli="`advisor methods --answers FILE`")


def reported_items(rec_items: list[tuple[str, str, str | None, dict[str, Any]]], cat: Any
                   ) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """The recommended metrics an evaluation of the lead's structure reports (the methods text without data).

    A top-k evaluation, for one, reports top-k and top-1 accuracy, not the balanced accuracy or the log
    loss a nominal recommendation keeps beside them; nominal leads keep every item.
    """
    lead = cat.metrics.get(rec_items[0][1]) if rec_items else None
    ids = reported_ids(getattr(lead, "structure", "nominal"))
    return [it for it in rec_items if it[0] == "primary" or it[1] in ids] if ids else rec_items


def refuse_external(ans: Any) -> None:
    """Span and ranking tasks with data: one sentence naming what to compute and which tool does."""
    note = out_of_scope_task(getattr(ans, "label_structure", None) or "nominal")
    if note is not None and ans.label_structure not in ("spans", "ranking"):  # boxes, masks, numbers, texts
        raise InputError(f"label_structure {ans.label_structure!r}: advisor does not evaluate {note.what}; use "
                         f"{note.use} ({_METHODS} says why, without data).")
    if getattr(ans, "label_structure", None) not in ("spans", "ranking"):
        return

    what = ("entity span, which advisor does not compute from item labels; compute entity-level precision, "
            "recall and F1 over exactly matched spans with seqeval" if ans.label_structure == "spans" else
            "query, which advisor does not compute from item labels; compute nDCG@k, MRR and recall@k per query "
            "with pytrec_eval or ranx")
    raise InputError(f"label_structure {ans.label_structure!r} is scored per {what}, and write the methods "
                     f"paragraph with {_METHODS} (no data).")


def structure_items(ans: Any, has_data: bool, rec_items: list[tuple[str, str, str | None, dict[str, Any]]], cat: Any
                    ) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """:func:`advisor.report.build_report`'s recommended items: span and ranking answers with data are
    refused; without data only what the lead's structure reports is kept."""
    if has_data:
        if getattr(ans, "label_structure", None) == "partition":  # cluster ids: no class metric applies (issue 23)
            raise InputError(f"label_structure 'partition': cluster ids name no classes, so this report of classes "
                             f"does not apply; the report of two partitions is {_PARTITIONS}.")
        refuse_external(ans)
        return rec_items
    return reported_items(rec_items, cat)


#: the methods' nominal phrases and what they say when each item carries a set of labels
_LABEL_WORDS = (("every class counts equally", "every label counts equally"),
                ("averages the per-class scores, so a rare class counts as much as a common one",
                 "averages the per-label scores, so a rare label counts as much as a common one"))


def label_words(paragraphs: list[Any], answers: Any) -> list[Any]:
    """The methods paragraphs with 'label' where a multi-label task has labels, not classes.

    >>> from advisor.report._models import Paragraph, Span
    >>> p = [Paragraph(spans=[Span(text="where every class counts equally.")])]
    >>> label_words(p, {"label_structure": "multilabel"})[0].spans[0].text
    'where every label counts equally.'
    """
    if (answers or {}).get("label_structure") != "multilabel":
        return paragraphs

    def fix(span: Any) -> Any:
        if span.kind != "text":
            return span
        text = span.text
        for old, new in _LABEL_WORDS:
            text = text.replace(old, new)
        return span.model_copy(update={"text": text})

    return [p.model_copy(update={"spans": [fix(s) for s in p.spans], "items": [[fix(s) for s in it] for it in p.items]})
            for p in paragraphs]
