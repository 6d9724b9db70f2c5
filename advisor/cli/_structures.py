"""``compute`` / ``compare`` for ordered classes, label sets, top-k and annotator files (issue 12).

Hooked into the commands by a few lines: when ``--order``, ``--label-sep``, ``--top-k``, ``rater_<name>``
or ``true_<label>``/``pred_<label>`` columns say the files are not nominal predictions, these functions
take over. JSON: ``{"structure", "systems", "labels", "metrics": {system: {id: value}}, "undefined",
"per_label" (multi-label), "pairs" and "raters" (agreement), "intervals"/"comparison" (bootstrap)}``;
an agreement study has one entry named ``agreement``.
"""

from __future__ import annotations

from typing import Any

import typer

from ._common import echo_json, fail

__all__ = ["parse_order", "run_structured"]

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


def _evaluate(inputs: Any, undefined: str, metrics: list[str] | None) -> dict[str, Any]:
    from ..engine._agreement import pairwise_kappa
    from ..engine._structures import evaluate_structure

    data: dict[str, Any] = {"structure": inputs.structure, "systems": list(inputs.systems),
                            "labels": [str(x) for x in inputs.labels], "metrics": {}, "undefined": {}}
    for name, d in inputs.systems.items():
        res = evaluate_structure(d, undefined=undefined, top_k=inputs.top_k, metrics=metrics)
        data["metrics"][name] = res["values"]
        data["undefined"][name] = res["undefined"]
        if "per_label" in res:
            data.setdefault("per_label", {})[name] = res["per_label"]
    if inputs.structure == "ordinal":
        data["order"] = data.pop("labels")
    if inputs.structure == "top_k":
        data["k"] = inputs.top_k
    if inputs.structure == "agreement":
        r = inputs.systems["agreement"]
        data["raters"] = {n: int((r.codes[:, j] >= 0).sum()) for j, n in enumerate(r.raters)}
        data["pairs"] = pairwise_kappa(r)
    return data


def run_structured(files: list[Any], *, order: str | None, label_sep: str | None, top_k: int | None,
                   true_col: str | None, pred_col: str | None, metrics: list[str] | None, undefined: str,
                   n_boot: int | None, confidence: float, seed: int | None, as_json: bool,
                   compare: bool = False) -> bool:
    """Handle structured inputs; False when the files are ordinary nominal predictions."""
    from ..io._structures import load_structured

    if top_k is not None and top_k < 1:
        raise fail(f"--top-k must be a whole number ≥ 1; got {top_k}.")
    inputs = load_structured(files, order=parse_order(order), label_sep=label_sep, top_k=top_k,
                             true_col=true_col, pred_col=pred_col)
    if inputs is None:
        return False
    data = _evaluate(inputs, undefined, metrics)
    ids = [m for m in next(iter(data["metrics"].values()))]
    if n_boot is not None and compare:
        from ..stats._structures import structure_compare

        data["comparison"] = structure_compare(inputs.structure, inputs.systems, ids, lower_is_better=LOWER,
                                               n_resamples=n_boot, confidence=confidence, seed=seed,
                                               undefined=undefined, top_k=inputs.top_k, items=inputs.items)
    elif n_boot is not None:
        from ..stats._structures import structure_bootstrap

        data["intervals"] = {s: structure_bootstrap(inputs.structure, d, ids, n_resamples=n_boot, confidence=confidence,
                                                    seed=seed, undefined=undefined, top_k=inputs.top_k)
                             for s, d in inputs.systems.items()}
    if n_boot is not None:
        data["bootstrap"] = {"n_resamples": n_boot, "confidence": confidence, "seed": seed, "method": "percentile",
                             "resampling": "cells" if inputs.structure == "ordinal" else "items"}
    if as_json:
        echo_json(data)
    else:
        _print(data)
    return True


def _print(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from .._format import format_number

    title = {"ordinal": "ordinal (order: " + ", ".join(map(str, data.get("order", []))) + ")",
             "multilabel": "multi-label", "top_k": f"top-k (k = {data.get('k')})",
             "agreement": "agreement among annotators"}[data["structure"]]
    table = Table(title=escape(title))
    table.add_column("metric")
    for s in data["systems"]:
        table.add_column(escape(s), justify="right")
    ids = list(dict.fromkeys(m for s in data["systems"] for m in data["metrics"][s]))
    for m in ids:
        cells = []
        for s in data["systems"]:
            v = format_number(data["metrics"][s].get(m), none="—")
            iv = data.get("intervals", {}).get(s, {}).get(m)
            cells.append(v if iv is None else f"{v} [{format_number(iv['low'])}, {format_number(iv['high'])}]")
        table.add_row(m, *(escape(c) for c in cells))
    Console().print(table)
    for s, recs in data["undefined"].items():
        for u in recs:
            typer.echo(f"undefined: {s}: {u['metric']}: {u['quantity']} ({u['reason']}) → {u['resolution']}")
