"""Benchmark: coverage of the interval of a difference of two systems' sensitivities on the same items.

Run with ``python benchmarks/bench_paired_coverage.py`` (``--quick`` for fewer test sets). Each test set has ``n_pos``
positives and ``2 n_pos`` negatives; on every positive the two systems are right with probabilities ``se_a`` and
``se_b`` and their correctness has correlation ``rho`` (the cells of the paired 2×2 table are
``p11 = se_a se_b + rho √(se_a (1 − se_a) se_b (1 − se_b))`` and the margins), so the true difference is
``se_a − se_b``. Both systems are right on each negative with probability 0.9, independently. For each test set,
``compare_systems`` gives the difference of recall two ways: Newcombe's interval for paired proportions (advisor's
choice where recall's own interval is Clopper–Pearson, ``method="auto"``) and the paired bootstrap's BCa interval
over the items (``method="bca"``, what advisor gave before). Coverage is the share of test sets whose interval
contains the true difference; the mean width is beside it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from advisor.stats import compare_systems


def _test_set(rng: np.random.Generator, n_pos: int, se_a: float, se_b: float,
              rho: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p11 = se_a * se_b + rho * math.sqrt(se_a * (1 - se_a) * se_b * (1 - se_b))
    cells = np.array([p11, se_a - p11, se_b - p11, 1 - se_a - se_b + p11])
    if cells.min() < 0:
        raise ValueError(f"no population with se_a={se_a}, se_b={se_b}, rho={rho}")
    kind = rng.choice(4, size=n_pos, p=cells)  # both right, A only, B only, neither
    n_neg = 2 * n_pos
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    a = np.r_[np.isin(kind, (0, 1)).astype(int), (rng.random(n_neg) > 0.9).astype(int)]
    b = np.r_[np.isin(kind, (0, 2)).astype(int), (rng.random(n_neg) > 0.9).astype(int)]
    return y, a, b


def scenario(n_pos: int, se_a: float, se_b: float, rho: float, reps: int, resamples: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    truth = se_a - se_b
    cover = {"newcombe": 0, "bootstrap": 0}
    width: dict[str, list[float]] = {"newcombe": [], "bootstrap": []}
    for r in range(reps):
        y, a, b = _test_set(rng, n_pos, se_a, se_b, rho)
        for name, method in (("newcombe", "auto"), ("bootstrap", "bca")):
            d = compare_systems(y, {"A": a, "B": b}, n_resamples=resamples, seed=r, metrics=["recall"],
                                positive_label=1, method=method).difference("A", "B", "recall")
            if d.low is not None and d.high is not None:
                cover[name] += d.low <= truth <= d.high
                width[name].append(d.high - d.low)
    cells = [f"{cover[m] / reps:.3f} ({np.mean(width[m]):.3f})" for m in cover]
    return f"| {n_pos} | {se_a:.2f} − {se_b:.2f} | {rho:.1f} | {reps} | " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="500 test sets per row and 1,000 resamples")
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    reps, resamples = (500, 1000) if args.quick else (2000, 2000)
    print("| n_pos | se_a − se_b | rho | test sets | Newcombe: coverage (width) | paired bootstrap BCa: coverage (width) |")
    print("|---:|:---:|---:|---:|---:|---:|")
    start = time.time()
    for n_pos in (30, 100, 400):
        for se_a, se_b in ((0.85, 0.85), (0.90, 0.80)):
            for rho in (0.0, 0.3, 0.6):
                print(scenario(n_pos, se_a, se_b, rho, reps, resamples, args.seed), flush=True)
    print(f"\n{time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
