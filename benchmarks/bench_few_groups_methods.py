"""Benchmark: which 95 % interval covers when the test set has few groups (speakers, records, patients).

Run with ``python benchmarks/bench_few_groups_methods.py`` (1,000 test sets a row, ~15 min here;
``--quick``: 300 test sets a row). A simulation, not a test.

Readers of a leave-one-session-out speech-emotion study (about 10 speakers) and of an inter-patient ECG study
(22 records) wrote that a BCa interval from so few resampled clusters lacks nominal coverage and that its
acceleration is unstable; they asked for a t-interval over folds, or over clusters, or a caveat.
``bench_few_groups.py`` measured the shortfall of advisor's interval; this one measures the alternatives on the
same generating model (its ``draw`` and ``population``: G groups of 20–200 items, class mix Dirichlet around the
task's shares, per-class recalls sharing a group effect on the logit scale, ICC 0.1), at G = 5, 10, 22 and 50:

* **BCa** — advisor's interval before this change: ``advisor.compare_systems(…, groups=g, method="bca")``, 2,000 resamples of
  the groups, BCa with the acceleration of the delete-one-group jackknife.
* **percentile** — the same resamples (same seed), ``method="percentile"``.
* **jackknife t** — the delete-one-group jackknife (Cameron & Miller 2015, §VI; Efron & Tibshirani 1993, §11.2):
  θ̂ ± t_{0.975, G−1} · SE, SE² = (G − 1)/G · Σ_g (θ₍g₎ − θ̄)², θ₍g₎ the metric on the pooled table without group g.
  Symmetric around θ̂, so it always contains its estimate.
* **folds t** — when the groups are dealt into F = min(5, G) cross-validation folds (leave one session out:
  five sessions of two speakers each at G = 10): mean ± t_{0.975, F−1} · SD/√F of the F per-fold values. Its centre
  is the mean over folds, not the pooled value, so it estimates a slightly different quantity; coverage is of the
  same θ.

The ``ecg`` task is five classes with two rare ones held by few groups (shares 0.85, 0.05, 0.07, 0.02, 0.01,
concentration 1): a resample of the groups then often lacks a class, so a mean over the classes present averages
over fewer classes; "lacking" is the mean share of bootstrap resamples that lack the class most often lost.
Coverage with mean width in brackets; with 1,000 test sets a coverage near 0.95 has a Monte-Carlo standard error
of 0.007.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from scipy import stats

import numpy as np

import advisor
from advisor.engine._metrics import evaluate_batch
from bench_few_groups import _expit, _logit, population

METRICS = ["accuracy", "balanced_accuracy"]
TASKS = {
    "binary": (np.array([0.7, 0.3]), np.array([0.85, 0.70]), 20.0),
    "4-class": (np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.80, 0.70, 0.65, 0.60]), 20.0),
    "ecg": (np.array([0.85, 0.05, 0.07, 0.02, 0.01]), np.array([0.95, 0.60, 0.85, 0.50, 0.40]), 1.0),
}
GROUPS = (5, 10, 22, 50)
FOLDS = 5


def draw(rng: np.random.Generator, groups: int, shares: np.ndarray, recalls: np.ndarray, sigma: float,
         concentration: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One test set (as bench_few_groups.draw, with the Dirichlet concentration as a parameter)."""
    k = len(shares)
    size = rng.integers(20, 201, groups)
    g = np.repeat(np.arange(groups), size)
    mix = rng.dirichlet(concentration * shares, groups)
    y = np.concatenate([rng.choice(k, n, p=m) for n, m in zip(size, mix)])
    u = rng.normal(0.0, sigma, groups)
    r = _expit(_logit(recalls)[None, :] + u[:, None])[g, y]
    wrong = (y + rng.integers(1, k, y.size)) % k
    pred = np.where(rng.random(y.size) < r, y, wrong)
    return y, pred, g


def tables(y: np.ndarray, pred: np.ndarray, g: np.ndarray, groups: int, k: int) -> np.ndarray:
    """Each group's confusion matrix, (groups, k, k)."""
    out = np.zeros((groups, k, k))
    np.add.at(out, (g, y, pred), 1.0)
    return out


