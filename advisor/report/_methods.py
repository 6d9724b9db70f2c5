r"""The methods paragraph: which metrics and why, their formulas, conventions, chance and intervals.

The text is assembled as :class:`~advisor.report._models.Paragraph` objects made of spans (plain
text, trusted math, citations) so that each output format renders it with its own escaping, math
and citation style. It needs only the answers and the recommendation; with data the paragraphs also
report the undefined values met, the chance levels measured on the test set and how the intervals
were computed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ._models import ChanceRow, IntervalSettings, MetricEntry, Paragraph, Span, TaskInfo

__all__ = ["PROPERTY_WORDS", "VARIANT_NOTES", "build_methods"]

#: How each catalogue property is said in running text.
PROPERTY_WORDS: dict[str, str] = {
    "opitz_monotonicity": "monotone (a correct prediction never lowers the score)",
    "class_sensitivity": "class-sensitive",
    "class_decomposability": "class-decomposable (an unweighted arithmetic, geometric or harmonic mean of "
                             "per-class scores)",
    "prevalence_invariance": "prevalence-invariant (rescaling the size of a true class leaves it unchanged)",
    "chance_correction": "chance-corrected",
    "max_agreement": "maximal for perfect agreement",
    "min_agreement": "minimal for complete disagreement",
    "class_symmetry": "invariant to renaming the classes",
    "symmetry": "symmetric in the two labelings",
    "distance": "a distance (it satisfies the triangle inequality)",
    "monotonicity": "monotone (moving an item onto the diagonal raises it)",
    "strong_monotonicity": "strongly monotone",
    "constant_baseline": "constant-baseline (every random labeling gets the same expected score)",
    "approximate_constant_baseline": "approximately constant-baseline",
}

#: Variants named in words, so no "macro F1" is ever left ambiguous (Opitz & Burst (2019), §2).
VARIANT_NOTES: dict[str, str] = {
    "macro_f1": ("“macro F1” here is the unweighted mean of the per-class F1 scores (“averaged F1”, "
                 "scikit-learn's average='macro'), not the F1 of macro-averaged precision and recall"),
    "f1_of_averages": ("this is the harmonic mean of macro precision and macro recall (“F1 of averages”), "
                       "not the mean of the per-class F1 scores"),
    "weighted_f1": "per-class F1 scores weighted by class size (scikit-learn's average='weighted')",
    "micro_f1": "for single-label classification micro F1 equals accuracy",
    "macro_recall": "macro recall is balanced accuracy",
    "minority_weighted_f1": "the harmonic mean of weighted precision and recall with weights favouring rare classes",
}
_VARIANT_CITES = {"macro_f1": ("Burst", "2019"), "f1_of_averages": ("Burst", "2019")}

_ANSWER_WORDS: dict[str, dict[Any, str]] = {
    "deployment_prevalence": {
        "same": "the class distribution in deployment matches the test set",
        "shifted": "the class distribution in deployment differs from the test set",
        "unknown": "the class distribution in deployment is unknown",
    },
    "class_weighting": {
        "equal": "every class matters equally",
        "per_instance": "every item matters equally",
        "custom": "classes carry custom weights",
    },
    "chance_correction": {
        "required": "a random or constant classifier must get a fixed, known score",
        "preferred": "chance correction is preferred",
    },
}

# which properties each answer makes relevant (what the methods paragraph argues with)
_RELEVANT: list[tuple[str, Any, tuple[str, ...]]] = [
    ("deployment_prevalence", ("shifted", "unknown"), ("prevalence_invariance",)),
    ("class_weighting", ("equal",), ("class_decomposability", "prevalence_invariance")),
    ("chance_correction", ("required", "preferred"), ("chance_correction", "constant_baseline")),
    ("symmetric", (True,), ("symmetry",)),
    ("distance", (True,), ("distance",)),
    ("strict_monotonicity", (True,), ("monotonicity", "strong_monotonicity")),
]


class _Text:
    """Accumulates spans; adjacent text is merged."""

    def __init__(self) -> None:
        self.spans: list[Span] = []

    def t(self, text: str) -> _Text:
        if text:
            if self.spans and self.spans[-1].kind == "text":
                self.spans[-1] = Span(kind="text", text=self.spans[-1].text + text)
            else:
                self.spans.append(Span(kind="text", text=text))
        return self

    def m(self, tex: str) -> _Text:
        self.spans.append(Span(kind="math", text=tex))
        return self

    def b(self, text: str) -> _Text:
        self.spans.append(Span(kind="strong", text=text))
        return self

    def code(self, text: str) -> _Text:
        self.spans.append(Span(kind="code", text=text))
        return self

    def cite(self, keys: Sequence[str]) -> _Text:
        keys = [k for k in dict.fromkeys(keys) if k]
        if keys:
            self.t(" ")
            self.spans.append(Span(kind="cite", keys=keys))
        return self

    def para(self, heading: str | None = None) -> Paragraph:
        return Paragraph(heading=heading, spans=self.spans)


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _join_words(items: Sequence[str], conj: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (or with another conjunction).

    >>> _join_words(["x", "y", "z"]), _join_words(["x", "y"], "nor")
    ('x, y and z', 'x nor y')
    """
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def _negated(items: Sequence[str]) -> str:
    """Properties that fail, said so that each one is denied (not merely their conjunction).

    >>> _negated(["symmetric"]), _negated(["symmetric", "a distance"])
    ('not symmetric', 'neither symmetric nor a distance')
    >>> _negated(["a", "b", "c"])
    'not a, not b and not c'
    """
    items = [i for i in items if i]
    if len(items) == 2:
        return f"neither {items[0]} nor {items[1]}"
    return _join_words([f"not {i}" for i in items])


