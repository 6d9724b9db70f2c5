"""The human–human baseline in the methods (issue 22, the essay reader): a machine scored against a resolved human
score is read against the raters' agreement with each other (Williamson, Xi & Breyer 2012).

With the answers key ``rater_columns`` the plan carries the diagnostic ``human_baseline``; the paragraph then says,
in a sentence of its own, that the same figures are given for the raters against each other, what the degradation
is and that its interval is paired, and — in a field with thresholds (``fields.yaml`` ``baseline``) — what is
flagged, citing the field's source. A field that expects the baseline, without rater columns, gets one sentence
saying it is not available. The Definitions give the degradation with every symbol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import class_values
from ..questionnaire import join_words, load_fields
from ._methods_lists import Text, where_clause
from ._methods_text import subgroups_phrase
from ._models import ChanceRow, MetricEntry

__all__ = ["baseline_definitions", "baseline_sentence", "constant_said", "constant_sentence"]


def _field(answers: Mapping[str, Any]) -> Any:
    return load_fields().get(str(answers.get("field"))) if answers.get("field") else None


def _kappa(field: Any) -> str:
    """The field's initials for the quadratically weighted kappa ("QWK", introduced by the field's sentence), else
    the name."""
    term = field.terms.get("weighted_kappa_quadratic") if field is not None else None
    return term if term and term.isupper() else "quadratically weighted kappa"


#: the degradation, named with what it is (the formula's D)
W_DEGRADATION = ", {interval}the degradation "


def baseline_sentence(p: Text, answers: Mapping[str, Any], intervals: bool = True, subgroups: bool = False,
                      correlation: bool = True) -> bool:
    """"We give each figure for the machine against the resolved score and each rater, and for “rater_1” against
    “rater_2”, with a paired interval for the degradation $D$." — which comparison each figure is (the essay reader: "the
    reference is ambiguous") — then, in a field with thresholds, what is flagged and against what: the machine's QWK
    (and Pearson correlation, reported: ``correlation``) with a single rater below the floor or beyond the degradation
    from the raters', and its standardized mean difference from the resolved score beyond ± the overall flag and, with
    the subgroups' SMD promised (``subgroups``), beyond ± the subgroup flag within a value of each column. Returns
    whether the subgroups' flag was said (their own sentence is then not said again). Without rater columns, in a
    field that expects the baseline: that it is not available.

    >>> t = Text()
    >>> baseline_sentence(t, {"field": "automated_essay_scoring", "item_name": "essay"})
    False
    >>> t.spans[0].text[:80]
    "The raters' own scores are not in the data, so the human–human baseline cannot b"
    >>> t = Text()
    >>> baseline_sentence(t, {"rater_columns": ["r1", "r2"]})
    False
    >>> "and between the raters" in t.spans[0].text, [s.kind for s in t.spans]
    (True, ['text', 'math', 'text'])
    """
    field = _field(answers)
    base = field.baseline if field is not None else None
    raters = [str(r) for r in answers.get("rater_columns") or []]
    qwk = _kappa(field)
    if not raters:
        if base is None:
            return False
        p.t("The raters' own scores are not in the data, so the human–human baseline cannot be given; a "
            f"{qwk} below {base.qwk_floor:.2f} is flagged")
        p.cite([field.source]).t(". ")
        return False
    named = [f"“{r}”" for r in raters]
    # two raters are "between the raters", not their columns' names (the s30 essay reader: "“rater_1”
    # against “rater_2”" read as a template's artifact); more are named, each pair being a different comparison
    pairs = "between the raters" if len(named) == 2 else f"for each pair of {join_words(named)}"
    # like for like: one rater against one rater on both sides; the resolved score pools two raters, so the machine
    # set against it would be favoured (the essay reader, issue 22) — and each figure says which comparison it is
    # the degradation named by its symbol, which its formula defines (the s41 essay reader: "'with the degradation's
    # paired interval' is dangling")
    said = (f"We give each figure for the machine against the resolved score and each rater, and {pairs}"
            + W_DEGRADATION.format(interval="with a paired interval for " if intervals else "and "))
    p.t(said).m("D")
    if base is None:
        p.t(". ")
        return False
    # the flags in a sentence of their own, each with its comparison (Williamson et al. 2012)
    raters_own = "the raters'" if len(named) == 2 else "the raters' mean over the pairs"
    same = base.r_floor == base.qwk_floor and base.r_degradation == base.degradation
    figures = f"{qwk} or correlation" if correlation and base.r_floor is not None and same else qwk
    # the thresholds are the field's source's: said so when the paragraph cited it before (the s30 essay reader: "as
    # written they read like the author's own"), else cited at them
    cited = any(s.kind == "cite" and field.source in s.keys for s in p.spans)
    flags = f"{'The same source flags' if cited else 'Flagged are'} the machine's {figures} with any rater below " \
            f"{base.qwk_floor:.2f} or more than {base.degradation:.2f} below {raters_own}"
    if correlation and base.r_floor is not None and not same:
        flags += f", its correlation below {base.r_floor:.2f} or more than {base.r_degradation:.2f} below theirs"
    cols = [str(c) for c in answers.get("subgroups") or []]
    told = bool(subgroups and cols and base.smd_subgroup is not None)
    if base.smd_overall is not None:
        # the subgroups in the author's words where they gave them, as every other sentence names them (the
        # description was dropped on this path: "within a value of “english_learner”", the s45 and s47 readers)
        within = subgroups_phrase(cols, answers.get("subgroup_descriptions")) if told else ""
        flags += (", and its standardized mean difference from the resolved score beyond "
                  f"±{base.smd_overall:.2f}" + (f", or ±{base.smd_subgroup:.2f} {within}" if told else ""))
    p.t(". " + flags)
    if not cited:
        p.cite([field.source])
    p.t(". ")
    return told


def constant_said(primary: MetricEntry | None, rec: Sequence[MetricEntry]) -> bool:
    """Whether the paragraph reads the lead against a constant prediction: adjacent agreement leads with the
    quadratically weighted kappa beside it (:func:`constant_sentence`)."""
    return primary is not None and primary.id == "adjacent_accuracy" \
        and any(m.id == "weighted_kappa_quadratic" for m in rec)


def constant_sentence(p: Text, answers: Mapping[str, Any], primary: MetricEntry | None, rec: Sequence[MetricEntry],
                      chance: Sequence[ChanceRow] = ()) -> None:
    """"A constant middle score earns high adjacent agreement but a QWK of 0, so QWK stands beside it."
    — adjacent agreement is not chance-corrected, and a reader of ordered scores asks what a system without skill
    earns (the essay reader: "a model that always predicts 3 or 4 scores well"). With data the best constant
    prediction of the report's chance table is named with its value ("Always giving “3” earns 0.84 adjacent
    agreement here …"); the quadratically weighted kappa of any constant prediction is 0, which is why it stands beside
    the lead. Said only when adjacent agreement leads with that kappa beside it.

    >>> t = Text()
    >>> lead = MetricEntry(id="adjacent_accuracy", name="Adjacent agreement (within one step)", formula="x",
    ...                    role="primary")
    >>> qwk = MetricEntry(id="weighted_kappa_quadratic", name="Quadratically weighted kappa", formula="x",
    ...                   role="complementary")
    >>> constant_sentence(t, {"field": "automated_essay_scoring", "classes": [1, 2, 3]}, lead, [lead, qwk])
    >>> t.spans[0].text
    'A constant middle score earns high adjacent agreement but a QWK of 0, so QWK stands beside it. '
    """
    if not constant_said(primary, rec):
        return
    kappa = _kappa(_field(answers))
    classes = answers.get("classes") or []
    noun = "score" if classes and class_values(classes) is not None else "class"
    row = next((r for r in chance if r.metric == "adjacent_accuracy"), None)
    if row is not None and row.constant is not None and row.constant_class is not None:
        said = f"Always giving “{row.constant_class}” earns {row.constant:.2f} adjacent agreement here"
    else:  # a system that always gives one middle score (the essay reader's words)
        said = f"A constant middle {noun} earns high adjacent agreement"
    p.t(f"{said} but a {kappa} of 0, so {kappa} stands beside it. ")


def baseline_definitions(answers: Mapping[str, Any]) -> list[MetricEntry]:
    """The degradation's formula, every symbol defined (the kappa's own formula is in the Definitions above)."""
    raters = answers.get("rater_columns") or []
    if not raters:
        return []
    two = len(raters) == 2
    formula = (r"D=\frac{1}{2}\left(\kappa^{w}_{M1}+\kappa^{w}_{M2}\right)-\kappa^{w}_{12}" if two else
               r"D=\frac{1}{H}\sum_{h=1}^{H}\kappa^{w}_{Mh}-\frac{2}{H(H-1)}\sum_{h<h'}\kappa^{w}_{hh'}")
    symbols = ({r"\kappa^{w}_{M1}, \kappa^{w}_{M2}": "the quadratically weighted kappas of the machine's scores $M$ "
                                                     "against human raters 1 and 2",
                r"\kappa^{w}_{12}": "that of the two human raters against each other"} if two else
               {r"\kappa^{w}_{Mh}": "the quadratically weighted kappa of the machine's scores $M$ against human rater "
                                    "$h$",
                r"\kappa^{w}_{hh'}": "that of human raters $h$ and $h'$", "H": "the number of human raters"})
    # its sign said (the s47 essay reader took Williamson et al.'s degradation for the raters' kappa minus the
    # machine's): negative when the machine agrees less, the sign of ETS's RSMTool (human–system minus human–human)
    return [MetricEntry(id="human_degradation", name="Degradation from the human–human kappa", formula=formula,
                        role="complementary", where=where_clause(
                            {**symbols, "D": "negative when the machine agrees with the raters less than they agree "
                                             "with each other"}))]


def said_baseline(promised: Sequence[str] | None, answers: Mapping[str, Any], promise: str) -> bool:
    """Whether the paragraph says the baseline: the report shows it, or (before data) the answers give raters."""
    if promised is None:
        return bool(answers.get("rater_columns"))
    return promise in promised
