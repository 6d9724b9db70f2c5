"""The two figures across subgroups that a field reports as its own: the adverse impact ratio against the
four-fifths line (29 CFR 1607.4(D); credit scoring) and the final bias score of the Jigsaw Unintended Bias
competition (0.25 × overall AUC + 0.25 × the power mean, p = −5, of each bias AUC over the identity subgroups).

Oracles: fairlearn's ``selection_rate`` / ``demographic_parity_ratio`` (an independent implementation) for the
rates and the ratio of the favourable decision; for the bias score a numpy implementation written out here
(scikit-learn's ``roc_auc_score`` on the items each AUC ranks, the power mean spelled out) and a hand example.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import advisor
from advisor import InputError
from advisor.engine import JointCounts, adverse_impact, favourable_class, identity_values, jigsaw_bias_score, line_verdict, \
    power_mean
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, render_report
from advisor.stats._fairness import AIR_METHOD, AIR_METHODS, adverse_impact_table

pd = pytest.importorskip("pandas")
sk = pytest.importorskip("sklearn.metrics")
fl = pytest.importorskip("fairlearn.metrics")

LOAN = "tests/situations/loan.yaml"
TOXIC = "tests/situations/toxic.yaml"


def _loans(seed: int = 0, n: int = 900):
    rng = np.random.default_rng(seed)
    sex = rng.choice(["female", "male"], n, p=[0.45, 0.55])
    eth = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    risk = np.clip(rng.beta(2, 5, n) + np.where(eth == "c", 0.12, 0.0) + np.where(sex == "female", 0.05, 0.0), 0, 1)
    y = rng.random(n) < risk
    pred = risk > 0.35
    return pd.DataFrame({"y_true": np.where(y, "default", "repaid"), "y_pred": np.where(pred, "default", "repaid"),
                         "p_default": risk, "p_repaid": 1 - risk, "sex": sex, "ethnicity": eth})


# ------------------------------------------------------------------------------------------------------------------
# the adverse impact ratio
# ------------------------------------------------------------------------------------------------------------------
def test_the_favourable_decision_follows_the_class_of_interest():
    assert favourable_class(["repaid", "default"], "default") == "repaid"  # a harm flagged: the other class
    assert favourable_class(["legit", "fraud"], "fraud") == "legit"
    assert favourable_class(["non-toxic", "toxic"], "toxic") == "non-toxic"  # a toxic comment is hidden
    assert favourable_class(["rejected", "hired"], "hired") == "hired"  # a favour: its own prediction
    assert favourable_class(["denied", "loan_approved"], "loan_approved") == "loan_approved"
    with pytest.raises(advisor.InputError):
        favourable_class(["a", "b", "c"], "a")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rates_and_ratio_match_fairlearn(seed):
    df = _loans(seed)
    approved = (df["y_pred"] == "repaid").to_numpy()
    for col in ("sex", "ethnicity"):
        got = adverse_impact(approved, df[col].to_numpy())
        mf = fl.MetricFrame(metrics=fl.selection_rate, y_true=approved.astype(int), y_pred=approved.astype(int),
                            sensitive_features=df[col])
        for value, rate in mf.by_group.items():
            assert got["rates"][str(value)] == pytest.approx(rate, abs=1e-12)
        want = fl.demographic_parity_ratio(approved.astype(int), approved.astype(int), sensitive_features=df[col])
        assert got["min_ratio"] == pytest.approx(want, abs=1e-12)
        assert got["ratios"][got["argmax"]] == 1.0


def test_a_hand_example_and_the_undefined_case():
    # 4 of 5 women and 2 of 5 men approved: ratio 0.4 / 0.8 = 0.5 for the men
    r = adverse_impact([1, 1, 1, 1, 0, 1, 1, 0, 0, 0], ["w"] * 5 + ["m"] * 5)
    assert r["rates"] == {"w": 0.8, "m": 0.4} and r["min_ratio"] == pytest.approx(0.5) and r["argmin"] == "m"
    # weights are masses: the same as repeating the items
    w = adverse_impact([1, 0, 1, 0], ["w", "w", "m", "m"], weights=[4, 1, 2, 3])
    assert w["rates"] == {"w": 0.8, "m": 0.4}
    none = adverse_impact([0, 0, 0], ["a", "b", "b"])
    assert none["min_ratio"] is None and none["ratios"] == {"a": None, "b": None}


def test_subgroups_give_the_ratio_with_intervals_for_every_system(tmp_path):
    df = _loans(3)
    df["y_pred2"] = np.where(df["p_default"] > 0.25, "default", "repaid")
    cols = ["y_true", "sex", "ethnicity"]
    df[[*cols, "y_pred"]].to_csv(tmp_path / "a.csv", index=False)
    df[cols].assign(y_pred=df["y_pred2"]).to_csv(tmp_path / "b.csv", index=False)
    ds = advisor.load([tmp_path / "a.csv", tmp_path / "b.csv"], names=["y_pred", "y_pred2"], by=["sex", "ethnicity"])
    res = advisor.subgroups(ds, positive_label="default", favourable="repaid", n_resamples=400, seed=4)
    for col in ("sex", "ethnicity"):
        for system in ("y_pred", "y_pred2"):
            approved = (df[system] == "repaid").astype(int)
            want = fl.demographic_parity_ratio(approved, approved, sensitive_features=df[col])
            e = res["adverse_impact"][col][system]
            assert e["min_ratio"]["estimate"] == pytest.approx(want, abs=1e-12)
            assert e["min_ratio"]["low"] <= e["min_ratio"]["estimate"] <= e["min_ratio"]["high"] <= 1.0
            assert e["below_line"] == (want < 0.8)
            for v, x in e["values"].items():
                assert x["rate"] == pytest.approx(approved[df[col] == v].mean(), abs=1e-12)
                assert x["rate_interval"]["low"] <= x["rate"] <= x["rate_interval"]["high"]
    same = advisor.subgroups(ds, positive_label="default", favourable="repaid", n_resamples=400, seed=4)
    assert same["adverse_impact"] == res["adverse_impact"]  # the seed fixes the resamples


def test_each_ratio_is_read_against_the_line_by_its_interval():
    # the fair-lending reader: the four-fifths rule of thumb the text cites is the test, read by the interval
    assert line_verdict(0.83, 0.99) == "meets"  # the whole interval at or above 0.8
    assert line_verdict(0.80, 0.95) == "meets"  # a lower bound on the line meets it (at least 0.8)
    assert line_verdict(0.52, 0.71) == "below"  # the whole interval under 0.8
    assert line_verdict(0.61, 0.80) == "undecided"  # an upper bound on the line is not under it
    assert line_verdict(0.74, 0.91) == "undecided"  # across the line
    assert line_verdict(0.5, 0.7, line=0.5) == "meets"  # another line, the same rule
    assert line_verdict(None, 0.9) is None and line_verdict(0.9, 0.8) is None and line_verdict(float("nan"), 1) is None


def test_the_ratios_carry_their_verdicts_and_intervals_that_contain_them():
    df = _loans(7)
    res = advisor.subgroups(advisor.load(df, by=["sex", "ethnicity"]), positive_label="default", favourable="repaid",
                            n_resamples=400, seed=2)
    seen = set()
    for col in ("sex", "ethnicity"):
        e = res["adverse_impact"][col]["y_pred"]
        for x in e["values"].values():
            iv = x["ratio_interval"]
            assert iv["low"] <= x["ratio"] <= iv["high"]  # each interval contains its estimate
            want = "meets" if iv["low"] >= 0.8 else "below" if iv["high"] < 0.8 else "undecided"
            assert x["verdict"] == want
            seen.add(want)
        m = e["min_ratio"]
        assert m["verdict"] == line_verdict(m["low"], m["high"])
    assert {"meets", "below"} <= seen  # this population has ratios on both sides of the line
    # without resamples there is no interval, so no verdict (the estimate alone decides nothing)
    bare = advisor.subgroups(advisor.load(df, by="sex"), positive_label="default", favourable="repaid")
    assert "verdict" not in bare["adverse_impact"]["sex"]["y_pred"]["values"]["female"]


def test_the_approval_rate_and_the_bad_rate_among_the_approved_match_independent_oracles():
    # the credit risk reader: a fixed cut-off is read by its approval rate and the bad (default) rate among the
    # approved, overall and by group; "repaid" is favourable, so the bad rate is 1 − NPV of "default"
    df = _loans(7)
    res = advisor.subgroups(advisor.load(df, by=["sex", "ethnicity"]), positive_label="default", favourable="repaid",
                            n_resamples=300, seed=2)
    approved = (df["y_pred"] == "repaid").to_numpy()
    tn, fp, fn, tp = sk.confusion_matrix(df["y_true"], df["y_pred"], labels=["repaid", "default"]).ravel()
    for col in ("sex", "ethnicity"):
        e = res["adverse_impact"][col]["y_pred"]
        o = e["overall"]
        assert o["n"] == len(df)
        assert o["rate"] == pytest.approx(fl.selection_rate(approved.astype(int), approved.astype(int)), abs=1e-12)
        assert o["bad_rate"] == pytest.approx(1 - sk.precision_score(df["y_true"], df["y_pred"], pos_label="repaid"),
                                              abs=1e-12)
        assert o["bad_rate"] == pytest.approx(1 - tn / (tn + fn), abs=1e-12)  # 1 − NPV of "default", by hand
        for iv, x in ((o["rate_interval"], o["rate"]), (o["bad_rate_interval"], o["bad_rate"])):
            assert iv["low"] <= x <= iv["high"]
        for v, x in e["values"].items():
            part = df[df[col] == v]
            assert x["bad_rate"] == pytest.approx(
                1 - sk.precision_score(part["y_true"], part["y_pred"], pos_label="repaid"), abs=1e-12)
            assert x["bad_rate_interval"]["low"] <= x["bad_rate"] <= x["bad_rate_interval"]["high"]
    # a hand count: 3 of 4 women approved, one of them a default; 1 of 2 men approved, repaid
    hand = pd.DataFrame({"y_true": ["repaid", "default", "repaid", "default", "repaid", "default"],
                         "y_pred": ["repaid", "repaid", "repaid", "default", "repaid", "default"],
                         "sex": ["w", "w", "w", "w", "m", "m"]})
    r = advisor.subgroups(advisor.load(hand, by="sex"), positive_label="default", favourable="repaid")
    e = r["adverse_impact"]["sex"]["y_pred"]
    assert e["values"]["w"]["rate"] == 0.75 and e["values"]["w"]["bad_rate"] == pytest.approx(1 / 3)
    assert e["values"]["m"]["rate"] == 0.5 and e["values"]["m"]["bad_rate"] == 0.0
    assert e["overall"] == {"n": 6.0, "rate": pytest.approx(4 / 6), "bad_rate": pytest.approx(1 / 4)}


def _equal_rates(seed: int, n: int = 200):
    """A table of applicants in three groups approved at the same rate (0.7): the smallest ratio's estimate lies near
    1 and most resampled minima below it (benchmarks/bench_adverse_impact.py)."""
    rng = np.random.default_rng(seed)
    v = rng.choice(3, n, p=[0.5, 0.3, 0.2])
    key = np.stack([(rng.random(n) < 0.2).astype(int), (rng.random(n) >= 0.7).astype(int), v], axis=1)
    rows, counts = np.unique(key, axis=0, return_counts=True)
    return JointCounts(("repaid", "default"), ("m",), rows[:, :2], counts.astype(float)), rows[:, 2]


@pytest.mark.parametrize("method", AIR_METHODS)
def test_every_interval_contains_its_estimate_or_says_why_it_has_none(method):
    # the percentile interval of the smallest ratio can lie wholly below its estimate when the rates are nearly equal
    # (every resampled minimum of noisy ratios falls under it): it is then left out with its reason, as BCa's is
    left_out = 0
    for seed in range(40):
        joint, vals = _equal_rates(seed)
        r = adverse_impact_table(joint, vals, ["a", "b", "c"], 0, n_resamples=400, seed=seed, method=method)["m"]
        figs = [(e[f], e[f"{f}_interval"]) for e in r["values"].values() for f in ("rate", "ratio", "bad_rate")]
        figs += [(r["overall"][f], r["overall"][f"{f}_interval"]) for f in ("rate", "bad_rate")]
        figs.append((r["min_ratio"]["estimate"], r["min_ratio"]))
        for est, iv in figs:
            if iv["low"] is None:
                assert iv["interval_reason"] and iv.get("verdict") is None
                left_out += 1
            else:
                assert iv["low"] <= est <= iv["high"] and iv["method"] == method
    assert left_out > 0  # the case this test is about occurs in these tables


def test_the_ratio_interval_method_is_percentile_unless_bca_is_asked_for():
    assert AIR_METHOD == "percentile"
    joint, vals = _equal_rates(1, n=600)
    pct = adverse_impact_table(joint, vals, ["a", "b", "c"], 0, n_resamples=300, seed=3)["m"]
    bca = adverse_impact_table(joint, vals, ["a", "b", "c"], 0, n_resamples=300, seed=3, method="bca")["m"]
    assert pct["values"]["b"]["rate_interval"]["method"] == "percentile"
    assert bca["values"]["b"]["rate_interval"]["method"] == "bca"
    assert pct["values"]["b"]["rate_interval"]["low"] != bca["values"]["b"]["rate_interval"]["low"]
    with pytest.raises(InputError, match="interval method"):
        adverse_impact_table(joint, vals, ["a", "b", "c"], 0, n_resamples=10, method="basic")


def test_the_interval_resamples_groups_when_items_come_in_groups():
    df = _loans(5, n=600)
    df["household"] = np.repeat(np.arange(200), 3)
    ds = advisor.load(df, by="sex", group="household")
    res = advisor.subgroups(ds, positive_label="default", favourable="repaid", n_resamples=300, seed=1)
    items = advisor.subgroups(advisor.load(df, by="sex"), positive_label="default", favourable="repaid",
                              n_resamples=300, seed=1)
    g, i = res["adverse_impact"]["sex"]["y_pred"]["min_ratio"], items["adverse_impact"]["sex"]["y_pred"]["min_ratio"]
    assert g["estimate"] == i["estimate"] and (g["low"], g["high"]) != (i["low"], i["high"])


def test_a_favourable_class_outside_the_classes_is_one_sentence():
    with pytest.raises(advisor.InputError, match="favourable class"):
        advisor.subgroups(advisor.load(_loans(0), by="sex"), positive_label="default", favourable="approved")


# ------------------------------------------------------------------------------------------------------------------
# the Jigsaw bias score
# ------------------------------------------------------------------------------------------------------------------
def _numpy_power_mean(x, p):
    x = np.asarray(x, dtype=float)
    return (np.sum(x ** p) / len(x)) ** (1.0 / p)


def _numpy_score(y, s, identities):
    """Written out from the competition's evaluation page: 0.25 AUC + Σ_a 0.25 M_p(m_{s,a}), p = −5."""
    overall = sk.roc_auc_score(y, s)
    per = {"sub": [], "bpsn": [], "bnsp": []}
    for g in identities:
        per["sub"].append(sk.roc_auc_score(y[g], s[g]))
        m = (g & (y == 0)) | (~g & (y == 1))
        per["bpsn"].append(sk.roc_auc_score(y[m], s[m]))
        m = (g & (y == 1)) | (~g & (y == 0))
        per["bnsp"].append(sk.roc_auc_score(y[m], s[m]))
    return 0.25 * overall + sum(0.25 * _numpy_power_mean(v, -5) for v in per.values())


