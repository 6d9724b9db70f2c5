"""The relations between metrics listed in science.md §2, checked on random matrices.

Matrices are drawn with every class present in the truth and in the predictions (unless a test says
otherwise), so no undefined value and no convention is involved: these are identities of the
formulas themselves. Rows = true classes, columns = predicted classes.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from advisor import compute_metrics, per_class

RNG_SEED = 2021


def full_matrices(count: int, k_range=(2, 7), seed: int = RNG_SEED, soft_every: int = 3) -> list[np.ndarray]:
    """Random matrices with all a_i > 0 and b_i > 0; every ``soft_every``-th one has real counts."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        k = int(rng.integers(*k_range))
        C = rng.poisson(rng.uniform(0.2, 10), size=(k, k)).astype(float)
        C[np.diag_indices(k)] += rng.poisson(rng.uniform(0, 30), size=k)
        if len(out) % soft_every == 0:
            C = C * rng.uniform(0.1, 2.0, size=C.shape)
        if np.all(C.sum(0) > 0) and np.all(C.sum(1) > 0):
            out.append(C)
    return out


MATS = full_matrices(150)
BINARY = full_matrices(80, k_range=(2, 3), seed=5)


def gm_r(C: np.ndarray, r: float) -> float:
    """Generalized Means measure of seed 003, Table 1 / Definition 10, written from the formula:
    GM_r = (n c11 − a1 b1) / (½ (a1^r a0^r + b1^r b0^r))^{1/r}; r = 0 is the geometric-mean limit."""
    C = np.asarray(C, float)
    n = C.sum()
    a1, a0 = C[1].sum(), C[0].sum()
    b1, b0 = C[:, 1].sum(), C[:, 0].sum()
    x, y = a1 * a0, b1 * b0
    if r == 0:
        den = math.sqrt(x * y)
    else:
        # (½(x^r + y^r))^{1/r} evaluated in log space so that small |r| stays accurate
        lx, ly = math.log(x), math.log(y)
        m = max(r * lx, r * ly)
        den = math.exp((m + math.log((math.exp(r * lx - m) + math.exp(r * ly - m)) / 2)) / r)
    return (n * C[1, 1] - a1 * b1) / den


def gm1_one_vs_rest(C: np.ndarray) -> float:
    """Macro average over one-vs-rest binary problems (seed 003 §2 'macro averaging') of GM_1."""
    C = np.asarray(C, float)
    n = C.sum()
    vals = []
    for i in range(C.shape[0]):
        tp = C[i, i]
        fn, fp = C[i].sum() - tp, C[:, i].sum() - tp
        tn = n - tp - fn - fp
        vals.append(gm_r(np.array([[tn, fp], [fn, tp]]), 1.0))
    return float(np.mean(vals))


def calibrate(C: np.ndarray) -> np.ndarray:
    """Prevalence calibration (seed 000 eq. 6): every true class (row) gets mass n/k."""
    a = C.sum(axis=1)
    return C * (C.sum() / (C.shape[0] * a))[:, None]


def test_micro_f1_is_accuracy():
    for C in MATS:
        r = compute_metrics(C)
        assert r["micro_f1"] == r["accuracy"] == pytest.approx(np.trace(C) / C.sum(), abs=1e-15)


def test_f1_of_averages_at_least_macro_f1_and_gap_at_most_half():
    for C in MATS:
        r = compute_metrics(C)
        gap = r["f1_of_averages"] - r["macro_f1"]
        assert -1e-15 <= gap <= 0.5


def test_f1_of_averages_equals_macro_f1_iff_precision_equals_recall():
    rng = np.random.default_rng(1)
    for _ in range(40):
        k = int(rng.integers(2, 7))
        B = rng.poisson(4, size=(k, k)).astype(float) + np.eye(k)
        S = B + B.T  # symmetric ⇒ a_i = b_i ⇒ P_i = R_i for all i
        r = compute_metrics(S)
        assert r["f1_of_averages"] == pytest.approx(r["macro_f1"], abs=1e-14)
        pc = per_class(S)
        assert all(row["precision"] == pytest.approx(row["recall"]) for row in pc.values())
    for C in MATS:
        pc = per_class(C)
        r = compute_metrics(C)
        differs = any(abs(row["precision"] - row["recall"]) > 1e-12 for row in pc.values())
        if differs:
            assert r["f1_of_averages"] > r["macro_f1"]
        else:
            assert r["f1_of_averages"] == pytest.approx(r["macro_f1"], abs=1e-14)


