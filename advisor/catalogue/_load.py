"""Loading the catalogue: ``metrics.yaml`` (hand-written knowledge) + ``verification.yaml`` (checker output).

``metrics.yaml`` holds one record per metric id; an alias record (``alias_of``) takes every field it
does not set from its target. ``verification.yaml`` is written by ``python -m advisor.catalogue``:
per claim, whether the checker confirmed it and the counterexample it found. The loader merges both,
validates them with the pydantic models and checks completeness (every engine metric, every
property, a counterexample for every failure, known BibTeX keys).
"""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any

from .._exceptions import AdvisorError
from ..engine import METRICS as NOMINAL
from ..engine import STRUCTURE_METRICS
from ._check_scores import hard_evaluator
from ._models import PROPERTY_IDS, Catalogue
from ._space import RESTRICTIONS, EngineSpec

__all__ = ["BIB_FILE", "DATA_DIR", "bib_keys", "get_catalogue", "load_catalogue", "lower_is_better", "metric_files",
           "raw_metrics"]

DATA_DIR = Path(__file__).resolve().parent
METRICS_FILE = DATA_DIR / "metrics.yaml"
VERIFICATION_FILE = DATA_DIR / "verification.yaml"
BIB_FILE = DATA_DIR / "references.bib"

# statuses whose claim must come with a counterexample of the raw metric
NEEDS_COUNTEREXAMPLE = ("fails", "binary_only", "after_calibration")


class CatalogueError(AdvisorError):
    """The shipped catalogue data are inconsistent (a bug in advisor, not in the user's input)."""


def _yaml(path: Path) -> Any:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: 5× faster
    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader


def metric_files(path: Path = METRICS_FILE) -> list[Path]:
    """``metrics.yaml`` and its companions ``metrics_<topic>.yaml`` beside it (one topic a file)."""
    return [path, *sorted(path.parent.glob(f"{path.stem}_*{path.suffix}"))]


def raw_metrics(path: Path = METRICS_FILE) -> dict[str, Any]:
    """The hand-written records with aliases resolved (no verification merged)."""
    metrics: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    for part in metric_files(path):
        data = _yaml(part) or {}
        clash = sorted(set(metrics) & set(data.get("metrics") or {}))
        if clash:
            raise CatalogueError(f"{part.name} defines metric(s) again: {', '.join(clash)}")
        metrics.update(data.get("metrics") or {})
        notes.update(data.get("name_notes") or {})
    out: dict[str, Any] = {}
    for mid, rec in metrics.items():
        rec = dict(rec)
        rec["id"] = mid
        target = rec.get("alias_of")
        if target:
            base = copy.deepcopy(metrics[target])
            base.pop("aliases", None)
            base.update(rec)
            rec = base
        out[mid] = rec
    return {"metrics": out, "name_notes": notes}


def bib_keys(path: Path = BIB_FILE) -> set[str]:
    """The entry keys of ``references.bib``."""
    return set(re.findall(r"@\w+\s*\{\s*([^,\s]+)\s*,", path.read_text(encoding="utf-8")))


def load_catalogue(metrics_path: Path = METRICS_FILE, verification_path: Path | None = VERIFICATION_FILE,
                   *, strict: bool = True) -> Catalogue:
    """Read, merge and validate the catalogue (uncached; see :func:`get_catalogue`).

    ``strict=False`` skips the completeness checks that need the verification file (used while
    regenerating it).
    """
    data = raw_metrics(metrics_path)
    ver: dict[str, Any] = {}
    if verification_path is not None and verification_path.exists():
        ver = (_yaml(verification_path) or {}).get("claims", {})
    for mid, rec in data["metrics"].items():
        for pid, claim in rec.get("properties", {}).items():
            v = ver.get(mid, {}).get(pid)
            if not v:
                continue
            claim["verified"] = bool(v.get("verified", False))
            for key in ("counterexample", "calibrated_counterexample"):
                if claim.get(key) is None and v.get(key) is not None:
                    claim[key] = v[key]
    cat = Catalogue.model_validate(data)
    _check(cat, strict=strict)
    return cat


