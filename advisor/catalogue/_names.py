"""Catalogue names and aliases → metric ids, for every function that takes metric ids.

>>> metric_id_for("MCC"), metric_id_for("Youden's J"), metric_id_for("macro_f1")
('mcc', 'adjusted_balanced_accuracy', 'macro_f1')
>>> metric_id_for("macro F1")
Traceback (most recent call last):
...
advisor._exceptions.InputError: metric name 'macro F1' is ambiguous: it can mean macro_f1 (Macro F1 (mean of per-class F1)) or f1_of_averages (F1 of macro precision and macro recall); give the id of the one you mean (advisor explain 'macro F1' shows both).
"""

from __future__ import annotations

from collections.abc import Sequence

from .._exceptions import InputError
from ..engine import METRICS
from ._resolve import resolve_metric

__all__ = ["metric_id_for", "metric_ids_for"]


def metric_id_for(name: str) -> str:
    """The id of the one metric ``name`` (an id, name or alias) stands for.

    Raises ``UnknownMetricError`` for an unknown name (with close names) and ``InputError`` naming
    every meaning of an ambiguous one.
    """
    if name in METRICS:  # engine ids as they are (micro_f1 stays micro_f1)
        return name
    res = resolve_metric(name)
    if res.ambiguous:
        meanings = " or ".join(f"{r.id} ({r.name})" for r in res.candidates)
        raise InputError(f"metric name {name!r} is ambiguous: it can mean {meanings}; give the id of the one you "
                         f"mean (advisor explain {name!r} shows both).")
    return res.candidates[0].id


def metric_ids_for(names: Sequence[str] | None) -> list[str] | None:
    """:func:`metric_id_for` of each name (a single string is a list of one; None stays None)."""
    if names is None:
        return None
    if isinstance(names, str):
        names = [names]
    return [metric_id_for(n) for n in names]
