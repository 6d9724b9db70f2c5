"""The recommendation on one screen (``advisor recommend``) and in full (``--explain``).

What to say is decided here — which property argues for the lead, which one a discouraged metric
lacks, which warnings still say something new beside the recommendation; the words come from
:mod:`advisor.questionnaire._words`.
"""

from __future__ import annotations

import contextlib
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .._exceptions import InputError
from ..catalogue import get_catalogue
from ..engine import net_benefit_name, partition_metrics
from ._plain import plain_formulas, protect_formulas, reader_terms
from ._fields import article, load_fields, plural, ranked_pair
from ._structure_words import lead_in_words
from ._words import (SET_ASIDE_PREFIX, ADDS, AVOID, CAVEAT, LEAD, LEAD_COSTLIER, LEAD_COSTS, LEAD_DEPLOYED, LEAD_ITEMS, PROPERTY, PROPERTY_SYMMETRIC, SCREEN, SITUATION,
                     WARNING)

__all__ = ["RELEVANT", "THRESHOLD_FREE", "agree", "avoid_reason", "cost_phrase", "explain_text", "flatten", "join", "lead_properties",
           "lower_name", "property_words", "screen_columns", "screen_text", "screen_width", "situation",
           "warning_words"]

#: Which answers make which properties argue for the lead (in this order of importance).
RELEVANT: list[tuple[str, tuple[Any, ...], tuple[str, ...]]] = [
    ("deployment_prevalence", ("shifted", "unknown"), ("prevalence_invariance",)),
    ("symmetric", (True,), ("symmetry",)),
    ("distance", (True,), ("distance",)),
    ("chance_correction", ("required",), ("chance_correction", "constant_baseline")),
    ("class_weighting", ("equal",), ("class_decomposability",)),
    ("strict_monotonicity", (True,), ("strong_monotonicity",)),
]

Holds = Callable[[str, str], "bool | None"]  # (metric, property) → holds / fails / None: no claim
_WIDTH = 100
_ID = re.compile(r"\s*\((?:[a-z]+_[a-z0-9_]+)\)|\[[a-z_]+\]\s*")
#: A sentence ends at . ! ? before a capital, but not after "et al." or "e.g." / "i.e.".
SENTENCE_END = re.compile(r"(?<!\bal\.)(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+(?=[A-Z“\"'])")


