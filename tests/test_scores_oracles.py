"""Score, probability and cost metrics against independent implementations, to 1e-9 (issue 11).

Oracles: scikit-learn (roc_auc_score in every multi_class/average mode, average_precision_score,
log_loss, brier_score_loss), Ferrer's ``expected-cost`` package (EC, NEC) and a plain ECE written
here. Inputs: random, with ties, constant scores, probabilities 0 and 1, a single class present.
"""

from __future__ import annotations

import numpy as np
import pytest
from expected_cost import ec as ecpkg
from sklearn import metrics as skm

from advisor._exceptions import InputError
from advisor.engine import ConfusionMatrix
from advisor.engine._costs import bayes_decisions, expected_cost, normalized_expected_cost
from advisor.engine._scores import (
    average_precision,
    brier_binary,
    calibration_loss,
    ece,
    log_loss_details,
    roc_auc,
)

TOL = 1e-9


def _proba(rng: np.random.Generator, n: int, k: int, kind: str) -> np.ndarray:
    if kind == "random":
        p = rng.dirichlet(np.ones(k), size=n)
    elif kind == "ties":
        p = rng.integers(0, 4, size=(n, k)).astype(float) + 1e-3
        p /= p.sum(axis=1, keepdims=True)
        p = np.round(p, 1)
        p[:, -1] = 1.0 - p[:, :-1].sum(axis=1)
        p = np.clip(p, 0, 1)
        p /= p.sum(axis=1, keepdims=True)
    elif kind == "constant":
        p = np.tile(rng.dirichlet(np.ones(k)), (n, 1))
    else:  # zeros and ones
        p = np.eye(k)[rng.integers(0, k, size=n)]
    return p


CASES = [(seed, n, k, kind) for seed in range(6) for n, k in ((7, 2), (40, 2), (60, 3), (90, 4))
         for kind in ("random", "ties", "constant", "hard")]


def _data(seed: int, n: int, k: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)  # every class present
    return y, _proba(rng, n, k, kind)


@pytest.mark.parametrize(("seed", "n", "k", "kind"), CASES)
def test_roc_auc_and_ap_match_sklearn(seed: int, n: int, k: int, kind: str) -> None:
    y, p = _data(seed, n, k, kind)
    labels = list(range(k))
    if k == 2:
        assert abs(roc_auc(y, p[:, 1], labels, positive_label=1) - skm.roc_auc_score(y, p[:, 1])) < TOL
        assert abs(roc_auc(y, p, labels, positive_label=1) - skm.roc_auc_score(y, p[:, 1])) < TOL
        assert abs(average_precision(y, p[:, 1], labels, positive_label=1)
                   - skm.average_precision_score(y, p[:, 1])) < TOL
        return
    for mc in ("ovr", "ovo"):
        for avg in ("macro", "weighted"):
            ours = roc_auc(y, p, labels, multi_class=mc, average=avg)
            assert abs(ours - skm.roc_auc_score(y, p, multi_class=mc, average=avg, labels=labels)) < TOL, (mc, avg)
    per = roc_auc(y, p, labels, multi_class="ovr", average=None)
    ref = [skm.roc_auc_score(y == c, p[:, c]) for c in range(k)]
    assert np.allclose(per, ref, atol=TOL, rtol=0)
    # average precision is the positive class's (issue 19 item 10): several classes are refused, with how to get it
    with pytest.raises(InputError, match="positive class"):
        average_precision(y, p, labels)


@pytest.mark.parametrize(("seed", "n", "k", "kind"), CASES)
def test_log_loss_and_brier_match_sklearn(seed: int, n: int, k: int, kind: str) -> None:
    y, p = _data(seed, n, k, kind)
    d = log_loss_details(y, p, list(range(k)))
    assert abs(d["log_loss"] - skm.log_loss(y, p, labels=list(range(k)))) < TOL * max(1.0, d["log_loss"])
    assert d["zero_probability_items"] == int((p[np.arange(n), y] == 0).sum())
    if k == 2:
        assert abs(brier_binary(y, p, [0, 1], positive_label=1) - skm.brier_score_loss(y, p[:, 1])) < TOL


