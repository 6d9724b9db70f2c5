"""Ordinal metrics of the plan in a report of label files (issue 19, item 6).

When the probabilities of ordered classes are used as risks, the report reads the files as scored items
(log loss, the Brier score) and the plan puts the ordinal metrics of the decisions beside the lead. They
are computed here from each system's confusion matrix with the classes in the plan's order (or the order
of their numeric values), by the ordinal family of the engine, and resampled on the same items as the
other metrics when the systems share them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import evaluate_inputs, with_counts
from ..io import ordinal_from_tables
from ..stats import structure_bootstrap, structure_comparison
from ._models import Estimate
from ._uncertainty import difference_row

__all__ = ["ordinal_inputs", "ordinal_intervals", "ordinal_values"]


def ordinal_inputs(systems: Mapping[str, Any], order: Sequence[Any] | None) -> Any:
    """The systems' confusion matrices as ordered tables (None when there are no systems)."""
    return ordinal_from_tables(dict(systems), list(order) if order is not None else None) if systems else None


def ordinal_values(inputs: Any, ids: Sequence[str], undefined: str) -> dict[str, dict[str, float]]:
    """``{system: {metric: value}}`` of the ordinal metrics ``ids``."""
    data = evaluate_inputs(inputs, undefined, metrics=list(ids))
    return {str(s): {m: float(v) for m, v in vals.items()} for s, vals in data["metrics"].items()}


def _items(joint: Any, inputs: Any) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
    """Per system, the true and predicted ranks of every item of the joint table (whole counts only)."""
    counts = np.asarray(joint.counts, dtype=np.float64)
    if not np.all(counts == np.round(counts)) or counts.sum() > 5_000_000:
        return None
    rank = {str(lab): i for i, lab in enumerate(inputs.labels)}
    pos = np.array([rank.get(str(lab), -1) for lab in joint.labels])
    reps = counts.astype(np.int64)
    codes = np.repeat(joint.codes, reps, axis=0)
    true = pos[codes[:, 0]]
    return {str(s): (true, pos[codes[:, j + 1]]) for j, s in enumerate(joint.systems)}


def _grouped_cells(joint: Any, inputs: Any, name: str, groups: np.ndarray) -> tuple[Any, np.ndarray]:
    """One system's ordinal cells with a cell per row of the joint table (rows split by group), and the group of
    each cell: what the cluster bootstrap draws whole groups of. Rows the system abstained on are left out."""
    rank = {str(lab): i for i, lab in enumerate(inputs.labels)}
    pos = np.array([rank.get(str(lab), -1) for lab in joint.labels] + [-1])  # the last: an abstention's code
    col = list(joint.systems).index(name) + 1
    codes = np.minimum(np.asarray(joint.codes), len(joint.labels))
    true, pred = pos[codes[:, 0]], pos[codes[:, col]]
    keep = (true >= 0) & (pred >= 0)
    cells = with_counts(inputs.systems[name], np.asarray(joint.counts, dtype=np.float64)[keep], true[keep],
                        pred[keep])
    return cells, groups[keep]


def ordinal_intervals(results: Any, inputs: Any, joint: Any, ids: Sequence[str], points: Mapping[str, Any],
                      st: Any, lower_is_better: Sequence[str]) -> None:
    """Intervals (paired when the systems share items), winners, P(first) and paired differences of the ordinal
    metrics, added to the report's results beside those of the other metrics."""
    names = [r.name for r in results.reports]
    groups = getattr(st, "groups", None)
    if groups is not None and joint is not None and len(names) == 1:  # whole groups resampled (the cluster bootstrap)
        rep = results.reports[0]
        cells, of_cell = _grouped_cells(joint, inputs, rep.name, np.asarray(groups))
        bs = structure_bootstrap("ordinal", cells, list(ids), n_resamples=st.bootstrap, confidence=st.confidence,
                                 seed=st.seed, undefined=st.undefined, groups=of_cell)
        for m, r in bs.items():
            rep.intervals[m] = Estimate(estimate=points[rep.name][m], low=r["low"], high=r["high"],
                                        method=r.get("method"), reason=r.get("reason"))
        return
    items = _items(joint, inputs) if joint is not None and len(names) > 1 else None
    if items is None:
        for rep in results.reports:
            bs = structure_bootstrap("ordinal", inputs.systems[rep.name], list(ids), n_resamples=st.bootstrap,
                                     confidence=st.confidence, seed=st.seed, undefined=st.undefined)
            for m, r in bs.items():
                rep.intervals[m] = Estimate(estimate=points[rep.name][m], low=r["low"], high=r["high"],
                                            method=r.get("method"), reason=r.get("reason"))
        return
    cmp = structure_comparison("ordinal", inputs.systems, list(ids), {s: dict(points[s]) for s in names},
                               labels=inputs.labels, n_resamples=st.bootstrap, confidence=st.confidence, seed=st.seed,
                               undefined=st.undefined, items=items)
    for rep in results.reports:
        for m, mc in cmp.metrics.items():
            sr = mc.systems.get(rep.name)
            if sr is None:
                continue
            rep.intervals[m] = Estimate(estimate=sr.estimate, low=sr.low, high=sr.high, method=sr.method,
                                        reason=sr.reason)
            rep.p_first[m] = sr.p_first
            if rep.name in mc.rank_intervals:
                rep.rank_interval[m] = list(mc.rank_intervals[rep.name])
    for m, mc in cmp.metrics.items():
        results.winners[m] = list(mc.winners)
    if len(names) == 2:
        a, b = names
        for m in cmp.metrics:
            d = cmp.difference(a, b, m)
            flip = -1.0 if m in lower_is_better else 1.0
            pair = next((p for p in cmp.metrics[m].pairs if {p.a, p.b} == {a, b}), None)
            info = {} if pair is None else {"p_a_better": cmp.probability_better(a, b, m), "p_value": pair.p_value,
                                            "test": pair.test, "resolvable": pair.resolvable}
            results.figures.differences.append(difference_row(m, d.estimate, d.low, d.high, flip, info))


def order_of(plan: Any) -> list[Any] | None:
    """The class order the plan's ordinal metrics use (None: the numeric order of the labels)."""
    for m in plan.metrics:
        if m.family == "ordinal" and m.params.get("order"):
            return list(m.params["order"])
    return None


def plan_ordinal_ids(plan: Any) -> list[str]:
    return [m.id for m in plan.metrics if m.family == "ordinal"]


def try_ordinal(systems: Mapping[str, Any], plan: Any, undefined: str) -> tuple[Any, dict[str, dict[str, float]],
                                                                               dict[str, str]]:
    """``(inputs, values, reasons)``: the plan's ordinal metrics on the systems, or the reason they cannot be."""
    ids = plan_ordinal_ids(plan)
    if not ids or not systems:
        return None, {}, {}
    try:
        inputs = ordinal_inputs(systems, order_of(plan))
        return inputs, ordinal_values(inputs, ids, undefined), {}
    except InputError as exc:
        why = str(exc).rstrip(".")
        return None, {}, {m: why for m in ids}
