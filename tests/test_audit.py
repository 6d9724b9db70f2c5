"""The property checker and the audit: catalogue and code cannot drift apart.

Includes the counterexamples printed in Gösgens et al. (2021), Appendix C (seed 003) and in Opitz
(2024), Appendix G — reproduced with the engine and re-checked by the checker's own definitions.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from advisor import calibrated_metrics, compute_metrics
from advisor._exceptions import InputError
from advisor.catalogue import audit, get_catalogue
from advisor.catalogue._audit import check_claim, omega
from advisor.catalogue._checker import PROPERTIES, pii_illustration
from advisor.catalogue._space import checker_parameters, checker_positive
from advisor.catalogue._models import Counterexample, PropertyClaim
from advisor.catalogue._space import MetricFunction

CAT = get_catalogue()
BUDGET = 200  # the maintainers' run uses 3000 (verification.yaml); this keeps the suite under ~15 s


def mf(mid: str, **kw) -> MetricFunction:
    return MetricFunction(mid, CAT.metrics[mid].higher_is_better, **kw)


def value(mid: str, m, conv: str = "baseline") -> float:
    m = np.asarray(m, float)
    return compute_metrics(m, [mid], undefined=conv, **checker_parameters(mid, m.shape[-1]))[mid]


def ce(*mats, **kw) -> Counterexample:
    return Counterexample(matrices=[np.asarray(m, float).tolist() for m in mats], explanation="test",
                          source="test", **kw)


# ----------------------------------------------------------------------------------------------
# the audit itself
# ----------------------------------------------------------------------------------------------
def test_audit_refutes_no_claim():
    report = audit(BUDGET, seed=1)  # its time is measured in benchmarks/, never asserted here
    assert report.refuted == 0, report.summary()
    from advisor.catalogue._check_scores import hard_evaluator

    # score and probability metrics are checked on their hard outputs (issue 11); a property that does not
    # apply to a metric's kind of input has nothing to check (issue 12)
    no_hard = [r for r in CAT.metrics.values()  # (a score metric of label sets: the label-set checker, hard outputs)
               if r.structure == "nominal" and r.needs_probabilities and hard_evaluator(r.id) is None]
    # issue 21: a metric with no hard outputs to check it on (a budget picks its own threshold among the scores;
    # the calibration intercept and slope need finite logits; net benefit; the forecast scores) states every
    # labeling property not_applicable, with its reason — never an unverifiable claim
    assert all(c.status == "not_applicable" and (c.note or "").strip() for r in no_hard for c in r.properties.values())
    n_prob = sum(c.status == "not_applicable" for r in CAT.metrics.values() for c in r.properties.values())
    n_na = sum(c.status == "not_applicable" for r in CAT.metrics.values() for c in r.properties.values())
    # issue 11, item 5: nothing is left unverifiable — a claim is confirmed, or not applicable with its reason
    assert report.unverified == 0 == n_prob - n_na, [c for c in report.checks if c.outcome == "unverified"]
    assert report.not_applicable == n_na
    assert all(c.detail.removeprefix("not applicable:").strip() for c in report.checks if c.outcome == "not_applicable")
    assert report.checked == sum(len(r.properties) for r in CAT.metrics.values())
    assert report.confirmed == report.checked - n_prob
    assert report.counterexamples >= 200
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


def _stored(kind: str | None = None):
    """(record, property id, counterexample, calibrated) for every stored counterexample."""
    for rec in CAT.metrics.values():
        if rec.needs_probabilities or rec.structure != "nominal":  # issue 12 kinds: test_structures_checker.py
            continue
        for pid, c in rec.properties.items():
            for stored, calibrated in ((c.counterexample, False), (c.calibrated_counterexample, True)):
                if stored is not None and (kind is None or stored.kind == kind):
                    yield rec, pid, stored, calibrated


def test_stored_counterexample_values_are_the_checkers():
    """Every value printed next to a stored counterexample is what the property checker computes."""
    n = 0
    for rec, pid, stored, calibrated in _stored("matrices"):
        f = mf(rec.id, calibrated=calibrated)
        got = [float(f.values(np.asarray(m, float))) for m in stored.matrices]
        assert got == pytest.approx(stored.values, rel=1e-9, abs=1e-9, nan_ok=True), (rec.id, pid)  # NaN: undefined
        n += 1
    assert n > 200


def test_counterexample_kinds_are_explicit():
    """Constant-baseline counterexamples store expectations; every other one stores the matrices' values."""
    kinds = {(pid, ce.kind) for _, pid, ce, _ in _stored()}
    assert ("constant_baseline", "expectations") in kinds
    for rec, pid, ce, _ in _stored():
        assert ce.kind == ("expectations" if pid == "constant_baseline" else "matrices"), (rec.id, pid)
        assert ce.convention == "baseline", (rec.id, pid)  # the checker's convention, stated in the data
        assert len(ce.values) == len(ce.matrices), (rec.id, pid)


