"""The report's subgroups (answers ``subgroups``, ``--by``, ``by=``; issue 23 item 1).

The numbers are :func:`advisor.stats.subgroups` on the report's matrix metrics: a table per subgroup column
(every value and system: its size, each metric with its interval, the binary rates), with scores in a binary task
the bias AUCs of Borkan et al. (2019) per value (:mod:`advisor.stats._subgroup_aucs`), a table of the gaps
across the values with their intervals (:mod:`advisor.stats._subgroup_gaps`), a warning per subgroup too small to say anything, and one methods sentence naming the
subgroups and the gap measures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError, arg
from ..catalogue import get_catalogue
from ..engine import BINARY_METRICS, MULTICLASS_METRICS, NEEDS_PARAMETERS
from ..questionnaire import join_words as _words
from ..questionnaire import lower_name
from ..stats import BIAS_AUC_NAMES, SUBGROUP_SCORE_IDS, subgroup_smd, subgroups
from ._margins import gap_verdict_words, margin_text, verdict
from ._methods_bias import JIGSAW_IDENTITIES
from ._models import Paragraph, Span, TableBlock, WarningEntry

__all__ = ["check_subgroup_columns", "rates_in_order", "shares_free", "subgroup_columns", "subgroup_section"]

_RATE_NAMES = {"tpr": "TPR", "fpr": "FPR", "selection_rate": "selection rate", "precision": "precision"}
#: The rates of a binary task as the catalogue's metrics they are (FPR = 1 − specificity); the selection rate,
#: TPR·π + FPR·(1 − π), moves with the share π of the class of interest and is no metric of the catalogue
_RATE_AS: dict[str, str | None] = {"tpr": "recall", "fpr": "specificity", "precision": "precision",
                                   "selection_rate": None, "equalized_odds": "recall"}


def shares_free(mid: str, binary: bool) -> bool:
    """Whether figure ``mid`` does not depend on the class shares — the catalogue's prevalence invariance holds (in a
    two-class task also where it holds for two classes only) — so that a gap between subgroups compares the
    classifier, not the subgroups' base rates (the fairness reader: an average-precision gap mixes the toxic rates of
    the subgroups with bias). The equalized-odds difference is taken from the TPR and FPR gaps.

    >>> shares_free("fpr", True), shares_free("precision", True), shares_free("roc_auc", True)
    (True, False, True)
    """
    mid = _RATE_AS.get(mid, mid) or ""
    rec = get_catalogue().metrics.get(mid)
    claim = rec.properties.get("prevalence_invariance") if rec is not None else None
    status = claim.status if claim is not None else ""
    return status == "holds" or (binary and status == "binary_only")


def subgroup_columns(plan: Any, by: Sequence[str] | str | None) -> list[str]:
    """The answers' subgroup columns, then those of ``by=``, each once."""
    given = [] if by is None else list(by) if isinstance(by, (list, tuple)) else [by]
    bad = [c for c in given if not isinstance(c, str) or not c.strip()]
    if bad:
        raise InputError(f"by must name subgroup columns (a column name or a list of them); got {bad[0]!r:.40}.")
    return list(dict.fromkeys([*(plan.design.subgroups if plan is not None else []), *given]))


def check_subgroup_columns(data: Any, columns: Sequence[str]) -> None:
    """Before any work: every subgroup column was read with the predictions (one sentence otherwise)."""
    if not columns:
        return
    read = getattr(getattr(data, "predictions", data), "by", None) or {}
    missing = [c for c in columns if c not in read]
    if missing:
        shown = ", ".join(map(repr, columns))
        raise InputError(f"the subgroup column {missing[0]!r} was not read with the predictions; read them with "
                         f"{arg('by', missing[0], python=f'advisor.load(..., by=[{shown}])')}.")


