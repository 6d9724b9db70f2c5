"""What advisor does not evaluate, and what to use instead (issue 23, item 5).

``scope.yaml`` holds two tables: kinds of task whose outputs are not one class per item (span
extraction, ranked retrieval, object detection, segmentation, regression, generated text — chosen
with the answers key ``label_structure``), and metric names of those tasks a plan may name
(``planned_metrics``: nDCG, MAP, mAP, Dice, BLEU, RMSE, Spearman, …), each with what it belongs to,
the tool to use and why a confusion matrix of item labels cannot score it. The plan carries them as
``out_of_scope`` notes; the screen and the methods say them first, as "advisor does not evaluate
this; use …, because …".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from ._planned import resolve_planned

__all__ = ["OutOfScope", "external_metrics", "out_of_scope_task", "scope_notes", "scope_sentence", "scope_sentences",
           "scope_tasks"]


@dataclass(frozen=True)
class OutOfScope:
    """A task (or one planned metric of it) advisor does not evaluate: what it is, what to use, why."""

    what: str
    use: str
    because: str
    task: str
    name: str | None = None  # the planned metric's name, as the user wrote it


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    data = yaml.safe_load(resources.files("advisor.questionnaire").joinpath("scope.yaml").read_text("utf-8"))
    for key, t in data["tasks"].items():
        missing = [f for f in ("what", "use", "because") if not t.get(f)]
        if missing:  # pragma: no cover - the packaged table is complete (tests/test_scope.py)
            raise ValueError(f"scope.yaml: task {key} has no {', '.join(missing)}")
    for m in data["metrics"]:
        if m.get("task") not in data["tasks"] and not all(m.get(f) for f in ("what", "use", "because")):
            raise ValueError(f"scope.yaml: {m['names'][0]} names no task of the table and says no what/use/because")
    return data


def scope_tasks() -> dict[str, dict[str, Any]]:
    """The kinds of task of the table, by their ``label_structure`` value."""
    return dict(_table()["tasks"])


def _key(name: str) -> str:
    """A name as it is matched: lower case, without spaces, hyphens, underscores, apostrophes and an @k suffix.

    >>> _key("nDCG@10"), _key("Spearman's rho"), _key("ROUGE-L")
    ('ndcg', 'spearmansrho', 'rougel')
    """
    s = re.sub(r"@\s*(?:k|\d+)\s*$", "", name.strip(), flags=re.IGNORECASE)
    return re.sub(r"[\s\-_'’–]+", "", s).lower()


def out_of_scope_task(task: str, name: str | None = None) -> OutOfScope | None:
    """The note of a kind of task advisor does not evaluate (``label_structure``); None for the kinds it does."""
    t = _table()["tasks"].get(task)
    if t is None:
        return None
    return OutOfScope(what=t["what"], use=t["use"], because=" ".join(str(t["because"]).split()), task=task, name=name)


def external_metrics(name: str, label_structure: str | None = None) -> list[OutOfScope]:
    """The tasks a metric name belongs to among those advisor does not evaluate (two for an ambiguous name such as
    "mean average precision"); empty when the table does not know it.

    >>> [m.task for m in external_metrics("nDCG@10")], [m.task for m in external_metrics("mAP")]
    (['ranking'], ['detection'])
    >>> [m.task for m in external_metrics("MAP")], external_metrics("accuracy")
    (['ranking'], [])
    """
    out: list[OutOfScope] = []
    key, raw = _key(name), name.strip()
    exact = [m for m in _table()["metrics"] if raw in (m.get("exact") or [])]
    for m in exact or [m for m in _table()["metrics"] if key in {_key(n) for n in m["names"]}]:
        note: OutOfScope | None
        if m.get("partition") and label_structure == "partition":  # the task is evaluated; this index is not
            note = OutOfScope(what=m["what"], use=m["use"], because=" ".join(str(m["partition"]).split()),
                              task="partition_variant", name=raw)
        elif m.get("what"):
            note = OutOfScope(what=m["what"], use=m["use"], because=" ".join(str(m["because"]).split()),
                              task=m.get("task") or "other", name=raw)
        else:
            note = out_of_scope_task(m["task"], raw)
        if note is not None and note not in out:
            out.append(note)
    return out


def scope_sentence(note: OutOfScope, names: Any = ()) -> str:
    """The note in one sentence: "advisor does not evaluate this; use …, because …"; ``names``: the planned metrics
    of that task, named after it.

    >>> scope_sentence(external_metrics("BLEU")[0])[:57]
    "'BLEU' belongs to generated text: advisor does not evalua"
    >>> scope_sentence(out_of_scope_task("regression"), ["RMSE", "R²"])[:60]
    "Regression (a number per item; you planned 'RMSE', 'R²'): ad"
    """
    if note.task == "partition_variant" and note.name:  # "'V-measure' is not reported: it is not corrected …"
        return f"The planned “{note.name}” is not reported: it {note.because}."
    what = note.what
    if names:
        planned = ", ".join(repr(str(n)) for n in names)
        what = what[:-1] + f"; you planned {planned})" if what.endswith(")") else f"{what} (you planned {planned})"
    head = f"{note.name!r} belongs to {what}: " if note.name else f"{what[:1].upper()}{what[1:]}: "
    one = f"{head}advisor does not evaluate this; use {note.use}, because {note.because}."
    if len(one.split()) <= 32:  # a methods sentence stays under 40 words, @ and / counting as breaks
        return one
    return f"{head}advisor does not evaluate this; use {note.use}. That is because {note.because}."  # two sentences


def scope_notes(label_structure: str | None, planned: Any = ()) -> list[OutOfScope]:
    """What these answers ask for that advisor does not evaluate: the task itself (``label_structure``), then every
    planned metric the catalogue does not know but the table does (a name the catalogue knows is evaluated or
    advised on there).

    >>> [(n.task, n.name) for n in scope_notes("nominal", ["nDCG@10", "accuracy", "foo"])]
    [('ranking', 'nDCG@10')]
    """
    notes = []
    task = out_of_scope_task(label_structure or "nominal")
    if task is not None:
        notes.append(task)
    for name in planned or ():
        if not resolve_planned(str(name)).known:
            notes += [n for n in external_metrics(str(name), label_structure) if n not in notes]
    return notes


def scope_sentences(notes: Any) -> list[str]:
    """One sentence per kind of task among ``notes`` (``OutOfScope`` or the plan's ``ScopeNote``): the task and the
    planned metrics of it said once.

    >>> scope_sentences(scope_notes("regression", ["RMSE", "BLEU"]))[1][:48]
    "'BLEU' belongs to generated text: advisor does n"
    """
    groups: dict[tuple[str, str], list[Any]] = {}
    for s in notes:
        groups.setdefault((s.what, s.use), []).append(s)
    out = []
    for (what, use), group in groups.items():
        names = [getattr(n, "name", None) or getattr(n, "planned_as", None) for n in group]
        task = any(n is None for n in names)
        names = [n for n in names if n]
        single = None if task or len(names) != 1 else names[0]
        first = group[0]
        out.append(scope_sentence(OutOfScope(what, use, getattr(first, "because", None) or first.why,
                                             first.task or "", single), names if single is None else ()))
    return out
