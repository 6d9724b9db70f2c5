"""``compute`` / ``compare`` for ordered classes, label sets, top-k and annotator files (issue 12).

Hooked into the commands by a few lines: when ``--order``, ``--label-sep``, ``--top-k``, ``rater_<name>``
or ``true_<label>``/``pred_<label>`` columns say the files are not nominal predictions, these functions
take over. JSON, in the shape of every command (:func:`advisor._jsonio.envelope`): ``{"schema_version",
"advisor_version", "command", "structure", "systems", "labels", "metrics": {system: {id: value}},
"intervals": {system: {id: interval}} (bootstrap), "undefined", "per_label" (multi-label), "pairs" and "raters"
(agreement)}``, and for a comparison ``p_first[system][id]``, ``winners[id]``, ``pairs[id]``; an
agreement study has one entry named ``agreement``.
"""

from __future__ import annotations

from typing import Any

from .. import engine as engine_api
from .. import io as io_api
from .. import questionnaire as questionnaire_api
from .. import stats as stats_api
from .._format import display_label, format_number
from .._jsonio import envelope
from ._common import USUAL_RESAMPLES, cell, echo, echo_json, fail, label_cell
from ._intervals import interval_cell, methods_note, pick_seed, resampled_unit, seed_note
from ._progress import job

__all__ = ["check_structure_options", "output_structured", "parse_order", "partition_results", "refuse_sql_structure",
           "run_partitions"]

LOWER = ("mae", "mae_macro", "hamming_loss")


def parse_order(order: str | None) -> list[Any] | None:
    """``--order A,B,C`` as a list (numbers stay numbers so ``1,2,3`` matches numeric labels)."""
    if order is None:
        return None
    out: list[Any] = []
    for part in order.split(","):
        p = part.strip()
        if not p:
            raise fail(f"--order lists an empty class name in {order!r}; give the classes from lowest to highest, "
                       "e.g. --order low,mid,high.")
        out.append(int(p) if p.lstrip("-").isdigit() else p)
    return out


def check_structure_options(n_boot: int | None, top_k: int | None, confidence: float | None = None) -> None:
    """The structure options' own checks, before anything is read."""
    if top_k is not None and top_k < 1:
        raise fail(f"--top-k must be a whole number ≥ 1; got {top_k}.")
    if n_boot is not None and n_boot < 1:
        raise fail(f"--bootstrap must be a whole number ≥ 1; got {n_boot}.")
    if n_boot is not None and confidence is not None and 0.0 < confidence < 1.0:  # enough resamples (issue 25)
        stats_api.check_enough_resamples(n_boot, confidence)


def output_structured(ds: Any, tables_order: str | None, *, metrics: list[str] | None, undefined: str,
                      n_boot: int | None, confidence: float, seed: int | None, as_json: bool,
                      compare: bool = False) -> bool:
    """Print the results of structured inputs (``ds.structured``), or of ordinal matrices / count tables
    (``tables_order``: ``--order`` with ``--matrix``/``--counts``); False for ordinary nominal inputs."""
    common = dict(metrics=metrics, undefined=undefined, n_boot=n_boot, confidence=confidence, seed=seed,
                  as_json=as_json)
    if ds.structured is not None:
        _output(ds.structured, compare=compare, **common)  # type: ignore[arg-type]
        return True
    if tables_order is not None:
        run_structured_tables(ds.systems, order=tables_order, **common)  # type: ignore[arg-type]
        return True
    return False


