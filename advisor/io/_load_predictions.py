"""The prediction inputs of a run (files, a query or a table): staged once, then counted, scored, structured."""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path
from typing import Any

from .._exceptions import InputError, arg
from ._csv_lines import Reparse, unpack_lines
from ._dataset import Dataset
from ._items import SCORE_COLUMN, probability_columns, scored_of
from ._duck import table_format
from ._groups import check_groups
from ._load_common import frame_columns, part_info, system_columns
from ._load_structured import structured_inputs
from ._open import Part, file_part, frame_part, sql_part
from ._predset import _probability_columns, prediction_set
from ._scan import Side, scan
from ._stage import LinesFailed, Staged, StagedPart, _re_escape, role_regex, stage, unpack_json
from ._structures import detect_structure

__all__ = ["load_predictions"]


def load_predictions(con: Any, ds: Dataset, paths: list[Path], names: list[str], *, frame: Any, sql: str | None,
                     true_col: str | None, pred_col: str | None, id_col: str | None, systems: Any, labels: Any,
                     proba_cols: Any, order: Any, label_sep: str | None, top_k: int | None,
                     structure: str | None, group_col: str | None = None, by_cols: tuple[str, ...] = (),
                     reject_label: str | None = None) -> None:
    """Stage the prediction inputs and fill ``ds`` (counts, paired items, scores, or structured inputs);
    ``group_col``: the column of the first input naming each item's group (issue 20); ``by_cols``: its
    subgroup columns (``by=``, issue 23)."""
    tc, pc = true_col or "y_true", pred_col or "y_pred"
    frame_sys: list[str] = []
    if frame is not None:
        cols = frame_columns(frame)
        if tc not in cols and structure in (None, "nominal") and not any(c.startswith("rater_") for c in cols):
            raise InputError(f"the DataFrame has no column {tc!r} ({arg('true_col')}); its columns are "
                             f"{', '.join(map(repr, cols[:30]))}.")
        frame_sys = [] if tc not in cols else system_columns(cols, tc, systems, "the DataFrame")
        missing = [c for c in frame_sys if c not in cols]
        if missing:
            raise InputError(f"the DataFrame has no column {missing[0]!r} ({arg('systems')}); its columns are "
                             f"{', '.join(map(repr, cols[:30]))}.")
        parts: list[Part] = [frame_part(con, frame)]
        regexes: list[str | None] = [role_regex([tc, *frame_sys, "id", SCORE_COLUMN, *([group_col] if group_col else []),
                                                *by_cols])]
    elif sql is not None:
        parts, regexes = [sql_part(sql)], [None]
    else:
        wanted = [tc, pc, SCORE_COLUMN, *([id_col] if id_col and len(paths) > 1 else []), *([group_col] if group_col else []),
                  *by_cols]
        regexes = [role_regex(wanted) for _ in paths]
        staged = _stage_files(con, paths, regexes, tc, pc)
        parts = [sp.part for sp in staged.parts]
    if frame is not None or sql is not None:
        staged = stage(con, parts, regexes)
    unpack_json(con, staged, regexes)
    for sp in staged.parts:
        _check_duplicates(sp, (tc, pc))
    kind = _structure_kind(staged, order, label_sep, top_k, structure, tc, pc)
    if group_col and group_col not in staged.parts[0].columns:
        raise _missing(staged.parts[0], group_col, "group")
    for col in by_cols:
        if col not in staged.parts[0].columns:
            raise _missing(staged.parts[0], col, "by")
    if kind is not None and by_cols:
        raise InputError(f"{arg('by', by_cols[0])} evaluates subgroups of label predictions; the "
                         f"{kind.replace('_', '-')} inputs here have no per-subgroup evaluation, so leave {arg('by')} out.")
    if kind is not None and kind != "multilabel" and group_col:
        raise InputError(f"{arg('group')} resamples groups of items for label predictions; the "
                         f"{kind.replace('_', '-')} inputs here are resampled item by item, so leave {arg('group')} out.")
    if kind is not None:
        ds.structured = structured_inputs(con, staged, kind, names, frame=frame, order=order, label_sep=label_sep,
                                          top_k=top_k, true_col=true_col, pred_col=pred_col, group_col=group_col)
        ds.sources = [part_info(sp, "predictions", sql) for sp in staged.parts]
        return
    if frame is not None or sql is not None:
        sp = staged.parts[0]
        what = sp.part.what
        sys_cols = frame_sys or system_columns(list(sp.columns), tc, systems, what)
        owners = _nominal(con, ds, staged, [(sp, tc, c, c) for c in sys_cols], labels, proba_cols, None, group_col,
                          by_cols, reject_label)
    else:
        entries = [(sp, tc, pc, name) for sp, name in zip(staged.parts, names)]
        use_id = bool(id_col) and len(entries) > 1 and all(id_col in sp.columns for sp in staged.parts)
        owners = _nominal(con, ds, staged, entries, labels, proba_cols, id_col if use_id else None, group_col,
                          by_cols, reject_label)
    ds.sources = [part_info(sp, "predictions", sql) for sp in staged.parts]
    for info, sp in zip(ds.sources, staged.parts):
        info.systems = [n for n, p in owners.items() if p is sp.part]


