"""Metric names and aliases wherever the engine takes metric ids.

The engine knows metric ids only; the names and aliases ("macro F1", "MCC", "Youden's J") are the
catalogue's, a layer above. The catalogue registers its resolver here when it is imported
(``advisor.catalogue``), and the public package ``advisor`` imports the catalogue on first use, so
``advisor.compute_metrics(cm, metrics=["MCC"])`` works while the engine imports nothing upward. An
id is always taken as it is; without a registered resolver a name is left for the caller's
unknown-id error.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["metric_id", "set_name_resolver"]

_resolver: Callable[[str], str] | None = None


def set_name_resolver(resolver: Callable[[str], str] | None) -> None:
    """Install ``resolver(name) -> id`` (it raises a clear error for an unknown or ambiguous name)."""
    global _resolver
    _resolver = resolver


def metric_id(name: str) -> str:
    """The metric id ``name`` stands for: an id as it is, a name or alias through the catalogue
    (the resolver returns ids unchanged)."""
    if not isinstance(name, str) or _resolver is None:
        return name
    return _resolver(name)
