"""Metric engine benchmark: arrays → every metric, and memory when streaming a CSV.

    python benchmarks/bench_engine.py                 # 10,000,000 label pairs, k = 10
    python benchmarks/bench_engine.py --n 1000000     # quicker
    python benchmarks/bench_engine.py --skip-sklearn --skip-csv

Part 1 times, on the same ``y_true``/``y_pred`` integer arrays (n pairs, k classes):

* advisor       ``confusion_matrix`` + ``compute_metrics`` (every multi-class metric id) + ``per_class``
* scikit-learn  ``confusion_matrix`` + ``classification_report`` + ``matthews_corrcoef``
                + ``cohen_kappa_score`` + ``balanced_accuracy_score``
* bincount      a bare ``np.bincount(y_true * k + y_pred, minlength=k * k)`` — the floor for counting

Goals: advisor ≥ 20× faster than scikit-learn and ≤ 3× the bare bincount. advisor and bincount are
best-of-``--repeat``; scikit-learn runs once (it takes tens of seconds at 10^7).

Part 2 writes CSV files of 10^6 and 10^7 rows (``y_true,y_pred``) to a temporary directory and, in a
fresh subprocess per size, streams each through ``advisor.io._readers.read_predictions`` and computes
every metric, reporting wall time, peak resident memory (``VmHWM``) and the peak of memory
allocated while reading (``tracemalloc``, in a second subprocess so that tracing does not slow the
timed run). The files are deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def make_labels(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    return y_true, y_pred


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def run_advisor(y_true, y_pred):
    from advisor import compute_metrics, confusion_matrix, per_class
    from advisor.engine._metrics import MULTICLASS_METRICS

    cm = confusion_matrix(y_true, y_pred)
    return compute_metrics(cm, list(MULTICLASS_METRICS)), per_class(cm)


def run_sklearn(y_true, y_pred):
    import sklearn.metrics as skm

    return (skm.confusion_matrix(y_true, y_pred), skm.classification_report(y_true, y_pred, zero_division=0),
            skm.matthews_corrcoef(y_true, y_pred), skm.cohen_kappa_score(y_true, y_pred),
            skm.balanced_accuracy_score(y_true, y_pred))


def run_bincount(y_true, y_pred, k):
    return np.bincount(y_true * k + y_pred, minlength=k * k)


def part1(n: int, k: int, repeat: int, skip_sklearn: bool) -> dict:
    print(f"== arrays → every metric: n = {n:,} label pairs, k = {k} ==")
    y_true, y_pred = make_labels(n, k)
    run_advisor(y_true[:1000], y_pred[:1000])  # warm-up (imports)
    t_adv = best_of(lambda: run_advisor(y_true, y_pred), repeat)
    t_bin = best_of(lambda: run_bincount(y_true, y_pred, k), repeat)
    # the two must agree on the counts
    r, _ = run_advisor(y_true, y_pred)
    assert np.array_equal(run_bincount(y_true, y_pred, k).reshape(k, k), np.asarray(
        __import__("advisor").confusion_matrix(y_true, y_pred).counts, dtype=np.int64))
    out = {"n": n, "k": k, "advisor_s": t_adv, "bincount_s": t_bin, "metrics": len(r)}
    print(f"advisor       {t_adv * 1e3:9.1f} ms   ({len(r)} metrics + per-class table)")
    print(f"bincount      {t_bin * 1e3:9.1f} ms")
    if not skip_sklearn:
        run_sklearn(y_true[:1000], y_pred[:1000])  # warm-up (imports)
        t_sk = best_of(lambda: run_sklearn(y_true, y_pred), 1)
        out["sklearn_s"] = t_sk
        print(f"scikit-learn  {t_sk * 1e3:9.1f} ms")
        print(f"advisor is {t_sk / t_adv:,.0f}× faster than scikit-learn (goal ≥ 20×)")
    print(f"advisor takes {t_adv / t_bin:.2f}× the bare bincount (goal ≤ 3×)")
    return out


# ---- part 2: streaming a CSV ---------------------------------------------------------------------
CHILD = r"""
import json, resource, sys, time
mode, path = sys.argv[1], sys.argv[2]


