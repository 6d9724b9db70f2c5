"""Issue 24, acceptance 6: one JSON shape. compute, compare and report write the same nesting — system first,
``metrics[system][metric id]`` and ``intervals[system][metric id]`` — with a version field, as the JSON Schema in
``docs/schema/advisor-output.schema.json`` describes; the Python API writes the same JSON as the command."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
SCHEMA = json.loads((ROOT / "docs" / "schema" / "advisor-output.schema.json").read_text(encoding="utf-8"))
DIGITS = [EX / "digits" / "logreg.csv", EX / "digits" / "tree.csv"]
SCREENING = [EX / "scores" / "screening_sensitive.csv", EX / "scores" / "screening_specific.csv"]
STRUCT = EX / "structures"
runner = CliRunner()


def _valid(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` after checking it against the schema and the rules a schema cannot say: every per-system block
    is keyed by the listed systems, and an interval's estimate is the value in ``metrics``."""
    errors = sorted(jsonschema.Draft202012Validator(SCHEMA).iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]]
    assert data["schema_version"] == 2 and data["advisor_version"] == advisor.__version__
    for key in ("metrics", "intervals", "p_first", "rank_intervals"):
        assert set(data.get(key, {})) <= set(data["systems"]), key
    assert set(data["metrics"]) == set(data["systems"])
    for name, ivs in data.get("intervals", {}).items():
        for m, iv in ivs.items():
            assert iv["estimate"] == pytest.approx(data["metrics"][name][m]), (name, m)
    for m, names in data.get("winners", {}).items():
        assert set(names) <= set(data["systems"]), m
    return data


def _run(*args: Any) -> dict[str, Any]:
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _report(tmp_path: Path, answers: Path, files: list[Path], *args: Any) -> dict[str, Any]:
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["report", "--answers", str(answers), *map(str, files), *map(str, args), "-o", str(out),
                              "--force"])
    assert res.exit_code == 0, res.output
    return json.loads(out.read_text(encoding="utf-8"))


def _labels_only(tmp_path: Path) -> list[Path]:
    """The breast-cancer predictions without their probability columns: no score metric, no note."""
    out = []
    for src in (EX / "breast_cancer" / "logreg.csv", EX / "breast_cancer" / "naive_bayes.csv"):
        rows = list(csv.DictReader(src.open(encoding="utf-8")))
        dst = tmp_path / src.name
        dst.write_text("y_true,y_pred\n" + "".join(f"{r['y_true']},{r['y_pred']}\n" for r in rows), encoding="utf-8")
        out.append(dst)
    return out


def test_the_schema_is_a_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(SCHEMA["required"]) >= {"schema_version", "advisor_version", "command", "systems", "metrics"}


def test_the_same_metric_of_the_same_system_sits_at_the_same_path_in_all_three(tmp_path: Path) -> None:
    computed = _valid(_run("compute", *DIGITS, "--bootstrap", "200", "--seed", "1", "--json"))
    compared = _valid(_run("compare", *DIGITS, "--bootstrap", "200", "--seed", "1", "--json"))
    reported = _valid(_report(tmp_path, EX / "report" / "digits_answers.yaml", DIGITS, "--bootstrap", "200", "--seed",
                              "1"))
    assert [d["command"] for d in (computed, compared, reported)] == ["compute", "compare", "report"]
    for d in (computed, compared, reported):
        assert d["systems"] == ["logreg", "tree"]
        for name in d["systems"]:
            # a confusion-matrix metric and score metrics, in the same dicts
            for m in ("accuracy", "balanced_accuracy", "roc_auc", "log_loss"):
                assert d["metrics"][name][m] == pytest.approx(computed["metrics"][name][m], abs=1e-12), (d["command"], m)
                assert d["intervals"][name][m]["method"], (d["command"], m)
            # an exact interval does not depend on the resampling: the same numbers at the same path
            assert d["intervals"][name]["accuracy"] == pytest.approx(computed["intervals"][name]["accuracy"])
    for d in (compared, reported):  # what only a paired comparison has: per system, or per metric for the winners
        assert set(d["p_first"]) == set(d["rank_intervals"]) == {"logreg", "tree"}
        assert d["winners"]["balanced_accuracy"] == ["logreg"]
    assert "roc_auc" in compared["rank_intervals"]["logreg"] and "roc_auc" in compared["winners"]
    assert "scores" not in compared  # no separate system-first block for the score metrics any more
    assert [m["id"] for m in reported["metric_definitions"]][0] == reported["primary"] == "balanced_accuracy"


def test_compare_with_and_without_scores(tmp_path: Path) -> None:
    plain = _valid(_run("compare", *_labels_only(tmp_path), "--bootstrap", "200", "--seed", "2", "--json",
                        "--positive", "malignant"))
    assert "roc_auc" not in plain["metrics"]["logreg"] and "calibration" not in plain
    assert {(p["a"], p["b"]) for p in plain["pairs"]["mcc"]} == {("logreg", "naive_bayes")}
    scored = _valid(_run("compare", *SCREENING, "--bootstrap", "200", "--seed", "2", "--json", "--positive", "disease",
                         "--costs", "fn=5,fp=1"))
    name = "screening_sensitive"
    for m in ("accuracy", "roc_auc", "brier", "expected_cost"):
        assert m in scored["metrics"][name] and m in scored["intervals"][name] and m in scored["winners"], m
    assert scored["pairs"]["roc_auc"][0]["a"] == name and 0 <= scored["pairs"]["roc_auc"][0]["p_a_better"] <= 1
    assert set(scored["calibration"]) == {name, "screening_specific"}
    assert "multiple comparisons with the best" in scored["bootstrap"]["score_method"] and scored["bootstrap"]["seed_given"] is True


