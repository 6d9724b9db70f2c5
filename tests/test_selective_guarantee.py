"""A target risk shown to hold, not read off a cut chosen on the test set (the legal methodologist).

"A coverage read off the test set at its own 2% cut cannot show the constraint holds": with a confidence cut fixed
in advance (``operating_point: fixed``; the documents it leaves to the clerk carry the reject label), the report sets
the error rate of its answers, with its one-sided 95% upper bound, against the limit, as the fraud situation does the
deployed threshold's false positive rate against its budget; without one, selection with guaranteed risk (SGR;
Geifman & El-Yaniv 2017, Algorithm 1) chooses the cut on the test set, and its guaranteed coverage leads. Checked
here: the bound against scipy and statsmodels, the coverage and the errors at the cut against a direct count, the
groups' bound, the plan, the paragraph with and without the cut (at most 220 words, no sentence of ours over 40) and
LexGLUE's figures said at full coverage.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from scipy.stats import beta
from statsmodels.stats.proportion import proportion_confint

import advisor
from advisor.engine import coverage_guaranteed_risk
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, methods_paragraph, render_report
from advisor.stats import calibration_split, clustered_sgr, design_effect, fpr_budget_check, korn_graubard_upper, \
    risk_limit_check
from tests.test_methods_prose import evaluation_of, sentences, words

ROOT = Path(__file__).resolve().parents[1]
LEGAL = ROOT / "tests" / "situations" / "legal.yaml"
LABELS = [f"team{i}" for i in range(6)]


def _legal(**extra: Any) -> dict[str, Any]:
    answers = yaml.safe_load(LEGAL.read_text(encoding="utf-8"))
    answers["n_classes"] = len(LABELS)
    return {**answers, **extra}


def _write(path: Path, n: int = 1500, matters: int = 150, seed: int = 3, cut: float | None = None,
           hard: float = 1.5) -> dict[str, np.ndarray]:
    """A routing test set: documents clustered in matters of alike difficulty, the top-label probability ranking
    the errors; with ``cut``, the documents below it are left to the clerk (the reject label)."""
    rng = np.random.default_rng(seed)
    matter = rng.integers(0, matters, n)
    difficulty = rng.normal(0, 1, matters)[matter]
    y = rng.integers(0, len(LABELS), n)
    logits = rng.normal(0, 1, (n, len(LABELS)))
    logits[np.arange(n), y] += 4.0 - hard * difficulty
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = np.round(p, 6)
    p[:, -1] = np.round(1.0 - p[:, :-1].sum(axis=1), 6)
    top = p.argmax(axis=1)
    conf = p.max(axis=1)
    deferred = conf < cut if cut is not None else np.zeros(n, dtype=bool)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y_true", "y_pred", *[f"p_{lab}" for lab in LABELS], "matter_id"])
        for t in range(n):
            w.writerow([LABELS[y[t]], "clerk" if deferred[t] else LABELS[top[t]],
                        *[f"{v:.6f}" for v in p[t]], f"m{matter[t]}"])
    return {"error": (top != y).astype(float), "conf": conf, "deferred": deferred, "matter": matter}


# ----------------------------------------------------------------------------------------------
# The bound
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("errors,answered", [(0, 149), (0, 150), (3, 400), (7, 300), (20, 1000), (0, 5)])
def test_the_bound_is_one_sided_clopper_pearson(errors: int, answered: int) -> None:
    c = risk_limit_check(errors, answered, 0.02)
    assert c.upper == pytest.approx(float(beta.ppf(0.95, errors + 1, answered - errors)), abs=1e-10)
    # the one-sided 95% bound is the upper end of the two-sided 90% interval
    assert c.upper == pytest.approx(proportion_confint(errors, answered, alpha=0.10, method="beta")[1], abs=1e-10)
    assert c.rate == errors / answered and c.group_upper is None
    assert c.verdict == ("within the limit" if c.upper <= 0.02 else "over the limit" if c.rate > 0.02
                         else "not shown to be within the limit")


def test_without_errors_the_limit_needs_149_answers() -> None:
    from advisor.report._risk_limit import fewest_answers

    assert fewest_answers(0.02) == 149
    assert risk_limit_check(0, 149, 0.02).verdict == "within the limit"
    assert risk_limit_check(0, 148, 0.02).verdict == "not shown to be within the limit"


def test_with_groups_the_bound_is_korn_and_graubards_and_equals_the_budgets() -> None:
    rng = np.random.default_rng(0)
    answered = rng.integers(1, 20, 80).astype(float)
    errors = np.minimum(answered, rng.poisson(0.3, 80) * (rng.random(80) < 0.2)).astype(float)
    c = risk_limit_check(errors, answered, 0.02, n_resamples=500, seed=4)
    b = fpr_budget_check(errors, answered, 0.02, n_resamples=500, seed=4)
    assert c.exact_upper == pytest.approx(float(beta.ppf(0.95, errors.sum() + 1, answered.sum() - errors.sum())))
    # Clopper–Pearson at the effective sample size over the groups (tests/test_budgets.py checks it against scipy
    # and statsmodels), never below the binomial bound
    assert c.upper == c.group_upper == korn_graubard_upper(errors, answered).upper >= c.exact_upper
    assert (c.upper, c.group_upper, c.rate) == (b.upper, b.group_upper, b.rate)  # one bound for both constraints


# ----------------------------------------------------------------------------------------------
# The plan
# ----------------------------------------------------------------------------------------------
def test_the_plan_without_a_fixed_cut_leads_with_the_frozen_cut() -> None:
    plan = make_plan(load_answers(LEGAL))
    assert plan.lead.id == "coverage_guaranteed_risk" and plan.lead.params["target_risk"] == 0.02
    assert "random half" in plan.lead.reason and "frozen" in plan.lead.reason
    beside = {m.id: m for m in plan.beside}
    # the methodologist: "keep the frozen-threshold pair (coverage, risk) plus AURC" — no coverage read off the test set
    assert "aurc" in beside and "coverage_at_risk" not in beside
    assert "risk_limit_check" not in [d.id for d in plan.diagnostics]


def test_the_plan_with_a_fixed_cut_sets_it_against_the_limit() -> None:
    plan = make_plan(_legal(operating_point="fixed"))
    assert plan.lead.id == "coverage_at_risk" and "fixed in advance" in plan.lead.reason
    check = plan.diagnostic("risk_limit_check")
    assert check is not None and check.params == {"target_risk": 0.02, "confidence": 0.95, "sided": "upper"}
    assert "coverage_guaranteed_risk" not in {m.id for m in plan.beside}  # the cut is given: nothing to choose


# ----------------------------------------------------------------------------------------------
# The paragraph, before data
# ----------------------------------------------------------------------------------------------
def _ours(md: str, answers: dict[str, Any]) -> tuple[str, list[str]]:
    """The Evaluation paragraph, and its sentences after the author's own context (quoted as given)."""
    text = evaluation_of(md)
    ours = " ".join(text.replace("Evaluation.", "", 1).split()).replace(" ".join(answers["context"].split()), "")
    return text, sentences(ours.strip())


