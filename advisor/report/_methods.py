r"""The methods paragraph and its justification: what to say, decided from the situation.

The words live in :mod:`advisor.report._methods_text`; here we choose the sentences. The result is
a list of :class:`~advisor.report._models.Paragraph` objects made of spans (plain text, trusted
math, citations) so that each output format renders it with its own escaping, math and citation
style:

* ``Evaluation``: one paragraph as a careful author writes it — the situation, the lead metric and
  the reason in reader terms with a citation, the metrics beside it and what each adds, the
  notation, the undefined-value convention, the chance level (with data), the intervals and the
  reporting duties;
* ``Definitions``: the display formulas of the reported metrics (no prose);
* ``Justification`` (built apart, by :func:`build_justification`): every step of the reasoning,
  no sentence twice and one level of parentheses.
"""

from __future__ import annotations

import re
from fractions import Fraction
from collections.abc import Collection, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from ..engine import DEFAULT_CONVENTION
from .._exceptions import UnknownMetricError
from .._format import beta_text
from ..catalogue import BIB_FILE, resolve_metric
from ..engine import LOG_LOSS_EPS, METRICS, NEEDS_PARAMETERS, SELECTIVE_IDS, undefined_case, undefined_whole
from ..questionnaire import BACKQUOTED_FORMULA as FORMULA
from ..questionnaire import RELEVANT_PROPERTIES as _RELEVANT
from ..questionnaire import agree_verb as _agree
from ..questionnaire import article, avoid_reason, flatten_parentheses, load_fields, plural, ranked_pair, reader_terms, situation
from ..questionnaire import join_words as _join_words
from ..questionnaire import lower_name as _lower_name
from ..questionnaire import property_words as _property_words
from ..questionnaire import external_metrics, resolve_planned, scope_notes, scope_sentences, scope_tasks, suggest_field
from . import _methods_text as W
from ._bib import parse_bibtex
from ._judge import JUDGE_SOURCE, judge_noun, judge_said, judge_sentences
from ._margins import gap_margin_sentence, humans_noun, margin_of
from ._methods_baseline import baseline_sentence, constant_said, constant_sentence, said_baseline
from ._methods_field import (
    field_forms_text,
    field_of,
    left_open_sentence,
    field_scorer,
    field_sentences,
    field_term_lead_sentence,
    in_field_terms,
    ranked_field_sentences,
    label_aucs_sentence,
    pair_first_sentences,
    promise_sentence,
    summarised_pair,
)
from ._methods_bias import adverse_impact_sentence, bias_lead_sentence, bias_score_sentence, bias_sentence, \
    decision_groups_sentence, error_rates_sentence
from ._methods_bias import LINE_READING, RATIOS_NOT_BCA, four_fifths_rates, four_fifths_reading_sentence, one_flag_limitation, \
    smd_sentence
from ._actions import ACTION_IDS, ACTIONS_PROMISE, actions_lead, actions_lead_sentence, actions_sentence
from ._budget import BUDGET_PROMISE, budget_sentence, deployed_lead, deployed_lead_sentence
from ._risk_limit import LIMIT_PROMISE, fixed_cut, frozen_coverage_lead, frozen_coverage_sentences, frozen_lead, \
    frozen_lead_sentences, limit_lead_sentences
from ._methods_lists import Text, distinct_names, net_benefits_once, prose_name
from ._methods_focus import focus_sentence
from ._voice import paper_voice
from ._methods_lists import listed as _listed
from ._methods_lists import shared_tail as _shared_tail
from ._methods_lists import systems_in_words as _systems
from ._methods_intervals import first_shares_words, intervals_sentence, jackknife_unit, method_words, tied_note
from ._methods_scores import TEST_SET_CUT, TEST_SET_THRESHOLD, BudgetNote, Convention, FigureNote, TableNote, ThresholdNote, cost_reference
from ._methods_strata import strata_paragraphs
from ._models import ChanceRow, IntervalSettings, MetricEntry, Paragraph, Span, TaskInfo

__all__ = ["SHARED_NOTATION", "VARIANT_NOTES", "build_justification", "build_methods", "flatten_parentheses"]

VARIANT_NOTES: dict[str, str] = W.VARIANT

_HOLDS = ("holds",)


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _holds(property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool) -> Any:
    """The catalogue statuses as the question "does metric m have property p?" (None: no claim)."""

    def holds(mid: str, pid: str) -> bool | None:
        if pid not in property_status.get(mid, {}):
            return None
        return _status(property_status, mid, pid, binary)[0]

    return holds


def _binary_only(metric_id: str) -> bool:
    spec = METRICS.get(metric_id)
    return bool(spec is not None and spec.binary_only)


def _status(property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], mid: str, pid: str,
            binary: bool) -> tuple[bool, list[str]]:
    st, keys = property_status.get(mid, {}).get(pid, ("", []))
    return (st in _HOLDS or (binary and st == "binary_only")), list(keys)


