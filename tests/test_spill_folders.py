"""A run killed while its DuckDB connection is open leaves no spill folder for good (issue 25's principle: no
signal, however timed, leaves a temporary file behind; DuckDB spills blocks as large as the data read).

The signal tests sent SIGTERM the moment a temporary folder was made; when that folder was the connection's
spill folder, the process died before its ``finally`` could remove it (four folders per full test run). A
process killed by SIGKILL or the kernel runs no clean-up at all, so the next connection removes the folders of
processes that no longer run — only its own kind (``advisor-duckdb-<host>-<pid>-…``), only real folders of this
user on this host, and never one whose lock a live connection holds (a process another container runs is
invisible here, its lock is not).

Every test here works in its own temporary folder, so a sweep never meets another test's (or another job's)
folders.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from advisor.io._duck import _host_tag, connect, sweep_spill_folders

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process ids and locks are POSIX here")


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(proc.stdout)


def _child(code: str, tmp: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp)})


def test_a_killed_run_leaves_its_spill_folder_only_until_the_next_connection(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code = ("from advisor.io._duck import connect\nc = connect()\nprint(c.spill_folder, flush=True)\n"
            "import time\ntime.sleep(120)\n")
    proc = _child(code, tmp_path)
    try:
        assert proc.stdout is not None
        folder = Path(proc.stdout.readline().strip())
        assert folder.parent == tmp_path and folder.is_dir()
        assert folder.name.startswith(f"advisor-duckdb-{_host_tag()}-{proc.pid}-")
        proc.send_signal(signal.SIGKILL)  # no clean-up runs in the process
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert folder.is_dir()
    con = connect()
    try:
        assert not folder.exists()
        assert Path(con.spill_folder).is_dir()  # its own folder is made after the sweep, and kept while open
    finally:
        con.close()
    assert not Path(con.spill_folder).exists()


def test_a_folder_whose_lock_is_held_is_kept_even_when_its_process_cannot_be_seen(tmp_path: Path) -> None:
    """Another container sharing the temporary folder runs a connection whose process id means nothing here: its
    lock says it is in use."""
    dead = _dead_pid()
    held = tmp_path / f"advisor-duckdb-{_host_tag()}-{dead}-held"
    held.mkdir()
    code = ("import fcntl, os, sys, time\nfd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(120)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(held / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        assert sweep_spill_folders(str(tmp_path)) == []
        assert held.is_dir()
    finally:
        proc.kill()
        proc.wait(timeout=60)
    assert sweep_spill_folders(str(tmp_path)) == [str(held)]  # the lock is gone with its process


def test_the_sweep_leaves_live_runs_links_and_other_names_alone(tmp_path: Path) -> None:
    host, dead, live = _host_tag(), _dead_pid(), os.getppid()
    stale = tmp_path / f"advisor-duckdb-{host}-{dead}-abc123"
    (stale / "spill").mkdir(parents=True)
    (stale / "spill" / "block.tmp").write_bytes(b"x" * 100)
    (stale / ".lock").write_text("")  # left unlocked by its dead process
    kept = [tmp_path / f"advisor-duckdb-{host}-{live}-abc123",            # a live process
            tmp_path / f"advisor-duckdb-{host}-{os.getpid()}-abc123",     # this process
            tmp_path / f"advisor-duckdb-{'0' * 8}-{dead}-abc123",         # another host's
            tmp_path / f"advisor-duckdb-{host}-{'9' * 30}-abc123",        # an id no kill() takes: left, no crash
            tmp_path / "advisor-duckdb-abc123",                            # no host or process id in the name
            tmp_path / f"something-{host}-{dead}-abc123",
            tmp_path / "kept"]
    for folder in kept:
        folder.mkdir()
    link = tmp_path / f"advisor-duckdb-{host}-{dead}-link"
    link.symlink_to(tmp_path / "kept", target_is_directory=True)
    file = tmp_path / f"advisor-duckdb-{host}-{dead}-file"
    file.write_text("not a folder")
    assert sweep_spill_folders(str(tmp_path)) == [str(stale)]
    assert not stale.exists()
    for path in (*kept, link, file):
        assert os.path.lexists(path), path
    assert sweep_spill_folders(str(tmp_path / "missing")) == []