def subgroup_section(data: Any, columns: Sequence[str], metric_names: Mapping[str, str], pos: Any, beta: float,
                     undefined: str, bootstrap: int, confidence: float, seed: int | None,
                     digits: int, order: Sequence[Any] | None = None, margin: float | None = None,
                     favourable: Any = None, score: bool = False, item_words: str = "items",
                     smd_flag: float = 0.10, score_ids: Sequence[str] = (), error_rates: bool = False,
                     alarm_first: bool = False) -> tuple[dict[str, Any], list[TableBlock], list[WarningEntry], Paragraph]:
    """``(JSON, tables, warnings, methods paragraph)`` of the report's subgroups: the report's metrics (``id →
    name``) that a confusion matrix gives, per subgroup; with an ``order`` (an ordinal task), also the standardized
    mean difference of predicted minus true scores within each value (Williamson et al. 2012), flagged beyond
    ±``smd_flag`` (the field's ``smd_subgroup``, else 0.10); with ``favourable``
    (the class whose decision favours the item), the adverse impact ratios; with ``score``, the Jigsaw competition's
    bias score. With the author's ``margin``, every gap with an interval gets its verdict (two-sided: within ±margin,
    :mod:`._margins`). Every value's class shares stand beside its metrics; a gap across the values is shown only for
    the figures that do not depend on the class shares (:func:`shares_free`). ``score_ids``: the report's score
    metrics, computed within each value with the ROC AUC gap; ``error_rates``: each value's false positive and false
    negative rates at the whole test set's equal-error threshold (Dixon et al. 2018). ``alarm_first``: a false alarm
    is the costlier error, so the FPR gap comes before the TPR gap, as the methods name them."""
    metric_ids = list(metric_names)
    names = {**metric_names, **_RATE_NAMES}
    ids = [m for m in metric_ids if m not in NEEDS_PARAMETERS
           and (m in MULTICLASS_METRICS or (pos is not None and m in BINARY_METRICS))]
    res = subgroups(data, list(columns), metrics=list(dict.fromkeys(ids)) or ["accuracy"], positive_label=pos,
                    beta=beta, undefined=undefined, n_resamples=bootstrap or None, confidence=confidence, seed=seed,
                    favourable=favourable if pos is not None else None, score=score, shares=True,
                    score_metrics=[m for m in score_ids if m in SUBGROUP_SCORE_IDS], error_rates=error_rates)
    tables = [_value_table(col, per_value, digits, names, res["shares"][col], pos)
              for col, per_value in res["groups"].items()]
    tables += [_scores_table(col, per_value, digits, names, pos) for col, per_value in (res.get("scores") or {}).items()]
    if res.get("error_rates"):
        tables.append(_error_rates_table(res["error_rates"], digits, pos, item_words))
    # the class that is not the favourable one, whose share among the favoured is the bad rate (in credit, defaults
    # among the approved)
    other = next((str(c) for per in (res.get("shares") or {}).values() for sh in per.values() for c in sh
                  if str(c) != str(favourable)), None)
    tables += [_air_table(col, per_system, digits, favourable, item_words, other)
               for col, per_system in (res.get("adverse_impact") or {}).items()]
    tables += [_bias_table(col, per_value, digits, pos, len(per_value))
               for col, per_value in (res.get("bias_aucs") or {}).items()]
    if res.get("bias_score"):
        tables.append(_score_table(res["bias_score"], digits))
    smd = subgroup_smd(data, list(columns), order, n_resamples=bootstrap or None, confidence=confidence,
                       seed=seed, flag=smd_flag) if order else {}
    if smd:
        res["smd"] = smd
        tables += [_smd_table(col, per_value, digits, smd_flag) for col, per_value in smd.items()]
    if margin is not None:
        _gap_verdicts(res["gaps"], margin)
    gap_table = _gap_table(res["gaps"], digits, res["positive_label"], margin, res.get("auc_gaps") or {},
                           alarm_first=alarm_first)
    if gap_table is not None:
        tables.append(gap_table)
    warnings = [WarningEntry(code="small_subgroup", message=w, source="report") for w in res["warnings"]]
    return res, tables, warnings, _methods(list(columns), res["positive_label"], bootstrap, bool(res.get("bias_aucs")),
                                           air=bool(res.get("adverse_impact")), score=res.get("bias_score"),
                                           gapped=gap_table.columns[2:] if gap_table is not None else [],
                                           rates=bool(res.get("error_rates")))


def _num(v: Any, digits: int) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def _cell(entry: dict[str, Any] | None, digits: int) -> str:
    if not entry:
        return "—"
    text = _num(entry.get("estimate"), digits)
    if entry.get("low") is not None and entry.get("high") is not None:
        text += f" [{_num(entry['low'], digits)}, {_num(entry['high'], digits)}]"
    return text


