"""The lead metric when the task is not single-label nominal classification (issue 12).

The rules of ``rules_structures.yaml`` fire like every rule (their complementary metrics, duties and
rationale flow through the engine); this step then puts the first applicable primary suggestion of
the most specific structure rule in the lead — the nominal property filter cannot choose among
metrics that score ordered classes, label sets, top-k scores or ratings tables. Order of precedence:
annotators, then spans / ranking, then top-k, then ordinal / multi-label. For ordered classes and
top-k the nominal recommendation stays beside the new lead; for label sets, spans, rankings and
agreement studies nominal metrics answer a different question and are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine import reported_ids
from ._conditions import holds
from ._fields import load_fields
from ._planned import resolve_planned
from ._recommendation import Advice, MetricChoice, RationaleEntry, Recommendation
from ._structure_words import EXTERNAL

__all__ = ["EXTERNAL", "STRUCTURE_RULES", "apply_structure"]

STRUCTURE_RULES = ("structure_agreement", "structure_spans", "structure_ranking", "structure_detection",
                   "structure_segmentation", "structure_regression", "structure_generation", "structure_top_k",
                   "structure_ordinal", "structure_multilabel", "structure_partition", "structure_hierarchy")
KEEP_NOMINAL = ("structure_ordinal", "structure_top_k")
#: leads the user's own use of the outputs defines (risks: a proper scoring rule of the probabilities); with
#: ordered classes they stay the lead and the ordinal lead goes beside them (issue 19, item 6)
RISK_LEADS = ("log_loss", "brier")


#: a planned flat metric beside a hierarchical lead: its own property, and why it is not the lead
_FLAT_PLANNED = ("you planned it ({planned}); reported beside the lead for comparison with flat results, never instead: "
                 "like accuracy it counts an error in the right branch of the taxonomy like one in another branch")


def apply_structure(rec: Recommendation, fired: list[Any], cat: Any, facts: dict[str, Any],
                    ctx: dict[str, Any], render: Callable[[str, dict[str, Any]], str], book: Any = None) -> Recommendation:
    """Recommendation with the structure rule's lead; unchanged for nominal situations."""
    by_id = {r.id: r for r in fired}
    rule = next((by_id[i] for i in STRUCTURE_RULES if i in by_id), None)
    if rule is None:
        return rec
    old = rec.primary
    if rule.id == "structure_ordinal" and old.metric in RISK_LEADS:
        return _ordinal_beside_risks(rec, rule, cat, facts, ctx, render)
    if rule.id in EXTERNAL:
        mid, name, reason = EXTERNAL[rule.id]
        primary = MetricChoice(metric=mid, name=name, reason=reason)
    else:
        s = next(s for s in rule.primary if holds(s.when, facts))
        primary = MetricChoice(metric=s.metric, name=cat.metrics[s.metric].name, reason=render(s.reason, ctx))
    own = {s.metric for s in rule.complementary if holds(s.when, facts)}
    keep = rule.id in KEEP_NOMINAL
    # only metrics an evaluation of this structure reports (top-k: not balanced accuracy, log loss, Brier)

    reported = set(reported_ids(_structure(cat, primary.metric))) or None
    # a planned flat metric that the structure's evaluation computes (macro F1 of a taxonomy's classes) is kept beside
    # the lead for comparison with flat results, never dropped on a false reason (the taxonomy reader)
    planned_flat = rule.id == "structure_hierarchy"
    complementary = [a for a in rec.complementary if a.metric != primary.metric
                     and (keep or a.metric in own or _structure(cat, a.metric) != "nominal"
                          or (planned_flat and "you planned it" in a.reason))
                     and (reported is None or a.metric in reported)]
    if planned_flat:  # its reason is the nominal pass's ("beside <the nominal lead>"): said for the tree instead
        complementary = [a.model_copy(update={"reason": _FLAT_PLANNED.format(
            planned=a.reason.split(";", 1)[0].removeprefix("you planned it ").strip("()"))})
            if a.metric not in own and _structure(cat, a.metric) == "nominal" and "you planned it" in a.reason else a
            for a in complementary]
    keep = keep and (reported is None or old.metric in reported)  # the nominal lead stays beside it
    if rule.id == "structure_ordinal" and facts.get("tolerated_steps") == 1:
        # one step off was said to be tolerable: a nominal lead (balanced accuracy) counts that step as a miss, so it
        # argues against the author's premise and is not reported beside the lead (issue 22, the essay reader)
        keep = False
        field = load_fields().get(str(facts.get("field") or ""))
        if field is not None and "weighted_kappa_quadratic" in field.metrics:
            # one distance-weighted figure beside the lead answers "a two-step error is not a five-step one"; the
            # field's QWK is it, so macro MAE, unplanned, would be a figure without a reason of the author's
            planned = {mid for name in facts.get("planned_metrics") or [] for mid in resolve_planned(str(name)).ids}
            complementary = [a for a in complementary if a.metric != "mae_macro" or a.metric in planned]
    if rule.id == "structure_hierarchy":  # the hierarchical metrics first, the flat view after them
        complementary.sort(key=lambda a: _structure(cat, a.metric) == "nominal")
    # an ambiguous planned name ("Krippendorff's alpha") one of whose readings now leads: the other readings
    # were only added because they were planned
    other_readings = {mid for name in facts.get("planned_metrics") or []
                      for ids in [resolve_planned(str(name)).ids] if primary.metric in ids for mid in ids
                      if mid != primary.metric}
    complementary = [a for a in complementary if not (a.metric in other_readings and "you planned it" in a.reason)]
    field = load_fields().get(str(facts.get("field") or ""))
    if field is not None and field.one_of and primary.metric in field.metrics:  # the alpha of the grades' level
        complementary = [a for a in complementary if a.metric not in field.metrics or "you planned it" in a.reason]
    chosen = {primary.metric, *(a.metric for a in complementary)}
    # nothing is both the lead (or beside it) and advised against: a planned name that the nominal ranking
    # turned down may be the structure's own lead
    discouraged = [a for a in rec.discouraged if (keep or _structure(cat, a.metric) != "nominal")
                   and a.metric not in chosen]
    discouraged = _own_discouraged(discouraged, rule, primary, cat, facts, ctx, render)
    warnings = rec.warnings
    if not keep and book is not None:  # warnings about nominal metrics no longer recommended
        nominal = {w.code for r in book.rules if not r.id.startswith("structure_") for w in (*r.checks, *r.warnings)}
        warnings = [w for w in warnings if w.code not in nominal]
    if keep and old.metric != primary.metric:
        beside = Advice(metric=old.metric, name=old.name, params=old.params,
                        reason="the nominal lead for this situation, reported beside the "
                        f"{'ordinal' if rule.id == 'structure_ordinal' else 'top-k'} lead, never instead: "
                        + (old.reason or "see the rationale"))
        complementary = [beside, *[a for a in complementary if a.metric != old.metric]]
    note = RationaleEntry(
        rule="primary", title=f"Primary metric: {primary.name}",
        text=(f"The lead is {primary.name}, not the nominal choice {old.name}: {rule.title.lower()}."
              + (" The nominal choice is reported beside it." if keep else
                 " Nominal single-label metrics answer a different question here and are left out."
                 if not any(_structure(cat, a.metric) == "nominal" for a in complementary) else
                 " Of the nominal single-label metrics only "
                 + ", ".join(a.name or a.metric for a in complementary if _structure(cat, a.metric) == "nominal")
                 + " is reported beside it, " + ("as the flat view of the exact class, where a wrong shelf in the right "
                                                 "aisle counts like a wrong department."
                                                 if rule.id == "structure_hierarchy" else
                                                 "as the view of the highest-scored class."))),
        source=rule.source, answers={k: facts.get(k) for k in ("label_structure", "top_k", "annotators")},
    )
    if keep:  # the nominal reasoning now explains the metric reported beside the lead
        rationale = [e.model_copy(update={"rule": "nominal_beside", "title": "Beside the lead: "
                                          + (e.title or "the nominal choice").split(": ", 1)[-1]})
                     if e.rule == "primary" else e for e in rec.rationale]
    else:  # nominal reasoning (and planned names read as nominal metrics) answers a different question; ranking
        # several systems does not (except in an agreement study, which has annotators, not systems)
        general = ("data", "sound_basics", "field") + (("ranking_systems",) if rule.id != "structure_agreement" else ())
        rationale = [e for e in rec.rationale if e.rule in general or e.rule.startswith("structure")]
    rationale = [_planned_now(e, primary, complementary) if e.rule == "planned_metric" else
                 _field_now(e, primary) if e.rule == "field" else e for e in rationale]
    return rec.model_copy(update={"primary": primary, "complementary": complementary, "discouraged": discouraged,
                                  "warnings": warnings, "rationale": [note, *rationale]})


