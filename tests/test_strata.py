"""Stratified estimation for a sample drawn by map class (advisor/stats/_strata.py).

Checked two ways: against the worked example of Olofsson et al. (2014), §5 (their Tables 8–9 and the estimates
on p. 54), and against an independent computation from the sample's items — the stratified estimator of a mean
and the combined ratio estimator with its linearised variance, Σ_h W_h² s²_{d,h} / n_h over the residuals
d = y − R·x (Stehman 2014, eqs. 26–28; Cochran 1977, §6.11), which never forms the formulas of the module.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.stats._strata import stratified_estimates

# Olofsson et al. (2014), Table 8: map classes as ROWS (deforestation, forest gain, stable forest, stable
# non-forest), reference classes as columns; advisor's matrices have the reference classes as rows, hence .T
OLOFSSON_TABLE_8 = np.array([[66, 0, 5, 4], [0, 55, 8, 12], [1, 0, 153, 11], [2, 1, 9, 313]], dtype=float)
MAPPED_PIXELS = np.array([200_000, 150_000, 3_200_000, 6_450_000], dtype=float)  # Landsat 30 m pixels
HA_PER_PIXEL = 0.09


@pytest.fixture(scope="module")
def olofsson():
    w = MAPPED_PIXELS / MAPPED_PIXELS.sum()
    return stratified_estimates(OLOFSSON_TABLE_8.T, w, area_total=MAPPED_PIXELS.sum() * HA_PER_PIXEL)


def test_published_error_matrix_in_area_proportions(olofsson):
    # Table 9 (map classes as rows): the estimated proportions of area, to four decimals
    table_9 = np.array([[0.0176, 0.0000, 0.0013, 0.0011], [0.0000, 0.0110, 0.0016, 0.0024],
                        [0.0019, 0.0000, 0.2967, 0.0213], [0.0040, 0.0020, 0.0179, 0.6212]])
    assert np.abs(olofsson.proportions.T - table_9).max() < 5e-5


def test_published_accuracies_and_their_intervals(olofsson):
    # p. 54: estimate ± 1.96·SE, two decimals
    z = 1.96
    assert round(olofsson.overall, 2) == 0.95 and round(z * olofsson.overall_se, 2) == 0.02
    assert np.round(olofsson.users, 2).tolist() == [0.88, 0.73, 0.93, 0.96]
    assert np.round(z * olofsson.users_se, 2).tolist() == [0.07, 0.10, 0.04, 0.02]
    assert np.round(olofsson.producers, 2).tolist() == [0.75, 0.85, 0.93, 0.96]
    # the paper prints ±0.21, ±0.23, ±0.03, ±0.01; eq. (7) gives ±0.25 and ±0.018 for forest gain and stable
    # non-forest (the independent computation below agrees with eq. 7, and so does the R package mapaccuracy's
    # reading of the example), so those two are checked there rather than against the print
    assert round(z * olofsson.producers_se[0], 2) == 0.21 and round(z * olofsson.producers_se[2], 2) == 0.03


def test_published_areas_in_hectares(olofsson):
    areas = olofsson.areas
    half = 1.96 * olofsson.area_se * olofsson.area_total
    assert np.round(areas).tolist() == [21158, 11686, 285770, 581386]
    assert np.round(half).tolist() == [6158, 3756, 15510, 16282]


def _items(counts_ref_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One (reference, map) pair per sample item."""
    ref, mapped = [], []
    for i, j in np.ndindex(*counts_ref_rows.shape):
        ref += [i] * int(counts_ref_rows[i, j])
        mapped += [j] * int(counts_ref_rows[i, j])
    return np.array(ref), np.array(mapped)


def _survey(ref: np.ndarray, mapped: np.ndarray, w: np.ndarray, y: np.ndarray, x: np.ndarray | None = None):
    """Stratified (ratio) estimate and its standard error from the items themselves (strata = map classes)."""
    strata = np.unique(mapped)
    def total(v):
        return sum(w[h] * v[mapped == h].mean() for h in strata)
    if x is None:
        est = total(y)
        var = sum(w[h] ** 2 * y[mapped == h].var(ddof=1) / (mapped == h).sum() for h in strata)
        return est, np.sqrt(var)
    r = total(y) / total(x)
    d = y - r * x
    var = sum(w[h] ** 2 * d[mapped == h].var(ddof=1) / (mapped == h).sum() for h in strata) / total(x) ** 2
    return r, np.sqrt(var)