def _shares_cell(shares: Mapping[str, float], pos: Any, digits: int) -> str:
    """The value's share of the class of interest, or of every class ("a 0.40, b 0.60") without one."""
    if pos is not None:
        return _num(shares.get(str(pos)), digits)
    return ", ".join(f"{c} {_num(x, digits)}" for c, x in shares.items())


def _shares_column(pos: Any) -> str:
    return f"share {pos}" if pos is not None else "class shares"


def _value_table(col: str, per_value: dict[str, Any], digits: int, names: Mapping[str, str],
                 shares: Mapping[str, Mapping[str, float]], pos: Any) -> TableBlock:
    values = list(per_value)
    systems = list(per_value[values[0]])
    ids = [m for m in per_value[values[0]][systems[0]] if m != "n"]
    rows = [[v, f"{per_value[v][s]['n']:,}", _shares_cell(shares[v], pos, digits), s,
             *[_cell(per_value[v][s].get(m), digits) for m in ids]] for v in values for s in systems]
    moving = [lower_name(names.get(m, m)) for m in ids if not shares_free(m, pos is not None)]
    caption = ("Each subgroup is evaluated on its own items; the intervals resample the subgroup's items "
               "(the rates: Clopper–Pearson)."
               + (f" {_cap(_words(moving))} depend on the subgroup's class shares, given beside them; they get no gap "
                  "across the subgroups." if moving else ""))
    return TableBlock(id="subgroups", title=f"Subgroups by {col}", caption=caption,
                      columns=[col, "n", _shares_column(pos), "system", *[names.get(m, m) for m in ids]],
                      numeric=[False, True, True, False, *[True] * len(ids)], rows=rows)


def _name(mid: str) -> str:
    """A figure's name in a caption: the rate's, else the catalogue's."""
    rec = get_catalogue().metrics.get(mid)
    return _RATE_NAMES.get(mid) or (lower_name(rec.name) if rec is not None else mid)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _scores_table(col: str, per_value: dict[str, Any], digits: int, names: Mapping[str, str], pos: Any
                  ) -> TableBlock:
    """The report's score metrics within each value of one column, beside the value's share of the class of
    interest: a row per value and system, each metric with the item bootstrap on the value's items."""
    values = list(per_value)
    systems = [s for s in dict.fromkeys(s for v in values for s in per_value[v])]
    ids = [m for m in SUBGROUP_SCORE_IDS if any(m in per_value[v].get(s, {}) for v in values for s in systems)]
    rows = []
    for v in values:
        for s in systems:
            e = per_value[v].get(s)
            if e is None:
                continue
            rows.append([v, f"{e['n']:,}", _num(e.get("share"), digits), s, *[_cell(e.get(m), digits) for m in ids]])
    moving = [lower_name(names.get(m, m)) for m in ids if not shares_free(m, True)]
    caption = ("Each subgroup's own items scored; in brackets, the item bootstrap of each metric on those items."
               + (" ROC AUC does not depend on the share of the class of interest, so its gap across the subgroups "
                  "is given with the other gaps." if "roc_auc" in ids else "")
               + (f" {_cap(_words(moving))} move with that share, given beside them, and get no gap: a gap would mix "
                  "the subgroups' base rates with the classifier's behaviour." if moving else ""))
    return TableBlock(id="subgroup_scores", title=f"Scores within each subgroup of {col}", caption=caption,
                      columns=[col, "n", f"share {pos}", "system", *[names.get(m, m) for m in ids]],
                      numeric=[False, True, True, False, *[True] * len(ids)], rows=rows)


