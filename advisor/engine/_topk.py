r"""Top-k accuracy from per-class scores or probabilities.

``top_k_accuracy = (1/n) Σ_i h_i`` where item *i* is a hit when its true class is among the k
highest-scored classes. Ties at the k-th place are shared: with ``g_i`` classes scored strictly
higher than the true class and ``t_i`` classes (the true one included) scored equal to it,
``h_i = min(1, max(0, (k − g_i) / t_i))`` — the chance that a random tie-break puts the true class in
the top k. Without ties this is the plain 0/1 hit (scikit-learn's ``top_k_accuracy_score``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._exceptions import InputError
from ._components import MetricResult
from ._structure_args import as_tuple

__all__ = ["top_k_accuracy", "top_k_hits"]


def top_k_hits(scores: Any, true_index: Any, k: int) -> np.ndarray:
    """Per-item hit (0…1, fractional only on ties) of the true class among the ``k`` highest scores.

    >>> top_k_hits([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3]], [2, 1], 2).tolist()
    [1.0, 0.0]
    """
    try:
        s = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("scores must be numbers: one row per item, one column per class.") from None
    try:
        y = np.asarray(true_index, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError):
        raise InputError("true_index must be the column of each item's true class: one whole number per item.") from None
    if s.ndim != 2 or s.shape[0] != y.size:
        raise InputError(f"scores must have one row per item and one column per class; got shape {s.shape} "
                         f"for {y.size} items.")
    if not np.all(np.isfinite(s)):
        raise InputError("scores hold a NaN or infinite value; every class needs a finite score for every item.")
    n_classes = s.shape[1]
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= n_classes:
        raise InputError(f"top_k must be a whole number from 1 to the number of classes ({n_classes}); got {k!r}.")
    if y.size and (y.min() < 0 or y.max() >= n_classes):
        raise InputError("a true class index is outside the score columns.")
    true_score = s[np.arange(y.size), y][:, None]
    greater = (s > true_score).sum(axis=1)
    ties = (s == true_score).sum(axis=1)
    return np.clip((k - greater) / ties, 0.0, 1.0)


def top_k_accuracy(scores: Any, true_index: Any, k: int, labels: Any = None) -> MetricResult:
    """Share of items whose true class is among the ``k`` highest scores (ties shared, see module doc).

    >>> top_k_accuracy([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.3, 0.5]], [2, 1, 2], 2)["top_k_accuracy"]
    0.6666666666666666
    """
    hits = top_k_hits(scores, true_index, k)
    if hits.size == 0:
        raise InputError("there are no items to evaluate.")
    n_classes = np.asarray(scores).shape[1]
    labs = as_tuple(labels, "labels", "the classes") if labels is not None else tuple(range(n_classes))
    return MetricResult({"top_k_accuracy": float(hits.mean())}, [], "zero", labs, None, 1.0)
