"""Paired bootstrap comparison of systems (advisor.stats._compare) and the ``advisor compare`` command."""

from __future__ import annotations

import json
import math
import sys
import types

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor import InputError
from advisor.stats._compare import (
    Comparison,
    average_ranks,
    compare_joint,
    compare_systems,
    kendall_tau_b,
    spearman_rho,
)
from advisor.engine._joint import JointCounts
from advisor.catalogue import get_catalogue
from advisor.engine._metrics import evaluate_batch
from advisor.stats._proportions import newcombe_paired


def noisy(y: np.ndarray, accuracy: float, rng: np.random.Generator, k: int = 3) -> np.ndarray:
    return np.where(rng.random(y.size) < accuracy, y, rng.integers(0, k, y.size))


@pytest.fixture(scope="module")
def three():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 400)
    preds = {"strong": noisy(y, 0.9, rng), "medium": noisy(y, 0.88, rng), "weak": noisy(y, 0.4, rng)}
    return y, preds


def test_public_name_is_lazy_exported():
    assert advisor.compare_systems is compare_systems


def test_identical_systems_tie_exactly():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 200)
    p = noisy(y, 0.7, rng)
    c = compare_systems(y, {"a": p, "b": p.copy()}, n_resamples=300, seed=0)
    for m in c.metrics:
        assert c.probability_better("a", "b", m) == 0.5
        d = c.difference("a", "b", m)
        if d.method == "newcombe":  # accuracy, a paired proportion: no discordant item, an interval centred at 0
            right = float((p == y).sum())  # both right on these, both wrong on the rest
            assert (d.estimate, d.low, d.high) == pytest.approx((0.0, *newcombe_paired(right, 0, 0, 200 - right, 0.95)))
            assert d.low == pytest.approx(-d.high) and d.high > 0
        else:
            assert (d.estimate, d.low, d.high) == (0.0, 0.0, 0.0)
        assert c.winners(m) == ["a", "b"]
        assert c.probability_first(m) == {"a": 0.5, "b": 0.5}


def test_dominated_system_loses_with_probability_near_one(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=500, seed=1)
    for m, mc in c.metrics.items():
        assert c.probability_better("strong", "weak", m) > 0.99, m
        assert c.probability_better("weak", "strong", m) < 0.01, m
        assert "weak" not in c.winners(m), m
        assert c.probability_first(m)["weak"] < 0.01
        assert mc.higher_is_better == get_catalogue().metrics[m].higher_is_better
    # strong and medium are close: not separable on accuracy
    assert set(c.winners("accuracy")) == {"strong", "medium"}


def test_lower_is_better_metrics_are_oriented(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=300, seed=2, metrics=["mcc", "correlation_distance"])
    assert c.metrics["correlation_distance"].higher_is_better is False
    assert c.metrics["correlation_distance"].best == c.metrics["mcc"].best
    assert c.probability_better("strong", "weak", "correlation_distance") == 1.0
    # a lower distance means a higher MCC in every resample: the probabilities coincide
    for a, b in (("strong", "medium"), ("medium", "weak")):
        assert c.probability_better(a, b, "correlation_distance") == pytest.approx(c.probability_better(a, b, "mcc"))
    rho = np.array(c.ranking_agreement.spearman, dtype=float)
    assert rho[0, 1] == 1.0


def test_probabilities_are_consistent(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=400, seed=3, metrics=["accuracy", "macro_f1", "mcc"])
    for m in c.metrics:
        for a in c.systems:
            for b in c.systems:
                assert c.probability_better(a, b, m) + c.probability_better(b, a, m) == pytest.approx(1.0)
        assert sum(c.probability_first(m).values()) == pytest.approx(1.0)
        d_ab, d_ba = c.difference("strong", "medium", m), c.difference("medium", "strong", m)
        assert (d_ab.estimate, d_ab.low, d_ab.high) == pytest.approx((-d_ba.estimate, -d_ba.high, -d_ba.low))


def test_paired_resampling_matches_an_item_level_paired_bootstrap():
    # Two correlated systems: the paired SD of the accuracy difference is much smaller than the
    # unpaired √(var_a + var_b), and equals the item-level paired bootstrap's within Monte Carlo
    # error (relative SE of an SD ≈ 1/√(2B); difference of two estimates ≈ 1/√B = 2.2 % for
    # B = 2000; tolerance 4 × 2.2 % ≈ 9 %).
    rng = np.random.default_rng(4)
    n, B = 300, 2000
    y = rng.integers(0, 2, n)
    a = noisy(y, 0.8, rng, k=2)
    b = np.where(rng.random(n) < 0.9, a, 1 - a)  # b mostly copies a
    c = compare_systems(y, {"a": a, "b": b}, n_resamples=B, seed=5, metrics=["accuracy"])
    idx = np.random.default_rng(6).integers(0, n, (B, n))
    diff = (a[idx] == y[idx]).mean(axis=1) - (b[idx] == y[idx]).mean(axis=1)
    d = c.difference("a", "b", "accuracy")
    # interval width ≈ 3.92 SD
    width_cell = d.high - d.low
    width_item = np.quantile(diff, 0.975) - np.quantile(diff, 0.025)
    assert abs(width_cell / width_item - 1) < 0.12
    r = c.metrics["accuracy"].systems
    unpaired_width = math.hypot(r["a"].high - r["a"].low, r["b"].high - r["b"].low)
    assert width_cell < 0.6 * unpaired_width


