"""Benchmark: coverage of the intervals of the partition indices (issue 23, item 3).

Run with ``python benchmarks/bench_partition_intervals.py`` (``--quick`` for a quarter of the test sets;
``--purity`` for purity and inverse purity alone, on the same populations).

Each scenario is a population of items whose (reference cluster, predicted cluster) pair has known probabilities
``π_ij``; a test set is ``n`` items drawn from it, so the population value of each index is known: the pair
counts of two items drawn at random (``Σ π_ij²``, ``Σ a_i²``, ``Σ b_j²``) give the adjusted Rand index and the pair
correlation, and the population's normalised mutual information ``I / ½(H_a + H_b)`` is the value AMI tends to (its
chance correction vanishes as n grows). With groups, each group of items shares its reference cluster and, mostly,
its predicted cluster; the population value is that of two items from different groups.

Methods, each on the same test sets (the first four on the same 1,000 resamples):

* **advisor** (:mod:`advisor.stats._partitions`): for CC, CD and ARI, BCa on resamples whose pair counts leave out
  the pairs an item forms with its own copies (pair-distinct BCa); for AMI, BCa on the bootstrap of the error,
  ``θ̂ + θ̂* − θ(F̂)``; the jackknife acceleration over the resampled unit;
* **recentred**: advisor's earlier method for every index, BCa on ``θ̂ + θ̂* − θ(F̂)`` with ``θ̂*`` counting an
  item's pairs with its copies and ``θ(F̂)`` the index of the test set's shares (pairs drawn with replacement); for
  AMI the same as advisor;
* **naive percentile** and **naive BCa**: the resamples ``θ̂*`` with self-pairs read as usual (an item drawn twice
  pairs with its copy);
* **jackknife normal**: ``θ̂ ± 1.96·se`` with the jackknife standard error over the resampled unit;
* **advisor, items resampled** (groups only): advisor's method resampling single items, as if the items of a
  group were independent;
* **half-sampling**: 1,000 halves of the items drawn without replacement (the delete-n/2 jackknife); a half's
  index minus the test set's has the variance of the estimate's error; basic interval on it.
* **subsampling** (:mod:`advisor.stats._partition_subsamples`, ``--ami``): m of the n units drawn without
  replacement (Politis & Romano 1994), basic interval on ``s·(θ̂_m − θ̂_n)`` with ``s = √(m/n)`` (the rate alone)
  or ``√(m/(n − m))`` (the rate with the finite-population factor), m = n/2 and n/4; groups are the units with
  groups.

``--purity``: purity and inverse purity, means of per-cluster maxima rather than pair counts, so nothing is left
out of a resample: BCa on the item bootstrap as drawn (what :func:`advisor.stats.partition_intervals` gives every
index outside ``NO_INTERVAL``), beside the percentile interval of the same resamples and the jackknife normal
interval. The population value is ``Σ_j max_i π_ij`` (purity) and ``Σ_i max_j π_ij`` (inverse purity).

"none" is the share of test sets without an interval (advisor gives none that would exclude its estimate);
coverage counts those as misses.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from statistics import NormalDist

import numpy as np

from advisor.engine import PartitionRows, partition_cells_batch
from advisor.stats._intervals import resampled_intervals
from advisor.stats._jackknife import acceleration
from advisor.stats._partition_subsamples import subsampling_intervals
from advisor.stats._partitions import _RECENTRED, _errors, _resample_values, _System

IDS = ["pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info"]
SHORT = {"pair_correlation": "CC", "pair_correlation_distance": "CD", "adjusted_rand_index": "ARI",
         "adjusted_mutual_info": "AMI", "normalized_mutual_info": "NMI", "purity": "purity",
         "inverse_purity": "inverse purity"}
METHODS = ("advisor", "recentred", "naive percentile", "naive BCa", "jackknife normal", "half-sampling",
           "advisor, items resampled")
Z = NormalDist().inv_cdf(0.975)
#: ``--ami``: AMI and NMI alone, advisor's bootstrap beside the subsampling intervals (name, fraction, scaling).
SUBSAMPLING = (("subsampling n/2, rate", 0.5, "rate"), ("subsampling n/2, finite", 0.5, "finite"),
               ("subsampling n/4, rate", 0.25, "rate"), ("subsampling n/4, finite", 0.25, "finite"))


#: ``--purity``: the two shares of per-cluster maxima, and the methods compared on them.
PURITY = ["purity", "inverse_purity"]
PURITY_METHODS = ("advisor (BCa)", "percentile", "jackknife normal")


def population_values(pi: np.ndarray) -> dict[str, float]:
    """The indices of a population of items with cell probabilities ``pi`` (n → ∞)."""
    r, c = np.nonzero(pi)
    v = partition_cells_batch(pi[r, c][None], r, c, pi.shape, IDS + PURITY, population=True)
    return {m: float(v[m][0]) for m in IDS + PURITY}


def model(sizes: list[float], noise: float, extra: int = 2) -> np.ndarray:
    """Reference clusters of the given shares; the clustering keeps each item's cluster (the first one split
    60/40 in two) with probability 1 − noise, else puts it in one of ``k + extra`` clusters at random."""
    a = np.asarray(sizes, dtype=float)
    ka, kb = a.size, a.size + extra
    pi = np.zeros((ka, kb))
    for i in range(ka):
        keep = np.zeros(kb)
        if i == 0:
            keep[0], keep[ka] = 0.6, 0.4
        else:
            keep[i] = 1.0
        pi[i] = a[i] * ((1 - noise) * keep + noise / kb)
    return pi


def _interval(vals: np.ndarray, est: float, acc: float, method: str) -> tuple[float, float]:
    iv = resampled_intervals(vals[:, None], np.array([est]), 0.95, method, np.array([acc]))
    return float(iv.low[0]), float(iv.high[0])


def _half_samples(rows: PartitionRows, row_of_item: np.ndarray, unit_of_item: np.ndarray, halves: int,
                  rng: np.random.Generator) -> np.ndarray:
    """(halves, ids): the indices of halves of the units (items or groups) drawn without replacement."""
    sy = _System(rows, "s")
    units = np.unique(unit_of_item)
    masses = np.empty((halves, np.asarray(rows.counts).size))
    for h in range(halves):
        keep = np.isin(unit_of_item, rng.permutation(units)[: units.size // 2])
        masses[h] = np.bincount(row_of_item[keep], minlength=masses.shape[1])
    return sy.evaluate(masses, IDS)


MI = ["adjusted_mutual_info", "normalized_mutual_info"]


def _ami_row(rows: PartitionRows, theta: dict[str, float], resamples: int, seed: int,
             cov: dict[str, dict[str, list]], width: dict[str, dict[str, list]]) -> None:
    """AMI's and NMI's intervals on one test set: advisor's (AMI's recentred bootstrap, NMI's BCa on its
    resamples) and each subsampling interval. Both tend to the population's NMI."""
    point, moved, th, w = _errors(rows, MI, resamples, seed, None, recentre=_RECENTRED)
    acc = acceleration(th["s"], w["s"])
    sub = {label: subsampling_intervals(rows, MI, fraction=fraction, scaling=scaling, n_subsamples=resamples,
                                        seed=seed)["s"] for label, fraction, scaling in SUBSAMPLING}
    for j, m in enumerate(MI):
        got = {"advisor": _interval(moved["s"][:, j], point["s"][j], acc[j], "auto")}
        got.update({label: (r[m]["low"], r[m]["high"]) for label, r in sub.items()})
        target = theta["adjusted_mutual_info"]  # the population's NMI, the value both indices tend to
        for meth, (lo, hi) in got.items():
            cov[m][meth].append(bool(np.isfinite(lo) and lo <= target <= hi))
            width[m][meth].append(hi - lo if np.isfinite(lo) else np.nan)


