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
    risk_coverage_curve,
    selective_by_class,
    selective_items,
    selective_risk,
)
from ._build_decisions import _fmt, _with_interval
from ..stats import calibration_split, clustered_sgr, frozen_cut, pick_seed, proportion_interval, quantile_cut
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


def selective_values(state: Any, values: dict[str, dict[str, Any]], rec_json: Mapping[str, Any],
                     confidence: float = 0.95, resamples: int = 0, seed: Any = None, groups: Any = None) -> None:
    """Add the plan's AURC, selective risk, coverage at the target risk and coverage at the frozen cut to every system
    with probabilities; keep the curve and coverage.

    The coverage at the frozen cut (the plan's ``coverage_guaranteed_risk``; the selective-classification
    methodologist: "run SGR on a held-out calibration split, freeze θ, and report the realised coverage and risk on
    the test matters"): the groups (``groups``, the matter of each document; the items without them) are split at
    random with ``seed`` into a calibration and a test half (:func:`advisor.stats.calibration_split`); selection with
    guaranteed risk at ``δ = 1 − confidence`` fixes the cut on the calibration half, its bound at the effective sample
    size with groups (:func:`advisor.stats.clustered_sgr`); on the test half the cut's coverage and the error rate of
    its answers are given with BCa intervals over ``resamples`` resamples of the test groups, and the error rate's
    one-sided bound against the target (:func:`advisor.stats.frozen_cut`).

    The selective risk at the frozen cut (the plan's ``risk_at_frozen_coverage``; the dermatology reader: "fix the
    deferral threshold on a validation split, then report on the test set the realised coverage and the selective risk
    at that frozen threshold"): on the same split, the cut is the confidence that answers the target coverage of the
    calibration items (:func:`advisor.stats.quantile_cut`), frozen; on the test half the error rate of its answers and
    their share, with the same intervals (:func:`advisor.stats.frozen_cut`, no target risk), and the by-class figures
    at it."""
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
    at_coverage = "risk_at_frozen_coverage" in planned and coverage is not None
    calib = None
    g = None if groups is None else np.asarray(groups)
    if guaranteed or at_coverage:  # one split for both cuts, from the report's seed
        data.selective_confidence = float(confidence)
        seed = pick_seed(seed)
        calib = calibration_split(n, g, seed)
        data.selective_split = {"seed": seed, "grouped": g is not None,
                                "calibration_items": int(calib.sum()), "test_items": int((~calib).sum()),
                                "calibration_units": _units(g, calib), "test_units": _units(g, ~calib)}
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
        if coverage is not None and not at_coverage:
            row["selective_risk"] = float(selective_risk(error, conf, coverage))
            data.selective_by_class[name] = selective_by_class(truth, error, conf, coverage, labels)
        if at_coverage and coverage is not None and calib is not None and np.all(np.isfinite(error)):
            cut = quantile_cut(conf[calib], coverage)
            test = ~calib
            frozen = frozen_cut(error[test], conf[test], cut, None, float(confidence),
                                groups=None if g is None else g[test], n_resamples=resamples, seed=seed)
            v["risk_at_frozen_coverage"] = frozen.risk[0]
            row["risk_at_frozen_coverage"] = frozen.risk[0]
            row["frozen_coverage_threshold"] = cut
            answered_calib = int((conf[calib] >= cut).sum()) if cut is not None else 0
            data.frozen_coverage[name] = {"calibration": {"threshold": cut, "answered": answered_calib,
                                                          "coverage": answered_calib / max(int(calib.sum()), 1),
                                                          "items": int(calib.sum()),
                                                          "units": _units(g, calib)},
                                          "test": frozen.to_json()}
            # the by-class figures at the frozen cut, on the test half (a cut met by deferring one class shows)
            answered = (conf[test] >= cut) if cut is not None else np.zeros(int(test.sum()), dtype=bool)
            data.selective_by_class[name] = selective_by_class(truth[test], error[test], conf[test], coverage, labels,
                                                               answered=answered)
        if target_risk is not None and "coverage_at_risk" in planned:
            row["coverage_at_risk"] = float(coverage_at_risk(error, conf, target_risk))
        if guaranteed and target_risk is not None and calib is not None and np.all(np.isfinite(error)):
            fit = clustered_sgr(error[calib], conf[calib], target_risk, 1.0 - float(confidence),
                                groups=None if g is None else g[calib])
            test = ~calib
            frozen = frozen_cut(error[test], conf[test], fit.threshold, target_risk, float(confidence),
                                groups=None if g is None else g[test], n_resamples=resamples, seed=seed)
            v["coverage_guaranteed_risk"] = frozen.coverage[0]
            row["coverage_guaranteed_risk"] = frozen.coverage[0]
            row["guaranteed_threshold"] = fit.threshold
            data.frozen_cut[name] = {"calibration": {"threshold": fit.threshold, "answered": fit.answered,
                                                     "errors": fit.errors, "coverage": fit.coverage,
                                                     "design_effect": fit.design_effect, "bound": fit.bound,
                                                     "items": fit.items, "units": fit.units},
                                     "test": frozen.to_json()}
        data.selective[name] = row


