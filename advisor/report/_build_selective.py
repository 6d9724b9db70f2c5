"""The report's selective prediction (issue 23 item 2): AURC, the selective risk at the target coverage, the
coverage at the target risk (issue 22) and the risk–coverage curve of every system with probabilities.

:func:`selective_values` runs inside :func:`advisor.report._build_scores.prepare`, after the issue-21 metrics: the
confidence of an item is its top-label probability and its answer the predicted label supplied with the
probabilities (the top label when none is given); ties among equal confidences are shared fractionally
(:mod:`advisor.engine._selective`). The item-bootstrap intervals come with the other score metrics
(``params["coverage"]``, ``params["target_risk"]``); the curve is kept, thinned, for the figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..engine import (
    SELECTIVE_IDS,
    answered_count,
    aurc,
    coverage_at_risk,
    coverage_guaranteed_risk,
    risk_coverage_curve,
    selective_by_class,
    selective_items,
    selective_risk,
)
from ._build_decisions import _fmt, _with_interval
from ..stats import proportion_interval
from ._models import Paragraph, Span, TableBlock
from ._models_scores import Curve

__all__ = ["abstention_section", "selective_table", "selective_values"]

_MAX_POINTS = 400


def _planned(rec_json: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    items = [rec_json.get("primary") or {}, *(rec_json.get("complementary") or [])]
    return {str(i.get("metric")): dict(i.get("params") or {}) for i in items if i.get("metric") in SELECTIVE_IDS}


def _thin(x: np.ndarray, y: np.ndarray) -> Curve:
    if x.shape[0] > _MAX_POINTS:
        keep = np.unique(np.r_[np.linspace(0, x.shape[0] - 1, _MAX_POINTS).round().astype(int), x.shape[0] - 1])
        x, y = x[keep], y[keep]
    return Curve(x=[float(v) for v in x], y=[float(v) for v in y])


def _group_percentile(errors: np.ndarray, answered: np.ndarray, groups: np.ndarray, confidence: float,
                      resamples: int, seed: Any) -> float | None:
    """The ``confidence`` quantile of the error rate at the cut over ``resamples`` resamples of the groups (whole
    groups drawn with replacement), the check the table labels "percentile over groups". The FPR budget and the risk
    limit at a fixed cut now take Korn & Graubard's bound instead (:func:`advisor.stats.risk_limit_check`); this
    check of selection with guaranteed risk keeps what its table and paragraph say it is."""
    _, idx = np.unique(groups, return_inverse=True)
    e_g = np.bincount(idx, weights=errors).astype(np.float64)
    m_g = np.bincount(idx, weights=answered).astype(np.float64)
    if e_g.shape[0] < 2 or not m_g.sum() > 0:
        return None
    rng = np.random.default_rng(seed)
    w = rng.multinomial(e_g.shape[0], np.full(e_g.shape[0], 1.0 / e_g.shape[0]), size=int(resamples))
    with np.errstate(invalid="ignore", divide="ignore"):
        draws = (w @ e_g) / (w @ m_g)
    draws = draws[np.isfinite(draws)]
    return float(np.quantile(draws, confidence)) if draws.size else None


def selective_values(state: Any, values: dict[str, dict[str, Any]], rec_json: Mapping[str, Any],
                     confidence: float = 0.95, resamples: int = 0, seed: Any = None, groups: Any = None) -> None:
    """Add the plan's AURC, selective risk, coverage at the target risk and coverage with guaranteed risk (SGR at
    ``δ = 1 − confidence``; a bound, not resampled) to every system with probabilities; keep the curve and
    coverage. With ``groups``, the group of each item (the documents of one matter), SGR's binomial bound takes the items as independent, which
    they are not: the ``confidence`` quantile of the error rate at its cut over ``resamples`` resamples of the groups
    is kept beside it (``guaranteed_group_upper``), and the larger of the two (``guaranteed_upper``) is the bound
    set against the target."""
    planned = _planned(rec_json)
    if not planned or state.y is None:
        return
    labels = [str(x) for x in state.labels]
    col = {lab: j for j, lab in enumerate(labels)}
    truth = np.array([col[str(v)] for v in state.y])
    coverage = next((float(p["coverage"]) for p in planned.values() if p.get("coverage") is not None), None)
    target_risk = next((float(p["target_risk"]) for p in planned.values() if p.get("target_risk") is not None), None)
    data = state.data
    if target_risk is not None and "coverage_at_risk" in planned:  # resampled with the other score metrics
        state.decision_params["target_risk"] = target_risk
    n = truth.shape[0]
    data.selective_n = n
    data.selective_target_risk = target_risk
    guaranteed = "coverage_guaranteed_risk" in planned and target_risk is not None
    if guaranteed:
        data.selective_confidence = float(confidence)
    if coverage is not None:
        state.decision_params["coverage"] = coverage
        data.selective_coverage = coverage
        data.selective_answered = int(answered_count(n, coverage))
    for name, s in state.outputs.items():
        if s.ndim != 2:
            continue
        given = state.decisions.get(name)
        data.selective_given_labels = data.selective_given_labels or given is not None
        if given is not None and state.reject is not None:  # abstentions after every answer, by their top label
            error, conf = selective_items([str(v) for v in state.y], [str(v) for v in given], s,
                                          [str(x) for x in (state.score_labels or state.labels)], state.reject)
        else:
            answer = np.array([col[str(v)] for v in given]) if given is not None else s.argmax(axis=1)
            error, conf = (answer != truth).astype(np.float64), s.max(axis=1)
        v = values[name]
        if "aurc" in planned:
            v["aurc"] = float(aurc(error, conf))
        if "selective_risk" in planned and coverage is not None:
            v["selective_risk"] = float(selective_risk(error, conf, coverage))
        if "coverage_at_risk" in planned and target_risk is not None:
            v["coverage_at_risk"] = float(coverage_at_risk(error, conf, target_risk))
        data.risk_coverage[name] = _thin(*risk_coverage_curve(error, conf))
        row: dict[str, float | None] = {"error_rate": float(error.mean())}
        if coverage is not None:
            row["selective_risk"] = float(selective_risk(error, conf, coverage))
            data.selective_by_class[name] = selective_by_class(truth, error, conf, coverage, labels)
        if target_risk is not None:
            row["coverage_at_risk"] = float(coverage_at_risk(error, conf, target_risk))
        if guaranteed and target_risk is not None and np.all(np.isfinite(error)):
            cov, theta, bound = coverage_guaranteed_risk(error, conf, target_risk, 1.0 - float(confidence))
            v["coverage_guaranteed_risk"] = cov
            row["coverage_guaranteed_risk"] = cov
            row["guaranteed_threshold"] = theta if np.isfinite(theta) else None
            row["guaranteed_bound"] = bound if np.isfinite(bound) else None
            row["guaranteed_errors"] = float(error[conf >= theta].sum()) if np.isfinite(theta) else None
            row["guaranteed_answered"] = float((conf >= theta).sum()) if np.isfinite(theta) else None
            if groups is not None and np.isfinite(theta) and resamples > 0:
                at = (conf >= theta).astype(np.float64)  # the items SGR's cut answers, ties at it included
                check = _group_percentile(error * at, at, np.asarray(groups), confidence, resamples, seed)
                row["guaranteed_group_upper"] = check
                row["guaranteed_upper"] = max(bound, check or 0.0)
            elif np.isfinite(bound):
                row["guaranteed_upper"] = bound
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
    g = data.selective_confidence if r is not None else None
    grouped = g is not None and any(v.get("guaranteed_group_upper") is not None for v in data.selective.values())
    if g is not None:
        columns += [f"coverage with risk ≤ {r:g} guaranteed at {g:.0%}", "its confidence cut",
                    "error rate at the cut", "binomial bound"]
        if grouped:
            columns.append(f"{g * 100:.0f}th percentile over groups")
    numeric += [True] * (len(columns) - 2)
    rows = []
    for name, v in data.selective.items():
        row = [name, _fmt(v["error_rate"], digits)]
        if c is not None:
            rep = by.get(name)
            row.append(_with_interval(rep, "selective_risk", digits) if rep is not None and "selective_risk" in
                       rep.values else _fmt(v.get("selective_risk"), digits))
        if r is not None:
            rep = by.get(name)
            row.append(_with_interval(rep, "coverage_at_risk", digits) if rep is not None and "coverage_at_risk" in
                       rep.values else _fmt(v.get("coverage_at_risk"), digits))
        if g is not None:
            e, m = v.get("guaranteed_errors"), v.get("guaranteed_answered")
            row += [_fmt(v.get("coverage_guaranteed_risk"), digits), _fmt(v.get("guaranteed_threshold"), digits),
                    _fmt(e / m if e is not None and m else None, max(digits, 4)),
                    _fmt(v.get("guaranteed_bound"), max(digits, 4))]
            if grouped:
                row.append(_fmt(v.get("guaranteed_group_upper"), max(digits, 4)))
        rows.append(row)
    caption = ("The items are answered most confident first (top-label probability; ties shared fractionally). "
               + (f"The selective risk is the error rate among the ⌈c·n⌉ = {data.selective_answered:,} most confident "
                  f"of the {data.selective_n:,} items. " if c is not None else "")
               + (f"The coverage at risk ≤ {r:g} is the largest share of the items, most confident first, whose "
                  "error rate is at most that; chosen on the test set, it is optimistic for new data."
                  if r is not None else "")
               + (f" The guaranteed coverage is the share answered at the confidence cut chosen by selection "
                  f"with guaranteed risk (Geifman & El-Yaniv 2017), the test items serving as the calibration set: "
                  f"the binomial bound on the error rate at the cut, taken at {1 - g:g}/⌈log2 n⌉ for the cuts the "
                  f"search tries, is at most {r:g}, so for new items of the same kind, drawn independently, the risk "
                  f"is at most {r:g} with probability {g:.0%}; it is itself a bound and has no interval; 0 when no "
                  "cut tried qualifies." if g is not None else "")
               + (f" The items of one group are not independent, so the binomial bound alone claims too much: the "
                  f"{g * 100:.0f}th percentile of the error rate at the cut over resamples of the groups is given "
                  f"beside it, an approximate check of the same limit, not a guarantee; where it exceeds {r:g}, the "
                  "data do not support the guarantee."
                  if grouped and g is not None and r is not None else ""))
    return [TableBlock(id="selective_prediction", title="Selective prediction", caption=caption.strip(),
                       columns=columns, numeric=numeric, rows=rows), *_by_class_table(data, digits)]


def _by_class_table(data: Any, digits: int) -> list[Any]:
    """Per true class and system at the target coverage: the share of the class's items answered and the recall
    among them (a cut met by deferring one class shows here)."""
    if not data.selective_by_class or data.selective_coverage is None:
        return []
    rows = [[lab, f"{v['n']:,.0f}", name, _fmt(v["answered"], digits), _fmt(v["recall_answered"], digits)]
            for name, per in data.selective_by_class.items() for lab, v in per.items()]
    c = data.selective_coverage
    caption = (f"At coverage {c:g}, the ⌈c·n⌉ most confident items answered (ties shared fractionally): for each true "
               "class, the share of its items answered and the share of those answered that are right. A class whose "
               "share answered is far below the coverage is the one the cut defers.")
    return [TableBlock(id="selective_by_class", title=f"By class at coverage {c:g}", caption=caption,
                       columns=["true class", "items", "system", "share answered", "recall among answered"],
                       numeric=[False, True, False, True, True], rows=rows)]


def abstention_section(reject: Any, abstained: Mapping[str, float], systems: Mapping[str, Any], coverage: float | None,
                       confidence: float, digits: int, score_data: Any = None) -> tuple[dict[str, Any], TableBlock,
                                                                                        Paragraph]:
    """``(JSON, table, methods paragraph)`` of systems that may abstain (a reject label, issue 23 item 2): per system
    the items answered, its coverage and the error rate of its answers, each with its Clopper–Pearson interval, and
    the selective risk at the target coverage — the error rate of the answers while the coverage is within the share
    answered, for a system without probabilities (its answers are one tie group)."""
    rows: list[list[str]] = []
    systems_out: dict[str, Any] = {}
    out: dict[str, Any] = {"reject_label": str(reject), "coverage": coverage, "confidence": confidence,
                           "systems": systems_out}
    ranked = set(getattr(score_data, "selective", None) or {}) if score_data is not None else set()
    for name, cm in systems.items():
        answered = float(cm.n)
        n = answered + float(abstained.get(name, 0.0))
        errors = answered - float(np.trace(np.asarray(cm.counts, dtype=np.float64)))
        cov_lo, cov_hi = proportion_interval(answered, n, confidence)
        err = errors / answered if answered > 0 else None
        err_lo, err_hi = proportion_interval(errors, answered, confidence)
        entry: dict[str, Any] = {"n": n, "answered": answered,
                                 "coverage": {"estimate": answered / n if n else None, "low": float(cov_lo),
                                              "high": float(cov_hi), "method": "clopper_pearson"},
                                 "answered_error_rate": {"estimate": err, "low": float(err_lo), "high": float(err_hi),
                                                         "method": "clopper_pearson"}}
        row = [name, f"{answered:,.0f} of {n:,.0f}", _ci(entry["coverage"], digits),
               _ci(entry["answered_error_rate"], digits)]
        if coverage is not None:
            if name in ranked:
                sr = score_data.selective[name].get("selective_risk")
                row.append(f"{_fmt(sr, digits)} (ranked by probability)")
            elif float(answered_count(n, coverage)) <= answered:
                entry["selective_risk"] = dict(entry["answered_error_rate"])
                row.append(_ci(entry["selective_risk"], digits))
            else:
                entry["selective_risk"] = None
                row.append("— (answered fewer)")
        systems_out[name] = entry
        rows.append(row)
    columns = ["system", "answered", "coverage", "error rate of the answers"]
    if coverage is not None:
        columns.append(f"selective risk at coverage {coverage:g}")
    caption = (f"The reject label {str(reject)!r} is no class: each system's metrics are those of the items it "
               f"answered. Coverage: the share of the items answered. {confidence:.0%} Clopper–Pearson intervals."
               + (" Without probabilities a system's answers are one operating point: its selective risk is the error "
                  "rate of its answers up to the coverage it reached, and undefined beyond." if coverage is not None
                  else ""))
    table = TableBlock(id="abstentions", title="Abstentions", caption=caption, columns=columns,
                       numeric=[False, *[True] * (len(columns) - 1)], rows=rows)
    text = (f"A system that abstains writes {str(reject)!r}, which is no class: its confusion matrix, and every "
            "metric computed from it, holds the items it answered, and its coverage — the share of the test items it "
            "answered — is reported beside them with the error rate of those answers (the selective risk at its own "
            "coverage), each with a Clopper–Pearson interval; a paired comparison resamples all the items, each "
            "resample scoring every system on the items it answered there")
    text += ("; for the AURC and the selective risk of a system with probabilities its abstentions come after every "
             "answer, scored by their most probable class " if ranked else " ")
    par = Paragraph(spans=[Span(text=text), Span(kind="cite", keys=["geifman2017selective"]), Span(text=".")])
    return out, table, par


def _ci(e: Mapping[str, Any], digits: int) -> str:
    v = e.get("estimate")
    if v is None:
        return "—"
    return f"{_fmt(v, digits)} [{_fmt(e['low'], digits)}, {_fmt(e['high'], digits)}]"
