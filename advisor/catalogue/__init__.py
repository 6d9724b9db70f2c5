"""The metric catalogue: what each metric computes, means and promises — checked against the code.

* :func:`get_catalogue` — the validated catalogue (``metrics.yaml`` + ``verification.yaml``), cached.
* :func:`resolve_metric` — forgiving name lookup ("Macro-F1", "MCC", "kappa", "micro F1", …).
* :func:`audit` — every property claim re-checked against the implementation.

The BibTeX file the records cite ships next to the data: :data:`BIB_FILE`.

It may import the engine and stats (the property checker evaluates metrics) and the base modules;
never the questionnaire, the report or the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

__all__ = [
    "BIB_FILE",
    "PROPERTY_IDS",
    "PROPERTY_NAMES",
    "AuditReport",
    "Catalogue",
    "MetricRecord",
    "PropertyClaim",
    "PropertyStatus",
    "Resolution",
    "audit",
    "explain",
    "explain_terminal",
    "get_catalogue",
    "group_metrics",
    "lower_is_better",
    "metric_id_for",
    "metric_ids_for",
    "metrics_json",
    "metrics_markdown",
    "metrics_table",
    "resolve_metric",
]

_LAZY = {
    "AuditReport": "._audit",
    "audit": "._audit",
    "BIB_FILE": "._load",
    "get_catalogue": "._load",
    "lower_is_better": "._load",
    "Resolution": "._resolve",
    "resolve_metric": "._resolve",
    "Catalogue": "._models",
    "MetricRecord": "._models",
    "PropertyClaim": "._models",
    "metric_id_for": "._names",
    "metric_ids_for": "._names",
    # the catalogue's words and views, used by the questionnaire and the CLI
    "PROPERTY_IDS": "._models",
    "PROPERTY_NAMES": "._render:LONG",
    "PropertyStatus": "._models",
    "explain": "._render",
    "explain_terminal": "._terminal",
    "group_metrics": "._terminal",
    "metrics_json": "._render",
    "metrics_markdown": "._render",
    "metrics_table": "._terminal",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


def _metric_id_for(name: str) -> str:
    return __getattr__("metric_id_for")(name)  # the lazy table: advisor.catalogue._names loads on first use


# every function of the engine and stats that takes metric ids takes the catalogue's names too
from ..engine import set_name_resolver  # noqa: E402 - registration, cheap (no numpy)

set_name_resolver(_metric_id_for)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._audit import AuditReport as AuditReport, audit as audit
    from ._load import BIB_FILE as BIB_FILE, get_catalogue as get_catalogue, lower_is_better as lower_is_better
    from ._models import (
        Catalogue as Catalogue,
        MetricRecord as MetricRecord,
        PROPERTY_IDS as PROPERTY_IDS,
        PropertyClaim as PropertyClaim,
        PropertyStatus as PropertyStatus,
    )
    from ._names import metric_id_for as metric_id_for, metric_ids_for as metric_ids_for
    from ._render import (
        LONG as PROPERTY_NAMES,
        explain as explain,
        metrics_json as metrics_json,
        metrics_markdown as metrics_markdown,
    )
    from ._resolve import Resolution as Resolution, resolve_metric as resolve_metric
    from ._terminal import (
        explain_terminal as explain_terminal,
        group_metrics as group_metrics,
        metrics_table as metrics_table,
    )
