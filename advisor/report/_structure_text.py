"""Words that change with the structure of the task (issue 12): labels, categories, annotators, clusters.

A multi-label task has labels, not classes; an agreement study has categories and annotators, not
systems; ordered classes are said to be ordered. The report's text table ``T`` is copied with these
few entries replaced; nominal reports keep it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["label_columns", "open_cut", "structure_text"]


def structure_text(ctx: Any, text: Mapping[str, str]) -> dict[str, str]:
    """``text`` with the count line (``{n}``, ``{k}``, ``{m}``, ``{s}``) and per-class words for this structure.

    >>> from types import SimpleNamespace as NS
    >>> T = {"counts": "{n} items · {k} classes · {m} system{s}", "c_class": "Class"}
    >>> structure_text(NS(structure=NS(kind="multilabel", raters={})), T)["counts"]
    '{n} items · {k} labels · {m} system{s}'
    >>> structure_text(NS(structure=None), T) == T
    True
    """
    out = dict(text)
    structure = getattr(ctx, "structure", None)
    kind = getattr(structure, "kind", None)
    counts = out.get("counts", "")
    if kind == "multilabel":
        out["counts"] = counts.replace("{k} classes", "{k} labels")
        for key in ("per_class_caption", "h_per_class", "c_class"):
            if key in out:
                out[key] = out[key].replace("Per-class", "Per-label").replace("Class", "Label")
        if any(r.roc_auc is not None for s in getattr(ctx, "systems", None) or () for r in s.per_class):
            out["per_class_caption"] = "Per-label precision, recall, F1 and ROC AUC (from the label's scores)."
            cut = open_cut(ctx)
            if cut is not None:  # no answer fixed the cut: the labels' AUCs, what was planned only as an illustration
                at = f"at a score of {float(cut.get('cut') or 0.5):g}, a conventional cut not chosen for this study"
                planned = _join(list(cut.get("quantities") or []))
                out["per_class_caption"] = "Per-label ROC AUC (from the label's scores)" + (
                    f", with the planned {planned} {at}, for illustration only." if planned else ".")
                if "F1" in (cut.get("quantities") or []):  # the planned F1 in the results table: no result
                    for key in ("results_caption", "results_caption_plain"):
                        if key in out:
                            out[key] += f" The F1 is taken {at}: an illustration, not a result."
    elif kind == "ordinal":
        out["counts"] = counts.replace("{k} classes", "{k} ordered classes")
    elif kind == "partition":  # the classes are the reference's clusters, the systems clusterings (issue 23)
        out["counts"] = counts.replace("{k} classes", "{k} reference clusters").replace("system{s}", "clustering{s}")
    elif kind == "agreement":
        raters = len(getattr(structure, "raters", None) or {})
        out["counts"] = "{n} items · {k} categories · " + f"{raters} annotator{'s' if raters != 1 else ''}"
    return out


def open_cut(ctx: Any) -> Mapping[str, Any] | None:
    """The params of the plan's ``label_aucs`` diagnostic (labels scored, no answer fixing the cut), else None."""
    plan = getattr(ctx, "plan", None) or {}
    return next((d.get("params") or {} for d in plan.get("diagnostics") or [] if d.get("id") == "label_aucs"), None)


def label_columns(ctx: Any) -> tuple[str, ...]:
    """The per-class table's columns of the decisions at a cut: all of them, or, when the labels are scored and no
    answer fixes the cut, only a planned F1 (an illustration), never an unplanned precision or recall.

    >>> from types import SimpleNamespace as NS
    >>> label_columns(NS(plan={"diagnostics": [{"id": "label_aucs", "params": {"quantities": ["F1"], "cut": 0.5}}]}))
    ('f1',)
    >>> label_columns(NS(plan=None))
    ('predicted', 'precision', 'recall', 'f1')
    """
    cut = open_cut(ctx)
    if cut is None:
        return ("predicted", "precision", "recall", "f1")
    return tuple(q.lower() for q in cut.get("quantities") or [])


def _join(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
