"""Issue 19, acceptance 1: each failure a new user met, as the user sees it (exit code, JSON, text).

Each test writes the answers the issue describes, runs the command the user ran and checks the output:
the plan printed by ``recommend --json``, the one-screen view, the methods paragraph, the report.
"""

from __future__ import annotations

import re

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from advisor.cli import app
from advisor.plan import make_plan
from advisor.questionnaire import Answers, answers_to_yaml
from advisor.report._plan import _at_priors_ids

runner = CliRunner()


def _answers(tmp_path: Path, data: dict[str, Any], name: str = "answers.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _plan(path: Path, *extra: str) -> dict[str, Any]:
    res = runner.invoke(app, ["recommend", "--answers", str(path), "--json", *extra])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["plan"]


def _screen(path: Path, *extra: str) -> str:
    res = runner.invoke(app, ["recommend", "--answers", str(path), *extra], env={"COLUMNS": ""})
    assert res.exit_code == 0, res.output
    return res.stdout


def _methods(path: Path) -> str:
    res = runner.invoke(app, ["methods", "--answers", str(path)])
    assert res.exit_code == 0, res.output
    return res.stdout.split("\n\n")[0]


def _predictions(tmp_path: Path, labels: list[str], names: list[str], *, rng: np.random.Generator, n: int = 300,
                 proba: bool = False, p: list[float] | None = None) -> list[Path]:
    """One prediction file per system, every system on the same items (the same y_true)."""
    y = rng.choice(labels, size=n, p=p)
    y[: len(labels)] = labels
    paths = []
    for j, name in enumerate(names):
        pred = np.where(rng.random(n) < 0.8 - 0.1 * j, y, rng.choice(labels, size=n))
        lines = ["y_true,y_pred" + ("".join(f",p_{lab}" for lab in labels) if proba else "")]
        for t, q in zip(y, pred):
            row = f"{t},{q}"
            if proba:
                w = rng.dirichlet(np.ones(len(labels))) * 0.4
                w[labels.index(q)] += 0.6
                row += "".join(f",{v:.6f}" for v in w)
            lines.append(row)
        path = tmp_path / f"{name}.csv"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def _report(tmp_path: Path, answers: Path, files: list[Path], *extra: str) -> str:
    out = tmp_path / "report.md"
    res = runner.invoke(app, ["report", "--answers", str(answers), *map(str, files), "--seed", "1",
                              "--bootstrap", "200", "-o", str(out), "--force", *extra])
    assert res.exit_code == 0, res.output
    return out.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------------------------
# 1. Known costs with label outputs
# ----------------------------------------------------------------------------------------------
DEFECTS = {"task": "binary", "classes": ["ok", "defect"], "positive_class": "defect",
           "error_costs": {"false_negative": 400, "false_positive": 4}, "deployment_prevalence": "same",
           "outputs": "labels"}
TRIAGE = {"task": "multiclass", "classes": ["resus", "emergent", "urgent", "routine"],
          "error_costs": {"matrix": [[0, 5, 20, 50], [2, 0, 5, 20], [4, 2, 0, 5], [6, 4, 2, 0]]},
          "outputs": "labels"}


def test_known_costs_lead_when_the_classifier_outputs_labels(tmp_path) -> None:
    plan = _plan(_answers(tmp_path, DEFECTS))
    lead = plan["metrics"][0]
    assert lead["id"] == "normalized_expected_cost" and lead["params"]["costs"] == {"fn": 400.0, "fp": 4.0}
    screen = _screen(_answers(tmp_path, DEFECTS))
    assert screen.startswith("Lead with normalized expected cost")
    assert "balanced accuracy is a plain mean" not in screen
    # the same answers with scores give the same lead: outputs do not decide whether costs count
    assert _plan(_answers(tmp_path, {**DEFECTS, "outputs": "scores"}, "s.yaml"))["metrics"][0]["id"] == lead["id"]


def test_a_full_cost_matrix_leads_and_the_methods_and_report_use_it(tmp_path) -> None:
    answers = _answers(tmp_path, TRIAGE)
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "normalized_expected_cost"
    assert plan["metrics"][0]["params"]["costs"]["matrix"][0] == [0.0, 5.0, 20.0, 50.0]
    assert "normalized expected cost" in _methods(answers)
    rng = np.random.default_rng(1)
    files = _predictions(tmp_path, TRIAGE["classes"], ["m0", "m1"], rng=rng)
    text = _report(tmp_path, answers, files)
    assert "Normalized expected cost" in text.split("## Results")[1].split("\n\n")[2]  # Table 1's lead row


# ----------------------------------------------------------------------------------------------
# 2. Custom class weights
# ----------------------------------------------------------------------------------------------
MURMUR = {"task": "multiclass", "classes": ["Present", "Unknown", "Absent"], "class_weighting": "custom",
          "class_weights": {"Present": 5, "Unknown": 3, "Absent": 1}}


def test_custom_class_weights_lead_with_their_weighted_mean_recall(tmp_path) -> None:
    answers = _answers(tmp_path, MURMUR)
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "class_weighted_recall"
    assert plan["metrics"][0]["params"]["class_weights"] == {"Present": 5.0, "Unknown": 3.0, "Absent": 1.0}
    methods = _methods(answers)
    assert "The class weights are 5, 3 and 1 for “Present”, “Unknown” and “Absent”." in methods
    rng = np.random.default_rng(2)
    files = _predictions(tmp_path, MURMUR["classes"], ["m0", "m1"], rng=rng, p=[0.2, 0.1, 0.7])
    text = _report(tmp_path, answers, files)
    row = next(line for line in text.splitlines() if line.startswith("| Class-weighted mean recall |"))
    assert "[" in row  # an estimate with its interval for each system
    assert "wᵢ = 5, 3 and 1" in text  # the weights beside the formula


def test_costs_and_weights_together_say_which_leads_in_one_sentence(tmp_path) -> None:
    both = {**TRIAGE, "class_weighting": "custom", "class_weights": {"resus": 4, "emergent": 3, "urgent": 2,
                                                                       "routine": 1}}
    answers = _answers(tmp_path, both)
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "normalized_expected_cost"
    assert "class_weighted_recall" in [m["id"] for m in plan["metrics"]]
    assert len(plan["conflicts"]) == 1 and "the expected cost under your costs leads" in plan["conflicts"][0]
    screen = _screen(answers)
    assert "Where your answers pull apart" in screen and "costs price every kind of error" in screen


# ----------------------------------------------------------------------------------------------
# 3. A class of interest among several
# ----------------------------------------------------------------------------------------------
ROUTER = {"task": "multiclass", "classes": ["billing", "tech", "sales", "legal_threat", "spam", "other"],
          "positive_class": "legal_threat"}


def test_a_class_of_interest_is_named_computed_and_reported(tmp_path) -> None:
    answers = _answers(tmp_path, ROUTER)
    plan = _plan(answers)
    of_class = {m["id"] for m in plan["metrics"] if m["params"].get("positive_label") == "legal_threat"}
    assert {"recall", "precision", "f1"} <= of_class
    assert "“legal_threat”" in _screen(answers)
    assert "recall, precision and F1 score of “legal_threat”" in _methods(answers)  # intraword _ is inert in Markdown
    rng = np.random.default_rng(3)
    files = _predictions(tmp_path, ROUTER["classes"], ["q0", "q1"], rng=rng)
    text = _report(tmp_path, answers, files)
    assert "computed for the positive class “legal_threat”" in text


# ----------------------------------------------------------------------------------------------
# 4. A planned metric that is also the lead
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("extra", [{}, {"deployment_prevalence": "same"}])
def test_a_planned_top_k_lead_is_not_also_avoided(tmp_path, extra) -> None:
    answers = _answers(tmp_path, {"task": "multiclass", "n_classes": 1000, "top_k": 5,
                                  "planned_metrics": ["top-5 accuracy"], **extra})
    res = runner.invoke(app, ["recommend", "--answers", str(answers)])
    assert res.exit_code == 0 and "internal error" not in res.output, res.output
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "top_k_accuracy"
    assert "top_k_accuracy" not in {a["id"] for a in plan["avoid"]}
    assert not any(f"We do not {v} top-k accuracy" in _methods(answers) for v in ("rely on", "report"))


def test_a_planned_krippendorff_alpha_lead_is_known_and_not_contradicted(tmp_path) -> None:
    answers = _answers(tmp_path, {"classes": ["low", "mid", "high"], "label_structure": "ordinal", "annotators": 4,
                                  "planned_metrics": ["Krippendorff's alpha"]})
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "krippendorff_alpha_ordinal"
    assert not plan["unused"]  # the name is known: it leads
    assert "krippendorff_alpha" not in [m["id"] for m in plan["metrics"]]  # not its other reading beside it
    assert not any(f"We do not {v} Krippendorff" in _methods(answers) for v in ("rely on", "report"))


# ----------------------------------------------------------------------------------------------
# 5. A "preferred" requirement leaves a trace
# ----------------------------------------------------------------------------------------------
def test_chance_correction_preferred_on_a_shared_task_is_met_by_the_strict_chance_level(tmp_path) -> None:
    # balanced accuracy scores 1/k for every random classifier (a strict chance level), so on one test set it ranks
    # the systems as its chance-corrected form does: the chance-corrected view is there, and no MCC is added beside
    # it "with no role" (the s35 shared-task and digits readers; choice.yaml, view "chance")
    answers = _answers(tmp_path, {"classes": ["negative", "neutral", "positive"], "ranking": True,
                                  "chance_correction": "preferred"})
    plan = _plan(answers)
    assert plan["metrics"][0]["id"] == "balanced_accuracy"
    assert not {"mcc", "cohen_kappa", "adjusted_balanced_accuracy"} & {m["id"] for m in plan["metrics"][1:]}
    use = next(a for a in plan["answers"] if a["key"] == "chance_correction")
    assert use["used_by"] and use["unused"] is None
    assert "lead: Balanced accuracy" in use["used_by"]


# ----------------------------------------------------------------------------------------------
# 6. Risks of ordered classes
# ----------------------------------------------------------------------------------------------
RAIN = {"task": "multiclass", "classes": ["none", "light", "heavy"], "label_structure": "ordinal",
        "risk_estimates": True, "outputs": "probabilities", "planned_metrics": ["Brier score"]}


def test_risks_of_ordered_classes_keep_a_proper_scoring_rule_and_the_planned_brier(tmp_path) -> None:
    answers = _answers(tmp_path, RAIN)
    plan = _plan(answers)
    ids = [m["id"] for m in plan["metrics"]]
    # issue 21, item 6: ordered forecasts lead with the ranked probability score (was log loss, which ignores the
    # order); still a proper scoring rule of the probabilities, not the argmax's distance; log loss beside it
    assert ids[0] == "ranked_probability_score"
    assert {"log_loss", "rps_skill", "brier"} <= set(ids[1:]) and "mae_macro" in ids[1:]
    assert not plan["unused"]  # the planned Brier score, the outputs and the risks all decide something
    screen = _screen(answers)
    assert screen.startswith("Lead with ranked probability score") and "Brier score" in screen


def test_risks_of_ordered_classes_are_reported_with_the_ordinal_view(tmp_path) -> None:
    from advisor.report import build_report

    rng = np.random.default_rng(7)
    labels = RAIN["classes"]
    y = rng.choice(labels, size=300)
    data, scores = {"y_true": list(y)}, {}
    for j, name in enumerate(("near", "far")):
        pred = np.where(rng.random(300) < 0.7 - 0.1 * j, y, rng.choice(labels, size=300))
        data[name] = list(pred)
        p = rng.dirichlet(np.ones(3), size=300) * 0.5
        p[np.arange(300), [labels.index(v) for v in pred]] += 0.5
        scores[name] = p
    ctx = build_report(RAIN, data, scores=scores, bootstrap=200, seed=1)
    assert [m.id for m in ctx.recommended][0] == "ranked_probability_score"  # issue 21, item 6 (was log loss)
    for s in ctx.systems:
        for m in ("ranked_probability_score", "rps_skill", "log_loss", "brier", "mae_macro",
                  "weighted_kappa_quadratic"):
            iv = s.intervals[m]
            assert iv.low <= s.values[m] <= iv.high, (s.name, m)


def test_a_report_of_ordered_risks_from_files_leads_with_the_scoring_rule(tmp_path) -> None:
    labels = RAIN["classes"]
    rng = np.random.default_rng(8)
    files = _predictions(tmp_path, labels, ["near", "far"], rng=rng, proba=True)
    text = _report(tmp_path, _answers(tmp_path, RAIN), files)
    table = text.split("## Results")[1]
    first = next(line for line in table.splitlines() if line.startswith("| ") and "Metric" not in line
                 and "---" not in line)
    assert first.startswith("| Ranked probability score")  # issue 21, item 6 (was log loss)
    for name in ("Log loss (cross-entropy)", "Brier score", "Macro-averaged mean absolute error", "Quadratically weighted kappa"):
        assert f"| {name}" in table, name
    assert "*Order of the classes.*" in text


# ----------------------------------------------------------------------------------------------
# 7. Promises the report keeps
# ----------------------------------------------------------------------------------------------
def test_the_shares_in_use_promised_are_in_the_report(tmp_path) -> None:
    answers = _answers(tmp_path, {"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos",
                                  "deployment_prevalence": "shifted", "target_prevalence": {"neg": 0.97, "pos": 0.03},
                                  "test_set_balanced": True})
    rng = np.random.default_rng(4)
    files = _predictions(tmp_path, ["neg", "pos"], ["s0", "s1"], rng=rng)
    text = _report(tmp_path, answers, files)
    assert "We also give" in text
    # what the table holds and the shares, in words (issue 22: "the metrics at the class shares in use" named nothing)
    # the other metrics of the table named, not "each other metric" (issue 22, the retinopathy reader)
    said = re.search(r"the positive and negative predictive values(?:,| and) ([^()]+) at the shares in use "
                     r"\(pos 3%\), the confusion matrix's rows rescaled to those shares", text)
    assert said is not None, text
    table = text.split("*At the class shares in use.*")[1].split("\n\n")[1]
    named = {line.split("|")[1].strip().lower() for line in table.splitlines()[2:]}
    for name in re.split(r", | and ", said.group(1)):
        assert any(name.lower() in n for n in named), (name, named)
    precision = [line for line in table.splitlines() if line.startswith("| Precision")]
    assert precision, table
    # columns: metric, system, test set, in use, and (issue 21, item 5) the interval in use
    now, there = (float(x) for x in precision[0].strip("| ").split(" | ")[2:4])
    assert there < now  # at 3% positives the precision of a 50/50 test set falls


def test_the_spread_of_per_class_recall_promised_is_in_the_report(tmp_path) -> None:
    labels = [f"c{i}" for i in range(8)]
    answers = _answers(tmp_path, {"task": "multiclass", "classes": labels})
    rng = np.random.default_rng(5)
    files = _predictions(tmp_path, labels, ["s0", "s1"], rng=rng, n=600)
    text = _report(tmp_path, answers, files)
    # the spread said as what the table holds (issue 22: "the spread of per-class recall" was left undefined)
    assert "the range and standard deviation of per-class recall" in text
    assert "*Spread of per-class recall.*" in text


# ----------------------------------------------------------------------------------------------
# 8. Options override the answers, everywhere
# ----------------------------------------------------------------------------------------------
def test_costs_and_priors_options_replace_the_answers_in_every_sentence(tmp_path) -> None:
    screening = Path(__file__).resolve().parents[1] / "examples/answers/medical_screening.yaml"
    plan = _plan(screening, "--costs", "fn=1,fp=1", "--priors", "healthy=0.5,disease=0.5")
    # true negatives count in this example: no Fβ beside the cost lead (issue 22), so the costs show in the lead's
    # sentence below, not in a β
    assert not [m for m in plan["metrics"] if m["id"] in ("f_beta", "f1")]
    assert plan["metrics"][0]["params"]["priors"] == {"healthy": 0.5, "disease": 0.5}
    assert any("replaces the answers" in c for c in plan["conflicts"])
    rng = np.random.default_rng(6)
    files = _predictions(tmp_path, ["healthy", "disease"], ["s0", "s1"], rng=rng)
    text = _report(tmp_path, screening, files, "--costs", "fn=1,fp=1", "--priors", "healthy=0.5,disease=0.5")
    methods = text.split("## Methods")[1].split("## Results")[0]
    assert "10 times" not in methods and "2%" not in methods
    assert "50% of the cases in use" in methods and "costs as much as a false alarm" in methods


# ----------------------------------------------------------------------------------------------
# 12. Defaults are not the user's premises
# ----------------------------------------------------------------------------------------------
def test_questions_not_asked_write_nothing_and_the_text_states_no_default(tmp_path) -> None:
    answers = Answers(task="binary", classes=["neg", "pos"], positive_class="pos")
    written = yaml.safe_load(answers_to_yaml(answers))
    assert set(written) == {"task", "classes", "positive_class"}
    path = _answers(tmp_path, written)
    methods = _methods(path)
    assert "unknown" not in methods and "every class counts equally" not in methods
    plan = _plan(path)
    assert {a["key"] for a in plan["answers"]} == {"task", "classes", "positive_class"}


def test_the_shares_in_use_add_only_figures_the_reported_ones_do_not_give() -> None:
    """The retinopathy reader: with normalized expected cost, sensitivity and specificity reported, accuracy and F1 at
    the shares in use answer nothing (the cost weighs every error at those shares; F1 is the harmonic mean of the
    predictive value and the sensitivity given); the predictive values do. Without costs, accuracy in use stays; F1
    stays only where the recall of the class of interest is not reported."""
    situations = Path(__file__).resolve().parent / "situations"
    retina = make_plan(situations / "retinopathy.yaml")
    assert {m.id for m in retina.metrics} >= {"normalized_expected_cost", "recall", "specificity"}
    assert _at_priors_ids(retina, True) == ["precision", "npv"]
    no_costs = make_plan({"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos",
                          "deployment_prevalence": "shifted", "target_prevalence": {"neg": 0.97, "pos": 0.03},
                          "test_set_balanced": True, "outputs": "labels"})
    ids = _at_priors_ids(no_costs, True)
    assert "accuracy" in ids and {"precision", "npv"} <= set(ids)
    assert ("f1" in ids) == ("recall" not in {m.id for m in no_costs.metrics})
