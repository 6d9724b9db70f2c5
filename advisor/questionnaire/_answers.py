"""The questionnaire's answers (:class:`Answers`) and its questions (:data:`QUESTIONS`).

An answers file (YAML or JSON) uses exactly the keys of :class:`Answers`; anything else is refused
with one sentence that names the key, the value and what is allowed::

    task: multiclass
    n_classes: 3
    deployment_prevalence: unknown
    class_weighting: equal
    planned_metrics: [macro F1]

The questions themselves — prompt, "why this matters" help naming the property each decides,
allowed values, default and when they apply — are data in ``questions.yaml``.

>>> a = Answers(task="binary", positive_class="spam", error_costs={"false_negative": 4, "false_positive": 1})
>>> a.k, a.cost_ratio()
(2, 4.0)
"""

from __future__ import annotations

import difflib
import json
import math
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Union

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

from .._exceptions import InputError
from .._format import few_names
from .._jsonio import read_small_text
from ._answers_file import (  # noqa: F401 - _AnswersLoader is the draft reader's too
    MAX_ANSWERS_BYTES,
    MAX_DEPTH,
    MAX_DIGITS,
    _AnswersLoader,
    _AnswersTooBig,
    _json_int,
    _show,
    _unique_pairs,
)
from ._conditions import DERIVED_FACTS, validate_condition
from ._fields import load_fields
from ._planned import plans_f1, plans_nmi, plans_purity, plans_roc_auc

__all__ = [
    "QUESTIONS",
    "Answers",
    "ErrorCosts",
    "Question",
    "answers_from_mapping",
    "answers_to_yaml",
    "error_key",
    "error_sentence",
    "format_validation_error",
    "load_answers",
]

Label = Union[int, str]


class ErrorCosts(BaseModel):
    """Costs of the two binary errors, or a full cost matrix (rows true, columns predicted)."""

    model_config = ConfigDict(extra="forbid")

    false_negative: float | None = Field(None, gt=0, allow_inf_nan=False, description="cost of missing a positive")
    false_positive: float | None = Field(None, gt=0, allow_inf_nan=False, description="cost of a false alarm")
    matrix: list[list[float]] | None = Field(
        None, description="k×k costs, rows = true class, columns = predicted, in the order of `classes`"
    )

    @model_validator(mode="after")
    def _complete(self) -> ErrorCosts:
        pair = (self.false_negative is None, self.false_positive is None)
        if pair[0] != pair[1]:
            given = "false_negative" if pair[1] else "false_positive"
            missing = "false_positive" if pair[1] else "false_negative"
            raise PydanticCustomError(
                "answers",
                "only {given} is given; give both false_negative and false_positive (positive numbers)",
                {"key": f"error_costs.{missing}", "value": None, "given": given},
            )
        if (self.false_negative is not None and self.false_positive is not None
                and not 0 < self.false_negative / self.false_positive < math.inf):  # β = √ratio must exist
            raise PydanticCustomError(
                "answers", "the ratio false_negative / false_positive must be a finite positive number",
                {"key": "error_costs", "value": {"false_negative": self.false_negative,
                                                 "false_positive": self.false_positive}},
            )
        if pair[0] and self.matrix is None:
            raise PydanticCustomError(
                "answers",
                "give false_negative and false_positive, or a cost matrix under 'matrix'",
                {"key": "error_costs", "value": {}},
            )
        if self.matrix is not None:
            k = len(self.matrix)
            if k < 2 or any(len(row) != k for row in self.matrix):
                raise PydanticCustomError(
                    "answers", "the cost matrix must be square (k×k with k ≥ 2)",
                    {"key": "error_costs.matrix", "value": self.matrix},
                )
            if any(not math.isfinite(c) or c < 0 for row in self.matrix for c in row):
                raise PydanticCustomError(
                    "answers", "cost matrix entries must be finite numbers ≥ 0",
                    {"key": "error_costs.matrix", "value": self.matrix},
                )
        return self


