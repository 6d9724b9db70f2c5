"""Counting in DuckDB: one ``GROUP BY`` over the staged table gives the joint table of every system.

The inputs of a run were read once into the staged table (:mod:`advisor.io._stage`), side by side by
row order; when every file has an ``id`` column they are matched by ``id`` instead (a full outer join of
the staged rows, so missing and extra ids are counted). One query groups by (true label, prediction)
of every system and also sums, per group, the probability scores (log loss and Brier terms, with
:mod:`advisor.engine._probabilities`' clipping and renormalisation) and the number of invalid
probability rows — each staged row weighted by the number of input rows it stands for. Every check
is then made on that small table (missing labels, different lengths, different truths, invalid
probabilities); when one fails, the staged table — not the file — gives the first offending row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._exceptions import InputError, arg
from .._format import few_names
from ..engine import (
    LOG_LOSS_EPS,
    RENORMALISE_TOLERANCE,
    SUM_TOLERANCE,
    ConfusionMatrix,
    Label,
    ProbabilityAccumulator,
    normalise_labels,
)
from ._duck import MAX_LABEL_CHARS, Source, _literal, duck_error, quote
from ._label_limits import check_label_columns

__all__ = ["CANONICAL_TEST", "Scan", "Side", "matrix_from_cells", "rows_text", "scan", "type_labels"]

#: Largest k for which a dense k×k matrix is built (until the engine takes sparse cells).
DENSE_LIMIT = 10_000


def rows_text(n: int) -> str:
    return f"{n} row" if n == 1 else f"{n} rows"


def CANONICAL_TEST(s: str) -> bool:  # noqa: N802 - kept callable like the old regex' fullmatch
    """A canonical decimal integer: ``0``, ``17``, ``-3`` (not ``01``, ``+1``, ``1.0``)."""
    body = s[1:] if s.startswith("-") else s
    return body.isascii() and body.isdigit() and (body == "0" or not body.startswith("0")) and s != "-0"


def type_labels(texts: Sequence[str]) -> list[Label]:
    """All canonical integers → ints, otherwise the strings as written; sorted."""
    typed: list[Label] = [int(s) for s in texts] if texts and all(CANONICAL_TEST(s) for s in texts) else list(texts)
    return sorted(typed, key=lambda x: (isinstance(x, str), x))


#: Smallest positive count accepted: below it float arithmetic on the counts loses its precision.
MIN_COUNT = 1e-9
#: Largest total accepted: above 2**53 float64 no longer counts exactly.
MAX_TOTAL = 2.0 ** 53


def count_range_problem(counts: np.ndarray) -> str | None:
    """Why ``counts`` (finite, ≥ 0) cannot be used, or None."""
    w = np.asarray(counts, dtype=np.float64)
    tiny = w[(w > 0) & (w < MIN_COUNT)]
    if tiny.size:
        return f"a count is {float(tiny[0]):g}; a positive count must be at least {MIN_COUNT:g} (rescale the weights)"
    with np.errstate(over="ignore"):  # counts near 1e308: the sum overflows; say so, without numpy's warning
        total = float(w.sum())
    if total > MAX_TOTAL:
        said = f"{total:.4g}" if np.isfinite(total) else "more than 1.8e308 (they overflow)"
        return (f"the counts sum to {said}, above 2**53 ≈ 9.0e15, where floating-point counting stops being exact; "
                "rescale them")
    return None


def matrix_from_cells(true_idx: np.ndarray, pred_idx: np.ndarray, counts: np.ndarray,
                      labels: Sequence[Label], what: str) -> ConfusionMatrix:
    """A confusion matrix from nonzero cells — the one place to switch to the sparse engine."""
    if hasattr(ConfusionMatrix, "from_cells"):  # the sparse engine
        return ConfusionMatrix.from_cells(true_idx, pred_idx, counts, tuple(labels))
    k = len(labels)
    if k > DENSE_LIMIT:
        raise InputError(f"{what} has {k:,} classes; this version builds a dense {k:,}×{k:,} table and is limited to "
                         f"{DENSE_LIMIT:,} classes (merge rare classes, or evaluate a subset of labels).")
    m = np.zeros((k, k))
    np.add.at(m, (np.asarray(true_idx, dtype=np.int64), np.asarray(pred_idx, dtype=np.int64)), counts)
    return ConfusionMatrix(m, tuple(labels))


@dataclass
class Side:
    """One system's input: a source, its label columns and its probability columns."""

    source: Source
    true_col: str
    pred_col: str
    proba: list[tuple[str, str]] = field(default_factory=list)  # (label text, column)
    auto: bool = True
    #: SQL that is NULL on the rows this system's input lacks (a shorter file)
    present: str = "1"


