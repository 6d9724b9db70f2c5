"""The human–human baseline in the report (issue 22, the essay reader; Williamson, Xi & Breyer 2012): the machine's
exact and adjacent agreement and quadratically weighted kappa with each human rater (the answers' ``rater_columns``,
read with the predictions) beside those of the raters with each other — like for like, one rater against one rater,
since the resolved score pools two raters and would favour the machine — and the degradation of the machine's kappa
from the raters', every figure from the same resamples of the items — or of the groups, when the answers name a
resampling unit — so the degradation's interval is paired. In a field with thresholds
(``fields.yaml`` ``baseline``) a kappa below the floor, and a degradation beyond the limit, are flagged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import baseline_ratings, judge_comparison
from ..stats import structure_bootstrap
from ._models import TableBlock

__all__ = ["baseline_figures", "baseline_table"]

_COLUMNS = {"agreement": "exact agreement", "adjacent": "adjacent agreement", "weighted_kappa": "QWK"}


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
    jr = baseline_ratings(pred, scores, list(order) if order else labels)
    out = judge_comparison(jr, undefined)
    base = {k: d.params.get(k) for k in ("qwk_floor", "degradation")}
    out.update(raters=raters, thresholds=base, confidence=confidence, resamples=bootstrap,
               system=str(joint.systems[0]), systems=len(joint.systems))
    groups = getattr(ps, "groups", None)
    if bootstrap > 0:
        g = None if groups is None else np.repeat(np.asarray(groups), reps)
        bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=bootstrap, confidence=confidence, seed=seed,
                                 undefined=undefined, groups=g)
        for p, row in enumerate(out["rows"]):
            row["intervals"] = {q: _band(bs.get(f"{q}#{p}")) for q in jr.quantities}
        if out["delta"] is not None:
            out["delta_intervals"] = {q: _band(bs.get(f"delta_{q}")) for q in jr.quantities}
        out["methods"] = sorted({str(r.get("method")) for r in bs.values() if r.get("method")})
        out["unit"] = "groups" if groups is not None else "items"
    out["flags"] = _flags(out, base)
    return out


def _flags(out: Mapping[str, Any], base: Mapping[str, Any]) -> list[str]:
    """What the field's thresholds flag: the machine's kappa below the floor, a degradation beyond the limit."""
    flags = []
    floor, limit = base.get("qwk_floor"), base.get("degradation")
    for row in out["rows"]:
        machine = row.get("weighted_kappa")
        if row["judge"] and floor is not None and machine is not None and machine < floor:
            flags.append(f"the machine's QWK with {row['second']}, {machine:.3f}, is below {floor:.2f}")
    delta = (out.get("delta") or {}).get("weighted_kappa")
    if limit is not None and delta is not None and delta < -limit:
        flags.append(f"the machine's QWK is {-delta:.3f} below the raters', more than {limit:.2f}")
    return flags


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
    for row in figures["rows"]:
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
    rule = (f" Flagged (Williamson et al. 2012): a QWK below {base['qwk_floor']:.2f}, or a degradation beyond "
            f"−{base['degradation']:.2f}." if base.get("qwk_floor") is not None else "")
    flags = figures.get("flags") or []
    found = (" Flags: " + "; ".join(flags) + ".") if flags else (" Nothing is flagged." if rule else "")
    # the baseline is read for one system: named, and said to be the first when several were given (a reviewer)
    who_sys = figures.get("system")
    named = (f" (“{who_sys}”" + (", the first system given" if int(figures.get("systems") or 1) > 1 else "") + ")"
             if who_sys else "")
    caption = (f"The machine{named} against each human rater, then the raters against each other, each pair on the "
               f"{item_words} both scored: one rater against one rater on both sides (the resolved score pools two "
               f"raters and would favour the machine).{band}{rule}{found}")
    return TableBlock(id="human_baseline", title="The machine against the human–human baseline", caption=caption,
                      columns=["pair", f"{item_words} both scored", *_COLUMNS.values()],
                      numeric=[False, True, *([True] * len(qs))], rows=rows)
