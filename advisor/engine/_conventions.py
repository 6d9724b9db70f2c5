"""The undefined-value conventions (see :mod:`advisor.engine._metrics`): one definition, importable without numpy."""

from __future__ import annotations

__all__ = ["CONVENTIONS", "DEFAULT_CONVENTION"]

#: ``zero`` (scikit-learn's precision/recall/F1 with ``zero_division=0``), ``baseline`` (Gösgens et al. 2021, App. B), ``omit``.
CONVENTIONS: tuple[str, ...] = ("zero", "baseline", "omit")

#: The convention used unless another is asked for: a value with a zero denominator is undefined; a per-class (or
#: per-label) value is left out of a mean over classes, in the test set and in each resample, and a figure that is
#: itself undefined is reported as undefined (scikit-learn's ``zero_division=np.nan``). Readers of every field asked
#: for this over ``zero``, which scores a class absent from a resample as a failure (issue 22).
DEFAULT_CONVENTION: str = "omit"
