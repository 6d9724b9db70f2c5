r"""Several runs of one system (training seeds): the mean over runs, and an interval over runs and items.

A system trained with several seeds is a distribution of classifiers; its estimate is the mean of the
metric over its runs, and its interval must carry both sources of variation — which runs were trained
and which test items were drawn (Bouthillier et al. 2021). The bootstrap is two-stage: each resample
draws the test items (paired across every run of every system) and, for each system, its runs with
replacement; the system's resampled value is the mean over the drawn runs of the metric on the drawn
items. With one run per system this is the ordinary paired bootstrap.

BCa's acceleration comes from the jackknife over items of the run mean; the run draw adds spread
around it, which the bias correction and the quantiles take in. Proportions lose their exact interval
(a mean of several runs' proportions is not binomial) and McNemar's test is not run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["RunLayout", "combine_points", "combine_resamples"]


class RunLayout:
    """Which system each column (run) belongs to: ``names`` in first-seen order, ``of_column[j]`` the index of
    column ``j``'s system, ``columns[s]`` the columns of system ``s``."""

    def __init__(self, column_systems: Sequence[str]) -> None:
        self.names = list(dict.fromkeys(column_systems))
        self.of_column = np.array([self.names.index(s) for s in column_systems], dtype=np.intp)
        self.columns = [np.flatnonzero(self.of_column == s) for s in range(len(self.names))]

    @property
    def runs(self) -> dict[str, int]:
        return {n: int(c.size) for n, c in zip(self.names, self.columns)}

    @property
    def several(self) -> bool:
        return any(c.size > 1 for c in self.columns)


def combine_points(points: np.ndarray, layout: RunLayout) -> np.ndarray:
    """Each system's mean over its runs: ``points`` (..., columns) → (..., systems); NaN if a run is."""
    return np.stack([points[..., c].mean(axis=-1) for c in layout.columns], axis=-1)


def combine_resamples(values: np.ndarray, layout: RunLayout, rng: np.random.Generator) -> np.ndarray:
    """Two-stage resamples: ``values`` (..., B, columns) → (..., B, systems), each resample's runs of a system
    drawn with replacement (the same draw for every metric of a resample) and averaged."""
    b = values.shape[-2]
    out = np.empty(values.shape[:-1] + (len(layout.names),))
    for s, cols in enumerate(layout.columns):
        pick = cols[rng.integers(0, cols.size, size=(b, cols.size))]  # (B, R_s) drawn runs
        out[..., s] = np.take_along_axis(values, np.broadcast_to(pick, values.shape[:-2] + pick.shape), axis=-1
                                         ).mean(axis=-1)
    return out
