r"""The jackknife behind BCa's acceleration, over the resampling unit.

``a = Σ_g w_g (θ̄ − θ₍g₎)³ / (6 [Σ_g w_g (θ̄ − θ₍g₎)²]^{3/2})`` with ``θ₍g₎`` the statistic without unit
(or group of units) ``g`` and ``θ̄`` their weighted mean (Efron & Tibshirani 1993, eq. 14.15).

* **Exactly**, one deletion per unit: items of one confusion-matrix cell are interchangeable, so a
  table needs one evaluation per non-zero cell, weighted by the cell's count
  (:func:`advisor.stats._bootstrap.jackknife_acceleration`); item-level outputs need one per item.
* **Grouped** (delete-a-group jackknife; Efron & Tibshirani 1993, §11.5; Shao & Tu 1995, §2.3), for
  large inputs: the units are dealt at random into :data:`GROUPS` groups and each group is deleted
  once. Deleting ``m`` units changes a smooth statistic by about the sum of their single deletions,
  so the group differences have the same standardised skewness and the estimate of ``a`` is
  consistent; its standard error is about ``1/(√6 G)`` (0.002 for 200 groups), small beside the
  values of ``a`` that change an interval (``|a| ≳ 0.01``, reached below a few thousand items). The
  deal uses a fixed seed of its own, so the acceleration — and the interval — do not depend on the
  bootstrap seed's stream nor on the order of the rows.

Exact below :data:`EXACT_UNITS` units (cells or items), grouped above.

With resampled groups (patients, speakers, records) the same deletions also give the interval itself,
:func:`jackknife_t`: the delete-one-group jackknife's standard error with ``t`` critical values on ``G − 1``
degrees of freedom (Cameron & Miller 2015, §VI). benchmarks/README.md (``bench_few_groups_methods.py``) measured
why: with 5–22 groups BCa from resampled groups covered 0.80–0.93, this interval 0.91–0.95.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.special import stdtr, stdtrit

__all__ = ["EXACT_UNITS", "GROUPS", "acceleration", "cells_acceleration", "deletions", "group_counts", "item_groups",
           "jackknife_p_value", "jackknife_se", "jackknife_t", "leave_out_values"]

#: Units (non-zero cells, items) up to which every unit is deleted once.
EXACT_UNITS = 1000
#: Groups of the grouped jackknife above that.
GROUPS = 200
_DEAL_SEED = 20_200_714  # the deal of units into groups: fixed, independent of the bootstrap seed


def acceleration(theta: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """BCa's acceleration per column of the leave-out values ``theta`` (deletions, columns).

    Deletions whose value is not finite are left out; a column with fewer than two finite values or
    none that differ gets 0.

    >>> acceleration(np.array([[1.0], [1.0], [4.0]])).round(3).tolist()
    [-0.068]
    """
    theta = np.atleast_2d(np.asarray(theta, dtype=np.float64))
    w = np.ones(theta.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    out = np.zeros(theta.shape[1])
    for j in range(theta.shape[1]):
        good = np.isfinite(theta[:, j])
        if good.sum() < 2:
            continue
        ww, th = w[good], theta[good, j]
        d = np.sum(ww * th) / ww.sum() - th
        s2 = np.sum(ww * d**2)
        if s2 <= 1e-300:
            continue
        out[j] = np.sum(ww * d**3) / (6.0 * s2**1.5)
    return out


def group_counts(masses: np.ndarray, groups: int = GROUPS) -> np.ndarray:
    """Each cell's whole items dealt at random into ``groups`` groups: counts of shape (groups, cells).

    A cell's items go to the groups as a multinomial draw with equal shares (the groups' sizes then vary
    a little around ``n / groups``, which the jackknife does not need to be equal).
    """
    rng = np.random.default_rng(_DEAL_SEED)
    whole = np.round(np.asarray(masses, dtype=np.float64)).astype(np.int64)
    return rng.multinomial(whole, np.full(groups, 1.0 / groups)).T.astype(np.float64)


def item_groups(n: int, groups: int = GROUPS) -> np.ndarray:
    """The group of each of ``n`` items (a fixed random deal, ``n // groups`` or one more each)."""
    rng = np.random.default_rng(_DEAL_SEED)
    return rng.permutation(np.arange(n) % groups)


def deletions(base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(masses removed per deletion (deletions, cells), weight of each deletion)`` for a table's cells.

    Up to :data:`EXACT_UNITS` cells, one item (a mass of at most 1) leaves each cell once, weighted by
    the cell's items; above, :data:`GROUPS` random groups of items leave in turn (a soft mass is dealt
    in proportion to its rounded-up count).
    """
    base = np.asarray(base, dtype=np.float64)
    if base.shape[0] <= EXACT_UNITS:
        unit = np.minimum(1.0, base)
        return np.diag(unit), base / np.where(unit > 0, unit, 1.0)
    whole = np.ceil(base)
    return group_counts(whole) * (base / np.where(whole > 0, whole, 1.0)), np.ones(GROUPS)


def leave_out_values(base: np.ndarray, columns: int, evaluate: Callable[[np.ndarray], np.ndarray],
                     chunk: int, groups: tuple[np.ndarray, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(θ₍g₎ (deletions, columns), weights)``: ``evaluate(masses)`` gives the columns of a batch of
    masses over the table's cells (rows of the batch, columns); deletions that empty the table are NaN.
    ``groups`` = (group of each cell, number of groups): delete whole groups (:mod:`._clusters`) instead."""
    base = np.asarray(base, dtype=np.float64)
    if groups is None:
        out, weights = deletions(base)
        count = out.shape[0]

        def removed(start: int, stop: int) -> np.ndarray:
            return out[start:stop]
    else:
        of_cell, n_groups = groups
        deal = np.arange(n_groups) if n_groups <= EXACT_UNITS else item_groups(n_groups)
        count = n_groups if n_groups <= EXACT_UNITS else GROUPS
        weights, of_cell = np.ones(count), deal[of_cell]

        def removed(start: int, stop: int) -> np.ndarray:
            return np.where(of_cell[None, :] == np.arange(start, stop)[:, None], base[None, :], 0.0)
    theta = np.full((count, columns), np.nan)
    step = max(1, int(chunk))
    for start in range(0, count, step):
        stop = min(count, start + step)
        masses = base[None, :] - removed(start, stop)
        ok = masses.sum(axis=-1) > 0
        if ok.any():
            block = theta[start:stop]
            block[ok] = evaluate(masses[ok])
    return theta, weights


def cells_acceleration(base: np.ndarray, ids: list[str], evaluate: Callable[[np.ndarray], dict[str, np.ndarray]],
                       chunk: int) -> np.ndarray:
    """BCa's acceleration of every metric of a table (``base``: the masses of its non-zero cells;
    ``evaluate(masses)`` → ``{id: values}`` for a batch of masses over them; see :func:`deletions`)."""
    def columns(masses: np.ndarray) -> np.ndarray:
        vals = evaluate(masses)
        return np.column_stack([np.asarray(vals[m], dtype=np.float64) for m in ids])

    theta, weights = leave_out_values(base, len(ids), columns, chunk)
    return acceleration(theta, weights)


def jackknife_se(theta: np.ndarray) -> tuple[float, int]:
    """``(standard error, deletions used)`` of the delete-one-group jackknife from the leave-out values ``theta``
    (deletions,): ``SE² = (d − 1)/d · Σ_g (θ₍g₎ − θ̄)²`` over the ``d`` deletions (Efron & Tibshirani 1993,
    eq. 11.5; Cameron & Miller 2015's CV3 variance). NaN with fewer than two deletions, and NaN where any deletion
    leaves the statistic undefined (or infinite): the jackknife's variance is a sum over every deletion, so one
    cannot be dropped — the rest, rescaled as if they were all, would understate it (the s35 sarcasm reader). The
    count returned is that of the finite deletions.

    >>> round(jackknife_se(np.array([0.7, 0.8, 0.9]))[0], 4), jackknife_se(np.array([0.5]))[1]
    (0.1155, 1)
    >>> jackknife_se(np.array([0.7, np.nan, 0.9]))
    (nan, 2)
    """
    th = np.asarray(theta, dtype=np.float64)
    finite = np.isfinite(th)
    d = int(finite.sum())
    if d < 2 or d < th.size:
        return float("nan"), d
    return float(np.sqrt((d - 1) / d * np.sum((th - th.mean()) ** 2))), d


def jackknife_t(theta: np.ndarray, estimate: float, confidence: float,
                bounds: tuple[float, float] = (-np.inf, np.inf)) -> tuple[float, float, str | None]:
    """``(low, high, reason)``: ``θ̂ ± t_{1−α/2, d−1} · SE`` (:func:`jackknife_se`), kept inside ``bounds``; it is
    symmetric around the estimate, so it always contains it. NaN ends with the reason where it cannot be given.

    >>> lo, hi, _ = jackknife_t(np.array([0.7, 0.8, 0.9]), 0.8, 0.95)
    >>> round(lo, 3), round(hi, 3)
    (0.303, 1.297)
    >>> jackknife_t(np.array([0.7, 0.8, 0.9]), 0.8, 0.95, (0.0, 1.0))[1]
    1.0
    """
    nan = float("nan")
    if not np.isfinite(estimate):
        return nan, nan, "the estimate is undefined"
    se, d = jackknife_se(theta)
    if d < np.asarray(theta).size:
        return nan, nan, "leaving out one of the groups makes it undefined, so the jackknife gives no standard error"
    if d < 2 or not np.isfinite(se):
        return nan, nan, "fewer than two groups leave a defined value when one is left out"
    if se == 0.0:
        return nan, nan, (f"leaving out any one group gives the same value ({estimate:.4g}), so the jackknife cannot "
                          "measure its uncertainty")
    half = float(stdtrit(d - 1, 0.5 + confidence / 2.0)) * se
    return max(estimate - half, bounds[0]), min(estimate + half, bounds[1]), None


def jackknife_p_value(theta: np.ndarray, observed: float) -> float:
    """Two-sided p-value of a paired difference ``observed`` with leave-out values ``theta``: ``2 (1 − T_{d−1}(|d̂| /
    SE))``, the test that goes with :func:`jackknife_t`. A difference with no spread is 0 when it is not 0, 1 otherwise.

    >>> round(jackknife_p_value(np.array([0.1, 0.2, 0.3, 0.2]), 0.2), 4)
    0.201
    """
    se, d = jackknife_se(theta)
    if not np.isfinite(observed) or d < 2 or not np.isfinite(se):
        return 1.0
    if se == 0.0:
        return 1.0 if observed == 0 else 0.0
    return float(2.0 * stdtr(d - 1, -abs(observed) / se))
