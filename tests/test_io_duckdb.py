"""DuckDB as the file engine: compressed files, id joins, the line fast path against the general scan,
DataFrames and --sql equal to the array path, and the reader-level hardening of odd files."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest
from conftest import TABLE_FORMATS, label_data, write_table

import advisor
from advisor import InputError, confusion_matrix, read_counts, read_predictions
from advisor.engine._joint import JointCounts


def _data(n: int = 300, k: int = 4, seed: int = 0) -> dict[str, np.ndarray]:
    return label_data(n, k, seed)


def _cells(joint: JointCounts) -> dict[tuple, float]:
    return {tuple(joint.labels[int(c)] for c in row): float(w) for row, w in zip(joint.codes, joint.counts)}


# -- compressed files -----------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl"])
@pytest.mark.parametrize("comp", ["gz", "zst"])
def test_compressed_files_equal_plain_ones(tmp_path: Path, fmt: str, comp: str) -> None:
    import duckdb

    d = _data()
    plain = write_table(tmp_path / f"m.{fmt}", {"y_true": d["y"].tolist(), "y_pred": d["a"].tolist()})
    packed = tmp_path / "packed" / f"m.{fmt}.{comp}"
    packed.parent.mkdir()
    if comp == "gz":
        packed.write_bytes(gzip.compress(plain.read_bytes()))
    else:  # DuckDB writes zstd (Python has no zstd module before 3.14)
        opts = "FORMAT json" if fmt == "jsonl" else f"FORMAT csv, DELIMITER '{',' if fmt == 'csv' else chr(9)}'"
        duckdb.sql(f"COPY (SELECT * FROM '{plain}') TO '{packed}' ({opts}, COMPRESSION zstd)")
    got = read_predictions(packed)
    assert got.systems["m"] == confusion_matrix(d["y"], d["a"])


# -- several systems: by row order or by id -------------------------------------------------------
def test_ids_match_rows_in_any_order(tmp_path: Path) -> None:
    d = _data(n=50)
    ids = [f"item{i}" for i in range(50)]
    order = np.random.default_rng(3).permutation(50)
    a = write_table(tmp_path / "a.csv", {"id": ids, "y_true": d["y"].tolist(), "y_pred": d["a"].tolist()})
    b = write_table(tmp_path / "b.parquet", {"id": [ids[i] for i in order], "y_true": d["y"][order].tolist(),
                                             "y_pred": d["b"][order].tolist()})
    got = read_predictions([a, b])
    ref = JointCounts.from_arrays(d["y"], {"a": d["a"], "b": d["b"]})
    assert _cells(got.joint) == _cells(ref)


def test_missing_and_extra_ids_are_counted(tmp_path: Path) -> None:
    a = write_table(tmp_path / "a.csv", {"id": [1, 2, 3, 4], "y_true": [0, 1, 0, 1], "y_pred": [0, 1, 1, 1]})
    b = write_table(tmp_path / "b.csv", {"id": [1, 2, 5], "y_true": [0, 1, 0], "y_pred": [0, 0, 0]})
    with pytest.raises(InputError, match=r"b\.csv lacks 2 of the ids in .*a\.csv and has 1 ids"):
        read_predictions([a, b])
    dup = write_table(tmp_path / "d.csv", {"id": [1, 1, 3, 4], "y_true": [0, 1, 0, 1], "y_pred": [0, 1, 1, 1]})
    with pytest.raises(InputError, match=r"id '1' occurs 2 times"):
        read_predictions([a, dup])


def test_different_truth_by_id_names_the_id(tmp_path: Path) -> None:
    a = write_table(tmp_path / "a.csv", {"id": ["x", "y"], "y_true": [0, 1], "y_pred": [0, 1]})
    b = write_table(tmp_path / "b.csv", {"id": ["y", "x"], "y_true": [0, 0], "y_pred": [0, 1]})
    with pytest.raises(InputError, match=r"b\.csv id 'y': y_true is '0' but .*a\.csv has '1'"):
        read_predictions([a, b])


# -- the one reader equals the array path on awkward labels ------------------------------------------
# (it replaced a line fast path and the general scan, which this test compared with each other)
LABELS = ["cat", " dog", "01", "1", "a,b", 'say "hi"', "ünï", "7"]


@pytest.mark.parametrize("fmt", TABLE_FORMATS)
def test_the_reader_equals_the_array_path(tmp_path: Path, fmt: str) -> None:
    rng = np.random.default_rng(5)
    y = [LABELS[i] for i in rng.integers(0, len(LABELS), 200)]
    p = [LABELS[i] for i in rng.integers(0, len(LABELS), 200)]
    f1 = write_table(tmp_path / f"s.{fmt}", {"y_true": y, "y_pred": p})
    f2 = write_table(tmp_path / f"t.{fmt}", {"y_true": y, "y_pred": y})
    got = read_predictions([f1, f2])
    ys, ps = [s.strip() for s in y], [s.strip() for s in p]
    ref = JointCounts.from_arrays(ys, {"s": ps, "t": ys})
    assert got.labels == ref.labels and _cells(got.joint) == _cells(ref)
    assert got.systems["s"] == confusion_matrix(ys, ps)


def test_integer_labels_keep_their_spelling(tmp_path: Path) -> None:
    f = tmp_path / "s.csv"
    f.write_text("y_true,y_pred\n1,01\n1,1\n1000,1e3\n")
    assert read_predictions(f).labels == ("01", "1", "1000", "1e3")
    g = tmp_path / "s.jsonl"
    g.write_text('{"y_true": 1, "y_pred": 1.0}\n{"y_true": 2, "y_pred": true}\n')
    assert read_predictions(g).labels == (1, 2)


# -- DataFrames, Arrow and SQL give the array path's results ----------------------------------------
def _frames(d: dict[str, np.ndarray]) -> list:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    cols = {"gold": d["y"], "a": d["a"], "b": d["b"]}
    return [pd.DataFrame(cols), pl.DataFrame(cols), pa.table(cols)]


def test_dataframes_equal_the_array_path() -> None:
    d = _data()
    ref = advisor.evaluate(d["y"], {"a": d["a"], "b": d["b"]})
    # compared as JSON: an undefined value (NaN under the default omit convention) is null there, equal to itself
    for frame in _frames(d):
        assert advisor.evaluate(frame, y_true="gold", systems=["a", "b"]).to_json() == ref.to_json()
    one = advisor.evaluate(d["y"].tolist(), d["a"].tolist())
    assert one.systems == ["y_pred"] and json.dumps(one.to_json_dict()["metrics"]["y_pred"]) == json.dumps(
        ref.to_json_dict()["metrics"]["a"])


def test_series_and_arrow_arrays_are_arrays() -> None:
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    d = _data(n=80, seed=2)
    ref = confusion_matrix(d["y"], d["a"])
    for conv in (pd.Series, pl.Series, pa.array, lambda x: pa.chunked_array([x])):
        assert confusion_matrix(conv(d["y"]), conv(d["a"])) == ref
        cmp = advisor.compare_systems(conv(d["y"]), {"a": conv(d["a"]), "b": conv(d["b"])}, n_resamples=200, seed=0)
        assert cmp.to_dict() == advisor.compare_systems(d["y"], {"a": d["a"], "b": d["b"]}, n_resamples=200,
                                                        seed=0).to_dict()


def test_string_frames_and_probabilities_equal_the_array_path() -> None:
    import pandas as pd

    d = _data(n=60, k=3, seed=4)
    names = np.array(["ant", "bee", "cat"])
    df = pd.DataFrame({"y_true": names[d["y"]], "m": names[d["a"]],
                       **{f"p_{lab}": d["p"][:, j] for j, lab in enumerate(names)}})
    ev = advisor.evaluate(df, y_true="y_true", systems="m")
    assert ev.metrics["m"]["accuracy"] == advisor.evaluate(names[d["y"]], names[d["a"]]).metrics["y_pred"]["accuracy"]
    ref = advisor.probability_metrics(names[d["y"]], d["p"], list(names))
    assert ev.metrics["m"]["log_loss"] == pytest.approx(ref["log_loss"], abs=1e-12)
    assert ev.metrics["m"]["brier"] == pytest.approx(ref["brier"], abs=1e-12)


def test_missing_labels_in_a_frame_name_the_row() -> None:
    import pandas as pd

    df = pd.DataFrame({"y_true": [0.0, 1.0, np.nan], "m": [0, 1, 1]})
    with pytest.raises(InputError, match="row 3: the y_true cell is empty"):
        advisor.evaluate(df, y_true="y_true", systems=["m"])


def test_sql_equals_the_file(tmp_path: Path, cli) -> None:
    d = _data()
    f = write_table(tmp_path / "m.parquet", {"y_true": d["y"].tolist(), "y_pred": d["a"].tolist(),
                                             "other": d["b"].tolist()})
    ps = advisor.read_sql(f"SELECT y_true, y_pred FROM '{f}'")
    assert ps.systems["y_pred"] == confusion_matrix(d["y"], d["a"])
    two = advisor.read_sql(f"SELECT y_true, y_pred AS a, other AS b FROM '{f}'")
    assert _cells(two.joint) == _cells(JointCounts.from_arrays(d["y"], {"a": d["a"], "b": d["b"]}))
    res = cli("compute", "--sql", f"SELECT y_true, y_pred FROM '{f}'", "--json", "--metrics", "accuracy")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["metrics"]["y_pred"]["accuracy"] == pytest.approx(float(np.mean(d["y"] == d["a"])))
    res = cli("compare", "--sql", f"SELECT y_true, y_pred AS a, other AS b FROM '{f}'", "--bootstrap", "200", "--json")
    assert res.exit_code == 0, res.stderr
    bad = cli("compute", "--sql", "SELEC 1")
    assert bad.exit_code == 2 and bad.stderr.startswith("error: the --sql query failed") and bad.stderr.count("\n") == 1
    both = cli("compute", str(f), "--sql", "SELECT 1")
    assert both.exit_code == 2 and "not both" in both.stderr


# -- odd files: one sentence each ------------------------------------------------------------------
@pytest.mark.parametrize("value, words", [(float("nan"), "missing value"), (float("inf"), "missing value"),
                                          (1e19, "not an integer"), (1e300, "not an integer"), (2.5, "not an integer")])
def test_unusable_float_labels_in_parquet_name_the_row(tmp_path: Path, value: float, words: str) -> None:
    f = write_table(tmp_path / "f.parquet", {"y_true": [0.0, 1.0, value], "y_pred": [0.0, 1.0, 1.0]})
    with pytest.raises(InputError, match=rf"f\.parquet row 3: y_true is .*{words}"):
        read_predictions(f)


def test_special_files_are_named_for_what_they_are(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a device, not a regular file"):
        read_predictions(_device_link(tmp_path))  # /dev/zero behind a .csv name
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="FIFO"):
        read_predictions(fifo)


def _device_link(tmp_path: Path) -> Path:
    link = tmp_path / "zero.csv"
    link.symlink_to("/dev/zero")
    return link


@pytest.mark.parametrize("encoding, words", [("latin-1", "not UTF-8 text"), ("utf-16", "UTF-16")])
def test_other_encodings_say_convert_with_iconv(tmp_path: Path, encoding: str, words: str) -> None:
    f = tmp_path / "e.csv"
    f.write_bytes("y_true,y_pred\ncafé,thé\nthé,thé\n".encode(encoding))
    with pytest.raises(InputError, match=rf"{words}.*iconv"):
        read_predictions(f)


def test_long_labels_are_refused_with_the_limit(tmp_path: Path) -> None:
    f = write_table(tmp_path / "l.jsonl", {"y_true": ["a", "x" * 20_000], "y_pred": ["a", "a"]})
    with pytest.raises(InputError, match=r"row 2: the y_true label is 20,000 characters long; .* at most 10,000"):
        read_predictions(f)


def test_deeply_nested_json_is_one_sentence(tmp_path: Path) -> None:
    f = tmp_path / "deep.jsonl"
    f.write_text('{"y_true": ' + "[" * 100_000 + "]" * 100_000 + ', "y_pred": 1}\n{"y_true": 1, "y_pred": 1}\n')
    with pytest.raises(InputError, match="deep.jsonl"):
        read_predictions(f)


def test_many_labels_in_a_count_table_is_a_clear_refusal_or_works(tmp_path: Path) -> None:
    k = 20_000
    labels = [f"c{i}" for i in range(k)]
    f = write_table(tmp_path / "c.csv", {"true": labels, "pred": labels[1:] + labels[:1], "count": [1] * k})
    try:
        cm = read_counts(f)
    except InputError as exc:
        assert "20,000 classes" in str(exc) and "limited" in str(exc)
    else:
        assert cm.k == k


@pytest.mark.parametrize("name", ["{{7*7}}", "\\input{y}", "x[1]", "a?b", "it's"])
def test_file_names_with_glob_characters_are_read_as_files(tmp_path: Path, name: str) -> None:
    for fmt in ("csv", "jsonl", "parquet"):
        f = write_table(tmp_path / f"{name}.{fmt}", {"y_true": [0, 1, 1], "y_pred": [0, 1, 0]})
        write_table(tmp_path / f"other.{fmt}", {"y_true": [5], "y_pred": [5]})  # a glob must not pick this up
        assert read_predictions(f).systems[name].counts.tolist() == [[1, 0], [1, 1]]


def test_labels_ending_in_nul_stay_distinct(tmp_path: Path) -> None:
    f = tmp_path / "z.jsonl"
    f.write_text('{"y_true": "a\\u0000", "y_pred": "a"}\n{"y_true": "a", "y_pred": "a"}\n')
    assert read_predictions(f).labels == ("a", "a\x00")
    c = tmp_path / "c.jsonl"
    c.write_text('{"true": "\\u0000", "pred": "b", "count": 2}\n{"true": "b", "pred": "b", "count": 1}\n')
    assert read_counts(c).labels == ("\x00", "b")


def test_report_takes_sql(tmp_path: Path, cli) -> None:
    d = _data(n=120, k=3, seed=6)
    f = write_table(tmp_path / "m.parquet", {"y_true": d["y"].tolist(), "a": d["a"].tolist(), "b": d["b"].tolist()})
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: multiclass\n", encoding="utf-8")
    out = tmp_path / "r.json"
    res = cli("report", "--answers", answers, "--sql", f"SELECT y_true, a, b FROM '{f}'", "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["systems"] == ["a", "b"]
