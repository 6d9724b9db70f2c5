"""What a run adds to the answers: command-line options and API arguments that change the plan.

``--costs``, ``--priors`` and ``--positive`` (``costs=``, ``priors=``, ``positive_label=``) override the
answers' ``error_costs``, ``target_prevalence`` and ``positive_class``; the plan is then made from the
answers *as overridden*, so every sentence and every parameter (β of Fβ, the priors of the expected
cost) says the same costs and shares. The resampling options become the plan's design.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..engine import DEFAULT_CONVENTION
from .._exceptions import InputError, arg
from ..engine import (
    CONVENTIONS,
    check_budget,
    check_coverage,
    check_decision_thresholds,
    check_reject_label,
    cost_matrix,
)
from ..io import parse_costs, parse_priors
from ..questionnaire import Answers, answers_from_mapping, load_fields

__all__ = ["PlanOptions", "apply_options", "plan_options", "undefined_convention"]


class PlanOptions(BaseModel):
    """Options of a run that change the plan (all optional)."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    costs: Any = Field(None, description="error costs: 'fn=10,fp=1', a cost-matrix CSV path, or a mapping")
    priors: Any = Field(None, description="deployment class shares: 'a=0.02,b=0.98' or a mapping")
    positive_label: Any = None
    order: list[Any] | None = Field(None, description="ordered classes, lowest first")
    max_fpr: Any = Field(None, description="the largest false positive rate acceptable in use")
    alerts: Any = Field(None, description="the number of test items that can be reviewed")
    decision_thresholds: Any = Field(None, description="the risks at which users act, increasing")
    coverage: Any = Field(None, description="the share of the items a system that abstains answers, in (0, 1]")
    reject_label: Any = Field(None, description="the label a system writes when it abstains")
    resamples: int = Field(2000, description="bootstrap resamples (0: no intervals)")
    confidence: float = 0.95
    seed: int | None = None
    seed_given: bool = Field(True, description="False: the seed was picked by advisor, not given")
    undefined: str | None = Field(None, description=(
        "the undefined-value convention (zero, baseline, omit); None: the run chose none, so the convention of the "
        "field the answers name (its scorer's), else advisor's default"))

    def check(self) -> PlanOptions:
        """Refuse impossible values in one sentence, before any work."""
        if isinstance(self.resamples, bool) or not isinstance(self.resamples, int) or self.resamples < 0:
            raise InputError(f"the number of bootstrap resamples must be a whole number ≥ 0; got {self.resamples!r}.")
        if not isinstance(self.confidence, (int, float)) or not 0.0 < float(self.confidence) < 1.0:
            raise InputError(f"{arg('confidence')} must be strictly between 0 and 1 (e.g. 0.95); got {self.confidence!r}.")
        if self.undefined is not None and self.undefined not in CONVENTIONS:
            raise InputError(f"{arg('undefined')} must be one of {', '.join(CONVENTIONS)}; got {self.undefined!r}.")
        if self.max_fpr is not None:
            self.max_fpr = check_budget(self.max_fpr, f"{arg('max_fpr')} (the false positive rate budget)")
        if self.alerts is not None:
            a = self.alerts
            if isinstance(a, bool) or not isinstance(a, (int, float, str)) or not str(a).strip().isdigit() \
                    or int(str(a).strip()) < 1:
                raise InputError(f"{arg('alerts')} (the items that can be reviewed) must be a whole number of at least 1; "
                                 f"got {a!r}.")
            self.alerts = int(str(a).strip())
        if self.coverage is not None:
            self.coverage = check_coverage(self.coverage)
        if self.reject_label is not None and not str(self.reject_label):
            raise InputError(f"the reject label ({arg('reject_label')}) is empty; give the label a system writes when "
                             "it abstains.")
        if self.decision_thresholds is not None:
            self.decision_thresholds = check_decision_thresholds(self.decision_thresholds,
                                                                 f"{arg('decision_thresholds')} (the risks at which "
                                                                 "users act)")
        return self


