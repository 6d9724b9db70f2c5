"""What the intervals of a paired comparison need beyond the resamples, from the joint table.

* BCa's acceleration of every system and every pairwise difference, from one jackknife over the joint
  table's items (:mod:`._jackknife`): deleting an item removes it from every system at once.
* The exact intervals of the proportions (:mod:`._choice`, :mod:`._proportions`), each system's count
  over its denominator.
* McNemar's exact test of every pair for accuracy, recall and specificity — proportions among a fixed set of
  items both systems classify (:mod:`._mcnemar`) — reported beside the bootstrap, with more than two systems the one-sided p-value of each pair with the top system
  Bonferroni-adjusted over the comparisons with it, and the smallest difference it resolves.
* Newcombe's interval of every pair's difference of those proportions where each system's own interval is
  Clopper–Pearson (:func:`._proportions.newcombe_paired`): it replaces the bootstrap interval of the difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import JointCounts, evaluate_batch
from ._bootstrap import chunk_size, resample_cells
from ._choice import interval_method, proportion_counts
from ._compare_models import McNemar
from ._familywise import best_level
from ._jackknife import acceleration, leave_out_values
from ._mcnemar import PAIRED_PROPORTIONS, mcnemar_resolvable, paired_counts
from ._paired import MCNEMAR_IDS, PairedInputs
from ._proportions import PROPORTION_METHODS, binomial_two_sided, newcombe_paired, proportion_interval
from ._runs import combine_points

__all__ = ["paired_inputs"]


def _jackknife(joint: JointCounts, ids: Sequence[str], options: dict[str, Any],
               clusters: tuple[np.ndarray, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(θ₍g₎ of shape (deletions, ids, systems), weights)`` from deleting items (or groups) of the joint table."""
    m, k = len(joint.systems), joint.k
    ids = list(ids)

    def evaluate(masses: np.ndarray) -> np.ndarray:
        out = np.empty((masses.shape[0], len(ids) * m))
        for j, cells in enumerate(joint.system_cells(masses)):
            vals = evaluate_batch(cells, ids, **options)
            for i, mid in enumerate(ids):
                out[:, i * m + j] = vals[mid]
        return out

    sizes = max((c.nnz for c in joint.system_cells()), default=0)
    base = np.asarray(joint.counts, dtype=np.float64)
    theta, weights = leave_out_values(base, len(ids) * m, evaluate,
                                      chunk_size(2 * base.shape[0] + resample_cells(sizes, k), base.shape[0]), clusters)
    return theta.reshape(theta.shape[0], len(ids), m), weights


def _tops(ids: Sequence[str], points: np.ndarray | None, mid: str) -> set[int]:
    """The indices of the systems with the best estimate of the proportion ``mid`` (accuracy: micro-F1's row when
    accuracy is not among ``ids``); empty without ``points``."""
    row = mid if mid in ids else next((x for x in MCNEMAR_IDS if x in ids), None)
    if points is None or row is None:
        return set()
    values = np.asarray(points[list(ids).index(row)], dtype=np.float64)
    if not np.isfinite(values).any():
        return set()
    return {int(j) for j in np.flatnonzero(values == np.nanmax(values))}


def _tested(ids: Sequence[str], positive_index: int | None) -> list[str]:
    """The proportions among ``ids`` McNemar's test compares, accuracy first (micro-F1 is accuracy)."""
    out = ["accuracy"] if any(mid in MCNEMAR_IDS for mid in ids) else []
    return out + [mid for mid in ("recall", "specificity") if mid in ids and positive_index is not None]


def mcnemar_tests(joint: JointCounts, confidence: float, ids: Sequence[str] = ("accuracy",),
                  positive_index: int | None = None, points: np.ndarray | None = None) -> list[McNemar]:
    """McNemar's exact test of every pair, for each proportion among ``ids`` over a fixed set of items (accuracy,
    recall, specificity); empty when the counts are not whole items. With ``points`` (ids, systems) and more than two
    systems, each test of a pair with the top system on that proportion also gets ``p_adjusted``, its one-sided p-value
    Bonferroni-adjusted over the ``m − 1`` comparisons with the top (the winners' rule, :mod:`._familywise`)."""
    systems = list(joint.systems)
    m = len(systems)
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    alpha = best_level(m, 1.0 - confidence)  # the two-sided level at which a pair with the top system is separated
    tests: list[McNemar] = []
    for mid in _tested(ids, positive_index):
        tops = _tops(ids, points, mid)
        these: list[McNemar] = []
        for a, b in pairs:
            counts = paired_counts(joint, mid, a, b, positive_index)
            if counts is None:
                return []
            _, a_only, b_only, _ = counts
            these.append(McNemar(a=systems[a], b=systems[b], a_only=a_only, b_only=b_only, metric=mid,
                                 p=binomial_two_sided(int(a_only), int(b_only)),
                                 resolvable=mcnemar_resolvable(a_only + b_only, sum(counts), alpha)))
        if m > 2 and tops:
            these = [t.model_copy(update={"p_adjusted": min(1.0, (m - 1) * t.p / 2.0)})
                     if (a in tops) != (b in tops) else t for t, (a, b) in zip(these, pairs)]
        tests += these
    return tests