def test_gap_approaches_half_for_skewed_errors():
    # (P, R) → (1, 0) for one class and (0, 1) for the other (seed 001, Theorem 3).
    r = compute_metrics([[1, 1e7], [0, 1]])
    assert 0.49 < r["f1_of_averages"] - r["macro_f1"] < 0.5


def test_mcc_dominates_kappa_with_the_same_sign():
    for C in MATS + [C.T for C in MATS]:
        r = compute_metrics(C)
        assert abs(r["mcc"]) >= abs(r["cohen_kappa"]) - 1e-15
        assert np.sign(round(r["mcc"], 12)) == np.sign(round(r["cohen_kappa"], 12))


def test_balanced_test_set_accuracy_equals_balanced_accuracy():
    rng = np.random.default_rng(3)
    for _ in range(60):
        k = int(rng.integers(2, 7))
        size = float(rng.integers(5, 60))
        C = np.zeros((k, k))
        for i in range(k):  # every true class has exactly `size` items
            C[i] = rng.multinomial(int(size), rng.dirichlet(np.ones(k) + 3 * np.eye(k)[i]))
        r = compute_metrics(C)
        assert r["accuracy"] == pytest.approx(r["balanced_accuracy"], abs=1e-14)


def test_sba_is_half_of_ba_plus_ba_of_transpose():
    for C in MATS:
        r, rt = compute_metrics(C), compute_metrics(C.T)
        assert r["sba"] == pytest.approx(0.5 * (r["balanced_accuracy"] + rt["balanced_accuracy"]), abs=1e-14)
        assert rt["balanced_accuracy"] == pytest.approx(r["macro_precision"], abs=1e-14)  # BA(Cᵀ) = macP(C)
        assert r["sba"] == pytest.approx(rt["sba"], abs=1e-14)  # SBA is symmetric


def test_gm_minus_one_is_two_sba_minus_one():
    for C in BINARY:
        assert gm_r(C, -1.0) == pytest.approx(2 * compute_metrics(C)["sba"] - 1, abs=1e-12)


def test_gm_r_tends_to_mcc_as_r_tends_to_zero():
    for C in BINARY:
        mcc = compute_metrics(C)["mcc"]
        assert gm_r(C, 0.0) == pytest.approx(mcc, abs=1e-12)
        errs = [abs(gm_r(C, r) - mcc) for r in (0.5, 0.05, 0.005, 1e-6)]
        assert all(e1 >= e2 - 1e-15 for e1, e2 in zip(errs, errs[1:]))
        assert errs[-1] < 1e-6


def test_engine_gm1_equals_gm_r_at_r_one():
    for C in BINARY:
        assert compute_metrics(C)["gm1"] == pytest.approx(gm_r(C, 1.0), abs=1e-13)
        # GM_1 is class-symmetric: both one-vs-rest problems of a binary task give the same value
        assert gm_r(C[::-1, ::-1], 1.0) == pytest.approx(gm_r(C, 1.0), abs=1e-13)
    for C in MATS:  # k > 2: macro average over one-vs-rest problems (seed 003 §5, "GM1")
        assert compute_metrics(C)["gm1"] == pytest.approx(gm1_one_vs_rest(C), abs=1e-13)


def test_micro_jaccard_from_accuracy():
    for C in MATS:
        r = compute_metrics(C)
        acc = r["accuracy"]
        assert r["micro_jaccard"] == pytest.approx(acc / (2 - acc), abs=1e-14)


def test_per_class_jaccard_from_f1():
    for C in MATS:
        for row in per_class(C).values():
            assert row["jaccard"] == pytest.approx(row["f1"] / (2 - row["f1"]), abs=1e-14)