def _paragraph(answers: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(answers), encoding="utf-8")
    return methods_paragraph(str(path), "md", seed=2024)


@pytest.mark.parametrize("fixed", [False, True], ids=["sgr", "fixed_cut"])
def test_the_paragraph_reads_like_a_paper(fixed: bool, tmp_path: Path) -> None:
    answers = yaml.safe_load(LEGAL.read_text(encoding="utf-8")) | ({"operating_point": "fixed"} if fixed else {})
    md = _paragraph(answers, tmp_path)
    text, ours = _ours(md, answers)
    assert 60 <= len(words(text)) <= 220, len(words(text))
    assert all(len(words(s)) <= 40 for s in ours), [s for s in ours if len(words(s)) > 40]
    # LexGLUE scores every document: its figures are said at full coverage (the third point of the review)
    assert "As is customary in legal text classification, we also report accuracy and macro F1 at full coverage " \
           "(Chalkidis et al. 2022)" in text
    if fixed:
        assert "We lead with the confidence cut fixed in advance: the share of the documents the system routes at " \
               "it, and the share of those routed that are wrong" in text
        assert "We set that error rate, with its one-sided 95% upper bound, against the limit of 2%." in text
        assert "coverage at a risk of 2%" in text  # beside it, with where its cut was found
        assert "found on this test set and is optimistic for a threshold fixed in advance" in text
        assert "guaranteed" not in text
    else:
        # the cut fixed on one half of the matters and tested on the other (the methodologist's second point)
        assert "On a random half of the matters, seed 2024, selection with guaranteed risk sets a cut on the " \
               "top-label probability (Geifman & El-Yaniv 2017)." in text
        # the bound at the matters' effective sample size (point one): in the Definitions, where SGR is defined; the
        # paragraph says the guarantee as it holds (point three) and no longer restates SGR's construction (s33)
        assert "taken at the effective sample size" in md and "as the design effect is estimated" in text
        assert "is within 2%" not in text
        # over new matters drawn like these, not new documents (the s32 reader: the guarantee with clustered data)
        assert "With probability at least 95% over the draw of these matters, the error rate at the frozen cut on " \
               "documents of new matters like these is at most 2%, approximately, as the design effect is " \
               "estimated." in text
        assert "We lead with coverage at the frozen cut on the other half, the share of its documents routed, with " \
               "the share of those routed that are wrong and its one-sided 95% upper bound, adjusted for clustering, against the 2% limit." in text
        assert re.search(r"Beside these we report [^.]*area under the risk-coverage curve", text)  # with log loss, Brier
        # one reading of the curve at the target, not three (point four): no coverage read off the test set
        assert "coverage at a risk of 2%" not in text and "optimistic" not in text
        assert "guaranteed risk of" not in text and "fixed in advance:" not in text
        assert "percentile" not in text  # no check that restores no guarantee