def _cost_phrase(fn: float, fp: float) -> str:
    """The two error costs and their ratio.

    >>> _cost_phrase(10, 1)
    'a missed positive costs 10 times as much as a false alarm'
    >>> _cost_phrase(8, 4)
    'a missed positive costs 8 and a false alarm 4 (ratio 2)'
    """
    if fp == 1:
        return f"a missed positive costs {fn:g} times as much as a false alarm"
    return f"a missed positive costs {fn:g} and a false alarm {fp:g} (ratio {fn / fp:.3g})"


def situation(answers: Mapping[str, Any], task: TaskInfo | None = None,
              given: Collection[str] | None = None) -> tuple[list[str], list[str]]:
    """The answers that shaped the choice, as plain phrases (user strings unescaped).

    Returns ``(stated, defaults)``: what the user answered or the data showed, and what was assumed
    because the question was not answered (``given`` holds the keys the user answered; None: all).
    """
    out: list[str] = []
    defaults: list[str] = []

    def add(key: str, phrase: str) -> None:
        (out if given is None or key in given else defaults).append(phrase)

    kind = answers.get("task") or (task.kind if task else None)
    k = answers.get("n_classes") or (len(answers["classes"]) if answers.get("classes") else None)
    if task is not None:
        k = task.k
    if kind:
        phrase = "a binary task" if kind == "binary" else (
            f"a multi-class task with {k} classes" if k else "a multi-class task")
        if task is not None:
            out.append(phrase)  # the data shows it
        else:
            add("task", phrase)
    pos = answers.get("positive_class")
    if pos is not None:
        out.append(f"class “{pos}” is of special interest")
    for key, words in _ANSWER_WORDS.items():
        val = answers.get(key)
        if val in words:
            add(key, words[val])
    if answers.get("target_prevalence"):
        out.append("a target class distribution is known")
    if answers.get("true_negatives_meaningful") is False:
        out.append("true negatives are not meaningful")
    costs = answers.get("error_costs") or {}
    if costs.get("false_negative") and costs.get("false_positive"):
        out.append(_cost_phrase(float(costs["false_negative"]), float(costs["false_positive"])))
    if answers.get("symmetric"):
        out.append("the two labelings are interchangeable")
    if answers.get("distance"):
        out.append("a true distance is needed")
    if answers.get("strict_monotonicity"):
        out.append("every corrected error must raise the score")
    if answers.get("ranking"):
        out.append("several systems are ranked")
    if answers.get("test_set_balanced") is True:
        out.append("the test set is balanced")
    if answers.get("probabilities"):
        out.append("predicted probabilities are available")
    return out, defaults


def _property_words(pid: str, metric_id: str, *, short: bool = False) -> str:
    """A property in words; the gloss is dropped when asked or when it does not fit the metric.

    A binary metric of the positive class is not a mean of per-class scores, so class
    decomposability is named without the gloss that says so.
    """
    words = PROPERTY_WORDS.get(pid, pid)
    if short or (pid == "class_decomposability" and _binary_only(metric_id)):
        return words.split(" (")[0]
    return words


