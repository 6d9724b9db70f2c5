"""Class-weighted accuracy, Σ w_i C_ii / Σ w_i a_i: the weighted accuracy of the PhysioNet Challenge 2022.

Reyna et al. (2023) score murmur detection with weights 5, 3 and 1 for murmur present, unknown and absent. The
challenge's scoring code (physionetchallenges/evaluation-2022, ``compute_weighted_accuracy``) builds the confusion
matrix with the expert labels as columns, multiplies every column by the weight of its true class and divides the
trace by the sum — each item weighted by its true class's weight, which depends on the class mix. It is not the
class-weighted mean recall Σ w_i R_i / Σ w_i that the field table named before.

Oracles: scikit-learn's ``accuracy_score`` with ``sample_weight = w[y_true]`` on random labels (several k, weights
with zeros), exact rational arithmetic on integer counts, and the challenge's own procedure on a hand example.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from advisor import InputError, compute_metrics, make_plan, recommend
from advisor.catalogue import get_catalogue, resolve_metric
from advisor.engine import NEEDS_PARAMETERS, evaluate_batch
from advisor.questionnaire import load_fields

MID = "class_weighted_accuracy"
# the hand example: rows = true Present, Unknown, Absent; columns = predicted, same order
HAND = np.array([[7, 2, 1],
                 [1, 2, 2],
                 [4, 1, 30]], dtype=float)
WEIGHTS = {"Present": 5, "Unknown": 3, "Absent": 1}
LABELS = ["Present", "Unknown", "Absent"]


def _challenge_weighted_accuracy(y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """The challenge's procedure, written out: one-hot labels, A[output, label], weights by column (true class)."""
    k = 3
    A = np.zeros((k, k))
    for t, p in zip(y_true, y_pred):
        A[p, t] += 1  # rows: the classifier's label, columns: the expert's
    W = np.tile(np.array([5.0, 3.0, 1.0]), (k, 1))  # [[5, 3, 1]] * 3: column j carries the weight of class j
    B = W * A
    return float(np.trace(B) / B.sum())