def refuse_sql_structure(sql: str | None, *, order: Any = None, label_sep: str | None = None, top_k: int | None = None,
                         answers: Any = None, command: str = "compute") -> None:
    """``--sql`` counts (true, predicted) pairs of single labels: label sets and top-k scores (and, for
    ``compare`` and ``report``, the items an ordinal evaluation resamples) are not in those counts, so
    the options that ask for them are refused rather than silently ignored (issue 25)."""
    if sql is None:
        return
    items = "the items themselves (an ordinal comparison or report resamples them)"
    asked = [(opt, need) for opt, v, need in (("--order", order, items), ("--label-sep", label_sep, "the label sets"),
                                             ("--top-k", top_k, "the per-class scores"))
             if v is not None and not (opt == "--order" and command == "compute")]
    if answers is not None and not asked:
        ans = questionnaire_api.load_answers(answers)
        if ans.label_structure in ("ordinal", "multilabel"):
            asked.append((f"label_structure: {ans.label_structure} (in the answers)",
                          items if ans.label_structure == "ordinal" else "the label sets"))
        if ans.top_k:
            asked.append(("top_k (in the answers)", "the per-class scores"))
    if asked:
        what, need = asked[0]
        raise fail(f"--sql gives counts of single-label predictions, without {need} that {what} needs; write "
                   "the query's rows to a file (COPY (SELECT …) TO 'rows.parquet') and pass that file instead"
                   + (" (advisor compute takes --order with --sql)." if what == "--order" else "."))


def run_structured_tables(systems: dict[str, Any], *, order: str, metrics: list[str] | None, undefined: str,
                          n_boot: int | None, confidence: float, seed: int | None, as_json: bool) -> None:
    """Ordinal metrics of confusion matrices / count tables (``--matrix`` or ``--counts`` with ``--order``)."""
    _output(io_api.ordinal_from_tables(systems, parse_order(order) or []), metrics=metrics, undefined=undefined,
            n_boot=n_boot, confidence=confidence, seed=seed, as_json=as_json, compare=False)


def _output(inputs: Any, *, metrics: list[str] | None, undefined: str, n_boot: int | None, confidence: float,
            seed: int | None, as_json: bool, compare: bool) -> None:
    data = engine_api.evaluate_inputs(inputs, undefined, metrics)
    ids = [m for m in next(iter(data["metrics"].values()))]
    seed, given = pick_seed(seed)  # stated in the output (issue 20)

    def timed(what: str) -> Any:
        return job(what, unit="resamples", option="--bootstrap", value=n_boot, usual=USUAL_RESAMPLES)

    if n_boot is not None and compare:
        with timed("paired bootstrap") as progress:
            data["comparison"] = stats_api.structure_compare(inputs.structure, inputs.systems, ids,
                                                             lower_is_better=LOWER, n_resamples=n_boot,
                                                             confidence=confidence, seed=seed, undefined=undefined,
                                                             top_k=inputs.top_k, items=inputs.items,
                                                             points=data["metrics"], progress=progress)
    elif n_boot is not None:
        data["intervals"] = {}
        for s, d in inputs.systems.items():
            with timed(f"bootstrap of {s}") as progress:
                data["intervals"][s] = stats_api.structure_bootstrap(inputs.structure, d, ids, n_resamples=n_boot,
                                                                     confidence=confidence, seed=seed,
                                                                     undefined=undefined, top_k=inputs.top_k,
                                                                     progress=progress)
    if n_boot is not None:
        data["bootstrap"] = {"n_resamples": n_boot, "confidence": confidence, "seed": seed, "seed_given": given,
                             "method": "auto", "resampling": "cells" if inputs.structure == "ordinal" else "items"}
    if as_json:
        echo_json(envelope("compare" if compare else "compute", _system_first(data)))
    else:
        _print(data)


