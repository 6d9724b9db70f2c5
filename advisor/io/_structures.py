"""Reading ordinal, multi-label, top-k and annotator files (issue 12) into the engine's inputs.

A file (CSV, TSV, JSON Lines, Parquet — read once by :func:`advisor.load`, which hands the columns
here) or a table in memory (a pandas DataFrame or a mapping of column → values) is one system; which structure it holds is decided by its
columns and the options:

* ``rater_<name>`` columns — an agreement study (one file; one row per item; empty cells are missing
  ratings); ``order`` fixes the category order for the ordinal alpha;
* ``true_<label>`` / ``pred_<label>`` 0/1 columns, or ``label_sep`` given — multi-label: ``y_true`` and
  ``y_pred`` hold label sets such as ``a|b|c`` (an empty cell is the empty set); ``true_<label>`` 0/1 columns with
  a score column per label (``p_<label>``, ``proba_<label>`` or ``score_<label>``: probabilities in [0, 1]) are
  multi-label predictions with scores — each label given when its score is at least the threshold (0.5 unless
  one is given), or as its ``pred_<label>`` column says when there is one;
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

from .._exceptions import InputError, arg
from .._format import few_names
from ..engine import (
    LABEL_CUT,
    LabelSets,
    OrdinalCells,
    class_values,
    label_sets,
    ordinal_cells,
    ordinal_ranks,
    ratings_table,
    scored_label_sets,
)
from ._items import SCORES

__all__ = ["StructuredInputs", "detect_structure", "read_columns", "structured_from_tables", "with_groups"]

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
    taxonomy: dict[str, Any] | None = None  # hierarchy: file, root, depth, classes_per_level
    rows: Any = None  # partition: the PartitionRows a resampling draws (paired items, groups), None for tables alone
    groups: np.ndarray | None = None  # multi-label with a group column: the group index of each item (resampled)
    group_col: str | None = None
    n_groups: int = 0


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
    >>> detect_structure(["true_a", "p_a", "true_b", "p_b"])
    'multilabel'
    
    """
    cols = set(columns)
    if any(c.startswith("rater_") for c in cols):
        return "agreement"
    trues, preds = _indicator_columns(cols)
    if label_sep is not None or (trues and (preds or any(_SCORE.match(str(c)) for c in cols))):
        return "multilabel"
    if top_k is not None:
        return "top_k"
    if order is not None:
        return "ordinal"
    return None


#: Key of a table's item row numbers, when its items are not its rows in order (files read by advisor.load
#: come grouped: identical rows are placed at the first of them, which is the row messages name).
ROWS = "#rows"


def _row(cols: dict[str, list[Any]], i: int) -> int:
    """The file row of item ``i`` (counted from 1 without the header)."""
    rows = cols.get(ROWS)
    return int(rows[i]) if rows is not None else i + 1


def _label(v: Any) -> Any:
    """A cell as a label: None for empty, integral floats as ints, other values as they are."""
    if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip()):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v.strip() if isinstance(v, str) else v


def _labels(cols: dict[str, list[Any]], col: str, name: str) -> list[Any]:
    if col not in cols:
        have = few_names([c for c in cols if not c.startswith("#")] + list(cols.get(SCORES, ((),))[0])) or "none"
        raise InputError(f"{name}: no column {col!r}; columns are {have}.")
    out = [_label(v) for v in cols[col]]
    empty = next((i for i, v in enumerate(out) if v is None), None)
    if empty is not None:
        raise InputError(f"{name}: row {_row(cols, empty)} has an empty {col}; every item needs a class here "
                         "(only multi-label sets may be empty).")
    return out


def _numeric_order(values: list[Any], name: str) -> list[Any]:
    uniq = sorted(set(values), key=str)
    try:
        return sorted(uniq, key=float)
    except (TypeError, ValueError):
        raise InputError(f"{name}: ordinal labels {', '.join(map(str, uniq[:4]))} are not numbers, so their order is "
                         f"unknown; give it with {arg('order')}, the classes lowest first (or classes in the answers).") from None


def _ordinal(cols: dict[str, list[Any]], name: str, order: Sequence[Any] | None, tc: str, pc: str,
             declared: bool = True) -> Any:
    t, p = _labels(cols, tc, name), _labels(cols, pc, name)
    return ordinal_cells(y_true=t, y_pred=p, order=list(order) if order is not None else _numeric_order(t + p, name),
                         declared=declared and order is not None)