@dataclass
class Scan:
    labels: tuple[Label, ...]
    codes: np.ndarray  # (cells, 1 + m) indices into labels
    counts: np.ndarray
    n_items: int
    probabilities: list[dict[str, float] | None]
    renormalised: list[int]
    #: per system, the items whose true class got probability 0 (below log loss's clipping ε)
    zero: list[int] = field(default_factory=list)
    #: with a group column (issue 20): the group of each row of ``codes`` (index into ``group_labels``);
    #: a (true, predictions) combination found in several groups has one row per group
    groups: np.ndarray | None = None
    group_labels: tuple[Label, ...] = ()
    #: with subgroup columns (``by=``, issue 23): per column, the value of each row of ``codes`` (index into
    #: the column's values) and the values
    by: dict[str, tuple[np.ndarray, tuple[Label, ...]]] = field(default_factory=dict)


WEIGHT = '"#n"'
FIRST = '"#row"'


def _side_sql(i: int, side: Side) -> tuple[list[str], list[str], list[str]]:
    """The three nested select lists of system ``i``: its cells, its true-class probability, its terms."""
    src = side.source
    base = [f"{src.label_sql(side.true_col)} AS t{i}", f"{src.label_sql(side.pred_col)} AS p{i}",
            f"CASE WHEN {side.present} IS NOT NULL THEN 1 END AS h{i}"]
    if not side.proba:
        return base, [], [f"t{i}", f"p{i}", f"h{i}"]
    pack = src.pack([c for _, c in side.proba]) if len(side.proba) > 1 else None
    if pack is not None:  # the score columns as one list: one expression however many classes (see _stage)
        return _side_list_sql(i, side, pack, base)
    base += [f"{src.number_sql(c)} AS q{i}_{j}" for j, (_, c) in enumerate(side.proba)]
    if len(side.proba) == 1:  # a two-class task given as the probability of one label
        qs = [f"(1 - q{i}_0)", f"q{i}_0"]
        ptrue = f"CASE WHEN t{i} = {_literal(side.proba[0][0])} THEN q{i}_0 ELSE 1 - q{i}_0 END"
    else:
        qs = [f"q{i}_{j}" for j in range(len(side.proba))]
        ptrue = (f"CASE t{i} " + " ".join(f"WHEN {_literal(lab)} THEN q{i}_{j}" for j, (lab, _) in enumerate(side.proba))
                 + " END")
    ok = " AND ".join(f"isfinite({q}) AND {q} >= 0 AND {q} <= 1" for q in qs)
    total = "(" + " + ".join(qs) + ")"
    pt, sn = f"pt{i}", f"sn{i}"
    brier = " + ".join(f"({q} / {sn}) * ({q} / {sn})" for q in qs) + f" - 2 * {pt} / {sn} + 1"
    return base, *_terms(i, ptrue, total, ok, brier)


def list_ok(q: str) -> str:
    """SQL: every element of the ``DOUBLE[]`` ``q`` is a number in [0, 1] (NULL elements fail)."""
    return f"(list_count({q}) = len({q}) AND list_bool_and(list_transform({q}, lambda x: isfinite(x) AND x >= 0 AND x <= 1)))"