def plan_options(options: Any) -> PlanOptions:
    """``options`` of :func:`~advisor.plan.make_plan` — a :class:`PlanOptions`, a mapping or None — as checked
    :class:`PlanOptions`; an unknown key or a value of the wrong type is one sentence naming it."""
    if isinstance(options, PlanOptions):
        return options.check()
    if options is not None and not isinstance(options, Mapping):
        raise InputError(f"{arg('options')} must be a mapping of option names to values (or an advisor.PlanOptions); "
                         f"got {type(options).__name__}.")
    given = dict(options or {})
    known = [k for k in PlanOptions.model_fields if k != "seed_given"]
    unknown = [k for k in given if k not in PlanOptions.model_fields]
    if unknown:
        raise InputError(f"{arg('options')} has no option {unknown[0]!r}; the options are {', '.join(known)}.")
    try:
        return PlanOptions(**given).check()
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(x) for x in err.get("loc", ())) or "?"
        got = err.get("input")
        why = " ".join(str(err.get("msg", "")).split()).rstrip(".")
        raise InputError(f"options[{key!r}] is not valid ({why[:1].lower() + why[1:]}); got {got!r}.") from None


def undefined_convention(chosen: str | None, field: str | None) -> tuple[str, str]:
    """``(convention, where it comes from)``: the run's choice (``option``: ``--undefined``, ``undefined=``) always;
    else the convention of the field the answers name (``field``: its scorer's, fields.yaml ``undefined``), so its
    figures compare with the field's (GLUE scores a constant predictor's MCC 0); else advisor's (``default``).

    >>> undefined_convention(None, "acceptability_judgements"), undefined_convention("omit", "acceptability_judgements")
    (('zero', 'field'), ('omit', 'option'))
    >>> undefined_convention(None, "sentiment_shared_task"), undefined_convention(None, None)
    (('omit', 'default'), ('omit', 'default'))
    """
    if chosen is not None:
        return chosen, "option"
    f = load_fields().get(field) if field else None
    if f is not None and f.undefined is not None:
        return f.undefined, "field"
    return DEFAULT_CONVENTION, "default"


def _costs_as_answers(costs: Any, classes: Sequence[Any] | None) -> tuple[dict[str, Any], list[Any] | None]:
    """``error_costs`` of an answers file for parsed costs, and the classes a labelled matrix brings.

    A nested mapping ``{true: {decision: cost}}`` becomes a matrix over ``classes`` (the answers' or the
    data's) through the engine's one cost-matrix builder, which refuses a class or an error left out; without
    classes, the classes the costs name, in the order they name them."""
    if isinstance(costs, Mapping) and costs and set(map(str, costs)) <= {"fn", "fp"}:
        if set(map(str, costs)) != {"fn", "fp"}:
            given = ", ".join(sorted(map(str, costs)))
            raise InputError(f"costs given as fn/fp need both: the cost of a missed positive (fn) and of a false "
                             f"alarm (fp); got only {given}.")
        fn, fp = float(costs["fn"]), float(costs["fp"])
        if not (fn > 0 and fp > 0 and math.isfinite(fn) and math.isfinite(fp)):
            raise InputError(f"costs fn and fp must be finite positive numbers; got fn={fn:g}, fp={fp:g}.")
        return {"false_negative": fn, "false_positive": fp}, None
    if isinstance(costs, Mapping):  # {true: {decision: cost}}
        named = list(classes) if classes is not None else list(dict.fromkeys(
            [*costs, *(d for row in costs.values() if isinstance(row, Mapping) for d in row)]))
        matrix = cost_matrix(costs, named)
        return {"matrix": matrix.tolist()}, (None if classes is not None else named)
    raise InputError("costs must be fn=COST,fp=COST, a cost-matrix CSV file or a mapping {true: {decision: cost}}.")


