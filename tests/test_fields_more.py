"""Four more communities in the field table (fields.yaml): the TREC Spam Track, ANSI/AAMI EC57 heartbeat
classification, RumourEval 2019 and intent classification with out-of-scope queries (CLINC150); and in-scope
accuracy, the figure of the last, computed by the engine."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from advisor import ConfusionMatrix, InputError, compute_metrics
from advisor.catalogue import get_catalogue
from advisor.questionnaire import load_answers, load_fields, recommend
from advisor.report import build_report

SITUATIONS = Path(__file__).parent / "situations"


def paragraph(name: str) -> tuple[str, set[str]]:
    ctx = build_report(load_answers(SITUATIONS / f"{name}.yaml"), None, bootstrap=2000, seed=1)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    text = "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)
    return text, {k for s in p.spans if s.kind == "cite" for k in s.keys}


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", text) if s]


@pytest.mark.parametrize("name, field", [("spam", "spam_filtering"), ("ecg", "ecg_heartbeat"),
                                         ("shared_task", "rumour_stance"), ("intent", "intent_out_of_scope")])
def test_each_situation_names_its_field_and_cites_its_source(name: str, field: str) -> None:
    answers = load_answers(SITUATIONS / f"{name}.yaml")
    assert answers.field == field
    text, cited = paragraph(name)
    assert load_fields()[field].source in cited, text
    assert load_fields()[field].name in text, text
    words = text.split()
    assert 60 <= len(words) <= 220, len(words)
    # the author's own description of the situation is quoted as given; the sentences advisor writes stay short
    long = [s for s in sentences(text) if len(s.split()) > 40 and not s.startswith(str(answers.context)[:40])]
    assert not long, long


def test_the_spam_lead_is_said_in_the_words_of_the_trec_spam_track() -> None:
    text, cited = paragraph("spam")
    said = sentences(text)
    # a threshold is in use (operating_point: fixed): its recall leads, the budget set against it right after (issue 25)
    lead = next(i for i, s in enumerate(said) if s.startswith("We lead with recall at the deployed threshold"))
    assert said[lead] == ("We lead with recall at the deployed threshold, the share of “spam” messages it filters, "
                          "because that threshold is in use.")
    # the bound named and cited once: Clopper–Pearson at the effective sample size over the recipients (Korn &
    # Graubard 1998), the spam reader's "design-effect-adjusted binomial bound"
    assert said[lead + 1] == ("Its share of “ham” messages filtered must meet the 0.1% budget by the 95% "
                              "Clopper–Pearson upper bound adjusted for recipient clustering  X .")
    assert "korn1998confidence" in cited
    # the track's figures beside it, its summary lam% among them, with the track's source (the s29 reader: lam% was
    # missing); a fixed test set gives TREC-style figures, said with the field's caveat
    assert said[lead + 2] == ("Following the TREC Spam Track, we also report TPR at an FPR of 0.1%, ROC AUC and logistic "
                              "average misclassification  X .")
    assert "cormack2005trec" in cited
    # the overview's measures are percentages: TPR at an FPR of 0.1% is the complement of sm% at hm% = 0.1%, and
    # the ROC area is given as (1−ROCA)%, the area above the curve in percent (Cormack & Lynam 2005)
    # in the track's own sentence (fields.yaml named; the s28 reader: "the complement of sm% …" read as awkward)
    assert said[lead + 3].startswith("TREC reports the spam misclassification percentage sm% at a ham misclassification "
                                     "percentage hm% of 0.1%, whose complement we give")
    assert "(1−ROCA)%" in said[lead + 3] and "misclassification rate" not in text
    # what TPR at the budget is, and that its threshold, found on the test set, is optimistic (Tong et al. 2018)
    assert said[lead + 4] == ("TPR at an FPR of 0.1% is the recall of the best threshold within the budget; chosen on "
                              "the test set, that threshold makes it optimistic for one fixed in advance  X .")
    assert "tong2018neyman" in cited


def test_without_a_deployed_threshold_the_spam_lead_is_the_tracks_figure(tmp_path: Path) -> None:
    """No threshold in use (operating_point not fixed): TPR at the budget leads as the track's figure, as before."""
    answers = (SITUATIONS / "spam.yaml").read_text().replace("operating_point: fixed\n", "")
    (tmp_path / "spam.yaml").write_text(answers)
    ctx = build_report(load_answers(tmp_path / "spam.yaml"), None, bootstrap=2000, seed=1)
    assert ctx.primary == "tpr_at_fpr"
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    said = sentences("".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans))
    lead = next(i for i, s in enumerate(said) if s.startswith("We lead with TPR at an FPR of 0.1%"))
    assert said[lead + 1].startswith("The customary figures in the TREC Spam Track are TPR at an FPR of 0.1% and ")
    assert not any(s.startswith("We lead with recall") for s in said)


