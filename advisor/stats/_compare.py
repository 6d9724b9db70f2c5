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
* **Interval** of a system or of a difference ``a − b``: chosen per metric as for one table
  (:mod:`advisor.stats._choice`, :mod:`advisor.stats._paired`): Clopper–Pearson for a proportion of
  whole items, otherwise BCa with the acceleration of a jackknife over the joint table's items (the
  same items leave every system), the basic interval where BCa's levels are not supported, and none
  where no interval contains the estimate (undefined resamples are left out and counted). With ``groups``
  (patients, speakers) and ``method="auto"``, every interval is the delete-one-group jackknife's ``θ̂ ± t_{G−1} · SE``
  and every pair's test its t test (:mod:`advisor.stats._paired`): a bootstrap of few groups runs narrow.
* **Test of a pair**: McNemar's exact test for accuracy (``Comparison.mcnemar``), the two-sided
  paired-bootstrap test for the other metrics; each pair also says the smallest difference the test set
  resolves (``PairResult.resolvable``).
* ``probability_better(a, b, metric)``: share of resamples in which ``a`` scores better than ``b`` —
  higher for most metrics, lower where the engine's metric spec says ``higher_is_better=False`` — with ties counting half, so
  ``P(a, b) + P(b, a) = 1`` and identical systems give exactly 0.5.
* **Probability of ranking first**: share of resamples in which a system has the best value; ``t``
  systems tied for best each get ``1/t`` of that resample.
* **Winners** (Opitz (2024), §8: admit several winners): with two systems, the best by point estimate
  plus the other one if the pair's test does not separate them (one pair, nothing to correct). With
  more than two, the systems that cannot be told from the best — multiple comparisons with the best (Hsu 1996):
  each system is tested against the top-ranked one by its pair's test (McNemar's for accuracy, otherwise the
  paired-bootstrap ``2 (1 − Φ(|d̂| / se_boot))``), one-sided at ``α/(m − 1)`` with ``α = 1 − confidence``, and the
  winners are the top system and every system it does not separate (:func:`advisor.stats._familywise.winners_against_best`).
  The best system is then among the winners with probability at least ``1 − α``. Every pair's difference and test
  is still reported. The rule used is recorded in ``Comparison.winners_method``.
* **Rank interval**: the percentile interval of each system's rank (1 = best, ties share the average
  rank) over the paired resamples.
* **Ranking agreement** (Opitz (2024), Figure 1): each metric ranks the systems by their point estimates
  (rank 1 = best, tied systems share the average rank); Spearman's ρ (Pearson correlation of those
  ranks) and Kendall's τ_b (with its tie correction) are computed for every pair of metrics. With two
  systems a ranking is one comparison, so every coefficient is +1, −1 or undefined (a tie); with
  fewer than two it is undefined.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError
from ..engine import (
    BINARY_METRICS,
    METRICS,
    MULTICLASS_METRICS,
    Cells,
    JointCounts,
    Label,
    compute_metrics,
    evaluate_batch,
    normalise_labels,
)
from ._clusters import check_groups, iter_cluster_resamples
from ._bootstrap import (
    Progress,
    lacked_classes,
    check_arguments,
    chunk_size,
    iter_resamples,
    make_rng,
    pick_seed,
    positive_index_of,
    resample_cells,
    trials_and_probabilities,
)
from ._compare_models import Comparison, Interval, McNemar, MetricComparison, PairResult, RankingAgreement, SystemResult
from ._draws import CellStrata, ClassKeeper, ItemStrata, check_classes, class_design, iter_item_resamples, use_items
from ._familywise import familywise_winners, paired_test_words, winners_method
from ._limits import check_resampling
from ._paired import summarise
from ._paired_inputs import paired_inputs
from ._ranks import average_ranks, kendall_tau_b, ranking_agreement, spearman_rho
from ._runs import RunLayout, combine_points, combine_resamples

__all__ = ["Comparison", "Interval", "McNemar", "MetricComparison", "PairResult", "RankingAgreement", "SystemResult",
           "average_ranks", "compare_joint", "compare_systems", "familywise_winners", "kendall_tau_b", "spearman_rho"]

_summarise = summarise  # the structured comparisons' name for it
_ranking_agreement = ranking_agreement


# ----------------------------------------------------------------------------------------------
# Entry points
# ----------------------------------------------------------------------------------------------
def _default_ids(k: int, has_positive: bool) -> list[str]:
    ids = [m for m in MULTICLASS_METRICS if METRICS[m].alias_of is None]
    if k == 2 and has_positive:
        ids += [m for m in BINARY_METRICS if METRICS[m].alias_of is None]
    return ids


