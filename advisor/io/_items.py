"""Item arrays from the staged table — only where scores, ranks or structures need the items.

The staged table holds each distinct combination of the columns read once, with ``"#n"`` (how many
rows it stands for) and ``"#row"`` (the first of them). Ordered by ``"#row"`` and repeated ``"#n"``
times, its rows are the items in file order (rows that are identical in every column read keep the
place of the first). :func:`scored_of` gives a system's labels and scores (a ``score`` column or
``p_<label>`` columns) for ROC AUC, average precision, the binary Brier score and the ECE;
:func:`columns_of` gives the columns of an ordinal, multi-label, top-k or annotator file as Python
values, typed as a CSV reader types them (whole numbers, decimals, true/false, text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._exceptions import InputError
from ._duck import quote
from ._stage import FIRST, WEIGHT, StagedPart

__all__ = ["SCORES", "SCORE_COLUMN", "ScoredFile", "columns_of", "fetch_matrix", "probability_columns", "scored_of"]

SCORE_COLUMN = "score"


@dataclass
class ScoredFile:
    """One system's item-level outputs; ``proba`` columns follow ``proba_labels`` (label texts)."""

    y_true: list[str]
    y_pred: list[str] | None
    proba: np.ndarray | None
    proba_labels: list[str]
    score: np.ndarray | None
    # with --group: the group of each item (issue 20); keyword-only, so subclasses keep their positional fields
    group: list[str] | None = field(default=None, kw_only=True)
    # with subgroup columns (by=, issue 23): per column, the value of each item as text (the bias AUCs)
    by: dict[str, list[str]] | None = field(default=None, kw_only=True)
_PROBA = re.compile(r"^(?:p|proba)_(.+)$")


def probability_columns(columns: Sequence[str]) -> list[tuple[str, str]]:
    """``[(label text, column), …]`` of the ``p_<label>``/``proba_<label>`` columns."""
    return [(m.group(1).strip(), c) for c in columns if (m := _PROBA.match(c))]


def _fetch(con: Any, sp: StagedPart, select: list[str], order_id: str | None = None) -> dict[str, np.ndarray]:
    """The selected expressions per item (file order), each staged row repeated ``"#n"`` times."""
    where = f"{sp.present} IS NOT NULL"
    res = con.execute(f"SELECT {', '.join(select)}, {WEIGHT} AS n_, {FIRST} AS r_ FROM {sp.source().relation} "
                      f"WHERE {where} ORDER BY r_").fetchnumpy()
    reps = np.asarray(res.pop("n_"), dtype=np.int64)
    res["r_"] = np.asarray(res["r_"], dtype=np.int64)
    return {k: np.repeat(_plain(v), reps) for k, v in res.items()}


def fetch_matrix(con: Any, sp: StagedPart, pack: str, k: int) -> np.ndarray:
    """The packed score columns ``pack`` (a ``DOUBLE[]`` of ``k`` per row) as an items × ``k`` array in file order,
    each staged row repeated ``"#n"`` times (NULL, an empty cell or a non-number, as NaN): one ``unnest``, so
    20,000 columns come back as one vector, not as 20,000 columns."""
    res = con.execute(f"SELECT unnest(v_) AS v FROM (SELECT {pack} AS v_, {FIRST} AS r_ FROM {sp.source().relation} "
                      f"WHERE {sp.present} IS NOT NULL ORDER BY r_)").fetchnumpy()
    values = _plain(res["v"]).astype(np.float64, copy=False)
    reps = np.asarray(con.execute(f"SELECT {WEIGHT} FROM {sp.source().relation} WHERE {sp.present} IS NOT NULL "
                                  f"ORDER BY {FIRST}").fetchnumpy()[WEIGHT.strip('"')], dtype=np.int64)
    if values.size != reps.size * k:
        raise InputError(f"{sp.part.what}: a row has fewer score cells than the header names; every row needs one "
                         "per column.")
    matrix = values.reshape(reps.size, k)
    return matrix if np.all(reps == 1) else np.repeat(matrix, reps, axis=0)


def _plain(a: Any) -> np.ndarray:
    """A fetched column with its NULLs as None (object) or NaN (numbers)."""
    if np.ma.isMaskedArray(a):
        mask = np.ma.getmaskarray(a)
        if a.dtype.kind in "fiu":
            out = np.asarray(a.data, dtype=np.float64).copy()
            out[mask] = np.nan
            return out
        out = np.asarray(a.data, dtype=object).copy()
        out[mask] = None
        return out
    return np.asarray(a)


