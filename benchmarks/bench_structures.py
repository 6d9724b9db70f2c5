"""Ordinal metrics from non-zero cells vs scikit-learn on labels; multi-label metrics vs scikit-learn.

    python benchmarks/bench_structures.py

Prints times and ratios measured in the same run (the machine may be shared: read the ratios, not the
seconds). The ordinal metrics never build a k×k array: weighted kappa's chance term comes from moments
(quadratic) or cumulative class sums (linear), so many ordered classes cost what the non-zero cells cost (scikit-learn builds the k×k matrix).
"""

from __future__ import annotations

import time

import numpy as np


def _time(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    from sklearn.metrics import cohen_kappa_score, f1_score

    from advisor.engine._multilabel import multilabel_metrics
    from advisor.engine._ordinal import ordinal_cells, ordinal_metrics

    rng = np.random.default_rng(0)
    for k, n in ((10, 1_000_000), (2_000, 1_000_000), (5_000, 200_000)):
        t = rng.integers(0, k, n)
        p = np.clip(t + rng.integers(-2, 3, n), 0, k - 1)
        cells = ordinal_cells(y_true=t, y_pred=p, order=list(range(k)))
        ours = _time(lambda: ordinal_metrics(cells, ["weighted_kappa_quadratic", "weighted_kappa_linear"]))
        with_read = _time(lambda: ordinal_metrics(ordinal_cells(y_true=t, y_pred=p, order=list(range(k)))), 1)
        ref = _time(lambda: (cohen_kappa_score(t, p, weights="quadratic"), cohen_kappa_score(t, p, weights="linear")), 1)
        print(f"ordinal k={k:>6} n={n:>9}: cells {len(cells.counts):>7}; both kappas from cells {ours * 1e3:8.2f} ms, "
              f"from labels {with_read:6.2f} s; scikit-learn {ref:6.2f} s (×{ref / ours:,.0f} vs cells)")
    n, L = 200_000, 50
    y = rng.random((n, L)) < 0.05
    q = np.where(rng.random((n, L)) < 0.9, y, ~y)
    ours = _time(lambda: multilabel_metrics(y, q))
    ref = _time(lambda: [f1_score(y, q, average=a) for a in ("micro", "macro", "samples")], 1)
    print(f"multi-label n={n} L={L}: all five metrics {ours:.2f} s; scikit-learn's three F1s {ref:.2f} s "
          f"(×{ref / ours:.1f})")


if __name__ == "__main__":
    main()
