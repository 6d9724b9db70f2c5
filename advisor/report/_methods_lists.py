"""Small pure helpers of the methods paragraph: lists of metrics in one sentence, shared name endings,
how many classifiers are compared in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..questionnaire import join_words as _join_words
from ..questionnaire import lower_name as _lower_name
from ._models import MetricEntry, Paragraph, Span

__all__ = ["Text", "distinct_names", "listed", "name_with_parameters", "net_benefits_once", "prose_name", "shared_tail", "systems_in_words", "where_clause"]


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def systems_in_words(n_systems: int, answers: Mapping[str, Any]) -> str | None:
    """How many classifiers the paragraph compares, in words ("two", "several"); None for one.

    >>> [systems_in_words(n, a) for n, a in [(2, {}), (12, {}), (0, {"ranking": True}), (1, {"ranking": True})]]
    ['two', '12', 'several', None]
    """
    if n_systems > 1:
        return _NUMBER_WORDS.get(n_systems, f"{n_systems:,}")
    return "several" if n_systems == 0 and answers.get("ranking") else None


def listed(opening: str, parts: Sequence[str]) -> str:
    """One sentence listing ``parts``, separated by semicolons when a part has a comma of its own, the last after
    "and" (bare names are a plain list: "adjusted Rand index; and adjusted mutual information" read as a slip).

    >>> listed("We add ", ["a, x", "b, y"]), listed("We add ", ["a", "b", "c"]), listed("We add ", ["a", "b and c"])
    ('We add a, x; and b, y. ', 'We add a, b and c. ', 'We add a; and b and c. ')
    """
    semi = any("," in part or " and " in part for part in parts)  # "a, b and c and d" would hide a group
    return (opening + ("; " if semi else ", ").join(parts[:-1]) + (("; and " if semi else " and ") if len(parts) > 1
                                                                   else "") + parts[-1] + ". ")


def shared_tail(names: Sequence[str]) -> str:
    """Names joined, a shared ending said once.

    >>> shared_tail(["geometric mean of recalls", "harmonic mean of recalls"])
    'geometric and harmonic means of recalls'
    >>> shared_tail(["log loss", "Brier score"])
    'log loss and Brier score'
    """
    parts = [n.split() for n in names]
    tail = 0
    while len(parts) > 1 and all(len(w) > tail + 1 for w in parts) and len({" ".join(w[len(w) - tail - 1:])
                                                                            for w in parts}) == 1:
        tail += 1
    if tail < 2:
        return _join_words(list(names))
    shared = parts[0][-tail:]
    shared = [shared[0] + "s" if shared[0] == "mean" else shared[0], *shared[1:]]  # two means of recalls
    return _join_words([" ".join(w[:-tail]) for w in parts]) + " " + " ".join(shared)


class Text:
    """Accumulates spans; adjacent text is merged; ``$…$`` in a pattern becomes a math span."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    def t(self, text: str) -> Text:
        if text:
            if self.spans and self.spans[-1].kind == "text":
                self.spans[-1] = Span(kind="text", text=self.spans[-1].text + text)
            else:
                self.spans.append(Span(kind="text", text=text))
        return self

    def text(self) -> str:
        """The plain text said so far (formulas and citations left out)."""
        return "".join(sp.text for sp in self.spans if sp.kind == "text")

    def code(self, name: str) -> Text:
        """A program's or package's name, set in typewriter (``pytrec_eval``)."""
        self.spans.append(Span(kind="code", text=name))
        return self

    def m(self, tex: str) -> Text:
        self.spans.append(Span(kind="math", text=tex))
        return self

    def say(self, pattern: str, code: bool = False) -> Text:
        """``pattern`` with its ``$…$`` parts as math, or with ``code`` as code (a package's name: ``pytrec_eval``)."""
        for i, part in enumerate(pattern.split("$")):
            if i % 2 and code:
                self.code(part)
            elif i % 2:
                self.m(part)
            else:
                self.t(part)
        return self

    def cite(self, keys: Sequence[str]) -> Text:
        keys = [k for k in dict.fromkeys(keys) if k]
        if keys:
            self.t(" ")
            self.spans.append(Span(kind="cite", keys=keys))
        return self

    def para(self, heading: str | None = None, run_in: bool = True) -> Paragraph:
        return Paragraph(heading=heading, spans=self.spans, run_in=run_in)


