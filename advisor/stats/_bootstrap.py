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
* **Classes in every resample** (``classes=``, :mod:`advisor.stats._draws`): a plain resample can lack a
  rare class (7 of 412 items: about ``e^-7`` of the resamples), and a mean over the classes present then
  averages over fewer classes than the estimate does. By default ("kept") such a resample is drawn again, so
  every resample holds every class of the table while the class counts still vary as in a random test split;
  "fixed" draws each class's items among themselves (one multinomial per row with that row's total, the
  stratified bootstrap) and "free" is the plain bootstrap. benchmarks/README.md (``bench_class_strata.py``)
  gives the coverage of the three: with a rare class, fixed counts made the intervals of balanced accuracy,
  macro F1 and MCC too narrow for test sets drawn at random.
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

import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
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
from ._bounds import bounds_of
from ._choice import interval_method, proportion_counts
from ._draws import CellStrata, ClassKeeper, ItemStrata, check_classes, class_design, items_of, iter_item_resamples, use_items
from ._intervals import (  # noqa: F401  (quantiles, percentile_interval, bca_levels: imported from here too)
    RESAMPLED_METHODS,
    Intervals,
    bca_levels,
    percentile_interval,
    quantiles,
    resampled_intervals,
)
from ._jackknife import cells_acceleration
from ._limits import check_enough_resamples, check_resampling, dense_order_sum
from ._proportions import PROPORTION_METHODS, proportion_interval
from ._strata import stratified_estimates

__all__ = ["BootstrapResult", "bootstrap"]

#: Interval methods: "auto" chooses per metric (:mod:`._choice`); the others apply to every metric.
METHODS = ("auto", "bca", "basic", "percentile")

# Upper bound on the float64 values materialised per chunk of resamples (≈ 32 MB per array).
_CHUNK_CELLS = 4_000_000

Progress = Callable[[int, int], None]


# ----------------------------------------------------------------------------------------------
# Argument checks and resampling helpers (shared with the paired comparison)
# ----------------------------------------------------------------------------------------------
def check_arguments(n_resamples: Any, confidence: Any, method: str = "auto", proportion: str = "clopper_pearson",
                    progress: Any = None) -> None:
    """Raise a one-sentence :class:`InputError` for an unusable bootstrap argument."""
    if progress is not None and not callable(progress):
        raise InputError(f"progress must be a function progress(done, total), or None; got {type(progress).__name__}.")
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
    if proportion not in PROPORTION_METHODS:
        raise InputError(f"proportion must be one of {', '.join(PROPORTION_METHODS)}; got {proportion!r}.")
    check_enough_resamples(int(n_resamples), float(confidence))


def pick_seed(seed: Any) -> Any:
    """``seed`` itself, or — when it is None — a seed picked now (a whole number below 2^31), so that every
    interval advisor gives can be reproduced from the seed it states.

    >>> pick_seed(7), 0 <= pick_seed(None) < 2**31
    (7, True)
    """
    if seed is None:
        return secrets.randbelow(2**31)
    return seed


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



# ----------------------------------------------------------------------------------------------
# BCa's acceleration
# ----------------------------------------------------------------------------------------------
def jackknife_acceleration(
    counts: Any, ids: Sequence[str], *, positive_index: int | None, beta: float, undefined: str,
    class_weights: np.ndarray | None = None,
    f1_classes: np.ndarray | None = None,
    fallback_index: int | None = None,
    action_mask: np.ndarray | None = None,
    class_index: Mapping[str, int] | None = None,
) -> np.ndarray:
    r"""Jackknife acceleration of every metric of one table (:mod:`advisor.stats._jackknife`).

    Up to :data:`~advisor.stats._jackknife.EXACT_UNITS` non-zero cells, one item leaves each cell in
    turn: ``a = Σ_c w_c (θ̄ − θ₍c₎)³ / (6 [Σ_c w_c (θ̄ − θ₍c₎)²]^{3/2})``, with ``θ₍c₎`` the metric after
    removing one item (mass ``u_c = min(1, C_c)``) from cell ``c`` and ``w_c = C_c / u_c`` the number of
    items in it; above, random groups of items leave in turn. Returns one value per id (0 where the
    jackknife values do not vary or are undefined). ``counts`` is a dense k×k array or
    :class:`~advisor.engine._cells.Cells`.

    For accuracy this is the acceleration of a binomial proportion, ``(1 − 2p) / (6 √(n p (1 − p)))``.
    """
    cells = counts if isinstance(counts, Cells) else Cells.from_dense(counts)
    keep = np.asarray(cells.w) > 0
    rows, cols = cells.rows[keep], cells.cols[keep]
    ids = list(ids)

    def evaluate(masses: np.ndarray) -> dict[str, np.ndarray]:
        return evaluate_batch(Cells(rows, cols, masses, cells.k), ids, positive_index=positive_index, beta=beta,
                              undefined=undefined, class_weights=class_weights, f1_classes=f1_classes,
                              fallback_index=fallback_index, action_mask=action_mask, class_index=class_index)

    base = np.asarray(cells.w, dtype=np.float64)[keep]
    return cells_acceleration(base, ids, evaluate, chunk_size(base.shape[0] + 16 * cells.k, base.shape[0]))


