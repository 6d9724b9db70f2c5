"""The report carries out the plan: its metrics with their parameters, its diagnostics as tables, its promises.

The methods paragraph says "we also give …" only for diagnostics the report shows, and every metric of
the plan is computed with the parameters the plan states (the class of interest, β, the class weights,
the costs and shares).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names
from ..catalogue import get_catalogue
from ..engine import METRICS, NEEDS_PARAMETERS, ONE_VS_REST, PRIOR_SCORES, ConfusionMatrix, class_metric, \
    compute_metrics
from ..plan import Avoided, Plan, PlanOptions, make_plan
from ..questionnaire import external_metrics, join_words, load_fields, lower_name, plural
from ..stats import project_to_prevalence, projected_score_intervals, stratified_estimates
from ._actions import ACTIONS_PROMISE, actions_tables
from ._budget import BUDGET_PROMISE
from ._risk_limit import LIMIT_PROMISE
from ._subgroups import rates_in_order, shares_free
from ._judge import judge_table
from ._methods_text import PROMISE, PROMISE_AT_PRIORS, PROMISE_AT_PRIORS_BINARY, PROMISE_GAPS, PROMISE_SUBGROUPS
from ._methods_text import GAPS_WHY, subgroups_phrase
from ._methods_text import PROMISE_AT_PRIORS_EQUAL, PROMISE_AT_PRIORS_LISTED, PROMISE_AT_PRIORS_MANY, PROMISE_AT_PRIORS_ROWS, \
    PROMISE_AT_PRIORS_SCORES
from ._models import HEATMAP_RATERS, SystemReport, TableBlock

__all__ = [
    "agreement_tables",
    "class_weights_of",
    "f1_classes_of",
    "diagnostic_tables",
    "extra_metric_ids",
    "fallback_of",
    "action_classes_of",
    "metric_items",
    "plan_for",
    "promises",
    "unreported_planned",
    "rec_json_of",
    "settle",
    "wants_class_of_interest",
]


def plan_for(answers: Any, data: Any, options: PlanOptions) -> Plan:
    """The plan of a report: the given one, or made from the answers, the data and the run's options. Its
    undefined-value convention is the one the report uses everywhere (engine, intervals, tables, text): the run's
    choice, else the field's, else advisor's; a plan given as is that meets a run choosing another takes the run's,
    recorded as such (``undefined_from: option``)."""
    if not isinstance(answers, Plan):
        return make_plan(answers, data=data, options=options)
    plan, chosen = answers, options.undefined
    if chosen is None or chosen == plan.design.undefined:
        return plan
    design = plan.design.model_copy(update={"undefined": chosen, "undefined_from": "option"})
    return plan.model_copy(update={"design": design})


def rec_json_of(plan: Plan) -> dict[str, Any]:
    """The recommendation's JSON with the plan's metrics and parameters in the lead and beside it."""
    rec = dict(plan.recommendation)
    # a lead of several rows (net benefit at each risk threshold): the first is the lead's id, every row is computed
    first, *more = plan.lead_rows()
    rec["primary"] = {"metric": first.id, "params": _legacy(first.params)}
    rec["complementary"] = [{"metric": m.id, "reason": m.reason, "params": _legacy(m.params)}
                            for m in (*more, *plan.beside)]
    rec["discouraged"] = [{"metric": a.id, "reason": a.reason} for a in plan.avoid]
    return rec


def _legacy(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters as the report's builders read them: priors only as shares (the test set's are the default)."""
    return {k: v for k, v in params.items() if not (k == "priors" and not isinstance(v, Mapping))}


def metric_items(plan: Plan) -> list[tuple[str, str, str | None, dict[str, Any]]]:
    """``(role, id, reason, params)`` of the lead and every metric beside it."""
    return [*[("primary", m.id, m.reason or None, _legacy(m.params)) for m in plan.lead_rows()],
            *[("complementary", m.id, m.reason or None, _legacy(m.params)) for m in plan.beside]]


def settle(plan: Plan, computed: Collection[str], reasons: Mapping[str, str]) -> Plan:
    """The plan as carried out on the data: metrics beside the lead that the data cannot give move to
    ``not_computed`` with the reason; a lead the data cannot give is refused in one sentence."""
    def missing(m: Any) -> bool:
        return m.family != "external" and m.id not in computed

    lost = next((m for m in plan.lead_rows() if missing(m)), None)
    if lost is not None:
        why = reasons.get(lost.id, "the data do not give it")
        raise InputError(f"the plan leads with {plan.lead.name}, which these data cannot give ({why}); give the "
                         "outputs it needs, or change the answers.")
    gone = [m for m in plan.beside if missing(m)]
    if not gone:
        return plan
    settled = plan.model_copy(update={
        "beside": [m for m in plan.beside if not missing(m)],
        "not_computed": [*plan.not_computed, *(Avoided(id=m.id, name=m.name, reason=reasons.get(
            m.id, "the data do not give it")) for m in gone)],
    })
    settled._rec = plan._rec
    return settled


def class_weights_of(plan: Plan) -> dict[str, float] | None:
    """The class weights of the plan's class-weighted recall or accuracy (both take them from the answers)."""
    for mid in NEEDS_PARAMETERS:
        spec = plan.spec(mid)
        if spec is not None and spec.params.get("class_weights"):
            return spec.params["class_weights"]
    return None


