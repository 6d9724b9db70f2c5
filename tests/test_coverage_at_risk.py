"""Issue 22 (legal routing): a target risk leads as the coverage it allows.

"At most 2% of the documents it routes may go to the wrong team" fixes the risk, so the lead is the coverage at that
risk, max{m/n : E_m/m ≤ r} — the largest share of the items a system answers, most confident first, with at most r of
its answers wrong (Geifman & El-Yaniv 2017) — with AURC beside it as the summary over every coverage. Checked here:
the catalogue record, the engine against a direct loop and hand examples (weights are repeated items), the item
bootstrap, the plan, the methods paragraph and a report with data.
"""

from __future__ import annotations

import csv
import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor._exceptions import InputError
from advisor.catalogue import get_catalogue
from advisor.cli import app
from advisor.engine import METRICS, coverage_at_risk, risk_coverage_curve
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, render_report
from advisor.stats._items import compare_scored

ROOT = Path(__file__).resolve().parents[1]
LEGAL = ROOT / "tests" / "situations" / "legal.yaml"
DIGITS = {"item_name": "image", "task": "multiclass", "n_classes": 10, "abstention": True, "target_risk": 0.02,
          "outputs": "probabilities", "deployment_prevalence": "same", "class_weighting": "per_instance"}


def _loop(error: list[float], conf: list[float], r: float) -> float:
    """The definition item by item: for every m, the errors among the m most confident, the items tied with the m-th
    counting the share of their group the cut takes (the mean over the orders within the tie); the largest m/n whose
    error rate is at most r."""
    n = len(error)
    best = 0
    for m in range(1, n + 1):
        last = sorted(conf, reverse=True)[m - 1]
        above = [t for t in range(n) if conf[t] > last]
        tied = [t for t in range(n) if conf[t] == last]
        errors = sum(error[t] for t in above) + (m - len(above)) * sum(error[t] for t in tied) / len(tied)
        if errors / m <= r + 1e-12:
            best = m
    return best / n


def test_the_catalogue_record() -> None:
    rec = get_catalogue().metrics["coverage_at_risk"]
    assert rec.name == "Coverage at a target risk"
    assert rec.formula == r"\max\left\{\frac{m}{n} : \frac{E_m}{m}\le r\right\}"
    assert set(rec.symbols) == {"m", "E_m", "n", "r"}
    assert "fractionally" in rec.symbols["E_m"] and "target risk" in rec.symbols["r"]
    assert rec.higher_is_better and tuple(rec.range) == (0, 1) and rec.needs_probabilities
    assert {"geifman2017selective", "geifman2019bias"} <= set(rec.references)
    pitfalls = " ".join(rec.pitfalls)
    assert "found on the test set" in pitfalls and "optimistic" in pitfalls and "fixed in advance" in pitfalls
    assert "jumps with single errors" in pitfalls
    assert rec.chance_level
    # confusion-matrix properties: not applicable, each with its reason (the checker has no matrix to test it on)
    assert rec.properties and all(c.status == "not_applicable" and c.note for c in rec.properties.values())
    assert METRICS["coverage_at_risk"].higher_is_better and METRICS["coverage_at_risk"].needs_probabilities


def test_the_formula_symbols_are_all_defined() -> None:
    from tests.test_formula_symbols import symbols_of

    rec = get_catalogue().metrics["coverage_at_risk"]
    assert symbols_of(rec.formula) == {"m", "n", "E", "r"}
    defined = set().union(*(symbols_of(key) for key in rec.symbols))
    assert symbols_of(rec.formula) <= defined


def test_a_hand_example_of_ten_items() -> None:
    # most confident first; the 3rd and the 8th answers are wrong
    conf = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]
    error = [0, 0, 1, 0, 0, 0, 0, 1, 0, 0]
    # E_m/m: 0, 0, 1/3, 1/4, 1/5, 1/6, 1/7, 2/8, 2/9, 2/10
    assert float(coverage_at_risk(error, conf, 0.0)) == 0.2
    assert float(coverage_at_risk(error, conf, 0.15)) == 0.7  # 1/7 ≤ 0.15 < 1/6 … and 2/10 > 0.15
    # every m counts, not the first to exceed r: 1/3 > 0.2 at m = 3, yet all ten answered hold 2/10
    assert float(coverage_at_risk(error, conf, 0.2)) == 1.0
    assert float(coverage_at_risk([1] * 10, conf, 0.5)) == 0.0
    # a tie at the cut: the 3rd and 4th share one error, so E_3 = 0.5 (3/5 within 0.18) and E_4 = 1
    assert float(coverage_at_risk([0, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.6], 0.18)) == 0.6
    assert float(coverage_at_risk([0, 0, 0, 1, 0], [0.9, 0.8, 0.7, 0.7, 0.6], 0.2)) == 1.0