def test_power_mean_written_out():
    rng = np.random.default_rng(0)
    for _ in range(20):
        x = rng.uniform(0.3, 1.0, rng.integers(1, 9))
        assert power_mean(x, -5) == pytest.approx(_numpy_power_mean(x, -5), rel=1e-12)
    assert power_mean([0.7], -5) == pytest.approx(0.7)  # one identity: its own value
    assert power_mean([0.0, 0.9], -5) == 0.0  # the limit at 0
    assert min([0.6, 0.9]) < power_mean([0.6, 0.9], -5) < np.mean([0.6, 0.9])  # near the worst value


def test_the_score_by_hand():
    # overall AUC 7/9; identity "yes" = items 0-2: subgroup AUC 1/2, BPSN 0, BNSP 1 → 0.25 (7/9 + 1/2 + 0 + 1)
    y = np.array([1, 0, 1, 0, 1, 0], dtype=bool)
    s = np.array([0.9, 0.8, 0.7, 0.2, 0.6, 0.1])
    assert jigsaw_bias_score(7 / 9, {"subgroup_auc": [0.5], "bpsn_auc": [0.0], "bnsp_auc": [1.0]}) == \
        pytest.approx(0.25 * (7 / 9 + 0.5 + 0.0 + 1.0))
    df = pd.DataFrame({"y_true": np.where(y, "toxic", "ok"), "y_pred": np.where(s > 0.5, "toxic", "ok"), "score": s,
                       "mention": ["yes"] * 3 + ["no"] * 3})
    res = advisor.subgroups(advisor.load(df, by="mention"), positive_label="toxic", score=True)
    assert res["bias_score"]["y_pred"]["estimate"] == pytest.approx(0.25 * (7 / 9 + 1.5), abs=1e-12)
    assert res["bias_score"]["y_pred"]["identities"] == [["mention", "yes"]]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_score_matches_a_numpy_implementation(seed):
    rng = np.random.default_rng(seed)
    n = 1500
    ident = rng.choice(["christian", "muslim", "jewish", "none"], n, p=[0.15, 0.15, 0.1, 0.6])
    mention = rng.choice(["yes", "no"], n, p=[0.3, 0.7])
    y = rng.random(n) < 0.3
    s = np.round(y * 0.3 + rng.random(n) * 0.7 + np.where(ident == "muslim", 0.15, 0.0), 2)  # ties included
    df = pd.DataFrame({"y_true": np.where(y, "toxic", "ok"), "y_pred": np.where(s > 0.6, "toxic", "ok"), "score": s,
                       "identity": ident, "mentioned": mention})
    res = advisor.subgroups(advisor.load(df, by=["identity", "mentioned"]), positive_label="toxic", score=True,
                            n_resamples=300, seed=2)
    e = res["bias_score"]["y_pred"]
    assert e["identities"] == [["identity", "christian"], ["identity", "jewish"], ["identity", "muslim"],
                               ["mentioned", "yes"]]
    groups = [ident == "christian", ident == "jewish", ident == "muslim", mention == "yes"]
    assert e["estimate"] == pytest.approx(_numpy_score(y.astype(int), s, groups), abs=1e-12)
    assert e["low"] < e["estimate"] < e["high"] and e["method"] == "bca"  # BCa like every resampled figure


