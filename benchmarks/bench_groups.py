"""Benchmark: the group bootstrap at scale (issue 20: 10^6 items in 10^4 groups, 2,000 resamples, < 10 s).

Run with ``python benchmarks/bench_groups.py``. Binary labels; each group has its own accuracy (uniform
0.6–0.95); two systems. Times, best of ``--repeats``:

1. the joint table counted per group from arrays (what ``advisor.load(group=…)`` gets from DuckDB), and
2. ``compare_joint(..., groups=…)``: 2,000 paired group resamples of three metrics and of every metric,
   with BCa's jackknife over 200 random sets of groups,
3. ``compare_scored(..., groups=…)`` of ROC AUC on the same items (10^5 items, item weights from groups).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=10**6)
    ap.add_argument("--groups", type=int, default=10**4)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    from advisor.engine._joint import JointCounts
    from advisor.stats._compare import _grouped_joint, compare_joint
    from advisor.stats._items import compare_scored

    rng = np.random.default_rng(0)
    n, g_n = args.items, args.groups
    g = rng.integers(0, g_n, n)
    acc = rng.uniform(0.6, 0.95, g_n)[g]
    y = rng.integers(0, 2, n)
    preds = {"a": np.where(rng.random(n) < acc, y, 1 - y), "b": np.where(rng.random(n) < acc - 0.03, y, 1 - y)}

    def best(fn):  # noqa: ANN001, ANN202
        times, out = [], None
        for _ in range(args.repeats):
            t = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t)
        return min(times), out

    t_table, (joint, rows) = best(lambda: _grouped_joint(JointCounts.from_arrays(y, preds), y, preds, g, None))
    print(f"{n:,} items in {g_n:,} groups, two systems: joint table per group {joint.counts.shape[0]:,} rows, "
          f"built in {t_table:.2f} s")
    for ids in (["accuracy", "balanced_accuracy", "mcc"], None):
        t, cmp = best(lambda: compare_joint(joint, args.resamples, 1, ids, groups=rows))
        label = "3 metrics" if ids else f"all {len(cmp.metrics)} metric ids"
        s = cmp.metrics["mcc"].systems["a"]
        print(f"compare_joint, {args.resamples:,} group resamples, {label}: {t:.2f} s "
              f"(MCC of a {s.estimate:.4f} [{s.low:.4f}, {s.high:.4f}], {s.method})")
    m = 100_000
    score = y[:m] + rng.normal(0, 1.0, m)
    t, res = best(lambda: compare_scored(y[:m], {"s": score}, [0, 1], positive_label=1, metrics=["roc_auc"],
                                         n_resamples=args.resamples, seed=1, groups=g[:m]))
    lo, hi = res.intervals["roc_auc"]["s"]
    print(f"compare_scored, ROC AUC of {m:,} items in groups, {args.resamples:,} resamples: {t:.2f} s "
          f"([{lo:.4f}, {hi:.4f}])")


if __name__ == "__main__":
    main()
