"""A field's convention for undefined values (fields.yaml ``undefined``): the CoLA reader, "report 0, and say so".

GLUE scores CoLA with scikit-learn's ``matthews_corrcoef``, which gives 0 when a class is never predicted (the
accept-everything baseline). When the answers name acceptability judgements and the run chooses no convention, the
plan takes the field's (zero) and records why; the engine, the intervals, the tables, the JSON and the text all use
it, and the methods say it as the field's scorer's. An explicit choice always wins; a field without the key, or
no field, keeps advisor's default.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError
from sklearn.metrics import matthews_corrcoef
from typer.testing import CliRunner

import advisor
from advisor.cli import app
from advisor.engine import DEFAULT_CONVENTION, compute_metrics, confusion_matrix
from advisor.plan import make_plan, undefined_convention
from advisor.questionnaire import CommunityField, load_answers, load_fields
from advisor.report import build_report, methods_paragraph, render_report

COLA = Path(__file__).parent / "situations" / "cola.yaml"
SCORER = "as in the GLUE benchmark's scorer, which uses scikit-learn"
runner = CliRunner()


def _data(n: int = 240, seed: int = 0) -> dict[str, list[str]]:
    """CoLA-like labels (about 70% acceptable), a real classifier and the accept-everything baseline."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.7, "acceptable", "unacceptable")
    flip = np.where(y == "acceptable", "unacceptable", "acceptable")
    model = np.where(rng.random(n) < 0.8, y, flip)
    return {"y_true": list(y), "model": list(model), "accept_all": ["acceptable"] * n}


def _paragraph(ctx, heading: str) -> str:
    p = next(p for p in ctx.methods if p.heading == heading)
    return "".join(s.text if s.kind in ("text", "strong") else "(X)" for s in p.spans)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", text.strip()) if s]


@pytest.fixture(scope="module")
def reports():
    """The report of a constant predictor beside a real one, with the field's convention and with omit chosen."""
    data = _data()
    return {und: build_report(COLA, data, bootstrap=200, seed=3, undefined=und) for und in (None, "omit")}


# ---- the plan ------------------------------------------------------------------------------------------------------
def test_the_plan_takes_the_fields_convention_and_records_why() -> None:
    plan = make_plan(COLA)
    assert (plan.design.undefined, plan.design.undefined_from) == ("zero", "field")
    use = next(u for u in plan.answers if u.key == "field")
    assert use.unused is None and any("undefined-value convention: zero" in u and "GLUE" in u for u in use.used_by)
    assert plan.to_json_dict()["design"]["undefined_from"] == "field"


@pytest.mark.parametrize("chosen", ["omit", "baseline", "zero"])
def test_an_explicit_choice_always_wins(chosen: str) -> None:
    plan = make_plan(COLA, options={"undefined": chosen})
    assert (plan.design.undefined, plan.design.undefined_from) == (chosen, "option")
    use = next(u for u in plan.answers if u.key == "field")
    if chosen != "zero":  # the field's convention is said as set aside for the run's
        assert any(u.startswith("not the undefined-value convention") and chosen in u for u in use.used_by)
    else:  # the run chose the field's own: said as the field's, never as set aside
        assert any(u.endswith("which the run also chose") and "GLUE" in u for u in use.used_by)
        assert not any(u.startswith("not the undefined-value convention") for u in use.used_by)
    ctx = build_report(COLA, None, bootstrap=0, undefined=chosen)
    assert ctx.convention == chosen and ctx.plan["design"]["undefined"] == chosen


def test_a_plan_given_as_is_meets_a_run_that_chose_another() -> None:
    plan = make_plan(COLA)
    ctx = build_report(plan, None, bootstrap=0, undefined="omit")
    assert ctx.convention == "omit"
    assert (ctx.plan["design"]["undefined"], ctx.plan["design"]["undefined_from"]) == ("omit", "option")
    assert plan.design.undefined == "zero"  # the caller's plan is not changed


def test_only_fields_whose_scorer_was_read_carry_a_convention() -> None:
    carry = {fid: f.undefined for fid, f in load_fields().items() if f.undefined is not None}
    assert carry == {"acceptability_judgements": "zero"}
    f = load_fields()["acceptability_judgements"]
    assert f.undefined_as and f.undefined_sources == ["pedregosa2011scikit"]
    with pytest.raises(ValidationError, match="undefined_as"):
        CommunityField.model_validate({**f.model_dump(), "undefined_as": None})


