"""The space the property checker searches: metric functions on stacks of matrices, and samplers.

Domains
-------
*full*     every class occurs in at least one of the two labelings (``a_i + b_i > 0``). Gösgens et
           al.'s properties are checked here, under the ``baseline`` convention for undefined values
           (their Appendix B). A matrix produced by a perturbation that empties a class is evaluated
           on the classes that remain ("squeezed"): a class neither labeling uses is not a class of
           the evaluation. Two identical constant labelings (one class left) score the metric's
           value on a diagonal matrix. Binary metrics of a positive class are never squeezed.
           Stored counterexamples keep the k×k matrices and record the reduced matrix actually
           evaluated (``Counterexample.reduced``), so every stored value is reproducible with
           :func:`advisor.compute_metrics` under ``undefined="baseline"``. The engine itself does not
           drop classes: under ``baseline`` it scores a class absent from both labelings as maximal
           agreement (recall, precision, F1, Jaccard = 1), so outside *full* its values differ.
*regular*  every class is present in the truth and predicted at least once (``a_i > 0``,
           ``b_i > 0``), so no value is undefined and all conventions agree. Opitz's properties are
           checked here: his definitions (derivatives, scalings) presuppose defined values.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from ..engine import (
    METRICS,
    NEEDS_PARAMETERS,
    PARAMETER_OF,
    STRUCTURE_METRICS,
    OrdinalCells,
    evaluate_batch,
    evaluate_ordinal_batch,
)
from ..stats import calibrate_counts
from ._check_scores import hard_evaluator

__all__ = ["RESTRICTIONS", "TOL", "EngineSpec", "MetricFunction", "Sampler", "checker_parameters", "checker_positive", "close",
           "drop_absent", "sort_by_size", "strictly_less"]

TOL = 1e-9


def close(x: np.ndarray, y: np.ndarray, tol: float = TOL) -> np.ndarray:
    """Elementwise equality up to a relative tolerance; equal infinities are equal."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    with np.errstate(invalid="ignore"):
        scale = np.maximum(1.0, np.maximum(np.abs(x), np.abs(y)))
        near = np.abs(x - y) <= tol * scale
    return (x == y) | np.where(np.isfinite(x) & np.isfinite(y), near, False)


def strictly_less(x: np.ndarray, y: np.ndarray, tol: float = TOL) -> np.ndarray:
    """``x < y`` by more than the tolerance."""
    return (np.asarray(x) < np.asarray(y)) & ~close(x, y, tol)