def test_identity_values():
    assert identity_values(["no", "yes"]) == ["yes"]
    assert identity_values(["False", "True"]) == ["True"]
    assert identity_values(["0", "1"]) == ["1"]
    assert identity_values(["gay", "muslim", "none"]) == ["gay", "muslim"]
    assert identity_values(["female", "male"]) == ["female", "male"]


# ------------------------------------------------------------------------------------------------------------------
# plan, methods, report
# ------------------------------------------------------------------------------------------------------------------
def test_the_plan_carries_each_figure_where_its_field_and_answers_call_for_it():
    loan = make_plan(LOAN)
    air = loan.diagnostic("adverse_impact")
    assert air is not None and air.params["favourable"] == "repaid" and air.params["line"] == 0.8
    assert "eeoc1978uniform" in air.params["sources"] and loan.diagnostic("bias_score") is None
    toxic = make_plan(TOXIC)
    assert toxic.diagnostic("adverse_impact") is None  # threshold open
    # one flag column is one identity: no power mean over identities to promise; several identity columns are
    assert toxic.diagnostic("bias_score") is None
    several = make_plan(load_answers(TOXIC).model_copy(update={"subgroups": ["gay", "muslim"]}))
    assert several.diagnostic("bias_score") is not None
    hire = make_plan({"task": "binary", "classes": ["rejected", "hired"], "positive_class": "hired",
                      "outputs": "labels", "subgroups": ["sex"]})
    assert hire.diagnostic("adverse_impact").params["favourable"] == "hired"
    spam = make_plan({"task": "binary", "classes": ["ham", "spam"], "positive_class": "spam", "outputs": "labels",
                      "subgroups": ["language"]})
    assert spam.diagnostic("adverse_impact") is None  # nothing says the decisions favour or harm the items


