"""Every planned metric that is not reported under its own name gets a true, specific reason in the author's terms
(issue 22): the input it needs, what the labels' structure asks that it ignores, the names it is reported under, or,
for a name nobody knows, plainly that it is not computed — never "neither reports it nor advises against it", never
"if it is another name of a reported metric, that metric stands for it".

Purity (Manning, Raghavan & Schütze 2008, §16.3) is a catalogue metric of partitions, checked against the book's
worked example and against a count by hand on scikit-learn's contingency table, and advised against when planned.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics.cluster import contingency_matrix

from advisor.catalogue import get_catalogue
from advisor.engine import PartitionRows
from advisor.engine._partition import partition_cells_batch, partition_metrics
from advisor.plan import make_plan
from advisor.questionnaire import load_answers, recommend
from advisor.report._voice import paper_voice
from advisor.report import build_report
from advisor.stats._partitions import partition_intervals

from _situations import bundled, grid

SITUATIONS = Path(__file__).parent / "situations"
#: The sentences that said nothing, or something false (issue 22 review).
EMPTY = ("neither reports", "neither evaluates it nor can say", "if it is another name", "stands for it",
         "not among the metrics reported as such")

CHEX = {
    "context": ("Frontal chest radiographs are labelled with any of five findings (atelectasis, cardiomegaly, "
                "consolidation, edema, pleural effusion) to prioritise the radiologist's worklist; a missed effusion "
                "or edema delays treatment, a false finding only moves a study up the list."),
    "item_name": "radiograph", "field": "medical_imaging", "label_structure": "multilabel",
    "classes": ["atelectasis", "cardiomegaly", "consolidation", "edema", "pleural effusion"],
    "class_weighting": "equal", "group": "patient_id", "planned_metrics": ["AUROC", "F1"],
}


def _notes(answers) -> dict[str, str]:
    plan = make_plan(answers)
    return {str(u.value): u.note for u in plan.answers if u.key == "planned_metrics" and u.note}


def _note_paragraph(answers) -> tuple[str, str]:
    ctx = build_report(answers, None, bootstrap=2000, seed=1)  # as `advisor methods --seed 1` writes it
    p = next(p for p in ctx.methods if p.heading not in ("Evaluation", "Definitions"))
    return p.heading, "".join(s.text for s in p.spans)


# ------------------------------------------------------------------------------------------------------------------
# the situations the field readers flagged
# ------------------------------------------------------------------------------------------------------------------
def test_a_planned_flat_metric_in_a_taxonomy_is_kept_beside_the_lead_with_its_true_property() -> None:
    """The taxonomy reader: macro F1 was dropped on a false sameness claim ("accuracy already gives that flat view"),
    yet it weighs the classes alike where accuracy weighs the products; computable, it is kept beside the lead."""
    answers = load_answers(SITUATIONS / "taxonomy.yaml")
    plan = make_plan(answers)
    assert "macro_f1" in [m.id for m in plan.beside]
    use = next(u for u in plan.answers if u.key == "planned_metrics" and u.value == "macro F1")
    assert use.unused is None and use.note is None and use.used_by
    reason = next(m.reason for m in plan.beside if m.id == "macro_f1")
    assert "comparison with flat results" in reason and "Balanced accuracy" not in reason
    ctx = build_report(answers, None, bootstrap=0)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "not reported" not in text.lower()
    assert "each of the 240 classes counts the same, where accuracy counts each product" in text


def test_a_planned_purity_is_reported_with_inverse_purity_and_why() -> None:
    """The text-clustering readers (both "major revision"): purity was argued away while Amigó et al. (2009), the
    authority cited for it, report it with inverse purity. A planned purity in a comparison of partitions is reported
    beside the lead with inverse purity, for comparison with earlier work, and the paragraph says in the author's terms
    why the two go together; the lead stays the pair-counting correlation coefficient."""
    answers = load_answers(SITUATIONS / "clustering.yaml")
    plan = make_plan(answers)
    assert plan.lead.id == "pair_correlation"
    assert {"purity", "inverse_purity"} <= {m.id for m in plan.beside} and not plan.avoid
    assert all(m.role == "beside" for m in plan.beside if m.id in ("purity", "inverse_purity"))
    use = next(u for u in plan.answers if u.key == "planned_metrics" and u.value == "purity")
    assert use.used_by and use.unused is None and use.note is None
    reason = next(m.reason for m in plan.beside if m.id == "purity")
    assert "inverse purity" in reason and "rewards over-splitting" in reason and "Amigó" in reason
    heading, text = _note_paragraph(answers)
    note = next(p for p in build_report(answers, None, bootstrap=2000, seed=1).methods if p.heading == heading)
    assert any(s.kind == "cite" and s.keys == ["amigo2009comparison"] for s in note.spans)
    assert heading == "Planned metrics"
    # why it is reported and why its bias matters here (the s30 text-clustering methodologist)
    assert ("We report normalized mutual information, for comparison with earlier clustering work; it is not "
            "corrected for chance, and with this normalisation it favours clusterings with more clusters (Vinh et al. "
            "2010), which matters when the number of clusters is free.") in text
    # the pair and why, once, in the author's terms (articles), where the paragraph has no room for it
    assert ("We report purity with inverse purity, as text-clustering studies report them: purity alone rewards "
            "splitting the articles into more clusters, inverse purity rewards merging them, and together they show "
            "which a clustering does") in text
    assert "We do not report purity" not in text and "The planned" not in text
    assert "catalogue knows" not in text and not any(e in text for e in EMPTY)
    evaluation = "".join(s.text for p in build_report(answers, None, bootstrap=2000, seed=1).methods
                         if p.heading == "Evaluation" for s in p.spans)
    assert "normalized mutual information, purity and inverse purity." in evaluation
    assert "purity" not in evaluation.split("We also report", 1)[0]  # the lead is not purity
    # neither has an interval or a test (benchmarks/README.md): the winners are those of the pair-counting indices
    assert "Only pair-counting indices have intervals and tests" in evaluation
    assert "On each pair-counting index, the winners are" in evaluation
    # where the paragraph has room, the reason is its clause, with its source
    ctx = build_report(answers, None, bootstrap=0)
    evaluation = next(p for p in ctx.methods if p.heading == "Evaluation")
    said = "".join(s.text for s in evaluation.spans)
    assert ("purity and inverse purity, as text-clustering studies report them: purity alone rewards splitting the "
            "articles into more clusters, inverse purity rewards merging them, and together they show which a "
            "clustering does") in said
    assert any(s.kind == "cite" and s.keys == ["amigo2009comparison"] for s in evaluation.spans)
    assert "We do not report purity" not in said and not any(p.heading == "Planned metrics" and "purity" in
                                                              "".join(s.text for s in p.spans) for p in ctx.methods)


def test_a_list_of_bare_names_keeps_only_the_groups_a_reader_needs() -> None:
    """With nothing added beside the names, "purity and inverse purity" is no group of its own ("…; and purity and
    inverse purity"), but a class both names read stays with them: precision and F1 score of “out-of-scope”."""
    from advisor.report import methods_paragraph

    clusters = methods_paragraph(str(SITUATIONS / "clustering.yaml"), "md", seed=2024)
    assert "adjusted mutual information, normalized mutual information, purity and inverse purity." in clusters
    intents = methods_paragraph(str(SITUATIONS / "intent.yaml"), "md", seed=2024)
    assert "precision and F1 score of “out-of-scope”" in intents


def test_purity_planned_without_a_partition_is_not_paired() -> None:
    """The pair is the answer to a planned purity in a comparison of partitions, decided from the answers: the same
    articles classified into the editors' topics (labels, not cluster ids) get no inverse purity."""
    answers = load_answers(SITUATIONS / "clustering.yaml").model_copy(update={"label_structure": "nominal"})
    plan = make_plan(answers)
    assert "inverse_purity" not in plan.metric_ids and "purity" not in [m.id for m in plan.beside]


def test_purity_is_not_said_to_an_author_who_did_not_plan_it() -> None:
    answers = load_answers(SITUATIONS / "clustering.yaml").model_copy(update={"planned_metrics": ["ARI"]})
    assert "purity" not in [d.metric for d in recommend(answers).discouraged]


def test_the_chest_radiographs_planned_f1_is_reported_per_finding_and_its_auroc_needs_scores() -> None:
    notes = _notes(CHEX)
    # the findings are named once, in the paragraph's ROC AUC sentence (their scores are read): here "each label"
    # the lead is the ranking of the scores (the CheXpert reader): of the label decisions only the planned F1 is kept,
    # per label and its macro average; micro and sample F1, Hamming loss and subset accuracy no worklist reads
    # no answer fixes the cut: kept, but said to be an illustration at 0.5, never a result (the CheXpert reader)
    assert notes["F1"] == ("The planned “F1” is given for each label, and as its macro average, as an illustration at "
                           "the conventional score cut of 0.5, not one chosen for this study, and not as a result.")
    # outputs unanswered: planning AUROC says the scores exist, so it is reported (per finding and their mean), no
    # premise of the tool's that outputs are labels only
    assert "AUROC" not in notes and "multilabel_macro_roc_auc" in make_plan(CHEX).metric_ids
    labels_only = {**CHEX, "outputs": "labels"}  # the author says so: an honest note, the field's figure named
    notes = _notes(labels_only)
    assert notes["AUROC"] == (
        "The planned “AUROC”, which papers in chest radiograph benchmarks report (Irvin et al. 2019), is not "
        "computed: it needs a score for every label of every radiograph, and the system outputs labels only "
        "(answers key outputs).")
    plan = make_plan(labels_only)
    f1 = next(u for u in plan.answers if u.key == "planned_metrics" and u.value == "F1")
    assert f1.used_by and f1.unused is None  # reported, under more specific names
    heading, text = _note_paragraph(labels_only)
    assert heading == "Planned metrics" and paper_voice(notes["F1"]) in text
    assert text.startswith("We do not compute AUROC, which papers in chest radiograph benchmarks report")
    before, after = paper_voice(notes["AUROC"]).split(" (Irvin et al. 2019)")  # the citation is a span of its own
    assert before in text and after in text
    assert not any(e in text for e in EMPTY)
    ctx = build_report(labels_only, None, bootstrap=0)  # the field's work named in the note is cited and listed
    note = next(p for p in ctx.methods if p.heading == "Planned metrics")
    assert any(sp.kind == "cite" and "irvin2019chexpert" in sp.keys for sp in note.spans)
    assert "irvin2019chexpert" in [r.key for r in ctx.references]


def test_a_multilabel_field_figure_is_never_said_to_be_reported_when_it_is_not() -> None:
    for answers in ({**CHEX, "outputs": "labels"}, {**CHEX, "outputs": None, "planned_metrics": ["F1"]}):
        rec = recommend(answers)
        field = next(e for e in rec.rationale if e.rule == "field")
        assert "Beside the lead" not in field.text and "ROC AUC" not in [c.name for c in rec.complementary]
        assert "Not reported: it needs a score for every label of every radiograph" in field.text
        assert not {"roc_auc", "multilabel_macro_roc_auc"} & set(make_plan(answers).metric_ids)
    for outputs in (None, "probabilities"):  # scores per label (answered, or implied by the planned AUROC)
        rec = recommend({**CHEX, "outputs": outputs})
        field = next(e for e in rec.rationale if e.rule == "field")
        # the scores order a worklist (the CheXpert reader): the field's figure leads, never "beside the lead"
        assert "Macro-averaged ROC AUC (multi-label) leads and is that figure." in field.text
        assert "Beside the lead" not in field.text
        plan = make_plan({**CHEX, "outputs": outputs})
        assert plan.lead.id == "multilabel_macro_roc_auc" and "roc_auc" not in plan.metric_ids


def test_the_legal_routers_macro_f1_is_still_set_aside_with_its_reason() -> None:
    # under the topic-classification benchmarks' field (the legal field reports macro F1 for comparability)
    answers = load_answers(SITUATIONS / "legal.yaml").model_copy(update={"field": "text_classification"})
    ctx = build_report(answers, None, bootstrap=2000, seed=1)
    text = "".join(s.text for p in ctx.methods for s in p.spans)
    # the guaranteed coverage's sentences (the legal methodologist) leave the paragraph no room for it: said beside
    # what is not reported, with the same reason, never dropped
    assert ("We do not report macro F1: it weighs every class alike, a rare one as much as a common one, though every "
            "document was to count alike.") in text


# ------------------------------------------------------------------------------------------------------------------
# what each kind of reason says
# ------------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("answers", "name", "words"), [
    ({"task": "binary", "classes": ["ok", "bad"], "positive_class": "bad", "outputs": "labels",
      "planned_metrics": ["AUROC"]}, "AUROC",
     "is not computed: it needs the model's scores or probabilities, and the outputs are labels only (answers key "
     "outputs)"),
    ({"task": "binary", "classes": ["ok", "bad"], "positive_class": "bad", "outputs": "scores",
      "planned_metrics": ["log loss"]}, "log loss",
     "it needs the model's predicted probabilities, and the outputs are scores, not probabilities"),
    ({"task": "multiclass", "n_classes": 4, "planned_metrics": ["specificity"]}, "specificity",
     "it needs one class of interest among the classes, and none is named (answers key positive_class)"),
    ({"task": "binary", "classes": ["ok", "bad"], "positive_class": "bad", "outputs": "labels",
      "planned_metrics": ["weighted accuracy"]}, "weighted accuracy", "it needs class weights"),
    ({"task": "multiclass", "n_classes": 5, "label_structure": "ordinal", "planned_metrics": ["MCC"]}, "MCC",
     "it counts an error of one step in the class order like an error of several steps"),
    ({"task": "multiclass", "label_structure": "partition", "item_name": "article", "planned_metrics": ["accuracy"]},
     "accuracy", "it reads the cluster ids as classes, so renaming the clusters changes it"),
    ({"task": "multiclass", "n_classes": 3, "annotators": 3, "planned_metrics": ["macro F1"]}, "macro F1",
     "it needs a reference labeling, and no annotator here is taken as the reference"),
    ({"label_structure": "multilabel", "item_name": "song", "planned_metrics": ["accuracy"]}, "accuracy",
     "it scores one class per song, whereas each song here carries a set of labels"),
    ({"task": "binary", "planned_metrics": ["zorblax index"]}, "zorblax index",
     "is not computed: the metric catalogue knows no metric of that name"),
    ({"label_structure": "spans", "planned_metrics": ["token accuracy"]}, "token accuracy",
     "the task is span extraction (e.g. named entities), which advisor does not evaluate; use seqeval"),
])
def test_each_reason_is_the_situations_own(answers, name: str, words: str) -> None:
    note = _notes(answers)[name]
    assert note.startswith(f"The planned “{name}”") and words in note, note
    assert not any(e in note for e in EMPTY)


