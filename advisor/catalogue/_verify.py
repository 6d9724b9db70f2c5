"""Regenerate ``verification.yaml``: counterexamples for every failing claim, then a full audit.

Run by maintainers after editing ``metrics.yaml`` or the metric engine::

    python -m advisor.catalogue --budget 3000

For every claim that must show a failure (``fails``, ``binary_only``, ``after_calibration``, and the
outside of a ``conditional`` claim) and has no counterexample written in ``metrics.yaml``, the checker
searches one, preferring matrices where every class occurs in the truth and is predicted (so the
counterexample does not depend on an undefined-value convention), then only the truth, then every
class in at least one labeling (so the checker drops no class and ``compute_metrics`` reproduces
the values as shown), then any.
The audit then sets ``verified`` per claim. The file records the budget and seed used.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ._audit import PV, PV_NEAR_BEST, audit
from ._check_scores import hard_evaluator
from ._check_structures import structure_counterexample
from ._checker import PROPERTIES, pii_illustration, random_classifiers
from ._load import NEEDS_COUNTEREXAMPLE, VERIFICATION_FILE, load_catalogue
from ._models import Catalogue, Counterexample, MetricRecord, PropertyClaim
from ._space import MetricFunction

__all__ = ["find_counterexample", "regenerate"]


def _chance_witness(record: MetricRecord, budget: int, rng: np.random.Generator) -> Counterexample | None:
    f = MetricFunction(record.id, record.higher_is_better)
    lo, hi = record.range
    best = f.top_value()
    for k in f.ks:
        c = random_classifiers(k, rng, max(budget, 200))
        v = f.values(c)
        i = int(np.nanargmin(np.abs(v - best)))
        if abs(v[i] - best) <= PV_NEAR_BEST * (hi - lo):
            return Counterexample(matrices=[c[i].tolist()], values=[float(v[i])],
                                  explanation=f"a random classifier (rows proportional to one predicted distribution) "
                                  f"scores {float(v[i]):.4g}, within {int(PV_NEAR_BEST * 100)} % of the best value",
                                  source="checker")
    return None


def find_counterexample(record: MetricRecord, pid: str, claim: PropertyClaim, *, budget: int = 3000,
                        seed: int = 0, calibrated: bool = False) -> Counterexample | None:
    """Search a counterexample showing that ``pid`` fails for the metric (or for metric~)."""
    rng = np.random.default_rng([seed, sum(map(ord, record.id)), sum(map(ord, pid)), int(calibrated)])
    if record.structure != "nominal":  # ordered classes, label sets, top-k, ratings (issue 12)
        handled, ce = structure_counterexample(record, pid, claim, rng, budget)
        if handled:
            return ce
    prop = PROPERTIES[pid]
    if pid == PV:
        return None if calibrated else _chance_witness(record, budget, rng)
    if prop.existential:
        f = MetricFunction(record.id, record.higher_is_better, calibrated=calibrated)
        return pii_illustration(f)
    ks: tuple[int, ...] = (3, 4) if claim.status == "binary_only" else ((2,) if record.binary_only else (2, 3, 4))
    # prefer counterexamples whose values need no convention, then ones needing no dropped class
    restrictions: tuple[str | None, ...] = ("regular", "truth_complete", "occurring", None)
    if claim.status == "conditional":
        restrictions = ("occurring", None)
    for restrict in restrictions:
        f = MetricFunction(record.id, record.higher_is_better, calibrated=calibrated, restrict=restrict)
        for k in ks:
            hit = prop.search(f, k, rng, budget)
            if hit is not None:
                return hit.model_copy(update={"source": "checker"})
    return None


def _needs(record: MetricRecord, claim: PropertyClaim) -> bool:
    # score metrics are searched on their hard outputs
    if (record.structure == "nominal" and record.needs_probabilities and hard_evaluator(record.id) is None) \
            or claim.counterexample is not None:  # structured score metrics: their own checker (hard outputs)
        return False
    return claim.status in NEEDS_COUNTEREXAMPLE or (claim.status == "conditional" and claim.restriction is not None)


def _needs_calibrated(claim: PropertyClaim) -> bool:
    return (claim.status == "fails" and claim.calibrated_counterexample is None
            and bool(claim.paper_claim) and "(✓)" in (claim.paper_claim or ""))


def _dump(ce: Counterexample | None) -> dict[str, Any] | None:
    return None if ce is None else ce.model_dump(exclude_none=True)


def regenerate(budget: int = 3000, seed: int = 0, path: Path = VERIFICATION_FILE, *, log: Any = None) -> Catalogue:
    """Search counterexamples, audit everything and write ``verification.yaml``; returns the catalogue."""

    say = log or (lambda *_: None)
    base = load_catalogue(verification_path=None, strict=False)
    entries: dict[str, dict[str, dict[str, Any]]] = {}
    t0 = time.perf_counter()
    for mid, rec in base.metrics.items():
        for pid, claim in rec.properties.items():
            entry: dict[str, Any] = {}
            if _needs(rec, claim):
                ce = find_counterexample(rec, pid, claim, budget=budget, seed=seed)
                if ce is None:
                    say(f"no counterexample found for {mid}.{pid} ({claim.status})")
                entry["counterexample"] = _dump(ce)
            if _needs_calibrated(claim):
                entry["calibrated_counterexample"] = _dump(
                    find_counterexample(rec, pid, claim, budget=budget, seed=seed, calibrated=True))
            entries.setdefault(mid, {})[pid] = entry
    say(f"counterexample search: {time.perf_counter() - t0:.1f} s")
    tmp = path.with_suffix(".tmp.yaml")
    _write(tmp, entries, budget, seed)
    cat = load_catalogue(verification_path=tmp)
    report = audit(budget, seed=seed, catalogue=cat)
    say(report.summary())
    for check in report.checks:
        entries[check.metric][check.property]["verified"] = check.outcome == "confirmed"
    _write(path, entries, budget, seed, report.to_dict())
    tmp.unlink()
    return load_catalogue(verification_path=path)


def _write(path: Path, entries: dict[str, Any], budget: int, seed: int, summary: dict[str, Any] | None = None) -> None:
    import yaml

    head = {k: v for k, v in (summary or {}).items() if k not in ("checks", "scope")}
    doc = {"generated_by": "python -m advisor.catalogue", "budget": budget, "seed": seed, "audit": head,
           "claims": entries}
    text = ("# Generated by `python -m advisor.catalogue` from metrics.yaml and the property checker; do not edit.\n"
            + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None))
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m advisor.catalogue", description=__doc__.split("\n")[0])
    ap.add_argument("--budget", type=int, default=3000, help="random matrices per property and class count")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    regenerate(args.budget, args.seed, log=lambda s: print(s, file=sys.stderr, flush=True))
    return 0
