"""Which catalogue metrics a situation admits: property terms of fired rules checked against verified claims."""

from __future__ import annotations

from dataclasses import dataclass

from ..catalogue import Catalogue, MetricRecord, PropertyClaim
from ._answers import Answers
from ._rules import PropertyTerm, Rule

__all__ = ["STATUS_WORDS", "Active", "applicable", "claim_of", "filter_pool", "phrase", "resolve_conflicts", "satisfies",
           "violates"]


STATUS_WORDS = {
    "holds": "holds",
    "fails": "fails",
    "binary_only": "holds for two classes only",
    "after_calibration": "holds only after prevalence calibration",
    "conditional": "holds only under a condition",
    "not_applicable": "does not apply to this kind of task",
}


@dataclass(frozen=True)
class Active:
    """A property term of a fired rule."""

    term: PropertyTerm
    kind: str  # require | prefer | forbid
    rule: Rule


# ----------------------------------------------------------------------------------------------
# Claims
# ----------------------------------------------------------------------------------------------
def claim_of(metric: MetricRecord, term: PropertyTerm, k: int | None) -> tuple[bool, bool, PropertyClaim | None]:
    """(the claim satisfies the term, the claim is verified, the claim)."""
    claim = metric.properties.get(term.property)
    if claim is None:
        return False, False, None
    ok = claim.status in term.accept or (claim.status == "binary_only" and k == 2 and "holds" in term.accept)
    if ok and term.detail is not None:
        cc = claim.chance_correction
        ok = cc is not None and bool(getattr(cc, term.detail))
    return ok, claim.verified, claim


def phrase(metric: MetricRecord, term: PropertyTerm, k: int | None) -> str:
    """E.g. ``prevalence_invariance fails (Opitz (2024), Table 5; verified)``."""
    ok, _, claim = claim_of(metric, term, k)
    if claim is None:
        return f"{term.label} is not stated in the catalogue"
    label = term.label
    if term.detail is not None and claim.status in ("holds", "binary_only"):
        # the detail is said once, in the verdict: "chance correction (PV) holds, but not strictly"
        label = term.model_copy(update={"detail": None}).label
        adverb = {"strict": "strictly", "complete": "completely"}.get(term.detail, term.detail)
        word = f"holds {adverb}" if ok else f"holds, but not {adverb}"
        if claim.chance_correction is None and not ok:
            word = f"holds; whether {adverb} is not stated"
    else:
        word = STATUS_WORDS.get(claim.status, claim.status)
        if claim.status == "binary_only" and k == 2:
            word = "holds (two classes)"
        if claim.status == "conditional" and claim.condition:
            word = f"holds only if {claim.condition}"
    checked = "verified" if claim.verified else "not verified by the checker"
    return f"{label} {word} ({claim.source}; {checked})"


def satisfies(m: MetricRecord, a: Active, k: int | None, trust_claims: bool) -> bool:
    ok, verified, _ = claim_of(m, a.term, k)
    if a.kind == "forbid":
        return not ok  # a claimed holds is enough to exclude
    return ok and (verified or trust_claims)


def violates(m: MetricRecord, a: Active, k: int | None) -> bool:
    ok, _, _ = claim_of(m, a.term, k)
    return ok if a.kind == "forbid" else not ok


# ----------------------------------------------------------------------------------------------
# Candidates
# ----------------------------------------------------------------------------------------------
def applicable(cat: Catalogue, answers: Answers) -> list[MetricRecord]:
    """Metrics that can be computed as decision metrics for this task (no aliases, no probabilities)."""
    binary = answers.task == "binary"
    out = []
    for m in cat.metrics.values():
        if m.alias_of or m.needs_probabilities or m.needs_subgroups or m.structure != "nominal":
            continue  # ordinal, multi-label, top-k and agreement leads come from rules_structures.yaml
        if m.id in ("expected_cost", "normalized_expected_cost", "class_weighted_recall", "class_weighted_accuracy",
                    "macro_f1_of_classes", "stratified_accuracy"):
            # their property claims are those of default parameters (0/1 costs; weights 1, …, k; every class but
            # the last); with the user's own costs, weights or classes a rule or the field names them, so they are
            # no candidates of the property ranking
            continue
        if m.binary_only:
            if not binary:
                continue
            sym = m.properties.get("class_symmetry")
            if answers.positive_class is None and not (sym and sym.status in ("holds", "binary_only")):
                continue  # a class-asymmetric binary metric needs a positive class
            if m.id == "f_beta" and answers.cost_ratio() is None:
                continue  # Fβ without costs is F1
        out.append(m)
    return out


def filter_pool(pool: list[MetricRecord], terms: list[Active], k: int | None) -> tuple[list[MetricRecord], bool]:
    """Metrics meeting every term on verified claims, else on published claims (flag True)."""
    for trust in (False, True):
        passing = [m for m in pool if all(satisfies(m, a, k, trust) for a in terms)]
        if passing:
            return passing, trust
    return [], True


def resolve_conflicts(
    pool: list[MetricRecord], terms: list[Active], k: int | None
) -> tuple[list[MetricRecord], list[Active], list[Active], bool]:
    """Drop the lowest-priority terms until some metric passes, then re-add what still fits."""
    kept = list(terms)
    dropped: list[Active] = []
    passing, trusted = filter_pool(pool, kept, k)
    for a in sorted(terms, key=lambda a: a.term.priority):
        if passing:
            break
        kept.remove(a)
        dropped.append(a)
        passing, trusted = filter_pool(pool, kept, k)
    for a in sorted(dropped, key=lambda a: -a.term.priority):
        trial, t = filter_pool(pool, [*kept, a], k)
        if trial:
            kept.append(a)
            dropped.remove(a)
            passing, trusted = trial, t
    if not passing:  # nothing at all: rank the whole pool
        passing, trusted = pool, True
    return passing, kept, dropped, trusted
