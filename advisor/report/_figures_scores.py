"""Figures of scores, probabilities and costs: ROC and PR curves, reliability diagram, cost curve.

Drawn from the report context alone (:class:`~advisor.report._models_scores.ScoreData`, filled by
:mod:`advisor.report._build_scores`), so a report re-renders from its JSON: ``roc_pr`` for binary tasks
(PR with the positive share as the chance line, Saito & Rehmsmeier 2015); ``reliability`` for
probabilities (top-label confidence against accuracy in the equal-mass bins of the ECE; Guo et al.
2017); ``cost_curve`` for binary decisions under costs: the normalized expected cost of each system's
decisions as the deployment share of the positive class sweeps (0, 1), the stated share marked
(Ferrer 2022). Styling and output are those of :mod:`advisor.report._figures`.
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import cost_matrix, resolve_priors
from ._curves_scores import cost_curves, curve_points, item_curves
from ._figure_io import _RC, _Factory, save_figure
from ._models_scores import ScoreData

__all__ = ["curve_points", "draw_calibration_curve", "draw_cost_curve", "draw_decision_curve", "draw_reliability",
           "draw_risk_coverage", "draw_roc_pr", "score_figures"]

from ._figure_io import _WIDTH, _colour, _text  # noqa: E402


def _y(values: list[float | None]) -> list[float]:
    return [float("nan") if v is None else v for v in values]


def draw_roc_pr(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """ROC curve and precision–recall curve of every system with scores (binary tasks)."""
    sd = ctx.scores
    if sd is None or not sd.roc:
        return None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(_WIDTH, 2.9))
    for i, name in enumerate(sd.roc):
        ax1.plot(sd.roc[name].x, _y(sd.roc[name].y), color=_colour(i), lw=1.3, label=_text(name))
        if name in sd.pr:
            ax2.step(sd.pr[name].x, _y(sd.pr[name].y), where="post", color=_colour(i), lw=1.3, label=_text(name))
    ax1.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
    if sd.positive_share is not None:
        ax2.axhline(sd.positive_share, color="grey", lw=0.8, ls=":")
    ax1.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC curve", xlim=(0, 1), ylim=(0, 1.02))
    ax2.set(xlabel="recall", ylabel="precision", title="precision–recall", xlim=(0, 1), ylim=(0, 1.02))
    ax1.legend(loc="lower right", frameon=False)
    fig.tight_layout()
    share = f" {sd.positive_share:.3g}" if sd.positive_share is not None else ""
    return fig, (f"ROC curve (left; dotted: chance) and precision–recall curve (right; dotted: the positive "
                 f"share{share}, the precision of a random ranking) for class {sd.positive_label}.")


def draw_reliability(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Accuracy against mean confidence in the ECE's equal-mass bins, one line per system."""
    sd = ctx.scores
    if sd is None or not sd.reliability:
        return None
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.55, 2.9))
    for i, (name, c) in enumerate(sd.reliability.items()):
        ax.plot(c.x, _y(c.y), marker="o", ms=3, lw=1.2, color=_colour(i), label=_text(name))
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
    ax.set(xlabel="confidence (top-label probability)", ylabel="accuracy", title="reliability", xlim=(0, 1),
           ylim=(0, 1.02))
    ax.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    return fig, (f"Reliability diagram: accuracy against mean confidence in {sd.ece_bins} equal-mass bins, the "
                 "bins of the expected calibration error; the dotted diagonal is perfect calibration.")


def draw_cost_curve(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Normalized expected cost of each system's decisions against the deployment share of the positive class."""
    import numpy as np

    sd = ctx.scores
    if sd is None or not sd.cost_curve or sd.costs is None or sd.positive_label not in sd.cost_labels:
        return None
    p = sd.cost_labels.index(sd.positive_label)
    c_fn, c_fp = sd.costs[p][1 - p], sd.costs[1 - p][p]
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.75, 2.7))
    top = 1.0
    for i, (name, c) in enumerate(sd.cost_curve.items()):
        y = np.array(_y(c.y))
        ax.plot(c.x, y, color=_colour(i), lw=1.3, label=_text(name))
        top = max(top, float(np.nanmin(y)) * 3)
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    stated = (sd.priors or {}).get(sd.positive_label)
    if stated is not None:
        ax.axvline(stated, color="#444444", lw=0.8, ls="--")
    ax.set(xlabel=f"share of {_text(sd.positive_label)} in use", ylabel="normalized expected cost",
           xlim=(0, 1), ylim=(0, min(max(top, 1.5), 4.0)), title="cost curve")
    ax.legend(loc="upper right", frameon=False)
    fig.tight_layout()
    mark = f"; dashed: the stated share {stated:.3g}" if stated is not None else ""
    return fig, (f"Normalized expected cost of each system's decisions (a missed {sd.positive_label} costs "
                 f"{c_fn:g}, a false alarm {c_fp:g}) as the share of {sd.positive_label} in use varies, the "
                 f"per-class error rates fixed; above the dotted line at 1, ignoring the input is cheaper{mark}.")