def _evaluation(ctx) -> str:
    return "".join(sp.text for par in ctx.methods for sp in par.spans if sp.kind != "cite")


def test_the_loan_paragraph_gives_the_approval_rate_ratio_with_its_sources():
    ctx = build_report(load_answers(LOAN), None, bootstrap=2000, seed=1)
    text = _evaluation(ctx)
    # the columns named once, in the subgroup promise just before (two sentences naming them read as a repetition)
    # the approval rate, the credit field's word, without its gloss once the paragraph must shorten (the line's origin
    # took the words: a practitioners' rule of thumb from US employment selection, the tox loan reader)
    assert ("We give every metric within each value of “sex” and “ethnicity”, and the gaps in FPR, TPR and "
            "ROC AUC. For each value we also give the approval rate and its ratio to the highest value's") in text
    assert "four-fifths rule of thumb from US employment selection" in text
    keys = {r.key for r in ctx.references}
    assert {"eeoc1978uniform", "hall2021united"} <= keys
    assert "adverse_impact_ratio" in {m.id for m in ctx.definitions}
    md = render_report(ctx, "md")
    assert "Equal Employment Opportunity Commission" in md and "1978" in md


def test_the_ratios_percentile_interval_beside_bca_says_why():
    # the s38 credit reader: "Intervals are 95% BCa … but each ratio is read against 0.8 by its percentile interval …
    # pick one and justify it"; benchmarks/bench_adverse_impact.py measured BCa's coverage of the ratios below the
    # percentile interval's (0.78–0.91 near a true ratio of 0.95): the reason is said, in the paragraph when it has
    # room, else with the formulas (the loan's paragraph is full)
    ctx = build_report(load_answers(LOAN), None, bootstrap=2000, seed=1)
    why = "The ratios take percentile intervals: they are bounded at 1, near which BCa's intervals cover poorly."
    text = {p.heading: "".join(sp.text for sp in p.spans if sp.kind != "cite") for p in ctx.methods}
    assert "Intervals are 95% BCa intervals" in text["Evaluation"]
    assert "Each ratio is read against 0.8 by its percentile interval" in text["Evaluation"]
    assert (why in text["Evaluation"]) != (why in text["Definitions"])
    # without resamples no ratio is read by an interval, so nothing to justify
    bare = build_report(load_answers(LOAN), None, bootstrap=0, seed=1)
    assert all(why not in "".join(sp.text for sp in p.spans) for p in bare.methods)


