"""The interactive questionnaire, independent of any terminal library.

:func:`ask_questions` asks the questions of :data:`QUESTIONS` one at a time through two plain
functions — ``read(prompt) -> str`` and ``write(text)`` — so the command line can pass
``typer.prompt``/``typer.echo`` and tests can pass lists. Rules of the dialogue:

* questions whose ``applies_when`` condition does not hold for the answers so far are skipped;
* Enter accepts the default (shown in brackets) — with data, the value the data shows;
* ``?`` prints the "why this matters" help text, then asks again;
* an answer that cannot be parsed, or that contradicts an earlier answer, is refused with a
  one-line reason and the question is asked again.

>>> replies = iter(["binary", "", "maybe", "no"] + [""] * 30)
>>> shown = []
>>> a = ask_questions(lambda prompt: next(replies), shown.append)
>>> a.task, a.symmetric
('binary', False)
>>> any("Not allowed" in line for line in shown)
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from ._answers import QUESTIONS, Answers, Question, answers_from_mapping, error_key, error_sentence
from ._conditions import holds

__all__ = ["ask_questions", "inferred_answers", "parse_reply", "show_value"]

_YES = {"y", "yes", "true", "t", "1", "ja", "oui"}
_NO = {"n", "no", "false", "f", "0", "nein", "non"}
_NONE = {"none", "null", "-", "no", "nothing", "skip", "n/a", "na"}
_UNKNOWN = {"unknown", "don't know", "dont know", "not sure", "null", "none", "?unknown"}


def show_value(q: Question, value: Any) -> str:
    """How a value is shown as a default in the prompt."""
    if value is None:
        return "unknown" if q.kind in ("bool", "int") else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) if value else "none"
    if isinstance(value, dict):
        if q.kind == "costs":
            return f"fn={value.get('false_negative')}, fp={value.get('false_positive')}"
        return ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}" for k, v in value.items())
    return str(value)


def _label(text: str, classes: list[Any] | None) -> Any:
    if classes:
        for c in classes:
            if str(c) == text:
                return c
    return int(text) if re.fullmatch(r"-?(0|[1-9]\d*)", text) else text


def _pairs(raw: str, classes: list[Any] | None, what: str) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for part in re.split(r"[,;]", raw):
        if not part.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*[=:]\s*([-+0-9.eE]+)\s*(%?)\s*", part)
        if not m:
            raise ValueError(f"{part.strip()!r} is not of the form class={what}")
        value = float(m.group(2)) / (100.0 if m.group(3) else 1.0)
        out[_label(m.group(1), classes)] = value
    if not out:
        raise ValueError(f"give at least one class={what}")
    return out


def parse_reply(q: Question, raw: str, answers: dict[str, Any]) -> Any:
    """Parse a typed reply to question ``q`` (``answers`` are the answers so far).

    Raises ``ValueError`` with a short reason when the reply is not allowed.
    """
    text = raw.strip()
    low = text.lower()
    classes = answers.get("classes")
    if q.kind == "choice":
        canon = low.replace("-", "_").replace(" ", "_")
        if canon.isdigit() and 1 <= int(canon) <= len(q.choices):
            return q.choices[int(canon) - 1]
        hits = [c for c in q.choices if c == canon] or [c for c in q.choices if c.startswith(canon)]
        if len(hits) == 1:
            return hits[0]
        raise ValueError(f"{text!r} is not one of {', '.join(q.choices)}")
    if q.kind == "bool":
        if low in _YES:
            return True
        if low in _NO:
            return False
        if q.default is None and low in _UNKNOWN:
            return None
        raise ValueError(f"{text!r} is not yes or no" + (" (or unknown)" if q.default is None else ""))
    if q.kind == "int":
        if low in _UNKNOWN:
            return None
        if not re.fullmatch(r"\d+", text):
            raise ValueError(f"{text!r} is not a whole number")
        return int(text)
    if q.kind == "labels":
        if low in _NONE:
            return None
        items = [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
        return [_label(t, None) for t in items]
    if q.kind == "label":
        if low in _NONE:
            return None
        if classes and not any(str(c) == text for c in classes):
            raise ValueError(f"{text!r} is not one of the classes {', '.join(map(str, classes))}")
        return _label(text, classes)
    if q.kind in ("shares", "weights"):
        if low in _NONE:
            return None
        return _pairs(text, classes, "share" if q.kind == "shares" else "weight")
    if q.kind == "costs":
        if low in _NONE:
            return None
        if low.startswith("matrix"):
            return {"matrix": _cost_matrix(low.split(":", 1)[-1] if ":" in low else low[6:], classes)}
        found: dict[str, float] = {}
        for part in re.split(r"[,;\s]+(?=[a-z_ ]+\s*[=:])", low):
            m = re.fullmatch(r"\s*(fn|fp|false_negative|false_positive|false negative|false positive)\s*[=:]\s*([0-9.eE+]+)\s*", part)
            if not m:
                raise ValueError(f"{part.strip()!r} is not of the form fn=<number> or fp=<number>")
            key = "false_negative" if m.group(1) in ("fn", "false_negative", "false negative") else "false_positive"
            found[key] = float(m.group(2))
        if set(found) != {"false_negative", "false_positive"}:
            raise ValueError("give both fn=<cost> and fp=<cost>")
        return found
    if q.kind == "names":
        if low in _NONE:
            return []
        return [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
    return text or None  # text


def _cost_matrix(text: str, classes: list[Any] | None) -> list[list[float]]:
    """``'0 1 5; 1 0 1; 2 2 0'`` → rows of costs (rows = true class, columns = decision)."""
    try:
        rows = [[float(x) for x in re.split(r"[\s,]+", r.strip())] for r in text.split(";") if r.strip()]
    except ValueError:
        raise ValueError("a cost matrix is rows of numbers separated by ';', e.g. matrix: 0 1; 5 0") from None
    k = len(rows)
    if k < 2 or any(len(r) != k for r in rows) or (classes and k != len(classes)):
        raise ValueError(f"the cost matrix must be square with one row per class ({len(classes) if classes else 'k'})")
    return rows


def inferred_answers(summary: Any, balance_ratio: float = 1.2) -> dict[str, Any]:
    """The answers a :class:`~advisor.questionnaire._infer.DataSummary` suggests (to be confirmed)."""
    out: dict[str, Any] = {
        "task": "binary" if summary.k == 2 else "multiclass",
        "classes": list(summary.labels),
        "test_set_balanced": summary.balanced(balance_ratio),
    }
    if summary.k > 2:
        out["n_classes"] = summary.k
    if len(summary.systems) > 1:
        out["ranking"] = True
    if summary.has_probabilities:
        out["probabilities"] = True
    return out


def _facts(answers: dict[str, Any]) -> dict[str, Any]:
    """Facts of the answers so far; keys in an incomplete combination (custom weights not yet asked)
    are left out until the combination is complete."""
    current = dict(answers)
    for _ in range(len(current) + 1):
        try:
            return Answers.model_validate(current).facts()
        except ValidationError as exc:
            bad = {re.split(r"[.\[]", error_key(e))[0] for e in exc.errors()} & set(current)
            if not bad:
                break
            for key in bad:
                current.pop(key)
    return Answers().facts()


def ask_questions(
    read: Callable[[str], str],
    write: Callable[[str], None],
    inferred: dict[str, Any] | None = None,
) -> Answers:
    """Ask every applicable question and return the validated answers (see the module docstring)."""
    inferred = inferred or {}
    answers: dict[str, Any] = {}
    number = 0
    for q in QUESTIONS:
        if not holds(q.applies_when, _facts(answers)):
            continue
        number += 1
        default = inferred.get(q.key, q.default)
        write("")
        write(f"{number}. {q.prompt}")
        if q.choices:
            write("   choices: " + ", ".join(q.choices))
        if q.key in inferred:
            write(f"   The data shows: {show_value(q, default)} — press Enter to confirm.")
        while True:
            raw = read(f"   [{show_value(q, default)}] (? for help) > ")
            if raw.strip() == "?":
                write("   " + q.help)
                write(f"   Allowed: {q.allowed}.")
                continue
            try:
                value = default if not raw.strip() else parse_reply(q, raw, answers)
            except ValueError as exc:
                write(f"   Not allowed: {exc}; allowed: {q.allowed}. Please answer again.")
                continue
            problem = _conflict({**answers, q.key: value}, asked={*answers, q.key})
            if problem:
                write(f"   {problem} Please answer again.")
                continue
            answers[q.key] = value
            break
    return answers_from_mapping(answers, "your answers")


def _conflict(answers: dict[str, Any], asked: set[str]) -> str | None:
    """The first validation problem about an asked key (problems with later keys wait for them)."""
    try:
        Answers.model_validate(answers)
    except ValidationError as exc:
        for err in exc.errors():
            key = error_key(err)
            if re.split(r"[.\[]", key)[0] in asked:
                return error_sentence(err, "answer")
    return None
