"""Issue 23 item 2 end to end: a system that may abstain gets the selective risk at its target coverage (or AURC),
values equal to a direct loop over the most confident items, item-bootstrap intervals, a methods text that says
how the confidence was taken and the coverage, a risk–coverage figure; bad coverages and reject labels are one
sentence with exit 2, before any output."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor.cli import app
from advisor.report import build_report

CLASSES = ["melanoma", "nevus", "keratosis", "other"]
DERM = {"task": "multiclass", "classes": CLASSES, "outputs": "probabilities", "abstention": True,
        "target_coverage": 0.8}


def _derm(n: int = 240, seed: int = 2) -> tuple[list[str], np.ndarray, list[str]]:
    """Probabilities whose top label is more often right when the top probability is high."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    z = rng.normal(0, 1, (n, 4))
    z[np.arange(n), y] += rng.uniform(0, 3, n)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    p = np.round(p, 2)  # ties among equal confidences
    p = p / p.sum(axis=1, keepdims=True)
    return [CLASSES[i] for i in y], p, [CLASSES[i] for i in p.argmax(axis=1)]


def _loop_selective_risk(y: list[str], p: np.ndarray, pred: list[str], c: float) -> float:
    """The definition, item by item: the ⌈c·n⌉ most confident answered; the items tied with the last of them count
    the share of their group that the cut takes (the mean over the orders within the tie)."""
    m = math.ceil(round(c * len(y), 9))
    conf = [float(p[t].max()) for t in range(len(y))]
    last = sorted(conf, reverse=True)[m - 1]
    above = [t for t in range(len(y)) if conf[t] > last]
    tied = [t for t in range(len(y)) if conf[t] == last]
    errors = sum(pred[t] != y[t] for t in above)
    errors += (m - len(above)) * sum(pred[t] != y[t] for t in tied) / len(tied)
    return errors / m


def test_report_leads_with_selective_risk_at_the_coverage_and_says_how() -> None:
    # a cut fixed in advance: the selective risk at the coverage leads (without one, the cut frozen on a calibration
    # half, tests/test_selective_frozen_coverage.py)
    y, p, pred = _derm(seed=3)
    ctx = build_report({**DERM, "operating_point": "fixed"}, {"y_true": y, "derm": pred}, scores={"derm": p},
                       bootstrap=200, seed=1)
    assert ctx.primary == "selective_risk"
    v = ctx.systems[0].values
    conf = p.max(axis=1)
    m = math.ceil(0.8 * len(y))
    cut = np.sort(conf)[::-1]
    assert cut[m - 1] == cut[m]  # this seed puts a tie at the cut, so the fractional share is exercised
    assert v["selective_risk"] == pytest.approx(_loop_selective_risk(y, p, pred, 0.8), abs=1e-12)
    order = np.argsort(-conf, kind="stable")
    wrong = np.array([pred[t] != y[t] for t in order], dtype=float)
    # AURC beside it; with ties its value is the mean over the orders within them (the engine's oracle test)
    assert "aurc" in v
    for mid in ("selective_risk", "aurc"):
        iv = ctx.systems[0].intervals[mid]
        assert iv.low <= iv.estimate <= iv.high
    assert 0 <= v["aurc"] <= wrong.mean() + 0.2
    lead = next(x for x in ctx.metrics if x.id == "selective_risk")
    text = "".join(sp.text for sp in lead.where.spans)  # said beside the formula, in every format
    assert "ranks the items by the top-label probability" in text
    assert f"⌈c·n⌉ = {m}" in text and "coverage c = 0.8" in text and "shared fractionally" in text
    curve = ctx.scores.risk_coverage["derm"]
    assert curve.x[-1] == 1.0 and curve.y[-1] == pytest.approx(wrong.mean())
    assert ctx.scores.selective_coverage == 0.8 and ctx.scores.selective_answered == m


def test_report_without_a_coverage_leads_with_aurc() -> None:
    y, p, pred = _derm(n=120)
    answers = {k: v for k, v in DERM.items() if k != "target_coverage"}
    ctx = build_report(answers, {"y_true": y, "derm": pred}, scores={"derm": p}, bootstrap=200, seed=1)
    assert ctx.primary == "aurc" and "selective_risk" not in ctx.systems[0].values


