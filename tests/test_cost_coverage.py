"""Issue 25 item 3: a cost matrix or cost spec must cover every class of the data and every needed cost.

A class left out of a cost matrix used to make every error involving it cost 0 (expected cost 0.0000
with four errors, all involving the left-out class), and ``--costs fn=10`` silently took fp = 0. Every
path — the cost-matrix CSV, the ``fn=…,fp=…`` text, the answers' ``error_costs`` and the Python API —
now refuses with one sentence naming what is missing; a complete spec gives the plain-Python value.
"""

from __future__ import annotations

import json

import pytest

import advisor
from advisor import InputError

# four errors, every one involving class c (the one the cost matrix below leaves out)
Y = ["a", "b", "c", "c", "a", "b", "c"]
P = ["a", "c", "a", "b", "c", "b", "c"]


def _data(tmp_path):
    f = tmp_path / "preds.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(Y, P)))
    return f


def _plain_ec(costs):
    """EC at the test priors = mean cost per item, by hand."""
    return sum(costs[t][p] for t, p in zip(Y, P)) / len(Y)


def test_cost_csv_leaving_out_a_class_is_refused(tmp_path, cli):
    f = _data(tmp_path)
    c = tmp_path / "costs.csv"
    c.write_text(",a,b\na,0,1\nb,1,0\n")
    r = cli("compute", f, "--costs", c)
    assert r.exit_code == 2, r.output
    msg = r.output.strip()
    assert "class c" in msg and "Traceback" not in msg and msg.count("\n") == 0
    assert "expected_cost" not in r.output


def test_full_cost_csv_gives_the_plain_mean_cost(tmp_path, cli):
    f = _data(tmp_path)
    c = tmp_path / "costs.csv"
    c.write_text(",a,b,c\na,0,1,2\nb,3,0,4\nc,5,6,0\n")
    r = cli("compute", f, "--costs", c, "--json")
    assert r.exit_code == 0, r.output
    costs = {"a": {"a": 0, "b": 1, "c": 2}, "b": {"a": 3, "b": 0, "c": 4}, "c": {"a": 5, "b": 6, "c": 0}}
    got = json.loads(r.stdout)["metrics"]["preds"]["expected_cost"]
    assert got == pytest.approx(_plain_ec(costs), abs=1e-12)  # 22/7, where leaving c out gave 1/7


@pytest.mark.parametrize("spec, missing", [("fn=10", "fp"), ("fp=3", "fn"), ("fn=0", "fp")])
def test_half_a_binary_cost_spec_is_refused(tmp_path, cli, spec, missing):
    f = tmp_path / "b.csv"
    f.write_text("y_true,y_pred\n1,1\n1,0\n0,0\n0,1\n0,1\n")
    for cmd in (["compute", f], ["compare", f, f]):
        r = cli(*cmd, "--positive", "1", "--costs", spec)
        assert r.exit_code == 2, r.output
        assert f"{missing} is missing" in r.output and "--costs" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("costs", [{"fn": 10}, {"fp": 1}, "fn=10"])
def test_python_api_refuses_half_a_binary_spec(costs):
    with pytest.raises(InputError, match="is missing"):
        advisor.evaluate([1, 0, 1, 0], [1, 1, 0, 0], costs=costs, positive_label=1)


def test_python_api_refuses_a_nested_mapping_without_a_class():
    costs = {"a": {"b": 1, "c": 1}, "b": {"a": 1, "c": 1}}
    with pytest.raises(InputError, match=r"no row for class c\b"):
        advisor.evaluate(Y, P, costs=costs)


def test_python_api_refuses_a_missing_error_cell_and_names_it():
    costs = {"a": {"b": 1, "c": 1}, "b": {"a": 1, "c": 1}, "c": {"a": 1}}
    with pytest.raises(InputError, match="c→b"):
        advisor.evaluate(Y, P, costs=costs)


def test_python_api_nested_mapping_may_leave_out_the_diagonal():
    costs = {"a": {"b": 1, "c": 2}, "b": {"a": 3, "c": 4}, "c": {"a": 5, "b": 6}}
    got = advisor.evaluate(Y, P, costs=costs).metrics["y_pred"]["expected_cost"]
    full = {t: {**row, t: 0} for t, row in costs.items()}
    assert got == pytest.approx(_plain_ec(full), abs=1e-12)


def test_engine_expected_cost_refuses_an_incomplete_mapping():
    from advisor.engine._costs import expected_cost

    cm = advisor.ConfusionMatrix([[1, 0, 1], [0, 1, 1], [1, 1, 1]], ["a", "b", "c"])
    with pytest.raises(InputError, match="no row for class"):
        expected_cost(cm, {"a": {"b": 1, "c": 1}, "b": {"a": 1, "c": 1}})