def test_the_ecg_per_class_table_is_the_aami_requirement() -> None:
    text, cited = paragraph("ecg")
    give = next(s for s in sentences(text) if s.startswith("We also give"))
    # in the field's own names, once (the ECG reader, issue 22: the generic names then a reading that renamed them)
    # the field's custom covers its own figures, the F1 we add is said apart (the s27 ECG reader: de Chazal et al.
    # report Se and +P, not F1)
    assert "the sensitivity (Se), positive predictivity (+P) and F1 of every class; the first two are customary in " \
           "heartbeat classification" in give
    assert "recall" not in give and give.count("sensitivity") == 1
    assert "are customary in heartbeat classification under the ANSI/AAMI EC57 classes" in give
    assert "dechazal2004automatic" in cited


def test_rumoureval_macro_f1_is_cited_with_a_reason_when_it_does_not_lead(tmp_path: Path) -> None:
    # no systems ranked: the class shares in use are unknown, so the figure that moves with them stays beside the lead
    answers = (SITUATIONS / "shared_task.yaml").read_text().replace("ranking: true", "ranking: false")
    (tmp_path / "one_system.yaml").write_text(answers)
    ctx = build_report(load_answers(tmp_path / "one_system.yaml"), None, bootstrap=2000, seed=1)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    said = sentences("".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans))
    # only the 2019 edition ranked by macro F1 (2017 ranked stance by accuracy): said as that edition's, not a custom
    at = next(i for i, s in enumerate(said) if s.startswith("As RumourEval 2019 ranked its teams by it"))
    assert "we also report macro F1" in said[at] and said[at + 1].startswith("We do not lead with it, because")


def test_rumoureval_ranks_the_teams_by_its_macro_f1() -> None:
    # the shared task ranks 25 teams on one test set: every team meets the same class shares, so the official
    # figure leads (the RumourEval reader); balanced accuracy stands beside it with what it keeps
    text, cited = paragraph("shared_task")
    said = sentences(text)
    lead = next(i for i, s in enumerate(said) if s.startswith("We rank the systems by macro F1, by which "
                                                                "RumourEval 2019 ranked its teams"))
    assert "customary" not in said[lead] and "shared tasks" not in text
    # why the share-dependence does not matter, in a sentence of its own right after the lead (none over 40 words)
    assert "under other class shares the ranking may change" in said[lead + 1] and "do not lead" not in text
    assert said[lead + 2].startswith("Beside it we report balanced accuracy, which does not change when only the "
                                     "class frequencies change")
    assert "its chance level is 1/4 for any guesser that ignores the input" in said[lead + 2]
    assert load_fields()["rumour_stance"].source in cited


def test_intent_reports_in_scope_accuracy_and_out_of_scope_recall_as_clinc150_does() -> None:
    rec = recommend(load_answers(SITUATIONS / "intent.yaml"))
    reported = {rec.primary.metric, *(c.metric for c in rec.complementary)}
    assert {"in_scope_accuracy", "recall"} <= reported
    text, _ = paragraph("intent")
    assert "in-scope accuracy" in text.lower() and "out-of-scope recall" in text


def test_in_scope_accuracy_against_numpy() -> None:
    rng = np.random.default_rng(7)
    for _ in range(50):
        m = rng.integers(0, 20, size=(4, 4)).astype(float)
        o = 3
        keep = np.arange(4) != o
        expected = np.trace(m[np.ix_(keep, keep)]) / m[keep].sum()  # in-scope items given their own intent
        got = compute_metrics(m, ["in_scope_accuracy"], positive_label=o)
        assert got["in_scope_accuracy"] == pytest.approx(expected)


