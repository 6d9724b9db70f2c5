"""Log loss reports how many items got probability 0 for their true class (issue 10, item 4)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from advisor.engine._probabilities import LOG_LOSS_EPS, ProbabilityAccumulator
from advisor.io import read_predictions

ROOT = Path(__file__).resolve().parents[1]


def _zero_by_hand(path: Path) -> int:
    """Rows whose own p_<true label> column is 0 (or below ε), read with the csv module."""
    with path.open(newline="", encoding="utf-8") as f:
        return sum(float(row[f"p_{row['y_true']}"]) < LOG_LOSS_EPS for row in csv.DictReader(f))


def test_reader_counts_zero_probability_items():
    files = [ROOT / "examples/digits/logreg.csv", ROOT / "examples/digits/tree.csv"]
    ps = read_predictions(files)
    assert ps.log_loss_zero == {"logreg": _zero_by_hand(files[0]), "tree": _zero_by_hand(files[1])}
    assert ps.log_loss_zero["tree"] > 0


def test_accumulator_counts_below_epsilon_across_chunks():
    acc = ProbabilityAccumulator(3)
    acc.update(np.array([0, 1]), np.array([[0.0, 0.5, 0.5], [0.2, 0.8, 0.0]]))
    acc.update(np.array([2]), np.array([[0.5, 0.5, 1e-20]]))
    assert acc.zero == 2  # the exact 0 and the 1e-20 that clipping raises to ε; 0.0 for a wrong class is not counted


def test_report_context_and_methods_carry_the_count(tmp_path):
    from advisor.report import build_report
    from advisor.report._render import render_methods

    files = [ROOT / "examples/digits/logreg.csv", ROOT / "examples/digits/tree.csv"]
    ctx = build_report(ROOT / "examples/report/digits_answers.yaml", read_predictions(files), bootstrap=0)
    assert {s.name: s.log_loss_zero for s in ctx.systems} == {"logreg": 0, "tree": _zero_by_hand(files[1])}
    for fmt in ("md", "tex", "html"):
        after = render_methods(ctx, fmt).split("clips each probability")[1]
        assert f"logreg 0, tree {_zero_by_hand(files[1])}" in after, fmt
    # the context re-renders from JSON with the counts
    from advisor.report._models import ReportContext

    again = ReportContext.model_validate_json(ctx.model_dump_json())
    assert again.systems[1].log_loss_zero == ctx.systems[1].log_loss_zero


def test_dataframe_path_counts_the_same_in_sql():
    """The DuckDB scan of a DataFrame (SQL, not the accumulator) gives the same count."""
    import pandas as pd

    from advisor.io import read_frame

    path = ROOT / "examples/digits/tree.csv"
    df = pd.read_csv(path)
    ps = read_frame(df, systems="y_pred", proba_cols="auto")
    assert ps.log_loss_zero == {"y_pred": _zero_by_hand(path)}
