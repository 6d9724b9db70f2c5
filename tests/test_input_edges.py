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
        advisor.bootstrap([[0.5, 0.1], [0.1, 0.3]], n_resamples=200, seed=0)


def test_bootstrap_still_accepts_two_items() -> None:
    out = advisor.bootstrap([[1, 0], [0, 1]], n_resamples=200, seed=0, metrics=["accuracy"])
    assert 0.0 <= out["accuracy"]["low"] <= out["accuracy"]["high"] <= 1.0


def test_compare_needs_two_systems(tmp_path) -> None:
    f = tmp_path / "only.csv"
    f.write_text("y_true,y_pred\na,a\nb,a\na,b\nb,b\n")
    res = runner.invoke(app, ["compare", str(f), "--bootstrap", "200"])
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


def test_compute_table_shows_the_per_class_results(tmp_path) -> None:
    # the README promises a per-class table; it used to appear only with --json
    f = tmp_path / "sys.csv"
    f.write_text("y_true,y_pred\nneg,neg\nneg,pos\npos,pos\npos,pos\npos,neg\n")
    res = runner.invoke(app, ["compute", str(f), "--positive", "pos"])
    assert res.exit_code == 0
    assert "per class" in res.stdout and "specificity" in res.stdout
    per = advisor.per_class(advisor.read_predictions([f]).systems["sys"])
    assert f"{per['pos']['recall']:.4f}" in res.stdout and f"{per['neg']['precision']:.4f}" in res.stdout


def test_compare_table_shows_paired_differences_and_a_readable_agreement(tmp_path) -> None:
    truth = "aabbccaabbcc"
    for name, pred in {"good": "aabbccabbbca", "weak": "abcabcabcabc", "mid": "aabbcaabcbcc"}.items():
        rows = ["y_true,y_pred"] + [f"{t},{p}" for t, p in zip(truth, pred)]
        (tmp_path / f"{name}.csv").write_text("\n".join(rows) + "\n")
    files = [str(tmp_path / f"{n}.csv") for n in ("good", "weak", "mid")]
    res = runner.invoke(app, ["compare", *files, "--bootstrap", "200", "--seed", "3"])
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())  # Rich wraps lines at the terminal width
    assert "good − weak" in text and "P(good better)" in text
    assert "least agreeing metric" in text  # > 8 metrics: a summary, not a 19-column matrix
    narrow = runner.invoke(app, ["compare", *files, "--bootstrap", "200", "--seed", "3", "--metrics", "accuracy,mcc"])
    assert narrow.exit_code == 0 and "Kendall τ_b above" in " ".join(narrow.stdout.split())
    two = runner.invoke(app, ["compare", *files[:2], "--bootstrap", "200", "--seed", "3"])
    assert two.exit_code == 0  # two systems: every coefficient is ±1, so only the note is printed
    assert "least agreeing" not in two.stdout and "single comparison" in " ".join(two.stdout.split())


def test_per_class_counts_print_in_full(tmp_path) -> None:
    f = tmp_path / "big.json"
    f.write_text(json.dumps({"labels": ["x", "y"], "matrix": [[1234567, 3], [5, 7654321]]}))
    res = runner.invoke(app, ["compute", "--matrix", str(f)])
    assert res.exit_code == 0
    assert "1234570" in res.stdout and "7654326" in res.stdout and "e+06" not in res.stdout
