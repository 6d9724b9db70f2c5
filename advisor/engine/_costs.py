r"""Expected cost (Bayes risk) of decisions, and Bayes decisions from probabilities.

Notation as everywhere in advisor: rows of a confusion matrix ``C`` are true classes ``i``,
columns decisions ``j``; ``a_i = Σ_j C_ij`` are the true-class sizes and ``R_ij = C_ij / a_i`` the
share of class ``i`` that received decision ``j``. A cost matrix ``c`` has the same layout
(``c_ij`` = cost of deciding ``j`` when the truth is ``i``; zero diagonal by default) and priors
``π`` are the class shares the cost is taken under — the test set's (``π_i = a_i / n``) by default,
the deployment shares when given (Ferrer 2022, arXiv:2209.05355, §2):

* ``EC = Σ_i π_i Σ_j c_ij R_ij``. With 0/1 costs and the test priors ``EC = 1 − accuracy``.
* ``NEC = EC / min_j Σ_i π_i c_ij`` — the cost of the best decision that ignores the input is 1
  (the normalisation of Ferrer's ``expected-cost`` package, ``adjusted=True``).

Binary costs are given as ``{"fn": …, "fp": …}`` (a missed positive, a false alarm) and need the
positive class. Bayes decisions from posteriors ``p`` (trained at priors ``ρ``, used at ``π``):
``p_i ← p_i π_i / ρ_i`` renormalised, then ``argmin_j Σ_i c_ij p_i`` (first decision on ties).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names
from ._confusion import ConfusionMatrix, Label, counts_and_labels

__all__ = [
    "PRIOR_TOLERANCE",
    "bayes_decisions",
    "cost_matrix",
    "expected_cost",
    "expected_cost_batch",
    "normalized_expected_cost",
    "resolve_priors",
]

#: Priors must sum to 1 within this.
PRIOR_TOLERANCE: float = 1e-6


def _find(labels: Sequence[Label], label: Any, what: str) -> int:
    for i, lab in enumerate(labels):
        if lab == label or str(lab) == str(label):
            return i
    raise InputError(f"{what} names label {label!r}, which is not a class; the classes are {list(labels)!r}.")


def cost_matrix(costs: Any, labels: Sequence[Label], positive_label: Label | None = None) -> np.ndarray:
    """The ``k × k`` cost matrix (rows true class, columns decision) from any accepted form.

    ``None`` → 0/1 costs; ``{"fn": x, "fp": y}`` (binary, needs ``positive_label`` and both costs); a nested
    mapping ``{true: {decision: cost}}`` with a row for every class and a cost for every error (a missing
    diagonal cell is 0: a right decision costs nothing unless said); or a ``k × k`` array in the order of
    ``labels``. A cost left out is refused, naming it, rather than taken as 0 — which would make every
    error involving that class free.

    >>> cost_matrix({"fn": 10, "fp": 1}, ["neg", "pos"], "pos").tolist()
    [[0.0, 1.0], [10.0, 0.0]]
    >>> cost_matrix({"fn": 10}, ["neg", "pos"], "pos")
    Traceback (most recent call last):
    ...
    advisor._exceptions.InputError: costs given as fn/fp need both: fn (a missed positive) and fp (a false alarm); fp is missing.
    """
    k = len(labels)
    if costs is None:
        return 1.0 - np.eye(k)
    if isinstance(costs, Mapping) and set(map(str, costs)) <= {"fn", "fp"} and costs:
        if k != 2 or positive_label is None:
            raise InputError(f"costs given as fn/fp need a binary task with a positive label; got {k} classes"
                             + ("" if positive_label is not None else " and no positive label") + ".")
        given = {str(key): v for key, v in costs.items()}
        missing = [key for key in ("fn", "fp") if key not in given]
        if missing:
            raise InputError("costs given as fn/fp need both: fn (a missed positive) and fp (a false alarm); "
                             f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing.")
        p = _find(labels, positive_label, "the positive label")
        c = np.zeros((2, 2))
        c[p, 1 - p] = cost_value(given["fn"], "fn")
        c[1 - p, p] = cost_value(given["fp"], "fp")
        return c
    if isinstance(costs, Mapping):
        return _nested_costs(costs, labels)
    try:
        c = np.array(costs, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"costs must be fn/fp, a mapping or a {k}×{k} table of numbers; got {costs!r}.") from None
    if c.shape != (k, k):
        raise InputError(f"costs must be a {k}×{k} matrix (rows true class, columns decision); got shape {c.shape}.")
    for v in c.ravel():
        cost_value(v, "a cost matrix entry")
    return c


def _nested_costs(costs: Mapping[Any, Any], labels: Sequence[Label]) -> np.ndarray:
    """``{true: {decision: cost}}`` → the ``k × k`` matrix; every class needs a row and every error a cost."""
    k = len(labels)
    c = np.zeros((k, k))
    given = np.eye(k, dtype=bool)  # a right decision costs 0 unless given
    has_row = np.zeros(k, dtype=bool)
    for t, row in costs.items():
        if not isinstance(row, Mapping):
            raise InputError(f"costs must map each true class to {{decision: cost}}; class {t!r} maps to {row!r}.")
        i = _find(labels, t, "costs")
        has_row[i] = True
        for d, v in row.items():
            j = _find(labels, d, "costs")
            c[i, j] = cost_value(v, f"{t}→{d}")
            given[i, j] = True
    if given.all():
        return c
    rows = [labels[i] for i in range(k) if not has_row[i]]
    if rows:
        raise InputError(f"the costs give no row for class{'es' if len(rows) > 1 else ''} {few_names(rows)} (the "
                         f"data's classes are {few_names(labels)}); give the cost of every error, true class × "
                         "decision — a class left out would make its errors cost 0.")
    cells = [f"{labels[i]}→{labels[j]}" for i, j in zip(*np.nonzero(~given))]
    raise InputError(f"the costs leave out {len(cells)} error{'s' if len(cells) > 1 else ''} ({few_names(cells)}; "
                     "true class→decision); give the cost of every error — one left out would cost 0.")


def cost_value(v: Any, name: str) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise InputError(f"cost {name} must be a non-negative number; got {v!r}.") from None
    if not np.isfinite(x) or x < 0:
        raise InputError(f"cost {name} must be a finite non-negative number; got {v!r}.")
    return x


def resolve_priors(priors: Any, labels: Sequence[Label], sizes: np.ndarray) -> np.ndarray:
    """Priors ``π`` over ``labels``: the test shares ``a_i / n`` by default, else the given shares.

    Given shares (a mapping label → share, or a sequence in label order) must be non-negative and sum
    to 1 within :data:`PRIOR_TOLERANCE`; they are then divided by their sum.

    >>> resolve_priors({"pos": 0.02, "neg": 0.98}, ["neg", "pos"], np.array([50, 50])).tolist()
    [0.98, 0.02]
    """
    k = len(labels)
    if priors is None:
        a = np.asarray(sizes, dtype=np.float64)
        return a / a.sum(axis=-1, keepdims=True)
    if isinstance(priors, Mapping):
        pi = np.zeros(k)
        given = np.zeros(k, dtype=bool)
        for lab, v in priors.items():
            i = _find(labels, lab, "priors")
            pi[i], given[i] = _prior_value(v, lab), True
        if not given.all():  # a class left out would silently weigh nothing in the expected cost
            missing = [labels[int(i)] for i in np.flatnonzero(~given)]
            raise InputError(f"priors give no share for {few_names(missing)}; give every class a share (0 for a class "
                             f"that does not occur in use); the classes are {few_names(labels)}.")
    else:
        try:
            pi = np.array(priors, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise InputError(f"priors must map labels to shares; got {priors!r}.") from None
        if pi.shape != (k,):
            raise InputError(f"priors must give one share per class ({k}); got {pi.shape[0]}.")
        for lab, v in zip(labels, pi):
            _prior_value(v, lab)
    if abs(pi.sum() - 1.0) > PRIOR_TOLERANCE:
        raise InputError(f"priors must sum to 1 (within {PRIOR_TOLERANCE:g}); they sum to {pi.sum():.6g}.")
    return pi / pi.sum()


def _prior_value(v: Any, lab: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise InputError(f"the prior of {lab!r} must be a share in [0, 1]; got {v!r}.") from None
    if not (np.isfinite(x) and 0.0 <= x <= 1.0):
        raise InputError(f"the prior of {lab!r} must be a share in [0, 1]; got {v!r}.")
    return x


def expected_cost_batch(counts: np.ndarray, costs: np.ndarray, priors: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """``(EC, NEC)`` for a stack of matrices ``(..., k, k)``; ``priors=None`` uses each matrix's shares.

    A class with a positive prior but no items makes EC undefined (NaN); so does a zero normaliser.
    """
    C = np.asarray(counts, dtype=np.float64)
    a = C.sum(axis=-1)
    pi = a / a.sum(axis=-1, keepdims=True) if priors is None else np.broadcast_to(priors, a.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        R = C / a[..., None]
        per_class = np.where(pi > 0, (costs * np.where(np.isnan(R), 0.0, R)).sum(axis=-1), 0.0)
        ec = (pi * per_class).sum(axis=-1)
        ec = np.where(((a == 0) & (pi > 0)).any(axis=-1), np.nan, ec)
        naive = (pi[..., :, None] * costs).sum(axis=-2).min(axis=-1)
        nec = np.where(naive > 0, ec / np.where(naive > 0, naive, 1.0), np.nan)
    return ec, nec


def _ec_inputs(matrix: Any, costs: Any, priors: Any, positive_label: Label | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts, labels = counts_and_labels(matrix)
    if counts.ndim != 2:
        raise InputError("expected cost takes a single k×k confusion matrix.")
    if counts.sum() <= 0:
        raise InputError("the confusion matrix is all zeros: there is nothing to evaluate.")
    c = cost_matrix(costs, labels, positive_label)
    a = counts.sum(axis=1)
    pi = resolve_priors(priors, labels, a)
    missing = [labels[i] for i in range(len(labels)) if pi[i] > 0 and a[i] == 0]
    if missing:
        raise InputError(f"class {missing[0]!r} has a positive prior but no items in the test set, "
                         "so its error rates (and the expected cost) are undefined.")
    return counts, c, pi


def expected_cost(matrix: Any, costs: Any = None, priors: Any = None, *, positive_label: Label | None = None) -> float:
    r"""Expected cost ``EC = Σ_i π_i Σ_j c_ij C_ij / a_i`` (Ferrer 2022; the Bayes risk of the decisions).

    Parameters
    ----------
    matrix : ConfusionMatrix or array-like (k, k)
        Rows true classes, columns decisions.
    costs : None, {"fn", "fp"}, mapping or (k, k) array
        ``None`` = 0/1 costs (EC = error rate at the test priors).
    priors : None, mapping label → share, or sequence
        ``None`` = the test set's class shares; else the deployment shares.

    Examples
    --------
    >>> cm = ConfusionMatrix([[90, 10], [5, 45]], ["neg", "pos"])
    >>> round(expected_cost(cm), 6)     # 0/1 costs, test priors: the error rate 15/150
    0.1
    >>> round(expected_cost(cm, {"fn": 10, "fp": 1}, {"pos": 0.02, "neg": 0.98}, positive_label="pos"), 6)
    0.118
    """
    counts, c, pi = _ec_inputs(matrix, costs, priors, positive_label)
    return float(expected_cost_batch(counts, c, pi)[0])


def normalized_expected_cost(matrix: Any, costs: Any = None, priors: Any = None, *,
                             positive_label: Label | None = None) -> float:
    r"""``NEC = EC / min_j Σ_i π_i c_ij``: 1 is the cost of the best input-blind decision, 0 is perfect.

    Examples
    --------
    >>> cm = ConfusionMatrix([[90, 10], [5, 45]], ["neg", "pos"])
    >>> round(normalized_expected_cost(cm, {"fn": 10, "fp": 1}, {"pos": 0.02, "neg": 0.98}, positive_label="pos"), 6)
    0.59
    """
    counts, c, pi = _ec_inputs(matrix, costs, priors, positive_label)
    naive = float((pi[:, None] * c).sum(axis=0).min())
    if naive <= 0:
        raise InputError("the normalized expected cost is undefined: some decision costs nothing whatever the "
                         "class (under these costs and priors), so the input-blind cost is 0.")
    return float(expected_cost_batch(counts, c, pi)[0]) / naive


def bayes_decisions(proba: Any, labels: Sequence[Label], costs: Any = None, priors: Any = None,
                    train_priors: Any = None, *, positive_label: Label | None = None) -> np.ndarray:
    r"""Column index of the Bayes decision ``argmin_j Σ_i c_ij p_i`` for each row of ``proba``.

    When both ``priors`` (deployment shares π) and ``train_priors`` (the shares ρ the posteriors were
    trained at) are given, the posteriors are first moved to π by ``p_i ∝ p_i π_i / ρ_i``; with only
    one of them given no adjustment is made.

    >>> bayes_decisions([[0.9, 0.1], [0.6, 0.4]], ["neg", "pos"], {"fn": 10, "fp": 1}, positive_label="pos").tolist()
    [1, 1]
    """
    p = np.asarray(proba, dtype=np.float64)
    k = len(labels)
    if p.ndim != 2 or p.shape[1] != k:
        raise InputError(f"proba must have one column per label ({k}); got shape {p.shape}.")
    c = cost_matrix(costs, labels, positive_label)
    if priors is not None and train_priors is not None:
        pi = resolve_priors(priors, labels, np.ones(k))
        rho = resolve_priors(train_priors, labels, np.ones(k))
        if np.any((rho == 0) & (pi > 0)):
            raise InputError("train_priors must be positive for every class with a positive deployment prior.")
        w = np.where(rho > 0, pi / np.where(rho > 0, rho, 1.0), 0.0)
        p = p * w
        p = p / p.sum(axis=1, keepdims=True)
    return np.argmin(p @ c, axis=1)


_ = ConfusionMatrix  # re-exported for the doctests above
