"""Benchmark: a two-system, ten-class report with 2,000 bootstrap resamples and every figure.

Goals (issue 6): PDF end to end under 10 s, HTML under 2 s. "End to end" is the command a user
runs — ``advisor report --answers A PRED PRED -o report.pdf`` in a fresh process: start-up, reading
the predictions, the recommendation, metrics, paired bootstrap, figures, formulas, templates and
WeasyPrint. Each is timed in a fresh process (cold: no formula or figure cache), then the stages
are timed in-process to show where the time goes.

Run: ``python benchmarks/bench_report.py [--items N] [--repeat R]``
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

GOALS = {"html": 2.0, "pdf": 10.0}

ANSWERS = """\
task: multiclass
n_classes: 10
deployment_prevalence: unknown
class_weighting: equal
chance_correction: preferred
ranking: true
planned_metrics: [macro F1, accuracy]
"""


def make_data(folder: Path, n: int, seed: int = 0) -> list[Path]:
    rng = np.random.default_rng(seed)
    k = 10
    prior = rng.dirichlet(np.full(k, 4.0))
    y = rng.choice(k, size=n, p=prior)
    paths = []
    for name, noise in (("baseline", 0.35), ("improved", 0.25)):
        pred = y.copy()
        flip = rng.random(n) < noise
        pred[flip] = rng.integers(0, k, int(flip.sum()))
        path = folder / f"{name}.csv"
        with path.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["y_true", "y_pred"])
            w.writerows(zip((f"class_{i}" for i in y), (f"class_{i}" for i in pred)))
        paths.append(path)
    (folder / "answers.yaml").write_text(ANSWERS)
    return paths


def end_to_end(folder: Path, files: list[Path], fmt: str) -> float:
    out = folder / f"report.{fmt}"
    cmd = [sys.executable, "-c", "from advisor.cli import main; main()", "report",
           "--answers", str(folder / "answers.yaml"), *map(str, files), "-o", str(out),
           "--bootstrap", "2000", "--seed", "1", "--force"]  # repeated runs write the same file
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t


def stages(folder: Path, files: list[Path]) -> None:
    from advisor import read_predictions
    from advisor.report import build_report
    from advisor.report import _figures, _math, _render

    t0 = time.perf_counter()
    ps = read_predictions(files)
    t1 = time.perf_counter()
    ctx = build_report(folder / "answers.yaml", ps, bootstrap=2000, seed=1)
    t2 = time.perf_counter()
    figs = _figures.render_figures(ctx, ("svg",))
    t3 = time.perf_counter()
    for m in ctx.metrics:
        _math.formula_svg(m.formula, display=True, size=15.0)
    t4 = time.perf_counter()
    view = _render._view(ctx, ("svg",))
    html = _render._html(ctx, view)
    t5 = time.perf_counter()
    _render._pdf(html, view)
    t6 = time.perf_counter()
    print(f"  read predictions          {t1 - t0:6.2f} s")
    print(f"  build (metrics, bootstrap, recommendation, prevalence)  {t2 - t1:6.2f} s")
    print(f"  figures ({len(figs)}, first draw)     {t3 - t2:6.2f} s")
    print(f"  formulas ({len(ctx.metrics)}, first typeset) {t4 - t3:6.2f} s")
    print(f"  figures + templates (HTML)  {t5 - t4:6.2f} s")
    print(f"  WeasyPrint (PDF)          {t6 - t5:6.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = make_data(folder, args.items)
        print(f"two systems, ten classes, {args.items} items, 2,000 paired bootstrap resamples, all figures")
        for fmt in ("html", "pdf"):
            times = [end_to_end(folder, files, fmt) for _ in range(args.repeat)]
            best = min(times)
            goal = GOALS[fmt]
            verdict = "OK" if best < goal else "MISSED"
            print(f"{fmt.upper():4s} end to end: best {best:5.2f} s of {args.repeat} "
                  f"(goal < {goal:.0f} s, {best / goal:.2f}× the goal) {verdict}")
        print("stages, in one process:")
        stages(folder, files)


if __name__ == "__main__":
    main()