def scenario(task: str, groups: int, icc: float, reps: int, resamples: int, seed: int) -> None:
    shares, recalls, conc = TASKS[task]
    k = len(shares)
    sigma = math.sqrt(icc / (1 - icc) * math.pi**2 / 3)
    theta = {m: float(evaluate_batch(population(shares, recalls, sigma)[None] * 1e9, [m])[m][0]) for m in METRICS}
    rng = np.random.default_rng(seed)
    names = ["bca", "percentile", "jackknife t", "folds t"]
    hits = {(n, m): 0 for n in names for m in METRICS}
    none = {(n, m): 0 for n in names for m in METRICS}
    width: dict[tuple[str, str], list[float]] = {(n, m): [] for n in names for m in METRICS}
    folds = min(FOLDS, groups)
    t_g, t_f = float(stats.t.ppf(0.975, groups - 1)), float(stats.t.ppf(0.975, folds - 1))
    lacking = 0.0
    for rep in range(reps):
        y, pred, g = draw(rng, groups, shares, recalls, sigma, conc)
        per = tables(y, pred, g, groups, k)
        pooled = per.sum(axis=0)
        est = {m: float(evaluate_batch(pooled[None], [m])[m][0]) for m in METRICS}
        # delete-one-group jackknife
        jack = evaluate_batch(pooled[None] - per, METRICS)
        # folds: the groups dealt in turn into F folds (shuffled), one value per fold
        fold_of = rng.permutation(np.arange(groups) % folds)
        fold_tables = np.stack([per[fold_of == f].sum(axis=0) for f in range(folds)])
        fold_vals = evaluate_batch(fold_tables, METRICS)
        ends: dict[tuple[str, str], tuple[float, float]] = {}
        for m in METRICS:
            th = np.asarray(jack[m], dtype=float)
            se = math.sqrt((groups - 1) / groups * np.sum((th - th.mean()) ** 2))
            ends[("jackknife t", m)] = (est[m] - t_g * se, est[m] + t_g * se)
            fv = np.asarray(fold_vals[m], dtype=float)
            half = t_f * fv.std(ddof=1) / math.sqrt(folds)
            ends[("folds t", m)] = (fv.mean() - half, fv.mean() + half)
        for name, method in (("bca", "bca"), ("percentile", "percentile")):
            c = advisor.compare_systems(y, {"a": pred}, n_resamples=resamples, seed=rep, metrics=METRICS,
                                        labels=list(range(k)), groups=g, method=method)
            if name == "bca":
                lacking += max(c.absent_classes.values(), default=0) / resamples
            for m in METRICS:
                s = c.metrics[m].systems["a"]
                ends[(name, m)] = (float("nan"), float("nan")) if s.low is None or s.high is None else (s.low, s.high)
        for (name, m), (lo, hi) in ends.items():
            if not (math.isfinite(lo) and math.isfinite(hi)):
                none[(name, m)] += 1
                continue
            hits[(name, m)] += lo <= theta[m] <= hi
            width[(name, m)].append(hi - lo)
    cells = []
    for m in METRICS:
        for name in names:
            extra = f"; none {none[(name, m)] / reps:.2f}" if none[(name, m)] else ""
            cells.append(f"{hits[(name, m)] / reps:.3f} ({np.mean(width[(name, m)]):.3f}{extra})")
    print(f"| {task} | {groups} | {folds} | {reps} | " + " | ".join(cells)
          + f" | {lacking / reps:.2f} | θ acc {theta['accuracy']:.3f}, BA {theta['balanced_accuracy']:.3f} |")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="300 test sets per row instead of 1,000")
    ap.add_argument("--tasks", nargs="*", default=list(TASKS))
    args = ap.parse_args()
    reps = 300 if args.quick else 1000
    start = time.perf_counter()
    head = [f"{m} {n}" for m in ("accuracy", "balanced accuracy") for n in ("BCa", "percentile", "jackknife t",
                                                                            "folds t")]
    print("| task | groups | folds | test sets | " + " | ".join(head) + " | lacking | θ |")
    print("|---|---:|---:|---:|" + "---|" * len(head) + "---:|---|")
    seed = 100
    for task in args.tasks:
        for groups in GROUPS:
            seed += 1
            scenario(task, groups, 0.1, reps, 2000, seed)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
