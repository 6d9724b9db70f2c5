"""The report context as JSON in the shape every command writes, and back (issue 24, acceptance 6).

:class:`~advisor.report._models.ReportContext` keeps each system's values, intervals and tables in
``systems[i]``, as the templates read them. Its JSON (``advisor report -o FILE.json``,
``render_report(ctx, "json")``) is projected to the shape of ``advisor compute --json`` and ``advisor compare
--json`` (``docs/schema/advisor-output.schema.json``):

* ``schema_version``, ``advisor_version``, ``command`` (``"report"``), ``systems`` (the names);
* per system: ``metrics[system][metric id]`` (the values), ``intervals[system][metric id]``,
  ``p_first[system][metric id]``, ``rank_intervals[system][metric id]``, ``per_class[system]``,
  ``confusion[system]``, ``top_confusions[system]``, ``undefined[system]``, ``log_loss_zero[system]``;
* per metric: ``winners[metric id]``, ``chance[metric id]``; the metrics' definitions in
  ``metric_definitions``, the interval settings in ``bootstrap``; the subgroups as ``groups``, ``gaps`` and
  ``subgroups`` (:func:`advisor._jsonio.subgroups_json`); ``structure`` the kind of labels (``"ordinal"``, …, as
  ``compute`` names it) and ``structure_data`` what its figure needs;
* everything else (``primary``, ``task``, ``plan``, ``methods``, ``figures``, ``scores``, …) as in the model.

:func:`context_from_json` reads it back (``advisor report --context FILE.json`` re-renders without
recomputing), and reads the version-1 JSON (the model dumped as it is) too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .._exceptions import InputError
from .._jsonio import SCHEMA_VERSION, envelope, subgroups_from_json, subgroups_json
from ._models import ReportContext

__all__ = ["context_from_json", "context_json", "json_path"]

#: SystemReport field → the key of the output that holds it per system.
_PER_SYSTEM = {"values": "metrics", "intervals": "intervals", "p_first": "p_first", "rank_interval": "rank_intervals",
               "per_class": "per_class", "confusion": "confusion", "top_confusions": "top_confusions",
               "undefined": "undefined", "log_loss_zero": "log_loss_zero", "runs": "runs"}
#: ReportContext field → its key in the output, where they differ.
_RENAMED = {"metrics": "metric_definitions", "intervals": "bootstrap"}
_CHANCE = ("uniform", "prevalence", "majority")
#: the best constant prediction of an ordinal metric, written only where computed
_CONSTANT = ("constant", "constant_class")


def context_json(ctx: ReportContext) -> dict[str, Any]:
    """The JSON of ``ctx`` (plain Python; infinities stay floats, :func:`advisor._jsonio.dumps` writes them)."""
    d = ctx.model_dump()
    systems = d.pop("systems")
    out: dict[str, Any] = {"systems": [s["name"] for s in systems]}
    for field, key in _PER_SYSTEM.items():
        out[key] = {s["name"]: s[field] for s in systems}
    out["intervals"] = {name: {m: {k: v for k, v in iv.items() if k != "reason" or v is not None}
                               for m, iv in ivs.items()} for name, ivs in out["intervals"].items()}
    out["winners"] = d.pop("winners")
    out["chance"] = {row["metric"]: {**{k: row[k] for k in _CHANCE},
                                     **{k: row[k] for k in _CONSTANT if row.get(k) is not None}}
                     for row in d.pop("chance")}
    for field, key in _RENAMED.items():
        out[key] = d.pop(field)
    sub = d.pop("subgroups")
    structure = d.pop("structure")
    if structure is not None:
        out["structure"] = structure.pop("kind")
        out["structure_data"] = structure
    d.pop("schema_version")
    out.update(d)
    if sub is not None:
        out.update(subgroups_json(sub))
    return envelope("report", out)


class _Shape(Exception):
    """Where the JSON does not have the shape of a report context, and what was expected."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")


def _mapping(data: Mapping[str, Any], key: str, where: str = "") -> dict[str, Any]:
    value = data.get(key, {})
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise _Shape(f"{where}{key}", "expected an object")
    return value


