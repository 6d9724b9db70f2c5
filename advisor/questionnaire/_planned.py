"""Resolving the names of planned metrics through the catalogue's aliases."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import AdvisorError
from ..catalogue import Catalogue, get_catalogue, resolve_metric
from ..catalogue import Resolution as CatalogueResolution

__all__ = ["AGREEMENT_RATE_NAMES", "Resolution", "default_resolver", "is_agreement_rate", "resolve_name",
           "resolve_planned"]

#: Planned names of the share of items two raters put in the same category, which the comparison of a judge with
#: human raters reports (issue 22); not a catalogue metric (between a system and a truth it is accuracy).
AGREEMENT_RATE_NAMES = frozenset({"agreement rate", "agreement", "percent agreement", "percentage agreement",
                                  "observed agreement", "raw agreement", "simple agreement"})


def is_agreement_rate(name: str) -> bool:
    """Whether a planned name is the agreement rate of two raters.

    >>> is_agreement_rate("Agreement  rate"), is_agreement_rate("accuracy")
    (True, False)
    """
    return " ".join(str(name).lower().split()) in AGREEMENT_RATE_NAMES


@dataclass
class Resolution:
    """What a free-text metric name refers to."""

    name: str
    ids: list[str] = field(default_factory=list)
    note: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.ids)

    @property
    def ambiguous(self) -> bool:
        return len(self.ids) > 1


def default_resolver() -> Callable[[str, Catalogue | None], CatalogueResolution]:
    return resolve_metric


def _ids_from(obj: Any) -> list[str]:
    """Candidate ids from whatever the catalogue's resolver returns (an id, a record, a result object)."""
    if obj is None:
        return []
    if isinstance(obj, str):
        return [obj]
    for attr in ("candidates", "ids", "metric_ids", "matches"):
        value = getattr(obj, attr, None)
        if value:
            return [x if isinstance(x, str) else getattr(x, "id", str(x)) for x in value]
    for attr in ("id", "metric_id", "metric"):
        value = getattr(obj, attr, None)
        if isinstance(value, str):
            return [value]
        if value is not None and isinstance(getattr(value, "id", None), str):
            return [value.id]
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, dict)):
        return [x if isinstance(x, str) else getattr(x, "id", str(x)) for x in obj]
    return []


def _note_from(obj: Any) -> str | None:
    for attr in ("note", "explanation", "message", "reason"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            return value
    return None


def resolve_name(name: str, resolver: Callable[[str], Any], catalogue: Any) -> Resolution:
    """Resolve ``name``; an ambiguous name yields several ids, an unknown one none."""
    try:
        result = resolver(name)
    except AdvisorError as exc:  # unknown (or ambiguous, if the resolver raises for that)
        ids = [x for x in _ids_from(getattr(exc, "candidates", None)) if x in catalogue.metrics]
        return Resolution(name, ids, str(exc))
    ids = []
    for x in _ids_from(result):
        record = catalogue.metrics.get(x)
        if record is None:
            continue
        x = record.alias_of or x  # macro_recall → balanced_accuracy
        if x not in ids:
            ids.append(x)
    note = _note_from(result)
    if note is None:
        notes = getattr(catalogue, "name_notes", {}) or {}
        key = name.strip().lower()
        note = next((v for k, v in notes.items() if k.strip().lower() == key), None)
    return Resolution(name, ids, note)


def resolve_planned(name: str) -> Resolution:
    """What a planned metric's name refers to in the packaged catalogue (ids; none when unknown)."""
    cat = get_catalogue()
    return resolve_name(name, lambda n: default_resolver()(n, cat), cat)
