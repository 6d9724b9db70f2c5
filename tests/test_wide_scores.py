"""Score files with 1,000 and 20,000 probability columns (issue 25 item 8).

Before: more than ~700 ``p_`` columns could not be read ("Max expression depth limit of 1000 exceeded",
"failed to allocate", "tuple width exceeds block size"). Now every input's score columns are staged as one
list per row (``advisor/io/_stage.py``). Each value below is compared with a direct numpy computation on
the same numbers, for a CSV file, a Parquet file and a pandas DataFrame; rows are few, so most classes
occur in no item (their columns still count in log loss, the Brier score and the ECE, and ROC AUC
one-vs-rest is undefined and said to be), and one case with every class present checks ROC AUC.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import advisor
from tests.test_scores_oracles import _plain_ece

ECE_BINS = 15


def _data(k: int, n: int, seed: int = 0, every_class: bool = False) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(k, 0.05), size=n)
    y = rng.integers(0, k, n)
    if every_class:
        y[:k] = rng.permutation(k)
    # a system that is right about half the time: the true class gets a boost, then renormalise exactly
    boost = rng.random(n) < 0.5
    p[boost, y[boost]] += 1.0
    p /= p.sum(axis=1, keepdims=True)
    return p, y, [f"c{j}" for j in range(k)]


def _frame(p: np.ndarray, y: np.ndarray, labels: list[str]):
    import pandas as pd

    cols = {"y_true": [labels[i] for i in y], "y_pred": [labels[i] for i in p.argmax(axis=1)]}
    frame = pd.DataFrame(p, columns=[f"p_{lab}" for lab in labels])
    return pd.concat([pd.DataFrame(cols), frame], axis=1)


def _write(tmp_path: Path, fmt: str, p: np.ndarray, y: np.ndarray, labels: list[str]) -> Path:
    df = _frame(p, y, labels)
    path = tmp_path / f"wide.{fmt}"
    if fmt == "csv":
        df.to_csv(path, index=False, float_format="%.17g")
    else:
        df.to_parquet(path)
    return path


def _reference(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """log loss, multi-class Brier and equal-mass ECE, computed directly."""
    n, k = p.shape
    eps = np.finfo(np.float64).eps
    ll = float(-np.mean(np.log(np.clip(p[np.arange(n), y], eps, 1 - eps))))
    onehot = np.zeros_like(p)
    onehot[np.arange(n), y] = 1.0
    brier = float(np.mean(np.sum((p - onehot) ** 2, axis=1)))
    # equal-mass bins whose cuts leave runs of tied confidences whole (issue 20), as tests/test_scores_oracles
    ece = _plain_ece(np.asarray(y), p, ECE_BINS, "equal_mass")
    return {"log_loss": ll, "brier": brier, "ece": float(ece)}


def _top_k(p: np.ndarray, y: np.ndarray, k: int) -> float:
    higher = (p > p[np.arange(len(y)), y][:, None]).sum(axis=1)
    return float(np.mean(higher < k))


def _ovr_auc(p: np.ndarray, y: np.ndarray) -> float:
    """Macro one-vs-rest ROC AUC (Mann-Whitney with half credit for ties)."""
    aucs = []
    for c in range(p.shape[1]):
        pos, neg = p[y == c, c], p[y != c, c]
        greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
        aucs.append(greater / (len(pos) * len(neg)))
    return float(np.mean(aucs))


SIZES = [(1_000, 60), (20_000, 24)]


@pytest.mark.parametrize("k,n", SIZES, ids=["k1000", "k20000"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_probability_metrics_of_a_wide_file(tmp_path: Path, cli, fmt: str, k: int, n: int) -> None:
    p, y, labels = _data(k, n)
    path = _write(tmp_path, fmt, p, y, labels)
    res = cli("compute", path, "--json")
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    got = out["metrics"]["wide"]
    ref = _reference(p, y)
    for m in ("log_loss", "brier", "ece"):
        assert got[m] == pytest.approx(ref[m], rel=1e-9, abs=1e-12), m
    assert got["accuracy"] == pytest.approx(float(np.mean(p.argmax(axis=1) == y)))
    # most classes occur in no item: their columns count in the probability metrics, and ROC AUC is said undefined
    assert got.get("roc_auc") is None
    notes = " ".join(out["notes"])
    assert "probability columns are for classes no item has" in notes and "ROC AUC is not reported" in notes


@pytest.mark.parametrize("k,n", SIZES, ids=["k1000", "k20000"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_top_k_of_a_wide_file(tmp_path: Path, cli, fmt: str, k: int, n: int) -> None:
    p, y, labels = _data(k, n, seed=1)
    path = _write(tmp_path, fmt, p, y, labels)
    res = cli("compute", path, "--top-k", "5", "--json")
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)["metrics"]
    value = next(iter(got.values()))["top_k_accuracy"]
    assert value == pytest.approx(_top_k(p, y, 5))


@pytest.mark.parametrize("k,n", SIZES, ids=["k1000", "k20000"])
def test_a_wide_dataframe(k: int, n: int) -> None:
    p, y, labels = _data(k, n, seed=2)
    df = _frame(p, y, labels)
    ds = advisor.load(df)
    ref = _reference(p, y)
    assert ds.probabilities["y_pred"]["log_loss"] == pytest.approx(ref["log_loss"], rel=1e-9)
    assert ds.probabilities["y_pred"]["brier"] == pytest.approx(ref["brier"], rel=1e-9)
    scored = ds.scores["y_pred"]
    assert scored.proba.shape == (n, k) and scored.proba_labels == labels
    np.testing.assert_array_equal(scored.proba, p)  # every cell exactly as given
    ev = advisor.evaluate(df)
    for m in ("log_loss", "brier", "ece"):
        assert ev.metrics["y_pred"][m] == pytest.approx(ref[m], rel=1e-9, abs=1e-12), m
    top = advisor.load(df, top_k=5).structured
    scores, truth, classes = top.systems["system"]
    np.testing.assert_array_equal(scores, p)
    assert list(classes) == labels and truth.tolist() == y.tolist()
    assert advisor.top_k_accuracy(scores, truth, 5)["top_k_accuracy"] == pytest.approx(_top_k(p, y, 5))


def test_roc_auc_one_vs_rest_with_every_class_present(tmp_path: Path, cli) -> None:
    """1,000 classes, each the truth of at least one of 1,500 items: ROC AUC one-vs-rest is defined."""
    p, y, labels = _data(1_000, 1_500, seed=3, every_class=True)
    path = _write(tmp_path, "parquet", p, y, labels)
    res = cli("compute", path, "--json", "--metrics", "roc_auc,ece,log_loss,brier")
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)["metrics"]["wide"]
    assert got["roc_auc"] == pytest.approx(_ovr_auc(p, y), rel=1e-9)
    ref = _reference(p, y)
    for m in ("log_loss", "brier", "ece"):
        assert got[m] == pytest.approx(ref[m], rel=1e-9, abs=1e-12), m


def test_a_non_number_among_many_score_columns_is_named(tmp_path: Path, cli) -> None:
    p, y, labels = _data(1_000, 10, seed=4)
    df = _frame(p, y, labels).astype({"p_c517": object})
    df.loc[6, "p_c517"] = "n/a"
    path = tmp_path / "bad.csv"
    df.to_csv(path, index=False, float_format="%.17g")
    res = cli("compute", path)
    assert res.exit_code == 2
    assert "row 7: p_c517 is 'n/a', not a number" in res.stderr
    res = cli("compute", path, "--top-k", "3")
    assert res.exit_code == 2 and "row 7" in res.stderr and "p_c517" in res.stderr
