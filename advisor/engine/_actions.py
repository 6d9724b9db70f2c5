"""Classes grouped by the action they lead to: the confusion matrix collapsed to actions, and its rates.

When several classes lead to the same action in use (a child classified murmur "present" or "unknown" is referred
to a cardiologist alike), confusing them changes nothing for the item, and what matters is whether the *action* is
right. With ``G(g)`` the classes that lead to action ``g``, the collapsed matrix is

    A[g, h] = Σ_{i ∈ G(g)} Σ_{j ∈ G(h)} C[i, j]     (rows: the true action, columns: the decided action)

and the recall of action ``g`` is ``A[g, g] / Σ_h A[g, h]``, the share of items whose true class leads to ``g``
that are classified into a class that also leads to ``g``. With two actions and an action of interest ``g``, that
recall is ``g``'s sensitivity and the other action's recall is ``g``'s specificity.

>>> cm = ConfusionMatrix([[30, 6, 4], [5, 10, 5], [10, 10, 120]], ["present", "unknown", "absent"])
>>> a = collapse_to_actions(cm, {"referral": ["present", "unknown"], "no referral": ["absent"]})
>>> a.labels, a.counts.tolist()
(('referral', 'no referral'), [[51.0, 9.0], [20.0, 120.0]])
>>> [(r.name, r.hits, r.total) for r in action_rates(cm, {"referral": ["present", "unknown"],
...                                                        "no referral": ["absent"]}, "referral")]
[('referral sensitivity', 51.0, 60.0), ('referral specificity', 120.0, 140.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._confusion import ConfusionMatrix

__all__ = ["ActionRate", "action_rates", "collapse_to_actions"]


@dataclass(frozen=True)
class ActionRate:
    """One rate of the collapsed matrix: ``hits / total`` items of the true ``action`` given the right action."""

    name: str  # "referral sensitivity", "referral specificity", "recall of “referral”"
    action: str  # the true action the rate is about
    hits: float
    total: float

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total > 0 else float("nan")


def _index(matrix: ConfusionMatrix, actions: Mapping[str, Sequence[Any]]) -> np.ndarray:
    """The action (its position in ``actions``) of every label of the matrix."""
    where = {str(c): g for g, classes in enumerate(actions.values()) for c in classes}
    missing = [lab for lab in matrix.labels if str(lab) not in where]
    if missing:
        raise InputError(f"class {str(missing[0])!r} of the data leads to no action; name its action under "
                         f"'actions' in the answers (the actions are {', '.join(repr(str(a)) for a in actions)}).")
    return np.asarray([where[str(lab)] for lab in matrix.labels], dtype=np.intp)


def collapse_to_actions(matrix: ConfusionMatrix, actions: Mapping[str, Sequence[Any]]) -> ConfusionMatrix:
    """The confusion matrix of actions: true action × decided action, summing the cells of their classes."""
    if len(actions) < 2:
        raise InputError("classes grouped by action need at least two actions.")
    idx = _index(matrix, actions)
    g = len(actions)
    counts = np.asarray(matrix.counts, dtype=np.float64)
    out = np.zeros((g, g), dtype=np.float64)
    np.add.at(out, (idx[:, None], idx[None, :]), counts)
    return ConfusionMatrix(out, [str(a) for a in actions])


def action_rates(matrix: ConfusionMatrix, actions: Mapping[str, Sequence[Any]],
                 of_interest: str | None = None) -> list[ActionRate]:
    """The rates of the collapsed matrix: with two actions and ``of_interest``, its sensitivity and specificity
    (named after it: "referral sensitivity"); otherwise the recall of every action, the action of interest first."""
    a = collapse_to_actions(matrix, actions)
    counts = a.counts
    names = [str(x) for x in actions]
    if of_interest is not None and str(of_interest) not in names:
        raise InputError(f"the action of interest {str(of_interest)!r} is not one of the actions "
                         f"({', '.join(repr(n) for n in names)}).")
    rows = counts.sum(axis=1)
    if of_interest is not None and len(names) == 2:
        g = names.index(str(of_interest))
        h = 1 - g
        return [ActionRate(f"{names[g]} sensitivity", names[g], float(counts[g, g]), float(rows[g])),
                ActionRate(f"{names[g]} specificity", names[h], float(counts[h, h]), float(rows[h]))]
    order = list(range(len(names)))
    if of_interest is not None:
        first = names.index(str(of_interest))
        order = [first, *(i for i in order if i != first)]
    return [ActionRate(f"recall of “{names[i]}”", names[i], float(counts[i, i]), float(rows[i])) for i in order]