# ----------------------------------------------------------------------------------------------
# The paragraph
# ----------------------------------------------------------------------------------------------
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
    convention: str = DEFAULT_CONVENTION,
    undefined_count: int | None = None,
    log_loss_zero: Mapping[str, int] | None = None,
    chance: Sequence[ChanceRow] = (),
    intervals: IntervalSettings | None = None,
    n_systems: int = 0,
    digits: int = 4,
    given: Collection[str] | None = None,
    extra: Sequence[tuple[str, Sequence[str]]] = (),
    promised: Sequence[str] | None = None,
    unreported: Sequence[str] = (),
    identities: Sequence[Sequence[Any]] | None = None,
    split_seed: int | None = None,
    undefined_met: Collection[str] = (),
    convention_chosen: bool = False,
) -> list[Paragraph]:
    """The ``Evaluation`` paragraph and the ``Definitions`` block.

    ``property_status[metric][property] = (status, bib keys)`` comes from the catalogue; ``cite`` maps
    (author substring, year) to a BibTeX key or None. ``given`` are the answers the author gave: a default
    is never stated as the situation. ``promised`` are the diagnostics the report shows ("we also give …");
    None keeps the rule book's duties (a recommendation given without a plan). ``identities``: the ``[column,
    value]`` pairs that marked an identity in the data, when the Jigsaw bias score was computed (None before data):
    over one identity its power means are that identity's AUCs, and the paragraph says so. ``split_seed``: the seed of
    the split into a calibration and a test half, when the data were split (else the intervals' seed is said).
    ``undefined_met``: with data, the metrics a value of which was undefined; the convention's example is one of
    them where one is reported ("positive predictive value when … is never predicted", not a case the data never met).
    ``convention_chosen``: the author chose the convention (an option, not the default): before data it is said, a
    decision of their method; the default is said only where the data meet it.
    """
    cite = cite or (lambda author, year: None)
    property_status = property_status or {}
    scope = _scope_paragraph(answers, unreported)  # what advisor does not evaluate, first (issue 23, item 5)
    if answers.get("label_structure") in ("spans", "ranking"):
        return _in_order(scope, [_external_paragraph(answers, intervals, cite)])
    if answers.get("label_structure") in scope_tasks():  # boxes, masks, numbers, texts: no classification text
        return scope
    rec = distinct_names(in_field_terms([m for m in metrics if m.role != "appendix"], answers))
    primary = next((m for m in rec if m.role == "primary"), None)
    if primary is not None and primary.id == "stratified_accuracy" and answers.get("map_shares"):
        # a sample drawn by map class: the design and the estimates of Olofsson et al. (2014) are the paragraph
        return _in_order(scope, strata_paragraphs(answers, primary, cite, intervals, promised))
    binary = (task.kind == "binary") if task is not None else answers.get("task") == "binary"

    # with data, a convention is said only when the data met it, with how often (issue 22: "a zero denominator …
    # would give 0; none occurred" reads as a clause for nothing; the appendix lists every undefined value by
    # cause); before there is data, the convention the numbers will follow is said with the formulas
    met = bool(undefined_count) or any((log_loss_zero or {}).values())
    # the convention's example is a mean whose k the line after its formula already restricts (mean_conventions):
    # said there, not again in the paragraph when nothing was undefined (the s20 readers: a software note)
    first = next((m for m in rec if _undefined_of(m, task, answers) is not None), None)
    in_formula = first is not None and first.id in mean_conventions(rec, task, answers, convention) \
        and not _empty_items(rec)
    scorer = field_scorer(answers, convention)  # the convention of the author's field: said as its scorer's
    said_answers = answers if given is None else {k: v for k, v in answers.items() if k in given}
    # with data, what accuracy depends on is said in its number: what always predicting the largest class scores
    majority = next((r.majority for r in chance if r.metric == "accuracy" and r.majority is not None), None)
    data_adds = {"accuracy": W.S["accuracy_majority"].format(majority=f"{majority:.2f}")} if majority is not None else {}
    if answers.get("label_structure") == "hierarchy":  # a planned flat macro F1 beside the tree's lead: its own weight
        # the data's classes when there are data, else the answers'
        k_classes = (task.k if task is not None else None) or answers.get("n_classes") \
            or len(answers.get("classes") or []) or None
        data_adds["macro_f1"] = W.S["macro_f1_tree"].format(
            k=f"{k_classes:,} " if k_classes else "", item=str(answers.get("item_name") or "item"))
    if answers.get("label_structure") == "partition":  # a planned purity's pair: what each rewards, in the author's items
        data_adds.update(_purity_pair(answers))
    if primary is not None and primary.id in W.BESIDE_PROPER:  # a second proper score beside a proper lead: not
        data_adds.update(W.BESIDE_PROPER[primary.id])         # "to judge the probabilities", which the lead does
    if said_answers.get("true_negatives_meaningful") is True:  # Fβ's blind spot is the author's concern (issue 22)
        data_adds["f_beta"] = W.S["f_beta_tn"]
    if primary is not None and primary.id == "adjacent_accuracy" and answers.get("tolerated_steps") == 1:
        data_adds["mae_macro"] = W.S["mae_macro_beside_tolerated"]  # its reason in this situation (issue 22)
    if primary is not None and "accuracy" not in data_adds and not judge_said(answers, promised) \
            and _lead_on_test_shares(answers, primary, property_status, binary):
        data_adds["accuracy"] = W.S["accuracy_shares_too"]  # the lead said it: not the same clause twice

    def field_reason(ms: Sequence[MetricEntry]) -> str | None:
        """Why the field's figure does not lead: from what the author answered, else the property the choice of the
        lead rested on — a reader of the field asks why its figure is not first (CoLA's MCC); a property of the
        metric is said, never a premise about the situation (None: no single reason)."""
        reasons = {avoid_reason(m.id, said_answers, _holds(property_status, binary)) for m in ms}
        if len(reasons) == 1 and "other" not in reasons:
            return _agree(W.AVOID[reasons.pop()], len(ms))
        # the choice rested on a question the author left open: said as open, never as a fact of the situation
        # ("the class shares in use were not given", not "are unknown"; issue 22 item 3)
        reasons = {avoid_reason(m.id, answers, _holds(property_status, binary)) for m in ms}
        if reasons == {"prevalence_invariance"} and "deployment_prevalence" not in said_answers:
            return _agree(W.AVOID["prevalence_invariance"], len(ms)) + W.S["shares_not_given"]
        return None

    # systems ranked on one test set with the field's figure leading: the engine's lead entry rests on field and ranking
    lead_entry = next((r for r in recommendation.get("rationale") or [] if _get(r, "rule") == "primary"), None)
    lead_on = _get(lead_entry, "answers") or {} if lead_entry is not None else {}
    by_field = bool(lead_on.get("ranking")) and bool(lead_on.get("field")) and field_of(answers) is not None
    judge = judge_said(answers, promised)  # a judge against human raters: the comparison opens the argument
    # the raters' agreement with each other (Williamson et al. 2012): a sentence of its own, never cut
    baseline = said_baseline(promised, answers, W.PROMISE["human_baseline"])
    if promised is not None:
        promised = [x for x in promised if x not in (W.PROMISE["judge_agreement"], W.PROMISE["human_baseline"])]
    # the bias AUCs of a subgroup column (Borkan et al. 2019): the author's harm, in a sentence of its own, never cut
    bias = promised is not None and W.PROMISE["bias_aucs"] in promised
    # the signed bias of an ordered score per subgroup value (Williamson et al. 2012): likewise a sentence of its own
    smd = promised is not None and W.PROMISE["subgroup_smd"] in promised
    # the adverse impact ratio (the four-fifths rule) and the Jigsaw bias score: a sentence each, with its source
    air = promised is not None and W.PROMISE["adverse_impact"] in promised
    jigsaw = promised is not None and W.PROMISE["bias_score"] in promised
    # each value's error rates at one threshold set on the whole test set (Dixon et al. 2018): a sentence of its own
    rates = promised is not None and W.PROMISE["subgroup_error_rates"] in promised
    if promised is not None:
        promised = [x for x in promised if x not in (W.PROMISE["bias_aucs"], W.PROMISE["subgroup_smd"],
                                                     W.PROMISE["adverse_impact"], W.PROMISE["bias_score"],
                                                     W.PROMISE["subgroup_error_rates"])]
    # classes grouped by the action they lead to: the screening reader's figure, in a sentence of its own, never cut
    acts = promised is not None and ACTIONS_PROMISE in promised
    budget = promised is not None and BUDGET_PROMISE in promised  # the labels in use against the budget (issue 24)
    # a confidence cut fixed in advance: its answers' error rate against the target risk leads (the legal reader)
    limit = primary is not None and primary.id == "coverage_at_risk" and fixed_cut(answers) \
        and (promised is None or LIMIT_PROMISE in promised)
    acts_lead = acts and actions_lead(answers)  # the author's decisions: the costly action's sensitivity leads
    if promised is not None:
        promised = [x for x in promised if x not in (ACTIONS_PROMISE, BUDGET_PROMISE, LIMIT_PROMISE)]
        if any(m.id == "multilabel_macro_roc_auc" for m in rec):  # "each reported beside it": the labels' AUCs said
            promised = [x for x in promised if x != W.PROMISE["label_aucs"]]
    if promised is not None and answers.get("label_structure") == "partition":
        # the clusters each clustering produced: a sentence of its own beside the situation, never cut
        promised = [x for x in promised if x != W.PROMISE["cluster_sizes"]]
    sub_promise = next((x for x in promised or [] if x.startswith(W.PROMISE_SUBGROUPS.split("{")[0])), None)
    # decisions at a fixed threshold across subgroups: the per-group error rates and calibration read the decision in
    # each group (no bias AUCs of a ranking); said in a sentence of their own, never cut, like the bias AUCs
    groups = sub_promise is not None and not bias and answers.get("operating_point") == "fixed" \
        and answers.get("task") == "binary" and answers.get("positive_class") is not None
    # a threshold in use and a budget: its recall leads, the budget's sentence right after it, then TPR at the budget,
    # the best threshold the test set allows, with its optimism (issue 22, the fraud and spam readers)
    deployed = primary is not None and deployed_lead(answers, [primary.id, *(m.id for m in rec if m is not primary)])
    # the groups the budget's bound allows for (Korn & Graubard 1998), as the report's Definitions and table take them
    bound_group = intervals.group_column if intervals is not None and intervals.n_resamples > 0 else None
    resampled = intervals is not None and intervals.n_resamples > 0  # the ratios have intervals to be read by
    # the ratios' percentile interval beside BCa elsewhere says why (benchmarks/bench_adverse_impact.py)
    bca_elsewhere = resampled and intervals is not None and method_words(intervals) == "BCa"
    # the gaps' "no margin" sentence can leave for the Limitations (the last shortening) where each ratio is read
    # against the line; a margin the author fixed is the design and stays
    moved_gaps = air and resampled and sub_promise is not None and margin_of(answers) is None
    # the figures whose gaps across the subgroups are given ("TPR, FPR and ROC AUC"), as the subgroup promise names them
    gapped_figures = next((m.group(1) for m in [re.search(r", and the gaps? in (.+?)(?:, which .*)?$", sub_promise or "")]
                           if m), None)

    def paragraph(avoid: bool, promises: int = 3, clauses: bool = True, terse: int = 0, odds: bool = True,
                  example: bool = True, conventions: bool = True, brief: bool = False, score: bool = True,
                  thresholds: bool = True, rest: int = 0, variants: bool = True, shares: bool = False,
                  rates_here: bool = True, why: bool = True) -> Text:
        p = Text()
        # the last shortenings, with data (rest 5 to 7): the subgroups' paragraph below says each figure in full, so
        # the promise names the favourable decision's rate and ratio, and one sentence the line and its reading (the
        # loan with data ran to 266 words: its promise, the rate's sentence and the reading's said the subgroups
        # thrice); then how each ratio is read goes with the formulas (rest 6), and the count of items and systems
        # after the author's context (rest 7), which the report's header and Table 1 give
        compact = rest > 4 and air and resampled and groups and sub_promise is not None \
            and undefined_count is not None
        co_lead = False  # a bias AUC said beside the lead (the author's harm within a subgroup)
        shares_said = False  # "Its value depends on the class shares of this test set", said of the lead
        _situation_sentence(p, answers, task, given, _systems(n_systems, answers), clauses=clauses, counts=rest < 7)
        pair = summarised_pair(answers, rec, primary) if binary else []
        if judge and primary is not None:  # Zheng et al. (2023): the judge beside the humans, alpha the summary
            _judge_sentences(p, answers, primary, cite, intervals)
            named = field_sentences(p, answers, rec, primary, cite, why=field_reason, forms=rest < 2, each=avoid)
        elif pair and primary is not None:  # the field's two figures first, the lead as their summary (STARD)
            named = pair_first_sentences(p, answers, pair, primary, cite)
        elif by_field and primary is not None:  # the field's figure leads a ranking on one test set (the RumourEval reader)
            named = ranked_field_sentences(p, answers, rec, primary, lambda mid: _status(
                property_status, mid, "prevalence_invariance", binary)[1][:1])
        elif acts_lead:  # the action whose miss is costly leads; the field's figure follows, the properties' beside
            actions_lead_sentence(p, answers, terse=terse > 0)  # the plan's lead and its complement, said there
            named = set(field_sentences(p, answers, rec, None, cite, forms=rest < 2)) | set(ACTION_IDS)
        else:
            # a ranking of label scores leads (a worklist): its sentence is the per-label ROC AUCs' (label_aucs_sentence)
            ranked = primary is not None and primary.id == "multilabel_macro_roc_auc"
            if deployed and primary is not None:  # the threshold in use, then the budget it must keep
                deployed_lead_sentence(p, answers, prose_name(primary))
                if budget:
                    budget_sentence(p, answers, cite, bound_group, after_lead=True)
                led = {primary.id}
            elif limit:  # the cut in use against the limit; the coverage at the target risk is said beside it
                limit_lead_sentences(p, answers, cite)
                led = set()
            elif frozen_lead(answers, primary):  # the cut fixed on a calibration half, tested on the other
                frozen_lead_sentences(p, answers, cite, split_seed if split_seed is not None
                                      else intervals.seed if intervals is not None else None)
                led = {"coverage_guaranteed_risk"}
            elif frozen_coverage_lead(answers, primary):  # the cut for the coverage fixed on one half, tested on the other
                frozen_coverage_sentences(p, answers, cite, split_seed if split_seed is not None
                                          else intervals.seed if intervals is not None else None)
                led = {"risk_at_frozen_coverage"}
            else:
                led = _lead_sentences(p, answers, primary, property_status, binary, cite, rec, given, terse, task,
                                      defined_only=convention == "omit") \
                    if primary is not None and not ranked else set()
                # the bias AUC that answers the author's harm within a subgroup leads beside the overall ROC AUC, the
                # comparability figure of unintended-bias work (the tox reader, after Borkan et al. 2019)
                co_lead = bias and primary is not None and primary.id == "roc_auc" \
                    and bias_lead_sentence(p, answers, terse=terse > 0)
            if primary is not None and answers.get("label_structure") == "hierarchy" and answers.get("leaf_depth") \
                    and task is None:
                # every class at one depth (answered; with data the taxonomy paragraph checks and says it)
                p.t(W.S["leaf_depth"].format(d=int(answers["leaf_depth"]),
                                             item=str(answers.get("item_name") or "item")) + ". ")
            # the field's figure right after the lead, not last: a reader of the field looks for it first (issue 22)
            # beside the deployed threshold's recall, TPR at the budget is not the lead for what its sentence says
            of_field = set(field_sentences(p, answers, rec, primary, cite, why=None if deployed else field_reason,
                                           forms=rest < 2, each=avoid))
            named = of_field | led
            if deployed:
                named |= _best_within_budget(p, rec, of_field, extra, cite, field_of(answers))
            if primary is not None and not ranked and primary.id != "wrong_action_rate" \
                    and _lead_on_test_shares(answers, primary, property_status, binary):
                # after the field's figure, which a reader of the field seeks first; with what follows from it
                p.t(W.S["lead_test_shares"] + _shares_consequence(answers, given) + ". ")
                shares_said = True
            named |= _risk_calibration_sentence(p, answers, rec, primary, short=rest > 3)  # risks as risks
        named = named | label_aucs_sentence(p, answers, rec, field_of(answers))  # label scores: CheXpert's AUROCs
        named = named | focus_sentence(p, answers, rec)  # the classes the author names as costly, right after the lead
        beside = [m for m in rec if m.id not in named]
        if acts_lead or limit:  # the properties' lead is one figure beside the action's sensitivity, said with the
            # others; the coverage at the target risk, one beside the cut fixed in advance
            beside = [m.model_copy(update={"role": "complementary"}) if m.role == "primary" else m for m in beside]
        planned_as = _planned_as_sentence(p, answers, rec, given, beside)
        # "those shares too" only after the lead was said to depend on them (the murmur reader)
        adds = data_adds if shares_said else {k: v for k, v in data_adds.items() if v != W.S["accuracy_shares_too"]}
        # the figures beside the lead read at this test set's shares: one sentence for all of them, accuracy among
        # them, never accuracy's clause and then "Like accuracy, … depend on this test set's class shares" (the
        # sentiment and murmur readers); only in the paragraph that keeps everything else (the first trial of the
        # ladder below), the first to go when it runs long, and accuracy keeps its clause then
        comp = [m for m in rec if m.role == "complementary"]
        moving = _beside_moving(answers, comp, property_status, binary) if shares else []
        with_accuracy = bool(moving) and any(m.id == "accuracy" for m in beside) \
            and adds.get("accuracy", W.ADDS["accuracy"]) in (W.ADDS["accuracy"], W.S["accuracy_shares_too"]) \
            and "accuracy" not in planned_as
        if with_accuracy:
            # its dependence said in the sentence of the figures that depend on the shares; here, what it is
            adds = {**adds, "accuracy": W.S["accuracy_plain"].format(items=_items(answers) or "test items")}
        _beside_sentence(p, beside, multiclass=not binary, terse=terse,
                         # not "Beside these" after "Beside it" (the retinopathy, intent and murmur readers)
                         start=W.S["beside_after_field"] if named and not _opened_beside(p) else W.S["beside"],
                         data_adds=adds, planned_as=planned_as)
        if moving:
            accuracy = next((prose_name(m) for m in beside if m.id == "accuracy"), "accuracy")
            _beside_shares_sentence(p, [*moving, accuracy] if with_accuracy else moving, too=shares_said,
                                    consequence="" if shares_said else _shares_consequence(answers, given))
        constant_sentence(p, answers, primary, rec, chance)  # the lead read against a constant middle score
        smd_said = False  # the subgroups' SMD flag said with the baseline's flags (each with its comparison)
        if not judge:  # the human–human baseline, or in a field that expects it, that it is not available
            smd_said = baseline_sentence(p, answers if baseline else {**answers, "rater_columns": []},
                                         intervals is not None, subgroups=smd,
                                         correlation=any(m.id == "pearson_r" for m in rec))
        if avoid:
            _avoid_sentence(p, answers, recommendation, names or {}, property_status, binary, given)
        # which formula an ambiguous name stands for is said once, at its formula ("**Macro F1 (mean of per-class F1)**,
        # not the F1 of macro precision and recall"), not again here (the s47 shared-task reader: "Keep one")
        if answers.get("label_structure") == "partition" and variants:
            _partition_sentence(p, rec, cite)
        # partitions have no convention to state (a 0/0 index is refused, never set)
        if met and conventions and answers.get("label_structure") != "partition":
            clean = _log_loss_zero_sentence(p, rec, log_loss_zero, task, said=False)
            if undefined_count == 0 and in_formula:  # its formula's line says it; nothing was undefined here
                _log_loss_zero_sentence(p, rec, log_loss_zero, task)
            elif not _undefined_sentence(p, convention, undefined_count, cite, _annotators(answers), clean,
                                       case=_undefined_example(rec, task, answers, intervals, undefined_met), named=example,
                                       empty_items=_empty_items(rec), unit=_unit(answers),
                                       resampled=_resampled(intervals, rec, n_systems), scorer=scorer):
                _log_loss_zero_sentence(p, rec, log_loss_zero, task)
        # once the paragraph must shorten, the bias AUCs' sentence also says the subgroup promise (the fairness question)
        merged = sub_promise if (bias and promises < 3) or groups else None
        shown = [x for x in promised or [] if x != merged][:promises]
        table = W.per_class_promised(shown)
        for sentence, keys in extra:  # costs, scores, calibration (advisor/report/_methods_scores.py)
            if isinstance(sentence, TableNote) and not table:
                continue  # the per-class table is not promised in this (shortened) paragraph: nor its labels
            if isinstance(sentence, ThresholdNote) and not thresholds:
                continue  # said with the formulas (below, after the shortening)
            if isinstance(sentence, FigureNote) and terse:
                continue  # the figure and its caption say it; the metrics' own words go after it
            if sentence == TEST_SET_CUT and primary is not None and primary.id == "coverage_at_risk" and not limit:
                continue  # the lead's sentence says where its cut was found
            if isinstance(sentence, BudgetNote) and deployed:
                continue  # said right after TPR at the budget, beside the deployed threshold's recall
            if not isinstance(sentence, Convention):  # how a formula is computed goes beside the formulas
                p.say(sentence).cite(keys).t(". ")
        # only what the report shows (the plan's diagnostics), with what is reported, before the statistics: "We also
        # give the recall of every class" after the seed reads as tacked on (issue 22); how often each system ranks
        # first goes after the sentence on how systems are compared
        if bias:  # shorter once the paragraph must shorten, never dropped
            bias_sentence(p, answers, terse=promises < 3, also=merged, bare=terse > 4, led=co_lead)
        if groups and sub_promise is not None:  # the decision read within each group (the loan reader)
            decision_groups_sentence(p, answers, [m.id for m in rec], sub_promise, terse=promises < 3, bare=rest > 0,
                                     with_rate=compact)
        if rates and rates_here:  # the decision's errors within each group at a stated threshold: shorter when it
            error_rates_sentence(p, answers, terse=promises < 3)  # must; with data, else in the subgroups' paragraph
        if jigsaw and score:  # the competition's summary of the bias AUCs, right after them
            bias_score_sentence(p, answers, identities=identities)
        if air and compact:  # the rates named with the promise above: the line, its source and how it is read
            four_fifths_reading_sentence(p, answers, bca=bca_elsewhere and why, reading=rest < 6)
        elif air:  # the field's figure of the decisions across groups: never dropped
            adverse_impact_sentence(p, answers, intervals=intervals is not None, terse=promises < 3,
                                    columns_said=bias or (groups and sub_promise is not None), read=resampled)
            if resampled:  # the rule of thumb it cites is the test of each ratio, by its interval (the fair-lending
                four_fifths_reading_sentence(p, bca=bca_elsewhere and why)  # reader): never dropped
        if rest < 3:  # the field's standing caveat on its test sets (credit: selective labels); else a paragraph apart
            _field_caveat_sentence(p, answers)
        if smd and not smd_said:  # the author's question of bias in an ordered score: never dropped
            smd_sentence(p, answers, intervals=intervals is not None)
        if acts and not acts_lead:  # shorter once the paragraph must shorten, never dropped
            actions_sentence(p, answers, terse=terse > 0)
        if budget and not deployed:  # the author's constraint at the threshold in use: never dropped
            budget_sentence(p, answers, cite, bound_group)  # (right after the lead when the deployed threshold's recall leads)
        if promised is None:
            _duties_sentence(p, answers, recommendation, task)
        elif [x for x in shown if x not in W.PROMISE_COMPARING]:  # the judge sentences said the field's reading
            said = [x for x in shown if x not in W.PROMISE_COMPARING]
            if primary is not None and primary.id in ("selective_risk", "risk_at_frozen_coverage"):
                # beside each class's recall among the answered items, the table's recall is of every item: said so
                # (the derm reader, issue 22: "recall of every class" is undefined when lesions can be deferred)
                every = W.S["per_class_all_answered"].format(items=_items(answers) or "items")
                said = [every if x == W.PROMISE["per_class_recall"] else x for x in said]
            promise_sentence(p, answers, said, field_readings=not judge)
        gaps = sub_promise is not None and (sub_promise in shown or merged == sub_promise)
        if (gaps or (promised is None and answers.get("subgroups"))) and not (rest > 3 and moved_gaps):
            # "alike" needs a margin fixed in advance; where each ratio is read against the line and nothing else
            # fits, what the gaps cannot show goes to the Limitations (a limit of the evidence, said there in full)
            gap_margin_sentence(p, answers, intervals.confidence if intervals is not None else None,
                                intervals is not None, terse=terse > 2, line=four_fifths_rates(answers) if air else None,
                                gaps=gapped_figures)
        if odds and not constant_said(primary, rec):  # the chance levels: also in the report's chance table
            _chance_sentence(p, primary, chance)
        # the action's sensitivity and specificity named as the lead sentence names them ("referral sensitivity"), so
        # one sentence says every figure's interval (the murmur reader: two interval statements in one paragraph)
        interest = str(answers.get("action_of_interest") or "")
        named_rec = [m.model_copy(update={"name": f"{interest} {m.id.removeprefix('action_')}"})
                     if acts_lead and interest and m.id in ACTION_IDS else m for m in rec]
        intervals_sentence(p, intervals, n_systems, answers, named_rec, cite, brief)
        if [x for x in shown if x in W.PROMISE_COMPARING]:
            first = first_shares_words(intervals, plural(str(answers.get("item_name") or "item")))
            p.t(W.S["duties_comparing"] + _join_words([first if x == W.PROMISE["ranking_stability"] else x
                                                       for x in shown if x in W.PROMISE_COMPARING]) + ".")
        return p

    notation = Text()
    if rec:  # the notation introduces the formulas it serves, beside them rather than in the paragraph
        _notation_sentence(notation, rec, task, answers)
        tied_note(notation, intervals, answers, rec)
        for sentence, keys in extra:
            if isinstance(sentence, Convention):
                notation.t(" " if notation.spans else "").say(sentence).cite(keys).t(".")
    def convention_with_formulas(count: int | None) -> None:
        """The undefined-value convention said in the Definitions, with the count the data met (None: no data)."""
        if count is None and in_formula:
            return  # said after the mean's formula (mean_conventions), where its k is read
        said = Text()
        # before data, a zero denominator that only the data can meet (a class no resample holds, a system that never
        # predicts one) is not said: the report says it where it was met, with how often (the s41 readers of 14
        # fields: "a template clause for a case that cannot arise"); a field's scorer sets the figure, and a convention
        # the author chose is their method's: both are said
        case = _undefined_example(rec, task, answers, intervals, undefined_met) \
            if count is not None or scorer is not None or convention_chosen else None
        _undefined_sentence(said, convention, count, cite, _annotators(answers) and (count is not None
                                                                                 or not _ratings_vary(answers)),
                            case=case, empty_items=_empty_items(rec),
                            unit=_unit(answers), resampled=_resampled(intervals, rec, n_systems), scorer=scorer)
        if said.spans:
            notation.t(" " if notation.spans else "")
            notation.spans += said.spans

    if undefined_count is None:  # no data yet: only a convention that sets a figure whatever the data
        convention_with_formulas(None)
    # a paper's methods paragraph runs to about 220 words (the notation is set with the formulas, apart): what is
    # not used is the first to go (the justification keeps it), then the diagnostics beyond the first (the report
    # shows them all the same). With the author's context, our paraphrase of the situation is never said: the context says it, and a
    # reviewer reads the restatement ("…, where every label counts equally" after "rare topics count as much as
    # frequent ones") as a template speaking (issue 22).
    clauses = not (answers.get("context") and (given is None or "context" in given))  # the context is said
    steps = [(True, 3, clauses), (False, 3, clauses), (False, 1, clauses), (False, 0, clauses)]
    if answers.get("planned_metrics") and (given is None or "planned_metrics" in given):
        # the author's planned metrics advised against are the author's answer: the diagnostics go first (issue 22:
        # the legal router's planned macro F1 vanished when a promise grew)
        steps = [(True, 3, clauses), (True, 1, clauses), (True, 0, clauses), (False, 0, clauses)]
    # then the chance sentence (the report's chance table gives the same numbers), then the metric named as an
    # example of the zero-denominator convention, then the conventions when the data met none of them (the
    # formulas' notes keep them), then the McNemar sentence (the results table gives the test), and only then do
    # the metrics beside the lead lose what each adds (the Definitions and the justification say it); last, the
    # threshold the decision metrics read their labels at is said with their formulas (how they are computed), where
    # it goes only when nothing else can: the design's threshold belongs to the paragraph (writing.md); the metrics
    # beside the lead then keep what each adds as far as the words it frees allow. When even that does not fit (the
    # loan: subgroups, approval rates, risks, a field's caveat, none of them ever cut), what is said twice or has a
    # home of its own goes, a step at a time: the subgroup promise's list of the figures "every metric" names; the
    # form in which the field quotes a figure (Gini), said with its formula; the field's standing caveat on its test
    # sets, said in a paragraph of its own after the formulas (a limitation of the data, not a metric)
    last = steps[-1]
    trials = ([(*s, 0, True, True, True, False, True, 0) for s in steps]
              + [(*last, 0, False, True, True, False, True, 0), (*last, 0, False, False, True, False, True, 0),
                 (*last, 0, False, False, False, False, True, 0), (*last, 0, False, False, False, True, True, 0)]
              + [(*last, t, False, False, False, True, True, 0) for t in range(1, 9)]
              + [(*last, t, False, False, False, True, False, r) for r in range(0, 8) for t in range(0, 9)])
    # the Jigsaw competition's score, the toxicity field's summary of the bias AUCs, goes only when nothing else
    # can (the toxicity reader marked its absence major); a planned metric set aside that loses its sentence is said
    # beside what is not reported, and the report's subgroup paragraph and table give the score all the same
    # a comparison of partitions says which adjusted Rand index and which adjusted mutual information it reports
    # beside the formulas that show them, in the Definitions, before anything else of the paragraph must go: the
    # sentence repeats what the formulas say, and the intervals' sentences there are the design (the clustering
    # readers: the bootstrap of the error, its source, and what the intervals do not cover)
    partition = answers.get("label_structure") == "partition"
    # the share-dependent figures beside the lead are said only when the paragraph keeps everything else
    ladder = ([(True, trials[0], False)] if partition else [(True, trials[0], True)]) \
        + [(not partition, t, False) for t in trials]
    # each value's error rates at the equal-error threshold (Dixon et al. 2018): with data, the subgroups' paragraph
    # after this one says them with their source, so they leave this one before the bias AUCs lose what each catches
    # (the last shortening, terse > 4) or the Jigsaw score goes; before data they are a promise, never dropped
    passes = [(True, True, False), *([(True, False, False)] if undefined_count is not None else []),
              (True, True, True)] if rates else [(True, True, True)]
    passes += [(False, True, True)] if jigsaw else []  # (score, error rates said here, bare bias AUCs allowed)
    # why the ratios' interval is not the paragraph's BCa is the first to go at each step (what is not used gets a
    # clause at most, writing.md), said with the formulas instead
    for score, rates_here, bare in passes:
        for variants, (avoid, promises, clauses, terse, odds, example, conventions, brief, thresholds, rest), \
                shares in ladder:
            if terse > 4 and not bare:
                continue
            for why_here in (True, False) if bca_elsewhere and air else (False,):
                p = paragraph(avoid=avoid, promises=promises, clauses=clauses, terse=terse, odds=odds,
                              example=example, conventions=conventions, brief=brief, score=score,
                              thresholds=thresholds, rest=rest, variants=variants, shares=shares,
                              rates_here=rates_here, why=why_here)
                if _word_count(p.spans) <= MAX_WORDS:
                    break
            if _word_count(p.spans) <= MAX_WORDS:  # the notation goes with the formulas, apart from the paragraph
                break
        if _word_count(p.spans) <= MAX_WORDS:
            break
    notes: list[str] = []
    if not avoid and answers.get("planned_metrics") and (given is None or "planned_metrics" in given):
        # a planned metric advised against that the paragraph has no room for is said to the author beside what is
        # not reported, never dropped
        notes += _avoided_notes(answers, recommendation, property_status, binary, given, {m.id for m in rec})
    said_text = p.text()
    # a planned metric reported with a caveat the paragraph had no room for (NMI, not corrected for chance): the
    # caveat is said beside what became of the planned metrics, never dropped
    notes += [W.S["caveat_note"].format(planned=_planned_name(answers, m.id) or m.name, name=_lower_name(m.name),
                                        caveat=W.ADDS[m.id].removeprefix("as planned, "))
              for m in rec if m.id in W.TERSE_LAST and m.id in W.ADDS and W.ADDS[m.id] not in said_text
              and m.id not in ("purity", "inverse_purity")]
    if _read_from_lead(answers, recommendation, given):  # a planned accuracy beside a selective lead: its complement
        notes.append(W.S["accuracy_from_selective"].format(planned=_planned_name(answers, "accuracy") or "accuracy",
                                                           items=_items(answers) or "items"))
    # a planned purity reported with inverse purity: why the two go together, said once for the pair where the
    # paragraph had no room for it (never "We do not report purity": the text-clustering readers)
    why = _purity_pair(answers)["purity"]
    if answers.get("label_structure") == "partition" and {"purity", "inverse_purity"} <= {m.id for m in rec} \
            and why not in said_text:
        notes.append(W.S["purity_pair_note"].format(planned=_planned_name(answers, "purity") or "purity", why=why))
    # a planned figure the Evaluation paragraph itself gives for illustration at the conventional cut is not said
    # again before it (the CheXpert reader: the F1 caveat twice, almost word for word)
    shown_there = "given for illustration only" in said_text
    kept = [x for x in unreported if not (shown_there and "as an illustration at the conventional score cut" in x)]
    if notes or len(kept) < len(unreported):
        scope = _scope_paragraph(answers, [*kept, *notes])
    if undefined_count is not None and met and not conventions and answers.get("label_structure") != "partition":
        # the paragraph had no room for the convention the data met: it goes with the formulas, never unsaid (a
        # mean that left a class out beside a formula reading 1/k, the second reviewer)
        convention_with_formulas(undefined_count)
    if not thresholds:  # the paragraph had no room for the threshold of the decision metrics: with their formulas
        for sentence, keys in extra:
            if isinstance(sentence, ThresholdNote):
                notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "")
                notation.say(sentence).cite(keys).t(".")
    fallback = next((m for m in rec if m.id == "fallback_rate" and m.params.get("fallback_class") is not None), None)
    if fallback is not None and W.S["fallback_beside"].format(name=prose_name(fallback)) in p.text() \
            and W.S["fallback_beside_what"].split("{")[0] not in p.text():
        # what the fallback rate counts, cut from the paragraph once it must shorten: with its formula, never unsaid
        notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "")
        notation.t(W.S["fallback_defined"].format(f=fallback.params["fallback_class"],
                                                  items=_items(answers) or "test items") + ".")
    if not variants:  # which adjusted Rand index and mutual information: with the formulas that show them
        moved = Text()
        _partition_sentence(moved, rec, cite)
        if moved.spans and moved.spans[-1].kind == "text":  # the paragraph's ". " ends the Definitions' last sentence
            moved.spans[-1] = moved.spans[-1].model_copy(update={"text": moved.spans[-1].text.rstrip()})
        if moved.spans:
            notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "")
            notation.spans += moved.spans
    if rest > 5 and air and resampled and groups and sub_promise is not None and undefined_count is not None:
        notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "")  # the last shortening:
        notation.t(LINE_READING)  # how each ratio is read against the line, with the formulas (the table gives each)
    if bca_elsewhere and air and not why_here:  # why the ratios' interval is not BCa: with the formulas, no room above
        notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "")
        notation.t(RATIOS_NOT_BCA)
    forms = field_forms_text(answers, rec, primary) if rest > 1 else ""
    if forms:  # the form the field quotes a figure in (2·AUC − 1), with the formulas
        notation.t(" " if notation.spans and not notation.spans[-1].text.endswith(" ") else "").t(forms)
    paras = _in_order(scope, [p.para("Evaluation")])
    if rec:
        paras.append(Paragraph(heading="Definitions", spans=notation.spans))
    caveat = Text()
    if rest > 2:  # the field's standing caveat on its test sets, a limitation of the data: a paragraph of its own
        _field_caveat_sentence(caveat, answers)
    if rest > 3 and moved_gaps:  # what the gaps cannot show, moved here last
        gap_margin_sentence(caveat, answers, intervals.confidence if intervals is not None else None, True,
                            line=four_fifths_rates(answers), gaps=gapped_figures)
    if bias:  # one subgroup column that may pool every identity: a limitation of the data (the tox reader)
        one_flag_limitation(caveat, answers, identities)
    if caveat.spans:
        paras.append(caveat.para("Limitations"))
    left = Text()  # what the field's reports also state and the answers leave open: to the authors, not assumed
    if left_open_sentence(left, answers):
        paras.append(left.para("Left to the authors"))
    return paras


