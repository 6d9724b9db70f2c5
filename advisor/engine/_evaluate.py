"""One call from confusion matrices (and optional probability scores) to everything a table shows.

:func:`evaluate` is what the command line and the report call: for each system its metric values, its
per-class table and every undefined value with its resolution, plus the chance levels of each metric
(which depend on the true class sizes only, so they are shared by all systems).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

from pydantic import BaseModel, ConfigDict

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError
from .._jsonio import dumps, envelope
from ._chance import chance_levels
from ._confusion import ConfusionMatrix, Label
from ._frames import evaluation_frame, evaluation_html, evaluation_records
from ._metrics import PROBABILITY_METRICS, _resolve_ids, compute_metrics, per_class
from ._names import metric_list
from ._probabilities import probability_chance_levels

__all__ = ["Evaluation", "check_metric_ids", "evaluate"]

_Value = Union[float, None]


class Evaluation(BaseModel):
    """Metrics of several systems on the same items.

    Attributes
    ----------
    labels : list of int or str
    systems : list of str
        System names, in input order.
    convention : str
        The undefined-value convention used (``zero``, ``baseline`` or ``omit``).
    positive_label : int or str or None
    beta : float
    n : float
        Number (mass) of items.
    metrics : {system: {metric id: value}}
        Matrix metrics, then ``log_loss``/``brier`` for systems with probabilities. ``omit`` may give
        NaN ("not reported").
    per_class : {system: {label text: {support, predicted, precision, recall, f1, jaccard,
        specificity, npv}}}
    chance : {metric id: {"uniform", "prevalence", "majority"}}
        Each metric's value for a uniform-random, a prevalence-matched random and a majority-class
        predictor on the observed class sizes (for ``log_loss``/``brier``: see
        :func:`advisor.engine._probabilities.probability_chance_levels`).
    undefined : {system: [record, …]}
        Every undefined quantity and how it was resolved (``UndefinedValue.to_dict()``); per-class
        table entries carry ``metric = "per_class"``.
    """

    model_config = ConfigDict(frozen=True)

    labels: list[Union[int, str]]
    systems: list[str]
    convention: str
    positive_label: Union[int, str, None] = None
    beta: float = 1.0
    n: float
    metrics: dict[str, dict[str, _Value]]
    per_class: dict[str, dict[str, dict[str, _Value]]]
    chance: dict[str, dict[str, _Value]]
    undefined: dict[str, list[dict[str, Any]]]

    # -- tables: pandas and notebooks (advisor/engine/_frames.py) --------------------------------
    def records(self) -> list[dict[str, Any]]:
        """One dict per metric, a key per system: ``pandas.DataFrame(ev.records())``."""
        return evaluation_records(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame: a metric per row, a system per column."""
        return evaluation_frame(self)

    def _repr_html_(self) -> str:
        return evaluation_html(self)

    def to_json_dict(self) -> dict[str, Any]:
        """What ``advisor compute --json`` prints for these systems, as plain Python: ``schema_version``,
        ``advisor_version``, ``command`` (``"compute"``), ``systems``, ``labels``, ``n``,
        ``metrics[system][metric id]``, ``per_class[system][label]``, ``chance[metric id]``,
        ``undefined[system]``, ``convention``, ``positive_label``, ``beta`` (the shape of
        ``docs/schema/advisor-output.schema.json``). Non-finite floats are kept as floats; :meth:`to_json`
        writes them as JSON (NaN → null, ∞ → "inf")."""
        return envelope("compute", {
            "systems": list(self.systems),
            "labels": self.labels,
            "n": self.n,
            "metrics": self.metrics,
            "per_class": self.per_class,
            "chance": self.chance,
            "undefined": self.undefined,
            "convention": self.convention,
            "positive_label": self.positive_label,
            "beta": self.beta,
        })

    def to_json(self, indent: int | None = 2) -> str:
        """JSON text as ``advisor compute --json`` prints it (:mod:`advisor._jsonio`): undefined → null,
        ±inf → "inf"/"-inf"."""
        return dumps(self.to_json_dict(), indent=indent)