@pytest.mark.parametrize("answers", [
    {"task": "binary", "classes": ["no", "yes"], "positive_class": "yes", "outputs": "labels"},
    {"task": "multiclass", "classes": ["favor", "against", "none"], "field": "rumour_stance", "outputs": "labels"},
    {"task": "binary", "classes": ["ham", "spam"], "positive_class": "spam", "field": "sarcasm_detection",
     "outputs": "labels"},
])
def test_a_field_without_the_key_or_no_field_is_unchanged(answers) -> None:
    plan = make_plan(answers)
    assert (plan.design.undefined, plan.design.undefined_from) == (DEFAULT_CONVENTION, "default")
    assert undefined_convention(None, answers.get("field")) == (DEFAULT_CONVENTION, "default")
    assert not any("undefined-value convention" in u for a in plan.answers for u in a.used_by)
    text = methods_paragraph(answers, seed=1)
    assert text == methods_paragraph(answers, seed=1, undefined=DEFAULT_CONVENTION)
    assert "GLUE" not in text
    ctx = build_report(answers, None, bootstrap=0)
    assert ctx.convention == DEFAULT_CONVENTION and ctx.convention_scorer is None


# ---- the methods text ----------------------------------------------------------------------------------------------
def test_the_methods_say_the_convention_as_the_fields_scorer() -> None:
    ctx = build_report(COLA, None, bootstrap=2000, seed=2024)
    said = _paragraph(ctx, "Definitions")
    sentence = next(s for s in _sentences(said) if "zero denominator" in s)
    assert sentence == ("A zero denominator gives 0, as in the GLUE benchmark's scorer, which uses scikit-learn (X): Matthews "
                        "correlation coefficient is 0 when a class is never predicted.")
    assert len(sentence.split()) <= 40
    assert "left out" not in said and "reported as undefined" not in said  # no resample is dropped under zero
    assert "pedregosa2011scikit" in [r.key for r in ctx.references]
    text = methods_paragraph(COLA, seed=2024)
    assert "Matthews correlation coefficient is 0 when a class is never predicted" in text
    assert "(Pedregosa et al. 2011)" in text and "left out" not in text
    evaluation = _paragraph(ctx, "Evaluation")
    assert 60 <= len(evaluation.split()) <= 220
    assert all(len(s.split()) <= 40 for s in _sentences(evaluation))


def test_omit_chosen_keeps_its_own_sentence_and_no_scorer(reports) -> None:
    # an option the author chose is their method's: said before data, though omit is no field's scorer
    text = methods_paragraph(COLA, seed=2024, undefined="omit")
    assert "reported as undefined, and the resamples in which it is undefined are left out of its interval" in text
    assert "GLUE" not in text
    # with data, where the accept-everything baseline met it: the convention, with how often
    said = _paragraph(reports["omit"], "Definitions")
    sentence = next(s for s in _sentences(said) if "zero denominator" in s)
    assert "reported as undefined, and the resamples in which it is undefined are left out of its interval" in sentence
    assert re.search(r"; \d+ values were undefined here\.$", sentence), sentence
    assert "GLUE" not in said


def test_the_methods_command_follows_the_field_unless_told() -> None:
    out = runner.invoke(app, ["methods", "--answers", str(COLA), "--seed", "5"])
    assert out.exit_code == 0, out.output
    assert "as in the GLUE benchmark's scorer, which uses scikit-learn" in out.output and "left out" not in out.output
    out = runner.invoke(app, ["methods", "--answers", str(COLA), "--seed", "5", "--undefined", "omit"])
    assert out.exit_code == 0, out.output
    assert "GLUE" not in out.output and "left out of its interval" in out.output
    out = runner.invoke(app, ["methods", "--answers", str(COLA), "--undefined", "never"])
    assert out.exit_code != 0 and "--undefined must be one of" in out.output