def test_binary_adjusted_balanced_accuracy_is_informedness():
    for C in BINARY:
        for pos in (0, 1):
            r = compute_metrics(C, positive_label=pos)
            assert r["informedness"] == pytest.approx(r["adjusted_balanced_accuracy"], abs=1e-14)
            assert r["informedness"] == pytest.approx(r["recall"] + r["specificity"] - 1, abs=1e-14)


def test_binary_geometric_macro_recall_is_g_mean():
    for C in BINARY:
        r = compute_metrics(C, positive_label=1)
        assert r["geometric_macro_recall"] == pytest.approx(math.sqrt(r["recall"] * r["specificity"]), abs=1e-14)


def test_geometric_and_harmonic_macro_recall_definitions():
    for C in MATS:
        R = np.diag(C) / C.sum(axis=1)
        r = compute_metrics(C)
        if np.all(R > 0):
            assert r["geometric_macro_recall"] == pytest.approx(float(np.prod(R) ** (1 / len(R))), abs=1e-13)
            assert r["harmonic_macro_recall"] == pytest.approx(len(R) / float(np.sum(1 / R)), abs=1e-13)
        else:
            assert r["geometric_macro_recall"] == 0.0 and r["harmonic_macro_recall"] == 0.0
        # harmonic ≤ geometric ≤ arithmetic
        assert r["harmonic_macro_recall"] <= r["geometric_macro_recall"] + 1e-14
        assert r["geometric_macro_recall"] <= r["balanced_accuracy"] + 1e-14


def test_correlation_distance_is_arccos_mcc_over_pi():
    for C in MATS:
        r = compute_metrics(C)
        assert r["correlation_distance"] == pytest.approx(math.acos(r["mcc"]) / math.pi, abs=1e-13)


def test_minority_weighted_f1_weights():
    # Seed 004: w_i = (n − a_i)/((k−1) n), Σ w_i = 1 (so no extra 1/k, science.md), rare classes weigh
    # more; the score is the harmonic mean of Σ w_i P_i and Σ w_i R_i.
    for C in MATS:
        k, n, a = C.shape[0], C.sum(), C.sum(axis=1)
        w = (n - a) / ((k - 1) * n)
        assert w.sum() == pytest.approx(1.0, abs=1e-14)
        order = np.argsort(a)
        assert np.all(np.diff(w[order]) <= 1e-15)  # smaller class ⇒ larger weight
        P, R = np.diag(C) / C.sum(axis=0), np.diag(C) / a
        wp, wr = w @ P, w @ R
        expected = 2 * wp * wr / (wp + wr) if wp + wr > 0 else 0.0
        assert compute_metrics(C)["minority_weighted_f1"] == pytest.approx(expected, abs=1e-14)
    for k in (2, 3, 5):  # perfect classifier: 1, not 1/k
        assert compute_metrics(np.diag(np.arange(1.0, k + 1)))["minority_weighted_f1"] == pytest.approx(1.0)


def test_binary_minority_weights_swap_the_class_sizes():
    # For k = 2: w_0 = a_1/n, w_1 = a_0/n — each class weighted by the OTHER class's share.
    for C in BINARY:
        a, n = C.sum(axis=1), C.sum()
        w = (n - a) / n
        assert w == pytest.approx(a[::-1] / n)


def test_prevalence_calibration_identities():
    # science.md §2: BA = accuracy of the calibrated matrix; kappa of the calibrated matrix =
    # adjusted BA; weighted F1 of the calibrated matrix = its macro F1 (seed 000 §4.2, §4.6, eq. 16).
    for C in MATS:
        r, rc = compute_metrics(C), compute_metrics(calibrate(C))
        assert rc["accuracy"] == pytest.approx(r["balanced_accuracy"], abs=1e-14)
        assert rc["balanced_accuracy"] == pytest.approx(r["balanced_accuracy"], abs=1e-14)
        assert rc["cohen_kappa"] == pytest.approx(r["adjusted_balanced_accuracy"], abs=1e-13)
        assert rc["weighted_f1"] == pytest.approx(rc["macro_f1"], abs=1e-14)