class Answers(BaseModel):
    """A user's evaluation situation. Field names are the keys of an answers file."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    task: Literal["binary", "multiclass"] = "multiclass"
    n_classes: int | None = Field(None, ge=2)
    classes: list[Label] | None = None
    positive_class: Label | None = None
    deployment_prevalence: Literal["same", "shifted", "unknown"] = "unknown"
    target_prevalence: dict[Label, float] | None = None
    # the test sample was drawn stratified by the PREDICTED (map) class: each class's share of the whole population
    # predicted as it (its mapped-area share), the stratum weights of Olofsson et al. (2014)
    map_shares: dict[Label, float] | None = Field(None, description="the test sample was drawn stratified by the "
                                                  "predicted (map) class; the share of the whole population (the "
                                                  "mapped area) predicted as each class, summing to 1")
    # classes grouped by the action they lead to (a child classified "present" or "unknown" is referred): the
    # confusion matrix collapsed to actions, and the action whose miss is costly
    actions: dict[str, list[Label]] | None = Field(None, description="the action each class leads to: action name (a "
                                                   "noun such as referral) → the classes that lead to it")
    action_of_interest: str | None = Field(None, description="the action whose miss is costly (one of the actions)")
    # the class whose prediction takes no action (out-of-scope: the assistant asks to rephrase; a human takes over):
    # the wrong-action rate and the fallback rate split the errors by what they cost
    fallback_class: Label | None = Field(None, description="the class whose prediction takes no action (asks to "
                                         "rephrase, defers to a human); one of the classes")
    class_weighting: Literal["equal", "per_instance", "custom"] = "equal"
    class_weights: dict[Label, float] | None = None
    # issue 22: the classes a macro F1 is averaged over (F1^PN of the SemEval sentiment tasks: positive, negative)
    f1_classes: list[Label] | None = Field(None, description="the classes macro_f1_of_classes averages the per-class "
                                           "F1 over; the others still count as errors")
    # the classes (labels) whose errors the author names as costly ("a missed effusion delays treatment"): each gets
    # figures of its own beside the lead, and the methods paragraph says why in one sentence
    focus_classes: list[Label] | None = Field(None, description="the classes (labels) the context names as costly; "
                                              "each gets figures of its own beside the lead")
    # None: not answered — ranked as "preferred", but never stated as the author's wish (issue 19, item 12)
    chance_correction: Literal["required", "preferred", "not_needed"] | None = None
    symmetric: bool = False
    distance: bool = False
    true_negatives_meaningful: bool | None = None
    error_costs: ErrorCosts | None = None
    # issue 22: which error costs more when no ratio can be given (None: not answered; "unknown": asked, not known)
    costlier_error: Literal["missed", "false_alarm", "equal", "unknown"] | None = None
    strict_monotonicity: bool = False
    ranking: bool = False
    test_set_balanced: bool | None = None
    probabilities: bool = False
    outputs: Literal["labels", "probabilities", "scores"] | None = None
    operating_point: Literal["fixed", "open"] | None = None
    risk_estimates: bool = False
    planned_metrics: list[str] = Field(default_factory=list)
    notes: str | None = None
    # issue 22: the situation in the author's words
    context: str | None = Field(None, description="what is classified, for whom, what each error costs")
    item_name: str | None = Field(None, description="what one test item is: patient, tweet, claim")
    field: str | None = Field(None, description="the community whose customary figure is reported beside the lead")
    # issue 12: ordered classes, label sets, spans, rankings; top-k; agreement among annotators
    label_structure: Literal["nominal", "ordinal", "multilabel", "partition", "hierarchy", "spans", "ranking",
                             "detection", "segmentation", "regression", "generation"] = "nominal"
    # issue 22: ordered classes where an error of one step is tolerable (the raters' own disagreement)
    tolerated_steps: Literal[0, 1] | None = None
    top_k: int | None = Field(None, ge=1)
    # the taxonomy reader: every class at one depth of the tree, so hP = hR = hF = the mean per-level accuracy
    leaf_depth: int | None = Field(None, ge=1)
    annotators: int | None = Field(None, ge=2)
    # issue 22: an LLM judge (or a model) among the raters, compared with the humans
    judge: str | None = Field(None, description="the <name> of the rater_<name> column that is the judge (an LLM, a "
                                                "model) compared with the human raters")
    # issue 21: operating constraints and the risks at which users act
    fpr_budget: float | None = Field(None, description="the largest false positive rate acceptable in use")
    review_share: float | None = Field(None, description="the share of items that can be reviewed")
    decision_thresholds: list[float] | None = Field(None, description="the risks at which users act, increasing")
    # issue 23 item 2: selective prediction — the system may abstain on the items it is least sure of
    abstention: bool = Field(False, description="whether the system may abstain (defer, reject) on some items")
    target_coverage: float | None = Field(None, description="the share of the items the system is to answer, in (0, 1]")
    reject_label: Label | None = Field(None, description="the label the system writes when it abstains (not a class)")
    target_risk: float | None = Field(None, description="the largest error rate acceptable among the answers, in (0, 1)")
    # issue 20 item 3: the resampling unit — the column naming each item's unit (patient, document, …)
    group: str | None = Field(None, description="the column naming each item's unit (a patient, a document): "
                                                "the bootstrap resamples units, not items")
    # cross-validation folds (the speech-emotion reader: "is UAR pooled across the five folds or averaged over them?"):
    # the figures pool the folds' items; with data each fold's lead value, their mean and SD
    folds: str | None = Field(None, description="the column naming each item's cross-validation fold (a held-out "
                                                "session): figures pool the folds; each fold's lead value is given")
    # the training runs (seeds, initialisations) of each system: several are averaged, and resampled with the items
    # (Bouthillier et al. 2021); None: not answered, which is not one run
    runs: int | None = Field(None, ge=1, description="the training runs (seeds, initialisations) of each system")
    systems: int | None = Field(None, ge=1, description=(
        "how many systems are compared on the same test items; before data it decides how they are compared (the "
        "data's count holds once there are data)"))
    # issue 23 item 1: subgroups — the columns naming each item's subgroup (sex, site, …)
    subgroups: list[str] = Field(default_factory=list, description="the columns naming each item's subgroup")
    # the tox readers (Borkan et al. 2019; Dixon et al. 2018): which error within a subgroup is the harm the author
    # must rule out — its harmless items flagged ("false_alarm", the BPSN AUC's question), its harmful items missed
    # ("missed", the BNSP AUC's), or both; with the bias AUCs of scores, the AUC that answers it leads beside ROC AUC.
    # None: not answered (no subgroup figure leads)
    subgroup_harm: Literal["false_alarm", "missed", "both", "unknown"] | None = Field(
        None, description="the error within a subgroup that is the harm to rule out: its harmless items flagged "
                          "(false_alarm), its harmful items missed (missed), both, or unknown")
    # the author's words for the groups of each subgroup column (the tox reader: a quoted column name reads as tool
    # language), said in place of "each value of “identity_mentioned”"; never made up from the column's name
    subgroup_descriptions: dict[str, str] = Field(default_factory=dict, description=(
        "for each subgroup column, the author's words for the groups it splits the items into, as they follow "
        "'separately for' (e.g. 'comments that mention an identity and those that do not')"))
    # issue 22 (the essay reader): the individual human scores beside the resolved score in y_true, so that the
    # machine is read against the raters' agreement with each other (Williamson et al. 2012)
    rater_columns: list[str] = Field(default_factory=list, description=(
        "the columns of the prediction files holding each human rater's own score (at least two), beside the "
        "resolved score in y_true"))
    # a claim of sameness needs a margin fixed in advance (Walker & Nowacki 2011): the largest difference the author
    # calls negligible, in the units of the figure compared — the Δ of the judge's lead agreement figure, each gap
    # across subgroups. None: not answered; "unknown": the author fixed none (both: the figures are descriptive)
    margin: float | Literal["unknown"] | None = Field(
        None, description="the largest difference called negligible, fixed in advance, in the units of the figure "
                          "compared (the judge's Δ, each subgroup gap), or unknown")

    # -- validation --------------------------------------------------------------------------
    @model_validator(mode="before")
    @classmethod
    def _infer_task(cls, data: Any) -> Any:
        """A file that gives two classes but no task is a binary task (three or more: multiclass)."""
        if isinstance(data, Mapping) and data.get("task") is None:
            n = data.get("n_classes")
            classes = data.get("classes")
            count = n if isinstance(n, int) and not isinstance(n, bool) else (
                len(classes) if isinstance(classes, list) else None
            )
            if count is not None:
                data = {**data, "task": "binary" if count == 2 else "multiclass"}
            elif "task" in data:  # explicit null: the default
                data = {k: v for k, v in data.items() if k != "task"}
        if isinstance(data, Mapping) and data.get("annotators") is not None and "symmetric" not in data:
            data = {**data, "symmetric": True}  # annotators compared without a gold standard are exchangeable
        return data

    @field_validator("classes")
    @classmethod
    def _distinct(cls, v: list[Label] | None) -> list[Label] | None:
        if v is None:
            return v
        if len(v) < 2:
            raise PydanticCustomError("answers", "give at least two classes", {"key": "classes", "value": v})
        seen: set[str] = set()
        for x in v:
            if str(x) in seen:
                raise PydanticCustomError(
                    "answers", "class {dup} is listed twice; class names must be distinct",
                    {"key": "classes", "value": v, "dup": repr(x)},
                )
            seen.add(str(x))
        return v

    @field_validator("context", "item_name", "field", "group", "folds", "judge", "action_of_interest", mode="before")
    @classmethod
    def _words(cls, v: Any, info: Any) -> Any:
        if isinstance(v, str):
            v = " ".join(v.split())
            if not v or v.lower() in ("none", "null"):
                return None
        return v

    @field_validator("context")
    @classmethod
    def _context(cls, v: str | None) -> str | None:
        if v is not None and len(v) > 600:
            raise PydanticCustomError("answers", "the context is {n} characters; say it in at most 600 (a sentence "
                                      "or two)", {"key": "context", "value": v, "n": len(v)})
        return v

    @field_validator("item_name")
    @classmethod
    def _item(cls, v: str | None) -> str | None:
        if v is not None and (len(v) > 40 or len(v.split()) > 4 or not re.fullmatch(r"[^\W\d_][\w' -]*", v)):
            raise PydanticCustomError("answers", "give a noun for one test item, e.g. patient, tweet or claim (at "
                                      "most four words)", {"key": "item_name", "value": v})
        return v

    @field_validator("judge")
    @classmethod
    def _judge(cls, v: str | None) -> str | None:
        if v is not None and (len(v) > 80 or not re.fullmatch(r"[^\s,]+", v)):
            raise PydanticCustomError("answers", "give the <name> of the judge's rater_<name> column (one word of at "
                                      "most 80 characters, e.g. llm), or null", {"key": "judge", "value": v})
        return v

    @field_validator("field")
    @classmethod
    def _field(cls, v: str | None) -> str | None:
        if v is not None and v not in load_fields():
            raise PydanticCustomError("answers", "it is not a field advisor knows; the fields are {known}, or null",
                                      {"key": "field", "value": v, "known": ", ".join(load_fields())})
        return v

    @field_validator("margin", mode="before")
    @classmethod
    def _margin(cls, v: Any) -> Any:
        """A margin is a number strictly between 0 and 1 in the units of the figure compared, or "unknown"; one
        sentence otherwise (a negative margin, a percentage written as 5)."""
        if isinstance(v, str) and v.strip().lower() in ("unknown", "none", "null", "not known", "no margin"):
            return None if v.strip().lower() in ("none", "null") else "unknown"
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            if v is None:
                return v
            raise PydanticCustomError("answers", "a margin is a number strictly between 0 and 1 in the units of the "
                                      "figure compared (e.g. 0.05), or unknown", {"key": "margin", "value": v})
        if not (math.isfinite(v) and 0.0 < v < 1.0):
            why = ("a margin is the size of a difference called negligible, so it is positive (e.g. 0.05); the "
                   "direction of the comparison is set by the question" if math.isfinite(v) and v <= 0 else
                   "a margin is in the units of the figure compared, strictly between 0 and 1 (e.g. 0.05, not 5)")
            raise PydanticCustomError("answers", why, {"key": "margin", "value": v})
        return float(v)

    @field_validator("runs", mode="before")
    @classmethod
    def _runs(cls, v: Any) -> Any:
        """A count of training runs is a whole number: ``true`` is not one run (pydantic would read it as 1)."""
        if isinstance(v, bool):
            raise PydanticCustomError("answers", "give the number of training runs of each system as a whole number "
                                      "of at least 1, or null", {"key": "runs", "value": v})
        return v

    @field_validator("planned_metrics", mode="before")
    @classmethod
    def _one_name(cls, v: Any) -> Any:
        if v is None:
            return []
        if isinstance(v, str):  # a single name is a list of one
            return [v]
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Answers:
        k = self.k
        if self.n_classes is not None and self.classes is not None and self.n_classes != len(self.classes):
            _fail("n_classes", self.n_classes, f"it must equal the number of classes listed ({len(self.classes)})")
        if self.task == "binary" and k is not None and k != 2:
            _fail("task", self.task, f"a binary task has exactly 2 classes, but {k} are given; use multiclass")
        if self.task == "multiclass" and k is not None and k < 3:
            _fail("task", self.task, "a task with 2 classes is binary; use binary")
        if self.positive_class is not None and self.classes is not None and not self._known(self.positive_class):
            _fail("positive_class", self.positive_class, "it must be one of the classes " + _names(self.classes) + ", or null")
        if self.fallback_class is not None:
            if self.classes is not None and not self._known(self.fallback_class):
                _fail("fallback_class", self.fallback_class, "it must be one of the classes " + _names(self.classes)
                      + ", or null")
            if self.label_structure != "nominal":
                _fail("fallback_class", self.fallback_class, "a class that takes no action is one of single-label "
                      f"classes (label_structure: nominal, not {self.label_structure})")
        for key in ("target_prevalence", "class_weights"):
            mapping = getattr(self, key)
            if mapping is None:
                continue
            for cls_, w in mapping.items():
                if not math.isfinite(w) or w < 0:
                    _fail(f"{key}.{cls_}", w, "shares and weights must be finite numbers ≥ 0")
                if self.classes is not None and not self._known(cls_):
                    _fail(key, {str(c): v for c, v in mapping.items()}, "its keys must be among the classes " + _names(self.classes))
            if not mapping or sum(mapping.values()) <= 0:
                _fail(key, dict(mapping), "give at least one class with a positive value")
        if self.target_prevalence is not None and abs(sum(self.target_prevalence.values()) - 1.0) > 1e-3:
            total = sum(self.target_prevalence.values())
            _fail("target_prevalence", {str(c): v for c, v in self.target_prevalence.items()},
                  f"the shares must sum to 1 (they sum to {total:g})")
        self._map_shares_consistent()
        self._actions_consistent()
        if self.class_weighting == "custom" and self.class_weights is None:
            _fail("class_weights", None, "class_weighting is custom, so give a mapping of class name to weight")
        if self.class_weights is not None and self.class_weighting != "custom":
            _fail("class_weights", {str(c): v for c, v in self.class_weights.items()},
                  f"class weights are used only with class_weighting: custom (it is {self.class_weighting})")
        self._f1_classes_consistent()
        self._focus_classes_consistent()
        self._structure_consistent(k)
        self._constraints_consistent()
        self._abstention_consistent()
        self._subgroups_consistent()
        costs = self.error_costs
        if costs is not None and costs.false_negative is not None:
            if self.task != "binary" or (k is not None and k != 2):
                _fail("error_costs", costs.model_dump(exclude_none=True),
                      "false_negative and false_positive are the errors of a two-class task; with several classes "
                      "give a cost matrix under 'matrix' (rows = true class, columns = predicted)")
            if self.positive_class is None:
                _fail("error_costs", costs.model_dump(exclude_none=True),
                      "a false negative and a false positive need the positive class; name it with positive_class")
        if costs is not None and costs.matrix is not None and self.classes is None:
            _fail("error_costs.matrix", costs.matrix, "a cost matrix needs the class names under 'classes', in the "
                  "order of its rows and columns")
        if costs is not None and costs.matrix is not None and k is not None and len(costs.matrix) != k:
            _fail("error_costs.matrix", costs.matrix, f"the cost matrix must be {k}×{k}, one row and column per class")
        return self

    def _map_shares_consistent(self) -> None:
        """A sample stratified by map class: a share of the mapped area for every class named, summing to 1."""
        shares = self.map_shares
        if shares is None:
            return
        shown = {str(c): v for c, v in shares.items()}
        if self.classes is None:
            _fail("map_shares", shown, "the shares are given by class, so name the classes under 'classes'")
        for cls_, v in shares.items():
            if not self._known(cls_):
                _fail("map_shares", shown, f"{str(cls_)!r} is not a class; the classes are " + _names(self.classes or []))
            if not math.isfinite(v) or v < 0:
                _fail(f"map_shares.{cls_}", v, "a share of the mapped area must be a finite number ≥ 0")
        missing = [c for c in self.classes or [] if str(c) not in shown]
        if missing:
            _fail("map_shares", shown, f"give the mapped share of every class ({str(missing[0])!r} has none; 0 for "
                  "a class the map never shows)")
        total = sum(shares.values())
        if abs(total - 1.0) > 1e-3:
            _fail("map_shares", shown, f"the shares of the mapped area must sum to 1 (they sum to {total:g})")
        if self.label_structure != "nominal":
            _fail("map_shares", shown, "a sample stratified by map class is evaluated for single-label classes "
                  f"(label_structure: nominal, not {self.label_structure})")

    def _actions_consistent(self) -> None:
        """Classes grouped by action: every class in exactly one action, at least two actions, one of which groups
        several classes (else the actions are the classes); the action of interest is one of them."""
        acts, interest = self.actions, self.action_of_interest
        if acts is None:
            if interest is not None:
                _fail("action_of_interest", interest, "an action of interest is one of the actions, so give "
                      "'actions' (action name → the classes that lead to it) with it")
            return
        shown = {str(a): [str(c) for c in cs] for a, cs in acts.items()}
        if self.classes is None:
            _fail("actions", shown, "the actions group classes, so name the classes under 'classes'")
        if self.label_structure != "nominal":
            _fail("actions", shown, "classes are grouped by action for single-label classes (label_structure: "
                  f"nominal, not {self.label_structure})")
        if len(acts) < 2:
            _fail("actions", shown, "give at least two actions, each with the classes that lead to it")
        names = [" ".join(str(a).split()) for a in acts]
        if any(not n or len(n) > 40 or len(n.split()) > 4 for n in names):
            _fail("actions", shown, "every action needs a name of at most four words, such as referral")
        if len({n.lower() for n in names}) != len(names):
            _fail("actions", shown, "an action is named twice; give each action once")
        seen: dict[str, str] = {}
        for action, classes in acts.items():
            if not classes:
                _fail(f"actions.{action}", [], "name at least one class that leads to this action")
            for c in classes:
                if not self._known(c):
                    _fail(f"actions.{action}", [str(x) for x in classes], f"{str(c)!r} is not a class; the classes "
                          "are " + _names(self.classes or []))
                if str(c) in seen:
                    _fail("actions", shown, f"class {str(c)!r} leads to both {seen[str(c)]!r} and {str(action)!r}; "
                          "each class leads to exactly one action")
                seen[str(c)] = str(action)
        missing = [c for c in self.classes or [] if str(c) not in seen]
        if missing:
            _fail("actions", shown, f"class {str(missing[0])!r} leads to no action; name the action of every class")
        if all(len(cs) == 1 for cs in acts.values()):
            _fail("actions", shown, "each class leads to an action of its own, so the actions add nothing to the "
                  "classes; group the classes that lead to the same action")
        if interest is not None and not any(str(interest) == str(a) for a in acts):
            _fail("action_of_interest", interest, "it must be one of the actions "
                  + ", ".join(repr(str(a)) for a in acts) + ", or null")

    def _structure_consistent(self, k: int | None) -> None:
        """Issue 12 keys: top_k within the classes, annotators without a gold standard."""
        if self.top_k is not None and k is not None and self.top_k > k:
            _fail("top_k", self.top_k, f"it must be at most the number of classes ({k})")
        if self.top_k is not None and self.label_structure not in ("nominal", "ordinal"):
            _fail("top_k", self.top_k, f"top-k accuracy scores one true class per item; label_structure is "
                  f"{self.label_structure}")
        if self.leaf_depth is not None and self.label_structure != "hierarchy":
            _fail("leaf_depth", self.leaf_depth, f"it is the depth of the classes in a taxonomy; label_structure is "
                  f"{self.label_structure}, not hierarchy")
        if self.annotators is not None and not self.symmetric:
            _fail("symmetric", self.symmetric, "annotators compared without a gold standard are exchangeable, so "
                  "symmetric must be true")
        if self.judge is not None and self.annotators is None:
            _fail("judge", self.judge, "a judge is compared with human raters, so the answers must give annotators "
                  "(the number of rater_<name> columns, the judge's included: at least 2)")

    def _constraints_consistent(self) -> None:
        """Issue 21 keys: budgets are shares strictly between 0 and 1, thresholds increasing inside (0, 1)."""
        for key in ("fpr_budget", "review_share"):
            v = getattr(self, key)
            if v is not None and not (math.isfinite(v) and 0.0 < v < 1.0):
                _fail(key, v, "it must be a share strictly between 0 and 1 (e.g. 0.05)")
        t = self.decision_thresholds
        if t is not None:
            if not t:
                _fail("decision_thresholds", t, "give at least one risk threshold, or leave the key out")
            for i, v in enumerate(t):
                if not (math.isfinite(v) and 0.0 < v < 1.0):
                    _fail("decision_thresholds", t, f"every threshold must be strictly between 0 and 1 ({v:g} is not)")
                if i and v <= t[i - 1]:
                    _fail("decision_thresholds", t, f"the thresholds must increase ({v:g} follows {t[i - 1]:g})")
            if len(t) > 50:
                _fail("decision_thresholds", t, "give at most 50 thresholds")
        binary_scores = self.task == "binary"
        for key in ("fpr_budget", "review_share", "decision_thresholds"):
            if getattr(self, key) is not None and not binary_scores:
                _fail(key, getattr(self, key), "an operating constraint or decision threshold applies to the scores "
                      "of a binary task (task: binary)")

    def _f1_classes_consistent(self) -> None:
        chosen = self.f1_classes
        if chosen is None:
            return
        if not chosen:
            _fail("f1_classes", chosen, "name at least one class to average the F1 over (F1^PN: positive, negative)")
        if len({str(c) for c in chosen}) != len(chosen):
            _fail("f1_classes", chosen, "a class is named twice; name each class to average over once")
        unknown = [c for c in chosen if self.classes is not None and not self._known(c)]
        if unknown:
            _fail("f1_classes", chosen, f"{unknown[0]!r} is not a class; each must be one of the classes "
                  + _names(self.classes or []))

    def _focus_classes_consistent(self) -> None:
        """The classes the author names as costly: at least one, each a declared class (or label) named once."""
        chosen = self.focus_classes
        if chosen is None:
            return
        what = "label" if self.label_structure == "multilabel" else "class"
        if not chosen:
            _fail("focus_classes", chosen, f"name at least one {what} whose errors matter most, or leave it out")
        if self.classes is None:
            kinds = "classes" if what == "class" else "labels"
            _fail("focus_classes", chosen, f"each must be one of the declared {kinds}, and none are listed; list them "
                  "under classes")
        unknown = [c for c in chosen if not self._known(c)]
        if unknown:
            _fail("focus_classes", chosen, f"{unknown[0]!r} is not a declared {what}; each must be one of "
                  + _names(self.classes or []))
        if len({str(c) for c in chosen}) != len(chosen):
            _fail("focus_classes", chosen, f"a {what} is named twice; name each once")

    def _subgroups_consistent(self) -> None:
        """Subgroup columns: named, each once (issue 23 item 1); rater columns likewise, at least two, of a task
        with one true class per item and no annotators compared without a reference (issue 22)."""
        cols = self.subgroups
        if any(not str(c).strip() for c in cols):
            _fail("subgroups", cols, "every subgroup column needs a name")
        if len(set(cols)) != len(cols):
            _fail("subgroups", cols, "a subgroup column is named twice; give each once")
        said = self.subgroup_descriptions
        for col, words in said.items():  # the author's words for a column's groups, a few words (those of a column
            # not among the subgroups are not read: a situation may drop a column and keep its words)
            if not str(words).strip() or len(str(words)) > 120 or any(ch in str(words) for ch in "\n\r$`"):
                _fail(f"subgroup_descriptions.{col}", words, "give a short phrase in plain words (at most 120 "
                      "characters, one line)")
        raters = self.rater_columns
        if not raters:
            return
        if any(not str(c).strip() for c in raters) or len(set(map(str, raters))) != len(raters):
            _fail("rater_columns", raters, "every rater column needs a name, each given once")
        if len(raters) < 2:
            _fail("rater_columns", raters, "the raters' agreement with each other needs at least two rater columns")
        if self.label_structure != "ordinal" or self.annotators is not None:
            # the baseline's figures (adjacent agreement, the quadratically weighted kappa) need ordered scores
            _fail("rater_columns", raters, "rater columns give the human scores behind the resolved score in y_true, "
                  "on ordered classes (label_structure: ordinal), whose adjacent agreement and weighted kappa the "
                  "baseline reads; annotators compared without a reference use rater_<name> columns and annotators "
                  "instead")
        clash = [c for c in raters if c in (self.group, *self.subgroups)]
        if clash:
            _fail("rater_columns", raters, f"{clash[0]!r} is also the group or a subgroup column; a rater column "
                  "holds scores")

    def _abstention_consistent(self) -> None:
        """Issue 23 item 2: a target coverage is a share of the items answered, in (0, 1], of a system that abstains;
        a reject label is no class."""
        r = self.reject_label
        if r is not None:
            if not self.abstention:
                _fail("reject_label", r, "a reject label marks the items a system abstains on; give abstention: true "
                      "with it")
            if self._known(r):
                _fail("reject_label", r, "the reject label is also one of the classes; a system's abstention must be "
                      "a label no item has as its truth")
        t = self.target_risk
        if t is not None:
            if not (math.isfinite(t) and 0.0 < t < 1.0):
                _fail("target_risk", t, "it must be an error rate strictly between 0 and 1 (e.g. 0.02)")
            if not self.abstention:
                _fail("target_risk", t, "a target risk is the error rate a system that may abstain keeps among its "
                      "answers; give abstention: true with it")
        c = self.target_coverage
        if c is None:
            return
        if not (math.isfinite(c) and 0.0 < c <= 1.0):
            _fail("target_coverage", c, "it must be a share of the items answered, greater than 0 and at most 1 "
                  "(e.g. 0.8)")
        if not self.abstention:
            _fail("target_coverage", c, "a target coverage is the share answered by a system that may abstain; "
                  "give abstention: true with it")
        if self.label_structure != "nominal":
            _fail("abstention", self.abstention, "selective prediction is evaluated for single-label classes "
                  "(label_structure: nominal)")

    def _known(self, label: Any) -> bool:
        return self.classes is not None and any(str(label) == str(c) for c in self.classes)

    # -- derived quantities -------------------------------------------------------------------
    @property
    def k(self) -> int | None:
        """Number of classes if known (2 for a binary task)."""
        if self.n_classes is not None:
            return self.n_classes
        if self.classes is not None:
            return len(self.classes)
        return 2 if self.task == "binary" else None

    def action_classes(self) -> list[Label] | None:
        """The classes that lead to the action of interest, with two actions and that action named (the group
        ``action_sensitivity`` and ``action_specificity`` take); None otherwise.

        >>> Answers(classes=["present", "unknown", "absent"], actions={"referral": ["present", "unknown"],
        ...         "no referral": ["absent"]}, action_of_interest="referral").action_classes()
        ['present', 'unknown']
        """
        acts, interest = self.actions or {}, self.action_of_interest
        if interest is None or len(acts) != 2:
            return None
        return next((list(cs) for a, cs in acts.items() if str(a) == str(interest)), None)

    def action_metric_name(self, metric_id: str, name: str) -> str:
        """The sensitivity and specificity of an action named by the action ("Referral sensitivity"); any other
        metric keeps ``name``.

        >>> Answers(classes=["present", "unknown", "absent"], actions={"referral": ["present", "unknown"],
        ...         "no referral": ["absent"]}, action_of_interest="referral").action_metric_name(
        ...         "action_sensitivity", "Sensitivity of an action")
        'Referral sensitivity'
        """
        if metric_id not in ("action_sensitivity", "action_specificity") or not self.action_classes():
            return name
        act = str(self.action_of_interest)
        return f"{act[:1].upper()}{act[1:]} {metric_id.removeprefix('action_')}"

    def costs(self) -> tuple[float, float] | None:
        """``(cost_FN, cost_FP)`` for a binary task, from the pair or from a 2×2 cost matrix."""
        c = self.error_costs
        if c is None:
            return None
        if c.false_negative is not None and c.false_positive is not None:
            return c.false_negative, c.false_positive
        if (
            c.matrix is not None and len(c.matrix) == 2 and self.positive_class is not None
            and self.classes is not None
        ):
            pos = next(i for i, x in enumerate(self.classes) if str(x) == str(self.positive_class))
            neg = 1 - pos
            fn, fp = c.matrix[pos][neg], c.matrix[neg][pos]
            if fn > 0 and fp > 0:
                return float(fn), float(fp)
        return None

    def cost_ratio(self) -> float | None:
        """``cost_FN / cost_FP`` (None without binary costs)."""
        pair = self.costs()
        return None if pair is None else pair[0] / pair[1]

    def label_scores(self) -> bool:
        """Whether each label of a multi-label item has a score: the outputs say so (scores or probabilities), or
        they are unanswered and the author planned a ROC AUC — planning it says the scores exist."""
        if self.label_structure != "multilabel":
            return False
        outputs = self.outputs or ("probabilities" if self.probabilities else None)
        if outputs is not None:
            return outputs in ("scores", "probabilities")
        return any(plans_roc_auc(str(n)) for n in self.planned_metrics)

    def label_cut_open(self) -> bool:
        """Whether a multi-label item's labels are scored and no answer fixes where a score becomes a label (neither
        ``operating_point: fixed`` nor ``decision_thresholds``): every label decision is then taken at a conventional
        cut that no answer chose, and no thresholded figure is a result (the CheXpert reader, issue 22).

        >>> Answers(label_structure="multilabel", planned_metrics=["AUROC"]).label_cut_open()
        True
        >>> Answers(label_structure="multilabel", outputs="scores", operating_point="fixed").label_cut_open()
        False
        """
        return self.label_scores() and self.operating_point != "fixed" and not self.decision_thresholds

    def facts(self) -> dict[str, Any]:
        """The answers plus the derived facts rules and questions are conditioned on."""
        out = self.model_dump(mode="json")
        k = self.k
        costs = self.error_costs
        if self.costs() is not None or (costs is not None and costs.matrix is not None):
            if self.model_fields_set and "class_weighting" not in self.model_fields_set:
                out["class_weighting"] = None  # the costs weigh the classes; the default is not the author's word
        out.update(
            k=k,
            multiclass=self.task == "multiclass" or (k is not None and k >= 3),
            has_positive_class=self.positive_class is not None,
            tn_meaningful=self.true_negatives_meaningful is not False,
            has_costs=self.costs() is not None,
            # `probabilities: true` (the older key) means outputs: probabilities, and outputs: probabilities means
            # the probabilities are there: the rules that read either key (log loss and the Brier score beside the
            # decision metrics) fire on both, as they do with data that hold the probabilities
            outputs=self.outputs or ("probabilities" if self.probabilities else None),
            probabilities=self.probabilities or self.outputs == "probabilities",
            cost_ratio=self.cost_ratio(),
            has_cost_matrix=costs is not None and costs.matrix is not None,
            has_target_prevalence=self.target_prevalence is not None,
            has_map_shares=self.map_shares is not None,
            # the author said which classes lead to which action and which action's miss is costly
            has_action_of_interest=bool(self.actions) and self.action_of_interest is not None,
            n_actions=len(self.actions) if self.actions else None,
            has_fallback_class=self.fallback_class is not None,
            has_planned=bool(self.planned_metrics),
            label_scores=self.label_scores(),
            label_cut_open=self.label_cut_open(),
            planned_f1=any(plans_f1(str(n)) for n in self.planned_metrics),
            planned_nmi=any(plans_nmi(str(n)) for n in self.planned_metrics),
            planned_purity=any(plans_purity(str(n)) for n in self.planned_metrics),
            has_fpr_budget=self.fpr_budget is not None,
            has_review_budget=self.review_share is not None,
            has_decision_thresholds=bool(self.decision_thresholds),
            has_target_coverage=self.target_coverage is not None,
            has_target_risk=self.target_risk is not None,
            imbalanced=None if self.test_set_balanced is None else not self.test_set_balanced,
            has_data=False,
            n_systems=None,
        )
        return out

    def to_file_dict(self) -> dict[str, Any]:
        """JSON-ready answers in question order: only the answers given (a question that was skipped or never
        asked writes nothing, so its default never reads as the author's answer), leaving out null and empty."""
        raw = self.model_dump(mode="json", exclude_none=True)
        order = [q.key for q in QUESTIONS]
        given = self.model_fields_set | {"task"} if self.model_fields_set else set(order)
        out = {key: raw[key] for key in order if key in raw and raw[key] != [] and key in given}
        if "error_costs" in out:
            out["error_costs"] = {k: v for k, v in out["error_costs"].items() if v is not None}
        return out


def _names(labels: list[Any]) -> str:
    return few_names(labels)


def _fail(key: str, value: Any, why: str) -> None:
    raise PydanticCustomError("answers", why, {"key": key, "value": value})


# ----------------------------------------------------------------------------------------------
# Questions (data in questions.yaml)
# ----------------------------------------------------------------------------------------------
Kind = Literal["choice", "bool", "int", "labels", "label", "shares", "weights", "costs", "names", "text", "share",
               "numbers", "coverage", "actions", "margin"]


class Question(BaseModel):
    """One question of the questionnaire."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    prompt: str
    help: str
    decides: list[str]
    kind: Kind
    choices: list[str] = Field(default_factory=list)
    default: Any = None
    applies_when: dict[str, Any] | None = None
    asked: bool = True  # False: read in answers files, never asked (merged into another question)
    allowed: str

    @model_validator(mode="after")
    def _check(self) -> Question:
        if self.key not in Answers.model_fields:
            raise ValueError(f"question {self.key!r} is not a key of Answers")
        facts = set(Answers.model_fields) | set(DERIVED_FACTS)
        validate_condition(self.applies_when, facts, f"question {self.key}: applies_when")
        return self


@lru_cache(maxsize=1)
def _load_questions() -> tuple[Question, ...]:
    text = resources.files(__package__).joinpath("questions.yaml").read_text(encoding="utf-8")
    questions = tuple(Question.model_validate(q) for q in yaml.safe_load(text))
    keys = [q.key for q in questions]
    missing = set(Answers.model_fields) - set(keys)
    if missing or len(keys) != len(set(keys)):  # pragma: no cover - guarded by tests
        raise RuntimeError(f"questions.yaml must ask every answers key once; missing {sorted(missing)}")
    return questions


QUESTIONS: tuple[Question, ...] = _load_questions()
_BY_KEY = {q.key: q for q in QUESTIONS}
_COST_KEYS = tuple(ErrorCosts.model_fields)


# ----------------------------------------------------------------------------------------------
# Loading and error sentences
# ----------------------------------------------------------------------------------------------
_TYPE_ERRORS = {
    "bool_parsing", "bool_type", "int_parsing", "int_type", "int_from_float", "float_parsing",
    "float_type", "string_type", "list_type", "dict_type", "model_type", "model_attributes_type",
    "literal_error", "enum", "greater_than", "greater_than_equal", "finite_number", "missing",
}


_WRONG_TYPE = {t for t in _TYPE_ERRORS if t.endswith(("_type", "_parsing"))} | {"int_from_float"}
_KIND_NAMES = {
    "NoneType": "null", "dict": "a mapping", "list": "a list", "int": "an integer", "float": "a number",
    "bool": "a boolean", "str": "a string",
}


def _key_of(loc: tuple[Any, ...]) -> str:
    """``('classes', 0, 'str')`` → ``classes[0]``; drops pydantic's union-member tags."""
    parts: list[str] = []
    for i, item in enumerate(loc):
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1]}[{item}]"] if parts else [f"[{item}]"]
        elif i == 0 or item in _COST_KEYS or (parts and parts[0] in ("target_prevalence", "class_weights", "map_shares", "actions") and len(parts) == 1):
            parts.append(str(item))
        # other strings are union tags ('int', 'str', 'list[...]') or '[key]' markers
    return ".".join(parts) if parts else "answers"


