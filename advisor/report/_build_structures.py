"""Stage 1 for ordered classes, label sets, top-k and annotator studies (issue 12).

The same :class:`ReportContext` as :func:`advisor.report.build_report` builds — recommendation,
metrics with their catalogue formulas, bootstrap intervals, undefined values, methods paragraph,
references — from :class:`advisor.io._structures.StructuredInputs`, plus a
:class:`~._models.StructureData` block the structure's figure is drawn from. Rendering to Markdown,
LaTeX, HTML, PDF and JSON is the main pipeline's (:mod:`._render`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .._exceptions import InputError, arg
from .._format import few_names
from ..engine import (
    PARTITION_METRICS,
    PartitionRows,
    confusion_matrix,
    evaluate_inputs,
    human_ratings,
    one_depth,
    per_class,
    reported_ids,
    top_k_hits,
)
from ..io import load, ordinal_from_tables
from ..plan import Plan, PlanOptions
from ..questionnaire import load_answers as load_answers_file
from ..stats import (
    PARTITION_NO_INTERVAL,
    partition_comparison,
    partition_intervals,
    structure_bootstrap,
    structure_comparison,
)
from ._build import (
    _bibliography,
    _catalogue,
    _context,
    _methods_and_references,
    _metric_entry,
    _paired_intervals,
    _Results,
    _warnings_in_words,
    defined_once,
    undefined_values,
)
from ._build import _f as finite
from ._inputs import check_arguments, check_resampling, load_answers
from ._hierarchy import hierarchy_equal, hierarchy_methods, hierarchy_tables
from ._judge import check_judge, definitions_for, judge_figures
from ._plan import (
    agreement_tables,
    diagnostic_tables,
    metric_items,
    plan_for,
    promises,
    unreported_planned,
    rec_json_of,
    settle,
    shown_diagnostics,
)
from ._models import (
    IntervalSettings,
    MetricEntry,
    PerClassRow,
    ReportContext,
    StructureData,
    SystemReport,
    TaskInfo,
    UndefinedEntry,
    WarningEntry,
)
from ._structure_checks import label_words, refuse_external
from ._uncertainty import estimate_of, picked_seed, settle_intervals, uncertainty_tables

__all__ = ["build_structured_report", "check_structured", "inputs_for_answers", "ordinal_tables_for_answers",
           "structure_options"]


def build_structured_report(answers: Any, inputs: Any, *, title: str | None = None, bootstrap: int = 2000,
                            confidence: float = 0.95, seed: int | None = None, undefined: str | None = None,
                            digits: int = 4) -> ReportContext:
    """The report context of a structured evaluation (``inputs`` from :func:`advisor.load_structured`).

    Render it with :func:`advisor.report.render_report`, as a context from :func:`advisor.build_report`.

    >>> import advisor
    >>> inputs = advisor.load_structured([{"y_true": [1, 2, 3, 3], "y_pred": [1, 3, 3, 2]}], order=[1, 2, 3])
    >>> ctx = build_structured_report({"label_structure": "ordinal", "classes": [1, 2, 3]}, inputs, bootstrap=0)
    >>> ctx.primary, ctx.systems[0].values["mae_macro"]
    ('mae_macro', 0.5)
    """
    check_arguments(title=title, undefined=undefined, digits=digits)
    if not (hasattr(inputs, "structure") and hasattr(inputs, "systems")):
        raise InputError("inputs must be the structured inputs of advisor.load_structured (or Dataset.structured of "
                         f"advisor.load); got {type(inputs).__name__}.")
    bootstrap = check_resampling(bootstrap, confidence)
    seed, seed_given = picked_seed(seed, bootstrap)  # a seed always, stated (issue 20)
    answers = answers if isinstance(answers, Plan) else load_answers(answers)
    # the answers give each label a score (a ranking leads), the data hold label sets only: the label decisions lead,
    # said once (the CheXpert reader); the plan is made before the data, so it is made again from what they hold
    sets_only = (not isinstance(answers, Plan) and inputs.structure == "multilabel" and answers.label_scores()
                 and all(getattr(x, "scores", None) is None for x in inputs.systems.values()))
    if sets_only:
        answers = answers.model_copy(update={"outputs": "labels"})
        answers.model_fields_set.discard("outputs")  # what the data hold, never said as the author's answer
    plan = plan_for(answers, None,
                    PlanOptions(resamples=bootstrap, confidence=confidence, seed=seed, seed_given=seed_given,
                                undefined=undefined))
    undefined = plan.design.undefined  # one convention for the engine, intervals, tables and text
    given = plan.given()
    judge = plan.diagnostic("judge_agreement")
    check_judge(None if judge is None else str(judge.params.get("judge")), inputs)  # before any work (issue 22)
    # partitions: the default indices, and NMI when the plan reports it beside them (computed on request only)
    data = evaluate_inputs(inputs, undefined, metrics=list(dict.fromkeys(
        [*PARTITION_METRICS, *(m.id for m in plan.metrics if m.id in reported_ids("partition"))]))
        if inputs.structure == "partition" else None)
    scored = _humans_only(inputs, judge)  # with a judge: the coefficients summarise the humans, the baseline
    if scored is not inputs:
        alone = evaluate_inputs(scored, undefined)
        data["metrics"], data["undefined"] = alone["metrics"], alone.get("undefined", {})
    rec_json, recommendation = rec_json_of(plan), plan._rec
    answers_dict = rec_json.get("answers") or recommendation.answers.model_dump(mode="json")
    first = next(iter(inputs.systems.values()), None)
    if inputs.structure == "multilabel" and getattr(first, "scores", None) is not None:
        # label decisions at a threshold of the scores (None: given beside them, pred_<label>), said in the methods
        answers_dict = {**answers_dict, "#label_threshold": getattr(first, "threshold", None)}
    cat, bib = _catalogue(), _bibliography()
    warnings = [*(WarningEntry(code="answers_pull_apart", message=c, source="plan") for c in plan.conflicts),
                *_warnings_in_words(recommendation, rec_json)]
    warnings += [WarningEntry(code="data_note", source="report", message=note)  # issue 25: distances, labels kept
                 for note in (data.get("notes", []) if inputs.structure in ("ordinal", "multilabel") else [])]
    if sets_only:
        warnings.append(WarningEntry(code="data_note", source="report", message=(
            "The answers give each label a score, so ROC AUC per label and its mean would lead, but these predictions "
            "hold label sets (0 or 1 per label) only, without a score for each label (p_<label> columns): the label "
            "decisions are evaluated instead.")))
    computed = list(next(iter(data["metrics"].values())))
    if plan.diagnostic("label_aucs") is not None:
        # labels scored and no answer fixes the cut: nothing the plan does not hold is added at the conventional cut
        # (Hamming loss, subset accuracy, …: figures of decisions nobody chose; the CheXpert reader)
        computed = [mid for mid in computed if any(m.id == mid for m in plan.metrics)]
    reasons: dict[str, str] = {}
    depth = one_depth(list(inputs.systems.values())) if inputs.structure == "hierarchy" else None
    equal = hierarchy_equal(depth, plan.lead.id)  # one depth: hierarchical precision and recall are the lead's number
    said_depth = answers_dict.get("leaf_depth") if inputs.structure == "hierarchy" else None
    if said_depth is not None and depth != said_depth:  # the answers' premise, which the data do not bear out
        warnings.append(WarningEntry(code="data_note", source="report", message=(
            f"The answers say every class sits at depth {said_depth} of the taxonomy (leaf_depth), but the true and "
            "predicted classes here sit at " + ("several depths" if depth is None else f"depth {depth}") + ", so "
            "hierarchical precision and recall need not equal hierarchical F1; they are in the appendix.")))
    entries = _entries([("appendix" if mid in equal else role, mid, why, params)
                        for role, mid, why, params in metric_items(plan)], computed, cat, warnings, reasons)
    plan = settle(plan, set(computed) - set(equal), {**reasons, **equal})  # what this data cannot give is said
    results = _Results()
    results.reports = _reports(inputs, data)
    results.undefined_total = sum(undefined_values(r.undefined) for r in results.reports)
    if bootstrap > 0:
        _intervals(results, scored, [m.id for m in entries], bootstrap, confidence, seed, undefined)
        settle_intervals(results, seed_given)
        if results.intervals is not None and plan.design.runs == 1:  # one run of each system, as the answers say
            results.intervals.runs = 1  # (several are refused before: these inputs take one file per system)
    task = _task(inputs, data)
    structure = _structure(inputs, data)
    structure.judge = judge_figures(plan, inputs, bootstrap, confidence, seed, undefined,  # issue 22
                                    answers_dict.get("item_name"))
    tables = diagnostic_tables(plan, results.reports, {}, task=task, names={m.id: m.name for m in entries}, pos=None,
                               beta=1.0, undefined=undefined, digits=digits, structure=structure, items=task.n)
    tables += agreement_tables(structure, digits)  # many annotators: their pairs summarised
    if structure.kind == "hierarchy":  # issue 23, item 4: where in the tree the errors are
        tables += hierarchy_tables(structure, confidence, digits)
    shown = shown_diagnostics(plan, results.reports, tables, results.intervals, structure)
    tables += uncertainty_tables(results, entries, None)
    promised = promises(plan, shown)
    methods, justification, references = _methods_and_references(
        answers_dict, rec_json, entries, cat, bib, given=given, task=task, undefined=undefined, results=results,
        evaluated=True, digits=digits, promised=promised, unreported=unreported_planned(plan))
    methods = label_words(methods, answers_dict)  # a multi-label task has labels, not classes
    if structure.kind == "hierarchy":
        methods = [*methods[:1], hierarchy_methods(structure, depth if equal else None, plan.lead.name), *methods[1:]]
    ctx = _context(title, digits, task, undefined, answers_dict, rec_json, entries, cat, methods, results, warnings,
                   references)
    ctx.justification, ctx.structure, ctx.tables, ctx.plan = justification, structure, tables, plan.to_json_dict()
    ctx.definitions = definitions_for(plan, cat, promised)  # what the judge comparison reports, defined
    return ctx


def _humans_only(inputs: Any, judge: Any) -> Any:
    """The ratings without the judge when a judge is compared with two or more humans: Krippendorff's alpha then
    summarises the humans' agreement, the baseline the judge is set beside (pooled with the judge it answers no
    question asked); with one human the judge's pair is all there is, and the inputs are kept."""
    if judge is None or getattr(inputs, "structure", None) != "agreement":
        return inputs
    r = inputs.systems["agreement"]
    humans = judge.params.get("humans")  # the answers' count: the paragraph says alpha as it is computed
    if len(r.raters) < 3 or (humans is not None and int(humans) < 2):
        return inputs
    return replace(inputs, systems={**inputs.systems, "agreement": human_ratings(r, str(judge.params["judge"]))})


