"""Long runs are estimated and said before they run on, and shown while they run (issue 25 item 12).

Before: ``compare --bootstrap 1000000`` ran 23 minutes without a word. Now one mechanism
(``advisor/cli/_progress.py``) times each long job over its first part and, when the estimate passes ~10 s,
says so in one sentence on standard error — with the usual size and its time — and draws a Rich bar on a
terminal only (never with ``--json``); ``--quiet`` turns off both. These tests never measure time: the
jobs' clock is replaced by one that advances a fixed step per reading.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from advisor.cli import _progress
from conftest import write_table


class _Clock:
    """A clock that advances ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.t, self.step = 0.0, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def _pair(tmp_path: Path, n: int = 3_000) -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, n)
    out = []
    for name, right in (("a", 0.7), ("b", 0.6)):
        pred = np.where(rng.random(n) < right, y, rng.integers(0, 3, n))
        out.append(write_table(tmp_path / f"{name}.csv", {"y_true": y.tolist(), "y_pred": pred.tolist()}))
    return out[0], out[1]


def test_durations_read_as_people_say_them() -> None:
    assert [_progress.duration(s) for s in (0.2, 7, 89, 240, 7200)] == \
        ["under 1 s", "7 s", "89 s", "4 minutes", "2 hours"]


def test_a_long_job_is_said_once_with_the_usual_size(monkeypatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(_progress, "_clock", _Clock(1.0))
    with _progress.reporting(say=said.append):
        with _progress.job("paired bootstrap", unit="resamples", option="--bootstrap", value=1_000_000,
                           usual=2000) as progress:
            assert progress is not None
            for done in range(10_000, 1_000_001, 10_000):
                progress(done, 1_000_000)
    assert len(said) == 1
    assert said[0].startswith("paired bootstrap: this will take about ")
    assert "(1,000,000 resamples); --bootstrap 2000 takes under 1 s." in said[0]


def test_work_before_the_first_part_does_not_inflate_the_estimate(monkeypatch) -> None:
    """A report read and evaluated its inputs for 30 s, then its 200 resamples took 0.1 s each chunk: the rate
    is measured between updates, so nothing is said (it once said "about 40 minutes" and took 44 s)."""
    said: list[str] = []
    clock = _Clock(0.0)
    monkeypatch.setattr(_progress, "_clock", clock)
    with _progress.reporting(say=said.append):
        with _progress.job("bootstrap of the report", unit="resamples") as progress:
            clock.t += 30.0  # reading, point estimates
            for done in range(10, 201, 10):
                clock.t += 0.1
                progress(done, 200)
    assert said == []
    # the same set-up before a job that is long: said, with the time still to go (18 chunks of 4 s)
    with _progress.reporting(say=said.append):
        with _progress.job("bootstrap of the report", unit="resamples") as progress:
            clock.t += 30.0
            for done in range(10, 201, 10):
                clock.t += 4.0
                progress(done, 200)
    assert said == ["bootstrap of the report: this will take about 72 s (200 resamples)."]


def test_a_short_job_is_not_said(monkeypatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(_progress, "_clock", _Clock(0.01))
    with _progress.reporting(say=said.append), _progress.job("bootstrap", unit="resamples") as progress:
        for done in range(100, 2001, 100):
            progress(done, 2000)
    assert said == []


def test_outside_a_command_nothing_is_timed_or_shown() -> None:
    with _progress.job("bootstrap") as progress:
        assert progress is None
    with _progress.reporting(quiet=True), _progress.job("bootstrap") as progress:
        assert progress is None  # --quiet: no sentence, no bar


def test_the_bar_is_for_terminals_without_json(monkeypatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    with _progress.reporting() as rep:
        assert rep.bar
    with _progress.reporting(as_json=True) as rep:
        assert not rep.bar and rep.say is not None  # the sentence stays (on stderr), the bar goes
    with _progress.reporting(quiet=True) as rep:
        assert not rep.bar and rep.say is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    with _progress.reporting() as rep:
        assert not rep.bar  # a pipe


def test_compare_says_how_long_before_it_runs_on(tmp_path: Path, cli, monkeypatch) -> None:
    monkeypatch.setattr(_progress, "_clock", _Clock(5.0))  # every chunk of resamples "takes" 5 s
    a, b = _pair(tmp_path)
    res = cli("compare", a, b, "--bootstrap", "200000", "--seed", "1", "--json")
    assert res.exit_code == 0, res.stderr
    json.loads(res.stdout)  # the JSON is untouched
    assert "paired bootstrap: this will take about" in res.stderr
    assert "(200,000 resamples); --bootstrap 2000 takes" in res.stderr
    quiet = cli("compare", a, b, "--bootstrap", "200000", "--seed", "1", "--json", "--quiet")
    assert quiet.exit_code == 0 and "this will take" not in quiet.stderr
    assert json.loads(quiet.stdout) == json.loads(res.stdout)  # said or not, the same results


def test_compute_report_and_audit_say_it_too(tmp_path: Path, cli, monkeypatch) -> None:
    monkeypatch.setattr(_progress, "_clock", _Clock(60.0))  # a chunk "takes" a minute
    a, b = _pair(tmp_path)
    res = cli("compute", a, "--bootstrap", "200000", "--seed", "1")
    assert res.exit_code == 0, res.stderr
    assert "bootstrap of a: this will take about" in res.stderr
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: multiclass\n")
    res = cli("report", "--answers", answers, a, b, "--bootstrap", "100000", "--seed", "1", "-o", tmp_path / "r.md")
    assert res.exit_code == 0, res.stderr
    assert "bootstrap of the report: this will take about" in res.stderr and "(100,000 resamples)" in res.stderr
    res = cli("audit", "--budget", "10", "--metric", "mcc", "--json")
    assert res.exit_code in (0, 1), res.stderr
    assert "audit: this will take about" in res.stderr
    json.loads(res.stdout)


def test_a_long_read_is_said(monkeypatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(_progress, "_clock", _Clock(2.0))
    ticks = iter([-1.0, 2.0, 5.0, 9.0, 30.0, 60.0] + [99.0] * 100)
    with _progress.reporting(say=said.append):
        with _progress.watch("reading big.csv (3.2 GB)", lambda: next(ticks)):
            import time

            time.sleep(1.0)  # the poller reads the progress five times a second
    assert said and said[0].startswith("reading big.csv (3.2 GB): this will take about")


@pytest.mark.parametrize("command", ["compute", "compare", "report", "audit"])
def test_every_long_command_takes_quiet(cli, command: str) -> None:
    res = cli(command, "--help")
    assert res.exit_code == 0 and "--quiet" in res.stdout


def test_the_bootstraps_of_scores_and_label_structures_say_it_too(tmp_path: Path, cli, monkeypatch) -> None:
    """The paired item bootstrap of score metrics and the item bootstrap of top-k (any structured input) are
    long jobs like the others."""
    monkeypatch.setattr(_progress, "_clock", _Clock(60.0))
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 2, n)
    paths = []
    for name in ("a", "b"):
        s = y + rng.normal(0, 1, n)
        paths.append(write_table(tmp_path / f"{name}.csv", {"y_true": y.tolist(), "y_pred": (s > 0.5).astype(int).tolist(),
                                                              "score": s.tolist()}))
    res = cli("compare", *paths, "--positive", "1", "--bootstrap", "5000", "--seed", "1", "--json")
    assert res.exit_code == 0, res.stderr
    assert "paired bootstrap of the scores: this will take about" in res.stderr and "(5,000 resamples)" in res.stderr
    n = 2_000  # 2,000 resamples a chunk: 10,000 resamples are five chunks
    p = rng.dirichlet(np.ones(4), size=n)
    truth = rng.integers(0, 4, n)
    top = []
    for name in ("a", "b"):
        top.append(write_table(tmp_path / f"top_{name}.csv", {"y_true": [f"c{t}" for t in truth],
                                                              **{f"p_c{j}": p[:, j].tolist() for j in range(4)}}))
    res = cli("compute", top[0], "--top-k", "2", "--bootstrap", "10000", "--seed", "1", "--json")
    assert res.exit_code == 0, res.stderr
    assert "bootstrap of top_a: this will take about" in res.stderr
    res = cli("compare", *top, "--top-k", "2", "--bootstrap", "10000", "--seed", "1", "--json", "--quiet")
    assert res.exit_code == 0 and "this will take" not in res.stderr
    res = cli("compare", *top, "--top-k", "2", "--bootstrap", "10000", "--seed", "1", "--json")
    assert res.exit_code == 0 and "paired bootstrap: this will take about" in res.stderr