def f1_classes_of(plan: Plan) -> list[str] | None:
    """The classes the plan's macro F1 over chosen classes averages over (F1^PN: positive and negative)."""
    spec = plan.spec("macro_f1_of_classes")
    return list(spec.params["f1_classes"]) if spec is not None and spec.params.get("f1_classes") else None


def action_classes_of(plan: Plan) -> list[str] | None:
    """The classes that lead to the action of interest, of the plan's sensitivity or specificity of that action."""
    for mid in ("action_sensitivity", "action_specificity"):
        spec = plan.spec(mid)
        if spec is not None and spec.params.get("action_classes"):
            return [str(c) for c in spec.params["action_classes"]]
    return None


def fallback_of(plan: Plan) -> str | None:
    """The class whose prediction takes no action, of the plan's wrong-action or fallback rate (fallback_class)."""
    for mid in ("wrong_action_rate", "fallback_rate"):
        spec = plan.spec(mid)
        if spec is not None and spec.params.get("fallback_class") is not None:
            return str(spec.params["fallback_class"])
    return None


def wants_class_of_interest(plan: Plan) -> bool:
    """A one-vs-rest score of a class of interest among three or more classes is in the plan."""
    return plan.task.kind == "multiclass" and any(_of_a_class(m.id) and m.params.get("positive_label") is not None
                                                  for m in plan.metrics)


def _of_a_class(mid: str) -> bool:
    """A score of one class among several (one-vs-rest), or one computed against it (in-scope accuracy)."""
    return mid in ONE_VS_REST or (mid in METRICS and METRICS[mid].needs_positive)


def extra_metric_ids(plan: Plan, k: int) -> list[str]:
    """Plan metrics the default evaluation does not compute: those with user parameters (class weights) and
    one-vs-rest scores of a class of interest among several, or of a class the author names as costly (``f1@deny``)."""
    return [m.id for m in plan.metrics if m.family == "confusion"
            and (m.id in NEEDS_PARAMETERS or (k > 2 and _of_a_class(m.id)) or class_metric(m.id) is not None)]


# ----------------------------------------------------------------------------------------------
# Diagnostics
# ----------------------------------------------------------------------------------------------
def _num(v: float | None, digits: int) -> str:
    return "—" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _recall_spread(reports: Sequence[SystemReport], digits: int) -> TableBlock | None:
    rows = []
    for r in reports:
        rec = [(p.label, p.recall) for p in r.per_class if p.recall is not None and p.support > 0]
        if len(rec) < 2:
            continue
        values = [v for _, v in rec]
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        lo = min(rec, key=lambda t: t[1])
        hi = max(rec, key=lambda t: t[1])
        rows.append([r.name, f"{_num(lo[1], 2)} ({lo[0]})", f"{_num(hi[1], 2)} ({hi[0]})", _num(sd, 2),
                     _num(mean, 2), str(len(values))])
    if not rows:
        return None
    return TableBlock(id="recall_spread", title="Spread of per-class recall",
                      caption="The lowest and highest recall of a class (the class in brackets), the standard deviation "
                              "and the mean over the classes present in the test set.",
                      columns=["system", "minimum", "maximum", "standard deviation", "mean", "classes"],
                      numeric=[False, True, True, True, True, True], rows=rows)


def _dependent(metric_ids: Sequence[str]) -> list[str]:
    """The metrics whose value depends on the class shares (prevalence invariance does not hold)."""
    cat = get_catalogue()
    out = []
    for mid in metric_ids:
        rec = cat.metrics.get(mid)
        claim = rec.properties.get("prevalence_invariance") if rec is not None else None
        if claim is not None and claim.status != "holds":
            out.append(mid)
    return out


def _at_priors_ids(plan: Plan, binary: bool) -> list[str]:
    """The metrics the table at the shares in use projects, those that depend on the shares: the plan's confusion
    metrics, and beside them only a figure that answers what they do not (the retinopathy reader: "accuracy and F1
    at deployment shares are said for nothing once NEC, sensitivity and specificity are given"). The predictive
    values of a class of interest (or macro precision and F1) always: how often a call is right, which no rate per
    true class gives. Accuracy unless a cost is reported, whose expected value at the shares in use already weighs
    every error (accuracy is its case of unit costs). F1 of the class of interest unless its recall is reported: it
    is then the harmonic mean of two figures given."""
    ids = {m.id for m in plan.metrics}
    candidates = [m.id for m in plan.metrics if m.family == "confusion" and m.id not in NEEDS_PARAMETERS]
    if not any(m.family == "cost" for m in plan.metrics):
        candidates.append("accuracy")
    if _accuracy_is_balanced(plan):  # not a second number and interval for the balanced accuracy reported
        candidates = [m for m in candidates if m != "accuracy"]
    if binary:
        candidates += ["precision", "npv"] + ([] if "recall" in ids else ["f1"])
    else:
        candidates += ["macro_precision", "macro_f1"]
    return _dependent(list(dict.fromkeys(i for i in candidates if binary or i not in ONE_VS_REST)))


def _at_priors_score_ids(plan: Plan) -> list[str]:
    """The plan's log loss and Brier scores, which depend on the class shares (each class weighs as its share of the
    test set): the table at the shares in use weighs each class's mean score by its share there
    (:class:`advisor.engine.PriorScores`)."""
    return _dependent([m.id for m in plan.metrics if m.id in PRIOR_SCORES])