def _units(groups: Any, part: np.ndarray) -> int:
    """The groups of a half (its items, without groups)."""
    return int(part.sum()) if groups is None else int(np.unique(np.asarray(groups)[part]).shape[0])


def selective_table(data: Any, reports: Any, digits: int = 3) -> list[Any]:
    """Per system: the error rate of answering every item, the selective risk at the target coverage (with its
    interval), the largest coverage whose selective risk is within the target risk, and the cut frozen on the
    calibration half with its coverage and the error rate of its answers on the test half."""
    if data is None or not data.selective:
        return []
    by = {r.name: r for r in reports}
    c = data.selective_coverage
    r = data.selective_target_risk if any("coverage_at_risk" in v for v in data.selective.values()) else None
    columns, numeric = ["system", "error rate, every item answered"], [False, True]
    at_c = data.frozen_coverage if data.selective_split is not None else {}
    if c is not None and at_c:  # the cut frozen on the calibration half for the coverage, tested on the other
        columns += [f"cut answering {c:g} of the calibration half", "coverage at it, test half",
                    "selective risk at it, test half"]
    elif c is not None:
        columns.append(f"selective risk at coverage {c:g}")
    if r is not None:
        columns.append(f"coverage at risk ≤ {r:g}")
    frozen = data.frozen_cut if data.selective_split is not None else {}
    g = data.selective_confidence
    if frozen and g is not None:
        columns += ["cut frozen on the calibration half", "coverage on the test half", "error rate of its answers",
                    f"{g:.0%} upper bound", "verdict"]
    numeric += [True] * (len(columns) - 2)
    if frozen and g is not None:
        numeric[-1] = False
    rows = []
    for name, v in data.selective.items():
        row = [name, _fmt(v["error_rate"], digits)]
        if c is not None and at_c:
            q = at_c.get(name)
            row += ["—"] * 3 if q is None else [_fmt(q["calibration"]["threshold"], digits),
                                                 _ci(q["test"]["coverage"], digits),
                                                 _ci(q["test"]["risk"], max(digits, 4))]
        elif c is not None:
            rep = by.get(name)
            row.append(_with_interval(rep, "selective_risk", digits) if rep is not None and "selective_risk" in
                       rep.values else _fmt(v.get("selective_risk"), digits))
        if r is not None:
            rep = by.get(name)
            row.append(_with_interval(rep, "coverage_at_risk", digits) if rep is not None and "coverage_at_risk" in
                       rep.values else _fmt(v.get("coverage_at_risk"), digits))
        if frozen and g is not None:
            f = frozen.get(name)
            if f is None:
                row += ["—"] * 5
            else:
                t = f["test"]
                row += [_fmt(f["calibration"]["threshold"], digits), _ci(t["coverage"], digits),
                        _ci(t["risk"], max(digits, 4)), _fmt(t.get("upper"), max(digits, 4)), str(t.get("verdict") or "—")]
        rows.append(row)
    caption = " ".join(x for x in (
        "The items are answered most confident first (top-label probability; ties shared fractionally).",
        f"The selective risk is the error rate among the ⌈c·n⌉ = {data.selective_answered:,} most confident of the "
        f"{data.selective_n:,} items." if c is not None and not at_c else "",
        _coverage_caption(data) if c is not None and at_c else "",
        f"The coverage at risk ≤ {r:g} is the largest share of the items, most confident first, whose error rate is at "
        "most that; chosen on the test set, it is optimistic for new data." if r is not None else "",
        _frozen_caption(data) if frozen and g is not None else "") if x)
    return [TableBlock(id="selective_prediction", title="Selective prediction", caption=caption.strip(),
                       columns=columns, numeric=numeric, rows=rows), *_by_class_table(data, digits)]


