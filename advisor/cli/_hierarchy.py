"""``--taxonomy FILE``: classes in a tree (issue 23, item 4) — hierarchical precision, recall and F1 with flat
accuracy beside them, the accuracy at each depth and the distribution of tree distances of the errors, computed
from the confusion matrix the one reader counts; ``--bootstrap N`` resamples its cells."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .. import engine as engine_api
from .. import io as io_api
from .. import stats as stats_api
from .._format import display_label, format_number
from .._jsonio import envelope
from ._common import cell, echo, echo_json, fail, label_cell
from ._intervals import pick_seed, seed_note

__all__ = ["compare_hierarchy", "evaluate_hierarchy", "run_hierarchy"]

#: beside the hierarchical metrics (the engine's HIERARCHY_METRICS, read when a command runs: --help loads no numpy)
FLAT_IDS = ("accuracy", "balanced_accuracy", "macro_f1")


def _ids(metrics: str | None) -> list[str]:
    known = (*engine_api.HIERARCHY_METRICS, *FLAT_IDS)
    ids = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else list(known)
    bad = [m for m in ids if m not in known]
    if bad:
        raise fail(f"{bad[0]!r} is not computed with --taxonomy; the metrics are {', '.join(known)}.")
    return ids


def evaluate_hierarchy(systems: dict[str, Any], taxonomy: Any, source: str, ids: list[str], *,
                       n_boot: int | None = None, confidence: float = 0.95, seed: int | None = None) -> dict[str, Any]:
    """The JSON of ``compute --taxonomy``: per system the metrics, levels, distances and (with ``n_boot``) intervals."""
    data: dict[str, Any] = {"structure": "hierarchy", "systems": list(systems),
                            "taxonomy": io_api.taxonomy_summary(taxonomy, source), "metrics": {}, "levels": {},
                            "distances": {}}
    cells = {}
    for name, cm in systems.items():
        c = engine_api.hierarchy_cells(cm.counts, [str(x) for x in cm.labels], taxonomy, f"taxonomy file {source!r}")
        cells[name] = c
        flat = {m: float(v) for m, v in engine_api.nominal_beside(c, FLAT_IDS).items()}
        values = {**engine_api.hierarchy_metrics(c), **flat}
        data["metrics"][name] = {m: values[m] for m in ids}
        tables = engine_api.hierarchy_tables(c)
        for row in tables["levels"]:
            lo, hi = stats_api.proportion_interval(row["correct"], row["items"], confidence)
            row["low"], row["high"] = float(lo), float(hi)
        data["levels"][name], data["distances"][name] = tables["levels"], tables["distances"]
    if n_boot is not None:
        seed, given = pick_seed(seed)
        data["intervals"] = {name: stats_api.structure_bootstrap("hierarchy", c, ids, n_resamples=n_boot, confidence=confidence,
                                                       seed=seed) for name, c in cells.items()}
        data["bootstrap"] = {"n_resamples": n_boot, "confidence": confidence, "seed": seed, "seed_given": given,
                             "unit": "cells of the confusion matrix (items)"}
    return data


def run_hierarchy(files: Any, taxonomy_file: Any, *, matrix: Any, counts: Any, sql: str | None, true_col: str | None,
                  pred_col: str | None, count_col: str, metrics: str | None, as_json: bool, n_boot: int | None,
                  confidence: float, seed: int | None, others: dict[str, Any]) -> None:
    """``compute --taxonomy FILE``: every check (options, metric ids, the taxonomy) before the data is read."""
    given = [opt for opt, v in others.items() if v is not None]
    if given:
        raise fail(f"{given[0]} does not apply with --taxonomy: hierarchical metrics score one class per item in the "
                   "tree, with no order, positive class, costs or groups.")
    ids = _ids(metrics)
    if not (files or matrix or counts or sql):
        raise fail("no input given; pass prediction files, --matrix FILE, --counts FILE or --sql QUERY.")
    tax = io_api.read_taxonomy(taxonomy_file)
    ds = io_api.load(files or [], sql=sql, matrices=matrix or [], counts=counts or [], true_col=true_col, pred_col=pred_col,
              count_col=count_col)
    data = evaluate_hierarchy(ds.systems, tax, str(taxonomy_file), ids, n_boot=n_boot, confidence=confidence,
                              seed=seed)
    if as_json:
        echo_json(envelope("compute", data))
        return
    _print(data)


def _print(data: dict[str, Any]) -> None:
    t = data["taxonomy"]
    echo(f"Taxonomy {cell(t['file'])}: depth {t['depth']}, classes per level "
         f"{' / '.join(str(n) for n in t['classes_per_level'])}"
         + (f", root {cell(t['root'])} excluded." if t["root"] is not None else " (implicit root)."))
    table = Table(title="Hierarchical and flat metrics")
    table.add_column("metric")
    for s in data["systems"]:
        table.add_column(label_cell(s), justify="right")
    for m in next(iter(data["metrics"].values())):
        row = []
        for s in data["systems"]:
            v = format_number(data["metrics"][s][m])
            iv = data.get("intervals", {}).get(s, {}).get(m)
            row.append(v + (f" [{format_number(iv['low'])}, {format_number(iv['high'])}]" if iv else ""))
        table.add_row(m, *(cell(c) for c in row))
    console = Console()
    console.print(table)
    for s in data["systems"]:
        lv = Table(title=f"{display_label(s)}: accuracy at each depth (1 = top categories)")
        for col in ("depth", "items", "accuracy", "interval"):
            lv.add_column(col, justify="right")
        for r in data["levels"][s]:
            lv.add_row(str(r["depth"]), f"{r['items']:g}", format_number(r["accuracy"]),
                       f"[{format_number(r['low'])}, {format_number(r['high'])}]")
        console.print(lv)
        dt = Table(title=f"{display_label(s)}: error distance in the tree (0 = correct)")
        for col in ("distance", "items", "share"):
            dt.add_column(col, justify="right")
        for r in data["distances"][s]:
            dt.add_row(str(r["distance"]), f"{r['items']:g}", format_number(r["share"]))
        console.print(dt)
    if data.get("bootstrap"):
        b = data["bootstrap"]
        echo(f"Intervals: {b['confidence']:.0%}, {b['n_resamples']} resamples of the confusion matrix's cells (BCa; "
             "accuracy Clopper-Pearson); per-level intervals Clopper-Pearson.")
        echo(seed_note(b["seed"], b["seed_given"]))


def compare_hierarchy(files: Any, taxonomy_file: Any, *, sql: str | None, true_col: str | None, pred_col: str | None,
                      metrics: str | None, n_boot: int, confidence: float, seed: int | None,
                      others: dict[str, Any]) -> tuple[Any, bool, dict[str, Any]]:
    """``compare --taxonomy FILE``: the paired bootstrap of the hierarchical and flat metrics over the joint table of
    (true class, each system's prediction), as for ordinal predictions: ``(comparison, seed given, taxonomy)``."""
    given = [opt for opt, v in others.items() if v is not None]
    if given:
        raise fail(f"{given[0]} does not apply with --taxonomy: hierarchical metrics score one class per item in the "
                   "tree, with no order, positive class, costs or groups.")
    ids = _ids(metrics)
    if not files and not sql:
        raise fail("no input given; pass prediction files (one per system) or --sql QUERY.")
    tax = io_api.read_taxonomy(taxonomy_file)
    ds = io_api.load(files or [], sql=sql, true_col=true_col, pred_col=pred_col)
    if ds.joint is None or len(ds.joint.systems) < 2:
        raise fail("compare needs at least two systems (prediction files) on the same items; for one system's "
                   "intervals use advisor compute --taxonomy FILE --bootstrap N.")
    inputs = io_api.hierarchy_inputs(ds, tax, str(taxonomy_file))
    cells, labels = inputs.systems, list(inputs.labels)
    points = {}
    for name, c in cells.items():
        values = {**engine_api.hierarchy_metrics(c), **{mm: float(v) for mm, v in engine_api.nominal_beside(c, FLAT_IDS).items()}}
        points[name] = {mm: values[mm] for mm in ids}
    seed, given_seed = pick_seed(seed)
    comparison = stats_api.structure_comparison("hierarchy", cells, ids, points, labels=labels, n_resamples=n_boot,
                                      confidence=confidence, seed=seed, items=inputs.items)
    return comparison, given_seed, dict(inputs.taxonomy or {})
