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
    "AuditReport",
    "Catalogue",
    "MetricRecord",
    "PropertyClaim",
    "Resolution",
    "audit",
    "get_catalogue",
    "lower_is_better",
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
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


def _metric_id_for(name: str) -> str:
    from ._names import metric_id_for

    return metric_id_for(name)


# every function of the engine and stats that takes metric ids takes the catalogue's names too
from ..engine._names import set_name_resolver  # noqa: E402 - registration, cheap (no numpy)

set_name_resolver(_metric_id_for)


if TYPE_CHECKING:  # pragma: no cover
    from ._audit import AuditReport, audit
    from ._load import BIB_FILE, get_catalogue, lower_is_better
    from ._models import Catalogue, MetricRecord, PropertyClaim
    from ._resolve import Resolution, resolve_metric