def test_a_class_the_data_do_not_have_is_said() -> None:
    from advisor.plan._notes import unknown_reason

    assert unknown_reason("12 recall", [str(i) for i in range(10)])[1] == (
        "The planned “12 recall” is not computed: it reads as the recall of the class “12”, and no class here has "
        "that name (0, 1, 2, …, 9).")


# ------------------------------------------------------------------------------------------------------------------
# the invariant: over every bundled situation and a grid of drawn ones, no planned metric goes without a reason
# ------------------------------------------------------------------------------------------------------------------
def _situations():
    yield from bundled()
    yield from ((f"grid {i}", d) for i, d in enumerate(grid()))
    yield "chex", CHEX


def test_every_planned_metric_not_reported_gets_a_specific_reason() -> None:
    seen = 0
    for name, answers in _situations():
        plan = make_plan(answers)
        for use in plan.answers:
            if use.key != "planned_metrics":
                continue
            if use.unused is not None:  # not reported: a note that says why, in one sentence
                assert use.note and use.note.startswith(f"The planned “{use.value}”"), (name, use)
                assert " is not " in use.note and len(use.note.split(": ", 1)[-1].split()) >= 6, (name, use)
                seen += 1
            for text in (use.unused or "", use.note or "", *use.used_by):
                assert not any(e in text for e in EMPTY), (name, use)
    assert seen >= 10


