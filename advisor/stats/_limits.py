"""Resource limits of the resampling methods, checked before anything is allocated.

A bootstrap keeps one value per resample and metric (8 bytes each) and does work in proportion to
``resamples × (non-zero cells + classes)``. Both are bounded here so that an absurd request
(``--bootstrap 1000000000``) is refused at once with one sentence naming the limit and the way
around it, instead of running for hours or failing deep inside numpy with a MemoryError. Sizes
under the limits run in chunks of bounded memory (:func:`advisor.stats._bootstrap.chunk_size`).
"""

from __future__ import annotations

import numpy as np

from .._exceptions import InputError, arg

__all__ = ["MAX_VALUES_BYTES", "MAX_WORK", "MIN_TAIL_DRAWS", "check_enough_resamples", "check_resampling", "dense_order_sum",
           "min_resamples"]

#: Resampled values expected beyond each end of an interval at the least: a 95% interval is read from the
#: 2.5% and 97.5% quantiles of the resamples, and from 1 resample (or 20) those are the resample itself —
#: a "95% interval" that can exclude its own estimate.
MIN_TAIL_DRAWS = 5

# The resampled values kept in memory (resamples × metrics × systems × 8 bytes).
MAX_VALUES_BYTES = 1024**3
# resamples × (non-zero cells + classes): 5·10^10 is of the order of an hour of one core.
MAX_WORK = 5 * 10**10
# Sums are taken in the order of the full table (as before the sparse engine) up to this many cells.
_DENSE_ORDER_CELLS = 1 << 22


def check_resampling(n_resamples: int, values_per_resample: int, work_per_resample: int, what: str) -> None:
    """Refuse a resampling whose kept values or total work exceed the limits (one sentence).

    >>> check_resampling(10_000, 20, 1_000, "bootstrap")
    >>> check_resampling(10**9, 20, 4, "bootstrap")
    Traceback (most recent call last):
    ...
    advisor._exceptions.InputError: a bootstrap of 1,000,000,000 resamples would keep 149.0 GiB of resampled values, above the limit of 1 GiB; use fewer resamples (10,000 give stable 95% intervals) or fewer metrics.
    """
    need = 8 * n_resamples * max(values_per_resample, 1)
    if need > MAX_VALUES_BYTES:
        raise InputError(
            f"a {what} of {n_resamples:,} resamples would keep {need / 1024**3:.1f} GiB of resampled values, "
            f"above the limit of {MAX_VALUES_BYTES // 1024**3} GiB; use fewer resamples (10,000 give stable "
            "95% intervals) or fewer metrics."
        )
    work = n_resamples * max(work_per_resample, 1)
    if work > MAX_WORK:
        raise InputError(
            f"a {what} of {n_resamples:,} resamples over {work_per_resample:,} cells and classes each is "
            f"{work:.2g} cell evaluations, above the limit of {MAX_WORK:.0e} (about an hour); use fewer "
            "resamples (10,000 give stable 95% intervals)."
        )


def min_resamples(confidence: float) -> int:
    """The fewest resamples for an interval at ``confidence``: :data:`MIN_TAIL_DRAWS` expected in each tail.

    >>> min_resamples(0.95), min_resamples(0.9), min_resamples(0.99)
    (200, 100, 1000)
    """
    tail = (1.0 - float(confidence)) / 2.0
    return int(np.ceil(round(MIN_TAIL_DRAWS / tail, 6)))


def check_enough_resamples(n_resamples: int, confidence: float, name: str = "n_resamples") -> None:
    """Refuse fewer resamples than :func:`min_resamples` asks for this confidence (one sentence naming the
    argument ``name``).

    >>> check_enough_resamples(1, 0.95)
    Traceback (most recent call last):
    ...
    advisor._exceptions.InputError: a 95% bootstrap interval needs at least 200 resamples (n_resamples=), so that about 5 fall beyond each of its ends; got 1 — use 200 or more (10,000 give stable intervals).
    """
    need = min_resamples(confidence)
    if n_resamples < need:
        level = f"{100 * float(confidence):.10g}%"
        raise InputError(
            f"a {level} bootstrap interval needs at least {need:,} resamples ({arg(name)}), so that about "
            f"{MIN_TAIL_DRAWS} fall beyond each of its ends; got {n_resamples:,} — use {need:,} or more (10,000 give "
            "stable intervals)."
        )


def dense_order_sum(values: np.ndarray, positions: np.ndarray | None, size: int) -> float:
    """``values.sum()``, taken in the order of a table of ``size`` cells holding ``values`` at
    ``positions`` (zeros elsewhere) when that table is small.

    Floating-point sums depend on the order; summing as the dense table did keeps the bootstrap's
    cell probabilities — and so its random draws — bit for bit those of the dense engine.
    """
    if positions is None or size > _DENSE_ORDER_CELLS:
        return float(values.sum())
    table = np.zeros(size)
    table[positions] = values
    return float(table.sum())
