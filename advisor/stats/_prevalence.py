r"""Project metrics to another class distribution (Opitz (2024), §4, §6.3).

A classifier's behaviour on items of true class ``i`` is its row of the confusion matrix divided by
the class size, ``C[i, j] / a_i`` — the per-class recall and confusion rates, which do not depend on
how many items of each class the test set holds. Under a target class distribution ``π`` (shares
summing to 1) with the same total mass ``n`` the expected matrix is therefore

    ``C'[i, j] = π_i · n · C[i, j] / a_i``,

and every metric can be evaluated on ``C'``. Recall transfers unchanged; precision does not: the
projected precision is ``P_i' = R_i π_i / Σ_j π_j C[j, i] / a_j`` (Opitz (2024), §6.3). Equal shares
``π_i = 1/k`` are the prevalence calibration of Opitz (2024), Eq. 6, under which accuracy becomes
balanced accuracy. This is an idealised projection: it assumes the class-conditional behaviour is
the same in the target population (no domain shift).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError
from ..engine import Cells, ConfusionMatrix, Label, MetricResult, PriorScores, compute_metrics, metrics_of_cells
from ._calibrate import rescale_cells
from ._draws import iter_item_resamples

__all__ = ["PrevalenceProjection", "project_to_prevalence", "prevalence_sensitivity", "projected_score_intervals"]


class PrevalenceProjection(MetricResult):
    """A :class:`MetricResult` of the projected matrix, plus the projection itself.

    Attributes
    ----------
    matrix : ConfusionMatrix
        The projected matrix ``C'``.
    target : dict
        Label → target share ``π_i``.
    observed : dict
        Label → observed share ``a_i / n``.
    """

    def __init__(self, result: MetricResult, matrix: ConfusionMatrix, target: np.ndarray, observed: np.ndarray) -> None:
        super().__init__(
            dict(result), result.undefined, result.convention, result.labels, result.positive_label, result.beta
        )
        self.matrix = matrix
        self.target = {lab: float(t) for lab, t in zip(matrix.labels, target)}
        self.observed = {lab: float(o) for lab, o in zip(matrix.labels, observed)}

    def __repr__(self) -> str:
        return f"PrevalenceProjection({self._values!r}, target={self.target!r})"


def _as_matrix(matrix: Any) -> ConfusionMatrix:
    if isinstance(matrix, ConfusionMatrix):
        return matrix
    try:
        return ConfusionMatrix(matrix)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError("matrix must be a ConfusionMatrix or a k×k array of numbers.") from None


def _target_shares(cm: ConfusionMatrix, target: Any) -> np.ndarray:
    """Target shares as an array aligned with ``cm.labels``, normalised to sum to 1."""
    k = cm.k
    if isinstance(target, str):
        if target in ("equal", "balanced", "uniform"):
            # equal shares among the classes present in the truth, as advisor.calibrate does: an
            # absent class has no recall to project, so it keeps share 0
            present = (cm.true_sizes > 0).astype(np.float64)
            return present / present.sum()
        raise InputError(f"target must be shares per class or 'equal'; got {target!r}.")
    if isinstance(target, Mapping):
        shares = np.zeros(k)
        for lab, v in target.items():
            shares[cm.index_of(lab)] = _share_value(v, lab)
    else:
        try:
            shares = np.asarray(target, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise InputError("target must be a sequence of numbers, a mapping label → share, or 'equal'.") from None
        if shares.shape[0] != k:
            raise InputError(f"target has {shares.shape[0]} shares but the matrix has {k} classes; give one per class.")
    if not np.all(np.isfinite(shares)) or np.any(shares < 0) or shares.sum() <= 0:
        raise InputError(f"target shares must be finite, ≥ 0 and not all zero; got {shares.tolist()}.")
    return shares / shares.sum()


def _share_value(v: Any, lab: Label) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        raise InputError(f"the target share of class {lab!r} must be a number; got {v!r}.") from None


def rescale_rows(cells: Cells, shares: np.ndarray, labels: Sequence[Label]) -> Cells:
    """``C'[..., i, j] = π_i · n · C[i, j] / a_i`` for shares ``π`` of shape (..., k), on the cells.

    Rows with ``π_i = 0`` become 0. A row with ``a_i = 0`` cannot be given a positive share.
    The arithmetic is :func:`advisor.stats._calibrate.rescale_cells` (calibration is its equal-shares case).
    """
    a = cells.a
    empty = (a <= 0) & np.any(np.asarray(shares) > 0, axis=tuple(range(np.ndim(shares) - 1)))
    if np.any(empty):
        lab = labels[int(np.flatnonzero(empty)[0])]
        raise InputError(
            f"class {lab!r} has no true items, so its row cannot be rescaled to a positive target share; "
            "give it share 0 or evaluate on data that contains it."
        )
    return rescale_cells(cells, shares)


def project_to_prevalence(
    matrix: Any,
    target: Any,
    metrics: Sequence[str] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
) -> PrevalenceProjection:
    r"""Evaluate metrics on the matrix projected to a target class distribution.

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like (k, k)
        Rows are true classes, columns predicted classes.
    target : sequence of k numbers, mapping label → number, or "equal"
        Target class shares ``π`` (normalised to sum to 1). ``"equal"`` is prevalence calibration:
        equal shares for the classes present in the truth (an absent class keeps share 0).
    metrics, positive_label, beta, undefined
        As in :func:`advisor.compute_metrics`.

    Returns
    -------
    PrevalenceProjection
        Metric id → value on ``C'[i, j] = π_i n C[i, j] / a_i``, with ``.matrix``, ``.target`` and
        ``.observed``.

    Examples
    --------
    >>> r = project_to_prevalence([[90, 10], [5, 15]], "equal", ["accuracy", "balanced_accuracy"])
    >>> round(r["accuracy"], 4), round(r["balanced_accuracy"], 4)
    (0.825, 0.825)
    >>> round(project_to_prevalence([[90, 10], [5, 15]], [0.5, 0.5], ["macro_precision"])["macro_precision"], 4)
    0.8325
    """
    cm = _as_matrix(matrix)
    shares = _target_shares(cm, target)
    out = rescale_rows(cm.cells, shares, cm.labels)
    projected = ConfusionMatrix.from_cells(out.rows, out.cols, out.w, cm.labels)
    result = compute_metrics(projected, metrics, positive_label=positive_label, beta=beta, undefined=undefined)
    return PrevalenceProjection(result, projected, shares, cm.true_sizes / cm.n)


#: Item weights held at once (resamples × items) while the projected scores are resampled.
_CHUNK_ITEMS = 800_000


def projected_score_intervals(scores: PriorScores, priors: Any, n_resamples: int, confidence: float, seed: Any
                              ) -> dict[str, tuple[float, float]]:
    """Percentile intervals of log loss and the Brier score at the shares ``priors``
    (:class:`advisor.engine.PriorScores`): the test items resampled with replacement (the item bootstrap, :func:`advisor.stats._draws.iter_item_resamples`),
    each resample's per-class mean scores weighted by the shares. As for the projected confusion matrix, a resample
    that holds no item of a class with a positive share gives no value.

    >>> s = PriorScores(["a"] * 30 + ["b"] * 10, [[0.8, 0.2]] * 25 + [[0.3, 0.7]] * 5 + [[0.4, 0.6]] * 10, ["a", "b"])
    >>> lo, hi = projected_score_intervals(s, {"a": 0.5, "b": 0.5}, 200, 0.95, 1)["brier"]
    >>> bool(lo <= s.at({"a": 0.5, "b": 0.5})["brier"] <= hi)
    True
    """
    n = int(scores.index.shape[0])
    if n_resamples <= 0 or n <= 0:
        return {}
    scores.shares(priors)  # a class the shares need and no item has: refused before any draw
    rng = np.random.default_rng(seed)
    values: dict[str, list[np.ndarray]] = {m: [] for m in scores.values}
    size = max(1, _CHUNK_ITEMS // n)
    for _, (weights,) in iter_item_resamples(rng, np.arange(n, dtype=np.intp)[:, None], [n], n_resamples, size):
        for m, v in scores.at(priors, weights).items():
            values[m].append(np.asarray(v, dtype=np.float64).reshape(-1))
    alpha = (1.0 - confidence) / 2.0
    out = {}
    for m, chunks in values.items():
        arr = np.concatenate(chunks) if chunks else np.empty(0)
        arr = arr[np.isfinite(arr)]
        if arr.size:
            out[m] = (float(np.quantile(arr, alpha)), float(np.quantile(arr, 1.0 - alpha)))
    return out


def _grid(grid: Any) -> np.ndarray:
    if grid is None:
        grid = 99
    if isinstance(grid, (int, np.integer)) and not isinstance(grid, bool):
        if grid < 2:
            raise InputError(f"grid must be at least 2 points; got {grid}.")
        return np.linspace(0.0, 1.0, int(grid) + 2)[1:-1]
    try:
        g = np.asarray(grid, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise InputError("grid must be a number of points or a sequence of shares in [0, 1].") from None
    if g.size == 0 or not np.all(np.isfinite(g)) or np.any((g < 0) | (g > 1)):
        raise InputError("grid must be a number of points or a non-empty sequence of shares in [0, 1].")
    return g


def prevalence_sensitivity(
    matrix: Any,
    metric: str,
    class_label: Label | None = None,
    grid: int | Sequence[float] | None = None,
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
) -> dict[str, Any]:
    r"""A metric as one class's share sweeps its range, the others keeping their relative sizes.

    For share ``s`` of class ``c`` the target is ``π_c = s`` and ``π_j = (1 − s) a_j / Σ_{l≠c} a_l``
    for the other classes; the metric is evaluated on the projected matrix (see
    :func:`project_to_prevalence`). For the report's sensitivity plot.

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like (k, k)
    metric : str
        One metric id.
    class_label : int or str, optional
        The class whose share sweeps; by default the minority class (smallest non-zero ``a_i``).
    grid : int or sequence of float, optional
        Number of shares evenly spaced in the open interval (0, 1) (default 99), or the shares
        themselves (in [0, 1]).
    positive_label, beta, undefined
        As in :func:`advisor.compute_metrics`.

    Returns
    -------
    dict
        ``share`` (array), ``value`` (array), ``observed_share``, ``observed_value``,
        ``class_label`` and ``metric``.

    Examples
    --------
    >>> s = prevalence_sensitivity([[90, 10], [5, 15]], "balanced_accuracy", grid=3)
    >>> s["class_label"], s["share"].tolist(), s["value"].round(4).tolist()
    (1, [0.25, 0.5, 0.75], [0.825, 0.825, 0.825])
    """
    if not isinstance(metric, str):
        raise InputError(f"metric must be one metric id; got {metric!r}.")
    cm = _as_matrix(matrix)
    a = cm.true_sizes
    if class_label is None:
        present = np.flatnonzero(a > 0)
        if present.size == 0:
            raise InputError("the confusion matrix is all zeros: there is nothing to evaluate.")
        idx = int(present[np.argmin(a[present])])
    else:
        idx = cm.index_of(class_label)
    others = a.copy()
    others[idx] = 0.0
    if a[idx] <= 0 or others.sum() <= 0:
        raise InputError(
            f"class {cm.labels[idx]!r} cannot sweep its share: it and at least one other class need true items."
        )
    shares = _grid(grid)
    targets = (1.0 - shares)[:, None] * (others / others.sum())[None, :]
    targets[:, idx] = shares
    stack = rescale_rows(cm.cells, targets, cm.labels)  # one batch of cells per share of the grid
    values = metrics_of_cells(stack, cm.labels, [metric], positive_label=positive_label, beta=beta,
                              undefined=undefined)[metric]
    observed = compute_metrics(cm, [metric], positive_label=positive_label, beta=beta, undefined=undefined)[metric]
    return {
        "metric": metric,
        "class_label": cm.labels[idx],
        "share": shares,
        "value": np.asarray(values, dtype=np.float64).reshape(-1),
        "observed_share": float(a[idx] / cm.n),
        "observed_value": float(observed),
    }
