"""Resampled groups: the intervals are the delete-one-group jackknife's t intervals on G − 1 degrees of freedom, and
with few groups the methods text says they are approximate, with the count (readers of a ten-speaker and a 22-record
study: "a BCa interval from 10 clusters does not have nominal coverage … use a t-interval … say how many speakers").

The method and the threshold, :data:`advisor.report._methods_intervals.FEW_GROUPS`, are measured in
benchmarks/bench_few_groups.py and bench_few_groups_methods.py (their tables in benchmarks/README.md); these tests
check what the text says on which side of the threshold and what the intervals are, never coverage.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor.report import build_report, methods_paragraph
from advisor.report._methods_intervals import FEW_GROUPS
from advisor.report._render import render_methods
from test_methods_prose import evaluation_of, max_depth, repeated_ngram, sentences, words

ANSWERS = "task: multiclass\nitem_name: utterance\ngroup: speaker_id\n"


def _methods(tmp_path: Path, groups: int) -> str:
    """The report's methods text for a 4-class task whose utterances come from ``groups`` speakers."""
    rng = np.random.default_rng(groups)
    size = rng.integers(4, 10, groups)
    g = np.repeat(np.arange(groups), size)
    y = rng.integers(0, 4, g.size)
    pred = np.where(rng.random(g.size) < 0.7, y, (y + 1) % 4)
    data = tmp_path / "utterances.csv"
    data.write_text("speaker_id,y_true,y_pred\n" + "".join(f"s{a},{b},{c}\n" for a, b, c in zip(g, y, pred)),
                    encoding="utf-8")
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS, encoding="utf-8")
    ctx = build_report(answers, advisor.load(data, group="speaker_id"), bootstrap=200, seed=3)
    assert ctx.intervals.groups == groups
    return render_methods(ctx, "md")


def test_nine_speakers_are_said_with_their_count_and_source(tmp_path):
    md = _methods(tmp_path, 9)
    text = evaluation_of(md)
    # the unit left out says what is resampled (shortened so a shared task's per-class promise keeps its room)
    assert ("Intervals are 95% jackknife t intervals with 8 degrees of freedom that leave out one of the 9 speakers "
            "at a time (Cameron & Miller 2015).") in text, text
    assert "With only 9 speakers, these intervals are approximate." in text, text
    assert "Cameron, A. C., & Miller, D. L. (2015)" in md and "Gelbach" not in md
    assert "seed" not in text  # nothing is drawn for a jackknife interval
    # the paragraph keeps the rules tests/test_methods_prose.py checks
    assert 60 <= len(words(text)) <= 220 and max_depth(text) <= 1 and repeated_ngram(text) is None, text
    assert not [s for s in sentences(text) if len(words(s)) > 40], text


@pytest.mark.parametrize("groups", [FEW_GROUPS, 200])
def test_enough_speakers_are_not_flagged(tmp_path, groups):
    md = _methods(tmp_path, groups)
    assert "approximate" not in md and "Gelbach" not in md
    assert f"{groups - 1} degrees of freedom that leave out one of the {groups} speakers at a time" in md


def test_one_speaker_fewer_than_the_threshold_is_flagged(tmp_path):
    assert f"With only {FEW_GROUPS - 1} speakers" in _methods(tmp_path, FEW_GROUPS - 1)


def test_before_data_the_rule_is_said_without_a_count(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS, encoding="utf-8")
    md = methods_paragraph(answers, "md", seed=7)
    text = evaluation_of(md)
    assert ("Intervals are 95% jackknife t intervals that leave out one speaker at a time (Cameron & Miller "
            "2015).") in text, text
    assert "approximate" not in md and "resample" not in text


@pytest.mark.parametrize("groups", [3, 5, 10, 22, 60])
def test_every_interval_contains_its_estimate(groups):
    """The jackknife's t interval is symmetric around the estimate (clipped to the metric's range), so it contains it;
    so does each difference's."""
    rng = np.random.default_rng(100 + groups)
    for _ in range(5):
        g = np.repeat(np.arange(groups), rng.integers(5, 60, groups))
        y = rng.integers(0, 4, g.size)
        a = np.where(rng.random(g.size) < rng.uniform(0.3, 0.9), y, (y + 1) % 4)
        b = np.where(rng.random(g.size) < 0.6, y, rng.integers(0, 4, g.size))
        c = advisor.compare_systems(y, {"a": a, "b": b}, n_resamples=200, seed=1, groups=g,
                                    metrics=["accuracy", "balanced_accuracy", "macro_f1", "mcc"], labels=[0, 1, 2, 3])
        for mc in c.metrics.values():
            for s in mc.systems.values():
                assert s.method == "jackknife_t" and s.low <= s.estimate <= s.high, s
            for pair in mc.pairs:
                d = pair.difference
                assert d.method == "jackknife_t" and d.low <= d.estimate <= d.high, d
                assert pair.test == "jackknife t test"


