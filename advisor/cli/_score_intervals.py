"""``advisor compute --bootstrap``: intervals of the score, probability and cost metrics too (issue 20 item 6).

Each system is resampled on its own, item by item (:func:`advisor.stats.compare_scored` with one system),
as ``compute`` resamples each confusion matrix on its own; ``compare`` and ``report`` pair them. The cost
metrics of a confusion matrix are resampled from its items (true class, decision), expanded from the
counts when there are no item rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import engine as engine_api
from .. import stats as stats_api

__all__ = ["score_intervals"]

SCORE_LEVEL = ("roc_auc", "average_precision", "log_loss", "brier", "brier_binary", "ece", "ks_statistic")
COST_LEVEL = ("expected_cost", "normalized_expected_cost")
_MAX_EXPANDED = 5_000_000  # items expanded from a matrix's counts for the cost metrics


def _entry(d: Mapping[str, Any]) -> dict[str, Any]:
    return {k: d[k] for k in ("estimate", "low", "high", "method", "reason") if k in d}


def _one(y: Sequence[Any], outputs: Any, labels: list[Any], pos: Any, ids: list[str], decisions: Any, costs: Any,
         priors: Any, n_boot: int, confidence: float, seed: int, name: str,
         groups: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
    res = stats_api.compare_scored(list(y), {name: outputs}, labels, positive_label=pos, metrics=ids,
                                   decisions=None if decisions is None else {name: decisions}, costs=costs,
                                   priors=priors, n_resamples=n_boot, confidence=confidence, seed=seed, groups=groups)
    data = res.to_dict()
    return {m: _entry(v) for m, v in data["metrics"][name].items()}, data.get("calibration", {}).get(name, {})


def _expanded(cm: Any, labels: list[Any]) -> tuple[list[Any], list[Any]] | None:
    """True labels and decisions of every item of a whole-number confusion matrix (None otherwise)."""
    import numpy as np

    m = np.asarray(cm.counts, dtype=np.float64)
    if not np.all(m == np.round(m)) or m.sum() > _MAX_EXPANDED:
        return None
    t, d = np.nonzero(m)
    reps = m[t, d].astype(np.int64)
    return [labels[i] for i in np.repeat(t, reps)], [labels[j] for j in np.repeat(d, reps)]


def score_intervals(scored: Mapping[str, Any], systems: Mapping[str, Any], shown: Mapping[str, Mapping[str, Any]],
                    labels: list[Any], positive: Any, costs: Any, priors: Any, n_boot: int, confidence: float,
                    seed: int, groups: Any = None) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """``({system: {metric: interval}}, {system: calibration})`` for the score and cost metrics each system
    shows (``shown[system]``): from its item-level outputs (``scored[system]``: ``y_true``, ``proba`` with
    ``proba_labels`` or ``score``, and ``group`` with --group) and, for the costs, from its confusion matrix's
    items (not with groups: a matrix does not keep them; ``groups`` is the joint table's, when grouped)."""
    label_of = {str(lab): lab for lab in labels}
    pos = next((lab for lab in labels if str(lab) == str(positive)), None) if positive is not None else None
    out: dict[str, dict[str, Any]] = {}
    calibration: dict[str, dict[str, Any]] = {}
    for name, vals in shown.items():
        ids = [m for m in SCORE_LEVEL if m in vals and name in scored]
        if ids:
            f = scored[name]
            outputs = f.score if f.score is not None else engine_api.align_probabilities(labels, f.proba, f.proba_labels, name)
            p = pos if pos is not None or getattr(outputs, "ndim", 1) == 1 or len(labels) != 2 else labels[1]
            y = [label_of.get(str(t), t) for t in f.y_true]
            got, cal = _one(y, outputs, labels, p, ids, None, None, None, n_boot, confidence, seed, name,
                            getattr(f, "group", None))
            out.setdefault(name, {}).update(got)
            if cal:
                calibration[name] = cal
        cost_ids = [m for m in COST_LEVEL if m in vals]
        items = _expanded(systems[name], labels) if cost_ids and name in systems and groups is None else None
        if items is not None:
            import numpy as np

            uniform = np.full((len(items[0]), len(labels)), 1.0 / len(labels))
            got, _ = _one(items[0], uniform, labels, pos, cost_ids, items[1], costs, priors, n_boot, confidence,
                          seed, name)
            out.setdefault(name, {}).update(got)
    return out, calibration
