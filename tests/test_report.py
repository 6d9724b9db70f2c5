"""The report end to end: content, every format, numbers identical to `advisor compute`, hostile labels."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor.cli import app

pypdf = pytest.importorskip("pypdf")

EVIL = ["<script>alert(1)</script>", r"\input{/etc/passwd}", "{{ 7*7 }}"]
PLAIN = ["cat", "dog", "bird"]
# system names are file stems: hostile ones too
EVIL_SYSTEMS = ["<script>x", r"\input{y}", "{{7*7}}"]
runner = CliRunner()


def _write_predictions(folder: Path, labels: list[str], seed: int,
                       names: tuple[str, ...] = ("system_a", "system_b")) -> list[Path]:
    rng = np.random.default_rng(seed)
    n = 150
    y = rng.integers(0, len(labels), n)
    paths = []
    for name, noise in zip(names, (0.15, 0.4, 0.3)):
        pred = y.copy()
        flip = rng.random(n) < noise
        pred[flip] = rng.integers(0, len(labels), int(flip.sum()))
        path = folder / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["y_true", "y_pred"])
            w.writerows([labels[a], labels[b]] for a, b in zip(y, pred))
        paths.append(path)
    return paths


ANSWERS = """\
task: multiclass
n_classes: 3
deployment_prevalence: unknown
class_weighting: equal
planned_metrics: [macro F1]
notes: "<b>note</b> \\\\input{x} {{ 7*7 }}"
"""


@pytest.fixture(scope="module")
def evil(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("evil")
    files = _write_predictions(d, EVIL, seed=3, names=tuple(EVIL_SYSTEMS))
    (d / "answers.yaml").write_text(ANSWERS, encoding="utf-8")
    out = {"dir": d, "answers": d / "answers.yaml", "a": files[0], "b": files[1]}
    for fmt in ("html", "md", "tex", "json", "pdf"):
        res = runner.invoke(app, ["report", "--answers", str(out["answers"]), *map(str, files),
                                  "-o", str(d / f"report.{fmt}"), "--bootstrap", "200", "--seed", "7",
                                  "--title", "Title <i>x</i> \\input{t} {{ 1+1 }}"])
        assert res.exit_code == 0, res.output
        out[fmt] = d / f"report.{fmt}"
    return out


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("plain")
    files = _write_predictions(d, PLAIN, seed=5)
    (d / "answers.yaml").write_text(ANSWERS.replace("notes:", "# notes:"), encoding="utf-8")
    pdf = d / "report.pdf"
    res = runner.invoke(app, ["report", "--answers", str(d / "answers.yaml"), *map(str, files), "-o", str(pdf),
                              "--bootstrap", "200", "--seed", "1"])
    assert res.exit_code == 0, res.output
    return {"dir": d, "answers": d / "answers.yaml", "files": files, "pdf": pdf}  # type: ignore[dict-item]


def _pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(str(path)).pages)


# -- hostile labels come out as text in every format --------------------------------------------
def test_html_is_self_contained_and_escaped(evil: dict[str, Path]) -> None:
    html = evil["html"].read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert r"\input{/etc/passwd}" in html and "{{ 7*7 }}" in html and "{{ 1+1 }}" in html
    assert "&lt;script&gt;x" in html and r"\input{y}" in html and "{{7*7}}" in html  # system names
    assert "<i>x</i>" not in html and "<b>note</b>" not in html
    for m in re.finditer(r"""\b(?:src|href)\s*=\s*["']?([^"'\s>]*)""", html, re.I):
        assert m.group(1).startswith(("#", "data:image/")), m.group(0)
    assert not re.search(r"https?:|file:|ftp:|//[a-z]", html, re.I)
    assert "<link" not in html.lower() and "@import" not in html.lower() and "<iframe" not in html.lower()
    assert all(u.startswith("url(#") for u in re.findall(r"url\([^)]*\)", html))
    assert re.search(r"\bon[a-z]+\s*=", html) is None  # no event handlers either


def test_markdown_escapes_labels(evil: dict[str, Path]) -> None:
    md = evil["md"].read_text(encoding="utf-8")
    assert "<script>" not in md and "<b>" not in md
    assert r"\<script\>alert(1)\</script\>" in md
    assert r"\{\{ 7\*7 \}\}" in md
    assert r"\\input\{/etc/passwd\}" in md
    assert r"\<script\>x" in md and r"\\input\{y\}" in md and r"\{\{7\*7\}\}" in md  # system names
    # issue 10: numbers carry the decimals their interval supports (no longer a fixed 4)
    assert re.search(r"\| \*\*\d\.\d+\*\* \[", md) and r"\*\*" not in md  # winners in bold, not \*\*
    figures = sorted(p.name for p in (evil["dir"] / "report-figures").glob("*.svg"))
    assert figures and all(f"report-figures/{f}" in md for f in figures)


def test_latex_escapes_labels(evil: dict[str, Path]) -> None:
    tex = evil["tex"].read_text(encoding="utf-8")
    assert r"\input{/etc/passwd}" not in tex and r"\input{t}" not in tex
    assert r"\textbackslash{}input\{/etc/passwd\}" in tex
    assert r"\textless{}script\textgreater{}" in tex
    assert r"\{\{ 7*7 \}\}" in tex
    assert r"\input{y}" not in tex and r"\textbackslash{}input\{y\}" in tex  # system names
    assert r"\textless{}script\textgreater{}x" in tex and r"\{\{7*7\}\}" in tex
    assert (evil["dir"] / "report.bib").is_file()


def test_pdf_text_shows_labels_literally(evil: dict[str, Path]) -> None:
    text = _pdf_text(evil["pdf"])
    for label in EVIL + EVIL_SYSTEMS:
        assert label in text
    assert "Title <i>x</i> \\input{t} {{ 1+1 }}" in text
    assert "<b>note</b>" in text


def test_json_context_round_trips(evil: dict[str, Path]) -> None:
    from advisor.report import context_from_json, render_report

    data = json.loads(evil["json"].read_text(encoding="utf-8"))
    assert data["task"]["labels"] == EVIL  # raw in JSON: escaping happens when rendering
    assert data["systems"] == list(data["metrics"]) == EVIL_SYSTEMS
    ctx = context_from_json(data)
    assert [s.name for s in ctx.systems] == EVIL_SYSTEMS
    assert json.loads(render_report(ctx, "json")) == data


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_latex_compiles_with_pdflatex(evil: dict[str, Path], tmp_path: Path) -> None:
    for name in ("report.tex", "report.bib"):
        shutil.copy(evil["dir"] / name, tmp_path / name)
    shutil.copytree(evil["dir"] / "report-figures", tmp_path / "report-figures")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                         cwd=tmp_path, capture_output=True, timeout=120)
    assert res.returncode == 0, res.stdout.decode("latin-1")[-3000:]
    text = subprocess.run(["pdftotext", "report.pdf", "-"], cwd=tmp_path, capture_output=True).stdout.decode() \
        if shutil.which("pdftotext") else _pdf_text(tmp_path / "report.pdf")
    assert "<script>alert(1)</script>" in text


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_latex_fragment_compiles_inside_a_paper(evil: dict[str, Path], tmp_path: Path) -> None:
    frag = tmp_path / "section.tex"
    res = runner.invoke(app, ["report", "--context", str(evil["json"]), "-o", str(frag), "--fragment"])
    assert res.exit_code == 0, res.output
    body = frag.read_text(encoding="utf-8")
    assert r"\documentclass" not in body and r"\section{Evaluation}" in body
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage{amsmath,amssymb,booktabs,longtable,graphicx}\\usepackage[numbers]{natbib}"
        "\\begin{document}\\input{section}\\bibliographystyle{plainnat}\\bibliography{section}\\end{document}\n")
    res2 = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                          cwd=tmp_path, capture_output=True, timeout=120)
    assert res2.returncode == 0, res2.stdout.decode("latin-1")[-3000:]


