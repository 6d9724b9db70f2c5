r"""Metrics of scores and probabilities: ROC AUC, average precision, Brier (both conventions), ECE,
log loss details and the calibration loss.

Every routine sorts the items once and then evaluates any number of item weightings (a bootstrap
resample is a weighting: item ``t`` drawn ``w_t`` times), so resampling reuses the sort.

* **ROC AUC** (binary; scores ``s``, higher = more positive): ``P(s⁺ > s⁻) + ½ P(s⁺ = s⁻)`` — the
  Mann–Whitney form, equal to the trapezoidal area under the ROC curve with ties as diagonal steps.
  Multi-class: one-vs-rest of each class's probability column, averaged with equal weights
  (``macro``) or the class shares (``weighted``); or Hand & Till (2001)'s one-vs-one
  ``M = 2/(k(k−1)) Σ_{i<j} ½ (A(i|j) + A(j|i))`` (``weighted``: pairs weighted by their share of items,
  as scikit-learn). Undefined (NaN) when a class it needs has no items.
* **Average precision**: scikit-learn's step form ``AP = Σ_t (R_t − R_{t−1}) P_t`` over the distinct
  score thresholds in decreasing order (not interpolated; Saito & Rehmsmeier 2015 on its use for rare
  positives); its chance level is the positive share. Multi-class: one-vs-rest, macro average.
* **Brier, binary** (scikit-learn's ``brier_score_loss``, Brier 1950): ``(1/n) Σ (p_t − y_t)²`` with
  ``p`` the positive-class probability, range [0, 1]. advisor's ``brier`` is the multi-class sum
  ``(1/n) Σ_t Σ_c (p_tc − y_tc)²`` (range [0, 2]), twice the binary one for k = 2.
* **ECE** (Naeini et al. 2015; Guo et al. 2017): top-label confidence ``max_c p_tc`` against
  correctness of ``argmax_c p_tc`` (first class on ties); ``ECE = Σ_b |Σ_{t∈b} (acc_t − conf_t)| / n``.
  Equal-mass bins (default, 15): items sorted by confidence and cut at positions ``⌊b n / B⌋``, each cut
  moved to the nearer end of the run of equal confidences it falls in, so tied confidences share a bin
  and the value does not depend on the row order; equal-width bins: ``((b−1)/B, b/B]``. The debiased
  squared ℓ2 calibration error (Kumar et al. 2019) uses the same bins (:meth:`Calibration.squared_debiased`).
* **Calibration loss** (Ferrer 2022, §4; Guo et al. 2017): the share of the log loss removed by
  temperature scaling fitted out of sample — ``(LL − LL_cal) / LL`` with ``LL_cal`` the log loss of
  ``softmax(α ln p)``, α fitted by Newton's method on the other folds of a 5-fold split (seeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._confusion import Label, normalise_labels
from ._probabilities import LOG_LOSS_EPS, ProbabilityAccumulator

__all__ = [
    "SCORE_METRICS",
    "Ranking",
    "average_precision",
    "brier_binary",
    "calibration_loss",
    "ece",
    "log_loss_details",
    "roc_auc",
    "score_inputs",
]

#: Ids of the metrics computed from item-level scores or probabilities (not from a confusion matrix).
SCORE_METRICS: tuple[str, ...] = ("roc_auc", "average_precision", "brier_binary", "ece")
ECE_BINS = 15
CV_FOLDS = 5


class Ranking:
    """Items sorted once by a score (decreasing), with the tie groups, for weighted AUC and AP.

    >>> r = Ranking(np.array([0.9, 0.8, 0.8, 0.1]))
    >>> pos = np.array([1.0, 0, 1, 0]); r.auc(pos, 1 - pos)
    array(0.875)
    """

    def __init__(self, score: np.ndarray) -> None:
        s = np.asarray(score, dtype=np.float64)
        self.order = np.argsort(-s, kind="stable")
        ss = s[self.order]
        new = np.empty(ss.shape[0], dtype=bool)
        new[:1] = True
        new[1:] = ss[1:] != ss[:-1]
        self.starts = np.flatnonzero(new)
        self.tied = self.starts.shape[0] < ss.shape[0]

    def binary(self, w: np.ndarray, positive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(AUC, AP)`` under item weights ``w`` (original order) for the 0/1 mask ``positive``.

        One gather of the weights into score order and two cumulative sums serve both; without tied
        scores only the positive items' positions are visited after the sums.
        """
        if self.tied:
            y = np.asarray(positive, dtype=np.float64)
            return self.auc(w * y, w * (1 - y)), self.ap(w * y, w * (1 - y))
        if getattr(self, "_pos_key", None) is not positive:
            self._pos_key = positive
            ys = np.asarray(positive, dtype=np.float64)[self.order]
            self._at = np.flatnonzero(ys)
            # segments of the score order that end at each positive (plus the tail after the last one):
            # their sums, cumulated, are the weight at or above each positive — one pass, no full cumsum
            starts = np.r_[0, self._at + 1]
            self._seg = starts[starts < ys.shape[0]]
        w = np.asarray(w)
        # whole-number float32 weights (the bootstrap's counts) have exact float32 sums below 2^24;
        # everything after the segment sums is float64
        exact32 = w.dtype == np.float32 and w.shape[-1] < 2**24
        ws = w[..., self.order] if exact32 else np.asarray(w, dtype=np.float64)[..., self.order]
        m = self._at.size
        seg = np.cumsum(np.add.reduceat(ws, self._seg, axis=-1).astype(np.float64), axis=-1)
        g1 = ws[..., self._at].astype(np.float64)  # positives, in decreasing score order
        return untied_auc_ap(g1, np.cumsum(g1, axis=-1), seg[..., :m], seg[..., -1])

    def _groups(self, w: np.ndarray) -> np.ndarray:
        ws = np.asarray(w, dtype=np.float64)[..., self.order]
        return np.add.reduceat(ws, self.starts, axis=-1) if self.tied else ws

    def auc(self, w_pos: np.ndarray, w_neg: np.ndarray) -> np.ndarray:
        """AUC with item weights ``w_pos`` (positives) and ``w_neg`` (negatives), original order."""
        return grouped_auc(self._groups(w_pos), self._groups(w_neg))

    def ap(self, w_pos: np.ndarray, w_neg: np.ndarray) -> np.ndarray:
        """Average precision (step form) with weights ``w_pos``, ``w_neg`` in original order."""
        return grouped_ap(self._groups(w_pos), self._groups(w_neg))