def _at_priors_scores(plan: Plan, scores: Mapping[str, Any] | None, systems: Collection[str]) -> list[str]:
    """:func:`_at_priors_score_ids` where every system's probabilities are at hand, else none."""
    if not scores or any(name not in scores for name in systems):
        return []
    return _at_priors_score_ids(plan)


def _equal_shares(shares: Collection[float], least: int = 2) -> bool:
    """Whether there are at least ``least`` class shares and all are equal: every class as common as the others.

    >>> _equal_shares([0.1] * 10), _equal_shares([0.5, 0.5], least=3), _equal_shares([0.9, 0.1])
    (True, False, False)
    """
    values = [float(v) for v in shares]
    return len(values) >= least and max(values) - min(values) < 1e-9


def _accuracy_is_balanced(plan: Plan) -> bool:
    """Whether, at the shares in use, accuracy is the balanced accuracy the plan reports: at equal shares it is, and
    the table would give it a second number and a second interval (the digits report: 0.963 twice, with a BCa and a
    percentile interval)."""
    diag = plan.diagnostic("at_priors")
    shares = ((diag.params.get("priors") if diag is not None else None) or {}).values()
    return _equal_shares(shares) and any(m.id == "balanced_accuracy" for m in plan.metrics)


def _at_priors(plan: Plan, systems: Mapping[str, Any], names: Mapping[str, str], pos: Any, beta: float,
               undefined: str, digits: int, at_priors_json: dict[str, Any] | None = None,
               scores: Mapping[str, Any] | None = None) -> TableBlock | None:
    """The table at the class shares in use; ``scores``: per system, its items' scores by true class
    (:class:`advisor.engine.PriorScores`), for the plan's log loss and Brier score at those shares."""
    diag = plan.diagnostic("at_priors")
    priors = (diag.params.get("priors") if diag is not None else None) or {}
    if not priors or not systems:
        return None
    first = next(iter(systems.values()))
    binary = first.k == 2 and pos is not None
    ids = _at_priors_ids(plan, binary)
    if not ids:
        return None
    scored = _at_priors_scores(plan, scores, systems)
    at_priors_json = {} if at_priors_json is None else at_priors_json
    design = plan.design
    resamples, confidence, seed = design.resamples, design.confidence, design.seed
    has_costs = any(m.family == "cost" and "costs" in m.params for m in plan.metrics)
    target = {str(k): float(v) for k, v in priors.items()}
    rows = []
    record: dict[str, Any] = {"priors": target, "metrics": {}}
    for name, cm in systems.items():
        try:
            now = dict(compute_metrics(cm, ids, positive_label=pos, beta=beta, undefined=undefined))
            shares = {lab: target.get(str(lab), 0.0) for lab in cm.labels}
            there = dict(project_to_prevalence(cm, shares, ids, positive_label=pos, beta=beta, undefined=undefined))
            bands = _projected_intervals(cm, shares, ids, pos, beta, undefined, resamples, confidence, seed)
            if scored and scores is not None:  # each true class's mean score weighted by its share in use
                items = scores[name]
                now.update({m: v for m, v in items.at().items() if m in scored})
                held = {lab: v for lab, v in shares.items() if v > 0}
                there.update({m: v for m, v in items.at(held).items() if m in scored})
                bands.update(projected_score_intervals(items, held, resamples, confidence, seed))
        except InputError:
            return None
        record["metrics"][name] = {}
        for mid in [*ids, *scored]:
            lo, hi = bands.get(mid, (None, None))
            band = f"{_num(lo, digits)} to {_num(hi, digits)}" if lo is not None and hi is not None else "—"
            rows.append([names.get(mid, mid), name, _num(now[mid], digits), _num(there[mid], digits), band])
            record["metrics"][name][mid] = {"test_set": _finite(now[mid]), "estimate": _finite(there[mid]),
                                            "low": _finite(lo), "high": _finite(hi)}
    said = f"every class {next(iter(target.values())):.0%}" if _equal_shares(target.values(), least=3) else \
        ", ".join(f"{c} {v:.0%}" for c, v in target.items())
    costs_note = ("" if has_costs else " No error costs were given, so no expected cost is computed: unit costs "
                  "would be costs nobody chose.")
    band_note = (f" The interval is a {confidence:.0%} bootstrap interval: each resample of the test items is "
                 "projected in turn." if resamples else "")
    cat = get_catalogue().metrics
    named = list(dict.fromkeys(lower_name(cat[m].name) if m in cat else m for m in scored))
    # the scores are not read off the rescaled matrix: how they are projected, in one clause
    score_note = f"; for {join_words(named)}, each true class's mean score is weighted by its share" if named else ""
    at_priors_json.update(record)
    return TableBlock(id="at_priors", title="At the class shares in use",
                      caption=f"Metrics that depend on the class shares, on the test set and projected to the shares "
                              f"in use ({said}) from the per-class rates: each true class's row of the confusion "
                              f"matrix is rescaled to its share (Opitz 2024, §6.3){score_note}.{band_note}{costs_note}"
                              + (" At equal shares accuracy is balanced accuracy, reported with the other metrics."
                                 if _accuracy_is_balanced(plan) else ""),
                      columns=["metric", "system", "test set", "in use", "interval in use"],
                      numeric=[False, False, True, True, False], rows=rows)


