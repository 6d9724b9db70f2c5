"""A target coverage met by a cut frozen on held-out patients, not read off the test set's own quantile.

The dermatology reader: "Selective risk at exactly 80% coverage on the test set's own quantile is an oracle figure.
Fix the deferral threshold on a validation split, then report on the test set the realised coverage and the selective
risk at that frozen threshold, each with a patient-level interval." With a target coverage and no cut fixed in advance,
the patients are split at random with the report's seed (the split of selection with guaranteed risk,
:func:`advisor.stats.calibration_split`); the cut is the top-label probability that answers the target coverage of the
calibration lesions (:func:`advisor.stats.quantile_cut`), frozen; on the other half the selective risk at it leads,
with the share answered, each with BCa intervals over the test patients (:func:`advisor.stats.frozen_cut`), and the
by-class table is counted there. Checked here as ``tests/test_selective_guarantee.py`` checks the target risk's
design: the split, the cut, the test half's counts and intervals recounted directly, the plan and the paragraph.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import advisor
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, methods_paragraph, render_report
from advisor.stats import calibration_split, frozen_cut, quantile_cut
from tests.test_methods_prose import evaluation_of, max_depth, repeated_ngram, sentences, words
from tests.test_selective_guarantee import split_by_whole_groups

ROOT = Path(__file__).resolve().parents[1]
DERM = ROOT / "tests" / "situations" / "derm.yaml"


def _derm(**extra: Any) -> dict[str, Any]:
    return {**yaml.safe_load(DERM.read_text(encoding="utf-8")), **extra}


def _write(path: Path, n: int = 1200, patients: int = 160, seed: int = 3) -> dict[str, np.ndarray]:
    """A lesion test set: lesions clustered in patients of alike difficulty, the top-label probability ranking the
    errors; melanoma the hardest class."""
    labels = _derm()["classes"]
    rng = np.random.default_rng(seed)
    patient = rng.integers(0, patients, n)
    difficulty = rng.normal(0, 1, patients)[patient]
    y = rng.choice(len(labels), n, p=[0.15, 0.1, 0.25, 0.5])
    logits = rng.normal(0, 1, (n, len(labels)))
    logits[np.arange(n), y] += 2.5 - 1.2 * difficulty - 0.8 * (y == 0)
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    p = np.round(p, 6)
    p[:, -1] = np.round(1.0 - p[:, :-1].sum(axis=1), 6)
    top = p.argmax(axis=1)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y_true", "y_pred", *[f"p_{lab}" for lab in labels], "patient_id"])
        for t in range(n):
            w.writerow([labels[y[t]], labels[top[t]], *[f"{v:.6f}" for v in p[t]], f"pt{patient[t]}"])
    return {"y": y, "error": (top != y).astype(float), "conf": p.max(axis=1), "patient": patient, "top": top}


# ----------------------------------------------------------------------------------------------
# The cut
# ----------------------------------------------------------------------------------------------
def test_the_cut_answers_the_coverage_of_the_calibration_items() -> None:
    rng = np.random.default_rng(0)
    conf = rng.random(101)
    for c in (0.5, 0.8, 0.95, 1.0):
        cut = quantile_cut(conf, c)
        m = int(np.ceil(c * 101 - 1e-9))
        assert cut == np.sort(conf)[::-1][m - 1]  # the ⌈c·n⌉-th most confident
        assert int((conf >= cut).sum()) == m  # no ties: exactly ⌈c·n⌉ answered
    tied = np.array([0.9, 0.8, 0.8, 0.8, 0.1])
    assert quantile_cut(tied, 0.4) == 0.8 and int((tied >= 0.8).sum()) == 4  # a tie at the cut: all of it answered
    assert quantile_cut([], 0.8) is None
    with pytest.raises(advisor.InputError):
        quantile_cut(conf, 1.5)


# ----------------------------------------------------------------------------------------------
# The plan and the paragraph, before data
# ----------------------------------------------------------------------------------------------
def test_the_plan_without_a_fixed_cut_leads_with_the_risk_at_the_frozen_cut() -> None:
    plan = make_plan(load_answers(DERM))
    assert plan.lead.id == "risk_at_frozen_coverage" and plan.lead.params["coverage"] == 0.8
    assert "random half" in plan.lead.reason and "frozen" in plan.lead.reason
    beside = {m.id for m in plan.beside}
    # the curve's summary beside it; no selective risk read off the test set's own quantile
    assert "aurc" in beside and "selective_risk" not in beside


def test_with_a_cut_fixed_in_advance_the_selective_risk_stays() -> None:
    plan = make_plan(_derm(operating_point="fixed"))
    assert plan.lead.id == "selective_risk"
    assert "risk_at_frozen_coverage" not in {m.id for m in plan.beside}


def _paragraph(answers: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(answers), encoding="utf-8")
    return methods_paragraph(str(path), "md", seed=2024)


def test_the_paragraph_says_the_split_the_cut_and_the_lead(tmp_path: Path) -> None:
    answers = _derm()
    md = _paragraph(answers, tmp_path)
    text = evaluation_of(md)
    ours = sentences(" ".join(text.replace("Evaluation.", "", 1).split()).replace(
        " ".join(answers["context"].split()), "").strip())
    assert 60 <= len(words(text)) <= 220, len(words(text))
    assert all(len(words(s)) <= 40 for s in ours), [s for s in ours if len(words(s)) > 40]
    assert max_depth(text) <= 1 and repeated_ngram(text) is None
    assert "On a random half of the patients, seed 2024, the cut on the top-label probability that answers 80% of " \
           "their lesions is fixed (Geifman & El-Yaniv 2017)." in text
    assert "We lead with the selective risk at the frozen cut on the other half, the error rate among the lesions " \
           "answered, with the share answered." in text
    # the focus class at that cut, not at the test set's own 80%
    assert "Because “melanoma” matters most, we give its recall among its lesions answered at that cut" in text
    # the oracle figure is gone: no cut placed on the test set's confidences
    assert "placed on this test set's confidences" not in text and "at 80% coverage" not in text
    assert "Beside these we report area under the risk-coverage curve" in text
    assert "Selective risk at the cut frozen for 80% coverage" in md  # its formula, under its name


def test_without_a_group_the_lesions_are_split(tmp_path: Path) -> None:
    answers = {k: v for k, v in _derm().items() if k != "group"}
    text = evaluation_of(_paragraph(answers, tmp_path))
    assert "On a random half of the lesions, seed 2024, the cut on the top-label probability that answers 80% of " \
           "them is fixed" in text
    assert "patient" not in text


# ----------------------------------------------------------------------------------------------
# With data
# ----------------------------------------------------------------------------------------------
def test_the_frozen_cut_leads_on_the_test_patients(tmp_path: Path) -> None:
    """The cut is fixed on the calibration patients only and tested on the others, every figure recomputed here."""
    path = tmp_path / "derm.csv"
    truth = _write(path)
    data = advisor.load([str(path)], group="patient_id")
    ctx = build_report(_derm(), data, bootstrap=300, seed=5)
    assert ctx.primary == "risk_at_frozen_coverage"
    groups = np.array([f"pt{g}" for g in truth["patient"]])
    calib = split_by_whole_groups(ctx, groups, seed=5)  # whole patients, half of them, from the report's seed
    split = ctx.scores.selective_split
    # the cut: the top-label probability that answers 80% of the calibration lesions, from them only
    e, c = truth["error"], truth["conf"]
    cut = float(np.sort(c[calib])[::-1][int(np.ceil(0.8 * calib.sum())) - 1])
    frozen = ctx.scores.frozen_coverage["derm"]
    assert frozen["calibration"]["threshold"] == cut
    assert frozen["calibration"]["answered"] == int((c[calib] >= cut).sum())
    assert frozen["calibration"]["coverage"] == pytest.approx(0.8, abs=1 / calib.sum())
    # moving the test lesions' confidences does not move the cut
    assert quantile_cut(np.r_[c[calib]], 0.8) == cut
    # the test patients at the frozen cut, counted directly
    test = ~calib
    at = test & (c >= cut)
    m, errors = float(at.sum()), float(e[at].sum())
    t = frozen["test"]
    assert (t["items"], t["units"], t["answered"], t["errors"]) == (int(test.sum()), split["test_units"], m, errors)
    assert t["coverage"]["estimate"] == pytest.approx(m / test.sum())
    assert t["risk"]["estimate"] == pytest.approx(errors / m)
    assert "upper" not in t  # no target risk: no bound against one
    for fig in ("coverage", "risk"):  # BCa over resamples of the test patients, around the estimate
        assert t[fig]["method"] == "bca" and t[fig]["low"] <= t[fig]["estimate"] <= t[fig]["high"]
    # the same as frozen_cut over the test patients with the report's seed and resamples
    again = frozen_cut(e[test], c[test], cut, None, 0.95, groups=groups[test], n_resamples=300, seed=5)
    assert (t["coverage"]["low"], t["coverage"]["high"]) == (again.coverage[1], again.coverage[2])
    assert (t["risk"]["low"], t["risk"]["high"]) == (again.risk[1], again.risk[2])
    rep = ctx.systems[0]
    assert rep.values["risk_at_frozen_coverage"] == pytest.approx(errors / m)
    iv = rep.intervals["risk_at_frozen_coverage"]
    assert iv.method == "bca" and (iv.low, iv.high) == (t["risk"]["low"], t["risk"]["high"])
    assert iv.low <= rep.values["risk_at_frozen_coverage"] <= iv.high
    assert "selective_risk" not in rep.values  # the test set's own quantile is not reported
    # the by-class table: the test half at the frozen cut, melanoma's recall among the answered and errors counted
    mel = ctx.scores.selective_by_class["derm"]["melanoma"]
    mine = test & (truth["y"] == 0)
    answered = mine & (c >= cut)
    assert mel["n"] == float(mine.sum())
    assert mel["answered"] == pytest.approx(answered.sum() / mine.sum())
    assert mel["recall_answered"] == pytest.approx(float((truth["top"][answered] == 0).mean()))
    assert mel["answered_wrong"] == float((truth["top"][answered] != 0).sum())
    table = next(x for x in ctx.tables if x.id == "selective_prediction")
    assert "selective risk at it, test half" in table.columns and "selective risk at coverage 0.8" not in table.columns
    assert f"a calibration half of {split['calibration_units']:,} ({split['calibration_items']:,} items)" in \
        table.caption and "(seed 5)" in table.caption
    by_class = next(x for x in ctx.tables if x.id == "selective_by_class")
    assert by_class.title == "By class at the cut frozen for coverage 0.8" and "On the test half" in by_class.caption
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "On a random half of the patients, seed 5, the cut on the top-label probability that answers 80% of " \
           "their lesions is fixed" in text
    assert "Selective risk at the cut frozen for 80% coverage" in render_report(ctx, "md")


def test_without_groups_the_lesions_are_the_units(tmp_path: Path) -> None:
    path = tmp_path / "derm.csv"
    truth = _write(path, n=400)
    data = advisor.load([str(path)])
    ctx = build_report({k: v for k, v in _derm().items() if k != "group"}, data, bootstrap=200, seed=8)
    calib = calibration_split(400, seed=8)
    assert int(calib.sum()) == 200
    cut = quantile_cut(truth["conf"][calib], 0.8)
    t = ctx.scores.frozen_coverage["derm"]["test"]
    at = ~calib & (truth["conf"] >= cut)
    assert t["units"] == 200 and t["answered"] == float(at.sum())
    assert t["risk"]["estimate"] == pytest.approx(float(truth["error"][at].mean()))
    for fig in ("coverage", "risk"):
        assert t[fig]["low"] <= t[fig]["estimate"] <= t[fig]["high"]


def test_with_a_target_risk_too_both_cuts_are_fixed_on_one_split(tmp_path: Path) -> None:
    """A target coverage and a target risk: the coverage's cut leads, selection with guaranteed risk's is beside it,
    both fixed on the same calibration half of the patients (no second split)."""
    path = tmp_path / "derm.csv"
    truth = _write(path)
    data = advisor.load([str(path)], group="patient_id")
    ctx = build_report(_derm(target_risk=0.1), data, bootstrap=200, seed=6)
    assert ctx.primary == "risk_at_frozen_coverage"
    groups = np.array([f"pt{g}" for g in truth["patient"]])
    calib = calibration_split(groups.shape[0], groups, seed=6)
    q, s = ctx.scores.frozen_coverage["derm"], ctx.scores.frozen_cut["derm"]
    assert q["calibration"]["items"] == s["calibration"]["items"] == int(calib.sum())
    assert q["test"]["items"] == s["test"]["items"] == int((~calib).sum())
    assert q["calibration"]["threshold"] == quantile_cut(truth["conf"][calib], 0.8)
    table = next(x for x in ctx.tables if x.id == "selective_prediction")
    assert table.caption.count("were split at random") == 1  # the split said once