def _newcombe(joint: JointCounts, mid: str, points: np.ndarray, confidence: float,
              positive_index: int | None) -> tuple[dict[tuple[int, int], tuple[float, float]], dict[tuple[int, int], float]]:
    """Newcombe's interval of each pair's difference of the proportion ``mid`` (its paired 2×2 table), where the
    table gives the estimates, with McNemar's exact p-value of the same table; the other pairs keep the bootstrap."""
    m = len(joint.systems)
    out = {}
    tests = {}
    for a in range(m):
        for b in range(a + 1, m):
            counts = paired_counts(joint, mid, a, b, positive_index)
            n = 0.0 if counts is None else sum(counts)
            if counts is None or not n > 0:
                continue
            both, a_only, b_only, _ = counts
            same = np.isclose(points[a] - points[b], (a_only - b_only) / n, rtol=1e-9, atol=1e-12)
            if same and np.isclose(points[a], (both + a_only) / n, rtol=1e-12, atol=0.0):
                out[(a, b)] = newcombe_paired(*counts, confidence)
                tests[(a, b)] = binomial_two_sided(int(a_only), int(b_only))
    return out, tests


def paired_inputs(joint: JointCounts, ids: Sequence[str], points: np.ndarray, confidence: float, method: str,
                  proportion: str, options: dict[str, Any], clusters: tuple[np.ndarray, int] | None = None,
                  layout: Any = None) -> tuple[dict[str, PairedInputs], list[McNemar]]:
    """Per metric id the :class:`PairedInputs` of its summary; and McNemar's tests when accuracy is compared.

    ``points`` (ids, systems) are the estimates; ``method`` is "auto" (chosen per metric) or one method for
    all; ``options`` are the engine's (positive_index, beta, undefined, class_weights, f1_classes,
    fallback_index); ``clusters``
    (group of each joint row, number of groups): items are not independent, so no proportion is binomial and
    McNemar's test does not apply — the delete-one-group jackknife's t interval for every metric under "auto"
    (:func:`._jackknife.jackknife_t`), BCa's over resampled groups when asked for.
    ``layout`` (:class:`advisor.stats._runs.RunLayout`): the systems are means over runs — BCa for every metric, the
    jackknife of the run means, no McNemar test.
    """
    systems = list(joint.systems)
    m = len(systems)
    counts = np.asarray(joint.counts, dtype=np.float64)
    whole = bool(np.all(counts == np.round(counts))) and clusters is None and layout is None
    wanted = {mid: interval_method(mid, whole_items=whole, proportion=proportion) if method == "auto" else method
              for mid in ids}
    theta = weights = None
    if any(w in ("auto", "bca") for w in wanted.values()):
        theta, weights = _jackknife(joint, ids, options, clusters)
        if layout is not None:
            theta, m = combine_points(theta, layout), len(layout.names)
    own = joint.system_cells()
    out: dict[str, PairedInputs] = {}
    for i, mid in enumerate(ids):
        extra = PairedInputs(methods=wanted[mid])
        if theta is not None:
            if clusters is not None and wanted[mid] == "auto":  # groups: the jackknife's t interval, not BCa
                extra.jackknife = theta[:, i, :]
            extra.accel = acceleration(theta[:, i, :], weights)
            with np.errstate(invalid="ignore"):  # ∞ − ∞ (LR+): that deletion is left out
                extra.diff_accel = {(a, b): float(acceleration((theta[:, i, a] - theta[:, i, b])[:, None],
                                                               weights)[0])
                                    for a in range(m) for b in range(a + 1, m)}
        if wanted[mid] in PROPORTION_METHODS:
            props = {}
            for j, cells in enumerate(own):
                x, n = proportion_counts(mid, cells, options.get("positive_index"), options.get("action_mask"),
                                         options.get("fallback_index")) or (0.0, 0.0)
                ok = n > 0 and np.isclose(points[i, j], x / n, rtol=1e-12, atol=0.0)
                props[j] = proportion_interval(x, n, confidence, wanted[mid]) if ok else (np.nan, np.nan)
            extra.proportions = props
            if wanted[mid] == "clopper_pearson" and mid in PAIRED_PROPORTIONS and m > 1:
                extra.paired_differences, extra.paired_p = _newcombe(joint, mid, points[i], confidence,
                                                                     options.get("positive_index"))
        out[mid] = extra
    tests = mcnemar_tests(joint, confidence, ids, options.get("positive_index"), points) if (
        m > 1 and clusters is None and layout is None) else []
    return out, tests
