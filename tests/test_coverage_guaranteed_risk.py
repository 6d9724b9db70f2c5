"""Coverage with guaranteed risk (SGR; Geifman & El-Yaniv 2017, Algorithm 1): the binary search and the bound."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import beta

from advisor.engine import coverage_at_risk, coverage_guaranteed_risk, risk_tail_bound


def _oracle_bound(k: int, m: int, delta: float) -> float:
    """One-sided Clopper–Pearson upper bound at level 1 − delta (scipy as the oracle)."""
    return 1.0 if k >= m else float(beta.ppf(1.0 - delta, k + 1, m - k))


@pytest.mark.parametrize("k,m", [(0, 1), (0, 10), (1, 20), (3, 40), (7, 300), (0, 5000)])
def test_tail_bound_is_clopper_pearson(k: int, m: int) -> None:
    for delta in (0.05, 0.05 / 6, 0.001):
        assert risk_tail_bound(k, m, delta) == pytest.approx(_oracle_bound(k, m, delta), abs=1e-9)


def _forty() -> tuple[np.ndarray, np.ndarray]:
    # 40 items, confidence (t + 1)/40 for t = 0..39 (least confident first); errors at t = 0..9 and t = 25
    conf = np.array([(t + 1) / 40 for t in range(40)])
    err = np.zeros(40)
    err[:10] = 1.0
    err[25] = 1.0
    return err, conf


def test_hand_computed_forty_items() -> None:
    err, conf = _forty()
    k = math.ceil(math.log2(40))
    assert k == 6
    d = 0.05 / k
    # the search by hand, z = ⌈(lo + hi)/2⌉ answering items z..39, at r* = 0.3:
    # z = 20: 1 error in 20, B* ≈ 0.296 ≤ 0.3 → lower; z = 10: 1 in 30, ≈ 0.207 → lower; z = 5: 6 in 35, ≈ 0.373 →
    # higher; z = 8: 3 in 32, ≈ 0.287 → lower; z = 7: 4 in 33, ≈ 0.319 → higher; z = 8 again. Best: z = 8.
    path = [(20, 20, 1, True), (10, 30, 1, True), (5, 35, 6, False), (8, 32, 3, True), (7, 33, 4, False),
            (8, 32, 3, True)]
    for z, m, e, ok in path:
        assert 40 - z == m and int(err[z:].sum()) == e
        assert (_oracle_bound(e, m, d) <= 0.3) is ok
    cov, theta, bound = coverage_guaranteed_risk(err, conf, 0.3)
    assert cov == pytest.approx(32 / 40)
    assert theta == pytest.approx(9 / 40)
    assert bound == pytest.approx(_oracle_bound(3, 32, d), abs=1e-9)
    assert bound == pytest.approx(0.2869, abs=1e-4)
    # the guaranteed coverage is below the coverage found on the same items (the lead): 3 errors in 32 is 0.094
    assert cov <= float(coverage_at_risk(err, conf, 0.3))


def test_forty_items_too_few_for_a_quarter() -> None:
    # at r* = 0.25 the first threshold fails (B*(1/20) ≈ 0.296) and every higher one answers too few items
    err, conf = _forty()
    d = 0.05 / 6
    for z, m, e in [(20, 20, 1), (30, 10, 0), (35, 5, 0), (37, 3, 0), (38, 2, 0), (39, 1, 0)]:
        assert _oracle_bound(e, m, d) > 0.25
    cov, theta, bound = coverage_guaranteed_risk(err, conf, 0.25)
    assert cov == 0.0 and math.isnan(theta) and math.isnan(bound)


def test_no_errors_full_coverage_when_the_bound_allows() -> None:
    # constant confidence: every threshold answers every item; 0 errors in 200: B* = 1 − (0.05/8)^(1/200) ≈ 0.025
    cov, theta, bound = coverage_guaranteed_risk(np.zeros(200), np.full(200, 0.7), 0.05)
    assert cov == 1.0 and theta == 0.7
    assert bound == pytest.approx(1.0 - (0.05 / 8) ** (1 / 200), rel=1e-9)
    # the same items with a target below that bound: nothing qualifies
    assert coverage_guaranteed_risk(np.zeros(200), np.full(200, 0.7), 0.02)[0] == 0.0


def test_a_test_set_too_small_for_the_target_gives_no_coverage_even_without_errors() -> None:
    # Algorithm 1 moves to higher thresholds when the bound fails at half coverage: 206 error-free answers of 412 are
    # below the 258 that B*(0, 0.05/9, m) ≤ 0.02 needs, and fewer answers only widen the bound
    conf = np.linspace(0.5, 1.0, 412)
    assert _oracle_bound(0, 206, 0.05 / 9) > 0.02 and _oracle_bound(0, 258, 0.05 / 9) <= 0.02
    assert coverage_guaranteed_risk(np.zeros(412), conf, 0.02)[0] == 0.0
    # with twice the items the first threshold (412 answers) qualifies and the search goes on downwards
    cov, _, bound = coverage_guaranteed_risk(np.zeros(824), np.linspace(0.5, 1.0, 824), 0.02)
    assert cov > 0.5 and bound <= 0.02


def test_all_errors_give_no_coverage() -> None:
    cov, theta, bound = coverage_guaranteed_risk(np.ones(50), np.linspace(0.1, 0.9, 50), 0.3)
    assert cov == 0.0 and math.isnan(theta) and math.isnan(bound)


def test_more_errors_never_more_coverage() -> None:
    rng = np.random.default_rng(3)
    conf = rng.random(500)
    err = (rng.random(500) < 0.5 * (1 - conf)).astype(float)
    cov0 = coverage_guaranteed_risk(err, conf, 0.1)[0]
    worse = err.copy()
    worse[np.argsort(-conf)[:5]] = 1.0  # errors among the most confident
    assert coverage_guaranteed_risk(worse, conf, 0.1)[0] <= cov0


def test_refuses_bad_delta() -> None:
    from advisor._exceptions import InputError
    with pytest.raises(InputError):
        coverage_guaranteed_risk([0, 1], [0.2, 0.3], 0.1, delta=0.0)


# ----------------------------------------------------------------------------------------------
# The catalogue, the plan, the report and the paragraph (the legal reader: the 2% limit shown to hold)
# ----------------------------------------------------------------------------------------------
from pathlib import Path  # noqa: E402

import advisor  # noqa: E402
from advisor.catalogue import get_catalogue  # noqa: E402
from advisor.engine import METRICS  # noqa: E402
from advisor.plan import make_plan  # noqa: E402
from advisor.questionnaire import load_answers  # noqa: E402
from advisor.report import build_report, methods_paragraph, render_report  # noqa: E402
from advisor.stats import calibration_split  # noqa: E402
from advisor.stats._choice import NO_INTERVAL, interval_method  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LEGAL = ROOT / "tests" / "situations" / "legal.yaml"
DIGITS = {"item_name": "image", "task": "multiclass", "n_classes": 10, "abstention": True, "target_risk": 0.02,
          "outputs": "probabilities", "deployment_prevalence": "same", "class_weighting": "per_instance"}
DERM = {"task": "multiclass", "classes": ["melanoma", "nevus", "keratosis", "other"], "outputs": "probabilities",
        "abstention": True, "context": "A dermatology model that defers to a dermatologist when unsure."}


def test_the_catalogue_record_is_the_coverage_at_the_frozen_cut() -> None:
    rec = get_catalogue().metrics["coverage_guaranteed_risk"]
    assert rec.higher_is_better and tuple(rec.range) == (0, 1) and rec.needs_probabilities
    assert "geifman2017selective" in rec.references
    # the share of the test items answered at the cut fixed on the calibration items (the methodologist's point 2)
    assert rec.formula == r"\frac{m_{\theta^{*}}}{n_t}" and r"\lceil\log_2 n_c\rceil" in rec.symbols[r"\theta^{*}"]
    assert "effective sample size" in rec.symbols["B^{*}"] and "calibration, not a test" in " ".join(rec.pitfalls)
    assert METRICS["coverage_guaranteed_risk"].higher_is_better
    # measured on items the cut was not fixed on, it is an estimate with an interval, no longer a bound
    assert interval_method("coverage_guaranteed_risk") == "auto" and "coverage_guaranteed_risk" not in NO_INTERVAL


def test_the_plan_leads_with_it_for_legal_routing() -> None:
    # the methodologist: the cut fixed on held-out matters, frozen, and tested on the others
    plan = make_plan(load_answers(LEGAL))
    assert plan.lead.id == "coverage_guaranteed_risk" and plan.lead.params["target_risk"] == 0.02
    assert "guaranteed risk" in plan.lead.reason and "frozen" in plan.lead.reason
    assert "coverage_at_risk" not in {m.id for m in plan.beside}


def test_the_plan_lists_it_for_a_derm_like_system_with_a_target_risk() -> None:
    plan = make_plan({**DERM, "target_coverage": 0.8, "target_risk": 0.1})
    assert plan.lead.id == "risk_at_frozen_coverage"  # the cut for the coverage, frozen on the same calibration half
    beside = {m.id: m for m in plan.beside}
    assert beside["coverage_guaranteed_risk"].params["target_risk"] == 0.1
    assert "coverage_guaranteed_risk" not in {m.id for m in make_plan({**DERM, "target_coverage": 0.8}).beside}


def test_the_paragraph_leads_with_the_frozen_cut_and_no_cut_found_on_the_test_set() -> None:
    text = methods_paragraph(str(LEGAL), "md", seed=7)
    evaluation = " ".join(text.split("Below,")[0].split())
    assert "selection with guaranteed risk sets a cut on the top-label probability" in evaluation
    assert "We lead with coverage at the frozen cut on the other half" in evaluation
    assert "coverage at a risk of 2%" not in evaluation and "optimistic" not in evaluation
    import re
    assert len(re.findall(r"\S+", evaluation.replace("**Evaluation.**", ""))) <= 220


def test_a_report_with_data_tests_the_frozen_cut_on_the_other_half() -> None:
    data = advisor.load([str(ROOT / "examples/digits/logreg.csv"), str(ROOT / "examples/digits/tree.csv")])
    ctx = build_report(DIGITS, data, bootstrap=200, seed=1)
    assert ctx.primary == "coverage_guaranteed_risk"
    split = ctx.scores.selective_split
    assert split is not None and not split["grouped"] and split["seed"] == 1
    for rep in ctx.systems:
        import csv
        with open(ROOT / f"examples/digits/{rep.name}.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        e = np.array([r["y_true"] != r["y_pred"] for r in rows], dtype=float)
        conf = np.array([max(float(r[f"p_{j}"]) for j in range(10)) for r in rows])
        calib = calibration_split(e.shape[0], seed=1)  # without groups, the images themselves are split
        assert (int(calib.sum()), int((~calib).sum())) == (split["calibration_items"], split["test_items"])
        cov, theta, bound = coverage_guaranteed_risk(e[calib], conf[calib], 0.02, 0.05)
        test = ~calib
        expected = float(np.mean(conf[test] >= theta)) if np.isfinite(theta) else 0.0
        assert rep.values["coverage_guaranteed_risk"] == pytest.approx(expected)
        assert ctx.scores.frozen_cut[rep.name]["calibration"]["coverage"] == pytest.approx(cov)
    md = render_report(ctx, "md")
    assert "coverage on the test half" in md and "(seed 1)" in md
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "On a random half of the images, seed 1, selection with guaranteed risk sets a cut" in text
    assert "has no interval, being itself a bound" not in text
