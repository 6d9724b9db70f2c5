"""``advisor.build_report``: the flat report (:func:`advisor.report._build.build_report`), or — with ``taxonomy=`` —
the report of classes in a tree (issue 23, item 4), built from the hierarchy inputs of the same data by
:func:`advisor.report._build_structures.build_structured_report`."""

from __future__ import annotations

from typing import Any

from .._exceptions import InputError
from ..io import hierarchy_of
from ..plan import Plan
from ._build import build_report as build_flat_report
from ._build_structures import build_structured_report
from ._inputs import load_answers

__all__ = ["build_report"]

#: the arguments of the structured report; every other one has no meaning for classes in a tree
_STRUCTURED = ("title", "bootstrap", "confidence", "seed", "undefined", "digits")


def build_report(answers: Any, data: Any = None, *, taxonomy: Any = None, **options: Any) -> Any:
    """The report's context (:class:`~advisor.report.ReportContext`) from the answers and the data.

    Every argument is that of :func:`advisor.report._build.build_report` (``title``, ``bootstrap``, ``confidence``,
    ``seed``, ``positive_label``, ``undefined``, ``costs``, ``priors``, ``scores``, ``by``, ``reject_label``, …).

    ``taxonomy`` (issue 23, item 4): the classes are nodes of a tree — a ``child,parent`` CSV file's path, a mapping
    child → parent or a list of ``(child, parent)`` pairs — and the answers say ``label_structure: hierarchy``. The
    report then leads with hierarchical F1 (flat accuracy beside it), gives the accuracy at each depth and the
    distribution of the errors' distances in the tree (a table and a figure); ``data`` is a Dataset
    (:func:`advisor.load`), label arrays ``{"y_true": …, system: …}``, a DataFrame or confusion matrices. Only
    ``title``, ``bootstrap``, ``confidence``, ``seed``, ``undefined`` and ``digits`` apply then.

    >>> import advisor
    >>> tree = {"shoes": "clothing", "shirts": "clothing", "tv": "electronics", "audio": "electronics"}
    >>> data = {"y_true": ["shoes", "tv", "shirts", "audio"] * 5, "m": ["shirts", "tv", "shirts", "tv"] * 5}
    >>> ctx = advisor.build_report({"label_structure": "hierarchy"}, data, taxonomy=tree, bootstrap=0)
    >>> ctx.primary, round(ctx.systems[0].values["hierarchical_f1"], 3)
    ('hierarchical_f1', 0.75)
    """
    structure = _structure_of(answers)
    if taxonomy is None:
        if structure == "hierarchy" and data is not None:
            raise InputError("label_structure: hierarchy needs the tree of the classes; give it with taxonomy= (a "
                             "child,parent CSV file's path, a mapping child → parent or a list of pairs).")
        return build_flat_report(answers, data, **options)
    if structure != "hierarchy":
        raise InputError("taxonomy scores classes in a tree, which the answers must declare with label_structure: "
                         f"hierarchy (the lead is then hierarchical F1); they say {structure!r}.")
    given = [k for k, v in options.items() if k not in (*_STRUCTURED, "progress") and v is not None]
    if given:
        raise InputError(f"{given[0]} does not apply with taxonomy: hierarchical metrics score one class per item in "
                         "the tree, with no positive class, costs, scores, budgets or subgroups; leave it out.")
    if data is None:
        raise InputError("taxonomy needs the data to score over the tree; give data= (a Dataset, label arrays, a "
                         "DataFrame or confusion matrices), or leave taxonomy out for the methods alone.")
    return build_structured_report(answers, hierarchy_of(data, taxonomy),
                                   **{k: v for k, v in options.items() if k in _STRUCTURED})


def _structure_of(answers: Any) -> str | None:
    """The answers' ``label_structure``."""
    ans = answers._rec.answers if isinstance(answers, Plan) else load_answers(answers)
    return getattr(ans, "label_structure", None)