# ----------------------------------------------------------------------------------------------
# Result
# ----------------------------------------------------------------------------------------------
class BootstrapResult(ValuesMapping):
    """Mapping metric id → ``{"estimate", "low", "high"}`` plus how the intervals were made.

    Attributes
    ----------
    n_resamples, confidence, method, seed
        The bootstrap settings (``seed`` as given or picked; ``None`` only for a Generator passed in).
    methods : dict
        Metric id → the interval method used (``clopper_pearson``, ``wilson``, ``bca``, ``basic``,
        ``percentile``, or ``none`` when no interval is given).
    reasons : dict
        Metric id → why there is no interval (None where there is one).
    nan_resamples : dict
        Metric id → number of resamples whose value was undefined (NaN, ``omit`` convention only) and
        was left out of the interval.
    std_error : dict
        Metric id → standard deviation of the defined, finite resampled values.
    estimates : MetricResult
        The point estimates on the observed matrix, with their undefined-value records.
    resamples : dict or None
        Metric id → array of resampled values, if ``keep_resamples=True`` was passed.
    classes : str
        How the true classes were resampled (:data:`advisor.stats._draws.CLASS_DESIGNS`): "kept" (class
        counts random, no class lost), "fixed" (each class's count kept) or "free" (the plain bootstrap).
    redrawn : dict
        Class → how many resamples lacked it and were drawn again ("kept"; only the classes that did).
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
        methods: dict[str, str] | None = None,
        reasons: dict[str, str | None] | None = None,
        classes: str = "free",
        redrawn: dict[str, int] | None = None,
    ) -> None:
        self._values = values
        self.classes = classes
        self.redrawn = redrawn or {}
        self.methods = methods or {m: method for m in values}
        self.reasons = reasons or {m: None for m in values}
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
            "classes": self.classes,
            "redrawn": self.redrawn,
            "convention": self.convention,
            "metrics": {
                m: {**v, "method": self.methods[m], **({"reason": self.reasons[m]} if self.reasons[m] else {}),
                    "std_error": self.std_error[m], "nan_resamples": self.nan_resamples[m]}
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
    draw: str, classes: str = "free", keepers: list[ClassKeeper] | None = None, **options: Any,
) -> np.ndarray:
    """Metric values (resamples, metrics) of multinomial resamples of ``drawn``'s cells, by chunks; ``classes``
    (:data:`~advisor.stats._draws.CLASS_DESIGNS`, as carried out) says how the true classes are drawn; the class
    keeper of "kept" is appended to ``keepers``, for its counts."""
    k = drawn.k
    trials, p, scale = trials_and_probabilities(drawn.w, "the confusion matrix", drawn.rows * k + drawn.cols, k * k)
    values = np.empty((n_resamples, len(ids)))
    size = chunk_size(resample_cells(drawn.nnz, k), n_resamples)
    draws: Iterator[tuple[int, np.ndarray]]
    whole = True if scale == 1.0 and trials < 2**53 else None  # draws of whole items, exact in float64
    if use_items(drawn.w, draw):
        items = items_of(drawn.w)
        within = ItemStrata(drawn.rows[items]) if classes == "fixed" else None
        keeper = ClassKeeper(rng, drawn.rows[items], k) if classes == "kept" else None
        if keeper is not None and keepers is not None:
            keepers.append(keeper)
        draws = ((start, outs[0]) for start, outs in
                 iter_item_resamples(rng, items[:, None], [drawn.nnz], n_resamples, size, within, keeper))
    elif classes == "fixed":  # each class's items among themselves (:class:`CellStrata`)
        cell_strata = CellStrata(drawn.rows, drawn.w)
        whole = True if cell_strata.whole and trials < 2**53 else None
        draws = cell_strata.iter_resamples(rng, n_resamples, size)
    else:
        draws = iter_resamples(rng, trials, p, n_resamples, size, scale)
        if classes == "kept":  # the plain resamples, each one that lacks a class drawn again
            cells_keeper = ClassKeeper(rng, drawn.rows, k, drawn.w)
            if keepers is not None:
                keepers.append(cells_keeper)

            def again(g: np.random.Generator) -> np.ndarray:
                d = g.multinomial(trials, p)
                return d if scale == 1.0 else d * scale

            draws = ((start, cells_keeper.keep_masses(m, again)) for start, m in draws)
    for start, masses in draws:
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
    method: str = "auto",
    *,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    progress: Progress | None = None,
    keep_resamples: bool = False,
    draw: str = "auto",
    class_weights: Any = None,
    proportion: str = "clopper_pearson",
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
    classes: str = "kept",
) -> BootstrapResult:
    r"""Bootstrap confidence intervals for metrics of one confusion matrix.

    Each resample is a confusion matrix drawn from ``Multinomial(n, C / n)`` — the matrix of ``n`` items
    drawn with replacement — evaluated in vectorised chunks that bound memory.

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like (k, k)
        Rows are true classes, columns predicted classes; counts of items.
    n_resamples, confidence : int, float
        Number of bootstrap resamples ``B``; coverage of the interval, strictly between 0 and 1.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng` (picked and kept in ``result.seed`` when None).
    metrics : sequence of str, optional
        Metric ids; by default those :func:`advisor.compute_metrics` reports.
    method, proportion : str
        "auto" chooses per metric (:mod:`advisor.stats._choice`: ``proportion`` — "clopper_pearson" or
        "wilson" — for proportions, BCa else); "bca", "basic" or "percentile" apply to every metric. An
        interval that would exclude its estimate is not given (NaN; ``result.reasons`` says why).
    positive_label, beta, undefined, class_weights, f1_classes, fallback_class,
        action_classes
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
    classes : {"kept", "fixed", "free"}
        How the true classes are resampled (:mod:`advisor.stats._draws`): "kept" (the default) draws the
        items as the plain bootstrap does and draws again a resample that lacks a class of the matrix, so that
        a mean over the classes present always has the same classes; "fixed" draws each class's items among
        themselves, every resample keeping each row's total (the stratified bootstrap, for a test set sampled
        per class); "free" is the plain bootstrap. Where fewer than half of the plain resamples would hold every
        class, "kept" fixes the counts instead. ``result.classes`` records the design carried out.

    Returns
    -------
    BootstrapResult
        Mapping metric id → ``{"estimate", "low", "high"}``; the estimate is the metric on the
        observed matrix; ``result.methods`` gives each metric's interval method.

    Examples
    --------
    >>> r = bootstrap([[40, 10], [5, 45]], n_resamples=2000, seed=1, metrics=["accuracy"])
    >>> r["accuracy"]["estimate"]
    0.85
    >>> 0.75 < r["accuracy"]["low"] < 0.80 and 0.90 < r["accuracy"]["high"] < 0.95, r.methods["accuracy"]
    (True, 'clopper_pearson')
    """
    check_arguments(n_resamples, confidence, method, proportion, progress)
    check_classes(classes)
    if not isinstance(matrix, ConfusionMatrix):
        shape = np.shape(matrix)
        if len(shape) != 2:
            raise InputError(f"bootstrap takes a single k×k matrix; got an array of shape {shape}.")
    cells, _ = cells_and_labels(matrix)
    estimates = compute_metrics(matrix, metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                                class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
    ids = list(estimates)
    pos = positive_index_of(estimates)
    k = cells.k
    drawn = drawn_cells(cells)
    check_resampling(int(n_resamples), len(ids), drawn.nnz + k, "bootstrap")
    seed = pick_seed(seed)
    options = dict(positive_index=pos, beta=float(beta), undefined=undefined, class_weights=estimates.class_weights,
                   f1_classes=estimates.f1_classes, fallback_index=estimates.fallback_index,
                   action_mask=estimates.action_mask, class_index=estimates.class_index)
    design = class_design(np.bincount(drawn.rows, weights=drawn.w, minlength=k), classes)
    keepers: list[ClassKeeper] = []
    values = _resampled_values(drawn, ids, int(n_resamples), make_rng(seed), progress, draw, design, keepers,
                               **options)
    est = np.array([estimates[m] for m in ids], dtype=np.float64)
    iv = table_intervals(cells, ids, values, est, float(confidence), method, proportion, options)
    nan_counts = np.isnan(values).sum(axis=0)
    se = std_error(values)
    table = {m: {"estimate": float(est[j]), "low": float(iv.low[j]), "high": float(iv.high[j])}
             for j, m in enumerate(ids)}
    return BootstrapResult(
        table,
        n_resamples=int(n_resamples),
        confidence=float(confidence),
        method=method,
        seed=seed if isinstance(seed, (int, np.integer)) else None,
        nan_resamples={m: int(nan_counts[j]) for j, m in enumerate(ids)},
        std_error={m: float(se[j]) for j, m in enumerate(ids)},
        estimates=estimates,
        resamples={m: values[:, j].copy() for j, m in enumerate(ids)} if keep_resamples else None,
        methods=dict(zip(ids, iv.methods)),
        reasons=dict(zip(ids, iv.reasons)),
        classes=design,
        redrawn=lacked_classes(keepers, estimates.labels),
    )


def lacked_classes(keepers: Sequence[ClassKeeper], labels: Sequence[Any]) -> dict[str, int]:
    """Class (as text) → how many resamples lacked it and were drawn again ("kept"), the classes that did."""
    out: dict[str, int] = {}
    for keeper in keepers:
        for c in np.flatnonzero(keeper.lacked).tolist():
            out[str(labels[c])] = out.get(str(labels[c]), 0) + int(keeper.lacked[c])
    return out


#: Why a metric has no interval when its own denominator is 0 (its value undefined, or set by convention).
UNDEFINED_REASON = "its denominator is 0"


def table_intervals(cells: Cells, ids: Sequence[str], values: np.ndarray, est: np.ndarray, confidence: float,
                    method: str, proportion: str, options: dict[str, Any]) -> Intervals:
    """The interval of each metric of one table from its resampled ``values`` (see :mod:`._choice`):
    ``method`` "auto" chooses per metric; any other method is applied to every metric."""
    whole = bool(np.all(np.asarray(cells.w) == np.floor(np.asarray(cells.w))))
    wanted = [interval_method(m, whole_items=whole, proportion=proportion) if method == "auto" else method
              for m in ids]
    resampled = [w if w in RESAMPLED_METHODS else "auto" for w in wanted]
    accel = None
    if any(w in ("auto", "bca") for w in resampled):
        accel = jackknife_acceleration(cells, ids, **options)
    iv = resampled_intervals(values, est, confidence, resampled, accel, [bounds_of(m) for m in ids])
    pos = options.get("positive_index")
    for j, (m, w) in enumerate(zip(ids, wanted)):
        if w in PROPORTION_METHODS:
            x, n = proportion_counts(m, cells, pos, options.get("action_mask"),
                                     options.get("fallback_index")) or (0.0, 0.0)
            if n > 0 and np.isclose(est[j], x / n, rtol=1e-12, atol=0.0):
                iv.low[j], iv.high[j] = proportion_interval(x, n, confidence, w)
                iv.methods[j], iv.reasons[j] = w, None
            else:  # an empty denominator: the value is the undefined-value convention's, not a proportion
                iv.low[j] = iv.high[j] = np.nan
                iv.methods[j], iv.reasons[j] = "none", UNDEFINED_REASON + (
                    "" if np.isnan(est[j]) else ", so its value is set by convention")
        elif np.isnan(est[j]):  # undefined on the test set itself (omit): nothing for an interval to contain
            iv.low[j] = iv.high[j] = np.nan
            iv.methods[j], iv.reasons[j] = "none", UNDEFINED_REASON
        elif w == "stratified":  # a sample stratified by map class: the stratified estimator's interval
            iv.low[j], iv.high[j], iv.methods[j], iv.reasons[j] = _stratified_interval(
                cells, options.get("class_weights"), float(est[j]), confidence)
    return iv


def _stratified_interval(cells: Cells, weights: Any, est: float, confidence: float
                         ) -> tuple[float, float, str, str | None]:
    """``(low, high, method, reason)``: the normal interval of the stratified estimate of overall accuracy
    (Olofsson et al. 2014, eq. 5), or none with the reason (a stratum with fewer than two sample items)."""
    k = cells.k
    dense = np.zeros((k, k))
    np.add.at(dense, (np.asarray(cells.rows), np.asarray(cells.cols)), np.asarray(cells.w, dtype=np.float64))
    if weights is None:
        return np.nan, np.nan, "none", "the mapped shares of the strata are not known"
    try:
        e = stratified_estimates(dense, np.asarray(weights, dtype=np.float64) / np.sum(weights), level=confidence)
    except InputError as exc:
        return np.nan, np.nan, "none", str(exc).rstrip(".")
    if not np.isclose(e.overall, est, rtol=1e-9, atol=1e-12):  # a convention set the value: no interval around it
        return np.nan, np.nan, "none", "a stratum has no sample items, so its value is set by convention"
    lo, hi = e.overall_ci
    return lo, hi, "stratified", None