def test_the_jackknife_interval_is_the_textbook_one():
    """θ̂ ± t_{0.975, G−1} · √((G − 1)/G · Σ (θ₍g₎ − θ̄)²), θ₍g₎ the accuracy without group g, computed by hand."""
    from scipy import stats

    rng = np.random.default_rng(5)
    groups = 7
    g = np.repeat(np.arange(groups), rng.integers(10, 40, groups))
    y = rng.integers(0, 3, g.size)
    pred = np.where(rng.random(g.size) < 0.7, y, (y + 1) % 3)
    right = y == pred
    est = right.mean()
    left = np.array([right[g != j].mean() for j in range(groups)])
    se = np.sqrt((groups - 1) / groups * np.sum((left - left.mean()) ** 2))
    half = stats.t.ppf(0.975, groups - 1) * se
    s = advisor.compare_systems(y, {"a": pred}, n_resamples=200, seed=0, groups=g,
                                metrics=["accuracy"]).metrics["accuracy"].systems["a"]
    assert s.estimate == pytest.approx(est) and s.low == pytest.approx(est - half) and s.high == pytest.approx(est + half)


def test_bca_when_asked_for_stays_bca():
    rng = np.random.default_rng(2)
    g = np.repeat(np.arange(8), 30)
    y = rng.integers(0, 2, g.size)
    pred = np.where(rng.random(g.size) < 0.8, y, 1 - y)
    c = advisor.compare_systems(y, {"a": pred}, n_resamples=300, seed=0, groups=g, method="bca",
                                metrics=["balanced_accuracy"])
    assert c.metrics["balanced_accuracy"].systems["a"].method == "bca"


def test_the_k_clause_says_only_what_can_happen(tmp_path):
    """Every class in every speaker's absence: balanced accuracy's k is the number of classes, and no clause says
    otherwise (the speech-emotion reader: "with speaker resampling all four classes are practically always present,
    so the clause is dead"). A class one speaker alone holds is named, since leaving that speaker out loses it."""
    md = _methods(tmp_path, 12)
    assert "counts only the classes present" not in md and "in each resample" not in md
    assert "Here $k = 4$." in md, md  # the number of classes, said once where the mean's formula reads it
    rng = np.random.default_rng(4)
    g = np.repeat(np.arange(12), 20)
    y = rng.integers(0, 3, g.size)
    y[g == 0] = 3  # class 3: speaker s0's utterances only
    pred = np.where(rng.random(g.size) < 0.7, y, (y + 1) % 4)
    data = tmp_path / "lone.csv"
    data.write_text("speaker_id,y_true,y_pred\n" + "".join(f"s{a},{b},{c}\n" for a, b, c in zip(g, y, pred)),
                    encoding="utf-8")
    answers = tmp_path / "answers.yaml"
    ctx = build_report(answers, advisor.load(data, group="speaker_id"), bootstrap=200, seed=3)
    md = render_methods(ctx, "md")
    assert ctx.intervals.one_group_classes == ["3"]
    # k is the number of classes, fixed, and the one replicate that loses a class is named (the blind readers: "fix
    # the class set in advance"; the jackknife's replicate without speaker s0 has no class 3, and the text says so)
    assert ("Here $k = 4$; one speaker alone holds class “3”, which drops from the mean when that speaker is left "
            "out") in md, md
    assert "counts only" not in md


