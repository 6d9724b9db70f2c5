"""Issue 20 items 1, 5, 7: intervals chosen per statistic, checked against oracles and by exact coverage.

* Clopper–Pearson and Wilson against statsmodels' ``proportion_confint``; McNemar's exact test against
  statsmodels' ``mcnemar(exact=True)``; BCa against ``scipy.stats.bootstrap(method="BCa")`` on accuracy
  (the mean of the items' correctness).
* Exact coverage by enumeration of every binomial outcome: the recall of 25 positives whose true recall
  is 0.95 — the percentile bootstrap's interval covers in 72 % of test sets, the exact one in ≥ 95 %.
* No interval excludes its estimate, for every metric and every method; a withheld one says why.
* The seed: picked when none is given and stated; the same seed gives the same numbers whatever the
  row order or the file names.
Larger coverage tables are in ``benchmarks/bench_coverage.py`` (figures in ``benchmarks/README.md``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor.stats._bootstrap import bootstrap
from advisor.stats._jackknife import EXACT_UNITS
from advisor.stats._proportions import binomial_two_sided, clopper_pearson, wilson


def _binom_pmf(n: int, p: float) -> np.ndarray:
    return np.array([math.comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(n + 1)])


@pytest.mark.parametrize("conf", [0.9, 0.95, 0.99])
def test_proportion_intervals_match_statsmodels(conf):
    from statsmodels.stats.proportion import proportion_confint

    for n in (1, 7, 25, 100, 1000, 10**6):
        for x in sorted({0, 1, n // 3, n - 1, n, int(0.95 * n)}):
            lo, hi = proportion_confint(x, n, 1 - conf, method="beta")
            lo, hi = (0.0 if x == 0 else lo), (1.0 if x == n else hi)  # statsmodels gives NaN at the ends
            assert clopper_pearson(x, n, conf) == pytest.approx((lo, hi), abs=1e-10), (x, n)
            assert wilson(x, n, conf) == pytest.approx(proportion_confint(x, n, 1 - conf, method="wilson"), abs=1e-10)


def test_mcnemar_matches_statsmodels_and_compare_reports_it():
    from statsmodels.stats.contingency_tables import mcnemar

    for b, c in [(0, 0), (3, 0), (5, 5), (2, 10), (30, 50), (1000, 1100)]:
        assert binomial_two_sided(b, c) == pytest.approx(mcnemar([[10, b], [c, 10]], exact=True).pvalue, rel=1e-9)
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    a, b = np.where(rng.random(300) < 0.85, y, 1 - y), np.where(rng.random(300) < 0.78, y, 1 - y)
    cmp = advisor.compare_systems(y, {"a": a, "b": b}, n_resamples=200, seed=0, metrics=["accuracy", "mcc"])
    t = cmp.mcnemar[0]
    b_, c_ = int(np.sum((a == y) & (b != y))), int(np.sum((a != y) & (b == y)))
    assert (t.a_only, t.b_only) == (b_, c_)
    assert t.p == pytest.approx(mcnemar([[0, b_], [c_, 0]], exact=True).pvalue, rel=1e-9)
    assert "McNemar" in cmp.test and "paired-bootstrap" in cmp.test
    assert cmp.to_dict()["mcnemar"][0]["p"] == t.p  # compare --json: "mcnemar" with "p"
    pair = cmp.metrics["mcc"].pairs[0]
    assert pair.resolvable is not None and pair.resolvable > 0 and pair.test == "paired bootstrap"


def test_bca_matches_scipy_on_accuracy():
    from scipy.stats import bootstrap as scipy_bootstrap

    cm = np.array([[40, 9], [6, 45]])  # accuracy 0.85 of 100 items
    correct = np.r_[np.ones(85), np.zeros(15)]
    ours = bootstrap(cm, n_resamples=20000, seed=1, metrics=["accuracy"], method="bca")["accuracy"]
    ref = scipy_bootstrap((correct,), np.mean, n_resamples=20000, method="BCa", random_state=2,
                          confidence_level=0.95).confidence_interval
    # Monte-Carlo error of the 2.5 %/97.5 % quantiles (~0.004 each at B = 20,000, σ = 0.036) plus one
    # lattice step of 1/100 between the two discrete resampling distributions
    assert abs(ours["low"] - ref.low) <= 0.012 and abs(ours["high"] - ref.high) <= 0.012


def test_recall_of_25_positives_covers_by_exact_enumeration():
    n, p, z = 25, 0.95, 0.95
    pmf = _binom_pmf(n, p)
    # the percentile bootstrap of a proportion: the 2.5 % and 97.5 % quantiles of Binomial(n, x/n)/n
    pct, exact = 0.0, 0.0
    for x in range(n + 1):
        cdf = np.cumsum(_binom_pmf(n, x / n))
        lo, hi = np.searchsorted(cdf, 0.025) / n, np.searchsorted(cdf, 0.975) / n
        pct += pmf[x] * (lo <= p <= hi)
        cm = [[50, 0], [n - x, x]] if x < n else [[50, 0], [0, n]]
        r = bootstrap(cm, n_resamples=200, seed=0, metrics=["recall"], positive_label=1)
        assert r.methods["recall"] == "clopper_pearson"
        exact += pmf[x] * (r["recall"]["low"] <= p <= r["recall"]["high"])
    assert pct < 0.80  # the 0.72: what the percentile interval did
    assert exact >= z  # Clopper–Pearson holds its coverage for every n and p


def test_no_interval_excludes_its_estimate():
    rng = np.random.default_rng(7)
    ids = list(advisor.compute_metrics([[5, 1], [2, 4]], positive_label=1))
    for trial in range(12):
        k = int(rng.integers(2, 6))
        cm = rng.integers(0, 12, (k, k)) + np.diag(rng.integers(0, 30, k))
        for method in ("auto", "bca", "basic", "percentile"):
            r = bootstrap(cm, n_resamples=200, seed=trial, method=method,
                          metrics=ids if k == 2 else None, positive_label=1 if k == 2 else None)
            for m, v in r.items():
                if math.isnan(v["low"]):
                    assert r.methods[m] == "none" and r.reasons[m], (m, method)
                else:
                    assert v["low"] <= v["estimate"] <= v["high"] or math.isnan(v["estimate"]), (m, method, v)


def test_confusion_entropy_at_1000_classes_is_withheld_with_its_reason():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 1000, 20000)
    cm = advisor.confusion_matrix(y, np.where(rng.random(20000) < 0.74, y, rng.integers(0, 1000, 20000)))
    r = bootstrap(cm, n_resamples=200, seed=1, metrics=["confusion_entropy", "macro_f1"])
    assert r.methods["confusion_entropy"] == "none" and "biased" in r.reasons["confusion_entropy"]
    v = r["macro_f1"]
    assert r.methods["macro_f1"] == "bca" and v["low"] <= v["estimate"] <= v["high"]


def test_grouped_jackknife_acceleration_is_close_to_the_exact_one():
    from advisor.stats._bootstrap import jackknife_acceleration

    rng = np.random.default_rng(5)
    k = 40  # 40 × 40 cells, more than EXACT_UNITS non-zero: the grouped jackknife
    cm = rng.integers(0, 3, (k, k)) + np.diag(rng.integers(5, 40, k))
    assert np.count_nonzero(cm) > EXACT_UNITS
    grouped = jackknife_acceleration(cm, ["accuracy", "macro_f1"], positive_index=None, beta=1.0, undefined="zero")
    n, p = cm.sum(), np.trace(cm) / cm.sum()
    assert grouped[0] == pytest.approx((1 - 2 * p) / (6 * math.sqrt(n * p * (1 - p))), abs=0.004)
    assert abs(grouped[1]) < 0.02


def test_seed_is_picked_and_stated():
    r = bootstrap([[40, 10], [5, 45]], n_resamples=200, metrics=["mcc"])
    assert isinstance(r.seed, int) and r.seed >= 0
    again = bootstrap([[40, 10], [5, 45]], n_resamples=200, metrics=["mcc"], seed=r.seed)
    assert dict(again) == dict(r)


def _write(path: Path, rows: list[tuple]) -> Path:
    path.write_text("y_true,y_pred,p_0,p_1\n" + "".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_same_seed_same_numbers_whatever_the_row_order_or_the_file_names(tmp_path):
    from typer.testing import CliRunner

    from advisor.cli import app

    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 120)
    rows = {}
    for s, acc in (("a", 0.85), ("b", 0.75)):
        pred = np.where(rng.random(120) < acc, y, 1 - y)
        p1 = np.round(np.clip(0.5 + (pred - 0.5) * rng.uniform(0.2, 0.9, 120), 0.01, 0.99), 2)
        rows[s] = [(t, q, round(1 - r, 2), r) for t, q, r in zip(y, pred, p1)]
    perm = rng.permutation(120)
    first = [_write(tmp_path / "a.csv", rows["a"]), _write(tmp_path / "b.csv", rows["b"])]
    shuffled = [_write(tmp_path / "x_first.csv", [rows["a"][i] for i in perm]),
                _write(tmp_path / "y_second.csv", [rows["b"][i] for i in perm])]
    outs = []
    for files in (first, shuffled):
        res = CliRunner().invoke(app, ["compare", *map(str, files), "--bootstrap", "200", "--seed", "5", "--json",
                                       "--metrics", "accuracy,mcc,roc_auc,ece"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)
        names = data["systems"]
        outs.append(([(data["intervals"][s]["mcc"], data["p_first"][s]["mcc"]) for s in names],
                     [{m: data["intervals"][s][m] for m in ("roc_auc", "ece")} for s in names],
                     data["calibration"]["a" if files is first else "x_first"]))
    assert outs[0] == outs[1]


def test_methods_paragraph_names_methods_unit_and_seed():
    text = advisor.methods_paragraph({"task": "binary", "classes": ["ok", "ill"], "positive_class": "ill",
                                      "outputs": "probabilities", "risk_estimates": True}, "md")
    assert "drawn without a fixed seed" not in text and "seed " in text
    assert "BCa" in text and "resamples of the test items" in text
