"""Ordinal, multi-label, top-k and annotator inputs: every reader, the Python API, the CLI, bad input,
bootstrap and paired comparison, and the questionnaire's structure rules (issue 12)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor import recommend
from advisor._exceptions import InputError
from advisor.cli import app
from advisor.engine._agreement import agreement_metrics
from advisor.engine._multilabel import multilabel_metrics
from advisor.engine._ordinal import ordinal_cells, ordinal_metrics
from advisor.engine._structures import evaluate_structure
from advisor.engine._topk import top_k_accuracy
from advisor.io import load_structured
from advisor.stats._structures import structure_bootstrap, structure_compare

pa = pytest.importorskip("pyarrow")
EX = Path(__file__).resolve().parent.parent / "examples" / "structures"
runner = CliRunner()


def _write(table: dict, path: Path) -> Path:
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    t = pa.table(table)
    if path.suffix == ".parquet":
        pq.write_table(t, path)
    elif path.suffix == ".jsonl":
        rows = t.to_pylist()
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        pcsv.write_csv(t, path, pcsv.WriteOptions(delimiter="\t" if path.suffix == ".tsv" else ","))
    return path


TABLES = {
    "ordinal": ({"y_true": [1, 2, 3, 3, 5, 4], "y_pred": [1, 3, 3, 2, 4, 4]}, {"order": [1, 2, 3, 4, 5]}),
    "multilabel": ({"y_true": ["a|b", "b", "", "c"], "y_pred": ["a", "b|c", "", "c"]}, {"label_sep": "|"}),
    "top_k": ({"y_true": ["x", "y", "z"], "p_x": [0.5, 0.2, 0.1], "p_y": [0.3, 0.3, 0.6], "p_z": [0.2, 0.5, 0.3]},
              {"top_k": 2}),
    "agreement": ({"rater_a": ["u", "v", "u", None], "rater_b": ["u", "v", "v", "u"], "rater_c": ["u", None, "v", "u"]},
                  {}),
}
EXPECTED = {
    "ordinal": ordinal_metrics(ordinal_cells(y_true=[1, 2, 3, 3, 5, 4], y_pred=[1, 3, 3, 2, 4, 4], order=[1, 2, 3, 4, 5])),
    "multilabel": multilabel_metrics([[1, 1, 0], [0, 1, 0], [0, 0, 0], [0, 0, 1]], [[1, 0, 0], [0, 1, 1], [0, 0, 0], [0, 0, 1]]),
    "top_k": top_k_accuracy([[0.5, 0.3, 0.2], [0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], [0, 1, 2], 2),
    "agreement": agreement_metrics([["u", "u", "u"], ["v", "v", None], ["u", "v", "v"], [None, "u", "u"]]),
}


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".jsonl", ".parquet"])
@pytest.mark.parametrize("kind", list(TABLES))
def test_every_reader_and_the_python_api_give_the_engine_values(tmp_path, kind, suffix):
    table, opts = TABLES[kind]
    path = _write(table, tmp_path / f"sys{suffix}")
    for source in (path, table):  # a file, and the same columns in memory (Python API)
        got = load_structured([source], **opts)
        assert got is not None and got.structure == kind
        values = evaluate_structure(next(iter(got.systems.values())), top_k=got.top_k)["values"]
        for m, v in EXPECTED[kind].items():
            assert abs(values[m] - v) <= 1e-12, (kind, suffix, m)


def test_indicator_columns_are_multilabel_and_a_dataframe_works():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"true_a": [1, 0, 1], "pred_a": [1, 1, 0], "true_b": [0, 0, 1], "pred_b": [0, 0, 1]})
    got = load_structured([df])
    assert got.structure == "multilabel" and got.labels == ("a", "b")
    assert evaluate_structure(got.systems["system"])["values"]["hamming_loss"] == pytest.approx(2 / 6)


def test_nominal_files_are_left_to_the_ordinary_readers(tmp_path):
    path = _write({"y_true": ["a", "b"], "y_pred": ["a", "a"]}, tmp_path / "p.csv")
    assert load_structured([path]) is None


@pytest.mark.parametrize("args, fragment", [
    (["ordinal_near.csv", "--order", "1,2,3"], "not in the ordinal order"),
    (["model_a.csv", "--top-k", "51"], "top_k must be a whole number from 1 to the number of classes (50)"),
    (["annotators.csv", "--order", "low,high"], "is not among the categories"),
])
def test_bad_structured_input_is_one_sentence(args, fragment, monkeypatch):
    monkeypatch.chdir(EX)
    res = runner.invoke(app, ["compute", *args])
    assert res.exit_code == 2 and fragment in res.output and "Traceback" not in res.output
    assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1


def test_more_bad_input_sentences(tmp_path):
    empty_rater = _write({"rater_a": ["x", "y"], "rater_b": ["x", "x"], "rater_c": [None, None]}, tmp_path / "r.jsonl")
    res = runner.invoke(app, ["compute", str(empty_rater)])
    assert res.exit_code == 2 and "annotator column 'rater_c' has no ratings" in res.output
    gap = _write({"y_true": [1, None, 3], "y_pred": [1, 2, 3]}, tmp_path / "o.jsonl")
    res = runner.invoke(app, ["compute", str(gap), "--order", "1,2,3"])
    assert res.exit_code == 2 and "row 2 has an empty y_true" in res.output
    nosets = _write({"y_true": ["", ""], "y_pred": ["", ""]}, tmp_path / "m.jsonl")
    res = runner.invoke(app, ["compute", str(nosets), "--label-sep", "|"])
    assert res.exit_code == 2 and "every label set is empty" in res.output
    with pytest.raises(InputError, match="not numbers, so their order is unknown"):
        load_structured([{"y_true": ["lo", "hi"], "y_pred": ["hi", "hi"]}], structure="ordinal")


def test_cli_json_carries_metrics_per_system_and_agreement_entry(monkeypatch):
    monkeypatch.chdir(EX)
    res = runner.invoke(app, ["compute", "annotators.csv", "--order", "low,medium,high", "--json"])
    data = json.loads(res.output)
    assert res.exit_code == 0 and list(data["metrics"]) == ["agreement"]
    assert set(data["metrics"]["agreement"]) == {"krippendorff_alpha", "krippendorff_alpha_ordinal"}  # ratings missing
    assert set(data["pairs"]) == {"rater_ann | rater_bob", "rater_ann | rater_cyd", "rater_bob | rater_cyd"}
    res = runner.invoke(app, ["compute", "ordinal_near.csv", "ordinal_far.csv", "--order", "1,2,3,4,5", "--json",
                              "--bootstrap", "200", "--seed", "3"])
    data = json.loads(res.output)
    assert data["bootstrap"]["resampling"] == "cells"
    iv = data["intervals"]["ordinal_far"]["weighted_kappa_quadratic"]
    assert iv["low"] <= data["metrics"]["ordinal_far"]["weighted_kappa_quadratic"] <= iv["high"]


@pytest.mark.parametrize("kind", ["ordinal", "multilabel", "top_k", "agreement"])
def test_bootstrap_intervals_bracket_the_value_and_are_reproducible(kind):
    table, opts = TABLES[kind]
    got = load_structured([table], **opts)
    data = next(iter(got.systems.values()))
    ids = list(evaluate_structure(data, top_k=got.top_k)["values"])[:2]
    a = structure_bootstrap(kind, data, ids, n_resamples=300, seed=5, top_k=got.top_k)
    b = structure_bootstrap(kind, data, ids, n_resamples=300, seed=5, top_k=got.top_k)
    assert a == b
    for m in ids:
        assert a[m]["low"] <= a[m]["high"]


def test_paired_comparison_shares_resamples(monkeypatch):
    monkeypatch.chdir(EX)
    got = load_structured(["ordinal_near.csv", "ordinal_far.csv"], order=[1, 2, 3, 4, 5])
    cmp = structure_compare("ordinal", got.systems, ["mae", "weighted_kappa_quadratic"], lower_is_better=["mae"],
                            n_resamples=400, seed=0, items=got.items)
    p = cmp["weighted_kappa_quadratic"]["p_better"]
    assert p["ordinal_near"]["ordinal_far"] + p["ordinal_far"]["ordinal_near"] == pytest.approx(1.0)
    assert p["ordinal_near"]["ordinal_far"] > 0.95  # far misses cost the second system under squared weights
    tags = load_structured(["tagger_a.csv", "tagger_b.csv"], label_sep="|")
    cmp = structure_compare("multilabel", tags.systems, ["multilabel_macro_f1"], n_resamples=300, seed=0)
    assert cmp["multilabel_macro_f1"]["p_better"]["tagger_a"]["tagger_b"] > 0.95
    res = runner.invoke(app, ["compare", "model_a.csv", "model_b.csv", "--top-k", "5", "--bootstrap", "200",
                              "--seed", "1", "--json"])
    pairs = json.loads(res.output)["pairs"]["top_k_accuracy"]
    assert res.exit_code == 0 and [(p["a"], p["b"]) for p in pairs] == [("model_a", "model_b")]
    assert 0 <= pairs[0]["p_a_better"] <= 1


@pytest.mark.parametrize("answers, lead", [
    ({"label_structure": "ordinal", "classes": [1, 2, 3, 4, 5]}, "mae_macro"),
    ({"label_structure": "ordinal", "class_weighting": "per_instance"}, "weighted_kappa_quadratic"),
    ({"label_structure": "multilabel"}, "multilabel_macro_f1"),
    ({"label_structure": "multilabel", "class_weighting": "per_instance"}, "multilabel_micro_f1"),
    ({"n_classes": 1000, "top_k": 5}, "top_k_accuracy"),
    ({"annotators": 3}, "krippendorff_alpha"),
    ({"annotators": 3, "label_structure": "ordinal"}, "krippendorff_alpha_ordinal"),
    ({"label_structure": "spans"}, "entity_f1"),
    ({"label_structure": "ranking"}, "ndcg_at_k"),
])
def test_structure_leads(answers, lead):
    r = recommend(answers)
    assert r.primary.metric == lead
    if answers.get("label_structure") == "ordinal" and "annotators" not in answers:
        assert r.complementary[0].reason.startswith("the nominal lead")  # nominal metrics only beside it
    if answers.get("label_structure") in ("spans", "ranking"):
        assert not r.complementary and ("seqeval" in r.primary.name or "pytrec_eval" in r.primary.name)


def test_micro_f1_warning_only_where_it_is_true():
    codes = lambda a: set(recommend({**a, "planned_metrics": ["micro F1"]}).warning_codes)  # noqa: E731
    assert "micro_f1_is_accuracy" in codes({"n_classes": 3})
    assert "micro_f1_is_accuracy" not in codes({"label_structure": "multilabel"})
    assert "micro_f1_is_not_accuracy_multilabel" in codes({"label_structure": "multilabel"})
    assert "micro_f1_is_accuracy" not in codes({"label_structure": "spans"})


def test_answers_keys_validate_with_one_sentence():
    from advisor.questionnaire._answers import answers_from_mapping

    with pytest.raises(Exception, match="top_k.*at most the number of classes"):
        answers_from_mapping({"n_classes": 10, "top_k": 20})
    with pytest.raises(Exception, match="symmetric must be true"):
        answers_from_mapping({"annotators": 3, "symmetric": False})
    assert answers_from_mapping({"annotators": 3}).symmetric is True
    assert np.isclose(top_k_accuracy([[1.0, 0.0]], [0], 1)["top_k_accuracy"], 1.0)


def test_bundled_structure_reports_render(tmp_path):
    import shutil

    for name in ("ordinal_answers.yaml", "ordinal_near.csv", "ordinal_far.csv", "annotators_answers.yaml",
                 "annotators.csv"):
        shutil.copy(EX / name, tmp_path / name)
    res = runner.invoke(app, ["report", "--answers", str(tmp_path / "ordinal_answers.yaml"),
                              str(tmp_path / "ordinal_near.csv"), str(tmp_path / "ordinal_far.csv"),
                              "--bootstrap", "200", "--seed", "1", "-o", str(tmp_path / "r.md")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "Macro-averaged mean absolute error" in text and "r-figures/structure.svg" in text and "Cohen, J. (1968)" in text
    assert (tmp_path / "r-figures" / "structure.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    # every format goes through the main pipeline (no Markdown-only side path)
    for fmt in ("html", "tex", "json"):
        res = runner.invoke(app, ["report", "--answers", str(tmp_path / "annotators_answers.yaml"),
                                  str(tmp_path / "annotators.csv"), "--bootstrap", "0", "-o", str(tmp_path / f"a.{fmt}")])
        assert res.exit_code == 0, res.output
    html = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "Krippendorff" in html and "Cohen's kappa of each pair of annotators" in html.replace("&#39;", "'")
    ctx = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert ctx["structure"] == "agreement" and len(ctx["structure_data"]["pairs"]) == 3
    for structure in ("ordinal", "multilabel", "topk", "annotators"):
        assert (EX / f"{structure}_report.md").is_file() and (EX / f"{structure}_report.pdf").is_file()


def test_ordinal_metrics_of_a_count_table(tmp_path):
    table = tmp_path / "counts.csv"
    table.write_text("true,pred,count\n1,1,26\n1,2,7\n2,1,13\n2,2,26\n3,3,10\n5,4,3\n", encoding="utf-8")
    res = runner.invoke(app, ["compute", "--counts", str(table), "--order", "1,2,3,4,5", "--json"])
    got = json.loads(res.output)["metrics"]["counts"]
    m = np.zeros((5, 5))
    for t, p, c in [(1, 1, 26), (1, 2, 7), (2, 1, 13), (2, 2, 26), (3, 3, 10), (5, 4, 3)]:
        m[t - 1, p - 1] = c
    ref = ordinal_metrics(m)
    assert all(abs(got[k] - ref[k]) <= 1e-12 for k in ref)
    res = runner.invoke(app, ["compute", "--counts", str(table), "--order", "1,2,3"])
    assert res.exit_code == 2 and "class '4' is not in the ordinal order" in res.output
