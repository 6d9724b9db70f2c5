"""Result mappings as records, pandas DataFrames and notebook HTML tables.

Shared by :class:`~advisor.engine.MetricResult` (metric values, or the per-class table of
:func:`~advisor.engine.per_class`) and :class:`~advisor.stats.BootstrapResult`; pandas is imported
only by :func:`to_frame`.

>>> from advisor.engine import ConfusionMatrix, per_class, compute_metrics
>>> cm = ConfusionMatrix([[5, 1], [2, 3]], ["neg", "pos"])
>>> records(per_class(cm))[1]["class"], records(per_class(cm))[1]["recall"]
('pos', 0.6)
>>> records(compute_metrics(cm, metrics=["accuracy"]))
[{'metric': 'accuracy', 'value': 0.7272727272727273}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._exceptions import InputError
from .._format import format_count, html_table

__all__ = ["records", "to_frame", "to_html"]

_COUNT_FIELDS = ("support", "predicted")


def _key_name(result: Mapping[str, Any]) -> str:
    """"class" for a per-class table (keyed by the matrix's labels), "metric" otherwise."""
    labels = tuple(getattr(result, "labels", ()) or ())
    return "class" if labels and tuple(result) == labels else "metric"


def _plain(value: Any) -> Any:
    return value.tolist() if hasattr(value, "tolist") else value


def records(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One dict per key: ``{"class": label, "support": …, "recall": …}`` for a per-class table,
    ``{"metric": id, "value": v}`` for metric values, ``{"metric": id, "estimate": …, "low": …,
    "high": …}`` for bootstrap intervals — what ``pandas.DataFrame(records)`` reads directly."""
    key = _key_name(result)
    out = []
    for k, v in result.items():
        if isinstance(v, Mapping):
            out.append({key: k, **{f: _plain(x) for f, x in v.items()}})
        else:
            out.append({key: k, "value": _plain(v)})
    return out


def to_frame(result: Mapping[str, Any]) -> Any:
    """A pandas DataFrame indexed by class label or metric id (pandas must be installed)."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError("to_frame() needs pandas (pip install pandas); records() gives the same rows as "
                         "dicts.") from None
    rows = records(result)
    key = _key_name(result)
    if not rows:
        return pd.DataFrame()
    return pd.DataFrame.from_records(rows).set_index(key)


def to_html(result: Mapping[str, Any], caption: str | None = None) -> str:
    """The records as an HTML table (for a notebook's ``_repr_html_``)."""
    if caption is None:
        caption = "per class" if _key_name(result) == "class" else "metrics"
        convention = getattr(result, "convention", None)
        caption += f" (undefined values: {convention})" if convention else ""
    rows = records(result)
    if not rows:
        return html_table([_key_name(result)], [], caption)
    columns = list(dict.fromkeys(c for r in rows for c in r))
    body = [[format_count(r.get(c)) if c in _COUNT_FIELDS else r.get(c) for c in columns] for r in rows]
    return html_table(columns, body, caption)


def evaluation_records(ev: Any) -> list[dict[str, Any]]:
    """One dict per metric of an :class:`~advisor.engine.Evaluation`: ``{"metric": id, <system>: value, …}``."""
    ids = list(dict.fromkeys(m for s in ev.systems for m in ev.metrics[s]))
    return [{"metric": m, **{s: _plain(ev.metrics[s].get(m)) for s in ev.systems}} for m in ids]


def evaluation_frame(ev: Any) -> Any:
    """A pandas DataFrame: a metric per row, a system per column (pandas must be installed)."""
    import pandas as pd

    rows = evaluation_records(ev)
    return pd.DataFrame.from_records(rows).set_index("metric") if rows else pd.DataFrame()


def evaluation_html(ev: Any) -> str:
    """The metrics of every system as an HTML table (a notebook's ``_repr_html_``)."""
    rows = [[r["metric"], *(r[s] for s in ev.systems)] for r in evaluation_records(ev)]
    caption = f"{format_count(ev.n)} items, {len(ev.labels)} classes (undefined values: {ev.convention})"
    return html_table(["metric", *ev.systems], rows, caption)
