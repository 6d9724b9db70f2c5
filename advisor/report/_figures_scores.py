"""Figures of scores, probabilities and costs: ROC and PR curves, reliability diagram, cost curve.

Drawn from item-level outputs (not from the report context, so the report can call them wherever it
puts them): ``roc`` and ``pr`` for binary tasks (PR with the prevalence as the chance line, Saito &
Rehmsmeier 2015); ``reliability`` for probabilities (top-label confidence against accuracy in the
same equal-mass bins as the ECE; Guo et al. 2017); ``cost_curve`` for binary decisions under costs:
the normalized expected cost of each system's decisions as the deployment share of the positive class
sweeps (0, 1), the stated share marked (Ferrer 2022). Styling and output are those of
:mod:`advisor.report._figures`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ._figures import _RC, _WIDTH, Figure, _colour, _Factory, _text, save_figure

__all__ = ["curve_points", "score_figures"]


def curve_points(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, precision)`` at every distinct threshold, highest first, from (0, 0).

    >>> f, t, p = curve_points(np.array([0, 1, 1, 0]), np.array([0.1, 0.9, 0.4, 0.4]))
    >>> f.tolist(), t.tolist(), p.round(3).tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 1.0, 1.0], [1.0, 1.0, 0.667, 0.5])
    """
    order = np.argsort(-s, kind="stable")
    ys, ss = y[order].astype(float), s[order]
    ends = np.r_[np.flatnonzero(ss[1:] != ss[:-1]), len(ss) - 1]
    tp, fp = np.cumsum(ys)[ends], np.cumsum(1 - ys)[ends]
    p, n = max(ys.sum(), 1.0), max((1 - ys).sum(), 1.0)
    return np.r_[0.0, fp / n], np.r_[0.0, tp / p], np.r_[1.0, tp / (tp + fp)]


def _binary(y_pos: np.ndarray, systems: Mapping[str, np.ndarray], pos: int) -> dict[str, np.ndarray]:
    return {name: (s if s.ndim == 1 else s[:, pos]) for name, s in systems.items()}


def score_figures(y_true: Sequence[Any], systems: Mapping[str, Any], labels: Sequence[Any], *,
                  positive_label: Any = None, decisions: Mapping[str, Sequence[Any]] | None = None,
                  costs: Mapping[str, float] | None = None, priors: Mapping[Any, float] | None = None,
                  formats: Sequence[str] = ("svg",)) -> list[Figure]:
    """Every figure the outputs support; ``costs`` as ``{"fn", "fp"}`` for the cost curve (binary)."""
    import matplotlib

    from ..engine._scores import ECE_BINS, Calibration

    col = {str(lab): j for j, lab in enumerate(labels)}
    idx = np.array([col[str(t)] for t in y_true])
    out = {name: np.asarray(s, dtype=float) for name, s in systems.items()}
    k = len(labels)
    pos = col[str(positive_label)] if positive_label is not None else (1 if k == 2 else None)
    plt = _Factory()
    figs: list[Figure] = []
    with matplotlib.rc_context(_RC):
        if k == 2 and pos is not None:
            y = (idx == pos).astype(int)
            scores = _binary(y, out, pos)
            fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(_WIDTH, 2.9))
            for i, (name, s) in enumerate(scores.items()):
                f, t, p = curve_points(y, s)
                ax1.plot(f, t, color=_colour(i), label=_text(name), drawstyle="default")
                ax2.step(t[1:], p[1:], where="post", color=_colour(i), label=_text(name))
            ax1.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
            ax2.axhline(y.mean(), color="grey", lw=0.8, ls=":")
            ax1.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC curve")
            ax2.set(xlabel="recall", ylabel="precision", title="precision–recall", ylim=(0, 1.02))
            ax1.legend(loc="lower right", frameon=False)
            fig.tight_layout()
            figs.append(save_figure("roc_pr", f"ROC curve (left; dotted: chance) and precision–recall curve (right; dotted: "
                              f"the positive share {y.mean():.3g}, the chance level of precision) of class "
                              f"{_text(labels[pos])}.", fig, formats))
        probs = {n: s for n, s in out.items() if s.ndim == 2}
        if probs:
            fig, ax = plt.subplots(figsize=(_WIDTH / 2, 2.9))
            for i, (name, p) in enumerate(probs.items()):
                cal = Calibration(idx, p)
                cuts = np.floor(np.arange(ECE_BINS + 1) * len(idx) / ECE_BINS).astype(int)
                conf = [cal.conf[a:b].mean() for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
                acc = [cal.correct[a:b].mean() for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
                ax.plot(conf, acc, marker="o", ms=3, color=_colour(i), label=_text(name))
            ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
            ax.set(xlabel="confidence (top-label probability)", ylabel="accuracy", title="reliability",
                   xlim=(0, 1), ylim=(0, 1))
            ax.legend(loc="upper left", frameon=False)
            fig.tight_layout()
            figs.append(save_figure("reliability", f"Reliability diagram: accuracy against confidence in {ECE_BINS} "
                              "equal-mass bins (the bins of the ECE); the dotted diagonal is perfect calibration.",
                              fig, formats))
        if costs is not None and decisions and k == 2 and pos is not None:
            figs.append(_cost_curve(idx, pos, decisions, col, costs, priors, labels, plt, formats))
    return figs


def _cost_curve(idx: np.ndarray, pos: int, decisions: Mapping[str, Sequence[Any]], col: dict[str, int],
                costs: Mapping[str, float], priors: Mapping[Any, float] | None, labels: Sequence[Any], plt: Any,
                formats: Sequence[str]) -> Figure:
    c_fn, c_fp = float(costs["fn"]), float(costs["fp"])
    share = np.linspace(0.001, 0.999, 400)
    fig, ax = plt.subplots(figsize=(_WIDTH / 2, 2.9))
    for i, (name, d) in enumerate(decisions.items()):
        dec = np.array([col[str(x)] for x in d])
        fnr = np.mean(dec[idx == pos] != pos)
        fpr = np.mean(dec[idx != pos] == pos)
        ec = share * c_fn * fnr + (1 - share) * c_fp * fpr
        ax.plot(share, ec / np.minimum(share * c_fn, (1 - share) * c_fp), color=_colour(i), label=_text(name))
    ax.axhline(1.0, color="grey", lw=0.8, ls=":")
    stated = None
    if priors is not None:
        stated = next((float(v) for key, v in priors.items() if str(key) == str(labels[pos])), None)
        if stated is not None:
            ax.axvline(stated, color="black", lw=0.8, ls="--")
    ax.set(xlabel=f"deployment share of {_text(labels[pos])}", ylabel="normalized expected cost", ylim=(0, 2),
           title="cost curve")
    ax.legend(loc="upper right", frameon=False)
    fig.tight_layout()
    mark = f"; dashed: the stated share {stated:g}" if stated is not None else ""
    return save_figure("cost_curve", f"Normalized expected cost of each system's decisions (c_FN = {c_fn:g}, c_FP = "
                 f"{c_fp:g}) against the deployment share of the positive class; above the dotted line at 1 the "
                 f"input-blind decision is cheaper{mark}.", fig, formats)