def _indicator_columns(columns: Any) -> tuple[dict[str, str], dict[str, str]]:
    """``({label: true_<label> column}, {label: pred_<label> column})`` among ``columns``."""
    trues = {str(c)[5:]: str(c) for c in columns if str(c).startswith("true_")}
    preds = {str(c)[5:]: str(c) for c in columns if str(c).startswith("pred_")}
    return trues, preds


def _score_columns(cols: dict[str, Any], name: str) -> dict[str, np.ndarray]:
    """``{label: scores}`` of the ``p_``/``proba_``/``score_<label>`` columns (packed by the file reader, or one
    column each); a cell that is empty or not a number is refused, naming its row."""
    out: dict[str, np.ndarray] = {}
    if SCORES in cols:
        names, matrix = cols[SCORES]
        for j, c in enumerate(names):
            if (m := _SCORE.match(str(c))) is not None:
                out[m.group(1)] = np.asarray(matrix[:, j], dtype=np.float64)
                bad = np.flatnonzero(~np.isfinite(out[m.group(1)]))
                if bad.size:
                    raise InputError(f"{name}: row {_row(cols, int(bad[0]))}: {c!r} is empty or not a number; every "
                                     "label of every item needs a score.")
    for c in cols:
        if c.startswith("#") or (m := _SCORE.match(str(c))) is None:
            continue
        vals = []
        for i, v in enumerate(cols[c]):
            try:
                x = float(v)
            except (TypeError, ValueError):
                x = float("nan")
            if not np.isfinite(x):
                raise InputError(f"{name}: row {_row(cols, i)}: {c!r} holds {v!r}, not a number; every label of every "
                                 "item needs a score.")
            vals.append(x)
        out[m.group(1)] = np.asarray(vals, dtype=np.float64)
    return out


def _indicators(cols: dict[str, list[Any]], name: str, tc: str, pc: str, notes: list[str],
                threshold: float | None = None) -> Any:
    """Label sets from ``true_<label>`` / ``pred_<label>`` 0/1 columns. A label with only a ``true_`` column is
    one the system never predicts (all 0); with only a ``pred_`` column, one that is never true — both kept,
    and said in ``notes``. A ``y_true``/``y_pred`` column beside them is refused: which one holds the truth
    (or the prediction) would be a guess."""
    trues, preds = _indicator_columns(cols)
    stray = [c for c in (tc, pc) if c in cols]
    if stray:
        raise InputError(f"{name}: has true_<label> / pred_<label> 0/1 columns and also {' and '.join(map(repr, stray))}, "
                         "so which columns hold the labels is ambiguous; keep one form (drop or rename "
                         f"{' and '.join(map(repr, stray))}, or the true_/pred_ columns).")
    if "" in trues or "" in preds:
        raise InputError(f"{name}: column {'true_' if '' in trues else 'pred_'!r} names no label; write true_<label>.")
    if not trues:
        raise InputError(f"{name}: pred_<label> columns but no true_<label> column, so there is no truth to "
                         "compare with; add a true_<label> 0/1 column per label.")
    scores = _score_columns(cols, name)
    if scores:
        return _scored(cols, name, trues, preds, scores, threshold, notes)
    labels = sorted(set(trues) | set(preds))
    n = len(next(iter(cols.values())))

    def bits(c: str | None) -> list[float]:
        if c is None:
            return [0.0] * n
        vals = [_label(v) for v in cols[c]]
        bad = next((i for i, v in enumerate(vals) if v not in (0, 1, True, False)), None)
        if bad is not None:
            raise InputError(f"{name}: column {c!r} row {_row(cols, bad)} holds {cols[c][bad]!r}; label columns hold "
                             "0 or 1.")
        return [float(v) for v in vals]

    never_pred = [lab for lab in labels if lab not in preds]
    never_true = [lab for lab in labels if lab not in trues]
    if never_pred:
        notes.append(f"{name}: no pred_ column for {few_names(never_pred)}: taken as never predicted (all 0).")
    if never_true:
        notes.append(f"{name}: no true_ column for {few_names(never_true)}: taken as never true (all 0).")
    return label_sets(np.array([bits(trues.get(lab)) for lab in labels]).T,
                      np.array([bits(preds.get(lab)) for lab in labels]).T, labels)


