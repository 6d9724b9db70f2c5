r"""The methods paragraph of a sample stratified by the predicted (map) class (Olofsson et al. 2013, 2014).

A land-cover map is checked on a sample drawn by map class; the answers give each class's share of the mapped area
(``map_shares``), the weights of the strata. The paragraph says the design, that the error matrix is estimated in
area proportions, what is reported from it (overall, user's and producer's accuracy, the area of each class) with
the stratified estimator's intervals, and that kappa is not reported, as current good practice advises (Pontius &
Millones 2011). The estimators' formulas are data (:data:`ESTIMATORS`), set in the Definitions beside the lead's
catalogue formula; rows of ``C`` are the reference classes and columns the map classes (Olofsson's matrices are the
transpose).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import NormalDist
from typing import Any

from ..questionnaire import join_words, plural
from . import _methods_text as W
from ._methods_lists import Text
from ._methods_focus import focus_area_clause
from ._models import IntervalSettings, MetricEntry, Paragraph

__all__ = ["ESTIMATORS", "STRATA_PROMISE", "shares_text", "strata_paragraphs"]

#: What the report's area-weighted table shows (the plan's diagnostic ``stratified_estimates``), as promised.
STRATA_PROMISE = W.PROMISE["stratified_estimates"]

#: The estimators beside the overall accuracy: name, LaTeX (rows of C reference, columns map), what it estimates.
ESTIMATORS: tuple[tuple[str, str], ...] = (
    ("estimated area proportion of cell $(i, j)$", r"\hat p_{ij} = W_j\,C_{ij}/b_j"),
    ("user's accuracy of map class $j$", r"U_j = C_{jj}/b_j"),
    ("producer's accuracy of reference class $i$", r"P_i = \hat p_{ii}\big/\sum_{j=1}^{k}\hat p_{ij}"),
    ("area proportion of reference class $i$", r"\hat p_{i\cdot} = \sum_{j=1}^{k}\hat p_{ij}"),
)
#: Pontius & Millones (2011), eqs. 2–5 in advisor's orientation (the map share of class g is the column sum W_g):
#: what replaces kappa, said when the matrix is reported; Q + A = 1 − overall accuracy.
DISAGREEMENTS: tuple[tuple[str, str], ...] = (
    ("quantity disagreement", r"Q = \tfrac{1}{2}\sum_{g=1}^{k}\left|W_g - \hat p_{g\cdot}\right|"),
    ("allocation disagreement", r"A = \sum_{g=1}^{k}\min\left(W_g - \hat p_{gg},\ \hat p_{g\cdot} - \hat p_{gg}\right)"),
)
#: Their standard errors (Olofsson et al. 2014, eqs. 5, 6 and 10; eq. 7 for the producer's accuracy is cited).
VARIANCES: tuple[tuple[str, str], ...] = (
    ("overall accuracy", r"\sqrt{\sum_{j} W_j^2\,U_j(1-U_j)/(b_j-1)}"),
    ("user's accuracy", r"\sqrt{U_j(1-U_j)/(b_j-1)}"),
    ("area proportion", r"\sqrt{\sum_{j} W_j^2\,\tfrac{C_{ij}}{b_j}\bigl(1-\tfrac{C_{ij}}{b_j}\bigr)/(b_j-1)}"),
)


def shares_text(shares: Mapping[str, Any]) -> str:
    """``forest 42%, cropland 31% and bare 2%`` (percentages to the precision given).

    >>> shares_text({"forest": 0.42, "water": 0.045})
    'forest 42% and water 4.5%'
    """
    return join_words([f"{c} {float(v) * 100:.3g}%" for c, v in shares.items()])


def strata_paragraphs(answers: Mapping[str, Any], primary: MetricEntry, cite: Any,
                      intervals: IntervalSettings | None, promised: Sequence[str] | None) -> list[Paragraph]:
    """``Evaluation`` and ``Definitions`` for a sample stratified by map class (``answers["map_shares"]``)."""
    olofsson = [k for k in [cite("Olofsson", "2014")] if k] or primary.references[:1]
    items = plural(str(answers.get("item_name") or "sample item"))
    p = Text()
    context = str(answers.get("context") or "").strip()
    if context:
        p.t(context if context[-1:] in ".!?" else context + ".").t(" ")
    shares = shares_text(answers.get("map_shares") or {})
    p.t(f"The {items} were drawn stratified by map class, and the map's class shares ({shares}) are "
        "the mapped-area proportions that weight the strata. Following the good practice for estimating area and "
        "accuracy").cite(olofsson)
    p.t(", the error matrix is estimated in area proportions")  # the sentence before says what weights the strata
    table = promised is None or STRATA_PROMISE in promised
    if table:  # the matrix itself, with the sample of each stratum (the s28 land-cover reader: Olofsson et al. ask
        # for both; "the error matrix is estimated" did not say it is reported)
        p.t(", and given with each cell's standard error and each stratum's sample size. From it we report overall, "
            "user's and producer's accuracy and the area of each class, with 95% intervals")
        focus_area_clause(p, answers)  # the classes the author names as costly: their areas are these; their cells
        p.t(". Overall accuracy is thus")
    else:
        p.t(". We report the overall accuracy from these proportions. Overall accuracy is thus")
    # the lead by a name of its own: the overall accuracy of the sample's counts would be another figure
    p.t(f" the {primary.name.lower()}, the share of the mapped area whose map class agrees with the reference class. ")
    planned = " ".join(str(x).lower() for x in answers.get("planned_metrics") or [])
    if "kappa" in planned or answers.get("field") == "remote_sensing":
        # with the replacement its source recommends (the same reader: "report their quantity and allocation
        # disagreement"), computed from the matrix's proportions (advisor/stats/_strata.py)
        p.t("Kappa is not reported, as current good practice advises; quantity and allocation disagreement take its "
            "place" if table else "Kappa is not reported, as current good practice advises")
        p.cite([k for k in [cite("Pontius", "2011")] if k])
        p.t(". ")
    conf = intervals.confidence if intervals is not None else 0.95
    z = NormalDist().inv_cdf(0.5 + conf / 2)
    p.t(f"Each interval is the estimate ± {z:.2f} standard errors of the stratified estimator")
    # strata that are the map classes: Olofsson et al. (2014), eqs. 5–7 and 10 (Stehman 2014 is the general case of
    # strata that differ from the map classes; the land-cover reader, issue 22)
    p.cite(["olofsson2014good"])
    p.t(", which needs two sample items in every map class.")
    return [p.para("Evaluation"), _definitions(table)]


def _definitions(disagreements: bool = False) -> Paragraph:
    d = Text()
    d.t("Below, ").m("C").t(" is the confusion matrix of the sample with reference classes as rows and map classes "
                            "as columns, ").m("b_j").t(" is the sample size of map class ").m("j").t(", ").m("W_j")
    d.t(" its share of the mapped area, and ").m("k").t(" the number of classes. ")
    said = ESTIMATORS + (DISAGREEMENTS if disagreements else ())
    for i, (what, tex) in enumerate(said):
        d.say(what[:1].upper() + what[1:] if i == 0 else what).t(": ").m(tex).t("; " if i < len(said) - 1 else ". ")
    d.t("Standard errors: ")
    for i, (what, tex) in enumerate(VARIANCES):
        d.t(f"{what} ").m(tex).t("; " if i < len(VARIANCES) - 1 else "")
    # the under-coverage of a rare class's producer's accuracy is our simulation (benchmarks/README.md,
    # bench_strata_coverage.py), not a published result: two land-cover readers read it as an unsupported claim in
    # the paper, so the paper does not make it
    d.t("; producer's accuracy by eq. 7 of Olofsson et al. (2014).")
    return d.para("Definitions")
