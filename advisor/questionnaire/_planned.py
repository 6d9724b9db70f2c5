"""Resolving the names of planned metrics through the catalogue's aliases."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import AdvisorError
from ..catalogue import Catalogue, get_catalogue, resolve_metric
from ..catalogue import Resolution as CatalogueResolution
from ._fields import field_term_ids

__all__ = ["AGREEMENT_RATE_NAMES", "PerClassReading", "Resolution", "default_resolver", "field_reading",
           "is_agreement_rate", "per_class_reading", "planned_per_class", "plans_f1", "plans_roc_auc", "resolve_name",
           "resolve_planned"]

#: Planned names of the share of items two raters put in the same category, which the comparison of a judge with
#: human raters reports (issue 22); not a catalogue metric (between a system and a truth it is accuracy).
AGREEMENT_RATE_NAMES = frozenset({"agreement rate", "agreement", "percent agreement", "percentage agreement",
                                  "observed agreement", "raw agreement", "simple agreement"})


def is_agreement_rate(name: str) -> bool:
    """Whether a planned name is the agreement rate of two raters.

    >>> is_agreement_rate("Agreement  rate"), is_agreement_rate("accuracy")
    (True, False)
    """
    return " ".join(str(name).lower().split()) in AGREEMENT_RATE_NAMES


@dataclass
class Resolution:
    """What a free-text metric name refers to."""

    name: str
    ids: list[str] = field(default_factory=list)
    note: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.ids)

    @property
    def ambiguous(self) -> bool:
        return len(self.ids) > 1


def default_resolver() -> Callable[[str, Catalogue | None], CatalogueResolution]:
    return resolve_metric


def _ids_from(obj: Any) -> list[str]:
    """Candidate ids from whatever the catalogue's resolver returns (an id, a record, a result object)."""
    if obj is None:
        return []
    if isinstance(obj, str):
        return [obj]
    for attr in ("candidates", "ids", "metric_ids", "matches"):
        value = getattr(obj, attr, None)
        if value:
            return [x if isinstance(x, str) else getattr(x, "id", str(x)) for x in value]
    for attr in ("id", "metric_id", "metric"):
        value = getattr(obj, attr, None)
        if isinstance(value, str):
            return [value]
        if value is not None and isinstance(getattr(value, "id", None), str):
            return [value.id]
    if isinstance(obj, Iterable) and not isinstance(obj, (bytes, dict)):
        return [x if isinstance(x, str) else getattr(x, "id", str(x)) for x in obj]
    return []


