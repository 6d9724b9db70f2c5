"""Reading ordinal, multi-label, top-k and annotator files (issue 12) into the engine's inputs.

A file (CSV, TSV, JSON Lines, Parquet — read once by :func:`advisor.load`, which hands the columns
here) or a table in memory (a pandas DataFrame or a mapping of column → values) is one system; which structure it holds is decided by its
columns and the options:

* ``rater_<name>`` columns — an agreement study (one file; one row per item; empty cells are missing
  ratings); ``order`` fixes the category order for the ordinal alpha;
* ``true_<label>`` / ``pred_<label>`` 0/1 columns, or ``label_sep`` given — multi-label: ``y_true`` and
  ``y_pred`` hold label sets such as ``a|b|c`` (an empty cell is the empty set);
* ``top_k`` given — top-k: ``y_true`` and one score column ``p_<label>`` or ``score_<label>`` per class;
* ``order`` given, or ``ordinal=True`` with numeric labels — ordinal: ``y_true``/``y_pred`` on that order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names

__all__ = ["StructuredInputs", "detect_structure", "read_columns", "structured_from_tables"]

_SCORE = re.compile(r"^(?:p|proba|score)_(.+)$")
_FORMATS = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
            ".parquet": "parquet", ".pq": "parquet"}


@dataclass
class StructuredInputs:
    """One structure, and per system the engine input (OrdinalCells, LabelSets, (scores, y, labels), Ratings)."""

    structure: str
    systems: dict[str, Any]
    labels: tuple[Any, ...]
    top_k: int | None = None
    notes: list[str] = field(default_factory=list)
    items: dict[str, tuple[np.ndarray, np.ndarray]] | None = None  # ordinal: (true, predicted) ranks per item


def read_columns(source: Any) -> tuple[str, dict[str, list[Any]]]:
    """``(name, {column: values})`` of a pandas DataFrame or a mapping of columns (files: :func:`advisor.load`)."""
    if isinstance(source, (str, Path)):
        raise InputError("files are read by advisor.load (load_structured passes them on); read_columns takes a "
                         "DataFrame or a mapping of column name to values.")
    if hasattr(source, "to_dict") and hasattr(source, "columns"):
        return "system", {str(c): list(source[c]) for c in source.columns}
    if isinstance(source, Mapping):
        return "system", {str(k): list(v) for k, v in source.items()}
    raise InputError("an input must be a file path, a pandas DataFrame or a mapping of column name to values.")


def detect_structure(columns: Sequence[str], *, order: Sequence[Any] | None = None, label_sep: str | None = None,
                     top_k: int | None = None) -> str | None:
    """The structure a table's columns and the options ask for; None for a nominal prediction file.

    >>> detect_structure(["rater_ann", "rater_bob"]), detect_structure(["y_true", "y_pred"], order=[1, 2])
    ('agreement', 'ordinal')
    >>> detect_structure(["true_a", "pred_a", "true_b", "pred_b"]), detect_structure(["y_true", "y_pred"]) is None
    ('multilabel', True)
    """
    cols = set(columns)
    if any(c.startswith("rater_") for c in cols):
        return "agreement"
    pairs = [c[5:] for c in cols if c.startswith("true_") and f"pred_{c[5:]}" in cols]
    if label_sep is not None or pairs:
        return "multilabel"
    if top_k is not None:
        return "top_k"
    if order is not None:
        return "ordinal"
    return None


def _label(v: Any) -> Any:
    """A cell as a label: None for empty, integral floats as ints, other values as they are."""
    if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v.strip() if isinstance(v, str) else v


def _labels(cols: dict[str, list[Any]], col: str, name: str) -> list[Any]:
    if col not in cols:
        raise InputError(f"{name}: no column {col!r}; columns are {', '.join(cols) or 'none'}.")
    out = [_label(v) for v in cols[col]]
    empty = next((i for i, v in enumerate(out) if v is None), None)
    if empty is not None:
        raise InputError(f"{name}: row {empty + 1} has an empty {col}; every item needs a class here "
                         "(only multi-label sets may be empty).")
    return out


def _numeric_order(values: list[Any], name: str) -> list[Any]:
    uniq = sorted(set(values), key=str)
    try:
        return sorted(uniq, key=float)
    except (TypeError, ValueError):
        raise InputError(f"{name}: ordinal labels {', '.join(map(str, uniq[:4]))} are not numbers, so their order is "
                         "unknown; give it with --order A,B,C (or classes in the answers).") from None


def _ordinal(cols: dict[str, list[Any]], name: str, order: Sequence[Any] | None, tc: str, pc: str) -> Any:
    from ..engine._ordinal import ordinal_cells

    t, p = _labels(cols, tc, name), _labels(cols, pc, name)
    return ordinal_cells(y_true=t, y_pred=p, order=list(order) if order is not None else _numeric_order(t + p, name))


def _multilabel(cols: dict[str, list[Any]], name: str, sep: str | None, tc: str, pc: str) -> Any:
    from ..engine._multilabel import label_sets

    pairs = sorted(c[5:] for c in cols if c.startswith("true_") and f"pred_{c[5:]}" in cols)
    if pairs and sep is None:
        def bits(c: str) -> list[float]:
            vals = [_label(v) for v in cols[c]]
            bad = next((i for i, v in enumerate(vals) if v not in (0, 1, True, False)), None)
            if bad is not None:
                raise InputError(f"{name}: column {c!r} row {bad + 1} holds {cols[c][bad]!r}; label columns hold 0 or 1.")
            return [float(v) for v in vals]

        return label_sets(np.array([bits(f"true_{lab}") for lab in pairs]).T,
                          np.array([bits(f"pred_{lab}") for lab in pairs]).T, pairs)
    sep = sep or "|"
    if tc not in cols or pc not in cols:
        raise InputError(f"{name}: a multi-label file needs {tc!r} and {pc!r} label-set columns (e.g. 'a{sep}b') "
                         "or true_<label> / pred_<label> 0/1 columns.")

    def split(v: Any) -> set[str]:
        v = _label(v)
        return set() if v is None else {s.strip() for s in str(v).split(sep) if s.strip()}

    t, p = [split(v) for v in cols[tc]], [split(v) for v in cols[pc]]
    labs = sorted(set().union(*t, *p))
    if not labs:
        raise InputError(f"{name}: every label set is empty, so there is no label to evaluate.")
    idx = {lab: j for j, lab in enumerate(labs)}
    y, q = np.zeros((len(t), len(labs))), np.zeros((len(p), len(labs)))
    for i, (a, b) in enumerate(zip(t, p)):
        y[i, [idx[x] for x in a]] = 1.0
        q[i, [idx[x] for x in b]] = 1.0
    return label_sets(y, q, labs)


def _top_k(cols: dict[str, list[Any]], name: str, tc: str) -> Any:
    scored = {m.group(1): c for c in cols if (m := _SCORE.match(c))}
    if len(scored) < 2:
        raise InputError(f"{name}: top-k accuracy needs one score column per class (p_<label> or score_<label>).")
    labels = list(scored)
    try:
        scores = np.array([[float(v) for v in cols[scored[lab]]] for lab in labels], dtype=float).T
    except (TypeError, ValueError):
        raise InputError(f"{name}: a score column holds a value that is not a number.") from None
    index = {str(lab): j for j, lab in enumerate(labels)}
    t = _labels(cols, tc, name)
    missing = next((v for v in t if str(v) not in index), None)
    if missing is not None:
        raise InputError(f"{name}: true class {missing!r} has no score column (p_{missing}).")
    return scores, np.array([index[str(v)] for v in t]), tuple(labels)


def _agreement(cols: dict[str, list[Any]], order: Sequence[Any] | None) -> Any:
    from ..engine._agreement import ratings_table

    raters = [c for c in cols if c.startswith("rater_")]
    if len(raters) < 2:
        raise InputError(f"an agreement study needs at least two rater_<name> columns; got {len(raters)}.")
    rows = list(zip(*(cols[r] for r in raters)))
    return ratings_table(rows, raters, list(order) if order is not None else None)


def declared_order(source: Any, columns: Sequence[str] = ("y_true", "y_pred")) -> list[Any] | None:
    """The category order a table declares itself, or None: an ordered pandas Categorical, or an ordered
    dictionary column of a Parquet file (what pandas writes for one), among ``columns`` and ``rater_*``.

    >>> import pandas as pd
    >>> kind = pd.CategoricalDtype(["low", "mid", "high"], ordered=True)
    >>> declared_order(pd.DataFrame({"rater_a": pd.Series(["high", "low"], dtype=kind)}))
    ['low', 'mid', 'high']
    """
    wanted = lambda c: c in columns or str(c).startswith("rater_")  # noqa: E731
    orders: list[list[Any]] = []
    if hasattr(source, "dtypes") and hasattr(source, "columns"):
        for c in source.columns:
            dt = source[c].dtype
            if wanted(str(c)) and getattr(dt, "ordered", False):
                orders.append(list(dt.categories))
    elif isinstance(source, (str, Path)) and _FORMATS.get(Path(source).suffix.lower()) == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            schema = pq.read_schema(source)
            cols = [f.name for f in schema if wanted(f.name) and pa.types.is_dictionary(f.type) and f.type.ordered]
            if cols:
                table = pq.read_table(source, columns=cols)
                orders = [table.column(c).combine_chunks().dictionary.to_pylist() for c in cols]
        except (OSError, ValueError):
            return None  # the reader says what is wrong with the file
    if not orders:
        return None
    if any(o != orders[0] for o in orders):
        raise InputError("the ordered category columns declare different orders; give one with --order A,B,C.")
    return orders[0]


def structured_from_tables(tables: Sequence[tuple[str, dict[str, list[Any]]]], *, order: Sequence[Any] | None = None,
                           label_sep: str | None = None, top_k: int | None = None, true_col: str | None = None,
                           pred_col: str | None = None, structure: str | None = None) -> StructuredInputs | None:
    """The structured inputs of ``(name, {column: values})`` tables; None when they are nominal predictions."""
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    if not tables:
        return None
    kinds = {structure or detect_structure(list(c), order=order, label_sep=label_sep, top_k=top_k) for _, c in tables}
    if kinds == {None}:
        return None
    if len(kinds) > 1:
        raise InputError("the inputs hold different kinds of data (e.g. one with rater_ columns, one without); "
                         "give files of one kind.")
    kind = kinds.pop()
    if kind == "agreement":
        if len(tables) > 1:
            raise InputError("an agreement study is one file with one rater_<name> column per annotator; "
                             f"got {len(tables)} files.")
        data = _agreement(tables[0][1], order)
        return StructuredInputs("agreement", {"agreement": data}, data.categories)
    systems: dict[str, Any] = {}
    items: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for name, cols in tables:
        key = name if name not in systems else f"{name}_{len(systems) + 1}"
        if kind == "ordinal":
            systems[key] = _ordinal(cols, name, order, tc, pc)
            items[key] = _ranks_of(cols, systems[key].labels, tc, pc)
        elif kind == "multilabel":
            systems[key] = _multilabel(cols, name, label_sep, tc, pc)
        else:
            systems[key] = _top_k(cols, name, tc)
    first = next(iter(systems.values()))
    labels = first[2] if kind == "top_k" else first.labels
    return StructuredInputs(kind, systems, tuple(labels), top_k, items=items or None)


def _ranks_of(cols: dict[str, list[Any]], order: Sequence[Any], tc: str, pc: str) -> tuple[np.ndarray, np.ndarray]:
    from ..engine._ordinal import _ranks

    index = {str(o): i for i, o in enumerate(order)}
    return (_ranks([_label(v) for v in cols[tc]], index, tc, list(order)),
            _ranks([_label(v) for v in cols[pc]], index, pc, list(order)))


def ordinal_from_tables(systems: Mapping[str, Any], order: Sequence[Any]) -> StructuredInputs:
    """Ordinal inputs from confusion matrices or ``true,pred,count`` tables (``--matrix`` / ``--counts``).

    Each matrix's classes are put in ``order``; a class with counts that is not in the order is an error.
    """
    from ..engine._ordinal import OrdinalCells

    index = {str(o): i for i, o in enumerate(order)}
    out: dict[str, Any] = {}
    for name, cm in systems.items():
        labels = [str(x) for x in cm.labels]
        counts = np.asarray(cm.counts, dtype=np.float64)
        used = counts.sum(0) + counts.sum(1) > 0
        bad = [lab for lab, u in zip(labels, used) if u and lab not in index]
        if bad:
            raise InputError(f"{name}: class {bad[0]!r} is not in the ordinal order {few_names(order)}; "
                             "list every class in --order.")
        rows, cols = np.nonzero(counts)
        pos = np.array([index.get(lab, -1) for lab in labels])
        out[name] = OrdinalCells(pos[rows], pos[cols], counts[rows, cols], tuple(order))
    return StructuredInputs("ordinal", out, tuple(order))