def score_figures(y_true: Sequence[Any], systems: Mapping[str, Any], labels: Sequence[Any], *,
                  positive_label: Any = None, decisions: Mapping[str, Sequence[Any]] | None = None,
                  costs: Any = None, priors: Any = None, formats: Sequence[str] = ("svg",)) -> list[Any]:
    """Every score figure the item-level outputs support, drawn without a report (``costs``: fn/fp or a matrix)."""
    import matplotlib
    import numpy as np

    col = {str(lab): j for j, lab in enumerate(labels)}
    idx = np.array([col[str(t)] for t in y_true])
    pos = col[str(positive_label)] if positive_label is not None else (1 if len(labels) == 2 else None)
    data = ScoreData(cost_labels=[str(x) for x in labels])
    item_curves(data, idx, {n: np.asarray(s, dtype=float) for n, s in systems.items()}, labels, pos)
    if costs is not None and decisions and len(labels) == 2 and pos is not None:
        data.costs = cost_matrix(costs, list(labels), labels[pos]).tolist()
        if priors is not None:
            pi = resolve_priors(priors, list(labels), np.ones(2))
            data.priors = {str(lab): float(v) for lab, v in zip(labels, pi)}
        conf = {}
        for name, d in decisions.items():
            dec = np.array([col[str(x)] for x in d])
            conf[name] = np.bincount(idx * 2 + dec, minlength=4).reshape(2, 2)
        cost_curves(data, conf, labels, pos)
    ctx = types.SimpleNamespace(scores=data)
    out = []
    with matplotlib.rc_context(_RC):
        for fid, draw in (("roc_pr", draw_roc_pr), ("reliability", draw_reliability), ("cost_curve", draw_cost_curve)):
            drawn = draw(ctx, _Factory())
            if drawn is not None:
                out.append(save_figure(fid, drawn[1], drawn[0], formats))
    return out


def draw_risk_coverage(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Selective risk against coverage (issue 23): the error rate among the most confident items answered."""
    sd = ctx.scores
    if sd is None or not sd.risk_coverage:
        return None
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.6, 2.8))
    top = 0.0
    for i, (name, c) in enumerate(sd.risk_coverage.items()):
        y = _y(c.y)
        ax.plot(c.x, y, lw=1.3, color=_colour(i), label=_text(name))
        top = max([top, *(v for v in y if v == v)])
    target = sd.selective_coverage
    if target is not None:
        ax.axvline(target, color="#444444", lw=0.8, ls="--")
    risk = sd.selective_target_risk
    if risk is not None:  # the author's limit, which the curve is read against (the legal methodologist)
        ax.axhline(risk, color="#444444", lw=0.8, ls=":")
        top = max(top, risk)
    guaranteed = [(i, v.get("coverage_guaranteed_risk")) for i, v in enumerate(sd.selective.values())]
    for i, cov in guaranteed:  # the test half's coverage at the cut frozen on the calibration half, per system
        if cov:
            ax.axvline(cov, color=_colour(i), lw=0.8, ls="-.")
    ax.set(xlabel="coverage (share of the items answered)", ylabel="selective risk (error rate)", xlim=(0, 1),
           ylim=(0, max(top * 1.05, 0.05)), title="risk–coverage")
    ax.legend(loc="upper left", frameon=False)
    fig.tight_layout()
    mark = f"; dashed: the target coverage {target:g}" if target is not None else ""
    if risk is not None:
        mark += f"; dotted: the target risk {risk:g}"
    if any(cov for _, cov in guaranteed):
        mark += ("; dash-dotted: the coverage of the test half at the cut that selection with guaranteed risk fixed "
                 "on the calibration half, in the system's colour")
    return fig, ("Risk–coverage curve: the error rate among the most confident items (by top-label probability) "
                 f"against the share of the items answered, ties shared fractionally; its mean is the AURC{mark}.")


def draw_calibration_curve(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Binary risks (issue 21): the loess-smoothed observed share of positives against the predicted risk, the
    curve the ICI averages its distance to; the calibration intercept and slope in the legend."""
    sd = ctx.scores
    if sd is None or not sd.smooth:
        return None
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.8, 2.9))
    for i, (name, c) in enumerate(sd.smooth.items()):
        system = next((r for r in ctx.systems if r.name == name), None)
        label = _text(name)
        if system is not None and system.values.get("calibration_slope") is not None:
            a, b = system.values.get("calibration_intercept"), system.values["calibration_slope"]
            label += f"\nintercept {a:.2f}, slope {b:.2f}" if a is not None else f"\nslope {b:.2f}"
        band = sd.smooth_band.get(name)
        if band:
            ax.fill_between(band[0].x, _y(band[0].y), _y(band[1].y), color=_colour(i), alpha=0.18, lw=0)
        ax.plot(c.x, _y(c.y), lw=1.3, color=_colour(i), label=label)
    ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
    ax.set(xlabel=f"predicted risk of {_text(str(sd.positive_label))}", ylabel="observed share (loess)",
           title="calibration curve", xlim=(0, 1), ylim=(0, 1.02))
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), frameon=False, fontsize="small")
    fig.tight_layout()
    return fig, ("Calibration curve: the share of positives observed among items of similar predicted risk "
                 "(Cleveland's loess, span 0.75), against the risk; the dotted diagonal is perfect calibration and "
                 "the integrated calibration index is the mean distance of each item's risk from the curve. "
                 + ("Shaded: the pointwise 95% band from 100 bootstrap resamples of the items."
                    if sd.smooth_band else "No band is drawn for a test set this large; the intervals of the "
                    "intercept, slope and ICI are in Table 1."))


