"""The human–human baseline in the report (issue 22, the essay reader; Williamson, Xi & Breyer 2012): the machine's
exact and adjacent agreement, quadratically weighted kappa and Pearson correlation with each human rater (the answers'
``rater_columns``, read with the predictions) beside those of the raters with each other — like for like, one rater
against one rater, since the resolved score pools two raters and would favour the machine — and the degradation of
the machine's figures from the raters', every figure from the same resamples of the items — or of the groups, when the
answers name a resampling unit — so the degradation's interval is paired. The machine against the resolved score
comes first, with the standardized mean difference of its scores minus the resolved ones over all items. In a field
with thresholds (``fields.yaml`` ``baseline``) a kappa or a correlation with a rater below the floor, a degradation
beyond the limit, and an overall standardized mean difference beyond ±its flag are flagged, each naming its comparison.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import BASELINE_QUANTITIES, baseline_ratings, judge_comparison
from ..questionnaire import BASELINE_THRESHOLDS
from ..stats import structure_bootstrap
from ._models import TableBlock

__all__ = ["RESOLVED", "baseline_figures", "baseline_table"]

_COLUMNS = {"agreement": "exact agreement", "adjacent": "adjacent agreement", "weighted_kappa": "QWK",
            "correlation": "Pearson r", "smd": "SMD"}
#: The name of the resolved score (the answers' y_true) set against the machine in the first row
RESOLVED = "resolved score"


def _band(r: Mapping[str, Any] | None) -> list[float] | None:
    lo, hi = (r or {}).get("low"), (r or {}).get("high")
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    return [float(lo), float(hi)]


def baseline_figures(plan: Any, data: Any, order: Sequence[Any] | None, bootstrap: int, confidence: float,
                     seed: int | None, undefined: str) -> dict[str, Any] | None:
    """The figures of the plan's ``human_baseline`` on the first system's predictions, or None when the plan has
    none. The rater columns must have been read with the predictions (one sentence otherwise)."""
    d = plan.diagnostic("human_baseline") if plan is not None else None
    if d is None or data is None:
        return None
    ps = getattr(data, "predictions", data)
    joint = getattr(ps, "joint", None)
    read = getattr(ps, "by", None) or {}
    raters = [str(r) for r in d.params.get("raters") or []]
    missing = [r for r in raters if r not in read]
    if joint is None or missing:
        raise InputError(f"the rater column {missing[0] if missing else raters[0]!r} of the answers is not in the "
                         "prediction files; give each rater's own score as a column beside y_true and y_pred.")
    counts = np.asarray(joint.counts, dtype=np.float64)
    if not np.all(counts == np.round(counts)):
        return None  # weighted rows are no items: the raters' scores cannot be paired with them
    reps = counts.astype(np.int64)
    labels = list(joint.labels)
    pred = [labels[c] if c < len(labels) else None for c in np.repeat(joint.codes[:, 1], reps)]
    scores = {}
    for r in raters:
        codes, values = read[r]
        scores[r] = [values[c] if c >= 0 else None for c in np.repeat(np.asarray(codes, dtype=np.int64), reps)]
    order_used = list(order) if order else labels
    jr = baseline_ratings(pred, scores, order_used)
    out = judge_comparison(jr, undefined)
    # the machine against the resolved score (the answers' y_true), the score the figures of Table 1 are read against,
    # with the standardized mean difference of the machine's scores minus it over all items
    truth = [labels[c] if c < len(labels) else None for c in np.repeat(joint.codes[:, 0], reps)]
    jr_res = baseline_ratings(pred, {RESOLVED: truth}, order_used, quantities=(*BASELINE_QUANTITIES, "smd"))
    resolved = judge_comparison(jr_res, undefined)["rows"][0]
    base = {k: d.params.get(k) for k in BASELINE_THRESHOLDS}
    out.update(raters=raters, thresholds=base, confidence=confidence, resamples=bootstrap, resolved=resolved,
               system=str(joint.systems[0]), systems=len(joint.systems))
    groups = getattr(ps, "groups", None)
    if bootstrap > 0:
        g = None if groups is None else np.repeat(np.asarray(groups), reps)
        bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=bootstrap, confidence=confidence, seed=seed,
                                 undefined=undefined, groups=g)
        for p, row in enumerate(out["rows"]):
            row["intervals"] = {q: _band(bs.get(f"{q}#{p}")) for q in jr.quantities}
        if out["delta"] is not None:
            out["delta_intervals"] = {q: _band(bs.get(f"delta_{q}")) for q in out["delta"]}
        bs_res = structure_bootstrap("agreement", jr_res, jr_res.ids(), n_resamples=bootstrap, confidence=confidence,
                                     seed=seed, undefined=undefined, groups=g)
        resolved["intervals"] = {q: _band(bs_res.get(f"{q}#0")) for q in jr_res.quantities}
        out["methods"] = sorted({str(r.get("method")) for r in [*bs.values(), *bs_res.values()] if r.get("method")})
        out["unit"] = "groups" if groups is not None else "items"
    out["flags"] = _flags(out, base)
    return out


def _flags(out: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    """What the field's thresholds flag, each with its comparison: the machine's kappa or correlation with a single
    rater below the floor, a degradation from the raters' beyond the limit, and the standardized mean difference of the
    machine's scores minus the resolved score beyond ± its flag."""
    flags = []
    for q, name, floor_key, limit_key in (("weighted_kappa", "QWK", "qwk_floor", "degradation"),
                                          ("correlation", "Pearson r", "r_floor", "r_degradation")):
        floor, limit = base.get(floor_key), base.get(limit_key)
        for row in out["rows"]:
            machine = row.get(q)
            if row["judge"] and floor is not None and machine is not None and machine < floor:
                flags.append(f"the machine's {name} with {row['second']}, {machine:.3f}, is below {floor:.2f}")
        delta = (out.get("delta") or {}).get(q)
        if limit is not None and delta is not None and delta < -limit:
            flags.append(f"the machine's {name} with single raters is {-delta:.3f} below the raters', more than "
                         f"{limit:.2f}")
    smd, flag = (out.get("resolved") or {}).get("smd"), base.get("smd_overall")
    if flag is not None and smd is not None and abs(smd) > flag:
        flags.append(f"the standardized mean difference of the machine minus the {RESOLVED}, {smd:.3f}, is beyond "
                     f"±{flag:.2f}")
    return flags


