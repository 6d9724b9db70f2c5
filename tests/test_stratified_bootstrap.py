"""Resamples that keep every class (advisor/stats/_draws.py): "kept" draws the plain bootstrap's resamples and draws
again each one that lacks a class of the test set; "fixed" draws each class's items among themselves (the
stratified bootstrap); "free" is the plain bootstrap. The blind readers: "resamples without class 9 silently become
9-class metrics … use a bootstrap stratified by class … state how often this happens"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import advisor
import advisor.stats._bootstrap as bootstrap_module
from advisor import InputError
from advisor.engine import JointCounts
from advisor.report import build_report, methods_paragraph
from advisor.report._render import render_methods
from advisor.stats import bootstrap, compare_systems
from advisor.stats._compare import _paired_draws
from advisor.stats._draws import CellStrata, ItemStrata, chance_all_kept, class_design
from advisor.stats._items import compare_scored

from tests.test_methods_prose import ROOT

# a test set with a class of 3 items among 60: about 5 % of plain resamples lack it
RARE = np.array([[25, 3, 2], [4, 22, 1], [1, 0, 2]])


def _items(c: np.ndarray) -> tuple[list[int], list[int]]:
    y, p = [], []
    for i in range(c.shape[0]):
        for j in range(c.shape[1]):
            y += [i] * int(c[i, j])
            p += [j] * int(c[i, j])
    return y, p


def test_fixed_keeps_each_class_count_in_every_resample():
    rows = np.repeat(np.arange(3), 3)
    masses = RARE.reshape(-1).astype(float)
    for _, draw in CellStrata(rows, masses).iter_resamples(np.random.default_rng(0), 500, 64):
        np.testing.assert_array_equal(draw.reshape(-1, 3, 3).sum(axis=2), np.tile(RARE.sum(axis=1), (draw.shape[0], 1)))
    y = np.array([0] * 30 + [1] * 27 + [2] * 3)
    idx = ItemStrata(y).draw(np.random.default_rng(1), 400)
    counts = np.stack([np.bincount(y[r], minlength=3) for r in idx])
    assert (counts == [30, 27, 3]).all()


def test_a_one_class_table_drawn_within_its_class_is_the_plain_bootstrap_in_distribution():
    # one stratum: the stratified draw is Multinomial(n, C/n) itself, so the resampled share of the first cell has
    # the binomial's mean p and variance p(1 − p)/n, as the plain draw has (here n = 40, p = 0.75)
    rows, masses = np.zeros(2, dtype=int), np.array([30.0, 10.0])
    (_, fixed), = CellStrata(rows, masses).iter_resamples(np.random.default_rng(2), 20000, 20000)
    plain = np.random.default_rng(3).multinomial(40, [0.75, 0.25], size=20000)
    for draws in (fixed, plain):
        share = draws[:, 0] / 40
        assert abs(share.mean() - 0.75) < 4 * np.sqrt(0.1875 / 40 / 20000)
        assert abs(share.var() / (0.1875 / 40) - 1) < 0.05  # the variance's Monte-Carlo error: about 1 %


@pytest.mark.parametrize("draw", ["cells", "items"])
def test_kept_draws_again_exactly_the_plain_resamples_that_lack_a_class(draw):
    y, p = _items(RARE)
    q = [(v + 1) % 3 if i % 5 == 0 else v for i, v in enumerate(p)]
    args = dict(n_resamples=1000, seed=11, metrics=["balanced_accuracy", "macro_f1"], draw=draw)
    free = compare_systems(y, {"a": p, "b": q}, classes="free", **args)
    kept = compare_systems(y, {"a": p, "b": q}, classes="kept", **args)
    assert free.classes == "free" and kept.classes == "kept"
    # the count the report says is that of the plain resamples of the same seed without the class, counted apart
    assert free.absent_classes and kept.redrawn == free.absent_classes and kept.absent_classes == {}
    assert set(free.absent_classes) == {"2"}


def test_kept_leaves_every_other_resample_as_the_plain_bootstrap_drew_it():
    args = dict(n_resamples=2000, seed=5, metrics=["balanced_accuracy"], undefined="omit", keep_resamples=True)
    free = bootstrap(RARE, classes="free", **args)
    kept = bootstrap(RARE, classes="kept", **args)
    changed = int((free.resamples["balanced_accuracy"] != kept.resamples["balanced_accuracy"]).sum())
    redrawn = kept.redrawn["2"]
    assert 0 < changed <= redrawn
    # a plain resample of 60 items lacks the class of 3 with probability (57/60)^60
    assert abs(redrawn / 2000 - (57 / 60) ** 60) < 4 * np.sqrt((57 / 60) ** 60 / 2000)
    assert free.classes == "free" and kept.classes == "kept" and kept.to_dict()["classes"] == "kept"


@pytest.mark.parametrize("classes", ["kept", "fixed"])
def test_the_resamples_do_not_depend_on_the_chunk_size(classes, monkeypatch):
    args = dict(n_resamples=300, seed=3, metrics=["balanced_accuracy", "mcc"], classes=classes, keep_resamples=True)
    whole = bootstrap(RARE, **args).resamples
    monkeypatch.setattr(bootstrap_module, "_CHUNK_CELLS", 200)
    chunked = bootstrap(RARE, **args).resamples
    for m in whole:
        np.testing.assert_array_equal(whole[m], chunked[m])


@pytest.mark.parametrize("classes, items", [("fixed", False), ("fixed", True), ("kept", False), ("kept", True)])
def test_paired_resamples_keep_the_classes_in_every_system_at_once(classes, items):
    y, p = _items(RARE)
    q = [(v + 1) % 3 for v in p]
    joint = JointCounts.from_arrays(y, {"a": p, "b": q})
    _, p_cells, _ = bootstrap_module.trials_and_probabilities(joint.counts, "t")
    n = int(joint.counts.sum())
    for _, systems in _paired_draws(joint, np.random.default_rng(4), n, p_cells, 1.0, 400, 100, items,
                                    classes=classes):
        a, b = (np.asarray(s.a) for s in systems)
        np.testing.assert_array_equal(a, b)  # the same items: the same true classes in both systems
        if classes == "fixed":
            assert (a == RARE.sum(axis=1)).all()
        else:
            assert (a > 0).all() and (a.sum(axis=1) == n).all()


def test_scores_resample_within_the_design_too():
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(57, dtype=int), np.ones(3, dtype=int)]
    s = y + rng.normal(0, 0.8, 60)
    free = compare_scored(y, {"m": s}, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=500, seed=1,
                          classes="free")
    kept = compare_scored(y, {"m": s}, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=500, seed=1)
    fixed = compare_scored(y, {"m": s}, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=500, seed=1,
                           classes="fixed")
    assert (free.classes, kept.classes, fixed.classes) == ("free", "kept", "fixed")
    assert kept.redrawn.get("1", 0) > 0 and kept.to_dict()["redrawn"] == kept.redrawn
    for c in (free, kept, fixed):  # the resampled AUC is defined wherever both classes are drawn
        lo, hi = c.intervals["roc_auc"]["m"]
        assert lo <= c.estimates["roc_auc"]["m"] <= hi


def test_the_design_falls_back_and_is_checked():
    assert chance_all_kept(np.array([405, 7])) == pytest.approx(1 - (405 / 412) ** 412, rel=1e-12)
    assert class_design(np.array([405, 7]), "kept") == "kept"
    assert class_design(np.array([1] * 50), "kept") == "fixed"  # most plain resamples would lack some class
    assert class_design(np.array([40, 0]), "fixed") == "free"  # one class: nothing to keep
    with pytest.raises(InputError, match="classes must be one of"):
        bootstrap(RARE, n_resamples=200, seed=0, classes="strata")


def test_groups_cannot_keep_the_classes_and_the_report_says_how_often_one_was_absent(tmp_path):
    # drawn free on purpose: redrawing resamples of groups that lack a class lowered the coverage of balanced accuracy
    # (benchmarks/README.md, bench_group_classes.py), so the line says how often a class was absent instead
    for name in ("logreg", "tree"):
        d = pd.read_csv(ROOT / f"examples/digits/{name}.csv")
        d["writer"] = np.arange(len(d)) // 3
        d.to_csv(tmp_path / f"{name}.csv", index=False)
    data = advisor.load([tmp_path / "logreg.csv", tmp_path / "tree.csv"], group="writer")
    ctx = build_report(ROOT / "examples/report/digits_answers.yaml", data, seed=2024)
    assert ctx.intervals.classes == "free" and ctx.intervals.group_column == "writer"
    line = next(ln for ln in render_methods(ctx, "md").splitlines() if ln.startswith("- **Balanced accuracy**"))
    # writers of 3 images: class 9's 7 images are with 3 writers or so, and some resamples of 138 writers lack them all
    (label, count), = ctx.intervals.absent_classes.items()
    assert label == "9" and count >= 1
    assert "in the test set and in each resample" in line
    assert f"class “9” {'was' if count == 1 else 'were'} absent from {count:,} of the 2,000 resamples" in line


def test_before_data_the_formula_says_the_resamples_keep_the_classes():
    text = methods_paragraph(ROOT / "examples/report/digits_answers.yaml", "md", seed=7)
    line = next(ln for ln in text.splitlines() if ln.startswith("- **Balanced accuracy**"))
    # the ten digits the answers name, a fixed number in the estimate and in every resample, which the redraw keeps
    # (the blind readers: "fix the class set in advance, k = 4, L = 5, k = 30"), not a rule over the classes present;
    # the redraw itself is said with data, with how often it was needed (tests/test_methods_prose.py), not before (the
    # s41 readers: "a template clause … say 'did not occur' rather than design for it")
    assert line.endswith("Here $k = 10$."), line
    assert "counts only" not in line and "drawn again" not in text