def _engine(rec, m: np.ndarray, convention: str, calibrated: bool, k: int | None = None, keep=None) -> float:
    """The public engine's value: compute_metrics, or calibrated_metrics for metric~. ``keep``: the classes of
    the ``k``-class matrix ``m`` was reduced to (a class keeps its own weight in a class-weighted metric)."""
    if m.shape == (1, 1):  # one class left: identical constant labelings score as a diagonal matrix
        m, k, keep = np.eye(2) * 3.0, None, None
    fn = calibrated_metrics if calibrated else compute_metrics
    pos = checker_positive(rec.id, k or m.shape[-1], keep)  # in-scope accuracy: the out-of-scope class is the last
    res = fn(m, [rec.id], positive_label=pos, undefined=convention,
             **checker_parameters(rec.id, k or m.shape[-1], keep))
    return float(res[rec.id + ("~" if calibrated else "")])


def test_every_stored_counterexample_reproduces_with_compute_metrics():
    """The values shown are compute_metrics(M, undefined=convention), M the reduced matrix where one is stored.

    The checker drops a class that occurs in neither labeling; ``reduced`` must record exactly that
    (and nothing for binary metrics, which are never reduced).
    """
    n = reduced = 0
    for rec, pid, ce, calibrated in _stored("matrices"):
        red = ce.reduced or [None] * len(ce.matrices)
        assert len(red) == len(ce.matrices), (rec.id, pid)
        for m, r, v in zip(ce.matrices, red, ce.values):
            m = np.asarray(m, float)
            present = (m.sum(axis=0) + m.sum(axis=1)) > 0
            if rec.binary_only or present.all():
                assert r is None, (rec.id, pid)
                target = m
            else:
                target = m[np.ix_(present, present)]
                assert r is not None and np.array_equal(np.asarray(r, float), target), (rec.id, pid)
                reduced += 1
            got = _engine(rec, target, ce.convention, calibrated, m.shape[-1], np.flatnonzero(present))
            assert got == pytest.approx(v, rel=1e-9, abs=1e-9, nan_ok=True), (rec.id, pid, m.tolist(), got, v)
            n += 1
        if ce.reduced is not None:
            assert "neither labeling" in ce.explanation and "reduced matrix" in ce.explanation, (rec.id, pid)
    assert n > 450 and reduced >= 2


def test_constant_baseline_expectations_reproduce_with_compute_metrics():
    """Expectation-kind values: the mean of compute_metrics over every arrangement of the predicted labels."""
    n = 0
    for rec, pid, ce, calibrated in _stored("expectations"):
        assert not calibrated
        for m, v in zip(ce.matrices, ce.values):
            m = np.asarray(m, float)
            a, b = m.sum(axis=1).astype(int), m.sum(axis=0).astype(int)
            k = len(a)
            assert np.all(a + b > 0) and m.sum() <= 8, (rec.id, m.tolist())
            truth = np.repeat(np.arange(k), a)
            preds = np.array(sorted(set(itertools.permutations(np.repeat(np.arange(k), b)))))
            mats = np.zeros((len(preds), k, k))
            for i in range(k):
                for j in range(k):
                    mats[:, i, j] = ((truth == i)[None, :] & (preds == j)).sum(axis=1)
            vals = compute_metrics(mats, [rec.id], positive_label=checker_positive(rec.id, k),
                                   undefined=ce.convention, **checker_parameters(rec.id, k))[rec.id]
            assert float(np.mean(vals)) == pytest.approx(v, rel=1e-9, abs=1e-9), (rec.id, m.tolist())
            n += 1
    assert n >= 20


