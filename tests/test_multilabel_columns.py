"""Issue 25 item 5: multi-label 0/1 columns are never dropped for lack of a partner.

Before: ``true_rare`` without ``pred_rare`` (a label the model never outputs) was left out, so subset
accuracy read 1.0 (0.4 over all labels); a ``y_pred`` column beside ``pred_`` columns was ignored; and
``report`` with ``label_structure: multilabel`` refused every ``true_``/``pred_`` file. Now an unpaired
column is kept (the missing side all 0) and said in a note, a stray ``y_true``/``y_pred`` is refused
as ambiguous, and the values equal scikit-learn's multi-label metrics over every label.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn import metrics as skm

import advisor
from advisor import InputError


def _write(path, cols):
    names = list(cols)
    rows = zip(*cols.values())
    path.write_text(",".join(names) + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return path


def _sk(Y, P):
    Y, P = np.asarray(Y), np.asarray(P)
    return {"multilabel_micro_f1": skm.f1_score(Y, P, average="micro", zero_division=0),
            "multilabel_macro_f1": skm.f1_score(Y, P, average="macro", zero_division=0),
            "hamming_loss": skm.hamming_loss(Y, P),
            "subset_accuracy": skm.accuracy_score(Y, P)}


def _samples_f1(Y, P):
    out = []
    for t, p in zip(Y, P):
        tp = sum(a and b for a, b in zip(t, p))
        den = sum(t) + sum(p)
        out.append(1.0 if den == 0 else 2 * tp / den)  # two empty sets agree (issue 22)
    return sum(out) / len(out)


def _check(m, Y, P):
    for k, v in _sk(Y, P).items():
        assert m[k] == pytest.approx(v, abs=1e-12), k
    assert m["multilabel_samples_f1"] == pytest.approx(_samples_f1(Y, P), abs=1e-12)


RARE = {"true_a": [1, 0, 1, 0, 1], "pred_a": [1, 0, 1, 0, 1],
        "true_b": [0, 1, 1, 0, 0], "pred_b": [0, 1, 1, 0, 0],
        "true_rare": [1, 0, 1, 0, 1]}


def test_a_label_the_model_never_predicts_is_kept(tmp_path, cli):
    r = cli("compute", _write(tmp_path / "m.csv", RARE), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["labels"] == ["a", "b", "rare"]
    Y = np.array([RARE["true_a"], RARE["true_b"], RARE["true_rare"]]).T
    P = np.array([RARE["pred_a"], RARE["pred_b"], [0] * 5]).T
    _check(d["metrics"]["m"], Y, P)
    assert d["metrics"]["m"]["subset_accuracy"] == pytest.approx(0.4)  # was 1.0
    assert any("rare" in n and "never predicted" in n for n in d["notes"])


def test_a_label_that_is_never_true_is_kept(tmp_path, cli):
    cols = {"true_a": [1, 0, 1, 0], "pred_a": [1, 0, 0, 0], "pred_spam": [0, 1, 0, 1]}
    r = cli("compute", _write(tmp_path / "m.csv", cols), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["labels"] == ["a", "spam"]
    Y = np.array([cols["true_a"], [0] * 4]).T
    P = np.array([cols["pred_a"], cols["pred_spam"]]).T
    _check(d["metrics"]["m"], Y, P)
    assert any("spam" in n and "never true" in n for n in d["notes"])
    text = cli("compute", tmp_path / "m.csv")
    assert text.exit_code == 0 and "never true" in text.output


@pytest.mark.parametrize("stray", ["y_pred", "y_true"])
def test_a_stray_label_column_beside_indicator_columns_is_refused(tmp_path, cli, stray):
    cols = {"true_a": [1, 0], "pred_a": [1, 1], stray: ["a", "b"]}
    f = _write(tmp_path / "m.csv", cols)
    ans = tmp_path / "a.yaml"
    ans.write_text("label_structure: multilabel\n")
    for args in (["compute", f], ["compare", f, f], ["report", "--answers", ans, f, "-o", tmp_path / "r.md"]):
        r = cli(*args)
        assert r.exit_code == 2, (args, r.output)
        assert stray in r.output and "ambiguous" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "r.md").exists()


def test_report_with_multilabel_answers_takes_a_complete_indicator_file(tmp_path, cli):
    rng = np.random.default_rng(3)
    Y = rng.integers(0, 2, (30, 4))
    P = np.where(rng.random((30, 4)) < 0.7, Y, 1 - Y)
    cols = {}
    for j, lab in enumerate("wxyz"):
        cols[f"true_{lab}"] = Y[:, j].tolist()
        cols[f"pred_{lab}"] = P[:, j].tolist()
    f = _write(tmp_path / "sys.csv", cols)
    ans = tmp_path / "a.yaml"
    ans.write_text("label_structure: multilabel\n")
    out = tmp_path / "r.json"
    r = cli("report", "--answers", ans, f, "-o", out, "--bootstrap", "0")
    assert r.exit_code == 0, r.output
    _check(next(iter(json.loads(out.read_text())["metrics"].values())), Y, P)


def test_report_with_multilabel_answers_still_takes_label_sets(tmp_path, cli):
    f = _write(tmp_path / "s.csv", {"y_true": ["a|b", "b", "c"], "y_pred": ["a", "b|c", "c"]})
    ans = tmp_path / "a.yaml"
    ans.write_text("label_structure: multilabel\n")
    out = tmp_path / "r.json"
    r = cli("report", "--answers", ans, f, "-o", out, "--bootstrap", "0")
    assert r.exit_code == 0, r.output
    Y = [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    P = [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    _check(next(iter(json.loads(out.read_text())["metrics"].values())), Y, P)


def test_systems_with_different_label_columns_are_widened_not_narrowed(tmp_path, cli):
    a = _write(tmp_path / "a.csv", {"true_x": [1, 0, 1], "pred_x": [1, 1, 1], "true_y": [0, 1, 1], "pred_y": [0, 1, 0]})
    b = _write(tmp_path / "b.csv", {"true_x": [1, 0, 1], "pred_x": [1, 0, 1], "true_y": [0, 1, 1]})
    r = cli("compare", a, b, "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    Y = [[1, 0], [0, 1], [1, 1]]
    _check(d["metrics"]["b"], Y, [[1, 0], [0, 0], [1, 0]])
    _check(d["metrics"]["a"], Y, [[1, 0], [1, 1], [1, 0]])


def test_systems_with_different_truths_are_refused(tmp_path, cli):
    a = _write(tmp_path / "a.csv", {"true_x": [1, 0, 1], "pred_x": [1, 1, 1]})
    b = _write(tmp_path / "b.csv", {"true_x": [1, 1, 1], "pred_x": [1, 0, 1]})
    r = cli("compare", a, b)
    assert r.exit_code == 2 and "row 2" in r.output and "true labels differ" in r.output


def test_python_api_keeps_unpaired_columns_and_refuses_strays():
    inputs = advisor.load_structured([RARE])
    assert inputs.labels == ("a", "b", "rare")
    with pytest.raises(InputError, match="ambiguous"):
        advisor.load_structured([{**RARE, "y_pred": ["a"] * 5}])
