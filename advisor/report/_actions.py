"""Classes grouped by the action they lead to: the report's tables, the methods sentence and the definitions.

With the answers' ``actions`` (a child classified murmur "present" or "unknown" is referred alike) the plan carries
the diagnostic ``action_rates``; the report then shows the confusion matrix collapsed to actions (true action ×
decided action) and the sensitivity and specificity of the action of interest (two actions) or the recall of every
action, each with its Clopper–Pearson interval; the methods paragraph says it in the author's words ("Since
“present” and “unknown” both lead to referral, we add referral sensitivity, …") and the Definitions give
the formulas with every symbol.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import action_rates, collapse_to_actions
from ..plan import Plan
from ..questionnaire import join_words, plural
from ..stats import proportion_interval
from ._methods_lists import Text, where_clause
from ._models import MetricEntry, TableBlock

__all__ = ["ACTION_IDS", "ACTIONS_PROMISE", "actions_definitions", "actions_lead", "actions_lead_sentence",
           "actions_sentence",
           "actions_tables", "exact_intervals"]

#: The registry metrics of the action of interest (the plan's lead and its complement when the action is named).
ACTION_IDS = ("action_sensitivity", "action_specificity")

#: The plan's diagnostic as the methods paragraph's list of promises carries it (said in a sentence of its own).
ACTIONS_PROMISE = "the rates of the actions the classes lead to"


def exact_intervals(plan: Plan | None = None, answers: Mapping[str, Any] | None = None) -> bool:
    """Whether the rates get Clopper–Pearson intervals: items drawn one by one (a column of units resamples the
    units, whose items are not independent: no exact interval of a proportion of items)."""
    if plan is not None:
        return plan.design.unit == "item"
    return not (answers or {}).get("group")


def _quoted(classes: Sequence[Any]) -> str:
    return join_words([f"“{c}”" for c in classes], "or")


def _groups(answers: Mapping[str, Any]) -> tuple[dict[str, list[str]], str | None]:
    acts = {str(a): [str(c) for c in cs] for a, cs in (answers.get("actions") or {}).items()}
    interest = answers.get("action_of_interest")
    return acts, (str(interest) if interest is not None and str(interest) in acts else None)


def _as(classes: Sequence[str]) -> str:
    """"as “absent”", "as either", "as any of them": classified into a class of the same action."""
    return f"as “{classes[0]}”" if len(classes) == 1 else "as either" if len(classes) == 2 else "as any of them"


def actions_lead(answers: Mapping[str, Any]) -> bool:
    """Whether the action whose miss is costly leads: the author grouped the classes by the action they lead to and
    named that action. An error between two classes of one action has no consequence the author named, so a figure
    over the classes (a class-weighted recall, balanced accuracy) does not lead; the action's sensitivity does.

    >>> actions_lead({"actions": {"referral": ["present", "unknown"], "no referral": ["absent"]},
    ...               "action_of_interest": "referral"})
    True
    >>> actions_lead({"actions": {"referral": ["present", "unknown"], "no referral": ["absent"]}})
    False
    """
    acts, interest = _groups(answers)
    # two actions, as the plan's rule (action_of_interest_named) leads with the action's sensitivity: with more, the
    # plan's lead stands and the actions' rates are said beside it, so the paragraph never leads with another figure
    # than the plan (a reviewer's check)
    return interest is not None and len(acts) == 2


def actions_lead_sentence(p: Text, answers: Mapping[str, Any], terse: bool = False) -> None:
    """"Since “present” and “unknown” both lead to referral, an error between them changes nothing. A missed referral is
    the costly error, so we lead with referral sensitivity, …. Beside it stands referral specificity, …": the lead
    argued from the author's actions, a sentence for each step. Two actions only (:func:`actions_lead`). ``terse``
    drops what the Definitions say (the shares in words).

    >>> t = Text()
    >>> actions_lead_sentence(t, {"actions": {"referral": ["present", "unknown"], "no referral": ["absent"]},
    ...                           "action_of_interest": "referral", "item_name": "child"})
    >>> t.spans[0].text.startswith("Since “present” and “unknown” both lead to referral, an error between them "
    ...                            "changes nothing. A missed referral is the costly error, so we lead with")
    True
    """
    acts, interest = _groups(answers)
    if interest is None or len(acts) != 2:
        return
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    since = _since(acts)
    one = [cs for cs in acts.values() if len(cs) > 1]
    same = "an error between them changes nothing" if len(one) == 1 and len(one[0]) == 2 and not _many(acts) else \
        "an error between classes of one action changes nothing"  # "them": the two classes just named
    if since:  # a sentence each: why the classes of one action are one, why the action leads, what stands beside
        p.t(f"Since {since}, {same}. ")
    # their intervals are said with every other figure's (intervals_sentence), never in a sentence of their own
    other = next(a for a in acts if a != interest)
    lead = f"A missed {interest} is the costly error, so we lead with {interest} sensitivity"
    if terse:
        p.t(f"{lead}, with {interest} specificity beside it. ")
    else:
        # "the corresponding share for …": the share said once (twice read as a repeated eight-word run)
        p.t(f"{lead}, the share of {_shares_of(acts, interest, items)}. Beside it stands {interest} specificity, "
            f"the corresponding share for {_whose(acts, other, items)}. ")


#: More classes than this in the actions' groups: the paragraph names the actions, the Definitions the classes
_NAMED = 8


def _many(acts: Mapping[str, Sequence[str]]) -> bool:
    """Whether the groups hold too many classes to be named in a sentence (the Definitions name them)."""
    return sum(len(cs) for cs in acts.values()) > _NAMED


def _since(acts: Mapping[str, Sequence[str]]) -> str:
    """"“present” and “unknown” both lead to referral": the groups of more than one class, each class named; with
    many classes "the classes are grouped by the action they lead to, referral or no referral" (the Definitions
    give each group); empty when every action has one class."""
    shared = [(a, cs) for a, cs in acts.items() if len(cs) > 1]
    if not shared:
        return ""
    if _many(acts):
        return "the classes are grouped by the action they lead to, " + join_words(list(acts), "or")
    return join_words([f"{join_words([f'“{c}”' for c in cs])} {'both' if len(cs) == 2 else 'all'} lead to {a}"
                       for a, cs in shared])


def _whose(acts: Mapping[str, Sequence[str]], action: str, items: str) -> str:
    """"children whose true class is “present” or “unknown”"; with many classes "items whose true class leads to
    referral"."""
    if _many(acts):
        return f"{items} whose true class leads to {action}"
    return f"{items} whose true class is {_quoted(acts[action])}"


