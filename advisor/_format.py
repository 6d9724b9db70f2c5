"""How advisor prints a number: one rule for the terminal tables, the report and its tests."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["format_count", "format_number"]


def format_number(
    value: Any,
    digits: int = 4,
    *,
    none: str = "n/a",
    nan: str = "n/a",
    inf: tuple[str, str] = ("inf", "-inf"),
) -> str:
    """Fixed ``digits`` decimals; ``-0.0000`` is printed ``0.0000``; None, NaN and ±inf as given.

    >>> format_number(0.81234), format_number(-1e-17), format_number(None, none="—")
    ('0.8123', '0.0000', '—')
    >>> format_number(float("nan")), format_number(float("-inf"), inf=("∞", "−∞")), format_number(3.0, 0)
    ('n/a', '−∞', '3')
    """
    if value is None:
        return none
    try:
        v = float(value)
    except (TypeError, ValueError):
        return nan
    if math.isnan(v):
        return nan
    if math.isinf(v):
        return inf[0] if v > 0 else inf[1]
    s = f"{v:.{digits}f}"
    if s.startswith("-") and float(s) == 0:
        s = s[1:]
    return s


def format_count(value: Any) -> str:
    """Counts: integers without decimals (no exponent however large), fractional masses with two.

    >>> format_count(1234567.0), format_count(2.5), format_count(None)
    ('1234567', '2.50', 'n/a')
    """
    if value is None:
        return "n/a"
    v = float(value)
    return f"{v:.0f}" if v.is_integer() else f"{v:.2f}"