def _own_discouraged(discouraged: list[Advice], rule: Any, primary: MetricChoice, cat: Any, facts: dict[str, Any],
                     ctx: dict[str, Any], render: Callable[[str, dict[str, Any]], str]) -> list[Advice]:
    """A metric of this structure is judged by the structure's rule, not by the nominal ranking (whose terms, such as
    prevalence invariance, do not apply to it): the rule's own reason, "use <the structure's lead> instead", and only
    for a metric the author planned (a structure's reason against a metric answers the author's plan, not a clause
    every paragraph of that structure owes; a planned purity is no longer one: it is reported with inverse purity)."""
    planned = {mid for name in facts.get("planned_metrics") or [] for mid in resolve_planned(str(name)).ids}
    own = {d.metric: d for d in rule.discouraged if holds(d.when, facts)}
    out = []
    for a in discouraged:
        if a.metric in own:
            continue
        if _structure(cat, a.metric) == _structure(cat, primary.metric) and a.metric != primary.metric:
            continue  # the nominal ranking's verdict on a metric of this structure
        out.append(a)
    for mid, d in own.items():
        if mid in planned and mid in cat.metrics and mid != primary.metric:
            out.append(Advice(metric=mid, name=cat.metrics[mid].name, reason=(
                f"{render(d.reason or '', ctx)}. Use {primary.name} instead.")))  # the reason cites its own source
    return out


