"""Strict JSON for everything advisor prints or saves: one encoding and one shape for the library and the CLI.

Encoding: NaN (an undefined value) becomes ``null``; ±infinity (e.g. LR+ of a classifier without false
positives) becomes the string ``"inf"`` / ``"-inf"``; numpy scalars and arrays become Python values.
The output never contains the non-standard literals ``NaN`` or ``Infinity``.

Shape (``docs/schema/advisor-output.schema.json``): every command's JSON starts with ``schema_version``,
``advisor_version`` and ``command``, lists its ``systems`` and nests every metric system first —
``metrics[system][metric id]`` the value, ``intervals[system][metric id]`` the interval — whichever
command wrote it (:func:`envelope`); blocks about pairs or winners are keyed by metric id.

Reading: :func:`read_small_text` reads a small file the user names (answers, a report context) with one sentence
for every way it can be unfit, before YAML or JSON parses it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import __version__
from ._exceptions import InputError

__all__ = ["COMMANDS", "SCHEMA_VERSION", "dumps", "envelope", "jsonable", "read_small_text", "subgroups_from_json",
           "subgroups_json"]

#: The version of the JSON shape; 2: one system-first shape for compute, compare and report (issue 24).
SCHEMA_VERSION = 2
#: The commands whose JSON has this shape (``command``).
COMMANDS = ("compute", "compare", "report")
#: The keys every output starts with, in this order (those present).
_HEAD = ("schema_version", "advisor_version", "command", "structure", "systems", "labels", "n", "metrics",
         "intervals")


def jsonable(obj: Any) -> Any:
    """A JSON-safe copy of ``obj``.

    >>> jsonable({"a": float("nan"), "b": [float("inf"), 1]})
    {'a': None, 'b': ['inf', 1]}
    """
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if hasattr(obj, "tolist") and not isinstance(obj, (str, bytes)):
        return jsonable(obj.tolist())
    if isinstance(obj, float):
        if math.isnan(obj):
            return None
        if math.isinf(obj):
            return "inf" if obj > 0 else "-inf"
    return obj


def dumps(obj: Any, indent: int | None = 2) -> str:
    """Strict JSON text of ``obj`` (see :func:`jsonable`)."""
    return json.dumps(jsonable(obj), indent=indent, ensure_ascii=False, allow_nan=False)


def envelope(command: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as a command's output: ``schema_version``, ``advisor_version`` and ``command`` first, then
    the systems, labels, size, metrics and intervals, then the rest in their order. Applying it again
    changes nothing.

    >>> list(envelope("compute", {"n": 4, "metrics": {"a": {"accuracy": 0.75}}, "systems": ["a"]}))
    ['schema_version', 'advisor_version', 'command', 'systems', 'n', 'metrics']
    """
    if command not in COMMANDS:
        raise ValueError(f"command must be one of {', '.join(COMMANDS)}; got {command!r}")
    full = {**data, "schema_version": SCHEMA_VERSION, "advisor_version": __version__, "command": command}
    return {**{k: full[k] for k in _HEAD if k in full}, **{k: v for k, v in full.items() if k not in _HEAD}}


_INTERVAL_KEYS = ("low", "high", "method")


