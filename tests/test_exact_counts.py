"""Integer counts are exact (no tolerance hides a real class), overflow and absurd resampling are
refused up front, and the ``zero`` convention is compared with scikit-learn function by function."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from math import copysign

import numpy as np
import pytest

import advisor
from advisor import ConfusionMatrix, InputError, compute_metrics
from advisor.stats._bootstrap import bootstrap

IDS = ["accuracy", "balanced_accuracy", "macro_precision", "macro_f1", "macro_jaccard", "cohen_kappa", "mcc"]


def exact_metrics(c: list[list[int]]) -> dict[str, Fraction | tuple[int, Fraction]]:
    """The metrics in rational arithmetic (zero convention); MCC as (sign, MCC²)."""
    k = len(c)
    a = [sum(row) for row in c]
    b = [sum(c[i][j] for i in range(k)) for j in range(k)]
    tp = [c[i][i] for i in range(k)]
    n = sum(a)

    def ratio(x: int, y: int) -> Fraction:
        return Fraction(x, y) if y else Fraction(0)

    def mean(xs: list[Fraction]) -> Fraction:
        return sum(xs, Fraction(0)) / k

    ab = sum(x * y for x, y in zip(a, b))
    num = n * sum(tp) - ab
    var_a, var_b = n * n - sum(x * x for x in a), n * n - sum(y * y for y in b)
    return {
        "accuracy": Fraction(sum(tp), n),
        "balanced_accuracy": mean([ratio(t, x) for t, x in zip(tp, a)]),
        "macro_precision": mean([ratio(t, y) for t, y in zip(tp, b)]),
        "macro_f1": mean([ratio(2 * t, x + y) for t, x, y in zip(tp, a, b)]),
        "macro_jaccard": mean([ratio(t, x + y - t) for t, x, y in zip(tp, a, b)]),
        "cohen_kappa": ratio(num, n * n - ab),
        "mcc": (0 if num == 0 or not var_a * var_b else (1 if num > 0 else -1),
                Fraction(num * num, var_a * var_b) if var_a * var_b else Fraction(0)),
    }


def random_integer_matrix(rng: np.random.Generator) -> list[list[int]]:
    k = int(rng.integers(2, 5))
    c = [[0] * k for _ in range(k)]
    for i in range(k):
        kind = rng.integers(0, 3)
        if kind == 0:
            c[i][i] = int(rng.integers(1, 10**15))  # huge class
        elif kind == 1:
            c[i][int(rng.integers(0, k))] = 1  # a class of one item (maybe misclassified)
        else:
            for j in range(k):
                c[i][j] = int(rng.integers(0, 10**6)) if rng.random() < 0.6 else 0
    if sum(map(sum, c)) == 0:
        c[0][0] = 1
    return c


def test_a_class_of_one_item_among_two_trillion_is_a_class() -> None:
    r = compute_metrics([[2 * 10**12, 0], [0, 1]])
    for m in ("balanced_accuracy", "macro_f1", "mcc", "cohen_kappa", "gm1", "macro_precision", "sba"):
        assert r[m] == 1.0, m
    assert r.undefined == []
    soft = compute_metrics([[2e12 + 0.5, 0.0], [0.0, 0.5]])  # weighted counts: 0.5 is a real class too
    assert soft["balanced_accuracy"] == soft["mcc"] == soft["cohen_kappa"] == 1.0


def test_counts_up_to_ten_to_the_fifteen_against_rational_arithmetic() -> None:
    rng = np.random.default_rng(2024)
    for _ in range(300):
        c = random_integer_matrix(rng)
        got = compute_metrics(c, IDS, undefined="zero")
        ref = exact_metrics(c)
        for m in IDS:
            if m == "mcc":
                sign, square = ref[m]
                assert got[m] ** 2 == pytest.approx(float(square), rel=1e-12, abs=1e-12), (c, m)
                assert got[m] == 0 or copysign(1, got[m]) == sign or square < 1e-20, (c, m)
            else:
                assert got[m] == pytest.approx(float(ref[m]), rel=1e-12, abs=1e-12), (c, m)


def test_zero_convention_matches_these_scikit_learn_functions_and_not_balanced_accuracy_score() -> None:
    sk = pytest.importorskip("sklearn.metrics")
    # class 2 is predicted but absent from the truth: its recall is 0/0
    y_true = [0, 0, 0, 1, 1, 1, 1]
    y_pred = [0, 0, 2, 1, 1, 0, 1]
    cm = advisor.confusion_matrix(y_true, y_pred)
    zero = compute_metrics(cm, undefined="zero")
    opts = {"average": "macro", "zero_division": 0}
    assert zero["balanced_accuracy"] == pytest.approx(sk.recall_score(y_true, y_pred, **opts))
    assert zero["macro_precision"] == pytest.approx(sk.precision_score(y_true, y_pred, **opts))
    assert zero["macro_f1"] == pytest.approx(sk.f1_score(y_true, y_pred, **opts))
    assert zero["macro_jaccard"] == pytest.approx(sk.jaccard_score(y_true, y_pred, **opts))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ba = sk.balanced_accuracy_score(y_true, y_pred)  # drops the class absent from the truth
        constant_kappa = sk.cohen_kappa_score([0, 0, 0], [0, 0, 0])
        constant_mcc = sk.matthews_corrcoef([0, 0, 0], [0, 0, 0])
    assert zero["balanced_accuracy"] != pytest.approx(ba)
    assert compute_metrics(cm, ["balanced_accuracy"], undefined="omit")["balanced_accuracy"] == pytest.approx(ba)
    # MCC 0 on a constant labeling, as matthews_corrcoef; kappa 0 where cohen_kappa_score gives NaN
    const = compute_metrics([[3, 0], [0, 0]], ["mcc", "cohen_kappa"], undefined="zero")
    assert const["mcc"] == constant_mcc == 0.0
    assert const["cohen_kappa"] == 0.0 and np.isnan(constant_kappa)


@pytest.mark.parametrize(
    "make",
    [
        lambda: compute_metrics([[1e308, 1e308], [0, 1]]),
        lambda: compute_metrics([[1e80, 0], [0, 1]]),
        lambda: ConfusionMatrix([[1.7e308, 0], [1.7e308, 1]]),
        lambda: ConfusionMatrix.from_cells([0, 1], [0, 1], [1e308, 1e308], ["a", "b"]),
        lambda: compute_metrics(np.full((3, 2, 2), 1e200)),
    ],
)
def test_counts_that_would_overflow_are_refused_before_computing(make, capfd) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy RuntimeWarning would fail here
        with pytest.raises(InputError, match="divide every count by a common factor"):
            make()
    assert capfd.readouterr().err == ""


def test_an_absurd_bootstrap_is_refused_at_once() -> None:
    """Refused by the limit on resamples (how fast the refusal comes is measured in benchmarks/, not here)."""
    with pytest.raises(InputError, match="above the limit"):
        bootstrap([[40, 10], [5, 45]], n_resamples=10**9, seed=0)
    y = [0, 1, 1, 0] * 10
    with pytest.raises(InputError, match="above the limit"):
        advisor.compare_systems(y, {"a": y, "b": y[::-1]}, n_resamples=10**9)


def test_the_cli_refuses_an_absurd_bootstrap_in_one_sentence(cli, tmp_path) -> None:
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"labels": ["a", "b"], "matrix": [[40, 10], [5, 45]]}))
    res = cli("compute", "--matrix", f, "--bootstrap", 1_000_000_000)
    assert res.exit_code != 0
    text = res.output + (res.stderr if hasattr(res, "stderr") else "")
    assert "above the limit" in text and "fewer resamples" in text and "internal error" not in text
