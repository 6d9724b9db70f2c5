"""The false positive rate of the labels in use against the author's budget: the table, the JSON and the sentence.

With ``fpr_budget`` and the labels of the threshold in use, the plan carries the diagnostic ``fpr_budget_check``
(issue 24: "the deployed threshold is not tested against the budget", the fraud and spam readers). The report then
gives, per system, the negatives the labels flag (FP of N), their share, its one-sided 95% upper confidence bound
and the verdict — within the budget (bound ≤ budget), over it (share > budget), or not shown to be within it — and
the methods paragraph says it in the author's words: "We give the share of “genuine” transactions declined at the
deployed threshold with its one-sided 95% upper bound, set against the budget of 1%".

The bound (:func:`advisor.stats.fpr_budget_check`): Clopper–Pearson when the items are drawn one by one; with a
column of groups (cards, recipients) Korn & Graubard's (1998): Clopper–Pearson at the effective sample size, the
negatives divided by their design effect over the groups, because the flags of one card's transactions are not
independent. One bound, named and cited in the paragraph (the fraud and spam readers: the larger of the exact bound
and the groups' bootstrap percentile was "ad hoc: no citation or coverage argument"); its coverage is measured in
``benchmarks/bench_budget_bound.py``. With data, the Definitions give the negatives, the groups and the effective
sample size; before data, the fewest negatives a bound within the budget needs, where that number can bind
(:data:`FEWEST_SAID`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..plan import Plan
from ..questionnaire import plural
from ..stats import fpr_budget_check
from ._methods_lists import Text
from ._models import MetricEntry, TableBlock

__all__ = ["BUDGET_PROMISE", "FEWEST_SAID", "bound_cite", "bound_method", "bound_words", "budget_definitions",
           "budget_sentence", "budget_tables", "cell", "count_text", "deployed_lead", "deployed_lead_sentence",
           "design_effect_words", "design_words", "fewest_negatives", "fewest_words", "percent"]

#: The plan's diagnostic as the methods paragraph's list of promises carries it (said in a sentence of its own).
BUDGET_PROMISE = "the false positive rate of the labels in use against the budget"

#: Before data, the fewest negatives a bound within the budget needs (none flagged) is said only from this many on
#: (a budget of 0.3% or less): test sets of a few hundred to a few thousand negatives are common, so such a number
#: can bind, while the 299 of a 1% budget is met by any test set a budget is checked on (the fraud reader: "right
#: but irrelevant to a test set of hundreds of thousands"; the spam reader wanted the 2,995 of 0.1%). With data the
#: counts themselves are given, and the number only when the effective sample size falls short of it.
FEWEST_SAID = 1000

#: the author's verb for what the system does to a flagged item, when the context uses one (else "flagged")
_VERBS = (("declin", "declined"), ("block", "blocked"), ("reject", "rejected"), ("filter", "filtered"),
          ("quarantin", "quarantined"), ("refer", "referred"), ("flag", "flagged"))


#: the same verbs said of the threshold, in the present ("the share of “fraud” transactions it declines")
_PRESENT = {"declined": "declines", "blocked": "blocks", "rejected": "rejects", "filtered": "filters",
            "quarantined": "quarantines", "referred": "refers", "flagged": "flags"}


def _verb(context: str) -> str:
    """The author's own verb for a flagged item.

    >>> _verb("those above the threshold are declined pending a call"), _verb("messages go to junk"), _verb("")
    ('declined', 'flagged', 'flagged')
    """
    text = context.lower()
    return next((word for stem, word in _VERBS if re.search(rf"\b{stem}", text)), "flagged")


def percent(x: float) -> str:
    return f"{x * 100:.3g}%"


def _negative(answers: Mapping[str, Any]) -> str | None:
    classes = [str(c) for c in answers.get("classes") or []]
    pos = str(answers.get("positive_class"))
    return next((c for c in classes if c != pos), None) if len(classes) == 2 else None


def _unit(group: str) -> str:
    """A group column as a word for one group: ``card_id`` → ``card``."""
    return str(group).removesuffix("_id").removesuffix("_ID").replace("_", " ")


def bound_cite(cite: Any, group: str | None) -> list[str]:
    """The source of the bound: Korn & Graubard (1998) with groups, else Clopper & Pearson (1934)."""
    if cite is None:
        return []
    key = cite("Korn", "1998") if group else cite("Clopper", "1934")
    return [key] if key else []


def budget_sentence(p: Text, answers: Mapping[str, Any], cite: Any = None, group: str | None = None,
                    after_lead: bool = False) -> None:
    """"Its share of “genuine” transactions declined must meet the 1% budget by the 95% Clopper–Pearson upper bound
    adjusted for card clustering (Korn & Graubard 1998)." — the bank's
    constraint where it binds, the bound named and cited once; how it is taken goes with the formula in the
    Definitions (:func:`budget_definitions`). ``group``: the column whose groups the bound allows for (None: the items
    taken as independent, Clopper–Pearson). ``after_lead``: right after the sentence that leads with the deployed
    threshold, which "its" then names.

    >>> t = Text()
    >>> budget_sentence(t, {"classes": ["ham", "spam"], "positive_class": "spam", "item_name": "message",
    ...                     "fpr_budget": 0.001, "context": "legitimate messages filtered to junk"})
    >>> "".join(s.text for s in t.spans)
    'The share of “ham” messages filtered at the deployed threshold must meet the 0.1% budget by the 95% Clopper–Pearson upper bound. '
    >>> t = Text()
    >>> budget_sentence(t, {"classes": ["ham", "spam"], "positive_class": "spam", "item_name": "message",
    ...                     "fpr_budget": 0.001, "context": "filtered to junk"}, group="recipient_id", after_lead=True)
    >>> "".join(s.text for s in t.spans)
    'Its share of “ham” messages filtered must meet the 0.1% budget by the 95% Clopper–Pearson upper bound adjusted for recipient clustering. '
    >>> t = Text()
    >>> budget_sentence(t, {"classes": ["ham", "spam"], "positive_class": "spam", "item_name": "message",
    ...                     "fpr_budget": 0.001}, group="recipient_id")
    >>> "".join(s.text for s in t.spans)
    'The share of “ham” messages flagged at the deployed threshold must meet the 0.1% budget by the 95% Clopper–Pearson upper bound adjusted for recipient clustering. '
    """
    budget = answers.get("fpr_budget")
    if budget is None:
        return
    items = plural(str(answers.get("item_name") or "item"))
    neg = _negative(answers)
    who = f"“{neg}” {items}" if neg is not None else f"negative {items}"
    verb = _verb(str(answers.get("context") or ""))
    share = f"Its share of {who} {verb}" if after_lead else f"The share of {who} {verb} at the deployed threshold"
    p.t(f"{share} must meet the {percent(float(budget))} budget by the 95% Clopper–Pearson upper bound"
        + (f" adjusted for {_unit(group)} clustering" if group else ""))
    p.cite(bound_cite(cite, group))
    p.t(". ")


def deployed_lead(answers: Mapping[str, Any], ids: Sequence[str]) -> bool:
    """Whether the recall of the deployed threshold leads, with TPR at the budget beside it: a threshold is in use
    (``operating_point: fixed``, its labels in the predictions) and a false positive rate budget is given, so the
    figure of the threshold in use leads and the best threshold within the budget, found on the test set, stands
    beside it (rules_constraints.yaml, rule fpr_budget; issue 22, the fraud and spam readers). ``ids``: the
    reported metrics, the lead first.

    >>> deployed_lead({"operating_point": "fixed", "fpr_budget": 0.01}, ["recall", "tpr_at_fpr"])
    True
    >>> deployed_lead({"operating_point": "open", "fpr_budget": 0.01}, ["tpr_at_fpr", "roc_auc"])
    False
    """
    return (answers.get("operating_point") == "fixed" and answers.get("fpr_budget") is not None
            and bool(ids) and ids[0] == "recall" and "tpr_at_fpr" in ids)


def deployed_lead_sentence(p: Text, answers: Mapping[str, Any], name: str) -> None:
    """"We lead with recall at the deployed threshold, the share of “fraud” transactions it declines, because that
    threshold is in use." — the author's constraint argues: the threshold in use is what is evaluated, not
    the best one the test set allows (the budget sentence follows it, :func:`budget_sentence`).

    >>> t = Text()
    >>> deployed_lead_sentence(t, {"positive_class": "spam", "item_name": "message",
    ...                            "context": "messages above the threshold are filtered to junk"}, "recall")
    >>> "".join(s.text for s in t.spans)
    'We lead with recall at the deployed threshold, the share of “spam” messages it filters, because that threshold is in use. '
    """
    items = plural(str(answers.get("item_name") or "item"))
    pos = answers.get("positive_class")
    who = f"“{pos}” {items}" if pos is not None else f"positive {items}"
    verb = _PRESENT[_verb(str(answers.get("context") or ""))]
    p.t(f"We lead with {name} at the deployed threshold, the share of {who} it {verb}, because that threshold is "
        "in use. ")


def fewest_negatives(budget: float, confidence: float = 0.95) -> int:
    """The fewest negatives whose one-sided Clopper–Pearson upper bound can be at most ``budget``: with none flagged
    the bound is ``1 − (1 − confidence)^(1/N)``, so ``N ≥ ln(1 − confidence) / ln(1 − budget)`` (the spam reader,
    issue 22: "no statement of how many ham messages a 0.1% upper bound needs"). With groups resampled the bound
    is never lower, so this is the least the check needs in any design.

    >>> fewest_negatives(0.001), fewest_negatives(0.01)
    (2995, 299)
    """
    return math.ceil(math.log(1.0 - confidence) / math.log1p(-budget))


def fewest_words(rate: float, who: str, group: str | None, none: str = "none flagged",
                 said: str = "reaches") -> str:
    """Before data, "Even with none flagged, the bound reaches 0.1% only from 2,995 “ham” messages on; clustering
    in recipients raises that number" — only where that number can bind (:data:`FEWEST_SAID`), else ``""``.

    >>> fewest_words(0.001, "“ham” messages", "recipient_id")
    '. Even with none flagged, the bound reaches 0.1% only from 2,995 “ham” messages on; clustering in recipients raises that number'
    >>> fewest_words(0.01, "“genuine” transactions", "card_id")
    ''
    """
    n = fewest_negatives(rate)
    if n < FEWEST_SAID:
        return ""
    more = f"; clustering in {plural(_unit(group))} raises that number" if group else ""
    return f". Even with {none}, the bound {said} {percent(rate)} only from {n:,} {who} on{more}"


def design_words(record: Mapping[str, Any], who: str, group: str | None, rate: float, confidence: float = 0.95,
                 none: str = "none flagged") -> str:
    """With data, what the bound rests on: "The test set holds 118,502 “genuine” transactions from 3,950 cards; the
    design effect is 1.83 and the effective sample size 64,600" (one clause per system when several), and, when an
    effective sample size falls short of the fewest a bound within ``rate`` needs, that it cannot show it met.

    >>> design_words({"systems": {"m": {"negatives": 118502.0, "groups": 3950, "design_effect": 1.831,
    ...               "effective_negatives": 64630.2}}}, "“genuine” transactions", "card_id", 0.01)
    '. The test set holds 118,502 “genuine” transactions from 3,950 cards; the design effect is 1.83 and the effective sample size 64,630'
    """
    systems = dict(record.get("systems") or {})
    if not systems:
        return ""
    first = next(iter(systems.values()))
    n = first.get("negatives")
    if n is None:
        return ""
    text = f". The test set holds {count_text(float(n))} {who}"
    if not group or first.get("groups") is None:
        return text
    text += f" from {int(first['groups']):,} {plural(_unit(group))}"
    parts = [(name, v.get("design_effect"), v.get("effective_negatives")) for name, v in systems.items()]
    said = [(name, d, e) for name, d, e in parts if d is not None and e is not None]
    if not said:
        return text
    if len(said) == 1:
        text += f"; the design effect is {said[0][1]:.3g} and the effective sample size {said[0][2]:,.0f}"
    else:
        text += "; the design effect and the effective sample size are " + ", ".join(
            f"{d:.3g} and {e:,.0f} for {name}" for name, d, e in said)
    need = fewest_negatives(rate, confidence)
    if min(e for _, _, e in said) < need:
        text += (f". Below an effective sample size of {need:,}, the bound cannot reach {percent(rate)} even with "
                 f"{none}")
    return text


def budget_definitions(answers: Mapping[str, Any], group: str | None,
                       record: Mapping[str, Any] | None = None) -> list[MetricEntry]:
    """The formula of the share the paragraph sets against the budget, and how its bound is taken: Clopper–Pearson
    when the items are drawn one by one; with ``group``, the column whose groups the bound allows for, Korn &
    Graubard's bound at the effective sample size, because the flags of one card's transactions are not independent
    and the binomial bound at the number of transactions would claim too much (a group the author named but the run
    did not use is said as not allowed for). ``record``: the report's JSON ``"fpr_budget"`` with data — the
    negatives, the groups and the effective sample size are then given; before data, the fewest negatives a bound
    within the budget needs, where that number can bind (:func:`fewest_words`)."""
    budget = answers.get("fpr_budget")
    if budget is None:
        return []
    items = plural(str(answers.get("item_name") or "item"))
    neg = _negative(answers)
    who = f"“{neg}” {items}" if neg is not None else f"negative {items}"
    where = Text().t(f"It is the share of {who} that the labels in use flag. Its one-sided 95% upper bound is ")
    where.t(bound_words(group, answers.get("group"), items))
    where.t(f"; the budget is met when the bound is at most {percent(float(budget))}")
    where.say(design_effect_words(group, items))
    where.t(design_words(record, who, group, float(budget)) if record and record.get("systems")
            else fewest_words(float(budget), who, group))
    return [MetricEntry(id="fpr_at_threshold", name="False positive rate at the deployed threshold",
                        formula=r"\frac{\mathrm{FP}}{\mathrm{FP}+\mathrm{TN}}", role="complementary",
                        where=where.para())]


def bound_words(group: str | None, named: Any, items: str) -> str:
    """How a one-sided bound is taken (the FPR budget, the risk limit): with the groups of the column ``group``,
    Korn & Graubard's bound (its design effect said by :func:`design_effect_words`); a group the author ``named``
    that the run did not use, said as not allowed for; else Clopper–Pearson.

    >>> bound_words("card_id", "card_id", "transactions")
    "Korn and Graubard's: the Clopper–Pearson bound at the effective sample size, the number of transactions divided by their design effect over the cards, since the transactions of one card are not independent"
    >>> bound_words(None, "card_id", "transactions"), bound_words(None, None, "transactions")
    ('the Clopper–Pearson bound, which takes the transactions as independent', 'the Clopper–Pearson bound')
    """
    if group:
        one = _unit(group)
        return (f"Korn and Graubard's: the Clopper–Pearson bound at the effective sample size, the number of {items} "
                f"divided by their design effect over the {plural(one)}, since the {items} of one {one} are not "
                "independent")
    if named:
        return f"the Clopper–Pearson bound, which takes the {items} as independent"
    return "the Clopper–Pearson bound"


def design_effect_words(group: str | None, items: str) -> str:
    """What the design effect of :func:`bound_words` is, as a pattern whose ``$…$`` are formulas (``Text.say``);
    ``""`` without groups.

    >>> design_effect_words("card_id", "transactions")
    ". The design effect is the variance of the share estimated over the cards relative to its binomial variance, and at least 1; the effective sample size is then scaled by $(t_{N-1}/t_{G-1})^2$, $t$ the 95th percentiles of Student's t, $N$ the number of transactions and $G$ of cards"
    """
    if not group:
        return ""
    units = plural(_unit(group))
    return (f". The design effect is the variance of the share estimated over the {units} relative to its binomial "
            "variance, and at least 1; the effective sample size is then scaled by $(t_{N-1}/t_{G-1})^2$, $t$ the 95th "
            f"percentiles of Student's t, $N$ the number of {items} and $G$ of {units}")


def bound_method(use_groups: bool) -> str:
    """The bound's method as the report's JSON records it."""
    return ("one-sided Clopper–Pearson at the effective sample size over the groups (Korn & Graubard 1998)"
            if use_groups else "one-sided Clopper–Pearson")


def cell(v: float | None, digits: int) -> str:
    """A table cell: the number to ``digits`` decimals, a dash when undefined."""
    return "—" if v is None or not math.isfinite(v) else f"{v:.{digits}f}"


def count_text(v: float) -> str:
    """A count as a reader reads it (``1,250,000``); a weighted mass keeps its decimals.

    >>> count_text(1250000.0), count_text(2.5)
    ('1,250,000', '2.5')
    """
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.4g}"


def _counts(system: Any, joint: Any, name: str, pos: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per row of the joint table (one per label combination and group), the negatives the system flags and the
    negatives; from the confusion matrix (one row) without a joint table."""
    if joint is not None and name in joint.systems:
        p = list(joint.labels).index(pos)
        col = 1 + list(joint.systems).index(name)
        neg = joint.codes[:, 0] != p
        counts = np.asarray(joint.counts, dtype=np.float64)
        return counts * (neg & (joint.codes[:, col] == p)), counts * neg
    labels = list(system.labels)
    p = labels.index(pos)
    c = np.asarray(system.counts, dtype=np.float64)
    rows = [i for i in range(len(labels)) if i != p]
    return np.array([c[rows, p].sum()]), np.array([c[rows, :].sum()])


