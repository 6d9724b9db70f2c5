r"""Metrics of predicted probabilities: log loss and the Brier score.

These score the probabilities a classifier outputs, not its decisions, so they need one probability
column per class rather than a confusion matrix (Grandini et al. (2020), §4.4).

Definitions, for ``n`` items with true classes ``t_i`` and predicted distributions ``p_i`` over the
``k`` classes:

* **log loss** (cross-entropy, Grandini et al. (2020), §4.4, Eq. 22–23, averaged over items):
  ``LL = −(1/n) Σ_i ln p_i[t_i]``. Probabilities are clipped to ``[ε, 1 − ε]`` with ``ε`` the
  float64 machine epsilon (≈ 2.2e-16) before taking the logarithm, so a confident mistake costs
  ``−ln ε ≈ 36.04`` instead of infinity. This is exactly what scikit-learn ≥ 1.5 does
  (``sklearn.metrics.log_loss``); older releases clipped at 1e-15. The items whose true class got
  probability 0 (anything below ``ε``, which clipping raises to ``ε``) are counted in
  :attr:`ProbabilityAccumulator.zero`, so a report can say how much of the log loss they carry.
* **Brier score** (Brier 1950, the original multi-class form):
  ``BS = (1/n) Σ_i Σ_c (p_i[c] − y_i[c])²`` with ``y_i`` the one-hot truth; range ``[0, 2]``.
  scikit-learn 1.9's ``brier_score_loss`` computes the same sum for k ≥ 3, and for k = 2 with
  ``scale_by_half=False``; its default for a binary task halves it (the positive-class form
  ``(1/n) Σ (y_i − p_i)²``, range ``[0, 1]``). We keep one definition for every k so that values do
  not change meaning with the number of classes — a binary Brier score here is twice scikit-learn's
  default.

Rows are checked: every probability must lie in ``[0, 1]`` and each row must sum to 1. A row whose sum
is within :data:`SUM_TOLERANCE` (1e-6) of 1 is used as given; a row within
:data:`RENORMALISE_TOLERANCE` (1e-3, what rounding probabilities to a few decimals produces) is divided
by its sum and counted in ``renormalised``; a row farther from 1 is an error, because it usually means
a class column is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._confusion import Label, normalise_labels

__all__ = [
    "LOG_LOSS_EPS",
    "RENORMALISE_TOLERANCE",
    "SUM_TOLERANCE",
    "ProbabilityAccumulator",
    "probability_chance_levels",
    "probability_metrics",
]

#: Clipping bound of log loss: float64 machine epsilon (as scikit-learn ≥ 1.5).
LOG_LOSS_EPS: float = float(np.finfo(np.float64).eps)
#: Rows whose probabilities sum to 1 within this are used unchanged.
SUM_TOLERANCE: float = 1e-6
#: Rows within this of 1 (rounded output) are renormalised; farther is an error.
RENORMALISE_TOLERANCE: float = 1e-3


class ProbabilityAccumulator:
    """Running sums of log loss and Brier score over chunks of items.

    Parameters
    ----------
    k : int
        Number of probability columns (classes).

    Examples
    --------
    >>> acc = ProbabilityAccumulator(2)
    >>> acc.update(np.array([0, 1]), np.array([[0.8, 0.2], [0.4, 0.6]]))
    >>> acc.update(np.array([1]), np.array([[0.5, 0.5]]))
    >>> {m: round(v, 4) for m, v in acc.result().items()}
    {'log_loss': 0.4757, 'brier': 0.3}
    >>> acc.update(np.array([0]), np.array([[0.0, 1.0]]))
    >>> acc.zero, round(acc.result()["log_loss"], 2)
    (1, 9.37)
    """

    def __init__(self, k: int) -> None:
        self.k = int(k)
        self.n = 0
        self.renormalised = 0
        #: Items whose true class got probability 0 (below ε): each costs −ln ε ≈ 36.04 of log loss.
        self.zero = 0
        self._log_loss = 0.0
        self._brier = 0.0

    def check(self, proba: np.ndarray) -> tuple[int, str] | None:
        """First invalid row of ``proba`` and why, or None; renormalisable rows are not invalid."""
        bad = ~np.isfinite(proba)
        if bad.any():
            return int(np.argwhere(bad)[0, 0]), "has a missing or non-numeric probability"
        bad_range = (proba < 0) | (proba > 1)
        if bad_range.any():
            i, j = np.argwhere(bad_range)[0]
            return int(i), f"has probability {proba[i, j]:g}, outside [0, 1]"
        off = np.abs(proba.sum(axis=1) - 1.0)
        if (off > RENORMALISE_TOLERANCE).any():
            i = int(np.argmax(off > RENORMALISE_TOLERANCE))
            return i, f"has probabilities summing to {proba[i].sum():.6g}, not 1"
        return None

    def update(self, true_index: np.ndarray, proba: np.ndarray) -> None:
        """Add items with true-class column ``true_index`` (shape (r,)) and ``proba`` (shape (r, k)).

        Rows must already have passed :meth:`check`.
        """
        proba = np.asarray(proba, dtype=np.float64)
        rows = proba.shape[0]
        if rows == 0:
            return
        sums = proba.sum(axis=1)
        fix = np.abs(sums - 1.0) > SUM_TOLERANCE
        if fix.any():
            proba = proba.copy()
            proba[fix] /= sums[fix, None]
            self.renormalised += int(fix.sum())
        r = np.arange(rows)
        raw_true = proba[r, true_index]
        self.zero += int((raw_true < LOG_LOSS_EPS).sum())
        p_true = np.clip(raw_true, LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS)
        self._log_loss += float(-np.log(p_true).sum())
        diff = proba.copy()
        diff[r, true_index] -= 1.0
        self._brier += float(np.einsum("ij,ij->", diff, diff))
        self.n += rows

    def result(self) -> dict[str, float]:
        """``{"log_loss": …, "brier": …}`` — means over the items seen."""
        if self.n == 0:
            raise InputError("there are no items with probabilities; log loss and Brier score need at least one.")
        return {"log_loss": self._log_loss / self.n, "brier": self._brier / self.n}


def probability_metrics(y_true: Any, proba: Any, labels: Sequence[Label]) -> dict[str, float]:
    r"""Log loss and Brier score of predicted class probabilities.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels; each must be one of ``labels``.
    proba : array-like of shape (n, k)
        ``proba[i, c]`` = predicted probability that item ``i`` belongs to ``labels[c]``; rows sum to 1.
    labels : sequence of int or str, length k
        The class of each column of ``proba``.

    Returns
    -------
    dict
        ``{"log_loss": −(1/n) Σ ln p_i[t_i], "brier": (1/n) Σ_i Σ_c (p_ic − y_ic)²}`` — see the module
        docstring for clipping (float64 ε, as scikit-learn) and the Brier convention (Brier 1950, range
        [0, 2]; twice scikit-learn's default for a binary task). Log loss: Grandini et al. (2020), §4.4.

    Examples
    --------
    >>> r = probability_metrics(["a", "b", "b"], [[0.9, 0.1], [0.3, 0.7], [0.5, 0.5]], ["a", "b"])
    >>> round(r["log_loss"], 4), round(r["brier"], 4)
    (0.3851, 0.2333)
    """
    labs = normalise_labels(labels)
    k = len(labs)
    if k < 2 or len({str(x) for x in labs}) != k:
        raise InputError(f"labels must name at least two distinct classes, one per probability column; got {labs!r}.")
    try:
        p = np.array(proba, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("proba must be an n×k table of numbers; it contains a non-numeric entry.") from None
    if p.ndim != 2 or p.shape[1] != k:
        raise InputError(f"proba must have one column per label ({k}); got shape {p.shape}.")
    t = np.asarray(y_true, dtype=object).reshape(-1)
    if t.shape[0] != p.shape[0]:
        raise InputError(f"y_true has {t.shape[0]} items but proba has {p.shape[0]} rows; they must match.")
    if t.shape[0] == 0:
        raise InputError("y_true is empty; there is nothing to score.")
    column = {str(lab): j for j, lab in enumerate(labs)}
    true_index = np.empty(t.shape[0], dtype=np.intp)
    for i, lab in enumerate(normalise_labels(t)):
        j = column.get(str(lab))
        if j is None:
            raise InputError(f"y_true contains label {lab!r} at position {i}, which has no probability column; labels are {labs!r}.")
        true_index[i] = j
    acc = ProbabilityAccumulator(k)
    problem = acc.check(p)
    if problem is not None:
        raise InputError(f"proba row {problem[0]} {problem[1]}.")
    acc.update(true_index, p)
    return acc.result()


def probability_chance_levels(true_sizes: Any) -> dict[str, dict[str, float]]:
    r"""Log loss and Brier score of three reference predictors, on the observed class sizes ``a``.

    With prevalences ``π_c = a_c / n`` over ``k`` classes:

    ``uniform`` (``p = 1/k`` everywhere): LL = ln k, BS = 1 − 1/k;
    ``prevalence`` (``p = π`` for every item): LL = −Σ π_c ln π_c (the entropy), BS = 1 − Σ π_c²;
    ``majority`` (all mass on the largest class, first on ties): LL ≈ (1 − π_max)(−ln ε),
    BS = 2 (1 − π_max).

    Examples
    --------
    >>> ch = probability_chance_levels([50, 50])
    >>> round(ch["log_loss"]["uniform"], 4), ch["brier"]["prevalence"], ch["brier"]["majority"]
    (0.6931, 0.5, 1.0)
    """
    a = np.asarray(true_sizes, dtype=np.float64).reshape(-1)
    n, k = float(a.sum()), a.shape[0]
    if n <= 0 or k < 2:
        raise InputError("chance levels need at least two classes and a non-empty test set.")
    pi = a / n
    nz = pi[pi > 0]
    p_max = float(pi.max())
    # the majority predictor still assigns ε after clipping, as in log loss itself
    clipped_true = np.clip(np.where(np.arange(k) == int(np.argmax(a)), 1.0, 0.0), LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    return {
        "log_loss": {
            "uniform": float(np.log(k)),
            "prevalence": float(-(nz * np.log(nz)).sum()),
            "majority": float(-(pi * np.log(clipped_true)).sum()),
        },
        "brier": {
            "uniform": 1.0 - 1.0 / k,
            "prevalence": float(1.0 - (pi * pi).sum()),
            "majority": 2.0 * (1.0 - p_max),
        },
    }
