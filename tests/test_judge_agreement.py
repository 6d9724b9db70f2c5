"""A judge (an LLM, a model) against human raters (issue 22): does it agree with the humans as well as they agree with
each other?

The engine's figures are checked against scikit-learn's ``cohen_kappa_score`` (``weights="quadratic"`` for ordered
categories) and a count by hand; a pair leaves out the items one of the two did not rate; Δ's paired interval from
the structured bootstrap contains its estimate; the answers key ``judge`` is refused in one sentence when it cannot
hold; the CLI refuses a judge that is not a rater before any work; the methods paragraph opens with the comparison
(Zheng et al. 2023) and the report's table has a row per human rater, the human pairs and the Δ row.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.metrics import cohen_kappa_score
from typer.testing import CliRunner

from advisor import InputError
from advisor.catalogue import get_catalogue
from advisor.cli import app
from advisor.engine import evaluate_judge_batch, judge_comparison, judge_ratings, ratings_table
from advisor.plan import make_plan
from advisor.questionnaire import answers_from_mapping, load_answers
from advisor.report import build_report, render_report
from advisor.stats import structure_bootstrap

SITUATIONS = Path(__file__).parent / "situations"
RATERS = ["rater_llm", "rater_ann", "rater_bob"]


def _noisy(rng: np.random.Generator, truth: np.ndarray, p: float, k: int) -> np.ndarray:
    x = truth.copy()
    flip = rng.random(truth.size) < p
    x[flip] = rng.integers(0, k, int(flip.sum()))
    return x


def _table(n: int = 200, seed: int = 0, missing: bool = True, labels=("A", "B", "tie")) -> list[list]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, len(labels), n)
    cols = [_noisy(rng, truth, p, len(labels)) for p in (0.45, 0.3, 0.3)]
    rows = [[labels[c[i]] for c in cols] for i in range(n)]
    if missing:
        for i in range(n):
            if i % 17 == 3:
                rows[i][1] = None  # ann left these out
            if i % 29 == 7:
                rows[i][0] = None  # and the judge these
    return rows


def _pair(rows: list[list], a: int, b: int) -> tuple[list, list]:
    both = [r for r in rows if r[a] is not None and r[b] is not None]
    return [r[a] for r in both], [r[b] for r in both]


def _common(rows: list[list]) -> list[list]:
    """The items every rater rated: Δ's two sides are taken on these (the LLM-judge reader)."""
    return [r for r in rows if all(v is not None for v in r)]


# ----------------------------------------------------------------------------------------------
# Engine
# ----------------------------------------------------------------------------------------------
def test_every_pair_is_scikit_learns_kappa_and_the_agreement_rate_by_hand() -> None:
    rows = _table()
    c = judge_comparison(judge_ratings(ratings_table(rows, RATERS), "llm"))
    assert [(r["first"], r["second"], r["judge"]) for r in c["rows"]] == [
        ("rater_llm", "rater_ann", True), ("rater_llm", "rater_bob", True), ("rater_ann", "rater_bob", False)]
    index = {name: j for j, name in enumerate(RATERS)}
    for row in c["rows"]:
        x, y = _pair(rows, index[row["first"]], index[row["second"]])  # the items both rated, no others
        assert row["items"] == len(x) < len(rows)  # every pair lost some items to a missing rating
        assert row["agreement"] == pytest.approx(sum(u == v for u, v in zip(x, y)) / len(x), abs=1e-12)
        assert row["kappa"] == pytest.approx(cohen_kappa_score(x, y), abs=1e-12)
    # Δ on the items all three rated, every pair's figure taken again there, so both sides count the same items
    common = _common(rows)
    assert c["rated_by_all"] == len(common) < max(r["items"] for r in c["rows"])  # fewer than some pair rated
    pairs = [_pair(common, index[r["first"]], index[r["second"]]) for r in c["rows"]]
    kappas = [cohen_kappa_score(x, y) for x, y in pairs]
    rates = [sum(u == v for u, v in zip(x, y)) / len(x) for x, y in pairs]
    assert c["delta"]["kappa"] == pytest.approx((kappas[0] + kappas[1]) / 2 - kappas[2], abs=1e-12)
    assert c["delta"]["agreement"] == pytest.approx((rates[0] + rates[1]) / 2 - rates[2], abs=1e-12)
    assert "weighted_kappa" not in c["rows"][0]  # nominal categories: no weighted kappa