# ----------------------------------------------------------------------------------------------
# Cross-validation folds (the speech-emotion reader: "UAR pooled across the five folds, or averaged over folds?")
# ----------------------------------------------------------------------------------------------
def _sessions(tmp_path: Path, folds: str) -> tuple[Path, Path, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    g = np.repeat(np.arange(10), rng.integers(20, 60, 10))
    session = g // 2 + 1  # five sessions of two speakers, left out one at a time
    y = rng.integers(0, 4, g.size)
    pred = np.where(rng.random(g.size) < 0.7, y, (y + 1) % 4)
    data = tmp_path / "cv.csv"
    data.write_text("speaker_id,session,y_true,y_pred\n" + "".join(
        f"s{a},S{b},{c},{d}\n" for a, b, c, d in zip(g, session, y, pred)), encoding="utf-8")
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS + f"folds: {folds}\n", encoding="utf-8")
    return answers, data, session if folds == "session" else g, y, pred


def test_before_data_the_folds_are_said_pooled(tmp_path):
    answers, *_ = _sessions(tmp_path, "session")
    text = evaluation_of(methods_paragraph(answers, "md", seed=7))
    assert ("Each figure is computed once on the utterances of all sessions pooled, not averaged over them; the mean "
            "and standard deviation of balanced accuracy over the sessions, each computed alone, are given beside "
            "it.") in text, text


@pytest.mark.parametrize("folds", ["session", "speaker_id"])
def test_with_data_each_folds_lead_value_and_their_mean_and_sd(tmp_path, folds):
    """Each fold's balanced accuracy on its own items, by hand; the paragraph gives their mean ± SD beside the pooled
    figure. The folds are a column read with the predictions, or the group column itself (leave one speaker out)."""
    answers, data, fold, y, pred = _sessions(tmp_path, folds)
    ctx = build_report(answers, advisor.load(data, group="speaker_id", by=["session"] if folds == "session" else None),
                       bootstrap=200, seed=3)
    got = ctx.intervals.fold_values[next(iter(ctx.intervals.fold_values))]
    want = [np.mean([np.mean(pred[(fold == f) & (y == c)] == c) for c in range(4)]) for f in np.unique(fold)]
    assert ctx.intervals.fold_metric == "balanced_accuracy"
    assert list(got.values()) == pytest.approx(want)
    mean, sd = np.mean(want), np.std(want, ddof=1)
    noun = "sessions" if folds == "session" else "speakers"
    text = evaluation_of(render_methods(ctx, "md"))
    assert (f"Each figure is computed once on the utterances of all {noun} pooled, not averaged over them; averaged "
            f"over the {len(want)} {noun} instead, balanced accuracy is {mean:.2f} ± {sd:.2f} (mean ± SD).") in text, text
    assert 60 <= len(words(text)) <= 220 and not [s for s in sentences(text) if len(words(s)) > 40], text


def test_a_folds_column_not_read_is_refused_in_one_sentence(tmp_path):
    answers, data, *_ = _sessions(tmp_path, "session")
    with pytest.raises(advisor.InputError, match="the folds column 'session' was not read with the predictions"):
        build_report(answers, advisor.load(data, group="speaker_id"), bootstrap=200, seed=3)


def test_figures_of_scores_keep_bca_over_units_with_its_caveat(tmp_path):
    """AUC's intervals come from the item bootstrap over units, which has no jackknife t interval: then every figure
    keeps BCa over the units (one method in the paragraph), and few units are said to give too narrow intervals."""
    rng = np.random.default_rng(8)
    g = np.repeat(np.arange(9), 30)
    y = rng.integers(0, 2, g.size)
    p = np.clip(0.3 + 0.4 * y + rng.normal(0, 0.25, g.size), 0.01, 0.99)
    data = tmp_path / "scores.csv"
    data.write_text("patient_id,y_true,y_pred,p_0,p_1\n" + "".join(
        f"q{a},{b},{int(c > 0.5)},{1 - c:.4f},{c:.4f}\n" for a, b, c in zip(g, y, p)), encoding="utf-8")
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\npositive_class: 1\noutputs: probabilities\nitem_name: image\ngroup: patient_id\n",
                       encoding="utf-8")
    ctx = build_report(answers, advisor.load(data, group="patient_id"), bootstrap=200, seed=3)
    assert "jackknife_t" not in ctx.intervals.methods.values(), ctx.intervals.methods
    text = evaluation_of(render_methods(ctx, "md"))
    assert "BCa intervals from 200 bootstrap resamples of the 9 patients" in text, text
    assert "With only 9 patients, intervals from resampled patients tend to be too narrow" in text, text
