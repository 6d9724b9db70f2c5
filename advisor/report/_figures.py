"""The report's figures, drawn with matplotlib from the report context alone.

Five figures (each skipped when the data cannot support it):

``confusion``   row-normalised confusion-matrix heatmap per system, counts written in the cells;
``metrics``     recommended metrics by system: point estimate and interval (each named by its method);
``recall``      per-class recall of every system (grouped bars);
``ranking``     agreement between the rankings that different metrics give the systems (Kendall's τ_b);
``prevalence``  the primary metric as one class's share sweeps its range (observed share marked).

matplotlib is imported lazily and used without pyplot (no backend or global state); every figure is drawn inside an
``rc_context`` so the caller's settings are untouched. SVG output has its text as paths and no
external references; PDF output is for LaTeX's ``\\includegraphics``.
"""

from __future__ import annotations

from collections.abc import Iterator
from statistics import NormalDist
from typing import Any

from ..engine import TARGET_VALUED  # ideal at a value: a difference's sign does not order the systems
from ..questionnaire import join_words, lower_name
from ..stats import METHOD_WORDS
from ._figure_io import _RC, _WIDTH, Figure, _colour, _Factory, _text, save_figure
from ._models import MANY_CLASSES, ReportContext
from ._structure_text import label_columns

__all__ = ["Figure", "render_figures"]