def _note_from(obj: Any) -> str | None:
    for attr in ("note", "explanation", "message", "reason"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            return value
    return None


def resolve_name(name: str, resolver: Callable[[str], Any], catalogue: Any) -> Resolution:
    """Resolve ``name``; an ambiguous name yields several ids, an unknown one none."""
    try:
        result = resolver(name)
    except AdvisorError as exc:  # unknown (or ambiguous, if the resolver raises for that)
        ids = [x for x in _ids_from(getattr(exc, "candidates", None)) if x in catalogue.metrics]
        return Resolution(name, ids, str(exc))
    ids = []
    for x in _ids_from(result):
        record = catalogue.metrics.get(x)
        if record is None:
            continue
        x = record.alias_of or x  # macro_recall → balanced_accuracy
        if x not in ids:
            ids.append(x)
    note = _note_from(result)
    if note is None:
        notes = getattr(catalogue, "name_notes", {}) or {}
        key = name.strip().lower()
        note = next((v for k, v in notes.items() if k.strip().lower() == key), None)
    return Resolution(name, ids, note)


def resolve_planned(name: str, field: str | None = None) -> Resolution:
    """What a planned metric's name refers to in the packaged catalogue (ids; none when unknown); a name the
    catalogue does not know may be the author's ``field``'s own word for a metric ("WA", "exact agreement")."""
    cat = get_catalogue()
    res = resolve_name(name, lambda n: default_resolver()(n, cat), cat)
    return field_reading(res, field)


#: the catalogue's ROC AUCs: a planned one says the scores it is computed from exist
_ROC_AUCS = frozenset({"roc_auc", "multilabel_macro_roc_auc"})


def plans_roc_auc(name: str) -> bool:
    """Whether a planned name is a ROC AUC (of one task or averaged over labels).

    >>> plans_roc_auc("AUROC"), plans_roc_auc("mean AUROC"), plans_roc_auc("F1")
    (True, True, False)
    """
    return _plans_any(name, _ROC_AUCS)


def _plans_any(name: str, ids: frozenset[str]) -> bool:
    """Whether a planned name resolves to one of the catalogue's ``ids``."""
    try:
        return bool(ids & set(resolve_planned(name).ids))
    except AdvisorError:  # pragma: no cover - a name the resolver refuses plans nothing it knows
        return False


#: the catalogue's F1s (of one class, averaged over classes, or over labels): a planned one is kept beside a ranking lead
_F1S = frozenset({"f1", "macro_f1", "micro_f1", "weighted_f1", "multilabel_macro_f1", "multilabel_micro_f1",
                  "multilabel_samples_f1"})


def plans_f1(name: str) -> bool:
    """Whether a planned name is an F1 (of one class or label, or averaged).

    >>> plans_f1("F1"), plans_f1("macro F1"), plans_f1("AUROC")
    (True, True, False)
    """
    return _plans_any(name, _F1S)


def plans_nmi(name: str) -> bool:
    """Whether a planned name is normalized mutual information (reported beside a partition comparison's lead).

    >>> plans_nmi("NMI"), plans_nmi("AMI")
    (True, False)
    """
    return _plans_any(name, frozenset({"normalized_mutual_info"}))


def plans_purity(name: str) -> bool:
    """Whether a planned name is purity (reported with inverse purity beside a partition comparison's lead).

    >>> plans_purity("purity"), plans_purity("NMI")
    (True, False)
    """
    return _plans_any(name, frozenset({"purity"}))


def field_reading(res: Resolution, field: str | None) -> Resolution:
    """``res``, or, when the catalogue does not know the name, what the field's ``terms`` make of it."""
    if res.known or not field:
        return res
    ids = field_term_ids(res.name, field)
    return Resolution(res.name, ids, f"the name the field ({field}) gives it") if ids else res


#: Names of a per-class quantity taken for every class: the map-accuracy terms of remote sensing (Congalton 1991:
#: the user's accuracy of a class is its precision, the producer's its recall) and the plain per-class names.
_EVERY_CLASS: dict[str, str] = {
    "user's accuracy": "precision", "users accuracy": "precision", "user accuracy": "precision",
    "producer's accuracy": "recall", "producers accuracy": "recall", "producer accuracy": "recall",
    "per-class precision": "precision", "per-class recall": "recall", "per-class f1": "F1",
    "class-wise precision": "precision", "class-wise recall": "recall", "class-wise f1": "F1",
    "precision per class": "precision", "recall per class": "recall", "f1 per class": "F1",
    "per-class accuracy": "recall", "class-wise accuracy": "recall",
}
#: The last word of "<class> recall": the per-class quantity it names.
_OF_A_CLASS: dict[str, str] = {"recall": "recall", "sensitivity": "recall", "precision": "precision", "ppv": "precision",
                               "f1": "F1", "f1 score": "F1", "f1-score": "F1"}
#: First words that make "<x> recall" an averaged metric, never the recall of a class called x.
_NOT_A_CLASS = frozenset({"macro", "micro", "weighted", "balanced", "average", "averaged", "mean", "macro-averaged",
                          "micro-averaged", "top-k", "top", "class", "classwise", "per", "the", "overall", "sample",
                          "samples", "hierarchical", "entity", "span", "label"})


def _key(text: str) -> str:
    return " ".join(str(text).strip().lower().replace("’", "'").replace("_", " ").split())


@dataclass(frozen=True)
class PerClassReading:
    """A planned name read as a per-class quantity of the per-class table: ``quantity`` (precision, recall or F1)
    of ``cls`` (None: every class); ``matched`` is False when the class names are not known yet."""

    quantity: str
    cls: Any = None
    matched: bool = True

    @property
    def words(self) -> str:
        """"the recall of the class “out-of-scope”" / "the precision of every class"."""
        of = "every class" if self.cls is None else f"the class “{self.cls}”"
        return f"the {self.quantity} of {of}"


def per_class_reading(name: str, classes: Iterable[Any] | None = None) -> PerClassReading | None:
    """What a planned name the catalogue does not know means in the per-class table, if anything.

    >>> per_class_reading("producer's accuracy").words
    'the recall of every class'
    >>> r = per_class_reading("Out-of-scope recall", ["oos", "out-of-scope", "book_flight"])
    >>> r.words, r.matched
    ('the recall of the class “out-of-scope”', True)
    >>> per_class_reading("macro recall") is None, per_class_reading("fraud recall", ["ok", "theft"]) is None
    (True, True)
    """
    key = _key(name)
    if key in _EVERY_CLASS:
        return PerClassReading(_EVERY_CLASS[key])
    for last, quantity in sorted(_OF_A_CLASS.items(), key=lambda kv: -len(kv[0])):
        if not key.endswith(" " + last):
            continue
        head = key[: -len(last) - 1].strip()
        if head.endswith(" class"):  # "positive class recall"
            head = head[: -len(" class")].strip()
        head = head.removeprefix("the ").strip()
        if not head or head.split()[0] in _NOT_A_CLASS:
            return None
        if classes is None:
            return PerClassReading(quantity, head, matched=False)
        for c in classes:
            if _key(c) == head or _key(c).replace("-", " ") == head.replace("-", " "):
                return PerClassReading(quantity, c)
        return None
    return None


#: Metrics of one class that, among several classes, are figures of the per-class table.
_ONE_CLASS = {"recall": "recall", "precision": "precision", "f1": "F1"}


def planned_per_class(name: str, classes: Iterable[Any] | None = None, field: str | None = None,
                      reported: Iterable[str] = ()) -> PerClassReading | None:
    """What a planned name means in the per-class table of a task with several classes: a name the catalogue does
    not know ("user's accuracy", "out-of-scope recall"), or a metric of one class that is not reported as such
    ("sensitivity", "positive predictive value": AAMI's per-class Se and +P).

    >>> planned_per_class("sensitivity").words, planned_per_class("sensitivity", reported=["recall"]) is None
    ('the recall of every class', True)
    """
    ids = resolve_planned(name, field).ids
    if not ids:
        return per_class_reading(name, classes)
    if set(ids) & set(reported) or not set(ids) <= set(_ONE_CLASS):
        return None
    return PerClassReading(_ONE_CLASS[ids[0]])
