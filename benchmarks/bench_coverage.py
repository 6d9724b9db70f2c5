"""Benchmark: coverage of advisor's 95 % intervals, simulated from known populations (issue 20 item 8).

Run with ``python benchmarks/bench_coverage.py`` (``--quick`` for fewer test sets). Each row draws test
sets from a population whose metric value is known (computed on the population's confusion
probabilities, or in closed form), computes the interval advisor gives now (``auto``: Clopper–Pearson
for proportions, BCa otherwise, the debiased calibration error for ECE, groups with ``--group``) and,
for reference, the percentile interval of the same resamples (what advisor gave before issue 20), and
counts how often each covers the population value. "none" is the share of test sets for which advisor
gave no interval (it never gives one that excludes its estimate); coverage counts those as misses.

Scenarios: accuracy and recall at small n (also exactly, by enumerating every binomial outcome), macro
F1 at k = 10 and k = 1000, ROC AUC, ECE (calibrated and over-confident models, n = 100 … 1,000),
clustered items (the group bootstrap against the item bootstrap).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from statistics import NormalDist

import numpy as np

from advisor.engine._metrics import evaluate_batch
from advisor.stats._bootstrap import bootstrap
from advisor.stats._intervals import resampled_intervals


def _row(name: str, n: int, reps: int, cov: dict[str, list[bool]], width: dict[str, list[float]],
         none: dict[str, int]) -> None:
    cells = []
    for meth in cov:
        w = [x for x in width[meth] if np.isfinite(x)]
        cells.append(f"{meth}: {np.mean(cov[meth]):.3f} (width {np.mean(w) if w else float('nan'):.4f}, "
                     f"none {none[meth] / reps:.2f})")
    print(f"| {name} | {n:,} | {reps} | " + " | ".join(cells) + " |")
    sys.stdout.flush()


def matrix_scenario(name: str, population: np.ndarray, n: int, ids: list[str], reps: int, resamples: int,
                    seed: int, pos: int | None = None) -> None:
    """Test sets of n items from a k×k population of cell probabilities; advisor's interval and the percentile."""
    rng = np.random.default_rng(seed)
    k = population.shape[0]
    theta = {m: float(evaluate_batch(population[None] * 1e9, [m], positive_index=pos)[m][0]) for m in ids}
    for m in ids:
        cov: dict[str, list[bool]] = {"auto": [], "percentile": []}
        width: dict[str, list[float]] = {"auto": [], "percentile": []}
        none = {"auto": 0, "percentile": 0}
        for r in range(reps):
            cm = rng.multinomial(n, population.ravel()).reshape(k, k)
            res = bootstrap(cm, n_resamples=resamples, seed=r, metrics=[m], keep_resamples=True,
                            positive_label=pos)
            est = np.array([res[m]["estimate"]])
            pct = resampled_intervals(res.resamples[m][:, None], est, 0.95, "percentile")
            for meth, (lo, hi) in (("auto", (res[m]["low"], res[m]["high"])),
                                   ("percentile", (float(pct.low[0]), float(pct.high[0])))):
                ok = not math.isnan(lo)
                none[meth] += not ok
                cov[meth].append(ok and lo <= theta[m] <= hi)
                width[meth].append(hi - lo if ok else np.nan)
        _row(f"{name}: {m} (θ = {theta[m]:.4f})", n, reps, cov, width, none)


def exact_proportion(n: int, p: float) -> None:
    """Exact coverage of a proportion's interval, every binomial outcome enumerated."""
    pmf = np.array([math.comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(n + 1)])
    pct = cp = 0.0
    for x in range(n + 1):
        cdf = np.cumsum([math.comb(n, j) * (x / n) ** j * (1 - x / n) ** (n - j) for j in range(n + 1)])
        lo, hi = np.searchsorted(cdf, 0.025) / n, np.searchsorted(cdf, 0.975) / n
        pct += pmf[x] * (lo <= p <= hi)
        r = bootstrap([[50, 0], [n - x, x]] if x < n else [[50, 0], [0, n]], n_resamples=200, seed=0,
                      metrics=["recall"], positive_label=1)
        cp += pmf[x] * (r["recall"]["low"] <= p <= r["recall"]["high"])
    print(f"| recall of {n} positives, exact enumeration (θ = {p}) | {n} | all outcomes | "
          f"auto (Clopper–Pearson): {cp:.3f} | percentile: {pct:.3f} |")


def auc_scenario(n: int, reps: int, resamples: int, d: float = 1.2) -> None:
    """Binary scores N(0, 1) against N(d, 1): ROC AUC = Φ(d/√2)."""
    from advisor.stats._items import compare_scored

    theta = NormalDist().cdf(d / math.sqrt(2))
    rng = np.random.default_rng(n)
    cov = {"auto": [], "percentile": []}
    width = {"auto": [], "percentile": []}
    none = {"auto": 0, "percentile": 0}
    for r in range(reps):
        y = rng.integers(0, 2, n)
        s = rng.normal(0, 1, n) + d * y
        res = compare_scored(y, {"s": s}, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=resamples,
                             seed=r)
        lo, hi = res.intervals["roc_auc"]["s"]
        ok = not math.isnan(lo)
        none["auto"] += not ok
        cov["auto"].append(ok and lo <= theta <= hi)
        width["auto"].append(hi - lo)
        # the percentile interval of the same kind of resamples (plain item bootstrap, for reference)
        idx = rng.integers(0, n, (resamples, n))
        from advisor.engine._scores import Ranking

        w = np.stack([np.bincount(i, minlength=n) for i in idx]).astype(float)
        auc = Ranking(s).auc(w * y, w * (1 - y))
        plo, phi = np.nanquantile(auc, [0.025, 0.975])
        cov["percentile"].append(plo <= theta <= phi)
        width["percentile"].append(phi - plo)
    _row(f"ROC AUC, binormal d = {d} (θ = {theta:.4f})", n, reps, cov, width, none)