def _in_order(scope: list[Paragraph], evaluation: list[Paragraph]) -> list[Paragraph]:
    """What advisor does not evaluate comes first, a tool's word before the paper's; what became of the planned
    metrics follows the Evaluation paragraph, as the paper's next paragraph, before the formulas (issue 22, the
    s26 readers: a "**Planned metrics.**" paragraph before the Evaluation reads as the tool's output)."""
    first = [q for q in scope if q.run_in]
    after = [q for q in scope if not q.run_in]
    lead = [q for q in evaluation if q.heading != "Definitions"]
    rest = [q for q in evaluation if q.heading == "Definitions"]
    return [*first, *lead, *after, *rest]


def _scope_paragraph(answers: Mapping[str, Any], unreported: Sequence[str] = ()) -> list[Paragraph]:
    """What advisor does not evaluate (the task, or planned metrics of another kind of task), before anything
    else: "advisor does not evaluate this; use …, because …" (issue 23, item 5); none for a task it evaluates.
    Then what became of every other planned metric not reported under its own name (``unreported``, the plan's
    sentences; issue 22: never dropped without a word, never with an empty reason)."""
    notes = scope_notes(answers.get("label_structure"), answers.get("planned_metrics") or ())
    whole = answers.get("label_structure") in ("spans", "ranking", *scope_tasks())  # the task itself is elsewhere
    if answers.get("label_structure") in ("spans", "ranking"):  # the Evaluation paragraph names the scorer itself
        return _external_planned(answers)
    sentences = scope_sentences(notes) + ([] if whole else list(unreported))
    if not sentences:
        return []
    p = Text()
    field = load_fields().get(str(answers.get("field"))) if answers.get("field") else None
    said = " ".join(paper_voice(s) for s in sentences)  # the plan's notes as a paper says them
    token = "(" + re.sub(r"\((\d{4}[a-z]?)\)", r"\1", field.cite) + ")" if field is not None else None
    sources = {**W.NOTE_SOURCES, **({token: field.source} if field is not None and token else {})}
    rest = said
    for cited in sorted((t for t in sources if t in said), key=said.index):  # the works a note names, cited and listed
        before, rest = rest.split(cited, 1)
        p.t(before.rstrip()).cite([sources[cited]])
    p.t(rest)
    # a planned index the evaluated comparison leaves out is "not reported", not a task advisor does not evaluate;
    # a planned name reported under more specific names makes the paragraph one about the planned metrics
    heading = ("Not evaluated by advisor" if any(n.task != "partition_variant" for n in notes)
               else "Planned metrics" if any(re.search("” is (?:reported|given) ", s) for s in sentences)
               else "Not reported")
    return [p.para(heading, run_in=heading == "Not evaluated by advisor")]


def _external_planned(answers: Mapping[str, Any]) -> list[Paragraph]:
    """"We do not report token accuracy: a token-level confusion matrix counts the background tag and splits
    entities into tokens, …": the planned metrics a span or ranking evaluation does not report, said in the
    paper's voice; the Evaluation paragraph itself names the scorer (issue 22, the NER reader: "advisor does not
    evaluate this" was tool text left in the paper). What the paragraph reports is the scope table's ``reports``;
    a planned name of the task's own tools it does not report (MAP) is said to be left out, with no false reason.

    >>> [s.text for s in _external_planned({"label_structure": "ranking",
    ...                                     "planned_metrics": ["nDCG@10", "MAP", "precision"]})[0].spans][0][:56]
    'We do not report precision: set metrics on a confusion m'
    """
    structure = str(answers.get("label_structure"))
    task = scope_tasks()[structure]
    words = [re.escape(w) for w in task.get("reports") or ()]
    said = re.compile(r"(?i)(?<![\w@])(?:" + "|".join(words) + r")(?![\w@])") if words else None
    set_aside: list[str] = []
    own: list[str] = []
    for m in answers.get("planned_metrics") or ():
        name = str(m)
        if said is not None and said.search(re.sub(r"@\s*\d+", "@k", name)):
            continue  # "micro F1" over spans, "nDCG@10" over queries: reported
        theirs = any(n.task == structure for n in external_metrics(name, structure))
        (own if theirs else set_aside).append(name)
    p = Text()
    for names, tail in ((set_aside, "not reported: " + task["because"]), (own, "not among the figures reported below")):
        if names:
            listed = _join_words([f"“{n}”" for n in names])
            p.t(f"{' ' if p.spans else ''}" + paper_voice(
                f"The planned {listed} {'is' if len(names) == 1 else 'are'} {tail}."))
    return [p.para("Not reported", run_in=False)] if p.spans else []


def _task_pattern(key: str, many: str | None) -> str:
    """The sentence pattern for one classifier, or its plural when several are compared."""
    return W.S[f"{key}_many"] if many and f"{key}_many" in W.S else W.S[key]


def _situation_sentence(p: Text, answers: Mapping[str, Any], task: TaskInfo | None,
                        given: Collection[str] | None = None, many: str | None = None, clauses: bool = True,
                        counts: bool = True) -> None:
    pos = answers.get("positive_class") if task is None else (task.positive_label or answers.get("positive_class"))
    k = task.k if task is not None else answers.get("n_classes") or len(answers.get("classes") or []) or None
    kind = task.kind if task is not None else answers.get("task")
    context = answers.get("context") if given is None or "context" in given else None
    if context:  # the situation in the author's own words opens the paragraph (issue 22)
        p.t(context if context.rstrip()[-1:] in ".!?" else context.rstrip() + ".").t(" ")
    items = _items(answers)
    data = "" if task is None else (W.S["item_data"].format(n=f"{int(task.n):,}", items=items) if items else
                                    W.S["task_data"].format(n=f"{int(task.n):,}")) + _class_counts(task, answers)
    if answers.get("judge") and answers.get("annotators"):  # a judge against human raters (issue 22)
        _judge_situation(p, answers, task, k, items, bool(context))
        return
    if context and task is None and answers.get("label_structure") == "partition":  # the context says who is compared
        p.t(W.S["task_partition_context"].format(unit=items or "items") + ". ")
        p.t(W.S["partition_cluster_counts"].format(reference="") + ". ")
        return
    # with the author's context and no data, what is classified and by how many systems is the context's to say:
    # "We evaluate a classifier of 6 ordered classes", "We compare several 4-class classifiers" (of 25 teams) read as
    # a template, and "no annotator is taken as the reference" contradicted an author comparing a judge with the
    # humans (issue 22); with data, the sentence counts the items, unless the paragraph has no room (``counts`` False,
    # the last shortening: the report's header and Table 1 count them)
    if context and (task is None or not counts):
        return
    if _structure_sentence(p, answers, k, None if task is None else f"{int(task.n):,} {items or 'items'}", many,
                           data):
        pass
    elif kind == "binary":
        p.t(_task_pattern("task_binary", many).format(pos=pos, n=many) if pos is not None
            else W.S["task_binary_plain"] if answers.get("symmetric")
            else _task_pattern("task_binary_classifier", many).format(n=many))
    elif answers.get("symmetric") and k:
        p.t(W.S["task_agree"].format(k=k))
    else:
        p.t(_task_pattern("task_multi", many).format(k=k, n=many) if k
            else _task_pattern("task_multi_plain", many).format(n=many))
    if _annotators(answers):  # several annotators, no reference (a judge is compared with the humans): said in full
        p.t(("" if answers.get("judge") else W.S["task_annotators_data"]) + ". ")
        return
    if not (answers.get("top_k") and k) and answers.get("label_structure") != "partition":  # they say the items inside
        p.t(data)
    prev = answers.get("deployment_prevalence")
    target = answers.get("target_prevalence") or {}
    given_now = None if given is None else set(given)
    shares_said = (clauses and prev == "shifted" and pos is not None and kind == "binary"
                   and str(pos) in {str(c) for c in target})
    if shares_said:
        share = next(v for c, v in target.items() if str(c) == str(pos))
        p.t(W.S["pos_share"].format(share=f"{float(share):.0%}", pos=pos))
    said = situation(answers, given_now) if clauses else []  # without them, the author's context says it
    if shares_said and said and said[0] == W.SITUATION["shifted"]:
        said[0] = ""
    shown = [c for c in said[:2] if c]  # an empty clause stands for the share said above
    if shown:
        p.t(W.S["and_which" if shares_said else "in_which"] + _join_words(shown))  # "which" never after the items
    p.t(". ")
    if answers.get("label_structure") == "partition":  # the clusters each clustering produced, beside every index
        p.t(W.S["partition_cluster_counts"].format(
            reference="" if task is None else W.S["partition_reference_clusters"].format(k=task.k)) + ". ")


def _class_counts(task: TaskInfo | None, answers: Mapping[str, Any]) -> str:
    """", 9 to 47 per class": with data, the test set's smallest and largest class of a single-label
    task of three classes or more whose classes are uneven, counted; "" otherwise (weighted counts, one structure or
    raters). Every class's count is in the per-class table."""
    if task is None or task.kind != "multiclass" or task.k < 3 or len(task.class_sizes) != len(task.labels) \
            or answers.get("label_structure") not in (None, "nominal") or answers.get("annotators") \
            or answers.get("symmetric"):
        return ""
    sizes = [(float(c), str(lab)) for c, lab in zip(task.class_sizes, task.labels) if c > 0]
    if len(sizes) < 3 or any(c != int(c) for c, _ in sizes):
        return ""
    (lo, a), (hi, b) = min(sizes, key=lambda x: x[0]), max(sizes, key=lambda x: x[0])
    if lo == hi:
        return ""
    return W.S["class_counts"].format(lo=f"{int(lo):,}", a=a, hi=f"{int(hi):,}", b=b)


def _judge_situation(p: Text, answers: Mapping[str, Any], task: TaskInfo | None, k: Any, items: str | None,
                     context: bool) -> None:
    """"We compare a judge with 2 human raters on 200 answer pairs in 3 categories": with data the counts, before
    data nothing after the author's context (it says who is compared)."""
    h = int(answers["annotators"]) - 1
    humans = "one human rater" if h == 1 else f"{h} human raters"
    if task is not None and k:
        p.t(W.S["task_judge"].format(humans=humans, items=f"{int(task.n):,} {items or 'items'}", k=k) + ". ")
    elif not context:
        p.t(W.S["task_judge_plain"].format(humans=humans) + ". ")