def name_with_parameters(metric_id: str, name: str, params: Mapping[str, Any]) -> str:
    """A metric's name with the parameter that sets its number, when the name alone leaves it open — in the
    tables, the formulas and the prose alike: "TPR at an FPR of 1%", "Selective risk at 80% coverage" (the
    catalogue's "TPR at an FPR budget", "Selective risk at a coverage").

    >>> name_with_parameters("selective_risk", "Selective risk at a coverage", {"coverage": 0.8})
    'Selective risk at 80% coverage'
    >>> name_with_parameters("coverage_at_risk", "Coverage at a target risk", {"target_risk": 0.02})
    'Coverage at a risk of 2%'
    >>> name_with_parameters("coverage_guaranteed_risk", "Coverage at the frozen cut", {"target_risk": 0.02})
    'Coverage at the cut frozen for a risk of 2%'
    >>> name_with_parameters("risk_at_frozen_coverage", "Selective risk at the frozen cut", {"coverage": 0.8})
    'Selective risk at the cut frozen for 80% coverage'
    >>> name_with_parameters("top_k_accuracy", "Top-k accuracy", {"top_k": 5})
    'Top-5 accuracy'
    >>> name_with_parameters("macro_f1_of_classes", "Macro F1 over chosen classes", {"f1_classes": ["pos", "neg"]})
    'Macro F1 over the classes “pos” and “neg”'
    """
    fpr, cov, top = params.get("max_fpr"), params.get("coverage"), params.get("top_k")
    chosen = params.get("f1_classes")
    if metric_id == "macro_f1_of_classes" and isinstance(chosen, (list, tuple)) and chosen:
        classes = "classes" if len(chosen) > 1 else "class"
        return f"Macro F1 over the {classes} " + _join_words([f"“{c}”" for c in chosen])
    if metric_id == "top_k_accuracy" and isinstance(top, int) and not isinstance(top, bool):
        return f"Top-{top} accuracy"
    if metric_id == "tpr_at_fpr" and isinstance(fpr, (int, float)):
        return f"TPR at an FPR of {fpr * 100:.3g}%"
    if metric_id == "partial_roc_auc" and isinstance(fpr, (int, float)):
        return f"Standardized partial ROC AUC up to an FPR of {fpr * 100:.3g}%"
    if metric_id == "selective_risk" and isinstance(cov, (int, float)):
        return f"Selective risk at {cov * 100:.3g}% coverage"
    risk = params.get("target_risk")
    if metric_id == "coverage_at_risk" and isinstance(risk, (int, float)):
        return f"Coverage at a risk of {risk * 100:.3g}%"
    if metric_id == "coverage_guaranteed_risk" and isinstance(risk, (int, float)):
        return f"Coverage at the cut frozen for a risk of {risk * 100:.3g}%"
    if metric_id == "risk_at_frozen_coverage" and isinstance(params.get("coverage"), (int, float)):
        return f"Selective risk at the cut frozen for {float(params['coverage']) * 100:.3g}% coverage"
    act = params.get("action")
    if metric_id in ("action_sensitivity", "action_specificity") and isinstance(act, str) and act:
        return f"{act[:1].upper()}{act[1:]} {metric_id.removeprefix('action_')}"  # "Referral sensitivity"
    return name


#: Metrics whose name is a count noun and takes "the" in running text ("we lead with the pair-counting correlation
#: coefficient"), unlike the mass-noun names of most metrics ("balanced accuracy").
_THE = frozenset({"pair_correlation"})


def prose_name(m: MetricEntry) -> str:
    """A metric's name in running text, its parameter included (:func:`name_with_parameters`)."""
    name = _lower_name(name_with_parameters(m.id, m.name, m.params))
    return f"the {name}" if m.id in _THE else name


#: Names for running text where two reported metrics share one (their glosses differ, and the text drops glosses).
_DISTINCT: dict[str, str] = {
    "krippendorff_alpha": "Krippendorff's alpha for nominal data",
    "krippendorff_alpha_ordinal": "Krippendorff's alpha for ordinal data",
    "brier_binary": "binary Brier score",
    "pair_correlation_distance": "correlation distance of the partitions",
}


def distinct_names(rec: Sequence[MetricEntry]) -> list[MetricEntry]:
    """The metrics with names a reader can tell apart in running text: two that read alike without their glosses
    ("Krippendorff's alpha (nominal)", "(ordinal)") are named in full ("… for ordinal data")."""
    seen: dict[str, int] = {}
    for m in rec:
        seen[_lower_name(m.name)] = seen.get(_lower_name(m.name), 0) + 1
    return [m.model_copy(update={"name": _DISTINCT[m.id]}) if seen[_lower_name(m.name)] > 1 and m.id in _DISTINCT
            else m for m in rec]


def net_benefits_once(rec: Sequence[MetricEntry]) -> list[MetricEntry]:
    """Net benefit at several risk thresholds as one entry, "Net benefit at risk thresholds 0.05, 0.1 and 0.2", in
    the place of the first — one formula in the Definitions, one name in the prose (the tables keep one row each).

    >>> nb = [MetricEntry(id=f"net_benefit@{t}", name=f"Net benefit at risk threshold {t}", formula="f",
    ...                   role="complementary") for t in ("0.05", "0.1")]
    >>> [m.name for m in net_benefits_once(nb)]
    ['Net benefit at risk thresholds 0.05 and 0.1']
    """
    nb = [m for m in rec if m.id.startswith("net_benefit@")]
    if len(nb) < 2:
        return list(rec)
    at = _join_words([m.id.split("@", 1)[1] for m in nb])
    first = nb[0].model_copy(update={"name": f"Net benefit at risk thresholds {at}"})
    return [first if m is nb[0] else m for m in rec if m is nb[0] or not m.id.startswith("net_benefit@")]


def where_clause(symbols: Mapping[str, str]) -> Paragraph | None:
    """What a formula's own symbols mean, after the formula: "where $\\pi_i$ is the share …; $c_{ij}$ is …".

    >>> [s.text for s in where_clause({"w_i": "the weight of class $i$"}).spans]
    ['where ', 'w_i', ' is the weight of class ', 'i']
    """
    if not symbols:
        return None
    p = Text()
    for i, (symbol, meaning) in enumerate(symbols.items()):
        p.t("where " if i == 0 else "; ").m(symbol).say((" are " if "," in symbol else " is ") + meaning)
    return p.para()
