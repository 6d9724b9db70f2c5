"""A class whose prediction takes no action (fallback_class): the wrong-action rate and the fallback rate.

The intent reader: balanced accuracy counts an in-scope request taken as out-of-scope (the assistant asks to
rephrase) like one routed to a wrong intent (a wrong action), and gives out-of-scope 1/151 of the weight. With the
out-of-scope class named as the class that takes no action, the wrong-action rate leads and the fallback rate is
given beside it; no cost ratio merges them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint
from typer.testing import CliRunner

from advisor import ConfusionMatrix, InputError, compute_metrics
from advisor.catalogue import get_catalogue
from advisor.cli import app
from advisor.plan import make_plan
from advisor.questionnaire import answers_from_mapping, load_answers, recommend
from advisor.report import build_report, render_report
from advisor.stats import bootstrap

SITUATIONS = Path(__file__).parent / "situations"
# three intents and the out-of-scope class; rows are true classes
HAND = [[6, 1, 0],
        [0, 2, 1],
        [2, 1, 2]]


def _evaluation(ctx) -> str:
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)


def test_the_two_rates_by_hand() -> None:
    cm = ConfusionMatrix(HAND, ["a", "b", "oos"])
    got = compute_metrics(cm, ["wrong_action_rate", "fallback_rate"], fallback_class="oos")
    # actions taken and wrong: column a holds 2 items of other classes (oos), column b 1 of a and 1 of oos: 4 of 15;
    # the 2 items of oos predicted as oos take no action and are right, the 1 item of b predicted as oos falls back
    assert got["wrong_action_rate"] == pytest.approx(4 / 15)
    # items of a and b (10) taken as oos: 1
    assert got["fallback_rate"] == pytest.approx(1 / 10)


def test_the_two_rates_against_item_level_numpy_and_sklearn() -> None:
    sk = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(11)
    for _ in range(40):
        k = int(rng.integers(3, 7))
        n = int(rng.integers(20, 300))
        y = rng.integers(0, k, size=n)
        p = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, size=n))
        f = int(rng.integers(0, k))
        m = sk.confusion_matrix(y, p, labels=list(range(k)))  # sklearn: rows are true classes too
        got = compute_metrics(m, ["wrong_action_rate", "fallback_rate"], fallback_class=f)
        wrong_action = np.mean((p != f) & (p != y))  # straight from the items, no confusion matrix
        others = y != f
        fallback = np.sum(others & (p == f)) / np.sum(others) if others.any() else 0.0
        assert got["wrong_action_rate"] == pytest.approx(wrong_action)
        assert got["fallback_rate"] == pytest.approx(fallback)


def test_the_fallback_rate_when_every_item_is_of_the_fallback_class() -> None:
    only = ConfusionMatrix([[0, 0], [1, 3]], ["a", "oos"])
    assert compute_metrics(only, ["fallback_rate"], fallback_class="oos", undefined="zero")["fallback_rate"] == 0.0
    base = compute_metrics(only, ["fallback_rate"], fallback_class="oos", undefined="baseline")["fallback_rate"]
    assert base == pytest.approx(3 / 4)  # b_f / n
    assert np.isnan(compute_metrics(only, ["fallback_rate"], fallback_class="oos", undefined="omit")["fallback_rate"])
    # the wrong-action rate is defined: the item of oos taken as a takes a wrong action
    assert compute_metrics(only, ["wrong_action_rate"], fallback_class="oos")["wrong_action_rate"] == 0.25
    # the default convention (omit) reports the undefined fallback rate as undefined
    assert np.isnan(compute_metrics(only, ["fallback_rate"], fallback_class="oos")["fallback_rate"])


def test_the_rates_need_the_fallback_class() -> None:
    with pytest.raises(InputError, match="takes no action"):
        compute_metrics(HAND, ["wrong_action_rate"])
    with pytest.raises(InputError, match="does not occur"):
        compute_metrics(ConfusionMatrix(HAND, ["a", "b", "oos"]), ["fallback_rate"], fallback_class="none of them")


def test_the_shares_of_whole_items_take_the_exact_interval_of_their_counts() -> None:
    # wrong-action rate 4/15, fallback rate (1 + 0 of the 10 non-fallback items: b predicted oos) 1/10, in-scope
    # accuracy 8/10: one count over another, so Clopper-Pearson as accuracy (the s28 intent reader: "be consistent")
    m = np.array([[30, 5, 5], [4, 10, 6], [3, 2, 35]])
    r = bootstrap(ConfusionMatrix(m, ["a", "b", "oos"]), n_resamples=300, seed=1,
                  metrics=["wrong_action_rate", "fallback_rate", "in_scope_accuracy"], fallback_class="oos",
                  positive_label="oos")
    for metric, (x, n) in {"wrong_action_rate": (14, 100), "fallback_rate": (11, 60),
                           "in_scope_accuracy": (40, 60)}.items():
        assert r.methods[metric] == "clopper_pearson"
        assert r[metric]["estimate"] == pytest.approx(x / n, abs=1e-15)
        lo, hi = proportion_confint(x, n, alpha=0.05, method="beta")
        assert (r[metric]["low"], r[metric]["high"]) == pytest.approx((lo, hi), abs=1e-12)


def test_the_bootstrap_resamples_with_the_fallback_class() -> None:
    r = bootstrap(ConfusionMatrix(HAND, ["a", "b", "oos"]), n_resamples=300, seed=1,
                  metrics=["wrong_action_rate", "fallback_rate"], fallback_class="oos")
    assert r["wrong_action_rate"]["estimate"] == pytest.approx(4 / 15)
    assert 0.0 <= r["wrong_action_rate"]["low"] <= 4 / 15 <= r["wrong_action_rate"]["high"] <= 1.0


def test_catalogue_records_define_every_symbol_and_are_lower_is_better() -> None:
    cat = get_catalogue()
    for mid in ("wrong_action_rate", "fallback_rate"):
        rec = cat.metrics[mid]
        assert rec.higher_is_better is False and "f" in rec.symbols and rec.references


def test_the_answers_key_must_name_a_class() -> None:
    with pytest.raises(Exception, match="fallback_class"):
        answers_from_mapping({"task": "multiclass", "classes": ["a", "b", "oos"], "fallback_class": "other"})
    ok = answers_from_mapping({"task": "multiclass", "classes": ["a", "b", "oos"], "fallback_class": "oos"})
    assert ok.fallback_class == "oos"


def test_the_cli_refuses_a_fallback_class_that_is_no_class_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("task: multiclass\nclasses: [a, b, oos]\nfallback_class: other\n", encoding="utf-8")
    out = CliRunner().invoke(app, ["methods", "--answers", str(path), "-o", str(tmp_path / "m.md")])
    assert out.exit_code != 0 and "Traceback" not in out.output and "fallback_class" in out.output


def test_intent_leads_with_the_wrong_action_rate_and_gives_the_fallback_rate_beside_it() -> None:
    answers = load_answers(SITUATIONS / "intent.yaml")
    assert answers.fallback_class == "out-of-scope"
    rec = recommend(answers)
    assert rec.primary.metric == "wrong_action_rate" and rec.primary.params == {"fallback_class": "out-of-scope"}
    beside = {c.metric: c.params for c in rec.complementary}
    assert beside["fallback_rate"] == {"fallback_class": "out-of-scope"}
    assert {"in_scope_accuracy", "recall"} <= set(beside)  # the field's figures (Larson et al. 2019) stay
    text = _evaluation(build_report(answers, None, bootstrap=2000, seed=1))
    assert ("A prediction of “out-of-scope” takes no action, so we lead with the wrong-action rate, the share of "
            "utterances on which an action is taken and is wrong.") in text
    assert "Beside it we give the fallback rate, the share of the other utterances taken as “out-of-scope”." in text
    assert "With no cost ratio between them fixed, the two errors are reported apart." in text
    assert "We lead with balanced accuracy" not in text
    assert text.index("wrong-action rate") < text.index("in-scope accuracy")


def test_the_intent_report_computes_both_rates_with_intervals() -> None:
    counts = np.array([[40, 3, 2, 5], [2, 30, 1, 7], [1, 2, 25, 2], [6, 4, 5, 35]], dtype=float)
    labels = ["balance", "transfer", "book_flight", "out-of-scope"]
    answers = load_answers(SITUATIONS / "intent.yaml").model_copy(update={"outputs": "labels"})
    ctx = build_report(answers, {"intent model": ConfusionMatrix(counts, labels)}, bootstrap=200, seed=1)
    got = ctx.systems[0].values
    # acting columns off their diagonal: (9 + 9 + 8) / 170; the out-of-scope column off its diagonal: 14 / 120
    assert got["wrong_action_rate"] == pytest.approx((9 + 9 + 8) / 170)
    assert got["fallback_rate"] == pytest.approx((5 + 7 + 2) / 120)
    assert {"wrong_action_rate", "fallback_rate"} <= set(ctx.systems[0].intervals)


def test_the_wrong_action_rate_splits_into_its_two_parts_at_the_fallback_share() -> None:
    """The identity the intent paragraph states: with π the fallback class's share, the wrong-action rate is
    (1 − π)·m + π·(1 − recall of f), m = 1 − in-scope accuracy − fallback rate, the misrouting among the others."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        k = int(rng.integers(3, 8))
        m = rng.integers(0, 20, size=(k, k)).astype(float) + np.eye(k) * 10
        labels = [f"c{i}" for i in range(k)]
        f = labels[int(rng.integers(0, k))]
        cm = ConfusionMatrix(m, labels)
        got = dict(compute_metrics(cm, ["wrong_action_rate", "fallback_rate"], fallback_class=f))
        got |= compute_metrics(cm, ["in_scope_accuracy", "recall"], positive_label=f)
        i = labels.index(f)
        pi = m[i].sum() / m.sum()
        misrouting = 1 - got["in_scope_accuracy"] - got["fallback_rate"]
        # the misrouting, counted from the items: in-scope items predicted as another in-scope class
        others = [j for j in range(k) if j != i]
        sub = m[np.ix_(others, others)]
        assert misrouting == pytest.approx((sub.sum() - np.trace(sub)) / m[others].sum())
        assert got["wrong_action_rate"] == pytest.approx((1 - pi) * misrouting + pi * (1 - got["recall"]))


