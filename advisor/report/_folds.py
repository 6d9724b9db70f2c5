"""Cross-validation folds (the answers' ``folds``): the figures pool the folds' items; each fold's lead value beside.

The speech-emotion reader asked how UAR is pooled: "UAR on predictions pooled across the five folds, or averaged over
folds? The numbers differ." advisor computes every figure once on the items of all folds pooled, and, where the data
name each item's fold, also the lead figure of each fold with their mean and standard deviation (ddof 1), the figure
work that averages over folds reports. The fold column is the group column (leave one speaker out) or a column read
with the predictions like a subgroup column (``advisor.load(…, by=[column])``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._exceptions import InputError, arg
from ..engine import ConfusionMatrix, compute_metrics

__all__ = ["fold_values", "mean_sd"]


def fold_values(data: Any, column: str, metric: str, options: Mapping[str, Any]) -> dict[str, dict[str, float | None]]:
    """System → fold (as text, in the column's order) → ``metric`` on that fold's items alone; ``options`` are
    :func:`advisor.compute_metrics`'s keyword arguments. One sentence when the column was not read."""
    ps = getattr(data, "predictions", data)
    joint = ps.joint
    if column == getattr(ps, "group_col", None) and getattr(ps, "groups", None) is not None:
        index, labels = np.asarray(ps.groups), tuple(ps.group_labels)
    elif column in (getattr(ps, "by", None) or {}):
        index, labels = np.asarray(ps.by[column][0]), tuple(ps.by[column][1])
    else:
        raise InputError(f"the folds column {column!r} was not read with the predictions; read it with "
                         f"{arg('by', column, python=f'advisor.load(..., by=[{column!r}])')}.")
    counts = np.asarray(joint.counts, dtype=np.float64)
    out: dict[str, dict[str, float | None]] = {s: {} for s in joint.systems}
    for f, label in enumerate(labels):
        masses = np.where(index == f, counts, 0.0)
        if not masses.sum() > 0:
            continue
        for name, cells in zip(joint.systems, joint.system_cells(masses[None])):
            matrix = ConfusionMatrix.from_cells(cells.rows, cells.cols, cells.w[0], joint.labels)
            value = float(compute_metrics(matrix, [metric], **options)[metric])
            out[name][str(label)] = value if np.isfinite(value) else None
    return out


def mean_sd(values: Mapping[str, float | None]) -> tuple[float, float] | None:
    """Mean and standard deviation (ddof 1) of the defined fold values; None with fewer than two."""
    v = np.array([x for x in values.values() if x is not None], dtype=np.float64)
    return (float(v.mean()), float(v.std(ddof=1))) if v.size > 1 else None
