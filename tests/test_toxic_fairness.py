"""Toxic-comment fairness, as a fairness methodologist reads it: the premises the paragraph may state, the harm at a
threshold, and gaps that do not mix base rates with bias.

1. The Jigsaw competition's score is a power mean over identity subgroups: one flag column (“identity_mentioned”)
   gives one identity, so before data it is not promised; several identity columns are.
2. Hiding non-toxic comments that mention an identity is a false positive rate at the hiding threshold. With the
   threshold left open, each value's FPR and FNR are read at one threshold set on the whole test set, where the two
   overall rates are equal (Dixon et al. 2018). Oracle: fairlearn's MetricFrame of ``false_positive_rate`` and
   ``false_negative_rate`` per group at that threshold; the threshold against a brute force over every cut.
3. A gap between subgroups only for figures that do not depend on the class shares: ROC AUC's gap, no average
   precision gap; each value's share of toxic comments beside its metrics.
4. ROC AUC is said as the probability that a toxic comment is scored above a non-toxic one.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import advisor
from advisor.engine import equal_error_threshold
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report
from test_bias_score_identities import _evaluation, _sentences

pd = pytest.importorskip("pandas")
sk = pytest.importorskip("sklearn.metrics")
fm = pytest.importorskip("fairlearn.metrics")

TOXIC = "tests/situations/toxic.yaml"



def _comments(tmp_path, seed: int = 5, n: int = 1200):
    """Comments that mention an identity are toxic more often and their non-toxic ones are scored higher."""
    rng = np.random.default_rng(seed)
    mention = rng.choice(["yes", "no"], n, p=[0.3, 0.7])
    y = rng.random(n) < np.where(mention == "yes", 0.4, 0.15)
    p = np.clip(0.35 * y + 0.6 * rng.random(n) + np.where((mention == "yes") & ~y, 0.12, 0.0), 0, 1).round(3)
    df = pd.DataFrame({"y_true": np.where(y, "toxic", "non-toxic"), "y_pred": np.where(p > 0.5, "toxic", "non-toxic"),
                       "p_toxic": p, "p_non-toxic": 1 - p, "identity_mentioned": mention})
    path = tmp_path / "comments.csv"
    df.to_csv(path, index=False)
    ctx = build_report(load_answers(TOXIC), advisor.load(path, by="identity_mentioned"), bootstrap=300, seed=3)
    return ctx, y, p, mention


# -- 1. the premise of the competition's score ---------------------------------------------------------------------
def test_one_binary_flag_promises_no_competition_score_before_data():
    answers = load_answers(TOXIC)
    assert answers.subgroups == ["identity_mentioned"]
    assert make_plan(answers).diagnostic("bias_score") is None
    text = _evaluation(build_report(answers, None, bootstrap=2000, seed=2024))
    assert "Jigsaw" not in text and "competition" not in text and "nine identities" not in text
    assert "BPSN AUC" in text and "BNSP AUC" in text  # the bias AUCs stay


def test_several_identity_columns_promise_the_competition_score_before_data():
    answers = load_answers(TOXIC).model_copy(update={"subgroups": ["gay", "muslim", "black"]})
    assert make_plan(answers).diagnostic("bias_score") is not None
    text = _evaluation(build_report(answers, None, bootstrap=2000, seed=2024))
    assert "We give the Jigsaw Unintended Bias competition's score" in text


def test_with_data_one_flag_keeps_the_one_identity_form(tmp_path):
    ctx, *_ = _comments(tmp_path)
    text = _evaluation(ctx)
    assert "the form the Jigsaw Unintended Bias competition's score takes over one identity" in text
    assert "nine identities" not in text


# -- 2. the harm at a stated threshold -----------------------------------------------------------------------------
def test_the_equal_error_threshold_is_the_cut_where_both_overall_rates_meet():
    rng = np.random.default_rng(1)
    y = rng.random(500) < 0.3
    s = (rng.normal(y * 1.1, 1.0)).round(2)  # ties among the scores
    got = equal_error_threshold(y, s)
    best = None
    for t in np.unique(s):  # brute force: every cut, flagged when the score is at least the cut
        fpr, fnr = float((s[~y] >= t).mean()), float((s[y] < t).mean())
        key = (abs(fpr - fnr), max(fpr, fnr), t)
        best = key if best is None or key < best else best
    assert got["threshold"] == best[2]
    assert got["fpr"] == pytest.approx(float((s[~y] >= best[2]).mean()), abs=1e-15)
    assert got["fnr"] == pytest.approx(float((s[y] < best[2]).mean()), abs=1e-15)


def test_subgroup_fpr_and_fnr_at_the_stated_threshold_match_fairlearn(tmp_path):
    ctx, y, p, mention = _comments(tmp_path)
    e = ctx.subgroups["error_rates"][next(iter(ctx.subgroups["error_rates"]))]
    assert e["criterion"] == "equal_error"
    t = equal_error_threshold(y, p)["threshold"]
    assert e["threshold"] == t
    flagged = (p >= t).astype(int)
    mf = fm.MetricFrame(metrics={"fpr": fm.false_positive_rate, "fnr": fm.false_negative_rate},
                        y_true=y.astype(int), y_pred=flagged, sensitive_features=mention)
    col = e["columns"]["identity_mentioned"]
    for value in ("yes", "no"):
        assert col["values"][value]["fpr"]["estimate"] == pytest.approx(mf.by_group.loc[value, "fpr"], abs=1e-12)
        assert col["values"][value]["fnr"]["estimate"] == pytest.approx(mf.by_group.loc[value, "fnr"], abs=1e-12)
    assert e["fpr"] == pytest.approx(mf.overall["fpr"], abs=1e-12)
    assert e["fnr"] == pytest.approx(mf.overall["fnr"], abs=1e-12)
    assert col["gaps"]["fpr"]["gap"] == pytest.approx(mf.difference()["fpr"], abs=1e-12)
    assert col["gaps"]["fnr"]["gap"] == pytest.approx(mf.difference()["fnr"], abs=1e-12)
    for m in ("fpr", "fnr"):  # each gap with its interval, which holds the plug-in gap
        g = col["gaps"][m]
        assert g["low"] <= g["gap"] + 1e-12 <= g["high"] + 2e-12
    # promised before data, shown with data: the sentence (in the Evaluation paragraph, or with data in the
    # subgroups' paragraph after it when the first has no room), its source and the table
    said = " ".join("".join(sp.text if sp.kind == "text" else "(c)" for sp in par.spans) for par in ctx.methods)
    # the author's words name the groups (subgroup_descriptions): "each subgroup's", not "each value's"
    new = "At the threshold where both overall rates are equal, we give each subgroup's false positive and false negative rates (c)"
    assert (new in _evaluation(ctx)
            or "where the whole test set's two rates are equal (c)" in said)
    assert "dixon2018measuring" in {r.key for r in ctx.references}
    table = next(t for t in ctx.tables if t.id == "subgroup_error_rates")
    assert f"{t:.4g}" in table.caption and "Dixon et al. 2018" in table.caption
    before = _evaluation(build_report(load_answers(TOXIC), None, bootstrap=2000, seed=2024))
    assert new in before


def test_no_threshold_rates_when_the_operating_point_is_fixed():
    fixed = load_answers(TOXIC).model_copy(update={"operating_point": "fixed"})
    assert make_plan(fixed).diagnostic("subgroup_error_rates") is None
    assert make_plan(load_answers(TOXIC)).diagnostic("subgroup_error_rates") is not None


# -- 3. gaps only for figures that do not depend on the class shares ------------------------------------------------
def test_no_average_precision_gap_and_an_auc_gap(tmp_path):
    ctx, y, p, mention = _comments(tmp_path)
    scores = ctx.subgroups["scores"]["identity_mentioned"]
    for value in ("yes", "no"):
        e = next(iter(scores[value].values()))
        m = mention == value
        assert e["share"] == pytest.approx(y[m].mean(), abs=1e-12)  # the value's toxic rate beside its metrics
        assert e["roc_auc"]["estimate"] == pytest.approx(sk.roc_auc_score(y[m], p[m]), abs=1e-12)
        assert e["average_precision"]["estimate"] == pytest.approx(sk.average_precision_score(y[m], p[m]), abs=1e-12)
    aucs = [sk.roc_auc_score(y[mention == v], p[mention == v]) for v in ("yes", "no")]
    gap = next(iter(ctx.subgroups["auc_gaps"]["identity_mentioned"].values()))
    assert gap["gap"] == pytest.approx(max(aucs) - min(aucs), abs=1e-12)
    assert gap["low"] <= gap["gap"] <= gap["high"]
    gaps = next(t for t in ctx.tables if t.id == "subgroup_gaps")
    assert "ROC AUC gap" in gaps.columns and "FPR gap" in gaps.columns
    assert not any("precision" in c or "selection" in c or "accuracy" in c.lower() for c in gaps.columns)
    by_value = next(t for t in ctx.tables if t.id == "subgroup_scores")
    assert "share toxic" in by_value.columns and "Average precision" in by_value.columns
    assert "get no gap" in by_value.caption
    values = next(t for t in ctx.tables if t.id == "subgroups")
    assert "share toxic" in values.columns


def test_the_subgroup_figure_sets_only_share_free_figures_side_by_side(tmp_path):
    plt = pytest.importorskip("matplotlib.pyplot")
    from advisor.report._figures_subgroups import draw_subgroups

    ctx, *_ = _comments(tmp_path)
    fig, cap = draw_subgroups(ctx, plt)
    titles = [ax.get_title() for ax in fig.axes]
    plt.close(fig)
    assert titles == ["TPR", "FPR"] and "precision" not in cap and "selection rate" not in cap


# -- the paragraph as a whole ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("with_data", [False, True])
def test_the_paragraph_keeps_to_its_limits(tmp_path, with_data):
    ctx = _comments(tmp_path)[0] if with_data else build_report(load_answers(TOXIC), None, bootstrap=2000, seed=2024)
    text = _evaluation(ctx)
    assert 60 <= len(text.split()) <= 220, len(text.split())
    for s in _sentences(text)[1:]:  # the first is the author's own context, quoted as given
        assert len(s.split()) <= 40, s
    # the gap principle, with the figures named (s30: "the range of each figure unaffected by class shares" named none)
    assert "the gap in ROC AUC" in text
    # not "which does not depend on class shares": a gap in subgroup AUC also depends on how hard each value's own
    # negatives are (Borkan et al. 2019), which the BPSN and BNSP AUCs beside it take apart (the tox reader)
    assert "depend on class shares" not in text
    assert "unaffected by class shares" not in text
    # 4. ROC AUC said as the probability it is, in the comments' words (Fawcett 2006)
    assert "ROC AUC, which is the probability that a toxic comment is scored above a non-toxic one (c)" in text
    assert "at every threshold" not in text
    words = text.split()
    grams = [" ".join(words[i:i + 8]) for i in range(len(words) - 7)]
    assert len(grams) == len(set(grams)), "a repeated 8-word sequence"
    # no internal id, and the author's column name not quoted where the author's words name its groups (the tox reader);
    # with data, the one identity the score's form is taken over is named as the data hold it (“identity_mentioned” =
    # yes), the author's own column
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text.replace("“identity_mentioned” = yes", "")), "a snake_case id"
    assert "separately for comments that mention an identity and those that do not" in text
    depth = 0
    for ch in text:  # one level of parentheses
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assert depth <= 1


def test_the_equality_differences_of_dixon_et_al_match_a_hand_computation(tmp_path):
    """FPED = Σ_v |FPR − FPR_v| and FNED = Σ_v |FNR − FNR_v| (Dixon et al. 2018), the overall rates those of the whole
    test set at the same equal-error threshold: recomputed here by hand from the scores, and shown in the table."""
    ctx, y, p, mention = _comments(tmp_path)
    entry = next(iter(ctx.subgroups["error_rates"].values()))
    t = entry["threshold"]
    flagged = p >= t
    fpr = flagged[~y].mean()
    fnr = (~flagged[y]).mean()
    fped = sum(abs(fpr - flagged[~y & (mention == v)].mean()) for v in ("yes", "no"))
    fned = sum(abs(fnr - (~flagged[y & (mention == v)]).mean()) for v in ("yes", "no"))
    eq = entry["columns"]["identity_mentioned"]["equality_differences"]
    assert eq["fped"] == pytest.approx(fped, abs=1e-12) and eq["fned"] == pytest.approx(fned, abs=1e-12)
    assert eq["values"] == {"fped": 2, "fned": 2}
    table = next(t for t in ctx.tables if t.id == "subgroup_error_rates")
    row = next(r for r in table.rows if r[1] == "equality difference (FPED, FNED)")
    assert row[4] == f"{fped:.{len(row[4].split('.')[1])}f}" and "FPED, FNED; Dixon" in table.caption
