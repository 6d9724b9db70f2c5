"""How many distinct labels a label column holds — counted on the staged table before any work per label.

An id column taken for the labels by mistake (``true_col='id'``, a query returning the row key) turns every
row into its own class: the run then built a table of 10^7 classes for a minute and several gigabytes and
ended in a traceback or ``MemoryError`` (issue 25 item 9). The staged table (:mod:`advisor.io._stage`)
holds the distinct rows of the one read, so one aggregate over it (DuckDB's HyperLogLog
``approx_count_distinct``, exact ``count(DISTINCT …)`` only to word a refusal) says how many labels a
column holds before any label is typed, indexed or counted by Python. A column is refused when

* it holds more than :data:`MAX_CLASSES` distinct labels (advisor's stated maximum: 100,000 classes and
  10^6 items evaluate in about a second, see ``benchmarks/README.md``), or
* it holds more than :data:`ID_MIN` labels and at least :data:`ID_SHARE` of its rows have a label of their
  own — almost one class per row is an id, not a label (a task with 100,000 classes over 10^6 items has a
  tenth).

The sentence names the input, the column, the count and the way around (the option naming the label
columns of that kind of input).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._exceptions import InputError, arg
from ._duck import Source, duck_error

__all__ = ["ID_MIN", "ID_SHARE", "MAX_CLASSES", "check_label_columns", "check_labels"]

#: The most distinct labels a column may hold.
MAX_CLASSES = 1_000_000
#: Below this many distinct labels a column is never taken for an id column (a small test set may have a
#: class per item).
ID_MIN = 1_000
#: Share of the rows with a label of their own from which a column with more than :data:`ID_MIN` labels is
#: taken for an id column.
ID_SHARE = 0.9


def _way_around(fmt: str) -> str:
    if fmt == "sql":
        return f"return the class labels as y_true and y_pred from the {arg('sql')} query"
    if fmt == "table":
        return "name the label columns with y_true= and systems= (or y_pred=)"
    return f"name the label columns with {arg('true_col')} and {arg('pred_col')}"


def check_label_columns(con: Any, src: Source, columns: Sequence[str], present: str = "1",
                        rows_are_items: bool = True) -> None:
    """Refuse, in one sentence, a label column of ``src`` with too many distinct labels (module docstring).

    ``present``: SQL that is NULL on the staged rows this input lacks. ``rows_are_items``: False for a count
    table, whose rows are cells, not items (only the maximum applies)."""
    cols = [c for c in dict.fromkeys(columns) if c in src.columns]
    check_labels(con, src.what, src.fmt, src.relation, {c: (src.col(c), src.label_sql(c)) for c in cols}, present,
                 rows_are_items)


def check_labels(con: Any, what: str, fmt: str, relation: str, columns: dict[str, tuple[str, str]],
                 present: str = "1", rows_are_items: bool = True) -> None:
    """:func:`check_label_columns` on SQL: ``columns`` maps a column's name to ``(its cell, its label)`` in
    ``relation`` (a staged table with ``"#n"``), e.g. the cells of CSV lines not yet split."""
    if not columns:
        return
    # the estimate counts the cells as stored (a label's trimming hardly changes how many there are)
    approx = ", ".join(f"approx_count_distinct({cell})" for cell, _ in columns.values())
    where = f"WHERE {present} IS NOT NULL"
    try:
        row = con.execute(f"SELECT sum(\"#n\"), count(*), {approx} FROM {relation} {where}").fetchone()
    except Exception as exc:  # noqa: BLE001 - a DuckDB error is one sentence naming the input
        raise duck_error(what, fmt, exc) from None
    rows, staged = int(row[0] or 0), int(row[1] or 0)
    for j, (col, (_, label)) in enumerate(columns.items()):
        estimate = int(row[2 + j] or 0)
        if not _too_many(estimate, rows, rows_are_items):
            continue
        if staged > _EXACT_ROWS and _too_many(int(estimate / _ESTIMATE_ERROR), rows, rows_are_items):
            # many staged rows and clearly beyond a limit: the estimate is said
            said = f"{what}: column {col!r} has about {_round(estimate):,} distinct values in {rows:,} rows"
        else:  # few staged rows, or near a limit: counted exactly
            exact = int(con.execute(f"SELECT count(DISTINCT {label}) FROM {relation} {where}").fetchone()[0])
            if not _too_many(exact, rows, rows_are_items):
                continue
            estimate = exact
            said = f"{what}: column {col!r} has {exact:,} distinct values in {rows:,} rows"
        way = _way_around(fmt)
        if rows_are_items and estimate > ID_MIN and estimate >= ID_SHARE * rows:
            raise InputError(f"{said} — almost one per row, so it is an id, not a class label; {way}.")
        raise InputError(f"{said}, more than the {MAX_CLASSES:,} classes advisor evaluates; if it is not the label "
                         f"column, {way}; if it is, merge rare classes into one.")


#: How far DuckDB's estimate of a distinct count may be off (HyperLogLog: about 1-2 %; 5 % allowed): an
#: estimate beyond a limit by more than this is beyond it for sure, and said as "about"; closer, the values are
#: counted exactly.
_ESTIMATE_ERROR = 1.05
#: Up to this many staged rows a refusal counts the labels exactly (a fraction of a second).
_EXACT_ROWS = 1_000_000


def _round(n: int) -> int:
    """An estimate to three significant digits (``about 9,990,000``)."""
    digits = max(len(str(n)) - 3, 0)
    return int(round(n, -digits))


def _too_many(distinct: int, rows: int, rows_are_items: bool) -> bool:
    return distinct > MAX_CLASSES or (rows_are_items and distinct > ID_MIN and distinct >= ID_SHARE * rows)