def _files(tmp_path: Path) -> tuple[Path, Path]:
    y, p, pred = _derm(n=120)
    with open(tmp_path / "derm.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["y_true", "y_pred", *(f"p_{c}" for c in CLASSES)])
        w.writerows([yt, yp, *row] for yt, yp, row in zip(y, pred, p.tolist()))
    (tmp_path / "a.yaml").write_text("task: multiclass\nclasses: [melanoma, nevus, keratosis, other]\n"
                                     "outputs: probabilities\nabstention: true\n")
    return tmp_path / "a.yaml", tmp_path / "derm.csv"


def test_cli_report_draws_the_risk_coverage_figure(tmp_path: Path) -> None:
    answers, data = _files(tmp_path)
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(data), "--coverage", "0.9",
                                 "--bootstrap", "200", "--seed", "1", "-o", str(tmp_path / "r.md")])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "r.md").read_text()
    # no cut fixed in advance: the selective risk at the cut frozen on a calibration half for 90% coverage leads
    assert "risk_coverage.svg" in md and "Selective risk at the cut frozen for 90% coverage" in md
    assert (tmp_path / "r-figures" / "risk_coverage.svg").exists()


@pytest.mark.parametrize("command, args, word", [
    ("report", ["--coverage", "0"], "--coverage"),
    ("report", ["--coverage", "1.5"], "--coverage"),
    ("report", ["--coverage", "most"], "--coverage"),
    ("recommend", ["--coverage", "-0.1"], "--coverage"),
    ("recommend", ["--reject-label", "nevus"], "reject label"),
])
def test_cli_refuses_bad_coverage_and_reject_label_with_exit_2(tmp_path: Path, command: str, args: list[str],
                                                                word: str) -> None:
    answers, data = _files(tmp_path)
    out = ["-o", str(tmp_path / "r.md")] if command == "report" else []
    where = [str(data)] if command == "report" else ["--data", str(data)]
    r = CliRunner().invoke(app, [command, "--answers", str(answers), *where, *args, *out])
    assert r.exit_code == 2, r.output
    message = r.output.strip()
    assert word in message and "Traceback" not in message
    assert message.count("\n") == 0 and not re.search(r"[.!?] [A-Z]", message)  # one sentence
    assert not (tmp_path / "r.md").exists()


def test_cli_refuses_a_reject_label_the_data_has_as_a_true_class(tmp_path: Path) -> None:
    answers, data = _files(tmp_path)
    answers.write_text("task: multiclass\noutputs: probabilities\nabstention: true\n")  # classes from the data
    r = CliRunner().invoke(app, ["recommend", "--answers", str(answers), "--data", str(data),
                                 "--reject-label", "keratosis"])
    assert r.exit_code == 2 and "also a true class" in r.output and "Traceback" not in r.output


def test_coverage_at_a_target_risk_is_the_largest_share_within_it() -> None:
    y, p, pred = _derm(seed=3)
    ctx = build_report({**DERM, "target_risk": 0.1}, {"y_true": y, "derm": pred}, scores={"derm": p}, bootstrap=200,
                       seed=1)
    table = next(t for t in ctx.tables if t.id == "selective_prediction")
    assert "coverage at risk ≤ 0.1" in table.columns  # the guaranteed coverage follows it (selection with guaranteed risk)
    j = table.columns.index("coverage at risk ≤ 0.1")
    n = len(y)
    brute = max([i / n for i in range(1, n + 1)
                 if _loop_selective_risk(y, p, pred, i / n) <= 0.1 + 1e-12], default=0.0)
    # printed to three decimals, with its interval now that it is a metric of the plan, beside the selective risk
    estimate, interval = table.rows[0][j].split(" [")
    assert float(estimate) == pytest.approx(brute, abs=5e-4)
    low, high = (float(x) for x in interval.rstrip("]").split(", "))
    assert low <= float(estimate) <= high
    assert ctx.scores.selective["derm"]["coverage_at_risk"] == pytest.approx(brute, abs=1e-12)
    assert ctx.systems[0].values["coverage_at_risk"] == pytest.approx(brute, abs=1e-12)


def test_target_risk_outside_zero_one_or_without_abstention_is_refused() -> None:
    from advisor import InputError
    from advisor.questionnaire import answers_from_mapping

    for bad in ({**DERM, "target_risk": 0}, {**DERM, "target_risk": 1.0},
                {**DERM, "abstention": False, "target_coverage": None, "target_risk": 0.1}):
        with pytest.raises(InputError, match="target_risk"):
            answers_from_mapping(bad, "answers")
