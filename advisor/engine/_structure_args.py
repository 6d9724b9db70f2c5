"""Argument checks shared by the ordinal, multi-label and agreement metric functions."""

from __future__ import annotations

from collections.abc import Sequence

from .._exceptions import InputError
from ._conventions import CONVENTIONS

__all__ = ["resolve_ids"]


def resolve_ids(metrics: Sequence[str] | str | None, undefined: str, known: Sequence[str], kind: str,
                default: Sequence[str] | None = None) -> list[str]:
    """The metric ids asked for (``default`` or every ``known`` id when None), after checking the convention.

    >>> resolve_ids("mae", "zero", ("mae", "mae_macro"), "ordinal")
    ['mae']
    """
    if undefined not in CONVENTIONS:
        raise InputError(f"undefined must be one of {', '.join(CONVENTIONS)}; got {undefined!r}.")
    ids = list(default if default is not None else known) if metrics is None else (
        [metrics] if isinstance(metrics, str) else list(metrics))
    bad = [m for m in ids if m not in known]
    if bad:
        raise InputError(f"{bad[0]!r} is not {kind} metric; they are {', '.join(known)}.")
    return ids
