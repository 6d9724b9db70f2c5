"""The report's inputs, checked and normalised before any work is done: answers, data, arguments."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg
from ..engine import CONVENTIONS, ConfusionMatrix, JointCounts, answered_matrix
from ..questionnaire import Answers, answers_from_mapping
from ..questionnaire import load_answers as load_file
from ..stats import check_enough_resamples

__all__ = ["abstained_of", "check_arguments", "check_positive", "check_resampling", "load_answers", "match_label",
           "systems_of", "zero_probability_counts"]


# ----------------------------------------------------------------------------------------------
def load_answers(answers: Any) -> Any:
    if isinstance(answers, Answers):
        return answers
    if isinstance(answers, (str, os.PathLike)):
        return load_file(Path(answers))
    if isinstance(answers, Mapping):
        return answers_from_mapping(dict(answers))
    if answers is None:
        return Answers()
    raise InputError(f"answers must be an Answers object, a mapping or an answers file; got {type(answers).__name__}.")


def _is_frame(data: Any) -> bool:
    """A pandas (or polars) DataFrame, recognised without importing pandas."""
    return hasattr(data, "columns") and hasattr(data, "shape") and not isinstance(data, Mapping)


def _frame_columns(frame: Any) -> tuple[dict[str, Any], list[str]]:
    """A DataFrame's label columns as a mapping (``y_true`` + one per system) and notes."""
    columns = [str(c) for c in frame.columns]
    if "y_true" not in columns:
        raise InputError(f"a DataFrame given as data needs a y_true column (the true labels) and one column of "
                         f"predicted labels per system; its columns are {', '.join(columns) or 'none'}.")
    probs = [c for c in columns if c.startswith(("p_", "proba_")) or c == "score"]
    out = {c: frame[c].to_numpy() for c in columns if c not in probs}
    if list(out) == ["y_true", "y_pred"]:  # the prediction-file layout: one system, its scores read by the report
        return {"y_true": out["y_true"], "system": out["y_pred"]}, []
    notes = [f"the score columns ({', '.join(probs)}) of a DataFrame with several systems are not used; give "
             "scores={system: …} for ROC AUC, average precision, log loss and the Brier score."] if probs else []
    return out, notes


def _label_arrays(data: Mapping[str, Any], notes: list[str], reject: Any = None
                  ) -> tuple[dict[str, Any], Any, dict, list[str]]:
    """``{"y_true": labels, name: predicted labels, …}`` → paired systems on the same items (``reject``: the label a
    system writes when it abstains, no class)."""
    preds = {str(k): v for k, v in data.items() if k != "y_true"}
    if not preds:
        raise InputError("data has y_true but no system; add one entry of predicted labels per system, e.g. "
                         "{'y_true': y_true, 'model': y_pred}.")
    joint = JointCounts.from_arrays(data["y_true"], preds, reject_label=reject)
    return joint.matrices(), joint, {}, notes


def _one_dimensional(value: Any) -> bool:
    import numpy as np

    try:
        return np.asarray(value, dtype=object).ndim == 1
    except (ValueError, TypeError):
        return False


def systems_of(data: Any, reject: Any = None) -> tuple[dict[str, Any], Any, dict[str, dict[str, float]], list[str]]:
    """(name → ConfusionMatrix, joint table or None, probability scores, notes).

    ``reject``: the label a system writes when it abstains (issue 23) — no class: label arrays and matrices give
    the items each system answered (a Dataset or PredictionSet: :func:`advisor.io.with_reject` first).

    ``data`` is a Dataset (:func:`advisor.load`), a PredictionSet, a ConfusionMatrix, a mapping of system name → confusion matrix,
    a mapping of label arrays ``{"y_true": y_true, "model_a": pred_a, …}`` (paired: the systems
    predict the same items), or a DataFrame with a ``y_true`` column and one predicted-label column
    per system (or ``y_pred`` for one).

    >>> systems, joint, _, _ = systems_of({"y_true": ["a", "b", "b"], "m": ["a", "b", "a"]})
    >>> int(systems["m"].counts[1][0]), int(systems["m"].counts[1][1]), joint.systems
    (1, 1, ('m',))
    """
    if data is None:
        return {}, None, {}, []
    if type(data).__name__ == "StructuredInputs":  # issue 12: its own builder
        raise InputError("inputs from load_structured (ordered classes, label sets, top-k, annotators) are reported "
                         "by build_structured_report(answers, inputs), not build_report.")
    notes: list[str] = []
    if _is_frame(data):
        data, notes = _frame_columns(data)
    if isinstance(data, Mapping) and "y_true" in data:
        return _label_arrays(data, notes, reject)
    if isinstance(data, Mapping) and data and all(_one_dimensional(v) for v in data.values()):
        raise InputError("data looks like predicted labels (one list per system) but has no y_true; give the true "
                         "labels too: {'y_true': y_true, 'model': y_pred, …}, or confusion matrices.")
    if hasattr(data, "systems") and hasattr(data, "joint"):
        return (dict(data.systems), data.joint, dict(getattr(data, "probabilities", {}) or {}),
                list(getattr(data, "notes", []) or []))
    if isinstance(data, ConfusionMatrix):
        return {"system": data if reject is None else answered_matrix(data, reject)[0]}, None, {}, []
    if isinstance(data, Mapping):
        out = {}
        for name, m in data.items():
            out[str(name)] = m if isinstance(m, ConfusionMatrix) else ConfusionMatrix(m)
            if reject is not None:
                out[str(name)] = answered_matrix(out[str(name)], reject)[0]
        if not out:
            raise InputError("no systems to report on; give at least one prediction file or matrix.")
        return out, None, {}, []
    raise InputError(
        f"data must be a Dataset (advisor.load), a PredictionSet (read_predictions), a mapping of system name to confusion matrix, a mapping "
        f"of label arrays with y_true, or a DataFrame with y_true and predicted-label columns; got "
        f"{type(data).__name__}."
    )


