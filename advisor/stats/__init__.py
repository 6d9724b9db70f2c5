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
    # used by the catalogue's checker, the report and the CLI
    "average_ranks": "._compare",
    "calibrate_counts": "._calibrate",
    "check_enough_resamples": "._limits",
    "kendall_tau_b": "._compare",
    "spearman_rho": "._compare",
    "structure_compare": "._structures",
    # intervals: the method per metric and the seed always stated (issue 20)
    "METHOD_WORDS": "._choice",
    "interval_methods": "._choice",
    "pick_seed": "._bootstrap",
    # partitions: the bootstrap of the error of the partition indices (issue 23, item 3)
    "MIN_PARTITION_UNITS": "._partitions:MIN_UNITS",
    "partition_comparison": "._partitions",
    "partition_intervals": "._partitions",
    "subgroups": "._subgroups",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
