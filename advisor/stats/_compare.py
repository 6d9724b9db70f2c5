r"""Paired comparison of several systems evaluated on the same items.

The items are summarised by the joint table of (true label, prediction of each system) combinations
(:class:`advisor.engine._joint.JointCounts`). Drawing the table's cell masses from ``Multinomial(n, p)`` is
exactly a paired item-level bootstrap: every resample is one set of ``n`` items drawn with
replacement, seen by all systems at once, and each system's confusion matrix is a marginal of the
resampled table. The cost depends on the number of distinct combinations, never on ``n`` itself;
where there are almost as many combinations as items (many classes), the ``n`` items are drawn
instead and tabulated straight into each system's non-zero cells (:mod:`advisor.stats._draws`) —
the same distribution. No ``k × k`` table is built at any point.

Definitions
-----------
* **Interval** of a system or of a difference ``a − b``: percentile interval of the paired resamples
  (see :mod:`advisor.stats._bootstrap`; undefined resamples are left out and counted).
* ``probability_better(a, b, metric)``: share of resamples in which ``a`` scores better than ``b`` —
  higher for most metrics, lower where the engine's metric spec says ``higher_is_better=False`` — with ties counting half, so
  ``P(a, b) + P(b, a) = 1`` and identical systems give exactly 0.5.
* **Probability of ranking first**: share of resamples in which a system has the best value; ``t``
  systems tied for best each get ``1/t`` of that resample.
* **Winners** (Opitz (2024), §8: admit several winners): with two systems, the best by point estimate
  plus the other one if the interval of their paired difference contains 0 (one pair, nothing to
  correct). With more than two, the winners control the family-wise error over all ``m(m−1)/2``
  pairs: every pair gets the two-sided paired-bootstrap p-value ``2 (1 − Φ(|d̂| / se_boot))``, Holm's
  step-down (Holm 1979) at ``α = 1 − confidence`` decides which pairs are separated, and the winners
  are the systems no other system beats (:func:`familywise_winners`). So with 20 systems of equal
  quality (190 pairs) the chance that any system is called separable is at most α. The rule used is
  recorded in ``Comparison.winners_method``.
* **Rank interval**: the percentile interval of each system's rank (1 = best, ties share the average
  rank) over the paired resamples.
* **Ranking agreement** (Opitz (2024), Figure 1): each metric ranks the systems by their point estimates
  (rank 1 = best, tied systems share the average rank); Spearman's ρ (Pearson correlation of those
  ranks) and Kendall's τ_b (with its tie correction) are computed for every pair of metrics. With two
  systems a ranking is one comparison, so every coefficient is +1, −1 or undefined (a tie); with
  fewer than two it is undefined.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from .._exceptions import InputError
from .._jsonio import dumps
from ..engine import (
    BINARY_METRICS,
    LOWER_IS_BETTER,
    METRICS,
    MULTICLASS_METRICS,
    Cells,
    JointCounts,
    Label,
    compute_metrics,
    evaluate_batch,
    metric_id,
)
from ._bootstrap import (
    Progress,
    check_arguments,
    chunk_size,
    iter_resamples,
    make_rng,
    percentile_interval,
    positive_index_of,
    resample_cells,
    trials_and_probabilities,
)
from ._draws import iter_item_resamples, use_items
from ._familywise import familywise_winners, paired_p_value, winners_method
from ._frames import comparison_frame, comparison_html, comparison_records
from ._limits import check_resampling

__all__ = ["Comparison", "compare_joint", "compare_systems", "familywise_winners", "kendall_tau_b", "spearman_rho"]


def _num(x: Any) -> float | None:
    """Float for JSON models: NaN → None (infinities are kept)."""
    v = float(x)
    return None if np.isnan(v) else v


# ----------------------------------------------------------------------------------------------
# Result model
# ----------------------------------------------------------------------------------------------
class _Model(BaseModel):
    model_config = ConfigDict(ser_json_inf_nan="strings", frozen=True)


class Interval(_Model):
    """A point estimate with its bootstrap interval (None = undefined)."""

    estimate: float | None
    low: float | None
    high: float | None


class SystemResult(Interval):
    """One system's value of one metric."""

    p_first: float | None
    nan_resamples: int


