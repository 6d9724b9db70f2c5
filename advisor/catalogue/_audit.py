"""The audit: every property claim of the catalogue checked against the implementation.

How each status is confirmed (``k`` ranges over 2, 3, 4; binary metrics over 2 only):

``holds``             no counterexample for any k (existential properties: a witness is found).
``fails``             the stored counterexample is re-checked and still shows the failure.
``binary_only``       no counterexample for k = 2, and the stored one (k ≥ 3) is valid.
``after_calibration`` the stored counterexample (raw metric) is valid, and metric~ (the metric of the
                      prevalence-calibrated matrix) has no counterexample.
``conditional``       no counterexample among matrices meeting the claim's ``restriction``; a
                      stored counterexample outside it is re-checked as well.

Chance correction (Opitz's PV) is checked against the claim's ω(k) on the expected matrices of
random classifiers, including that a non-strict claim really has unequal chance scores and that an
incomplete one really depends on k. Score and probability metrics are checked on their hard outputs
(:mod:`._check_scores`). A claim marked ``not_applicable`` with its reason on record (the property is
not defined for the metric's kind of input; for label sets, rankings and ratings the checker first
makes sure there is no operational definition it could test) is ``not_applicable``; a claim the
checker cannot test otherwise — including ``not_applicable`` without a reason — is ``unverified``; a
claim it contradicts is ``refuted``. ``advisor audit`` must report 0 unverified and 0 refuted.
"""

from __future__ import annotations

import ast
import math
import operator
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._check_costs import cost_scope
from ._check_scores import hard_evaluator
from ._check_structures import check_structure
from ._checker import PROPERTIES, Property, piii_separable, random_classifiers
from ._load import get_catalogue
from ._models import Catalogue, Counterexample, MetricRecord, PropertyClaim
from ._space import MetricFunction

__all__ = ["AuditReport", "ClaimCheck", "audit", "check_claim", "omega"]

PV = "chance_correction"
PIII = "class_decomposability"
PV_NEAR_BEST = 0.05  # a random classifier within 5 % of the range from the best value: no chance correction


@dataclass(frozen=True)
class ClaimCheck:
    """The outcome of checking one claim."""

    metric: str
    property: str
    status: str
    outcome: str  # "confirmed", "refuted", "not_applicable" (reason on record) or "unverified"
    detail: str
    counterexample: Counterexample | None = None
    paper_claim: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "property": self.property,
            "status": self.status,
            "outcome": self.outcome,
            "detail": self.detail,
            "counterexample": None if self.counterexample is None else self.counterexample.model_dump(),
            "paper_claim": self.paper_claim,
        }


@dataclass
class AuditReport:
    """All claim checks of one audit run."""

    budget: int
    seed: int
    seconds: float = 0.0
    checks: list[ClaimCheck] = field(default_factory=list)
    #: counterexamples to claims of the cost metrics under other costs or priors (:mod:`._check_costs`)
    scope: list[dict[str, Any]] = field(default_factory=list)

    def _count(self, outcome: str) -> int:
        return sum(c.outcome == outcome for c in self.checks)

    @property
    def checked(self) -> int:
        return len(self.checks)

    @property
    def confirmed(self) -> int:
        return self._count("confirmed")

    @property
    def refuted(self) -> int:
        return self._count("refuted")

    @property
    def unverified(self) -> int:
        return self._count("unverified")

    @property
    def not_applicable(self) -> int:
        """Claims marked not applicable, each with its reason on record (``detail``)."""
        return self._count("not_applicable")

    @property
    def counterexamples(self) -> int:
        """Confirmed claims backed by a counterexample (fails, binary_only, after_calibration, …)."""
        return sum(c.outcome == "confirmed" and c.counterexample is not None for c in self.checks)

    @property
    def paper_disagreements(self) -> list[ClaimCheck]:
        """Confirmed claims where the checker contradicts the paper's table."""
        return [c for c in self.checks if c.paper_claim and c.outcome == "confirmed"]

    @property
    def ok(self) -> bool:
        return self.refuted == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "claims_checked": self.checked,
            "confirmed": self.confirmed,
            "refuted": self.refuted,
            "unverified": self.unverified,
            "not_applicable": self.not_applicable,
            "counterexamples": self.counterexamples,
            "paper_disagreements": len(self.paper_disagreements),
            "checks": [c.to_dict() for c in self.checks],
            "scope": self.scope,
        }

    def summary(self) -> str:
        lines = [
            f"{self.checked} claims checked in {self.seconds:.1f} s (budget {self.budget}, seed {self.seed}): "
            f"{self.confirmed} confirmed ({self.counterexamples} by a counterexample), {self.refuted} refuted, "
            f"{self.unverified} not checkable, {self.not_applicable} not applicable (reason on record).",
            f"{len(self.paper_disagreements)} confirmed claims contradict a published table (paper_claim recorded).",
        ]
        if self.scope:
            by = sorted({f"{s['metric']}.{s['property']}" for s in self.scope})
            lines.append(f"Scope: the claims of the cost metrics are stated at 0/1 costs and the test-set priors; with "
                         f"other costs or fixed priors {len(by)} of them have a counterexample ({', '.join(by)}; "
                         "--json lists them under 'scope').")
        for c in self.checks:
            if c.outcome == "refuted":
                lines.append(f"REFUTED {c.metric}.{c.property} ({c.status}): {c.detail}")
        return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# ω(k): a tiny safe evaluator for the chance baselines written in the catalogue ("1/k", "2/(2*k-1)")
