"""The evaluation plan: what will be evaluated, with which parameters, and why — one object for every stage.

``answers → Plan → evaluate(Plan, data) → results → document``: :func:`make_plan` turns the answers (with
the options of a run and, when known, the data) into a :class:`Plan`; ``advisor recommend --json``
prints it, the methods paragraph is written from it and the report computes and shows exactly its
metrics and diagnostics.

It may import the questionnaire, the catalogue, io, stats, the engine and the base modules; the report
and the CLI import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "DIAGNOSTICS": "._models",
    "AnswerUse": "._models",
    "Avoided": "._models",
    "Design": "._models",
    "Diagnostic": "._models",
    "MetricSpec": "._models",
    "Plan": "._models",
    "PlanOptions": "._options",
    "PlanWarning": "._models",
    "ScopeNote": "._models",
    "TaskSpec": "._models",
    "make_plan": "._build",
    "label_quantities": "._usage",
    "plan_text": "._screen",
    "runs_design": "._build",
    "undefined_convention": "._options",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._build import make_plan as make_plan, runs_design as runs_design
    from ._models import (
        AnswerUse as AnswerUse,
        Avoided as Avoided,
        DIAGNOSTICS as DIAGNOSTICS,
        Design as Design,
        Diagnostic as Diagnostic,
        MetricSpec as MetricSpec,
        Plan as Plan,
        PlanWarning as PlanWarning,
        ScopeNote as ScopeNote,
        TaskSpec as TaskSpec,
    )
    from ._options import PlanOptions as PlanOptions, undefined_convention as undefined_convention
    from ._usage import label_quantities as label_quantities
    from ._screen import plan_text as plan_text