# -- the numbers are advisor compute's ------------------------------------------------------------
def test_pdf_numbers_match_advisor_compute(plain: dict[str, Path]) -> None:
    res = runner.invoke(app, ["compute", *map(str, plain["files"]), "--json"])  # type: ignore[arg-type]
    assert res.exit_code == 0, res.output
    computed = json.loads(res.stdout)
    text = _pdf_text(plain["pdf"])
    tokens = set(re.findall(r"-?\d+\.\d+", text))
    checked = 0
    # issue 10: each number is rounded to what its interval supports (2 to 4 decimals), stated once
    for system, values in computed["metrics"].items():
        for mid, v in values.items():
            if v is None or not np.isfinite(v):
                continue
            assert any(f"{v:.{d}f}" in tokens for d in (2, 3, 4)), (system, mid, v)
            checked += 1
        for label, row in computed["per_class"][system].items():
            for field in ("precision", "recall", "f1"):
                assert f"{row[field]:.2f}" in tokens, (system, label, field)
    assert checked >= 30


def test_pdf_has_no_raw_tex(plain: dict[str, Path]) -> None:
    text = _pdf_text(plain["pdf"])
    assert "\\" not in text
    for token in ("frac", "\\sum", "_{", "^{", "\\mathrm", "$"):
        assert token not in text


