"""Prevalence calibration (Opitz 2024, eq. 6) and the relations of science.md §2 on calibrated matrices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor import ConfusionMatrix, calibrate, compute_metrics
from advisor.stats._calibrate import calibrate_counts, calibrated_metrics
from advisor._exceptions import InputError


def matrices(k_min: int = 2, k_max: int = 5):
    """Matrices with every class present in the truth (soft counts included)."""
    return st.integers(k_min, k_max).flatmap(
        lambda k: st.lists(st.floats(0, 50, allow_nan=False), min_size=k * k, max_size=k * k).map(
            lambda xs: np.array(xs).reshape(k, k) + np.eye(k) * 0.5))


@settings(max_examples=60, deadline=None)
@given(matrices())
def test_calibrated_relations_of_science_md(C):
    r, rc = compute_metrics(C), compute_metrics(calibrate(C))
    assert rc["accuracy"] == pytest.approx(r["balanced_accuracy"], rel=1e-9, abs=1e-12)  # accuracy~ = BA
    assert rc["cohen_kappa"] == pytest.approx(r["adjusted_balanced_accuracy"], rel=1e-9, abs=1e-12)  # kappa~ = adj. BA
    assert rc["weighted_f1"] == pytest.approx(rc["macro_f1"], rel=1e-9, abs=1e-12)  # weighted F1~ = macro F1~
    assert rc["weighted_jaccard"] == pytest.approx(rc["macro_jaccard"], rel=1e-9, abs=1e-12)
    assert rc["balanced_accuracy"] == pytest.approx(r["balanced_accuracy"], rel=1e-9, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(matrices(), st.floats(0.1, 10), st.integers(0, 10))
def test_calibrated_metrics_are_prevalence_invariant(C, factor, row):
    scaled = C.copy()
    scaled[row % C.shape[0]] *= factor
    a, b = calibrated_metrics(C), calibrated_metrics(scaled)
    for key in a:
        assert b[key] == pytest.approx(a[key], rel=1e-7, abs=1e-9), key


def test_rows_get_equal_mass_and_labels_survive():
    cm = ConfusionMatrix([[8, 2, 0], [1, 1, 0], [0, 3, 27]], ["a", "b", "c"])
    cal = calibrate(cm)
    assert cal.labels == ("a", "b", "c")
    assert cal.n == pytest.approx(cm.n)
    assert cal.true_sizes.tolist() == pytest.approx([cm.n / 3] * 3)
    # proportions within a row are kept
    assert cal.normalised("true") == pytest.approx(cm.normalised("true"))


def test_a_class_absent_from_the_truth_keeps_an_empty_row():
    C = np.array([[6.0, 2.0, 2.0], [0.0, 0.0, 0.0], [1.0, 1.0, 8.0]])
    cal = calibrate(C).counts
    assert cal[1].tolist() == [0.0, 0.0, 0.0]
    assert cal.sum() == pytest.approx(C.sum())
    assert cal.sum(axis=1).tolist() == pytest.approx([10.0, 0.0, 10.0])
    # accuracy~ = mean recall over the classes present (balanced accuracy under 'omit')
    acc = compute_metrics(cal, ["accuracy"])["accuracy"]
    assert acc == pytest.approx(compute_metrics(C, ["balanced_accuracy"], undefined="omit")["balanced_accuracy"])


def test_calibrated_metrics_suffix_ids_and_undefined_records():
    r = calibrated_metrics([[5, 0], [2, 0]], ["accuracy", "macro_precision"])
    assert sorted(r) == ["accuracy~", "macro_precision~"]
    assert r.undefined and all(u.metric.endswith("~") for u in r.undefined)
    assert r.convention == "omit"  # the default (issue 22)


def test_stacks_and_errors():
    stack = np.stack([np.eye(3) * 2 + 1, np.ones((3, 3))])
    out = calibrate_counts(stack)
    assert out.shape == (2, 3, 3) and np.allclose(out.sum(axis=-1), stack.sum(axis=(-1, -2))[:, None] / 3)
    with pytest.raises(InputError, match="all zeros"):
        calibrate([[0, 0], [0, 0]])
    with pytest.raises(InputError):
        calibrate([[1, -1], [0, 1]])