def test_the_engine_equals_the_definition_on_random_data() -> None:
    rng = np.random.default_rng(22)
    for _ in range(300):
        n = int(rng.integers(1, 30))
        error = (rng.random(n) < rng.uniform(0, 0.4)).astype(float).tolist()
        conf = np.round(rng.random(n), int(rng.integers(0, 3))).tolist()  # ties, and a constant confidence
        for r in (0.0, 0.02, 0.1, 1 / 3, float(rng.random())):
            assert float(coverage_at_risk(error, conf, r)) == pytest.approx(_loop(error, conf, r), abs=1e-12)
            cov, risk = risk_coverage_curve(error, conf)  # the curve's reading, which the table's column was
            ok = np.flatnonzero(risk <= r + 1e-12)
            assert float(coverage_at_risk(error, conf, r)) == (float(cov[ok[-1]]) if ok.size else 0.0)


def test_weights_are_repeated_items_and_batches_are_rows() -> None:
    rng = np.random.default_rng(5)
    n = 40
    error = (rng.random(n) < 0.15).astype(float)
    conf = np.round(rng.random(n), 1)
    w = rng.integers(0, 4, (6, n))
    got = coverage_at_risk(error, conf, 0.05, w)
    assert got.shape == (6,)
    for row, value in zip(w, got):
        expanded = float(coverage_at_risk(np.repeat(error, row), np.repeat(conf, row), 0.05))
        assert value == pytest.approx(expanded, abs=1e-12)


def test_tiny_brute_force_over_every_order_of_a_tie() -> None:
    error, conf = [1, 0, 0, 1, 0], [0.9, 0.5, 0.5, 0.5, 0.2]
    for r in (0.2, 0.3, 0.5):
        # the fractional tie is the mean error count over the orders within it, at every m
        n = len(error)
        tie = [1, 2, 3]
        counts = []
        for order in itertools.permutations(tie):
            seq = [0, *order, 4]
            counts.append(np.cumsum([error[t] for t in seq]))
        mean = np.mean(counts, axis=0)
        best = max([m for m in range(1, n + 1) if mean[m - 1] / m <= r + 1e-12], default=0)
        assert float(coverage_at_risk(error, conf, r)) == pytest.approx(best / n)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), "two percent", True])
def test_a_bad_target_risk_is_one_sentence_naming_it(bad: object) -> None:
    with pytest.raises(InputError, match="target_risk") as err:
        coverage_at_risk([0, 1], [0.9, 0.1], bad)  # type: ignore[arg-type]
    assert "from 0 to 1" in str(err.value) and repr(bad) in str(err.value)


def test_the_item_bootstrap_resamples_it_with_its_parameter() -> None:
    rng = np.random.default_rng(4)
    n, k = 400, 4
    y = rng.integers(0, k, n)
    logits = rng.normal(0, 1, (n, k))
    logits[np.arange(n), y] += 1.5  # a quarter wrong, the surest mostly right: a coverage of 0.59 at 10%
    good = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    noise = rng.dirichlet(np.ones(k), n)
    r = compare_scored(y, {"good": good, "noise": noise}, list(range(k)), metrics=["coverage_at_risk", "aurc"],
                       params={"target_risk": 0.1}, n_resamples=300, seed=1)
    for name, p in (("good", good), ("noise", noise)):
        e = (p.argmax(axis=1) != y).astype(float)
        assert r.estimates["coverage_at_risk"][name] == float(coverage_at_risk(e, p.max(axis=1), 0.1))
    low, high = r.intervals["coverage_at_risk"]["good"]
    assert r.estimates["coverage_at_risk"]["good"] == pytest.approx(0.5925)
    assert low < r.estimates["coverage_at_risk"]["good"] < high
    assert r.winners["coverage_at_risk"] == ["good"]  # higher is better
    with pytest.raises(InputError, match="needs its parameter target_risk"):
        compare_scored(y, {"good": good}, list(range(k)), metrics=["coverage_at_risk"], n_resamples=200)


