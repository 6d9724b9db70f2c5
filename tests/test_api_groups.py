"""Groups read with the files (``advisor.load(group=…)``) reach the score metrics' bootstrap through the Python API
as they do through the CLI (which passes the scores beside the data): the paragraph says "resamples of the patients",
so every interval resamples patients (a helper found the API's score intervals resampling single recordings)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

import advisor
from advisor.questionnaire import answers_from_mapping
from advisor.report import build_report

ANSWERS = {"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos", "outputs": "probabilities",
           "abstention": True, "target_risk": 0.1, "item_name": "recording"}


def _file(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    path = tmp_path / "p.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["patient_id", "y_true", "y_pred", "p_neg", "p_pos"])
        for g in range(30):  # a strong patient effect: grouped intervals are much wider than single-item ones
            eff = rng.normal(0, 1.5)
            for _ in range(20):
                y = int(rng.random() < 0.4)
                s = 1 / (1 + np.exp(-(2 * (y - 0.5) * 1.2 + eff + rng.normal(0, 1))))
                w.writerow([f"g{g}", "pos" if y else "neg", "pos" if s > 0.5 else "neg", round(1 - s, 4), round(s, 4)])
    return path


def test_the_api_resamples_the_groups_for_score_metrics_as_the_cli_does(tmp_path: Path) -> None:
    path = _file(tmp_path)
    answers = answers_from_mapping(ANSWERS)
    grouped = advisor.load([path], group="patient_id")
    api = build_report(answers, grouped, bootstrap=500, seed=1)
    cli = build_report(answers, grouped, scores=grouped.scores, bootstrap=500, seed=1)  # the CLI's call
    single = build_report(answers, advisor.load([path]), bootstrap=500, seed=1)
    # the cut frozen on a calibration half: halves of the patients, as the CLI's (of the recordings without groups)
    assert api.scores.frozen_cut == cli.scores.frozen_cut and api.scores.selective_split == cli.scores.selective_split
    assert api.scores.frozen_cut["p"]["test"]["units"] == 15 and single.scores.frozen_cut["p"]["test"]["units"] == 300
    for metric in ("log_loss", "brier", "aurc"):
        a, c, s = (ctx.systems[0].intervals[metric] for ctx in (api, cli, single))
        assert (a.low, a.high) == (c.low, c.high), metric
        assert a.high - a.low > s.high - s.low, metric  # patients, not recordings
