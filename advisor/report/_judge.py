"""A judge (an LLM, a model) against human raters in the report (issue 22): the figures, their table, the opening of
the methods paragraph and the definitions of what it compares.

The plan's ``judge_agreement`` diagnostic names the judge; the engine (:func:`advisor.engine.judge_comparison`) gives
each pair's agreement rate and Cohen's kappa (weighted for ordered categories) on the items both rated, and Δ, the
judge's mean with the humans minus the humans' mean with each other; the structured bootstrap
(:func:`advisor.stats.structure_bootstrap`) resamples the items once for every figure, so both sides of Δ come from
the same resampled items (a paired interval). The methods paragraph opens with this comparison, as Zheng et al.
(2023) set an LLM judge beside human experts; Krippendorff's alpha over the human raters alone (without the judge)
follows as the summary of the baseline. "As well as the humans" needs a margin fixed in advance: with the answers'
``margin`` the lead figure's Δ gets a one-sided verdict (:mod:`._margins`), without one the paragraph calls Δ
descriptive.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from .._exceptions import InputError
from ..engine import judge_comparison, judge_ratings, resolve_judge, tie_category
from ..plan import Plan
from ..questionnaire import plural
from ..stats import structure_bootstrap
from . import _methods_text as W
from ._margins import humans_noun, judge_margin_sentence, judge_verdict_words, margin_text, verdict
from ._methods_lists import Text, systems_in_words, where_clause
from ._models import MetricEntry, TableBlock

__all__ = ["JUDGE_SOURCE", "check_judge", "definitions_for", "judge_definitions", "judge_figures", "judge_said", "judge_sentences", "judge_table"]

#: The work that compares an LLM judge with human raters this way.
JUDGE_SOURCE = "zheng2023judging"
_METHOD = {"bca": "BCa", "percentile": "percentile", "basic": "basic", "studentized": "studentized"}
#: Δ over the judge–human and the human–human pairs (H human raters; the agreement rate's Δ is the same with rates).
DELTA_FORMULA = r"\Delta=\frac{1}{H}\sum_{h=1}^{H}\kappa_{Jh}-\frac{2}{H(H-1)}\sum_{h<h'}\kappa_{hh'}"


def judge_said(answers: Mapping[str, Any], promised: Any) -> bool:
    """Whether the paragraph opens with the judge comparison: the report shows it (or, before data, the answers name
    a judge among two or more annotators)."""
    if promised is None:
        return bool(answers.get("judge")) and bool(answers.get("annotators"))
    return W.PROMISE["judge_agreement"] in promised


def check_judge(judge: str | None, inputs: Any) -> None:
    """One sentence, before any work, when the answers name a judge that is not one of the raters or the inputs are
    not ratings."""
    if judge is None:
        return
    if inputs is None or getattr(inputs, "structure", None) != "agreement":
        raise InputError(f"the answers name a judge ({judge!r}) to compare with human raters, but these inputs are "
                         "not ratings; give one CSV with a rater_<name> column per rater, the judge's included.")
    resolve_judge(inputs.systems["agreement"].raters, judge)


def judge_figures(plan: Plan, inputs: Any, bootstrap: int, confidence: float, seed: int | None, undefined: str,
                  item_name: str | None = None) -> dict[str, Any] | None:
    """The judge comparison of the plan on the ratings, with an interval for every figure (the same resamples of the
    items for all), or None when the plan has none or the inputs are not ratings."""
    d = plan.diagnostic("judge_agreement")
    if d is None or getattr(inputs, "structure", None) != "agreement":
        return None
    jr = judge_ratings(inputs.systems["agreement"], str(d.params["judge"]), weighted=bool(d.params.get("weighted")),
                       ties=bool(d.params.get("ties")))
    out = judge_comparison(jr, undefined)
    out["confidence"], out["resamples"], out["seed"] = confidence, bootstrap, seed
    out["unit"] = plural(item_name) if item_name else "items"
    if bootstrap <= 0:
        return out
    bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=bootstrap, confidence=confidence, seed=seed,
                             undefined=undefined)
    for p, row in enumerate(out["rows"]):
        row["intervals"] = {q: _band(bs.get(f"{q}#{p}")) for q in jr.quantities}
    if out["delta"] is not None:
        out["delta_intervals"] = {q: _band(bs.get(f"delta_{q}")) for q in jr.quantities}
        margin = d.params.get("margin")
        if isinstance(margin, (int, float)):  # the lead figure's Δ against the margin: one-sided, non-inferiority
            lead = "weighted_kappa" if jr.weighted else "kappa"
            band = out["delta_intervals"].get(lead) or [None, None]
            out["margin"] = {"margin": float(margin), "quantity": lead, "sided": "one",
                             "verdict": verdict(band[0], band[1], float(margin), "one")}
    out["methods"] = sorted({str(r.get("method")) for r in bs.values() if r.get("method") in _METHOD})
    return out


def _band(r: Mapping[str, Any] | None) -> list[float] | None:
    if not r:
        return None
    lo, hi = r.get("low"), r.get("high")
    if lo is None or hi is None or not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    return [float(lo), float(hi)]


def _cell(v: float | None, band: list[float] | None, digits: int) -> str:
    if v is None:
        return "—"
    d = max(min(digits, 3), 2)
    return f"{v:.{d}f}" + (f" [{band[0]:.{d}f}, {band[1]:.{d}f}]" if band else "")


def judge_table(figures: Mapping[str, Any] | None, digits: int) -> TableBlock | None:
    """One row per human rater with the judge's agreement rate and kappa, the rows of the pairs of humans, and the Δ
    row with its interval; the items in the answers' words (``figures["unit"]``)."""
    if not figures:
        return None
    weighted = bool(figures.get("weighted"))
    ties = any("agreement_no_tie" in row for row in figures["rows"])
    qs = ["agreement", *(["agreement_no_tie"] if ties else []), "kappa", *(["weighted_kappa"] if weighted else [])]
    unit = str(figures.get("unit") or "items")
    rows = []
    for row in figures["rows"]:
        who = f"judge {row['first']} – {row['second']}" if row["judge"] else f"{row['first']} – {row['second']}"
        bands = row.get("intervals") or {}
        rows.append([who, f"{int(row['items']):,}", *(_cell(row.get(q), bands.get(q), digits) for q in qs)])
    delta = figures.get("delta")
    if delta is not None:
        bands = figures.get("delta_intervals") or {}
        common = figures.get("rated_by_all")
        rows.append(["Δ: judge–human mean − human–human mean", "" if common is None else f"{int(common):,}",
                     *(_cell(delta.get(q), bands.get(q), digits) for q in qs)])
    conf = f"{float(figures.get('confidence', 0.95)):.0%}"
    methods = " or ".join(_METHOD[m] for m in figures.get("methods") or [])
    paired = (f"; each resample gives every row, so both sides of Δ are computed on the same resampled {unit}"
              if delta is not None else "")
    band = (f" In brackets: {conf} {methods} intervals from {int(figures['resamples']):,} bootstrap resamples of "
            f"the {unit}{paired}." if figures.get("methods") else "")
    no_tie = (f" The agreement without ties is that share among the {unit} neither rater of the pair called a tie "
              f"(Zheng et al. 2023)." if ties else "")
    if delta is not None:
        caption = (f"The judge ({figures['judge']}) against each human rater, then the human raters against each "
                   f"other, each pair on the {unit} both rated; the agreement rate is the share of those {unit} put in "
                   f"the same category.{no_tie} Δ compares the pairs on the {unit} every rater rated, so both of its sides "
                   f"count the same {unit}.{band}")
    else:
        caption = (f"The judge ({figures['judge']}) against the human rater on the {unit} both rated; the agreement "
                   f"rate is the share of those {unit} put in the same category.{no_tie} With one human rater there is no "
                   f"agreement among humans to set the judge beside, so no difference is given.{band}")
    m = figures.get("margin")
    if m and delta is not None:  # the verdict of the lead figure's Δ against the margin fixed in advance
        lead = "the weighted kappa's Δ" if m["quantity"] == "weighted_kappa" else "Δ of Cohen's kappa"
        caption += (f" Verdict on {lead} against the margin {margin_text(m['margin'])} fixed in advance: "
                    f"{judge_verdict_words(m.get('verdict'), m['margin'])}.")
    kappa = ["Cohen's kappa", *(["weighted kappa (quadratic)"] if weighted else [])]
    return TableBlock(id="judge_agreement", title="The judge against the human raters", caption=caption,
                      columns=["raters", f"{unit} both rated", "agreement rate",
                               *(["agreement without ties"] if ties else []), *kappa],
                      numeric=[False, True, *([True] * len(qs))], rows=rows)


