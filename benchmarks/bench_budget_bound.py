"""Benchmark: coverage of one-sided 95 % upper bounds of a false positive rate whose negatives come in clusters.

Run with ``python benchmarks/bench_budget_bound.py`` (~40 min on two shared cores; ``--quick``: a third of the test
sets; ``--rate 0.001`` one rate's rows). Each row has its own seed, so rows run apart give the same figures. A
simulation, not a test.

The fraud and spam readers called the earlier bound of the FPR budget check — the larger of the Clopper–Pearson
bound and the 95th percentile over bootstrap resamples of the groups — ad hoc, "no citation or coverage argument".
This measures it beside the two single methods it could be replaced with. Each row draws test sets of G groups (a
card, a recipient) whose numbers of negatives are 1 + a geometric count with mean 19 (mean 20 per group, a long
tail); a group's false positive rate π_g is drawn from a beta distribution with mean p and intra-class correlation
ρ (a + b = (1 − ρ)/ρ; ρ = 0: every π_g = p, the negatives independent), and its false positives are
Binomial(n_g, π_g). Sizes and rates are independent, so the population false positive rate is p, and a row counts
how often each bound is at least p (one-sided coverage; the nominal 0.95).

* **CP**: one-sided Clopper–Pearson at N = Σ n_g, the negatives taken as independent.
* **bootstrap**: the 95th percentile of Σ w_g FP_g / Σ w_g n_g over resamples of the groups (the cluster bootstrap;
  advisor's multinomial group weights, the resamples of the report).
* **max of two**: the larger of the two — advisor's bound before this change.
* **KG**: Korn & Graubard (1998), advisor's bound now (:func:`advisor.stats._budget.korn_graubard_upper`):
  Clopper–Pearson at the effective sample size n* = min(N, p̂(1 − p̂)/v̂) · (t_{N−1}/t_{G−1})², v̂ the
  cluster-robust variance of the ratio, n* = N when p̂ = 0.
* **KG, no df**: the same without the degrees-of-freedom factor, for reference.

"×p" is the mean bound over p (how much room each bound takes to cover). The Monte-Carlo standard error of a
coverage near 0.95 is √(0.95 · 0.05 / test sets), 0.013 with 300 and 0.020 with 120.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor.stats._budget import korn_graubard_upper, one_sided_upper, t_quantile
from advisor.stats._clusters import group_weights
from advisor.stats._proportions import beta_quantile

RATES = (0.001, 0.01)
ICCS = (0.0, 0.02, 0.2)
GROUPS = (50, 200, 1000, 5000)
MEAN_SIZE = 20.0


def draw(rng: np.random.Generator, g: int, p: float, rho: float) -> tuple[np.ndarray, np.ndarray]:
    """One test set: the false positives and the negatives of each of ``g`` groups."""
    n = rng.geometric(1.0 / MEAN_SIZE, g).astype(np.float64)  # 1, 2, …: 1 + a geometric count with mean 19
    if rho > 0:
        s = (1.0 - rho) / rho
        pi = rng.beta(p * s, (1.0 - p) * s, g)
    else:
        pi = np.full(g, p)
    fp = rng.binomial(n.astype(np.int64), pi).astype(np.float64)
    return fp, n


def kg_no_df(fp: np.ndarray, n: np.ndarray, confidence: float) -> float:
    """Korn & Graubard's bound without the degrees-of-freedom factor (n* = min(N, p̂(1 − p̂)/v̂))."""
    kg = korn_graubard_upper(fp, n, confidence)
    big_n, g = float(n.sum()), kg.groups
    factor = (t_quantile(confidence, big_n - 1.0) / t_quantile(confidence, g - 1.0)) ** 2
    n_star = kg.effective_n / factor
    p = float(fp.sum()) / big_n
    return beta_quantile(confidence, p * n_star + 1.0, n_star - p * n_star)


def row(rng: np.random.Generator, g: int, p: float, rho: float, sets: int, resamples: int,
        confidence: float = 0.95) -> dict[str, tuple[float, float]]:
    bounds: dict[str, list[float]] = {k: [] for k in ("CP", "bootstrap", "max of two", "KG", "KG, no df")}
    for _ in range(sets):
        fp, n = draw(rng, g, p, rho)
        cp = one_sided_upper(float(fp.sum()), float(n.sum()), confidence)
        w = group_weights(rng, g, resamples).astype(np.float64)
        boot = float(np.quantile((w @ fp) / (w @ n), confidence))
        bounds["CP"].append(cp)
        bounds["bootstrap"].append(boot)
        bounds["max of two"].append(max(cp, boot))
        bounds["KG"].append(korn_graubard_upper(fp, n, confidence).upper)
        bounds["KG, no df"].append(kg_no_df(fp, n, confidence))
    return {k: (float(np.mean(np.asarray(v) >= p)), float(np.mean(v)) / p) for k, v in bounds.items()}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a third of the test sets")
    ap.add_argument("--sets", type=int, default=0, help="test sets per row (default 300, 120 at G = 5000)")
    ap.add_argument("--rate", type=float, action="append", help="only the rows of this rate (repeatable)")
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    names = ("CP", "bootstrap", "max of two", "KG", "KG, no df")
    print("| p | ρ | G | N ≈ | test sets | " + " | ".join(names) + " |")
    print("|---:|---:|---:|---:|---:|" + "---|" * len(names))
    t0 = time.time()
    for i, p in enumerate(RATES):
        if args.rate and p not in args.rate:
            continue
        for j, rho in enumerate(ICCS):
            for k, g in enumerate(GROUPS):
                rng = np.random.default_rng([args.seed, i, j, k])  # a seed of its own per row
                sets = args.sets or (120 if g >= 5000 else 300)
                if args.quick:
                    sets //= 3
                res = row(rng, g, p, rho, sets, args.resamples)
                cells = " | ".join(f"{c:.3f} (×{m:.2f})" for c, m in (res[k] for k in names))
                print(f"| {p:g} | {rho:g} | {g:,} | {int(g * MEAN_SIZE):,} | {sets} | {cells} |", flush=True)
    print(f"\n{time.time() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
