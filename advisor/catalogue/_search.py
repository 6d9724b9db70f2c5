"""Shared machinery of the property checker: counterexample records, matrix predicates, and a
sample-then-hill-climb search over perturbation pairs (monotonicity-type properties)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._models import Counterexample
from ._space import MetricFunction, drop_absent


# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------
def _ce(f: MetricFunction, mats: list[np.ndarray], explanation: str, labelings: list[list[int]] | None = None,
        values: list[float] | None = None, kind: str = "matrices") -> Counterexample:
    """A stored counterexample; ``values`` default to the metric of ``mats`` (kind ``matrices``)."""
    mats = [np.asarray(m, dtype=float) for m in mats]
    vals = values if values is not None else [float(f.values(m)) for m in mats]
    reduced = None
    if kind == "matrices" and not f.binary:
        drops = [drop_absent(m) for m in mats]
        if any(d for _, d in drops):
            reduced = [_tidy(r) if d else None for r, d in drops]
            explanation += " " + reduction_note([d for _, d in drops])
    return Counterexample(
        matrices=[_tidy(m) for m in mats],
        values=[_num(v) for v in vals],
        kind=kind,
        convention=f.convention,
        reduced=reduced,
        explanation=explanation,
        source="checker",
        labelings=labelings,
    )


def reduction_note(dropped: list[list[int]]) -> str:
    """The sentence that says which classes of which matrices the checker dropped before evaluating.

    >>> reduction_note([[], [1]])
    '(Matrix 2 uses class 1 in neither labeling; the checker drops such a class, so its value is that of the reduced matrix)'
    """
    parts = []
    for i, d in enumerate(dropped, 1):
        if d:
            cls = f"class {d[0]}" if len(d) == 1 else "classes " + ", ".join(map(str, d))
            parts.append(f"matrix {i} uses {cls} in neither labeling")
    text = "; ".join(parts)
    many = sum(bool(d) for d in dropped) > 1
    return (f"({text[0].upper()}{text[1:]}; the checker drops such a class, so "
            f"{'their values are those' if many else 'its value is that'} of the reduced "
            f"{'matrices' if many else 'matrix'})")


def _tidy(m: np.ndarray) -> list[list[float]]:
    """Cells at full precision (a re-check must see exactly the matrix that failed)."""
    return [[float(x) for x in row] for row in np.asarray(m, dtype=float)]


def _num(x: float) -> float:
    """Round for storage: integers stay exact, other values keep 12 significant digits."""
    x = float(x)
    if not math.isfinite(x) or x == int(x):
        return x
    return float(f"{x:.12g}")


def _arr(ce: Counterexample) -> list[np.ndarray]:
    return [np.asarray(m, dtype=float) for m in ce.matrices]


def _is_int(c: np.ndarray) -> np.ndarray:
    return np.all(c == np.round(c), axis=(-1, -2))


def _diag(c: np.ndarray) -> np.ndarray:
    k = c.shape[-1]
    return np.all(c[..., ~np.eye(k, dtype=bool)] == 0, axis=-1)


def _zero_diag(c: np.ndarray) -> np.ndarray:
    return np.all(np.diagonal(c, axis1=-2, axis2=-1) == 0, axis=-1)


def _step(c: np.ndarray, rng: np.random.Generator, cap: np.ndarray | None = None) -> np.ndarray:
    """Perturbation size: 1 for integer matrices, a random mass otherwise (at most ``cap``)."""
    ints = _is_int(c)
    n = c.sum(axis=(-1, -2))
    real = rng.uniform(0.05, 1.0, size=ints.shape) * (n / c.shape[-1] if cap is None else cap)
    return np.where(ints, 1.0, real)


def _first(mask: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    return int(idx[0]) if idx.size else None


def _shape_ok(ce: Counterexample, count: int) -> str | None:
    if len(ce.matrices) != count:
        return f"expected {count} matrices, got {len(ce.matrices)}"
    shapes = {np.asarray(m).shape for m in ce.matrices}
    if len(shapes) != 1 or len(next(iter(shapes))) != 2 or next(iter(shapes))[0] != next(iter(shapes))[1]:
        return "matrices must be square and of one size"
    if any(np.any(np.asarray(m) < 0) for m in ce.matrices):
        return "negative count"
    return None


def _single_change(m0: np.ndarray, m1: np.ndarray) -> tuple[tuple[int, int], float] | None:
    d = m1 - m0
    nz = np.argwhere(~np.isclose(d, 0.0, atol=1e-12))
    if len(nz) != 1:
        return None
    i, j = (int(x) for x in nz[0])
    return (i, j), float(d[i, j])


@dataclass
class _Pairs:
    """Perturbation pairs of a batch of base matrices: ``after[i]`` must score better than ``before[i]``."""

    before: np.ndarray
    after: np.ndarray
    owner: np.ndarray  # index of the base matrix of each pair
    what: list[str]
    strict: bool  # strictly better (Gösgens) or not worse (Opitz)
    sign: np.ndarray | None = None  # +1: after must be better, −1: after must be worse


def _margins(f: MetricFunction, p: _Pairs, n_base: int) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, how much better the required side scores (≤ 0 / < 0 = violation); per base, the minimum."""
    if not len(p.before):
        return np.zeros(0), np.full(n_base, np.inf)
    sb, sa = f(p.before), f(p.after)
    with np.errstate(invalid="ignore"):
        return _margins_of(f, p, n_base, sb, sa)


