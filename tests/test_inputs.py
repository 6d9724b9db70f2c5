"""Loading a command's inputs once (``load_inputs``), the last-resort error handler, and the title of
``advisor compute``'s table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_table

from advisor import ConfusionMatrix, InputError
from advisor.io._readers import PredictionSet, load_inputs

M = {"labels": ["a", "b"], "matrix": [[5, 1], [2, 4]]}


def _matrix(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(M), encoding="utf-8")
    return path


# -- load_inputs ---------------------------------------------------------------------------------------
def test_prediction_files_alone_stay_paired(tmp_path: Path) -> None:
    f1 = write_table(tmp_path / "one.csv", {"y_true": ["a", "b", "b"], "y_pred": ["a", "b", "a"],
                                            "p_a": [0.9, 0.2, 0.6], "p_b": [0.1, 0.8, 0.4]})
    f2 = write_table(tmp_path / "two.csv", {"y_true": ["a", "b", "b"], "y_pred": ["b", "b", "a"]})
    got = load_inputs([f1, f2])
    assert isinstance(got.predictions, PredictionSet) and got.data is got.predictions
    assert list(got.systems) == ["one", "two"] and set(got.probabilities) == {"one"}
    assert got.systems["one"].counts.tolist() == [[1, 0], [1, 1]]


def test_mixed_inputs_are_one_mapping_with_unique_names(tmp_path: Path) -> None:
    f = write_table(tmp_path / "m.csv", {"y_true": ["a", "b", "b"], "y_pred": ["a", "b", "a"],
                                         "p_a": [0.9, 0.2, 0.6], "p_b": [0.1, 0.8, 0.4]})
    mat = _matrix(tmp_path / "m.json")
    (tmp_path / "c").mkdir()
    counts = write_table(tmp_path / "c" / "m.csv", {"true": ["a", "b"], "pred": ["a", "a"], "count": [3, 2]})
    got = load_inputs([f], [mat, mat], [counts])
    assert got.predictions is None and got.data is got.systems
    # one naming rule for every kind of file, read_predictions' own: the extension where a sibling shares
    # the stem, parent folders where stems repeat elsewhere, #2 for the same file given twice
    assert list(got.systems) == ["m.csv", "m.json", "m.json#2", "m"]
    assert all(isinstance(cm, ConfusionMatrix) for cm in got.systems.values())
    assert set(got.probabilities) == {"m.csv"}  # the prediction file keeps its probability scores
    assert got.systems["m"].counts.tolist() == [[3, 0], [2, 0]]


def test_matrices_with_one_stem_in_two_folders_are_told_apart(tmp_path: Path) -> None:
    got = load_inputs(matrix_files=[_matrix(tmp_path / "x" / "m.json"), _matrix(tmp_path / "y" / "m.json")])
    assert list(got.systems) == ["x/m", "y/m"]


def test_columns_default_by_kind_and_can_be_named(tmp_path: Path) -> None:
    f = write_table(tmp_path / "p.csv", {"gold": ["a", "b"], "guess": ["a", "a"]})
    c = write_table(tmp_path / "c.csv", {"gold": ["a", "b"], "guess": ["a", "a"], "n": [3, 2]})
    got = load_inputs([f], count_files=[c], true_col="gold", pred_col="guess", count_col="n")
    assert list(got.systems) == ["p", "c"]
    plain = write_table(tmp_path / "plain.csv", {"true": ["a", "b"], "pred": ["a", "a"], "count": [1, 1]})
    assert list(load_inputs(count_files=[plain]).systems) == ["plain"]


def test_nothing_to_load_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no input"):
        load_inputs()


def test_every_command_names_a_repeated_matrix_alike(cli, tmp_path: Path) -> None:
    mat = _matrix(tmp_path / "m.json")
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\n", encoding="utf-8")
    res = cli("compute", "--matrix", mat, "--matrix", mat, "--json")
    assert res.exit_code == 0, res.stderr
    assert list(json.loads(res.stdout)["metrics"]) == ["m", "m#2"]
    out = tmp_path / "r.json"
    res = cli("report", "--answers", answers, "--matrix", mat, "--matrix", mat, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["systems"] == ["m", "m#2"]
    res = cli("recommend", "--answers", answers, "--matrix", mat, "--matrix", mat, "--json")
    assert res.exit_code == 0, res.stderr


# -- the last-resort handler -------------------------------------------------------------------------
def _break_evaluate(monkeypatch: pytest.MonkeyPatch) -> None:
    import advisor.engine

    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(advisor.engine, "evaluate", boom)  # the CLI evaluates through the engine's public name


def test_an_internal_error_is_one_sentence_and_exit_1(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ADVISOR_DEBUG", raising=False)
    _break_evaluate(monkeypatch)
    res = cli("compute", "--matrix", _matrix(tmp_path / "m.json"))
    assert res.exit_code == 1, (res.stderr, res.exception)
    err = res.stderr
    assert err.startswith("error: internal error (RuntimeError: boom)") and err.count("\n") == 1, err
    assert "ADVISOR_DEBUG=1" in err and "report" in err and "Traceback" not in err
    assert isinstance(res.exception, SystemExit)


def test_advisor_debug_shows_the_exception(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADVISOR_DEBUG", "1")
    _break_evaluate(monkeypatch)
    res = cli("compute", "--matrix", _matrix(tmp_path / "m.json"))
    assert res.exit_code == 1
    assert isinstance(res.exception, RuntimeError) and str(res.exception) == "boom"
    assert "internal error" not in res.stderr


# -- compute's table title -----------------------------------------------------------------------------
def test_compute_title_says_one_item_and_quotes_labels_with_commas(cli, tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": ["a, b"], "y_pred": ["c d"]})
    res = cli("compute", f)
    assert res.exit_code == 0, res.stderr
    assert "1 items" not in res.stdout and "n = 1 item " in res.stdout
    assert "'a, b'" in res.stdout and "'c d'" in res.stdout


def test_compute_title_leaves_plain_labels_alone(cli, tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": ["a", "b", "a"], "y_pred": ["a", "b", "b"]})
    res = cli("compute", f)
    assert res.exit_code == 0, res.stderr
    assert "n = 3 items" in res.stdout and "(a, b)" in res.stdout
