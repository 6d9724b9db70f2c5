"""``true, pred, count`` tables (``--counts``): staged once by one statement, summed by DuckDB."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ..engine._confusion import ConfusionMatrix
from ._dataset import SourceInfo
from ._open import file_part
from ._stage import role_regex, stage, unpack_json

__all__ = ["count_tables"]


def count_tables(con: Any, paths: list[Path], true_col: str, pred_col: str, count_col: str
                 ) -> list[tuple[ConfusionMatrix, SourceInfo]]:
    """One confusion matrix per count table, each file read once (each staged on its own: they are not paired)."""
    from ._load_common import part_info
    from ._scan import count_range_problem, matrix_from_cells, scan_counts

    out = []
    for k, path in enumerate(paths):
        regex = role_regex([true_col, pred_col, count_col], prefixes=False)
        staged = stage(con, [file_part(con, path)], [regex], table=f"counts{k}")
        unpack_json(con, staged, [regex])
        sp = staged.parts[0]
        src = sp.source()
        src.require([true_col, pred_col, count_col])
        labels, ti, pi, w = scan_counts(con, src, true_col, pred_col, count_col)
        problem = count_range_problem(w)
        if problem:
            raise InputError(f"{path}: {problem}.")
        if w.sum() <= 0:
            raise InputError(f"{path}: every count is zero; there is nothing to evaluate.")
        if len(labels) < 2:
            raise InputError(f"{path}: only one class ({labels[0]!r}) occurs; metrics need at least two.")
        out.append((matrix_from_cells(ti, pi, w, labels, str(path)), part_info(sp, "counts")))
    return out