def _stage_files(con: Any, paths: list[Path], regexes: list[str | None], tc: str, pc: str) -> Staged:
    """Stage the files: CSV/TSV files (when every file is one) as lines, checked and split afterwards
    (:mod:`advisor.io._csv_lines`); otherwise, or when the lines cannot be trusted, by DuckDB's readers."""
    if all(table_format(p) in ("csv", "tsv") for p in paths):
        try:
            staged = stage(con, [file_part(con, p, lines=True) for p in paths], regexes)
            unpack_lines(con, staged, regexes, (tc, pc))
            return staged
        except (Reparse, LinesFailed):  # a lost or multi-line record: read again by the CSV parser, with a
            pass                         # buffer no line of these files exceeds
    parts = [file_part(con, p) for p in paths]
    dups = [f"^((?:{_re_escape(tc)}|{_re_escape(pc)})_[0-9]+|#pad)$" if p.fmt in ("csv", "tsv") else None
            for p in parts]
    return stage(con, parts, regexes, dups)


def _check_duplicates(sp: StagedPart, wanted: tuple[str, ...]) -> None:
    """A label column named twice (DuckDB reads the second as ``<name>_1``): confirmed from the header."""
    for name in wanted:
        if not any(d.startswith(f"{name}_") for d in sp.duplicated) or name not in sp.columns:
            continue
        header = _header(sp.part)
        if header.count(name) > 1:
            raise InputError(f"{sp.part.what} has {header.count(name)} columns named {name!r}; rename all but one so "
                             "it is clear which to read.")


def _header(part: Part) -> list[str]:
    """The header line of a CSV/TSV file, read again (only to confirm a repeated column name)."""
    assert part.path is not None
    opener = gzip.open if part.compression == "gzip" else open
    try:
        with opener(part.path, "rb") as fh:
            line = io.TextIOWrapper(fh, encoding="utf-8-sig", newline="").readline()
    except (OSError, UnicodeDecodeError):
        return []
    return [c.strip() for c in next(csv.reader([line], delimiter="," if part.fmt == "csv" else "\t"), [])]


def _structure_kind(staged: Staged, order: Any, label_sep: str | None, top_k: int | None, structure: str | None,
                    tc: str, pc: str) -> str | None:
    if structure == "nominal":  # the caller reads label columns only
        return None
    if structure is not None and structure != "ordinal_default":
        return structure
    kinds = {detect_structure(list(sp.columns), order=order, label_sep=label_sep, top_k=top_k) for sp in staged.parts}
    if kinds == {None}:
        return "ordinal" if structure == "ordinal_default" else None
    if len(kinds) > 1:
        raise InputError("the inputs hold different kinds of data (e.g. one with rater_ columns, one without); "
                         "give files of one kind.")
    return kinds.pop()