def _purity_row(rows: PartitionRows, theta: dict[str, float], resamples: int, seed: int,
                cov: dict[str, dict[str, list]], width: dict[str, dict[str, list]]) -> None:
    """Purity's and inverse purity's intervals on one test set: advisor's BCa on the item bootstrap as drawn, the
    percentile interval of the same resamples, and the jackknife normal interval."""
    point, moved, th, w = _errors(rows, PURITY, resamples, seed, None)
    point, moved, th, w = point["s"], moved["s"], th["s"], w["s"]
    acc = acceleration(th, w)
    units = w.sum()
    for j, m in enumerate(PURITY):
        est = point[j]
        ok = np.isfinite(th[:, j])
        mean = np.sum(w[ok] * th[ok, j]) / w[ok].sum()
        se = math.sqrt((units - 1) / units * np.sum(w[ok] * (th[ok, j] - mean) ** 2))
        got = {"advisor (BCa)": _interval(moved[:, j], est, acc[j], "auto"),
               "percentile": tuple(np.nanquantile(moved[:, j], [0.025, 0.975])),
               "jackknife normal": (est - Z * se, est + Z * se)}
        for meth, (lo, hi) in got.items():
            cov[m][meth].append(bool(np.isfinite(lo) and lo <= theta[m] <= hi))
            width[m][meth].append(hi - lo if np.isfinite(lo) else np.nan)


