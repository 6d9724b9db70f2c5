"""The arguments of :func:`advisor.load`, checked before anything is read: a value of the wrong kind is one
sentence naming the argument, the value and what is allowed — not a TypeError from deep inside the reader.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg

__all__ = ["STRUCTURES", "check_load_arguments", "input_paths"]

#: The values of ``structure=`` (``nominal``: label columns only, as :func:`advisor.evaluate` reads a table).
STRUCTURES = ("nominal", "ordinal", "multilabel", "top_k", "agreement")
_INTERNAL = ("ordinal_default",)  # the report's own: ordinal unless the columns say otherwise


def _kind(value: Any) -> str:
    return type(value).__name__


def _is_path(value: Any) -> bool:
    return isinstance(value, (str, os.PathLike))


def input_paths(value: Any, name: str) -> list[Path]:
    """One path or a list of paths (``sources=``, ``matrices=``, ``counts=``), or one sentence naming ``name``."""
    what = "a path, a list of paths, or a DataFrame or Arrow table" if name == "sources" else "a path or a list of paths"
    if value is None:
        return []
    if _is_path(value):
        return [Path(value)]
    if isinstance(value, (Mapping, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(f"{arg(name)} must be {what}; got {_kind(value)}.")
    items = list(value)
    bad = [p for p in items if not _is_path(p)]
    if bad:
        raise InputError(f"{arg(name)} must be {what}; it holds a {_kind(bad[0])} ({bad[0]!r:.60}).")
    return [Path(p) for p in items]


def _text(value: Any, name: str, what: str) -> None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise InputError(f"{arg(name)} must be {what}; got {value!r:.80}.")


def _texts(value: Any, name: str, what: str) -> None:
    """A column name or a list of them."""
    if value is None or (isinstance(value, str) and value.strip()):
        return
    if isinstance(value, (str, Mapping, bytes)) or not hasattr(value, "__iter__") \
            or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(f"{arg(name)} must be {what}; got {value!r:.80}.")


def _sequence(value: Any, name: str, what: str) -> None:
    if value is not None and (isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__")):
        raise InputError(f"{arg(name)} must be {what}; got {_kind(value)} {value!r:.60}.")


def check_load_arguments(*, sql: Any = None, true_col: Any = None, pred_col: Any = None, count_col: Any = None,
                         id_col: Any = None, systems: Any = None, labels: Any = None, proba_cols: Any = None,
                         order: Any = None, label_sep: Any = None, top_k: Any = None, structure: Any = None,
                         group: Any = None, names: Any = None, by: Any = None) -> None:
    """Refuse an argument of :func:`advisor.load` of the wrong kind (one sentence naming it)."""
    if sql is not None and not isinstance(sql, str):
        raise InputError(f"{arg('sql')} must be the text of one DuckDB SELECT query; got {_kind(sql)}.")
    for name, value in (("true_col", true_col), ("pred_col", pred_col), ("id_col", id_col), ("group", group)):
        _text(value, name, "a column name")
    _text(count_col, "count_col", "the name of the count column of the count tables")
    if label_sep is not None and (not isinstance(label_sep, str) or not label_sep):
        raise InputError(f"{arg('label_sep')} must be the text between the labels of a label set (e.g. '|'); got "
                         f"{label_sep!r:.60}.")
    _texts(systems, "systems", "a column name or a list of column names")
    _texts(by, "by", "a column name or a list of column names")
    _sequence(names, "names", "a list of system names, one per prediction file")
    _sequence(labels, "labels", "a list of the classes")
    _sequence(order, "order", "a list of the classes, lowest first")
    if not (proba_cols is None or (isinstance(proba_cols, str) and proba_cols == "auto")
            or isinstance(proba_cols, Mapping)
            or (isinstance(proba_cols, (list, tuple)) and all(isinstance(c, str) for c in proba_cols))):
        raise InputError(f"{arg('proba_cols')} must be 'auto', None, a list of probability columns or a mapping "
                         f"class → column; got {proba_cols!r:.80}.")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
        raise InputError(f"{arg('top_k')} must be a whole number ≥ 1 (the k of top-k accuracy); got {top_k!r:.60}.")
    if structure is not None and structure not in (*STRUCTURES, *_INTERNAL):
        raise InputError(f"{arg('structure')} must be one of {', '.join(STRUCTURES)}, or None to tell it from the "
                         f"columns; got {structure!r:.60}.")
