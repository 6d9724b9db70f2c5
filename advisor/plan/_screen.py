"""The plan on one screen (``advisor recommend``) and in full (``--explain``).

The recommendation's own view (:mod:`advisor.questionnaire._screen`: the lead and why, what to report
beside it, what to avoid, warnings), then what the plan adds, in the reader's words (no answers keys):
where two answers pull apart and which one leads, every answer that changed nothing and why, and what
advisor does not evaluate.
"""

from __future__ import annotations

import textwrap
from typing import Any

from ..questionnaire import load_fields, scope_sentences, screen_columns
from ._models import AnswerUse, Plan

__all__ = ["ANSWER_WORDS", "plan_text", "unused_words"]

#: What each answer is, for the reader ("the class of interest"), never its key.
ANSWER_WORDS: dict[str, str] = {
    "task": "the kind of task", "n_classes": "the number of classes", "classes": "the class names",
    "positive_class": "the class of special interest", "deployment_prevalence": "the class mix in use",
    "target_prevalence": "the class shares in use", "class_weighting": "how the classes count",
    "class_weights": "the class weights", "f1_classes": "the classes F1 is averaged over",
    "chance_correction": "the wish for a fixed chance score",
    "symmetric": "interchangeable labelings", "distance": "the need for a true distance",
    "true_negatives_meaningful": "whether true negatives count", "error_costs": "the error costs",
    "strict_monotonicity": "that every corrected error must raise the score", "ranking": "ranking several systems",
    "test_set_balanced": "whether the test set is balanced", "probabilities": "probabilities being available",
    "outputs": "what the classifier outputs", "operating_point": "how the threshold is set",
    "risk_estimates": "the probabilities being used as risks", "planned_metrics": "the planned metric",
    "notes": "your note", "label_structure": "the kind of labels", "top_k": "the k of top-k accuracy",
    "annotators": "the number of annotators",
    "actions": "the actions the classes lead to", "action_of_interest": "the action whose miss is costly",
    "fallback_class": "the class whose prediction takes no action",
}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return f"“{value}”"
    return str(value)


def unused_words(use: AnswerUse) -> str:
    """One unused answer in words: what it is, its value and why it changed nothing."""
    value = use.value
    if use.key == "field" and value in load_fields():  # a field by its name, not its id
        value = load_fields()[value].name
    return f"{ANSWER_WORDS.get(use.key, use.key.replace('_', ' '))} ({_value(value)}): {use.unused}"


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)


def plan_text(plan: Plan, *, explain: bool = False) -> str:
    """The screen for ``plan``, laid out like the recommendation's own view (its width); ``explain`` adds the
    full reasoning, the duties and the sources."""
    rec = plan._rec
    width = screen_columns()
    body = rec.to_explain_text() if explain else rec.to_text()
    lines = body.rstrip("\n").split("\n")
    tail = [] if explain else lines[-1:]  # "advisor recommend --explain shows …" stays last
    lines = lines if explain else lines[:-1]
    acts = plan.diagnostic("action_rates")
    if acts is not None:  # the author's actions: whether the action is right, beside the class metrics
        lines.append("By action")
        lines += _wrap(action_words(acts.params.get("actions") or {}, acts.params.get("of_interest")), width)
    if plan.conflicts:
        lines.append("Where your answers pull apart")
        for c in plan.conflicts:
            lines += _wrap(c, width)
    if plan.unused:
        lines.append("Answers not used")
        for a in plan.unused:
            lines += _wrap(unused_words(a), width)
    suggestions = [w.message for w in plan.warnings if w.code == "field_suggested"]
    if suggestions:
        lines.append("Your field")
        for text in suggestions:
            lines += _wrap(text, width)
    return "\n".join([*scope_lines(plan, width), *lines, *tail]) + "\n"


def action_words(actions: dict[str, list[str]], interest: str | None) -> str:
    """What the report adds for classes grouped by action, in one line.

    >>> action_words({"referral": ["present", "unknown"], "no referral": ["absent"]}, "referral")
    'referral sensitivity and specificity: the confusion matrix collapsed to referral (present, unknown) and no referral (absent), so a class confused with another of the same action is no miss'
    """
    groups = " and ".join(f"{a} ({', '.join(cs)})" for a, cs in actions.items())
    what = (f"{interest} sensitivity and specificity" if interest is not None and len(actions) == 2
            else "the recall of each action")
    return (f"{what}: the confusion matrix collapsed to {groups}, so a class confused with another of the same action "
            "is no miss")


def scope_lines(plan: Plan, width: int) -> list[str]:
    """What advisor does not evaluate, first on the screen (issue 23, item 5): the task itself or a planned metric
    of another kind of task, each "advisor does not evaluate this; use …, because …"; with a classification lead
    below, a last line says which task that lead assumes."""
    if not plan.out_of_scope:
        return []
    lines = ["Not evaluated by advisor" if any(n.task != "partition_variant" for n in plan.out_of_scope)
             else "Not reported"]
    for sentence in scope_sentences(plan.out_of_scope):  # a task and the planned metrics of it: said once
        lines += _wrap(sentence, width)
    if plan.lead.family != "external" and any(n.task != "partition_variant" for n in plan.out_of_scope):
        lines += _wrap("The lead below scores one class per item; if the task is one of the above, it does not fit "
                       "and the tool named there does.", width)
    return lines
