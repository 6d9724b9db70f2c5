"""Issue 20 items 3 and 4: resampling groups of items (--group) and several runs of a system (NAME=FILE).

A small simulation checks that the group bootstrap covers where the item bootstrap does not (recordings
of one patient share the patient's difficulty); the bad inputs are one sentence each, exit 2, nothing
written; runs give each system its mean over runs, with intervals over runs and items.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor import InputError
from advisor.cli import app
from advisor.stats._bounds import bounds_of


def _clustered(rng: np.random.Generator, groups: int = 40) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Binary items in groups of 5–15 whose accuracy varies between groups: Beta(4, 1), mean 0.8 (a design
    effect of about 2.5 — the item bootstrap's interval is about 1.6 times too narrow)."""
    size = rng.integers(5, 16, groups)
    g = np.repeat(np.arange(groups), size)
    acc = rng.beta(4.0, 1.0, groups)[g]
    y = rng.integers(0, 2, g.size)
    return y, np.where(rng.random(g.size) < acc, y, 1 - y), g


def test_group_bootstrap_covers_where_the_item_bootstrap_does_not():
    rng = np.random.default_rng(11)
    hits = {"items": 0, "groups": 0}
    reps = 80
    for r in range(reps):
        y, pred, g = _clustered(rng)
        for unit in hits:
            c = advisor.compare_systems(y, {"a": pred, "b": pred}, n_resamples=200, seed=r, metrics=["accuracy"],
                                        groups=g if unit == "groups" else None)
            s = c.metrics["accuracy"].systems["a"]
            hits[unit] += s.low <= 0.8 <= s.high  # the population accuracy (mean of the groups' 0.8)
    assert hits["groups"] / reps >= 0.88  # 0.96 with this seed
    assert hits["items"] / reps < 0.9 and hits["items"] < hits["groups"]  # 0.84: too narrow by about 1.6


def test_group_speed_path_gives_the_same_table_as_the_reader(tmp_path):
    rng = np.random.default_rng(4)
    y, pred, g = _clustered(rng, 15)
    path = tmp_path / "s.csv"
    path.write_text("patient,y_true,y_pred\n" + "".join(f"p{a},{b},{c}\n" for a, b, c in zip(g, y, pred)),
                    encoding="utf-8")
    ds = advisor.load(path, group="patient")
    assert ds.predictions.group_col == "patient" and len(ds.predictions.group_labels) == 15
    via_reader = advisor.stats.compare_joint(ds.joint, 200, 3, ["accuracy", "mcc"], groups=ds.predictions.groups)
    via_arrays = advisor.compare_systems(y, {"s": pred}, n_resamples=200, seed=3, metrics=["accuracy", "mcc"],
                                         groups=[f"p{x}" for x in g])
    assert via_reader.groups == via_arrays.groups == 15
    for m in ("accuracy", "mcc"):
        assert via_reader.metrics[m].systems["s"] == via_arrays.metrics[m].systems["s"]


def _file(tmp_path: Path, name: str, header: str, rows: list[str]) -> Path:
    p = tmp_path / name
    p.write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("command", ["compute", "compare", "report"])
def test_bad_groups_are_one_sentence_exit_2_nothing_written(tmp_path, command):
    runner = CliRunner()
    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\npositive_class: 1\n", encoding="utf-8")
    one = _file(tmp_path, "one.csv", "patient,y_true,y_pred", ["p1,0,0", "p1,1,1", "p1,1,0", "p1,0,1"])
    single = _file(tmp_path, "single.csv", "patient,y_true,y_pred", ["p1,0,0", "p2,1,1", "p3,1,0", "p4,0,1"])
    other = _file(tmp_path, "other.csv", "patient,y_true,y_pred", ["p1,0,1", "p2,1,1", "p3,1,0", "p4,0,0"])
    cases = {"one group": ([one, other], "patient", "in one group"),
             "single items": ([single, other], "patient", "holds a single item"),
             "missing column": ([single, other], "ward", "has no column 'ward'")}
    for files, col, said in cases.values():
        out = tmp_path / "r.md"
        args = {"compute": ["compute", *map(str, files), "--bootstrap", "200"],
                "compare": ["compare", *map(str, files), "--bootstrap", "200"],
                "report": ["report", "--answers", str(answers), *map(str, files), "--bootstrap", "200", "-o",
                           str(out)]}[command]
        res = runner.invoke(app, [*args, "--group", col])
        assert res.exit_code == 2, res.output
        assert said in res.output and "Traceback" not in res.output
        assert res.output.strip().count("\n") == 0  # one sentence
        assert not out.exists()


