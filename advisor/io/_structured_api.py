"""``advisor.load_structured``: ordinal, multi-label, top-k and annotator inputs, files read by :func:`advisor.load`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ._load import load
from ._load_args import check_load_arguments
from ._structures import StructuredInputs, declared_order, read_columns, structured_from_tables

__all__ = ["load_structured"]


def load_structured(sources: Sequence[Any], *, order: Sequence[Any] | None = None, label_sep: str | None = None,
                    top_k: int | None = None, true_col: str | None = None, pred_col: str | None = None,
                    structure: str | None = None) -> StructuredInputs | None:
    """Read every source; None when they are plain nominal prediction files (the ordinary readers' job).

    Files are read by :func:`advisor.load` (each once, by DuckDB); DataFrames and mappings of columns
    are taken as they are.
    """
    check_load_arguments(order=order, label_sep=label_sep, top_k=top_k, true_col=true_col, pred_col=pred_col,
                         structure=structure)
    if isinstance(sources, (str, Path)):
        sources = [sources]
    if isinstance(sources, Mapping) or not hasattr(sources, "__iter__"):
        raise InputError("sources must be a list of prediction files or of tables (DataFrames, mappings of columns); "
                         f"got {type(sources).__name__}.")
    sources = list(sources)
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