def structure_options(answers: Any, *, order: list[Any] | None = None, label_sep: str | None = None,
                      top_k: int | None = None, per_item: bool = False) -> dict[str, Any]:
    """The reading options (``order``, ``label_sep``, ``top_k``, ``structure``) these answers and options ask
    for, decided before anything is read: :func:`advisor.load` takes them and reads each file once.

    The answers fill in what the options leave out: ``top_k``; ``|`` as the separator of label sets;
    for ``label_structure: ordinal`` the order of ``classes`` — or, without classes, the numeric order of
    numeric labels (``structure="ordinal_default"``: ordinal unless the columns say otherwise).

    ``per_item``: subgroup columns or groups of items are read beside the labels; ordered classes are then read as
    label predictions (``structure="nominal"``), whose confusion matrices give the ordinal metrics in the plan's
    order, per subgroup and with groups resampled (:mod:`advisor.report._build`).
    """
    ans = load_answers_file(answers)
    refuse_external(ans)
    if (ans.label_structure == "ordinal" and ans.risk_estimates and not (top_k or ans.top_k) and not ans.annotators
            and (ans.outputs == "probabilities" or ans.probabilities)):
        # probabilities of ordered classes used as risks: read as scored items (the plan leads with a proper
        # scoring rule); the ordinal metrics of the decisions come from the counts in the plan's order
        return {"order": None, "label_sep": label_sep, "top_k": None, "structure": None}
    top_k = top_k or ans.top_k
    if ans.label_structure == "multilabel" and label_sep is None:
        label_sep = "|"
    ordinal = ans.label_structure == "ordinal"
    if ordinal and per_item and not top_k and label_sep is None and not ans.annotators:
        return {"order": None, "label_sep": None, "top_k": None, "structure": "nominal"}
    order = order or (list(ans.classes) if ordinal and ans.classes else None)
    structure = "ordinal_default" if ordinal and order is None and top_k is None and label_sep is None else None
    return {"order": order, "label_sep": label_sep, "top_k": top_k, "structure": structure}


