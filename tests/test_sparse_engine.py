"""The sparse engine: confusion data as non-zero cells gives the dense path's numbers at any k."""

from __future__ import annotations

import numpy as np
import pytest

import advisor
from advisor import ConfusionMatrix, InputError, compute_metrics
from advisor.engine._cells import Cells
from advisor.engine._chance import reference_matrices
from advisor.engine._joint import JointCounts
from advisor.engine._metrics import BINARY_METRICS, MULTICLASS_METRICS, evaluate_batch
from advisor.stats._bootstrap import bootstrap
from advisor.stats._proportions import newcombe_paired

CONVENTIONS = ("zero", "baseline", "omit")


def random_matrix(rng: np.random.Generator, k: int, integer: bool = True) -> np.ndarray:
    c = rng.integers(0, 20, (k, k)) * (rng.random((k, k)) < 0.4)
    if rng.random() < 0.3:
        c[rng.integers(k)] = 0  # a class absent from the truth
    if rng.random() < 0.3:
        c[:, rng.integers(k)] = 0  # a class never predicted
    c = c.astype(float)
    if c.sum() == 0:
        c[0, 0] = 1.0
    return c if integer else c * rng.uniform(0.01, 3.0)


def dense_sums(c: np.ndarray) -> dict[str, np.ndarray]:
    """The dense engine's sums, written out independently (rows = true classes)."""
    k = c.shape[-1]
    s = c.sum(axis=-1) + c.sum(axis=-2)
    off = ~np.eye(k, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        row = np.where(c > 0, c * np.log(c / np.maximum(s[..., :, None], 1e-300)), 0.0)
        col = np.where(c > 0, c * np.log(c / np.maximum(s[..., None, :], 1e-300)), 0.0)
    return {
        "a": c.sum(axis=-1), "b": c.sum(axis=-2), "tp": np.diagonal(c, axis1=-2, axis2=-1),
        "off": (c * off).sum(axis=(-2, -1)), "entropy": (row * off).sum(axis=(-2, -1)) + (col * off).sum(axis=(-2, -1)),
    }


def split_cells(rng: np.random.Generator, c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Non-zero cells of ``c`` shuffled, each integer cell split into two repeated entries."""
    i, j = np.nonzero(c)
    w = c[i, j]
    part = np.floor(w / 2)
    ti, pj, ww = np.concatenate([i, i]), np.concatenate([j, j]), np.concatenate([part, w - part])
    order = rng.permutation(ti.size)
    return ti[order], pj[order], ww[order]


@pytest.mark.parametrize("integer", [True, False])
def test_cell_sums_equal_the_dense_sums_in_a_batch(integer) -> None:
    rng = np.random.default_rng(1)
    for k in (2, 3, 7):
        stack = np.stack([random_matrix(rng, k, integer) for _ in range(20)])
        cells, ref = Cells.from_dense(stack), dense_sums(stack)
        for name in ("a", "b", "tp", "off"):
            np.testing.assert_allclose(getattr(cells, name), ref[name], rtol=1e-15, atol=0)
        np.testing.assert_allclose(cells.entropy_sum(), ref["entropy"], rtol=1e-13, atol=1e-300)
        np.testing.assert_array_equal(cells.to_dense(), stack)


def _all_ids(k: int) -> list[str]:
    return list(MULTICLASS_METRICS) + (list(BINARY_METRICS) if k == 2 else [])


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_from_cells_gives_the_dense_matrix_numbers_for_every_metric(convention) -> None:
    rng = np.random.default_rng(7)
    for trial in range(60):
        k = int(rng.integers(2, 7))
        integer = trial % 3 != 0
        c = random_matrix(rng, k, integer)
        pos = 1 if k == 2 else None
        dense = compute_metrics(c, positive_label=pos, undefined=convention)
        ti, pj, ww = split_cells(rng, c) if integer else (*np.nonzero(c), c[np.nonzero(c)])
        cm = ConfusionMatrix.from_cells(ti, pj, ww, list(range(k)))
        assert cm == ConfusionMatrix(c)
        sparse = compute_metrics(cm, positive_label=pos, undefined=convention)
        assert list(sparse) == list(dense)
        for m in dense:
            if integer:
                assert sparse[m] == dense[m] or (np.isnan(sparse[m]) and np.isnan(dense[m])), (m, c)
            else:
                np.testing.assert_allclose(sparse[m], dense[m], rtol=1e-12, atol=1e-15, err_msg=m)
        assert [u.to_dict() for u in sparse.undefined] == [u.to_dict() for u in dense.undefined]


@pytest.mark.parametrize("convention", CONVENTIONS)
def test_a_batch_gives_each_matrix_its_own_numbers(convention) -> None:
    rng = np.random.default_rng(3)
    for k in (2, 5):
        stack = np.stack([random_matrix(rng, k) for _ in range(30)])
        ids = _all_ids(k)
        batch = evaluate_batch(stack, ids, positive_index=1 if k == 2 else None, undefined=convention)
        for b, c in enumerate(stack):
            one = compute_metrics(c, ids, positive_label=1 if k == 2 else None, undefined=convention)
            for m in ids:
                np.testing.assert_allclose(batch[m][b], one[m], rtol=1e-13, atol=1e-15, err_msg=m)


def test_chance_levels_in_closed_form_equal_the_dense_reference_matrices() -> None:
    rng = np.random.default_rng(11)
    for _ in range(40):
        k = int(rng.integers(2, 8))
        c = random_matrix(rng, k)
        pos = 1 if k == 2 else None
        for convention in CONVENTIONS:
            chance = advisor.chance_levels(c, positive_label=pos, undefined=convention)
            for name, ref in reference_matrices(c).items():
                dense = compute_metrics(ref, positive_label=pos, undefined=convention)
                for m, v in dense.items():
                    np.testing.assert_allclose(chance[m][name], v, rtol=1e-12, atol=1e-14, err_msg=(name, m))


def test_the_bootstrap_draws_the_dense_engines_resamples() -> None:
    # the old engine drew Multinomial(n, C/n) over all k² cells; the sparse draw over the non-zero
    # cells (plus the last cell) consumes the same random stream and gives the same matrices
    rng = np.random.default_rng(5)
    for seed in range(6):
        c = random_matrix(rng, int(rng.integers(2, 8)))
        c[np.diag_indices_from(c)] += 3
        ids = ["accuracy", "macro_f1", "mcc", "confusion_entropy"]
        # the plain draw ("free"); "kept" replaces the resamples that lack a class (tests/test_stratified_bootstrap.py)
        r = bootstrap(c, n_resamples=200, seed=seed, metrics=ids, keep_resamples=True, classes="free")
        flat = c.reshape(-1)
        p = flat / flat.sum()
        draws = np.random.default_rng(seed).multinomial(int(flat.sum()), p / p.sum(), size=200)
        ref = evaluate_batch(draws.reshape(200, *c.shape).astype(float), ids)
        for m in ids:
            np.testing.assert_allclose(r.resamples[m], ref[m], rtol=1e-14, atol=1e-15, err_msg=m)


def test_joint_marginals_are_each_systems_matrix() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 6, 500)
    preds = {s: np.where(rng.random(500) < q, y, rng.integers(0, 6, 500)) for s, q in (("a", 0.8), ("b", 0.5))}
    joint = JointCounts.from_arrays(y, preds)
    draws = np.random.default_rng(0).multinomial(500, joint.counts / joint.n, size=4).astype(float)
    for s, cells in zip(joint.systems, joint.system_cells(draws)):
        j = joint.systems.index(s)
        ref = np.zeros((4, joint.k, joint.k))
        for b in range(4):
            np.add.at(ref[b], (joint.codes[:, 0], joint.codes[:, 1 + j]), draws[b])
        np.testing.assert_array_equal(cells.to_dense(), ref)
        assert joint.matrix(s) == advisor.confusion_matrix(y, preds[s])


def test_a_hundred_thousand_classes_never_build_a_dense_table() -> None:
    import tracemalloc

    k, n = 100_000, 200_000
    rng = np.random.default_rng(0)
    t = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, t, rng.integers(0, k, n))
    tracemalloc.start()
    cm = advisor.confusion_matrix(t, p, labels=list(range(k)))
    r = compute_metrics(cm)
    ch = advisor.chance_levels(cm, ["accuracy", "macro_f1", "confusion_entropy"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 300e6, peak  # a dense k×k table would be 80 GB
    assert cm.k == k and cm.nnz <= n
    assert r["accuracy"] == pytest.approx(np.mean(t == p))
    assert 0 < ch["accuracy"]["uniform"] < 1e-4
    with pytest.raises(InputError, match="dense view"):
        cm.counts


def test_wide_integer_labels_are_counted_sparsely() -> None:
    y = [0, 10**9, 10**9, 5]
    p = [0, 10**9, 5, 5]
    cm = advisor.confusion_matrix(y, p)
    assert cm.labels == (0, 5, 10**9)
    assert cm.counts.tolist() == [[1, 0, 0], [0, 1, 0], [0, 1, 1]]
    assert cm == advisor.confusion_matrix([str(v) for v in y], [str(v) for v in p], labels=[0, 5, 10**9])


def test_from_cells_refuses_bad_cells() -> None:
    with pytest.raises(InputError, match="pred_idx contains the index 2"):
        ConfusionMatrix.from_cells([0], [2], [1], ["a", "b"])
    with pytest.raises(InputError, match="negative"):
        ConfusionMatrix.from_cells([0], [1], [-1], ["a", "b"])
    with pytest.raises(InputError, match="one entry per cell"):
        ConfusionMatrix.from_cells([0, 1], [1], [1], ["a", "b"])
    with pytest.raises(InputError, match="unique"):
        ConfusionMatrix.from_cells([0], [1], [1], ["a", "a"])


def test_item_draws_and_cell_draws_agree_within_monte_carlo_error() -> None:
    # Same distribution, different random streams (advisor.stats._draws). Tolerances as in
    # test_bootstrap.test_cell_bootstrap_matches_instance_bootstrap_within_monte_carlo_error:
    # SD ratio within 8 %, 2.5 %/97.5 % quantiles within 0.28 σ + one lattice step, means 0.11 σ.
    rng = np.random.default_rng(9)
    k, n = 200, 12_000
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))
    cm = advisor.confusion_matrix(y, p, labels=list(range(k)))
    ids = ["accuracy", "macro_f1", "mcc", "balanced_accuracy", "confusion_entropy"]
    B = 3000
    # percentile intervals: the tolerances are those of the 2.5 %/97.5 % quantiles
    auto = bootstrap(cm, n_resamples=B, seed=1, metrics=ids, keep_resamples=True, method="percentile")
    items = bootstrap(cm, n_resamples=B, seed=1, metrics=ids, keep_resamples=True, draw="items", method="percentile")
    cells = bootstrap(cm, n_resamples=B, seed=2, metrics=ids, keep_resamples=True, draw="cells", method="percentile")
    assert auto.resamples["accuracy"].tolist() == items.resamples["accuracy"].tolist()  # auto chose items
    for m in ids:
        sd = cells.std_error[m]
        assert abs(items.std_error[m] / sd - 1) < 0.08, m
        # the quantiles themselves (confusion entropy's interval is withheld: it excludes the estimate)
        q_items = np.quantile(items.resamples[m], [0.025, 0.975])
        q_cells = np.quantile(cells.resamples[m], [0.025, 0.975])
        for side in (0, 1):
            assert abs(q_items[side] - q_cells[side]) < 0.28 * sd + 1 / n, (m, side)
        assert abs(items.resamples[m].mean() - cells.resamples[m].mean()) < 0.11 * sd, m


def test_draw_is_checked() -> None:
    with pytest.raises(InputError, match="draw must be one of"):
        bootstrap([[40, 10], [5, 45]], n_resamples=200, seed=0, draw="rows")
    with pytest.raises(InputError, match="whole-number counts"):
        bootstrap([[40.5, 10], [5, 45]], n_resamples=200, seed=0, draw="items")


def test_paired_items_tabulate_into_every_systems_cells() -> None:
    rng = np.random.default_rng(4)
    y = rng.integers(0, 30, 3000)
    preds = {s: np.where(rng.random(3000) < q, y, rng.integers(0, 30, 3000)) for s, q in (("a", 0.8), ("b", 0.6))}
    joint = JointCounts.from_arrays(y, preds)
    bases, table = joint.system_item_cells()
    assert table.shape == (3000, 2)
    for base, item_cells, cells in zip(bases, table.T, joint.system_cells()):
        np.testing.assert_array_equal(np.bincount(item_cells, minlength=base.nnz), cells.w)  # all items once
        np.testing.assert_array_equal(base.rows, cells.rows)
    ids = ["accuracy", "macro_f1", "mcc"]
    by_items = advisor.compare_systems(y, preds, n_resamples=2000, seed=1, metrics=ids, draw="items")
    by_cells = advisor.compare_systems(y, preds, n_resamples=2000, seed=2, metrics=ids, draw="cells")
    for m in ids:
        d_items, d_cells = by_items.difference("a", "b", m), by_cells.difference("a", "b", m)
        assert d_items.estimate == d_cells.estimate
        width = d_cells.high - d_cells.low
        assert abs(d_items.low - d_cells.low) < 0.15 * width and abs(d_items.high - d_cells.high) < 0.15 * width, m


def test_confusion_entropy_of_huge_integer_resamples_needs_no_huge_table() -> None:
    """Cells of ~10^9 items: the w log w lookup table is bounded, the direct formula takes over."""
    import tracemalloc

    import advisor

    cm = np.array([[3 * 10**9, 2 * 10**9], [10**9, 4 * 10**9]])
    tracemalloc.start()
    res = advisor.bootstrap(cm, n_resamples=200, seed=1, metrics=["confusion_entropy"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100 * 2**20
    assert res["confusion_entropy"]["low"] <= advisor.compute_metrics(cm)["confusion_entropy"] <= res["confusion_entropy"]["high"]


@pytest.mark.parametrize("integer", [True, False])
def test_cells_in_any_order_give_the_row_major_sums(integer) -> None:
    """Row and column sums, the diagonal and the entropy term do not depend on the order of the cells
    (column-major from ``by_columns``, or shuffled); integer sums are exactly equal."""
    rng = np.random.default_rng(11)
    for k in (1, 2, 5, 60):
        stack = np.stack([random_matrix(rng, k, integer) for _ in range(9)])
        if integer:
            stack = stack.astype(np.int64)
        ref = Cells.from_dense(stack)
        if integer:  # whole numbers stay integers, as item resamples are
            ref = Cells(ref.rows, ref.cols, ref.w.astype(np.int64), k)
        by_cols, position = ref.by_columns()
        assert np.all(np.diff(by_cols.cols) >= 0)
        np.testing.assert_array_equal(by_cols.w[:, position], ref.w)
        perm = rng.permutation(ref.nnz)
        shuffled = Cells(ref.rows[perm], ref.cols[perm], ref.w[:, perm], k)
        # column-major cells give the very same row and column sums (each summed in the same order);
        # shuffled ones the same integers, and floats up to rounding; sums over the cells themselves
        # run in storage order
        for name in ("a", "b", "tp", "n"):
            np.testing.assert_array_equal(getattr(by_cols, name), getattr(ref, name), err_msg=name)
        for other in (by_cols, shuffled):
            for name in ("a", "b", "tp", "n", "off"):
                if integer:
                    np.testing.assert_array_equal(getattr(other, name), getattr(ref, name), err_msg=name)
                else:
                    np.testing.assert_allclose(getattr(other, name), getattr(ref, name), rtol=1e-14, atol=1e-300)
            np.testing.assert_allclose(other.entropy_sum(), ref.entropy_sum(), rtol=1e-13, atol=1e-12)
            np.testing.assert_array_equal(other.to_dense(), ref.to_dense())


@pytest.mark.parametrize("gather_cells", [None, 1000])
def test_item_resamples_are_one_index_vector_tabulated_into_every_table(gather_cells, monkeypatch) -> None:
    """The drawing of items: per resample one vector of ``n`` indices from the generator's 32-bit
    stream (the same values whatever integer width is asked for), counted into each table — in one
    gather, or block by block for large draws."""
    from advisor.stats import _draws
    from advisor.stats._draws import iter_item_resamples

    if gather_cells is not None:
        monkeypatch.setattr(_draws, "_GATHER_CELLS", gather_cells)

    rng = np.random.default_rng(2)
    n = 5_003
    maps = [rng.integers(0, c, n) for c in (7, 300, 4_999)]
    sizes = [int(m.max()) + 1 for m in maps]
    got = [np.concatenate(parts) for parts in zip(*(outs for _, outs in
                                                     iter_item_resamples(np.random.default_rng(8), np.stack(maps, axis=1), sizes, 23, 5)))]
    ref = np.random.default_rng(8)
    want = [[], [], []]
    for _ in range(23):
        idx = ref.integers(0, n, n, dtype=np.int32)
        for t, m in enumerate(maps):
            want[t].append(np.bincount(m[idx], minlength=sizes[t]))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, np.stack(w))


def test_paired_item_comparison_evaluates_each_systems_own_resampled_matrix() -> None:
    """``compare_systems(draw="items")`` against a plain recount: the same seed's index vectors over the
    items (listed joint cell by joint cell, as the engine lists them), each system's dense matrix
    counted from the drawn items, every metric computed on it, percentile intervals taken."""
    rng = np.random.default_rng(6)
    k, n, B = 30, 4_000, 150
    y = rng.integers(0, k, n)
    preds = {
        "good": np.where(rng.random(n) < 0.8, y, rng.integers(0, k, n)),
        "other items": rng.integers(0, k, n),  # about one cell per item: the column-ordered path
        "fair": np.where(rng.random(n) < 0.5, y, rng.integers(0, k, n)),
    }
    ids = [m for m in MULTICLASS_METRICS if advisor.METRICS[m].alias_of is None]
    got = advisor.compare_systems(y, preds, n_resamples=B, seed=3, metrics=ids, draw="items", confidence=0.9,
                                  method="percentile")
    joint = JointCounts.from_arrays(y, preds)
    items = np.repeat(joint.codes, joint.counts.astype(np.int64), axis=0)  # (n, 1 + systems)
    gen = np.random.default_rng(3)
    values = {s: {m: [] for m in ids} for s in preds}
    for _ in range(B):
        drawn = items[gen.integers(0, n, n)]
        for j, s in enumerate(preds):
            dense = np.bincount(drawn[:, 0] * k + drawn[:, 1 + j], minlength=k * k).reshape(k, k)
            res = compute_metrics(dense, ids)
            for m in ids:
                values[s][m].append(res[m])
    for m in ids:
        for s in preds:
            low, high = np.percentile(values[s][m], [5.0, 95.0])
            sys_out = got.metrics[m].systems[s]
            if sys_out.low is None:  # issue 20: an interval that excludes its estimate is not given
                assert not low <= sys_out.estimate <= high and sys_out.method == "none", (m, s)
                continue
            assert sys_out.low == pytest.approx(low, rel=1e-9, abs=1e-12), (m, s)
            assert sys_out.high == pytest.approx(high, rel=1e-9, abs=1e-12), (m, s)


@pytest.mark.parametrize("draw", ["items", "cells"])
def test_identical_systems_tie_exactly_in_every_resample(draw) -> None:
    """Two systems with the same predictions: every paired difference is exactly 0, each is better
    in half the resamples by the tie rule, and their rank intervals coincide — whatever order the
    engine keeps each system's cells in. Accuracy, a paired proportion with an exact interval, takes
    Newcombe's interval from the pair's 2×2 table (no discordant item): centred at 0, not [0, 0]."""
    rng = np.random.default_rng(12)
    k, n = 60, 20_000
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    got = advisor.compare_systems(y, {"a": p, "b": p.copy()}, n_resamples=200, seed=0, draw=draw)
    right = float((p == y).sum())
    for m, res in got.metrics.items():
        pair = res.pairs[0]
        if pair.difference.method == "newcombe":
            assert m == "accuracy"
            assert (pair.difference.low, pair.difference.high) == pytest.approx(
                newcombe_paired(right, 0, 0, n - right, 0.95)), m
            assert pair.difference.low == pytest.approx(-pair.difference.high) and pair.difference.high > 0
        else:
            assert (pair.difference.low, pair.difference.high) == (0.0, 0.0), m
        assert pair.p_a_better == 0.5, m
        assert res.rank_intervals["a"] == res.rank_intervals["b"], m
