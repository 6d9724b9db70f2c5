"""``--costs`` / ``--priors`` and the score metrics of prediction files, for the evaluation commands."""

from __future__ import annotations

from typing import Any

from .. import engine as engine_api
from .. import io as io_api
from .. import stats as stats_api
from .._exceptions import InputError
from .._format import format_number
from .._jsonio import envelope
from ._common import USUAL_RESAMPLES, echo, echo_json, label_cell
from ._intervals import calibration_lines
from ._progress import job

__all__ = ["compute_score_only", "merge_scored", "parse_costs", "parse_priors", "score_results", "scored_comparison"]


def parse_costs(text: str | None) -> Any:
    """``--costs``: ``fn=10,fp=1`` or a cost-matrix CSV (see :func:`advisor.io._costspec.parse_costs`).

    >>> parse_costs("fn=10,fp=1")
    {'fn': 10.0, 'fp': 1.0}
    """
    return io_api.parse_costs(text)


def parse_priors(text: str | None) -> dict[str, float] | None:
    """``--priors``: ``pos=0.02,neg=0.98`` → ``{"pos": 0.02, "neg": 0.98}`` (checked against the classes later).

    >>> parse_priors("pos=0.02,neg=0.98")
    {'pos': 0.02, 'neg': 0.98}
    """
    return io_api.parse_priors(text)


def compute_score_only(ds: Any, positive: Any, costs: Any, priors: Any, as_json: bool,
                       only: list[str] | None = None) -> bool:
    """``advisor compute`` on files of true labels and scores only (no decisions): the score metrics alone, or only
    the score metrics asked for (``only``, from --metrics; the Kolmogorov–Smirnov statistic is computed on request).

    False when the inputs have decisions (the ordinary path then evaluates them)."""
    if not ds.score_only:
        return False
    if ds.systems:
        name = ds.score_only[0]
        raise InputError(f"{name} has scores but no predicted-label column while the other inputs have one; give "
                         "every system's decisions, or only files of scores.")
    if costs is not None or priors is not None:
        raise InputError("expected costs need decisions: the files have scores but no predicted-label column; add "
                         "one, or leave out --costs and --priors.")
    metrics: dict[str, dict[str, float]] = {}
    labels: list[str] = []
    notes: list[str] = []
    asked = [m for m in only or [] if m in engine_api.SCORE_IDS + engine_api.SCORE_ON_REQUEST]
    for name in ds.score_only:
        f = ds.scores[name]
        labels = sorted(set(f.y_true) | set(f.proba_labels))
        v, _ = engine_api.score_metrics(f.y_true, labels, proba=f.proba, proba_labels=f.proba_labels, score=f.score,
                                        positive_label=positive, what=name, notes=notes, also=asked)
        metrics[name] = {m: x for m, x in v.items() if m in asked} if asked else v
    for note in dict.fromkeys(notes):
        echo(f"note: {note}", err=True)
    if as_json:
        echo_json(envelope("compute", {"systems": list(metrics), "labels": labels, "metrics": metrics,
                                       "positive_label": positive,
                                       **({"notes": list(dict.fromkeys(notes))} if notes else {})}))
    else:
        for name, vals in metrics.items():
            echo(f"{name}: " + ", ".join(f"{m} = {v:.4g}" for m, v in vals.items()))
    return True


def split_score_ids(ids: list[str] | None, costs: str | None, priors: str | None
                    ) -> tuple[list[str] | None, list[str], Any, Any]:
    """``(matrix ids, score/cost ids, costs, priors)``: the ids asked for split by where they are computed."""
    new_ids = [m for m in ids or [] if m in engine_api.SCORE_IDS + engine_api.SCORE_ON_REQUEST + engine_api.COST_IDS]
    rest = [m for m in ids if m not in new_ids] if ids is not None else None
    return rest, new_ids, parse_costs(costs), parse_priors(priors)


def with_scores(data: dict[str, Any], extra: dict[str, dict[str, float]], details: dict[str, Any]) -> dict[str, Any]:
    """The JSON of an evaluation with the score/cost metrics under ``metrics[system][id]``."""
    for name, vals in extra.items():
        data["metrics"].setdefault(name, {}).update(vals)
    if details:
        data["score_details"] = details
    return data


def merge_scored(data: dict[str, Any], scored: dict[str, Any]) -> dict[str, Any]:
    """``advisor compare --json`` (``data``, :meth:`advisor.Comparison.to_dict`) with the item-level comparison of
    the score, probability and cost metrics (``scored``, :func:`scored_comparison`) in the same places: each
    system's value in ``metrics[system][id]`` and its interval in ``intervals[system][id]``, its rank interval in
    ``rank_intervals[system][id]``, the pairs and winners under ``pairs[id]`` and ``winners[id]``, the
    calibration errors in ``calibration[system]`` and the method in ``bootstrap["score_method"]``."""
    for s, per in scored["metrics"].items():
        for m, iv in per.items():
            data["metrics"].setdefault(s, {})[m] = iv["estimate"]
            data["intervals"].setdefault(s, {})[m] = iv
    for m, per in scored["rank_intervals"].items():
        for s, ri in per.items():
            data["rank_intervals"].setdefault(s, {})[m] = list(ri)
    for m, pairs in scored["pairs"].items():  # named as the comparison's own pairs
        data["pairs"][m] = [{**{k: v for k, v in p.items() if k != "probability_better"},
                             "p_a_better": p.get("probability_better")} for p in pairs]
    data["winners"].update(scored["winners"])
    if scored.get("calibration"):
        data["calibration"] = scored["calibration"]
    data["bootstrap"]["score_method"] = scored["method"]
    return data


