"""The report context: everything the templates need, already computed, as pydantic models.

A :class:`ReportContext` is JSON-serialisable (``render_report(ctx, "json", path)``, strict JSON with ±inf as "inf",
in the shape every command writes: :mod:`advisor.report._context_json`) and can be loaded back
(:func:`advisor.report.load_context`, ``advisor report --context FILE.json``) to re-render a report in another
format without recomputing anything. Labels and system names are stored as display strings; every string that came
from the user is escaped by the renderer, never here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..engine import DEFAULT_CONVENTION, net_benefit_name
from .. import report as _package  # lazy: its renderer loads on first use (_repr_html_)
from .._jsonio import SCHEMA_VERSION
from ._models_scores import ScoreData

__all__ = [
    "SCHEMA_VERSION",
    "ChanceRow",
    "ConfusionCell",
    "DifferenceRow",
    "Estimate",
    "FigureData",
    "IntervalSettings",
    "MetricEntry",
    "Paragraph",
    "PerClassRow",
    "PrevalenceCurve",
    "RankingData",
    "Reference",
    "ReportContext",
    "Span",
    "StructureData",
    "SystemReport",
    "TableBlock",
    "TaskInfo",
    "UndefinedEntry",
    "WarningEntry",
]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Span(_M):
    """A piece of running text: plain ``text`` (escaped on output), inline ``math`` (LaTeX from the
    catalogue or advisor, checked against an allow-list when rendered), a citation of BibTeX ``keys``,
    emphasised ``strong`` text, or a command line in ``code`` (typewriter)."""

    kind: Literal["text", "math", "cite", "strong", "code"] = "text"
    text: str = ""
    keys: list[str] = Field(default_factory=list)


class Paragraph(_M):
    """A paragraph (run-in ``heading``, then ``spans``), optionally followed by a bulleted list.

    ``run_in=False``: the heading names the paragraph (its part in the report, the JSON) but is not printed — a
    paragraph in the paper's voice that follows another ("We do not report purity: …"; issue 22, the readers: a
    "**Planned metrics.**" heading reads as the tool's output)."""

    heading: str | None = None
    run_in: bool = True
    spans: list[Span] = Field(default_factory=list)
    items: list[list[Span]] = Field(default_factory=list)


class Estimate(_M):
    estimate: float | None
    low: float | None = None
    high: float | None = None
    method: str | None = Field(None, description="clopper_pearson, bca, basic, percentile; none: withheld")
    reason: str | None = Field(None, description="why no interval is given")


class MetricEntry(_M):
    """A metric as the report presents it."""

    id: str
    name: str
    formula: str = Field(description="LaTeX, the catalogue's single source")
    interpretation: str = ""
    higher_is_better: bool = True
    role: Literal["primary", "complementary", "appendix"] = "appendix"
    reason: str | None = None
    variant: str | None = Field(None, description="the variant named in words (e.g. which macro F1)")
    where: Paragraph | None = Field(None, description="what the formula's own symbols mean (the catalogue's symbols)")
    symbols: dict[str, str] | None = Field(None, description="the symbols of the formula as printed (LaTeX → meaning)")
    params: dict[str, Any] = Field(default_factory=dict)
    references: list[str] = Field(default_factory=list)
    chance_level: str = ""
    properties: list[str] = Field(default_factory=list, description="verified properties, in words")


class PerClassRow(_M):
    label: str
    support: float
    predicted: float
    precision: float | None
    recall: float | None
    f1: float | None
    jaccard: float | None = None
    specificity: float | None = None
    npv: float | None = None
    roc_auc: float | None = None  # multi-label scores: each label's ROC AUC


class UndefinedEntry(_M):
    metric: str
    quantity: str
    label: str | None
    reason: str
    resolution: str
    value: float | None


