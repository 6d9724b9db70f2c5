"""Paired proportions of two systems on the same items (blind readers of the diagnostic-accuracy situation:
"paired sensitivities and specificities are customarily compared with McNemar's test and a Newcombe interval").

* Newcombe's (1998) method 10 against published values: the worked examples of the paper's Table III as
  (e, f, g, h) = (36, 12, 2, 0) → [0.0569, 0.3404] and (20, 12, 2, 16) → [0.0562, 0.3292]; and Fagerland, Lydersen &
  Laake's Cavo et al. (2012) table [[59, 6], [16, 80]] → [−0.1186, −0.0046] (R package contingencytables, its
  ``Newcombe_square_and_add_CI_paired_2x2`` test). Each is printed to 4 decimals, so agreement is within 5e-5.
* Edge cases: no discordant item, every discordant item one way, no item.
* compare_systems: McNemar's exact test of the discordant positives (negatives) for recall (specificity), beside
  accuracy's, and Newcombe's interval as the difference's; precision keeps the bootstrap; with groups, neither.
"""

from __future__ import annotations

import numpy as np
import pytest

from advisor.stats import compare_systems
from advisor.stats._proportions import binomial_two_sided, newcombe_paired, wilson


@pytest.mark.parametrize("table, expected", [
    ((36, 12, 2, 0), (0.0569, 0.3404)),
    ((20, 12, 2, 16), (0.0562, 0.3292)),
    ((59, 6, 16, 80), (-0.1186, -0.0046)),
])
def test_newcombe_matches_published_examples(table, expected):
    lo, hi = newcombe_paired(*table, 0.95)
    assert lo == pytest.approx(expected[0], abs=5e-5) and hi == pytest.approx(expected[1], abs=5e-5)


def test_newcombe_is_antisymmetric_and_contains_the_estimate():
    lo, hi = newcombe_paired(20, 12, 2, 16, 0.95)
    rlo, rhi = newcombe_paired(20, 2, 12, 16, 0.95)
    assert (rlo, rhi) == pytest.approx((-hi, -lo), abs=1e-12)
    assert lo < (12 - 2) / 50 < hi


def test_newcombe_without_discordant_items_is_centred_at_zero_with_a_width():
    lo, hi = newcombe_paired(30, 0, 0, 0, 0.95)  # both margins 1: φ = 0, the Wilson lower ends' distance from 1
    w = 1.0 - wilson(30, 30, 0.95)[0]
    assert (lo, hi) == pytest.approx((-w, w), abs=1e-12)
    lo, hi = newcombe_paired(10, 0, 0, 5, 0.95)  # perfectly correlated: narrower than with φ = 0
    (l, u), p = wilson(10, 15, 0.95), 10 / 15
    assert lo == pytest.approx(-hi) and 0 < hi < np.hypot(u - p, p - l)


def test_newcombe_with_every_discordant_item_one_way():
    lo, hi = newcombe_paired(0, 10, 0, 0, 0.95)  # p1 = 1, p2 = 0: the upper end is 1, the lower the margins' Wilson ends
    l1, u2 = wilson(10, 10, 0.95)[0], wilson(0, 10, 0.95)[1]
    assert hi == pytest.approx(1.0) and lo == pytest.approx(1.0 - np.hypot(1.0 - l1, u2), abs=1e-12)
    assert -1.0 <= lo <= hi <= 1.0
    assert all(np.isnan(newcombe_paired(0, 0, 0, 0, 0.95)))


def _two_systems():
    y = np.array([1] * 60 + [0] * 140)
    a = y.copy()
    b = y.copy()
    a[:6], b[6:20] = 0, 0  # positives: A misses 6, B misses 14 others → A only 14, B only 6
    a[60:70], b[70:73] = 1, 1  # negatives: A false-alarms on 10, B on 3 others
    return y, a, b


def test_compare_tests_recall_and_specificity_with_mcnemar_and_newcombe():
    y, a, b = _two_systems()
    cmp = compare_systems(y, {"A": a, "B": b}, n_resamples=200, seed=3, positive_label=1,
                          metrics=["recall", "specificity", "precision", "accuracy"])
    by = {t.metric: t for t in cmp.mcnemar}
    assert cmp.mcnemar[0].metric == "accuracy" and set(by) == {"accuracy", "recall", "specificity"}
    assert (by["recall"].a_only, by["recall"].b_only) == (14, 6)
    assert (by["specificity"].a_only, by["specificity"].b_only) == (3, 10)
    assert by["recall"].p == pytest.approx(binomial_two_sided(14, 6))
    rec = cmp.difference("A", "B", "recall")
    assert rec.method == "newcombe" and rec.estimate == pytest.approx(8 / 60)
    assert (rec.low, rec.high) == pytest.approx(newcombe_paired(40, 14, 6, 0, 0.95))  # 40 found by both
    spec = cmp.difference("A", "B", "specificity")
    assert spec.method == "newcombe" and (spec.low, spec.high) == pytest.approx(newcombe_paired(127, 3, 10, 0, 0.95))
    assert cmp.difference("A", "B", "precision").method != "newcombe"  # its denominators are each system's own calls
    assert cmp.to_dict()["mcnemar"][1]["metric"] in ("recall", "specificity")


def test_compare_with_groups_changes_nothing():
    y, a, b = _two_systems()
    groups = np.arange(len(y)) // 2
    cmp = compare_systems(y, {"A": a, "B": b}, n_resamples=200, seed=3, positive_label=1,
                          metrics=["recall", "specificity"], groups=groups)
    assert cmp.mcnemar == []
    assert all(p.difference.method != "newcombe" for mc in cmp.metrics.values() for p in mc.pairs)
