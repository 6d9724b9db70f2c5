"""scikit-learn (and PyCM where scikit-learn lacks a metric) as oracles, to 1e-9, on a few hundred
random confusion matrices: k = 2..6, zero rows (class absent from the truth), zero columns (class
never predicted), both, and non-integer ("soft") counts.

A matrix C is handed to scikit-learn exactly, as k² weighted samples: one sample per cell
(y_true = i, y_pred = j) with ``sample_weight = C[i, j]``. Labels are always passed explicitly so
that classes with no mass still count. Undefined ratios: scikit-learn with ``zero_division=0`` is
this project's ``zero`` convention.

Differences found and how they are matched (documented, not papered over):
* ``balanced_accuracy_score`` drops classes absent from ``y_true`` (it averages recall over the
  classes present), while ``recall_score(average="macro", labels=all, zero_division=0)`` counts them
  as 0. The engine's ``balanced_accuracy`` under ``zero`` equals the latter; under ``omit`` the
  former. ``adjusted=True`` then uses the number of PRESENT classes as chance level 1/k'; the engine
  keeps 1/k for all k classes (a classifier may still predict the absent class), so the adjusted
  value is compared only when every class occurs in the truth.
* ``fowlkes_mallows_score`` is the pair-counting clustering index (invariant to renaming the labels),
  not the binary Fowlkes–Mallows index √(PPV·TPR); the oracle for ``fowlkes_mallows`` is therefore
  √(precision_score · recall_score).
* ``class_likelihood_ratios`` returns NaN where FP = 0 (LR+) or TN = 0 (LR−); the engine returns the
  limit +inf when the numerator is positive. Only finite scikit-learn values are compared.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

from advisor import compute_metrics, confusion_matrix, per_class

TOL = 1e-9


def random_matrices(seed: int, count: int, k_range=(2, 7)) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        k = int(rng.integers(*k_range))
        C = rng.poisson(rng.uniform(0.3, 12), size=(k, k)).astype(float)
        C[np.diag_indices(k)] += rng.poisson(rng.uniform(0, 25), size=k)
        r = int(rng.integers(k))
        mode = i % 6
        if mode == 1:
            C[r, :] = 0  # class r absent from the truth
        elif mode == 2:
            C[:, r] = 0  # class r never predicted
        elif mode == 3:
            C[r, :] = 0
            C[:, r] = 0  # class r absent from both
        elif mode == 4:
            C = C * rng.uniform(0.05, 3.0, size=C.shape)  # soft / weighted counts
        elif mode == 5 and k > 2:
            C[:, int(rng.integers(k))] = 0
            C[int(rng.integers(k)), :] = 0
        if C.sum() == 0:
            C[0, 0] = 1.0
        out.append(C)
    return out


MATRICES = random_matrices(20240, 200)
BINARY = random_matrices(7, 80, k_range=(2, 3))


def cells(C: np.ndarray):
    """The matrix as weighted samples: (y_true, y_pred, sample_weight, labels)."""
    k = C.shape[0]
    return np.repeat(np.arange(k), k), np.tile(np.arange(k), k), C.ravel(), list(range(k))


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)


def check_all(pairs, what):
    bad = [(i, ours, ref) for i, ours, ref in pairs if not close(ours, ref)]
    assert not bad, f"{what}: {len(bad)} mismatches, first (matrix, advisor, oracle) = {bad[0]}"


def test_generator_covers_the_degenerate_cases():
    assert sum(1 for C in MATRICES if np.any(C.sum(1) == 0)) >= 50
    assert sum(1 for C in MATRICES if np.any(C.sum(0) == 0)) >= 50
    assert sum(1 for C in MATRICES if np.any(C != np.round(C))) >= 30
    assert {C.shape[0] for C in MATRICES} == {2, 3, 4, 5, 6}


def test_weighted_cells_equal_expanded_samples():
    # The weighted-cell trick is faithful: same scikit-learn result as one sample per item.
    for C in [M for M in MATRICES if np.all(M == np.round(M)) and np.all(M.sum(0) + M.sum(1) > 0)][:10]:
        yt, yp, w, labels = cells(C)
        et, ep = np.repeat(yt, w.astype(int)), np.repeat(yp, w.astype(int))
        assert close(skm.f1_score(yt, yp, labels=labels, average="macro", sample_weight=w, zero_division=0),
                     skm.f1_score(et, ep, labels=labels, average="macro", zero_division=0))
        assert close(skm.matthews_corrcoef(yt, yp, sample_weight=w), skm.matthews_corrcoef(et, ep))


@pytest.fixture(scope="module")
def oracle() -> list[dict]:
    """scikit-learn's answers for every matrix, computed once (each call costs ~1–2 ms)."""
    out = []
    for C in MATRICES:
        yt, yp, w, labels = cells(C)
        o: dict = {}
        for avg in (None, "macro", "weighted", "micro"):
            kw = dict(labels=labels, average=avg, sample_weight=w, zero_division=0)
            o["prfs", avg] = skm.precision_recall_fscore_support(yt, yp, **kw)
            o["jaccard", avg] = skm.jaccard_score(yt, yp, **kw)
        o["accuracy"] = skm.accuracy_score(yt, yp, sample_weight=w)
        o["mcc"] = skm.matthews_corrcoef(yt, yp, sample_weight=w)
        o["mcm"] = skm.multilabel_confusion_matrix(yt, yp, labels=labels, sample_weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # kappa 0/0; "y_pred contains classes not in y_true"
            o["kappa"] = skm.cohen_kappa_score(yt, yp, labels=labels, sample_weight=w)
            o["ba"] = skm.balanced_accuracy_score(yt, yp, sample_weight=w)
            o["ba_adj"] = skm.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=True)
        out.append(o)
    return out