def test_the_plan_for_legal_routing_leads_with_it() -> None:
    # the legal methodologist: a cut read off the test set cannot show the 2% limit holds. With a cut fixed in advance
    # the coverage at the target risk stays the plan's figure of the ranking, the cut itself set against the limit by
    # the plan's check (tests/test_selective_guarantee.py); without one, the cut frozen on calibration matters leads
    # and this third reading of the curve is not planned (the selective-classification methodologist)
    fixed = load_answers(LEGAL).model_dump(exclude_none=True) | {"operating_point": "fixed"}
    plan = make_plan(fixed)
    assert plan.lead.id == "coverage_at_risk" and plan.lead.family == "score"
    assert plan.lead.params == {"target_risk": 0.02, "confidence_from": "top-label probability"}
    assert "target_risk" in plan.lead.answers and "abstention" in plan.lead.answers
    assert "0.02" in plan.lead.reason and "optimistic for a threshold fixed in advance" in plan.lead.reason
    beside = {m.id: m for m in plan.beside}
    assert "aurc" in beside and "every coverage" in beside["aurc"].reason
    assert "coverage_at_risk" not in [d.id for d in plan.diagnostics]
    keys = {u.key for u in plan.answers}
    assert "target_risk" in keys  # every answer lands in the plan
    plan = make_plan(load_answers(LEGAL))
    assert plan.lead.id == "coverage_guaranteed_risk"
    assert "coverage_at_risk" not in {m.id for m in plan.beside}


def test_with_a_target_coverage_too_the_selective_risk_leads_and_the_coverage_is_beside() -> None:
    answers = load_answers(LEGAL).model_dump(exclude_none=True) | {"target_coverage": 0.8}
    plan = make_plan(answers)
    # no cut fixed in advance: the selective risk at the cut frozen on a calibration half for that coverage leads
    assert plan.lead.id == "risk_at_frozen_coverage" and plan.lead.params["coverage"] == 0.8
    beside = {m.id: m for m in plan.beside}
    assert beside["coverage_at_risk"].params["target_risk"] == 0.02 and "aurc" in beside
    assert "coverage_at_risk" not in [d.id for d in plan.diagnostics]
    plan = make_plan(answers | {"operating_point": "fixed"})  # a cut fixed in advance: the test set's own cut
    assert plan.lead.id == "selective_risk" and plan.lead.params["coverage"] == 0.8
    beside = {m.id: m for m in plan.beside}
    assert beside["coverage_at_risk"].params["target_risk"] == 0.02 and "aurc" in beside
    assert "coverage_at_risk" not in [d.id for d in plan.diagnostics]


def test_advisor_methods_leads_with_it_and_states_the_optimism(tmp_path: Path) -> None:
    # beside the cut fixed in advance that leads (the legal methodologist), with where its cut was found
    answers = tmp_path / "legal.yaml"
    answers.write_text(LEGAL.read_text(encoding="utf-8") + "operating_point: fixed\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["methods", "--answers", str(answers), "--seed", "1"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Beside these we report coverage at a risk of 2%, balanced accuracy and area under the risk-coverage " \
           "curve. The cut of the coverage at the target risk is found on this test set and is optimistic for a " \
           "threshold fixed in advance." in text
    assert r"**Coverage at a risk of 2%**: $$\max\left\{\frac{m}{n} : \frac{E_m}{m}\le r\right\}$$" in text
    assert "We also give the largest share" not in text  # said once, as the lead, not promised again
    # AURC beside it is the summary over every coverage, with its source (Geifman, Uziel & El-Yaniv 2019)
    assert "summarises the selective risk over every coverage (Geifman et al. 2019)" in text
    assert "Geifman, Y., Uziel, G., & El-Yaniv, R. (2019)" in text


def test_a_report_with_data_has_it_in_table_1_with_an_interval_containing_it() -> None:
    data = advisor.load([str(ROOT / "examples/digits/logreg.csv"), str(ROOT / "examples/digits/tree.csv")])
    ctx = build_report({**DIGITS, "operating_point": "fixed"}, data, bootstrap=300, seed=1)
    assert ctx.primary == "coverage_at_risk"  # beside a cut fixed in advance, this figure is in Table 1
    for rep in ctx.systems:  # the answers given with the probabilities, ranked by the top-label probability
        with open(ROOT / f"examples/digits/{rep.name}.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        e = np.array([r["y_true"] != r["y_pred"] for r in rows], dtype=float)
        conf = np.array([max(float(r[f"p_{j}"]) for j in range(10)) for r in rows])
        assert rep.values["coverage_at_risk"] == float(coverage_at_risk(e, conf, 0.02))
        iv = rep.intervals["coverage_at_risk"]
        if iv.method != "none":
            assert iv.low <= iv.estimate <= iv.high
    assert any(rep.intervals["coverage_at_risk"].method != "none" for rep in ctx.systems)
    md = render_report(ctx, "md")
    table1 = md.split("*Table 1.*", 1)[1].split("\n\n", 2)[1]
    row = next(line for line in table1.splitlines() if line.startswith("| Coverage at a risk of 2%"))
    assert "[" in row  # an estimate with its interval
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "The cut of the coverage at the target risk is found on this test set and is optimistic for a threshold " \
           "fixed in advance" in text
    assert not math.isnan(ctx.systems[0].values["coverage_at_risk"])
