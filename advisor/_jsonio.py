"""Strict JSON for everything advisor prints or saves: one encoding for the library and the CLI.

NaN (an undefined value) becomes ``null``; ±infinity (e.g. LR+ of a classifier without false
positives) becomes the string ``"inf"`` / ``"-inf"``; numpy scalars and arrays become Python values.
The output never contains the non-standard literals ``NaN`` or ``Infinity``.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "jsonable"]


def jsonable(obj: Any) -> Any:
    """A JSON-safe copy of ``obj``.

    >>> jsonable({"a": float("nan"), "b": [float("inf"), 1]})
    {'a': None, 'b': ['inf', 1]}
    """
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if hasattr(obj, "tolist") and not isinstance(obj, (str, bytes)):
        return jsonable(obj.tolist())
    if isinstance(obj, float):
        if math.isnan(obj):
            return None
        if math.isinf(obj):
            return "inf" if obj > 0 else "-inf"
    return obj


def dumps(obj: Any, indent: int | None = 2) -> str:
    """Strict JSON text of ``obj`` (see :func:`jsonable`)."""
    return json.dumps(jsonable(obj), indent=indent, ensure_ascii=False, allow_nan=False)