def _binary_only(metric_id: str) -> bool:
    from ..engine._metrics import METRICS

    spec = METRICS.get(metric_id)
    return bool(spec is not None and spec.binary_only)


def relevant_properties(answers: Mapping[str, Any]) -> list[str]:
    props: list[str] = []
    for key, values, ids in _RELEVANT:
        if answers.get(key) in values:
            props += [p for p in ids if p not in props]
    return props


def _fmt(v: float | None, digits: int) -> str:
    from ._env import fmt_num

    return fmt_num(v, digits)


def build_methods(
    answers: Mapping[str, Any],
    recommendation: Mapping[str, Any],
    metrics: Sequence[MetricEntry],
    *,
    names: Mapping[str, str] | None = None,
    property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]] | None = None,
    cite: Any = None,
    cite_source: Any = None,
    task: TaskInfo | None = None,
    convention: str = "zero",
    undefined_count: int | None = None,
    chance: Sequence[ChanceRow] = (),
    intervals: IntervalSettings | None = None,
    n_systems: int = 0,
    digits: int = 4,
    given: Collection[str] | None = None,
) -> list[Paragraph]:
    """The methods paragraphs.

    ``property_status[metric][property] = (status, bib keys)`` comes from the catalogue; ``cite`` maps
    (author substring, year) to a BibTeX key or None; ``cite_source`` maps a free-text source
    ("Opitz 2024, §8") to BibTeX keys; ``given`` holds the answers keys the user gave (None: all), so
    that defaults are not presented as the user's answers.
    """
    cite = cite or (lambda author, year: None)
    cite_source = cite_source or (lambda source: [])
    property_status = property_status or {}
    rec = [m for m in metrics if m.role != "appendix"]
    primary = next((m for m in rec if m.role == "primary"), None)
    paras: list[Paragraph] = []

    # 1. choice of metrics, the reasoning behind it and the metrics not used
    paras.append(_choice_paragraph(answers, rec, primary, property_status, task, given))
    reasoning = _reasoning_paragraph(recommendation, cite_source)
    if reasoning is not None:
        paras.append(reasoning)
    discouraged = _discouraged_paragraph(recommendation, names)
    if discouraged is not None:
        paras.append(discouraged)
    # 2. definitions, 3. undefined values, 4. chance levels
    paras.append(_definitions_paragraph(rec, cite))
    paras.append(_undefined_paragraph(convention, undefined_count, cite))
    paras.append(_chance_paragraph(primary, chance, digits, cite))
    # 5. intervals
    if intervals is not None:
        paras.append(_intervals_paragraph(intervals, n_systems))
    return paras


def _choice_paragraph(
    answers: Mapping[str, Any],
    rec: Sequence[MetricEntry],
    primary: MetricEntry | None,
    property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]],
    task: TaskInfo | None,
    given: Collection[str] | None,
) -> Paragraph:
    """The "Choice of metrics" paragraph: the situation, the primary metric, the properties that
    argue for each recommended metric and the complementary metrics."""
    p = _Text()
    sit, assumed = situation(answers, task, given)
    if sit:
        p.t("The evaluation situation, as described in the questionnaire: " + "; ".join(sit) + ". ")
    if assumed:
        p.t("Not answered, so the questionnaire's defaults were assumed: " + "; ".join(assumed) + ". ")
    if primary is not None:
        _primary_sentence(p, primary)
    _property_sentences(p, answers, rec, property_status)
    _complementary_sentence(p, rec)
    return p.para("Choice of metrics")


def _primary_sentence(p: _Text, primary: MetricEntry) -> None:
    """The sentence naming the primary metric, with its parameters and references."""
    p.t("We report ").b(primary.name).t(" as the primary metric")
    if primary.params:
        p.t(" (" + ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}"
                             for k, v in primary.params.items()) + ")")
    p.cite(primary.references)
    p.t(". ")


