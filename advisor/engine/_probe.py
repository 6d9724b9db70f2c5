"""Which metrics can meet an undefined value, found by computing them on the matrices that cause one.

The methods paragraph states the undefined-value convention only when a reported metric can hit it, and
names that metric with the case that makes it undefined (issue 22: no clause for nothing). Whether a
metric can hit a zero denominator is not declared by hand: it is read off the engine's own records of
undefined values (:class:`~advisor.engine._components.UndefinedValue`) on a few small degenerate inputs —
a class never predicted, a class absent from the truth, a class absent from both, one class for
everything — so the text cannot drift from the formulas.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._agreement import agreement_metrics
from ._metrics import METRICS, PARAMETER_OF, compute_metrics
from ._multilabel import MULTILABEL_METRICS, multilabel_metrics
from ._ordinal import ordinal_metrics
from ._structures import STRUCTURE_METRICS

__all__ = ["CASES", "undefined_case", "undefined_whole"]

#: The degenerate situations, in the order the text prefers them as an example.
CASES: tuple[str, ...] = ("never_predicted", "absent", "absent_both", "constant", "empty_item")


def _nominal(case: str, k: int, c: int) -> np.ndarray:
    """A k×k matrix in which class ``c`` is in ``case`` and every other class is predicted right once."""
    m = np.eye(k, dtype=np.int64)
    other = (c + 1) % k
    if case == "never_predicted":  # its items all go to another class
        m[c, c], m[c, other] = 0, 1
    elif case == "absent":  # no true item, one predicted
        m[c, c], m[other, c] = 0, 1
    elif case == "absent_both":
        m[c, c] = 0
    elif case == "constant":  # every item true and predicted as c
        m[:] = 0
        m[c, c] = 3
    return m


def _nominal_case(metric: str, k: int, positive: bool) -> tuple[str, bool] | None:
    spec = METRICS[metric]
    binary = spec.binary_only or positive
    # two classes are probed as two (MCC meets 0/0 when a class is never predicted, the accept-everything baseline
    # of CoLA, not only when every item is one class: the CoLA reader)
    size = 2 if binary or k == 2 else max(3, min(k, 4))
    focus = (0, 1) if binary else (0,)
    for case in CASES[:4]:
        for c in focus:
            m = _nominal(case, size, c)
            try:
                param = PARAMETER_OF.get(metric)
                r = compute_metrics(m, [metric], positive_label=0 if binary else None,
                                    class_weights=np.ones(size) if param == "class_weights" else None,
                                    f1_classes=np.arange(size) < 2 if param == "f1_classes" else None,
                                    undefined="omit")
            except Exception:  # a matrix the metric refuses (all zeros) is not a case it meets
                continue
            if any(u.metric == metric for u in r.undefined):
                return case + ("_negative" if binary and c == 1 else ""), bool(np.isnan(r[metric]))
    return None


def _structure_case(metric: str, structure: str) -> tuple[str, bool] | None:
    if structure == "ordinal":
        for case in CASES[:4]:
            r = ordinal_metrics(_nominal(case, 3, 0), [metric], undefined="omit")
            if any(u.metric == metric for u in r.undefined):
                return case, bool(np.isnan(r[metric]))
    elif structure == "multilabel" and metric in MULTILABEL_METRICS:  # the label sets' metrics (scores: none)
        probes = {"absent_both": ([[1, 0], [1, 0]], [[1, 0], [0, 0]]),  # label 2 in neither labeling
                  "empty_item": ([[1, 1], [0, 0]], [[1, 0], [0, 0]]),  # item 2 has no label, none predicted
                  "constant": ([[0, 0], [0, 0]], [[0, 0], [0, 0]])}
        for case, (t, p) in probes.items():
            r = multilabel_metrics(t, p, [metric], undefined="omit")
            if any(u.metric == metric for u in r.undefined):
                return case, bool(np.isnan(r[metric]))
    elif structure == "agreement":
        r = agreement_metrics([[1, 1], [1, 1], [1, 1]], [metric], categories=[1, 2], undefined="omit")
        if any(u.metric == metric for u in r.undefined):
            return "constant", bool(np.isnan(r[metric]))
    return None


def undefined_case(metric: str, k: int = 3, positive: bool = False) -> str | None:
    """The first case (of :data:`CASES`, ``_negative`` appended when it is the negative class of a binary metric)
    in which ``metric`` meets an undefined value, or None when it never does (accuracy, log loss, MAE).

    >>> undefined_case("recall", 2, positive=True), undefined_case("specificity", 2, positive=True)
    ('absent', 'absent_negative')
    >>> undefined_case("macro_precision"), undefined_case("accuracy"), undefined_case("log_loss")
    ('never_predicted', None, None)
    >>> undefined_case("multilabel_macro_f1"), undefined_case("mae"), undefined_case("mae_macro")
    ('absent_both', None, 'absent')
    """
    probe = _probe(metric, k, positive)
    return None if probe is None else probe[0]


def undefined_whole(metric: str, k: int = 3, positive: bool = False) -> bool:
    """Whether, in the case of :func:`undefined_case`, the undefined value is the whole figure (NaN under ``omit``:
    a rate of one class, MCC of a constant labeling) rather than one class's or label's term that a mean over the
    classes leaves out (balanced accuracy, macro F1) — so the text says "reported as undefined" or "left out of its
    mean" as the engine does, not by a list kept by hand (issue 22: MCC and one class's recall were said to leave a
    class out of a mean).

    >>> undefined_whole("mcc", 2), undefined_whole("recall", 4, positive=True), undefined_whole("balanced_accuracy")
    (True, True, False)
    >>> undefined_whole("multilabel_macro_f1"), undefined_whole("accuracy")
    (False, False)
    """
    probe = _probe(metric, k, positive)
    return probe is not None and probe[1]


@lru_cache(maxsize=512)
def _probe(metric: str, k: int, positive: bool) -> tuple[str, bool] | None:
    if metric in METRICS and not METRICS[metric].needs_probabilities and not METRICS[metric].needs_subgroups:
        return _nominal_case(metric, k, positive)
    spec = STRUCTURE_METRICS.get(metric)
    if spec is not None:
        return _structure_case(metric, spec.structure)
    return None