def _error_rates_table(per_system: dict[str, Any], digits: int, pos: Any, items: str) -> TableBlock:
    """Each value's false positive and false negative rates at its system's equal-error threshold, with the gap of
    each rate across the values of a column in a last row."""
    rows = []
    said = []
    for s, e in per_system.items():
        said.append(f"{s} {e['threshold']:.4g} (FPR {_num(e['fpr'], digits)}, FNR {_num(e['fnr'], digits)})")
        for col, c in e["columns"].items():
            for v, x in c["values"].items():
                rows.append([col, v, s, f"{x['negatives']:,.0f}", _cell(x["fpr"], digits), f"{x['positives']:,.0f}",
                             _cell(x["fnr"], digits)])
            gaps = c["gaps"]
            rows.append([col, "gap (largest − smallest)", s, "", _gap_text(gaps["fpr"], digits), "",
                         _gap_text(gaps["fnr"], digits)])
            eq = c.get("equality_differences") or {}
            if eq:  # Dixon et al. (2018): each rate's distance from the overall rate, summed over the values
                rows.append([col, "equality difference (FPED, FNED)", s, "", _num(eq.get("fped"), digits), "",
                             _num(eq.get("fned"), digits)])
    caption = (f"At one threshold per system, where the whole test set's false positive and false negative rates are "
               f"equal (Dixon et al. 2018): {'; '.join(said)}. An item is flagged as {pos!s} when its score is at "
               f"least the threshold. FPR: the share of the subgroup's {items} not of class {pos!s} that are flagged; "
               f"FNR: the share of its {items} of class {pos!s} not flagged. In brackets, Clopper–Pearson intervals given the threshold, "
               "which is set on this test set; a gap's interval as in the table of gaps. The FNR gap is the TPR gap, "
               "FNR being 1 − TPR. The false positive and false negative equality differences (FPED, FNED; Dixon et "
               "al. 2018) sum, over the values, the distance of each value's rate from the whole test set's rate at "
               "the same threshold; 0 when every value's rate equals it.")
    return TableBlock(id="subgroup_error_rates", title="Error rates at the equal-error threshold", caption=caption,
                      columns=["subgroups by", "value", "system", "negatives", "FPR", "positives", "FNR"],
                      numeric=[False, False, False, True, True, True, True], rows=rows)


def _gap_text(e: Mapping[str, Any], digits: int) -> str:
    if e.get("gap") is None:
        return "—"
    return f"{_num(e['gap'], digits)}{_interval_text(e, digits)}"


def _smd_table(col: str, per_value: dict[str, Any], digits: int, limit: float = 0.10) -> TableBlock:
    """The standardized mean difference (predicted minus true) of each value and system, flagged beyond ±``limit``."""
    rows = []
    for value, per_system in per_value.items():
        for s, e in per_system.items():
            flag = f"beyond ±{limit:.2f}" if e.get("flag") else ("—" if e.get("estimate") is None
                                                                else f"within ±{limit:.2f}")
            rows.append([value, f"{e.get('n', 0):,}", s, _cell(e, digits), flag])
    caption = ("Standardized mean difference of predicted minus true scores within each value: the difference of the "
               "means over the root mean of the two variances; positive when the predictions score higher. Williamson, "
               f"Xi & Breyer (2012) flag a magnitude beyond {limit:.2f} within a subgroup. Intervals resample the "
               "value's items.")
    return TableBlock(id="subgroup_smd", title=f"Standardized mean difference by {col}", caption=caption,
                      columns=[col, "n", "system", "SMD", "flag"], numeric=[False, True, False, True, False], rows=rows)


def _bias_table(col: str, per_value: dict[str, Any], digits: int, pos: Any, n_values: int) -> TableBlock:
    """The bias AUCs of Borkan et al. (2019) of one subgroup column: a row per value and system, each AUC with its
    interval and the number of positive and negative items it ranks."""
    rows = []
    for value, per_system in per_value.items():
        for s, entry in per_system.items():
            cells = []
            for m in BIAS_AUC_NAMES:
                e = entry.get(m) or {}
                sizes = f" ({e.get('positives', 0):,} vs {e.get('negatives', 0):,})"
                cells.append(("undefined: " + str(e.get("reason"))) if e.get("estimate") is None and e.get("reason")
                             else _cell(e, digits) + sizes)
            rows.append([value, s, *cells])
    two = (" With two values, one value's BPSN AUC is the other's BNSP AUC: the same items ranked the same way."
           if n_values == 2 else "")
    caption = (f"Borkan et al. (2019), for the class of interest {pos!s}: the subgroup AUC is the ROC AUC on the "
               "value's items; the BPSN AUC ranks the positives outside the value against the value's negatives (low "
               "when the value's negatives are scored above positives elsewhere); the BNSP AUC ranks the value's "
               "positives against the negatives outside it (low when the value's positives are scored below negatives "
               "elsewhere). In brackets, the item bootstrap of ROC AUC on the items each one ranks; after them, how "
               f"many positives and negatives it ranks.{two}")
    return TableBlock(id="bias_aucs", title=f"Bias AUCs by {col}", caption=caption,
                      columns=[col, "system", *BIAS_AUC_NAMES.values()], numeric=[False, False, True, True, True],
                      rows=rows)