def _shares_of(acts: Mapping[str, Sequence[str]], action: str, items: str) -> str:
    """"children whose true class is “present” or “unknown” that are classified as either"; with many classes
    "items whose true class leads to referral that are classified into a class leading to it too"."""
    if _many(acts):
        return f"{_whose(acts, action, items)} that are classified into a class leading to it too"
    return f"{_whose(acts, action, items)} that are classified {_as(acts[action])}"


def actions_sentence(p: Text, answers: Mapping[str, Any], terse: bool = False) -> None:
    """"Since “present” and “unknown” both lead to referral, we add referral sensitivity and referral
    specificity, each with its Clopper–Pearson interval. They are the shares of children whose true class is
    “present” or “unknown” that are classified as either, and of children whose true class is “absent” that are
    classified as “absent”." ``terse`` (the paragraph must shorten) keeps the first sentence: the Definitions give
    the formulas.

    >>> t = Text()
    >>> actions_sentence(t, {"actions": {"referral": ["present", "unknown"], "no referral": ["absent"]},
    ...                      "action_of_interest": "referral", "item_name": "child"})
    >>> t.spans[0].text.startswith("Since “present” and “unknown” both lead to referral, we add referral")
    True
    """
    acts, interest = _groups(answers)
    if len(acts) < 2:
        return
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    since = _since(acts)
    interval = ", each with its Clopper–Pearson interval" if exact_intervals(answers=answers) else ""
    if interest is not None and len(acts) == 2:
        other = next(a for a in acts if a != interest)
        p.t((f"Since {since}, we add" if since else "We add") + f" {interest} sensitivity and {interest} specificity"
            f"{interval}. ")
        if not terse:
            p.t(f"They are the shares of {_shares_of(acts, interest, items)}, and of "
                f"{_shares_of(acts, other, items)}. ")
        return
    p.t(f"Since {since}, we add" if since else "We add")
    p.t(f" the recall of each action{interval}")
    p.t(". ")
    if not terse:  # what the recall of an action is, in a sentence of its own
        p.t(f"Each is the share of {items} whose true class leads to the action that are classified into a class "
            "leading to it too. ")


_RECALL = r"\frac{\sum_{i \in G}\sum_{j \in G} C_{ij}}{\sum_{i \in G} a_i}"
_SPEC = r"\frac{\sum_{i \notin G}\sum_{j \notin G} C_{ij}}{\sum_{i \notin G} a_i}"


def actions_definitions(answers: Mapping[str, Any]) -> list[MetricEntry]:
    """The formulas of the rates the paragraph names, each with every symbol it uses ($C$ and $a_i$ are the
    notation's)."""
    acts, interest = _groups(answers)
    if len(acts) < 2:
        return []
    if interest is not None and len(acts) == 2:
        other = next(a for a in acts if a != interest)
        g = {"G": f"the set of classes that lead to {interest} ({join_words([f'“{c}”' for c in acts[interest]])})"}
        return [
            MetricEntry(id="action_sensitivity", name=f"{interest[:1].upper()}{interest[1:]} sensitivity",
                        formula=_RECALL, role="primary", where=where_clause(g)),  # the lead (actions_lead)
            MetricEntry(id="action_specificity", name=f"{interest[:1].upper()}{interest[1:]} specificity",
                        formula=_SPEC, role="complementary",  # G defined once, with the sensitivity (issue 22)
                        where=Text().t("The classes outside ").m("G").t(f" lead to {other}").para()),
        ]
    groups = "; ".join(f"{a}: {join_words([f'“{c}”' for c in cs])}" for a, cs in acts.items())
    each = "the set of classes that lead to the action" + (f" ({groups})" if _many(acts) else "")  # else the text says
    return [MetricEntry(id="action_recall", name="Recall of an action", formula=_RECALL, role="complementary",
                        where=where_clause({"G": each}))]


