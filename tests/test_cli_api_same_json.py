"""Issue 19, acceptance 3: the CLI and the Python API produce byte-identical JSON for the same inputs.

The command line is a thin layer over the library: ``advisor report … -o r.json`` writes what
``render_report(build_report(answers, advisor.load(files), …), "json")`` writes, and ``advisor recommend
--json`` prints the plan ``advisor.make_plan`` returns. (Each input is read once either way:
tests/test_open_once.py.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app
from advisor.report import render_report

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
runner = CliRunner()

CASES = {
    "digits": (EX / "report/digits_answers.yaml", [EX / "digits/logreg.csv", EX / "digits/tree.csv"], [], {}),
    "screening": (EX / "answers/medical_screening.yaml",
                  [EX / "scores/screening_sensitive.csv", EX / "scores/screening_specific.csv"], [], {}),
    "screening_options": (EX / "answers/medical_screening.yaml",
                          [EX / "scores/screening_sensitive.csv", EX / "scores/screening_specific.csv"],
                          ["--costs", "fn=5,fp=1", "--priors", "healthy=0.9,disease=0.1"],
                          {"costs": "fn=5,fp=1", "priors": "healthy=0.9,disease=0.1"}),
    "fraud": (EX / "answers/fraud_ranking.yaml", [EX / "scores/fraud_gbm.csv", EX / "scores/fraud_rules.csv"], [], {}),
    "wine": (EX / "answers/shared_task_multiclass.yaml", [EX / "wine/knn.csv", EX / "wine/logreg.csv"], [], {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_report_json_is_the_same_from_the_cli_and_the_api(case: str, tmp_path: Path) -> None:
    answers, files, args, kwargs = CASES[case]
    if case == "wine":  # the shared-task answers name other classes: let the data's classes stand
        text = answers.read_text(encoding="utf-8").replace("n_classes: 3\nclasses: [negative, neutral, positive]\n",
                                                           "n_classes: 3\n")
        answers = tmp_path / "answers.yaml"
        answers.write_text(text, encoding="utf-8")
    out = tmp_path / "cli.json"
    res = runner.invoke(app, ["report", "--answers", str(answers), *map(str, files), "--seed", "3", "--bootstrap",
                              "200", *args, "-o", str(out)])
    assert res.exit_code == 0, res.output
    ds = advisor.load([str(f) for f in files])
    ctx = advisor.build_report(answers, ds, seed=3, bootstrap=200, **kwargs)
    render_report(ctx, "json", tmp_path / "api.json")
    assert out.read_bytes() == (tmp_path / "api.json").read_bytes()
    assert json.loads(out.read_text(encoding="utf-8"))["plan"]["metrics"]  # the plan travels with the report


@pytest.mark.parametrize("answers", sorted([*EX.glob("answers/*.yaml"), *EX.glob("*/*answers*.yaml")]),
                         ids=lambda p: p.name)
def test_recommend_json_prints_the_plan_of_the_api(answers: Path) -> None:
    res = runner.invoke(app, ["recommend", "--answers", str(answers), "--json"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    assert printed["plan"] == json.loads(json.dumps(advisor.make_plan(answers).to_json_dict()))
