"""Issue 23 item 2: selective prediction (AURC, selective risk, coverage at a risk) against independent oracles.

* a direct loop: sort the items by confidence (no ties), count the errors among the ``i`` most confident, divide
  by ``i`` — the definition of Geifman & El-Yaniv (2017) and, averaged over ``i``, of AURC (Geifman, Uziel &
  El-Yaniv 2019);
* brute force on small cases with ties: the mean of that loop over every order of the tied items (the fractional
  share of a tie is the expectation over the orders within it);
* bootstrap weights: an item drawn ``w`` times equals that item repeated ``w`` times.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.engine._selective import (
    aurc,
    check_coverage,
    check_reject_label,
    coverage_at_risk,
    risk_coverage_curve,
    selective_items,
    selective_risk,
)


def _loop_risks(error: list[float]) -> list[float]:
    """Error rate among the i first items, for i = 1..n, of items already in confidence order."""
    out, wrong = [], 0.0
    for i, e in enumerate(error, start=1):
        wrong += e
        out.append(wrong / i)
    return out


def _loop_aurc(error: np.ndarray, conf: np.ndarray) -> float:
    order = sorted(range(len(error)), key=lambda t: -conf[t])
    risks = _loop_risks([float(error[t]) for t in order])
    return sum(risks) / len(risks)


def _loop_selective(error: np.ndarray, conf: np.ndarray, c: float) -> float:
    order = sorted(range(len(error)), key=lambda t: -conf[t])
    m = math.ceil(round(c * len(error), 9))
    return sum(float(error[t]) for t in order[:m]) / m


def _over_tie_orders(error: np.ndarray, conf: np.ndarray) -> list[list[float]]:
    """Every order of the items consistent with decreasing confidence (ties permuted), as error lists."""
    levels = sorted(set(conf.tolist()), reverse=True)
    blocks = [[float(error[t]) for t in range(len(error)) if conf[t] == v] for v in levels]
    orders: list[list[float]] = [[]]
    for b in blocks:
        orders = [o + list(p) for o in orders for p in itertools.permutations(b)]
    return orders


def _data(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    conf = rng.random(n)
    error = (rng.random(n) < 0.6 - 0.5 * conf).astype(float)  # surer items err less
    if ties:
        conf = np.round(conf * 3) / 3
    return error, conf


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_aurc_and_selective_risk_equal_a_direct_loop_without_ties(seed: int) -> None:
    error, conf = _data(seed, 300, ties=False)
    assert float(aurc(error, conf)) == pytest.approx(_loop_aurc(error, conf), abs=1e-12)
    for c in (0.01, 0.1, 0.5, 0.7, 0.999, 1.0):
        assert float(selective_risk(error, conf, c)) == pytest.approx(_loop_selective(error, conf, c), abs=1e-12)
    cov, risk = risk_coverage_curve(error, conf)
    order = np.argsort(-conf)
    assert risk == pytest.approx(_loop_risks(error[order].tolist()), abs=1e-12)
    assert cov.tolist() == [(i + 1) / 300 for i in range(300)]


@pytest.mark.parametrize("seed", range(6))
def test_ties_are_the_mean_over_every_order_of_the_tied_items(seed: int) -> None:
    error, conf = _data(seed, 7, ties=True)
    orders = _over_tie_orders(error, conf)
    curves = np.array([_loop_risks(o) for o in orders])
    assert float(aurc(error, conf)) == pytest.approx(curves.mean(axis=1).mean(), abs=1e-12)
    _, risk = risk_coverage_curve(error, conf)
    assert risk == pytest.approx(curves.mean(axis=0), abs=1e-12)
    for c in (1 / 7, 0.3, 0.5, 0.8, 1.0):
        m = math.ceil(round(c * 7, 9))
        assert float(selective_risk(error, conf, c)) == pytest.approx(curves[:, m - 1].mean(), abs=1e-12)


def test_constant_confidence_gives_the_error_rate_everywhere() -> None:
    error = np.array([1, 0, 0, 1, 0], dtype=float)
    conf = np.full(5, 0.7)
    assert float(aurc(error, conf)) == pytest.approx(0.4)
    assert float(selective_risk(error, conf, 0.2)) == pytest.approx(0.4)
    assert risk_coverage_curve(error, conf)[1] == pytest.approx([0.4] * 5)


def test_bootstrap_weights_are_repeated_items() -> None:
    error, conf = _data(5, 40, ties=True)
    rng = np.random.default_rng(9)
    w = rng.multinomial(40, np.full(40, 1 / 40), size=3).astype(float)
    batch_a, batch_s = aurc(error, conf, w), selective_risk(error, conf, 0.35, w)
    assert batch_a.shape == (3,) and batch_s.shape == (3,)
    for row in range(3):
        rep = np.repeat(np.arange(40), w[row].astype(int))
        assert batch_a[row] == pytest.approx(float(aurc(error[rep], conf[rep])), abs=1e-12)
        assert batch_s[row] == pytest.approx(float(selective_risk(error[rep], conf[rep], 0.35)), abs=1e-12)


def test_ceiling_of_the_answered_count_is_not_fooled_by_rounding() -> None:
    # 0.7 * 10 = 7.000000000000001 in floating point: ⌈·⌉ must still answer 7 items, not 8
    error = np.array([0] * 7 + [1] * 3, dtype=float)
    conf = np.linspace(1, 0.1, 10)
    assert float(selective_risk(error, conf, 0.7)) == 0.0
    assert float(selective_risk(error, conf, 0.71)) == pytest.approx(1 / 8)


def test_coverage_at_risk_is_the_largest_coverage_within_the_risk() -> None:
    error, conf = _data(3, 200, ties=True)
    cov, risk = risk_coverage_curve(error, conf)
    for target in (0.05, 0.1, 0.2, 1.0):
        brute = max([c for c, r in zip(cov, risk) if r <= target + 1e-12], default=0.0)
        assert coverage_at_risk(error, conf, target) == brute
    assert coverage_at_risk([1, 1], [0.9, 0.1], 0.5) == 0.0


def test_top_label_probability_is_the_confidence() -> None:
    proba = [[0.7, 0.2, 0.1], [0.1, 0.5, 0.4], [0.3, 0.3, 0.4]]
    e, c = selective_items(["a", "c", "c"], None, proba, ["a", "b", "c"])
    assert e.tolist() == [0.0, 1.0, 0.0] and c.tolist() == [0.7, 0.5, 0.4]


def test_reject_label_is_one_operating_point() -> None:
    e, c = selective_items(["a", "b", "a", "b"], ["a", "?", "b", "?"], reject_label="?")
    assert c.tolist() == [1.0, 0.0, 1.0, 0.0]
    assert float(selective_risk(e, c, 0.5)) == 0.5  # the two answered items, one wrong
    assert math.isnan(float(selective_risk(e, c, 0.75)))  # beyond the share answered: abstentions have no answer
    assert math.isnan(float(aurc(e, c)))


def test_bad_inputs_are_refused_in_one_sentence() -> None:
    for bad in (0, -0.1, 1.01, "x", float("nan"), True):
        with pytest.raises(InputError, match="greater than 0 and at most 1"):
            check_coverage(bad)
    assert check_coverage("1") == 1.0
    with pytest.raises(InputError, match="also a true class"):
        check_reject_label("a", ["a", "b"])
    with pytest.raises(InputError, match="also a true class"):
        selective_items(["a", "b"], ["a", "b"], reject_label="b")
    with pytest.raises(InputError, match="needs a confidence"):
        selective_items(["a", "b"], ["a", "b"])


def test_item_bootstrap_estimates_equal_the_engine_and_rank_a_confident_system_first() -> None:
    from advisor.stats._items import compare_scored

    rng = np.random.default_rng(4)
    n, k = 300, 4
    y = rng.integers(0, k, n)
    logits = rng.normal(0, 1, (n, k))
    sharp = logits.copy()
    sharp[np.arange(n), y] += 2.0  # knows the class, and is surer when right
    soft = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    good = np.exp(sharp) / np.exp(sharp).sum(axis=1, keepdims=True)
    r = compare_scored(y, {"good": good, "noise": soft}, list(range(k)), metrics=["aurc", "selective_risk"],
                       params={"coverage": 0.5}, n_resamples=200, seed=1)
    for name, p in (("good", good), ("noise", soft)):
        e = (p.argmax(axis=1) != y).astype(float)
        assert r.estimates["aurc"][name] == pytest.approx(float(aurc(e, p.max(axis=1))), abs=1e-12)
        assert r.estimates["selective_risk"][name] == pytest.approx(float(selective_risk(e, p.max(axis=1), 0.5)),
                                                                    abs=1e-12)
        low, high = r.intervals["aurc"][name]
        assert low <= r.estimates["aurc"][name] <= high
    assert r.winners["aurc"] == ["good"] and r.winners["selective_risk"] == ["good"]  # lower is better
    with pytest.raises(InputError, match="needs its parameter coverage"):
        compare_scored(y, {"good": good}, list(range(k)), metrics=["selective_risk"], n_resamples=200)