def test_gm1_monotonicity_counterexample_says_the_engine_rises():
    """The reviewer's case: the checker's failure needs a dropped class; the engine on k×k rises (and says so)."""
    claim = CAT.metrics["gm1"].properties["monotonicity"]
    ce = claim.counterexample
    assert claim.status == "conditional" and claim.restriction == "occurring"
    assert ce.reduced is not None and ce.reduced[0] is None and ce.reduced[1] is not None
    full = [value("gm1", m) for m in ce.matrices]
    assert ce.values[1] < ce.values[0]  # on the reduced matrix the score falls ...
    assert full[1] > full[0]  # ... the engine on the k×k matrices rises, as the note says
    assert "rises" in claim.note and "1 (maximal agreement)" in claim.note
    from advisor.catalogue._render import _ce_md

    assert f"matrix 2 evaluated as `{_matrix(ce.reduced[1])}`" in _ce_md(ce)
    assert "`undefined=baseline`" in _ce_md(ce)


def _matrix(m) -> str:
    from advisor.catalogue._render import _matrix as fmt

    return fmt(m)


# ----------------------------------------------------------------------------------------------
# classes absent from both labelings: the engine's baseline scores them 1 (maximal agreement)
# ----------------------------------------------------------------------------------------------
Z = [[0, 5, 0], [5, 0, 0], [0, 0, 0]]


def test_unused_class_counts_as_agreement_under_baseline():
    for mid in ("balanced_accuracy", "macro_f1", "sba", "macro_precision", "macro_jaccard"):
        assert value(mid, Z) == pytest.approx(1 / 3), mid
        assert value(mid, Z, "zero") == 0.0, mid
    assert value("adjusted_balanced_accuracy", Z) == pytest.approx(0.0)
    assert value("minority_weighted_f1", Z) == pytest.approx(0.5)