def check_structured(inputs: Any, answers: Any) -> Any:
    """Refuse an agreement study the answers call ordinal while its categories have no order, and a judge that is
    not one of the raters (or inputs that are not ratings), before any work."""
    ans = load_answers_file(answers)
    check_judge(ans.judge, inputs)  # issue 22: the judge is the <name> of a rater_<name> column
    if (ans.label_structure == "ordinal" and inputs is not None and inputs.structure == "agreement"
            and not inputs.systems["agreement"].ordered):
        cats = few_names(inputs.labels)
        raise InputError(f"the answers say the categories are ordered (label_structure: ordinal) but not in which order, "
                         f"and {cats} are not numbers; list them from lowest to highest as classes in the answers "
                         f"or with {arg('order')}.")
    return inputs


def inputs_for_answers(files: list[Any], answers: Any, *, order: list[Any] | None = None, label_sep: str | None = None,
                       top_k: int | None = None, true_col: str | None = None, pred_col: str | None = None) -> Any:
    """The structured inputs these answers and files describe, or None for nominal prediction files.

    The files are read once by :func:`advisor.load` with :func:`structure_options`. An order is never
    guessed: ordinal answers over labels that are not numbers and have no order are an error saying how
    to give it. Span and ranking tasks are not scored here.
    """
    opts = structure_options(answers, order=order, label_sep=label_sep, top_k=top_k)
    ds = load(files, true_col=true_col, pred_col=pred_col, id_col=None, **opts)
    return check_structured(ds.structured, answers)