def untied_auc_ap(g1: np.ndarray, cum1: np.ndarray, cumw_at: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(AUC, AP)`` of untied scores from the positives' weights ``g1`` in decreasing score order, their
    running sum ``cum1``, the total weight at or above each positive ``cumw_at`` and the total ``n``."""
    m = g1.shape[-1]
    n1 = cum1[..., -1] if m else np.zeros(g1.shape[:-1])
    den = n1 * (n - n1)
    with np.errstate(invalid="ignore", divide="ignore"):
        above0 = ((g1 * (cumw_at - cum1)).sum(axis=-1))  # Σ w⁺ · negative weight scored above it
        auc = np.where(den > 0, (den - above0) / np.where(den > 0, den, 1.0), np.nan)
        prec = np.where(g1 > 0, cum1 / np.where(g1 > 0, cumw_at, 1.0), 0.0)
        ap = np.where(n1 > 0, (g1 * prec).sum(axis=-1) / np.where(n1 > 0, n1, 1.0), np.nan)
    return auc, ap


def grouped_auc(g1: np.ndarray, g0: np.ndarray) -> np.ndarray:
    """AUC from the positive and negative weights ``g1``, ``g0`` of the tie groups in decreasing score order."""
    n1, n0 = g1.sum(axis=-1), g0.sum(axis=-1)
    after0 = n0[..., None] - np.cumsum(g0, axis=-1)
    num = (g1 * (after0 + 0.5 * g0)).sum(axis=-1)
    den = n1 * n0
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def grouped_ap(g1: np.ndarray, g0: np.ndarray) -> np.ndarray:
    """Average precision (step form) from the tie groups' positive and negative weights ``g1``, ``g0``."""
    tp = np.cumsum(g1, axis=-1)
    seen = tp + np.cumsum(g0, axis=-1)
    n1 = tp[..., -1]
    prec = np.where(seen > 0, tp / np.where(seen > 0, seen, 1.0), 0.0)
    val = (g1 * prec).sum(axis=-1)
    return np.where(n1 > 0, val / np.where(n1 > 0, n1, 1.0), np.nan)


def score_inputs(y_true: Any, scores: Any, labels: Sequence[Label] | None = None,
                 positive_label: Label | None = None) -> tuple[np.ndarray, np.ndarray, list[Label], int | None]:
    """Validate ``(y_true, scores)``: true-class indices, scores (n,) or probabilities (n, k), labels, positive index.

    A 1-D ``scores`` is a binary score (any real, higher = more positive) and needs two ``labels`` and
    ``positive_label``; a 2-D one holds probabilities, one column per label, rows summing to 1.
    """
    t, codes = _true_labels(y_true)
    n = len(t) if codes is None else codes.shape[0]
    try:
        s = np.array(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("scores must be numbers; they contain a non-numeric entry.") from None
    if labels is None:
        labels = sorted(set(t), key=lambda x: (isinstance(x, str), x))
    labs = normalise_labels(labels)
    k = len(labs)
    if s.ndim == 1:
        if k != 2:
            raise InputError(f"a single score column needs a binary task, but there are {k} classes; "
                             "give one probability column p_<label> per class instead.")
        if positive_label is None:
            raise InputError("a single score column needs the positive label (the class high scores point to).")
    elif s.ndim != 2 or s.shape[1] != k:
        raise InputError(f"probabilities must have one column per label ({k}); got shape {s.shape}.")
    if s.shape[0] != n:
        raise InputError(f"y_true has {n} items but the scores have {s.shape[0]} rows; they must match.")
    if n == 0:
        raise InputError("y_true is empty; there is nothing to score.")
    if not np.isfinite(s).all():
        raise InputError("scores contain a missing, infinite or non-numeric value (NaN); every item needs a score.")
    col = {str(lab): j for j, lab in enumerate(labs)}
    found = np.array([col.get(str(lab), -1) for lab in t], dtype=np.intp)
    idx = found if codes is None else found[codes]
    if np.any(idx < 0):
        i = int(np.flatnonzero(idx < 0)[0])
        lab = t[i] if codes is None else t[codes[i]]
        raise InputError(f"y_true contains label {lab!r} at position {i}, which is not among the labels {labs!r}.")
    if s.ndim == 2:
        problem = ProbabilityAccumulator(k).check(s)
        if problem is not None:
            raise InputError(f"probability row {problem[0]} {problem[1]} (each row must sum to 1 within 1e-3).")
    pos = None if positive_label is None else col.get(str(positive_label))
    if positive_label is not None and pos is None:
        raise InputError(f"positive label {positive_label!r} is not among the labels {labs!r}.")
    return idx, s, labs, pos


def _true_labels(y_true: Any) -> tuple[list[Label], np.ndarray | None]:
    """The normalised true labels, item by item — or, for an integer array, its distinct labels and each
    item's index into them (``np.unique``: no Python loop over the items)."""
    if isinstance(y_true, np.ndarray) or hasattr(y_true, "__array__"):
        raw = np.asarray(y_true)
        if raw.dtype.kind in "iub":
            uniq, inv = np.unique(raw.reshape(-1), return_inverse=True)
            return normalise_labels(uniq), inv.reshape(-1)
    return normalise_labels(np.asarray(y_true, dtype=object).reshape(-1)), None


def _binary_column(s: np.ndarray, pos: int | None) -> np.ndarray:
    if s.ndim == 1:
        return s
    return s[:, 1 if pos is None else pos]


def roc_auc(y_true: Any, scores: Any, labels: Sequence[Label] | None = None, *, positive_label: Label | None = None,
            multi_class: str = "ovr", average: str | None = "macro") -> Any:
    r"""ROC AUC: binary ``P(s⁺ > s⁻) + ½P(tie)``; multi-class one-vs-rest or Hand & Till one-vs-one.

    ``average``: ``"macro"`` or ``"weighted"`` (``None`` with ``ovr``: the per-class values).

    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], positive_label=1)
    0.75
    >>> round(roc_auc(["a", "b", "c"], [[.7, .2, .1], [.2, .5, .3], [.1, .3, .6]], multi_class="ovo"), 4)
    1.0
    """
    idx, s, labs, pos = score_inputs(y_true, scores, labels, positive_label)
    k = len(labs)
    if multi_class not in ("ovr", "ovo") or average not in ("macro", "weighted", None) \
            or (average is None and multi_class == "ovo"):
        raise InputError(f"multi_class must be 'ovr' or 'ovo' and average 'macro' or 'weighted' (or None with ovr); "
                         f"got {multi_class!r}, {average!r}.")
    if k == 2:
        p = 1 if pos is None else pos
        y = (idx == p).astype(np.float64)
        return float(Ranking(_binary_column(s, pos)).auc(y, 1.0 - y))
    return multiclass_auc(idx, s, k, multi_class, average, np.ones(len(idx)))


def multiclass_auc(idx: np.ndarray, s: np.ndarray, k: int, multi_class: str, average: str | None,
                    w: np.ndarray, rankings: list[Ranking] | None = None) -> Any:
    rankings = rankings or [Ranking(s[:, c]) for c in range(k)]
    onehot = (idx[:, None] == np.arange(k)).astype(np.float64).T  # (k, n)
    size = (w[..., None, :] * onehot).sum(axis=-1)  # (..., k)
    if multi_class == "ovr":
        per = np.stack([rankings[c].auc(w * onehot[c], w * (1 - onehot[c])) for c in range(k)], axis=-1)
        if average is None:
            return per
        wts = np.ones_like(size) if average == "macro" else size
        out = (per * wts).sum(axis=-1) / wts.sum(axis=-1)
        return float(out) if np.ndim(out) == 0 else out
    pairs, wts = [], []
    for i in range(k):
        for j in range(i + 1, k):
            a_ij = rankings[i].auc(w * onehot[i], w * onehot[j])
            a_ji = rankings[j].auc(w * onehot[j], w * onehot[i])
            pairs.append(0.5 * (a_ij + a_ji))
            wts.append(size[..., i] + size[..., j] if average == "weighted" else np.ones_like(size[..., 0]))
    pv, wv = np.stack(pairs, axis=-1), np.stack(wts, axis=-1)
    out = (pv * wv).sum(axis=-1) / wv.sum(axis=-1)
    return float(out) if np.ndim(out) == 0 else out


def ap_note(k: int) -> str:
    """Why average precision is not reported, and how to get it."""
    if k == 2:
        return ("average precision is the precision-recall area of the positive class, so it needs one: give "
                "--positive LABEL (positive_label= in Python) to get it.")
    return (f"average precision is the precision-recall area of one positive class in a two-class task; with {k} "
            "classes it is not reported (ROC AUC is the one-vs-rest average).")


def average_precision(y_true: Any, scores: Any, labels: Sequence[Label] | None = None, *,
                      positive_label: Label | None = None) -> float:
    r"""Average precision ``Σ_t (R_t − R_{t−1}) P_t`` (scikit-learn's step form) of the positive class.

    One definition on every path: the positive class of a two-class task, named by ``positive_label``;
    without one, or with more classes, it is refused in one sentence saying how to get it.

    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], positive_label=1), 4)
    0.8333
    """
    idx, s, labs, pos = score_inputs(y_true, scores, labels, positive_label)
    if len(labs) != 2 or pos is None:
        raise InputError(ap_note(len(labs)))
    y = (idx == pos).astype(np.float64)
    return float(Ranking(_binary_column(s, pos)).ap(y, 1.0 - y))


def brier_binary(y_true: Any, proba: Any, labels: Sequence[Label] | None = None, *,
                 positive_label: Label | None = None) -> float:
    r"""scikit-learn's binary Brier score ``(1/n) Σ (p_t − y_t)²`` (p: positive-class probability).

    >>> round(brier_binary([0, 1, 1], [[0.8, 0.2], [0.4, 0.6], [0.5, 0.5]], positive_label=1), 6)
    0.15
    """
    idx, s, labs, pos = score_inputs(y_true, proba, labels, positive_label)
    if len(labs) != 2 or s.ndim != 2:
        raise InputError("the binary Brier score needs a binary task with probability columns p_<label>.")
    p = 1 if pos is None else pos
    return float(np.mean((s[:, p] - (idx == p)) ** 2))


def log_loss_details(y_true: Any, proba: Any, labels: Sequence[Label] | None = None) -> dict[str, float]:
    r"""Log loss ``−(1/n) Σ ln p_{t,y_t}`` with its clipping and the items whose true class got 0.

    Probabilities are clipped to ``[ε, 1 − ε]``, ε = float64 machine epsilon (as scikit-learn ≥ 1.5).

    >>> d = log_loss_details([0, 1], [[1.0, 0.0], [1.0, 0.0]])
    >>> round(d["log_loss"], 3), d["zero_probability_items"], d["clip_eps"] == LOG_LOSS_EPS
    (18.022, 1, True)
    """
    idx, s, labs, _ = score_inputs(y_true, proba, labels)
    if s.ndim != 2:
        raise InputError("log loss needs probability columns p_<label>, not a score.")
    acc = ProbabilityAccumulator(len(labs))
    acc.update(idx, s)
    return {"log_loss": acc.result()["log_loss"], "clip_eps": LOG_LOSS_EPS,
            "zero_probability_items": int((s[np.arange(len(idx)), idx] <= 0).sum())}


class Calibration:
    """Confidences sorted once, for weighted ECE; tied confidences always share a bin.

    ``column=None`` measures the top label: confidence ``max_c p_tc`` against correctness of
    ``argmax_c p_tc`` (first class on ties). ``column=j`` measures class ``j``'s probability ``p_tj``
    against ``y_t = j`` — for a binary task, the calibration of the positive-class probability, which
    the top label can hide (over-confident at 0.2 and at 0.8 alike folds into a calibrated 0.8).

    Equal-mass bins cut the cumulative weight at ``⌊b n / B⌋`` and move each cut to the nearer end of
    the run of equal confidences it falls in (the lower end when both are as near): items with the same
    confidence are never split between bins, so the ECE does not depend on the order of the rows
    (issue 20: a calibrated constant forecast gave 0.402 sorted by label and 0.108–0.156 shuffled;
    it is now 0). Cuts that meet leave fewer, larger bins. Equal-width bins are ``((b−1)/B, b/B]``.
    """

    def __init__(self, idx: np.ndarray, proba: np.ndarray, n_bins: int = ECE_BINS, binning: str = "equal_mass",
                 column: int | None = None) -> None:
        if binning not in ("equal_mass", "equal_width") or isinstance(n_bins, bool) \
                or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
            raise InputError(f"binning must be 'equal_mass' or 'equal_width' with at least one bin; got {binning!r}, {n_bins!r}.")
        if column is None:
            conf = proba.max(axis=1)
            correct = (proba.argmax(axis=1) == idx).astype(np.float64)
        else:
            conf = np.asarray(proba[:, column], dtype=np.float64)
            correct = (np.asarray(idx) == column).astype(np.float64)
        self.order = np.argsort(conf, kind="stable")
        self.conf, self.correct = conf[self.order], correct[self.order]
        self.bins, self.binning = int(n_bins), binning
        edges = np.arange(1, self.bins) / self.bins
        self.width_cuts = np.searchsorted(self.conf, edges, side="right")  # item positions, bins (lo, hi]
        new = np.ones(self.conf.shape[0], dtype=bool)
        new[1:] = self.conf[1:] != self.conf[:-1]
        self.runs = np.flatnonzero(new)  # where each run of equal confidences starts

    def order_free(self, w: np.ndarray) -> bool:
        """Whether the ECE under item weights ``w`` is the same for every order of tied confidences: always,
        since tied confidences share a bin.

        >>> c = Calibration(np.array([0, 1, 0, 0]), np.array([[.6, .4], [.6, .4], [.9, .1], [.8, .2]]), n_bins=4)
        >>> c.order_free(np.ones(4))
        True
        """
        return True

    def _prefixes(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per row of weights: cumulative weight, weighted (correct − conf) and weighted correct at every bin
        edge (rows, bins + 1), and the total weight."""
        ws = np.atleast_2d(np.asarray(w, dtype=np.float64)[..., self.order])
        rows = ws.shape[0]
        if ws.shape[1] == 0:
            z = np.zeros((rows, self.bins + 1))
            return z, z, z, np.zeros(rows)
        if self.binning == "equal_width":
            ends = np.r_[self.width_cuts, ws.shape[1]]
            cum = [np.cumsum(x, axis=-1) for x in (ws, ws * (self.correct - self.conf), ws * self.correct)]
            pick = [np.concatenate([np.zeros((rows, 1)), np.where(ends > 0, c[:, np.maximum(ends - 1, 0)], 0.0)], 1)
                    for c in cum]
            return pick[0], pick[1], pick[2], cum[0][:, -1]
        # cumulative sums item by item, read at each run's end: where no cut moves, the same sums — bit for
        # bit — as the per-item bins before ties were kept together
        ends = np.r_[self.runs[1:], ws.shape[1]] - 1
        run_w = np.cumsum(ws, axis=-1)[:, ends]  # weight up to each run's end
        run_d = np.cumsum(ws * (self.correct - self.conf), axis=-1)[:, ends]
        run_c = np.cumsum(ws * self.correct, axis=-1)[:, ends]
        total = run_w[:, -1]
        pos = np.arange(1, self.bins)[None, :] * total[:, None] / self.bins
        pos = np.where((total == np.round(total))[:, None], np.floor(pos), pos)  # whole items: ⌊b n / B⌋
        r_count = run_w.shape[1]
        off = np.arange(rows)[:, None] * (float(total.max()) + 1.0)  # one searchsorted for every row
        r = np.searchsorted((run_w + off).ravel(), (pos + off).ravel(), side="left").reshape(rows, -1)
        r = np.clip(r - np.arange(rows)[:, None] * r_count, 0, r_count - 1)  # the run the cut falls in
        end = np.take_along_axis(run_w, r, axis=1)
        start = np.where(r > 0, np.take_along_axis(run_w, np.maximum(r - 1, 0), axis=1), 0.0)
        upto = np.where(pos - start <= end - pos, r - 1, r)  # the last run before the moved cut (−1: none)

        def at(cum: np.ndarray) -> np.ndarray:
            inner = np.where(upto >= 0, np.take_along_axis(cum, np.maximum(upto, 0), axis=1), 0.0)
            return np.concatenate([np.zeros((rows, 1)), inner, cum[:, -1:]], axis=1)

        return at(run_w), at(run_d), at(run_c), total

    def ece(self, w: np.ndarray) -> np.ndarray:
        """ECE under item weights ``w`` (original order; shape (n,) or (b, n))."""
        _, d, _, total = self._prefixes(w)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.abs(np.diff(d, axis=1)).sum(axis=1) / total
        return out if np.ndim(w) == 2 else out[0]

    def squared_debiased(self, w: np.ndarray) -> np.ndarray:
        r"""Debiased squared ℓ2 calibration error under item weights ``w`` (Kumar, Liang & Ma 2019):
        ``Σ_b (W_b/W) [(ȳ_b − p̄_b)² − ȳ_b (1 − ȳ_b)/(W_b − 1)]`` over the same bins as :meth:`ece`, with
        ``ȳ_b`` the bin's share of hits, ``p̄_b`` its mean confidence and ``W_b`` its weight; a bin of
        fewer than two items adds 0. The subtracted term removes the bias ``Var(ȳ_b)`` of the squared
        gap, so the value is unbiased for a fixed binning and can be negative (a calibrated forecast)."""
        cw, d, c, total = self._prefixes(w)
        wb, db, cb = np.diff(cw, axis=1), np.diff(d, axis=1), np.diff(c, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            ok = wb >= 2
            gap2 = np.where(ok, (db / np.where(ok, wb, 1.0)) ** 2, 0.0)
            hit = np.where(ok, cb / np.where(ok, wb, 1.0), 0.0)
            var = np.where(ok, hit * (1.0 - hit) / np.where(ok, wb - 1.0, 1.0), 0.0)
            out = (wb * (gap2 - var)).sum(axis=1) / total
        return out if np.ndim(w) == 2 else out[0]

    def squared_plugin(self, w: np.ndarray) -> np.ndarray:
        """Plug-in squared ℓ2 calibration error ``Σ_b (W_b/W)(ȳ_b − p̄_b)²`` over the bins of :meth:`ece` —
        what :meth:`squared_debiased` estimates, as it is in a resampling world built from these items."""
        cw, d, _, total = self._prefixes(w)
        wb, db = np.diff(cw, axis=1), np.diff(d, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(wb > 0, db * db / np.where(wb > 0, wb, 1.0), 0.0).sum(axis=1) / total
        return out if np.ndim(w) == 2 else out[0]

    def edges(self) -> np.ndarray:
        """The item positions (in confidence order) where the bins of the unit-weight ECE start and end."""
        cw, _, _, _ = self._prefixes(np.ones(self.conf.shape[0]))
        return np.round(cw[0]).astype(np.intp)


def ece(y_true: Any, proba: Any, labels: Sequence[Label] | None = None, *, n_bins: int = ECE_BINS,
        binning: str = "equal_mass") -> float:
    r"""Expected calibration error of the top-label confidence (equal-mass bins by default, 15 bins).

    >>> round(ece([0, 1, 1, 0], [[.9, .1], [.2, .8], [.4, .6], [.3, .7]], n_bins=2), 6)
    0.15
    """
    idx, s, _, _ = score_inputs(y_true, proba, labels)
    if s.ndim != 2:
        raise InputError("the expected calibration error needs probability columns p_<label>, not a score.")
    return float(Calibration(idx, s, n_bins, binning).ece(np.ones(len(idx))))


def _fit_temperature(z: np.ndarray, idx: np.ndarray) -> float:
    """α minimising the mean of ``logsumexp(α z) − α z_y`` (convex in α), by safeguarded Newton."""
    zy = z[np.arange(len(idx)), idx]

    def parts(a: float) -> tuple[float, float, float]:
        u = a * z
        m = u.max(axis=1, keepdims=True)
        e = np.exp(u - m)
        q = e / e.sum(axis=1, keepdims=True)
        f = float(np.mean(np.log(e.sum(axis=1)) + m[:, 0] - a * zy))
        ez = (q * z).sum(axis=1)
        return f, float(np.mean(ez - zy)), float(np.mean((q * z * z).sum(axis=1) - ez**2))

    a = 1.0
    f, g, h = parts(a)
    for _ in range(100):
        if abs(g) < 1e-12 or h <= 1e-15:
            break
        step = g / h
        while True:
            a_new = min(max(a - step, 1e-3), 1e3)
            f_new, g_new, h_new = parts(a_new)
            if f_new <= f + 1e-15 or abs(step) < 1e-12:
                break
            step /= 2
        if abs(a_new - a) < 1e-12:
            break
        a, f, g, h = a_new, f_new, g_new, h_new
    return a


def calibration_loss(y_true: Any, proba: Any, labels: Sequence[Label] | None = None, *,
                     folds: int = CV_FOLDS, seed: int = 0) -> float:
    r"""Share of the log loss removed by cross-validated temperature scaling, ``(LL − LL_cal) / LL``.

    Negative when the recalibration, fitted on the other folds, does worse out of sample.

    >>> round(calibration_loss([0, 1] * 20, [[.99, .01], [.01, .99]] * 19 + [[.01, .99], [.99, .01]]), 3)
    0.07
    """
    idx, s, _, _ = score_inputs(y_true, proba, labels)
    if s.ndim != 2:
        raise InputError("the calibration loss needs probability columns p_<label>, not a score.")
    n = len(idx)
    z = np.log(np.clip(s, LOG_LOSS_EPS, 1.0))
    fold = np.random.default_rng(seed).permutation(n) % max(2, min(int(folds), n))
    lp = np.empty(n)
    for f in np.unique(fold):
        test = fold == f
        a = _fit_temperature(z[~test], idx[~test]) if (~test).any() else 1.0
        u = a * z[test]
        m = u.max(axis=1, keepdims=True)
        lse = np.log(np.exp(u - m).sum(axis=1)) + m[:, 0]
        lp[test] = np.maximum(lse - u[np.arange(test.sum()), idx[test]], 0.0)
    ll = ProbabilityAccumulator(s.shape[1])
    ll.update(idx, s)
    raw = ll.result()["log_loss"]
    return float((raw - lp.mean()) / raw) if raw > 0 else 0.0


#: Ids of the cost metrics: confusion-matrix metrics that are computed only when asked for (or when
#: costs are given), not by default; from a bare matrix they use 0/1 costs at the test priors.
COST_METRICS: tuple[str, ...] = ("expected_cost", "normalized_expected_cost")


def _default_costs(s: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(EC, NEC)`` with 0/1 costs at the test priors from the engine's non-zero cells.

    With ``π_i = a_i / n`` the weight ``π_i / a_i`` of every cell is ``1/n``, so EC is the off-diagonal
    mass over n and the best constant decision costs ``1 − max_i a_i / n`` (see :mod:`._costs` for any
    costs and priors; the tests check both agree).
    """
    cells = s.cells
    off = np.where(cells.rows != cells.cols, np.asarray(cells.w, dtype=np.float64), 0.0).sum(axis=-1)
    n = np.asarray(s.n, dtype=np.float64)
    ec = off / n
    naive = 1.0 - np.asarray(s.a, dtype=np.float64).max(axis=-1) / n
    with np.errstate(invalid="ignore", divide="ignore"):
        nec = np.where(naive > 0, ec / np.where(naive > 0, naive, 1.0), np.nan)
    return ec, nec


def _expected_cost_default(s: Any) -> np.ndarray:
    return _default_costs(s)[0]


def _nec_default(s: Any) -> np.ndarray:
    return _default_costs(s)[1]


def _item_level(s: Any) -> np.ndarray:  # pragma: no cover - guarded in _resolve_ids
    raise InputError("this metric needs item-level scores or probabilities, not a confusion matrix.")


def extra_specs(spec: Any) -> dict[str, Any]:
    """The :class:`MetricSpec` records of the cost and score metrics (``spec`` is the class)."""
    out = {
        "expected_cost": spec("expected_cost", _expected_cost_default, higher_is_better=False),
        "normalized_expected_cost": spec("normalized_expected_cost", _nec_default, higher_is_better=False),
        "roc_auc": spec("roc_auc", _item_level, needs_probabilities=True),
        "average_precision": spec("average_precision", _item_level, needs_probabilities=True),
        "brier_binary": spec("brier_binary", _item_level, binary_only=True, needs_probabilities=True,
                             higher_is_better=False),
        "ece": spec("ece", _item_level, needs_probabilities=True, higher_is_better=False),
    }
    return out
