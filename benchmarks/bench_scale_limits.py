"""Benchmark: issue 25 items 8-12 — wide score files, id columns, many annotators, 100,000 classes, long runs.

Every case runs ``advisor …`` as a user runs it, in a fresh process; wall time and that process's peak RSS
(its ``VmHWM``) are printed with the exit status and the first line of standard error. Files are written
to a temporary folder (``--dir``, default a new one under /tmp) and deleted afterwards unless ``--keep``.

* item 8: a CSV, a Parquet file and a DataFrame with 1,000 and 20,000 ``p_`` columns (``compute``, ``compute
  --top-k 5``);
* item 9: an id column of 10^7 rows as the labels (CSV, Parquet, ``--sql``) — refused; a real task of
  100,000 classes over 10^6 items beside it;
* item 10: 1,000 annotators x 200 items and 200 x 10,000 (``compute``, ``report`` as Markdown and PDF);
* item 11: two systems on 100,000 classes and 10^6 items (``report`` as Markdown and PDF with 200 resamples;
  with the default 2,000 the time until the run says its estimate, and the estimate);
* item 12: ``compare --bootstrap 1000000``: the time until its estimate is said, then the whole run (is the
  estimate right?), and ``--bootstrap 2000``.

Run: ``python benchmarks/bench_scale_limits.py`` (everything, ~10 min on a quiet machine; a case still running
after 300 s is stopped and said so) or ``--only 8 9`` for some items. Figures: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Each measured process writes its own peak resident memory (VmHWM of /proc/self/status) at exit to the file
# named by $BENCH_HWM. The kernel's ru_maxrss of a child would also hold the memory of this process at the fork
# (exec keeps the larger of the two), and this process holds the generated data.
_HWM = ("import atexit, os\n"
        "def _hwm():\n"
        "    line = next(ln for ln in open('/proc/self/status') if ln.startswith('VmHWM:'))\n"
        "    open(os.environ['BENCH_HWM'], 'w').write(line.split()[1])\n"
        "atexit.register(_hwm)\n")
ADVISOR = [sys.executable, "-c", _HWM + "from advisor.cli import main; main()"]


def _vmhwm(pid: int) -> float:
    """The peak resident memory (MB) of a running process."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            return next(int(ln.split()[1]) for ln in fh if ln.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        return float("nan")


def _measure(cmd: list[str], *, timeout: float, stop_on: str | None = None) -> tuple[float, float, int, str, str]:
    """Wall seconds, peak RSS (MB) of this one process (its VmHWM), exit status, stdout and stderr.

    ``stop_on``: end the process as soon as its stderr holds this text (the time until then is returned).
    A process still running after ``timeout`` seconds is killed (exit -9) and its stderr starts "(stopped …)"."""
    t = time.perf_counter()
    if stop_on is not None:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert proc.stderr is not None
        err = ""
        for line in proc.stderr:
            err += line
            if stop_on in line:
                break
        wall, peak = time.perf_counter() - t, _vmhwm(proc.pid)
        proc.terminate()
        proc.stderr.close()
        proc.wait()
        return wall, peak, proc.returncode, "", err
    with tempfile.TemporaryFile("w+") as fout, tempfile.TemporaryFile("w+") as ferr, \
            tempfile.NamedTemporaryFile("r") as hwm:
        proc = subprocess.Popen(cmd, stdout=fout, stderr=ferr, text=True, env={**os.environ, "BENCH_HWM": hwm.name})
        note, peak = "", float("nan")
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            peak = _vmhwm(proc.pid)
            proc.kill()
            proc.wait()
            note = f"(stopped after {timeout:.0f} s)\n"
        wall = time.perf_counter() - t
        text = hwm.read().strip()
        if text:
            peak = int(text) / 1024
        fout.seek(0)
        ferr.seek(0)
        return wall, peak, proc.returncode, fout.read(), note + ferr.read()