# ----------------------------------------------------------------------------------------------
_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


def omega(expr: str, k: int) -> float:
    """Evaluate a chance-baseline expression in ``k`` (numbers, + − * / **, parentheses, sqrt).

    >>> omega("1/k", 4), omega("2/(2*k-1)", 2), round(omega("1/sqrt(2)", 2), 4)
    (0.25, 0.6666666666666666, 0.7071)
    """

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id == "k":
            return float(k)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sqrt" \
                and len(node.args) == 1:
            return math.sqrt(ev(node.args[0]))
        raise ValueError(f"unsupported chance baseline expression {expr!r}")

    return ev(ast.parse(expr.replace("^", "**"), mode="eval"))


# ----------------------------------------------------------------------------------------------
# one claim
# ----------------------------------------------------------------------------------------------
def _search(prop: Property, f: MetricFunction, ks: Iterable[int], rng: np.random.Generator,
            size: int) -> tuple[Counterexample | None, int | None]:
    for k in ks:
        hit = prop.search(f, k, rng, size)
        if hit is not None:
            return hit, k
    return None, None


def _holds(prop: Property, f: MetricFunction, ks: tuple[int, ...], rng: np.random.Generator,
           size: int) -> tuple[bool, str, Counterexample | None]:
    """Does the property hold for ``f`` on every k? (witness semantics for existential ones)."""
    hit, k = _search(prop, f, ks, rng, size)
    if prop.existential:
        if hit is None:
            return False, f"no witness found for k = {list(ks)}", None
        return True, f"witness found (k = {k})", None
    if hit is not None:
        return False, f"counterexample found (k = {k}): {hit.explanation}", hit
    if prop.id == PIII:
        ps = [piii_separable(f, kk, rng, size) for kk in ks]
        if any(p is None for p in ps):
            bad = [kk for kk, p in zip(ks, ps) if p is None]
            return False, f"no generalized mean (p = 1, 0, −1, logistic) of per-class terms fits for k = {bad}", None
        mean = "the logistic mean" if ps[0] == "logit" else f"p = {float(ps[0] or 0.0):g}"
        return True, f"no counterexample; generalized mean with {mean} for k = {list(ks)}", None
    return True, f"no counterexample for k = {list(ks)} ({size} random matrices each)", None


def _fails(prop: Property, f: MetricFunction, ks: tuple[int, ...], claim_ce: Counterexample | None,
           rng: np.random.Generator, size: int) -> tuple[bool, str, Counterexample | None]:
    """Is the failure shown (stored counterexample re-checked; existential: no witness at all)?"""
    if prop.existential:
        hit, k = _search(prop, f, ks, rng, size)
        if hit is not None:
            return False, f"a witness exists (k = {k}): {hit.explanation}", hit
        if claim_ce is not None:
            why = prop.recheck(f, claim_ce)
            vals = f.values(np.stack([np.asarray(m, float) for m in claim_ce.matrices]))
            if why is not None or not f.close(vals[0], vals[1]):
                return False, f"the stored illustration is not an indifference example ({why or 'values differ'})", None
        return True, f"no witness for k = {list(ks)}", claim_ce
    if claim_ce is None:
        hit, k = _search(prop, f, ks, rng, size)
        if hit is None:
            return False, "no counterexample stored and none found within budget", None
        return True, f"counterexample found by search (k = {k})", hit
    why = prop.recheck(f, claim_ce)
    if why is not None:
        return False, f"the stored counterexample does not show a failure: {why}", claim_ce
    return True, f"stored counterexample re-checked ({claim_ce.source})", claim_ce


