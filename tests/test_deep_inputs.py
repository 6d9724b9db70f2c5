"""A JSON Lines row nested 100,000 deep is one sentence and exit 2 on every path that reads it: the
structure sniffing raised RecursionError ("internal error") and the structured reader (pyarrow's
JSON parser, recursing on the C stack) killed the process with a segmentation fault. Run in
subprocesses, so a crash fails the test instead of the test run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DEEP = '{"y_true": ' + "[" * 100_000 + "]" * 100_000 + ', "y_pred": "a"}\n'


@pytest.mark.parametrize("args", [
    ["compute", "{a}"], ["compute", "{a}", "--order", "x,y"], ["compute", "{a}", "--label-sep", "|"],
    ["compare", "{a}", "{b}", "--bootstrap", "200"], ["compare", "{a}", "{b}", "--order", "x,y", "--bootstrap", "200"],
    ["recommend", "--answers", "{answers}", "--data", "{a}"],
    ["report", "--answers", "{answers}", "{a}", "-o", "{out}"],
    ["report", "--answers", "{answers}", "{a}", "--label-sep", "|", "-o", "{out}"],
])
def test_a_deeply_nested_row_is_one_sentence(tmp_path: Path, args: list[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(DEEP + '{"y_true": "x", "y_pred": "y"}\n', encoding="utf-8")
    b.write_text(DEEP, encoding="utf-8")
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: multiclass\n", encoding="utf-8")
    names = {"a": a, "b": b, "answers": answers, "out": tmp_path / "r.md"}
    argv = [arg.format(**names) for arg in args]
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", *argv],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, (res.returncode, res.stderr[-500:])
    err = res.stderr.strip()
    assert err.startswith("error: ") and err.count("\n") == 0 and "internal error" not in err, err
    assert "nested deeper than 128 levels" in err
    assert not (tmp_path / "r.md").exists()


@pytest.mark.parametrize("extra", [[], ["--order", "a,b"], ["--label-sep", "|"]])
def test_a_fifo_input_is_refused_at_once_not_waited_on(tmp_path: Path, extra: list[str]) -> None:
    """The structure sniffing opened the FIFO and waited for a writer forever."""
    import os

    fifo = tmp_path / "in.csv"
    os.mkfifo(fifo)
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "compute", str(fifo), *extra],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "FIFO" in res.stderr, res.stderr


def test_a_deeply_nested_row_in_a_score_file_is_one_sentence(tmp_path: Path) -> None:
    """Files of true labels and scores are read whole by pyarrow's JSON reader (io/_scores.py): the
    depth check runs before it, on every row, not only the first line the column sniffing reads."""
    a = tmp_path / "s.jsonl"
    a.write_text('{"y_true": "x", "score": 0.3}\n' + DEEP.replace('"y_pred": "a"', '"score": 0.5'), encoding="utf-8")
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "compute", str(a)],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, (res.returncode, res.stderr[-500:])
    err = res.stderr.strip()
    assert err.startswith("error: ") and err.count("\n") == 0 and "nested deeper than 128 levels" in err, err
