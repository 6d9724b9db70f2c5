"""Benchmark: coverage of cluster-bootstrap intervals whose resamples of whole groups keep every class.

Run with ``python benchmarks/bench_group_classes.py`` (``--quick``: fewer test sets, a few minutes on one core).
The "kept" design of groups was measured on commit 5e02bfb of branch ``kset`` and then withdrawn (benchmarks/README.md):
on later code ``classes="kept"`` with groups draws them free, and the first two columns agree; to measure it again,
run the script on that commit's ``advisor/stats``.
A population of groups (patients, matters): each group holds 5–25 items; classes 0–2 are common in every group,
class 3 is rare and held by a share ``held`` of the groups only (1–3 items there). The classifier gets class ``c``
right with probability ``recall[c]``, shifted per group on the logit scale (a group effect, sd 0.5); its errors
go evenly to the other classes. The population's balanced accuracy and macro F1 are those of its expected cell
masses, computed from 200,000 groups. Each test set draws ``G`` groups at random (test sets without class 3 are
drawn again: the estimand is the mean over the four classes); :func:`advisor.stats.compare_systems` with those groups
gives the 95 % BCa interval (``method="bca"``) twice with the same seed: ``classes="kept"`` (a resample of groups
that lacks a class of the test set drawn again, advisor's default where at least half the plain resamples hold every
class) and ``classes="free"`` (groups drawn whole, nothing redrawn; under ``omit`` a resample without class 3 gives a
mean over three classes). Coverage of the population value, mean width, and "missing": the mean share of plain
resamples that lacked a class of their test set. The convention is ``omit``, advisor's default.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor.stats import compare_systems

K = 4
RECALL = np.array([0.85, 0.75, 0.7, 0.5])
METRICS = ("balanced_accuracy", "macro_f1")
DESIGNS = ("kept", "free", "jackknife")


def groups_of(rng: np.random.Generator, count: int, held: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` groups: (true classes, predictions) of each."""
    out = []
    for _ in range(count):
        size = int(rng.integers(5, 26))
        y = rng.integers(0, 3, size)
        if rng.random() < held:
            y = np.concatenate([y, np.full(int(rng.integers(1, 4)), 3)])
        shift = rng.normal(0.0, 0.5)
        p = 1.0 / (1.0 + np.exp(-(np.log(RECALL[y] / (1 - RECALL[y])) + shift)))
        right = rng.random(y.size) < p
        wrong = (y + rng.integers(1, K, y.size)) % K
        out.append((y, np.where(right, y, wrong)))
    return out


def truth(held: float) -> dict[str, float]:
    """Balanced accuracy and macro F1 of the population's expected cell masses (200,000 groups)."""
    rng = np.random.default_rng(99)
    c = np.zeros((K, K))
    for y, p in groups_of(rng, 200_000, held):
        np.add.at(c, (y, p), 1.0)
    a, b, d = c.sum(1), c.sum(0), np.diag(c)
    return {"balanced_accuracy": float(np.mean(d / a)), "macro_f1": float(np.mean(2 * d / (a + b)))}


def missing_share(y_groups: list[np.ndarray], rng: np.random.Generator, draws: int = 400) -> float:
    """Share of plain resamples of whole groups that lack a class of the test set."""
    G = len(y_groups)
    has = np.array([[np.any(y == c) for c in range(K)] for y in y_groups])
    present = has.any(axis=0)
    m = rng.multinomial(G, np.full(G, 1.0 / G), size=draws) > 0
    return float(np.mean([(~(has[row].any(axis=0)))[present].any() for row in m]))


def run(G: int, held: float, tests: int, resamples: int) -> dict[str, object]:
    theta = truth(held)
    rng = np.random.default_rng(2026)
    cover = {(d, m): 0 for d in DESIGNS for m in METRICS}
    width = {(d, m): 0.0 for d in DESIGNS for m in METRICS}
    none = {(d, m): 0 for d in DESIGNS for m in METRICS}
    miss = 0.0
    for t in range(tests):
        while True:
            gs = groups_of(rng, G, held)
            if any(np.any(y == 3) for y, _ in gs):
                break
        y = np.concatenate([g[0] for g in gs])
        p = np.concatenate([g[1] for g in gs])
        gid = np.repeat(np.arange(G), [g[0].size for g in gs])
        miss += missing_share([g[0] for g in gs], rng)
        for design in DESIGNS:
            c = compare_systems(y, {"a": p}, n_resamples=resamples, seed=t, metrics=list(METRICS),
                                method="auto" if design == "jackknife" else "bca", groups=gid,
                                classes="free" if design == "jackknife" else design)
            for m in METRICS:
                s = c.metrics[m].systems["a"]
                if not (np.isfinite(s.low) and np.isfinite(s.high)):
                    none[(design, m)] += 1
                    continue
                cover[(design, m)] += int(s.low <= theta[m] <= s.high)
                width[(design, m)] += s.high - s.low
    return {"theta": theta, "cover": cover, "width": width, "none": none, "missing": miss / tests, "tests": tests}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    tests, resamples = (200, 500) if args.quick else (600, 1000)
    print("| groups | class 3 in | metric | θ | BCa, kept: coverage (width) | BCa, free | jackknife t | missing |")
    print("|---:|---:|---|---:|---|---|---|---:|")
    for G, held in ((30, 0.06), (60, 0.04), (30, 0.15)):
        t0 = time.time()
        r = run(G, held, tests, resamples)
        for m in METRICS:
            cells = []
            for d in DESIGNS:
                n_ok = r["tests"] - r["none"][(d, m)]  # type: ignore[index]
                cells.append(f"{r['cover'][(d, m)] / r['tests']:.3f} ({r['width'][(d, m)] / max(n_ok, 1):.3f})")  # type: ignore[index]
            print(f"| {G} | {held:.0%} of groups | {m} | {r['theta'][m]:.3f} | {cells[0]} | {cells[1]} | {cells[2]} | "  # type: ignore[index]
                  f"{r['missing']:.3f} |")
        print(f"<!-- {G} groups, {held}: {time.time() - t0:.0f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