def ordinal_tables_for_answers(matrices: list[Any], answers: Any, *, order: list[Any] | None = None,
                               systems: Mapping[str, Any] | None = None) -> Any:
    """Ordinal inputs from confusion matrices when the answers say the classes are ordered, else None.

    The order is ``order``, the answers' ``classes``, or the numeric order of numeric labels; labels
    that are not numbers and have no order are an error saying how to give it. ``systems``: the matrices
    as already read (by :func:`advisor.load`); otherwise they are read here.
    """
    ans = load_answers_file(answers)
    if ans.label_structure == "multilabel" or ans.top_k:
        need = ("the label set of each item (y_true / y_pred holding 'a|b', or true_<label> / pred_<label> columns)"
                if ans.label_structure == "multilabel" else "the score of every class for each item (p_<label> columns)")
        raise InputError(f"a confusion matrix cannot give {'multi-label' if ans.label_structure == 'multilabel' else 'top-k'}"
                         f" metrics, which need {need}; give prediction files instead of {arg('matrices')}.")
    if ans.label_structure != "ordinal":
        return None
    if systems is None:
        systems = load(matrices=matrices).systems
    if order is None and ans.classes:
        order = list(ans.classes)
    return ordinal_from_tables(systems, order)  # without an order: the numeric labels' values


