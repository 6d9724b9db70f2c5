"""Shared statistics of confusion matrices and the per-class quantities every metric builds on.

:class:`_Stats` computes ``a_i`` (true sizes), ``b_i`` (predicted sizes), ``TP_i`` and ``n`` once for
a stack of matrices ``(..., k, k)``; each per-class quantity (recall, precision, F1, ...) is defined
once in :data:`_COMPONENTS`, with its undefined-value resolution for the three conventions (see
:mod:`advisor.engine._metrics`). The records of what was undefined (:class:`UndefinedValue`) and the
result mapping (:class:`MetricResult`) live here too, so every stage shares one provenance format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._cells import Cells, others
from ._confusion import Label
from ._conventions import CONVENTIONS
from ._frames import records, to_frame, to_html

__all__ = [
    "CONVENTIONS",
    "PER_CLASS_FIELDS",
    "MetricResult",
    "UndefinedValue",
]


# No tolerance decides that a quantity is zero. Every denominator is zero exactly when a sum of
# non-negative masses is (a class with no true items, no item outside a class, …); those sums are
# formed without subtracting large sums (``others``: Σ_{j≠i} x_j, off-diagonal masses from the cells),
# and a sum of non-negative numbers is 0 only when every term is. So a class with positive mass is a
# class — one item among 10¹⁵, or a weight of 10⁻³ beside 10¹⁵ — for integer and fractional counts
# alike. (Whole-number totals of 2⁵³ or more, which float64 cannot count, are refused.)


@dataclass(frozen=True)
class UndefinedValue:
    """One undefined quantity and how it was resolved."""

    metric: str
    quantity: str
    label: Label | None
    reason: str
    resolution: str
    value: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "quantity": self.quantity,
            "label": self.label,
            "reason": self.reason,
            "resolution": self.resolution,
            "value": None if self.value is None or not np.isfinite(self.value) else float(self.value),
        }


def _rebuild(cls: type, values: dict[str, Any], state: dict[str, Any]) -> Any:
    """Unpickle/copy a :class:`ValuesMapping` (its mutators are closed, so the default route fails)."""
    obj: dict[str, Any] = dict.__new__(cls)
    dict.update(obj, values)
    obj.__dict__.update(state)
    return obj


def _read_only(self: Any, *args: Any, **kwargs: Any) -> Any:
    raise TypeError(f"{type(self).__name__} is read-only; copy it with dict(result) to change values.")


class ValuesMapping(dict[str, Any]):
    """Read-only ``dict`` of results: the shared base of advisor's result objects.

    A ``dict`` subclass (not only a ``Mapping``) so that libraries which test for ``dict`` read a
    result as the dict it is: ``pandas.DataFrame(per_class(cm))`` is the per-class table (pandas
    puts a dict's keys in columns: one column per class; ``.to_frame()`` or
    ``DataFrame.from_dict(res, orient="index")`` give one row per class), ``pandas.Series(res)`` the
    metric values, ``json.dumps`` works on plain values. Assigning to it raises ``TypeError``.

    >>> from advisor.engine import ConfusionMatrix, per_class
    >>> pc = per_class(ConfusionMatrix([[5, 1], [2, 3]], ["neg", "pos"]))
    >>> isinstance(pc, dict), pc["pos"]["recall"]
    (True, 0.6)
    >>> pc["pos"] = {}
    Traceback (most recent call last):
    ...
    TypeError: MetricResult is read-only; copy it with dict(result) to change values.
    """

    @property
    def _values(self) -> dict[str, Any]:
        return dict(self)

    @_values.setter
    def _values(self, values: Mapping[str, Any]) -> None:
        dict.clear(self)
        dict.update(self, values)

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(self), dict(self.__dict__)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self)!r})"

    # -- tables: pandas and notebooks (advisor/engine/_frames.py) --------------------------------
    def records(self) -> list[dict[str, Any]]:
        """One dict per class (per-class table) or per metric: ``pandas.DataFrame(res.records())``."""
        return records(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame indexed by class label or metric id."""
        return to_frame(self)

    def _repr_html_(self) -> str:
        return to_html(self)


