"""The evaluation plan: what will be evaluated, with which parameters, and why.

A :class:`Plan` is the one object every later stage works from — ``advisor recommend`` prints it,
``advisor methods`` writes its paragraph from it, ``advisor report`` computes and shows exactly its
metrics and diagnostics. It holds

* the lead metric and every metric reported beside it, each a :class:`MetricSpec` with every
  parameter that changes its number (class of interest, β, costs, priors, class weights, k, order)
  and the reason it is there;
* the diagnostics the report shows beside the metrics (:class:`Diagnostic`), each a promise the
  methods paragraph may make because the report keeps it;
* the evaluation design (:class:`Design`): what is resampled, how many times, the seed, the
  interval method, the paired test and the correction for many comparisons;
* every answer given, with where it went or why it was not used (:class:`AnswerUse`);
* the metrics advised against, the warnings, where two answers pull apart and which one leads
  (``conflicts``), and what advisor does not evaluate (``out_of_scope``).

Everything is plain data (pydantic), so a plan round-trips through JSON.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from ..engine import DEFAULT_CONVENTION, net_benefit_id

__all__ = [
    "AnswerUse",
    "Avoided",
    "Design",
    "Diagnostic",
    "MetricSpec",
    "Plan",
    "PlanWarning",
    "ScopeNote",
    "TaskSpec",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: Parameters that change a metric's number, in the order they are shown.
PARAMETER_ORDER = ("positive_label", "class", "beta", "class_weights", "f1_classes", "costs", "priors", "top_k", "order",
                   "threshold")


class MetricSpec(_Model):
    """One metric of the plan: what is computed, with which parameters, and why it is there."""

    id: str = Field(description="the metric id of the registry (advisor metrics lists them)")
    name: str = Field(description="the metric's name for readers")
    role: Literal["lead", "beside"]
    params: dict[str, Any] = Field(default_factory=dict, description="every parameter that changes the number")
    reason: str = ""
    answers: list[str] = Field(default_factory=list, description="the answers keys this metric rests on")
    higher_is_better: bool = True
    family: str = Field("confusion", description="what it is computed from: confusion, cost, score, probability, "
                        "ordinal, multilabel, top_k, agreement or external")
    planned_as: str | None = Field(None, description="the user's own name for it, when it was planned")


class Avoided(_Model):
    """A metric advised against as the lead, and why."""

    id: str
    name: str
    reason: str


class Diagnostic(_Model):
    """Something the report shows beside the metrics, promised in the methods paragraph.

    ``id`` is one of :data:`DIAGNOSTICS`; ``promise`` is the noun phrase the methods paragraph says
    it with ("the recall of every class"), so the paragraph promises only what the report keeps.
    """

    id: str
    promise: str
    params: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    answers: list[str] = Field(default_factory=list)


#: The diagnostics a plan may carry; each is computed and shown by the report.
DIAGNOSTICS: dict[str, str] = {
    "per_class_recall": "the recall of every class (the per-class table)",
    "per_class": "precision, recall and F1 of every class (the per-class table), which the planned metrics name",
    "recall_spread": "the minimum, maximum and standard deviation over classes of per-class recall",
    "at_priors": "the prevalence-dependent metrics at the deployment shares",
    "class_of_interest": "recall, precision and F1 of the class of special interest",
    "ranking_stability": "how often each system keeps its rank under paired resampling, and the set of winners",
    "class_order": "the order of the classes the distances are counted in",
    "per_label": "precision, recall and F1 of every label",
    "label_aucs": ("the ROC AUC of every label, with its planned F1 (if any) only for illustration at the conventional "
                   "score cut of 0.5 that no answer chose"),
    "level_accuracy": ("the accuracy at each level of the taxonomy (the catalogue's level_accuracy), the top categories "
                       "first, with the items that reach each level"),
    "top_1": "top-1 accuracy beside top-k",
    "annotator_counts": "how many items each annotator rated and how many ratings are missing",
    "pairwise_kappa": "Cohen's kappa of every pair of annotators, on the items both rated",
    "judge_agreement": ("the judge's agreement rate and Cohen's kappa with each human rater beside the human raters' "
                        "with each other, and the difference with a paired bootstrap interval"),
    "human_baseline": ("exact and adjacent agreement and the quadratically weighted kappa of the machine with each "
                       "human rater beside those of the raters with each other, and the degradation of the machine's "
                       "kappa from the raters' with a paired bootstrap interval"),
    "cluster_sizes": "how many clusters each partition has and how large they are",
    "cross_tab": ("the 2×2 table of each system's calls against the reference standard, with the totals of each row "
                  "and column (STARD 2015, item 23: the cross tabulation of index test and reference standard)"),
    "bias_aucs": ("within each subgroup value, the subgroup AUC, the BPSN AUC and the BNSP AUC of Borkan et al. (2019), "
                  "each with its interval"),
    "subgroup_error_rates": ("within each subgroup value, the false positive and false negative rates at the "
                             "threshold where the whole test set's two rates are equal (Dixon et al. 2018), with "
                             "their gaps across the values, each with its interval"),
    "adverse_impact": ("within each subgroup value, the rate of the favourable decision and its ratio to the highest "
                       "value's rate, the smallest ratio of each column against the four-fifths line of the Uniform "
                       "Guidelines on Employee Selection Procedures (29 CFR 1607.4(D)), each with its interval"),
    "bias_score": ("the final score of the Jigsaw Unintended Bias competition, 0.25 × the overall ROC AUC plus 0.25 × the "
                   "power mean (p = −5) over the identity subgroups of each of the subgroup, BPSN and BNSP AUCs, with "
                   "its interval"),
    "subgroup_smd": ("within each subgroup value, the standardized mean difference of predicted minus true scores "
                     "(Williamson, Xi & Breyer 2012), with its interval"),
    "action_rates": ("the confusion matrix collapsed to the actions the classes lead to (true action × decided "
                     "action), with the sensitivity and specificity of the action of interest, or the recall of every "
                     "action, each with its Clopper–Pearson interval"),
    "fpr_budget_check": ("the false positive rate of the labels in use, with its one-sided upper confidence bound, set "
                         "against the false positive rate budget"),
    "risk_limit_check": ("the coverage at the confidence cut fixed in advance and the error rate of its answers, with "
                         "its one-sided upper confidence bound, set against the target risk"),
    "stratified_estimates": ("the user's and producer's accuracy and the area of every class, estimated from area "
                             "proportions with 95% intervals from the stratified estimator"),
}


class Design(_Model):
    """How uncertainty is quantified and systems are compared."""

    unit: str = Field("item", description="what one resample draws")
    unit_words: str = Field("test items", description="the unit as the methods paragraph names it")
    classes: str = Field("kept", description=(
        "how a resample treats the true classes: kept (items drawn as in the plain bootstrap, a resample that lacks "
        "a class of the test set drawn again), fixed (each class's items among themselves), free (the plain "
        "bootstrap; also when groups are drawn whole, which cannot keep the classes)"))
    resamples: int = Field(2000, ge=0, description="bootstrap resamples (0: no intervals)")
    confidence: float = Field(0.95, gt=0, lt=1)
    seed: int | None = None
    seed_given: bool = Field(True, description="False: advisor picked the seed (it is always stated)")
    interval_method: str = Field("auto", description="auto: chosen per metric, see interval_methods")
    interval_methods: dict[str, str] = Field(default_factory=dict, description=(
        "metric id → interval method: clopper_pearson (a proportion of whole items), bca (bias-corrected and "
        "accelerated bootstrap), none (the plug-in ECE, biased upwards; its debiased counterpart has one)"))
    tied_shares: list[str] = Field(default_factory=list, description=(
        "metric ids whose clopper_pearson holds only while every item counts 0 or 1: an item whose true class ties with "
        "other classes in score at the top-k cut-off counts a fraction of a hit, and the interval is then bca"))
    paired: bool = Field(False, description="systems resampled on the same items")
    test: str | None = Field(None, description="how two systems are compared")
    multiplicity: str | None = Field(None, description="correction for many comparisons")
    undefined: str = Field(DEFAULT_CONVENTION, description="the undefined-value convention")
    undefined_from: Literal["option", "field", "default"] = Field("default", description=(
        "why that convention: the run chose it (option: --undefined, undefined=), the field the answers name "
        "follows it in its scorer (field: fields.yaml undefined), or none was chosen (default)"))
    systems: int | None = Field(None, description=(
        "number of systems: the data's, else the answers' (systems), else unknown"))
    runs: int | None = Field(None, ge=1, description=(
        "training runs (seeds) of each system (answers runs); above 1 each system is its mean over its runs and the "
        "resamples draw runs and items (advisor.stats._runs); None: not answered"))
    subgroups: list[str] = Field(default_factory=list, description=(
        "the columns every metric is also reported by, per subgroup value (answers subgroups, --by; issue 23)"))
    folds: str | None = Field(None, description=(
        "the column naming each item's cross-validation fold (answers folds): the figures pool the folds' items, and "
        "with data the lead figure of each fold is given with their mean and standard deviation"))


class AnswerUse(_Model):
    """One answer and what became of it."""

    key: str
    value: Any = None
    given: bool = Field(True, description="answered by the user (False: the questionnaire's default or the data)")
    source: Literal["answers", "option", "data", "default"] = "answers"
    used_by: list[str] = Field(default_factory=list)
    unused: str | None = Field(None, description="why the answer changed nothing, when it did not")
    note: str | None = Field(None, description="for a planned metric not reported under its own name: the sentence "
                             "that tells the author why not, or under which names it is reported")


class PlanWarning(_Model):
    code: str
    message: str


class ScopeNote(_Model):
    """Something the situation asks for that advisor does not evaluate, and what to use instead."""

    what: str
    use: str
    why: str
    task: str | None = Field(None, description="the kind of task it belongs to (a key of questionnaire/scope.yaml)")
    planned_as: str | None = Field(None, description="the planned metric's name, when a planned metric led here")


class TaskSpec(_Model):
    kind: Literal["binary", "multiclass"]
    k: int | None = None
    classes: list[Any] | None = None
    positive_class: Any = None
    structure: str = "nominal"
    top_k: int | None = None
    annotators: int | None = None


def threshold_rows(spec: MetricSpec) -> list[MetricSpec]:
    """Net benefit with its risk thresholds as one spec per threshold, ``net_benefit@t`` (issue 21); any other
    spec, or net benefit without thresholds, as it is.

    >>> [(m.id, m.params) for m in threshold_rows(MetricSpec(id="net_benefit", name="Net benefit", role="lead",
    ...                                                          params={"thresholds": [0.05, 0.1]}))]
    [('net_benefit@0.05', {'threshold': 0.05}), ('net_benefit@0.1', {'threshold': 0.1})]
    """
    thresholds = spec.params.get("thresholds") if spec.id == "net_benefit" else None
    if not thresholds:
        return [spec]
    rest = {k: v for k, v in spec.params.items() if k != "thresholds"}
    return [spec.model_copy(update={"id": net_benefit_id(t), "name": f"Net benefit at risk threshold {float(t):g}",
                                    "params": {**rest, "threshold": float(t)}}) for t in thresholds]


class Plan(_Model):
    """The evaluation plan (see the module docstring)."""

    task: TaskSpec
    lead: MetricSpec
    beside: list[MetricSpec] = Field(default_factory=list)
    avoid: list[Avoided] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    design: Design = Field(default_factory=Design)
    answers: list[AnswerUse] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list, description="where two answers pull apart, which leads and why")
    not_computed: list[Avoided] = Field(default_factory=list, description="metrics the data cannot give, and why "
                                        "(set when the plan is carried out on data)")
    warnings: list[PlanWarning] = Field(default_factory=list)
    out_of_scope: list[ScopeNote] = Field(default_factory=list)
    left_open: list[str] = Field(default_factory=list, description=(
        "what the field's reports also state that no answer gives (STARD 2015's handling of indeterminate results): "
        "left to the authors, never assumed in the text"))
    recommendation: dict[str, Any] = Field(default_factory=dict, description="the rule engine's full reasoning")
    _rec: Any = PrivateAttr(default=None)  # the Recommendation object itself, for its text views

    @property
    def metrics(self) -> list[MetricSpec]:
        """The lead, then every metric beside it."""
        return [self.lead, *self.beside]

    @property
    def metric_ids(self) -> list[str]:
        return [m.id for m in self.metrics]

    @property
    def unused(self) -> list[AnswerUse]:
        return [a for a in self.answers if a.unused is not None]

    def lead_rows(self) -> list[MetricSpec]:
        """The lead as the rows a report gives it: net benefit at several risk thresholds is one row per threshold
        (``net_benefit@t``, each a lead), any other lead is its own one row."""
        return threshold_rows(self.lead)

    def spec(self, metric_id: str) -> MetricSpec | None:
        return next((m for m in self.metrics if m.id == metric_id), None)

    def diagnostic(self, diagnostic_id: str) -> Diagnostic | None:
        return next((d for d in self.diagnostics if d.id == diagnostic_id), None)

    def answered(self, key: str) -> Any:
        """The value the answers give ``key`` (None when not answered or empty)."""
        return next((a.value for a in self.answers if a.key == key and a.value), None)

    def given(self) -> set[str]:
        """The answers keys the user gave (not defaults, not inferred from data)."""
        return {a.key for a in self.answers if a.given and a.source in ("answers", "option")}

    def to_json_dict(self) -> dict[str, Any]:
        """The plan as JSON: ``metrics`` (lead first), ``diagnostics``, ``design``, ``answers`` and
        ``unused`` (every answer that changed nothing, with the reason)."""
        out = self.model_dump(mode="json", exclude={"recommendation"})
        out["metrics"] = [m.model_dump(mode="json") for m in self.metrics]
        out["unused"] = [{"key": a.key, "value": a.value, "reason": a.unused} for a in self.unused]
        return out
