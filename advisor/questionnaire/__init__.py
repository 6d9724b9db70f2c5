"""The questionnaire and rule engine: from a user's situation to a justified metric choice.

It may import the catalogue, stats, io and the engine (to read what the data says) and the base
modules; never the report or the CLI.

>>> from advisor.questionnaire import Answers, QUESTIONS
>>> Answers(task="multiclass", n_classes=3).k
3
>>> [q.key for q in QUESTIONS][:5]
['context', 'item_name', 'field', 'label_structure', 'leaf_depth']
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
    "PerClassReading": "._planned",
    "Resolution": "._planned",
    "RuleBook": "._rules",
    "CommunityField": "._fields",
    "BASELINE_THRESHOLDS": "._fields",
    "answers_from_mapping": "._answers",
    "answers_to_yaml": "._answers",
    "condition_holds": "._conditions:holds",
    "describe_condition": "._conditions:describe",
    "load_answers": "._answers",
    "load_fields": "._fields",
    "field_f1_classes": "._fields",
    "field_term_ids": "._fields",
    "load_rules": "._rules",
    "article": "._fields",
    "plural": "._fields",
    "ranked_pair": "._fields",
    "recommend": "._engine",
    "missing_input": "._engine",
    "per_class_reading": "._planned",
    "planned_per_class": "._planned",
    "resolve_planned": "._planned",
    "is_agreement_rate": "._planned",
    "screen_columns": "._screen",
    "screen_width": "._screen",
    "suggest_field": "._fields",
    "left_open_items": "._fields",
    "left_open_premises": "._fields",
    # the reader's words: the methods paragraph says the situation, reasons and warnings as the one-screen view does
    "ADDS_PHRASES": "._words:ADDS",
    "BACKQUOTED_FORMULA": "._plain:FORMULA",
    "AVOID_PHRASES": "._words:AVOID",
    "LEAD_COSTS_PHRASE": "._words:LEAD_COSTS",
    "LEAD_ITEMS_PHRASE": "._words:LEAD_ITEMS",
    "LEAD_PHRASES": "._words:LEAD",
    "PROPERTY_PHRASES": "._words:PROPERTY",
    "SET_ASIDE_PREFIX": "._words",
    "ranked_by_field": "._screen",
    "RELEVANT_PROPERTIES": "._screen:RELEVANT",
    "SENTENCE_END": "._screen",
    "SITUATION_PHRASES": "._words:SITUATION",
    "agree_verb": "._screen:agree",
    "avoid_reason": "._screen",
    "THRESHOLD_FREE": "._screen",
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


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._screen import ranked_by_field as ranked_by_field
    from ._words import SET_ASIDE_PREFIX as SET_ASIDE_PREFIX
    from ._ask import data_hints as data_hints
    from ._ask import structure_answers as structure_answers
    from ._answers import (
        Answers as Answers,
        ErrorCosts as ErrorCosts,
        QUESTIONS as QUESTIONS,
        Question as Question,
        answers_from_mapping as answers_from_mapping,
        answers_to_yaml as answers_to_yaml,
        load_answers as load_answers,
    )
    from ._ask import (
        ask_questions as ask_questions,
        inferred_answers as inferred_answers,
        wrap_for_terminal as wrap_for_terminal,
    )
    from ._conditions import DERIVED_FACTS as DERIVED_FACTS, holds as condition_holds, describe as describe_condition
    from ._draft import (
        draft_path as draft_path,
        draft_text as draft_text,
        load_draft as load_draft,
        remove_draft as remove_draft,
    )
    from ._engine import missing_input as missing_input, recommend as recommend
    from ._fields import (
        BASELINE_THRESHOLDS as BASELINE_THRESHOLDS,
        CommunityField as CommunityField,
        field_f1_classes as field_f1_classes,
        field_term_ids as field_term_ids,
        left_open_items as left_open_items,
        left_open_premises as left_open_premises,
        load_fields as load_fields,
        article as article,
        plural as plural,
        ranked_pair as ranked_pair,
        suggest_field as suggest_field,
    )
    from ._infer import summarize as summarize_data
    from ._plain import FORMULA as BACKQUOTED_FORMULA, plain_formulas as plain_formulas, reader_terms as reader_terms
    from ._planned import (
        PerClassReading as PerClassReading,
        Resolution as Resolution,
        is_agreement_rate as is_agreement_rate,
        per_class_reading as per_class_reading,
        planned_per_class as planned_per_class,
        resolve_planned as resolve_planned,
    )
    from ._recommendation import (
        Advice as Advice,
        MetricChoice as MetricChoice,
        RationaleEntry as RationaleEntry,
        Recommendation as Recommendation,
    )
    from ._rules import RuleBook as RuleBook, load_rules as load_rules
    from ._scope import (
        external_metrics as external_metrics,
        out_of_scope_task as out_of_scope_task,
        scope_notes as scope_notes,
        scope_sentences as scope_sentences,
        scope_tasks as scope_tasks,
    )
    from ._screen import (
        RELEVANT as RELEVANT_PROPERTIES,
        SENTENCE_END as SENTENCE_END,
        agree as agree_verb,
        THRESHOLD_FREE as THRESHOLD_FREE,
        avoid_reason as avoid_reason,
        flatten as flatten_parentheses,
        join as join_words,
        lower_name as lower_name,
        property_words as property_words,
        screen_columns as screen_columns,
        screen_width as screen_width,
        situation as situation,
        warning_words as warning_words,
    )
    from ._structure_words import EXTERNAL as EXTERNAL
    from ._words import (
        ADDS as ADDS_PHRASES,
        AVOID as AVOID_PHRASES,
        LEAD_COSTS as LEAD_COSTS_PHRASE,
        LEAD_ITEMS as LEAD_ITEMS_PHRASE,
        LEAD as LEAD_PHRASES,
        PROPERTY as PROPERTY_PHRASES,
        SITUATION as SITUATION_PHRASES,
    )
