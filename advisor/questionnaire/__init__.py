"""The questionnaire and rule engine: from a user's situation to a justified metric choice.

It may import the catalogue, stats, io and the engine (to read what the data says) and the base
modules; never the report or the CLI.

>>> from advisor.questionnaire import Answers, QUESTIONS
>>> Answers(task="multiclass", n_classes=3).k
3
>>> [q.key for q in QUESTIONS][:5]
['context', 'item_name', 'field', 'task', 'n_classes']
"""

from __future__ import annotations

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

__all__ = [
    "DERIVED_FACTS",
    "EXTERNAL",
    "QUESTIONS",
    "Advice",
    "Answers",
    "ErrorCosts",
    "MetricChoice",
    "Question",
    "RationaleEntry",
    "Recommendation",
    "Resolution",
    "RuleBook",
    "CommunityField",
    "answers_from_mapping",
    "answers_to_yaml",
    "condition_holds",
    "describe_condition",
    "load_answers",
    "load_fields",
    "load_rules",
    "plural",
    "recommend",
    "resolve_planned",
    "screen_columns",
    "screen_width",
    "suggest_field",
]