def _r_said(base: Mapping[str, Any]) -> str:
    """" or Pearson r" when the field flags the correlation at the kappa's floor and degradation, else its own."""
    floor, limit = base.get("r_floor"), base.get("r_degradation")
    if floor is None:
        return ""
    if floor == base.get("qwk_floor") and limit == base.get("degradation"):
        return " or Pearson r"
    return f" (Pearson r: {floor:.2f}, {limit:.2f})"


def _cell(v: float | None, band: list[float] | None) -> str:
    if v is None:
        return "—"
    return f"{v:.3f}" + (f" [{band[0]:.3f}, {band[1]:.3f}]" if band else "")


def baseline_table(figures: Mapping[str, Any] | None, item_words: str = "items") -> TableBlock | None:
    """The machine against each rater, each pair of raters, and the degradation row, with intervals and the flags of
    the field's thresholds in the caption."""
    if not figures:
        return None
    qs = list(_COLUMNS)
    rows = []
    for row in [*([figures["resolved"]] if figures.get("resolved") else []), *figures["rows"]]:
        who = f"{row['first']} – {row['second']}"
        bands = row.get("intervals") or {}
        rows.append([who, f"{int(row['items']):,}", *(_cell(row.get(q), bands.get(q)) for q in qs)])
    delta = figures.get("delta")
    if delta is not None:
        bands = figures.get("delta_intervals") or {}
        rows.append(["degradation: machine's mean − raters'", "", *(_cell(delta.get(q), bands.get(q)) for q in qs)])
    conf = f"{float(figures.get('confidence', 0.95)):.0%}"
    unit = "groups of " + item_words if figures.get("unit") == "groups" else item_words
    band = (f" In brackets: {conf} intervals from {int(figures['resamples']):,} bootstrap resamples of the {unit}; "
            "each resample gives every row, so both sides of the degradation come from the same resample."
            if figures.get("methods") else "")
    base = figures.get("thresholds") or {}
    rule = (f" Flagged (Williamson et al. 2012): the machine's QWK{_r_said(base)} with a single rater below "
            f"{base['qwk_floor']:.2f}, or a degradation beyond −{base['degradation']:.2f}"
            + (f"; its SMD against the {RESOLVED} beyond ±{base['smd_overall']:.2f}"
               if base.get("smd_overall") is not None else "") + "."
            if base.get("qwk_floor") is not None else "")
    smd = (f" SMD: the standardized mean difference of the machine's scores minus the {RESOLVED} over all "
           f"{item_words}." if figures.get("resolved") else "")
    flags = figures.get("flags") or []
    found = (" Flags: " + "; ".join(flags) + ".") if flags else (" Nothing is flagged." if rule else "")
    # the baseline is read for one system: named, and said to be the first when several were given (a reviewer)
    who_sys = figures.get("system")
    named = (f" (“{who_sys}”" + (", the first system given" if int(figures.get("systems") or 1) > 1 else "") + ")"
             if who_sys else "")
    first = f"The machine{named} against the {RESOLVED}, " if figures.get("resolved") else f"The machine{named} "
    caption = (f"{first}against each human rater, then the raters against each other, each pair on the "
               f"{item_words} both scored: one rater against one rater on both sides (the resolved score pools two "
               f"raters and would favour the machine).{smd}{band}{rule}{found}")
    return TableBlock(id="human_baseline", title="The machine against the human–human baseline", caption=caption,
                      columns=["pair", f"{item_words} both scored", *_COLUMNS.values()],
                      numeric=[False, True, *([True] * len(qs))], rows=rows)