def peak_rss_kb():
    # VmHWM: high-water mark of this process's memory, reset by exec. (ru_maxrss is not: on Linux a
    # child started by fork + exec inherits the parent's peak.)
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


import numpy, pyarrow  # imported up front so the baseline includes them
from advisor import compute_metrics
from advisor.io._readers import read_predictions
base_rss = peak_rss_kb()
if mode == "traced":
    import tracemalloc
    tracemalloc.start()
t = time.perf_counter()
ps = read_predictions([path], true_col="y_true", pred_col="y_pred")
metrics = {name: dict(compute_metrics(cm)) for name, cm in ps.systems.items()}
elapsed = time.perf_counter() - t
out = {"n_items": ps.n_items, "seconds": elapsed, "base_rss_kb": base_rss,
       "peak_rss_kb": peak_rss_kb()}
if mode == "traced":
    out["traced_peak_bytes"] = tracemalloc.get_traced_memory()[1]
print(json.dumps(out))
"""


def write_csv(path: Path, n: int, k: int, seed: int = 1, chunk: int = 2_000_000) -> None:
    """``y_true,y_pred`` rows of one-digit labels, written in chunks as raw bytes."""
    assert k <= 10
    rng = np.random.default_rng(seed)
    with path.open("wb") as fh:
        fh.write(b"y_true,y_pred\n")
        for start in range(0, n, chunk):
            m = min(chunk, n - start)
            t = rng.integers(0, k, m)
            p = np.where(rng.random(m) < 0.7, t, rng.integers(0, k, m))
            rows = np.empty((m, 4), dtype=np.uint8)
            rows[:, 0] = 48 + t
            rows[:, 1] = ord(",")
            rows[:, 2] = 48 + p
            rows[:, 3] = ord("\n")
            fh.write(rows.tobytes())


def part2(sizes: list[int], k: int) -> list[dict]:
    print("\n== streaming a CSV through read_predictions (fresh process per size) ==")
    results = []
    with tempfile.TemporaryDirectory(prefix="advisor-bench-") as tmp:
        for n in sizes:
            path = Path(tmp) / f"pred_{n}.csv"
            t = time.perf_counter()
            write_csv(path, n, k)
            size_mb = path.stat().st_size / 2**20
            print(f"wrote {n:,} rows ({size_mb:.0f} MB) in {time.perf_counter() - t:.1f} s")
            row = {"n": n, "file_mb": size_mb}
            for mode in ("plain", "traced"):
                proc = subprocess.run([sys.executable, "-c", CHILD, mode, str(path)], capture_output=True,
                                      text=True, check=True)
                row[mode] = json.loads(proc.stdout.strip().splitlines()[-1])
            plain, traced = row["plain"], row["traced"]
            assert plain["n_items"] == n
            print(f"  n = {n:>11,}: {plain['seconds']:6.2f} s, peak RSS {plain['peak_rss_kb'] / 1024:7.1f} MB "
                  f"(after imports {plain['base_rss_kb'] / 1024:6.1f} MB, so +"
                  f"{(plain['peak_rss_kb'] - plain['base_rss_kb']) / 1024:.1f} MB), "
                  f"peak traced allocations {traced['traced_peak_bytes'] / 2**20:6.1f} MB")
            results.append(row)
            path.unlink()
    if len(results) >= 2:
        a, b = results[0], results[-1]
        grow_rss = b["plain"]["peak_rss_kb"] / a["plain"]["peak_rss_kb"]
        grow_tr = b["traced"]["traced_peak_bytes"] / a["traced"]["traced_peak_bytes"]
        print(f"{b['n'] // a['n']}× the rows: peak RSS × {grow_rss:.2f}, peak traced allocations × {grow_tr:.2f}")
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-sklearn", action="store_true")
    ap.add_argument("--skip-csv", action="store_true")
    ap.add_argument("--csv-sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = ap.parse_args()
    res = {"part1": part1(args.n, args.k, args.repeat, args.skip_sklearn)}
    if not args.skip_csv:
        res["part2"] = part2(args.csv_sizes, min(args.k, 10))
    if args.json:
        args.json.write_text(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