def test_without_a_group_the_items_are_split(tmp_path: Path) -> None:
    answers = {k: v for k, v in yaml.safe_load(LEGAL.read_text(encoding="utf-8")).items() if k != "group"}
    text = evaluation_of(_paragraph(answers, tmp_path))
    assert "On a random half of the documents, seed 2024, selection with guaranteed risk sets a cut" in text
    assert "With probability at least 95% over the draw of these documents, the error rate of new documents from " \
           "the same distribution routed at the frozen cut is at most 2%." in text
    assert "matter" not in text and "effective sample size" not in text and "approximately" not in text


# ----------------------------------------------------------------------------------------------
# With data
# ----------------------------------------------------------------------------------------------
def test_a_fixed_cut_with_data_gives_its_coverage_and_bound(tmp_path: Path) -> None:
    path = tmp_path / "router.csv"
    truth = _write(path, cut=0.97, hard=2.0)
    data = advisor.load([str(path)], group="matter_id", reject_label="clerk")
    ctx = build_report(_legal(operating_point="fixed", reject_label="clerk"), data, bootstrap=300, seed=5)
    answered = ~truth["deferred"]
    errors = float(truth["error"][answered].sum())
    m, n = float(answered.sum()), float(answered.shape[0])
    rec = ctx.risk_limit["systems"]["router"]
    assert rec["answered"] == m and rec["items"] == n and rec["coverage"] == pytest.approx(m / n)
    assert rec["errors"] == errors and rec["rate"] == pytest.approx(errors / m)
    assert rec["exact_upper"] == pytest.approx(float(beta.ppf(0.95, errors + 1, m - errors)), abs=1e-10)
    # with the matters, the bound is Korn & Graubard's at the effective sample size, as the fraud budget's: never
    # below the binomial bound (a design effect of at least 1)
    per = {g: (truth["error"][answered & (truth["matter"] == g)].sum(), (answered & (truth["matter"] == g)).sum())
           for g in np.unique(truth["matter"])}
    again = risk_limit_check([e for e, _ in per.values()], [a for _, a in per.values()], 0.02, n_resamples=300,
                             seed=5)
    assert rec["group_upper"] is not None and rec["upper"] == max(rec["exact_upper"], rec["group_upper"])
    assert rec["group_upper"] == pytest.approx(again.group_upper)
    table = next(t for t in ctx.tables if t.id == "risk_limit_check")
    assert table.rows[0][1] == f"{m:,.0f} / {n:,.0f}" and table.rows[0][-1] == rec["verdict"]
    assert "Korn and Graubard's effective sample size" in table.caption
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "We lead with the confidence cut fixed in advance" in text
    formulas = render_report(ctx, "md")
    assert "Error rate of the answers at the cut fixed in advance" in formulas
    assert "the variance of the share estimated over the matters" in formulas  # the bound allows for the matters
    assert "the documents of one matter are not independent" in formulas


