"""Issue 12 as a new user meets it: what the methods text promises is reported, no order is ever
assumed, the report's words fit the structure, several systems are compared paired, span and ranking
tasks are sent to their tools, and every bad input of the issue's list is one sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from advisor._exceptions import InputError
from advisor.cli import app
from advisor.engine._agreement import agreement_metrics, ratings_table
from advisor.engine._structures import reported_ids
from advisor.io import load_structured
from advisor.report import build_report
from advisor.report._build_structures import build_structured_report, inputs_for_answers
from advisor.stats._structures import structure_compare, structure_comparison

EX = Path(__file__).resolve().parents[1] / "examples" / "structures"
runner = CliRunner()
ANSWERS = {"ordinal": "ordinal_answers.yaml", "multilabel": "multilabel_answers.yaml", "top_k": "topk_answers.yaml",
           "agreement": "annotators_answers.yaml"}


def _one_sentence(res, fragment: str) -> None:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and fragment in res.output, res.output
    assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1, res.output


# 1. the methods paragraph without data lists what an evaluation of the structure reports, nothing else
@pytest.mark.parametrize("structure", list(ANSWERS))
def test_methods_without_data_announce_only_reported_metrics(structure):
    ctx = build_report(str(EX / ANSWERS[structure]), None, bootstrap=0)
    announced = {m.id for m in ctx.metrics if m.role != "appendix"}
    assert announced <= set(reported_ids(structure)), announced - set(reported_ids(structure))


def test_topk_methods_name_no_metric_the_report_leaves_out():
    res = runner.invoke(app, ["methods", "--answers", str(EX / "topk_answers.yaml")])
    assert res.exit_code == 0
    for absent in ("balanced accuracy", "log loss", "Brier", "Balanced accuracy"):
        assert absent not in res.output
    # top-k accuracy by its cut-off ("top-5 accuracy", issue 22), and top-1 accuracy beside it
    assert re.search(r"top-\d+ accuracy", res.output) and "accuracy" in res.output


# 2. no order is assumed: nominal level said, ordinal alpha refused, numeric labels and declared orders used
def test_agreement_without_order_is_nominal_and_says_so():
    res = runner.invoke(app, ["compute", str(EX / "annotators.csv"), "--json"])
    data = json.loads(res.output)
    assert res.exit_code == 0 and set(data["metrics"]["agreement"]) == {"krippendorff_alpha"}
    assert data["level"] == "nominal" and "nominal level of measurement" in data["notes"][0]
    assert "--order" in data["notes"][0]
    text = runner.invoke(app, ["compute", str(EX / "annotators.csv")]).output
    assert "note: Agreement is measured at the nominal level" in text


def test_ordinal_alpha_without_order_is_refused_and_with_order_matches_the_oracle():
    res = runner.invoke(app, ["compute", str(EX / "annotators.csv"), "--metrics", "krippendorff_alpha_ordinal"])
    _one_sentence(res, "needs the order of the categories")
    res = runner.invoke(app, ["compute", str(EX / "annotators.csv"), "--order", "low,medium,high", "--json"])
    got = json.loads(res.output)["metrics"]["agreement"]["krippendorff_alpha_ordinal"]
    krippendorff = pytest.importorskip("krippendorff")
    import pyarrow.csv as pcsv

    cols = pcsv.read_csv(EX / "annotators.csv").to_pydict()
    code = {"low": 0, "medium": 1, "high": 2}
    rel = np.array([[np.nan if not v else code[v] for v in cols[c]] for c in cols], dtype=float)
    assert abs(got - krippendorff.alpha(reliability_data=rel, level_of_measurement="ordinal")) <= 1e-9


def test_numeric_ratings_keep_their_numeric_order_and_strings_do_not_get_one():
    r = ratings_table([[2, 10, 10], [2, 2, None], [10, 10, 9]])
    assert r.ordered and r.categories == ("2", "9", "10")  # numeric order, not "10" < "2"
    explicit = agreement_metrics(ratings_table([[2, 10, 10], [2, 2, None], [10, 10, 9]], categories=[2, 9, 10]))
    assert agreement_metrics(r)["krippendorff_alpha_ordinal"] == explicit["krippendorff_alpha_ordinal"]
    words = ratings_table([["lo", "hi"], ["hi", "hi"]])
    assert not words.ordered and words.level == "nominal"
    assert "krippendorff_alpha_ordinal" not in agreement_metrics(words)
    with pytest.raises(InputError, match="needs the order of the categories"):
        agreement_metrics(words, ["krippendorff_alpha_ordinal"])


def test_ordinal_answers_without_classes(tmp_path):
    ans = tmp_path / "a.yaml"
    ans.write_text("task: multiclass\nlabel_structure: ordinal\nannotators: 3\nsymmetric: true\n", encoding="utf-8")
    res = runner.invoke(app, ["report", "--answers", str(ans), str(EX / "annotators.csv"), "-o", str(tmp_path / "r.md")])
    _one_sentence(res, "not in which order")
    assert not (tmp_path / "r.md").exists()
    ans.write_text("task: multiclass\nlabel_structure: ordinal\n", encoding="utf-8")
    inputs = inputs_for_answers([EX / "ordinal_near.csv"], str(ans))  # numeric labels: their numeric order
    assert inputs.structure == "ordinal" and inputs.labels == (1, 2, 3, 4, 5)
    words = tmp_path / "w.csv"
    words.write_text("y_true,y_pred\nlow,high\nhigh,high\n", encoding="utf-8")
    res = runner.invoke(app, ["report", "--answers", str(ans), str(words), "-o", str(tmp_path / "r.md")])
    _one_sentence(res, "are not numbers, so their order is unknown")


def test_an_order_the_data_declares_is_used(tmp_path):
    pd = pytest.importorskip("pandas")
    kind = pd.CategoricalDtype(["low", "medium", "high"], ordered=True)
    cols = {c: pd.Series(v, dtype=kind) for c, v in
            {"rater_a": ["low", "high", None, "medium"], "rater_b": ["low", "medium", "high", "medium"],
             "rater_c": ["medium", "high", "high", None]}.items()}
    df = pd.DataFrame(cols)
    got = load_structured([df])
    assert got.systems["agreement"].ordered and got.labels == ("low", "medium", "high")
    df.to_parquet(tmp_path / "r.parquet")
    res = runner.invoke(app, ["compute", str(tmp_path / "r.parquet"), "--json"])
    data = json.loads(res.output)
    assert data["level"] == "ordinal" and "krippendorff_alpha_ordinal" in data["metrics"]["agreement"]
    expected = agreement_metrics(ratings_table(df.astype(object).where(df.notna(), None).values.tolist(),
                                               categories=["low", "medium", "high"]))
    assert data["metrics"]["agreement"]["krippendorff_alpha_ordinal"] == pytest.approx(
        expected["krippendorff_alpha_ordinal"], abs=1e-12)


# 3. the report's words fit the structure
@pytest.mark.parametrize("args, line", [
    (["multilabel_answers.yaml", "tagger_a.csv"], "500 items · 6 labels · 1 system"),
    (["ordinal_answers.yaml", "ordinal_near.csv"], "600 items · 5 ordered classes · 1 system"),
    (["annotators_answers.yaml", "annotators.csv"], "300 items · 3 categories · 3 annotators"),
    (["topk_answers.yaml", "model_a.csv"], "300 items · 50 classes · 1 system"),
])
def test_report_header_counts_in_the_structure_s_words(tmp_path, monkeypatch, args, line):
    monkeypatch.chdir(EX)
    out = tmp_path / "r.md"
    res = runner.invoke(app, ["report", "--answers", *args, "--bootstrap", "0", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert line in text
    if "tagger" in args[1]:
        assert "Per-label precision, recall and F1" in text and "| Label |" in text


# 4. two or more systems: the paired comparison, as for nominal predictions
@pytest.mark.parametrize("structure, files, opts", [
    ("ordinal", ["ordinal_near.csv", "ordinal_far.csv"], {"order": [1, 2, 3, 4, 5]}),
    ("multilabel", ["tagger_a.csv", "tagger_b.csv"], {"label_sep": "|"}),
    ("top_k", ["model_a.csv", "model_b.csv"], {"top_k": 5}),
])
def test_structured_report_compares_systems_paired(structure, files, opts):
    inputs = load_structured([EX / f for f in files], **opts)
    ctx = build_structured_report(str(EX / ANSWERS[structure]), inputs, bootstrap=300, seed=5)
    assert ctx.intervals.paired
    assert ctx.winners and all(set(w) <= {s.name for s in ctx.systems} and w for w in ctx.winners.values())
    for s in ctx.systems:
        assert s.p_first and all(0.0 <= v <= 1.0 for v in s.p_first.values() if v is not None)
    assert ctx.figures.difference_pair == [s.name for s in ctx.systems]
    methods = " ".join(sp.text for p in ctx.methods for sp in p.spans)
    assert "paired" in methods


def test_comparison_agrees_with_structure_compare_and_orients_lower_metrics():
    inputs = load_structured([EX / "tagger_a.csv", EX / "tagger_b.csv"], label_sep="|")
    from advisor.engine._structures import evaluate_inputs

    points = evaluate_inputs(inputs)["metrics"]
    ids = ["multilabel_macro_f1", "hamming_loss"]
    cmp = structure_comparison("multilabel", inputs.systems, ids, points, n_resamples=400, seed=2)
    old = structure_compare("multilabel", inputs.systems, ids, lower_is_better=["hamming_loss"], n_resamples=400,
                            seed=2, points=points)
    for m in ids:
        assert cmp.probability_better("tagger_a", "tagger_b", m) == pytest.approx(old[m]["p_better"]["tagger_a"]["tagger_b"])
        assert cmp.winners(m) == old[m]["winners"] == ["tagger_a"]  # lower Hamming loss wins
        assert old[m]["p_first"]["tagger_a"] == pytest.approx(cmp.probability_first(m)["tagger_a"])
    assert not cmp.metrics["hamming_loss"].higher_is_better


def test_compare_cli_prints_winners_and_json_carries_them():
    res = runner.invoke(app, ["compare", str(EX / "model_a.csv"), str(EX / "model_b.csv"), "--top-k", "5",
                              "--bootstrap", "200", "--seed", "1", "--json"])
    data = json.loads(res.output)
    assert data["winners"]["top_k_accuracy"] == ["model_a"]
    ids = set(data["metrics"]["model_a"])
    assert "top_k_accuracy" in ids and set(data["p_first"]["model_a"]) == set(data["intervals"]["model_a"]) == ids
    res = runner.invoke(app, ["compare", str(EX / "model_a.csv"), str(EX / "model_b.csv"), "--top-k", "5",
                              "--bootstrap", "200", "--seed", "1"])
    assert res.exit_code == 0 and "winners" in res.output and "Paired bootstrap" in res.output


# 5. spans and rankings: the methods text, never a token-level report
@pytest.mark.parametrize("structure, tool", [("spans", "seqeval"), ("ranking", "pytrec_eval")])
def test_span_and_ranking_answers_with_data_are_sent_to_their_tool(tmp_path, structure, tool):
    ans = tmp_path / "a.yaml"
    ans.write_text(f"task: multiclass\nlabel_structure: {structure}\n", encoding="utf-8")
    tokens = tmp_path / "t.csv"
    tokens.write_text("y_true,y_pred\nB-PER,B-PER\nI-PER,O\nO,O\n", encoding="utf-8")
    res = runner.invoke(app, ["report", "--answers", str(ans), str(tokens), "-o", str(tmp_path / "r.md")])
    _one_sentence(res, tool)
    assert not (tmp_path / "r.md").exists()
    with pytest.raises(InputError, match=tool):
        build_report(str(ans), {"a": [[3, 1], [0, 2]]})
    res = runner.invoke(app, ["methods", "--answers", str(ans)])
    assert res.exit_code == 0 and tool in res.output.replace("\\_", "_")


@pytest.mark.parametrize("name", ["spans", "ranking"])
def test_span_and_ranking_examples_are_bundled(name):
    answers, methods = EX / f"{name}_answers.yaml", EX / f"{name}_methods.md"
    assert answers.is_file() and methods.is_file()
    # issue 20: a seed always — without --seed advisor picks one (and says so on stderr), so the bundled paragraph
    # is written with a stated seed: advisor methods --answers <name>_answers.yaml --seed 2024 -o <name>_methods.md
    res = runner.invoke(app, ["methods", "--answers", str(answers), "--seed", "2024"])
    assert res.exit_code == 0 and res.output.strip() == methods.read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("name", ["spans", "ranking"])
def test_a_picked_seed_is_not_named_where_the_authors_tool_draws(name):
    # the ranking and span metrics are computed by the author's tool, which draws the resamples: a seed advisor
    # picked is a number nobody used, so the paragraph names none (and no note asks to pass it on); a given one stays
    answers = EX / f"{name}_answers.yaml"
    res = runner.invoke(app, ["methods", "--answers", str(answers)])
    assert res.exit_code == 0 and "resamples of the" in res.output
    assert not re.search(r"seed \d", res.output), res.output
    given = runner.invoke(app, ["methods", "--answers", str(answers), "--seed", "31"])
    assert given.exit_code == 0 and "seed 31" in given.output
    # a classification paragraph still names the picked seed, which advisor report is then told to use
    digits = runner.invoke(app, ["methods", "--answers", str(EX.parent / "report" / "digits_answers.yaml")])
    assert digits.exit_code == 0 and re.search(r"seed \d+[.;]", digits.output)


# 6. the bad inputs, on every command that reads them: one sentence, exit 2, nothing written
BAD = {
    "label outside the order": (["ordinal_near.csv", "--order", "1,2,3"], "not in the ordinal order"),
    "top_k above the classes": (["model_a.csv", "model_b.csv", "--top-k", "51"], "from 1 to the number of classes (50)"),
}


def _bad_files(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    empty_rater = tmp_path / "raters.csv"
    empty_rater.write_text("rater_a,rater_b,rater_c\nx,x,\ny,x,\n", encoding="utf-8")
    empty_class = tmp_path / "gap.csv"
    empty_class.write_text("y_true,y_pred\n1,1\n,2\n", encoding="utf-8")
    no_sets = tmp_path / "sets.csv"
    no_sets.write_text("y_true,y_pred\n,\n,\n", encoding="utf-8")
    topk_gap = tmp_path / "topk.csv"
    topk_gap.write_text("y_true,p_a,p_b\na,0.6,0.4\n,0.5,0.5\n", encoding="utf-8")
    return {
        **{k: ([str(EX / a) if a.endswith(".csv") else a for a in v[0]], v[1]) for k, v in BAD.items()},
        "annotator with no ratings": ([str(empty_rater)], "annotator column 'rater_c' has no ratings"),
        "empty class of an ordinal item": ([str(empty_class), "--order", "1,2"], "row 2 has an empty y_true"),
        "empty class of a top-k item": ([str(topk_gap), "--top-k", "1"], "row 2 has an empty y_true"),
        "no label in any set": ([str(no_sets), "--label-sep", "|"], "every label set is empty"),
    }


@pytest.mark.parametrize("command", ["compute", "compare", "report"])
def test_bad_structured_input_on_every_command(tmp_path, command):
    for case, (args, fragment) in _bad_files(tmp_path).items():
        files = [a for a in args if a.endswith(".csv")]
        opts = [a for a in args if not a.endswith(".csv")]
        if command == "compare" and len(files) < 2 and "raters" not in files[0]:
            files = files * 2
        if command == "report":
            ans = tmp_path / "a.yaml"
            ans.write_text("task: multiclass\n", encoding="utf-8")
            argv = ["report", "--answers", str(ans), *files, *opts, "--bootstrap", "0", "-o", str(tmp_path / "r.md")]
        else:
            argv = [command, *files, *opts]
        res = runner.invoke(app, argv)
        assert res.exit_code == 2, (case, command, res.output)
        assert "Traceback" not in res.output and not re.search(r"internal error", res.output, re.I), (case, res.output)
        assert fragment in res.output, (case, command, res.output)
        assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1, (case, command, res.output)
        assert not (tmp_path / "r.md").exists()


# the recommendation itself: what it puts beside the lead is what the structure reports, in plain words
@pytest.mark.parametrize("name", ["topk", "annotators", "spans", "ranking", "ordinal", "multilabel"])
def test_recommend_screen_gives_the_structure_s_reason(name):
    res = runner.invoke(app, ["recommend", "--answers", str(EX / f"{name}_answers.yaml")])
    assert res.exit_code == 0
    head = " ".join(res.output.split("Also report")[0].split())
    assert "In this setting;" not in head and "best well" not in head and "two labelings" not in head, head


def test_topk_recommendation_puts_only_reported_metrics_beside_the_lead():
    from advisor import recommend
    from advisor.questionnaire import load_answers

    rec = recommend(load_answers(EX / "topk_answers.yaml"))
    assert rec.primary.metric == "top_k_accuracy"
    assert {a.metric for a in rec.complementary} <= set(reported_ids("top_k"))
    ordinal = recommend(load_answers(EX / "ordinal_answers.yaml"))
    assert "balanced_accuracy" in {a.metric for a in ordinal.complementary}  # ordinal keeps the nominal lead beside


def test_report_from_confusion_matrices_with_ordinal_answers(tmp_path):
    m = tmp_path / "m.csv"
    m.write_text(",1,2,3\n1,5,1,0\n2,1,4,1\n3,0,2,6\n", encoding="utf-8")
    ans = tmp_path / "a.yaml"
    ans.write_text("task: multiclass\nlabel_structure: ordinal\n", encoding="utf-8")
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["report", "--answers", str(ans), "--matrix", str(m), "--bootstrap", "200", "--seed", "1",
                              "-o", str(out)])
    assert res.exit_code == 0, res.output
    ctx = json.loads(out.read_text(encoding="utf-8"))
    values = ctx["metrics"][ctx["systems"][0]]
    from advisor.engine._ordinal import ordinal_cells, ordinal_metrics

    expected = ordinal_metrics(ordinal_cells([[5, 1, 0], [1, 4, 1], [0, 2, 6]]))
    assert values["mae_macro"] == pytest.approx(expected["mae_macro"], abs=1e-12)
    for name in ("multilabel", "topk"):
        res = runner.invoke(app, ["report", "--answers", str(EX / f"{name}_answers.yaml"), "--matrix", str(m),
                                  "-o", str(tmp_path / "x.md")])
        _one_sentence(res, "give prediction files instead of --matrix")


def test_multilabel_methods_speak_of_labels(tmp_path):
    # the bundled answers give the author's context, which says the situation itself (issue 22: advisor's own
    # clause is then not said); without it, advisor's clause speaks of labels too
    answers = yaml.safe_load((EX / "multilabel_answers.yaml").read_text(encoding="utf-8"))
    bare = tmp_path / "bare.yaml"
    bare.write_text(yaml.safe_dump({k: v for k, v in answers.items() if k != "context"}), encoding="utf-8")
    plain = runner.invoke(app, ["methods", "--answers", str(bare)]).output
    assert "every label counts equally" in plain
    for text in (runner.invoke(app, ["methods", "--answers", str(EX / "multilabel_answers.yaml")]).output,
                 (EX / "multilabel_report.md").read_text(encoding="utf-8").split("## Results")[0], plain):
        assert "per-label scores" in text
        assert "every class" not in text and "per-class scores" not in text and "never-predicted class" not in text


def test_justification_cites_no_work_for_a_substring_of_a_word():
    from advisor.report._build import _bibliography, _keys_in

    bib = _bibliography()
    assert _keys_in("class_weighting: equal (Tsoumakas et al. (2010), §7.1)", bib) == ["tsoumakas2010mining"]
    assert "wei2010novel" in _keys_in("Wei et al. (2010)", bib)
    assert "Wei, J." not in (EX / "multilabel_report.md").read_text(encoding="utf-8")


def test_python_api_reports_structured_inputs():
    import advisor

    inputs = advisor.load_structured([EX / "ordinal_near.csv", EX / "ordinal_far.csv"], order=[1, 2, 3, 4, 5])
    ctx = advisor.build_structured_report(str(EX / "ordinal_answers.yaml"), inputs, bootstrap=200, seed=1)
    assert ctx.primary == "mae_macro" and ctx.intervals.paired and ctx.winners
    with pytest.raises(InputError, match="build_structured_report"):
        advisor.build_report(str(EX / "ordinal_answers.yaml"), inputs)
