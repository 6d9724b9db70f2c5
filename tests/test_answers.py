"""The questionnaire's answers: model, question metadata, answers files and their error sentences."""

from __future__ import annotations

import json
import typing

import pytest
import yaml

from advisor._exceptions import InputError
from advisor.catalogue._models import PROPERTY_IDS
from advisor.questionnaire import QUESTIONS, Answers, answers_to_yaml, load_answers
from advisor.questionnaire._answers import answers_from_mapping
from advisor.questionnaire._ask import ask_questions, parse_reply
from advisor.questionnaire._conditions import describe, holds

# Enter at the structure questions that come before the task (issue 23 item 6): label_structure, annotators,
# top_k, abstention, subgroups, group
STRUCTURE_DEFAULTS = [""] * 6

BY_KEY = {q.key: q for q in QUESTIONS}


# ----------------------------------------------------------------------------------------------
# Question metadata
# ----------------------------------------------------------------------------------------------
def test_questions_cover_exactly_the_answers_keys_in_order() -> None:
    assert sorted(BY_KEY) == sorted(Answers.model_fields)
    assert len(QUESTIONS) == len(BY_KEY)
    # the situation in the author's words comes first (issue 22), then what kind of evaluation this is
    # (issue 23 item 6: the structure before the flat-classification questions)
    assert [q.key for q in QUESTIONS[:4]] == ["context", "item_name", "field", "label_structure"]


def _plain(prop: str) -> str:
    """A property's name in words: 'Chance correction (PV)' → 'chance correction'."""
    from advisor.catalogue._render import LONG

    return LONG[prop].split(" (")[0].lower()


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: q.key)
def test_every_question_names_what_it_decides_and_has_a_valid_default(q) -> None:
    assert q.prompt and q.help and q.allowed
    assert set(q.decides) <= set(PROPERTY_IDS)
    for prop in q.decides:  # the help text names the property it decides — in plain words, not its id
        assert _plain(prop) in q.help.lower(), (q.key, prop)
    Answers.model_validate({q.key: q.default} if q.default is not None else {})
    field = Answers.model_fields[q.key]
    literal = [a for a in typing.get_args(field.annotation) if a is not type(None)] or [field.annotation]
    if q.choices:  # choices are exactly the allowed literal values
        assert tuple(q.choices) == typing.get_args(literal[0]) or tuple(q.choices) == typing.get_args(field.annotation)


def test_applies_when_conditions_skip_questions_that_do_not_apply() -> None:
    facts = Answers(task="binary").facts()
    assert not holds(BY_KEY["n_classes"].applies_when, facts)
    assert not holds(BY_KEY["true_negatives_meaningful"].applies_when, facts)  # no positive class
    facts = Answers(task="binary", positive_class="pos").facts()
    assert holds(BY_KEY["true_negatives_meaningful"].applies_when, facts)
    facts = Answers(task="binary", positive_class="pos", true_negatives_meaningful=False).facts()
    assert not holds(BY_KEY["class_weighting"].applies_when, facts)
    assert "symmetric = false" in describe(BY_KEY["deployment_prevalence"].applies_when)


# ----------------------------------------------------------------------------------------------
# The model
# ----------------------------------------------------------------------------------------------
def test_defaults_and_derived_facts() -> None:
    a = Answers()
    # chance_correction not answered is None (issue 19: "not answered" is not "preferred"); the questionnaire's
    # Enter still accepts "preferred" as an answer
    assert (a.task, a.deployment_prevalence, a.class_weighting, a.chance_correction) == (
        "multiclass", "unknown", "equal", None)
    assert a.k is None and a.facts()["multiclass"] is True
    b = Answers(n_classes=2)
    assert b.task == "binary" and b.k == 2  # two classes and no task: binary
    c = Answers(classes=["a", "b", "c"])
    assert c.task == "multiclass" and c.k == 3


def test_costs_from_pair_and_from_matrix() -> None:
    a = Answers(task="binary", positive_class="spam", error_costs={"false_negative": 9, "false_positive": 1})
    assert a.costs() == (9.0, 1.0) and a.cost_ratio() == 9.0
    # rows = true, columns = predicted; classes order: ham, spam; FN = true spam predicted ham
    m = Answers(task="binary", classes=["ham", "spam"], positive_class="spam",
                error_costs={"matrix": [[0, 1], [4, 0]]})
    assert m.costs() == (4.0, 1.0)
    assert m.facts()["has_cost_matrix"] is True


