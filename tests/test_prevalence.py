"""Projection of metrics to another class distribution (advisor.stats._prevalence)."""

from __future__ import annotations

import numpy as np
import pytest

import advisor
from advisor import ConfusionMatrix, InputError, compute_metrics, per_class
from advisor.stats._prevalence import project_to_prevalence, prevalence_sensitivity

C = np.array([[50, 6, 4], [3, 20, 7], [2, 2, 6]], dtype=float)  # a = (60, 30, 10)


def test_public_names_are_lazy_exported():
    assert advisor.project_to_prevalence is project_to_prevalence
    assert advisor.prevalence_sensitivity is prevalence_sensitivity


def test_projected_matrix_is_rows_rescaled_to_target_shares():
    target = [0.2, 0.3, 0.5]
    r = project_to_prevalence(C, target)
    a = C.sum(axis=1)
    expected = np.array(target)[:, None] * C.sum() * C / a[:, None]
    assert np.allclose(r.matrix.counts, expected)
    assert np.allclose(r.matrix.true_sizes / r.matrix.n, target)
    assert r.target == pytest.approx({0: 0.2, 1: 0.3, 2: 0.5})
    assert r.observed == pytest.approx({0: 0.6, 1: 0.3, 2: 0.1})


def test_precision_matches_seed_000_section_6_3_and_recall_transfers():
    # P_i' = R_i π_i / Σ_j π_j C[j, i] / a_j (seed 000 §6.3 in this project's rows-are-truth convention)
    rng = np.random.default_rng(0)
    for _ in range(5):
        cm = rng.integers(1, 40, (4, 4)).astype(float)
        pi = rng.dirichlet(np.ones(4))
        proj = project_to_prevalence(cm, pi).matrix
        a = cm.sum(axis=1)
        recall = np.diag(cm) / a
        formula = recall * pi / (pi[:, None] * cm / a[:, None]).sum(axis=0)
        got = [per_class(proj)[lab]["precision"] for lab in proj.labels]
        assert np.allclose(got, formula)
        assert np.allclose([per_class(proj)[lab]["recall"] for lab in proj.labels], recall)


def test_equal_prevalence_is_calibration():
    r = project_to_prevalence(C, "equal")
    orig = compute_metrics(C)
    # science.md §2 relations for the prevalence-calibrated matrix
    assert r["accuracy"] == pytest.approx(orig["balanced_accuracy"])
    assert r["cohen_kappa"] == pytest.approx(orig["adjusted_balanced_accuracy"])
    assert r["weighted_f1"] == pytest.approx(r["macro_f1"])
    assert r["balanced_accuracy"] == pytest.approx(orig["balanced_accuracy"])  # PIV
    assert np.allclose(r.matrix.true_sizes, C.sum() / 3)


def test_observed_shares_reproduce_the_original_metrics():
    r = project_to_prevalence(C, C.sum(axis=1))  # unnormalised: normalised to shares
    orig = compute_metrics(C)
    for m in orig:
        assert r[m] == pytest.approx(orig[m]), m


def test_target_as_mapping_with_string_labels_and_positive_label():
    cm = ConfusionMatrix([[80, 20], [10, 30]], labels=["neg", "pos"])
    r = project_to_prevalence(cm, {"pos": 1, "neg": 1}, ["precision", "recall"], positive_label="pos")
    assert r["recall"] == pytest.approx(0.75)
    # equal shares: TP' ∝ 0.5 · 0.75, FP' ∝ 0.5 · 0.2
    assert r["precision"] == pytest.approx(0.75 / (0.75 + 0.2))
    with pytest.raises(InputError):
        project_to_prevalence(cm, {"cat": 1.0})


def test_zero_share_removes_a_class_and_conventions_apply():
    r = project_to_prevalence(C, [0.5, 0.5, 0.0], ["balanced_accuracy"], undefined="omit")
    assert np.allclose(r.matrix.counts[2], 0)
    # class 2 has no true items in the target: its recall is undefined and left out of the average
    assert r["balanced_accuracy"] == pytest.approx((50 / 60 + 20 / 30) / 2)
    assert [(u.quantity, u.label) for u in r.undefined] == [("recall", 2)]