def apply_options(answers: Answers | Mapping[str, Any] | None, options: PlanOptions,
                  labels: Sequence[Any] | None = None, n_items: float | None = None) -> tuple[Answers, dict[str, str]]:
    """``(answers as overridden by the options, {answers key: what replaced it})``.

    The second value says, for every key an option set, the option and what the answers said before,
    so the plan can state it ("--costs replaces the answers' costs"). ``labels`` are the data's classes,
    when known: a cost matrix must cover them. ``n_items`` is the number of test items, when known: a review
    budget of K alerts is the share K / n of them.
    """
    ans = answers if isinstance(answers, Answers) else answers_from_mapping(answers or {})
    updates: dict[str, Any] = {}
    replaced: dict[str, str] = {}
    if options.costs is not None:
        costs = parse_costs(options.costs)
        error_costs, classes = _costs_as_answers(costs, ans.classes or (list(labels) if labels else None))
        updates["error_costs"] = error_costs
        if classes is not None:
            updates["classes"] = classes
            updates["n_classes"] = None
        replaced["error_costs"] = "costs option" + (" (the answers gave other costs)" if ans.error_costs else "")
    if options.priors is not None:
        priors = parse_priors(options.priors)
        if not isinstance(priors, Mapping):
            raise InputError("priors must name each class's share, e.g. ill=0.02,well=0.98.")
        updates["target_prevalence"] = {k: float(v) for k, v in priors.items()}
        if ans.deployment_prevalence != "shifted":
            updates["deployment_prevalence"] = "shifted"
        replaced["target_prevalence"] = "priors option" + (" (the answers gave other shares)"
                                                           if ans.target_prevalence else "")
    if options.order is not None and (ans.label_structure == "ordinal" or ans.classes is None):
        if ans.classes is not None and [str(c) for c in ans.classes] != [str(c) for c in options.order]:
            replaced["classes"] = "order option (the answers listed the classes in another order)"
        updates["classes"] = list(options.order)
        updates["n_classes"] = None
    if options.max_fpr is not None:
        updates["fpr_budget"] = options.max_fpr
        replaced["fpr_budget"] = "max-fpr option" + (" (the answers gave another budget)" if ans.fpr_budget else "")
    if options.alerts is not None:
        if n_items is None:
            raise InputError(f"{arg('alerts', options.alerts)} counts items of the test set, which is not known here; give the "
                             "predictions, or the review budget as a share with review_share in the answers.")
        if options.alerts > n_items:
            raise InputError(f"{arg('alerts', options.alerts)} is larger than the test set ({int(n_items):,} items); give a "
                             "review budget of at most as many items as the test set holds.")
        updates["review_share"] = options.alerts / float(n_items)
        replaced["review_share"] = "alerts option" + (" (the answers gave another share)" if ans.review_share else "")
    if options.reject_label is not None:  # a reject label that is also a class is refused (issue 23); the data's
        check_reject_label(options.reject_label, ans.classes or ())  # true classes are checked by make_plan
    if options.coverage is not None or options.reject_label is not None:  # selective prediction (issue 23)
        if not ans.abstention:
            updates["abstention"] = True
            replaced["abstention"] = "coverage option" if options.coverage is not None else "reject-label option"
    if options.reject_label is not None:
        updates["reject_label"] = str(options.reject_label)
        replaced["reject_label"] = "reject-label option" + (" (the answers gave another label)"
                                                            if ans.reject_label is not None else "")
    if options.coverage is not None:
        updates["target_coverage"] = options.coverage
        replaced["target_coverage"] = "coverage option" + (" (the answers gave another coverage)"
                                                           if ans.target_coverage else "")
    if options.decision_thresholds is not None:
        updates["decision_thresholds"] = list(options.decision_thresholds)
        replaced["decision_thresholds"] = "decision-thresholds option" + (
            " (the answers gave other thresholds)" if ans.decision_thresholds else "")
    if options.positive_label is not None:
        if ans.positive_class is not None and str(ans.positive_class) != str(options.positive_label):
            replaced["positive_class"] = f"positive option (the answers named {ans.positive_class!r})"
        else:
            replaced["positive_class"] = "positive option"
        updates["positive_class"] = options.positive_label
    if not updates:
        return ans, replaced
    data = {k: getattr(ans, k) for k in ans.model_fields_set}
    data = {k: (v.model_dump(exclude_none=True) if hasattr(v, "model_dump") else v) for k, v in data.items()}
    data.update({k: v for k, v in updates.items() if v is not None})
    for k, v in updates.items():
        if v is None:
            data.pop(k, None)
    if "classes" in updates and ans.positive_class is not None and "positive_class" not in data:
        data["positive_class"] = ans.positive_class
    return answers_from_mapping(data, "answers and options"), replaced