class MetricResult(ValuesMapping):
    """Mapping metric id → value (a float, or an array for batched input) plus provenance.

    Attributes
    ----------
    undefined : list of UndefinedValue
        Every undefined quantity met while computing, with its resolution (unbatched input only).
    convention : str
        The undefined-value convention used.
    labels : tuple
        The class labels of the matrix.
    positive_label : int or str or None
    beta : float
    class_weights : array of k weights or None
        The weights of ``class_weighted_recall`` and ``class_weighted_accuracy``, in the order of ``labels``.
    f1_classes : array of k booleans or None
        The classes ``macro_f1_of_classes`` averages over, as a mask in the order of ``labels``.
    fallback_index : int or None
        The index of the class whose prediction takes no action (``wrong_action_rate``, ``fallback_rate``).
    action_mask : array of k booleans or None
        The classes of the action of interest (``action_sensitivity``, ``action_specificity``), label order.
    class_index : dict or None
        Each metric of one named class (``f1@deny``, :func:`~advisor.engine._metrics.class_metric`) → the index of
        its class among ``labels``.
    """

    def __init__(
        self,
        values: dict[str, Any],
        undefined: list[UndefinedValue],
        convention: str,
        labels: tuple[Label, ...],
        positive_label: Label | None,
        beta: float,
        class_weights: np.ndarray | None = None,
        f1_classes: np.ndarray | None = None,
        fallback_index: int | None = None,
        action_mask: np.ndarray | None = None,
        class_index: dict[str, int] | None = None,
    ) -> None:
        self._values = values
        self.undefined = undefined
        self.convention = convention
        self.labels = labels
        self.positive_label = positive_label
        self.beta = beta
        self.class_weights = class_weights
        self.f1_classes = f1_classes
        self.fallback_index = fallback_index
        self.action_mask = action_mask
        #: each per-class metric id (``f1@deny``) → the index of its class among ``labels``
        self.class_index = class_index

    def __repr__(self) -> str:
        return f"MetricResult({self._values!r}, undefined={len(self.undefined)})"

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the values (floats; NaN stays NaN)."""
        return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in self._values.items()}


# ----------------------------------------------------------------------------------------------
# Shared statistics
# ----------------------------------------------------------------------------------------------
@dataclass
class _Component:
    """A per-class quantity: resolved values (..., k), the undefined mask and how it was resolved."""

    value: np.ndarray
    undefined: np.ndarray
    reason: str
    resolution: str  # human text for the convention in force


class _Stats:
    """Shared intermediate quantities of a batch of confusion matrices held as non-zero cells.

    ``cells`` is an :class:`advisor.engine._cells.Cells` (batch shape ``...``); every per-class
    array has shape ``(..., k)``. Nothing here is ``O(k²)``.
    """

    def __init__(self, cells: Cells, convention: str, beta: float, pos: int | None) -> None:
        self.cells = cells
        self.k = cells.k
        self.convention = convention
        self.beta = beta
        self.pos = pos
        self.weights: np.ndarray | None = None  # class weights (class_weighted_recall/_accuracy), label order
        self.subset: np.ndarray | None = None  # mask of the classes macro_f1_of_classes averages over, label order
        self.fallback: int | None = None  # the class whose prediction takes no action (wrong_action_rate, …)
        self.actions: np.ndarray | None = None  # mask of the classes of the action of interest, label order
        self.classes: dict[str, int] | None = None  # each metric of one named class (f1@deny) → its class index
        self.a = cells.a  # true sizes (..., k)
        self.b = cells.b  # predicted sizes (..., k)
        self.tp = cells.tp
        self.n = cells.n  # (...)
        self.nk = self.n[..., None]
        # Access log: metric id -> component names used; and scalar-level undefined events.
        self.current: str | None = None
        self.used: dict[str, list[str]] = {}
        self.scalar_events: list[tuple[str, str, np.ndarray, str, str]] = []
        self._cache: dict[str, _Component] = {}
        self._once: dict[str, Any] = {}

    def once(self, key: str, fn: Callable[[_Stats], Any]) -> Any:
        """``fn(self)``, computed once per batch when no metric is being recorded (the bootstrap's
        :func:`evaluate_batch`); while one is (``current`` set), recomputed so that every metric logs
        the components it uses."""
        if self.current is not None:
            return fn(self)
        if key not in self._once:
            self._once[key] = fn(self)
        return self._once[key]

    # -- sums without cancellation ---------------------------------------------------------
    @property
    def others_a(self) -> np.ndarray:
        """``n − a_i`` as ``Σ_{j≠i} a_j``: zero exactly when every item is of class ``i``."""
        return self.once("others_a", lambda s: others(s.a))

    @property
    def others_b(self) -> np.ndarray:
        """``n − b_i`` as ``Σ_{j≠i} b_j``: zero exactly when every item is predicted as ``i``."""
        return self.once("others_b", lambda s: others(s.b))

    @property
    def fn(self) -> np.ndarray:
        """``FN_i = a_i − TP_i``, the off-diagonal mass of row ``i`` (exact for integer counts)."""
        return self.once("fn", lambda s: s.a - s.tp if s.cells.exact else s.cells.off_sums("rows"))

    @property
    def fp(self) -> np.ndarray:
        """``FP_i = b_i − TP_i``, the off-diagonal mass of column ``i``."""
        return self.once("fp", lambda s: s.b - s.tp if s.cells.exact else s.cells.off_sums("cols"))

    # -- components -----------------------------------------------------------------------
    def comp(self, name: str) -> _Component:
        if self.current is not None:
            self.used.setdefault(self.current, [])
            if name not in self.used[self.current]:
                self.used[self.current].append(name)
        if name not in self._cache:
            self._cache[name] = _COMPONENTS[name](self)
        return self._cache[name]

    def ratio(
        self,
        num: np.ndarray,
        den: np.ndarray,
        baseline: np.ndarray | float,
        reason: str,
        baseline_text: str,
        undef: np.ndarray | None = None,
    ) -> _Component:
        """``num / den`` with zero denominators resolved by the convention in force. ``den`` is zero
        exactly when ``undef`` (default ``den <= 0``: a sum of non-negative masses, no tolerance)."""
        if undef is None:
            undef = den <= 0
        undef = undef | ~(den > 0)  # (a denominator that underflowed: nothing to divide by)
        safe = np.where(undef, 1.0, den)
        val = num / safe
        if self.convention == "zero":
            fill: np.ndarray | float = 0.0
            text = "set to 0 (zero convention)"
        elif self.convention == "baseline":
            fill = baseline
            text = f"set to {baseline_text} (baseline convention, Gösgens et al. 2021, App. B)"
        else:
            fill = np.nan
            text = "undefined; left out of any mean over classes (omit convention)"
        val = np.where(undef, fill, val)
        return _Component(val, undef, reason, text)

    def flag(self, quantity: str, mask: np.ndarray, reason: str, resolution: str) -> None:
        """Record a scalar-level undefined value for the current metric."""
        if self.current is not None and np.any(mask):
            self.scalar_events.append((self.current, quantity, mask, reason, resolution))

    def mean(self, values: np.ndarray) -> np.ndarray:
        """Unweighted mean over classes; under ``omit`` NaN entries are left out."""
        if self.convention == "omit":
            return _nanmean(values)
        return values.mean(axis=-1)

    def weighted(self, values: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``Σ w_i v_i / Σ w_i``; under ``omit`` NaN entries and their weights are left out."""
        if self.convention == "omit":
            ok = ~np.isnan(values)
            w = np.where(ok, weights, 0.0)
            tot = w.sum(axis=-1)
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(tot > 0, (w * np.where(ok, values, 0.0)).sum(axis=-1) / np.where(tot > 0, tot, 1), np.nan)
        return (weights * values).sum(axis=-1) / weights.sum(axis=-1)

    def scalar_undefined(self, value: np.ndarray, undef: np.ndarray, zero: Any, baseline: Any, quantity: str,
                         reason: str, baseline_text: str) -> np.ndarray:
        """Resolve a scalar metric whose own denominator vanished."""
        if self.convention == "zero":
            fill, text = zero, "set to 0 (zero convention)"
        elif self.convention == "baseline":
            fill, text = baseline, f"set to {baseline_text} (baseline convention, Gösgens et al. 2021, App. B)"
        else:
            fill, text = np.nan, "reported as undefined (omit convention)"
        self.flag(quantity, undef, reason, text)
        return np.where(undef, fill, value)


