"""Log loss and Brier score (advisor.engine._probabilities) against scikit-learn and their definitions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor import InputError, probability_metrics
from advisor.engine._probabilities import LOG_LOSS_EPS, ProbabilityAccumulator, probability_chance_levels

sk_metrics = pytest.importorskip("sklearn.metrics")


def _random_case(rng: np.random.Generator, k: int, n: int, zeros: bool) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)  # every class occurs, as scikit-learn infers the classes from y_true
    p = rng.dirichlet(np.full(k, 0.7), size=n)
    if zeros:  # exact zeros and ones exercise the clipping
        p[: n // 4] = np.eye(k)[rng.integers(0, k, size=n // 4)]
    return y, p


@pytest.mark.parametrize("k", [2, 3, 4, 7])
def test_matches_scikit_learn(k: int) -> None:
    """Log loss equals sklearn.metrics.log_loss (both clip at float64 ε) to 1e-9; Brier equals
    brier_score_loss(scale_by_half=False) for every k, its default for k ≥ 3, and twice its default
    (the positive-class form) for k = 2."""
    rng = np.random.default_rng(k)
    for trial in range(40):
        y, p = _random_case(rng, k, n=30 + trial, zeros=trial % 2 == 1)
        labels = list(range(k))
        ours = probability_metrics(y, p, labels)
        assert ours["log_loss"] == pytest.approx(sk_metrics.log_loss(y, p, labels=labels), abs=1e-9)
        full = sk_metrics.brier_score_loss(y, p, labels=labels, scale_by_half=False)
        assert ours["brier"] == pytest.approx(full, abs=1e-9)
        default = sk_metrics.brier_score_loss(y, p if k > 2 else p[:, 1], labels=labels if k > 2 else None)
        assert ours["brier"] == pytest.approx(default * (2 if k == 2 else 1), abs=1e-9)


def test_string_labels_follow_the_columns() -> None:
    y = ["b", "a", "c", "b"]
    p = np.array([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3]])
    ours = probability_metrics(y, p, ["a", "b", "c"])
    assert ours["log_loss"] == pytest.approx(sk_metrics.log_loss(y, p, labels=["a", "b", "c"]), abs=1e-12)
    # reordering the columns together with the labels changes nothing
    ours2 = probability_metrics(y, p[:, [2, 0, 1]], ["c", "a", "b"])
    assert ours2 == pytest.approx(ours)


def test_log_loss_sees_only_the_true_class() -> None:
    """Seed 002 §4.4 (Figure 6): two predictions giving the true class the same probability 0.4 get the
    same cross-entropy although one ranks the true class first and the other does not; the Brier
    score, which looks at the whole distribution, tells them apart."""
    labels = [1, 2, 3, 4, 5, 6]
    a = [0.1, 0.4, 0.1, 0.1, 0.1, 0.2]  # true class 2 is the most probable
    b = [0.0, 0.4, 0.0, 0.0, 0.0, 0.6]  # class 6 is the most probable
    ra, rb = probability_metrics([2], [a], labels), probability_metrics([2], [b], labels)
    assert ra["log_loss"] == rb["log_loss"] == pytest.approx(-math.log(0.4))
    assert ra["brier"] == pytest.approx(0.01 * 4 + 0.36 + 0.04)
    assert rb["brier"] == pytest.approx(0.36 + 0.36)


def test_clipping_bound() -> None:
    """A confident mistake costs −ln ε, ε = float64 machine epsilon (scikit-learn ≥ 1.5's bound)."""
    r = probability_metrics([0], [[0.0, 1.0]], [0, 1])
    assert r["log_loss"] == pytest.approx(-math.log(LOG_LOSS_EPS))
    assert r["brier"] == 2.0
    assert probability_metrics([0], [[1.0, 0.0]], [0, 1])["log_loss"] < 1e-15


def test_chunked_accumulation_equals_one_pass() -> None:
    rng = np.random.default_rng(0)
    y, p = _random_case(rng, 4, 101, zeros=True)
    whole = ProbabilityAccumulator(4)
    whole.update(y, p)
    parts = ProbabilityAccumulator(4)
    for lo in range(0, 101, 7):
        parts.update(y[lo:lo + 7], p[lo:lo + 7])
    assert parts.n == whole.n == 101
    assert parts.result() == pytest.approx(whole.result(), abs=1e-12)


def test_rounded_rows_are_renormalised_and_counted() -> None:
    acc = ProbabilityAccumulator(3)
    p = np.array([[0.3333, 0.3333, 0.3333], [0.5, 0.25, 0.25]])
    assert acc.check(p) is None
    acc.update(np.array([0, 1]), p)
    assert acc.renormalised == 1
    expected = (-math.log(1 / 3) - math.log(0.25)) / 2
    assert acc.result()["log_loss"] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "proba, words",
    [
        ([[0.5, 0.6]], "summing to 1.1"),
        ([[-0.1, 1.1]], "outside [0, 1]"),
        ([[float("nan"), 1.0]], "missing"),
        ([[0.5, 0.5, 0.0]], "one column per label"),
    ],
)
def test_invalid_probabilities(proba: list[list[float]], words: str) -> None:
    with pytest.raises(InputError, match=words.replace("[", r"\[").replace("]", r"\]")):
        probability_metrics([0], proba, [0, 1])


def test_unknown_true_label() -> None:
    with pytest.raises(InputError, match="no probability column"):
        probability_metrics(["z"], [[0.5, 0.5]], ["a", "b"])


def test_chance_levels_are_the_scores_of_constant_predictors() -> None:
    """Each closed form equals the score of the corresponding constant probability vector."""
    sizes = np.array([6, 3, 1])
    y = np.repeat(np.arange(3), sizes)
    n, k = sizes.sum(), 3
    ch = probability_chance_levels(sizes)
    predictors = {
        "uniform": np.full((n, k), 1 / k),
        "prevalence": np.tile(sizes / n, (n, 1)),
        "majority": np.tile(np.eye(k)[0], (n, 1)),
    }
    for name, p in predictors.items():
        direct = probability_metrics(y, p, [0, 1, 2])
        assert ch["log_loss"][name] == pytest.approx(direct["log_loss"], rel=1e-12), name
        assert ch["brier"][name] == pytest.approx(direct["brier"], rel=1e-12), name