def _side_list_sql(i: int, side: Side, pack: str, base: list[str]) -> tuple[list[str], list[str], list[str]]:
    """:func:`_side_sql` for probabilities packed in one list ``q<i>``."""
    q, pt, sn = f"q{i}", f"pt{i}", f"sn{i}"
    base = [*base, f"{pack} AS {q}"]
    labels = "[" + ", ".join(_literal(lab) for lab, _ in side.proba) + "]"
    ptrue = f"{q}[list_position({labels}, t{i})]"
    brier = f"list_sum(list_transform({q}, lambda x: (x / {sn}) * (x / {sn}))) - 2 * {pt} / {sn} + 1"
    return base, *_terms(i, ptrue, f"list_sum({q})", list_ok(q), brier)


def _terms(i: int, ptrue: str, total: str, ok: str, brier: str) -> tuple[list[str], list[str]]:
    """The middle and outer select lists of a system with probabilities: the true class's probability and the
    sum, then the per-row terms (invalid, renormalised, log loss, Brier, zero probability)."""
    off = f"abs({total} - 1)"
    pt, sn = f"pt{i}", f"sn{i}"
    mid = [f"{ptrue} AS {pt}", f"CASE WHEN {off} > {SUM_TOLERANCE!r} THEN {total} ELSE 1.0 END AS {sn}"]
    out = [f"t{i}", f"p{i}", f"h{i}",
           f"CASE WHEN coalesce({ok} AND {off} <= {RENORMALISE_TOLERANCE!r}, false) THEN 0 ELSE 1 END AS bad{i}",
           f"CASE WHEN {off} > {SUM_TOLERANCE!r} THEN 1 ELSE 0 END AS ren{i}",
           f"-ln(greatest(least({pt} / {sn}, {1 - LOG_LOSS_EPS!r}), {LOG_LOSS_EPS!r})) AS ll{i}",
           f"{brier} AS br{i}",
           f"CASE WHEN {pt} / {sn} < {LOG_LOSS_EPS!r} THEN 1 ELSE 0 END AS z{i}"]
    return mid, out


def scan(con: Any, sides: Sequence[Side], *, labels: Sequence[Label] | None = None,
         id_col: str | None = None, group_col: str | None = None, by_cols: Sequence[str] = ()) -> Scan:
    """Count the joint table of ``sides`` (all on the same items, all in the staged table) with every check.

    ``id_col``: match the items by this column (every side has it) instead of by row order. ``group_col``:
    the first input's column saying which group (patient, document, query) each item belongs to; the
    table is then counted per group too, for resampling groups instead of items. ``by_cols``: the first
    input's subgroup columns (``by=``): the table is counted per subgroup value too.
    """
    m = len(sides)
    relation, weight = sides[0].source.relation, WEIGHT
    checked: set[tuple[str, str, str]] = set()
    for s in sides:  # an id column taken for the labels is refused before any work per label
        cols = [c for c in (s.true_col, s.pred_col) if (s.source.relation, s.present, c) not in checked]
        check_label_columns(con, s.source, cols, s.present)
        checked.update((s.source.relation, s.present, c) for c in cols)
    if id_col:
        for s in sides:
            _check_unique_ids(con, s, id_col)
        relation, sides, weight = _id_joined(con, sides, id_col)
    levels = [_side_sql(i, s) for i, s in enumerate(sides)]
    base = [c for b, _, _ in levels for c in b] + [f"{weight} AS w_"]
    mid = [c for _, md, _ in levels for c in md]
    out = [c for _, _, o in levels for c in o] + ["w_"]
    keys = [f"{c}{i}" for i in range(m) for c in ("t", "p", "h")]
    if group_col:
        base.append(f"{sides[0].source.label_sql(group_col)} AS g_")
        out.append("g_")
        keys.append("g_")
    for j, col in enumerate(by_cols):
        base.append(f"{sides[0].source.label_sql(col)} AS b{j}_")
        out.append(f"b{j}_")
        keys.append(f"b{j}_")
    aggs = ["sum(w_) AS n"] + [f"sum(w_ * {c}{i}) AS {c}{i}_" for i, s in enumerate(sides) if s.proba
                               for c in ("bad", "ren", "ll", "br", "z")]
    inner = f"SELECT {', '.join(base)} FROM {relation}"
    if mid:
        inner = f"SELECT *, {', '.join(mid)} FROM ({inner})"
    sql = f"SELECT {', '.join(keys)}, {', '.join(aggs)} FROM (SELECT {', '.join(out)} FROM ({inner})) GROUP BY ALL"
    try:
        res = con.execute(sql).fetchnumpy()
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - a DuckDB error is one sentence naming the input
        raise _first_error(sides, exc) from None
    n = np.asarray(res["n"], dtype=np.int64)
    if n.sum() == 0:
        src = sides[0].source
        raise InputError(f"{src.what} returned no rows." if src.fmt == "sql" else f"{src.what} has a header but no "
                         "data rows." if src.fmt in ("csv", "tsv") else f"{src.what} has no rows.")
    present = [~_isnull(res[f"h{i}"]) for i in range(m)]
    for i, s in enumerate(sides):
        for c, col in (("t", s.true_col), ("p", s.pred_col)):
            texts = _col(res, f"{c}{i}")[present[i]]
            bad = [j for j, x in enumerate(texts) if x is None or x == "" or len(x) > MAX_LABEL_CHARS]
            if bad:
                raise _bad_label(con, s.source, col)
    _check_alignment(con, sides, res, n, present, bool(id_col))
    groups = _groups(con, sides[0], res, present[0], group_col) if group_col else None
    by = {col: _groups(con, sides[0], res, present[0], col, f"b{j}_", "by") for j, col in enumerate(by_cols)}
    return _build(con, sides, res, n, labels, groups, by)


