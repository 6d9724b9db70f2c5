"""Every command writes in standard output's own encoding: with ``PYTHONIOENCODING=ascii`` every byte on
stdout and stderr is ASCII (``typer.echo`` wrote UTF-8 bytes to a stream declared ASCII: ``advisor
metrics`` and ``advisor explain`` did), and the properties table keeps its columns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = [str(ROOT / "examples/digits/logreg.csv"), str(ROOT / "examples/digits/tree.csv")]
ANSWERS = str(ROOT / "examples/report/digits_answers.yaml")


def _advisor(*args: str, encoding: str = "ascii", stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", *args], input=stdin,
                          capture_output=True, env=env, timeout=300)


@pytest.mark.parametrize("args", [
    ["metrics"], ["metrics", "--format", "md"], ["metrics", "--json"],
    ["explain", "macro F1"], ["explain", "kappa", "--format", "tex"], ["explain", "mcc", "--format", "text"],
    ["explain", "Gösgens"],  # an error naming the query
    ["methods", "--answers", ANSWERS], ["recommend", "--answers", ANSWERS, "--explain"],
    ["compute", *EXAMPLE], ["compute", "--matrix", "nö-such-file-≥.json"],
])
def test_every_byte_is_ascii_when_the_stream_is_ascii(args: list[str]) -> None:
    res = _advisor(*args)
    assert res.returncode in (0, 2), res.stderr
    for stream in (res.stdout, res.stderr):
        bad = sorted({b for b in stream if b >= 0x80})
        assert not bad, (args, stream.decode("utf-8", "replace")[:400])
    assert b"internal error" not in res.stderr


def test_ask_speaks_ascii_too(tmp_path: Path) -> None:
    res = _advisor("ask", "--out", str(tmp_path / "a.yaml"), stdin=b"binary\nneg, pos\n" + b"\n" * 40)
    assert res.returncode == 0, res.stderr
    assert all(b < 0x80 for b in res.stdout + res.stderr)


def test_the_properties_table_keeps_its_columns_in_ascii() -> None:
    utf8 = _advisor("metrics", encoding="utf-8").stdout.decode("utf-8").splitlines()
    ascii_ = _advisor("metrics").stdout.decode("ascii").splitlines()
    assert len(utf8) == len(ascii_)
    body = [i for i, line in enumerate(utf8) if line.startswith(("accuracy ", "mcc ", "krippendorff_alpha "))]
    assert len(body) >= 4
    for i in body:  # one ASCII character per mark: the same width, the same column positions
        assert len(ascii_[i]) == len(utf8[i]) and ascii_[i].split()[0] == utf8[i].split()[0]
    assert max(len(line) for line in ascii_) <= 80
    assert any(line.startswith("y holds  n fails") for line in ascii_)
