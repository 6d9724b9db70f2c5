"""The questionnaire and rule engine: from a user's situation to a justified metric choice.

It may import the catalogue, stats, io and the engine (to read what the data says) and the base
modules; never the report or the CLI.

>>> from advisor.questionnaire import Answers, QUESTIONS
>>> Answers(task="multiclass", n_classes=3).k
3
>>> [q.key for q in QUESTIONS][:5]
['context', 'item_name', 'field', 'label_structure', 'annotators']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "DERIVED_FACTS": "._conditions",
    "EXTERNAL": "._structure_words",
    "QUESTIONS": "._answers",
    "Advice": "._recommendation",
    "Answers": "._answers",
    "ErrorCosts": "._answers",
    "MetricChoice": "._recommendation",
    "Question": "._answers",
    "RationaleEntry": "._recommendation",
    "Recommendation": "._recommendation",
    "Resolution": "._planned",
    "RuleBook": "._rules",
    "CommunityField": "._fields",
    "answers_from_mapping": "._answers",
    "answers_to_yaml": "._answers",
    "condition_holds": "._conditions:holds",
    "describe_condition": "._conditions:describe",
    "load_answers": "._answers",
    "load_fields": "._fields",
    "load_rules": "._rules",
    "plural": "._fields",
    "recommend": "._engine",
    "resolve_planned": "._planned",
    "screen_columns": "._screen",
    "screen_width": "._screen",
    "suggest_field": "._fields",
    # the reader's words: the methods paragraph says the situation, reasons and warnings as the one-screen view does
    "ADDS_PHRASES": "._words:ADDS",
    "BACKQUOTED_FORMULA": "._plain:FORMULA",
    "AVOID_PHRASES": "._words:AVOID",
    "LEAD_COSTS_PHRASE": "._words:LEAD_COSTS",
    "LEAD_ITEMS_PHRASE": "._words:LEAD_ITEMS",
    "LEAD_PHRASES": "._words:LEAD",
    "PROPERTY_PHRASES": "._words:PROPERTY",
    "RELEVANT_PROPERTIES": "._screen:RELEVANT",
    "SENTENCE_END": "._screen",
    "SITUATION_PHRASES": "._words:SITUATION",
    "agree_verb": "._screen:agree",
    "avoid_reason": "._screen",
    "flatten_parentheses": "._screen:flatten",
    "join_words": "._screen:join",
    "lower_name": "._screen",
    "plain_formulas": "._plain",
    "property_words": "._screen",
    "reader_terms": "._plain",
    "situation": "._screen",
    "warning_words": "._screen",
    # the interactive questionnaire of ``advisor ask`` (its draft file) and what the data suggests
    "ask_questions": "._ask",
    "data_hints": "._ask",
    "structure_answers": "._ask",
    "draft_path": "._draft",
    "draft_text": "._draft",
    "inferred_answers": "._ask",
    "load_draft": "._draft",
    "remove_draft": "._draft",
    "summarize_data": "._infer:summarize",
    "wrap_for_terminal": "._ask",
    # tasks and metrics outside the catalogue's scope (issue 23)
    "external_metrics": "._scope",
    "out_of_scope_task": "._scope",
    "scope_notes": "._scope",
    "scope_sentences": "._scope",
    "scope_tasks": "._scope",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover
    from ._answers import QUESTIONS, Answers, ErrorCosts, Question, answers_from_mapping, answers_to_yaml, load_answers
    from ._conditions import DERIVED_FACTS
    from ._conditions import describe as describe_condition
    from ._conditions import holds as condition_holds
    from ._engine import recommend
    from ._fields import CommunityField, load_fields, plural, suggest_field
    from ._planned import Resolution, resolve_planned
    from ._recommendation import Advice, MetricChoice, RationaleEntry, Recommendation
    from ._rules import RuleBook, load_rules
    from ._screen import screen_columns, screen_width
    from ._structure_words import EXTERNAL
