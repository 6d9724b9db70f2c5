"""The undefined-value conventions (see :mod:`advisor.engine._metrics`): one definition, importable without numpy."""

from __future__ import annotations

__all__ = ["CONVENTIONS"]

#: ``zero`` (scikit-learn's precision/recall/F1 with ``zero_division=0``), ``baseline`` (Gösgens et al. 2021, App. B), ``omit``.
CONVENTIONS: tuple[str, ...] = ("zero", "baseline", "omit")