def _nanmean(values: np.ndarray) -> np.ndarray:
    ok = ~np.isnan(values)
    cnt = ok.sum(axis=-1)
    tot = np.where(ok, values, 0.0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(cnt > 0, tot / np.where(cnt > 0, cnt, 1), np.nan)


def _harmonic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Harmonic mean, continuously extended by H(0, y) = 0."""
    s = x + y
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, 2 * x * y / np.where(s > 0, s, 1.0), np.where(np.isnan(s), np.nan, 0.0))


# ----------------------------------------------------------------------------------------------
# Per-class components (one-vs-rest counts of science.md §1)
# ----------------------------------------------------------------------------------------------
def _expected_or_max(s: _Stats, expected_num: np.ndarray, other_empty: np.ndarray) -> np.ndarray:
    """Baseline fill of a ratio ``C_ii / d_i`` with ``d_i = 0``.

    Gösgens et al. (App. B) resolve it algebraically, ``C_ii = a_i b_i / n``, which gives the expected
    value ``expected_num / n``. When the other labeling is empty for that class too, both labelings
    agree completely about it, and maximal agreement (1) is the resolution that keeps the property
    Max: a diagonal matrix with an absent class must still score the maximum.
    """
    return np.where(other_empty, 1.0, expected_num / np.maximum(s.nk, 1e-300))


def _recall(s: _Stats) -> _Component:
    base = _expected_or_max(s, s.b, s.b <= 0) if s.convention == "baseline" else 0.0
    return s.ratio(s.tp, s.a, base, "class has no true items (a_i = 0)", "b_i/n, or 1 if also b_i = 0")


def _precision(s: _Stats) -> _Component:
    base = _expected_or_max(s, s.a, s.a <= 0) if s.convention == "baseline" else 0.0
    return s.ratio(s.tp, s.b, base, "class is never predicted (b_i = 0)", "a_i/n, or 1 if also a_i = 0")


def _f1(s: _Stats) -> _Component:
    return s.ratio(2 * s.tp, s.a + s.b, 1.0, "class absent from truth and predictions (a_i = b_i = 0)",
                   "1 (maximal agreement)")


def _fbeta(s: _Stats) -> _Component:
    b2 = s.beta**2
    return s.ratio((1 + b2) * s.tp, b2 * s.a + s.b, 1.0,
                   "class absent from truth and predictions (a_i = b_i = 0)", "1 (maximal agreement)")


def _jaccard(s: _Stats) -> _Component:
    return s.ratio(s.tp, s.a + s.fp, 1.0, "class absent from truth and predictions (a_i = b_i = 0)",
                   "1 (maximal agreement)")


def _tn(s: _Stats) -> np.ndarray:
    return s.once("tn", _tn_values)


def _tn_values(s: _Stats) -> np.ndarray:
    """``TN_i`` — the mass outside row ``i`` and column ``i``. Integer counts: ``n − a_i − b_i + TP_i``
    (exact). Fractional ones: the other classes' diagonal ``Σ_{j≠i} TP_j`` plus the off-diagonal mass
    outside row and column ``i`` (zero exactly when no such cell is positive), never a difference of
    sums of order n, whose residue of 10⁻¹⁶·n would be a phantom TN (or swallow a real one)."""
    if s.cells.exact:
        tn = s.nk - s.a - s.b + s.tp
    else:
        outside, _ = s.cells.off_outside()
        tn = others(s.tp) + outside
    return np.clip(tn, 0.0, np.minimum(s.others_a, s.others_b))


def _specificity(s: _Stats) -> _Component:
    base = _expected_or_max(s, s.others_b, s.others_b <= 0) if s.convention == "baseline" else 0.0
    return s.ratio(_tn(s), s.others_a, base, "every item belongs to this class (n − a_i = 0)",
                   "(n − b_i)/n, or 1 if also n − b_i = 0")


def _npv(s: _Stats) -> _Component:
    base = _expected_or_max(s, s.others_a, s.others_a <= 0) if s.convention == "baseline" else 0.0
    return s.ratio(_tn(s), s.others_b, base, "every item is predicted as this class (n − b_i = 0)",
                   "(n − a_i)/n, or 1 if also n − a_i = 0")


def _gm1_ovr(s: _Stats) -> _Component:
    """Generalized mean measure GM_1 of each one-vs-rest binary problem (Gösgens et al. Table 1)."""
    nn = np.maximum(s.nk, 1e-300)
    # n TP − a b written as TP TN − FN FP: no cancellation between two products of order n², so
    # integer counts up to 10^15 keep their precision (a class of one item among 10^12 scores 1)
    num = (s.tp * _tn(s) - s.fn * s.fp) / nn
    den = 0.5 * (s.a * s.others_a + s.b * s.others_b) / nn
    # each one-vs-rest labeling is constant when its class is empty or holds everything
    const = ((s.a <= 0) | (s.others_a <= 0)) & ((s.b <= 0) | (s.others_b <= 0))
    # Both one-vs-rest labelings constant: equal -> maximal agreement (1), different -> minimal (-1).
    base = np.where((s.a > 0) == (s.b > 0), 1.0, -1.0) if s.convention == "baseline" else 0.0
    comp = s.ratio(num, den, base, "both one-vs-rest labelings are constant",
                   "1 if they agree, −1 if not", undef=const)
    comp.value = np.clip(comp.value, -1.0, 1.0)
    return comp


_COMPONENTS: dict[str, Callable[[_Stats], _Component]] = {
    "recall": _recall,
    "precision": _precision,
    "f1": _f1,
    "f_beta": _fbeta,
    "jaccard": _jaccard,
    "specificity": _specificity,
    "npv": _npv,
    "gm1": _gm1_ovr,
}

PER_CLASS_FIELDS = ("support", "predicted", "precision", "recall", "f1", "jaccard", "specificity", "npv")
