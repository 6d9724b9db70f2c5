"""Loading a saved report context (``advisor report --context FILE.json``) as the untrusted input it is.

A context file may come from anyone, so before anything is rendered it is

* bounded: at most :data:`MAX_CONTEXT_BYTES` read, nesting at most :data:`MAX_DEPTH` deep,
  every formula and inline math span within :func:`advisor.report._texsafe.math_bounds` (at most
  2,000 characters, groups nested at most 16 deep — the catalogue's longest is about 200 characters, its
  deepest 4), ``digits`` between 0 and :data:`MAX_DIGITS`, at most :data:`MAX_SYSTEMS` systems and
  :data:`MAX_CLASSES` classes;
* checked for consistency (:func:`check_context`): the number of classes agrees with the labels, class sizes and
  every confusion matrix; every metric, system and class a table or figure refers to exists;
  numbers are finite where the renderer divides or plots them.

Anything else is refused with one sentence naming the file, the field and what is allowed, so a
crafted file ends quickly with a clear error instead of an internal one or minutes of rendering.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from pydantic import BaseModel, ValidationError
from typing import Any

from .._exceptions import AdvisorError, InputError, arg
from .._jsonio import read_small_text
from ._context_json import context_from_json, json_path
from ._models import ReportContext, Span
from ._render import render_report
from ._texsafe import math_bounds

__all__ = ["MAX_CONTEXT_BYTES", "check_context", "load_context"]

#: Largest context file read (bytes); advisor's own contexts of 20 classes are a few hundred KB.
MAX_CONTEXT_BYTES = 50_000_000
MAX_DEPTH = 64
MAX_FORMULA_CHARS = 2_000  # (advisor.report._texsafe.MAX_MATH_CHARS)
MAX_DIGITS = 10
MAX_SYSTEMS = 100
MAX_CLASSES = 100_000  # the scale work aims at 100,000 classes; the 50 MB cap bounds the rest


class _Bad(Exception):
    """Where (a dotted field path) and what is wrong, to end one sentence."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}")


