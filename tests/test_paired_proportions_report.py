"""The report of two systems on the same participants of a diagnostic-accuracy study (tests/situations/diagnostic.yaml):
the paired differences of sensitivity and specificity carry Newcombe's interval and McNemar's exact test, the methods
text names both with its source; with a group column (clustered items) neither is used and the bootstrap stays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor.questionnaire import load_answers
from advisor.report import build_report
from advisor.stats._proportions import binomial_two_sided, newcombe_paired

ROOT = Path(__file__).resolve().parents[1]
SITUATION = ROOT / "tests" / "situations" / "diagnostic.yaml"
POS, NEG = "tuberculosis", "no tuberculosis"


def _files(tmp_path: Path) -> list[Path]:
    """Two readers of 200 participants (60 with tuberculosis): on the positives A alone finds 14, B alone 6, both 40;
    on the negatives A alone is right on 3, B alone on 10, both on 127."""
    y = np.array([1] * 60 + [0] * 140)
    a, b = y.copy(), y.copy()
    a[:6], b[6:20] = 0, 0
    a[60:70], b[70:73] = 1, 1
    paths = []
    for name, pred in (("A", a), ("B", b)):
        rows = ["id,y_true,y_pred,site"] + [f"{i},{POS if t else NEG},{POS if p else NEG},s{i // 4}"
                                            for i, (t, p) in enumerate(zip(y, pred))]
        path = tmp_path / f"{name}.csv"
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def _evaluation(ctx) -> str:
    return " ".join(p.text if hasattr(p, "text") else str(p) for p in ctx.methods)


def test_two_systems_get_mcnemar_and_newcombe_for_sensitivity_and_specificity(tmp_path):
    ctx = build_report(load_answers(SITUATION), advisor.load(_files(tmp_path)), bootstrap=300, seed=5)
    rows = {r.metric: r for r in ctx.figures.differences}
    assert rows["recall"].method == "newcombe" and rows["specificity"].method == "newcombe"
    assert (rows["recall"].low, rows["recall"].high) == pytest.approx(newcombe_paired(40, 14, 6, 0, 0.95))
    assert (rows["specificity"].low, rows["specificity"].high) == pytest.approx(newcombe_paired(127, 3, 10, 0, 0.95))
    assert rows["precision"].method != "newcombe"  # PPV: each system's own positive calls, the bootstrap's
    # the row's test is the one its interval comes from: McNemar's p of the same 2×2 table, not the bootstrap's
    assert rows["recall"].p_value == pytest.approx(binomial_two_sided(14, 6))
    assert rows["specificity"].p_value == pytest.approx(binomial_two_sided(3, 10))
    assert rows["recall"].test == "McNemar's exact test" and rows["precision"].test == "paired bootstrap"
    table = next(t for t in ctx.tables if t.id == "paired_differences")
    assert "The intervals of recall and specificity are Newcombe's for paired proportions" in table.caption
    assert "their p is McNemar's exact test's, on the same items" in table.caption
    p_sens = f"{binomial_two_sided(14, 6):.3f}"
    assert f"Recall, McNemar's exact test: A is right and B wrong on 14 positive items, the reverse on 6; p = {p_sens}" \
        in table.caption
    p_spec = f"{binomial_two_sided(3, 10):.3f}"
    assert (f"Specificity, McNemar's exact test: A is right and B wrong on 3 negative items, the reverse on 10; "
            f"p = {p_spec}") in table.caption
    text = advisor.render_report(ctx, "md")
    assert ("Differences between systems in sensitivity and specificity are compared with McNemar's exact test and "
            "Newcombe's interval for paired proportions, each among the participants its denominator counts "
            "(Newcombe 1998)") in " ".join(text.split())
    assert "Other paired differences come from 300 bootstrap resamples" in " ".join(text.split())


def test_a_group_column_keeps_the_bootstrap(tmp_path):
    answers = load_answers(SITUATION).model_copy(update={"group": "site"})
    ctx = build_report(answers, advisor.load(_files(tmp_path), group="site"), bootstrap=300, seed=5)
    assert ctx.intervals is not None and not ctx.intervals.mcnemar
    assert all(r.method != "newcombe" for r in ctx.figures.differences)
    text = " ".join(advisor.render_report(ctx, "md").split())
    assert "Newcombe" not in text and "McNemar" not in text
