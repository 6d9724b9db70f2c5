"""``advisor report`` and ``advisor methods``: the evaluation section, written.

Thin commands over :mod:`advisor.report`, used through its package: its modules (and numpy, matplotlib,
WeasyPrint) load when a command runs, not when the CLI starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from ..engine import DEFAULT_CONVENTION
from .. import engine as engine_api
from .. import io as io_api
from .. import questionnaire as questionnaire_api
from .. import report as report_api
from .._exceptions import InputError
from ._common import BY_HELP, QUIET_HELP, USUAL_RESAMPLES, echo, fail, handle_errors
from ._intervals import pick_seed
from ._progress import job
from ._runs import parse_runs, report_runs
from ._scores import parse_costs, parse_priors
from ._structures import parse_order, refuse_sql_structure


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("methods")(methods)


def _load_context(path: Path):  # noqa: ANN202 - returns a ReportContext (loaded on use)
    return report_api.load_context(path)


@handle_errors
def report(
    files: Optional[list[Path]] = typer.Argument(
        None, metavar="PRED...", show_default=False,
        help="Prediction files (CSV, TSV, JSON Lines, Parquet), one per system, same items in the same order.",
    ),
    answers: Optional[Path] = typer.Option(
        None, "--answers", show_default=False, help="Answers file (YAML or JSON) from `advisor ask`.",
    ),
    matrix: Optional[list[Path]] = typer.Option(
        None, "--matrix", show_default=False, help="A confusion matrix (CSV with labels, or JSON); repeatable.",
    ),
    output: Path = typer.Option(..., "-o", "--output", help="Report file; the format follows its extension."),
    fmt: Optional[str] = typer.Option(
        None, "--format", show_default=False, help="md, tex, html, pdf or json (default: from the extension of -o).",
    ),
    fragment: bool = typer.Option(False, "--fragment", help="LaTeX: a section to \\input, not a whole document."),
    title: Optional[str] = typer.Option(None, "--title", show_default=False, help="Report title."),
    n_boot: int = typer.Option(2000, "--bootstrap", help="Bootstrap resamples for the intervals (0: none)."),
    confidence: float = typer.Option(0.95, "--confidence", help="Interval coverage."),
    seed: Optional[int] = typer.Option(None, "--seed", show_default=False, help="Random seed of the bootstrap."),
    true_col: str = typer.Option("y_true", "--true-col", help="True-label column of the prediction files."),
    pred_col: str = typer.Option("y_pred", "--pred-col", help="Predicted-label column of the prediction files."),
    sql: Optional[str] = typer.Option(
        None, "--sql", show_default=False,
        help="A DuckDB query returning y_true and y_pred (or one column per system; optional id and p_<label> columns), instead of files.",
    ),
    positive: Optional[str] = typer.Option(
        None, "--positive", show_default=False, help="Positive class of a binary task (default: from the answers).",
    ),
    undefined: Optional[str] = typer.Option(
        None, "--undefined", show_default=False,
        help=f"Undefined values: zero, baseline or omit (default: the convention of the answers' field, else "
             f"{DEFAULT_CONVENTION}).",
    ),
    context: Optional[Path] = typer.Option(
        None, "--context", show_default=False, help="Re-render a report from its JSON context (no recomputation).",
    ),
    force: bool = typer.Option(
        False, "--force", help="Overwrite an existing report and its own figure files (other files are never touched).",
    ),
    order: Optional[str] = typer.Option(None, "--order", show_default=False, help="Ordered classes: ordinal metrics."),
    label_sep: Optional[str] = typer.Option(None, "--label-sep", show_default=False, help="Separator of label sets."),
    top_k: Optional[int] = typer.Option(None, "--top-k", show_default=False, help="Top-k accuracy from scores."),
    costs: Optional[str] = typer.Option(
        None, "--costs", show_default=False,
        help="Error costs: fn=10,fp=1 or a cost-matrix CSV (rows true, columns decision); default: the answers'.",
    ),
    priors: Optional[str] = typer.Option(
        None, "--priors", show_default=False, help="Deployment class shares LABEL=SHARE,…; default: the answers'.",
    ),
    group: Optional[str] = typer.Option(
        None, "--group", show_default=False,
        help="Column naming each item's group (a patient, a document): resample groups, not items.",
    ),
    max_fpr: Optional[float] = typer.Option(
        None, "--max-fpr", show_default=False,
        help="False positive rate budget F: the lead is the TPR of the best threshold with FPR ≤ F on the test set.",
    ),
    alerts: Optional[int] = typer.Option(
        None, "--alerts", show_default=False, help="Review budget: K test items reviewed (precision and recall at K).",
    ),
    decision_thresholds: Optional[str] = typer.Option(
        None, "--decision-thresholds", show_default=False,
        help="Risk thresholds a,b,… at which users act: net benefit at each (a decision curve).",
    ),
    coverage: Optional[str] = typer.Option(
        None, "--coverage", show_default=False,
        help="Share C in (0, 1] of the items a system that abstains answers: the error rate among the ⌈C·n⌉ most "
             "confident (top-label probability).",
    ),
    taxonomy: Optional[Path] = typer.Option(
        None, "--taxonomy", show_default=False,
        help="Classes in a tree (label_structure: hierarchy): a CSV of child,parent rows.",
    ),
    partitions: bool = typer.Option(
        False, "--partitions",
        help="y_true and y_pred are cluster ids of two partitions (label_structure: partition): pair-counting correlation coefficient, ARI, AMI.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
    by: Optional[list[str]] = typer.Option(None, "--by", show_default=False, help=BY_HELP),
    reject_label: Optional[str] = typer.Option(
        None, "--reject-label", show_default=False,
        help="The label a system writes when it abstains (not a class); default: the answers' reject_label.",
    ),
) -> None:
    """Write the evaluation report: methods, results with intervals, figures, references."""
    out_fmt = report_api.format_for(output, fmt)
    if fragment and out_fmt != "tex":
        raise fail("--fragment applies to LaTeX output only (.tex or --format tex).")
    if context is not None:
        if files or matrix or sql or answers is not None or costs or priors:
            raise fail("--context re-renders a saved report; give no prediction files, --matrix, --answers, --costs "
                       "or --priors with it.")
        inputs: list[Path] = [context]
    else:
        if answers is None:
            raise fail("--answers is required (the answers file from `advisor ask`), or re-render with --context.")
        if not files and not matrix and not sql:
            raise fail("give at least one prediction file, --matrix or --sql to report on.")
        if n_boot < 0:
            raise fail(f"--bootstrap must be a whole number ≥ 0; got {n_boot}.")
        if not 0.0 < confidence < 1.0:
            raise fail(f"--confidence must be strictly between 0 and 1 (e.g. 0.95); got {confidence}.")
        report_api.check_resampling(n_boot, confidence)  # enough resamples, before reading anything (issue 25)
        _check_constraints(max_fpr, alerts, decision_thresholds)
        _check_selective(coverage, reject_label, questionnaire_api.load_answers(answers) if reject_label else None)
        # --sql cannot give ordered items, label sets, top-k
        refuse_sql_structure(sql, order=order, label_sep=label_sep, top_k=top_k, answers=answers, command="report")
        tree = _check_taxonomy(taxonomy, answers, {"--order": order, "--label-sep": label_sep, "--top-k": top_k,
                                                   "--costs": costs, "--priors": priors, "--group": group,
                                                   "--max-fpr": max_fpr, "--alerts": alerts,
                                                   "--decision-thresholds": decision_thresholds,
                                                   "--coverage": coverage, "--positive": positive,
                                                   "--reject-label": reject_label})
        clusters = _check_partitions(partitions, answers, {
            "--order": order, "--label-sep": label_sep, "--top-k": top_k, "--costs": costs, "--priors": priors,
            "--positive": positive, "--max-fpr": max_fpr, "--alerts": alerts,
            "--decision-thresholds": decision_thresholds, "--coverage": coverage, "--taxonomy": taxonomy,
            "--by": by or None, "--reject-label": reject_label})
        inputs = [answers, *(files or []), *(matrix or []), *([taxonomy] if taxonomy is not None else [])]
    # every place the report writes, before reading anything large or rendering anything
    report_api.check_outputs(report_api.output_plan(output, out_fmt), inputs, force=force)
    if out_fmt == "pdf":  # WeasyPrint's system libraries: missing ones are said now, not after the work
        report_api.require_pdf_engine()
    ctx = None
    if context is not None:
        tree, clusters = None, False
        ctx = _load_context(context)
    elif clusters and answers is not None:  # two partitions with arbitrary cluster ids (issue 23, item 3)
        ctx = _build_partitions(files or [], matrix or [], answers, sql=sql, true_col=true_col, pred_col=pred_col,
                                group=group, title=title, bootstrap=n_boot, confidence=confidence, seed=seed,
                                undefined=undefined)
    else:
        assert answers is not None  # --answers is required without --context (said above)
        if tree is not None:  # classes in a tree (issue 23, item 4)
            ctx = _build_hierarchy(files or [], matrix or [], answers, tree, str(taxonomy), sql=sql, true_col=true_col,
                                   pred_col=pred_col, title=title, bootstrap=n_boot, confidence=confidence, seed=seed,
                                   undefined=undefined)
        else:
            ctx = _build(files or [], matrix or [], answers, sql=sql, true_col=true_col, pred_col=pred_col,
                         costs=costs, priors=priors, title=title, bootstrap=n_boot, confidence=confidence, seed=seed,
                         positive_label=positive, undefined=undefined, order=order, label_sep=label_sep, top_k=top_k,
                         group=group, max_fpr=max_fpr, alerts=alerts, decision_thresholds=decision_thresholds,
                         coverage=None if coverage is None else float(coverage), by=by or None,
                         reject_label=reject_label)
    if context is not None:
        written = report_api.render_checked(context, ctx, out_fmt, output, fragment=fragment, force=force)
    else:
        written = report_api.render_report(ctx, out_fmt, output, fragment=fragment, inputs=inputs, force=force)
    for path in written:
        echo(f"wrote {path}")


def _check_constraints(max_fpr: Optional[float], alerts: Optional[int], thresholds: Optional[str]) -> None:
    """Issue 21: a budget outside (0, 1), alerts below 1, thresholds outside (0, 1) or unsorted — one sentence
    naming the option, before anything is read (alerts above the test set's size are refused once it is known)."""
    if max_fpr is not None:
        engine_api.check_budget(max_fpr, "--max-fpr (the false positive rate budget)")
    if alerts is not None and alerts < 1:
        raise InputError(f"--alerts (the test items that can be reviewed) must be a whole number of at least 1; got "
                         f"{alerts}.")
    if thresholds is not None:
        engine_api.check_decision_thresholds(thresholds, "--decision-thresholds (the risks at which users act)")


def _check_selective(coverage: Optional[str], reject_label: Optional[str], answers: object) -> None:
    """Issue 23: a coverage outside (0, 1], or a reject label that is one of the answers' classes — one sentence
    naming the option, before anything is read (the data's true classes are checked once read)."""
    if coverage is not None:
        engine_api.check_coverage(coverage, "--coverage")
    if reject_label is not None:
        engine_api.check_reject_label(reject_label, getattr(answers, "classes", None) or ())


def _build(files: list[Path], matrix: list[Path], answers: Path, *, sql: Optional[str], true_col: str,
           pred_col: str, costs: Optional[str], priors: Optional[str], order: Optional[str], label_sep: Optional[str],
           top_k: Optional[int], group: Optional[str] = None, **options: Any):  # noqa: ANN202
    """Read every input once (:func:`advisor.load`) and build the report context: structured (ordered classes,
    label sets, top-k, annotators) or nominal (counts, item-level scores, costs)."""
    cost_spec, prior_spec = parse_costs(costs), parse_priors(priors)  # before reading anything large
    if top_k is not None and top_k < 1:
        raise InputError(f"--top-k must be a whole number ≥ 1; got {top_k}.")
    structured = {k: v for k, v in options.items() if k in ("title", "confidence", "seed", "undefined")}
    structured["bootstrap"] = options["bootstrap"]
    said = questionnaire_api.load_answers(answers)
    by = list(dict.fromkeys([*said.subgroups, *(options.get("by") or [])]))
    group = group or said.group  # the answers' resampling unit (issue 20), unless --group names another
    # ordered classes with subgroups or groups: read as label predictions, the ordinal metrics from their counts
    # the raters' own scores (the human–human baseline) are read per item too, like subgroups
    opts = (report_api.structure_options(answers, order=parse_order(order), label_sep=label_sep, top_k=top_k,
                                         per_item=bool(by or group or said.rater_columns)) if files else {})
    runs = parse_runs(files)  # NAME=FILE names a system; a name repeated: its runs, averaged (issue 20 item 4)
    reject = options.get("reject_label") or said.reject_label  # abstentions are no class (issue 23)
    read = list(dict.fromkeys([*by, *said.rater_columns]))  # the raters' own scores: the human–human baseline
    if said.folds and said.folds != group:  # the folds' column, read per item like subgroups (its lead value per fold)
        read.append(said.folds)
    ds = io_api.load(runs.paths, sql=sql, matrices=matrix, true_col=true_col, pred_col=pred_col, group=group,
                     names=runs.columns, by=read or None, reject_label=reject if not opts else None, **opts)
    if ds.structured is not None:  # ordered classes, label sets, top-k, raters: one file per system
        report_runs(runs, said.runs, "ordered classes, label sets, top-k scores or raters")
    given = [o for o, v in (("--max-fpr", options.get("max_fpr")), ("--alerts", options.get("alerts")),
                            ("--decision-thresholds", options.get("decision_thresholds")),
                            ("--coverage", options.get("coverage"))) if v is not None]
    if given and (ds.structured is not None or (matrix and not files and not sql)):
        what = ("the class probabilities of single-label items" if given[0] == "--coverage" else
                "the scores or risks of a binary task's items")
        raise InputError(f"{given[0]} applies to {what}; these inputs are ordered classes, label sets, top-k scores, "
                         "ratings or matrices, which have none.")
    if ds.structured is not None:
        return report_api.build_structured_report(answers, report_api.check_structured(ds.structured, answers),
                                                  **structured)
    if said.judge is not None:  # a judge is compared with human raters: these inputs have none (issue 22)
        report_api.check_structured(None, answers)
    if matrix and not files and not sql:
        inputs = report_api.ordinal_tables_for_answers(matrix, answers, order=parse_order(order), systems=ds.systems)
        if inputs is not None:
            return report_api.build_structured_report(answers, inputs, **structured)
    if ds.score_only:
        name = ds.score_only[0]
        raise InputError(f"{name} has scores but no {pred_col} column; a report needs each system's decisions beside "
                         "its scores (advisor compute gives the score metrics alone).")
    report_api.check_count_totals(ds.systems)
    for note in ds.notes:
        echo(f"note: {note}", err=True)
    if ds.mixed:
        echo("note: prediction files and matrices are mixed, so the systems are not compared on paired "
             "items.", err=True)
    with job("bootstrap of the report", unit="resamples", option="--bootstrap", value=int(options["bootstrap"]),
             usual=USUAL_RESAMPLES) as progress:
        return report_api.build_report(answers, ds, costs=cost_spec, priors=prior_spec, scores=ds.scores or None,
                                       order=parse_order(order), progress=progress,
                                       runs=report_runs(runs, said.runs, None), **options)


@handle_errors
def methods(
    answers: Path = typer.Option(..., "--answers", help="Answers file (YAML or JSON) from `advisor ask`."),
    fmt: str = typer.Option("md", "--format", help="md, tex or html."),
    output: Optional[Path] = typer.Option(
        None, "-o", "--output", show_default=False, help="Write to this file instead of standard output.",
    ),
    n_boot: int = typer.Option(2000, "--bootstrap", help="Bootstrap resamples the text announces (0: no intervals)."),
    undefined: Optional[str] = typer.Option(
        None, "--undefined", show_default=False,
        help=f"Undefined values: zero, baseline or omit (default: the convention of the answers' field, else "
             f"{DEFAULT_CONVENTION}).",
    ),
    seed: Optional[int] = typer.Option(None, "--seed", show_default=False,
                                       help="Seed the intervals will be drawn with, as on `advisor report`."),
    justify: bool = typer.Option(False, "--justify", help="Append the full reasoning behind the choice."),
    force: bool = typer.Option(False, "--force", help="Overwrite -o if it exists."),
) -> None:
    """Print the methods paragraph for these answers: metrics and why, formulas, conventions (no data needed)."""
    out_fmt = report_api.format_for(None, fmt)
    if out_fmt not in ("md", "tex", "html"):
        raise fail(f"--format must be md, tex or html for the methods paragraph; got {fmt!r}.")
    if undefined is not None and undefined not in engine_api.CONVENTIONS:  # no data is read: nothing else catches it
        raise fail(f"--undefined must be one of {', '.join(engine_api.CONVENTIONS)}; got {undefined!r}.")
    if output is not None:
        report_api.check_outputs([output], [answers], force=force)
    given = seed is not None
    if n_boot > 0 and seed is None:  # a seed always (issue 20): picked, stated, and to be passed on
        seed, _ = pick_seed(None)
    text, bib = report_api.methods_texts(answers, out_fmt, bootstrap=n_boot, undefined=undefined, seed=seed,
                                         justify=justify, seed_given=given)
    if not given and seed is not None and f"seed {seed}" in text:  # not for rankings: the author's tool draws
        echo(f"note: seed {seed} picked; pass --seed {seed} to advisor report so its intervals are the ones this "
             "paragraph announces.", err=True)
    if output is None:
        echo(text, nl=not text.endswith("\n"))
    else:
        files = {output: text}
        if out_fmt == "tex":  # the .bib the \citep keys refer to, beside the .tex
            files[output.with_suffix(".bib")] = bib
        written = report_api.write_outputs(files, [answers], force=force)
        for path in written or files:
            echo(f"wrote {path}")


def _check_taxonomy(taxonomy: Optional[Path], answers: Path, others: dict[str, object]) -> engine_api.Taxonomy | None:
    """The tree of ``--taxonomy`` (read and checked before the data), or None; the answers and the option must agree
    (issue 23, item 4)."""
    hierarchy = questionnaire_api.load_answers(answers).label_structure == "hierarchy"
    if taxonomy is None:
        if hierarchy:
            raise fail("label_structure: hierarchy needs the tree of the classes; give it with --taxonomy FILE (a CSV "
                       "of child,parent rows).")
        return None
    if not hierarchy:
        raise fail("--taxonomy scores classes in a tree, which the answers must declare with label_structure: "
                   "hierarchy (the lead is then hierarchical F1).")
    given = [opt for opt, v in others.items() if v is not None]
    if given:
        raise fail(f"{given[0]} does not apply with --taxonomy: hierarchical metrics score one class per item in the "
                   "tree, with no order, positive class, costs, budgets or groups.")
    return io_api.read_taxonomy(taxonomy)


def _build_hierarchy(files: list[Path], matrix: list[Path], answers: Path, tree: engine_api.Taxonomy, source: str, *,
                     sql: Optional[str], true_col: str, pred_col: str, **options: Any):  # noqa: ANN202
    """The report of classes in a tree: every input read once (:func:`advisor.load`), its confusion matrix's cells
    over the taxonomy's classes, then the structured report (intervals from resampling the cells)."""
    runs = parse_runs(files)
    report_runs(runs, questionnaire_api.load_answers(answers).runs, "classes in a tree (label_structure: hierarchy)")
    ds = io_api.load(runs.paths, sql=sql, matrices=matrix, true_col=true_col, pred_col=pred_col, names=runs.columns)
    return report_api.build_structured_report(answers, io_api.hierarchy_inputs(ds, tree, source), **options)


def _check_partitions(partitions: bool, answers: Path, others: dict[str, object]) -> bool:
    """Whether the report compares partitions (``--partitions``, or the answers' ``label_structure: partition``),
    checked before the data: the answers and the option must agree, and no option for classes applies."""
    declared = questionnaire_api.load_answers(answers).label_structure == "partition"
    if partitions and not declared:
        raise fail("--partitions compares partitions with arbitrary cluster ids, which the answers must declare with "
                   "label_structure: partition (the lead is then the pair-counting correlation coefficient).")
    if not declared:
        return False
    given = [opt for opt, v in others.items() if v is not None]
    if given:
        raise fail(f"{given[0]} does not apply to partitions (label_structure: partition): cluster ids have no order, "
                   "positive class, costs, scores, tree or subgroups.")
    return True


def _build_partitions(files: list[Path], matrix: list[Path], answers: Path, *, sql: Optional[str], true_col: str,
                      pred_col: str, group: Optional[str], **options: object):  # noqa: ANN202
    """Read the clusterings once (each file's y_true the reference, its y_pred a clustering) and build the report:
    the partition indices with the intervals of the bootstrap of their error (items, or the groups of ``--group`` or
    the answers' ``group``, resampled)."""
    runs = parse_runs(files)
    said = questionnaire_api.load_answers(answers)
    report_runs(runs, said.runs, "partitions (label_structure: partition)")
    group = group or said.group
    ds = io_api.load(runs.paths, sql=sql, matrices=matrix, true_col=true_col, pred_col=pred_col, group=group,
                     names=runs.columns)
    return report_api.build_structured_report(answers, io_api.partition_inputs(ds), **options)  # type: ignore[arg-type]