def test_the_toxic_paragraph_gives_the_jigsaw_score_and_defines_it():
    # several identity columns: several identity subgroups, so the competition's score is promised before data
    ctx = build_report(load_answers(TOXIC).model_copy(update={"subgroups": ["gay", "muslim"]}), None, bootstrap=2000,
                       seed=1)
    text = _evaluation(ctx)
    # before data: what the power means do, and comparable with the competition's only over its identities
    assert ("We give the Jigsaw Unintended Bias competition's score, the overall ROC AUC averaged with the three AUCs' "
            "power means (p = −5) over identities, each near the lowest AUC") in text
    assert "It is comparable with the competition's only over its nine identities." in text
    # the author's planned F1 keeps its reason (_evaluation reads every methods paragraph: this one, or the next)
    assert "We do not report F1 score" in text or "We do not report F1: it scores labels at a threshold" in text
    assert "jigsaw_bias_score" in {m.id for m in ctx.definitions}
    assert "jigsaw2019unintended" in {r.key for r in ctx.references}


def test_the_reports_show_both_tables(tmp_path):
    df = _loans(7)
    path = tmp_path / "loans.csv"
    df.to_csv(path, index=False)
    ctx = build_report(load_answers(LOAN), advisor.load(path, by=["sex", "ethnicity"]), bootstrap=300, seed=2)
    tables = {t.title: t for t in ctx.tables}
    t = tables["Adverse impact ratio by ethnicity"]
    approved = (df["y_pred"] == "repaid").astype(int)
    want = fl.demographic_parity_ratio(approved, approved, sensitive_features=df["ethnicity"])
    last = next(r for r in t.rows if r[0].startswith("smallest ratio"))
    assert last[4].startswith(f"{want:.3f} [")
    assert "four-fifths" in t.caption and "Adverse impact ratio by sex" in tables
    # each ratio read against 0.8 by its interval, in the column after it, and the rule in the table's caption
    assert t.columns[5] == "against 0.8" and "lower bound of its interval is at least 0.8" in t.caption
    # the approval rate over every applicant and the defaults among the approved, each value's and overall
    assert t.columns[-1] == "default among predicted repaid" and t.columns[-2] == "against 0.8"
    everyone = next(r for r in t.rows if r[0] == "all applicants")
    assert everyone[3].startswith(f"{approved.mean():.3f} [")
    bad = 1 - sk.precision_score(df["y_true"], df["y_pred"], pos_label="repaid")
    assert everyone[6].startswith(f"{bad:.3f} [")
    words = {"meets": "meets 0.8", "below": "below 0.8", "undecided": "undecided"}
    out_air = json.loads(render_report(ctx, "json"))["adverse_impact"]["ethnicity"]["loans"]
    for row in t.rows:
        if row[0] == "all applicants":
            assert row[4] == row[5] == ""
        elif row[0].startswith("smallest ratio"):
            assert row[5] == words[out_air["min_ratio"]["verdict"]]
        else:
            assert row[5] == words[out_air["values"][row[0]]["verdict"]]
    out = json.loads(render_report(ctx, "json"))  # the numbers reach the JSON as computed
    assert out["adverse_impact"]["ethnicity"]["loans"]["min_ratio"]["estimate"] == pytest.approx(want, abs=1e-12)

    rng = np.random.default_rng(3)
    n = 800
    mention = rng.choice(["yes", "no"], n, p=[0.3, 0.7])
    y = rng.random(n) < 0.3
    p = np.clip(y * 0.3 + rng.random(n) * 0.6 + np.where(mention == "yes", 0.1, 0.0), 0, 1)
    cm = pd.DataFrame({"y_true": np.where(y, "toxic", "non-toxic"), "y_pred": np.where(p > 0.5, "toxic", "non-toxic"),
                       "p_toxic": p, "p_non-toxic": 1 - p, "identity_mentioned": mention})
    path = tmp_path / "comments.csv"
    cm.to_csv(path, index=False)
    ctx = build_report(load_answers(TOXIC), advisor.load(path, by="identity_mentioned"), bootstrap=300, seed=2)
    t = next(t for t in ctx.tables if t.id == "bias_score")
    want = _numpy_score(y.astype(int), p, [mention == "yes"])
    assert t.rows[0][1].startswith(f"{want:.3f} [") and "identity_mentioned = yes" in t.caption
    assert "identity_mentioned = yes" in render_report(ctx, "md")  # the subgroups' paragraph names the identities


