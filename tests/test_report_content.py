"""What the report says and computes: one system in every format, β of Fβ, the methods wording,
interval seeds, formulas and references from a context file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.cli import app
from advisor.questionnaire import Answers
from advisor.report import build_report, render_report
from advisor.report._methods import build_methods
from advisor.report import methods_paragraph
from advisor.report import load_context
from advisor.report._models import MetricEntry, ReportContext

ROOT = Path(__file__).resolve().parent.parent
DIGITS = [ROOT / "examples" / "digits" / "logreg.csv", ROOT / "examples" / "digits" / "tree.csv"]
DIGITS_ANSWERS = ROOT / "examples" / "report" / "digits_answers.yaml"
CANCER = [ROOT / "examples" / "breast_cancer" / "logreg.csv", ROOT / "examples" / "breast_cancer" / "naive_bayes.csv"]
runner = CliRunner()

# examples/answers/medical_screening.yaml with the class names of examples/breast_cancer/
SCREENING = """\
task: binary
classes: [benign, malignant]
positive_class: malignant
error_costs: {false_negative: 10, false_positive: 1}
deployment_prevalence: shifted
class_weighting: equal
chance_correction: preferred
ranking: false
planned_metrics: [accuracy]
"""


def _text(paragraphs: list) -> str:
    return " ".join("".join(s.text for s in p.spans) for p in paragraphs)


# -- 1. one system, every format; figures=False -------------------------------------------------
@pytest.fixture(scope="module")
def one_system(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("one")
    res = runner.invoke(app, ["report", "--answers", str(DIGITS_ANSWERS), str(DIGITS[0]), "-o", str(d / "one.json"),
                              "--bootstrap", "200", "--seed", "1"])
    assert res.exit_code == 0, res.output
    return d


@pytest.mark.parametrize("suffix", ["md", "tex", "html", "pdf"])
def test_one_system_report_in_every_format(one_system: Path, suffix: str) -> None:
    out = one_system / f"direct.{suffix}"
    res = runner.invoke(app, ["report", "--answers", str(DIGITS_ANSWERS), str(DIGITS[0]), "-o", str(out),
                              "--bootstrap", "0"])
    assert res.exit_code == 0, res.output
    assert out.stat().st_size > 1000
    if suffix != "pdf":
        assert "logreg" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", ["md", "tex", "html"])
def test_one_system_context_rerenders(one_system: Path, suffix: str) -> None:
    out = one_system / f"again.{suffix}"
    res = runner.invoke(app, ["report", "--context", str(one_system / "one.json"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert "logreg" in text
    assert "among the winners" not in text and "paired" not in text  # nothing is compared


@pytest.mark.parametrize("n_systems", [1, 2])
@pytest.mark.parametrize("fmt", ["md", "tex", "html"])
def test_render_without_figures(tmp_path: Path, fmt: str, n_systems: int) -> None:
    from advisor import read_predictions

    ctx = build_report(DIGITS_ANSWERS, read_predictions(DIGITS[:n_systems]), bootstrap=0)
    written = render_report(ctx, fmt, tmp_path / f"r.{fmt}", figures=False)
    assert [p.name for p in written if p.suffix != ".bib"] == [f"r.{fmt}"]  # type: ignore[union-attr]
    assert "Figure 1" not in (tmp_path / f"r.{fmt}").read_text(encoding="utf-8")


# -- 2. β of Fβ from the error costs, also when Fβ is not the primary metric ----------------------
@pytest.fixture(scope="module")
def screening(tmp_path_factory: pytest.TempPathFactory) -> tuple[ReportContext, float]:
    import yaml

    from advisor import read_predictions
    from advisor.questionnaire import recommend
    from advisor.questionnaire._answers import answers_from_mapping

    answers = answers_from_mapping(yaml.safe_load(SCREENING))
    data = read_predictions(CANCER)
    rec = recommend(answers, data=data)
    beta = rec.params_for("f_beta")["beta"]
    return build_report(answers, data, bootstrap=0), beta


def test_fbeta_uses_the_beta_of_the_costs(screening: tuple[ReportContext, float]) -> None:
    from advisor import read_predictions
    from advisor.engine._metrics import compute_metrics

    ctx, beta = screening
    assert beta == pytest.approx(10 ** 0.5)
    assert ctx.metric("f_beta").role == "complementary"
    data = read_predictions(CANCER)
    for rep in ctx.systems:
        want = compute_metrics(data.systems[rep.name], ["f_beta"], positive_label="malignant", beta=beta)["f_beta"]
        f1 = compute_metrics(data.systems[rep.name], ["f1"], positive_label="malignant")["f1"]
        assert rep.values["f_beta"] == pytest.approx(want, abs=1e-12)
        assert abs(want - f1) > 1e-3  # the test would not tell β = 1 apart otherwise
    assert ctx.systems[0].values["f_beta"] == pytest.approx(0.9234, abs=5e-5)  # logreg
    # the definitions list states β with each Fβ formula (issue 10 moved it from prose to the list)
    said = ctx.metric("f_beta").variant or ""
    assert "β = √10 ≈ 3.16" in said and "β = 1 " not in said and "β = 1," not in said


# -- 3.–6. methods wording ------------------------------------------------------------------------
def test_cost_sentence_states_both_costs_and_the_ratio() -> None:
    costs = {"false_negative": 8, "false_positive": 4}
    text = methods_paragraph(Answers(task="binary", positive_class=1, error_costs=costs), "md")
    assert "8 and a false alarm 4 (ratio 2)" in text
    assert "times what" not in text
    costs = {"false_negative": 10, "false_positive": 1}
    text = methods_paragraph(Answers(task="binary", positive_class=1, error_costs=costs), "md")
    assert "costs 10 times as much as a false alarm" in text


def _entry(mid: str, name: str) -> MetricEntry:
    return MetricEntry(id=mid, name=name, formula="x", role="primary")


def test_a_metric_not_used_gets_one_reason_in_reader_terms() -> None:
    # issue 10: the paragraph no longer lists what a reported metric lacks; a discouraged metric gets
    # one clause naming the property it lacks, said in reader terms
    answers = {"symmetric": True, "distance": True, "strict_monotonicity": True}
    status = {"kappa": {"symmetry": ("fails", []), "distance": ("fails", [])},
              "lead": {"symmetry": ("holds", []), "distance": ("holds", [])}}
    rec = {"primary": {"metric": "lead"}, "discouraged": [{"metric": "kappa", "name": "Kappa"}]}
    text = _text(build_methods(answers, rec, [_entry("lead", "Lead")], property_status=status))
    assert "We do not report kappa, because it changes when the two labelings swap roles" in text
    assert "not symmetric" not in text and "neither symmetric" not in text
    status["kappa"] = {"distance": ("fails", [])}
    text = _text(build_methods(answers, rec, [_entry("lead", "Lead")], property_status=status))
    assert "kappa, because it is not a distance" in text


def test_class_decomposability_gloss_only_for_means_of_classes() -> None:
    answers = {"class_weighting": "equal"}
    status = {m: {"class_decomposability": ("holds", [])} for m in ("f_beta", "macro_f1")}
    binary = _text(build_methods(answers, {}, [_entry("f_beta", "F-beta")], property_status=status))
    assert "per-class scores" not in binary
    multi = _text(build_methods(answers, {}, [_entry("macro_f1", "Macro F1")], property_status=status))
    assert "macro F1, which averages the per-class scores, so a rare class counts as much as a common one" in multi


def test_defaults_are_not_presented_as_answers() -> None:
    # issue 10: the paragraph never mentions the questionnaire; a default is simply not stated as the
    # author's situation
    text = methods_paragraph(ROOT / "examples" / "answers" / "labelings_distance.yaml", "md")
    assert "questionnaire" not in text and "Not answered" not in text
    assert "class distribution in use is unknown" not in text and "every class counts equally" not in text
    assert "a true distance between labelings is needed" in text and "binary labelings" in text  # the file says so
    given = methods_paragraph(Answers(task="binary", class_weighting="equal", deployment_prevalence="unknown",
                                      chance_correction="preferred"), "md")
    assert "every class counts equally" in given and "class distribution in use is unknown" in given


# -- 7. the baseline convention as the engine applies it -------------------------------------------
@pytest.mark.parametrize("fmt", ["md", "tex", "html"])
def test_baseline_convention_described_as_the_engine_does(fmt: str) -> None:
    text = methods_paragraph(Answers(task="multiclass", n_classes=3), fmt, undefined="baseline")
    para = text[text.index("A ratio"):]
    para = para[: para.index(". ")]
    assert "absent from both labelings" in para and "maximal agreement" in para
    assert "takes 1" in para
    if fmt != "html":  # HTML typesets the formulas as SVG
        assert "b_i/n" in para and "a_i/n" in para and "C_{ii}/b_i" in para


def test_baseline_convention_matches_the_engine() -> None:
    from advisor.engine._confusion import ConfusionMatrix
    from advisor.engine._metrics import compute_metrics

    absent = ConfusionMatrix([[5, 1, 0], [2, 4, 0], [0, 0, 0]], labels=["a", "b", "c"])
    never = ConfusionMatrix([[5, 1, 0], [2, 4, 0], [1, 2, 0]], labels=["a", "b", "c"])
    r = compute_metrics(absent, ["macro_recall", "macro_precision"], undefined="baseline")
    assert {u.value for u in r.undefined} == {1.0}  # absent from both: 1
    r = compute_metrics(never, ["macro_precision"], undefined="baseline")
    assert [u.value for u in r.undefined] == [pytest.approx(3 / 15)]  # a_i / n


# -- 8. one seed rule: each interval is advisor compute's ------------------------------------------
def test_unpaired_intervals_use_the_same_seed_as_compute(tmp_path: Path) -> None:
    mats = {"a": [[40, 10, 5], [8, 30, 2], [3, 4, 20]], "b": [[35, 15, 5], [10, 25, 5], [6, 6, 15]]}
    files = []
    for name, m in mats.items():
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps({"labels": ["x", "y", "z"], "matrix": m}), encoding="utf-8")
        files.append(f)
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: multiclass\nclass_weighting: equal\n", encoding="utf-8")
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["report", "--answers", str(answers), "--matrix", str(files[0]), "--matrix",
                              str(files[1]), "--bootstrap", "300", "--seed", "11", "-o", str(out)])
    assert res.exit_code == 0, res.output
    ctx = load_context(out)
    assert ctx.intervals is not None and not ctx.intervals.paired and ctx.intervals.seed == 11
    for f in files:
        res = runner.invoke(app, ["compute", "--matrix", str(f), "--bootstrap", "300", "--seed", "11", "--json"])
        assert res.exit_code == 0, res.output
        computed = json.loads(res.stdout)["intervals"]
        (name, intervals), = computed.items()
        rep = next(s for s in ctx.systems if s.name == name)
        assert rep.intervals
        for mid, est in rep.intervals.items():
            assert est.low == pytest.approx(intervals[mid]["low"], abs=1e-12), (name, mid)
            assert est.high == pytest.approx(intervals[mid]["high"], abs=1e-12), (name, mid)
    said = _text([p for p in ctx.methods if p.heading == "Evaluation"])
    # issue 10: no CLI flags in the paragraph; the seed and that it is shared stay
    assert "seed 11, the same for every system" in said and "advisor compute" not in said


# -- 9., 10. a context file is user input: formulas and BibTeX ------------------------------------
@pytest.fixture()
def hostile_context(tmp_path: Path) -> Path:
    from advisor.engine._confusion import ConfusionMatrix

    ctx = build_report(Answers(task="binary", positive_class=1), {"s": ConfusionMatrix([[50, 10], [5, 35]])},
                       bootstrap=0)
    data = json.loads(ctx.model_dump_json())
    evil = r"\text{<script>alert(1)</script>}"
    data["metrics"][0]["formula"] = evil
    data["methods"][0]["spans"].append({"kind": "math", "text": evil, "keys": []})
    data["methods"][0]["spans"].append({"kind": "math", "text": r"x \input{/etc/passwd}", "keys": []})
    assert data["references"], "the report cites something"
    data["references"][0]["bibtex"] = "@misc{x, note = {\\immediate\\write18{rm -rf /}}}"
    data["references"].append({"key": "evil", "text": "Evil", "short": "Evil",
                               "bibtex": "@misc{evil, title = {\\openout\\x=/tmp/pwn}}"})
    path = tmp_path / "context.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_html_formulas_from_a_context_are_checked(hostile_context: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", "--context", str(hostile_context), "-o", str(out)])
    assert res.exit_code == 0, res.output
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as text
    assert r"\input{/etc/passwd}" in html  # refused by the allow-list, shown as text


def test_bib_comes_from_advisors_references_by_key(hostile_context: Path, tmp_path: Path) -> None:
    from advisor.catalogue import BIB_FILE
    from advisor.report._bib import parse_bibtex

    out = tmp_path / "r.tex"
    res = runner.invoke(app, ["report", "--context", str(hostile_context), "-o", str(out)])
    assert res.exit_code == 0, res.output
    bib = out.with_suffix(".bib").read_text(encoding="utf-8")
    assert "write18" not in bib and "openout" not in bib and "@misc{evil" not in bib
    ctx = json.loads(hostile_context.read_text(encoding="utf-8"))
    packaged = parse_bibtex(BIB_FILE.read_text(encoding="utf-8"))
    first = ctx["references"][0]["key"]
    assert packaged[first].raw.strip() in bib


# -- 11. small test sets: the recommendation's warning, no second threshold -------------------------
def test_small_sample_warning_comes_from_the_recommendation() -> None:
    from advisor.engine._confusion import ConfusionMatrix
    from advisor.questionnaire import recommend

    small = {"s": ConfusionMatrix([[8, 2], [3, 7]])}
    ctx = build_report(Answers(task="binary"), small, bootstrap=0)
    assert [w.source for w in ctx.warnings if w.code == "small_sample"] == ["recommendation"]
    rec = recommend(Answers(task="binary"))  # no data, so no small_sample warning in it
    ctx = build_report(Answers(task="binary"), small, bootstrap=0, recommendation=rec)
    assert not [w for w in ctx.warnings if w.code == "small_sample"]


def test_answers_and_matrices_as_plain_mappings() -> None:
    ctx = build_report({"task": "binary", "positive_class": 1}, {"a": [[50, 10], [5, 35]]}, bootstrap=0)
    assert ctx.systems[0].values["accuracy"] == pytest.approx(0.85)
