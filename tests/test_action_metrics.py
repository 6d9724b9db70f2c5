"""The sensitivity and specificity of an action as registry metrics (action_sensitivity, action_specificity).

The murmur reader: a child classified "present" or "unknown" is referred, so an error between those two classes
changes nothing, and the figure that leads is the share of the children to be referred that are referred. The
engine computes it from the confusion matrix given the classes of the action of interest (``action_classes``);
these tests check it by hand, against an independent computation (the matrix collapsed to 2×2 with numpy and
scikit-learn's recall on the collapsed labels), and through the bootstrap (Clopper–Pearson on the counts).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import recall_score
from statsmodels.stats.proportion import proportion_confint

from advisor import ConfusionMatrix, InputError, compute_metrics
from advisor.engine import chance_levels
from advisor.questionnaire import load_answers
from advisor.report import build_report, render_report
from advisor.stats import bootstrap, compare_systems
from advisor.stats._choice import proportion_counts

SITUATIONS = Path(__file__).parent / "situations"
# murmur present / unknown / absent; rows are true classes
HAND = [[30, 5, 5],
        [4, 10, 6],
        [3, 2, 35]]
LABELS = ["present", "unknown", "absent"]
REFERRAL = ["present", "unknown"]


def test_by_hand() -> None:
    got = compute_metrics(ConfusionMatrix(HAND, LABELS), ["action_sensitivity", "action_specificity"],
                          action_classes=REFERRAL)
    # referred among the 60 children to be referred: 30 + 5 + 4 + 10 = 49 (present taken as unknown counts as right)
    assert got["action_sensitivity"] == pytest.approx(49 / 60)
    # not referred among the 40 children with no murmur: 35
    assert got["action_specificity"] == pytest.approx(35 / 40)


def _collapsed_recall(c: np.ndarray, group: np.ndarray) -> tuple[float, float]:
    """Independent: expand the matrix to labels, map each class to its action, recall with scikit-learn."""
    k = c.shape[0]
    rows, cols = np.divmod(np.arange(k * k), k)
    reps = np.asarray(c, dtype=int).reshape(-1)
    y_true = np.repeat(group[rows], reps).astype(int)
    y_pred = np.repeat(group[cols], reps).astype(int)
    return (recall_score(y_true, y_pred, pos_label=1, zero_division=0),
            recall_score(y_true, y_pred, pos_label=0, zero_division=0))


def test_against_a_collapse_to_two_by_two_and_sklearn() -> None:
    rng = np.random.default_rng(7)
    for _ in range(60):
        k = int(rng.integers(2, 6))
        c = rng.integers(0, 12, size=(k, k))
        group = np.zeros(k, dtype=bool)
        group[rng.choice(k, size=int(rng.integers(1, k)), replace=False)] = True
        if not (c[group].sum() > 0 and c[~group].sum() > 0):
            continue
        labels = [f"c{i}" for i in range(k)]
        got = compute_metrics(ConfusionMatrix(c, labels), ["action_sensitivity", "action_specificity"],
                              action_classes=[lab for lab, g in zip(labels, group) if g])
        # numpy collapse: C2[u, v] = Σ over true classes of action u, predicted of action v
        two = np.array([[c[np.ix_(group, group)].sum(), c[np.ix_(group, ~group)].sum()],
                        [c[np.ix_(~group, group)].sum(), c[np.ix_(~group, ~group)].sum()]], dtype=float)
        assert got["action_sensitivity"] == pytest.approx(two[0, 0] / two[0].sum(), abs=1e-12)
        assert got["action_specificity"] == pytest.approx(two[1, 1] / two[1].sum(), abs=1e-12)
        sens, spec = _collapsed_recall(c, group)
        assert got["action_sensitivity"] == pytest.approx(sens, abs=1e-12)
        assert got["action_specificity"] == pytest.approx(spec, abs=1e-12)


def test_bootstrap_gives_clopper_pearson_on_the_counts() -> None:
    cm = ConfusionMatrix(HAND, LABELS)
    bs = bootstrap(cm, n_resamples=300, seed=1, metrics=["action_sensitivity", "action_specificity"],
                   action_classes=REFERRAL)
    assert bs.methods["action_sensitivity"] == bs.methods["action_specificity"] == "clopper_pearson"
    # Clopper–Pearson 95% for 49/60 and 35/40 from statsmodels (beta quantiles), an independent implementation
    for mid, (x, n) in {"action_sensitivity": (49, 60), "action_specificity": (35, 40)}.items():
        lo, hi = proportion_confint(x, n, alpha=0.05, method="beta")
        assert bs[mid]["estimate"] == pytest.approx(x / n)
        assert (bs[mid]["low"], bs[mid]["high"]) == pytest.approx((lo, hi), abs=1e-10)
    assert proportion_counts("action_sensitivity", np.array(HAND), None, np.array([True, True, False])) == (49, 60)


def test_paired_comparison_carries_the_classes() -> None:
    y = np.repeat(np.arange(3), [40, 20, 40])
    rng = np.random.default_rng(3)
    a = np.where(rng.random(100) < 0.8, y, rng.integers(0, 3, 100))
    b = np.where(rng.random(100) < 0.6, y, rng.integers(0, 3, 100))
    names = np.array(LABELS)
    cmp = compare_systems(names[y], {"a": names[a], "b": names[b]}, n_resamples=200, seed=1,
                          metrics=["action_sensitivity"], action_classes=REFERRAL)
    g = np.array([True, True, False])
    for s, p in (("a", a), ("b", b)):
        want = (g[y] & g[p]).sum() / g[y].sum()
        got = cmp.metrics["action_sensitivity"].systems[s]
        assert got.estimate == pytest.approx(want)
        assert got.method == "clopper_pearson"
        assert (got.low, got.high) == pytest.approx(proportion_confint((g[y] & g[p]).sum(), g[y].sum(), 0.05, "beta"),
                                                    abs=1e-10)


def test_refused_in_one_sentence() -> None:
    cm = ConfusionMatrix(HAND, LABELS)
    with pytest.raises(InputError, match="action_classes"):
        compute_metrics(cm, ["action_sensitivity"])
    with pytest.raises(InputError, match="every class"):
        compute_metrics(cm, ["action_specificity"], action_classes=LABELS)
    with pytest.raises(InputError, match="not a class"):
        compute_metrics(cm, ["action_specificity"], action_classes=["murmur"])


def test_chance_levels_of_the_reference_matrices() -> None:
    # the references given by their sums (uniform C_ij = a_i / k, prevalence C_ij = a_i a_j / n), built in full
    c = np.array(HAND, dtype=float)
    a, n = c.sum(axis=1), c.sum()
    got = chance_levels(ConfusionMatrix(HAND, LABELS), ["action_sensitivity", "action_specificity"],
                        action_classes=REFERRAL)
    for name, ref in {"uniform": np.outer(a, np.ones(3) / 3), "prevalence": np.outer(a, a / n)}.items():
        want = compute_metrics(ref, ["action_sensitivity", "action_specificity"], action_classes=[0, 1])
        assert got["action_sensitivity"][name] == pytest.approx(want["action_sensitivity"])
        assert got["action_specificity"][name] == pytest.approx(want["action_specificity"])


def test_the_report_computes_them_and_the_action_table_shares_their_intervals() -> None:
    ctx = build_report(load_answers(SITUATIONS / "murmur.yaml"), {"screener": ConfusionMatrix(HAND, LABELS)},
                       bootstrap=200, seed=1)
    assert ctx.plan is not None and ctx.plan["metrics"][0]["id"] == "action_sensitivity"
    system = ctx.systems[0]
    for mid, (x, n) in {"action_sensitivity": (49, 60), "action_specificity": (35, 40)}.items():
        est = system.intervals[mid]
        lo, hi = proportion_confint(x, n, alpha=0.05, method="beta")
        assert system.values[mid] == pytest.approx(x / n)
        assert est.method == "clopper_pearson" and (est.low, est.high) == pytest.approx((lo, hi), abs=1e-10)
    table = next(t for t in ctx.tables if t.id == "action_rates")
    rows = {r[1]: r for r in table.rows}
    sens = system.intervals["action_sensitivity"]
    assert rows["referral sensitivity"][3] == f"{sens.low:.3f} to {sens.high:.3f}"
    assert "as in the metrics table" in table.caption
    md = render_report(ctx, "md")
    assert md.count("**Referral sensitivity**") == 1  # defined once, in the action's words
