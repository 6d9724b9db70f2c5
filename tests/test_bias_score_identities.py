"""The Jigsaw bias score said as what it is over the identities at hand, with one interval method (the toxic reader).

The competition's final score (Jigsaw/Conversation AI 2019) averages the overall ROC AUC with each bias AUC's power
mean (p = −5) over its nine identity columns. Over one value that marks an identity — the "yes" of a yes/no mention
column — each power mean is that value's AUC, so the number is the score's form over one identity, the mean of four
AUCs, and not the competition's score. Before there are data the paragraph cannot know the values, so it says what
the power means do and that the score is comparable with the competition's only over the competition's identities.

Oracles: scikit-learn's ``roc_auc_score`` on the items each AUC ranks (an independent implementation) for the four
AUCs of the one-identity form. The interval is BCa like every other resampled figure (coverage in
benchmarks/bench_bias_score.py: the percentile interval of the resampled scores missed a score over four identities
more often, its resamples lying below the estimate).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import advisor
from advisor.questionnaire import load_answers
from advisor.report import build_report, render_report
from advisor.stats._fairness import bias_score

pd = pytest.importorskip("pandas")
sk = pytest.importorskip("sklearn.metrics")

TOXIC = "tests/situations/toxic.yaml"


def _evaluation(ctx) -> str:
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return "".join(s.text if s.kind in ("text", "strong") else "(c)" if s.kind == "cite" else "X" for s in p.spans)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.])\s+(?=[A-Z“])", text.strip()) if s]


def _comments(tmp_path, several: bool, seed: int = 3, n: int = 900):
    rng = np.random.default_rng(seed)
    if several:
        col, values = "identity", rng.choice(["none", "gay", "muslim", "black"], n, p=[0.55, 0.15, 0.15, 0.15])
        marked = values != "none"
    else:
        col, values = "identity_mentioned", rng.choice(["yes", "no"], n, p=[0.3, 0.7])
        marked = values == "yes"
    y = rng.random(n) < 0.3
    p = np.clip(y * 0.3 + rng.random(n) * 0.6 + np.where(marked & ~y, 0.1, 0.0), 0, 1)
    df = pd.DataFrame({"y_true": np.where(y, "toxic", "non-toxic"), "y_pred": np.where(p > 0.5, "toxic", "non-toxic"),
                       "p_toxic": p, "p_non-toxic": 1 - p, col: values})
    path = tmp_path / "comments.csv"
    df.to_csv(path, index=False)
    answers = load_answers(TOXIC).model_copy(update={"subgroups": [col]})
    ctx = build_report(answers, advisor.load(path, by=col), bootstrap=300, seed=2)
    return ctx, y, p, values


# ------------------------------------------------------------------------------------------------------------------
# before data: what the power mean does, and comparable only over the competition's identities
# ------------------------------------------------------------------------------------------------------------------
def test_before_data_one_flag_column_promises_no_competition_score():
    """The only subgroup column is one flag (“identity_mentioned”): a power mean over one identity is that identity's
    AUC, so before data the competition's score is not promised; the bias AUCs stay (the fairness reader)."""
    ctx = build_report(load_answers(TOXIC), None, bootstrap=2000, seed=2024)
    text = _evaluation(ctx)
    assert "Jigsaw" not in text and "competition" not in text and "nine identities" not in text
    assert "BPSN" in text and "BNSP" in text
    assert "We do not report F1 score" in text  # the author's planned F1 keeps its reason in the paragraph
    assert not any(m.id == "jigsaw_bias_score" for m in ctx.definitions)


def test_before_data_the_score_is_said_comparable_only_over_the_competitions_identities():
    """Several subgroup columns (one per identity): several identity subgroups, so the score is promised."""
    answers = load_answers(TOXIC).model_copy(update={"subgroups": ["gay", "muslim", "black"]})
    ctx = build_report(answers, None, bootstrap=2000, seed=2024)
    text = _evaluation(ctx)
    assert ("We give the Jigsaw Unintended Bias competition's score, the overall ROC AUC averaged with the three AUCs' "
            "power means (p = −5) over identities, each near the lowest AUC (c).") in text
    assert "It is comparable with the competition's only over its nine identities." in text
    # one interval method, said once for every figure: no percentile exception left unexplained
    assert "percentile" not in text and "Intervals are 95% BCa intervals" in text
    # the author's planned F1 keeps its reason: in the paragraph, or (three columns named twice leave it no room) in
    # the paragraph after it
    said = " ".join(sp.text for par in ctx.methods for sp in par.spans)
    assert "We do not report F1 score" in text or "We do not report F1: it scores labels at a threshold nobody " \
        "chose" in said
    words = len(text.split())
    assert 60 <= words <= 220, words
    for s in _sentences(text):
        if "Jigsaw" in s or "competition" in s:
            assert len(s.split()) <= 40, s
    score = next(m for m in ctx.definitions if m.id == "jigsaw_bias_score")
    where = "".join(sp.text for sp in score.where.spans)
    assert "percentile" not in where and "N = 1" not in where  # the formula, no note for a data set not seen


