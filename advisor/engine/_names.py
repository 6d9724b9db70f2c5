"""Metric names and aliases wherever the engine takes metric ids.

The engine knows metric ids only; the names and aliases ("macro F1", "MCC", "Youden's J") are the
catalogue's, a layer above. The catalogue registers its resolver here when it is imported
(``advisor.catalogue``), and the public package ``advisor`` imports the catalogue on first use, so
``advisor.compute_metrics(cm, metrics=["MCC"])`` works while the engine imports nothing upward. An
id is always taken as it is; without a registered resolver a name is left for the caller's
unknown-id error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._exceptions import InputError, UnknownMetricError

__all__ = ["metric_id", "metric_list", "set_name_resolver"]

_resolver: Callable[[str], str] | None = None


def set_name_resolver(resolver: Callable[[str], str] | None) -> None:
    """Install ``resolver(name) -> id`` (it raises a clear error for an unknown or ambiguous name)."""
    global _resolver
    _resolver = resolver


def metric_list(metrics: Any, resolve: bool = True) -> list[str] | None:
    """``metrics`` — None, one metric or a list of ids, names or aliases — as a list of ids (None stays None;
    ``resolve=False`` leaves names as given); anything else is one sentence naming the argument."""
    if metrics is None:
        return None
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(metrics, (Mapping, bytes)) or not hasattr(metrics, "__iter__"):
        raise InputError(f"metrics must be a metric id or a list of metric ids, names or aliases (e.g. ['accuracy', "
                         f"'mcc']); got {type(metrics).__name__}.")
    items = list(metrics)
    bad = [m for m in items if not isinstance(m, str)]
    if bad:
        raise InputError(f"metrics must name metrics by their ids, names or aliases (text); it holds a "
                         f"{type(bad[0]).__name__} ({bad[0]!r:.40}).")
    return [metric_id(m) for m in items] if resolve else items


def metric_id(name: str) -> str:
    """The metric id ``name`` stands for: an id as it is, a name or alias through the catalogue
    (the resolver returns ids unchanged)."""
    if not isinstance(name, str) or _resolver is None:
        return name
    try:
        return _resolver(name)
    except UnknownMetricError:  # not a catalogue name ("recall@K" is recall_at_k): the figure of one named class
        base, sep, label = name.partition("@")  # (f1@deny) stays as it is, its class checked against the labels
        if sep and label and base in ("recall", "precision", "f1"):
            return name
        raise
