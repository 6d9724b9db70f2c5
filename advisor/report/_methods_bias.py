"""The bias AUCs of Borkan et al. (2019) in the methods: their sentence and their definitions.

With subgroup columns, a binary task, a class of interest and scores, the plan carries the diagnostic ``bias_aucs``
(:mod:`advisor.plan._build`); the paragraph then says, in a sentence of its own with its source, what the BPSN and
BNSP AUCs catch in the author's classes and items ("non-toxic comments of that value scored above toxic ones
elsewhere"), and the Definitions give the three formulas from the catalogue with every symbol.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import favourable_class
from ..questionnaire import load_fields, plural
from ._methods_lists import Text, where_clause
from ._methods_text import GAPS_WHY as W_GAPS_WHY
from ._methods_text import subgroup_unit, subgroups_phrase
from ._models import MetricEntry

__all__ = ["BIAS_SOURCE", "bias_lead_sentence", "one_flag_limitation", "ERROR_RATES_SOURCE", "SMD_SOURCE", "adverse_impact_sentence", "error_rates_sentence", "bias_definitions", "bias_score_sentence", "four_fifths_rates", "four_fifths_reading_sentence", "LINE_READING", "RATIOS_NOT_BCA",
           "bias_sentence", "catalogue_definitions", "decision_groups_sentence", "smd_definitions", "smd_sentence",
           "smd_subgroup_flag"]

#: The BibTeX key of the bias AUCs
BIAS_SOURCE = "borkan2019nuanced"
_IDS = ("subgroup_auc", "bpsn_auc", "bnsp_auc")
#: The BibTeX key of the per-group error rates at the equal-error threshold
ERROR_RATES_SOURCE = "dixon2018measuring"
#: The BibTeX key of the standardized mean difference and its flags (0.15 overall, 0.10 within a subgroup)
SMD_SOURCE = "williamson2012framework"
_WORD = re.compile(r"^[A-Za-z][A-Za-z\- ]{0,30}$")


def _kinds(answers: Mapping[str, Any]) -> tuple[str, str, str]:
    """``(positive items, negative items, the noun for "ones")``: "toxic comments", "non-toxic comments", "ones";
    a class that is no word is named: "items of class “1”"."""
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    pos = str(answers.get("positive_class"))
    neg = next((str(c) for c in answers.get("classes") or [] if str(c) != pos), None)
    if neg is not None and _WORD.match(pos) and _WORD.match(neg):
        return f"{pos} {items}", f"{neg} {items}", "ones"
    other = f"{items} of another class" if neg is None else f"{items} of class “{neg}”"
    return f"{items} of class “{pos}”", other, items


def bias_sentence(p: Text, answers: Mapping[str, Any], terse: bool = False, also: str | None = None,
                  bare: bool = False, led: bool = False) -> None:
    """"Within each value of “identity_mentioned” we give the subgroup AUC, the BPSN AUC, which catches non-toxic
    comments of that value scored above toxic ones elsewhere, and the BNSP AUC, which catches toxic comments of that
    value scored below non-toxic ones elsewhere (Borkan et al. 2019)."; ``terse`` when the paragraph must shorten:
    "…we give the subgroup, BPSN and BNSP AUCs, which catch a value's non-toxic comments scored above toxic ones
    elsewhere or its toxic comments scored below non-toxic ones (Borkan et al. 2019)." ``also``: a promise said first
    before the terse sentence ("We give every metric within each value of …. We also give the subgroup, BPSN and BNSP
    AUCs, …");
    ``bare`` (with ``terse``, the last shortening): the three AUCs named without what each catches. ``led``: the
    AUC that answers the author's harm was said with the lead (:func:`bias_lead_sentence`), so only the others follow.

    >>> t = Text()
    >>> bias_sentence(t, {"subgroups": ["sex"], "item_name": "loan", "classes": [0, 1], "positive_class": 1})
    >>> t.spans[0].text[:120]
    'Within each value of “sex” we give the subgroup AUC, the BPSN AUC, which catches loans of class “0” of that value scored'
    """
    cols = _columns(answers)
    unit = subgroup_unit(_described(answers))
    pos, neg, ones = _kinds(answers)
    pos_word, neg_word = (pos.split()[0], neg.split()[0]) if ones == "ones" else (pos, neg)
    above, below = f"{pos_word} {ones}" if ones == "ones" else pos, f"{neg_word} {ones}" if ones == "ones" else neg
    harm = _harm(answers) if led else None
    if harm is not None:  # the AUC of the author's harm was said with the lead, with its source: the subgroup AUC
        # and the other one follow, what the other catches said unless the paragraph must shorten (its formula says it)
        start = f"We give {also}. We also give" if also else f"{_capital(cols)} we give"
        other = {"false_alarm": ("BNSP", f", the latter catching a {unit}'s {pos} scored below {below} elsewhere"),
                 "missed": ("BPSN", f", the latter catching a {unit}'s {neg} scored above {above} elsewhere")}
        if harm in other and also and terse:  # one sentence with the promise: "…, the gap in ROC AUC, and the …"
            name, _ = other[harm]
            p.t(f"We give {also.replace(', and the gap', ', the gap')}, and the subgroup and {name} AUCs. ")
        elif harm in other:
            name, gloss = other[harm]
            p.t(f"{start} the subgroup and {name} AUCs" + ("" if terse else gloss) + ". ")
        else:
            p.t(f"{start} the subgroup AUC. ")
        return
    if terse and bare:  # the last shortening: the three named, their formulas below say what each catches
        start = f"We give {also}, and" if also else f"{_capital(cols)} we give"
        p.t(f"{start} the subgroup, BPSN and BNSP AUCs")
    elif terse:  # the subgroup promise said first in a sentence of its own, then the AUCs and what they catch
        start = f"We give {also}. We also give" if also else f"{_capital(cols)} we give"
        p.t(f"{start} the subgroup, BPSN and BNSP AUCs, which catch a {unit}'s {neg} scored above {above} elsewhere or "
            f"its {pos} scored below " + (f"{neg_word} {ones}" if ones == "ones" else neg))
    else:
        p.t(f"{_capital(cols)} we give the subgroup AUC, the BPSN AUC, which catches {neg} of that {unit} "
            f"scored above {above} elsewhere, and the BNSP AUC, which catches {pos} of that {unit} scored below {below} "
            "elsewhere")
    p.cite([BIAS_SOURCE]).t(". ")


def error_rates_sentence(p: Text, answers: Mapping[str, Any], terse: bool = False) -> None:
    """"At the threshold where both overall rates are equal, we give each value's false positive and false negative
    rates (Dixon et al. 2018); the first is the share of its non-toxic comments flagged as toxic." — the harm
    a decision does within a group, at one threshold set by a global criterion while the operating point is open
    (the fairness reader); ``terse`` when the paragraph must shorten: the two rates named without the gloss.

    >>> t = Text()
    >>> error_rates_sentence(t, {"item_name": "comment", "classes": ["non-toxic", "toxic"], "positive_class": "toxic"})
    >>> print("".join(sp.text if sp.kind == "text" else "(c)" for sp in t.spans).rstrip())
    At the threshold where both overall rates are equal, we give each value's false positive and false negative rates (c); the first is the share of its non-toxic comments flagged as toxic.
    """
    pos, neg, ones = _kinds(answers)
    flagged = str(answers.get("positive_class"))
    flagged = flagged if ones == "ones" else f"“{flagged}”"
    # the threshold first: after "We also give the subgroup, BPSN and BNSP AUCs" a second "We also give" read as a list
    unit = subgroup_unit(_described(answers))
    p.t(f"At the threshold where both overall rates are equal, we give each {unit}'s false positive and false negative "
        "rates").cite([ERROR_RATES_SOURCE])
    p.t(". " if terse else f"; the first is the share of its {neg} flagged as {flagged}. ")


def decision_groups_sentence(p: Text, answers: Mapping[str, Any], ids: Sequence[str], promise: str,
                             terse: bool = False, bare: bool = False, with_rate: bool = False) -> None:
    """Decisions at a fixed threshold, with subgroup columns: the per-group error rates at that threshold and, for
    risks used as risks, the calibration within each group, named in the subgroup promise — what reads the decision
    in each group, where the bias AUCs of a threshold-free ranking do not (the loan reader). ``ids``: the metrics
    reported (the rates and calibration figures among them are named); ``promise``: "every metric within each value
    of …, with the largest gap …". ``bare`` (the last shortening): the promise alone, "every metric" naming them all
    (the lead and the calibration figures were said above it). ``with_rate`` (with ``bare``, the paragraph's very last
    shortening, with data, where the subgroups' paragraph below says each figure in full): the rate of the favourable
    decision and its ratio join the promise (:func:`rate_clause`), and :func:`four_fifths_reading_sentence` with
    ``answers`` says the line, its source and how each ratio is read, in place of :func:`adverse_impact_sentence`.

    >>> t = Text()
    >>> decision_groups_sentence(t, {"subgroups": ["sex"], "item_name": "applicant", "classes": ["repaid", "default"],
    ...     "positive_class": "default", "costlier_error": "false_alarm", "risk_estimates": True},
    ...     ["specificity", "recall", "calibration_intercept", "calibration_slope"],
    ...     "every metric within each value of “sex”, with the largest gap between values, its interval included")
    >>> print(t.spans[0].text)
    We give every metric within each value of “sex”, with the largest gap between values, its interval included: among them specificity, whose complement is the share of “repaid” applicants the system calls “default”, and the calibration intercept and calibration slope of the risks within each group. 
    """
    pos = str(answers.get("positive_class"))
    neg = next((str(c) for c in answers.get("classes") or [] if str(c) != pos), None)
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    rates = {"specificity": f"specificity, whose complement is the share of “{neg}” {items} the system calls “{pos}”"
             if neg is not None else "specificity",
             "recall": f"recall, whose complement is the share of “{pos}” {items} the system misses"}
    first = {"false_alarm": "specificity", "missed": "recall"}.get(str(answers.get("costlier_error")))
    order = [first] if first in ids else [m for m in ("specificity", "recall") if m in ids][:1]
    # the error a group suffers, said even when the paragraph must shorten (then without its complement's gloss)
    named = [(m if terse else rates[m]) for m in order if m]
    if answers.get("risk_estimates") and {"calibration_intercept", "calibration_slope"} <= set(ids):
        named.append("the calibration intercept and calibration slope of the risks within each group" if not terse
                     else "the calibration intercept and calibration slope")
    tail = (": among them " + ", and ".join(named)) if named and not bare else ""
    if bare:  # the last shortening: why those gaps goes (the gap table's caption says it)
        promise = promise.replace(W_GAPS_WHY[True], "").replace(W_GAPS_WHY[False], "")
    if bare and with_rate:  # "…, the gaps in TPR, FPR and ROC AUC, and the approval rate with its ratio …"
        promise = promise.replace(", and the gaps", ", the gaps", 1) + ", and " + rate_clause(answers)
    p.t(f"We give {promise}{tail}. ")


def rate_clause(answers: Mapping[str, Any]) -> str:
    """The favourable decision's rate and its ratio, as one item of a list: the field's word for the rate where it has
    one ("the approval rate with its ratio to the highest value's"), else the share it counts.

    >>> rate_clause({"classes": ["rejected", "hired"], "positive_class": "hired", "item_name": "candidate"})
    "the share of candidates predicted “hired” with its ratio to the highest value's share"
    """
    fav, items, rate, _ = _favourable_rate(answers)
    return (f"the {rate} with its ratio to the highest value's" if rate else
            f"the share of {items} predicted “{fav}” with its ratio to the highest value's share")


def bias_definitions(cat: Any, two_class: bool = False) -> list[MetricEntry]:
    """The three formulas of the catalogue, each with every symbol it uses (the report's ``defined_once`` leaves
    out what a formula above already defined). ``two_class``: the Definitions write the probability of the
    positive class as $p_t$, so the three use it too (one notation, issue 22)."""
    out = []
    for mid in _IDS:
        rec = cat.metrics[mid]
        form = rec.binary_form if two_class and rec.binary_form is not None else rec
        out.append(MetricEntry(id=mid, name=rec.name, formula=form.formula, interpretation=rec.interpretation,
                               role="complementary", where=where_clause(form.symbols),
                               symbols=dict(form.symbols), references=list(rec.references)))
    return out


def smd_sentence(p: Text, answers: Mapping[str, Any], intervals: bool = True) -> None:
    """"Within each value of “english_learner” we give the standardized mean difference of machine minus human
    scores, with its interval; one beyond ±0.10 is flagged (Williamson et al. 2012)." — the
    signed bias
    of an ordered score per subgroup value; "machine minus human" in automated essay scoring, else "predicted minus
    true".

    >>> t = Text()
    >>> smd_sentence(t, {"subgroups": ["english_learner"], "field": "automated_essay_scoring"})
    >>> t.spans[0].text
    'Within each value of “english_learner” we give the standardized mean difference of machine minus human scores, with its interval; one beyond ±0.10 is flagged '
    """
    who = "machine minus human" if answers.get("field") == "automated_essay_scoring" else "predicted minus true"
    p.t(f"{_capital(_columns(answers))} we give the standardized mean difference of {who} scores"
        + (", with its interval" if intervals else "") + f"; one beyond ±{smd_subgroup_flag(answers):.2f} is flagged")
    p.cite([SMD_SOURCE]).t(". ")


def smd_subgroup_flag(answers: Mapping[str, Any]) -> float:
    """The flag of the standardized mean difference within a subgroup value: the answers' field's (fields.yaml
    ``baseline.smd_subgroup``), else 0.10, the value Williamson, Xi & Breyer (2012) set.

    >>> smd_subgroup_flag({"field": "automated_essay_scoring"}), smd_subgroup_flag({})
    (0.1, 0.1)
    """
    field = load_fields().get(str(answers.get("field"))) if answers.get("field") else None
    base = field.baseline if field is not None else None
    return base.smd_subgroup if base is not None and base.smd_subgroup is not None else 0.10


def smd_definitions(cat: Any, before: Sequence[MetricEntry] = ()) -> list[MetricEntry]:
    """The formula of the standardized mean difference from the catalogue, with every symbol it uses that the
    definitions ``before`` it have not defined (one symbol, one meaning, said once)."""
    rec = cat.metrics["smd"]
    said = {sp.text for e in before if e.where is not None for sp in e.where.spans if sp.kind == "math"}
    symbols = {s: m for s, m in rec.symbols.items() if s not in said}
    return [MetricEntry(id="smd", name=rec.name, formula=rec.formula, interpretation=rec.interpretation,
                        role="complementary", where=where_clause(symbols), references=list(rec.references))]


def _columns(answers: Mapping[str, Any]) -> str:
    """"within each value of “sex” and of “ethnicity”", or the author's words for the groups ("separately for
    comments that mention an identity and those that do not")."""
    cols = [str(c) for c in answers.get("subgroups") or []]
    if not cols:
        return "within each value of each subgroup column"
    said = _described(answers)
    if said:
        return subgroups_phrase(cols, said)
    return "within each value of " + " and of ".join(f"“{c}”" for c in cols)


def _described(answers: Mapping[str, Any]) -> dict[str, str]:
    """The author's words for the groups of the subgroup columns named (``subgroup_descriptions``)."""
    cols = {str(c) for c in answers.get("subgroups") or []}
    return {str(k): str(v) for k, v in (answers.get("subgroup_descriptions") or {}).items() if str(k) in cols}


def _quoted(answers: Mapping[str, Any]) -> str:
    """The subgroup columns by their quoted names: "“sex” and of “ethnicity”" (where the data's values are meant)."""
    return " and of ".join(f"“{c}”" for c in answers.get("subgroups") or []) or "each subgroup column"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _harm(answers: Mapping[str, Any]) -> str | None:
    """The error within a subgroup the author named as the harm (``subgroup_harm``), None when not named."""
    harm = answers.get("subgroup_harm")
    return str(harm) if harm in ("false_alarm", "missed", "both") else None


def bias_lead_sentence(p: Text, answers: Mapping[str, Any], terse: bool = False) -> bool:
    """"Because the harm is a subgroup's non-toxic comments flagged as toxic, each subgroup's BPSN AUC, which ranks
    them against toxic comments from elsewhere, leads beside it (Borkan et al. 2019)." — with scores, subgroup columns and the author's harm within a subgroup named (``subgroup_harm``), the
    bias AUC that answers it leads beside the overall ROC AUC: in unintended-bias work the overall AUC is the
    comparability figure and the bias AUCs are the results (the tox reader). Returns whether it was said.

    >>> t = Text()
    >>> bias_lead_sentence(t, {"subgroups": ["g"], "item_name": "comment", "classes": ["non-toxic", "toxic"],
    ...                        "positive_class": "toxic", "subgroup_harm": "false_alarm"})
    True
    >>> print(t.spans[0].text.rstrip())
    Because the harm is a subgroup's non-toxic comments flagged as toxic, each subgroup's BPSN AUC, which ranks them against toxic comments from elsewhere, leads beside it
    """
    harm = _harm(answers)
    if harm is None:
        return False
    pos, neg, ones = _kinds(answers)
    pos_word = pos.split()[0] if ones == "ones" else None
    flagged = pos_word if pos_word else f"“{answers.get('positive_class')}”"
    if terse:  # once the paragraph must shorten: the AUC and the harm it answers, what it ranks left to its formula
        name = {"false_alarm": "BPSN AUC also leads", "missed": "BNSP AUC also leads",
                "both": "BPSN and BNSP AUCs also lead"}[harm]
        what = {"false_alarm": f"its {neg} flagged as {flagged}", "missed": f"its {pos} left unflagged",
                "both": f"its {neg} flagged and its {pos} left unflagged"}[harm]
        p.t(f"Each subgroup's {name}, since the harm is {what}")
    elif harm == "false_alarm":
        p.t(f"Because the harm is a subgroup's {neg} flagged as {flagged}, each subgroup's BPSN AUC, which ranks them "
            f"against {pos} from elsewhere, leads beside it")
    elif harm == "missed":
        p.t(f"Because the harm is a subgroup's {pos} left unflagged, each subgroup's BNSP AUC, which ranks them "
            f"against {neg} from elsewhere, leads beside it")
    else:
        p.t(f"Because the harm is a subgroup's {neg} flagged and its {pos} left unflagged, each subgroup's BPSN and "
            "BNSP AUCs, which rank its items against those of the other class from elsewhere, lead beside it")
    p.cite([BIAS_SOURCE]).t(". ")
    return True


def _customary(answers: Mapping[str, Any], did: str, default: str) -> tuple[list[str], Any]:
    """The sources the answers' field gives for a figure across subgroups (else ``default``), and the field."""
    field = load_fields().get(str(answers.get("field"))) if answers.get("field") else None
    return list((field.customary.get(did) if field is not None else None) or [default]), field


def adverse_impact_sentence(p: Text, answers: Mapping[str, Any], intervals: bool = False, terse: bool = False,
                            columns_said: bool = False, read: bool = False) -> None:
    """"For each value of “sex” and of “ethnicity” we give the approval rate, the share of applicants predicted
    “repaid”, and its ratio to the highest value's. Fair-lending reviews set the smallest ratio against the
    four-fifths line, a rule of thumb from US employment selection (…)." — the favourable decision is
    the class of interest when its name is a favour, else the other class (:func:`advisor.engine.favourable_class`).
    ``columns_said``: the sentence before named the subgroup columns, so "For each value we also give …" (not the
    columns twice in two sentences). ``read``: each ratio is read against the line by its interval in the sentence
    after (:func:`four_fifths_reading_sentence`), so this one names the line without reading the estimates by it.

    >>> t = Text()
    >>> adverse_impact_sentence(t, {"subgroups": ["sex"], "item_name": "candidate", "classes": ["rejected", "hired"],
    ...                             "positive_class": "hired"})
    >>> print(t.spans[0].text.rstrip())
    For each value of “sex” we give the share of candidates predicted “hired” and its ratio to the highest value's share; a ratio below 0.8 falls short of the four-fifths line, a rule of thumb from the US guidelines on employee selection
    """
    fav, items, rate, sources = _favourable_rate(answers)
    described = bool(_described(answers))
    each = "For each value we also give" if columns_said and not described else \
        "For each subgroup we also give" if columns_said else \
        f"{_capital(_columns(answers))} we give" if described else \
        f"For each value of {_quoted(answers)} we give"
    # the line is a practitioners' rule of thumb with its origin, never a legal standard of the author's jurisdiction
    # (the tox loan reader: the rule comes from US employment selection and has no legal standing in lending; Hall et
    # al. describe it as practitioners' usage; the jurisdiction is a premise the author never gave)
    if rate and terse:  # once the paragraph must shorten: one sentence, the line named with its source and origin;
        # the field's word for the rate without its gloss (the Definitions' formula says which decision it counts)
        p.t(f"{each} the {rate} and its ratio to the highest value's, beside the four-fifths rule of thumb from US "
            "employment selection")
    elif rate:
        p.t(f"{each} the {rate}, the share of {items} predicted “{fav}”, and its "
            "ratio to the highest value's" + (" (percentile bootstrap intervals)" if intervals else "") + ". "
            + ("Practitioners set the ratios against the four-fifths line, a rule of thumb from US employment "
               "selection" if read and len(sources) > 1 else "The ratios are set against the four-fifths line, a rule "
               "of thumb from the US guidelines on employee selection" if read else
               "Practitioners set the smallest ratio against the four-fifths line, a rule of thumb from US employment "
               "selection" if len(sources) > 1 else "The smallest ratio is set against the four-fifths line, a rule "
               "of thumb from the US guidelines on employee selection"))
    else:
        p.t(f"{each} the share of {items} predicted “{fav}” and its ratio to "
            "the highest value's share" + (", each with its percentile bootstrap interval" if intervals else "")
            + ("; the four-fifths line, 0.8, is a rule of thumb from the US guidelines on employee selection" if read
               else "; a ratio below 0.8 falls short of the four-fifths line, a rule of thumb from the US guidelines on "
               "employee selection"))
    p.cite(sources).t(". ")


def four_fifths_reading_sentence(p: Text, answers: Mapping[str, Any] | None = None, bca: bool = False,
                                 reading: bool = True) -> None:
    """"Each ratio is read against 0.8 by its percentile interval: met if wholly at or above, below if wholly under,
    else undecided." — the rule of thumb the paragraph cites is the test of each ratio, read by its interval, never
    by the estimate alone (the fair-lending reader: "make it the test"). The interval is the percentile interval of
    the bootstrap (:mod:`advisor.stats._fairness`); the verdicts are in the report's table
    (:func:`advisor.engine.line_verdict`: the lower bound at least 0.8 meets it, the upper bound under 0.8 falls below).
    With ``bca`` (the paragraph's other intervals are BCa) one sentence says why the ratios' are not (the s38 credit
    reader: "pick one and justify it"): a ratio stops at 1, and a value that leads in the test set has its estimate
    there, where BCa's bias correction pushes the interval up against 1; benchmarks/bench_adverse_impact.py measured
    BCa's coverage of the ratios at 0.78–0.91 near a true ratio of 0.95, the percentile interval's at 0.93–0.98.

    With ``reading`` False (the paragraph is full) only the line is said here, and :data:`LINE_READING` goes with the
    formulas.

    >>> t = Text(); four_fifths_reading_sentence(t); print(t.spans[0].text.rstrip())
    Each ratio is read against 0.8 by its percentile interval: met if wholly at or above, below if wholly under, else undecided.
    >>> t = Text(); four_fifths_reading_sentence(t, bca=True); print("".join(s.text for s in t.spans).strip().split(". ")[-1])
    The ratios take percentile intervals: they are bounded at 1, near which BCa's intervals cover poorly.
    """
    if answers is not None:  # the line named here, with its origin and source (no sentence before this one says it)
        sources = _favourable_rate(answers)[3]
        p.t("Each ratio is set against 0.8, the four-fifths rule of thumb from US employment selection").cite(sources)
        p.t(". It meets the line if its percentile interval lies wholly at or above it, falls below if wholly under, "
            "else is undecided. " if reading else ". ")
    else:
        p.t("Each ratio is read against 0.8 by its percentile interval: met if wholly at or above, below if wholly "
            "under, else undecided. ")
    if bca:
        p.t(RATIOS_NOT_BCA + " ")


#: How each ratio is read against the four-fifths line, said with the formulas when the paragraph has no room (the
#: loan report with data ran to 249 words); the report's table gives each verdict
LINE_READING = ("Each ratio meets the four-fifths line if its percentile interval lies wholly at or above 0.8, falls "
                "below it if wholly under, and is otherwise undecided.")
#: Why the ratios take the percentile interval beside BCa elsewhere (benchmarks/bench_adverse_impact.py)
RATIOS_NOT_BCA = "The ratios take percentile intervals: they are bounded at 1, near which BCa's intervals cover poorly."


def four_fifths_rates(answers: Mapping[str, Any]) -> str:
    """What the four-fifths line of :func:`adverse_impact_sentence` is drawn for, in the same words ("approval rates"
    in credit scoring; else the shares of the items predicted the favourable class), so the sentence on margins can
    set it apart from the gaps that have none (the loan reader).

    >>> four_fifths_rates({"subgroups": ["sex"], "item_name": "candidate", "classes": ["rejected", "hired"],
    ...                    "positive_class": "hired"})
    'the shares of candidates predicted “hired”'
    """
    fav, items, rate, _ = _favourable_rate(answers)
    return plural(rate) if rate else f"the shares of {items} predicted “{fav}”"


def _favourable_rate(answers: Mapping[str, Any]) -> tuple[str, str, str | None, list[str]]:
    """``(favourable class, items in the plural, the field's word for the rate or None, sources)``: what the
    four-fifths sentence and the margin sentence both name."""
    classes = [str(c) for c in answers.get("classes") or []]
    fav = favourable_class(classes, str(answers.get("positive_class")))
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    sources, field = _customary(answers, "adverse_impact", "eeoc1978uniform")
    term = field.terms.get("adverse_impact_ratio") if field is not None else None
    return fav, items, re.sub(r"\s+ratio$", "", term) if term else None, sources


def bias_score_sentence(p: Text, answers: Mapping[str, Any], identities: Sequence[Sequence[Any]] | None = None
                        ) -> None:
    """The Jigsaw competition's final score, said as what it is over the identities at hand (the toxic reader).

    ``identities``: the ``[column, value]`` pairs that mark an identity in the data, None before there are data.

    * Before data: what the score does, its power means lying near the worst identity's value, and that it is
      comparable with the competition's only over the competition's own identity columns (which a subgroup column
      of the author's cannot be known to match).
    * One identity value: a power mean over one value is that value's AUC, so the number is the score's form over
      one identity, the mean of four AUCs, and is not called the competition's score.
    * Several: "The final score of the Jigsaw Unintended Bias competition averages the overall ROC AUC with the three
      AUCs' power means (p = −5) over the values of “identity_mentioned” that mark an identity (…)."

    The interval is BCa like every other resampled figure (:func:`advisor.stats._fairness.bias_score`), so the
    paragraph's sentence on intervals covers it and the score needs no sentence of its own on it.

    >>> t = Text()
    >>> bias_score_sentence(t, {"subgroups": ["identity_mentioned"]}, identities=[["identity_mentioned", "yes"]])
    >>> print(t.spans[0].text.strip())
    We give the form the Jigsaw Unintended Bias competition's score takes over one identity, “identity_mentioned” = yes: the mean of the overall ROC AUC and the three AUCs, each power mean (p = −5) being that value's AUC
    """
    sources, _ = _customary(answers, "bias_score", "jigsaw2019unintended")
    if identities is not None and len(identities) == 1:
        col, val = identities[0]
        p.t(f"We give the form the Jigsaw Unintended Bias competition's score takes over one identity, “{col}” = {val}: "
            "the mean of the overall ROC AUC and the three AUCs, each power mean (p = −5) being that value's AUC")
        p.cite(sources).t(". ")
        return
    if identities is not None:
        p.t("The final score of the Jigsaw Unintended Bias competition averages the overall ROC AUC with the three "
            f"AUCs' power means (p = −5) over the values of {_quoted(answers)} that mark an identity")
        p.cite(sources).t(". ")
        return
    p.t("We give the Jigsaw Unintended Bias competition's score, the overall ROC AUC averaged with the three AUCs' "
        "power means (p = −5) over identities, each near the lowest AUC")
    p.cite(sources).t(". ")
    p.t(f"It is comparable with the competition's only over its {JIGSAW_IDENTITIES} identities. ")


#: How many identity columns the competition's score is taken over: male, female, homosexual_gay_or_lesbian,
#: christian, jewish, muslim, black, white, psychiatric_or_mental_illness, each cut at 0.5 like the toxicity
#: label (the competition's evaluation; its graders, e.g. openai/mle-bench, jigsaw-unintended-bias-in-toxicity-
#: classification/grade.py, take the same nine)
JIGSAW_IDENTITIES = "nine"
#: With one identity subgroup, what the Definitions add to the score's formula
SCORE_ONE_IDENTITY = "Here $N = 1$, so each power mean is that subgroup's own AUC"


def catalogue_definitions(cat: Any, ids: Sequence[str], identities: int | None = None) -> list[MetricEntry]:
    """The formulas of the catalogue's figures ``ids`` with every symbol each uses (the report's ``defined_once``
    leaves out what a formula above already defined); with ``identities == 1`` (one identity subgroup in the data)
    the Jigsaw score's formula says that each power mean is then that subgroup's AUC."""
    out = []
    for mid in ids:
        rec = cat.metrics[mid]
        where = where_clause(rec.symbols)
        if mid == "jigsaw_bias_score" and identities == 1:
            note = Text().say(SCORE_ONE_IDENTITY)
            where = note.para() if where is None else where.model_copy(
                update={"spans": [*where.spans, *Text().t(". ").spans, *note.spans]})
        out.append(MetricEntry(id=mid, name=rec.name, formula=rec.formula, interpretation=rec.interpretation,
                               role="complementary", where=where, symbols=dict(rec.symbols),
                               references=list(rec.references)))
    return out


def one_flag_limitation(p: Text, answers: Mapping[str, Any], identities: Sequence[Sequence[Any]] | None = None
                        ) -> bool:
    """The bias AUCs over one subgroup column that may be a single flag for every identity, said as a limitation:
    Borkan et al. (2019) compute the bias AUCs per identity, and the Jigsaw benchmark's combined score is a power
    mean over its identities, so a pooled flag hides a harm to one identity and its score is not the benchmark's (the
    tox reader). Before data the column's values are unknown, so it is said as a condition; with data that found one
    identity value, as a fact; with several identities, or several columns, nothing. Returns whether it was said.

    >>> t = Text()
    >>> one_flag_limitation(t, {"subgroups": ["identity_mentioned"]})
    True
    >>> print(t.spans[0].text.rstrip())
    If “identity_mentioned” is a single flag for any identity mentioned, its bias AUCs pool identities that unintended-bias work scores one by one, so a harm to one identity can hide among the others
    """
    cols = [str(c) for c in answers.get("subgroups") or []]
    if len(cols) != 1 or (identities is not None and len(identities) != 1):
        return False
    # identities, in the author's own words (the column, its description) or the field of toxicity: never said of a
    # column such as "sex", whose values are no pool of identities
    words = f"{cols[0]} {(answers.get('subgroup_descriptions') or {}).get(cols[0], '')}".lower()
    if "identit" not in words and answers.get("field") != "content_moderation":
        return False
    sources, _ = _customary(answers, "bias_score", "jigsaw2019unintended")
    if identities is None:
        p.t(f"If “{cols[0]}” is a single flag for any identity mentioned, its bias AUCs pool identities that "
            "unintended-bias work scores one by one, so a harm to one identity can hide among the others")
    else:
        p.t(f"“{cols[0]}” marks a single identity value, so its bias AUCs pool whatever identities it covers, which "
            "unintended-bias work scores one by one, and a harm to one identity can hide among the others")
    p.cite([BIAS_SOURCE]).t(". ")
    p.t("The combined bias score of the Jigsaw Unintended Bias benchmark, built from power means of the subgroup, BPSN "
        "and BNSP AUCs across identities, is " + ("then " if identities is None else "") + "not comparable with the benchmark's")
    p.cite(sources).t(". ")
    return True