def test_cost_depends_on_the_joint_table_not_on_n():
    y = np.tile([0, 1, 2], 10000)
    p = np.roll(y, 1)
    joint = JointCounts.from_arrays(y, {"x": y, "y": p})
    assert joint.counts.shape[0] == 3  # distinct (true, pred_x, pred_y) combinations: (0,0,2), (1,1,0), (2,2,1)
    c = compare_joint(joint, n_resamples=200, seed=0, metrics=["accuracy"])
    assert c.n == 30000


def test_reproducible_with_a_seed(three):
    y, preds = three
    a = compare_systems(y, preds, n_resamples=200, seed=9, metrics=["accuracy", "sba"])
    b = compare_systems(y, preds, n_resamples=200, seed=9, metrics=["accuracy", "sba"])
    c = compare_systems(y, preds, n_resamples=200, seed=10, metrics=["accuracy", "sba"])
    assert a == b
    assert a != c


def test_winners_definition():
    # best by point estimate plus every system whose difference interval to it contains 0
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 500)
    preds = {"best": noisy(y, 0.8, rng, 2), "close": noisy(y, 0.79, rng, 2), "far": noisy(y, 0.2, rng, 2)}
    c = compare_systems(y, preds, n_resamples=500, seed=0, metrics=["balanced_accuracy"])
    mc = c.metrics["balanced_accuracy"]
    top = mc.best[0]
    expected = [
        s for s in c.systems
        if s == top or (c.difference(top, s, "balanced_accuracy").low <= 0 <= c.difference(top, s, "balanced_accuracy").high)
    ]
    assert mc.winners == expected
    assert "far" not in expected and len(expected) >= 2


def test_default_metrics_skip_aliases_and_binary_metrics_need_a_positive_label(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=200, seed=0)
    assert "micro_f1" not in c.metrics and "macro_recall" not in c.metrics and "accuracy" in c.metrics
    yb = (y == 0).astype(int)
    pb = {k: (v == 0).astype(int) for k, v in preds.items()}
    cb = compare_systems(yb, pb, n_resamples=200, seed=0, positive_label=1)
    assert "recall" in cb.metrics and cb.positive_label == 1


def test_json_round_trip_keeps_infinities_and_undefined_values():
    y = np.array([0] * 30 + [1] * 20)
    preds = {"perfect": y.copy(), "noisy": np.r_[[0] * 28, [1] * 2, [1] * 15, [0] * 5]}
    c = compare_systems(y, preds, n_resamples=200, seed=0, metrics=["lr_plus", "mcc"], positive_label=1)
    assert c.metrics["lr_plus"].systems["perfect"].estimate == math.inf
    text = c.to_json()
    json.loads(text)
    assert Comparison.from_json(text) == c
    assert json.loads(text)["metrics"]["perfect"]["lr_plus"] == "inf"
    d = c.to_dict()
    assert d["metrics"]["perfect"]["mcc"] == 1.0 == d["intervals"]["perfect"]["mcc"]["estimate"]


def test_omit_convention_nan_resamples_are_counted():
    y = np.array([0] * 50 + [1] * 5)
    preds = {"rare": np.r_[[0] * 49, [1], [0] * 5], "all0": np.zeros(55, int)}
    c = compare_systems(y, preds, n_resamples=300, seed=0, metrics=["mcc"], undefined="omit")
    mc = c.metrics["mcc"]
    assert mc.systems["all0"].estimate is None and mc.systems["all0"].nan_resamples == 300
    assert 0 < mc.systems["rare"].nan_resamples < 300
    assert mc.best == ["rare"] and mc.winners == ["rare"]
    assert c.probability_better("rare", "all0", "mcc") is None
    assert "undefined" in c.ranking_agreement.note


# ----------------------------------------------------------------------------------------------
# rank correlations
# ----------------------------------------------------------------------------------------------
def test_average_ranks_best_first_with_ties():
    assert average_ranks(np.array([0.1, 0.5, 0.5, 0.9])).tolist() == [4.0, 2.5, 2.5, 1.0]


