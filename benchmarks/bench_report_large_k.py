"""Time the PDF report of two systems with many classes (issue 13: k = 100 under 15 s, k = 1000 under 60 s).

Makes the data (two classifiers of k classes, labels c0 … c{k-1} with skewed class sizes, the second
system noisier), writes the CSVs and an answers file, runs ``advisor report`` to PDF and prints the
wall time beside the time of the same report at k = 10 measured in the same run (the reference).

    python benchmarks/bench_report_large_k.py [k ...] [--n N] [--bootstrap B] [--keep DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make_data(folder: Path, k: int, n: int, seed: int = 0) -> list[Path]:
    import numpy as np

    rng = np.random.default_rng(seed)
    sizes = rng.zipf(1.3, size=k).astype(float)
    sizes = np.minimum(sizes, 50) + 1
    y = rng.choice(k, size=n, p=sizes / sizes.sum())
    files = []
    for name, err in (("sys_a", 0.15), ("sys_b", 0.3)):
        wrong = rng.random(n) < err * (1 + (y % 7) / 7)
        # confusions go mostly to a "neighbour" class, so some pairs stand out
        neighbour = (y + 1 + (rng.random(n) < 0.3) * rng.integers(1, k, size=n)) % k
        pred = np.where(wrong, neighbour, y)
        path = folder / f"{name}.csv"
        with path.open("w", encoding="utf-8") as fh:
            fh.write("y_true,y_pred\n")
            fh.writelines(f"c{t},c{p}\n" for t, p in zip(y, pred))
        files.append(path)
    return files


def run(folder: Path, k: int, n: int, bootstrap: int) -> float:
    sub = folder / f"k{k}"
    sub.mkdir(exist_ok=True)
    files = make_data(sub, k, n)
    answers = sub / "answers.yaml"
    answers.write_text(f"task: multiclass\nn_classes: {k}\nclass_weighting: equal\nranking: true\n"
                       "deployment_prevalence: unknown\n", encoding="utf-8")
    out = sub / "report.pdf"
    exe = Path(sys.executable).with_name("advisor")
    cmd = [str(exe), "report", "--answers", str(answers), *map(str, files),
           "--seed", "1", "--bootstrap", str(bootstrap), "-o", str(out), "--force"]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if res.returncode != 0:
        raise SystemExit(res.stdout + res.stderr)
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("k", nargs="*", type=int, default=[100, 1000])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--bootstrap", type=int, default=2000)
    ap.add_argument("--keep", type=Path, default=None, help="keep the data and reports in this folder")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        ref = run(folder, 10, args.n, args.bootstrap)
        print(f"k = 10 (reference): {ref:.1f} s")
        for k in args.k:
            dt = run(folder, k, args.n, args.bootstrap)
            print(f"k = {k}: {dt:.1f} s ({dt / ref:.1f}× the k = 10 report), n = {args.n}, "
                  f"{args.bootstrap} resamples; goal {'15' if k <= 100 else '60'} s")


if __name__ == "__main__":
    main()