def _finite(v: Any) -> float | None:
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else float(v)


def _projected_intervals(cm: Any, shares: Mapping[Any, float], ids: Sequence[str], pos: Any, beta: float,
                         undefined: str, resamples: int, confidence: float, seed: Any) -> dict[str, tuple[float, float]]:
    """Percentile intervals of the projected metrics: resample the test items (the cells of the matrix), then
    project each resample to the shares in use (issue 21, item 5)."""
    import numpy as np

    counts = np.asarray(cm.counts, dtype=np.float64)
    n = counts.sum()
    if resamples <= 0 or n <= 0 or not np.all(counts == np.round(counts)):
        return {}
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(int(n), (counts / n).ravel(), size=resamples).reshape((resamples, *counts.shape))
    values: dict[str, list[float]] = {m: [] for m in ids}
    for c in draws:
        try:
            r = project_to_prevalence(ConfusionMatrix(c.astype(np.float64), cm.labels), shares, ids,
                                      positive_label=pos, beta=beta, undefined=undefined)
        except InputError:  # a resample without a class the shares need: that resample gives no value
            continue
        for m in ids:
            values[m].append(float(r[m]))
    alpha = (1.0 - confidence) / 2.0
    out = {}
    for m, v in values.items():
        arr = np.asarray([x for x in v if math.isfinite(x)])
        if arr.size:
            out[m] = (float(np.quantile(arr, alpha)), float(np.quantile(arr, 1.0 - alpha)))
    return out


def _annotators(structure: Any, items: float | None) -> TableBlock | None:
    raters = getattr(structure, "raters", None) or {}
    if not raters:
        return None
    total = items or max(raters.values())
    if items and all(n >= items for n in raters.values()):
        return None  # every annotator rated every item: a table of zeros says nothing (issue 22: padding)
    caption = "How many items each annotator rated and how many of the items they left unrated."
    shown = list(raters.items())
    if len(raters) > HEATMAP_RATERS:  # many annotators: those with the fewest ratings (every one in the CSV)
        counts = sorted(raters.values())
        shown = sorted(shown, key=lambda kv: kv[1])[:LOWEST_ROWS]
        spread = (f"each rated {counts[0]:,} items" if counts[0] == counts[-1] else
                  f"rated between {counts[0]:,} and {counts[-1]:,} items (median {counts[len(counts) // 2]:,})")
        caption = (f"{len(raters):,} annotators {spread}; the {len(shown)} with the fewest ratings are listed, every "
                   "annotator is in the annotators CSV file beside the report.")
    rows = [[name, f"{n:,}", f"{max(int(total) - n, 0):,}"] for name, n in shown]
    return TableBlock(id="annotator_counts", title="Ratings per annotator", caption=caption,
                      columns=["annotator", "items rated", "missing"], numeric=[False, True, True], rows=rows)


def _cluster_sizes(structure: Any, digits: int) -> TableBlock | None:
    """Two partitions (issue 23, item 3): the reference's clusters once when every system shares it (paired items),
    then each system's — how many, the largest, median and smallest, how many hold one item, the largest's share."""
    clusters = getattr(structure, "clusters", None) or {}
    if not clusters:
        return None
    refs = [c["true"] for c in clusters.values()]
    shared = all(r == refs[0] for r in refs)

    def row(name: str, c: Any) -> list[str]:
        return [name, f"{int(c['clusters']):,}", f"{c['largest']:,.4g}", f"{c['median']:,.4g}", f"{c['smallest']:,.4g}",
                f"{int(c['singletons']):,}", f"{100 * c['largest_share']:.{max(digits - 3, 0)}f} %"]

    rows = [row("reference (y_true)", refs[0])] if shared else []
    for name, c in clusters.items():
        if not shared:
            rows.append(row(f"{name}: reference (y_true)", c["true"]))
        rows.append(row(f"{name} (y_pred)" if shared else f"{name}: clustering (y_pred)", c["predicted"]))
    return TableBlock(id="cluster_sizes", title="Clusters of each partition",
                      caption="How many clusters each partition has and how many items they hold. The cluster ids are "
                              "arbitrary names: only which items share a cluster is compared.",
                      columns=["partition", "clusters", "largest", "median", "smallest", "of one item",
                               "largest's share"],
                      numeric=[False, True, True, True, True, True, True], rows=rows)


#: Rows of the lowest pairs and of the annotators that agree least, in a report with many annotators.
LOWEST_ROWS = 10