def scenario(name: str, pi: np.ndarray, n: int, reps: int, resamples: int, seed: int, groups: int = 0,
             extras: bool = True, ami: bool = False, purity: bool = False) -> None:
    """Coverage of every method on ``reps`` test sets of ``n`` items (or ``groups`` groups of about n/groups)."""
    rng = np.random.default_rng(seed)
    theta = population_values(pi)
    ka, kb = pi.shape
    ids = MI if ami else PURITY if purity else IDS
    methods = ("advisor",) + tuple(x[0] for x in SUBSAMPLING) if ami else PURITY_METHODS if purity else METHODS
    cov = {m: {mm: [] for mm in methods} for m in ids}
    width = {m: {mm: [] for mm in methods} for m in ids}
    t0 = time.time()
    done = 0
    while done < reps:
        if groups:
            size = rng.integers(max(2, n // groups // 2), n // groups * 3 // 2 + 1, groups)
            t_g = rng.choice(ka, groups, p=pi.sum(1))
            cond = pi / pi.sum(1, keepdims=True)
            p_g = np.array([rng.choice(kb, p=cond[t]) for t in t_g])
            g = np.repeat(np.arange(groups), size)
            t = t_g[g]
            p = np.where(rng.random(g.size) < 0.7, p_g[g], np.array([rng.choice(kb, p=cond[x]) for x in t]))
            codes, inv, cnt = np.unique(np.stack([t, p, g], 1), axis=0, return_inverse=True, return_counts=True)
            rows = PartitionRows(true=codes[:, 0], pred={"s": codes[:, 1]}, counts=cnt.astype(float),
                                 groups=codes[:, 2], n_groups=groups)
            row_of_item, unit_of_item = np.asarray(inv).reshape(-1), g
        else:
            c = rng.multinomial(n, pi.ravel()).reshape(ka, kb)
            r_, c_ = np.nonzero(c)
            rows = PartitionRows(true=r_, pred={"s": c_}, counts=c[r_, c_].astype(float))
            row_of_item = np.repeat(np.arange(r_.size), c[r_, c_])
            unit_of_item = np.arange(n)
        tab = np.zeros((ka, kb))
        np.add.at(tab, (rows.true, rows.pred["s"]), rows.counts)
        if (tab.sum(1) > 0).sum() < 2 or (tab.sum(0) > 0).sum() < 2:
            continue
        done += 1
        if ami:
            _ami_row(rows, theta, resamples, done, cov, width)
            continue
        if purity:
            _purity_row(rows, theta, resamples, done, cov, width)
            continue
        point, moved, th, w = _errors(rows, IDS, resamples, done, None, recentre=_RECENTRED)
        point, moved, th, w = point["s"], moved["s"], th["s"], w["s"]
        pop = _System(rows, "s").evaluate(np.asarray(rows.counts)[None], IDS, population=True)[0]
        raw = _resample_values(rows, IDS, resamples, done, None, self_pairs=True)["s"]  # the same resamples
        recentred = raw - pop[None] + point[None]
        acc = acceleration(th, w)
        if groups:
            flat = PartitionRows(true=rows.true, pred=rows.pred, counts=rows.counts)
            _, im, ith, iw = _errors(flat, IDS, resamples, done, None, recentre=_RECENTRED)
            items_moved, items_acc = im["s"], acceleration(ith["s"], iw["s"])
        units = w.sum()  # items (one deletion per cell, weighted by its items) or groups (weights 1)
        if extras:
            half = _half_samples(rows, row_of_item, unit_of_item, 1000, rng)
        for j, m in enumerate(IDS):
            est = point[j]
            got = {"advisor": _interval(moved[:, j], est, acc[j], "auto"),
                   "recentred": _interval(recentred[:, j], est, acc[j], "auto"),
                   "naive percentile": tuple(np.nanquantile(raw[:, j], [0.025, 0.975])),
                   "naive BCa": _interval(raw[:, j], est, acc[j], "bca")}
            ok = np.isfinite(th[:, j])
            mean = np.sum(w[ok] * th[ok, j]) / w[ok].sum()
            se = math.sqrt((units - 1) / units * np.sum(w[ok] * (th[ok, j] - mean) ** 2))
            got["jackknife normal"] = (est - Z * se, est + Z * se)
            if extras:
                q_lo, q_hi = np.nanquantile(half[:, j], [0.025, 0.975])
                got["half-sampling"] = (2 * est - q_hi, 2 * est - q_lo)
            if groups:  # the same method resampling single items, as if the items were independent
                got["advisor, items resampled"] = _interval(items_moved[:, j], est, items_acc[j], "auto")
            for meth, (lo, hi) in got.items():
                covered = bool(np.isfinite(lo) and lo <= theta[m] <= hi)
                cov[m][meth].append(covered)
                width[m][meth].append(hi - lo if np.isfinite(lo) else np.nan)
    for m in ids:
        cells = []
        for meth in methods:
            if not cov[m][meth]:
                cells.append("–")
                continue
            ws = [x for x in width[m][meth] if np.isfinite(x)]
            none = 1 - len(ws) / len(width[m][meth])
            cells.append(f"{np.mean(cov[m][meth]):.3f} ({np.mean(ws):.3f}" + (f"; none {none:.2f}" if none else "") + ")")
        print(f"| {name}: {SHORT[m]}, θ = {theta.get(m, theta['adjusted_mutual_info']):.3f} | {n:,} | {reps} | " + " | ".join(cells) + " |")
    print(f"<!-- {name}, n = {n}: {time.time() - t0:.0f} s -->")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="", help="rows whose 'scenario n' contains this; alternatives split by |")
    ap.add_argument("--reps", type=int, default=0, help="test sets per row (default 400, 100 with --quick)")
    ap.add_argument("--ami", action="store_true", help="AMI and NMI alone: advisor's bootstrap beside subsampling")
    ap.add_argument("--purity", action="store_true", help="purity and inverse purity alone: BCa on the item bootstrap")
    ap.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples per test set")
    args = ap.parse_args()
    reps = args.reps or (100 if args.quick else 400)
    only = [x for x in args.only.split("|") if x]
    b = args.resamples
    sizes = [0.4, 0.3, 0.2, 0.1]
    methods = ("advisor",) + tuple(x[0] for x in SUBSAMPLING) if args.ami else PURITY_METHODS if args.purity \
        else METHODS
    print("| scenario: index, population value | n | test sets | " + " | ".join(methods) + " |")
    print("|---|---:|---:|" + "---|" * len(methods))
    rows = [
        ("strong agreement (noise 0.05)", model(sizes, 0.05), 60, 1),
        ("strong agreement (noise 0.05)", model(sizes, 0.05), 200, 2),
        ("moderate (noise 0.2)", model(sizes, 0.2), 60, 3),
        ("moderate (noise 0.2)", model(sizes, 0.2), 200, 4),
        ("moderate (noise 0.2)", model(sizes, 0.2), 1000, 5),
        ("weak (noise 0.6)", model(sizes, 0.6), 60, 6),
        ("weak (noise 0.6)", model(sizes, 0.6), 200, 7),
        ("independent, unequal clusters", np.outer(sizes, [0.5, 0.3, 0.2]), 100, 8),
        ("independent, one side equal clusters", np.outer(sizes, [0.2] * 5), 100, 9),
        ("moderate (noise 0.2)", model(sizes, 0.2), 20, 10),
        ("moderate (noise 0.2)", model(sizes, 0.2), 30, 11),
    ]
    for name, pi, n, seed in rows:
        if only and not any(x in f"{name} {n}" for x in only):
            continue
        scenario(name, pi, n, reps, b, seed, extras=n <= 200, ami=args.ami, purity=args.purity)
    if not only or any("groups" in x for x in only):
        scenario("40 groups of 5–15 items (moderate)", model(sizes, 0.2), 400, reps // 2, b, 12, groups=40,
                 extras=False, ami=args.ami, purity=args.purity)


if __name__ == "__main__":
    main()