def test_the_agreement_rate_and_missing_ratings_by_hand() -> None:
    rows = [["a", "a", "a"], ["a", "b", None], ["b", "b", "b"], [None, "a", "b"], ["b", "a", "a"]]
    c = judge_comparison(judge_ratings(ratings_table(rows, RATERS), "rater_llm"))  # the column's name also works
    by_pair = {(r["first"], r["second"]): r for r in c["rows"]}
    # llm–ann: items 0, 1, 2, 4 (item 3 has no judge rating): same on 0 and 2
    assert by_pair[("rater_llm", "rater_ann")]["items"] == 4
    assert by_pair[("rater_llm", "rater_ann")]["agreement"] == pytest.approx(2 / 4)
    # llm–bob: items 0, 2, 4 (bob left item 1 out): same on 0 and 2
    assert by_pair[("rater_llm", "rater_bob")]["items"] == 3
    assert by_pair[("rater_llm", "rater_bob")]["agreement"] == pytest.approx(2 / 3)
    # ann–bob: items 0, 2, 3, 4: same on 0, 2 and 4
    assert by_pair[("rater_ann", "rater_bob")]["items"] == 4
    assert by_pair[("rater_ann", "rater_bob")]["agreement"] == pytest.approx(3 / 4)
    # Δ on items 0, 2 and 4, which all three rated: llm–ann 2/3, llm–bob 2/3, ann–bob 3/3
    assert c["rated_by_all"] == 3
    assert c["delta"]["agreement"] == pytest.approx((2 / 3 + 2 / 3) / 2 - 3 / 3)


@pytest.mark.parametrize("labels,declared", [((1, 2, 3), False), (("low", "mid", "high"), True)])
def test_ordered_categories_get_scikit_learns_quadratic_kappa(labels, declared) -> None:
    rows = _table(labels=labels, seed=3)
    r = ratings_table(rows, RATERS, list(labels) if declared else None)
    c = judge_comparison(judge_ratings(r, "llm", weighted=True))
    rank = {lab: i for i, lab in enumerate(labels)}  # the declared order's ranks, or the numbers themselves
    index = {name: j for j, name in enumerate(RATERS)}
    for row in c["rows"]:
        x, y = _pair(rows, index[row["first"]], index[row["second"]])
        assert row["weighted_kappa"] == pytest.approx(
            cohen_kappa_score([rank[v] for v in x], [rank[v] for v in y], weights="quadratic"), abs=1e-10)
        assert row["kappa"] == pytest.approx(cohen_kappa_score(x, y), abs=1e-12)
    common = _common(rows)  # Δ on the items all three rated
    w = [cohen_kappa_score(*([rank[v] for v in side] for side in _pair(common, index[row["first"]],
                                                                        index[row["second"]])), weights="quadratic")
         for row in c["rows"]]
    assert c["delta"]["weighted_kappa"] == pytest.approx((w[0] + w[1]) / 2 - w[2], abs=1e-10)


def test_the_kappa_weights_by_the_values_of_numbered_categories_as_the_ordinal_engine_does() -> None:
    """Numbers whose order was not declared: 1 → 5 is 4 apart, as in the ordinal engine (scikit-learn counts ranks)."""
    rows = [[1, 1, 1], [1, 2, 5], [5, 5, 2], [2, 5, 5], [2, 1, 2]]
    c = judge_comparison(judge_ratings(ratings_table(rows, RATERS), "llm", weighted=True))
    x, y = (np.asarray(v, float) for v in _pair(rows, 0, 1))
    values = np.array([1.0, 2.0, 5.0])
    observed = np.array([[np.sum((x == u) & (y == v)) for v in values] for u in values]) / x.size
    expected = np.outer([np.mean(x == u) for u in values], [np.mean(y == v) for v in values])
    w = (values[:, None] - values[None, :]) ** 2
    by_hand = 1 - (w * observed).sum() / (w * expected).sum()  # Cohen (1968)
    assert c["rows"][0]["weighted_kappa"] == pytest.approx(by_hand, abs=1e-12)
    assert by_hand != pytest.approx(cohen_kappa_score(x, y, weights="quadratic"))  # ranks would weigh 1 → 5 as 2
    declared = judge_comparison(judge_ratings(ratings_table(rows, RATERS, [1, 2, 5]), "llm", weighted=True))
    assert declared["rows"][0]["weighted_kappa"] == pytest.approx(cohen_kappa_score(x, y, weights="quadratic"))


def test_unordered_categories_refuse_a_weighted_kappa() -> None:
    with pytest.raises(InputError, match="order of the categories"):
        judge_ratings(ratings_table(_table(), RATERS), "llm", weighted=True)