def test_compute_with_scores_subgroups_and_score_only_files(tmp_path: Path) -> None:
    data = _valid(_run("compute", *SCREENING, "--json", "--positive", "disease", "--bootstrap", "200", "--seed", "3"))
    assert {"roc_auc", "brier", "ece"} <= set(data["intervals"]["screening_specific"])
    rows = list(csv.DictReader(SCREENING[0].open(encoding="utf-8")))
    site = tmp_path / "site.csv"
    site.write_text("y_true,y_pred,site\n" + "".join(f"{r['y_true']},{r['y_pred']},{'ab'[i % 2]}\n"
                                                       for i, r in enumerate(rows)), encoding="utf-8")
    by = _valid(_run("compute", site, "--by", "site", "--positive", "disease", "--bootstrap", "200", "--seed", "3",
                     "--json"))
    block = by["groups"]["site"]["a"]
    assert block["metrics"]["site"]["tpr"] == block["intervals"]["site"]["tpr"]["estimate"]
    assert by["gaps"]["site"]["site"]["tpr"]["gap"] is not None
    scores_only = tmp_path / "s.csv"
    scores_only.write_text("y_true,score\n" + "".join(f"{r['y_true']},{r['p_disease']}\n" for r in rows),
                           encoding="utf-8")
    _valid(_run("compute", scores_only, "--positive", "disease", "--json"))


@pytest.mark.parametrize("args", [
    ["compute", STRUCT / "ordinal_near.csv", STRUCT / "ordinal_far.csv", "--order", "1,2,3,4,5", "--bootstrap", "200",
     "--seed", "1"],
    ["compare", STRUCT / "ordinal_near.csv", STRUCT / "ordinal_far.csv", "--order", "1,2,3,4,5", "--bootstrap", "200",
     "--seed", "1"],
    ["compare", STRUCT / "tagger_a.csv", STRUCT / "tagger_b.csv", "--label-sep", "|", "--bootstrap", "200", "--seed",
     "1"],
    ["compute", STRUCT / "annotators.csv", "--bootstrap", "200", "--seed", "1"],
    ["compute", *DIGITS, "--partitions"],
], ids=["ordinal compute", "ordinal compare", "multilabel compare", "annotators", "partitions"])
def test_structured_outputs_have_the_same_shape(args: list[Any]) -> None:
    data = _valid(_run(*args, "--json"))
    assert data["command"] == args[0] and data["structure"] in ("ordinal", "multilabel", "agreement", "partition")
    if args[0] == "compare":
        ids = set(data["metrics"][data["systems"][0]])
        assert set(data["winners"]) == set(data["pairs"]) == ids
        assert all(set(data["p_first"][s]) == set(data["intervals"][s]) == ids for s in data["systems"])


def test_the_api_writes_what_the_command_prints(tmp_path: Path) -> None:
    files = _labels_only(tmp_path)
    res = runner.invoke(app, ["compute", *map(str, files), "--positive", "malignant", "--json"])
    assert res.exit_code == 0, res.output
    ds = advisor.load([str(f) for f in files])
    ev = advisor.evaluate(ds.systems, positive_label="malignant")
    assert res.stdout == ev.to_json() + "\n"  # byte for byte
    _valid(json.loads(ev.to_json()))

    res = runner.invoke(app, ["compare", *map(str, files), "--bootstrap", "300", "--seed", "4", "--metrics",
                              "accuracy,mcc", "--json"])
    assert res.exit_code == 0, res.output
    cmp = advisor.compare_joint(advisor.load([str(f) for f in files]).joint, 300, 4, ["accuracy", "mcc"])
    api = json.loads(cmp.to_json())
    cli = _valid(json.loads(res.stdout))
    assert cli["bootstrap"].pop("seed_given") is True and cli["bootstrap"].pop("resampled") == "items"
    assert cli == api
    assert advisor.Comparison.from_json(res.stdout) == cmp  # the command's JSON reads back into the comparison


def test_a_report_json_reads_back_and_renders_again(tmp_path: Path) -> None:
    data = _report(tmp_path, EX / "structures" / "ordinal_answers.yaml",
                   [STRUCT / "ordinal_near.csv", STRUCT / "ordinal_far.csv"], "--order", "1,2,3,4,5", "--bootstrap",
                   "200", "--seed", "1")
    _valid(data)
    assert data["structure"] == "ordinal" and data["structure_data"]["confusion"]
    ctx = advisor.report.context_from_json(data)
    assert json.loads(advisor.report.render_report(ctx, "json")) == data
    assert ctx.metric(ctx.primary).formula and ctx.systems[0].values == data["metrics"][ctx.systems[0].name]