def test_build_report_costs_leaving_out_a_class_is_refused():
    with pytest.raises(InputError, match="class c"):
        advisor.build_report({"task": "multiclass"}, {"y_true": Y, "m": P},
                             costs={"a": {"b": 1, "c": 1}, "b": {"a": 1, "c": 1}}, bootstrap=0)


def test_answers_cost_matrix_over_fewer_classes_than_the_data_is_refused(tmp_path, cli):
    f = _data(tmp_path)
    ans = tmp_path / "a.yaml"
    ans.write_text("task: binary\nclasses: [a, b]\nerror_costs:\n  matrix: [[0, 1], [1, 0]]\n")
    r = cli("report", "--answers", ans, f, "-o", tmp_path / "r.json")
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and not (tmp_path / "r.json").exists()


def test_answers_cost_matrix_without_classes_is_not_silently_dropped(tmp_path, cli):
    f = _data(tmp_path)
    ans = tmp_path / "a.yaml"
    ans.write_text("task: multiclass\nn_classes: 3\nerror_costs:\n  matrix: [[0, 1, 1], [1, 0, 1], [9, 9, 0]]\n")
    r = cli("report", "--answers", ans, f, "-o", tmp_path / "r.json")
    assert r.exit_code == 2, r.output
    assert "error_costs.matrix" in r.output and "classes" in r.output


def test_answers_cost_matrix_with_classes_gives_the_plain_mean_cost(tmp_path, cli):
    f = _data(tmp_path)
    ans = tmp_path / "a.yaml"
    ans.write_text("task: multiclass\nclasses: [a, b, c]\nerror_costs:\n  matrix: [[0, 1, 2], [3, 0, 4], [5, 6, 0]]\n")
    out = tmp_path / "r.json"
    r = cli("report", "--answers", ans, f, "-o", out, "--bootstrap", "0")
    assert r.exit_code == 0, r.output
    costs = {"a": {"a": 0, "b": 1, "c": 2}, "b": {"a": 3, "b": 0, "c": 4}, "c": {"a": 5, "b": 6, "c": 0}}
    text = out.read_text()
    assert "expected_cost" in text
    ctx = json.loads(text)
    found = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "expected_cost" and isinstance(v, (int, float)):
                    found.append(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(ctx)
    assert found and all(v == pytest.approx(_plain_ec(costs), abs=1e-9) for v in found)


def test_a_cost_csv_is_read_as_costs_not_counts(tmp_path, cli):
    """Limits of counts (smallest positive count, not all zero) do not apply to costs; errors say 'cost'."""
    f = _data(tmp_path)
    tiny = tmp_path / "tiny.csv"
    tiny.write_text(",a,b,c\na,0,1e-12,1\nb,1,0,1\nc,1,1,0\n")
    r = cli("compute", f, "--costs", tiny, "--json")
    assert r.exit_code == 0, r.output
    costs = {"a": {"a": 0, "b": 1e-12, "c": 1}, "b": {"a": 1, "b": 0, "c": 1}, "c": {"a": 1, "b": 1, "c": 0}}
    assert json.loads(r.stdout)["metrics"]["preds"]["expected_cost"] == pytest.approx(_plain_ec(costs))
    zero = tmp_path / "zero.csv"
    zero.write_text(",a,b,c\na,0,0,0\nb,0,0,0\nc,0,0,0\n")
    r = cli("compute", f, "--costs", zero, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["metrics"]["preds"]["expected_cost"] == 0.0
    neg = tmp_path / "neg.csv"
    neg.write_text(",a,b,c\na,0,1,1\nb,1,0,1\nc,1,-2,0\n")
    r = cli("compute", f, "--costs", neg)
    assert r.exit_code == 2 and "the cost is -2" in r.output and "count" not in r.output


def test_priors_must_give_every_class_a_share(tmp_path, cli):
    """The same principle for deployment shares: a class left out weighed nothing in the expected cost."""
    f = _data(tmp_path)
    costs = tmp_path / "c.csv"
    costs.write_text(",a,b,c\na,0,1,1\nb,1,0,1\nc,1,1,0\n")
    r = cli("compute", f, "--costs", costs, "--priors", "a=0.5,b=0.5")
    assert r.exit_code == 2 and "no share for c" in r.output
    with pytest.raises(InputError, match="no share for c"):
        advisor.evaluate(Y, P, costs={"a": {"b": 1, "c": 1}, "b": {"a": 1, "c": 1}, "c": {"a": 1, "b": 1}},
                         priors={"a": 0.5, "b": 0.5})
    r = cli("compute", f, "--costs", costs, "--priors", "a=0.5,b=0.5,c=0", "--json")
    assert r.exit_code == 0, r.output
    # EC = Σ_i π_i (errors of class i / items of class i): a has 1 error of 2, b 1 of 2, c left at 0
    assert json.loads(r.stdout)["metrics"]["preds"]["expected_cost"] == pytest.approx(0.5 * 1 / 2 + 0.5 * 1 / 2)
