"""The report's operating constraints, clinical calibration and decision curves (issue 21).

:func:`decision_values` runs inside :func:`advisor.report._build_scores.prepare`: for a binary task with item
scores or risks it computes the plan's TPR at an FPR budget (and the threshold that meets it), precision and
recall at K, the calibration intercept and slope with the observed/expected ratio, the integrated calibration
index and the net benefit at each risk threshold. Their item-bootstrap intervals come with the other score
metrics (:func:`advisor.report._build_scores.finish`, ``params``); :func:`decision_tables` then lays out what
the metrics table cannot hold: the threshold each budget chose, the calibration in the clinical form and the
decision curve with treat-all and treat-none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import (
    LOG_LOSS_EPS,
    calibration_fit,
    ici,
    ks_statistic,
    loess_curve,
    net_benefit,
    partial_roc_auc,
    precision_recall_at_k,
    ranked_probability_score,
    recalibration_loss,
    rps_skill,
    tpr_at_fpr,
)
from ._models import TableBlock
from ._models_scores import Curve

__all__ = ["DECISION_REPORT_IDS", "decision_params", "decision_tables", "decision_values", "is_decision_id"]

DECISION_REPORT_IDS = ("tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k", "recall_at_k",
                       "calibration_intercept", "calibration_slope", "ici", "ranked_probability_score", "rps_skill")
RPS_IDS = ("ranked_probability_score", "rps_skill")


def is_decision_id(mid: str) -> bool:
    """A metric of the item bootstrap with parameters: issue 21's, and selective prediction's (issue 23)."""
    return mid in DECISION_REPORT_IDS or mid.startswith("net_benefit@") or mid in ("aurc", "selective_risk", "coverage_at_risk")


def _planned(rec_json: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{metric id: params}`` of the lead and the metrics beside it."""
    items = [rec_json.get("primary") or {}, *(rec_json.get("complementary") or [])]
    return {str(i.get("metric")): dict(i.get("params") or {}) for i in items if i.get("metric")}


def decision_params(rec_json: Mapping[str, Any], n: int) -> dict[str, Any]:
    """The parameters of the plan's issue-21 metrics: ``max_fpr``, ``k`` (items reviewed in this test set)."""
    planned = _planned(rec_json)
    out: dict[str, Any] = {}
    fpr = planned.get("tpr_at_fpr", {}).get("max_fpr", planned.get("partial_roc_auc", {}).get("max_fpr"))
    if fpr is not None:
        out["max_fpr"] = float(fpr)
    for mid in ("precision_at_k", "recall_at_k"):
        p = planned.get(mid)
        if p is None:
            continue
        if p.get("alerts") is not None:
            out["k"] = int(p["alerts"])
        elif p.get("review_share") is not None:
            out["k"] = max(1, int(round(float(p["review_share"]) * n)))
            out["review_share"] = float(p["review_share"])
    return out


