"""Writes that cannot harm: only regular files are replaced, no-overwrite is an exclusive create, a
symlinked figure folder is refused, a failing run keeps the previous output, and a signal while
writing leaves no temporary file (issue 15, build item 4)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from advisor import UnsafeOutputError
from advisor.report import _safe_io
from advisor.report._safe_io import check_outputs, write_outputs

MATRIX = {"labels": [0, 1], "matrix": [[50, 10], [5, 35]]}


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    d = tmp_path / "in"
    d.mkdir()
    (d / "sys.json").write_text(json.dumps(MATRIX), encoding="utf-8")
    (d / "answers.yaml").write_text("task: binary\npositive_class: 1\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    return {"matrix": d / "sys.json", "answers": d / "answers.yaml", "out": out}


def _report(cli, inputs: dict[str, Path], output: Path | str, *extra: object):
    return cli("report", "--answers", inputs["answers"], "--matrix", inputs["matrix"], "--bootstrap", "0",
               "-o", output, *extra)


def _one_error(result, *words: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1 and "internal error" not in err, err
    for w in words:
        assert w in err, (w, err)
    return err


# -- only regular files are ever replaced ---------------------------------------------------------
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_dev_full_is_refused_even_with_force(cli, inputs: dict[str, Path]) -> None:
    res = _report(cli, inputs, "/dev/full", "--format", "md", "--force")
    _one_error(res, "/dev/full", "character device", "not a regular file")
    assert Path("/dev/full").is_char_device()
    with pytest.raises(UnsafeOutputError, match="character device"):
        write_outputs({"/dev/full": "x"}, force=True)


def test_fifo_is_refused_with_or_without_force(cli, inputs: dict[str, Path]) -> None:
    fifo = inputs["out"] / "r.md"
    os.mkfifo(fifo)
    for extra in ((), ("--force",)):
        _one_error(_report(cli, inputs, fifo, *extra), "FIFO", "not a regular file")
    assert fifo.is_fifo()
    assert sorted(os.listdir(inputs["out"])) == ["r.md"]


def test_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "r.md"
    link.symlink_to("/dev/null")
    with pytest.raises(UnsafeOutputError, match="character device"):
        check_outputs([link], [], force=True)


# -- the figures folder is never a symlink ------------------------------------------------------------
def test_symlinked_figures_folder_is_refused(cli, inputs: dict[str, Path], tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (inputs["out"] / "r-figures").symlink_to(elsewhere, target_is_directory=True)
    for extra in ((), ("--force",)):
        _one_error(_report(cli, inputs, inputs["out"] / "r.md", *extra), "r-figures", "symbolic link")
    assert list(elsewhere.iterdir()) == []
    assert sorted(os.listdir(inputs["out"])) == ["r-figures"]


# -- a failing run keeps the previous output -------------------------------------------------------------
def test_existing_report_survives_a_failing_late_render(cli, inputs: dict[str, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    out = inputs["out"] / "r.html"
    assert _report(cli, inputs, out).exit_code == 0
    before = out.read_bytes()
    from advisor.report import _render

    def late_failure(*a: object, **k: object) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_render, "_html", late_failure)
    res = _report(cli, inputs, out, "--force", "--title", "new")
    _one_error(res, "No space left")
    assert out.read_bytes() == before
    assert sorted(os.listdir(inputs["out"])) == ["r.html"]


def test_replaced_files_come_back_when_a_later_file_fails(cli, inputs: dict[str, Path],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = inputs["out"] / "r.md"
    assert _report(cli, inputs, out).exit_code == 0
    before = {p.name: p.read_bytes() for p in inputs["out"].rglob("*") if p.is_file()}
    real_place = _safe_io._place
    calls = []

    def fail_second(tmp: str, path: Path, force: bool) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError(5, "Input/output error")
        real_place(tmp, path, force)

    monkeypatch.setattr(_safe_io, "_place", fail_second)
    _one_error(_report(cli, inputs, out, "--force", "--title", "new"), "Input/output error")
    after = {p.name: p.read_bytes() for p in inputs["out"].rglob("*") if p.is_file()}
    assert after == before  # the report replaced first is back, no .tmp or .bak is left


# -- without --force: an exclusive create ---------------------------------------------------------------
def test_two_concurrent_writers_cannot_both_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r.md"
    barrier = threading.Barrier(2, timeout=10)
    real = _safe_io._make_folders

    def both_checked(paths):  # both runs have passed the existence check before either writes
        barrier.wait()
        return real(paths)

    monkeypatch.setattr(_safe_io, "_make_folders", both_checked)
    results: dict[str, str] = {}

    def run(name: str) -> None:
        try:
            write_outputs({target: name})
            results[name] = "wrote"
        except UnsafeOutputError as exc:
            results[name] = str(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results.values())[1] == "wrote", results
    assert "already exists" in sorted(results.values())[0]
    winner = next(n for n, r in results.items() if r == "wrote")
    assert target.read_text() == winner
    assert sorted(os.listdir(tmp_path)) == ["r.md"]


# -- a signal while writing leaves nothing behind ---------------------------------------------------------
_SLOW_WRITER = r"""
import os, sys, time
import advisor.report._safe_io as sio
real_fsync = os.fsync
def slow_fsync(fd):
    real_fsync(fd)
    print("writing", flush=True)
    time.sleep(30)
sio.os.fsync = slow_fsync
from advisor.cli import app
sys.argv = ["advisor"] + sys.argv[1:]
app()
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_during_write_leaves_no_temporary_file(inputs: dict[str, Path], sig: int) -> None:
    out = inputs["out"] / "r.md"
    out.write_text("previous report")
    args = [sys.executable, "-c", _SLOW_WRITER, "report", "--answers", str(inputs["answers"]), "--matrix",
            str(inputs["matrix"]), "--bootstrap", "0", "-o", str(out), "--force"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the first temporary file is on disk, fsync'ed
        assert line.strip() == "writing", (line, proc.stderr.read() if proc.stderr else "")
        assert any(n.endswith(".tmp") for n in os.listdir(inputs["out"]))
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == (130 if sig == signal.SIGINT else 128 + sig), (proc.returncode, err)
    assert "Traceback" not in err and "internal error" not in err
    assert sorted(os.listdir(inputs["out"])) == ["r.md"], os.listdir(inputs["out"])
    assert out.read_text() == "previous report"


def test_no_hard_links_falls_back_to_an_exclusive_create(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def no_links(*a: object, **k: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(_safe_io.os, "link", no_links)
    target = tmp_path / "r.md"
    write_outputs({target: "one"})
    assert target.read_text() == "one"
    with pytest.raises(UnsafeOutputError, match="already exists"):
        write_outputs({target: "two"})
    assert target.read_text() == "one"
    assert sorted(os.listdir(tmp_path)) == ["r.md"]


def test_atomic_write_refuses_a_device(tmp_path: Path) -> None:
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeOutputError, match="FIFO"):
        _safe_io.atomic_write(fifo, "x")
    assert fifo.is_fifo()