@pytest.mark.parametrize("case", ["olofsson", "random"])
def test_agrees_with_the_item_level_survey_estimator(case, olofsson):
    if case == "olofsson":
        counts, w, e = OLOFSSON_TABLE_8.T, olofsson.weights, olofsson
    else:
        rng = np.random.default_rng(7)
        counts = rng.integers(0, 30, size=(5, 5)) + np.diag(rng.integers(20, 80, size=5))
        w = rng.dirichlet(np.ones(5))
        e = stratified_estimates(counts, w)
    ref, mapped = _items(np.asarray(counts))
    est, se = _survey(ref, mapped, w, (ref == mapped).astype(float))
    assert e.overall == pytest.approx(est, abs=1e-12) and e.overall_se == pytest.approx(se, abs=1e-12)
    for i in range(len(w)):
        est, se = _survey(ref, mapped, w, (ref == i).astype(float))
        assert e.area[i] == pytest.approx(est, abs=1e-12) and e.area_se[i] == pytest.approx(se, abs=1e-12)
        # producer's accuracy: a ratio of two stratified totals (correct items of class i over items of class i)
        est, se = _survey(ref, mapped, w, ((ref == i) & (mapped == i)).astype(float), (ref == i).astype(float))
        assert e.producers[i] == pytest.approx(est, abs=1e-12) and e.producers_se[i] == pytest.approx(se, abs=1e-12)
        # user's accuracy: within one stratum, a plain proportion with the sample variance s²/n
        inside = mapped == i
        correct = (ref[inside] == i).astype(float)
        assert e.users[i] == pytest.approx(correct.mean())
        assert e.users_se[i] == pytest.approx(np.sqrt(correct.var(ddof=1) / inside.sum()))


def test_equal_sampling_rates_give_the_plain_proportions():
    # a sample proportional to the map's shares (b_j ∝ W_j) weighs every item alike: overall accuracy is the
    # share of correct items, the area proportion the share of reference labels
    c = np.array([[40, 5, 0], [10, 25, 5], [0, 0, 15]], dtype=float)
    e = stratified_estimates(c, c.sum(axis=0) / c.sum())
    assert e.overall == pytest.approx(np.trace(c) / c.sum())
    assert e.area == pytest.approx(c.sum(axis=1) / c.sum())
    assert e.producers == pytest.approx(np.diag(c) / c.sum(axis=1))


def test_shares_by_name_and_intervals_inside_unit_range():
    e = stratified_estimates([[9, 0], [1, 10]], {"b": 0.3, "a": 0.7}, ["a", "b"])
    assert e.weights.tolist() == [0.7, 0.3]
    lo, hi = e.users_ci
    assert np.all(lo >= 0) and np.all(hi <= 1) and hi[1] == 1.0  # a user's accuracy of 1 has SE 0


@pytest.mark.parametrize("shares, labels, words", [
    ({"a": 0.5, "c": 0.5}, ["a", "b"], "'c', which is not a class"),
    ({"a": 1.0}, ["a", "b"], "no share for class 'b'"),
    ([0.5, 0.6], None, "sum to 1"),
    ([0.5, -0.5, 1.0], None, "≥ 0"),
    ([0.5, 0.5], None, "at least two sample items"),
])
def test_bad_shares_and_thin_strata_are_one_sentence(shares, labels, words):
    counts = [[5, 0], [0, 1]] if words == "at least two sample items" else [[5, 1], [2, 6]]
    if len(shares) == 3:
        counts = np.eye(3) * 5 + 1
    with pytest.raises(InputError, match=words):
        stratified_estimates(counts, shares, labels)


# ----------------------------------------------------------------------------------------------
# The answers key, the recommendation, the methods paragraph and the report (tests/situations/landcover.yaml)
# ----------------------------------------------------------------------------------------------
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import yaml  # noqa: E402

from advisor.engine import ConfusionMatrix, compute_metrics  # noqa: E402
from advisor.questionnaire import answers_from_mapping, load_answers, recommend  # noqa: E402
from advisor.report import build_report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LANDCOVER = ROOT / "tests" / "situations" / "landcover.yaml"


def _evaluation(ctx) -> str:
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)