def test_the_loan_paragraph_with_data_keeps_to_a_papers_length_and_moves_only_what_has_a_home(tmp_path):
    """With data the loan paragraph ran to 249 words (subgroups, approval rates, risks and the field's caveat, none
    ever cut): the last shortenings move how each ratio is read to the formulas and leave the count of items and
    systems to the header and Table 1, so it keeps to 220 words; nothing is dropped."""
    from test_methods_prose import sentences, words

    df = _loans(11)
    df.to_csv(tmp_path / "a.csv", index=False)
    df.assign(y_pred=np.where(df["p_default"] > 0.3, "default", "repaid")).to_csv(tmp_path / "b.csv", index=False)
    data = advisor.load([tmp_path / "a.csv", tmp_path / "b.csv"], by=["sex", "ethnicity"])
    ctx = build_report(load_answers(LOAN), data, seed=2024)
    evaluation = next(p for p in ctx.methods if p.heading == "Evaluation")
    text = "".join(s.text if s.kind in ("text", "strong") else "(X)" for s in evaluation.spans)
    assert len(words(text)) <= 220 and all(len(words(s)) <= 40 for s in sentences(text)[1:]), text
    assert "four-fifths" in text  # the line itself stays in the paragraph
    said = _evaluation(ctx)
    assert said.count("percentile interval lies wholly at or above") == 1  # its reading: said once, somewhere
