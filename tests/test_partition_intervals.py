"""Intervals of the partition indices (issue 23, item 3; advisor/stats/_partitions.py): the bootstrap of the error.

A resample draws items with replacement, and an item drawn twice forms a pair both partitions put together, so the
resampled indices sit above the estimate; they centre instead on the index of the resampled set itself (pairs drawn
with replacement), which is what advisor reads them against. Deterministic: fixed seeds, no timing. Coverage is
measured by simulation in benchmarks/bench_partition_intervals.py.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score
from typer.testing import CliRunner

from advisor import PartitionRows, partition_comparison, partition_intervals
from advisor._exceptions import InputError
from advisor.cli import app
from advisor.stats._partitions import _errors, _System

IDS = ["pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info"]


def _rows(counts: list[list[int]]) -> PartitionRows:
    c = np.asarray(counts)
    r, k = np.nonzero(c)
    return PartitionRows(true=r, pred={"s": k}, counts=c[r, k].astype(float))


def test_resamples_centre_on_the_resampled_sets_own_index_not_on_the_estimate() -> None:
    """60 items, moderately related partitions: the raw resampled ARI and pair correlation average the index of the
    test set's own cluster shares (within 0.02 of their standard deviation) and lie 0.17 of it above the estimate;
    moved by θ̂ − θ(F̂), they centre on the estimate."""
    rows = _rows([[19, 2, 0], [0, 17, 5], [3, 4, 10]])
    ids = ["adjusted_rand_index", "pair_correlation"]
    point, moved, _, _ = _errors(rows, ids, 4000, 1, None)
    population = _System(rows, "s").evaluate(np.asarray(rows.counts)[None], ids, population=True)[0]
    raw = moved["s"] - point["s"] + population
    sd = raw.std(axis=0)
    assert np.all(np.abs(raw.mean(axis=0) - population) < 0.02 * sd)
    assert np.all(raw.mean(axis=0) - point["s"] > 0.1 * sd)
    assert np.all(np.abs(moved["s"].mean(axis=0) - point["s"]) < 0.02 * sd)


@pytest.mark.parametrize("counts", [
    [[19, 2, 0], [0, 17, 5], [3, 4, 10]],            # moderate
    [[30, 1, 0, 0], [0, 25, 1, 0], [1, 0, 20, 0], [0, 0, 1, 21]],  # strong, near the bound 1
    [[8, 7, 6], [7, 8, 6], [6, 7, 8]],              # nearly independent
])
def test_every_interval_contains_its_estimate_and_repeats_with_the_seed(counts: list[list[int]]) -> None:
    rows = _rows(counts)
    got = partition_intervals(rows, n_resamples=500, seed=3)["s"]
    assert partition_intervals(rows, n_resamples=500, seed=3)["s"] == got
    for m, iv in got.items():
        assert iv["method"] == "bca", (m, iv)
        assert iv["low"] <= iv["estimate"] <= iv["high"], (m, iv)
    assert got["pair_correlation"]["high"] <= 1.0 and got["pair_correlation_distance"]["low"] >= 0.0


def test_identical_partitions_get_no_interval_and_say_why() -> None:
    """Every resample of identical partitions scores 1: resampling cannot see an uncertainty at the edge."""
    got = partition_intervals(_rows([[10, 0], [0, 15]]), ["adjusted_rand_index"], n_resamples=300, seed=0)["s"]
    iv = got["adjusted_rand_index"]
    assert iv["estimate"] == 1.0 and np.isnan(iv["low"]) and iv["method"] == "none" and "same value" in iv["reason"]


def test_groups_are_resampled_whole() -> None:
    """Items in groups that share their clusters: resampling the 30 groups gives wider intervals than resampling the
    300 items as if they were independent."""
    rng = np.random.default_rng(4)
    g = np.repeat(np.arange(30), 10)
    t = rng.integers(0, 3, 30)[g]
    p = np.where(rng.random(30) < 0.7, t[::10], rng.integers(0, 3, 30))[g]
    p = np.where(rng.random(300) < 0.1, 5, p)
    grouped = PartitionRows.from_labels(t, p, groups=g)
    assert grouped.units == 30 and grouped.n == 300
    by_groups = partition_intervals(grouped, ["pair_correlation"], n_resamples=500, seed=1)["system"]
    by_items = partition_intervals(PartitionRows.from_labels(t, p), ["pair_correlation"], n_resamples=500,
                                   seed=1)["system"]
    width = lambda iv: iv["pair_correlation"]["high"] - iv["pair_correlation"]["low"]  # noqa: E731
    assert by_groups["pair_correlation"]["estimate"] == pytest.approx(by_items["pair_correlation"]["estimate"])
    assert width(by_groups) > 1.5 * width(by_items)


def test_clusterings_compared_on_the_same_resamples() -> None:
    """A clustering compared with a copy of itself differs by exactly 0 in every resample; a worse one loses."""
    rng = np.random.default_rng(2)
    t = rng.integers(0, 4, 200)
    good = np.where(rng.random(200) < 0.85, t + 10, rng.integers(0, 6, 200))
    bad = np.where(rng.random(200) < 0.5, t, rng.integers(0, 6, 200))
    rows = PartitionRows.from_labels(t, {"good": good, "copy": good, "bad": bad})
    cmp = partition_comparison(rows, n_resamples=500, seed=0)
    d = cmp.difference("good", "copy", "pair_correlation")
    assert d.estimate == 0.0 and d.low == 0.0 and d.high == 0.0
    assert set(cmp.winners("pair_correlation")) == {"good", "copy"}
    assert set(cmp.winners("pair_correlation_distance")) == {"good", "copy"}  # lower is better there


def test_from_labels_gives_the_scikit_learn_values() -> None:
    rng = np.random.default_rng(7)
    t = rng.choice(["x", "y", "z"], 90)
    p = np.where(rng.random(90) < 0.7, t, rng.choice(["1", "2"], 90))
    from advisor.engine import partition_cells_batch

    rows = PartitionRows.from_labels(t, p)
    cell, r, c, shape = rows.cells("system")
    masses = np.bincount(cell, weights=rows.counts)
    got = partition_cells_batch(masses[None], r, c, shape, IDS)
    assert float(got["adjusted_rand_index"][0]) == pytest.approx(adjusted_rand_score(t, p), abs=1e-12)
    assert float(got["adjusted_mutual_info"][0]) == pytest.approx(adjusted_mutual_info_score(t, p), abs=1e-10)


def test_api_bad_input_names_the_argument() -> None:
    with pytest.raises(InputError, match="at least 20 resampled items; got 12 .*n_resamples"):
        partition_intervals(_rows([[5, 1], [1, 5]]), n_resamples=500)
    with pytest.raises(InputError, match="metrics lists 'accuracy'"):
        partition_intervals(_rows([[15, 1], [1, 15]]), ["accuracy"], n_resamples=500)
    with pytest.raises(InputError, match="y_pred has 3 entries and y_true 4"):
        PartitionRows.from_labels([1, 1, 2, 2], [1, 2, 3])
    with pytest.raises(InputError, match="at least two clusterings"):
        partition_comparison(_rows([[15, 1], [1, 15]]), n_resamples=500)


def test_compute_partitions_bootstrap_json_is_system_first(tmp_path) -> None:
    rng = np.random.default_rng(5)
    t = rng.integers(0, 3, 80)
    src = rng.integers(0, 25, 80)
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred,src\n" + "".join(f"t{a},{b},s{s}\n" for a, b, s in
                                                  zip(t, np.where(rng.random(80) < 0.8, t, 7), src)),
                 encoding="utf-8")
    runner = CliRunner()
    for extra, unit in (([], "items"), (["--group", "src"], {"unit": "groups", "column": "src",
                                                                        "groups": len(set(src))})):
        res = runner.invoke(app, ["compute", "--partitions", "--bootstrap", "300", "--seed", "2", "--json", str(f),
                                  *extra])
        assert res.exit_code == 0, res.output
        data = json.loads(res.output)
        assert list(data["intervals"]) == ["c"] and set(data["intervals"]["c"]) == set(IDS)
        for m, iv in data["intervals"]["c"].items():
            assert iv["low"] <= data["metrics"]["c"][m] <= iv["high"]
        assert data["bootstrap"]["resampled"] == unit and data["bootstrap"]["seed"] == 2
    res = runner.invoke(app, ["compute", "--partitions", "--bootstrap", "300", str(f)])
    assert res.exit_code == 0 and "resamples of items" in res.output and "seed" in res.output
