"""Fast resampling paths give the same numbers as the paths they replace, bit for bit (issues 11, 13)."""

from __future__ import annotations

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.engine._scores import Ranking, score_inputs
from advisor.stats._items import Draws, DrawnRanking


@pytest.mark.parametrize("share", [0.0, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("tied", [False, True])
def test_drawn_ranking_equals_weighted_ranking(share: float, tied: bool) -> None:
    rng = np.random.default_rng(3)
    n = 500
    y = rng.random(n) < share
    s = y + rng.normal(0, 1, n)
    if tied:
        s = np.round(s, 1)
    r = Ranking(s)
    assert r.tied == tied
    draws = Draws(rng.integers(0, n, size=(6, n)))
    auc, ap = DrawnRanking(r, y)(draws.w)
    ref_auc, ref_ap = r.binary(draws.w, y.astype(float))
    np.testing.assert_array_equal(auc, ref_auc)
    np.testing.assert_array_equal(ap, ref_ap)


def test_draws_weights_count_the_drawn_items() -> None:
    idx = np.array([[0, 0, 2, 3], [1, 1, 1, 1]])
    assert Draws(idx).w.tolist() == [[2, 0, 1, 1], [0, 4, 0, 0]]


def test_score_inputs_integer_fast_path_matches_the_general_one() -> None:
    y = np.array([3, 1, 3, 3, 1])
    s = np.linspace(0, 1, 5)
    fast = score_inputs(y, s, positive_label=3)
    slow = score_inputs(list(map(str, y)), s, positive_label="3")
    assert fast[0].tolist() == slow[0].tolist() == [1, 0, 1, 1, 0]
    assert fast[2] == [1, 3] and fast[3] == 1
    with pytest.raises(InputError, match="label 7 at position 2"):
        score_inputs(np.array([1, 3, 7, 7]), np.zeros(4), [1, 3], positive_label=3)
    with pytest.raises(InputError, match="label 7 at position 2"):
        score_inputs([1, 3, 7, 7], np.zeros(4), [1, 3], positive_label=3)