def agreement_tables(structure: Any, digits: int) -> list[TableBlock]:
    """With more annotators than :data:`HEATMAP_RATERS`, what a reader needs of their many pairs instead of a
    matrix: how the pairwise kappas spread, the pairs that agree least, the annotators that agree least with the
    others (every pair and annotator is in the CSV files beside the report)."""
    raters = getattr(structure, "raters", None) or {}
    summary = getattr(structure, "pair_summary", None) or {}
    if len(raters) <= HEATMAP_RATERS or not summary:
        return []
    n, pairs = len(raters), int(summary.get("pairs", 0))
    num = lambda v: "—" if v is None else f"{v:.{digits}f}"  # noqa: E731
    spread = TableBlock(
        id="pairwise_kappa", title="Cohen's kappa of the pairs of annotators",
        caption=(f"{n:,} annotators make {pairs:,} pairs, too many to show one by one: how their kappas (each on the "
                 f"items both rated) spread; {summary.get('shared', summary.get('defined', 0)):,} pairs share an item. Every pair is in the "
                 "pairs CSV file beside the report."),
        columns=["pairs", "min", "Q1", "median", "Q3", "max", "mean"], numeric=[True] * 7,
        rows=[[f"{pairs:,}", *(num(summary.get(k)) for k in ("min", "q1", "median", "q3", "max", "mean"))]])
    lowest = getattr(structure, "lowest_pairs", None) or []
    out = [spread]
    if lowest:
        out.append(TableBlock(
            id="lowest_pairs", title="The pairs of annotators that agree least",
            caption=f"The {len(lowest)} pairs with the lowest Cohen's kappa, and how many items both rated.",
            columns=["pair", "kappa", "items both rated"], numeric=[False, True, True],
            rows=[[str(p["pair"]), num(p["kappa"]), f"{int(p['items']):,}"] for p in lowest]))
    means = [(name, v) for name, v in (getattr(structure, "rater_kappa", None) or {}).items() if v is not None]
    if means:
        least = sorted(means, key=lambda kv: kv[1])[:LOWEST_ROWS]
        out.append(TableBlock(
            id="lowest_annotators", title="The annotators that agree least with the others",
            caption=f"The {len(least)} annotators whose mean Cohen's kappa with the other annotators is lowest.",
            columns=["annotator", "mean kappa", "items rated"], numeric=[False, True, True],
            rows=[[name, num(v), f"{raters.get(name, 0):,}"] for name, v in least]))
    return out


def strata_table(shares: Mapping[str, float], systems: Mapping[str, Any], confidence: float = 0.95) -> TableBlock | None:
    """The area-weighted estimates of each system's map (Olofsson et al. 2014): user's and producer's accuracy and
    the area proportion of every class with their intervals, and the overall accuracy, from the sample's matrix
    weighted by the mapped shares of its strata (the predicted classes)."""
    if not shares or not systems:
        return None
    rows = []

    def band(est: float, lo: float, hi: float) -> str:
        return "–" if not math.isfinite(est) else f"{est:.3f} [{lo:.3f}, {hi:.3f}]"

    for name, cm in systems.items():
        labels = list(cm.labels)
        try:
            e = stratified_estimates(np.asarray(cm.counts, dtype=float), {str(k): v for k, v in shares.items()},
                                     [str(lab) for lab in labels], level=confidence)
        except InputError as exc:  # a stratum with fewer than two sample items: said, not a traceback
            raise InputError(f"{name}: {exc}") from None
        (ulo, uhi), (plo, phi), (alo, ahi) = e.users_ci, e.producers_ci, e.area_ci
        for i, lab in enumerate(labels):
            rows.append([name, str(lab), f"{e.weights[i]:.3f}", f"{e.sample_sizes[i]:g}",
                         band(e.users[i], ulo[i], uhi[i]), band(e.producers[i], plo[i], phi[i]),
                         band(e.area[i], alo[i], ahi[i])])
        lo, hi = e.overall_ci
        rows.append([name, "overall accuracy", "1.000", f"{e.sample_sizes.sum():g}", band(e.overall, lo, hi), "", ""])
    return TableBlock(
        id="stratified_estimates", title="Accuracy and area estimated from area proportions",
        caption=(f"Each stratum (map class) weighted by its share of the mapped area (Olofsson et al. 2014): user's and "
                 f"producer's accuracy and the estimated area proportion of each class, {confidence:.0%} intervals from "
                 "the stratified estimator's standard errors (estimate ± z·SE, cut to [0, 1]); the last row of a system "
                 "is its overall accuracy. A dash: a class found in no sample item has no producer's accuracy."),
        columns=["system", "class", "mapped share", "sample items", "user's accuracy", "producer's accuracy",
                 "area proportion"],
        numeric=[False, False, True, True, True, True, True], rows=rows)


#: Most classes whose area-proportion error matrix is shown cell by cell (each cell with its standard error).
STRATA_MATRIX_MAX = 12


def strata_matrices(shares: Mapping[str, float], systems: Mapping[str, Any], digits: int = 4) -> list[TableBlock]:
    """Each system's error matrix in proportions of area (Olofsson et al. 2014, Table 4's form in advisor's
    orientation, rows reference and columns map), every cell with its standard error, the sample items and mapped
    share of every stratum, and — in the caption — the quantity and allocation disagreement that replace kappa
    (Pontius & Millones 2011), point estimates that sum to 1 − overall accuracy."""
    out = []
    for name, cm in systems.items():
        labels = [str(lab) for lab in cm.labels]
        if not shares or len(labels) > STRATA_MATRIX_MAX:
            continue
        e = stratified_estimates(np.asarray(cm.counts, dtype=float), {str(k): v for k, v in shares.items()}, labels)
        cell = f"{{:.{digits}f}} ({{:.{digits}f}})"
        rows = [[lab, *[cell.format(e.proportions[i, j], e.proportions_se[i, j]) for j in range(len(labels))],
                 f"{e.area[i]:.{digits}f}"] for i, lab in enumerate(labels)]
        rows.append(["mapped share", *[f"{w:.{digits}f}" for w in e.weights], "1"])
        rows.append(["sample items", *[f"{b:g}" for b in e.sample_sizes], f"{e.sample_sizes.sum():g}"])
        out.append(TableBlock(
            id="stratified_matrix", title=f"Error matrix in proportions of area: {name}",
            caption=("Each cell is the estimated share of the mapped area of that reference class (row) mapped "
                     "as that class (column), with its standard error in brackets (Olofsson et al. 2014); the last "
                     "column is the estimated area share of each reference class. Quantity disagreement "
                     f"{e.quantity:.{digits}f}, allocation disagreement {e.allocation:.{digits}f} (Pontius & Millones "
                     f"2011); they sum to 1 − overall accuracy, {1 - e.overall:.{digits}f}, and are point estimates."),
            columns=["reference / map", *labels, "area share"],
            numeric=[False, *[True] * (len(labels) + 1)], rows=rows))
    return out