def score_results(scored: dict[str, Any], systems: dict[str, Any], labels: list[Any], positive: Any, costs: Any,
                  priors: Any, only: list[str] | None = None, notes: list[str] | None = None
                  ) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, Any]]]:
    """``({system: {id: value}}, {system: details})`` — score metrics of the systems with item-level scores
    (:attr:`advisor.Dataset.scores`), and the expected costs of every system when ``costs`` are given."""
    values: dict[str, dict[str, float]] = {name: {} for name in systems}
    details: dict[str, dict[str, Any]] = {}
    pos = None
    if positive is not None:
        pos = next((lab for lab in labels if str(lab) == str(positive)), positive)
    for name, f in scored.items():
        v, d = engine_api.score_metrics(f.y_true, labels, proba=f.proba, proba_labels=f.proba_labels, score=f.score,
                                        positive_label=pos, what=name, notes=notes, also=only or ())
        values.setdefault(name, {}).update(v)
        if d:
            details[name] = d
    if costs is not None or priors is not None:
        for name, cm in systems.items():
            values[name].update(engine_api.cost_metrics(cm, costs, priors, positive_label=pos))
    if only:
        values = {s: {m: v for m, v in vals.items() if m in only} for s, vals in values.items()}
    return {k: v for k, v in values.items() if v}, details


def scored_comparison(scored: dict[str, Any], names: list[str], labels: list[Any], positive: Any, costs: Any,
                      priors: Any, n_boot: int, confidence: float, seed: Any, metrics: list[str] | None = None,
                      systems: dict[str, Any] | None = None, runs: list[str] | None = None) -> dict[str, Any] | None:
    """Paired item bootstrap of the score/probability/cost metrics of ``scored`` (:attr:`advisor.Dataset.scores`).

    None when not every system has scores and no costs are asked for. Every system must have the same kind of
    output (probability columns, or a score column)."""
    if not names or not all(n in scored for n in names):
        return None
    outs: dict[str, Any] = {}
    decisions: dict[str, Any] = {}
    y_true: list[str] = []
    for name in names:
        f = scored[name]
        y_true = f.y_true
        outs[name] = (f.score if f.score is not None
                      else engine_api.align_probabilities(labels, f.proba, f.proba_labels, name))
        if f.score is None and outs[name].shape[1] > len(labels):  # columns for classes no item has
            labels = engine_api.score_classes(labels, f.proba_labels)
        if f.y_pred is not None and (costs is not None or priors is not None):
            decisions[name] = f.y_pred
    label_of = {str(lab): lab for lab in labels}
    y = [label_of.get(t, t) for t in y_true]
    dec = {n: [label_of.get(t, t) for t in d] for n, d in decisions.items()} or None
    pos = next((lab for lab in labels if str(lab) == str(positive)), None) if positive is not None else None
    groups = getattr(scored[names[0]], "group", None)  # --group: resample the items' groups (issue 20)
    with job("paired bootstrap of the scores", unit="resamples", option="--bootstrap", value=n_boot,
             usual=USUAL_RESAMPLES) as progress:
        res = stats_api.compare_scored(y, outs, labels, positive_label=pos, metrics=metrics, decisions=dec,
                                       costs=costs, priors=priors, n_resamples=n_boot, confidence=confidence, seed=seed,
                                       groups=groups, runs=runs, progress=progress)
    return res.to_dict()


def print_scored(data: dict[str, Any]) -> None:
    """The score metrics as one more table of ``advisor compare`` (a row per metric, a column per
    system: the estimate with * for the winners over its interval and its rank interval), then the
    method in a wrapped note — lines that fit the terminal like the tables above them."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    systems = list(data["metrics"])
    ids = list(next(iter(data["metrics"].values())))
    table = Table(title="score metrics (from the scores and probabilities)", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("metric", no_wrap=True)
    for s in systems:
        table.add_column(label_cell(s), justify="right", min_width=14)
    for m in ids:
        cells = []
        for s in systems:
            v = data["metrics"][s][m]
            lo, hi = data["rank_intervals"][m][s]
            rank = f"rank {lo:g}" if lo == hi else f"rank {lo:g}–{hi:g}"
            star = "*" if s in data["winners"][m] else " "
            iv = "(no interval)" if v["low"] is None or v["high"] is None else \
                f"[{format_number(v['low'], 3)}, {format_number(v['high'], 3)}]"
            cells.append(f"{format_number(v['estimate'])}{star}\n{iv}\n{rank}")
        table.add_row(m + (" ↓" if m in engine_api.LOWER_IS_BETTER else ""), *cells)
    console = Console(highlight=False)
    console.print(table)
    console.print(f"Score metrics: {data['n_resamples']} paired item resamples; {data['method']}. * marks the "
                  "winners; rank: the interval of ranks over the resamples.", style="dim", markup=False)

    for line in calibration_lines(data.get("calibration")):
        console.print(line, markup=False)
