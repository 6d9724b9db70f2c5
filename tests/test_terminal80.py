"""What a new user reads at 80 columns: ``ask``'s closing recommendation and ``recommend`` laid out
for the terminal (the 100-column screen re-wrapped line by line broke sentences into ragged halves),
piped output unchanged; the questionnaire's words where a reply is refused."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from advisor.cli import app
from advisor.questionnaire import load_answers, recommend
from advisor.plan import make_plan, plan_text
from advisor.questionnaire._answers import _BY_KEY
from advisor.questionnaire._ask import allowed_words, ask_questions, parse_reply
from advisor.questionnaire._screen import screen_width

runner = CliRunner()
# binary, costs 10:1, shifted prevalence, custom weights, ranking: a screen with every section
# (issue 23 item 6: six Enters at the structure questions before the task; no reply to the probabilities question,
# merged into the outputs question)
STRUCTURE_DEFAULTS = [""] * 6
REPLIES = ["", "", "", *STRUCTURE_DEFAULTS, "binary", "healthy, sick", "no", "no", "sick", "unknown", "fn=10, fp=1",
           "shifted", "healthy=0.9, sick=0.1", "no", "custom", "healthy=1, sick=5", "required", "yes", "yes"]


def _answers_file(tmp_path: Path) -> Path:
    it = iter(REPLIES)
    answers = ask_questions(lambda prompt: next(it, ""), lambda text: None)
    path = tmp_path / "answers.yaml"
    from advisor.questionnaire import answers_to_yaml

    path.write_text(answers_to_yaml(answers), encoding="utf-8")
    return path


def test_recommend_fits_the_terminal_and_keeps_its_layout_when_piped(tmp_path: Path) -> None:
    path = _answers_file(tmp_path)
    plan = make_plan(load_answers(path))  # the screen is the plan's: the recommendation, then what the plan adds
    rec = plan._rec
    piped = runner.invoke(app, ["recommend", "--answers", str(path)], env={"COLUMNS": ""})
    assert piped.exit_code == 0 and piped.stdout == plan_text(plan)  # a pipe: the usual 100-column screen
    for args in ([], ["--explain"]):
        res = runner.invoke(app, ["recommend", "--answers", str(path), *args], env={"COLUMNS": "80"})
        assert res.exit_code == 0, res.stderr
        lines = res.stdout.splitlines()
        assert max(len(line) for line in lines) <= 79, max(lines, key=len)
    with screen_width(80):
        assert res.stdout == plan_text(plan, explain=True)
        assert rec.to_explain_text() in res.stdout
    assert plan_text(plan) == piped.stdout  # the layout is restored after the terminal view


def test_ask_ends_with_the_recommendation_laid_out_for_80_columns(tmp_path: Path) -> None:
    out = tmp_path / "a.yaml"
    res = runner.invoke(app, ["ask", "--out", str(out)], input="\n".join(REPLIES) + "\n" * 40,
                        env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.stderr
    after = res.stdout.split("Saved your answers")[1]  # (before it, the test's unechoed replies join prompts)
    # every line fits, except the one naming the saved file: a path cannot be wrapped (under pytest-xdist the
    # temporary folder alone is over 70 characters)
    assert max(len(line) for line in after.splitlines() if out.name not in line) <= 79
    with screen_width(80):
        screen = recommend(load_answers(out)).to_text()
    assert screen in res.stdout  # whole, as laid out for 80 columns, not re-wrapped into ragged lines


def test_refusals_speak_the_prompts_words() -> None:
    costs = _BY_KEY["error_costs"]
    for reply in ("unknown", "don't know", "not sure"):  # the prompt: "'none' if … you cannot say"
        assert parse_reply(costs, reply, {}) is None
    assert allowed_words(_BY_KEY["positive_class"]) == "one of the class names, or none"
    # after the costs ("none"), Enter leaves the costlier error unanswered (issue 22: asked when no costs are given)
    it = iter(["", "", "", *STRUCTURE_DEFAULTS, "binary", "a, b", "no", "no", "b", "yes", "none", "", "shifted", "a=0.6, b=0.3", "a=0.5, b=0.5"]
              + [""] * 30)
    shown: list[str] = []
    answers = ask_questions(lambda prompt: next(it), shown.append)
    assert "   Not allowed: the shares must sum to 1 (they sum to 0.9). Please answer again." in shown
    assert answers.target_prevalence == {"a": 0.5, "b": 0.5}


def test_compare_with_scores_fits_80_columns() -> None:
    """The score-metric part of compare was one unwrapped line per metric (up to 110 characters)."""
    root = Path(__file__).resolve().parent.parent
    files = [str(root / "examples/digits/logreg.csv"), str(root / "examples/digits/tree.csv")]
    res = runner.invoke(app, ["compare", *files, "--bootstrap", "200", "--seed", "1"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    start = next(i for i, line in enumerate(lines) if line.startswith("score metrics"))
    header = next(line for line in lines[start:] if line.strip().startswith("metric"))
    assert "logreg" in header and "tree" in header  # systems as columns, as in the tables above
    assert any(line.strip().startswith("log_loss ↓") for line in lines[start:])
    assert "multiple comparisons with the best" in " ".join(" ".join(lines[start:]).split())


def test_compute_on_an_80_column_terminal_keeps_every_number_beside_long_labels(tmp_path: Path) -> None:
    """On a terminal, a 60-character label (or system name) folds; the number columns keep their
    width (they were crushed to '0…' and empty columns)."""
    import os
    import re
    import sys

    import pytest

    pexpect = pytest.importorskip("pexpect")
    script = Path(sys.executable).parent / "advisor"
    if not script.exists():
        pytest.skip(f"console script not installed at {script}")
    labels = ["L" * 100, "short", "M" * 70]
    rows = "".join(f"{labels[i % 3]},{labels[(i + (i % 4 == 0)) % 3]}\n" for i in range(90))
    f = tmp_path / ("S" * 70 + ".csv")
    f.write_text("y_true,y_pred\n" + rows, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    child = pexpect.spawn(str(script), ["compute", str(f)], env={**env, "TERM": "dumb"}, encoding="utf-8",
                          dimensions=(60, 80), timeout=120)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    lines = child.before.replace("\r", "").splitlines()
    assert max(len(line) for line in lines) <= 80
    numbers = [line for line in lines if re.search(r"│\s+30 │\s+\d+ │\s+[01]\.\d{4} │", line)]
    assert len(numbers) == 3, "\n".join(lines)  # one per class: support 30, predicted, precision …
    assert any(re.search(r"│\s+0\.\d{4} │\s+0\.\d{4} │\s+0\.\d{4} │$", line) for line in lines)  # the metrics