def _class_order(plan: Plan, task: Any) -> TableBlock | None:
    labels = list(getattr(task, "labels", None) or plan.task.classes or [])
    if len(labels) < 2:
        return None
    return TableBlock(id="class_order", title="Order of the classes",
                      caption="Distances between classes are counted in steps of this order, lowest first.",
                      columns=["position", "class"], numeric=[True, False],
                      rows=[[str(i + 1), str(lab)] for i, lab in enumerate(labels)])


def diagnostic_tables(plan: Plan, reports: Sequence[SystemReport], systems: Mapping[str, Any], *, task: Any,
                      names: Mapping[str, str], pos: Any, beta: float, undefined: str, digits: int,
                      structure: Any = None, items: float | None = None,
                      at_priors: dict[str, Any] | None = None,
                      actions: dict[str, Any] | None = None,
                      scores: Mapping[str, Any] | None = None) -> list[TableBlock]:
    """One table for each diagnostic of the plan that is not shown elsewhere in the report; ``at_priors``, when
    given, receives the projected metrics with their intervals (the report's JSON ``"at_priors"``); ``scores``, per
    system, its items' scores by true class (:class:`advisor.engine.PriorScores`) for log loss and the Brier score
    at the shares in use."""
    out: list[TableBlock | None] = []
    for d in plan.diagnostics:
        if d.id == "recall_spread":
            out.append(_recall_spread(reports, 2))
        elif d.id == "at_priors":
            out.append(_at_priors(plan, systems, names, pos, beta, undefined, digits, at_priors, scores))
        elif d.id == "annotator_counts":
            out.append(_annotators(structure, items))
        elif d.id == "class_order":
            out.append(_class_order(plan, task))
        elif d.id == "cluster_sizes":
            out.append(_cluster_sizes(structure, digits))
        elif d.id == "judge_agreement":  # a judge against human raters (issue 22)
            out.append(judge_table(getattr(structure, "judge", None), digits))
        elif d.id == "stratified_estimates":  # a sample drawn by map class (Olofsson et al. 2014)
            out.append(strata_table(d.params.get("map_shares") or {}, systems, plan.design.confidence))
            out.extend(strata_matrices(d.params.get("map_shares") or {}, systems, min(digits, 3)))
        elif d.id == "action_rates":  # classes grouped by the action they lead to
            out.extend(actions_tables(plan, systems, min(digits, 3), actions, reports))
        elif d.id == "cross_tab":  # a diagnostic test's counts against the reference standard (STARD item 23)
            out.append(cross_tab(systems, d.params.get("positive")))
    return [t for t in out if t is not None]


def cross_tab(systems: Mapping[str, Any], positive: Any) -> TableBlock | None:
    """The 2×2 table of each system's calls against the reference standard, with row and column totals (STARD 2015,
    item 23), or None when a system's matrix is not of two classes with ``positive`` among them.

    >>> t = cross_tab({"a": ConfusionMatrix([[90, 10], [5, 15]], ["healthy", "ill"])}, "ill")
    >>> t.columns
    ['System', 'Call', 'Reference “ill”', 'Reference “healthy”', 'Total']
    >>> t.rows
    [['a', '“ill”', '15', '10', '25'], ['a', '“healthy”', '5', '90', '95'], ['a', 'Total', '20', '100', '120']]
    """
    if not systems:
        return None
    rows: list[list[str]] = []
    first = next(iter(systems.values()))
    labels = [str(x) for x in first.labels]
    if len(labels) != 2 or str(positive) not in labels:
        return None
    p = labels.index(str(positive))
    q = 1 - p
    neg = labels[q]
    for name, cm in systems.items():
        if [str(x) for x in cm.labels] != labels:
            return None
        c = np.asarray(cm.counts, dtype=float)  # rows: the reference (true class), columns: the system's call

        def n(x: float) -> str:
            return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.2f}"
        rows.append([name, f"“{positive}”", n(c[p, p]), n(c[q, p]), n(c[p, p] + c[q, p])])
        rows.append([name, f"“{neg}”", n(c[p, q]), n(c[q, q]), n(c[p, q] + c[q, q])])
        rows.append([name, "Total", n(c[p].sum()), n(c[q].sum()), n(c.sum())])
    return TableBlock(id="cross_tab", title="Calls against the reference standard",
                      caption=(f"Each system's calls (rows) against the reference standard (columns): true positives, "
                               f"false positives, false negatives and true negatives of “{positive}”, with the totals "
                               "every reported rate is a share of (Bossuyt et al. 2015, STARD item 23)."),
                      columns=["System", "Call", f"Reference “{positive}”", f"Reference “{neg}”", "Total"],
                      numeric=[False, False, True, True, True], rows=rows)


