"""Edge inputs found by exploratory testing: each gets one clear sentence instead of a silent oddity."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import advisor
from advisor import InputError
from advisor.cli import app

runner = CliRunner()


def test_bootstrap_refuses_a_matrix_of_proportions() -> None:
    # shares summing to 1 carry no sample size: resampling "one item" gave intervals that exclude
    # their own estimate (balanced accuracy 0.71 in [0, 0.5])
    with pytest.raises(InputError, match="at least 2 items"):
        advisor.bootstrap([[0.5, 0.1], [0.1, 0.3]], n_resamples=50, seed=0)


def test_bootstrap_still_accepts_two_items() -> None:
    out = advisor.bootstrap([[1, 0], [0, 1]], n_resamples=20, seed=0, metrics=["accuracy"])
    assert 0.0 <= out["accuracy"]["low"] <= out["accuracy"]["high"] <= 1.0


def test_compare_needs_two_systems(tmp_path) -> None:
    f = tmp_path / "only.csv"
    f.write_text("y_true,y_pred\na,a\nb,a\na,b\nb,b\n")
    res = runner.invoke(app, ["compare", str(f), "--bootstrap", "20"])
    assert res.exit_code == 2
    assert "at least two systems" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize(
    "doc, match",
    [
        ({"labels": "xy", "matrix": [[1, 0], [0, 1]]}, '"labels" must be a list'),
        ({"matrix": [[1, "2"], [0, 1]]}, "row 1, column 2"),
        ([[1, True], [0, 1]], "counts must be numbers"),
    ],
)
def test_matrix_json_is_not_coerced(tmp_path, doc, match) -> None:
    f = tmp_path / "m.json"
    f.write_text(json.dumps(doc))
    before = f.read_bytes()
    with pytest.raises(InputError, match=match):
        advisor.read_matrix(f)
    res = runner.invoke(app, ["compute", "--matrix", str(f)])
    assert res.exit_code == 2
    assert f.read_bytes() == before


def test_positive_on_a_multiclass_task_is_explained(tmp_path) -> None:
    f = tmp_path / "three.csv"
    f.write_text("y_true,y_pred\na,a\nb,b\nc,a\nc,c\n")
    res = runner.invoke(app, ["compute", str(f), "--positive", "c", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert "precision" not in data["metrics"]["three"]  # binary metrics need two classes
    assert any("per-class" in note for note in data["notes"])