def _purity_pair(answers: Mapping[str, Any]) -> dict[str, str]:
    """What purity and inverse purity add, reported together for a planned purity: one phrase for the pair, the
    author's items for "the items" (the text-clustering readers).

    >>> _purity_pair({"item_name": "article"})["inverse_purity"][:75]
    'as text-clustering studies report them: purity alone rewards splitting the '
    >>> "the articles into more clusters" in _purity_pair({"item_name": "article"})["purity"]
    True
    """
    items = _items(answers)
    phrase = {m: W.ADDS[m].removesuffix(" " + _PAIR_SOURCE) for m in ("purity", "inverse_purity")}  # cited apart
    return {m: p.replace("the items", f"the {items}") if items else p for m, p in phrase.items()}


#: the source the pair's phrase names on the recommendation screen; the paragraph cites it as a reference
_PAIR_SOURCE = "(Amigó et al. 2009)"


def _items(answers: Mapping[str, Any]) -> str | None:
    """The test items in the author's words, plural ("children"), or None when not given."""
    name = answers.get("item_name")
    return plural(str(name)) if name else None


def _external_paragraph(answers: Mapping[str, Any], intervals: IntervalSettings | None, cite: Any) -> Paragraph:
    """Spans and rankings: what to measure and which tool computes it; no catalogue formula applies."""
    spans = answers.get("label_structure") == "spans"
    p = Text()
    context = answers.get("context")
    if context:  # the author's situation opens this paragraph too (issue 22: the NER paragraph dropped it)
        p.t(context if context.rstrip()[-1:] in ".!?" else context.rstrip() + ".").t(" ")
    elif spans:
        types = [str(c) for c in answers.get("classes") or []]
        p.t(W.S["spans_what"].format(types=W.S["spans_types"].format(names=_join_words(types)) if types else ""))
    else:
        p.t(W.S["ranking_what"])
    grades = len(answers.get("classes") or []) or int(answers.get("n_classes") or 0)
    p.t(W.S["spans"] if spans else W.S["ranking"].format(graded=W.S["ranking_graded"] if grades > 2 else ""))
    p.cite([k for k in [cite("Tjong Kim Sang", "2003") if spans else cite("rvelin", "2002")] if k])
    if spans:
        p.t(". ").say(W.S["spans_tool"], code=True).cite([k for k in [cite("Nakayama", "2018")] if k]).t(". ")
    else:
        p.t(". ").say(W.S["ranking_tool"], code=True)  # the packages' names in typewriter
    if intervals is not None:
        p.t(W.S["external_intervals"].format(conf=f"{intervals.confidence:.0%}", method=method_words(intervals),
                                             n=f"{intervals.n_resamples:,}",
                                             # the tagged sequences the data hold, unless the answers name them
                                             # ("sentences" was a premise no answer gave)
                                             unit=_items(answers) or ("sequences" if spans else "queries")))
        # the author's tool draws these resamples: a seed advisor picked would be a number nobody used
        given = intervals.seed is not None and intervals.seed_given
        p.t((W.S["seed"].format(seed=intervals.seed) if given else "") + ".")
    # the field's standing caveat (named-entity recognition: the training seed moves F1 as much as the test sample
    # does; the s22 NER reader), as in the classification paragraph
    caveat = Text()
    _field_caveat_sentence(caveat, answers)
    if caveat.spans:
        p.t(" ")
        p.spans += caveat.spans
    return p.para("Evaluation")


def _annotators(answers: Mapping[str, Any]) -> bool:
    """Three or more annotators compared without a reference (issue 12)."""
    m = answers.get("annotators")
    return m is not None and bool(m) and int(m) > 2


def _ratings_vary(answers: Mapping[str, Any]) -> bool:
    """Whether, before data, the ratings are known to use more than one category: a pair's chance disagreement is 0
    only when both raters put every item in one and the same category, which raters asked to choose among named
    categories (answer A, answer B or a tie) do not do on a test set meant to measure their agreement; with data, the
    case is said where it was met (the LLM-judge reader: "cannot happen with three categories")."""
    return len(answers.get("classes") or []) >= 2


def _structure_sentence(p: Text, answers: Mapping[str, Any], k: Any, items: str | None = None,
                        many: str | None = None, data: str = "") -> bool:
    """Ordered classes, label sets, top-k or several annotators, said as the situation (issue 12)."""
    structure, m, top_k = answers.get("label_structure"), answers.get("annotators"), answers.get("top_k")
    if m and int(m) > 2:
        p.t(W.S["task_annotators" if k else "task_annotators_plain"].format(m=m, k=k, items=items or "items"))
    elif structure == "partition":  # two partitions with arbitrary cluster ids (issue 23, item 3)
        unit = _items(answers) or "items"
        p.t(_task_pattern("task_partition", many).format(n=many, items=items or f"the {unit}", unit=unit))
    elif top_k and k:
        p.t(_task_pattern("task_top_k", many).format(k=k, top_k=top_k, n=many, data=data))
    elif structure in ("ordinal", "multilabel") and k:
        p.t(_task_pattern(f"task_{structure}", many).format(k=k, n=many))
    else:
        return False
    return True


#: Proper scoring rules: with the probabilities used as risks, that use is why one leads (issue 22, the loan reader)
PROPER_RULES = frozenset({"log_loss", "brier", "brier_binary"})


#: The lead each answer of ``costlier_error`` gives (rules_costs.yaml, costlier_error_named), with the error rate
#: set beside it and the system that makes the lead alone perfect
_COSTLIER: dict[tuple[str, str], tuple[str, str]] = {
    ("missed", "recall"): ("specificity", "trivial_all"),
    ("missed", "recall_tn_false"): ("precision", "trivial_all"),
    ("false_alarm", "specificity"): ("recall", "trivial_none"),
    ("false_alarm", "precision"): ("recall", "trivial_one"),
}


def _field_caveat_sentence(p: Text, answers: Mapping[str, Any]) -> None:
    """The standing caveat of the field the answers name on where its test outcomes come from — credit scoring:
    repayment is observed only for past approvals (selective labels; reject inference). Said only for a field that
    has one: never invented for another situation."""
    field = field_of(answers)
    if field is None or not field.caveat:
        return
    items = plural(str(answers["item_name"])) if answers.get("item_name") else "items"
    p.t(field.caveat.format(items=items)).cite(list(field.caveat_sources)).t(". ")


#: The error rates of decisions that lead when the costlier error is named (rules_costs.yaml, costlier_error_named)
_DECISION_RATES = frozenset({"recall", "specificity", "precision"})
#: The calibration figures of binary risks, in the order they are named
_CALIBRATION = ("calibration_intercept", "calibration_slope", "ici")


def _risk_calibration_sentence(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry],
                               primary: MetricEntry | None, short: bool = False) -> set[str]:
    """"The calibration intercept, the calibration slope and the integrated calibration index read the predicted
    probabilities as risks (Van Calster et al. 2019)." — when the risks are used as such but a decision's error
    rate leads (a fixed threshold, the costlier error named): one lead, with what reads the risks said beside it as
    such, not listed among the other figures (the loan reader). Returns the ids said."""
    if not answers.get("risk_estimates") or primary is None or primary.id not in _DECISION_RATES:
        return set()
    by_id = {m.id: m for m in rec if m.role == "complementary"}
    said = [mid for mid in _CALIBRATION if mid in by_id]
    if not {"calibration_intercept", "calibration_slope"} <= set(said):
        return set()
    # ``short``: the last shortening, the same figures without "calibration" said thrice
    names = ("calibration intercept, slope and integrated calibration index" if short and "ici" in said
             else "calibration intercept and slope" if short
             else "the calibration intercept, the calibration slope and the integrated calibration index" if "ici" in said
             else "the calibration intercept and the calibration slope")
    p.t(W.S["risk_calibration_short" if short else "risk_calibration"].format(names=names[:1].upper() + names[1:]))
    p.cite(["vancalster2019calibration"])
    p.t(". ")
    return set(said)


def _costlier_lead(p: Text, answers: Mapping[str, Any], primary: MetricEntry, rec: Sequence[MetricEntry],
                   pos: Any, terse: bool = False) -> str | None:
    """"Because a missed “tuberculosis” is the costlier error, we lead with sensitivity, …": the author named the
    costlier error but no ratio, so that error's rate leads and the other's stands beside it, not merged with it
    (issue 22: the STARD reader read a balanced-accuracy lead as ignoring the stated harm). Returns the id of the
    rate said beside the lead, or None when the answer does not decide the lead (nothing is written)."""
    said = answers.get("costlier_error")
    key = "recall_tn_false" if primary.id == "recall" and answers.get("true_negatives_meaningful") is False \
        else primary.id
    if said not in ("missed", "false_alarm") or (said, key) not in _COSTLIER or pos is None:
        return None
    other_id, trivial = _COSTLIER[(said, key)]
    by_id = {m.id: prose_name(m) for m in rec}
    if other_id not in by_id:
        return None
    items, item = _items(answers) or "test items", str(answers.get("item_name") or "item")
    name = prose_name(primary)
    if said == "missed":
        p.t(W.S["lead_costlier_missed"].format(pos=pos, name=name, items=items))
    else:
        what = W.S["lead_costlier_alarm_tn" if primary.id == "specificity" else "lead_costlier_alarm_precision"]
        neg = next((c for c in answers.get("classes") or () if str(c) != str(pos)), None)
        if primary.id == "specificity" and neg is None:  # the other class unnamed: said as before
            what = "the share of the other {items} cleared"
        p.t(W.S["lead_costlier_alarm"].format(name=name, what=what.format(pos=pos, items=items, neg=neg)))
    other = by_id[other_id]
    p.t(". " + W.S["lead_costlier_other_terse" if terse else "lead_costlier_other"].format(
        other=other[:1].upper() + other[1:] if terse else other, name=name,
        trivial=W.S[trivial].format(pos=pos, item=item, an=article(item))) + ". ")
    return other_id


def _lead_sentences(p: Text, answers: Mapping[str, Any], primary: MetricEntry,
                    property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool,
                    cite: Any, rec: Sequence[MetricEntry] = (), given: Collection[str] | None = None,
                    terse: int = 0, task: TaskInfo | None = None, defined_only: bool = False) -> set[str]:
    """The lead and why; returns the ids of the metrics said beside it here (not to be listed again). ``terse``: how
    far the paragraph must shorten; the fallback lead keeps what the lead is until what the metrics beside it add
    has gone (terse > 2)."""
    pos = primary.params.get("positive_label") or answers.get("positive_class")
    beside = _costlier_lead(p, answers, primary, rec, pos, terse > 0)
    if beside is not None:
        return {beside}
    if primary.id == "wrong_action_rate" and primary.params.get("fallback_class") is not None:
        return _fallback_lead(p, answers, primary, rec, terse)
    if primary.id.startswith("net_benefit@"):  # the risks at which users act were given (decision_thresholds)
        return _net_benefit_lead(p, answers, rec, pos, cite, terse)
    if primary.id == "adjacent_accuracy" and answers.get("tolerated_steps") == 1:  # the author's tolerance argues
        p.t(W.S["lead_tolerated"].format(name=prose_name(primary), items=_items(answers) or "test items"))
        field = field_of(answers)
        if field is None or primary.id not in field.metrics:  # else the field's sentence cites the convention
            p.cite(primary.references[:1])
        p.t(W.S["lead_tolerated_why"] + ". ")
        return set()
    _lead_sentences_by_properties(p, answers, primary, property_status, binary, cite, rec, given, pos, defined_only)
    return _costlier_read(p, answers, primary, rec, pos, terse > 0) | _cost_reference(p, answers, primary, rec, task)


def _best_within_budget(p: Text, rec: Sequence[MetricEntry], said: AbstractSet[str],
                        extra: Sequence[tuple[str, Sequence[str]]], cite: Any, field: Any = None) -> set[str]:
    """"It is the recall of the best threshold within the budget; chosen on the test set, that threshold makes it
    optimistic for a threshold fixed in advance (Tong et al. 2018)." — beside the recall of the deployed threshold,
    the figure of the best threshold the test set allows, said as such with its optimism (issue 22); named here
    unless the field's sentence named it (``said``: the ids it named; "It" when that sentence named it alone, in
    our words). With data, the sentence on the threshold found says both. Returns the ids said."""
    best = next((m for m in rec if m.id == "tpr_at_fpr"), None)
    if best is None:
        return set()
    name = prose_name(best)
    alone = said == {best.id} and not (field is not None and best.id in field.terms)
    subject = "It" if alone or best.id not in said else name[:1].upper() + name[1:]
    notes = [(s, list(k)) for s, k in extra if isinstance(s, BudgetNote) and s != TEST_SET_THRESHOLD]
    if notes:  # with data: the threshold found on the test set, said with how and its optimism
        if best.id not in said:
            p.t(W.S["best_within_budget_beside"].format(name=name) + ". ")
        for sentence, keys in notes:
            p.say(f"{subject} {sentence.predicate}" if isinstance(sentence, BudgetNote) and sentence.predicate
                  else sentence).cite(keys).t(". ")
        return {best.id}
    what = W.S["best_within_budget"]
    if best.id in said:
        p.t(f"{subject} is {what}")
    else:
        p.t(W.S["best_within_budget_beside"].format(name=name) + ", " + what)
    p.cite([k for k in [cite("Tong", "2018")] if k]).t(". ")
    return {best.id}


def _cost_reference(p: Text, answers: Mapping[str, Any], primary: MetricEntry, rec: Sequence[MetricEntry],
                    task: TaskInfo | None) -> set[str]:
    """A raw expected cost leads: its reference point, the cost of each decision that ignores the input at the same
    shares, and the normalized expected cost beside it (the sarcasm reader). Returns the ids said."""
    if primary.id != "expected_cost":
        return set()
    nec = next((m for m in rec if m.id == "normalized_expected_cost"), None)
    sizes = dict(zip(task.labels, task.class_sizes)) if task is not None else None
    text = cost_reference(answers, sizes, _lower_name(nec.name) if nec is not None else None)
    if text is None:
        return set()
    keys = nec.references[:1] if nec is not None else []
    if any(sp.kind == "cite" and set(keys) <= set(sp.keys) for sp in p.spans[-2:]):
        keys = []  # the lead's sentence just cited the same work
    p.t(text).cite(keys).t(". ")
    return {nec.id} if nec is not None else set()


def _net_benefit_lead(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry], pos: Any, cite: Any,
                      terse: int = 0) -> set[str]:
    """"Because the risks of “sepsis” are acted on at the thresholds 0.05, 0.1 and 0.2, we lead with the net benefit
    at each of them: …, set against treating every admission and treating none (Vickers & Elkin 2006; Vickers et al.
    2019). Log loss and Brier score are given as overall scores of the risks, since a proper scoring rule also weighs
    the accuracy of risks at which no one acts." — the author stated the risks at which the probabilities are acted
    on, so what acting there gains leads (the sepsis reader: a log-loss lead ignored the stated 5–20% range). Returns
    the ids said (every threshold's net benefit, and the proper scores named as overall scores)."""
    ts = sorted(float(m.id.split("@", 1)[1]) for m in rec if m.role == "primary" and m.id.startswith("net_benefit@"))
    values = _join_words([f"{t:g}" for t in ts])
    at, each = (f"the thresholds {values}", "each of them") if len(ts) > 1 else (f"the threshold {values}", "it")
    item = str(answers.get("item_name") or "item")
    p.t(W.S["lead_net_benefit"].format(pos=pos, at=at, each=each, item=item))
    p.cite([k for k in (cite("Vickers", "2006"), cite("Vickers", "2019")) if k])
    said = {m.id for m in rec if m.role == "primary"}
    proper = [m for m in rec if m.role == "complementary" and m.id in PROPER_RULES]
    if proper:  # right after the lead, in a sentence of its own: the field's figure comes right after it (issue 22)
        why = "" if terse else W.S["net_benefit_proper_why" if len(proper) > 1 else "net_benefit_proper_why_one"]
        names = _join_words([prose_name(m) for m in proper])
        p.t(". " + W.S["net_benefit_proper"].format(names=names[:1].upper() + names[1:], why=why,
                                                    verb="are" if len(proper) > 1 else "is"))
        said |= {m.id for m in proper}
    p.t(". ")
    return said


def _fallback_lead(p: Text, answers: Mapping[str, Any], primary: MetricEntry, rec: Sequence[MetricEntry],
                   terse: int = 0) -> set[str]:
    """"A prediction of “out-of-scope” takes no action, so we lead with the wrong-action rate, …; beside it we give
    the fallback rate, …": the author named the class whose prediction takes no action (fallback_class), so the
    errors split by what they cost, and the two are not merged without a cost ratio. Returns the ids said.
    ``terse``: what the fallback rate is goes once what the metrics beside them add has gone (> 3), what the lead is
    only after (> 4)."""
    f = primary.params["fallback_class"]
    items = _items(answers) or "test items"
    p.t(W.S["lead_no_action"].format(f=f, name=prose_name(primary)))
    if terse <= 4:
        p.t(W.S["lead_no_action_what"].format(f=f, items=items))
    p.t(". ")
    if _shares_of_test_set(answers):
        _fallback_shares(p, rec, f, items)
    said = {primary.id}
    beside = next((m for m in rec if m.id == "fallback_rate"), None)
    if beside is not None:
        p.t(W.S["fallback_beside"].format(f=f, name=prose_name(beside)))
        if terse <= 3:
            p.t(W.S["fallback_beside_what"].format(f=f, items=items))
        p.t(". " + W.S["fallback_not_merged"] + ". ")
        said.add(beside.id)
    return said


