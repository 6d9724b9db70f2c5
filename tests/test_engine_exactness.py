"""Numerical promises of the engine that are easy to lose in a refactor."""

from __future__ import annotations

import numpy as np
import pytest

from advisor import compute_metrics
from advisor.engine._metrics import evaluate_batch

IDS = ["mcc", "cohen_kappa", "correlation_distance"]


@pytest.mark.parametrize(
    "diag",
    [[5, 3], [0.1, 0.2, 0.7], [1e6, 1, 7], [3.3, 0.0, 2.2], [1e-6, 2e-6, 5e-7, 1e-6]],
)
def test_perfect_agreement_is_exactly_the_maximum(diag) -> None:
    # kappa/MCC are computed from the off-diagonal mass, so a diagonal matrix (integer or soft counts,
    # with or without an absent class) gives exactly 1 and correlation distance exactly 0
    r = compute_metrics(np.diag(diag), IDS, undefined="baseline")
    assert r["mcc"] == 1.0 and r["cohen_kappa"] == 1.0 and r["correlation_distance"] == 0.0


def test_perfect_agreement_in_a_batch() -> None:
    rng = np.random.default_rng(0)
    stack = np.stack([np.diag(rng.uniform(0.1, 100, 4)) for _ in range(50)])
    out = evaluate_batch(stack, IDS)
    assert np.all(out["mcc"] == 1.0) and np.all(out["cohen_kappa"] == 1.0) and np.all(out["correlation_distance"] == 0.0)


@pytest.mark.parametrize("scale", [1.0, 1e-3, 1e-6, 1e3])
def test_baseline_resolution_ignores_the_unit_of_the_counts(scale) -> None:
    # a class with a tiny but non-zero predicted mass is not "absent from both labelings"
    C = np.array([[1, 0, 1e-9], [0, 1, 0], [0, 0, 0]]) * scale
    ref = compute_metrics(np.array([[1, 0, 1e-9], [0, 1, 0], [0, 0, 0]]), undefined="baseline")
    r = compute_metrics(C, undefined="baseline")
    for m in ("balanced_accuracy", "macro_precision", "sba", "macro_f1"):
        assert r[m] == pytest.approx(ref[m], rel=1e-9, abs=1e-12), m


@pytest.mark.parametrize(
    "matrix", [[[0, 0.122], [9.67, 2.95]], [[0, 0.00035], [0.183, 0]], [[0, 0.0018], [0.183, 0]],
               [[0, 1e-9], [3e9 + 0.1, 7.7]]],
)
def test_an_empty_true_negative_cell_of_soft_counts_is_exactly_zero(matrix) -> None:
    # TN = n − a − b + TP leaves a residue of order 10⁻¹⁵·n when the counts are not integers; read as
    # a count it gave a specificity of 10⁻¹⁴ and LR− of 10¹⁴ where the limit is +inf (the audit's
    # prevalence-invariance counterexamples for LR− came from this)
    r = compute_metrics(np.array(matrix, dtype=float), ["specificity", "lr_minus", "npv"], positive_label=1)
    assert r["specificity"] == 0.0 and r["npv"] == 0.0
    assert r["lr_minus"] == np.inf