def drop_absent(m: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The matrix without the classes neither labeling uses (``a_i + b_i = 0``), and those classes.

    This is how the checker evaluates a non-binary metric on a matrix outside the *full* domain.

    >>> r, dropped = drop_absent(np.array([[5.0, 0, 1], [0, 0, 0], [2, 0, 0]]))
    >>> r.tolist(), dropped
    ([[5.0, 1.0], [2.0, 0.0]], [1])
    """
    m = np.asarray(m, dtype=float)
    present = (m.sum(axis=-1) + m.sum(axis=-2)) > 0
    keep = np.flatnonzero(present)
    return m[np.ix_(keep, keep)], [int(i) for i in np.flatnonzero(~present)]


class EngineSpec(Protocol):
    """What the catalogue reads of a metric's engine spec (the engine's nominal and structured spec tables)."""

    @property
    def binary_only(self) -> bool: ...

    @property
    def needs_probabilities(self) -> bool: ...

    @property
    def alias_of(self) -> str | None: ...

    @property
    def higher_is_better(self) -> bool: ...


def _ordinal_spec(metric_id: str) -> EngineSpec:
    spec = STRUCTURE_METRICS[metric_id]
    if spec.structure != "ordinal":
        raise ValueError(f"{metric_id} is not a confusion-matrix metric; see _check_structures")
    return spec


def _ordinal_eval(metric_id: str, counts: np.ndarray, convention: str) -> np.ndarray:
    """An ordinal metric of a stack ``(N, k, k)`` whose classes are in order (every cell passed)."""
    c = np.asarray(counts, dtype=float)
    k = c.shape[-1]
    rows, cols = np.divmod(np.arange(k * k), k)
    cells = OrdinalCells(rows, cols, c.reshape(c.shape[:-2] + (k * k,)), tuple(range(k)))
    return evaluate_ordinal_batch(cells, [metric_id], convention)[metric_id]


def checker_parameters(metric_id: str, k: int, keep: Sequence[int] | np.ndarray | None = None) -> dict[str, Any]:
    """The parameters the property checker evaluates a metric with: a metric with user weights is checked with
    the fixed unequal weights 1, 2, …, k, the macro F1 over chosen classes with every class but the last (classes
    1, …, k − 1: F1^PN's positive and negative beside a neutral class when k = 3), the wrong-action and fallback
    rates with the last class as the one that takes no action (their catalogue claims say so), the sensitivity and
    specificity of an action with every class but the last leading to the action of interest (the last alone to the
    other action); every other metric needs none.

    ``keep`` lists the classes of a ``k``-class matrix left after the checker dropped those in neither labeling:
    each keeps its own weight (a dropped class takes its weight with it; the others are not renumbered).

    >>> checker_parameters("class_weighted_accuracy", 3, keep=[0, 2])["class_weights"].tolist()
    [1.0, 3.0]
    >>> checker_parameters("macro_f1_of_classes", 3, keep=[0, 2])["f1_classes"].tolist()
    [True, False]
    >>> checker_parameters("wrong_action_rate", 3, keep=[0, 2]), checker_parameters("fallback_rate", 3, keep=[0, 1])
    ({'fallback_class': 1}, {'fallback_class': None})
    >>> checker_parameters("action_sensitivity", 3), checker_parameters("action_sensitivity", 3, keep=[0, 2])
    ({'action_classes': [0, 1]}, {'action_classes': [0]})
    """
    if metric_id not in NEEDS_PARAMETERS:
        return {}
    if PARAMETER_OF[metric_id] == "fallback_class":  # the last class takes no action (None: dropped); its index
        if keep is None:                                 # is its label in a matrix without labels
            return {"fallback_class": k - 1}
        kept = [i for i, c in enumerate(np.asarray(keep, dtype=int)) if c == k - 1]
        return {"fallback_class": kept[0] if kept else None}
    if PARAMETER_OF[metric_id] == "action_classes":  # the last class leads to the other action; the classes as
        group = np.arange(k) < k - 1                 # compute_metrics takes them (indices of an unlabelled matrix)
        in_g = group if keep is None else group[np.asarray(keep, dtype=int)]
        return {"action_classes": [int(i) for i in np.flatnonzero(in_g)]}
    if PARAMETER_OF[metric_id] == "f1_classes":
        chosen = np.arange(k) < k - 1
        return {"f1_classes": chosen if keep is None else chosen[np.asarray(keep, dtype=int)]}
    w = np.arange(1.0, k + 1)
    return {"class_weights": w if keep is None else w[np.asarray(keep, dtype=int)]}


def checker_positive(metric_id: str, k: int, keep: Sequence[int] | np.ndarray | None = None) -> int | None:
    """The index of the class of interest the checker evaluates a metric with: the positive class 1 of a binary
    metric; the last class of a metric computed against a class of interest among several (in-scope accuracy: the
    out-of-scope class), in the matrix ``keep`` reduced a ``k``-class one to, None when it was dropped; else None.

    >>> checker_positive("recall", 2), checker_positive("in_scope_accuracy", 3, keep=[0, 2])
    (1, 1)
    >>> checker_positive("in_scope_accuracy", 3, keep=[0, 1]) is None, checker_positive("accuracy", 3) is None
    (True, True)
    """
    spec = METRICS.get(metric_id)
    if spec is not None and spec.binary_only:
        return 1
    if spec is None or not spec.needs_positive:
        return None
    kept = list(range(k)) if keep is None else [int(i) for i in keep]
    return kept.index(k - 1) if k - 1 in kept else None


class MetricFunction:
    """A metric as the checker sees it: oriented scores of a stack of matrices ``(N, k, k)``.

    ``score`` is ``+value`` for higher-is-better metrics and ``−value`` otherwise, so every property
    can be stated as "higher is more similar". ``calibrated=True`` evaluates ``metric~``, the metric
    of the prevalence-calibrated matrix.
    """

    def __init__(self, metric_id: str, higher_is_better: bool, *, calibrated: bool = False,
                 convention: str = "baseline", restrict: str | None = None) -> None:
        spec: EngineSpec = METRICS.get(metric_id) or _ordinal_spec(metric_id)
        # score metrics: evaluated on hard outputs
        self._hard = hard_evaluator(metric_id) if spec.needs_probabilities else None
        if spec.needs_probabilities and self._hard is None:
            raise ValueError(f"{metric_id} is not a confusion-matrix metric")
        self.id = metric_id
        self.binary = spec.binary_only
        # ordered classes (issue 12): a class no labeling uses still holds its place in the order
        self.ordinal = getattr(spec, "structure", "nominal") == "ordinal"
        self.sign = 1.0 if higher_is_better else -1.0
        # a signed metric (the standardized mean difference) is best at its target: oriented, −|value − target|
        self.target: float | None = getattr(spec, "target", None)
        self.calibrated = calibrated
        self.convention = convention
        self.restrict = restrict
        self.tol = TOL
        # arccos amplifies rounding: an error δ of MCC (≈ 1e-13 from n² − Σa_i² on skewed matrices)
        # moves the correlation distance by δ/(π sin πv), at most √(2δ)/π near v = 0 or 1
        self._arccos = metric_id == "correlation_distance"
        self._top: float | None = None

    def abs_tol(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Absolute tolerance for comparing two (oriented or raw) scores of this metric."""
        x, y = np.abs(np.asarray(x, dtype=float)), np.abs(np.asarray(y, dtype=float))
        with np.errstate(invalid="ignore"):
            tol = self.tol * np.maximum(1.0, np.maximum(x, y))
            if self._arccos:
                delta = 1e-12
                for v in (x, y):
                    s = np.abs(np.sin(np.pi * v))
                    tol = tol + np.minimum(np.sqrt(2 * delta) / np.pi, delta / (np.pi * np.maximum(s, 1e-300)))
        return np.where(np.isfinite(tol), tol, 0.0)

    def close(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Equal up to the metric's numerical tolerance (equal infinities are equal)."""
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        with np.errstate(invalid="ignore"):
            near = np.abs(x - y) <= self.abs_tol(x, y)
        return (x == y) | np.where(np.isfinite(x) & np.isfinite(y), near, False)

    def less(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``x < y`` by more than the tolerance."""
        return (np.asarray(x) < np.asarray(y)) & ~self.close(x, y)

    def admissible(self, counts: np.ndarray) -> np.ndarray:
        """Mask of matrices inside the restriction of a conditional claim (all True without one)."""
        c = np.asarray(counts, dtype=float)
        if self.restrict is None:
            return np.ones(c.shape[:-2], dtype=bool)
        return RESTRICTIONS[self.restrict][1](c)

    @property
    def ks(self) -> tuple[int, ...]:
        """Class counts the metric is defined for (binary metrics: 2 only)."""
        return (2,) if self.binary else (2, 3, 4)

    def _eval(self, counts: np.ndarray, k: int | None = None,
              keep: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """The metric of a stack; ``keep``: the classes of the ``k``-class matrices it was reduced to."""
        if self._hard is not None:
            with np.errstate(invalid="ignore", divide="ignore"):
                return self._hard(np.asarray(counts, dtype=float))
        if self.ordinal:
            return _ordinal_eval(self.id, counts, self.convention)
        pos = checker_positive(self.id, k or counts.shape[-1], keep) if not self.binary else 1
        if pos is None and METRICS[self.id].needs_positive:  # no item of the class of interest: all are in scope
            return evaluate_batch(counts, ["accuracy"], undefined=self.convention)["accuracy"]
        params = checker_parameters(self.id, k or counts.shape[-1], keep)
        if "fallback_class" in params:  # evaluate_batch takes the class by its index
            params = {"fallback_index": params["fallback_class"]}
        if "action_classes" in params:  # evaluate_batch takes the classes as a mask (all or none may be left)
            mask = np.zeros(counts.shape[-1], dtype=bool)
            mask[params["action_classes"]] = True
            params = {"action_mask": mask}
        if "fallback_index" in params and params["fallback_index"] is None:  # the fallback class was dropped:
            acc = evaluate_batch(counts, ["accuracy"], undefined=self.convention)["accuracy"]  # every error acts,
            return 1.0 - acc if self.id == "wrong_action_rate" else np.zeros_like(acc)  # none falls back
        return evaluate_batch(counts, [self.id], positive_index=pos, undefined=self.convention, **params)[self.id]

    def values(self, counts: np.ndarray) -> np.ndarray:
        """Metric values (not oriented) of a stack ``(N, k, k)``."""
        c = np.asarray(counts, dtype=float)
        if c.ndim == 2:
            return self.values(c[None])[0]
        if self.calibrated:
            c = calibrate_counts(c)
        out = np.empty(c.shape[0])
        if c.shape[0] == 0:
            return out
        if self.binary or self.ordinal:
            return np.asarray(self._eval(c), dtype=float)
        present = (c.sum(axis=-1) + c.sum(axis=-2)) > 0
        patterns, inverse = np.unique(present, axis=0, return_inverse=True)
        inverse = np.asarray(inverse).reshape(-1)
        for p_idx, pattern in enumerate(patterns):
            rows = np.flatnonzero(inverse == p_idx)
            keep = np.flatnonzero(pattern)
            if keep.size <= 1:
                out[rows] = self.top_value()
                continue
            sub = c[rows][:, keep][:, :, keep]
            out[rows] = self._eval(sub, c.shape[-1], keep)
        return out

    def __call__(self, counts: np.ndarray) -> np.ndarray:
        """Oriented scores: higher means more similar labelings."""
        if self.target is not None:
            return -np.abs(self.values(counts) - self.target)
        return self.sign * self.values(counts)

    def top_value(self) -> float:
        """The metric's value on a diagonal matrix (two identical labelings)."""
        if self._top is None:
            self._top = float(self._eval(np.eye(2)[None] * 3.0)[0])
        return self._top


class Sampler:
    """Reproducible generators of confusion matrices for one class count ``k``."""

    def __init__(self, k: int, rng: np.random.Generator) -> None:
        self.k = k
        self.rng = rng

    # -- raw generators ---------------------------------------------------------------------
    def exhaustive(self, max_cell: int) -> np.ndarray:
        """Every k×k matrix with integer cells 0..max_cell (use for k = 2 only)."""
        grid = np.array(list(itertools.product(range(max_cell + 1), repeat=self.k * self.k)), dtype=float)
        return grid.reshape(-1, self.k, self.k)

    def integers(self, size: int, max_cell: int = 4, p_zero: float = 0.35) -> np.ndarray:
        """Random small integer matrices with many zero cells (edge cases)."""
        c = self.rng.integers(0, max_cell + 1, size=(size, self.k, self.k)).astype(float)
        c[self.rng.random(c.shape) < p_zero] = 0.0
        return c

    def reals(self, size: int, p_zero: float = 0.2) -> np.ndarray:
        """Random non-integer masses spread over several orders of magnitude."""
        c = self.rng.exponential(1.0, size=(size, self.k, self.k)) * 10 ** self.rng.uniform(-1, 2, (size, 1, 1))
        c[self.rng.random(c.shape) < p_zero] = 0.0
        return c

    def skewed(self, size: int) -> np.ndarray:
        """Sparse integer matrices with a few large cells (counterexamples often need one)."""
        c = self.integers(size, max_cell=3, p_zero=0.5)
        big = self.rng.random(c.shape) < 1.5 / c[0].size
        c[big] = np.round(np.exp(self.rng.uniform(np.log(4), np.log(60), int(big.sum()))))
        return c

    def mixed(self, size: int) -> np.ndarray:
        """A third small integers, a third sparse integers with large cells, a third real masses."""
        t = size // 3
        return np.concatenate([self.integers(size - 2 * t), self.skewed(t), self.reals(t)])

    # -- domains ----------------------------------------------------------------------------
    @staticmethod
    def full(c: np.ndarray) -> np.ndarray:
        """Mask: n > 0 and every class occurs in at least one labeling."""
        return (c.sum(axis=(-1, -2)) > 0) & np.all((c.sum(axis=-1) + c.sum(axis=-2)) > 0, axis=-1)

    @staticmethod
    def regular(c: np.ndarray) -> np.ndarray:
        """Mask: every class is present in the truth and predicted at least once."""
        return np.all(c.sum(axis=-1) > 0, axis=-1) & np.all(c.sum(axis=-2) > 0, axis=-1)

    @staticmethod
    def non_unary(c: np.ndarray) -> np.ndarray:
        """Mask: neither labeling puts every item in one class (no row or column sum equals n)."""
        n = c.sum(axis=(-1, -2))[..., None]
        return ~np.any(np.isclose(c.sum(axis=-1), n), axis=-1) & ~np.any(np.isclose(c.sum(axis=-2), n), axis=-1)

    def sample(self, size: int, domain: Callable[[np.ndarray], np.ndarray], exhaustive_max: int = 5) -> np.ndarray:
        """``size`` random matrices of the domain; for k = 2 also every matrix with cells ≤ 5."""
        parts = []
        if self.k == 2:
            parts.append(self.exhaustive(exhaustive_max))
        parts.append(self.mixed(max(size, 8)))
        c = np.concatenate(parts)
        return c[domain(c)]


def sort_by_size(c: np.ndarray) -> np.ndarray:
    """Integer matrices first, then by total mass and number of non-zero cells: first hit = simplest."""
    ints = np.all(c == np.round(c), axis=(-1, -2))
    key = c.sum(axis=(-1, -2)) + 1e-3 * (c > 0).sum(axis=(-1, -2)) + np.where(ints, 0.0, 1e9)
    return c[np.argsort(key, kind="stable")]


RESTRICTIONS: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    "truth_complete": ("every class occurs in the truth (a_i > 0)", lambda c: np.all(c.sum(axis=-1) > 0, axis=-1)),
    "prediction_complete": ("every class is predicted at least once (b_i > 0)",
                            lambda c: np.all(c.sum(axis=-2) > 0, axis=-1)),
    "occurring": ("every class occurs in the truth or the prediction (a_i + b_i > 0)", Sampler.full),
    "regular": ("every class occurs in the truth and is predicted (a_i > 0, b_i > 0)",
                lambda c: np.all(c.sum(axis=-1) > 0, axis=-1) & np.all(c.sum(axis=-2) > 0, axis=-1)),
}
