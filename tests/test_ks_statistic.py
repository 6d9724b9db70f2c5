"""The Kolmogorov–Smirnov statistic (KS) of a binary score, as credit scorecards are benchmarked with it (Lessmann et
al. 2015): against two independent oracles, then through the resampler, the paired comparison, ``advisor compute``
and the report.

* scipy's two-sample test, ``ks_2samp(positives, negatives, alternative="less")``: its statistic is
  ``max_x (F_neg(x) − F_pos(x))``, the one-sided distance in the direction "positives score higher"
  (``"greater"`` measures the other direction and ``"two-sided"`` the larger of both, which differ on a reversed
  or crossing score: checked below, so the alternative is the right one and not only equal by luck);
* scikit-learn's ``roc_curve``: ``max(tpr − fpr)`` over its points, which include (0, 0) and (1, 1).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from advisor.cli import app
from advisor.engine import ks_statistic


def _data(seed: int, n: int, ties: bool) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.05, 0.6)).astype(int)
    y[:2] = [0, 1]  # both classes present
    s = y * rng.uniform(-0.5, 1.5) + rng.normal(0, 1, n)
    if ties:
        s = np.round(s, int(rng.integers(0, 2)))  # few distinct scores: large tie groups of both classes
    return y, s


@pytest.mark.parametrize("seed", range(40))
def test_ks_equals_scipy_one_sided_and_roc_curve_gap(seed: int) -> None:
    from scipy.stats import ks_2samp
    from sklearn.metrics import roc_curve

    y, s = _data(seed, n=[7, 30, 200, 1000][seed % 4], ties=seed % 2 == 0)
    got = float(ks_statistic(y, s))
    expected = ks_2samp(s[y == 1], s[y == 0], alternative="less").statistic
    assert got == pytest.approx(expected, abs=1e-12)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    assert got == pytest.approx(float(np.max(tpr - fpr)), abs=1e-12)
    assert 0.0 <= got <= 1.0


def test_the_alternative_matters_on_a_crossing_and_a_reversed_score() -> None:
    from scipy.stats import ks_2samp

    # one positive scores highest, the other four below most negatives: each one-sided distance is its own number
    y = np.array([1, 0, 0, 0, 0, 1, 1, 1, 1, 0])
    s = np.array([9, 8, 7, 6, 5, 4, 3, 2, 1, 0], dtype=float)
    less = ks_2samp(s[y == 1], s[y == 0], alternative="less").statistic
    greater = ks_2samp(s[y == 1], s[y == 0], alternative="greater").statistic
    assert less != pytest.approx(greater)
    assert float(ks_statistic(y, s)) == pytest.approx(less, abs=1e-12)  # TPR − FPR = 1/5 at τ = 9
    assert float(ks_statistic(y, s)) == pytest.approx(0.2) and greater == pytest.approx(0.6)


def test_perfectly_separated_reversed_and_constant_scores() -> None:
    from scipy.stats import ks_2samp

    y = np.array([0, 0, 0, 1, 1])
    assert float(ks_statistic(y, [0.1, 0.2, 0.3, 0.7, 0.9])) == 1.0  # one threshold flags every positive only
    reversed_ = np.array([0.9, 0.8, 0.7, 0.2, 0.1])
    assert float(ks_statistic(y, reversed_)) == 0.0  # one-sided: a reversed score is no better than chance
    assert ks_2samp(reversed_[y == 1], reversed_[y == 0], alternative="less").statistic == 0.0
    assert ks_2samp(reversed_[y == 1], reversed_[y == 0]).statistic == 1.0  # the two-sided one would say 1
    assert float(ks_statistic(y, [0.5] * 5)) == 0.0  # one tie group: flag all or nothing
    assert np.isnan(ks_statistic([1, 1], [0.2, 0.3])) and np.isnan(ks_statistic([0, 0], [0.2, 0.3]))


def test_weights_are_repeated_items_and_a_batch_is_row_by_row() -> None:
    y, s = _data(3, n=60, ties=True)
    w = np.random.default_rng(1).integers(0, 4, 60).astype(float)
    w[:2] = 1.0
    rep = np.repeat(np.arange(60), w.astype(int))
    assert float(ks_statistic(y, s, w)) == pytest.approx(float(ks_statistic(y[rep], s[rep])), abs=1e-12)
    batch = ks_statistic(y, s, np.stack([w, np.ones(60)]))
    assert batch.shape == (2,)
    assert float(batch[0]) == pytest.approx(float(ks_statistic(y, s, w)), abs=1e-12)
    assert float(batch[1]) == pytest.approx(float(ks_statistic(y, s)), abs=1e-12)


def test_the_resampler_gives_a_bca_interval_and_the_paired_comparison_works() -> None:
    from advisor.stats import compare_scored

    rng = np.random.default_rng(7)
    n = 600
    y = np.where(rng.random(n) < 0.2, "default", "repaid")
    strong = (y == "default") * 1.5 + rng.normal(0, 1, n)
    weak = (y == "default") * 0.3 + rng.normal(0, 1, n)
    res = compare_scored(list(y), {"strong": strong, "weak": weak}, ["default", "repaid"], positive_label="default",
                         metrics=["ks_statistic"], n_resamples=400, seed=3).to_dict()
    for name, s in (("strong", strong), ("weak", weak)):
        iv = res["metrics"][name]["ks_statistic"]
        assert iv["estimate"] == pytest.approx(float(ks_statistic((y == "default").astype(int), s)), abs=1e-12)
        assert iv["method"] == "bca" and iv["low"] < iv["estimate"] < iv["high"]
    diff = res["pairs"]["ks_statistic"][0]["difference"]
    assert diff["method"] == "bca" and 0 < diff["low"] < diff["estimate"] < diff["high"]  # strong − weak, resolved
    assert res["winners"]["ks_statistic"] == ["strong"]


def _write(path: Path, y: np.ndarray, p: np.ndarray, with_pred: bool) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        if with_pred:
            w.writerow(["y_true", "y_pred", "p_default"])
            w.writerows(zip(y, np.where(p >= 0.5, "default", "repaid"), p))
        else:
            w.writerow(["y_true", "score"])
            w.writerows(zip(y, p))


def _two_systems(tmp_path: Path, with_pred: bool) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(11)
    n = 300
    y = np.where(rng.random(n) < 0.25, "default", "repaid")
    out = {}
    for name, sep in (("good", 1.4), ("poor", 0.5)):
        p = np.round(1 / (1 + np.exp(-((y == "default") * sep * 2 - 1.5 + rng.normal(0, 1, n)))), 2)  # ties
        _write(tmp_path / f"{name}.csv", y, p, with_pred)
        out[name] = p
    return y, out


def test_compute_shows_ks_for_a_binary_scores_file_when_asked(tmp_path: Path) -> None:
    import json

    y, systems = _two_systems(tmp_path, with_pred=False)
    files = [str(tmp_path / f"{n}.csv") for n in systems]
    for asked in ("ks", "Kolmogorov–Smirnov statistic", "ks_statistic"):
        r = CliRunner().invoke(app, ["compute", *files, "--positive", "default", "--metrics", asked, "--json"])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        for name, p in systems.items():
            expected = float(ks_statistic((y == "default").astype(int), p))
            assert data["metrics"][name] == {"ks_statistic": pytest.approx(expected, abs=1e-12)}
    r = CliRunner().invoke(app, ["compute", *files, "--positive", "default"])
    assert r.exit_code == 0 and "ks_statistic" not in r.output  # on request only: the defaults are unchanged


def test_compute_with_decisions_gives_ks_with_its_interval(tmp_path: Path) -> None:
    import json

    y, systems = _two_systems(tmp_path, with_pred=True)
    r = CliRunner().invoke(app, ["compute", str(tmp_path / "good.csv"), "--positive", "default", "--metrics", "ks",
                                 "--bootstrap", "200", "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    expected = float(ks_statistic((y == "default").astype(int), systems["good"]))
    assert data["metrics"]["good"]["ks_statistic"] == pytest.approx(expected, abs=1e-12)
    iv = data["intervals"]["good"]["ks_statistic"]
    assert iv["low"] <= expected <= iv["high"]


def test_loan_report_shows_ks_in_table_1_cited_to_lessmann(tmp_path: Path) -> None:
    y, systems = _two_systems(tmp_path, with_pred=True)
    answers = Path(__file__).parent / "situations" / "loan.yaml"
    # the loan situation's answers without its subgroup columns, which these files do not have
    text = "\n".join(line for line in answers.read_text().splitlines() if not line.startswith("subgroups:"))
    (tmp_path / "loan.yaml").write_text(text + "\n")
    out = tmp_path / "report.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(tmp_path / "loan.yaml"), str(tmp_path / "good.csv"),
                                 str(tmp_path / "poor.csv"), "--bootstrap", "200", "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    md = out.read_text()
    row = next(line for line in md.splitlines() if line.startswith("|") and "Kolmogorov–Smirnov" in line)
    for p in systems.values():
        expected = float(ks_statistic((y == "default").astype(int), p))
        assert f"{expected:.3f}"[1:] in row or f"{expected:.2f}"[1:] in row
    evaluation = md.split("**Evaluation.**", 1)[1].split("\n\n", 1)[0]
    # cited to Lessmann et al. alone: Hand (2005) argues against these measures for a scorecard used at a cut-off (the
    # s27 credit reader)
    assert re.search(r"ROC AUC, Brier score and the Kolmogorov–Smirnov statistic \(Lessmann et al\.,? 2015\)",
                     evaluation)
