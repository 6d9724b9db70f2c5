"""Issue 22: adjacent agreement, and exact agreement as accuracy, for automated essay scoring.

An essay-scoring author planned "quadratic weighted kappa, exact agreement, adjacent agreement" on a 1–6 scale;
advisor said the catalogue had no entry for the last two. Adjacent agreement is now an ordinal metric
(``adjacent_accuracy``: the share of items predicted at most one step of the class order from the true class,
steps counted in ranks of the order, never label values), "exact agreement" is another name of accuracy, and the
field of automated essay scoring (Williamson, Xi & Breyer 2012) reports QWK beside exact and adjacent agreement.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor.catalogue import get_catalogue
from advisor.catalogue._resolve import resolve_metric
from advisor.engine._ordinal import ordinal_cells, ordinal_metrics
from advisor.engine._structures import evaluate_inputs, evaluate_structure
from advisor.stats._bounds import bounds_of
from advisor.stats._structures import structure_bootstrap

ESSAY = Path(__file__).parent / "situations" / "essay.yaml"


def _every_step_counts(tmp_path: Path) -> Path:
    """The essay situation with its tolerance left open (tolerated_steps: 1 puts adjacent agreement first; these
    tests are about the distance lead and the field's figures beside it)."""
    out = tmp_path / "essay_every_step.yaml"
    out.write_text("".join(line for line in ESSAY.read_text(encoding="utf-8").splitlines(keepends=True)
                           if not line.startswith("tolerated_steps:")), encoding="utf-8")
    return out
ID = "adjacent_accuracy"


def _direct(t: np.ndarray, p: np.ndarray, order: list) -> float:
    """Per item: within one step of the order (ranks), averaged over the items."""
    rank = {c: i for i, c in enumerate(order)}
    return float(np.mean([abs(rank[a] - rank[b]) <= 1 for a, b in zip(t.tolist(), p.tolist())]))


@pytest.mark.parametrize("seed", range(5))
def test_engine_equals_a_direct_per_item_computation(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 8))
    order = list(range(1, k + 1))
    n = int(rng.integers(1, 400))
    t = rng.integers(1, k + 1, n)
    p = np.clip(t + rng.integers(-3, 4, n), 1, k)
    cells = ordinal_cells(y_true=t, y_pred=p, order=order)
    got = ordinal_metrics(cells, [ID])[ID]
    assert got == pytest.approx(_direct(t, p, order), abs=1e-12)
    # from the matrix too (rows true, columns predicted, classes in order)
    m = np.zeros((k, k))
    np.add.at(m, (t - 1, p - 1), 1)
    assert ordinal_metrics(m, [ID])[ID] == pytest.approx(got, abs=1e-12)


def test_by_hand_on_a_small_example():
    # 1→1, 2→3 (one step), 3→1 (two steps), 4→4, 5→2 (three steps), 2→2, 6→5 (one step), 1→3 (two steps)
    t = [1, 2, 3, 4, 5, 2, 6, 1]
    p = [1, 3, 1, 4, 2, 2, 5, 3]
    r = ordinal_metrics(ordinal_cells(y_true=t, y_pred=p, order=[1, 2, 3, 4, 5, 6]))
    assert r[ID] == pytest.approx(5 / 8)  # 1→1, 2→3, 4→4, 2→2, 6→5
    assert r["mae"] == pytest.approx((0 + 1 + 2 + 0 + 3 + 0 + 1 + 2) / 8)
    # exact agreement is accuracy, beside it in the ordinal evaluation
    values = evaluate_structure(ordinal_cells(y_true=t, y_pred=p, order=[1, 2, 3, 4, 5, 6]))["values"]
    assert values["accuracy"] == pytest.approx(3 / 8) and values[ID] == pytest.approx(5 / 8)


def test_steps_are_ranks_of_the_order_not_label_values():
    # a half-point scale: 1 → 2 is two steps (1, 1.5, 2) although the values differ by 1
    order = [1.0, 1.5, 2.0, 2.5]
    t, p = [1.0, 1.0, 2.0, 2.5], [1.5, 2.0, 2.5, 2.5]
    cells = ordinal_cells(y_true=t, y_pred=p, order=order)
    assert cells.distance == "values"  # MAE measures values here; adjacent agreement counts steps
    assert ordinal_metrics(cells, [ID])[ID] == pytest.approx(3 / 4)
    # text labels: ranks as well
    lo = ordinal_cells(y_true=["lo", "lo", "hi"], y_pred=["mid", "hi", "hi"], order=["lo", "mid", "hi"])
    assert ordinal_metrics(lo, [ID])[ID] == pytest.approx(2 / 3)


