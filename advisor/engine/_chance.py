"""Chance levels: each metric's value for three reference predictors on the observed class sizes.

science.md §2 "Chance levels": uniform random (``C[i, j] = a_i / k``), prevalence-matched random
(``C[i, j] = a_i a_j / n``) and the constant majority-class predictor, evaluated exactly (no sampling).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError
from ._cells import Cells, others
from ._confusion import Label, cells_and_labels, counts_and_labels
from ._metrics import metrics_of_cells

__all__ = ["chance_levels", "reference_matrices"]


def reference_matrices(matrix: Any) -> dict[str, np.ndarray]:
    """The three reference classifiers of science.md §2 on the observed true class sizes ``a``.

    ``uniform``: ``C[i, j] = a_i / k``; ``prevalence``: ``C[i, j] = a_i a_j / n``;
    ``majority``: every item predicted as the largest class (first one on ties).
    """

    counts, _ = counts_and_labels(matrix)  # dense: this view is for people, at small k
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
    undefined: str = DEFAULT_CONVENTION,
    class_weights: Any = None,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
) -> dict[str, dict[str, float]]:
    """Each metric's value for the uniform-random, prevalence-matched random and majority predictors.

    The uniform and prevalence references fill all ``k²`` cells, so they are evaluated from their
    sums in closed form (:func:`reference_sums`), in ``O(nnz + k)``: chance levels of 100,000 classes
    cost no more than their metrics.

    Examples
    --------
    >>> ch = chance_levels([[80, 10], [15, 5]], ["accuracy", "balanced_accuracy"])
    >>> ch["balanced_accuracy"]
    {'uniform': 0.5, 'prevalence': 0.5, 'majority': 0.5}
    >>> round(ch["accuracy"]["majority"], 4)
    0.8182
    """

    cells, labels = cells_and_labels(matrix)
    if cells.batch:
        raise InputError("chance_levels takes a single k×k matrix.")
    out: dict[str, dict[str, float]] = {}
    for name, source in reference_sums(cells.a).items():
        res = metrics_of_cells(source, labels, metrics, positive_label=positive_label,
                               beta=beta, undefined=undefined, records=False, class_weights=class_weights,
                               f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
        for m, v in res.items():
            out.setdefault(m, {})[name] = float(v)
    return out


class _Sums:
    """The sums a metric needs (``a``, ``b``, ``TP``, off-diagonal mass, entropy cell sum) of a
    reference matrix given in closed form; stands in for :class:`~advisor.engine._cells.Cells`."""

    batch: tuple[int, ...] = ()

    def __init__(self, a: np.ndarray, b: np.ndarray, tp: np.ndarray, off: float, exact: bool, ce: float,
                 off_rows: np.ndarray, off_cols: np.ndarray, outside: tuple[np.ndarray, np.ndarray]) -> None:
        self.k = a.shape[0]
        self.a, self.b, self.tp = a, b, tp
        self.n = a.sum()
        self.off = np.float64(off)
        self.exact = exact
        self._ce = np.float64(ce)
        self._off = {"rows": off_rows, "cols": off_cols}
        self._outside = outside

    def entropy_sum(self) -> np.float64:
        return self._ce

    def off_sums(self, axis: str) -> np.ndarray:
        """Off-diagonal mass per row or column (as :meth:`advisor.engine._cells.Cells.off_sums`)."""
        return self._off[axis]

    def off_outside(self) -> tuple[np.ndarray, np.ndarray]:
        """Off-diagonal mass outside row and column ``i``, and whether it is positive (as ``Cells``)."""
        return self._outside


def reference_sums(a: np.ndarray) -> dict[str, Any]:
    r"""Sums of the three reference matrices of the true sizes ``a``, without building them.

    Uniform ``C_ij = a_i/k``: ``b_j = n/k``, ``TP_i = a_i/k``; with ``S_i = a_i + b_i`` and
    ``L = Σ_j log S_j`` the entropy cell sum is
    ``Σ_i (a_i/k) [2(k−1) log(a_i/k) − (k−2) log S_i − L]``.
    Prevalence ``C_ij = a_i a_j/n``: ``b = a``, ``TP_i = a_i²/n``, ``S_i = 2a_i``; the entropy cell sum
    is ``(2/n) Σ_i a_i (n − a_i) log a_i − 2 log(2n) (n² − Σ a_i²)/n``.
    Majority: every item predicted as the largest class ``m`` (``k`` cells, built as cells).
    """
    a = np.asarray(a, dtype=np.float64)
    k, n = a.shape[0], a.sum()
    present = a > 0
    logs = np.where(present, np.log(np.where(present, a, 1.0)), 0.0)
    # uniform
    b_u = np.full(k, n / k)
    s_u = a + b_u
    log_s = np.log(s_u)
    ce_u = np.sum(np.where(present, (a / k) * (2 * (k - 1) * (logs - np.log(k)) - (k - 2) * log_s - log_s.sum()), 0.0))
    exact_u = bool(np.all(a % k == 0))
    rest = others(a)  # n − a_i as a sum of the other classes
    # C_ij = a_i / k: each row's off-diagonal mass is a_i (k−1)/k; column j's is Σ_{i≠j} a_i / k
    outside_u = (rest * (k - 2) / k, (rest > 0) & (k >= 3))
    uniform = _Sums(a, b_u, a / k, float(np.sum(a * (k - 1) / k)), exact_u, float(ce_u), a * (k - 1) / k, rest / k,
                    outside_u)
    # prevalence
    ce_p = 2.0 / n * np.sum(a * rest * logs) - 2.0 * np.log(2.0 * n) * np.sum(a * rest) / n
    # C_ij = a_i a_j / n: outside row and column i, Σ_{r≠i} a_r (Σ_{c∉{r,i}} a_c) / n
    pair = a * rest
    others_present = present.sum() - present
    outside_p = (np.maximum(others(pair) - pair, 0.0) / n, others_present >= 2)
    prevalence = _Sums(a, a.copy(), a * a / n, float(np.sum(a * rest) / n), False, float(ce_p), pair / n, pair / n,
                       outside_p)
    # majority
    m = int(np.argmax(a))
    rows = np.flatnonzero(present)
    majority = Cells.from_pairs(rows, np.full(rows.shape[0], m), a[rows], k)
    return {"uniform": uniform, "prevalence": prevalence, "majority": majority}