def _groups(con: Any, side: Side, res: dict[str, Any], present: np.ndarray, group_col: str, key: str = "g_",
            option: str = "group") -> np.ndarray:
    """The group text of every counted row; an empty group cell is one sentence naming its row."""
    g = _col(res, key)
    bad = present & np.array([x is None or x == "" or len(x) > MAX_LABEL_CHARS for x in g], dtype=bool)
    if bad.any():
        src = side.source
        row = _ordered(con, src, f"{src.label_sql(group_col)} AS g_",
                       f"g_ IS NULL OR g_ = '' OR length(g_) > {MAX_LABEL_CHARS}")
        where = f" row {row[0]}" if row else ""
        need = "its subgroup value" if option == "by" else "the group it belongs to"
        raise InputError(f"{src.what}{where}: the {group_col} cell ({arg(option)}) is empty or too long; with "
                         f"{arg(option)} every item needs {need}.")
    return g


def _id_joined(con: Any, sides: Sequence[Side], id_col: str) -> tuple[str, list[Side], str]:
    """The staged rows of each side matched by id (a full outer join) as a temporary table ``joined``."""
    subs, out = [], []
    for i, s in enumerate(sides):
        src = s.source
        cols = ", ".join(dict.fromkeys(quote(c) for c in src.physical.values()))
        if src.raw_list is not None:
            cols += f", {quote(src.raw_list)}"
        subs.append(f"s{i} AS (SELECT {cols}, {src.label_sql(id_col)} AS id{i}, {FIRST} AS \"#row{i}\" "
                    f"FROM {src.relation} WHERE {s.present} IS NOT NULL)")
    join = "s0" + "".join(
        f" FULL OUTER JOIN s{i} ON coalesce({', '.join(f's{j}.id{j}' for j in range(i))}) = s{i}.id{i}"
        if i > 1 else " FULL OUTER JOIN s1 ON s0.id0 = s1.id1" for i in range(1, len(sides)))
    con.execute(f"CREATE OR REPLACE TEMP TABLE joined AS WITH {', '.join(subs)} SELECT * FROM {join}")
    for i, s in enumerate(sides):
        src = s.source
        joined = Source(src.what, src.fmt, "joined", src.columns, src.types, src.physical, src.location,
                        src.elements, src.raw_list)
        out.append(Side(joined, s.true_col, s.pred_col, s.proba, s.auto, f'"#row{i}"'))
    return "joined", out, "1"


def _isnull(a: Any) -> np.ndarray:
    if np.ma.isMaskedArray(a):
        return np.ma.getmaskarray(a)
    a = np.asarray(a)
    return np.array([x is None for x in a], dtype=bool) if a.dtype == object else np.zeros(a.shape, dtype=bool)