def test_two_classes_are_always_adjacent():
    assert ordinal_metrics([[3, 2], [4, 1]], [ID])[ID] == 1.0


def test_the_bootstrap_interval_contains_the_estimate():
    rng = np.random.default_rng(7)
    t = rng.choice(np.arange(1, 7), 300, p=[.05, .15, .3, .3, .15, .05])
    p = np.clip(np.rint(t + rng.normal(0, 1.2, t.size)), 1, 6).astype(int)
    cells = ordinal_cells(y_true=t, y_pred=p, order=list(range(1, 7)))
    r = structure_bootstrap("ordinal", cells, [ID, "weighted_kappa_quadratic"], n_resamples=400, seed=1)
    est = _direct(t, p, list(range(1, 7)))
    assert r[ID]["estimate"] == pytest.approx(est)
    assert 0.0 <= r[ID]["low"] < est < r[ID]["high"] <= 1.0
    assert r[ID]["method"] == "clopper_pearson"  # a share of whole items, as accuracy
    assert bounds_of(ID) == (0.0, 1.0)


def test_catalogue_record_and_names():
    cat = get_catalogue()
    rec = cat.metrics[ID]
    assert rec.structure == "ordinal" and list(rec.range) == [0, 1]
    assert rec.higher_is_better and "williamson2012framework" in rec.references
    assert "|i-j|" in rec.formula and "steps" in rec.symbols["|i-j|"]  # steps of the class order (one meaning of |i−j|)
    assert any("direction" in p for p in rec.pitfalls) and any("ranks" in p for p in rec.pitfalls)
    assert all(c.verified for c in rec.properties.values() if c.status != "not_applicable")
    for name in ("adjacent agreement", "adjacent accuracy", "within-one accuracy", "accuracy within one",
                 "off-by-one accuracy"):
        assert [c.id for c in resolve_metric(name).candidates] == [ID], name
    for name in ("exact agreement", "exact accuracy", "percent exact agreement"):
        assert [c.id for c in resolve_metric(name).candidates] == ["accuracy"], name


def test_methods_name_qwk_and_adjacent_agreement_with_williamson(cli, tmp_path):
    r = cli("methods", "--answers", _every_step_counts(tmp_path), "--seed", "1")
    assert r.exit_code == 0, r.output
    text = r.output
    evaluation = text.split("**Evaluation.**", 1)[1].split("\n\n", 1)[0]
    assert "quadratically weighted kappa" in evaluation and "adjacent agreement" in evaluation
    # the field's figures include the Pearson correlation of machine and human scores (Williamson et al. 2012)
    assert "As is customary in automated essay scoring, we also report quadratically weighted kappa (QWK), Pearson " \
           "correlation, accuracy and adjacent agreement (Williamson et al. 2012)." in evaluation
    assert "QWK" in evaluation and "exact agreement" in evaluation
    assert "Williamson, D. M., Xi, X., & Breyer, F. J. (2012)" in text
    assert "Not reported" not in text and "no entry" not in text and "not a name" not in text
    for planned in ("quadratic weighted kappa", "exact agreement", "adjacent agreement"):
        assert f"“{planned}”" not in text


def _essay_csv(path: Path, t: np.ndarray, p: np.ndarray) -> Path:
    path.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(t.tolist(), p.tolist())),
                    encoding="utf-8")
    return path


