"""Evaluating a structured input (ordinal cells, label sets, top-k scores, ratings) under item weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import LabelSets, Ratings, evaluate_agreement_batch, evaluate_multilabel_batch, top_k_hits

__all__ = ["_size", "_weighted"]


def _size(data: Any) -> int:
    if isinstance(data, LabelSets):
        return data.y_true.shape[0]
    if isinstance(data, Ratings):
        return data.counts.shape[0]
    return len(data[1])


def _weighted(data: Any, ids: Sequence[str], w: np.ndarray, undefined: str, top_k: int | None) -> dict[str, np.ndarray]:
    if isinstance(data, LabelSets):
        return evaluate_multilabel_batch(data, ids, w, undefined)
    if isinstance(data, Ratings):
        return evaluate_agreement_batch(data, ids, w, undefined)
    scores, y, _ = data
    out = {}
    for m in ids:
        hits = top_k_hits(scores, y, top_k if m == "top_k_accuracy" else 1)
        out[m] = (w @ hits) / w.sum(-1)
    return out