def judge_sentences(p: Text, answers: Mapping[str, Any], cite_keys: list[str], humans: int | None,
                    weighted: bool, intervals: bool = True, confidence: float | None = None) -> None:
    """The opening of the argument: what is compared, on which items, what Δ and its interval (when the report
    gives intervals) rest on, and the decision rule against the author's margin (or, without one, that Δ is
    descriptive)."""
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    one = humans is not None and humans < 2
    noun = judge_noun(answers)
    own = noun != "judge"  # the rater's name is the author's own word for it: no "the judge is the rater …"

    people = humans_noun(answers)  # "pathologists" when the context counts them so, else "human raters"

    def said(text: str) -> str:
        if own:
            text = text.replace("judge's", f"{noun}'s").replace("the judge", f"the {noun}")
        if people != "human raters":  # the author's word for the humans, as for the judge
            one_person = people[:-1]
            text = (text.replace("each human rater", f"each {one_person}")
                    .replace("the human raters'", f"the {people}'").replace("two humans'", f"two {people}'")
                    .replace("with the humans", f"with the {people}"))
        return text

    if one:  # one human: the judge against that rater, and no baseline to set it beside
        p.t(W.S["judge_compare_one"].format(judge=noun, items=items)).cite(cite_keys).t(". ")
    else:
        p.t(said(W.S["judge_compare"])).cite(cite_keys).t(". ")
    # a pairwise preference with a tie: Zheng et al. (2023) give agreement with and without ties (the LLM-judge
    # reader), the latter defined as computed. Their test of position bias swaps the answers; no answer says in which
    # order the answers were shown, or whether they were swapped, so nothing is said of it (the same reader: "'One
    # order of the answers cannot show position bias' dangles")
    tie = tie_category(list(answers.get("classes") or []))
    ties = tie is not None
    if ties and not one:
        p.t(W.S["judge_figures_ties"].format(items=items))
    else:
        p.t(W.S["judge_figures_one" if one else "judge_figures"].format(items=items))
    if weighted:
        p.t(W.S["judge_weighted"])
    p.t(". ")
    if tie is not None and not one:
        p.t(W.S["judge_no_tie"].format(items=items, tie=list(answers.get("classes") or [])[tie]) + ". ")
    # with two humans the baseline is one pair's agreement, not a mean
    humans_said = W.S["judge_humans_two" if humans == 2 else "judge_humans_mean"]
    m = (systems_in_words(humans + 1, {}) if humans is not None else None) or "the raters"
    lead = "" if weighted else "_lead"  # Δ of Cohen's kappa leads, named so; the weighted kappa's says it apart
    delta = (W.S["judge_delta" + lead].format(items=items, humans=humans_said, m=m) if intervals
             else W.S["judge_delta" + lead + "_plain"].format(humans=humans_said, m=m, items=items))
    p.t(said(W.S["judge_one_human"] if one else delta) + ". ")
    if weighted and not one:  # which Δ answers the question (issue 22, the grading reader: "never named")
        p.t(W.S["judge_weighted_answer"] + ". ")
    if not one:  # "as well as the humans" needs a margin fixed in advance, else Δ is descriptive
        judge_margin_sentence(p, answers, noun, weighted, confidence, intervals)


