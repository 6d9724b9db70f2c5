"""The field's customary figures where blind readers of the field found them missing (spam, LLM-as-judge,
dermoscopy, TB triage), and the clauses they found said for nothing: every figure the paragraph names before data is
computed by the report with data."""

from __future__ import annotations

import re
from pathlib import Path

from advisor.questionnaire import load_answers
from advisor.report import build_report

SITUATIONS = Path(__file__).parent / "situations"


def _said(ctx) -> tuple[str, list[str], set[str]]:
    """The Evaluation paragraph (a citation as " X "), its sentences and the keys it cites."""
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    text = "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)
    return (text, [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", text) if s],
            {k for s in p.spans if s.kind == "cite" for k in s.keys})


def _notation(ctx) -> str:
    """Everything the methods say, paragraph and definitions."""
    return " ".join("".join(s.text for s in p.spans if s.kind in ("text", "strong")) for p in ctx.methods)


# ----------------------------------------------------------------------------------------------
# A zero denominator only where the study can meet one
# ----------------------------------------------------------------------------------------------
def test_a_tb_accuracy_study_is_not_told_sensitivity_can_have_no_cases() -> None:
    """Consecutive enrolment with a reference standard holds participants with and without tuberculosis, and a
    resample of participants that lacks one is drawn again: "sensitivity when no participant is tuberculosis" is no
    case the study meets (the TB reader). A system that never calls tuberculosis is one: its PPV is then 0/0."""
    ctx = build_report(load_answers(SITUATIONS / "diagnostic.yaml"), None, bootstrap=2000, seed=1)
    said = _notation(ctx)
    assert "when no participant is “tuberculosis”" not in said
    assert "positive predictive value when “tuberculosis” is never predicted" in said


def test_a_class_can_still_be_missing_from_a_resample_of_whole_groups(tmp_path: Path) -> None:
    """Groups drawn whole cannot keep both classes in every resample: there the absent class is said."""
    text = (SITUATIONS / "diagnostic.yaml").read_text() + "group: site_id\n"
    (tmp_path / "grouped.yaml").write_text(text)
    ctx = build_report(load_answers(tmp_path / "grouped.yaml"), None, bootstrap=2000, seed=1)
    assert "sensitivity when no participant is “tuberculosis”" in _notation(ctx)
