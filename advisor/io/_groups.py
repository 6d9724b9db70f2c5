"""The checks of a group column (``group=``; issue 20): groups that can be resampled.

Resampling groups (patients, documents, queries) instead of items needs at least two groups, and groups
that hold several items — if every group holds one item, resampling groups is resampling items and the
option changes nothing. Both are one sentence naming the column and the input, before any resampling.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._exceptions import InputError, arg

__all__ = ["check_groups"]


def check_groups(ps: Any, what: str) -> None:
    """Refuse a group column with one group, or one item in every group (one sentence each)."""
    col = ps.group_col
    sizes = np.bincount(np.asarray(ps.groups, dtype=np.int64), weights=np.asarray(ps.joint.counts, dtype=np.float64),
                        minlength=len(ps.group_labels))
    if len(ps.group_labels) < 2:
        only = ps.group_labels[0] if ps.group_labels else None
        raise InputError(f"{arg('group', col)}: every item of {what} is in one group ({only!r}); resampling groups "
                         f"needs at least two — give the column that tells the groups apart, or leave {arg('group')} out.")
    if np.all(sizes <= 1):
        raise InputError(f"{arg('group', col)}: each of the {len(sizes):,} groups in {what} holds a single item, so "
                         "resampling groups is resampling items; give a column that groups several items (a patient, "
                         f"a document), or leave {arg('group')} out.")
