"""Subgroups (``--by``, ``by=``; issue 23 item 1): every metric per subgroup value, and the gaps across them.

Per subgroup value and system: the metrics of the run on the subgroup's items, each with the interval of
the project's bootstrap on the subgroup's confusion matrix, and the subgroup's size. For a binary task with
a class of interest (``--positive``) also the four rates a fairness audit compares — true-positive rate,
false-positive rate, selection rate (the share predicted positive) and precision — each with its
Clopper–Pearson interval. Across the values of one column: the gap (max − min) and the ratio (min / max) of
every rate and metric, and the equalized-odds difference, max(TPR gap, FPR gap), as fairlearn defines it
(its ``equalized_odds_difference``; the selection-rate gap is its ``demographic_parity_difference``).

A subgroup with fewer than :data:`MIN_ITEMS` items, or fewer than :data:`MIN_CLASS` items of a class,
gets a warning: its rates are then too coarse to say anything (see :func:`small_group_warnings`).

With scores or probabilities read beside the labels, a binary task with a class of interest also gets the bias AUCs
of Borkan et al. (2019) per subgroup value — the subgroup AUC, the BPSN AUC and the BNSP AUC, each with the item
bootstrap of ROC AUC on the items it ranks (:mod:`advisor.stats._subgroup_aucs`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError
from ..engine import PROBABILITY_METRICS, JointCounts, OrdinalCells, class_values, evaluate, identity_values, \
    ordinal_metrics
from ._bootstrap import bootstrap
from ._proportions import finite_or_none as _num, rates_of
from ._fairness import adverse_impact_table, bias_score
from ._subgroup_aucs import by_values, score_of, subgroup_aucs
from ._subgroup_scores import auc_gaps, error_rates_at_threshold, scores_by_value
from ._structures import structure_bootstrap
from ._subgroup_gaps import gap_intervals, value_range

__all__ = ["MIN_CLASS", "MIN_ITEMS", "RATES", "subgroup_smd", "subgroups"]

#: Below this many items a subgroup's rate has a 95 % interval wider than ±0.17 (a proportion near ½).
MIN_ITEMS = 30
#: Below this many items of a class the class's recall moves in steps of 0.2 or more.
MIN_CLASS = 5
#: The rates of a binary task compared across subgroups (with the class of interest).
RATES = ("tpr", "fpr", "selection_rate", "precision")


def subgroups(data: Any, by: Sequence[str] | str | None = None, *, metrics: Sequence[str] | None = None,
              positive_label: Any = None, beta: float = 1.0, undefined: str = DEFAULT_CONVENTION,
              n_resamples: int | None = None, confidence: float = 0.95, seed: int | None = None,
              favourable: Any = None, score: bool = False, score_metrics: Sequence[str] = (),
              error_rates: bool = False, shares: bool = False) -> dict[str, Any]:
    """Per-subgroup metrics and the gaps across subgroups of a :class:`~advisor.io.Dataset` read with ``by=``.

    Parameters
    ----------
    data : Dataset or PredictionSet
        Read by :func:`advisor.load` with ``by=[column, …]``.
    by : column or list of columns, optional
        The subgroup columns to report (default: every column read with ``by=``).
    metrics, positive_label, beta, undefined
        As in :func:`advisor.evaluate`; the rates and the equalized-odds difference need a two-class task
        and ``positive_label``.
    n_resamples, confidence, seed
        The bootstrap of each subgroup's confusion matrix (no intervals when ``n_resamples`` is None), and of the
        adverse impact ratios and the bias score (their items, or groups of items, resampled together); and of the
        gaps: every subgroup's items resampled on their own (stratified; its groups of items when the data were
        read with ``group=``), each gap's interval the basic bootstrap interval clipped at 0, since a max − min
        is biased upward in small subgroups (:mod:`advisor.stats._subgroup_gaps`).

    Returns
    -------
    dict
        ``{"groups": {column: {value: {system: {"n": size, metric: {"estimate", "low", "high", …}}}}},
        "gaps": {column: {metric: {system: {"gap", "ratio", "max", "argmax", "min", "argmin"[, "low", "high",
        "method"]}}}},
        "warnings": [sentence, …], "thresholds": {"items": 30, "per_class": 5}, "positive_label": …}``;
        ``gaps[column]["equalized_odds"]`` holds the equalized-odds difference (``gap``) and ratio. With a class of
        interest and scores read beside the labels (``Dataset.scores``), also ``"bias_aucs": {column: {value:
        {system: {"subgroup_auc" | "bpsn_auc" | "bnsp_auc": {"estimate", "positives", "negatives"[, "low", "high",
        "method"][, "reason"]}}}}}`` (Borkan et al. 2019; :mod:`advisor.stats._subgroup_aucs`). With ``favourable``
        (the class whose decision favours the item) in a binary task, ``"adverse_impact": {column: {system: …}}``
        (:func:`advisor.stats._fairness.adverse_impact_table`); with ``score`` and scores beside the labels,
        ``"bias_score": {system: …}``, the Jigsaw competition's final score (:func:`advisor.stats._fairness.bias_score`).
        With ``shares``, ``"shares": {column: {value: {class: share}}}`` gives each value's class shares, what every
        metric that moves with them is read beside. With scores, ``score_metrics`` (ROC AUC, average precision, log loss, Brier score)
        are computed within each value (``"scores"``), with the ROC AUC gap across the values (``"auc_gaps"``), the
        one of them that does not depend on the class shares; ``error_rates`` adds each value's false positive and
        false negative rates at the threshold where the whole test set's two rates are equal (``"error_rates"``;
        :mod:`advisor.stats._subgroup_scores`).

    Examples
    --------
    >>> import pandas as pd, advisor
    >>> df = pd.DataFrame({"y_true": [1, 1, 0, 0] * 10, "y_pred": [1, 0, 0, 0] * 5 + [1, 1, 1, 0] * 5,
    ...                    "sex": ["F"] * 20 + ["M"] * 20})
    >>> res = subgroups(advisor.load(df, by="sex"), positive_label=1)
    >>> res["groups"]["sex"]["F"]["y_pred"]["tpr"]["estimate"], res["gaps"]["sex"]["tpr"]["y_pred"]["gap"]
    (0.5, 0.5)
    >>> res["gaps"]["sex"]["equalized_odds"]["y_pred"]["gap"]
    0.5
    """
    ps = getattr(data, "predictions", data)
    found: Mapping[str, tuple[Any, tuple[Any, ...]]] = getattr(ps, "by", None) or {}
    cols: list[Any] = list(found) if by is None else list(by) if isinstance(by, (list, tuple)) else [by]
    if not cols:
        raise InputError("no subgroup columns in data: give the Dataset of advisor.load(..., by=[column, …]).")
    missing = [c for c in cols if c not in found]
    if missing:
        raise InputError(f"subgroup column {missing[0]!r} was not read; read the data with advisor.load(..., by={missing[0]!r}).")
    joint: JointCounts = ps.joint
    binary = positive_label is not None and len(joint.labels) == 2
    pos = joint.labels.index(positive_label) if binary and positive_label in joint.labels else None
    if binary and pos is None:
        raise InputError(f"the class of interest {positive_label!r} is not one of the classes {list(joint.labels)!r}.")
    out: dict[str, Any] = {"groups": {}, "gaps": {}, "warnings": [], "positive_label": positive_label if binary else None,
                           "thresholds": {"items": MIN_ITEMS, "per_class": MIN_CLASS}}
    for col in cols:
        values, labels = found[col]
        values = np.asarray(values)
        per_value: dict[str, Any] = {}
        for j, value in enumerate(labels):
            mask = values == j
            sub = JointCounts(joint.labels, joint.systems, joint.codes[mask], joint.counts[mask], reject=joint.reject)
            per_value[str(value)] = _one_group(sub, metrics, positive_label, pos, beta, undefined, n_resamples,
                                               confidence, seed)
            out["warnings"].extend(small_group_warnings(col, value, sub, pos))
        out["groups"][col] = per_value
        if shares:
            out.setdefault("shares", {})[col] = {str(v): _shares(joint, values == j) for j, v in enumerate(labels)}
        out["gaps"][col] = _gaps(per_value, list(joint.systems), binary)
        if n_resamples is not None:  # the gaps' intervals: a stratified bootstrap (advisor.stats._subgroup_gaps)
            first = per_value[next(iter(per_value))][joint.systems[0]]
            ids = [m for m in first if m != "n" and m not in RATES]
            ivs = gap_intervals(joint, values, len(labels), out["gaps"][col], ids, pos, beta, undefined, n_resamples,
                                confidence, seed, getattr(ps, "groups", None))
            for m, by_system in ivs.items():
                for system, iv in by_system.items():
                    out["gaps"][col][m][system].update(iv)
    if binary and favourable is not None:  # the favourable decision's rate per value against the highest (4/5 rule)
        if favourable not in joint.labels:
            raise InputError(f"the favourable class {favourable!r} is not one of the classes {list(joint.labels)!r}.")
        out["adverse_impact"] = {
            col: adverse_impact_table(joint, np.asarray(found[col][0]), list(found[col][1]),
                                      joint.labels.index(favourable), n_resamples=n_resamples, confidence=confidence,
                                      seed=seed, groups=getattr(ps, "groups", None)) for col in cols}
    scored = getattr(data, "scores", None) or {}
    if binary and scored and score:  # the Jigsaw competition's final score over the identity subgroups
        out["bias_score"] = _bias_scores(scored, list(joint.systems), {c: list(found[c][1]) for c in cols},
                                         str(positive_label), n_resamples, confidence, seed)
    if binary and scored and score_metrics:  # the score metrics within each value; a gap of ROC AUC alone
        values_of = {c: list(found[c][1]) for c in cols}
        out["scores"] = scores_by_value(scored, list(joint.systems), values_of, list(joint.labels), positive_label,
                                        score_metrics, n_resamples=n_resamples, confidence=confidence, seed=seed)
        if "roc_auc" in score_metrics:
            out["auc_gaps"] = auc_gaps(scored, list(joint.systems), values_of, positive_label,
                                       n_resamples=n_resamples, confidence=confidence, seed=seed)
    if binary and scored and error_rates:  # each value's error rates at the whole test set's equal-error threshold
        out["error_rates"] = error_rates_at_threshold(scored, list(joint.systems), {c: list(found[c][1]) for c in cols},
                                                      list(joint.labels), positive_label, n_resamples=n_resamples,
                                                      confidence=confidence, seed=seed)
    if binary and scored:  # scores beside the labels: the bias AUCs of Borkan et al. (2019) per identity subgroup
        # (identity_values: the "yes" of a yes/no mention column, not its "no", whose BPSN AUC is the "yes" value's
        # BNSP AUC over again; every value of a column such as sex)
        identities = {c: identity_values(list(found[c][1])) for c in cols}
        aucs, notes = subgroup_aucs(scored, list(joint.systems), {c: v for c, v in identities.items() if v},
                                    list(joint.labels), positive_label, n_resamples=n_resamples,
                                    confidence=confidence, seed=seed)
        if aucs:
            out["bias_aucs"] = aucs
            out["warnings"].extend(notes)
    return out


def _shares(joint: JointCounts, mask: np.ndarray) -> dict[str, float]:
    """Each class's share of the items of one subgroup value (by their true class)."""
    mass = np.bincount(joint.codes[mask, 0], weights=joint.counts[mask], minlength=len(joint.labels))
    total = float(mass.sum())
    return {str(lab): float(mass[i] / total) if total > 0 else 0.0 for i, lab in enumerate(joint.labels)}