def judge_noun(answers: Mapping[str, Any]) -> str:
    """What the paragraph calls the judge: the rater's own name when the author's context calls it that ("by the
    model", issue 22: the grading reader read "judge" for the author's model), else "judge".

    >>> judge_noun({"judge": "model", "context": "graded by two pathologists and by the model"})
    'model'
    >>> judge_noun({"judge": "llm", "context": "an LLM judge and two human raters"})
    'judge'
    """
    name = str(answers.get("judge") or "")
    context = str(answers.get("context") or "")
    if name and re.fullmatch(r"[A-Za-z][A-Za-z -]*", name) and re.search(rf"\bthe {re.escape(name)}\b", context,
                                                                          re.IGNORECASE):
        return name.lower()
    return "judge"


def judge_symbol(noun: str) -> str:
    """The judge's letter in the formulas: the initial of the author's word for it ("M" for the model), "J" for a
    judge or where the initial is taken (H counts the humans; C, K, N are the matrix and its counts).

    >>> judge_symbol("model"), judge_symbol("judge"), judge_symbol("human-like"), judge_symbol("classifier")
    ('M', 'J', 'J', 'J')
    """
    letter = noun[:1].upper()
    return letter if letter.isalpha() and letter.isascii() and letter not in "HCKN" else "J"