def _layout(runs: Sequence[str] | None, columns: list[str]) -> RunLayout | None:
    """The runs of each system (None when every system has one run)."""
    if runs is None:
        return None
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Sequence):
        raise InputError(f"runs must list the system of each column of the joint table; got {type(runs).__name__}.")
    if len(runs) != len(columns):
        raise InputError(f"runs must name the system of each of the {len(columns)} columns; got {len(runs)}.")
    layout = RunLayout([str(r) for r in runs])
    return layout if layout.several else None


def _grouped_joint(joint: JointCounts, y_true: Any, predictions: Mapping[str, Any], groups: Any,
                   sample_weight: Any) -> tuple[JointCounts, np.ndarray]:
    """The joint table counted per group (a combination met in several groups has a row per group) and the
    group of each row."""
    g = np.asarray(groups)
    n = len(np.asarray(y_true).reshape(-1)) if not isinstance(y_true, (list, tuple)) else len(y_true)
    if g.ndim != 1 or g.shape[0] != n:
        raise InputError(f"groups must give one group per item ({n}); got shape {g.shape}.")
    index = {str(lab): j for j, lab in enumerate(joint.decoded_labels())}

    def coded(col: Any) -> np.ndarray:
        arr = np.asarray(col)
        if arr.dtype.kind in "iub" or arr.dtype.kind == "U":  # distinct values first: no Python loop over items
            uniq, inv = np.unique(arr, return_inverse=True)
            return np.array([index[str(v)] for v in normalise_labels(list(uniq))], dtype=np.int64)[inv.reshape(-1)]
        return np.array([index[str(v)] for v in normalise_labels(list(col))], dtype=np.int64)

    cols = [coded(c) for c in [y_true, *predictions.values()]]
    _, gi = np.unique(g, return_inverse=True)
    sizes = [len(index)] * len(cols) + [int(gi.max()) + 1]
    if float(np.prod([float(x) for x in sizes])) < 2.0**62:  # one integer key per row: a fast 1-D unique
        key = np.zeros(len(gi), dtype=np.int64)
        for c, size in zip([*cols, gi.reshape(-1)], sizes):
            key = key * size + c
        uniq, inv = np.unique(key, return_inverse=True)
        keys = np.empty((uniq.shape[0], len(sizes)), dtype=np.int64)
        for j in range(len(sizes) - 1, -1, -1):
            uniq, keys[:, j] = np.divmod(uniq, sizes[j])
    else:
        keys, inv = np.unique(np.column_stack([*cols, gi]), axis=0, return_inverse=True)
    w = np.ones(len(g)) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    counts = np.bincount(inv.reshape(-1), weights=w, minlength=keys.shape[0])
    return JointCounts(joint.labels, joint.systems, keys[:, :-1], counts, reject=joint.reject), keys[:, -1]


def _paired_draws(
    joint: JointCounts, rng: np.random.Generator, trials: int, p: np.ndarray, scale: float,
    n_resamples: int, size: int, items: bool, clusters: tuple[np.ndarray, int] | None = None,
    classes: str = "free", keepers: list[ClassKeeper] | None = None,
) -> Iterator[tuple[int, list[Cells]]]:
    """Chunks of paired resamples as each system's cells: the multinomial over the joint cells, then
    each system's marginal; or the same ``n`` items tabulated straight into every system's cells.

    Drawing items, every system holds its cells column by column: the true-class sizes of the
    systems after the first are the first one's (:meth:`Cells.share_true_sizes`), so they need only
    column sums, and those are then contiguous runs. One layout for all systems keeps float sums
    over the cells in the same order, so that two identical systems tie exactly in every resample.
    With ``clusters`` (group of each joint row, number of groups) whole groups are drawn (:mod:`._clusters`).
    With ``classes`` "kept" or "fixed" the items are drawn class by class (:mod:`._draws`): every resample keeps
    every class, in every system at once, since the true class is part of each joint cell; the keeper of "kept" is
    appended to ``keepers``, for its counts."""
    if clusters is not None:
        for start, masses in iter_cluster_resamples(rng, joint.counts, clusters[0], clusters[1], n_resamples, size):
            yield start, joint.system_cells(masses)
    elif items:
        bases, item_table = joint.system_item_cells()
        for j, base in enumerate(bases):
            bases[j], position = base.by_columns()
            # an abstention (cell base.nnz, one past the last) is tabulated in a last bin, then dropped
            item_table[:, j] = np.append(position, base.nnz)[item_table[:, j]]
        spare = 1 if joint.abstains else 0
        item_class = np.repeat(joint.codes[:, 0], joint.counts.astype(np.int64))
        strata = ItemStrata(item_class) if classes == "fixed" else None
        keeper = ClassKeeper(rng, item_class, joint.k) if classes == "kept" else None
        if keeper is not None and keepers is not None:
            keepers.append(keeper)
        for start, outs in iter_item_resamples(rng, item_table, [b.nnz + spare for b in bases], n_resamples, size,
                                               strata, keeper):
            yield start, [b.with_masses(o[:, :b.nnz] if spare else o, exact=True) for b, o in zip(bases, outs)]
    elif classes == "fixed":
        for start, masses in CellStrata(joint.codes[:, 0], joint.counts).iter_resamples(rng, n_resamples, size):
            yield start, joint.system_cells(masses)
    else:
        cells_keeper = ClassKeeper(rng, joint.codes[:, 0], joint.k, joint.counts) if classes == "kept" else None
        if cells_keeper is not None and keepers is not None:
            keepers.append(cells_keeper)

        def again(g: np.random.Generator) -> np.ndarray:
            d = g.multinomial(trials, p)
            return d if scale == 1.0 else d * scale

        for start, masses in iter_resamples(rng, trials, p, n_resamples, size, scale):
            yield start, joint.system_cells(masses if cells_keeper is None else cells_keeper.keep_masses(masses, again))


