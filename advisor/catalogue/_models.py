"""Pydantic models of the metric catalogue (the interface other stages build on).

The catalogue is data (``advisor/catalogue/metrics.yaml``) validated by these models: one
:class:`MetricRecord` per metric id of the engine, each stating every property of both frameworks.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "GOESGENS_PROPERTIES",
    "OPITZ_PROPERTIES",
    "PROPERTY_IDS",
    "BinaryForm",
    "Catalogue",
    "ChanceCorrection",
    "Convention",
    "Counterexample",
    "CounterexampleKind",
    "MetricRecord",
    "PropertyClaim",
    "PropertyStatus",
]

OPITZ_PROPERTIES = (
    "opitz_monotonicity",
    "class_sensitivity",
    "class_decomposability",
    "prevalence_invariance",
    "chance_correction",
)
GOESGENS_PROPERTIES = (
    "max_agreement",
    "min_agreement",
    "class_symmetry",
    "symmetry",
    "distance",
    "monotonicity",
    "strong_monotonicity",
    "constant_baseline",
    "approximate_constant_baseline",
)
PROPERTY_IDS = OPITZ_PROPERTIES + GOESGENS_PROPERTIES

PropertyStatus = Literal["holds", "fails", "binary_only", "after_calibration", "conditional", "not_applicable"]
#: what a metric scores: a nominal confusion matrix, or (issue 12) ordered classes, label sets, top-k scores or ratings
Structure = Literal["nominal", "ordinal", "multilabel", "top_k", "agreement", "partition", "hierarchy"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# "label_sets": matrices alternate truth / prediction 0/1 arrays (items × labels); "ratings": each matrix is a
# ratings table (items × annotators, −1 = missing); "scores": [scores (items × classes), [[true class per item]]];
# "partitions": each matrix is one partition's cluster ids, [[id per item]] (issue 23); "hierarchy": [[parent of
# each node, −1 below the root]], [[true node per item]], [[predicted node per item]] (issue 23, item 4)
CounterexampleKind = Literal["matrices", "expectations", "label_sets", "ratings", "scores", "partitions", "hierarchy"]
Convention = Literal["zero", "baseline", "omit"]


class Counterexample(_Strict):
    """Matrices (rows = true, columns = predicted) that show a property failing, and what they show.

    Two kinds: ``matrices`` — ``values[i]`` is the metric of matrix ``i``, reproducible with
    ``compute_metrics(reduced[i] or matrices[i], [id], undefined=convention)`` (``positive_label=1``
    for binary metrics; :func:`advisor.calibrated_metrics` for a calibrated counterexample);
    ``expectations`` — each matrix only stands for its margins (true sizes = row sums, predicted
    sizes = column sums) and ``values[i]`` is the exact expected metric of a uniformly random
    prediction with those margins (constant baseline).
    """

    matrices: list[list[list[float]]]
    values: list[float] = Field(default_factory=list, description="the metric's value on each matrix")
    kind: CounterexampleKind = Field(
        "matrices", description="'matrices': values are the metric of the matrices; 'expectations': values are "
        "exact expectations over random predictions with each matrix's margins")
    convention: Convention = Field(
        "baseline", description="the undefined-value convention the values are computed under "
        "(compute_metrics(..., undefined=convention))")
    reduced: list[list[list[float]] | None] | None = Field(
        None, description="per matrix, the matrix the value is computed from when some class occurs in neither "
        "labeling: the property checker drops such a class (a class no labeling uses is not a class of the "
        "evaluation); null where nothing is dropped. A 1×1 entry means one class is left: the value is that of "
        "identical labelings (a diagonal matrix)")
    explanation: str
    source: str = Field(description="'checker' if found by advisor's own search, else the paper/table")
    labelings: list[list[int]] | None = Field(
        None, description="for a triangle-inequality violation: the labelings A, B, C (class indices per item)"
    )


class ChanceCorrection(_Strict):
    """Details of Opitz's PV for a metric that has it."""

    strict: bool
    complete: bool
    baseline: str = Field(description="the chance value ω(k), e.g. '1/k' or '0'")


