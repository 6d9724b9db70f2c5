"""``make_plan``: from the answers (and the options of a run, and the data when known) to the :class:`Plan`.

1. The options of the run override the answers (:mod:`._options`): every later step sees one set of
   costs, shares and positive class.
2. The rule engine recommends (:func:`advisor.questionnaire.recommend`).
3. Its choices become metric specs with their parameters (:mod:`._specs`); the duties of the rules
   that fired become the diagnostics the report shows; the run's options become the design.
4. Every answer is accounted for (:mod:`._usage`), answers that pull apart are said with the one that
   leads, and what advisor does not evaluate is said with what to use instead.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError, arg

from ..catalogue import get_catalogue
from ..engine import METRICS
from ..engine import FOUR_FIFTHS, JIGSAW_POWER, JIGSAW_WEIGHT, LABEL_CUT, check_reject_label, class_metric, \
    favourable_class, identity_values, net_benefit_name, reported_ids, tie_category
from ..questionnaire import (
    BASELINE_THRESHOLDS,
    Answers,
    Recommendation,
    answers_from_mapping,
    left_open_items,
    load_answers,
    load_fields,
    load_rules,
    planned_per_class,
    recommend,
    resolve_planned,
    scope_notes,
    suggest_field,
)
from ..stats import interval_methods, tied_shares
from ._models import DIAGNOSTICS, AnswerUse, Avoided, Design, Diagnostic, Plan, PlanWarning, ScopeNote, TaskSpec, \
    threshold_rows
from ._options import PlanOptions, apply_options, plan_options, undefined_convention
from ._focus import focus_diagnostics, focus_specs
from ._specs import metric_specs
from ._usage import answer_uses, label_quantities, runs_unsupported

__all__ = ["make_plan", "runs_design"]

#: diagnostics that need several systems to be shown
_SEVERAL_SYSTEMS = ("ranking_stability",)


def _answers(answers: Any) -> Answers:
    if isinstance(answers, Answers):
        return answers
    if answers is None or isinstance(answers, Mapping):
        return answers_from_mapping(answers or {})
    if not isinstance(answers, (str, os.PathLike)):
        raise InputError(f"{arg('answers')} must be the path of an answers file, a mapping or an advisor.Answers; "
                         f"got {type(answers).__name__}.")
    return load_answers(answers)


def _data_facts(data: Any) -> tuple[int | None, int | None]:
    """``(k, number of systems)`` the data shows, when given."""
    if data is None:
        return None, None
    systems = getattr(data, "systems", None)
    if isinstance(systems, Mapping) and systems:
        first = next(iter(systems.values()))
        return getattr(first, "k", None), len(systems)
    if isinstance(data, Mapping) and data:
        first = next(iter(data.values()))
        return getattr(first, "k", None), len(data)
    return None, None


def _data_labels(data: Any) -> list[Any] | None:
    """The classes the data shows (every system's labels are the same), when given."""
    systems = getattr(data, "systems", None) if data is not None else None
    systems = systems if isinstance(systems, Mapping) else data if isinstance(data, Mapping) else None
    first = next(iter(systems.values()), None) if systems else None
    labels = getattr(first, "labels", None)
    return list(labels) if labels is not None else None


def _true_labels(data: Any) -> list[Any]:
    """The classes some item of the data truly has (a label only predicted, such as a reject label, is none)."""
    systems = getattr(data, "systems", None) if data is not None else None
    systems = systems if isinstance(systems, Mapping) else data if isinstance(data, Mapping) else None
    first = next(iter(systems.values()), None) if systems else None
    labels, sizes = getattr(first, "labels", None), getattr(first, "true_sizes", None)
    if labels is None or sizes is None:
        return []
    return [lab for lab, size in zip(labels, sizes) if size > 0]


def _net_benefits(beside: list[Any]) -> list[Any]:
    """Net benefit is one metric per risk threshold at which users act: ``net_benefit@t`` (issue 21)."""
    return [row for m in beside for row in threshold_rows(m)]


def _data_items(data: Any) -> float | None:
    """The number of test items the data shows (every system's matrix holds them all), when given."""
    systems = getattr(data, "systems", None) if data is not None else None
    systems = systems if isinstance(systems, Mapping) else data if isinstance(data, Mapping) else None
    first = next(iter(systems.values()), None) if systems else None
    n = getattr(first, "n", None)
    return float(n) if n is not None else None


def _scores_lead(metric: str) -> bool:
    """Whether the lead scores the scores or probabilities themselves (no threshold in it)."""
    record = get_catalogue().metrics.get(metric)
    return bool(record is not None and record.needs_probabilities)


def _recall_mean(reported: set[str]) -> bool:
    """Whether a reported metric is a mean of per-class recalls over several classes (balanced accuracy, macro
    recall, their weighted, geometric and harmonic forms): a class-decomposable mean that does not move with the
    class shares (Opitz 2024, PIII and PIV). The spread of per-class recall over many classes (rule
    per_class_large_k) shows what such a mean hides; beside other metrics (a wrong-action rate, accuracy alone, a
    class's F1) it answers nothing the author asked."""
    cat = get_catalogue().metrics

    def holds(mid: str, pid: str) -> bool:
        claim = cat[mid].properties.get(pid) if mid in cat else None
        return claim is not None and claim.status == "holds"

    return any(mid in cat and not cat[mid].binary_only and holds(mid, "class_decomposability")
               and holds(mid, "prevalence_invariance") for mid in reported)


def _diagnostics(rec: Recommendation, answers: Answers, k: int | None, n_systems: int | None) -> list[Diagnostic]:
    """The duties of the rules that fired, as what the report will show."""
    small_k = load_rules().settings.small_k
    reported = {rec.primary.metric, *(c.metric for c in rec.complementary)}
    both_recalls = (k == 2 or answers.task == "binary") and {"recall", "specificity"} <= reported
    out: dict[str, Diagnostic] = {}
    for entry in rec.rationale:
        for did in entry.diagnostics:
            if did == "per_class_recall_or_spread":
                did = "recall_spread" if k is not None and k > small_k else "per_class_recall"
            if did == "recall_spread" and not _recall_mean(reported):
                continue  # no reported mean of per-class recalls whose spread it shows (the intent reader)
            if did == "per_class_recall" and both_recalls:
                continue  # the recall of both classes is already reported: recall and specificity
            if did == "per_class_recall" and answers.task == "binary" and answers.decision_thresholds:
                continue  # risks acted on at the author's thresholds: recall at the larger probability is no one's
            if did == "per_class_recall" and answers.task == "binary" and answers.operating_point == "open" \
                    and answers.outputs in ("probabilities", "scores") and _scores_lead(rec.primary.metric):
                continue  # two class recalls at a threshold the author left open (issue 22, the toxic-comment reader)

            if did in _SEVERAL_SYSTEMS and n_systems is not None and n_systems < 2:
                continue
            if did in out or did not in DIAGNOSTICS:
                continue
            keys = sorted(k_ for k_ in entry.answers if k_ in answers.model_fields_set)
            params: dict[str, Any] = {}
            if did == "at_priors" and answers.target_prevalence:
                params["priors"] = {str(c): float(v) for c, v in answers.target_prevalence.items()}
                keys = sorted({*keys, "target_prevalence"})
            if did == "label_aucs":  # the planned F1 per label, only as an illustration at the conventional cut
                params = {"quantities": label_quantities(answers.planned_metrics, answers.field), "cut": LABEL_CUT}
                keys = sorted({*keys, *(k_ for k_ in ("planned_metrics", "operating_point", "decision_thresholds")
                                        if k_ in answers.model_fields_set)})
            if did == "stratified_estimates" and answers.map_shares:
                params["map_shares"] = {str(c): float(v) for c, v in answers.map_shares.items()}
                keys = sorted({*keys, "map_shares"})
            out[did] = Diagnostic(id=did, promise=DIAGNOSTICS[did], params=params, reason=entry.title, answers=keys)
    return list(out.values())


def _judge_diagnostic(answers: Answers) -> Diagnostic:
    """The judge against the human raters (Zheng et al. 2023): its agreement rate and Cohen's kappa with each human
    beside the humans' with each other, and the difference with a paired interval; with ordered categories the
    quadratically weighted kappa too (the ordinal studies' kappa)."""
    ordinal = answers.label_structure == "ordinal"
    keys = ["judge", "annotators", "margin", *(["label_structure"] if ordinal else [])]
    margin = answers.margin if isinstance(answers.margin, float) else None  # Δ's verdict (one-sided), when fixed
    return Diagnostic(id="judge_agreement", promise=DIAGNOSTICS["judge_agreement"],
                      params={"judge": answers.judge, "weighted": ordinal,
                              # a pairwise preference with a tie: agreement without ties too (Zheng et al. 2023)
                              "ties": tie_category(list(answers.classes or [])) is not None,
                              "humans": answers.annotators - 1 if answers.annotators else None, "margin": margin},
                      reason="Does the judge agree with the human raters as well as they agree with each other?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _baseline_diagnostic(answers: Answers) -> Diagnostic | None:
    """The individual human scores beside the resolved score (answers key ``rater_columns``): the machine's exact and
    adjacent agreement and QWK with each rater beside the raters' with each other (one rater against one rater on
    both sides), and the degradation with a paired interval; with the author's field's thresholds (automated essay scoring: QWK below 0.70, degradation
    beyond 0.10; Williamson et al. 2012)."""
    if not answers.rater_columns:
        return None
    field = load_fields().get(str(answers.field)) if answers.field else None
    base = field.baseline if field is not None else None
    return Diagnostic(id="human_baseline", promise=DIAGNOSTICS["human_baseline"],
                      params={"raters": list(answers.rater_columns),
                              **{k: getattr(base, k) if base is not None else None for k in BASELINE_THRESHOLDS}},
                      reason="Does the machine agree with each rater as well as the raters agree with each other?",
                      answers=sorted(k for k in ("rater_columns", "field") if k in answers.model_fields_set))


def _bias_diagnostic(answers: Answers) -> Diagnostic | None:
    """With subgroup columns, a binary task, a class of interest and scores or probabilities: per subgroup value the
    subgroup AUC, the BPSN AUC and the BNSP AUC (Borkan et al. 2019), which ask whether the scores rank a subgroup's
    items as they rank the others — the harm of a classifier that scores a subgroup's harmless items high. They read a
    threshold-free ranking (moderation queues, review order): when decisions are taken at a fixed operating threshold
    the per-group error rates at that threshold (every metric within each value) and the adverse impact ratio read
    the decision instead, so none is planned (the loan reader: a toxicity custom has no fair-lending reading)."""
    if not answers.subgroups or answers.task != "binary" or answers.positive_class is None \
            or answers.outputs not in ("probabilities", "scores") or answers.operating_point == "fixed":
        return None
    keys = ["subgroups", "task", "positive_class", "outputs", "operating_point"]
    return Diagnostic(id="bias_aucs", promise=DIAGNOSTICS["bias_aucs"], params={"columns": list(answers.subgroups)},
                      reason="Do the scores rank the items of each subgroup as they rank the others?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _error_rates_diagnostic(answers: Answers) -> Diagnostic | None:
    """With subgroup columns, a binary task, a class of interest, scores or probabilities and the threshold left
    open: within each subgroup value the false positive and false negative rates at one threshold set by a global
    criterion, where the whole test set's two rates are equal (Dixon et al. 2018), and their gaps. A harm done by
    the decisions within a group — a group's harmless items flagged, its harmful ones let through — is an error rate
    at a threshold, which the bias AUCs of the ranking do not measure (the fairness reader). The answers do not say
    which of the two errors a context names, so both rates are given."""
    if not answers.subgroups or answers.task != "binary" or answers.positive_class is None \
            or answers.outputs not in ("probabilities", "scores") or answers.operating_point != "open":
        return None
    keys = ["subgroups", "task", "positive_class", "outputs", "operating_point"]
    return Diagnostic(id="subgroup_error_rates", promise=DIAGNOSTICS["subgroup_error_rates"],
                      params={"columns": list(answers.subgroups), "criterion": "equal_error",
                              "sources": ["dixon2018measuring"]},
                      reason="At one threshold for every group, how often are each group's items flagged wrongly, "
                             "or missed?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _adverse_impact_diagnostic(answers: Answers) -> Diagnostic | None:
    """With subgroup columns, a binary task, a class of interest and labels (given, or made at a fixed operating
    threshold), when the decisions affect the items: per subgroup value the rate of the favourable decision and its
    ratio to the highest value's, against the four-fifths line (29 CFR 1607.4(D)). The decisions affect the items when
    the field reports this figure (``customary`` in fields.yaml: credit scoring) or the class of interest is itself a
    favour (approved, hired). The favourable decision (``favourable``, a declared parameter of the metric) is the
    class of interest when its name is a favour, else the other class (:func:`advisor.engine.favourable_class`): an
    applicant not predicted to default is approved."""
    classes = list(answers.classes or [])
    if not answers.subgroups or answers.task != "binary" or answers.positive_class is None or len(classes) != 2 \
            or not (answers.outputs == "labels" or answers.operating_point == "fixed"):
        return None
    fav = favourable_class(classes, answers.positive_class)
    field = load_fields().get(answers.field) if answers.field else None
    sources = field.customary.get("adverse_impact") if field is not None else None
    if not sources and fav != answers.positive_class:
        return None  # nothing says the decisions favour or harm the items
    keys = ["subgroups", "task", "positive_class", "classes", "outputs", "operating_point",
            *(["field"] if sources else [])]
    return Diagnostic(id="adverse_impact", promise=DIAGNOSTICS["adverse_impact"],
                      params={"columns": list(answers.subgroups), "favourable": str(fav), "line": FOUR_FIFTHS,
                              "sources": list(sources or ["eeoc1978uniform"])},
                      reason="Does each group receive the favourable decision at a rate near the highest group's?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _cross_tab_diagnostic(answers: Answers) -> Diagnostic | None:
    """A two-class test whose field reports its cross tabulation against the reference standard (``customary`` in
    fields.yaml: diagnostic accuracy, STARD 2015 item 23): the 2×2 table of each system's calls, with its totals —
    the counts every reported rate is a share of (the diagnostic-accuracy readers, issue 22)."""
    field = load_fields().get(answers.field) if answers.field else None
    sources = field.customary.get("cross_tab") if field is not None else None
    if not sources or answers.task != "binary" or answers.positive_class is None:
        return None
    keys = ["field", "task", "positive_class"]
    return Diagnostic(id="cross_tab", promise=DIAGNOSTICS["cross_tab"],
                      params={"positive": str(answers.positive_class), "sources": list(sources)},
                      reason="What counts does every rate reported rest on?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _identities(answers: Answers, data: Any) -> int | None:
    """How many identity subgroups the score would be taken over: counted from the values of the subgroup columns
    when the data hold them all (:func:`advisor.engine.identity_values`: the "yes" of a yes/no mention column, else
    every value but one that says no identity is mentioned); None before there are data."""
    ps = getattr(data, "predictions", data) if data is not None else None
    found = getattr(ps, "by", None) or {}
    if not answers.subgroups or any(c not in found for c in answers.subgroups):
        return None
    return sum(len(identity_values([str(v) for v in found[c][1]])) for c in answers.subgroups)


def _bias_score_diagnostic(answers: Answers, data: Any = None) -> Diagnostic | None:
    """Beside the bias AUCs, the final score of the Jigsaw Unintended Bias competition (their summary over identity
    subgroups), unless the answers name a field that does not report it (credit scoring reports the adverse impact
    ratio instead).

    The score is a power mean over several identity subgroups, so it is planned only when they are known to be there
    (the toxic reader: one flag column, "identity_mentioned", gives one identity, and a power mean over one value is
    that value's AUC). The answers name the subgroup columns, not their values: before there are data, one column may
    be a yes/no flag (one identity) or name several identities, so only several columns promise several identity
    subgroups. With data the values tell: at least one identity plans it, said over one identity in the form the
    score takes there (:func:`advisor.report._methods_bias.bias_score_sentence`)."""
    field = load_fields().get(answers.field) if answers.field else None
    if field is not None and "bias_score" not in field.customary:
        return None
    known = _identities(answers, data)
    if (known is None and len(answers.subgroups) < 2) or known == 0:
        return None
    keys = ["subgroups", "task", "positive_class", "outputs", *(["field"] if field is not None else [])]
    return Diagnostic(id="bias_score", promise=DIAGNOSTICS["bias_score"],
                      params={"columns": list(answers.subgroups), "power": JIGSAW_POWER, "weight": JIGSAW_WEIGHT,
                              "sources": list(field.customary["bias_score"]) if field is not None
                              else ["jigsaw2019unintended"]},
                      reason="How do the scores fare overall and for the worst-served identities, as the competition scored it?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _smd_diagnostic(answers: Answers) -> Diagnostic | None:
    """With subgroup columns and ordered classes: per subgroup value the standardized mean difference of predicted
    minus true scores (Williamson, Xi & Breyer 2012), which asks whether the scores of a subgroup are biased up or
    down — what a single agreement figure cannot show."""
    if not answers.subgroups or answers.label_structure != "ordinal":
        return None
    keys = ["subgroups", "label_structure"]
    return Diagnostic(id="subgroup_smd", promise=DIAGNOSTICS["subgroup_smd"], params={"columns": list(answers.subgroups)},
                      reason="Are the scores of each subgroup biased up or down against the true scores?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _actions_diagnostic(answers: Answers) -> Diagnostic | None:
    """Classes grouped by the action they lead to (a child classified "present" or "unknown" is referred alike): the
    confusion matrix collapsed to actions, with the sensitivity and specificity of the action of interest (two
    actions) or the recall of every action."""
    if not answers.actions:
        return None
    keys = ["actions", *(["action_of_interest"] if answers.action_of_interest is not None else [])]
    return Diagnostic(id="action_rates", promise=DIAGNOSTICS["action_rates"],
                      params={"actions": {str(a): [str(c) for c in cs] for a, cs in answers.actions.items()},
                              "of_interest": answers.action_of_interest},
                      reason=("Several classes lead to the same action: is the action right? The action whose miss "
                              "is costly is named, so its rate leads the methods paragraph (an error between classes "
                              "of one action has no consequence the answers name); the metrics follow it."
                              if answers.action_of_interest is not None else
                              "Several classes lead to the same action: is the action right?"),
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _budget_diagnostic(answers: Answers) -> Diagnostic | None:
    """With a false positive rate budget and the labels of the threshold in use (a fixed operating point, or labels
    left unqualified): the false positive rate of those labels with its one-sided upper bound, against the budget —
    the bank's constraint tested where it binds, the deployed threshold (issue 24, the fraud and spam readers)."""
    binary = answers.task == "binary" or answers.k == 2
    if answers.fpr_budget is None or not binary or answers.positive_class is None or answers.operating_point == "open":
        return None
    keys = ["fpr_budget", "positive_class", "operating_point", "group"]
    return Diagnostic(id="fpr_budget_check", promise=DIAGNOSTICS["fpr_budget_check"],
                      params={"max_fpr": float(answers.fpr_budget), "confidence": 0.95, "sided": "upper"},
                      reason="Is the false positive rate of the deployed threshold within the budget?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _risk_limit_diagnostic(answers: Answers) -> Diagnostic | None:
    """With a target risk and a confidence cut fixed in advance (``operating_point: fixed``; the documents the cut
    leaves to a person carry the reject label in the predictions): the coverage at that cut and the error rate of
    its answers with its one-sided upper bound, against the target — the limit tested where it binds, as the
    deployed threshold's false positive rate is against a budget (the legal methodologist: "do this exactly as the
    fraud situation does for its FPR budget")."""
    if not answers.abstention or answers.target_risk is None or answers.operating_point != "fixed":
        return None
    keys = ["abstention", "target_risk", "operating_point", "reject_label", "group"]
    return Diagnostic(id="risk_limit_check", promise=DIAGNOSTICS["risk_limit_check"],
                      params={"target_risk": float(answers.target_risk), "confidence": 0.95, "sided": "upper"},
                      reason="Is the error rate of the answers at the cut fixed in advance within the target risk?",
                      answers=sorted(k for k in keys if k in answers.model_fields_set))


def _per_class_planned(diagnostics: list[Diagnostic], planned: Sequence[str], answers: Answers, k: int | None,
                       reported: Sequence[str] = ()) -> list[Diagnostic]:
    """The per-class table, when a planned name is a per-class figure the catalogue has no entry for ("user's
    accuracy", "out-of-scope recall"): it replaces the table of per-class recall alone, which it contains. Single
    labels with more than two classes only; with two, the recall of either class is a metric of its own."""
    if answers.label_structure != "nominal" or (k is not None and k <= 2) or answers.task == "binary":
        return diagnostics
    asked = [{"name": str(name), "quantity": r.quantity, "class": None if r.cls is None else str(r.cls)}
             for name in planned
             for r in [planned_per_class(name, answers.classes, answers.field, reported)] if r is not None]
    if not asked:
        return diagnostics
    kept = [d for d in diagnostics if d.id != "per_class_recall"]
    return [Diagnostic(id="per_class", promise=DIAGNOSTICS["per_class"], params={"asked": asked},
                       reason="the planned metrics name per-class figures", answers=["planned_metrics"]),
            *kept]  # first: the author asked for it, so a shortened paragraph keeps it


def _design(options: PlanOptions, n_systems: int | None, paired: bool, metric_ids: list[str], scored: bool = False,
            field: str | None = None) -> Design:
    """``scored``: the items are evaluated by their top-k scores, whose ties give an item a fraction of a hit;
    ``field``: the field the answers name, whose scorer's undefined-value convention holds unless the run chose one."""
    convention, origin = undefined_convention(options.undefined, field)
    several = n_systems is None or n_systems > 1
    methods = interval_methods(metric_ids) if options.resamples > 0 else {}
    test = None
    if several and options.resamples > 0:
        # proportions over items both systems classify; not top-k hits from scores, whose ties give fractions (the
        # structure's resampler runs no McNemar test, so the plan names none)
        tested = [] if scored else (["accuracy"] if {"accuracy", "micro_f1"} & set(metric_ids) else []) + [
            m for m in ("recall", "specificity") if m in metric_ids]
        test = "paired bootstrap test of the difference" + (
            "; McNemar's exact test reported beside it for " + " and ".join(tested) if tested else "")
    return Design(
        resamples=options.resamples, confidence=options.confidence, seed=options.seed,
        seed_given=options.seed_given, undefined=convention, undefined_from=origin, systems=n_systems,
        paired=paired and bool(n_systems and n_systems > 1), test=test,
        multiplicity="Holm" if (n_systems is None or n_systems > 2) and options.resamples > 0 else None,
        interval_methods={m: ("bca" if v == "auto" else v) for m, v in methods.items()},
        tied_shares=tied_shares(methods, scored),
    )


def _no_exact(design: Design) -> None:
    """No exact proportion interval where the items' counts are not binomial (units resampled, means over runs): BCa."""
    design.interval_methods = {m: "bca" if v in ("clopper_pearson", "wilson") else v
                               for m, v in design.interval_methods.items()}
    design.tied_shares = []


def _jackknife_units(design: Design, ans: Answers) -> None:
    """Units resampled (patients, speakers): the interval of every confusion-matrix metric of a flat (nominal) task is
    the delete-one-unit jackknife's t interval on G − 1 degrees of freedom and every pair's test its t test
    (:func:`advisor.stats._jackknife.jackknife_t`; Cameron & Miller 2015), since a bootstrap of few units runs narrow
    (benchmarks/README.md, ``bench_few_groups_methods.py``); metrics of scores and of structured labels keep BCa over
    resampled units, as their computation does, and so then does every figure (one interval method in the paragraph)."""
    _no_exact(design)
    resampled = [m for m, v in design.interval_methods.items() if v == "bca"]
    if ans.label_structure not in (None, "nominal") or ans.top_k or any(
            (m not in METRICS and class_metric(m) is None) or (m in METRICS and METRICS[m].needs_probabilities)
            for m in resampled):
        return
    design.interval_methods = {m: "jackknife_t" if v == "bca" else v for m, v in design.interval_methods.items()}
    if design.test is not None and "jackknife_t" in design.interval_methods.values():
        design.test = "jackknife t test of the difference, each unit left out in turn"


def runs_design(design: Design, runs: int | None, ans: Answers | None = None) -> None:
    """The answers' training runs of each system (issue 20 item 4). Several: each system is its mean over its runs,
    resampled over runs and items as ``advisor compare`` does (:mod:`advisor.stats._runs`) — a mean of several runs'
    proportions is not binomial, so no exact interval and no McNemar test, BCa for every metric. With ``ans`` whose
    design a report cannot yet combine over runs (:func:`runs_unsupported`), several runs are not planned: the answer
    is kept as unused, with the reason, and nothing is promised that the report would refuse."""
    if runs is not None and runs > 1 and ans is not None and runs_unsupported(ans) is not None:
        runs = None
    design.runs = runs
    if runs is None or runs < 2:
        return
    _no_exact(design)
    if design.test is not None:
        design.test = "two-stage bootstrap test of the difference of the means over runs (runs and items resampled)"


def _convention_use(uses: list[AnswerUse], design: Design, field: str | None) -> None:
    """The field's answer records the undefined-value convention its scorer follows: the plan's when the run chose
    none, else set aside for the run's choice (the plan keeps every answer and where it went)."""
    f = load_fields().get(field) if field else None
    use = next((u for u in uses if u.key == "field"), None)
    if f is None or f.undefined is None or use is None:
        return
    if design.undefined_from == "field":
        said = (f"the undefined-value convention: {f.undefined}, as in {f.undefined_as}, since the run chose none "
                "(--undefined, undefined=)")
    elif design.undefined == f.undefined:
        said = f"the undefined-value convention: {f.undefined}, as in {f.undefined_as}, which the run also chose"
    else:
        said = (f"not the undefined-value convention: {f.undefined_as} follows {f.undefined}, but the run chose "
                f"{design.undefined}")
    use.used_by.append(said)
    use.unused = None


def _conflicts(answers: Answers, replaced: Mapping[str, str], lead_id: str) -> list[str]:
    """Sentences for answers that pull apart: which one leads, and why."""
    out: list[str] = []
    costs = answers.error_costs is not None
    if costs and answers.class_weighting == "custom" and answers.class_weights:
        if lead_id in ("normalized_expected_cost", "expected_cost"):
            out.append("You gave both error costs and class weights: the expected cost under your costs leads, because "
                       "the costs price every kind of error while the weights only say how much each class counts; "
                       "the weighted mean recall under your weights is reported beside it.")
        elif lead_id in ("f_beta", "f1"):
            out.append("You gave both error costs and class weights: Fβ with β from your costs leads, because true "
                       "negatives carry no information here; the weighted mean recall under your weights is reported "
                       "beside it.")
    for key, what in replaced.items():
        if "(the answers" in what:
            out.append(f"The {what.split(' (')[0]} replaces the answers' {key.replace('_', ' ')}; every metric, "
                       "parameter and sentence uses the value of the option.")
    if answers.target_prevalence and answers.deployment_prevalence == "same":
        out.append("The answers give deployment shares but say the class mix in use is the same as in the test set; "
                   "the test set's shares are used and the stated shares are not.")
    return out


def _scope(rec: Recommendation, answers: Answers) -> list[ScopeNote]:
    """What advisor does not evaluate (issue 23, item 5): the task itself when its outputs are not one class per
    item (spans, rankings, boxes, masks, numbers, texts), and every planned metric the catalogue does not know but
    the table of external metrics does (nDCG, mAP, Dice, BLEU, RMSE, Spearman, …), each with what to use and why."""
    return [ScopeNote(what=n.what, use=n.use, why=n.because, task=n.task, planned_as=n.name)
            for n in scope_notes(answers.label_structure, answers.planned_metrics)]


def make_plan(answers: Any, data: Any = None, *, options: PlanOptions | Mapping[str, Any] | None = None,
              paired: bool = True) -> Plan:
    """The evaluation plan for these answers (a path, mapping or :class:`~advisor.questionnaire.Answers`).

    ``data`` (a prediction set or mapping of confusion matrices) lets the data confirm the task, classes and
    balance, as in :func:`advisor.recommend`; ``options`` are the run's (``costs``, ``priors``,
    ``positive_label``, ``resamples``, ``confidence``, ``seed``, ``undefined``).

    >>> plan = make_plan({"task": "binary", "classes": ["ok", "defect"], "positive_class": "defect",
    ...                   "error_costs": {"false_negative": 400, "false_positive": 4}, "outputs": "labels"})
    >>> plan.lead.id, plan.lead.params["costs"]
    ('normalized_expected_cost', {'fn': 400.0, 'fp': 4.0})
    """
    opts = plan_options(options)
    original = _answers(answers)
    if opts.reject_label is not None:  # issue 23: a reject label that some item truly has is a class
        check_reject_label(opts.reject_label, _true_labels(data))
    effective, replaced = apply_options(original, opts, _data_labels(data), _data_items(data))
    rec = recommend(effective, data=data)
    cat = get_catalogue()
    k, n_systems = _data_facts(data)
    ans = rec.answers  # as the data confirmed them
    if n_systems is None and ans.systems is not None:  # before data, the number of systems the answers give
        n_systems = ans.systems
    planned: dict[str, str] = {}
    for name in effective.planned_metrics:
        for mid in resolve_planned(name, effective.field).ids:
            planned.setdefault(mid, name)
    lead, beside = metric_specs(rec, ans, cat, planned)
    beside = _net_benefits(beside)
    beside += focus_specs(ans, [lead, *beside])  # the classes the author names as costly: figures of their own
    if lead.id == "net_benefit" and lead.params.get("thresholds"):  # it leads at the risks at which users act
        lead.name = net_benefit_name(lead.params["thresholds"])
    lead_ids = [m.id for m in threshold_rows(lead)]  # the ids the report computes for the lead
    if opts.alerts is not None:  # a review budget given as items of this test set (issue 21)
        for m in (lead, *beside):
            if m.id in ("precision_at_k", "recall_at_k"):
                m.params["alerts"] = opts.alerts
    avoid = [Avoided(id=a.metric, name=a.name or a.metric, reason=a.reason) for a in rec.discouraged
             if a.metric not in {lead.id, *(m.id for m in beside)}]
    diagnostics = _diagnostics(rec, ans, k if k is not None else ans.k, n_systems)
    if ans.judge is not None and ans.annotators is not None:  # the author's question leads the argument (issue 22)
        # its table holds every pair's kappa, the humans' pairs included: no second table of the same few pairs
        diagnostics = [_judge_diagnostic(ans), *(d for d in diagnostics
                                                 if d.id != "pairwise_kappa" or ans.annotators > 10)]
    diagnostics = _per_class_planned(diagnostics, effective.planned_metrics, ans, k if k is not None else ans.k,
                                     [lead.id, *(m.id for m in beside)])
    diagnostics = focus_diagnostics(ans, diagnostics)  # a focus class's figure that a diagnostic already gives
    baseline = _baseline_diagnostic(ans)
    if baseline is not None:  # the raters' agreement with each other, the baseline the machine is read against
        diagnostics = [baseline, *diagnostics]
    budget = _budget_diagnostic(ans) or _risk_limit_diagnostic(ans)
    if budget is not None:  # the labels in use against the budget: the constraint the author stated, said first
        diagnostics = [budget, *diagnostics]
    acts = _actions_diagnostic(ans)
    if acts is not None:  # the author's actions: what the reader of a screening asks first, so said first
        diagnostics = [acts, *diagnostics]
    cross = _cross_tab_diagnostic(ans)
    if cross is not None:  # the counts behind every rate, as the field's reporting guideline asks
        diagnostics = [*diagnostics, cross]
    air = _adverse_impact_diagnostic(ans)
    if air is not None:  # decisions that favour or harm the items: the adverse impact ratio per subgroup column
        diagnostics = [air, *diagnostics]
    bias = _bias_diagnostic(ans)
    score = _bias_score_diagnostic(ans, data) if bias is not None else None
    if score is not None:  # the bias AUCs' summary over identity subgroups (the Jigsaw competition's final score)
        diagnostics = [score, *diagnostics]
    rates = _error_rates_diagnostic(ans)
    if rates is not None:  # each group's error rates at one threshold set on the whole test set (Dixon et al. 2018)
        diagnostics = [rates, *diagnostics]
    if bias is not None:  # the subgroups of a binary task's scores: the bias AUCs of Borkan et al. (2019), first
        diagnostics = [bias, *diagnostics]
    smd = _smd_diagnostic(ans)
    if smd is not None:  # the subgroups of an ordered score: the signed bias per value (Williamson et al. 2012), first
        diagnostics = [smd, *diagnostics]
    inferred: dict[str, Any] = {key: getattr(ans, key) for key in ("task", "n_classes", "classes")
                if key in original.model_fields_set and data is not None
                and str(getattr(ans, key)) != str(getattr(original, key))}
    facts = ans.facts()
    uses = answer_uses(original, effective, replaced, rec, load_rules(), facts, lead, beside, avoid, diagnostics,
                       inferred, ans.classes)
    task = TaskSpec(kind=ans.task, k=ans.k, classes=list(ans.classes) if ans.classes else None,
                    positive_class=ans.positive_class, structure=ans.label_structure, top_k=ans.top_k,
                    annotators=ans.annotators)
    warnings = [PlanWarning(code=w.code, message=w.message) for w in rec.warnings]
    suggested = suggest_field(ans.context) if ans.context and not ans.field else None
    computable = reported_ids(ans.label_structure or "nominal")  # () for single labels: every flat metric
    if suggested is not None and computable and not set(suggested.metrics) & set(computable):
        suggested = None  # the field's figure is not computed for this structure (news topics for clusterings)
    if suggested is not None:  # a field is never set from the context, only offered
        warnings.append(PlanWarning(code="field_suggested", message=(
            f"The context reads like {suggested.name}, where {suggested.cite} report {suggested.reports}; name the "
            f"field ({suggested.id}) to report that figure beside the lead.")))
    plan = Plan(
        task=task, lead=lead, beside=beside, avoid=avoid, diagnostics=diagnostics,
        design=_design(opts, n_systems, paired, [*lead_ids, *(m.id for m in beside)], bool(ans.top_k), ans.field),
        answers=uses,
        conflicts=_conflicts(ans, replaced, lead.id), warnings=warnings,
        out_of_scope=_scope(rec, ans), recommendation=rec.to_json_dict(),
        left_open=left_open_items(ans.field, ans.context, ans.notes),
    )
    plan.design.subgroups = list(ans.subgroups)  # per-subgroup results and gaps (issue 23 item 1)
    plan.design.folds = ans.folds  # cross-validation folds: the figures pool them, each fold's lead value beside
    _convention_use(plan.answers, plan.design, ans.field)  # the field's scorer's convention, or the run's choice
    if ans.group and plan.design.unit == "item":  # the answers' unit (issue 20 item 3); the data count the groups
        plan.design.unit, plan.design.unit_words = "group", f"the units given by {ans.group}, not single test items"
        # whole groups are drawn free: a resample of groups drawn again until it held every class covered less
        plan.design.classes = "free"  # (benchmarks/README.md, bench_group_classes.py)
        _jackknife_units(plan.design, ans)  # items of one unit are not independent: the jackknife over the units
    runs_design(plan.design, ans.runs, ans)
    plan._rec = rec
    return plan
