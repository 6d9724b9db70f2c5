"""One notation and one convention per quantity in the Definitions (field readers, issue 22).

tests/test_formula_symbols.py checks every situation's Definitions for a symbol defined twice or used undefined;
here the conventions each reader named: the two-class notation of probabilities (y_t is 1 or 0, p_t the positive
class's probability, in every formula), one clipping constant, the Brier form a field reports (a field attribute, not
a rule in code), and the convention of sample F1 for an item with no labels at all.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from advisor.engine import LOG_LOSS_EPS
from advisor.questionnaire import load_fields
from advisor.report import methods_paragraph

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = ROOT / "tests" / "situations"


def _methods(path: Path) -> str:
    return methods_paragraph(path, "md", seed=1)


def _definitions(md: str) -> str:
    return md.partition("\n\n")[2].partition("**References.**")[0]


@pytest.mark.parametrize("name", ["loan", "sepsis"])
def test_a_two_class_report_with_probabilities_writes_one_notation(name):
    defs = _definitions(_methods(SITUATIONS / f"{name}.yaml"))
    assert "p_{t" not in defs and "s_t" not in defs and "y_{tj}" not in defs  # one name for one number
    assert "$y_t$ is 1 when item $t$ is" in defs and "$p_t$ is its predicted probability of being" in defs
    if name == "sepsis":  # log loss in that notation
        assert r"\left(y_t\log p_t+(1-y_t)\log(1-p_t)\right)" in defs
    else:  # loan: a fixed decision leads and calibration reads the risks; log loss is not reported (issue 22)
        assert "**Log loss" not in defs
    assert r"[p_t>p_u]" in defs  # ROC AUC of the probabilities, not of a score s_t


@pytest.mark.parametrize("name", ["fraud", "spam"])
def test_scores_that_are_no_probabilities_keep_their_name(name):
    defs = _definitions(_methods(SITUATIONS / f"{name}.yaml"))
    assert "probability" not in defs and "p_t" not in defs
    if name == "spam":  # fraud's ROC AUC gave way to the partial area up to its budget (issue 24)
        assert "[s_t>s_u]" in defs


@pytest.mark.parametrize("name", ["loan", "sepsis"])
def test_one_clipping_constant(name):
    """One ε for every logarithm and logit of a probability; before data the calibration fit clips nothing, so its
    sentence says no clipping (the s30 sepsis and loan readers: "ε = 2.2×10⁻¹⁶ serves nothing"); log loss's own
    definition keeps its convention with its formula."""
    md = _methods(SITUATIONS / f"{name}.yaml")
    assert "10^{-15}" not in md
    assert "calibration intercept is that of a logistic regression" in md
    assert "risks clipped" not in md and "of 0 or 1 clipped" not in md
    if name == "sepsis":
        assert md.count(r"$\varepsilon = 2.2 \times 10^{-16}$") == 1  # with log loss's formula
    else:  # no log loss reported (loan): no ε at all before data
        assert r"\varepsilon" not in md


def test_the_calibration_sentence_says_the_clipping_only_where_a_risk_was_clipped():
    """With data: risks of exactly 0 or 1 are counted and the clipping said with ε once; none, and it is not said."""
    from advisor.questionnaire import load_answers
    from advisor.report import build_report, render_report

    rng = np.random.default_rng(3)
    y = rng.random(400) < 0.3
    p = np.clip(0.3 + 0.4 * (y - 0.3) + 0.2 * rng.standard_normal(400), 0.01, 0.99).round(3)
    answers = load_answers(SITUATIONS / "loan.yaml").model_copy(update={"subgroups": [], "group": None})
    for extremes, said in ((0, False), (3, True)):
        q = p.copy()
        q[:extremes] = [0.0, 1.0, 0.0][:extremes]
        labels = np.where(q >= 0.5, "default", "repaid")
        ctx = build_report(answers, {"y_true": list(np.where(y, "default", "repaid")), "model": list(labels)},
                           scores={"model": np.c_[1 - q, q]}, bootstrap=0, seed=1)
        assert ctx.scores is not None and ctx.scores.extreme_risks == {"model": extremes}
        md = render_report(ctx, "md")
        assert "calibration intercept is that of a logistic regression" in md
        assert ("With the 3 risks of 0 or 1 clipped to $[\\varepsilon, 1 - \\varepsilon]$" in md) is said, extremes
        assert "10^{-15}" not in md  # one constant, log loss's


def test_the_calibration_fit_clips_with_log_losss_epsilon():
    """A risk of exactly 0 or 1 enters the logistic fits at logit ε = log(ε / (1 − ε)), ε the float64 machine epsilon
    that log loss (and scikit-learn's log_loss) clips with; statsmodels, given those logits, agrees."""
    sm = pytest.importorskip("statsmodels.api")
    from advisor.engine._decisions import calibration_fit

    y = np.array([0, 0, 1, 1, 0, 1, 0, 1, 1, 0], dtype=float)
    p = np.array([0.0, 0.1, 0.9, 1.0, 0.3, 0.6, 0.2, 0.0, 0.7, 0.4])
    q = np.clip(p, LOG_LOSS_EPS, 1 - LOG_LOSS_EPS)
    assert LOG_LOSS_EPS == np.finfo(np.float64).eps
    logit = np.log(q / (1 - q))
    ref = sm.GLM(y, sm.add_constant(logit), family=sm.families.Binomial()).fit(tol=1e-12)
    got = calibration_fit(y, p, np.ones((1, len(y))))
    assert float(got["slope"][0]) == pytest.approx(ref.params[1], abs=1e-6)


def test_the_brier_form_is_the_fields_attribute():
    fields = load_fields()
    assert fields["clinical_prediction"].brier == "binary" and fields["credit_scoring"].brier == "binary"
    assert fields["image_classification"].brier is None
    for name in ("sepsis", "loan"):
        defs = _definitions(_methods(SITUATIONS / f"{name}.yaml"))
        assert "**Brier score (binary)**" in defs and r"\frac{2}{n}" not in defs, name


def test_without_the_field_the_brier_score_is_binary_and_a_field_can_ask_for_the_sum(tmp_path, monkeypatch):
    """A two-class task's Brier score is the binary form, scikit-learn's and most fields' (the toxicity readers of s40
    and s41: "for a binary score the field uses the binary form"), with or without a field; a field whose papers
    report the sum over both classes says so (``brier: classes``) and gets it, twice the binary form."""
    answers = yaml.safe_load((SITUATIONS / "sepsis.yaml").read_text(encoding="utf-8"))
    del answers["field"]
    path = tmp_path / "sepsis_no_field.yaml"
    path.write_text(yaml.safe_dump(answers), encoding="utf-8")
    defs = _definitions(_methods(path))
    assert "**Brier score (binary)**" in defs and r"\frac{1}{n}\sum_{t=1}^{n}\left(p_t-y_t\right)^2" in defs
    assert r"\frac{2}{n}" not in defs
    fields = load_fields()
    monkeypatch.setitem(fields, "clinical_prediction",
                        fields["clinical_prediction"].model_copy(update={"brier": "classes"}))
    defs = _definitions(_methods(SITUATIONS / "sepsis.yaml"))
    assert "**Brier score**" in defs and r"\frac{2}{n}\sum_{t=1}^{n}\left(p_t-y_t\right)^2" in defs


def test_label_sets_define_n_and_say_the_empty_item_convention():
    defs = _definitions(_methods(SITUATIONS / "chex.yaml"))
    # no formula shown uses n (the ROC AUC's n^+_l and n^-_l are its own symbols, defined in its where): not
    # defined for nothing (the CheXpert reader: "$n$ is defined but never used")
    assert "$n$ counts" not in defs and "$n^+_l$ is the number of items that have label $l$" in defs
    # the scores order a worklist, so sample-averaged F1 is not reported (the CheXpert reader): nor its convention
    assert "sample-averaged F1" not in defs
    defs = _definitions(_methods(ROOT / "examples" / "structures" / "multilabel_answers.yaml"))  # label sets only
    assert "$n$ counts the articles" in defs
    # the empty item's convention once, and the six labels named as a number, not a rule said again for a case only
    # the data can meet (the s41 readers: "if it occurs, say how many")
    assert defs.count("In sample-averaged F1, an item with no true and no predicted label counts 1") == 1
    assert "Here $L = 6$." in defs and "also in a resample" not in defs


def test_the_cost_shares_are_said_as_this_plan_weighs_them() -> None:
    # the s24 readers: "its share where the classifier is used when that is known, else its share in the test set"
    # is a clause for nothing where the answers say which; the shares given are said as given, else the test set's
    given = methods_paragraph("tests/situations/retinopathy.yaml", "md", seed=1)
    assert r"$\pi_i$ is the share of class $i$ where the classifier is used, as given" in given
    test_set = methods_paragraph("tests/situations/sarcasm.yaml", "md", seed=1)
    assert r"$\pi_i$ is the share of class $i$ in the test set" in test_set
    assert "when that is known, else" not in given + test_set


def test_two_labelings_neither_the_reference_have_no_true_class_in_the_notation():
    """Symmetric answers (neither labeling is the reference): the table's rows are the first labeling's classes, not
    "true classes" — a premise the answers did not give."""
    md = _methods(Path(__file__).resolve().parents[1] / "examples" / "answers" / "labelings_distance.yaml")
    assert "true class" not in md
    assert "$C$ is the table crossing the two labelings, the first in rows; $a_i$ and $b_j$ are the sizes of class " \
           "$i$ in the first and class $j$ in the second" in md