def run(args: list[str], *, timeout: float = 300, stop_on: str | None = None) -> tuple[float, float, int, str]:
    """``advisor args`` in a fresh process, measured by ``_measure``; the first line of stderr that is not
    a ``wrote …`` line (with ``stop_on``: the line holding it)."""
    wall, peak, code, _, err = _measure([*ADVISOR, *args], timeout=timeout, stop_on=stop_on)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("wrote ")]
    first = next((ln for ln in lines if stop_on in ln), "") if stop_on else (lines or [""])[0]
    return wall, peak, code, first


def show(name: str, result: tuple[float, float, int, str]) -> None:
    wall, peak, code, first = result
    print(f"{name:<72} {wall:8.1f} s  peak {peak:7.0f} MB  exit {code}  {first[:160]}", flush=True)


def _python(code: str, *args: str) -> tuple[float, float, int, str]:
    """A Python snippet in a fresh process (the DataFrame cases), measured like ``run``; its last output line."""
    wall, peak, rc, out, err = _measure([sys.executable, "-c", _HWM + code, *args], timeout=1800)
    return wall, peak, rc, ((out if rc == 0 else err).strip().splitlines() or [""])[-1]


def wide(d: Path) -> None:
    import numpy as np
    import pandas as pd

    for k, n in ((1_000, 2_000), (20_000, 100)):
        rng = np.random.default_rng(0)
        p = rng.dirichlet(np.full(k, 0.05), size=n)
        y = rng.integers(0, k, n)
        labels = [f"c{j}" for j in range(k)]
        df = pd.concat([pd.DataFrame({"y_true": [labels[i] for i in y], "y_pred": [labels[i] for i in p.argmax(1)]}),
                        pd.DataFrame(p, columns=[f"p_{lab}" for lab in labels])], axis=1)
        csv, pq, pkl = d / f"wide{k}.csv", d / f"wide{k}.parquet", d / f"wide{k}.pkl"
        df.to_csv(csv, index=False, float_format="%.17g")
        df.to_parquet(pq)
        df.to_pickle(pkl)
        for path in (csv, pq):
            show(f"8: compute {path.suffix[1:]}, {k:,} p_ columns x {n:,} rows", run(["compute", str(path)]))
            show(f"8: compute --top-k 5 {path.suffix[1:]}, {k:,} columns", run(["compute", str(path), "--top-k", "5"]))
        show(f"8: advisor.evaluate(DataFrame), {k:,} columns x {n:,} rows",
             _python("import sys, pandas as pd, advisor; ev = advisor.evaluate(pd.read_pickle(sys.argv[1])); "
                     "print(ev.metrics['y_pred']['log_loss'])", str(pkl)))


def ids(d: Path) -> None:
    import duckdb

    con = duckdb.connect()
    for fmt in ("csv", "parquet"):
        opts = "(HEADER)" if fmt == "csv" else "(FORMAT parquet)"
        con.execute(f"COPY (SELECT 'item' || i AS y_true, 'c' || (i % 10) AS y_pred FROM range(10000000) t(i)) "
                    f"TO '{d / ('ids.' + fmt)}' {opts}")
    con.execute(f"COPY (SELECT 'c' || (i % 100000) AS y_true, CASE WHEN i % 3 = 0 THEN 'c' || ((i * 7 + 3) % 100000) "
                f"ELSE 'c' || (i % 100000) END AS y_pred FROM range(1000000) t(i)) TO '{d / 'k1e5.csv'}' (HEADER)")
    show("9: compute, id column, 10^7 rows (CSV)", run(["compute", str(d / "ids.csv")]))
    show("9: compute, id column, 10^7 rows (Parquet)", run(["compute", str(d / "ids.parquet")]))
    show("9: compute --sql, id column, 10^7 rows", run(["compute", "--sql", f"SELECT * FROM '{d / 'ids.parquet'}'"]))
    show("9: reference: compute 100,000 classes x 10^6 items (CSV)", run(["compute", str(d / "k1e5.csv")]))


