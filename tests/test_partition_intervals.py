"""Intervals of the partition indices (issue 23, item 3; advisor/stats/_partitions.py).

A resample draws items with replacement, and an item drawn twice forms a pair both partitions put together. The
pair-counting indices (the correlation coefficient, its distance, ARI) therefore count only pairs of two distinct
original items in each resample — an item's copies never pair with each other — and take the plain BCa interval.
The mutual-information indices (AMI, NMI) get no interval and no test: neither the bootstrap (recentred or not) nor
m-out-of-n subsampling covered at the stated rate (advisor/stats/_partition_subsamples.py). Deterministic: fixed
seeds, no timing. Coverage is measured by simulation in benchmarks/bench_partition_intervals.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score
from typer.testing import CliRunner

from advisor import PartitionRows, partition_comparison, partition_intervals
from advisor._exceptions import InputError
from advisor.cli import app
from itertools import combinations

from advisor.report import methods_paragraph
from advisor.report._methods_intervals import intervals_sentence
from advisor.report._methods_lists import Text
from advisor.report._models import IntervalSettings, MetricEntry
from advisor.stats._partition_subsamples import _subsample_masses, partition_subsamples, subsampling_intervals
from advisor.stats._partitions import NO_INTERVAL, _RECENTRED, _errors, _item_copies, _resample_values, _System

IDS = ["pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info"]


def _rows(counts: list[list[int]]) -> PartitionRows:
    c = np.asarray(counts)
    r, k = np.nonzero(c)
    return PartitionRows(true=r, pred={"s": k}, counts=c[r, k].astype(float))


def _brute_force(t: list[int], p: list[int], copies: list[int]) -> dict[str, float]:
    """ARI and the correlation coefficient of a resample holding ``copies[i]`` copies of item ``i``, counted over
    every pair of copies of two distinct items, one pair at a time."""
    drawn = [i for i, c in enumerate(copies) for _ in range(c)]
    n11 = a = b = n = 0
    for x, y in combinations(drawn, 2):
        if x == y:  # two copies of one item: left out
            continue
        n += 1
        a += t[x] == t[y]
        b += p[x] == p[y]
        n11 += t[x] == t[y] and p[x] == p[y]
    expected = a * b / n
    return {"adjusted_rand_index": (n11 - expected) / ((a + b) / 2 - expected),
            "pair_correlation": (n * n11 - a * b) / np.sqrt(a * b * (n - a) * (n - b))}


@pytest.mark.parametrize("copies", [
    [2, 0, 1, 3, 0, 1, 1, 0, 2, 1, 0, 1],   # items drawn up to three times, some not at all
    [1] * 12,                                # the test set itself: its own estimate
    [4, 0, 0, 1, 2, 2, 0, 0, 1, 0, 2, 0],
])
def test_a_resampled_pair_index_counts_only_pairs_of_distinct_items(copies: list[int]) -> None:
    """The resampled ARI and correlation coefficient equal a brute-force count over the pairs of copies of two
    distinct items; counting an item's copies as pairs too (the earlier resamples) gives another value."""
    t = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    p = [0, 0, 1, 1, 1, 1, 2, 2, 2, 0, 0, 2]
    rows = PartitionRows.from_labels(t, p)
    cell, _, _, _ = rows.cells("system")
    # the items in row order, as a resample numbers them: row r holds rows.counts[r] items
    order = [i for r in range(len(rows.counts)) for i in range(12)
             if (rows.true[r], rows.pred["system"][r]) == (np.unique(t, return_inverse=True)[1][i],
                                                            np.unique(np.asarray(p).astype(str), return_inverse=True)[1][i])]
    assert sorted(order) == list(range(12))
    w, q = _item_copies(np.array([[copies[i] for i in order]]), rows.counts)
    ids = ["adjusted_rand_index", "pair_correlation"]
    sy = _System(rows, "system")
    got = sy.evaluate(w, ids, squares=q)[0]
    want = _brute_force(t, p, copies)
    assert got == pytest.approx([want[m] for m in ids], abs=1e-12)
    if max(copies) > 1:
        assert not np.allclose(sy.evaluate(w, ids)[0], got)