#: Why a recommended metric is missing from a structured evaluation.
_NOT_COMPUTED = {"fleiss_kappa": "it needs every item rated by the same number of annotators, and some ratings "
                                 "are missing; Krippendorff's alpha takes them as they are",
                 "balanced_accuracy": "a top-k evaluation scores the k highest-scored classes; the per-class recall of "
                                      "the top-1 predictions is under Diagnostics",
                 "log_loss": "the score columns are read here as rankings of the classes, not as probabilities",
                 "multilabel_macro_roc_auc": "the predictions hold label sets (0 or 1 per label) only, without a "
                                             "score for each label (p_<label> columns)",
                 "brier": "the score columns are read here as rankings of the classes, not as probabilities"}


def _entries(rec_items: list[tuple[str, str, str | None, dict[str, Any]]], computed: list[str], cat: Any,
             warnings: list[WarningEntry], reasons: dict[str, str] | None = None) -> list[MetricEntry]:
    """The recommended metrics this structure gives, then every other one computed (appendix)."""
    entries: list[MetricEntry] = []
    seen: set[str] = set()
    for role, mid, reason, params in rec_items:
        if mid in seen:
            continue
        if mid not in computed:
            name = cat.metrics[mid].name if mid in cat.metrics else mid.replace("_", " ")
            why = _NOT_COMPUTED.get(mid, "it does not apply to this kind of data")
            warnings.append(WarningEntry(code="metric_not_computed", source="report",
                                         message=f"{name} was recommended but is not reported: {why}."))
            if reasons is not None:
                reasons[mid] = why
            if role != "primary":
                continue
        seen.add(mid)
        entries.append(_metric_entry(mid, cat.metrics.get(mid), role, reason, params, None, 1.0))
    for mid in computed:
        if mid not in seen:
            entries.append(_metric_entry(mid, cat.metrics.get(mid), "appendix", None, {}, None, 1.0))
            seen.add(mid)
    return defined_once(entries, cat)


def _f(v: Any) -> float | None:
    return finite(v)


def _reports(inputs: Any, data: Mapping[str, Any]) -> list[SystemReport]:
    out = []
    for name in data["systems"]:
        und = [UndefinedEntry(metric=str(u["metric"]), quantity=str(u["quantity"]),
                              label=None if u.get("label") is None else str(u["label"]),
                              reason=str(u["reason"]), resolution=str(u["resolution"]), value=_f(u.get("value")))
               for u in data["undefined"].get(name, [])]
        out.append(SystemReport(name=str(name), values={m: _f(v) for m, v in data["metrics"][name].items()},
                                per_class=_per_class(inputs, data, name), undefined=und))
    return out


def _per_class(inputs: Any, data: Mapping[str, Any], name: str) -> list[PerClassRow]:
    """Multi-label: each label as its binary task; ordinal: each class of the confusion matrix."""
    import numpy as np

    d = inputs.systems[name]
    if inputs.structure == "multilabel":
        sup, pred = np.asarray(d.y_true).sum(axis=0), np.asarray(d.y_pred).sum(axis=0)
        return [PerClassRow(label=str(lab), support=float(sup[j]), predicted=float(pred[j]),
                            precision=_f(r.get("precision")), recall=_f(r.get("recall")), f1=_f(r.get("f1")),
                            roc_auc=_f(r.get("roc_auc")))
                for j, (lab, r) in enumerate(data["per_label"][name].items())]
    if inputs.structure not in ("ordinal", "top_k", "hierarchy"):
        return []

    if inputs.structure in ("ordinal", "hierarchy"):
        labels, res = d.labels, per_class(_dense(d))
    else:  # top-k: the classes of the top-1 predictions, as the accuracy beside top-k accuracy
        scores, y, labels = d
        idx = list(range(len(labels)))
        res = per_class(confusion_matrix(np.asarray(y), np.asarray(scores).argmax(axis=1), labels=idx))
    return [PerClassRow(label=str(lab), support=float(r["support"]), predicted=float(r["predicted"]),
                        precision=_f(r["precision"]), recall=_f(r["recall"]), f1=_f(r["f1"]))
            for lab, r in zip(labels, res.values())]