def decision_values(state: Any, values: dict[str, dict[str, Any]], rec_json: Mapping[str, Any]) -> None:
    """Add the plan's issue-21 metrics to every system's values; keep what the tables and text state."""
    planned = [m for m in _planned(rec_json) if is_decision_id(m)]
    if set(planned) & set(RPS_IDS) and state.y is not None:
        _rps_values(state, values, _planned(rec_json))
    if not planned or state.y is None or len(state.labels) != 2 or state.pos is None:
        return
    p_idx = state.labels.index(state.pos)
    y = np.array([1.0 if v == state.pos or str(v) == str(state.pos) else 0.0 for v in state.y])
    params = decision_params(rec_json, len(y))
    state.decision_params = params
    data = state.data
    data.decision_budget = params.get("max_fpr")
    data.decision_k = params.get("k")
    data.decision_review_share = params.get("review_share")
    data.decision_n = len(y)
    thresholds = sorted(float(m.split("@", 1)[1]) for m in planned if m.startswith("net_benefit@"))
    for name, s in state.outputs.items():
        col = s if s.ndim == 1 else s[:, p_idx]
        v = values[name]
        if "tpr_at_fpr" in planned and "max_fpr" in params:
            tpr, thr = tpr_at_fpr(y, col, params["max_fpr"])
            v["tpr_at_fpr"] = float(tpr)
            flagged = col >= thr
            fpr = float(flagged[y == 0].mean()) if (y == 0).any() else float("nan")
            data.operating[name] = {"threshold": float(thr), "tpr": float(tpr), "fpr": fpr}
        if "partial_roc_auc" in planned and "max_fpr" in params:  # McClish's standardized area up to the budget
            v["partial_roc_auc"] = float(partial_roc_auc(y, col, params["max_fpr"]))
        if "ks_statistic" in planned:  # the largest TPR − FPR over the thresholds (Lessmann et al. 2015)
            v["ks_statistic"] = float(ks_statistic(y, col))
        if {"precision_at_k", "recall_at_k"} & set(planned) and "k" in params:
            prec, rec = precision_recall_at_k(y, col, params["k"])
            v["precision_at_k"], v["recall_at_k"] = float(prec), float(rec)
            order = np.sort(col)[::-1]
            data.review[name] = {"k": float(params["k"]), "precision": float(prec), "recall": float(rec),
                                 "cut": float(order[min(int(params["k"]), len(order)) - 1])}
        if s.ndim != 2:
            continue
        if {"calibration_intercept", "calibration_slope", "ici"} & set(planned):
            fit = calibration_fit(y, col)
            v["calibration_intercept"], v["calibration_slope"] = float(fit["intercept"]), float(fit["slope"])
            v["ici"] = float(ici(y, col))
            grid, curve = loess_curve(y, col)
            data.clinical[name] = {"observed_expected": float(fit["observed_expected"]),
                                      "mean_risk": float(col.mean()), "observed": float(y.mean())}
            data.smooth[name] = Curve(x=[float(x) for x in grid], y=[float(x) for x in curve])
            band = _loess_band(y, col, grid)
            if band is not None:
                data.smooth_band[name] = [Curve(x=[float(x) for x in grid], y=[float(x) for x in b]) for b in band]
            data.recalibration_loss[name] = float(recalibration_loss(y, col))
            # the risks the logit clips: the clipping is said only where it changed a number (issue 22, item 4)
            data.extreme_risks[name] = int(np.count_nonzero((col < LOG_LOSS_EPS) | (col > 1 - LOG_LOSS_EPS)))
        if thresholds:
            nb, everyone = net_benefit(y, col, thresholds)
            for t, x in zip(thresholds, nb):
                v[f"net_benefit@{t:g}"] = float(x)
            data.net_benefit_all = {f"{t:g}": float(x) for t, x in zip(thresholds, everyone)}
            data.net_benefit_thresholds = thresholds
            if len(thresholds) > 1:  # the decision curve over the range in use, not only its named points
                grid = curve_thresholds(thresholds)
                nb_grid, all_grid = net_benefit(y, col, grid.tolist())
                data.net_benefit_curve[name] = Curve(x=[float(x) for x in grid], y=[float(x) for x in nb_grid])
                data.net_benefit_all_curve = Curve(x=[float(x) for x in grid], y=[float(x) for x in all_grid])


#: points of the decision curve drawn between the smallest and the largest risk threshold named
CURVE_POINTS = 61


def curve_thresholds(named: Sequence[float]) -> np.ndarray:
    """The thresholds the decision curve is drawn at: :data:`CURVE_POINTS` evenly spaced from the smallest to the
    largest named one, with the named ones themselves (so the curve passes through the tabulated points).

    >>> curve_thresholds([0.05, 0.1, 0.2])[[0, -1]].tolist(), 0.1 in curve_thresholds([0.05, 0.1, 0.2])
    ([0.05, 0.2], True)
    """
    lo, hi = float(min(named)), float(max(named))
    return np.unique(np.concatenate([np.linspace(lo, hi, CURVE_POINTS), np.asarray(named, dtype=np.float64)]))


#: resamples of the calibration curve's band, and the most items × resamples × grid points it is drawn for
BAND_RESAMPLES = 100
BAND_BUDGET = 4e7