def compare_joint(
    joint: JointCounts,
    n_resamples: int = 10000,
    seed: int | None = None,
    metrics: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    progress: Progress | None = None,
    draw: str = "auto",
    class_weights: Any = None,
    method: str = "auto",
    proportion: str = "clopper_pearson",
    groups: Any = None,
    runs: Sequence[str] | None = None,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
    classes: str = "kept",
) -> Comparison:
    """Paired bootstrap comparison of the systems in a joint (true, predictions…) table (``advisor.load(…).joint``
    or :meth:`JointCounts.from_arrays`); parameters are those of :func:`compare_systems`. ``groups`` (one per row of the
    joint table, e.g. ``PredictionSet.groups``) makes the bootstrap resample groups, not items
    (:mod:`advisor.stats._clusters`), and under ``method="auto"`` every interval the delete-one-group jackknife's t
    interval with ``G − 1`` degrees of freedom (:func:`advisor.stats._jackknife.jackknife_t`). ``runs`` (the system of each column of the joint table, a name repeated
    for the runs of one system) compares the systems' means over their runs, with two-stage resamples of
    runs and items (:mod:`advisor.stats._runs`). ``classes`` says how the true classes are resampled
    (:func:`advisor.bootstrap`: "kept", the default, draws again a resample that lacks a class of the test set);
    groups cannot keep them and are drawn whole whatever ``classes`` says (drawing a resample of groups again until
    it holds every class lowered the coverage of balanced accuracy: benchmarks/README.md, ``bench_group_classes.py``). ``Comparison.classes`` records the
    design carried out, ``Comparison.absent_classes`` how many resamples lacked each class of the test set.
    """
    if not isinstance(joint, JointCounts):
        raise InputError(f"joint must be a JointCounts table; got {type(joint).__name__}.")
    check_arguments(n_resamples, confidence, method, proportion, progress)
    check_classes(classes)
    systems = list(joint.systems)
    matrices = joint.matrices()
    if metrics is None:
        metrics = _default_ids(joint.k, positive_label is not None)
    results = {
        s: compute_metrics(matrices[s], metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                           class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
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
    clusters = None if groups is None else check_groups(groups, cells, joint.counts)
    seed = pick_seed(seed)
    rng = make_rng(seed)
    values = np.empty((len(ids), n_resamples, m))
    items = use_items(joint.counts, draw) and clusters is None
    options: dict[str, Any] = dict(positive_index=pos, beta=float(beta), undefined=undefined,
                                   class_weights=first.class_weights, f1_classes=first.f1_classes,
                                   fallback_index=first.fallback_index,
                                   action_mask=first.action_mask, class_index=first.class_index)
    # memory per resample: the drawn masses of every system (plus the joint cells when drawing cells)
    # and the evaluation of one system at a time, whose arrays are freed before the next
    size = chunk_size((0 if items else 2 * cells) + nnz + resample_cells(max(sizes, default=0), k), n_resamples)
    sizes_true = np.bincount(joint.codes[:, 0], weights=joint.counts, minlength=k)
    design = "free" if clusters is not None else class_design(sizes_true, classes)
    present = sizes_true > 0
    absent = np.zeros(k, dtype=np.int64)  # resamples that lack each class of the test set
    keepers: list[ClassKeeper] = []
    for start, per_system in _paired_draws(joint, rng, trials, p, scale, n_resamples, size, items, clusters, design,
                                           keepers):
        if not joint.abstains:  # every system holds every resampled item: the first one's true-class sizes
            absent += ((per_system[0].a <= 0) & present).sum(axis=0)
        # each system's resampled cells: a marginal of the resampled joint table, no k×k table
        for j, sys_cells in enumerate(per_system):
            if j and not joint.abstains:  # the same resampled items: every system's true-class sizes are the
                sys_cells.share_true_sizes(per_system[0])  # first one's (not when each holds the items it answered)
            out = evaluate_batch(sys_cells, ids, **options)
            for i, mid in enumerate(ids):
                values[i, start : start + sys_cells.w.shape[0], j] = out[mid]
        if progress is not None:
            progress(start + per_system[0].w.shape[0], n_resamples)

    layout = _layout(runs, systems)
    extras, mcnemar = paired_inputs(joint, ids, points, float(confidence), method, proportion, options, clusters,
                                    layout)
    undefined_records = {s: [u.to_dict() for u in results[s].undefined] for s in systems}
    if layout is not None:  # the systems' means over their runs, resampled over runs and items
        values, points = combine_resamples(values, layout, rng), combine_points(points, layout)
        undefined_records = {n: [r for j in cols for r in undefined_records[systems[j]]]
                             for n, cols in zip(layout.names, layout.columns)}
        systems, m = layout.names, len(layout.names)
    per_metric = {mid: summarise(mid, systems, points[i], values[i], float(confidence), extra=extras[mid])
                  for i, mid in enumerate(ids)}
    jackknife = any(e.jackknife is not None for e in extras.values())  # groups: the jackknife's t intervals and tests
    return Comparison(
        systems=systems,
        labels=list(joint.labels),
        n=joint.n,
        n_resamples=int(n_resamples),
        confidence=float(confidence),
        seed=int(seed) if isinstance(seed, (int, np.integer)) else None,  # a Generator is not recorded
        method=method,
        winners_method=winners_method(m, float(confidence), jackknife),
        convention=undefined,
        positive_label=first.positive_label,
        beta=float(beta),
        metrics=per_metric,
        ranking_agreement=ranking_agreement(ids, systems, points),
        undefined=undefined_records,
        mcnemar=mcnemar,
        test=paired_test_words(m, [t.metric for t in mcnemar], jackknife),
        groups=None if clusters is None else clusters[1],
        runs=None if layout is None else layout.runs,
        classes=design,
        absent_classes={str(joint.labels[c]): int(absent[c]) for c in np.flatnonzero(absent)},
        redrawn=lacked_classes(keepers, joint.labels),
        one_group_classes=[] if clusters is None else _one_group_classes(joint, clusters[0]),
    )


def _one_group_classes(joint: JointCounts, row_groups: np.ndarray) -> list[str]:
    """The classes of the test set whose items all lie in one group (the group of each joint row given)."""
    held = joint.counts > 0
    return [str(joint.labels[c]) for c in range(joint.k)
            if np.unique(row_groups[held & (joint.codes[:, 0] == c)]).size == 1]


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
    undefined: str = DEFAULT_CONVENTION,
    labels: Sequence[Label] | None = None,
    sample_weight: Any = None,
    progress: Progress | None = None,
    draw: str = "auto",
    class_weights: Any = None,
    method: str = "auto",
    groups: Any = None,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
    classes: str = "kept",
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
    positive_label, beta, undefined, class_weights, f1_classes, fallback_class,
        action_classes
        As in :func:`advisor.compute_metrics`.
    labels : sequence, optional
        The full label set (default: every label seen in the truth or any prediction).
    sample_weight : array-like (n,), optional
        Item weights (see :mod:`advisor.stats._bootstrap` for how non-integer masses are resampled).
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of resamples.
    draw : {"auto", "cells", "items"}
        How resamples are drawn (see :func:`advisor.bootstrap`).
    method : {"auto", "bca", "basic", "percentile"}
        How the intervals are made (see :func:`advisor.bootstrap`): "auto" chooses per metric.
    groups : array-like (n,), optional
        The group of each item (a patient, a document): resample groups, not items; under ``method="auto"`` the
        intervals and the pairs' tests are the delete-one-group jackknife's, with ``t`` on ``G − 1`` degrees of freedom
        (Cameron & Miller 2015; benchmarks/README.md, ``bench_few_groups_methods.py``).
    classes : {"kept", "fixed", "free"}
        How the true classes are resampled (see :func:`advisor.bootstrap`); groups are drawn whole either way.

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
    rows = None
    if groups is not None:
        joint, rows = _grouped_joint(joint, y_true, predictions, groups, sample_weight)
    return compare_joint(
        joint, n_resamples, seed, metrics, confidence=confidence, positive_label=positive_label,
        beta=beta, undefined=undefined, progress=progress, draw=draw, class_weights=class_weights, method=method,
        groups=rows, f1_classes=f1_classes, fallback_class=fallback_class, action_classes=action_classes,
        classes=classes,
    )