def _gap_verdicts(gaps: dict[str, Any], margin: float) -> None:
    """Each gap's verdict against the margin (``verdict``: inside, outside, inconclusive; None without an interval)."""
    for per_metric in gaps.values():
        for per_system in per_metric.values():
            for e in per_system.values():
                if e.get("gap") is not None:
                    e["margin"], e["verdict"] = margin, verdict(e.get("low"), e.get("high"), margin, "two")


def _interval_text(e: Mapping[str, Any] | None, digits: int) -> str:
    if not e or e.get("low") is None or e.get("high") is None:
        return ""
    return f" [{_num(e['low'], digits)}, {_num(e['high'], digits)}]"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


#: A ratio's interval against the four-fifths line, in the table's words
_LINE_WORDS = {"meets": "meets 0.8", "below": "below 0.8", "undecided": "undecided"}


def _air_table(col: str, per_system: dict[str, Any], digits: int, favourable: Any, items: str,
               other: str | None = None) -> TableBlock:
    """The adverse impact ratio of one subgroup column: a row per value and system, its rate of the favourable
    decision, its ratio to the highest value's rate and that ratio read against 0.8 by its interval (meets: the lower
    bound is at least 0.8; below: the upper bound is under it; else undecided); the smallest ratio of each system in a
    last row per system. Without intervals the verdict column is left out and the smallest ratio says on which side
    of the line its estimate lies (the fair-lending reader: each ratio tested against the line, not the estimate).
    With ``other`` (the class that is not the favourable one), a last column gives its share among the items given
    the favourable decision, and a row per system gives both rates over every item: in credit, the approval rate and
    the bad rate among the approved, which a fixed cut-off is read by (the credit risk reader)."""
    read = any(x.get("ratio_interval") is not None for e in per_system.values() for x in e["values"].values())
    bad_col = other is not None

    def bad(x: Mapping[str, Any]) -> list[str]:
        return [_num(x.get("bad_rate"), digits) + _interval_text(x.get("bad_rate_interval"), digits)] \
            if bad_col else []

    rows = []
    for s, e in per_system.items():
        for v, x in e["values"].items():
            ratio = "—" if x.get("ratio") is None else _num(x["ratio"], digits) + _interval_text(x.get("ratio_interval"),
                                                                                               digits)
            rows.append([v, f"{x['n']:,.0f}", s, _num(x.get("rate"), digits) + _interval_text(x.get("rate_interval"),
                                                                                                digits), ratio]
                        + ([_LINE_WORDS.get(str(x.get("verdict")), "—")] if read else []) + bad(x))
        if bad_col and e.get("overall"):
            o = e["overall"]
            rows.append([f"all {items}", f"{o['n']:,.0f}", s,
                         _num(o.get("rate"), digits) + _interval_text(o.get("rate_interval"), digits), "",
                         *([""] if read else []), *bad(o)])
        m = e["min_ratio"]
        flag = ("" if m.get("estimate") is None or read else " — below 0.8" if e.get("below_line")
                else " — at or above 0.8")
        rows.append([f"smallest ratio ({e.get('argmin') or '—'})", "", s, "",
                     ("—" if m.get("estimate") is None else _num(m["estimate"], digits) + _interval_text(m, digits))
                     + flag] + ([_LINE_WORDS.get(str(m.get("verdict")), "—")] if read else [])
                    + ([""] if bad_col else []))
    caption = (f"Rate: the share of the value's {items} given the favourable decision, predicted {favourable!s}. Ratio: "
               "the rate over the highest value's rate; the Uniform Guidelines on Employee Selection Procedures regard "
               "a ratio below four-fifths (0.8) as evidence of adverse impact (29 CFR 1607.4(D)). In brackets, 95% "
               "percentile intervals from the bootstrap that resamples every item together, rates and ratios "
               "recomputed in each resample."
               + (" Against 0.8: a ratio meets the rule of thumb when the lower bound of its interval is at least 0.8, "
                  "falls below it when the upper bound is under 0.8, and is otherwise undecided." if read else "")
               + (f" {_capital(str(other))} among predicted {favourable!s}: the share of the {items} predicted "
                  f"{favourable!s} whose "
                  f"true class is {other}, in each value and, in the row of all {items}, over every one of them."
                  if bad_col else ""))
    return TableBlock(id="adverse_impact", title=f"Adverse impact ratio by {col}", caption=caption,
                      columns=[col, "n", "system", f"rate of {favourable!s}", "ratio to the highest",
                               *(["against 0.8"] if read else []),
                               *([f"{other} among predicted {favourable!s}"] if bad_col else [])],
                      numeric=[False, True, False, True, True, *([False] if read else []), *([True] if bad_col else [])],
                      rows=rows)


