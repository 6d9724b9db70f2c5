"""Benchmark: coverage of the 95 % interval of the Jigsaw bias score (issue 22, the toxic reader).

Run with ``python benchmarks/bench_bias_score.py`` (``--quick`` for fewer test sets and resamples). Each row draws
test sets of comments from a population whose bias score is known in closed form: every comment belongs to one
identity subgroup or to none (shares given), is toxic with probability 0.3, and gets a score drawn from a normal
distribution with unit variance whose mean depends on its class and subgroup (toxic 1.2, non-toxic 0, non-toxic
comments of a subgroup shifted up by its ``shift``: the classifier over-scores comments that mention it). Every
AUC of the score is then a mixture of ``Φ((μ₊ − μ₋)/√2)`` over the normal components it ranks, so the population's
overall, subgroup, BPSN and BNSP AUCs, their power means (p = −5) and the score
``0.25·AUC + Σ_a 0.25·M₋₅(m_{s,a})`` are exact. Each test set's score gets two intervals from the same item
resamples (:func:`advisor.stats._fairness.bias_score`, ``method=``):

* ``BCa`` — what advisor gives, with the acceleration of a jackknife over the comments;
* ``percentile`` — the percentile interval of the resampled scores, what advisor gave before.

Coverage counts a test set without an interval as a miss; widths in brackets; "below" is the share of test sets whose
interval lies wholly below the true score (the power mean of noisy AUCs is biased downward, towards the worst).
"""

from __future__ import annotations

import argparse
import sys
import time
from statistics import NormalDist

import numpy as np

from advisor.stats._fairness import bias_score

_PHI = NormalDist().cdf
_MU_POS, _PREV = 1.2, 0.3


def _auc(pos: list[tuple[float, float]], neg: list[tuple[float, float]]) -> float:
    """AUC of a mixture of unit normals ``pos`` [(mass, mean)] against ``neg``."""
    wp, wn = sum(m for m, _ in pos), sum(m for m, _ in neg)
    return sum(a * b * _PHI((mp - mn) / np.sqrt(2.0)) for a, mp in pos for b, mn in neg) / (wp * wn)


def truth(shares: dict[str, float], shifts: dict[str, float]) -> float:
    pos = {g: (w * _PREV, _MU_POS) for g, w in shares.items()}
    neg = {g: (w * (1 - _PREV), shifts.get(g, 0.0)) for g, w in shares.items()}
    ids = [g for g in shares if g != "none"]
    overall = _auc(list(pos.values()), list(neg.values()))
    per: dict[str, list[float]] = {"sub": [], "bpsn": [], "bnsp": []}
    for s in ids:
        per["sub"].append(_auc([pos[s]], [neg[s]]))
        per["bpsn"].append(_auc([pos[g] for g in shares if g != s], [neg[s]]))
        per["bnsp"].append(_auc([pos[s]], [neg[g] for g in shares if g != s]))
    return 0.25 * overall + sum(0.25 * float(np.mean(np.asarray(v) ** -5.0) ** -0.2) for v in per.values())


def scenario(name: str, n: int, shares: dict[str, float], shifts: dict[str, float], reps: int,
             resamples: int) -> None:
    theta = truth(shares, shifts)
    groups = list(shares)
    one = len(groups) == 2  # a yes/no mention column
    rng = np.random.default_rng(22)
    cov: dict[str, list[bool]] = {"auto": [], "percentile": []}
    width: dict[str, list[float]] = {"auto": [], "percentile": []}
    below: dict[str, list[bool]] = {"auto": [], "percentile": []}
    est = []
    done = 0
    while done < reps:
        g = rng.choice(groups, n, p=list(shares.values()))
        y = rng.random(n) < _PREV
        mu = np.where(y, _MU_POS, np.vectorize(lambda x: shifts.get(x, 0.0))(g))
        s = rng.normal(mu, 1.0)
        col = np.where(g == "none", "no", "yes") if one else g
        vals = ["no", "yes"] if one else groups
        rs = {}
        for m in ("auto", "percentile"):
            rs[m] = bias_score(y, s, {"c": vals}, {"c": col.astype(object)}, n_resamples=resamples, seed=done,
                               method=m)
        if rs["auto"]["estimate"] is None:  # a subgroup without a class: no score, drawn again
            continue
        est.append(rs["auto"]["estimate"])
        for m, r in rs.items():
            ok = r.get("low") is not None
            cov[m].append(ok and r["low"] - 1e-12 <= theta <= r["high"] + 1e-12)
            below[m].append(ok and r["high"] < theta)
            if ok:
                width[m].append(r["high"] - r["low"])
        done += 1
    cells = [f"{np.mean(cov[m]):.3f} ({np.mean(width[m]):.3f}; below {np.mean(below[m]):.3f})"
             for m in ("auto", "percentile")]
    print(f"| {name} | {n} | {theta:.4f} | {np.mean(est) - theta:+.4f} | {reps} | " + " | ".join(cells) + " |")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps, resamples = (100, 400) if args.quick else (300, 1000)
    print("| scenario | comments | true score | mean bias of the estimate | test sets | BCa (width; below) | "
          "percentile (width; below) |")
    print("|---|---:|---:|---:|---:|---|---|")
    t0 = time.perf_counter()
    one = {"none": 0.8, "yes": 0.2}
    for n in (300, 1000, 3000):
        scenario("one identity (20 %), over-scored by 0.6", n, one, {"yes": 0.6}, reps, resamples)
    four = {"none": 0.7, "a": 0.05, "b": 0.05, "c": 0.1, "d": 0.1}
    for n in (1000, 4000):
        scenario("four identities (5, 5, 10, 10 %), none over-scored", n, four, {}, reps, resamples)
        scenario("four identities (5, 5, 10, 10 %), the first over-scored by 0.8", n, four,
                 {"a": 0.8, "b": 0.2, "c": 0.2, "d": 0.2}, reps, resamples)
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
