"""Similarity of two partitions with arbitrary cluster ids (issue 23, item 3), from their contingency table.

When the labels are cluster ids — two clusterings of the same items, with no correspondence between the ids —
no classification metric applies: renaming the clusters of either side must not change the score. These
indices depend only on the contingency table ``C`` (rows: clusters of the first partition, columns: of the
second; the confusion matrix the one reader counts, empty rows and columns dropped):

* ``adjusted_rand_index`` — the Rand index corrected for chance under the permutation model (Hubert & Arabie
  1985): ``(N11 − A·B/N) / (½(A + B) − A·B/N)`` with ``N11 = Σ C(c_ij, 2)``, ``A = Σ C(a_i, 2)``,
  ``B = Σ C(b_j, 2)``, ``N = C(n, 2)``;
* ``adjusted_mutual_info`` — mutual information corrected for chance, normalised by the arithmetic mean of the
  two entropies (Vinh, Epps & Bailey 2010; scikit-learn's default);
* ``pair_correlation`` — the Pearson correlation of the two pair indicators (is a pair of items in one cluster?),
  ``(N·N11 − A·B) / √(A·B·(N − A)·(N − B))``, with its correlation distance ``arccos(CC)/π``
  (``pair_correlation_distance``). Gösgens, Tikhonov & Prokhorenkova (2021, ICML) find it the only pair-counting
  index that is both monotone and has an (asymptotically) constant baseline; ARI has the constant baseline but
  is not monotone. So the correlation coefficient is the lead for comparing partitions.

A partition with one cluster (or fewer than two items) has no pair of items apart: every index is 0/0 there and
is refused in one sentence; so is the pair correlation of a partition whose clusters are all single items (no pair
of items together: the pair indicator is constant).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
from scipy.special import gammaln

from .._exceptions import InputError

__all__ = ["PARTITION_METRICS", "contingency_table", "partition_metrics"]

PARTITION_METRICS = ("pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info")


def contingency_table(counts: Any, names: Sequence[str] = ("the partition in y_true", "the partition in y_pred")) -> np.ndarray:
    """The contingency table of a confusion matrix (rows true, columns predicted), empty rows and columns dropped;
    a partition with one cluster refused.

    >>> contingency_table([[2, 0, 0], [0, 0, 0], [1, 0, 3]]).tolist()
    [[2.0, 0.0], [1.0, 3.0]]
    """
    try:
        c = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        c = np.full(1, np.nan)  # not numbers: refused below
    if c.ndim != 2 or np.any(c < 0) or not np.all(np.isfinite(c)):
        raise InputError("counts must be a contingency table: a 2-D table of non-negative counts.")
    c = c[c.sum(1) > 0][:, c.sum(0) > 0]
    n = c.sum()
    if n < 2:
        raise InputError(f"comparing partitions needs at least two items; got {n:g}.")
    for axis, name in ((1, names[0]), (0, names[1])):
        if c.shape[1 - axis] < 2:
            raise InputError(f"{name} has one cluster, so no pair of items is apart and the adjusted Rand index, "
                             "adjusted mutual information and pair correlation are undefined; compare partitions "
                             "with at least two clusters each.")
    return c


_Counts = TypeVar("_Counts", np.ndarray, np.float64)


def _pairs(x: _Counts) -> _Counts:
    return x * (x - 1.0) / 2.0


def _entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def _expected_mutual_info(a: np.ndarray, b: np.ndarray, n: float) -> float:
    """E[MI] under the hypergeometric (permutation) model, Vinh, Epps & Bailey (2010), eq. (24a)."""
    total = 0.0
    lg_n = gammaln(n + 1)
    for ai in a:
        for bj in b:
            lo, hi = max(1.0, ai + bj - n), min(ai, bj)
            if hi < lo:
                continue
            nij = np.arange(lo, hi + 1.0)
            log_p = (gammaln(ai + 1) + gammaln(bj + 1) + gammaln(n - ai + 1) + gammaln(n - bj + 1) - lg_n
                     - gammaln(nij + 1) - gammaln(ai - nij + 1) - gammaln(bj - nij + 1) - gammaln(n - ai - bj + nij + 1))
            total += float(np.sum(nij / n * np.log(n * nij / (ai * bj)) * np.exp(log_p)))
    return total


def partition_metrics(counts: Any, metrics: Sequence[str] | None = None) -> dict[str, float]:
    """The partition indices of a contingency table (or a confusion matrix of cluster ids).

    >>> r = partition_metrics([[5, 1], [1, 5]])
    >>> round(r["adjusted_rand_index"], 4), round(r["pair_correlation"], 4)
    (0.3889, 0.3889)
    """
    ids = list(metrics or PARTITION_METRICS)
    bad = [m for m in ids if m not in PARTITION_METRICS]
    if bad:
        raise InputError(f"{bad[0]!r} is not a partition metric; they are {', '.join(PARTITION_METRICS)}.")
    c = contingency_table(counts)
    a, b, n = c.sum(1), c.sum(0), c.sum()
    n11, pa, pb, pn = _pairs(c).sum(), _pairs(a).sum(), _pairs(b).sum(), _pairs(np.float64(n))
    if (pa == 0 or pb == 0) and {"pair_correlation", "pair_correlation_distance"} & set(ids):
        side = "y_true" if pa == 0 else "y_pred"
        raise InputError(f"the partition in {side} puts every item in a cluster of its own, so no pair of items is "
                         "together and the pair correlation is undefined; compare partitions with at least one "
                         "cluster of two or more items each.")
    out: dict[str, float] = {}
    expected = pa * pb / pn
    cc = (pn * n11 - pa * pb) / np.sqrt(pa * pb * (pn - pa) * (pn - pb)) if pa < pn and pb < pn else np.nan
    if "pair_correlation" in ids:
        out["pair_correlation"] = float(cc)
    if "pair_correlation_distance" in ids:
        out["pair_correlation_distance"] = float(np.arccos(np.clip(cc, -1.0, 1.0)) / np.pi)
    if "adjusted_rand_index" in ids:
        out["adjusted_rand_index"] = float((n11 - expected) / (0.5 * (pa + pb) - expected))
    if "adjusted_mutual_info" in ids:
        nz = c > 0
        mi = float(np.sum(c[nz] / n * np.log(n * c[nz] / np.outer(a, b)[nz])))
        emi = _expected_mutual_info(a, b, n)
        norm = 0.5 * (_entropy(a / n) + _entropy(b / n))
        den = norm - emi
        den = min(den, -np.finfo(float).eps) if den < 0 else max(den, np.finfo(float).eps)
        out["adjusted_mutual_info"] = float((mi - emi) / den)
    return {m: out[m] for m in ids}