class PairResult(_Model):
    """Paired difference ``a − b`` of one metric and the probability that ``a`` is better."""

    a: str
    b: str
    difference: Interval
    p_a_better: float | None
    p_value: float | None = None  # two-sided paired-bootstrap p-value (normal form), used by Holm's step-down


class MetricComparison(_Model):
    """Everything the comparison says about one metric."""

    metric: str
    higher_is_better: bool
    systems: dict[str, SystemResult]
    pairs: list[PairResult]
    best: list[str]
    winners: list[str]
    rank_intervals: dict[str, tuple[float | None, float | None]] = {}


class RankingAgreement(_Model):
    """Metrics × metrics rank correlations of the systems' rankings (Opitz (2024), Figure 1)."""

    metrics: list[str]
    ranks: dict[str, dict[str, float | None]]
    spearman: list[list[float | None]]
    kendall: list[list[float | None]]
    note: str | None = None


class Comparison(_Model):
    """Result of :func:`compare_systems` / :func:`compare_joint`."""

    systems: list[str]
    labels: list[Label]
    n: float
    n_resamples: int
    confidence: float
    seed: int | None
    method: str = "percentile"
    winners_method: str = ""
    convention: str
    positive_label: Label | None
    beta: float
    metrics: dict[str, MetricComparison]
    ranking_agreement: RankingAgreement
    undefined: dict[str, list[dict[str, Any]]]

    def _metric(self, metric: str) -> MetricComparison:
        if metric not in self.metrics:  # a catalogue name or alias
            metric = metric_id(metric)
        if metric not in self.metrics:
            raise InputError(f"metric {metric!r} is not in this comparison; it has {', '.join(self.metrics)}.")
        return self.metrics[metric]

    def _check_system(self, name: str) -> None:
        if name not in self.systems:
            raise InputError(f"no system named {name!r}; systems are {', '.join(self.systems)}.")

    def _pair(self, a: str, b: str, metric: str) -> tuple[PairResult | None, bool]:
        self._check_system(a)
        self._check_system(b)
        for pr in self._metric(metric).pairs:
            if (pr.a, pr.b) == (a, b):
                return pr, False
            if (pr.a, pr.b) == (b, a):
                return pr, True
        return None, False

    def probability_better(self, a: str, b: str, metric: str) -> float | None:
        """Share of paired resamples in which ``a`` beats ``b`` on ``metric`` (ties count half)."""
        pr, flipped = self._pair(a, b, metric)
        if pr is None:  # a == b
            return 0.5
        if pr.p_a_better is None:
            return None
        return 1.0 - pr.p_a_better if flipped else pr.p_a_better

    def difference(self, a: str, b: str, metric: str) -> Interval:
        """Point estimate and interval of ``metric(a) − metric(b)``."""
        pr, flipped = self._pair(a, b, metric)
        if pr is None:
            return Interval(estimate=0.0, low=0.0, high=0.0)
        d = pr.difference
        if not flipped:
            return d

        def neg(x: float | None) -> float | None:
            return None if x is None else -x

        return Interval(estimate=neg(d.estimate), low=neg(d.high), high=neg(d.low))

    def probability_first(self, metric: str) -> dict[str, float | None]:
        """Each system's probability of ranking first on ``metric``."""
        return {s: r.p_first for s, r in self._metric(metric).systems.items()}

    def winners(self, metric: str) -> list[str]:
        """The winners on ``metric``: with two systems those not separable from the best, with more those no
        other system beats after Holm's correction over all pairs (see the module docstring)."""
        return list(self._metric(metric).winners)

    def to_dict(self) -> dict[str, Any]:
        """Plain Python structure (infinities stay floats; undefined values are None)."""
        return self.model_dump()

    def records(self) -> list[dict[str, Any]]:
        """One dict per metric and system: ``pandas.DataFrame(comparison.records())``."""
        return comparison_records(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame indexed by (metric, system)."""
        return comparison_frame(self)

    def _repr_html_(self) -> str:
        return comparison_html(self)

    def to_json(self, indent: int | None = 2) -> str:
        """JSON text as the CLI prints it (:mod:`advisor._jsonio`): undefined → null, ±inf → "inf"/"-inf"."""
        return dumps(self.model_dump(), indent=indent)


# ----------------------------------------------------------------------------------------------
# Rank correlations
# ----------------------------------------------------------------------------------------------
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


def _ranking_agreement(ids: list[str], systems: list[str], points: np.ndarray,
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


# ----------------------------------------------------------------------------------------------
# Per-metric summaries of the paired resamples
# ----------------------------------------------------------------------------------------------
def _better_share(x: np.ndarray, y: np.ndarray) -> float:
    """Share of rows with both defined where oriented ``x`` > ``y`` (ties count half)."""
    ok = ~(np.isnan(x) | np.isnan(y))
    if not ok.any():
        return float("nan")
    xs, ys = x[ok], y[ok]
    return float(((xs > ys).sum() + 0.5 * (xs == ys).sum()) / ok.sum())


def _first_shares(oriented: np.ndarray) -> np.ndarray:
    """Probability of ranking first per column of ``oriented`` (resamples, systems)."""
    defined = ~np.isnan(oriented)
    filled = np.where(defined, oriented, -np.inf)
    best = filled.max(axis=1, keepdims=True)
    tied = defined & (filled == best)
    cnt = tied.sum(axis=1, keepdims=True)
    rows = cnt[:, 0] > 0
    if not rows.any():
        return np.full(oriented.shape[1], np.nan)
    return (tied[rows] / cnt[rows]).sum(axis=0) / rows.sum()


def _rank_intervals(systems: list[str], oriented: np.ndarray, confidence: float) -> dict[str, tuple[float | None, float | None]]:
    """Percentile interval of each system's rank (1 = best) over the resamples; undefined → last."""
    r = average_ranks(np.where(np.isnan(oriented), -np.inf, oriented))
    lo, hi = percentile_interval(r, confidence)
    return {s: (_num(lo[j]), _num(hi[j])) for j, s in enumerate(systems)}


def _summarise(
    metric: str, systems: list[str], points: np.ndarray, values: np.ndarray, confidence: float,
    lower: Collection[str] = LOWER_IS_BETTER,
) -> MetricComparison:
    """``points`` (systems,), ``values`` (resamples, systems) → one :class:`MetricComparison`."""
    sign = -1.0 if metric in lower else 1.0
    oriented = sign * values
    low, high = percentile_interval(values, confidence)
    first = _first_shares(oriented)
    nan_counts = np.isnan(values).sum(axis=0)
    sys_out = {
        s: SystemResult(
            estimate=_num(points[j]), low=_num(low[j]), high=_num(high[j]),
            p_first=_num(first[j]), nan_resamples=int(nan_counts[j]),
        )
        for j, s in enumerate(systems)
    }
    m = len(systems)
    pairs: list[PairResult] = []
    diff_interval: dict[tuple[int, int], tuple[float, float]] = {}
    p_values: dict[tuple[str, str], float] = {}
    for a in range(m):
        for b in range(a + 1, m):
            with np.errstate(invalid="ignore"):
                d = values[:, a] - values[:, b]
                est = points[a] - points[b]
            lo, hi = percentile_interval(d[:, None], confidence)
            diff_interval[(a, b)] = (float(lo[0]), float(hi[0]))
            with np.errstate(invalid="ignore"):  # infinite values (LR+) give no standard error
                od = sign * d
                p = paired_p_value(float(sign * est), od[~np.isnan(od)])
            p_values[(systems[a], systems[b])] = 1.0 if np.isnan(p) else p  # undefined: never separated
            pairs.append(
                PairResult(
                    a=systems[a], b=systems[b],
                    difference=Interval(estimate=_num(est), low=_num(lo[0]), high=_num(hi[0])),
                    p_a_better=_num(_better_share(oriented[:, a], oriented[:, b])), p_value=_num(p),
                )
            )
    opoints = sign * points
    best: list[str] = []
    winners: list[str] = []
    if np.any(~np.isnan(opoints)):
        top = np.nanmax(opoints)
        best_idx = [j for j in range(m) if opoints[j] == top]
        best = [systems[j] for j in best_idx]
        if m > 2:  # family-wise error over all pairs (issue 11)
            winners = familywise_winners(systems, list(opoints), p_values, 1.0 - confidence)
        else:
            ref = best_idx[0]
            for j in range(m):
                lo, hi = diff_interval.get((min(ref, j), max(ref, j)), (0.0, 0.0))
                if j in best_idx or lo <= 0.0 <= hi:
                    winners.append(systems[j])
    return MetricComparison(
        metric=metric, higher_is_better=sign > 0, systems=sys_out, pairs=pairs, best=best, winners=winners,
        rank_intervals=_rank_intervals(systems, oriented, confidence),
    )


# ----------------------------------------------------------------------------------------------
# Entry points
# ----------------------------------------------------------------------------------------------
def _default_ids(k: int, has_positive: bool) -> list[str]:
    ids = [m for m in MULTICLASS_METRICS if METRICS[m].alias_of is None]
    if k == 2 and has_positive:
        ids += [m for m in BINARY_METRICS if METRICS[m].alias_of is None]
    return ids


def _paired_draws(
    joint: JointCounts, rng: np.random.Generator, trials: int, p: np.ndarray, scale: float,
    n_resamples: int, size: int, items: bool,
) -> Iterator[tuple[int, list[Cells]]]:
    """Chunks of paired resamples as each system's cells: the multinomial over the joint cells, then
    each system's marginal; or the same ``n`` items tabulated straight into every system's cells.

    Drawing items, every system holds its cells column by column: the true-class sizes of the
    systems after the first are the first one's (:meth:`Cells.share_true_sizes`), so they need only
    column sums, and those are then contiguous runs. One layout for all systems keeps float sums
    over the cells in the same order, so that two identical systems tie exactly in every resample."""
    if items:
        bases, item_table = joint.system_item_cells()
        for j, base in enumerate(bases):
            bases[j], position = base.by_columns()
            item_table[:, j] = position[item_table[:, j]]
        for start, outs in iter_item_resamples(rng, item_table, [b.nnz for b in bases], n_resamples, size):
            yield start, [b.with_masses(o, exact=True) for b, o in zip(bases, outs)]
    else:
        for start, masses in iter_resamples(rng, trials, p, n_resamples, size, scale):
            yield start, joint.system_cells(masses)


def compare_joint(
    joint: JointCounts,
    n_resamples: int = 10000,
    seed: int | None = None,
    metrics: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = "zero",
    progress: Progress | None = None,
    draw: str = "auto",
    class_weights: Any = None,
) -> Comparison:
    """Paired bootstrap comparison of the systems in a joint (true, predictions…) table.

    Parameters are those of :func:`compare_systems`; ``joint`` is what the readers produce
    (``read_predictions(...).joint``) or :meth:`JointCounts.from_arrays`.
    """
    if not isinstance(joint, JointCounts):
        raise InputError(f"joint must be a JointCounts table; got {type(joint).__name__}.")
    check_arguments(n_resamples, confidence)
    systems = list(joint.systems)
    matrices = joint.matrices()
    if metrics is None:
        metrics = _default_ids(joint.k, positive_label is not None)
    results = {
        s: compute_metrics(matrices[s], metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                           class_weights=class_weights)
        for s in systems
    }
    first = results[systems[0]]
    ids = list(first)
    pos = positive_index_of(first)
    points = np.array([[results[s][mid] for s in systems] for mid in ids], dtype=np.float64)

    k, m, cells = joint.k, len(systems), joint.counts.shape[0]
    sizes = [c.nnz for c in joint.system_cells()]
    nnz = sum(sizes)
    check_resampling(int(n_resamples), len(ids) * m, cells + nnz + m * k, "paired bootstrap")
    trials, p, scale = trials_and_probabilities(joint.counts, "the joint table")
    rng = make_rng(seed)
    values = np.empty((len(ids), n_resamples, m))
    items = use_items(joint.counts, draw)
    # memory per resample: the drawn masses of every system (plus the joint cells when drawing cells)
    # and the evaluation of one system at a time, whose arrays are freed before the next
    size = chunk_size((0 if items else 2 * cells) + nnz + resample_cells(max(sizes, default=0), k), n_resamples)
    for start, per_system in _paired_draws(joint, rng, trials, p, scale, n_resamples, size, items):
        # each system's resampled cells: a marginal of the resampled joint table, no k×k table
        for j, sys_cells in enumerate(per_system):
            if j:  # the same resampled items: every system's true-class sizes are the first one's
                sys_cells.share_true_sizes(per_system[0])
            out = evaluate_batch(sys_cells, ids, positive_index=pos, beta=float(beta), undefined=undefined,
                                 class_weights=first.class_weights)
            for i, mid in enumerate(ids):
                values[i, start : start + sys_cells.w.shape[0], j] = out[mid]
        if progress is not None:
            progress(start + per_system[0].w.shape[0], n_resamples)

    per_metric = {mid: _summarise(mid, systems, points[i], values[i], float(confidence)) for i, mid in enumerate(ids)}
    return Comparison(
        systems=systems,
        labels=list(joint.labels),
        n=joint.n,
        n_resamples=int(n_resamples),
        confidence=float(confidence),
        seed=int(seed) if isinstance(seed, (int, np.integer)) else None,  # a Generator is not recorded
        winners_method=winners_method(m, float(confidence)),
        convention=undefined,
        positive_label=first.positive_label,
        beta=float(beta),
        metrics=per_metric,
        ranking_agreement=_ranking_agreement(ids, systems, points),
        undefined={s: [u.to_dict() for u in results[s].undefined] for s in systems},
    )


def compare_systems(
    y_true: Any,
    predictions: Mapping[str, Any],
    n_resamples: int = 10000,
    seed: int | None = None,
    metrics: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = "zero",
    labels: Sequence[Label] | None = None,
    sample_weight: Any = None,
    progress: Progress | None = None,
    draw: str = "auto",
    class_weights: Any = None,
) -> Comparison:
    """Compare systems that predicted the same items, with paired bootstrap uncertainty.

    Parameters
    ----------
    y_true : array-like (n,)
        True labels.
    predictions : mapping name → array-like (n,)
        Each system's predicted labels, item for item.
    n_resamples, seed, confidence
        Paired bootstrap settings (see :func:`advisor.bootstrap`); the same seed gives the same result.
    metrics : sequence of str, optional
        Metric ids; by default every multi-class metric without its aliases (``macro_recall``,
        ``micro_f1``), plus the binary ones when the task has two classes and a positive label.
    positive_label, beta, undefined, class_weights
        As in :func:`advisor.compute_metrics`.
    labels : sequence, optional
        The full label set (default: every label seen in the truth or any prediction).
    sample_weight : array-like (n,), optional
        Item weights (see :mod:`advisor.stats._bootstrap` for how non-integer masses are resampled).
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of resamples.
    draw : {"auto", "cells", "items"}
        How resamples are drawn (see :func:`advisor.bootstrap`).

    Returns
    -------
    Comparison
        Per metric: each system's estimate and interval, paired differences, probabilities of being
        better and of ranking first, the winners; and the ranking agreement between metrics.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 1, 0, 1, 0] * 25
    >>> c = compare_systems(y, {"good": y, "bad": [0] * 200}, n_resamples=500, seed=0,
    ...                     metrics=["accuracy", "mcc"])
    >>> c.winners("accuracy"), c.probability_better("good", "bad", "accuracy")
    (['good'], 1.0)
    """
    joint = JointCounts.from_arrays(y_true, predictions, labels=labels, sample_weight=sample_weight)
    return compare_joint(
        joint, n_resamples, seed, metrics, confidence=confidence, positive_label=positive_label,
        beta=beta, undefined=undefined, progress=progress, draw=draw, class_weights=class_weights,
    )
