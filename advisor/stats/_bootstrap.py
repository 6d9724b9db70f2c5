r"""Bootstrap confidence intervals for every metric, by resampling the confusion matrix's cells.

Resampling ``n`` items i.i.d. from a test set and tabulating them gives a confusion matrix whose cells
follow a multinomial distribution with ``n`` trials and the observed cell proportions
``p_ij = C[i, j] / n``. Drawing that multinomial directly is therefore *exactly* the item-level
(non-parametric) bootstrap. Only the non-zero cells can receive items, so the draw runs over them
(in row-major order, the same random stream as a draw over all ``k²`` cells: numpy's multinomial
skips zero-probability cells without consuming random numbers), at a cost that depends on the number
of non-zero cells rather than on ``n`` or ``k²``; the resamples are then evaluated chunk by chunk
from their cells (:class:`advisor.engine._cells.Cells`) through
:func:`advisor.engine._metrics.evaluate_batch`, in ``O(nnz + k)`` each.

Decisions
---------
* **Non-integer masses** (weighted or soft counts): the number of trials is ``round(n)`` and the
  cell probabilities are the observed proportions; each resample is scaled back to total mass ``n``.
  This treats the total mass as a number of items — exact for integer counts and for frequency
  weights, an approximation otherwise (with importance weights the effective sample size is smaller
  than ``n`` and the intervals come out too narrow).
* **Undefined values**: under ``undefined="omit"`` a resample can give NaN (a scalar metric that is
  itself undefined). Intervals are computed from the defined resamples only, and
  :attr:`BootstrapResult.nan_resamples` says how many were left out per metric.
* **Percentile interval**: the ``α/2`` and ``1 − α/2`` quantiles of the resampled values with
  linear interpolation between order statistics (numpy's default, Hyndman & Fan type 7); infinite
  values (a likelihood ratio with a zero denominator) are ordered like any other value.
* **BCa** (Efron 1987; Efron & Tibshirani 1993, §14.3): bias correction
  ``z₀ = Φ⁻¹(#{θ* < θ̂}/B + ½ #{θ* = θ̂}/B)`` — ties count half, because resampled metrics of
  integer counts often hit the estimate exactly — and acceleration from the jackknife. Leaving one
  item out of a confusion matrix only depends on the cell it came from, so the jackknife needs
  one evaluation per non-zero cell, weighted by the cell counts, instead of ``n``:
  ``a = Σ_c w_c (θ̄ − θ₍c₎)³ / (6 [Σ_c w_c (θ̄ − θ₍c₎)²]^{3/2})`` with ``θ̄ = Σ w_c θ₍c₎ / Σ w_c``.
  A cell with mass below 1 (soft counts) is treated as a single item of that mass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import (
    Cells,
    ConfusionMatrix,
    Label,
    MetricResult,
    ValuesMapping,
    cells_and_labels,
    compute_metrics,
    evaluate_batch,
)
from ._draws import items_of, iter_item_resamples, use_items
from ._limits import check_enough_resamples, check_jackknife, check_resampling, dense_order_sum

__all__ = ["BootstrapResult", "bootstrap"]

METHODS = ("percentile", "bca")

# Upper bound on the float64 values materialised per chunk of resamples (≈ 32 MB per array).
_CHUNK_CELLS = 4_000_000

Progress = Callable[[int, int], None]


# ----------------------------------------------------------------------------------------------
# Argument checks and resampling helpers (shared with the paired comparison)
# ----------------------------------------------------------------------------------------------
def check_arguments(n_resamples: Any, confidence: Any, method: str = "percentile") -> None:
    """Raise a one-sentence :class:`InputError` for an unusable bootstrap argument."""
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise InputError(f"n_resamples must be a whole number ≥ 1; got {n_resamples!r}.")
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, (int, float, np.floating))
        or not 0.0 < float(confidence) < 1.0
    ):
        raise InputError(f"confidence must be a number strictly between 0 and 1 (e.g. 0.95); got {confidence!r}.")
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}; got {method!r}.")
    check_enough_resamples(int(n_resamples), float(confidence))


def make_rng(seed: Any) -> np.random.Generator:
    """A numpy Generator from ``seed``: None, a whole number ≥ 0, a SeedSequence or a Generator.

    Anything else raises a one-sentence :class:`InputError` (numpy's own errors are not user-facing).
    """
    if not isinstance(seed, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence, type(None))):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise InputError(f"seed must be a whole number ≥ 0 (or None for a random seed); got {seed!r}.")
    return np.random.default_rng(seed)


def trials_and_probabilities(
    masses: np.ndarray, what: str, positions: np.ndarray | None = None, size: int = 0
) -> tuple[int, np.ndarray, float]:
    """Number of multinomial trials, cell probabilities and the scale back to the observed mass.

    ``positions`` (with ``size``) place the masses in a larger table of mostly empty cells; sums are
    then taken in that table's order where it is small, so that the probabilities are bit for bit
    those of a draw over the whole table (see :func:`advisor.stats._limits.dense_order_sum`).
    """
    total = dense_order_sum(masses, positions, size)
    if not np.isfinite(total) or total > 2.0**62:
        raise InputError(f"{what} holds a total mass of {total:g}; the bootstrap draws that many items and "
                         "allows at most 2^62 — divide every count by a common factor.")
    trials = int(round(total))
    if trials < 2:
        raise InputError(
            f"{what} holds a total mass of {total:g}; the bootstrap resamples items and needs counts "
            "of at least 2 items, not proportions (a matrix of shares carries no sample size)."
        )
    p = masses.reshape(-1) / total
    return trials, p / dense_order_sum(p, positions, size), total / trials


def drawn_cells(cells: Cells) -> Cells:
    """The cells a bootstrap draws over: the non-zero cells, plus the last cell ``(k−1, k−1)`` with
    mass 0 when it is empty — numpy's multinomial gives its rounding remainder to the last category,
    so this keeps the draws identical to a draw over all ``k²`` cells."""
    k = cells.k
    if cells.nnz and cells.rows[-1] == k - 1 and cells.cols[-1] == k - 1:
        return cells
    return Cells(np.append(cells.rows, k - 1), np.append(cells.cols, k - 1), np.append(cells.w, 0.0), k)


def resample_cells(nnz: int, k: int) -> int:
    """Float64 values one resample needs (its cells and per-class arrays), never more than a dense
    table of ``4 k²``."""
    return 4 * min(k * k, nnz + 4 * k)


def chunk_size(cells_per_resample: int, n_resamples: int) -> int:
    """Resamples per vectorised chunk, bounding the memory of the intermediate arrays."""
    return int(max(1, min(n_resamples, _CHUNK_CELLS // max(cells_per_resample, 1))))


def iter_resamples(
    rng: np.random.Generator,
    trials: int,
    p: np.ndarray,
    n_resamples: int,
    size: int,
    scale: float = 1.0,
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(start, masses)`` with ``masses`` of shape (chunk, cells), drawn chunk by chunk.

    The generator's stream is consumed row by row, so the resamples do not depend on the chunk size.
    """
    for start in range(0, n_resamples, size):
        rows = min(size, n_resamples - start)
        draw = rng.multinomial(trials, p, size=rows)  # whole numbers stay integers (exact, cheap w log w)
        yield start, draw if scale == 1.0 else draw * scale


def quantiles(values: np.ndarray, q: np.ndarray | float) -> np.ndarray:
    """Quantiles along axis 0 ignoring NaN, with linear interpolation (numpy's default method).

    ``q`` broadcasts against ``values.shape[1:]`` (BCa uses a different level per column). Where a
    column has no defined value the result is NaN. Unlike :func:`numpy.nanquantile`, equal infinite
    neighbours give that infinity rather than NaN.

    >>> quantiles(np.array([[1.0], [2.0], [np.nan], [4.0]]), 0.5).tolist()
    [2.0]
    """
    v = np.sort(values, axis=0)  # NaN sorts last
    cnt = (~np.isnan(v)).sum(axis=0)
    q = np.broadcast_to(np.asarray(q, dtype=np.float64), cnt.shape)
    h = np.maximum(cnt - 1, 0) * q
    lo = np.floor(h).astype(np.intp)
    hi = np.minimum(lo + 1, np.maximum(cnt - 1, 0))
    g = h - lo
    vlo = np.take_along_axis(v, lo[None], axis=0)[0]
    vhi = np.take_along_axis(v, hi[None], axis=0)[0]
    with np.errstate(invalid="ignore"):
        val = np.where((g == 0) | (vlo == vhi), vlo, vlo + g * (vhi - vlo))
    return np.where(cnt > 0, val, np.nan)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` percentile interval along axis 0, ignoring NaN."""
    alpha = 1.0 - confidence
    return quantiles(values, alpha / 2), quantiles(values, 1 - alpha / 2)


# ----------------------------------------------------------------------------------------------
# BCa
# ----------------------------------------------------------------------------------------------
_NORMAL = NormalDist()


def _phi(x: np.ndarray) -> np.ndarray:
    return np.vectorize(_NORMAL.cdf, otypes=[float])(x)


def _phi_inv(p: np.ndarray) -> np.ndarray:
    return np.vectorize(_NORMAL.inv_cdf, otypes=[float])(p)


def jackknife_acceleration(
    counts: Any, ids: Sequence[str], *, positive_index: int | None, beta: float, undefined: str,
    class_weights: np.ndarray | None = None,
) -> np.ndarray:
    r"""Jackknife acceleration of every metric, from the leave-one-item-out matrices of each cell.

    ``a = Σ_c w_c (θ̄ − θ₍c₎)³ / (6 [Σ_c w_c (θ̄ − θ₍c₎)²]^{3/2})`` over the non-empty cells ``c``,
    with ``θ₍c₎`` the metric after removing one item (mass ``u_c = min(1, C_c)``) from cell ``c``
    and ``w_c = C_c / u_c`` the number of items in it. Returns one value per id (0 where the
    jackknife values do not vary or are undefined). ``counts`` is a dense k×k array or
    :class:`~advisor.engine._cells.Cells`; the leave-one-out matrices are evaluated in chunks.

    For accuracy this is the acceleration of a binomial proportion, ``(1 − 2p) / (6 √(n p (1 − p)))``.
    """
    cells = counts if isinstance(counts, Cells) else Cells.from_dense(counts)
    base = cells.w[cells.w > 0].astype(np.float64)
    keep = cells.w > 0
    rows, cols = cells.rows[keep], cells.cols[keep]
    nnz = base.shape[0]
    unit = np.minimum(1.0, base)
    w_all = base / unit
    thetas = {m: np.empty(nnz) for m in ids}
    ok_all = np.empty(nnz, dtype=bool)
    size = chunk_size(nnz + 16 * cells.k, nnz)
    for start in range(0, nnz, size):
        stop = min(nnz, start + size)
        loo = np.repeat(base[None, :], stop - start, axis=0)
        loo[np.arange(stop - start), np.arange(start, stop)] -= unit[start:stop]
        ok = loo.sum(axis=-1) > 0
        ok_all[start:stop] = ok
        vals = evaluate_batch(Cells(rows, cols, loo[ok], cells.k), ids, positive_index=positive_index,
                              beta=beta, undefined=undefined, class_weights=class_weights)
        for m in ids:
            block = np.full(stop - start, np.nan)
            block[ok] = vals[m]
            thetas[m][start:stop] = block
    w = w_all[ok_all]
    out = np.zeros(len(ids))
    for j, m in enumerate(ids):
        theta = thetas[m][ok_all]
        good = np.isfinite(theta)
        if good.sum() < 2:
            continue
        ww, th = w[good], theta[good]
        d = np.sum(ww * th) / ww.sum() - th
        s2 = np.sum(ww * d**2)
        if s2 <= 1e-300:
            continue
        out[j] = np.sum(ww * d**3) / (6.0 * s2**1.5)
    return out


def bca_levels(
    values: np.ndarray, estimate: np.ndarray, accel: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted quantile levels ``(α₁, α₂)`` per column of ``values`` (B, metrics).

    ``α_{1,2} = Φ(z₀ + (z₀ + z_{α/2, 1−α/2}) / (1 − a (z₀ + z_{α/2, 1−α/2})))``; the share below the
    estimate is clamped to ``[1/(2B), 1 − 1/(2B)]`` so a one-sided distribution stays finite.
    """
    defined = ~np.isnan(values)
    cnt = np.maximum(defined.sum(axis=0), 1)
    with np.errstate(invalid="ignore"):
        below = np.sum(defined & (values < estimate), axis=0) + 0.5 * np.sum(defined & (values == estimate), axis=0)
    share = np.clip(below / cnt, 0.5 / cnt, 1 - 0.5 / cnt)
    z0 = _phi_inv(share)
    alpha = 1.0 - confidence
    levels = []
    for z in (_NORMAL.inv_cdf(alpha / 2), _NORMAL.inv_cdf(1 - alpha / 2)):
        t = z0 + z
        den = 1.0 - accel * t
        adj = np.where(den > 0, z0 + t / np.where(den > 0, den, 1.0), np.sign(z) * np.inf)
        levels.append(np.clip(_phi(adj), 0.0, 1.0))
    # an estimate that is itself undefined (NaN) gives no correction
    nan_est = np.isnan(estimate)
    levels[0] = np.where(nan_est, alpha / 2, levels[0])
    levels[1] = np.where(nan_est, 1 - alpha / 2, levels[1])
    return levels[0], levels[1]


# ----------------------------------------------------------------------------------------------
# Result
# ----------------------------------------------------------------------------------------------
class BootstrapResult(ValuesMapping):
    """Mapping metric id → ``{"estimate", "low", "high"}`` plus how the intervals were made.

    Attributes
    ----------
    n_resamples, confidence, method, seed
        The bootstrap settings (``seed`` as given; ``None`` means not reproducible).
    nan_resamples : dict
        Metric id → number of resamples whose value was undefined (NaN, ``omit`` convention only) and
        was left out of the interval.
    std_error : dict
        Metric id → standard deviation of the defined, finite resampled values.
    estimates : MetricResult
        The point estimates on the observed matrix, with their undefined-value records.
    resamples : dict or None
        Metric id → array of resampled values, if ``keep_resamples=True`` was passed.
    """

    def __init__(
        self,
        values: dict[str, dict[str, float]],
        *,
        n_resamples: int,
        confidence: float,
        method: str,
        seed: int | None,
        nan_resamples: dict[str, int],
        std_error: dict[str, float],
        estimates: MetricResult,
        resamples: dict[str, np.ndarray] | None = None,
    ) -> None:
        self._values = values
        self.n_resamples = n_resamples
        self.confidence = confidence
        self.method = method
        self.seed = seed
        self.nan_resamples = nan_resamples
        self.std_error = std_error
        self.estimates = estimates
        self.resamples = resamples

    def __repr__(self) -> str:
        return (
            f"BootstrapResult({len(self)} metrics, n_resamples={self.n_resamples}, "
            f"confidence={self.confidence}, method={self.method!r})"
        )

    @property
    def convention(self) -> str:
        return self.estimates.convention

    @property
    def labels(self) -> tuple[Label, ...]:
        return self.estimates.labels

    def to_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready structure (NaN and infinities are left for the caller's encoder)."""
        return {
            "n_resamples": self.n_resamples,
            "confidence": self.confidence,
            "method": self.method,
            "seed": self.seed,
            "convention": self.convention,
            "metrics": {
                m: {**v, "std_error": self.std_error[m], "nan_resamples": self.nan_resamples[m]}
                for m, v in self._values.items()
            },
            "undefined": [u.to_dict() for u in self.estimates.undefined],
        }


# ----------------------------------------------------------------------------------------------
# Entry point
# ----------------------------------------------------------------------------------------------
def positive_index_of(result: MetricResult) -> int | None:
    """Index of the result's positive label among its labels (None without one)."""
    return None if result.positive_label is None else result.labels.index(result.positive_label)


def std_error(values: np.ndarray) -> np.ndarray:
    """Standard deviation along axis 0 of the finite values (NaN where fewer than two)."""
    fin = np.isfinite(values)
    cnt = fin.sum(axis=0)
    x = np.where(fin, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = x.sum(axis=0) / cnt
        var = np.where(fin, (values - mean) ** 2, 0.0).sum(axis=0) / (cnt - 1)
    return np.where(cnt > 1, np.sqrt(np.maximum(var, 0.0)), np.nan)


def _resampled_values(
    drawn: Cells, ids: list[str], n_resamples: int, rng: np.random.Generator, progress: Progress | None,
    draw: str, **options: Any,
) -> np.ndarray:
    """Metric values (resamples, metrics) of multinomial resamples of ``drawn``'s cells, by chunks."""
    k = drawn.k
    trials, p, scale = trials_and_probabilities(drawn.w, "the confusion matrix", drawn.rows * k + drawn.cols, k * k)
    values = np.empty((n_resamples, len(ids)))
    size = chunk_size(resample_cells(drawn.nnz, k), n_resamples)
    if use_items(drawn.w, draw):
        draws = ((start, outs[0]) for start, outs in
                 iter_item_resamples(rng, items_of(drawn.w)[:, None], [drawn.nnz], n_resamples, size))
    else:
        draws = iter_resamples(rng, trials, p, n_resamples, size, scale)
    for start, masses in draws:
        whole = True if scale == 1.0 and trials < 2**53 else None  # draws of whole items, exact in float64
        out = evaluate_batch(drawn.with_masses(masses, exact=whole), ids, **options)
        for j, m in enumerate(ids):
            values[start : start + masses.shape[0], j] = out[m]
        if progress is not None:
            progress(start + masses.shape[0], n_resamples)
    return values


def bootstrap(
    matrix: Any,
    n_resamples: int = 10000,
    confidence: float = 0.95,
    seed: int | None = None,
    metrics: Sequence[str] | None = None,
    method: str = "percentile",
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = "zero",
    progress: Progress | None = None,
    keep_resamples: bool = False,
    draw: str = "auto",
    class_weights: Any = None,
) -> BootstrapResult:
    r"""Bootstrap confidence intervals for metrics of one confusion matrix.

    Each resample is a confusion matrix drawn from ``Multinomial(n, C / n)`` — the distribution of
    the matrix of ``n`` items drawn with replacement from the test set — and all resamples are
    evaluated in one vectorised pass (in chunks that bound memory).

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like (k, k)
        Rows are true classes, columns predicted classes; counts of items.
    n_resamples : int
        Number of bootstrap resamples ``B`` (≥ 1).
    confidence : float
        Coverage of the interval, strictly between 0 and 1.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same intervals.
    metrics : sequence of str, optional
        Metric ids; by default those :func:`advisor.compute_metrics` reports.
    method : {"percentile", "bca"}
        Percentile interval, or bias-corrected and accelerated (Efron 1987).
    positive_label, beta, undefined, class_weights
        As in :func:`advisor.compute_metrics`.
    progress : callable, optional
        ``progress(done, total)`` after each chunk of resamples.
    keep_resamples : bool
        Keep the resampled values in ``result.resamples``.
    draw : {"auto", "cells", "items"}
        Draw the multinomial over the non-zero cells, or the ``n`` items themselves (same
        distribution, different random stream; :mod:`advisor.stats._draws`). "auto" draws items only
        for integer tables of at least 10,000 items with fewer than 8 items per non-zero cell, where
        it is several times faster; the same seed and ``draw`` give the same intervals.

    Returns
    -------
    BootstrapResult
        Mapping metric id → ``{"estimate", "low", "high"}``; the estimate is the metric on the
        observed matrix.

    Examples
    --------
    >>> r = bootstrap([[40, 10], [5, 45]], n_resamples=2000, seed=1, metrics=["accuracy"])
    >>> r["accuracy"]["estimate"]
    0.85
    >>> 0.75 < r["accuracy"]["low"] < 0.80 and 0.90 < r["accuracy"]["high"] < 0.95
    True
    """
    check_arguments(n_resamples, confidence, method)
    if not isinstance(matrix, ConfusionMatrix):
        shape = np.shape(matrix)
        if len(shape) != 2:
            raise InputError(f"bootstrap takes a single k×k matrix; got an array of shape {shape}.")
    cells, _ = cells_and_labels(matrix)
    estimates = compute_metrics(matrix, metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                                class_weights=class_weights)
    ids = list(estimates)
    pos = positive_index_of(estimates)
    k = cells.k
    drawn = drawn_cells(cells)
    check_resampling(int(n_resamples), len(ids), drawn.nnz + k, "bootstrap")
    if method == "bca":
        check_jackknife(cells.nnz, k)
    values = _resampled_values(drawn, ids, int(n_resamples), make_rng(seed), progress, draw,
                               positive_index=pos, beta=float(beta), undefined=undefined,
                               class_weights=estimates.class_weights)
    est = np.array([estimates[m] for m in ids], dtype=np.float64)
    if method == "bca":
        accel = jackknife_acceleration(cells, ids, positive_index=pos, beta=float(beta), undefined=undefined,
                                       class_weights=estimates.class_weights)
        lo_q, hi_q = bca_levels(values, est, accel, float(confidence))
        low, high = quantiles(values, lo_q), quantiles(values, hi_q)
    else:
        low, high = percentile_interval(values, float(confidence))
    nan_counts = np.isnan(values).sum(axis=0)
    se = std_error(values)
    table = {m: {"estimate": float(est[j]), "low": float(low[j]), "high": float(high[j])} for j, m in enumerate(ids)}
    return BootstrapResult(
        table,
        n_resamples=int(n_resamples),
        confidence=float(confidence),
        method=method,
        seed=seed,
        nan_resamples={m: int(nan_counts[j]) for j, m in enumerate(ids)},
        std_error={m: float(se[j]) for j, m in enumerate(ids)},
        estimates=estimates,
        resamples={m: values[:, j].copy() for j, m in enumerate(ids)} if keep_resamples else None,
    )