def subgroups_json(res: Mapping[str, Any]) -> dict[str, Any]:
    """The result of :func:`advisor.stats.subgroups` in the output shape: ``groups[column][value]`` =
    ``{"n", "metrics": {system: {id: value}}, "intervals": {system: {id: interval}}, "reasons": {system:
    {id: why undefined}}}`` and ``gaps[column][system][metric]``, beside ``subgroups`` (the columns, the
    positive label, the size thresholds and the warnings), and ``bias_aucs[column][value][system][id]`` when
    computed (the bias AUCs of Borkan et al. 2019), ``subgroup_smd[column][value][system]`` for an ordinal task
    (the standardized mean difference, Williamson et al. 2012), ``adverse_impact[column][system]`` (the four-fifths
    rule) and ``bias_score[system]`` (the Jigsaw competition's score) when computed. :func:`subgroups_from_json`
    reverses it.

    >>> res = {"groups": {"site": {"n": {"a": {"n": 3, "accuracy": {"estimate": 0.5, "low": 0.1, "high": 0.9,
    ...        "method": "clopper_pearson"}}}}}, "gaps": {"site": {"accuracy": {"a": {"gap": None}}}},
    ...        "warnings": [], "thresholds": {}, "positive_label": None}
    >>> out = subgroups_json(res)
    >>> out["groups"]["site"]["n"]["metrics"], out["gaps"]["site"]
    ({'a': {'accuracy': 0.5}}, {'a': {'accuracy': {'gap': None}}})
    >>> subgroups_from_json(out) == res
    True
    """
    groups: dict[str, Any] = {}
    for col, per_value in res["groups"].items():
        groups[col] = {}
        for value, per_system in per_value.items():
            sizes = {s: e.get("n") for s, e in per_system.items()}
            block: dict[str, Any] = {"n": next(iter(sizes.values()), None), "metrics": {}, "intervals": {}, "reasons": {}}
            if len(set(map(str, sizes.values()))) > 1:  # the same items for every system: one size, else each's
                block["n"] = sizes
            for s, entry in per_system.items():
                block["metrics"][s] = {m: e.get("estimate") for m, e in entry.items() if m != "n"}
                ivs = {m: {"estimate": e.get("estimate"), **{k: e[k] for k in (*_INTERVAL_KEYS, "reason") if k in e}}
                       for m, e in entry.items() if m != "n" and "low" in e}
                why = {m: e["reason"] for m, e in entry.items() if m != "n" and "low" not in e and "reason" in e}
                if ivs:
                    block["intervals"][s] = ivs
                if why:
                    block["reasons"][s] = why
            groups[col][value] = {k: v for k, v in block.items() if v or k in ("n", "metrics")}
    gaps = {col: _swap(per_metric) for col, per_metric in res["gaps"].items()}
    out = {"groups": groups, "gaps": gaps,
           "subgroups": {"columns": list(res["groups"]), "positive_label": res.get("positive_label"),
                         "thresholds": res.get("thresholds", {}), "warnings": res.get("warnings", [])}}
    if res.get("bias_aucs"):  # Borkan et al. (2019): bias_aucs[column][value][system][id], as computed
        out["bias_aucs"] = res["bias_aucs"]
    if res.get("smd"):  # Williamson et al. (2012): subgroup_smd[column][value][system], an ordinal task's
        out["subgroup_smd"] = res["smd"]
    for key in ("adverse_impact", "bias_score"):  # adverse_impact[column][system]; bias_score[system], as computed
        if res.get(key):
            out[key] = res[key]
    return out


def subgroups_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The inverse of :func:`subgroups_json`: the result of :func:`advisor.stats.subgroups` again."""
    groups: dict[str, Any] = {}
    for col, per_value in data["groups"].items():
        groups[col] = {}
        for value, block in per_value.items():
            n = block.get("n")
            groups[col][value] = {}
            for s, vals in block["metrics"].items():
                entry: dict[str, Any] = {"n": n[s] if isinstance(n, dict) else n}
                ivs, why = block.get("intervals", {}).get(s, {}), block.get("reasons", {}).get(s, {})
                for m, v in vals.items():
                    entry[m] = {"estimate": v, **{k: x for k, x in ivs.get(m, {}).items() if k != "estimate"},
                                **({"reason": why[m]} if m in why else {})}
                groups[col][value][s] = entry
    sub = data.get("subgroups", {})
    out = {"groups": groups, "gaps": {col: _swap(per_system) for col, per_system in data["gaps"].items()},
           "warnings": sub.get("warnings", []), "thresholds": sub.get("thresholds", {}),
           "positive_label": sub.get("positive_label")}
    if data.get("bias_aucs"):
        out["bias_aucs"] = data["bias_aucs"]
    if data.get("subgroup_smd"):
        out["smd"] = data["subgroup_smd"]
    for key in ("adverse_impact", "bias_score"):
        if data.get(key):
            out[key] = data[key]
    return out


def _swap(nested: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{a: {b: x}}`` → ``{b: {a: x}}``, first-seen order kept."""
    out: dict[str, dict[str, Any]] = {}
    for a, inner in nested.items():
        for b, x in inner.items():
            out.setdefault(b, {})[a] = x
    return out


def read_small_text(path: Path, limit: int, source: str, advice: str, too_big: str) -> str:
    """The text of ``path`` (UTF-8, a BOM dropped), read at most ``limit`` + 1 bytes; else :class:`InputError`
    "``source`` …; ``advice``." (``too_big`` follows "is larger than N bytes, ").

    >>> read_small_text(Path("no-such-file.yaml"), 10, "answers file 'no-such-file.yaml'", "give the answers file",
    ...                 "the limit")
    Traceback (most recent call last):
    advisor._exceptions.InputError: answers file 'no-such-file.yaml' not found; give the answers file.
    """
    if path.exists() and not path.is_file():  # a folder, FIFO or device: refused before it can block
        raise InputError(f"{source} is not a regular file; {advice}.")
    try:
        with path.open("rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise InputError(f"{source} not found; {advice}.") from None
    except OSError as exc:
        raise InputError(f"{source} cannot be read ({exc.strerror or type(exc).__name__}); {advice}.") from None
    if len(raw) > limit:
        raise InputError(f"{source} is larger than {limit:,} bytes, {too_big}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{source} is not UTF-8 text (is it a binary file?); {advice}.") from None