def _chance(record: MetricRecord, claim: PropertyClaim, f: MetricFunction, rng: np.random.Generator,
            size: int) -> tuple[bool, str, Counterexample | None]:
    """Check a chance-correction claim (bound, strictness, completeness) for ``f``."""
    cc = claim.chance_correction
    if cc is None:
        return False, "a chance-correction claim needs chance_correction details", None
    ks = f.ks + (() if f.binary else (5,))
    top = f.sign * f.top_value()
    omegas: dict[int, float] = {}
    unequal = False
    for k in ks:
        w = omega(cc.baseline, k)
        omegas[k] = w
        if not (f.sign * w < top - f.tol * max(1.0, abs(top)) or (math.isinf(top) and top > 0)):
            return False, f"ω({k}) = {w:g} is not below the best value", None
        c = random_classifiers(k, rng, size)
        v = f.values(c)
        above = f.sign * v > f.sign * w + 1e-9 * max(1.0, abs(w))
        if above.any():
            i = int(np.flatnonzero(above)[0])
            ce = Counterexample(matrices=[c[i].tolist()], values=[float(v[i])], source="checker",
                                explanation=f"a random classifier scores {v[i]:.6g}, better than ω({k}) = {w:.6g}")
            return False, ce.explanation, ce
        eq = f.close(v, np.full_like(v, w))
        if cc.strict and not eq.all():
            i = int(np.flatnonzero(~eq)[0])
            return False, f"claimed strict, but a random classifier scores {v[i]:.6g} ≠ ω({k}) = {w:.6g}", None
        unequal |= not eq.all()
    if not cc.strict and not unequal:
        return False, "claimed not strict, but every random classifier scored exactly ω(k)", None
    same_k = len({round(x, 12) for x in omegas.values()}) == 1
    if cc.complete and not (cc.strict and same_k):
        return False, "claimed complete, but the chance score depends on k or is not strict", None
    if not cc.complete and cc.strict and same_k:
        return False, "claimed not complete, but the strict chance score is the same for every k", None
    shown = ", ".join(f"ω({k}) = {w:.4g}" for k, w in omegas.items())
    return True, f"{size} random classifiers per k: {shown} ({'strict' if cc.strict else 'upper bound'})", None


def _near_best(record: MetricRecord, f: MetricFunction, ce: Counterexample) -> str | None:
    """Re-check a 'no chance correction' counterexample: a random classifier close to the best value."""
    why = PROPERTIES[PV].recheck(f, ce)
    if why is not None:
        return why
    lo, hi = record.range
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "the metric's range is unbounded"
    v = float(f.values(np.asarray(ce.matrices[0], float)))
    best = f.top_value()
    return None if abs(best - v) <= PV_NEAR_BEST * (hi - lo) else "the random classifier is not near the best value"


def check_claim(record: MetricRecord, pid: str, claim: PropertyClaim, *, budget: int = 300,
                seed: int = 0) -> ClaimCheck:
    """Check one claim of one metric against the implementation."""
    rng = np.random.default_rng([seed, sum(map(ord, record.id)), sum(map(ord, pid))])

    def result(ok: bool | None, detail: str, ce: Counterexample | None = None) -> ClaimCheck:
        outcome = "unverified" if ok is None else "confirmed" if ok else "refuted"
        if ok is None and claim.status == "not_applicable" and (claim.note or "").strip():
            outcome = "not_applicable"
        return ClaimCheck(record.id, pid, claim.status, outcome, detail, ce, claim.paper_claim)

    if record.structure == "nominal" and record.needs_probabilities and hard_evaluator(record.id) is None:
        return result(None, "not a confusion-matrix metric: the checker cannot evaluate it")
    if record.needs_subgroups:  # the adverse impact ratio: rates of a decision compared across subgroups
        return result(None, "compares the subgroups of a subgroup column: no confusion matrix gives it")
    if record.structure != "nominal":  # ordered classes, label sets, top-k, ratings (issue 12)
        got = check_structure(record, pid, claim, rng, budget)
        if got is not None:
            return result(*got)
    if claim.status == "not_applicable":  # a confusion-matrix metric: every property is defined for it
        return result(False, f"{pid} is defined on confusion matrices, which {record.id} takes: state the claim")
    prop = PROPERTIES[pid]
    hib = record.higher_is_better
    raw = MetricFunction(record.id, hib)
    cal = MetricFunction(record.id, hib, calibrated=True)
    ks = raw.ks
    st = claim.status
    extra = ""
    if claim.calibrated_counterexample is not None:
        why = prop.recheck(cal, claim.calibrated_counterexample)
        if why is not None:
            return result(False, f"the stored counterexample for the calibrated metric is invalid: {why}")
        extra = "; metric~ counterexample re-checked"

    if pid == PV:
        if st == "fails":
            if claim.counterexample is None:
                return result(False, "no counterexample stored")
            why = _near_best(record, raw, claim.counterexample)
            return result(why is None, why or "a random classifier scores near the best value" + extra,
                          claim.counterexample)
        if st == "after_calibration":
            if claim.counterexample is None or _near_best(record, raw, claim.counterexample) is not None:
                return result(False, "the raw metric's failure is not shown by a stored counterexample")
            ok, detail, ce = _chance(record, claim, cal, rng, budget)
            return result(ok, "raw fails (stored counterexample); metric~: " + detail, ce or claim.counterexample)
        if st in ("holds", "conditional"):
            f = MetricFunction(record.id, hib, restrict=claim.restriction) if st == "conditional" else raw
            ok, detail, ce = _chance(record, claim, f, rng, budget)
            return result(ok, detail, ce)
        return result(False, f"status {st!r} is not supported for chance correction")

    if st == "holds":
        ok, detail, ce = _holds(prop, raw, ks, rng, budget)
        return result(ok, detail, ce)
    if st == "fails":
        ok, detail, ce = _fails(prop, raw, ks, claim.counterexample, rng, budget)
        return result(ok, detail + extra, ce)
    if st == "binary_only":
        if raw.binary:
            return result(False, "a binary metric cannot be 'binary_only'")
        ok2, d2, ce2 = _holds(prop, raw, (2,), rng, budget)
        if not ok2:
            return result(False, "fails already for k = 2: " + d2, ce2)
        ok3, d3, ce3 = _fails(prop, raw, (3, 4), claim.counterexample, rng, budget)
        if ok3 and ce3 is not None and len(ce3.matrices[0]) < 3:
            return result(False, "the counterexample must have k ≥ 3 classes", ce3)
        return result(ok3, f"k = 2: {d2}; k ≥ 3: {d3}", ce3)
    if st == "after_calibration":
        ok1, d1, ce1 = _fails(prop, raw, ks, claim.counterexample, rng, budget)
        if not ok1:
            return result(False, "raw metric: " + d1, ce1)
        ok2, d2, ce2 = _holds(prop, cal, ks, rng, budget)
        return result(ok2, f"raw: {d1}; metric~: {d2}", ce2 if not ok2 else ce1)
    if st == "conditional":
        if claim.restriction is None:
            return result(None, "condition not machine-checkable: " + (claim.condition or ""))
        f = MetricFunction(record.id, hib, restrict=claim.restriction)
        ok, detail, ce = _holds(prop, f, ks, rng, budget)
        if ok and claim.counterexample is not None:
            why = prop.recheck(raw, claim.counterexample)
            if why is not None:
                return result(False, f"the stored counterexample outside the condition is invalid: {why}")
            detail += "; counterexample outside the condition re-checked"
        return result(ok, f"under '{claim.restriction}': {detail}", ce if not ok else claim.counterexample)
    return result(False, f"unknown status {st!r}")