def test_the_engine_metric_is_the_published_overall_accuracy():
    w = MAPPED_PIXELS / MAPPED_PIXELS.sum()
    value = compute_metrics(OLOFSSON_TABLE_8.T, ["stratified_accuracy"], class_weights=w)["stratified_accuracy"]
    assert round(value, 2) == 0.95 and value == pytest.approx(stratified_estimates(OLOFSSON_TABLE_8.T, w).overall)
    # a sample allocated in proportion to the map is accuracy
    c = np.array([[30, 2], [5, 13]], dtype=float)
    assert compute_metrics(c, ["stratified_accuracy"], class_weights=c.sum(axis=0))["stratified_accuracy"] == \
        pytest.approx(np.trace(c) / c.sum())


@pytest.mark.parametrize("shares, words", [
    ({"a": 0.5, "b": 0.3, "d": 0.2}, "'d' is not a class"),
    ({"a": 0.5, "b": 0.5}, "give the mapped share of every class ('c' has none"),
    ({"a": 0.5, "b": 0.3, "c": 0.3}, "must sum to 1 (they sum to 1.1)"),
])
def test_map_shares_are_validated_in_one_sentence(shares, words):
    with pytest.raises(InputError, match=re.escape(words)):
        answers_from_mapping({"classes": ["a", "b", "c"], "map_shares": shares})


def test_bad_map_shares_exit_with_one_sentence(tmp_path):
    f = tmp_path / "a.yaml"
    f.write_text("classes: [a, b, c]\nmap_shares: {a: 0.5, b: 0.5, x: 0.0}\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "methods", "--answers",
                          str(f), "-o", str(tmp_path / "m.md")], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "'x' is not a class" in errors[0]


def test_the_landcover_recommendation_leads_with_the_area_weighted_accuracy():
    r = recommend(load_answers(LANDCOVER))
    assert r.primary.metric == "stratified_accuracy"
    assert r.primary.params["class_weights"]["forest"] == 0.42
    beside = {a.metric for a in r.complementary}
    against = {a.metric: a.reason for a in r.discouraged}
    assert not beside & {"accuracy", "balanced_accuracy", "macro_f1", "cohen_kappa"}
    assert "Pontius & Millones" in against["cohen_kappa"] and "describes the sample" in against["accuracy"]


def test_the_landcover_paragraph_reads_as_the_reader_asked():
    ctx = build_report(load_answers(LANDCOVER), None, bootstrap=2000, seed=1)
    text = _evaluation(ctx)
    assert "The sample pixels were drawn stratified by map class" in text
    assert "are the mapped-area proportions that weight the strata" in text
    assert ("the error matrix is estimated in area proportions, and given with each cell's standard error and each "
            "stratum's sample size") in text
    assert ("From it we report overall, user's and producer's accuracy and the area of each class, with 95% "
            "intervals") in text
    # kappa's replacement, as its source recommends (the s28 land-cover reader), defined with the formulas
    assert "Kappa is not reported, as current good practice advises; quantity and allocation disagreement take its " \
           "place" in text
    for absent in ("balanced accuracy", "F1", "weighs every", "Congalton", "bootstrap"):
        assert absent not in text, absent
    cited = {k for p in ctx.methods for s in p.spans if s.kind == "cite" for k in s.keys}
    assert {"olofsson2014good", "pontius2011death"} <= cited
    assert len(text.split()) <= 220
    definitions = next(p for p in ctx.methods if p.heading == "Definitions")
    maths = " ".join(s.text for s in definitions.spans if s.kind == "math")
    assert r"\hat p_{ij} = W_j\,C_{ij}/b_j" in maths and "U_j = C_{jj}/b_j" in maths
    assert r"Q = \tfrac{1}{2}" in maths and r"A = \sum_{g=1}^{k}\min" in maths


def _pontius(p_map_rows: np.ndarray) -> tuple[float, float]:
    """Quantity and allocation disagreement as Pontius & Millones (2011), eqs. 2–5, write them: the comparison (map)
    categories as ROWS i, the reference as columns j, p_ij proportions of the whole; q_g = |p_g+ − p_+g|, Q = Σ q_g / 2,
    a_g = 2 min(p_g+ − p_gg, p_+g − p_gg), A = Σ a_g / 2 — an independent loop over the categories."""
    k = p_map_rows.shape[0]
    q = a = 0.0
    for g in range(k):
        row = sum(p_map_rows[g, j] for j in range(k))  # mapped as g
        col = sum(p_map_rows[i, g] for i in range(k))  # reference g
        q += abs(row - col)
        a += 2 * min(row - p_map_rows[g, g], col - p_map_rows[g, g])
    return q / 2, a / 2


