"""What the report says about uncertainty (issue 20): each interval's method, the withheld ones and why,
the paired differences of two systems with their tests, and the calibration of probabilities.

* :func:`estimate_of` — a system's interval as the report keeps it (with its method, or the reason it
  is withheld).
* :func:`interval_settings` — the context's ``intervals``: per metric the method most systems' intervals
  used (``intervals.methods``), the metrics some interval was withheld for and why, the seed and whether
  advisor picked it, the paired test.
* :func:`difference_table` — for two systems on the same items, the lead and its companions: the paired
  difference with its interval, P(better), the pair's test and p-value, and the smallest difference the
  test set resolves.
* :func:`calibration_table` — the plug-in ECE beside the debiased root-mean-square calibration error with
  its interval (the plug-in gets none: it is biased upwards).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError, arg
from .._format import format_number
from ..engine import TARGET_VALUED
from ..questionnaire import join_words
from ..stats import pick_seed
from ._models import DifferenceRow, Estimate, IntervalSettings, TableBlock

__all__ = ["calibration_table", "difference_row", "difference_table", "estimate_of", "grouped", "interval_settings",
           "picked_seed", "settle_intervals", "uncertainty_tables"]


def _f(x: Any) -> float | None:
    if x is None:
        return None
    v = float(x)
    return None if v != v else v


def estimate_of(r: Any) -> Estimate:
    """An :class:`Estimate` from a system's result (attributes or a mapping: estimate, low, high, method, reason)."""
    get = (lambda k: r.get(k)) if isinstance(r, Mapping) else (lambda k: getattr(r, k, None))
    return Estimate(estimate=_f(get("estimate")), low=_f(get("low")), high=_f(get("high")), method=get("method"),
                    reason=get("reason"))


def difference_row(metric: str, estimate: Any, low: Any, high: Any, sign: float, pair: Any) -> DifferenceRow:
    """A paired difference ``first − second`` oriented by ``sign`` (−1: lower is better), with its test."""
    est, lo, hi = _f(estimate), _f(low), _f(high)
    if sign < 0 and lo is not None and hi is not None:
        lo, hi = -hi, -lo
    get = (lambda k: pair.get(k)) if isinstance(pair, Mapping) else (lambda k: getattr(pair, k, None))
    better = get("p_a_better") if get("p_a_better") is not None else get("probability_better")
    return DifferenceRow(metric=metric, estimate=None if est is None else sign * est, low=lo, high=hi,
                         p_better=_f(better), p_value=_f(get("p_value")), test=get("test"),
                         resolvable=_f(get("resolvable")), method=get("method"))


def interval_settings(reports: Sequence[Any], *, n_resamples: int, confidence: float, seed: int | None,
                      seed_given: bool, paired: bool, test: str | None = None, mcnemar: bool = False,
                      group: tuple[str, int] | None = None, runs: Mapping[str, int] | None = None) -> IntervalSettings:
    """The context's ``intervals``, from the intervals the systems got."""
    methods: dict[str, Counter[str]] = {}
    withheld: dict[str, str] = {}
    for rep in reports:
        for mid, iv in rep.intervals.items():
            if iv.method is None:
                continue
            methods.setdefault(mid, Counter())[iv.method] += 1
            if iv.method == "none" and iv.reason and mid not in withheld:
                withheld[mid] = iv.reason
    chosen = {}
    for mid, counts in methods.items():
        given = [(n, m) for m, n in counts.items() if m != "none"]
        chosen[mid] = max(given)[1] if given else "none"
    return IntervalSettings(method="auto", n_resamples=n_resamples, confidence=confidence, seed=seed, paired=paired,
                            methods=chosen, withheld=withheld, seed_given=seed_given, test=test, mcnemar=mcnemar,
                            group_column=None if group is None else group[0],
                            groups=None if group is None else group[1],
                            runs_by_system=dict(runs) if runs else None,
                            runs=next(iter(runs.values())) if runs and len(set(runs.values())) == 1 else None)


def _num(x: float | None, digits: int) -> str:
    return format_number(x, digits, none="—")


def _p(p: float | None) -> str:
    if p is None:
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