def _plain_ece(y: np.ndarray, p: np.ndarray, bins: int, binning: str) -> float:
    conf = p.max(axis=1)
    correct = (p.argmax(axis=1) == y).astype(float)
    n = len(y)
    total = 0.0
    if binning == "equal_mass":
        # issue 20: tied confidences share a bin, so that the value does not depend on the row order; each
        # cut ⌊b n / B⌋ that falls strictly inside a run of equal confidences moves to the nearer end of the
        # run (the lower end when both are as near). (The expectation was "ties in item order" before.)
        order = sorted(range(n), key=lambda t: conf[t])
        cuts = [0]
        for b in range(1, bins):
            c = (b * n) // bins
            if 0 < c < n and conf[order[c - 1]] == conf[order[c]]:  # strictly inside a run of ties
                start, end = c, c
                while start > 0 and conf[order[start - 1]] == conf[order[c]]:
                    start -= 1
                while end < n and conf[order[end]] == conf[order[c]]:
                    end += 1
                c = start if c - start <= end - c else end
            cuts.append(c)
        cuts.append(n)
        for lo, hi in zip(cuts[:-1], cuts[1:]):
            members = order[lo:hi] if hi > lo else []
            total += abs(sum(correct[t] - conf[t] for t in members))
    else:
        for b in range(bins):
            lo, hi = b / bins, (b + 1) / bins
            members = [t for t in range(n) if (conf[t] > lo or b == 0) and conf[t] <= hi]
            total += abs(sum(correct[t] - conf[t] for t in members))
    return total / n


@pytest.mark.parametrize(("seed", "n", "k", "kind"), CASES)
@pytest.mark.parametrize("bins", [1, 3, 15, 200])
def test_ece_matches_plain_reimplementation(seed: int, n: int, k: int, kind: str, bins: int) -> None:
    y, p = _data(seed, n, k, kind)
    for binning in ("equal_mass", "equal_width"):
        assert abs(ece(y, p, list(range(k)), n_bins=bins, binning=binning) - _plain_ece(y, p, bins, binning)) < TOL


def _ecpkg_values(y: np.ndarray, d: np.ndarray, k: int, costs: np.ndarray, priors: np.ndarray | None) -> tuple[float, float]:
    # expected-cost 1.0's average_cost() calls a private scikit-learn helper whose signature changed
    # (ValueError with scikit-learn 1.9), so R_ij = share of class i given decision j is counted here
    # and the package's own average_cost_from_confusion_matrix does the rest
    R = np.zeros((k, k))
    for t, j in zip(y, d):
        R[t, j] += 1
    R /= R.sum(axis=1, keepdims=True)
    pri = ecpkg.get_priors_from_data(y, k) if priors is None else np.asarray(priors)
    cm = ecpkg.CostMatrix(costs)
    return (ecpkg.average_cost_from_confusion_matrix(R, pri, cm, adjusted=False),
            ecpkg.average_cost_from_confusion_matrix(R, pri, cm, adjusted=True))


@pytest.mark.parametrize("seed", range(30))
def test_expected_cost_matches_expected_cost_package(seed: int) -> None:
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 5))
    n = int(rng.integers(k, 80))
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)
    d = rng.integers(0, k, size=n) if seed % 3 else np.zeros(n, dtype=int)  # a constant system too
    costs = rng.integers(0, 6, size=(k, k)).astype(float) * rng.random((k, k)).round(2)
    np.fill_diagonal(costs, 0.0 if seed % 2 else rng.random(k).round(2))
    costs[0, 1] += 1.0
    costs[1, 0] += 1.0
    cm = np.zeros((k, k))
    np.add.at(cm, (y, d), 1)
    for priors in (None, rng.dirichlet(np.ones(k))):
        ref_ec, ref_nec = _ecpkg_values(y, d, k, costs, priors)
        assert abs(expected_cost(cm, costs, priors) - ref_ec) < TOL
        assert abs(normalized_expected_cost(cm, costs, priors) - ref_nec) < TOL


