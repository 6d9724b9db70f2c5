"""How far the claims of expected cost carry beyond its defaults: a counterexample search over costs and priors.

The catalogue states the properties of ``expected_cost`` and ``normalized_expected_cost`` at their
defaults — 0/1 costs at the test set's priors, where EC = 1 − accuracy — and the audit checks them there.
A user who gives costs (or deployment priors) evaluates another function. This search takes random cost
matrices (zero diagonal, off-diagonal costs in [0.2, 5]) at the test priors, and random fixed priors with
0/1 costs, and looks for a counterexample to every ``holds`` claim among matrices in which every class
occurs in the truth. A counterexample here does not refute
the claim (it is stated for the defaults); it shows that the property is a property of the defaults only,
and it is reported by ``advisor audit`` with the costs or priors that produce it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..engine import expected_cost_batch
from ._checker import PROPERTIES
from ._models import Catalogue
from ._space import MetricFunction

__all__ = ["COST_METRICS", "cost_scope"]

COST_METRICS = ("expected_cost", "normalized_expected_cost")
SCENARIOS = ("costs", "priors")


def _scenario(kind: str, rng: np.random.Generator, ks: Iterable[int]) -> dict[int, tuple[np.ndarray, np.ndarray | None]]:
    out: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
    for k in ks:
        if kind == "costs":
            c = np.round(rng.uniform(0.2, 5.0, (k, k)), 2)
            np.fill_diagonal(c, 0.0)
            out[k] = (c, None)
        else:
            out[k] = (1.0 - np.eye(k), np.round(rng.dirichlet(np.full(k, 2.0)), 3))
    return out


def cost_scope(catalogue: Catalogue, budget: int, seed: int, metrics: Iterable[str] | None, *,
               holds: Callable[..., tuple[bool, str, Any]]) -> list[dict[str, Any]]:
    """Counterexamples to the ``holds`` claims of the cost metrics under other costs or priors.

    ``holds`` is the audit's search for a ``holds`` claim (passed in: the audit calls this module). Each
    entry: metric, property, scenario (``costs`` at test priors, or ``priors`` with 0/1 costs), the cost
    matrix and priors used, the matrices and the explanation.
    """
    wanted = [m for m in COST_METRICS if m in catalogue.metrics and (metrics is None or m in set(metrics))]
    out: list[dict[str, Any]] = []
    for mid in wanted:
        record = catalogue.metrics[mid]
        for kind in SCENARIOS:
            rng = np.random.default_rng([seed, sum(map(ord, mid)), len(kind)])
            for pid, claim in record.properties.items():
                if claim.status != "holds" or pid == "chance_correction":
                    continue
                # every class occurs in the truth (a class with a prior and no items has no error rates), and
                # the matrix is evaluated whole: its class count picks the cost matrix, so no class is dropped
                f = MetricFunction(mid, record.higher_is_better, restrict="truth_complete")
                f.ordinal = True
                setting = _scenario(kind, rng, f.ks)

                def ev(counts: np.ndarray, mid: str = mid, setting: dict = setting) -> np.ndarray:
                    c, pi = setting[counts.shape[-1]]
                    ec, nec = expected_cost_batch(counts, c, pi)
                    return ec if mid == "expected_cost" else nec

                f._hard = ev  # the checker's hook for metrics it evaluates itself
                ok, detail, ce = holds(PROPERTIES[pid], f, f.ks, rng, budget)
                if ok or ce is None:
                    continue
                k = len(ce.matrices[0])
                c, pi = setting[k]
                out.append({"metric": mid, "property": pid, "scenario": kind, "costs": c.tolist(),
                            "priors": None if pi is None else pi.tolist(), "matrices": ce.matrices,
                            "explanation": detail})
    return out
