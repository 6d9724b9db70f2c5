"""``--reject-label L`` and ``--coverage C`` on ``compute`` and ``compare`` (issue 23 item 2): what a system that may
abstain did.

The flat metrics of a run read with a reject label are those of the items each system answered (the reject label is
no class: :func:`advisor.load` takes it out of the confusion matrices). This module adds, per system, the share it
answered (its coverage) and the error rate of those answers, and — where a confidence ranks the items — the
selective risk at ``--coverage`` and the AURC (:func:`advisor.engine.selective_summary`): with probability columns
the top-label probability ranks the items, an abstention after every answer, scored by its top label; with a reject
label alone the answers are one tie group (selective risk at a coverage up to the share answered: the error rate of
the answers; beyond it, and the AURC, undefined). JSON: ``"selective"``.
"""

from __future__ import annotations

import sys
from typing import Any

from .. import engine as engine_api
from .. import stats as stats_api
from .._format import format_number
from ._common import echo, fail, label_cell
from ._intervals import interval_cell

__all__ = ["COVERAGE_HELP", "REJECT_HELP", "add_selective", "check_selective_options", "print_selective",
           "selective_results"]

REJECT_HELP = ("The label a system writes when it abstains (not a class): the metrics are those of the items it "
               "answered, beside its coverage.")
COVERAGE_HELP = ("Share C in (0, 1] of the items answered: the selective risk, the error rate among the ⌈C·n⌉ most "
                 "confident (top-label probability, or the reject label).")


def check_selective_options(reject_label: str | None, coverage: str | None) -> float | None:
    """``--reject-label`` and ``--coverage`` checked before anything is read: one sentence each (exit 2)."""
    if reject_label is not None and not reject_label.strip():
        raise fail("--reject-label is empty; give the label a system writes when it abstains (e.g. abstain).")
    return None if coverage is None else engine_api.check_coverage(coverage, "--coverage")


def _arrays(ds: Any, name: str, reject: str | None) -> tuple[Any, Any, Any] | None:
    """``(error, confidence, answered)`` of a system whose items and probabilities were read (None otherwise)."""
    import numpy as np

    f = (ds.scores or {}).get(name)
    if f is None or f.proba is None or f.y_pred is None:
        return None
    error, conf = engine_api.selective_items(f.y_true, f.y_pred, f.proba, f.proba_labels, reject)
    answered = np.array([str(v) != str(reject) for v in f.y_pred]) if reject is not None else np.ones(len(conf), bool)
    return error, conf, answered


def _from_counts(cm: Any, abstained: float, coverage: float | None) -> dict[str, Any]:
    """A system without probabilities: its answers are one tie group, its abstentions carry no answer."""
    answered = float(cm.n)
    n = answered + float(abstained)
    errors = answered - float(sum(cm.counts[i][i] for i in range(cm.k)))
    rate = errors / answered if answered > 0 else None
    out: dict[str, Any] = {"n": n, "answered": answered, "coverage": answered / n if n > 0 else None,
                           "answered_error_rate": rate, "aurc": None, "errors": errors}
    if coverage is not None:
        m = float(engine_api.answered_count(n, coverage))
        out["selective_risk"] = rate if m <= answered else None
    return out


def _num(x: Any) -> Any:
    return int(x) if isinstance(x, float) and x.is_integer() else x


def selective_results(ds: Any, reject: str | None, coverage: float | None, n_boot: int | None, confidence: float,
                      seed: int | None) -> dict[str, Any] | None:
    """``{"reject_label", "coverage", "systems": {name: {…}}, "notes"}`` of a run with a reject label or a target
    coverage (None without either); with ``n_boot``, intervals: Clopper–Pearson for the shares (coverage, the
    error rate of the answers), the item bootstrap for the selective risk and the AURC of probabilities."""
    if reject is None and coverage is None:
        return None
    systems: dict[str, Any] = {}
    notes: list[str] = []
    ranked: dict[str, tuple[Any, Any, Any]] = {}
    for name, cm in ds.systems.items():
        arrays = _arrays(ds, name, reject)
        if arrays is not None:
            ranked[name] = arrays
            row = engine_api.selective_summary(*arrays, coverage=coverage)
            row["errors"] = float(arrays[0][arrays[2]].sum())
            row["confidence_from"] = "top-label probability" + (", abstentions last" if reject is not None else "")
        else:
            row = _from_counts(cm, ds.abstained.get(name, 0.0), coverage)
            row["confidence_from"] = "reject label" if reject is not None else None
        systems[name] = row
    if coverage is not None and not ranked and reject is None:
        raise fail("--coverage needs a confidence that ranks the items: probability columns p_<label> (the top-label "
                   "probability) or a reject label the systems write when they abstain (--reject-label).")
    unranked = [n for n in systems if n not in ranked]
    if unranked and reject is not None:
        notes.append(f"{', '.join(unranked)}: no probabilities, so the answers are one operating point; the "
                     "selective risk is defined up to the share answered and the AURC not at all.")
    grouped = getattr(getattr(ds, "predictions", None), "groups", None) is not None
    if n_boot is not None and grouped:
        notes.append("the selective results have no intervals with --group (the shares are not of independent items).")
    elif n_boot is not None:
        _intervals(systems, {n: ds.scores[n] for n in ranked}, coverage, n_boot, confidence, seed, reject)
    shown: dict[str, Any] = {}
    for name, row in systems.items():
        row.pop("errors", None)
        shown[name] = {k: _num(v) if not isinstance(v, dict) else v for k, v in row.items()}
    return {"reject_label": reject, "coverage": coverage, "systems": shown, "notes": notes}


