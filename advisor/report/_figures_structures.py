"""The figure of an ordinal, multi-label, top-k or agreement report, drawn from the report context.

* ordinal: the confusion matrix of each system in class order, cells shaded by the distance |i − j|
  of the error (the diagonal white), counts written in;
* multi-label: per-label F1 of each system, labels sorted by the first system's F1, with each label's
  share of items;
* top-k: top-k accuracy for k = 1 … 10 (or the number of classes) per system, the chosen k marked;
* agreement: Cohen's kappa of every pair of annotators as a matrix; with more than ``HEATMAP_RATERS``
  annotators the spread of the pairwise kappas and each annotator's mean kappa, sorted;
* hierarchy (classes in a taxonomy, issue 23): the share of each system's errors at each tree distance between the
  true and the predicted class, side by side (a sibling is distance 2).

Called by :mod:`._figures` like every other drawer: ``(ctx, plt) -> (figure, caption) | None``.
"""

from __future__ import annotations

from typing import Any

from ._figure_io import _text as _escaped
from ._models import HEATMAP_RATERS
from ._structure_text import open_cut

__all__ = ["draw_structure"]

_WIDTH = 6.3


def _text(s: object, limit: int = 24) -> str:
    t = str(s)
    return t if len(t) <= limit else t[: limit - 1] + "…"


def _ordinal(ctx: Any, plt: Any) -> tuple[Any, str]:
    import numpy as np

    st = ctx.structure
    names = list(st.confusion)
    labels = [_text(x, 12) for x in ctx.task.labels]
    k = len(labels)
    side = min(_WIDTH / min(len(names), 3), 3.2 + 0.25 * k)
    fig, axes = plt.subplots(1, min(len(names), 3), figsize=(side * min(len(names), 3), side * 0.95), squeeze=False)
    dist = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
    for ax, name in zip(axes.flat, names):
        m = np.asarray(st.confusion[name], dtype=float)
        ax.imshow(dist, cmap="Oranges", vmin=0, vmax=max(k - 1, 1), interpolation="nearest")
        if k <= 12:
            for i in range(k):
                for j in range(k):
                    if m[i, j]:
                        ax.text(j, i, f"{m[i, j]:g}", ha="center", va="center", fontsize=7,
                                color="white" if dist[i, j] > 0.6 * (k - 1) else "#222222")
        ax.set_xticks(range(k))
        ax.set_yticks(range(k))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_yticklabels(labels, fontsize=7)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        ax.set_title(_text(name, 40))
        ax.spines[:].set_visible(False)
    fig.tight_layout()
    return fig, ("Confusion matrices in class order (rows: true class, columns: predicted class); numbers: counts; "
                 "the darker a cell, the further its error from the true class.")


def _multilabel(ctx: Any, plt: Any) -> tuple[Any, str]:
    import numpy as np

    systems = [s for s in ctx.systems if s.per_class]
    # no answer fixes the cut: each label's ROC AUC, from its scores, not an F1 at a cut nobody chose
    scored = any(r.roc_auc is not None for s in systems for r in s.per_class)
    what = "roc_auc" if scored and open_cut(ctx) is not None else "f1"
    first = {r.label: (getattr(r, what) or 0.0) for r in systems[0].per_class}
    order = sorted(first, key=lambda lab: first[lab])
    fig, axes = plt.subplots(1, 1, figsize=(_WIDTH, 0.35 * len(order) + 1.2), squeeze=False)
    ax = axes[0, 0]
    h = 0.8 / len(systems)
    for i, s in enumerate(systems):
        value = {r.label: getattr(r, what) for r in s.per_class}
        ax.barh(np.arange(len(order)) + i * h, [value.get(lab) or 0.0 for lab in order], height=h,
                label=_text(s.name, 30))
    share = ctx.structure.share
    ax.set_yticks(np.arange(len(order)) + 0.4 - h / 2)
    ax.set_yticklabels([f"{_text(lab)} ({100 * share.get(lab, 0.0):.0f}%)" for lab in order], fontsize=7)
    ax.set_xlim(0, 1)
    name = "F1" if what == "f1" else "ROC AUC"
    ax.set_xlabel(f"{name} of the label")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig, (f"{name} of each label, each label taken as its own binary task"
                 + (" and read from its scores" if what == "roc_auc" else "")
                 + ", sorted by the first system; in brackets the share of items that carry the label.")