def test_spearman_and_kendall_hand_computed():
    x = [[1, 2, 3, 4, 5], [2, 1, 4, 3, 5], [5, 4, 3, 2, 1], [1, 1, 2, 2, 3]]
    rho, tau = spearman_rho(np.array(x)), kendall_tau_b(np.array(x))
    # x0 vs x1: d = (1, 1, 1, 1, 0), Σd² = 4 → ρ = 1 − 6·4/(5·24) = 0.8; 8 concordant, 2 discordant → τ = 0.6
    assert rho[0, 1] == pytest.approx(0.8) and tau[0, 1] == pytest.approx(0.6)
    assert rho[0, 2] == pytest.approx(-1.0) and tau[0, 2] == pytest.approx(-1.0)
    # x0 vs x3 (ties in x3: ranks 1.5,1.5,3.5,3.5,5): 8 concordant, 0 discordant, 2 tied pairs in x3
    # τ_b = 8 / √(10 · 8)
    assert tau[0, 3] == pytest.approx(8 / math.sqrt(80))
    r3 = np.array([1.5, 1.5, 3.5, 3.5, 5.0])
    r0 = np.arange(1, 6, dtype=float)
    assert rho[0, 3] == pytest.approx(np.corrcoef(r0, r3)[0, 1])
    assert np.allclose(np.diag(rho), 1) and np.allclose(rho, rho.T) and np.allclose(tau, tau.T)
    const = spearman_rho(np.array([[1, 2, 3], [1, 1, 1]]))
    assert np.isnan(const[0, 1]) and np.isnan(const[1, 1])


def test_rank_correlations_agree_with_scipy():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 4, (5, 9)).astype(float)  # many ties
    rho, tau = spearman_rho(x), kendall_tau_b(x)
    for i in range(5):
        for j in range(5):
            if np.ptp(x[i]) == 0 or np.ptp(x[j]) == 0:
                continue
            assert rho[i, j] == pytest.approx(stats.spearmanr(x[i], x[j]).statistic)
            assert tau[i, j] == pytest.approx(stats.kendalltau(x[i], x[j]).statistic)


def test_ranking_agreement_matrix_like_seed_000_figure_1(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=200, seed=0, metrics=["accuracy", "balanced_accuracy", "mcc"])
    ra = c.ranking_agreement
    assert ra.metrics == ["accuracy", "balanced_accuracy", "mcc"]
    assert set(ra.ranks["accuracy"]) == set(c.systems)
    rho = np.array(ra.spearman, dtype=float)
    assert rho.shape == (3, 3) and np.allclose(np.diag(rho), 1)
    points = {m: [c.metrics[m].systems[s].estimate for s in c.systems] for m in ra.metrics}
    expected = spearman_rho(np.array([points["accuracy"], points["mcc"]]))[0, 1]
    assert rho[0, 2] == pytest.approx(expected)


def test_two_systems_give_degenerate_agreement_with_a_note():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 100)
    c = compare_systems(y, {"a": noisy(y, 0.8, rng), "b": noisy(y, 0.6, rng)}, n_resamples=200, seed=0)
    vals = {v for row in c.ranking_agreement.spearman for v in row}
    assert vals <= {1.0, -1.0, None}
    assert "two systems" in c.ranking_agreement.note
    one = compare_systems(y, {"a": y}, n_resamples=200, seed=0, metrics=["accuracy"])
    assert one.winners("accuracy") == ["a"] and "fewer than two" in one.ranking_agreement.note


# ----------------------------------------------------------------------------------------------
# errors
# ----------------------------------------------------------------------------------------------
def test_errors_are_one_sentence(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=200, seed=0, metrics=["accuracy"])
    with pytest.raises(InputError, match="no system named 'nope'"):
        c.probability_better("strong", "nope", "accuracy")
    with pytest.raises(InputError, match="not in this comparison"):
        c.winners("mcc")
    with pytest.raises(InputError, match="JointCounts"):
        compare_joint({"a": 1})
    with pytest.raises(InputError, match="n_resamples"):
        compare_systems(y, preds, n_resamples=0)
    with pytest.raises(InputError, match="confidence"):
        compare_systems(y, preds, n_resamples=200, confidence=1.5)
    with pytest.raises(InputError, match="predictions"):
        compare_systems(y, {"a": y[:-1]})
    with pytest.raises(advisor.UnknownMetricError):
        compare_systems(y, preds, n_resamples=200, metrics=["acurracy"])  # "acc" is now the alias ACC


