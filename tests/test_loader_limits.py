"""Issue 25 item 13: deep JSON, huge integers and duplicate keys are one sentence, never an internal error.

Before: a ``--matrix`` JSON nested 100,000 deep ended in RecursionError, a 5,000-digit integer in an
answers file in ValueError, and a key given twice in YAML or JSON silently kept the last value.
"""

from __future__ import annotations

import json

import pytest

from advisor import InputError
from advisor.io._matrices import read_matrix
from advisor.questionnaire import load_answers

HUGE = "9" * 5000


def _one_sentence(r):
    assert r.exit_code == 2, r.output
    out = r.output.strip()
    assert "Traceback" not in out and "internal error" not in out and out.count("\n") == 0, out
    return out


@pytest.mark.parametrize("depth", [100_000, 5_000])
def test_deep_matrix_json(tmp_path, cli, depth):
    f = tmp_path / "deep.json"
    f.write_text("[" * depth + "]" * depth)
    out = _one_sentence(cli("compute", "--matrix", f))
    assert "deep.json" in out
    with pytest.raises(InputError):
        read_matrix(f)


def test_deep_matrix_json_inside_the_object(tmp_path, cli):
    f = tmp_path / "m.json"
    f.write_text('{"labels": ["a", "b"], "matrix": ' + "[" * 50_000 + "]" * 50_000 + "}")
    _one_sentence(cli("compute", "--matrix", f))


@pytest.mark.parametrize("text", [
    '{"labels": ["a", "b"], "matrix": [[' + HUGE + ', 1], [1, 1]]}',
    '{"labels": [' + HUGE + ', 2], "matrix": [[1, 1], [1, 1]]}',
    "[[1, -" + HUGE + "], [1, 1]]",
])
def test_huge_integer_in_a_matrix_json(tmp_path, cli, text):
    f = tmp_path / "m.json"
    f.write_text(text)
    out = _one_sentence(cli("compute", "--matrix", f))
    assert "5,000 digits" in out


@pytest.mark.parametrize("name, text", [
    ("a.yaml", "task: multiclass\nn_classes: " + HUGE + "\n"),
    ("b.yaml", "task: multiclass\nn_classes: 3\nerror_costs:\n  matrix: [[0, 1, 1], [1, 0, 1], [1, 1, " + HUGE + "]]\n"),
    ("c.yaml", "top_k: !!int " + HUGE + "\n"),
    ("d.json", '{"task": "multiclass", "n_classes": ' + HUGE + "}"),
    ("e.json", '{"error_costs": {"false_negative": ' + HUGE + ', "false_positive": 1}}'),
])
def test_huge_integer_in_an_answers_file(tmp_path, cli, name, text):
    f = tmp_path / name
    f.write_text(text)
    out = _one_sentence(cli("recommend", "--answers", f))
    assert "5,000 digits" in out and name in out
    with pytest.raises(InputError, match="digits"):
        load_answers(f)


@pytest.mark.parametrize("name, text, key", [
    ("top.yaml", "task: binary\ntask: multiclass\nn_classes: 3\n", "task"),
    ("costs.yaml", "task: binary\nclasses: [a, b]\npositive_class: b\nerror_costs:\n  false_negative: 3\n"
                   "  false_positive: 1\n  false_negative: 5\n", "false_negative"),
    ("flow.yaml", "task: binary\nerror_costs: {false_negative: 3, false_positive: 1, false_positive: 2}\n",
     "false_positive"),
    ("labels.yaml", "task: multiclass\nclasses: [1, 2, 3]\nclass_weighting: custom\n"
                    "class_weights: {1: 1, '1': 2, 2: 1, 3: 1}\n", "1"),
    ("top.json", '{"task": "binary", "task": "multiclass", "n_classes": 3}', "task"),
    ("nested.json", '{"task": "multiclass", "classes": ["a", "b", "c"], "deployment_prevalence": "shifted", '
                    '"target_prevalence": {"a": 0.5, "b": 0.2, "b": 0.3}}', "b"),
    ("costs.json", '{"task": "binary", "error_costs": {"false_negative": 3, "false_positive": 1, '
                   '"false_negative": 4}}', "false_negative"),
])
def test_duplicate_keys_are_refused(tmp_path, cli, name, text, key):
    f = tmp_path / name
    f.write_text(text)
    out = _one_sentence(cli("recommend", "--answers", f))
    assert f"'{key}' twice" in out
    with pytest.raises(InputError, match="twice"):
        load_answers(f)


def test_the_same_answers_without_duplicates_still_load(tmp_path):
    f = tmp_path / "ok.yaml"
    f.write_text("task: binary\nclasses: [a, b]\npositive_class: b\nerror_costs:\n  false_negative: 5\n"
                 "  false_positive: 1\n")
    assert load_answers(f).cost_ratio() == 5.0
    g = tmp_path / "ok.json"
    g.write_text(json.dumps({"task": "multiclass", "n_classes": 12345678901234567890}))
    assert load_answers(g).n_classes == 12345678901234567890

