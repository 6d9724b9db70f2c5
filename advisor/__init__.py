"""advisor — choose, compute and justify classification metrics.

The public API is re-exported here and imported lazily, so ``import advisor`` (and the CLI's
``--help``) stays fast: numpy, pyarrow, matplotlib and WeasyPrint load only when first used.

>>> import advisor
>>> cm = advisor.confusion_matrix([0, 1, 1, 0], [0, 1, 0, 0])
>>> round(advisor.compute_metrics(cm)["balanced_accuracy"], 3)
0.75
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> private module that defines it
_LAZY: dict[str, str] = {
    "AdvisorError": "._exceptions",
    "Answers": ".questionnaire",
    "BINARY_METRICS": "._metrics",
    "BootstrapResult": "._bootstrap",
    "Comparison": "._compare",
    "ConfusionMatrix": "._confusion",
    "Evaluation": "._evaluate",
    "InputError": "._exceptions",
    "METRICS": "._metrics",
    "MULTICLASS_METRICS": "._metrics",
    "MetricResult": "._metrics",
    "PredictionSet": "._readers",
    "Recommendation": ".questionnaire",
    "ReportContext": ".report",
    "UndefinedValue": "._metrics",
    "UnknownMetricError": "._exceptions",
    "UnsafeOutputError": "._exceptions",
    "audit": ".catalogue",
    "bootstrap": "._bootstrap",
    "build_report": ".report",
    "calibrate": "._calibrate",
    "calibrated_metrics": "._calibrate",
    "chance_levels": "._metrics",
    "compare_joint": "._compare",
    "compare_systems": "._compare",
    "compute_metrics": "._metrics",
    "confusion_matrix": "._confusion",
    "evaluate": "._evaluate",
    "get_catalogue": ".catalogue",
    "load_answers": ".questionnaire",
    "load_inputs": "._readers",
    "methods_paragraph": ".report",
    "per_class": "._metrics",
    "probability_metrics": "._probabilities",
    "project_to_prevalence": "._prevalence",
    "prevalence_sensitivity": "._prevalence",
    "read_counts": "._readers",
    "read_matrix": "._readers",
    "read_predictions": "._readers",
    "recommend": ".questionnaire",
    "render_report": ".report",
    "resolve_metric": ".catalogue",
}

__all__ = sorted(["__version__", *_LAZY])


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover
    from ._confusion import ConfusionMatrix, confusion_matrix
    from ._exceptions import AdvisorError, InputError, UnknownMetricError, UnsafeOutputError
    from ._metrics import (
        BINARY_METRICS,
        METRICS,
        MULTICLASS_METRICS,
        MetricResult,
        UndefinedValue,
        chance_levels,
        compute_metrics,
        per_class,
    )