def test_with_one_human_there_is_no_baseline_and_no_delta() -> None:
    rows = [r[:2] for r in _table(missing=False)]
    jr = judge_ratings(ratings_table(rows, RATERS[:2]), "llm")
    c = judge_comparison(jr)
    assert c["delta"] is None and len(c["rows"]) == 1
    assert not [m for m in jr.ids() if m.startswith("delta")]


def test_item_weights_are_repeated_items() -> None:
    """The bootstrap's weights count items: weight 2 is the item twice."""
    rows = _table(n=40, seed=5)
    jr = judge_ratings(ratings_table(rows, RATERS), "llm")
    w = np.random.default_rng(1).integers(0, 3, len(rows)).astype(float)
    weighted = evaluate_judge_batch(jr, None, w[None, :])
    repeated = [r for r, times in zip(rows, w) for _ in range(int(times))]
    again = evaluate_judge_batch(judge_ratings(ratings_table(repeated, RATERS, ["A", "B", "tie"]), "llm"), None,
                                 np.ones((1, len(repeated))))
    for m, v in weighted.items():
        assert v[0] == pytest.approx(again[m][0], abs=1e-12), m


def test_the_paired_interval_of_delta_contains_its_estimate() -> None:
    jr = judge_ratings(ratings_table(_table(), RATERS), "llm")
    point = judge_comparison(jr)["delta"]
    bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=1000, seed=11)
    for q in ("agreement", "kappa"):
        r = bs[f"delta_{q}"]
        assert r["estimate"] == pytest.approx(point[q], abs=1e-12)
        assert r["method"] in ("bca", "percentile")
        assert r["low"] <= r["estimate"] <= r["high"], (q, r)
    # paired: one resample gives both sides, so Δ's spread is not the sum of the sides' spreads
    assert bs["delta_kappa"]["high"] - bs["delta_kappa"]["low"] < (
        (bs["kappa#0"]["high"] - bs["kappa#0"]["low"]) + (bs["kappa#2"]["high"] - bs["kappa#2"]["low"]))


# ----------------------------------------------------------------------------------------------
# Answers and plan
# ----------------------------------------------------------------------------------------------
def test_the_answers_key_is_checked_in_one_sentence() -> None:
    assert answers_from_mapping({"annotators": 3, "judge": "llm"}).judge == "llm"
    with pytest.raises(InputError) as e:
        answers_from_mapping({"judge": "llm"})
    assert "'judge'" in str(e.value) and "'llm'" in str(e.value) and "annotators" in str(e.value)
    with pytest.raises(InputError) as e:
        answers_from_mapping({"annotators": 3, "judge": "gpt 4"})
    assert "'judge'" in str(e.value) and "rater_<name>" in str(e.value)


def test_the_plan_records_where_the_judge_went() -> None:
    plan = make_plan(SITUATIONS / "llm_judge.yaml")
    assert plan.diagnostics[0].id == "judge_agreement"
    assert plan.diagnostics[0].params["judge"] == "llm"
    use = next(a for a in plan.answers if a.key == "judge")
    assert use.value == "llm" and use.used_by and use.unused is None
    rate = next(a for a in plan.answers if a.key == "planned_metrics" and a.value == "agreement rate")
    assert rate.used_by and rate.unused is None  # reported with the judge comparison, not "unknown"


# ----------------------------------------------------------------------------------------------
# Report and CLI
# ----------------------------------------------------------------------------------------------
def _write(tmp_path: Path, rows: list[list], judge: str = "llm") -> tuple[Path, Path]:
    data = tmp_path / "ratings.csv"
    with data.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(RATERS)
        w.writerows([["" if v is None else v for v in r] for r in rows])
    answers = yaml.safe_load((SITUATIONS / "llm_judge.yaml").read_text())
    answers["judge"] = judge
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(answers))
    return path, data


