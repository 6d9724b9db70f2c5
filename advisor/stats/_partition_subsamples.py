r"""Subsampling intervals for the partition indices: ``m`` of the ``n`` resampled units drawn without replacement
(m-out-of-n subsampling; Politis & Romano 1994; Politis, Romano & Wolf 1999), measured in
``benchmarks/bench_partition_intervals.py`` as the remedy for the bias that copies put into a bootstrap resample of
a mutual-information index (a subsample holds no copies).

**The rate.** For a root-n statistic, ``√n (θ̂_n − θ)`` is approximated by ``√m (θ̂_m − θ̂_n)`` over the subsamples
(Politis & Romano 1994), so the interval is ``θ̂_n − √(m/n)·q`` with ``q`` the quantiles of ``θ̂_m − θ̂_n``. That
scaling holds as ``m/n → 0``; a subsample drawn without replacement from the test set itself varies around it
with variance ``σ²(1/m − 1/n)``, not ``σ²/m``, so at a fixed fraction the deviations are rescaled by
``√(m/(n − m))`` (the finite-population factor, as in the delete-d jackknife; Shao & Wu 1989), which is 1 at
``m = n/2``. Both are offered (``scaling="rate"`` or ``"finite"``) so that the benchmark measures each.

**The interval** is the basic (reverse-percentile) one, ``[θ̂ − s·q_{1−α/2}, θ̂ − s·q_{α/2}]``: the subsamples'
mean deviation carries the estimate's bias where it falls as ``1/n`` (at ``m = n/2`` its mean is ``bias(n/2) −
bias(n) = bias(n)``), so the interval moves by it. An interval that would not contain its estimate is not given,
as everywhere in advisor.

Units: items, or — with a group column — whole groups, as the bootstrap resamples them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import PARTITION_METRICS, PartitionRows
from ._partitions import _check, _System

__all__ = ["SCALINGS", "partition_subsamples", "subsampling_intervals"]

#: How the subsamples' deviations are scaled to the test set's size: Politis & Romano's rate ``√(m/n)``, or the
#: rate with the finite-population factor, ``√(m/(n − m))``.
SCALINGS = ("rate", "finite")


def _subsample_masses(rows: PartitionRows, m: int, n_subsamples: int, rng: np.random.Generator) -> np.ndarray:
    """``(n_subsamples, rows)``: each row's items in a subsample of ``m`` units drawn without replacement."""
    counts = np.asarray(rows.counts, dtype=np.float64)
    if rows.groups is not None:
        groups, k = np.asarray(rows.groups), int(rows.n_groups)
        out = np.empty((n_subsamples, counts.size))
        for i in range(n_subsamples):
            keep = np.zeros(k, dtype=bool)
            keep[rng.choice(k, m, replace=False)] = True
            out[i] = np.where(keep[groups], counts, 0.0)
        return out
    whole = np.round(counts).astype(np.int64)
    return rng.multivariate_hypergeometric(whole, m, size=n_subsamples).astype(np.float64)


def partition_subsamples(rows: PartitionRows, metrics: Sequence[str] | None = None, *, size: int,
                         n_subsamples: int = 2000, seed: Any = None) -> dict[str, np.ndarray]:
    """``{system: (n_subsamples, metrics)}``: the indices of subsamples of ``size`` units (items, or groups) drawn
    without replacement, every system on the same subsamples.

    >>> rows = PartitionRows(true=np.array([0, 0, 1, 1]), pred={"a": np.array([0, 1, 0, 1])},
    ...                      counts=np.array([30., 5., 4., 25.]))
    >>> partition_subsamples(rows, ["adjusted_rand_index"], size=32, n_subsamples=3, seed=1)["a"].shape
    (3, 1)
    """
    ids = list(metrics or PARTITION_METRICS)
    if not 1 < size < rows.units:
        raise ValueError(f"a subsample holds between 2 and {rows.units - 1} units; got {size}.")
    masses = _subsample_masses(rows, int(size), int(n_subsamples), np.random.default_rng(seed))
    return {s: _System(rows, s).evaluate(masses, ids) for s in rows.pred}


def subsampling_intervals(rows: PartitionRows, metrics: Sequence[str] | None = None, *, fraction: float = 0.5,
                          scaling: str = "finite", n_subsamples: int = 2000, confidence: float = 0.95,
                          seed: Any = None) -> dict[str, dict[str, dict[str, Any]]]:
    """``{system: {id: {"estimate", "low", "high", "method"[, "reason"]}}}``: the basic interval of subsamples of
    ``fraction`` of the units drawn without replacement, their deviations from the estimate scaled as ``scaling``
    says (see the module's text).

    >>> rows = PartitionRows(true=np.array([0, 0, 1, 1, 2]), pred={"a": np.array([0, 1, 0, 1, 1])},
    ...                      counts=np.array([30., 5., 4., 25., 20.]))
    >>> r = subsampling_intervals(rows, ["adjusted_mutual_info"], n_subsamples=500, seed=1)["a"]
    >>> r["adjusted_mutual_info"]["low"] <= r["adjusted_mutual_info"]["estimate"] <= r["adjusted_mutual_info"]["high"]
    True
    """
    if scaling not in SCALINGS:
        raise ValueError(f"scaling is one of {', '.join(SCALINGS)}; got {scaling!r}.")
    ids = _check(rows, metrics or PARTITION_METRICS, n_subsamples, confidence)
    n = rows.units
    m = int(round(fraction * n))
    m = min(max(m, 2), n - 1)
    s = np.sqrt(m / n) if scaling == "rate" else np.sqrt(m / (n - m))
    base = np.asarray(rows.counts, dtype=np.float64)[None]
    values = partition_subsamples(rows, ids, size=m, n_subsamples=n_subsamples, seed=seed)
    alpha = 1.0 - confidence
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, v in values.items():
        point = _System(rows, name).evaluate(base, ids)[0]
        out[name] = {}
        for j, metric in enumerate(ids):
            est = float(point[j])
            dev = v[:, j] - est
            dev = dev[np.isfinite(dev)]
            row: dict[str, Any] = {"estimate": est, "low": float("nan"), "high": float("nan"),
                                   "method": f"subsampling ({scaling})"}
            if dev.size >= 2 and np.isfinite(est):
                lo, hi = est - s * np.quantile(dev, 1 - alpha / 2), est - s * np.quantile(dev, alpha / 2)
                if lo <= est <= hi:
                    row["low"], row["high"] = float(lo), float(hi)
                else:
                    row["reason"] = "the interval would not contain the estimate"
            else:
                row["reason"] = "too few subsamples with a value"
            out[name][metric] = row
    return out
