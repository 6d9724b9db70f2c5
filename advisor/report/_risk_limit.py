"""A target risk tested at a confidence cut fixed in advance: the table, the JSON and the sentences.

With ``abstention``, ``target_risk`` and ``operating_point: fixed`` the plan carries the diagnostic
``risk_limit_check`` (the legal methodologist: "a coverage read off the test set at its own 2% cut cannot show the
constraint holds … report, on test, the realised risk with its one-sided upper bound, and the coverage. Do this
exactly as the fraud situation does for its FPR budget"). The cut was set before the test (on validation documents,
say); the items it leaves to a person carry the reject label in the predictions, so the cut is given in data as the
fraud situation's deployed threshold is, by its labels. The report then gives, per system, the items answered and
their share (the coverage at the cut), the errors among them and their share (the selective risk at the cut), its
one-sided 95% upper bound and the verdict — within the limit (bound ≤ target), over it (risk > target), or not shown
to be within it — and the methods paragraph leads with it in the author's words.

The bound (:func:`advisor.stats.risk_limit_check`, the bound of :func:`advisor.stats.fpr_budget_check`):
Clopper–Pearson when the items are drawn one by one; with a column of groups (matters) Korn & Graubard's (1998),
Clopper–Pearson at the effective sample size, because the errors of one matter's documents are not independent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..plan import Plan
from ..questionnaire import plural
from ..stats import risk_limit_check
from ._budget import (bound_method, bound_words, cell, count_text, design_effect_words, design_words, fewest_negatives,
                      fewest_words, percent)
from ._methods_intervals import unit_noun
from ._methods_lists import Text
from ._models import MetricEntry, TableBlock

__all__ = ["LIMIT_PROMISE", "fixed_cut", "frozen_coverage_lead", "frozen_coverage_sentences", "frozen_definitions",
           "frozen_lead", "frozen_lead_sentences", "limit_definitions", "limit_lead_sentences", "limit_tables"]

#: The plan's diagnostic as the methods paragraph's list of promises carries it (said in the lead's sentences).
LIMIT_PROMISE = "the error rate of the answers at the cut fixed in advance against the target risk"

#: the author's verb for what the system does with an item it answers (present, past), when the context has one
_VERBS = (("rout", ("routes", "routed")), ("assign", ("assigns", "assigned")), ("forward", ("forwards", "forwarded")),
          ("label", ("labels", "labelled")), ("classif", ("classifies", "classified")))


def _verb(context: str) -> tuple[str, str]:
    """The author's verb for an answer, present and past.

    >>> _verb("documents are routed to one of 30 teams"), _verb("")
    (('routes', 'routed'), ('answers', 'answered'))
    """
    text = context.lower()
    return next((w for stem, w in _VERBS if re.search(rf"\b{stem}", text)), ("answers", "answered"))


def fixed_cut(answers: Mapping[str, Any]) -> bool:
    """Whether a confidence cut fixed in advance is tested against the target risk.

    >>> fixed_cut({"abstention": True, "target_risk": 0.02, "operating_point": "fixed"})
    True
    >>> fixed_cut({"abstention": True, "target_risk": 0.02})
    False
    """
    return bool(answers.get("abstention")) and answers.get("target_risk") is not None \
        and answers.get("operating_point") == "fixed"


def limit_lead_sentences(p: Text, answers: Mapping[str, Any], cite: Any = None) -> None:
    """"We lead with the confidence cut fixed in advance: the share of the documents the system routes at it, and the
    share of those routed that are wrong. We set that error rate, with its one-sided 95% upper bound, against the
    limit of 2%." — the author's constraint where it binds, before the figures of the ranking.

    >>> t = Text()
    >>> limit_lead_sentences(t, {"item_name": "document", "target_risk": 0.02, "context": "routed to a team"})
    >>> print("".join(s.text for s in t.spans))
    We lead with the confidence cut fixed in advance: the share of the documents the system routes at it, and the share of those routed that are wrong. We set that error rate, with its one-sided 95% upper bound, against the limit of 2%. 
    """
    items = plural(str(answers.get("item_name") or "item"))
    present, past = _verb(str(answers.get("context") or ""))
    p.t(f"We lead with the confidence cut fixed in advance: the share of the {items} the system {present} at it, and "
        f"the share of those {past} that are wrong")
    key = cite("Geifman", "2017") if cite is not None else None
    if key:
        p.cite([key])
    p.t(f". We set that error rate, with its one-sided 95% upper bound, against the limit of "
        f"{percent(float(answers['target_risk']))}. ")


def frozen_lead(answers: Mapping[str, Any], primary: Any) -> bool:
    """Whether the cut is fixed on a calibration half and tested on the other (no cut fixed in advance; the plan
    leads with the coverage at the frozen cut).

    >>> frozen_lead({"abstention": True, "target_risk": 0.02}, MetricEntry(id="coverage_guaranteed_risk", name="c",
    ...                                                                  formula="", role="primary"))
    True
    """
    return primary is not None and primary.id == "coverage_guaranteed_risk" and not fixed_cut(answers) \
        and answers.get("target_risk") is not None


def frozen_lead_sentences(p: Text, answers: Mapping[str, Any], cite: Any = None, seed: Any = None) -> None:
    """The cut fixed on one random half of the groups by selection with guaranteed risk, the guarantee as it holds
    (over the draw of that half, for the frozen cut, on items of the same distribution; approximately when the bound
    is taken at an effective sample size), and the lead: what the frozen cut does on the other half (the
    selective-classification methodologist).

    >>> t = Text()
    >>> frozen_lead_sentences(t, {"item_name": "document", "target_risk": 0.02, "context": "routed to a team",
    ...                           "group": "matter_id"}, seed=7)
    >>> print("".join(s.text for s in t.spans))
    On a random half of the matters, seed 7, selection with guaranteed risk sets a cut on the top-label probability. With probability at least 95% over the draw of these matters, the error rate at the frozen cut on documents of new matters like these is at most 2%, approximately, as the design effect is estimated. We lead with coverage at the frozen cut on the other half, the share of its documents routed, with the share of those routed that are wrong and its one-sided 95% upper bound, adjusted for clustering, against the 2% limit. 
    """
    items = plural(str(answers.get("item_name") or "item"))
    present, past = _verb(str(answers.get("context") or ""))
    group = str(answers.get("group") or "")
    units = (unit_noun(group, items) or "groups") if group else items
    limit = percent(float(answers["target_risk"]))
    p.t(f"On a random half of the {units}" + (f", seed {seed}," if seed is not None else ",")
        + " selection with guaranteed risk sets a cut on the top-label probability")
    key = cite("Geifman", "2017") if cite is not None else None
    if key:
        p.cite([key])
    # the bound SGR meets on the calibration half is its construction, not a finding: said in the Definitions; the
    # paragraph gives instead the frozen cut's bound on the other half, which the report sets against the limit (the
    # s33 legal reader: "the paper must show what happened on held-out matters")
    p.t(". ")
    # with groups, the guarantee is over new groups drawn like these, not new items (the s32 reader: "wrong for
    # clustered data: the guarantee … is over new matters drawn like these")
    what = (f"the error rate at the frozen cut on {items} of new {units} like these" if group else
            f"the error rate of new {items} from the same distribution {past} at the frozen cut")
    p.t(f"With probability at least 95% over the draw of these {units}, {what} is at most {limit}"
        + (", approximately, as the design effect is estimated" if group else "") + ". ")
    p.t(f"We lead with coverage at the frozen cut on the other half, the share of its {items} {past}, with the "
        f"share of those {past} that are wrong and its one-sided 95% upper bound"
        # the test half's bound is Korn & Graubard's over the groups, as the calibration half's (the s35 legal reader:
        # "nothing says the test bound is design-effect adjusted")
        + (", adjusted for clustering," if group else "") + f" against the {limit} limit. ")


def frozen_coverage_lead(answers: Mapping[str, Any], primary: Any) -> bool:
    """Whether the cut that answers the target coverage is fixed on a calibration half and tested on the other (the
    plan leads with the selective risk at the frozen cut).

    >>> frozen_coverage_lead({"abstention": True, "target_coverage": 0.8}, MetricEntry(
    ...     id="risk_at_frozen_coverage", name="r", formula="", role="primary"))
    True
    """
    return primary is not None and primary.id == "risk_at_frozen_coverage" \
        and answers.get("target_coverage") is not None


def frozen_coverage_sentences(p: Text, answers: Mapping[str, Any], cite: Any = None, seed: Any = None) -> None:
    """The cut that answers the target coverage fixed on one random half of the groups, and the lead: the selective
    risk at that cut on the other half, with the share answered (the dermatology reader: "fix the deferral threshold
    on a validation split, then report on the test set the realised coverage and the selective risk at that frozen
    threshold").

    >>> t = Text()
    >>> frozen_coverage_sentences(t, {"item_name": "lesion", "target_coverage": 0.8, "group": "patient_id",
    ...                               "context": "lesions are classified"}, seed=2024)
    >>> print("".join(s.text for s in t.spans))
    On a random half of the patients, seed 2024, the cut on the top-label probability that answers 80% of their lesions is fixed. We lead with the selective risk at the frozen cut on the other half, the error rate among the lesions answered, with the share answered. 
    """
    items = plural(str(answers.get("item_name") or "item"))
    group = str(answers.get("group") or "")
    units = (unit_noun(group, items) or "groups") if group else items
    share = percent(float(answers["target_coverage"]))
    whose = f"of their {items}" if group else "of them"
    p.t(f"On a random half of the {units}" + (f", seed {seed}," if seed is not None else ",")
        + f" the cut on the top-label probability that answers {share} {whose} is fixed")
    key = cite("Geifman", "2017") if cite is not None else None
    if key:
        p.cite([key])
    # "answered", not the author's verb for every item: a deferred lesion is classified too, by the dermatologist
    p.t(f". We lead with the selective risk at the frozen cut on the other half, the error rate among the {items} "
        "answered, with the share answered. ")


def fewest_answers(limit: float, confidence: float = 0.95) -> int:
    """The fewest answers whose one-sided Clopper–Pearson bound can be within ``limit``: with no error the bound is
    ``1 − (1 − confidence)^(1/m)``.

    >>> fewest_answers(0.02)
    149
    """
    return fewest_negatives(limit, confidence)  # the same bound: no error among m answers, as none flagged among N


def limit_definitions(answers: Mapping[str, Any], group: str | None,
                      record: Mapping[str, Any] | None = None) -> list[MetricEntry]:
    """The formula of the error rate the paragraph sets against the target risk, and how its bound is taken; with
    ``record`` (the report's JSON ``"risk_limit"``), the answers, the groups and the effective sample size the bound
    rests on, else the fewest answers a bound within the limit needs, where that number can bind (as the budget's)."""
    if not fixed_cut(answers):
        return []
    limit = float(answers["target_risk"])
    items = plural(str(answers.get("item_name") or "item"))
    _, past = _verb(str(answers.get("context") or ""))
    where = Text().say(f"where $m_c$ is the number of {items} {past} at the cut, the {items} left to a person not "
                       f"counted, and $E_c$ the number of wrong answers among them; the coverage beside it is "
                       f"$m_c/n$. Its one-sided 95% upper bound is ")
    where.t(bound_words(group, answers.get("group"), items))
    where.t(f"; the limit is met when the bound is at most {percent(limit)}")
    where.say(design_effect_words(group, items))
    systems = {name: {**v, "negatives": v.get("answered")}
               for name, v in dict((record or {}).get("systems") or {}).items()}
    where.t(design_words({"systems": systems}, f"{past} {items}", group, limit, none="no error") if systems
            else fewest_words(limit, f"{items} {past}", group, none="no error"))
    return [MetricEntry(id="risk_at_cut", name="Error rate of the answers at the cut fixed in advance",
                        formula=r"\frac{E_c}{m_c}", role="complementary", where=where.para())]


def frozen_definitions(answers: Mapping[str, Any], group: str | None) -> list[MetricEntry]:
    """The formula of the error rate of the answers at the frozen cut, on the test half, and how its bound is taken
    (``group``: the column whose groups the run resampled, else None)."""
    items = plural(str(answers.get("item_name") or "item"))
    _, past = _verb(str(answers.get("context") or ""))
    where = Text().say(f"where $m_{{\\theta^{{*}}}}$ is the number of test {items} {past} at the frozen cut "
                       f"$\\theta^{{*}}$ and $E_{{\\theta^{{*}}}}$ the number of wrong answers among them. Its one-sided "
                       f"95% upper bound, set against the target risk, is ")
    where.t(bound_words(group, answers.get("group"), items))
    return [MetricEntry(id="risk_at_frozen_cut", name="Error rate of the answers at the frozen cut",
                        formula=r"\frac{E_{\theta^{*}}}{m_{\theta^{*}}}", role="complementary", where=where.para())]


def _rows(system: Any, joint: Any, name: str, abstained: float) -> tuple[np.ndarray, np.ndarray, float]:
    """``(errors, answered)`` per row of the joint table (one per label combination and group) and the items; from
    the confusion matrix of the answers (one row) without a joint table."""
    if joint is not None and name in joint.systems:
        col = 1 + list(joint.systems).index(name)
        counts = np.asarray(joint.counts, dtype=np.float64)
        k = len(joint.labels)
        answered = joint.codes[:, col] != k  # the reject label's code is k (JointCounts.with_reject)
        wrong = answered & (joint.codes[:, col] != joint.codes[:, 0])
        return counts * wrong, counts * answered, float(counts.sum())
    c = np.asarray(system.counts, dtype=np.float64)
    n = float(c.sum())
    return np.array([n - float(np.trace(c))]), np.array([n]), n + float(abstained)


def limit_tables(plan: Plan, systems: Mapping[str, Any], abstained: Mapping[str, float], joint: Any, groups: Any,
                 resamples: int, seed: Any, digits: int = 3, record: dict[str, Any] | None = None) -> list[TableBlock]:
    """The table ``risk_limit_check``; ``record``, when given, receives it as numbers (the report's JSON
    ``"risk_limit"``). ``groups``: the group of each joint-table row, or None (items drawn one by one)."""
    d = plan.diagnostic("risk_limit_check")
    if d is None or not systems:
        return []
    limit, confidence = float(d.params["target_risk"]), float(d.params.get("confidence", 0.95))
    use_groups = groups is not None and joint is not None and resamples > 0
    record = {} if record is None else record
    record.update(target_risk=limit, confidence=confidence, sided="upper", method=bound_method(use_groups), systems={})
    rows = []
    for name, cm in systems.items():
        wrong, answered, n = _rows(cm, joint, name, float(abstained.get(name, 0.0)))
        if use_groups:
            check = risk_limit_check(wrong, answered, limit, confidence, groups=groups, n_resamples=resamples,
                                     seed=seed)
        else:
            check = risk_limit_check(wrong.sum(), answered.sum(), limit, confidence)
        coverage = check.negatives / n if n > 0 else float("nan")
        entry = check.to_json()
        record["systems"][name] = {"items": n, "answered": entry.pop("negatives"), "coverage": coverage,
                                   "errors": entry.pop("false_positives"), **entry}
        rows.append([name, f"{count_text(check.negatives)} / {count_text(n)}", cell(coverage, digits),
                     f"{count_text(check.false_positives)} / {count_text(check.negatives)}", cell(check.rate, max(digits, 4)),
                     cell(check.upper, max(digits, 4)), percent(limit), check.verdict])
    how = ("Clopper–Pearson at Korn and Graubard's effective sample size, the answers divided by their design effect "
           "over the groups, whose items are not independent, and scaled for the groups' degrees of freedom"
           if use_groups else "one-sided Clopper–Pearson")
    return [TableBlock(
        id="risk_limit_check", title="The cut fixed in advance against the target risk",
        caption=(f"At the confidence cut fixed in advance (the items left to a person carry the reject label): the "
                 f"items answered and their share (the coverage), the wrong answers among them and their share (the "
                 f"error rate of the answers), and its one-sided {confidence:.0%} upper confidence bound ({how}). "
                 f"Within the limit: the bound is at most {percent(limit)}; over it: the error rate itself is above it; "
                 "otherwise the data do not show the limit met."),
        columns=["system", "answered / items", "coverage", "wrong / answered", "error rate of the answers",
                 f"{confidence:.0%} upper bound", "limit", "verdict"],
        numeric=[False, True, True, True, True, True, True, False], rows=rows)]