def _bits(cols: dict[str, list[Any]], name: str, c: str) -> np.ndarray:
    vals = [_label(v) for v in cols[c]]
    bad = next((i for i, v in enumerate(vals) if v not in (0, 1, True, False)), None)
    if bad is not None:
        raise InputError(f"{name}: column {c!r} row {_row(cols, bad)} holds {cols[c][bad]!r}; label columns hold "
                         "0 or 1.")
    return np.asarray([float(v) for v in vals])


def _scored(cols: dict[str, Any], name: str, trues: dict[str, str], preds: dict[str, str],
            scores: dict[str, np.ndarray], threshold: float | None, notes: list[str]) -> Any:
    """Label sets with a score per label: every label needs its true_ and its score column; the labels given are
    the pred_ columns when there are any (each label's), else the labels scored at least the threshold."""
    labels = sorted(set(trues) | set(scores) | set(preds))
    no_score = [lab for lab in labels if lab not in scores]
    if no_score:
        raise InputError(f"{name}: label {no_score[0]!r} has no score column (p_{no_score[0]}); with scores, every "
                         "label needs one, beside its true_ column.")
    no_truth = [lab for lab in labels if lab not in trues]
    if no_truth:
        raise InputError(f"{name}: label {no_truth[0]!r} has a score but no true_{no_truth[0]} column, so there is no "
                         "truth to compare it with; add it (0 or 1 per item).")
    if preds and set(preds) != set(labels):
        lack = next(lab for lab in labels if lab not in preds)
        raise InputError(f"{name}: some labels have a pred_ column and {lack!r} has none; give every label's decision "
                         "(pred_<label>) or none, to take the labels scored at least the threshold.")
    y = np.column_stack([_bits(cols, name, trues[lab]) for lab in labels])
    s = np.column_stack([scores[lab] for lab in labels])
    if preds:
        base = label_sets(y, np.column_stack([_bits(cols, name, preds[lab]) for lab in labels]), labels)
        _probabilities(s, name, labels, cols)
        return LabelSets(base.y_true, base.y_pred, base.labels, s, None)
    _probabilities(s, name, labels, cols)
    return scored_label_sets(y, s, labels, threshold=LABEL_CUT if threshold is None else threshold)


def _probabilities(s: np.ndarray, name: str, labels: Sequence[Any], cols: dict[str, Any]) -> None:
    """Scores read as probabilities: each in [0, 1], or one sentence naming the first that is not."""
    bad = np.argwhere((s < 0) | (s > 1))
    if bad.size:
        i, j = bad[0]
        raise InputError(f"{name}: row {_row(cols, int(i))}: the score of label {labels[j]!r} is {s[i, j]:g}; label "
                         "scores are read as probabilities, between 0 and 1.")


def _multilabel(cols: dict[str, list[Any]], name: str, sep: str | None, tc: str, pc: str, notes: list[str],
                threshold: float | None = None) -> Any:
    trues, preds = _indicator_columns(cols)
    if trues or preds:  # 0/1 columns, also when a separator is given (the answers' default '|')
        return _indicators(cols, name, tc, pc, notes, threshold)
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


def _top_k(cols: dict[str, Any], name: str, tc: str) -> Any:
    if SCORES in cols:  # a file's score columns, packed (advisor.io._items.columns_of): one array
        names, matrix = cols[SCORES]
        scored = {m.group(1): j for j, c in enumerate(names) if (m := _SCORE.match(c))}
        labels = list(scored)
        scores = matrix if len(scored) == matrix.shape[1] else matrix[:, list(scored.values())]
        bad = np.argwhere(~np.isfinite(scores))
        if bad.size:
            i, j = bad[0]
            raise InputError(f"{name}: row {_row(cols, int(i))}: {names[list(scored.values())[j]]!r} is empty or not "
                             "a finite number; every class needs a score.")
    else:
        named = {m.group(1): c for c in cols if (m := _SCORE.match(c))}
        labels = list(named)
        try:
            scores = np.array([[float(v) for v in cols[named[lab]]] for lab in labels], dtype=float).T
        except (TypeError, ValueError):
            raise InputError(f"{name}: a score column holds a value that is not a number.") from None
    if len(labels) < 2:
        raise InputError(f"{name}: top-k accuracy needs one score column per class (p_<label> or score_<label>).")
    index = {str(lab): j for j, lab in enumerate(labels)}
    t = _labels(cols, tc, name)
    missing = next((v for v in t if str(v) not in index), None)
    if missing is not None:
        raise InputError(f"{name}: true class {missing!r} has no score column (p_{missing}).")
    return scores, np.array([index[str(v)] for v in t]), tuple(labels)