def _allowed_for(key: str) -> str:
    top = key.split(".")[0].split("[")[0]
    if top == "error_costs":
        if "matrix" in key:
            return "a square matrix of numbers ≥ 0 (rows = true class, columns = predicted)"
        if key != "error_costs":
            return "a finite positive number"
    if top in ("target_prevalence", "class_weights", "map_shares") and "." in key:
        return "a number ≥ 0"
    if top == "classes" and "[" in key:
        return "a class name (a string or an integer)"
    q = _BY_KEY.get(top)
    return q.allowed if q else "see `advisor ask` for the allowed keys"


def error_key(error: Mapping[str, Any]) -> str:
    """The answers key a pydantic error dict is about (``error_costs.false_negative``, ``classes[1]``)."""
    ctx = error.get("ctx") or {}
    if error["type"] == "answers" and "key" in ctx:
        return str(ctx["key"])
    if error["type"] == "extra_forbidden":
        return ".".join(str(p) for p in error["loc"])
    return _key_of(tuple(error["loc"]))


def error_sentence(error: Mapping[str, Any], source: str = "answers", tail: str = "") -> str:
    """One sentence for one pydantic error dict: the key, the value and what is allowed."""
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden":
        key = ".".join(str(p) for p in loc)
        parent, _, leaf = key.rpartition(".")
        pool = list(_COST_KEYS) if parent == "error_costs" else [q.key for q in QUESTIONS]
        close = difflib.get_close_matches(leaf, pool, n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(repr(c) for c in close)} — " if close else ""
        return (
            f"{source}: unknown key {key!r} (value {_show(error['input'])}); {hint}"
            f"the allowed keys are {', '.join(pool)}{tail}."
        )
    ctx = error.get("ctx") or {}
    key = error_key(error)
    if error["type"] == "answers":
        value = ctx.get("value", error["input"])
        return f"{source}: key {key!r} has the value {_show(value)}: {error['msg']}{tail}."
    value = error["input"]
    kind = _KIND_NAMES.get(type(value).__name__, type(value).__name__)
    what = f" ({kind})" if error["type"] in _WRONG_TYPE and not isinstance(value, str) else ""
    if error["type"] in _TYPE_ERRORS or error["type"].endswith("_type"):
        why = f"allowed: {_allowed_for(key)}"
    else:
        msg = error["msg"].removeprefix("Value error, ")
        why = f"{msg}; allowed: {_allowed_for(key)}"
    return f"{source}: key {key!r} has the value {_show(value)}{what}; {why}{tail}."


