"""Schema of the rule book (``rules.yaml``), validated by pydantic when first used.

A rule is data: a condition over the facts of a situation and its effects —

* ``require`` / ``prefer`` / ``forbid``: catalogue properties a lead metric must have, should have
  (weighted), or must not have. Each term names the property, the claim statuses accepted (a
  ``binary_only`` claim counts as ``holds`` when the task has two classes), for chance correction
  optionally ``strict`` or ``complete``, and why it matters in this situation.
* ``primary`` / ``complementary`` / ``discouraged``: metrics the cited papers name. A primary
  suggestion only breaks ties among metrics that pass the property filter; a discouraged metric is
  checked against the catalogue (the properties in ``because`` must really be violated).
* ``duties`` (reporting duties), ``warnings`` (code + message template), ``checks`` (warn when a
  chosen or planned metric lacks a property), ``params`` (e.g. β of Fβ).
* ``source`` (author-year citation + passage, e.g. ``Opitz (2024), §8``) and ``rationale`` (why, in
  words naming answers and properties).

Templates may use the facts (answers and derived facts) and the computed values listed in
:data:`TEMPLATE_VALUES`.
"""

from __future__ import annotations

import builtins
import re
import string
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..catalogue import PROPERTY_IDS, PROPERTY_NAMES, PropertyStatus
from ._answers import Answers
from ._conditions import DERIVED_FACTS, condition_facts, validate_condition

__all__ = [
    "KNOWN_FACTS",
    "TEMPLATE_VALUES",
    "Discouragement",
    "Impossibility",
    "NameCheck",
    "PropertyCheck",
    "PropertyTerm",
    "Rule",
    "RuleBook",
    "Settings",
    "Suggestion",
    "WarningSpec",
    "load_rules",
]

KNOWN_FACTS: set[str] = set(Answers.model_fields) | set(DERIVED_FACTS)

# values computed by the engine that templates may use besides the facts
TEMPLATE_VALUES = {
    "beta": "β of Fβ, √(cost_FN / cost_FP)",
    "beta_squared": "β² = cost_FN / cost_FP",
    "cost_fn": "cost of a false negative",
    "cost_fp": "cost of a false positive",
    "primary": "id of the primary metric",
    "primary_name": "name of the primary metric",
    "metrics": "names of the metrics a check or name check is about",
    "name": "the planned metric name a name check is about",
    "small_k": "largest number of classes reported class by class",
    "shares": "target_prevalence, written out",
    "weights": "class_weights, written out",
    "strata": "map_shares (the mapped share of each predicted class), written out",
    "action_group": "the classes that lead to the action of interest, quoted (“present” and “unknown”)",
    "other_action": "the action other than the action of interest (two actions)",
}


def _template_fields(text: str) -> set[str]:
    fields = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name:
            fields.add(name.split(".")[0].split("[")[0].split("!")[0].split(":")[0])
    return fields


def _check_template(text: str) -> str:
    unknown = _template_fields(text) - KNOWN_FACTS - set(TEMPLATE_VALUES)
    if unknown:
        raise ValueError(f"template uses unknown value(s) {sorted(unknown)}: {text[:60]!r}")
    return text


#: An author-year citation followed by the passage: ``Opitz (2024), §8``, ``Gösgens et al. (2021),
#: App. C.4``, ``Opitz & Burst (2019), §2–4``; the undated I2ML slides by topic: ``I2ML slides (Fβ)``.
CITED_PASSAGE = re.compile(
    r"(?:\b[A-Z][\w'’-]+(?: et al\.| & [A-Z][\w'’-]+)? \((?:1[89]|20)\d\d\)"
    r", (?:§|Table|App\.|Definition|Theorem|Figure|Eq\.|Statement)"
    r"|\bI2ML slides \()"
)
#: The project's internal names of its source papers, which mean nothing to a reader.
INTERNAL_CITATION = re.compile(r"\bseeds?\s*0\d\d\b", re.IGNORECASE)


