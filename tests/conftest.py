"""Shared fixtures: writing small tables in every supported format, and running the CLI."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

TABLE_FORMATS = ("csv", "tsv", "jsonl", "parquet")


def label_data(n: int = 40, k: int = 3, seed: int = 0) -> dict[str, Any]:
    """Truth ``y`` (every class present), two systems ``a`` (~70 % right) and ``b`` (~50 %), probabilities ``p``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    y[:k] = np.arange(k)
    a = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, size=n))
    b = np.where(rng.random(n) < 0.5, y, rng.integers(0, k, size=n))
    p = rng.dirichlet(np.ones(k), size=n)
    return {"y": y, "a": a, "b": b, "p": p}


def write_table(path: Path, columns: dict[str, Sequence[Any]]) -> Path:
    """Write ``columns`` to ``path`` in the format its extension names (csv, tsv, jsonl, parquet)."""
    names = list(columns)
    rows = list(zip(*columns.values()))
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv"):
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, delimiter="," if suffix == ".csv" else "\t", lineterminator="\n")
            writer.writerow(names)
            writer.writerows(rows)
    elif suffix in (".jsonl", ".ndjson"):
        with path.open("w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(dict(zip(names, row))) + "\n")
    elif suffix in (".parquet", ".pq"):
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.table({n: list(v) for n, v in columns.items()}), path)
    else:  # pragma: no cover - test helper misuse
        raise ValueError(path)
    return path


@pytest.fixture
def cli() -> Callable[..., Any]:
    """``cli(*args)`` runs ``advisor`` in-process and returns the click Result (stderr separate)."""
    from typer.testing import CliRunner

    from advisor.cli import app

    runner = CliRunner()

    def run(*args: Any) -> Any:
        return runner.invoke(app, [str(a) for a in args])

    return run


def report_in(cwd: Path, args: Sequence[str], target: Path) -> Path:
    """``advisor report ARGS -o TARGET`` run in ``cwd`` (the examples name their files relative to it); the
    report's path, after checking it was written."""
    import os

    from typer.testing import CliRunner

    from advisor.cli import app

    here = os.getcwd()
    os.chdir(cwd)
    try:
        res = CliRunner().invoke(app, ["report", *args, "-o", str(target)])
    finally:
        os.chdir(here)
    assert res.exit_code == 0, (str(target), res.output)
    return target
