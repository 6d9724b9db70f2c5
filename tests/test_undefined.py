"""Degenerate confusion matrices under the three undefined-value conventions.

Every expected value below was derived by hand from the rules in ``advisor/engine/_metrics.py``'s module
docstring and science.md §2 "Undefined values" (rows = true, columns = predicted; n, a_i, b_i as in
science.md §1):

``zero``      an undefined ratio is 0; MCC and kappa are 0 when their denominator is 0.
``baseline``  (Gösgens et al. 2021, App. B) recall C_ii/a_i with a_i = 0 → b_i/n; precision with
              b_i = 0 → a_i/n; specificity TN_i/(n − a_i) with n = a_i → (n − b_i)/n; NPV with
              n = b_i → (n − a_i)/n; F1, F_β, Jaccard with a_i = b_i = 0 → 1 (only at maximal
              agreement); a one-vs-rest GM_1 with both labelings constant → 1 if equal else −1;
              MCC with both labelings constant → 1 (same class) / −1 (different), one constant → 0;
              kappa 0/0 (both constant, same class) → 1; a likelihood ratio 0/0 → 1.
``omit``      undefined per-class values are left out of averages (NaN if nothing is left); a scalar
              metric that is itself undefined is NaN.

Note on ``baseline``: App. B's algebraic rule (C_ii/a_i → b_i/n) is applied when the other
labeling is non-empty for that class; a class absent from BOTH labelings (a_i = b_i = 0) is one
they agree on completely and resolves to 1, so that maximal agreement holds (the diagonal matrix
[[5, 0], [0, 0]] scores the maximum, as Gösgens et al.'s property Max requires). Likewise for
specificity/NPV when n − a_i = n − b_i = 0.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

from advisor import ConfusionMatrix, compute_metrics, per_class
from advisor.engine._metrics import BINARY_METRICS, MULTICLASS_METRICS

NAN = math.nan
CONVENTIONS = ("zero", "baseline", "omit")


def H(x: float, y: float) -> float:
    """Harmonic mean with H(0, y) = 0 (NaN propagates)."""
    if math.isnan(x) or math.isnan(y):
        return NAN
    return 0.0 if x + y == 0 else 2 * x * y / (x + y)


def ce(C) -> float:
    """Confusion entropy, seed 003 Table 1, term by term."""
    C = np.asarray(C, float)
    k, n = C.shape[0], C.sum()
    a, b = C.sum(1), C.sum(0)
    t = 0.0
    for i in range(k):
        for j in range(k):
            if i != j:
                for c in (C[j, i], C[i, j]):
                    if c > 0:
                        t += c * math.log(c / (a[j] + b[j]), 2 * k - 2)
    return -t / (2 * n) + 0.0


def zbo(z, b, o):
    return {"zero": z, "baseline": b, "omit": o}


# Which per-class quantities each metric is built from (science.md §2 definitions).
USES = {
    "accuracy": [], "micro_f1": [], "micro_jaccard": [], "cohen_kappa": [], "mcc": [],
    "correlation_distance": [], "confusion_entropy": [],
    "balanced_accuracy": ["recall"], "macro_recall": ["recall"], "adjusted_balanced_accuracy": ["recall"],
    "geometric_macro_recall": ["recall"], "harmonic_macro_recall": ["recall"],
    "macro_precision": ["precision"], "macro_f1": ["f1"], "weighted_f1": ["f1"],
    "f1_of_averages": ["precision", "recall"], "sba": ["recall", "precision"],
    "minority_weighted_f1": ["precision", "recall"],
    "macro_jaccard": ["jaccard"], "weighted_jaccard": ["jaccard"], "gm1": ["gm1"],
    # binary metrics: quantities of the positive class only
    "precision": ["precision"], "recall": ["recall"], "f1": ["f1"], "f_beta": ["f_beta"],
    "specificity": ["specificity"], "npv": ["npv"], "jaccard": ["jaccard"],
    "fowlkes_mallows": ["precision", "recall"], "informedness": ["recall", "specificity"],
    "markedness": ["precision", "npv"], "lr_plus": ["recall", "specificity"],
    "lr_minus": ["recall", "specificity"],
    "lam": [],  # read off the counts TP, FP, FN, TN, no per-class rate
}
SCALAR_QUANTITY = {"mcc": "MCC", "correlation_distance": "MCC", "cohen_kappa": "kappa", "lr_plus": "LR+",
                   "lr_minus": "LR−", "lam": "√(FP·FN) + √(TP·TN)"}


# --------------------------------------------------------------------------------------------------
# The cases. `undef` maps (quantity, label) → its baseline value; `scalar` lists metrics whose own
# denominator vanishes; `values` the expected value of each metric (one number, or zero/baseline/omit).
# --------------------------------------------------------------------------------------------------
def case_never_predicted():
    # class 2 occurs in the truth (a_2 = 2) but is never predicted (b_2 = 0)
    C = [[4, 1, 0], [1, 3, 0], [1, 1, 0]]
    P, BA = (4 / 6 + 3 / 5), (4 / 5 + 3 / 4 + 0) / 3
    macp = zbo(P / 3, (P + 2 / 11) / 3, P / 2)
    w = np.array([6, 7, 9]) / 22  # (n − a_i)/((k − 1) n)
    wr = (6 * 0.8 + 7 * 0.75) / 22
    wp = zbo(8.2 / 22, (8.2 + 9 * 2 / 11) / 22, 8.2 / 13)
    assert w.sum() == pytest.approx(1)
    values = {
        "accuracy": 7 / 11, "balanced_accuracy": BA, "macro_recall": BA,
        "adjusted_balanced_accuracy": (BA - 1 / 3) * 1.5,
        "macro_precision": macp,
        "f1_of_averages": {c: H(macp[c], BA) for c in CONVENTIONS},
        "sba": {c: (BA + macp[c]) / 2 for c in CONVENTIONS},
        "minority_weighted_f1": {c: H(wp[c], wr) for c in CONVENTIONS},
        "macro_f1": (8 / 11 + 6 / 9 + 0) / 3,
        "weighted_f1": (5 * 8 / 11 + 4 * 6 / 9) / 11,
        "macro_jaccard": (4 / 7 + 3 / 6) / 3,
        "geometric_macro_recall": 0.0, "harmonic_macro_recall": 0.0,
        "confusion_entropy": ce(C),
    }
    return C, {("precision", 2): 2 / 11}, set(), values


def case_absent_from_truth():
    # class 2 never occurs in the truth (a_2 = 0) but is predicted twice (b_2 = 2)
    C = [[4, 1, 1], [1, 3, 1], [0, 0, 0]]
    R = 4 / 6 + 3 / 5
    ba = zbo(R / 3, (R + 2 / 11) / 3, R / 2)
    macp = (0.8 + 0.75 + 0) / 3
    wp = (5 * 0.8 + 6 * 0.75) / 22  # w = [5, 6, 11]/22
    wr = zbo((5 * 4 / 6 + 6 * 3 / 5) / 22, (5 * 4 / 6 + 6 * 3 / 5 + 11 * 2 / 11) / 22, (5 * 4 / 6 + 6 * 3 / 5) / 11)
    values = {
        "accuracy": 7 / 11, "balanced_accuracy": ba, "macro_recall": ba,
        "adjusted_balanced_accuracy": {c: (ba[c] - 1 / 3) * 1.5 for c in CONVENTIONS},
        "macro_precision": macp,
        "f1_of_averages": {c: H(macp, ba[c]) for c in CONVENTIONS},
        "sba": {c: (ba[c] + macp) / 2 for c in CONVENTIONS},
        "geometric_macro_recall": zbo(0.0, (4 / 6 * 3 / 5 * 2 / 11) ** (1 / 3), math.sqrt(4 / 6 * 3 / 5)),
        "harmonic_macro_recall": zbo(0.0, 3 / (6 / 4 + 5 / 3 + 11 / 2), 2 / (6 / 4 + 5 / 3)),
        "minority_weighted_f1": {c: H(wp, wr[c]) for c in CONVENTIONS},
        "macro_f1": (8 / 11 + 6 / 9 + 0) / 3,
        "confusion_entropy": ce(C),
    }
    return C, {("recall", 2): 2 / 11}, set(), values


def case_absent_from_both():
    # class 2 occurs nowhere: a_2 = b_2 = 0
    C = [[4, 1, 0], [1, 3, 0], [0, 0, 0]]
    s = 0.8 + 0.75
    j = 4 / 6 + 3 / 5
    ba = zbo(s / 3, (s + 1) / 3, s / 2)  # baseline: R_2 = P_2 = 1 (class 2 absent from both: maximal agreement)
    values = {
        "accuracy": 7 / 9, "balanced_accuracy": ba, "macro_recall": ba, "macro_precision": ba,
        "adjusted_balanced_accuracy": {c: (ba[c] - 1 / 3) * 1.5 for c in CONVENTIONS},
        "sba": ba, "f1_of_averages": ba,
        "macro_f1": zbo(s / 3, (s + 1) / 3, s / 2), "weighted_f1": 7 / 9,
        "macro_jaccard": zbo(j / 3, (j + 1) / 3, j / 2), "weighted_jaccard": (5 * 4 / 6 + 4 * 3 / 5) / 9,
        "gm1": zbo(1.1 / 3, 2.1 / 3, 0.55),  # one-vs-rest GM_1 of classes 0 and 1: 11/20 each
        "geometric_macro_recall": zbo(0.0, 0.6 ** (1 / 3), math.sqrt(0.6)),
        "harmonic_macro_recall": zbo(0.0, 3 / (1 / 0.8 + 1 / 0.75 + 1), 2 / (1 / 0.8 + 1 / 0.75)),
        # w = (n − a_i)/((k − 1) n) = [4, 5, 9]/18; baseline adds w_2 · 1 to both weighted sums
        "minority_weighted_f1": zbo(6.95 / 18, 15.95 / 18, 6.95 / 9),
        "mcc": 0.55, "cohen_kappa": 0.55, "confusion_entropy": ce(C),
    }
    undef = {("recall", 2): 1.0, ("precision", 2): 1.0, ("f1", 2): 1.0, ("jaccard", 2): 1.0, ("gm1", 2): 1.0}
    return C, undef, set(), values


def case_constant_classifier():
    # every item predicted as class 0; truth has 6 × class 0, 4 × class 1
    C = [[6, 0], [4, 0]]
    macp = zbo(0.3, 0.5, 0.6)
    wp = zbo(0.24, 0.48, 0.6)  # w = (n − a)/n = [0.4, 0.6]
    values = {
        "accuracy": 0.6, "balanced_accuracy": 0.5, "macro_recall": 0.5, "adjusted_balanced_accuracy": 0.0,
        "macro_precision": macp, "f1_of_averages": {c: H(macp[c], 0.5) for c in CONVENTIONS},
        "sba": {c: (0.5 + macp[c]) / 2 for c in CONVENTIONS},
        "macro_f1": 0.375, "weighted_f1": 0.45, "macro_jaccard": 0.3, "weighted_jaccard": 0.36,
        "micro_jaccard": 0.6 / 1.4, "cohen_kappa": 0.0,
        "mcc": zbo(0.0, 0.0, NAN), "correlation_distance": zbo(0.5, 0.5, NAN),
        "gm1": 0.0, "confusion_entropy": 0.4, "geometric_macro_recall": 0.0, "harmonic_macro_recall": 0.0,
        "minority_weighted_f1": {c: H(wp[c], 0.4) for c in CONVENTIONS},
    }
    pos1 = {  # positive class 1: never predicted
        "precision": zbo(0.0, 0.4, NAN), "recall": 0.0, "f1": 0.0, "f_beta": 0.0, "jaccard": 0.0,
        "specificity": 1.0, "npv": 0.6, "fowlkes_mallows": zbo(0.0, 0.0, NAN), "informedness": 0.0,
        "markedness": zbo(-0.4, 0.0, NAN), "lr_plus": zbo(0.0, 1.0, NAN), "lr_minus": 1.0,
        # lam = √(FP·FN)/(√(FP·FN) + √(TP·TN)) with FP = TP = 0: 0/0 in every convention (baseline 1/2, chance)
        "lam": zbo(0.0, 0.5, NAN),
    }
    pos0 = {  # positive class 0: always predicted
        "precision": 0.6, "recall": 1.0, "f1": 0.75, "f_beta": 0.75, "jaccard": 0.6,
        "specificity": 0.0, "npv": zbo(0.0, 0.4, NAN), "fowlkes_mallows": math.sqrt(0.6),
        "informedness": 0.0, "markedness": zbo(-0.4, 0.0, NAN), "lr_plus": 1.0, "lr_minus": zbo(0.0, 1.0, NAN),
        "lam": zbo(0.0, 0.5, NAN),  # FN = TN = 0: 0/0
    }
    undef = {("precision", 1): 0.4, ("npv", 0): 0.4}
    # LR+ (pos 1) and LR− (pos 0) are 0/0 with both error rates defined: undefined in every convention
    return C, undef, {"mcc", "correlation_distance"}, values, {1: pos1, 0: pos0}, \
        {1: {"lr_plus", "lam"}, 0: {"lr_minus", "lam"}}


def case_both_constant_same():
    # truth and predictions put all 5 items in class 0. Under baseline, class 1 is absent from both
    # labelings and class 0 fills both: every undefined ratio resolves to 1 (maximal agreement), so
    # every metric with Max takes its maximum on this diagonal matrix.
    C = [[5, 0], [0, 0]]
    half = zbo(0.5, 1.0, 1.0)
    values = {
        "accuracy": 1.0, "micro_f1": 1.0, "micro_jaccard": 1.0,
        "balanced_accuracy": half, "macro_recall": half, "macro_precision": half, "sba": half,
        "f1_of_averages": half, "adjusted_balanced_accuracy": zbo(0.0, 1.0, 1.0),
        "macro_f1": zbo(0.5, 1.0, 1.0), "macro_jaccard": zbo(0.5, 1.0, 1.0),
        "weighted_f1": 1.0, "weighted_jaccard": 1.0,
        "mcc": zbo(0.0, 1.0, NAN), "cohen_kappa": zbo(0.0, 1.0, NAN), "correlation_distance": zbo(0.5, 0.0, NAN),
        "gm1": zbo(0.0, 1.0, NAN), "confusion_entropy": 0.0,
        "geometric_macro_recall": zbo(0.0, 1.0, 1.0), "harmonic_macro_recall": zbo(0.0, 1.0, 1.0),
        "minority_weighted_f1": zbo(0.0, 1.0, NAN),  # w = [0, 1]: all weight on the empty class
    }
    pos0 = {
        "precision": 1.0, "recall": 1.0, "f1": 1.0, "f_beta": 1.0, "jaccard": 1.0, "fowlkes_mallows": 1.0,
        "specificity": zbo(0.0, 1.0, NAN), "npv": zbo(0.0, 1.0, NAN),
        "informedness": zbo(0.0, 1.0, NAN), "markedness": zbo(0.0, 1.0, NAN),
        # LR+ = TPR/(1 − TNR): zero 1/1; baseline 1/0 → +inf (the limit, not 0/0)
        "lr_plus": zbo(1.0, math.inf, NAN),
        "lr_minus": zbo(0.0, 0.0, NAN),  # (1 − TPR)/TNR: zero 0/0 → 0; baseline 0/1
        "lam": zbo(0.0, 0.5, NAN),  # FP = FN = TN = 0: 0/0
    }
    pos1 = {
        "precision": zbo(0.0, 1.0, NAN), "recall": zbo(0.0, 1.0, NAN), "f1": zbo(0.0, 1.0, NAN),
        "f_beta": zbo(0.0, 1.0, NAN), "jaccard": zbo(0.0, 1.0, NAN), "fowlkes_mallows": zbo(0.0, 1.0, NAN),
        "specificity": 1.0, "npv": 1.0, "informedness": zbo(0.0, 1.0, NAN), "markedness": zbo(0.0, 1.0, NAN),
        "lr_plus": zbo(0.0, math.inf, NAN),  # TPR/(1 − TNR) with 1 − TNR = 0: zero 0/0 → 0; baseline 1/0
        "lr_minus": zbo(1.0, 0.0, NAN),  # (1 − TPR)/TNR: zero 1/1; baseline 0/1
        "lam": zbo(0.0, 0.5, NAN),  # TP = FP = FN = 0: 0/0
    }
    undef = {("recall", 1): 1.0, ("precision", 1): 1.0, ("f1", 1): 1.0, ("f_beta", 1): 1.0, ("jaccard", 1): 1.0,
             ("specificity", 0): 1.0, ("npv", 0): 1.0, ("gm1", 0): 1.0, ("gm1", 1): 1.0}
    scal = {"mcc", "correlation_distance", "cohen_kappa"}
    # A likelihood ratio is a recorded 0/0 only when both rates are numbers and zero: under zero the
    # resolved rates make it 0/0; under baseline they are 1, so it is 1/0 = +inf or 0/1; under omit
    # the undefined TNR / TPR already makes it NaN ("not reported").
    # lam's own 0/0 (it reads the counts, not the resolved rates) is recorded in every convention
    bscal = {0: zbo({"lr_minus", "lam"}, {"lam"}, {"lam"}), 1: zbo({"lr_plus", "lam"}, {"lam"}, {"lam"})}
    return C, undef, scal, values, {0: pos0, 1: pos1}, bscal


def case_both_constant_different():
    # truth: all 5 items class 0; predictions: all class 1
    C = [[0, 5], [0, 0]]
    values = {
        "accuracy": 0.0, "micro_jaccard": 0.0,
        "balanced_accuracy": zbo(0.0, 0.5, 0.0), "macro_recall": zbo(0.0, 0.5, 0.0),
        "adjusted_balanced_accuracy": zbo(-1.0, 0.0, -1.0),
        "macro_precision": zbo(0.0, 0.5, 0.0), "sba": zbo(0.0, 0.5, 0.0), "f1_of_averages": zbo(0.0, 0.5, 0.0),
        "macro_f1": 0.0, "weighted_f1": 0.0, "macro_jaccard": 0.0, "weighted_jaccard": 0.0,
        "mcc": zbo(0.0, -1.0, NAN), "correlation_distance": zbo(0.5, 1.0, NAN), "cohen_kappa": 0.0,
        "gm1": zbo(0.0, -1.0, NAN), "confusion_entropy": 0.0,
        "geometric_macro_recall": 0.0, "harmonic_macro_recall": 0.0,
        # w = [0, 1]; ΣwP: 0 / 0 / 0 (P_1 = 0 defined); ΣwR: 0 / R_1 = b_1/n = 1 / nothing left
        "minority_weighted_f1": zbo(0.0, 0.0, NAN),
    }
    pos1 = {
        "precision": 0.0, "recall": zbo(0.0, 1.0, NAN), "f1": 0.0, "f_beta": 0.0, "jaccard": 0.0,
        "specificity": 0.0, "npv": zbo(0.0, 1.0, NAN), "fowlkes_mallows": zbo(0.0, 0.0, NAN),
        "informedness": zbo(-1.0, 0.0, NAN), "markedness": zbo(-1.0, 0.0, NAN),
        "lr_plus": zbo(0.0, 1.0, NAN),  # TPR / (1 − TNR) = R_1 / 1
        "lr_minus": zbo(math.inf, 1.0, NAN),  # (1 − R_1)/TNR: 1/0 → +inf (the limit); baseline 0/0 → 1
        "lam": zbo(0.0, 0.5, NAN),  # TP = FN = TN = 0: 0/0
    }
    pos0 = {
        "precision": zbo(0.0, 1.0, NAN), "recall": 0.0, "f1": 0.0, "f_beta": 0.0, "jaccard": 0.0,
        "specificity": zbo(0.0, 1.0, NAN), "npv": 0.0, "fowlkes_mallows": zbo(0.0, 0.0, NAN),
        "informedness": zbo(-1.0, 0.0, NAN), "markedness": zbo(-1.0, 0.0, NAN),
        "lr_plus": zbo(0.0, 1.0, NAN),  # 0/(1 − TNR): zero 0/1; baseline 0/0 → 1
        "lr_minus": zbo(math.inf, 1.0, NAN),  # (1 − 0)/TNR: zero 1/0 → +inf; baseline 1/1
        "lam": zbo(0.0, 0.5, NAN),  # TP = FP = TN = 0: 0/0
    }
    undef = {("recall", 1): 1.0, ("precision", 0): 1.0, ("specificity", 0): 1.0, ("npv", 1): 1.0,
             ("gm1", 0): -1.0, ("gm1", 1): -1.0}
    # 0/0 only under baseline (pos 1: (1 − 1)/0; pos 0: 0/(1 − 1)); zero gives 1/0 = +inf or 0/1
    bscal = {1: zbo({"lam"}, {"lr_minus", "lam"}, {"lam"}), 0: zbo({"lam"}, {"lr_plus", "lam"}, {"lam"})}
    return C, undef, {"mcc", "correlation_distance"}, values, {1: pos1, 0: pos0}, bscal


def case_single_item():
    # one item, true class 1, predicted class 2, three classes
    C = [[0, 0, 0], [0, 0, 1], [0, 0, 0]]
    # baseline: class 0 is absent from both labelings → R_0 = P_0 = 1 (maximal agreement);
    # R_2 = b_2/n = 1, P_1 = a_1/n = 1 (expected values, App. B)
    values = {
        "accuracy": 0.0, "micro_jaccard": 0.0,
        "balanced_accuracy": zbo(0.0, 2 / 3, 0.0), "macro_recall": zbo(0.0, 2 / 3, 0.0),
        "adjusted_balanced_accuracy": zbo(-0.5, 0.5, -0.5),
        "macro_precision": zbo(0.0, 2 / 3, 0.0), "sba": zbo(0.0, 2 / 3, 0.0), "f1_of_averages": zbo(0.0, 2 / 3, 0.0),
        "macro_f1": zbo(0.0, 1 / 3, 0.0), "macro_jaccard": zbo(0.0, 1 / 3, 0.0),
        "weighted_f1": 0.0, "weighted_jaccard": 0.0,
        "mcc": zbo(0.0, -1.0, NAN), "correlation_distance": zbo(0.5, 1.0, NAN), "cohen_kappa": 0.0,
        "gm1": zbo(0.0, -1 / 3, NAN), "confusion_entropy": 0.0,
        "geometric_macro_recall": 0.0, "harmonic_macro_recall": 0.0,
        # w = (n − a_i)/((k − 1) n) = [0.5, 0, 0.5]; baseline ΣwP = 0.5, ΣwR = 1 → H = 2/3
        "minority_weighted_f1": zbo(0.0, 2 / 3, NAN),
    }
    undef = {("recall", 0): 1.0, ("recall", 2): 1.0, ("precision", 0): 1.0, ("precision", 1): 1.0,
             ("f1", 0): 1.0, ("jaccard", 0): 1.0, ("specificity", 1): 1.0, ("npv", 2): 1.0,
             ("gm1", 0): 1.0, ("gm1", 1): -1.0, ("gm1", 2): -1.0}
    return C, undef, {"mcc", "correlation_distance"}, values


CASES = {
    "never_predicted": case_never_predicted,
    "absent_from_truth": case_absent_from_truth,
    "absent_from_both": case_absent_from_both,
    "constant_classifier": case_constant_classifier,
    "both_constant_same": case_both_constant_same,
    "both_constant_different": case_both_constant_different,
    "single_item": case_single_item,
}


def unpack(name):
    out = CASES[name]()
    C, undef, scalar, values = out[:4]
    binary = out[4] if len(out) > 4 else {}
    binary_scalar = out[5] if len(out) > 5 else {}
    return np.asarray(C, float), undef, scalar, values, binary, binary_scalar


def expected(v, conv):
    return v[conv] if isinstance(v, dict) else v


def same(x: float, y: float) -> bool:
    if math.isnan(y):
        return math.isnan(x)
    if math.isinf(y):
        return x == y
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("conv", CONVENTIONS)
@pytest.mark.parametrize("name", list(CASES))
def test_multiclass_values(name, conv):
    C, _, _, values, _, _ = unpack(name)
    r = compute_metrics(C, undefined=conv)
    for m, v in values.items():
        assert same(r[m], expected(v, conv)), (m, r[m], expected(v, conv))


@pytest.mark.parametrize("conv", CONVENTIONS)
@pytest.mark.parametrize("name", [n for n in CASES if unpack(n)[4]])
def test_binary_values(name, conv):
    C, _, _, _, binary, _ = unpack(name)
    for pos, values in binary.items():
        r = compute_metrics(C, positive_label=pos, undefined=conv)
        for m, v in values.items():
            assert same(r[m], expected(v, conv)), (pos, m, r[m], expected(v, conv))


def expected_records(C, undef, scalar, ids, pos=None, binary_scalar=()):
    comp = set()
    for m in ids:
        for q in USES[m]:
            for (qq, lab), _ in undef.items():
                if qq == q and (m not in BINARY_METRICS or lab == pos):
                    comp.add((m, q, lab))
    scal = {m for m in ids if m in scalar or m in binary_scalar}
    return comp, scal


@pytest.mark.parametrize("conv", CONVENTIONS)
@pytest.mark.parametrize("name", list(CASES))
def test_undefined_records(name, conv):
    C, undef, scalar, values, binary, binary_scalar = unpack(name)
    runs = [(None, list(MULTICLASS_METRICS), set())]
    runs += [(pos, list(MULTICLASS_METRICS) + list(BINARY_METRICS), expected(binary_scalar.get(pos, set()), conv))
             for pos in binary]
    for pos, ids, bscal in runs:
        r = compute_metrics(C, ids, positive_label=pos, undefined=conv)
        exp_comp, exp_scal = expected_records(C, undef, scalar, ids, pos, bscal)
        got_comp = {(u.metric, u.quantity, u.label) for u in r.undefined if u.label is not None}
        got_scal = {u.metric for u in r.undefined if u.label is None}
        assert got_comp == exp_comp
        assert got_scal == exp_scal
        for u in r.undefined:
            assert u.reason and u.resolution
            assert {"zero": "zero convention", "baseline": "baseline convention", "omit": "omit convention"}[conv] in u.resolution
            if u.label is not None:
                want = {"zero": 0.0, "baseline": undef[(u.quantity, u.label)], "omit": None}[conv]
                assert u.value == want or (want is not None and same(u.value, want)), (u, want)
            else:
                assert SCALAR_QUANTITY[u.metric] in u.quantity
                v = r[u.metric]
                assert (u.value is None) if math.isnan(v) else same(u.value, v)
            d = u.to_dict()
            assert set(d) == {"metric", "quantity", "label", "reason", "resolution", "value"}


def test_records_name_the_label_not_the_index():
    cm = ConfusionMatrix([[6, 0], [4, 0]], labels=["healthy", "sick"])
    r = compute_metrics(cm, ["macro_precision", "precision"], positive_label="sick")
    labels = {(u.metric, u.label) for u in r.undefined}
    assert labels == {("macro_precision", "sick"), ("precision", "sick")}
    assert r.undefined[0].reason == "class is never predicted (b_i = 0)"


def test_defined_matrix_has_no_records():
    for conv in CONVENTIONS:
        r = compute_metrics([[5, 1, 0], [2, 3, 1], [0, 1, 4]], undefined=conv)
        assert r.undefined == []
        assert all(np.isfinite(v) for v in r.values())


@pytest.mark.parametrize("conv", CONVENTIONS)
def test_per_class_conventions(conv):
    C = np.array([[6, 0], [4, 0]], float)  # constant classifier
    t = per_class(C, undefined=conv)
    assert same(t[1]["precision"], zbo(0.0, 0.4, NAN)[conv])  # class 1 is never predicted
    assert same(t[0]["npv"], zbo(0.0, 0.4, NAN)[conv])  # everything is predicted as class 0
    assert t[0]["recall"] == 1.0 and t[1]["recall"] == 0.0 and t[1]["support"] == 4.0 and t[1]["predicted"] == 0.0
    got = {(u.metric, u.quantity, u.label) for u in t.undefined}
    assert got == {("per_class", "precision", 1), ("per_class", "npv", 0)}


def test_batched_input_resolves_but_does_not_record():
    stack = np.array([[[6, 0], [4, 0]], [[3, 1], [1, 3]]], float)
    for conv in CONVENTIONS:
        r = compute_metrics(stack, ["macro_precision", "mcc"], undefined=conv)
        assert r.undefined == []
        single = compute_metrics(stack[0], ["macro_precision", "mcc"], undefined=conv)
        assert same(float(r["mcc"][0]), single["mcc"]) and same(float(r["macro_precision"][0]), single["macro_precision"])


def test_no_warnings_on_degenerate_input():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in CASES:
            C, _, _, _, binary, _ = unpack(name)
            for conv in CONVENTIONS:
                compute_metrics(C, undefined=conv)
                per_class(C, undefined=conv)
                for pos in binary:
                    compute_metrics(C, positive_label=pos, undefined=conv)


# ---- scikit-learn parity under the zero convention, where scikit-learn defines the value --------
@pytest.mark.parametrize("name", list(CASES))
def test_sklearn_parity_zero_convention(name):
    C, _, _, _, binary, _ = unpack(name)
    k = C.shape[0]
    yt, yp, w = np.repeat(np.arange(k), k), np.tile(np.arange(k), k), C.ravel()
    labels = list(range(k))
    r = compute_metrics(C, undefined="zero")
    pairs = [("accuracy", skm.accuracy_score(yt, yp, sample_weight=w)),
             ("mcc", skm.matthews_corrcoef(yt, yp, sample_weight=w))]
    for avg, ids in (("macro", ("macro_precision", "balanced_accuracy", "macro_f1")),
                     ("micro", ("accuracy", "accuracy", "micro_f1")),
                     ("weighted", (None, "accuracy", "weighted_f1"))):
        p, rc, f, _ = skm.precision_recall_fscore_support(yt, yp, labels=labels, average=avg, sample_weight=w, zero_division=0)
        pairs += [(m, v) for m, v in zip(ids, (p, rc, f)) if m]
    for avg, m in (("macro", "macro_jaccard"), ("weighted", "weighted_jaccard"), ("micro", "micro_jaccard")):
        pairs.append((m, skm.jaccard_score(yt, yp, labels=labels, average=avg, sample_weight=w, zero_division=0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kappa = skm.cohen_kappa_score(yt, yp, labels=labels, sample_weight=w)
    if np.isfinite(kappa):
        pairs.append(("cohen_kappa", kappa))
    for m, ref in pairs:
        assert r[m] == pytest.approx(ref, abs=1e-12), (m, r[m], ref)
    for pos in binary:
        rb = compute_metrics(C, positive_label=pos, undefined="zero")
        kw = dict(labels=labels, pos_label=pos, average="binary", sample_weight=w, zero_division=0)
        p, rc, f, _ = skm.precision_recall_fscore_support(yt, yp, **kw)
        for m, ref in (("precision", p), ("recall", rc), ("f1", f), ("jaccard", skm.jaccard_score(yt, yp, **kw))):
            assert rb[m] == pytest.approx(ref, abs=1e-12), (pos, m, rb[m], ref)


def test_confusion_entropy_zero_is_not_negative_zero():
    # A diagonal matrix has CE = 0; it must print as 0.0, not -0.0, in tables and JSON.
    for C in ([[5, 0], [0, 3]], [[5, 0], [0, 0]], [[1, 0, 0], [0, 2, 0], [0, 0, 0]]):
        v = compute_metrics(C, ["confusion_entropy"])["confusion_entropy"]
        assert v == 0.0 and math.copysign(1.0, v) == 1.0
