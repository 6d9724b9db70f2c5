"""Words that change with the structure of the task (issue 12): labels, categories, annotators, clusters.

A multi-label task has labels, not classes; an agreement study has categories and annotators, not
systems; ordered classes are said to be ordered. The report's text table ``T`` is copied with these
few entries replaced; nominal reports keep it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["structure_text"]


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
    elif kind == "ordinal":
        out["counts"] = counts.replace("{k} classes", "{k} ordered classes")
    elif kind == "partition":  # the classes are the reference's clusters, the systems clusterings (issue 23)
        out["counts"] = counts.replace("{k} classes", "{k} reference clusters").replace("system{s}", "clustering{s}")
    elif kind == "agreement":
        raters = len(getattr(structure, "raters", None) or {})
        out["counts"] = "{n} items · {k} categories · " + f"{raters} annotator{'s' if raters != 1 else ''}"
    return out
