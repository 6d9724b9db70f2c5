"""Selective prediction by true class (issue 22, the dermatology reader: "nothing stops the lead being met by
deferring the rare cancers"): at the target coverage, each class's share answered and the recall among those
answered, under the tie convention of the selective risk."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from advisor.engine import selective_by_class, selective_risk
from advisor.engine._selective import answered_share
from advisor.report import methods_texts


def _direct(truth, error, conf, coverage, k):
    """Item by item over every order of the ties, averaged: the expected share answered and right answers."""
    n = len(conf)
    m = int(np.ceil(n * coverage - 1e-9))
    rng = np.random.default_rng(0)
    answered = np.zeros(n)
    for _ in range(4000):  # random order within ties; the mean converges to the fractional tie convention
        order = np.lexsort((rng.random(n), -np.asarray(conf)))
        a = np.zeros(n)
        a[order[:m]] = 1
        answered += a
    answered /= 4000
    out = {}
    for i in range(k):
        mine = truth == i
        ans = answered[mine].sum()
        out[i] = (ans / mine.sum(), (answered[mine] * (1 - error[mine])).sum() / ans if ans else None)
    return out


def test_the_answered_share_shares_the_tie_at_the_cut_and_sums_to_the_answered_count() -> None:
    a = answered_share([0.9, 0.8, 0.8, 0.8, 0.1], 0.6)  # m = 3: one above, two of the three tied
    assert a.tolist() == pytest.approx([1, 2 / 3, 2 / 3, 2 / 3, 0])
    rng = np.random.default_rng(1)
    conf = rng.integers(0, 5, 200) / 5  # many ties
    for c in (0.1, 0.5, 0.8, 1.0):
        assert answered_share(conf, c).sum() == pytest.approx(np.ceil(200 * c))


def test_per_class_shares_agree_with_the_selective_risk_and_a_direct_count() -> None:
    rng = np.random.default_rng(2)
    n, k = 300, 4
    truth = rng.integers(0, k, n)
    error = (rng.random(n) < 0.2).astype(float)
    conf = np.round(rng.random(n), 1)  # ties
    r = selective_by_class(truth, error, conf, 0.8, ["a", "b", "c", "d"])
    want = _direct(truth, error, conf, 0.8, k)
    for i, lab in enumerate("abcd"):
        assert r[lab]["n"] == (truth == i).sum()
        assert r[lab]["answered"] == pytest.approx(want[i][0], abs=0.01)
        assert r[lab]["recall_answered"] == pytest.approx(want[i][1], abs=0.01)
    # the classes' right answers add up to the selective risk's
    m = np.ceil(0.8 * n)
    right = sum(r[lab]["answered"] * r[lab]["n"] * r[lab]["recall_answered"] for lab in "abcd")
    assert 1 - right / m == pytest.approx(float(selective_risk(error, conf, 0.8)), abs=1e-12)


def test_a_deferred_class_shows() -> None:
    # the rare class is the least confident: at 80% coverage none of it is answered
    truth = np.array([0] * 8 + [1] * 2)
    conf = np.array([0.9] * 8 + [0.1] * 2)
    r = selective_by_class(truth, np.zeros(10), conf, 0.8, ["nevus", "melanoma"])
    assert r["melanoma"]["answered"] == 0.0 and r["melanoma"]["recall_answered"] is None
    assert r["nevus"]["answered"] == 1.0


def test_the_paragraph_promises_the_view_in_the_authors_words() -> None:
    answers = dict(context="Lesions are classified; the system may defer a lesion.", item_name="lesion",
                   task="multiclass", classes=["melanoma", "nevus", "keratosis"], abstention=True,
                   target_coverage=0.8, outputs="probabilities")
    text = methods_texts(answers, seed=1)[0]
    # no cut fixed in advance: the by-class figures at the cut frozen on the calibration half
    assert ("For each class we also give the share of its lesions answered at that cut and the recall among "
            "them, so a cut met by deferring one class shows") in text
    text = methods_texts({**answers, "operating_point": "fixed"}, seed=1)[0]
    assert ("For each class we also give the share of its lesions answered at 80% coverage and the recall among "
            "them, so a cut met by deferring one class shows") in text


def test_the_per_class_table_s_recall_is_said_to_be_with_every_item_answered() -> None:
    # the derm reader (issue 22): "We also give the recall of every class" beside the recall among the answered
    # lesions left the reader asking which recall; the per-class table scores a deferred lesion by its top class
    answers = yaml.safe_load((Path(__file__).resolve().parent / "situations" / "derm.yaml").read_text())
    text = methods_texts(answers, seed=1)[0]
    assert "the recall of every class with all lesions answered" in text
    assert "We also give the recall of every class." not in text