def split_by_whole_groups(ctx: Any, groups: np.ndarray, seed: int) -> np.ndarray:
    """The report's calibration split, recomputed: whole groups, half of them, from the report's seed, as the report
    records it (shared with the coverage target's frozen cut, tests/test_selective_frozen_coverage.py)."""
    calib = calibration_split(groups.shape[0], groups, seed=seed)
    assert not set(groups[calib]) & set(groups[~calib])
    assert len(set(groups[calib])) == len(set(groups)) // 2
    assert ctx.scores.selective_split == {
        "seed": seed, "grouped": True, "calibration_items": int(calib.sum()), "test_items": int((~calib).sum()),
        "calibration_units": len(set(groups[calib])), "test_units": len(set(groups[~calib]))}
    return calib


def test_without_a_cut_the_frozen_cut_leads_on_the_test_matters(tmp_path: Path) -> None:
    """The cut is fixed on the calibration matters only and tested on the others, every figure recomputed here."""
    path = tmp_path / "router.csv"
    truth = _write(path)
    data = advisor.load([str(path)], group="matter_id")
    ctx = build_report(_legal(), data, bootstrap=300, seed=5)
    assert ctx.primary == "coverage_guaranteed_risk"
    groups = np.array([f"m{g}" for g in truth["matter"]])
    calib = split_by_whole_groups(ctx, groups, seed=5)  # whole matters, half of them, from the report's seed
    split = ctx.scores.selective_split
    # the cut: SGR on the calibration matters only, its bound at their effective sample size
    e, c = truth["error"], truth["conf"]
    fit = clustered_sgr(e[calib], c[calib], 0.02, 0.05, groups=groups[calib])
    frozen = ctx.scores.frozen_cut["router"]
    assert frozen["calibration"]["threshold"] == fit.threshold is not None
    assert frozen["calibration"]["bound"] <= 0.02
    # the test matters at the frozen cut, counted directly
    test = ~calib
    at = test & (c >= fit.threshold)
    m, errors = float(at.sum()), float(e[at].sum())
    t = frozen["test"]
    assert (t["items"], t["answered"], t["errors"]) == (int(test.sum()), m, errors)
    assert t["coverage"]["estimate"] == pytest.approx(m / test.sum())
    assert t["risk"]["estimate"] == pytest.approx(errors / m)
    for fig in ("coverage", "risk"):  # BCa over resamples of the test matters, around the estimate
        assert t[fig]["method"] == "bca" and t[fig]["low"] <= t[fig]["estimate"] <= t[fig]["high"]
    rep = ctx.systems[0]
    assert rep.values["coverage_guaranteed_risk"] == pytest.approx(m / test.sum())
    iv = rep.intervals["coverage_guaranteed_risk"]
    assert iv.method == "bca" and (iv.low, iv.high) == (t["coverage"]["low"], t["coverage"]["high"])
    # the error rate's one-sided bound: the risk limit's, over the test matters
    per = [(e[at & (groups == g)].sum(), at[groups == g].sum()) for g in np.unique(groups[test])]
    again = risk_limit_check([x for x, _ in per], [a for _, a in per], 0.02, n_resamples=300, seed=5)
    assert t["upper"] == pytest.approx(again.upper) and t["verdict"] == again.verdict
    table = next(x for x in ctx.tables if x.id == "selective_prediction")
    assert "coverage on the test half" in table.columns and "coverage at risk ≤ 0.02" not in table.columns
    row = table.rows[0]
    assert row[-1] == again.verdict
    assert f"a calibration half of {split['calibration_units']:,} ({split['calibration_items']:,} items)" in \
        table.caption and "(seed 5)" in table.caption
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "On a random half of the matters, seed 5, selection with guaranteed risk sets a cut" in text
    assert "has no interval, being itself a bound" not in text
    formulas = render_report(ctx, "md")
    assert "Error rate of the answers at the frozen cut" in formulas