def abstained_of(data: Any, joint: Any, systems: Mapping[str, Any], reject: Any) -> dict[str, float]:
    """Per system, the items it abstained on (wrote ``reject``): from the paired table, a Dataset's count, or the
    reject column of a confusion matrix given as such (empty without a reject label)."""
    if reject is None:
        return {}
    if joint is not None and getattr(joint, "reject", None) is not None:
        answered = joint.answered()
        return {name: float(joint.n - answered[name]) for name in systems if name in answered}
    if getattr(data, "abstained", None):
        return {str(k): float(v) for k, v in data.abstained.items()}
    out = {}
    raw = {"system": data} if isinstance(data, ConfusionMatrix) else data if isinstance(data, Mapping) else {}
    for name, m in raw.items():
        cm = m if isinstance(m, ConfusionMatrix) else None
        if cm is not None:
            out[str(name)] = answered_matrix(cm, reject)[1]
    return out


def zero_probability_counts(data: Any) -> dict[str, int]:
    """Per system, the items whose true class got probability 0 (a PredictionSet records them), else empty.

    >>> zero_probability_counts({"a": [[1, 0], [0, 1]]})
    {}
    """
    if hasattr(data, "systems") and hasattr(data, "joint"):
        return {str(k): int(v) for k, v in (getattr(data, "log_loss_zero", None) or {}).items()}
    return {}


def match_label(labels: Sequence[Any], wanted: Any, what: str) -> Any:
    for lab in labels:
        if lab == wanted or str(lab) == str(wanted):
            return lab
    shown = ", ".join(str(x) for x in labels[:20])
    raise InputError(f"{what} {wanted!r} is not one of the classes in the data ({shown}).")


def check_arguments(*, title: Any, undefined: Any, digits: Any) -> None:
    """One sentence naming the argument, the value and what is allowed — before any work is done."""
    if title is not None and not isinstance(title, str):
        raise InputError(f"title must be text (a str) or None; got {title!r} ({type(title).__name__}).")
    if undefined is not None and (not isinstance(undefined, str) or undefined not in CONVENTIONS):
        raise InputError(f"undefined must be one of {', '.join(CONVENTIONS)} (or None: the convention of the "
                         f"answers' field, else advisor's); got {undefined!r}.")
    if not isinstance(digits, int) or isinstance(digits, bool) or not 0 <= digits <= 15:
        raise InputError(f"digits must be a whole number of decimals from 0 to 15; got {digits!r}.")


def check_positive(positive_label: Any, answered: Any) -> None:
    """Refuse a positive class that contradicts the answers: the methods text and the numbers would disagree."""
    if positive_label is None or answered is None or str(positive_label) == str(answered):
        return
    raise InputError(f"the positive class {str(positive_label)!r} ({arg('positive_label')}) contradicts "
                     f"positive_class {str(answered)!r} in the answers; give the same class, or change the "
                     f"answers and leave {arg('positive_label')} out.")




def check_resampling(bootstrap: Any, confidence: Any) -> int:
    if bootstrap is None:
        bootstrap = 0
    if not isinstance(bootstrap, int) or isinstance(bootstrap, bool) or bootstrap < 0:
        raise InputError(f"bootstrap must be a whole number of resamples ≥ 0; got {bootstrap!r}.")
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise InputError(f"confidence must be a number between 0 and 1; got {confidence!r}.")
    if bootstrap > 0:  # 0: no intervals; otherwise enough resamples for the interval asked (issue 25)
        check_enough_resamples(bootstrap, float(confidence), "bootstrap")
    return bootstrap
