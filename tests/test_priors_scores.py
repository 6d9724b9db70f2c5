"""Log loss and the Brier score at the class shares in use: each true class's mean score weighted by its share.

They are means over the items, so each class weighs in them as its share of the test set; at the shares in use
``π`` they read ``Σ_c π_c · s̄_c`` (the prior-weighted proper scoring rule of Ferrer's psrcal, ``norm=False``).
Checked against a loop over the classes written here, against scikit-learn's weighted means (``sample_weight =
π_c / n_c`` for each item of class ``c``), and at the test set's own shares against the plain metrics; then in the
digits report, whose table at the shares in use carries them (the blind reviewer: "figures computed at the wrong
prior … reweight them instead").
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import yaml

import advisor
from advisor.engine import LOG_LOSS_EPS, PriorScores, probability_metrics, scores_at_priors
from advisor.engine._scores import brier_binary
from advisor.report import build_report
from advisor.stats import projected_score_intervals

sk = pytest.importorskip("sklearn.metrics")

ROOT = Path(__file__).resolve().parents[1]


def _items(rng: np.random.Generator, sizes: list[int], k: int) -> tuple[np.ndarray, np.ndarray]:
    """Items of each class in the given numbers, with probabilities leaning to the true class."""
    y = np.repeat(np.arange(k), sizes)
    rng.shuffle(y)
    p = rng.dirichlet(np.ones(k), size=y.shape[0]) * 0.5
    p[np.arange(y.shape[0]), y] += rng.uniform(0.0, 0.5, size=y.shape[0])
    return y, p / p.sum(axis=1, keepdims=True)


def _by_hand(y: np.ndarray, p: np.ndarray, pi: np.ndarray, metric: str, pos: int = 1) -> float:
    """Σ_c π_c · (mean over the items of class c of the item's score), one class at a time."""
    total = 0.0
    for c in range(p.shape[1]):
        if pi[c] == 0:
            continue
        rows = p[y == c]
        if metric == "log_loss":
            item = -np.log(np.clip(rows[:, c], LOG_LOSS_EPS, 1 - LOG_LOSS_EPS))
        elif metric == "brier":
            onehot = np.zeros_like(rows)
            onehot[:, c] = 1.0
            item = ((rows - onehot) ** 2).sum(axis=1)
        else:
            item = (rows[:, pos] - float(c == pos)) ** 2
        total += pi[c] * item.mean()
    return total / pi.sum()


def _sample_weight(y: np.ndarray, pi: np.ndarray) -> np.ndarray:
    n_c = np.bincount(y, minlength=pi.shape[0]).astype(float)
    w = pi[y] / n_c[y]
    return w / w.sum()


@pytest.mark.parametrize("k, sizes, pi", [
    (3, [50, 30, 7], [0.2, 0.3, 0.5]),
    (5, [40, 3, 25, 60, 12], [0.2] * 5),
    (2, [90, 10], [0.93, 0.07]),
    (2, [20, 80], [0.5, 0.5]),
])
def test_each_class_mean_weighted_by_its_share_as_by_hand_and_as_sklearn(k, sizes, pi) -> None:
    rng = np.random.default_rng(sum(sizes))
    y, p = _items(rng, sizes, k)
    pi = np.asarray(pi, dtype=float)
    labels = list(range(k))
    got = scores_at_priors(y, p, labels, pi)
    for m in ("log_loss", "brier", *(("brier_binary",) if k == 2 else ())):
        assert got[m] == pytest.approx(_by_hand(y, p, pi, m), abs=1e-12), m
    w = _sample_weight(y, pi)
    assert got["log_loss"] == pytest.approx(sk.log_loss(y, p, labels=labels, sample_weight=w), abs=1e-12)
    if k == 2:  # scikit-learn's binary Brier score is the positive class's; with scale_by_half=False, the sum
        assert got["brier_binary"] == pytest.approx(sk.brier_score_loss(y, p[:, 1], sample_weight=w), abs=1e-12)
        assert got["brier"] == pytest.approx(
            sk.brier_score_loss(y, p, labels=labels, sample_weight=w, scale_by_half=False), abs=1e-12)
    else:
        assert got["brier"] == pytest.approx(sk.brier_score_loss(y, p, labels=labels, sample_weight=w), abs=1e-12)


@pytest.mark.parametrize("k, sizes", [(2, [70, 30]), (4, [5, 50, 20, 11]), (10, [9, 40, 3, 17, 22, 8, 30, 12, 5, 1])])
def test_at_the_test_sets_own_shares_it_is_the_plain_metric(k, sizes) -> None:
    rng = np.random.default_rng(k)
    y, p = _items(rng, sizes, k)
    labels = [f"c{j}" for j in range(k)]
    truth = [labels[j] for j in y]
    own = np.asarray(sizes, dtype=float) / sum(sizes)
    plain = probability_metrics(truth, p, labels)
    for got in (scores_at_priors(truth, p, labels, own), scores_at_priors(truth, p, labels, dict(zip(labels, own))),
                PriorScores(truth, p, labels).at()):
        assert abs(got["log_loss"] - plain["log_loss"]) < 1e-12
        assert abs(got["brier"] - plain["brier"]) < 1e-12
        if k == 2:
            assert abs(got["brier_binary"] - brier_binary(truth, p, labels, positive_label="c1")) < 1e-12
    assert abs(scores_at_priors(truth, p, labels, own * 7.0)["brier"] - plain["brier"]) < 1e-12  # shares normalised


def test_the_positive_class_names_the_binary_brier_column() -> None:
    y = ["ill", "ill", "well", "well", "well"]
    p = [[0.3, 0.7], [0.6, 0.4], [0.1, 0.9], [0.2, 0.8], [0.5, 0.5]]
    labels = ["ill", "well"]
    ill = scores_at_priors(y, p, labels, {"ill": 0.5, "well": 0.5}, ["brier_binary"], positive_label="ill")
    # the probability of "ill": (0.3-1)², (0.6-1)² for the ill; 0.1², 0.2², 0.5² for the well
    assert ill["brier_binary"] == pytest.approx(0.5 * (0.49 + 0.16) / 2 + 0.5 * (0.01 + 0.04 + 0.25) / 3, abs=1e-15)
    well = scores_at_priors(y, p, labels, {"ill": 0.5, "well": 0.5}, ["brier_binary"], positive_label="well")
    assert well["brier_binary"] == pytest.approx(ill["brier_binary"], abs=1e-15)  # (1-p)-(1-y) squared: the same


def test_a_class_left_out_or_given_share_zero_weighs_nothing() -> None:
    rng = np.random.default_rng(3)
    y, p = _items(rng, [30, 30, 30], 3)
    a = scores_at_priors(y, p, [0, 1, 2], {0: 0.5, 1: 0.5})
    b = scores_at_priors(y, p, [0, 1, 2], [0.5, 0.5, 0.0])
    assert a == b
    assert a["log_loss"] == pytest.approx(_by_hand(y, p, np.array([0.5, 0.5, 0.0]), "log_loss"), abs=1e-12)


def test_a_class_with_no_items_and_a_positive_share_is_undefined_and_said_why() -> None:
    """As the projected confusion matrix refuses such a class (its row has nothing to rescale), the scores have no mean
    of its items to weigh; share 0 for it is fine."""
    y = [0, 0, 1, 1, 1]
    p = [[0.8, 0.1, 0.1], [0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.3, 0.6, 0.1], [0.1, 0.8, 0.1]]
    with pytest.raises(ValueError, match=r"class 2 has no true items.*share 0"):
        scores_at_priors(y, p, [0, 1, 2], [0.4, 0.4, 0.2])
    ok = scores_at_priors(y, p, [0, 1, 2], [0.5, 0.5, 0.0])
    assert ok["log_loss"] == pytest.approx(0.5 * -np.log([0.8, 0.6]).mean() + 0.5 * -np.log([0.7, 0.6, 0.8]).mean())
    with pytest.raises(ValueError, match="not one of the classes"):
        scores_at_priors(y, p, [0, 1, 2], {0: 0.5, 7: 0.5})


def test_a_resample_weighting_is_a_weighted_mean_within_each_class() -> None:
    """Item weights (times each item was drawn) give each class the weighted mean of its items; a resample with no
    item of a class that has a positive share gives no value (NaN), as a projected resample that lacks the class."""
    rng = np.random.default_rng(11)
    y, p = _items(rng, [12, 8, 5], 3)
    scores = PriorScores(y, p, [0, 1, 2])
    pi = np.array([0.1, 0.3, 0.6])
    w = rng.integers(0, 3, size=(4, y.shape[0])).astype(float)
    w[3, y == 2] = 0.0
    got = scores.at(pi, w)["brier"]
    for r in range(3):
        drawn_y = np.repeat(y, w[r].astype(int))
        drawn_p = np.repeat(p, w[r].astype(int), axis=0)
        assert got[r] == pytest.approx(_by_hand(drawn_y, drawn_p, pi, "brier"), abs=1e-12)
    assert np.isnan(got[3])


def test_the_interval_resamples_items_with_the_seed_and_holds_the_estimate() -> None:
    rng = np.random.default_rng(5)
    y, p = _items(rng, [150, 40, 10], 3)
    scores = PriorScores(y, p, [0, 1, 2])
    pi = {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
    first = projected_score_intervals(scores, pi, 300, 0.95, 2024)
    assert first == projected_score_intervals(scores, pi, 300, 0.95, 2024)  # the seed fixes the draws
    at = scores.at(pi)
    for m in ("log_loss", "brier"):
        lo, hi = first[m]
        assert lo < at[m] < hi, m
    assert projected_score_intervals(scores, pi, 0, 0.95, 2024) == {}


# ----------------------------------------------------------------------------------------------
# The digits report with every digit equally likely in use
# ----------------------------------------------------------------------------------------------
def _digits(path: Path) -> tuple[np.ndarray, np.ndarray]:
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    y = np.array([int(r["y_true"]) for r in rows])
    p = np.array([[float(r[f"p_{j}"]) for j in range(10)] for r in rows])
    return y, p / p.sum(axis=1, keepdims=True)  # rows rounded to four decimals: divided by their sum, as log loss does


def test_the_digits_report_gives_log_loss_and_brier_at_uniform_shares(tmp_path) -> None:
    answers = yaml.safe_load((ROOT / "examples/report/digits_answers.yaml").read_text(encoding="utf-8"))
    answers["target_prevalence"] = {str(d): 0.1 for d in range(10)}
    path = tmp_path / "digits.yaml"
    path.write_text(yaml.safe_dump(answers, allow_unicode=True), encoding="utf-8")
    files = [ROOT / "examples/digits/logreg.csv", ROOT / "examples/digits/tree.csv"]
    ctx = build_report(path, advisor.load([str(f) for f in files]), bootstrap=200, seed=2024)
    table = next(t for t in ctx.tables if t.id == "at_priors")
    assert "for log loss and Brier score, each true class's mean score is weighted by its share" in table.caption
    uniform = np.full(10, 0.1)
    for f in files:
        name = f.stem
        y, p = _digits(f)
        rows = {r[0]: r for r in table.rows if r[1] == name}
        for label, metric in (("Log loss (cross-entropy)", "log_loss"), ("Brier score", "brier")):
            row = rows[label]
            want = _by_hand(y, p, uniform, metric)
            assert float(row[3]) == pytest.approx(want, abs=5e-5), (name, metric)  # shown to 4 decimals
            plain = probability_metrics(y, p, list(range(10)))[metric]
            assert float(row[2]) == pytest.approx(plain, abs=5e-5)  # the test set column: the plain metric
            lo, hi = (float(x) for x in row[4].split(" to "))
            assert lo <= want <= hi
            record = ctx.at_priors["metrics"][name][metric]
            assert record["estimate"] == pytest.approx(want, abs=1e-12)
            assert record["test_set"] == pytest.approx(plain, abs=1e-12)
        # digit 9 is rare in the test set and hardest for both: weighed at 10% it raises both scores
        assert float(rows["Log loss (cross-entropy)"][3]) > float(rows["Log loss (cross-entropy)"][2])


def test_a_binary_report_promises_the_scores_the_table_gives_and_says_how(tmp_path) -> None:
    """Two classes, probabilities, 3% positives in use: the promise names log loss and the Brier score beside the
    predictive values, with how both are projected (each item of class c weighs π_c/n_c, in the rescaled matrix as in
    the weighted mean score), and the table holds every figure the promise names."""
    rng = np.random.default_rng(21)
    y = np.where(rng.random(400) < 0.5, "pos", "neg")
    paths = []
    for j, name in enumerate(("s0", "s1")):
        p_pos = np.clip(np.where(y == "pos", 0.7 - 0.1 * j, 0.3) + rng.normal(0, 0.2, y.shape[0]), 0.01, 0.99)
        pred = np.where(p_pos >= 0.5, "pos", "neg")
        lines = ["y_true,y_pred,p_neg,p_pos"] + [f"{t},{q},{1 - v:.6f},{v:.6f}" for t, q, v in zip(y, pred, p_pos)]
        paths.append(tmp_path / f"{name}.csv")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    answers = {"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos", "deployment_prevalence": "shifted",
               "target_prevalence": {"neg": 0.97, "pos": 0.03}, "test_set_balanced": True, "outputs": "probabilities"}
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(answers), encoding="utf-8")
    ctx = build_report(path, advisor.load([str(f) for f in paths]), bootstrap=200, seed=1)
    text = " ".join(s.text for p in ctx.methods if p.heading == "Evaluation" for s in p.spans)
    assert ("the positive and negative predictive values, accuracy, log loss and Brier score at the shares in use "
            "(pos 3%), each class reweighted to its share") in text, text
    table = next(t for t in ctx.tables if t.id == "at_priors")
    named = {r[0].lower() for r in table.rows}
    assert any(n.startswith("log loss") for n in named) and any(n.startswith("brier score") for n in named), named
    truth = (y == "pos").astype(int)
    for name, f in zip(("s0", "s1"), paths):
        with f.open(encoding="utf-8") as fh:
            p = np.array([[float(r["p_neg"]), float(r["p_pos"])] for r in csv.DictReader(fh)])
        for metric in ("log_loss", "brier_binary"):
            want = _by_hand(truth, p, np.array([0.97, 0.03]), metric)
            assert ctx.at_priors["metrics"][name][metric]["estimate"] == pytest.approx(want, abs=1e-12)
