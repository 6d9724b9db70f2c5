"""Score aggregates of a Spark DataFrame: ``groupBy(true label, score)`` counts, collected as weighted items.

A binary ``score`` column (any real number, higher = more positive) or the probability columns
``p_<label>`` are grouped with the true label on the cluster: each distinct (true label, score) — or
(true label, probability vector) — comes home once with its count. Exact ties are kept (a tie is one
group), so ROC AUC, average precision, the binary Brier score and the equal-mass ECE computed from
these weighted items by :func:`advisor.engine._score_eval.score_metrics` equal those of the items
themselves (the ECE's bins keep tied confidences together, so it does not depend on the row order). With continuous scores there
are about as many groups as rows: exactness needs every distinct score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..io import SCORE_COLUMN, ScoredFile

__all__ = ["CountedScores", "count_scores"]

_WHAT = "the Spark DataFrame"


@dataclass
class CountedScores(ScoredFile):
    """A :class:`~advisor.io._scores.ScoredFile` of distinct rows; ``weights`` counts the items of each."""

    weights: np.ndarray | None = None


def count_scores(df: Any, true_label: Any, cols: list[tuple[str, str]]) -> CountedScores | None:
    """The weighted items of the ``score`` column, or of the probability columns ``cols`` (label, column).

    ``true_label`` is the Spark expression of the true-label text (as for the counts). Returns None when
    there is neither a ``score`` column nor probability columns; both at once is an error, as locally.
    """
    from pyspark.sql import functions as F

    score = SCORE_COLUMN in df.columns
    if score and cols:
        raise InputError(f"{_WHAT} has both probability columns (p_<label>) and a {SCORE_COLUMN!r} column; keep one.")
    if not score and not cols:
        return None
    names = [SCORE_COLUMN] if score else [c for _, c in cols]
    values = [F.col(f"`{c}`").cast("double").alias(f"s{j}") for j, c in enumerate(names)]
    rows = df.groupBy(true_label.alias("t0"), *values).agg(F.count(F.lit(1)).alias("n")).collect()
    data = np.array([[np.nan if r[f"s{j}"] is None else r[f"s{j}"] for j in range(len(names))] for r in rows],
                    dtype=np.float64).reshape(len(rows), len(names))
    weights = np.array([r["n"] for r in rows], dtype=np.float64)
    bad = ~np.isfinite(data)
    if bad.any():
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        raise InputError(f"{_WHAT} has {int(weights[bad[:, j]].sum())} rows whose column {names[j]!r} is missing or "
                         "not a finite number (NaN); every item needs one.")
    y = [str(r["t0"]) for r in rows]
    if score:
        return CountedScores(y, None, None, [], data[:, 0], weights)
    return CountedScores(y, None, data, [lab for lab, _ in cols], None, weights)
