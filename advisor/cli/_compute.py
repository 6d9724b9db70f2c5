"""``advisor compute``: metrics of one or more systems from predictions, matrices or count tables."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ..engine import DEFAULT_CONVENTION
from .. import catalogue as catalogue_api
from .. import engine as engine_api
from .. import io as io_api
from .. import stats as stats_api
from .._format import display_label, format_count, format_number
from .._jsonio import envelope
from ._common import BY_HELP, QUIET_HELP, USUAL_RESAMPLES, cell, echo, echo_json, fail, handle_errors, label_cell, parse_id_list
from ._compare import progress_callback
from ._hierarchy import run_hierarchy
from ._intervals import calibration_lines, interval_cell, methods_note, pick_seed, resampled_unit, seed_note
from ._progress import job
from ._runs import parse_runs, refuse_runs
from ._score_intervals import score_intervals
from ._scores import compute_score_only, score_results, split_score_ids, with_scores
from ._selective import COVERAGE_HELP, REJECT_HELP, add_selective, check_selective_options, print_selective, selective_results
from ._subgroups import add_subgroups, print_subgroups, subgroup_results
from ._structures import check_structure_options, output_structured, parse_order, refuse_sql_structure, run_partitions

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Evaluation

_COSTS_HELP = "Error costs: fn=10,fp=1 (binary, with --positive) or a cost-matrix CSV (rows true, columns decision)."
_PRIORS_HELP = "Deployment class shares for the expected cost: LABEL=SHARE,…"

# How many undefined-value lines the table view lists before pointing to --json.
_MAX_UNDEFINED_LINES = 12


def register(app: typer.Typer) -> None:
    app.command("compute")(compute)


@handle_errors
def compute(
    files: Optional[list[Path]] = typer.Argument(
        None, metavar="FILE...", show_default=False,
        help="Prediction files (CSV, TSV, JSON Lines, Parquet), one per system, same items in the same order.",
    ),
    matrix: Optional[list[Path]] = typer.Option(
        None, "--matrix", show_default=False, help="A confusion matrix (CSV with labels, or JSON); repeatable.",
    ),
    counts: Optional[list[Path]] = typer.Option(
        None, "--counts", show_default=False, help="A true,pred,count table (e.g. a GROUP BY result); repeatable.",
    ),
    true_col: Optional[str] = typer.Option(
        None, "--true-col", show_default=False, help="True-label column (default y_true; for --counts tables, true).",
    ),
    pred_col: Optional[str] = typer.Option(
        None, "--pred-col", show_default=False, help="Predicted-label column (default y_pred; for --counts tables, pred).",
    ),
    count_col: str = typer.Option("count", "--count-col", help="Count column of --counts tables."),
    sql: Optional[str] = typer.Option(
        None, "--sql", show_default=False, help="A DuckDB query returning y_true and y_pred (or one column per system; optional id and p_<label> columns), instead of files.",
    ),
    metrics: Optional[str] = typer.Option(
        None, "--metrics", show_default=False,
        help="Comma-separated metric ids, names or aliases (default: all that apply).",
    ),
    positive: Optional[str] = typer.Option(
        None, "--positive", show_default=False, help="Positive class of a binary task (enables precision, recall, F1, …).",
    ),
    undefined: str = typer.Option(DEFAULT_CONVENTION, "--undefined", help="Undefined values: zero, baseline or omit."),
    beta: float = typer.Option(1.0, "--beta", help="β of f_beta."),
    n_boot: Optional[int] = typer.Option(
        None, "--bootstrap", show_default=False, help="Add percentile bootstrap intervals from N resamples per system.",
    ),
    confidence: float = typer.Option(0.95, "--confidence", help="Interval coverage (with --bootstrap)."),
    seed: Optional[int] = typer.Option(None, "--seed", show_default=False, help="Random seed (with --bootstrap)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    costs: Optional[str] = typer.Option(None, "--costs", show_default=False, help=_COSTS_HELP),
    priors: Optional[str] = typer.Option(None, "--priors", show_default=False, help=_PRIORS_HELP),
    order: Optional[str] = typer.Option(
        None, "--order", show_default=False, help="Ordered classes, lowest first (e.g. 1,2,3,4,5): ordinal metrics.",
    ),
    label_sep: Optional[str] = typer.Option(
        None, "--label-sep", show_default=False, help="Separator of label sets in y_true/y_pred (e.g. '|'): multi-label.",
    ),
    top_k: Optional[int] = typer.Option(
        None, "--top-k", show_default=False, help="Top-k accuracy from the p_<label> score columns.",
    ),
    partitions: bool = typer.Option(
        False, "--partitions", help="y_true and y_pred are cluster ids of two partitions: pair-counting correlation coefficient, ARI, AMI.",
    ),
    taxonomy: Optional[Path] = typer.Option(
        None, "--taxonomy", show_default=False,
        help="Classes in a tree: a CSV of child,parent rows; hierarchical F1, per-level accuracy, error distances.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
    group: Optional[str] = typer.Option(None, "--group", show_default=False, help="Column naming each item's group (a patient, a document): resample groups, not items."),
    by: Optional[list[str]] = typer.Option(None, "--by", show_default=False, help=BY_HELP),
    reject_label: Optional[str] = typer.Option(None, "--reject-label", show_default=False, help=REJECT_HELP),
    coverage: Optional[str] = typer.Option(None, "--coverage", show_default=False, help=COVERAGE_HELP),
) -> None:
    """Compute metrics, per-class values and chance levels for one or more systems."""
    target = check_selective_options(reject_label, coverage)  # issue 23, before anything is read
    selective = {"--reject-label": reject_label, "--coverage": coverage}
    if taxonomy is not None:  # classes in a tree (issue 23, item 4)
        _check_resampling(n_boot, confidence)
        check_structure_options(n_boot, None, confidence)  # enough resamples, before anything is read

        run_hierarchy(files, taxonomy, matrix=matrix, counts=counts, sql=sql, true_col=true_col, pred_col=pred_col,
                      count_col=count_col, metrics=metrics, as_json=as_json, n_boot=n_boot, confidence=confidence,
                      seed=seed, others={"--order": order, "--label-sep": label_sep, "--top-k": top_k,
                                         "--positive": positive, "--costs": costs, "--priors": priors,
                                         "--partitions": True if partitions else None, "--group": group,
                                         **selective})
        return
    if partitions:  # arbitrary cluster ids: no classification metric (issue 23, item 3)
        _check_resampling(n_boot, confidence)
        run_partitions(files, matrix=matrix, counts=counts, sql=sql, true_col=true_col, pred_col=pred_col,
                       count_col=count_col, metrics=metrics, as_json=as_json, n_boot=n_boot, confidence=confidence,
                       seed=seed, group=group,
                       others={"--order": order, "--label-sep": label_sep, "--top-k": top_k, "--positive": positive,
                               "--costs": costs, "--priors": priors, "--by": by or None, **selective})
        return
    ids = catalogue_api.metric_ids_for(parse_id_list(metrics))  # ids, names or aliases ("MCC", "Youden's J")
    ids, new_ids, cost_spec, prior_spec = split_score_ids(ids, costs, priors)  # issue 11
    check_structure_options(n_boot, top_k, confidence)
    refuse_sql_structure(sql, order=order, label_sep=label_sep, top_k=top_k)  # (issue 25)
    if not (files or matrix or counts or sql):
        raise fail("no input given; pass prediction files, --matrix FILE, --counts FILE or --sql QUERY.")
    structured_tables = order is not None and not files and bool(matrix or counts or sql)
    early = _early_check(ids, order or label_sep or top_k)
    _check_resampling(n_boot, confidence)
    runs = parse_runs(files or [])  # NAME=FILE names a system; several runs of one system are compare's
    refuse_runs(runs, "compute")
    ds = io_api.load(runs.paths, sql=sql, matrices=matrix or [], counts=counts or [], true_col=true_col,
                     pred_col=pred_col, count_col=count_col, order=None if structured_tables else parse_order(order),
                     label_sep=label_sep, top_k=top_k, group=group, names=runs.columns,
                     by=by, reject_label=reject_label)  # every input read once (advisor.load)
    common: dict[str, Any] = dict(metrics=ids, undefined=undefined, n_boot=n_boot, confidence=confidence, seed=seed,
                                  as_json=as_json)
    if output_structured(ds, order if structured_tables else None, **common):  # ordinal, label sets, top-k, raters
        return
    if early is not None:
        raise early
    if compute_score_only(ds, positive, cost_spec, prior_spec, as_json, new_ids):
        return  # files of true labels and scores only (issue 11)
    _refuse_unit_costs(new_ids, cost_spec, prior_spec)
    if reject_label is not None and cost_spec is not None and any(ds.abstained.values()):
        raise fail(f"--costs prices the errors of the answers, and an abstention (--reject-label {reject_label}) has no "
                   "cost in the cost matrix; leave --costs out, or give the abstentions a class of their own.")
    systems, probabilities, notes = ds.systems, ds.probabilities, list(ds.notes)
    ev = engine_api.evaluate(systems, metrics=ids or None if not new_ids else ids or ["accuracy"],
                             positive_label=positive, beta=beta, undefined=undefined, probabilities=probabilities,
                             same_items=not any(ds.abstained.values()))
    if any(ds.abstained.values()) and ds.predictions is not None:  # the test items, each system's answers fewer
        ev = ev.model_copy(update={"n": float(ds.n_items)})
    extra, details = score_results(ds.scores, systems, list(ev.labels), positive, cost_spec, prior_spec, new_ids,
                                   notes=notes)
    if ev.positive_label is not None and len(ev.labels) != 2:
        notes = [*notes, f"--positive selects the binary metrics of a two-class task; with {len(ev.labels)} classes "
                         f"they are not computed: see class {ev.positive_label!r} in the per-class results."]

    intervals, calibration, seed, seed_given = _uncertainty(ds, systems, ev, extra, positive, cost_spec, prior_spec,
                                                            n_boot, confidence, seed)
    ps = ds.predictions
    sub = subgroup_results(ds, by, list(dict.fromkeys(m for s in ev.systems for m in ev.metrics[s])), ev.positive_label,
                           beta, undefined, n_boot, confidence, seed)
    sel = selective_results(ds, ds.reject_label, target, n_boot, confidence, seed)
    _emit(ev, extra, details, intervals, notes, n_boot, confidence, seed, as_json, seed_given, calibration,
          resampled_unit(getattr(ps, "group_col", None), len(getattr(ps, "group_labels", ())) or None), sub, sel)


def _uncertainty(ds: Any, systems: dict[str, Any], ev: Any, extra: dict[str, Any], positive: Any, costs: Any,
                 priors: Any, n_boot: Optional[int], confidence: float, seed: Optional[int]) -> tuple[Any, Any, Any, bool]:
    """``(intervals, calibration, seed, seed given)`` of --bootstrap N --confidence C --seed S: every metric
    printed gets its interval, the seed is picked when not given (issue 20)."""
    if n_boot is None:
        return None, None, seed, seed is not None

    seed, seed_given = pick_seed(seed)
    grouped = getattr(ds.predictions, "groups", None) if ds.predictions is not None else None
    intervals = _intervals(systems, ev, n_boot, confidence, seed) if grouped is None else \
        _grouped_intervals(ds, ev, n_boot, confidence, seed)
    shown = {name: {**{m: v for m, v in ev.metrics[name].items() if m in ("log_loss", "brier")},
                    **extra.get(name, {})} for name in ev.systems}
    more, calibration = score_intervals(ds.scores or {}, systems, shown, list(ev.labels), positive, costs, priors,
                                        n_boot, confidence, seed)
    for name, vals in more.items():
        intervals.setdefault(name, {}).update(vals)
    return intervals, calibration, seed, seed_given


def _emit(ev: Any, extra: dict[str, Any], details: dict[str, Any], intervals: Any, notes: list[str],
          n_boot: Optional[int], confidence: float, seed: Optional[int], as_json: bool, seed_given: bool = True,
          calibration: dict[str, Any] | None = None, resampled: Any = "items", sub: Any = None,
          sel: Any = None) -> None:
    """Print the notes (stderr), then the results as JSON or as tables (and the subgroups of --by)."""
    for note in notes:
        echo(f"note: {note}", err=True)
    if as_json:
        data = with_scores(ev.to_json_dict(), extra, details)
        if intervals is not None:
            data["intervals"] = intervals
            data["bootstrap"] = {"n_resamples": n_boot, "confidence": confidence, "seed": seed,
                                 "seed_given": seed_given, "method": "auto", "resampled": resampled}
            if calibration:
                data["calibration"] = calibration
        if notes:
            data["notes"] = notes
        echo_json(envelope("compute", add_selective(add_subgroups(data, sub), sel)))
    else:
        _print_table(ev, intervals, confidence, extra)
        print_selective(sel, confidence)
        print_subgroups(sub, confidence)
        if intervals is not None:
            entries = [(s, m, iv.get("method"), iv.get("reason")) for s, ivs in intervals.items() for m, iv in ivs.items()]
            unit = [] if resampled == "items" else [f"resampled: the {resampled['groups']:,} groups of column "
                                                    f"{resampled['column']!r}, not single items"]
            for line in [*unit, *methods_note(entries), *calibration_lines(calibration),
                         *([seed_note(seed, seed_given)] if seed is not None else [])]:
                echo(line)


def _check_resampling(n_boot: Optional[int], confidence: float) -> None:
    if n_boot is not None and n_boot < 1:
        raise fail(f"--bootstrap must be a whole number ≥ 1; got {n_boot}.")
    if not 0.0 < confidence < 1.0:
        raise fail(f"--confidence must be strictly between 0 and 1 (e.g. 0.95); got {confidence}.")


def _early_check(ids: Any, structured: Any) -> Exception | None:
    """An unknown metric id, found before reading (raised after it when the inputs turn out nominal: the
    columns of a file can still make it an ordinal, multi-label, top-k or annotator file)."""
    if structured:
        return None
    try:
        engine_api.check_metric_ids(ids)
    except Exception as exc:  # noqa: BLE001
        return exc
    return None


def _refuse_unit_costs(new_ids: list[str], costs: Any, priors: Any) -> None:
    """Cost metrics asked for without costs: one sentence (the project's rule is no silent unit costs)."""
    asked = [m for m in new_ids if m in engine_api.COST_IDS]
    if asked and costs is None:
        raise fail(f"--metrics {','.join(asked)} needs the error costs: give --costs fn=10,fp=1 (binary, with "
                   "--positive) or a cost-matrix CSV; advisor does not assume unit costs.")


def _intervals(
    systems: dict[str, Any], ev: Evaluation, n_boot: int, confidence: float, seed: int | None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Percentile bootstrap intervals of every matrix metric of every system (not paired: see compare)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}  # low, high, and the interval's method (and reason)
    for name, cm in systems.items():
        ids = [m for m in ev.metrics[name] if m not in engine_api.PROBABILITY_METRICS]
        if not ids:
            continue
        with job(f"bootstrap of {name}", unit="resamples", option="--bootstrap", value=n_boot,
                 usual=USUAL_RESAMPLES) as progress:
            res = stats_api.bootstrap(cm, n_resamples=n_boot, confidence=confidence, seed=seed, metrics=ids,
                                      positive_label=ev.positive_label, beta=ev.beta, undefined=ev.convention,
                                      progress=progress)
        out[name] = {m: {**res[m], "method": res.methods[m], **({"reason": res.reasons[m]} if res.reasons[m] else {})}
                     for m in res}
    return out


def _grouped_intervals(ds: Any, ev: Any, n_boot: int, confidence: float, seed: int) -> dict[str, dict[str, Any]]:
    """--group: every system's intervals from resampling the items' groups (the draws are shared by the
    systems, which leaves each system's own intervals those of its group bootstrap)."""
    ids = list(dict.fromkeys(m for name in ev.systems for m in ev.metrics[name] if m not in engine_api.PROBABILITY_METRICS))
    with progress_callback("group bootstrap") as progress:
        cmp = stats_api.compare_joint(ds.joint, n_boot, seed, ids, confidence=confidence,
                                      positive_label=ev.positive_label, beta=ev.beta, undefined=ev.convention,
                                      progress=progress, groups=ds.predictions.groups)
    return {name: {m: {k: v for k, v in mc.systems[name].model_dump().items()
                       if k in ("estimate", "low", "high", "method") or (k == "reason" and v)}
                   for m, mc in cmp.metrics.items() if name in mc.systems}
            for name in ev.systems}


def _label_text(label: Any) -> str:
    """A class label as shown in a list: quoted (``'a, b'``) when a comma, space or quote would blur it.

    >>> _label_text("cat"), _label_text(3), _label_text("a, b"), _label_text("")
    ('cat', '3', "'a, b'", "''")
    """
    text = str(label)
    if text == "" or text != text.strip() or any(c in text for c in ",'\"…") or any(c.isspace() for c in text):
        return repr(text)
    return text


def _fmt(value: Any) -> str:
    return format_number(value, none="—", inf=("∞", "−∞"))


def _cell(value: Any, interval: dict[str, float] | None) -> str:
    return interval_cell(_fmt(value), interval, _fmt)


def _print_table(ev: Evaluation, intervals: dict[str, Any] | None = None, confidence: float = 0.95,
                 extra: dict[str, dict[str, float]] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    # piped output is not cut to 80 columns: the table keeps its natural width
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 240)
    k = len(ev.labels)
    labels = cell(", ".join(_label_text(display_label(x)) for x in ev.labels[:12]) + (" …" if k > 12 else ""))
    pos = f" · positive class {cell(_label_text(display_label(ev.positive_label)))}" if ev.positive_label is not None else ""
    items = "item" if ev.n == 1 else "items"
    table = Table(title=f"n = {format_count(ev.n)} {items} · {k} classes ({labels}){pos}", title_justify="left")
    ids = list(dict.fromkeys(m for name in ev.systems for m in ev.metrics[name]))
    rows = [[cell(_cell(ev.metrics[s].get(m), (intervals or {}).get(s, {}).get(m))) for s in ev.systems] for m in ids]
    table.add_column("metric", no_wrap=True)
    for i, name in enumerate(ev.systems):  # a long system name folds; its numbers keep their width
        width = max((len(r[i]) for r in rows), default=6)
        table.add_column(label_cell(name), justify="right", overflow="fold", min_width=width)
    table.add_column("majority", justify="right", style="dim", no_wrap=True)
    table.add_column("prevalence", justify="right", style="dim", no_wrap=True)
    for m, row in zip(ids, rows):
        chance = ev.chance.get(m, {})
        table.add_row(m, *row, _fmt(chance.get("majority")), _fmt(chance.get("prevalence")))
    console.print(table)
    for name, vals in (extra or {}).items():  # score and cost metrics, with their intervals
        console.print(f"{label_cell(name)}: " + ", ".join(f"{m} = {_cell(v, (intervals or {}).get(name, {}).get(m))}"
                                                         for m, v in vals.items()), markup=False)
    if intervals:
        console.print(f"[low, high]: {confidence:.0%} intervals, each system resampled on its own, the method per "
                      "metric below (use advisor compare for paired differences).", style="dim", markup=False)
    console.print("majority / prevalence: the metric for a constant majority-class predictor and for random "
                  "predictions matching the class sizes.", style="dim")
    _print_per_class(console, ev)
    lines = _undefined_lines(ev)
    if not lines:
        console.print(f"No undefined values in the systems' metrics (convention: {ev.convention}; it also "
                      "resolves those of the reference predictors).")
        return
    console.print(f"Undefined values (convention: {ev.convention}):")
    for line in lines[:_MAX_UNDEFINED_LINES]:
        console.print(f"  • {cell(line)}")
    if len(lines) > _MAX_UNDEFINED_LINES:
        console.print(f"  … and {len(lines) - _MAX_UNDEFINED_LINES} more (see --json).")


_PER_CLASS_COLUMNS = ("support", "predicted", "precision", "recall", "f1", "specificity")
_MAX_PER_CLASS_ROWS = 30


def _print_per_class(console: Any, ev: Evaluation) -> None:
    """One per-class table per system (all fields are in --json); long label sets are cut with a note."""
    from rich.table import Table

    for name in ev.systems:
        rows = list(ev.per_class[name].items())
        table = Table(title=f"per class · {label_cell(name)}", title_justify="left")
        table.add_column("class", overflow="fold")  # a long label wraps; the numbers keep their width
        for col in _PER_CLASS_COLUMNS:
            table.add_column(col, justify="right", no_wrap=True, min_width=max(len(col), 6))
        # rows follow ev.labels (the JSON keys are label strings, so compare the labels themselves)
        for label, (_, row) in list(zip(ev.labels, rows))[:_MAX_PER_CLASS_ROWS]:
            marker = " (positive)" if ev.positive_label is not None and label == ev.positive_label else ""
            cells = [format_count(row[c]) if c in ("support", "predicted") else _fmt(row[c]) for c in _PER_CLASS_COLUMNS]
            table.add_row(label_cell(label) + marker, *cells)
        console.print(table)
        if len(rows) > _MAX_PER_CLASS_ROWS:
            console.print(f"  … {len(rows) - _MAX_PER_CLASS_ROWS} more classes (see --json).", style="dim")


def _undefined_lines(ev: Evaluation) -> list[str]:
    """One line per distinct undefined quantity: where it occurred, why, and how it was resolved."""
    groups: dict[tuple[Any, ...], dict[str, list[str]]] = {}
    for system, records in ev.undefined.items():
        for r in records:
            key = (r["quantity"], r["label"], r["reason"], r["resolution"])
            metrics = groups.setdefault(key, {}).setdefault(system, [])
            if r["metric"] not in metrics:
                metrics.append(r["metric"])
    lines = []
    for (quantity, label, reason, resolution), where in groups.items():
        of = f" of class {display_label(label)}" if label is not None else ""
        systems = "; ".join(f"{display_label(s)}: {', '.join(ms)}" for s, ms in where.items())
        lines.append(f"{quantity}{of} — {reason}; {resolution} [{systems}]")
    return lines
