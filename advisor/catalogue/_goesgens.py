"""Gösgens et al. (2021), §3: maximal and minimal agreement, (class) symmetry, distance,
(strong) monotonicity, constant baseline and approximate constant baseline — as searches for a
counterexample and re-checks of a stored one (see :mod:`._checker`)."""

from __future__ import annotations

import itertools
import math

import numpy as np

from ._search import (
    _arr, _ce, _diag, _first, _movable, _num, _pair_search, _Pairs, _shape_ok, _single_change, _step, _zero_diag,
)
from ._space import MetricFunction, Sampler, close, sort_by_size


# ----------------------------------------------------------------------------------------------
# Gösgens et al. (2021), §3: Max, Min, CSym, Sym, Dist, Mon, SMon, CB, ACB
# ----------------------------------------------------------------------------------------------
def _ref_diag(k: int) -> np.ndarray:
    return np.eye(k) * 2.0


def _max_search(f, k, rng, size):
    s = Sampler(k, rng)
    c = sort_by_size(s.sample(size, Sampler.full))
    extra = np.stack([np.diag(rng.uniform(0.1, 20.0, k)) for _ in range(20)])
    c = np.concatenate([c, extra])
    c = c[f.admissible(c)]
    ref = _ref_diag(k)
    top = f(ref[None])[0]
    sc = f(c)
    d = _diag(c)
    bad = _first(d & ~f.close(sc, top))
    if bad is not None:
        return _ce(f, [ref, c[bad]], "two diagonal matrices (identical labelings) score differently, so no single "
                   "maximum is reached exactly at perfect agreement")
    bad = _first(~d & ~f.less(sc, top))
    if bad is not None:
        return _ce(f, [ref, c[bad]], "a matrix with errors scores as well as perfect agreement (the diagonal "
                   "matrix), so the best value is not reserved for identical labelings")
    return None


def _max_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    if not _diag(m0) or not (Sampler.full(m0) and Sampler.full(m1)):
        return "first matrix must be diagonal and both in the domain"
    s0, s1 = f(np.stack([m0, m1]))
    if _diag(m1):
        return None if not f.close(s0, s1) else "the two diagonal matrices score the same"
    return None if not f.less(s1, s0) else "the non-diagonal matrix scores strictly worse"


def _min_search(f, k, rng, size):
    s = Sampler(k, rng)
    c = sort_by_size(s.sample(size, Sampler.full))
    c = c[f.admissible(c)]
    ref = np.ones((k, k)) - np.eye(k)
    bottom = f(ref[None])[0]
    sc = f(c)
    z = _zero_diag(c)
    bad = _first(z & ~f.close(sc, bottom))
    if bad is not None:
        return _ce(f, [ref, c[bad]], "two matrices with an empty diagonal (labelings that disagree on every item) "
                   "score differently, so there is no single minimum reached exactly at total disagreement")
    bad = _first(~z & ~f.less(bottom, sc))
    if bad is not None:
        return _ce(f, [ref, c[bad]], "a matrix with correct items scores as badly as total disagreement")
    return None


def _min_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    if not _zero_diag(m0) or not (Sampler.full(m0) and Sampler.full(m1)):
        return "first matrix must have an empty diagonal and both be in the domain"
    s0, s1 = f(np.stack([m0, m1]))
    if _zero_diag(m1):
        return None if not f.close(s0, s1) else "the two zero-diagonal matrices score the same"
    return None if not f.less(s0, s1) else "the matrix with correct items scores strictly better"


def _perms(k: int) -> list[tuple[int, ...]]:
    return [p for p in itertools.permutations(range(k)) if list(p) != list(range(k))]


def _csym_search(f, k, rng, size):
    c = sort_by_size(Sampler(k, rng).sample(size, Sampler.full))
    base = f(c)
    for p in _perms(k):
        idx = np.array(p)
        cp = c[:, idx][:, :, idx]
        bad = _first(~f.close(base, f(cp)) & f.admissible(c) & f.admissible(cp))
        if bad is not None:
            return _ce(f, [c[bad], cp[bad]], f"renaming the classes (permutation {list(p)}) changes the score")
    return None


def _csym_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    k = m0.shape[0]
    if not any(np.array_equal(m0[np.array(p)][:, np.array(p)], m1) for p in _perms(k)):
        return "the second matrix is not the first with its classes renamed"
    s = f(np.stack([m0, m1]))
    return None if not f.close(s[0], s[1]) else "both score the same"


def _sym_search(f, k, rng, size):
    c = sort_by_size(Sampler(k, rng).sample(size, Sampler.full))
    ct = np.swapaxes(c, -1, -2)
    bad = _first(~f.close(f(c), f(ct)) & f.admissible(c) & f.admissible(ct))
    if bad is not None:
        return _ce(f, [c[bad], ct[bad]], "exchanging the roles of truth and prediction (transposing) changes the score")
    return None