@pytest.mark.parametrize(
    ("data", "key", "fragment"),
    [
        ({"n_classes": 3, "classes": ["a", "b"]}, "n_classes", "must equal the number of classes"),
        ({"task": "binary", "n_classes": 3}, "task", "exactly 2 classes"),
        ({"task": "multiclass", "classes": ["a", "b"]}, "task", "binary"),
        ({"classes": ["a", "b"], "positive_class": "c"}, "positive_class", "one of the classes a, b"),
        ({"classes": ["a", "a"]}, "classes", "listed twice"),
        ({"target_prevalence": {"a": 0.5, "b": 0.6}}, "target_prevalence", "sum to 1"),
        ({"class_weighting": "custom"}, "class_weights", "give a mapping"),
        ({"class_weights": {"a": 1}}, "class_weights", "only with class_weighting: custom"),
        ({"error_costs": {"false_negative": 2}}, "error_costs.false_positive", "give both"),
        ({"error_costs": {"false_negative": -2, "false_positive": 1}}, "error_costs.false_negative", "positive number"),
        ({"classes": ["a", "b", "c"], "error_costs": {"matrix": [[0, 1], [1, 0]]}}, "error_costs.matrix", "3×3"),
        ({"n_classes": 3, "error_costs": {"matrix": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}}, "error_costs.matrix",
         "class names"),
        ({"task": "binary", "error_costs": {"false_negative": 5, "false_positive": 1}}, "error_costs",
         "positive class"),
        ({"n_classes": 4, "positive_class": None, "error_costs": {"false_negative": 5, "false_positive": 1}},
         "error_costs", "cost matrix"),
    ],
)
def test_inconsistent_answers_name_the_key_and_the_rule(data, key, fragment) -> None:
    with pytest.raises(InputError) as err:
        answers_from_mapping(data, "answers")
    msg = str(err.value)
    assert f"key {key!r}" in msg and fragment in msg
    assert msg.endswith(".") and "\n" not in msg


# ----------------------------------------------------------------------------------------------
# Answers files: round trip and malformed files (acceptance: one sentence, key, value, allowed)
# ----------------------------------------------------------------------------------------------
def _one_sentence(msg: str) -> None:
    assert "\n" not in msg and msg.endswith(".")
    assert "Traceback" not in msg and "validation error" not in msg.lower()


def test_yaml_and_json_files_round_trip(tmp_path) -> None:
    a = Answers(task="binary", classes=["neg", "pos"], positive_class="pos", true_negatives_meaningful=False,
                error_costs={"false_negative": 5, "false_positive": 1}, planned_metrics=["F1"], ranking=True)
    y = tmp_path / "a.yaml"
    y.write_text(answers_to_yaml(a), encoding="utf-8")
    assert load_answers(y) == a
    j = tmp_path / "a.json"
    j.write_text(json.dumps(a.to_file_dict()), encoding="utf-8")
    assert load_answers(j) == a
    assert list(yaml.safe_load(y.read_text())) == [k for k in BY_KEY if k in a.to_file_dict()]