def _loess_band(y: np.ndarray, risk: np.ndarray, grid: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The pointwise 95% band of the loess calibration curve from :data:`BAND_RESAMPLES` bootstrap resamples of
    the items, drawn in an order fixed by the items' values (so the band does not depend on the row order); None
    where the test set is too large for it to be cheap (the figure then draws the curve alone and says so)."""
    n, g = y.shape[0], np.asarray(grid).shape[0]
    if n * g * BAND_RESAMPLES > BAND_BUDGET:
        return None
    order = np.lexsort((y, risk))
    w = np.random.default_rng(0).multinomial(n, np.full(n, 1.0 / n), size=BAND_RESAMPLES).astype(np.float64)
    _, curves = loess_curve(y[order], risk[order], w, grid=np.asarray(grid))
    low, high = np.nanpercentile(curves, [2.5, 97.5], axis=0)
    return low, high


def _rps_values(state: Any, values: dict[str, dict[str, Any]], planned: Mapping[str, Mapping[str, Any]]) -> None:
    """The ranked probability score and its skill, with the classes in the plan's order (issue 21, item 6)."""
    order = next((list(planned[m]["order"]) for m in RPS_IDS if planned.get(m, {}).get("order")), None)
    labels = [str(x) for x in state.labels]
    order = [str(x) for x in order] if order else labels
    if sorted(order) != sorted(labels):
        return
    perm = [labels.index(c) for c in order]
    rank = {lab: i for i, lab in enumerate(order)}
    idx = np.array([rank[str(v)] for v in state.y])
    state.decision_params["order_index"] = perm
    state.data.rps_order = order
    for name, s in state.outputs.items():
        if s.ndim != 2:
            continue
        values[name]["ranked_probability_score"] = float(ranked_probability_score(idx, s[:, perm]))
        values[name]["rps_skill"] = float(rps_skill(idx, s[:, perm]))


def _fmt(v: Any, digits: int) -> str:
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return "—" if v is None or np.isnan(v) else ("∞" if v > 0 else "−∞")
    return f"{v:.{digits}f}"


def _with_interval(rep: Any, mid: str, digits: int) -> str:
    value = rep.values.get(mid)
    iv = rep.intervals.get(mid)
    text = _fmt(value, digits)
    if iv is not None and iv.low is not None and iv.high is not None:
        text += f" [{_fmt(iv.low, digits)}, {_fmt(iv.high, digits)}]"
    return text


def decision_tables(data: Any, reports: Sequence[Any], digits: int = 3) -> list[TableBlock]:
    """The threshold each budget chose, the calibration of the risks and the decision curve, as tables."""
    if data is None:
        return []
    out: list[TableBlock] = []
    if data.operating:
        rows = [[name, _fmt(o["threshold"], 4), _fmt(o["tpr"], digits), _fmt(o["fpr"], digits)]
                for name, o in data.operating.items()]
        out.append(TableBlock(
            id="operating_point", title="Threshold within the false positive rate budget",
            caption=(f"For each system the highest-scoring threshold whose false positive rate on the test set is at "
                     f"most {data.decision_budget:g} (items with a score at or above it are flagged) and the rates it "
                     "gives. It was chosen on the test set, so the true positive rate is optimistic for new data."),
            columns=["system", "threshold", "true positive rate", "false positive rate"],
            numeric=[False, True, True, True], rows=rows))
    if data.review:
        k = data.decision_k
        share = (f" ({data.decision_review_share:g} of the {data.decision_n:,} test items)"
                 if data.decision_review_share is not None else f" of the {data.decision_n:,} test items")
        rows = [[name, _fmt(r["cut"], 4), _fmt(r["precision"], digits), _fmt(r["recall"], digits)]
                for name, r in data.review.items()]
        out.append(TableBlock(
            id="review_budget", title="The review budget",
            caption=(f"The K = {int(k):,} highest-scored items{share} are reviewed; the score at the cut, and "
                     "precision and recall among them. A tie at the cut is reviewed fractionally: each tied item "
                     "counts for the share of the tie that fits in the budget."),
            columns=["system", "score at the cut", "precision at K", "recall at K"],
            numeric=[False, True, True, True], rows=rows))
    if data.clinical:
        by = {r.name: r for r in reports}
        rows = []
        for name, c in data.clinical.items():
            rep = by.get(name)
            if rep is None:
                continue
            loss = data.recalibration_loss.get(name)
            rows.append([name, _fmt(c["mean_risk"], digits), _fmt(c["observed"], digits),
                         _fmt(c["observed_expected"], 2), _with_interval(rep, "calibration_intercept", 2),
                         _with_interval(rep, "calibration_slope", 2), _with_interval(rep, "ici", digits),
                         "—" if loss is None or not np.isfinite(loss) else f"{loss * 100:.1f}%"])
        out.append(TableBlock(
            id="clinical_calibration", title="Calibration of the risks",
            caption=("Mean predicted risk against the observed share, their ratio (observed/expected), the calibration "
                     "intercept (ideal 0; negative when the risks are too high) and slope (ideal 1; below 1 when they "
                     "are too extreme) of logistic recalibrations on the logit of the risk, and the integrated "
                     "calibration index of a loess-smoothed calibration curve (span 0.75), with bootstrap intervals. "
                     "Recalibration gain: the share of the log loss that a logistic recalibration (intercept and "
                     "slope), fitted on four fifths of the items and applied to the other fifth in turn, removes — the "
                     "part due to miscalibration; negative where the recalibrated risks do worse."),
            columns=["system", "mean risk", "observed", "O/E", "intercept", "slope", "ICI", "recalibration gain"],
            numeric=[False, True, True, True, True, True, True, True], rows=rows))
    if data.net_benefit_thresholds:
        names = [r.name for r in reports]
        rows = []
        for t in data.net_benefit_thresholds:
            mid = f"net_benefit@{t:g}"
            row = [f"{t:g}", _fmt(data.net_benefit_all.get(f"{t:g}"), digits), _fmt(0.0, digits)]
            row += [_with_interval(r, mid, digits) for r in reports]
            rows.append(row)
        out.append(TableBlock(
            id="decision_curve", title="Net benefit at the risk thresholds in use",
            caption=("Net benefit TP/n − FP/n · t/(1 − t) of treating those whose risk is at least t, with bootstrap "
                     "intervals, beside treating everyone and treating no one (Vickers & Elkin 2006)."),
            columns=["risk threshold t", "treat all", "treat none", *names],
            numeric=[True, True, True, *([True] * len(names))], rows=rows))
    return out