def _beside_moving(answers: Mapping[str, Any], beside: Sequence[MetricEntry],
                   property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool) -> list[str]:
    """The figures beside the lead, accuracy aside, whose value moves with the class shares, when the author did not
    say the test set's shares are those in use (the s26 digits reader: "log loss, Brier score and MCC are computed at
    the test set's shares, while deployment is uniform … say they are test-share figures"), in the field's words as
    its sentence said them."""
    field = field_of(answers)
    terms = field.terms if field is not None else {}
    return [terms.get(m.id) or prose_name(m) for m in beside
            if m.role == "complementary" and m.id != "accuracy" and m.params.get("positive_label") is None
            and _moves_with_shares(answers, m.id, property_status, binary)]


def _beside_shares_sentence(p: Text, moving: Sequence[str], too: bool = False, consequence: str = "") -> None:
    """"Accuracy, F1^PN and macro F1 depend on this test set's class shares": said once for every figure beside the
    lead it applies to ("… on those shares too" after the lead was said to depend on them), with
    ``consequence`` (:func:`_shares_consequence`)."""
    if not moving:
        return
    names = _join_words(list(moving))
    p.t(W.S["beside_shares_too" if too else "beside_shares"].format(
        names=names[:1].upper() + names[1:], verb="depends" if len(moving) == 1 else "depend") + consequence + ". ")


def _shares_consequence(answers: Mapping[str, Any], given: Collection[str] | None = None) -> str:
    """What follows from a figure's dependence on this test set's class shares, from the answer on the shares in use:
    they differ (``shifted``), or nothing says they match (``unknown``); nothing when they are the same or not
    answered (``given``: the keys the author answered; the s36 reader: "'depends on this test set's class shares' …
    never draws the consequence").

    >>> _shares_consequence({"deployment_prevalence": "shifted"}), _shares_consequence({})
    (', which differ from those met in use', '')
    """
    if given is not None and "deployment_prevalence" not in given:  # a default is no answer (issue 22, item 3)
        return ""
    return {"shifted": W.S["shares_differ"], "unknown": W.S["shares_unknown"]}.get(
        str(answers.get("deployment_prevalence")), "")


def _shares_of_test_set(answers: Mapping[str, Any]) -> bool:
    """Whether a lead that depends on the class shares is read at this test set's shares although the author did not
    say they are those met in use (no shares in use given, no mapped shares): then the lead says so, whatever it is,
    not accuracy alone (the intent reader)."""
    return answers.get("deployment_prevalence") != "same" and not answers.get("target_prevalence") \
        and not answers.get("map_shares")


def _fallback_shares(p: Text, rec: Sequence[MetricEntry], f: Any, items: str) -> None:
    """"It depends on the share π of “out-of-scope” utterances in this test set. With m the share of the other
    utterances that trigger a wrong action, 1 − in-scope accuracy − fallback rate, it is (1 − π)·m + …": its two parts,
    an error rate among the other items and one among the fallback class's, are read from reported figures when all
    three are reported for that class (the identity is checked in tests/test_fallback.py)."""
    p.t(W.S["fallback_shares"].format(f=f, items=items) + ". ")
    by_id = {m.id: m for m in rec}
    acc, rate, recall = by_id.get("in_scope_accuracy"), by_id.get("fallback_rate"), by_id.get("recall")
    if acc is None or rate is None or recall is None \
            or str(acc.params.get("positive_label", f)) != str(f) or str(recall.params.get("positive_label")) != str(f):
        return
    p.t(W.S["fallback_parts"].format(acc=prose_name(acc), rate=prose_name(rate), recall=prose_name(recall),
                                     items=items) + ". ")


def _costlier_read(p: Text, answers: Mapping[str, Any], primary: MetricEntry, rec: Sequence[MetricEntry],
                   pos: Any, terse: bool = False) -> set[str]:
    """"The costlier error, a false alarm, is read from specificity: …": the author named the costlier error while
    another lead holds (the risks are used as such), so the decisions' rate of that error is said, not left in a
    list (issue 22, the credit reader: wrongful rejection, the stated harm, was one name among six)."""
    said = answers.get("costlier_error")
    by_id = {m.id: prose_name(m) for m in rec if m.role == "complementary"}
    if said not in ("missed", "false_alarm") or pos is None or not {"recall", "specificity"} <= set(by_id) \
            or primary.id in ("recall", "specificity"):
        return set()
    name, other = (by_id["recall"], by_id["specificity"]) if said == "missed" else (by_id["specificity"], by_id["recall"])
    key = ("costlier_read_missed" if said == "missed" else "costlier_read_alarm") + ("_terse" if terse else "")
    said_ = W.S[key].format(pos=pos, name=name, other=other, items=_items(answers) or "test items")
    p.t(said_[:1].upper() + said_[1:] + ". ")
    return {"recall", "specificity"}


def _lead_sentences_by_properties(p: Text, answers: Mapping[str, Any], primary: MetricEntry,
                                  property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool,
                                  cite: Any, rec: Sequence[MetricEntry], given: Collection[str] | None,
                                  pos: Any, defined_only: bool = False) -> None:
    if answers.get("risk_estimates") and primary.id in PROPER_RULES:  # the author's use of the scores argues first
        risks = W.S["lead_risks_of"].format(pos=pos) if pos is not None else W.S["lead_risks"]
        lead = W.S["lead"].format(name=prose_name(primary))
        p.t(risks + lead[:1].lower() + lead[1:])
        own = primary.references[:1]
    elif field_term_lead_sentence(p, answers, primary):  # the field's name for the lead, with the field's source
        own = []
    else:
        p.t(W.S["lead"].format(name=prose_name(primary)))
        own = primary.references[:1]
    beta = primary.params.get("beta")
    if primary.id == "f_beta" and beta is not None:
        p.t(W.S["beta"].format(beta=beta_text(float(beta))))
    weights = primary.params.get("class_weights") if primary.id in NEEDS_PARAMETERS else None
    props: list[str] = []
    # what the author answered argues first, a default after it: "chance must get a fixed score" was said, "the
    # class shares in use are unknown" may be no more than the questionnaire's default (issue 22)
    relevant = sorted(_RELEVANT, key=lambda r: given is not None and r[0] not in given)
    for key, values, ids in relevant:
        if answers.get(key) in values:
            props += [pid for pid in ids if pid not in props]
    said, keys = [], []
    for pid in props:
        if pid == "class_decomposability" and _binary_only(primary.id):
            continue  # a score of the positive class is no mean of per-class scores
        ok, src = _status(property_status, primary.id, pid, binary)
        if ok and pid in W.PROPERTY:
            zero = pid == "chance_correction" and primary.id in _CHANCE_ZERO and not answers.get("symmetric")
            uniform = pid == "prevalence_invariance" and primary.id == "balanced_accuracy" \
                and _uniform_in_use(answers, task_k=len(answers.get("classes") or []) or answers.get("n_classes"))
            # a constant classifier's MCC is 0/0: left out under the omit convention, so the zero is said of the
            # values that are defined (the reviewer: "expected value 0 … for every classifier" beside "undefined")
            said.append(W.S["chance_zero"] + (W.S["chance_zero_defined"] if defined_only else "") if zero
                        else W.S["lead_uniform"] if uniform else _property_words(pid, answers))
            # the exact zero is Gösgens et al.'s constant baseline (their Table 2), not Opitz's population value
            keys += [_CONSTANT_BASELINE] if zero else src
    if primary.id == "f_beta" and beta is not None:
        said.insert(0, W.LEAD_COSTS)
    if answers.get("class_weighting") == "per_instance" and primary.id in ("accuracy", "micro_f1"):
        said.insert(0, W.LEAD_ITEMS.replace("item", str(answers.get("item_name") or "item")))
    cap = 2 if answers.get("symmetric") or answers.get("distance") else 1
    purpose = W.LEAD.get(primary.id)
    if primary.id in ("normalized_expected_cost", "expected_cost") and not answers.get("target_prevalence"):
        # no shares in use were given: the test set's, and said so — as the shares of use when the author said so
        same = answers.get("deployment_prevalence") == "same"
        purpose = W.S["lead_cost_same_shares" if same else "lead_cost_test_shares"]
        costs = answers.get("error_costs") or {}
        fn, fp = (costs.get("false_negative"), costs.get("false_positive")) if isinstance(costs, Mapping) else (None, None)
        if primary.id == "expected_cost" and fn is not None and fp is not None:  # the sum the reader can redo
            weight = {"fn": f"{float(fn):g}·", "fp": f"{float(fp):g}·"}
            purpose = W.S["lead_cost_mean"].format(
                item=str(answers.get("item_name") or "item"), items=_items(answers) or "test items",
                shares=purpose.split(", ", 1)[1],
                **{k: ("" if v == "1·" else v) for k, v in weight.items()})
            # true negatives not meaningful: the sum 3·FN + FP already gives them nothing, so no sentence says it (the
            # s22 sarcasm reader: "Correct decisions, true negatives among them, cost nothing" is no paper sentence)
    if binary and primary.id == "balanced_accuracy" and pos is not None:
        # in a two-class task it is the mean of the two rates the reader knows, in the field's words
        by_id = {m.id: prose_name(m) for m in rec}
        purpose = W.S["lead_mean_two"].format(recall=by_id.get("recall", "recall"),
                                              specificity=by_id.get("specificity", "specificity"), pos=pos,
                                              items=_items(answers) or "test items")
    if primary.id == "top_k_accuracy":  # said in full: the situation sentence may not have said the cut-off
        item = str(answers.get("item_name") or "item")
        purpose = str(purpose).format(top_k=primary.params.get("top_k") or answers.get("top_k") or "k", item=item,
                                      an=article(item))
    if primary.id == "roc_auc":  # what it is the probability of, in the author's classes and items
        purpose = str(purpose).format(pair=ranked_pair(answers))
    if primary.id == "selective_risk":  # the cut is the test set's (issue 22, the dermatology reader)
        purpose = str(purpose).format(items=_items(answers) or "test items")
    if primary.id == "coverage_at_risk":  # the author's target risk, in the author's items (issue 22, legal routing)
        risk = primary.params.get("target_risk") or answers.get("target_risk")
        purpose = str(purpose).format(items=_items(answers) or "test items",
                                      risk=f"{float(risk) * 100:.3g}%" if risk is not None else "the target risk")
    after = ""  # a clause after the lead's semicolon: a sentence of its own (a reader's sentence stays under 40 words)
    if purpose and not (primary.id == "f_beta" and beta is not None):
        purpose, _, after = str(purpose).partition("; ")
        p.t(W.S["lead_because"] + purpose)
        source = cite(*W.LEAD_CITE[primary.id]) if primary.id in W.LEAD_CITE else None
        if primary.id == "tpr_at_fpr" and answers.get("field") != "fraud_detection":
            source = cite("Tong", "2018")  # a fraud benchmark is no source for a spam filter's or a screen's budget
        keys = [source] if source else own
    elif said:  # the metric's own source at its name, the property's after the property (the CoLA reader:
        # "(Matthews 1975; Opitz 2024)" after the chance property credited Matthews with a property he did not show)
        p.cite(own)
        p.t(W.S["lead_because"] + _join_words(said[:cap]))
    else:
        p.t(W.S["lead_fallback"])
    p.cite(([k for k in keys if k not in primary.references[:1]][:1] if said else own)
           if not purpose else keys)
    p.t(". ")
    if after:
        p.t(after[:1].upper() + after[1:] + ". ")
    if weights:  # the author's weights, after what they do; many are given with the formula (the Definitions)
        p.t(W.S["weights" if len(weights) <= _WEIGHTS_NAMED else "weights_many"].format(
            weights=weights_text(weights), k=len(weights)) + ". ")
    if primary.id in ("normalized_expected_cost", "expected_cost") and (costs := matrix_costs(answers)):
        p.t(costs + ". ")  # "weighs each kind of error by its stated cost": the costs, said (issue 22, the ECG reader)
    if primary.id in ("normalized_expected_cost", "expected_cost") and (nb := net_benefit_reading(answers)):
        p.t(nb)  # the clinical reader's own figure for the same weighing (the s30 retinopathy reader)
        p.cite([k for k in [cite("Vickers", "2006")] if k])
        p.t(". ")


def _uniform_in_use(answers: Mapping[str, Any], task_k: Any = None) -> bool:
    """Whether the answers give the class shares in use as equal (``target_prevalence``, every class the same share,
    every class listed when the classes are known): balanced accuracy is then the accuracy to expect in use.

    >>> _uniform_in_use({"target_prevalence": {"a": 0.5, "b": 0.5}}), _uniform_in_use({"target_prevalence": {"a": .9, "b": .1}})
    (True, False)
    """
    shares = answers.get("target_prevalence")
    if not isinstance(shares, Mapping) or len(shares) < 2 or (task_k and len(shares) != int(task_k)):
        return False
    values = [float(v) for v in shares.values()]
    return max(values) - min(values) <= 1e-9


#: Leads whose expected value is exactly 0 for a classifier independent of the true class (W.S["chance_zero"])
_CHANCE_ZERO = frozenset({"mcc", "cohen_kappa"})
#: Where that exact zero is shown: the constant baseline of MCC and kappa (Gösgens et al. 2021, §3.5 and Table 2)
_CONSTANT_BASELINE = "gosgens2021good"

#: More class weights than this are given with the lead's formula, not in the paragraph (a sentence of 30 weights and
#: 30 class names is no sentence a reader follows)
_WEIGHTS_NAMED = 10


def _lead_on_test_shares(answers: Mapping[str, Any], primary: MetricEntry,
                         property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool) -> bool:
    """Whether the lead's value moves with the class shares (its prevalence invariance does not hold) while the author
    did not say this test set's shares are those met in use: then the lead says so, as accuracy beside it does (the
    intent reader: "only accuracy is flagged for this"); the wrong-action rate says it with its parts. Not for a cost at the test set's shares, whose sentence says
    it, nor for raters' agreement or two labelings compared, which have no shares of use."""
    return primary.id not in ("normalized_expected_cost", "expected_cost") \
        and _moves_with_shares(answers, primary.id, property_status, binary)


def _moves_with_shares(answers: Mapping[str, Any], mid: str,
                       property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool) -> bool:
    """Whether metric ``mid`` is read at this test set's class shares, which the author did not say are those in use,
    and its value moves with them (its prevalence invariance does not hold); never for raters' agreement or two
    labelings compared, which have no shares of use."""
    if not _shares_of_test_set(answers) or answers.get("annotators") or answers.get("symmetric") \
            or answers.get("distance") or answers.get("label_structure") not in (None, "nominal", "ordinal"):
        return False
    status = property_status.get(mid, {}).get("prevalence_invariance", ("", []))[0]
    return bool(status) and status != "not_applicable" \
        and not _status(property_status, mid, "prevalence_invariance", binary)[0]


def _planned_as_sentence(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry],
                         given: Collection[str] | None, beside: Sequence[MetricEntry] = ()) -> dict[str, str]:
    """"The planned micro F1 equals accuracy here, so it is reported under that name": a planned name the catalogue
    reads as a reported metric of another name, with a note of why (issue 22: the product team's micro F1 vanished
    into accuracy without a word). Plain synonyms ("overall accuracy", "AUC") need no sentence. A metric the
    beside-sentence lists is not said twice: its planned name is returned, to go with it there ("accuracy, the
    planned WA, …"; the speech-emotion reader read the two sentences as a repetition)."""
    out: dict[str, str] = {}
    if given is not None and "planned_metrics" not in given:
        return out
    listed_beside = {m.id for m in beside if m.role == "complementary"}
    by_id = {m.id: m for m in rec}
    for name in answers.get("planned_metrics") or ():
        res = resolve_planned(str(name), answers.get("field"))
        m = by_id.get(res.ids[0]) if len(res.ids) == 1 and res.note else None
        if m is None:
            continue
        planned, said = str(name).strip(), prose_name(m)
        if planned.lower() not in said.lower() and said.lower() not in planned.lower():  # "F1" is F1 score
            if m.id in listed_beside:
                out[m.id] = planned
            else:
                p.t(W.S["planned_as"].format(planned=planned, name=said) + ". ")
    return out


#: The fields whose readers weigh a two-class decision by net benefit (Vickers & Elkin 2006): a cost lead is read
#: there as the net benefit it orders systems by
_NET_BENEFIT_FIELDS = frozenset({"clinical_prediction", "diagnostic_accuracy", "medical_imaging",
                                 "heart_murmur_screening"})


def net_benefit_reading(answers: Mapping[str, Any]) -> str | None:
    """The cost lead of a two-class clinical decision read as net benefit: with costs c_FN and c_FP, the expected
    cost of a set of calls is c_FN·(π − NB) with NB their net benefit at the risk threshold p_t = c_FP/(c_FP + c_FN),
    whose odds are the cost ratio — so at the same class shares the two order systems alike (the s30 retinopathy
    reader: "clinical readers know this as net benefit at p_t = 1/21"). None outside those fields or without the two
    costs.

    >>> net_benefit_reading({"task": "binary", "field": "diagnostic_accuracy",
    ...                      "error_costs": {"false_negative": 20, "false_positive": 1}})
    'At these costs it orders systems as the net benefit of their calls at a risk threshold of 1/21 does, at the same class shares'
    """
    costs = answers.get("error_costs") or {}
    if answers.get("task") != "binary" or str(answers.get("field")) not in _NET_BENEFIT_FIELDS \
            or not isinstance(costs, Mapping):
        return None
    fn, fp = costs.get("false_negative"), costs.get("false_positive")
    if not isinstance(fn, (int, float)) or not isinstance(fp, (int, float)) or fn <= 0 or fp <= 0:
        return None
    t = Fraction(fp / (fp + fn)).limit_denominator(1000)
    shown = f"{t.numerator}/{t.denominator}" if abs(float(t) - fp / (fp + fn)) < 1e-12 and t.numerator < 10 \
        else f"{fp / (fp + fn):.3g}"
    return (f"At these costs it orders systems as the net benefit of their calls at a risk threshold of {shown} "
            "does, at the same class shares")


