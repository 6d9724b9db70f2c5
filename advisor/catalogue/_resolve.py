"""Forgiving metric-name lookup: ids, names and aliases, with notes for misleading names.

Names are compared after normalisation: Unicode compatibility folding, accents stripped, lower case,
a possessive "'s" kept as "s", any other apostrophe or prime read as "prime" (macF1' is not macF1),
"+" read as "plus" and a trailing minus as "minus" (LR+ and LR− differ), everything else that is not
a letter or digit dropped — so "Macro-F1", "macro_f1" and "MACRO F1" are the same name.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from .._exceptions import InputError, UnknownMetricError
from ._load import get_catalogue
from ._models import Catalogue, MetricRecord

__all__ = ["Resolution", "normalise_name", "resolve_metric"]

_TRAILING = ("score", "metric", "measure", "coefficient", "index", "statistic")


def normalise_name(name: str) -> str:
    """The comparison key of a metric name.

    >>> normalise_name("Macro-F1"), normalise_name("Cohen's κ"), normalise_name("LR−"), normalise_name("macF1'")
    ('macrof1', 'cohensκ', 'lrminus', 'macf1prime')
    """
    s = unicodedata.normalize("NFKD", name)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower().strip()
    s = s.replace("ø", "o").replace("’", "'").replace("′", "'")
    s = re.sub(r"'s\b", "s", s)
    s = s.replace("'", "prime").replace("+", "plus")
    s = re.sub(r"[-−–]\s*$", "minus", s)
    return "".join(ch for ch in s if ch.isalnum())


@dataclass(frozen=True)
class Resolution:
    """What a metric name refers to.

    Attributes
    ----------
    query : str
        The name as given.
    candidates : tuple of MetricRecord
        The canonical records the name can mean (aliases such as ``micro_f1`` resolve to their
        target). More than one means the name is ambiguous.
    note : str or None
        An explanation when the name is ambiguous or misleading (e.g. "micro F1" is accuracy).
    """

    query: str
    candidates: tuple[MetricRecord, ...]
    note: str | None = None

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.candidates]

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1

    @property
    def record(self) -> MetricRecord:
        """The single record the name means (the first candidate when it is ambiguous)."""
        return self.candidates[0]


@dataclass(frozen=True)
class _Index:
    keys: dict[str, tuple[str, ...]]  # normalised name -> canonical ids (catalogue order)
    via_alias: dict[str, str]  # normalised name -> id of the alias record it came from
    notes: dict[str, str]
    display: dict[str, str]  # normalised name -> a display form


_CACHE: dict[int, tuple[Catalogue, _Index]] = {}


def _index(cat: Catalogue) -> _Index:
    hit = _CACHE.get(id(cat))
    if hit is not None and hit[0] is cat:
        return hit[1]
    idx = _build_index(cat)
    if len(_CACHE) > 8:
        _CACHE.clear()
    _CACHE[id(cat)] = (cat, idx)
    return idx


def _build_index(cat: Catalogue) -> _Index:
    order = {mid: i for i, mid in enumerate(cat.metrics)}
    keys: dict[str, set[str]] = {}
    via_alias: dict[str, str] = {}
    display: dict[str, str] = {}
    for mid, rec in cat.metrics.items():
        target = rec.alias_of or mid
        for name in (mid, rec.name, *rec.aliases):
            key = normalise_name(name)
            if not key:
                continue
            keys.setdefault(key, set()).add(target)
            display.setdefault(key, name)
            if rec.alias_of:
                via_alias[key] = mid
    notes = {normalise_name(k): v for k, v in cat.name_notes.items()}
    frozen = {k: tuple(sorted(v, key=order.__getitem__)) for k, v in keys.items()}
    return _Index(frozen, via_alias, notes, display)


def resolve_metric(name: str, catalogue: Catalogue | None = None) -> Resolution:
    """Find the metric(s) a name refers to.

    Parameters
    ----------
    name : str
        An id, a name or a common alias, spelled loosely ("Macro-F1", "MCC", "kappa", "BAC").
    catalogue : Catalogue, optional
        Defaults to :func:`advisor.catalogue.get_catalogue`.

    Returns
    -------
    Resolution
        Candidates (several when the name is ambiguous, e.g. "macro F1") and an explanatory note.

    Raises
    ------
    UnknownMetricError
        No metric goes by that name; the message suggests close names.

    Examples
    --------
    >>> resolve_metric("Macro-F1").ids
    ['macro_f1', 'f1_of_averages']
    >>> r = resolve_metric("micro F1")
    >>> r.ids, r.note.startswith("For single-label classification")
    (['accuracy'], True)
    >>> resolve_metric("kappa").ids, resolve_metric("MCC").ids
    (['cohen_kappa'], ['mcc'])
    """
    if not isinstance(name, str):
        raise InputError(f"a metric name must be a string; got {type(name).__name__}.")

    cat = catalogue or get_catalogue()
    idx = _index(cat)
    literal = name.strip().lower()
    if literal in cat.metrics:  # an id is never ambiguous ("macro_f1" is the mean of per-class F1)
        rec = cat.metrics[literal]
        if rec.alias_of:
            return Resolution(name, (cat.metrics[rec.alias_of],), idx.notes.get(normalise_name(name))
                              or rec.interpretation)
        key = normalise_name(name)
        single = len(idx.keys.get(key, ())) == 1
        return Resolution(name, (rec,), idx.notes.get(key) if single else None)
    key = normalise_name(name)
    ids = idx.keys.get(key)
    if ids is None:
        for word in _TRAILING:
            if key.endswith(word) and key[: -len(word)] in idx.keys:
                key = key[: -len(word)]
                ids = idx.keys[key]
                break
    if not ids:
        raise UnknownMetricError(_unknown(name, key, idx))
    note = idx.notes.get(key)
    if note is None and key in idx.via_alias and len(ids) == 1:
        alias = cat.metrics[idx.via_alias[key]]
        note = alias.interpretation
    return Resolution(name, tuple(cat.metrics[i] for i in ids), note)


def _unknown(name: str, key: str, idx: _Index) -> str:
    cutoff = 0.6 if len(key) > 4 else 0.75
    close = difflib.get_close_matches(key, idx.keys, n=4, cutoff=cutoff) if key else []
    shown = []
    for k in close:
        label = idx.display[k]
        if label not in shown:
            shown.append(label)
    hint = f" (close names: {', '.join(repr(s) for s in shown)})" if shown else ""
    return f"unknown metric name {name!r}{hint}; `advisor metrics` lists every metric and its aliases."