def _dense(cells: Any) -> list[list[float]]:
    import numpy as np

    m = np.zeros((cells.k, cells.k))
    np.add.at(m, (cells.rows, cells.cols), np.asarray(cells.counts, float))
    rows: list[list[float]] = m.tolist()  # numpy's stubs: Any
    return rows


def _intervals(results: Any, inputs: Any, ids: list[str], n: int, confidence: float, seed: int | None,
               undefined: str) -> None:
    """Paired intervals, P(first), winners and differences when two or more systems share the items;
    otherwise percentile intervals per system, each from its own resamples with the same seed."""
    if inputs.structure == "partition":
        _partition_intervals(results, inputs, ids, n, confidence, seed)
        return
    if len(results.reports) > 1 and inputs.structure != "agreement" and (
            inputs.items or inputs.structure not in ("ordinal", "hierarchy")):  # matrices alone: no paired items
        ok = [m for m in ids if all(m in rep.values for rep in results.reports)]
        points = {rep.name: {m: float("nan") if rep.values[m] is None else rep.values[m] for m in ok}
                  for rep in results.reports}
        cmp = structure_comparison(inputs.structure, inputs.systems, ok, points, labels=inputs.labels, n_resamples=n,
                                   confidence=confidence, seed=seed, undefined=undefined, top_k=inputs.top_k,
                                   items=inputs.items, groups=getattr(inputs, "groups", None))
        _paired_intervals(results, None, ok, _catalogue(), None, cmp=cmp)
        _grouped(results, inputs)
        _tied(results, inputs, ids)
        return

    for rep in results.reports:
        ok = [m for m in ids if m in rep.values]
        bs = structure_bootstrap(inputs.structure, inputs.systems[rep.name], ok, n_resamples=n, confidence=confidence,
                                 seed=seed, undefined=undefined, top_k=inputs.top_k,
                                 groups=getattr(inputs, "groups", None))
        rep.intervals = {m: estimate_of(r) for m, r in bs.items()}
    results.intervals = IntervalSettings(n_resamples=n, confidence=confidence, seed=seed, paired=False)
    _grouped(results, inputs)
    _tied(results, inputs, ids)


def _tied(results: Any, inputs: Any, ids: list[str]) -> None:
    """Top-k shares from scores: how many items of each system have their true class tied in score with another
    class at the share's cut-off (top-1 for accuracy), each a fractional hit (:func:`advisor.engine._topk.top_k_hits`);
    the Definitions say it where it occurred (:func:`advisor.report._methods_intervals.tied_note`)."""
    import numpy as np

    if inputs.structure != "top_k" or results.intervals is None:
        return
    cuts = {m: c for m, c in (("top_k_accuracy", inputs.top_k), ("accuracy", 1)) if m in ids and c}
    for mid, cut in cuts.items():
        counts = {}
        for name, (scores, y, _) in inputs.systems.items():
            hits = top_k_hits(scores, y, int(cut))
            counts[str(name)] = int(np.count_nonzero((hits > 0) & (hits < 1)))
        results.intervals.tied_items[mid] = counts


def _grouped(results: Any, inputs: Any) -> None:
    """Label sets resampled in groups (a patient's radiographs): the intervals say which column and how many."""
    if getattr(inputs, "groups", None) is not None and results.intervals is not None:
        results.intervals.group_column, results.intervals.groups = inputs.group_col, int(inputs.n_groups)
        results.group = (inputs.group_col, int(inputs.n_groups))  # kept when the intervals are settled