def _bias_scores(scored: Mapping[str, Any], systems: Sequence[str], columns: Mapping[str, Sequence[Any]], pos: str,
                 n_resamples: int | None, confidence: float, seed: int | None) -> dict[str, Any]:
    """``{system: entry}`` of :func:`advisor.stats._fairness.bias_score`, for each system read with scores."""
    out: dict[str, Any] = {}
    for name in systems:
        f = scored.get(name)
        if f is None:
            continue
        s = score_of(f, pos)
        if s is None:
            continue
        y: np.ndarray = np.array([str(v) for v in f.y_true], dtype=object)
        by = {c: v for c in columns if (v := by_values(scored, name, c, len(y))) is not None}
        out[name] = bias_score(y == pos, s, columns, by, n_resamples=n_resamples, confidence=confidence, seed=seed,
                               groups=getattr(f, "group", None))
    return out


def _one_group(sub: JointCounts, metrics: Sequence[str] | None, positive_label: Any, pos: int | None, beta: float,
               undefined: str, n_resamples: int | None, confidence: float, seed: int | None) -> dict[str, Any]:
    """``{system: {"n": size, metric: {"estimate", "low", "high", "method"}}}`` of one subgroup."""
    mats = sub.matrices()
    ev = evaluate(mats, metrics=metrics, positive_label=positive_label, beta=beta, undefined=undefined,
                  same_items=not sub.abstains)  # a system that abstains: each on the items it answered (issue 23)
    n = sub.n
    out: dict[str, Any] = {}
    for name, cm in mats.items():
        vals = {m: v for m, v in ev.metrics[name].items() if m not in PROBABILITY_METRICS}
        entry: dict[str, Any] = {"n": int(n) if float(n).is_integer() else n}
        ivs = None
        if n_resamples is not None and vals:
            ivs = bootstrap(cm, n_resamples=n_resamples, confidence=confidence, seed=seed, metrics=list(vals),
                            positive_label=ev.positive_label, beta=beta, undefined=undefined)
        for m, v in vals.items():
            entry[m] = {"estimate": _num(v)}
            if ivs is not None and m in ivs:
                entry[m].update({"low": _num(ivs[m]["low"]), "high": _num(ivs[m]["high"]), "method": ivs.methods[m]})
                if ivs.reasons[m]:
                    entry[m]["reason"] = ivs.reasons[m]
        if pos is not None:
            entry.update(_rates(np.asarray(cm.counts, dtype=np.float64), pos, confidence if n_resamples else None))
        out[name] = entry
    return out


