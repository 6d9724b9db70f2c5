"""Two or more partitions of the same items against a reference partition (issue 23, item 3).

y_true and y_pred hold cluster ids of two partitions; the ids name nothing shared, so each system becomes the
contingency table of its clusters against the reference's (:class:`advisor.engine.PartitionTable`). Prediction files,
a query or a table read by :func:`advisor.load` give the joint table of the items, so every system shares the rows
a resampling draws (:class:`advisor.engine.PartitionRows`: paired items, and the group of each row with
``group=``); confusion matrices and count tables give each system's table alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine import PartitionRows, partition_table
from ._structures import StructuredInputs

__all__ = ["partition_inputs"]


def partition_inputs(ds: Any) -> StructuredInputs:
    """The partition inputs of a :class:`~advisor.io.Dataset` read by :func:`advisor.load`; a partition with one
    cluster is refused in one sentence naming the system."""
    joint = ds.joint
    if joint is None or not len(joint.systems):
        systems = {s: partition_table(cm.counts, list(cm.labels), list(cm.labels), name=s) for s, cm in ds.systems.items()}
        return StructuredInputs("partition", systems, ())
    labels = tuple(joint.labels)
    codes = np.asarray(joint.codes, dtype=np.int64)
    counts = np.asarray(joint.counts, dtype=np.float64)
    k = len(labels)
    systems = {}
    for j, s in enumerate(joint.systems):
        m = np.zeros((k, k))
        np.add.at(m, (codes[:, 0], codes[:, 1 + j]), counts)
        systems[s] = partition_table(m, labels, labels, name=s)
    ps = ds.predictions
    groups = getattr(ps, "groups", None)
    rows = PartitionRows(true=codes[:, 0], pred={s: codes[:, 1 + j] for j, s in enumerate(joint.systems)},
                         counts=counts, groups=None if groups is None else np.asarray(groups),
                         n_groups=len(getattr(ps, "group_labels", ()) or ()), group_col=getattr(ps, "group_col", None))
    return StructuredInputs("partition", systems, (), rows=rows)