def _score_table(per_system: dict[str, Any], digits: int) -> TableBlock:
    """The Jigsaw competition's final bias score of each system, with its overall AUC and the three power means; over
    one identity subgroup each power mean is that subgroup's AUC, and the table says so and does not call the number
    the competition's score (the toxic reader)."""
    rows = []
    ids: list[str] = []
    for s, e in per_system.items():
        ids = ids or [f"{c} = {v}" for c, v in e.get("identities") or []]
        if e.get("estimate") is None:
            rows.append([s, "undefined: " + str(e.get("reason")), "—", "—", "—", "—"])
            continue
        pm = e.get("power_means") or {}
        rows.append([s, _num(e["estimate"], digits) + _interval_text(e, digits), _num(e.get("overall_auc"), digits),
                     *[_num(pm.get(a), digits) for a in BIAS_AUC_NAMES]])
    methods = {e.get("method") for e in per_system.values() if e.get("low") is not None}
    interval = ("the 95% BCa interval (acceleration from a jackknife over the items)" if methods == {"bca"} else
                "the 95% percentile interval" if methods == {"percentile"} else "the 95% interval")
    bracket = f" In brackets, {interval} from the bootstrap that resamples every item together." if methods else ""
    if len(ids) == 1:
        caption = ("The form of the final metric of the Jigsaw Unintended Bias in Toxicity Classification competition "
                   f"over one identity subgroup ({ids[0]}), against every other item: 0.25 × overall ROC AUC + 0.25 × "
                   "each power mean (p = −5) of the subgroup, BPSN and BNSP AUCs. Over a single value each power mean "
                   "is that value's AUC, so the score is the mean of the four AUCs; it is not the competition's "
                   f"score, which is taken over its {JIGSAW_IDENTITIES} identity columns." + bracket)
        return TableBlock(id="bias_score", title="Bias score over one identity (the Jigsaw form)", caption=caption,
                          columns=["system", "bias score", "ROC AUC", *BIAS_AUC_NAMES.values()],
                          numeric=[False, True, True, True, True, True], rows=rows)
    caption = ("The final metric of the Jigsaw Unintended Bias in Toxicity Classification competition: 0.25 × overall "
               "ROC AUC + 0.25 × each power mean (p = −5), M = ((1/N) Σ m^(−5))^(−1/5), of the subgroup, BPSN and BNSP AUCs over "
               f"the N identity subgroups ({'; '.join(ids) or 'none'}), each identity against every other item."
               + bracket)
    return TableBlock(id="bias_score", title="Jigsaw bias score", caption=caption,
                      columns=["system", "bias score", "ROC AUC", *[f"power mean of {n}" for n in BIAS_AUC_NAMES.values()]],
                      numeric=[False, True, True, True, True, True], rows=rows)


def rates_in_order(ids: Sequence[str], alarm_first: bool) -> list[str]:
    """``ids`` with FPR before TPR when a false alarm is the costlier error (the order the methods name the gaps in,
    :func:`advisor.report._plan`), else as given.

    >>> rates_in_order(["tpr", "fpr", "precision"], True), rates_in_order(["tpr", "fpr"], False)
    (['fpr', 'tpr', 'precision'], ['tpr', 'fpr'])
    """
    out = list(ids)
    if alarm_first and "tpr" in out and "fpr" in out and out.index("tpr") < out.index("fpr"):
        i, j = out.index("tpr"), out.index("fpr")
        out[i], out[j] = out[j], out[i]
    return out


