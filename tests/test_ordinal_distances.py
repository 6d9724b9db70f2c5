"""Issue 25 item 4: ordinal distances are the labels' values for numeric classes, ranks otherwise.

Before: 1–5 stars where nobody chose 3 gave MAE 0.5 (scikit-learn 0.75), because the order inferred
from the labels present made 2 → 4 one step; ``--order 1,2,10`` gave MAE 0.714 where the values give
3.714. Now MAE and macro MAE use value differences for numeric labels (MAE is scikit-learn's
``mean_absolute_error``), ranks of the order for other labels, and say which (``"distance"``).
Weighted kappa weighs by the ranks of a declared order (every declared class in the scale, as
``cohen_kappa_score(labels=order)``), and by the values when the order is inferred from numbers.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, mean_absolute_error

import advisor
from advisor import InputError
from advisor.engine._ordinal import ordinal_cells, ordinal_metrics
from advisor.engine._structures import evaluate_inputs

STARS_T = [1, 2, 4, 5, 1, 5, 2, 4, 4, 1]
STARS_P = [2, 1, 5, 4, 1, 5, 4, 2, 1, 5]


def _macro_mae(t, p):
    classes = sorted(set(t))
    return sum(np.mean([abs(a - b) for a, b in zip(t, p) if a == c]) for c in classes) / len(classes)


def _write(path, t, p):
    path.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(t, p)))
    return path


def _check(m, t, p, scale):
    assert m["mae"] == pytest.approx(mean_absolute_error(t, p), abs=1e-12)
    assert m["mae_macro"] == pytest.approx(_macro_mae(t, p), abs=1e-12)
    for w in ("linear", "quadratic"):
        assert m[f"weighted_kappa_{w}"] == pytest.approx(cohen_kappa_score(t, p, weights=w, labels=scale), abs=1e-12)


def test_stars_without_a_three_inferred_order_api():
    inputs = advisor.load_structured([{"y_true": STARS_T, "y_pred": STARS_P}], structure="ordinal")
    data = evaluate_inputs(inputs)
    m = data["metrics"]["system"]
    _check(m, STARS_T, STARS_P, [1, 2, 3, 4, 5])  # the values: 3 counts although nobody chose it
    assert data["distance"] == "values" and data["kappa_distance"] == "values"
    assert "difference of the label values" in data["notes"][0]


def test_stars_without_a_three_report_with_ordinal_answers(tmp_path, cli):
    f = _write(tmp_path / "stars.csv", STARS_T, STARS_P)
    ans = tmp_path / "a.yaml"
    ans.write_text("label_structure: ordinal\n")
    out = tmp_path / "r.json"
    r = cli("report", "--answers", ans, f, "-o", out, "--bootstrap", "0")
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text())
    _check(ctx["metrics"][ctx["systems"][0]], STARS_T, STARS_P, [1, 2, 3, 4, 5])
    assert any("difference of the label values" in w["message"] for w in ctx["warnings"])


def test_declared_numeric_order_values_for_mae_ranks_for_kappa(tmp_path, cli):
    t = [1, 2, 10, 1, 2, 10, 1]
    p = [2, 10, 1, 1, 2, 10, 10]
    r = cli("compute", _write(tmp_path / "o.csv", t, p), "--order", "1,2,10", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    _check(d["metrics"]["o"], t, p, [1, 2, 10])
    assert d["metrics"]["o"]["mae"] == pytest.approx(27 / 7)  # ranks gave 6/7
    assert d["distance"] == "values" and d["kappa_distance"] == "ranks"


def test_declared_scale_counts_a_class_nobody_chose(tmp_path, cli):
    t, p = [1, 1, 2, 4, 4, 2], [1, 2, 2, 4, 2, 4]
    r = cli("compute", _write(tmp_path / "o.csv", t, p), "--order", "1,2,3,4,5", "--json")
    assert r.exit_code == 0, r.output
    _check(json.loads(r.stdout)["metrics"]["o"], t, p, [1, 2, 3, 4, 5])


def test_declared_scale_with_a_confusion_matrix(tmp_path, cli):
    t, p = [1, 1, 2, 4, 4, 2, 5], [1, 2, 2, 4, 2, 5, 5]
    m = tmp_path / "m.csv"
    labs = [1, 2, 4, 5]
    counts = {(a, b): 0 for a in labs for b in labs}
    for a, b in zip(t, p):
        counts[(a, b)] += 1
    m.write_text("," + ",".join(map(str, labs)) + "\n" + "".join(
        f"{a}," + ",".join(str(counts[(a, b)]) for b in labs) + "\n" for a in labs))
    r = cli("compute", "--matrix", m, "--order", "1,2,3,4,5", "--json")
    assert r.exit_code == 0, r.output
    _check(json.loads(r.stdout)["metrics"]["m"], t, p, [1, 2, 3, 4, 5])


def test_labels_that_are_not_numbers_use_ranks(tmp_path, cli):
    order = ["low", "mid", "high", "top"]
    t = ["low", "mid", "top", "high", "low"]
    p = ["top", "mid", "low", "high", "mid"]
    r = cli("compute", _write(tmp_path / "w.csv", t, p), "--order", ",".join(order), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    rank = {c: i for i, c in enumerate(order)}
    _check(d["metrics"]["w"], [rank[x] for x in t], [rank[x] for x in p], [0, 1, 2, 3])
    assert d["distance"] == "ranks" and "not numbers" in d["notes"][0]


@pytest.mark.parametrize("seed", range(6))
def test_random_numeric_scales_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    scale = sorted(rng.choice(np.arange(-5, 40), size=rng.integers(3, 8), replace=False).tolist())
    n = int(rng.integers(5, 60))
    t = rng.choice(scale, n).tolist()
    p = rng.choice(scale, n).tolist()
    if len(set(t) | set(p)) < 2:
        return
    data = evaluate_inputs(advisor.load_structured([{"y_true": t, "y_pred": p}], structure="ordinal"))
    full = list(range(min(t + p), max(t + p) + 1))  # inferred from numbers: every integer between counts
    _check(data["metrics"]["system"], t, p, full)
    declared = evaluate_inputs(advisor.load_structured([{"y_true": t, "y_pred": p}], order=scale))
    _check(declared["metrics"]["system"], t, p, scale)


def test_fractional_values_and_text_numbers():
    t = ["0.5", "1.5", "4", "0.5"]
    p = ["1.5", "4", "0.5", "0.5"]
    c = ordinal_cells(y_true=t, y_pred=p, order=["0.5", "1.5", "4"], declared=False)
    r = ordinal_metrics(c)
    tv, pv = [float(x) for x in t], [float(x) for x in p]
    assert r["mae"] == pytest.approx(mean_absolute_error(tv, pv))


def test_one_number_written_two_ways_is_refused():
    with pytest.raises(InputError, match="same number"):
        ordinal_cells(y_true=["1", "1.0"], y_pred=["1.0", "1"], order=["1", "1.0"])


def test_bootstrap_interval_uses_the_same_distances(tmp_path, cli):
    t = [1, 5, 1, 5, 1, 5, 1, 5, 3, 3] * 3
    p = [5, 1, 1, 5, 5, 1, 1, 5, 3, 3] * 3
    r = cli("compute", _write(tmp_path / "o.csv", t, p), "--order", "1,3,5", "--json", "--bootstrap", "400",
            "--seed", "1")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    iv = d["intervals"]["o"]["mae"]
    assert d["metrics"]["o"]["mae"] == pytest.approx(mean_absolute_error(t, p))
    assert iv["low"] <= d["metrics"]["o"]["mae"] <= iv["high"] and iv["high"] > 1.0  # ranks would cap MAE at 2


def test_weighted_kappa_keeps_a_class_of_one_item_among_1e15():
    # every item of class 0 but one; no tolerance may call the chance term zero
    big = 10**15
    counts = [[big, 0], [1, 0]]
    r = ordinal_metrics(counts)
    # exact: O = [[big,0],[1,0]]; chance Σ a_i b_j w_ij = a_1 b_0 = 1·(big+1); observed Σ C w = 1
    exact = 1 - Fraction(big + 1) * 1 / (Fraction(1) * (big + 1))
    assert r["weighted_kappa_linear"] == pytest.approx(float(exact), abs=1e-12)
    assert not r.undefined
    counts = [[big, 1], [1, 1]]
    n = big + 3
    a, b = [big + 1, 2], [big + 1, 2]
    chance = Fraction(a[0] * b[1] + a[1] * b[0])
    exact = 1 - Fraction(n) * 2 / chance
    assert ordinal_metrics(counts)["weighted_kappa_linear"] == pytest.approx(float(exact), rel=1e-9)
    assert ordinal_metrics(counts)["weighted_kappa_quadratic"] == pytest.approx(float(exact), rel=1e-9)
