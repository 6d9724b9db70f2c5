r"""Log loss and the Brier score at other class shares: each class's mean score weighted by its share.

Log loss and the Brier score are means over the items, so each true class weighs in them as its share of
the test set: ``(1/n) Σ_t s_t = Σ_c (n_c/n) · s̄_c`` with ``s̄_c`` the mean score of the items of true class
``c``. At class shares ``π`` (those met in use) the same score reads

    ``S_π = Σ_c π_c · s̄_c``,

the prior-weighted expected proper scoring rule as Ferrer's psrcal computes it (the section is not cited: only
the code was read): its ``LogLoss`` and ``Brier`` with ``priors=π`` and ``norm=False`` weigh item ``t`` by
``π_{y_t} / (n_{y_t}/n)``, which is this
(its Brier is also averaged over the ``k`` columns, so it is ``1/k`` of advisor's). It is the weighted mean
of the item scores with weight ``π_c / n_c`` for each item of class ``c``, as scikit-learn's ``log_loss``
and ``brier_score_loss`` compute it with ``sample_weight``; at the test set's own shares it is the plain
metric. Like the projected confusion matrix (:mod:`advisor.stats._prevalence`) it assumes each class's
items score as they do in the test set (no shift within a class).

Item scores, as the plain metrics compute them (:mod:`._probabilities`, :mod:`._scores`):

* ``log_loss``: ``−ln p_{t,y_t}``, the probability clipped to ``[ε, 1 − ε]`` (ε = float64 machine epsilon);
* ``brier``: ``Σ_j (p_tj − 1[y_t = j])²`` (Brier 1950, range [0, 2]);
* ``brier_binary``: ``(p_t − y_t)²`` with ``p_t`` the positive class's probability (range [0, 1]).

Rows of log loss and the Brier score that sum to 1 only within the rounding tolerance are divided by
their sum first, as :class:`~._probabilities.ProbabilityAccumulator` does; the binary Brier score reads
the positive column as given, as :func:`~._scores.brier_binary` does.

A class with no items in the test set has no mean score, so a positive share for it leaves the score
undefined: it is refused in one sentence, as the projection of the confusion matrix refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._confusion import Label
from ._probabilities import LOG_LOSS_EPS, SUM_TOLERANCE
from ._scores import score_inputs

__all__ = ["PRIOR_SCORES", "PriorScores", "item_scores", "scores_at_priors"]

#: The proper scores that :func:`scores_at_priors` gives at other class shares.
PRIOR_SCORES: tuple[str, ...] = ("log_loss", "brier", "brier_binary")


def item_scores(true_index: np.ndarray, proba: np.ndarray, metric: str, positive_index: int | None = None
                ) -> np.ndarray:
    """Each item's score (shape (n,)) of ``metric`` (one of :data:`PRIOR_SCORES`); its mean is the plain metric.

    >>> item_scores(np.array([0, 1]), np.array([[0.8, 0.2], [0.4, 0.6]]), "brier").round(2).tolist()
    [0.08, 0.32]
    """
    t = np.asarray(true_index, dtype=np.intp)
    p = np.asarray(proba, dtype=np.float64)
    rows = np.arange(t.shape[0])
    if metric == "brier_binary":
        if p.shape[1] != 2:
            raise InputError("the binary Brier score needs a binary task with probability columns p_<label>.")
        col = 1 if positive_index is None else int(positive_index)
        return np.asarray((p[:, col] - (t == col)) ** 2, dtype=np.float64)
    if metric not in PRIOR_SCORES:
        raise InputError(f"metric must be one of {', '.join(PRIOR_SCORES)}; got {metric!r}.")
    sums = p.sum(axis=1)
    fix = np.abs(sums - 1.0) > SUM_TOLERANCE
    if fix.any():  # rounded rows, divided by their sum as the plain metrics do
        p = p.copy()
        p[fix] /= sums[fix, None]
    if metric == "log_loss":
        return np.asarray(-np.log(np.clip(p[rows, t], LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS)), dtype=np.float64)
    d = p.copy()
    d[rows, t] -= 1.0
    return np.asarray(np.einsum("ij,ij->i", d, d), dtype=np.float64)


class PriorScores:
    """The items' scores by true class, for their mean at any class shares and under any item weights.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, each one of ``labels``.
    proba : array-like of shape (n, k)
        One probability column per label; rows sum to 1.
    labels : sequence of labels, length k
        The class of each column.
    metrics : sequence of str, optional
        Among :data:`PRIOR_SCORES`; by default log loss and the Brier score, and the binary Brier score for two
        classes.
    positive_label : label, optional
        The positive class of the binary Brier score (the second column without one).

    Examples
    --------
    >>> s = PriorScores(["a", "a", "b"], [[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], ["a", "b"], ["brier"])
    >>> round(s.at({"a": 0.5, "b": 0.5})["brier"], 4), round(s.at()["brier"], 4)
    (0.125, 0.14)
    """

    def __init__(self, y_true: Any, proba: Any, labels: Sequence[Label], metrics: Sequence[str] | None = None,
                 positive_label: Label | None = None) -> None:
        idx, s, labs, pos = score_inputs(y_true, proba, labels, positive_label)
        if s.ndim != 2:
            raise InputError("log loss and the Brier score need probability columns p_<label>, not a score.")
        self.labels: list[Label] = list(labs)
        self.index = idx
        k = len(labs)
        wanted = list(metrics) if metrics is not None else [m for m in PRIOR_SCORES if m != "brier_binary" or k == 2]
        self.values = {m: item_scores(idx, s, m, pos) for m in wanted}
        self.sizes = np.bincount(idx, minlength=k).astype(np.float64)

    def shares(self, priors: Any) -> np.ndarray:
        """The class shares ``π`` aligned with the labels and summing to 1, from a mapping label → share or one share
        per label; a positive share of a class with no items is refused."""
        k = len(self.labels)
        if isinstance(priors, Mapping):
            col = {str(lab): j for j, lab in enumerate(self.labels)}
            pi = np.zeros(k)
            for lab, v in priors.items():
                if str(lab) not in col:
                    raise InputError(f"the share of class {lab!r} is given, but it is not one of the classes "
                                     f"{self.labels!r}.")
                pi[col[str(lab)]] = _share(v, lab)
        else:
            try:
                pi = np.asarray(priors, dtype=np.float64).reshape(-1)
            except (TypeError, ValueError):
                raise InputError("the class shares must be numbers, one per class, or a mapping label → share."
                                 ) from None
            if pi.shape[0] != k:
                raise InputError(f"{pi.shape[0]} class shares were given for {k} classes; give one per class.")
        if not np.all(np.isfinite(pi)) or np.any(pi < 0) or pi.sum() <= 0:
            raise InputError(f"the class shares must be finite, ≥ 0 and not all zero; got {pi.tolist()}.")
        empty = np.flatnonzero((pi > 0) & (self.sizes <= 0))
        if empty.size:
            raise InputError(f"class {self.labels[int(empty[0])]!r} has no true items, so it has no mean score to "
                             "weigh by a positive share; give it share 0 or evaluate on data that contains it.")
        return np.asarray(pi / pi.sum(), dtype=np.float64)

    def at(self, priors: Any = None, weights: np.ndarray | None = None) -> dict[str, Any]:
        """``Σ_c π_c · s̄_c`` of each score at the shares ``priors`` (the test set's own when None: the plain
        metric).

        ``weights`` (shape (n,) or (b, n)): item weights, e.g. how often each item was drawn in a bootstrap
        resample; each class's mean is then the weighted mean of its items, and a resample that holds no item of a
        class with a positive share gives NaN. Without weights the values are floats, else arrays of shape (b,).
        """
        pi = self.sizes / self.sizes.sum() if priors is None else self.shares(priors)
        n, k = self.index.shape[0], len(self.labels)
        w = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        rows = w.reshape(-1, n)

        def by_class(x: np.ndarray) -> np.ndarray:  # (b, k): each row's sum over the items of each class
            return np.stack([np.bincount(self.index, weights=r, minlength=k) for r in x])

        mass = by_class(rows)  # each class's weight in each row
        need = pi > 0
        lacking = np.any(mass[:, need] <= 0, axis=1)
        safe = np.where(mass[:, need] > 0, mass[:, need], 1.0)
        out: dict[str, Any] = {}
        for m, v in self.values.items():
            means = by_class(rows * v)[:, need] / safe  # each class's mean score
            value = np.where(lacking, np.nan, (means * pi[need]).sum(axis=1))
            out[m] = float(value[0]) if w.ndim == 1 else value
        return out


def _share(v: Any, lab: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        raise InputError(f"the share of class {lab!r} must be a number; got {v!r}.") from None


def scores_at_priors(y_true: Any, proba: Any, labels: Sequence[Label], priors: Any,
                     metrics: Sequence[str] | None = None, *, positive_label: Label | None = None) -> dict[str, float]:
    r"""Log loss and the Brier score at the class shares ``priors``: ``Σ_c π_c · s̄_c`` (see the module docstring).

    Parameters
    ----------
    y_true, proba, labels, metrics, positive_label
        As in :class:`PriorScores`.
    priors : mapping label → share, or one share per label
        The class shares ``π``, normalised to sum to 1; a class left out of a mapping has share 0.

    Returns
    -------
    dict
        Metric id → value; at the test set's own shares, the plain log loss and Brier score.

    Examples
    --------
    >>> y, p = ["a", "a", "a", "b"], [[0.9, 0.1], [0.8, 0.2], [0.7, 0.3], [0.4, 0.6]]
    >>> r = scores_at_priors(y, p, ["a", "b"], {"a": 0.5, "b": 0.5}, ["log_loss"])
    >>> round(r["log_loss"], 4)
    0.3696
    >>> round(scores_at_priors(y, p, ["a", "b"], [0.75, 0.25], ["brier"])["brier"], 4)  # the test set's own shares
    0.15
    """
    return PriorScores(y_true, proba, labels, metrics, positive_label).at(priors)
