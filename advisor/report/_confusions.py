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

    cells = cm.cells  # the non-zero cells: no k × k array (100,000 classes would need 80 GB)
    rows, cols, w = np.asarray(cells.rows), np.asarray(cells.cols), np.asarray(cells.w, dtype=float).reshape(-1)
    off = (rows != cols) & (w != 0)
    if not off.any():
        return []
    rows, cols, w = rows[off], cols[off], w[off]
    order = np.lexsort((cols, rows))  # row-major, as the dense matrix's flat index, so ties keep that order
    rows, cols, w = rows[order], cols[order], w[order]
    take = np.argsort(-w, kind="stable")[:n]
    sizes = np.asarray(cm.true_sizes, dtype=float)
    labels = cm.labels
    out = []
    for t in take:
        i, j = int(rows[t]), int(cols[t])
        out.append(ConfusionCell(true=str(labels[i]), predicted=str(labels[j]), count=float(w[t]),
                                 share=float(w[t] / sizes[i]) if sizes[i] > 0 else None))
    return out
