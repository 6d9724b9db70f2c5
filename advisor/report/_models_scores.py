"""The report context's part for scores, probabilities and costs (issue 11): figure data and what the
methods text states about them (clipping, binning, costs, priors).

Kept as data, like every other part of :class:`~advisor.report._models.ReportContext`, so a report
re-renders from its JSON context (curves are thinned to a few hundred points).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Curve", "ScoreData"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Curve(_M):
    """One system's curve: ``x`` and ``y`` of the same length (``None``: undefined at that point)."""

    x: list[float]
    y: list[float | None]


class ScoreData(_M):
    """Scores, probabilities and costs: the curves the figures draw and the settings the text states."""

    positive_label: str | None = Field(None, description="the class of the ROC and PR curves")
    positive_share: float | None = Field(None, description="share of the positive class in the test set")
    roc: dict[str, Curve] = Field(default_factory=dict, description="false positive rate → true positive rate")
    pr: dict[str, Curve] = Field(default_factory=dict, description="recall → precision (step)")
    reliability: dict[str, Curve] = Field(default_factory=dict,
                                          description="mean confidence → accuracy per equal-mass bin")
    ece_bins: int | None = None
    cost_curve: dict[str, Curve] = Field(default_factory=dict,
                                         description="deployment share of the positive class → NEC")
    costs: list[list[float]] | None = Field(None, description="cost matrix, rows true class, columns decision")
    cost_labels: list[str] = Field(default_factory=list)
    priors: dict[str, float] | None = Field(None, description="deployment class shares; None: the test set's")
    costs_said: bool = Field(False, description="the costs and shares are the answers', which the situation states")
    bayes_threshold: float | None = Field(None, description="binary, with probabilities: the positive-class "
                                          "probability above which the Bayes decision is positive, after the "
                                          "prior adjustment from the test shares to the deployment shares")
    calibration_loss: dict[str, float | None] = Field(default_factory=dict,
                                                      description="share of log loss removed by temperature scaling")
    item_bootstrap: bool = Field(False, description="score and cost intervals from an item bootstrap")
    calibration: dict[str, dict[str, Any]] = Field(default_factory=dict, description=(
        "system → top_label / positive_class → the plug-in ECE and the debiased root-mean-square calibration "
        "error with its interval (Kumar et al. 2019; issue 20)"))
    # issue 21: operating constraints, clinical calibration, decision curves
    decision_budget: float | None = Field(None, description="the false positive rate budget")
    decision_k: float | None = Field(None, description="K, the items of this test set that can be reviewed")
    decision_review_share: float | None = Field(None, description="the review budget as a share of the items")
    decision_n: int | None = Field(None, description="the number of test items")
    operating: dict[str, dict[str, float]] = Field(default_factory=dict, description="per system: the threshold "
                                                   "within the FPR budget, its TPR and FPR")
    review: dict[str, dict[str, float]] = Field(default_factory=dict, description="per system: K, the score at the "
                                                "cut, precision and recall at K")
    clinical: dict[str, dict[str, float]] = Field(default_factory=dict, description="per system: mean risk, "
                                                  "observed share, observed/expected")
    smooth: dict[str, Curve] = Field(default_factory=dict, description="loess-smoothed calibration curve")
    smooth_band: dict[str, list[Curve]] = Field(default_factory=dict, description="per system: the pointwise 95% "
                                                "bootstrap band of the loess curve, [low, high] (items resampled)")
    recalibration_loss: dict[str, float | None] = Field(default_factory=dict, description="share of log loss "
                                                        "removed by a cross-fitted logistic recalibration")
    extreme_risks: dict[str, int] = Field(default_factory=dict, description="per system: the risks below ε or above "
                                          "1 − ε, which the calibration fit's logit clips")
    net_benefit_thresholds: list[float] = Field(default_factory=list)
    rps_order: list[str] = Field(default_factory=list, description="the class order of the ranked probability score")
    labels_given: bool = Field(False, description="the decision metrics score labels supplied with the scores")
    net_benefit_all: dict[str, float] = Field(default_factory=dict, description="treat-all net benefit per threshold")
    net_benefit_curve: dict[str, Curve] = Field(default_factory=dict, description="per system: net benefit over "
                                                "every threshold between the smallest and largest named one")
    net_benefit_all_curve: Curve | None = Field(None, description="treat-all net benefit over the same thresholds")
    # issue 23 item 2: selective prediction
    risk_coverage: dict[str, Curve] = Field(default_factory=dict, description="per system: coverage → selective risk, "
                                            "the items ranked by top-label probability")
    selective_coverage: float | None = Field(None, description="the target coverage of the selective risk")
    selective_answered: int | None = Field(None, description="⌈c·n⌉, the items answered at the target coverage")
    selective_n: int | None = Field(None, description="the number of test items ranked by confidence")
    selective_target_risk: float | None = Field(None, description="the largest error rate acceptable among the answers")
    selective_confidence: float | None = Field(None, description="1 − δ of the coverage with guaranteed risk (SGR), "
                                               "when it is planned")
    selective: dict[str, dict[str, float | None]] = Field(default_factory=dict, description="per system: the selective "
                                                          "risk at the target coverage, the coverage at the target "
                                                          "risk and the coverage with guaranteed risk, its threshold "
                                                          "and bound")
    selective_by_class: dict[str, dict[str, dict[str, float | None]]] = Field(default_factory=dict, description=(
        "per system and true class at the target coverage: items, share answered, recall among those answered"))
    selective_split: dict[str, Any] | None = Field(None, description=(
        "the random split of the groups (the items, without groups) into a calibration half, where the cut is fixed, "
        "and a test half, where it is tested: seed, groups and items of each half"))
    frozen_cut: dict[str, dict[str, Any]] = Field(default_factory=dict, description=(
        "per system: the cut selection with guaranteed risk fixed on the calibration half (threshold, items answered, "
        "errors, design effect, bound) and what it does on the test half (coverage and error rate of the answers with "
        "their intervals, the error rate's one-sided bound and verdict against the target risk)"))
    frozen_coverage: dict[str, dict[str, Any]] = Field(default_factory=dict, description=(
        "per system: the cut that answers the target coverage of the calibration half (threshold, items answered and "
        "their share there) and what it does on the test half (the realised coverage and the error rate of the "
        "answers, with their intervals); the by-class figures are then those of the test half at this cut"))
    selective_given_labels: bool = Field(False, description="the answers are the predicted labels supplied with the "
                                         "probabilities (else the top label)")
