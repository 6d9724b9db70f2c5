"""Benchmark: how often the cut selection with guaranteed risk fixes on calibration matters misses the target.

Run with ``python benchmarks/bench_frozen_cut.py`` (~30 min on one core; ``--quick``: 300 replications per row;
``--sigma``, ``--matters``, ``--size`` choose the rows). A simulation, not a test.

The selective-classification methodologist (legal routing, target risk 2%): SGR's guarantee is over the draw of the
calibration sample, for a threshold then frozen, and its binomial bound assumes independent documents — those of one
matter are not. This measures it. A population of matters: matter g has a difficulty u_g ~ N(0, σ²); its documents
(a Poisson number, mean 10, at least 1) have a confidence s ~ Beta(6, 1.2) and err with probability
expit(a − b·logit(s) + u_g), so the errors of one matter go together and the confidence ranks them. The population
risk–coverage curve (the error rate of the documents whose confidence is at least θ) is computed once from
4,000,000 documents. Each replication draws G matters, splits them at random in half (advisor's
``calibration_split``), runs SGR on the calibration half — items taken as independent (Clopper–Pearson at m) or at
the effective sample size (advisor's ``clustered_sgr``: m/deff, Kish's design effect of the error rate at each
threshold) — freezes θ and reads the population risk at θ. A row gives, over replications: the share in which that
risk exceeds the target (SGR promises at most δ = 5%), the mean coverage of the cut, and, on the test half, how
often the one-sided 95% bound of ``frozen_cut`` (``risk_limit_check``) lies below the population risk at the frozen
cut (it should, at most 5% of the time). The Monte-Carlo standard error of a rate near 0.05 is √(0.05·0.95/reps).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from advisor.stats import calibration_split, clustered_sgr, frozen_cut

TARGET = 0.02
DELTA = 0.05


def _expit(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def _draw(rng: np.random.Generator, matters: int, sigma: float, mean: int = 10
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(error, confidence, matter)`` of the documents of ``matters`` matters of ``mean`` documents on average."""
    size = np.maximum(rng.poisson(mean, matters), 1)
    matter = np.repeat(np.arange(matters), size)
    u = rng.normal(0.0, sigma, matters)[matter]
    s = np.clip(rng.beta(6.0, 1.2, matter.shape[0]), 1e-9, 1 - 1e-9)
    p = _expit(-1.0 - 1.6 * np.log(s / (1 - s)) + u)
    return (rng.random(matter.shape[0]) < p).astype(np.float64), s, matter


def _curve(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The population risk at every threshold: confidences sorted, the error rate of those at or above each."""
    rng = np.random.default_rng(12345)
    s = np.clip(rng.beta(6.0, 1.2, 4_000_000), 1e-9, 1 - 1e-9)
    u = rng.normal(0.0, sigma, s.shape[0])  # a matter's effect averaged over matters: independent draws suffice
    p = _expit(-1.0 - 1.6 * np.log(s / (1 - s)) + u)
    order = np.argsort(s)[::-1]
    risk = np.cumsum(p[order]) / np.arange(1, s.shape[0] + 1)
    return s[order][::-1], risk[::-1]  # ascending confidence; risk of the documents at or above it


def _risk_at(curve: tuple[np.ndarray, np.ndarray], theta: float) -> float:
    conf, risk = curve
    return float(risk[min(int(np.searchsorted(conf, theta, side="left")), conf.shape[0] - 1)])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sigma", type=float, nargs="*", default=[0.0, 1.0, 2.0])
    parser.add_argument("--matters", type=int, nargs="*", default=[300, 1000, 3000])
    parser.add_argument("--size", type=int, default=10, help="mean documents per matter")
    args = parser.parse_args()
    reps = 300 if args.quick else 1000
    print(f"target risk {TARGET}, δ = {DELTA}, {reps} replications per row, {args.size} documents per matter on "
          "average; population risk at θ̂ > target, share")
    print(f"{'σ':>4} {'matters':>7} {'docs':>6} | {'SGR, items indep.':>26} | {'SGR at n_eff':>26} | {'test bound < risk':>17}")
    print(f"{'':>4} {'':>7} {'':>6} | {'exceeds':>8} {'coverage':>8} {'none':>8} | {'exceeds':>8} {'coverage':>8} "
          f"{'none':>8} | {'SGR at n_eff':>17}")
    for sigma in args.sigma:
        curve = _curve(sigma)
        for matters in args.matters:
            start = time.perf_counter()
            rng = np.random.default_rng(int(sigma * 10) * 100_000 + matters)
            out = {"plain": [0, 0.0, 0], "neff": [0, 0.0, 0]}
            low = 0
            docs = 0
            for r in range(reps):
                e, s, g = _draw(rng, matters, sigma, args.size)
                docs += e.shape[0]
                calib = calibration_split(e.shape[0], g, seed=r)
                for key, groups in (("plain", None), ("neff", g[calib])):
                    fit = clustered_sgr(e[calib], s[calib], TARGET, DELTA, groups=groups)
                    if fit.threshold is None:
                        out[key][2] += 1
                        continue
                    risk = _risk_at(curve, fit.threshold)
                    out[key][0] += risk > TARGET
                    out[key][1] += float(np.mean(s >= fit.threshold))
                    if key == "neff":
                        test = ~calib
                        f = frozen_cut(e[test], s[test], fit.threshold, TARGET, groups=g[test], n_resamples=500,
                                       seed=r)
                        low += f.check is not None and f.check.upper < risk
            cells = []
            for key in ("plain", "neff"):
                exceed, cov, none = out[key]
                fitted = reps - none
                cells.append(f"{exceed / reps:>8.3f} {cov / max(fitted, 1):>8.3f} {none / reps:>8.3f}")
            fitted = reps - out["neff"][2]
            print(f"{sigma:>4.1f} {matters:>7,} {docs // reps:>6,} | {cells[0]} | {cells[1]} | "
                  f"{low / max(fitted, 1):>17.3f}   ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
