"""The questionnaire and rule engine: from a user's situation to a justified metric choice.

It may import the catalogue, stats, io and the engine (to read what the data says) and the base
modules; never the report or the CLI.

>>> from advisor.questionnaire import Answers, QUESTIONS
>>> Answers(task="multiclass", n_classes=3).k
3
>>> [q.key for q in QUESTIONS][:3]
['task', 'n_classes', 'classes']
"""

from __future__ import annotations

from ._answers import QUESTIONS, Answers, ErrorCosts, Question, answers_to_yaml, load_answers
from ._engine import recommend
from ._recommendation import Advice, MetricChoice, RationaleEntry, Recommendation
from ._rules import load_rules

__all__ = [
    "QUESTIONS",
    "Advice",
    "Answers",
    "ErrorCosts",
    "MetricChoice",
    "Question",
    "RationaleEntry",
    "Recommendation",
    "answers_to_yaml",
    "load_answers",
    "load_rules",
    "recommend",
]
