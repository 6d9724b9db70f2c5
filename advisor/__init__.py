"""advisor — choose, compute and justify classification metrics.

The public API is re-exported here and imported lazily, so ``import advisor`` (and the CLI's
``--help``) stays fast: numpy, pyarrow, matplotlib and WeasyPrint load only when first used.

>>> import advisor
>>> cm = advisor.confusion_matrix([0, 1, 1, 0], [0, 1, 0, 0])
>>> round(advisor.compute_metrics(cm)["balanced_accuracy"], 3)
0.75
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> private module that defines it
_LAZY: dict[str, str] = {
    "AdvisorError": "._exceptions",
    "Answers": ".questionnaire",
    "BINARY_METRICS": ".engine",
    "BootstrapResult": ".stats",
    "Comparison": ".stats",
    "ConfusionMatrix": ".engine",
    "Dataset": ".io",
    "Evaluation": ".engine",
    "InputError": "._exceptions",
    "METRICS": ".engine",
    "MULTICLASS_METRICS": ".engine",
    "MetricResult": ".engine",
    "PredictionSet": ".io",
    "Recommendation": ".questionnaire",
    "Plan": ".plan",
    "PlanOptions": ".plan",
    "ReportContext": ".report",
    "UndefinedValue": ".engine",
    "UnknownMetricError": "._exceptions",
    "UnsafeOutputError": "._exceptions",
    "audit": ".catalogue",
    "bootstrap": ".stats",
    "compare_scored": ".stats",
    "subgroups": ".stats",
    "expected_cost": ".engine",
    "normalized_expected_cost": ".engine",
    "roc_auc": ".engine",
    "average_precision": ".engine",
    "ece": ".engine",
    "score_metrics": ".engine",
    "build_report": ".report",
    "build_structured_report": ".report",
    "calibrate": ".stats",
    "calibrated_metrics": ".stats",
    "chance_levels": ".engine",
    "compare_joint": ".stats",
    "compare_systems": ".stats",
    "compute_metrics": ".engine",
    "confusion_matrix": ".engine",
    "evaluate": ".io",
    "get_catalogue": ".catalogue",
    "load": ".io",
    "load_answers": ".questionnaire",
    "load_inputs": ".io",
    "make_plan": ".plan",
    "methods_paragraph": ".report",
    "per_class": ".engine",
    "probability_metrics": ".engine",
    "project_to_prevalence": ".stats",
    "prevalence_sensitivity": ".stats",
    "read_counts": ".io",
    "read_matrix": ".io",
    "read_frame": ".io",
    "read_predictions": ".io",
    "read_sql": ".io",
    "recommend": ".questionnaire",
    "render_report": ".report",
    "resolve_metric": ".catalogue",
    # ordered classes, label sets, top-k, agreement (issue 12)
    "agreement_metrics": ".engine",
    "load_structured": ".io",
    "multilabel_metrics": ".engine",
    "ordinal_metrics": ".engine",
    # two partitions with arbitrary cluster ids: the indices and their intervals (issue 23, item 3)
    "PartitionRows": ".engine",
    "partition_comparison": ".stats",
    "partition_intervals": ".stats",
    "partition_metrics": ".engine",
    "top_k_accuracy": ".engine",
}

__all__ = sorted(["__version__", *_LAZY])


_lazy_getattr, __dir__ = lazy_exports(__name__, _LAZY)


def __getattr__(name: str) -> object:
    # the catalogue registers its metric names and aliases with the engine on import, so every
    # public function that takes metric ids takes names too (advisor/engine/_names.py)
    importlib.import_module(".catalogue", __name__)
    return _lazy_getattr(name)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from .engine._partition import PartitionRows as PartitionRows
    from .stats._partitions import partition_comparison as partition_comparison
    from .stats._partitions import partition_intervals as partition_intervals
    from .engine._partition import partition_metrics as partition_metrics
    from ._exceptions import (
        AdvisorError as AdvisorError,
        InputError as InputError,
        UnknownMetricError as UnknownMetricError,
        UnsafeOutputError as UnsafeOutputError,
    )
    from .catalogue._audit import audit as audit
    from .catalogue._load import get_catalogue as get_catalogue
    from .catalogue._resolve import resolve_metric as resolve_metric
    from .engine._agreement import agreement_metrics as agreement_metrics
    from .engine._chance import chance_levels as chance_levels
    from .engine._confusion import ConfusionMatrix as ConfusionMatrix, confusion_matrix as confusion_matrix
    from .engine._costs import expected_cost as expected_cost, normalized_expected_cost as normalized_expected_cost
    from .engine._evaluate import Evaluation as Evaluation
    from .engine._metrics import (
        BINARY_METRICS as BINARY_METRICS,
        METRICS as METRICS,
        MULTICLASS_METRICS as MULTICLASS_METRICS,
        MetricResult as MetricResult,
        UndefinedValue as UndefinedValue,
        compute_metrics as compute_metrics,
        per_class as per_class,
    )
    from .engine._multilabel import multilabel_metrics as multilabel_metrics
    from .engine._ordinal import ordinal_metrics as ordinal_metrics
    from .engine._probabilities import probability_metrics as probability_metrics
    from .engine._score_eval import score_metrics as score_metrics
    from .engine._scores import average_precision as average_precision, ece as ece, roc_auc as roc_auc
    from .engine._topk import top_k_accuracy as top_k_accuracy
    from .io._dataset import Dataset as Dataset
    from .io._frames import evaluate as evaluate, read_frame as read_frame, read_sql as read_sql
    from .io._load import load as load
    from .io._matrices import read_counts as read_counts, read_matrix as read_matrix
    from .io._readers import (
        PredictionSet as PredictionSet,
        load_inputs as load_inputs,
        read_predictions as read_predictions,
    )
    from .io._structured_api import load_structured as load_structured
    from .plan._build import make_plan as make_plan
    from .plan._models import Plan as Plan
    from .plan._options import PlanOptions as PlanOptions
    from .questionnaire._answers import Answers as Answers, load_answers as load_answers
    from .questionnaire._engine import recommend as recommend
    from .questionnaire._recommendation import Recommendation as Recommendation
    from .report._build_api import build_report as build_report
    from .report._build_structures import build_structured_report as build_structured_report
    from .report._models import ReportContext as ReportContext
    from .report._render import methods_paragraph as methods_paragraph, render_report as render_report
    from .stats._bootstrap import BootstrapResult as BootstrapResult, bootstrap as bootstrap
    from .stats._calibrate import calibrate as calibrate, calibrated_metrics as calibrated_metrics
    from .stats._compare import (
        Comparison as Comparison,
        compare_joint as compare_joint,
        compare_systems as compare_systems,
    )
    from .stats._items import compare_scored as compare_scored
    from .stats._prevalence import (
        prevalence_sensitivity as prevalence_sensitivity,
        project_to_prevalence as project_to_prevalence,
    )
    from .stats._subgroups import subgroups as subgroups
