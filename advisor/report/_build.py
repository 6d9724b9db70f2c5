"""Stage 1: compute everything a report shows into a :class:`ReportContext`.

Nothing here formats text for a particular output: numbers stay numbers, user strings stay raw
(the renderer escapes them), formulas stay the catalogue's LaTeX.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from .._exceptions import InputError
from .._format import beta_text
from ..catalogue import BIB_FILE, get_catalogue
from ..engine import METRICS, NEEDS_PARAMETERS, STRUCTURE_METRICS, chance_levels, class_metric, compute_metrics, \
    evaluate, ordinal_chance_levels
from ..io import with_reject
from ..plan import Plan, PlanOptions, runs_design, undefined_convention
from ..questionnaire import EXTERNAL, plain_formulas, plural, recommend, warning_words
from ..questionnaire import flatten_parentheses as flatten
from ..stats import bootstrap as run_bootstrap
from ..stats import compare_joint, prevalence_sensitivity
from ._bib import parse_bibtex
from ._build_decisions import decision_tables
from ._build_selective import abstention_section, selective_table
from ._build_scores import finish, item_ids, prepare, prior_scores
from ._confusions import top_confusions
from ._baseline import baseline_figures, baseline_table
from ._judge import definitions_for
from ._methods_baseline import baseline_definitions, said_baseline
from ._methods_field import field_scorer, in_field_terms
from ._methods_scores import score_sentences
from ._ranking import _point_ranking
from ._runs import check_runs, combine_reports, mismatch, run_view
from ._inputs import (
    abstained_of,
    check_arguments,
    check_positive,
    check_resampling,
    load_answers,
    match_label,
    systems_of,
    zero_probability_counts,
)
from ._models import (
    MANY_CLASSES,
    ChanceRow,
    FigureData,
    IntervalSettings,
    MetricEntry,
    PerClassRow,
    PrevalenceCurve,
    RankingData,
    Reference,
    ReportContext,
    SystemReport,
    TableBlock,
    TaskInfo,
    UndefinedEntry,
    WarningEntry,
)
from ._methods import (
    SHARED_NOTATION,
    VARIANT_NOTES,
    build_justification,
    build_methods,
    log_loss_clip_text,
    mean_conventions,
    weights_text,
    with_convention,
)
from ._methods_lists import name_with_parameters, where_clause
from ._methods_bias import bias_definitions, catalogue_definitions, smd_definitions, smd_subgroup_flag
from ._actions import ACTIONS_PROMISE, actions_definitions
from ._budget import BUDGET_PROMISE, budget_definitions, budget_tables
from ._risk_limit import LIMIT_PROMISE, frozen_definitions, limit_definitions, limit_tables
from ._methods_text import DEFINITION_VARIANT, PROMISE, per_class_promised
from ._ordinal import order_of, ordinal_intervals, try_ordinal
from ._plan import (
    settle,
    class_weights_of,
    f1_classes_of,
    fallback_of,
    action_classes_of,
    diagnostic_tables,
    extra_metric_ids,
    metric_items,
    plan_for,
    promises,
    unreported_planned,
    rec_json_of,
    shown_diagnostics,
    wants_class_of_interest,
)
from ._structure_checks import label_words, structure_items
from ._margins import margin_of
from ._folds import fold_values
from ._subgroups import check_subgroup_columns, subgroup_columns, subgroup_section
from ._uncertainty import difference_row, estimate_of, grouped, picked_seed, settle_intervals, uncertainty_tables

__all__ = ["build_report"]

_LOG = logging.getLogger(__name__)


def _f(v: Any) -> float | None:
    """A finite float, or None (undefined); infinities are kept."""
    if v is None:
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


# ----------------------------------------------------------------------------------------------
# Catalogue and references
# ----------------------------------------------------------------------------------------------
def _catalogue() -> Any:
    return get_catalogue()


def _bibliography() -> dict[str, Any]:
    try:
        return parse_bibtex(BIB_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _LOG.warning("references.bib not found beside the catalogue; the report has no bibliography")
        return {}


#: answers an option can replace that the author's context may state in numbers
_CONTEXT_FACTS = ("error_costs", "target_prevalence", "positive_class", "fpr_budget", "review_share")


def _keys_in(source: str | None, bib: Mapping[str, Any]) -> list[str]:
    """BibTeX keys a free-text source ("opitz2024, Table 5" or "Opitz (2024)") refers to."""
    if not source:
        return []
    low = source.lower()
    keys = [k for k in bib if k.lower() in low]
    if keys:
        return keys
    best: dict[tuple[str, str], tuple[tuple[int, int], str]] = {}  # (first author, year) -> (authors named, key)
    for k, e in bib.items():
        short = e.short.lower()
        last = short.split(" ")[0].rstrip(",")
        if e.year.lower() in low and last and re.search(rf"(?<!\w){re.escape(last)}(?!\w)", low):  # not 'wei' in 'weighting'
            # two works of one first author in one year (Gösgens et al. 2021, NeurIPS and ICML): the one whose
            # co-authors the source names, else the first in the bibliography
            authors = [a.split(",")[0].strip().strip("{}").lower() for a in e.fields.get("author", "").split(" and ")]
            hits = sum(1 for a in authors if a and a in low)
            # "et al." names one author of both: the first in the bibliography; a list of authors names one work
            named = (hits, 0 if hits < 2 else hits - len(authors))
            if (last, e.year) not in best or named > best[(last, e.year)][0]:
                best[(last, e.year)] = (named, k)
    return [k for _, k in best.values()][:2]


def _metric_entry(mid: str, rec: Any, role: str, reason: str | None, params: Mapping[str, Any],
                  pos_label: Any, beta: float, binary_probs: bool = False, two_class: bool = False) -> MetricEntry:
    """One metric as the report presents it; ``binary_probs``: the Definitions use the two-class notation of
    probabilities ($y_t$ 1 or 0, $p_t$ the positive class's probability), so a formula with a form in it
    (:attr:`~advisor.catalogue.MetricRecord.binary_form`) is printed in that form; ``two_class``: a formula with a
    form in the counts (:attr:`~advisor.catalogue.MetricRecord.counts_form`, Matthews's MCC) is printed in it."""

    variant = DEFINITION_VARIANT.get(mid, VARIANT_NOTES.get(mid))
    if mid in ("precision", "recall", "f1", "f_beta", "jaccard") and pos_label is not None:
        variant = f"computed for the positive class “{pos_label}”"
        if mid == "f_beta":
            variant += f", with β = {beta_text(beta)}"
    elif mid in ("specificity", "npv") and pos_label is not None:
        variant = f"computed for the items outside the positive class “{pos_label}”"
    named = class_metric(mid)  # the figure of a class the author names as costly (f1@deny), one-vs-rest
    if named is not None:
        variant = f"computed for the class “{named[1]}” against all others"
    if mid == "stratified_accuracy" and params.get("class_weights"):  # the strata's weights: the mapped shares
        variant = f"with the mapped shares Wⱼ = {weights_text(params['class_weights'])}"
    elif mid in NEEDS_PARAMETERS and params.get("class_weights"):  # class-weighted recall and accuracy
        variant = f"with the class weights wᵢ = {weights_text(params['class_weights'])}"
    if rec is None:
        return MetricEntry(id=mid, name=mid.replace("_", " "), formula="", role=role, reason=reason,
                           variant=variant, params=dict(params))
    at = mid.split("@", 1)[1] if "@" in mid and named is None else None  # net_benefit@t: one per risk threshold
    form = rec.binary_form if binary_probs and rec.binary_form is not None else \
        rec.counts_form if two_class and rec.counts_form is not None else rec
    symbols = _shares_symbol(dict(form.symbols), params)
    return MetricEntry(
        id=mid,
        name=f"{re.sub(r' [(][^)]*[)]', '', rec.name)} of “{named[1]}”" if named is not None else name_with_parameters(mid, rec.name, params)
        if at is None else f"{rec.name} at risk threshold {at}",
        formula=form.formula,
        interpretation=rec.interpretation,
        higher_is_better=rec.higher_is_better,
        role=role,
        reason=reason,
        variant=variant,
        where=where_clause(symbols),
        symbols=symbols,
        params=dict(params),
        references=list(rec.references),
        chance_level=rec.chance_level,
    )


def _shares_symbol(symbols: dict[str, str], params: Mapping[str, Any]) -> dict[str, str]:
    r"""The class shares a cost is weighed at ($\pi_i$), said as this plan weighs them — where the classifier is
    used, as the answers give them, or this test set's — not as the catalogue's "when that is known, else" (the s24
    readers: a clause for nothing in a situation whose shares are known).

    >>> _shares_symbol({r"\pi_i": "x"}, {"priors": "test-set shares"})[r"\pi_i"]
    'the share of class $i$ in the test set, at which the costs are weighed'
    """
    key = r"\pi_i"
    priors = params.get("priors")  # the shares in use as the answers give them; none given: this test set's
    if key not in symbols:
        return symbols
    said = ("the share of class $i$ where the classifier is used, as given, at which the costs are weighed"
            if isinstance(priors, Mapping) else "the share of class $i$ in the test set, at which the costs are weighed")
    return {**symbols, key: said}


def _property_status(cat: Any, ids: Sequence[str], bib: Mapping[str, Any]) -> dict[str, dict[str, tuple[str, list[str]]]]:
    out: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for mid in ids:
        rec = cat.metrics.get(mid)
        if rec is None:
            continue
        out[mid] = {}
        for pid, claim in rec.properties.items():
            out[mid][pid] = (claim.status, [k for k in _keys_in(claim.source, bib) if k in bib])
    return out


# ----------------------------------------------------------------------------------------------
# The build
# ----------------------------------------------------------------------------------------------
def build_report(
    answers: Any,
    data: Any = None,
    *,
    title: str | None = None,
    bootstrap: int = 2000,
    confidence: float = 0.95,
    seed: int | None = None,
    positive_label: Any = None,
    undefined: str | None = None,
    recommendation: Any = None,
    digits: int = 4,
    progress: Any = None,
    costs: Any = None, priors: Any = None, scores: Any = None, order: Sequence[Any] | None = None,
    max_fpr: float | None = None, alerts: int | None = None, decision_thresholds: Any = None,
    coverage: float | None = None,
    by: Sequence[str] | str | None = None,
    reject_label: Any = None,
    seed_given: bool = True,
    runs: Sequence[str] | None = None,
) -> ReportContext:
    """Compute a report's context from the answers and the data.

    Parameters
    ----------
    answers : Answers, mapping or path
        The questionnaire's answers (see ``advisor ask``).
    data : PredictionSet or mapping name → ConfusionMatrix, optional
        From :func:`advisor.read_predictions` (paired: winners and ranking agreement are computed on
        the same items) or confusion matrices (unpaired intervals per system). ``None`` builds the
        methods part only.
    title : str, optional
    bootstrap : int
        Number of bootstrap resamples for the intervals (0: no intervals).
    confidence : float
        Coverage of the intervals.
    seed : int, optional
        Seed of the resampling, for reproducible intervals.
    runs : sequence of str, optional
        Several training runs of a system (issue 20 item 4): the system of each prediction column of ``data``, a name
        repeated for its runs (``advisor report A=a1.csv A=a2.csv B=…``). Each system is then reported as its mean
        over its runs, with intervals, paired differences and winners from two-stage resamples of runs and items
        (:func:`advisor.stats.compare_joint`); for label predictions of single-label classes only, and every system
        must have as many runs as the answers' ``runs``, when given.
    seed_given : bool
        False when ``seed`` was picked by the caller rather than given by the author (as ``advisor methods`` does):
        a paragraph whose resamples the author's own tool draws (rankings, spans) then names no seed.
    positive_label : optional
        Positive class of a binary task (default: the answers' ``positive_class``).
    undefined : {"zero", "baseline", "omit"}, optional
        Convention for undefined values; None (not chosen): the convention of the field the answers name, its
        scorer's (MCC of a constant predictor is 0 in the GLUE scorer), else advisor's default (omit). The plan
        records which (``plan.design.undefined_from``).
    recommendation : Recommendation or mapping, optional
        Use this recommendation instead of computing one from the answers.
    digits : int
        Decimals printed (the same as ``advisor compute``).
    costs, priors, scores : optional
        As in ``advisor.evaluate`` (default: the answers' costs and shares, a DataFrame's score columns).
    order : sequence, optional
        Ordered classes, lowest first, for the plan's ordinal metrics (default: the answers' ``classes``).
    max_fpr, alerts, decision_thresholds : optional
        Operating constraints of the run (issue 21), as ``--max-fpr``, ``--alerts`` and ``--decision-thresholds``:
        they replace the answers' ``fpr_budget``, ``review_share`` (K items of this test set) and
        ``decision_thresholds``.
    coverage : float, optional
        Selective prediction (issue 23), as ``--coverage``: the share in (0, 1] of the items a system that abstains
        answers; replaces the answers' ``target_coverage`` (and implies ``abstention: true``).
    by : column or list of columns, optional
        Subgroup columns (issue 23), as ``--by``, beside the answers' ``subgroups``: every metric per subgroup
        with its interval, and the gaps across subgroups. ``data`` must be read with
        ``advisor.load(..., by=[…])``.
    reject_label : label, optional
        The label a system writes when it abstains (issue 23), as ``--reject-label``; default: the answers'
        ``reject_label``. It is no class: every metric of the confusion matrix is computed on the items each system
        answered, and a table gives each system's coverage (the share answered) and the error rate of its answers.

    Examples
    --------
    >>> import advisor
    >>> ctx = build_report({"task": "binary", "positive_class": 1},
    ...                    {"a": [[50, 10], [5, 35]]}, bootstrap=200, seed=1)  # doctest: +SKIP
    >>> ctx.primary in ctx.systems[0].values  # doctest: +SKIP
    True
    """
    check_arguments(title=title, undefined=undefined, digits=digits)
    if order is not None and (isinstance(order, (str, bytes, Mapping)) or not hasattr(order, "__iter__")):
        raise InputError(f"order must be a list of the classes, lowest first; got {type(order).__name__}.")
    bootstrap = check_resampling(bootstrap, confidence)
    seed, by_author = picked_seed(seed, bootstrap)  # a seed always, stated (issue 20)
    seed_given = by_author and seed_given
    reject = _reject_label(answers, reject_label)  # abstentions are no class (issue 23)
    data = with_reject(data, reject) if data is not None else None
    systems, joint, probs, data_notes = systems_of(data, reject)
    abstained = abstained_of(data, joint, systems, reject)
    if recommendation is not None:  # a recommendation given as is: its metrics, no plan of the answers' options
        ans = load_answers(answers)
        check_positive(positive_label, ans.positive_class)
        given: set[str] | None = set(ans.model_fields_set) if answers is not None else None
        plan = None
        rec_json, primary_reason, recommendation = _recommendation(ans, recommendation, data, systems)
        rec_items = _recommended_items(rec_json, primary_reason)
        undefined, _ = undefined_convention(undefined, ans.field)  # the run's, else the field's scorer's
    else:  # the plan: the answers as the run's options override them, checked against the data
        if not isinstance(answers, Plan):
            check_positive(positive_label, load_answers(answers).positive_class)
        seen = run_view(systems, runs) or (data if hasattr(data, "systems") else systems)  # runs: one per system
        plan = plan_for(answers, seen if systems else None, PlanOptions(
            costs=costs, priors=priors, positive_label=positive_label, resamples=bootstrap, confidence=confidence,
            seed=seed, seed_given=seed_given, undefined=undefined, order=list(order) if order is not None else None,
            max_fpr=max_fpr, alerts=alerts, decision_thresholds=decision_thresholds, coverage=coverage,
            reject_label=reject_label))
        undefined = plan.design.undefined  # one convention for the engine, intervals, tables and text
        ans, recommendation = plan._rec.answers, plan._rec
        given = plan.given()
        if any(a.source == "option" and a.key in _CONTEXT_FACTS for a in plan.answers):
            given.discard("context")  # the author's words state the costs or shares an option replaced
        rec_json, primary_reason = rec_json_of(plan), plan.lead.reason
        rec_items = metric_items(plan)
        costs = priors = None  # applied to the answers by the plan
    answers_dict = rec_json.get("answers") or ans.model_dump(mode="json")
    cat, bib = _catalogue(), _bibliography()
    warnings = _warnings_in_words(recommendation, rec_json)
    if plan is not None:  # where two answers (or an answer and an option) pull apart, and which one leads
        warnings = [*(WarningEntry(code="answers_pull_apart", message=c, source="plan") for c in plan.conflicts),
                    *warnings]
    sub_cols = subgroup_columns(plan, by)
    if systems:
        check_subgroup_columns(data, sub_cols)  # before any work (issue 23)
    layout = check_runs(runs, list(systems), joint=joint, probabilities=probs, reject=reject, subgroups=sub_cols,
                        groups=getattr(getattr(data, "predictions", data), "groups", None),
                        structure=ans.label_structure or "nominal", planned=plan is not None) if systems else None
    if plan is not None and systems:  # the answers' runs against the files' (issue 20 item 4), before any work
        counts = layout.runs if layout is not None else {name: 1 for name in systems}
        said = mismatch(plan.design.runs, counts)
        if said is not None:
            raise InputError(said)
        if layout is not None:  # the plan as carried out: each system its mean over its runs
            runs_design(plan.design, max(counts.values()))
            plan.design.runs = counts[layout.names[0]] if len(set(counts.values())) == 1 else None
            plan.design.systems = len(layout.names)
    first = next(iter(systems.values()), None)
    of_interest = plan is not None and wants_class_of_interest(plan) and first is not None and first.k > 2
    task, pos = _task_info(first, plan.task.positive_class if of_interest and plan is not None else positive_label,
                           answers_dict.get("positive_class"))
    if task is not None and first is not None and any(abstained.values()):  # the test items (issue 23)
        task = task.model_copy(update={"n": float(first.n) + float(abstained.get(next(iter(systems)), 0.0))})
    rec_items = structure_items(ans, bool(systems), rec_items, cat)  # issue 12
    # β of Fβ, whether Fβ leads or is reported beside the primary metric (one β per report)
    # Fβ not planned but error costs given: the appendix's Fβ takes β from them too, as the justification says
    # (β² = cost_FN / cost_FP), never a silent β = 1 that is F1 under another name (the screening report)
    ratio = ans.cost_ratio()
    beta = next((float(params["beta"]) for _, mid, _, params in rec_items
                 if mid == "f_beta" and params.get("beta") is not None),
                math.sqrt(ratio) if ratio is not None and ratio > 0 else 1.0)
    weights = class_weights_of(plan) if plan is not None else None
    f1_classes = f1_classes_of(plan) if plan is not None else None
    fallback = fallback_of(plan) if plan is not None else None
    action_classes = action_classes_of(plan) if plan is not None else None

    ev = None
    ordinal: Any = None
    ordinal_points: dict[str, dict[str, float]] = {}
    ordinal_reasons: dict[str, str] = {}
    if first is not None:  # systems: the first system's matrix
        ev = evaluate(systems, positive_label=pos, beta=beta, undefined=undefined, probabilities=probs or None,
                      same_items=not any(abstained.values()))
        if any(abstained.values()):  # the test items, not the first system's answers (issue 23)
            ev = ev.model_copy(update={"n": float(first.n) + float(abstained.get(next(iter(systems)), 0.0))})
        if plan is not None:
            ev = _with_extra_metrics(ev, systems, extra_metric_ids(plan, first.k), pos, beta, undefined, weights,
                                     f1_classes, fallback, action_classes)
            # ordered classes scored from the decisions beside a probability lead (issue 19, item 6)
            ordinal, ordinal_points, ordinal_reasons = try_ordinal(systems, plan, undefined)
            if ordinal_points:
                ev = ev.model_copy(update={"metrics": {s: {**ev.metrics[s], **ordinal_points[s]} for s in ev.systems}})
        # scores, probabilities, costs (issue 11); a class of interest among several is no binary positive class
        ev, score_state = prepare(ev, systems, scores, data, ans, rec_json, costs, priors,
                                  pos if first.k == 2 else None, confidence=confidence, resamples=bootstrap,
                                  seed=seed)
    reasons: dict[str, str] = {}
    binary = (task.kind == "binary") if task is not None else ans.task == "binary"
    # scores that are no probabilities keep s_t in ROC AUC: "p_t is its predicted probability" would be false
    entries = _metric_entries(rec_items, ev, cat, pos, beta, warnings, reasons,
                              binary=binary and (pos is not None or ans.positive_class is not None)
                              and getattr(ans, "outputs", None) != "scores", two_class=binary)
    reasons.update(ordinal_reasons)
    if plan is not None and ev is not None:  # the plan as carried out: what the data cannot give, said
        plan = settle(plan, {m.id for m in entries if m.id not in reasons}, reasons)
    results = _Results()
    score_data = None
    if ev is not None:
        results = _results(ev, systems, entries, zero_probability_counts(data))
        if layout is not None:  # each system its mean over its runs (issue 20 item 4)
            results.reports, results.runs = combine_reports(results.reports, layout), layout.runs
        if ordinal is not None and ordinal_points:  # the ordinal figures' chance levels and best constant prediction
            _ordinal_chance(results, ordinal, entries, undefined)
        settings = _Settings(bootstrap, confidence, seed, pos, beta, undefined, progress, weights,
                             f1_classes=f1_classes, fallback=fallback, action_classes=action_classes,
                             runs=list(runs) if layout is not None and runs is not None else None)
        plan = grouped(settings, results, data, plan, bool(ordinal_points))  # --group: groups, not items
        skip = item_ids(score_state)  # their intervals come from the item bootstrap; a cost lead has a cost curve
        if settings.groups is not None and ({m.id for m in entries} & set(skip) or ordinal_points):
            settings.method = "bca"  # figures of scores or ordered classes keep BCa over the units: one method for all
        _uncertainty(results, systems, joint, [m for m in entries if m.id not in skip], cat, settings)
        if plan is not None and ordinal_points and bootstrap > 0:
            ordinal_intervals(results, ordinal, joint, list(next(iter(ordinal_points.values()))), ordinal_points,
                              settings, [m.id for m in entries if not m.higher_is_better])
        if str(rec_json["primary"]["metric"]) not in skip and layout is None:  # a curve of one run says no mean
            _prevalence_figure(results, systems, rec_json, ev, settings)
        score_data = finish(score_state, results, joint, entries, settings) if score_state is not None else None
        settle_intervals(results, seed_given)
        if plan is not None and plan.design.folds and results.intervals is not None and layout is None:
            lead_id = str(rec_json["primary"]["metric"])  # each fold's lead figure beside the pooled one
            if lead_id in METRICS and not METRICS[lead_id].needs_probabilities:
                iv_f = results.intervals
                iv_f.fold_column, iv_f.fold_metric = plan.design.folds, lead_id
                iv_f.fold_values = fold_values(data, plan.design.folds, lead_id, dict(
                    positive_label=pos, beta=beta, undefined=undefined, class_weights=weights, f1_classes=f1_classes,
                    fallback_class=fallback, action_classes=action_classes))
        if results.intervals is not None and results.runs is None and plan is not None and plan.design.runs == 1:
            results.intervals.runs = 1  # one run of each system, as the answers say: the conclusions are about it
        # a small test set is flagged by the recommendation's small_sample warning (its thresholds)
        warnings += [WarningEntry(code="data", message=str(note), source="report") for note in data_notes]
    elif bootstrap > 0:
        # before data, systems the answers say are compared on the same items are paired, as the data will pair them
        results.intervals = IntervalSettings(n_resamples=bootstrap, confidence=confidence, seed=seed,
                                             paired=plan is not None and plan.design.paired,
                                             mcnemar=plan is not None and plan.design.paired
                                             and "McNemar" in (plan.design.test or ""),
                                             seed_given=seed_given, methods=dict(plan.design.interval_methods)
                                             if plan is not None else {},
                                             # before data: exact only while no score ties at the cut-off
                                             tied_shares=list(plan.design.tied_shares) if plan is not None else [],
                                             # without data, the answers' unit (issue 20 item 3): its groups uncounted
                                             group_column=ans.group if ans is not None else None,
                                             # the answers' cross-validation folds: the figures pool them
                                             fold_column=plan.design.folds if plan is not None else None,
                                             # the answers' training runs of each system (issue 20 item 4)
                                             runs=plan.design.runs if plan is not None else getattr(ans, "runs", None),
                                             classes=plan.design.classes if plan is not None else "kept")

    tables: list[TableBlock] = []
    shown: list[str] | None = None
    at_priors: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    budget: dict[str, Any] = {}
    limit: dict[str, Any] = {}
    if plan is not None and ev is not None and layout is not None:  # means over runs: Table 1 and the differences
        shown = shown_diagnostics(plan, results.reports, tables, results.intervals)  # (the diagnostics read one run)
        tables += uncertainty_tables(results, entries, score_data)
    elif plan is not None and ev is not None:
        names = {m.id: m.name for m in entries}
        tables = diagnostic_tables(plan, results.reports, systems, task=task, names=names, pos=pos, beta=beta,
                                   undefined=undefined, digits=digits, at_priors=at_priors, actions=actions,
                                   # log loss and the Brier score at the shares in use need each item's probabilities
                                   scores=prior_scores(score_state) if plan.diagnostic("at_priors") else None)
        # the machine against the human–human baseline (Williamson et al. 2012), first: the field's central reading
        base_table = baseline_table(baseline_figures(plan, data, order_of(plan), bootstrap, confidence, seed,
                                                     undefined),
                                    plural(str(answers_dict["item_name"])) if answers_dict.get("item_name") else "items")
        tables = ([base_table] if base_table is not None else []) + tables
        # the labels in use against the false positive rate budget (issue 24): groups resampled as the intervals are
        tables = budget_tables(plan, systems, joint, settings.groups, pos, bootstrap, seed, min(digits, 3),
                               budget) + tables
        # the answers at a confidence cut fixed in advance against the target risk: the same bound, first
        tables = limit_tables(plan, systems, abstained, joint, settings.groups, bootstrap, seed, min(digits, 3),
                              limit) + tables
        tables += decision_tables(score_data, results.reports)  # issue 21: thresholds, calibration, net benefit
        tables += selective_table(score_data, results.reports)  # issue 23: selective risk, coverage at a risk
        shown = shown_diagnostics(plan, results.reports, tables, results.intervals)
        tables += uncertainty_tables(results, entries, score_data)
    ab_json, ab_par = None, None
    if reject is not None and ev is not None:  # a system that may abstain: its coverage beside its metrics
        ab_json, ab_table, ab_par = abstention_section(reject, abstained, systems, ans.target_coverage, confidence,
                                                       min(digits, 3), score_data)
        tables.append(ab_table)
    sub_json, sub_par = None, None
    if sub_cols and ev is not None and first is not None:  # per subgroup and the gaps across them (issue 23 item 1)
        sub_json, sub_tables, sub_warn, sub_par = subgroup_section(
            data, sub_cols, {m.id: m.name for m in entries if m.role != "appendix"}, pos if first.k == 2 else None,
            beta, undefined, bootstrap, confidence, seed, min(digits, 3),
            order=_smd_order(plan, first) if plan is not None and plan.diagnostic("subgroup_smd") else None,
            margin=margin_of(answers_dict),  # each gap's verdict against the author's margin, when one was fixed
            favourable=_favourable(plan, first), score=plan is not None and plan.diagnostic("bias_score") is not None,
            item_words=plural(str(answers_dict["item_name"])) if answers_dict.get("item_name") else "items",
            smd_flag=smd_subgroup_flag(answers_dict), score_ids=[m.id for m in entries if m.role != "appendix"],
            error_rates=plan is not None and plan.diagnostic("subgroup_error_rates") is not None,
            alarm_first=answers_dict.get("costlier_error") == "false_alarm")
        tables += sub_tables
        warnings += sub_warn
        if shown is not None and sub_json.get("bias_aucs") and plan is not None and plan.diagnostic("bias_aucs"):
            shown = [*shown, "bias_aucs"]  # the bias AUCs' table (Borkan et al. 2019), as the plan promised it
        # the field's figures across subgroups and each value's error rates at one threshold, as the plan promised them
        for did, key in (("adverse_impact", "adverse_impact"), ("bias_score", "bias_score"),
                         ("subgroup_error_rates", "error_rates")):
            if shown is not None and sub_json.get(key) and plan is not None and plan.diagnostic(did):
                shown = [*shown, did]
        if shown is not None and sub_json.get("smd") and plan is not None and plan.diagnostic("subgroup_smd"):
            shown = [*shown, "subgroup_smd"]  # the SMD per value (Williamson et al. 2012), as the plan promised it
    promised = promises(plan, shown) if plan is not None else None
    methods, justification, references = _methods_and_references(
        answers_dict, rec_json, entries, cat, bib, given=given, task=task, undefined=undefined,
        results=results, evaluated=ev is not None, digits=digits, scores=score_data,
        promised=promised, unreported=unreported_planned(plan) if plan is not None else (),
        chosen=plan is not None and plan.design.undefined_from == "option"  # a choice that changes the convention
        and plan.design.undefined != undefined_convention(None, answers_dict.get("field"))[0],
        systems=(plan.design.systems or 0) if plan is not None and ev is None else 0,
        identities=_score_identities(sub_json))
    methods = label_words(methods, answers_dict)  # a multi-label task has labels, not classes
    if ab_par is not None:
        methods = [*methods, ab_par]
    if sub_par is not None:
        methods = [*methods, sub_par]
        have = {r.key for r in references}  # the subgroups' own source (Borkan et al. 2019): in the references too
        references = [*references, *(Reference(key=k, text=bib[k].text, short=bib[k].short, bibtex=bib[k].raw)
                                     for sp in sub_par.spans if sp.kind == "cite" for k in sp.keys
                                     if k in bib and k not in have)]
    ctx = _context(title, digits, task, undefined, answers_dict, rec_json, entries, cat, methods,
                   results, warnings, references)
    ctx.justification, ctx.scores, ctx.tables = justification, score_data, tables
    ctx.definitions = definitions_for(plan, cat, promised)  # a judge against human raters (issue 22)
    if said_baseline(promised, answers_dict, PROMISE["human_baseline"]):  # the degradation from the raters' kappa
        ctx.definitions = [*ctx.definitions, *baseline_definitions(answers_dict)]
    if (promised is not None and PROMISE["bias_aucs"] in promised) or (sub_json or {}).get("bias_aucs"):
        # the bias AUCs said or shown: their formulas, in the notation of the Definitions above and without
        # defining again what those defined
        two_class = any((rec := cat.metrics.get(m.id)) is not None and rec.binary_form is not None
                        and m.formula == rec.binary_form.formula for m in entries)  # written in p_t above
        ctx.definitions = [*ctx.definitions, *defined_once(bias_definitions(cat, two_class), cat, before=entries)]
    figures = [mid for did, mid in (("bias_score", "jigsaw_bias_score"), ("adverse_impact", "adverse_impact_ratio"))
               if (promised is not None and PROMISE[did] in promised) or (sub_json or {}).get(did)]
    if figures:  # the field's figures across subgroups said or shown: their formulas, each symbol defined once
        ctx.definitions = [*ctx.definitions, *defined_once(
            catalogue_definitions(cat, figures, identities=len(_score_identities(sub_json) or []) or None),
            cat, before=[*entries, *ctx.definitions])]
    if (promised is not None and PROMISE["subgroup_smd"] in promised) or (sub_json or {}).get("smd"):
        # the subgroups' SMD said or shown: its formula, with the symbols not defined above it
        ctx.definitions = [*ctx.definitions, *smd_definitions(cat, [*ctx.metrics, *ctx.definitions])]
    if promised is not None and ACTIONS_PROMISE in promised:  # the rates of the actions said: their formulas
        ctx.definitions = [*ctx.definitions, *actions_definitions(answers_dict)]
    if promised is not None and BUDGET_PROMISE in promised:  # the labels in use against the budget: how it is bounded
        iv = results.intervals
        ctx.definitions = [*ctx.definitions, *budget_definitions(
            answers_dict, iv.group_column if iv is not None and iv.n_resamples > 0 else None,
            budget if plan is not None and ev is not None else None)]
    if promised is not None and LIMIT_PROMISE in promised:  # the answers at the fixed cut: how the bound is taken
        iv = results.intervals
        ctx.definitions = [*ctx.definitions, *limit_definitions(
            answers_dict, iv.group_column if iv is not None and iv.n_resamples > 0 else None,
            limit if plan is not None and ev is not None else None)]
    if score_data is not None and score_data.frozen_cut:  # the frozen cut's answers on the test half: their formula
        iv = results.intervals
        ctx.definitions = [*ctx.definitions, *frozen_definitions(
            answers_dict, iv.group_column if iv is not None and iv.n_resamples > 0 else None)]
    ctx.plan = plan.to_json_dict() if plan is not None else None
    ctx.at_priors = (at_priors or None) if plan is not None and ev is not None else None
    ctx.actions = (actions or None) if plan is not None and ev is not None else None
    ctx.fpr_budget = (budget or None) if plan is not None and ev is not None else None
    ctx.risk_limit = (limit or None) if plan is not None and ev is not None else None
    ctx.subgroups = sub_json
    ctx.abstentions = ab_json
    return ctx


def _reject_label(answers: Any, given: Any) -> Any:
    """The reject label of the run: as given (``--reject-label``), else the answers' (None: no abstentions)."""
    if given is not None:
        return given
    try:
        ans = answers._rec.answers if isinstance(answers, Plan) else load_answers(answers)
    except Exception:  # noqa: BLE001 - the answers are checked, with their own message, by the plan
        return None
    return getattr(ans, "reject_label", None)


def _with_extra_metrics(ev: Any, systems: Mapping[str, Any], ids: Sequence[str], pos: Any, beta: float,
                        undefined: str, weights: Any, f1_classes: Any = None, fallback: Any = None,
                        action_classes: Any = None) -> Any:
    """The evaluation with the plan's metrics the default set leaves out (class weights, the classes an F1 is
    averaged over, a class of interest among several), and their chance levels."""
    if not ids:
        return ev
    values = {name: dict(ev.metrics[name]) for name in ev.systems}
    for name in ev.systems:
        res = compute_metrics(systems[name], list(ids), positive_label=pos, beta=beta, undefined=undefined,
                              class_weights=weights, f1_classes=f1_classes, fallback_class=fallback,
                              action_classes=action_classes)
        values[name].update({m: float(v) for m, v in res.items()})
    chance = dict(ev.chance)
    chance.update(chance_levels(next(iter(systems.values())), list(ids), positive_label=pos, beta=beta,
                                undefined=undefined, class_weights=weights, f1_classes=f1_classes,
                                fallback_class=fallback, action_classes=action_classes))
    return ev.model_copy(update={"metrics": values, "chance": chance})


# ----------------------------------------------------------------------------------------------
# The steps of the build
# ----------------------------------------------------------------------------------------------
@dataclass
class _Settings:
    """How intervals and curves are computed (the report's arguments, resolved)."""

    bootstrap: int
    confidence: float
    seed: int | None
    pos: Any
    beta: float
    undefined: str
    progress: Any
    weights: Any = None  # the class weights of class_weighted_recall and class_weighted_accuracy
    f1_classes: Any = None  # the classes macro_f1_of_classes averages over
    fallback: Any = None  # the class whose prediction takes no action (wrong_action_rate, fallback_rate)
    action_classes: Any = None  # the classes of the action of interest (action_sensitivity, action_specificity)
    groups: Any = None  # the group of each joint-table row: resample groups, not items (issue 20)
    method: str = "auto"  # the intervals' method; "bca" over units where some figure cannot take the jackknife's
    group_col: str | None = None
    runs: Any = None  # the system of each joint-table column: runs averaged, resampled with the items (issue 20 item 4)


@dataclass
class _Results:
    """What the data gives: per-system results, chance rows, intervals, winners and figure data."""

    reports: list[SystemReport] = field(default_factory=list)
    chance: list[ChanceRow] = field(default_factory=list)
    winners: dict[str, list[str]] = field(default_factory=dict)
    intervals: IntervalSettings | None = None
    figures: FigureData = field(default_factory=FigureData)
    undefined_total: int = 0
    test: str | None = None  # the paired test behind the winners, named
    mcnemar: list[dict[str, Any]] = field(default_factory=list)  # accuracy: McNemar's exact test of each pair
    group: tuple[str, int] | None = None  # (column, number of groups) when groups were resampled (issue 20)
    runs: dict[str, int] | None = None  # each system's training runs, when some system has several (issue 20 item 4)


def _recommendation(ans: Any, recommendation: Any, data: Any,
                    systems: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any]:
    """The recommendation as JSON (computed from the answers and data unless given), the lead's reason
    and the recommendation itself."""
    if recommendation is None:
        # the matrices as read here (a mapping may hold plain lists of counts)
        recommendation = (recommend(ans, data=data if hasattr(data, "systems") else systems) if systems
                          else recommend(ans))
    if not hasattr(recommendation, "to_json_dict") and not (isinstance(recommendation, Mapping)
                                                            and isinstance(recommendation.get("primary"), Mapping)):
        raise InputError("recommendation must be an advisor.Recommendation (advisor.recommend) or its JSON mapping "
                         f"with a 'primary' metric; got {type(recommendation).__name__}.")
    rec_json: dict[str, Any] = (recommendation.to_json_dict() if hasattr(recommendation, "to_json_dict")
                                else dict(recommendation))
    reason = getattr(getattr(recommendation, "primary", None), "reason", None) or rec_json["primary"].get("reason")
    return rec_json, reason, recommendation


def _warnings_in_words(recommendation: Any, rec_json: Mapping[str, Any]) -> list[WarningEntry]:
    """The recommendation's warnings as the one-screen view says them: plain words, no ids, none
    about a metric the report already advises against, caveats of reported metrics kept."""
    if hasattr(recommendation, "primary") and hasattr(recommendation, "warnings"):
        return [WarningEntry(code=code, message=text)
                for code, text in warning_words(recommendation, citations=False)]
    return [WarningEntry(code=str(_get(w, "code", "note")), message=plain_formulas(flatten(str(_get(w, "message", w)))))
            for w in rec_json.get("warnings") or []]


def _task_info(first: Any, positive_label: Any, answered: Any) -> tuple[TaskInfo | None, Any]:
    """The task as the data shows it, and the positive label matched to the data's labels."""
    pos = positive_label if positive_label is not None else answered
    if first is None:
        return None, pos
    if pos is not None:
        pos = match_label(first.labels, pos, "positive label") if first.k == 2 or positive_label is not None else None
    task = TaskInfo(
        kind="binary" if first.k == 2 else "multiclass",
        k=first.k,
        labels=[str(x) for x in first.labels],
        class_sizes=[float(x) for x in first.true_sizes],
        n=float(first.n),
        positive_label=None if pos is None else str(pos),
    )
    return task, pos


def _recommended_items(rec_json: Mapping[str, Any], primary_reason: Any) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """(role, metric id, reason, parameters) of the lead and the complementary metrics."""
    items: list[tuple[str, str, str | None, dict[str, Any]]] = [
        ("primary", str(rec_json["primary"]["metric"]), primary_reason or None, dict(rec_json["primary"].get("params") or {}))
    ]
    for item in rec_json.get("complementary") or []:
        items.append(("complementary", str(item["metric"]), _get(item, "reason"), dict(_get(item, "params") or {})))
    return items


def _metric_entries(rec_items: Sequence[tuple[str, str, str | None, dict[str, Any]]], ev: Any, cat: Any, pos: Any,
                    beta: float, warnings: list[WarningEntry], reasons: dict[str, str] | None = None,
                    extra: Collection[str] = (), binary: bool = False, two_class: bool = False
                    ) -> list[MetricEntry]:
    """The recommended metrics, then every other computed one (appendix); a recommended metric the
    data cannot give is a warning, its reason kept in ``reasons``. ``extra``: ids computed apart (the score
    and cost metrics of the item-level outputs)."""
    computed = [*(ev.metrics[next(iter(ev.metrics))] if ev is not None else []), *extra]
    entries: list[MetricEntry] = []
    seen: set[str] = set()
    # one notation in the Definitions: a two-class task whose reported metrics score probabilities writes every
    # formula with y_t (1 or 0) and p_t, the positive class's probability (field readers met p_t, p_tj and s_t for
    # one number, and y_t as a class and as 0/1)
    binary_probs = binary and any(getattr(cat.metrics.get(mid.split("@", 1)[0]), "needs_probabilities", False)
                                  for _, mid, _, _ in rec_items)
    for role, mid, reason, params in rec_items:
        if mid in seen:
            continue
        if ev is not None and mid not in computed:
            spec = METRICS.get(mid)
            why = ("it needs predicted probabilities" if spec is not None and spec.needs_probabilities
                   else "it needs a positive class of a two-class task" if spec is not None and spec.binary_only
                   else "it is not computed from a confusion matrix")
            warnings.append(WarningEntry(code="metric_not_computed", source="report",
                                         message=f"{mid} was recommended but is not reported: {why}."))
            if reasons is not None:
                reasons[mid] = why
            if role != "primary":
                continue
        seen.add(mid)
        entries.append(_metric_entry(mid, cat.metrics.get(mid.split("@", 1)[0]), role, reason, params, pos, beta,
                                     binary_probs, two_class))
    for mid in computed:
        if mid not in seen and not (METRICS.get(mid) and METRICS[mid].alias_of):
            entries.append(_metric_entry(mid, cat.metrics.get(mid), "appendix", None, {}, pos, beta, binary_probs,
                                         two_class))
            seen.add(mid)

    external = {lead for lead, _, _ in EXTERNAL.values()}  # spans, rankings: measured by another tool
    for m in entries:
        if not m.formula and m.id not in external:
            _LOG.warning("metric %s has no formula in the catalogue", m.id)
    return defined_once(_one_fallback_symbol(entries, pos), cat)


def _one_fallback_symbol(entries: list[MetricEntry], pos: Any) -> list[MetricEntry]:
    """One symbol for one class: when the out-of-scope class of in-scope accuracy ($o$) is the fallback class of the
    wrong-action or fallback rate ($f$), in-scope accuracy is written with $f$ (the intent reader: "$f$ and $o$ name
    the same class; use one")."""
    fallback = next((m for m in entries if m.role != "appendix" and m.params.get("fallback_class") is not None
                     and m.symbols and "f" in m.symbols), None)
    if fallback is None or fallback.symbols is None:
        return entries
    out = []
    for m in entries:
        o = m.params.get("positive_label", pos)
        if m.id == "in_scope_accuracy" and m.symbols and set(m.symbols) == {"o"} and o is not None \
                and str(o) == str(fallback.params["fallback_class"]):
            symbols = {"f": fallback.symbols["f"]}
            m = m.model_copy(update={"formula": m.formula.replace(r"\neq o", r"\neq f"), "symbols": symbols,
                                     "where": where_clause(symbols)})
        out.append(m)
    return out


def defined_once(entries: list[MetricEntry], cat: Any, before: Sequence[MetricEntry] = ()) -> list[MetricEntry]:
    """Each symbol of the reported formulas defined once, after the first formula that uses it: the four partition
    indices repeated the contingency table and its pair counts four times over (issue 22). A symbol that means
    something else in a later formula is defined again there. ``before``: formulas above these, whose symbols
    count as said (they are not rewritten)."""
    said: dict[str, str] = {k: v for m in before if m.role != "appendix" for k, v in (m.symbols or {}).items()}
    for m in entries:
        rec = cat.metrics.get(m.id.split("@", 1)[0])
        symbols = m.symbols if rec is not None and m.symbols is not None else getattr(rec, "symbols", None)
        if m.role == "appendix" or rec is None or not symbols:
            continue
        fresh = {k: v for k, v in symbols.items() if said.get(k) != v and k not in SHARED_NOTATION}
        if fresh != symbols:
            m.where = where_clause(fresh)
        said.update(symbols)
    return entries


def undefined_values(records: Sequence[Any]) -> int:
    """How many values were undefined: one per quantity, class and cause, however many metrics it reached — the
    count the methods say, and the appendix's rows by cause list (issue 22 item 7: counts that agree)."""
    return len({(u.quantity, u.label, u.reason) for u in records})


def _results(ev: Any, systems: Mapping[str, Any], entries: Sequence[MetricEntry], zero: Mapping[str, int]) -> _Results:
    """Per-system values, per-class rows, confusion counts and undefined values; chance rows."""
    out = _Results()
    for name in ev.systems:
        cm = systems[name]
        rows = []
        for lab in cm.labels:
            r = ev.per_class[name][str(lab)]
            rows.append(PerClassRow(label=str(lab), support=r["support"], predicted=r["predicted"],
                                    precision=_f(r["precision"]), recall=_f(r["recall"]), f1=_f(r["f1"]),
                                    jaccard=_f(r.get("jaccard")), specificity=_f(r.get("specificity")),
                                    npv=_f(r.get("npv"))))
        und = [UndefinedEntry(metric=str(u["metric"]), quantity=str(u["quantity"]),
                              label=None if u.get("label") is None else str(u["label"]),
                              reason=str(u["reason"]), resolution=str(u["resolution"]), value=_f(u.get("value")))
               for u in ev.undefined[name]]
        out.undefined_total += undefined_values(und)
        out.reports.append(SystemReport(
            name=name,
            values={m: _f(v) for m, v in ev.metrics[name].items()},
            per_class=rows,
            # the k × k matrix only where a reader looks at it; above MANY_CLASSES the top confusions
            confusion=[[float(x) for x in row] for row in cm.counts] if cm.k <= MANY_CLASSES else [],
            top_confusions=top_confusions(cm),
            undefined=und,
            log_loss_zero=zero.get(name) if "log_loss" in ev.metrics[name] else None,
        ))
    for m in entries:
        if m.id in ev.chance:
            ch = ev.chance[m.id]
            out.chance.append(ChanceRow(metric=m.id, uniform=_f(ch.get("uniform")),
                                        prevalence=_f(ch.get("prevalence")), majority=_f(ch.get("majority"))))
    return out


def _ordinal_chance(results: _Results, ordinal: Any, entries: Sequence[MetricEntry], undefined: str) -> None:
    """Chance rows of the plan's ordinal metrics on the first system's class sizes, with the best constant prediction
    (:func:`advisor.engine.ordinal_chance_levels`): adjacent agreement is read against a constant middle score."""
    if not results.reports or results.reports[0].name not in ordinal.systems:
        return
    have = {c.metric for c in results.chance}
    ids = [m.id for m in entries if m.id not in have and m.id in results.reports[0].values
           and getattr(STRUCTURE_METRICS.get(m.id), "structure", None) == "ordinal"]
    levels = ordinal_chance_levels(ordinal.systems[results.reports[0].name], ids, undefined)
    for mid in ids:
        if mid in levels:
            ch = levels[mid]
            results.chance.append(ChanceRow(
                metric=mid, uniform=_f(ch["uniform"]), prevalence=_f(ch["prevalence"]), majority=_f(ch["majority"]),
                constant=_f(ch["constant"]),
                constant_class=None if ch["constant_class"] is None else str(ch["constant_class"])))


def _uncertainty(results: _Results, systems: Mapping[str, Any], joint: Any, entries: Sequence[MetricEntry],
                 cat: Any, st: _Settings) -> None:
    """Intervals (paired when the systems share items), winners, differences and ranking agreement."""
    computed = set(results.reports[0].values) if results.reports else set()
    matrix_ids = [m.id for m in entries if m.id in computed and _of_matrix(m.id)]
    if st.bootstrap > 0 and matrix_ids:
        if joint is not None:
            _paired_intervals(results, joint, matrix_ids, cat, st)
        else:
            _unpaired_intervals(results, systems, matrix_ids, st)
    if results.figures.ranking is None and len(results.reports) > 1:
        results.figures.ranking = _point_ranking(results.reports, [m.id for m in entries if _of_matrix(m.id)])


def _of_matrix(mid: str) -> bool:
    """A metric of the confusion matrix of decisions: of the registry, or the figure of one named class (f1@deny)."""
    return (mid in METRICS and not METRICS[mid].needs_probabilities) or class_metric(mid) is not None


def _paired_intervals(results: _Results, joint: Any, matrix_ids: list[str], cat: Any, st: Any, cmp: Any = None) -> None:
    if cmp is None:  # structured systems bring their own (report/_build_structures.py)
        cmp = compare_joint(joint, n_resamples=st.bootstrap, seed=st.seed, metrics=matrix_ids,
                            confidence=st.confidence, positive_label=st.pos, beta=st.beta,
                            undefined=st.undefined, progress=st.progress, class_weights=getattr(st, "weights", None),
                            f1_classes=getattr(st, "f1_classes", None), fallback_class=getattr(st, "fallback", None),
                            action_classes=getattr(st, "action_classes", None),
                            groups=getattr(st, "groups", None), runs=getattr(st, "runs", None),
                            method=getattr(st, "method", "auto"))
    reports, figures = results.reports, results.figures
    results.test, results.mcnemar = (cmp.test or None), [t.model_dump() for t in getattr(cmp, "mcnemar", [])]
    for rep in reports:
        for mid, mc in cmp.metrics.items():
            if (sr := mc.systems.get(rep.name)) is None:
                continue
            rep.intervals[mid] = estimate_of(sr)
            rep.p_first[mid] = _f(sr.p_first)
            rep.rank_interval.update({mid: list(mc.rank_intervals[rep.name])} if rep.name in mc.rank_intervals else {})
    if len(reports) > 1:
        results.winners = {mid: list(mc.winners) for mid, mc in cmp.metrics.items()}
        ra = cmp.ranking_agreement
        figures.ranking = RankingData(metrics=list(ra.metrics), kendall=ra.kendall, spearman=ra.spearman, note=ra.note)
    if len(reports) == 2:
        a, b = reports[0].name, reports[1].name
        figures.difference_pair = [a, b]
        for mid in cmp.metrics:
            d = cmp.difference(a, b, mid)
            sign = 1.0 if cat.metrics.get(mid) is None or cat.metrics[mid].higher_is_better else -1.0
            pair = next((p for p in cmp.metrics[mid].pairs if {p.a, p.b} == {a, b}), None)
            info = {} if pair is None else {"p_a_better": cmp.probability_better(a, b, mid), "p_value": pair.p_value,
                                            "test": pair.test, "resolvable": pair.resolvable,
                                            "method": d.method}
            figures.differences.append(difference_row(mid, d.estimate, d.low, d.high, sign, info))
    results.intervals = IntervalSettings(method=cmp.method, n_resamples=cmp.n_resamples, confidence=cmp.confidence,
                                         seed=cmp.seed, paired=True, classes=getattr(cmp, "classes", "free"),
                                         redrawn=dict(getattr(cmp, "redrawn", {})),
                                         absent_classes=dict(getattr(cmp, "absent_classes", {})),
                                         one_group_classes=list(getattr(cmp, "one_group_classes", [])))


def _unpaired_intervals(results: _Results, systems: Mapping[str, Any], matrix_ids: list[str], st: _Settings) -> None:
    # the same seed for every system, as `advisor compute --bootstrap N --seed S`: each
    # interval can be reproduced from its own matrix alone
    m = len(results.reports)
    design = "free"
    for i, rep in enumerate(results.reports):
        # one progress over every system's resamples (the i-th system's after the i before it)
        step = None if st.progress is None else (lambda done, total, i=i: st.progress(i * total + done, m * total))
        bs = run_bootstrap(systems[rep.name], n_resamples=st.bootstrap, confidence=st.confidence, seed=st.seed,
                           metrics=matrix_ids, positive_label=st.pos, beta=st.beta, undefined=st.undefined,
                           class_weights=st.weights, f1_classes=st.f1_classes, fallback_class=st.fallback,
                           action_classes=st.action_classes,
                           progress=step)
        for mid in matrix_ids:
            rep.intervals[mid] = estimate_of({**bs[mid], "method": bs.methods[mid], "reason": bs.reasons[mid]})
        design = bs.classes  # each system's own resamples: how many lacked a class differs between systems
    results.intervals = IntervalSettings(n_resamples=st.bootstrap, confidence=st.confidence, seed=st.seed,
                                         paired=False, classes=design)


def _prevalence_figure(results: _Results, systems: Mapping[str, Any], rec_json: Mapping[str, Any], ev: Any,
                       st: _Settings) -> None:
    """How the primary metric moves with the share of one class (left out when it cannot be drawn)."""
    primary_id = str(rec_json["primary"]["metric"])
    computed = ev.metrics[next(iter(ev.metrics))]
    spec = METRICS.get(primary_id)  # an ordinal lead beside risks is no confusion-matrix metric of the registry
    if primary_id not in computed or spec is None or spec.needs_probabilities:
        return

    first = next(iter(systems.values()))
    cls = st.pos if (st.pos is not None and first.k == 2) else None
    figures = results.figures
    try:
        for rep in results.reports:
            s = prevalence_sensitivity(systems[rep.name], primary_id, class_label=cls, grid=49,
                                       positive_label=st.pos, beta=st.beta, undefined=st.undefined)
            figures.prevalence.append(PrevalenceCurve(
                system=rep.name,
                share=[float(x) for x in s["share"]],
                value=[_f(x) for x in s["value"]],
                observed_share=float(s["observed_share"]),
                observed_value=_f(s.get("observed_value")),
            ))
            figures.prevalence_class = str(s["class_label"])
        figures.prevalence_metric = primary_id
        if all(_flat(c.value) for c in figures.prevalence):
            figures.prevalence = []  # a prevalence-invariant metric: a flat line says nothing
    except InputError as exc:
        figures.prevalence = []
        _LOG.info("no prevalence curve: %s", exc)


def _flat(values: Sequence[float | None]) -> bool:
    vals = [v for v in values if v is not None]
    return not vals or max(vals) - min(vals) < 1e-9


def _methods_and_references(answers_dict: Mapping[str, Any], rec_json: Mapping[str, Any],
                            entries: list[MetricEntry], cat: Any, bib: Mapping[str, Any], *,
                            given: set[str] | None, task: TaskInfo | None, undefined: str, results: _Results,
                            evaluated: bool, digits: int, scores: Any = None,
                            promised: Sequence[str] | None = None, unreported: Sequence[str] = (),
                            identities: Sequence[Sequence[Any]] | None = None, chosen: bool = False,
                            systems: int = 0) -> tuple[list[Any], Any, list[Reference]]:
    """The methods paragraphs, the justification, and the references they cite (cited ones only). ``chosen``: the
    author chose an undefined-value convention other than the one the text would otherwise follow (an option), a
    decision of the method the text states before data. ``systems``: before data, the number of systems the answers
    give (0 unknown); with data, the data's."""
    status = _property_status(cat, [m.id for m in entries if m.role != "appendix"]
                              + [str(_get(d, "metric")) for d in rec_json.get("discouraged") or []], bib)

    def cite(author: str, year: str) -> str | None:
        for k, e in bib.items():
            if author.lower() in e.fields.get("author", "").lower() and e.year == year:
                return k
        return None

    extra = score_sentences([m.id for m in entries if m.role != "appendix"], scores, cite,
                            k=task.k if task is not None else 2 if answers_dict.get("task") == "binary" else None,
                            labels_shown=per_class_promised(promised or ()), answers=answers_dict,
                            names={m.id: m.name for m in in_field_terms(entries, answers_dict)})
    beside = {m.id: m for m in entries}
    for sentence, keys in extra:  # a convention of one formula is said after that formula
        owner = beside.get(getattr(sentence, "metric", None) or "")
        if owner is not None:
            owner.where = with_convention(owner.where, sentence, keys)
    extra = [(s, k) for s, k in extra if getattr(s, "metric", None) not in beside]
    zero = {r.name: r.log_loss_zero for r in results.reports if r.log_loss_zero is not None}
    # under omit, a mean's 1/k counts only the classes kept: said after its formula, where k is read (the s20 readers)
    for mid, sentence in mean_conventions(list(beside.values()), task, answers_dict, undefined,
                                          results.intervals).items():
        beside[mid].where = with_convention(beside[mid].where, sentence, [])
    if "log_loss" in beside and not (evaluated and any(zero.values())):  # else the paragraph says it, with counts
        beside["log_loss"].where = with_convention(beside["log_loss"].where, log_loss_clip_text(), [])
    methods = build_methods(
        answers_dict, rec_json, entries, names={**{m: r.name for m, r in cat.metrics.items()},
                                                **{m.id: m.name for m in entries}},
        property_status=status, cite=cite, given=given,
        cite_source=lambda src: [k for k in _keys_in(src, bib) if k in bib], task=task, convention=undefined,
        undefined_count=results.undefined_total if evaluated else None, chance=results.chance,
        log_loss_zero={r.name: r.log_loss_zero for r in results.reports if r.log_loss_zero is not None},
        intervals=results.intervals, n_systems=len(results.reports) or systems, digits=digits,
        extra=extra, promised=promised, unreported=unreported, identities=identities,
        split_seed=(getattr(scores, "selective_split", None) or {}).get("seed"),
        undefined_met={u.metric for r in results.reports for u in r.undefined}, convention_chosen=chosen,
    )
    names = {**{m: r.name for m, r in cat.metrics.items()}, **{m.id: m.name for m in entries}}
    justification = build_justification(rec_json, lambda src: [k for k in _keys_in(src, bib) if k in bib], names)
    paras = [*methods, *([justification] if justification is not None else [])]
    paras_and_formulas = [*paras, *[m.where for m in entries if m.where is not None]]
    used: list[str] = [k for p in paras_and_formulas for spans in [p.spans, *p.items] for sp in spans
                       if sp.kind == "cite" for k in sp.keys]
    if justification is not None:  # works a step names in its text are not cited after it again
        used += _keys_in(" ".join(sp.text for spans in justification.items for sp in spans), bib)
    references = [Reference(key=key, text=bib[key].text, short=bib[key].short, bibtex=bib[key].raw)
                  for key in dict.fromkeys(used) if key in bib]
    for m in entries:
        m.references = [k for k in m.references if k in bib]
    for p in paras_and_formulas:
        for spans in [p.spans, *p.items]:
            for sp in spans:
                if sp.kind == "cite":
                    sp.keys = [k for k in sp.keys if k in bib]
    return methods, justification, references


def _context(title: str | None, digits: int, task: TaskInfo | None, undefined: str, answers_dict: dict[str, Any],
             rec_json: Mapping[str, Any], entries: list[MetricEntry], cat: Any, methods: list[Any],
             results: _Results, warnings: list[WarningEntry], references: list[Reference]) -> ReportContext:
    reports = results.reports
    if title is None:
        title = "Evaluation of " + (re.sub(r", (?=[^,]*$)", " and ", ", ".join(s.name for s in reports)) if 0 < len(reports) <= 4 else
                                    f"{len(reports)} classifiers" if reports else "a classifier")
    discouraged = []
    for item in rec_json.get("discouraged") or []:
        mid = str(_get(item, "metric"))
        rec = cat.metrics.get(mid)
        discouraged.append({"metric": mid, "name": rec.name if rec else mid, "reason": str(_get(item, "reason", ""))})
    return ReportContext(
        advisor_version=__version__,
        title=title,
        digits=digits,
        task=task,
        convention=undefined,
        convention_scorer=(field_scorer(answers_dict, undefined) or (None, []))[0],
        answers=answers_dict,
        primary=str(rec_json["primary"]["metric"]),
        metrics=entries,
        discouraged=discouraged,
        methods=methods,
        systems=reports,
        winners=results.winners,
        chance=results.chance,
        intervals=results.intervals,
        warnings=warnings,
        references=references,
        figures=results.figures,
        notes=answers_dict.get("notes"),
    )


def _favourable(plan: Plan | None, first: Any) -> Any:
    """The class whose decision favours the item (the plan's adverse impact ratio), as the data name it; None when
    the plan has no such ratio or the data lack the class."""
    d = plan.diagnostic("adverse_impact") if plan is not None else None
    if d is None or first is None:
        return None
    return next((c for c in getattr(first, "labels", ()) if str(c) == str(d.params.get("favourable"))), None)


def _score_identities(sub_json: Mapping[str, Any] | None) -> list[list[Any]] | None:
    """The ``[column, value]`` pairs over which the Jigsaw bias score was computed (the first system's that has
    them), None when it was not computed: the methods then speak of it as before data."""
    for e in ((sub_json or {}).get("bias_score") or {}).values():
        if e.get("identities"):
            return [list(x) for x in e["identities"]]
    return None


def _smd_order(plan: Any, first: Any) -> list[Any] | None:
    """The class order of an ordinal task's subgroup SMD: the plan's, else the answers' classes, else the labels
    when all are numbers (their numeric order)."""
    order = order_of(plan) or (list(plan.task.classes) if plan.task.classes else None)
    if order is not None:
        return order
    labels = list(getattr(first, "labels", None) or [])
    try:
        return sorted(labels, key=float)
    except (TypeError, ValueError):
        return None