def _check(cat: Catalogue, *, strict: bool) -> None:
    METRICS: dict[str, EngineSpec] = {**NOMINAL, **STRUCTURE_METRICS}  # noqa: N806 - the engine's two spec tables
    problems: list[str] = []
    missing = sorted(set(METRICS) - set(cat.metrics))
    if missing:
        problems.append(f"no record for {', '.join(missing)}")
    extra = sorted(set(cat.metrics) - set(METRICS))
    if extra:
        problems.append(f"records without an engine metric: {', '.join(extra)}")
    keys = bib_keys()
    for mid, rec in cat.metrics.items():
        spec = METRICS.get(mid)
        if spec is not None:
            if rec.binary_only != spec.binary_only or rec.needs_probabilities != spec.needs_probabilities:
                problems.append(f"{mid}: binary_only/needs_probabilities disagree with the engine")
            if rec.alias_of != spec.alias_of:
                problems.append(f"{mid}: alias_of disagrees with the engine")
            if rec.higher_is_better != spec.higher_is_better:
                problems.append(f"{mid}: higher_is_better disagrees with the engine")
            if rec.target != getattr(spec, "target", None):
                problems.append(f"{mid}: target disagrees with the engine")
            if rec.target is not None and (rec.higher_is_better or not rec.range[0] <= rec.target <= rec.range[1]):
                problems.append(f"{mid}: a target must lie in the range, with higher_is_better false (of the distance)")
            if rec.structure != getattr(spec, "structure", "nominal"):
                problems.append(f"{mid}: structure disagrees with the engine")
        absent = [p for p in PROPERTY_IDS if p not in rec.properties]
        if absent:
            problems.append(f"{mid}: no claim for {', '.join(absent)}")
        unknown = [p for p in rec.properties if p not in PROPERTY_IDS]
        if unknown:
            problems.append(f"{mid}: unknown properties {', '.join(unknown)}")
        bad_refs = [r for r in rec.references if r not in keys]
        if bad_refs:
            problems.append(f"{mid}: references not in references.bib: {', '.join(bad_refs)}")
        for pid, claim in rec.properties.items():
            where = f"{mid}.{pid}"
            if claim.status == "not_applicable" and not claim.note:
                problems.append(f"{where}: a 'not_applicable' claim needs the reason in its note")
            if claim.status == "conditional" and not claim.condition:
                problems.append(f"{where}: a conditional claim needs its condition written out")
            if claim.restriction is not None and claim.restriction not in RESTRICTIONS:
                problems.append(f"{where}: unknown restriction {claim.restriction!r}")
            if claim.status == "holds" and claim.counterexample is not None:
                problems.append(f"{where}: a 'holds' claim cannot carry a counterexample")
            if pid == "chance_correction" and claim.status in ("holds", "after_calibration") \
                    and claim.chance_correction is None:
                problems.append(f"{where}: chance correction needs strict/complete/baseline details")
            if strict and claim.status in NEEDS_COUNTEREXAMPLE and claim.counterexample is None \
                    and not (rec.structure == "nominal" and rec.needs_probabilities and hard_evaluator(mid) is None):
                problems.append(f"{where}: status {claim.status!r} needs a counterexample")
    if problems:
        raise CatalogueError("the metric catalogue is inconsistent: " + "; ".join(problems[:12])
                             + (f" (and {len(problems) - 12} more)" if len(problems) > 12 else "") + ".")


@functools.lru_cache(maxsize=1)
def get_catalogue() -> Catalogue:
    """The validated metric catalogue (loaded once, then cached).

    Examples
    --------
    >>> cat = get_catalogue()
    >>> rec = cat.metrics["balanced_accuracy"]
    >>> rec.name, rec.properties["prevalence_invariance"].status
    ('Balanced accuracy', 'holds')
    """
    return load_catalogue()


@functools.lru_cache(maxsize=1)
def lower_is_better() -> frozenset[str]:
    """Ids of the metrics where a lower score is better (from each record's ``higher_is_better``).

    >>> sorted(lower_is_better())[:3]
    ['aurc', 'brier', 'brier_binary']
    """
    return frozenset(mid for mid, rec in get_catalogue().metrics.items() if not rec.higher_is_better)
