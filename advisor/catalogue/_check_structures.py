"""Property claims of metrics that do not score a nominal confusion matrix, checked on their own inputs.

Ordinal metrics score an *ordered* confusion matrix, so the general checker (:mod:`._checker`) runs on
them unchanged (``_space.MetricFunction`` evaluates them without dropping unused classes, which would
change the order distances); only macro MAE's and MAE's chance claims are decided here. Multi-label
metrics are checked on pairs of 0/1 label arrays (items × labels), agreement coefficients on ratings
tables (items × annotators, −1 = missing), top-k accuracy on score tables. Each property is a random
generator of cases plus a predicate that says why a case violates it (or, for an existential
property, why it is a witness); a found case is a proof, "none within budget" confirms up to the
budget. Undefined values use the ``baseline`` convention (a label or item absent from both
labelings is one they agree on). A property stated for the cells of a single-label confusion matrix
and without a counterpart here is ``not_applicable``; the claim's note says why.

Operational definitions (scores oriented: higher = better):

* multi-label — Max: identical label sets, and only they, score the best value; Min: the worst value
  exactly when every bit is wrong (Ŷ = 1 − Y); CSym: permuting the labels; Sym: exchanging truth and
  prediction; Dist: best − score is a metric (identity, symmetry, triangle inequality over random
  triples); Mon / PI: correcting one wrong bit strictly raises / never lowers the score; PII: moving
  one new error from label a to label b can change the score (witness); PIII: the score equals the
  mean of the same metric over each label's column alone; PV fails when a constant predictor (every
  label, or none) scores within 5 % of the best value.
* agreement — Max: value 1 exactly when the annotators agree on every item; CSym: renaming the
  categories; Sym: reordering the annotators; Mon / PI: changing the one dissenting rating of an
  item to the others' category strictly raises / never lowers the score; PV: independent annotators
  (ratings drawn at random from one distribution, 20000 items, 20 draws) score 0 ± 0.03.
* partition (two clusterings of the same items, arbitrary cluster ids; Gösgens, Tikhonov & Prokhorenkova
  2021, §3) — Max: identical partitions (up to renaming), and only they, score the best value; CSym:
  renaming the cluster ids of both sides; Sym: exchanging the two partitions; Dist: best − score is a
  metric (symmetric, and the triangle inequality over random triples); Mon / PI: an A-consistent improvement B′ of B (every
  pair of items B classifies like A, together or apart, B′ classifies so too, and B′ ≠ B: a perfect
  split or merge) strictly raises / never lowers the score; SMon (pair-counting indices only; Gösgens et al. define
  it on the four pair counts N11, N10, N01, N00 as free numbers): from the pair counts of two different partitions,
  one more pair the partitions agree on (N11 or N00) strictly raises the score and one more they disagree on (N10 or
  N01) strictly lowers it; CB: the exact expected score over every
  relabelling of the items of B (the permutation model: cluster sizes fixed) equals the chance value
  (0; ½ for the correlation distance); ACB: for 2000 items the mean over 20 relabellings is within 0.01
  of it; PV: independent random partitions of 2000 items score the chance value ± 0.03 (ACB and PV: 2–6 clusters on each
  side, or 100–400 small clusters in the second partition half the time). Cases have two
  or more clusters on each side and at least one cluster of two items (else the indices are undefined).
* hierarchy (classes are nodes of a tree; Kiritchenko et al. 2006) — a case is a random tree of 3–9 nodes (the
  parent of each node, −1 below the implicit root) and the true and predicted node of 1–8 items. Max: identical
  predictions, and only they, score the best value; CSym: renaming the nodes (in the tree and the items alike);
  Sym: exchanging truth and prediction; Mon / PI: replacing one wrong prediction by the true class strictly
  raises / never lowers the score.
* multi-label scores (macro ROC AUC) — checked on hard outputs, each label's score its 0/1 decision (where the
  properties of two labelings are defined), with the multi-label cases above.
* top-k — PI: raising the true class's score never lowers the score and lowering it never raises it;
  CSym: permuting the classes; PV fails when random scores reach 5 % of the best value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..engine import (
    LabelSets,
    evaluate_agreement_batch,
    evaluate_multilabel_batch,
    hierarchy_cells,
    hierarchy_metrics,
    pair_count_indices,
    partition_metrics,
    ratings_from_codes,
    taxonomy_from_edges,
    top_k_hits,
)
from ._checker import random_classifiers
from ._models import Counterexample, MetricRecord, PropertyClaim
from ._space import MetricFunction

__all__ = ["check_structure", "structure_counterexample"]

Case = list[np.ndarray]
Result = tuple["bool | None", str, "Counterexample | None"]
KIND = {"multilabel": "label_sets", "agreement": "ratings", "top_k": "scores", "partition": "partitions",
        "hierarchy": "hierarchy"}
NEAR = 0.05
MAX_CASES = 800  # random cases per property and metric (the audit's budget, capped)


# ----------------------------------------------------------------------------------------------
# evaluation on the structure's own inputs
# ----------------------------------------------------------------------------------------------
def _value(record: MetricRecord, arrays: Case, **kw: Any) -> float:
    mid = record.id
    with np.errstate(all="ignore"):
        if record.structure == "multilabel":
            y, p = (np.asarray(a) > 0 for a in arrays[:2])
            # a score metric (macro ROC AUC) is checked on hard outputs: each label's score is its 0/1 decision
            sets = LabelSets(y, p, tuple(range(y.shape[1])), p.astype(float) if record.needs_probabilities else None)
            return float(evaluate_multilabel_batch(sets, [mid], np.ones(y.shape[0]), "baseline")[mid])
        if record.structure == "agreement":
            r = ratings_from_codes(np.asarray(arrays[0], int), kw.get("c"))
            return float(evaluate_agreement_batch(r, [mid], np.ones(r.counts.shape[0]), "baseline")[mid])
        if record.structure == "partition":
            return float(partition_metrics(_contingency(arrays[0], arrays[1]), [mid])[mid])
        if record.structure == "hierarchy":
            return _hr_value(mid, *arrays[:3])

        s, y, k = arrays
        return float(top_k_hits(s, np.asarray(y).reshape(-1).astype(int), int(np.asarray(k).reshape(-1)[0])).mean())


def _oriented(record: MetricRecord, arrays: Case, **kw: Any) -> float:
    return (1.0 if record.higher_is_better else -1.0) * _value(record, arrays, **kw)


def _best(record: MetricRecord) -> float:
    return 0.0 if record.id in ("hamming_loss", "pair_correlation_distance") else 1.0


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y))


# ----------------------------------------------------------------------------------------------
# multi-label cases
# ----------------------------------------------------------------------------------------------
def _ml_pair(rng: np.random.Generator, both: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A random pair of label sets; ``both``: every label is had by some items and lacked by others (a score
    metric such as ROC AUC is undefined for a label of one class)."""
    n, L = int(rng.integers(2 if both else 1, 6)), int(rng.integers(2, 5))
    y = (rng.random((n, L)) < rng.uniform(0.1, 0.9)).astype(int)
    if both:
        for j in np.flatnonzero(y.min(0) == y.max(0)):
            y[int(rng.integers(n)), j] = 1 - y[0, j]
    p = np.where(rng.random((n, L)) < rng.uniform(0.3, 0.9), y, 1 - y)
    return y, p


