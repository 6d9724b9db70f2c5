"""The interactive questionnaire, independent of any terminal library.

:func:`ask_questions` asks the questions of :data:`QUESTIONS` one at a time through two plain
functions — ``read(prompt) -> str`` and ``write(text)`` — so the command line can pass
``typer.prompt``/``typer.echo`` and tests can pass lists. Rules of the dialogue:

* questions whose ``applies_when`` condition does not hold for the answers so far are skipped;
* Enter accepts the default (shown in brackets) — with data, the value the data shows;
* ``?`` prints the "why this matters" help text, then asks again;
* an answer that cannot be parsed, or that contradicts an earlier answer, is refused with a
  one-line reason and the question is asked again.

>>> replies = iter(["", "", ""] + [""] * 6 + ["binary", "", "maybe", "no"] + [""] * 30)
>>> shown = []
>>> a = ask_questions(lambda prompt: next(replies), shown.append)
>>> a.task, a.symmetric
('binary', False)
>>> any("Not allowed" in line for line in shown)
True
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any, get_args

from pydantic import ValidationError

from .._format import display_label, few_names, terminal_safe
from ._answers import _BY_KEY, QUESTIONS, Answers, Question, answers_from_mapping, error_key, error_sentence
from ._fields import suggest_field
from ._conditions import holds

__all__ = ["allowed_words", "ask_questions", "data_hints", "inferred_answers", "parse_reply", "show_value",
           "structure_answers", "wrap_for_terminal"]

_YES = {"y", "yes", "true", "t", "1", "ja", "oui"}
_NO = {"n", "no", "false", "f", "0", "nein", "non"}
_NONE = {"none", "null", "-", "no", "nothing", "skip", "n/a", "na"}
_UNKNOWN = {"unknown", "don't know", "dont know", "not sure", "null", "none", "?unknown"}
_MAYBE = {"maybe", "perhaps", "possibly", "unsure", "idk", "dunno", "depends", "it depends", "sometimes", "partly"}


_SHOWN_ITEMS = 12  # a default of 100,000 classes is shown as its first few and a count


def _shown_items(parts: list[str]) -> str:
    more = len(parts) - _SHOWN_ITEMS
    return ", ".join(parts[:_SHOWN_ITEMS]) + (f", … ({len(parts)} in all)" if more > 0 else "")


def show_value(q: Question, value: Any) -> str:
    """How a value is shown as a default in the prompt: labels shortened for display
    (:func:`advisor._format.display_label`), long lists cut to their first items and a count.

    >>> from advisor.questionnaire._answers import _BY_KEY
    >>> show_value(_BY_KEY["classes"], ["a", "b" * 100]) == "a, " + "b" * 59 + "…"
    True
    >>> show_value(_BY_KEY["classes"], [str(i) for i in range(20)])
    '0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … (20 in all)'
    """
    if value is None:
        return "unknown" if q.kind in ("bool", "int") else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return _shown_items([display_label(v) for v in value]) if value else "none"
    if isinstance(value, dict):
        if q.kind == "costs":
            return f"fn={value.get('false_negative')}, fp={value.get('false_positive')}"
        if q.kind == "actions":  # as it is typed: 'referral = present, unknown; no referral = absent'
            return "; ".join(f"{display_label(a)} = {', '.join(display_label(c) for c in cs)}"
                             for a, cs in value.items())
        return _shown_items([f"{display_label(k)}={v:g}" if isinstance(v, (int, float)) else
                             f"{display_label(k)}={display_label(v)}" for k, v in value.items()])
    return display_label(value)


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
        if "unknown" in q.choices and low in _UNKNOWN | _MAYBE:  # "maybe", "not sure" where unknown is a choice
            return "unknown"
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
        if low in _UNKNOWN | _MAYBE:
            if _nullable(q):  # "maybe" where unknown is allowed: it is not known
                return None
            raise ValueError(f"{text!r} — this question needs a yes or a no; if you are not sure, press Enter "
                             "for the default in brackets, or type ? to see what it decides")
        raise ValueError(f"{text!r} is not yes or no" + (" (or unknown)" if _nullable(q) else ""))
    if q.kind == "int":
        if low in _UNKNOWN | _MAYBE:
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
            raise ValueError(f"{text!r} is not one of the classes {few_names(classes)}")
        return _label(text, classes)
    if q.kind in ("shares", "weights"):
        if low in _NONE:
            return None
        return _pairs(text, classes, "share" if q.kind == "shares" else "weight")
    if q.kind == "actions":  # 'referral = present, unknown; no referral = absent'
        if low in _NONE | _UNKNOWN | _MAYBE:
            return None
        acts: dict[str, list[Any]] = {}
        for part in text.split(";"):
            if not part.strip():
                continue
            m = re.fullmatch(r"\s*([^=:]+?)\s*[=:]\s*(.+?)\s*", part)
            if not m:
                raise ValueError(f"{part.strip()!r} is not of the form action = class, class")
            acts[m.group(1)] = [_label(t.strip(), classes) for t in m.group(2).split(",") if t.strip()]
        if len(acts) < 2:
            raise ValueError("give at least two actions, as 'referral = present, unknown; no referral = absent'")
        return acts
    if q.kind == "costs":
        if low in _NONE | _UNKNOWN | _MAYBE:  # the prompt: "'none' if they cost the same or you cannot say"
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
    if q.kind in ("share", "coverage"):  # a budget (issue 21) strictly inside (0, 1); a coverage (issue 23) in (0, 1]
        if low in _NONE | _UNKNOWN | _MAYBE:
            return None
        m = re.fullmatch(r"([0-9]*\.?[0-9]+)\s*(%?)", low)
        example = "0.05 or 5%" if q.kind == "share" else "0.8 or 80%"
        if not m:
            raise ValueError(f"{text!r} is not a share such as {example}")
        v = float(m.group(1)) / (100.0 if m.group(2) else 1.0)  # a percentage is read as one
        if not (0.0 < v < 1.0 or (q.kind == "coverage" and v == 1.0)):
            raise ValueError(f"{text!r} is not strictly between 0 and 1 (0% and 100%)" if q.kind == "share" else
                             f"{text!r} is not greater than 0 and at most 1 (100%)")
        return v
    if q.kind == "margin":  # a difference called negligible, or 'unknown' (answered: none was fixed)
        return _margin_reply(text)
    if q.kind == "numbers":  # issue 21: risk thresholds, increasing, strictly between 0 and 1
        if low in _NONE | _UNKNOWN | _MAYBE:
            return None
        try:
            values = [float(t) for t in re.split(r"[,;\s]+", low) if t]
        except ValueError:
            raise ValueError(f"{text!r} is not a list of numbers such as 0.05, 0.1, 0.2") from None
        if not values or any(not 0.0 < v < 1.0 for v in values) or any(b <= a for a, b in zip(values, values[1:])):
            raise ValueError(f"{text!r}: give increasing risks strictly between 0 and 1, such as 0.05, 0.1, 0.2")
        return values
    if q.kind == "names":
        if low in _NONE:
            return []
        return [t.strip() for t in re.split(r"[,;]", text) if t.strip()]
    return text or None  # text


def _margin_reply(text: str) -> float | str:
    """A margin typed at the prompt: a number strictly between 0 and 1 (a percentage is read as one), or 'unknown'
    for 'none', 'not sure' and the like (the author answered: no margin was fixed).

    >>> _margin_reply("0.1"), _margin_reply("5%"), _margin_reply("none")
    (0.1, 0.05, 'unknown')
    """
    low = text.strip().lower()
    if low in _NONE | _UNKNOWN | _MAYBE:
        return "unknown"
    m = re.fullmatch(r"[-+]?([0-9]*\.?[0-9]+)\s*(%?)", low)
    if not m:
        raise ValueError(f"{text!r} is not a number such as 0.05, nor unknown")
    if low.startswith("-"):
        raise ValueError(f"{text!r} is negative; a margin is the size of a negligible difference (e.g. 0.05)")
    v = float(m.group(1)) / (100.0 if m.group(2) else 1.0)
    if not 0.0 < v < 1.0:
        raise ValueError(f"{text!r} is not strictly between 0 and 1 in the units of the figure compared")
    return v


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


def wrap_for_terminal(text: str, width: int = 80) -> str:
    """Each line of ``text`` wrapped to ``width - 1`` columns between words, continuation lines
    indented like the line (a numbered question's by three spaces), so an 80-column terminal never
    breaks a word.

    >>> print(wrap_for_terminal("12. " + "word " * 20, width=40))
    12. word word word word word word word
       word word word word word word word
       word word word word word word
    """
    out = []
    for line in text.split("\n"):
        lead = line[: len(line) - len(line.lstrip(" "))] or ("   " if re.match(r"\d+\. ", line) else "")
        out.append(textwrap.fill(line, width=max(width - 1, 20), subsequent_indent=lead, break_long_words=False,
                                 break_on_hyphens=False) if line.strip() else line)
    return "\n".join(out)


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
        out["outputs"] = "probabilities"  # the one output question (issue 23 item 6)
    return out


def structure_answers(structured: Any) -> dict[str, Any] | None:
    """The answers a file of structured labels suggests (:attr:`advisor.io.Dataset.structured`): an agreement study
    (``rater_<name>`` columns: the annotators and their categories) or label sets (``y_true``/``y_pred`` holding sets
    such as ``a|b``, or ``true_<l>``/``pred_<l>`` 0/1 columns: multi-label, the labels). None for anything else —
    ordered classes cannot be told from the labels alone, they are asked (:func:`data_hints`)."""
    kind = getattr(structured, "structure", None)
    if kind == "agreement":
        ratings = structured.systems["agreement"]
        out: dict[str, Any] = {"annotators": len(ratings.raters), "symmetric": True}
        categories = list(ratings.categories)
    elif kind == "multilabel":
        out = {"label_structure": "multilabel"}
        categories = list(structured.labels)
        if len(structured.systems) > 1:
            out["ranking"] = True
    else:
        return None
    if len(categories) >= 2:
        out["classes"] = categories
        out["task"] = "binary" if len(categories) == 2 and kind == "agreement" else "multiclass"
        if out["task"] == "multiclass":
            out["n_classes"] = len(categories)
    return out


def data_hints(labels: Any) -> dict[str, str]:
    """Sentences shown at a question whose answer the data suggests but cannot settle: classes that are all numbers
    (1–5 stars, grades) may be ordered — the labels alone cannot tell, so the label-structure question says so.

    >>> data_hints([1, 2, 3, 4, 5])["label_structure"][:40]
    'The classes are numbers (1, 2, 3, 4, 5):'
    >>> data_hints(["cat", "dog", "cow"])
    {}
    """
    values = list(labels or [])
    if len(values) < 3 or not all(_number(v) for v in values):
        return {}
    shown = few_names(values, 6)
    return {"label_structure": f"The classes are numbers ({shown}): if their order matters — an error of one step "
                               "costs less than an error of several — answer ordinal; the labels alone cannot tell, "
                               "so the default stays nominal."}


def _number(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return True
    return bool(re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", str(v)))


def _facts(answers: dict[str, Any]) -> dict[str, Any]:
    """Facts of the answers so far. An invalid answer is left out; an answer that waits for its
    follow-up (``class_weighting: custom`` before the weights are asked) is validated without it
    but still counts as a fact, so the follow-up question applies."""
    current = dict(answers)
    waiting: dict[str, Any] = {}
    for _ in range(len(answers) + 1):
        try:
            facts = Answers.model_validate(current).facts()
        except ValidationError as exc:
            bad = {re.split(r"[.\[]", error_key(e))[0] for e in exc.errors()}
            if bad & set(current):
                for key in bad & set(current):
                    current.pop(key)
            elif current:  # the problem is an unanswered key: set the latest answer aside
                last = next(reversed(current))
                waiting[last] = current.pop(last)
            else:
                break
            continue
        facts.update({k: v for k, v in waiting.items() if isinstance(v, (str, int, float, bool))})
        return facts
    return Answers().facts()


def ask_questions(
    read: Callable[[str], str],
    write: Callable[[str], None],
    inferred: dict[str, Any] | None = None,
    given: dict[str, Any] | None = None,
    on_answer: Callable[[dict[str, Any]], None] | None = None,
    hints: dict[str, str] | None = None,
) -> Answers:
    """Ask every applicable question and return the validated answers (see the module docstring).

    ``hints`` are sentences shown at the question of their key: what the data suggests but cannot settle
    (:func:`data_hints`).

    ``given`` are answers kept from an earlier, interrupted run (a draft): each that still fits is
    taken without asking. ``on_answer(answers_so_far)`` is called after every answer, so a caller
    can save the answers as they are given. A follow-up that an answer makes necessary (the
    weights after ``class_weighting: custom``) is always asked.
    """
    inferred = inferred or {}
    given = dict(given or {})
    answers: dict[str, Any] = {}
    number = 0
    for q in QUESTIONS:
        if not q.asked or not holds(q.applies_when, _facts(answers)):
            continue
        number += 1
        if q.key in given and _conflict({**answers, q.key: given[q.key]}, asked={*answers, q.key}) is None:
            answers[q.key] = given.pop(q.key)
            write(f"{number}. {q.key}: {terminal_safe(show_value(q, answers[q.key]))} (kept from the draft)")
            continue
        answers[q.key] = _ask_one(q, number, read, write, inferred, answers, (hints or {}).get(q.key))
        if on_answer is not None:
            on_answer(dict(answers))
    for _ in range(len(QUESTIONS)):  # safety net: a required follow-up that no condition asked for
        followup = _missing_followup(answers)
        if followup is None:
            break
        number += 1
        answers[followup.key] = _ask_one(followup, number, read, write, inferred, answers)
        if on_answer is not None:
            on_answer(dict(answers))
    return answers_from_mapping(answers, "your answers")


def _nullable(q: Question) -> bool:
    """Whether the answers key of ``q`` may be null ("unknown")."""
    return type(None) in get_args(Answers.model_fields[q.key].annotation)


def allowed_words(q: Question) -> str:
    """What may be typed at the prompt of ``q``, in the prompt's own words (yes/no, unknown, none).

    >>> from advisor.questionnaire._answers import _BY_KEY
    >>> allowed_words(_BY_KEY["symmetric"]), allowed_words(_BY_KEY["test_set_balanced"])
    ('yes or no', 'yes, no or unknown')
    """
    if q.kind == "bool":
        return "yes, no or unknown" if _nullable(q) else "yes or no"
    text = q.allowed.replace("null (not known)", "unknown").replace("null when not known", "unknown")
    return re.sub(r"\bnull\b", "none", re.sub(r"\bnull for none\b", "none", text))


def _prompt(q: Question, default: Any) -> str:
    choices = ""
    if q.kind == "bool":
        choices = "yes/no/unknown " if _nullable(q) else "yes/no "
    return f"   {choices}[{terminal_safe(show_value(q, default))}] (? for help) > "


def _ask_one(
    q: Question, number: int, read: Callable[[str], str], write: Callable[[str], None],
    inferred: dict[str, Any], answers: dict[str, Any], hint: str | None = None,
) -> Any:
    """Ask question ``q`` until the reply is allowed and fits the answers so far; return its value."""
    default = inferred.get(q.key, q.default)
    reject = answers.get("reject_label")
    if q.key == "classes" and isinstance(default, list) and reject is not None:  # asked before the classes now:
        default = [c for c in default if str(c) != str(reject)] or None  # the data's abstentions are no class
    suggested = suggest_field(answers.get("context")) if q.key == "field" and q.key not in inferred else None
    if suggested is not None:  # the context reads like a field: offered, never set without the user's Enter
        default = suggested.id
    write("")
    write(f"{number}. {q.prompt}")
    if q.choices:
        write("   choices: " + ", ".join(q.choices))
    if q.key in inferred:
        write(f"   The data shows: {terminal_safe(show_value(q, default))} — press Enter to confirm.")
    elif hint:
        write(f"   {terminal_safe(hint)}")
    if suggested is not None:
        write(f"   Your context reads like {terminal_safe(suggested.name)} ({suggested.id}); {suggested.cite} "
              f"report {terminal_safe(suggested.reports)}. Press Enter to confirm, or type none.")
    while True:
        raw = read(_prompt(q, default))
        if raw.strip() == "?":
            write("   " + q.help)
            write(f"   Allowed: {allowed_words(q)}.")
            continue
        try:
            value = default if not raw.strip() else parse_reply(q, raw, answers)
        except ValueError as exc:
            write(f"   Not allowed: {terminal_safe(exc)}; allowed: {allowed_words(q)}. Please answer again.")
            continue
        problem = _conflict({**answers, q.key: value}, asked={*answers, q.key}, current=q.key)
        if problem:
            write(f"   {terminal_safe(problem)} Please answer again.")
            continue
        return value



def _missing_followup(answers: dict[str, Any]) -> Question | None:
    """The question whose answer the answers so far require but do not have (None if complete)."""
    try:
        Answers.model_validate(answers)
    except ValidationError as exc:
        for err in exc.errors():
            key = re.split(r"[.\[]", error_key(err))[0]
            if key in _BY_KEY and key not in answers:
                return _BY_KEY[key]
    return None


def _conflict(answers: dict[str, Any], asked: set[str], current: str | None = None) -> str | None:
    """The first validation problem about an asked key (problems with later keys wait for them).

    A problem with the reply just given is said in the prompt's words ("Not allowed: the shares must
    sum to 1 (they sum to 0.9)."); one that involves an earlier answer names the key and the value.
    """
    try:
        Answers.model_validate(answers)
    except ValidationError as exc:
        for err in exc.errors():
            key = error_key(err)
            if re.split(r"[.\[]", key)[0] in asked:
                if key == current and err["type"] == "answers":
                    return f"Not allowed: {err['msg']}."
                return error_sentence(err, "answer")
    return None
