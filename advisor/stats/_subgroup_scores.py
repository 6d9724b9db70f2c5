r"""Within each subgroup value: the score metrics beside the value's class shares, the ROC AUC gap, and the error
rates at a threshold set on the whole test set (``by=``; issue 23 item 1, the toxic reader).

**Score metrics per value.** For a binary task whose systems were read with scores or probabilities: the report's
score metrics (ROC AUC, average precision, log loss, Brier score) on the value's items, each with the project's item
bootstrap (:func:`advisor.stats.compare_scored`, BCa) on those items, beside the value's share of the class of
interest. Average precision, log loss and the Brier score move with that share (the catalogue's prevalence
invariance fails for them), so a gap between values would mix the values' base rates with bias; only ROC AUC,
which does not depend on the class shares, gets a gap across the values: ``max − min`` of the values' ROC AUCs, with
the simultaneous pairwise interval of :mod:`advisor.stats._subgroup_gaps` from a bootstrap that draws each value's
items on their own.

**Error rates at a global threshold.** An open operating point leaves no threshold, and the bias AUCs do not read
the error a decision makes within a group. Dixon et al. (2018) read a toxicity classifier's per-term false positive
and false negative rates at the threshold where the overall false positive and false negative rates are equal
(:func:`advisor.engine.equal_error_threshold`), one threshold for every group. Per system that threshold is found on
the whole test set; within each value the FPR (the share of the value's negatives flagged) and the FNR (the share of
its positives not flagged) have Clopper–Pearson intervals given the threshold, and across the values the FPR gap
and the FNR gap have the intervals of the other gaps (:func:`advisor.stats._subgroup_gaps.gap_intervals`). The FNR is
1 − TPR, so its gap is the TPR gap and shares its interval (every difference between two values only changes sign).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import JointCounts, Ranking, equal_error_threshold, probability_metrics, \
    score_metrics
from ._bootstrap import make_rng
from ._clusters import item_weights
from ._items import compare_scored
from ._proportions import finite_or_none as _num, rates_of
from ._subgroup_aucs import by_values, score_of
from ._subgroup_gaps import _simultaneous, gap_intervals, value_range

__all__ = ["CRITERION", "SCORE_IDS", "auc_gaps", "equality_differences", "error_rates_at_threshold",
           "scores_by_value"]

#: The score metrics computed within each value (those of the report among them)
SCORE_IDS = ("roc_auc", "average_precision", "log_loss", "brier", "brier_binary")
#: How the threshold of the error rates is set
CRITERION = "equal_error"


def _inputs(f: Any, pos: str) -> tuple[np.ndarray, np.ndarray | None, Any]:
    """``(each item's class text, the positive class's score, what compare_scored reads: the probabilities when
    given, else the score)``."""
    y = np.asarray([str(v) for v in f.y_true], dtype=object)
    s = score_of(f, pos)
    proba = getattr(f, "proba", None)
    return y, s, (np.asarray(proba, dtype=np.float64) if proba is not None else s)


def _scored_by(scored: Mapping[str, Any], systems: Sequence[str], col: str, pos: str) -> Iterator[tuple[Any, ...]]:
    """``(name, scored file, each item's class, the class of interest's score, what compare_scored reads, each item's
    value of col)`` of each system with a score of the class of interest and a value of ``col`` for every item."""
    for name in systems:
        f = scored.get(name)
        if f is None:
            continue
        y, s, reads = _inputs(f, pos)
        by = by_values(scored, name, col, len(y)) if s is not None else None
        if s is not None and by is not None:
            yield name, f, y, s, reads, by


def scores_by_value(scored: Mapping[str, Any], systems: Sequence[str], columns: Mapping[str, Sequence[Any]],
                    labels: Sequence[Any], positive_label: Any, metrics: Sequence[str], *,
                    n_resamples: int | None = None, confidence: float = 0.95, seed: Any = None) -> dict[str, Any]:
    """``{column: {value: {system: {"n", "positives", "share", metric: {"estimate"[, "low", "high", "method"]}}}}}``:
    the score metrics ``metrics`` (of :data:`SCORE_IDS`) on each value's items, ``share`` the value's share of the
    class of interest. A value whose items lack a class gets no metric (its ROC AUC is undefined).

    >>> from types import SimpleNamespace
    >>> f = SimpleNamespace(y_true=list("101010"), score=np.array([.9, .8, .7, .2, .6, .1]), proba=None,
    ...                     by={"g": list("aaabbb")})
    >>> r = scores_by_value({"m": f}, ["m"], {"g": ["a", "b"]}, ["0", "1"], "1", ["roc_auc"])
    >>> r["g"]["a"]["m"]["share"], r["g"]["b"]["m"]["roc_auc"]["estimate"]
    (0.6666666666666666, 1.0)
    """
    pos = str(positive_label)
    proba_ids = {"log_loss", "brier", "brier_binary"}
    out: dict[str, Any] = {}
    for col, values in columns.items():
        per_value: dict[str, Any] = {str(v): {} for v in values}
        for name, f, y, _, reads, by in _scored_by(scored, systems, col, pos):
            ids = [m for m in metrics if m in SCORE_IDS and (m not in proba_ids or np.ndim(reads) == 2)]
            plabels = [str(x) for x in getattr(f, "proba_labels", None) or []] if np.ndim(reads) == 2 else \
                [str(x) for x in labels]
            for value in values:
                m = by == str(value)
                n, npos = int(m.sum()), int((y[m] == pos).sum())
                entry: dict[str, Any] = {"n": n, "positives": npos, "share": npos / n if n else None}
                if ids and 0 < npos < n:
                    given = {"proba": reads[m], "proba_labels": plabels} if np.ndim(reads) == 2 else \
                        {"score": reads[m]}
                    point, _ = score_metrics(list(y[m]), plabels, positive_label=pos,
                                             metrics=[i for i in ids if i not in ("log_loss", "brier")], **given)
                    if np.ndim(reads) == 2 and {"log_loss", "brier"} & set(ids):  # the proper scores' own home
                        point.update(probability_metrics(list(y[m]), reads[m], plabels))
                    cmp = compare_scored(y[m], {name: reads[m]}, plabels, positive_label=pos, metrics=ids,
                                         n_resamples=int(n_resamples), confidence=confidence, seed=seed,
                                         groups=None if getattr(f, "group", None) is None
                                         else np.asarray(f.group, dtype=object)[m]) if n_resamples else None
                    for mid in ids:
                        e: dict[str, Any] = {"estimate": _num(point.get(mid))}
                        if cmp is not None:
                            lo, hi = cmp.intervals[mid][name]
                            e.update({"low": _num(lo), "high": _num(hi),
                                      "method": cmp.methods.get(mid, {}).get(name)})
                        entry[mid] = e
                per_value[str(value)][name] = entry
        if any(per_value.values()):
            out[col] = per_value
    return out


def auc_gaps(scored: Mapping[str, Any], systems: Sequence[str], columns: Mapping[str, Sequence[Any]],
             positive_label: Any, *, n_resamples: int | None = None, confidence: float = 0.95,
             seed: Any = None) -> dict[str, Any]:
    """``{column: {system: {"gap", "ratio", "max", "argmax", "min", "argmin"[, "low", "high", "method"]}}}``: the
    largest minus the smallest ROC AUC over a column's values (the subgroup AUCs), with the simultaneous pairwise
    interval from a bootstrap that draws each value's items (or its groups of items) on their own.

    >>> from types import SimpleNamespace
    >>> f = SimpleNamespace(y_true=list("101010"), score=np.array([.9, .8, .7, .2, .6, .1]), proba=None,
    ...                     by={"g": list("aaabbb")})
    >>> auc_gaps({"m": f}, ["m"], {"g": ["a", "b"]}, "1")["g"]["m"]["gap"]
    0.5
    """
    pos = str(positive_label)
    out: dict[str, Any] = {}
    for col, values in columns.items():
        per_system: dict[str, Any] = {}
        for name, f, y, s, _, by in _scored_by(scored, systems, col, pos):
            rng = make_rng(seed)
            points, draws, kept = [], [], []
            for value in values:
                m = by == str(value)
                yp = (y[m] == pos).astype(np.float64)
                if not (0 < yp.sum() < yp.shape[0]):
                    continue
                r = Ranking(s[m])
                points.append(float(r.auc(yp, 1.0 - yp)))
                kept.append(str(value))
                if n_resamples:
                    g = getattr(f, "group", None)
                    gi = None
                    if g is not None:
                        _, gi = np.unique(np.asarray(g, dtype=object)[m].astype(str), return_inverse=True)
                    w = item_weights(rng, int(m.sum()), int(n_resamples), gi)
                    with np.errstate(invalid="ignore", divide="ignore"):
                        draws.append(np.asarray(r.auc(w * yp, w * (1.0 - yp)), dtype=np.float64))
            e = value_range(dict(zip(kept, points)))
            if e["gap"] is not None and n_resamples:
                e.update(_simultaneous([np.asarray(points)], [np.stack(draws)], confidence))
            per_system[name] = e
        if per_system:
            out[col] = per_system
    return out


def error_rates_at_threshold(scored: Mapping[str, Any], systems: Sequence[str], columns: Mapping[str, Sequence[Any]],
                             labels: Sequence[Any], positive_label: Any, *, n_resamples: int | None = None,
                             confidence: float = 0.95, seed: Any = None) -> dict[str, Any]:
    """``{system: {"threshold", "criterion", "fpr", "fnr", "columns": {column: {"values": {value: {"negatives",
    "positives", "fpr": {…}, "fnr": {…}}}, "gaps": {"fpr": {…}, "fnr": {…}}}}}}``: per system the equal-error threshold
    of its whole test set (:func:`advisor.engine.equal_error_threshold`), its overall FPR and FNR there, and within
    each value the two rates at that threshold (Clopper–Pearson intervals given the threshold) with their gaps across
    the values (``gap``, ``ratio``, ``argmax``, ``argmin`` and, resampled, the interval of every gap).

    >>> from types import SimpleNamespace
    >>> f = SimpleNamespace(y_true=list("110100"), score=np.array([.9, .8, .7, .4, .3, .1]), proba=None,
    ...                     by={"g": list("ababab")})
    >>> r = error_rates_at_threshold({"m": f}, ["m"], {"g": ["a", "b"]}, ["0", "1"], "1")["m"]
    >>> r["threshold"], r["columns"]["g"]["values"]["a"]["fpr"]["estimate"], r["columns"]["g"]["gaps"]["fpr"]["gap"]
    (0.7, 0.5, 0.5)
    """
    pos = str(positive_label)
    neg = next(str(x) for x in labels if str(x) != pos)
    out: dict[str, Any] = {}
    for name in systems:
        f = scored.get(name)
        if f is None:
            continue
        y, s, _ = _inputs(f, pos)
        if s is None:
            continue
        positive = y == pos
        if not positive.any() or positive.all():
            continue
        eer = equal_error_threshold(positive, s)
        flagged = s >= eer["threshold"]
        entry: dict[str, Any] = {"threshold": eer["threshold"], "criterion": CRITERION, "fpr": eer["fpr"],
                                 "fnr": eer["fnr"], "columns": {}}
        # a two-class table of (truth, decision at the threshold): class 0 the other class, 1 the class of interest
        codes = np.stack([positive.astype(np.int64), flagged.astype(np.int64)], axis=1)
        for col, values in columns.items():
            by = by_values(scored, name, col, len(y))
            if by is None:
                continue
            index = {str(v): j for j, v in enumerate(values)}
            vi = np.asarray([index.get(str(v), -1) for v in by], dtype=np.int64)
            keep = vi >= 0
            groups = getattr(f, "group", None)
            counts: np.ndarray
            if groups is None:  # one row per distinct (value, truth, decision), its count the number of items
                rows, n_rows = np.unique(np.column_stack([vi[keep], codes[keep]]), axis=0, return_counts=True)
                counts, row_groups = n_rows.astype(np.float64), None
            else:  # one row per item, so each keeps its group (whole groups resampled)
                rows, counts = np.column_stack([vi[keep], codes[keep]]), np.ones(int(keep.sum()))
                row_groups = np.asarray(groups, dtype=object)[keep].astype(str)
            joint = JointCounts((neg, pos), (name,), rows[:, 1:], counts)
            per_value, tpr = {}, {}
            for j, value in enumerate(values):
                sel = rows[:, 0] == j
                c = np.zeros((2, 2))
                np.add.at(c, (rows[sel, 1], rows[sel, 2]), counts[sel])
                rates = _rates(c, confidence if n_resamples else None)
                per_value[str(value)] = {"negatives": float(c[0].sum()), "positives": float(c[1].sum()),
                                         "fpr": rates["fpr"], "fnr": rates["fnr"]}
                tpr[str(value)] = {name: {"tpr": rates["tpr"], "fpr": rates["fpr"]}}
            gaps = _gaps(tpr, name)
            if n_resamples:
                ivs = gap_intervals(joint, rows[:, 0], len(values), {m: {name: g} for m, g in gaps.items()}, [], 1,
                                    1.0, "omit", int(n_resamples), confidence, seed, row_groups)
                for m, by_system in ivs.items():
                    gaps[m].update(by_system.get(name, {}))
            fnr_gap = _fnr_gap(per_value, gaps["tpr"])
            entry["columns"][col] = {"values": per_value, "gaps": {"fpr": gaps["fpr"], "fnr": fnr_gap},
                                     "equality_differences": equality_differences(per_value, eer["fpr"], eer["fnr"])}
        out[name] = entry
    return out


def equality_differences(per_value: Mapping[str, Mapping[str, Any]], fpr: float, fnr: float) -> dict[str, Any]:
    """The false positive and false negative equality differences of Dixon et al. (2018): ``{"fped": Σ_v |FPR −
    FPR_v|, "fned": Σ_v |FNR − FNR_v|, "values": how many values each sum runs over}``, the overall rates those of the
    whole test set at the same threshold and ``v`` every value of the column whose rate is defined (a value with no
    item of the class has none and is left out of that sum; None when no value has the rate).

    >>> per = {"a": {"fpr": {"estimate": 0.5}, "fnr": {"estimate": 0.0}},
    ...        "b": {"fpr": {"estimate": 0.0}, "fnr": {"estimate": None}}}
    >>> equality_differences(per, 0.25, 0.5)
    {'fped': 0.5, 'fned': 0.5, 'values': {'fped': 2, 'fned': 1}}
    """
    out: dict[str, Any] = {"values": {}}
    for key, rate, overall in (("fped", "fpr", fpr), ("fned", "fnr", fnr)):
        got = [float(x[rate]["estimate"]) for x in per_value.values()
               if x.get(rate) is not None and x[rate].get("estimate") is not None]
        out[key] = float(sum(abs(overall - r) for r in got)) if got else None
        out["values"][key] = len(got)
    return {"fped": out["fped"], "fned": out["fned"], "values": out["values"]}


def _rates(c: np.ndarray, confidence: float | None) -> dict[str, dict[str, Any]]:
    """TPR, FPR and FNR of a 2×2 table (rows: truth, other class first; columns: decision), each with its
    Clopper–Pearson interval when ``confidence`` is given; an empty denominator gives None."""
    tn, fp, fn, tp = c[0, 0], c[0, 1], c[1, 0], c[1, 1]
    return rates_of({"tpr": (tp, tp + fn), "fpr": (fp, fp + tn), "fnr": (fn, tp + fn)}, confidence)


def _gaps(per_value: Mapping[str, Any], name: str) -> dict[str, dict[str, Any]]:
    """The TPR and FPR gaps (max − min, min / max) over the values with a rate."""
    return {m: value_range({v: e[name][m]["estimate"] for v, e in per_value.items()
                            if e[name][m]["estimate"] is not None}) for m in ("tpr", "fpr")}


def _fnr_gap(per_value: Mapping[str, Any], tpr_gap: Mapping[str, Any]) -> dict[str, Any]:
    """The FNR gap: the TPR gap's value and interval (FNR = 1 − TPR), its own ratio and the values at its ends."""
    if tpr_gap.get("gap") is None:
        return dict(tpr_gap)
    own = value_range({v: e["fnr"]["estimate"] for v, e in per_value.items() if e["fnr"]["estimate"] is not None})
    out = {k: v for k, v in tpr_gap.items() if k in ("gap", "low", "high", "method", "reason")}
    out.update({k: own[k] for k in ("ratio", "max", "argmax", "min", "argmin")})
    return out