def _sym_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    if not np.array_equal(m0.T, m1):
        return "the second matrix is not the transpose of the first"
    s = f(np.stack([m0, m1]))
    return None if not f.close(s[0], s[1]) else "both score the same"


_DIST_N = {2: 6, 3: 4, 4: 3}


def _labelings(k: int, n: int) -> np.ndarray:
    return np.array(list(itertools.product(range(k), repeat=n)), dtype=int)


def _confusions(labs: np.ndarray, k: int) -> np.ndarray:
    oh = np.eye(k)[labs]  # (L, n, k)
    return np.einsum("xnk,ynl->xykl", oh, oh)


def _dist_search(f, k, rng, size):
    for sub, why in ((_sym_search, "a distance must be symmetric: "), (_max_search, "a distance is zero exactly for "
                                                                                     "identical labelings: ")):
        ce = sub(f, k, rng, max(size // 4, 50))
        if ce is not None:
            return ce.model_copy(update={"explanation": why + ce.explanation})
    top = f(_ref_diag(k)[None])[0]
    n_max = _DIST_N.get(k, 3) if size >= 200 else max(_DIST_N.get(k, 3) - 1, 2)
    for n in range(2, n_max + 1):
        labs = _labelings(k, n)
        L = len(labs)
        conf = _confusions(labs, k)
        flat = conf.reshape(-1, k, k)
        d = np.where(f.admissible(flat), top - f(flat), np.nan).reshape(L, L)
        for x in range(L):
            # d(x, z) > d(x, y) + d(y, z) for some y, z
            viol = d[x][None, :] > d[x][:, None] + d + 3 * f.abs_tol(top, top - d[x][None, :])
            if viol.any():
                y, z = (int(v) for v in np.argwhere(viol)[0])
                a, b, c = labs[x], labs[y], labs[z]
                mats = [conf[x, y], conf[y, z], conf[x, z]]
                return _ce(f, mats, "triangle inequality fails: with d = best − score, d(A, C) > d(A, B) + d(B, C) "
                           "for the labelings A, B, C (matrices: (A,B), (B,C), (A,C))",
                           labelings=[a.tolist(), b.tolist(), c.tolist()])
    return None


def _dist_recheck(f, ce):
    if ce.labelings:
        if len(ce.labelings) != 3 or len({len(x) for x in ce.labelings}) != 1:
            return "a triangle counterexample needs three labelings of the same items"
        k = len(ce.matrices[0]) if ce.matrices else 1 + max(max(x) for x in ce.labelings)
        labs = np.array(ce.labelings, dtype=int)
        if labs.max() >= k:
            return "labels outside the matrix size"
        conf = _confusions(labs, k)
        ab, bc, ac = conf[0, 1], conf[1, 2], conf[0, 2]
        top = f(_ref_diag(k)[None])[0]
        d = top - f(np.stack([ab, bc, ac]))
        ok = d[2] > d[0] + d[1] + 3 * float(f.abs_tol(top, top - d[2]))
        return None if ok else "the triangle inequality holds for these labelings"
    if len(ce.matrices) == 2 and np.array_equal(np.asarray(ce.matrices[0]).T, np.asarray(ce.matrices[1])) \
            and not _diag(np.asarray(ce.matrices[1])):
        return _sym_recheck(f, ce)
    return _max_recheck(f, ce)


def _mon_pairs(c: np.ndarray, rng: np.random.Generator) -> _Pairs:
    """Every 'resolve one disagreement' move of Definition 6 applied to every matrix."""
    k = c.shape[-1]
    step = _step(c, rng)
    befores, afters, owners, what = [], [], [], []
    idx = np.arange(len(c))
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            amount = np.minimum(step, c[:, a, b])
            ok = _movable(c, c[:, a, b])
            for t in (a, b):
                m = c[ok].copy()
                m[:, a, b] -= amount[ok]
                m[:, t, t] += amount[ok]
                befores.append(c[ok])
                afters.append(m)
                owners.append(idx[ok])
                what += [f"moving mass {_num(x)} from cell ({a},{b}) to the diagonal cell ({t},{t})"
                         for x in amount[ok]]
    if not befores:
        e = np.zeros((0, k, k))
        return _Pairs(e, e, np.zeros(0, dtype=int), [], True)
    return _Pairs(np.concatenate(befores), np.concatenate(afters), np.concatenate(owners), what, True)


def _mon_domain(x: np.ndarray) -> np.ndarray:
    return Sampler.full(x) & Sampler.non_unary(x)


def _mon_search(f, k, rng, size):
    c = sort_by_size(Sampler(k, rng).sample(size, _mon_domain))
    return _pair_search(f, c, _mon_pairs, _mon_domain, rng, size,
                        " (one disagreement resolved) does not improve the score")


def _mon_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    if not (Sampler.full(m0) and Sampler.non_unary(m0)):
        return "the first matrix must be in the domain with neither labeling constant"
    d = m1 - m0
    nz = np.argwhere(~np.isclose(d, 0.0, atol=1e-12))
    if len(nz) != 2 or not math.isclose(d.sum(), 0.0, abs_tol=1e-9):
        return "the second matrix is not one move away from the first"
    (i1, j1), (i2, j2) = nz
    src, dst = ((i1, j1), (i2, j2)) if d[i1, j1] < 0 else ((i2, j2), (i1, j1))
    if src[0] == src[1] or dst[0] != dst[1] or dst[0] not in src:
        return "the move must take mass from an off-diagonal cell to the diagonal cell of its row or column"
    s0, s1 = f(np.stack([m0, m1]))
    return None if not f.less(s0, s1) else "the move improves the score"


def _smon_pairs(c: np.ndarray, rng: np.random.Generator) -> _Pairs:
    k = c.shape[-1]
    step = _step(c, rng)
    befores, afters, owners, what = [], [], [], []
    idx = np.arange(len(c))
    for i in range(k):
        for j in range(k):
            m = c.copy()
            if i == j:
                m[:, i, i] += step
                ok = np.ones(len(c), dtype=bool)
                text = f"raising the diagonal cell ({i},{i})"
            else:
                amount = np.minimum(step, c[:, i, j])
                ok = _movable(c, c[:, i, j])
                m[:, i, j] -= amount
                text = f"lowering the off-diagonal cell ({i},{j})"
            ok &= ~((_diag(c) & _diag(m)) | (_zero_diag(c) & _zero_diag(m)))
            befores.append(c[ok])
            afters.append(m[ok])
            owners.append(idx[ok])
            what += [text] * int(ok.sum())
    return _Pairs(np.concatenate(befores), np.concatenate(afters), np.concatenate(owners), what, True)


def _smon_search(f, k, rng, size):
    c = sort_by_size(Sampler(k, rng).sample(size, _mon_domain))
    return _pair_search(f, c, _smon_pairs, _mon_domain, rng, size, " does not improve the score")


def _smon_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    m0, m1 = _arr(ce)
    if not (Sampler.full(m0) and Sampler.non_unary(m0)):
        return "the first matrix must be in the domain with neither labeling constant"
    ch = _single_change(m0, m1)
    if ch is None:
        return "the matrices must differ in exactly one cell"
    (i, j), delta = ch
    if (i == j and delta <= 0) or (i != j and delta >= 0):
        return "the change must raise a diagonal cell or lower an off-diagonal cell"
    if (_diag(m0) and _diag(m1)) or (_zero_diag(m0) and _zero_diag(m1)):
        return "both matrices are diagonal (or both zero-diagonal): excluded by the definition"
    s0, s1 = f(np.stack([m0, m1]))
    return None if not f.less(s0, s1) else "the change improves the score"


# -- constant baseline: exact expectation over random labelings with fixed class sizes ---------
_CB_N = {2: 8, 3: 5, 4: 4}


def _all_tables(k: int, n: int) -> np.ndarray:
    """Every k×k non-negative integer matrix with total n (stars and bars)."""
    cells = k * k
    out = []
    for bars in itertools.combinations(range(n + cells - 1), cells - 1):
        prev, row = -1, []
        for b in bars:
            row.append(b - prev - 1)
            prev = b
        row.append(n + cells - 2 - prev)
        out.append(row)
    return np.array(out, dtype=float).reshape(-1, k, k)


def _log_weights(t: np.ndarray) -> np.ndarray:
    """log P(table | margins) when the prediction is a uniformly random labeling with sizes b."""
    lg = np.vectorize(math.lgamma)
    a, b = t.sum(axis=-1), t.sum(axis=-2)
    n = t.sum(axis=(-1, -2))
    return (lg(a + 1).sum(-1) + lg(b + 1).sum(-1) - lg(n + 1) - lg(t + 1).sum(axis=(-1, -2)))


def expected_under_random_labelings(f: MetricFunction, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Group ``tables`` by margins (a, b) and return (representative tables, exact expectations)."""
    t = tables
    k = t.shape[-1]
    keys = np.concatenate([t.sum(axis=-1), t.sum(axis=-2)], axis=-1)
    uniq, inv = np.unique(keys, axis=0, return_inverse=True)
    inv = np.asarray(inv).reshape(-1)
    w = np.exp(_log_weights(t))
    vals = f(t)
    exp = np.zeros(len(uniq))
    np.add.at(exp, inv, w * vals)
    rep = np.zeros((len(uniq), k, k))
    rep[inv] = t  # any table with those margins
    return rep, exp


def _cb_groups(k: int, n_max: int) -> np.ndarray:
    tabs = np.concatenate([_all_tables(k, n) for n in range(2, n_max + 1)])
    b = tabs.sum(axis=-2)
    keep = Sampler.full(tabs) & ~np.any(b == tabs.sum(axis=(-1, -2))[:, None], axis=-1)
    return tabs[keep]


def _cb_search(f, k, rng, size):
    n_max = _CB_N.get(k, 3) if size >= 200 else _CB_N.get(k, 3) - 1
    rep, exp = expected_under_random_labelings(f, _cb_groups(k, n_max))
    order = np.argsort(rep.sum(axis=(-1, -2)), kind="stable")
    rep, exp = rep[order], exp[order]
    adm = f.admissible(rep)
    rep, exp = rep[adm], exp[adm]
    if not len(rep):
        return None
    bad = _first(~close(exp, exp[0], 1e-8) & ~f.close(exp, exp[0]))
    if bad is not None:
        return _ce(f, [rep[0], rep[bad]], "the expected score of a random prediction (uniform over labelings with the "
                   "predicted class sizes b, true labeling fixed) differs between these settings; each matrix stands "
                   "for its margins: true sizes a = row sums, predicted sizes b = column sums; values are the exact "
                   "expectations (sign as the metric)", values=[f.sign * exp[0], f.sign * exp[bad]],
                   kind="expectations")
    return None


def _tables_with_margins(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    k = len(a)
    n = int(a.sum())
    tabs = _all_tables(k, n)
    ok = np.all(tabs.sum(axis=-1) == a, axis=-1) & np.all(tabs.sum(axis=-2) == b, axis=-1)
    return tabs[ok]


def _cb_recheck(f, ce):
    if ce.kind != "expectations":
        return "a constant-baseline counterexample stores exact expectations (kind 'expectations')"
    err = _shape_ok(ce, 2)
    if err:
        return err
    exps = []
    for m in _arr(ce):
        if not np.all(m == np.round(m)) or m.sum() > 12:
            return "constant-baseline counterexamples must be small integer margins (n ≤ 12)"
        a, b = m.sum(axis=1), m.sum(axis=0)
        if np.any(b == m.sum()) or not Sampler.full(m):
            return "predicted sizes must be non-unary and every class must occur"
        _, e = expected_under_random_labelings(f, _tables_with_margins(a, b))
        exps.append(e[0])
    return None if not (close(exps[0], exps[1], 1e-8) or f.close(exps[0], exps[1])) else "the expectations are equal"


def _acb_sizes(k: int, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    a = rng.exponential(1.0, (size, k)) * (rng.random((size, k)) > 0.25)
    b = rng.exponential(1.0, (size, k)) * (rng.random((size, k)) > 0.25)
    # a few unary true labelings and integer sizes
    a[: size // 10] = np.eye(k)[rng.integers(0, k, size // 10)]
    ints = rng.integers(0, 5, (size // 4, 2, k)).astype(float)
    a[-(size // 4):], b[-(size // 4):] = ints[:, 0], ints[:, 1]
    return a, b


def _expected_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.sum(axis=-1)
    b = b / np.where(b.sum(axis=-1) > 0, b.sum(axis=-1), 1.0)[..., None] * n[..., None]
    return a[..., :, None] * b[..., None, :] / np.where(n > 0, n, 1.0)[..., None, None]


def _acb_search(f, k, rng, size):
    a, b = _acb_sizes(k, rng, max(size, 40))
    m = _expected_matrix(a, b)
    ok = Sampler.full(m) & ~np.any(np.isclose(m.sum(axis=-2), m.sum(axis=(-1, -2))[:, None]), axis=-1)
    m = sort_by_size(m[ok & f.admissible(m)])
    ref = _expected_matrix(np.array([1.0] * k), np.array([1.0] * k))
    base = f(ref[None])[0]
    bad = _first(~f.close(f(m), base))
    if bad is not None:
        return _ce(f, [ref, m[bad]], "the expected matrix C̄_ij = a_i b_j / n of two settings (true sizes a, "
                   "non-constant predicted sizes b) scores differently")
    return None


def _acb_recheck(f, ce):
    err = _shape_ok(ce, 2)
    if err:
        return err
    for m in _arr(ce):
        n = m.sum()
        if n <= 0 or not np.allclose(m, np.outer(m.sum(axis=1), m.sum(axis=0)) / n, rtol=1e-9, atol=1e-12):
            return "each matrix must be an expected matrix a_i b_j / n"
        if np.any(np.isclose(m.sum(axis=0), n)) or not Sampler.full(m):
            return "predicted sizes must be non-unary and every class must occur"
    s = f(np.stack(_arr(ce)))
    return None if not f.close(s[0], s[1]) else "both score the same"
