"""File engine benchmark: a prediction file → every metric, against DuckDB's bare GROUP BY on it.

    python benchmarks/bench_io.py                      # 10^6 and 10^7 rows, CSV and JSON Lines, k = 10
    python benchmarks/bench_io.py --sizes 1000000      # quicker

For each size and format a file ``y_true,y_pred`` (k classes, 70 % correct) is written to a temporary
directory, then, each in a fresh subprocess (so peak memory is per run):

* advisor  ``advisor.load(file)`` + ``advisor.evaluate`` (every multi-class metric, per-class table, chance
           levels) — what ``advisor compute FILE`` does, without printing;
* duckdb   ``SELECT y_true, y_pred, count(*) FROM '<file>' GROUP BY ALL`` — the bare count, the floor.

Both are best of ``--repeat`` runs inside their subprocess (the file is in the page cache for both).
Printed: wall time of each (and its CPU time: all threads, less sensitive to a shared machine's load),
their ratio (goal ≤ 1.3), and the peak resident memory (``VmHWM``) of both processes — advisor's should
stay flat from 10^6 to 10^7 rows; DuckDB's own parallel scan grows, shown beside it so that the reader
sees what is inherent to the engine and what advisor's settings remove. The files are deleted afterwards.
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

CHILD = r"""
import json, sys, time
path, which, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
best, best_cpu = float("inf"), float("inf")
for _ in range(repeat):
    t, c = time.perf_counter(), time.process_time()
    if which == "advisor":
        import advisor
        ds = advisor.load(path)
        ev = advisor.evaluate(ds.systems)
        assert ev.n == ds.n_items
    else:
        import duckdb
        con = duckdb.connect()
        con.execute("SET enable_progress_bar = false")
        rows = con.execute(f"SELECT y_true, y_pred, count(*) FROM '{path}' GROUP BY ALL").fetchall()
        con.close()
        assert rows
    best, best_cpu = min(best, time.perf_counter() - t), min(best_cpu, time.process_time() - c)
hwm = 0
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        hwm = int(line.split()[1]) * 1024
print(json.dumps({"seconds": best, "cpu": best_cpu, "peak_bytes": hwm}))
"""


def write_files(folder: Path, n: int, k: int, seed: int = 0) -> dict[str, Path]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    csv = folder / f"pred_{n}.csv"
    jsonl = folder / f"pred_{n}.jsonl"
    block = 1_000_000
    with csv.open("w") as fc, jsonl.open("w") as fj:
        fc.write("y_true,y_pred\n")
        for s in range(0, n, block):
            ys, ps = y[s:s + block].astype(str), p[s:s + block].astype(str)
            fc.write("\n".join(np.char.add(np.char.add(ys, ","), ps)) + "\n")
            fj.write("\n".join(np.char.add(np.char.add(np.char.add(np.char.add('{"y_true": ', ys), ', "y_pred": '), ps), "}")) + "\n")
    return {"CSV": csv, "JSON Lines": jsonl}


def child(path: Path, which: str, repeat: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), which, str(repeat)],
                         check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import os

    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (shared machine)")
    print(f"{'rows':>11} {'format':<11} {'advisor s':>10} {'(CPU)':>6} {'duckdb s':>9} {'(CPU)':>6} {'ratio':>6} "
          f"{'advisor peak MB':>16} {'duckdb peak MB':>15}")
    peaks: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            t = time.perf_counter()
            files = write_files(Path(tmp), n, args.k)
            print(f"# wrote {n:,} rows in {time.perf_counter() - t:.1f} s", file=sys.stderr)
            for fmt, path in files.items():
                a = child(path, "advisor", args.repeat)
                d = child(path, "duckdb", args.repeat)
                peaks.setdefault(fmt, []).append((a["peak_bytes"], d["peak_bytes"]))
                print(f"{n:>11,} {fmt:<11} {a['seconds']:>10.3f} {a['cpu']:>6.2f} {d['seconds']:>9.3f} {d['cpu']:>6.2f} "
                      f"{a['seconds'] / d['seconds']:>6.2f} {a['peak_bytes'] / 2**20:>16.0f} {d['peak_bytes'] / 2**20:>15.0f}")
                path.unlink()
    if len(args.sizes) > 1:
        for fmt, p in peaks.items():
            print(f"{fmt}: {args.sizes[-1] // args.sizes[0]}× the rows → advisor peak memory {p[-1][0] / p[0][0]:.2f}×"
                  f" (+{(p[-1][0] - p[0][0]) / 2**20:.0f} MB); DuckDB's bare GROUP BY {p[-1][1] / p[0][1]:.2f}×"
                  f" (+{(p[-1][1] - p[0][1]) / 2**20:.0f} MB)")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
