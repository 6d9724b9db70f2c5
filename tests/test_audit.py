"""The property checker and the audit: catalogue and code cannot drift apart.

Includes the counterexamples printed in Gösgens et al. (2021), Appendix C (seed 003) and in Opitz
(2024), Appendix G — reproduced with the engine and re-checked by the checker's own definitions.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from advisor import compute_metrics
from advisor._exceptions import InputError
from advisor.catalogue import audit, get_catalogue
from advisor.catalogue._audit import check_claim, omega
from advisor.catalogue._checker import PROPERTIES, pii_illustration
from advisor.catalogue._models import Counterexample, PropertyClaim
from advisor.catalogue._space import MetricFunction

CAT = get_catalogue()
BUDGET = 200  # the maintainers' run uses 3000 (verification.yaml); this keeps the suite under ~15 s


def mf(mid: str, **kw) -> MetricFunction:
    return MetricFunction(mid, CAT.metrics[mid].higher_is_better, **kw)


def value(mid: str, m, conv: str = "baseline") -> float:
    return compute_metrics(np.asarray(m, float), [mid], undefined=conv)[mid]


def ce(*mats, **kw) -> Counterexample:
    return Counterexample(matrices=[np.asarray(m, float).tolist() for m in mats], explanation="test",
                          source="test", **kw)


# ----------------------------------------------------------------------------------------------
# the audit itself
# ----------------------------------------------------------------------------------------------
def test_audit_refutes_no_claim():
    t0 = time.perf_counter()
    report = audit(BUDGET, seed=1)
    elapsed = time.perf_counter() - t0
    assert report.refuted == 0, report.summary()
    n_prob = sum(r.needs_probabilities for r in CAT.metrics.values()) * 14
    assert report.unverified == n_prob  # only log loss and Brier are outside the checker's reach
    assert report.checked == sum(len(r.properties) for r in CAT.metrics.values())
    assert report.confirmed == report.checked - n_prob
    assert report.counterexamples >= 200
    assert elapsed < 45, f"audit took {elapsed:.1f} s"
    d = report.to_dict()
    assert d["refuted"] == 0 and len(d["checks"]) == report.checked


def test_audit_catches_a_false_claim():
    acc = CAT.metrics["accuracy"]
    wrong = PropertyClaim(status="holds", source="test")
    res = check_claim(acc, "constant_baseline", wrong, budget=BUDGET)
    assert res.outcome == "refuted" and res.counterexample is not None
    ba = CAT.metrics["balanced_accuracy"]
    res = check_claim(ba, "symmetry", PropertyClaim(status="holds", source="test"), budget=BUDGET)
    assert res.outcome == "refuted"
    # a 'fails' claim whose stored counterexample shows nothing is refuted
    bogus = PropertyClaim(status="fails", source="test", counterexample=ce([[1, 0], [0, 1]], [[2, 0], [0, 1]]))
    assert check_claim(ba, "prevalence_invariance", bogus, budget=BUDGET).outcome == "refuted"
    # a wrong chance level is refuted
    cc = PropertyClaim(status="holds", source="test",
                       chance_correction={"strict": True, "complete": True, "baseline": "1/k"})
    assert check_claim(ba, "chance_correction", cc, budget=BUDGET).outcome == "refuted"


def test_audit_budget_is_validated():
    with pytest.raises(InputError, match="budget"):
        audit(3)


def test_omega_evaluates_only_arithmetic_in_k():
    assert omega("1/k", 4) == 0.25 and omega("0", 7) == 0.0 and omega("sqrt(1/2)", 2) == pytest.approx(0.7071, 1e-4)
    with pytest.raises(ValueError):
        omega("__import__('os')", 2)


# ----------------------------------------------------------------------------------------------
# Gösgens et al. (2021), Appendix C — every printed counterexample, rows = truth (their convention)
# ----------------------------------------------------------------------------------------------
def test_appendix_c4_mcc_not_monotone_for_three_classes():
    c1 = [[1, 0, 0], [6, 1, 0], [0, 0, 1]]
    c2 = [[1, 0, 0], [7, 0, 0], [0, 0, 1]]  # c1 with one item of class 1 moved off its diagonal
    assert value("mcc", c2) > value("mcc", c1)
    assert value("mcc", c1) == pytest.approx(0.4) and value("mcc", c2) == pytest.approx(0.410792, abs=1e-6)
    assert PROPERTIES["monotonicity"].recheck(mf("mcc"), ce(c2, c1)) is None
    assert PROPERTIES["monotonicity"].recheck(mf("correlation_distance"), ce(c2, c1)) is None


def test_appendix_c4_kappa_not_monotone_for_three_classes():
    c1 = [[0, 1, 2], [0, 0, 0], [1, 0, 0]]
    c2 = [[1, 0, 2], [0, 0, 0], [1, 0, 0]]  # one error of row 0 moved to its diagonal cell
    assert value("cohen_kappa", c1) > value("cohen_kappa", c2)
    assert value("cohen_kappa", c1) == pytest.approx(-5 / 11) and value("cohen_kappa", c2) == pytest.approx(-0.5)
    assert PROPERTIES["monotonicity"].recheck(mf("cohen_kappa"), ce(c1, c2)) is None


def test_appendix_c4_kappa_not_strongly_monotone():
    assert value("cohen_kappa", [[1, 2], [1, 0]]) < value("cohen_kappa", [[1, 3], [1, 0]])
    # removing an error (cell (0,1)) must improve a strongly monotone measure; kappa gets worse
    assert PROPERTIES["strong_monotonicity"].recheck(mf("cohen_kappa"), ce([[1, 3], [1, 0]], [[1, 2], [1, 0]])) is None


def test_appendix_c1_mcc_minimal_agreement_fails_for_three_classes():
    z1 = [[0, 1, 0], [0, 0, 1], [2, 0, 0]]
    z2 = [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    assert value("mcc", z1) == pytest.approx(-0.5) and value("mcc", z2) == pytest.approx(-0.6)
    assert PROPERTIES["min_agreement"].recheck(mf("mcc"), ce(z1, z2)) is None
    # binary MCC reaches −1 exactly on every zero-diagonal matrix
    for m in ([[0, 3], [5, 0]], [[0, 1], [1, 0]], [[0, 7], [0, 0]]):
        assert value("mcc", m) == pytest.approx(-1.0)


def test_appendix_c1_confusion_entropy_minimal_agreement_and_monotonicity_fail():
    assert value("confusion_entropy", [[0, 6], [6, 0]]) == pytest.approx(1.0)
    assert value("confusion_entropy", [[1, 5], [5, 1]]) > 1.0
    assert PROPERTIES["min_agreement"].recheck(mf("confusion_entropy"), ce([[0, 6], [6, 0]], [[1, 5], [5, 1]])) is None


def test_appendix_c3_confusion_entropy_is_not_a_distance():
    a, b, c = (1, 1, 0), (1, 1, 1), (1, 0, 1)
    stored = ce([[0, 1], [0, 2]], [[1, 0], [1, 1]], [[1, 1], [1, 0]], labelings=[list(a), list(b), list(c)])
    assert PROPERTIES["distance"].recheck(mf("confusion_entropy"), stored) is None
    assert value("confusion_entropy", [[1, 1], [1, 0]]) == pytest.approx(1.0)  # CE(A, C)
    assert value("confusion_entropy", [[0, 1], [0, 2]]) == pytest.approx(0.386988, abs=1e-6)  # CE(A, B)


def test_appendix_c5_confusion_entropy_has_no_approximate_constant_baseline():
    e1 = np.outer([2, 1], [1, 2]) / 3
    e2 = np.outer([0, 3], [1, 2]) / 3
    assert value("confusion_entropy", e1) != pytest.approx(value("confusion_entropy", e2))
    assert PROPERTIES["approximate_constant_baseline"].recheck(mf("confusion_entropy"), ce(e1, e2)) is None


def test_opitz_appendix_g_tables_7_8_errors_raise_kappa_and_mcc():
    # Opitz prints m[pred, true]; transposed to rows = truth.
    t7 = np.array([[10, 43, 0], [1, 1, 0], [0, 0, 1]], float).T
    t8 = np.array([[10, 43, 0], [1, 1, 0], [0, 10, 1]], float).T
    assert value("mcc", t7) == pytest.approx(0.0, abs=1e-12) and value("cohen_kappa", t7) == pytest.approx(0.0, abs=1e-12)
    assert round(value("mcc", t8), 2) == 0.07 and round(value("cohen_kappa", t8), 2) == 0.02
    for mid in ("mcc", "cohen_kappa"):
        assert PROPERTIES["opitz_monotonicity"].recheck(mf(mid), ce(t7, t8)) is None


# ----------------------------------------------------------------------------------------------
# single properties on metrics whose status is textbook
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mid, pid, holds", [
    ("accuracy", "symmetry", True), ("balanced_accuracy", "symmetry", False),
    ("accuracy", "distance", True), ("mcc", "distance", False), ("correlation_distance", "distance", True),
    ("balanced_accuracy", "prevalence_invariance", True), ("macro_f1", "prevalence_invariance", False),
    ("mcc", "constant_baseline", True), ("accuracy", "constant_baseline", False),
    ("f1", "class_symmetry", False), ("accuracy", "class_sensitivity", False), ("macro_f1", "class_sensitivity", True),
])
def test_checker_decides_textbook_cases(mid, pid, holds):
    prop = PROPERTIES[pid]
    f = mf(mid)
    hits = [prop.search(f, k, np.random.default_rng(k), 100) for k in f.ks]
    found = any(h is not None for h in hits)
    assert found != holds if not prop.existential else found == holds


def test_calibration_gives_prevalence_invariance_to_every_metric():
    for mid in ("accuracy", "macro_f1", "mcc", "weighted_f1"):
        f = mf(mid, calibrated=True)
        assert all(PROPERTIES["prevalence_invariance"].search(f, k, np.random.default_rng(0), 100) is None for k in f.ks)


def test_class_sensitivity_illustration_is_rechecked():
    f = mf("accuracy")
    ill = pii_illustration(f)
    assert PROPERTIES["class_sensitivity"].recheck(f, ill) is None
    assert ill.values[0] == pytest.approx(ill.values[1])


def test_restricted_claims_hold_inside_and_fail_outside_their_condition():
    ba = CAT.metrics["balanced_accuracy"].properties["min_agreement"]
    assert ba.status == "conditional" and ba.restriction == "truth_complete"
    # outside: a class absent from the truth gets recall b_i/n under the baseline convention
    assert value("balanced_accuracy", [[0, 0], [1, 0]]) == pytest.approx(0.5)
    assert value("balanced_accuracy", [[0, 0], [1, 0]], "zero") == pytest.approx(0.0)
    inside = mf("balanced_accuracy", restrict="truth_complete")
    assert all(PROPERTIES["min_agreement"].search(inside, k, np.random.default_rng(k), 200) is None for k in (2, 3))


def test_stored_counterexample_values_are_the_engines():
    """Every value printed next to a stored counterexample is what the implementation computes."""
    n = 0
    for rec in CAT.metrics.values():
        if rec.needs_probabilities:
            continue
        for pid, c in rec.properties.items():
            for stored, calibrated in ((c.counterexample, False), (c.calibrated_counterexample, True)):
                if stored is None or pid == "constant_baseline":  # CB stores exact expectations
                    continue
                f = mf(rec.id, calibrated=calibrated)
                got = [float(f.values(np.asarray(m, float))) for m in stored.matrices]
                assert got == pytest.approx(stored.values, rel=1e-9, abs=1e-9), (rec.id, pid)
                n += 1
    assert n > 200