def _col(res: dict[str, Any], name: str) -> np.ndarray:
    a = res[name]
    if np.ma.isMaskedArray(a):
        out = np.asarray(a.data, dtype=object).copy()
        out[np.ma.getmaskarray(a)] = None
        return out
    return np.asarray(a)


def _first_error(sides: Sequence[Side], exc: Exception) -> InputError:
    fmt = {"csv": "CSV", "tsv": "TSV", "jsonl": "JSON Lines", "parquet": "Parquet", "sql": "a query result",
           "table": "a table"}
    what = sides[0].source if len(sides) == 1 else next(
        (s.source for s in sides if s.source.what in str(exc)), sides[0].source)
    return duck_error(what.what, fmt.get(what.fmt, what.fmt), exc)


def _ordered(con: Any, source: Source, select: str, where: str) -> tuple[Any, ...] | None:
    """The first row (in input order) of ``source`` matching ``where``, as (row number, *select)."""
    try:
        return con.execute(f"SELECT * FROM (SELECT {FIRST} AS rn_, {select} FROM {source.relation}) "
                           f"WHERE {where} ORDER BY rn_ LIMIT 1").fetchone()
    except Exception as exc:  # noqa: BLE001
        raise duck_error(source.what, source.fmt, exc) from None


def _bad_label(con: Any, src: Source, col: str) -> InputError:
    lab = src.label_sql(col)
    row = _ordered(con, src, f"{src.raw_sql(col)} AS raw_, {lab} AS lab_",
                   f"lab_ IS NULL OR lab_ = '' OR length(lab_) > {MAX_LABEL_CHARS}")
    if row is None:  # pragma: no cover - the grouped table said there is one
        return InputError(f"{src.what}: a {col} label is missing; every row needs a label.")
    r, raw, text = row
    if text is not None and len(text) > MAX_LABEL_CHARS:
        return InputError(f"{src.what} row {r}: the {col} label is {len(text):,} characters long; "
                          f"labels may have at most {MAX_LABEL_CHARS:,}.")
    if raw is None or (text == "" and raw.strip() in ("", '""')) or raw in ("null",):
        return InputError(f"{src.what} row {r}: the {col} cell is empty; every row needs a label.")
    shown = raw if len(raw) <= 40 else raw[:40] + "…"
    low = raw.strip().lower()
    if low in ("nan", "-nan", "inf", "-inf", "infinity", "-infinity"):
        return InputError(f"{src.what} row {r}: {col} is {shown}, which is a missing value, not a label; "
                          "every row needs a label.")
    return InputError(f"{src.what} row {r}: {col} is {shown!r}, not an integer or a string label "
                      "(floats must be whole numbers of at most 2**53).")


def _check_unique_ids(con: Any, side: Side, id_col: str) -> None:
    src = side.source
    try:
        dup = con.execute(f"SELECT i, sum(w) FROM (SELECT {src.label_sql(id_col)} AS i, {WEIGHT} AS w FROM "
                          f"{src.relation} WHERE {side.present} IS NOT NULL) "
                          "GROUP BY i HAVING sum(w) > 1 OR i IS NULL OR i = '' LIMIT 1").fetchone()
    except Exception as exc:  # noqa: BLE001
        raise duck_error(src.what, src.fmt, exc) from None
    if dup is not None:
        if dup[0] is None or dup[0] == "":
            raise InputError(f"{src.what}: an {id_col} cell is empty; with several systems every row needs an id.")
        raise InputError(f"{src.what}: {id_col} {dup[0]!r} occurs {dup[1]} times; ids must be unique.")