def _gap_table(gaps: dict[str, Any], digits: int, pos: Any, margin: float | None = None,
               auc: Mapping[str, Any] | None = None, alarm_first: bool = False) -> TableBlock | None:
    """The gaps across the subgroups of the figures that do not depend on the class shares (:func:`shares_free`),
    ROC AUC's among them when the scores were read (``auc``: :func:`advisor.stats._subgroup_scores.auc_gaps`); None
    when no such figure was computed."""
    first = next(iter(gaps.values()))
    binary = pos is not None
    shown = rates_in_order([m for m in ((*_RATE_NAMES, "equalized_odds") if binary else first)
                            if m in first and shares_free(m, binary)], alarm_first)
    auc = auc or {}
    if not shown and not auc:
        return None
    rows = []

    def cell(e: Mapping[str, Any] | None) -> str:
        if not e or e.get("gap") is None:
            return "—"
        said = "" if margin is None else f"; {gap_verdict_words(e.get('verdict'), margin)}"
        return f"{_num(e['gap'], digits)}{_interval_text(e, digits)} (ratio {_num(e.get('ratio'), digits)}{said})"

    for col, per_metric in gaps.items():
        systems = list(per_metric[shown[0]]) if shown else list(auc.get(col) or {})
        for s in systems:
            rows.append([col, s, *[cell(per_metric[m][s]) for m in shown],
                         *([cell((auc.get(col) or {}).get(s))] if auc else [])])
    names = [("equalized-odds difference" if m == "equalized_odds" else f"{_RATE_NAMES.get(m, m)} gap") for m in shown]
    names += ["ROC AUC gap"] if auc else []
    moving = [m for m in first if not shares_free(m, binary)]
    resampled = any(e.get("method") for pm in gaps.values() for ms in pm.values() for e in ms.values())
    caption = ("Gap: the largest minus the smallest value over the subgroups; ratio: the smallest over the largest. "
               + ("A gap's interval (in brackets) comes from simultaneous bootstrap intervals of every difference "
                  "between two subgroups, each subgroup resampled on its own; it is not the interval of the resampled "
                  "gaps, which a largest-minus-smallest biases upward where subgroups are small. "
                  if resampled else "")
               + ("The equalized-odds difference is the larger of the TPR and FPR gaps. " if "equalized_odds" in shown
                  else "")
               + (f"The ROC AUC gap is that of the subgroup AUCs (class of interest {pos!s}). " if auc else "")
               + ("Figures that depend on a subgroup's class shares, such as "
                  + _words([_name(m) for m in moving[:3]])
                  + ", are given beside those shares in the subgroup tables, without a gap: their gap would mix the "
                  "subgroups' base rates with the classifier's behaviour." if moving else "")
               + ("" if binary else " The gaps of the TPR and FPR need a two-class task with a class of interest.")
               + ("" if margin is None else
                  f" Verdict against the margin {margin_text(margin)} fixed in advance: alike when the gap's interval lies "
                  f"within ±{margin_text(margin)}, so that no two subgroups differ by more; differ when it lies beyond; else "
                  "inconclusive."))
    return TableBlock(id="subgroup_gaps", title="Gaps across subgroups", caption=caption,
                      columns=["subgroups by", "system", *names], numeric=[False, False, *[True] * len(names)],
                      rows=rows)