def _nominal(con: Any, ds: Dataset, staged: Staged, entries: list[tuple[StagedPart, str, str, str]], labels: Any,
             proba_cols: Any, id_col: str | None, group_col: str | None = None,
             by_cols: tuple[str, ...] = (), reject_label: str | None = None) -> dict[str, Part]:
    """Counts, paired items, probability sums and item-level scores of nominal predictions."""
    sides, names, owners = [], [], {}
    single = len({id(sp) for sp, *_ in entries}) == 1 and len(entries) > 1  # several columns of one table
    for sp, tc, pc, name in entries:
        src = sp.source()
        if tc not in sp.columns:
            raise _missing(sp, tc)
        has_scores = bool(probability_columns(list(sp.columns))) or SCORE_COLUMN in sp.columns
        if pc not in sp.columns:
            if has_scores and not single:
                ds.score_only.append(name)
                ds.scores[name] = scored_of(con, sp, true_col=tc, pred_col=pc, group_col=group_col,
                                         by_cols=by_cols)
                owners[name] = sp.part
                continue
            raise _missing(sp, pc)
        proba = [] if single else _probability_columns(src, proba_cols)
        sides.append(Side(src, tc, pc, proba, isinstance(proba_cols, str) and proba_cols == "auto", sp.present))
        names.append(name)
        owners[name] = sp.part
        if not single and has_scores and proba_cols is not None:
            ds.scores[name] = scored_of(con, sp, true_col=tc, pred_col=pc, group_col=group_col,
                                         by_cols=by_cols)
    if not sides:
        if by_cols:
            raise InputError(f"{arg('by', by_cols[0])} evaluates subgroups of predicted labels; these inputs have "
                             f"scores but no y_pred column, so add the predicted labels or leave {arg('by')} out.")
        return owners
    counted = scan(con, sides, labels=labels, id_col=id_col, group_col=group_col, by_cols=by_cols)
    files = {n: Path(sp.part.path) for (sp, *_), n in zip(entries, names) if sp.part.path is not None}
    ps = prediction_set(counted, names, [s.source.what for s in sides], files=files, reject_label=reject_label)
    if group_col:
        ps.group_col = group_col
        check_groups(ps, sides[0].source.what)
    for col, (_, values) in ps.by.items():
        if len(values) < 2:
            raise InputError(f"{arg('by', col)}: every item of {sides[0].source.what} has the same value ({values[0]!r}), so "
                             "there are no subgroups to compare; give a column with at least two values.")
    ds.predictions = ps
    ds.systems.update(ps.systems)
    ds.probabilities.update(ps.probabilities)
    ds.notes.extend(ps.notes)
    if id_col and ds.scores:
        _align_scores_by_id(con, ds, staged, entries, id_col)
    return owners


def _missing(sp: StagedPart, col: str, option: str | None = None) -> InputError:
    """A missing column (named by the argument ``option``), with the columns the input has (its header is read
    again on this error path)."""
    cols = list(sp.columns)
    if sp.part.kind == "file" and sp.part.fmt in ("csv", "tsv"):
        cols = _header(sp.part) or cols
    have = ", ".join(repr(c) for c in cols[:30] if not c.startswith("#")) or "none"
    named = f" ({arg(option)})" if option else ""
    return InputError(f"{sp.part.what} has no column {col!r}{named}; its columns are {have}.")


def _align_scores_by_id(con: Any, ds: Dataset, staged: Staged, entries: list, id_col: str) -> None:
    """Files matched by id list their items in their own order: put every system's scores in the first's."""
    import numpy as np

    orders = []
    for sp, *_ in entries:
        src = sp.source()
        res = con.execute(f"SELECT {src.label_sql(id_col)} AS i, \"#n\" AS n FROM {sp.table} WHERE {sp.present} IS "
                          f"NOT NULL ORDER BY \"#row\"").fetchall()
        orders.append([r[0] for r in res for _ in range(int(r[1]))])
    first = {v: k for k, v in enumerate(orders[0])}
    for (sp, tc, pc, name), ids in zip(entries, orders):
        f = ds.scores.get(name)
        if f is None or ids == orders[0]:
            continue
        perm = np.empty(len(ids), dtype=np.int64)
        for k, v in enumerate(ids):
            perm[first[v]] = k
        ds.scores[name] = type(f)([f.y_true[k] for k in perm], None if f.y_pred is None else [f.y_pred[k] for k in perm],
                                  None if f.proba is None else f.proba[perm], f.proba_labels,
                                  None if f.score is None else f.score[perm],
                                  group=None if f.group is None else [f.group[k] for k in perm],
                                  by=None if f.by is None else {c: [v[k] for k in perm] for c, v in f.by.items()})

