"""Agreement studies with many annotators (issue 25 item 10).

Before: 1,000 annotators x 200 items took 73 s in ``compute`` (Cohen's kappa of 499,500 pairs, one engine
call each) and ``report`` ended in "internal error (MemoryError)" after 154 s and 4.4 GB (a 1,000 x 1,000
matrix with a number written in every cell). Now every pair comes from a few matrix products
(``advisor.engine._agreement.kappa_pairs``, identical to the engine's ``cohen_kappa`` of each pair), and a
report on more than ``HEATMAP_RATERS`` annotators shows what a reader needs — how the pairwise kappas spread,
the lowest pairs, the annotators who agree least — with every pair and annotator in CSV files beside it.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from advisor.engine import compute_metrics
from advisor.engine import _agreement
from advisor.engine._agreement import ratings_from_codes, kappa_pairs, kappa_summary, pairwise_kappa
from advisor.report._models import HEATMAP_RATERS


def _study(raters: int, items: int, seed: int = 0, missing: float = 0.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, items)
    skill = rng.uniform(0.3, 0.9, raters)
    codes = np.where(rng.random((items, raters)) < skill, truth[:, None], rng.integers(0, 4, (items, raters)))
    codes[rng.random((items, raters)) < missing] = -1
    return codes


def _write(path: Path, codes: np.ndarray) -> Path:
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([f"rater_r{j}" for j in range(codes.shape[1])])
        w.writerows([["" if v < 0 else int(v) for v in row] for row in codes])
    return path


def test_every_pair_equals_the_engines_cohen_kappa_to_the_bit() -> None:
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        r, u, c = int(rng.integers(2, 7)), int(rng.integers(1, 12)), int(rng.integers(1, 5))
        codes = rng.integers(-1, c, (u, r))
        if rng.random() < 0.3:
            codes[:, 0] = 0  # one annotator in one category: kappa undefined where the other is too
        if rng.random() < 0.3:
            codes[:, 1] = codes[:, 0]
        ratings = ratings_from_codes(codes, c)
        got = pairwise_kappa(ratings)
        for i in range(r):
            for j in range(i + 1, r):
                both = (codes[:, i] >= 0) & (codes[:, j] >= 0)
                key = f"{ratings.raters[i]} | {ratings.raters[j]}"
                if not both.any() or c < 2:
                    assert got[key] is None
                    continue
                m = np.zeros((c, c))
                np.add.at(m, (codes[both, i], codes[both, j]), 1.0)
                want = float(compute_metrics(m, ["cohen_kappa"])["cohen_kappa"])
                assert got[key] == want or (got[key] is None and want != want), key  # undefined: None, as NaN
                checked += 1
    assert checked > 1000


def test_the_summary_is_the_spread_of_the_pairs() -> None:
    ratings = ratings_from_codes(_study(40, 30, missing=0.2), 4)
    kappa, shared = kappa_pairs(ratings)
    s = kappa_summary(ratings)
    vals = np.array([v for v in pairwise_kappa(ratings).values() if v is not None])
    assert s["pairs"] == 40 * 39 // 2 and s["defined"] == vals.size
    for key, q in (("min", 0), ("q1", 0.25), ("median", 0.5), ("q3", 0.75), ("max", 1)):
        assert s[key] == pytest.approx(float(np.quantile(vals, q)))
    assert s["mean"] == pytest.approx(float(vals.mean()))
    assert [p["kappa"] for p in s["lowest"]] == sorted(vals.tolist())[:10]
    low = s["lowest"][0]
    a, b = (ratings.raters.index(x) for x in low["pair"].split(" | "))
    assert low["items"] == int(shared[a, b])
    means = s["rater_mean"]
    row = np.delete(kappa[3], 3)
    assert means[ratings.raters[3]] == pytest.approx(float(np.nanmean(row)))


def test_a_thousand_annotators_compute(tmp_path: Path, cli) -> None:
    path = _write(tmp_path / "study.csv", _study(1_000, 200))
    res = cli("compute", path, "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert len(data["pairs"]) == 499_500
    summary = data["pair_summary"]
    assert summary["pairs"] == 499_500 and len(summary["lowest"]) == 10 and len(summary["rater_mean"]) == 1_000
    first = min((v, k) for k, v in data["pairs"].items() if v is not None)
    assert summary["lowest"][0]["kappa"] == first[0]


@pytest.mark.parametrize("raters,items", [(1_000, 200), (60, 50)])
def test_a_report_on_many_annotators_summarises_their_pairs(tmp_path: Path, cli, raters: int, items: int) -> None:
    path = _write(tmp_path / "study.csv", _study(raters, items, seed=1, missing=0.1))
    answers = tmp_path / "a.yaml"
    answers.write_text(f"task: multiclass\nannotators: {raters}\nsymmetric: true\nchance_correction: required\n")
    out = tmp_path / "out" / "r.md"
    res = cli("report", "--answers", answers, path, "--bootstrap", "200", "--seed", "1", "-o", out)
    assert res.exit_code == 0, res.stderr
    text = out.read_text()
    n_pairs = raters * (raters - 1) // 2
    assert f"{raters:,} annotators make {n_pairs:,} pairs" in text
    assert "The pairs of annotators that agree least" in text and "The annotators that agree least" in text
    assert f"Cohen's kappa of the {n_pairs:,} pairs of the {raters:,} annotators" in text  # the summary figure
    with (tmp_path / "out" / "r-pairs.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == n_pairs  # nothing lost: every pair beside the report
    ratings = ratings_from_codes(_study(raters, items, seed=1, missing=0.1), 4,
                                  [f"rater_r{j}" for j in range(raters)], [0, 1, 2, 3])
    pairs = pairwise_kappa(ratings)
    for row in rows[:: max(1, n_pairs // 500)]:
        v = pairs[f"{row['annotator_a']} | {row['annotator_b']}"]
        assert (row["kappa"] == "" and v is None) or float(row["kappa"]) == pytest.approx(v, abs=1e-6)
    with (tmp_path / "out" / "r-annotators.csv").open() as fh:
        assert len(list(csv.DictReader(fh))) == raters
    svg = (tmp_path / "out" / "r-figures" / "structure.svg").read_text()
    assert svg.count("<text") < 400  # no number written in each of a million cells


def test_few_annotators_keep_the_matrix(tmp_path: Path, cli) -> None:
    raters = HEATMAP_RATERS
    path = _write(tmp_path / "study.csv", _study(raters, 40, seed=2))
    answers = tmp_path / "a.yaml"
    answers.write_text(f"task: multiclass\nannotators: {raters}\nsymmetric: true\nchance_correction: required\n")
    out = tmp_path / "r.md"
    assert cli("report", "--answers", answers, path, "--bootstrap", "200", "-o", out).exit_code == 0
    assert "Cohen's kappa of each pair of annotators" in out.read_text()
    assert not (tmp_path / "r-pairs.csv").exists()


def test_beyond_the_pairwise_limit_it_says_so(tmp_path: Path, cli, monkeypatch) -> None:
    monkeypatch.setattr(_agreement, "MAX_PAIRWISE_RATERS", 10)
    import advisor.engine._structures as structures

    monkeypatch.setattr(structures, "MAX_PAIRWISE_RATERS", 10)
    res = cli("compute", _write(tmp_path / "s.csv", _study(11, 20)), "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["pairs"] == {} and "krippendorff_alpha" in data["metrics"]["agreement"]
    assert any("not computed for 11 annotators (55 pairs" in n for n in data["notes"])


def test_a_pair_whose_kappa_is_undefined_follows_the_convention_as_the_engine_does() -> None:
    # both annotators put every shared item in one and the same category: kappa's denominator is 0
    codes = np.array([[0, 0, 1], [0, 0, 0], [0, 0, 1]])
    ratings = ratings_from_codes(codes, 2)
    m = np.zeros((2, 2))
    np.add.at(m, (codes[:, 0], codes[:, 1]), 1.0)
    for conv in ("zero", "baseline", "omit"):
        want = float(compute_metrics(m, ["cohen_kappa"], undefined=conv)["cohen_kappa"])
        got = pairwise_kappa(ratings, undefined=conv)[f"{ratings.raters[0]} | {ratings.raters[1]}"]
        assert (got is None and want != want) or got == want, (conv, got, want)
    assert pairwise_kappa(ratings)[f"{ratings.raters[0]} | {ratings.raters[1]}"] is None  # the default, omit
