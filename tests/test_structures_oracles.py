"""Ordinal, multi-label, top-k and agreement metrics against independent implementations (to 1e-9).

Oracles: scikit-learn (cohen_kappa_score with weights, top_k_accuracy_score, f1_score on indicator
arrays with every average, hamming_loss, accuracy_score), the ``krippendorff`` package and
statsmodels' fleiss_kappa. Random and edge inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.engine._agreement import agreement_metrics, ratings_table
from advisor.engine._multilabel import label_sets, multilabel_metrics, per_label_metrics
from advisor.engine._ordinal import ordinal_cells, ordinal_metrics
from advisor.engine._topk import top_k_accuracy

sk = pytest.importorskip("sklearn.metrics")
TOL = 1e-9


def _ordinal_cases(rng: np.random.Generator):
    for _ in range(150):
        k = int(rng.integers(2, 9))
        n = int(rng.integers(1, 60))
        t = rng.integers(0, k, n)
        noise = rng.integers(-2, 3, n) * (rng.random(n) < 0.6)
        p = np.clip(t + noise, 0, k - 1)
        if rng.random() < 0.2:
            p = rng.integers(0, k, n)
        yield k, t, p
    yield 3, np.array([0, 0, 0]), np.array([0, 0, 0])  # one class, identical
    yield 4, np.array([0, 3, 3]), np.array([3, 0, 0])  # extreme errors
    yield 5, np.array([1, 1, 1, 1]), np.array([0, 2, 3, 4])  # truth constant


def test_ordinal_against_sklearn():
    rng = np.random.default_rng(1)
    checked = 0
    for k, t, p in _ordinal_cases(rng):
        cells = ordinal_cells(y_true=t, y_pred=p, order=list(range(k)))
        r = ordinal_metrics(cells)
        assert abs(r["mae"] - sk.mean_absolute_error(t, p)) <= TOL
        classes = np.unique(t)
        macro = np.mean([np.abs(p[t == c] - c).mean() for c in classes])
        assert abs(r["mae_macro"] - macro) <= TOL
        for w, mid in (("linear", "weighted_kappa_linear"), ("quadratic", "weighted_kappa_quadratic")):
            if len(np.unique(np.concatenate([t, p]))) < 2:
                continue  # scikit-learn returns NaN (0/0); our convention is tested separately
            ref = sk.cohen_kappa_score(t, p, weights=w, labels=list(range(k)))
            assert abs(r[mid] - ref) <= TOL, (mid, t, p)
            checked += 1
    assert checked > 250


def test_ordinal_from_matrix_matches_labels_and_conventions():
    m = np.array([[3, 1, 0], [1, 2, 1], [0, 1, 3]])
    t = np.repeat(np.arange(3), m.sum(1))
    p = np.concatenate([np.repeat(np.arange(3), row) for row in m])
    a, b = ordinal_metrics(m), ordinal_metrics(ordinal_cells(y_true=t, y_pred=p, order=[0, 1, 2]))
    assert all(abs(a[x] - b[x]) <= TOL for x in a)
    same = [[5, 0], [0, 0]]
    assert ordinal_metrics(same, undefined="zero")["weighted_kappa_quadratic"] == 0.0
    assert ordinal_metrics(same, undefined="baseline")["weighted_kappa_linear"] == 1.0
    r = ordinal_metrics([[2, 1, 0], [0, 0, 0], [0, 1, 1]])
    assert [u.label for u in r.undefined] == [1]  # a class absent from the truth is left out of macro MAE


def test_ordinal_label_outside_order_is_one_sentence():
    with pytest.raises(InputError, match="not in the ordinal order"):
        ordinal_cells(y_true=["low", "high", "huge"], y_pred=["low", "low", "low"], order=["low", "mid", "high"])


def _indicators(rng, n, L, density):
    return (rng.random((n, L)) < density).astype(int)


@pytest.mark.parametrize("seed", range(6))
def test_multilabel_against_sklearn(seed):
    rng = np.random.default_rng(seed)
    for _ in range(30):
        n, L = int(rng.integers(1, 40)), int(rng.integers(2, 8))  # one column: scikit-learn sees a binary task
        t = _indicators(rng, n, L, rng.uniform(0.05, 0.6))
        p = np.where(rng.random((n, L)) < 0.7, t, 1 - t)
        # omit (the default) is scikit-learn's zero_division=np.nan: an undefined label left out of the macro mean
        for conv, zd in (("zero", 0.0), ("baseline", 1.0), ("omit", np.nan)):
            r = multilabel_metrics(t, p, undefined=conv)
            for avg in ("micro", "macro", "samples"):
                # issue 22: an item with two empty sets is predicted exactly, F1 1 under every convention
                ref = sk.f1_score(t, p, average=avg, zero_division=1.0 if avg == "samples" else zd)
                got = r[f"multilabel_{avg}_f1"]
                assert abs(got - ref) <= TOL or (np.isnan(got) and np.isnan(ref)), (avg, conv)
        assert abs(r["hamming_loss"] - sk.hamming_loss(t, p)) <= TOL
        assert abs(r["subset_accuracy"] - sk.accuracy_score(t, p)) <= TOL
        # weighted ("none" per label) F1 and every per-label binary metric: each label its own binary task
        per = per_label_metrics(label_sets(t, p), ["f1", "precision", "recall", "jaccard"], undefined="zero")
        f1s = sk.f1_score(t, p, average=None, zero_division=0.0)
        pr = sk.precision_score(t, p, average=None, zero_division=0.0)
        rc = sk.recall_score(t, p, average=None, zero_division=0.0)
        ja = sk.jaccard_score(t, p, average=None, zero_division=0.0)
        for j in range(L):
            assert abs(per[j]["f1"] - f1s[j]) <= TOL and abs(per[j]["precision"] - pr[j]) <= TOL
            assert abs(per[j]["recall"] - rc[j]) <= TOL and abs(per[j]["jaccard"] - ja[j]) <= TOL


def test_multilabel_edges_and_micro_f1_is_not_accuracy():
    t = [[1, 0, 0], [0, 0, 0], [1, 1, 0]]
    p = [[1, 0, 0], [0, 0, 1], [1, 1, 1]]
    r = multilabel_metrics(t, p)
    assert abs(r["multilabel_micro_f1"] - sk.f1_score(t, p, average="micro")) <= TOL
    assert r["multilabel_micro_f1"] != r["subset_accuracy"]
    empty = multilabel_metrics([[0, 0]], [[0, 0]], undefined="omit")
    assert np.isnan(empty["multilabel_macro_f1"]) and empty["subset_accuracy"] == 1.0
    with pytest.raises(InputError, match="same shape"):
        multilabel_metrics([[1, 0]], [[1, 0, 1]])


@pytest.mark.filterwarnings("ignore:'k' .* greater than or equal")  # k = number of classes is an edge case
def test_top_k_against_sklearn():
    rng = np.random.default_rng(3)
    for _ in range(100):
        n, c = int(rng.integers(2, 60)), int(rng.integers(3, 30))
        s = rng.random((n, c))
        y = rng.integers(0, c, n)
        for k in (1, 2, min(5, c), c):
            ref = sk.top_k_accuracy_score(y, s, k=k, labels=list(range(c)))
            assert abs(top_k_accuracy(s, y, k)["top_k_accuracy"] - ref) <= TOL


def test_top_k_ties_and_bad_k():
    s = [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4]]
    assert top_k_accuracy(s, [1, 0], 1)["top_k_accuracy"] == 0.25  # half a hit, then a miss
    with pytest.raises(InputError, match="top_k must be a whole number from 1 to the number of classes"):
        top_k_accuracy(s, [1, 0], 4)


def test_krippendorff_against_package():
    kr = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(7)
    for _ in range(80):
        items, raters, c = int(rng.integers(3, 40)), int(rng.integers(2, 6)), int(rng.integers(2, 6))
        truth = rng.integers(0, c, items)
        data = np.where(rng.random((items, raters)) < 0.7, truth[:, None], rng.integers(0, c, (items, raters))).astype(float)
        data[rng.random(data.shape) < 0.15] = np.nan
        if np.unique(data[~np.isnan(data)]).size < 2 or np.all(np.isnan(data), axis=0).any():
            continue
        if (np.sum(~np.isnan(data), axis=1) >= 2).sum() == 0:
            continue
        r = agreement_metrics(ratings_table(data.tolist(), categories=list(range(c))),
                              ["krippendorff_alpha", "krippendorff_alpha_ordinal"])
        ref_n = kr.alpha(reliability_data=data.T, level_of_measurement="nominal")
        ref_o = kr.alpha(reliability_data=data.T, level_of_measurement="ordinal")
        assert abs(r["krippendorff_alpha"] - ref_n) <= TOL
        assert abs(r["krippendorff_alpha_ordinal"] - ref_o) <= TOL


def test_fleiss_against_statsmodels():
    irr = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(11)
    for _ in range(80):
        items, raters, c = int(rng.integers(2, 40)), int(rng.integers(2, 7)), int(rng.integers(2, 6))
        truth = rng.integers(0, c, items)
        data = np.where(rng.random((items, raters)) < 0.6, truth[:, None], rng.integers(0, c, (items, raters)))
        if np.unique(data).size < 2:
            continue
        r = agreement_metrics(data.tolist(), ["fleiss_kappa"])
        table, _ = irr.aggregate_raters(data)
        assert abs(r["fleiss_kappa"] - irr.fleiss_kappa(table, method="fleiss")) <= TOL


def test_agreement_bad_input():
    with pytest.raises(InputError, match="annotator column 'rater_b' has no ratings"):
        ratings_table([["x", None], ["y", None]], ["rater_a", "rater_b"])
    with pytest.raises(InputError, match="same number"):
        agreement_metrics([["x", "x", None], ["y", "y", "y"]], ["fleiss_kappa"])
    assert "fleiss_kappa" not in agreement_metrics([["x", "x", None], ["y", "y", "x"]])


def test_nominal_metrics_beside_the_ordinal_ones_equal_the_engine():
    from advisor.engine import compute_metrics
    from advisor.engine._structures import nominal_beside

    m = np.array([[5, 2, 0], [1, 4, 2], [0, 3, 6]])
    got = nominal_beside(ordinal_cells(m))
    ref = compute_metrics(m, ["accuracy", "balanced_accuracy"])
    assert abs(got["accuracy"] - ref["accuracy"]) <= TOL and abs(got["balanced_accuracy"] - ref["balanced_accuracy"]) <= TOL


# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example with missing values: four observers,
# twelve units (None: no rating); the paper gives alpha 0.743 nominal, 0.815 ordinal and 0.849 interval
_K2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
          [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
          [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
          [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def _printed_ordinal_alpha(units: list[list[int]], categories: list[int], lo: Any, hi: Any) -> float:
    """The catalogue's ordinal alpha as printed, transcribed term by term: coincidences o_cc', n_c = Σ_c' o_cc',
    n_·· = Σ_c n_c, d_cc' = (Σ_{g=lo(c,c')}^{hi(c,c')} n_g − (n_c + n_c')/2)²."""
    idx = {v: i for i, v in enumerate(categories)}
    q = len(categories)
    o = np.zeros((q, q))
    for values in units:
        m_u = len(values)
        if m_u < 2:
            continue
        n_u = np.bincount([idx[v] for v in values], minlength=q).astype(float)
        o += (np.outer(n_u, n_u) - np.diag(n_u)) / (m_u - 1)
    n_c = o.sum(1)
    n_all = n_c.sum()
    d = np.array([[(sum(n_c[g] for g in range(lo(c, c2), hi(c, c2) + 1)) - (n_c[c] + n_c[c2]) / 2) ** 2
                   for c2 in range(q)] for c in range(q)])
    return float(1 - (n_all - 1) * (o * d).sum() / (np.outer(n_c, n_c) * d).sum())


def test_the_printed_ordinal_alpha_is_krippendorffs():
    """The ordinal distance sums the pairable values from the lower to the higher category of the pair: the printed
    Σ_{g=c}^{k} was empty for c > k, which halves neither side and gives another number (field reader, issue 22)."""
    from advisor.catalogue import get_catalogue

    formula = get_catalogue().metrics["krippendorff_alpha_ordinal"].formula
    assert r"\sum_{g=\min(c,c')}^{\max(c,c')}n_g" in formula
    units = [[r[u] for r in _K2011 if r[u] is not None] for u in range(12)]
    printed = _printed_ordinal_alpha(units, [1, 2, 3, 4, 5], min, max)
    assert printed == pytest.approx(0.815, abs=5e-4)  # Krippendorff (2011)
    literal = _printed_ordinal_alpha(units, [1, 2, 3, 4, 5], lambda c, c2: c, lambda c, c2: c2)  # g from c up to c'
    assert abs(literal - 0.815) > 0.01
    kr = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(3)
    for _ in range(40):
        items, raters, c = int(rng.integers(3, 30)), int(rng.integers(2, 5)), int(rng.integers(2, 6))
        truth = rng.integers(0, c, items)
        data = np.where(rng.random((items, raters)) < 0.6, truth[:, None], rng.integers(0, c, (items, raters)))
        if np.unique(data).size < 2:
            continue
        mine = _printed_ordinal_alpha([list(row) for row in data], list(range(c)), min, max)
        ref = kr.alpha(reliability_data=data.T.astype(float), level_of_measurement="ordinal", value_domain=list(range(c)))
        assert mine == pytest.approx(ref, abs=TOL)
        r = agreement_metrics(ratings_table(data.tolist(), categories=list(range(c))), ["krippendorff_alpha_ordinal"])
        assert r["krippendorff_alpha_ordinal"] == pytest.approx(mine, abs=TOL)