def _ml_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    v = lambda y, p: _value(r, [y, p])  # noqa: E731
    o = lambda y, p: _oriented(r, [y, p])  # noqa: E731
    worst = 1.0 if r.id == "hamming_loss" else 0.0

    def gen_max(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        return [y, p]

    def max_(c):
        y, p = c
        same = np.array_equal(y, p)
        if same and not _close(v(y, p), _best(r)):
            return f"identical label sets score {v(y, p):.6g}, not {_best(r):g}"
        if not same and _close(v(y, p), _best(r)):
            return f"different label sets score the best value {_best(r):g}"
        return None

    def gen_min(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        return [y, 1 - y if rng.random() < 0.3 else p]

    def min_(c):
        y, p = c
        opposite = np.array_equal(p, 1 - y)
        at_worst = _close(v(y, p), worst)
        if opposite != at_worst:
            return (f"Ŷ = 1 − Y scores {v(y, p):.6g}, not the worst value {worst:g}" if opposite
                    else f"label sets that agree somewhere score the worst value {worst:g}")
        return None

    def gen_perm(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        perm = rng.permutation(y.shape[1])
        return [y, p, y[:, perm], p[:, perm]]

    def csym(c):
        a, b = v(c[0], c[1]), v(c[2], c[3])
        return None if _close(a, b) else f"permuting the labels changes the score from {a:.6g} to {b:.6g}"

    def sym(c):
        a, b = v(c[0], c[1]), v(c[1], c[0])
        return None if _close(a, b) else f"exchanging truth and prediction changes the score from {a:.6g} to {b:.6g}"

    def gen_tri(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        z = np.where(rng.random(y.shape) < 0.5, y, p)
        z = np.where(rng.random(y.shape) < 0.2, 1 - z, z)
        return [y, z, p]

    def dist(c):
        y, z, p = c
        d = lambda a, b: _best(r) * (1 if r.higher_is_better else -1) - o(a, b)  # noqa: E731
        if d(y, p) > d(y, z) + d(z, p) + 1e-9:
            return f"triangle inequality fails: d(Y,Ŷ) = {d(y, p):.6g} > d(Y,Z) + d(Z,Ŷ) = {d(y, z) + d(z, p):.6g}"
        return None

    def gen_fix(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        wrong = np.argwhere(y != p)
        if len(wrong) == 0:
            p = p.copy()
            p[0, 0] = 1 - p[0, 0]
            wrong = np.argwhere(y != p)
        i, j = wrong[int(rng.integers(len(wrong)))]
        q = p.copy()
        q[i, j] = y[i, j]
        return [y, p, q]

    def mon(strict: bool):
        def check(c):
            y, p, q = c
            a, b = o(y, p), o(y, q)
            if b < a - 1e-12 or (strict and _close(a, b)):
                return f"correcting one wrong label bit moves the score from {v(y, p):.6g} to {v(y, q):.6g}"
            return None
        return check

    return {"max_agreement": (gen_max, max_), "min_agreement": (gen_min, min_), "class_symmetry": (gen_perm, csym),
            "symmetry": (gen_max, sym), "distance": (gen_tri, dist), "monotonicity": (gen_fix, mon(True)),
            "opitz_monotonicity": (gen_fix, mon(False)), **_ml_class_checks(r)}


def _ml_class_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    """Class sensitivity (PII), class decomposability (PIII) and chance correction (PV) on label sets."""
    v = lambda y, p: _value(r, [y, p])  # noqa: E731

    def gen_pii(rng):
        y, p = _ml_pair(rng, r.needs_probabilities)
        p = np.where(rng.random(y.shape) < 0.3, 1 - y, y)  # some errors already
        i, (a, b) = int(rng.integers(y.shape[0])), rng.choice(y.shape[1], 2, replace=False)
        if y[i, a] != y[i, b] or p[i, a] != y[i, a] or p[i, b] != y[i, b]:
            return [y, p, p]  # not the same kind of new error on both labels: no witness from this case
        p1, p2 = p.copy(), p.copy()
        p1[i, a], p2[i, b] = 1 - p1[i, a], 1 - p2[i, b]
        return [y, p1, p2]

    def pii(c):  # a witness: one error on label a vs the same kind of error on label b
        y, p1, p2 = c
        a, b = v(y, p1), v(y, p2)
        return None if _close(a, b) else f"the same new error costs differently on two labels ({a:.6g} vs {b:.6g})"

    def piii(c):
        y, p = c
        mean = float(np.mean([v(y[:, [j]], p[:, [j]]) for j in range(y.shape[1])]))
        a = v(y, p)
        return None if _close(a, mean) else f"the score {a:.6g} is not the mean {mean:.6g} of the per-label scores"

    def gen_pv(rng):
        n, L = int(rng.integers(20, 41)), int(rng.integers(2, 4))
        dense = rng.random() < 0.5
        y = (rng.random((n, L)) < (0.98 if dense else 0.02)).astype(int)
        return [y, np.full_like(y, 1 if dense else 0)]

    def pv(c):
        y, p = c
        gap = abs(v(y, p) - _best(r))
        return f"a constant predictor (every label or none) scores {v(y, p):.6g}, within 5 % of the best" \
            if gap <= NEAR else None

    return {"class_sensitivity": (gen_pii, pii), "class_decomposability": (lambda rng: list(_ml_pair(rng, r.needs_probabilities)), piii),
            "chance_correction": (gen_pv, pv)}


# ----------------------------------------------------------------------------------------------
# agreement cases (codes: items × annotators, −1 = missing)
# ----------------------------------------------------------------------------------------------
def _ratings(rng: np.random.Generator, complete: bool) -> np.ndarray:
    n, m, c = int(rng.integers(2, 7)), int(rng.integers(2, 5)), int(rng.integers(2, 5))
    truth = rng.integers(0, c, n)
    t = np.where(rng.random((n, m)) < rng.uniform(0.4, 0.9), truth[:, None], rng.integers(0, c, (n, m)))
    if not complete:
        t = np.where(rng.random(t.shape) < 0.15, -1, t)
    return t


def _ag_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    complete = r.id == "fleiss_kappa"
    v = lambda t: _value(r, [t])  # noqa: E731

    def gen_max(rng):
        t = _ratings(rng, complete)
        if rng.random() < 0.4:
            t = np.where(t >= 0, np.arange(t.shape[0])[:, None] % 2, t)
        return [t]

    def max_(c):
        t = c[0]
        agree = all(len(set(row[row >= 0])) <= 1 for row in t)
        if agree != _close(v(t), 1.0):
            return f"{'unanimous' if agree else 'disagreeing'} ratings score {v(t):.6g}"
        return None

    def gen_perm(rng):
        t = _ratings(rng, complete)
        perm = rng.permutation(max(int(t.max()) + 1, 2))
        return [t, np.where(t >= 0, perm[np.maximum(t, 0)], -1)]

    def csym(c):
        a, b = v(c[0]), v(c[1])
        return None if _close(a, b) else f"renaming the categories changes the score from {a:.6g} to {b:.6g}"

    def gen_sym(rng):
        t = _ratings(rng, complete)
        return [t, t[:, rng.permutation(t.shape[1])]]

    def sym(c):
        a, b = v(c[0]), v(c[1])
        return None if _close(a, b) else f"reordering the annotators changes the score from {a:.6g} to {b:.6g}"

    def gen_fix(rng):
        for _ in range(50):
            t = _ratings(rng, complete)
            for i, row in enumerate(t):
                vals = row[row >= 0]
                u, cnt = np.unique(vals, return_counts=True)
                if len(u) == 2 and cnt.min() == 1 and len(vals) >= 3:
                    lone, major = (u[0], u[1]) if cnt[0] == 1 else (u[1], u[0])
                    q = t.copy()
                    q[i, np.flatnonzero(row == lone)[0]] = major
                    return [t, q]
        t = np.array([[0, 0, 1], [1, 1, 0]])
        return [t, np.array([[0, 0, 0], [1, 1, 0]])]

    def mon(strict: bool):
        def check(c):
            a, b = v(c[0]), v(c[1])
            if b < a - 1e-12 or (strict and _close(a, b)):
                return f"making a lone dissenting rating agree moves the score from {a:.6g} to {b:.6g}"
            return None
        return check

    def gen_pv(rng):
        c = int(rng.integers(2, 5))
        probs = rng.dirichlet(np.ones(c) * 2)
        return [rng.choice(c, size=(20000, 3), p=probs)]

    def pv(c):
        x = v(c[0])
        return None if abs(x) <= 0.03 else f"independent annotators score {x:.4g}, not 0 ± 0.03"

    return {"max_agreement": (gen_max, max_), "class_symmetry": (gen_perm, csym), "symmetry": (gen_sym, sym),
            "monotonicity": (gen_fix, mon(True)), "opitz_monotonicity": (gen_fix, mon(False)),
            "chance_correction": (gen_pv, pv)}


# ----------------------------------------------------------------------------------------------
# partition cases (cluster ids per item; each array is stored as one row, [[id per item]])
# ----------------------------------------------------------------------------------------------
def _contingency(t: Any, p: Any) -> np.ndarray:
    t, p = np.asarray(t).reshape(-1), np.asarray(p).reshape(-1)
    _, ti = np.unique(t, return_inverse=True)
    _, pi = np.unique(p, return_inverse=True)
    c = np.zeros((int(ti.max()) + 1, int(pi.max()) + 1))
    np.add.at(c, (ti, pi), 1.0)
    return c


def _pt_valid(x: np.ndarray) -> bool:
    """Two or more clusters and one of two or more items: every partition index is defined."""
    _, cnt = np.unique(x, return_counts=True)
    return len(cnt) >= 2 and cnt.max() >= 2


def _same_partition(t: np.ndarray, p: np.ndarray) -> bool:
    t, p = np.asarray(t).reshape(-1), np.asarray(p).reshape(-1)
    return bool(np.array_equal(t[:, None] == t[None, :], p[:, None] == p[None, :]))


def _relabel(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    u, inv = np.unique(x, return_inverse=True)
    return (rng.permutation(len(u)) * 3 + 11)[inv]


def _partition(rng: np.random.Generator, n: int, like: np.ndarray | None = None) -> np.ndarray:
    for _ in range(100):
        k = int(rng.integers(2, 5))
        x = rng.integers(0, k, n)
        if like is not None:
            x = np.where(rng.random(n) < rng.uniform(0.3, 0.9), like, x + 5)
        if _pt_valid(x):
            return x
    return np.arange(n) % 2


def _pt_pair(rng: np.random.Generator, lo: int = 4, hi: int = 10) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.integers(lo, hi))
    t = _partition(rng, n)
    return t, _partition(rng, n, like=t)


def _row(x: np.ndarray) -> np.ndarray:
    return np.asarray(x).reshape(1, -1)


def _improve(a: np.ndarray, b: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """An A-consistent improvement of B: a perfect split (a cluster of B cut along A's clusters) or a perfect
    merge (two clusters of B inside one cluster of A); None when B allows neither."""
    moves: list[tuple[str, Any, np.ndarray | list[Any]]] = []
    for c in np.unique(b):
        inside = np.unique(a[b == c])
        if len(inside) >= 2:
            moves.append(("split", c, inside))
    for g in np.unique(a):
        within = [c for c in np.unique(b[a == g]) if np.all(a[b == c] == g)]
        if len(within) >= 2:
            moves.append(("merge", g, within))
    if not moves:
        return None
    kind, key, parts = moves[int(rng.integers(len(moves)))]
    q = b.copy()
    if kind == "split":
        side = rng.permutation(parts)[: int(rng.integers(1, len(parts)))]
        q[(b == key) & np.isin(a, side)] = b.max() + 1
    else:
        two = rng.choice(parts, 2, replace=False)
        q[b == two[1]] = two[0]
    return q


def _consistent_improvement(a: np.ndarray, b: np.ndarray, q: np.ndarray) -> bool:
    same = lambda x: x[:, None] == x[None, :]  # noqa: E731
    iu = np.triu_indices(len(a), 1)
    ok_b, ok_q = (same(a) == same(b))[iu], (same(a) == same(q))[iu]
    return bool(np.all(ok_q[ok_b]) and not np.array_equal(ok_b, ok_q))


#: Pair-counting partition indices: functions of the four pair counts (strong monotonicity is defined on them).
PAIR_COUNTING = ("pair_correlation", "pair_correlation_distance", "adjusted_rand_index")
_PAIR_NAMES = (("N11", "together in both partitions", True), ("N10", "together in the first partition only", False),
               ("N01", "together in the second partition only", False), ("N00", "apart in both partitions", True))


def _pair_counts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``[N11, N10, N01, N00]``: the pairs of items together in both partitions, in the first only, in the second
    only, apart in both."""
    iu = np.triu_indices(len(a), 1)
    x, y = (a[:, None] == a[None, :])[iu], (b[:, None] == b[None, :])[iu]
    return np.array([np.sum(x & y), np.sum(x & ~y), np.sum(~x & y), np.sum(~x & ~y)], dtype=np.float64)


def _chance(r: MetricRecord) -> float:
    return 0.5 if r.id == "pair_correlation_distance" else 0.0


def _pt_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    v = lambda t, p: _value(r, [t, p])  # noqa: E731
    o = lambda t, p: _oriented(r, [t, p])  # noqa: E731

    def gen_max(rng):
        t, p = _pt_pair(rng)
        if rng.random() < 0.4:
            p = _relabel(t, rng)
        return [_row(t), _row(p)]

    def max_(c):
        t, p = c
        same, x = _same_partition(t, p), v(t, p)
        if same and not _close(x, _best(r)):
            return f"identical partitions (the cluster ids renamed) score {x:.6g}, not {_best(r):g}"
        if not same and _close(x, _best(r)):
            return f"different partitions score the best value {_best(r):g}"
        return None

    def gen_perm(rng):
        t, p = _pt_pair(rng)
        return [_row(t), _row(p), _row(_relabel(t, rng)), _row(_relabel(p, rng))]

    def csym(c):
        a, b = v(c[0], c[1]), v(c[2], c[3])
        return None if _close(a, b) else f"renaming the cluster ids changes the score from {a:.6g} to {b:.6g}"

    def sym(c):
        a, b = v(c[0], c[1]), v(c[1], c[0])
        return None if _close(a, b) else f"exchanging the two partitions changes the score from {a:.6g} to {b:.6g}"

    def gen_tri(rng):
        n = int(rng.integers(4, 10))
        a = _partition(rng, n)
        return [_row(a), _row(_partition(rng, n, like=a)), _row(_partition(rng, n, like=a))]

    def dist(c):
        a, z, b = c
        d = lambda x, y: _best(r) * (1 if r.higher_is_better else -1) - o(x, y)  # noqa: E731
        if not _close(d(a, b), d(b, a)):  # a metric is symmetric (purity is not: it reads as a quasi-metric)
            return f"d(A,B) = {d(a, b):.6g} but d(B,A) = {d(b, a):.6g} (A the first partition, B the third)"
        if d(a, b) > d(a, z) + d(z, b) + 1e-9:
            return (f"triangle inequality fails: d(A,B) = {d(a, b):.6g} > d(A,C) + d(C,B) = "
                    f"{d(a, z) + d(z, b):.6g} (C the second partition)")
        return None

    def gen_fix(rng):
        for _ in range(30):
            a, b = _pt_pair(rng)
            q = _improve(a, b, rng)
            if q is not None and _pt_valid(q):
                return [_row(a), _row(b), _row(q)]
        return [_row(a), _row(b), _row(b)]

    def mon(strict: bool):
        def check(c):
            a, b, q = (np.asarray(x).reshape(-1) for x in c)
            if not _consistent_improvement(a, b, q):
                return None  # no improvement in this case: nothing to check
            x, y = o(a, b), o(a, q)
            if y < x - 1e-12 or (strict and _close(x, y)):
                return (f"B′ classifies every pair B classifies right, and more (a perfect split or merge), yet the "
                        f"score moves from {v(a, b):.6g} to {v(a, q):.6g}")
            return None
        return check

    def gen_cb(rng):
        t, p = _pt_pair(rng, 4, 7)
        return [_row(t), _row(p)]

    def cb(c):
        t, p = (np.asarray(x).reshape(-1) for x in c)
        vals = [v(t, p[list(perm)]) for perm in itertools.permutations(range(len(p)))]
        e = float(np.mean(vals))
        return None if abs(e - _chance(r)) <= 1e-9 else (
            f"over every relabelling of the items of the second partition (cluster sizes fixed) the expected score "
            f"is {e:.9g}, not {_chance(r):g}")

    def gen_big(rng):
        n = 2000
        ka, kb = int(rng.integers(2, 7)), int(rng.integers(2, 7))
        if rng.random() < 0.5:  # a clustering with many small clusters, where an index without chance correction drifts
            kb = int(rng.integers(100, 401))
        t = rng.choice(ka, n, p=rng.dirichlet(np.ones(ka) * 2))
        p = rng.choice(kb, n, p=rng.dirichlet(np.ones(kb) * 2))
        return [_row(t), _row(p)]

    def acb(c):
        t, p = (np.asarray(x).reshape(-1) for x in c)
        rng = np.random.default_rng(0)
        e = float(np.mean([v(t, rng.permutation(p)) for _ in range(20)]))
        return None if abs(e - _chance(r)) <= 0.01 else (
            f"the mean score over 20 relabellings of {len(t)} items is {e:.4g}, not within 0.01 of {_chance(r):g}")

    def pv(c):
        x = v(c[0], c[1])
        return None if abs(x - _chance(r)) <= 0.03 else (
            f"independent partitions of {np.asarray(c[0]).size} items score {x:.4g}, not {_chance(r):g} ± 0.03")

    def gen_smon(rng):
        for _ in range(30):
            a, b = _pt_pair(rng)
            if not _same_partition(a, b):
                break
        return [_row(a), _row(b)]

    def smon(c):
        a, b = (np.asarray(x).reshape(-1) for x in c)
        if _same_partition(a, b):
            return None  # the best value: nothing left to raise
        base = _pair_counts(a, b)
        sign = 1.0 if r.higher_is_better else -1.0

        def f(q: np.ndarray) -> float:
            return sign * float(pair_count_indices(q[0], q[0] + q[1], q[0] + q[2], q.sum(), [r.id])[r.id])

        x = f(base)
        for k, (name, what, agree) in enumerate(_PAIR_NAMES):
            q = base.copy()
            q[k] += 1.0
            y = f(q)
            if (agree and not y > x + 1e-12) or (not agree and not y < x - 1e-12):
                counts = ", ".join(f"{n} = {v:g}" for (n, _, _), v in zip(_PAIR_NAMES, base))
                return (f"from the pair counts {counts}, one more pair {what} ({name} + 1, the others fixed) moves "
                        f"the score from {sign * x:.6g} to {sign * y:.6g}: it should {'rise' if agree else 'fall'}")
        return None

    checks = {"max_agreement": (gen_max, max_), "class_symmetry": (gen_perm, csym), "symmetry": (gen_max, sym),
              "distance": (gen_tri, dist), "monotonicity": (gen_fix, mon(True)),
              "opitz_monotonicity": (gen_fix, mon(False)), "constant_baseline": (gen_cb, cb),
              "approximate_constant_baseline": (gen_big, acb), "chance_correction": (gen_big, pv)}
    if r.id in PAIR_COUNTING:
        checks["strong_monotonicity"] = (gen_smon, smon)
    return checks


# ----------------------------------------------------------------------------------------------
# top-k cases
# ----------------------------------------------------------------------------------------------
def _tk_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    v = lambda c: _value(r, c)  # noqa: E731

    def base(rng):
        n, c = int(rng.integers(1, 6)), int(rng.integers(2, 7))
        s = rng.integers(0, 4, (n, c)).astype(float)  # small integers: ties happen
        return s, rng.integers(0, c, n), int(rng.integers(1, c + 1))

    def gen_pi(rng):
        s, y, k = base(rng)
        i = int(rng.integers(len(y)))
        s2 = s.copy()
        s2[i, y[i]] += float(rng.integers(1, 3))
        return [s, y[None], np.array([[k]]), s2]

    def pi(c):
        a, b = v(c[:3]), v([c[3], c[1], c[2]])
        return None if b >= a - 1e-12 else f"raising the true class's score lowers top-k accuracy from {a:.6g} to {b:.6g}"

    def gen_perm(rng):
        s, y, k = base(rng)
        perm = rng.permutation(s.shape[1])
        inv = np.argsort(perm)
        return [s, y[None], np.array([[k]]), s[:, perm], inv[y][None]]

    def csym(c):
        a, b = v(c[:3]), v([c[3], c[4], c[2]])
        return None if _close(a, b) else f"permuting the classes changes the score from {a:.6g} to {b:.6g}"

    def gen_pv(rng):
        c = int(rng.integers(20, 41))
        return [rng.random((200, c)), rng.integers(0, c, 200)[None], np.array([[c - 1]])]

    def pv(c):
        x = v(c)
        return f"random scores reach {x:.4g} (k = {int(c[2][0][0])} of {c[0].shape[1]} classes), within 5 % of 1" \
            if x >= 1 - NEAR else None

    return {"opitz_monotonicity": (gen_pi, pi), "class_symmetry": (gen_perm, csym), "chance_correction": (gen_pv, pv)}


# ----------------------------------------------------------------------------------------------
# hierarchy cases: [[parent of each node (−1: a top category)], [true node per item], [predicted node per item]]
# ----------------------------------------------------------------------------------------------
def _hr_value(mid: str, parents: Any, t: Any, p: Any) -> float:
    par = np.asarray(parents).reshape(-1).astype(int)
    tax = taxonomy_from_edges([(f"n{i}", f"n{q}" if q >= 0 else None) for i, q in enumerate(par)])
    t, p = np.asarray(t).reshape(-1).astype(int), np.asarray(p).reshape(-1).astype(int)
    m = np.zeros((par.size, par.size))
    np.add.at(m, (t, p), 1.0)
    return hierarchy_metrics(hierarchy_cells(m, [f"n{i}" for i in range(par.size)], tax), [mid])[mid]


def _hr_case(rng: np.random.Generator) -> Case:
    k = int(rng.integers(3, 10))
    tops = int(rng.integers(2, 4))  # at least two top categories: the root stays implicit
    par = np.array([-1 if i < tops else int(rng.integers(0, i)) for i in range(k)])
    n = int(rng.integers(1, 9))
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < rng.uniform(0.2, 0.8), t, rng.integers(0, k, n))
    return [_row(par), _row(t), _row(p)]


def _hr_checks(r: MetricRecord) -> dict[str, tuple[Callable[[np.random.Generator], Case], Callable[[Case], str | None]]]:
    v = lambda c: _value(r, c)  # noqa: E731

    def max_(c):
        same, x = np.array_equal(c[1], c[2]), v(c)
        if same and not _close(x, _best(r)):
            return f"identical predictions score {x:.6g}, not {_best(r):g}"
        if not same and _close(x, _best(r)):
            return f"wrong predictions score the best value {_best(r):g}"
        return None

    def gen_perm(rng):
        par, t, p = _hr_case(rng)
        k = par.size
        new = rng.permutation(k)  # node i becomes node new[i]
        par2 = np.empty(k, dtype=int)
        par2[new] = np.where(par[0] >= 0, new[np.maximum(par[0], 0)], -1)
        return [par, t, p, _row(par2), _row(new[t[0]]), _row(new[p[0]])]

    def csym(c):
        a, b = v(c[:3]), v(c[3:])
        return None if _close(a, b) else f"renaming the classes changes the score from {a:.6g} to {b:.6g}"

    def sym(c):
        a, b = v(c), v([c[0], c[2], c[1]])
        return None if _close(a, b) else f"exchanging truth and prediction changes the score from {a:.6g} to {b:.6g}"

    def gen_fix(rng):
        par, t, p = _hr_case(rng)
        wrong = np.flatnonzero(t[0] != p[0])
        if wrong.size == 0:
            p = p.copy()
            p[0, 0] = (t[0, 0] + 1) % par.size
            wrong = np.array([0])
        q = p.copy()
        i = int(wrong[int(rng.integers(wrong.size))])
        q[0, i] = t[0, i]
        return [par, t, p, q]

    def mon(strict: bool):
        def check(c):
            a, b = _oriented(r, c[:3]), _oriented(r, [c[0], c[1], c[3]])
            if b < a - 1e-12 or (strict and _close(a, b)):
                return f"correcting one wrong prediction moves the score from {v(c[:3]):.6g} to {v([c[0], c[1], c[3]]):.6g}"
            return None
        return check

    return {"max_agreement": (_hr_case, max_), "class_symmetry": (gen_perm, csym), "symmetry": (_hr_case, sym),
            "monotonicity": (gen_fix, mon(True)), "opitz_monotonicity": (gen_fix, mon(False))}


_CHECKS = {"multilabel": _ml_checks, "agreement": _ag_checks, "top_k": _tk_checks, "partition": _pt_checks,
           "hierarchy": _hr_checks}
#: simulations and exhaustive expectations: a few cases each
FEW = {"chance_correction": 20, "constant_baseline": 20, "approximate_constant_baseline": 10}
EXISTENTIAL = {"class_sensitivity"}


# ----------------------------------------------------------------------------------------------
# entry points (called from _audit.check_claim and _verify.find_counterexample)
# ----------------------------------------------------------------------------------------------
def _search(record: MetricRecord, pid: str, rng: np.random.Generator, budget: int) -> Counterexample | None:
    gen, pred = _CHECKS[record.structure](record)[pid]
    # PV cases are large simulations; other cases are evaluated one by one in Python, so at most MAX_CASES
    reps = (FEW[pid] if pid in FEW and (record.structure == "partition" or pid == "chance_correction")
            else min(max(budget, 50), MAX_CASES))
    for _ in range(reps):
        case = gen(rng)
        why = pred(case)
        if why is not None:
            arrays = [np.asarray(a).tolist() for a in case]
            values = [_value(record, case[:3] if record.structure in ("top_k", "hierarchy") else case[:2]
                             if record.structure in ("multilabel", "partition") else case[:1])]
            return Counterexample(matrices=arrays, values=values, kind=KIND[record.structure], explanation=why,
                                  source="checker")
    return None


def _recheck(record: MetricRecord, pid: str, ce: Counterexample) -> str | None:
    pred = _CHECKS[record.structure](record)[pid][1]
    return pred([np.asarray(a) for a in ce.matrices])


def _ordinal_chance(record: MetricRecord, claim: PropertyClaim, rng: np.random.Generator, budget: int) -> Result | None:
    """MAE has no finite range over all k: its failure is shown relative to k − 1 (the largest error). The
    standardized mean difference is unbounded: a random classifier that predicts with the truth's class shares
    scores its best value 0."""
    if record.id == "smd" and claim.status == "fails":
        g = MetricFunction(record.id, False)
        for k in (3, 4):
            c = random_classifiers(k, rng, max(budget, 200))
            vals = np.abs(g.values(c))
            i = int(np.nanargmin(vals))
            if vals[i] <= 1e-9:
                ce = Counterexample(matrices=[c[i].tolist()], values=[float(g.values(c[i:i + 1])[0])],
                                    source="checker", explanation="a random classifier that predicts each class as "
                                    "often as it occurs in the truth scores the best value 0")
                return True, ce.explanation, ce
        return False, "no random classifier scored 0", None
    if record.id != "mae" or claim.status != "fails":
        return None

    f = MetricFunction(record.id, False)
    for k in (3, 4):
        c = random_classifiers(k, rng, max(budget, 200))
        vals = f.values(c)
        i = int(np.nanargmin(vals))
        if vals[i] <= NEAR * (k - 1):
            ce = Counterexample(matrices=[c[i].tolist()], values=[float(vals[i])], source="checker",
                                explanation=f"a random classifier has MAE {vals[i]:.4g}, within 5 % of the range "
                                f"0 … {k - 1} from the best value 0")
            return True, ce.explanation, ce
    return False, "no random classifier came near the best value", None


#: metrics that are a figure per level of a taxonomy, not one number (the per-level accuracy): the cases compare one
#: number per table, so no property claim is made or checked for them
PER_LEVEL = frozenset({"level_accuracy"})


def check_structure(record: MetricRecord, pid: str, claim: PropertyClaim, rng: np.random.Generator,
                    budget: int) -> Result | None:
    """Check one claim of a non-nominal metric; ``None`` leaves it to the general checker (ordinal)."""
    if claim.status == "not_applicable":
        if record.id in PER_LEVEL:  # a list of figures, one per level of the tree: no case compares one number
            return None, "not applicable: " + (claim.note or ""), None
        if record.structure == "ordinal" or pid in _CHECKS[record.structure](record):
            return False, f"{pid} has an operational definition on {record.structure} inputs: state the claim", None
        return None, "not applicable: " + (claim.note or ""), None
    if record.structure == "ordinal":
        return _ordinal_chance(record, claim, rng, budget) if pid == "chance_correction" else None
    checks = _CHECKS[record.structure](record)
    if pid not in checks:
        return False, f"no check of {pid} on {record.structure} inputs: mark the claim not_applicable", None
    if claim.status not in ("holds", "fails"):
        return False, f"status {claim.status!r} is not checked on {record.structure} inputs", None
    found = _search(record, pid, rng, budget)
    existential = pid in EXISTENTIAL
    if claim.status == "holds":
        if existential:
            return (found is not None, "witness: " + found.explanation if found else "no witness found", found)
        return (found is None, f"no counterexample among {min(max(budget, 50), MAX_CASES)} {KIND[record.structure]} cases"
                if found is None else found.explanation, found)
    if existential:
        return (found is None, f"no witness among {min(max(budget, 50), MAX_CASES)} cases" if found is None
                else "a witness exists: " + found.explanation, found or claim.counterexample)
    stored = claim.counterexample
    if stored is not None:
        why = _recheck(record, pid, stored)
        return (why is not None, "stored counterexample re-checked: " + why if why else
                "the stored counterexample does not show the failure", stored)
    return (found is not None, found.explanation if found else "no counterexample found", found)


def structure_counterexample(record: MetricRecord, pid: str, claim: PropertyClaim, rng: np.random.Generator,
                             budget: int) -> tuple[bool, Counterexample | None]:
    """``(handled, counterexample)`` for the regeneration of verification.yaml."""
    if record.structure == "ordinal":
        if pid == "chance_correction" and record.id in ("mae", "smd"):
            got = _ordinal_chance(record, claim, rng, budget)
            return True, None if got is None else got[2]
        return False, None
    checks = _CHECKS[record.structure](record)
    if claim.status == "not_applicable" or pid not in checks:
        return True, None
    if pid in EXISTENTIAL:
        if claim.status != "fails":
            return True, None
        gen, pred = checks[pid]
        case = gen(rng)
        if pred(case) is not None:
            return True, None
        y, p1, p2 = case
        return True, Counterexample(matrices=[np.asarray(a).tolist() for a in case], kind=KIND[record.structure],
                                    values=[_value(record, [y, p1]), _value(record, [y, p2])], source="checker",
                                    explanation="an error on one label or the same error on another label gives the "
                                    "same score: the metric pools the labels")
    return True, _search(record, pid, rng, budget)
