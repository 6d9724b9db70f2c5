"""The words of the report around the methods paragraph: captions and diagnostic sentences.

One source per pattern for Markdown, LaTeX and HTML: the templates print these strings (escaped
by each format's environment); :func:`diagnostics` decides which sentences a report needs.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["T", "diagnostics", "digits_for", "natural_key", "round_est", "significant_digits"]

T: dict[str, str] = {
    "results_caption": ("Recommended metrics by system: estimate and {conf} interval (each metric's interval method "
                        "is named in the Methods)."),
    "no_interval": "no interval",
    # a metric computed but with a zero denominator under the omit convention (issue 22)
    "undefined": "undefined",
    "results_caption_plain": "Recommended metrics by system.",
    # several training runs of a system (issue 20 item 4): each cell is the mean over the system's runs
    "results_caption_runs": ("Recommended metrics by system, each the mean over the system's training runs, their "
                             "number beside its name: estimate and {conf} interval from resamples of the runs and then "
                             "of the items (each metric's interval method is named in the Methods)."),
    # partitions: the clusters each clustering produced, beside every index (the s30 text-clustering methodologist:
    # "purity and NMI cannot be read without it"), the reference's once
    "clusters_row": "Clusters produced (the reference has {k})",
    "clusters_row_own": "Clusters produced",
    "runs_head": "({n} runs)",
    "runs_head_one": "(1 run)",
    # a metric on which every system is a winner has no bold (Table 1 bolds only where some are set apart): said, so
    # that two unbolded values read as tied, not as both losing (the loan's two cut-offs of one score)
    "winners_note": ("Bold: among the winners, the systems whose paired difference to the best has an "
                     "interval containing 0; none where every system is one."),
    "winners_note_best": ("Bold: among the winners, the top system and every system not significantly worse than "
                          "it in a one-sided paired test at {alpha}/{others}, so that they hold the best system "
                          "with probability at least {conf} (Hsu 1996); none where every system is one."),
    "lower_note": ": lower is better.",
    "chance_caption": "Each recommended metric for three reference classifiers on this test set's class sizes.",
    # with an ordered figure that is not chance-corrected (adjacent agreement): the best constant prediction too
    "chance_caption_constant": ("Each recommended metric for three reference classifiers on this test set's class "
                                "sizes, and for the best constant prediction: every item given the one class, named "
                                "in brackets, that scores best. n/a: undefined, or not computed."),
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
    "appendix_caption": "Every other metric that applies, for every system; Table 1 gives the recommended ones.",
    # headings
    "h_methods": "Methods",
    "h_results": "Results",
    "h_diagnostics": "Diagnostics",
    "h_warnings": "Warnings",
    "h_notes": "Notes",
    "h_appendix": "Appendix",
    "h_every_metric": "Every other metric",
    "h_definitions": "Definitions",
    "h_justification": "Justification",
    "h_undefined": "Undefined values",
    "h_per_class": "Per-class results",
    "h_references": "References",
    "h_evaluation": "Evaluation",
    # title block, summary box and footer
    "written_by": "Evaluation report written by advisor {version}",
    "counts": "{n} items · {k} classes · {m} system{s}",
    "primary": "Primary metric:",
    "lower_is_better": " (lower is better)",
    # a lead of one row per risk threshold (net benefit): each row headed, with treating everyone and no one beside
    "lead_row": "At risk threshold {t}",
    "treat_all": "treating everyone {all}, treating none 0",
    "interval": "{conf} interval {low} to {high}",
    "winner": "Winner",
    "winners": "Winners, not separable",
    "footer": ("Generated by advisor {version}. Undefined-value convention: {convention}. Each estimate shows the "
               "decimals its interval supports. Re-render this report from its JSON context without recomputing."),
    "html_methods_note": "Methods paragraph written by advisor {version}. Formulas are inline SVG.",
    "tex_compile": "Evaluation report written by advisor {version}. Compile with pdflatex (twice).",
    "tex_fragment": "Evaluation section written by advisor {version}: {input} it into a paper.",
    "tex_needs": "Needs {packages} and natbib ({cite});",
    "tex_where": "the figures are in {figdir} next to this file, the references in the .bib file beside it.",
    "tex_methods": "Methods paragraph written by advisor {version}.",
    "tex_methods_needs": "Needs {packages} and natbib ({cite}); the cited keys are in advisor's references.bib.",
    # captions
    "table": "Table {n}.",
    "figure": "Figure {n}.",
    "pfirst_caption": ("Probability of ranking first: the share of bootstrap resamples in which a system is best; "
                       "in parentheses, the bootstrap interval of its rank (1 = best)."),
    # the intervals are the jackknife's, whose description names no resamples (the s35 shared-task reader): the
    # resamples that give these shares are said here, whole units drawn with the report's seed
    "pfirst_caption_units": ("Probability of ranking first: the share of {n} bootstrap resamples of {units}, seed "
                             "{seed}, in which a system is best; in parentheses, the interval of its rank over them "
                             "(1 = best)."),
    "undefined_caption": ("The undefined values met, one row per cause with the classes it touched, and how each "
                          "was resolved ({convention} convention)."),
    # the convention of the author's field (fields.yaml undefined): said as the methods say it, its scorer's
    "undefined_caption_field": ("The undefined values met, one row per cause with the classes it touched, and how "
                                "each was resolved ({convention} convention, as in {scorer})."),
    # column headers
    "c_metric": "Metric",
    "c_true": "True class",
    "c_predicted_class": "Predicted class",
    "c_count": "Count",
    "c_share": "Share",
    "c_uniform": "Uniform random",
    "c_prevalence": "Prevalence-matched",
    "c_majority": "Majority class",
    "c_constant": "Best constant",
    "c_system": "System",
    "c_quantity": "Quantity",
    "c_class": "Class",
    "c_classes": "Classes",
    "c_reason": "Reason",
    "c_resolution": "Resolution",
    "c_value": "Value",
    "c_support": "Support",
    "c_predicted": "Predicted",
    "c_precision": "Precision",
    "c_recall": "Recall",
    "c_f1": "F1",
    "c_roc_auc": "ROC AUC",
}


def natural_key(label: Any) -> tuple[Any, ...]:
    """Sort key that puts c2 before c10 (remembered: a report on 100,000 classes sorts them several times).

    >>> sorted(["c10", "c2", "c1"], key=natural_key)
    ['c1', 'c2', 'c10']
    """
    return _natural_key(str(label))


@functools.lru_cache(maxsize=1 << 18)
def _natural_key(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", text))


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


def significant_digits(value: float | None, default: int, significant: int = 3) -> int:
    """Decimals that show ``value`` to ``significant`` digits (at most ``default``), for a number without an interval.

    >>> significant_digits(0.1046, 4), significant_digits(3.3618, 4), significant_digits(32.02, 4)
    (3, 2, 1)
    >>> significant_digits(None, 4), significant_digits(0.0, 4), significant_digits(1234.5, 4)
    (4, 4, 0)
    """
    if value is None or not math.isfinite(value) or value == 0:
        return default
    return max(0, min(default, significant - 1 - math.floor(math.log10(abs(value)))))


def round_est(value: float | None, low: float | None, high: float | None, default: int) -> int:
    """The decimals of an estimate and its interval (the same for all three numbers)."""
    return digits_for(low, high, default)


def _names(labels: Sequence[str], limit: int = 3) -> str:
    """At most ``limit`` names, then how many more: one "and" in all.

    >>> _names(["a", "b"]), _names(["a", "b", "c", "d", "e"])
    ('“a” and “b”', '“a”, “b”, “c” and 2 more')
    """
    shown = [f"“{x}”" for x in labels[:limit]]
    if len(labels) > limit:
        return ", ".join(shown) + f" and {len(labels) - limit} more"
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
        worst_s, best_s = _names(worst), _names(best)
        if lo == hi:
            out.append(T["all_equal"].format(system=s.name, lo=f"{lo:.2f}"))
            continue
        out.append(T["worst_best"].format(system=s.name, lo=f"{lo:.2f}", hi=f"{hi:.2f}", worst=worst_s,
                                          best=best_s, sd=f"{sd:.2f}"))
        zero = [r for r in rows if r.recall == 0]
        if zero and len(zero) > 3:
            out.append(T["zero_recall"].format(system=s.name, n=len(zero), k=len(rows)))
    return out
