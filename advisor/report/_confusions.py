"""The most frequent confusions of a system: what a reader looks at instead of a k × k matrix."""

from __future__ import annotations

from typing import Any

from ._models import ConfusionCell

__all__ = ["top_confusions"]


def top_confusions(cm: Any, n: int = 12) -> list[ConfusionCell]:
    """The ``n`` most frequent errors (true → predicted), with their share of the true class.

    Only nonzero off-diagonal cells are looked at, largest first (ties: natural label order).
    """
    import numpy as np

    counts = np.asarray(cm.counts, dtype=float)
    off = counts.copy()
    np.fill_diagonal(off, 0.0)
    flat = np.flatnonzero(off)
    if flat.size == 0:
        return []
    take = flat[np.argsort(-off.flat[flat], kind="stable")[:n]]
    sizes = counts.sum(axis=1)
    labels = [str(x) for x in cm.labels]
    out = []
    for idx in take:
        i, j = divmod(int(idx), counts.shape[1])
        out.append(ConfusionCell(true=labels[i], predicted=labels[j], count=float(off[i, j]),
                                 share=float(off[i, j] / sizes[i]) if sizes[i] > 0 else None))
    return out
