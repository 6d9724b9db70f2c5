"""Bootstrap intervals and paired comparison for ordinal, multi-label, top-k and agreement metrics.

Resampling follows the data: an ordinal confusion table is resampled by its non-zero cells
(multinomial over the cells, n draws — the same as resampling items); label sets, top-k scores and
ratings tables by items (multinomial item weights, so each resample is a weighted evaluation and no
item table is copied). A paired comparison uses the *same* resample for every system: item weights
shared across systems, or — for ordinal tables — cells of the joint table of (true, prediction of
each system) codes. ``p_better[a][b]`` is the share of resamples in which system a scores better
than b (ties count half).

Intervals are chosen as for every other metric (:mod:`advisor.stats._intervals`): BCa around the
point estimate, with the acceleration of a jackknife over the same unit (items, or the ordinal table's
cells), and none where no interval contains the estimate; the estimate is the metric on the data (it
was the median of the resamples before issue 20).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError
from ..engine import (
    NOMINAL_BESIDE,
    STRUCTURE_METRICS,
    OrdinalCells,
    evaluate_ordinal_batch,
    nominal_beside,
    top_k_hits,
    with_counts,
)
from ._bootstrap import check_arguments, pick_seed
from ._clusters import check_groups, item_weights, iter_cluster_resamples
from ._compare_models import Comparison
from ._paired import summarise
from ._ranks import ranking_agreement as _ranking_agreement
from ._structure_eval import _size, _weighted, cells_evaluator
from ._structure_jackknife import paired_structure_inputs, structure_intervals

__all__ = ["structure_bootstrap", "structure_compare", "structure_comparison"]

_CHUNK_CELLS = 4_000_000  # resamples × items evaluated at once


def _check(n_resamples: int, confidence: float) -> None:
    check_arguments(n_resamples, confidence)  # the same checks (and minimum) as every bootstrap


def _item_draws(systems: dict[str, Any], ids: Sequence[str], n_resamples: int, rng: np.random.Generator,
                undefined: str, top_k: int | None, progress: Any = None, groups: np.ndarray | None = None
                ) -> dict[str, dict[str, np.ndarray]]:
    """Item weights of each resample: multinomial over the items, or — with ``groups`` (the group index of each
    item) — each item weighted by how often its group is drawn (the cluster bootstrap)."""
    sizes = {_size(d) for d in systems.values()}
    if len(sizes) != 1:
        raise InputError(f"the systems have different numbers of items ({', '.join(map(str, sorted(sizes)))}); "
                         "a paired comparison needs the same items in the same order.")
    n = sizes.pop()
    out: dict[str, dict[str, list[np.ndarray]]] = {s: {m: [] for m in ids} for s in systems}
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        w = item_weights(rng, n, rows, groups)
        for s, d in systems.items():
            for m, v in _weighted(d, ids, w, undefined, top_k).items():
                out[s][m].append(np.asarray(v))
        if progress is not None:
            progress(min(start + step, n_resamples), n_resamples)
    return {s: {m: np.concatenate(v) for m, v in ms.items()} for s, ms in out.items()}


def _cell_draws(systems: dict[str, Any], items: dict[str, tuple[np.ndarray, np.ndarray]] | None, ids: Sequence[str],
                n_resamples: int, rng: np.random.Generator, undefined: str) -> dict[str, dict[str, np.ndarray]]:
    """Resamples of ordinal or hierarchy cells (both are the non-zero cells of a confusion matrix)."""
    evaluate, with_counts = cells_evaluator(next(iter(systems.values())), ids, undefined)

    names = list(systems)
    if len(names) == 1 or items is None:  # one table: resample its own cells
        out = {}
        for s, c in systems.items():
            total = float(np.sum(c.counts))
            w = rng.multinomial(int(round(total)), np.asarray(c.counts) / total, size=n_resamples).astype(float)
            out[s] = evaluate(with_counts(c, w))
        return out
    t = items[names[0]][0]
    k = systems[names[0]].k
    codes = t.astype(np.int64)
    for s in names:
        codes = codes * k + items[s][1]
    joint, cnt = np.unique(codes, return_counts=True)
    w = rng.multinomial(int(cnt.sum()), cnt / cnt.sum(), size=n_resamples).astype(float)
    preds: dict[str, np.ndarray] = {}
    rest = joint.copy()
    for s in reversed(names):
        preds[s], rest = rest % k, rest // k
    out = {}
    for s in names:  # each joint cell is one (true, pred_s) cell of system s; duplicates sum up in the metrics
        out[s] = evaluate(with_counts(systems[s], w, rest, preds[s]))
    return out


def _grouped_cell_draws(systems: dict[str, Any], ids: Sequence[str], n_resamples: int, rng: np.random.Generator,
                        undefined: str, groups: np.ndarray) -> dict[str, dict[str, np.ndarray]]:
    """Ordinal cells with the group of each cell (a cell per (true, predicted, group) row of the table): whole groups
    are drawn, each cell weighing its count times its group's multiplicity (the cluster bootstrap of the items)."""
    if len(systems) != 1:
        raise InputError("ordered classes with a resampling unit are evaluated one system at a time; give one "
                         "prediction file, or leave the group out to compare systems.")
    (name, cells), = systems.items()
    evaluate, with_counts = cells_evaluator(cells, ids, undefined)
    n_groups = int(groups.max()) + 1
    chunks: dict[str, list[np.ndarray]] = {m: [] for m in ids}
    step = max(1, _CHUNK_CELLS // max(len(groups), 1))
    for _, masses in iter_cluster_resamples(rng, np.asarray(cells.counts), groups, n_groups, n_resamples, step):
        for m, v in evaluate(with_counts(cells, masses.astype(np.float64))).items():
            chunks[m].append(np.asarray(v))
    return {name: {m: np.concatenate(v) for m, v in chunks.items()}}


def _draws(structure: str, systems: dict[str, Any], ids: Sequence[str], n_resamples: int, seed: int | None,
           undefined: str, top_k: int | None, items: Any, progress: Any = None, groups: np.ndarray | None = None
           ) -> dict[str, dict[str, np.ndarray]]:
    """``progress(done, total)`` after each chunk of item resamples (ordinal cells are drawn at once: cheap)."""
    rng = np.random.default_rng(seed)  # seeds are picked before this (pick_seed)
    if structure == "ordinal" and groups is not None:  # whole groups of one system's cells (the cluster bootstrap)
        return _grouped_cell_draws(systems, ids, n_resamples, rng, undefined, groups)
    if structure in ("ordinal", "hierarchy"):
        return _cell_draws(systems, items, ids, n_resamples, rng, undefined)
    return _item_draws(systems, ids, n_resamples, rng, undefined, top_k, progress, groups)


def structure_bootstrap(structure: str, data: Any, metrics: Sequence[str], *, n_resamples: int = 1000,
                        confidence: float = 0.95, seed: int | None = None, undefined: str = DEFAULT_CONVENTION,
                        top_k: int | None = None, progress: Any = None, groups: Any = None
                        ) -> dict[str, dict[str, Any]]:
    """Intervals ``{id: {"estimate", "low", "high", "method"[, "reason"]}}`` of one system's structured input
    (``progress(done, total)`` after each chunk of item resamples). ``groups``: the group of each item (label sets):
    groups are resampled, not items, and the jackknife deletes a group at a time.

    >>> from advisor.engine._ordinal import ordinal_cells
    >>> r = structure_bootstrap("ordinal", ordinal_cells([[5, 1, 0], [1, 4, 1], [0, 1, 6]]), ["mae"], seed=0)
    >>> r["mae"]["low"] <= r["mae"]["estimate"] <= r["mae"]["high"], r["mae"]["method"]
    (True, 'bca')
    """
    _check(n_resamples, confidence)
    ids = list(metrics)
    g = None if groups is None else _group_index(groups, _size(data))
    draws = _draws(structure, {"s": data}, ids, n_resamples, pick_seed(seed), undefined, top_k, None, progress,
                   g)["s"]
    return structure_intervals(structure, data, ids, draws, confidence, undefined, top_k, g)


def _group_index(groups: Any, n: int) -> np.ndarray | None:
    """The group index (0 … G−1) of each of ``n`` items, or None to resample items."""
    if groups is None:
        return None
    return check_groups(groups, n)[0]


def _interval_of(r: Any) -> dict[str, Any]:
    """A system's entry of a paired summary as the JSON of ``structure_compare``."""
    return {"estimate": r.estimate, "low": r.low, "high": r.high, "method": r.method,
            **({"reason": r.reason} if r.reason else {})}


def _interval(v: np.ndarray, confidence: float) -> dict[str, float]:
    """Percentile interval of resamples when no point estimate is given (the estimate: their median)."""
    v = np.asarray(v, dtype=float)
    ok = v[~np.isnan(v)]
    if ok.size == 0:
        return {"estimate": float("nan"), "low": float("nan"), "high": float("nan")}
    lo, hi = np.quantile(ok, [(1 - confidence) / 2, 1 - (1 - confidence) / 2])
    return {"estimate": float(np.median(ok)), "low": float(lo), "high": float(hi)}


def _paired(structure: str, systems: dict[str, Any], metrics: Sequence[str], n_resamples: int, confidence: float,
            seed: int | None, undefined: str, top_k: int | None, items: Any, progress: Any = None,
            groups: np.ndarray | None = None) -> dict[str, dict[str, np.ndarray]]:
    _check(n_resamples, confidence)
    if structure == "agreement":
        raise InputError("an agreement study has no systems to compare; it measures agreement among annotators.")
    if len(systems) < 2:
        raise InputError("a comparison needs at least two systems (files).")
    if structure in ("ordinal", "hierarchy") and items is None:
        raise InputError(f"a paired comparison of {structure} predictions needs the items (prediction files), not only "
                         "tables.")
    return _draws(structure, systems, list(metrics), n_resamples, seed, undefined, top_k, items, progress, groups)


def structure_compare(structure: str, systems: dict[str, Any], metrics: Sequence[str], *,
                      lower_is_better: Sequence[str] = (), n_resamples: int = 1000, confidence: float = 0.95,
                      seed: int | None = None, undefined: str = DEFAULT_CONVENTION, top_k: int | None = None,
                      items: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
                      points: dict[str, dict[str, float]] | None = None, progress: Any = None) -> dict[str, Any]:
    """Paired bootstrap of several systems on the same items, per metric: ``intervals`` (estimate = median
    of the resamples), ``p_better[a][b]``; with ``points`` (each system's values) also ``winners`` and
    ``p_first`` as :func:`structure_comparison` defines them."""
    draws = _paired(structure, systems, metrics, n_resamples, confidence, pick_seed(seed), undefined, top_k, items,
                    progress)
    summary = _summary(systems, metrics, draws, points, confidence, lower_is_better, structure, undefined, top_k,
                       items) if points else {}
    out: dict[str, Any] = {}
    for m in metrics:
        sign = -1.0 if m in lower_is_better else 1.0
        p_better: dict[str, dict[str, float]] = {}
        for a in systems:
            p_better[a] = {}
            for b in systems:
                if a != b:
                    da, db = sign * draws[a][m], sign * draws[b][m]
                    p_better[a][b] = float(np.mean((da > db) + 0.5 * (da == db)))
        out[m] = {"intervals": ({s: _interval_of(summary[m].systems[s]) for s in systems} if m in summary else
                                {s: _interval(draws[s][m], confidence) for s in systems}), "p_better": p_better}
        if m in summary:
            out[m]["winners"] = list(summary[m].winners)
            out[m]["p_first"] = {s: r.p_first for s, r in summary[m].systems.items()}
    return out


def _summary(systems: dict[str, Any], metrics: Sequence[str], draws: dict[str, dict[str, np.ndarray]],
             points: dict[str, dict[str, float]], confidence: float, lower: Sequence[str], structure: str = "",
             undefined: str = DEFAULT_CONVENTION, top_k: int | None = None, items: Any = None,
             groups: np.ndarray | None = None) -> dict[str, Any]:
    names = list(systems)
    extras = paired_structure_inputs(structure, systems, list(metrics), points, undefined, top_k, items, confidence,
                                     groups)
    return {m: summarise(m, names, np.array([points[s][m] for s in names], dtype=float),
                         np.column_stack([draws[s][m] for s in names]), float(confidence), lower=frozenset(lower),
                         extra=extras.get(m))
            for m in metrics}


def structure_comparison(structure: str, systems: dict[str, Any], metrics: Sequence[str],
                         points: dict[str, dict[str, float]], *, labels: Sequence[Any] = (), n_resamples: int = 1000,
                         confidence: float = 0.95, seed: int | None = None, undefined: str = DEFAULT_CONVENTION,
                         top_k: int | None = None, items: dict[str, tuple[np.ndarray, np.ndarray]] | None = None,
                         groups: Any = None) -> Any:
    """The paired comparison of :func:`advisor.stats.compare_joint` for structured systems on the same items.

    ``points[system][metric]`` are the systems' values (:func:`advisor.engine._structures.evaluate_structure`).
    The same resamples serve every system (shared item weights; for ordinal predictions cells of the
    joint table of true and predicted ranks), so the result has the same definitions as the nominal
    one: percentile intervals, differences ``a − b``, P(a better than b) with ties counting half, the
    probability of ranking first, winners (the best and every system whose paired difference to it
    has an interval containing 0) and the rank agreement between the metrics.

    >>> from advisor.engine._topk import top_k_hits  # noqa: F401
    >>> import numpy as np
    >>> s = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1]])
    >>> good, bad = (s, np.array([0, 1, 2, 0]), ("x", "y", "z")), (s[:, ::-1], np.array([0, 1, 2, 0]), ("x", "y", "z"))
    >>> c = structure_comparison("top_k", {"good": good, "bad": bad}, ["top_k_accuracy"],
    ...                          {"good": {"top_k_accuracy": 1.0}, "bad": {"top_k_accuracy": 0.25}}, top_k=1, seed=0)
    >>> c.winners("top_k_accuracy"), c.probability_better("good", "bad", "top_k_accuracy") > 0.9
    (['good'], True)
    """
    ids = list(metrics)
    names = list(systems)
    lower = frozenset(m for m in ids if m in STRUCTURE_METRICS and not STRUCTURE_METRICS[m].higher_is_better)

    seed = pick_seed(seed)
    g = None if groups is None else _group_index(groups, _size(next(iter(systems.values()))))
    draws = _paired(structure, systems, ids, n_resamples, confidence, seed, undefined, top_k, items, groups=g)
    per_metric = _summary(systems, ids, draws, points, confidence, tuple(lower), structure, undefined, top_k, items,
                          g)
    matrix = np.array([[points[s][m] for s in names] for m in ids], dtype=float)
    n = float(_size(next(iter(systems.values())))) if structure not in ("ordinal", "hierarchy") else float(
        np.sum(next(iter(systems.values())).counts))
    return Comparison(systems=names, labels=[str(x) for x in labels], n=n, n_resamples=int(n_resamples),
                      confidence=float(confidence), seed=int(seed) if isinstance(seed, (int, np.integer)) else None,
                      convention=undefined, positive_label=None, beta=1.0, metrics=per_metric,
                      ranking_agreement=_ranking_agreement(ids, names, matrix, lower), undefined={s: [] for s in names})