#: Largest budget: the random searches hold ``budget`` matrices at once (about 250 MB at 100,000, and an hour
#: of checking per metric); 10⁹ asked for 10 GB and was killed.
MAX_BUDGET = 100_000


def audit(budget: int = 300, *, seed: int = 0, metrics: Iterable[str] | None = None,
          properties: Iterable[str] | None = None, catalogue: Catalogue | None = None,
          progress: Callable[[int, int], None] | None = None) -> AuditReport:
    """Check every claim of the catalogue against the implementation.

    Parameters
    ----------
    budget : int
        Random matrices per property and class count (plus every 2×2 matrix with cells ≤ 5 and
        exact enumerations where a property needs them). 300 takes well under a minute.
    seed : int
        Seed of the random search (the audit is reproducible).
    metrics, properties : iterable of str, optional
        Restrict the audit to these metric ids / property ids.
    catalogue : Catalogue, optional
        Defaults to :func:`advisor.catalogue.get_catalogue`.
    progress : callable, optional
        ``progress(done, total)`` after each claim checked (``advisor audit``'s estimate and bar).

    Returns
    -------
    AuditReport
        ``report.refuted`` must be 0: a refuted claim means the catalogue and the code disagree.
    """
    if isinstance(budget, bool) or not isinstance(budget, int) or not 10 <= budget <= MAX_BUDGET:
        raise InputError(f"budget must be a whole number from 10 to {MAX_BUDGET:,} (random matrices per property "
                         f"and class count; the searches hold them in memory, about 2.5 KB each); got {budget!r}.")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"seed must be a whole number ≥ 0; got {seed!r}.")
    cat = catalogue or get_catalogue()
    wanted_m = set(metrics) if metrics is not None else None
    wanted_p = set(properties) if properties is not None else None
    report = AuditReport(budget=budget, seed=seed)
    t0 = time.perf_counter()
    claims = [(record, pid, claim) for mid, record in cat.metrics.items() if wanted_m is None or mid in wanted_m
              for pid, claim in record.properties.items() if wanted_p is None or pid in wanted_p]
    for done, (record, pid, claim) in enumerate(claims, 1):
        with np.errstate(all="ignore"):
            report.checks.append(check_claim(record, pid, claim, budget=budget, seed=seed))
        if progress is not None:
            progress(done, len(claims))
    if wanted_p is None:
        report.scope = cost_scope(cat, budget, seed, wanted_m, holds=_holds)
    report.seconds = time.perf_counter() - t0
    return report
