"""Costs and priors as the user writes them: ``fn=10,fp=1``, a cost-matrix CSV, ``LABEL=SHARE,…``, or mappings.

The same forms in the Python API (``costs=``, ``priors=``) and on the command line (``--costs``,
``--priors``): text is parsed here, mappings and arrays pass through to the engine
(:func:`advisor.engine._costs.cost_matrix`, :func:`~advisor.engine._costs.resolve_priors`), which
checks them against the classes. A negative or non-finite cost is refused at once.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg
from ..engine import cost_value
from ._matrices import read_matrix

__all__ = ["parse_costs", "parse_priors"]


def _pairs(text: str, option: str, example: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in [p for p in text.split(",") if p.strip()]:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise InputError(f"{arg(option)} must look like {example}; got {text!r}.")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            raise InputError(f"{arg(option)} must look like {example}; {key.strip()!r} has {value.strip()!r}, "
                             "not a number.") from None
    if not out:
        raise InputError(f"{arg(option)} must look like {example}; got {text!r}.")
    return out


def _check_costs(costs: Mapping[Any, Any], option: str) -> None:  # keys: fn/fp, or class labels
    for key, v in costs.items():
        if isinstance(v, Mapping):
            _check_costs(v, option)
            continue
        try:
            cost_value(v, str(key))
        except InputError as exc:
            raise InputError(f"{arg(option)}: {exc.text}") from None


def parse_costs(spec: Any, option: str = "costs") -> Any:
    """``"fn=10,fp=1"`` → ``{"fn": 10.0, "fp": 1.0}``; a path → ``{true: {decision: cost}}`` from a labelled CSV
    (true classes as rows, decisions as columns); a mapping or array passes through (checked ≥ 0). The
    messages name the argument ``option``.

    >>> parse_costs("fn=10,fp=1")
    {'fn': 10.0, 'fp': 1.0}
    >>> parse_costs("fn=-1,fp=1")
    Traceback (most recent call last):
    ...
    advisor._exceptions.InputError: costs=: cost fn must be a finite non-negative number; got -1.0.
    """
    if spec is None:
        return None
    if isinstance(spec, (str, os.PathLike)) and "=" not in str(spec):
        if not Path(spec).exists():
            raise InputError(f"{arg(option)} must be fn=COST,fp=COST or a cost-matrix CSV file; {str(spec)!r} is neither.")
        m = read_matrix(Path(spec), costs=True)
        out = {t: {d: float(m.counts[i, j]) for j, d in enumerate(m.labels)} for i, t in enumerate(m.labels)}
        _check_costs(out, option)
        return out
    if isinstance(spec, str):
        costs = _pairs(spec, option, "fn=10,fp=1 (or a cost-matrix CSV file)")
        unknown = sorted(set(costs) - {"fn", "fp"})
        if unknown:
            raise InputError(f"{arg(option)} takes fn and fp (or a cost-matrix CSV file); got {', '.join(unknown)}.")
        _check_costs(costs, option)
        _both(costs, option)
        return costs
    if isinstance(spec, Mapping):
        _check_costs(spec, option)
        if spec and set(map(str, spec)) <= {"fn", "fp"}:
            _both(spec, option)
    return spec


def _both(costs: Mapping[Any, Any], option: str) -> None:
    """fn without fp (or the reverse) is refused: the other error would silently cost 0."""
    missing = [key for key in ("fn", "fp") if key not in set(map(str, costs))]
    if missing:
        given = ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v!r}" for k, v in costs.items())
        raise InputError(f"{arg(option)} needs both fn (the cost of a missed positive) and fp (the cost of a false "
                         f"alarm); got {given}, so {missing[0]} is missing — give e.g. fn=10,fp=1.")


def parse_priors(spec: Any, option: str = "priors") -> Any:
    """``"pos=0.02,neg=0.98"`` → ``{"pos": 0.02, "neg": 0.98}`` (checked against the classes later); a mapping
    or sequence passes through.

    >>> parse_priors("pos=0.02,neg=0.98")
    {'pos': 0.02, 'neg': 0.98}
    """
    if isinstance(spec, str):
        return _pairs(spec, option, "LABEL=SHARE,LABEL=SHARE (shares summing to 1)")
    return spec