def annotators(d: Path) -> None:
    import numpy as np

    for raters, items in ((1_000, 200), (200, 10_000)):
        rng = np.random.default_rng(0)
        truth = rng.integers(0, 4, items)
        codes = np.where(rng.random((items, raters)) < 0.7, truth[:, None], rng.integers(0, 4, (items, raters)))
        path = d / f"raters{raters}.csv"
        np.savetxt(path, codes, fmt="%d", delimiter=",", header=",".join(f"rater_r{j}" for j in range(raters)),
                   comments="")
        answers = d / f"raters{raters}.yaml"
        answers.write_text(f"task: multiclass\nannotators: {raters}\nsymmetric: true\nchance_correction: required\n")
        show(f"10: compute, {raters:,} annotators x {items:,} items", run(["compute", str(path)]))
        for fmt in ("md", "pdf"):
            out = d / f"r{raters}" / f"report.{fmt}"
            show(f"10: report .{fmt}, {raters:,} x {items:,} (default settings)",
                 run(["report", "--answers", str(answers), str(path), "-o", str(out), "--force"]))


def many_classes(d: Path) -> None:
    import duckdb

    con = duckdb.connect()
    for name, m in (("a", 3), ("b", 5)):
        con.execute(f"COPY (SELECT 'c' || (i % 100000) AS y_true, CASE WHEN i % {m} = 0 THEN 'c' || ((i * 7 + 3) % "
                    f"100000) ELSE 'c' || (i % 100000) END AS y_pred FROM range(1000000) t(i)) TO '{d / (name + '.csv')}' "
                    "(HEADER)")
    answers = d / "mc.yaml"
    answers.write_text("task: multiclass\n")
    files = [str(d / "a.csv"), str(d / "b.csv")]
    for fmt in ("md", "pdf"):
        out = d / "k200" / f"report.{fmt}"
        show(f"11: report .{fmt}, 2 x 100,000 classes x 10^6 items, 200 resamples",
             run(["report", "--answers", str(answers), *files, "-o", str(out), "--bootstrap", "200", "--force"]))
    # the default 2,000 paired resamples take several minutes here: the time until the estimate is said, and it
    out = d / "k2000" / "report.md"
    show("11: report .md, same, 2,000 resamples: time until the estimate is said",
         run(["report", "--answers", str(answers), *files, "-o", str(out), "--force"], stop_on="this will take"))


def long_runs(d: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, 2_000)
    for name, right in (("a", 0.7), ("b", 0.6)):
        pred = np.where(rng.random(2_000) < right, y, rng.integers(0, 5, 2_000))
        (d / f"{name}.csv").write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, pred)))
    show("12: compare --bootstrap 1000000: time until the estimate is said",
         run(["compare", str(d / "a.csv"), str(d / "b.csv"), "--bootstrap", "1000000"], stop_on="this will take"))
    show("12: compare --bootstrap 1000000 run to the end (is the estimate right?)",
         run(["compare", str(d / "a.csv"), str(d / "b.csv"), "--bootstrap", "1000000"]))
    show("12: compare --bootstrap 2000 (as the sentence suggests)",
         run(["compare", str(d / "a.csv"), str(d / "b.csv"), "--bootstrap", "2000"]))


ITEMS = {"8": wide, "9": ids, "10": annotators, "11": many_classes, "12": long_runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(ITEMS), help="items to run (default: all)")
    ap.add_argument("--dir", type=Path, default=None, help="where the files are written (default: a new /tmp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the files")
    args = ap.parse_args()
    d = args.dir or Path(tempfile.mkdtemp(prefix="advisor-bench-"))
    d.mkdir(parents=True, exist_ok=True)
    print(f"files in {d}; load average {os.getloadavg()[0]:.1f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    try:
        for key in args.only or list(ITEMS):
            sub = d / f"item{key}"
            sub.mkdir(exist_ok=True)
            ITEMS[key](sub)
            print(f"  (load average {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