def scored_of(con: Any, sp: StagedPart, *, true_col: str = "y_true", pred_col: str = "y_pred",
              what: str | None = None, group_col: str | None = None, by_cols: tuple[str, ...] = ()) -> Any:
    """The :class:`~advisor.io._scores.ScoredFile` of one staged part, or None without score columns; ``by_cols``:
    the subgroup columns (``by=``) of the part read beside the scores, each item's value as text."""

    what = what or sp.part.what
    cols = list(sp.columns)
    pcols = probability_columns(cols)
    score = SCORE_COLUMN in cols
    if not (pcols or score):
        return None
    if pcols and score:
        raise InputError(f"{what} has both probability columns (p_<label>) and a {SCORE_COLUMN!r} column; keep one.")
    src = sp.source()
    if true_col not in cols:
        raise InputError(f"{what} has no column {true_col!r}; its columns are {', '.join(map(repr, cols))}.")
    numbers = [c for _, c in pcols] + ([SCORE_COLUMN] if score else [])
    select = [f"{src.label_sql(true_col)} AS t_"] + ([f"{src.label_sql(pred_col)} AS p_"] if pred_col in cols else [])
    pack = src.pack(numbers)
    if pack is None:
        select += [f"{src.number_sql(c)} AS {quote('x' + str(j))}" for j, c in enumerate(numbers)]
    if group_col and group_col in cols:
        select.append(f"{src.label_sql(group_col)} AS g_")
    by_here = [c for c in by_cols if c in cols]
    select += [f"{src.label_sql(c)} AS {quote('b' + str(j) + '_')}" for j, c in enumerate(by_here)]
    got = _fetch(con, sp, select)
    rows = got["r_"]
    y = got["t_"]
    empty = np.array([v is None or v == "" for v in y], dtype=bool)
    if empty.any():
        raise InputError(f"{what} row {int(rows[np.argmax(empty)])}: {true_col} is empty; every item needs a true label.")
    if score and len(set(y.tolist())) > 2:
        raise InputError(f"{what} has a {SCORE_COLUMN!r} column but {len(set(y.tolist()))} classes in {true_col}; a "
                         "single score needs a binary task — give one probability column p_<label> per class instead.")
    if pack is not None:
        data = fetch_matrix(con, sp, pack, len(numbers))
    else:
        data = np.empty((len(y), len(numbers)))
        for j in range(len(numbers)):
            data[:, j] = np.asarray(got[f"x{j}"], dtype=np.float64)
    bad = ~np.isfinite(data)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raw = con.execute(f"SELECT {src.raw_sql(numbers[j])} FROM {src.relation} WHERE {FIRST} = {int(rows[i])} "
                          f"AND {sp.present} IS NOT NULL").fetchone()
        text = None if raw is None or raw[0] is None else str(raw[0]).strip()
        if text and text.lower() not in ("null", "nan", "-nan", "inf", "-inf", "infinity", "-infinity") \
                and not _FLOAT.match(text):
            raise InputError(f"{what} row {int(rows[i])}: {numbers[j]} is {text!r}, not a number.")
        raise InputError(f"{what} row {int(rows[i])}: column {numbers[j]!r} is missing or not a finite "
                         "number (NaN); every item needs one.")
    pred = [str(v) for v in got["p_"]] if "p_" in got else None
    return ScoredFile([str(v) for v in y], pred, data if pcols else None, [lab for lab, _ in pcols],
                      data[:, 0] if score else None, group=[str(v) for v in got["g_"]] if "g_" in got else None,
                      by={c: [str(v) for v in got[f"b{j}_"]] for j, c in enumerate(by_here)} or None)


_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|nan)$", re.IGNORECASE)


def _typed_texts(values: np.ndarray) -> list[Any]:
    """CSV cells typed as a CSV reader would: whole numbers, then decimals, then true/false, else text."""
    seen = [v for v in set(values.tolist()) if v is not None and str(v).strip() != ""]
    stripped = [str(v).strip() for v in seen]
    if stripped and all(_INT.match(v) for v in stripped):
        conv: Any = lambda v: int(str(v).strip())  # noqa: E731
    elif stripped and all(_FLOAT.match(v) for v in stripped):
        conv = lambda v: float(str(v).strip())  # noqa: E731
    elif stripped and all(v.lower() in ("true", "false") for v in stripped):
        conv = lambda v: str(v).strip().lower() == "true"  # noqa: E731
    else:
        conv = lambda v: v  # noqa: E731
    table = {v: conv(v) for v in seen}
    return [None if v is None or (isinstance(v, str) and v.strip() == "") else table[v] for v in values.tolist()]


def _json_values(values: np.ndarray) -> list[Any]:
    table: dict[Any, Any] = {}
    out: list[Any] = []
    for v in values.tolist():
        if v is None:
            out.append(None)
            continue
        if v not in table:
            table[v] = json.loads(v)
        out.append(table[v])
    return out


#: The key of :func:`columns_of` under which the packed score columns come: ``(names, items × k array)``.
SCORES = "#scores"


def columns_of(con: Any, sp: StagedPart) -> dict[str, Any]:
    """Every column read from one part, one value per item in file order (None for an empty cell); the packed
    score columns (``p_``/``proba_``/``score_<label>``) as one array under :data:`SCORES`."""
    packed = [c for c in sp.columns if c in sp.elements]
    cols = [c for c in sp.columns if not c.startswith("#") and c not in sp.elements]
    select = [f"CAST({quote(sp.columns[c])} AS VARCHAR) AS {quote('c' + str(j))}" if sp.types[c] in ("JSON", "VARCHAR")
              else f"{quote(sp.columns[c])} AS {quote('c' + str(j))}" for j, c in enumerate(cols)]
    if not select and not packed:
        return {}
    got = _fetch(con, sp, select or ["NULL AS c_"])
    out: dict[str, Any] = {"#rows": got["r_"].tolist()}  # the row messages name (see _structures.ROWS)
    if packed:
        pack = sp.source().pack(packed)
        assert pack is not None
        out[SCORES] = (packed, fetch_matrix(con, sp, pack, len(packed)))
    for j, c in enumerate(cols):
        v = got[f"c{j}"]
        t = sp.types[c]
        if t == "JSON":
            out[c] = _json_values(v)
        elif t == "VARCHAR" and sp.part.fmt in ("csv", "tsv"):
            out[c] = _typed_texts(v)
        else:
            out[c] = [None if isinstance(x, float) and np.isnan(x) else x for x in v.tolist()]
    return out