#: Above this many classes the report shows distributions (sorted per-class scores, top confusions)
#: and keeps no k × k matrix.
MANY_CLASSES = 15
#: Up to this many annotators the report draws Cohen's kappa of every pair as a matrix; beyond it (66 pairs)
#: it summarises them — their spread, the lowest pairs, each annotator's mean kappa — and writes every pair to
#: a CSV beside the report.
HEATMAP_RATERS = 12


class ConfusionCell(_M):
    """An off-diagonal cell: items of class ``true`` predicted as ``predicted``; ``share`` of the true class."""

    true: str
    predicted: str
    count: float
    share: float | None = None


class SystemReport(_M):
    name: str
    values: dict[str, float | None] = Field(description="every computed metric id → value")
    intervals: dict[str, Estimate] = Field(default_factory=dict)
    p_first: dict[str, float | None] = Field(default_factory=dict)
    rank_interval: dict[str, list[float]] = Field(default_factory=dict,
                                                  description="metric id → bootstrap interval of the rank, 1 = best")
    per_class: list[PerClassRow] = Field(default_factory=list)
    confusion: list[list[float]] = Field(default_factory=list,
                                         description="counts, rows = true class (empty above 15 classes)")
    top_confusions: list[ConfusionCell] = Field(default_factory=list, description="most frequent errors first")
    undefined: list[UndefinedEntry] = Field(default_factory=list)
    log_loss_zero: int | None = Field(None, description="items whose true class got probability 0 (below the "
                                                        "clipping ε of log loss); None: not recorded")
    runs: int | None = Field(None, description="training runs the values are the means over (issue 20 item 4); None: "
                                               "one prediction file")


class ChanceRow(_M):
    metric: str
    uniform: float | None
    prevalence: float | None
    majority: float | None
    #: the best constant prediction (every item given one class, the class that scores best) and that class: what an
    #: ordered figure that is not chance-corrected (adjacent agreement) is read against; None where not computed
    constant: float | None = None
    constant_class: str | None = None


class TaskInfo(_M):
    kind: Literal["binary", "multiclass"]
    k: int
    labels: list[str]
    class_sizes: list[float]
    n: float
    positive_label: str | None = None


class IntervalSettings(_M):
    method: str = "auto"
    n_resamples: int
    confidence: float
    seed: int | None = None
    paired: bool = False
    methods: dict[str, str] = Field(default_factory=dict, description="metric id → interval method used (issue 20)")
    withheld: dict[str, str] = Field(default_factory=dict,
                                     description="metric id → why some system's interval is not given")
    tied_shares: list[str] = Field(default_factory=list, description=(
        "before data: metric ids whose Clopper–Pearson interval becomes BCa when tied scores give an item a fraction "
        "of a hit (with data, methods holds the method each metric got)"))
    tied_items: dict[str, dict[str, int]] = Field(default_factory=dict, description=(
        "with data: metric id → system → the items whose true class tied in score with another class at that "
        "share's cut-off, each a fractional hit"))
    seed_given: bool = Field(True, description="False: advisor picked the seed")
    test: str | None = Field(None, description="the paired test behind the winners, named")
    mcnemar: bool = Field(False, description="accuracy, recall or specificity compared by McNemar's exact test")
    group_column: str | None = Field(None, description="the column whose groups were resampled instead of items")
    groups: int | None = Field(None, description="how many groups were resampled")
    runs: int | None = Field(None, ge=1, description=(
        "training runs (seeds) of each system: the answers' before data, the files' with data when every system has "
        "as many; None: not answered and one file per system"))
    runs_by_system: dict[str, int] | None = Field(None, description=(
        "with data, each system's number of runs when some system has several (each system is its mean over them)"))
    classes: str = Field("free", description=(
        "how the true classes were resampled: kept (a resample that lacked a class of the test set was drawn "
        "again), fixed (each class's items among themselves, its count kept), free (the plain bootstrap, or groups "
        "drawn whole)"))
    redrawn: dict[str, int] = Field(default_factory=dict, description=(
        "class → resamples that lacked it and were drawn again (kept)"))
    absent_classes: dict[str, int] = Field(default_factory=dict, description=(
        "class → resamples that lacked it (free, or groups drawn whole)"))
    fold_column: str | None = Field(None, description=(
        "the column naming each item's cross-validation fold (answers folds): the figures pool the folds' items"))
    fold_metric: str | None = Field(None, description="with data, the lead metric computed on each fold's items alone")
    fold_values: dict[str, dict[str, float | None]] = Field(default_factory=dict, description=(
        "with data, system → fold → the lead metric on that fold's items alone"))
    one_group_classes: list[str] = Field(default_factory=list, description=(
        "groups resampled: the classes one group alone holds, which the jackknife loses when it leaves that group out"))


