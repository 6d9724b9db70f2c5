"""Every worked number of the five source papers (``/work/shared/seeds``), reproduced by the engine.

Convention of this project: ``C[i, j]`` = items of TRUE class ``i`` PREDICTED as ``j`` (rows = truth).
Grandini (seed 002) and Gösgens et al. (seed 003) use the same orientation. Opitz & Burst (seed 001),
Opitz (seed 000) and the I2ML slides (seed 004) write ``m[pred, true]``; every matrix copied from them
is written here exactly as printed and passed through :func:`from_pred_true`, i.e. TRANSPOSED.

Where a printed number disagrees with the mathematics (truncation instead of rounding, a typo in a
formula) the test asserts the correct value and says why in a comment.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from advisor import ConfusionMatrix, compute_metrics, confusion_matrix, per_class
from advisor.engine._metrics import evaluate_batch


def from_pred_true(m: list[list[float]]) -> np.ndarray:
    """Opitz / I2ML print ``m[pred, true]``; this project uses ``C[true, pred]``: transpose."""
    return np.asarray(m, dtype=float).T


def metrics(matrix, ids=None, **kw):
    return compute_metrics(matrix, ids, **kw)


def calibrate(C: np.ndarray) -> np.ndarray:
    """Opitz (2024) eq. 6, prevalence calibration: scale TRUE class i (a row here) by n / (k a_i)."""
    C = np.asarray(C, dtype=float)
    a = C.sum(axis=1)
    return C * (C.sum() / (C.shape[0] * a))[:, None]


# =================================================================================================
# Seed 002 — Grandini, Bagli & Visani (2020), rows = actual, columns = predicted (same as ours)
# =================================================================================================
GRANDINI_FIG1 = np.array([[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]], float)
GRANDINI_FIG3 = np.array([[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]], float)
GRANDINI_FIG4 = np.array([[50, 37, 24, 39], [10, 480, 5, 3], [14, 10, 765, 1], [0, 2, 9, 101]], float)


def grandini_binary(tp, fn, fp, tn) -> ConfusionMatrix:
    # Figures 2, 7, 9, 11, 12 list the positive class (1) first, rows = actual.
    return ConfusionMatrix([[tp, fn], [fp, tn]], labels=[1, 0])


class TestGrandini:
    def test_figure1_totals(self):
        cm = ConfusionMatrix(GRANDINI_FIG1, list("abcd"))
        assert cm.true_sizes.tolist() == [9, 14, 13, 16]  # "Total" column of Figure 1
        assert cm.predicted_sizes.tolist() == [11, 11, 13, 17]  # "Total" row of Figure 1
        assert cm.n == 52

    def test_figure1_accuracy_eq4(self):
        assert metrics(GRANDINI_FIG1)["accuracy"] == pytest.approx((6 + 9 + 10 + 12) / 52, abs=1e-15)

    def test_figure1_balanced_accuracy_eq6(self):
        expected = (6 / 9 + 9 / 14 + 10 / 13 + 12 / 16) / 4
        assert metrics(GRANDINI_FIG1)["balanced_accuracy"] == pytest.approx(expected, abs=1e-15)

    def test_balanced_accuracy_weighted_eq7_eq8_is_accuracy(self):
        # §3.1, eq. 7/8: "each recall multiplied by the weight of its class w_k, the frequency of the
        # class", divided by K·W. With w_k = a_k/n the weights sum to W = 1 and Σ w_k R_k = Σ TP_k / n
        # is exactly accuracy; the printed 1/(K·W) would cap the score at 1/K (a perfect classifier
        # would score 0.25 here), so the meaningful quantity is Σ w_k R_k = accuracy (science.md §2).
        # (Eq. 7 as printed even puts w_k in the denominator, TP_k/(Total_row_k · w_k); eq. 8 shows
        # it multiplies.) The engine offers no separate metric for it.
        pc = per_class(GRANDINI_FIG1)
        n = GRANDINI_FIG1.sum()
        w = {lab: row["support"] / n for lab, row in pc.items()}
        assert sum(w.values()) == pytest.approx(1.0)
        bal_w = sum(w[lab] * pc[lab]["recall"] for lab in pc)
        assert bal_w == pytest.approx(metrics(GRANDINI_FIG1)["accuracy"], abs=1e-15)
        printed = bal_w / (4 * sum(w.values()))
        assert printed == pytest.approx(metrics(GRANDINI_FIG1)["accuracy"] / 4)
        assert metrics(np.diag([9.0, 14, 13, 16]))["accuracy"] / 4 == 0.25  # the cap

    def test_figure2_binary_precision_recall_f1_eq10_eq11(self):
        r = metrics(grandini_binary(20, 5, 10, 15), positive_label=1)
        # eq. 10 prints Precision = 20/30 = 0.66: that is a truncation of 0.666…; we assert 2/3.
        assert r["precision"] == pytest.approx(2 / 3, abs=1e-15)
        assert r["recall"] == pytest.approx(0.80, abs=1e-15)
        # eq. 11 prints F1 = 0.72, computed from the truncated 0.66 (2·0.66·0.8/1.46 = 0.7233).
        # The exact value is 2·TP/(2·TP + FP + FN) = 40/55 = 8/11 = 0.7273 (0.73 when rounded).
        assert r["f1"] == pytest.approx(8 / 11, abs=1e-15)
        assert r["f1"] == pytest.approx(0.72, abs=0.01)
        assert r["accuracy"] == pytest.approx(35 / 50)  # eq. 3 on Figure 2

    def test_figure3_imbalanced(self):
        cm = ConfusionMatrix(GRANDINI_FIG3, list("abcd"))
        assert cm.true_sizes.tolist() == [62, 585, 808, 95]
        assert cm.predicted_sizes.tolist() == [182, 661, 479, 228]
        r = metrics(cm)
        assert round(r["accuracy"], 3) == 0.689  # "Accuracy value is 0.689"
        assert round(r["balanced_accuracy"], 3) == 0.615  # "Balanced Accuracy is 0.615"
        # "57 misclassified elements and 5 rightly predicted … recall … quite low (0.0806)"
        assert cm.true_sizes[0] - GRANDINI_FIG3[0, 0] == 57
        assert round(per_class(cm)["a"]["recall"], 4) == 0.0806

    def test_figure4_class_b_precision_recall_eq12_eq13(self):
        cm = ConfusionMatrix(GRANDINI_FIG4, list("abcd"))
        assert cm.true_sizes.tolist() == [150, 498, 790, 112]
        assert cm.predicted_sizes.tolist() == [74, 529, 803, 144]
        b = per_class(cm)["b"]
        assert b["precision"] == pytest.approx(480 / 529)  # TP_b / (TP_b + FP_b), column b
        assert b["recall"] == pytest.approx(480 / 498)  # TP_b / (TP_b + FN_b), row b

    def test_macro_f1_eq14_16_is_f1_of_averages(self):
        # Grandini's "Macro F1-Score" (eq. 14–16) is the harmonic mean of macro precision and macro
        # recall, i.e. this project's `f1_of_averages`, NOT `macro_f1` (mean of per-class F1).
        # Eq. 16 as printed, 2·(P·R)/(P⁻¹ + R⁻¹), is a typo: it equals the harmonic mean only at
        # P = R = 1 (for P = R = 0.5 it gives 0.125, not 0.5). The harmonic mean of eq. 9 is
        # 2PR/(P + R), which we assert.
        r = metrics(GRANDINI_FIG4)
        p = np.mean([50 / 74, 480 / 529, 765 / 803, 101 / 144])
        rc = np.mean([50 / 150, 480 / 498, 765 / 790, 101 / 112])
        assert r["macro_precision"] == pytest.approx(p, abs=1e-15)
        assert r["balanced_accuracy"] == pytest.approx(rc, abs=1e-15)
        assert r["f1_of_averages"] == pytest.approx(2 * p * rc / (p + rc), abs=1e-15)
        assert r["f1_of_averages"] != pytest.approx(r["macro_f1"], abs=1e-4)

    def test_micro_f1_eq17_19_is_accuracy(self):
        r = metrics(GRANDINI_FIG4)
        assert r["micro_f1"] == r["accuracy"] == pytest.approx((50 + 480 + 765 + 101) / 1550)

    def test_figure7_binary_mcc_eq24(self):
        r = metrics(grandini_binary(20, 5, 10, 15), ["mcc"])
        assert round(r["mcc"], 3) == 0.408  # "MCC = 0.408"
        assert r["mcc"] == pytest.approx((20 * 15 - 10 * 5) / math.sqrt(25 * 30 * 20 * 25), abs=1e-15)

    def test_figure8_multiclass_mcc_eq25_and_kappa_eq40(self):
        C = GRANDINI_FIG4
        c, s = np.trace(C), C.sum()
        p, t = C.sum(axis=0), C.sum(axis=1)  # p_k column totals (predicted), t_k row totals (true)
        mcc = (c * s - p @ t) / math.sqrt((s**2 - p @ p) * (s**2 - t @ t))
        kappa = (c * s - p @ t) / (s**2 - p @ t)
        r = metrics(C)
        assert r["mcc"] == pytest.approx(mcc, abs=1e-14)
        assert r["cohen_kappa"] == pytest.approx(kappa, abs=1e-14)
        # §5.2.2 says kappa's denominator is "slightly lower … justifying slightly higher final
        # scores". The opposite holds: s² − Σ p t ≥ √((s² − Σp²)(s² − Σt²)) (Cauchy–Schwarz and
        # AM–GM), so |kappa| ≤ |MCC| (Opitz 2024 §4.7). We assert the mathematics.
        assert abs(r["cohen_kappa"]) <= abs(r["mcc"])
        assert s**2 - p @ t >= math.sqrt((s**2 - p @ p) * (s**2 - t @ t))

    def test_figure9_total_unbalanced_prediction(self):
        # Everything predicted positive: "the value of MCC falls to 0, even if the Accuracy achieves
        # a great value (0.80) and the Recall for the first class assumes the highest value (1)".
        # MCC is 0/0 here; the zero convention (default) and the baseline convention (one labeling
        # constant ⇒ constant baseline 0) both give 0.
        cm = grandini_binary(40, 0, 10, 0)
        for conv in ("zero", "baseline"):
            r = metrics(cm, positive_label=1, undefined=conv)
            assert r["mcc"] == 0.0
            assert r["accuracy"] == pytest.approx(0.80)
            assert r["recall"] == 1.0
        assert any(u.metric == "mcc" for u in metrics(cm, ["mcc"]).undefined)

    def test_figure11_binary_kappa_eq28_34(self):
        cm = grandini_binary(45, 15, 25, 15)
        # eq. 34: P_Positive = (45+15)/100 · (45+25)/100 = 0.42; eq. 31: P_Negative = 0.4 · 0.3
        p_pos = (45 + 15) / 100 * (45 + 25) / 100
        p_e = p_pos + (25 + 15) / 100 * (15 + 15) / 100
        assert p_pos == pytest.approx(0.42)
        r = metrics(cm)
        assert r["cohen_kappa"] == pytest.approx((0.6 - p_e) / (1 - p_e), abs=1e-15)
        assert round(r["cohen_kappa"], 2) == 0.13  # Figure 12, left: "K = 0.13"

    def test_figure12_same_accuracy_different_kappa(self):
        left, right = grandini_binary(45, 15, 25, 15), grandini_binary(25, 35, 5, 35)
        rl, rr = metrics(left), metrics(right)
        assert rl["accuracy"] == rr["accuracy"] == pytest.approx(0.6)
        assert round(rl["cohen_kappa"], 2) == 0.13
        assert round(rr["cohen_kappa"], 3) == 0.259  # Figure 12, right: "K = 0.259"


# =================================================================================================
# Seed 001 — Opitz & Burst (2019), "Macro F1 and Macro F1".  Matrices are m[pred, true]: TRANSPOSED.
# 𝓕1 ("averaged F1", eq. 2) = our `macro_f1`; 𝔽1 ("F1 of averages", eq. 3) = our `f1_of_averages`.
# =================================================================================================
def opitz_burst_delta(C: np.ndarray) -> float:
    """Lemma, eq. 4: Δ = 𝔽1 − 𝓕1 = Σ_{x,y} (P_x R_y − P_y R_x)² / ((P_x+R_x)(P_y+R_y)) / (n Σ (P+R))."""
    C = np.asarray(C, dtype=float)
    tp, a, b = np.diag(C), C.sum(axis=1), C.sum(axis=0)
    P = np.where(b > 0, tp / np.where(b > 0, b, 1), 0.0)
    R = np.where(a > 0, tp / np.where(a > 0, a, 1), 0.0)
    S = P + R
    ok = S > 0
    total = 0.0
    for x, y in itertools.product(np.flatnonzero(ok), repeat=2):
        total += (P[x] * R[y] - P[y] * R[x]) ** 2 / (S[x] * S[y])
    return total / (C.shape[0] * S.sum())


def opitz_burst_sequence(n: int, z: float) -> np.ndarray:
    """Appendix C, Proof 3: the matrices m_z^n (printed m[pred, true]) whose Δ tends to the supremum."""
    m = np.zeros((n, n))
    blocks = [2] * (n // 2) if n % 2 == 0 else [2] * ((n - 3) // 2) + [3]
    i = 0
    for size in blocks:
        if size == 2:  # [[1, 0], [z, 1]]
            m[i, i] = m[i + 1, i + 1] = 1
            m[i + 1, i] = z
        else:  # [[1, 0, 0], [z, 1, z], [0, 0, 1]]
            m[i, i] = m[i + 1, i + 1] = m[i + 2, i + 2] = 1
            m[i + 1, i] = m[i + 1, i + 2] = z
        i += size
    return from_pred_true(m)


class TestOpitzBurst2019:
    def test_table1(self):
        C = from_pred_true([[5, 10], [5, 10]])
        r = metrics(C)
        assert round(r["f1_of_averages"], 2) == 0.50  # "𝔽1 = 0.5"
        assert round(r["macro_f1"], 2) == 0.49  # "𝓕1 = 0.49"
        assert r["macro_f1"] == pytest.approx((0.4 + 20 / 35) / 2, abs=1e-15)

    def test_table2(self):
        C = from_pred_true([[1, 1], [9, 19]])
        r = metrics(C)
        # Printed 𝔽1 = 0.55. Exact: macP = (1/2 + 19/28)/2, macR = (1/10 + 19/20)/2, H = 0.55529…,
        # which rounds to 0.56; the paper truncated. We assert the exact value.
        p, rc = (1 / 2 + 19 / 28) / 2, (1 / 10 + 19 / 20) / 2
        assert r["f1_of_averages"] == pytest.approx(2 * p * rc / (p + rc), abs=1e-15)
        assert math.floor(r["f1_of_averages"] * 100) / 100 == 0.55
        assert round(r["macro_f1"], 2) == 0.48  # "𝓕1 = 0.48"

    def test_tables1_2_rank_reversal(self):
        # §3: "Introducing a bias towards class b improves 𝔽1, impairs 𝓕1."
        t1, t2 = metrics(from_pred_true([[5, 10], [5, 10]])), metrics(from_pred_true([[1, 1], [9, 19]]))
        assert t2["f1_of_averages"] > t1["f1_of_averages"]
        assert t2["macro_f1"] < t1["macro_f1"]

    def test_table3_and_appendix_d_output(self):
        # Appendix D prints the Haskell program's output for [[100, 10000], [0, 100]].
        C = from_pred_true([[100, 10000], [0, 100]])
        r = metrics(C)
        assert r["f1_of_averages"] == pytest.approx(0.504950495049505, abs=1e-15)  # "benevolent"
        assert r["macro_f1"] == pytest.approx(1.96078431372549e-2, abs=1e-15)  # "non-benevolent"
        assert r["f1_of_averages"] - r["macro_f1"] == pytest.approx(0.48534265191225007, abs=1e-14)
        assert opitz_burst_delta(C) == pytest.approx(0.48534265191225007, abs=1e-14)  # "delta calculated"
        pc = per_class(C)
        assert round(pc[0]["f1"], 4) == round(pc[1]["f1"], 4) == 0.0196  # "individual F1 … both classes"

    def test_table4_balanced_errors_no_gap(self):
        r = metrics(from_pred_true([[100, 5000], [5000, 100]]))
        assert r["f1_of_averages"] == pytest.approx(1.96078431372549e-2, abs=1e-15)
        assert r["macro_f1"] == pytest.approx(1.96078431372549e-2, abs=1e-15)
        assert r["f1_of_averages"] - r["macro_f1"] == pytest.approx(0.0, abs=1e-15)

    def test_lemma_eq4_on_random_matrices(self):
        rng = np.random.default_rng(1911)
        for _ in range(40):
            k = int(rng.integers(2, 7))
            C = rng.integers(0, 30, size=(k, k)).astype(float)
            C[np.diag_indices(k)] += 1  # not hollow (the Lemma's condition)
            r = metrics(C)
            assert r["f1_of_averages"] - r["macro_f1"] == pytest.approx(opitz_burst_delta(C), abs=1e-12)

    def test_theorem_part2_equality_iff_p_equals_r(self):
        # Theorem 2: 𝔽1 > 𝓕1 ⇔ ∃ i: P_i ≠ R_i. A matrix with a_i = b_i for all i has P_i = R_i.
        C = np.array([[5, 2, 1], [1, 7, 2], [2, 1, 4]], float)  # row sums 8, 10, 7 = column sums
        assert np.allclose(C.sum(0), C.sum(1))
        r = metrics(C)
        assert r["f1_of_averages"] == pytest.approx(r["macro_f1"], abs=1e-15)
        C2 = C.copy()
        C2[0, 1] += 1
        r2 = metrics(C2)
        assert r2["f1_of_averages"] > r2["macro_f1"]

    @pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
    def test_theorem_part3_supremum(self, n):
        # Theorem 3: sup Δ = 0.5 (n even), 0.5 − 1/(2n²) (n odd); approached by Proof 3's sequence.
        bound = 0.5 if n % 2 == 0 else 0.5 - 1 / (2 * n**2)
        gaps = []
        for z in (1e2, 1e4, 1e6):
            r = metrics(opitz_burst_sequence(n, z))
            gaps.append(r["f1_of_averages"] - r["macro_f1"])
        assert all(g < bound for g in gaps)
        assert gaps[0] < gaps[1] < gaps[2]
        assert gaps[-1] == pytest.approx(bound, abs=1e-5)

    def test_zero_convention_of_eq1(self):
        # Eq. 1: "with P_i, R_i, F1_i = 0 when the denominator is zero" — the engine's zero convention.
        C = from_pred_true([[3, 1, 0], [0, 2, 4], [0, 0, 0]])  # class 3: never predicted, never true
        pc = per_class(C, undefined="zero")
        assert pc[2]["precision"] == pc[2]["recall"] == pc[2]["f1"] == 0.0


# =================================================================================================
# Seed 000 — Opitz (2024), TACL.  Matrices are m[pred, true]: TRANSPOSED via from_pred_true.
# =================================================================================================
OPITZ_TABLE2 = from_pred_true([[15, 5], [10, 10]])  # rows f→x, f→y; columns c=x, c=y
OPITZ_TABLE4 = from_pred_true([[15, 10], [10, 20]])  # Table 3: λ = (1, 2) applied to class y

# Table 6: SemEval-2017 task 4, the eight best systems. Columns used here (all in %):
# macR, GmacR, HmacR, r1, r2, r3 and the prevalence-calibrated Kappa.
OPITZ_TABLE6 = {
    "A": (68.1, 66.8, 65.4, 82.9, 51.2, 70.2, 52.1),
    "B": (68.1, 66.5, 65.0, 87.8, 51.4, 65.2, 52.2),
    "C": (67.6, 66.8, 66.0, 81.7, 56.0, 65.2, 51.4),
    "D": (67.4, 66.5, 65.6, 80.3, 54.2, 67.6, 51.0),
    "E": (66.9, 66.8, 66.8, 69.8, 64.0, 66.8, 50.3),
    "F": (65.9, 65.6, 65.4, 73.5, 58.7, 65.6, 48.9),
    "G": (64.9, 64.2, 63.5, 77.4, 53.9, 63.5, 47.4),
    "H": (64.5, 64.5, 64.5, 65.3, 63.6, 64.5, 46.7),
}


def matrix_with_recalls(recalls_pct, sizes=(3000, 1200, 800)) -> np.ndarray:
    """A 3-class matrix (rows = true) whose class recalls are the given percentages; errors spread
    unevenly over the other classes so nothing but the recalls is fixed."""
    k = len(recalls_pct)
    C = np.zeros((k, k))
    for i, (r, a) in enumerate(zip(recalls_pct, sizes)):
        C[i, i] = a * r / 100
        others = [j for j in range(k) if j != i]
        C[i, others[0]] = 0.7 * a * (1 - r / 100)
        C[i, others[1]] = 0.3 * a * (1 - r / 100)
    return C


class TestOpitz2024:
    def test_tables2_4_prevalence_scaling(self):
        # Table 2 "Class y occurs 15 times"; Table 4 (after λ = (1, 2), Table 3) "occurs 30 times".
        assert ConfusionMatrix(OPITZ_TABLE2).true_sizes[1] == 15
        assert ConfusionMatrix(OPITZ_TABLE4).true_sizes[1] == 30
        r2, r4 = metrics(OPITZ_TABLE2), metrics(OPITZ_TABLE4)
        # §4.2 / App. B.4: macro recall is prevalence-invariant (PIV) …
        assert r2["balanced_accuracy"] == pytest.approx(r4["balanced_accuracy"], abs=1e-15)
        assert r2["balanced_accuracy"] == pytest.approx((15 / 25 + 10 / 15) / 2)
        # … macro precision is not (§4.3, App. C.4): (15/20 + 10/20)/2 vs (15/25 + 20/30)/2.
        assert r2["macro_precision"] == pytest.approx(0.625)
        assert r4["macro_precision"] == pytest.approx((0.6 + 2 / 3) / 2)

    def test_eq8_calibrated_accuracy_is_macro_recall(self):
        r = metrics(OPITZ_TABLE2)
        rc = metrics(calibrate(OPITZ_TABLE2))
        assert rc["accuracy"] == pytest.approx(r["balanced_accuracy"], abs=1e-15)

    def test_eq12_f1_of_averages_as_agreement(self):
        # Eq. 12: macF1' = 2·macR(m)·macR(mᵀ)/(macR(m) + macR(mᵀ)).
        for C in (OPITZ_TABLE2, OPITZ_TABLE4, GRANDINI_FIG4):
            ba, ba_t = metrics(C)["balanced_accuracy"], metrics(C.T)["balanced_accuracy"]
            assert metrics(C)["f1_of_averages"] == pytest.approx(2 * ba * ba_t / (ba + ba_t), abs=1e-15)

    def test_eq13_15_normalised_mcc_and_kappa(self):
        for C in (OPITZ_TABLE2, GRANDINI_FIG1, GRANDINI_FIG3):
            m = C.T / C.sum()  # Opitz's normalised m[pred, true]
            b, p = m.sum(axis=1), m.sum(axis=0)  # b = m·1 (bias), p = mᵀ·1 (prevalence)
            acc, chance = np.trace(m), p @ b
            r = metrics(C)
            assert r["mcc"] == pytest.approx((acc - chance) / (math.sqrt(1 - b @ b) * math.sqrt(1 - p @ p)), abs=1e-14)
            assert r["cohen_kappa"] == pytest.approx((acc - chance) / (1 - chance), abs=1e-14)
            # §4.7: sgn(MCC) = sgn(KAPPA) and |MCC| ≥ |KAPPA|
            assert np.sign(r["mcc"]) == np.sign(r["cohen_kappa"])
            assert abs(r["mcc"]) >= abs(r["cohen_kappa"])

    def test_eq16_and_section_4_6_calibrated_kappa_mcc_weighted_f1(self):
        for C in (OPITZ_TABLE2, GRANDINI_FIG3, GRANDINI_FIG4):
            k = C.shape[0]
            r, rc = metrics(C), metrics(calibrate(C))
            mac_r = r["balanced_accuracy"]
            # eq. 16: KAPPA(mλ~) = (macR − 1/n)/(1 − 1/n) — our adjusted_balanced_accuracy
            assert rc["cohen_kappa"] == pytest.approx((mac_r - 1 / k) / (1 - 1 / k), abs=1e-14)
            assert rc["cohen_kappa"] == pytest.approx(r["adjusted_balanced_accuracy"], abs=1e-14)
            # eq. 16, second line: MCC(mλ~) = (macR − 1/n)/(√(1 − b~ᵀb~) √(1 − 1/n))
            b = calibrate(C).sum(axis=0) / calibrate(C).sum()
            assert rc["mcc"] == pytest.approx((mac_r - 1 / k) / (math.sqrt(1 - b @ b) * math.sqrt(1 - 1 / k)), abs=1e-14)
            # §4.6: weightF1(mλ~) = macF1(mλ~)
            assert rc["weighted_f1"] == pytest.approx(rc["macro_f1"], abs=1e-14)

    @pytest.mark.parametrize("system", sorted(OPITZ_TABLE6))
    def test_table6_recall_means(self, system):
        # Table 6 prints recalls r1..r3 and macR, GmacR, HmacR, all rounded to 0.1 %. Each printed
        # recall is off by ≤ 0.05 and each printed mean by ≤ 0.05, so we allow 0.1 percentage
        # points (0.125 for calibrated Kappa, which multiplies the recall error by 1.5).
        mac_r, g, h, r1, r2, r3, kappa_cal = OPITZ_TABLE6[system]
        C = matrix_with_recalls((r1, r2, r3))
        r = metrics(C)
        assert 100 * r["balanced_accuracy"] == pytest.approx(mac_r, abs=0.1)
        assert 100 * r["geometric_macro_recall"] == pytest.approx(g, abs=0.1)  # §5.1 GmacR
        assert 100 * r["harmonic_macro_recall"] == pytest.approx(h, abs=0.1)  # §5.1 HmacR
        rc = metrics(calibrate(C))
        assert 100 * rc["cohen_kappa"] == pytest.approx(kappa_cal, abs=0.125)  # "Kappa" after calibration
        assert 100 * rc["accuracy"] == pytest.approx(mac_r, abs=0.1)  # Fig. 1: macR ≡ calibrated Acc

    def test_table6_max_recall_spread(self):
        # §7.1: system E "max. Δ = 5.8", system B "max. Δ = 36.4"
        for s, spread in (("E", 5.8), ("B", 36.4)):
            rec = OPITZ_TABLE6[s][3:6]
            assert max(rec) - min(rec) == pytest.approx(spread)

    def test_tables7_8_mcc_increases_with_an_error(self):
        # Appendix G.1: adding 10 errors (f→z for c=y) raises MCC 0.0 → 0.07 and Kappa 0.0 → 0.02.
        t7 = metrics(from_pred_true([[10, 43, 0], [1, 1, 0], [0, 0, 1]]))
        t8 = metrics(from_pred_true([[10, 43, 0], [1, 1, 0], [0, 10, 1]]))
        assert t7["mcc"] == pytest.approx(0.0, abs=1e-15) and t7["cohen_kappa"] == pytest.approx(0.0, abs=1e-15)
        assert round(t8["mcc"], 2) == 0.07
        assert round(t8["cohen_kappa"], 2) == 0.02
        assert t8["mcc"] == pytest.approx(90 / math.sqrt(1318 * 1422), abs=1e-15)
        assert t8["cohen_kappa"] == pytest.approx(90 / 3654, abs=1e-15)

    def test_appendix_b5_c5_d5_g5_chance_correction(self):
        # A random classifier with prevalences p and prediction rates z has m[pred=i, true=j] = z_i p_j
        # (here C[i, j] = p_i z_j): macR = macP = 1/n (strict), GmacR, HmacR, macF1 ≤ 1/n with macF1
        # = 1/n iff p = z (eq. 18), Kappa = MCC = 0 (complete).
        rng = np.random.default_rng(5)
        for k in (2, 3, 5):
            for _ in range(5):
                p, z = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
                r = metrics(np.outer(p, z) * 1000)
                assert r["balanced_accuracy"] == pytest.approx(1 / k, abs=1e-14)
                assert r["macro_precision"] == pytest.approx(1 / k, abs=1e-14)
                assert r["geometric_macro_recall"] <= 1 / k + 1e-14
                assert r["harmonic_macro_recall"] <= 1 / k + 1e-14
                assert r["macro_f1"] <= 1 / k + 1e-14
                assert r["f1_of_averages"] == pytest.approx(1 / k, abs=1e-14)  # App. E.5, strict
                assert r["cohen_kappa"] == pytest.approx(0, abs=1e-13)
                assert r["mcc"] == pytest.approx(0, abs=1e-13)
            assert metrics(np.outer(p, p) * 1000)["macro_f1"] == pytest.approx(1 / k, abs=1e-14)

    def test_footnote7_macro_precision_prevalence_gap(self):
        # §4.3, footnote 7: ones on the diagonal, large numbers in the first column of m (true class 1
        # predicted as every other class); shrinking class 1 by λ₁₁ → 0 moves macP from ≈ 1/n to ≈ 1:
        # the difference approaches 1 − 1/n.
        n = 4
        gaps = []
        for big in (1e1, 1e2, 1e3):
            m = np.eye(n)
            m[1:, 0] = big
            C = from_pred_true(m)
            lam = np.ones(n)
            lam[0] = 1 / big**2  # (masses far below n·1e-12 would count as empty classes)
            gaps.append(metrics(C * lam[:, None])["macro_precision"] - metrics(C)["macro_precision"])
            assert metrics(C * lam[:, None])["balanced_accuracy"] == pytest.approx(metrics(C)["balanced_accuracy"])
        assert gaps[0] < gaps[1] < gaps[2] < 1 - 1 / n
        assert gaps[-1] == pytest.approx(1 - 1 / n, abs=2e-3)

    def test_appendix_a_micro_scores_are_accuracy(self):
        C = GRANDINI_FIG3
        tp = np.trace(C)
        micro_p, micro_r = tp / C.sum(axis=0).sum(), tp / C.sum(axis=1).sum()
        r = metrics(C)
        assert r["accuracy"] == pytest.approx(micro_p) == pytest.approx(micro_r)
        assert r["micro_f1"] == pytest.approx(2 * micro_p * micro_r / (micro_p + micro_r))


# =================================================================================================
# Seed 003 — Gösgens, Zhiyanov, Tikhonov & Prokhorenkova (2021). c_ij: true i, predicted j (ours).
# Binary: class 1 is positive (c11 = TP).
# =================================================================================================
def gosgens_ce(C: np.ndarray) -> float:
    """Table 1, Confusion Entropy, written out term by term (independent of the engine)."""
    C = np.asarray(C, float)
    m, n = C.shape[0], C.sum()
    a, b = C.sum(axis=1), C.sum(axis=0)
    total = 0.0
    for i in range(m):
        for j in range(m):
            if i == j:
                continue
            for c in (C[j, i], C[i, j]):
                if c > 0:
                    total += c * math.log(c / (a[j] + b[j]), 2 * m - 2)
    return -total / (2 * n)


def labels_matrix(A, B, k=2) -> np.ndarray:
    return confusion_matrix(A, B, labels=list(range(k))).counts


class TestGosgens:
    def test_table1_confusion_entropy_formula(self):
        rng = np.random.default_rng(3)
        for _ in range(20):
            k = int(rng.integers(2, 6))
            C = rng.integers(0, 9, size=(k, k)).astype(float)
            C[0, 0] += 1
            assert metrics(C, ["confusion_entropy"])["confusion_entropy"] == pytest.approx(gosgens_ce(C), abs=1e-13)

    def test_c1_max_agreement(self):
        # C.1: a diagonal matrix gives F1, J, CC, Acc, BA, κ, SBA, GM = 1, CD = 0, CE = 0.
        r = metrics(np.diag([3.0, 5.0]), positive_label=1)
        for mid in ("f1", "jaccard", "mcc", "accuracy", "balanced_accuracy", "cohen_kappa", "sba", "gm1"):
            assert r[mid] == pytest.approx(1.0)
        assert r["correlation_distance"] == pytest.approx(0.0, abs=1e-7)
        assert r["confusion_entropy"] == 0.0

    def test_c1_min_agreement(self):
        # C.1: zero-diagonal ⇒ Acc = BA = SBA = 0 and GM_r = −1 (binary); κ = −Σab/(n² − Σab) varies.
        for C in ([[0, 4], [3, 0]], [[0, 1], [7, 0]]):
            r = metrics(C)
            assert r["accuracy"] == r["balanced_accuracy"] == r["sba"] == 0.0
            assert r["gm1"] == pytest.approx(-1.0)
        k1, k2 = (metrics(C)["cohen_kappa"] for C in ([[0, 4], [3, 0]], [[0, 1], [7, 0]]))
        assert k1 == pytest.approx(-24 / (49 - 24)) and k1 != pytest.approx(k2)

    def test_c1_cc_min_agreement_fails_for_three_classes(self):
        # "CC(C1) ≠ CC(C2) (−0.5 and −0.6, respectively), while both are zero-diagonal"
        c1 = metrics([[0, 1, 0], [0, 0, 1], [2, 0, 0]])["mcc"]
        c2 = metrics([[0, 1, 0], [1, 0, 1], [0, 1, 0]])["mcc"]
        assert c1 == pytest.approx(-0.5, abs=1e-15)
        assert c2 == pytest.approx(-0.6, abs=1e-15)

    def test_c1_ce_min_agreement_and_monotonicity_fail(self):
        # "CE(C1) = 1 and CE(C2) > 1" for C1 = [[0,6],[6,0]], C2 = [[1,5],[5,1]]
        ce1 = metrics([[0, 6], [6, 0]])["confusion_entropy"]
        ce2 = metrics([[1, 5], [5, 1]])["confusion_entropy"]
        assert ce1 == pytest.approx(1.0, abs=1e-15)
        assert ce2 > 1
        assert ce2 == pytest.approx(20 * math.log2(12 / 5) / 24, abs=1e-14)

    def test_c3_ce_triangle_inequality_fails(self):
        # A = (1,1,0), B = (1,1,1), C = (1,0,1): CE(A,C) = 1, CE(A,B) = CE(B,C) ≈ 0.387.
        A, B, Cl = (1, 1, 0), (1, 1, 1), (1, 0, 1)
        ce = lambda x, y: metrics(labels_matrix(x, y), ["confusion_entropy"])["confusion_entropy"]  # noqa: E731
        assert ce(A, Cl) == pytest.approx(1.0, abs=1e-15)
        assert round(ce(A, B), 3) == round(ce(B, Cl), 3) == 0.387
        assert ce(A, B) == pytest.approx(math.log2(5) / 6, abs=1e-15)
        assert ce(A, Cl) > ce(A, B) + ce(B, Cl)

    def test_c3_lemma1_correlation_distance_is_a_metric(self):
        # Lemma 1: CD = arccos(CC)/π is a distance for any m ≥ 2 — check the triangle inequality on
        # random non-constant labelings.
        rng = np.random.default_rng(11)
        for _ in range(60):
            k = int(rng.integers(2, 5))
            A, B, Cl = (rng.integers(0, k, 12) for _ in range(3))
            if min(len(set(A)), len(set(B)), len(set(Cl))) < 2:
                continue
            cd = lambda x, y: metrics(labels_matrix(x, y, k), ["correlation_distance"])["correlation_distance"]  # noqa: E731
            assert cd(A, Cl) <= cd(A, B) + cd(B, Cl) + 1e-12
            assert cd(A, B) == pytest.approx(cd(B, A), abs=1e-12)

    def test_c4_kappa_not_strongly_monotone(self):
        # κ([[1,2],[1,0]]) < κ([[1,3],[1,0]]): adding an error raises kappa.
        k1 = metrics([[1, 2], [1, 0]])["cohen_kappa"]
        k2 = metrics([[1, 3], [1, 0]])["cohen_kappa"]
        assert k1 == pytest.approx(-0.5) and k2 == pytest.approx(-3 / 7)
        assert k1 < k2

    def test_c4_cc_not_monotone_for_three_classes(self):
        # Moving an item from c11 to c10 (a correct one becomes an error) raises CC.
        c1 = metrics([[1, 0, 0], [6, 1, 0], [0, 0, 1]])["mcc"]
        c2 = metrics([[1, 0, 0], [7, 0, 0], [0, 0, 1]])["mcc"]
        assert c2 > c1

    def test_c4_kappa_not_monotone_for_three_classes(self):
        k1 = metrics([[0, 1, 2], [0, 0, 0], [1, 0, 0]])["cohen_kappa"]
        k2 = metrics([[1, 0, 2], [0, 0, 0], [1, 0, 0]])["cohen_kappa"]
        assert k1 == pytest.approx(-5 / 11) and k2 == pytest.approx(-0.5)
        assert k1 > k2

    def test_c5_approximate_constant_baseline(self):
        # Substituting c_ij = a_i b_j / n gives values independent of a, b for CC, CD, BA, κ, SBA, GM.
        rng = np.random.default_rng(8)
        for k in (2, 3, 4):
            for _ in range(5):
                a, b = rng.dirichlet(np.ones(k)) * 100, rng.dirichlet(np.ones(k)) * 100
                r = metrics(np.outer(a, b) / 100)
                assert r["mcc"] == pytest.approx(0, abs=1e-13)
                assert r["cohen_kappa"] == pytest.approx(0, abs=1e-13)
                assert r["correlation_distance"] == pytest.approx(0.5, abs=1e-13)
                assert r["balanced_accuracy"] == pytest.approx(1 / k, abs=1e-13)
                assert r["sba"] == pytest.approx(1 / k, abs=1e-13)
                assert r["gm1"] == pytest.approx(0, abs=1e-13)

    def test_c5_ce_has_no_approximate_constant_baseline(self):
        # (a0, a1) = (2, 1), (b0, b1) = (1, 2) and (a0, a1) = (0, 3), (b0, b1) = (1, 2) give different CE.
        ce = [metrics(np.outer(a, b) / 3, ["confusion_entropy"])["confusion_entropy"]
              for a, b in (((2, 1), (1, 2)), ((0, 3), (1, 2)))]
        assert ce[0] == pytest.approx(gosgens_ce(np.outer((2, 1), (1, 2)) / 3))
        assert ce[1] == pytest.approx(gosgens_ce(np.outer((0, 3), (1, 2)) / 3))
        assert abs(ce[0] - ce[1]) > 0.1

    def test_statement2_gm_minus1_is_sba(self):
        # Statement 2: GM₋₁(C) = BA(C) + BA(Cᵀ) − 1 = 2·SBA − 1 (binary).
        for C in ([[7, 2], [3, 9]], [[1, 5], [4, 0]], [[90, 10], [1, 2]]):
            C = np.asarray(C, float)
            a1, a0, b1, b0, n = C[1].sum(), C[0].sum(), C[:, 1].sum(), C[:, 0].sum(), C.sum()
            gm_m1 = (n * C[1, 1] - a1 * b1) / (0.5 * ((a1 * a0) ** -1 + (b1 * b0) ** -1)) ** -1
            r, rt = metrics(C), metrics(C.T)
            assert gm_m1 == pytest.approx(r["balanced_accuracy"] + rt["balanced_accuracy"] - 1, abs=1e-12)
            assert gm_m1 == pytest.approx(2 * r["sba"] - 1, abs=1e-12)

    def test_section51_indistinguishable_measures(self):
        # §5.1, Table "Indistinguishable measures": over all triplets (A, B1, B2) of binary labelings
        # of n elements (each containing both classes), which pairs of measures never disagree on
        # whether B1 or B2 is closer to A. CE is a distance (lower = closer), so −CE is compared.
        ids = ["accuracy", "balanced_accuracy", "f1", "cohen_kappa", "confusion_entropy", "gm1", "mcc", "sba"]
        names = ["Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA"]
        published = {
            2: {"Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA"},
            3: {"Acc", "BA", "kappa", "GM1", "CC", "SBA"},
            4: {"BA", "kappa", "GM1", "CC", "SBA"},
            5: {"BA", "kappa", "GM1", "CC", "SBA"},
            6: {"GM1", "CC", "SBA"},
            7: {"GM1", "CC", "SBA"},
            8: {"CC", "SBA"},
            9: set(),
            10: set(),
        }
        for n, group in published.items():
            distinguished: set[tuple[int, int]] = set()
            for a1 in range(1, n):  # the true labeling A has a1 positives; only its class sizes matter
                a0 = n - a1
                mats = [[[a0 - c01, c01], [a1 - c11, c11]] for c11 in range(a1 + 1) for c01 in range(a0 + 1)
                        if 0 < c11 + c01 < n]  # B contains both classes
                v = evaluate_batch(np.array(mats, float), ids, positive_index=1)
                v["confusion_entropy"] = -v["confusion_entropy"]
                V = np.stack([v[i] for i in ids])
                D = V[:, :, None] - V[:, None, :]
                S = np.where(np.abs(D) < 1e-12, 0.0, np.sign(D))
                for i, j in itertools.combinations(range(len(ids)), 2):
                    if np.any(S[i] != S[j]):
                        distinguished.add((i, j))
            indist = {(names[i], names[j]) for i, j in itertools.combinations(range(len(ids)), 2)
                      if (i, j) not in distinguished}
            expected = {(x, y) for x, y in itertools.combinations(names, 2) if x in group and y in group}
            assert indist == expected, n

    def test_appendix_e1_table8_triplets(self):
        # Table 8: six triplets (A, B1, B2), n = 10, and which triplet strictly discriminates each
        # pair of measures (one says B1 is closer to A, the other says B2).
        triplets = {
            1: ("1110110110", "1110101111", "1001010110"),
            2: ("0111101101", "1001010110", "0100000000"),
            3: ("0000111010", "1111111101", "0111101101"),
            4: ("0111101101", "1111111101", "0101111101"),
            5: ("0000111010", "0110010001", "0100000000"),
            6: ("1111111101", "1110110110", "0110010001"),
        }
        names = ["Acc", "BA", "F1", "kappa", "CE", "GM1", "CC", "SBA"]
        ids = ["accuracy", "balanced_accuracy", "f1", "cohen_kappa", "confusion_entropy", "gm1", "mcc", "sba"]
        lower = [  # the lower half of Table 8, row by row (symmetric)
            [0, 1, 2, 6, 6, 1, 5, 5],
            [1, 0, 1, 1, 1, 3, 3, 1],
            [2, 1, 0, 2, 2, 1, 2, 2],
            [6, 1, 2, 0, 4, 1, 3, 3],
            [6, 1, 2, 4, 0, 1, 3, 3],
            [1, 3, 1, 1, 1, 0, 5, 1],
            [5, 3, 2, 3, 3, 5, 0, 4],
            [5, 1, 2, 3, 3, 1, 4, 0],
        ]

        def scores(A, B):
            C = labels_matrix([int(c) for c in A], [int(c) for c in B])
            r = metrics(C, ids, positive_label=1)
            return np.array([-r[m] if m == "confusion_entropy" else r[m] for m in ids])

        for i, j in itertools.combinations(range(len(names)), 2):
            A, B1, B2 = triplets[lower[i][j]]
            d = scores(A, B1) - scores(A, B2)
            assert d[i] * d[j] < 0, (names[i], names[j], lower[i][j])

    def test_appendix_e1_rain_thresholds(self):
        # Ten-minute horizon, two smallest thresholds (relative values, %):
        c1 = np.array([[93.55, 1.12], [0.22, 5.11]])
        c2 = np.array([[93.76, 0.91], [0.29, 5.04]])
        r1, r2 = metrics(c1), metrics(c2)
        # "accuracy grows from 98.66% to 98.80%"
        assert 100 * r1["accuracy"] == pytest.approx(98.66) and 100 * r2["accuracy"] == pytest.approx(98.80)
        # "ΔBA ≈ 0.21/94.67 + (−0.07)/5.33 < 0" (BA as the SUM of recalls, without the ½)
        assert 2 * (r2["balanced_accuracy"] - r1["balanced_accuracy"]) == pytest.approx(0.21 / 94.67 - 0.07 / 5.33, abs=1e-12)
        assert r2["balanced_accuracy"] < r1["balanced_accuracy"]
        # "ΔSBA ≈ 0.21/94.67 + (−0.07)/5.33 + (93.76/94.05 − 93.55/93.77) + (5.04/5.95 − 5.11/6.23) > 0"
        d = 0.21 / 94.67 - 0.07 / 5.33 + (93.76 / 94.05 - 93.55 / 93.77) + (5.04 / 5.95 - 5.11 / 6.23)
        assert 4 * (r2["sba"] - r1["sba"]) == pytest.approx(d, abs=1e-12)  # SBA = ¼ Σ (c_ii/a_i + c_ii/b_i)
        assert r2["sba"] > r1["sba"]


# =================================================================================================
# Seed 004 — I2ML slides. The slides' tables are ŷ (rows) × y (columns): TRANSPOSED.
# =================================================================================================
def i2ml_binary(tp, fp, fn, tn) -> ConfusionMatrix:
    """Slide 1 layout [[TP, FP], [FN, TN]] with rows ŷ = +, − and columns y = +, −; transposed."""
    return ConfusionMatrix(from_pred_true([[tp, fp], [fn, tn]]), labels=["+", "-"])


class TestI2ML:
    def test_slide1_definitions(self):
        tp, fp, fn, tn = 12, 8, 3, 77
        r = metrics(i2ml_binary(tp, fp, fn, tn), positive_label="+")
        assert r["precision"] == pytest.approx(tp / (tp + fp))  # ρ_PPV
        assert r["npv"] == pytest.approx(tn / (fn + tn))  # ρ_NPV
        assert r["recall"] == pytest.approx(tp / (tp + fn))  # ρ_TPR
        assert r["specificity"] == pytest.approx(tn / (fp + tn))  # ρ_TNR
        assert r["accuracy"] == pytest.approx((tp + tn) / (tp + fp + fn + tn))  # ρ_ACC
        ppv, tpr = tp / (tp + fp), tp / (tp + fn)
        assert r["f1"] == pytest.approx(2 * ppv * tpr / (ppv + tpr))

    def test_f1_always_negative_and_always_positive(self):
        n_pos, n = 10, 100
        neg = metrics(i2ml_binary(0, 0, n_pos, n - n_pos), positive_label="+")
        assert neg["recall"] == neg["f1"] == 0.0  # "Always predicting 'negative': ρ_TPR = ρ_F1 = 0"
        pos = metrics(i2ml_binary(n_pos, n - n_pos, 0, 0), positive_label="+")
        assert pos["recall"] == 1.0
        ppv = pos["precision"]
        # "ρ_F1 = 2·ρ_PPV/(ρ_PPV + 1) = 2·n₊/(n₊ + n)"
        assert pos["f1"] == pytest.approx(2 * ppv / (ppv + 1)) == pytest.approx(2 * n_pos / (n_pos + n))

    def test_f_beta_formula_and_limits(self):
        cm = i2ml_binary(12, 8, 3, 77)
        ppv, tpr = 0.6, 0.8
        for beta in (0.5, 2.0, 3.0):
            fb = metrics(cm, ["f_beta"], positive_label="+", beta=beta)["f_beta"]
            w = beta**2 / (1 + beta**2)
            assert fb == pytest.approx(1 / (w / tpr + (1 - w) / ppv))
            assert fb == pytest.approx((1 + beta**2) * ppv * tpr / (beta**2 * ppv + tpr))
        assert metrics(cm, ["f_beta"], positive_label="+", beta=1e3)["f_beta"] == pytest.approx(tpr, abs=1e-5)
        assert metrics(cm, ["f_beta"], positive_label="+", beta=1e-3)["f_beta"] == pytest.approx(ppv, abs=1e-5)

    def test_g_score_and_g_mean(self):
        cm = i2ml_binary(12, 8, 3, 77)
        r = metrics(cm, positive_label="+")
        assert r["fowlkes_mallows"] == pytest.approx(math.sqrt(r["precision"] * r["recall"]))  # ρ_G
        assert r["fowlkes_mallows"] >= r["f1"]  # "Geometric mean is larger than harmonic mean"
        assert r["geometric_macro_recall"] == pytest.approx(math.sqrt(r["specificity"] * r["recall"]))  # ρ_Gm
        neg = metrics(i2ml_binary(0, 0, 10, 90), positive_label="+", undefined="zero")  # precision 0/0 read as 0
        assert neg["fowlkes_mallows"] == neg["geometric_macro_recall"] == 0.0  # always "negative"

    def test_balanced_accuracy(self):
        r = metrics(i2ml_binary(12, 8, 3, 77), positive_label="+")
        assert r["balanced_accuracy"] == pytest.approx((r["specificity"] + r["recall"]) / 2)
        neg = metrics(i2ml_binary(0, 0, 10, 990), positive_label="+")  # n₊ ≪ n₋, always "negative"
        assert neg["balanced_accuracy"] == 0.5 and neg["accuracy"] == pytest.approx(0.99)

    def test_mcc_binary_and_class_independence(self):
        tp, fp, fn, tn = 12, 8, 3, 77
        r = metrics(i2ml_binary(tp, fp, fn, tn))
        expected = (tp * tn - fp * fn) / math.sqrt((tp + fn) * (tp + fp) * (tn + fn) * (tn + fp))
        assert r["mcc"] == pytest.approx(expected)
        # "MCC does not depend on which class is the positive one"
        assert metrics(i2ml_binary(tn, fn, fp, tp))["mcc"] == pytest.approx(expected)

    def test_multiclass_slides(self):
        m = np.array([[30, 2, 5], [4, 20, 1], [6, 3, 9]], float)  # n_ji: i instances classified as j
        C = from_pred_true(m)
        n = m.sum()
        n_i = m.sum(axis=0)  # true class sizes
        pc = per_class(C)
        for i in range(3):
            assert pc[i]["recall"] == pytest.approx(m[i, i] / n_i[i])  # ρ_TPR_i
            assert pc[i]["precision"] == pytest.approx(m[i, i] / m[i].sum())  # ρ_PPV_i
            # The slide prints ρ_TNR_i = Σ_{j≠i} n_ij / (n − n_i); Σ_{j≠i} n_ij counts the items of
            # OTHER classes classified as i (false positives), so that is the false-positive rate.
            # True negatives are the items neither of class i nor classified as i: we assert that.
            tn = n - m[i].sum() - n_i[i] + m[i, i]
            fp = m[i].sum() - m[i, i]
            assert pc[i]["specificity"] == pytest.approx(tn / (n - n_i[i]))
            assert pc[i]["specificity"] == pytest.approx(1 - fp / (n - n_i[i]))
        r = metrics(C)
        # "macro F1 score ρ_mF1 = 2·ρ_mPPV·ρ_mTPR/(ρ_mPPV + ρ_mTPR)" — the F1 of averages.
        mp, mr = r["macro_precision"], r["balanced_accuracy"]
        assert r["f1_of_averages"] == pytest.approx(2 * mp * mr / (mp + mr))
        # Multiclass MCC (last slide). The slide's numerator "n Σ n_ij" is a typo for n Σ n_ii.
        n_hat = m.sum(axis=1)
        mcc = (n * np.trace(m) - n_hat @ n_i) / math.sqrt((n**2 - n_hat @ n_hat) * (n**2 - n_i @ n_i))
        assert r["mcc"] == pytest.approx(mcc)

    def test_weighted_macro_f1_minority_weights(self):
        # "w_i = (n − n_i)/((g−1)n) are suitable weights": they sum to 1 and w_i > w_j iff n_i < n_j.
        # The slide writes ρ_wm = (1/g) Σ ρ_i w_i; with weights summing to 1 the extra 1/g would cap the
        # score at 1/g (a perfect classifier would get 1/3), so the engine uses Σ w_i ρ_i (science.md).
        m = np.array([[30, 2, 5], [4, 20, 1], [6, 3, 9]], float)
        C = from_pred_true(m)
        g, n, n_i = 3, m.sum(), m.sum(axis=0)
        w = (n - n_i) / ((g - 1) * n)
        assert w.sum() == pytest.approx(1.0)
        assert all((w[i] > w[j]) == (n_i[i] < n_i[j]) for i in range(g) for j in range(g) if i != j)
        pc = per_class(C)
        wp = sum(w[i] * pc[i]["precision"] for i in range(g))
        wr = sum(w[i] * pc[i]["recall"] for i in range(g))
        assert metrics(C)["minority_weighted_f1"] == pytest.approx(2 * wp * wr / (wp + wr))
        assert metrics(np.diag(n_i))["minority_weighted_f1"] == pytest.approx(1.0)
        assert (1 / g) * sum(w) == pytest.approx(1 / g)  # the literal slide formula on a perfect classifier
        # "Usually, weighted F1 score uses w_i = n_i/n" — in the slide's form that is the harmonic mean
        # of weighted precision and weighted recall (= accuracy), which is NOT `weighted_f1`
        # (Σ (n_i/n) F1_i, scikit-learn's average='weighted' and Opitz 2024 §4.6):
        v = n_i / n
        sp = sum(v[i] * pc[i]["precision"] for i in range(g))
        sr = sum(v[i] * pc[i]["recall"] for i in range(g))
        assert sr == pytest.approx(metrics(C)["accuracy"])
        assert metrics(C)["weighted_f1"] == pytest.approx(sum(v[i] * pc[i]["f1"] for i in range(g)))
        assert metrics(C)["weighted_f1"] != pytest.approx(2 * sp * sr / (sp + sr), abs=1e-6)


# =================================================================================================
# The bundled copies in examples/papers/ (written by examples/make_examples.py) are these matrices.
# =================================================================================================
def test_bundled_paper_matrices():
    from pathlib import Path

    from advisor import read_matrix

    folder = Path(__file__).resolve().parents[1] / "examples" / "papers"
    expect = {
        "grandini2020_fig1": GRANDINI_FIG1,
        "grandini2020_fig3": GRANDINI_FIG3,
        "grandini2020_fig4": GRANDINI_FIG4,
        "grandini2020_fig2": np.array([[20, 5], [10, 15]]),
        "opitz2024_table2": OPITZ_TABLE2,
        "opitz2024_table4": OPITZ_TABLE4,
        "opitz_burst2019_table3": from_pred_true([[100, 10000], [0, 100]]),
        "opitz2024_table8": from_pred_true([[10, 43, 0], [1, 1, 0], [0, 10, 1]]),
        "gosgens2021_cc_mon_c2": np.array([[1, 0, 0], [7, 0, 0], [0, 0, 1]]),
    }
    for name, C in expect.items():
        np.testing.assert_array_equal(read_matrix(folder / f"{name}.csv").counts, C, err_msg=name)
    r = metrics(read_matrix(folder / "opitz_burst2019_table3.csv"))
    assert r["f1_of_averages"] == pytest.approx(0.504950495049505, abs=1e-15)
    assert len(list(folder.glob("*.csv"))) >= 25
    for f in folder.glob("*.csv"):
        assert read_matrix(f).n > 0