def shown_diagnostics(plan: Plan, reports: Sequence[SystemReport], tables: Sequence[TableBlock],
                      intervals: Any, structure: Any = None) -> list[str]:
    """The plan's diagnostics the report shows (a table, the per-class table, the ranking under resampling)."""
    ids = {t.id for t in tables}
    out = []
    for d in plan.diagnostics:
        if d.id in ids:
            out.append(d.id)
        elif d.id in ("per_class_recall", "per_class", "per_label", "label_aucs") and reports \
                and all(r.per_class for r in reports):
            out.append(d.id)
        elif d.id == "level_accuracy" and "hierarchy_levels" in ids:
            out.append(d.id)  # the table of the accuracy at each level
        elif d.id == "pairwise_kappa" and structure is not None and getattr(structure, "pairs", None):
            out.append(d.id)  # the figure (and CSV) of every pair's kappa
        elif d.id == "ranking_stability" and len(reports) > 2 and intervals is not None and \
                any(r.p_first for r in reports):
            out.append(d.id)  # the table of P(rank 1) and rank intervals
        elif d.id == "ranking_stability" and len(reports) == 2 and intervals is not None:
            out.append("paired_difference")  # the figure of the paired differences
    return out


#: How the methods paragraph promises each diagnostic ("We also give …").
def promises(plan: Plan, shown: Sequence[str] | None) -> list[str]:
    """The noun phrases the methods paragraph promises: the diagnostics shown (all of them without data)."""
    ids = [d.id for d in plan.diagnostics] if shown is None else list(shown)
    # the per-class table gives precision, recall and F1: where a reported figure averages the classes' F1 (macro F1,
    # the F1 over named classes), their F1 is what the table adds, so it is promised (the s30 RumourEval reader: "the
    # recall of every class" where deny F1 is the field's discriminating figure)
    f1_mean = any(m in ("macro_f1", "macro_f1_of_classes", "weighted_f1") for m in plan.metric_ids)
    out = [_per_class_promise(plan) if i == "per_class" else PROMISE["per_class"]
           if i == "per_class_recall" and f1_mean else _priors_promise(plan) if i == "at_priors"
           else ACTIONS_PROMISE if i == "action_rates" else BUDGET_PROMISE if i == "fpr_budget_check"
           else LIMIT_PROMISE if i == "risk_limit_check" else PROMISE[i]
           for i in ids if i in PROMISE or i in ("action_rates", "fpr_budget_check", "risk_limit_check")]
    item = plan.answered("item_name")
    if item:  # the author's items, not "items" (the per-level accuracy's gloss: "the share of the products whose …")
        out = [x.replace("the items whose", f"the {plural(str(item))} whose") if x == PROMISE["level_accuracy"] else x
               for x in out]
    if plan.design.subgroups:  # the author's fairness question, said first (issue 22: the loan paragraph lost it)
        said = plan.answered("subgroup_descriptions") or {}  # the author's words for the groups, where given
        bias = PROMISE["bias_aucs"] in out  # the scores' AUCs per value: a sentence of their own, said first
        smd = PROMISE["subgroup_smd"] in out  # the signed bias of an ordered score per value: likewise
        figures = [x for x in (PROMISE["subgroup_error_rates"], PROMISE["bias_score"], PROMISE["adverse_impact"])
                   if x in out]  # said after it
        out = [x for x in out if x not in (PROMISE["bias_aucs"], PROMISE["subgroup_smd"], *figures)]
        gapped = _gapped(plan)
        # why those gaps: not for a gap in ROC AUC, which depends on how hard each value's own negatives are to rank
        # although the AUC itself does not depend on the class shares (the tox reader, after Borkan et al. 2019: the
        # clause explained nothing a fairness reader asks; the bias AUCs' decomposition says where a gap comes from)
        why = GAPS_WHY[len(gapped) > 1] if gapped and "ROC AUC" not in gapped else ""
        out.insert(0, PROMISE_SUBGROUPS.format(groups=subgroups_phrase(plan.design.subgroups, said))
                   + (PROMISE_GAPS.format(gaps="gaps" if len(gapped) > 1 else "gap",
                                          figures=join_words(gapped)) + why if gapped else ""))
        out[1:1] = figures
        if bias:
            out.insert(0, PROMISE["bias_aucs"])
        if smd:
            out.insert(0, PROMISE["subgroup_smd"])
    return out