def _zero_diagonal_with_unused_classes(rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    for k in (3, 4):
        for _ in range(20):
            m = rng.integers(0, 6, (k, k)).astype(float)
            np.fill_diagonal(m, 0.0)
            gone = rng.choice(k, size=int(rng.integers(1, k - 1)), replace=False)
            m[gone, :] = 0.0
            m[:, gone] = 0.0
            if m.sum() > 0:
                out.append(m)
    return out


@pytest.mark.parametrize("mid", [m for m, r in CAT.metrics.items() if not r.binary_only and not r.needs_probabilities
                                 and r.structure == "nominal"  # label sets etc.: test_structures_checker.py
                                 and r.properties["min_agreement"].status in ("holds", "conditional")])
def test_min_agreement_claims_state_what_an_unused_class_does(mid):
    """A Min claim is unconditional only if a class absent from both labelings cannot lift a zero-diagonal score."""
    from advisor.catalogue._space import RESTRICTIONS

    claim = CAT.metrics[mid].properties["min_agreement"]
    mats = _zero_diagonal_with_unused_classes(np.random.default_rng(5))
    for m in mats:
        k = m.shape[0]
        c_min = value(mid, np.ones((k, k)) - np.eye(k))
        lifted = value(mid, m) != pytest.approx(c_min, abs=1e-12)
        if claim.status == "holds":
            assert not lifted, (mid, m.tolist())
            assert value(mid, m, "zero") == pytest.approx(value(mid, np.ones((k, k)) - np.eye(k), "zero"))
        elif lifted:
            assert not RESTRICTIONS[claim.restriction][1](m[None])[0], (mid, m.tolist())
    text = f"{claim.condition or ''} {claim.note or ''}"
    if claim.status == "holds":
        assert "neither labeling" in text, mid
    else:
        assert "maximal agreement" in text and "[[0, 5, 0], [5, 0, 0], [0, 0, 0]]" in text, mid


# ----------------------------------------------------------------------------------------------
# chance levels: random classifiers (expected matrices) versus the constant majority predictor
# ----------------------------------------------------------------------------------------------
def test_chance_texts_say_expected_matrix_where_the_exact_expectation_differs():
    for mid, rec in CAT.metrics.items():
        pv, cb = rec.properties["chance_correction"], rec.properties["constant_baseline"]
        if rec.needs_probabilities or pv.status != "holds" or not pv.chance_correction.strict or cb.status != "fails":
            continue
        assert "expected matrix" in rec.chance_level and "not always" in rec.chance_level, mid
        if pv.note and "exactly" in pv.note:
            assert "expected matrix" in pv.note, mid


def test_majority_predictor_values_that_depend_on_the_convention_are_flagged():
    from advisor import chance_levels

    flagged = set()
    rng = np.random.default_rng(2)
    for k in (2, 3):
        for _ in range(6):
            m = rng.integers(1, 20, (k, k))
            for pos in ((0, 1) if k == 2 else (None,)):
                z = chance_levels(m, None, positive_label=pos, undefined="zero")
                b = chance_levels(m, None, positive_label=pos, undefined="baseline")
                flagged |= {mid for mid in z if z[mid]["majority"] != pytest.approx(b[mid]["majority"])}
    assert {"markedness", "lr_plus", "precision", "macro_precision"} <= flagged
    for mid in flagged:
        text = CAT.metrics[mid].chance_level
        assert "majority-class predictor" in text and "undefined-value convention" in text, mid


# ----------------------------------------------------------------------------------------------
# issue 11, item 5: no claim left unverifiable; every "fails" has its counterexample on record
# ----------------------------------------------------------------------------------------------
def test_every_failing_claim_has_a_counterexample_on_record():
    missing = [(r.id, p) for r in CAT.metrics.values() for p, c in r.properties.items()
               if c.status in ("fails", "binary_only", "after_calibration") and c.counterexample is None
               and p != "chance_correction"]
    # PV "fails" is shown by a random classifier near the best value, also stored as a counterexample
    missing += [(r.id, p) for r in CAT.metrics.values() for p, c in r.properties.items()
                if p == "chance_correction" and c.status == "fails" and c.counterexample is None]
    assert missing == []


def test_not_applicable_needs_a_reason_and_a_metric_it_cannot_apply_to():
    acc = CAT.metrics["accuracy"]
    na = PropertyClaim(status="not_applicable", source="test", note="no reason really")
    assert check_claim(acc, "symmetry", na, budget=BUDGET).outcome == "refuted"  # defined on matrices
    topk = CAT.metrics["top_k_accuracy"]
    pid, claim = next((p, c) for p, c in topk.properties.items() if c.status == "not_applicable")
    assert check_claim(topk, pid, claim, budget=BUDGET).outcome == "not_applicable"
    bare = claim.model_copy(update={"note": None})
    assert check_claim(topk, pid, bare, budget=BUDGET).outcome == "unverified"


def test_cost_metric_claims_are_searched_under_other_costs_and_priors():
    """Issue 11, item 5: expected cost is also searched over cost matrices and fixed priors. Its claims are
    stated at 0/1 costs and test priors; the scope lists what does not carry over, with the costs used —
    re-checked here with the engine's public function."""
    from advisor.engine._costs import expected_cost

    report = audit(BUDGET, seed=0, metrics=["expected_cost", "normalized_expected_cost"])
    scope = report.scope
    found = {(s["metric"], s["property"], s["scenario"]) for s in scope}
    # a cheap error lowers the average cost: not monotone in Opitz's sense once the costs differ
    assert ("expected_cost", "opitz_monotonicity", "costs") in found
    assert ("expected_cost", "class_symmetry", "costs") in found
    for s in scope:
        before, after = (np.asarray(m, float) for m in s["matrices"][:2])
        priors = None if s["priors"] is None else np.asarray(s["priors"])

        def ec(m):
            return expected_cost(m, np.asarray(s["costs"]), priors)

        if s["property"] == "opitz_monotonicity":
            assert ec(after) < ec(before), s  # an added error lowered the cost
        elif s["property"] in ("monotonicity", "strong_monotonicity"):
            assert ec(after) >= ec(before) - 1e-12, s  # a correction did not lower the cost
        elif s["property"] in ("class_symmetry", "symmetry", "distance", "min_agreement"):
            assert abs(ec(after) - ec(before)) > 1e-12, s
    assert report.scope and "Scope:" in report.summary() and report.to_dict()["scope"] == report.scope


def test_a_dropped_class_takes_its_weight_with_it():
    """The checker drops a class neither labeling uses; the classes left keep their weights 1, …, k (renumbering
    them to 1, …, k − 1 made class-weighted accuracy look non-monotone when a move emptied a class)."""
    m = np.array([[2.0, 0.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 3.0]])  # class 1 in neither labeling
    full = compute_metrics(m, ["class_weighted_accuracy"], class_weights=[1, 2, 3])["class_weighted_accuracy"]
    assert full == pytest.approx((2 + 9) / (3 + 12))
    assert mf("class_weighted_accuracy").values(m) == pytest.approx(full, abs=1e-15)
    assert checker_parameters("class_weighted_recall", 3, keep=[0, 2])["class_weights"].tolist() == [1.0, 3.0]
    assert checker_parameters("accuracy", 3, keep=[0, 2]) == {}
