"""Issue 23, item 3: two partitions with arbitrary cluster ids compared by pair correlation, ARI and AMI from the
contingency table the one reader counts; oracles: scikit-learn and a direct count over all pairs of items."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score
from sklearn.metrics.cluster import contingency_matrix
from typer.testing import CliRunner

from advisor._exceptions import InputError
from advisor.cli import app
from advisor.engine._partition import partition_metrics

runner = CliRunner()


def _pair_correlation(t: np.ndarray, p: np.ndarray) -> float:
    """The Pearson correlation of the two 'same cluster' indicators over every pair of items, counted pair by pair."""
    x = np.array([t[i] == t[j] for i, j in combinations(range(len(t)), 2)], dtype=float)
    y = np.array([p[i] == p[j] for i, j in combinations(range(len(p)), 2)], dtype=float)
    return float(np.corrcoef(x, y)[0, 1])


def _pair(seed: int, n: int = 150) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2 + seed % 4, n)
    noise = rng.random(n) < 0.1 + 0.1 * (seed % 5)
    p = np.where(noise, rng.integers(0, 6, n), t * 7 + 3)  # other ids, some items moved
    return t, p


@pytest.mark.parametrize("seed", range(8))
def test_indices_match_scikit_learn_and_a_direct_pair_count(seed: int) -> None:
    t, p = _pair(seed)
    r = partition_metrics(contingency_matrix(t, p))
    assert r["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(t, p), abs=1e-12)
    assert r["adjusted_mutual_info"] == pytest.approx(adjusted_mutual_info_score(t, p), abs=1e-10)
    assert r["pair_correlation"] == pytest.approx(_pair_correlation(t, p), abs=1e-12)
    assert r["pair_correlation_distance"] == pytest.approx(np.arccos(r["pair_correlation"]) / np.pi, abs=1e-12)


def test_renaming_clusters_changes_nothing_and_identical_partitions_score_one() -> None:
    t, p = _pair(3)
    r = partition_metrics(contingency_matrix(t, p))
    assert partition_metrics(contingency_matrix(t + 100, (p * 13) % 97)) == pytest.approx(r)
    same = partition_metrics(contingency_matrix(t, t * 5 + 1))
    assert same["adjusted_rand_index"] == same["pair_correlation"] == pytest.approx(1.0)
    assert same["pair_correlation_distance"] == pytest.approx(0.0)


def test_compute_partitions_from_a_file(tmp_path) -> None:
    t, p = _pair(5, n=60)
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"g{a},{b}\n" for a, b in zip(t, p)), encoding="utf-8")
    res = runner.invoke(app, ["compute", "--partitions", "--json", str(f)])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["structure"] == "partition"
    vals = got["metrics"]["c"]
    assert set(vals) == {"pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info"}
    assert vals["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(t, p), abs=1e-12)
    assert "accuracy" not in vals


@pytest.mark.parametrize(("rows", "extra", "words"), [
    ("a,7\na,7\na,3\n", [], "has one cluster"),
    ("a,7\nb,7\na,7\n", [], "has one cluster"),
    ("a,7\nb,3\n", ["--bootstrap", "100"], "not implemented yet"),
    ("a,7\nb,3\n", ["--metrics", "accuracy"], "not a partition metric"),
])
def test_bad_partitions_one_sentence_exit_2(tmp_path, rows: str, extra: list[str], words: str) -> None:
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\n" + rows, encoding="utf-8")
    res = runner.invoke(app, ["compute", "--partitions", *extra, str(f)])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output
    assert res.output.strip().count("\n") == 0


def test_one_cluster_refused_by_the_engine() -> None:
    with pytest.raises(InputError, match="one cluster"):
        partition_metrics([[3, 4]])