def budget_tables(plan: Plan, systems: Mapping[str, Any], joint: Any, groups: Any, pos: Any, resamples: int,
                  seed: Any, digits: int = 3, record: dict[str, Any] | None = None) -> list[TableBlock]:
    """The table ``fpr_budget_check``; ``record``, when given, receives it as numbers (the report's JSON
    ``"fpr_budget"``). ``groups``: the group of each joint-table row, or None (items drawn one by one)."""
    d = plan.diagnostic("fpr_budget_check")
    if d is None or not systems or pos is None or any(len(getattr(s, "labels", ())) != 2 for s in systems.values()):
        return []
    if pos not in list(next(iter(systems.values())).labels):
        return []
    budget, confidence = float(d.params["max_fpr"]), float(d.params.get("confidence", 0.95))
    use_groups = groups is not None and joint is not None and resamples > 0
    record = {} if record is None else record
    record.update(budget=budget, confidence=confidence, sided="upper", method=bound_method(use_groups), systems={})
    rows = []
    for name, cm in systems.items():
        fp, neg = _counts(cm, joint, name, pos)
        if use_groups:
            check = fpr_budget_check(fp, neg, budget, confidence, groups=groups, n_resamples=resamples, seed=seed)
        else:
            check = fpr_budget_check(fp.sum(), neg.sum(), budget, confidence)
        record["systems"][name] = check.to_json()
        design = [f"{check.groups:,}" if check.groups is not None else "—",
                  cell(check.design_effect, 2),
                  "—" if check.effective_n is None else f"{check.effective_n:,.0f}"] if use_groups else []
        rows.append([name, f"{count_text(check.false_positives)} / {count_text(check.negatives)}", *design,
                     cell(check.rate, max(digits, 4)), cell(check.upper, max(digits, 4)), percent(budget),
                     check.verdict])
    how = ("Clopper–Pearson at Korn and Graubard's effective sample size, the negatives divided by their design effect "
           "over the groups, whose items are not independent, and scaled for the groups' degrees of freedom"
           if use_groups else "one-sided Clopper–Pearson")
    return [TableBlock(
        id="fpr_budget_check", title="The labels in use against the false positive rate budget",
        caption=(f"The negatives each system's labels flag at the threshold in use (flagged / negatives), their share "
                 f"(the false positive rate) and its one-sided {confidence:.0%} upper confidence bound ({how}). Within "
                 f"the budget: the bound is at most {percent(budget)}; over it: the share itself is above it; otherwise the "
                 "data do not show the budget met."),
        columns=["system", "flagged / negatives",
                 *(["groups", "design effect", "effective sample size"] if use_groups else []),
                 "false positive rate", f"{confidence:.0%} upper bound", "budget", "verdict"],
        numeric=[False, True, *([True] * 3 if use_groups else []), True, True, True, False], rows=rows)]
