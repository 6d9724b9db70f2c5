"""``advisor compute``: metrics of one or more systems from predictions, matrices or count tables."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from ._common import echo_json, handle_errors, parse_id_list

if TYPE_CHECKING:  # pragma: no cover
    from .._evaluate import Evaluation

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
        None, "--true-col", show_default=False, help="True-label column [predictions: y_true, counts: true].",
    ),
    pred_col: Optional[str] = typer.Option(
        None, "--pred-col", show_default=False, help="Predicted-label column [predictions: y_pred, counts: pred].",
    ),
    count_col: str = typer.Option("count", "--count-col", help="Count column of --counts tables."),
    metrics: Optional[str] = typer.Option(
        None, "--metrics", show_default=False, help="Comma-separated metric ids (default: all that apply).",
    ),
    positive: Optional[str] = typer.Option(
        None, "--positive", show_default=False, help="Positive class of a binary task (enables precision, recall, F1, …).",
    ),
    undefined: str = typer.Option("zero", "--undefined", help="Undefined values: zero, baseline or omit."),
    beta: float = typer.Option(1.0, "--beta", help="β of f_beta."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """Compute metrics, per-class values and chance levels for one or more systems."""
    from .._evaluate import check_metric_ids, evaluate

    ids = parse_id_list(metrics)
    check_metric_ids(ids)  # fail on a typo before reading large files
    systems, probabilities, notes = _load(files or [], matrix or [], counts or [], true_col, pred_col, count_col)
    ev = evaluate(systems, metrics=ids, positive_label=positive, beta=beta, undefined=undefined,
                  probabilities=probabilities)

    # -- uncertainty (--bootstrap N --confidence C --seed S) -------------------------------------
    # Reserved for advisor._bootstrap: call bootstrap(matrix, n_resamples=N, confidence=C, seed=S,
    # metrics=ids, positive_label=positive, beta=beta, undefined=undefined) per system and add its
    # {id: {"estimate", "low", "high"}} to the output here; rendering below stays unchanged.

    for note in notes:
        typer.echo(f"note: {note}", err=True)
    if as_json:
        data = ev.to_json_dict()
        if notes:
            data["notes"] = notes
        echo_json(data)
    else:
        _print_table(ev)


def _load(
    files: list[Path], matrices: list[Path], count_files: list[Path],
    true_col: str | None, pred_col: str | None, count_col: str,
) -> tuple[dict[str, Any], dict[str, dict[str, float]], list[str]]:
    """Read every input into {system: ConfusionMatrix}, probability scores and reader notes."""
    from .._exceptions import InputError
    from .._readers import read_counts, read_matrix, read_predictions

    if not (files or matrices or count_files):
        raise InputError("no input given; pass prediction files, --matrix FILE or --counts FILE.")
    systems: dict[str, Any] = {}
    probabilities: dict[str, dict[str, float]] = {}
    notes: list[str] = []

    def add(name: str, cm: Any) -> str:
        unique, i = name, 1
        while unique in systems:
            i += 1
            unique = f"{name}#{i}"
        systems[unique] = cm
        return unique

    if files:
        ps = read_predictions(files, true_col=true_col or "y_true", pred_col=pred_col or "y_pred")
        for name, cm in ps.systems.items():
            given = add(name, cm)
            if name in ps.probabilities:
                probabilities[given] = ps.probabilities[name]
        notes.extend(ps.notes)
    for path in matrices:
        add(path.stem, read_matrix(path))
    for path in count_files:
        add(path.stem, read_counts(path, true_col or "true", pred_col or "pred", count_col))
    return systems, probabilities, notes


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    v = float(value)
    if v != v:
        return "n/a"
    if v in (float("inf"), float("-inf")):
        return "∞" if v > 0 else "−∞"
    return f"{v:.4f}"


def _print_table(ev: Evaluation) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    k = len(ev.labels)
    labels = ", ".join(str(x) for x in ev.labels[:12]) + (" …" if k > 12 else "")
    pos = f" · positive class {ev.positive_label}" if ev.positive_label is not None else ""
    table = Table(title=f"n = {ev.n:g} items · {k} classes ({labels}){pos}", title_justify="left")
    table.add_column("metric")
    for name in ev.systems:
        table.add_column(name, justify="right")
    table.add_column("majority", justify="right", style="dim")
    table.add_column("prevalence", justify="right", style="dim")
    ids = list(dict.fromkeys(m for name in ev.systems for m in ev.metrics[name]))
    for m in ids:
        chance = ev.chance.get(m, {})
        table.add_row(m, *(_fmt(ev.metrics[s].get(m)) for s in ev.systems),
                      _fmt(chance.get("majority")), _fmt(chance.get("prevalence")))
    console.print(table)
    console.print("majority / prevalence: the metric for a constant majority-class predictor and for random "
                  "predictions matching the class sizes.", style="dim")
    lines = _undefined_lines(ev)
    if not lines:
        console.print(f"No undefined values (convention: {ev.convention}).")
        return
    console.print(f"Undefined values (convention: {ev.convention}):")
    for line in lines[:_MAX_UNDEFINED_LINES]:
        console.print(f"  • {line}", markup=False)
    if len(lines) > _MAX_UNDEFINED_LINES:
        console.print(f"  … and {len(lines) - _MAX_UNDEFINED_LINES} more (see --json).")


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
        of = f" of class {label}" if label is not None else ""
        systems = "; ".join(f"{s}: {', '.join(ms)}" for s, ms in where.items())
        lines.append(f"{quantity}{of} — {reason}; {resolution} [{systems}]")
    return lines