def check_source(owner: str, source: str) -> str:
    """Require a user-readable citation of a passage (the one exception: decision theory).

    >>> check_source("rule r", "Opitz (2024), §3.4, §8; Gösgens et al. (2021), App. C.4")
    'Opitz (2024), §3.4, §8; Gösgens et al. (2021), App. C.4'
    >>> check_source("rule r", "seed 000 §8")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: rule r: source 'seed 000 §8' names an internal file; cite the paper by author and year, ...
    """
    if INTERNAL_CITATION.search(source):
        raise ValueError(f"{owner}: source {source!r} names an internal file; cite the paper by author and "
                         "year, e.g. 'Opitz (2024), §8'")
    if not CITED_PASSAGE.search(source) and "decision theory" not in source:
        raise ValueError(f"{owner}: source {source!r} must cite a passage by author and year, "
                         "e.g. 'Opitz (2024), §8' or 'Gösgens et al. (2021), Table 2'")
    return source


def _check_condition(value: Any) -> Any:
    validate_condition(value, KNOWN_FACTS)
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("reason", "message", "text", "rationale", check_fields=False)
    @classmethod
    def _templates(cls, v: str | None) -> str | None:
        return v if v is None else _check_template(v)

    @field_validator("title", "reason", "message", "text", "rationale", "why", "source", check_fields=False)
    @classmethod
    def _readable_citations(cls, v: str | None) -> str | None:
        if v is not None and INTERNAL_CITATION.search(v):
            raise ValueError(f"{v[:60]!r} cites an internal file name ('seed NNN'); cite the paper by author "
                             "and year, e.g. 'Opitz (2024), §8'")
        return v

    @field_validator("when", check_fields=False)
    @classmethod
    def _conditions(cls, v: Any) -> Any:
        return _check_condition(v)


def _holds() -> list[PropertyStatus]:
    return ["holds"]


class PropertyTerm(_Strict):
    property: str
    detail: Literal["strict", "complete"] | None = None
    accept: list[PropertyStatus] = Field(default_factory=_holds)
    weight: float = Field(1.0, gt=0, description="prefer only: points for having the property")
    priority: int = Field(50, description="require/forbid: higher is kept longer when requirements conflict")
    why: str

    @field_validator("property")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in PROPERTY_IDS:
            raise ValueError(f"unknown property {v!r}; use one of {', '.join(PROPERTY_IDS)}")
        return v

    @model_validator(mode="after")
    def _detail(self) -> PropertyTerm:
        if self.detail is not None and self.property != "chance_correction":
            raise ValueError("'detail' (strict/complete) applies to chance_correction only")
        return self

    @builtins.property  # the field ``property`` shadows the builtin in the class body for a type checker
    def label(self) -> str:
        """Readable name with its framework tag, e.g. ``prevalence invariance (PIV)``."""
        name = PROPERTY_NAMES.get(self.property, self.property)
        name = name[0].lower() + name[1:]
        return f"{self.detail} {name}" if self.detail else name  # e.g. "strict chance correction (PV)"


class Suggestion(_Strict):
    metric: str
    reason: str
    when: dict[str, Any] | None = None
    params: dict[str, str] = Field(default_factory=dict, description="param name → template value name")
    with_lead: list[str] | None = Field(None, description=(
        "beside the lead only when the lead chosen is one of these catalogue ids (accuracy is 'the micro view beside "
        "the macro one' only beside a macro lead; a rule's or the field's lead leaves it no reason); None: any lead"))



class Discouragement(_Strict):
    metric: str
    because: list[str] = Field(
        default_factory=list, description="properties of this rule's terms the metric violates"
    )
    reason: str | None = None
    when: dict[str, Any] | None = None
    overrides: bool = Field(False, description="advised against even where another rule, the field or the author's "
                            "plan would report it beside the lead: the situation's design makes it wrong (a sample "
                            "drawn by map class: the unweighted counts describe the sample, not the map)")


    @model_validator(mode="after")
    def _some_reason(self) -> Discouragement:
        if not self.because and not self.reason:
            raise ValueError(f"discouraging {self.metric} needs 'because' (properties) or a 'reason'")
        return self