# ------------------------------------------------------------------------------------------------------------------
# purity
# ------------------------------------------------------------------------------------------------------------------
def test_purity_reproduces_the_books_worked_example() -> None:
    # Manning, Raghavan & Schütze (2008), §16.3, Figure 16.4: three clusters of 17 items (x, o, ◇), majority
    # classes with 5, 4 and 3 items, purity = (5 + 4 + 3) / 17 ≈ 0.71. Rows: the classes x, o, ◇; columns: clusters.
    table = [[5, 1, 2], [1, 4, 0], [0, 1, 3]]
    assert partition_metrics(table, ["purity"])["purity"] == pytest.approx(12 / 17)
    assert round(12 / 17, 2) == 0.71


def _two_partitions(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A reference and a clustering of 200 items, and scikit-learn's contingency table of them (rows: the
    reference's clusters, columns: the clustering's)."""
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2 + seed, 200)
    p = np.where(rng.random(200) < 0.3, rng.integers(0, 9, 200), t * 3 + 1)
    return t, p, contingency_matrix(t, p)


@pytest.mark.parametrize("seed", range(6))
def test_purity_matches_a_count_on_scikit_learns_contingency_table(seed: int) -> None:
    t, p, c = _two_partitions(seed)
    by_hand = sum(max(c[i, j] for i in range(c.shape[0])) for j in range(c.shape[1])) / c.sum()
    assert partition_metrics(c, ["purity"])["purity"] == pytest.approx(by_hand)
    rows, cols = np.nonzero(c)
    batch = partition_cells_batch(np.stack([c[rows, cols], 2 * c[rows, cols]]), rows, cols, c.shape, ["purity"])
    assert batch["purity"] == pytest.approx([by_hand, by_hand])  # a share: doubling every count changes nothing


def test_purity_rewards_over_splitting_and_is_not_symmetric() -> None:
    singletons = np.eye(6)[[0, 1, 2, 3, 4, 5]].reshape(6, 6)
    two = np.array([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]])  # reference {0,1,2}{3,4,5}, one item per cluster
    assert partition_metrics(two, ["purity"])["purity"] == 1.0
    assert partition_metrics(two.T, ["purity"])["purity"] == pytest.approx(2 / 6)  # the partitions exchanged
    assert partition_metrics(singletons[:, :6], ["purity"])["purity"] == 1.0
    record = get_catalogue().metrics["purity"]
    assert record.structure == "partition" and record.higher_is_better and record.references == [
        "manning2008introduction"]
    assert record.properties["max_agreement"].status == "fails" and record.properties["max_agreement"].verified


# ------------------------------------------------------------------------------------------------------------------
# inverse purity: purity with the two partitions' roles exchanged (Amigó, Gonzalo, Artiles & Verdejo 2009, §4.1)
# ------------------------------------------------------------------------------------------------------------------
def test_inverse_purity_of_the_books_worked_example() -> None:
    # the same table: the classes x, o, ◇ have their largest clusters with 5, 4 and 3 of their 8, 5 and 4 items
    table = [[5, 1, 2], [1, 4, 0], [0, 1, 3]]
    assert partition_metrics(table, ["inverse_purity"])["inverse_purity"] == pytest.approx((5 + 4 + 3) / 17)
    merged = [[5, 0], [4, 0], [0, 3]]  # x and o merged into one cluster: purity 8/12, inverse purity 1
    got = partition_metrics(merged, ["purity", "inverse_purity"])
    assert got["purity"] == pytest.approx((5 + 3) / 12) and got["inverse_purity"] == 1.0


@pytest.mark.parametrize("seed", range(6))
def test_inverse_purity_matches_a_count_on_scikit_learns_contingency_table(seed: int) -> None:
    t, p, c = _two_partitions(seed)
    by_hand = c.max(axis=1).sum() / c.sum()  # each reference cluster's largest cell
    got = partition_metrics(c, ["purity", "inverse_purity"])
    assert got["inverse_purity"] == pytest.approx(by_hand)
    # the swap identity: inverse purity is purity with the two partitions exchanged, on scikit-learn's own table
    assert got["inverse_purity"] == pytest.approx(partition_metrics(contingency_matrix(p, t), ["purity"])["purity"])
    assert got["purity"] == pytest.approx(partition_metrics(c.T, ["inverse_purity"])["inverse_purity"])
    rows, cols = np.nonzero(c)
    batch = partition_cells_batch(np.stack([c[rows, cols], 2 * c[rows, cols]]), rows, cols, c.shape,
                                  ["inverse_purity"])
    assert batch["inverse_purity"] == pytest.approx([by_hand, by_hand])


def test_inverse_purity_rewards_merging_where_purity_rewards_splitting() -> None:
    two = np.array([[1, 1, 1, 0, 0, 0], [0, 0, 0, 1, 1, 1]])  # reference {0,1,2}{3,4,5}, one item per cluster
    got = partition_metrics(two, ["purity", "inverse_purity"])
    assert got["purity"] == 1.0 and got["inverse_purity"] == pytest.approx(2 / 6)  # over-splitting: the pair says so
    merged = np.array([[3, 0], [2, 0], [0, 1]])  # three reference clusters, the first two merged
    got = partition_metrics(merged, ["purity", "inverse_purity"])
    assert got["inverse_purity"] == 1.0 and got["purity"] == pytest.approx(4 / 6)  # over-merging: the pair says so
    record = get_catalogue().metrics["inverse_purity"]
    assert record.structure == "partition" and record.higher_is_better and record.references == ["amigo2009comparison"]
    assert record.formula == r"\frac{1}{n}\sum_{i}\max_{j}C_{ij}"
    assert record.properties["max_agreement"].status == "fails" and record.properties["max_agreement"].verified
    assert record.properties["symmetry"].status == "fails" and record.properties["symmetry"].verified


def test_purity_and_inverse_purity_have_their_estimate_and_no_interval() -> None:
    """Means of per-cluster maxima, not pair counts: BCa on the item bootstrap covered purity 0.82–0.96 and inverse
    purity 0.85–0.96 at 60 and 200 items (benchmarks/README.md, --purity), so like the mutual-information indices
    they get their estimate alone, no interval and no test, and why."""
    rows = PartitionRows(true=np.array([0, 0, 1, 1, 2]), pred={"a": np.array([0, 1, 0, 1, 1])},
                         counts=np.array([30., 5., 4., 25., 20.]))
    got = partition_intervals(rows, ["purity", "inverse_purity"], n_resamples=300, seed=1)["a"]
    assert got["purity"]["estimate"] == pytest.approx((30 + 25) / 84)  # columns: 30 of 34; 25 of 50
    assert got["inverse_purity"]["estimate"] == pytest.approx((30 + 25 + 20) / 84)  # rows: 30 of 35, 25 of 29, 20
    for r in got.values():
        assert r["method"] == "none" and np.isnan(r["low"]) and np.isnan(r["high"]) and "stated rate" in r["reason"]


def test_a_planned_purity_is_computed_with_its_inverse_in_the_report(tmp_path) -> None:
    """End to end on the bundled clusterings: Table 1 has purity and inverse purity for both systems, equal to a count
    on scikit-learn's contingency table, each without an interval; without the plan neither is computed."""
    import json

    import pandas as pd
    from typer.testing import CliRunner

    from advisor.cli import app

    examples = Path(__file__).parent.parent / "examples" / "structures"
    files = [str(examples / "clusters_a.csv"), str(examples / "clusters_b.csv")]
    for planned, wanted in (("[NMI, ARI, purity]", True), ("[NMI, ARI]", False)):
        ans = tmp_path / "answers.yaml"
        ans.write_text((examples / "partition_answers.yaml").read_text(encoding="utf-8")
                       + f"planned_metrics: {planned}\n", encoding="utf-8")
        out = tmp_path / f"r{int(wanted)}.json"
        res = CliRunner().invoke(app, ["report", "--answers", str(ans), *files, "--seed", "2024", "--bootstrap",
                                       "300", "-o", str(out)])
        assert res.exit_code == 0, res.output
        ctx = json.loads(out.read_text(encoding="utf-8"))
        if not wanted:
            assert not {"purity", "inverse_purity"} & set(ctx["metrics"][ctx["systems"][0]])
            continue
        assert {"purity", "inverse_purity"} <= {m["id"] for m in ctx["metric_definitions"]}
        for name, path in zip(ctx["systems"], files):
            d = pd.read_csv(path)
            c = contingency_matrix(d["y_true"], d["y_pred"])
            assert ctx["metrics"][name]["purity"] == pytest.approx(c.max(axis=0).sum() / c.sum())
            assert ctx["metrics"][name]["inverse_purity"] == pytest.approx(c.max(axis=1).sum() / c.sum())
            for m in ("purity", "inverse_purity"):
                iv = ctx["intervals"][name][m]
                assert iv["low"] is None and iv["high"] is None and iv["method"] == "none"
        text = " ".join(sp["text"] for p in ctx["methods"] for sp in p["spans"])
        assert "purity alone rewards splitting" in text and "We do not report purity" not in text


def test_purity_on_request_from_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from advisor.cli import app

    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\na,1\na,1\na,2\nb,2\nb,3\nb,3\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["compute", "--partitions", "--metrics", "purity", "--json", str(f)])
    assert res.exit_code == 0, res.output
    import json

    assert json.loads(res.output)["metrics"]["c"]["purity"] == pytest.approx(5 / 6)  # clusters {a,a} {a,b} {b,b}
    res = CliRunner().invoke(app, ["compute", "--partitions", str(f)])  # by default the four reported indices
    assert res.exit_code == 0 and "purity" not in res.output


def test_a_judges_planned_accuracy_is_its_agreement_rate_with_each_rater() -> None:
    answers = load_answers(SITUATIONS / "llm_judge.yaml").model_copy(update={"planned_metrics": ["accuracy"]})
    use = next(u for u in make_plan(answers).answers if u.key == "planned_metrics")
    assert use.used_by[0].startswith("shown for the judge and each human rater") and use.note is None
