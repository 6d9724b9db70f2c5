"""Statistics on top of the engine: bootstrap intervals, paired comparison of systems, projection
to other class prevalences and prevalence calibration.

It may import the engine and the base modules, never io, catalogue, questionnaire, report or cli.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "BootstrapResult": "._bootstrap",
    "Comparison": "._compare",
    "PrevalenceProjection": "._prevalence",
    "bootstrap": "._bootstrap",
    "calibrate": "._calibrate",
    "calibrated_metrics": "._calibrate",
    "compare_joint": "._compare",
    "compare_scored": "._items",
    "compare_systems": "._compare",
    "prevalence_sensitivity": "._prevalence",
    "project_to_prevalence": "._prevalence",
    "proportion_interval": "._proportions",
    "structure_bootstrap": "._structures",
    "structure_comparison": "._structures",
    "subgroups": "._subgroups",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
