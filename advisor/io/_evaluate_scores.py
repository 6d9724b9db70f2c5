"""``advisor.evaluate(…, costs=, priors=, scores=)``: the cost and score metrics beside the matrix metrics.

The expected costs come from each system's confusion matrix (costs and priors as on the command line:
``"fn=10,fp=1"``, ``{"fn": 10, "fp": 1}``, a cost-matrix CSV, ``"ill=0.02,well=0.98"`` or a mapping); the
score metrics (ROC AUC, average precision, binary Brier, ECE, log loss, Brier) from item-level scores on
the same items as the labels. Values go under ``metrics[system][id]`` like every other metric.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError
from ..engine import cost_metrics, probability_metrics, score_metrics
from ._costspec import parse_costs, parse_priors

__all__ = ["add_scores"]


def add_scores(ev: Any, systems: Mapping[str, Any], *, y_true: Sequence[Any] | None = None,
               scores: Mapping[str, Any] | None = None, costs: Any = None, priors: Any = None) -> Any:
    """``ev`` (an :class:`~advisor.engine._evaluate.Evaluation`) with the cost and score metrics added.

    >>> from advisor.engine._evaluate import evaluate
    >>> ev = evaluate({"m": [[90, 10], [5, 45]]}, metrics=["accuracy"], positive_label=1)
    >>> round(add_scores(ev, {"m": [[90, 10], [5, 45]]}, costs="fn=10,fp=1", priors={0: 0.98, 1: 0.02})
    ...       .metrics["m"]["normalized_expected_cost"], 9)
    0.59
    """
    import numpy as np

    costs, priors = parse_costs(costs), parse_priors(priors)
    if scores is not None and not isinstance(scores, Mapping):
        raise InputError("scores must map each system's name to its scores (n numbers) or probabilities (n × k); got "
                         f"{type(scores).__name__}.")
    if not scores and costs is None and priors is None:
        return ev
    labels = list(ev.labels)
    values = {name: dict(v) for name, v in ev.metrics.items()}
    for name, s in (scores or {}).items():
        if name not in values:
            raise InputError(f"scores are given for {name!r}, which is not one of the systems "
                             f"({', '.join(values)}).")
        if y_true is None:
            raise InputError("scores need the true labels of the same items: evaluate(y_true, y_pred, scores=…) or a "
                             "DataFrame with y_true and a score or p_<label> columns.")
        if hasattr(s, "y_true") and hasattr(s, "proba"):  # a ScoredFile
            v, _ = score_metrics(s.y_true, labels, proba=s.proba, proba_labels=s.proba_labels, score=s.score,
                                 positive_label=ev.positive_label, what=name)
        else:
            try:
                a = np.asarray(s, dtype=np.float64)
            except (TypeError, ValueError):
                raise InputError(f"scores of {name!r} must be numbers: n scores or an n × k array of probabilities "
                                 "(one column per class).") from None
            kw = {"score": a} if a.ndim == 1 else {"proba": a, "proba_labels": [str(x) for x in labels]}
            v, _ = score_metrics(list(y_true), labels, positive_label=ev.positive_label, what=f"the scores of {name!r}",
                                 **kw)
            if a.ndim == 2:
                for m, x in probability_metrics(list(y_true), a, labels).items():
                    v.setdefault(m, float(x))
        values[name].update(v)
    if costs is not None or priors is not None:
        for name, cm in systems.items():
            values[str(name)].update(cost_metrics(cm, costs, priors, positive_label=ev.positive_label))
    return ev.model_copy(update={"metrics": values})