def _margins_of(f: MetricFunction, p: _Pairs, n_base: int, sb: np.ndarray, sa: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    d = (sa - sb) * (1.0 if p.sign is None else p.sign)
    scale = f.abs_tol(sa, sb)
    d = np.where(f.admissible(p.before) & f.admissible(p.after), d, np.inf)
    d = np.where(np.isnan(d), np.inf, d)
    # a violation has margin ≤ 0 after shifting by the tolerance
    m = d - scale if p.strict else d + scale
    per = np.full(n_base, np.inf)
    np.minimum.at(per, p.owner, m)
    return m, per


def _violation(m: np.ndarray, strict: bool) -> np.ndarray:
    return m <= 0 if strict else m < 0


def _pair_search(f: MetricFunction, c: np.ndarray, make: Callable[[np.ndarray, np.random.Generator], _Pairs],
                 domain: Callable[[np.ndarray], np.ndarray], rng: np.random.Generator, size: int,
                 tail: str) -> Counterexample | None:
    """Sample, then hill-climb from the closest calls: counterexamples often need one large cell."""
    p = make(c, rng)
    m, per = _margins(f, p, len(c))
    bad = _first(_violation(m, p.strict))
    if bad is None:
        bad_p, p = _climb(f, c, per, make, domain, rng, size)
        bad = bad_p
    if bad is None:
        return None
    return _ce(f, [p.before[bad], p.after[bad]], p.what[bad] + tail)


def _climb(f, c, per, make, domain, rng, size):
    """Greedy random local search on the worst base matrices; returns (pair index, pairs) of a violation."""
    if not len(c):
        return None, None
    m_seeds = min(len(c), 16)
    order = np.argsort(per, kind="stable")[:m_seeds]
    cur, cur_m = c[order].copy(), per[order].copy()
    k = c.shape[-1]
    ints = _is_int(cur)
    for _ in range(max(size // 10, 10)):
        prop = cur.copy()
        i, j = rng.integers(0, k, len(cur)), rng.integers(0, k, len(cur))
        jump = rng.choice([-2.0, -1.0, 1.0, 2.0, 5.0, 20.0], len(cur))
        scale = np.where(ints, 1.0, cur.sum(axis=(-1, -2)) / (k * k))
        prop[np.arange(len(cur)), i, j] = np.maximum(0.0, prop[np.arange(len(cur)), i, j] + jump * scale)
        prop = np.where(ints[:, None, None], np.minimum(prop, 200.0), _renormalise(prop))
        ok = domain(prop)
        if not ok.any():
            continue
        p = make(prop, rng)
        m, per_p = _margins(f, p, len(prop))
        per_p = np.where(ok, per_p, np.inf)
        viol = _violation(m, p.strict) & ok[p.owner]
        if viol.any():
            return int(np.flatnonzero(viol)[0]), p
        better = per_p < cur_m
        cur[better], cur_m[better] = prop[better], per_p[better]
    return None, None


def _renormalise(c: np.ndarray) -> np.ndarray:
    """Real-valued matrices rescaled to total 100 with cells below 0.1 % of it set to zero."""
    n = c.sum(axis=(-1, -2), keepdims=True)
    out = c * (100.0 / np.where(n > 0, n, 1.0))
    return np.where(out < 0.1, 0.0, out)


def _movable(c: np.ndarray, cell: np.ndarray) -> np.ndarray:
    """A cell can give mass: ≥ 1 item for integer matrices, ≥ 0.1 % of the total for real ones."""
    return cell >= np.where(_is_int(c), 1.0, 1e-3 * c.sum(axis=(-1, -2)))