def context_from_json(data: Any) -> ReportContext:
    """The :class:`ReportContext` of the JSON :func:`context_json` wrote (parsed with :func:`json.loads`), or of
    a version-1 context or a dump of the model (``ctx.model_dump()``: ``metrics`` a list of definitions). Raises :class:`~advisor.InputError` naming the key whose shape is wrong, and pydantic's
    ``ValidationError`` for wrong values (:func:`json_path` names them as the JSON does)."""
    if not isinstance(data, dict):
        raise InputError("the top level is not a JSON object")
    if data.get("schema_version") == 1 or isinstance(data.get("metrics"), list):  # the model itself (version 1,
        return ReportContext.model_validate({**data, "schema_version": SCHEMA_VERSION})  # or ctx.model_dump())
    try:
        return ReportContext.model_validate(_model_dict(data))
    except _Shape as exc:
        raise InputError(f"at {exc}") from None


def _model_dict(data: dict[str, Any]) -> dict[str, Any]:
    names = data.get("systems", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _Shape("systems", "expected a list of system names")
    per = {key: _mapping(data, key) for key in _PER_SYSTEM.values()}
    systems = []
    for name in names:
        s: dict[str, Any] = {"name": name}
        for field, key in _PER_SYSTEM.items():
            if name in per[key]:
                s[field] = per[key][name]
        systems.append(s)
    chance = []
    for metric, row in _mapping(data, "chance").items():
        if not isinstance(row, dict):
            raise _Shape(f"chance.{metric}", "expected an object")
        chance.append({"metric": metric, **{k: row.get(k) for k in (*_CHANCE, *_CONSTANT)}})
    skip = {"command", "advisor_version", *_PER_SYSTEM.values(), "systems", "chance", "groups", "gaps", "subgroups",
            "bias_aucs", "subgroup_smd", "adverse_impact", "bias_score", "structure_data", *_RENAMED.values()}
    out: dict[str, Any] = {k: v for k, v in data.items() if k not in skip}
    out.update(schema_version=SCHEMA_VERSION, advisor_version=data.get("advisor_version"), systems=systems,
               chance=chance, winners=data.get("winners", {}))
    for field, key in _RENAMED.items():
        if key in data:
            out[field] = data[key]
    if isinstance(data.get("structure"), str):  # the kind, as compute names it, and its figure's data beside it
        out["structure"] = {**_mapping(data, "structure_data"), "kind": data["structure"]}
    if "groups" in data or "gaps" in data:
        try:
            out["subgroups"] = subgroups_from_json(data)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            raise _Shape("groups", f"not the subgroups of a report ({type(exc).__name__})") from None
    return out


def json_path(where: str, ctx_or_names: Any = None) -> str:
    """A field of the model (``systems[0].confusion[1]``, ``intervals``, ``metrics[2].formula``) named as the
    JSON names it (``confusion.a[1]``, ``bootstrap``, ``metric_definitions[2].formula``).

    >>> json_path("systems[1].values", ["a", "b"]), json_path("intervals"), json_path("metrics[0].formula")
    ('metrics.b', 'bootstrap', 'metric_definitions[0].formula')
    """
    names = [s.name for s in ctx_or_names.systems] if isinstance(ctx_or_names, ReportContext) else list(ctx_or_names or [])
    m = re.match(r"systems[.\[](\d+)\]?\.(\w+)(.*)$", where, re.S)
    if m and m.group(2) in _PER_SYSTEM:
        i = int(m.group(1))
        name = names[i] if i < len(names) else str(i)
        return f"{_PER_SYSTEM[m.group(2)]}.{name}{m.group(3)}"
    head = re.match(r"(\w+)(.*)$", where, re.S)
    if head and head.group(1) in _RENAMED:
        return _RENAMED[head.group(1)] + head.group(2)
    if where.startswith("structure."):
        return "structure_data" + where[len("structure"):]
    if where.startswith(("subgroups.groups", "subgroups.gaps")):
        return where[len("subgroups."):]
    return where