class WarningSpec(_Strict):
    code: str
    message: str
    when: dict[str, Any] | None = None



Target = Literal["primary", "complementary", "planned", "holders"]


class PropertyCheck(_Strict):
    """Warn (one warning, listing them) when metrics in ``targets`` lack ``property`` at this k.

    ``holders`` are all applicable catalogue metrics that have the property ``among`` (e.g. the
    chance-corrected ones).
    """

    code: str
    property: str
    targets: list[Target]
    among: str | None = None
    message: str


    @field_validator("property", "among")
    @classmethod
    def _known(cls, v: str | None) -> str | None:
        if v is not None and v not in PROPERTY_IDS:
            raise ValueError(f"unknown property {v!r}")
        return v

    @model_validator(mode="after")
    def _among(self) -> PropertyCheck:
        if ("holders" in self.targets) != (self.among is not None):
            raise ValueError("the 'holders' target and 'among' go together")
        return self


class Duty(_Strict):
    text: str
    when: dict[str, Any] | None = None
    diagnostic: str | None = Field(
        None, description="what the report shows to carry the duty out (a diagnostic id of advisor.plan); a duty "
        "without one is advice to the author, never promised in the methods paragraph")



class Rule(_Strict):
    id: str
    title: str
    when: dict[str, Any] = Field(default_factory=dict)
    require: list[PropertyTerm] = Field(default_factory=list)
    prefer: list[PropertyTerm] = Field(default_factory=list)
    forbid: list[PropertyTerm] = Field(default_factory=list)
    primary: list[Suggestion] = Field(default_factory=list)
    lead: list[Suggestion] = Field(
        default_factory=list, description="a metric that leads whenever the rule fires, because the user's own "
        "numbers define it (costs → expected cost; an open threshold → a ranking metric; risks → a proper scoring "
        "rule); the first live one of the first firing rule wins, and the property ranking supplies the rest")
    complementary: list[Suggestion] = Field(default_factory=list)
    discouraged: list[Discouragement] = Field(default_factory=list)
    params: dict[str, str] = Field(default_factory=dict)
    duties: list[Duty] = Field(default_factory=list)
    warnings: list[WarningSpec] = Field(default_factory=list)
    checks: list[PropertyCheck] = Field(default_factory=list)
    source: str
    rationale: str


    @model_validator(mode="after")
    def _because_known(self) -> Rule:
        own = {t.property for t in (*self.require, *self.prefer, *self.forbid)}
        for d in self.discouraged:
            missing = set(d.because) - own
            if missing:
                raise ValueError(
                    f"rule {self.id}: discouraging {d.metric} because of {sorted(missing)}, "
                    "which the rule neither requires, prefers nor forbids"
                )
        check_source(f"rule {self.id}", self.source)
        return self

    @property
    def properties(self) -> list[str]:
        """Every property the rule rests on, in order of appearance."""
        seen: list[str] = []
        for p in [t.property for t in (*self.require, *self.prefer, *self.forbid)] + [
            c.property for c in self.checks
        ] + [c.among for c in self.checks if c.among]:
            if p not in seen:
                seen.append(p)
        return seen

    @property
    def facts(self) -> set[str]:
        """Every fact the rule's conditions mention."""
        out = condition_facts(self.when)
        parts: tuple[Suggestion | Discouragement | WarningSpec | Duty, ...] = (
            *self.primary, *self.lead, *self.complementary, *self.discouraged, *self.warnings, *self.duties)
        for part in parts:
            out |= condition_facts(part.when)
        return out


