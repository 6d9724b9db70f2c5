"""An id column taken for the labels is refused from a cheap count (issue 25 item 9).

Before: a label column with 10^7 distinct values ran for 108 s and 4.9 GB and ended in a 60-line traceback
(``--sql``) or "internal error (MemoryError)" (Parquet). Now the distinct labels are estimated on the staged
table right after the one read (for CSV lines before they are split), and a column with more than
``MAX_CLASSES`` labels, or with more than ``ID_MIN`` labels and almost one per row, is refused in one sentence
naming the input, the column, the count and the way around. Legitimate many-class data is not touched.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor import InputError
from advisor.io import _label_limits
from conftest import write_table

N = 5_000


def _ids(n: int = N) -> dict[str, list]:
    rng = np.random.default_rng(0)
    return {"id": [f"item{i}" for i in range(n)], "y_true": [f"item{i}" for i in range(n)],
            "y_pred": [f"c{j}" for j in rng.integers(0, 5, n)]}


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "parquet"])
def test_an_id_column_as_the_truth_is_refused_in_one_sentence(tmp_path: Path, cli, fmt: str) -> None:
    path = write_table(tmp_path / f"ids.{fmt}", _ids())
    res = cli("compute", path)
    assert res.exit_code == 2, res.stdout
    err = res.stderr.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert f"column 'y_true' has 5,000 distinct values in 5,000 rows" in err, err
    assert "an id, not a class label" in err and "--true-col" in err and "--pred-col" in err


def test_the_way_around_works(tmp_path: Path, cli) -> None:
    data = _ids()
    data["label"] = [f"c{i % 4}" for i in range(N)]
    path = write_table(tmp_path / "ids.csv", data)
    assert cli("compute", path).exit_code == 2
    res = cli("compute", path, "--true-col", "label", "--json")
    assert res.exit_code == 0, res.stderr


def test_an_id_prediction_column_is_named(tmp_path: Path, cli) -> None:
    data = _ids()
    data["y_true"], data["y_pred"] = data["y_pred"], data["y_true"]
    res = cli("compute", write_table(tmp_path / "p.csv", data))
    assert res.exit_code == 2 and "column 'y_pred' has 5,000 distinct values" in res.stderr


def test_sql_and_dataframe_say_their_own_way_around(tmp_path: Path, cli) -> None:
    import pandas as pd

    path = write_table(tmp_path / "ids.parquet", _ids())
    res = cli("compute", "--sql", f"SELECT id AS y_true, y_pred FROM '{path}'")
    assert res.exit_code == 2
    assert "the SQL query: column 'y_true' has 5,000 distinct values" in res.stderr
    assert "from the --sql query" in res.stderr
    with pytest.raises(InputError, match=r"the DataFrame: column 'y_true' has 5,000 distinct .* y_true= and systems="):
        advisor.load(pd.DataFrame(_ids()))
    with pytest.raises(InputError, match="an id, not a class label"):
        advisor.evaluate(pd.DataFrame(_ids()), y_true="y_true", systems=["y_pred"])


def test_structured_inputs_are_checked_too(tmp_path: Path, cli) -> None:
    data = _ids()
    data.update({"p_c0": [0.5] * N, "p_c1": [0.5] * N})
    res = cli("compute", write_table(tmp_path / "t.csv", data), "--top-k", "1")
    assert res.exit_code == 2 and "column 'y_true' has 5,000 distinct values" in res.stderr


def test_the_estimate_is_said_as_such_far_beyond_and_counted_near_the_limit(tmp_path: Path, cli, monkeypatch) -> None:
    monkeypatch.setattr(_label_limits, "_EXACT_ROWS", 10_000)  # beyond it a count far past a limit is estimated
    far = cli("compute", write_table(tmp_path / "far.csv", _ids(20_000)))
    assert far.exit_code == 2 and "has about " in far.stderr and "in 20,000 rows" in far.stderr
    # 1,200 labels in 1,300 rows (92 %): close to the 90 % line, so counted exactly
    rng = np.random.default_rng(1)
    truth = [f"item{i}" for i in range(1_200)] + [f"item{i}" for i in rng.integers(0, 1_200, 100)]
    near = cli("compute", write_table(tmp_path / "near.csv", {"y_true": truth, "y_pred": ["a"] * 1_300}))
    assert near.exit_code == 2 and "has 1,200 distinct values in 1,300 rows" in near.stderr


@pytest.mark.parametrize("n,k", [(500, 500), (20_000, 3_000)])
def test_many_classes_still_work(tmp_path: Path, cli, n: int, k: int) -> None:
    """A small test set with a class per item (below ID_MIN) and 3,000 classes over 20,000 items (15 %)."""
    rng = np.random.default_rng(2)
    y = np.arange(n) % k
    pred = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    path = write_table(tmp_path / "many.csv", {"y_true": [f"c{i}" for i in y], "y_pred": [f"c{i}" for i in pred]})
    res = cli("compute", path, "--metrics", "accuracy", "--json")
    assert res.exit_code == 0, res.stderr


def test_the_stated_maximum(tmp_path: Path, cli, monkeypatch) -> None:
    """Beyond MAX_CLASSES (here lowered to 100) a column is refused even when its labels repeat; count tables
    (rows are cells, not items) only meet the maximum."""
    monkeypatch.setattr(_label_limits, "MAX_CLASSES", 100)
    y = [f"c{i % 150}" for i in range(3_000)]
    res = cli("compute", write_table(tmp_path / "k.csv", {"y_true": y, "y_pred": y}))
    assert res.exit_code == 2
    assert "column 'y_true' has 150 distinct values in 3,000 rows, more than the 100 classes" in res.stderr
    assert "merge rare classes" in res.stderr
    cells = {"true": [f"c{i}" for i in range(150)], "pred": [f"c{i}" for i in range(150)], "count": [3] * 150}
    res = cli("compute", "--counts", write_table(tmp_path / "c.csv", cells))
    assert res.exit_code == 2 and "150 distinct values" in res.stderr
    monkeypatch.setattr(_label_limits, "MAX_CLASSES", 1_000_000)
    assert cli("compute", "--counts", write_table(tmp_path / "c.csv", cells)).exit_code == 0
