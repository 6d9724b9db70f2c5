"""Words of the leads for tasks that are not single-label nominal classification (issue 12).

What to measure for span and ranking tasks (no catalogue metric scores them) and the one-screen reason
of a top-k, agreement, span or ranking lead. Kept apart from :mod:`._structures`, which needs the
recommendation model, so the one-screen view can use them without an import cycle.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine import STRUCTURE_METRICS
from ._scope import scope_tasks

__all__ = ["EXTERNAL", "lead_in_words"]

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


def _scope_leads() -> dict[str, tuple[str, str, str]]:
    """The leads of the other tasks advisor does not evaluate (detection, segmentation, regression, generated
    text; issue 23, item 5), from ``scope.yaml``: "advisor does not evaluate this; use …, because …"."""
    return {f"structure_{key}": (f"external_{key}", t["rule"]["lead"],
                                 f"{t['what']} is scored outside advisor, with {t['use']}")
            for key, t in scope_tasks().items() if t.get("rule")}


EXTERNAL.update(_scope_leads())


def lead_in_words(lead: Any, name: str) -> str | None:
    """The one-screen reason of a top-k, agreement, span or ranking lead: its rule's own reason, sources
    dropped (the nominal property sentences speak of two labelings or of class frequencies); None for
    other leads.

    >>> from types import SimpleNamespace as NS
    >>> lead_in_words(NS(metric="top_k_accuracy", reason="the share of hits (Russakovsky et al. (2015), §4.1)"),
    ...               "top-k accuracy")
    'Top-k accuracy is the share of hits.'
    """
    spec = STRUCTURE_METRICS.get(lead.metric)
    external = lead.metric in {m for m, _, _ in EXTERNAL.values()}
    if not lead.reason or not (external or (spec is not None and spec.structure in ("top_k", "agreement"))):
        return None
    nested = r"\s*\([^()]*\((?:19|20)\d\d[a-z]?\)[^()]*\)"  # (Author (2015), §4.1)
    flat = r"\s*\([^()]*\b(?:19|20)\d\d[a-z]?\b[^()]*\)"  # (Author 2015)
    text = re.sub(flat, "", re.sub(nested, "", lead.reason)).strip()
    if text.startswith("the "):
        text = f"{name} is {text}"
    return text[:1].upper() + text[1:].rstrip(".") + "."
