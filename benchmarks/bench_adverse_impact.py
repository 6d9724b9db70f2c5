"""Benchmark: coverage of the 95 % intervals of the adverse impact ratio (the credit reader: "pick one and justify it").

Run with ``python benchmarks/bench_adverse_impact.py`` (``--quick`` for fewer test sets and resamples). Each row draws
test sets of applicants from a population with known approval rates per value of one subgroup column (shares and
rates given), so each value's true ratio ``r_g / max_h r_h`` and the column's true smallest ratio are exact. An
applicant's true class (repaid or default) is drawn independently; it does not enter the ratio. In the grouped rows
the applicants come in branches of ten that share the value and an approval rate drawn from a beta distribution with
the value's rate as mean (intra-branch correlation 0.1), and the branches are resampled whole (``groups=``); the
population's rate of a value is still its mean rate. Each test set's table gets two sets of intervals from the same
resamples, through the function the report uses (:func:`advisor.stats._fairness.adverse_impact_table`,
``method=``):

* ``percentile`` — the percentile interval of the resampled values, what advisor gives;
* ``BCa`` — with the acceleration of a jackknife over the applicants (over the branches when grouped).

Columns: the true ratios; coverage of each value's ratio (pooled over the test sets and the values other than the
population's highest, listed first, whose ratio is 1 unless another value overtakes it) and of the smallest ratio, a
test set without an interval counting as a miss; the mean width of the smallest ratio's interval; and the share of
wrong readings against 0.8 (the interval wholly at or above 0.8 although the true ratio is below it, or wholly below
although the true ratio is at or above it), of those values' ratios / of the smallest ratio.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor.engine import JointCounts
from advisor.stats._fairness import adverse_impact_table

_LINE = 0.8
_BRANCH, _ICC = 10, 0.1


def draw(rng: np.random.Generator, n: int, shares: list[float], rates: list[float],
         grouped: bool) -> tuple[JointCounts, np.ndarray, np.ndarray | None]:
    """One test set as the report's joint table (true class, decision; favourable class 0), the value of each row
    and, grouped, the branch of each row."""
    k = len(shares)
    if not grouped:
        v = rng.choice(k, n, p=shares)
        fav = rng.random(n) < np.asarray(rates)[v]
        groups = None
    else:
        b = n // _BRANCH
        vb = rng.choice(k, b, p=shares)
        mean = np.asarray(rates)[vb]
        conc = (1.0 - _ICC) / _ICC  # beta(a, b) with a + b = conc gives intra-branch correlation 1 / (1 + conc)
        pb = rng.beta(mean * conc, (1.0 - mean) * conc)
        v = np.repeat(vb, _BRANCH)
        fav = rng.random(b * _BRANCH) < np.repeat(pb, _BRANCH)
        groups = np.repeat(np.arange(b), _BRANCH)
    y = (rng.random(v.shape[0]) < 0.2).astype(int)  # 1: default
    dec = np.where(fav, 0, 1)
    if groups is None:
        key = np.stack([y, dec, v], axis=1)
        rows, counts = np.unique(key, axis=0, return_counts=True)
        return JointCounts(("repaid", "default"), ("m",), rows[:, :2], counts.astype(float)), rows[:, 2], None
    key = np.stack([y, dec, v, groups], axis=1)
    rows, counts = np.unique(key, axis=0, return_counts=True)
    return JointCounts(("repaid", "default"), ("m",), rows[:, :2], counts.astype(float)), rows[:, 2], rows[:, 3]


def wrong(verdict: str | None, truth: float) -> bool:
    return (verdict == "meets" and truth < _LINE) or (verdict == "below" and truth >= _LINE)


def scenario(name: str, n: int, shares: list[float], rates: list[float], reps: int, resamples: int,
             grouped: bool = False) -> None:
    k = len(shares)
    names = [chr(ord("A") + j) for j in range(k)]
    true = np.asarray(rates) / max(rates)
    tmin = float(true.min())
    top = int(np.argmax(rates))
    rng = np.random.default_rng(2026 + n + int(100 * tmin) + 7 * k + grouped)
    keys = ("percentile", "bca")
    cov_v: dict[str, list[bool]] = {m: [] for m in keys}
    cov_m: dict[str, list[bool]] = {m: [] for m in keys}
    wid: dict[str, list[float]] = {m: [] for m in keys}
    wr_v: dict[str, list[bool]] = {m: [] for m in keys}
    wr_m: dict[str, list[bool]] = {m: [] for m in keys}
    done = 0
    while done < reps:
        joint, vals, groups = draw(rng, n, shares, rates, grouped)
        if len(set(vals.tolist())) < k:  # a value without applicants: drawn again
            continue
        for m in keys:
            r = adverse_impact_table(joint, vals, names, 0, n_resamples=resamples, seed=done, groups=groups,
                                     method=m)["m"]
            for j, v in enumerate(names):
                if j == top:  # the population's highest value: its ratio is 1 unless another value overtakes it
                    continue
                iv = r["values"][v]["ratio_interval"]
                cov_v[m].append(iv["low"] is not None and iv["low"] - 1e-12 <= true[j] <= iv["high"] + 1e-12)
                wr_v[m].append(wrong(r["values"][v]["verdict"], float(true[j])))
            mr = r["min_ratio"]
            ok = mr.get("low") is not None
            cov_m[m].append(ok and mr["low"] - 1e-12 <= tmin <= mr["high"] + 1e-12)
            wr_m[m].append(wrong(mr.get("verdict"), tmin))
            if ok:
                wid[m].append(mr["high"] - mr["low"])
        done += 1
    cells = [f"{np.mean(cov_v[m]):.3f} / {np.mean(cov_m[m]):.3f} ({np.mean(wid[m]):.3f}) | "
             f"{np.mean(wr_v[m]):.3f} / {np.mean(wr_m[m]):.3f}" for m in keys]
    ratios = ", ".join(f"{x:.2f}" for x in true)
    print(f"| {name} | {n} | {ratios} | " + " | ".join(cells) + " |")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps, resamples = (100, 400) if args.quick else (1000, 1000)
    print(f"{reps} test sets per row, {resamples} resamples each\n")
    print("| population | applicants | true ratios | percentile: coverage values / min (width of min) | "
          "wrong vs 0.8 values / min | BCa: coverage values / min (width of min) | wrong vs 0.8 values / min |")
    print("|---|---:|---|---|---|---|---|")
    t0 = time.perf_counter()
    two = [0.45, 0.55]
    three = [0.5, 0.3, 0.2]
    for n in (200, 500, 2000):
        for low in (0.42, 0.56, 0.665, 0.70):
            scenario("two values (45 / 55 %)", n, two, [0.70, low], reps, resamples)
        for rates in ([0.70, 0.56, 0.665], [0.70, 0.42, 0.56], [0.70, 0.70, 0.70]):
            scenario("three values (50 / 30 / 20 %)", n, three, rates, reps, resamples)
    for n in (500, 2000):
        for low in (0.56, 0.70):
            scenario(f"two values, branches of {_BRANCH}", n, two, [0.70, low], reps, resamples, grouped=True)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
