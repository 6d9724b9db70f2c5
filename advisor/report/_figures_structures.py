"""Figures for ordinal, multi-label, top-k and agreement evaluations (PNG bytes, matplotlib, lazily).

* ordinal: the confusion matrix of each system in class order, cells shaded by the distance |i − j|
  of the error (the diagonal white), counts written in;
* multi-label: per-label F1 of each system, labels sorted by the first system's F1, with each label's
  share of items;
* top-k: top-k accuracy for k = 1 … 10 (or the number of classes) per system, the chosen k marked;
* agreement: Cohen's kappa of every pair of annotators as a matrix.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

__all__ = ["structure_figure"]


def _png(fig: Any) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _figure(ncols: int = 1, width: float = 4.2, height: float = 3.6) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, axes[0]


def _ordinal(systems: dict[str, Any]) -> bytes:
    fig, axes = _figure(len(systems))
    for ax, (name, c) in zip(axes, systems.items()):
        k = c.k
        m = np.zeros((k, k))
        np.add.at(m, (c.rows, c.cols), np.asarray(c.counts, float))
        dist = np.abs(np.subtract.outer(np.arange(k), np.arange(k))).astype(float)
        ax.imshow(dist, cmap="Oranges", vmin=0, vmax=max(k - 1, 1))
        for i in range(k):
            for j in range(k):
                if m[i, j]:
                    ax.text(j, i, f"{m[i, j]:g}", ha="center", va="center", fontsize=8)
        ticks = [str(x) for x in c.labels]
        ax.set_xticks(range(k), ticks)
        ax.set_yticks(range(k), ticks)
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        ax.set_title(str(name), fontsize=10)
    fig.suptitle("Confusion matrices in class order (shading: distance of the error)", fontsize=10)
    return _png(fig)


def _multilabel(per_label: dict[str, dict[str, dict[str, float]]], share: dict[str, float]) -> bytes:
    names = list(per_label)
    first = per_label[names[0]]
    order = sorted(first, key=lambda lab: first[lab]["f1"])
    fig, (ax,) = _figure(1, width=6.0, height=0.45 * len(order) + 1.2)
    h = 0.8 / len(names)
    for s_i, s in enumerate(names):
        ax.barh(np.arange(len(order)) + s_i * h, [per_label[s][lab]["f1"] for lab in order], height=h, label=str(s))
    ax.set_yticks(np.arange(len(order)) + 0.4 - h / 2,
                  [f"{lab} ({100 * share.get(lab, 0):.0f} %)" for lab in order])
    ax.set_xlim(0, 1)
    ax.set_xlabel("F1 of the label (each label a binary task)")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("Per-label F1, sorted; in brackets the label's share of items", fontsize=10)
    return _png(fig)


def _top_k(systems: dict[str, Any], k: int) -> bytes:
    from ..engine._topk import top_k_hits

    fig, (ax,) = _figure(1, width=5.0)
    for name, (scores, y, _) in systems.items():
        ks = np.arange(1, min(10, scores.shape[1]) + 1)
        ax.plot(ks, [top_k_hits(scores, y, int(j)).mean() for j in ks], marker="o", label=str(name))
    ax.axvline(k, color="grey", linestyle=":", label=f"k = {k}")
    ax.set_xlabel("k")
    ax.set_ylabel("top-k accuracy")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("Top-k accuracy as k grows", fontsize=10)
    return _png(fig)


def _agreement(raters: list[str], pairs: dict[str, float | None]) -> bytes:
    n = len(raters)
    m = np.full((n, n), np.nan)
    np.fill_diagonal(m, 1.0)
    for i in range(n):
        for j in range(i + 1, n):
            v = pairs.get(f"{raters[i]} | {raters[j]}")
            m[i, j] = m[j, i] = np.nan if v is None else v
    fig, (ax,) = _figure(1)
    ax.imshow(m, cmap="Blues", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if i != j and not np.isnan(m[i, j]):
                ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), raters, rotation=30)
    ax.set_yticks(range(n), raters)
    ax.set_title("Cohen's kappa of each pair of annotators", fontsize=10)
    return _png(fig)


def structure_figure(inputs: Any, data: dict[str, Any]) -> bytes:
    """The figure for one structured evaluation (``inputs`` from io, ``data`` the computed JSON)."""
    if inputs.structure == "ordinal":
        return _ordinal(inputs.systems)
    if inputs.structure == "multilabel":
        first = next(iter(inputs.systems.values()))
        share = {str(lab): float(first.y_true[:, j].mean()) for j, lab in enumerate(first.labels)}
        return _multilabel(data["per_label"], share)
    if inputs.structure == "top_k":
        return _top_k(inputs.systems, int(inputs.top_k))
    return _agreement(list(data["raters"]), data["pairs"])