class PropertyClaim(_Strict):
    status: PropertyStatus
    source: str = Field(description="paper and table/section the claim comes from, or 'advisor' if derived")
    verified: bool = Field(False, description="confirmed by advisor's property checker")
    condition: str | None = Field(None, description="written-out condition when status is 'conditional'")
    counterexample: Counterexample | None = None
    paper_claim: str | None = Field(
        None, description="what the paper says, when our checker refutes it (both are recorded)"
    )
    chance_correction: ChanceCorrection | None = None
    note: str | None = None
    restriction: str | None = Field(
        None,
        description="for a 'conditional' claim: the checker's name of the condition "
        "('occurring', 'truth_complete', 'prediction_complete' or 'regular'); the claim holds on matrices "
        "satisfying it",
    )
    calibrated_counterexample: Counterexample | None = Field(
        None, description="counterexample for metric~ (the calibrated metric) when a paper claims the property "
        "after calibration but the checker refutes it",
    )


class CountsForm(_Strict):
    """A formula written in the counts of a two-class task, $TP$, $FP$, $FN$ and $TN$ (Matthews's own form of MCC):
    readers of a two-class study know it, where the general form over $k$ classes reads as another metric."""

    formula: str = Field(description="LaTeX in TP, FP, FN and TN; equal in value to the record's formula at k = 2")
    symbols: dict[str, str] = Field(default_factory=dict, description="what the counts are here, beyond the notation")


class BinaryForm(_Strict):
    """A formula written in the notation of a two-class task with probabilities: $y_t$ is 1 when item $t$ is
    positive, else 0, and $p_t$ is item $t$'s probability for the positive class (one notation across a report's
    Definitions, where the multi-class $p_{tj}$ and the true class $y_t$ would give one number two names)."""

    formula: str = Field(description="LaTeX in the binary notation; equal in value to the record's formula")
    symbols: dict[str, str] = Field(default_factory=dict, description=(
        "its symbols beyond $y_t$, $p_t$ and $n$, which that notation defines"))


class MetricRecord(_Strict):
    id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    formula: str = Field(description="LaTeX, the single source for docs, explain and reports")
    symbols: dict[str, str] = Field(default_factory=dict, description=(
        "every symbol of the formula the shared notation does not define (C, a_i, b_j, n, k, TP/FP/FN/TN, "
        "p_tj, y_t, g_t, e_t, bound indices, names defined inside the formula): LaTeX → its meaning, inline math "
        "between $ signs"))
    interpretation: str
    parameters: dict[str, str] = Field(default_factory=dict, description=(
        "the metric's declared parameters, name → what it is and how advisor sets it from the answers (the "
        "favourable decision of the adverse impact ratio)"))
    range: tuple[float, float]
    higher_is_better: bool
    target: float | None = Field(None, description=(
        "for a signed metric, its best value inside the range (the standardized mean difference: 0); the sign of "
        "value − target says which way the labelings differ, and higher_is_better (then false) speaks of the "
        "distance |value − target|"))
    binary_only: bool = False
    needs_probabilities: bool = False
    needs_subgroups: bool = Field(False, description=(
        "compares the subgroups of a subgroup column (the adverse impact ratio): no confusion matrix gives it, so it "
        "is no candidate of the property ranking and is planned by the subgroup rules (advisor/plan/_build.py)"))
    chance_level: str
    pitfalls: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list, description="BibTeX keys in references.bib")
    properties: dict[str, PropertyClaim]
    alias_of: str | None = None
    binary_form: BinaryForm | None = Field(None, description=(
        "the formula in the two-class notation of probabilities (y_t 1 or 0, p_t the positive class's probability), "
        "printed instead of the general one in a two-class report with probabilities"))
    counts_form: CountsForm | None = Field(None, description=(
        "the formula in the counts of a two-class task (TP, FP, FN, TN), printed instead of the general one in a "
        "two-class report"))
    structure: Structure = Field("nominal", description="what the metric scores; non-nominal properties are "
                                 "checked on inputs of that kind (advisor/catalogue/_check_structures.py)")


class Catalogue(_Strict):
    metrics: dict[str, MetricRecord]
    # names that are ambiguous or misleading, resolved to explanations (e.g. "macro F1")
    name_notes: dict[str, str] = Field(default_factory=dict)
