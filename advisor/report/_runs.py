"""Several training runs of each system in a report (issue 20 item 4): checked, and each system's figures as the
mean over its runs.

The runs come as columns of one paired prediction set (``A (run 1)``, ``A (run 2)``, …; ``advisor report A=a1.csv
A=a2.csv B=…``), ``runs`` naming the system of each column. The intervals, the paired differences and the winners come
from :func:`advisor.stats.compare_joint` with the same ``runs`` — two-stage resamples of runs and items
(:mod:`advisor.stats._runs`); no second resampler is written here. This module only

* refuses, in one sentence, the inputs a report cannot yet combine over runs (:func:`check_runs`): confusion
  matrices, scores or probabilities, abstentions, subgroups, resampled groups, anything but single labels of
  nominal classes; and a number of runs other than the answers' ``runs``;
* averages each system's per-run results into one :class:`SystemReport` (:func:`combine_reports`): the metric
  values and the per-class rows are means over the runs (a metric undefined in any run is undefined for the
  system, as in ``compare``); no confusion matrix is drawn, since a mean over runs has no counts of items.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .._exceptions import InputError
from ..stats import RunLayout
from ._models import PerClassRow, SystemReport

__all__ = ["SUPPORTED", "check_runs", "combine_reports", "mismatch", "run_view"]

#: What a report combines over runs, said in the refusals.
SUPPORTED = ("label predictions of one class per item, several files per system with the same items in the same "
             "order (the confusion-matrix metrics, their intervals, paired differences and winners)")


def mismatch(answered: int | None, counts: Mapping[str, int]) -> str | None:
    """One sentence when the answers' ``runs`` and the files' runs of some system differ, else None.

    >>> mismatch(5, {"A": 3, "B": 5})
    'The answers give runs: 5, but A has 3 run files; give 5 files for every system (NAME=FILE, the name repeated), or change runs in the answers.'
    >>> mismatch(None, {"A": 3}) is None, mismatch(3, {"A": 3, "B": 3}) is None
    (True, True)
    """
    if answered is None:
        return None
    off = next(((s, r) for s, r in counts.items() if r != answered), None)
    if off is None:
        return None
    name, r = off
    return (f"The answers give runs: {answered}, but {name} has {r} run file{'' if r == 1 else 's'}; give {answered} "
            f"file{'' if answered == 1 else 's'} for every system (NAME=FILE, the name repeated), or change runs in "
            "the answers.")


def check_runs(runs: Sequence[str] | None, columns: Sequence[str], *, joint: Any, probabilities: Any,
               reject: Any, subgroups: Sequence[str], groups: Any, structure: str, planned: bool) -> RunLayout | None:
    """The runs of each system (None when every system has one), or one sentence naming what is supported."""
    if runs is None:
        return None
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Sequence):
        raise InputError(f"runs must list the system of each prediction column; got {type(runs).__name__}.")
    if len(runs) != len(columns):
        raise InputError(f"runs must name the system of each of the {len(columns)} prediction columns; got {len(runs)}.")
    layout = RunLayout([str(r) for r in runs])
    if not layout.several:
        return None
    what = None
    if joint is None:
        what = "confusion matrices"
    elif probabilities:
        what = "scores or probabilities"
    elif reject is not None:
        what = "abstentions"
    elif subgroups:
        what = "subgroups"
    elif groups is not None:
        what = "resampled groups of items"
    elif structure != "nominal":
        what = f"label_structure: {structure}"
    elif not planned:
        what = "a recommendation given in place of the answers' plan"
    if what is not None:
        raise InputError(f"A report combines several runs of a system only for {SUPPORTED}, not with {what}; give "
                         "each run its own name to report it as a system of its own.")
    return layout


def run_view(systems: Mapping[str, Any], runs: Sequence[str] | None) -> dict[str, Any] | None:
    """What the plan reads of the data when some system has several runs: each system once (its first run's matrix,
    on the same items as the others), so that it counts systems, not run files; None otherwise."""
    if runs is None or isinstance(runs, (str, bytes)) or len(runs) != len(systems):
        return None
    layout = RunLayout([str(r) for r in runs])
    if not layout.several:
        return None
    columns = list(systems)
    return {name: systems[columns[int(cols[0])]] for name, cols in zip(layout.names, layout.columns)}


def _mean(values: Sequence[float | None]) -> float | None:
    """The mean over runs; None (undefined) when a run's value is."""
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values):
        return None
    return float(sum(values)) / len(values)  # type: ignore[arg-type]


def combine_reports(reports: Sequence[SystemReport], layout: RunLayout) -> list[SystemReport]:
    """Each system's report from its runs' reports (in ``layout``'s column order): every value and per-class figure
    the mean over its runs; the undefined values of every run, kept."""
    out = []
    for name, cols in zip(layout.names, layout.columns):
        runs = [reports[int(j)] for j in cols]
        ids = list(runs[0].values)
        per_class = []
        for i, row in enumerate(runs[0].per_class):
            rows = [r.per_class[i] for r in runs]
            per_class.append(PerClassRow(
                label=row.label, support=row.support, predicted=float(sum(r.predicted for r in rows)) / len(rows),
                **{f: _mean([getattr(r, f) for r in rows])
                   for f in ("precision", "recall", "f1", "jaccard", "specificity", "npv")}))
        out.append(SystemReport(name=name, values={m: _mean([r.values.get(m) for r in runs]) for m in ids},
                                per_class=per_class, runs=len(runs),
                                undefined=[u for r in runs for u in r.undefined]))
    return out
