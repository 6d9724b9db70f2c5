"""The same items in another row order give the same paired intervals for the same seed: the joint
table's cells come in one canonical order, whatever order the file (or DuckDB's threads) grouped them in."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import advisor

DIGITS = Path(__file__).resolve().parents[1] / "examples" / "digits"


def _shuffled(src: Path, dst: Path, seed: int) -> Path:
    with src.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    random.Random(seed).shuffle(body)
    with dst.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([header, *body])
    return dst


def test_row_order_does_not_move_the_intervals(tmp_path: Path) -> None:
    # both systems' files shuffled with the same permutation: the same items, paired as before
    files = [DIGITS / "logreg.csv", DIGITS / "tree.csv"]
    shuffled = [_shuffled(f, tmp_path / f.name, seed=3) for f in files]
    runs = []
    for paths in (files, shuffled):
        ps = advisor.read_predictions(paths)
        cmp = advisor.compare_joint(ps.joint, n_resamples=300, seed=11, metrics=["balanced_accuracy", "mcc"])
        runs.append(cmp.to_dict())
    assert runs[0] == runs[1]