def draw_decision_curve(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Net benefit against the risk threshold (issue 21; Vickers & Elkin 2006): every system with its bootstrap
    intervals, treat-all and treat-none."""
    sd = ctx.scores
    if sd is None or not sd.net_benefit_thresholds:
        return None
    ts = list(sd.net_benefit_thresholds)
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.8, 2.9))
    everyone = [sd.net_benefit_all.get(f"{t:g}") for t in ts]
    dense = sd.net_benefit_all_curve
    if dense is not None:  # the curve over the range in use; the named thresholds are its marked points
        ax.plot(dense.x, _y(dense.y), color="#777777", lw=1.0, ls="--", label="treat all")
    else:
        ax.plot(ts, _y(everyone), color="#777777", lw=1.0, ls="--", label="treat all")
    ax.axhline(0.0, color="#777777", lw=1.0, ls=":", label="treat none")
    lows = [v for v in everyone if v is not None]
    for i, r in enumerate(ctx.systems):
        ids = [f"net_benefit@{t:g}" for t in ts]
        ys = [r.values.get(m) for m in ids]
        if all(y is None for y in ys):
            continue
        curve = sd.net_benefit_curve.get(r.name)
        if curve is not None:
            ax.plot(curve.x, _y(curve.y), lw=1.3, color=_colour(i), label=_text(r.name))
            ax.plot(ts, _y(ys), marker="o", ms=3, lw=0, color=_colour(i))
            lows += [y for y in curve.y if y is not None]
        else:
            ax.plot(ts, _y(ys), marker="o", ms=3, lw=1.3, color=_colour(i), label=_text(r.name))
        for t, m, y in zip(ts, ids, ys):
            iv = r.intervals.get(m)
            if y is not None and iv is not None and iv.low is not None and iv.high is not None:
                ax.plot([t, t], [iv.low, iv.high], color=_colour(i), lw=0.9, alpha=0.7)
                lows.append(iv.low)
        lows += [y for y in ys if y is not None]
    top = max([0.0, *lows]) if lows else 0.0
    floor = min(0.0, *(v for v in lows)) if lows else 0.0
    ax.set(xlabel="risk threshold t", ylabel="net benefit", title="decision curve",
           ylim=(max(floor, -0.5 * max(top, 0.05)) - 0.01, top * 1.1 + 0.01))
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), frameon=False, fontsize="small")
    fig.tight_layout()
    conf = f" with {ctx.intervals.confidence:.0%} bootstrap intervals" if ctx.intervals is not None else ""
    where = (f"over every threshold from {ts[0]:g} to {ts[-1]:g}, marked at each threshold the answers name{conf}"
             if sd.net_benefit_curve else f"at each threshold the answers name{conf}")
    return fig, ("Decision curve: net benefit TP/n − FP/n · t/(1 − t) of treating the items whose risk is at least t, "
                 f"{where}; dashed: treating everyone, dotted: treating no one (Vickers & Elkin 2006).")