def delta_formula(symbol: str = "J", weighted: bool = False) -> str:
    """Δ over the judge–human and the human–human pairs, in the lead figure: the quadratically weighted kappa for
    ordered categories, else Cohen's kappa."""
    k = r"\kappa^{w}" if weighted else r"\kappa"
    return (rf"\Delta=\frac{{1}}{{H}}\sum_{{h=1}}^{{H}}{k}_{{{symbol}h}}-\frac{{2}}{{H(H-1)}}\sum_{{h<h'}}{k}_{{hh'}}")


def judge_definitions(cat: Any, weighted: bool, humans: int | None, noun: str = "judge") -> list[MetricEntry]:
    """The formulas of what the comparison reports, from the catalogue (accuracy's for the agreement rate, Cohen's
    kappa, the quadratically weighted kappa), with every symbol defined for a pair of raters; and Δ of the lead
    figure, the judge named by the author's word ("the model $M$")."""
    pair = {"C_{ij}": "the number of items the first rater of a pair put in category $i$ and the second in $j$",
            "n": "the number of items both rated",
            "k": "the number of categories"}
    out = [MetricEntry(id="judge_agreement_rate", name="Agreement rate of two raters",
                       formula=cat.metrics["accuracy"].formula, role="complementary", where=where_clause(pair)),
           MetricEntry(id="judge_cohen_kappa", name="Cohen's kappa of two raters",
                       formula=cat.metrics["cohen_kappa"].formula, role="complementary",
                       where=where_clause({"a_i, b_i": "how often the first and the second rater chose category $i$ "
                                                  "(the row and column sums of $C$)"}))]
    if weighted:
        rec = cat.metrics["weighted_kappa_quadratic"]
        out.append(MetricEntry(id="judge_weighted_kappa", name="Quadratically weighted kappa of two raters",
                               formula=rec.formula, role="complementary", where=where_clause(rec.symbols)))
    if humans is None or humans >= 2:
        j = judge_symbol(noun)
        k = r"\kappa^{w}" if weighted else r"\kappa"
        lead = "the quadratically weighted kappa" if weighted else "Cohen's kappa"
        others = "of the agreement rate and of Cohen's kappa are" if weighted else "of the agreement rate is"
        out.append(MetricEntry(
            id="judge_delta", name=f"Δ, the {noun} against the humans", formula=delta_formula(j, weighted),
            role="complementary",
            where=where_clause({f"{k}_{{{j}h}}": f"{lead} of the {noun} ${j}$ and human rater $h$ on the items every "
                                                 "rater rated",
                                f"{k}_{{hh'}}": "that of human raters $h$ and $h'$ on the same items",
                                "H": f"the number of human raters; Δ {others} the same with those figures in place "
                                     f"of the {'weighted ' if weighted else ''}kappas"})))
    return out


def definitions_for(plan: Plan | None, cat: Any, promised: Any) -> list[MetricEntry]:
    """The definitions of the judge comparison when the methods paragraph says it (else none: no clause for
    nothing)."""
    d = plan.diagnostic("judge_agreement") if plan is not None else None
    if plan is None or d is None or not judge_said({"judge": d.params.get("judge"),
                                                    "annotators": plan.task.annotators}, promised):
        return []
    said = {u.key: u.value for u in plan.answers}  # the author's word for the judge, from the context
    return judge_definitions(cat, bool(d.params.get("weighted")), d.params.get("humans"),
                             judge_noun({"judge": d.params.get("judge"), "context": said.get("context")}))
