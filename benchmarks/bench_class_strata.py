"""Benchmark: coverage of bootstrap intervals whose resamples keep every class, beside plain resamples.

Run with ``python benchmarks/bench_class_strata.py`` (``--quick``: fewer test sets and resamples, a few minutes on
one core). Each row fixes a population — ``k`` classes with given shares and a classifier that gets each class
right with a given probability, its errors spread evenly over the other classes — and draws test sets of ``n``
items from it at random (the class counts multinomial, as in a random test split; the last row instead fixes
each class's count, a test set sampled per class as a case–control sample is). On each test set
:func:`advisor.bootstrap` resamples the confusion matrix three times with the same seed: ``classes="kept"`` (the
plain bootstrap, a resample that lacks a class of the test set drawn again), ``classes="fixed"`` (one multinomial per
true class: every resample keeps each class's count, the stratified bootstrap) and ``classes="free"`` (the plain
bootstrap: one multinomial over all cells, a rare class can be missing from a resample). Each gives the BCa interval
(``method="bca"``, for every metric, accuracy too) and the percentile interval of the same resamples. Coverage is the share of test sets whose
95 % interval contains the population's value (the metric of the population's cell probabilities); the mean width is
beside it. "missing" is the mean share of plain resamples that lacked a class present in the test set. The
undefined-value convention is ``omit``, advisor's default: a resample without a class gives a mean over the
classes it has.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor import compute_metrics
from advisor.engine import Cells
from advisor.stats import bootstrap
from advisor.stats._bootstrap import drawn_cells, iter_resamples, trials_and_probabilities

METRICS = ("balanced_accuracy", "macro_f1", "accuracy", "mcc")
DESIGNS = ("kept", "fixed", "free")
NAMES = {"balanced_accuracy": "balanced accuracy", "macro_f1": "macro F1", "accuracy": "accuracy", "mcc": "MCC"}


def population(shares: np.ndarray, recalls: np.ndarray) -> np.ndarray:
    """Cell probabilities: row i is class i's share, its recall on the diagonal, the rest spread evenly."""
    k = shares.shape[0]
    rows = np.tile(((1 - recalls) / (k - 1))[:, None], (1, k))
    rows[np.arange(k), np.arange(k)] = recalls
    return shares[:, None] * rows


def scenario(label: str, shares: np.ndarray, recalls: np.ndarray, n: int, reps: int, resamples: int,
             seed: int, per_class: bool = False) -> list[str]:
    p = population(shares, recalls)
    k = shares.shape[0]
    theta = compute_metrics(p * 1e9, list(METRICS))
    rng = np.random.default_rng(seed)
    keys = [(s, iv) for s in DESIGNS for iv in ("bca", "percentile")]
    cover = {m: {key: 0 for key in keys} for m in METRICS}
    width: dict[str, dict[tuple[str, str], list[float]]] = {m: {key: [] for key in keys} for m in METRICS}
    missing: list[float] = []
    for r in range(reps):
        if per_class:  # a test set sampled per class: each class's count fixed, its predictions drawn
            sizes = np.round(n * shares).astype(int)
            c = np.array([rng.multinomial(sizes[i], p[i] / p[i].sum()) for i in range(k)])
        else:
            c = rng.multinomial(n, p.ravel()).reshape(k, k)
        present = c.sum(axis=1) > 0
        for s in DESIGNS:
            b = bootstrap(c, n_resamples=resamples, seed=r, metrics=list(METRICS), method="bca", undefined="omit",
                          classes=s, keep_resamples=True)
            if s == "free":  # the share of resamples that lacked a class the test set has: from recall's undefined
                missing.append(_missing_share(c, present, resamples, r))
            for m in METRICS:
                vals = b.resamples[m]
                vals = vals[np.isfinite(vals)]
                ends = {"bca": (b[m]["low"], b[m]["high"]),
                        "percentile": tuple(np.quantile(vals, [0.025, 0.975])) if vals.size else (np.nan, np.nan)}
                for iv, (lo, hi) in ends.items():
                    if np.isfinite(lo) and np.isfinite(hi):
                        cover[m][(s, iv)] += lo <= theta[m] <= hi
                        width[m][(s, iv)].append(hi - lo)
    out = []
    for j, m in enumerate(METRICS):
        cells = [f"{cover[m][key] / reps:.3f} ({np.mean(width[m][key]):.3f})" for key in keys]
        extra = f"{np.mean(missing):.4f}" if j == 0 else ""
        out.append(f"| {label if j == 0 else ''} | {n if j == 0 else ''} | {reps if j == 0 else ''} | {NAMES[m]}, "
                   f"θ = {theta[m]:.3f} | " + " | ".join(cells) + f" | {extra} |")
    return out


def _missing_share(c: np.ndarray, present: np.ndarray, resamples: int, seed: int) -> float:
    """The share of plain resamples (the same stream as ``classes="free"``'s cell draw) without some class the
    test set has: drawn again here, since a resample's class counts are not kept."""
    cells = drawn_cells(Cells.from_dense(c))
    k = c.shape[0]
    trials, prob, scale = trials_and_probabilities(cells.w, "m", cells.rows * k + cells.cols, k * k)
    lacking = 0
    for _, masses in iter_resamples(np.random.default_rng(seed), trials, prob, resamples, resamples, scale):
        a = np.zeros((masses.shape[0], k))
        np.add.at(a.T, cells.rows, masses.T)
        lacking += int(((a <= 0) & present).any(axis=1).sum())
    return lacking / resamples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="300 test sets per row and 1,000 resamples")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    reps, resamples = (300, 1000) if args.quick else (1000, 2000)
    rare = np.r_[np.full(9, 0.985 / 9), 0.015]
    even = np.full(10, 0.1)
    recalls = np.r_[np.linspace(0.70, 0.90, 9), 0.60]
    binary = np.array([0.9, 0.1])
    print("| population | n | test sets | metric, θ | kept: BCa | kept: percentile | fixed: BCa | fixed: percentile "
          "| free: BCa | free: percentile | missing |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    start = time.time()
    rows = [("10 classes, one at 1.5 %", rare, recalls, 400),
            ("10 classes, one at 1.5 %", rare, recalls, 200),
            ("10 classes, even", even, recalls, 400),
            ("binary, 10 % positive", binary, np.array([0.9, 0.7]), 100),
            ("10 classes, one at 1.5 %, sampled per class (6 of it)", rare, recalls, 400)]
    for i, (label, shares, rec, n) in enumerate(rows):
        for line in scenario(label, shares, rec, n, reps, resamples, args.seed + i, per_class="per class" in label):
            print(line, flush=True)
    print(f"\n{time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
