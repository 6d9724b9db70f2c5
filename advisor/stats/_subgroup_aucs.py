"""The bias AUCs of every subgroup value (Borkan et al. 2019; :mod:`advisor.engine._bias`), with the item bootstrap.

For a binary task with a class of interest whose systems were read with scores or probabilities and a subgroup
column (``by=``): per column, value and system, the subgroup AUC, the BPSN AUC and the BNSP AUC. Each is the ROC AUC
of the items it ranks against each other (the subgroup's positives and negatives; the background's positives and the
subgroup's negatives; the subgroup's positives and the background's negatives), so its interval is the project's item
bootstrap of ROC AUC (:func:`advisor.stats.compare_scored`: BCa with a jackknife over the items) on exactly those
items, drawn alike for every system (the same seed on the same items) — their groups of items resampled instead when the data were read with ``group=``.
A bias AUC whose items lack a class has no value: it is None with the reason, and a warning says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine import bias_auc_masks, bias_aucs, bias_undefined_reason
from ._items import compare_scored
from ._proportions import finite_or_none as _num

__all__ = ["BIAS_AUC_NAMES", "by_values", "score_of", "subgroup_aucs"]

#: How the report and the warnings name each bias AUC
BIAS_AUC_NAMES = {"subgroup_auc": "subgroup AUC", "bpsn_auc": "BPSN AUC", "bnsp_auc": "BNSP AUC"}


def score_of(f: Any, positive: str) -> np.ndarray | None:
    """The score of the class of interest of one scored file: its ``score`` column, or its probability column."""
    if getattr(f, "score", None) is not None:
        return np.asarray(f.score, dtype=np.float64)
    proba = getattr(f, "proba", None)
    labels = [str(x) for x in getattr(f, "proba_labels", None) or []]
    if proba is not None and positive in labels:
        return np.asarray(proba, dtype=np.float64)[:, labels.index(positive)]
    return None


def by_values(scored: Mapping[str, Any], name: str, col: str, n: int) -> np.ndarray | None:
    """Each item's value of ``col`` as text: from the system's own file, else from another file of the same items
    (the subgroup column is read from the first input; the others' scores are in its order)."""
    own = getattr(scored[name], "by", None) or {}
    if col in own and len(own[col]) == n:
        return np.asarray(own[col], dtype=object)
    for f in scored.values():
        vals = (getattr(f, "by", None) or {}).get(col)
        if vals is not None and len(vals) == n:
            return np.asarray(vals, dtype=object)
    return None


def subgroup_aucs(scored: Mapping[str, Any], systems: Sequence[str], columns: Mapping[str, Sequence[Any]],
                  labels: Sequence[Any], positive_label: Any, *, n_resamples: int | None = None,
                  confidence: float = 0.95, seed: Any = None) -> tuple[dict[str, Any], list[str]]:
    """``({column: {value: {system: {id: entry}}}}, warnings)`` of the bias AUCs.

    ``scored``: the :class:`~advisor.io.ScoredFile` of each system (``Dataset.scores``); ``columns``: the values of
    each subgroup column, in the order of the subgroup tables; ``labels``: the two classes. An entry is
    ``{"estimate", "positives", "negatives"}`` (the weights of the items ranked), with ``"low"``, ``"high"``,
    ``"method"`` when resampled, and ``"reason"`` when undefined (estimate None). Systems without scores, or without
    the subgroup column, are left out; a column no system has is absent.

    >>> from types import SimpleNamespace
    >>> f = SimpleNamespace(y_true=["1", "0", "1", "0", "1", "0"], score=np.array([.9, .8, .7, .2, .6, .1]),
    ...                     by={"g": ["a", "a", "a", "b", "b", "b"]})
    >>> res, notes = subgroup_aucs({"m": f}, ["m"], {"g": ["a", "b"]}, [0, 1], 1)
    >>> res["g"]["a"]["m"]["bpsn_auc"]["estimate"], res["g"]["b"]["m"]["bnsp_auc"]["estimate"]
    (0.0, 0.0)
    """
    pos_text = str(positive_label)
    neg_text = next(str(x) for x in labels if str(x) != pos_text)
    out: dict[str, Any] = {}
    notes: list[str] = []
    names = [s for s in systems if s in scored and scored[s] is not None]
    for col, values in columns.items():
        per_value: dict[str, Any] = {}
        for value in values:
            per_value[str(value)] = {}
        for name in names:
            f = scored[name]
            score = score_of(f, pos_text)
            y = np.asarray([str(v) for v in f.y_true], dtype=object)
            by = by_values(scored, name, col, len(y)) if score is not None else None
            if score is None or by is None:
                continue
            positive = y == pos_text
            groups = getattr(f, "group", None)
            for value in values:
                in_group = by == str(value)
                point = bias_aucs(positive.astype(int), score, in_group, [0, 1], positive_label=1)
                entry: dict[str, Any] = {}
                for mid, (wp, wn) in bias_auc_masks(positive, in_group).items():
                    e: dict[str, Any] = {"estimate": point[mid], "positives": int(wp.sum()), "negatives": int(wn.sum())}
                    if point[mid] is None:
                        e["reason"] = bias_undefined_reason(mid, wp.sum(), wn.sum(), pos_text, neg_text)
                        notes.append(f"subgroup {col} = {value!r}: the {BIAS_AUC_NAMES[mid]} of {name} is undefined, "
                                     f"since {e['reason']}.")
                    elif n_resamples:
                        e.update(_interval(positive, score, wp | wn, groups, n_resamples, confidence, seed))
                    entry[mid] = e
                per_value[str(value)][name] = entry
        if any(per_value.values()):
            out[col] = per_value
    return out, list(dict.fromkeys(notes))


def _interval(positive: np.ndarray, score: np.ndarray, mask: np.ndarray, groups: Any, n_resamples: int,
              confidence: float, seed: Any) -> dict[str, Any]:
    """The item bootstrap of ROC AUC on the items of ``mask`` (their groups of items with ``groups``)."""
    g = None if groups is None else np.asarray(groups, dtype=object)[mask]
    cmp = compare_scored(positive[mask].astype(int), {"s": score[mask]}, [0, 1], positive_label=1,
                         metrics=["roc_auc"], n_resamples=int(n_resamples), confidence=confidence, seed=seed,
                         groups=g)
    lo, hi = cmp.intervals["roc_auc"]["s"]
    out: dict[str, Any] = {"low": _num(lo), "high": _num(hi), "method": cmp.methods.get("roc_auc", {}).get("s")}
    reason = cmp.reasons.get("roc_auc", {}).get("s")
    if reason:
        out["interval_reason"] = reason
    return out


