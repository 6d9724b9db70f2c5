"""Williamson, Xi & Breyer's (2012) criteria for automated scoring, complete (the essay methodologist's "major
revision"): the Pearson correlation of machine and human scores beside the quadratically weighted kappa, with the
same floor (0.70) and degradation (0.10); the overall standardized mean difference flagged beyond ±0.15 beside the
subgroup flag at ±0.10; adjacent agreement read against the best constant prediction, whose QWK is 0; and every figure
and flag said with its comparison (machine against the resolved score, against each rater, rater against rater)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from scipy.stats import pearsonr
from sklearn.metrics import cohen_kappa_score

from advisor.catalogue import get_catalogue
from advisor.engine import (
    baseline_ratings,
    judge_comparison,
    ordinal_cells,
    ordinal_chance_levels,
    ordinal_metrics,
)
from advisor.questionnaire import load_fields
from advisor.report import methods_paragraph

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_methods_prose import evaluation_of, sentences, words  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SITUATION = ROOT / "tests" / "situations" / "essay.yaml"
ORDER = [1, 2, 3, 4, 5, 6]


# ----------------------------------------------------------------------------------------------------------------
# Pearson r from the confusion matrix, against numpy and scipy on the per-item scores (the independent oracle)
# ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_pearson_r_matches_numpy_and_scipy_on_item_scores(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 600))
    human = rng.choice(ORDER, n, p=[.05, .15, .3, .3, .15, .05])
    machine = np.clip(human + rng.integers(-2, 3, n), 1, 6)
    cells = ordinal_cells(y_true=human, y_pred=machine, order=ORDER)
    got = ordinal_metrics(cells, ["pearson_r"])["pearson_r"]
    assert got == pytest.approx(float(np.corrcoef(human, machine)[0, 1]), abs=1e-12)
    assert got == pytest.approx(float(pearsonr(human, machine).statistic), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_pearson_r_from_a_random_table_matches_the_expanded_items(seed):
    # a table of counts, not items: expand it to per-item scores and correlate them directly
    rng = np.random.default_rng(100 + seed)
    k = int(rng.integers(3, 8))
    table = rng.integers(0, 9, (k, k))
    table[0, 0] += 1  # never all zeros
    labels = list(range(1, k + 1))
    t, p = np.nonzero(table)
    reps = table[t, p]
    human, machine = np.repeat(np.array(labels)[t], reps), np.repeat(np.array(labels)[p], reps)
    got = ordinal_metrics(table.tolist(), ["pearson_r"], labels=labels)["pearson_r"]
    assert got == pytest.approx(float(np.corrcoef(human, machine)[0, 1]), abs=1e-12)


def test_pearson_r_uses_class_values_like_the_smd():
    # half points: the positions are the values 1, 1.5, 3 (unequally spaced), not the ranks 0, 1, 2
    human = np.array([1.0, 1.5, 3.0, 1.5, 1.0, 3.0, 3.0])
    machine = np.array([1.5, 1.5, 3.0, 3.0, 1.0, 1.5, 3.0])
    cells = ordinal_cells(y_true=human, y_pred=machine, order=[1.0, 1.5, 3.0])
    assert ordinal_metrics(cells, ["pearson_r"])["pearson_r"] == pytest.approx(np.corrcoef(human, machine)[0, 1],
                                                                             abs=1e-12)


def test_pearson_r_undefined_for_a_constant_labeling_under_each_convention():
    one = ordinal_cells(y_true=[1, 2, 3, 3], y_pred=[2, 2, 2, 2], order=[1, 2, 3])
    res = ordinal_metrics(one, ["pearson_r"])
    assert np.isnan(res["pearson_r"]) and any(u.metric == "pearson_r" for u in res.undefined)  # omit, the default
    assert ordinal_metrics(one, ["pearson_r"], undefined="zero")["pearson_r"] == 0.0
    assert ordinal_metrics(one, ["pearson_r"], undefined="baseline")["pearson_r"] == 0.0  # one constant: chance value
    same = ordinal_cells(y_true=[2, 2], y_pred=[2, 2], order=[1, 2, 3])
    assert ordinal_metrics(same, ["pearson_r"], undefined="baseline")["pearson_r"] == 1.0  # maximal agreement


def test_pearson_r_record_is_in_the_catalogue_with_its_formula_and_source():
    rec = get_catalogue().metrics["pearson_r"]
    assert rec.structure == "ordinal" and rec.higher_is_better and list(rec.range) == [-1, 1]
    assert "williamson2012framework" in rec.references
    assert "x_i" in rec.symbols and "m_{t}" in rec.symbols and "m_{p}" in rec.symbols
    # the same positions as the standardized mean difference: one symbol, one meaning
    assert rec.symbols["x_i"] == get_catalogue().metrics["smd"].symbols["x_i"]
    assert all(c.verified for c in rec.properties.values() if c.status != "not_applicable")
    assert "pearson_r" not in ordinal_metrics([[3, 1], [1, 3]])  # computed when asked for, not by every evaluation


# ----------------------------------------------------------------------------------------------------------------
# the thresholds live with the field's other baseline thresholds
# ----------------------------------------------------------------------------------------------------------------
def test_the_fields_thresholds_are_williamsons():
    f = load_fields()["automated_essay_scoring"]
    assert "pearson_r" in f.metrics and "Pearson correlation" in f.reports
    b = f.baseline
    assert (b.qwk_floor, b.degradation, b.r_floor, b.r_degradation) == (0.70, 0.10, 0.70, 0.10)
    assert (b.smd_overall, b.smd_subgroup) == (0.15, 0.10)


# ----------------------------------------------------------------------------------------------------------------
# the overall SMD flag at 0.15, and Pearson r per pair with its degradation
# ----------------------------------------------------------------------------------------------------------------
def _figures(shift: float, n: int = 600, seed: int = 2):
    """Baseline figures of a machine that scores ``shift`` points higher on a share of essays, without a bootstrap."""
    from advisor.report._baseline import _flags

    rng = np.random.default_rng(seed)
    t = rng.choice(ORDER, n, p=[.05, .15, .3, .3, .15, .05])
    r1 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    r2 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    up = rng.random(n) < shift
    p = np.clip(t + up.astype(int), 1, 6)
    out = judge_comparison(baseline_ratings(p.tolist(), {"r1": r1.tolist(), "r2": r2.tolist()}, ORDER))
    res = baseline_ratings(p.tolist(), {"resolved score": t.tolist()}, ORDER,
                           quantities=("agreement", "adjacent", "weighted_kappa", "correlation", "smd"))
    out["resolved"] = judge_comparison(res)["rows"][0]
    base = load_fields()["automated_essay_scoring"].baseline.model_dump()
    return out, _flags(out, base), (t, p, r1, r2)


def _smd(t: np.ndarray, p: np.ndarray) -> float:
    return float((p.mean() - t.mean()) / np.sqrt((p.var(ddof=1) + t.var(ddof=1)) / 2))


def test_the_overall_smd_flag_triggers_beyond_015_and_not_below():
    out, flags, (t, p, *_) = _figures(shift=0.35)
    smd = out["resolved"]["smd"]
    assert smd == pytest.approx(_smd(t.astype(float), p.astype(float)), abs=1e-12)
    assert smd > 0.15 and any("standardized mean difference" in f and "resolved score" in f for f in flags)
    out, flags, (t, p, *_) = _figures(shift=0.05)
    assert abs(out["resolved"]["smd"]) < 0.15
    assert not any("standardized mean difference" in f for f in flags)


def test_pearson_r_per_pair_and_its_degradation_match_numpy():
    out, flags, (t, p, r1, r2) = _figures(shift=0.1)
    m1, m2, hh = out["rows"]
    assert m1["correlation"] == pytest.approx(np.corrcoef(p, r1)[0, 1], abs=1e-12)
    assert m2["correlation"] == pytest.approx(np.corrcoef(p, r2)[0, 1], abs=1e-12)
    assert hh["correlation"] == pytest.approx(np.corrcoef(r1, r2)[0, 1], abs=1e-12)
    want = (np.corrcoef(p, r1)[0, 1] + np.corrcoef(p, r2)[0, 1]) / 2 - np.corrcoef(r1, r2)[0, 1]
    assert out["delta"]["correlation"] == pytest.approx(want, abs=1e-12)
    assert out["resolved"]["correlation"] == pytest.approx(np.corrcoef(p, t)[0, 1], abs=1e-12)
    assert out["resolved"]["weighted_kappa"] == pytest.approx(
        cohen_kappa_score(p, t, weights="quadratic", labels=ORDER), abs=1e-12)
    assert "smd" not in (out["delta"] or {})  # a bias, not an agreement: no degradation of it


# ----------------------------------------------------------------------------------------------------------------
# the no-skill level of adjacent agreement: the best constant prediction
# ----------------------------------------------------------------------------------------------------------------
def test_best_constant_prediction_matches_a_brute_force_search():
    rng = np.random.default_rng(7)
    t = rng.choice(ORDER, 500, p=[.02, .1, .38, .35, .12, .03])
    p = np.clip(t + rng.integers(-1, 2, 500), 1, 6)
    ch = ordinal_chance_levels(ordinal_cells(y_true=t, y_pred=p, order=ORDER),
                               ["adjacent_accuracy", "weighted_kappa_quadratic"])
    each = {c: float(np.mean(np.abs(t - c) <= 1)) for c in ORDER}
    best = max(each, key=lambda c: each[c])
    assert ch["adjacent_accuracy"]["constant"] == pytest.approx(each[best], abs=1e-12)
    assert ch["adjacent_accuracy"]["constant_class"] == best
    assert ch["adjacent_accuracy"]["majority"] == pytest.approx(each[int(np.bincount(t).argmax())], abs=1e-12)
    assert abs(ch["weighted_kappa_quadratic"]["constant"]) < 1e-12  # 0 for any constant prediction
    for c in ORDER:  # every constant, by scikit-learn
        assert abs(cohen_kappa_score(np.full_like(t, c), t, weights="quadratic", labels=ORDER)) < 1e-12


# ----------------------------------------------------------------------------------------------------------------
# the methods text: the no-skill point, each comparison, every flag — within the paragraph's lengths
# ----------------------------------------------------------------------------------------------------------------
def test_the_methods_say_the_no_skill_point_and_each_comparison():
    md = methods_paragraph(str(SITUATION), "md", seed=2024)
    ev = evaluation_of(md)
    assert "A constant middle score earns high adjacent agreement but a QWK of 0, so QWK stands beside it" in ev
    assert "Pearson correlation" in ev
    # each figure's comparison: the machine against the resolved score, against each rater, rater against rater
    # two raters: "between the raters", not their columns' names (the s30 reader); the thresholds are Williamson's
    assert "for the machine against the resolved score and each rater, and between the raters" in ev
    assert "rater_1" not in ev
    assert "The same source flags the machine's QWK" in ev  # Williamson et al.'s thresholds, said as theirs
    # each flag's comparison: a single rater for QWK and r, the raters' for the degradation, the resolved score for SMD
    assert "QWK or correlation with any rater below 0.70 or more than 0.10 below the raters'" in ev
    assert "standardized mean difference from the resolved score beyond ±0.15, or ±0.10 within each value of " \
           "“english_learner”" in ev
    assert 60 <= len(words(ev)) <= 220
    assert all(len(words(s)) <= 40 for s in sentences(ev) if not s.startswith("Student essays"))  # the author's own
    assert "- **Pearson correlation**: $$\\frac{\\sum_{i,j}C_{ij}" in md  # its formula in the Definitions


def _essay_files(tmp_path: Path) -> tuple[Path, Path, dict[str, np.ndarray]]:
    rng = np.random.default_rng(11)
    n, schools = 400, 25
    school = rng.integers(0, schools, n)
    t = np.clip(np.round(rng.normal(3.5, 1.0, n) + (school % 5 - 2) * 0.3), 1, 6).astype(int)
    r1 = np.clip(t + rng.choice([-1, 0, 0, 0, 1], n), 1, 6)
    r2 = np.clip(t + rng.choice([-1, 0, 0, 0, 1], n), 1, 6)
    p = np.clip(t + rng.choice([-1, 0, 0, 0, 1, 1], n), 1, 6)
    el = rng.choice(["yes", "no"], n, p=[0.3, 0.7])
    data = tmp_path / "essays.csv"
    data.write_text("school_id,english_learner,rater_1,rater_2,y_true,y_pred\n" + "".join(
        f"s{school[i]},{el[i]},{r1[i]},{r2[i]},{t[i]},{p[i]}\n" for i in range(n)), encoding="utf-8")
    answers = tmp_path / "essay.yaml"
    answers.write_text(yaml.safe_dump(yaml.safe_load(SITUATION.read_text(encoding="utf-8"))), encoding="utf-8")
    return data, answers, {"t": t, "p": p, "r1": r1, "r2": r2}


def test_a_report_from_essays_carries_the_new_figures_and_flags(tmp_path, cli):
    data, answers, s = _essay_files(tmp_path)
    out = tmp_path / "report.json"
    r = cli("report", str(data), "--answers", str(answers), "--seed", "1", "--bootstrap", "200", "-o", str(out),
            "--format", "json")
    assert r.exit_code == 0, r.output
    rep = json.loads(out.read_text(encoding="utf-8"))
    t, p, r1, r2 = s["t"], s["p"], s["r1"], s["r2"]
    # Table 1: Pearson r of the machine against the resolved score, with its interval
    assert rep["metrics"]["essays"]["pearson_r"] == pytest.approx(np.corrcoef(p, t)[0, 1], abs=1e-12)
    iv = rep["intervals"]["essays"]["pearson_r"]
    assert iv["low"] <= rep["metrics"]["essays"]["pearson_r"] <= iv["high"]
    # the chance table: the best constant prediction of adjacent agreement, and the QWK of a constant: 0
    each = {c: float(np.mean(np.abs(t - c) <= 1)) for c in ORDER}
    best = max(each, key=lambda c: each[c])
    assert rep["chance"]["adjacent_accuracy"]["constant"] == pytest.approx(each[best], abs=1e-12)
    assert rep["chance"]["adjacent_accuracy"]["constant_class"] == str(best)
    assert abs(rep["chance"]["weighted_kappa_quadratic"]["constant"]) < 1e-12
    # the baseline table: the machine against the resolved score first, Pearson r and the SMD columns, the flags
    table = next(tb for tb in rep["tables"] if tb["id"] == "human_baseline")
    assert table["columns"][-2:] == ["Pearson r", "SMD"]
    first = table["rows"][0]
    assert first[0] == "machine – resolved score"
    assert first[-2].startswith(f"{np.corrcoef(p, t)[0, 1]:.3f} [")
    assert first[-1].startswith(f"{_smd(t.astype(float), p.astype(float)):.3f} [")
    hh = next(row for row in table["rows"] if row[0] == "rater_1 – rater_2")
    assert hh[-2].startswith(f"{np.corrcoef(r1, r2)[0, 1]:.3f} [")
    assert "its SMD against the resolved score beyond ±0.15" in table["caption"]
    assert "QWK or Pearson r with a single rater below 0.70" in table["caption"]
    smd = _smd(t.astype(float), p.astype(float))
    assert ("standardized mean difference of the machine minus the resolved score" in table["caption"]) \
        == (abs(smd) > 0.15)
    # the paragraph names the best constant's value and class
    methods = " ".join(sp["text"] for par in rep["methods"] for sp in par["spans"] if sp.get("text"))
    assert f"Always giving “{best}” earns {each[best]:.2f} adjacent agreement here but a QWK of 0" in methods


def test_the_markdown_report_shows_the_best_constant_column(tmp_path, cli):
    data, answers, _ = _essay_files(tmp_path)
    out = tmp_path / "report.md"
    r = cli("report", str(data), "--answers", str(answers), "--seed", "1", "--bootstrap", "0", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "| Metric | Uniform random | Prevalence-matched | Majority class | Best constant |" in text
    assert "| Pearson r | SMD |" in text


def test_the_subgroup_flag_is_the_fields_and_the_stats_use_it():
    import pandas as pd

    import advisor
    from advisor.report._methods_bias import smd_subgroup_flag
    from advisor.stats import subgroup_smd

    assert smd_subgroup_flag({"field": "automated_essay_scoring"}) == \
        load_fields()["automated_essay_scoring"].baseline.smd_subgroup == 0.10
    df = pd.DataFrame({"y_true": [1, 2, 3, 4] * 2, "y_pred": [2, 3, 4, 4] + [1, 2, 3, 4], "g": ["a"] * 4 + ["b"] * 4})
    data = advisor.load(df, by="g")
    at_010 = subgroup_smd(data, ["g"], [1, 2, 3, 4, 5])["g"]["a"]["y_pred"]
    at_090 = subgroup_smd(data, ["g"], [1, 2, 3, 4, 5], flag=0.90)["g"]["a"]["y_pred"]
    assert 0.10 < abs(at_010["estimate"]) < 0.90
    assert at_010["flag"] and not at_090["flag"]