def test_pair_distinct_resamples_centre_on_the_estimate_and_ami_on_the_sets_own_index() -> None:
    """60 items, moderately related partitions: resamples that count an item's pairs with its copies lie 0.17 of
    their standard deviation above the estimate (they average the index of the test set's shares, pairs drawn with
    replacement); leaving those pairs out, they centre on the estimate (within 0.03 sd), so BCa reads them as they
    are. AMI's resamples lie near the test set's NMI, well above the estimate; moved by θ̂ − θ(F̂), near it."""
    rows = _rows([[19, 2, 0], [0, 17, 5], [3, 4, 10]])
    ids = ["adjusted_rand_index", "pair_correlation", "adjusted_mutual_info"]
    point, moved, _, _ = _errors(rows, ids, 4000, 1, None, recentre=_RECENTRED)  # the earlier reading, benchmarked
    population = _System(rows, "s").evaluate(np.asarray(rows.counts)[None], ids, population=True)[0]
    with_copies = _resample_values(rows, ids, 4000, 1, None, self_pairs=True)["s"]
    distinct = _resample_values(rows, ids, 4000, 1, None)["s"]
    sd = distinct.std(axis=0)
    pairs = slice(0, 2)
    assert np.all(np.abs(with_copies.mean(axis=0)[pairs] - population[pairs]) < 0.03 * sd[pairs])
    assert np.all(with_copies.mean(axis=0)[pairs] - point["s"][pairs] > 0.1 * sd[pairs])
    assert np.all(np.abs(distinct.mean(axis=0)[pairs] - point["s"][pairs]) < 0.03 * sd[pairs])
    assert np.array_equal(moved["s"][:, pairs], distinct[:, pairs])  # read as they are
    assert np.array_equal(distinct[:, 2], with_copies[:, 2])  # AMI counts no pairs
    # AMI: the resamples average 0.09 sd above the table's NMI and 0.32 sd above the estimate; moved, 0.09 sd above it
    assert abs(distinct[:, 2].mean() - population[2]) < 0.15 * sd[2] < distinct[:, 2].mean() - point["s"][2]
    assert abs(moved["s"][:, 2].mean() - point["s"][2]) < 0.15 * sd[2]


def test_grouped_resamples_leave_out_pairs_of_an_items_copies_only() -> None:
    """A group drawn twice: its items' copies do not pair with themselves, but two distinct items of the group, in
    either copy, do (pairs of distinct original items)."""
    rows = PartitionRows(true=np.array([0, 1]), pred={"s": np.array([0, 1])}, counts=np.array([3.0, 2.0]),
                         groups=np.array([0, 1]), n_groups=2)
    from advisor.stats import _partitions

    _, w, q = next(_partitions._masses(rows, 1, np.random.default_rng(0), None))
    m = w[0] / rows.counts  # each group's multiplicity
    assert np.allclose(q[0], rows.counts * m * m)


@pytest.mark.parametrize("counts", [
    [[19, 2, 0], [0, 17, 5], [3, 4, 10]],            # moderate
    [[30, 1, 0, 0], [0, 25, 1, 0], [1, 0, 20, 0], [0, 0, 1, 21]],  # strong, near the bound 1
    [[8, 7, 6], [7, 8, 6], [6, 7, 8]],              # nearly independent
])
def test_every_interval_contains_its_estimate_and_repeats_with_the_seed(counts: list[list[int]]) -> None:
    rows = _rows(counts)
    got = partition_intervals(rows, n_resamples=500, seed=3)["s"]
    assert repr(partition_intervals(rows, n_resamples=500, seed=3)["s"]) == repr(got)  # repr: nan == nan
    for m, iv in got.items():
        if m in NO_INTERVAL:  # AMI: the estimate alone, and why
            assert iv["method"] == "none" and np.isnan(iv["low"]) and "stated rate" in iv["reason"], (m, iv)
            continue
        assert iv["method"] == "bca", (m, iv)
        assert iv["low"] <= iv["estimate"] <= iv["high"], (m, iv)
    assert got["pair_correlation"]["high"] <= 1.0 and got["pair_correlation_distance"]["low"] >= 0.0