# ----------------------------------------------------------------------------------------------
# CLI
# ----------------------------------------------------------------------------------------------
@pytest.fixture()
def fake_reader(monkeypatch, three):
    """Stand-in for the one reader, advisor.io.load (tests the command, not the reader)."""
    y, preds = three
    calls = {}

    def load(paths=(), *, true_col=None, pred_col=None, **_options):
        for p in paths:
            open(p).close()  # a missing file raises FileNotFoundError like the real reader
        calls.update(paths=list(paths), true_col=true_col or "y_true", pred_col=pred_col or "y_pred")
        joint = JointCounts.from_arrays(y, preds)
        return types.SimpleNamespace(joint=joint, systems=joint.matrices(), structured=None, scores={})

    import advisor.io

    monkeypatch.setattr(advisor.io, "load", load)  # the CLI reads through advisor.io's public name
    return calls


@pytest.fixture()
def app():
    from advisor.cli import app as cli_app

    return cli_app


def invoke(app, args):
    cmd = ["compare", *args]
    try:
        from typer.main import get_command

        if not hasattr(get_command(app), "commands"):  # a single-command app has no sub-command name
            cmd = args
    except Exception:  # pragma: no cover
        pass
    return CliRunner().invoke(app, cmd)


def test_cli_json(app, fake_reader, tmp_path):
    f = tmp_path / "preds.csv"
    f.write_text("x\n")
    res = invoke(app, [str(f), "--json", "--bootstrap", "200", "--seed", "1", "--metrics", "accuracy,mcc",
                       "--true-col", "gold"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["bootstrap"]["n_resamples"] == 200 and out["bootstrap"]["seed"] == 1
    assert all(set(v) == {"accuracy", "mcc"} for v in out["metrics"].values())
    assert "weak" not in out["winners"]["accuracy"]
    assert out["ranking_agreement"]["spearman"][0][0] == 1.0
    assert fake_reader["true_col"] == "gold" and fake_reader["pred_col"] == "y_pred"


def test_cli_tables(app, fake_reader, tmp_path):
    f = tmp_path / "preds.csv"
    f.write_text("x\n")
    res = invoke(app, [str(f), "--bootstrap", "200", "--seed", "1", "--metrics", "accuracy,sba,mcc"])
    assert res.exit_code == 0, res.output
    assert "strong" in res.stdout and "winners" in res.stdout and "Spearman" in res.stdout


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--bootstrap", "0"], "--bootstrap"),
        (["--confidence", "1.2"], "--confidence"),
        (["--undefined", "nan"], "--undefined"),
        (["--positive", "cat"], "--positive"),
        (["--metrics", "acuracy"], "acuracy"),
    ],
)
def test_cli_bad_options_one_sentence(app, fake_reader, tmp_path, args, match):
    f = tmp_path / "preds.csv"
    f.write_text("x\n")
    res = invoke(app, [str(f), "--bootstrap", "200", *args] if args[0] != "--bootstrap" else [str(f), *args])
    assert res.exit_code == 2
    assert match in res.stderr and "Traceback" not in res.output
    assert res.stderr.startswith("error: ")


def test_cli_missing_file(app, fake_reader, tmp_path):
    res = invoke(app, [str(tmp_path / "missing.csv")])
    assert res.exit_code == 2
    assert "missing.csv" in res.stderr


def test_evaluate_batch_used_for_resamples_matches_compute_metrics(three):
    # the paired resamples' marginals are evaluated by the same engine as the point estimates
    y, preds = three
    joint = JointCounts.from_arrays(y, preds)
    mats = joint.matrices_from_counts(joint.counts)
    vals = evaluate_batch(mats, ["accuracy"])["accuracy"]
    c = compare_joint(joint, n_resamples=200, seed=0, metrics=["accuracy"])
    assert [c.metrics["accuracy"].systems[s].estimate for s in c.systems] == pytest.approx(vals.tolist())


def test_cli_with_the_real_reader(app, tmp_path):
    pytest.importorskip("advisor.io._readers")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 150)
    for name, acc in (("alpha", 0.9), ("beta", 0.5)):
        p = noisy(y, acc, rng)
        (tmp_path / f"{name}.csv").write_text("y_true,y_pred\n" + "".join(f"{t},{q}\n" for t, q in zip(y, p)))
    files = [str(tmp_path / "alpha.csv"), str(tmp_path / "beta.csv")]
    res = invoke(app, [*files, "--json", "--bootstrap", "200", "--seed", "3", "--metrics", "accuracy"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["systems"] == ["alpha", "beta"] and out["winners"]["accuracy"] == ["alpha"]
    res = invoke(app, [*files, "--true-col", "gold"])
    assert res.exit_code == 2 and "gold" in res.stderr


def test_progress_bar_only_on_a_terminal(monkeypatch):
    from advisor.cli._compare import progress_callback

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    with progress_callback() as cb:
        assert cb is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    with progress_callback() as cb:
        assert callable(cb)
        cb(5, 10)
        cb(10, 10)


def test_generator_seed_is_not_recorded(three):
    y, preds = three
    c = compare_systems(y, preds, n_resamples=200, seed=np.random.default_rng(0), metrics=["accuracy"])
    assert c.seed is None