# ----------------------------------------------------------------------------------------------
# The split, the design effect, the clustered bound
# ----------------------------------------------------------------------------------------------
def test_the_split_is_of_whole_groups_and_seeded() -> None:
    groups = np.repeat([f"g{i}" for i in range(41)], 3)
    a, b = calibration_split(groups.shape[0], groups, seed=11), calibration_split(groups.shape[0], groups, seed=11)
    assert (a == b).all() and len(set(groups[a])) == 20 and not set(groups[a]) & set(groups[~a])
    assert not (a == calibration_split(groups.shape[0], groups, seed=12)).all()
    assert int(calibration_split(10, seed=0).sum()) == 5  # without groups, the items themselves
    with pytest.raises(advisor.InputError, match="at least 4"):
        calibration_split(6, ["a", "a", "a", "b", "b", "c"])


def test_the_design_effect_is_the_cluster_robust_variance_over_the_binomial() -> None:
    """statsmodels as the oracle: the cluster-robust variance of the mean of the error flags (a regression on a
    constant, clustered by group, with its G/(G − 1) correction) over p̂(1 − p̂)/m."""
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(1)
    groups = rng.integers(0, 60, 900)
    e = (rng.random(900) < 0.02 + 0.2 * (rng.normal(0, 1, 60)[groups] > 1.2)).astype(float)
    fit = sm.OLS(e, np.ones(900)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    p = e.mean()
    assert design_effect(e, groups) == pytest.approx(max(1.0, float(fit.bse[0] ** 2) / (p * (1 - p) / 900)),
                                                     rel=1e-9)
    assert design_effect(e, groups) > 1.5  # the errors go together
    assert design_effect(np.zeros(10), np.arange(10) % 3) == 1.0  # no error: nothing to estimate


def test_the_clustered_bound_is_clopper_pearson_at_the_effective_size() -> None:
    rng = np.random.default_rng(2)
    groups = rng.integers(0, 200, 3000)
    conf = rng.random(3000)
    u = rng.normal(0, 1, 200)[groups]  # a group's documents err together
    e = (rng.random(3000) < 1 / (1 + np.exp(3.5 - 1.5 * u + 2 * conf))).astype(float)
    plain = clustered_sgr(e, conf, 0.035)
    assert (plain.coverage, plain.threshold) == coverage_guaranteed_risk(e, conf, 0.035)[:2]
    assert plain.design_effect == 1.0
    fit = clustered_sgr(e, conf, 0.035, groups=groups)
    assert fit.threshold is not None and fit.design_effect > 1.0
    at = conf >= fit.threshold
    k, m, d = e[at].sum(), at.sum(), design_effect(e[at], groups[at])
    tries = math.ceil(math.log2(3000))
    assert fit.bound == pytest.approx(float(beta.ppf(1 - 0.05 / tries, k / d + 1, (m - k) / d)), rel=1e-8)
    assert fit.bound <= 0.035 and fit.coverage < plain.coverage  # the price of the groups' dependence