def _property_sentences(
    p: _Text,
    answers: Mapping[str, Any],
    rec: Sequence[MetricEntry],
    property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]],
) -> None:
    """One sentence per recommended metric: which of the relevant properties hold, hold for two
    classes only, or fail; each property is glossed only the first time it is named."""
    props = relevant_properties(answers)
    glossed: set[str] = set()  # properties explained once in the paragraph
    for m in rec:
        status = property_status.get(m.id, {})
        holds = [(pid, status[pid][1]) for pid in props if pid in status and status[pid][0] == "holds"]
        fails = [(pid, status[pid][1]) for pid in props if pid in status and status[pid][0] == "fails"]
        binary = [(pid, status[pid][1]) for pid in props if pid in status and status[pid][0] == "binary_only"]
        if not (holds or fails or binary):
            continue
        p.t(f"{m.name} is ")
        parts = []
        if holds:
            parts.append(_join_words([_property_words(pid, m.id, short=pid in glossed) for pid, _ in holds]))
            glossed.update(pid for pid, _ in holds if not _binary_only(m.id) or pid != "class_decomposability")
        if binary:
            parts.append(_join_words([_property_words(pid, m.id, short=True) for pid, _ in binary])
                         + " for two classes only")
        if fails:
            parts.append(_negated([_property_words(pid, m.id, short=True) for pid, _ in fails]))
        p.t("; ".join(parts))
        p.cite([k for _, keys in holds + fails + binary for k in keys])
        p.t(". ")


def _complementary_sentence(p: _Text, rec: Sequence[MetricEntry]) -> None:
    """The sentence naming the complementary metrics and why (nothing when there are none)."""
    comp = [m for m in rec if m.role == "complementary"]
    if comp:
        p.t("Beside it we report ")
        for i, m in enumerate(comp):
            if i:
                p.t("; " if i < len(comp) - 1 else "; and ")
            p.b(m.name)
            if m.reason:
                p.t(" (" + m.reason.rstrip(".") + ")")
            p.cite(m.references)
        p.t(".")


def _reasoning_paragraph(recommendation: Mapping[str, Any], cite_source: Any) -> Paragraph | None:
    """The "Reasoning" paragraph: the recommendation's rationale steps as a list (None: no steps)."""
    steps = [r for r in recommendation.get("rationale") or [] if (r if isinstance(r, str) else _get(r, "text"))]
    if not steps:
        return None
    r = _Text()
    r.t("The recommendation rests on these steps, each tied to the answers and to the properties it uses:")
    para = r.para("Reasoning")
    for item in steps:
        it = _Text()
        if isinstance(item, str):
            it.t(item.strip())
        else:
            title = str(_get(item, "title") or "").strip()
            if title:
                it.b(title.rstrip(".") + ".").t(" ")
            it.t(str(_get(item, "text")).strip())
            it.cite(cite_source(_get(item, "source")))
        para.items.append(it.spans)
    return para


def _discouraged_paragraph(recommendation: Mapping[str, Any], names: Mapping[str, str] | None) -> Paragraph | None:
    """The "Metrics not used" paragraph: the discouraged metrics and why (None: none discouraged)."""
    disc = recommendation.get("discouraged") or []
    if not disc:
        return None
    d = _Text()
    d.t("We do not lead with ")
    for i, item in enumerate(disc):
        if i:
            d.t("; " if i < len(disc) - 1 else "; nor with ")
        mid = str(_get(item, "metric"))
        d.b(str(_get(item, "name") or (names or {}).get(mid, mid)))
        reason = _get(item, "reason")
        if reason:
            d.t(" (" + str(reason).rstrip(".") + ")")
    d.t(".")
    return d.para("Metrics not used")


def _definitions_paragraph(rec: Sequence[MetricEntry], cite: Any) -> Paragraph:
    """The "Definitions" paragraph: the notation, and the variant notes of the recommended metrics."""
    q = _Text()
    q.t("Notation: ").m(r"C").t(" is the ").m(r"k \times k").t(
        " confusion matrix, rows the true and columns the predicted classes; ")
    q.m(r"n = \sum_{i,j} C_{ij}").t(" items, ").m(r"a_i = \sum_j C_{ij}").t(" the size of true class ").m("i").t(", ")
    q.m(r"b_j = \sum_i C_{ij}").t(" the number of items predicted as ").m("j").t("; per class, recall ")
    q.m(r"R_i = C_{ii}/a_i").t(", precision ").m(r"P_i = C_{ii}/b_i").t(" and ")
    q.m(r"F_{1,i} = 2C_{ii}/(a_i + b_i)").t(". Every metric reported is defined below")
    variants = [m for m in rec if m.variant]
    if variants:
        q.t("; note that ")
        for i, m in enumerate(variants):
            if i:
                q.t("; ")
            q.t(m.variant or "")
            key = _VARIANT_CITES.get(m.id)
            if key:
                q.cite([k for k in [cite(*key)] if k])
    q.t(".")
    return q.para("Definitions")


