"""Chance levels: each metric's value for three reference predictors on the observed class sizes.

science.md §2 "Chance levels": uniform random (``C[i, j] = a_i / k``), prevalence-matched random
(``C[i, j] = a_i a_j / n``) and the constant majority-class predictor, evaluated exactly (no sampling).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._confusion import ConfusionMatrix, Label, counts_and_labels
from ._metrics import compute_metrics

__all__ = ["chance_levels", "reference_matrices"]


def reference_matrices(matrix: Any) -> dict[str, np.ndarray]:
    """The three reference classifiers of science.md §2 on the observed true class sizes ``a``.

    ``uniform``: ``C[i, j] = a_i / k``; ``prevalence``: ``C[i, j] = a_i a_j / n``;
    ``majority``: every item predicted as the largest class (first one on ties).
    """

    counts, _ = counts_and_labels(matrix)
    a = counts.sum(axis=1)
    n, k = a.sum(), a.shape[0]
    maj = np.zeros_like(counts)
    maj[:, int(np.argmax(a))] = a
    return {
        "uniform": np.repeat(a[:, None] / k, k, axis=1),
        "prevalence": np.outer(a, a) / n,
        "majority": maj,
    }


def chance_levels(
    matrix: Any,
    metrics: Sequence[str] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = "zero",
) -> dict[str, dict[str, float]]:
    """Each metric's value for the uniform-random, prevalence-matched random and majority predictors.

    Examples
    --------
    >>> ch = chance_levels([[80, 10], [15, 5]], ["accuracy", "balanced_accuracy"])
    >>> ch["balanced_accuracy"]
    {'uniform': 0.5, 'prevalence': 0.5, 'majority': 0.5}
    >>> round(ch["accuracy"]["majority"], 4)
    0.8182
    """

    counts, labels = counts_and_labels(matrix)
    refs = reference_matrices(counts)
    cm = ConfusionMatrix(counts, labels) if not isinstance(matrix, ConfusionMatrix) else matrix
    out: dict[str, dict[str, float]] = {}
    for name, ref in refs.items():
        res = compute_metrics(ConfusionMatrix(ref, cm.labels), metrics, positive_label=positive_label,
                              beta=beta, undefined=undefined)
        for m, v in res.items():
            out.setdefault(m, {})[name] = float(v)
    return out