class WarningEntry(_M):
    code: str
    message: str
    source: Literal["recommendation", "report", "plan"] = "recommendation"


class Reference(_M):
    key: str
    text: str = Field(description="formatted citation, plain text")
    short: str = Field(description="author–year label for in-text citations")
    bibtex: str = ""


class RankingData(_M):
    metrics: list[str]
    kendall: list[list[float | None]]
    spearman: list[list[float | None]]
    note: str | None = None


class PrevalenceCurve(_M):
    system: str
    share: list[float]
    value: list[float | None]
    observed_share: float
    observed_value: float | None


class DifferenceRow(_M):
    """Paired difference ``first − second`` on one metric, oriented so positive means ``first`` is better."""

    metric: str
    estimate: float | None
    low: float | None = None
    high: float | None = None
    p_better: float | None = Field(None, description="share of paired resamples in which first is better")
    p_value: float | None = Field(None, description="two-sided p-value of the pair's test")
    test: str | None = Field(None, description="paired bootstrap, or McNemar exact (accuracy)")
    resolvable: float | None = Field(None, description="smallest difference this test set resolves")
    method: str | None = Field(None, description="the interval's method: newcombe for a paired proportion, else the "
                                                 "paired bootstrap's (bca, basic, percentile)")


class FigureData(_M):
    ranking: RankingData | None = None
    difference_pair: list[str] = Field(default_factory=list)
    differences: list[DifferenceRow] = Field(default_factory=list)
    prevalence_metric: str | None = None
    prevalence_class: str | None = None
    prevalence: list[PrevalenceCurve] = Field(default_factory=list)


class StructureData(_M):
    """Ordered classes, label sets, top-k, annotators (issue 12), a taxonomy or partitions (issue 23): what their figure
    and tables need."""

    kind: Literal["ordinal", "multilabel", "top_k", "agreement", "hierarchy", "partition"]
    k: int | None = Field(None, description="top-k: the k of the evaluation")
    confusion: dict[str, list[list[float]]] = Field(default_factory=dict,
                                                    description="ordinal: counts per system, rows = true class in order")
    share: dict[str, float] = Field(default_factory=dict, description="multi-label: share of items carrying each label")
    top_k_curve: dict[str, list[float | None]] = Field(default_factory=dict,
                                                       description="top-k accuracy per system for k = 1, 2, …")
    raters: dict[str, int] = Field(default_factory=dict, description="agreement: ratings given per annotator")
    pairs: dict[str, float | None] = Field(default_factory=dict, description="agreement: Cohen's kappa per pair")
    pair_summary: dict[str, float | int] = Field(
        default_factory=dict, description="agreement: how the pairwise kappas spread (pairs, defined, min, q1, median, "
                                          "q3, max, mean)")
    lowest_pairs: list[dict[str, Any]] = Field(
        default_factory=list, description="agreement: the pairs that agree least (pair, kappa, items both rated)")
    rater_kappa: dict[str, float | None] = Field(
        default_factory=dict, description="agreement: each annotator's mean Cohen's kappa with the others")
    judge: dict[str, Any] | None = Field(
        None, description="agreement with a judge (issue 22): each pair's items both rated, agreement rate and Cohen's "
                          "kappa (weighted kappa) with intervals, the judge's pairs first, and Δ with its interval")
    taxonomy: dict[str, Any] = Field(
        default_factory=dict, description="hierarchy: the tree's file, root (None: implicit), depth, classes per level")
    levels: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="hierarchy: per system the accuracy at each depth (depth, items, correct, "
                                          "accuracy, low, high)")
    distances: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="hierarchy: per system the items per tree distance of the error (0: correct)")
    clusters: dict[str, dict[str, dict[str, float]]] = Field(
        default_factory=dict, description="partition: per system the clusters of y_true's and y_pred's partitions "
                                          "(\"true\", \"predicted\": clusters, largest, median, smallest, singletons, "
                                          "largest_share)")


