"""Benchmark: coverage of advisor's group-bootstrap intervals when the test set has few groups.

Run with ``python benchmarks/bench_few_groups.py`` (~10 min; ``--quick``: 400 test sets per row, ~2 min). A simulation, not a test.

Readers of a leave-one-session-out speech-emotion evaluation (~10 speakers) and of an ECG study (~22 records)
wrote that a BCa interval from so few clusters is unreliable and too narrow. This measures it. Each row draws
test sets of G groups (a speaker, a record, a thread) of 20–200 items each; a group's class mix varies
(Dirichlet, independent of its accuracy) and its per-class recalls share a group random effect on the logit
scale, logit r_gc = logit r_c + u_g, u_g ~ N(0, σ²), σ² = ICC · π²/3 (the latent-scale intra-class
correlation of correctness). Errors go uniformly to the other classes. Because sizes and class mixes are drawn
independently of u_g, the population (over groups and items) confusion probabilities are
P(c, c) = E[π_c] E[r_gc] and P(c, d) = E[π_c] (1 − E[r_gc]) / (k − 1), with E[r_gc] computed by Gauss–Hermite
quadrature; every population value θ is the metric on that matrix.

Each test set goes through :func:`advisor.compare_systems` with ``groups=`` and ``method="bca"`` — the call the
report made when this table was measured (``method="auto"`` was then BCa with a jackknife over the groups; it is now
the jackknife's t interval, measured beside BCa in ``bench_few_groups_methods.py``) — with the report's 2,000 resamples, and the row counts how often the 95 % interval covers θ.
"none" is the share of test sets without an interval (counted as a miss); "method" the methods seen.
For reference only (advisor does not give it), the last column is the textbook cluster-robust interval of
accuracy, a ratio of sums over groups: estimate ± t(G − 1) · SE with SE² = G/(G − 1) · Σ_g (s_g − â n_g)² /
(Σ_g n_g)² (s_g correct items of n_g; Cameron, Gelbach & Miller 2008 take it as their baseline). It tells
whether a shortfall is the BCa interval's or the few groups'. The Monte-Carlo standard error of a coverage
near 0.95 is √(0.95 · 0.05 / test sets).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter

from scipy import stats

import numpy as np

import advisor
from advisor.engine._metrics import evaluate_batch

METRICS = ["accuracy", "balanced_accuracy", "macro_f1"]
#: class shares and per-class recalls (at u = 0) of the two tasks
TASKS = {
    "binary": (np.array([0.7, 0.3]), np.array([0.85, 0.70])),
    "4-class": (np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.80, 0.70, 0.65, 0.60])),
}
GROUPS = (8, 10, 15, 22, 40, 100)


def _expit(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _logit(p: np.ndarray) -> np.ndarray:
    return np.log(p / (1.0 - p))


def population(shares: np.ndarray, recalls: np.ndarray, sigma: float) -> np.ndarray:
    """The k×k population cell probabilities (true class rows) under the generating model."""
    z, w = np.polynomial.hermite_e.hermegauss(80)  # ∫ f(z) φ(z) dz = Σ w f(z) / √(2π)
    mean_recall = np.array([np.sum(w * _expit(_logit(r) + sigma * z)) / math.sqrt(2 * math.pi) for r in recalls])
    k = len(shares)
    p = np.repeat(((1 - mean_recall) / (k - 1))[:, None], k, axis=1)
    p[np.arange(k), np.arange(k)] = mean_recall
    return shares[:, None] * p


def draw(rng: np.random.Generator, groups: int, shares: np.ndarray, recalls: np.ndarray, sigma: float,
         concentration: float = 20.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One test set: true labels, predictions and the group of each item."""
    k = len(shares)
    size = rng.integers(20, 201, groups)
    g = np.repeat(np.arange(groups), size)
    mix = rng.dirichlet(concentration * shares, groups)
    y = np.concatenate([rng.choice(k, n, p=m) for n, m in zip(size, mix)])
    u = rng.normal(0.0, sigma, groups)
    r = _expit(_logit(recalls)[None, :] + u[:, None])[g, y]
    wrong = (y + rng.integers(1, k, y.size)) % k  # uniform over the other classes
    pred = np.where(rng.random(y.size) < r, y, wrong)
    return y, pred, g


def scenario(task: str, groups: int, icc: float, reps: int, resamples: int, seed: int) -> dict[str, float]:
    shares, recalls = TASKS[task]
    sigma = math.sqrt(icc / (1 - icc) * math.pi**2 / 3)
    pop = population(shares, recalls, sigma)
    theta = {m: float(evaluate_batch(pop[None] * 1e9, [m])[m][0]) for m in METRICS}
    rng = np.random.default_rng(seed)
    cover = {m: 0 for m in METRICS}
    none = {m: 0 for m in METRICS}
    width: dict[str, list[float]] = {m: [] for m in METRICS}
    methods: dict[str, Counter[str]] = {m: Counter() for m in METRICS}
    items = 0
    t_hits, t_width = 0, []
    t_crit = float(stats.t.ppf(0.975, groups - 1))
    for rep in range(reps):
        y, pred, g = draw(rng, groups, shares, recalls, sigma)
        items += y.size
        n_g = np.bincount(g, minlength=groups)
        s_g = np.bincount(g, weights=(y == pred), minlength=groups)
        acc = s_g.sum() / n_g.sum()
        half = t_crit * math.sqrt(groups / (groups - 1) * np.sum((s_g - acc * n_g) ** 2)) / n_g.sum()
        t_hits += abs(acc - theta["accuracy"]) <= half
        t_width.append(2 * half)
        c = advisor.compare_systems(y, {"a": pred}, n_resamples=resamples, seed=rep, metrics=METRICS,
                                    labels=list(range(len(shares))), groups=g, method="bca")
        for m in METRICS:
            s = c.metrics[m].systems["a"]
            methods[m][str(s.method)] += 1
            if s.low is None or s.high is None or math.isnan(s.low):
                none[m] += 1
                continue
            cover[m] += s.low <= theta[m] <= s.high
            width[m].append(s.high - s.low)
    se = math.sqrt(0.95 * 0.05 / reps)
    cells = []
    out = {}
    for m in METRICS:
        cov = cover[m] / reps
        out[m] = cov
        meth = ", ".join(f"{k}" for k, _ in methods[m].most_common())
        extra = f"; none {none[m] / reps:.2f}" if none[m] else ""
        cells.append(f"{cov:.3f} ({np.mean(width[m]):.3f}{extra}) [θ = {theta[m]:.3f}; {meth}]")
    cells.append(f"{t_hits / reps:.3f} ({np.mean(t_width):.3f})")
    print(f"| {task} | {icc:.2f} | {groups} | {items / reps:,.0f} | {reps} | ±{se:.3f} | " + " | ".join(cells) + " |")
    sys.stdout.flush()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="400 test sets per row instead of 2,000 (~2 min)")
    args = ap.parse_args()
    reps = 400 if args.quick else 2000
    start = time.perf_counter()
    print("| task | ICC | groups | items (mean) | test sets | MC s.e. | accuracy: coverage (width) "
          "| balanced accuracy | macro F1 | accuracy, cluster-robust t (reference) |")
    print("|---|---:|---:|---:|---:|---:|---|---|---|---|")
    seed = 0
    for icc in (0.1, 0.05, 0.2):
        for task in TASKS:
            if icc != 0.1 and task != "binary":
                continue  # the other ICCs on the binary task only
            for groups in GROUPS:
                seed += 1
                scenario(task, groups, icc, reps, 2000, seed)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