def _agreement(cols: dict[str, list[Any]], order: Sequence[Any] | None) -> Any:
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
        raise InputError(f"the ordered category columns declare different orders; give one with {arg('order')}, the "
                         "classes lowest first.")
    return orders[0]


def structured_from_tables(tables: Sequence[tuple[str, dict[str, list[Any]]]], *, order: Sequence[Any] | None = None,
                           label_sep: str | None = None, top_k: int | None = None, true_col: str | None = None,
                           pred_col: str | None = None, structure: str | None = None,
                           threshold: float | None = None) -> StructuredInputs | None:
    """The structured inputs of ``(name, {column: values})`` tables; None when they are nominal predictions.

    ``threshold``: multi-label scores give the labels scored at least this (0.5 when None)."""
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    if not tables:
        return None
    kinds = {structure or detect_structure([*c, *(c[SCORES][0] if SCORES in c else ())], order=order,
                                           label_sep=label_sep, top_k=top_k) for _, c in tables}
    if len(kinds) > 1:
        raise InputError("the inputs hold different kinds of data (e.g. one with rater_ columns, one without); "
                         "give files of one kind.")
    kind = kinds.pop()
    if kind is None:
        return None
    if kind == "agreement":
        if len(tables) > 1:
            raise InputError("an agreement study is one file with one rater_<name> column per annotator; "
                             f"got {len(tables)} files.")
        data = _agreement(tables[0][1], order)
        return StructuredInputs("agreement", {"agreement": data}, data.categories)
    systems: dict[str, Any] = {}
    items: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    notes: list[str] = []
    declared = order is not None
    if kind == "ordinal" and order is None and len(tables) > 1:  # one numeric order for every system
        order = _numeric_order([v for name, cols in tables for c in (tc, pc) for v in _labels(cols, c, name)],
                               "the files")
    for name, cols in tables:
        key = name if name not in systems else f"{name}_{len(systems) + 1}"
        if kind == "ordinal":
            systems[key] = _ordinal(cols, name, order, tc, pc, declared)
            items[key] = _ranks_of(cols, systems[key].labels, tc, pc)
        elif kind == "multilabel":
            systems[key] = _multilabel(cols, name, label_sep, tc, pc, notes, threshold)
        else:
            systems[key] = _top_k(cols, name, tc)
    if kind == "multilabel" and len(systems) > 1:
        systems = _same_labels(systems, notes)
    if len(systems) > 1:
        _same_truth(kind, systems, items, tables[0][1].get(ROWS))
    first = next(iter(systems.values()))
    labels = first[2] if kind == "top_k" else first.labels
    return StructuredInputs(kind, systems, tuple(labels), top_k, notes=notes, items=items or None)


def with_groups(inputs: StructuredInputs, values: Sequence[Any], column: str) -> StructuredInputs:
    """Multi-label inputs whose items are resampled in groups (a patient's radiographs): the group of each item,
    from the column ``column`` (one value per item, in the items' order)."""
    if inputs.structure != "multilabel":
        raise InputError(f"{arg('group')} resamples groups of items; {inputs.structure.replace('_', '-')} inputs are "
                         f"resampled item by item, so leave {arg('group')} out.")
    n = next(iter(inputs.systems.values())).y_true.shape[0]
    vals = ["" if v is None else str(v) for v in values]
    if len(vals) != n:
        raise InputError(f"the group column {column!r} has {len(vals)} values for {n} items.")
    empty = next((i for i, v in enumerate(vals) if not v.strip()), None)
    if empty is not None:
        raise InputError(f"row {empty + 1} has an empty {column!r}; every item needs its group.")
    uniq, idx = np.unique(np.asarray(vals), return_inverse=True)
    if uniq.shape[0] < 2:
        raise InputError(f"every item is in one group of {column!r}; resampling groups needs at least two.")
    inputs.groups, inputs.group_col, inputs.n_groups = idx.astype(np.intp), column, int(uniq.shape[0])
    return inputs