def test_binary_costs_and_medical_screening_numbers() -> None:
    cm = ConfusionMatrix([[80.0, 20.0], [10.0, 90.0]], ["neg", "pos"])
    fnr, fpr = 0.1, 0.2
    ec = expected_cost(cm, {"fn": 10, "fp": 1}, {"pos": 0.02, "neg": 0.98}, positive_label="pos")
    assert abs(ec - (10 * 0.02 * fnr + 0.98 * fpr)) < TOL
    nec = normalized_expected_cost(cm, {"fn": 10, "fp": 1}, [0.98, 0.02], positive_label="pos")
    assert abs(nec - ec / min(10 * 0.02, 0.98)) < TOL


def test_bayes_decisions_match_expected_cost_package() -> None:
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(3), size=50)
    c = rng.random((3, 3))
    np.fill_diagonal(c, 0)
    pi = np.array([0.2, 0.5, 0.3])
    rho = p.mean(axis=0) / p.mean(axis=0).sum()
    ours = bayes_decisions(p, [0, 1, 2], c, pi, rho)
    adj = p * pi / rho
    adj /= adj.sum(axis=1, keepdims=True)
    ref, _ = ecpkg.bayes_decisions(np.log(adj), ecpkg.CostMatrix(c), score_type="log_posteriors")
    assert (ours == ref).all()


def test_single_class_present_is_undefined() -> None:
    y = np.zeros(10, dtype=int)
    s = np.linspace(0, 1, 10)
    assert np.isnan(roc_auc(y, s, [0, 1], positive_label=1))
    assert np.isnan(average_precision(y, s, [0, 1], positive_label=1))
    with pytest.warns(skm._ranking.UndefinedMetricWarning):  # scikit-learn: undefined, returns NaN
        assert np.isnan(skm.roc_auc_score(y, s))
    assert abs(log_loss_details(y, np.c_[1 - s, s], [0, 1])["log_loss"]
               - skm.log_loss(y, np.c_[1 - s, s], labels=[0, 1])) < TOL


def test_calibration_loss_is_positive_for_overconfident_and_small_for_calibrated() -> None:
    rng = np.random.default_rng(0)
    q = rng.uniform(0.05, 0.95, size=4000)
    y = (rng.random(4000) < q).astype(int)
    calibrated = np.c_[1 - q, q]
    sharp = np.clip(q + (q - 0.5) * 0.9, 0.001, 0.999)
    over = np.c_[1 - sharp, sharp]
    assert abs(calibration_loss(y, calibrated, [0, 1])) < 0.01
    assert calibration_loss(y, over, [0, 1]) > 0.05


@pytest.mark.parametrize(("call", "message"), [
    (lambda: roc_auc([0, 1, 2], [0.1, 0.2, 0.3], positive_label=1), "single score column needs a binary task"),
    (lambda: ece([0, 1], [[0.5, 0.6], [0.5, 0.5]]), "sum to 1 within 1e-3"),
    (lambda: ece([0, 1], [[np.nan, 1.0], [0.5, 0.5]]), "missing"),
    (lambda: expected_cost([[1, 0], [0, 1]], {"fn": -1, "fp": 1}, positive_label=1), "non-negative"),
    (lambda: expected_cost([[1, 0], [0, 1]], None, {0: 0.5, 1: 0.6}), "sum to 1"),
])
def test_bad_input_is_one_sentence(call, message: str) -> None:
    with pytest.raises(InputError, match=message) as err:
        call()
    assert str(err.value).count(". ") == 0 or str(err.value).endswith(".")


@pytest.mark.parametrize("seed", range(10))
def test_engine_default_expected_cost_equals_the_general_formula(seed: int) -> None:
    from advisor.engine import compute_metrics

    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 6))
    cm = rng.integers(0, 7, (k, k)).astype(float) * (rng.random((k, k)) < 0.7)
    cm[0, 0] += 1
    cm[1, 1] += 1
    got = compute_metrics(cm, ["expected_cost", "normalized_expected_cost"])
    a = cm.sum(axis=1)
    if (a > 0).all():
        assert abs(got["expected_cost"] - expected_cost(cm)) < TOL
        assert abs(got["normalized_expected_cost"] - normalized_expected_cost(cm)) < TOL
    else:  # a class without items has prior 0 at the test shares: EC is still the error rate
        assert abs(got["expected_cost"] - (cm.sum() - np.trace(cm)) / cm.sum()) < TOL