def test_intent_says_its_lead_depends_on_the_share_and_how_to_recompute_it() -> None:
    answers = load_answers(SITUATIONS / "intent.yaml")
    ctx = build_report(answers, None, bootstrap=2000, seed=1)
    text = _evaluation(ctx)
    # m named before its formula (the s22 reader: "the misrouting among the others" was hard to parse)
    assert "It depends on the share π of “out-of-scope” utterances in this test set. With m the share of the other " \
           "utterances that trigger a wrong action, 1 − in-scope accuracy − fallback rate, it is (1 − π)·m + π·(1 − " \
           "out-of-scope recall), so it can be recomputed at any share." in text
    # the range and SD of per-class recall: no reported mean of per-class recalls for them to unpack
    assert "range and standard deviation" not in text
    # one symbol for the one class: in-scope accuracy is written with the fallback class's f, not o
    acc = next(d for d in ctx.metrics if d.id == "in_scope_accuracy")
    assert r"\neq f" in acc.formula and r"\neq o" not in acc.formula and acc.where is None


def test_a_second_router_says_the_share_only_when_it_is_not_the_one_in_use() -> None:
    """A support-ticket router whose tickets it cannot place go to a human: the same principle, other answers."""
    base = {"context": "Support tickets are routed to one of 12 teams or handed to a human agent; a ticket routed "
                       "to the wrong team waits for days.", "item_name": "ticket", "task": "multiclass",
            "n_classes": 13, "fallback_class": "human", "positive_class": "human", "outputs": "labels"}
    text = _evaluation(build_report(answers_from_mapping({**base, "deployment_prevalence": "unknown"}), None,
                                    bootstrap=2000, seed=1))
    assert "It depends on the share π of “human” tickets in this test set" in text
    same = _evaluation(build_report(answers_from_mapping({**base, "deployment_prevalence": "same"}), None,
                                    bootstrap=2000, seed=1))
    assert "in this test set" not in same.split("so they are not merged")[0]
    assert "depends on the share π" not in same