class Impossibility(_Strict):
    """A set of properties no measure can have at once (a theorem), and the way out taken."""

    id: str
    properties: list[str]
    min_required: int = Field(2, ge=1, description="fires when all are demanded and this many required")
    replace: dict[str, str | None] = Field(
        description="required property → the weaker one kept instead (null: dropped)"
    )
    complementary: list[Suggestion] = Field(default_factory=list)
    code: str
    message: str
    source: str

    @model_validator(mode="after")
    def _cited(self) -> Impossibility:
        check_source(f"impossibility {self.id}", self.source)
        return self


class NameCheck(_Strict):
    """A warning about a planned metric's *name* (e.g. the two formulas called "macro F1")."""

    code: str
    ambiguous_between: list[str] = Field(default_factory=list)
    resolves_to: str | None = None
    pattern: str | None = Field(None, description="regular expression the lower-cased name must match")
    message: str
    source: str
    when: dict[str, Any] | None = Field(None, description="fires only when this condition over the facts holds")


    @model_validator(mode="after")
    def _some_test(self) -> NameCheck:
        if not self.ambiguous_between and self.resolves_to is None:
            raise ValueError(f"name check {self.code}: give ambiguous_between or resolves_to")
        check_source(f"name check {self.code}", self.source)
        return self


class Settings(_Strict):
    small_k: int = Field(10, ge=2, description="report per-class recall up to this many classes")
    min_class_items: int = Field(30, ge=1, description="small_sample below this many items in a class")
    min_items: int = Field(100, ge=1, description="small_sample below this many items overall")
    balance_ratio: float = Field(1.2, ge=1, description="test set counts as balanced if max/min class size ≤ this")
    suggestion_bonus: float = Field(0.5, ge=0, description="points for being a rule's first primary suggestion")
    unverified_weight: float = Field(0.0, ge=0, le=1, description="share of a preference's weight for an unverified claim")


class RuleBook(_Strict):
    settings: Settings = Field(default_factory=Settings)
    rules: list[Rule]
    impossibilities: list[Impossibility] = Field(default_factory=list)
    name_checks: list[NameCheck] = Field(default_factory=list)
    same_ranking: list[list[str]] = Field(default_factory=list)

    def rule_ids(self) -> set[str]:
        return {r.id for r in self.rules}

    def equivalent(self, a: str, b: str) -> bool:
        """Whether two metrics always rank systems alike (listed together in ``same_ranking``)."""
        return a == b or any(a in group and b in group for group in self.same_ranking)

    @model_validator(mode="after")
    def _unique(self) -> RuleBook:
        ids = [r.id for r in self.rules]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"duplicate rule ids {sorted(dupes)}")
        return self

    def metric_ids(self) -> set[str]:
        """Every metric id the rule book names (tests check them against the catalogue)."""
        out: set[str] = set()
        for r in self.rules:
            out |= {s.metric for s in (*r.primary, *r.lead, *r.complementary)} | {d.metric for d in r.discouraged}
        for imp in self.impossibilities:
            out |= {s.metric for s in imp.complementary}
        for nc in self.name_checks:
            out |= set(nc.ambiguous_between) | ({nc.resolves_to} if nc.resolves_to else set())
        for group in self.same_ranking:
            out |= set(group)
        return out


@lru_cache(maxsize=1)
def load_rules() -> RuleBook:
    """The packaged rule book, validated."""
    folder = resources.files(__package__)
    book = yaml.safe_load(folder.joinpath("rules.yaml").read_text(encoding="utf-8"))
    # companions rules_<topic>.yaml add rules, impossibilities, name checks and ranking groups
    extra = sorted((f for f in folder.iterdir() if f.name.startswith("rules_") and f.name.endswith(".yaml")),
                   key=lambda f: f.name)
    for part in extra:
        data = yaml.safe_load(part.read_text(encoding="utf-8")) or {}
        unknown = set(data) - {"rules", "impossibilities", "name_checks", "same_ranking"}
        if unknown:
            raise ValueError(f"{part.name}: only rules, impossibilities, name_checks and same_ranking may be "
                             f"added by a companion file; got {sorted(unknown)}")
        for key, items in data.items():
            book.setdefault(key, []).extend(items or [])
    return RuleBook.model_validate(book)
