"""Issue 21, item 7: the decision, calibration and forecast metrics against independent oracles.

* TPR at an FPR budget — scikit-learn's ``roc_curve`` (best ``tpr`` among the points with ``fpr ≤ f``);
* precision and recall at K — a direct count over every random order of a tied cut (the fractional share is
  the expectation over those orders);
* calibration intercept and slope — statsmodels' GLM (binomial, logit link; the intercept with an offset);
* the loess smoother of the ICI — statsmodels' ``lowess`` (it=0, delta=0, the same span): netcal needs torch
  and relplot's smooth ECE is another quantity (a kernel smoother with its own bandwidth), so neither is used;
* net benefit — ``dcurves`` (Vickers et al.);
* the ranked probability score — a direct double loop over items and cumulative categories.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from advisor.engine._decisions import (
    calibration_fit,
    ici,
    loess_curve,
    net_benefit,
    precision_recall_at_k,
    ranked_probability_score,
    rps_skill,
    tpr_at_fpr,
)


def _data(seed: int, n: int = 400, ties: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = y * 0.8 + rng.normal(0, 1, n)
    if ties:
        s = np.round(s, 1)
    return y, s


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("budget", [0.01, 0.05, 0.2, 0.5])
def test_tpr_at_fpr_equals_roc_curve(seed: int, budget: float) -> None:
    from sklearn.metrics import roc_curve

    y, s = _data(seed, ties=seed % 2 == 0)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    ok = fpr <= budget
    expected = tpr[ok].max()
    got, threshold = tpr_at_fpr(y, s, budget)
    assert float(got) == pytest.approx(expected, abs=1e-12)
    # the reported threshold gives that TPR and keeps the FPR within the budget
    flagged = s >= threshold
    assert flagged[y == 1].mean() == pytest.approx(expected, abs=1e-12)
    assert flagged[y == 0].mean() <= budget + 1e-12


def test_tpr_at_fpr_weights_are_repeated_items() -> None:
    y, s = _data(3, n=60, ties=True)
    w = np.random.default_rng(1).integers(0, 4, 60).astype(float)
    rep = np.repeat(np.arange(60), w.astype(int))
    a = tpr_at_fpr(y, s, 0.1, w)
    b = tpr_at_fpr(y[rep], s[rep], 0.1)
    assert float(a[0]) == pytest.approx(float(b[0]))
    batch = tpr_at_fpr(y, s, 0.1, np.stack([w, np.ones(60)]))
    assert float(batch[0][0]) == pytest.approx(float(a[0])) and float(batch[0][1]) == float(tpr_at_fpr(y, s, 0.1)[0])


def test_precision_at_k_without_ties_counts_the_top_k() -> None:
    y, s = _data(5, n=300)
    for k in (1, 10, 57, 300):
        top = np.argsort(-s, kind="stable")[:k]
        p, r = precision_recall_at_k(y, s, k)
        assert float(p) == pytest.approx(y[top].sum() / k)
        assert float(r) == pytest.approx(y[top].sum() / y.sum())


def test_precision_at_k_ties_are_the_mean_over_orders_of_the_tie() -> None:
    y = np.array([1, 0, 1, 1, 0, 0, 1])
    s = np.array([0.9, 0.5, 0.5, 0.5, 0.5, 0.2, 0.1])
    for k in range(1, 8):
        tps = []
        tie = [1, 2, 3, 4]
        for perm in itertools.permutations(tie):
            order = [0, *perm, 5, 6]
            tps.append(y[order[:k]].sum())
        p, r = precision_recall_at_k(y, s, k)
        assert float(p) == pytest.approx(np.mean(tps) / k)
        assert float(r) == pytest.approx(np.mean(tps) / y.sum())


@pytest.mark.parametrize("seed", range(6))
def test_calibration_intercept_and_slope_equal_statsmodels_glm(seed: int) -> None:
    import statsmodels.api as sm

    rng = np.random.default_rng(seed)
    n = 800
    lin = rng.normal(-1.5, 1.2, n)
    y = (rng.random(n) < 1 / (1 + np.exp(-lin))).astype(float)
    p = 1 / (1 + np.exp(-(0.9 + 1.6 * lin)))  # miscalibrated: too high, too extreme
    logit = np.log(p / (1 - p))
    slope_fit = sm.GLM(y, sm.add_constant(logit), family=sm.families.Binomial()).fit(tol=1e-12)
    icpt_fit = sm.GLM(y, np.ones((n, 1)), family=sm.families.Binomial(), offset=logit).fit(tol=1e-12)
    fit = calibration_fit(y, p)
    assert float(fit["slope"]) == pytest.approx(slope_fit.params[1], abs=1e-8)
    assert float(fit["slope_intercept"]) == pytest.approx(slope_fit.params[0], abs=1e-8)
    assert float(fit["intercept"]) == pytest.approx(icpt_fit.params[0], abs=1e-8)
    assert float(fit["observed_expected"]) == pytest.approx(y.sum() / p.sum())


def test_calibration_fit_batches_weights() -> None:
    rng = np.random.default_rng(2)
    y = (rng.random(200) < 0.3).astype(float)
    p = np.clip(rng.random(200) * 0.6, 0.01, 0.99)
    w = rng.integers(0, 3, (3, 200)).astype(float)
    batch = calibration_fit(y, p, w)
    for i in range(3):
        one = calibration_fit(y, p, w[i])
        assert float(batch["slope"][i]) == pytest.approx(float(one["slope"]), abs=1e-9)
        assert float(batch["intercept"][i]) == pytest.approx(float(one["intercept"]), abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_loess_equals_statsmodels_lowess(seed: int) -> None:
    from statsmodels.nonparametric.smoothers_lowess import lowess

    rng = np.random.default_rng(seed)
    n = 90
    p = rng.random(n) * 0.8 + 0.05
    y = (rng.random(n) < p ** 1.5).astype(float)
    ref = lowess(y, p, frac=0.75, it=0, delta=0.0, return_sorted=True)
    grid, f = loess_curve(y, p)
    assert grid == pytest.approx(ref[:, 0])
    assert f == pytest.approx(ref[:, 1], abs=1e-9)
    expected_ici = np.mean(np.abs(lowess(y, p, frac=0.75, it=0, delta=0.0, return_sorted=False) - p))
    assert float(ici(y, p)) == pytest.approx(expected_ici, abs=1e-9)


def test_ici_large_sample_interpolates_close_to_exact() -> None:
    from statsmodels.nonparametric.smoothers_lowess import lowess

    rng = np.random.default_rng(7)
    n = 3000
    p = rng.beta(2, 5, n)
    y = (rng.random(n) < np.clip(p * 1.3, 0, 1)).astype(float)
    exact = np.mean(np.abs(lowess(y, p, frac=0.75, it=0, delta=0.0, return_sorted=False) - p))
    assert float(ici(y, p)) == pytest.approx(exact, abs=2e-3)


@pytest.mark.parametrize("seed", range(4))
def test_net_benefit_equals_dcurves(seed: int) -> None:
    pd = pytest.importorskip("pandas")
    dcurves = pytest.importorskip("dcurves")
    rng = np.random.default_rng(seed)
    n = 500
    p = rng.random(n)
    y = (rng.random(n) < p * 0.6).astype(int)
    thresholds = [0.05, 0.1, 0.2, 0.3, 0.5]
    df = pd.DataFrame({"y": y, "model": p})
    out = dcurves.dca(data=df, outcome="y", modelnames=["model"], thresholds=thresholds)
    nb, treat_all = net_benefit(y, p, thresholds)
    model = out[out["model"] == "model"].sort_values("threshold")["net_benefit"].to_numpy()
    everyone = out[out["model"] == "all"].sort_values("threshold")["net_benefit"].to_numpy()
    assert nb == pytest.approx(model, abs=1e-12)
    assert treat_all == pytest.approx(everyone, abs=1e-12)


def _rps_direct(y: np.ndarray, proba: np.ndarray) -> float:
    n, k = proba.shape
    total = 0.0
    for t in range(n):
        for j in range(k - 1):
            f = sum(proba[t, i] for i in range(j + 1))
            o = 1.0 if y[t] <= j else 0.0
            total += (f - o) ** 2
    return total / n


@pytest.mark.parametrize("k", [2, 3, 5])
def test_rps_equals_direct_double_loop(k: int) -> None:
    rng = np.random.default_rng(k)
    proba = rng.dirichlet(np.ones(k), 120)
    y = rng.integers(0, k, 120)
    assert float(ranked_probability_score(y, proba)) == pytest.approx(_rps_direct(y, proba), abs=1e-12)
    shares = np.bincount(y, minlength=k) / 120
    clim = _rps_direct(y, np.tile(shares, (120, 1)))
    assert float(rps_skill(y, proba)) == pytest.approx(1 - _rps_direct(y, proba) / clim, abs=1e-12)


def test_rps_of_one_hot_forecasts_is_the_mean_rank_distance() -> None:
    rng = np.random.default_rng(0)
    y, pred = rng.integers(0, 4, 50), rng.integers(0, 4, 50)
    assert float(ranked_probability_score(y, np.eye(4)[pred])) == pytest.approx(np.abs(y - pred).mean())


def test_calibration_fit_of_bootstrap_resamples_equals_statsmodels() -> None:
    """Risks of exactly 0 (logit clipped to −36.04) with events among them: plain Newton from slope 1 left the
    optimum on some resamples (slope 6.9 where the GLM gives 0.42), which the paired test's spread then carried."""
    import csv
    from pathlib import Path

    import statsmodels.api as sm

    rows = list(csv.DictReader(open(Path(__file__).resolve().parent.parent / "examples/scores/risk_overconfident.csv")))
    y = np.array([r["y_true"] == "yes" for r in rows], dtype=float)
    p = np.array([float(r["p_yes"]) for r in rows])
    rng = np.random.default_rng(7)
    w = np.stack([np.bincount(rng.integers(0, len(y), len(y)), minlength=len(y)) for _ in range(121)]).astype(float)
    batch = calibration_fit(y, p, w[[92, 103, 120]])
    eps = float(np.finfo(np.float64).eps)  # the one clipping constant: log loss's, as scikit-learn clips
    q = np.clip(p, eps, 1 - eps)
    logit = np.log(q / (1 - q))
    for j, i in enumerate((92, 103, 120)):
        ref = sm.GLM(y, sm.add_constant(logit), family=sm.families.Binomial(), freq_weights=w[i]).fit(tol=1e-12)
        off = sm.GLM(y, np.ones((len(y), 1)), family=sm.families.Binomial(), offset=logit,
                     freq_weights=w[i]).fit(tol=1e-12)
        assert float(batch["slope"][j]) == pytest.approx(ref.params[1], abs=1e-6)
        assert float(batch["slope_intercept"][j]) == pytest.approx(ref.params[0], abs=1e-6)
        assert float(batch["intercept"][j]) == pytest.approx(off.params[0], abs=1e-6)
