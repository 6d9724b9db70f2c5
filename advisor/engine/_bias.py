r"""The bias AUCs of Borkan et al. (2019) for a binary task with scores and a subgroup column.

For a subgroup ``g`` (the items with one value of a subgroup column) and its background (every other item), with
``D⁺``/``D⁻`` the background's positives/negatives and ``D⁺_g``/``D⁻_g`` the subgroup's:

* **Subgroup AUC** ``= AUC(D⁻_g ∪ D⁺_g)``: the ROC AUC on the subgroup's items alone;
* **BPSN AUC** (background positive, subgroup negative) ``= AUC(D⁺ ∪ D⁻_g)``: low when the subgroup's negatives
  are scored above the background's positives — in a toxicity classifier, harmless comments that mention an
  identity scored as more toxic than toxic comments that do not;
* **BNSP AUC** (background negative, subgroup positive) ``= AUC(D⁻ ∪ D⁺_g)``: low when the subgroup's positives
  are scored below the background's negatives.

Each is the ROC AUC (ties count half) of the positives and negatives it names, so it is undefined (None here,
with the reason) when one side is empty: a subgroup without positives has no subgroup AUC and no BNSP AUC.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._confusion import Label
from ._scores import Ranking, score_inputs

__all__ = ["BIAS_AUC_IDS", "bias_auc_masks", "bias_aucs", "extra_specs", "undefined_reason"]

#: ids of the bias AUCs, in the order Borkan et al. (2019) give them
BIAS_AUC_IDS = ("subgroup_auc", "bpsn_auc", "bnsp_auc")


def bias_auc_masks(positive: Any, in_group: Any) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``{id: (positives, negatives)}``: the boolean masks of the items each bias AUC ranks against each other.

    >>> m = bias_auc_masks([True, False, True, False], [True, True, False, False])
    >>> [m["bpsn_auc"][0].tolist(), m["bpsn_auc"][1].tolist()]
    [[False, False, True, False], [False, True, False, False]]
    """
    pos = np.asarray(positive, dtype=bool)
    g = np.asarray(in_group, dtype=bool)
    return {"subgroup_auc": (pos & g, ~pos & g), "bpsn_auc": (pos & ~g, ~pos & g), "bnsp_auc": (pos & g, ~pos & ~g)}


def undefined_reason(metric: str, n_pos: float, n_neg: float, positive: str = "positive",
                     negative: str = "negative") -> str | None:
    """Why a bias AUC has no value (an empty side), or None when it has one.

    >>> undefined_reason("bpsn_auc", 4, 0, "toxic", "non-toxic")
    'the subgroup has no non-toxic items'
    """
    if n_pos > 0 and n_neg > 0:
        return None
    where_pos = "the background" if metric == "bpsn_auc" else "the subgroup"
    where_neg = "the background" if metric == "bnsp_auc" else "the subgroup"
    missing = [f"{where_pos} has no {positive} items"] if not n_pos > 0 else []
    missing += [f"{where_neg} has no {negative} items"] if not n_neg > 0 else []
    return " and ".join(missing)


def bias_aucs(y_true: Any, scores: Any, in_group: Any, labels: Sequence[Label] | None = None, *,
              positive_label: Label | None = None) -> dict[str, float | None]:
    """Subgroup, BPSN and BNSP AUC of one subgroup (``in_group``: a boolean per item); None where undefined.

    ``scores``: a binary score (n,), higher = more positive, or probabilities (n, 2).

    >>> y = [1, 0, 1, 0, 1, 0]; s = [0.9, 0.8, 0.7, 0.2, 0.6, 0.1]; g = [True, True, True, False, False, False]
    >>> bias_aucs(y, s, g, positive_label=1)
    {'subgroup_auc': 0.5, 'bpsn_auc': 0.0, 'bnsp_auc': 1.0}
    """
    idx, s, labs, pos = score_inputs(y_true, scores, labels, positive_label)
    if len(labs) != 2:
        raise InputError(f"the bias AUCs need a binary task; there are {len(labs)} classes.")
    g = np.asarray(in_group, dtype=bool)
    if g.shape != idx.shape:
        raise InputError(f"in_group needs one value per item ({idx.shape[0]}); got {g.shape[0]}.")
    p = 1 if pos is None else pos
    column = s if s.ndim == 1 else s[:, p]
    ranking = Ranking(column)
    out: dict[str, float | None] = {}
    for mid, (wp, wn) in bias_auc_masks(idx == p, g).items():
        if not (wp.any() and wn.any()):
            out[mid] = None
            continue
        out[mid] = float(ranking.auc(wp.astype(np.float64), wn.astype(np.float64)))
    return out


def _item_level(s: Any) -> np.ndarray:  # pragma: no cover - guarded where metrics are resolved
    raise InputError("the bias AUCs need item scores and a subgroup column (by=), not a confusion matrix.")


def extra_specs(spec: Any) -> dict[str, Any]:
    """The :class:`~._metrics.MetricSpec` records of the bias AUCs (``spec`` is the class)."""
    return {mid: spec(mid, _item_level, binary_only=True, needs_probabilities=True) for mid in BIAS_AUC_IDS}
