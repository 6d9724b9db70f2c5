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


if TYPE_CHECKING:  # pragma: no cover
    from .engine._confusion import ConfusionMatrix, confusion_matrix
    from ._exceptions import AdvisorError, InputError, UnknownMetricError, UnsafeOutputError
    from .engine._metrics import (
        BINARY_METRICS,
        METRICS,
        MULTICLASS_METRICS,
        MetricResult,
        UndefinedValue,
        chance_levels,
        compute_metrics,
        per_class,
    )
