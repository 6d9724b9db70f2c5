"""Benchmark: 2,000 paired item resamples of 10^5 scored items (two systems), vs a plain loop.

Run with ``python benchmarks/bench_scores.py`` (options: ``--help``). It times, in one run:

1. ``advisor.stats._items.compare_scored`` — two binary systems with real-valued scores on ``n``
   items, ``B`` paired resamples, ROC AUC and average precision (goal: 2,000 × 10^5 under 5 s), end
   to end: the items are sorted once and every resample is a weighting of the sorted items;
2. the plain numpy + scikit-learn loop: per resample draw ``n`` indices, then call
   ``roc_auc_score`` and ``average_precision_score`` on both systems' resampled items — timed for a
   few resamples and extrapolated linearly to ``B``;
3. the same two for probability metrics (log loss, Brier, ECE) on a 3-class task.

It prints the wall times (and advisor's CPU time) and their ratio; the numbers depend on the machine
and its load — the ratio, measured in the same run, is the comparable figure.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def _binary(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    return y, {"a": y + rng.normal(0, 1.0, n), "b": y + rng.normal(0, 1.2, n)}


def _multi(n: int, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    out = {}
    for name, s in (("a", 2.0), ("b", 1.5)):
        z = rng.normal(0, 1, (n, 3)) + s * np.eye(3)[y]
        p = np.exp(z)
        out[name] = p / p.sum(axis=1, keepdims=True)
    return y, out


def _plain(y: np.ndarray, systems: dict[str, np.ndarray], metrics: list, resamples: int) -> float:
    """Wall seconds of the plain loop: draw indices, call the metric functions on the resampled items."""
    rng = np.random.default_rng(0)
    n = y.shape[0]
    t = time.perf_counter()
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        for s in systems.values():
            for fn in metrics:
                fn(y[idx], s[idx])
    return time.perf_counter() - t


def main() -> None:
    from sklearn import metrics as skm

    from advisor.stats._items import compare_scored
    from tests.test_scores_oracles import _plain_ece

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=100_000)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--plain-resamples", type=int, default=20, help="resamples timed for the plain loop")
    args = ap.parse_args()
    n, b = args.items, args.resamples

    y, systems = _binary(n)
    t, c = time.perf_counter(), time.process_time()
    compare_scored(y, systems, [0, 1], positive_label=1, metrics=["roc_auc", "average_precision"], n_resamples=b)
    ours, ours_cpu = time.perf_counter() - t, time.process_time() - c
    c = time.process_time()
    plain = _plain(y, systems, [skm.roc_auc_score, skm.average_precision_score], args.plain_resamples)
    plain_cpu = (time.process_time() - c) * b / args.plain_resamples
    plain *= b / args.plain_resamples
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine)")
    print(f"ROC AUC + AP, 2 systems, {n:,} items, {b:,} paired resamples:")
    print(f"  advisor (sorted once)          {ours:8.2f} s   (CPU {ours_cpu:.2f} s)   goal < 5 s: "
          f"{'met' if ours < 5 else 'NOT met'} on wall time, {'met' if ours_cpu < 5 else 'NOT met'} on CPU time")
    print(f"  numpy + scikit-learn loop      {plain:8.2f} s   (CPU {plain_cpu:.2f} s; extrapolated from "
          f"{args.plain_resamples})")
    print(f"  ratio                          {plain / ours:8.1f} × wall, {plain_cpu / ours_cpu:.1f} × CPU")

    y, systems = _multi(n)
    t = time.perf_counter()
    compare_scored(y, systems, [0, 1, 2], metrics=["log_loss", "brier", "ece"], n_resamples=b)
    ours = time.perf_counter() - t

    def brier(yy: np.ndarray, pp: np.ndarray) -> float:
        return float(np.mean(((pp - np.eye(3)[yy]) ** 2).sum(axis=1)))

    def ll(yy: np.ndarray, pp: np.ndarray) -> float:
        return skm.log_loss(yy, pp, labels=[0, 1, 2])

    def ece(yy: np.ndarray, pp: np.ndarray) -> float:
        return _plain_ece(yy, pp, 15, "equal_width")  # the plain ECE of the tests (pure Python) as reference

    plain = _plain(y, systems, [ll, brier], args.plain_resamples) * b / args.plain_resamples
    plain_ece = _plain(y[:2000], {k: v[:2000] for k, v in systems.items()}, [ece], 2) * (n / 2000) * b / 2
    print(f"log loss + Brier + ECE, 3 classes, 2 systems, {n:,} items, {b:,} paired resamples:")
    print(f"  advisor                        {ours:8.2f} s")
    print(f"  numpy + scikit-learn loop      {plain:8.2f} s   (log loss + Brier only, extrapolated)")
    print(f"  + plain Python ECE             {plain_ece:8.2f} s   (extrapolated from 2 resamples of 2,000 items)")


if __name__ == "__main__":
    main()