# ------------------------------------------------------------------------------------------------------------------
# with data: one identity value — each power mean is that value's AUC, not the competition's score
# ------------------------------------------------------------------------------------------------------------------
def test_one_identity_value_gives_the_scores_form_and_says_each_power_mean_is_its_auc(tmp_path):
    ctx, y, p, values = _comments(tmp_path, several=False)
    g = values == "yes"
    yi = y.astype(int)
    aucs = [sk.roc_auc_score(yi, p), sk.roc_auc_score(yi[g], p[g])]
    m = (g & ~y) | (~g & y)
    aucs.append(sk.roc_auc_score(yi[m], p[m]))  # BPSN: the value's non-toxic against toxic comments elsewhere
    m = (g & y) | (~g & ~y)
    aucs.append(sk.roc_auc_score(yi[m], p[m]))  # BNSP
    e = next(iter(ctx.subgroups["bias_score"].values()))
    assert e["identities"] == [["identity_mentioned", "yes"]]
    assert e["estimate"] == pytest.approx(np.mean(aucs), abs=1e-12)  # the mean of the four AUCs
    for a, want in zip(("subgroup_auc", "bpsn_auc", "bnsp_auc"), aucs[1:]):
        assert e["power_means"][a] == pytest.approx(want, abs=1e-12)  # a power mean over one value is that value

    text = _evaluation(ctx)
    assert "The final score of the Jigsaw" not in text and "competition's score averages" not in text
    assert ("We give the form the Jigsaw Unintended Bias competition's score takes over one identity, "
            "“identity_mentioned” = yes: the mean of the overall ROC AUC and the three AUCs, each power mean (p = −5) "
            "being that value's AUC (c).") in text
    assert "percentile" not in text
    # the one identity's form costs the paragraph nothing the competition's form kept: the AUC of the author's harm
    # leads beside ROC AUC with why (the situation names the harm: subgroup_harm), the other two are named
    assert ("Each subgroup's BPSN AUC also leads, since the harm is its non-toxic comments flagged as toxic" in text
            or "each subgroup's BPSN AUC, which ranks them against toxic comments from elsewhere, leads beside it" in text)
    assert "the subgroup and BNSP AUCs" in text
    assert len(text.split()) <= 220
    for s in _sentences(text):
        if "Jigsaw" in s or "competition" in s:
            assert len(s.split()) <= 40, s

    t = next(t for t in ctx.tables if t.id == "bias_score")
    assert t.title == "Bias score over one identity (the Jigsaw form)"
    assert t.columns == ["system", "bias score", "ROC AUC", "subgroup AUC", "BPSN AUC", "BNSP AUC"]
    assert "each power mean is that value's AUC" in t.caption and "it is not the competition's score" in t.caption
    assert "BCa" in t.caption and "percentile" not in t.caption
    assert t.rows[0][1].startswith(f"{np.mean(aucs):.3f} [")
    assert t.rows[0][3:] == [f"{a:.3f}" for a in aucs[1:]]

    sub = next(par for par in ctx.methods if any("Every metric is also reported per subgroup" in sp.text
                                                  for sp in par.spans))
    said = "".join(sp.text for sp in sub.spans)
    assert ("The bias score is given in the form the Jigsaw competition's score takes over one identity subgroup "
            "(identity_mentioned = yes), against every other item") in said
    assert ("Each power mean (p = −5) is then that subgroup's AUC, so the score averages the overall ROC AUC with "
            "the subgroup's three bias AUCs; it is not the competition's score.") in said
    score = next(m for m in ctx.definitions if m.id == "jigsaw_bias_score")
    assert "so each power mean is that subgroup's own AUC" in "".join(sp.text for sp in score.where.spans)
    md = render_report(ctx, "md")
    # the table is not titled as the competition's; the Definitions name the formula, whose N is said to be 1
    assert "*Jigsaw bias score.*" not in md and "*Bias score over one identity (the Jigsaw form).*" in md


# ------------------------------------------------------------------------------------------------------------------
# with data: several identity values — the competition's form, as before
# ------------------------------------------------------------------------------------------------------------------
def test_several_identity_values_keep_the_competitions_form(tmp_path):
    ctx, y, p, values = _comments(tmp_path, several=True)
    e = next(iter(ctx.subgroups["bias_score"].values()))
    assert e["identities"] == [["identity", "black"], ["identity", "gay"], ["identity", "muslim"]]
    text = _evaluation(ctx)
    assert ("The final score of the Jigsaw Unintended Bias competition averages the overall ROC AUC with the three "
            "AUCs' power means (p = −5) over the values of “identity” that mark an identity (c).") in text
    assert "that value's AUC" not in text and "percentile" not in text
    t = next(t for t in ctx.tables if t.id == "bias_score")
    assert t.title == "Jigsaw bias score"
    assert t.columns[3:] == ["power mean of subgroup AUC", "power mean of BPSN AUC", "power mean of BNSP AUC"]
    assert "not the competition's score" not in t.caption and "BCa" in t.caption
    score = next(m for m in ctx.definitions if m.id == "jigsaw_bias_score")
    assert "N = 1" not in "".join(sp.text for sp in score.where.spans)


# ------------------------------------------------------------------------------------------------------------------
# the interval: BCa like every other resampled figure; the percentile interval only when asked for
# ------------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, groups", [(400, None), (1500, None), (600, 120)])
def test_the_score_takes_a_bca_interval(n, groups):
    rng = np.random.default_rng(n)
    mention = rng.choice(["yes", "no"], n, p=[0.25, 0.75])
    y = rng.random(n) < 0.3
    s = rng.normal(y * 1.2 + (mention == "yes") * ~y * 0.5, 1.0)
    by = {"m": mention.astype(object)}
    cl = None if groups is None else rng.integers(0, groups, n)
    bca = bias_score(y, s, {"m": ["no", "yes"]}, by, n_resamples=400, seed=1, groups=cl)
    pct = bias_score(y, s, {"m": ["no", "yes"]}, by, n_resamples=400, seed=1, groups=cl, method="percentile")
    assert bca["method"] == "bca" and pct["method"] == "percentile"
    assert bca["low"] < bca["estimate"] < bca["high"]
    assert bca["estimate"] == pct["estimate"]
    assert (bca["low"], bca["high"]) != (pct["low"], pct["high"])  # the same resamples, another method
    assert abs(bca["high"] - bca["low"] - (pct["high"] - pct["low"])) < 0.5 * (pct["high"] - pct["low"])