def test_quantity_and_allocation_disagreement_follow_pontius_and_millones(olofsson):
    q, a = _pontius(olofsson.proportions.T)
    assert olofsson.quantity == pytest.approx(q, abs=1e-15) and olofsson.allocation == pytest.approx(a, abs=1e-15)
    assert olofsson.quantity + olofsson.allocation == pytest.approx(1 - olofsson.overall, abs=1e-15)  # eq. 6
    rng = np.random.default_rng(3)
    for _ in range(50):
        counts = rng.integers(0, 30, size=(5, 5)).astype(float) + np.eye(5) * 40
        w = rng.dirichlet(np.ones(5))
        e = stratified_estimates(counts, w)
        q, a = _pontius(e.proportions.T)
        assert (e.quantity, e.allocation) == pytest.approx((q, a), abs=1e-14)
        assert e.quantity + e.allocation == pytest.approx(1 - e.overall, abs=1e-14)


def test_each_cell_has_the_standard_error_of_its_stratum():
    counts = np.array([[30, 2, 1], [4, 25, 3], [1, 3, 20]], dtype=float)
    w = np.array([0.5, 0.3, 0.2])
    e = stratified_estimates(counts, w)
    b = counts.sum(axis=0)
    for i in range(3):
        for j in range(3):
            share = counts[i, j] / b[j]
            assert e.proportions_se[i, j] == pytest.approx(w[j] * np.sqrt(share * (1 - share) / (b[j] - 1)), abs=1e-15)


def test_without_the_key_the_landcover_paragraph_stays_as_it_was():
    data = yaml.safe_load(LANDCOVER.read_text(encoding="utf-8"))
    shares = data.pop("map_shares")
    data.update(deployment_prevalence="shifted", target_prevalence=shares)
    answers = answers_from_mapping(data)
    assert recommend(answers).primary.metric == "accuracy"
    text = _evaluation(build_report(answers, None, bootstrap=2000, seed=1))
    # the metric's own source is cited at its name, the reason follows (the CoLA reader's citation order)
    assert re.search(r"We lead with overall accuracy\s*(X\s*)?, which weighs every sample pixel equally", text), text
    assert "area proportions" not in text


def test_the_report_shows_the_area_weighted_table_and_its_interval():
    counts = np.array([[90, 3, 2, 4, 0, 2], [1, 85, 3, 1, 5, 2], [3, 2, 87, 2, 1, 3], [2, 4, 3, 49, 1, 0],
                       [1, 2, 2, 3, 50, 2], [3, 4, 3, 1, 3, 51]], dtype=float)
    labels = ["forest", "cropland", "grassland", "water", "urban", "bare"]
    answers = load_answers(LANDCOVER)
    ctx = build_report(answers, {"map": ConfusionMatrix(counts, labels)}, bootstrap=200, seed=1)
    e = stratified_estimates(counts, answers.map_shares, labels)
    table = next(t for t in ctx.tables if t.id == "stratified_estimates")
    rows = {r[1]: r for r in table.rows}
    assert rows["bare"][4].startswith(f"{e.users[5]:.3f} [") and rows["bare"][6].startswith(f"{e.area[5]:.3f} [")
    assert rows["overall accuracy"][4] == f"{e.overall:.3f} [{e.overall_ci[0]:.3f}, {e.overall_ci[1]:.3f}]"
    matrix = next(t for t in ctx.tables if t.id == "stratified_matrix")  # the matrix itself, cell by cell
    cells = {r[0]: r for r in matrix.rows}
    assert cells["forest"][2] == f"{e.proportions[0, 1]:.3f} ({e.proportions_se[0, 1]:.3f})"  # forest mapped cropland
    assert cells["cropland"][1] == f"{e.proportions[1, 0]:.3f} ({e.proportions_se[1, 0]:.3f})"
    assert cells["sample items"][1:] == [f"{b:g}" for b in counts.sum(axis=0)] + [f"{counts.sum():g}"]
    assert f"Quantity disagreement {e.quantity:.3f}, allocation disagreement {e.allocation:.3f}" in matrix.caption
    est = ctx.systems[0].intervals["stratified_accuracy"]
    assert (est.low, est.high) == pytest.approx(e.overall_ci) and ctx.intervals.methods["stratified_accuracy"] == \
        "stratified"