def _confusion(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    import numpy as np

    systems = [s for s in ctx.systems if s.confusion]
    if not systems or ctx.task is None:
        return None
    k = ctx.task.k
    ncol = min(len(systems), 2 if k > 6 else 3)
    nrow = -(-len(systems) // ncol)
    side = min(_WIDTH / ncol, 3.2 + 0.25 * k)  # a lone 2×2 matrix need not fill the page width
    fig, axes = plt.subplots(nrow, ncol, figsize=(side * ncol, side * nrow * 0.92), squeeze=False)
    labels = [_text(lab, 40) for lab in ctx.task.labels]
    annotate = k <= 10  # the figure is the only place the counts are shown
    for ax, sysrep in zip(axes.flat, systems):
        counts = np.asarray(sysrep.confusion, dtype=float)
        rows = counts.sum(axis=1, keepdims=True)
        norm = np.divide(counts, rows, out=np.zeros_like(counts), where=rows > 0)
        im = ax.imshow(norm, cmap="Blues", vmin=0.0, vmax=1.0, interpolation="nearest")
        cbar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
        cbar.set_label("share of the true class", fontsize=6.5)
        cbar.ax.tick_params(labelsize=6)
        cbar.outline.set_visible(False)
        ax.set_title(_text(sysrep.name, 40))
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        fs = 7.0 if k <= 10 else max(4.5, 7.0 - 0.25 * (k - 10))
        ax.set_xticklabels(labels, rotation=90 if k > 4 else 0, fontsize=fs)
        ax.set_yticklabels(labels, fontsize=fs)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        ax.spines[:].set_visible(False)
        if annotate:
            for i in range(k):
                for j in range(k):
                    c = counts[i, j]
                    txt = f"{c:.0f}" if float(c).is_integer() else f"{c:.1f}"
                    ax.text(j, i, txt, ha="center", va="center", fontsize=fs - 0.5,
                            color="white" if norm[i, j] > 0.55 else "#222222")
    for ax in list(axes.flat)[len(systems):]:
        ax.set_visible(False)
    fig.tight_layout()
    cap = ("Confusion matrices (rows: true class, columns: predicted class). Colour: share of the true "
           "class (row-normalised)" + ("; numbers: counts." if annotate else "."))
    return fig, cap


_RESAMPLED = ("bca", "basic", "percentile")


def _interval_words(ctx: ReportContext, shown: list[Any]) -> str:
    """The intervals of the metrics ``shown``, named by how they were computed: "95% bootstrap intervals" when every
    one was resampled, else each other method with its metrics ("95% intervals, Clopper–Pearson for accuracy,
    bootstrap for the others") — an exact interval is not called a bootstrap one."""
    assert ctx.intervals is not None
    conf = f"{ctx.intervals.confidence:.0%}"
    methods = {m.id: ctx.intervals.methods.get(m.id) for m in shown}
    other: dict[str, list[str]] = {}
    for m in shown:
        method = methods[m.id]
        if method is not None and method not in _RESAMPLED and method != "none":
            other.setdefault(METHOD_WORDS.get(method, method), []).append(lower_name(m.name))
    if not other:
        return f"{conf} bootstrap intervals"
    resampled = any(v in _RESAMPLED for v in methods.values())
    named = [f"{how} for {join_words(names)}" for how, names in other.items()]
    if len(named) == 1 and not resampled:
        return f"{conf} {next(iter(other))} intervals"
    return f"{conf} intervals, " + ", ".join(named) + (", bootstrap for the others" if resampled else "")


def _metrics(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    def bounded(mid: str) -> bool:  # one axis for scores in [-1, 1]; log loss, likelihood ratios apart
        vals = [s.values.get(mid) for s in ctx.systems]
        return any(v is not None for v in vals) and all(v is None or -1.0 <= v <= 1.0 for v in vals)

    rec = [m for m in ctx.recommended if bounded(m.id)]
    if not rec or not ctx.systems:
        return None
    m_count, s_count = len(rec), len(ctx.systems)
    fig, ax = plt.subplots(figsize=(_WIDTH, 0.55 + 0.32 * m_count * max(1.0, s_count / 2.5)))
    step = 0.7 / max(s_count, 1)
    for si, sysrep in enumerate(ctx.systems):
        for mi, m in enumerate(rec):
            y = mi + (si - (s_count - 1) / 2) * step
            iv = sysrep.intervals.get(m.id)
            x = iv.estimate if iv is not None else sysrep.values.get(m.id)
            if x is None:
                continue
            if iv is not None and iv.low is not None and iv.high is not None:
                ax.plot([iv.low, iv.high], [y, y], color=_colour(si), lw=1.6, solid_capstyle="butt")
            ax.plot([x], [y], "o", color=_colour(si), ms=4.5, label=_text(sysrep.name, 30) if mi == 0 else None)
    ax.set_yticks(range(m_count))
    ax.set_yticklabels([_text(m.name, 60) + ("  (↓ lower is better)" if not m.higher_is_better else "")
                        for m in rec])
    ax.invert_yaxis()
    ax.grid(axis="x", color="#dddddd", lw=0.6)
    ax.set_axisbelow(True)
    words = _interval_words(ctx, rec) if ctx.intervals else ""
    ax.set_xlabel("value" + ((" (point estimate and bootstrap interval)" if "bootstrap intervals" in words
                              else " (point estimate and interval)") if ctx.intervals else ""))
    if s_count > 1:
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(s_count, 4), frameon=False)
    fig.tight_layout()
    cap = "Recommended metrics by system" + (
        f": point estimates with {words}." if ctx.intervals else "."
    )
    left_out = [m.name for m in ctx.recommended if m not in rec]
    if left_out:
        cap += f" Not on this scale (see Table 1): {', '.join(left_out)}."
    return fig, cap


def _recall_sorted(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    """Many classes: each system's per-class recall sorted, as a distribution (no class labels)."""
    import numpy as np

    systems = [s for s in ctx.systems if s.per_class]
    fig, ax = plt.subplots(figsize=(_WIDTH, 2.6))
    for si, sysrep in enumerate(systems):
        vals = np.sort([r.recall for r in sysrep.per_class if r.recall is not None and r.support > 0])
        if vals.size == 0:
            continue
        x = (np.arange(vals.size) + 0.5) / vals.size
        ax.step(x, vals, where="mid", color=_colour(si), lw=1.4, label=_text(sysrep.name, 30))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("share of classes, sorted from worst to best recall")
    ax.set_ylabel("per-class recall")
    ax.grid(color="#eeeeee", lw=0.6)
    ax.set_axisbelow(True)
    if len(systems) > 1:
        ax.legend(loc="lower right", frameon=False)
    fig.tight_layout()
    return fig, (f"Per-class recall of the {ctx.task.k if ctx.task else ''} classes, sorted: the left end shows "
                 "the classes a system handles worst, a flat curve an even performance.")


def _recall(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    systems = [s for s in ctx.systems if s.per_class]
    if not systems or ctx.task is None or "recall" not in label_columns(ctx):
        return None  # labels scored, no cut chosen and no recall planned: no recall at the conventional cut
    if ctx.task.k > MANY_CLASSES:
        return _recall_sorted(ctx, plt)
    return None  # few classes: the per-class table says it, a bar chart would repeat it


def _differences(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    """Two systems: each metric's paired difference — metrics on the same side of 0 agree on the order."""
    rows = [r for r in ctx.figures.differences if r.estimate is not None and r.metric not in TARGET_VALUED]
    if len(rows) < 2 or len(ctx.figures.difference_pair) != 2:
        return None
    a, b = ctx.figures.difference_pair
    rows, left_out = _difference_rows_shown(ctx, rows)
    n = len(rows)
    scale = _difference_scales(rows, ctx.intervals.confidence if ctx.intervals else 0.95)
    fig, ax = plt.subplots(figsize=(_WIDTH, 0.6 + 0.2 * n))
    for i, (r, s) in enumerate(zip(rows, scale)):
        est = r.estimate
        assert est is not None  # rows keep the metrics with an estimated difference
        colour = _colour(0) if est > 0 else _colour(1) if est < 0 else "#777777"
        if r.low is not None and r.high is not None:
            ax.plot([r.low / s, r.high / s], [i, i], color=colour, lw=1.4, solid_capstyle="butt")
        ax.plot([est / s], [i], "o", color=colour, ms=3.8)
        right = max(est, r.high if r.high is not None else est) / s
        ax.annotate(f"{est:+.3g}", (right, i), xytext=(3, 0), textcoords="offset points", va="center",
                    fontsize=5.8, color="#444444")
    names = []
    for r in rows:
        try:
            names.append(_text(ctx.metric(r.metric).name, 60))
        except KeyError:
            names.append(_text(r.metric, 60))
    ax.set_yticks(range(n))
    ax.set_yticklabels(names, fontsize=6.8)
    ax.invert_yaxis()
    ax.axvline(0.0, color="#444444", lw=0.8)
    ax.grid(axis="x", color="#eeeeee", lw=0.6)
    ax.set_axisbelow(True)
    standard = all(r.low is not None and r.high is not None for r in rows)
    unit = "difference ÷ its standard error" if standard else "difference ÷ its largest |value|"
    lo, hi = ax.get_xlim()
    ax.set_xlim(min(lo, -0.5), hi + 0.18 * (hi - min(lo, -0.5)))  # room for the numbers beside the intervals
    ax.set_xlabel(f"← {_text(b, 16)} better   ·   {unit}   ·   {_text(a, 16)} better →", fontsize=7)
    fig.tight_layout()
    cap = (f"Agreement between metrics on the order of the two systems: each metric's paired difference "
           f"{a} − {b} (sign flipped where lower is better, the interval with it)")
    if ctx.intervals:
        cap += f" with its {ctx.intervals.confidence:.0%} bootstrap interval"
    cap += (", on each metric's own scale — divided by its bootstrap standard error, so that no metric flattens the "
            "others; the number beside each is the difference itself" if standard else
            ", each divided by its largest absolute value; the number beside each is the difference itself")
    cap += ". Metrics on the same side of 0 rank the systems the same way; an interval across 0 does not separate them."
    if left_out:
        cap += " " + left_out
    return fig, cap


DIFFERENCE_ROWS = 20  # at most this many rows: more would not stay legible on half a page


def _difference_rows_shown(ctx: ReportContext, rows: list[Any]) -> tuple[list[Any], str]:
    """The rows of the paired-difference figure, at most :data:`DIFFERENCE_ROWS`: every metric Table 1 reports,
    then those that order the two systems against the lead (the informative ones), then the others in catalogue
    order; and a sentence on the rows left out — how many order the systems as the lead does and how many the
    other way, so that leaving them out hides nothing."""
    if len(rows) <= DIFFERENCE_ROWS:
        return rows, ""
    def sign(r: Any) -> int:
        return (r.estimate > 0) - (r.estimate < 0)

    shown_ids = {m.id for m in ctx.recommended}
    lead = next((r for r in rows if r.metric == ctx.primary), None)
    ahead = sign(lead) if lead is not None else 0  # the lead's direction; 0: none to compare with
    first = [r for r in rows if r.metric in shown_ids]
    rest = sorted((r for r in rows if r.metric not in shown_ids), key=lambda r: not (ahead and sign(r) == -ahead))
    keep = {id(r) for r in (first + rest)[:max(DIFFERENCE_ROWS, len(first))]}
    shown = [r for r in rows if id(r) in keep]
    out = [r for r in rows if id(r) not in keep]
    head = f"{len(out)} of the {len(rows)} metrics are not shown"
    if not ahead:
        return shown, head + "; the appendix table gives their values."
    same = sum(1 for r in out if sign(r) == ahead)
    other = sum(1 for r in out if sign(r) == -ahead)
    parts = [f"{same} order the systems as the lead does"] * bool(same) + [f"{other} the other way"] * bool(other)
    parts += [f"{len(out) - same - other} not at all"] * bool(len(out) - same - other)
    return shown, f"{head}: {join_words(parts)}; the appendix table gives their values."


def _difference_scales(rows: list[Any], confidence: float) -> list[float]:
    """Per row, what its difference is divided by: the bootstrap standard error read off its interval (half its
    width over the normal quantile), or — without intervals — its largest absolute value."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    out = []
    for r in rows:
        if r.low is not None and r.high is not None and r.high > r.low:
            out.append((r.high - r.low) / (2 * z))
        else:
            big = max(abs(x) for x in (r.estimate, r.low, r.high) if x is not None)
            out.append(big if big > 0 else 1.0)
    return out


def _ranking(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    import numpy as np

    if len(ctx.systems) == 2:  # a two-system τ is ±1 everywhere: show the paired differences or nothing
        return _differences(ctx, plt)
    rk = ctx.figures.ranking
    if rk is None or len(rk.metrics) < 2 or len(ctx.systems) < 2:
        return None
    tau = np.array([[np.nan if v is None else v for v in row] for row in rk.kendall], dtype=float)
    names = []
    for mid in rk.metrics:
        try:
            names.append(_text(ctx.metric(mid).name, 60))
        except KeyError:
            names.append(_text(mid, 60))
    n = len(names)
    side = min(_WIDTH, 1.6 + 0.24 * n)
    fig, ax = plt.subplots(figsize=(side + 0.9, side))
    im = ax.imshow(np.ma.masked_invalid(tau), cmap="RdBu", vmin=-1, vmax=1, interpolation="nearest")
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xticklabels(names, rotation=90, fontsize=6.5)
    ax.set_yticklabels(names, fontsize=6.5)
    ax.spines[:].set_visible(False)
    if n <= 14 and len(ctx.systems) > 2:
        for i in range(n):
            for j in range(n):
                if np.isfinite(tau[i, j]):
                    ax.text(j, i, f"{tau[i, j]:.1f}", ha="center", va="center", fontsize=5.5,
                            color="white" if abs(tau[i, j]) > 0.6 else "#222222")
    cbar = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02, label="Kendall's τ_b")
    cbar.outline.set_visible(False)
    fig.tight_layout()
    cap = ("Agreement between the rankings of the systems by different metrics (Kendall's τ_b of the "
           "point-estimate rankings; 1: same order, −1: reversed, blank: undefined because of ties).")
    if len(ctx.systems) == 2:
        cap += " With two systems each ranking is a single comparison, so τ_b is +1 or −1."
    return fig, cap


def _prevalence(ctx: ReportContext, plt: Any) -> tuple[Any, str] | None:
    curves = ctx.figures.prevalence
    if not curves or ctx.figures.prevalence_metric is None:
        return None
    try:
        mname = ctx.metric(ctx.figures.prevalence_metric).name
    except KeyError:
        mname = ctx.figures.prevalence_metric
    fig, ax = plt.subplots(figsize=(_WIDTH * 0.75, 2.6))
    for si, c in enumerate(curves):
        vals = [float("nan") if v is None else v for v in c.value]
        ax.plot(c.share, vals, color=_colour(si), lw=1.4, label=_text(c.system, 30))
        if c.observed_value is not None:
            ax.plot([c.observed_share], [c.observed_value], "o", color=_colour(si), ms=4)
    ax.axvline(curves[0].observed_share, color="#777777", lw=0.8, ls="--")
    cls = _text(ctx.figures.prevalence_class or "", 20)
    ax.set_xlabel(f"share of class {cls} in the evaluated population")
    ax.set_ylabel(_text(mname, 30))
    ax.set_xlim(0, 1)
    ax.grid(color="#eeeeee", lw=0.6)
    ax.set_axisbelow(True)
    if len(curves) > 1:
        ax.legend(frameon=False)
    fig.tight_layout()
    cap = (f"Sensitivity of the primary metric to prevalence: its value if class {ctx.figures.prevalence_class} "
           "made up the share on the horizontal axis (other classes keeping their relative sizes, per-class "
           "recall and confusion pattern unchanged). Dashed line and dots: the test set.")
    return fig, cap


from ._figures_structures import draw_structure  # noqa: E402
from ._figures_scores import (  # noqa: E402
    draw_calibration_curve,
    draw_cost_curve,
    draw_decision_curve,
    draw_reliability,
    draw_risk_coverage,
    draw_roc_pr,
)
from ._figures_subgroups import draw_subgroups  # noqa: E402

_DRAWERS = {
    "confusion": _confusion,
    "metrics": _metrics,
    "recall": _recall,
    "ranking": _ranking,
    "prevalence": _prevalence,
    "structure": draw_structure,  # ordered classes, label sets, top-k, annotators (issue 12)
    "roc_pr": draw_roc_pr,  # scores, probabilities and costs (issue 11)
    "reliability": draw_reliability,
    "cost_curve": draw_cost_curve,
    "risk_coverage": draw_risk_coverage,  # selective prediction (issue 23)
    "calibration_curve": draw_calibration_curve,  # binary risks (issue 21)
    "decision_curve": draw_decision_curve,  # risks acted on at thresholds (issue 21)
    "subgroups": draw_subgroups,  # the subgroups side by side (issue 23)
}


def render_figures(ctx: ReportContext, formats: tuple[str, ...] = ("svg",)) -> list[Figure]:
    """Draw every figure the context supports, in each of ``formats`` (``"svg"``, ``"pdf"``)."""
    return list(_iter_figures(ctx, formats))


def _iter_figures(ctx: ReportContext, formats: tuple[str, ...]) -> Iterator[Figure]:
    if not ctx.systems:
        return
    import matplotlib

    plt = _Factory()

    with matplotlib.rc_context(_RC):
        for fid, draw in _DRAWERS.items():
            drawn = draw(ctx, plt)
            if drawn is None:
                continue
            fig, caption = drawn
            yield save_figure(fid, caption, fig, formats)
