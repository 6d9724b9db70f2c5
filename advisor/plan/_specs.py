"""The plan's metrics: the recommendation's choices as specs with every parameter that changes a number.

A metric id alone does not say what was computed: recall *of which class*, Fβ *with which β*, the
expected cost *under which costs and shares*, the weighted mean recall *with which weights*. Each
:class:`~._models.MetricSpec` carries those parameters, taken from the answers (as overridden by the
run's options), and the answers keys it rests on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..catalogue import Catalogue
from ..engine import METRICS, PARAMETER_OF
from ..questionnaire import Answers, Recommendation, field_f1_classes
from ._models import MetricSpec

__all__ = ["family_of", "metric_specs", "cost_parameters"]

COST_IDS = ("expected_cost", "normalized_expected_cost")
SCORE_IDS = ("roc_auc", "average_precision", "brier_binary", "ece", "tpr_at_fpr", "partial_roc_auc", "ks_statistic",
             "precision_at_k", "recall_at_k", "calibration_intercept", "calibration_slope", "ici", "net_benefit", "aurc",
             "selective_risk", "coverage_at_risk", "coverage_guaranteed_risk", "risk_at_frozen_coverage")
PROBABILITY_IDS = ("log_loss", "brier", "ranked_probability_score", "rps_skill")
EXTERNAL_IDS = ("entity_f1", "ndcg_at_k", "external_detection", "external_segmentation", "external_regression",
                "external_generation")


def family_of(metric_id: str, catalogue: Catalogue) -> str:
    """What a metric is computed from: ``confusion``, ``cost``, ``score``, ``probability``, a structure
    (``ordinal``, ``multilabel``, ``top_k``, ``agreement``) or ``external`` (another tool scores it)."""
    if metric_id in COST_IDS:
        return "cost"
    if metric_id.startswith("net_benefit@"):  # one per risk threshold (issue 21)
        return "score"
    if metric_id in SCORE_IDS:
        return "score"
    if metric_id in PROBABILITY_IDS:
        return "probability"
    if metric_id in EXTERNAL_IDS:
        return "external"
    rec = catalogue.metrics.get(metric_id)
    if rec is not None and rec.structure != "nominal":
        return str(rec.structure)
    return "confusion"


def cost_parameters(answers: Answers) -> dict[str, Any]:
    """The costs and priors an expected cost is taken under, as the plan states them."""
    out: dict[str, Any] = {}
    ec = answers.error_costs
    if ec is not None and ec.false_negative is not None:
        out["costs"] = {"fn": ec.false_negative, "fp": ec.false_positive}
    elif ec is not None and ec.matrix is not None:
        out["costs"] = {"matrix": [list(map(float, row)) for row in ec.matrix],
                        "classes": list(answers.classes) if answers.classes else None}
    if answers.target_prevalence and answers.deployment_prevalence != "same":
        out["priors"] = {str(c): float(v) for c, v in answers.target_prevalence.items()}
    else:
        out["priors"] = "test-set shares"
    return out


def _params(metric_id: str, given: Mapping[str, Any], answers: Answers, family: str) -> tuple[dict[str, Any], list[str]]:
    """Every parameter that changes the number, and the answers keys behind them."""
    params: dict[str, Any] = {}
    keys: list[str] = []
    spec = METRICS.get(metric_id)
    if (spec is not None and (spec.binary_only or spec.needs_positive)) or metric_id == "average_precision":
        pos = given.get("positive_label", answers.positive_class)
        if pos is not None:
            params["positive_label"] = pos
            keys.append("positive_class")
    if metric_id == "f_beta":
        beta = given.get("beta")
        if beta is None:
            ratio = answers.cost_ratio()
            beta = math.sqrt(ratio) if ratio else 1.0
        params["beta"] = float(beta)
        if answers.cost_ratio():
            keys.append("error_costs")
    if metric_id == "stratified_accuracy" and answers.map_shares:  # the strata's weights: the mapped shares
        params["class_weights"] = {str(c): float(w) for c, w in answers.map_shares.items()}
        keys.append("map_shares")
    elif PARAMETER_OF.get(metric_id) == "class_weights" and answers.class_weights:  # class-weighted recall, accuracy
        params["class_weights"] = {str(c): float(w) for c, w in answers.class_weights.items()}
        keys.append("class_weights")
    if PARAMETER_OF.get(metric_id) == "f1_classes":  # the classes given, else those of the field's definition
        chosen = answers.f1_classes or field_f1_classes(answers.field, answers.classes)
        if chosen:
            params["f1_classes"] = list(chosen)
            keys.append("f1_classes" if answers.f1_classes else "field")
    if PARAMETER_OF.get(metric_id) == "fallback_class" and answers.fallback_class is not None:
        params["fallback_class"] = answers.fallback_class  # the class whose prediction takes no action
        keys.append("fallback_class")
    if PARAMETER_OF.get(metric_id) == "action_classes" and answers.action_classes():
        params["action_classes"] = answers.action_classes()  # the classes that lead to the action of interest
        params["action"] = str(answers.action_of_interest)  # its name, which names the metric ("referral sensitivity")
        keys.extend(["actions", "action_of_interest"])
    if family == "cost":
        costs = cost_parameters(answers)
        params.update(costs)
        if "costs" in costs:
            keys.append("error_costs")
        if isinstance(costs.get("priors"), dict):
            keys.append("target_prevalence")
    if family == "top_k" and answers.top_k:
        params["top_k"] = answers.top_k
        keys.append("top_k")
    if metric_id in ("aurc", "selective_risk", "coverage_at_risk", "coverage_guaranteed_risk",
                     "risk_at_frozen_coverage"):  # issue 23: how the confidence is taken
        keys.append("abstention")
        params["confidence_from"] = "top-label probability"
        if answers.reject_label is not None:
            params["reject_label"] = answers.reject_label
            params["confidence_from"] = "reject label (abstentions last), then the top-label probability"
            keys.append("reject_label")
        if answers.target_risk is not None:  # the coverage at which the selective risk is at most this (issue 22)
            params["target_risk"] = answers.target_risk
            keys.append("target_risk")
    if (family == "ordinal" or metric_id in ("ranked_probability_score", "rps_skill")) and answers.classes:
        params["order"] = list(answers.classes)
        keys.append("classes")
    for param, key in (("max_fpr", "fpr_budget"), ("review_share", "review_share"), ("alerts", "review_share"),
                       ("thresholds", "decision_thresholds"),  # operating constraints (issue 21)
                       ("coverage", "target_coverage")):  # selective prediction (issue 23)
        if param in given:
            keys.append(key)
    for key, value in given.items():  # anything else the rules set (e.g. a named β)
        params.setdefault(key, value)
    return params, keys


def metric_specs(rec: Recommendation, answers: Answers, catalogue: Catalogue,
                 planned: Mapping[str, str]) -> tuple[MetricSpec, list[MetricSpec]]:
    """``(lead, metrics beside it)`` with their parameters; ``planned`` maps a metric id to the user's name."""
    lead_keys = sorted({k for e in rec.rationale if e.rule == "primary" for k in e.answers})

    def spec(mid: str, name: str, role: str, params: Mapping[str, Any], reason: str, keys: Sequence[str]) -> MetricSpec:
        rec_ = catalogue.metrics.get(mid)
        family = family_of(mid, catalogue)
        full, param_keys = _params(mid, params, answers, family)
        behind = list(dict.fromkeys([*keys, *param_keys, *(["planned_metrics"] if mid in planned else [])]))
        return MetricSpec(
            id=mid,
            name=answers.action_metric_name(mid, rec_.name if rec_ is not None else name or mid.replace("_", " ")),
            role=role,
            params=full, reason=reason, answers=behind,
            higher_is_better=True if rec_ is None else bool(rec_.higher_is_better),
            family=family, planned_as=planned.get(mid),
        )

    lead = spec(rec.primary.metric, rec.primary.name, "lead", rec.primary.params, rec.primary.reason, lead_keys)
    beside = [spec(a.metric, a.name, "beside", a.params, a.reason,
                   ["field"] if a.reason.startswith("the figure reported in") else []) for a in rec.complementary
              if a.metric != lead.id]
    return lead, beside