def _methods(columns: list[str], pos: Any, bootstrap: int, bias: bool = False, air: bool = False,
             score: Mapping[str, Any] | None = None, gapped: Sequence[str] = (), rates: bool = False) -> Paragraph:
    """The subgroups' paragraph. ``gapped``: the gap table's columns (the figures that do not depend on the class
    shares); ``rates``: the error rates at the equal-error threshold were computed."""
    cols = ", ".join(columns[:-1]) + (" and " if len(columns) > 1 else "") + columns[-1]
    named = [g.removesuffix(" gap") for g in gapped if g != "equalized-odds difference"]
    what = (_words(named) + (", with the equalized-odds difference (the larger of the TPR and FPR gaps)"
                             if "equalized-odds difference" in gapped else "")) if named else ""
    intervals = " with intervals from each subgroup's own bootstrap" if bootstrap else ""
    gap_iv = (" A gap of the plug-in values is biased upward — the largest of noisy values is too large and the "
              "smallest too small, most in small subgroups — so its interval is not taken from the resampled gaps: "
              "each subgroup's items are resampled on their own, every difference between two subgroups gets a "
              "simultaneous bootstrap interval (the maximum over the pairs of the studentized deviations), and the "
              "gap's interval is the range those differences allow." if bootstrap else "")
    gaps = (f", and across the subgroups the gap (largest minus smallest) and ratio (smallest over largest) of {what}"
            if what else "")
    text = (f"Every metric is also reported per subgroup of {cols}{intervals}, beside the subgroup's class shares"
            f"{gaps}; a subgroup of fewer than 30 items, or fewer than 5 of a class, is flagged as too small to say "
            "anything. A metric that depends on the class shares gets no gap: it would mix the subgroups' base rates "
            f"with the classifier's behaviour.{gap_iv if what else ''}")
    spans = [Span(text=text)]
    if rates:  # Dixon et al. (2018): one threshold for every group, set by a global criterion
        spans += [Span(text=" Within each value, the false positive and false negative rates are also read at one "
                            "threshold per system, where the whole test set's two rates are equal"),
                  Span(text=" "), Span(kind="cite", keys=["dixon2018measuring"]),
                  Span(text="; the threshold is set on this test set. Their false positive and false negative "
                            "equality differences, as Dixon et al. report them, sum each value's distance from the "
                            "whole test set's rate.")]
    if bias:  # Borkan et al. (2019), with its source
        spans += [Span(text=" Within each value, the subgroup, BPSN and BNSP AUCs rank the scores of the value's items "
                            "and of the others" + (", each with the item bootstrap of ROC AUC on the items it ranks"
                                                   if bootstrap else "")),
                  Span(text=" "), Span(kind="cite", keys=["borkan2019nuanced"]), Span(text=".")]
    if air:  # the four-fifths rule, with its source
        # with intervals, each ratio is read against the line by its interval, not the smallest estimate against it
        # (the fair-lending reader: the rule of thumb the text cites is the test)
        spans += [Span(text=" Within each value, the rate of the favourable decision is divided by the highest value's "
                            "rate, each with a percentile interval from the bootstrap that resamples every item "
                            "together; each ratio is read against 0.8, the four-fifths rule of thumb from US employment "
                            "selection, by its interval" if bootstrap else
                            " Within each value, the rate of the favourable decision is divided by the highest value's "
                            "rate, and the smallest ratio is set against the four-fifths line, a rule of thumb from US "
                            "employment selection"),
                  Span(text=" "), Span(kind="cite", keys=["eeoc1978uniform"]), Span(text=".")]
        # the figures a fixed cut-off is read by in credit: the approval rate and the bad rate among the approved
        spans += [Span(text=" The share of the items given the favourable decision whose true class is the other one "
                            "is also given, within each value and over all items, with the share given it.")]
    if score:  # the Jigsaw competition's final score, over the identity values it found
        ids = next((e.get("identities") for e in score.values() if e.get("identities")), None) or []
        which = "; ".join(f"{c} = {v}" for c, v in ids) or "none found"
        if len(ids) == 1:  # a power mean over one value is that value's AUC: not the competition's score
            spans += [Span(text=" The bias score is given in the form the Jigsaw competition's score takes over one "
                                f"identity subgroup ({which}), against every other item"),
                      Span(text=" "), Span(kind="cite", keys=["jigsaw2019unintended"]),
                      Span(text=". Each power mean (p = −5) is then that subgroup's AUC, so the score averages the "
                                "overall ROC AUC with the subgroup's three bias AUCs; it is not the competition's score.")]
        else:
            spans += [Span(text=" The bias score of the Jigsaw competition is taken over the identity subgroups "
                                f"({which}), each against every other item"),
                      Span(text=" "), Span(kind="cite", keys=["jigsaw2019unintended"]), Span(text=".")]
    return Paragraph(spans=spans)
