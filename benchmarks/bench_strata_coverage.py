"""Benchmark: coverage of the 95 % intervals of the stratified estimator (a sample drawn by map class).

Run with ``python benchmarks/bench_strata_coverage.py`` (``--quick`` for fewer samples). A population of mapped
pixels is built from a map with known class shares and known confusion (the reference class of each pixel given
its map class), so the population's overall accuracy, user's and producer's accuracies and area proportions are
known exactly. Each repetition draws a stratified random sample without replacement — a fixed number of pixels
from each map class, rare classes sampled at a far higher rate than their share — and computes the estimates and
95 % intervals of ``advisor.stats._strata`` (Olofsson et al. 2014, eqs. 5–7 and 10). The table gives, per
quantity, the share of samples whose interval covers the population value (averaged over the classes for the
per-class quantities, with the lowest class beside it).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor.stats._strata import stratified_estimates

# map shares (deforestation, forest gain, stable forest, stable non-forest: the proportions of Olofsson et al.
# 2014, §5) and P(reference class i | map class j), columns summing to 1 (rows reference, columns map)
NAMES = ("deforestation", "forest gain", "stable forest", "stable non-forest")
SHARES = np.array([0.02, 0.015, 0.32, 0.645])
CONFUSION = np.array([[0.88, 0.00, 0.01, 0.01],
                      [0.00, 0.73, 0.00, 0.003],
                      [0.07, 0.11, 0.93, 0.027],
                      [0.05, 0.16, 0.06, 0.96]])


def population(size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(reference, map) class of every pixel of a population of ``size`` pixels."""
    counts = np.round(SHARES * size).astype(int)
    mapped = np.repeat(np.arange(len(SHARES)), counts)
    ref = np.empty_like(mapped)
    for j, c in enumerate(counts):
        ref[mapped == j] = rng.choice(len(SHARES), size=c, p=CONFUSION[:, j] / CONFUSION[:, j].sum())
    return ref, mapped


def truth(ref: np.ndarray, mapped: np.ndarray) -> dict[str, np.ndarray]:
    k = len(SHARES)
    table = np.zeros((k, k))
    np.add.at(table, (ref, mapped), 1.0)
    p = table / table.sum()
    return {"overall": np.array([np.trace(p)]), "users": np.diag(p) / p.sum(axis=0),
            "producers": np.diag(p) / p.sum(axis=1), "area": p.sum(axis=1)}


def run(reps: int, per_stratum: tuple[int, ...], seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    ref, mapped = population(2_000_000, rng)
    true = truth(ref, mapped)
    w = np.bincount(mapped) / mapped.size
    members = [np.flatnonzero(mapped == j) for j in range(len(SHARES))]
    hits: dict[str, list[np.ndarray]] = {q: [] for q in true}
    t0 = time.perf_counter()
    for _ in range(reps):
        table = np.zeros((len(SHARES), len(SHARES)))
        for j, n_j in enumerate(per_stratum):
            picked = rng.choice(members[j], size=n_j, replace=False)
            np.add.at(table, (ref[picked], j), 1.0)
        e = stratified_estimates(table, w)
        for q, (lo, hi) in (("overall", e.overall_ci), ("users", e.users_ci), ("producers", e.producers_ci),
                            ("area", e.area_ci)):
            hits[q].append((np.atleast_1d(lo) <= true[q]) & (true[q] <= np.atleast_1d(hi)))
    sizes = "/".join(map(str, per_stratum))
    for q, h in hits.items():
        cov = np.mean(np.array(h), axis=0)
        low = "" if q == "overall" else f" ({NAMES[int(np.argmin(cov))]})"
        print(f"| {sizes} | {reps} | {q} | {cov.mean():.3f} | {cov.min():.3f}{low} |")
    print(f"<!-- {time.perf_counter() - t0:.1f} s -->", file=sys.stderr)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 500 if args.quick else 2000
    print("| sample per map class | samples | quantity | coverage (mean over classes) | lowest class |")
    print("|---|---|---|---|---|")
    for per in ((75, 75, 165, 325), (50, 50, 100, 100), (25, 25, 50, 50)):
        run(reps, per)


if __name__ == "__main__":
    main()
