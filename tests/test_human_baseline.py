"""The machine read against the human–human baseline (issue 22, the essay reader; Williamson, Xi & Breyer 2012):
the individual raters' scores beside the resolved score (answers key ``rater_columns``), the same figures for the
raters against each other, and the degradation of the machine's QWK from the raters' QWK, with a paired interval."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from advisor.engine import baseline_ratings, judge_comparison
from advisor.questionnaire import Answers
from advisor.stats import structure_bootstrap

ORDER = [1, 2, 3, 4, 5, 6]
BASE = dict(context="Essays are scored 1-6 by the model against the resolved score of two raters.", item_name="essay",
            field="automated_essay_scoring", label_structure="ordinal", task="multiclass", classes=ORDER,
            outputs="labels", tolerated_steps=1, planned_metrics=["quadratic weighted kappa", "exact agreement",
                                                                   "adjacent agreement"])


def _scores(n: int = 400, seed: int = 5):
    rng = np.random.default_rng(seed)
    t = np.clip(np.round(rng.normal(3.5, 1.0, n)), 1, 6).astype(int)
    r1 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    r2 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    p = np.clip(t + rng.choice([-2, -1, 0, 0, 1], n), 1, 6)
    return t, p, r1, r2


def test_figures_and_degradation_match_an_independent_implementation() -> None:
    t, p, r1, r2 = _scores()
    c = judge_comparison(baseline_ratings(t.tolist(), p.tolist(), {"rater_1": r1.tolist(), "rater_2": r2.tolist()},
                                          ORDER))
    machine, humans = c["rows"]
    assert (machine["first"], machine["second"], humans["first"], humans["second"]) == \
        ("machine", "resolved", "rater_1", "rater_2")
    q_m = cohen_kappa_score(p, t, weights="quadratic", labels=ORDER)   # scikit-learn's weighted kappa
    q_h = cohen_kappa_score(r1, r2, weights="quadratic", labels=ORDER)
    assert machine["weighted_kappa"] == pytest.approx(q_m, abs=1e-12)
    assert humans["weighted_kappa"] == pytest.approx(q_h, abs=1e-12)
    assert c["delta"]["weighted_kappa"] == pytest.approx(q_m - q_h, abs=1e-12)
    assert machine["agreement"] == pytest.approx(float(np.mean(p == t)))
    assert humans["adjacent"] == pytest.approx(float(np.mean(np.abs(r1 - r2) <= 1)))


def test_three_raters_average_the_three_pairs() -> None:
    t, p, r1, r2 = _scores()
    r3 = np.roll(r1, 7)
    c = judge_comparison(baseline_ratings(t, p, {"a": r1, "b": r2, "c": r3}, ORDER))
    pairs = [(r1, r2), (r1, r3), (r2, r3)]
    mean_h = np.mean([cohen_kappa_score(x, y, weights="quadratic", labels=ORDER) for x, y in pairs])
    q_m = cohen_kappa_score(p, t, weights="quadratic", labels=ORDER)
    assert c["delta"]["weighted_kappa"] == pytest.approx(q_m - mean_h, abs=1e-12)


def test_the_interval_of_the_degradation_is_paired_and_clusters_resample_whole_schools() -> None:
    t, p, r1, r2 = _scores(300)
    jr = baseline_ratings(t, p, {"r1": r1, "r2": r2}, ORDER)
    schools = np.repeat(np.arange(30), 10)
    bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=300, seed=1, groups=schools)
    d = bs["delta_weighted_kappa"]
    assert d["low"] <= d["estimate"] <= d["high"]
    # paired: the degradation's interval is narrower than the two sides' intervals would allow if drawn apart
    width = lambda k: bs[k]["high"] - bs[k]["low"]  # noqa: E731
    assert width("delta_weighted_kappa") < width("weighted_kappa#0") + width("weighted_kappa#1")


def test_a_score_outside_the_classes_is_one_sentence() -> None:
    with pytest.raises(Exception, match="is not one of the classes"):
        baseline_ratings([1, 2], [1, 2], {"r1": [1, 7], "r2": [1, 2]}, ORDER)


@pytest.mark.parametrize("bad,why", [(["r1"], "at least two"), (["r1", "r1"], "each given once"),
                                     (["school", "r2"], "group or a subgroup")])
def test_rater_columns_are_checked(bad, why) -> None:
    with pytest.raises(ValueError, match=why):
        Answers(**{**BASE, "group": "school", "rater_columns": bad})