# ---- the report on data --------------------------------------------------------------------------------------------
def test_a_constant_predictor_scores_0_as_scikit_learn_and_undefined_under_omit(reports) -> None:
    data = _data()
    zero, omit = reports[None], reports["omit"]
    assert zero.convention == "zero" and zero.plan["design"]["undefined_from"] == "field"
    assert omit.convention == "omit" and omit.plan["design"]["undefined_from"] == "option"
    by = {s.name: s for s in zero.systems}
    for name in ("model", "accept_all"):
        assert by[name].values["mcc"] == pytest.approx(matthews_corrcoef(data["y_true"], data[name]), abs=1e-12)
    assert by["accept_all"].values["mcc"] == 0.0
    assert {s.name: s for s in omit.systems}["accept_all"].values["mcc"] is None
    # the engine's value under the plan's convention, for every reported metric
    cm = confusion_matrix(data["y_true"], data["accept_all"])
    ids = [m.id for m in zero.metrics]
    direct = compute_metrics(cm, ids, undefined="zero")
    for mid in ids:
        assert by["accept_all"].values[mid] == pytest.approx(direct[mid]), mid


def test_intervals_and_differences_use_the_fields_convention(reports) -> None:
    zero, omit = reports[None], reports["omit"]
    iv = {s.name: s.intervals["mcc"] for s in zero.systems}
    assert iv["accept_all"].estimate == 0.0 and iv["model"].low is not None and iv["model"].low > 0
    assert {s.name: s for s in omit.systems}["accept_all"].intervals["mcc"].estimate is None
    resolved = [u for s in zero.systems for u in s.undefined]
    assert resolved and all("zero convention" in u.resolution for u in resolved)
    assert all("omit convention" in u.resolution for s in omit.systems for u in s.undefined)


def test_the_text_tables_and_json_agree_on_the_convention(reports, tmp_path: Path) -> None:
    zero = reports[None]
    said = " ".join(_paragraph(zero, h) for h in ("Evaluation", "Definitions"))
    assert "A zero denominator gives 0, as in the GLUE benchmark's scorer, which uses scikit-learn" in said
    assert "values were undefined here" in said and "left out" not in said
    assert 60 <= len(_paragraph(zero, "Evaluation").split()) <= 220
    render_report(zero, "md", tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "resolved (zero convention, as in the GLUE benchmark's scorer, which uses scikit-learn)." in md
    for fmt in ("html", "tex"):
        render_report(zero, fmt, tmp_path / f"r.{fmt}")
        written = (tmp_path / f"r.{fmt}").read_text(encoding="utf-8")
        assert "zero convention, as in the GLUE benchmark's scorer, which uses scikit-learn" in html.unescape(written)
    render_report(zero, "json", tmp_path / "r.json")
    ctx = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert ctx["convention"] == "zero" and ctx["convention_scorer"] == "the GLUE benchmark's scorer, which uses scikit-learn"
    assert ctx["plan"]["design"]["undefined"] == "zero"
    render_report(reports["omit"], "md", tmp_path / "o.md")
    assert "resolved (omit convention)." in (tmp_path / "o.md").read_text(encoding="utf-8")


def test_the_report_command_follows_the_field(tmp_path: Path) -> None:
    data = _data(120, seed=4)
    files = []
    for name in ("model", "accept_all"):
        path = tmp_path / f"{name}.csv"
        path.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(data["y_true"], data[name])),
                        encoding="utf-8")
        files.append(str(path))
    for extra, convention, mcc in (([], "zero", 0.0), (["--undefined", "omit"], "omit", None)):
        out_path = tmp_path / f"{convention}.json"
        out = runner.invoke(app, ["report", *files, "--answers", str(COLA), "--bootstrap", "0", "-o", str(out_path),
                                  *extra])
        assert out.exit_code == 0, out.output
        ctx = json.loads(out_path.read_text(encoding="utf-8"))
        assert ctx["convention"] == convention
        assert ctx["metrics"]["accept_all"]["mcc"] == mcc


def test_answers_loaded_or_given_as_a_path_plan_alike() -> None:
    assert make_plan(load_answers(COLA)).design.undefined == make_plan(str(COLA)).design.undefined == "zero"
    assert advisor.build_report(COLA, None, bootstrap=0).convention == "zero"


def test_an_interval_withheld_for_an_undefined_figure_is_said_as_such(reports) -> None:
    """Under omit the constant predictor's MCC is undefined in the test set and every resample: no interval because
    its denominator is 0, never "the estimate's bias exceeding its sampling error"."""
    said = _paragraph(reports["omit"], "Evaluation")
    assert "Matthews correlation coefficient has no interval where its denominator is 0." in said
    assert "bias exceeding" not in said
