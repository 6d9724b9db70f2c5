"""advisor.confusion_matrix: integer fast path, generic (string / object) path and scikit-learn agree;
labels= fixes the set and order; bad input is one clear InputError."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

from advisor import ConfusionMatrix, InputError, confusion_matrix
from advisor.engine._confusion import _MAX_DENSE_SPAN


def random_labels(seed: int, n: int, k: int, offset: int = 0):
    rng = np.random.default_rng(seed)
    yt = rng.integers(0, k, n) + offset
    yp = np.where(rng.random(n) < 0.5, yt, rng.integers(0, k, n) + offset)
    return yt, yp


@pytest.mark.parametrize("seed", range(12))
def test_integer_labels_match_sklearn(seed):
    k = 2 + seed % 9
    yt, yp = random_labels(seed, 50 + 37 * seed, k)
    cm = confusion_matrix(yt, yp)
    labels = sorted(set(yt) | set(yp))
    assert cm.labels == tuple(int(x) for x in labels)
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(yt, yp, labels=labels))
    assert cm.counts.dtype == np.float64
    assert all(type(x) is int for x in cm.labels)


@pytest.mark.parametrize("seed", range(6))
def test_string_path_equals_integer_path(seed):
    yt, yp = random_labels(100 + seed, 300, 7)
    names = np.array([f"class_{i}" for i in range(7)])
    st, sp = names[yt], names[yp]
    c_int, c_str = confusion_matrix(yt, yp), confusion_matrix(st, sp)
    assert c_str.labels == tuple(f"class_{i}" for i in c_int.labels)
    np.testing.assert_array_equal(c_int.counts, c_str.counts)
    np.testing.assert_array_equal(c_str.counts, skm.confusion_matrix(st, sp, labels=list(c_str.labels)))
    assert all(type(x) is str for x in c_str.labels)  # numpy str_ → plain str
    # plain Python lists take the same route
    np.testing.assert_array_equal(confusion_matrix(list(st), list(sp)).counts, c_str.counts)


def test_fast_path_equals_generic_path():
    yt, yp = random_labels(7, 500, 6, offset=-2)
    fast = confusion_matrix(yt, yp)
    generic = confusion_matrix(yt.astype(object), yp.astype(object))  # object arrays: generic path
    assert fast == generic
    # a span beyond the dense limit also goes the generic way
    big = np.where(yt == 3, _MAX_DENSE_SPAN * 4, yt)
    cm = confusion_matrix(big, yp)
    labels = sorted(set(big) | set(yp))
    assert cm.labels == tuple(int(x) for x in labels)
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(big, yp, labels=labels))


def test_negative_integers():
    yt = np.array([-3, -1, 0, 2, -3, 2, -1])
    yp = np.array([-3, 0, 0, 2, -1, -3, -1])
    cm = confusion_matrix(yt, yp)
    assert cm.labels == (-3, -1, 0, 2)
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(yt, yp, labels=[-3, -1, 0, 2]))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint32, np.int64])
def test_integer_dtypes(dtype):
    yt, yp = random_labels(3, 200, 5)
    cm = confusion_matrix(yt.astype(dtype), yp.astype(dtype))
    np.testing.assert_array_equal(cm.counts, confusion_matrix(yt, yp).counts)
    assert cm.labels == confusion_matrix(yt, yp).labels


def test_booleans_become_integers():
    yt = np.array([True, False, True, True, False])
    yp = np.array([True, True, False, True, False])
    cm = confusion_matrix(yt, yp)
    assert cm.labels == (0, 1)
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(yt, yp, labels=[False, True]))
    assert confusion_matrix(list(yt), list(yp)) == cm


def test_integral_floats_become_integers_and_others_are_rejected():
    cm = confusion_matrix([1.0, 2.0, 2.0], [1.0, 1.0, 2.0])
    assert cm.labels == (1, 2)
    with pytest.raises(InputError, match="y_true"):
        confusion_matrix([1.5, 2.0], [1.0, 2.0])
    with pytest.raises(InputError, match="y_pred"):
        confusion_matrix([1.0, 2.0], [np.nan, 2.0])


def test_mixed_int_and_string_labels():
    cm = confusion_matrix([1, "cat", 2, "cat"], ["cat", "cat", 2, 1])
    assert cm.labels == (1, 2, "cat")  # integers (numerically) first, then strings
    np.testing.assert_array_equal(cm.counts, [[0, 0, 1], [0, 1, 0], [1, 0, 1]])
    # numbers stay numbers (numpy alone would make the list a string array and sort "10" before "2")
    assert confusion_matrix([2, 10, "x"], [10, 10, "x"]).labels == (2, 10, "x")
    # "1" and 1 denote the same class (a CSV column and a JSON number must match)
    same = confusion_matrix([1, "1", 2], ["1", 1, 2])
    assert same.k == 2 and same.counts.trace() == 3


def test_labels_fix_order_and_add_absent_classes():
    yt, yp = [2, 0, 1, 1, 2], [2, 1, 1, 0, 0]
    cm = confusion_matrix(yt, yp, labels=[2, 0, 1, 7])
    assert cm.labels == (2, 0, 1, 7)
    np.testing.assert_array_equal(cm.counts, skm.confusion_matrix(yt, yp, labels=[2, 0, 1, 7]))
    assert cm.counts[3].sum() == 0 and cm.counts[:, 3].sum() == 0
    s = confusion_matrix(["b", "a", "c"], ["b", "b", "a"], labels=["c", "b", "a", "zzz"])
    assert s.labels == ("c", "b", "a", "zzz")
    np.testing.assert_array_equal(s.counts, skm.confusion_matrix(["b", "a", "c"], ["b", "b", "a"], labels=["c", "b", "a", "zzz"]))


def test_labels_below_and_above_the_data_range():
    cm = confusion_matrix([5, 6, 6], [6, 6, 5], labels=[-1, 5, 6, 100])
    np.testing.assert_array_equal(cm.counts, [[0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]])


def test_string_labels_for_integer_data():
    cm = confusion_matrix([1, 2, 2], [1, 1, 2], labels=["2", "1"])
    assert cm.labels == ("2", "1")
    np.testing.assert_array_equal(cm.counts, [[1, 1], [0, 1]])


@pytest.mark.parametrize("yt,yp,labels,missing", [
    ([0, 1, 2], [0, 1, 1], [0, 1], "2"),
    ([0, 1, 1], [0, 3, 1], [0, 1], "3"),
    (["a", "b"], ["a", "c"], ["a", "b"], "c"),
    ([0, 1], [0, 1 << 20], [0, 1], str(1 << 20)),
])
def test_unknown_label_is_an_error_naming_it(yt, yp, labels, missing):
    with pytest.raises(InputError, match=missing) as e:
        confusion_matrix(yt, yp, labels=labels)
    assert "labels" in str(e.value)


@pytest.mark.parametrize("kind", ["int", "str"])
def test_sample_weight_matches_sklearn(kind):
    yt, yp = random_labels(11, 400, 5)
    w = np.random.default_rng(1).uniform(0, 3, 400)
    if kind == "str":
        yt, yp = np.array(list("vwxyz"))[yt], np.array(list("vwxyz"))[yp]
    cm = confusion_matrix(yt, yp, sample_weight=w)
    np.testing.assert_allclose(cm.counts, skm.confusion_matrix(yt, yp, labels=list(cm.labels), sample_weight=w), rtol=1e-12)
    assert cm.n == pytest.approx(w.sum())
    # integer weights = repeated items
    iw = np.random.default_rng(2).integers(0, 4, 400)
    np.testing.assert_array_equal(confusion_matrix(yt, yp, sample_weight=iw).counts,
                                  confusion_matrix(np.repeat(yt, iw), np.repeat(yp, iw), labels=list(cm.labels)).counts)


def test_sample_weight_with_labels():
    cm = confusion_matrix([0, 1, 1], [0, 1, 0], labels=[1, 0, 2], sample_weight=[0.5, 2.0, 1.5])
    np.testing.assert_array_equal(cm.counts, [[2.0, 1.5, 0], [0, 0.5, 0], [0, 0, 0]])


@pytest.mark.parametrize("w,match", [
    ([1.0, 2.0], "sample_weight"),
    ([1.0, -1.0, 1.0], "sample_weight"),
    ([1.0, np.nan, 1.0], "sample_weight"),
    ([1.0, np.inf, 1.0], "sample_weight"),
])
def test_bad_sample_weight(w, match):
    with pytest.raises(InputError, match=match):
        confusion_matrix([0, 1, 1], [0, 1, 0], sample_weight=w)


def test_bad_arrays():
    with pytest.raises(InputError, match="same length"):
        confusion_matrix([0, 1, 1], [0, 1])
    with pytest.raises(InputError, match="empty"):
        confusion_matrix([], [])
    with pytest.raises(InputError, match="one-dimensional"):
        confusion_matrix([[0, 1], [1, 0]], [[0, 1], [1, 0]])
    with pytest.raises(InputError):
        confusion_matrix([0, None], [0, 1])


def test_result_is_read_only_and_round_trips():
    cm = confusion_matrix(["x", "y", "y"], ["x", "x", "y"])
    with pytest.raises(ValueError):
        cm.counts[0, 0] = 5
    assert ConfusionMatrix.from_dict(cm.to_dict()) == cm
    assert cm.true_sizes.tolist() == [1, 2] and cm.predicted_sizes.tolist() == [2, 1]


def test_single_class_data():
    cm = confusion_matrix([3, 3, 3], [3, 3, 3])
    assert cm.labels == (3,) and cm.counts.tolist() == [[3.0]]
    cm2 = confusion_matrix([3, 3, 3], [3, 3, 3], labels=[3, 4])
    assert cm2.counts.tolist() == [[3.0, 0.0], [0.0, 0.0]]
