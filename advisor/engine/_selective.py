r"""Selective prediction (abstention; issue 23 item 2): the risk–coverage curve, its area (AURC) and the
selective risk at a target coverage (Geifman & El-Yaniv 2017; Geifman, Uziel & El-Yaniv 2019).

A system that may abstain ranks its items by a **confidence** ``κ_t`` (here the top-label probability,
``max_j p_tj``) and answers the most confident ones; ``e_t = 1`` when its answer to item ``t`` is wrong.
Answering the ``i`` most confident items (coverage ``i/n``) has the selective risk ``r(i)`` = their error
rate.

* **Ties** among equal confidences are shared fractionally, as precision@K shares a tie at its cut
  (:func:`advisor.engine._decisions.precision_recall_at_k`): when the ``i``-th item falls in a tie group of
  ``S`` items with ``E`` errors and ``B`` items above it, the group's items count ``(i − B)/S`` each, so the
  errors among the ``i`` most confident are ``E_B + (i − B) E/S`` — the expected value over a uniformly random
  order within every tie. A constant confidence gives ``r(i)`` = the overall error rate at every ``i``.
* **AURC** ``= (1/n) Σ_{i=1}^{n} r(i)``, the mean over ``i`` of the error rate among the ``i`` most confident
  items; under the tie convention it is the expected AURC over random orders within ties. Summed per tie group
  in closed form: ``Σ_{i=B+1}^{B+S} r(i) = (E_B − B E/S)(H_{B+S} − H_B) + E`` with ``H`` the harmonic numbers
  (``H_x = ψ(x + 1) + γ``, so bootstrap and other real item weights need no expansion).
* **Selective risk at coverage** ``c ∈ (0, 1]``: ``r(m)`` with ``m = ⌈c n⌉`` items answered.
* **Coverage at a target risk** ``ρ``: the largest ``i/n`` with ``r(i) ≤ ρ`` (0 when none), ``i`` a whole number
  of items; within a tie group ``r(i)`` is monotone in ``i``, so each group is decided in closed form.
* **Coverage with guaranteed risk** (selection with guaranteed risk, SGR; Geifman & El-Yaniv 2017, Algorithm 1):
  a binary search over ``⌈log2 n⌉`` confidence thresholds keeps the one of largest coverage whose one-sided
  binomial upper bound on the risk, at ``δ/⌈log2 n⌉``, is at most ``ρ`` — the risk of new items from the same
  distribution is then at most ``ρ`` with probability at least ``1 − δ`` over the draw of the labelled items,
  which act as the calibration set, for the threshold frozen and used on items of the same distribution. The
  report runs it on a calibration half of the groups and tests the frozen cut on the other half
  (:mod:`advisor.stats._frozen_cut`).

Every function takes item weights (a bootstrap resample is a weighting, item ``t`` drawn ``w_t`` times):
``w`` of shape ``(n,)`` or ``(b, n)``; the result has the leading shape. ``n`` is then ``Σ w``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError, arg
from ._confusion import ConfusionMatrix
from ._decisions import _item_level

__all__ = [
    "SELECTIVE_IDS",
    "answered_matrix",
    "aurc",
    "check_coverage",
    "check_reject_label",
    "check_target_risk",
    "coverage_at_risk",
    "coverage_guaranteed_risk",
    "risk_tail_bound",
    "risk_coverage_curve",
    "selective_by_class",
    "selective_items",
    "selective_risk",
    "selective_summary",
]

#: ids of the metrics of this module
SELECTIVE_IDS = ("aurc", "selective_risk", "coverage_at_risk", "coverage_guaranteed_risk", "risk_at_frozen_coverage")
_EULER = 0.57721566490153286061


def check_coverage(value: Any, what: str = arg("coverage")) -> float:
    """A target coverage in ``(0, 1]``, or one sentence naming ``what``."""
    try:
        c = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number greater than 0 and at most 1 (a share of the items answered, "
                         f"e.g. 0.8); got {value!r}.") from None
    if isinstance(value, bool) or not (math.isfinite(c) and 0.0 < c <= 1.0):
        raise InputError(f"{what} must be a number greater than 0 and at most 1 (a share of the items answered, "
                         f"e.g. 0.8); got {value!r}.")
    return c


def check_reject_label(reject: Any, classes: Sequence[Any]) -> str:
    """The reject label as a string, refused in one sentence when it is also a class of the truth."""
    r = str(reject)
    if not r:
        raise InputError(f"the reject label ({arg('reject_label')}) is empty; give the label a system writes when it "
                         "abstains.")
    if any(str(c) == r for c in classes):
        raise InputError(f"the reject label {r!r} ({arg('reject_label')}) is also a true class of these items; a "
                         "system's abstention must be a label no item has as its truth.")
    return r


def answered_matrix(cm: Any, reject: Any) -> tuple[Any, float]:
    """``(matrix of the answered items, mass abstained on)`` of a confusion matrix whose predicted labels include
    the reject label ``reject``: its column (the abstentions) leaves, with its row, which must be empty (a reject
    label is no true class). A matrix without the label is returned as it is, with 0 abstained.

    >>> from advisor.engine import ConfusionMatrix
    >>> m, off = answered_matrix(ConfusionMatrix([[3, 1, 2], [0, 0, 0], [1, 1, 4]], ["a", "?", "b"]), "?")
    >>> m.labels, m.counts.tolist(), off
    (('a', 'b'), [[3.0, 2.0], [1.0, 4.0]], 2.0)
    """
    texts = [str(x) for x in cm.labels]
    r = check_reject_label(reject, ())
    if r not in texts:
        return cm, 0.0
    j = texts.index(r)
    c = np.asarray(cm.counts, dtype=np.float64)
    if c[j].sum() > 0:
        check_reject_label(r, [r])  # one sentence: the reject label is a true class
    keep = [i for i in range(len(texts)) if i != j]
    if len(keep) < 2:
        raise InputError(f"apart from the reject label {r!r} only one class occurs; metrics need at least two.")
    return ConfusionMatrix(c[np.ix_(keep, keep)], [cm.labels[i] for i in keep]), float(c[:, j].sum())


def selective_items(y_true: Sequence[Any], y_pred: Sequence[Any] | None = None, proba: Any = None,
                    labels: Sequence[Any] | None = None, reject_label: Any = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """``(error, confidence)`` per item: ``error`` 1.0 when the answer is wrong, ``confidence`` higher = surer.

    With probabilities ``proba`` (n, k; columns in the order of ``labels``) the confidence is the top-label
    probability and the answer is ``y_pred`` (or the top label when ``y_pred`` is None). With a
    ``reject_label`` and no probabilities, the items labelled with it are abstentions: confidence 0, the others
    1 — one operating point, whose coverage is the share answered; an abstention has no answer, so its error is
    NaN (the selective risk at a coverage above the share answered, and the AURC, are NaN). With both, an abstention comes after every
    answered item (confidence below 0) and is scored by its top label.

    >>> e, c = selective_items(["a", "b", "a"], ["a", "a", "a"], [[.9, .1], [.6, .4], [.7, .3]], ["a", "b"])
    >>> e.tolist(), c.tolist()
    ([0.0, 1.0, 0.0], [0.9, 0.6, 0.7])
    """
    truth = np.asarray([str(v) for v in y_true], dtype=object)
    n = truth.shape[0]
    reject = None if reject_label is None else str(reject_label)
    if reject is not None:
        check_reject_label(reject, sorted(set(truth.tolist()) | {str(c) for c in (labels or ())}))
    if proba is None:
        if y_pred is None or reject is None:
            raise InputError("selective prediction needs a confidence: probability columns p_<label> (the top-label "
                             "probability) or a reject label the system writes when it abstains.")
        pred = np.asarray([str(v) for v in y_pred], dtype=object)
        answered = pred != reject
        return np.where(answered, (pred != truth).astype(np.float64), np.nan), answered.astype(np.float64)
    p = np.asarray(proba, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != n or labels is None or len(labels) != p.shape[1]:
        raise InputError("selective prediction needs one probability column per class, one row per item.")
    conf = p.max(axis=1)
    top = np.asarray([str(labels[j]) for j in p.argmax(axis=1)], dtype=object)
    pred = top if y_pred is None else np.asarray([str(v) for v in y_pred], dtype=object)
    if reject is not None:
        abstain = pred == reject
        pred = np.where(abstain, top, pred)
        conf = np.where(abstain, conf - 2.0, conf)  # after every answered item, ordered among themselves
    return (pred != truth).astype(np.float64), conf


def _w(w: Any, n: int) -> np.ndarray:
    return np.ones(n) if w is None else np.asarray(w, dtype=np.float64)


def _running(error: Any, confidence: Any, w: Any) -> tuple[np.ndarray, ...]:
    """``(size, errors, n, before, errors_before)`` per tie group, most confident first: the group's weight and
    errors, the total weight, and the weight and errors of the groups before it."""
    size, err = _groups(error, confidence, w)
    return size, err, size.sum(axis=-1), np.cumsum(size, axis=-1) - size, np.cumsum(err, axis=-1) - err


def _groups(error: Any, confidence: Any, w: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(size, errors)`` per tie group of equal confidence, most confident first, under item weights."""
    e = np.asarray(error, dtype=np.float64)
    c = np.asarray(confidence, dtype=np.float64)
    if e.shape != c.shape or e.ndim != 1 or e.shape[0] == 0:
        raise InputError("selective prediction needs one error flag and one confidence per item, and items.")
    w = _w(w, e.shape[0])
    order = np.argsort(-c, kind="stable")
    cs = c[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    return np.add.reduceat(w[..., order], starts, axis=-1), np.add.reduceat(w[..., order] * e[order], starts, axis=-1)


def _digamma(x: np.ndarray) -> np.ndarray:
    """ψ(x) for x > 0: the recurrence up to x + 10, then the asymptotic series (error below 1e-12)."""
    acc = np.zeros_like(x)
    for j in range(10):
        acc -= 1.0 / (x + j)
    y = x + 10.0
    y2 = 1.0 / (y * y)
    series = np.log(y) - 0.5 / y - y2 * (1.0 / 12 - y2 * (1.0 / 120 - y2 * (1.0 / 252 - y2 * (1.0 / 240 - y2 / 132))))
    return acc + series


def _harmonic(x: np.ndarray) -> np.ndarray:
    """``H_x = ψ(x + 1) + γ`` (``H_0 = 0``, ``H_m = 1 + 1/2 + … + 1/m``)."""
    return _digamma(np.asarray(x, dtype=np.float64) + 1.0) + _EULER


def aurc(error: Any, confidence: Any, w: Any = None) -> np.ndarray:
    """Area under the risk–coverage curve: the mean over ``i`` of the error rate among the ``i`` most confident.

    >>> round(float(aurc([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])), 12)   # (0/1 + 1/2 + 1/3 + 2/4) / 4
    0.333333333333
    """
    size, err, n, before, e_before = _running(error, confidence, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = np.where(size > 0, err / np.where(size > 0, size, 1.0), 0.0)
        per_group = (e_before - before * rho) * (_harmonic(before + size) - _harmonic(before)) + err
        return np.where(n > 0, per_group.sum(axis=-1) / np.where(n > 0, n, 1.0), np.nan)


def _errors_among(size: np.ndarray, err: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Errors among the ``m`` most confident (``m`` of the leading shape), the tie at the cut shared."""
    before = np.cumsum(size, axis=-1) - size
    frac = np.clip((m[..., None] - before) / np.where(size > 0, size, 1.0), 0.0, 1.0)
    return np.where(frac > 0, err * frac, 0.0).sum(axis=-1)  # an unscored abstention counts only when reached


def answered_count(n: Any, coverage: float) -> np.ndarray:
    """``⌈c n⌉`` — the items answered at coverage ``c`` (a product a rounding error above an integer, such as
    ``0.7 × 10``, counts as that integer)."""
    x = np.asarray(n, dtype=np.float64) * float(coverage)
    return np.maximum(np.ceil(x - 1e-9 * np.maximum(1.0, x)), 1.0)


def selective_risk(error: Any, confidence: Any, coverage: float, w: Any = None) -> np.ndarray:
    """The error rate among the ``⌈c n⌉`` most confident items, a tie at the cut shared fractionally.

    >>> float(selective_risk([0, 1, 0, 1], [0.9, 0.8, 0.8, 0.6], 0.5))   # 1 + a half of the tie {1, 0}: 0.5/2
    0.25
    """
    c = check_coverage(coverage)
    size, err = _groups(error, confidence, w)
    n = size.sum(axis=-1)
    m = np.minimum(answered_count(n, c), n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, _errors_among(size, err, m) / np.where(m > 0, m, 1.0), np.nan)


def answered_share(confidence: Any, coverage: float) -> np.ndarray:
    """How much of each item the ``⌈c n⌉`` most confident answer: 1 above the cut, 0 below, and the share
    ``(m − B)/S`` of a tie group of ``S`` items cut after ``B`` (the tie convention of :func:`selective_risk`).

    >>> answered_share([0.9, 0.8, 0.8, 0.6], 0.5).tolist()   # m = 2: the first, and half of the tie
    [1.0, 0.5, 0.5, 0.0]
    """
    c = np.asarray(confidence, dtype=np.float64)
    n = c.shape[0]
    m = float(min(answered_count(n, check_coverage(coverage)), n))
    order = np.argsort(-c, kind="stable")
    cs = c[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    size = np.diff(np.r_[starts, n]).astype(np.float64)
    before = starts.astype(np.float64)
    frac = np.clip((m - before) / size, 0.0, 1.0)
    out = np.empty(n)
    out[order] = np.repeat(frac, size.astype(np.intp))
    return out


def selective_by_class(truth: Any, error: Any, confidence: Any, coverage: float,
                       labels: Sequence[Any], answered: Any = None) -> dict[str, dict[str, float | None]]:
    """Per true class at coverage ``c``: its items ``n``, the share of them answered, and the recall among those
    answered (right answers over answered items) — a cut met by deferring one class (the rare cancers) shows here,
    where the selective risk averages it away (issue 22, the dermatology reader) — and ``answered_wrong``, how many
    of its items are answered as another class (a melanoma answered as a benign lesion; a fraction of an item where
    the cut splits a tie). ``truth`` holds class indices. ``answered``, when given, is the share of each item answered
(1 or 0 at a confidence cut frozen elsewhere) and takes the place of the coverage's ``⌈c n⌉`` most confident items.

    >>> r = selective_by_class([0, 0, 1, 1], [0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6], 0.5, ["a", "b"])
    >>> r["a"], r["b"]["answered"]
    ({'n': 2.0, 'answered': 1.0, 'recall_answered': 0.5, 'answered_wrong': 1.0}, 0.0)
    """
    t = np.asarray(truth)
    e = np.asarray(error, dtype=np.float64)
    a = answered_share(confidence, coverage) if answered is None else np.asarray(answered, dtype=np.float64)
    out: dict[str, dict[str, float | None]] = {}
    for i, lab in enumerate(labels):
        mine = t == i
        n_i = float(mine.sum())
        ans = float(a[mine].sum())
        out[str(lab)] = {"n": n_i, "answered": ans / n_i if n_i else None,
                         "recall_answered": float((a[mine] * (1.0 - e[mine])).sum()) / ans if ans > 0 else None,
                         "answered_wrong": float((a[mine] * e[mine]).sum())}
    return out


def risk_coverage_curve(error: Any, confidence: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(coverage, risk)`` at ``i = 1, …, n`` answered items (unweighted), ties shared fractionally.

    >>> cov, risk = risk_coverage_curve([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6])
    >>> cov.tolist(), risk.tolist()
    ([0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.3333333333333333, 0.5])
    """
    size, err = _groups(error, confidence, None)
    n = int(round(float(size.sum())))
    before = np.cumsum(size) - size
    e_before = np.cumsum(err) - err
    g = np.repeat(np.arange(size.shape[0]), size.astype(np.int64))  # the tie group of the i-th item
    i = np.arange(1, n + 1, dtype=np.float64)
    errors = e_before[g] + (i - before[g]) * err[g] / size[g]
    return i / n, errors / i


def check_target_risk(value: Any, what: str = arg("target_risk")) -> float:
    """A target risk in ``[0, 1]`` (the largest error rate acceptable among the answers), or one sentence naming
    ``what``."""
    try:
        r = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number from 0 to 1 (the largest error rate acceptable among the answers, "
                         f"e.g. 0.02); got {value!r}.") from None
    if isinstance(value, bool) or not (math.isfinite(r) and 0.0 <= r <= 1.0):
        raise InputError(f"{what} must be a number from 0 to 1 (the largest error rate acceptable among the answers, "
                         f"e.g. 0.02); got {value!r}.")
    return r


def coverage_at_risk(error: Any, confidence: Any, target_risk: float, w: Any = None) -> np.ndarray:
    """The largest coverage ``m/n`` whose selective risk ``E_m/m`` is at most ``target_risk`` (0.0 when none), over
    the whole numbers ``m`` of items answered, most confident first, a tie at the cut shared fractionally.

    Within a tie group of ``S`` items with ``E`` errors after ``B`` items with ``E_B`` errors, the risk at ``m`` is
    ``E/S + (E_B − B E/S)/m``, monotone in ``m``: the largest ``m`` of the group within the target is its last item
    or the root of that line, so every group is decided in closed form and item weights need no expansion.

    >>> float(coverage_at_risk([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], 0.4))
    0.75
    """
    rho = check_target_risk(target_risk)
    size, err, n, before, e_before = _running(error, confidence, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(size > 0, err / np.where(size > 0, size, 1.0), 0.0)
        first = np.floor(before + 1e-9) + 1.0  # the whole numbers m in (B, B + S]
        last = np.floor(before + size + 1e-9)
        # where the line E_B + (m − B) E/S = ρ m crosses (a rising risk stays within the target up to it)
        root = np.where(share > rho, (before * share - e_before) / np.where(share > rho, share - rho, 1.0), last)
        best = np.full(size.shape, -np.inf)
        for m in (last, np.floor(root) + 1.0, np.floor(root), np.floor(root) - 1.0):
            m = np.clip(m, first, last)
            risk = (e_before + (m - before) * err / np.where(size > 0, size, 1.0)) / m
            ok = (m >= first) & (m <= last) & (risk <= rho + 1e-12)
            best = np.where(ok, np.maximum(best, m), best)
        top = best.max(axis=-1)
        return np.where(n > 0, np.where(np.isfinite(top), top, 0.0) / np.where(n > 0, n, 1.0), np.nan)


def risk_tail_bound(errors: int, answered: int, delta: float) -> float:
    """``B*(r̂, δ, m)``: the largest true risk ``b`` under which ``errors`` or fewer errors among ``answered`` items
    still have probability at least ``δ`` — the one-sided Clopper–Pearson upper bound at level ``1 − δ``
    (Langford's binomial tail inversion), found by bisection on the exact binomial distribution function.

    >>> round(risk_tail_bound(0, 10, 0.05), 6)   # 1 − 0.05^(1/10)
    0.258866
    """
    k, m = int(errors), int(answered)
    if m <= 0:
        return 1.0
    if k >= m:
        return 1.0
    log_choose = [math.lgamma(m + 1) - math.lgamma(j + 1) - math.lgamma(m - j + 1) for j in range(k + 1)]

    def tail(b: float) -> float:  # P(X ≤ k), X ~ Binomial(m, b)
        lb, l1 = math.log(b), math.log1p(-b)
        return math.fsum(math.exp(c + j * lb + (m - j) * l1) for j, c in enumerate(log_choose))

    lo, hi = k / m, 1.0  # tail(k/m) ≥ ½ > δ for δ < ½; tail → 0 as b → 1
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if tail(mid) >= delta:
            lo = mid
        else:
            hi = mid
    return lo


def coverage_guaranteed_risk(error: Any, confidence: Any, target_risk: float, delta: float = 0.05,
                             bound: Callable[[np.ndarray, float], float] | None = None) -> tuple[float, float, float]:
    """``(coverage, threshold, bound)`` of selection with guaranteed risk (SGR; Geifman & El-Yaniv 2017,
    Algorithm 1): the items sorted by confidence, a binary search over ``k = ⌈log2 n⌉`` thresholds ``θ`` (the
    confidence of the middle item of the current range); at each, the items with confidence ``≥ θ`` are answered,
    their error rate ``r̂`` and its upper bound ``B*(r̂, δ/k, answered)`` (:func:`risk_tail_bound`) computed, and
    the search moves to lower thresholds when the bound is at most ``target_risk``, to higher ones otherwise. Of
    the ``k`` thresholds tried, the one of largest coverage whose bound is at most ``target_risk`` is returned;
    ``(0.0, nan, nan)`` when none qualifies. Items tied at a threshold are answered together. With probability at
    least ``1 − δ`` over the labelled items (independent of the training), the risk of new items answered at the
    returned threshold is at most ``target_risk`` (the union bound over the ``k`` thresholds tried). ``bound``, when
    given, replaces :func:`risk_tail_bound`: it receives the indices of the items answered at a threshold and
    ``δ/k``, and returns the upper bound on their risk (one taken at an effective sample size, for items in groups).

    The search never tries the least confident item itself (``z = ⌈(lo + hi)/2⌉ ≥ 1``), so the coverage reaches
    1 only when that item ties with a tried threshold. It moves to a higher threshold whenever a bound exceeds the
    target, though fewer answers only widen the bound: when half the items are too few for the target even without
    errors (412 items at 2% and δ = 0.05 need 258 error-free answers), it returns no coverage.

    >>> cov, theta, b = coverage_guaranteed_risk([0] * 100, [i / 100 for i in range(100)], 0.1)
    >>> cov, theta, round(b, 4)   # 7 thresholds tried; no error among 99 answered: B* = 1 − (0.05/7)^(1/99)
    (0.99, 0.01, 0.0487)
    """
    rho = check_target_risk(target_risk)
    if not 0.0 < float(delta) < 0.5:
        raise InputError(f"delta must be greater than 0 and below 0.5 (one minus the confidence); got {delta!r}.")
    e = np.asarray(error, dtype=np.float64)
    c = np.asarray(confidence, dtype=np.float64)
    if e.shape != c.shape or e.ndim != 1 or e.shape[0] == 0 or not np.all(np.isfinite(e)):
        raise InputError("selection with guaranteed risk needs one scored error flag and one confidence per item.")
    n = int(e.shape[0])
    order = np.argsort(c, kind="stable")  # least confident first, as in the paper
    cs, es = c[order], e[order]
    tries = max(1, math.ceil(math.log2(n))) if n > 1 else 1
    d = float(delta) / tries
    lo, hi = 0, n - 1
    best: tuple[float, float, float] = (0.0, float("nan"), float("nan"))
    for _ in range(tries):
        z = math.ceil((lo + hi) / 2)
        theta = float(cs[z])
        first = int(np.searchsorted(cs, theta, side="left"))  # items tied at θ are answered with it
        answered = n - first
        errors = int(round(float(es[first:].sum())))
        b = risk_tail_bound(errors, answered, d) if bound is None else float(bound(order[first:], d))
        if b <= rho:
            if answered / n > best[0]:
                best = (answered / n, theta, b)
            hi = z
        else:
            lo = z
    return best


def extra_specs(spec: Any) -> dict[str, Any]:
    """The :class:`~._metrics.MetricSpec` records of this module's metrics (``spec`` is the class)."""
    return {mid: spec(mid, _item_level, needs_probabilities=True, higher_is_better=mid.startswith("coverage_"))
            for mid in SELECTIVE_IDS}


def selective_summary(error: Any, confidence: Any, answered: Any, coverage: float | None = None,
                      target_risk: float | None = None) -> dict[str, Any]:
    """What a system that may abstain did, from :func:`selective_items`: ``n`` items, ``answered`` (those not
    abstained on), ``coverage`` (their share), ``answered_error_rate`` (the error rate among them — the selective
    risk at the system's own coverage), and, where they are defined, ``selective_risk`` at ``coverage``, ``aurc``
    and ``coverage_at_risk`` at ``target_risk`` (None where abstentions carry no answer to score: with a reject
    label alone, a coverage above the share answered and the AURC).

    >>> e, c = selective_items(["a", "b", "a", "b"], ["a", "?", "b", "b"], reject_label="?")
    >>> s = selective_summary(e, c, c > 0, coverage=0.5)
    >>> s["answered"], s["coverage"], round(s["answered_error_rate"], 3), round(s["selective_risk"], 3), s["aurc"]
    (3, 0.75, 0.333, 0.333, None)
    """
    e = np.asarray(error, dtype=np.float64)
    c = np.asarray(confidence, dtype=np.float64)
    ok = np.asarray(answered, dtype=bool)
    n = int(e.shape[0])
    k = int(ok.sum())

    def num(x: Any) -> float | None:
        v = float(x)
        return v if math.isfinite(v) else None

    out: dict[str, Any] = {"n": n, "answered": k, "coverage": k / n if n else None,
                           "answered_error_rate": num(np.mean(e[ok])) if k else None}
    if coverage is not None:
        out["selective_risk"] = num(selective_risk(e, c, coverage))
    out["aurc"] = num(aurc(e, c))
    if target_risk is not None:
        out["coverage_at_risk"] = num(coverage_at_risk(e, c, target_risk))
    return out
