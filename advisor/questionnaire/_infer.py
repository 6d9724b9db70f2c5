"""What the data can tell about the situation: task, classes, balance, systems, problems.

``data`` is a :class:`~advisor.io._readers.PredictionSet` (anything with ``.systems``, a mapping of
system name to :class:`~advisor.ConfusionMatrix`), a single ConfusionMatrix, or a mapping of names
to ConfusionMatrix. Every system is evaluated on the same items, so the true class sizes ``a_i``
are those of any one of them.

Definitions used in the warnings (stated in every message):

* **balanced** test set: largest / smallest true class size ≤ ``balance_ratio`` (1.2).
* **small sample**: a class with fewer than ``min_class_items`` (30) true items — the recall of
  such a class is uncertain by about ±0.98/√a_i (half-width of a 95 % normal interval at recall
  0.5), ±0.18 or more — or fewer than ``min_items`` (100) items in all.
* **undefined values**: a class a system never predicts (``b_i = 0``: precision and F1 of the class
  are 0/0) or a class absent from the test set (``a_i = 0``: recall is 0/0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._exceptions import InputError
from .._format import few_names
from ..engine import ConfusionMatrix
from ._answers import Answers, answers_from_mapping
from ._recommendation import Warning
from ._rules import Settings

__all__ = ["DataSummary", "apply_data", "data_warnings", "summarize"]


@dataclass
class DataSummary:
    """The facts a set of confusion matrices (one per system) establishes."""

    labels: tuple[Any, ...]
    true_sizes: tuple[float, ...]
    n: float
    systems: dict[str, Any]
    has_probabilities: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def present_sizes(self) -> list[float]:
        return [a for a in self.true_sizes if a > 0]

    @property
    def balance(self) -> float:
        """Largest over smallest true class size (inf when a class is absent)."""
        if not self.true_sizes or min(self.true_sizes) <= 0:
            return math.inf
        return max(self.true_sizes) / min(self.true_sizes)

    def balanced(self, ratio: float) -> bool:
        return self.balance <= ratio


def _matrices(data: Any) -> tuple[dict[str, Any], bool]:
    if isinstance(data, ConfusionMatrix):
        return {"system": data}, False
    systems = getattr(data, "systems", None)
    if isinstance(systems, Mapping):
        probs = bool(getattr(data, "probabilities", None))
        return dict(systems), probs
    if isinstance(data, Mapping) and data and all(isinstance(v, ConfusionMatrix) for v in data.values()):
        return {str(k): v for k, v in data.items()}, False
    try:
        return {"system": ConfusionMatrix(data)}, False
    except (InputError, TypeError, ValueError):
        raise InputError(
            f"data must be a PredictionSet, a ConfusionMatrix or a mapping of system names to "
            f"ConfusionMatrix; got {type(data).__name__}."
        ) from None


def summarize(data: Any) -> DataSummary:
    """Summarise predictions or confusion matrices (see the module docstring)."""
    systems, probs = _matrices(data)
    if not systems:
        raise InputError("data holds no system; give at least one confusion matrix or prediction file.")
    first = next(iter(systems.values()))
    labels = tuple(first.labels)
    for name, cm in systems.items():
        if tuple(cm.labels) != labels:
            raise InputError(
                f"system {name!r} has the classes {list(cm.labels)}, but {list(labels)} were expected; "
                "every system must be evaluated on the same classes."
            )
    sizes = tuple(float(x) for x in first.true_sizes)
    return DataSummary(labels=labels, true_sizes=sizes, n=float(first.n), systems=systems, has_probabilities=probs)


def apply_data(answers: Answers, summary: DataSummary, settings: Settings) -> tuple[Answers, list[Warning], list[str]]:
    """Fill in what the data tells (task, n_classes, classes, test_set_balanced, ranking, probabilities).

    Answers the user gave explicitly are kept unless the data contradicts them; then the data wins and
    an ``answers_data_mismatch`` warning says so. Returns the effective answers, the warnings and notes
    (plain sentences on what was inferred) for the rationale.
    """
    given = answers.model_fields_set
    values = answers.model_dump()
    warnings: list[Warning] = []
    notes: list[str] = []
    k = summary.k
    labels = list(summary.labels)
    if answers.reject_label is not None and any(str(x) == str(answers.reject_label) for x in labels):
        labels = [x for x in labels if str(x) != str(answers.reject_label)]  # an abstention, no class (issue 23)
        k = len(labels)
    task = "binary" if k == 2 else "multiclass"

    def mismatch(key: str, said: Any, seen: Any) -> None:
        warnings.append(Warning(
            code="answers_data_mismatch",
            message=f"The answers say {key} = {said}, but the data shows {seen}; the data is used.",
        ))

    if "task" in given and answers.task != task and answers.n_classes is None and answers.classes is None:
        mismatch("task", answers.task, f"{k} classes ({task})")
    if answers.n_classes is not None and answers.n_classes != k:
        mismatch("n_classes", answers.n_classes, f"{k} classes")
    if answers.classes is not None and [str(c) for c in answers.classes] != [str(c) for c in labels]:
        if sorted(map(str, answers.classes)) != sorted(map(str, labels)):
            mismatch("classes", few_names(answers.classes), _class_difference(answers.classes, labels))
    stated = answers.classes
    same_set = stated is not None and sorted(map(str, stated)) == sorted(map(str, labels))
    # the answers' order of the same classes is kept: it is the order of ordered classes (issue 21 found the data's
    # sorted labels replacing it, so ordinal metrics and the ranked probability score counted distances wrongly)
    values.update(task=task, n_classes=k, classes=list(stated) if stated is not None and same_set else labels)
    notes.append(f"the data has {k} classes ({few_names(labels, 5)}) and {summary.n:g} items")

    if answers.positive_class is not None and not any(str(answers.positive_class) == str(x) for x in labels):
        raise InputError(
            f"positive_class {answers.positive_class!r} does not occur in the data, whose classes are "
            f"{few_names(labels)}."
        )
    if answers.positive_class is not None:  # use the data's typed label
        values["positive_class"] = next(x for x in labels if str(x) == str(answers.positive_class))
    for key in ("target_prevalence", "class_weights"):
        mapping = values.get(key)
        if mapping:
            by_text = {str(x): x for x in labels}
            unknown = [c for c in mapping if str(c) not in by_text]
            if unknown:
                raise InputError(
                    f"{key} names the class {unknown[0]!r}, which does not occur in the data "
                    f"(classes: {', '.join(by_text)})."
                )
            values[key] = {by_text[str(c)]: v for c, v in mapping.items()}

    balanced = summary.balanced(settings.balance_ratio)
    shown = "∞" if math.isinf(summary.balance) else f"{summary.balance:.2f}"
    if answers.test_set_balanced is None:
        values["test_set_balanced"] = balanced
        notes.append(
            f"the test set is {'balanced' if balanced else 'imbalanced'} (largest/smallest class = {shown}; "
            f"balanced means ≤ {settings.balance_ratio:g})"
        )
    elif answers.test_set_balanced != balanced:
        mismatch("test_set_balanced", answers.test_set_balanced, f"largest/smallest class = {shown}")
        values["test_set_balanced"] = balanced

    if len(summary.systems) > 1 and "ranking" not in given:
        values["ranking"] = True
        notes.append(f"{len(summary.systems)} systems are compared, so ranking is assumed")
    if summary.has_probabilities and "probabilities" not in given:
        values["probabilities"] = True
        notes.append("the prediction files have probability columns")
    effective = answers_from_mapping(values, "answers (with the data)")
    return effective, warnings, notes


def _class_difference(said: list[Any], labels: list[Any]) -> str:
    """What the data shows against the classes the answers name: the classes on one side only (a
    few names each), or the data's classes when the two differ only in repeats."""
    words, seen = {str(c) for c in said}, {str(c) for c in labels}
    parts = []
    for names, where in (([c for c in labels if str(c) not in words], "the answers"),
                         ([c for c in said if str(c) not in seen], "the data")):
        if names:
            parts.append(f"{few_names(names)} {'is' if len(names) == 1 else 'are'} not in {where}")
    return f"{len(labels)} classes: " + "; ".join(parts) if parts else f"the classes {few_names(labels)}"