def _rates(c: np.ndarray, pos: int, confidence: float | None) -> dict[str, dict[str, Any]]:
    """TPR, FPR, selection rate and precision of a binary matrix (rows true), each with its Clopper–Pearson
    interval when ``confidence`` is given; an empty denominator gives None."""
    neg = 1 - pos
    tp, fn, fp, tn = c[pos, pos], c[pos, neg], c[neg, pos], c[neg, neg]
    parts = {"tpr": (tp, tp + fn), "fpr": (fp, fp + tn), "selection_rate": (tp + fp, c.sum()),
             "precision": (tp, tp + fp)}
    return rates_of(parts, confidence)


def _gaps(per_value: dict[str, Any], systems: list[str], binary: bool) -> dict[str, Any]:
    """Per metric and system: max − min and min / max over the subgroups (undefined values left out), and
    the equalized-odds difference and ratio of a binary task."""
    first = per_value[next(iter(per_value))][systems[0]]
    ids = [m for m in first if m != "n"]
    ids = [*[r for r in RATES if r in ids], *[m for m in ids if m not in RATES]]
    out: dict[str, Any] = {}
    for m in ids:
        out[m] = {}
        for s in systems:
            vals = {v: g[s].get(m, {}).get("estimate") for v, g in per_value.items()}
            out[m][s] = value_range({v: x for v, x in vals.items() if x is not None and math.isfinite(x)})
    if binary and "tpr" in out:
        out["equalized_odds"] = {}
        for s in systems:
            t, f = out["tpr"][s], out["fpr"][s]
            gaps = [x["gap"] for x in (t, f) if x["gap"] is not None]
            ratios = [x["ratio"] for x in (t, f) if x["ratio"] is not None]
            out["equalized_odds"][s] = {"gap": max(gaps) if len(gaps) == 2 else None,
                                        "ratio": min(ratios) if len(ratios) == 2 else None,
                                        "from": None if len(gaps) < 2 else "tpr" if t["gap"] >= f["gap"] else "fpr"}
    return out


