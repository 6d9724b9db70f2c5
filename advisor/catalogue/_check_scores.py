"""Score and probability metrics as the property checker sees them: on hard (one-hot) outputs.

The properties of the catalogue (Opitz 2024; Gösgens et al. 2021) are defined for a pair of labelings,
i.e. for a confusion matrix. A metric of scores or probabilities meets them through its hard outputs:
each cell ``C_ij`` of a matrix stands for ``C_ij`` items of true class ``i`` whose output puts all
probability (score 1) on class ``j``. The checker evaluates the engine's own implementations
(:class:`advisor.engine._scores.Ranking`, :class:`~advisor.engine._scores.Calibration`, the log-loss
clipping) on those items, with the cell masses as item weights, so fractional (calibrated) matrices
work too. A "fails" found here is a failure of the metric itself (hard outputs are valid outputs);
a "holds" is a statement about hard outputs, which the claims say.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..engine import LOG_LOSS_EPS, Calibration, Ranking, multiclass_auc

__all__ = ["HARD_OUTPUT_METRICS", "hard_evaluator"]

HARD_OUTPUT_METRICS = ("log_loss", "brier", "roc_auc", "average_precision", "brier_binary", "ece")


def _items(k: int) -> tuple[np.ndarray, np.ndarray]:
    true = np.repeat(np.arange(k), k)
    proba = np.tile(np.eye(k), (k, 1))  # item (i, j): all mass on j
    return true, proba


def _weights(counts: np.ndarray) -> np.ndarray:
    c = np.asarray(counts, dtype=np.float64)
    return c.reshape(c.shape[0], -1)


def _mean_loss(loss: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    def ev(counts: np.ndarray) -> np.ndarray:
        k = counts.shape[-1]
        true, proba = _items(k)
        w = _weights(counts)
        return (w @ loss(true, proba)) / w.sum(axis=1)
    return ev


def _log_loss(true: np.ndarray, proba: np.ndarray) -> np.ndarray:
    p = np.clip(proba[np.arange(len(true)), true], LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS)
    return -np.log(p)


def _brier(true: np.ndarray, proba: np.ndarray) -> np.ndarray:
    d = proba - np.eye(proba.shape[1])[true]
    return (d * d).sum(axis=1)


def _brier_binary(true: np.ndarray, proba: np.ndarray) -> np.ndarray:
    return (proba[:, 1] - (true == 1)) ** 2


def _ranking(kind: str) -> Callable[[np.ndarray], np.ndarray]:
    def ev(counts: np.ndarray) -> np.ndarray:
        k = counts.shape[-1]
        true, proba = _items(k)
        w = _weights(counts)
        if k == 2:
            y = (true == 1).astype(np.float64)
            r = Ranking(proba[:, 1])
            return r.auc(w * y, w * (1 - y)) if kind == "auc" else r.ap(w * y, w * (1 - y))
        if kind == "auc":
            return multiclass_auc(true, proba, k, "ovr", "macro", w)
        onehot = (true[:, None] == np.arange(k)).astype(np.float64)
        return np.mean([Ranking(proba[:, c]).ap(w * onehot[:, c], w * (1 - onehot[:, c])) for c in range(k)], axis=0)
    return ev


def _ece(counts: np.ndarray) -> np.ndarray:
    k = counts.shape[-1]
    true, proba = _items(k)
    return Calibration(true, proba).ece(_weights(counts))


_EVALUATORS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "log_loss": _mean_loss(_log_loss),
    "brier": _mean_loss(_brier),
    "brier_binary": _mean_loss(_brier_binary),
    "roc_auc": _ranking("auc"),
    "average_precision": _ranking("ap"),
    "ece": _ece,
}


def hard_evaluator(metric_id: str) -> Callable[[np.ndarray], np.ndarray] | None:
    """Values of ``metric_id`` on the hard outputs of a stack of matrices ``(N, k, k)``, or None.

    >>> ev = hard_evaluator("roc_auc")
    >>> ev(np.array([[[3.0, 1.0], [2.0, 2.0]]])).round(4).tolist()   # (TPR + TNR) / 2 on hard scores
    [0.625]
    >>> hard_evaluator("brier")(np.array([[[3.0, 1.0], [2.0, 2.0]]])).tolist()   # 2 (1 − accuracy)
    [0.75]
    """
    return _EVALUATORS.get(metric_id)
