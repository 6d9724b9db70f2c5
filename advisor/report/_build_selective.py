"""The report's selective prediction (issue 23 item 2): AURC, the selective risk at the target coverage and the
risk–coverage curve of every system with probabilities.

:func:`selective_values` runs inside :func:`advisor.report._build_scores.prepare`, after the issue-21 metrics: the
confidence of an item is its top-label probability and its answer the predicted label supplied with the
probabilities (the top label when none is given); ties among equal confidences are shared fractionally
(:mod:`advisor.engine._selective`). The item-bootstrap intervals come with the other score metrics
(``params["coverage"]``); the curve is kept, thinned, for the figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine import SELECTIVE_IDS, answered_count, aurc, coverage_at_risk, risk_coverage_curve, selective_risk
from ._build_decisions import _fmt, _with_interval
from ._models import TableBlock
from ._models_scores import Curve

__all__ = ["selective_table", "selective_values"]

_MAX_POINTS = 400


def _planned(rec_json: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    items = [rec_json.get("primary") or {}, *(rec_json.get("complementary") or [])]
    return {str(i.get("metric")): dict(i.get("params") or {}) for i in items if i.get("metric") in SELECTIVE_IDS}


def _thin(x: np.ndarray, y: np.ndarray) -> Curve:
    if x.shape[0] > _MAX_POINTS:
        keep = np.unique(np.r_[np.linspace(0, x.shape[0] - 1, _MAX_POINTS).round().astype(int), x.shape[0] - 1])
        x, y = x[keep], y[keep]
    return Curve(x=[float(v) for v in x], y=[float(v) for v in y])


def selective_values(state: Any, values: dict[str, dict[str, Any]], rec_json: Mapping[str, Any]) -> None:
    """Add the plan's AURC and selective risk to every system with probabilities; keep the curve and coverage."""
    planned = _planned(rec_json)
    if not planned or state.y is None:
        return
    labels = [str(x) for x in state.labels]
    col = {lab: j for j, lab in enumerate(labels)}
    truth = np.array([col[str(v)] for v in state.y])
    coverage = next((float(p["coverage"]) for p in planned.values() if p.get("coverage") is not None), None)
    target_risk = next((float(p["target_risk"]) for p in planned.values() if p.get("target_risk") is not None), None)
    data = state.data
    n = truth.shape[0]
    data.selective_n = n
    data.selective_target_risk = target_risk
    if coverage is not None:
        state.decision_params["coverage"] = coverage
        data.selective_coverage = coverage
        data.selective_answered = int(answered_count(n, coverage))
    for name, s in state.outputs.items():
        if s.ndim != 2:
            continue
        given = state.decisions.get(name)
        answer = np.array([col[str(v)] for v in given]) if given is not None else s.argmax(axis=1)
        data.selective_given_labels = data.selective_given_labels or given is not None
        error, conf = (answer != truth).astype(np.float64), s.max(axis=1)
        v = values[name]
        if "aurc" in planned:
            v["aurc"] = float(aurc(error, conf))
        if "selective_risk" in planned and coverage is not None:
            v["selective_risk"] = float(selective_risk(error, conf, coverage))
        data.risk_coverage[name] = _thin(*risk_coverage_curve(error, conf))
        row = {"error_rate": float(error.mean())}
        if coverage is not None:
            row["selective_risk"] = float(selective_risk(error, conf, coverage))
        if target_risk is not None:
            row["coverage_at_risk"] = coverage_at_risk(error, conf, target_risk)
        data.selective[name] = row


def selective_table(data: Any, reports: Any, digits: int = 3) -> list[Any]:
    """Per system: the error rate of answering every item, the selective risk at the target coverage (with its
    interval) and the largest coverage whose selective risk is within the target risk."""
    if data is None or not data.selective:
        return []
    by = {r.name: r for r in reports}
    c, r = data.selective_coverage, data.selective_target_risk
    columns, numeric = ["system", "error rate, every item answered"], [False, True]
    if c is not None:
        columns.append(f"selective risk at coverage {c:g}")
    if r is not None:
        columns.append(f"coverage at risk ≤ {r:g}")
    numeric += [True] * (len(columns) - 2)
    rows = []
    for name, v in data.selective.items():
        row = [name, _fmt(v["error_rate"], digits)]
        if c is not None:
            rep = by.get(name)
            row.append(_with_interval(rep, "selective_risk", digits) if rep is not None and "selective_risk" in
                       rep.values else _fmt(v.get("selective_risk"), digits))
        if r is not None:
            row.append(_fmt(v.get("coverage_at_risk"), digits))
        rows.append(row)
    caption = ("The items are answered most confident first (top-label probability; ties shared fractionally). "
               + (f"The selective risk is the error rate among the ⌈c·n⌉ = {data.selective_answered:,} most confident "
                  f"of the {data.selective_n:,} items. " if c is not None else "")
               + (f"The coverage at risk ≤ {r:g} is the largest share of the items, most confident first, whose "
                  "error rate is at most that; chosen on the test set, it is optimistic for new data."
                  if r is not None else ""))
    return [TableBlock(id="selective_prediction", title="Selective prediction", caption=caption.strip(),
                       columns=columns, numeric=numeric, rows=rows)]