def _same_labels(systems: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """Every system's label sets over the union of all labels: a label a file does not hold is never
    predicted (nor true) there — kept, said in ``notes`` — rather than dropped from the other systems."""
    union = sorted({str(x) for d in systems.values() for x in d.labels})
    out = {}
    for name, d in systems.items():
        have = {str(x): j for j, x in enumerate(d.labels)}
        lacking = [lab for lab in union if lab not in have]
        if not lacking:
            out[name] = d if list(map(str, d.labels)) == union else d.columns([have[x] for x in union])
            continue
        if d.scores is not None:
            raise InputError(f"{name}: holds no label {few_names(lacking)}, which other inputs hold; with scores, every "
                             "system needs a score column for every label.")
        notes.append(f"{name}: holds no label {few_names(lacking)}, which other inputs hold: taken as never "
                     "predicted (all 0).")
        n = d.y_true.shape[0]

        def widen(a: np.ndarray) -> np.ndarray:
            return np.stack([a[:, have[x]] if x in have else np.zeros(n, dtype=bool) for x in union], axis=1)

        out[name] = LabelSets(widen(d.y_true), widen(d.y_pred), tuple(union))
    return out


def _truth_of(kind: str, data: Any, items: dict[str, tuple[np.ndarray, np.ndarray]], name: str) -> np.ndarray:
    if kind == "multilabel":
        return np.asarray(data.y_true)
    if kind == "ordinal":
        return np.asarray(items[name][0])
    return np.asarray(data[1])  # top-k: the true class of each item


def _same_truth(kind: str, systems: dict[str, Any], items: dict[str, tuple[np.ndarray, np.ndarray]],
                rows: Sequence[int] | None = None) -> None:
    """Several files are several systems on the same items: the same number of rows and the same truth."""
    names = list(systems)
    first = _truth_of(kind, systems[names[0]], items, names[0])
    for name in names[1:]:
        t = _truth_of(kind, systems[name], items, name)
        if t.shape[0] != first.shape[0]:
            raise InputError(f"{name} has {t.shape[0]} rows but {names[0]} has {first.shape[0]}; every system file "
                             "must list the same items in the same order.")
        if kind == "top_k" and tuple(map(str, systems[name][2])) != tuple(map(str, systems[names[0]][2])):
            raise InputError(f"{name} scores the classes {few_names(systems[name][2])} but {names[0]} scores "
                             f"{few_names(systems[names[0]][2])}; give every system the same score columns.")
        if kind == "ordinal" and tuple(map(str, systems[name].labels)) != tuple(map(str, systems[names[0]].labels)):
            raise InputError(f"{name} and {names[0]} have different class orders; give one with {arg('order')}.")
        diff = np.flatnonzero((t != first).reshape(t.shape[0], -1).any(axis=1))
        if diff.size:
            raise InputError(f"{name} row {rows[int(diff[0])] if rows else int(diff[0]) + 1}: the true labels differ "
                             f"from {names[0]}'s; every system "
                             "file must list the same items, with the same truth, in the same order.")


def _ranks_of(cols: dict[str, list[Any]], order: Sequence[Any], tc: str, pc: str) -> tuple[np.ndarray, np.ndarray]:
    index = {str(o): i for i, o in enumerate(order)}
    return (ordinal_ranks([_label(v) for v in cols[tc]], index, tc, list(order)),
            ordinal_ranks([_label(v) for v in cols[pc]], index, pc, list(order)))


def ordinal_from_tables(systems: Mapping[str, Any], order: Sequence[Any] | None) -> StructuredInputs:
    """Ordinal inputs from confusion matrices or ``true,pred,count`` tables (``--matrix`` / ``--counts``).

    Each matrix's classes are put in ``order``; a class with counts that is not in the order is an error.
    Without an order the classes must be numbers, ordered (and spaced) by their values.
    """
    declared = order is not None
    if order is None:
        order = _numeric_order([lab for cm in systems.values() for lab in cm.labels], "the matrices")
    values = class_values(order)
    index = {str(o): i for i, o in enumerate(order)}
    out: dict[str, Any] = {}
    for name, cm in systems.items():
        labels = [str(x) for x in cm.labels]
        counts = np.asarray(cm.counts, dtype=np.float64)
        used = counts.sum(0) + counts.sum(1) > 0
        bad = [lab for lab, u in zip(labels, used) if u and lab not in index]
        if bad:
            raise InputError(f"{name}: class {bad[0]!r} is not in the ordinal order {few_names(order)}; "
                             f"list every class in {arg('order')}.")
        rows, cols = np.nonzero(counts)
        pos = np.array([index.get(lab, -1) for lab in labels])
        out[name] = OrdinalCells(pos[rows], pos[cols], counts[rows, cols], tuple(order), values, declared)
    return StructuredInputs("ordinal", out, tuple(order))
