"""Issue 23 item 2 end to end from files: a prediction file whose ``y_pred`` holds the reject label.

The reject label is no class and no error of the confusion matrix: every metric of the matrix is that of the items a
system answered (the abstentions leave the matrix), its coverage is the share it answered, and the selective metrics
(AURC, selective risk, coverage at a target risk) rank the abstentions after every answer — on ``compute``,
``compare`` and ``report``. The bundled example is ``examples/scores/derm_*.csv`` (reject label ``defer``).
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app
from advisor.engine import JointCounts
from advisor.stats import compare_joint

ROOT = Path(__file__).resolve().parent.parent
CNN, LABELS = ROOT / "examples/scores/derm_cnn.csv", ROOT / "examples/scores/derm_labels.csv"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open() as fh:
        return list(csv.DictReader(fh))


def _answered(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    return [r for r in rows if r["y_pred"] != "defer"]


def _balanced_accuracy(rows: list[dict[str, str]]) -> float:
    classes = sorted({r["y_true"] for r in rows})
    return float(np.mean([np.mean([r["y_pred"] == c for r in rows if r["y_true"] == c]) for c in classes]))


def _loop_selective_risk(rows: list[dict[str, str]], c: float) -> float:
    """The definition item by item: answers first by top-label probability, abstentions after every answer (by their
    top label); the ⌈c·n⌉ most confident, a tie at the cut shared fractionally."""
    classes = [k[2:] for k in rows[0] if k.startswith("p_")]
    items = []
    for r in rows:
        p = [float(r[f"p_{k}"]) for k in classes]
        top = classes[int(np.argmax(p))]
        answer = top if r["y_pred"] == "defer" else r["y_pred"]
        items.append((max(p) - (2.0 if r["y_pred"] == "defer" else 0.0), answer != r["y_true"]))
    m = math.ceil(round(c * len(items), 9))
    conf = sorted((x for x, _ in items), reverse=True)
    last = conf[m - 1]
    above = [e for x, e in items if x > last]
    tied = [e for x, e in items if x == last]
    return (sum(above) + (m - len(above)) * sum(tied) / len(tied)) / m


def _run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, [str(a) for a in args])
    return r.exit_code, r.output


def test_the_reject_label_is_no_class_and_the_matrix_holds_the_answered_items() -> None:
    ds = advisor.load([CNN, LABELS], reject_label="defer")
    assert [str(x) for x in ds.labels] == ["keratosis", "melanoma", "nevus", "other"]
    for path, name in ((CNN, "derm_cnn"), (LABELS, "derm_labels")):
        rows = _rows(path)
        answered = _answered(rows)
        cm = ds.systems[name]
        assert cm.n == len(answered) and ds.abstained[name] == len(rows) - len(answered)
        assert ds.coverage()[name] == pytest.approx(len(answered) / len(rows))
        acc = advisor.compute_metrics(cm, ["accuracy"])["accuracy"]
        assert acc == pytest.approx(np.mean([r["y_pred"] == r["y_true"] for r in answered]))
        assert advisor.compute_metrics(cm, ["balanced_accuracy"])["balanced_accuracy"] == \
            pytest.approx(_balanced_accuracy(answered))


def test_compute_json_scores_the_answers_and_the_selective_metrics(tmp_path: Path) -> None:
    code, out = _run("compute", CNN, "--reject-label", "defer", "--coverage", "0.7", "--json")
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    rows = _rows(CNN)
    answered = _answered(rows)
    assert "defer" not in [str(x) for x in data["labels"]]
    assert data["metrics"]["derm_cnn"]["accuracy"] == pytest.approx(
        np.mean([r["y_pred"] == r["y_true"] for r in answered]))
    sel = data["selective"]["systems"]["derm_cnn"]
    assert data["selective"]["reject_label"] == "defer"
    assert sel["n"] == len(rows) and sel["answered"] == len(answered)
    assert sel["coverage"] == pytest.approx(len(answered) / len(rows))
    assert sel["answered_error_rate"] == pytest.approx(np.mean([r["y_pred"] != r["y_true"] for r in answered]))
    assert sel["selective_risk"] == pytest.approx(_loop_selective_risk(rows, 0.7), abs=1e-12)
    # AURC: the mean over i of the selective risk among the i most confident
    n = len(rows)
    assert sel["aurc"] == pytest.approx(np.mean([_loop_selective_risk(rows, i / n) for i in range(1, n + 1)]),
                                        abs=1e-9)


def test_a_reject_label_alone_is_one_operating_point(tmp_path: Path) -> None:
    rows = _rows(LABELS)
    share = len(_answered(rows)) / len(rows)
    code, out = _run("compute", LABELS, "--reject-label", "defer", "--coverage", f"{share - 0.05:.3f}", "--json")
    assert code == 0, out
    sel = json.loads(out[out.index("{"):])["selective"]["systems"]["derm_labels"]
    assert sel["selective_risk"] == pytest.approx(sel["answered_error_rate"])  # the answers are one tie group
    assert sel["aurc"] is None
    code, out = _run("compute", LABELS, "--reject-label", "defer", "--coverage", f"{share + 0.05:.3f}", "--json")
    assert json.loads(out[out.index("{"):])["selective"]["systems"]["derm_labels"]["selective_risk"] is None


def test_compute_table_says_what_the_metrics_were_computed_on() -> None:
    code, out = _run("compute", CNN, "--reject-label", "defer", "--coverage", "0.7", "--bootstrap", "200",
                     "--seed", "3")
    assert code == 0, out
    assert "selective prediction · reject label defer" in out and "286 of 400" in out
    assert "the items each system answered" in out


def test_compare_pairs_the_answers_and_reports_coverage() -> None:
    code, out = _run("compare", CNN, LABELS, "--reject-label", "defer", "--coverage", "0.7", "--bootstrap", "300",
                     "--seed", "2", "--metrics", "accuracy,balanced_accuracy", "--json")
    assert code == 0, out
    data = json.loads(out[out.index("{"):])
    for path, name in ((CNN, "derm_cnn"), (LABELS, "derm_labels")):  # system first (schema 2)
        answered = _answered(_rows(path))
        acc = data["intervals"][name]["accuracy"]
        assert data["metrics"][name]["accuracy"] == acc["estimate"]
        assert acc["estimate"] == pytest.approx(np.mean([r["y_pred"] == r["y_true"] for r in answered]))
        assert acc["low"] < acc["estimate"] < acc["high"]
    assert data["mcnemar"] == []  # accuracies of different answered items: McNemar's pairing does not hold
    assert set(data["selective"]["systems"]) == {"derm_cnn", "derm_labels"}


def test_paired_bootstrap_with_abstentions_matches_a_direct_item_resampling() -> None:
    """Each resample scores every system on the resampled items it answered: the intervals of the joint-table
    bootstrap (items drawn, or cells) agree with a loop over item resamples within Monte-Carlo error."""
    rng = np.random.default_rng(5)
    n = 400
    y = rng.choice(["a", "b", "c"], n)
    pa = np.where(rng.random(n) < 0.7, y, rng.choice(["a", "b", "c"], n))
    pa = np.where(rng.random(n) < 0.25, "?", pa)
    pb = np.where(rng.random(n) < 0.6, y, rng.choice(["a", "b", "c"], n))
    joint = JointCounts.from_arrays(y, {"A": pa, "B": pb}, reject_label="?")
    assert joint.answered() == {"A": float((pa != "?").sum()), "B": float(n)}

    def bacc(t: np.ndarray, p: np.ndarray) -> float:
        ok = p != "?"
        return float(np.mean([np.mean(p[ok & (t == c)] == c) for c in ("a", "b", "c")]))

    loop = np.array([bacc(y[i], pa[i]) - bacc(y[i], pb[i]) for i in (rng.integers(0, n, n) for _ in range(4000))])
    lo, hi = np.quantile(loop, [0.025, 0.975])
    for draw in ("items", "cells"):
        cmp = compare_joint(joint, 4000, seed=1, metrics=["balanced_accuracy"], draw=draw, method="percentile")
        est = cmp.metrics["balanced_accuracy"].systems["A"].estimate
        assert est == pytest.approx(bacc(y, pa))
        d = cmp.metrics["balanced_accuracy"].pairs[0]
        assert d.difference.low == pytest.approx(lo, abs=0.015) and d.difference.high == pytest.approx(hi, abs=0.015)


def test_report_leads_with_the_selective_risk_and_tables_the_coverage(tmp_path: Path) -> None:
    # the systems' deferrals are in the predictions: a cut fixed in advance, so the selective risk at the coverage
    # leads (without one, the cut frozen on a calibration half: tests/test_selective_frozen_coverage.py)
    answers = tmp_path / "a.yaml"
    answers.write_text("task: multiclass\noutputs: probabilities\nabstention: true\ntarget_coverage: 0.7\n"
                       "reject_label: defer\noperating_point: fixed\n")
    out = tmp_path / "r.md"
    code, text = _run("report", "--answers", answers, CNN, LABELS, "--bootstrap", "200", "--seed", "1", "-o", out)
    assert code == 0, text
    md = out.read_text()
    assert "400 items" in md.splitlines()[2]
    assert "*Abstentions.*" in md and "| derm_cnn | 286 of 400 |" in md and "| derm_labels | 342 of 400 |" in md
    assert "holds the items it answered" in md and "its abstentions come after every answer" in md
    ctx = json.loads(_run("report", "--answers", answers, CNN, "--bootstrap", "0", "--seed", "1", "-o",
                          tmp_path / "r.json")[1] and (tmp_path / "r.json").read_text())
    assert ctx["abstentions"]["systems"]["derm_cnn"]["answered"] == 286
    sel = ctx["metrics"]["derm_cnn"]["selective_risk"]  # system first (schema 2)
    assert sel == pytest.approx(_loop_selective_risk(_rows(CNN), 0.7), abs=1e-12)


@pytest.mark.parametrize("args, word", [
    (["compute", CNN, "--reject-label", "nevus"], "also a true class"),
    (["compare", CNN, LABELS, "--reject-label", "nevus"], "also a true class"),
    (["compute", CNN, "--coverage", "0"], "--coverage"),
    (["compute", CNN, "--coverage", "1.5"], "--coverage"),
    (["compare", CNN, LABELS, "--coverage", "most"], "--coverage"),
    (["compute", LABELS, "--coverage", "0.5"], "confidence that ranks"),
    (["compute", CNN, "--reject-label", "defer", "--order", "a,b"], "reject label"),
    (["compute", LABELS, "--reject-label", "defer", "--costs", "fn=1,fp=2"], "no cost"),
    (["compute", CNN, "--reject-label", ""], "--reject-label"),
])
def test_bad_input_is_one_sentence_with_exit_2(args: list, word: str) -> None:
    code, out = _run(*args)
    assert code == 2, out
    message = out.strip()
    assert word in message and "Traceback" not in message
    assert message.count("\n") == 0 and not re.search(r"[.!?] [A-Z]", message)


def test_report_refuses_a_reject_label_that_is_a_class(tmp_path: Path) -> None:
    answers = tmp_path / "a.yaml"
    answers.write_text("task: multiclass\noutputs: probabilities\nabstention: true\n")
    code, out = _run("report", "--answers", answers, CNN, "--reject-label", "other", "-o", tmp_path / "r.md")
    assert code == 2 and "also a true class" in out and not (tmp_path / "r.md").exists()