def _finite(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None


def _num(v: float, digits: int) -> str:
    return "—" if not math.isfinite(v) else f"{v:.{digits}f}"


def _registry_interval(reports: Sequence[Any], system: str, mid: str | None) -> tuple[float, float, str] | None:
    """The interval the metrics table gives the same rate (the plan's action_sensitivity or action_specificity)."""
    rep = next((r for r in reports if getattr(r, "name", None) == system), None)
    est = None if rep is None or mid is None else rep.intervals.get(mid)
    if est is None or est.low is None or est.high is None:
        return None
    return float(est.low), float(est.high), str(est.method or "")


def actions_tables(plan: Plan, systems: Mapping[str, Any], digits: int = 3,
                   record: dict[str, Any] | None = None, reports: Sequence[Any] = ()) -> list[TableBlock]:
    """The rates of the actions (table ``action_rates``), then each system's matrix of actions; ``record``, when
    given, receives them as numbers (the report's JSON ``"actions"``).

    With the action of interest named, its sensitivity and specificity are also the plan's metrics
    (``action_sensitivity``, ``action_specificity``): a rate the metrics table gives an interval takes that
    interval (``reports``), so one figure never has two intervals (a column of units: the metrics' bootstrap over
    the units, where the rate alone would have none)."""
    d = plan.diagnostic("action_rates")
    if d is None or not systems:
        return []
    acts = {str(a): list(cs) for a, cs in (d.params.get("actions") or {}).items()}
    interest = d.params.get("of_interest")
    confidence = plan.design.confidence
    rows, matrix_rows = [], []
    record = {} if record is None else record
    record.update(actions=acts, of_interest=interest, confidence=confidence,
                  method="clopper_pearson" if exact_intervals(plan) else None, systems={})
    registry = {f"{interest} sensitivity": "action_sensitivity", f"{interest} specificity": "action_specificity"} \
        if interest is not None and len(acts) == 2 else {}
    shared = False
    for name, cm in systems.items():
        whole = bool(np.all(np.asarray(cm.counts) == np.round(np.asarray(cm.counts))))
        exact = whole and exact_intervals(plan)
        for r in action_rates(cm, acts, interest):
            same = _registry_interval(reports, name, registry.get(r.name))
            lo, hi = (same[0], same[1]) if same is not None else \
                proportion_interval(r.hits, r.total, confidence) if exact else (math.nan, math.nan)
            shared = shared or same is not None
            band = (f"{_num(lo, digits)} to {_num(hi, digits)}" if (exact or same is not None) and r.total > 0
                    else "—")
            rows.append([name, r.name, _num(r.value, digits), band, f"{r.hits:g} / {r.total:g}"])
            record["systems"].setdefault(name, {"rates": []})["rates"].append(
                {"name": r.name, "action": r.action, "right": r.hits, "all": r.total, "estimate": _finite(r.value),
                 "low": _finite(lo), "high": _finite(hi)})
        a = collapse_to_actions(cm, acts)
        record["systems"][name]["matrix"] = a.counts.tolist()
        for i, lab in enumerate(a.labels):
            matrix_rows.append([name, str(lab), *(f"{v:g}" for v in a.counts[i])])
    labels = list(acts)
    grouped = "; ".join(f"{a}: {join_words([str(c) for c in cs])}" for a, cs in acts.items())
    why = (f"{confidence:.0%} Clopper–Pearson intervals." if exact_intervals(plan) else
           "No interval: the items of one unit are not independent, so the share of items has no exact interval.")
    if shared:  # the same figures as the metrics table, with its intervals
        why = f"{confidence:.0%} intervals as in the metrics table, where these two rates are the plan's metrics."
    rates = TableBlock(
        id="action_rates", title="Actions: is the action right?",
        caption=(f"The classes grouped by the action they lead to ({grouped}). Each rate is the share of the items "
                 f"whose true class leads to an action that are classified into a class leading to the same action "
                 f"(right / all). {why}"),
        columns=["system", "rate", "value", "interval", "right / all"],
        numeric=[False, False, True, False, True], rows=rows)
    matrix = TableBlock(
        id="action_matrix", title="Confusion matrix of the actions",
        caption="Rows: the action the true class leads to; columns: the action the predicted class leads to.",
        columns=["system", "true action", *(f"decided: {lab}" for lab in labels)],
        numeric=[False, False, *([True] * len(labels))], rows=matrix_rows)
    return [rates, matrix]