def _gapped(plan: Plan) -> list[str]:
    """The figures whose gap across subgroup values the report gives (:func:`advisor.report._subgroups` gap table):
    in a two-class task the true and false positive rates of the labels, when labels are read (not for scores with
    no threshold in use), and ROC AUC of the scores when it is reported; otherwise the reported metrics that do not
    depend on the class shares."""
    binary = plan.task.kind == "binary" and plan.task.positive_class is not None
    ids = [m.id for m in plan.metrics]
    if not binary:
        cat = get_catalogue().metrics
        return [lower_name(cat[m].name) for m in ids if m in cat and shares_free(m, False)]
    scores = str(plan.answered("outputs") or "labels") != "labels"
    labels = not scores or plan.answered("operating_point") == "fixed"
    # the rate of the costlier error first (the s45 credit reader: "the harm is rejected repayers … lead the fairness
    # section with the FPR gap")
    rates = [{"tpr": "TPR", "fpr": "FPR"}[m]
             for m in rates_in_order(["tpr", "fpr"], plan.answered("costlier_error") == "false_alarm")]
    return [*(rates if labels else []), *(["ROC AUC"] if scores and "roc_auc" in ids else [])]


def _priors_promise(plan: Plan) -> str:
    """"the positive and negative predictive values and the other metrics that depend on the class shares, at the
    shares in use (referable retinopathy 7%)": what the table at the shares in use holds, and the shares (issue 22:
    "the metrics at the class shares in use" named nothing)."""
    diag = plan.diagnostic("at_priors")
    priors = {str(c): float(v) for c, v in ((diag.params.get("priors") if diag is not None else None) or {}).items()}
    pos = plan.task.positive_class
    if not priors:
        return PROMISE["at_priors"]
    if plan.task.kind == "binary" and pos is not None and str(pos) in priors:
        # the metrics the table projects, named (the retinopathy reader: "each other metric" was vague)
        others = [m for m in _at_priors_ids(plan, True) if m not in ("precision", "npv")]
        scores = _at_priors_score_ids(plan)  # log loss and the Brier score, each class's mean weighted by its share
        cat = get_catalogue().metrics
        names = list(dict.fromkeys(lower_name(cat[m].name) for m in [*others, *scores] if m in cat))
        return PROMISE_AT_PRIORS_BINARY.format(shares=f"{pos} {priors[str(pos)]:.0%}",
                                               others=(" and " if len(names) == 1 else ", ") + join_words(names)
                                               if names else "",
                                               how=PROMISE_AT_PRIORS_SCORES if scores else PROMISE_AT_PRIORS_ROWS)
    if _equal_shares(priors.values(), least=3):  # every class as common as the others: said so
        return PROMISE_AT_PRIORS_EQUAL
    if len(priors) > PROMISE_AT_PRIORS_LISTED:  # a list no sentence carries: the table's caption lists the shares
        return PROMISE_AT_PRIORS_MANY.format(k=len(priors))
    return PROMISE_AT_PRIORS.format(shares=join_words([f"{c} {v:.0%}" for c, v in priors.items()]))


def _per_class_promise(plan: Plan) -> str:
    """The per-class table as the author asked for it: "the precision (user's accuracy), recall (producer's accuracy)
    and F1 of every class", or "…, among them the recall of “out-of-scope”"."""
    asked = next((d.params.get("asked") or [] for d in plan.diagnostics if d.id == "per_class"), [])
    own: dict[str, str] = {}
    named: list[str] = []
    for a in asked:
        if a["class"] is None and a["name"].strip().lower() not in a["quantity"].lower() \
                and not a["name"].lower().startswith(("per-class", "class-wise")) \
                and a["name"].lower().split()[0] not in (a["quantity"].lower(), "f1"):
            own.setdefault(a["quantity"], a["name"])
        elif a["class"] is not None:
            named.append(f"the {a['quantity']} of “{a['class']}”")
    words = [f"{q} ({own[q]})" if q in own else q for q in ("precision", "recall", "F1")]
    text = f"the {words[0]}, {words[1]} and {words[2]} of every class"
    field = _field_read(plan)
    if field is not None and {"recall", "precision"} <= set(field.terms):
        # a field that reads the table in its own names says them once (ECG: "the sensitivity (Se), positive
        # predictivity (+P) and F1 of every class"), not the generic names and then its renaming (issue 22)
        text = f"the {field.terms['recall']}, {field.terms['precision']} and F1 of every class"
    if named:
        text += ", among them " + join_words(list(dict.fromkeys(named)))
    return text


def _field_read(plan: Plan) -> Any:
    """The community field the answers name when it reads the per-class table in its own words (fields.yaml
    ``readings.per_class``), else None."""
    fid = plan.answered("field")
    field = load_fields().get(str(fid)) if fid else None
    return field if field is not None and "per_class" in field.readings else None


def unreported_planned(plan: Plan) -> list[str]:
    """What the author is told of each planned metric the plan does not report under its own name, one sentence
    each, as the plan words it (:mod:`advisor.plan._notes`): the input it needs, what the task's structure asks that
    it ignores, or the more specific names it is reported under — never dropped without a word (issue 22: "purity"
    vanished), never a note that says nothing. A planned metric of a task advisor does not evaluate is said there
    already."""
    return [str(use.note) for use in plan.answers if use.key == "planned_metrics" and use.note
            and not external_metrics(str(use.value), plan.task.structure)]


def class_of_interest(plan: Plan, labels: Sequence[Any]) -> Any:
    """The class of interest matched to the data's labels (None when the plan has none)."""
    pos = plan.task.positive_class
    if pos is None:
        return None
    for lab in labels:
        if lab == pos or str(lab) == str(pos):
            return lab
    raise InputError(f"the class of interest {pos!r} is not one of the classes in the data ({few_names(labels)}).")