def test_the_mutual_information_indices_get_their_estimate_and_no_interval_or_test() -> None:
    """AMI and NMI: the estimate (scikit-learn's value), no interval and no paired test; the pair-counting indices of
    the same call keep theirs, and a comparison ranks the clusterings on those alone."""
    rng = np.random.default_rng(3)
    t = rng.integers(0, 4, 150)
    a = np.where(rng.random(150) < 0.8, t, rng.integers(0, 6, 150))
    b = np.where(rng.random(150) < 0.5, t, rng.integers(0, 6, 150))
    ids = ["adjusted_rand_index", "adjusted_mutual_info", "normalized_mutual_info"]
    got = partition_intervals(PartitionRows.from_labels(t, a), ids, n_resamples=300, seed=1)["system"]
    assert list(got) == ids
    assert got["adjusted_mutual_info"]["estimate"] == pytest.approx(adjusted_mutual_info_score(t, a), abs=1e-10)
    for m in ("adjusted_mutual_info", "normalized_mutual_info"):
        assert got[m]["method"] == "none" and np.isnan(got[m]["low"]) and np.isnan(got[m]["high"])
    assert got["adjusted_rand_index"]["method"] == "bca"
    cmp = partition_comparison(PartitionRows.from_labels(t, {"a": a, "b": b}), ids, n_resamples=300, seed=1)
    assert set(cmp.metrics) == {"adjusted_rand_index"} and cmp.winners("adjusted_rand_index") == ["a"]
    assert cmp.ranking_agreement.metrics == ids  # the order of the systems by every index's estimate


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
            if m in NO_INTERVAL:  # AMI: no interval, and why
                assert iv["low"] is None and iv["high"] is None and iv["method"] == "none" and iv["reason"], iv
                continue
            assert iv["low"] <= data["metrics"]["c"][m] <= iv["high"]
        assert data["bootstrap"]["resampled"] == unit and data["bootstrap"]["seed"] == 2
    res = runner.invoke(app, ["compute", "--partitions", "--bootstrap", "300", str(f)])
    assert res.exit_code == 0 and "resamples of items" in res.output and "seed" in res.output


def test_grouped_intervals_contain_their_estimates() -> None:
    rng = np.random.default_rng(8)
    g = np.repeat(np.arange(30), 6)
    t = rng.integers(0, 3, 30)[g]
    p = np.where(rng.random(180) < 0.75, t, rng.integers(0, 4, 180))
    got = partition_intervals(PartitionRows.from_labels(t, p, groups=g), n_resamples=400, seed=2)["system"]
    for m, iv in got.items():
        if m in NO_INTERVAL:
            assert iv["method"] == "none" and np.isnan(iv["low"]), (m, iv)
            continue
        assert iv["method"] == "bca" and iv["low"] <= iv["estimate"] <= iv["high"], (m, iv)


def _sentence(ids: list[str]) -> str:
    names = {"pair_correlation": "Pair-counting correlation coefficient (partitions)",
             "adjusted_rand_index": "Adjusted Rand index", "adjusted_mutual_info": "Adjusted mutual information",
             "normalized_mutual_info": "Normalized mutual information", "purity": "Purity",
             "inverse_purity": "Inverse purity"}
    rec = [MetricEntry(id=m, name=names[m], formula="x", role="primary" if i == 0 else "complementary")
           for i, m in enumerate(ids)]
    p = Text()
    intervals_sentence(p, IntervalSettings(n_resamples=2000, confidence=0.95, seed=3, methods={m: "bca" for m in ids}),
                       1, {"label_structure": "partition", "item_name": "article"}, rec,
                       lambda a, y: None)
    return p.text()


def test_the_methods_say_how_each_kind_of_index_is_resampled() -> None:
    """Pairs of an article's copies are said to be left out of the pair-counting indices named; the mutual-information
    indices are said, in one plain sentence, to have no interval or test, and no hand-shifted interval is described."""
    both = _sentence(["pair_correlation", "adjusted_rand_index", "adjusted_mutual_info"])
    assert ("Each resampled pair-counting index leaves out the pairs formed by two copies of one article, which "
            "always share a cluster.") in both
    # the reason is one a reader can check in print (Roulston 1999), never simulations a paper cannot cite
    assert "Adjusted mutual information has no interval or test: a sample's mutual information is biased" in both
    assert ", and resampling around the estimate keeps the bias." in both
    assert "simulation" not in both
    assert "Efron" not in both and "deviation" not in both and "self-pairs" not in both
    two = _sentence(["pair_correlation", "adjusted_mutual_info", "normalized_mutual_info"])
    assert ("Both mutual information indices have no intervals or tests" in two
            and "resampling around the estimate keeps the bias." in two)
    pairs_only = _sentence(["pair_correlation", "adjusted_rand_index"])
    assert "Each resampled pair-counting index leaves out the pairs formed by two copies" in pairs_only
    assert "no interval or test" not in pairs_only
    ami_only = _sentence(["adjusted_mutual_info"])
    assert "pair-counting index" not in ami_only and "has no interval or test" in ami_only
    # a planned purity with its inverse: no interval or test either (their BCa intervals under-covered,
    # benchmarks/README.md), said with the mutual information's bias in one sentence, and the bias of their own —
    # a sample's largest count of each cluster overstates the population's — said without a borrowed source
    shares = _sentence(["pair_correlation", "adjusted_rand_index", "adjusted_mutual_info", "normalized_mutual_info",
                        "purity", "inverse_purity"])
    assert ("Only pair-counting indices have intervals and tests: a sample overstates mutual information and majority "
            "counts, and resampling keeps the bias.") in shares
    assert "Both mutual information indices have no" not in shares
    alone = _sentence(["pair_correlation", "purity", "inverse_purity"])
    assert "Purity and inverse purity have no intervals or tests: a sample overstates majority counts" in alone