def relevant(answers: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for key, values, ids in RELEVANT:
        if answers.get(key) in values:
            out += [p for p in ids if p not in out]
    return out


def lead_properties(lead: str, answers: Mapping[str, Any], holds: Holds) -> list[str]:
    """The relevant properties the lead metric has, in order of importance."""
    return [pid for pid in relevant(answers) if pid in PROPERTY and holds(lead, pid)]


def property_words(pid: str, answers: Mapping[str, Any]) -> str:
    """A property in reader terms; labelings compared without a reference are no guessing classifier."""
    if answers.get("symmetric") and pid in PROPERTY_SYMMETRIC:
        return PROPERTY_SYMMETRIC[pid]
    return PROPERTY[pid]


def avoid_reason(mid: str, answers: Mapping[str, Any], holds: Holds) -> str:
    """The one property a discouraged metric lacks that matters most here (a key of ``AVOID``)."""
    if answers.get("map_shares"):  # a sample drawn by map class: the design, not a property, decides
        if mid in ("cohen_kappa", "weighted_kappa_linear", "weighted_kappa_quadratic"):
            return "kappa_practice"
        if mid in ("accuracy", "balanced_accuracy", "macro_f1", "micro_f1", "macro_recall"):
            return "unweighted_sample"
    if mid == "accuracy" and len(set(_error_costs(answers.get("error_costs")))) > 1:
        # 1 − accuracy is the expected cost at equal costs: what sets it aside is the costs the author gave, not its
        # true negatives, which the expected cost's n counts too (the sarcasm reader)
        return "equal_costs"
    if answers.get("true_negatives_meaningful") is False and (
            mid in ("accuracy", "balanced_accuracy", "specificity", "npv") or holds(mid, "class_symmetry")):
        return "true_negatives"
    if mid in THRESHOLD_FREE and (answers.get("operating_point") == "fixed" or answers.get("fpr_budget")
                                     or answers.get("review_budget")):
        return "threshold_free"
    if answers.get("class_weighting") == "per_instance" and holds(mid, "class_sensitivity") is True \
            and mid not in ("accuracy", "micro_f1"):
        return "weighs_classes"  # the legal reader: the reason given for macro F1 held for the accuracy kept
    checks = [("opitz_monotonicity", answers.get("task") != "binary")]
    checks += [(pid, answers.get(key) in values) for key, values, ids in RELEVANT for pid in ids]
    checks += [("class_sensitivity", answers.get("class_weighting") == "equal")]
    for pid, matters in checks:
        if matters and holds(mid, pid) is False and pid in AVOID:
            return pid
    record = get_catalogue().metrics.get(mid)
    if record is not None and record.structure == "partition" and holds(mid, "max_agreement") is False \
            and _best_for_singletons(mid):
        return "over_splitting"
    if record is not None and record.structure == "nominal" and not record.needs_probabilities \
            and answers.get("outputs") in ("probabilities", "scores") and answers.get("operating_point") != "fixed" \
            and mid not in ("expected_cost", "normalized_expected_cost"):  # the engine's unchosen threshold
        return "answers_every_item" if answers.get("abstention") else "unchosen_threshold"
    return "other"


def _error_costs(costs: Any) -> list[float]:
    """The positive costs of errors in an answer (``{false_negative: 3, false_positive: 1}`` or a cost matrix as nested
    lists or mappings); a correct decision's 0 is not an error's cost.

    >>> _error_costs({"false_negative": 3, "false_positive": 1}), _error_costs([[0, 5], [1, 0]]), _error_costs(None)
    ([3.0, 1.0], [5.0, 1.0], [])
    """
    if isinstance(costs, Mapping):
        return [c for v in costs.values() for c in _error_costs(v)]
    if isinstance(costs, (list, tuple)):
        return [c for v in costs for c in _error_costs(v)]
    if isinstance(costs, (int, float)) and not isinstance(costs, bool) and costs > 0:
        return [float(costs)]
    return []


def _best_for_singletons(mid: str) -> bool:
    """Whether a partition index gives its best value to a clustering with one item per cluster (purity does).

    >>> _best_for_singletons("purity"), _best_for_singletons("adjusted_rand_index")
    (True, False)
    """
    record = get_catalogue().metrics[mid]
    try:  # two reference clusters of two items each; four clusters of one item
        value = partition_metrics([[1, 1, 0, 0], [0, 0, 1, 1]], [mid])[mid]
    except InputError:
        return False
    return abs(value - (record.range[1] if record.higher_is_better else record.range[0])) < 1e-12


#: Ranking metrics that average over every threshold, when the author uses one operating point.
THRESHOLD_FREE: frozenset[str] = frozenset({"average_precision", "roc_auc"})


def agree(phrase: str, n: int) -> str:
    """The verb of a phrase agreed with the number of its subjects.

    >>> agree("score the probabilities", 1), agree("is a mean", 2), agree("keeps it", 2)
    ('scores the probabilities', 'are a mean', 'keep it')
    >>> agree("depends on the mix", 2), agree("does not", 2), agree("can get worse", 2), agree("misses it", 2)
    ('depend on the mix', 'do not', 'can get worse', 'miss it')
    """
    verb, _, rest = phrase.partition(" ")
    singular = {"are": "is", "give": "gives", "score": "scores", "weigh": "weighs"}
    plural = {"is": "are", "has": "have", "does": "do", "changes": "change", "gives": "give"}
    if n == 1:
        verb = singular.get(verb, verb)
    elif verb in plural:
        verb = plural[verb]
    elif re.fullmatch(r"[a-z]+(?:ss|sh|ch|x|z)es", verb):  # misses, reaches
        verb = verb[:-2]
    elif re.fullmatch(r"[a-z]+[^su]s", verb):  # depends, counts, lacks (not "was", "thus")
        verb = verb[:-1]
    return f"{verb} {rest}".strip()


def join(items: Sequence[str], conj: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> join(["x", "y", "z"]), join(["x", "y"], "or")
    ('x, y and z', 'x or y')
    """
    items = [i for i in items if i]
    return "".join(items) if len(items) <= 1 else ", ".join(items[:-1]) + f" {conj} " + items[-1]


def lower_name(name: str) -> str:
    """A metric name in running text, its gloss dropped: "Log loss (cross-entropy)" → "log loss".

    >>> lower_name("Balanced accuracy"), lower_name("F1 of averages"), lower_name("Brier score")
    ('balanced accuracy', 'F1 of averages', 'Brier score')
    >>> lower_name("Macro-averaged F1 (multi-label)"), lower_name("Hamming loss"), lower_name("F-beta score")
    ('macro-averaged F1', 'Hamming loss', 'F-beta score')
    >>> lower_name("Top-5 accuracy"), lower_name("ROC AUC")
    ('top-5 accuracy', 'ROC AUC')
    """
    name = re.sub(r"\s*\([^)]*\)", "", name).strip()
    first, _, rest = name.partition(" ")
    head = first.split("-")[0]  # "Macro-averaged" is a word; "F-beta" keeps its capital
    if (first[:1].isupper() and first[1:].islower() and len(head) > 1 and head.isalpha()
            and first.replace("-", "").isalnum()
            and first not in _PROPER):
        first = first.lower()
    return f"{first} {rest}".strip() if rest else first


_PROPER = {"Brier", "Cohen", "Matthews", "Fowlkes", "Krippendorff", "Scott", "Fleiss", "Hamming", "Jaccard", "Youden",
           "Gini", "Kendall", "Spearman", "Pearson", "Hellinger", "Jensen"}


def catalogue_holds(answers: Mapping[str, Any]) -> Holds:
    """Whether the catalogue says a metric has a property (``binary_only`` counts for two classes)."""
    cat = get_catalogue()
    binary = answers.get("task") == "binary"

    def holds(mid: str, pid: str) -> bool | None:
        m = cat.metrics.get(mid)
        claim = m.properties.get(pid) if m is not None else None
        if claim is None:
            return None
        return claim.status == "holds" or (binary and claim.status == "binary_only")

    return holds


def cost_phrase(fn: float, fp: float) -> str:
    """The two error costs and their ratio.

    >>> cost_phrase(10, 1)
    'a missed positive costs 10 times as much as a false alarm'
    >>> cost_phrase(8, 4)
    'a missed positive costs 8 and a false alarm 4 (ratio 2)'
    >>> cost_phrase(1, 1)
    'a missed positive costs as much as a false alarm'
    """
    if fn == fp:
        return SITUATION["costs_equal"]
    if fp == 1:
        return SITUATION["costs"].format(ratio=f"{fn:g}")
    return SITUATION["costs_both"].format(fn=f"{fn:g}", fp=f"{fp:g}", ratio=f"{fn / fp:.3g}")


def situation(answers: Mapping[str, Any], given: Any = None) -> list[str]:
    """The situation's phrases that bear on the choice, most important first; with ``given`` (the keys
    the user answered) a default is never stated as the user's situation."""
    if given is not None:
        answers = {k: v for k, v in answers.items() if k in given}
    out = []
    prev = answers.get("deployment_prevalence")
    if prev in ("shifted", "unknown"):
        out.append(SITUATION[prev])
    costs = answers.get("error_costs") or {}
    if costs.get("false_negative") and costs.get("false_positive"):
        out.append(cost_phrase(float(costs["false_negative"]), float(costs["false_positive"])))
    if answers.get("true_negatives_meaningful") is False:
        out.append(SITUATION["no_tn"])
    several = answers.get("annotators") and int(answers["annotators"]) > 2
    out += [SITUATION["annotators" if k == "symmetric" and several else k]
            for k in ("symmetric", "distance") if answers.get(k)]
    if answers.get("risk_estimates"):
        out.append(SITUATION["risks"])
    if answers.get("chance_correction") == "required":
        out.append(SITUATION["chance"])
    if answers.get("class_weighting") in ("equal", "per_instance"):
        out.append(SITUATION[answers["class_weighting"]])
    return out


# ----------------------------------------------------------------------------------------------
# The screen
# ----------------------------------------------------------------------------------------------
def _wrap(text: str, indent: int, first: str = "") -> list[str]:
    return textwrap.wrap(text, _WIDTH, initial_indent=first or " " * indent, subsequent_indent=" " * indent,
                         break_on_hyphens=False)


def _named(text: str, names: Sequence[str]) -> list[str]:
    return [n for n in names if n and n in text]


def _table(rows: list[tuple[str, str]]) -> list[str]:
    col = min(max((len(a) for a, _ in rows), default=0) + 4, 34)
    out = []
    for a, b in rows:
        if len(a) + 4 > col:
            out += _wrap(a, 2)
            out += _wrap(b, col)
        else:
            out += _wrap(b, col, first=f"  {a:<{col - 2}}")
    return out


def screen_text(rec: Any, holds: Holds | None = None) -> str:
    """The one-screen view: lead and reason, metrics beside it, metrics to avoid, warnings in words."""
    answers = rec.answers.model_dump(mode="json")
    holds = holds or catalogue_holds(answers)
    lead = rec.primary
    lead_name = lower_name(lead.name or lead.metric)
    heading = lead_name
    if lead.metric == "net_benefit" and lead.params.get("thresholds"):  # it leads at the risks at which users act
        heading = lower_name(net_benefit_name(lead.params["thresholds"]))
    props = lead_properties(lead.metric, answers, holds)
    reasons = [property_words(p, answers) for p in props[:2 if answers.get("symmetric") or answers.get("distance") else 1]]
    if lead.metric == "f_beta" and lead.params.get("beta") is not None:
        reasons = [f"with β = {float(lead.params['beta']):.3g} " + LEAD_COSTS]
    elif lead.metric in LEAD:  # every placeholder a lead's reason may hold (the selective leads': items, risk)
        item = str(answers.get("item_name") or "item")
        risk = lead.params.get("target_risk") or answers.get("target_risk")
        reasons = [LEAD[lead.metric].format(
            top_k=answers.get("top_k") or "k", item=item, an=article(item), pair=ranked_pair(answers),
            items=plural(item) if answers.get("item_name") else "test items",
            risk=f"{float(risk) * 100:.3g}%" if risk is not None else "the target risk",
            coverage=f"{float(answers['target_coverage']):.0%}" if answers.get("target_coverage") is not None
            else "the target coverage",
            # with groups the halves are halves of the groups, and the bound is taken at their effective sample size
            independent=(f", approximately, the halves being of {plural(_unit_of(answers))} and the bound taken at "
                         "their effective sample size" if answers.get("group") else ""))]
    if answers.get("class_weighting") == "per_instance" and lead.metric in ("accuracy", "micro_f1"):
        reasons.insert(0, LEAD_ITEMS)
    sit = situation(answers, rec.answers.model_fields_set)[:2]
    reason = join(reasons[:2]) or SCREEN["lead_fallback"]
    because = (SCREEN["because"].format(situation=_capital(join(sit)), name=lead_name, reason=reason) if sit
               else _capital(f"{lead_name} {reason}."))
    costlier = answers.get("costlier_error")
    if costlier in LEAD_COSTLIER and lead.metric in ("recall", "specificity", "precision") \
            and not (answers.get("error_costs") or {}):  # the named error argues alone, not a property
        because = _capital(f"{lead_name} {LEAD_COSTLIER[costlier]}.")
    if lead.metric == "recall" and answers.get("operating_point") == "fixed" and answers.get("fpr_budget") is not None \
            and any(a.metric == "tpr_at_fpr" for a in rec.complementary):  # the threshold in use argues (fpr_budget)
        because = _capital(f"{lead_name} {LEAD_DEPLOYED}.")
    # top-k, annotators, spans, rankings: the structure rule's reason
    because = lead_in_words(lead, lead_name) or because
    field = ranked_by_field(rec)
    if field is not None:  # the field's figure leads a ranking on one test set: that is the reason, not a property
        because = SCREEN["ranked_by_field"].format(name=lead_name, field=field)
    lines = [SCREEN["lead"].format(name=heading), *_wrap(because, 2)]
    caveats, warnings = _sorted_warnings(rec)
    if rec.complementary:
        groups: dict[str, list[Any]] = {}
        for a in rec.complementary:
            groups.setdefault(ADDS["class_of_interest"] if _of_class(a, answers) else _adds(a), []).append(a)
        rows = []
        for adds, ms in groups.items():
            if len(ms) == 1 and f"{ms[0].metric}_alone" in ADDS:
                adds = ADDS[f"{ms[0].metric}_alone"]
            extra = [c for m in ms for c in caveats.get(m.metric, []) if c not in adds]
            names = ", ".join(_with_classes(m) for m in ms)
            pos = next((m.params["positive_label"] for m in ms if _of_class(m, answers)), None)
            rows.append((names + (f" of “{pos}”" if pos is not None else ""),
                         "; ".join([adds or ADDS["planned"], *dict.fromkeys(extra)])))
        lines += [SCREEN["beside"], *_table(rows)]
    if rec.discouraged:
        groups2: dict[str, list[str]] = {}
        for a in rec.discouraged:
            groups2.setdefault(avoid_reason(a.metric, answers, holds), []).append(lower_name(a.name or a.metric))
        rows = [(", ".join(ms), agree(AVOID[r], len(ms))) for r, ms in groups2.items()]
        lines += [SCREEN["avoid"], *_table(rows)]
    if warnings:
        lines.append(SCREEN["warnings"])
        for _, text in warnings:
            lines += _wrap(text, 2)
    lines.append(SCREEN["explain"])
    return "\n".join(lines) + "\n"


def ranked_by_field(rec: Any) -> str | None:
    """The name of the author's field when its figure leads because systems are ranked on one test set (the
    engine's lead entry rests on the answers field and ranking), else None."""
    entry = next((e for e in rec.rationale if e.rule == "primary"), None)
    if entry is None or not entry.answers.get("ranking") or not entry.answers.get("field"):
        return None
    field = load_fields().get(str(entry.answers["field"]))
    return field.name if field is not None else None


def _with_classes(advice: Any) -> str:
    """A metric's name in the list, with the classes it is averaged over when they are its parameter (F1^PN)."""
    chosen = advice.params.get("f1_classes")
    if advice.metric == "macro_f1_of_classes" and chosen:
        return "macro F1 over " + join([f"“{c}”" for c in chosen])
    return lower_name(advice.name or advice.metric)


def _adds(advice: Any) -> str:
    """What a metric beside the lead adds, in a few words: the field's figure, as planned, or its own phrase; the
    lead the properties would choose beside the field's figure, with what it keeps."""
    if advice.reason.startswith(SET_ASIDE_PREFIX):
        return advice.reason[len(SET_ASIDE_PREFIX):].split(". ")[0]
    if advice.reason.startswith("the figure reported in "):
        return ADDS["field"]
    if advice.reason.startswith("you planned") and "for illustration only" in advice.reason:
        return ADDS["planned_illustration"]  # at a cut no answer chose (rules_structures.yaml, multi-label scores)
    if advice.reason.startswith("you planned it") and advice.metric not in ADDS:
        return ADDS["planned"]
    return ADDS.get(advice.metric, "")


def _of_class(advice: Any, answers: Mapping[str, Any]) -> bool:
    """A one-vs-rest score of the class of interest among three or more classes."""
    return answers.get("task") == "multiclass" and advice.params.get("positive_label") is not None


def _capital(text: str) -> str:
    """The first letter capitalised, the rest untouched ("macro F1 …" → "Macro F1 …")."""
    return text[:1].upper() + text[1:]


def _sorted_warnings(rec: Any) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """Warnings said as caveats of the metrics beside the lead, dropped when they concern only metrics
    the view already advises against, and the rest in plain words."""
    answers = rec.answers.model_dump(mode="json")
    beside = {a.name: a.metric for a in rec.complementary if a.name}
    avoided = {a.name for a in rec.discouraged if a.name}
    caveats: dict[str, list[str]] = {}
    out: list[tuple[str, str]] = []
    for w in rec.warnings:
        named = _named(w.message.split(":")[0], [rec.primary.name, *beside, *avoided])
        if w.code in CAVEAT and named:
            for n in named:
                if n in beside:
                    caveats.setdefault(beside[n], []).append(CAVEAT[w.code])
            if rec.primary.name not in named:
                continue
            named = [rec.primary.name]
        given = "deployment_prevalence" in rec.answers.model_fields_set  # a default is no premise (issue 22)
        where = SCREEN["where_shifted" if answers.get("deployment_prevalence") == "shifted" else
                       "where_unknown" if given else "where_unsaid"]
        if w.code in WARNING and "{metrics}" in WARNING[w.code] and not named:
            continue  # about metrics this view neither reports nor advises against (e.g. planned, not computed)
        if w.code in WARNING:
            text = WARNING[w.code].format(metrics=join([lower_name(n) for n in named]).capitalize(), where=where,
                                            lead=lower_name(rec.primary.name or rec.primary.metric))
        else:
            first = SENTENCE_END.split(protect_formulas(w.message, lambda t: _ID.sub("", t)).strip())[0]
            text = plain_formulas(flatten(first))
        if text not in [t for _, t in out]:
            out.append((w.code, text))
    return caveats, out


def warning_words(rec: Any, *, citations: bool = True) -> list[tuple[str, str]]:
    """(code, plain words) of each warning that still says something beside the recommendation;
    without ``citations`` the author–year sources are dropped (a report cites in its own style)."""
    out = _sorted_warnings(rec)[1]
    if not citations:
        out = [(c, re.sub(r"\s*\([^()]*\b(?:19|20)\d\d[^()]*\)", "", t)) for c, t in out]
    return out


def flatten(text: str) -> str:
    """Keep one level of parentheses: an inner "(…)" loses its brackets; backquoted formulas are kept whole.

    >>> flatten("as shown (Opitz (2024), §8) here")
    'as shown (Opitz 2024, §8) here'
    """
    if "`" in text:
        return protect_formulas(text, flatten)
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
            if depth > 1:
                continue
        elif ch == ")":
            depth = max(depth - 1, 0)
            if depth >= 1:
                continue
        out.append(ch)
    return "".join(out)


# ----------------------------------------------------------------------------------------------
# The full reasoning
# ----------------------------------------------------------------------------------------------
def explain_text(rec: Any) -> str:
    """The one-screen view, then every step of the reasoning, the duties and the warnings in full:
    one level of parentheses, no sentence twice (internal ids may appear)."""
    lines = [screen_text(rec).rstrip("\n").rsplit("\n", 1)[0], "", "Reasoning"]
    seen: set[str] = set()

    names = {m: lower_name(r.name) for m, r in get_catalogue().metrics.items()}

    def fresh(text: str) -> str:
        kept = []
        for s in SENTENCE_END.split(plain_formulas(flatten(reader_terms(text, names))).strip()):
            if s and s.lower() not in seen:
                seen.add(s.lower())
                kept.append(s)
        return " ".join(kept)

    for e in rec.rationale:
        body = fresh(e.text + (f" Source: {e.source}." if e.source else ""))
        if body:
            lines += _wrap(f"[{e.rule}] {body}", 4, first="  - ")
    for a in rec.discouraged:
        body = fresh(a.reason)
        if body:
            lines += _wrap(f"{a.name or a.metric} is not the lead: {body}", 4, first="  - ")
    if rec.duties:
        lines.append("Reporting duties")
        for d in rec.duties:
            lines += _wrap(fresh(d) or d, 4, first="  - ")
    if rec.warnings:
        lines.append("Warnings in full")
        for w in rec.warnings:
            body = fresh(w.message)
            if body:
                lines += _wrap(f"[{w.code}] {body}", 4, first="  - ")
    return "\n".join(lines) + "\n"


def screen_columns() -> int:
    """The width the screen views are laid out for (see :func:`screen_width`)."""
    return _WIDTH


@contextlib.contextmanager
def screen_width(columns: int | None) -> Iterator[None]:
    """Lay out :func:`screen_text` and :func:`explain_text` for a terminal of ``columns`` columns
    (lines of at most ``columns - 1`` characters, never wider than the usual 100; None: the usual)."""
    global _WIDTH
    saved = _WIDTH
    if columns is not None:
        _WIDTH = max(40, min(saved, columns - 1))
    try:
        yield
    finally:
        _WIDTH = saved


def _unit_of(answers: Mapping[str, Any]) -> str:
    """The group column's unit in words: ``matter`` for ``matter_id``."""
    return str(answers.get("group") or "").removesuffix("_id").removesuffix("_ID").replace("_", " ")
