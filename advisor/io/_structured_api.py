"""``advisor.load_structured``: ordinal, multi-label, top-k and annotator inputs, files read by :func:`advisor.load`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ._load import load
from ._load_args import check_load_arguments
from ._structures import StructuredInputs, declared_order, read_columns, structured_from_tables
from ._taxonomy import hierarchy_of

__all__ = ["load_structured"]


def load_structured(sources: Sequence[Any], *, order: Sequence[Any] | None = None, label_sep: str | None = None,
                    top_k: int | None = None, true_col: str | None = None, pred_col: str | None = None,
                    structure: str | None = None, taxonomy: Any = None) -> StructuredInputs | None:
    """Read every source; None when they are plain nominal prediction files (the ordinary readers' job).

    Files are read by :func:`advisor.load` (each once, by DuckDB); DataFrames and mappings of columns
    are taken as they are. ``taxonomy`` (issue 23): the classes are nodes of a tree — a ``child,parent`` CSV file's
    path, a mapping child → parent or a list of ``(child, parent)`` pairs; the sources (one system each, the same
    items) are then read as single-label predictions and the result holds their hierarchy inputs.
    """
    check_load_arguments(order=order, label_sep=label_sep, top_k=top_k, true_col=true_col, pred_col=pred_col,
                         structure=structure)
    if isinstance(sources, (str, Path)):
        sources = [sources]
    if isinstance(sources, Mapping) or not hasattr(sources, "__iter__"):
        raise InputError("sources must be a list of prediction files or of tables (DataFrames, mappings of columns); "
                         f"got {type(sources).__name__}.")
    sources = list(sources)
    if taxonomy is not None:
        return _hierarchy(sources, taxonomy, true_col, pred_col,
                          {"order": order, "label_sep": label_sep, "top_k": top_k, "structure": structure})
    if sources and all(isinstance(s, (str, Path)) for s in sources):
        return load([Path(s) for s in sources], order=order, label_sep=label_sep, top_k=top_k, true_col=true_col,
                    pred_col=pred_col, structure=structure, id_col=None).structured
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    if any(isinstance(s, (str, Path)) for s in sources):
        raise InputError("give either files or tables (DataFrames, mappings of columns) to load_structured, not both.")
    tables = [read_columns(s) for s in sources]
    if order is None:  # an order the data declares (an ordered Categorical)
        order = next((o for o in (declared_order(s, (tc, pc)) for s in sources) if o is not None), None)
    return structured_from_tables(tables, order=order, label_sep=label_sep, top_k=top_k, true_col=true_col,
                                  pred_col=pred_col, structure=structure)


def _hierarchy(sources: list[Any], taxonomy: Any, true_col: str | None, pred_col: str | None,
               others: dict[str, Any]) -> StructuredInputs:
    """``load_structured(…, taxonomy=…)``: one system per source, over the tree's classes."""
    given = [k for k, v in others.items() if v is not None and not (k == "structure" and v == "hierarchy")]
    if given:
        raise InputError(f"{given[0]} does not apply with taxonomy: classes in a tree are one class per item, with no "
                         "order, label sets or top-k; leave it out.")
    if not sources:
        raise InputError("sources is empty; give the prediction files (or tables) to score over the taxonomy.")
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    if all(isinstance(s, (str, Path)) for s in sources):
        return hierarchy_of(load([Path(s) for s in sources], true_col=true_col, pred_col=pred_col,
                                 structure="nominal"), taxonomy)
    if any(isinstance(s, (str, Path)) for s in sources):
        raise InputError("give either files or tables (DataFrames, mappings of columns) to load_structured, not both.")
    tables = [read_columns(s)[1] for s in sources]
    for i, t in enumerate(tables):
        missing = [c for c in (tc, pc) if c not in t]
        if missing:
            raise InputError(f"source {i + 1} has no column {missing[0]!r}; give {tc!r} and {pc!r} columns.")
    truth = [str(v) for v in tables[0][tc]]
    if any([str(v) for v in t[tc]] != truth for t in tables[1:]):
        raise InputError(f"the sources do not have the same {tc!r} column; every system must score the same items in "
                         "the same order.")
    data = {"y_true": tables[0][tc], **{f"system_{i + 1}" if len(tables) > 1 else "system": t[pc]
                                         for i, t in enumerate(tables)}}
    return hierarchy_of(data, taxonomy)
