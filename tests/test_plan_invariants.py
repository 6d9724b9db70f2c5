"""Issue 19, acceptance 2: what the user says is what is evaluated, and what the text says is what is computed.

Over every bundled answers file and a generated grid of 320 situations (``tests/_situations.py``):

* every answer given is used by the plan or listed as unused with a reason;
* no metric is both the lead (or beside it) and advised against;
* every metric the methods paragraph reports is a metric of the plan, every metric it advises against is one
  the plan avoids;
* every promise ("We also give …") is a diagnostic of the plan, and with data one the report shows;
* no premise in the text that the answers did not give;
* with data, every metric of the plan is computed for every system and appears in the report.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from advisor.catalogue import get_catalogue
from advisor.plan import make_plan
from advisor.questionnaire import QUESTIONS, Answers, answers_from_mapping, load_fields
from advisor.questionnaire._screen import lower_name
from advisor.questionnaire._words import SITUATION
from advisor import load_structured
from advisor.report import build_report, build_structured_report, render_report
from advisor.report._plan import PROMISE, promises

from _situations import bundled, grid

GRID = grid()
CASES = [*((name, a) for name, a in bundled()),
         *((f"grid[{i}]", answers_from_mapping(d)) for i, d in enumerate(GRID))]
IDS = [name for name, _ in CASES]


def test_the_grid_is_large_and_varied() -> None:
    assert len(GRID) >= 300
    leads = {make_plan(answers_from_mapping(d)).lead.id for d in GRID[:120]}
    assert len(leads) >= 8, leads  # the grid reaches many different leads


# ----------------------------------------------------------------------------------------------
# The plan
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "answers"), CASES, ids=IDS)
def test_every_answer_is_used_or_said_unused(name: str, answers: Answers) -> None:
    plan = make_plan(answers)
    keys = {a.key for a in plan.answers}
    given = set(answers.model_fields_set)
    assert given <= keys, f"{name}: answers not accounted for: {given - keys}"
    for use in plan.answers:
        assert bool(use.used_by) != bool(use.unused), f"{name}: {use.key} is neither used nor said unused: {use}"
        if use.unused:
            assert len(use.unused.split()) >= 5, use  # a reason, not a flag
    planned = [a.value for a in plan.answers if a.key == "planned_metrics"]
    assert planned == list(answers.planned_metrics if "planned_metrics" in given else [])


@pytest.mark.parametrize(("name", "answers"), CASES, ids=IDS)
def test_nothing_is_both_recommended_and_avoided(name: str, answers: Answers) -> None:
    plan = make_plan(answers)
    chosen = [m.id for m in plan.metrics]
    assert len(chosen) == len(set(chosen)), f"{name}: a metric twice: {chosen}"
    assert not set(chosen) & {a.id for a in plan.avoid}, name
    diagnostics = [d.id for d in plan.diagnostics]
    assert len(diagnostics) == len(set(diagnostics))


# ----------------------------------------------------------------------------------------------
# The text
# ----------------------------------------------------------------------------------------------
def _names() -> list[tuple[str, frozenset[str]]]:
    """(name in running text, the metric ids that go by it), longest first, for finding the metrics a sentence
    names ("Brier score" is the name of both Brier scores, told apart by their formulas)."""
    by_name: dict[str, set[str]] = {}
    for mid, rec in get_catalogue().metrics.items():
        if not rec.alias_of:
            by_name.setdefault(lower_name(rec.name).lower(), set()).add(mid)
    for field in load_fields().values():  # a field's own word names the metric ("weighted accuracy" of the murmur
        for mid, term in field.terms.items():  # challenge is its class-weighted accuracy, not accuracy)
            by_name.setdefault(term.lower(), set()).add(mid)
    return sorted(((n, frozenset(ids)) for n, ids in by_name.items()), key=lambda t: -len(t[0]))


NAMES = _names()
PARAMETERISED = [(r"(?<![\w-])top-(?!1\b)\d+ accuracy", "top_k_accuracy"),
                 (r"selective risk at [\d.]+% coverage", "selective_risk"),
                 (r"coverage at a risk of [\d.]+%", "coverage_at_risk"),
                 (r"coverage at the cut frozen for a risk of [\d.]+%", "coverage_guaranteed_risk"),
                 (r"tpr at an fpr of [\d.]+%", "tpr_at_fpr"),
                 (r"net benefit at risk thresholds? [\d.]+(?:(?:, | and )[\d.]+)*", "net_benefit")]


def _named(sentence: str) -> list[frozenset[str]]:
    """For each metric a sentence names, the ids its name can mean (longest names first, each span once)."""
    text = sentence.lower()
    found = []
    # a shared ending said once: "linearly and quadratically weighted kappa"
    text = re.sub(r"\b(\w+ly) and (\w+ly) (weighted kappa)", r"\1 \3 and \2 \3", text)
    # a name with its parameter (issue 22): "top-5 accuracy" is top-k accuracy ("top-1 accuracy" is accuracy)
    for pattern, mid in PARAMETERISED:
        if re.search(pattern, text):
            found.append(frozenset({mid}))
            text = re.sub(pattern, " ", text)
    for name, ids in NAMES:
        pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
        if re.search(pattern, text):
            found.append(ids)
            text = re.sub(pattern, " ", text)
    return found


def _listed_names(sentence: str, prefix: str) -> str:
    """The names of the metrics a listing sentence reports: each item's text before its appositive
    ("We also report accuracy, comparable …; and macro F1, the mean …" → "accuracy | macro F1")."""
    body = sentence.removeprefix(prefix).rstrip(".")
    return " | ".join(re.sub(r"^and ", "", part.strip()).split(", ")[0] for part in body.split(";"))


def _sentences(paragraph: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.])\s+(?=[A-Z])", paragraph) if s]


def _methods_paragraph(ctx: Any) -> str:
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)


def _plan_ids(plan: Any) -> set[str]:
    # net benefit is one plan metric per risk threshold, net_benefit@t (issue 21); the text names it once
    return {m.id for m in plan.metrics} | {m.id.split("@", 1)[0] for m in plan.metrics if "@" in m.id}


def _check_text(name: str, plan: Any, text: str, given: set[str], shown: list[str] | None) -> None:
    reported, avoided = _plan_ids(plan), {a.id for a in plan.avoid}
    for s in _sentences(text):
        # the author's use may come first: "Because the predicted probabilities are used as risks, we lead with …"
        s = re.sub(r"^Because [^,]*(?:“[^”]*”)?[^,]*, we lead with", "We lead with", s)
        field = re.match(r"As is customary in .*?, we also report (.*?)(?:, but do not lead| X |\.?$)", s)
        if field:  # the field's figure beside the lead (issue 22)
            extra = [ids for ids in _named(field.group(1)) if not ids & reported]
            assert not extra, f"{name}: the methods report {extra}, which the plan does not: {s!r}"
        elif s.startswith(("We lead with", "We also report", "We add", "Beside these we report")):
            prefix = next(p for p in ("We lead with", "We also report", "We add", "Beside these we report")
                          if s.startswith(p))
            names = s.split(", which ")[0] if prefix == "We lead with" else _listed_names(s, prefix)
            extra = [ids for ids in _named(names) if not ids & reported]
            assert not extra, f"{name}: the methods report {extra}, which the plan does not: {s!r}"
        elif s.startswith(("We do not rely on", "We do not report")):  # "report": set aside, not computed
            extra = [ids for ids in _named(s.split(", because")[0]) if not ids & avoided]
            if s.startswith("We do not report"):  # then none of them is reported
                assert not [ids for ids in _named(s.split(", because")[0]) if ids & reported], s
            assert not extra, f"{name}: the methods advise against {extra}, which the plan does not: {s!r}"
        elif s.startswith("We also give"):
            said = s.removeprefix("We also give ").rstrip(".")
            expected = promises(plan, shown)  # the paragraph may say fewer to stay within 220 words, never others
            made = [p for p in dict.fromkeys([*PROMISE.values(), *expected]) if p in said]  # subgroups: formatted
            # a promise said in the author's words ("…, among them the recall of “oos”") contains its plain form
            made = [p for p in made if p in expected or not any(p in e and e in said for e in expected)]
            assert made and set(made) <= set(expected), f"{name}: promises {said!r}, the report shows {expected}"
    # no premise the answers did not give
    premises = {"unknown": "deployment_prevalence", "shifted": "deployment_prevalence", "equal": "class_weighting",
                "per_instance": "class_weighting", "no_tn": "true_negatives_meaningful", "chance": "chance_correction",
                "risks": "risk_estimates"}
    for key, answer in premises.items():
        phrase = SITUATION.get(key)
        if phrase and phrase in text:
            assert answer in given, f"{name}: the text states {phrase!r}, which the answers did not give"


@pytest.mark.parametrize(("name", "answers"), CASES, ids=IDS)
def test_the_methods_say_only_what_the_plan_holds(name: str, answers: Answers) -> None:
    plan = make_plan(answers)
    ctx = build_report(answers, None, bootstrap=0)
    text = _methods_paragraph(ctx)
    _check_text(name, plan, text, set(answers.model_fields_set), None)
    assert ctx.plan is not None and ctx.plan["metrics"][0]["id"] == plan.lead.id
    # and the converse: every metric of the plan is named in the paragraph, not only among the formulas (issue 22:
    # ImageNet's top-1 accuracy had a formula and no word), in the field's own words where it has them
    if plan.lead.family == "external":
        return
    low = text.lower()
    field = load_fields().get(str(answers.field)) if answers.field else None
    for mid, term in (field.terms.items() if field else ()):
        low = low.replace(term.lower(), lower_name(get_catalogue().metrics[mid].name).lower())
    for part in ("sensitivity", "specificity"):  # the action's rates in the action's name: "referral sensitivity"
        if answers.action_classes():
            low = low.replace(f"{str(answers.action_of_interest).lower()} {part}",
                              lower_name(get_catalogue().metrics[f"action_{part}"].name).lower())
    named = set().union(*_named(low))
    missing = [m for m in _plan_ids(plan) if m not in named and "@" not in m]
    assert not missing, f"{name}: the plan's {missing} have a formula but no word in the paragraph: {text!r}"


# ----------------------------------------------------------------------------------------------
# The report, with data
# ----------------------------------------------------------------------------------------------
def _data(answers: Answers, plan: Any, rng: np.random.Generator) -> tuple[dict[str, Any], Any]:
    k = answers.k or 3
    labels = [str(c) for c in answers.classes] if answers.classes else [f"c{i}" for i in range(k)]
    p = rng.dirichlet(np.ones(k) * 2) * 0.7 + 0.3 / k
    y = rng.choice(labels, size=240, p=p / p.sum())
    y[:k] = labels  # every class occurs
    data: dict[str, Any] = {"y_true": list(y)}
    scores: dict[str, Any] = {}
    for j, name in enumerate(("model_a", "model_b")):
        right = rng.random(len(y)) < 0.75 - 0.1 * j
        pred = np.where(right, y, rng.choice(labels, size=len(y)))
        data[name] = list(pred)
        if answers.outputs in ("probabilities", "scores") or answers.probabilities:
            proba = rng.dirichlet(np.ones(k), size=len(y)) * 0.5
            proba[np.arange(len(y)), [labels.index(v) for v in pred]] += 0.5
            one_score = answers.outputs == "scores" and k == 2 and answers.positive_class is not None
            scores[name] = proba[:, labels.index(str(answers.positive_class))] if one_score else proba
    return data, (scores or None)


def _risks_of_ordered(a: Answers) -> bool:
    """Probabilities of ordered classes used as risks: read as scored items, the ordinal metrics beside."""
    return a.label_structure == "ordinal" and bool(a.risk_estimates) and not a.top_k and not a.annotators


NOMINAL = [(n, a) for n, a in CASES
           if (a.label_structure == "nominal" and not a.top_k and not a.annotators) or _risks_of_ordered(a)]


@pytest.mark.parametrize(("name", "answers"), NOMINAL[::3], ids=[n for n, _ in NOMINAL[::3]])
def test_the_report_computes_and_shows_every_plan_metric(name: str, answers: Answers, tmp_path) -> None:
    rng = np.random.default_rng(sum(map(ord, name)))
    if answers.subgroups:  # generated data have no subgroup columns (the per-subgroup report: tests/test_subgroups.py)
        answers = answers.model_copy(update={"subgroups": []})
    plan = make_plan(answers)
    data, scores = _data(answers, plan, rng)
    ctx = build_report(answers, data, bootstrap=200, seed=1, scores=scores)
    plan = ctx.plan
    assert plan is not None
    for m in plan["metrics"]:
        if m["family"] == "external":
            continue
        for s in ctx.systems:
            assert m["id"] in s.values, f"{name}: {m['id']} is in the plan but not computed for {s.name}"
    out = render_report(ctx, "md", tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    for m in ctx.recommended:
        assert m.name in text, f"{name}: {m.name} is not in the report"
    shown_tables = {t.id for t in ctx.tables}
    for t in ctx.tables:
        assert t.title in text
    for d in plan["diagnostics"]:
        if d["id"] in ("recall_spread", "at_priors"):
            assert d["id"] in shown_tables, f"{name}: diagnostic {d['id']} promised but not shown"
    assert out


# ----------------------------------------------------------------------------------------------
# Ordered classes, label sets, top-k and annotators, with data
# ----------------------------------------------------------------------------------------------
def _structured(answers: Answers, rng: np.random.Generator) -> Any:
    k = answers.k or 3
    labels = [str(c) for c in answers.classes] if answers.classes else [f"c{i}" for i in range(k)]
    n = max(200, 2 * k)  # every class at least once (ImageNet: 1,000)
    y = rng.choice(labels, size=n)
    y[:k] = labels
    if answers.annotators:
        names = [answers.judge] if answers.judge else []  # the judge is one of the raters, by its column's name
        names += [str(j) for j in range(int(answers.annotators) - len(names))]
        ratings = {f"rater_{name}": list(np.where(rng.random(n) < 0.75, y, rng.choice(labels, size=n)))
                   for name in names}
        return load_structured([ratings], order=labels if answers.label_structure == "ordinal" else None)
    if answers.top_k:
        sources = []
        for j in range(2):
            proba = rng.dirichlet(np.ones(k), size=n)
            proba[np.arange(n), [labels.index(v) for v in y]] += 0.4 - 0.1 * j
            sources.append({"y_true": list(y), **{f"p_{lab}": proba[:, i] for i, lab in enumerate(labels)}})
        return load_structured(sources, top_k=answers.top_k)
    if answers.label_structure == "multilabel":
        sources = []
        truth = rng.random((n, k)) < 0.3
        for j in range(2):
            pred = np.where(rng.random((n, k)) < 0.8 - 0.1 * j, truth, ~truth)
            sources.append({**{f"true_{lab}": truth[:, i].astype(int) for i, lab in enumerate(labels)},
                            **{f"pred_{lab}": pred[:, i].astype(int) for i, lab in enumerate(labels)}})
        return load_structured(sources)
    sources = [{"y_true": list(y), "y_pred": list(np.where(rng.random(n) < 0.7 - 0.1 * j, y, rng.choice(labels, n)))}
               for j in range(2)]
    return load_structured(sources, order=labels)


STRUCTURED = [(n, a) for n, a in CASES if (a.label_structure in ("ordinal", "multilabel") or a.top_k or a.annotators)
              and not _risks_of_ordered(a)]


@pytest.mark.parametrize(("name", "answers"), STRUCTURED[::2], ids=[n for n, _ in STRUCTURED[::2]])
def test_structured_reports_compute_every_plan_metric(name: str, answers: Answers, tmp_path) -> None:
    inputs = _structured(answers, np.random.default_rng(sum(map(ord, name))))
    ctx = build_structured_report(answers, inputs, bootstrap=200, seed=1)
    plan = ctx.plan
    assert plan is not None
    for m in plan["metrics"]:
        for s in ctx.systems:
            assert m["id"] in s.values, f"{name}: {m['id']} is in the plan but not computed for {s.name}"
    # the plan as the report carried it out: label sets only where the answers give each label a score make the
    # label decisions lead (the CheXpert reader), so the text is checked against that plan, not the one before data
    from advisor.plan import Plan

    carried = Plan.model_validate({k: v for k, v in plan.items() if k not in ("metrics", "unused")})
    _check_text(name, carried, _methods_paragraph(ctx), set(answers.model_fields_set),
                None if False else _shown(ctx))
    render_report(ctx, "md", tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    for t in ctx.tables:
        assert t.title in text, f"{name}: {t.title} promised but not in the report"


def _shown(ctx: Any) -> list[str]:
    from advisor.report._plan import shown_diagnostics
    from advisor.plan import Plan

    return shown_diagnostics(Plan.model_validate({k: v for k, v in ctx.plan.items() if k not in ("metrics", "unused")}),
                             ctx.systems, ctx.tables, ctx.intervals, ctx.structure)