def test_the_spread_of_per_class_recall_goes_with_a_reported_mean_of_recalls() -> None:
    """Many classes: the range and SD of per-class recall unpack a reported mean of per-class recalls (balanced
    accuracy beside the product categoriser's accuracy); beside the intent's wrong-action rate none is reported."""
    product = load_answers(Path(__file__).parents[1] / "examples/answers/product_categories_per_item.yaml")
    assert "recall_spread" in {d.id for d in make_plan(product).diagnostics}
    assert "recall_spread" not in {d.id for d in make_plan(load_answers(SITUATIONS / "intent.yaml")).diagnostics}


def test_the_fallback_rate_s_meaning_goes_with_its_formula_when_the_paragraph_has_no_room() -> None:
    # a longer context leaves no room for what the fallback rate counts: it is said after the notation, never unsaid
    answers = load_answers(SITUATIONS / "intent.yaml")
    longer = answers.model_copy(update={"context": answers.context + " Requests arrive from both the app and the "
                                        "phone line, and a wrong action on a payment is costly to reverse."})
    md = render_report(build_report(longer, None, bootstrap=2000, seed=1), "md")
    evaluation, _, rest = md.partition("**Evaluation.**")[2].partition("\n\n")
    assert "Beside it we give the fallback rate" in evaluation
    said_here = "the fallback rate, the share of the other utterances taken as “out-of-scope”." in evaluation
    said_there = ("The fallback rate is the share of the utterances not “out-of-scope” that are taken as "
                  "“out-of-scope”.") in rest
    assert said_here != said_there  # once, in one place
    assert said_there
