"""Ranks of systems and the agreement of the rankings different metrics give (Opitz (2024), Figure 1)."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from ..engine import LOWER_IS_BETTER
from ._compare_models import RankingAgreement, _num

__all__ = ["average_ranks", "kendall_tau_b", "ranking_agreement", "spearman_rho"]


def average_ranks(scores: np.ndarray) -> np.ndarray:
    """Ranks along the last axis, 1 = highest score; ties share the average rank.

    >>> average_ranks(np.array([0.3, 0.9, 0.3])).tolist()
    [2.5, 1.0, 2.5]
    """
    x = np.asarray(scores, dtype=np.float64)
    gt = (x[..., None, :] > x[..., :, None]).sum(axis=-1)
    eq = (x[..., None, :] == x[..., :, None]).sum(axis=-1)
    return 1.0 + gt + 0.5 * (eq - 1)


def _corr_matrix(z: np.ndarray, norms: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (z @ z.T) / np.sqrt(np.outer(norms, norms))
    ok = norms > 0
    out[~(ok[:, None] & ok[None, :])] = np.nan
    return np.clip(out, -1.0, 1.0)


def spearman_rho(rankings: np.ndarray) -> np.ndarray:
    """Spearman's ρ between the rows of ``rankings`` (variables × observations), ties averaged.

    It is the Pearson correlation of the average ranks; NaN where a row is constant.

    >>> spearman_rho(np.array([[1, 2, 3, 4], [1, 3, 2, 4], [4, 3, 2, 1]])).round(2).tolist()
    [[1.0, 0.8, -1.0], [0.8, 1.0, -0.8], [-1.0, -0.8, 1.0]]
    """
    r = average_ranks(np.asarray(rankings, dtype=np.float64))
    z = r - r.mean(axis=-1, keepdims=True)
    return _corr_matrix(z, (z**2).sum(axis=-1))


def kendall_tau_b(rankings: np.ndarray) -> np.ndarray:
    r"""Kendall's τ_b between the rows of ``rankings`` (variables × observations).

    ``τ_b = Σ_{i<j} s_x s_y / √(Σ s_x² · Σ s_y²)`` with ``s_x = sign(x_i − x_j)``: concordant minus
    discordant pairs over the geometric mean of the untied pairs of each variable (Kendall 1945).
    NaN where a row is constant.

    >>> kendall_tau_b(np.array([[1, 2, 3, 4], [1, 3, 2, 4]])).round(4).tolist()
    [[1.0, 0.6667], [0.6667, 1.0]]
    """
    x = np.asarray(rankings, dtype=np.float64)
    iu = np.triu_indices(x.shape[-1], k=1)
    s = np.sign(x[:, iu[0]] - x[:, iu[1]])
    return _corr_matrix(s, (s**2).sum(axis=-1))


def ranking_agreement(ids: list[str], systems: list[str], points: np.ndarray,
                       lower: Collection[str] = LOWER_IS_BETTER) -> RankingAgreement:
    """``points`` (metrics, systems) → rank correlations between the metrics' rankings (``lower``: ids where lower is better)."""
    oriented = np.where([[m in lower] for m in ids], -points, points)
    ranks = average_ranks(oriented)
    undefined = np.isnan(points).any(axis=1)
    ranks[undefined] = np.nan
    m = len(systems)
    notes = []
    if m < 2:
        notes.append("fewer than two systems: there is no ranking to compare.")
        rho = tau = np.full((len(ids), len(ids)), np.nan)
    else:
        score = np.where(undefined[:, None], 0.0, -ranks)  # placeholder rows for undefined metrics
        rho, tau = spearman_rho(score), kendall_tau_b(score)
        rho[undefined, :] = rho[:, undefined] = np.nan
        tau[undefined, :] = tau[:, undefined] = np.nan
        if m == 2:
            notes.append(
                "with two systems a ranking is a single comparison, so each coefficient is +1 (same "
                "winner), −1 (opposite winners) or undefined (a tie)."
            )
        if np.any(undefined):
            notes.append(
                "metrics undefined for some system have no ranking: "
                + ", ".join(i for i, u in zip(ids, undefined) if u) + "."
            )
        tied = [i for i, r in zip(ids, ranks) if not np.isnan(r).any() and np.ptp(r) == 0]
        if tied:
            notes.append("metrics that tie every system have undefined correlations: " + ", ".join(tied) + ".")
    return RankingAgreement(
        metrics=ids,
        ranks={mid: {s: _num(ranks[i, j]) for j, s in enumerate(systems)} for i, mid in enumerate(ids)},
        spearman=[[_num(v) for v in row] for row in rho],
        kendall=[[_num(v) for v in row] for row in tau],
        note=" ".join(notes) or None,
    )