def data_warnings(summary: DataSummary, settings: Settings) -> list[Warning]:
    """``undefined_values`` and ``small_sample`` warnings (definitions in the module docstring)."""
    out: list[Warning] = []
    labels = summary.labels
    absent = [str(labels[i]) for i, a in enumerate(summary.true_sizes) if a <= 0]
    undefined: list[str] = []
    if absent:
        undefined.append(
            f"{'class' if len(absent) == 1 else 'classes'} {few_names(absent, 5)} "
            f"{'does' if len(absent) == 1 else 'do'} not occur in the test set, so "
            f"{'its' if len(absent) == 1 else 'their'} recall is 0/0"
        )
    for name, cm in summary.systems.items():
        never = [str(labels[j]) for j, b in enumerate(cm.predicted_sizes) if b <= 0]
        if never:
            undefined.append(
                # F1 is 0/0 only for a class also absent from the truth (said above); precision always is
                f"system {name!r} never predicts {few_names(never, 5)}, so the precision of "
                f"{'that class is' if len(never) == 1 else 'those classes is'} 0/0"
            )
    if undefined:
        out.append(Warning(
            code="undefined_values",
            message="Undefined values: " + "; ".join(undefined) + ". Every report must name the "
            "convention that resolves them (zero, baseline or omit) and list each resolved value.",
        ))
    small = [(str(labels[i]), a) for i, a in enumerate(summary.true_sizes) if 0 < a < settings.min_class_items]
    parts: list[str] = []
    if small:
        shown = few_names([f"{c} ({a:g} items, ±{0.98 / math.sqrt(a):.2f})" for c, a in small], 5)
        one = len(small) == 1
        parts.append(
            f"{'class' if one else 'classes'} {shown} {'has' if one else 'have'} fewer than "
            f"{settings.min_class_items} test items; ± is the half-width of a 95% interval for a recall of 0.5 there"
        )
    if summary.n < settings.min_items:
        parts.append(f"only {summary.n:g} items in all (fewer than {settings.min_items})")
    if parts:
        out.append(Warning(
            code="small_sample",
            message="Small sample: " + "; ".join(parts) + ". Report bootstrap confidence intervals and "
            "do not read small differences between systems as real.",
        ))
    return out