def format_validation_error(exc: ValidationError, source: str = "answers") -> str:
    """Turn pydantic's error list into one sentence naming the key, the value and what is allowed."""
    errors = exc.errors()
    more = len({error_key(e) for e in errors}) - 1
    tail = f" ({more} more problem{'s' if more > 1 else ''} after this one)" if more > 0 else ""
    return error_sentence(errors[0], source, tail)


def answers_from_mapping(data: Any, source: str = "answers") -> Answers:
    """Validate a mapping (e.g. parsed YAML) into :class:`Answers`, or raise one-sentence InputError."""
    if data is None:
        data = {}
    if isinstance(data, Answers):
        return data
    if not isinstance(data, Mapping):
        raise InputError(
            f"{source} must be a mapping of question keys to answers (e.g. 'task: binary'), "
            f"not a {type(data).__name__}."
        )
    bad = [k for k in data if not isinstance(k, str)]
    if bad:
        raise InputError(f"{source}: key {_show(bad[0])} is not a question key; keys are names like 'task'.")
    try:
        return Answers.model_validate(dict(data))
    except ValidationError as exc:
        raise InputError(format_validation_error(exc, source)) from None


def load_answers(path: str | os.PathLike[str]) -> Answers:
    """Read an answers file (YAML or JSON) into :class:`Answers`.

    Raises
    ------
    InputError
        One sentence naming the file, the key, its value and what is allowed.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"the answers must be the path of an answers file (YAML or JSON); got {type(path).__name__}.")
    p = Path(path)
    source = f"answers file {str(p)!r}"
    text = read_small_text(p, MAX_ANSWERS_BYTES, source, "give the path of an answers file (YAML or JSON)",
                           "the limit for answers files (they hold a few answers); is it the right file?")
    try:
        data = (json.loads(text, object_pairs_hook=_unique_pairs, parse_int=_json_int) if p.suffix.lower() == ".json"
                else yaml.load(text, Loader=_AnswersLoader))  # noqa: S506
    except json.JSONDecodeError as exc:
        raise InputError(f"{source} is not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    except _AnswersTooBig as exc:
        raise InputError(f"{source} {exc}.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise InputError(f"{source} is not valid YAML{where} ({problem}).") from None
    except RecursionError:
        raise InputError(f"{source} nests values too deeply; answers are flat mappings, lists and numbers.") from None
    return answers_from_mapping(data, source)


def answers_to_yaml(answers: Answers) -> str:
    """The answers as YAML text, in question order (what ``advisor ask`` saves)."""
    header = "# advisor answers — edit freely; `advisor recommend --answers FILE` reads this file.\n"
    return header + yaml.safe_dump(answers.to_file_dict(), sort_keys=False, allow_unicode=True, width=100)
