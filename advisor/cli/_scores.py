"""``--costs`` / ``--priors`` and the score metrics of prediction files, for the evaluation commands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._exceptions import InputError

__all__ = ["parse_costs", "parse_priors", "score_results"]


def _pairs(text: str, option: str, example: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in [p for p in text.split(",") if p.strip()]:
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise InputError(f"{option} must look like {example}; got {text!r}.")
        try:
            out[key.strip()] = float(value)
        except ValueError:
            raise InputError(f"{option} must look like {example}; {key.strip()!r} has {value.strip()!r}, not a number.") from None
    if not out:
        raise InputError(f"{option} must look like {example}; got {text!r}.")
    return out


def parse_costs(text: str | None) -> Any:
    """``fn=10,fp=1`` → ``{"fn": 10, "fp": 1}``; a path → ``{true: {decision: cost}}`` from a labelled CSV.

    >>> parse_costs("fn=10,fp=1")
    {'fn': 10.0, 'fp': 1.0}
    """
    if text is None:
        return None
    if "=" not in text:
        from ..io._matrices import read_matrix

        if not Path(text).exists():
            raise InputError(f"--costs must be fn=COST,fp=COST or a cost-matrix CSV file; {text!r} is neither.")
        m = read_matrix(Path(text))
        return {t: {d: float(m.counts[i, j]) for j, d in enumerate(m.labels)} for i, t in enumerate(m.labels)}
    costs = _pairs(text, "--costs", "fn=10,fp=1 (or a cost-matrix CSV file)")
    unknown = sorted(set(costs) - {"fn", "fp"})
    if unknown:
        raise InputError(f"--costs takes fn and fp (or a cost-matrix CSV file); got {', '.join(unknown)}.")
    return costs


def parse_priors(text: str | None) -> dict[str, float] | None:
    """``pos=0.02,neg=0.98`` → ``{"pos": 0.02, "neg": 0.98}`` (checked against the classes later).

    >>> parse_priors("pos=0.02,neg=0.98")
    {'pos': 0.02, 'neg': 0.98}
    """
    return None if text is None else _pairs(text, "--priors", "LABEL=SHARE,LABEL=SHARE (shares summing to 1)")


def score_results(files: list[Path], names: list[str], systems: dict[str, Any], labels: list[Any],
                  positive: Any, costs: Any, priors: Any, true_col: str | None, pred_col: str | None
                  ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, Any]]]:
    """``({system: {id: value}}, {system: details})`` — score metrics of files with probability or score
    columns, and the expected costs of every system when ``costs`` are given."""
    from ..engine._score_eval import cost_metrics, score_metrics
    from ..io._scores import has_scores, read_scored

    values: dict[str, dict[str, float]] = {name: {} for name in systems}
    details: dict[str, dict[str, Any]] = {}
    pos = None
    if positive is not None:
        pos = next((lab for lab in labels if str(lab) == str(positive)), positive)
    for name, path in zip(names, files):
        if not has_scores(path):
            continue
        f = read_scored(path, true_col=true_col or "y_true", pred_col=pred_col or "y_pred")
        v, d = score_metrics(f.y_true, labels, proba=f.proba, proba_labels=f.proba_labels, score=f.score,
                             positive_label=pos, what=str(path))
        values[name].update(v)
        if d:
            details[name] = d
    if costs is not None or priors is not None:
        for name, cm in systems.items():
            values[name].update(cost_metrics(cm, costs, priors, positive_label=pos))
    return {k: v for k, v in values.items() if v}, details
