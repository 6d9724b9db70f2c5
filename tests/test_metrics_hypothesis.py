"""Property-based tests (hypothesis): random non-negative matrices, integer and real, k = 2..6.

Nothing crashes or warns, every value lies in its range (or is NaN with a recorded reason under
``omit``), batched evaluation equals one-by-one evaluation, and renaming the classes changes
nothing for class-symmetric metrics.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from advisor import InputError, chance_levels, compute_metrics, per_class
from advisor.engine._metrics import BINARY_METRICS, MULTICLASS_METRICS, evaluate_batch

CONVENTIONS = ("zero", "baseline", "omit")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNIT = {
    "accuracy", "balanced_accuracy", "macro_recall", "macro_precision", "macro_f1", "f1_of_averages",
    "weighted_f1", "micro_f1", "macro_jaccard", "weighted_jaccard", "micro_jaccard", "sba",
    "correlation_distance", "geometric_macro_recall", "harmonic_macro_recall", "minority_weighted_f1",
    "precision", "recall", "f1", "f_beta", "specificity", "npv", "jaccard", "fowlkes_mallows", "lam",
}
SIGNED = {"mcc", "cohen_kappa", "gm1", "informedness", "markedness", "adjusted_balanced_accuracy"}
NON_NEGATIVE = {"confusion_entropy", "lr_plus", "lr_minus"}
assert UNIT | SIGNED | NON_NEGATIVE == set(MULTICLASS_METRICS) | set(BINARY_METRICS)

EPS = 1e-12

# Real counts span ten orders of magnitude here (1e-6 .. 1e4). Masses near the float minimum (1e-300)
# are not realistic counts: the engine treats a denominator below n·1e-12 as zero, and at 1e-300
# products such as a_i·a_j/n underflow.
cell = st.one_of(
    st.just(0.0),
    st.integers(0, 30).map(float),
    st.floats(1e-6, 1e4, allow_nan=False, allow_infinity=False),
)
# For the invariance tests: n·TP_i − a_i·b_i and n² − Σa_i² cancel when one class dominates, losing
# about (n / a_min)·ε of relative precision; with six orders of magnitude that stays below 1e-9.
moderate_cell = st.one_of(st.just(0.0), st.integers(0, 30).map(float), st.floats(1e-2, 1e4))


@st.composite
def matrices(draw, k_min=2, k_max=6, elements=cell):
    k = draw(st.integers(k_min, k_max))
    C = draw(arrays(np.float64, (k, k), elements=elements))
    # sometimes empty a whole row and/or column (class absent from truth / never predicted)
    if draw(st.booleans()):
        C[draw(st.integers(0, k - 1)), :] = 0
    if draw(st.booleans()):
        C[:, draw(st.integers(0, k - 1))] = 0
    assume(C.sum() > 0)
    return C


@st.composite
def stacks(draw):
    k = draw(st.integers(2, 6))
    B = draw(st.integers(1, 5))
    mats = [draw(matrices(k, k)) for _ in range(B)]
    return np.stack(mats)


def check_ranges(r, conv):
    recorded = {u.metric for u in r.undefined}
    for m, v in r.items():
        if math.isnan(v):
            assert conv == "omit" and m in recorded, (m, conv)
            continue
        if m in UNIT:
            assert -EPS <= v <= 1 + EPS, (m, v)
        elif m in SIGNED:
            assert -1 - EPS <= v <= 1 + EPS, (m, v)
        else:
            assert v >= -EPS, (m, v)  # confusion entropy ≥ 0; likelihood ratios ≥ 0 or +inf
            assert np.isfinite(v) or (m in ("lr_plus", "lr_minus") and v == math.inf), (m, v)


@SETTINGS
@given(C=matrices(), conv=st.sampled_from(CONVENTIONS))
def test_ranges_and_no_warnings(C, conv):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compute_metrics(C, undefined=conv)
        check_ranges(r, conv)
        table = per_class(C, undefined=conv)
        for row in table.values():
            for f, v in row.items():
                assert math.isnan(v) or -EPS <= v <= (C.sum() * (1 + EPS) if f in ("support", "predicted") else 1 + EPS)
        chance_levels(C, ["accuracy", "balanced_accuracy", "mcc"], undefined=conv)


@SETTINGS
@given(C=matrices(2, 2), conv=st.sampled_from(CONVENTIONS), pos=st.sampled_from([0, 1]),
       beta=st.floats(0.1, 10))
def test_binary_ranges_and_no_warnings(C, conv, pos, beta):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = compute_metrics(C, positive_label=pos, beta=beta, undefined=conv)
    assert set(BINARY_METRICS) <= set(r)
    check_ranges(r, conv)


def close(m: str, x, y) -> bool:
    """Equal to 1e-9; correlation distance is compared through cos(π·CD) = MCC, because arccos is
    ill-conditioned at ±1 (an MCC rounding error of 1e-11, e.g. from n² − Σa_i² with one dominant
    class, moves CD by ~1e-6)."""
    if m == "correlation_distance":
        x, y = np.cos(np.pi * np.asarray(x, float)), np.cos(np.pi * np.asarray(y, float))
    return same(x, y, 1e-9)


def same(a, b, tol=1e-12):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)


@SETTINGS
@given(S=stacks(), conv=st.sampled_from(CONVENTIONS))
def test_batch_equals_one_by_one(S, conv):
    k = S.shape[-1]
    ids = list(MULTICLASS_METRICS)
    pos = 1 if k == 2 else None
    if pos is not None:
        ids += list(BINARY_METRICS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batch = evaluate_batch(S, ids, positive_index=pos, undefined=conv)
        stacked = compute_metrics(S, ids, positive_label=pos, undefined=conv)
        singles = [compute_metrics(C, ids, positive_label=pos, undefined=conv) for C in S]
    for m in ids:
        one = [s[m] for s in singles]
        assert batch[m].shape == (S.shape[0],)
        assert same(batch[m], one), m
        assert same(stacked[m], one), m
    # two leading batch axes work as well
    S4 = np.stack([S, S[::-1]])
    b4 = evaluate_batch(S4, ids, positive_index=pos, undefined=conv)
    for m in ids:
        assert b4[m].shape == S4.shape[:2]
        assert same(b4[m][1], batch[m][::-1]), m


@SETTINGS
@given(C=matrices(elements=moderate_cell), conv=st.sampled_from(CONVENTIONS), data=st.data())
def test_renaming_classes_changes_nothing(C, conv, data):
    k = C.shape[0]
    perm = np.array(data.draw(st.permutations(list(range(k)))))
    P = C[np.ix_(perm, perm)]
    r, rp = compute_metrics(C, undefined=conv), compute_metrics(P, undefined=conv)
    for m in MULTICLASS_METRICS:  # all multi-class ids are class-symmetric (seed 003, Table 2 CSym)
        assert close(m, r[m], rp[m]), (m, r[m], rp[m])
    if k == 2:  # binary metrics follow their positive class
        new_pos = int(np.flatnonzero(perm == 1)[0])
        rb = compute_metrics(C, positive_label=1, undefined=conv)
        rbp = compute_metrics(P, positive_label=new_pos, undefined=conv)
        for m in BINARY_METRICS:
            assert close(m, rb[m], rbp[m]), m


@SETTINGS
@given(C=matrices(elements=moderate_cell), scale=st.floats(1e-3, 1e3))
def test_scale_invariance(C, scale):
    # every metric is a function of proportions: multiplying all counts changes nothing
    r, rs = compute_metrics(C), compute_metrics(C * scale)
    for m in r:
        assert close(m, r[m], rs[m]), m


@settings(max_examples=30, deadline=None)
@given(C=matrices(), i=st.integers(0, 5), j=st.integers(0, 5),
       bad=st.sampled_from([-1.0, -1e-9, math.nan, math.inf]))
def test_bad_counts_are_rejected(C, i, j, bad):
    k = C.shape[0]
    C = C.copy()
    C[i % k, j % k] = bad
    with pytest.raises(InputError):
        compute_metrics(C)


def test_all_zero_matrix_is_rejected():
    with pytest.raises(InputError):
        compute_metrics(np.zeros((3, 3)))


# ---- regressions found by the properties above ------------------------------------------------
def test_tiny_class_specificity_and_npv_stay_in_unit_interval():
    # n − a_i − b_i + TP_i rounded to −8e-17 (specificity −8e-11) or to slightly more than n − b_i
    # (NPV 1 + 4e-11) before TN was clipped.
    for C in ([[0, 1], [1e-6, 0]], [[1e-5, 0], [4, 1e-5]]):
        for row in per_class(C).values():
            assert 0.0 <= row["specificity"] <= 1.0 and 0.0 <= row["npv"] <= 1.0


def test_undefinedness_does_not_depend_on_the_unit_of_the_counts():
    # GM_1's one-vs-rest denominator is quadratic in the counts; with the tolerance on the absolute
    # scale, dividing every count by 1000 made it "undefined" (gm1 jumped from −1 to 0).
    C = np.array([[0, 1], [1e-6, 0]])
    for s in (1.0, 1e-3, 1e-6):
        r = compute_metrics(C * s, ["gm1", "macro_precision", "balanced_accuracy"])
        assert r.undefined == []
        assert r["gm1"] == pytest.approx(-1.0)