def _check_alignment(con: Any, sides: Sequence[Side], res: dict[str, Any], n: np.ndarray,
                     present: list[np.ndarray], use_id: bool) -> None:
    """Same items in every system: same length (or the same ids), and the same true labels."""
    total = int(n.sum())
    sizes = [int(n[p].sum()) for p in present]
    first = sides[0].source.what
    if use_id:
        for i in range(1, len(sides)):
            missing = int(n[present[0] & ~present[i]].sum())
            extra = int(n[present[i] & ~present[0]].sum())
            if missing or extra:
                raise InputError(f"{sides[i].source.what} lacks {missing} of the ids in {first} and has {extra} ids "
                                 f"that {first} lacks; every system must predict the same items.")
    elif min(sizes) < total:
        short, long = int(np.argmin(sizes)), int(np.argmax(sizes))
        raise InputError(f"{sides[short].source.what} has {rows_text(sizes[short])} but {sides[long].source.what} "
                         "has more; every system file must list the same items in the same order.")
    t0 = _col(res, "t0")
    for i in range(1, len(sides)):
        if np.any(_col(res, f"t{i}") != t0):
            raise _truth_mismatch(con, sides, i, use_id)


def _truth_mismatch(con: Any, sides: Sequence[Side], i: int, use_id: bool) -> InputError:
    a, b = sides[0], sides[i]
    col = b.true_col
    ta, tb = a.source.label_sql(a.true_col), b.source.label_sql(col)
    if use_id:
        row = con.execute(f"SELECT * FROM (SELECT id0 AS i, {ta} AS x, {tb} AS y FROM joined) WHERE x <> y "
                          "ORDER BY i LIMIT 1").fetchone()
        return InputError(f"{b.source.what} id {row[0]!r}: {col} is {row[2]!r} but {a.source.what} has {row[1]!r}; "
                          "the systems must be evaluated on the same items.")
    row = con.execute(f"SELECT * FROM (SELECT {FIRST} AS rn_, {ta} AS x, {tb} AS y FROM {a.source.relation}) "
                      "WHERE x <> y ORDER BY rn_ LIMIT 1").fetchone()
    return InputError(f"{b.source.what} row {row[0]}: {col} is {row[2]!r} but {a.source.what} has {row[1]!r}; "
                      "system files must list the same items in the same order.")


def _build(con: Any, sides: Sequence[Side], res: dict[str, Any], n: np.ndarray,
           labels: Sequence[Label] | None, groups: np.ndarray | None = None,
           by: dict[str, np.ndarray] | None = None) -> Scan:
    m = len(sides)
    cols = [_col(res, "t0")] + [_col(res, f"p{i}") for i in range(m)]
    texts = sorted({str(x) for c in cols for x in c})
    if labels is not None:
        fixed = normalise_labels(labels)
        keys = [str(lab) for lab in fixed]
        if len(set(keys)) != len(keys):
            dup = next(lab for lab in fixed if keys.count(str(lab)) > 1)
            raise InputError(f"labels must be unique; {dup!r} is repeated.")
        unknown = set(texts) - set(keys)
        if unknown:
            raise _outside(con, sides, unknown, fixed)
        final: tuple[Label, ...] = tuple(fixed)
    else:
        final = tuple(type_labels(texts))
    index = {str(lab): j for j, lab in enumerate(final)}
    codes = np.empty((len(n), 1 + m), dtype=np.int64)
    for j, c in enumerate(cols):
        # object dtype: numpy's fixed-width str would drop trailing NUL characters of a label
        uniq, inv = np.unique(np.array([str(x) for x in c], dtype=object), return_inverse=True)
        codes[:, j] = np.array([index[u] for u in uniq], dtype=np.int64)[inv.reshape(-1)]
    counts = n.astype(np.float64)
    probas: list[dict[str, float] | None] = []
    renorm: list[int] = []
    zero: list[int] = []
    for i, s in enumerate(sides):
        if not s.proba:
            probas.append(None)
            renorm.append(0)
            zero.append(0)
            continue
        _check_probabilities(con, s, res, i, final)
        total = float(n.sum())
        # math.fsum is correctly rounded, so the mean does not depend on the order DuckDB returns the groups in
        probas.append({"log_loss": math.fsum(_col(res, f"ll{i}_").astype(float).tolist()) / total,
                       "brier": math.fsum(_col(res, f"br{i}_").astype(float).tolist()) / total})
        renorm.append(int(np.sum(_col(res, f"ren{i}_").astype(float))))
        zero.append(int(np.sum(_col(res, f"z{i}_").astype(float))))
    group_labels: tuple[Label, ...] = ()
    if groups is not None:  # one row per (combination, group): the group bootstrap draws groups
        texts_g = [str(x) for x in groups]
        group_labels = tuple(type_labels(sorted(set(texts_g))))
        gindex = {str(g): j for j, g in enumerate(group_labels)}
        codes = np.column_stack([codes, np.array([gindex[t] for t in texts_g], dtype=np.int64)])
    by_labels: dict[str, tuple[Label, ...]] = {}
    for col, values in (by or {}).items():  # one row per (combination, group, subgroup values) too
        texts_b = [str(x) for x in values]
        by_labels[col] = tuple(type_labels(sorted(set(texts_b))))
        bindex = {str(v): j for j, v in enumerate(by_labels[col])}
        codes = np.column_stack([codes, np.array([bindex[t] for t in texts_b], dtype=np.int64)])
    # merge groups that differ only in columns not kept (h, and t_i equal to t_0)
    key_codes, inv = np.unique(codes, axis=0, return_inverse=True)
    merged = np.bincount(inv.reshape(-1), weights=counts, minlength=key_codes.shape[0])
    nb = len(by_labels)
    by_out = {col: (key_codes[:, key_codes.shape[1] - nb + j], labs) for j, (col, labs) in enumerate(by_labels.items())}
    key_codes = key_codes[:, :key_codes.shape[1] - nb]
    if groups is None:
        return Scan(final, key_codes, merged, int(n.sum()), probas, renorm, zero, by=by_out)
    return Scan(final, key_codes[:, :-1], merged, int(n.sum()), probas, renorm, zero, groups=key_codes[:, -1],
                group_labels=group_labels, by=by_out)


