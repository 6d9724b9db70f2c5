"""Readers: prediction files in every format, matrices, count tables, chunking and label typing."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import TABLE_FORMATS, label_data, write_table

from advisor import InputError, confusion_matrix, probability_metrics, read_counts, read_matrix, read_predictions
from advisor.engine._joint import JointCounts


def _data(n: int = 40, k: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    return label_data(n, k, seed)


def _cells(joint: JointCounts) -> dict[tuple[int, ...], float]:
    return {tuple(int(c) for c in row): float(w) for row, w in zip(joint.codes, joint.counts)}


@pytest.mark.parametrize("fmt", TABLE_FORMATS)
def test_every_format_gives_the_confusion_matrix(tmp_path: Path, fmt: str) -> None:
    d = _data()
    f = write_table(tmp_path / f"model.{fmt}", {"y_true": d["y"].tolist(), "y_pred": d["a"].tolist()})
    ps = read_predictions(f)
    assert list(ps.systems) == ["model"]
    assert ps.n_items == 40 and ps.labels == (0, 1, 2)
    assert ps.systems["model"] == confusion_matrix(d["y"], d["a"])
    assert ps.probabilities == {}


@pytest.mark.parametrize("fmt", TABLE_FORMATS)
@pytest.mark.parametrize("chunk_rows", [1, 3, 7])
def test_chunked_reading_equals_one_chunk(tmp_path: Path, fmt: str, chunk_rows: int) -> None:
    d = _data(n=50, k=4, seed=1)
    cols = {"y_true": d["y"].tolist(), "y_pred": d["b"].tolist()}
    cols.update({f"p_{c}": d["p"][:, c].tolist() for c in range(4)})
    f1 = write_table(tmp_path / f"a.{fmt}", {**cols, "y_pred": d["a"].tolist()})
    f2 = write_table(tmp_path / f"b.{fmt}", cols)
    whole = read_predictions([f1, f2])
    parts = read_predictions([f1, f2], chunk_rows=chunk_rows)
    assert _cells(parts.joint) == _cells(whole.joint)
    assert parts.systems == whole.systems and parts.n_items == whole.n_items == 50
    for name in ("a", "b"):
        assert parts.probabilities[name] == pytest.approx(whole.probabilities[name], abs=1e-12)


def test_several_systems_share_one_joint_table(tmp_path: Path) -> None:
    d = _data(n=60, seed=2)
    f1 = write_table(tmp_path / "first.csv", {"y_true": d["y"].tolist(), "y_pred": d["a"].tolist()})
    f2 = write_table(tmp_path / "second.parquet", {"y_true": d["y"].tolist(), "y_pred": d["b"].tolist()})
    ps = read_predictions([f1, f2], chunk_rows=16)
    assert ps.joint.systems == ("first", "second")
    ref = JointCounts.from_arrays(d["y"], {"first": d["a"], "second": d["b"]})
    assert ps.joint.labels == ref.labels
    assert _cells(ps.joint) == _cells(ref)
    assert ps.systems["second"] == confusion_matrix(d["y"], d["b"])
    assert ps.files == {"first": f1, "second": f2}


def test_duplicate_stems_are_disambiguated(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    cols = {"y_true": [0, 1, 1], "y_pred": [0, 1, 0]}
    f1, f2 = write_table(tmp_path / "x" / "model.csv", cols), write_table(tmp_path / "y" / "model.csv", cols)
    assert list(read_predictions([f1, f2]).systems) == ["x/model", "y/model"]
    assert list(read_predictions([f1, f1]).systems) == ["model", "model#2"]


def test_probabilities_match_the_in_memory_function(tmp_path: Path) -> None:
    d = _data(n=30, k=3, seed=3)
    labels = ["ant", "bee", "cat"]
    y = [labels[i] for i in d["y"]]
    cols = {"y_true": y, "y_pred": [labels[i] for i in d["a"]]}
    cols.update({f"proba_{lab}": d["p"][:, c].tolist() for c, lab in enumerate(labels)})
    ps = read_predictions(write_table(tmp_path / "s.jsonl", cols), chunk_rows=4)
    assert ps.probabilities["s"] == pytest.approx(probability_metrics(y, d["p"], labels), abs=1e-12)


def test_single_probability_column_of_a_binary_task(tmp_path: Path) -> None:
    y, pred, p1 = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], [0.2, 0.9, 0.4, 0.1, 0.7]
    f = write_table(tmp_path / "s.csv", {"y_true": y, "y_pred": pred, "p_1": p1})
    full = np.column_stack([1 - np.array(p1), p1])
    assert read_predictions(f).probabilities["s"] == pytest.approx(probability_metrics(y, full, [0, 1]))


def test_probability_columns_can_be_ignored_or_named(tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": [0, 1], "y_pred": [0, 0], "p_0": [0.3, 0.3],
                                         "p_1": [0.2, 0.2], "score_0": [0.6, 0.4], "score_1": [0.4, 0.6]})
    with pytest.raises(InputError, match="summing to 0.5"):
        read_predictions(f)
    assert read_predictions(f, proba_cols=None).probabilities == {}
    ps = read_predictions(f, proba_cols={0: "score_0", 1: "score_1"})
    assert ps.probabilities["s"]["log_loss"] == pytest.approx(-np.log(0.6))


def test_rounded_probabilities_are_renormalised_with_a_note(tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": [0, 1, 2], "y_pred": [0, 1, 2],
                                         "p_0": [0.333, 0.2, 0.1], "p_1": [0.333, 0.6, 0.1],
                                         "p_2": [0.333, 0.2, 0.8]})
    ps = read_predictions(f)
    assert len(ps.notes) == 1 and "1 probability rows" in ps.notes[0]
    assert ps.probabilities["s"]["log_loss"] == pytest.approx(-(np.log(1 / 3) + np.log(0.6) + np.log(0.8)) / 3)


def test_label_typing(tmp_path: Path) -> None:
    """All canonical integers → ints; otherwise every label stays the string as written."""
    ints = write_table(tmp_path / "i.csv", {"y_true": [10, 2, -1], "y_pred": [2, 2, 10]})
    assert read_predictions(ints).labels == (-1, 2, 10)
    mixed = write_table(tmp_path / "m.csv", {"y_true": ["01", "1", "2"], "y_pred": ["1", "1", "01"]})
    ps = read_predictions(mixed)
    assert ps.labels == ("01", "1", "2")  # "01" and "1" are different classes
    assert ps.systems["m"] == confusion_matrix(["01", "1", "2"], ["1", "1", "01"])
    # JSON numbers 1 and 1.0 are the same label; the Parquet integer column agrees with the CSV text
    js = tmp_path / "j.jsonl"
    js.write_text('{"y_true": 1, "y_pred": 1.0}\n{"y_true": 0, "y_pred": 1}\n')
    pq_file = write_table(tmp_path / "q.parquet", {"y_true": [1, 0], "y_pred": [0, 0]})
    ps = read_predictions([js, pq_file])
    assert ps.labels == (0, 1)
    assert ps.systems["j"].counts.tolist() == [[0.0, 1.0], [0.0, 1.0]]


def test_labels_fix_the_order_and_reject_others(tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": ["b", "a"], "y_pred": ["a", "a"]})
    ps = read_predictions(f, labels=["b", "a", "c"])
    assert ps.labels == ("b", "a", "c")
    assert ps.systems["s"].counts.tolist() == [[0, 1, 0], [0, 1, 0], [0, 0, 0]]
    with pytest.raises(InputError, match=r"row 1: y_true 'b' is not one of"):
        read_predictions(f, labels=["a", "c"])


def test_custom_columns_and_whitespace(tmp_path: Path) -> None:
    f = tmp_path / "s.tsv"
    f.write_text("gold\tguess\textra\n cat \tdog\t1\ndog\tdog \t2\n")
    ps = read_predictions(f, true_col="gold", pred_col="guess")
    assert ps.labels == ("cat", "dog") and ps.systems["s"].counts.tolist() == [[0, 1], [0, 1]]


def test_mismatched_truth_names_file_and_row(tmp_path: Path) -> None:
    a = write_table(tmp_path / "a.csv", {"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 1, 0]})
    b = write_table(tmp_path / "b.csv", {"y_true": [0, 1, 0, 0], "y_pred": [0, 1, 1, 0]})
    with pytest.raises(InputError, match=r"b\.csv row 3: y_true is '0' but .*a\.csv has '1'"):
        read_predictions([a, b], chunk_rows=2)
    c = write_table(tmp_path / "c.csv", {"y_true": [0, 1, 1], "y_pred": [0, 1, 1]})
    with pytest.raises(InputError, match=r"c\.csv has 3 rows but .*a\.csv has more"):
        read_predictions([a, c])


# -- matrices -------------------------------------------------------------------------------------
def test_read_matrix_csv_matches_columns_by_label(tmp_path: Path) -> None:
    f = tmp_path / "m.csv"
    f.write_text("true\\pred,pos,neg\nneg,10,50\npos,35,5\n")
    cm = read_matrix(f)
    assert cm.labels == ("neg", "pos")
    assert cm.counts.tolist() == [[50, 10], [5, 35]]
    t = tmp_path / "m.tsv"
    t.write_text("\t0\t1\n0\t3.5\t1\n1\t0\t2\n")
    assert read_matrix(t).labels == (0, 1) and read_matrix(t).counts.tolist() == [[3.5, 1], [0, 2]]


def test_read_matrix_json(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"labels": ["a", "b"], "matrix": [[1, 2], [3, 4]]}))
    assert read_matrix(f).labels == ("a", "b")
    g = tmp_path / "l.json"
    g.write_text("[[1, 2], [3, 4]]")
    assert read_matrix(g).labels == (0, 1) and read_matrix(g).counts.tolist() == [[1, 2], [3, 4]]


@pytest.mark.parametrize(
    "text, words",
    [
        (",a,b\na,1,2\n", "not square"),
        (",a,b\na,1,2\nb,3\n", "must be square"),
        (",a,b\na,1,-2\nb,3,4\n", "negative"),
        (",a,b\na,1,x\nb,3,4\n", "'x', not a number"),
        (",a,b\na,1,\nb,3,4\n", "empty"),
        (",a,b\na,0,0\nb,0,0\n", "all zeros"),
        (",a,c\na,1,2\nb,3,4\n", "differ"),
        (",a,b\n", "no rows of counts"),
    ],
)
def test_read_matrix_rejects(tmp_path: Path, text: str, words: str) -> None:
    f = tmp_path / "m.csv"
    f.write_text(text)
    with pytest.raises(InputError, match=words) as info:
        read_matrix(f)
    assert str(f) in str(info.value)


# -- count tables ---------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", TABLE_FORMATS)
def test_read_counts_sums_repeated_pairs(tmp_path: Path, fmt: str) -> None:
    f = write_table(tmp_path / f"c.{fmt}", {"true": ["x", "x", "y", "y", "x"], "pred": ["x", "y", "y", "x", "x"],
                                           "count": [40, 10, 45.5, 5, 2]})
    cm = read_counts(f, chunk_rows=2)
    assert cm.labels == ("x", "y") and cm.counts.tolist() == [[42, 10], [5, 45.5]]


def test_read_counts_custom_columns_and_errors(tmp_path: Path) -> None:
    f = write_table(tmp_path / "c.csv", {"t": [1, 0], "p": [1, 0], "n": [3, 4]})
    assert read_counts(f, "t", "p", "n").counts.tolist() == [[4, 0], [0, 3]]
    bad = write_table(tmp_path / "bad.csv", {"true": [1, 0], "pred": [1, 0], "count": [3, -1]})
    with pytest.raises(InputError, match=r"bad\.csv row 2: count is -1"):
        read_counts(bad)
    text = write_table(tmp_path / "text.csv", {"true": [1, 0], "pred": [1, 0], "count": [3, "many"]})
    with pytest.raises(InputError, match=r"row 2: count is 'many', not a number"):
        read_counts(text)
