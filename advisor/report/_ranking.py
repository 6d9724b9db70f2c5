"""Rank agreement of the metrics from point estimates (moved out of :mod:`._build` to keep it short)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..catalogue import lower_is_better
from ..stats import average_ranks, kendall_tau_b, spearman_rho
from ._models import RankingData, SystemReport

__all__ = ["_point_ranking"]


def _point_ranking(reports: Sequence[SystemReport], ids: Sequence[str]) -> RankingData | None:
    """Rank agreement from point estimates, when no paired comparison was run."""
    import numpy as np

    ids = [m for m in ids if all(r.values.get(m) is not None for r in reports)]
    if len(ids) < 2:
        return None
    pts = np.array([[r.values[m] for r in reports] for m in ids], dtype=float)
    sign = np.array([-1.0 if m in lower_is_better() else 1.0 for m in ids])[:, None]
    ranks = average_ranks(pts * sign)

    def clean(a: Any) -> list[list[float | None]]:
        return [[None if not np.isfinite(x) else float(x) for x in row] for row in np.asarray(a)]

    return RankingData(metrics=list(ids), kendall=clean(kendall_tau_b(ranks)), spearman=clean(spearman_rho(ranks)))