def matrix_costs(answers: Mapping[str, Any], most: int = 6) -> str | None:
    """The answers' cost matrix in words, the costs that differ from the commonest one named by true class and
    decision; None without a matrix and classes, or with more than ``most`` such costs (a table, not a sentence).

    >>> matrix_costs({"classes": ["N", "S", "V"], "error_costs": {"matrix": [[0, 1, 1], [3, 0, 1], [10, 3, 0]]}})
    'The stated costs are 10 for “V” decided as “N”, 3 for “S” decided as “N” and for “V” decided as “S”, and 1 for every other error'
    """
    costs, classes = (answers.get("error_costs") or {}), answers.get("classes")
    matrix = costs.get("matrix") if isinstance(costs, Mapping) else None
    if not matrix or not classes or len(matrix) != len(classes):
        return None
    off = [(float(matrix[i][j]), i, j) for i in range(len(classes)) for j in range(len(classes)) if i != j]
    values = [c for c, _, _ in off]
    base = max(set(values), key=lambda v: (values.count(v), -v))
    other = sorted((t for t in off if t[0] != base), key=lambda t: (-t[0], t[1], t[2]))
    if not other or len(other) > most:
        return None

    def one(i: int, j: int) -> str:
        return f"“{classes[i]}” decided as “{classes[j]}”"

    groups: dict[float, list[str]] = {}
    for c, i, j in other:
        groups.setdefault(c, []).append(one(i, j))
    parts = [f"{c:g} for " + " and for ".join(g) for c, g in groups.items()]
    return "The stated costs are " + ", ".join(parts) + f", and {base:g} for every other error"


def _humans_said(answers: Mapping[str, Any], humans: int | None) -> str:
    """"two pathologists", "3 human raters": the humans in the author's word, counted."""
    word = humans_noun(answers)
    return f"{'two' if humans == 2 else humans} {word}" if humans is not None else word


def _judge_sentences(p: Text, answers: Mapping[str, Any], primary: MetricEntry, cite: Any,
                     intervals: IntervalSettings | None) -> None:
    """The judge against the humans first (what is compared, Δ and what its interval rests on), then the lead as the
    summary of all raters: "Krippendorff's alpha, which …, summarises the agreement of all 3 raters"."""
    m = answers.get("annotators")
    humans = int(m) - 1 if m else None
    # Zheng et al. compare an LLM judge with human experts: cited for an LLM judge, not for a pathology model
    field = answers.get("field") or getattr(suggest_field(str(answers.get("context") or "")), "id", None)
    keys = [k for k in [cite("Zheng", "2023") or JUDGE_SOURCE] if k] if field == "llm_as_judge" else []
    judge_sentences(p, answers, keys, humans, answers.get("label_structure") == "ordinal", intervals is not None,
                    intervals.confidence if intervals is not None else None)
    name = prose_name(primary)
    purpose = (W.LEAD.get(primary.id) or W.S["lead_fallback"].removeprefix(", which ")).replace(
        "{pair}", ranked_pair(answers))
    # with two humans or more alpha is computed without the judge: the humans' baseline (an alpha pooled with the
    # judge answers no question asked); with one human the pair is all there is
    key = ("judge_summary_two_humans" if humans == 2 else
           "judge_summary_humans" if humans is not None and humans > 2 else
           "judge_summary_two" if m is not None and int(m) == 2 else "judge_summary")
    p.t(W.S[key].format(name=name[:1].upper() + name[1:], purpose=purpose, m=m or "the",
                        humans=_humans_said(answers, humans), judge=judge_noun(answers)))
    source = cite(*W.LEAD_CITE[primary.id]) if primary.id in W.LEAD_CITE else None
    p.cite([source] if source else primary.references[:1]).t(". ")


def weights_text(weights: Mapping[str, Any]) -> str:
    """``5, 3 and 1 for “Present”, “Unknown” and “Absent”`` (a ratio when they share a factor is not assumed).

    >>> weights_text({"Present": 5, "Unknown": 3, "Absent": 1})
    '5, 3 and 1 for “Present”, “Unknown” and “Absent”'
    """
    values = _join_words([f"{float(w):g}" for w in weights.values()])
    return f"{values} for " + _join_words([f"“{c}”" for c in weights])


def _beside_sentence(p: Text, rec: Sequence[MetricEntry], multiclass: bool = False, terse: int = 0,
                     start: str = "", data_adds: Mapping[str, str] | None = None,
                     planned_as: Mapping[str, str] | None = None) -> None:
    comp = net_benefits_once([m for m in rec if m.role == "complementary"])
    if not comp:
        return
    groups: dict[str, list[MetricEntry]] = {}
    for m in comp:
        if multiclass and m.params.get("positive_label") is not None:  # a class of interest among several
            phrase = W.S["of_interest"].format(pos=m.params["positive_label"])
        else:
            planned = (m.reason or "").startswith("you planned")  # "as planned" only of what the author planned
            phrase = (data_adds or {})[m.id] if m.id in (data_adds or {}) else W.VARIANT_BESIDE.get(m.id) or W.ADDS.get(
                m.id.split("@", 1)[0], W.S["adds_fallback"] if planned else "")
            if m.id in (planned_as or {}):  # the author's name for it, with it (not a sentence of its own)
                named_as = W.S["planned_as_beside"].format(planned=(planned_as or {})[m.id])
                phrase = named_as + (", " + phrase if phrase and phrase != W.S["adds_fallback"] else "")
        groups.setdefault(phrase, []).append(m)
    said: list[tuple[list[str], str]] = []
    for adds, ms in groups.items():
        if len(ms) == 1 and f"{ms[0].id}_alone" in W.ADDS and not (multiclass and ms[0].params.get("positive_label")) \
                and ms[0].id not in (data_adds or {}):  # what the situation says of it stands
            adds = W.ADDS[f"{ms[0].id}_alone"]
        names = [prose_name(m) for m in ms]
        if multiclass and ms[0].params.get("positive_label") is not None:
            names[-1] += f" of “{ms[0].params['positive_label']}”"
        said.append((names, adds))
    if terse:  # groups lose what they add until the paragraph fits: the familiar metrics first, then from the end
        first = [i for i, (ns, _) in enumerate(said) if set(ns) & set(W.TERSE_FIRST)]
        last = [i for i, ms in enumerate(groups.values()) if {m.id for m in ms} & W.TERSE_LAST]  # a caveat goes last
        order = first + [i for i in reversed(range(len(said))) if i not in first and i not in last] + \
            [i for i in last if i not in first]
        bare = set(order[:terse])
        said = [(ns, "" if i in bare else adds) for i, (ns, adds) in enumerate(said)]
    parts = [_shared_tail(ns) + (W.S["which"] + adds if adds else "") for ns, adds in said]
    if not any(adds for _, adds in said):  # nothing added: a plain list of names, never "…; and purity and inverse
        # purity"; a group is kept for a shared ending ("geometric and harmonic means of recalls") or a shared class
        # ("precision and F1 score of “out-of-scope”", whose class both names read)
        parts = [n for (ns, _), ms in zip(said, groups.values())
                 for n in ([_shared_tail(ns)] if _shared_tail(ns) != _join_words(ns)
                           or (multiclass and ms[0].params.get("positive_label") is not None) else ns)]
    # the phrase each metric is said with (a situation's own, or the common one), which its source follows
    used = {m.id: adds for (_, adds), ms in zip(said, groups.values()) for m in ms if adds}
    # every metric keeps what it adds; a list too long for one sentence goes on in a second, a third …, no two
    # sentences in a row opening alike
    start = start or W.S["beside"]
    more = [W.S["beside_more"], *(o for o in (W.S["beside_after_field"], W.S["beside"]) if o != start)]
    for i in range(len(parts)):
        if not parts:
            break
        opening = start if i == 0 else more[(i - 1) % len(more)]
        cut = len(parts)
        while cut > 1 and len(_WORD.findall(_listed(opening, parts[:cut]))) + _CITE_WORDS * sum(
                phrase in part for part in parts[:cut] for phrase in
                dict.fromkeys(used[mid] for mid in W.ADDS_CITE if mid in used)) > _LIST_WORDS:
            cut -= 1
        _cited_list(p, _listed(opening, parts[:cut]), [m for ms in groups.values() for m in ms], used)
        parts = parts[cut:]


def _cited_list(p: Text, sentence: str, metrics: Sequence[MetricEntry], used: Mapping[str, str] | None = None) -> None:
    """The sentence of metrics beside the lead, each phrase of :data:`W.ADDS_CITE` followed by its source (``used``:
    the phrase each metric was said with, when not its common one); a phrase two metrics share is cited once."""
    phrases = {m.id: (used or {}).get(m.id, W.ADDS.get(m.id, "")) for m in metrics}
    cites = list(dict.fromkeys((phrases[m.id], W.ADDS_CITE[m.id]) for m in metrics
                               if m.id in W.ADDS_CITE and phrases[m.id]))
    for phrase, key in cites:
        at = sentence.find(phrase)
        if at < 0:
            continue
        end = at + len(phrase)
        p.t(sentence[:end]).cite([key])
        sentence = sentence[end:]
    p.t(sentence)


def _opened_beside(p: Text) -> bool:
    """Whether a sentence of the paragraph so far opens with "Beside"."""
    return bool(re.search(r"(?:^|[.;] )Beside ", p.text()))


#: The longest list of metrics beside the lead said in one sentence (a reader's sentence stays under 40 words)
_LIST_WORDS = 38
#: The words a citation after a phrase of :data:`W.ADDS_CITE` adds to its sentence ("Gösgens et al. 2021")
_CITE_WORDS = 4


def _planned_name(answers: Mapping[str, Any], mid: str) -> str | None:
    """The author's name for a planned metric (“NMI” for normalized mutual information), or None."""
    for name in answers.get("planned_metrics") or []:
        try:
            if mid in resolve_metric(str(name)).ids:
                return str(name)
        except UnknownMetricError:
            continue
    return None


def _planned_ids(answers: Mapping[str, Any], reported: AbstractSet[str] = frozenset()) -> set[str]:
    """Every metric id the planned metric names can mean ("macro F1": both of its formulas) — except an
    ambiguous name one of whose readings is reported: the variant note names that formula (issue 11)."""
    ids: set[str] = set()
    for name in answers.get("planned_metrics") or []:
        try:
            readings = set(resolve_metric(str(name)).ids)
        except UnknownMetricError:
            continue
        if not (len(readings) > 1 and readings & reported):
            ids.update(readings)
    return ids


def _avoided_notes(answers: Mapping[str, Any], recommendation: Mapping[str, Any],
                   property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]], binary: bool,
                   given: Collection[str] | None, reported: AbstractSet[str] = frozenset()) -> list[str]:
    """"The planned “purity” is not reported: it reaches its best value when every article is a cluster of its own,
    …": each planned metric advised against, in the words of the note paragraph, for when the methods paragraph has
    no room for its clause (a reason in words only; "fits this setting less well" says nothing); a name one of whose
    readings is reported is not "not reported"."""
    said = answers if given is None else {k: v for k, v in answers.items() if k in given}
    against = {str(_get(d, "metric")) for d in recommendation.get("discouraged") or []}
    out = []
    for name in answers.get("planned_metrics") or []:
        readings = resolve_planned(str(name), answers.get("field")).ids
        if set(readings) & set(reported):  # "macro F1" reported as the mean of the F1s: its other formula is no note
            continue
        ids = [i for i in readings if i in against]
        reasons = [r for r in (avoid_reason(i, said, _holds(property_status, binary)) for i in ids) if r != "other"]
        if reasons:
            words = _agree(W.AVOID[reasons[0]], 1)
            if reasons[0] in ("over_splitting", "weighs_classes"):  # "when every article is a cluster of its own"
                words = words.replace("every item", "every " + str(answers.get("item_name") or "item"))
            out.append(f"The planned “{name}” is not reported: it {words}."
                       + (" " + W.S["purity_pair"] if "purity" in ids else ""))
    return out


def _read_from_lead(answers: Mapping[str, Any], recommendation: Mapping[str, Any],
                    given: Collection[str] | None) -> bool:
    """Whether the author planned accuracy and the lead is the selective risk, whose complement among the items answered
    it is: the planned accuracy is then reported as the lead, never set aside (the s37 derm reader)."""
    planned = "accuracy" in _planned_ids(answers) and (given is None or "planned_metrics" in given)
    return planned and _accuracy_from_lead(recommendation, recommendation.get("discouraged") or [])


def _accuracy_from_lead(recommendation: Mapping[str, Any], disc: Sequence[Any]) -> bool:
    """Whether the lead is the selective risk and accuracy is among ``disc``: among the items answered accuracy is
    one minus the lead, so it is read from the lead, never set aside."""
    lead = str(_get(recommendation.get("primary") or {}, "metric"))
    return lead in ("selective_risk", "risk_at_frozen_coverage") and any(
        str(_get(item, "metric")) == "accuracy" for item in disc)


def _avoid_sentence(p: Text, answers: Mapping[str, Any], recommendation: Mapping[str, Any],
                    names: Mapping[str, str], property_status: Mapping[str, Mapping[str, tuple[str, list[str]]]],
                    binary: bool, given: Collection[str] | None = None) -> None:
    """"We do not report X, because …" ("We do not rely on X" where X is reported): the metrics the author planned, else those whose reason is something
    the answers say (``given``: the keys the author answered; a default is no premise, issue 22) — never "macro
    F1 depends on how often each class occurs" in a situation that said nothing about class shares."""
    disc = recommendation.get("discouraged") or []
    planned = _planned_ids(answers, {str(_get(c, "metric")) for c in recommendation.get("complementary") or []})
    # the reader's own candidates when the author planned some (the justification names the rest)
    mine = [d for d in disc if str(_get(d, "metric")) in planned]
    if not mine and any(str(_get(d, "metric")) in _planned_ids(answers) for d in disc):
        return  # the reader's candidate is reported beside the lead, its formula named (issue 11)
    if not mine and answers.get("planned_metrics") and (given is None or "planned_metrics" in given):
        return  # the author named candidates and none is set aside: another metric's flaw is not their question
    disc = mine or disc
    if not disc:
        return
    # the reason in words every time ("changes when a class becomes more or less frequent"), never "lacks this
    # property": sentences stand between the lead's property and this one, and reviewers read the back-reference
    # as pointing at nothing (issue 22)
    said = answers if given is None else {k: v for k, v in answers.items() if k in given}
    # what the report computes: a metric set aside and not computed is said as not reported ("We do not rely on
    # accuracy" read as if it were reported but discounted; the s34 reader: "say 'X is not reported because …'")
    reported = {str(_get(recommendation.get("primary") or {}, "metric"))} | {
        str(_get(c, "metric")) for c in recommendation.get("complementary") or []}
    unreported = all(str(_get(item, "metric")) not in reported for item in disc)
    groups: dict[str, list[str]] = {}
    # a planned accuracy beside a selective lead: the lead is its complement among the items answered, so it is read
    # from the lead, never set aside for letting the large classes decide, which the lead does as much (the s37 derm
    # reader: "the text contradicts itself on accuracy")
    read_from_lead = _accuracy_from_lead(recommendation, disc)
    for item in disc:
        mid = str(_get(item, "metric"))
        if read_from_lead and mid == "accuracy":
            continue
        name = _lower_name(str(_get(item, "name") or names.get(mid, mid.replace("_", " "))))
        reason = avoid_reason(mid, said, _holds(property_status, binary))
        if reason == "answers_every_item" and reported - set(SELECTIVE_IDS) - {"None"} \
                and _holds(property_status, binary)(mid, "class_sensitivity") is False:
            # a figure at full coverage is reported beside the selective lead (ISIC's balanced accuracy): "it scores
            # every item" would hold for it too, so the reason is the one that sets them apart (the s34 reader)
            reason = "class_sensitivity"
        if reason != "other":  # "fits this setting less well" says nothing, of a metric named or not (issue 22)
            groups.setdefault(reason, []).append(name)
    if not groups:  # a planned accuracy read from the lead is said beside the planned metrics (_read_from_lead)
        return
    parts = []
    for reason, ms in groups.items():
        n = len(ms)  # the two forms of macro F1 stay plural (they)
        if "macro F1" in ms and "F1 of macro precision and macro recall" in ms:
            # both forms named, not "either variant", which referred to variants never introduced (the legal reader)
            ms = [W.S["avoid_macro_f1_both"], *[m for m in ms if "macro F1" not in m and "F1 of macro" not in m]]
        words = _agree(W.AVOID[reason], n)
        if reason in ("over_splitting", "weighs_classes"):  # "when every article is a cluster of its own"
            words = words.replace("every item", "every " + str(answers.get("item_name") or "item"))
        they = "it" if n == 1 else "they"
        parts.append(_join_words(ms, "or") + W.S["avoid_because"].format(they=they) + words)
    # one sentence per reason: with every reason said in words, "…; nor with …" runs past 40 words
    first, more = (W.S["avoid_unreported"], W.S["avoid_more_unreported"]) if unreported else (W.S["avoid"],
                                                                                              W.S["avoid_more"])
    p.t(first + parts[0] + ". " + "".join(more + part + ". " for part in parts[1:]))