def _labels_of(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    k = C.shape[0]
    rows, cols = np.indices((k, k))
    counts = C.astype(int).ravel()
    return np.repeat(rows.ravel(), counts), np.repeat(cols.ravel(), counts)


def test_the_hand_example_is_the_challenge_figure():
    # (5·7 + 3·2 + 1·30) / (5·10 + 3·5 + 1·35) = 71 / 100
    r = compute_metrics(HAND, [MID, "class_weighted_recall", "accuracy"], class_weights=[5, 3, 1])
    assert r[MID] == 0.71
    y_true, y_pred = _labels_of(HAND)
    assert _challenge_weighted_accuracy(y_true, y_pred) == pytest.approx(0.71, abs=1e-15)
    # not the class-weighted mean recall (5·0.7 + 3·0.4 + 30/35) / 9, nor plain accuracy 39/50
    assert r["class_weighted_recall"] == pytest.approx((5 * 0.7 + 3 * 0.4 + 30 / 35) / 9, abs=1e-15)
    assert abs(r["class_weighted_recall"] - r[MID]) > 0.09
    assert r["accuracy"] == pytest.approx(39 / 50, abs=1e-15)


def test_the_hand_example_with_labelled_classes():
    labelled = compute_metrics(_matrix(HAND), [MID], class_weights=WEIGHTS)
    assert labelled[MID] == 0.71
    assert labelled.class_weights.tolist() == [5.0, 3.0, 1.0]


def _matrix(C: np.ndarray):
    from advisor import ConfusionMatrix

    return ConfusionMatrix(C, LABELS)


def test_it_depends_on_the_class_mix_and_the_weighted_recall_does_not():
    twice_absent = HAND.copy()
    twice_absent[2] *= 2  # the same recalls, twice as many children without a murmur
    before = compute_metrics(HAND, [MID, "class_weighted_recall"], class_weights=[5, 3, 1])
    after = compute_metrics(twice_absent, [MID, "class_weighted_recall"], class_weights=[5, 3, 1])
    assert after["class_weighted_recall"] == pytest.approx(before["class_weighted_recall"], abs=1e-15)
    assert after[MID] == pytest.approx((35 + 6 + 60) / (50 + 15 + 70), abs=1e-15)
    assert after[MID] > before[MID] + 0.03


def test_equal_weights_give_accuracy_and_balanced_classes_give_the_weighted_recall():
    rng = np.random.default_rng(5)
    for k in (2, 3, 6):
        C = rng.integers(0, 20, size=(k, k)).astype(float) + np.eye(k)
        same = compute_metrics(C, [MID, "accuracy"], class_weights=np.full(k, 2.5))
        assert same[MID] == pytest.approx(same["accuracy"], rel=1e-14)
        balanced = C / C.sum(axis=1, keepdims=True) * 10  # every true class of size 10
        w = rng.choice([0.0, 1.0, 2.0, 5.0], size=k)
        w[0] = 3.0
        r = compute_metrics(balanced, [MID, "class_weighted_recall"], class_weights=w)
        assert r[MID] == pytest.approx(r["class_weighted_recall"], rel=1e-12)


def test_scikit_learn_accuracy_with_the_true_class_weight_as_sample_weight():
    """Random labels, k = 2..8, weights with zeros: agreement to the last bit (one division of the same sums)."""
    rng = np.random.default_rng(2022)
    worst, compared = 0.0, 0
    for k in (2, 3, 4, 5, 8):
        for _ in range(60):
            n = int(rng.integers(1, 400))
            y_true = rng.integers(0, k, n)
            y_pred = np.where(rng.random(n) < rng.random(), y_true, rng.integers(0, k, n))
            w = rng.choice([0.0, 0.25, 1.0, 2.0, 3.0, 5.0, 10.0], size=k)
            w[rng.integers(k)] = rng.choice([1.0, 5.0])  # at least one positive weight
            if not np.any(w[y_true] > 0):
                continue  # every weighted class absent: undefined (tested below)
            C = np.zeros((k, k))
            np.add.at(C, (y_true, y_pred), 1)
            ours = compute_metrics(C, [MID], class_weights=w)[MID]
            oracle = accuracy_score(y_true, y_pred, sample_weight=w[y_true])
            worst = max(worst, abs(ours - oracle))
            compared += 1
    assert compared > 250
    assert worst <= 1e-15


def test_soft_counts_against_scikit_learn_with_cell_weights():
    rng = np.random.default_rng(11)
    for k in (2, 3, 5):
        for _ in range(20):
            C = rng.uniform(0, 5, size=(k, k)) * (rng.random((k, k)) < 0.7)
            C[0, 0] += 0.5
            w = rng.uniform(0, 4, size=k)
            w[0] = 1.0
            y_true, y_pred = np.repeat(np.arange(k), k), np.tile(np.arange(k), k)
            oracle = accuracy_score(y_true, y_pred, sample_weight=C.ravel() * w[y_true])
            assert compute_metrics(C, [MID], class_weights=w)[MID] == pytest.approx(oracle, rel=1e-12, abs=1e-15)


def test_integer_counts_and_weights_are_exact():
    rng = np.random.default_rng(7)
    for k in (2, 3, 4, 7):
        for _ in range(40):
            C = rng.integers(0, 10**6, size=(k, k))
            w = rng.integers(0, 20, size=k)
            w[rng.integers(k)] = 1
            if (w * C.sum(axis=1)).sum() == 0:
                continue
            exact = Fraction(int((w * np.diag(C)).sum()), int((w * C.sum(axis=1)).sum()))
            got = compute_metrics(C, [MID], class_weights=w)[MID]
            assert got == float(exact)  # one correctly rounded division of two exact integer sums


def test_perfect_and_totally_wrong_predictions():
    w = [5, 3, 1]
    assert compute_metrics(np.diag([3.0, 0.2, 7e9]), [MID], class_weights=w)[MID] == 1.0
    assert compute_metrics(np.array([[0, 4, 1], [2, 0, 0], [9, 1, 0]]), [MID], class_weights=w)[MID] == 0.0


def test_a_batch_equals_its_matrices():
    rng = np.random.default_rng(3)
    stack = rng.integers(0, 9, size=(25, 4, 4)).astype(float) + np.eye(4)
    w = np.array([5.0, 0.0, 3.0, 1.0])
    batch = evaluate_batch(stack, [MID], class_weights=w)[MID]
    single = [compute_metrics(m, [MID], class_weights=w)[MID] for m in stack]
    assert batch.tolist() == pytest.approx(single, rel=1e-15)


def test_every_weighted_class_absent_is_resolved_by_the_convention_and_recorded():
    # only class 2 (weight 0) occurs in the truth: Σ w_i a_i = 0
    C = np.array([[0, 0, 0], [0, 0, 0], [1, 2, 3]], dtype=float)
    w = [2, 1, 0]
    got = {conv: compute_metrics(C, [MID], class_weights=w, undefined=conv) for conv in ("zero", "baseline", "omit")}
    assert got["zero"][MID] == 0.0
    assert math.isnan(got["omit"][MID])
    # baseline: Σ w_i b_i/n / Σ w_i over the absent weighted classes = (2·1/6 + 1·2/6) / 3
    assert got["baseline"][MID] == pytest.approx((2 * 1 / 6 + 1 * 2 / 6) / 3, abs=1e-15)
    for r in got.values():
        assert [u.metric for u in r.undefined] == [MID]
        assert "absent" in r.undefined[0].reason


def test_it_needs_class_weights():
    assert MID in NEEDS_PARAMETERS
    with pytest.raises(InputError, match="class_weighted_accuracy needs class weights"):
        compute_metrics(HAND, [MID])
    assert MID not in compute_metrics(HAND)  # not in the default set: nobody can default the weights


def test_catalogue_record_and_names():
    rec = get_catalogue().metrics[MID]
    assert rec.name == "Class-weighted accuracy" and "reyna2023heart" in rec.references
    assert rec.properties["prevalence_invariance"].status == "after_calibration"
    assert rec.properties["prevalence_invariance"].verified
    assert all(c.verified for c in rec.properties.values()), [p for p, c in rec.properties.items() if not c.verified]
    for name in ("weighted accuracy", "PhysioNet weighted accuracy", "class-weighted accuracy"):
        assert resolve_metric(name).ids == [MID], name


def test_the_field_reports_class_weighted_accuracy():
    field = load_fields()["heart_murmur_screening"]
    assert field.metrics == [MID] and field.source == "reyna2023heart"


def _murmur_answers(**extra):
    return {"task": "multiclass", "classes": LABELS, "class_weighting": "custom", "class_weights": WEIGHTS,
            "field": "heart_murmur_screening", **extra}


def test_the_murmur_situation_reports_the_challenge_figure_beside_the_lead():
    r = recommend(_murmur_answers())
    beside = {a.metric: a for a in r.complementary}
    assert MID in beside and r.primary.metric != MID
    assert "PhysioNet Challenge 2022" in beside[MID].reason
    plan = make_plan(_murmur_answers())
    spec = plan.spec(MID)
    assert spec is not None and spec.params["class_weights"] == {c: float(v) for c, v in WEIGHTS.items()}
    field = next(e.text for e in r.rationale if e.rule == "field")
    assert "Class-weighted accuracy" in field and "leads and is that figure" not in field


def test_the_methods_say_which_figure_is_the_challenges():
    from advisor import build_report

    ctx = build_report(_murmur_answers(), bootstrap=0, seed=1)
    text = " ".join(str(p) for p in ctx.methods)
    # the challenge's figure, in the challenge's word, right after the lead (issue 22)
    assert "As is customary in the PhysioNet Challenge 2022 on heart-murmur screening, we also report weighted " \
           "accuracy" in text
    # the lead (class-weighted mean recall) and balanced accuracy are not called the challenge's figure
    assert "It is also the customary figure in" not in text
    lead = text.split("We lead with", 1)[1].split(".", 1)[0]
    assert "class-weighted mean recall" in lead and "PhysioNet" not in lead


def test_without_weights_the_field_says_what_is_missing():
    r = recommend({"task": "multiclass", "classes": LABELS, "field": "heart_murmur_screening"})
    assert MID not in {a.metric for a in r.complementary}
    field = next(e.text for e in r.rationale if e.rule == "field")
    assert "it needs class weights" in field
