"""Evaluating a structured input (ordinal cells, label sets, top-k scores, ratings, a judge against raters) under
item weights."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import (
    HIERARCHY_BESIDE,
    NOMINAL_BESIDE,
    OrdinalCells,
    HierarchyCells,
    JudgeRatings,
    LabelSets,
    Ratings,
    evaluate_agreement_batch,
    evaluate_hierarchy_batch,
    evaluate_judge_batch,
    evaluate_multilabel_batch,
    evaluate_ordinal_batch,
    hierarchy_with_counts,
    nominal_beside,
    top_k_hits,
    with_counts,
)

__all__ = ["_size", "_weighted", "cells_evaluator", "whole_credits"]


def cells_evaluator(cells: Any, ids: Sequence[str], undefined: str) -> tuple[Any, Any]:
    """``(evaluate(cells) → {id: values}, with_counts)`` of ordinal or hierarchy cells: the metrics of a batch of
    counts over the non-zero cells of a confusion matrix, and how to put other counts (and cells) in."""
    flat = HIERARCHY_BESIDE if isinstance(cells, HierarchyCells) else NOMINAL_BESIDE
    own = [m for m in ids if m not in flat]

    def evaluate(c: Any) -> dict[str, np.ndarray]:
        out = evaluate_hierarchy_batch(c, own) if isinstance(c, HierarchyCells) else \
            evaluate_ordinal_batch(c, own, undefined)
        return {**out, **{m: v for m, v in nominal_beside(c, flat, undefined).items() if m in ids}}

    return evaluate, hierarchy_with_counts if isinstance(cells, HierarchyCells) else with_counts


def _size(data: Any) -> int:
    if isinstance(data, LabelSets):
        return data.y_true.shape[0]
    if isinstance(data, Ratings):
        return data.counts.shape[0]
    if isinstance(data, JudgeRatings):
        return data.ratings.counts.shape[0]
    if isinstance(data, (OrdinalCells, HierarchyCells)):  # the cells (a group per cell, resampled whole)
        return len(data.counts)
    return len(data[1])


def _weighted(data: Any, ids: Sequence[str], w: np.ndarray, undefined: str, top_k: int | None) -> dict[str, np.ndarray]:
    if isinstance(data, LabelSets):
        return evaluate_multilabel_batch(data, ids, w, undefined)
    if isinstance(data, Ratings):
        return evaluate_agreement_batch(data, ids, w, undefined)
    if isinstance(data, JudgeRatings):  # the judge against the humans: every pair on the same resampled items
        return evaluate_judge_batch(data, ids, w, undefined)
    scores, y, _ = data
    out = {}
    for m in ids:
        k = top_k if m == "top_k_accuracy" else 1
        if k is None:
            raise InputError("top_k is required for top-k accuracy (--top-k K).")
        hits = top_k_hits(scores, y, k)
        out[m] = (w @ hits) / w.sum(-1)
    return out


def whole_credits(data: Any, metric: str, top_k: int | None) -> bool:
    """Whether every item counts 0 or 1 towards the share ``metric``, so that its count is a whole number of items.

    Top-k scores give an item a fraction of a hit when its true class ties with other classes at the cut-off
    (:func:`advisor.engine._topk.top_k_hits`; ``accuracy`` is the cut-off 1); the cells of a table count whole items
    when their counts are whole numbers; a label set is exactly right or not.

    >>> whole_credits(([[0.6, 0.3, 0.1], [0.5, 0.5, 0.0]], [0, 1], ("x", "y", "z")), "top_k_accuracy", 2)
    True
    >>> whole_credits(([[0.6, 0.3, 0.1], [0.5, 0.5, 0.0]], [0, 1], ("x", "y", "z")), "accuracy", None)
    False
    """
    if isinstance(data, (OrdinalCells, HierarchyCells)):
        counts = np.asarray(data.counts, dtype=np.float64)
        return bool(np.all(counts == np.round(counts)))
    if isinstance(data, (LabelSets, Ratings, JudgeRatings)):
        return True
    scores, y, _ = data
    k = top_k if metric == "top_k_accuracy" else 1
    if k is None:
        return False
    hits = top_k_hits(scores, y, k)
    return bool(np.all((hits == 0.0) | (hits == 1.0)))