def _system_first(data: dict[str, Any]) -> dict[str, Any]:
    """The output shape of a paired comparison: the per-metric ``comparison`` block of
    :func:`advisor.stats.structure_compare` as ``intervals[system][id]`` and ``p_first[system][id]`` beside
    ``winners[id]`` and ``pairs[id]`` (each pair ``a``, ``b`` and ``p_a_better``, as ``advisor compare`` names them)."""
    cmp = data.get("comparison")
    if not cmp:
        return data
    names = list(data["systems"])
    out = {k: v for k, v in data.items() if k != "comparison"}
    out["intervals"] = {s: {m: c["intervals"][s] for m, c in cmp.items() if s in c["intervals"]} for s in names}
    if any("p_first" in c for c in cmp.values()):
        out["p_first"] = {s: {m: c["p_first"][s] for m, c in cmp.items() if s in c.get("p_first", {})} for s in names}
    out["pairs"] = {m: [{"a": a, "b": b, "p_a_better": c["p_better"][a][b]}
                        for i, a in enumerate(names) for b in names[i + 1:]] for m, c in cmp.items()}
    out["winners"] = {m: c["winners"] for m, c in cmp.items() if "winners" in c}
    return out


def _print(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    title = {"ordinal": "ordinal (order: " + ", ".join(display_label(x) for x in data.get("order", [])) + ")",
             "multilabel": "multi-label", "top_k": f"top-k (k = {data.get('k')})",
             "agreement": "agreement among annotators"}[data["structure"]]
    table = Table(title=cell(title))
    table.add_column("metric")
    for s in data["systems"]:
        table.add_column(label_cell(s), justify="right")
    cmp = data.get("comparison") or {}
    if cmp:
        table.add_column("winners")
    ids = list(dict.fromkeys(m for s in data["systems"] for m in data["metrics"][s]))
    for m in ids:
        cells = []
        for s in data["systems"]:
            v = format_number(data["metrics"][s].get(m), none="—")
            iv = cmp[m]["intervals"].get(s) if m in cmp else data.get("intervals", {}).get(s, {}).get(m)
            cells.append(interval_cell(v, iv, format_number))
        if cmp:
            cells.append(", ".join(display_label(w) for w in cmp.get(m, {}).get("winners", [])))
        table.add_row(m, *(cell(c) for c in cells))
    Console().print(table)
    if cmp:
        echo("Paired bootstrap on the same items; winners: the best system and every system whose paired "
             "difference to it has an interval containing 0.")
    if data.get("bootstrap"):
        entries = [(s, m, iv.get("method"), iv.get("reason"))
                   for m, c in cmp.items() for s, iv in c["intervals"].items()] if cmp else \
            [(s, m, iv.get("method"), iv.get("reason")) for s, ivs in data.get("intervals", {}).items()
             for m, iv in ivs.items()]
        for line in methods_note(entries) + [seed_note(data["bootstrap"]["seed"], data["bootstrap"]["seed_given"])]:
            echo(line)
    for note in data.get("notes", []):
        echo(f"note: {note}")
    for s, recs in data["undefined"].items():
        for u in recs:
            echo(f"undefined: {s}: {u['metric']}: {u['quantity']} ({u['reason']}) → {u['resolution']}")


def run_partitions(files: Any, *, matrix: Any, counts: Any, sql: str | None, true_col: str | None,
                   pred_col: str | None, count_col: str, metrics: str | None, as_json: bool, n_boot: int | None = None,
                   confidence: float = 0.95, seed: int | None = None, group: str | None = None,
                   others: dict[str, Any]) -> None:
    """``compute --partitions``: y_true and y_pred are cluster ids of two partitions of the same items. The one
    reader counts their contingency table (the confusion matrix of the ids); only partition indices are computed
    from it (issue 23, item 3), with ``--bootstrap N`` their intervals from the bootstrap of the error
    (:mod:`advisor.stats._partitions`; items, or the groups of ``--group``, resampled). JSON, system first:
    ``{"structure": "partition", "systems", "metrics": {system: {id: value}}, "clusters": {system: {"true",
    "predicted"}}, "intervals": {system: {id: interval}}, "bootstrap"}``."""
    given = [opt for opt, v in others.items() if v is not None]
    if given:
        raise fail(f"{given[0]} does not apply to --partitions: cluster ids have no order, positive class, costs, "
                   "scores or subgroups.")
    ids = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else list(engine_api.PARTITION_METRICS)
    bad = [m for m in ids if m not in engine_api.PARTITION_INDICES]
    if bad:
        raise fail(f"{bad[0]!r} is not a partition metric; with --partitions they are {', '.join(engine_api.PARTITION_INDICES)}.")
    check_structure_options(n_boot, None, confidence)  # enough resamples, before anything is read
    if not (files or matrix or counts or sql):
        raise fail("no input given; pass prediction files, --matrix FILE, --counts FILE or --sql QUERY.")
    ds = io_api.load(files or [], sql=sql, matrices=matrix or [], counts=counts or [], true_col=true_col,
                     pred_col=pred_col, count_col=count_col, group=group)
    data = partition_results(io_api.partition_inputs(ds), ids, n_boot=n_boot, confidence=confidence, seed=seed)
    if as_json:
        echo_json(envelope("compute", data))
        return
    _print_partitions(data)


def partition_results(inputs: Any, ids: list[str], *, n_boot: int | None = None, confidence: float = 0.95,
                      seed: int | None = None) -> dict[str, Any]:
    """The JSON of ``compute --partitions`` for partition inputs (:func:`advisor.io.partition_inputs`)."""
    ev = engine_api.evaluate_inputs(inputs, "zero", ids)
    data: dict[str, Any] = {"structure": "partition", "systems": ev["systems"], "metrics": ev["metrics"],
                            "clusters": ev["clusters"]}
    if n_boot is None:
        return data
    seed, given = pick_seed(seed)
    rows = inputs.rows
    with job("bootstrap of the partitions", unit="resamples", option="--bootstrap", value=n_boot,
             usual=USUAL_RESAMPLES) as progress:
        if rows is not None:  # prediction files: every system on the same resampled items (or groups)
            data["intervals"] = stats_api.partition_intervals(rows, ids, n_resamples=n_boot, confidence=confidence,
                                                              seed=seed, progress=progress)
        else:  # tables alone: each resampled by its own cells, with the same seed
            data["intervals"] = {s: stats_api.partition_intervals(engine_api.PartitionRows.of_table(t, s), ids,
                                                                  n_resamples=n_boot, confidence=confidence,
                                                                  seed=seed)[s]
                                 for s, t in inputs.systems.items()}
    grouped = rows is not None and rows.groups is not None
    data["bootstrap"] = {"n_resamples": n_boot, "confidence": confidence, "seed": seed, "seed_given": given,
                         "method": "auto", "error_bootstrap": True,
                         "resampled": resampled_unit(rows.group_col if grouped else None,
                                                     rows.n_groups if grouped else None)}
    return data


def _print_partitions(data: dict[str, Any]) -> None:
    for name in data["systems"]:
        cl = data["clusters"][name]
        echo(f"{display_label(name)}: {cl['true']['clusters']:g} true clusters (largest {cl['true']['largest']:g} "
             f"items), {cl['predicted']['clusters']:g} predicted clusters (largest {cl['predicted']['largest']:g}, "
             f"{cl['predicted']['singletons']:g} of one item)")
        for m, v in data["metrics"][name].items():
            iv = data.get("intervals", {}).get(name, {}).get(m)
            echo(f"  {m}: {interval_cell(format_number(v), iv, format_number)}")
    b = data.get("bootstrap")
    if b:
        unit = b["resampled"]
        what = "items" if unit == "items" else f"the {unit['groups']:,} groups of column {unit['column']!r}"
        echo(f"intervals: {b['confidence']:.0%} BCa from {b['n_resamples']:,} resamples of {what}; a resampled "
             "pair-counting index leaves out the pairs an item forms with its own copies.")
        entries = [(s, m, iv.get("method"), iv.get("reason")) for s, ivs in data["intervals"].items()
                   for m, iv in ivs.items()]
        for line in [ln for ln in methods_note(entries) if ln.startswith("no interval")] + [
                seed_note(b["seed"], b["seed_given"])]:
            echo(line)