@pytest.fixture(scope="module")
def ours() -> list[tuple]:
    return [(compute_metrics(C, undefined="zero"), per_class(C, undefined="zero"), compute_metrics(C, undefined="omit")) for C in MATRICES]


def test_accuracy_and_micro_averages(oracle, ours):
    pairs = []
    for i, (o, (r, _, _)) in enumerate(zip(oracle, ours)):
        p, rc, f, _ = o["prfs", "micro"]
        pairs += [(i, r["accuracy"], o["accuracy"]), (i, r["micro_f1"], p), (i, r["micro_f1"], rc),
                  (i, r["micro_f1"], f), (i, r["micro_jaccard"], o["jaccard", "micro"])]
    check_all(pairs, "accuracy / micro")


def test_macro_averages(oracle, ours):
    pairs = []
    for i, (o, (r, _, _)) in enumerate(zip(oracle, ours)):
        p, rc, f, _ = o["prfs", "macro"]
        pairs += [
            (i, r["macro_precision"], p),
            (i, r["macro_recall"], rc),
            (i, r["balanced_accuracy"], rc),
            (i, r["macro_f1"], f),
            (i, r["macro_jaccard"], o["jaccard", "macro"]),
        ]
    check_all(pairs, "macro")


def test_weighted_averages(oracle, ours):
    pairs = []
    for i, (C, o, (r, pc, _)) in enumerate(zip(MATRICES, oracle, ours)):
        p, rc, f, _ = o["prfs", "weighted"]
        pairs += [
            (i, r["weighted_f1"], f),
            (i, r["weighted_jaccard"], o["jaccard", "weighted"]),
            (i, r["accuracy"], rc),  # support-weighted recall is accuracy
            # no metric id for weighted precision: Σ a_i P_i / n from the per-class table
            (i, sum(row["support"] * row["precision"] for row in pc.values()) / C.sum(), p),
        ]
    check_all(pairs, "weighted")


