"""Bad input to ``advisor compute``: one sentence on stderr starting "error:", exit status 2, no
traceback — and the input files are left byte for byte as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

GARBAGE = bytes(range(256)) * 8 + b"\x00\xff\xfe" * 100

# name -> (files to write {name: bytes}, CLI arguments after "compute", words the message must contain)
CASES: dict[str, tuple[dict[str, bytes], list[str], list[str]]] = {
    "missing file": ({}, ["nope.csv"], ["not found", "nope.csv"]),
    "empty file": ({"e.csv": b""}, ["e.csv"], ["e.csv", "empty"]),
    "header without rows": ({"h.csv": b"y_true,y_pred\n"}, ["h.csv"], ["h.csv", "no data rows"]),
    "missing column": ({"m.csv": b"y_true,prediction\n1,0\n"}, ["m.csv"],
                       ["m.csv", "'y_pred'", "'y_true', 'prediction'"]),
    "empty cell": ({"c.csv": b"y_true,y_pred\n1,0\n0,\n"}, ["c.csv"], ["c.csv", "row 2", "empty"]),
    "empty cell jsonl": ({"c.jsonl": b'{"y_true": 1, "y_pred": 0}\n{"y_true": null, "y_pred": 0}\n'},
                         ["c.jsonl"], ["c.jsonl", "row 2", "empty"]),
    "binary garbage csv": ({"g.csv": GARBAGE}, ["g.csv"], ["g.csv", "binary"]),
    "binary garbage parquet": ({"g.parquet": GARBAGE}, ["g.parquet"], ["g.parquet", "Parquet"]),
    "binary garbage matrix": ({"g.json": GARBAGE}, ["--matrix", "g.json"], ["g.json"]),
    "unknown extension": ({"p.txt": b"y_true,y_pred\n1,0\n"}, ["p.txt"], ["p.txt", ".csv"]),
    "ragged csv row": ({"r.csv": b"y_true,y_pred\n1,0\n1\n"}, ["r.csv"], ["r.csv"]),
    "non-square matrix": ({"m.csv": b",a,b,c\na,1,2,3\nb,4,5,6\n"}, ["--matrix", "m.csv"], ["m.csv", "square"]),
    "non-square json matrix": ({"m.json": b"[[1, 2, 3], [4, 5, 6]]"}, ["--matrix", "m.json"], ["m.json", "square"]),
    "negative matrix count": ({"m.csv": b",a,b\na,1,-2\nb,3,4\n"}, ["--matrix", "m.csv"], ["m.csv", "negative"]),
    "non-numeric matrix count": ({"m.csv": b",a,b\na,1,two\nb,3,4\n"}, ["--matrix", "m.csv"],
                                 ["m.csv", "'two', not a number"]),
    "negative count": ({"c.csv": b"true,pred,count\na,a,3\na,b,-1\n"}, ["--counts", "c.csv"], ["c.csv", "row 2", "-1"]),
    "non-numeric count": ({"c.csv": b"true,pred,count\na,a,3\na,b,lots\n"}, ["--counts", "c.csv"],
                          ["c.csv", "row 2", "'lots'"]),
    "all-zero matrix": ({"z.csv": b",a,b\na,0,0\nb,0,0\n"}, ["--matrix", "z.csv"], ["z.csv", "all zeros"]),
    "all-zero counts": ({"z.csv": b"true,pred,count\na,a,0\nb,a,0\n"}, ["--counts", "z.csv"], ["z.csv", "zero"]),
    "unknown metric id": ({"s.csv": b"y_true,y_pred\n1,0\n0,0\n"}, ["s.csv", "--metrics", "accuracy,acuracy"],
                          ["'acuracy'", "accuracy"]),
    "positive label absent": ({"s.csv": b"y_true,y_pred\n1,0\n0,0\n"}, ["s.csv", "--positive", "yes"],
                              ["'yes'", "does not occur"]),
    "mismatched y_true": ({"a.csv": b"y_true,y_pred\n1,0\n0,0\n1,1\n", "b.csv": b"y_true,y_pred\n1,0\n1,0\n1,1\n"},
                          ["a.csv", "b.csv"], ["b.csv", "row 2", "a.csv"]),
    "different lengths": ({"a.csv": b"y_true,y_pred\n1,0\n0,0\n", "b.csv": b"y_true,y_pred\n1,0\n"},
                          ["a.csv", "b.csv"], ["b.csv", "has 1 row but"]),
    "matrices of different test sets": ({"a.json": b"[[1, 2], [3, 4]]", "b.json": b"[[1, 1], [3, 4]]"},
                                        ["--matrix", "a.json", "--matrix", "b.json"], ["true class sizes"]),
    "invalid probabilities": ({"p.csv": b"y_true,y_pred,p_0,p_1\n1,0,0.5,0.7\n0,0,1,0\n"}, ["p.csv"],
                              ["p.csv", "row 1", "summing to 1.2"]),
    "bad convention": ({"s.csv": b"y_true,y_pred\n1,0\n0,0\n"}, ["s.csv", "--undefined", "maybe"], ["'maybe'"]),
    "no input": ({}, [], ["no input"]),
    "bad bootstrap count": ({"s.csv": b"y_true,y_pred\n1,0\n0,0\n"}, ["s.csv", "--bootstrap", "0"], ["--bootstrap"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_sentence_and_exit_2(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    files, args, words = CASES[name]
    for fname, content in files.items():
        (tmp_path / fname).write_bytes(content)
    monkeypatch.chdir(tmp_path)
    result = cli("compute", *args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    err = result.stderr
    assert err.startswith("error: ") and err.endswith("\n")
    assert err.count("\n") == 1, err  # one line
    assert "Traceback" not in err and result.stdout == ""
    for word in words:
        assert word in err, (word, err)
    for fname, content in files.items():  # inputs untouched
        assert (tmp_path / fname).read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(files)  # nothing written next to them
