"""Ordered classes, label sets, top-k and annotators go through the main report pipeline (issue 12, item 6).

Every structure renders as Markdown, LaTeX, HTML and JSON with its own figure, its catalogue formulas and
intervals; the JSON context re-renders; the LaTeX compiles; spans and rankings get a plain methods
paragraph naming what to measure and the tool, without a 'no formula' warning.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.cli import app

EX = Path(__file__).resolve().parents[1] / "examples" / "structures"
runner = CliRunner()

CASES = {
    "ordinal": (["ordinal_answers.yaml", "ordinal_near.csv", "ordinal_far.csv"], "weighted_kappa_quadratic",
                "the further its error"),
    "multilabel": (["multilabel_answers.yaml", "tagger_a.csv", "tagger_b.csv"], "multilabel_macro_f1",
                   "F1 of each label"),
    "topk": (["topk_answers.yaml", "model_a.csv", "model_b.csv"], "top_k_accuracy", "Top-k accuracy as k grows"),
    "annotators": (["annotators_answers.yaml", "annotators.csv"], "krippendorff_alpha",
                   "Cohen's kappa of each pair"),
}


def _run(tmp_path: Path, name: str, ext: str) -> tuple[Path, str]:
    files, _, _ = CASES[name]
    out = tmp_path / ext / f"{name}.{ext}"  # a folder per format: each writes its own figure files beside it
    out.parent.mkdir(exist_ok=True)
    args = ["report", "--answers", str(EX / files[0]), *(str(EX / f) for f in files[1:]), "--bootstrap", "200",
            "--seed", "3", "-o", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return out, res.output


@pytest.mark.parametrize("name", list(CASES))
def test_every_format_through_the_main_pipeline(tmp_path, name):
    from advisor.catalogue import get_catalogue

    _, metric, caption = CASES[name]
    cat = get_catalogue()
    md = _run(tmp_path, name, "md")[0].read_text(encoding="utf-8")
    assert "## Methods" in md and "## Results" in md and "structure.svg" in md and caption in md
    assert cat.metrics[metric].formula in md  # the catalogue's one formula
    assert "95% interval" in md and "**Evaluation.**" in md
    html = _run(tmp_path, name, "html")[0].read_text(encoding="utf-8")
    assert caption in html.replace("&#39;", "'") and "<svg" in html
    tex = _run(tmp_path, name, "tex")[0].read_text(encoding="utf-8")
    assert "structure.pdf" in tex and "\\begin{description}\n\\end{description}" not in tex
    ctx = json.loads(_run(tmp_path, name, "json")[0].read_text(encoding="utf-8"))
    assert ctx["structure"] == {"topk": "top_k", "annotators": "agreement"}.get(name, name)
    assert all(ctx["intervals"][s] for s in ctx["systems"])
    res = runner.invoke(app, ["report", "--context", str(tmp_path / "json" / f"{name}.json"), "-o", str(tmp_path / "re.md")])
    assert res.exit_code == 0, res.output
    assert caption in (tmp_path / "re.md").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
@pytest.mark.parametrize("name", ["multilabel", "annotators"])
def test_structured_latex_compiles(tmp_path, name):
    tex, _ = _run(tmp_path, name, "tex")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tex.parent,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout[-2000:]


@pytest.mark.parametrize("structure,tool", [("spans", "seqeval"), ("ranking", "ranx")])
def test_spans_and_rankings_say_what_to_measure(tmp_path, caplog, structure, tool):
    answers = tmp_path / "a.yaml"
    answers.write_text(f"task: multiclass\nlabel_structure: {structure}\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        res = runner.invoke(app, ["methods", "--answers", str(answers), "--seed", "7"])
    assert res.exit_code == 0, res.output
    assert tool in res.output and "no formula" not in res.output and "no formula" not in caplog.text
    assert "entity f1" not in res.output.lower() and "ndcg at k" not in res.output.lower()