def test_per_class_table(oracle, ours):
    pairs = []
    for i, (o, (_, pc, _)) in enumerate(zip(oracle, ours)):
        p, rc, f, s = o["prfs", None]
        for j, lab in enumerate(pc):
            row = pc[lab]
            (tn, fp), (fn, tp) = o["mcm"][j]
            pairs += [
                (i, row["precision"], p[j]),
                (i, row["recall"], rc[j]),
                (i, row["f1"], f[j]),
                (i, row["support"], s[j]),
                (i, row["predicted"], tp + fp),
                (i, row["jaccard"], o["jaccard", None][j]),
                # scikit-learn has no specificity / NPV: from its one-vs-rest counts
                (i, row["specificity"], tn / (tn + fp) if tn + fp > 0 else 0.0),
                (i, row["npv"], tn / (tn + fn) if tn + fn > 0 else 0.0),
            ]
    check_all(pairs, "per class")


def test_mcc_and_kappa(oracle, ours):
    pairs = []
    for i, (o, (r, _, _)) in enumerate(zip(oracle, ours)):
        # scikit-learn returns 0 when the MCC denominator vanishes: the zero convention.
        pairs.append((i, r["mcc"], o["mcc"]))
        if np.isfinite(o["kappa"]):  # NaN only when both labelings are constant and equal
            pairs.append((i, r["cohen_kappa"], o["kappa"]))
    check_all(pairs, "mcc / kappa")


def test_balanced_accuracy_score(oracle, ours):
    pairs = []
    n_absent = 0
    for i, (C, o, (r, _, r_omit)) in enumerate(zip(MATRICES, oracle, ours)):
        if np.any(C.sum(axis=1) == 0):
            n_absent += 1
            pairs.append((i, r_omit["balanced_accuracy"], o["ba"]))
        else:
            pairs.append((i, r["balanced_accuracy"], o["ba"]))
            pairs.append((i, r["adjusted_balanced_accuracy"], o["ba_adj"]))
            # and the convention makes no difference when every class occurs in the truth
            pairs.append((i, r_omit["balanced_accuracy"], o["ba"]))
    assert n_absent > 30
    check_all(pairs, "balanced accuracy")


def test_binary_metrics_with_positive_label():
    pairs = []
    for i, C in enumerate(BINARY):
        yt, yp, w, labels = cells(C)
        for pos in (0, 1):
            neg = 1 - pos
            r = compute_metrics(C, positive_label=pos, undefined="zero")
            kw = dict(labels=labels, average="binary", sample_weight=w, zero_division=0)
            prec, rec, f1, _ = skm.precision_recall_fscore_support(yt, yp, pos_label=pos, **kw)
            npv, tnr, _, _ = skm.precision_recall_fscore_support(yt, yp, pos_label=neg, **kw)
            pairs += [
                (i, r["precision"], prec),
                (i, r["recall"], rec),
                (i, r["f1"], f1),
                (i, r["f_beta"], f1),
                (i, r["jaccard"], skm.jaccard_score(yt, yp, pos_label=pos, **kw)),
                (i, r["fowlkes_mallows"], math.sqrt(prec * rec)),
                (i, r["specificity"], tnr),
                (i, r["npv"], npv),
            ]
            beta = (0.5, 2.0, 3.7)[i % 3]
            rb = compute_metrics(C, ["f_beta"], positive_label=pos, beta=beta, undefined="zero")
            pairs.append((i, rb["f_beta"], skm.fbeta_score(yt, yp, beta=beta, pos_label=pos, **kw)))
            if C[pos].sum() > 0 and C[neg].sum() > 0:  # both classes in the truth: no 0-convention terms
                pairs.append((i, r["informedness"], rec + tnr - 1))
                pairs.append((i, r["informedness"], r["adjusted_balanced_accuracy"]))
    check_all(pairs, "binary")


