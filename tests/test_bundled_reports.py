"""The bundled example reports are what the current code writes, and their Methods paragraphs read like a
paper's: every bundled report is rewritten with the command beside it (examples/README.md,
examples/structures/README.md) and its Methods section compared; every paragraph of a report with data is
at most 220 words, no sentence over 40, and every metric reported beside the lead says what it adds.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from conftest import report_in

from tests.test_methods_prose import prose_of, sentences, words

ROOT = Path(__file__).resolve().parents[1]
SC, ST = ROOT / "examples/scores", ROOT / "examples/structures"

#: bundled report → the arguments that wrote it (before ``-o``), as the examples' READMEs give them
BUNDLED: dict[str, list[str]] = {
    "scores/screening_report.md": ["--answers", "examples/answers/medical_screening.yaml",
                                   "examples/scores/screening_sensitive.csv", "examples/scores/screening_specific.csv",
                                   "--seed", "7"],
    "scores/fraud_report.md": ["--answers", "examples/answers/fraud_ranking.yaml", "examples/scores/fraud_gbm.csv",
                               "examples/scores/fraud_rules.csv", "--seed", "7"],
    "scores/risk_report.md": ["--answers", "examples/answers/risk_estimates.yaml", "examples/scores/risk_calibrated.csv",
                              "examples/scores/risk_overconfident.csv", "--seed", "7"],
    "structures/ordinal_report.md": ["--answers", "ordinal_answers.yaml", "ordinal_near.csv", "ordinal_far.csv",
                                     "--order", "1,2,3,4,5", "--seed", "2024", "--bootstrap", "1000"],
    "structures/multilabel_report.md": ["--answers", "multilabel_answers.yaml", "tagger_a.csv", "tagger_b.csv",
                                        "--label-sep", "|", "--seed", "2024", "--bootstrap", "1000"],
    "structures/chest_report.md": ["--answers", "chest_answers.yaml", "chest_scores.csv", "--seed", "2024",
                                   "--bootstrap", "1000"],
    "structures/topk_report.md": ["--answers", "topk_answers.yaml", "model_a.csv", "model_b.csv", "--seed", "2024",
                                  "--bootstrap", "1000"],
    "structures/annotators_report.md": ["--answers", "annotators_answers.yaml", "annotators.csv", "--seed", "2024",
                                        "--bootstrap", "1000"],
    "structures/partition_report.md": ["--answers", "partition_answers.yaml", "clusters_a.csv", "clusters_b.csv",
                                       "--seed", "2024", "--bootstrap", "1000"],
    "report/digits_report.html": ["--answers", "examples/report/digits_answers.yaml", "examples/digits/logreg.csv",
                                  "examples/digits/tree.csv", "--seed", "2024"],
}


def test_every_bundled_report_is_listed():
    found = {str(p.relative_to(ROOT / "examples")) for p in
             [*SC.glob("*_report.md"), *ST.glob("*_report.md"), *(ROOT / "examples/report").glob("*_report.html")]}
    assert found == set(BUNDLED)


def _methods(text: str) -> str:
    """The Methods section of a Markdown or HTML report (up to the Results heading)."""
    if "<h2" in text:
        return text.split('<h2 id="methods">', 1)[1].split('<h2 id="results">', 1)[0]
    return text.split("## Methods", 1)[1].split("\n## ", 1)[0]


@pytest.fixture(scope="module")
def rewritten(tmp_path_factory) -> dict[str, str]:
    """Each bundled report written again by the current code (figures and all, as the README's command)."""
    out: dict[str, str] = {}
    tmp = tmp_path_factory.mktemp("bundled")
    for name, args in BUNDLED.items():
        target = report_in(ST if name.startswith("structures/") else ROOT, args, tmp / Path(name).name)
        out[name] = target.read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_methods_section_is_what_the_code_writes(name, rewritten):
    bundled = (ROOT / "examples" / name).read_text(encoding="utf-8")
    assert _methods(bundled) == _methods(rewritten[name]), (
        f"examples/{name} is stale: rewrite it with the command in examples/README.md or examples/structures/README.md")


def _paragraph(md: str) -> str:
    line = next(ln for ln in md.splitlines() if ln.startswith("**Evaluation.**"))
    return prose_of(line)[0]


@pytest.mark.parametrize("name", sorted(n for n in BUNDLED if n.endswith(".md")))
def test_paragraph_with_data_reads_like_a_paper(name, rewritten):
    text = _paragraph(rewritten[name])
    assert 60 <= len(words(text)) <= 220, (len(words(text)), text)
    long = [s for s in sentences(text) if len(words(s)) > 40]
    assert not long, long
    # every metric reported beside the lead says what it adds: "name, what it adds" in each list item
    for s in sentences(text):
        if s.startswith(("We also report ", "We add ")):
            items = re.split(r";\s+(?:and\s+)?", s.split(" ", 3)[3].rstrip("."))
            bare = [it for it in items if ", " not in it]
            assert not bare, (bare, s)


def test_digits_report_paragraph_reads_like_a_paper(rewritten):
    html = _methods(rewritten["report/digits_report.html"])
    # the section's own heading ("Methods", left by _methods' split) is not a word of the paragraph
    html = re.sub(r"^[^<]*</h2>", "", html)
    text = unescape(re.sub(r"<[^>]+>", "", html.split("</p>", 1)[0]))  # "set&#39;s" is one word, not two
    text = re.sub(r"\\\(.*?\\\)", "X", text)
    assert len(words(text)) <= 220 and not [s for s in sentences(text) if len(words(s)) > 40], text