def test_group_with_matrices_is_refused(tmp_path):
    m = _file(tmp_path, "m.csv", ",0,1", ["0,5,1", "1,2,6"])
    with pytest.raises(InputError, match="confusion matrices and count tables do not keep"):
        advisor.load(matrices=[m], group="patient")


def test_runs_give_the_mean_over_runs_and_a_wider_interval(tmp_path):
    rng = np.random.default_rng(8)
    n = 300
    y = rng.integers(0, 2, n)

    def write(name: str, acc: float) -> Path:
        pred = np.where(rng.random(n) < acc, y, 1 - y)
        return _file(tmp_path, name, "y_true,y_pred", [f"{a},{b}" for a, b in zip(y, pred)])

    a = [write(f"a{i}.csv", acc) for i, acc in enumerate((0.70, 0.85, 0.78))]
    b = write("b.csv", 0.75)
    res = CliRunner().invoke(app, ["compare", *(f"A={p}" for p in a), str(b), "--bootstrap", "400", "--seed", "1",
                                   "--json", "--metrics", "accuracy"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["bootstrap"]["runs"] == {"A": 3, "b": 1} and data["systems"] == ["A", "b"]
    runs = [advisor.compute_metrics(advisor.load(p).systems[p.stem], ["accuracy"])["accuracy"] for p in a]
    got = data["intervals"]["A"]["accuracy"]
    assert got["estimate"] == pytest.approx(np.mean(runs))
    single = CliRunner().invoke(app, ["compare", str(a[0]), str(b), "--bootstrap", "400", "--seed", "1", "--json",
                                      "--metrics", "accuracy"])
    one = json.loads(single.stdout)["intervals"]["a0"]["accuracy"]
    assert got["high"] - got["low"] > one["high"] - one["low"]  # run-to-run variation is in the interval


def test_bad_runs_are_one_sentence_exit_2(tmp_path):
    runner = CliRunner()
    a1 = _file(tmp_path, "a1.csv", "y_true,y_pred", ["0,0", "1,1", "1,0", "0,0"])
    short = _file(tmp_path, "a2.csv", "y_true,y_pred", ["0,0", "1,1", "1,0"])
    truth = _file(tmp_path, "a3.csv", "y_true,y_pred", ["1,0", "1,1", "1,0", "0,0"])
    cases = [(["compare", f"A={a1}", f"A={tmp_path / 'missing.csv'}"], "does not exist"),
             (["compare", f"A={a1}", f"A={short}", str(a1)], "every system file must list the same items"),
             (["compare", f"A={a1}", f"A={truth}", str(a1)], "must list the same items"),
             (["compute", f"A={a1}", f"A={a1}"], "compute takes one file per system")]
    for args, said in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and said in res.output, (args, res.output)


def test_bounds_table_matches_the_catalogue():
    from advisor.catalogue import get_catalogue

    for mid, rec in get_catalogue().metrics.items():
        assert bounds_of(mid) == tuple(rec.range), mid


def test_the_answers_group_key_resamples_units_as_group_does(tmp_path):
    """Issue 20 item 3: answers key ``group`` names the resampling unit as ``--group`` does; --group wins."""
    rng = np.random.default_rng(5)
    y, pred, g = _clustered(rng, 20)
    path = tmp_path / "s.csv"
    path.write_text("patient,y_true,y_pred\n" + "".join(f"p{a},{b},{c}\n" for a, b, c in zip(g, y, pred)),
                    encoding="utf-8")
    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\npositive_class: 1\nitem_name: recording\ngroup: patient\n", encoding="utf-8")
    runner = CliRunner()
    outs = {}
    for name, extra in (("answers", []), ("option", ["--group", "patient"])):
        out = tmp_path / f"{name}.json"
        res = runner.invoke(app, ["report", "--answers", str(answers), str(path), "--bootstrap", "200", "--seed", "3",
                                  *extra, "-o", str(out)])
        assert res.exit_code == 0, res.output
        outs[name] = json.loads(out.read_text(encoding="utf-8"))
    assert outs["answers"]["bootstrap"]["groups"] == 20 and outs["answers"]["bootstrap"]["group_column"] == "patient"
    for key in ("systems", "metrics", "intervals", "per_class", "confusion"):
        assert outs["answers"][key] == outs["option"][key], key
    none = tmp_path / "none.yaml"
    none.write_text("task: binary\npositive_class: 1\ngroup: none\n", encoding="utf-8")
    out = tmp_path / "none.json"
    assert runner.invoke(app, ["report", "--answers", str(none), str(path), "--bootstrap", "200", "-o",
                               str(out)]).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))["bootstrap"].get("groups") is None
