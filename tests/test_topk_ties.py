"""Top-k shares with tied scores (a blind reader of the ImageNet paragraph: "fractional tie credit produces
non-integer counts, so 'exact Clopper–Pearson intervals' are not defined for it").

An item whose true class ties in score with other classes at the cut-off counts a fraction of a hit
(``advisor.engine._topk``). Such a share is no binomial count of items — not even when the fractions happen to add
up to a whole number — so it keeps its BCa interval; the exact interval is used only when every item counts 0 or 1.
Whatever was computed is what the results, the JSON and the methods text built with them say; the paragraph written
before the data says that tied scores change the interval.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from advisor import load_structured
from advisor.engine._topk import top_k_hits
from advisor.report import build_structured_report, methods_paragraph, render_report
from advisor.stats import structure_bootstrap, structure_comparison
from advisor.stats._proportions import clopper_pearson

K, N, CLASSES = 2, 60, ("c0", "c1", "c2", "c3", "c4", "c5")
ANSWERS = {"context": "Leaf photographs are sorted into six plant species, and a prediction counts as right when the "
                      "true species is among the two highest-scored.",
           "item_name": "photograph", "task": "multiclass", "classes": list(CLASSES), "top_k": K,
           "probabilities": True}


def _scores(tied: bool, seed: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Distinct scores; with ``tied``, two items whose true class ties with another class at the second place (half
    a hit each: the fractions add up to one whole hit, so only the items show that the count is not binomial)."""
    rng = np.random.default_rng(seed)
    s = rng.random((N, len(CLASSES)))
    y = rng.integers(0, len(CLASSES), N)
    if tied:
        s[:2] = [0.5, 0.2, 0.2, 0.05, 0.03, 0.02]
        y[:2] = 1
    return s / s.sum(axis=1, keepdims=True), y


def _table(tied: bool, seed: int = 4) -> dict[str, list]:
    s, y = _scores(tied, seed)
    return {"y_true": [CLASSES[i] for i in y], **{f"p_{c}": s[:, j].tolist() for j, c in enumerate(CLASSES)}}


def test_the_fixture_has_fractional_hits_that_add_up_to_a_whole_number():
    s, y = _scores(True)
    hits = top_k_hits(s, y, K)
    assert np.count_nonzero((hits > 0) & (hits < 1)) == 2 and float(hits.sum()) == round(float(hits.sum()))
    assert set(top_k_hits(*_scores(False), K).tolist()) <= {0.0, 1.0}


def test_fractional_credit_gets_bca_around_its_estimate():
    s, y = _scores(True)
    r = structure_bootstrap("top_k", (s, y, CLASSES), ["top_k_accuracy", "accuracy"], n_resamples=1000, seed=1,
                            top_k=K)
    tk = r["top_k_accuracy"]
    assert tk["method"] == "bca"
    assert tk["estimate"] == pytest.approx(float(top_k_hits(s, y, K).mean()))
    assert tk["low"] < tk["estimate"] < tk["high"]
    # top-1 has no tie at its cut-off here: every item counts 0 or 1, so it stays exact
    acc = r["accuracy"]
    x = round(acc["estimate"] * N)
    assert acc["method"] == "clopper_pearson"
    assert (acc["low"], acc["high"]) == pytest.approx(clopper_pearson(x, N, 0.95))


def test_whole_hits_keep_the_exact_interval():
    s, y = _scores(False)
    tk = structure_bootstrap("top_k", (s, y, CLASSES), ["top_k_accuracy"], n_resamples=500, seed=1,
                             top_k=K)["top_k_accuracy"]
    x = int(top_k_hits(s, y, K).sum())
    assert tk["method"] == "clopper_pearson"
    assert (tk["low"], tk["high"]) == pytest.approx(clopper_pearson(x, N, 0.95))


