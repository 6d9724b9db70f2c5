"""What communities report (``fields.yaml``) and the author's own words for a test item.

A field's customary figure is reported beside the lead, with the work that establishes it, only when the
answers name the field (``field``); the answers' ``context`` may *suggest* one (its keywords), never set it.
``item_name`` is what one test item is, in the author's words ("child", "tweet", "claim"); the text counts
items by its plural.

>>> plural("child"), plural("query"), plural("test image"), plural("analysis")
('children', 'queries', 'test images', 'analyses')
>>> load_fields()["sentiment_shared_task"].metrics
['balanced_accuracy', 'macro_f1_of_classes']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Literal
from importlib import resources

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["BASELINE_THRESHOLDS", "CommunityField", "field_f1_classes", "field_term_ids", "left_open_items", "left_open_premises", "load_fields", "plural", "suggest_field"]


class FieldSetting(BaseModel):
    """The value at which a field reads a metric with a parameter (Bank Account Fraud: TPR at an FPR of 5%)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    param: str = Field(description="the metric's parameter, as the plan names it (max_fpr)")
    value: float = Field(description="the field's value of it")
    text: str = Field(description="that value in running text, after 'there' ('at an FPR of 5%')")


class FieldBaseline(BaseModel):
    """The human–human baseline of a field that scores with raters (automated essay scoring): the machine's
    quadratically weighted kappa with the human score is flagged below ``qwk_floor``, and when it is lower than the
    raters' with each other by more than ``degradation``; its Pearson correlation likewise below ``r_floor`` and
    beyond ``r_degradation``; the standardized mean difference of machine minus human scores beyond ±``smd_overall``
    over all items and beyond ±``smd_subgroup`` within a subgroup value (Williamson et al. 2012)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    qwk_floor: float = Field(gt=0, lt=1)
    degradation: float = Field(gt=0, lt=1)
    r_floor: float | None = Field(None, gt=0, lt=1, description="the floor of the machine's Pearson correlation")
    r_degradation: float | None = Field(None, gt=0, lt=1, description=(
        "how far the machine's Pearson correlation may lie below the raters' with each other"))
    smd_overall: float | None = Field(None, gt=0, lt=1, description=(
        "the flag of the standardized mean difference of machine minus human scores over all items"))
    smd_subgroup: float | None = Field(None, gt=0, lt=1, description=(
        "the flag of the standardized mean difference within a subgroup value"))


#: The thresholds of a field's human–human baseline, as the plan's ``human_baseline`` diagnostic carries them
BASELINE_THRESHOLDS: tuple[str, ...] = ("qwk_floor", "degradation", "r_floor", "r_degradation", "smd_overall",
                                        "smd_subgroup")


class FieldPremise(BaseModel):
    """A fact of the study design that the field's reports state and the answers do not give (``left_open``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(description="what to state, a clause after \"look for\" (\"how missing results were handled\")")
    item: str | None = Field(None, description="the guideline's item that asks for it (STARD 2015: \"16\")")
    said_by: list[str] = Field(default_factory=list, description=(
        "words of the answers' context or notes that show the author gave it already (then it is not listed)"))