def _nesting(text: str) -> int:
    """Deepest bracket nesting of JSON ``text`` outside strings (cheap, before parsing)."""
    depth = deepest = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def load_context(path: str | os.PathLike[str]) -> ReportContext:
    """Read, validate and check a report context file; :class:`InputError` (one sentence) if it is unfit."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"path must be the path of a report context (JSON); got {type(path).__name__}.")
    p = Path(path)
    hint = (f"{arg('context', python='load_context')} takes the JSON of a report context (`advisor report -o "
            "FILE.json`, render_report(ctx, 'json'))")
    text = read_small_text(p, MAX_CONTEXT_BYTES, str(p), hint, f"the limit for a report context; {hint}.")
    if _nesting(text) > MAX_DEPTH:
        raise InputError(f"{p} nests values more than {MAX_DEPTH} levels deep; {hint}.")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"{p} is not JSON ({exc}); {hint}.") from None
    names = data.get("systems") if isinstance(data, dict) else None
    try:
        ctx = context_from_json(data)
    except InputError as exc:
        raise InputError(f"{p} is not a report context written by advisor ({exc}); {hint}.") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        where = json_path(".".join(str(x) for x in err.get("loc", ())), names if isinstance(names, list) else None)
        msg = " ".join(str(err.get("msg", "")).split())[:200]
        raise InputError(f"{p} is not a report context written by advisor (at {where or 'the top level'}: {msg}).") \
            from None
    try:
        check_context(ctx)
    except _Bad as exc:
        raise InputError(f"{p} is not a consistent report context (at {json_path(str(exc), ctx)}); {hint}.") from None
    return ctx


def _finite(values: Iterable[Any], where: str, *, allow_none: bool = True, lo: float = -math.inf,
            allow_inf: bool = False) -> None:
    for i, v in enumerate(values):
        if v is None and allow_none:
            continue
        if v is None or math.isnan(v) or (math.isinf(v) and not allow_inf) or v < lo:
            raise _Bad(f"{where}[{i}]", f"{v!r} is not a finite number" + (f" ≥ {lo:g}" if lo > -math.inf else ""))


def _among(names: Iterable[Any], allowed: set[Any], where: str, what: str) -> None:
    for name in names:
        if name not in allowed:
            shown = repr(name) if len(repr(name)) <= 60 else repr(name)[:59] + "…"
            raise _Bad(where, f"{shown} is not one of the report's {what}")


def _square(rows: Sequence[Sequence[Any]], n: int, where: str) -> None:
    if len(rows) != n or any(len(r) != n for r in rows):
        raise _Bad(where, f"expected a {n}×{n} table")


def check_context(ctx: ReportContext) -> None:
    """Raise :class:`_Bad` unless ``ctx`` is within the limits and consistent (see the module docstring)."""
    if not 0 <= ctx.digits <= MAX_DIGITS:
        raise _Bad("digits", f"{ctx.digits} is not between 0 and {MAX_DIGITS}")
    ids = [m.id for m in ctx.metrics]
    if len(set(ids)) != len(ids):
        raise _Bad("metrics", "a metric id is listed twice")
    _check_formulas(ctx)
    known = set(ids)
    _among([ctx.primary], known, "primary", "metrics")
    labels = _check_task(ctx)
    if len(ctx.systems) > MAX_SYSTEMS:
        raise _Bad("systems", f"{len(ctx.systems)} systems; at most {MAX_SYSTEMS}")
    names = [s.name for s in ctx.systems]
    if len(set(names)) != len(names):
        raise _Bad("systems", "a system name is listed twice")
    for si, s in enumerate(ctx.systems):
        _check_system(s, f"systems[{si}]", ctx, known, labels)
    for metric, winners in ctx.winners.items():
        _among(winners, set(names), f"winners.{metric}", "systems")
    _among([c.metric for c in ctx.chance], known, "chance", "metrics")
    for i, c in enumerate(ctx.chance):
        _finite([c.uniform, c.prevalence, c.majority, c.constant], f"chance[{i}]")
    if ctx.intervals is not None:
        if not 0 < ctx.intervals.confidence < 1 or ctx.intervals.n_resamples < 0:
            raise _Bad("intervals", "confidence must lie strictly between 0 and 1 and n_resamples be ≥ 0")
    _check_figures(ctx, known, set(names), labels)


def _math_spans(obj: Any, where: str) -> Iterator[tuple[str, str]]:
    """``(field path, LaTeX)`` of every inline math span anywhere in a context (methods, justification, …)."""
    if isinstance(obj, Span):
        if obj.kind == "math":
            yield where, obj.text
    elif isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            yield from _math_spans(getattr(obj, name), f"{where}.{name}" if where else name)
    elif isinstance(obj, (list, tuple)):
        for i, x in enumerate(obj):
            yield from _math_spans(x, f"{where}[{i}]")
    elif isinstance(obj, dict):
        for k, x in obj.items():
            yield from _math_spans(x, f"{where}.{k}")


def _check_formulas(ctx: ReportContext) -> None:
    """Every formula and math span within the bounds TeX and the typesetter can take (:func:`math_bounds`):
    a formula 900 braces deep passed the allow-list and ended pdflatex with "TeX capacity exceeded"."""
    formulas = [(f"metrics[{i}].formula", m.formula) for i, m in enumerate(ctx.metrics)]
    for where, tex in [*formulas, *_math_spans(ctx, "")]:
        why = math_bounds(tex)
        if why is not None:
            raise _Bad(where, why)


def _check_task(ctx: ReportContext) -> set[str]:
    t = ctx.task
    if t is None:
        if ctx.systems:
            raise _Bad("task", "systems are given but no task")
        return set()
    if not 2 <= t.k <= MAX_CLASSES:
        raise _Bad("task.k", f"{t.k} classes; between 2 and {MAX_CLASSES:,} are allowed")
    if len(t.labels) != t.k or len(t.class_sizes) != t.k:
        raise _Bad("task", f"k is {t.k} but {len(t.labels)} labels and {len(t.class_sizes)} class sizes are given")
    if len(set(t.labels)) != t.k:
        raise _Bad("task.labels", "a label is listed twice")
    _finite(t.class_sizes, "task.class_sizes", allow_none=False, lo=0.0)
    _finite([t.n], "task.n", allow_none=False, lo=0.0)
    if t.positive_label is not None:
        _among([t.positive_label], set(t.labels), "task.positive_label", "class labels")
    return set(t.labels)


def _check_system(s: Any, where: str, ctx: ReportContext, known: set[str], labels: set[str]) -> None:
    k = ctx.task.k if ctx.task is not None else 0
    _finite(s.values.values(), f"{where}.values", allow_inf=True)  # ±inf is allowed (an infinite LR+), NaN is not
    for metric, est in s.intervals.items():
        _finite([est.estimate, est.low, est.high], f"{where}.intervals.{metric}", allow_inf=True)
    _finite(s.p_first.values(), f"{where}.p_first", lo=0.0)
    if s.confusion:
        _square(s.confusion, k, f"{where}.confusion")
        for i, row in enumerate(s.confusion):
            _finite(row, f"{where}.confusion[{i}]", allow_none=False, lo=0.0)
        if not math.isfinite(sum(sum(row) for row in s.confusion)):
            raise _Bad(f"{where}.confusion", "the counts add up to more than the largest floating-point number")
    for i, row in enumerate(s.per_class):
        _among([row.label], labels, f"{where}.per_class[{i}].label", "class labels")
        _finite([row.support, row.predicted], f"{where}.per_class[{i}]", allow_none=False, lo=0.0)
    for i, u in enumerate(s.undefined):
        if u.label is not None:
            _among([u.label], labels, f"{where}.undefined[{i}].label", "class labels")


def _check_figures(ctx: ReportContext, known: set[str], systems: set[str], labels: set[str]) -> None:
    f = ctx.figures
    if f.ranking is not None:
        n = len(f.ranking.metrics)
        _among(f.ranking.metrics, known, "figures.ranking.metrics", "metrics")
        for name in ("kendall", "spearman"):
            table = getattr(f.ranking, name)
            _square(table, n, f"figures.ranking.{name}")
            for i, row in enumerate(table):
                _finite(row, f"figures.ranking.{name}[{i}]")
    if f.difference_pair and len(f.difference_pair) != 2:
        raise _Bad("figures.difference_pair", "give two system names or none")
    _among(f.difference_pair, systems, "figures.difference_pair", "systems")
    _among([d.metric for d in f.differences], known, "figures.differences", "metrics")
    for i, d in enumerate(f.differences):
        _finite([d.estimate, d.low, d.high], f"figures.differences[{i}]")
    if f.prevalence_metric is not None:
        _among([f.prevalence_metric], known, "figures.prevalence_metric", "metrics")
    if f.prevalence_class is not None:
        _among([f.prevalence_class], labels, "figures.prevalence_class", "class labels")
    for i, c in enumerate(f.prevalence):
        _among([c.system], systems, f"figures.prevalence[{i}].system", "systems")
        if len(c.share) != len(c.value):
            raise _Bad(f"figures.prevalence[{i}]", "share and value differ in length")
        _finite(c.share, f"figures.prevalence[{i}].share", allow_none=False)
        _finite(c.value, f"figures.prevalence[{i}].value")
        _finite([c.observed_share, c.observed_value], f"figures.prevalence[{i}]")


def render_checked(source: str | os.PathLike[str], ctx: ReportContext, fmt: str, out_path: str | os.PathLike[str],
                   **options: Any) -> Any:
    """:func:`render_report` of a context loaded from ``source``, whose content is the user's: a
    combination of values the checks above did not foresee that the renderer cannot draw is a
    problem of that file (one sentence naming it), not an internal error."""
    try:
        return render_report(ctx, fmt, out_path, inputs=[source], **options)
    except (AdvisorError, OSError):
        raise
    except Exception as exc:  # noqa: BLE001 - the file is input: say so, keep the detail for the log
        logging.getLogger(__name__).debug("rendering %s failed", source, exc_info=True)
        if os.environ.get("ADVISOR_DEBUG", "").strip() not in ("", "0"):
            raise
        what = " ".join(str(exc).split())[:160]
        raise InputError(f"{source} could not be rendered: its values do not fit together ({type(exc).__name__}"
                         f"{': ' + what if what else ''}); re-create it with `advisor report -o FILE.json`.") from None


#: Largest total count a report computes with: 2**63 − 1, the largest 64-bit integer. Products such
#: as n² in MCC and kappa stay far from float overflow below it.
MAX_TOTAL_COUNT = 2**63 - 1


def check_count_totals(systems: Any) -> None:
    """Refuse (one sentence) a system whose counts add up to more than :data:`MAX_TOTAL_COUNT`,
    before any metric is computed — instead of overflow warnings and a misleading error later."""
    for name, cm in dict(systems).items():
        try:
            n = float(cm.n)
        except OverflowError:
            n = math.inf
        if not n <= MAX_TOTAL_COUNT:
            shown = str(name) if len(str(name)) <= 60 else str(name)[:59] + "…"
            raise InputError(f"the counts of system {shown!r} add up to {n:.3g}, more than {MAX_TOTAL_COUNT:,} "
                             "(the largest 64-bit integer) that a report computes with; scale the counts down "
                             "(the metrics do not change under a common factor; the intervals do).")
