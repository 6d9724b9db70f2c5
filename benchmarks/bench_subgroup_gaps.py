"""Benchmark: coverage of the intervals of the gaps across subgroups (``--by``; issue 23 item 1).

Run with ``python benchmarks/bench_subgroup_gaps.py`` (``--quick`` for fewer test sets). Each row draws test sets
from a population of subgroups whose true-positive rates (TPR) are known — a binary task, 30 % positives, a
false-positive rate of 0.10 in every subgroup, so the true equalized-odds difference is the true TPR gap — and
counts how often each 95 % interval of the TPR gap (max − min over the subgroups) covers the true gap:

* ``advisor`` — what :func:`advisor.subgroups` gives: simultaneous bootstrap intervals of every pairwise difference
  (max-t over the pairs, each subgroup resampled on its own), the gap's interval the one they imply;
* ``basic`` — the basic (reverse-percentile) bootstrap interval of the resampled gaps, clipped at 0;
* ``percentile`` — the percentile interval of the resampled gaps.

The last two resample the same way; they show what the bias of a maximum minus a minimum does to intervals taken
from the resampled gaps themselves. "eo" is the coverage of advisor's interval of the equalized-odds difference.
"""

from __future__ import annotations

import argparse
import sys
import time
import types

import numpy as np

from advisor.engine import JointCounts
from advisor.stats import subgroups
from advisor.stats._subgroup_gaps import gap_intervals

METHODS = ("advisor", "basic", "percentile")


def _test_set(rng: np.random.Generator, sizes: list[int], tprs: list[float]) -> types.SimpleNamespace:
    y, p, g = [], [], []
    for j, (n, t) in enumerate(zip(sizes, tprs)):
        yj = rng.random(n) < 0.3
        pj = np.where(yj, rng.random(n) < t, rng.random(n) < 0.10)
        y.append(yj), p.append(pj), g.append(np.full(n, j))
    y, p, g = np.concatenate(y).astype(int), np.concatenate(p).astype(int), np.concatenate(g)
    key = (g * 2 + y) * 2 + p
    uniq, counts = np.unique(key, return_counts=True)
    codes = np.column_stack([(uniq // 2) % 2, uniq % 2])
    joint = JointCounts((0, 1), ("m",), codes, counts.astype(float))
    return types.SimpleNamespace(joint=joint, by={"g": (uniq // 4, tuple(range(len(sizes))))}, groups=None)


def scenario(name: str, sizes: list[int], tprs: list[float], reps: int, resamples: int) -> None:
    truth = max(tprs) - min(tprs)
    rng = np.random.default_rng(23)
    cov = {m: [] for m in (*METHODS, "eo")}
    width = {m: [] for m in METHODS}
    for r in range(reps):
        ps = _test_set(rng, sizes, tprs)
        res = subgroups(ps, "g", metrics=["accuracy"], positive_label=1, n_resamples=resamples, seed=r)
        gaps = res["gaps"]["g"]
        ivs = {"advisor": gaps["tpr"]["m"]}
        for meth in ("basic", "percentile"):
            ivs[meth] = gap_intervals(ps.joint, ps.by["g"][0], len(sizes), {"tpr": gaps["tpr"]}, [], 1, 1.0, "zero",
                                      resamples, 0.95, r, method=meth)["tpr"]["m"]
        for meth, iv in ivs.items():
            ok = iv.get("low") is not None
            cov[meth].append(ok and iv["low"] - 1e-12 <= truth <= iv["high"] + 1e-12)
            if ok:
                width[meth].append(iv["high"] - iv["low"])
        eo = gaps["equalized_odds"]["m"]
        cov["eo"].append(eo.get("low") is not None and eo["low"] - 1e-12 <= truth <= eo["high"] + 1e-12)
    cells = [f"{np.mean(cov[m]):.3f} ({np.mean(width[m]):.3f})" for m in METHODS]
    print(f"| {name} | {', '.join(map(str, sizes))} | {', '.join(f'{t:g}' for t in tprs)} | {truth:.2f} | {reps} | "
          + " | ".join(cells) + f" | {np.mean(cov['eo']):.3f} |")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps, resamples = (60, 400) if args.quick else (200, 1000)
    print("| scenario | subgroup sizes | TPRs | true TPR gap | test sets | advisor (width) | basic (width) | "
          "percentile (width) | eo, advisor |")
    print("|---|---|---|---:|---:|---|---|---|---:|")
    t0 = time.perf_counter()
    for n in (50, 200, 1000):
        for tprs in ([0.7, 0.7], [0.7, 0.75], [0.65, 0.8]):
            scenario("two subgroups", [n, n], tprs, reps, resamples)
    scenario("four subgroups, unequal", [40, 80, 160, 320], [0.7, 0.7, 0.7, 0.7], reps, resamples)
    scenario("four subgroups, unequal", [40, 80, 160, 320], [0.6, 0.7, 0.7, 0.8], reps, resamples)
    scenario("four subgroups, unequal", [40, 80, 160, 320], [0.8, 0.7, 0.7, 0.6], reps, resamples)
    scenario("four subgroups, larger", [160, 320, 640, 1280], [0.7, 0.7, 0.7, 0.7], reps, resamples)
    scenario("four subgroups, larger", [160, 320, 640, 1280], [0.6, 0.7, 0.7, 0.8], reps, resamples)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
