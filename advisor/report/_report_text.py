"""The words of the report around the methods paragraph: captions and diagnostic sentences.

One source per pattern for Markdown, LaTeX and HTML: the templates print these strings (escaped
by each format's environment); :func:`diagnostics` decides which sentences a report needs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["T", "diagnostics", "digits_for", "natural_key", "round_est"]

T: dict[str, str] = {
    "results_caption": "Recommended metrics by system: estimate and {conf} bootstrap interval.",
    "results_caption_plain": "Recommended metrics by system.",
    "winners_note": ("Bold: among the winners, the systems whose paired difference to the best has an "
                     "interval containing 0."),
    "lower_note": ": lower is better.",
    "chance_caption": "Each recommended metric for three reference classifiers on this test set's class sizes.",
    "per_class_caption": "Per-class precision, recall and F1.",
    "confusions_caption": "The most frequent errors: true class → predicted class, count and share of the true class.",
    "worst_best": ("{system}: per-class recall ranges from {lo} for {worst} to {hi} for {best}, "
                   "standard deviation {sd}."),
    "all_equal": "{system}: every class has recall {lo}.",
    "zero_recall": "{system}: {n} of {k} classes are never recognised.",
    "per_class_appendix": "The full per-class table is in the appendix and in {csv} beside this report.",
    "per_class_appendix_nocsv": "The full per-class table is in the appendix.",
    "per_class_csv_only": "The full per-class table, {k} rows a system, is in {csv} beside this report.",
    "undefined_more": "{n} more undefined values, resolved the same way, are listed in the JSON context.",
    "appendix_caption": "Every metric that applies, for every system.",
    "log_loss_zero": ("Log loss clips each probability to [ε, 1 − ε] with ε = {eps:.1e}, machine precision; "
                      "{n} of {total} items got probability 0 for their true class in {system}."),
    "log_loss_none": ("Log loss clips each probability to [ε, 1 − ε] with ε = {eps:.1e}, machine precision; "
                      "no item got probability 0 for its true class."),
}


def natural_key(label: Any) -> list[Any]:
    """Sort key that puts c2 before c10.

    >>> sorted(["c10", "c2", "c1"], key=natural_key)
    ['c1', 'c2', 'c10']
    """
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", str(label))]


def digits_for(low: float | None, high: float | None, default: int) -> int:
    """Decimals that show the interval's half-width to two significant digits.

    >>> digits_for(0.9, 0.95, 4), digits_for(0.5, 0.9, 4), digits_for(None, None, 4)
    (3, 2, 4)
    """
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return default
    half = (high - low) / 2
    if half <= 0:
        return default
    return max(0, min(default, 1 - math.floor(math.log10(half))))


def round_est(value: float | None, low: float | None, high: float | None, default: int) -> int:
    """The decimals of an estimate and its interval (the same for all three numbers)."""
    return digits_for(low, high, default)


def _names(labels: Sequence[str], limit: int = 3) -> str:
    shown = [f"“{x}”" for x in labels[:limit]]
    return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else "".join(shown)


def diagnostics(ctx: Any) -> list[str]:
    """One or two sentences per system on the spread of per-class recall (large k: the distribution)."""
    out = []
    for s in ctx.systems:
        rows = [r for r in s.per_class if r.recall is not None and r.support > 0]
        if len(rows) < 3:
            continue
        rec = sorted(rows, key=lambda r: (r.recall, natural_key(r.label)))
        lo, hi = rec[0].recall, rec[-1].recall
        worst = [r.label for r in rec if r.recall == lo]
        best = [r.label for r in reversed(rec) if r.recall == hi]
        mean = sum(r.recall for r in rows) / len(rows)
        sd = (sum((r.recall - mean) ** 2 for r in rows) / len(rows)) ** 0.5
        worst_s = _names(worst) + (f" and {len(worst) - 3} more" if len(worst) > 3 else "")
        best_s = _names(best) + (f" and {len(best) - 3} more" if len(best) > 3 else "")
        if lo == hi:
            out.append(T["all_equal"].format(system=s.name, lo=f"{lo:.2f}"))
            continue
        out.append(T["worst_best"].format(system=s.name, lo=f"{lo:.2f}", hi=f"{hi:.2f}", worst=worst_s,
                                          best=best_s, sd=f"{sd:.2f}"))
        zero = [r for r in rows if r.recall == 0]
        if zero and len(zero) > 3:
            out.append(T["zero_recall"].format(system=s.name, n=len(zero), k=len(rows)))
    return out