def test_pdf_has_every_section(plain: dict[str, Path]) -> None:
    text = _pdf_text(plain["pdf"])
    # issue 10: a reader's structure — Methods, Results, Diagnostics, Warnings, Appendix
    for heading in ("Methods", "Results", "Diagnostics", "reference classifiers", "Per-class precision",
                    "Confusion matrices", "Appendix", "Every other metric", "Justification", "References", "Figure 1."):
        assert heading in text, heading
    assert re.search(r"\b1 / \d+\b", text)  # page numbers from the print CSS


# -- CLI behaviour -------------------------------------------------------------------------------
def test_report_refuses_to_overwrite_an_input(plain: dict[str, Path]) -> None:
    target = plain["files"][0]  # type: ignore[index]
    before = target.read_bytes()
    res = runner.invoke(app, ["report", "--answers", str(plain["answers"]), str(target), "-o", str(target),
                              "--format", "md"])
    assert res.exit_code == 2
    assert "input file" in res.output
    assert target.read_bytes() == before


def test_report_rejects_unknown_extension(plain: dict[str, Path], tmp_path: Path) -> None:
    res = runner.invoke(app, ["report", "--answers", str(plain["answers"]), str(plain["files"][0]),  # type: ignore[index]
                              "-o", str(tmp_path / "r.docx")])
    assert res.exit_code == 2
    assert ".docx" in res.output or "r.docx" in res.output
    assert not (tmp_path / "r.docx").exists()


def test_rerender_from_context(evil: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "again.html"
    res = runner.invoke(app, ["report", "--context", str(evil["json"]), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "&lt;script&gt;" in out.read_text(encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": 3}')
    res = runner.invoke(app, ["report", "--context", str(bad), "-o", str(tmp_path / "x.md")])
    assert res.exit_code == 2 and "not a report context" in res.output


def test_methods_command(plain: dict[str, Path], tmp_path: Path) -> None:
    res = runner.invoke(app, ["methods", "--answers", str(plain["answers"])])
    assert res.exit_code == 0, res.output
    assert "**Evaluation.**" in res.output and "$" in res.output  # Markdown with $…$ formulas
    res = runner.invoke(app, ["methods", "--answers", str(plain["answers"]), "--format", "tex"])
    assert res.exit_code == 0 and "\\(" in res.output
    res = runner.invoke(app, ["methods", "--answers", str(plain["answers"]), "--format", "html",
                              "-o", str(tmp_path / "m.html")])
    assert res.exit_code == 0 and "<svg" in (tmp_path / "m.html").read_text(encoding="utf-8")
    res = runner.invoke(app, ["methods", "--answers", str(plain["answers"]), "-o", str(plain["answers"])])
    assert res.exit_code == 2