def test_in_scope_accuracy_by_hand_and_its_undefined_case() -> None:
    # 10 in-scope queries of two intents: 6 + 2 right, 1 taken as the other intent, 1 as out-of-scope; the 5
    # out-of-scope queries, 3 of them taken as intents, do not count: 8 / 10
    m = [[6, 1, 0], [0, 2, 1], [2, 1, 2]]
    cm = ConfusionMatrix(m, ["a", "b", "oos"])
    assert compute_metrics(cm, ["in_scope_accuracy"], positive_label="oos")["in_scope_accuracy"] == pytest.approx(0.8)
    only_oos = ConfusionMatrix([[0, 0], [1, 3]], ["a", "oos"])
    assert compute_metrics(only_oos, ["in_scope_accuracy"], positive_label="oos",
                           undefined="zero")["in_scope_accuracy"] == 0.0
    with pytest.raises(InputError, match="class of interest"):
        compute_metrics(cm, ["in_scope_accuracy"])


def test_in_scope_accuracy_is_one_catalogue_record() -> None:
    rec = get_catalogue().metrics["in_scope_accuracy"]
    assert "larson2019evaluation" in rec.references and "o" in rec.symbols


def test_the_intent_report_computes_in_scope_accuracy_against_the_out_of_scope_class() -> None:
    # a matrix given as data: three intents and the out-of-scope class (the class of interest of the answers)
    counts = np.array([[40, 3, 2, 5], [2, 30, 1, 7], [1, 2, 25, 2], [6, 4, 5, 35]], dtype=float)
    labels = ["balance", "transfer", "book_flight", "out-of-scope"]
    answers = load_answers(SITUATIONS / "intent.yaml").model_copy(update={"outputs": "labels"})
    plan_params = next(m.params for m in recommend(answers).complementary if m.metric == "in_scope_accuracy")
    assert plan_params.get("positive_label") == "out-of-scope"
    ctx = build_report(answers, {"intent model": ConfusionMatrix(counts, labels)}, bootstrap=200, seed=1)
    got = ctx.systems[0].values["in_scope_accuracy"]
    assert got == pytest.approx((40 + 30 + 25) / (50 + 40 + 30))  # out-of-scope row left out
    oos_recall = ctx.systems[0].values["recall"]
    assert oos_recall == pytest.approx(35 / 50)
    assert "in_scope_accuracy" in ctx.systems[0].intervals


def test_a_fields_figure_read_at_another_setting_says_the_fields() -> None:
    """The fraud reader: Bank Account Fraud reads the TPR at an FPR of 5%; a lead read at the bank's 1% says so."""
    from advisor.questionnaire import load_fields
    from advisor.report import methods_texts

    fraud = load_fields()["fraud_detection"]
    assert fraud.settings["tpr_at_fpr"].value == 0.05
    base = (Path(__file__).parent / "situations" / "fraud.yaml")
    # the deployed threshold's recall leads (operating_point: fixed); the benchmark's figure beside it says its 5%
    text = methods_texts(base, seed=1)[0]
    # read at the bank's 1%, it is the benchmark's figure, not its customary number (the s26/s27 fraud readers: "as
    # is customary … there at 5%" claimed a comparability its own 1% denies)
    assert ("We also report TPR at an FPR of 1%, the figure fraud-detection benchmarks such as Bank Account Fraud "
            "report at 5% (Jesus et al. 2022).") in text
    assert "As is customary in fraud-detection" not in text
    given = load_answers(base).model_dump(exclude_unset=True)
    same = {**given, "fpr_budget": 0.05}
    assert "report at 5%" not in methods_texts(same, seed=1)[0]
    assert "As is customary in fraud-detection benchmarks" in methods_texts(same, seed=1)[0]
    # no threshold in use: the figure leads, and says the benchmark's setting as the lead
    open_ = {k: v for k, v in given.items() if k != "operating_point"}
    # the claim about the benchmark is cited where it is made, though the lead's sentence cites the same work
    assert "It is the figure fraud-detection benchmarks such as Bank Account Fraud report at 5% (Jesus et al. " \
           "2022)." in methods_texts(open_, seed=1)[0]
    assert "report at 5%" not in methods_texts({**open_, "fpr_budget": 0.05}, seed=1)[0]


def test_the_ner_intervals_say_they_leave_out_the_training_seed_with_its_source() -> None:
    # the s22 NER reader: "the bootstrap over sentences describes only test-sampling variance"; Reimers & Gurevych
    # (2017) measured a point of entity F1 between seeds of one tagger
    text, keys = paragraph("ner")
    assert ("These intervals cover which sentences were drawn for the test, not retraining: the training seed alone "
            "can move a tagger's entity F1 by about one percentage point") in text
    assert "reimers2017reporting" in keys
    # a field without that caveat says nothing of the kind
    assert "retraining" not in paragraph("sentiment")[0]
