"""The standardized mean difference of automated essay scoring (Williamson, Xi & Breyer 2012), checked against a
direct numpy computation on the item scores."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalogue import get_catalogue
from advisor.engine import ordinal_cells, ordinal_metrics


def _direct(human: np.ndarray, machine: np.ndarray) -> float:
    """(mean machine − mean human) / √((SD_machine² + SD_human²)/2), SDs with divisor n − 1."""
    return float((machine.mean() - human.mean()) / np.sqrt((machine.var(ddof=1) + human.var(ddof=1)) / 2))


@pytest.mark.parametrize("seed", range(5))
def test_smd_matches_numpy_on_item_scores(seed):
    rng = np.random.default_rng(seed)
    human = rng.integers(1, 7, size=200)
    machine = np.clip(human + rng.integers(-1, 3, size=200), 1, 6)
    cells = ordinal_cells(y_true=human, y_pred=machine, order=[1, 2, 3, 4, 5, 6])
    got = ordinal_metrics(cells, ["smd"])["smd"]
    assert got == pytest.approx(_direct(human.astype(float), machine.astype(float)), rel=1e-12)


def test_smd_uses_class_values_and_sign():
    # half points: values 1, 1.5, 2 — the machine one half point higher on every essay
    human = np.array([1.0, 1.5, 2.0, 1.5, 1.0, 2.0])
    machine = np.array([1.5, 2.0, 2.0, 2.0, 1.5, 2.0])
    cells = ordinal_cells(y_true=human, y_pred=machine, order=[1.0, 1.5, 2.0])
    got = ordinal_metrics(cells, ["smd"])["smd"]
    assert got > 0
    assert got == pytest.approx(_direct(human, machine), rel=1e-12)
    swapped = ordinal_metrics(ordinal_cells(y_true=machine, y_pred=human, order=[1.0, 1.5, 2.0]), ["smd"])["smd"]
    assert swapped == pytest.approx(-got)


def test_smd_hand_value():
    # human 1, 2, 3, 4; machine 2, 3, 4, 5: means 2.5 and 3.5, both variances 5/3 → SMD = 1/√(5/3)
    cells = ordinal_cells(y_true=[1, 2, 3, 4], y_pred=[2, 3, 4, 5], order=[1, 2, 3, 4, 5])
    assert ordinal_metrics(cells, ["smd"])["smd"] == pytest.approx(1 / np.sqrt(5 / 3))


def test_smd_undefined_when_both_constant():
    cells = ordinal_cells(y_true=[2, 2, 2], y_pred=[3, 3, 3], order=[1, 2, 3])
    res = ordinal_metrics(cells, ["smd"])
    assert res["smd"] == 0.0 and any(u.metric == "smd" for u in res.undefined)
    assert np.isnan(ordinal_metrics(cells, ["smd"], undefined="omit")["smd"])


def test_smd_is_not_reported_unless_asked_and_its_record_is_signed():
    assert "smd" not in dict(ordinal_metrics([[3, 1], [1, 3]]).items())
    rec = get_catalogue().metrics["smd"]
    assert rec.target == 0 and not rec.higher_is_better and rec.structure == "ordinal"
    assert "williamson2012framework" in rec.references