def _partition_intervals(results: Any, inputs: Any, ids: list[str], n: int, confidence: float, seed: int | None
                         ) -> None:
    """Partitions (issue 23, item 3): the bootstrap of the error of each index (:mod:`advisor.stats._partitions`);
    clusterings of the same items compared on the same resampled items (or groups), tables alone each on its own."""
    rows = inputs.rows
    grouped = rows is not None and rows.groups is not None
    if rows is not None and len(results.reports) > 1:
        cmp = partition_comparison(rows, ids, n_resamples=n, confidence=confidence, seed=seed)
        _paired_intervals(results, None, ids, _catalogue(), None, cmp=cmp)
    else:
        for rep in results.reports:
            own = rows if rows is not None else PartitionRows.of_table(inputs.systems[rep.name], rep.name)
            got = partition_intervals(own, ids, n_resamples=n, confidence=confidence, seed=seed)[rep.name]
            rep.intervals = {m: estimate_of(r) for m, r in got.items()}
        results.intervals = IntervalSettings(n_resamples=n, confidence=confidence, seed=seed, paired=False)
    for rep in results.reports:  # the mutual-information indices: the estimate alone, no interval and no test (the
        # methods say why in a sentence of their own, not as a withheld interval's)
        rep.intervals.update({m: estimate_of({"estimate": rep.values.get(m), "method": "none"})
                              for m in ids if m in PARTITION_NO_INTERVAL})
    if grouped and results.intervals is not None:
        results.intervals.group_column, results.intervals.groups = rows.group_col, int(rows.n_groups)


def _task(inputs: Any, data: Mapping[str, Any]) -> TaskInfo:
    import numpy as np

    first = next(iter(inputs.systems.values()))
    s = inputs.structure
    if s == "partition":  # the reference partition's clusters stand for the classes
        sizes = np.asarray(first.counts).sum(axis=1)
        return TaskInfo(kind="multiclass", k=len(first.true_labels), labels=[str(x) for x in first.true_labels],
                        class_sizes=[float(x) for x in sizes], n=float(sizes.sum()))
    if s in ("ordinal", "hierarchy"):
        labels = [str(x) for x in first.labels]
        sizes = np.asarray(_dense(first)).sum(axis=1)
    elif s == "multilabel":
        labels = [str(x) for x in first.labels]
        sizes = np.asarray(first.y_true).sum(axis=0)
    elif s == "top_k":
        labels = [str(x) for x in inputs.labels]
        sizes = np.bincount(np.asarray(first[1]), minlength=len(labels))
    else:
        labels = [str(x) for x in inputs.labels]
        codes = np.asarray(first.codes)
        sizes = np.bincount(codes[codes >= 0], minlength=len(labels))
    n = float(data.get("n_items") or (np.asarray(first.y_true).shape[0] if s == "multilabel" else
                                      sizes.sum() if s in ("ordinal", "hierarchy") else len(first[1]) if s == "top_k"
                                      else 0))
    return TaskInfo(kind="multiclass", k=len(labels), labels=labels, class_sizes=[float(x) for x in sizes], n=n)


def _structure(inputs: Any, data: Mapping[str, Any]) -> StructureData:
    import numpy as np

    s = inputs.structure
    out = StructureData(kind=s, k=inputs.top_k)
    if s == "partition":
        out.clusters = {str(n): dict(v) for n, v in data["clusters"].items()}
        return out
    if s == "ordinal":
        out.confusion = {str(n): _dense(c) for n, c in inputs.systems.items()}
    elif s == "hierarchy":
        out.taxonomy = dict(getattr(inputs, "taxonomy", None) or {})
        out.levels = {str(n): list(v) for n, v in data["levels"].items()}
        out.distances = {str(n): list(v) for n, v in data["distances"].items()}
    elif s == "multilabel":
        first = next(iter(inputs.systems.values()))
        out.share = {str(lab): float(np.asarray(first.y_true)[:, j].mean()) for j, lab in enumerate(first.labels)}
    elif s == "top_k":
        for name, (scores, y, _) in inputs.systems.items():
            out.top_k_curve[str(name)] = [float(top_k_hits(scores, y, j).mean())
                                          for j in range(1, min(10, scores.shape[1]) + 1)]
    else:
        out.raters = {str(k): int(v) for k, v in data["raters"].items()}
        out.pairs = {str(k): _f(v) for k, v in data["pairs"].items()}
        summary = dict(data.get("pair_summary") or {})
        out.rater_kappa = {str(k): _f(v) for k, v in (summary.pop("rater_mean", None) or {}).items()}
        out.lowest_pairs = list(summary.pop("lowest", None) or [])
        out.pair_summary = summary
    return out