class TableBlock(_M):
    """A table the report shows for one diagnostic of the plan: format-neutral, its cells already text
    (numbers formatted, user strings raw — every renderer escapes them)."""

    id: str = Field(description="the plan diagnostic it shows")
    title: str
    caption: str = ""
    columns: list[str]
    numeric: list[bool] = Field(description="per column: right-aligned numbers")
    rows: list[list[str]]


class ReportContext(_M):
    """Everything a report shows; render it with :func:`advisor.report.render_report`."""

    schema_version: int = SCHEMA_VERSION
    advisor_version: str
    title: str
    digits: int = 4
    task: TaskInfo | None = None
    convention: str = DEFAULT_CONVENTION
    convention_scorer: str | None = Field(None, description=(
        "the scorer of the answers' field that follows this undefined-value convention (fields.yaml undefined_as), "
        "said with it; None: the convention is the run's choice or advisor's alone"))
    answers: dict[str, Any] = Field(default_factory=dict)
    primary: str
    metrics: list[MetricEntry] = Field(description="recommended metrics first, then the appendix ones")
    discouraged: list[dict[str, str]] = Field(default_factory=list)
    methods: list[Paragraph] = Field(default_factory=list)
    justification: Paragraph | None = Field(None, description="the full reasoning, for the appendix")
    systems: list[SystemReport] = Field(default_factory=list)
    winners: dict[str, list[str]] = Field(default_factory=dict)
    chance: list[ChanceRow] = Field(default_factory=list)
    intervals: IntervalSettings | None = None
    warnings: list[WarningEntry] = Field(default_factory=list)
    references: list[Reference] = Field(default_factory=list)
    figures: FigureData = Field(default_factory=FigureData)
    notes: str | None = None
    structure: StructureData | None = None
    scores: ScoreData | None = Field(None, description="scores, probabilities and costs: curves and settings")
    tables: list[TableBlock] = Field(default_factory=list, description="the plan's diagnostics, one table each")
    definitions: list[MetricEntry] = Field(default_factory=list, description=(
        "formulas of what a diagnostic reports, shown after the metrics' in the Definitions (a judge's agreement with "
        "human raters: the agreement rate, Cohen's kappa, Δ)"))
    plan: dict[str, Any] | None = Field(None, description="the evaluation plan the report carries out (its JSON)")
    at_priors: dict[str, Any] | None = Field(None, description="the prevalence-dependent metrics projected to the "
                                             "deployment shares: priors, and per system and metric the test-set value, "
                                             "the projected estimate and its bootstrap interval")
    actions: dict[str, Any] | None = Field(None, description=(
        "classes grouped by the action they lead to: the actions, the action of interest, the interval method and per "
        "system the matrix of actions (rows true, columns decided) and each rate with right, all, estimate and "
        "interval"))
    fpr_budget: dict[str, Any] | None = Field(None, description=(
        "the labels in use against the false positive rate budget (issue 24): the budget, the confidence, the bound's "
        "method and per system the negatives flagged, the negatives, the rate, its one-sided upper bound (exact, "
        "group-bootstrap and the one used) and the verdict"))
    risk_limit: dict[str, Any] | None = Field(None, description=(
        "the answers at a confidence cut fixed in advance against the target risk: the target, the confidence, the "
        "bound's method and per system the items, the answered, the coverage, the errors, the error rate of the "
        "answers, its one-sided upper bound (exact, group-bootstrap and the one used) and the verdict"))
    subgroups: dict[str, Any] | None = Field(None, description=(
        "per subgroup (issue 23): groups[column][value][system][metric], gaps[column][metric][system], the "
        "thresholds below which a subgroup is too small and the warnings"))
    abstentions: dict[str, Any] | None = Field(None, description=(
        "with a reject label (issue 23): the label, the target coverage and per system the items answered, its "
        "coverage and the error rate of its answers (with intervals), the metrics being those of the answered items"))

    # -- conveniences for templates and renderers ---------------------------------------------
    def _repr_html_(self) -> str:
        """The report in a Jupyter notebook: its body as HTML — methods, tables, figures (inline SVG) — without
        the page's own style sheet, which would restyle the notebook around it. The renderer sits above this
        module; the package's lazy export loads it on the first call."""
        return str(_package.notebook_html(self))

    def metric(self, metric_id: str) -> MetricEntry:
        for m in self.metrics:
            if m.id == metric_id:
                return m
        raise KeyError(metric_id)

    @property
    def lead_ids(self) -> list[str]:
        """The lead's rows: net benefit leading over several risk thresholds is one row per threshold
        (``net_benefit@t``), any other lead the one id of ``primary``."""
        ids = [m.id for m in self.metrics if m.role == "primary"]
        return ids if len(ids) > 1 else [self.primary]

    @property
    def lead_name(self) -> str:
        """The lead as the summary box names it: "Net benefit at risk thresholds 0.05, 0.1 and 0.2" for one row per
        threshold, else the lead's own name."""
        ids = self.lead_ids
        if len(ids) > 1 and all(i.startswith("net_benefit@") for i in ids):
            return net_benefit_name([i.split("@", 1)[1] for i in ids])
        return self.metric(ids[0]).name

    def treat_all(self, metric_id: str) -> float | None:
        """The net benefit of treating every item at the threshold of ``net_benefit@t`` (treating none is 0), the
        comparison a decision curve draws; None for any other metric or when it was not computed."""
        if not metric_id.startswith("net_benefit@") or self.scores is None:
            return None
        return self.scores.net_benefit_all.get(metric_id.split("@", 1)[1])

    @property
    def recommended(self) -> list[MetricEntry]:
        return [m for m in self.metrics if m.role != "appendix"]

    @property
    def has_data(self) -> bool:
        return bool(self.systems)

    @property
    def appendix_metrics(self) -> list[MetricEntry]:
        """The metrics the appendix tabulates: those Table 1 does not show (the appendix never repeats it)."""
        return [m for m in self.metrics if m.role == "appendix"]

    @property
    def cluster_counts(self) -> tuple[int | None, list[str]] | None:
        """Partitions: the clusters each clustering produced, one cell per system in Table 1's order, and the
        reference's number of clusters when every system shares it (else each cell names its own); None otherwise.
        The indices cannot be read without them (purity and NMI rise with the number of clusters)."""
        clusters = getattr(self.structure, "clusters", None) or {}
        if not self.systems or not all(s.name in clusters for s in self.systems):
            return None
        refs = {int(clusters[s.name]["true"]["clusters"]) for s in self.systems}
        shared = len(refs) == 1
        cells = []
        for s in self.systems:
            c = clusters[s.name]
            own, ref = int(c["predicted"]["clusters"]), int(c["true"]["clusters"])
            cells.append(f"{own:,}" if shared else f"{own:,} (reference {ref:,})")
        return (refs.pop() if shared else None), cells

    @property
    def any_bold(self) -> bool:
        """Whether Table 1 sets any value in bold: a recommended metric whose winners are some systems, not all
        (the note that explains bold type is printed only then)."""
        n = len(self.systems)
        return any(0 < len(self.winners.get(m.id, [])) < n for m in self.recommended)