def small_group_warnings(col: str, value: Any, sub: JointCounts, pos: int | None) -> list[str]:
    """One sentence for a subgroup too small to say anything: fewer than :data:`MIN_ITEMS` items (a rate's
    95 % interval is then wider than ±0.17), or fewer than :data:`MIN_CLASS` items of a class (its recall —
    for the classes of a binary task, the TPR or the FPR — then moves in steps of 0.2 or more)."""
    n = sub.n
    support = np.bincount(sub.codes[:, 0], weights=sub.counts, minlength=len(sub.labels))
    few = [(lab, int(support[i])) for i, lab in enumerate(sub.labels) if support[i] < MIN_CLASS]
    if n >= MIN_ITEMS and not few:
        return []
    why = []
    if n < MIN_ITEMS:
        why.append(f"{_count(n)} items, fewer than {MIN_ITEMS} (a rate's 95% interval is then wider than ±0.17)")
    if few:
        listed = ", ".join(f"{k} of class {lab!r}" for lab, k in few[:5]) + (" …" if len(few) > 5 else "")
        why.append(f"{listed}, fewer than {MIN_CLASS} (a class's recall then moves in steps of 0.2 or more)")
    return [f"subgroup {col} = {value!r} is too small to say anything: {'; '.join(why)}."]


