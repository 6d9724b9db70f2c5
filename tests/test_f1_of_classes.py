"""Macro F1 over chosen classes (macro_f1_of_classes): F1^PN of the SemEval sentiment tasks (issue 22).

Rosenthal et al. (2017) and Nakov et al. (2016) report, beside AvgRec, F1^PN = (F1_positive + F1_negative) / 2: the
per-class F1 averaged over the positive and negative classes only; a neutral tweet predicted as positive is still a
false positive of the positive class.

Oracles: scikit-learn's ``f1_score(labels=S, average="macro", zero_division=…)`` on random labels (several k, with a
class never predicted and a class of S absent from both labelings), and a hand example worked out below.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.metrics import f1_score

from advisor import ConfusionMatrix, InputError, bootstrap, compare_systems, compute_metrics, make_plan, recommend
from advisor.catalogue import get_catalogue, resolve_metric
from advisor.engine import NEEDS_PARAMETERS, evaluate_batch
from advisor.questionnaire import answers_from_mapping, field_f1_classes, load_fields

MID = "macro_f1_of_classes"
ROOT = Path(__file__).resolve().parents[1]
SENTIMENT = ROOT / "tests" / "situations" / "sentiment.yaml"
LABELS = ["negative", "neutral", "positive"]
# the hand example: rows = true negative, neutral, positive; columns = predicted, same order
HAND = np.array([[30, 15, 5],
                 [10, 60, 10],
                 [5, 15, 50]], dtype=float)


def test_the_hand_example():
    """F1_neg = 2·30 / (50 + 45) = 60/95; F1_pos = 2·50 / (70 + 65) = 100/135; F1^PN is their mean. The ten neutral
    tweets predicted as positive are false positives of the positive class (b_pos = 5 + 10 + 50 = 65)."""
    r = compute_metrics(ConfusionMatrix(HAND, LABELS), [MID, "macro_f1"], f1_classes=["positive", "negative"])
    assert r[MID] == pytest.approx((60 / 95 + 100 / 135) / 2, abs=1e-15)
    assert r["macro_f1"] == pytest.approx((60 / 95 + 120 / 170 + 100 / 135) / 3, abs=1e-15)  # F1_neu = 120/(80 + 90)
    assert r.f1_classes.tolist() == [True, False, True]
    # the order the classes are named in does not matter; neither does naming them by index for a bare array
    assert compute_metrics(HAND, [MID], f1_classes=[0, 2])[MID] == r[MID]


def _random_labels(rng, k, n):
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < rng.random(), y_true, rng.integers(0, k, n))
    y_pred[y_pred == k - 1] = 0  # the last class is never predicted
    return y_true, y_pred


@pytest.mark.parametrize(("convention", "zero_division"), [("zero", 0.0), ("baseline", 1.0), ("omit", np.nan)])
def test_scikit_learn_f1_over_the_chosen_labels(convention, zero_division):
    rng = np.random.default_rng(2017)
    worst, compared, undefined = 0.0, 0, 0
    for k in (2, 3, 4, 5, 8):
        for _ in range(50):
            n = int(rng.integers(1, 300))
            y_true, y_pred = _random_labels(rng, k, n)
            size = int(rng.integers(1, k + 1))
            chosen = sorted(rng.choice(k, size=size, replace=False).tolist())
            C = np.zeros((k, k))
            np.add.at(C, (y_true, y_pred), 1)
            present = C.sum(axis=0) + C.sum(axis=1) > 0
            undefined += int(np.any(~present[chosen]))
            oracle = f1_score(y_true, y_pred, labels=chosen, average="macro", zero_division=zero_division)
            ours = compute_metrics(C, [MID], f1_classes=chosen, undefined=convention)[MID]
            if math.isnan(oracle):
                assert math.isnan(ours)
                continue
            worst = max(worst, abs(ours - oracle))
            compared += 1
    assert compared > 200 and undefined > 5  # classes of S absent from both labelings were met
    assert worst <= 1e-12


def test_every_class_chosen_is_macro_f1_and_one_class_is_its_f1():
    rng = np.random.default_rng(4)
    for k in (2, 3, 6):
        C = rng.integers(0, 20, size=(k, k)).astype(float)
        r = compute_metrics(C, [MID, "macro_f1"], f1_classes=list(range(k)))
        assert r[MID] == pytest.approx(r["macro_f1"], abs=1e-15)
        one = compute_metrics(C, [MID, "f1"], f1_classes=[1], positive_label=1) if k == 2 else None
        if one is not None:
            assert one[MID] == pytest.approx(one["f1"], abs=1e-15)


def test_a_batch_equals_its_matrices():
    rng = np.random.default_rng(3)
    stack = rng.integers(0, 9, size=(25, 4, 4)).astype(float)
    mask = np.array([True, False, True, True])
    batch = evaluate_batch(stack, [MID], f1_classes=mask)[MID]
    single = [compute_metrics(m, [MID], f1_classes=[0, 2, 3])[MID] for m in stack]
    assert batch.tolist() == pytest.approx(single, abs=1e-15)


def test_undefined_values_are_recorded_for_the_chosen_classes_only():
    # class 2 (chosen) and class 1 (not chosen) occur in neither labeling
    C = np.array([[4, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [2, 0, 0, 3]], dtype=float)
    got = {conv: compute_metrics(C, [MID], f1_classes=[0, 2], undefined=conv) for conv in ("zero", "baseline", "omit")}
    f1_0 = 8 / (5 + 6)
    assert got["zero"][MID] == pytest.approx(f1_0 / 2, abs=1e-15)
    assert got["baseline"][MID] == pytest.approx((f1_0 + 1) / 2, abs=1e-15)  # the maximum, as in macro F1
    assert got["omit"][MID] == pytest.approx(f1_0, abs=1e-15)
    for r in got.values():
        assert [(u.metric, u.label) for u in r.undefined] == [(MID, 2)]


@pytest.mark.parametrize(("f1_classes", "fragment"), [
    (None, "macro_f1_of_classes needs the classes to average over (f1_classes=[class, …])."),
    (["positive", "neutrl"], "f1_classes names 'neutrl', which is not a class; the classes are negative, neutral, "
                             "positive."),
    (["positive", "positive"], "f1_classes names 'positive' twice; name each class to average over once."),
    ([], "f1_classes is empty; name at least one class to average the F1 over."),
    ("positive", "f1_classes must be a list of classes to average the F1 over, e.g. [positive, negative]; got "
                 "'positive'."),
])
def test_engine_errors_name_the_argument_the_value_and_what_is_allowed(f1_classes, fragment):
    with pytest.raises(InputError) as err:
        compute_metrics(ConfusionMatrix(HAND, LABELS), [MID], f1_classes=f1_classes)
    assert str(err.value) == fragment


def test_it_needs_its_classes_and_is_not_in_the_default_set():
    assert MID in NEEDS_PARAMETERS
    assert MID not in compute_metrics(HAND)


def test_bootstrap_and_paired_intervals_contain_the_estimate():
    cm = ConfusionMatrix(HAND, LABELS)
    bs = bootstrap(cm, n_resamples=500, seed=3, metrics=[MID], f1_classes=["positive", "negative"])
    est = bs[MID]["estimate"]
    assert est == pytest.approx((60 / 95 + 100 / 135) / 2, abs=1e-15)
    assert bs[MID]["low"] < est < bs[MID]["high"]
    rng = np.random.default_rng(8)
    y = np.array(LABELS)[rng.integers(0, 3, 400)]
    noisy = np.where(rng.random(400) < 0.7, y, np.array(LABELS)[rng.integers(0, 3, 400)])
    cmp = compare_systems(y, {"a": noisy, "b": y}, n_resamples=300, seed=1, metrics=[MID],
                          f1_classes=["positive", "negative"])
    a = cmp.metrics[MID].systems["a"]
    oracle = f1_score(y, noisy, labels=["positive", "negative"], average="macro", zero_division=0)
    assert a.estimate == pytest.approx(oracle, abs=1e-12)
    assert a.low < a.estimate < a.high
    assert cmp.metrics[MID].systems["b"].estimate == 1.0


# ----------------------------------------------------------------------------------------------
# Catalogue, answers, field and plan
# ----------------------------------------------------------------------------------------------
def test_catalogue_record_and_names():
    rec = get_catalogue().metrics[MID]
    assert rec.name == "Macro F1 over chosen classes"
    assert {"rosenthal2017semeval", "nakov2016semeval"} <= set(rec.references)
    assert "S" in rec.symbols and r"\sum_{i\in S}" in rec.formula
    assert all(c.verified for c in rec.properties.values()), [p for p, c in rec.properties.items() if not c.verified]
    for name in ("F1^PN", "F1-PN", "F1 PN", "average F1 of positive and negative"):
        assert resolve_metric(name).ids == [MID], name


def test_the_field_reports_f1_pn_over_positive_and_negative():
    field = load_fields()["sentiment_shared_task"]
    assert field.metrics == ["balanced_accuracy", MID] and field.terms[MID] == "F1^PN"
    assert field_f1_classes(field.id, ["Negative", "Neutral", "Positive"]) == ["Positive", "Negative"]
    assert field_f1_classes(field.id, ["neg", "neu", "pos"]) is None
    assert field_f1_classes(field.id, None) is None
    assert field_f1_classes("heart_murmur_screening", LABELS) is None


@pytest.mark.parametrize(("data", "fragment"), [
    ({"classes": LABELS, "f1_classes": ["positive", "negatve"]},
     "'negatve' is not a class; each must be one of the classes negative, neutral, positive"),
    ({"classes": LABELS, "f1_classes": ["positive", "positive"]}, "a class is named twice"),
    ({"f1_classes": []}, "name at least one class"),
])
def test_answers_errors_name_the_key_and_the_rule(data, fragment):
    with pytest.raises(InputError) as err:
        answers_from_mapping(data, "answers")
    msg = str(err.value)
    assert "key 'f1_classes'" in msg and fragment in msg


def _sentiment(**extra):
    return {**yaml.safe_load(SENTIMENT.read_text(encoding="utf-8")), **extra}


def test_the_plan_takes_the_classes_from_the_fields_definition_and_says_so():
    plan = make_plan(_sentiment())
    spec = plan.spec(MID)
    assert spec is not None and spec.role == "beside"
    assert spec.params["f1_classes"] == ["positive", "negative"] and "field" in spec.answers
    use = next(a for a in plan.answers if a.key == "f1_classes")
    assert use.source == "default" and not use.given and use.value == ["positive", "negative"]
    assert "F1^PN" in use.used_by[0] and "Rosenthal et al. (2017)" in use.used_by[0]


def test_the_plan_records_the_classes_given():
    plan = make_plan(_sentiment(f1_classes=["negative", "positive"]))
    spec = plan.spec(MID)
    assert spec is not None and spec.params["f1_classes"] == ["negative", "positive"] and "f1_classes" in spec.answers
    use = next(a for a in plan.answers if a.key == "f1_classes")
    assert use.source == "answers" and use.given and use.used_by and use.unused is None


@pytest.mark.parametrize("classes", [None, ["neg", "neu", "pos"]])
def test_without_positive_and_negative_classes_it_is_not_reported_and_the_plan_says_why(classes):
    answers = {k: v for k, v in _sentiment(classes=classes).items() if v is not None}
    plan = make_plan(answers)
    assert plan.spec(MID) is None
    field = next(e for e in plan.recommendation["rationale"] if e["rule"] == "field")
    assert "Not reported: it needs the classes F1 is averaged over" in field["text"]
    assert ("the classes are not known" if classes is None else "have none of that name") in field["text"]
    from advisor import build_report

    text = "".join(s.text for s in build_report(answers, bootstrap=0, seed=1).methods[0].spans if s.kind == "text")
    split = re.split(r"(?<=\.) ", text)
    at = [i for i, s in enumerate(split) if "F1^PN" in s]
    said = [s for i in at for s in split[i:i + 2]]  # the figure, then why it is not reported, a sentence of its own
    why = ("the classes are not named here" if classes is None
           else "none of the classes “neg”, “neu” and “pos” is named positive or negative")
    assert said == [f"The SemEval shared tasks on sentiment in tweets also report F1^PN, the mean F1 of the positive "
                    f"and negative classes.", f"We do not report it, because {why}."]


def test_a_report_with_data_computes_f1_pn_and_its_interval():
    from advisor import build_report

    other = np.array([[25, 20, 5], [10, 55, 15], [10, 10, 50]], dtype=float)  # the same tweets (row sums)
    systems = {"ours": ConfusionMatrix(HAND, LABELS), "other": ConfusionMatrix(other, LABELS)}
    ctx = build_report(_sentiment(), systems, bootstrap=300, seed=2)
    rep = next(r for r in ctx.systems if r.name == "ours")
    iv = rep.intervals[MID]
    assert iv.estimate == pytest.approx((60 / 95 + 100 / 135) / 2, abs=1e-12)
    assert iv.low < iv.estimate < iv.high


def _methods_text() -> str:
    out = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "methods", "--answers",
                          str(SENTIMENT), "--seed", "1"], capture_output=True, text=True, cwd=ROOT, check=True)
    return out.stdout


def test_the_methods_paragraph_names_f1_pn_with_the_fields_citation_and_defines_its_symbols():
    text = _methods_text()
    para = text.split("\n\n", 1)[0]
    assert "macro F1 over the classes “positive” and “negative”" in para
    # the task's own names at first mention, ours in brackets (the s22 reader: "There they are called AvgRec and
    # F1^PN" read as a template); the lead in the task's name, with the task's source, in the lead sentence (the
    # sentiment reader: "in this field it is AvgRec … name it AvgRec in the lead sentence, cite Rosenthal there")
    assert "We lead with AvgRec, the customary figure in the SemEval shared tasks on sentiment in tweets (Rosenthal " \
           "et al. 2017). It is balanced accuracy, which" in para
    assert "Beside it the field reports F1^PN (macro F1 over the classes “positive” and “negative”)." in para
    assert para.count("AvgRec") == 1 and para.count("Rosenthal") == 1
    assert "There they are called" not in para
    line = next(ln for ln in text.splitlines() if ln.startswith("- **Macro F1 over the classes"))
    assert r"\frac{1}{|S|}\sum_{i\in S}\frac{2C_{ii}}{a_i+b_i}" in line
    assert "$S$ is the set of classes averaged over" in line
    # every other symbol of the formula is defined in the sentence before the list
    assert "$a_i$ and $b_j$ are the sizes of true class $i$ and predicted class $j$" in text
    assert re.search(r"\$C\$ is the confusion matrix", text)


def test_the_recommendation_carries_the_classes_and_names_them_on_screen():
    rec = recommend(_sentiment(classes=["Negative", "Neutral", "Positive"]))
    advice = next(a for a in rec.complementary if a.metric == MID)
    assert advice.params["f1_classes"] == ["Positive", "Negative"]  # as the task names them
    assert "the figure reported in the SemEval shared tasks on sentiment in tweets" in advice.reason
    assert "macro F1 over “Positive” and “Negative”" in rec.to_text()
