"""How the evaluation commands print intervals: the cell, which method made them, and the seed.

An interval is printed only when it contains its estimate (:mod:`advisor.stats._intervals`); otherwise
the cell says "no interval" and a note below the table says why. Every interval names its method, and
the seed is always stated — picked when none was given, so the numbers can be reproduced.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .. import stats as stats_api
from .._format import format_number, terminal_safe

__all__ = ["calibration_lines", "interval_cell", "resampled_unit", "methods_note", "p_clause", "p_text", "pick_seed", "seed_note"]

NO_INTERVAL = "no interval"


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and x != x)


def interval_cell(value: str, interval: Mapping[str, Any] | None, fmt: Any) -> str:
    """``value [low, high]``, ``value (no interval)`` where the interval was withheld, or ``value`` alone.

    >>> interval_cell("0.8", {"low": 0.7, "high": 0.9}, str), interval_cell("0.8", {"low": None, "high": None}, str)
    ('0.8 [0.7, 0.9]', '0.8 (no interval)')
    """
    if interval is None:
        return value
    if _missing(interval.get("low")) or _missing(interval.get("high")):
        return f"{value} ({NO_INTERVAL})"
    return f"{value} [{fmt(interval['low'])}, {fmt(interval['high'])}]"


def methods_note(entries: Iterable[tuple[str, str, str | None, str | None]]) -> list[str]:
    """Lines naming each interval method and the metrics it served, then each withheld interval and why.

    ``entries``: (system, metric, method, reason).

    >>> methods_note([("a", "accuracy", "clopper_pearson", None), ("a", "mcc", "bca", None)])
    ['intervals: Clopper–Pearson for accuracy; BCa for mcc']
    """
    by_method: dict[str, list[str]] = {}
    missing: list[str] = []
    for system, metric, method, reason in entries:
        if method == "none" or method is None:
            if reason:  # a system name is the user's: shown with its control characters made visible
                missing.append(f"{metric} of {terminal_safe(system)}: {reason}" if system else f"{metric}: {reason}")
            continue
        names = by_method.setdefault(stats_api.METHOD_WORDS.get(method, method), [])
        if metric not in names:
            names.append(metric)
    lines = []
    if by_method:
        lines.append("intervals: " + "; ".join(f"{m} for {', '.join(ids)}" for m, ids in by_method.items()))
    lines += [f"no interval for {line}" for line in dict.fromkeys(missing)]
    return lines


def p_text(p: float | None) -> str:
    """A p-value as printed: three decimals, or "< 0.001".

    >>> p_text(0.03857), p_text(2e-9), p_text(None)
    ('0.039', '< 0.001', 'undefined')
    """
    if p is None:
        return "undefined"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_clause(p: float | None) -> str:
    """``p = 0.039`` or ``p < 0.001``."""
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def pick_seed(seed: int | None) -> tuple[int, bool]:
    """``(seed, given)``: the seed passed, or one picked now."""
    return int(stats_api.pick_seed(seed)), seed is not None


def seed_note(seed: int, given: bool) -> str:
    """The seed as the output states it.

    >>> seed_note(7, True), seed_note(12, False)
    ('seed 7', 'seed 12 (picked; --seed 12 reproduces these intervals)')
    """
    return f"seed {seed}" if given else f"seed {seed} (picked; --seed {seed} reproduces these intervals)"


def calibration_lines(calibration: dict[str, Any] | None) -> list[str]:
    """The debiased calibration error beside each plug-in ECE (the ECE itself gets no interval)."""
    lines = []
    for name, parts in (calibration or {}).items():
        for part, c in parts.items():
            what = "top-label confidence" if part == "top_label" else "positive-class probability"
            iv = "" if c.get("low") is None else f" [{format_number(c['low'])}, {format_number(c['high'])}]"
            lines.append(f"{terminal_safe(name)}: calibration of the {what}: ECE {format_number(c['ece'])} "
                         f"(plug-in, biased upwards), debiased RMS calibration error "
                         f"{format_number(c['rms_debiased'])}{iv}")
    return lines


def resampled_unit(group_col: str | None, n_groups: int | None) -> Any:
    """What the bootstrap resampled, for the JSON: ``"items"``, or the groups of ``--group`` (issue 20).

    >>> resampled_unit(None, None), resampled_unit("patient", 30)
    ('items', {'unit': 'groups', 'column': 'patient', 'groups': 30})
    """
    if group_col is None:
        return "items"
    return {"unit": "groups", "column": group_col, "groups": n_groups}