def _intervals(systems: dict[str, Any], ranked: dict[str, Any], coverage: float | None, n_boot: int,
               confidence: float, seed: int | None, reject: str | None) -> None:
    """Each value replaced by ``{"estimate", "low", "high", "method"}``; ``ranked``: the item-level files of the
    systems with probabilities (their selective risk and AURC resampled item by item, each on its own)."""
    for name, row in systems.items():
        n, k = float(row["n"]), float(row["answered"])
        lo, hi = stats_api.proportion_interval(k, n, confidence)
        row["coverage"] = {"estimate": row["coverage"], "low": lo, "high": hi, "method": "clopper_pearson"}
        if row["answered_error_rate"] is not None:
            lo, hi = stats_api.proportion_interval(row["errors"], k, confidence)
            row["answered_error_rate"] = {"estimate": row["answered_error_rate"], "low": lo, "high": hi,
                                          "method": "clopper_pearson"}
        if name not in ranked and row.get("selective_risk") is not None:  # the error rate of the answers
            row["selective_risk"] = dict(row["answered_error_rate"])
    ids = ["aurc", *(["selective_risk"] if coverage is not None else [])]
    for name, f in ranked.items():
        f_ids = [m for m in ids if systems[name].get(m) is not None]
        if not f_ids:
            continue
        cmp = stats_api.compare_scored(f.y_true, {name: f.proba}, list(f.proba_labels), metrics=f_ids,
                                       decisions={name: f.y_pred}, n_resamples=n_boot, confidence=confidence,
                                       seed=seed, params={"coverage": coverage} if coverage is not None else None,
                                       reject_label=reject)
        for m in f_ids:
            lo, hi = cmp.intervals[m][name]
            systems[name][m] = {"estimate": systems[name][m], "low": lo, "high": hi,
                                "method": cmp.methods.get(m, {}).get(name, "bootstrap")}


def add_selective(data: dict[str, Any], res: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON of a run with ``"selective"``: per system its coverage, the error rate of its answers, the
    selective risk at ``--coverage`` and the AURC (each ``{"estimate", "low", "high", "method"}`` with
    ``--bootstrap``)."""
    if res is not None:
        data["selective"] = res
    return data


def _fmt(x: Any) -> str:
    return format_number(x, none="—", inf=("∞", "−∞"))


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return interval_cell(_fmt(v.get("estimate")), v, _fmt)
    return _fmt(v)


def print_selective(res: dict[str, Any] | None, confidence: float) -> None:
    """One table: per system the items answered, the coverage, the error rate of the answers, the selective risk
    at ``--coverage`` and the AURC; then what the flat metrics above were computed on."""
    if res is None:
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 240)
    reject, c = res["reject_label"], res["coverage"]
    title = "selective prediction" + (f" · reject label {label_cell(reject)}" if reject is not None else "")
    table = Table(title=title, title_justify="left")
    cols = ["system", "answered", "coverage", "error rate of the answers"]
    if c is not None:
        cols.append(f"selective risk at coverage {c:g}")
    cols.append("AURC")
    for i, col in enumerate(cols):
        table.add_column(col, justify="left" if i == 0 else "right", overflow="fold")
    any_interval = False
    for name, row in res["systems"].items():
        any_interval = any_interval or any(isinstance(v, dict) for v in row.values())
        cells = [label_cell(name), f"{_num(row['answered']):,} of {_num(row['n']):,}", _cell(row["coverage"]),
                 _cell(row["answered_error_rate"])]
        if c is not None:
            cells.append(_cell(row.get("selective_risk")))
        cells.append(_cell(row.get("aurc")))
        table.add_row(*cells)
    console.print(table)
    if reject is not None:
        console.print(f"The reject label {label_cell(reject)} is no class: the confusion-matrix metrics above are those "
                      "of the items each system answered (probability metrics score every item); coverage is the "
                      "share it answered.", style="dim", markup=False)
    if any_interval:
        console.print(f"[low, high]: {confidence:.0%} intervals (shares: Clopper–Pearson; selective risk and AURC of "
                      "probabilities: item bootstrap).", style="dim", markup=False)
    for note in res["notes"]:
        echo(f"note: {note}", err=True)
