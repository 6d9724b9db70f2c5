"""The plan on one screen (``advisor recommend``) and in full (``--explain``).

The recommendation's own view (:mod:`advisor.questionnaire._screen`: the lead and why, what to report
beside it, what to avoid, warnings), then what the plan adds: where two answers pull apart and which
one leads, and every answer that changed nothing, with the reason.
"""

from __future__ import annotations

import textwrap

from ._models import Plan

__all__ = ["plan_text"]


def _wrap(text: str, width: int, indent: int = 2) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                         break_on_hyphens=False)


def plan_text(plan: Plan, *, explain: bool = False, width: int = 100) -> str:
    """The screen for ``plan``; ``explain`` adds the full reasoning, the duties and the sources."""
    rec = plan._rec
    body = rec.to_explain_text() if explain else rec.to_text()
    lines = body.rstrip("\n").split("\n")
    tail = [] if explain else lines[-1:]  # "advisor recommend --explain shows …" stays last
    lines = lines if explain else lines[:-1]
    if plan.conflicts:
        lines.append("Where your answers pull apart")
        for c in plan.conflicts:
            lines += _wrap(c, width - 1)
    if plan.unused:
        lines.append("Answers not used")
        for a in plan.unused:
            value = a.value if not isinstance(a.value, str) else repr(a.value)
            lines += _wrap(f"{a.key} = {value}: {a.unused}", width - 1)
    if plan.out_of_scope:
        lines.append("Not evaluated by advisor")
        for s in plan.out_of_scope:
            lines += _wrap(f"{s.what}: use {s.use}.", width - 1)
    return "\n".join([*lines, *tail]) + "\n"
