"""Argument checks shared by the ordinal, multi-label and agreement metric functions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError
from ._conventions import CONVENTIONS
from ._names import metric_list

__all__ = ["resolve_ids"]


def as_tuple(value: Any, name: str, what: str) -> tuple[Any, ...]:
    """A list argument (``labels``, ``raters``, ``categories``) as a tuple, or one sentence naming it.

    >>> as_tuple(["a", "b"], "labels", "the classes")
    ('a', 'b')
    """
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise InputError(f"{name} must be a list of {what}; got {type(value).__name__}.")
    return tuple(value)


def resolve_ids(metrics: Sequence[str] | str | None, undefined: str, known: Sequence[str], kind: str,
                default: Sequence[str] | None = None) -> list[str]:
    """The metric ids asked for (``default`` or every ``known`` id when None), after checking the convention.

    >>> resolve_ids("mae", "zero", ("mae", "mae_macro"), "ordinal")
    ['mae']
    """
    if undefined not in CONVENTIONS:
        raise InputError(f"undefined must be one of {', '.join(CONVENTIONS)}; got {undefined!r}.")
    ids = list(default if default is not None else known) if metrics is None else (metric_list(metrics, resolve=False) or [])
    bad = [m for m in ids if m not in known]
    if bad:
        raise InputError(f"{bad[0]!r} is not {kind} metric; they are {', '.join(known)}.")
    return ids