@pytest.mark.parametrize("tied", [True, False])
def test_a_paired_comparison_names_one_method_for_every_system(tied):
    a, b = _scores(tied, 4), _scores(False, 4)
    b = (b[0][:, ::-1].copy(), b[1])  # another system on the same items, without ties
    systems = {"a": (a[0], a[1], CLASSES), "b": (b[0], b[1], CLASSES)}
    points = {n: {"top_k_accuracy": float(top_k_hits(d[0], d[1], K).mean())} for n, d in systems.items()}
    cmp = structure_comparison("top_k", systems, ["top_k_accuracy"], points, n_resamples=500, seed=2, top_k=K)
    got = cmp.metrics["top_k_accuracy"].systems
    assert {r.method for r in got.values()} == ({"bca"} if tied else {"clopper_pearson"})
    for r in got.values():
        assert r.low <= r.estimate <= r.high


def _report(tied: bool):
    inputs = load_structured([_table(tied)], top_k=K)
    return build_structured_report(ANSWERS, inputs, bootstrap=500, seed=3)


def test_the_report_says_the_method_each_share_got():
    ctx = _report(True)
    assert ctx.intervals.methods["top_k_accuracy"] == "bca" and ctx.intervals.methods["accuracy"] == "clopper_pearson"
    lead = ctx.systems[0].intervals["top_k_accuracy"]
    assert lead.method == "bca" and lead.low < lead.estimate < lead.high
    text = render_report(ctx, "md")
    evaluation = text[text.index("**Evaluation.**"):].split("\n")[0]
    assert "95% BCa intervals from 500 bootstrap resamples of the photographs" in evaluation
    assert "accuracy, a binomial proportion, takes an exact Clopper–Pearson interval" in evaluation and "top-2 accuracy" not in evaluation.split("BCa")[-1]
    assert "exact 95% Clopper–Pearson intervals" not in evaluation
    data = json.loads(render_report(ctx, "json"))
    assert data["intervals"]["system"]["top_k_accuracy"]["method"] == "bca"


def test_untied_scores_keep_clopper_pearson_in_the_report():
    ctx = _report(False)
    assert ctx.intervals.methods["top_k_accuracy"] == "clopper_pearson"
    text = render_report(ctx, "md")
    evaluation = text[text.index("**Evaluation.**"):].split("\n")[0]
    assert "Intervals are exact 95% Clopper–Pearson intervals" in evaluation
    assert "part of a hit" not in evaluation  # the data showed no tie: nothing conditional is left to say
    data = json.loads(render_report(ctx, "json"))
    assert data["intervals"]["system"]["top_k_accuracy"]["method"] == "clopper_pearson"


def test_the_paragraph_before_data_says_no_tie_rule():
    # before data the paragraph cannot know ties, and no answer says the scores can tie (discrete or rounded scores):
    # the tie rule is said nowhere, neither in the paragraph nor with the formulas (the ImageNet reader: "ties among
    # float softmax scores do not occur", so the sentence "does nothing"); the formula's e_t keeps its definition
    md = methods_paragraph(ANSWERS, seed=1)
    text = md.split("\n\n")[0]
    assert "Clopper–Pearson" in text and "part of a hit" not in md
    assert "$e_t$ those tied with it" in md
    plain = {k: v for k, v in ANSWERS.items() if k != "top_k"}  # single labels: every item counts 0 or 1
    assert "part of a hit" not in methods_paragraph(plain, seed=1)


def test_the_definitions_say_where_ties_occurred():
    # with data, where the scores tied with the true class at the cut-off: how many items, what they count, and the
    # interval it gives; with untied scores nothing (the previous test's counterpart after the data)
    text = render_report(_report(True), "md")
    assert ("At the cut-off of top-2 accuracy, the true class of 2 photographs tied in score with another class; each "
            "such photograph counts part of a hit, so top-2 accuracy is no binomial proportion and takes a BCa "
            "interval.") in text
    assert "At the cut-off of accuracy" not in text  # top-1 had no tie at its cut-off
    assert "part of a hit" not in render_report(_report(False), "md")


@pytest.mark.parametrize("tied,words", [
    (True, "point estimates with 95% intervals, Clopper–Pearson for accuracy, bootstrap for the others."),
    (False, "point estimates with 95% Clopper–Pearson intervals."),
])
def test_the_figure_caption_names_the_intervals_drawn(tmp_path, tied, words):
    out = tmp_path / "r.md"
    render_report(_report(tied), "md", out)
    caption = next(ln for ln in out.read_text(encoding="utf-8").splitlines() if ln.startswith("*Figure 1.*"))
    assert caption.endswith(words), caption
