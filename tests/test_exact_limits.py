"""Issue 25 items 6 and 7: no count is swallowed, no rate cancels.

Item 6. A whole-number total of 2⁵³ or more cannot be counted in float64 (``2⁵³ + 1`` is ``2⁵³``), and
the engine's tolerance then made a class of 10 items beside 10¹⁶ vanish (MCC 0, BA 0.5, exit 0). Such
totals are now refused — CLI and Python API alike, from exactly 2⁵³ — with the limit and the way
around; and no tolerance decides that anything is zero, so a fractional class of weight 10⁻³ beside
10¹⁵ is a class. Item 7. ``LR+ = TPR / (1 − TNR)`` cancelled at large counts (1,500,199,742,628.4
where the exact value is 1,500,000,000,000.5); every rate of the form ``1 − x`` now comes from the counts.
The references below are exact (``fractions.Fraction``, ``decimal`` at 60 digits).
"""

from __future__ import annotations

import json
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

import advisor
from advisor import InputError

LIMIT = 2**53
getcontext().prec = 60


# ------------------------------------------------------------------------------------------------
# exact references
# ------------------------------------------------------------------------------------------------
def _F(x):
    return Fraction(x) if not isinstance(x, float) else Fraction(x)  # a float is its exact binary value


def exact_multiclass(C):
    """Exact accuracy, BA, macro F1, kappa, MCC (Decimal) and per-class specificity of a matrix."""
    C = [[_F(x) for x in row] for row in C]
    k = len(C)
    a = [sum(C[i]) for i in range(k)]
    b = [sum(C[i][j] for i in range(k)) for j in range(k)]
    n = sum(a)
    tp = [C[i][i] for i in range(k)]
    rec = [tp[i] / a[i] if a[i] else Fraction(0) for i in range(k)]
    f1 = [2 * tp[i] / (a[i] + b[i]) if a[i] + b[i] else Fraction(0) for i in range(k)]
    tn = [n - a[i] - b[i] + tp[i] for i in range(k)]
    spec = [tn[i] / (n - a[i]) if n - a[i] else Fraction(0) for i in range(k)]
    s = sum(tp)
    pe = sum(a[i] * b[i] for i in range(k))
    kappa = (n * s - pe) / (n * n - pe) if n * n - pe else Fraction(0)
    va, vb = n * n - sum(x * x for x in a), n * n - sum(x * x for x in b)
    num = n * s - pe
    mcc = (Decimal(num.numerator) / Decimal(num.denominator)) / (
        Decimal(va.numerator) / Decimal(va.denominator) * Decimal(vb.numerator) / Decimal(vb.denominator)).sqrt() \
        if va and vb else Decimal(0)
    return {"accuracy": s / n, "balanced_accuracy": sum(rec) / k, "macro_f1": sum(f1) / k,
            "cohen_kappa": kappa, "mcc": mcc, "specificity": spec}


def exact_binary(C, pos=1):
    C = [[_F(x) for x in row] for row in C]
    neg = 1 - pos
    tp, fn, fp, tn = C[pos][pos], C[pos][neg], C[neg][pos], C[neg][neg]
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    tnr, fnr = tn / (tn + fp), fn / (tp + fn)
    ppv, npv = tp / (tp + fp), tn / (tn + fn)
    return {"lr_plus": tpr / fpr if fpr else None, "lr_minus": fnr / tnr if tnr else None,
            "informedness": tpr + tnr - 1, "markedness": ppv + npv - 1, "specificity": tnr, "recall": tpr,
            "npv": npv, "precision": ppv}


def close(got, want, rel=1e-12):
    want = float(want)
    return got == pytest.approx(want, rel=rel, abs=1e-300)


# ------------------------------------------------------------------------------------------------
# item 6: whole-number totals from 2**53 are refused, below they are exact
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("matrix", [
    [[10**16, 0], [0, 10]],                 # the issue's example
    [[LIMIT - 10, 0], [0, 10]],             # exactly 2**53
    [[LIMIT, 0], [0, 1]],                   # 2**53 + 1 (not even representable)
    [[LIMIT - 1, 0], [0, 1]],               # 2**53 again, from two odd counts
    [[10**16, 3], [2, 1]],                  # 10**16 with a class of one item
    np.array([[2**60, 0], [0, 7]], dtype=np.int64),
    np.array([[9.1e15, 0.0], [0.0, 10.0]]),  # whole-number floats
])
def test_whole_number_totals_from_2_53_are_refused(matrix):
    for call in (lambda: advisor.compute_metrics(matrix), lambda: advisor.ConfusionMatrix(matrix),
                 lambda: advisor.bootstrap(matrix, n_resamples=200, seed=0)):
        with pytest.raises(InputError, match=r"2\*\*53.*divide every count"):
            call()


def test_from_cells_refuses_a_total_of_2_53():
    with pytest.raises(InputError, match=r"2\*\*53"):
        advisor.ConfusionMatrix.from_cells([0, 1], [0, 1], [LIMIT - 10, 10], ["a", "b"])


@pytest.mark.parametrize("big, small", [(LIMIT - 11, 10), (LIMIT - 2, 1), (10**15, 1), (2 * 10**12, 1)])
def test_below_2_53_a_small_class_is_a_class(big, small):
    C = [[big, 0], [0, small]]
    r = advisor.compute_metrics(C)
    assert r["mcc"] == 1.0 and r["balanced_accuracy"] == 1.0 and r["cohen_kappa"] == 1.0 and not r.undefined
    C = [[big - 2, 1], [1, small]]  # the same total
    r = advisor.compute_metrics(C)
    ref = exact_multiclass(C)
    for m in ("balanced_accuracy", "macro_f1", "cohen_kappa", "mcc"):
        assert close(r[m], ref[m], 1e-9), m