def test_the_bundled_partition_paragraph_shifts_no_interval_by_hand():
    """The s30 text-clustering methodologist: "do not shift intervals by hand". AMI's sentence says it has no
    interval, and NMI, no longer named by it, is not defined beside AMI's normalisation."""
    md = methods_paragraph(Path(__file__).resolve().parents[1] / "examples" / "structures" / "partition_answers.yaml",
                           "md", seed=7)
    assert "Adjusted mutual information has no interval or test" in md
    assert "deviation from the former" not in md and "sit near the test set's" not in md
    assert "$I$ over that mean" not in md


# ---------------------------------------------------------------------------------------------------------------
# m-out-of-n subsampling (advisor/stats/_partition_subsamples.py): measured in the benchmark, not adopted
# ---------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("counts", [
    [[19, 2, 0], [0, 17, 5], [3, 4, 10]],
    [[30, 1, 0, 0], [0, 25, 1, 0], [1, 0, 20, 0], [0, 0, 1, 21]],
    [[8, 7, 6], [7, 8, 6], [6, 7, 8]],
])
@pytest.mark.parametrize("fraction", [0.25, 0.5])
@pytest.mark.parametrize("scaling", ["rate", "finite"])
def test_every_subsampling_interval_contains_its_estimate(counts: list[list[int]], fraction: float,
                                                          scaling: str) -> None:
    got = subsampling_intervals(_rows(counts), ["adjusted_mutual_info", "normalized_mutual_info", "adjusted_rand_index"],
                                fraction=fraction, scaling=scaling, n_subsamples=400, seed=2)["s"]
    for m, iv in got.items():
        assert np.isnan(iv["low"]) or iv["low"] <= iv["estimate"] <= iv["high"], (m, iv)
        assert not np.isnan(iv["low"]) or iv["reason"], (m, iv)


def test_a_subsample_draws_units_without_replacement() -> None:
    """Each subsample holds exactly m of the n items, no row more than it has; with groups, whole groups."""
    rows = _rows([[19, 2, 0], [0, 17, 5], [3, 4, 10]])
    m = _subsample_masses(rows, 30, 200, np.random.default_rng(0))
    assert np.all(m.sum(axis=1) == 30) and np.all(m <= rows.counts[None]) and np.all(m >= 0)
    g = np.repeat(np.arange(25), 4)
    t = np.repeat(np.arange(25) % 3, 4)
    grouped = PartitionRows.from_labels(t, (t + np.arange(100) % 2) % 4, groups=g)
    gm = _subsample_masses(grouped, 10, 50, np.random.default_rng(1))
    assert np.all(gm.sum(axis=1) == 40)  # ten groups of four items
    assert np.all((gm == 0) | (gm == grouped.counts[None]))  # a row is in or out whole


def test_the_subsampling_rate_is_scaled_with_or_without_the_finite_population_factor() -> None:
    """At m = n/2 the finite-population factor √(m/(n − m)) is 1 and Politis & Romano's rate √(m/n) is √½: on the
    same subsamples the two intervals have the same centre offset pattern and widths in the ratio √2."""
    rows = _rows([[19, 2, 0], [0, 17, 5], [3, 4, 10]])  # 60 items
    ids = ["adjusted_rand_index"]
    rate = subsampling_intervals(rows, ids, fraction=0.5, scaling="rate", n_subsamples=500, seed=4)["s"][ids[0]]
    fin = subsampling_intervals(rows, ids, fraction=0.5, scaling="finite", n_subsamples=500, seed=4)["s"][ids[0]]
    values = partition_subsamples(rows, ids, size=30, n_subsamples=500, seed=4)["s"][:, 0]
    dev = values - fin["estimate"]
    assert fin["low"] == pytest.approx(fin["estimate"] - np.quantile(dev, 0.975))
    assert fin["high"] == pytest.approx(fin["estimate"] - np.quantile(dev, 0.025))
    assert (fin["high"] - fin["low"]) == pytest.approx(np.sqrt(2) * (rate["high"] - rate["low"]))
