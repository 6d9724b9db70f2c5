"""The curves of the score figures, as context data: ROC, PR, reliability bins, cost curve (thinned)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import ECE_BINS, Calibration
from ._models_scores import Curve, ScoreData

__all__ = ["cost_curves", "curve_points", "item_curves"]

_MAX_POINTS = 400  # points kept per curve in the context


def curve_points(y: Any, s: Any) -> tuple[Any, Any, Any]:
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


def _num(x: Any) -> float | None:
    v = float(x)
    return None if np.isnan(v) else v


def _thin(x: np.ndarray, y: np.ndarray) -> Curve:
    if len(x) > _MAX_POINTS:
        keep = np.unique(np.linspace(0, len(x) - 1, _MAX_POINTS).round().astype(int))
        x, y = x[keep], y[keep]
    return Curve(x=[float(v) for v in x], y=[_num(v) for v in y])


def item_curves(data: ScoreData, idx: np.ndarray, outputs: Mapping[str, np.ndarray], labels: Sequence[Any],
                pos: int | None) -> None:
    """ROC and PR curves (binary, ``pos`` the positive column) and reliability bins (probabilities) into ``data``."""
    if len(labels) == 2 and pos is not None:
        y01 = (idx == pos).astype(int)
        data.positive_label, data.positive_share = str(labels[pos]), float(y01.mean())
        for name, s in outputs.items():
            f, t, p = curve_points(y01, s if s.ndim == 1 else s[:, pos])
            data.roc[name], data.pr[name] = _thin(f, t), _thin(t[1:], p[1:])
    for name, s in outputs.items():
        if s.ndim != 2:
            continue
        cal = Calibration(idx, s)
        cuts = cal.edges()  # the ECE's own bins: tied confidences share one
        spans = [(lo, hi) for lo, hi in zip(cuts[:-1], cuts[1:]) if hi > lo]
        data.reliability[name] = Curve(x=[float(cal.conf[lo:hi].mean()) for lo, hi in spans],
                                       y=[float(cal.correct[lo:hi].mean()) for lo, hi in spans])
        data.ece_bins = ECE_BINS


def cost_curves(data: ScoreData, confusions: Mapping[str, Any], labels: Sequence[Any], pos: int) -> None:
    """NEC of each system's decisions as the positive share π sweeps (0, 1), per-class error rates fixed:
    ``(π c_FN FNR + (1 − π) c_FP FPR) / min(π c_FN, (1 − π) c_FP)`` (``data.costs`` must be set)."""
    c = np.asarray(data.costs)
    neg = 1 - pos
    c_fn, c_fp = c[pos, neg], c[neg, pos]
    if c_fn <= 0 or c_fp <= 0:
        return
    share = np.linspace(0.005, 0.995, 199)
    for name, conf in confusions.items():
        m = np.asarray(conf, dtype=np.float64)
        if m.shape != (2, 2) or m[pos].sum() == 0 or m[neg].sum() == 0:
            continue
        fnr, fpr = m[pos, neg] / m[pos].sum(), m[neg, pos] / m[neg].sum()
        nec = (share * c_fn * fnr + (1 - share) * c_fp * fpr) / np.minimum(share * c_fn, (1 - share) * c_fp)
        data.cost_curve[name] = _thin(share, nec)
    data.positive_label = str(labels[pos])
