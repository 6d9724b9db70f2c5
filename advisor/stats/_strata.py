r"""Accuracy and area from a sample stratified by the predicted (map) class (Olofsson et al. 2013, 2014).

A land-cover map is checked on a stratified random sample: the pixels mapped as each class form a stratum, a
number of them is drawn from each, and each sample pixel gets a reference label. The counts of the sample are not
the population's: a stratum sampled at a higher rate than its share of the map weighs too much in them. Each
stratum is therefore weighted by its share ``W_j`` of the mapped area, and the error matrix is estimated in
proportions of area (Olofsson et al. 2014, eqs. 4, 9; Card 1982).

Notation (advisor's: rows are the true, reference classes, columns the predicted, map classes; Olofsson's matrices
have the map classes as rows, so each of his formulas is read transposed here):

* ``C_ij`` sample items of reference class ``i`` mapped as ``j``, ``b_j = Σ_i C_ij`` the sample size of stratum
  ``j``, ``W_j`` the share of the mapped area mapped as ``j`` (``Σ_j W_j = 1``).
* estimated cell proportions ``p̂_ij = W_j C_ij / b_j``;
* overall accuracy ``Ô = Σ_j p̂_jj``, user's accuracy ``Û_j = C_jj / b_j``, estimated area proportion of reference
  class ``i`` ``p̂_i = Σ_j p̂_ij``, producer's accuracy ``P̂_i = p̂_ii / p̂_i``;
* standard errors (Olofsson et al. 2014, eqs. 5–7 and 10)::

      V(Ô)   = Σ_j W_j² Û_j (1 − Û_j) / (b_j − 1)
      V(Û_j) = Û_j (1 − Û_j) / (b_j − 1)
      V(P̂_i) = [W_i² (1 − P̂_i)² Û_i (1 − Û_i) / (b_i − 1)
                + P̂_i² Σ_{j≠i} W_j² (C_ij/b_j)(1 − C_ij/b_j) / (b_j − 1)] / p̂_i²
      V(p̂_i) = Σ_j W_j² (C_ij/b_j)(1 − C_ij/b_j) / (b_j − 1)

* 95% intervals ``estimate ± 1.96·SE`` (the normal intervals of the paper), cut to [0, 1], where every value of
  a proportion lies (the cut never excludes the truth). With a total mapped area ``A``, areas are ``A·p̂_i`` with
  standard errors ``A·SE(p̂_i)``.

Every stratum with a positive share needs at least two sample items (a variance needs ``b_j − 1 > 0``); a stratum
with share 0 carries no weight and may be empty. A reference class found nowhere in the sample has estimated area
0 and no producer's accuracy (0/0, NaN).

>>> e = stratified_estimates([[66, 0, 1, 2], [0, 55, 0, 1], [5, 8, 153, 9], [4, 12, 11, 313]],
...                          [0.02, 0.015, 0.32, 0.645])
>>> round(e.overall, 3), round(1.96 * e.overall_se, 3)
(0.947, 0.018)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import values_by_class

__all__ = ["SHARE_TOLERANCE", "StratifiedEstimates", "stratified_estimates"]

#: how far the mapped-area shares may sum from 1 (they are often given rounded, to two or three decimals)
SHARE_TOLERANCE = 1e-3


@dataclass(frozen=True)
class StratifiedEstimates:
    """The area-weighted error matrix and the estimates of Olofsson et al. (2014), in the order of the classes.

    ``proportions[i, j]`` is ``p̂_ij`` (rows reference, columns map) with its standard error ``proportions_se[i, j]``
    ``= W_j √(C_ij/b_j (1 − C_ij/b_j)/(b_j − 1))``; ``users``, ``producers`` and ``area`` are per
    class (``area`` in proportions of the mapped area; ``area_total`` is ``None`` or the total mapped area, by
    which ``areas`` scales them). Each estimate has its standard error (``*_se``) and 95% interval (``*_ci``,
    ``(low, high)`` arrays).
    """

    weights: np.ndarray
    sample_sizes: np.ndarray
    proportions: np.ndarray
    overall: float
    overall_se: float
    users: np.ndarray
    users_se: np.ndarray
    producers: np.ndarray
    producers_se: np.ndarray
    area: np.ndarray
    area_se: np.ndarray
    proportions_se: np.ndarray
    level: float = 0.95
    area_total: float | None = None

    @property
    def quantity(self) -> float:
        """Quantity disagreement (Pontius & Millones 2011): half the summed differences between each class's share of
        the map and its estimated share of the reference, ``½ Σ_g |W_g − p̂_g·|``."""
        return float(0.5 * np.abs(self.proportions.sum(axis=0) - self.proportions.sum(axis=1)).sum())

    @property
    def allocation(self) -> float:
        """Allocation disagreement (Pontius & Millones 2011): ``½ Σ_g 2 min(p̂_·g − p̂_gg, p̂_g· − p̂_gg)``, the
        disagreement a swap of map labels between places could remove; quantity plus allocation is ``1 − Ô``."""
        p = self.proportions
        d = np.diag(p)
        return float(np.minimum(p.sum(axis=0) - d, p.sum(axis=1) - d).sum())

    @property
    def z(self) -> float:
        """The normal quantile of the two-sided intervals (1.96 at 95%)."""
        return NormalDist().inv_cdf(0.5 + self.level / 2.0)

    def _ci(self, est: Any, se: Any) -> tuple[Any, Any]:
        lo = np.clip(np.asarray(est) - self.z * np.asarray(se), 0.0, 1.0)
        hi = np.clip(np.asarray(est) + self.z * np.asarray(se), 0.0, 1.0)
        return (float(lo), float(hi)) if np.ndim(lo) == 0 else (lo, hi)

    @property
    def overall_ci(self) -> tuple[float, float]:
        return self._ci(self.overall, self.overall_se)

    @property
    def users_ci(self) -> tuple[np.ndarray, np.ndarray]:
        return self._ci(self.users, self.users_se)

    @property
    def producers_ci(self) -> tuple[np.ndarray, np.ndarray]:
        return self._ci(self.producers, self.producers_se)

    @property
    def area_ci(self) -> tuple[np.ndarray, np.ndarray]:
        return self._ci(self.area, self.area_se)

    @property
    def areas(self) -> np.ndarray | None:
        """The estimated area of each reference class (None without a total mapped area)."""
        return None if self.area_total is None else self.area * self.area_total


def _weights(shares: Any, k: int, labels: Sequence[Any] | None) -> np.ndarray:
    if hasattr(shares, "items"):
        if labels is None:
            raise InputError("map_shares as a mapping needs the class names (labels) to order them.")
        values: list[Any] = values_by_class(shares, labels, "map_shares", "no share for class {label!r}; give the "
                                            "mapped-area share of every class (0 for a class the map never shows)")
    else:
        values = list(np.asarray(shares, dtype=object).reshape(-1))
    try:
        w = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("map_shares must be numbers, one share of the mapped area per class.") from None
    if w.shape != (k,):
        raise InputError(f"map_shares has {w.size} shares for {k} classes; give one share per class.")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InputError(f"map_shares must be finite shares ≥ 0; got {w.tolist()!r}.")
    if abs(float(w.sum()) - 1.0) > SHARE_TOLERANCE:
        raise InputError(f"map_shares must sum to 1 (shares of the mapped area); they sum to {float(w.sum()):g}.")
    return w / w.sum()


def stratified_estimates(counts: Any, shares: Any, labels: Sequence[Any] | None = None, *,
                         area_total: float | None = None, level: float = 0.95) -> StratifiedEstimates:
    """The stratified estimates of a sample drawn by map class (see the module docstring).

    ``counts`` is the sample's k×k confusion matrix (rows reference, columns map class); ``shares`` the mapped-area
    share of each map class (a mapping by class name with ``labels``, or k numbers in the order of the columns),
    summing to 1 within :data:`SHARE_TOLERANCE`.
    """
    c = np.asarray(counts, dtype=np.float64)
    if c.ndim != 2 or c.shape[0] != c.shape[1] or c.shape[0] < 2:
        raise InputError(f"the sample's confusion matrix must be k×k with k ≥ 2; got shape {c.shape}.")
    if not np.all(np.isfinite(c)) or np.any(c < 0):
        raise InputError("the sample's counts must be finite numbers ≥ 0.")
    k = c.shape[0]
    w = _weights(shares, k, labels)
    if not (0.0 < level < 1.0):
        raise InputError(f"level must be strictly between 0 and 1; got {level!r}.")
    if area_total is not None and not (np.isfinite(area_total) and area_total > 0):
        raise InputError(f"the total mapped area must be a positive number; got {area_total!r}.")
    b = c.sum(axis=0)
    short = [j for j in range(k) if w[j] > 0 and b[j] < 2]
    if short:
        j = short[0]
        name = labels[j] if labels is not None else j
        raise InputError(f"the sample has {b[j]:g} item{'s' if b[j] != 1 else ''} mapped as {name!r}, whose share of "
                         f"the map is {w[j]:g}; a stratified estimate needs at least two sample items in every "
                         "stratum with a positive share.")
    live = b > 0
    safe_b = np.where(live, b, 1.0)
    q = c / safe_b  # C_ij / b_j: the share of stratum j's sample in reference class i
    p = q * w  # p̂_ij
    var_q = np.where(live, q * (1.0 - q) / np.where(live, safe_b - 1.0, 1.0), 0.0)  # per cell, per stratum
    users = np.where(live, np.diag(q), np.nan)
    users_var = np.diag(var_q)
    overall = float(np.trace(p))
    overall_var = float(np.sum(w ** 2 * np.where(live, users_var, 0.0)))
    area = p.sum(axis=1)
    area_var = (w ** 2 * var_q).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        producers = np.diag(p) / area
        others = (w ** 2 * var_q).sum(axis=1) - w ** 2 * np.diag(var_q)  # Σ_{j≠i} W_j² V(C_ij/b_j)
        own = w ** 2 * (1.0 - producers) ** 2 * np.where(live, users_var, 0.0)
        producers_var = (own + producers ** 2 * others) / area ** 2
    return StratifiedEstimates(
        weights=w, sample_sizes=b, proportions=p, overall=overall, overall_se=float(np.sqrt(overall_var)),
        users=users, users_se=np.where(live, np.sqrt(users_var), np.nan), producers=producers,
        producers_se=np.sqrt(producers_var), area=area, area_se=np.sqrt(area_var),
        proportions_se=np.sqrt(w ** 2 * var_q), level=level,
        area_total=None if area_total is None else float(area_total))