def _outside(con: Any, sides: Sequence[Side], unknown: set[str], fixed: Sequence[Label]) -> InputError:
    inlist = ", ".join(_literal(u) for u in sorted(unknown))
    for s in sides:
        for col in (s.true_col, s.pred_col):
            row = _ordered(con, s.source, f"{s.source.label_sql(col)} AS lab_", f"lab_ IN ({inlist})")
            if row is not None:
                return InputError(f"{s.source.what} row {row[0]}: {col} {row[1]!r} is not one of labels={list(fixed)!r}.")
    return InputError(f"a label is not one of labels={list(fixed)!r}.")  # pragma: no cover


def _check_probabilities(con: Any, s: Side, res: dict[str, Any], i: int, final: tuple[Label, ...]) -> None:
    src = s.source
    have = {lab for lab, _ in s.proba}
    if len(s.proba) == 1:
        if len(final) > 2:
            raise InputError(f"{src.what} has one probability column ({s.proba[0][1]!r}) but more than two classes "
                             "occur; give one p_<label> column per class.")
    else:
        truths = {str(x) for x in _col(res, f"t{i}") if x is not None}
        lacking = sorted(truths - have)
        if lacking:
            row = _ordered(con, src, f"{src.label_sql(s.true_col)} AS lab_", f"lab_ = {_literal(lacking[0])}")
            r = row[0] if row else "?"
            found = few_names([c for _, c in s.proba])
            raise InputError(f"{src.what} row {r}: label {lacking[0]!r} has no probability column (found {found}).")
    if float(np.sum(_col(res, f"bad{i}_").astype(float))) == 0:
        return
    names = [c for _, c in s.proba]
    pack = src.pack(names) if len(names) > 1 else None
    if pack is not None:  # one list expression, however many classes
        where = f"NOT coalesce({list_ok('q_')} AND abs(list_sum(q_) - 1) <= {RENORMALISE_TOLERANCE!r}, false)"
        bad = _ordered(con, src, f"{pack} AS q_, {src.pack_raw(names)} AS r_", where)
        if bad is None:  # pragma: no cover
            raise InputError(f"{src.what} has an invalid probability row.")
        _invalid_row(src, s, bad[0], list(bad[1]), list(bad[2]))
    select = ", ".join([f"{src.number_sql(c)} AS q{j}" for j, (_, c) in enumerate(s.proba)]
                       + [f"{src.raw_sql(c)} AS r{j}" for j, (_, c) in enumerate(s.proba)])
    qs = [f"q{j}" for j in range(len(s.proba))]
    if len(qs) == 1:
        qs = ["(1 - q0)", "q0"]
    ok = " AND ".join(f"isfinite({q}) AND {q} >= 0 AND {q} <= 1" for q in qs)
    where = f"NOT coalesce({ok} AND abs(({' + '.join(qs)}) - 1) <= {RENORMALISE_TOLERANCE!r}, false)"
    row = _ordered(con, src, select, where)
    if row is None:  # pragma: no cover
        raise InputError(f"{src.what} has an invalid probability row.")
    k = len(s.proba)
    _invalid_row(src, s, row[0], list(row[1:1 + k]), list(row[1 + k:]))