def test_report_with_data_shows_adjacent_agreement_with_an_interval(tmp_path, cli):
    rng = np.random.default_rng(3)
    t = rng.choice(np.arange(1, 7), 240, p=[.05, .15, .3, .3, .15, .05])
    near = np.clip(np.rint(t + rng.normal(0, 0.6, t.size)), 1, 6).astype(int)
    far = np.clip(np.rint(t + rng.normal(0, 1.4, t.size)), 1, 6).astype(int)
    a = _essay_csv(tmp_path / "near.csv", t, near)
    b = _essay_csv(tmp_path / "far.csv", t, far)
    # the essay situation without subgroups, school clusters and rater columns (none in these data): ordinal inputs
    # are resampled item by item
    answers = tmp_path / "essay.yaml"
    answers.write_text("".join(line for line in ESSAY.read_text(encoding="utf-8").splitlines(keepends=True)
                               if not line.startswith(("subgroups:", "group:", "tolerated_steps:", "rater_columns:"))),
                       encoding="utf-8")
    out = tmp_path / "r.md"
    r = cli("report", "--answers", answers, a, b, "--bootstrap", "200", "--seed", "1", "-o", out)
    assert r.exit_code == 0, r.output
    md = out.read_text(encoding="utf-8")
    row = next(line for line in md.splitlines() if line.startswith("| Adjacent agreement (within one step) |"))
    cells = re.findall(r"([\d.]+)(?:\*\*)? \[([\d.]+), ([\d.]+)\]", row)  # the winner in bold
    assert len(cells) == 2
    for (est, lo, hi), pred in zip(cells, (near, far)):
        assert float(est) == pytest.approx(_direct(t, pred, list(range(1, 7))), abs=5e-4)
        assert float(lo) <= float(est) <= float(hi)
    assert get_catalogue().metrics[ID].formula in md
    assert "Clopper–Pearson for accuracy and adjacent agreement" in md
    # the JSON context holds the same estimate and interval
    js = tmp_path / "r.json"
    r = cli("report", "--answers", answers, a, b, "--bootstrap", "200", "--seed", "1", "-o", js)
    assert r.exit_code == 0, r.output
    ctx = json.loads(js.read_text(encoding="utf-8"))
    iv = ctx["intervals"]["near"][ID]
    assert iv["low"] <= iv["estimate"] <= iv["high"]
    assert iv["estimate"] == pytest.approx(_direct(t, near, list(range(1, 7))))


def test_an_inferred_order_with_a_gap_is_said():
    # 1–5 stars where nobody chose 3: the order inferred from the labels makes 2 → 4 one step, and the note says so
    inputs = advisor.load_structured([{"y_true": [2, 4, 1, 5], "y_pred": [4, 2, 1, 5]}], structure="ordinal")
    data = evaluate_inputs(inputs)
    assert data["metrics"]["system"][ID] == 1.0
    assert "Adjacent agreement counts steps of the order (1, 2, 4, 5)" in data["notes"][0]
    assert "--order" in data["notes"][0] and "unequally spaced" in data["notes"][0]
    # the declared order counts the class nobody chose: 2 → 4 is two steps
    cells = ordinal_cells(y_true=[2, 4, 1, 5], y_pred=[4, 2, 1, 5], order=[1, 2, 3, 4, 5])
    assert ordinal_metrics(cells, [ID])[ID] == 0.5
    # equally spaced values give no warning
    even = advisor.load_structured([{"y_true": [1, 2, 3], "y_pred": [2, 2, 3]}], structure="ordinal")
    assert "unequally" not in evaluate_inputs(even)["notes"][0]


def test_qwk_leading_names_the_field_figures_in_one_list(cli, tmp_path):
    # every item counting alike: QWK leads, and the field's other figures are listed with it, not "A and B and C"
    answers = tmp_path / "essay.yaml"
    answers.write_text(_every_step_counts(tmp_path).read_text(encoding="utf-8") + "class_weighting: per_instance\n",
                       encoding="utf-8")
    r = cli("methods", "--answers", answers, "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "We lead with quadratically weighted kappa" in r.output
    # the field's initials in brackets, not "There quadratically weighted kappa is called QWK" (a tautology)
    # and the field's "exact agreement" at first mention, accuracy in brackets (the s22 reader: "There accuracy is
    # called exact agreement" read as a template)
    assert "The customary figures in automated essay scoring (Williamson et al. 2012) are quadratically weighted " \
           "kappa (QWK), Pearson correlation, exact agreement (accuracy) and adjacent agreement." \
           in " ".join(r.output.split())
    assert "is called exact agreement" not in r.output
    assert "is called QWK" not in r.output
