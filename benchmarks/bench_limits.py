"""Benchmark: hostile inputs end as fast as ordinary ones (issue 15, items 3 and 4).

Each attack is timed in a fresh process (``advisor …`` as a user runs it, peak memory from
``getrusage``) beside a reference measured in the same run, and printed as a ratio:

* a YAML alias bomb bound to ``notes`` (nine levels of nine aliases) vs an ordinary answers file
  (``advisor recommend``) — goal: refused, ratio ≈ 1, memory ≈ the reference;
* a crafted ``--context`` (a 200 KB formula; a billion digits) vs re-rendering advisor's own
  context as HTML — goal: refused in a fraction of the reference;
* a PDF report whose class has a 5,000-character unbreakable label vs the same report with a
  short label — goal: ratio ≈ 1 (before: over 26 minutes against 11 s).

Run: ``python benchmarks/bench_limits.py``
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BOMB = ["task: binary", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
for _prev, _cur in zip("abcdefg", "bcdefgh"):
    BOMB.append(f"{_cur}: &{_cur} [{','.join(['*' + _prev] * 9)}]")
BOMB.append(f"notes: [{','.join(['*h'] * 9)}]")


def run(*args: str) -> tuple[float, float, int]:
    """Wall seconds, peak RSS (MB) of the child, exit status of ``advisor args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", *args],
                         capture_output=True, timeout=3600)
    wall = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024, res.returncode


def show(name: str, attack: tuple[float, float, int], ref: tuple[float, float, int]) -> None:
    print(f"{name:<34} {attack[0]:7.2f} s (exit {attack[2]})  reference {ref[0]:7.2f} s (exit {ref[2]})  "
          f"ratio {attack[0] / ref[0]:5.2f}   peak RSS so far {attack[1]:6.0f} MB")


def main() -> None:
    d = Path(tempfile.mkdtemp())
    (d / "bomb.yaml").write_text("\n".join(BOMB) + "\n")
    (d / "ok.yaml").write_text("task: binary\npositive_class: 1\nnotes: an ordinary answers file\n")
    print(f"alias bomb: {len((d / 'bomb.yaml').read_bytes())} bytes")
    ref = run("recommend", "--answers", str(d / "ok.yaml"))
    show("alias bomb (recommend)", run("recommend", "--answers", str(d / "bomb.yaml")), ref)

    labels = ["short", "other", "third"]
    matrix = [[40, 5, 3], [4, 30, 6], [2, 3, 20]]
    (d / "a.yaml").write_text("task: multiclass\nn_classes: 3\n")
    (d / "m.json").write_text(json.dumps({"labels": labels, "matrix": matrix}))
    (d / "long.json").write_text(json.dumps({"labels": ["W" * 5000, *labels[1:]], "matrix": matrix}))
    run("report", "--answers", str(d / "a.yaml"), "--matrix", str(d / "m.json"), "--bootstrap", "200",
        "-o", str(d / "ctx.json"))
    ctx = json.loads((d / "ctx.json").read_text())
    ref = run("report", "--context", str(d / "ctx.json"), "-o", str(d / "ok.html"))
    for name, change in (("200 KB formula",
                          lambda c: c["metric_definitions"][0].update(formula=r"\frac{1}{2}" * 20_000)),
                         ("a billion digits", lambda c: c.update(digits=10**9))):
        bad = json.loads(json.dumps(ctx))
        change(bad)
        (d / "bad.json").write_text(json.dumps(bad))
        show(f"--context: {name}", run("report", "--context", str(d / "bad.json"), "-o", str(d / "bad.html")), ref)

    ref = run("report", "--answers", str(d / "a.yaml"), "--matrix", str(d / "m.json"), "--bootstrap", "200",
              "-o", str(d / "short.pdf"))
    show("PDF, 5,000-character label", run("report", "--answers", str(d / "a.yaml"), "--matrix",
                                           str(d / "long.json"), "--bootstrap", "200", "-o", str(d / "long.pdf")), ref)


if __name__ == "__main__":
    main()
