"""Benchmark: 10,000 bootstrap resamples of a 10-class table for every metric, vs scikit-learn.

Run with ``python benchmarks/bench_bootstrap.py`` (options: ``--help``). It times, in one run:

1. ``advisor.bootstrap`` with 10,000 resamples of a 10-class confusion matrix for every multi-class
   metric id (goal: under 1 second), end to end (multinomial draws, vectorised evaluation, intervals),
   and the split between drawing the resamples and evaluating them;
2. the same for a 2-class table with every binary metric added (binary metrics need k = 2);
3. the textbook instance-level bootstrap with scikit-learn: draw ``n`` item indices with replacement,
   then call scikit-learn's metric functions on the resampled labels — timed for a few hundred
   resamples and extrapolated linearly to 10,000;
4. ``advisor.bootstrap`` restricted to the metrics scikit-learn has, for a like-for-like ratio.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from advisor.stats._bootstrap import bootstrap
from advisor.engine._metrics import BINARY_METRICS, MULTICLASS_METRICS, evaluate_batch


def table(k: int, n: int, seed: int = 0) -> np.ndarray:
    """A k-class confusion matrix with ``n`` items, imbalanced classes and ~75 % accuracy."""
    rng = np.random.default_rng(seed)
    sizes = rng.multinomial(n, rng.dirichlet(np.full(k, 2.0)))
    rows = []
    for a in sizes:
        rows.append(rng.multinomial(a, rng.dirichlet(np.ones(k))))
    c = np.array(rows, dtype=float)
    for i, a in enumerate(sizes):  # move ~75 % of each row onto the diagonal
        c[i] *= 0.25
        c[i, i] += 0.75 * a
    c = np.floor(c)
    c[np.diag_indices(k)] += sizes - c.sum(axis=1)
    return c


def best_of(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def sklearn_metrics() -> dict[str, Callable[[np.ndarray, np.ndarray], float]]:
    from sklearn import metrics as skm

    return {
        "accuracy": skm.accuracy_score,
        "balanced_accuracy": skm.balanced_accuracy_score,
        "macro_precision": lambda t, p: skm.precision_score(t, p, average="macro", zero_division=0),
        "macro_recall": lambda t, p: skm.recall_score(t, p, average="macro", zero_division=0),
        "macro_f1": lambda t, p: skm.f1_score(t, p, average="macro", zero_division=0),
        "weighted_f1": lambda t, p: skm.f1_score(t, p, average="weighted", zero_division=0),
        "micro_f1": lambda t, p: skm.f1_score(t, p, average="micro", zero_division=0),
        "macro_jaccard": lambda t, p: skm.jaccard_score(t, p, average="macro", zero_division=0),
        "weighted_jaccard": lambda t, p: skm.jaccard_score(t, p, average="weighted", zero_division=0),
        "micro_jaccard": lambda t, p: skm.jaccard_score(t, p, average="micro", zero_division=0),
        "cohen_kappa": skm.cohen_kappa_score,
        "mcc": skm.matthews_corrcoef,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--items", type=int, default=10_000, help="items in the test set (matters for sklearn only)")
    ap.add_argument("--sklearn-resamples", type=int, default=200, help="resamples actually timed for sklearn")
    ap.add_argument("--repeats", type=int, default=3, help="best of this many timings")
    args = ap.parse_args()
    B, k, n = args.resamples, args.classes, args.items

    cm = table(k, n)
    ids = list(MULTICLASS_METRICS)
    bootstrap(cm, 50, seed=0)  # warm-up (imports, caches)
    t_all = best_of(lambda: bootstrap(cm, B, seed=1, method="percentile"), args.repeats)
    t_bca = best_of(lambda: bootstrap(cm, B, seed=1), 1)  # the default: chosen per metric (BCa, Clopper-Pearson)
    p = (cm / cm.sum()).ravel()
    rng = np.random.default_rng(1)
    t_draw = best_of(lambda: rng.multinomial(n, p, size=B), args.repeats)
    draws = rng.multinomial(n, p, size=B).astype(float).reshape(B, k, k)
    t_eval = best_of(lambda: evaluate_batch(draws, ids), args.repeats)

    cm2 = table(2, n, seed=3)
    ids2 = list(MULTICLASS_METRICS) + list(BINARY_METRICS)
    t_bin = best_of(lambda: bootstrap(cm2, B, seed=1, metrics=ids2, positive_label=1), args.repeats)

    sk = sklearn_metrics()
    t_ours_sk = best_of(lambda: bootstrap(cm, B, seed=1, metrics=list(sk)), args.repeats)
    codes = np.repeat(np.arange(k * k), cm.reshape(-1).astype(int))
    y_true, y_pred = codes // k, codes % k
    R = args.sklearn_resamples
    rng = np.random.default_rng(2)
    t = time.perf_counter()
    for _ in range(R):
        idx = rng.integers(0, n, n)
        yt, yp = y_true[idx], y_pred[idx]
        for fn in sk.values():
            fn(yt, yp)
    t_sk = (time.perf_counter() - t) * B / R

    print(f"advisor.bootstrap, {k}-class table, n = {n:,} items, {B:,} resamples:")
    print(f"  all {len(ids)} multi-class metric ids, percentile: {t_all:.3f} s (goal < 1 s: {'met' if t_all < 1 else 'MISSED'})")
    print(f"    of which multinomial draws {t_draw:.3f} s, vectorised evaluation {t_eval:.3f} s")
    print(f"  same with the default intervals (BCa's jackknife, Clopper–Pearson):  {t_bca:.3f} s")
    print(f"  2-class table, all {len(ids2)} multi-class + binary ids: {t_bin:.3f} s")
    print(f"scikit-learn instance-level loop, {len(sk)} metrics it has ({', '.join(sk)}):")
    print(f"  {R} resamples timed, extrapolated to {B:,}: {t_sk:.1f} s")
    print(f"advisor.bootstrap on the same {len(sk)} metrics: {t_ours_sk:.3f} s")
    print(f"ratio (sklearn loop / advisor, same metrics): {t_sk / t_ours_sk:,.0f}×")
    print(f"ratio (sklearn loop, {len(sk)} metrics / advisor, all {len(ids)} metrics): {t_sk / t_all:,.0f}×")


if __name__ == "__main__":
    main()
