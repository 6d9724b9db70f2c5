"""The operating constraint where it applies (issue 24): the labels in use against the false positive rate budget
(a one-sided Clopper–Pearson bound, statsmodels' oracle; a verdict), the standardized partial ROC AUC up to the
budget (scikit-learn's ``max_fpr`` oracle), and the methods in the author's words for fraud and spam — nothing of it
without a budget."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from statsmodels.stats.proportion import proportion_confint

from advisor import load_answers
from advisor.engine import partial_roc_auc
from advisor.plan import make_plan
from advisor.report import build_report
from advisor.report._budget import fewest_negatives
from advisor.stats import fpr_budget_check, one_sided_upper

SITUATIONS = Path(__file__).resolve().parent / "situations"
FRAUD = dict(task="binary", classes=["genuine", "fraud"], positive_class="fraud", outputs="scores")


def _text(ctx, heading: str | None = "Evaluation") -> str:
    return " ".join("".join(s.text for s in p.spans) for p in ctx.methods if heading is None or p.heading == heading)


def _methods(name: str) -> str:
    return _text(build_report(load_answers(SITUATIONS / f"{name}.yaml"), None, bootstrap=2000, seed=1))


def _definitions(ctx) -> dict[str, str]:
    return {d.name: "".join(s.text for s in (d.where.spans if d.where else [])) for d in ctx.definitions}


# ----------------------------------------------------------------------------------------------
# Oracles
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 7, 25, 300, 1000, 4857, 250_000])
def test_the_one_sided_bound_is_statsmodels_beta_interval_at_twice_alpha(n: int) -> None:
    for x in sorted({0, 1, 2, 3, n // 100, n // 10, n // 2, n - 1, n}):
        if 0 <= x <= n:
            oracle = proportion_confint(x, n, alpha=0.10, method="beta")[1]  # upper end at 90% = one-sided 95%
            assert one_sided_upper(x, n, 0.95) == pytest.approx(oracle, abs=1e-12), (x, n)
            oracle99 = proportion_confint(x, n, alpha=0.02, method="beta")[1]
            assert one_sided_upper(x, n, 0.99) == pytest.approx(oracle99, abs=1e-12), (x, n)


def test_the_rule_of_three_and_the_closed_form_at_zero() -> None:
    # no false positive among n negatives: the bound solves (1 − u)^n = α, u = 1 − α^(1/n) ≈ 3/n
    for n in (50, 300, 1000):
        assert one_sided_upper(0, n) == pytest.approx(1 - 0.05 ** (1 / n), abs=1e-14)
        assert abs(one_sided_upper(0, n) - 3 / n) < 0.1 * 3 / n


@pytest.mark.parametrize("budget", [0.001, 0.005, 0.01, 0.05, 0.2])
def test_the_fewest_negatives_is_the_first_n_whose_exact_bound_at_zero_meets_the_budget(budget: float) -> None:
    # the spam reader (issue 22): how many ham messages a 0.1% bound needs — statsmodels' exact bound as oracle
    n = fewest_negatives(budget)
    assert proportion_confint(0, n, alpha=0.10, method="beta")[1] <= budget
    assert proportion_confint(0, n - 1, alpha=0.10, method="beta")[1] > budget


@pytest.mark.parametrize("seed", range(8))
def test_the_partial_auc_is_scikit_learns_max_fpr(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 3000))
    y = (rng.random(n) < rng.uniform(0.02, 0.5)).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n) + y * rng.uniform(0, 2.5), int(rng.integers(0, 3)))  # ties at 0 decimals
    for f in (0.001, 0.01, 0.05, 0.2, 0.5, 0.999):
        assert float(partial_roc_auc(y, s, f)) == pytest.approx(roc_auc_score(y, s, max_fpr=f), abs=1e-12)
    w = rng.multinomial(n, np.full(n, 1 / n), size=3).astype(float)  # a bootstrap resample is a weighting
    got = partial_roc_auc(y, s, 0.1, w)
    for row, g in zip(w, got):
        keep = row > 0
        if y[keep].min() < y[keep].max():
            assert float(g) == pytest.approx(roc_auc_score(y[keep], s[keep], max_fpr=0.1, sample_weight=row[keep]),
                                             abs=1e-12)


def test_the_partial_auc_by_hand_and_at_its_ends() -> None:
    # ROC points (0,1/3) (0,2/3) (1/3,2/3) (2/3,2/3) (2/3,1) (1,1): A_0.5 = 1/3, ½(1 + (1/3 − 1/8)/(1/2 − 1/8)) = 7/9
    assert float(partial_roc_auc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9], 0.5)) == pytest.approx(7 / 9)
    assert float(partial_roc_auc([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9], 0.01)) == pytest.approx(1.0)
    assert float(partial_roc_auc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5], 0.01)) == pytest.approx(0.5)  # chance
    assert np.isnan(partial_roc_auc([1, 1], [0.2, 0.3], 0.01))


# ----------------------------------------------------------------------------------------------
# Verdicts
# ----------------------------------------------------------------------------------------------
def test_the_verdict_reads_the_bound_then_the_point() -> None:
    within = fpr_budget_check(3, 1000, 0.01)  # 0.3%, bound 0.77%
    assert within.verdict == "within the budget" and within.upper <= 0.01
    over = fpr_budget_check(15, 1000, 0.01)  # 1.5% > 1%
    assert over.verdict == "over the budget" and over.rate > 0.01
    unshown = fpr_budget_check(8, 1000, 0.01)  # 0.8%, but the bound is 1.44%
    assert unshown.verdict == "not shown to be within the budget" and unshown.rate <= 0.01 < unshown.upper
    edge = fpr_budget_check(0, 299, 0.01)  # 1 − 0.05^(1/299) = 0.99%: within; with 298 negatives it is not
    assert edge.verdict == "within the budget"
    assert fpr_budget_check(0, 298, 0.01).verdict == "not shown to be within the budget"


def test_groups_widen_the_bound_and_never_narrow_it() -> None:
    rng = np.random.default_rng(0)
    groups = 200
    neg = rng.integers(5, 40, groups).astype(float)
    hot = rng.random(groups) < 0.05  # a few cards whose genuine spending is declined again and again
    fp = np.where(hot, np.round(neg * 0.5), 0.0)
    exact = fpr_budget_check(fp.sum(), neg.sum(), 0.05)
    clustered = fpr_budget_check(fp, neg, 0.05, n_resamples=2000, seed=1)
    assert clustered.rate == exact.rate and clustered.exact_upper == exact.upper
    assert clustered.group_upper is not None and clustered.group_upper > exact.upper  # dependence widens it
    assert clustered.upper == max(clustered.exact_upper, clustered.group_upper)
    none = fpr_budget_check(np.zeros(groups), neg, 0.05, n_resamples=500)  # percentile 0: the exact bound stands
    assert none.group_upper == 0.0 and none.upper == none.exact_upper > 0
    # rows summed per group first: the same check from one row per transaction
    rows = np.repeat(np.arange(groups), neg.astype(int))
    fp_rows = np.concatenate([[1.0] * int(f) + [0.0] * int(n - f) for f, n in zip(fp, neg)])
    again = fpr_budget_check(fp_rows, np.ones_like(fp_rows), 0.05, groups=rows, n_resamples=2000, seed=1)
    assert again.upper == pytest.approx(clustered.upper) and again.rate == pytest.approx(clustered.rate)


# ----------------------------------------------------------------------------------------------
# The plan
# ----------------------------------------------------------------------------------------------
def test_the_plan_checks_the_labels_in_use_against_the_budget() -> None:
    plan = make_plan(load_answers(SITUATIONS / "fraud.yaml"))
    d = plan.diagnostic("fpr_budget_check")
    assert d is not None and d.params["max_fpr"] == 0.01 and "fpr_budget" in d.answers
    beside = {m.id: m for m in plan.beside}
    # true negatives of no interest: the area up to the budget replaces ROC AUC, and specificity gives way to the check
    assert "roc_auc" not in beside and beside["partial_roc_auc"].params["max_fpr"] == 0.01
    assert "specificity" not in beside
    spam = make_plan(load_answers(SITUATIONS / "spam.yaml"))
    assert spam.diagnostic("fpr_budget_check") is not None
    assert "roc_auc" in {m.id for m in spam.beside} and "partial_roc_auc" not in {m.id for m in spam.beside}


def test_no_budget_no_check_and_an_open_threshold_no_check() -> None:
    assert make_plan(FRAUD).diagnostic("fpr_budget_check") is None
    assert make_plan({**FRAUD, "fpr_budget": 0.01, "operating_point": "open"}).diagnostic("fpr_budget_check") is None
    plan = make_plan({**FRAUD, "fpr_budget": 0.01, "true_negatives_meaningful": True})
    assert "partial_roc_auc" not in {m.id for m in plan.beside}


# ----------------------------------------------------------------------------------------------
# The methods, in the author's words
# ----------------------------------------------------------------------------------------------
def test_the_fraud_methods_set_the_declined_share_against_the_banks_budget() -> None:
    ctx = build_report(load_answers(SITUATIONS / "fraud.yaml"), None, bootstrap=2000, seed=1)
    text = _text(ctx)
    assert ("We set the share of “genuine” transactions declined at the deployed threshold, with its one-sided 95% "
            "upper bound, against the budget of 1%.") in text
    assert "standardized partial ROC AUC up to an FPR of 1%" in text and "ROC AUC," not in text
    defs = _definitions(ctx)
    bound = defs["False positive rate at the deployed threshold"]
    assert "the larger of the Clopper–Pearson bound and the 95th percentile over bootstrap resamples of the cards" in bound
    assert "whose transactions are not independent" in bound
    assert "mcclish1989analyzing" in {r.key for r in ctx.references}  # the standardization's source, cited


def test_the_spam_methods_set_the_filtered_share_against_one_in_a_thousand() -> None:
    text = _methods("spam")
    assert ("We set the share of “ham” messages filtered at the deployed threshold, with its one-sided 95% upper "
            "bound, against the budget of 0.1%.") in text
    assert "sm% at a ham misclassification percentage hm% of 0.1%, whose complement we give" in text
    assert "(1−ROCA)%" in text
    # how many ham messages the bound needs, with the bound's formula (the spam reader, issue 22)
    ctx = build_report(load_answers(SITUATIONS / "spam.yaml"), None, bootstrap=0)
    assert "Even with none flagged, the bound reaches 0.1% only from 2,995 “ham” messages on" in \
        _definitions(ctx)["False positive rate at the deployed threshold"]


def test_without_a_budget_nothing_is_said_of_it() -> None:
    for name in ("loan", "sepsis", "toxic"):
        path = SITUATIONS / f"{name}.yaml"
        if not path.exists() or load_answers(path).fpr_budget is not None:
            continue
        ctx = build_report(load_answers(path), None, bootstrap=200, seed=1)
        text = _text(ctx, None)
        assert "one-sided 95% upper bound" not in text and "deployed threshold, with" not in text, name
        assert "False positive rate at the deployed threshold" not in _definitions(ctx), name
        assert "partial ROC AUC" not in text, name


# ----------------------------------------------------------------------------------------------
# The report with data: the table, the JSON, the groups
# ----------------------------------------------------------------------------------------------
def _fraud_data(n: int = 6000, seed: int = 1):
    rng = np.random.default_rng(seed)
    cards = rng.integers(0, 400, n)
    y = np.where(rng.random(n) < 0.03, "fraud", "genuine")
    s = (y == "fraud") * 2.5 + rng.normal(0, 1, n) + (cards % 40 == 0) * 2.0  # one card in 40 looks suspicious
    return y, np.round(s, 4), np.where(s > 2.7, "fraud", "genuine"), cards


def test_the_report_tables_and_json_the_check_with_the_exact_bound() -> None:
    y, s, pred, _ = _fraud_data()
    answers = {**FRAUD, "fpr_budget": 0.01, "operating_point": "fixed", "true_negatives_meaningful": False}
    ctx = build_report(answers, {"y_true": list(y), "m": list(pred)}, scores={"m": s}, bootstrap=200, seed=1)
    fp = int(((pred == "fraud") & (y == "genuine")).sum())
    neg = int((y == "genuine").sum())
    rec = ctx.fpr_budget["systems"]["m"]
    assert rec["false_positives"] == fp and rec["negatives"] == neg and rec["rate"] == pytest.approx(fp / neg)
    assert rec["upper"] == pytest.approx(proportion_confint(fp, neg, alpha=0.10, method="beta")[1], abs=1e-12)
    assert rec["group_upper"] is None and ctx.fpr_budget["method"] == "one-sided Clopper–Pearson"
    table = next(t for t in ctx.tables if t.id == "fpr_budget_check")
    assert table.rows[0][1] == f"{fp:,} / {neg:,}" and table.rows[0][-1] == rec["verdict"]
    assert ctx.systems[0].values["partial_roc_auc"] == pytest.approx(
        roc_auc_score(y == "fraud", s, max_fpr=0.01), abs=1e-12)
    iv = ctx.systems[0].intervals["partial_roc_auc"]
    assert iv.low <= iv.estimate <= iv.high
    assert "(Clopper–Pearson)" not in _text(ctx)  # the bound's method is with its formula in the Definitions
    assert "the Clopper–Pearson bound" in _definitions(ctx)["False positive rate at the deployed threshold"]


def test_with_a_group_column_the_bound_allows_for_the_cards(tmp_path: Path) -> None:
    import advisor

    y, s, pred, cards = _fraud_data()
    path = tmp_path / "gbm.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y_true", "y_pred", "score", "card_id"])
        w.writerows(zip(y, pred, s, cards))
    data = advisor.load([str(path)], group="card_id")
    ctx = build_report(load_answers(SITUATIONS / "fraud.yaml"), data, bootstrap=400, seed=3)
    rec = ctx.fpr_budget["systems"]["gbm"]
    assert rec["group_upper"] is not None and rec["upper"] == max(rec["exact_upper"], rec["group_upper"])
    assert rec["group_upper"] > rec["exact_upper"]  # one card in 40 declined again and again: wider than binomial
    assert rec["verdict"] == "not shown to be within the budget" and rec["rate"] <= 0.01 < rec["upper"]
    bound = _definitions(ctx)["False positive rate at the deployed threshold"]
    assert "resamples of the cards, whose transactions are not independent" in bound


def test_groups_named_but_not_resampled_are_said_as_not_allowed_for() -> None:
    y, s, pred, _ = _fraud_data()
    ctx = build_report(load_answers(SITUATIONS / "fraud.yaml"), {"y_true": list(y), "m": list(pred)},
                       scores={"m": s}, bootstrap=200, seed=1)
    bound = _definitions(ctx)["False positive rate at the deployed threshold"]
    assert "the Clopper–Pearson bound, which takes the transactions as independent" in bound
    assert ctx.fpr_budget["systems"]["m"]["group_upper"] is None