def test_class_likelihood_ratios():
    pairs = []
    compared = 0
    for i, C in enumerate(BINARY):
        yt, yp, w, _ = cells(C)
        for pos in (0, 1):
            r = compute_metrics(C, positive_label=pos, undefined="zero")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                lr_plus, lr_minus = skm.class_likelihood_ratios(yt, yp, labels=[1 - pos, pos], sample_weight=w)
            if np.isfinite(lr_plus):
                pairs.append((i, r["lr_plus"], lr_plus))
                compared += 1
            if np.isfinite(lr_minus):
                pairs.append((i, r["lr_minus"], lr_minus))
                compared += 1
    assert compared > 100
    check_all(pairs, "likelihood ratios")


def test_fowlkes_mallows_score_is_a_different_quantity():
    # The clustering index of scikit-learn is invariant to renaming the labels; √(PPV·TPR) is not.
    yt = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    yp = np.array([1, 1, 0, 0, 1, 0, 0, 0, 0, 0])
    fm_cluster = skm.fowlkes_mallows_score(yt, yp)
    assert fm_cluster == pytest.approx(skm.fowlkes_mallows_score(1 - yt, 1 - yp))
    ours_pos = compute_metrics(confusion_matrix(yt, yp), positive_label=1, undefined="zero")["fowlkes_mallows"]
    ours_neg = compute_metrics(confusion_matrix(yt, yp), positive_label=0, undefined="zero")["fowlkes_mallows"]
    assert ours_pos == pytest.approx(math.sqrt(2 / 3 * 2 / 4))
    assert ours_pos != pytest.approx(ours_neg)
    assert fm_cluster != pytest.approx(ours_pos)


def test_raw_arrays_with_sample_weight():
    # Real item-level data with weights: advisor.confusion_matrix(..., sample_weight) then metrics,
    # against scikit-learn called on the same arrays and weights.
    rng = np.random.default_rng(99)
    pairs = []
    for i in range(25):
        k = int(rng.integers(2, 6))
        n = int(rng.integers(5, 200))
        yt = rng.integers(0, k, n)
        yp = np.where(rng.random(n) < 0.6, yt, rng.integers(0, k, n))
        w = rng.uniform(0, 4, n)
        labels = list(range(k))
        cm = confusion_matrix(yt, yp, labels=labels, sample_weight=w)
        np.testing.assert_allclose(cm.counts, skm.confusion_matrix(yt, yp, labels=labels, sample_weight=w), rtol=1e-12)
        r = compute_metrics(cm, undefined="zero")
        pairs += [
            (i, r["accuracy"], skm.accuracy_score(yt, yp, sample_weight=w)),
            (i, r["macro_f1"], skm.f1_score(yt, yp, labels=labels, average="macro", sample_weight=w, zero_division=0)),
            (i, r["weighted_f1"], skm.f1_score(yt, yp, labels=labels, average="weighted", sample_weight=w, zero_division=0)),
            (i, r["mcc"], skm.matthews_corrcoef(yt, yp, sample_weight=w)),
            (i, r["cohen_kappa"], skm.cohen_kappa_score(yt, yp, labels=labels, sample_weight=w)),
        ]
    check_all(pairs, "raw arrays with sample_weight")


def test_string_labels_binary_pos_label():
    yt = np.array(["spam", "ham", "ham", "spam", "ham", "spam", "ham"])
    yp = np.array(["spam", "ham", "spam", "ham", "ham", "spam", "ham"])
    r = compute_metrics(confusion_matrix(yt, yp), positive_label="spam", undefined="zero")
    assert close(r["precision"], skm.precision_score(yt, yp, pos_label="spam"))
    assert close(r["recall"], skm.recall_score(yt, yp, pos_label="spam"))
    assert close(r["f1"], skm.f1_score(yt, yp, pos_label="spam"))


# ---- PyCM, for what scikit-learn lacks ----------------------------------------------------------
pycm = pytest.importorskip("pycm")