#: The items a paired proportion is counted among, in McNemar's sentence of the differences table.
_AMONG = {"recall": "positive items", "specificity": "negative items"}


def _names(entries: Sequence[Any]) -> str:
    """The metrics' names as a caption says them: "accuracy", "sensitivity and specificity"."""
    words = [m.name.split(" (")[0] for m in entries]
    return join_words([w if w[1:2].isupper() else w.lower() for w in words])


def difference_table(rows: Sequence[DifferenceRow], pair: Sequence[str], entries: Sequence[Any],
                     confidence: float, digits: int = 3, mcnemar: Sequence[Mapping[str, Any]] = ()) -> TableBlock | None:
    """The paired differences of the lead and its companions (two systems), or None."""
    by_id = {r.metric: r for r in rows}
    shown = [m for m in entries if m.role != "appendix" and m.id in by_id]
    if len(pair) != 2 or not shown:
        return None
    a, b = pair
    out = []
    for m in shown:
        r = by_id[m.id]
        sign = 1.0 if m.higher_is_better else -1.0  # rows are oriented: positive = first better; shown as a − b
        est = None if r.estimate is None else sign * r.estimate
        lo, hi = (r.low, r.high) if sign > 0 else (None if r.high is None else -r.high, None if r.low is None else -r.low)
        iv = "no interval" if lo is None or hi is None else f"[{_num(lo, digits)}, {_num(hi, digits)}]"
        signed = _num(est, digits)
        signed = signed if est is None or signed.startswith(("-", "−")) else "+" + signed
        # an undefined difference has no test (the p of 1 the winners' rule uses for it is not a result)
        out.append([m.name + ("" if m.higher_is_better else " ↓"), signed, iv, _num(r.p_better, 2),
                    _p(None if est is None else r.p_value),
                    _num(r.resolvable, digits)])
    pct = f"{confidence:.0%}"
    caption = (f"{a} − {b} on the same items, each difference with its {pct} interval; P({a} better) is the share of "
               "paired resamples in which it is better; p is the two-sided paired bootstrap test's; 'resolvable' is "
               f"the smallest difference this test set separates at {pct} — a true difference smaller than that is "
               "mostly reported as not separable.")
    ideal = [m for m in shown if m.id in TARGET_VALUED]
    if ideal:  # ideal at a value: a larger value is not better, so no system is the better one
        caption += (" " + " and ".join(f"{m.name.split(' (')[0].lower() if m.name[1:2].islower() else m.name} "
                                       f"(ideal {TARGET_VALUED[m.id]:g})" for m in ideal).capitalize()
                    + (" have" if len(ideal) > 1 else " has") + " an ideal value, not a direction: no P(better).")
    newcombe = [m for m in shown if by_id[m.id].method == "newcombe"]
    if newcombe:  # a proportion among items both systems classify: the interval from the pair's 2×2 table
        caption += (f" The interval{'s' if len(newcombe) > 1 else ''} of {_names(newcombe)} "
                    f"{'are' if len(newcombe) > 1 else 'is'} Newcombe's for paired proportions (Newcombe 1998), "
                    "from the items on which the two systems agree and disagree, not from the resamples; "
                    f"{'their' if len(newcombe) > 1 else 'its'} p is McNemar's exact test's, on the same items.")
    for t in mcnemar:
        m = next((m for m in shown if m.id == t.get("metric", "accuracy")), None)
        if {t.get("a"), t.get("b")} == {a, b} and m is not None:
            first, second = (t["a_only"], t["b_only"]) if t["a"] == a else (t["b_only"], t["a_only"])
            p = _p(t["p"])
            among = _AMONG.get(m.id, "items")
            caption += (f" {_names([m]).capitalize()}, McNemar's exact test: {a} is right and {b} wrong on {first:g} "
                        f"{among}, the reverse on {second:g}; p {p if p.startswith('<') else '= ' + p}.")
    return TableBlock(id="paired_differences", title="Paired differences", caption=caption,
                      columns=["Metric", f"{a} − {b}", f"{pct} interval", f"P({a} better)", "p", "resolvable"],
                      numeric=[False, True, True, True, True, True], rows=out)