def _top_k(ctx: Any, plt: Any) -> tuple[Any, str]:
    st = ctx.structure
    fig, axes = plt.subplots(1, 1, figsize=(_WIDTH * 0.7, 3.0), squeeze=False)
    ax = axes[0, 0]
    for name, curve in st.top_k_curve.items():
        ks = list(range(1, len(curve) + 1))
        ax.plot(ks, [float("nan") if v is None else v for v in curve], marker="o", markersize=3, label=_text(name, 30))
    if st.k is not None:
        ax.axvline(st.k, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("k")
    ax.set_ylabel("top-k accuracy")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, f"Top-k accuracy as k grows; the dotted line marks k = {st.k}, the k of the evaluation."


def _agreement_many(ctx: Any, plt: Any) -> tuple[Any, str]:
    """More annotators than a matrix can show: how the pairwise kappas spread, and each annotator's mean kappa
    with the others, sorted (the annotators who agree least at the left)."""
    import numpy as np

    st = ctx.structure
    values = np.array([v for v in st.pairs.values() if v is not None], dtype=float)
    means = np.sort(np.array([v for v in st.rater_kappa.values() if v is not None], dtype=float))
    fig, (left, right) = plt.subplots(1, 2, figsize=(_WIDTH, 2.6))
    if values.size:
        left.hist(values, bins=min(40, max(5, int(np.sqrt(values.size)))), color="#4c72b0")
    left.set_xlabel("Cohen's kappa of a pair")
    left.set_ylabel("pairs")
    right.plot(np.arange(1, means.size + 1), means, color="#4c72b0", linewidth=1.2)
    right.set_xlabel("annotators, sorted")
    right.set_ylabel("mean kappa with the others")
    fig.tight_layout()
    n = len(st.raters)
    return fig, (f"Cohen's kappa of the {n * (n - 1) // 2:,} pairs of the {n:,} annotators, each on the items both "
                 "rated: how they spread (left) and each annotator's mean kappa with the others, sorted (right). "
                 "The tables list the lowest pairs and annotators; the CSV files beside the report hold all.")


def _agreement(ctx: Any, plt: Any) -> tuple[Any, str]:
    import numpy as np

    st = ctx.structure
    raters = list(st.raters)
    n = len(raters)
    if n > HEATMAP_RATERS:
        return _agreement_many(ctx, plt)
    m = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i + 1, n):
            v = st.pairs.get(f"{raters[i]} | {raters[j]}")
            m[i, j] = m[j, i] = np.nan if v is None else v
    fig, axes = plt.subplots(1, 1, figsize=(3.2 + 0.4 * n, 2.8 + 0.4 * n), squeeze=False)
    ax = axes[0, 0]
    ax.imshow(m, cmap="Blues", vmin=0, vmax=1, interpolation="nearest")
    for i in range(n):
        for j in range(n):
            if i != j and not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if m[i, j] > 0.6 else "#222222")
    labels = [_text(r, 16) for r in raters]
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xticklabels(labels, rotation=30, fontsize=7)
    ax.set_yticklabels(labels, fontsize=7)
    ax.spines[:].set_visible(False)
    fig.tight_layout()
    return fig, "Cohen's kappa of each pair of annotators, on the items both rated."


def _hierarchy(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """Per system, the share of its errors at each tree distance (1, 2, …), the systems' bars side by side."""
    import numpy as np

    st = ctx.structure
    errors = {name: {int(r["distance"]): float(r["items"]) for r in rows if int(r["distance"]) > 0}
              for name, rows in st.distances.items()}
    dists = sorted({d for e in errors.values() for d in e})
    if not dists:
        return None
    names = list(errors)
    fig, axes = plt.subplots(1, 1, figsize=(min(_WIDTH, 2.2 + 0.55 * len(dists) * max(1, len(names))), 2.9),
                             squeeze=False)
    ax = axes[0, 0]
    width = 0.8 / len(names)
    x = np.arange(len(dists))
    for i, name in enumerate(names):
        total = sum(errors[name].values())
        shares = [errors[name].get(d, 0.0) / total if total > 0 else 0.0 for d in dists]
        bars = ax.bar(x + (i - (len(names) - 1) / 2) * width, shares, width=width, label=_escaped(name, 30))
        if len(dists) * len(names) <= 16:
            for b, d in zip(bars, dists):
                if errors[name].get(d):
                    ax.annotate(f"{errors[name][d]:,.0f}", (b.get_x() + b.get_width() / 2, b.get_height()),
                                ha="center", va="bottom", fontsize=6, xytext=(0, 1), textcoords="offset points")
    ax.set_xticks(x)
    ax.set_xticklabels([str(d) for d in dists])
    ax.set_xlabel("tree distance between the true and the predicted class")
    ax.set_ylabel("share of the errors")
    ax.set_ylim(0, 1.08)
    if len(names) > 1:
        ax.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    counted = "; ".join(f"{_text(n, 30)}: {sum(e.values()):,.0f}" for n, e in errors.items())
    return fig, ("Where the errors fall in the taxonomy: the share of each system's errors at each tree distance "
                 "between the true and the predicted class, the number of edges on the path between them (1: the "
                 "parent or a child of the true class; 2: a sibling, a wrong shelf in the right aisle; more: further "
                 f"up the tree); numbers on the bars: errors. Errors: {counted}.")


def draw_structure(ctx: Any, plt: Any) -> tuple[Any, str] | None:
    """The structure's figure, or None for a nominal report."""
    st = getattr(ctx, "structure", None)
    if st is None:
        return None
    if st.kind == "ordinal" and st.confusion and ctx.task is not None:
        return _ordinal(ctx, plt)
    if st.kind == "multilabel" and any(s.per_class for s in ctx.systems):
        return _multilabel(ctx, plt)
    if st.kind == "top_k" and st.top_k_curve:
        return _top_k(ctx, plt)
    if st.kind == "agreement" and len(st.raters) > 1:
        return _agreement(ctx, plt)
    if st.kind == "hierarchy" and st.distances:
        return _hierarchy(ctx, plt)
    return None
