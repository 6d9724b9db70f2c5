"""``--by COLUMN`` on ``compute`` and ``compare`` (issue 23 item 1): the subgroup tables and the gaps.

The numbers come from :func:`advisor.stats.subgroups`; this module only adds them to the JSON, system first as
everywhere (``"groups"[column][value]["metrics"][system][metric]``, ``"gaps"[column][system][metric]``:
:func:`advisor._jsonio.subgroups_json`; each gap with ``low``, ``high`` and ``method`` when resampled), or prints
them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from .. import engine as engine_api
from .. import stats as stats_api
from .._format import format_number
from .._jsonio import subgroups_json
from ._common import cell, echo, label_cell
from ._intervals import interval_cell

__all__ = ["add_subgroups", "print_subgroups", "subgroup_results"]

#: The gap rows printed, in this order (every metric's gap is in --json).
_GAP_ROWS = ("tpr", "fpr", "selection_rate", "precision", "equalized_odds")


def subgroup_results(ds: Any, by: Sequence[str] | None, metrics: Sequence[str], positive: Any, beta: float,
                     undefined: str, n_boot: int | None, confidence: float, seed: int | None) -> dict[str, Any] | None:
    """:func:`advisor.stats.subgroups` of the run's metrics (none without ``--by``)."""
    if not by:
        return None
    ids = [m for m in metrics if m not in engine_api.PROBABILITY_METRICS]
    return stats_api.subgroups(ds, list(dict.fromkeys(by)), metrics=ids or None, positive_label=positive, beta=beta,
                     undefined=undefined, n_resamples=n_boot, confidence=confidence, seed=seed)


def add_subgroups(data: dict[str, Any], res: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON of a run with ``"groups"``, ``"gaps"`` and ``"subgroups"`` (thresholds, warnings)."""
    if res is not None:
        data.update(subgroups_json(res))
    return data


def _fmt(x: Any) -> str:
    return format_number(x, none="—", inf=("∞", "−∞"))


def _gap_cell(entry: dict[str, Any]) -> str:
    """A gap with its interval (``[low, high]``) when it has one."""
    return interval_cell(_fmt(entry.get("gap")), entry if "low" in entry else None, _fmt)


def _value_cell(entry: dict[str, Any] | None) -> str:
    if not entry:
        return "—"
    return interval_cell(_fmt(entry.get("estimate")), entry if "low" in entry else None, _fmt)


def _print_bias_aucs(console: Any, col: str, per_value: dict[str, Any] | None) -> None:
    """The bias AUCs of Borkan et al. (2019) of one subgroup column: a row per value and system."""
    if not per_value:
        return
    from rich.table import Table

    table = Table(title=f"bias AUCs by {cell(col)} (Borkan et al. 2019)", title_justify="left")
    for head in (col, "system", *stats_api.BIAS_AUC_NAMES.values()):
        table.add_column(cell(head), justify="left" if head in (col, "system") else "right", overflow="fold")
    for value, per_system in per_value.items():
        for s, entry in per_system.items():
            table.add_row(label_cell(value), label_cell(s),
                          *[_value_cell(entry.get(m)) for m in stats_api.BIAS_AUC_NAMES])
    console.print(table)
    console.print("BPSN: the subgroup's negatives against the positives elsewhere; BNSP: the subgroup's positives "
                  "against the negatives elsewhere; — where those items lack a class (see the warnings).",
                  style="dim", markup=False)


def print_subgroups(res: dict[str, Any] | None, confidence: float) -> None:
    """One table per subgroup column (rows: metrics; columns: value · system, with the sizes in the header),
    then the gaps of the rates and the warnings."""
    if res is None:
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 240)
    for col, per_value in res["groups"].items():
        values = list(per_value)
        systems = list(per_value[values[0]])
        ids = [m for m in per_value[values[0]][systems[0]] if m != "n"]
        table = Table(title=f"subgroups by {cell(col)}", title_justify="left")
        table.add_column("metric", no_wrap=True)
        for v in values:
            n = per_value[v][systems[0]]["n"]
            for s in systems:
                head = f"{label_cell(v)} (n = {n:,})" if len(systems) == 1 else f"{label_cell(v)} · {label_cell(s)} (n = {n:,})"
                table.add_column(head, justify="right", overflow="fold")
        for m in ids:
            table.add_row(m, *[_value_cell(per_value[v][s].get(m)) for v in values for s in systems])
        console.print(table)
        _print_bias_aucs(console, col, (res.get("bias_aucs") or {}).get(col))
        gaps = res["gaps"][col]
        for m in [g for g in _GAP_ROWS if g in gaps]:
            parts = [f"{label_cell(s)} {_gap_cell(e)} (ratio {_fmt(e['ratio'])})" for s, e in gaps[m].items()]
            name = "equalized-odds difference" if m == "equalized_odds" else f"{m} gap"
            console.print(f"  {name} across {cell(col)}: " + "; ".join(parts), markup=False)
    if any(k in res["gaps"][c] for c in res["gaps"] for k in ("tpr",)):
        console.print(f"gap: max − min over the subgroups; ratio: min / max; class of interest "
                      f"{label_cell(res['positive_label'])}; equalized-odds difference: the larger of the TPR and "
                      "FPR gaps (fairlearn's definition). Every metric's gap is in --json.", style="dim", markup=False)
    else:
        console.print("gaps (max − min) and ratios (min / max) of every metric are in --json; the TPR, FPR, "
                      "selection-rate and precision gaps need a two-class task and --positive.", style="dim",
                      markup=False)
    if any("low" in e for c in res["groups"].values() for g in c.values() for s in g.values()
           for e in s.values() if isinstance(e, dict)):
        console.print(f"[low, high]: {confidence:.0%} intervals, each subgroup resampled on its own (rates: "
                      "Clopper–Pearson); a gap's interval comes from simultaneous bootstrap intervals of every "
                      "difference between two subgroups, since the largest minus the smallest value is biased "
                      "upward where subgroups are small.", style="dim", markup=False)
    for w in res["warnings"]:
        echo(f"warning: {w}", err=True)
