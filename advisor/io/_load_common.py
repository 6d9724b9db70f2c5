"""Small helpers shared by the loader's modules: what an input is, what it is called, which columns are systems."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .._exceptions import InputError
from ._dataset import SourceInfo
from ._stage import PREFIXES, StagedPart

__all__ = ["frame_columns", "is_frame", "part_info", "system_columns"]

_PROBA = ("p_", "proba_")


def is_frame(x: Any) -> bool:
    mod = type(x).__module__.split(".")[0]
    return (mod in ("pandas", "polars", "pyarrow") and (hasattr(x, "columns") or hasattr(x, "schema")))


def part_info(sp: StagedPart, kind: str = "predictions", query: str | None = None) -> SourceInfo:
    p = sp.part
    cols = [c for c in sp.columns if not c.startswith("#")]
    return SourceInfo(p.what, kind, p.kind, p.fmt, p.compression, cols, query)


def frame_columns(frame: Any) -> list[str]:
    """A DataFrame's or Arrow table's column names, without reading its rows."""
    if hasattr(frame, "column_names"):
        return [str(c) for c in frame.column_names]
    if hasattr(frame, "columns"):
        return [str(c) for c in frame.columns]
    schema = getattr(frame, "schema", None)
    return [str(n) for n in getattr(schema, "names", [])]


def system_columns(columns: Sequence[str], y_true: str, systems: Sequence[str] | str | None, what: str) -> list[str]:
    """The prediction columns of a table: as given, ``y_pred``, or every column that is not the truth, an id or
    a score/probability column."""
    if isinstance(systems, str):
        systems = [systems]
    if systems is None and "y_pred" in columns:
        systems = ["y_pred"]
    elif systems is None:
        systems = [c for c in columns if c not in (y_true, "id", "score") and not c.startswith(_PROBA)
                   and not re.match(rf"^(?:{'|'.join(PREFIXES)})_.", c)]
    systems = [str(s) for s in systems]
    if not systems:
        raise InputError(f"{what} has no prediction column besides {y_true!r}; name them with systems=[…] "
                         "(a query returns y_true and y_pred, or one column per system).")
    if len(set(systems)) != len(systems):
        raise InputError(f"systems lists a column twice: {systems!r}.")
    return systems