@pytest.mark.parametrize(
    ("target", "match"),
    [
        ([0.5, 0.5], "3 classes"),
        ([0.5, -0.1, 0.6], "≥ 0"),
        ([0, 0, 0], "not all zero"),
        ("skewed", "'equal'"),
        ([0.3, np.nan, 0.7], "finite"),
    ],
)
def test_bad_targets(target, match):
    with pytest.raises(InputError, match=match):
        project_to_prevalence(C, target)


def test_equal_prevalence_agrees_with_calibrate():
    calibrate = pytest.importorskip("advisor.stats._calibrate").calibrate
    for cm in (C, np.array([[10, 2, 0], [3, 9, 1], [0, 0, 0]], dtype=float)):
        assert np.allclose(project_to_prevalence(cm, "equal").matrix.counts, calibrate(cm).counts)


def test_absent_class_cannot_get_a_positive_share():
    cm = [[10, 2, 0], [3, 9, 1], [0, 0, 0]]
    with pytest.raises(InputError, match="no true items"):
        project_to_prevalence(cm, [1, 1, 1])
    eq = project_to_prevalence(cm, "equal", ["accuracy"])  # equal shares among the classes present
    assert eq.target == pytest.approx({0: 0.5, 1: 0.5, 2: 0.0})
    r = project_to_prevalence(cm, [0.5, 0.5, 0.0], ["accuracy"])
    assert r["accuracy"] == pytest.approx(0.5 * 10 / 12 + 0.5 * 9 / 13)


def test_sensitivity_defaults_to_minority_class_and_open_grid():
    s = prevalence_sensitivity(C, "accuracy")
    assert s["class_label"] == 2 and s["metric"] == "accuracy"
    assert s["share"].shape == (99,) and s["share"][0] == pytest.approx(0.01) and s["share"][-1] == pytest.approx(0.99)
    assert s["observed_share"] == pytest.approx(0.1)
    assert s["observed_value"] == pytest.approx(76 / 100)
    # accuracy is linear in the share: s·R_c + (1 − s)·(accuracy of the other classes)
    r_c = 6 / 10
    rest = (50 + 20) / 90
    assert np.allclose(s["value"], s["share"] * r_c + (1 - s["share"]) * rest)


def test_sensitivity_passes_through_the_observed_value():
    s = prevalence_sensitivity(C, "macro_f1", class_label=1, grid=[0.1, 0.3, 0.9])
    assert s["value"][1] == pytest.approx(compute_metrics(C)["macro_f1"])


def test_sensitivity_of_a_prevalence_invariant_metric_is_flat():
    s = prevalence_sensitivity(C, "balanced_accuracy", grid=11)
    assert np.allclose(s["value"], compute_metrics(C)["balanced_accuracy"])
    assert s["share"].shape == (11,)


def test_sensitivity_binary_with_string_positive_label():
    cm = ConfusionMatrix([[80, 20], [10, 30]], labels=["neg", "pos"])
    s = prevalence_sensitivity(cm, "precision", "pos", grid=[0.25, 0.5], positive_label="pos")
    # precision = R π / (R π + FPR (1 − π)), R = 0.75, FPR = 0.2
    expected = [0.75 * p / (0.75 * p + 0.2 * (1 - p)) for p in (0.25, 0.5)]
    assert s["value"] == pytest.approx(expected)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"grid": 1}, "at least 2"),
        ({"grid": [0.5, 1.5]}, r"\[0, 1\]"),
        ({"grid": []}, "non-empty"),
        ({"class_label": 7}, "7"),
        ({"metric": ["accuracy", "mcc"]}, "one metric id"),
    ],
)
def test_sensitivity_bad_arguments(kwargs, match):
    args = {"metric": "accuracy", **kwargs}
    with pytest.raises(InputError, match=match):
        prevalence_sensitivity(C, **args)


def test_sensitivity_needs_two_populated_classes():
    with pytest.raises(InputError, match="cannot sweep"):
        prevalence_sensitivity([[5, 1], [0, 0]], "accuracy", class_label=0)
