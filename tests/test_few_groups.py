"""Few resampled groups: the methods text says the interval runs narrow, with the count (readers of a ten-speaker
and a 22-record study: "a BCa interval from 10 clusters is unreliable … say how many speakers there are").

The threshold, :data:`advisor.report._methods_intervals.FEW_GROUPS`, is measured in benchmarks/bench_few_groups.py
(its table in benchmarks/README.md); these tests check only what the text says on which side of it, never coverage.
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
    assert ("With only 9 speakers, intervals from resampled speakers tend to be too narrow and are approximate "
            "(Cameron et al. 2008).") in text, text
    assert "Cameron, A. C., Gelbach, J. B., & Miller, D. L. (2008)" in md
    # the paragraph keeps the rules tests/test_methods_prose.py checks
    assert 60 <= len(words(text)) <= 220 and max_depth(text) <= 1 and repeated_ngram(text) is None, text
    assert not [s for s in sentences(text) if len(words(s)) > 40], text


@pytest.mark.parametrize("groups", [FEW_GROUPS, 200])
def test_enough_speakers_are_not_flagged(tmp_path, groups):
    md = _methods(tmp_path, groups)
    assert "too narrow" not in md and "Cameron" not in md
    assert f"{groups} speakers, not of single utterances" in md  # the count is still said, with the unit


def test_one_speaker_fewer_than_the_threshold_is_flagged(tmp_path):
    assert f"With only {FEW_GROUPS - 1} speakers" in _methods(tmp_path, FEW_GROUPS - 1)


def test_before_data_nothing_is_said(tmp_path):
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS, encoding="utf-8")
    md = methods_paragraph(answers, "md", seed=7)
    assert "speakers, not of single utterances" in md  # the unit is named, its count unknown
    assert "too narrow" not in md and "Cameron" not in md