def test_unknown_key_gets_one_sentence_with_key_value_and_close_match(tmp_path) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("task: multiclass\ndeploymnt_prevalence: shifted\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_answers(f)
    msg = str(err.value)
    _one_sentence(msg)
    assert str(f) in msg
    assert "unknown key 'deploymnt_prevalence'" in msg and "'shifted'" in msg
    assert "did you mean 'deployment_prevalence'" in msg
    assert "the allowed keys are context, item_name, field, label_structure, leaf_depth, annotators" in msg  # 23.6


def test_bad_value_gets_one_sentence_with_key_value_and_allowed_values(tmp_path) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("deployment_prevalence: sometimes\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_answers(f)
    msg = str(err.value)
    _one_sentence(msg)
    assert "key 'deployment_prevalence'" in msg and "'sometimes'" in msg
    assert "allowed: same, shifted or unknown" in msg


@pytest.mark.parametrize(
    ("text", "key", "value", "allowed"),
    [
        ("ranking: [1, 2]\n", "ranking", "[1, 2] (a list)", "true or false"),
        ("n_classes: three\n", "n_classes", "'three'", "an integer of at least 2"),
        ("error_costs: 5\n", "error_costs", "5 (an integer)", "false_negative and false_positive"),
        ("target_prevalence: {a: lots}\n", "target_prevalence.a", "'lots'", "a number ≥ 0"),
        ("classes: [a, [b]]\n", "classes[1]", '["b"] (a list)', "a class name"),
    ],
)
def test_wrong_type_gets_one_sentence_with_key_value_and_allowed(tmp_path, text, key, value, allowed) -> None:
    f = tmp_path / "a.yaml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_answers(f)
    msg = str(err.value)
    _one_sentence(msg)
    assert f"key {key!r}" in msg and value in msg and allowed in msg


def test_unreadable_files(tmp_path) -> None:
    bad = tmp_path / "a.yaml"
    bad.write_text("task: [binary\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid YAML at line"):
        load_answers(bad)
    lst = tmp_path / "b.yaml"
    lst.write_text("- task\n", encoding="utf-8")
    with pytest.raises(InputError, match="must be a mapping"):
        load_answers(lst)
    js = tmp_path / "c.json"
    js.write_text("{task: 1}", encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load_answers(js)
    empty = tmp_path / "d.yaml"
    empty.write_text("", encoding="utf-8")
    assert load_answers(empty) == Answers()


def test_several_problems_are_counted_not_listed() -> None:
    with pytest.raises(InputError) as err:
        answers_from_mapping({"n_classes": 1, "ranking": "x", "symmetric": "perhaps"})
    assert "(2 more problems after this one)" in str(err.value)


# ----------------------------------------------------------------------------------------------
# Parsing typed replies and the dialogue (no terminal)
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("task", "Bin", "binary"),
        ("task", "2", "multiclass"),
        ("class_weighting", "per instance", "per_instance"),
        ("symmetric", "Yes", True),
        ("test_set_balanced", "unknown", None),
        ("n_classes", "7", 7),
        ("classes", "cat, dog, 3", ["cat", "dog", 3]),
        ("positive_class", "none", None),
        ("target_prevalence", "a=0.7, b=30%", {"a": 0.7, "b": 0.3}),
        ("error_costs", "fn=5, fp=1", {"false_negative": 5.0, "false_positive": 1.0}),
        ("error_costs", "fp=2 fn=10", {"false_negative": 10.0, "false_positive": 2.0}),
        ("planned_metrics", "macro F1; MCC", ["macro F1", "MCC"]),
        ("planned_metrics", "none", []),
    ],
)
def test_parse_reply(key, raw, expected) -> None:
    assert parse_reply(BY_KEY[key], raw, {}) == expected


@pytest.mark.parametrize(
    ("key", "raw"),
    [("task", "banana"), ("symmetric", "maybe"), ("n_classes", "3.5"), ("error_costs", "fn=5"),
     ("target_prevalence", "a"), ("class_weighting", "e_x")],
)
def test_parse_reply_refuses_nonsense(key, raw) -> None:
    with pytest.raises(ValueError):
        parse_reply(BY_KEY[key], raw, {})


def test_positive_class_must_be_a_listed_class() -> None:
    with pytest.raises(ValueError, match="not one of the classes"):
        parse_reply(BY_KEY["positive_class"], "cow", {"classes": ["cat", "dog"]})


def _dialogue(replies: list[str], inferred=None):
    it = iter(replies)
    prompts: list[str] = []
    lines: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(it, "")

    return ask_questions(read, lines.append, inferred), prompts, lines


def test_dialogue_defaults_carry_through() -> None:
    answers, prompts, _ = _dialogue([])
    expected = {**Answers().model_dump(), "task": "multiclass", "chance_correction": "preferred"}  # Enter accepts it
    assert answers == Answers(**expected)
    asked = len(prompts)
    # error costs are asked for multi-class tasks too (a cost matrix; issue 11); operating_point and
    # risk_estimates only follow probability or score outputs
    assert asked == len([q for q in QUESTIONS if q.key not in (
        "true_negatives_meaningful", "target_prevalence", "class_weights", "operating_point", "risk_estimates",
        "fpr_budget", "review_share", "decision_thresholds",  # issue 21: asked only for binary scores
        "target_coverage", "reject_label", "target_risk",  # issue 23: asked only of a system that may abstain
        "judge",  # issue 22: asked only when annotators are compared
        "costlier_error",  # issue 22: asked only for two classes with a class of interest and no cost pair
        "tolerated_steps",  # issue 22: asked only for ordered classes
        "rater_columns",  # issue 22 (the essay reader): asked only for ordered classes
        "margin",  # asked only of a judge comparison or of subgroup gaps
        "f1_classes",  # issue 22: asked only in the SemEval sentiment field (F1^PN)
        "map_shares",  # a sample stratified by map class: asked only in the remote-sensing field
        "actions", "action_of_interest",  # classes grouped by action: asked only once the classes are named
        "leaf_depth",  # issue 22 (the taxonomy reader): asked only for a hierarchy of classes
        "folds",  # cross-validation folds: asked only once a unit (group) is named
        "subgroup_harm", "subgroup_descriptions",  # the tox readers: read in answers files, never asked
        "probabilities")])  # issue 23 item 6: merged into outputs, never asked


def test_dialogue_skips_what_does_not_apply_and_reasks_nonsense() -> None:
    answers, prompts, lines = _dialogue(
        ["", "", "", *STRUCTURE_DEFAULTS, "binary", "spam, ham, eggs", "ham, spam", "no", "no", "spam", "?", "no", "fn=4, fp=1"]
    )
    assert answers.task == "binary" and answers.classes == ["ham", "spam"]
    assert answers.positive_class == "spam" and answers.true_negatives_meaningful is False
    assert answers.cost_ratio() == 4.0
    assert any("exactly 2 classes" in line for line in lines)  # three classes for a binary task: re-asked
    assert any("I2ML slides" in line for line in lines)  # '?' showed the help
    assert not any("How many classes" in line for line in lines)  # n_classes skipped for binary
    assert not any("every class matter equally" in line for line in lines)  # weighting skipped: TNs meaningless


def test_dialogue_with_data_asks_to_confirm() -> None:
    inferred = {"task": "multiclass", "n_classes": 3, "classes": ["a", "b", "c"], "test_set_balanced": False}
    answers, prompts, lines = _dialogue([], inferred)
    assert answers.k == 3 and answers.classes == ["a", "b", "c"] and answers.test_set_balanced is False
    assert sum("The data shows" in line for line in lines) == 4