#: Symbols the notation before the formulas defines whenever a formula uses them; a formula's own "where" clause
#: never repeats them (one symbol, one definition in a Definitions block; issue 22).
SHARED_NOTATION = frozenset({"n", "y_t", "p_t", "C_{ij}",
                             "W_j"})  # the stratified design's opening sentence defines the mapped-area shares
_USES_N = re.compile(r"(?<![A-Za-z\\])n(?![a-z_{'])")
_USES_K = re.compile(r"(?<![A-Za-z\\])k(?![a-z_{'])")
_BINARY_P = re.compile(r"(?<![A-Za-z])p_[tu](?![A-Za-z{])")  # p_t, p_u; not fp_t (a count)


def _without_own_symbols(m: MetricEntry) -> str:
    """``m``'s formula without the decorated symbols (a sub- or superscript: ``n^+_l``, ``n_+``) its own ``symbols``
    define, which the shared notation's bare letters must not be read in.

    >>> own = {"n^+_l": "the items that have label l", "n^-_l": "the items that lack it", "l": "a label"}
    >>> _without_own_symbols(MetricEntry(id="x", name="x", formula="1/(n^+_l n^-_l)", symbols=own))
    '1/(   )'
    >>> _without_own_symbols(MetricEntry(id="x", name="x", formula="(n^2-S)/n^+_l", symbols=own))
    '(n^2-S)/ '
    """
    text = m.formula
    for key in sorted(m.symbols or {}, key=len, reverse=True):
        if re.search(r"[_^]", key):
            text = text.replace(key, " ")
    return text


def _notation_sentence(p: Text, rec: Sequence[MetricEntry], task: TaskInfo | None,
                       answers: Mapping[str, Any]) -> None:
    """The symbols the formulas share, each defined once before them: the confusion matrix and its sizes, the
    probabilities (``p_{tj}`` and the true class ``y_t`` among several classes; ``p_t`` and ``y_t`` = 1 or 0 in a
    two-class task), the counts of the positive class, and ``n``, ``k`` wherever a formula uses them."""
    formulas = " ".join(m.formula for m in rec)
    matrix = bool(re.search(r"C_|a_|b_", formulas))
    counts = bool(re.search(r"\b(TP|FP|FN|TN)\b", formulas))
    probs = "p_{t" in formulas
    binary_probs = bool(_BINARY_P.search(formulas))
    outcome = not probs and bool(re.search(r"y_[tu]", formulas))  # y_t = 1 or 0 (a two-class formula)
    top_k = "g_t" in formulas
    # n and k as the shared notation defines them: a symbol a formula's own "where" defines (n^+_l, the items that
    # have label l) is another symbol, and "n counts the radiographs" said for it defines nothing a formula uses
    bare = " ".join(_without_own_symbols(m) for m in rec)
    uses_n, uses_k = bool(_USES_N.search(bare)), bool(_USES_K.search(bare))
    if not rec or not (matrix or counts or probs or binary_probs or outcome or top_k or uses_n):
        return
    pos = (task.positive_label if task is not None else None) or answers.get("positive_class")
    # k counts the classes, said only where a formula uses it; top-k accuracy's cut-off is r (issue 22: one symbol,
    # one meaning; K beside k still read as one letter)
    said = []
    size = W.S["notation_n_k"] if uses_n and uses_k else \
        W.S["notation_n"].format(items=_items(answers) or "items") if uses_n else W.S["notation_k"] if uses_k else ""
    if matrix and answers.get("label_structure") == "partition":  # a contingency table of clusters, not of classes
        said.append(W.S["notation_partition"])
        size = ""
    elif matrix:
        # only the sizes a formula uses: a_i defined for top-1 accuracy's Σ C_ii / n said nothing (issue 22)
        if answers.get("symmetric"):  # two labelings, neither the reference: no true class
            text = W.S["notation_matrix_symmetric" if "b_" in formulas else "notation_matrix_a_symmetric"
                       if "a_" in formulas else "notation_matrix_c_symmetric"]
        else:
            text = W.S["notation_matrix" if "b_" in formulas else "notation_matrix_a" if "a_" in formulas
                       else "notation_matrix_c"]
        said.append(text + (", " + size if size else ""))
        size = ""
    if probs:
        said.append(W.S["notation_probs"] + (W.S["notation_probs_n_k"].format(size=size) if size else ""))
        size = ""
    elif binary_probs or outcome:
        named = W.S["notation_pos"].format(pos=pos) if pos is not None else W.S["notation_pos_plain"]
        text = W.S["notation_outcome"].format(pos=named)
        if binary_probs:
            text += W.S["notation_binary_probs"].format(pos=named)
        said.append(text + (W.S["notation_probs_n_k"].format(size=size) if size else ""))
        size = ""
    if top_k:
        said.append(W.S["notation_top_k"])
    if size:  # no matrix and no probabilities: n (and k) alone, as the multi-label formulas use them
        said.append(size)
    if counts:
        # with no positive class, the class each count is of is the one its formula names (the s45 shared-task reader:
        # "a dangling definition")
        said.append(W.S["notation_binary"] + (W.S["notation_binary_pos"].format(pos=pos) if pos is not None
                                              else W.S["notation_binary_each"]))
    for i, sentence in enumerate(said):
        p.t(W.S["definitions"] if i == 0 else "").say(sentence[:1].upper() + sentence[1:] if i else sentence)
        p.t(". " if i < len(said) - 1 else ".")




def with_convention(where: Paragraph | None, sentence: str, keys: Sequence[str]) -> Paragraph:
    """The text after a formula with one more sentence on how it is computed ("… The expected calibration error
    uses 15 equal-mass bins of the top-label confidence (Guo et al. 2017)"); the renderer ends it with a period."""
    p = Text()
    p.spans = list(where.spans) if where is not None else []
    if p.spans:
        p.t(". ")
    p.say(sentence).cite(keys)
    return p.para()


def _partition_sentence(p: Text, rec: Sequence[MetricEntry], cite: Any) -> None:
    """Which adjusted Rand index and which adjusted mutual information (its normalisation varies), with their
    sources (issue 23, item 3)."""
    ids = {m.id for m in rec}
    both = {"adjusted_mutual_info", "normalized_mutual_info"} <= ids  # one normalisation, said once for the two
    parts = [(W.S["partition_mutual_info_both"] if both and m == "adjusted_mutual_info" else W.S[f"partition_{m}"],
              [k for k in [cite(*src) for src in W.PARTITION_CITE[m]] if k])
             for m in ("adjusted_rand_index", "adjusted_mutual_info", "normalized_mutual_info")
             if m in ids and not (both and m == "normalized_mutual_info")]
    for i, (text, keys) in enumerate(parts):  # a sentence each: with both sources of the normalisation one ran past 40
        p.t(". " if i else "").say(text[:1].upper() + text[1:]).cite(keys)  # $I$: a symbol of AMI's formula
    if parts:
        p.t(". ")


#: Metrics whose formula leaves an absent class out of its average (macro MAE's k'): no zero-denominator value is
#: set for them, so they are never the example of the convention (issue 22: "gives 0" was false for macro MAE).
_LEAVES_OUT = frozenset({"mae_macro", "multilabel_samples_f1"})


def _unit(answers: Mapping[str, Any]) -> str:
    """What a macro mean runs over: ``label`` for label sets, else ``class``."""
    return "label" if answers.get("label_structure") == "multilabel" else "class"


def _empty_items(rec: Sequence[MetricEntry]) -> bool:
    """Whether sample-averaged F1 is reported: an item with no true and no predicted label scores 1 there whatever
    the zero-denominator convention (it is predicted exactly, as subset accuracy counts it), said with the
    convention so that "gives 0" is never read as covering it (issue 22)."""
    return any(m.id == "multilabel_samples_f1" for m in rec)


def _undefined_example(rec: Sequence[MetricEntry], task: TaskInfo | None, answers: Mapping[str, Any],
                       intervals: IntervalSettings | None = None,
                       met: Collection[str] = ()) -> tuple[str, bool, str | None, str] | None:
    """``recall when no child is “Present”``: the first reported metric that can meet a zero denominator, with
    the case that makes it one (found by computing it, :func:`advisor.engine.undefined_case`), whether the
    undefined value is the whole figure (a rate of one class of a binary task, MCC of a constant labeling) rather
    than one class's or label's term of a mean, and, for a term of a mean, what the mean leaves out ("balanced
    accuracy leaves out of its mean a class absent from the images"), and the metric's name alone; None when no
    reported metric can, so the convention is not stated for nothing (issue 22). ``intervals``: where they are the
    jackknife's over units, what a mean leaves out is said of a unit left out, not of a resample. ``met``: with data,
    the metrics that had an undefined value, tried first, so the example is a case the data met."""
    for m in sorted(rec, key=lambda m: m.id not in met):
        found = _undefined_of(m, task, answers, intervals)
        if found is not None:
            return (*found[:3], found[4])
    return None


def mean_conventions(rec: Sequence[MetricEntry], task: TaskInfo | None, answers: Mapping[str, Any],
                     convention: str, intervals: IntervalSettings | None = None) -> dict[str, str]:
    """Under ``omit``, for each reported mean whose formula divides by $k$ (or $L$) alone: the sentence, said after
    its formula, that the symbol counts only the classes kept ("$k$ counts only the classes present among the
    children, in the test set and in each resample"), so the formula's symbol is defined as the engine computes it
    (the s20 readers: said once in the notation it read as a software note, apart from the formula it changes).
    With ``intervals``, a class of the truth is said to be missing only where it can be: from the test set (with data,
    where a class is), from a resample only where the resamples do not keep every class (groups drawn whole, with
    how often one lacked a class); a resample that lacks one is drawn again otherwise (advisor/stats/_draws.py)."""
    if convention != "omit" or answers.get("label_structure") == "partition" or _annotators(answers):
        return {}
    out: dict[str, str] = {}
    redrawn = _redrawn_sentence(intervals)
    said: set[str] = set()
    for m in rec:
        found = _undefined_of(m, task, answers, intervals)
        if found is None:
            continue
        line = found[3] if found[3] and found[3] not in said else None  # the same number is said once
        if line:
            said.add(line)
        if redrawn and (not found[3] or _RULE not in found[3]) and (_undefined_of(m, task, answers) or ("",) * 4)[3]:
            # its k is every class because resamples were drawn again: how often, said once, after the number
            line, redrawn = (line + ". " if line else "") + redrawn, None
        if line:
            out[m.id] = line
    return out


#: What a line says when its symbol is a rule, not a number ("$k$ counts only the classes …"): the count of the
#: resamples drawn again follows a number, never a rule that a class only predicted can still change.
_RULE = W.S["undefined_omit_counts_bullet"].split("$")[2].split("{")[0]


def _redrawn_sentence(intervals: IntervalSettings | None) -> str | None:
    """With data, how many resamples lacked a class of the test set and were drawn again (the shared-task reader:
    "state how often this happens"); None where none did, a resample then being the plain bootstrap's."""
    lacked = intervals.redrawn if intervals is not None and intervals.classes == "kept" else {}
    if not lacked or intervals is None or intervals.group_column:
        return None
    labels = sorted(lacked, key=lambda c: -lacked[c])
    count = sum(lacked.values())  # one class: its count; several: each class's count, no total
    n = f"{intervals.n_resamples:,}"
    phrase = (f"{count:,} of the {n} resamples" if count > 1 else f"one of the {n} resamples") if len(labels) == 1 \
        else f"resamples, {_join_words([f'{lacked[c]:,}' for c in labels[:3]])} of the {n},"
    which = _labels_said(labels, "or") if len(labels) <= 3 else "a class"
    return W.S["classes_redrawn"].format(count=phrase, which=which.replace("classes ", "class "),
                                         verb="was" if count == 1 and len(labels) == 1 else "were")


def _labels_said(labels: Sequence[str], joint: str = "and") -> str:
    """'class “9”', 'classes “8” and “9”'."""
    quoted = [f"“{x}”" for x in labels]
    return ("class " if len(quoted) == 1 else "classes ") + (
        quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + f" {joint} " + quoted[-1])


def _counts_bullet(case: str, symbol: str, kept: str, task: TaskInfo | None,
                   intervals: IntervalSettings | None, declared: bool = False, count: int | None = None,
                   flat: bool = True) -> str | None:
    """The line after a mean's formula that says which classes its ``symbol`` counts (see :func:`mean_conventions`);
    None where nothing need be said. ``declared``: before data, the answers name the classes (or labels), each
    expected in the test set (the report says where one is not). ``count``: the number of classes the mean runs
    over when it is known (:func:`_fixed_count`). Where the resamples (or the jackknife's replicates) keep every one
    of them, the symbol is that number in the estimate and in each of them, and the line says the number, not a rule
    (the blind readers of ten fields: "fix the class set in advance, k = 4, L = 5, k = 30; where nothing can be
    missing, the clause is dead text"). Before data, how the number is kept (a resample that lacks a class drawn
    again, a unit that alone holds one) is not said: it may never be needed, and the report says it with data where it
    was, with how often (the s41 readers of 14 fields: "say how many, rather than design for it"). ``flat``: a flat
    label structure, whose resamples are the confusion matrix's; before data the others' are planned free (their resamplers draw the items as they come: the ordinal table's, the
    hierarchy's), whatever the plan's default says."""
    full = W.S["undefined_omit_counts_bullet"].format(symbol=symbol, kept=kept)
    number = f"{count:,}" if count else None
    fixed = W.S["classes_fixed"].format(symbol=symbol, count=number) if number else None
    if task is None and declared and fixed and case.removeprefix("label_") in ("absent", "absent_both"):
        return fixed  # before data, the number the answers name; with data, where a class or label was missing
    if intervals is None or case not in ("absent", "absent_both"):  # predicted classes vary in any resample
        return full
    design = intervals.classes if flat or task is not None else "free"
    absent_in_test = task is not None and any(s <= 0 for s in task.class_sizes)
    one = jackknife_unit(intervals)
    if one is not None:  # the jackknife's intervals: a class is lost only with the one unit that holds it
        if task is None:  # before data: the number the answers give; with data, a unit that alone held a class
            return W.S["undefined_omit_counts_one_out"].format(symbol=symbol, kept=kept, one=one)
        lone = intervals.one_group_classes
        if lone:
            return W.S["classes_fixed_one_group"].format(symbol=symbol, count=number, one=one,
                                                         which=_labels_said(lone[:3])) if number else \
                W.S["undefined_omit_counts_one_out"].format(symbol=symbol, kept=kept, one=one) + \
                W.S["classes_one_group"].format(one=one, which=_labels_said(lone[:3]))
        if not absent_in_test:
            return fixed  # every class is in the test set and in every unit's absence: k is the number of classes
        if case == "absent" and number:
            return W.S["classes_fixed_present"].format(symbol=symbol, count=number, kept=kept)
        return W.S["undefined_omit_counts_test"].format(symbol=symbol, kept=kept)
    if intervals.n_resamples > 0 and design not in ("kept", "fixed"):  # groups drawn whole, or plain
        lacking = intervals.absent_classes
        if not lacking:  # (not counted by every resampler: an empty count is no evidence that none lacked one)
            return full
        labels = sorted(lacking, key=lambda c: -lacking[c])[:3]
        return full + W.S["classes_absent"].format(
            which=_labels_said(labels), verb="was" if len(labels) == 1 else "were",
            counts=_join_words([f"{lacking[c]:,}" for c in labels]), n=f"{intervals.n_resamples:,}")
    if task is None:  # before data: the classes the answers name, each expected in the test set, kept in each resample
        if case == "absent_both":  # a class only predicted can still be missing from a resample
            return full
        return W.S["undefined_omit_counts_test"].format(symbol=symbol, kept=kept)
    if not absent_in_test:
        return fixed  # every class is in the test set and in each resample: k is the number of classes
    if case == "absent_both":  # a class only predicted can still be missing from a resample
        return full
    if number:  # the classes present in the test set, each kept in every resample
        return W.S["classes_fixed_present"].format(symbol=symbol, count=number, kept=kept)
    return W.S["undefined_omit_counts_test"].format(symbol=symbol, kept=kept)


def _fixed_count(case: str, task: TaskInfo | None, answers: Mapping[str, Any], declared: bool) -> int | None:
    """The number of classes a mean over classes runs over, where it is known: with data, the classes present in the
    test set (every class of the table when a class absent from the truth may still be predicted, ``absent_both``,
    and none is absent); before data, the classes the answers name; None otherwise.

    >>> _fixed_count("absent", None, {"n_classes": 30}, True), _fixed_count("absent", None, {}, False)
    (30, None)
    """
    if task is not None:
        present = sum(1 for s in task.class_sizes if s > 0)
        if case == "absent":
            return present or None
        return task.k if case == "absent_both" and present == task.k else None
    if not declared:
        return None
    return int(answers.get("n_classes") or len(answers.get("classes") or [])) or None


#: The cases in which a class of a two-class truth is absent: the figure's own class size is then 0.
_ABSENT = ("absent", "absent_negative")


