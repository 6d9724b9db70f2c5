"""A run killed while its DuckDB connection is open leaves no spill folder for good (issue 25's principle: no
signal, however timed, leaves a temporary file behind; DuckDB spills blocks as large as the data read).

The signal tests sent SIGTERM the moment a temporary folder was made; when that folder was the connection's
spill folder, the process died before its ``finally`` could remove it (four folders per full test run). A
process killed by SIGKILL or the kernel runs no clean-up at all, so the next connection removes the folders of
processes that no longer run — only its own kind (``advisor-duckdb-<pid>-…``), only real folders of this user.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.io._duck import connect, sweep_spill_folders

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process ids are checked with POSIX kill(pid, 0)")


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(proc.stdout)


def test_a_killed_run_leaves_its_spill_folder_only_until_the_next_connection() -> None:
    code = ("from advisor.io._duck import connect\nc = connect()\nprint(c.spill_folder, flush=True)\n"
            "import time\ntime.sleep(120)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        folder = Path(proc.stdout.readline().strip())
        assert folder.is_dir() and folder.name.startswith(f"advisor-duckdb-{proc.pid}-")
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


def test_the_sweep_leaves_live_runs_links_and_other_names_alone(tmp_path: Path) -> None:
    dead, live = _dead_pid(), os.getppid()
    stale = tmp_path / f"advisor-duckdb-{dead}-abc123"
    (stale / "spill").mkdir(parents=True)
    (stale / "spill" / "block.tmp").write_bytes(b"x" * 100)
    running = tmp_path / f"advisor-duckdb-{live}-abc123"
    running.mkdir()
    mine = tmp_path / f"advisor-duckdb-{os.getpid()}-abc123"
    mine.mkdir()
    legacy = tmp_path / "advisor-duckdb-abc123"  # no process id in the name: whose it is cannot be told
    legacy.mkdir()
    other = tmp_path / f"something-{dead}-abc123"
    other.mkdir()
    target = tmp_path / "kept"
    target.mkdir()
    link = tmp_path / f"advisor-duckdb-{dead}-link"
    link.symlink_to(target, target_is_directory=True)
    file = tmp_path / f"advisor-duckdb-{dead}-file"
    file.write_text("not a folder")
    assert sweep_spill_folders(str(tmp_path)) == [str(stale)]
    assert not stale.exists()
    for kept in (running, mine, legacy, other, target, link, file):
        assert os.path.lexists(kept), kept
    assert sweep_spill_folders(str(tmp_path / "missing")) == []
