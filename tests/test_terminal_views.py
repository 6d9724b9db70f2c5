"""What the terminal shows at 80 columns: explain rendered (not raw Markdown), metrics that fit with
its abbreviations explained, compare as one table per metric group with systems as columns.

Rich's exact layout is not asserted — only widths, the absence of raw markup, and content."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor.catalogue import get_catalogue, resolve_metric
from advisor.catalogue._render import LONG, SHORT
from advisor.catalogue._terminal import METRIC_GROUPS, explain_terminal, group_metrics, metrics_table
from advisor.cli import app

SCRIPT = Path(sys.executable).parent / "advisor"


def _runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "80", "LINES": "40"})


def _width(text: str) -> int:
    from rich.cells import cell_len

    return max((cell_len(line.rstrip()) for line in text.splitlines()), default=0)


def test_explain_text_is_rendered_for_the_terminal() -> None:
    res = _runner().invoke(app, ["explain", "macro F1", "--format", "text"])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "$$" not in out and "**" not in out and "\n#" not in out  # no raw Markdown or math delimiters
    assert "\\frac{1}{k}" in out  # the formula, as LaTeX source in a code block
    assert "ambiguous" in out and "macro_f1" in out and "f1_of_averages" in out
    assert _width(out) <= 80
    assert len(out.splitlines()) < 197  # the raw Markdown was 197 lines at 80 columns


def test_explain_defaults_to_text_on_a_terminal_and_to_markdown_in_a_pipe() -> None:
    res = _runner().invoke(app, ["explain", "kappa"])
    assert res.exit_code == 0 and "$$" in res.stdout  # piped (the runner is no TTY): Markdown as before
    pexpect = pytest.importorskip("pexpect")
    if not SCRIPT.exists():
        pytest.skip("console script not installed")
    env = {**os.environ, "COLUMNS": "80", "LINES": "40", "TERM": "dumb"}
    out = pexpect.run(f"{SCRIPT} explain kappa", env=env, encoding="utf-8", timeout=60)
    assert "Cohen's kappa" in out and "$$" not in out and "**" not in out


def test_explain_terminal_markdown_splits_long_formulas_and_shows_the_query_as_code() -> None:
    md = explain_terminal(resolve_metric("macro F1"))
    assert "```latex" in md and "$$" not in md
    assert "`macro F1` is ambiguous" in md
    assert "\\quad" not in md  # one definition a line


def test_metrics_fits_80_columns_and_explains_every_abbreviation() -> None:
    res = _runner().invoke(app, ["metrics"])
    assert res.exit_code == 0
    out = res.stdout
    assert _width(out) <= 80, _width(out)
    flat = " ".join(out.split())
    for pid, short in SHORT.items():
        assert f"{short} {LONG[pid].split(' (')[0].lower()}" in flat, short
    assert metrics_table(get_catalogue(), 80) + "\n" == out


def test_compare_prints_one_table_per_group_with_systems_as_columns(tmp_path) -> None:
    rng = np.random.default_rng(1)
    y = rng.choice(["a", "b", "c"], 200)
    files = []
    for name, p in (("alpha", 0.8), ("beta", 0.6)):
        pred = np.where(rng.random(200) < p, y, "a")
        f = tmp_path / f"{name}.csv"
        f.write_text("y_true,y_pred\n" + "".join(f"{t},{q}\n" for t, q in zip(y, pred)), encoding="utf-8")
        files.append(str(f))
    res = _runner().invoke(app, ["compare", *files, "--bootstrap", "200", "--seed", "1"])
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert _width(out) <= 80
    assert len(out.splitlines()) < 100  # was 179 lines for two systems
    titles = [g for g in METRIC_GROUPS if any(line.strip() == g for line in out.splitlines())]
    assert titles == ["overall agreement", "averages over classes"]
    header = next(line for line in out.splitlines() if line.strip().startswith("metric"))
    assert "alpha" in header and "beta" in header  # systems are columns
    assert out.count("mcc") >= 1 and "alpha − beta" in " ".join(out.split())


def test_every_compared_metric_lands_in_one_group() -> None:
    from advisor.engine import METRICS

    groups = group_metrics(METRICS)
    assert sorted(m for ids in groups.values() for m in ids) == sorted(METRICS)
    assert all(m in METRICS for ids in METRIC_GROUPS.values() for m in ids)  # no stale ids
    # metrics other branches add land under "other" until they are given a group