def _classes_held(task: TaskInfo | None, answers: Mapping[str, Any], intervals: IntervalSettings | None) -> bool:
    """Whether, before data, neither class of a two-class truth can be missing where a figure is computed: a test set
    that estimates the rate of each class holds both (a diagnostic accuracy study has participants with and without
    the condition), and a resample that lacks one is drawn again unless groups are drawn whole. Then "sensitivity
    when no participant is “tuberculosis”" describes no case the study can meet (the TB reader: "cannot happen in a
    consecutive-enrolment accuracy study"); with data, what was met is said instead.

    >>> _classes_held(None, {"task": "binary"}, None), _classes_held(None, {"task": "binary", "group": "site"}, None)
    (True, False)
    """
    if task is not None:
        return False
    if intervals is not None:
        return intervals.classes in ("kept", "fixed") and not intervals.group_column
    return not answers.get("group")


def _undefined_of(m: MetricEntry, task: TaskInfo | None, answers: Mapping[str, Any],
                  intervals: IntervalSettings | None = None) -> tuple[str, bool, str | None, str | None, str] | None:
    """What :func:`_undefined_example` says of one metric, the sentence for its formula (``mean_conventions``) and
    the metric's name in running text."""
    k = task.k if task is not None else int(answers.get("n_classes") or len(answers.get("classes") or []) or 3)
    binary = (task.kind == "binary") if task is not None else answers.get("task") == "binary"
    item = answers.get("item_name") or "item"
    if m.id in _LEAVES_OUT:  # its formula averages over the classes present: the convention sets nothing there
        return None
    pos = m.params.get("positive_label")
    pos = pos if pos is not None else (task.positive_label if task is not None and binary else None)
    one = pos is not None and binary or m.params.get("positive_label") is not None
    case = undefined_case(m.id, max(int(k or 3), 2), positive=one)
    if case is None or (case in _ABSENT and binary and _classes_held(task, answers, intervals)) \
            or (case == "constant" and task is None and _annotators(answers) and _ratings_vary(answers)):
        return None
    if answers.get("label_structure") == "multilabel" and f"label_{case}" in W.UNDEFINED_CASE:
        phrase = W.UNDEFINED_CASE[f"label_{case}"]
    elif pos is not None and f"{case}_pos" in W.UNDEFINED_CASE or case.endswith("_negative"):
        phrase = W.UNDEFINED_CASE.get(case if case.endswith("_negative") else f"{case}_pos", "")
    else:
        phrase = W.UNDEFINED_CASE.get(case, "")
    if not phrase:
        return None
    # the engine says whether the figure itself is undefined or a mean leaves a term out (not a hand list: MCC
    # and one class's recall were said to leave a class out of a mean, the CoLA and intent readers)
    whole = undefined_whole(m.id, max(int(k or 3), 2), positive=one)
    items = _items(answers) or "test items"
    which = f"label_{case}" if answers.get("label_structure") == "multilabel" else case
    left, kept = W.UNDEFINED_LEFT_OUT.get(which), W.UNDEFINED_KEPT.get(which)
    # the symbol its formula divides by then counts the classes kept (the readers: "1/k contradicts the rule")
    # only where that symbol is the mean's alone (adjusted balanced accuracy's chance term keeps all k classes)
    size = next((s for s in ("k", "L") if m.formula.count(f"\\frac{{1}}{{{s}}}") == 1
                 and m.formula.count(s) == m.formula.count(f"{{{s}}}")), None)
    one = jackknife_unit(intervals, items)  # the jackknife's intervals: a unit left out, not a resample
    also = W.S["also_one_out"].format(one=one) if one else W.S["also_resample"]
    named = None if whole or left is None else W.S["undefined_omit_counts"].format(
        metric=_lower_name(m.name), symbol=size, kept=kept.format(items=items), also=also) if size and kept else \
        W.S["undefined_omit_named"].format(metric=_lower_name(m.name), case=left.format(items=items), also=also)
    # the classes declared (a test set is expected to hold each; with data the report says where one is absent)
    declared = bool(answers.get("classes") or answers.get("n_classes"))
    bullet = _counts_bullet(which, size, kept.format(items=items), task, intervals, declared,
                            _fixed_count(which, task, answers, declared),
                            flat=answers.get("label_structure") in (None, "nominal")) \
        if not whole and left is not None and size and kept else None
    name = _lower_name(m.name)
    return name + " " + phrase.format(pos=pos, item=item, items=items), whole, named, bullet, name


def _resampled(intervals: IntervalSettings | None, rec: Sequence[MetricEntry], n_systems: int) -> str:
    """What a resample in which a figure is undefined is left out of (:func:`_undefined_sentence`): a figure's own
    ``interval`` when some figure is bootstrapped; with exact intervals only, the bootstrap of the ``differences``
    between systems when there is one (several systems, or before data when systems are compared), else ``none``;
    ``jackknife:{unit}`` where the intervals are the jackknife's that leave out one unit (a thread) at a time."""
    one = jackknife_unit(intervals)
    if one is not None:
        return f"jackknife:{one}"
    if intervals is None or not rec or any(intervals.methods.get(m.id) not in ("clopper_pearson", "wilson")
                                           for m in rec):
        return "interval"
    # before data the intervals sentence says where any difference between systems comes from (intervals_sentence)
    return "differences" if (intervals.paired and n_systems > 1) or n_systems == 0 else "none"


def _undefined_sentence(p: Text, convention: str, undefined_count: int | None, cite: Any,
                        annotators: bool = False, no_zero_probability: bool = False,
                        case: tuple[str, bool, str | None, str] | None = None, named: bool = True,
                        empty_items: bool = False, unit: str = "class", resampled: str = "interval",
                        scorer: tuple[str, list[str]] | None = None) -> bool:
    """The undefined-value convention and, with data, how often it applied; True when it also said that no
    true class got probability 0 (``no_zero_probability``: one sentence for both). Nothing when no reported
    metric can meet a zero denominator (``case`` None) and none was met. ``resampled``: what a resample of an
    undefined figure is left out of — its ``interval``, only the bootstrap of the ``differences`` (every figure has
    an exact interval), or ``none`` (exact intervals, nothing resampled): the diagnostic reader, "the resamples … are
    left out of its interval" of a Clopper–Pearson interval. ``scorer``: the author's field scores with this
    convention, ``(its scorer in words, BibTeX keys)`` — said as the field's, so no resample is left out under
    zero and the reader of the field knows the figures compare (the CoLA reader, GLUE's MCC of 0)."""
    example, whole, left_out, name = case if case is not None else (None, False, None, "")
    if example is None and not annotators and not undefined_count:
        if empty_items:
            p.t(W.S["undefined_empty_items_alone"] + ". ")
        return False
    if annotators:
        p.t(W.S["undefined_annotators"].format(value={"zero": "set to 0", "baseline": "set to 1, maximal agreement",
                                                      "omit": "not reported"}.get(convention, "set to 0")))
    elif convention == "zero" and scorer is not None:
        _field_zero_sentence(p, scorer, example if named else None, whole, name, undefined_count == 0)
        if empty_items:
            p.t(W.S["undefined_empty_items"])
    elif convention == "baseline":
        p.say(W.S["undefined_baseline"]).cite([k for k in [cite("sgens", "2021")] if k])
        if scorer is not None:
            p.t(W.S["undefined_field_too"].format(scorer=scorer[0])).cite(scorer[1])
    else:
        none = undefined_count == 0 and convention == "zero"
        key = "undefined_zero_none" if none else f"undefined_{convention}" + ("_scalar" if convention == "omit" and
                                                                              whole else "")
        if key == "undefined_omit" and left_out and named:  # the metric says what its mean leaves out
            p.say(left_out[:1].upper() + left_out[1:])  # "$k$": the formula's symbol, as math
            if empty_items:  # a sentence of its own: the one before is long already
                p.t(". " + W.S["undefined_empty_items_alone"])
        else:
            if key == "undefined_omit_scalar" and resampled.startswith("jackknife:"):
                key = "undefined_omit_scalar_jackknife"
            elif key == "undefined_omit_scalar" and resampled != "interval":
                key = "undefined_omit_scalar_differences" if resampled == "differences" else "undefined_omit_exact"
            p.t(W.S[key].format(example=W.S["undefined_example"].format(example=example) if example and named
                                else "", unit=unit, one=resampled.removeprefix("jackknife:")))
            if scorer is not None:
                p.t(W.S["undefined_field_too"].format(scorer=scorer[0])).cite(scorer[1])
            if empty_items:
                p.t(W.S["undefined_empty_items"])
    both = no_zero_probability and undefined_count == 0 and convention == "zero" and not annotators
    if both:
        p.t(W.S["undefined_and_clip_none"])
    elif undefined_count is not None:
        if undefined_count == 0:
            p.t(W.S["undefined_none"])
        else:
            many = undefined_count != 1
            p.t(W.S["undefined_count"].format(count=undefined_count, s="s" if many else "",
                                              were="were" if many else "was"))
    p.t(". ")
    return both


def _field_zero_sentence(p: Text, scorer: tuple[str, list[str]], example: str | None, whole: bool, name: str,
                         none: bool) -> None:
    """The field's convention, its scorer cited, then the reported figure that meets it (a figure undefined as a whole
    is 0 itself; a term of a mean is named as an instance): “A zero denominator gives 0, as in the GLUE benchmark's
    scorer, scikit-learn (Pedregosa et al. 2011): Matthews correlation coefficient is 0 when a class is never predicted”."""
    words, keys = scorer
    p.t(W.S["undefined_zero_field"].format(gives="would give" if none else "gives", scorer=words)).cite(keys)
    if example and whole and name and example.startswith(name + " "):
        p.t(W.S["undefined_zero_field_whole"].format(name=name, case=example[len(name) + 1:]))
    elif example:
        p.t(W.S["undefined_zero_field_term"].format(example=example))


def log_loss_clip_text() -> str:
    """How log loss is kept finite, said after its formula: "Log loss clips each probability to [ε, 1 − ε] …"."""
    mant, exp = f"{LOG_LOSS_EPS:.1e}".split("e")
    return W.S["log_loss_clip"].format(mant=mant, exp=int(exp))


def _log_loss_clip(p: Text, rec: Sequence[MetricEntry], end: str = ".") -> None:
    """The clipping ε of log loss: beside the formula, or in the paragraph when it applied to some item."""
    if not any(m.id == "log_loss" for m in rec):
        return
    mant, exp = f"{LOG_LOSS_EPS:.1e}".split("e")
    p.t(" " if p.spans and p.spans[-1].text[-1:] != " " else "").say(
        W.S["log_loss_clip"].format(mant=mant, exp=int(exp))).t(end)


def _log_loss_zero_sentence(p: Text, rec: Sequence[MetricEntry], zero: Mapping[str, int] | None,
                            task: TaskInfo | None, said: bool = True) -> bool:
    """With data, how many items each system gave probability 0 for their true class (systems named only
    when one of them did). With ``said=False`` only whether none did: the undefined sentence then says it."""
    if not any(m.id == "log_loss" for m in rec) or not zero or task is None:
        return False
    if not said:
        return not any(zero.values())
    if any(zero.values()):  # clipping applied: the ε and the counts in one sentence
        counts = [W.S["log_loss_count"].format(system=name, count=f"{n:,}") for name, n in zero.items()]
        _log_loss_clip(p, rec, end="")
        p.t(W.S["log_loss_zero"].format(counts=", ".join(counts)))
    else:
        p.t(W.S["log_loss_zero_none"])
    p.t(". ")
    return True


MAX_WORDS = 220  # a paper's metrics paragraph


#: A word as a reader's count takes it (tests/test_methods_prose.py counts the same way): a run of letters, digits and
#: the punctuation that clings to them, so a full stop after a closing quote or parenthesis counts on its own
_WORD = re.compile(r"(?:[\w’'.,;:%–-]|\\_)+")


def _plain(spans: Sequence[Span]) -> str:
    """The paragraph as a reader sees it: an inline formula one word, a citation its author–year text in
    parentheses ("(Brodersen et al. 2010; Opitz 2024)")."""
    return "".join("X" if sp.kind == "math" else "(" + "; ".join(_cite_shorts(tuple(sp.keys))) + ")"
                   if sp.kind == "cite" else sp.text for sp in spans)


def _word_count(spans: Sequence[Span]) -> int:
    """Words of the paragraph as a reader counts them (:func:`_plain`), the run-in heading one."""
    return 1 + len(_WORD.findall(_plain(spans)))


def _bib_file() -> Any:
    return BIB_FILE


@lru_cache(maxsize=256)
def _cite_shorts(keys: tuple[str, ...]) -> list[str]:
    """The author–year text of each cited work ("Opitz 2024"); a key the bibliography lacks as two words."""
    bib = _bib_entries(BIB_FILE)
    return [bib[k].short if k in bib else "Unknown 0000" for k in keys]


@lru_cache(maxsize=1)
def _bib_entries(path: Any) -> dict[str, Any]:
    try:
        return parse_bibtex(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def _chance_sentence(p: Text, primary: MetricEntry | None, chance: Sequence[ChanceRow]) -> None:
    if primary is None:
        return
    row = next((r for r in chance if r.metric == primary.id), None)
    if row is None or row.uniform is None or row.majority is None:
        return
    same = f"{row.uniform:.2f}" == f"{row.majority:.2f}"
    p.t(W.S["chance_same" if same else "chance"].format(uniform=f"{row.uniform:.2f}", majority=f"{row.majority:.2f}",
                             name=_lower_name(primary.name)) + " ")


def _duties_sentence(p: Text, answers: Mapping[str, Any], recommendation: Mapping[str, Any],
                     task: TaskInfo | None) -> None:
    fired = [str(_get(r, "rule")) for r in recommendation.get("rationale") or []]
    k = task.k if task is not None else answers.get("n_classes") or len(answers.get("classes") or []) or "all"
    duties = []
    reported = {str(_get(c, "metric")) for c in [*(recommendation.get("complementary") or []),
                                                   recommendation.get("primary") or {}]}
    for rule in dict.fromkeys(fired):
        if rule not in W.DUTY or (rule == "per_class_small_k" and {"recall", "specificity"} <= reported):
            continue
        if rule == "target_prevalence_projection":
            shares = answers.get("target_prevalence") or {}
            duties.append(W.DUTY[rule].format(shares=", ".join(f"{c} {float(v):.0%}" for c, v in shares.items())))
        else:
            duties.append(W.DUTY[rule].format(k=k))
    if duties:
        p.t(W.S["duties"] + _join_words(duties[:3]) + ". ")


# ----------------------------------------------------------------------------------------------
# The justification
# ----------------------------------------------------------------------------------------------
from ..questionnaire import SENTENCE_END as _SENTENCE  # noqa: E402  (not after "et al.")
_ID = re.compile(r"\s*\((?:[a-z]+_[a-z_]+)\)|\[[a-z_]+\]\s*")
_VERIFIED = re.compile(r";\s*verified(?=\))")  # the default, said once above the steps


def _clean(text: str, names: Mapping[str, str] | None = None) -> str:
    """In reader terms (no ids, answers keys, property numbers or scores), one level of parentheses."""
    running = {m: _lower_name(n) for m, n in (names or {}).items()}
    text = _VERIFIED.sub("", _ID.sub("", text)).replace("not verified by the checker", "not checked by computation")
    return flatten_parentheses(reader_terms(text, running)).strip()


def build_justification(recommendation: Mapping[str, Any], cite_source: Any = None,
                        names: Mapping[str, str] | None = None) -> Paragraph | None:
    """Every step of the reasoning, the metrics not used and why, the warnings — no sentence twice."""
    cite_source = cite_source or (lambda source: [])
    para = Text().t("Each step below names the situation it answers and the sources it rests on; a property "
                     "said to hold or fail was also checked by computing the metric, unless marked otherwise.")
    out = para.para("Justification")
    seen: set[str] = set()

    def add(title: str, text: str, source: str = "") -> None:
        sentences = [s[:1].upper() + s[1:] for s in _SENTENCE.split(_clean(text, names)) if s]
        fresh = []
        for s in sentences:  # a sentence said once, also within one step
            if s.lower() not in seen:
                seen.add(s.lower())
                fresh.append(s)
        if not fresh:
            return
        it = Text()
        if title:
            it.spans.append(Span(kind="strong", text=_clean(title, names).rstrip(".") + "."))
            it.t(" ")
        for i, part in enumerate(FORMULA.split(" ".join(fresh))):  # a backquoted formula: as written, in type
            if i % 2:
                it.spans.append(Span(kind="code", text=part.strip("`")))
            else:
                it.t(part)
        said = " ".join(fresh)
        keys = cite_source(" ".join([source, *fresh]))
        named = _bib_entries(_bib_file())
        # a work the sentence already names (Opitz 2024) is not cited again after it; the references list
        # takes it from the text (cited_in_text)
        it.cite([k for k in keys if k not in named or named[k].short not in said])
        out.items.append(it.spans)

    for r in recommendation.get("rationale") or []:
        text = r if isinstance(r, str) else str(_get(r, "text") or "")
        title = "" if isinstance(r, str) else str(_get(r, "title") or "")
        add(title, text, "" if isinstance(r, str) else str(_get(r, "source") or ""))
    by_reason: dict[str, list[str]] = {}
    for d in recommendation.get("discouraged") or []:
        mid = str(_get(d, "metric"))
        by_reason.setdefault(str(_get(d, "reason") or ""), []).append(str(_get(d, "name") or (names or {}).get(mid, mid)))
    for reason, ms in by_reason.items():
        add("Not the lead: " + _join_words(ms), reason)
    return out if out.items else None