class CommunityField(BaseModel):
    """A community and the figure its papers report."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str = Field(description="the field in running text")
    reports: str = Field(description="what its papers report, in their words")
    metrics: list[str] = Field(min_length=1, description="catalogue ids of that figure, the customary one first")
    source: str = Field(description="BibTeX key of the work that sets or documents the convention")
    cite: str = Field(description="that work as author (year)")
    caveat: str | None = Field(None, description=(
        "the field's standing caveat on its test sets, a sentence with {items} for the author's items (credit scoring: "
        "outcomes exist only for past approvals), said with caveat_sources"))
    caveat_sources: list[str] = Field(default_factory=list, description="BibTeX keys of the work behind the caveat")
    left_open: list[FieldPremise] = Field(default_factory=list, description=(
        "what the field's reports also state that no answer gives (how indeterminate results were handled, STARD "
        "2015 item 15): said to the authors after the methods, with left_open_sources, never as a premise"))
    left_open_as: str | None = Field(None, description=(
        "what asks for them, said before their citation, {items} the items of those listed (\"as {items} of STARD "
        "2015 ask\" → \"as items 15 and 18 of STARD 2015 ask\")"))
    left_open_sources: list[str] = Field(default_factory=list,
                                         description="BibTeX keys of the reporting guideline or work that asks for them")
    also: list[str] = Field(default_factory=list, description=(
        "BibTeX keys of further works that set the same figure, cited with the source where the figure is named "
        "(iSarcasmEval beside SemEval-2018 Task 3)"))
    keywords: list[str] = Field(default_factory=list, description="words of a context that suggest the field")
    readings: dict[str, str] = Field(default_factory=dict,
                                     description="what a diagnostic of the report answers in this field, by its id")
    terms: dict[str, str] = Field(default_factory=dict,
                                  description="the field's own word for a catalogue metric (recall: sensitivity)")
    beside: str | None = Field(None, description=(
        "the sentence start for the field's figures beside the lead, with {names}, in place of \"As is customary in "
        "{name}, we also report {names}\" where that would make the author's data what the cited work is (a "
        "benchmark): it says what the cited work does"))
    ranks: str | None = Field(None, description=(
        "the sentence start for a ranking the field's figure leads, with {name} (the figure), in place of \"We rank "
        "the systems by {name}, customary in {field}\" where one edition of a shared task used the figure and "
        "others did not: it says which edition ranked by it"))
    forms: dict[str, str] = Field(default_factory=dict, description=(
        "another form in which the field quotes a catalogue metric, as a noun phrase with its formula (roc_auc: the "
        "Gini coefficient, 2·AUC − 1), said after the field's sentence; only a form its `reports` names"))
    brier: Literal["binary", "classes"] | None = Field(None, description=(
        "the Brier score the field reports in a two-class task: 'binary', the mean squared error of the positive-class "
        "probability (scikit-learn's brier_score_loss); 'classes', the sum over both classes, twice it (Brier's 1950 "
        "form); None: the binary form, the one most fields and scikit-learn report (the s40 and s41 readers)"))
    one_of: bool = Field(False, description=(
        "the metrics are alternatives, one per kind of category (Krippendorff's alpha at the level of measurement): "
        "when the lead or a metric beside it is one of them, the others are not added"))
    customary: dict[str, list[str]] = Field(default_factory=dict, description=(
        "figures the field reports beyond its metrics, by plan diagnostic id (across subgroups: adverse_impact, "
        "bias_score; the 2×2 table of a diagnostic test: cross_tab), each with the BibTeX keys of the work that sets "
        "or documents it"))
    settings: dict[str, FieldSetting] = Field(default_factory=dict, description=(
        "the field's value of a metric's parameter, by catalogue id: said when the lead is read at another"))
    baseline: FieldBaseline | None = Field(None, description=(
        "the human–human baseline the field reads a machine's agreement against, with its thresholds"))
    f1_classes: list[str] = Field(default_factory=list, description=(
        "the classes its F1 is averaged over by the figure's definition (F1^PN: positive, negative), matched with "
        "the task's classes regardless of case"))
    named: str | None = Field(None, description=(
        "the sentence that says how the field reports its figures, when its words are not names for them (TREC "
        "reports a complement and a percentage); said in place of \"There they are called …\" (the terms)"))
    undefined: Literal["zero", "baseline", "omit"] | None = Field(None, description=(
        "the convention the field's scorer follows for a figure with a zero denominator (MCC of a constant "
        "predictor), applied when the run chooses none, so the figures compare with the field's; None: advisor's "
        "default"))
    undefined_as: str | None = Field(None, description=(
        "that scorer in running text, after 'as in' (“the GLUE benchmark's scorer, which uses scikit-learn”); required with "
        "undefined"))
    undefined_sources: list[str] = Field(default_factory=list, description=(
        "BibTeX keys of the work that defines the scorer, cited where the convention is said"))

    targets: str | None = Field(None, description=(
        "what the field reads its figures against, a sentence said after the field's figures with targets_sources "
        "(TB triage: the WHO target product profile's sensitivity and specificity); a fact about the field, never a "
        "target of the author's"))
    targets_sources: list[str] = Field(default_factory=list, description="BibTeX keys of the work that sets the targets")

    @model_validator(mode="after")
    def _scorer_named(self) -> CommunityField:
        """A field's convention is said as its scorer's: the scorer is named with it."""
        if self.undefined is not None and not self.undefined_as:
            raise ValueError(f"field {self.id!r}: undefined needs undefined_as, the scorer that follows it")
        return self


@lru_cache(maxsize=1)
def load_fields() -> dict[str, CommunityField]:
    """The packaged table of fields, by id."""
    text = resources.files(__package__).joinpath("fields.yaml").read_text(encoding="utf-8")
    fields = [CommunityField.model_validate(f) for f in (yaml.safe_load(text) or {}).get("fields", [])]
    return {f.id: f for f in fields}


def _words(text: str) -> str:
    return " ".join(str(text).lower().replace("’", "'").replace("-", " ").split())


def field_term_ids(name: str, field: str | None) -> list[str]:
    """The catalogue ids a name means in the field's own words (``terms``): the whole term, the term without its
    bracketed abbreviation, or the abbreviation ("WA" in the emotion challenges is their weighted accuracy, accuracy;
    elsewhere it is no name advisor can read). None outside a named field.

    >>> field_term_ids("UAR", "speech_emotion"), field_term_ids("uar", None)
    (['balanced_accuracy'], [])
    """
    f = load_fields().get(field) if field else None
    if f is None:
        return []
    key = _words(name)
    out = []
    for mid, term in f.terms.items():
        bracket = re.search(r"\(([^()]+)\)\s*$", term)
        forms = {_words(term), _words(re.sub(r"\s*\([^()]*\)\s*$", "", term))}
        if bracket:
            forms.add(_words(bracket.group(1)))
        if key in forms and mid not in out:
            out.append(mid)
    return out


def field_f1_classes(field: str | None, classes: Sequence[Any] | None) -> list[Any] | None:
    """The classes the field's F1 is averaged over by its definition, as the task names them: each of the field's
    names must match exactly one class regardless of case; None when the field defines none, the classes are not
    known, or one is missing.

    >>> field_f1_classes("sentiment_shared_task", ["Negative", "Neutral", "Positive"])
    ['Positive', 'Negative']
    >>> field_f1_classes("sentiment_shared_task", ["neg", "neu", "pos"]) is None
    True
    """
    f = load_fields().get(field) if field else None
    if f is None or not f.f1_classes or not classes:
        return None
    out = []
    for name in f.f1_classes:
        hits = [c for c in classes if str(c).strip().lower() == name.lower()]
        if len(hits) != 1:
            return None
        out.append(hits[0])
    return out


def left_open_items(field: str | None, context: str | None = None, notes: str | None = None) -> list[str]:
    """What the field's reports also state that the answers do not give (``fields.yaml`` ``left_open``), leaving out
    an item the author's context or notes already speak of (its ``said_by`` words): said to the authors after the
    methods and kept in the plan, never a premise of the text.

    >>> left_open_items("acceptability_judgements")
    ['whether the in-domain sentences, the out-of-domain ones or both pooled are scored, as the two sets are also reported apart']
    >>> left_open_items("acceptability_judgements", "CoLA's out-of-domain test set"), left_open_items(None)
    ([], [])
    """
    return [x.text for x in left_open_premises(field, context, notes)]


def left_open_premises(field: str | None, context: str | None = None, notes: str | None = None) -> list[FieldPremise]:
    """The entries :func:`left_open_items` lists, with their guideline items. A ``said_by`` phrase counts only as
    whole words ("powered" is not said by "AI-powered", "paced" not by "spaced")."""
    entry = load_fields().get(str(field)) if field else None
    if entry is None:
        return []
    said = f"{context or ''} {notes or ''}".lower()
    return [x for x in entry.left_open
            if not any(re.search(rf"(?<![\w-]){re.escape(w.lower())}(?![\w-])", said) for w in x.said_by)]


def suggest_field(context: str | None) -> CommunityField | None:
    """The field whose keywords a context mentions (the one with most matches; None when none or a tie)."""
    if not context:
        return None
    low = context.lower()
    hits = sorted(((sum(k in low for k in f.keywords), f) for f in load_fields().values()), key=lambda t: -t[0])
    if not hits or hits[0][0] == 0 or (len(hits) > 1 and hits[1][0] == hits[0][0]):
        return None
    return hits[0][1]


_IRREGULAR = {"child": "children", "person": "people", "man": "men", "woman": "women", "mouse": "mice",
              "foot": "feet", "tooth": "teeth", "datum": "data", "criterion": "criteria", "phenomenon": "phenomena",
              "fish": "fish", "sheep": "sheep", "series": "series", "species": "species"}


def article(word: str) -> str:
    """The indefinite article before ``word`` as these texts spell it ("an" before a written vowel).

    >>> article("item"), article("patient")
    ('an', 'a')
    """
    return "an" if word[:1].lower() in "aeiou" else "a"


def ranked_pair(answers: Any) -> str:
    """What ROC AUC is the probability of, in the author's classes and items: "a toxic comment is scored above a
    non-toxic one" (Fawcett 2006: the probability that a random positive is ranked above a random negative); a class
    that is no word is named ("an item of class “1” is scored above one of class “0”"), and without the classes,
    "a positive item is scored above a negative one". ``answers``: the answers or their mapping.

    >>> ranked_pair({"classes": ["non-toxic", "toxic"], "positive_class": "toxic", "item_name": "comment"})
    'a toxic comment is scored above a non-toxic one'
    >>> ranked_pair({"classes": [0, 1], "positive_class": 1})
    'an item of class “1” is scored above one of class “0”'
    """
    get = answers.get if hasattr(answers, "get") else (lambda k: getattr(answers, k, None))
    item = str(get("item_name") or "item")
    pos = get("positive_class")
    neg = next((c for c in get("classes") or [] if str(c) != str(pos)), None)
    if pos is None or neg is None or len(get("classes") or []) != 2:
        return f"a positive {item} is scored above a negative one"
    word = re.compile(r"^[A-Za-z][A-Za-z\- ]{0,30}$")
    if word.match(str(pos)) and word.match(str(neg)):
        return f"{article(str(pos))} {pos} {item} is scored above {article(str(neg))} {neg} one"
    return f"{article(item)} {item} of class “{pos}” is scored above one of class “{neg}”"


def plural(noun: str) -> str:
    """The plural of a noun phrase (its last word), for counting test items in the author's words."""
    head, _, last = noun.strip().rpartition(" ")
    low = last.lower()
    if low in _IRREGULAR:
        word = _IRREGULAR[low]
        word = word[:1].upper() + word[1:] if last[:1].isupper() else word
    elif re.search(r"[^siu]s$", low):  # given in the plural already ("products", "tweets")
        word = last
    elif re.search(r"(?:s|x|z|ch|sh)$", low) and not low.endswith("sis"):
        word = last + "es"
    elif low.endswith("sis"):
        word = last[:-2] + "es"
    elif re.search(r"[^aeiou]y$", low):
        word = last[:-1] + "ies"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word