def ece_scenario(kind: str, n: int, reps: int, resamples: int) -> None:
    """The debiased RMS calibration error's interval (positive class) against its large-sample value; the
    plug-in ECE's percentile interval against the large-sample ECE (what advisor printed before)."""
    from advisor.engine._scores import Calibration
    from advisor.stats._items import compare_scored

    def model(m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        p = rng.beta(2, 2, m)
        y = (rng.random(m) < p).astype(int)
        f = p if kind == "calibrated" else 1 / (1 + np.exp(-1.6 * np.log(p / (1 - p))))
        return y, np.column_stack([1 - f, f])

    y0, p0 = model(4_000_000, np.random.default_rng(99))
    cal = Calibration(y0, p0, column=1)
    rms = float(np.sqrt(max(cal.squared_plugin(np.ones(len(y0))), 0.0)))
    ece = float(cal.ece(np.ones(len(y0))))
    rng = np.random.default_rng(n)
    cov = {"debiased RMS (auto)": [], "plug-in ECE, percentile": []}
    width = {k: [] for k in cov}
    none = {k: 0 for k in cov}
    for r in range(reps):
        y, p = model(n, rng)
        res = compare_scored(y, {"s": p}, [0, 1], positive_label=1, metrics=["ece"], n_resamples=resamples, seed=r)
        c = res.calibration["s"]["positive_class"]
        ok = c["low"] is not None
        none["debiased RMS (auto)"] += not ok
        cov["debiased RMS (auto)"].append(ok and c["low"] <= rms <= c["high"])
        width["debiased RMS (auto)"].append(c["high"] - c["low"] if ok else np.nan)
        cp = Calibration(y, p, column=1)
        idx = rng.integers(0, n, (resamples, n))
        w = np.stack([np.bincount(i, minlength=n) for i in idx]).astype(float)
        lo, hi = np.quantile(cp.ece(w), [0.025, 0.975])
        cov["plug-in ECE, percentile"].append(lo <= ece <= hi)
        width["plug-in ECE, percentile"].append(hi - lo)
    _row(f"calibration of P(positive), {kind} (RMS θ = {rms:.4f}, ECE θ = {ece:.4f})", n, reps, cov, width, none)


def grouped_scenario(groups: int, reps: int, resamples: int) -> None:
    """Accuracy of items in groups of 5–15 with Beta(4, 1) group accuracies (mean 0.8): items vs groups."""
    import advisor

    rng = np.random.default_rng(groups)
    cov = {"groups (--group)": [], "items": []}
    width = {k: [] for k in cov}
    none = {k: 0 for k in cov}
    n_items = 0
    for r in range(reps):
        size = rng.integers(5, 16, groups)
        g = np.repeat(np.arange(groups), size)
        acc = rng.beta(4.0, 1.0, groups)[g]
        y = rng.integers(0, 2, g.size)
        pred = np.where(rng.random(g.size) < acc, y, 1 - y)
        n_items += g.size
        for key, gr in (("groups (--group)", g), ("items", None)):
            c = advisor.compare_systems(y, {"a": pred, "b": pred}, n_resamples=resamples, seed=r,
                                        metrics=["accuracy"], groups=gr)
            s = c.metrics["accuracy"].systems["a"]
            ok = s.low is not None
            none[key] += not ok
            cov[key].append(ok and s.low <= 0.8 <= s.high)
            width[key].append(s.high - s.low if ok else np.nan)
    _row(f"accuracy of {groups} groups of 5–15 items (θ = 0.8)", n_items // reps, reps, cov, width, none)


def population(k: int, acc: float, skew: float, seed: int) -> np.ndarray:
    """Cell probabilities: class shares ∝ exp(−skew · i), per-class accuracy uniform around ``acc``."""
    rng = np.random.default_rng(seed)
    prior = np.exp(-skew * np.arange(k))
    prior /= prior.sum()
    a = rng.uniform(acc - 0.15, min(acc + 0.15, 0.99), k)
    p = np.repeat(((1 - a) / (k - 1))[:, None], k, axis=1)
    p[np.arange(k), np.arange(k)] = a
    return prior[:, None] * p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer test sets (coverage ± 0.03–0.05)")
    args = ap.parse_args()
    q = 0.3 if args.quick else 1.0
    reps = lambda x: max(20, int(x * q))  # noqa: E731
    start = time.perf_counter()
    print("| scenario | n | test sets | advisor now | before (percentile) |")
    print("|---|---:|---:|---|---|")
    exact_proportion(25, 0.95)
    exact_proportion(60, 0.9)
    matrix_scenario("binary, skewed", population(2, 0.9, 1.0, 0), 60, ["accuracy", "mcc", "balanced_accuracy"],
                    reps(400), 1000, 1)
    matrix_scenario("binary, skewed", population(2, 0.9, 1.0, 0), 30, ["balanced_accuracy", "macro_f1"],
                    reps(400), 1000, 2)
    matrix_scenario("k = 10", population(10, 0.8, 0.3, 0), 300,
                    ["accuracy", "macro_f1", "balanced_accuracy", "mcc", "geometric_macro_recall",
                     "confusion_entropy"], reps(300), 1000, 3)
    matrix_scenario("k = 1000", population(1000, 0.74, 0.0, 0), 50_000, ["macro_f1", "accuracy"],
                    reps(60), 2000, 4)
    for n in (50, 200):
        auc_scenario(n, reps(300), 1000)
    for kind in ("calibrated", "overconfident"):
        for n in (100, 300, 1000):
            ece_scenario(kind, n, reps(200), 1000)
    grouped_scenario(40, reps(200), 1000)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
