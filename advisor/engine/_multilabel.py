r"""Multi-label metrics: every item carries a set of labels; each label is a binary task.

Inputs are two 0/1 indicator arrays ``Y`` (truth) and ``Ŷ`` (prediction) of shape ``(n, L)``. With
per-label counts ``TP_l, FP_l, FN_l, TN_l`` (summed over items):

* ``multilabel_micro_f1 = 2 Σ_l TP_l / (2 Σ_l TP_l + Σ_l FP_l + Σ_l FN_l)`` (pooled; **not** accuracy);
* ``multilabel_macro_f1 = (1/L) Σ_l 2 TP_l / (2 TP_l + FP_l + FN_l)``;
* ``multilabel_samples_f1 = (1/n) Σ_i 2 |Y_i ∩ Ŷ_i| / (|Y_i| + |Ŷ_i|)``;
* ``hamming_loss = (1/(nL)) Σ_i Σ_l [Y_il ≠ Ŷ_il]``; ``subset_accuracy = (1/n) Σ_i [Y_i = Ŷ_i]``.

Each label is also a binary task with the 2×2 matrix ``[[TN_l, FP_l], [FN_l, TP_l]]`` (positive class:
the label is assigned); :func:`per_label_metrics` gives every binary metric of the catalogue per label.
Undefined values (a label absent from both labelings, no label at all):
``zero`` → 0 (scikit-learn's ``zero_division=0``), ``baseline`` → 1 (the two labelings agree
completely there; ``zero_division=1``), ``omit`` → left out of the average. An item whose true and
predicted sets are both empty is predicted exactly (subset accuracy counts it right): its F1 is 1 under
``zero`` and ``baseline`` alike (scikit-learn's ``average="samples", zero_division=1``); ``omit`` leaves
it out.
Item weights (``weights``, shape ``(..., n)``) carry the bootstrap's resampling counts.

With a score per label of every item (``scores``, shape ``(n, L)``), each label's ROC AUC is computed from its
scores (Fawcett 2006): ``AUC_l = (1/(n⁺_l n⁻_l)) Σ_{i: Y_il=1} Σ_{j: Y_jl=0} ([s_il > s_jl] + ½[s_il = s_jl])``,
and ``multilabel_macro_roc_auc`` is their mean over the labels (scikit-learn's
``roc_auc_score(Y, S, average="macro")``). A label whose truth holds one class only (no item has it, or every
item has it) has no AUC: it is left out of the mean, whatever the convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError
from .._format import few_names
from ._components import MetricResult, UndefinedValue
from ._metrics import BINARY_METRICS, compute_metrics
from ._structure_args import as_tuple, resolve_ids

__all__ = ["LABEL_CUT", "MULTILABEL_METRICS", "MULTILABEL_SCORE_METRICS", "LabelSets", "label_aucs", "label_sets",
           "multilabel_metrics", "per_label_metrics", "scored_label_sets"]

MULTILABEL_METRICS: tuple[str, ...] = ("multilabel_micro_f1", "multilabel_macro_f1", "multilabel_samples_f1",
                                       "hamming_loss", "subset_accuracy")
#: metrics of a score per label of every item (computed only when the predictions carry them)
MULTILABEL_SCORE_METRICS: tuple[str, ...] = ("multilabel_macro_roc_auc",)
#: the conventional cut: a label is given when its score is at least this, unless a threshold is given
LABEL_CUT: float = 0.5
_FILL = {"zero": 0.0, "baseline": 1.0, "omit": np.nan}


@dataclass(frozen=True)
class LabelSets:
    """Truth and prediction as boolean indicator arrays ``(n, L)`` and the label names; ``scores`` ``(n, L)``, a
    score per label of every item when the predictions carry them (``y_pred`` is then the scores at
    ``threshold``: a label is given when its score is at least the threshold)."""

    y_true: np.ndarray
    y_pred: np.ndarray
    labels: tuple[Any, ...]
    scores: np.ndarray | None = None
    threshold: float | None = None

    def columns(self, keep: Sequence[int]) -> LabelSets:
        """These label sets over the label columns ``keep`` (in that order)."""
        idx = list(keep)
        return LabelSets(self.y_true[:, idx], self.y_pred[:, idx], tuple(self.labels[j] for j in idx),
                         None if self.scores is None else self.scores[:, idx], self.threshold)


def label_sets(y_true: Any, y_pred: Any, labels: Sequence[Any] | None = None) -> LabelSets:
    """Validate two indicator arrays ``(n, L)`` (0/1 or bool).

    >>> s = label_sets([[1, 0], [1, 1]], [[1, 1], [0, 1]], ["a", "b"])
    >>> s.y_true.sum(), s.labels
    (np.int64(3), ('a', 'b'))
    """
    t, p = _indicator(y_true, "y_true"), _indicator(y_pred, "y_pred")
    if t.shape != p.shape:
        raise InputError(f"y_true and y_pred must have the same shape (items × labels); got {t.shape} and {p.shape}.")
    if t.shape[0] == 0:
        raise InputError("there are no items to evaluate.")
    labs = as_tuple(labels, "labels", "the label names") if labels is not None else tuple(range(t.shape[1]))
    if len(labs) != t.shape[1]:
        raise InputError(f"labels has {len(labs)} names but the arrays have {t.shape[1]} label columns.")
    return LabelSets(t, p, labs)


def scored_label_sets(y_true: Any, scores: Any, labels: Sequence[Any] | None = None, *, threshold: float = LABEL_CUT,
                      probabilities: bool = True) -> LabelSets:
    """Truth ``(n, L)`` and a score per label of every item: the labels given are those scored at least
    ``threshold``. ``probabilities``: the scores must lie in [0, 1].

    >>> s = scored_label_sets([[1, 0], [0, 1]], [[0.9, 0.5], [0.2, 0.4]], ["a", "b"])
    >>> s.y_pred.tolist(), s.threshold
    ([[True, True], [False, False]], 0.5)
    """
    try:
        sc = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("scores must be numbers, one per label of every item.") from None
    if sc.ndim != 2:
        raise InputError(f"scores must be an array of shape (items, labels); got shape {sc.shape}.")
    if not np.all(np.isfinite(sc)):
        raise InputError("every label of every item needs a finite score; some are empty or not numbers.")
    if probabilities and (sc.min(initial=0.0) < 0 or sc.max(initial=0.0) > 1):
        raise InputError("the scores are read as probabilities, so they must lie between 0 and 1; "
                         f"one is {sc.min() if sc.min() < 0 else sc.max():g}.")
    if not np.isfinite(threshold):
        raise InputError(f"the threshold must be a finite number; got {threshold!r}.")
    base = label_sets(y_true, (sc >= threshold).astype(np.float64), labels)
    return LabelSets(base.y_true, base.y_pred, base.labels, sc, float(threshold))


def _indicator(x: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a 0/1 indicator array of shape (items, labels).") from None
    if arr.ndim != 2 or arr.shape[1] < 1:
        raise InputError(f"{name} must be a 0/1 indicator array of shape (items, labels); got shape {arr.shape}.")
    if not np.all((arr == 0) | (arr == 1)):
        raise InputError(f"{name} must hold only 0 and 1 (label absent / present).")
    return arr.astype(bool)


def _ratio(num: np.ndarray, den: np.ndarray, convention: str) -> tuple[np.ndarray, np.ndarray]:
    undef = den <= 0
    return np.where(undef, _FILL[convention], num / np.where(undef, 1.0, den)), undef


def _mean(x: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Mean over the last axis ignoring NaN (omitted values), weighted by ``w`` when given."""
    ok = ~np.isnan(x)
    ww = ok * (1.0 if w is None else w)
    return (np.where(ok, x, 0.0) * ww).sum(-1) / ww.sum(-1)


