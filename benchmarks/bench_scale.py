"""Benchmark: the sparse engine at ImageNet and extreme-classification scale (issue 13).

Run with ``python benchmarks/bench_scale.py`` (options: ``--help``). Every figure is printed beside
its reference, measured in the same run:

1. **Bootstrap, k = 1000, n = 50,000** (the ImageNet-validation shape): ``advisor.bootstrap`` with
   10,000 resamples of *every* multi-class metric, against a plain numpy instance bootstrap of three
   metrics (accuracy, macro recall, macro F1): per resample ``rng.integers`` draws ``n`` item
   indices and three ``np.bincount`` calls give ``a``, ``b`` and ``TP``. Goal: advisor at least as fast.
2. **Paired bootstrap, two systems, same shape**: ``advisor.compare_systems`` (every metric, paired
   differences, probabilities of being better) against the same numpy loop drawing one index vector
   per resample for both systems. Goal: at least as fast. Two cases: (a) a second system predicting
   the same items (accuracy 0.74 beside 0.78), the comparison people run; (b) a second system whose
   predictions were made for other items (drawn against different true labels, as this script did
   until session 3), so that its table has about one non-zero cell per item — the worst case for a
   cell-based engine, and the hardest for advisor.
3. **k = 100,000 classes, 10^6 items**: ``confusion_matrix`` + ``compute_metrics`` (every metric) +
   ``chance_levels`` in a fresh process, with its peak RSS (``getrusage``). Goal: under 5 s and
   under 1 GB. Beside it, scikit-learn's ``confusion_matrix`` on the same labels in a subprocess
   whose address space is capped at 4 GB (``RLIMIT_AS``), so its k × k allocation fails with a
   MemoryError instead of taking the machine down; the size it asked for is printed.

The machine is shared and its speed drifts by ±20 % within minutes, so advisor and each reference
run alternately ``--repeats`` times (default 3) and the medians are printed, with every repeat's
ratio: compare the ratios rather than the absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

import numpy as np


def labels(k: int, n: int, accuracy: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """True labels uniform over k classes; a prediction is right with probability ``accuracy``,
    otherwise a uniformly random class."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    return y, predictions(y, k, accuracy, rng)


def predictions(y: np.ndarray, k: int, accuracy: float, rng: np.random.Generator) -> np.ndarray:
    """A system's predictions of the items ``y``: right with probability ``accuracy``, otherwise a
    uniformly random class."""
    return np.where(rng.random(y.shape[0]) < accuracy, y, rng.integers(0, k, y.shape[0]))


def three_metrics(t: np.ndarray, p: np.ndarray, k: int) -> tuple[float, float, float]:
    a = np.bincount(t, minlength=k).astype(float)
    b = np.bincount(p, minlength=k).astype(float)
    tp = np.bincount(t[t == p], minlength=k).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        recall = np.where(a > 0, tp / a, 0.0).mean()
        f1 = np.where(a + b > 0, 2 * tp / (a + b), 0.0).mean()
    return tp.sum() / t.shape[0], recall, f1


def numpy_bootstrap(y: np.ndarray, preds: list[np.ndarray], k: int, resamples: int, seed: int) -> tuple[float, float]:
    """Wall and CPU seconds of the plain instance bootstrap of three metrics (one index draw shared by
    the systems)."""
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(resamples):
        idx = rng.integers(0, n, n)
        t = y[idx]
        for p in preds:
            three_metrics(t, p[idx], k)
    return time.perf_counter() - start, time.process_time() - cpu


def _ratio_line(t_ref: list[tuple[float, float]], t_ours: list[tuple[float, float]]) -> str:
    """Median (and range) over the repeats of numpy / advisor, on wall and on CPU time."""
    wall = sorted(r[0] / o[0] for r, o in zip(t_ref, t_ours))
    cpu = sorted(r[1] / o[1] for r, o in zip(t_ref, t_ours))
    med_wall, med_cpu = float(np.median(wall)), float(np.median(cpu))
    spread = f" (repeats {', '.join(f'{w:.2f}' for w in wall)})" if len(wall) > 1 else ""
    return (f"   ratio numpy / advisor: {med_wall:.2f}× wall{spread}, {med_cpu:.2f}× CPU (goal ≥ 1: "
            f"{'met' if med_wall >= 1 else 'MISSED'} on the median wall time; CPU time is less sensitive to the machine's load)")


def _timed(fn: Any) -> tuple[Any, tuple[float, float]]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, (time.perf_counter() - t0, time.process_time() - c0)


def _alternate(ours: Any, reference: Any, repeats: int) -> tuple[Any, list[tuple[float, float]], list[tuple[float, float]]]:
    """Run advisor and the reference one after the other ``repeats`` times, so both see the same
    stretch of a shared machine's load."""
    t_ours, t_ref, out = [], [], None
    for _ in range(repeats):
        out, t = _timed(ours)
        t_ours.append(t)
        t_ref.append(reference())
    return out, t_ours, t_ref


def _median(times: list[tuple[float, float]]) -> tuple[float, float]:
    return float(np.median([t[0] for t in times])), float(np.median([t[1] for t in times]))


