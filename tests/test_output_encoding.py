"""Any output encoding: with ``PYTHONIOENCODING=ascii`` (or ``LANG=C``) the bundled example prints,
spelled in ASCII, instead of ending in an internal UnicodeEncodeError (issue 15, item 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = [str(ROOT / "examples/digits/logreg.csv"), str(ROOT / "examples/digits/tree.csv")]


def _advisor(*args: str, encoding: str = "ascii") -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", *args],
                          capture_output=True, env=env, timeout=300)


@pytest.mark.parametrize("args", [
    ["compute", *EXAMPLE],
    ["compare", *EXAMPLE, "--bootstrap", "200", "--seed", "1"],
    ["recommend", "--answers", str(ROOT / "examples/report/digits_answers.yaml")],
    ["compute", "--matrix", "no-such-file-≥.json"],
])
def test_ascii_output_works(args: list[str]) -> None:
    res = _advisor(*args)
    err = res.stderr.decode("utf-8")  # (click itself writes UTF-8 when told ASCII; Rich obeys, spelled out)
    assert "internal error" not in err and "UnicodeEncodeError" not in err, err
    assert res.returncode in (0, 2), err
    if args[0] == "compute" and res.returncode == 0:
        assert b"accuracy" in res.stdout
        res.stdout.decode("ascii")  # Rich's tables: every byte ASCII


def test_spell_out_handler() -> None:
    from advisor.cli._common import _spell_out, tolerant_output

    tolerant_output()  # registers the handler
    assert "a ≥ b − c · é κ".encode("ascii", "advisor-spell-out") == b"a >= b - c . e \\u03ba"
    with pytest.raises(UnicodeDecodeError):
        _spell_out(UnicodeDecodeError("ascii", b"\xff", 0, 1, "x"))


def test_missing_pdf_libraries_are_one_sentence_before_any_work(tmp_path: Path) -> None:
    """A machine without Pango: WeasyPrint's import fails with OSError; the PDF job says what to
    install and that HTML works, before reading the inputs."""
    fake = tmp_path / "fake" / "weasyprint"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "raise OSError(\"cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file\")\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "fake")}
    out = tmp_path / "r.pdf"
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "report", "--answers",
                          str(ROOT / "examples/report/digits_answers.yaml"), *EXAMPLE, "-o", str(out)],
                         capture_output=True, env=env, timeout=300, text=True)
    assert res.returncode == 2, res.stderr
    assert res.stderr.count("\n") == 1 and "internal error" not in res.stderr
    for words in ("libpango-1.0-0", "apt-get install", "brew install pango", "report.html"):
        assert words in res.stderr
    assert not out.exists()
    html = tmp_path / "r.html"  # HTML still works on that machine
    res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "report", "--answers",
                          str(ROOT / "examples/report/digits_answers.yaml"), *EXAMPLE, "--bootstrap", "200",
                          "-o", str(html)], capture_output=True, env=env, timeout=300, text=True)
    assert res.returncode == 0, res.stderr
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
