"""The weighted-items entry of the score metrics (what ``advisor.spark`` feeds it): equal to the items.

Spark brings home the distinct (true label, score) rows with their counts; ``score_metrics(weights=…)``
must give the values of the expanded items — ties, constant scores, a missing class — and refuse the
ECE exactly where the item order would decide it.
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.engine._score_eval import score_metrics
from advisor.engine._scores import Calibration


def _aggregate(y: np.ndarray, s: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Distinct (label, score row) with counts, in a shuffled order (a GROUP BY keeps none)."""
    rows = np.column_stack([y.astype(np.float64), s.reshape(len(y), -1)])
    uniq, counts = np.unique(rows, axis=0, return_counts=True)
    perm = np.random.default_rng(5).permutation(len(uniq))
    uniq, counts = uniq[perm], counts[perm]
    return [str(int(v)) for v in uniq[:, 0]], uniq[:, 1:], counts.astype(np.float64)


def _close(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for m in a:
        assert a[m] == pytest.approx(b[m], abs=1e-12, nan_ok=True), m


@pytest.mark.parametrize("levels", [3, 20, 10**6])
def test_binary_score_counts_equal_the_items(levels: int) -> None:
    rng = np.random.default_rng(levels)
    y = rng.integers(0, 2, 500)
    s = np.round(rng.normal(y, 1.0) * levels) / levels  # few distinct scores: many ties across classes
    ref, _ = score_metrics([str(v) for v in y], [0, 1], score=s, positive_label=1)
    ty, ss, w = _aggregate(y, s)
    got, details = score_metrics(ty, [0, 1], score=ss[:, 0], positive_label=1, weights=w)
    _close(got, ref)
    assert details == {} and len(ss) < 500 or levels == 10**6


@pytest.mark.parametrize("case", ["constant", "one_class"])
def test_constant_scores_and_a_single_class(case: str) -> None:
    y = np.array([0, 1] * 20) if case == "constant" else np.ones(40, dtype=int)
    s = np.full(40, 0.3) if case == "constant" else np.linspace(0, 1, 40).round(1)
    ref, _ = score_metrics([str(v) for v in y], [0, 1], score=s, positive_label=1)
    ty, ss, w = _aggregate(y, s)
    got, _ = score_metrics(ty, [0, 1], score=ss[:, 0], positive_label=1, weights=w)
    _close(got, ref)
    if case == "constant":
        assert got == {"roc_auc": 0.5, "average_precision": 0.5}
    else:
        assert np.isnan(got["roc_auc"]) and got["average_precision"] == 1.0


@pytest.mark.parametrize("k", [2, 3])
def test_probability_counts_equal_the_items(k: int) -> None:
    rng = np.random.default_rng(k)
    y = rng.integers(0, k, 600)
    p = rng.dirichlet(np.ones(k), size=600)
    y[::3], p[::3] = y[1::3], p[1::3]  # repeated items: ties in every column and in the confidence
    # and the least confident row for items of other classes: a mixed tie, first in the 40-item bins
    p[2:30:3] = p[int(np.argmin(p.max(axis=1)))]
    labels = list(range(k))
    ref, _ = score_metrics([str(v) for v in y], labels, proba=p, proba_labels=[str(c) for c in labels])
    ty, pp, w = _aggregate(y, p)
    assert Calibration(np.array([int(t) for t in ty]), pp).order_free(w)  # no mixed tie at a bin edge
    got, _ = score_metrics(ty, labels, proba=pp, proba_labels=[str(c) for c in labels], weights=w)
    _close(got, ref)
    # no positive class: average precision is left out (issue 19 item 10: it is always the positive class's)
    assert set(got) == ({"roc_auc", "ece"} | ({"brier_binary"} if k == 2 else set()))


def test_one_probability_column_with_positive_label() -> None:
    rng = np.random.default_rng(9)
    y = rng.integers(0, 2, 300)
    p1 = np.round(rng.random(300), 2)
    ref, _ = score_metrics([str(v) for v in y], [0, 1], proba=p1[:, None], proba_labels=["1"], positive_label=1,
                           metrics=["roc_auc", "average_precision", "brier_binary"])
    ty, pp, w = _aggregate(y, p1)
    got, _ = score_metrics(ty, [0, 1], proba=pp, proba_labels=["1"], positive_label=1, weights=w,
                           metrics=["roc_auc", "average_precision", "brier_binary"])
    _close(got, ref)


def test_ece_from_counts_equals_the_items_in_every_row_order() -> None:
    # four items at confidence 0.6, two right (y = 0) and two wrong, then 26 right at 0.9: 30 items in
    # 15 equal-mass bins of two, so the edge after the second item falls inside the run at 0.6. Issue 20:
    # tied confidences now share a bin, so the row order no longer decides the ECE and the counts give it
    # (it was refused from counts, because the row order decided it).
    y = np.array([0, 1, 0, 1] + [0] * 26)
    p = np.array([[.6, .4]] * 4 + [[.9, .1]] * 26)

    def item_ece(order: list[int]) -> float:
        yy = np.r_[y[order], y[4:]]
        return score_metrics([str(v) for v in yy], [0, 1], proba=p, proba_labels=["0", "1"], metrics=["ece"])[0]["ece"]

    assert item_ece([0, 1, 2, 3]) == pytest.approx(item_ece([0, 2, 1, 3]), abs=1e-15)
    ty, pp, w = _aggregate(y, p)
    got, _ = score_metrics(ty, [0, 1], proba=pp, proba_labels=["0", "1"], weights=w)
    assert got["ece"] == pytest.approx(item_ece([0, 1, 2, 3]), abs=1e-15)
    assert got["brier_binary"] == pytest.approx(np.mean((p[:, 1] - y) ** 2), abs=1e-15)


def test_bad_weights_are_one_sentence() -> None:
    with pytest.raises(InputError, match="one whole, non-negative number per item"):
        score_metrics(["0", "1"], [0, 1], score=[0.1, 0.2], positive_label=1, weights=[1, 0.5])