def _invalid_row(src: Source, s: Side, r: int, values: list[Any], raws: list[Any]) -> None:
    """Raise the one sentence that says what is wrong with probability row ``r`` (its values and cells)."""
    for (_, c), v, raw in zip(s.proba, values, raws):
        if v is None and raw is not None and raw.strip() not in ("", "null"):
            raise InputError(f"{src.what} row {r}: {c} is {raw.strip()!r}, not a number.")
    p = np.array([[np.nan if v is None else float(v) for v in values]])
    if len(values) == 1:
        p = np.column_stack([1.0 - p[:, 0], p[:, 0]])
    problem = ProbabilityAccumulator(p.shape[1]).check(p)
    why = problem[1] if problem else "has an invalid probability"
    hint = " (columns named p_<label> or proba_<label> are read as class probabilities)" if s.auto else ""
    raise InputError(f"{src.what} row {r} {why}{hint}.")


def scan_counts(con: Any, src: Source, true_col: str, pred_col: str, count_col: str) -> tuple[tuple[Label, ...], np.ndarray, np.ndarray, np.ndarray]:
    """``(labels, true index, pred index, counts)`` of a ``true, pred, count`` table (repeated pairs summed)."""
    src.require([true_col, pred_col, count_col])
    check_label_columns(con, src, [true_col, pred_col], rows_are_items=False)
    w = src.number_sql(count_col)
    sql = (f"SELECT t, p, sum(w * n) AS w, sum(n) FILTER (WHERE w IS NULL OR NOT isfinite(w) OR w < 0) AS bad, "
           f"max(length(t)) AS lt, max(length(p)) AS lp FROM (SELECT {src.label_sql(true_col)} AS t, "
           f"{src.label_sql(pred_col)} AS p, {w} AS w, {WEIGHT} AS n FROM {src.relation}) GROUP BY ALL")
    try:
        res = con.execute(sql).fetchnumpy()
    except Exception as exc:  # noqa: BLE001
        raise _first_error([Side(src, true_col, pred_col)], exc) from None
    if len(res["t"]) == 0:
        raise InputError(f"{src.what} has a header but no data rows.")
    for c, col in (("t", true_col), ("p", pred_col)):
        if any(x is None or x == "" or len(x) > MAX_LABEL_CHARS for x in _col(res, c)):
            raise _bad_label(con, src, col)
    if np.sum(np.asarray(res["bad"], dtype=np.int64)) > 0:
        row = _ordered(con, src, f"{w} AS w_, {src.raw_sql(count_col)} AS raw_",
                       "w_ IS NULL OR NOT isfinite(w_) OR w_ < 0")
        assert row is not None  # the scan counted such a row
        r, v, raw = row
        if v is None and raw is not None and raw.strip() not in ("", "null"):
            raise InputError(f"{src.what} row {r}: {count_col} is {raw.strip()!r}, not a number.")
        what = "empty" if v is None else f"{v:g}"
        raise InputError(f"{src.what} row {r}: {count_col} is {what}; counts must be finite numbers ≥ 0.")
    t, p = [str(x) for x in _col(res, "t")], [str(x) for x in _col(res, "p")]
    labels = tuple(type_labels(sorted(set(t) | set(p))))
    index = {str(lab): j for j, lab in enumerate(labels)}
    ti = np.array([index[x] for x in t], dtype=np.int64)
    pi = np.array([index[x] for x in p], dtype=np.int64)
    return labels, ti, pi, np.asarray(res["w"], dtype=np.float64)