def _frozen_caption(data: Any) -> str:
    """How the cut was fixed on one half and tested on the other, with the counts of both halves."""
    split, g, r = data.selective_split, float(data.selective_confidence), float(data.selective_target_risk)
    unit = "groups" if split["grouped"] else "items"
    halves = (f"The {split['calibration_units'] + split['test_units']:,} {unit} were split at random (seed "
              f"{split['seed']}) into a calibration half of {split['calibration_units']:,} "
              + (f"({split['calibration_items']:,} items) " if split["grouped"] else "")
              + f"and a test half of {split['test_units']:,}"
              + (f" ({split['test_items']:,} items)" if split["grouped"] else "") + ". ")
    effect = ", its bound taken at the effective sample size (the items answered over the design effect of their " \
        "error rate over the groups" + "; " + "; ".join(
            f"{name}: {f['calibration']['design_effect']:.2f} at the cut" for name, f in data.frozen_cut.items()) + ")" \
        if split["grouped"] else ""
    return (halves + f"Selection with guaranteed risk (Geifman & El-Yaniv 2017) fixed the confidence cut on the "
            f"calibration half at δ = {1 - g:g}{effect}; frozen, it answers the test items whose top-label "
            f"probability is at least the cut. On the test half: the share answered and the error rate of those "
            f"answers, with {g:.0%} intervals over resamples of the test {unit}, and the error rate's one-sided "
            f"{g:.0%} upper bound against the target {r:g} (within the limit: the bound is at most it; over it: the "
            "error rate itself is above it). With probability at least "
            f"{g:.0%} over the draw of the calibration half, the risk of items of the same kind answered at the "
            f"frozen cut is at most {r:g}" + (", approximately, since the design effect is estimated" if
                                              split["grouped"] else "") + "; no cut when none tried qualifies.")


def _coverage_caption(data: Any) -> str:
    """How the cut for the target coverage was fixed on one half and tested on the other, with both halves' counts
    (said once, when the cut frozen for a target risk has not said the split)."""
    split, g, c = data.selective_split, float(data.selective_confidence), float(data.selective_coverage)
    unit = "groups" if split["grouped"] else "items"
    halves = "" if data.frozen_cut else (
        f"The {split['calibration_units'] + split['test_units']:,} {unit} were split at random (seed "
        f"{split['seed']}) into a calibration half of {split['calibration_units']:,} "
        + (f"({split['calibration_items']:,} items) " if split["grouped"] else "")
        + f"and a test half of {split['test_units']:,}" + (f" ({split['test_items']:,} items)" if split["grouped"]
                                                            else "") + ". ")
    return (halves + f"The cut for coverage {c:g} is the top-label probability of the ⌈c·n_c⌉-th most confident "
            f"calibration item; frozen, it answers the test items whose top-label probability is at least it. On the "
            f"test half: the share answered (the realised coverage) and the error rate of those answers (the selective "
            f"risk), with {g:.0%} intervals over resamples of the test {unit}.")


def _by_class_table(data: Any, digits: int) -> list[Any]:
    """Per true class and system at the target coverage: the share of the class's items answered and the recall
    among them (a cut met by deferring one class shows here)."""
    if not data.selective_by_class or data.selective_coverage is None:
        return []
    rows = [[lab, f"{v['n']:,.0f}", name, _fmt(v["answered"], digits), _fmt(v["recall_answered"], digits),
             _count(v.get("answered_wrong"))]
            for name, per in data.selective_by_class.items() for lab, v in per.items()]
    c = data.selective_coverage
    frozen = bool(data.frozen_coverage) and data.selective_split is not None
    at = (f"On the test half, at the cut frozen on the calibration half for coverage {c:g}" if frozen else
          f"At coverage {c:g}, the ⌈c·n⌉ most confident items answered (ties shared fractionally)")
    caption = (f"{at}: for each true class, the share of its items answered, the share of those answered that are "
               "right, and how many of its items are answered as another class. A class whose share answered is far "
               "below the coverage is the one the cut defers.")
    title = f"By class at the cut frozen for coverage {c:g}" if frozen else f"By class at coverage {c:g}"
    return [TableBlock(id="selective_by_class", title=title, caption=caption,
                       columns=["true class", "items", "system", "share answered", "recall among answered",
                                "answered as another class"],
                       numeric=[False, True, False, True, True, True], rows=rows)]


def _count(x: Any) -> str:
    """A count of items, with one decimal where a tie at the cut shares an item fractionally."""
    if x is None:
        return "—"
    return f"{x:,.0f}" if abs(x - round(x)) < 1e-9 else f"{x:,.1f}"


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
            frozen_at = (getattr(score_data, "frozen_coverage", None) or {}).get(name)
            if name in ranked and frozen_at is not None:  # the cut frozen for the coverage, on the test half
                row.append(f"{_ci(frozen_at['test']['risk'], digits)} (at the cut frozen for it, test half)")
            elif name in ranked:
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
    if e.get("low") is None or e.get("high") is None:  # no interval (no resamples, or every resample alike)
        return _fmt(v, digits)
    return f"{_fmt(v, digits)} [{_fmt(e['low'], digits)}, {_fmt(e['high'], digits)}]"