def bench_bootstrap(args: argparse.Namespace) -> None:
    import advisor
    from advisor.stats._bootstrap import bootstrap

    k, n, B, R = args.classes, args.items, args.resamples, args.repeats
    y, p1 = labels(k, n, 0.78, seed=0)
    p2 = predictions(y, k, 0.74, np.random.default_rng(1))  # a second system on the same items
    _, unrelated = labels(k, n, 0.74, seed=1)  # predictions made for other items: ~one cell per item
    cm = advisor.confusion_matrix(y, p1, labels=list(range(k)))
    bootstrap(cm, 200, seed=0)  # warm-up (200: the fewest a 95% interval takes)
    scale = B / args.reference_resamples

    def reference(preds: list[np.ndarray], seed: int) -> Any:
        return lambda: tuple(v * scale for v in numpy_bootstrap(y, preds, k, args.reference_resamples, seed=seed))

    res, t_ours, t_ref = _alternate(lambda: bootstrap(cm, B, seed=1), reference([p1], 2), R)
    print(f"1. bootstrap, k = {k:,}, n = {n:,} items ({cm.nnz:,} non-zero cells), {B:,} resamples, "
          f"{R} alternating repeat{'s' if R > 1 else ''} (medians)")
    o, r = _median(t_ours), _median(t_ref)
    print(f"   advisor.bootstrap, all {len(res)} metric ids:            {o[0]:7.2f} s  (CPU {o[1]:.2f} s)")
    print(f"   plain numpy instance bootstrap, 3 metrics:            {r[0]:7.2f} s  (CPU {r[1]:.2f} s;"
          f" {args.reference_resamples:,} resamples timed, scaled to {B:,})")
    print(_ratio_line(t_ref, t_ours))

    cases = [("2a", "a second system on the same items (accuracy 0.78 and 0.74)", p2),
             ("2b", "worst case: the second system's predictions were made for other items", unrelated)]
    for tag, what, other in cases:
        systems = {"a": p1, "b": other}
        joint_cells = len(np.unique((y * k + p1) * k + other))
        cmp, t_ours, t_ref = _alternate(lambda systems=systems: advisor.compare_systems(y, systems, n_resamples=B, seed=1),
                                        reference([p1, other], 3), R)
        print(f"{tag}. paired bootstrap, two systems, {what}: {joint_cells:,} non-zero joint cells, {B:,} resamples")
        o, r = _median(t_ours), _median(t_ref)
        print(f"   advisor.compare_systems, all {len(cmp.metrics)} metric ids:     {o[0]:7.2f} s  (CPU {o[1]:.2f} s)")
        print(f"   plain numpy paired instance bootstrap, 3 metrics:     {r[0]:7.2f} s  (CPU {r[1]:.2f} s)")
        print(_ratio_line(t_ref, t_ours))


_LARGE_K = r"""
import json, resource, sys, time
import numpy as np
k, n = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
y = rng.integers(0, k, n)
p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
import advisor
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
cm = advisor.confusion_matrix(y, p)
t1 = time.perf_counter()
r = advisor.compute_metrics(cm)
t2 = time.perf_counter()
ch = advisor.chance_levels(cm)
t3 = time.perf_counter()
print(json.dumps({"count": t1 - t0, "metrics": t2 - t1, "chance": t3 - t2, "n_metrics": len(r), "k": cm.k,
                  "nnz": cm.nnz, "accuracy": r["accuracy"], "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "base_kb": base}))
"""

_SKLEARN = r"""
import resource, sys
import numpy as np
k, n = int(sys.argv[1]), int(sys.argv[2])
cap = 4 * 1024**3
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
rng = np.random.default_rng(0)
y = rng.integers(0, k, n)
p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
from sklearn.metrics import confusion_matrix
try:
    confusion_matrix(y, p)
    print("built")
except MemoryError as exc:
    print(f"MemoryError: {exc}")
"""


def bench_large_k(args: argparse.Namespace) -> None:
    k, n = args.large_k, args.large_n
    out = subprocess.run([sys.executable, "-c", _LARGE_K, str(k), str(n)], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    total = d["count"] + d["metrics"] + d["chance"]
    peak_mb = d["peak_kb"] / 1024
    print(f"3. k = {d['k']:,} classes, n = {n:,} items ({d['nnz']:,} non-zero cells), fresh process")
    print(f"   confusion_matrix {d['count']:.2f} s + compute_metrics ({d['n_metrics']} ids) {d['metrics']:.2f} s"
          f" + chance_levels {d['chance']:.2f} s = {total:.2f} s (goal < 5 s: {'met' if total < 5 else 'MISSED'})")
    print(f"   peak RSS {peak_mb:,.0f} MB (after imports and data {d['base_kb'] / 1024:,.0f} MB; goal < 1 GB: "
          f"{'met' if peak_mb < 1024 else 'MISSED'})")
    dense_gb = 8 * k * k / 1e9
    print(f"   a dense k × k int64 matrix, as scikit-learn builds, needs {dense_gb:,.0f} GB")
    if args.skip_sklearn:
        return
    env = dict(os.environ, OMP_NUM_THREADS="1")
    t0 = time.perf_counter()
    sk = subprocess.run([sys.executable, "-c", _SKLEARN, str(k), str(n)], capture_output=True, text=True, env=env)
    msg = (sk.stdout.strip() or sk.stderr.strip().splitlines()[-1])[:160]
    print(f"   scikit-learn confusion_matrix (address space capped at 4 GB), {time.perf_counter() - t0:.1f} s: {msg}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--items", type=int, default=50_000)
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--reference-resamples", type=int, default=10_000,
                    help="resamples actually timed for the numpy reference (scaled linearly)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="advisor and the reference run alternately this many times; medians are printed")
    ap.add_argument("--large-k", type=int, default=100_000)
    ap.add_argument("--large-n", type=int, default=1_000_000)
    ap.add_argument("--skip-bootstrap", action="store_true")
    ap.add_argument("--skip-large-k", action="store_true")
    ap.add_argument("--skip-sklearn", action="store_true")
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine)")
    if not args.skip_bootstrap:
        bench_bootstrap(args)
    if not args.skip_large_k:
        bench_large_k(args)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
