"""A report on 100,000 classes (issue 25 item 11).

Before: ``advisor report`` on 100,000 classes failed after 33 s with "the dense view of this
100000×100000 matrix would need 80.0 GB …; use .cells …" — an API hint a command-line user cannot act on —
because the most frequent confusions were read from the dense matrix. They now come from the non-zero cells
(``advisor/report/_confusions.py``); every class's values go to ``<stem>-per-class.csv`` beside the report and
its figures summarise (sorted per-class recall), with no k × k anything. The whole report path is also run
with the engine's dense-view limit lowered, so any dense use at all fails the test at a small size.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from advisor.engine import _confusion
from conftest import write_table


def _systems(tmp_path: Path, k: int, n: int) -> list[Path]:
    rng = np.random.default_rng(0)
    y = np.arange(n) % k
    out = []
    for name, right in (("a", 0.7), ("b", 0.8)):
        pred = np.where(rng.random(n) < right, y, rng.integers(0, k, n))
        out.append(write_table(tmp_path / f"{name}.csv", {"y_true": [f"c{i}" for i in y],
                                                            "y_pred": [f"c{i}" for i in pred]}))
    return out


def _answers(tmp_path: Path) -> Path:
    path = tmp_path / "a.yaml"
    path.write_text("task: multiclass\n")
    return path


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_no_dense_matrix_anywhere_in_a_many_class_report(tmp_path: Path, cli, monkeypatch, fmt: str) -> None:
    """2,000 classes with the dense view limited to 10,000 cells: a k × k array anywhere fails the report."""
    monkeypatch.setattr(_confusion, "_MAX_DENSE_VIEW", 10_000)
    a, b = _systems(tmp_path, 2_000, 20_000)
    out = tmp_path / "out" / f"r.{fmt}"
    res = cli("report", "--answers", _answers(tmp_path), a, b, "--bootstrap", "200", "--seed", "1", "-o", out)
    assert res.exit_code == 0, res.stderr
    assert "dense" not in res.stderr and ".cells" not in res.stderr
    with (tmp_path / "out" / "r-per-class.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * 2_000


def test_a_report_on_100000_classes(tmp_path: Path, cli) -> None:
    a, b = _systems(tmp_path, 100_000, 300_000)
    out = tmp_path / "out" / "r.md"
    res = cli("report", "--answers", _answers(tmp_path), a, b, "--bootstrap", "200", "--seed", "1", "-o", out)
    assert res.exit_code == 0, res.stderr
    text = out.read_text()
    assert "100000 classes" in text or "100,000 classes" in text
    with (tmp_path / "out" / "r-per-class.csv").open() as fh:
        assert sum(1 for _ in fh) == 1 + 2 * 100_000  # every class of both systems, nothing lost
    figures = sorted(p.name for p in (tmp_path / "out" / "r-figures").iterdir())
    assert "recall.svg" in figures and not any("confusion" in f for f in figures)
    for svg in (tmp_path / "out" / "r-figures").iterdir():
        assert svg.stat().st_size < 2_000_000  # figures summarise: no mark per class pair
