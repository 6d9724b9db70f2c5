"""A tiny declarative condition language over the *facts* of a situation.

Rules (``rules.yaml``) and questions (``questions.yaml``) say when they apply with a condition,
written as YAML data rather than code::

    deployment_prevalence: [shifted, unknown]   # fact is one of the listed values
    class_weighting: equal                      # fact equals the value
    k: {gte: 3}                                 # comparison: gte, gt, lte, lt
    has_positive_class: true
    any: [{symmetric: true}, {distance: true}]  # combinators: all, any, not

Several keys in one mapping must all hold. A comparison with a fact that is unknown (``None``)
is false, so ``k: {gte: 3}`` does not fire when the number of classes is not known.

Facts are the answers themselves plus a few derived ones (:data:`DERIVED_FACTS`), each of which
names the answers it rests on so that every rationale can name them too.

>>> holds({"task": "binary", "k": {"gte": 2}}, {"task": "binary", "k": 2})
True
>>> holds({"any": [{"k": {"gte": 3}}, {"task": "multiclass"}]}, {"task": "binary", "k": None})
False
>>> sorted(condition_facts({"not": {"k": {"lte": 5}}, "ranking": True}))
['k', 'ranking']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "COMBINATORS",
    "COMPARISONS",
    "DERIVED_FACTS",
    "condition_facts",
    "describe",
    "holds",
    "validate_condition",
]

COMBINATORS = ("all", "any", "not")
COMPARISONS = ("in", "not_in", "gte", "gt", "lte", "lt", "eq", "ne", "set")

# derived fact -> (the answer keys it rests on, plain description)
DERIVED_FACTS: dict[str, tuple[tuple[str, ...], str]] = {
    "k": (("task", "n_classes", "classes"), "the number of classes"),
    "multiclass": (("task", "n_classes", "classes"), "whether there are three or more classes"),
    "has_positive_class": (("positive_class",), "whether a class of special interest was named"),
    "tn_meaningful": (("true_negatives_meaningful",), "whether true negatives carry information"),
    "has_costs": (("error_costs",), "whether the costs of a false negative and a false positive are known"),
    "cost_ratio": (("error_costs",), "cost of a false negative divided by the cost of a false positive"),
    "has_cost_matrix": (("error_costs",), "whether a full cost matrix was given"),
    "has_target_prevalence": (("target_prevalence",), "whether the deployment class shares are known"),
    "has_map_shares": (("map_shares",), "whether the test sample was drawn stratified by the predicted (map) class, "
                       "with the mapped share of each class"),
    "has_action_of_interest": (("actions", "action_of_interest"), "whether the classes were grouped by the action "
                               "they lead to, with the action whose miss is costly named"),
    "n_actions": (("actions",), "the number of actions the classes lead to"),
    "has_fallback_class": (("fallback_class",), "whether a class whose prediction takes no action was named"),
    "has_planned": (("planned_metrics",), "whether metrics were planned"),
    "label_scores": (("label_structure", "outputs", "planned_metrics"),
                     "whether each label of an item has a score (outputs are scores or probabilities, or, with outputs "
                     "unanswered, a planned ROC AUC, which needs them)"),
    "label_cut_open": (("label_structure", "outputs", "planned_metrics", "operating_point", "decision_thresholds"),
                       "whether each label has a score and no answer fixes the cut that turns it into a label "
                       "(operating_point or decision_thresholds)"),
    "planned_f1": (("planned_metrics",), "whether an F1 (of one label or class, or averaged) was planned"),
    "planned_nmi": (("planned_metrics",), "whether normalized mutual information (NMI) was planned"),
    "planned_purity": (("planned_metrics",), "whether purity was planned"),
    "has_fpr_budget": (("fpr_budget",), "whether a largest acceptable false positive rate was given"),
    "has_review_budget": (("review_share",), "whether a review budget (a share of the items) was given"),
    "has_decision_thresholds": (("decision_thresholds",), "whether the risks at which users act were given"),
    "has_target_coverage": (("target_coverage",), "whether the share of the items a system that abstains answers "
                            "was given"),
    "has_target_risk": (("target_risk",), "whether the largest error rate acceptable among the answers of a system "
                        "that abstains was given"),
    "imbalanced": (("test_set_balanced",), "whether the test set's classes differ in size"),
    "has_data": ((), "whether predictions were supplied"),
    "n_systems": (("ranking",), "the number of systems in the supplied data"),
}


def _compare(op: str, value: Any, ref: Any) -> bool:
    if op == "set":
        return (value is not None and value != [] and value != {}) == bool(ref)
    if op == "in":
        return value in ref
    if op == "not_in":
        return value not in ref
    if op == "eq":
        return value == ref
    if op == "ne":
        return value != ref
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if op == "gte":
        return value >= ref
    if op == "gt":
        return value > ref
    if op == "lte":
        return value <= ref
    return value < ref  # lt


def _matches(value: Any, matcher: Any) -> bool:
    if isinstance(matcher, list):
        return value in matcher
    if isinstance(matcher, Mapping):
        return all(_compare(op, value, ref) for op, ref in matcher.items())
    return value == matcher


def holds(condition: Mapping[str, Any] | None, facts: Mapping[str, Any]) -> bool:
    """Evaluate ``condition`` over ``facts`` (an empty or missing condition always holds)."""
    if not condition:
        return True
    for key, matcher in condition.items():
        if key == "all":
            ok = all(holds(c, facts) for c in matcher)
        elif key == "any":
            ok = any(holds(c, facts) for c in matcher)
        elif key == "not":
            ok = not holds(matcher, facts)
        else:
            ok = _matches(facts.get(key), matcher)
        if not ok:
            return False
    return True


def condition_facts(condition: Mapping[str, Any] | None) -> set[str]:
    """Every fact a condition mentions."""
    out: set[str] = set()
    for key, matcher in (condition or {}).items():
        if key in ("all", "any"):
            for c in matcher:
                out |= condition_facts(c)
        elif key == "not":
            out |= condition_facts(matcher)
        else:
            out.add(key)
    return out


def validate_condition(condition: Any, known_facts: set[str], where: str = "condition") -> None:
    """Raise ``ValueError`` naming the first unknown fact or malformed part of ``condition``."""
    if condition is None:
        return
    if not isinstance(condition, Mapping):
        raise ValueError(f"{where} must be a mapping of facts to values, got {condition!r}")
    for key, matcher in condition.items():
        if key in ("all", "any"):
            if not isinstance(matcher, list):
                raise ValueError(f"{where}: '{key}' takes a list of conditions")
            for i, c in enumerate(matcher):
                validate_condition(c, known_facts, f"{where}.{key}[{i}]")
        elif key == "not":
            validate_condition(matcher, known_facts, f"{where}.not")
        elif key not in known_facts:
            raise ValueError(f"{where}: unknown fact {key!r}; known facts are {', '.join(sorted(known_facts))}")
        elif isinstance(matcher, Mapping):
            bad = [op for op in matcher if op not in COMPARISONS]
            if bad:
                raise ValueError(f"{where}.{key}: unknown comparison {bad[0]!r}; use one of {', '.join(COMPARISONS)}")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def describe(condition: Mapping[str, Any] | None) -> str:
    """Plain-text rendering, e.g. ``deployment_prevalence ∈ {shifted, unknown} and k ≥ 3``."""
    if not condition:
        return "always"
    symbols = {"gte": "≥", "gt": ">", "lte": "≤", "lt": "<", "eq": "=", "ne": "≠"}
    parts: list[str] = []
    for key, matcher in condition.items():
        if key in ("all", "any"):
            joiner = " and " if key == "all" else " or "
            parts.append("(" + joiner.join(describe(c) for c in matcher) + ")")
        elif key == "not":
            parts.append(f"not ({describe(matcher)})")
        elif isinstance(matcher, list):
            parts.append(f"{key} ∈ {{{', '.join(_show(v) for v in matcher)}}}")
        elif isinstance(matcher, Mapping):
            for op, ref in matcher.items():
                if op == "set":
                    parts.append(f"{key} {'is' if ref else 'is not'} given")
                elif op in ("in", "not_in"):
                    sign = "∈" if op == "in" else "∉"
                    parts.append(f"{key} {sign} {{{', '.join(_show(v) for v in ref)}}}")
                else:
                    parts.append(f"{key} {symbols[op]} {_show(ref)}")
        else:
            parts.append(f"{key} = {_show(matcher)}")
    return " and ".join(parts)
