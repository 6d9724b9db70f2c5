"""Every ``--out``/``-o`` of the command line obeys the same rules (advisor/report/_safe_io.py): a
device, FIFO or directory is refused with --force or not, nothing is half-written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.cli import app

runner = CliRunner()


@pytest.mark.parametrize("args", [["metrics"], ["metrics", "--format", "md"], ["metrics", "--json"]])
def test_metrics_out_never_replaces_a_fifo_or_a_device(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    res = runner.invoke(app, [*args, "-o", str(fifo), "--force"])
    assert res.exit_code == 2 and "FIFO" in res.stderr and stat.S_ISFIFO(fifo.lstat().st_mode)
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if root:
        full = tmp_path / "full"
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        res = runner.invoke(app, [*args, "-o", str(full), "--force"])
        assert res.exit_code == 2 and "character device" in res.stderr and stat.S_ISCHR(full.lstat().st_mode)
    assert {p.name for p in tmp_path.iterdir()} == ({"pipe", "full"} if root else {"pipe"})  # no temporary file


def test_metrics_out_is_an_exclusive_create(tmp_path: Path, monkeypatch) -> None:
    """The name is taken between the check and the write: the other file survives."""
    import advisor.report._safe_io as safe_io

    out = tmp_path / "m.md"
    real = safe_io._stage

    def someone_else_writes_first(path, data):
        tmp = real(path, data)
        out.write_text("theirs\n", encoding="utf-8")
        return tmp

    monkeypatch.setattr(safe_io, "_stage", someone_else_writes_first)
    res = runner.invoke(app, ["metrics", "--format", "md", "-o", str(out)])
    assert res.exit_code == 2 and "already exists" in res.stderr
    assert out.read_text(encoding="utf-8") == "theirs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.md"]


def test_a_read_only_folder_is_refused_before_any_work(tmp_path: Path, monkeypatch) -> None:
    """Checked with the other output rules, so a PDF job does not compute and render first. Root ignores
    permission bits, so a read-only folder is simulated for it (a read-only mount gives EROFS alike)."""
    import advisor.report._safe_io as safe_io

    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if os.access(folder, os.W_OK):  # root
        real = os.access
        monkeypatch.setattr(safe_io.os, "access", lambda p, mode: False if Path(p) == folder else real(p, mode))
    root = Path(__file__).resolve().parent.parent
    for args in (["report", "--answers", str(root / "examples/report/digits_answers.yaml"),
                  str(root / "examples/digits/logreg.csv"), "-o", str(folder / "sub" / "r.pdf")],
                 ["metrics", "--format", "md", "-o", str(folder / "m.md")],
                 ["ask", "--out", str(folder / "a.yaml")]):
        res = runner.invoke(app, args, input="binary\n")
        assert res.exit_code == 2 and "not writable" in res.stderr, (args, res.stderr)
    assert list(folder.iterdir()) == []
    folder.chmod(0o755)


def test_an_error_quoting_a_huge_label_stays_one_readable_sentence(tmp_path: Path) -> None:
    f = tmp_path / "long.csv"
    f.write_text("y_true,y_pred\n" + "x" * 50_000 + ",a\na,b\nb,b\n", encoding="utf-8")
    for extra in ([], ["--order", "a,b"]):
        res = runner.invoke(app, ["compute", str(f), *extra])
        assert res.exit_code == 2 and res.stderr.count("\n") == 1 and len(res.stderr) < 1300, res.stderr[:300]
    deep = tmp_path / ("d" * 150) / ("e" * 150)
    deep.mkdir(parents=True)
    res = runner.invoke(app, ["compute", str(deep / "missing.csv")])
    assert res.exit_code == 2 and str(deep / "missing.csv") in res.stderr  # a long path is shown whole


def test_counts_near_the_largest_float_are_one_sentence_without_a_numpy_warning(tmp_path: Path) -> None:
    counts = tmp_path / "c.csv"
    counts.write_text("true,pred,count\na,a,1e308\na,b,1e308\nb,b,1e308\n", encoding="utf-8")
    res = runner.invoke(app, ["compute", "--counts", str(counts)])
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and res.stderr.count("\n") == 1, res.stderr
    assert "overflow" in res.stderr and "warning" not in res.stderr