def calibration_table(calibration: Mapping[str, Mapping[str, Any]], confidence: float,
                      digits: int = 3) -> TableBlock | None:
    """The plug-in ECE and the debiased root-mean-square calibration error with its interval, per system."""
    rows = []
    for name, parts in calibration.items():
        for part, c in parts.items():
            what = "top-label confidence" if part == "top_label" else "positive-class probability"
            iv = "no interval" if c.get("low") is None else f"[{_num(c['low'], digits)}, {_num(c['high'], digits)}]"
            rows.append([name, what, _num(c.get("ece"), digits), _num(c.get("rms_debiased"), digits), iv])
    if not rows:
        return None
    pct = f"{confidence:.0%}"
    caption = ("The plug-in ECE is biased upwards by the sampling error of each bin's accuracy and has no interval; the "
               "debiased root-mean-square calibration error, over the same equal-mass bins, subtracts that sampling "
               f"variance from each bin's squared gap, and carries a {pct} interval.")
    return TableBlock(id="calibration", title="Calibration", caption=caption,
                      columns=["System", "Of the", "ECE", "RMS calibration error, debiased", f"{pct} interval"],
                      numeric=[False, False, True, True, True], rows=rows)


def settle_intervals(results: Any, seed_given: bool) -> None:
    """The context's ``intervals`` from the intervals the systems got: each metric's method, the withheld ones
    and why, the seed and whether advisor picked it, the paired test (issue 20)."""
    iv = results.intervals
    if iv is None:
        return
    results.intervals = interval_settings(results.reports, n_resamples=iv.n_resamples, confidence=iv.confidence,
                                          seed=iv.seed, seed_given=seed_given, paired=iv.paired, test=results.test,
                                          mcnemar=bool(results.mcnemar), group=results.group,
                                          runs=getattr(results, "runs", None))
    results.intervals.classes, results.intervals.redrawn = iv.classes, dict(iv.redrawn)
    results.intervals.absent_classes = dict(iv.absent_classes)
    results.intervals.one_group_classes = list(iv.one_group_classes)
    results.intervals.tied_items = {m: dict(c) for m, c in iv.tied_items.items()}


def uncertainty_tables(results: Any, entries: Sequence[Any], scores: Any) -> list[TableBlock]:
    """The paired differences of two systems and the calibration of their probabilities, as tables."""
    out = []
    conf = results.intervals.confidence if results.intervals is not None else 0.95
    if len(results.reports) == 2 and results.intervals is not None and results.figures.difference_pair:
        out.append(difference_table(results.figures.differences, results.figures.difference_pair, entries, conf,
                                    mcnemar=results.mcnemar))
    if scores is not None and scores.calibration:
        out.append(calibration_table(scores.calibration, conf))
    return [t for t in out if t is not None]


def picked_seed(seed: int | None, bootstrap: int) -> tuple[int | None, bool]:
    """``(seed, given)``: the seed passed, or — when intervals are drawn — one picked now (issue 20)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InputError(f"{arg('seed')} must be a whole number ≥ 0, or None for a seed picked and stated; got "
                         f"{seed!r:.40}.")
    if seed is not None or bootstrap <= 0:
        return seed, seed is not None
    return pick_seed(None), False


def grouped(settings: Any, results: Any, data: Any, plan: Any, ordinal: bool) -> Any:
    """With ``group=``: the groups the bootstrap resamples, on the settings and the results, and the plan's
    design as carried out (its unit the groups). Returns the plan."""
    ps = getattr(data, "predictions", data)  # a Dataset, or a PredictionSet
    settings.groups, settings.group_col = getattr(ps, "groups", None), getattr(ps, "group_col", None)
    if settings.groups is None:
        return plan
    if ordinal and len(getattr(results, "reports", ())) > 1:  # one system's cells are resampled by groups
        raise InputError(f"{arg('group', settings.group_col)}: the ordinal metrics of several systems are compared "
                         f"on resampled items, not groups; give one system, or leave {arg('group')} out.")
    results.group = (settings.group_col, len(getattr(ps, "group_labels", ())))
    if plan is None:
        return plan
    return plan.model_copy(update={"design": plan.design.model_copy(update={
        "unit": "group", "classes": "free",
        "unit_words": f"the {results.group[1]:,} groups of items that share a value of “{results.group[0]}”"})})