def _ordinal_beside_risks(rec: Recommendation, rule: Any, cat: Any, facts: dict[str, Any], ctx: dict[str, Any],
                          render: Callable[[str, dict[str, Any]], str]) -> Recommendation:
    """Probabilities of ordered classes used as risks: the proper scoring rule keeps the lead (every metric the
    risk rule reports beside it stays, the Brier score included) and the ordinal metrics of the decisions come
    beside it — the ordinal lead first — instead of replacing it with a score of the most probable class."""
    s = next(s for s in rule.primary if holds(s.when, facts))
    ordinal = [Advice(metric=s.metric, name=cat.metrics[s.metric].name, reason=(
        "the ordinal view of the decisions (the most probable class): " + render(s.reason, ctx)))]
    ordinal += [Advice(metric=c.metric, name=cat.metrics[c.metric].name, reason=render(c.reason, ctx))
                for c in rule.complementary if holds(c.when, facts) and c.metric != s.metric]
    # issue 21, item 6: forecasts of ordered classes are scored by the ranked probability score, which respects the
    # order (Epstein 1969; Murphy 1971); the risk rule's scoring rule goes beside it, with the skill score
    rps = cat.metrics["ranked_probability_score"]
    primary = MetricChoice(metric=rps.id, name=rps.name, reason=(
        "The probabilities of ordered classes are used as forecasts, so they are scored by the ranked probability "
        "score: the squared distance between the cumulative forecast and the cumulative outcome, which penalises "
        "probability put far from the observed class more than probability put near it (Epstein 1969; Murphy "
        "1971). Log loss, which ignores the order, is reported beside it."))
    old = Advice(metric=rec.primary.metric, name=rec.primary.name, params=rec.primary.params,
                 reason="the proper scoring rule that ignores the class order: " + (rec.primary.reason or ""))
    skill = Advice(metric="rps_skill", name=cat.metrics["rps_skill"].name, reason=(
        "the share of the ranked probability score of forecasting the test set's class shares for every item that "
        "the forecasts remove (Murphy 1971)"))
    chosen = {primary.metric}
    complementary = []
    for a in [old, skill, *rec.complementary, *ordinal]:
        if a.metric not in chosen:
            chosen.add(a.metric)
            complementary.append(a)
    note = RationaleEntry(
        rule="primary", title=f"Primary metric: {rps.name}",
        text=(f"The lead is the {rps.name.lower()}: the probabilities of the ordered classes are used as forecasts, so "
              "they are scored as probabilities in the class order; log loss is reported beside it, and the ordinal "
              "metrics score the decisions made from them (the most probable class)."), source=rule.source,
        answers={k: facts.get(k) for k in ("label_structure", "risk_estimates", "outputs")})
    discouraged = [a for a in rec.discouraged if a.metric not in chosen]
    return rec.model_copy(update={"primary": primary, "complementary": complementary, "discouraged": discouraged,
                                  "rationale": [note, *rec.rationale]})


def _field_now(entry: RationaleEntry, primary: MetricChoice) -> RationaleEntry:
    """The field's figure, said again once the structure's lead is known: when the structure's lead is that figure
    (CheXpert's AUROC per finding, averaged), it leads, never "beside the lead"."""
    beside = "Beside the lead, for comparison with earlier work: "
    start = entry.text.find(beside)
    if start < 0:
        return entry
    end = entry.text.find(".", start + len(beside))
    names = [n.strip() for n in entry.text[start + len(beside):end].split(", ")]
    if primary.name not in names:
        return entry
    rest = [n for n in names if n != primary.name]
    said = f"{primary.name} leads and is that figure." + (f" {beside}{', '.join(rest)}." if rest else "")
    return entry.model_copy(update={"text": entry.text[:start] + said + entry.text[end + 1:]})


def _planned_now(entry: RationaleEntry, primary: MetricChoice, complementary: list[Advice]) -> RationaleEntry:
    """A planned metric's comment, said again once the structure's lead is known: it leads, or it is reported
    beside the lead (the nominal ranking's verdict on it no longer applies)."""
    name = entry.title.removeprefix("Planned: ")
    ids = resolve_planned(name).ids
    if primary.metric in ids:
        text = f"{name!r} → {primary.name}: fits — it is the lead for this task."
    elif any(a.metric in ids for a in complementary):
        beside = next(a for a in complementary if a.metric in ids)
        text = f"{name!r} → {beside.name}: reported beside the lead {primary.name}."
    else:
        return entry
    return entry.model_copy(update={"text": text})


def _structure(cat: Any, mid: str) -> str:
    m = cat.metrics.get(mid)
    return "nominal" if m is None else m.structure