def test_definitions_of_kappa_mcc_and_adjusted_ba():
    for C in MATS:
        n, a, b = C.sum(), C.sum(axis=1), C.sum(axis=0)
        acc, pe = np.trace(C) / n, (a @ b) / n**2
        r = compute_metrics(C)
        assert r["cohen_kappa"] == pytest.approx((acc - pe) / (1 - pe), abs=1e-13)
        mcc = (n * np.trace(C) - a @ b) / math.sqrt((n**2 - b @ b) * (n**2 - a @ a))
        assert r["mcc"] == pytest.approx(mcc, abs=1e-13)
        k = C.shape[0]
        assert r["adjusted_balanced_accuracy"] == pytest.approx((r["balanced_accuracy"] - 1 / k) / (1 - 1 / k), abs=1e-14)


def test_binary_definitions():
    for C in BINARY:
        r = compute_metrics(C, positive_label=1)
        tp, fn, fp, tn = C[1, 1], C[1, 0], C[0, 1], C[0, 0]
        assert r["precision"] == pytest.approx(tp / (tp + fp))
        assert r["recall"] == pytest.approx(tp / (tp + fn))
        assert r["specificity"] == pytest.approx(tn / (tn + fp))
        assert r["f1"] == pytest.approx(2 * tp / (2 * tp + fp + fn))
        assert r["jaccard"] == pytest.approx(tp / (tp + fp + fn))
        assert r["fowlkes_mallows"] == pytest.approx(math.sqrt(r["precision"] * r["recall"]))
        assert r["markedness"] == pytest.approx(r["precision"] + r["npv"] - 1)
        fpr = 1 - r["specificity"]
        assert r["lr_plus"] == (pytest.approx(r["recall"] / fpr) if fpr > 0 else math.inf)
        assert r["lr_minus"] == pytest.approx((1 - r["recall"]) / r["specificity"])
        # binary MCC² = informedness · markedness
        assert r["mcc"] ** 2 == pytest.approx(r["informedness"] * r["markedness"], abs=1e-13)


def test_symmetric_metrics_are_symmetric_and_scale_invariant():
    sym = ("accuracy", "cohen_kappa", "mcc", "sba", "correlation_distance", "confusion_entropy",
           "micro_jaccard", "f1_of_averages", "gm1")
    for C in MATS[:60]:
        r, rt, r10 = compute_metrics(C), compute_metrics(C.T), compute_metrics(C * 10.0)
        for m in sym:
            assert r[m] == pytest.approx(rt[m], abs=1e-13), m
        for m, v in r.items():
            assert r10[m] == pytest.approx(v, abs=1e-13), m


@pytest.mark.parametrize("truth, called", [
    ([0, 0, 0, 0, 0, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]),      # two classes, unequal class sizes
    ([0, 0, 0, 1, 1, 2, 2, 2], [0, 1, 1, 1, 2, 2, 2, 2]),      # three classes
    ([0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0, 0, 1]),      # one call of the rare class
])
def test_mcc_and_kappa_have_expected_value_zero_for_calls_independent_of_the_truth(truth, called):
    """The methods say MCC and Cohen's kappa have "expected value 0 for every classifier whose predictions are
    independent of the true class, whatever the class sizes" (Gösgens et al. 2021, constant baseline). Given both
    class-size vectors, calls independent of the truth place every arrangement of the calls equally likely: the mean
    over all of them, each scored by scikit-learn, is 0 exactly, at a test set of 8 items, not only on a large one."""
    from itertools import permutations

    from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

    arrangements = set(permutations(called))
    mcc = [matthews_corrcoef(truth, list(a)) for a in arrangements]
    kappa = [cohen_kappa_score(truth, list(a)) for a in arrangements]
    assert len(arrangements) >= 8
    assert abs(float(np.mean(mcc))) < 1e-12 and abs(float(np.mean(kappa))) < 1e-12
    assert max(mcc) > 0.3 and min(mcc) < -0.1  # not 0 on each test set: 0 on average