def pycm_matrix(C: np.ndarray):
    k = C.shape[0]
    # PyCM's dict is {actual: {predicted: count}}: rows = true, like ours.
    return pycm.ConfusionMatrix(matrix={str(i): {str(j): int(C[i, j]) for j in range(k)} for i in range(k)})


def test_confusion_entropy_against_pycm_overall_cen():
    # PyCM's "Overall CEN" = Σ_j P_j CEN_j (Wei et al. 2010) expands to Gösgens et al.'s Table 1
    # formula −1/(2n) Σ_{i≠j} [c_ji log_{2k−2}(c_ji/(a_j+b_j)) + c_ij log_{2k−2}(c_ij/(a_j+b_j))].
    ints = [C for C in MATRICES if np.all(C == np.round(C))][:80]
    pairs = []
    for i, C in enumerate(ints):
        ref = pycm_matrix(C).overall_stat["Overall CEN"]
        if isinstance(ref, float):
            pairs.append((i, compute_metrics(C, ["confusion_entropy"], undefined="zero")["confusion_entropy"], ref))
    assert len(pairs) >= 60
    check_all(pairs, "confusion entropy")


def test_binary_measures_against_pycm_class_stats():
    # Informedness (BM), markedness (MK), G-measure (√(PPV·TPR), our fowlkes_mallows), G-mean (GM),
    # LR+ (PLR), LR− (NLR), NPV and TNR of the positive class "1"; compared where PyCM defines them.
    ints = [C for C in BINARY if np.all(C == np.round(C))]
    pairs = []
    for i, C in enumerate(ints):
        stats = pycm_matrix(C).class_stat
        r = compute_metrics(C, positive_label=1, undefined="zero")
        for ours, theirs in (("informedness", "BM"), ("markedness", "MK"), ("fowlkes_mallows", "G"),
                             ("geometric_macro_recall", "GM"), ("lr_plus", "PLR"), ("lr_minus", "NLR"),
                             ("npv", "NPV"), ("specificity", "TNR")):
            ref = stats[theirs]["1"]
            if isinstance(ref, float) and np.isfinite(ref):
                pairs.append((i, r[ours], ref))
    assert len(pairs) >= 250
    check_all(pairs, "PyCM binary")


def test_omit_convention_is_scikit_learns_nan_zero_division(ours):
    """The default convention (``omit``, issue 22) against scikit-learn's ``zero_division=np.nan``, which leaves an
    undefined per-class value out of the macro mean and returns NaN for a binary rate with a zero denominator
    (``jaccard_score`` does not accept NaN there, so Jaccard is not compared)."""
    pairs, binary = [], []
    for i, (C, (_, _, r)) in enumerate(zip(MATRICES, ours)):
        yt, yp, w, labels = cells(C)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p, rc, f, _ = skm.precision_recall_fscore_support(yt, yp, labels=labels, average="macro",
                                                              sample_weight=w, zero_division=np.nan)
        pairs += [(i, r["macro_precision"], p), (i, r["balanced_accuracy"], rc), (i, r["macro_f1"], f)]
        if len(labels) == 2:
            rb = compute_metrics(C, ["precision", "recall", "f1"], positive_label=1, undefined="omit")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pb, rcb, fb, _ = skm.precision_recall_fscore_support(yt, yp, labels=labels, pos_label=1,
                                                                     average="binary", sample_weight=w,
                                                                     zero_division=np.nan)
            binary += [(i, rb["precision"], pb), (i, rb["recall"], rcb), (i, rb["f1"], fb)]
    same = lambda a, b: (math.isnan(a) and math.isnan(b)) or close(a, b)  # noqa: E731
    bad = [x for x in pairs + binary if not same(x[1], x[2])]
    assert pairs and binary and not bad, bad[:3]
    # the comparison reaches the cases that matter: undefined values left out, and whole figures undefined
    assert any(math.isnan(x[2]) for x in binary)
    assert sum(not close(r_zero["macro_f1"], r["macro_f1"]) for (r_zero, _, r) in ours) > 0
