"""Each input file is opened once per run (the one reader, ``advisor.load``).

Two proofs, for ``compute``, ``compare`` and ``report`` on CSV, TSV, JSON Lines, Parquet and a ``.csv.gz``,
every file with ``p_<label>`` columns (so counts, probability sums and item-level scores are all needed):

* in-process: :data:`advisor.io._open.OPENS`, counted at the single place a statement that reads a
  file is run, is 1 for every input after the command;
* OS-level: ``strace -f -e trace=openat,open`` of the command in a subprocess shows one open of each
  input path (skipped when strace is missing or not allowed here).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import write_table

FORMATS = ["csv", "tsv", "jsonl", "parquet", "csv.gz"]


def _files(tmp_path: Path, fmt: str) -> list[Path]:
    rng = np.random.default_rng(3)
    n = 200
    y = np.where(rng.random(n) < 0.4, "yes", "no")
    out = []
    for name, noise in (("a", 0.3), ("b", 0.6)):
        p_yes = np.clip((y == "yes") * 0.6 + rng.random(n) * noise, 0.01, 0.99).round(4)
        cols = {"y_true": y.tolist(), "y_pred": np.where(p_yes > 0.5, "yes", "no").tolist(),
                "p_no": (1 - p_yes).round(4).tolist(), "p_yes": p_yes.tolist()}
        if fmt == "csv.gz":
            plain = write_table(tmp_path / f"{name}.csv", cols)
            path = tmp_path / f"{name}.csv.gz"
            path.write_bytes(gzip.compress(plain.read_bytes()))
            plain.unlink()
        else:
            path = write_table(tmp_path / f"{name}.{fmt}", cols)
        out.append(path)
    return out


def _commands(tmp_path: Path, files: list[Path]) -> dict[str, list[str]]:
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\nclasses: [no, yes]\npositive_class: yes\n", encoding="utf-8")
    a, b = (str(f) for f in files)
    return {"compute": ["compute", a, b, "--positive", "yes", "--json"],
            "compare": ["compare", a, b, "--bootstrap", "200", "--seed", "1", "--json"],
            "report": ["report", "--answers", str(answers), a, b, "--bootstrap", "200", "--seed", "1", "-o",
                       str(tmp_path / "out" / "r.md")]}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["compute", "compare", "report"])
def test_each_input_is_opened_once_in_process(tmp_path: Path, fmt: str, command: str, cli) -> None:
    from advisor.io._open import OPENS

    files = _files(tmp_path, fmt)
    argv = _commands(tmp_path, files)[command]
    OPENS.clear()
    res = cli(*argv)
    assert res.exit_code == 0, res.stderr
    assert {Path(p).name: n for p, n in OPENS.items()} == {f.name: 1 for f in files}


def _strace() -> str | None:
    exe = shutil.which("strace")
    if exe is None:
        return None
    probe = subprocess.run([exe, "-f", "-e", "trace=openat", "-o", "/dev/null", "true"], capture_output=True)
    return exe if probe.returncode == 0 else None


@pytest.mark.skipif(_strace() is None, reason="strace is not installed (apt-get install strace) or not allowed")
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("command", ["compute", "compare", "report"])
def test_each_input_is_opened_once_by_the_os(tmp_path: Path, fmt: str, command: str) -> None:
    files = _files(tmp_path, fmt)
    argv = _commands(tmp_path, files)[command]
    trace = tmp_path / "trace.txt"
    res = subprocess.run([_strace(), "-f", "-e", "trace=openat,open", "-o", str(trace), sys.executable, "-c",
                          "from advisor.cli import main; main()", *argv], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    lines = trace.read_text(encoding="utf-8", errors="replace").splitlines()
    for f in files:
        opens = [line for line in lines if f'"{f}"' in line and ("openat(" in line or "open(" in line)]
        assert len(opens) == 1, (f.name, opens)
