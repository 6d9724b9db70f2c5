r"""Prevalence calibration (Opitz 2024, §3.4 eq. 6 and §5.2).

Scaling the row of true class *i* by :math:`\lambda_i = n / (k\,a_i)` gives every class the same
mass :math:`n/k` while keeping the proportions of each class's errors. A metric computed on the
calibrated matrix (written *metric~*) is prevalence-invariant (Opitz's PIV) by construction:

* accuracy~ = balanced accuracy (macro recall),
* Cohen's kappa~ = adjusted balanced accuracy :math:`(\mathrm{BA} - 1/k)/(1 - 1/k)`,
* weighted F1~ = macro F1~.

A class absent from the truth (:math:`a_i = 0`) has no recall and nothing to scale. Its row stays
empty; the other rows get mass :math:`n/k'` where :math:`k'` is the number of classes present in the
truth, so the total stays :math:`n`. On such a matrix accuracy~ is the mean recall over the
:math:`k'` classes present (balanced accuracy under the ``omit`` convention), and the calibrated
matrix still records how often the absent class was *predicted*.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError
from ..engine import Cells, ConfusionMatrix, Label, MetricResult, UndefinedValue, compute_metrics

__all__ = ["calibrate", "calibrate_counts", "calibrated_metrics", "rescale_cells"]

SUFFIX = "~"


def rescale_counts(counts: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """Give true class *i* the share ``π_i`` of the mass: ``C'[i, j] = π_i · n · C[i, j] / a_i``.

    Row-conditional rates ``C[i, j] / a_i`` (so every recall) are kept; rows with ``a_i = 0`` stay
    zero. ``counts`` is ``(..., k, k)``, ``shares`` broadcasts against ``(..., k)`` (a leading grid
    axis is allowed, as for a sensitivity curve).

    >>> rescale_counts(np.array([[8.0, 2.0], [1.0, 1.0]]), np.array([0.5, 0.5])).tolist()
    [[4.8, 1.2], [3.0, 3.0]]
    """
    c = np.asarray(counts, dtype=np.float64)
    a = c.sum(axis=-1)
    n = a.sum(axis=-1)
    target = np.asarray(shares, dtype=np.float64) * np.asarray(n)[..., None]  # π_i · n
    scale = np.where(a > 0, target / np.where(a > 0, a, 1.0), 0.0)
    return c * scale[..., :, None]


def rescale_cells(cells: Cells, shares: np.ndarray) -> Cells:
    """:func:`rescale_counts` on non-zero cells: ``w'_c = π_{row(c)} · n · w_c / a_{row(c)}``.

    ``shares`` broadcasts against ``(..., k)``; a leading grid axis gives a batch of matrices with
    the same cells. The arithmetic per cell is that of :func:`rescale_counts`; no k×k table.
    """
    a = cells.a
    target = np.asarray(shares, dtype=np.float64) * np.asarray(cells.n)[..., None]
    scale = np.where(a > 0, target / np.where(a > 0, a, 1.0), 0.0)
    return Cells(cells.rows, cells.cols, cells.w * scale[..., cells.rows], cells.k)


def calibrate_counts(counts: np.ndarray) -> np.ndarray:
    """Calibrate a stack of count matrices ``(..., k, k)``; rows with ``a_i = 0`` stay zero.

    Equal shares ``1/k'`` over the ``k'`` classes present in the truth (:func:`rescale_counts`).

    >>> calibrate_counts(np.array([[8.0, 2.0], [1.0, 1.0]])).tolist()
    [[4.8, 1.2], [3.0, 3.0]]
    """
    c = np.asarray(counts, dtype=np.float64)
    present = (c.sum(axis=-1) > 0).astype(np.float64)
    shares = present / np.maximum(present.sum(axis=-1, keepdims=True), 1.0)
    return rescale_counts(c, shares)


def calibrate(matrix: Any) -> ConfusionMatrix:
    r"""Prevalence-calibrated copy of a confusion matrix (rows = true classes).

    Row *i* is scaled by :math:`n / (k\,a_i)` so that every true class has mass :math:`n/k`
    (Opitz 2024, eq. 6). Rows of classes absent from the truth stay zero and the remaining
    :math:`k'` rows get :math:`n/k'` each (see the module docstring).

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like of shape (k, k)

    Returns
    -------
    ConfusionMatrix
        Same labels; soft (non-integer) counts with the same total mass.

    Examples
    --------
    >>> cm = calibrate([[8, 2], [1, 1]])
    >>> cm.counts.tolist()
    [[4.8, 1.2], [3.0, 3.0]]
    >>> from advisor import compute_metrics
    >>> raw = compute_metrics([[8, 2], [1, 1]], ["balanced_accuracy"])["balanced_accuracy"]
    >>> round(compute_metrics(cm, ["accuracy"])["accuracy"], 12) == round(raw, 12)
    True
    """
    cm = matrix if isinstance(matrix, ConfusionMatrix) else ConfusionMatrix(matrix)
    if cm.n <= 0:
        raise InputError("the confusion matrix is all zeros: there is nothing to calibrate.")
    present = (cm.cells.a > 0).astype(np.float64)
    out = rescale_cells(cm.cells, present / max(present.sum(), 1.0))
    return ConfusionMatrix.from_cells(out.rows, out.cols, out.w, cm.labels)


def calibrated_metrics(
    matrix: Any,
    metrics: Sequence[str] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    class_weights: Any = None,
    f1_classes: Any = None,
    fallback_class: Any = None,
    action_classes: Any = None,
) -> MetricResult:
    """Metrics of the prevalence-calibrated matrix, keyed ``"<id>~"`` (e.g. ``"accuracy~"``).

    The suffix keeps calibrated and raw values apart when both are reported; undefined-value
    records carry the suffixed id too. Arguments are those of :func:`advisor.compute_metrics`.

    Examples
    --------
    >>> r = calibrated_metrics([[8, 2], [1, 1]], ["accuracy", "cohen_kappa"])
    >>> sorted(r)
    ['accuracy~', 'cohen_kappa~']
    >>> round(r["accuracy~"], 4), round(r["cohen_kappa~"], 4)
    (0.65, 0.3)
    """
    cm = calibrate(matrix)
    res = compute_metrics(cm, metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                          class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
    values = {f"{k}{SUFFIX}": v for k, v in res.items()}
    undef = [
        UndefinedValue(f"{u.metric}{SUFFIX}", u.quantity, u.label, u.reason, u.resolution, u.value)
        for u in res.undefined
    ]
    return MetricResult(values, undef, res.convention, res.labels, res.positive_label, res.beta)