def _undefined_paragraph(convention: str, undefined_count: int | None, cite: Any) -> Paragraph:
    """The "Undefined values" paragraph: the convention used and, with data, how many values were undefined."""
    u = _Text()
    u.t("Undefined values (a zero denominator, such as the precision of a class that is never predicted) ")
    if convention == "zero":
        u.t("are set to 0, the convention of scikit-learn")
        u.cite([k for k in [cite("Burst", "2019")] if k])
    elif convention == "baseline":
        u.t("are resolved by the property that should hold")
        u.cite([k for k in [cite("sgens", "2021")] if k])
        u.t(": a ratio ").m(r"C_{ii}/a_i").t(" with ").m("a_i = 0").t(" (the recall of a class absent from "
            "the test set) takes its expected value ").m(r"b_i/n").t(", and a ratio ").m(r"C_{ii}/b_i").t(
            " with ").m("b_i = 0").t(" (the precision of a class never predicted) takes ").m(r"a_i/n").t(
            "; when ").m("a_i = b_i = 0").t(" the class is absent from both labelings, which agree on it "
            "completely, so the ratio takes 1 (maximal agreement), as do F1 and Jaccard of such a class. "
            "A correlation or kappa whose denominator vanishes takes 1 when both labelings are constant on "
            "the same class, −1 when they are constant on different classes, and 0 when only one is constant")
    else:
        u.t("are left out of the averages (a metric that is itself undefined is not reported)")
    u.t(". ")
    if undefined_count is not None:
        if undefined_count == 0:
            u.t("No value was undefined on this test set.")
        else:
            u.t(f"On this test set {undefined_count} value{'s were' if undefined_count != 1 else ' was'} "
                "undefined; each is listed with its resolution in the table of undefined values.")
    return u.para("Undefined values")


def _chance_paragraph(primary: MetricEntry | None, chance: Sequence[ChanceRow], digits: int, cite: Any) -> Paragraph:
    """The "Chance levels" paragraph: the reference classifiers and, if known, the primary metric's scores."""
    c = _Text()
    c.t("A score means little without its baseline, so each metric is also given for three reference "
        "classifiers on the test set's class sizes: uniform random (").m(r"\bar C_{ij} = a_i/k").t(
        "), prevalence-matched random (").m(r"\bar C_{ij} = a_i a_j / n").t(") and the constant "
        "majority-class predictor")
    c.cite([k for k in [cite("Opitz", "2024")] if k])
    c.t(".")
    if primary is not None:
        row = next((r for r in chance if r.metric == primary.id), None)
        if row is not None:
            c.t(f" On this test set {primary.name} scores {_fmt(row.uniform, digits)} for the uniform, "
                f"{_fmt(row.prevalence, digits)} for the prevalence-matched random classifier and "
                f"{_fmt(row.majority, digits)} for the majority-class predictor.")
        elif primary.chance_level:
            c.t(f" For {primary.name}: {primary.chance_level.rstrip('.')}.")
    return c.para("Chance levels")


def _intervals_paragraph(intervals: IntervalSettings, n_systems: int) -> Paragraph:
    """The "Uncertainty" paragraph: how the bootstrap intervals were computed and how to reproduce them."""
    iv = _Text()
    iv.t(f"Intervals are {intervals.confidence:.0%} {intervals.method} bootstrap intervals from "
         f"{intervals.n_resamples:,} resamples")
    if intervals.seed is not None:
        iv.t(f" (seed {intervals.seed}")
        if not intervals.paired:
            iv.t(", the same for every system, so that " if n_systems > 1 else "; ")
            iv.code(f"advisor compute --bootstrap {intervals.n_resamples} --seed {intervals.seed}")
            iv.t(" gives the same interval" + (" for each system" if n_systems > 1 else ""))
        iv.t(")")
    else:
        iv.t(" (no seed was set, so a rerun gives slightly different intervals)")
    iv.t(". Each resample draws the test items with replacement, computed exactly as a multinomial draw of ")
    if intervals.paired and n_systems > 1:
        iv.t("the joint table of (true class, prediction of every system) combinations, so all systems "
             "are resampled on the same items (a paired bootstrap). A system counts among the winners "
             "on a metric when the interval of its paired difference to the best system contains 0, "
             "with no correction for multiple comparisons; several winners mean the data do not "
             "separate them.")
    else:
        iv.t("the confusion-matrix cells")
        if n_systems > 1:
            iv.t(", separately for each system (the items were not paired, so no winners are declared)")
        iv.t(".")
    return iv.para("Uncertainty")
