"""Reading an answers file (YAML or JSON) into plain data, strictly.

The YAML reader (:class:`_AnswersLoader`) keeps class names as written (only true/false are booleans,
only canonical decimals are integers), refuses aliases, nesting deeper than :data:`MAX_DEPTH`, a key
given twice in one mapping at any level, and integers of more than :data:`MAX_DIGITS` digits; the JSON
reader refuses the same duplicates and digits (:func:`_unique_pairs`, :func:`_json_int`). Each refusal
is an :class:`_AnswersTooBig` whose text ends the one sentence :func:`advisor.questionnaire.load_answers`
gives. Validation of the values is :mod:`._answers`'.
"""

from __future__ import annotations

import json
import re
import reprlib
from typing import Any

import yaml

__all__ = ["MAX_ANSWERS_BYTES", "MAX_DEPTH", "MAX_DIGITS"]


def _show(value: Any, limit: int = 60) -> str:
    """``value`` as YAML/JSON-like text, at most ``limit`` characters — built piece by piece and stopped
    at the limit, so a huge value is never serialised whole just to be shortened."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        pieces: list[str] = []
        size = 0
        try:
            for chunk in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
                pieces.append(chunk[: limit + 1])
                size += len(pieces[-1])
                if size > limit:
                    break
        except (TypeError, ValueError, RecursionError):
            pieces = [reprlib.repr(value)]
        text = "".join(pieces)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _AnswersLoader(yaml.SafeLoader):
    """Class names keep their spelling. YAML 1.1 read ``classes: [no, yes]`` as the booleans 0 and 1,
    ``01`` as octal 1, ``0x1A`` as 26 and ``1:30`` as 90. Here only true/false are booleans and only
    canonical decimals (``-?[1-9][0-9]*|0``, the rule the data readers use) are integers; anything
    else stays text — ``symmetric: yes`` and ``n_classes: 010`` still validate as true and 10."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Refuse aliases (``*name``): nine levels of nine aliases in 435 bytes expand to billions of
        values. Answers never need them. Nesting deeper than :data:`MAX_DEPTH` is refused too."""
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            raise _AnswersTooBig(f"uses the YAML alias *{_show(event.anchor, 40)[1:-1]} at line "
                                 f"{event.start_mark.line + 1}; answers files take no aliases (anchors '&' and "
                                 "'*'): write the value out")
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise _AnswersTooBig(f"nests values more than {MAX_DEPTH} levels deep (line {mark.line + 1}); "
                                     "answers are flat mappings, lists and numbers")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """Refuse a key given twice in one mapping, at any level (YAML would keep the last silently): the
        answer given first would be lost. Keys that read the same as text (``1`` and ``'1'``) are one
        class name, so they count as the same key."""
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            seen: dict[str, int] = {}
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=deep)
                text = str(key) if isinstance(key, (str, int, float, bool)) or key is None else repr(key)
                line = key_node.start_mark.line + 1
                if text in seen:
                    raise _AnswersTooBig(f"gives the key {_show(key, 40)} twice in one mapping (lines {seen[text]} and "
                                         f"{line}); give each key once — which one was meant is not clear")
                seen[text] = line
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: Any) -> Any:
        """Integers longer than :data:`MAX_DIGITS` digits are refused (Python stops at 4,300 with an error)."""
        text = str(node.value).replace("_", "").lstrip("+-")
        if len(text) > MAX_DIGITS:
            raise _AnswersTooBig(f"has a number of {len(text):,} digits at line {node.start_mark.line + 1}; numbers "
                                 f"in answers have at most {MAX_DIGITS} digits (write a large cost as 1.0e+20)")
        return super().construct_yaml_int(node)


class _AnswersTooBig(yaml.YAMLError):  # a YAMLError, so every reader of answers YAML refuses it as one
    """An answers file beyond the limits (aliases, size, depth, digits) or with a key given twice: the
    reason, to end one sentence."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of the JSON reader: a key given twice in one object is refused, as in YAML."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _AnswersTooBig(f"gives the key {_show(key, 40)} twice in one object; give each key once — which "
                                 "one was meant is not clear")
        out[key] = value
    return out


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _AnswersTooBig(f"has a number of {digits:,} digits; numbers in answers have at most {MAX_DIGITS} "
                             "digits (write a large cost as 1e20)")
    return int(text)


#: Largest answers file read (bytes). Real ones are a few hundred bytes; a cost matrix for 300
#: classes with three-digit costs is about 400 KB.
MAX_ANSWERS_BYTES = 1_000_000
#: Deepest nesting of values in an answers file (a cost matrix is 3 levels deep).
MAX_DEPTH = 20
#: Longest integer in an answers file (n_classes, top_k, costs are small; Python refuses 4,300 digits).
MAX_DIGITS = 100


_AnswersLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:int")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_AnswersLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_AnswersLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^(?:-?[1-9][0-9]*|0)$"), list("-0123456789"))
_AnswersLoader.add_constructor("tag:yaml.org,2002:int", _AnswersLoader.construct_yaml_int)