def _counts_file(path, rows):
    path.write_text("true,pred,count\n" + "".join(f"{t},{p},{c}\n" for t, p, c in rows))
    return path


@pytest.mark.parametrize("total_offset, ok", [(0, False), (1, False), (-1, True)])
def test_cli_counts_at_2_53(tmp_path, cli, total_offset, ok):
    f = _counts_file(tmp_path / "c.csv", [("a", "a", LIMIT - 10 + total_offset), ("b", "b", 10)])
    r = cli("compute", "--counts", f, "--metrics", "mcc,balanced_accuracy", "--json")
    if ok:
        assert r.exit_code == 0, r.output
        m = json.loads(r.stdout)["metrics"]["c"]
        assert m["mcc"] == 1.0 and m["balanced_accuracy"] == 1.0
    else:
        assert r.exit_code == 2, r.output
        assert "2**53" in r.output and "Traceback" not in r.output and r.output.strip().count("\n") == 0


def test_cli_matrix_json_with_1e16(tmp_path, cli):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"labels": ["x", "y"], "matrix": [[10**16, 0], [0, 1]]}))
    r = cli("compute", "--matrix", f)
    assert r.exit_code == 2 and "2**53" in r.output


# ------------------------------------------------------------------------------------------------
# item 6 (and 15): fractional weights — no tolerance makes a class of positive mass disappear
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("C", [
    [[1e15, 0.0], [0.0, 1e-3]],
    [[1e15, 1e-3], [1e-3, 1e-3]],
    [[1e15, 0.0, 0.0], [0.0, 1e-3, 0.0], [0.0, 0.0, 5.5]],
    [[1e15, 2e-3, 0.0], [1e-3, 1e-3, 0.0], [0.0, 0.0, 0.25]],
    [[0.5e15 + 0.5, 0.25], [0.25, 0.5e-3]],
    [[1e-3, 0.0, 1e15], [0.0, 2.5, 0.0], [1e15, 0.0, 1e-3]],
])
def test_fractional_weights_keep_every_class(C):
    r = advisor.compute_metrics(C, metrics=["accuracy", "balanced_accuracy", "macro_f1", "cohen_kappa", "mcc"])
    ref = exact_multiclass(C)
    for m in r:
        assert close(r[m], ref[m], 1e-9), (m, r[m], float(ref[m]))
    spec = [row["specificity"] for row in advisor.per_class(C).values()]
    for got, want in zip(spec, ref["specificity"]):
        assert close(got, want, 1e-9)
    assert not [u for u in r.undefined if "a_i = 0" in u.reason or "denominator" in u.quantity]


def test_fractional_binary_rates_keep_a_tiny_negative_class():
    C = [[1e-3, 0.0], [2.0, 1e15]]  # negatives weigh 10⁻³ and are all right: TNR = 1, FPR = 0
    r = advisor.compute_metrics(C, positive_label=1, metrics=["specificity", "lr_plus", "npv"])
    assert r["specificity"] == 1.0 and r["lr_plus"] == float("inf")
    assert close(r["npv"], exact_binary(C)["npv"])


# ------------------------------------------------------------------------------------------------
# item 7: rates of the form 1 − x are computed from the counts
# ------------------------------------------------------------------------------------------------
RATE_IDS = ["lr_plus", "lr_minus", "informedness", "markedness", "specificity", "recall", "npv", "precision"]


def test_lr_plus_of_the_issue():
    C = [[3e12, 1], [4e12, 4e12]]
    r = advisor.compute_metrics(C, positive_label=1, metrics=RATE_IDS)
    assert r["lr_plus"] == 1_500_000_000_000.5  # was 1,500,199,742,628.4
    ref = exact_binary(C)
    for m in RATE_IDS:
        assert close(r[m], ref[m]), m


@pytest.mark.parametrize("seed", range(8))
def test_rates_at_large_counts_match_exact_fractions(seed):
    rng = np.random.default_rng(seed)
    big = 10 ** int(rng.integers(9, 15))
    C = [[int(rng.integers(1, 4) * big), int(rng.integers(1, 50))],
         [int(rng.integers(1, 50)), int(rng.integers(1, 4) * big)]]
    if rng.random() < 0.5:  # also with the small counts on the diagonal
        C = [[C[0][1], C[0][0]], [C[1][1], C[1][0]]]
    for pos in (0, 1):
        r = advisor.compute_metrics(C, positive_label=pos, metrics=RATE_IDS)
        ref = exact_binary(C, pos)
        for m in RATE_IDS:
            assert close(r[m], ref[m], 1e-11), (C, pos, m, r[m], float(ref[m]))


def test_fractional_rates_match_exact_fractions():
    C = [[2.5e12, 0.125], [3.25e12, 4.5e12]]
    r = advisor.compute_metrics(C, positive_label=1, metrics=RATE_IDS)
    ref = exact_binary(C)
    for m in RATE_IDS:
        assert close(r[m], ref[m], 1e-11), m


def test_cli_prints_the_exact_lr_plus(tmp_path, cli):
    f = _counts_file(tmp_path / "c.csv", [(0, 0, 3 * 10**12), (0, 1, 1), (1, 0, 4 * 10**12), (1, 1, 4 * 10**12)])
    r = cli("compute", "--counts", f, "--positive", "1", "--metrics", "lr_plus", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["metrics"]["c"]["lr_plus"] == 1_500_000_000_000.5