def _evaluate(s: LabelSets, ids: Sequence[str], convention: str, weights: np.ndarray | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    t, p = s.y_true, s.y_pred
    w = np.ones(t.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    tp_i, fp_i, fn_i = (t & p).astype(float), (~t & p).astype(float), (t & ~p).astype(float)
    tp, fp, fn = w @ tp_i, w @ fp_i, w @ fn_i  # (..., L)
    n = w.sum(-1)
    out: dict[str, np.ndarray] = {}
    events: dict[str, np.ndarray] = {}
    if "multilabel_micro_f1" in ids:
        out["multilabel_micro_f1"], events["multilabel_micro_f1"] = _ratio(
            2 * tp.sum(-1), 2 * tp.sum(-1) + fp.sum(-1) + fn.sum(-1), convention)
    if "multilabel_macro_f1" in ids:
        per, events["multilabel_macro_f1"] = _ratio(2 * tp, 2 * tp + fp + fn, convention)
        out["multilabel_macro_f1"] = _mean(per)
    if "multilabel_samples_f1" in ids:
        a, b, c = tp_i.sum(1), fp_i.sum(1), fn_i.sum(1)
        # two empty sets agree exactly: F1 = 1, as subset accuracy counts the item right — one convention for
        # the quantity whatever the undefined-value setting (issue 22 item 7; leaving the item out under "omit"
        # would again put sample F1 below subset accuracy)
        per, undef = _ratio(2 * a, 2 * a + b + c, "baseline")
        out["multilabel_samples_f1"] = _mean(np.broadcast_to(per, w.shape), w)
        events["multilabel_samples_f1"] = undef
    if "hamming_loss" in ids:
        out["hamming_loss"] = (fp + fn).sum(-1) / (n * t.shape[1])
    if "subset_accuracy" in ids:
        out["subset_accuracy"] = (w @ np.all(t == p, axis=1).astype(float)) / n
    if "multilabel_macro_roc_auc" in ids:
        if s.scores is None:
            raise InputError("the macro ROC AUC needs a score for every label of every item; these predictions are "
                             "label sets (0 or 1 per label) only.")
        per = label_aucs(t, s.scores, weights)
        events["multilabel_macro_roc_auc"] = np.isnan(per)
        out["multilabel_macro_roc_auc"] = _mean(per)  # labels without both classes left out
    return out, events


def label_aucs(y_true: np.ndarray, scores: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """ROC AUC of each label column (ties count half), NaN where the (weighted) truth holds one class only.

    ``weights`` ``(..., n)``: item weights (the bootstrap's resampling counts); the result has shape ``(..., L)``.

    >>> label_aucs(np.array([[1, 0], [0, 1], [1, 1]], bool), np.array([[0.9, 0.3], [0.2, 0.3], [0.5, 0.1]]))
    array([1.  , 0.25])
    >>> label_aucs(np.array([[1], [1]], bool), np.array([[0.2], [0.4]]))
    array([nan])
    """
    t = np.asarray(y_true, dtype=bool)
    s = np.asarray(scores, dtype=np.float64)
    n, n_labels = t.shape
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    out = np.empty(w.shape[:-1] + (n_labels,))
    for j in range(n_labels):
        order = np.argsort(s[:, j], kind="stable")
        ss, yy = s[order, j], t[order, j]
        starts = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])  # the first item of each run of tied scores
        ws = w[..., order]
        pos = np.add.reduceat(ws * yy, starts, axis=-1)  # (..., groups): weight of positives at each score
        neg = np.add.reduceat(ws * ~yy, starts, axis=-1)
        below = np.cumsum(neg, axis=-1) - neg  # weight of negatives scored strictly lower
        num = (pos * (below + 0.5 * neg)).sum(-1)
        den = pos.sum(-1) * neg.sum(-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[..., j] = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return out


def evaluate_multilabel_batch(s: LabelSets, ids: Sequence[str], weights: np.ndarray,
                              undefined: str = DEFAULT_CONVENTION) -> dict[str, np.ndarray]:
    """Fast path for the bootstrap: item weights ``(B, n)`` (resampling counts); no provenance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _evaluate(s, ids, undefined, weights)[0]


def multilabel_metrics(data: LabelSets | Any, y_pred: Any = None, metrics: Sequence[str] | None = None, *,
                       labels: Sequence[Any] | None = None, undefined: str = DEFAULT_CONVENTION) -> MetricResult:
    """Micro, macro and samples F1, Hamming loss and subset accuracy of label sets.

    >>> r = multilabel_metrics([[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]])
    >>> r["multilabel_micro_f1"], r["hamming_loss"], r["subset_accuracy"]
    (0.6666666666666666, 0.3333333333333333, 0.0)
    """
    s = data if isinstance(data, LabelSets) else label_sets(data, y_pred, labels)
    scored = MULTILABEL_SCORE_METRICS if s.scores is not None else ()
    ids = resolve_ids(metrics, undefined, (*MULTILABEL_METRICS, *scored), "a multi-label",
                      default=(*MULTILABEL_METRICS, *scored))
    with np.errstate(invalid="ignore", divide="ignore"):
        vals, events = _evaluate(s, ids, undefined)
    res = {"zero": "0", "baseline": "1 (the labelings agree there)", "omit": "left out of the average"}[undefined]
    records: list[UndefinedValue] = []
    for m, mask in events.items():
        if m == "multilabel_macro_f1":
            records += [UndefinedValue(m, "label F1", s.labels[i], "label is absent from both labelings", res,
                                       None if undefined == "omit" else _FILL[undefined]) for i in np.flatnonzero(mask)]
        elif m == "multilabel_macro_roc_auc" and mask.any():
            records.append(UndefinedValue(m, "label ROC AUC", None, f"{few_names([s.labels[i] for i in np.flatnonzero(mask)])} "
                                          f"{'has' if mask.sum() == 1 else 'have'} one class only in the truth (every "
                                          "item has the label, or none)", "left out of the mean", None))
        elif m == "multilabel_micro_f1" and bool(mask):
            records.append(UndefinedValue(m, "micro F1", None, "no label is assigned in either labeling", res,
                                          None if undefined == "omit" else _FILL[undefined]))
    return MetricResult({m: float(vals[m]) for m in ids}, records, undefined, s.labels, None, 1.0)


def per_label_metrics(data: LabelSets, metrics: Sequence[str] | None = None, *, beta: float = 1.0,
                      undefined: str = DEFAULT_CONVENTION) -> dict[Any, dict[str, float]]:
    """Every binary metric of the catalogue for each label (its own binary task, positive = assigned).

    >>> t = per_label_metrics(label_sets([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 1], [0, 1]], ["a", "b"]))
    >>> t["a"]["recall"], t["b"]["precision"]
    (0.5, 0.5)
    """
    t, p = data.y_true, data.y_pred
    tp, fp = (t & p).sum(0), (~t & p).sum(0)
    fn, tn = (t & ~p).sum(0), (~t & ~p).sum(0)
    stack = np.stack([np.stack([tn, fp], -1), np.stack([fn, tp], -1)], -2).astype(np.float64)  # (L, 2, 2)
    ids = list(BINARY_METRICS) if metrics is None else list(metrics)
    res = compute_metrics(stack, ids, positive_label=1, beta=beta, undefined=undefined)
    out = {lab: {m: float(np.asarray(res[m])[i]) for m in ids} for i, lab in enumerate(data.labels)}
    if data.scores is not None and (metrics is None or "roc_auc" in metrics):  # each label's AUC from its scores
        for lab, auc in zip(data.labels, label_aucs(t, data.scores)):
            out[lab]["roc_auc"] = float(auc)
    return out
