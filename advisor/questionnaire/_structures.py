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

from ._conditions import holds
from ._recommendation import Advice, MetricChoice, RationaleEntry, Recommendation

__all__ = ["EXTERNAL", "STRUCTURE_RULES", "apply_structure"]

STRUCTURE_RULES = ("structure_agreement", "structure_spans", "structure_ranking", "structure_top_k",
                   "structure_ordinal", "structure_multilabel")
KEEP_NOMINAL = ("structure_ordinal", "structure_top_k")
#: tasks no catalogue metric scores: what to measure and which well-kept tool computes it
EXTERNAL: dict[str, tuple[str, str, str]] = {
    "structure_spans": (
        "entity_f1", "Entity-level F1 over exactly matched spans (not in the catalogue; computed by seqeval)",
        "measure entity-level precision, recall and F1 over exactly matched spans, excluding the background tag "
        "('O'), micro-averaged over entities and reported per entity type, as in the CoNLL shared tasks; the seqeval "
        "package computes them (seqeval.metrics.classification_report). A token-level confusion matrix, token "
        "accuracy or token-level F1 does not count entities and is not recommended"),
    "structure_ranking": (
        "ndcg_at_k", "nDCG@k, MRR and recall@k per query, averaged over queries (not in the catalogue; "
        "computed by pytrec_eval or ranx)",
        "measure a rank-aware score per query — nDCG@k for graded relevance, MRR for the first relevant result, "
        "recall@k for coverage — and average it over queries; pytrec_eval and ranx compute them from a qrels file "
        "and a run. Set metrics on a confusion matrix ignore the order of the ranking and are not recommended"),
}


def apply_structure(rec: Recommendation, fired: list[Any], cat: Any, facts: dict[str, Any],
                    ctx: dict[str, Any], render: Callable[[str, dict[str, Any]], str], book: Any = None) -> Recommendation:
    """Recommendation with the structure rule's lead; unchanged for nominal situations."""
    by_id = {r.id: r for r in fired}
    rule = next((by_id[i] for i in STRUCTURE_RULES if i in by_id), None)
    if rule is None:
        return rec
    old = rec.primary
    if rule.id in EXTERNAL:
        mid, name, reason = EXTERNAL[rule.id]
        primary = MetricChoice(metric=mid, name=name, reason=reason)
    else:
        s = next(s for s in rule.primary if holds(s.when, facts))
        primary = MetricChoice(metric=s.metric, name=cat.metrics[s.metric].name, reason=render(s.reason, ctx))
    own = {s.metric for s in rule.complementary if holds(s.when, facts)}
    keep = rule.id in KEEP_NOMINAL
    complementary = [a for a in rec.complementary if a.metric != primary.metric
                     and (keep or a.metric in own or _structure(cat, a.metric) != "nominal")]
    discouraged = [a for a in rec.discouraged if keep or _structure(cat, a.metric) != "nominal"]
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
                 " Nominal single-label metrics answer a different question here and are left out.")),
        source=rule.source, answers={k: facts.get(k) for k in ("label_structure", "top_k", "annotators")},
    )
    if keep:  # the nominal reasoning now explains the metric reported beside the lead
        rationale = [e.model_copy(update={"rule": "nominal_beside", "title": "Beside the lead: "
                                          + (e.title or "the nominal choice").split(": ", 1)[-1]})
                     if e.rule == "primary" else e for e in rec.rationale]
    else:  # nominal reasoning (and planned names read as nominal metrics) answers a different question
        rationale = [e for e in rec.rationale if e.rule in ("data", "sound_basics") or e.rule.startswith("structure")]
    return rec.model_copy(update={"primary": primary, "complementary": complementary, "discouraged": discouraged,
                                  "warnings": warnings, "rationale": [note, *rationale]})


def _structure(cat: Any, mid: str) -> str:
    m = cat.metrics.get(mid)
    return "nominal" if m is None else m.structure