def _report(answers: Path, data: Path, out: Path, bootstrap: int) -> str:
    """The Markdown report of ``advisor report`` on these ratings (exit 0 checked)."""
    res = CliRunner().invoke(app, ["report", "--answers", str(answers), str(data), "--seed", "3", "--bootstrap",
                                   str(bootstrap), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out.read_text()


def test_an_unknown_judge_is_one_sentence_naming_the_raters(tmp_path: Path) -> None:
    answers, data = _write(tmp_path, _table(), judge="gpt4")
    res = CliRunner().invoke(app, ["report", "--answers", str(answers), str(data), "-o", str(tmp_path / "r.md")])
    assert res.exit_code != 0
    assert "Traceback" not in res.output and not isinstance(res.exception, (KeyError, ValueError, TypeError))
    line = next(ln for ln in res.output.splitlines() if "gpt4" in ln)
    assert "llm, ann, bob" in line and line.count(". ") == 0 and line.rstrip().endswith(".")
    assert not (tmp_path / "r.md").exists()


def _sentences(text: str) -> list[str]:
    import re

    return [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", text) if s]


def test_the_methods_paragraph_opens_with_the_comparison() -> None:
    ctx = build_report(load_answers(SITUATIONS / "llm_judge.yaml"), None, bootstrap=2000, seed=1)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    text = "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)
    said = _sentences(text)
    first = next(i for i, s in enumerate(said) if "We set the judge's agreement with each human" in s)
    assert said[first - 1].endswith("as well as the humans agree with each other.")  # right after the context
    alpha = next(i for i, s in enumerate(said) if s.startswith("Krippendorff's alpha"))
    assert first < alpha and "summarises the two human raters alone, without the judge" in said[alpha]  # the baseline
    # the lead is Δ of Cohen's kappa, which the question asks for, named in Δ's own sentence (the LLM-judge reader:
    # "the lead is never named"); alpha summarises and never leads
    assert not any(s.startswith("We lead with") for s in said)
    leads = [s for s in said if s.startswith("The lead figure is Δ of Cohen's kappa, the judge's mean with the humans")]
    assert len(leads) == 1 and "on the same resamples" in leads[0]
    assert any("bootstrap resamples of the answer pairs" in s for s in said)  # what a resample draws
    assert "agreement rate" in text and "Cohen's kappa" in text
    cited = [k for s in p.spans if s.kind == "cite" for k in s.keys]
    assert cited[0] == "zheng2023judging"
    assert "Zheng, L." in next(r.text for r in ctx.references if r.key == "zheng2023judging")
    # every formula shown is the catalogue's, with its symbols defined
    cat = get_catalogue().metrics
    defs = {d.name: d for d in ctx.definitions}
    assert defs["Cohen's kappa of two raters"].formula == cat["cohen_kappa"].formula
    assert defs["Agreement rate of two raters"].formula == cat["accuracy"].formula
    where = "".join(s.text for d in ctx.definitions if d.where for s in d.where.spans)
    for symbol in ("C_{ij}", "a_i, b_i", r"\kappa_{Jh}", r"\kappa_{hh'}", "H", "k"):
        assert symbol in where, symbol
    md = render_report(ctx, "md")
    assert "**Cohen's kappa of two raters**" in md and r"\Delta=" in md


def test_no_judge_no_clause() -> None:
    plain = yaml.safe_load((SITUATIONS / "llm_judge.yaml").read_text())
    plain.pop("judge")
    ctx = build_report(answers_from_mapping(plain), None, bootstrap=0)
    assert not ctx.definitions
    text = "".join(s.text for p in ctx.methods for s in p.spans)
    assert "difference Δ" not in text and "We set the judge" not in text


def test_the_report_table_and_its_numbers(tmp_path: Path) -> None:
    rows = _table()
    answers, data = _write(tmp_path, rows)
    md = _report(answers, data, tmp_path / "report.md", 500)
    table = md.split("*The judge against the human raters.*", 1)[1].split("\n\n", 2)[1]
    lines = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| raters")]
    assert [ln.split(" | ")[0] for ln in lines] == [
        r"| judge rater_llm – rater_ann", r"| judge rater_llm – rater_bob", r"| rater_ann – rater_bob",
        "| Δ: judge–human mean − human–human mean"]
    c = judge_comparison(judge_ratings(ratings_table(rows, RATERS), "llm"))
    assert f"{c['rows'][0]['kappa']:.3f} \\[" in lines[0]
    assert f"{c['delta']['kappa']:.3f} \\[" in lines[3]
    low, high = (float(x) for x in lines[3].rsplit("\\[", 1)[1].split("\\]")[0].split(", "))
    assert low <= round(c["delta"]["kappa"], 3) <= high
    methods = md.split("## Methods", 1)[1].split("## Results", 1)[0]
    assert methods.index("We set the judge") < methods.index("Krippendorff's alpha, which")
    assert "no annotator is taken as the reference" not in methods
    assert "We compare a judge with 2 human raters on 200 answer pairs in 3 categories." in methods


def test_one_human_is_said_without_a_baseline(tmp_path: Path) -> None:
    rows = [r[:2] for r in _table(missing=False)]
    data = tmp_path / "two.csv"
    with data.open("w", newline="") as f:
        csv.writer(f).writerows([RATERS[:2], *rows])
    answers = yaml.safe_load((SITUATIONS / "llm_judge.yaml").read_text())
    answers.update(annotators=2, judge="llm")
    path = tmp_path / "two.yaml"
    path.write_text(yaml.safe_dump(answers))
    md = _report(path, data, tmp_path / "two.md", 300)
    methods = md.split("## Methods", 1)[1].split("## Results", 1)[0]
    assert "With one human rater there is no agreement among humans to set the judge beside" in methods
    assert "difference Δ" not in methods and r"\Delta=" not in methods  # no clause, no formula for nothing
    assert "summarises both raters" in methods
    table = md.split("*The judge against the human raters.*", 1)[1].split("\n\n", 2)[1]
    assert "Δ" not in table and r"judge rater_llm – rater_ann" in table


def test_without_intervals_no_interval_is_announced() -> None:
    ctx = build_report(load_answers(SITUATIONS / "llm_judge.yaml"), None, bootstrap=0)
    text = "".join(s.text for p in ctx.methods for s in p.spans)
    assert "The lead figure is Δ of Cohen's kappa, taken on the answer pairs all three rated: the judge's mean with " \
           "the humans minus" in text and "resample" not in text


def test_with_a_judge_no_clause_is_said_for_nothing() -> None:
    """The reviewer of the LLM-judge paragraph (issue 22): "for complete designs" was a clause for nothing, and the
    table of every pair's kappa repeated the judge table's pairs."""
    from advisor.plan import make_plan
    from advisor.questionnaire import load_answers

    answers = load_answers(Path(__file__).parent / "situations" / "llm_judge.yaml")
    plan = make_plan(answers)
    ids = [d.id for d in plan.diagnostics]
    assert ids[0] == "judge_agreement" and "pairwise_kappa" not in ids
    ctx = build_report(answers, None, bootstrap=0)
    text = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "for complete designs" not in text and "Cohen's kappa of every pair of annotators" not in text


def test_a_complete_design_has_no_table_of_missing_ratings(tmp_path: Path) -> None:
    """Every rater rated every item: "how many items each annotator rated" is a table of zeros, neither shown nor
    promised; with missing ratings it is both."""
    for missing in (False, True):
        answers, data = _write(tmp_path, _table(missing=missing))
        md = _report(answers, data, tmp_path / f"report-{missing}.md", 0)
        assert ("*Ratings per annotator.*" in md) is missing
        assert ("how many items each annotator rated" in md.split("## Results", 1)[0]) is missing


def test_a_model_graded_against_pathologists_is_not_cited_as_an_llm_judge() -> None:
    """Zheng et al. (2023) compare an LLM judge with human experts; a grading model beside two pathologists gets the
    same comparison without that citation, and a planned quadratic weighted kappa is shown by the judge table."""
    answers = answers_from_mapping({
        "context": "Breast cancer resections are graded 1, 2 or 3 by two pathologists and by the model.",
        "item_name": "tumour", "field": "annotation_agreement", "label_structure": "ordinal", "task": "multiclass",
        "classes": [1, 2, 3], "annotators": 3, "judge": "model",
        "planned_metrics": ["quadratic weighted kappa"]})
    ctx = build_report(answers, None, bootstrap=0)
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    cited = {k for s in p.spans if s.kind == "cite" for k in s.keys}
    assert "zheng2023judging" not in cited
    # the author's word for the rater, from the context ("by the model"), not "judge" (issue 22, the grading reader)
    text = "".join(s.text for s in p.spans)
    assert "We set the model's agreement with each pathologist" in text and "the judge" not in text  # and theirs
    use = next(u for u in make_plan(answers).answers if u.key == "planned_metrics")
    assert use.used_by and use.used_by[0].startswith("shown for the judge and each human rater")


def test_alpha_argues_missing_ratings_only_where_they_count() -> None:
    """Two human raters: an item one of them left unrated has no pair, so alpha leaves it out as their kappa does,
    and its allowance for missing ratings is not argued; three human raters: it is (a second situation)."""
    def said(answers) -> str:
        ctx = build_report(answers, None, bootstrap=2000, seed=1)
        p = next(p for p in ctx.methods if p.heading == "Evaluation")
        return "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)

    two = said(load_answers(SITUATIONS / "llm_judge.yaml"))
    assert "Krippendorff's alpha, which corrects for chance, summarises the two human raters alone" in two
    assert "missing ratings" not in two
    three = {**yaml.safe_load((SITUATIONS / "llm_judge.yaml").read_text()), "annotators": 4,
             "context": "Three nurses and a triage model each sort emergency calls into urgent, soon or routine; we "
                        "ask whether the model agrees with the nurses as well as they agree with each other."}
    assert "which corrects for chance and allows missing ratings, summarises the 3 " in said(answers_from_mapping(three))