def _as_matrix(name: str, matrix: Any) -> ConfusionMatrix:
    if isinstance(matrix, ConfusionMatrix):
        return matrix
    try:
        return ConfusionMatrix(matrix)
    except InputError as exc:
        raise InputError(f"system {name!r}: {exc.text}") from None


def evaluate(
    systems: Mapping[str, Any],
    *,
    metrics: Sequence[str] | None = None,
    positive_label: Label | None = None,
    beta: float = 1.0,
    undefined: str = DEFAULT_CONVENTION,
    probabilities: Mapping[str, Mapping[str, float]] | None = None,
    class_weights: Any = None,
    same_items: bool = True,
    f1_classes: Any = None,
    fallback_class: Label | None = None,
    action_classes: Any = None,
) -> Evaluation:
    """Evaluate every system: metrics, per-class table, chance levels and undefined values.

    Parameters
    ----------
    systems : mapping name → ConfusionMatrix (or k×k array)
        All on the same labels and the same items (equal true class sizes).
    metrics : sequence of str, optional
        Metric ids. By default every multi-class metric (plus the binary ones for a two-class task
        with ``positive_label``), plus ``log_loss`` and ``brier`` for systems with probabilities.
        Asking for ``log_loss``/``brier`` explicitly requires probabilities for every system.
    positive_label, beta, undefined, class_weights, f1_classes, fallback_class,
        action_classes
        As in :func:`advisor.compute_metrics`.
    probabilities : mapping name → {"log_loss", "brier"}, optional
        Probability scores (e.g. ``PredictionSet.probabilities``).
    same_items : bool
        False when each matrix holds the items its system answered (a system that abstains, issue 23): the true
        class sizes may then differ; ``n`` and the chance levels are the first system's.

    Examples
    --------
    >>> ev = evaluate({"a": [[5, 1], [2, 3]], "b": [[6, 0], [4, 1]]}, metrics=["accuracy"])
    >>> ev.metrics["b"]["accuracy"], round(ev.chance["accuracy"]["majority"], 4)
    (0.6363636363636364, 0.5455)
    """
    if not systems:
        raise InputError("no systems to evaluate; give at least one prediction file or matrix.")
    mats = {str(name): _as_matrix(str(name), m) for name, m in systems.items()}
    names = list(mats)
    first = mats[names[0]]
    _check_same_items(mats, same_items)
    if positive_label is not None:
        _check_positive_label(first, positive_label)

    probs = {str(k): dict(v) for k, v in (probabilities or {}).items()}
    matrix_ids, prob_ids = _split_metric_ids(metrics, names, probs)

    out_metrics: dict[str, dict[str, _Value]] = {}
    out_per_class: dict[str, dict[str, dict[str, _Value]]] = {}
    out_undefined: dict[str, list[dict[str, Any]]] = {}
    pos_label: Label | None = None
    resolved_ids: list[str] = []
    for name, cm in mats.items():
        res = compute_metrics(cm, matrix_ids, positive_label=positive_label, beta=beta, undefined=undefined,
                              class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
        pos_label = res.positive_label
        resolved_ids = list(res)
        values: dict[str, _Value] = {m: float(v) for m, v in res.items()}
        for m in prob_ids:
            if m in probs.get(name, {}):
                values[m] = float(probs[name][m])
        table = per_class(cm, beta=beta, undefined=undefined)
        out_metrics[name] = values
        out_per_class[name] = {str(lab): {f: float(v) for f, v in row.items()} for lab, row in table.items()}
        out_undefined[name] = [u.to_dict() for u in [*res.undefined, *table.undefined]]

    chance = _chance_table(first, resolved_ids, prob_ids, positive_label, beta, undefined, class_weights, f1_classes,
                           fallback_class, action_classes)
    return Evaluation(
        labels=list(first.labels),
        systems=names,
        convention=undefined,
        positive_label=pos_label,
        beta=float(beta),
        n=first.n,
        metrics=out_metrics,
        per_class=out_per_class,
        chance=chance,
        undefined=out_undefined,
    )


def _check_same_items(mats: Mapping[str, ConfusionMatrix], sizes: bool = True) -> None:
    """Every system must have the first one's labels and (``sizes``) true class sizes (the same items)."""
    names = list(mats)
    first = mats[names[0]]
    for name in names[1:]:
        cm = mats[name]
        if [str(x) for x in cm.labels] != [str(x) for x in first.labels]:
            raise InputError(f"systems {names[0]!r} and {name!r} have different labels "
                             f"({list(first.labels)!r} vs {list(cm.labels)!r}); they must be evaluated on the same classes.")
        if sizes and not _close(cm.true_sizes, first.true_sizes):
            raise InputError(f"systems {names[0]!r} and {name!r} have different true class sizes "
                             f"({_fmt(first.true_sizes)} vs {_fmt(cm.true_sizes)}); they were not evaluated on the same items.")


def _check_positive_label(cm: ConfusionMatrix, positive_label: Label) -> None:
    """The positive label must be one of the labels (compared as written or as text)."""
    if not any(lab == positive_label or str(lab) == str(positive_label) for lab in cm.labels):
        shown = ", ".join(str(x) for x in cm.labels[:20])
        raise InputError(f"positive label {positive_label!r} does not occur; the labels are {shown}.")


def _split_metric_ids(
    metrics: Sequence[str] | None, names: Sequence[str], probs: Mapping[str, Mapping[str, float]]
) -> tuple[list[str] | None, list[str]]:
    """``(matrix metric ids or None for the default, probability metric ids)``.

    By default the probability metrics are those some system has; asked for explicitly, every
    system must have them.
    """
    metrics = metric_list(metrics)  # catalogue names and aliases → ids (advisor/engine/_names.py)
    if metrics is None:
        matrix_ids: list[str] | None = None
        prob_ids = [m for m in PROBABILITY_METRICS if any(m in probs.get(n, {}) for n in names)]
    else:
        matrix_ids = [m for m in metrics if m not in PROBABILITY_METRICS]
        prob_ids = [m for m in metrics if m in PROBABILITY_METRICS]
        for m in prob_ids:
            lacking = [n for n in names if m not in probs.get(n, {})]
            if lacking:
                raise InputError(f"{m} needs predicted probabilities (columns p_<label>, one per class), "
                                 f"but system {lacking[0]!r} has none.")
    return matrix_ids, prob_ids


def _chance_table(
    first: ConfusionMatrix,
    resolved_ids: Sequence[str],
    prob_ids: Sequence[str],
    positive_label: Label | None,
    beta: float,
    undefined: str,
    class_weights: Any = None,
    f1_classes: Any = None,
    fallback_class: Any = None,
    action_classes: Any = None,
) -> dict[str, dict[str, _Value]]:
    """Chance levels of the matrix metrics and the probability metrics, on the true class sizes."""
    chance: dict[str, dict[str, _Value]] = {}
    if resolved_ids:
        levels = chance_levels(first, resolved_ids, positive_label=positive_label, beta=beta, undefined=undefined,
                               class_weights=class_weights, f1_classes=f1_classes, fallback_class=fallback_class,
                              action_classes=action_classes)
        chance.update({m: dict(v) for m, v in levels.items()})
    if prob_ids:
        pchance = probability_chance_levels(first.true_sizes)
        chance.update({m: dict(pchance[m]) for m in prob_ids})
    return chance


def _close(a: Any, b: Any) -> bool:
    import numpy as np

    return bool(np.allclose(a, b, rtol=1e-9, atol=1e-9))


def _fmt(sizes: Any) -> str:
    return "[" + ", ".join(f"{x:g}" for x in sizes) + "]"


def check_metric_ids(metrics: Sequence[str] | None) -> None:
    """Raise :class:`~advisor.UnknownMetricError` for an unknown id, before any file is read."""
    if not metrics:
        return

    # k = 2 with a positive label admits every matrix id, so only unknown ids fail here
    _resolve_ids([m for m in metrics if m not in PROBABILITY_METRICS], 2, True)
