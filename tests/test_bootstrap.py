"""Bootstrap intervals from multinomial cell resampling (advisor.stats._bootstrap)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

import advisor
from advisor import ConfusionMatrix, InputError
from advisor.stats._bootstrap import bootstrap, jackknife_acceleration, quantiles
from advisor.engine._metrics import evaluate_batch

C3 = np.array([[80, 12, 8], [10, 60, 10], [6, 9, 105]], dtype=float)  # n = 300
Z975 = NormalDist().inv_cdf(0.975)


def items_of(counts: np.ndarray) -> np.ndarray:
    """Cell code (true * k + pred) of every item of an integer confusion matrix."""
    return np.repeat(np.arange(counts.size), counts.reshape(-1).astype(int))


def instance_bootstrap(counts: np.ndarray, ids: list[str], n_resamples: int, seed: int) -> dict[str, np.ndarray]:
    """The textbook bootstrap: draw n items with replacement, tabulate, evaluate."""
    k = counts.shape[0]
    codes = items_of(counts)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, codes.size, size=(n_resamples, codes.size))
    offset = np.arange(n_resamples)[:, None] * k * k
    mats = np.bincount((offset + codes[idx]).ravel(), minlength=n_resamples * k * k).reshape(n_resamples, k, k)
    return evaluate_batch(mats.astype(float), ids)


def test_public_name_is_lazy_exported():
    assert advisor.bootstrap is bootstrap


def test_mapping_interface_and_estimate_is_the_observed_value():
    r = bootstrap(C3, n_resamples=200, seed=0)
    assert list(r) == list(advisor.compute_metrics(C3))
    assert set(r["accuracy"]) == {"estimate", "low", "high"}
    assert r["accuracy"]["estimate"] == pytest.approx(245 / 300)
    for m, v in r.items():
        assert v["low"] <= v["high"], m
    # the method is chosen per metric by default (issue 20): exact for a proportion, BCa otherwise
    assert (r.n_resamples, r.confidence, r.method, r.seed) == (200, 0.95, "auto", 0)
    assert r.methods["accuracy"] == "clopper_pearson" and r.methods["mcc"] in ("bca", "basic")
    d = r.to_dict()
    assert d["metrics"]["mcc"]["nan_resamples"] == 0 and d["convention"] == "omit"  # the default (issue 22)


def test_cell_bootstrap_matches_instance_bootstrap_within_monte_carlo_error():
    # Both draw B = 3000 resamples. Tolerances (normal approximation of the resampling distribution,
    # standard deviation σ):
    # * SD: the relative standard error of a sample SD is ≈ 1/√(2B); the difference of two
    #   independent estimates has ≈ 1/√B = 1.8 %; 4 of those → 7.3 %, rounded to 8 %.
    # * 2.5 % / 97.5 % quantiles: SE = √(q(1−q)/B) / φ(z_q) · σ = 0.049 σ each, 0.069 σ for the
    #   difference; 4 of those → 0.28 σ; plus one lattice step of the metric on integer counts
    #   (≈ 1/n) because order statistics of discrete values jump: tolerance 0.28 σ + 1/n.
    ids = ["accuracy", "macro_f1", "mcc", "balanced_accuracy", "cohen_kappa"]
    B = 3000
    cell = bootstrap(C3, n_resamples=B, seed=11, metrics=ids, keep_resamples=True, method="percentile")
    inst = instance_bootstrap(C3, ids, B, seed=12)
    for m in ids:
        sd_cell = cell.std_error[m]
        sd_inst = float(np.std(inst[m], ddof=1))
        assert abs(sd_cell / sd_inst - 1) < 0.08, (m, sd_cell, sd_inst)
        lo, hi = np.quantile(inst[m], [0.025, 0.975])
        tol = 0.28 * sd_inst + 1 / 300
        assert abs(cell[m]["low"] - lo) < tol, (m, cell[m]["low"], lo)
        assert abs(cell[m]["high"] - hi) < tol, (m, cell[m]["high"], hi)
        # the means agree too (SE of a mean difference ≈ √2 σ/√B = 0.026 σ; 4 of those)
        assert abs(cell.resamples[m].mean() - inst[m].mean()) < 0.11 * sd_inst


def test_accuracy_resamples_are_binomial_and_interval_matches_wilson():
    n, correct = 400, 320  # accuracy 0.8
    cm = [[200, 40], [40, 120]]
    B = 4000
    r = bootstrap(cm, n_resamples=B, seed=3, metrics=["accuracy"], keep_resamples=True, method="percentile")
    x = r.resamples["accuracy"] * n
    assert np.allclose(x, np.round(x))  # whole numbers of correct items
    p = correct / n
    # mean and variance of Binomial(n, p)/n, within 4 Monte Carlo standard errors
    sd = math.sqrt(p * (1 - p) / n)
    assert abs(x.mean() / n - p) < 4 * sd / math.sqrt(B)
    assert abs(x.std(ddof=1) / n / sd - 1) < 4 / math.sqrt(2 * B)
    # exact binomial quantiles (computed with math.comb): the percentile interval is theirs up to
    # interpolation between adjacent counts (1/n) and Monte Carlo error
    pmf = [math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(n + 1)]
    cdf = np.cumsum(pmf)
    q_lo = (np.searchsorted(cdf, 0.025) ) / n
    q_hi = (np.searchsorted(cdf, 0.975)) / n
    assert abs(r["accuracy"]["low"] - q_lo) <= 1.5 / n
    assert abs(r["accuracy"]["high"] - q_hi) <= 1.5 / n
    # Wilson score interval: differs from the binomial quantiles by its skew correction only
    z = Z975
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert abs(r["accuracy"]["low"] - (centre - half)) < 0.01  # 0.5 σ
    assert abs(r["accuracy"]["high"] - (centre + half)) < 0.01


def test_reproducible_with_a_seed_and_independent_of_chunking(monkeypatch):
    a = bootstrap(C3, n_resamples=500, seed=42)
    b = bootstrap(C3, n_resamples=500, seed=42)
    assert dict(a) == dict(b)
    c = bootstrap(C3, n_resamples=500, seed=43)
    assert dict(a) != dict(c)
    import advisor.stats._bootstrap as mod

    monkeypatch.setattr(mod, "_CHUNK_CELLS", 9 * 4 * 7)  # chunks of 7 resamples
    d = bootstrap(C3, n_resamples=500, seed=42)
    assert dict(a) == dict(d)


def test_generator_seed_is_accepted():
    r = bootstrap(C3, n_resamples=200, seed=np.random.default_rng(5), metrics=["accuracy"])
    assert 0 < r["accuracy"]["low"] <= r["accuracy"]["high"] < 1


def test_progress_callback_reports_every_chunk(monkeypatch):
    import advisor.stats._bootstrap as mod

    monkeypatch.setattr(mod, "_CHUNK_CELLS", 9 * 4 * 100)
    calls: list[tuple[int, int]] = []
    bootstrap(C3, n_resamples=250, seed=0, metrics=["accuracy"], progress=lambda d, t: calls.append((d, t)))
    assert calls == [(100, 250), (200, 250), (250, 250)]


def test_jackknife_acceleration_of_accuracy_is_the_binomial_formula():
    # Leaving one item out: θ(1) = (np − 1)/(n − 1), θ(0) = np/(n − 1) ⇒ a = (1 − 2p)/(6 √(n p (1 − p))).
    cm = np.array([[30, 5], [15, 50]], dtype=float)
    n, p = 100.0, 0.8
    a = jackknife_acceleration(cm, ["accuracy"], positive_index=None, beta=1.0, undefined="zero")
    assert a[0] == pytest.approx((1 - 2 * p) / (6 * math.sqrt(n * p * (1 - p))), rel=1e-10)


def test_bca_runs_and_is_close_to_percentile_for_a_symmetric_case():
    cm = [[250, 250], [250, 250]]  # accuracy 0.5: a symmetric binomial, a = 0, z0 ≈ 0
    pct = bootstrap(cm, n_resamples=3000, seed=8, metrics=["accuracy", "mcc"])
    bca = bootstrap(cm, n_resamples=3000, seed=8, metrics=["accuracy", "mcc"], method="bca")
    assert bca.method == "bca"
    sd = 0.5 / math.sqrt(1000)
    for m in ("accuracy", "mcc"):
        assert bca[m]["estimate"] == pct[m]["estimate"]
        # same resamples, levels shifted only by z0's Monte Carlo noise (a few thousandths)
        assert abs(bca[m]["low"] - pct[m]["low"]) < 0.15 * sd * (2 if m == "mcc" else 1)
        assert abs(bca[m]["high"] - pct[m]["high"]) < 0.15 * sd * (2 if m == "mcc" else 1)


def test_bca_moves_towards_the_long_tail_for_a_skewed_case():
    cm = [[95, 2], [1, 2]]  # accuracy 0.97: left-skewed
    # BCa of the plain bootstrap's binomial; "kept" would also redraw the 5 % of resamples without the second class
    pct = bootstrap(cm, n_resamples=4000, seed=2, metrics=["accuracy"])
    bca = bootstrap(cm, n_resamples=4000, seed=2, metrics=["accuracy"], method="bca", classes="free")
    assert bca["accuracy"]["low"] <= pct["accuracy"]["low"]
    assert bca["accuracy"]["high"] <= pct["accuracy"]["high"] + 1e-12


def test_degenerate_perfect_classifier():
    for method in ("percentile", "bca"):
        r = bootstrap([[10, 0], [0, 10]], n_resamples=200, seed=0, metrics=["accuracy", "mcc"], method=method)
        assert r["accuracy"] == {"estimate": 1.0, "low": 1.0, "high": 1.0}
        assert r["mcc"]["low"] == r["mcc"]["high"] == 1.0


def test_omit_convention_leaves_undefined_resamples_out_and_counts_them():
    # MCC is undefined when either labeling is constant. The one item predicted as class 1 is missing
    # from (1 − 1/56)^56 ≈ 36.4 % of resamples, all five true class-1 items from ≈ 0.6 %: ≈ 36.6 %
    # in all (Monte Carlo SD with B = 1000: 1.5 points).
    cm = [[50, 1], [5, 0]]
    B = 1000
    r = bootstrap(cm, n_resamples=B, seed=5, metrics=["mcc", "accuracy"], undefined="omit")
    assert 0.30 * B < r.nan_resamples["mcc"] < 0.43 * B
    assert r.nan_resamples["accuracy"] == 0
    assert math.isfinite(r["mcc"]["low"]) and math.isfinite(r["mcc"]["high"])
    z = bootstrap(cm, n_resamples=B, seed=5, metrics=["mcc"], undefined="zero")
    assert z.nan_resamples["mcc"] == 0
    # every resample undefined: the interval is undefined too
    allnan = bootstrap([[50, 0], [1, 0]], n_resamples=200, seed=5, metrics=["mcc"], undefined="omit")
    assert allnan.nan_resamples["mcc"] == 200 and math.isnan(allnan["mcc"]["low"])


def test_binary_metrics_with_a_positive_label_and_infinite_values():
    cm = ConfusionMatrix([[60, 2], [10, 28]], labels=["neg", "pos"])
    r = bootstrap(cm, n_resamples=2000, seed=1, metrics=["recall", "lr_plus"], positive_label="pos")
    assert r["recall"]["estimate"] == pytest.approx(28 / 38)
    assert r["recall"]["low"] < 28 / 38 < r["recall"]["high"]
    # P(no false positive in a resample) = (1 − 2/100)^100 ≈ 13 %, so LR+ is +inf in the upper tail
    assert r["lr_plus"]["high"] == math.inf
    assert math.isfinite(r["lr_plus"]["low"])


def test_quantiles_helper():
    v = np.array([[1.0, np.inf, np.nan], [2.0, np.inf, np.nan], [np.inf, 1.0, np.nan]])
    assert quantiles(v, 0.5)[0] == 2.0
    assert quantiles(v, 0.5)[1] == np.inf
    assert np.isnan(quantiles(v, 0.5)[2])
    x = np.random.default_rng(0).normal(size=(101, 3))
    assert np.allclose(quantiles(x, 0.1), np.quantile(x, 0.1, axis=0))


def test_soft_counts_resample_round_n_items_and_keep_the_total_mass():
    soft = np.array([[40.5, 9.25], [5.0, 44.75]])  # total 99.5 -> 100 trials, scaled by 0.995
    r = bootstrap(soft, n_resamples=500, seed=0, metrics=["accuracy"], keep_resamples=True)
    assert r["accuracy"]["estimate"] == pytest.approx(85.25 / 99.5)
    assert r["accuracy"]["low"] < r["accuracy"]["estimate"] < r["accuracy"]["high"]
    # accuracies are multiples of 1/100 (100 items), not of 1/99.5
    assert np.allclose(r.resamples["accuracy"] * 100, np.round(r.resamples["accuracy"] * 100))
    with pytest.raises(InputError, match="proportions"):
        bootstrap([[0.2, 0.1], [0.1, 0.05]], n_resamples=200)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_resamples": 0}, "n_resamples"),
        ({"n_resamples": 2.5}, "n_resamples"),
        ({"n_resamples": True}, "n_resamples"),
        ({"confidence": 0.0}, "confidence"),
        ({"confidence": 1.0}, "confidence"),
        ({"confidence": 95}, "confidence"),
        ({"confidence": "high"}, "confidence"),
        ({"method": "bc"}, "method"),
        ({"metrics": ["log_loss"]}, "probabilities"),
        ({"undefined": "drop"}, "undefined"),
    ],
)
def test_bad_arguments_give_one_sentence(kwargs, match):
    with pytest.raises(InputError, match=match) as info:
        bootstrap(C3, **kwargs)
    msg = str(info.value)
    assert msg.endswith(".") and "\n" not in msg


def test_unknown_metric_and_batched_input():
    with pytest.raises(advisor.UnknownMetricError):
        bootstrap(C3, n_resamples=200, metrics=["acuracy"])
    with pytest.raises(InputError, match="single"):
        bootstrap(np.stack([C3, C3]), n_resamples=200)
