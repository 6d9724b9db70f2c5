"""Ordinal, multi-label, top-k and agreement inputs from the staged table (the parsing is in ``_structures``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._items import columns_of
from ._label_limits import check_label_columns
from ._stage import Staged
from ._structures import declared_order, structured_from_tables, with_groups

__all__ = ["structured_inputs"]


def structured_inputs(con: Any, staged: Staged, kind: str, names: list[str], *, frame: Any, order: Any,
                      label_sep: str | None, top_k: int | None, true_col: str | None, pred_col: str | None,
                      group_col: str | None = None) -> Any:
    """The :class:`~advisor.io._structures.StructuredInputs` of the staged parts (one table per file)."""
    tables = []
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    for sp in staged.parts:
        if kind in ("ordinal", "top_k"):  # an id column taken for the labels: refused before the items are read
            check_label_columns(con, sp.source(), [tc, pc] if kind == "ordinal" else [tc], sp.present)
        name = Path(sp.part.what).stem if sp.part.kind == "file" else "system"
        tables.append((name, columns_of(con, sp)))
    if order is None and frame is not None:
        order = declared_order(frame, (tc, pc))
    if order is None and kind in ("ordinal", "agreement"):
        order = next((o for o in (_parquet_order(sp.part.path, (tc, pc)) for sp in staged.parts
                                  if sp.part.fmt == "parquet") if o is not None), None)
    out = structured_from_tables(tables, order=order, label_sep=label_sep, top_k=top_k, true_col=true_col,
                                 pred_col=pred_col, structure=kind)
    if group_col is not None and out is not None:  # multi-label items resampled in groups (a patient's radiographs)
        out = with_groups(out, tables[0][1][group_col], group_col)
    return out


def _parquet_order(path: Any, columns: tuple[str, str]) -> Any:
    """The order an ordered dictionary column of a Parquet file declares (what pandas writes for an ordered
    Categorical), or None.

    DuckDB reads such a column as text, without its dictionary, so this is the one place that needs
    pyarrow — optionally: without it the order is not taken from the file (give --order). It reads the
    file's schema and the ordered columns a second time, only for an agreement or ordinal file without an
    order.
    """
    try:
        import pyarrow  # noqa: F401
    except ImportError:  # pragma: no cover - pyarrow is optional here
        return None
    return declared_order(path, columns)
