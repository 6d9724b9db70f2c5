"""Item-level bootstrap of score metrics (issue 11): each resample equals the metric recomputed from
scratch (scikit-learn, expected-cost formula) on the resampled items; paired comparisons; Holm winners."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from advisor._exceptions import InputError
from advisor.engine._costs import expected_cost
from advisor.stats._compare import familywise_winners
from advisor.stats._items import ScoredSystem, compare_scored
from tests.test_scores_oracles import _plain_ece

TOL = 1e-9


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_weighted_resample_equals_recomputation(k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.dirichlet(np.ones(k), n)
    p[: n // 3] = np.round(p[: n // 3], 1)  # ties
    p[: n // 3] /= p[: n // 3].sum(axis=1, keepdims=True)
    costs = rng.random((k, k))
    np.fill_diagonal(costs, 0)
    ids = ["roc_auc", "average_precision", "log_loss", "brier", "ece", "expected_cost", "normalized_expected_cost"]
    ids += ["brier_binary"] if k == 2 else []
    sysm = ScoredSystem(y, p, k, 1 if k == 2 else None, None, costs, None, ids)
    for _ in range(5):
        idx = np.sort(rng.integers(0, n, n))
        if len(set(y[idx])) < k:
            continue
        w = np.bincount(idx, minlength=n).astype(float)
        got = {m: float(v[0]) for m, v in sysm.evaluate(w[None]).items()}
        yr, pr = y[idx], p[idx]
        if k == 2:
            assert abs(got["roc_auc"] - skm.roc_auc_score(yr, pr[:, 1])) < TOL
            assert abs(got["average_precision"] - skm.average_precision_score(yr, pr[:, 1])) < TOL
            assert abs(got["brier_binary"] - skm.brier_score_loss(yr, pr[:, 1])) < TOL
        else:
            assert abs(got["roc_auc"] - skm.roc_auc_score(yr, pr, multi_class="ovr", labels=list(range(k)))) < TOL
            assert abs(got["average_precision"] - skm.average_precision_score(np.eye(k)[yr], pr)) < TOL
        assert abs(got["log_loss"] - skm.log_loss(yr, pr, labels=list(range(k)))) < TOL
        assert abs(got["brier"] - np.mean(((pr - np.eye(k)[yr]) ** 2).sum(axis=1))) < TOL
        assert abs(got["ece"] - _plain_ece(yr, pr, 15, "equal_mass")) < TOL
        cm = np.zeros((k, k))
        np.add.at(cm, (yr, np.argmin(pr @ costs, axis=1)), 1)
        assert abs(got["expected_cost"] - expected_cost(cm, costs)) < TOL


def test_paired_comparison_separates_a_clear_winner_and_keeps_ties_together() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    noise = rng.normal(0, 1, 400)
    systems = {"good": y + 0.5 * noise, "same": y + 0.5 * noise + 1e-12 * rng.normal(size=400),
               "bad": y + 3 * rng.normal(0, 1, 400)}
    r = compare_scored(y, systems, [0, 1], positive_label=1, metrics=["roc_auc", "average_precision"],
                       n_resamples=300, seed=0)
    assert set(r.winners["roc_auc"]) == {"good", "same"}
    d = r.to_dict()
    assert set(d["metrics"]["good"]) == {"roc_auc", "average_precision"}
    assert d["rank_intervals"]["roc_auc"]["bad"] == [3.0, 3.0]
    assert "multiple comparisons with the best" in d["method"]


def test_against_the_best_keeps_each_best_system_with_20_equal_systems() -> None:
    # 20 exchangeable systems, each of them a best one: each against the top at one-sided α/19 drops a best system in
    # at most α of the cases (tests/test_familywise.py has the argument); over 200 (replication, system) cases at
    # most 5 % plus three binomial standard deviations (19)
    rng = np.random.default_rng(7)
    dropped = 0
    for rep in range(10):
        y = rng.integers(0, 2, 200)
        systems = {f"s{i}": y + rng.normal(0, 1.5, 200) for i in range(20)}
        r = compare_scored(y, systems, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=400, seed=rep)
        dropped += 20 - len(r.winners["roc_auc"])
    assert dropped <= 19, dropped


def test_familywise_winners_with_no_pairs() -> None:
    assert familywise_winners(["a"], [0.3], {}) == ["a"]


def test_item_bootstrap_bad_input() -> None:
    with pytest.raises(InputError, match="needs probability columns"):
        compare_scored([0, 1, 1], {"a": [0.1, 0.5, 0.9]}, [0, 1], positive_label=1, metrics=["log_loss"])


@pytest.mark.parametrize("seed", range(5))
def test_untied_fast_path_equals_sklearn(seed: int) -> None:
    from advisor.engine._scores import Ranking

    rng = np.random.default_rng(seed)
    n = 200
    y = (rng.random(n) < 0.2).astype(int)
    s = y + rng.normal(0, 1, n)
    r = Ranking(s)
    assert not r.tied
    for _ in range(5):
        idx = rng.integers(0, n, n)
        w = np.bincount(idx, minlength=n).astype(float)
        auc, ap = r.binary(w[None], y == 1)
        assert abs(auc[0] - skm.roc_auc_score(y[idx], s[idx])) < TOL
        assert abs(ap[0] - skm.average_precision_score(y[idx], s[idx])) < TOL
        auc32, ap32 = r.binary(w[None].astype(np.float32), y == 1)  # the bootstrap's exact float32 counts
        assert abs(auc32[0] - auc[0]) < TOL and abs(ap32[0] - ap[0]) < TOL