def _count(n: float) -> str:
    return f"{int(n):,}" if float(n).is_integer() else f"{n:g}"


def subgroup_smd(data: Any, by: Sequence[str], order: Sequence[Any], *, n_resamples: int | None = None,
                 confidence: float = 0.95, seed: int | None = None, flag: float = 0.10) -> dict[str, Any]:
    """The standardized mean difference of predicted minus true scores (Williamson, Xi & Breyer 2012) within each
    value of each subgroup column of an ordinal task, with the bootstrap of the value's ordered cells (of its groups
    of items, drawn whole, when the data were read with ``group=``).

    ``order`` lists the classes from lowest to highest (their values when they are numbers). Returns ``{column:
    {value: {system: {"n", "estimate"[, "low", "high", "method"], "flag"}}}}``; ``flag`` is True when |SMD| > ``flag``,
    by default 0.10, the threshold Williamson et al. (2012) set within a subgroup (the field's ``smd_subgroup`` in
    fields.yaml). An item a system abstained on is left out of its value.

    >>> import pandas as pd, advisor
    >>> df = pd.DataFrame({"y_true": [1, 2, 3, 4] * 2, "y_pred": [2, 3, 4, 5] + [1, 2, 3, 4], "g": ["a"] * 4 + ["b"] * 4})
    >>> r = subgroup_smd(advisor.load(df, by="g"), ["g"], [1, 2, 3, 4, 5])
    >>> round(r["g"]["a"]["y_pred"]["estimate"], 4), r["g"]["b"]["y_pred"]["estimate"], r["g"]["a"]["y_pred"]["flag"]
    (0.7746, 0.0, True)
    """
    ps = getattr(data, "predictions", data)
    found: Mapping[str, tuple[Any, tuple[Any, ...]]] = getattr(ps, "by", None) or {}
    joint: JointCounts = ps.joint
    index = {str(o): i for i, o in enumerate(order)}
    if any(str(lab) not in index for lab in joint.labels):
        return {}
    k = len(order)
    rank = np.array([index[str(lab)] for lab in joint.labels] + [-1], dtype=np.int64)  # −1: an abstention
    # read with group=: the value's groups are drawn whole (the cluster bootstrap), as the paragraph says of every
    # interval — a cell per row of the table, so each row keeps its group (the essay's schools; issue 22)
    groups = getattr(ps, "groups", None)
    out: dict[str, Any] = {}
    for col in by:
        values, labels = found[col]
        values = np.asarray(values)
        per_value: dict[str, Any] = {}
        for j, value in enumerate(labels):
            mask = values == j
            codes, counts = joint.codes[mask], joint.counts[mask]
            entry: dict[str, Any] = {}
            for s, system in enumerate(joint.systems):
                t, p = rank[codes[:, 0]], rank[np.minimum(codes[:, 1 + s], len(joint.labels))]
                keep = (p >= 0) & (counts > 0)
                if not keep.any():
                    entry[system] = {"n": 0, "estimate": None, "reason": "no items"}
                    continue
                of_row = None if groups is None else np.asarray(groups)[mask][keep]
                if of_row is None:
                    cell, inv = np.unique(t[keep] * k + p[keep], return_inverse=True)
                    mass = np.bincount(inv, weights=counts[keep])
                    cells = OrdinalCells(cell // k, cell % k, mass, tuple(order), class_values(list(order)), True)
                else:
                    mass = np.asarray(counts[keep], dtype=np.float64)
                    cells = OrdinalCells(t[keep], p[keep], mass, tuple(order), class_values(list(order)), True)
                n = float(mass.sum())
                res = (structure_bootstrap("ordinal", cells, ["smd"], n_resamples=n_resamples, confidence=confidence,
                                           seed=seed, groups=of_row)["smd"] if n_resamples else
                       {"estimate": ordinal_metrics(cells, ["smd"])["smd"]})
                est = _num(res["estimate"])
                e: dict[str, Any] = {"n": int(n) if n.is_integer() else n, "estimate": est,
                                     "flag": est is not None and abs(est) > flag}
                if n_resamples:
                    e.update({"low": _num(res.get("low")), "high": _num(res.get("high")), "method": res.get("method")})
                    if res.get("reason"):
                        e["reason"] = res["reason"]
                entry[system] = e
            per_value[str(value)] = entry
        out[col] = per_value
    return out
