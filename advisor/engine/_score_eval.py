"""Every score, probability and cost metric of one system, for the evaluation commands and the API.

:func:`score_metrics` takes one system's item-level outputs (probability columns or a binary score)
and returns the metric values plus what a report must state beside them: the log-loss clipping and
the items whose true class got probability 0, the ECE binning, the calibration loss (share of the log
loss removed by cross-validated temperature scaling). :func:`cost_metrics` takes a confusion matrix
and costs/priors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError, arg
from .._format import few_names
from ._confusion import ConfusionMatrix, Label
from ._costs import expected_cost, normalized_expected_cost
from ._decisions import ks_statistic
from ._scores import ECE_BINS, Calibration, Ranking, calibration_loss, log_loss_details, multiclass_auc, score_inputs

__all__ = ["COST_IDS", "SCORE_IDS", "SCORE_ON_REQUEST", "ap_note", "cost_metrics", "extra_classes_note", "score_classes",
           "score_metrics"]

from ._scores import ap_note  # noqa: E402 - one sentence, shared with advisor.average_precision

SCORE_IDS = ("roc_auc", "average_precision", "brier_binary", "ece")
#: score metrics computed only when asked for (``also``), never among the defaults: the Kolmogorov–Smirnov statistic of
#: a binary score (credit scoring's figure, Lessmann et al. 2015)
SCORE_ON_REQUEST = ("ks_statistic",)
COST_IDS = ("expected_cost", "normalized_expected_cost")


def score_classes(labels: Sequence[Label], proba_labels: Sequence[str]) -> list[Label]:
    """The classes a probability matrix covers: ``labels`` (the classes of the items), then the classes that only
    have a probability column — no item is of them or predicted as them — in column order (a model over 1,000
    classes scored on a few hundred items). Whole-number column labels become ints beside integer classes.

    >>> score_classes(["a", "b"], ["b", "a", "c"]), score_classes([0, 1], ["0", "1", "7"])
    (['a', 'b', 'c'], [0, 1, 7])
    """
    have = {str(x) for x in labels}
    ints = bool(labels) and all(isinstance(x, int) for x in labels)
    extra: list[Label] = []
    for lab in proba_labels:
        if str(lab) in have:
            continue
        have.add(str(lab))
        text = str(lab)
        whole = text.lstrip("-").isdigit() and text.lstrip("-").isascii() and (text.lstrip("-") == "0" or not text.lstrip("-").startswith("0"))
        extra.append(int(text) if ints and whole else lab)
    return [*labels, *extra]


def extra_classes_note(what: str, labels: Sequence[Label], proba_labels: Sequence[str]) -> str | None:
    """The sentence that says which probability columns are for classes no item has, or None."""
    extra = score_classes(labels, proba_labels)[len(labels):]
    if not extra:
        return None
    n = len(extra)
    return (f"{what}: {n:,} probability column{'s are' if n != 1 else ' is'} for {'classes' if n != 1 else 'a class'} "
            f"no item has, true or predicted ({few_names(extra)}); {'they take' if n != 1 else 'it takes'} part in log "
            "loss, the Brier score and the ECE (the whole probability distribution) but not in the metrics of the "
            "confusion matrix, and ROC AUC one-vs-rest is undefined for a class without items.")


def align_probabilities(labels: Sequence[Label], proba: np.ndarray, proba_labels: Sequence[str], what: str
                        ) -> np.ndarray:
    """Probability columns reordered to ``labels``; a binary task may give one column (the other is 1 − p).

    Columns for classes no item has come after them (:func:`score_classes`); a class of the items without a
    column is refused."""
    k = len(labels)
    if proba.ndim != 2 or proba.shape[1] != len(proba_labels):
        got = f"{proba.shape[1]} columns" if proba.ndim == 2 else f"shape {proba.shape}"
        raise InputError(f"{what} are probabilities with {got}, but {len(proba_labels)} are needed, one per class "
                         f"({few_names(proba_labels)}); give an items × {len(proba_labels)} array whose columns "
                         "follow that order.")
    col = {str(lab): j for j, lab in enumerate(proba_labels)}
    if k == 2 and len(proba_labels) == 1:
        j = [str(x) for x in labels].index(str(proba_labels[0])) if str(proba_labels[0]) in map(str, labels) else None
        if j is None:
            raise InputError(f"{what} has a probability column for {proba_labels[0]!r}, which is not a class.")
        out = np.empty((proba.shape[0], 2))
        out[:, j], out[:, 1 - j] = proba[:, 0], 1.0 - proba[:, 0]
        return out
    missing = [lab for lab in labels if str(lab) not in col]
    extra = [lab for lab in proba_labels if lab not in {str(x) for x in labels}]
    if missing:
        differ = [f"no column for {few_names(missing)}"]
        if extra:
            differ.append(f"columns for {few_names(extra)}, which {'is' if len(extra) == 1 else 'are'} not "
                          f"{'a class' if len(extra) == 1 else 'classes'}")
        raise InputError(f"{what} has probability columns for {few_names(proba_labels)} but the classes are "
                         f"{few_names(labels)}: {'; '.join(differ)}; give one column p_<label> per class.")
    order = [col[str(lab)] for lab in score_classes(labels, proba_labels)]
    return proba if order == list(range(proba.shape[1])) else proba[:, order]


def score_metrics(y_true: Sequence[Any], labels: Sequence[Label], *, proba: Any = None,
                  proba_labels: Sequence[str] = (), score: Any = None, positive_label: Label | None = None,
                  metrics: Sequence[str] | None = None, what: str = "the system",
                  weights: Any = None, notes: list[str] | None = None,
                  also: Sequence[str] = ()) -> tuple[dict[str, float], dict[str, Any]]:
    """``(values, details)`` of the score metrics of one system.

    ``also``: metrics of :data:`SCORE_ON_REQUEST` computed beside the default ones (the Kolmogorov–Smirnov statistic
    of a binary task, asked for by name).

    ``average_precision`` is the average precision of the positive class: it needs ``positive_label``
    in a two-class task, and is left out otherwise — with :data:`AP_NOTE` appended to ``notes`` — rather
    than given another meaning (one id, one definition on every path: compute, compare, report, the API,
    Spark). ROC AUC and the binary Brier score do not depend on which of two classes is positive.

    ``weights`` (one whole count per item) make each item stand for that many identical items — the
    distinct (true label, score) rows a ``GROUP BY`` returns — with the values of the expanded items:
    ROC AUC and average precision depend only on the tie groups, the Brier score is a weighted mean,
    and the equal-mass ECE bins cut the cumulative weight at ``⌊b n / B⌋``. When such a cut falls
    inside a run of equal confidences holding both right and wrong items, the ECE depends on the item
    order, which counts do not keep, and it is refused. With weights no details come back (the
    calibration loss needs the items themselves).

    >>> v, d = score_metrics(["a", "b", "b", "a"], ["a", "b"], score=[0.1, 0.9, 0.4, 0.5], positive_label="b")
    >>> v["roc_auc"], round(v["average_precision"], 4)
    (0.75, 0.8333)
    >>> items = score_metrics(list("abbaa"), ["a", "b"], score=[.1, .9, .4, .5, .1], positive_label="b")[0]
    >>> items == score_metrics(list("abba"), ["a", "b"], score=[.1, .9, .4, .5], positive_label="b",
    ...                        weights=[2, 1, 1, 1])[0]
    True
    """
    k = len(labels)
    if score is not None and k != 2:
        raise InputError(f"{what} has a 'score' column but the task has {k} classes; a single score needs a binary "
                         "task — give one probability column p_<label> per class instead.")
    if score is not None and positive_label is None:
        raise InputError(f"{what}: one score per item (a 'score' column) needs a class of interest; name the class "
                         f"high scores point to with {arg('positive_label')}.")
    details: dict[str, Any] = {}
    s = (np.asarray(score, dtype=np.float64) if score is not None
         else align_probabilities(labels, np.asarray(proba, float), proba_labels, what))
    if score is None and s.ndim == 2 and s.shape[1] > k:  # columns for classes no item has (score_classes)
        note = extra_classes_note(what, labels, proba_labels)
        labels = score_classes(labels, proba_labels)
        k = len(labels)
        if notes is not None and note is not None:
            notes.append(note)
    if s.ndim == 0 or s.shape[0] != len(y_true):
        raise InputError(f"{what} give {s.shape[0] if s.ndim else 1} rows but there are {len(y_true)} items; give one "
                         "score (or one row of probabilities) per item, in the items' order.")
    default = ("roc_auc", "average_precision") if score is not None else \
        [m for m in SCORE_IDS if m != "brier_binary" or k == 2]
    want = list(metrics) if metrics is not None else [*default, *(m for m in also if m in SCORE_ON_REQUEST)]
    for m in want:
        if score is not None and m in ("brier_binary", "ece"):
            raise InputError(f"{m} needs probabilities (p_<label> columns); {what} has a score column, which is not a "
                             "probability.")
    if "average_precision" in want and (k != 2 or positive_label is None):
        if metrics is not None and "average_precision" in metrics:
            raise InputError(ap_note(k))
        want = [m for m in want if m != "average_precision"]
        if notes is not None and ap_note(k) not in notes:
            notes.append(ap_note(k))
    out = _values(y_true, labels, s, want, positive_label if k == 2 else None, weights, what)
    if notes is not None and "roc_auc" in out and not np.isfinite(out["roc_auc"]):
        seen = {str(v) for v in y_true}
        empty = [lab for lab in labels if str(lab) not in seen]
        if empty:
            notes.append(f"{what}: ROC AUC is not reported: {few_names(empty)} "
                         f"{'has' if len(empty) == 1 else 'have'} no true items, so "
                         f"{'its' if len(empty) == 1 else 'their'} one-vs-rest ROC curve has no positives and the "
                         "average over the classes is undefined.")
    if score is None and weights is None:
        ll = log_loss_details(y_true, s, labels)
        details = {"log_loss_clip_eps": ll["clip_eps"], "zero_probability_items": ll["zero_probability_items"],
                   "ece_binning": f"{ECE_BINS} equal-mass bins of the top-label confidence",
                   "calibration_loss": calibration_loss(y_true, s, labels),
                   "calibration_loss_method": "5-fold cross-validated temperature scaling (seed 0); share of the "
                                              "log loss it removes"}
    return out, details


def _values(y_true: Sequence[Any], labels: Sequence[Label], s: np.ndarray, want: Sequence[str],
            pos_label: Label | None, weights: Any, what: str) -> dict[str, float]:
    """The metric values of :func:`score_metrics` under item weights (unit weights when None)."""
    k = len(labels)
    idx, s, _, p = score_inputs(y_true, s, labels, pos_label if pos_label is not None else labels[1])
    w = np.ones(idx.shape[0]) if weights is None else _counts(weights, idx.shape[0], what)
    out: dict[str, float] = {}
    if "roc_auc" in want:
        if k == 2:
            y = (idx == p).astype(np.float64)
            out["roc_auc"] = float(Ranking(s if s.ndim == 1 else s[:, p]).auc(w * y, w * (1 - y)))
        else:
            out["roc_auc"] = multiclass_auc(idx, s, k, "ovr", "macro", w)
    if "average_precision" in want:  # the positive class's (score_metrics leaves it out without one)
        y = (idx == p).astype(np.float64)
        out["average_precision"] = float(Ranking(s if s.ndim == 1 else s[:, p]).ap(w * y, w * (1 - y)))
    if "ks_statistic" in want:  # the largest TPR − FPR over the thresholds of the positive class's score
        if k != 2:
            raise InputError(f"the Kolmogorov–Smirnov statistic needs a binary task; {what} has {k} classes.")
        y = (idx == p).astype(np.float64)
        out["ks_statistic"] = float(ks_statistic(y, s if s.ndim == 1 else s[:, p], w))
    if "brier_binary" in want:
        if k != 2 or s.ndim != 2:
            raise InputError("the binary Brier score needs a binary task with probability columns p_<label>.")
        out["brier_binary"] = float(np.sum(w * (s[:, 1] - (idx == 1)) ** 2) / np.sum(w))
    if "ece" in want:
        cal = Calibration(idx, s)
        if weights is not None and not cal.order_free(w):
            raise InputError(f"ece cannot be computed exactly from the counts of {what}: an equal-mass bin edge falls "
                             "inside a run of equal confidences with both right and wrong items, whose bins depend "
                             "on the item order that counts do not keep; leave ece out (metrics=[…]) or evaluate "
                             "the items themselves.")
        out["ece"] = float(cal.ece(w))
    return out


def _counts(weights: Any, n: int, what: str) -> np.ndarray:
    """Item weights: one whole, non-negative count per item."""
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"the item counts of {what} must be numbers.") from None
    if w.shape != (n,) or not np.isfinite(w).all() or (w < 0).any() or (w != np.round(w)).any():
        raise InputError(f"the item counts of {what} must be one whole, non-negative number per item ({n}); "
                         f"got shape {w.shape}.")
    return w


def cost_metrics(matrix: Any, costs: Any, priors: Any = None, *, positive_label: Label | None = None
                 ) -> dict[str, float]:
    """Expected cost and normalized expected cost of a confusion matrix (see :mod:`advisor.engine._costs`).

    >>> round(cost_metrics([[90, 10], [5, 45]], {"fn": 10, "fp": 1}, [0.98, 0.02], positive_label=1)["normalized_expected_cost"], 9)
    0.59
    """
    if not isinstance(matrix, ConfusionMatrix):
        arr = np.asarray(matrix, dtype=np.float64)
        matrix = ConfusionMatrix(arr, list(range(arr.shape[0])))
    ec = expected_cost(matrix, costs, priors, positive_label=positive_label)
    try:
        nec = normalized_expected_cost(matrix, costs, priors, positive_label=positive_label)
    except InputError:
        nec = float("nan")
    return {"expected_cost": ec, "normalized_expected_cost": nec}
