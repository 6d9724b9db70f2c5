"""The machine read against the human–human baseline (issue 22, the essay reader; Williamson, Xi & Breyer 2012):
the individual raters' scores beside the resolved score (answers key ``rater_columns``), the same figures for the
raters against each other, and the degradation of the machine's QWK from the raters' QWK, with a paired interval."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from advisor.engine import baseline_ratings, judge_comparison
from advisor.questionnaire import Answers
from advisor.stats import structure_bootstrap

ORDER = [1, 2, 3, 4, 5, 6]
BASE = dict(context="Essays are scored 1-6 by the model against the resolved score of two raters.", item_name="essay",
            field="automated_essay_scoring", label_structure="ordinal", task="multiclass", classes=ORDER,
            outputs="labels", tolerated_steps=1, planned_metrics=["quadratic weighted kappa", "exact agreement",
                                                                   "adjacent agreement"])


def _scores(n: int = 400, seed: int = 5):
    rng = np.random.default_rng(seed)
    t = np.clip(np.round(rng.normal(3.5, 1.0, n)), 1, 6).astype(int)
    r1 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    r2 = np.clip(t + rng.choice([-1, 0, 0, 1], n), 1, 6)
    p = np.clip(t + rng.choice([-2, -1, 0, 0, 1], n), 1, 6)
    return t, p, r1, r2


def test_figures_and_degradation_match_an_independent_implementation() -> None:
    t, p, r1, r2 = _scores()
    c = judge_comparison(baseline_ratings(p.tolist(), {"rater_1": r1.tolist(), "rater_2": r2.tolist()}, ORDER))
    m1, m2, humans = c["rows"]
    # like for like (the essay reader, issue 22): the machine against each single rater, as the raters are set
    # against each other — not against the resolved score, which pools two raters and would favour the machine
    assert [(r["first"], r["second"]) for r in c["rows"]] == \
        [("machine", "rater_1"), ("machine", "rater_2"), ("rater_1", "rater_2")]
    q_1 = cohen_kappa_score(p, r1, weights="quadratic", labels=ORDER)   # scikit-learn's weighted kappa
    q_2 = cohen_kappa_score(p, r2, weights="quadratic", labels=ORDER)
    q_h = cohen_kappa_score(r1, r2, weights="quadratic", labels=ORDER)
    assert m1["weighted_kappa"] == pytest.approx(q_1, abs=1e-12)
    assert m2["weighted_kappa"] == pytest.approx(q_2, abs=1e-12)
    assert humans["weighted_kappa"] == pytest.approx(q_h, abs=1e-12)
    assert c["delta"]["weighted_kappa"] == pytest.approx((q_1 + q_2) / 2 - q_h, abs=1e-12)
    assert m1["agreement"] == pytest.approx(float(np.mean(p == r1)))
    assert humans["adjacent"] == pytest.approx(float(np.mean(np.abs(r1 - r2) <= 1)))
    # the resolved score t is not on either side
    assert cohen_kappa_score(p, t, weights="quadratic", labels=ORDER) not in (m1["weighted_kappa"], q_h)


def test_three_raters_average_the_three_pairs() -> None:
    t, p, r1, r2 = _scores()
    r3 = np.roll(r1, 7)
    c = judge_comparison(baseline_ratings(p, {"a": r1, "b": r2, "c": r3}, ORDER))
    pairs = [(r1, r2), (r1, r3), (r2, r3)]
    mean_h = np.mean([cohen_kappa_score(x, y, weights="quadratic", labels=ORDER) for x, y in pairs])
    q_m = np.mean([cohen_kappa_score(p, r, weights="quadratic", labels=ORDER) for r in (r1, r2, r3)])
    assert c["delta"]["weighted_kappa"] == pytest.approx(q_m - mean_h, abs=1e-12)


def test_the_interval_of_the_degradation_is_paired_and_clusters_resample_whole_schools() -> None:
    t, p, r1, r2 = _scores(300)
    jr = baseline_ratings(p, {"r1": r1, "r2": r2}, ORDER)
    schools = np.repeat(np.arange(30), 10)
    bs = structure_bootstrap("agreement", jr, jr.ids(), n_resamples=300, seed=1, groups=schools)
    d = bs["delta_weighted_kappa"]
    assert d["low"] <= d["estimate"] <= d["high"]
    # paired: the degradation's interval is narrower than the two sides' intervals would allow if drawn apart
    width = lambda k: bs[k]["high"] - bs[k]["low"]  # noqa: E731
    assert width("delta_weighted_kappa") < width("weighted_kappa#0") + width("weighted_kappa#2")


def test_a_score_outside_the_classes_is_one_sentence() -> None:
    with pytest.raises(Exception, match="is not one of the classes"):
        baseline_ratings([1, 2], {"r1": [1, 7], "r2": [1, 2]}, ORDER)


@pytest.mark.parametrize("bad,why", [(["r1"], "at least two"), (["r1", "r1"], "each given once"),
                                     (["school", "r2"], "group or a subgroup")])
def test_rater_columns_are_checked(bad, why) -> None:
    with pytest.raises(ValueError, match=why):
        Answers(**{**BASE, "group": "school", "rater_columns": bad})


def _essay_csv(tmp_path, n: int = 400, schools: int = 25, seed: int = 7):
    rng = np.random.default_rng(seed)
    school = rng.integers(0, schools, n)
    t = np.clip(np.round(rng.normal(3.5, 1.0, n) + (school % 5 - 2) * 0.3), 1, 6).astype(int)
    r1 = np.clip(t + rng.choice([-1, 0, 0, 0, 1], n), 1, 6)
    r2 = np.clip(t + rng.choice([-1, 0, 0, 0, 1], n), 1, 6)
    p = np.clip(t + rng.choice([-2, -1, 0, 0, 0, 1, 1], n), 1, 6)
    path = tmp_path / "essays.csv"
    lines = ["school_id,rater_1,rater_2,y_true,y_pred"]
    lines += [f"s{school[i]},{r1[i]},{r2[i]},{t[i]},{p[i]}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, school, t, p, r1, r2


def test_ordinal_cells_resample_whole_groups_like_an_independent_cluster_bootstrap(tmp_path) -> None:
    from advisor.engine import ordinal_cells, with_counts
    _, school, t, p, _, _ = _essay_csv(tmp_path)
    # one cell per item, its group its school: the cluster bootstrap of the one resampler
    base = ordinal_cells(y_true=t.tolist(), y_pred=p.tolist(), order=ORDER)
    cells = with_counts(base, np.ones(len(t)), t - 1, p - 1)
    ours = structure_bootstrap("ordinal", cells, ["weighted_kappa_quadratic"], n_resamples=1500, seed=3,
                               groups=school)["weighted_kappa_quadratic"]
    assert ours["estimate"] == pytest.approx(cohen_kappa_score(p, t, weights="quadratic", labels=ORDER), abs=1e-12)
    rng = np.random.default_rng(11)  # schools drawn with replacement, scikit-learn's kappa on the drawn essays
    ids = np.unique(school)
    values = []
    for _ in range(1500):
        drawn = rng.choice(ids, ids.size)
        rows = np.concatenate([np.flatnonzero(school == s) for s in drawn])
        values.append(cohen_kappa_score(p[rows], t[rows], weights="quadratic", labels=ORDER))
    lo, hi = np.percentile(values, [2.5, 97.5])
    assert ours["high"] - ours["low"] == pytest.approx(hi - lo, rel=0.25)
    items = structure_bootstrap("ordinal", cells, ["weighted_kappa_quadratic"], n_resamples=1500,
                                seed=3)["weighted_kappa_quadratic"]
    assert ours["high"] - ours["low"] > items["high"] - items["low"]  # schools differ: wider than by essays


def test_report_with_schools_and_raters_gives_the_baseline_table(tmp_path, cli) -> None:
    import yaml
    path, school, t, p, r1, r2 = _essay_csv(tmp_path)
    answers = tmp_path / "essay.yaml"
    answers.write_text(yaml.safe_dump({**BASE, "group": "school_id", "rater_columns": ["rater_1", "rater_2"]}),
                       encoding="utf-8")
    out = tmp_path / "report.md"
    r = cli("report", str(path), "--answers", str(answers), "--seed", "1", "--bootstrap", "200", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "The machine against the human–human baseline" in text
    q_h = cohen_kappa_score(r1, r2, weights="quadratic", labels=ORDER)
    assert f"| rater_1 – rater_2 | {len(t)} |" in text and f"{q_h:.3f} [" in text.replace("\\[", "[")
    # each figure with its comparison (the essay reader: "the reference is ambiguous")
    # and the degradation named by its symbol, which its formula defines (the s41 essay reader: "dangling")
    assert "We give each figure for the machine against the resolved score and each rater, and between the raters, " \
           "with a paired interval for the degradation $D$." in text
    assert "resamples of the 25 schools" in text


def test_report_with_raters_but_no_group_or_subgroups(tmp_path, cli) -> None:
    # a reviewer's check: the raters' columns are read per item like subgroups, so the report needs no group
    import yaml
    path, _, t, p, r1, r2 = _essay_csv(tmp_path)
    answers = tmp_path / "essay.yaml"
    answers.write_text(yaml.safe_dump({**BASE, "rater_columns": ["rater_1", "rater_2"]}), encoding="utf-8")
    out = tmp_path / "report.md"
    r = cli("report", str(path), "--answers", str(answers), "--seed", "1", "--bootstrap", "200", "-o", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    q_1 = cohen_kappa_score(p, r1, weights="quadratic", labels=ORDER)
    assert f"| machine – rater_1 | {len(t)} | " in text and f"{q_1:.3f}" in text
    assert "The machine (“" in text  # the system the baseline is read for is named


def test_rater_columns_need_ordered_classes() -> None:
    # adjacent agreement and the weighted kappa of the baseline need an order (a reviewer: nominal classes got both)
    with pytest.raises(ValueError, match="ordered classes"):
        Answers(**{**BASE, "label_structure": "nominal", "rater_columns": ["r1", "r2"]})


def test_a_rater_column_missing_from_the_file_is_one_sentence(tmp_path, cli) -> None:
    import yaml
    path, *_ = _essay_csv(tmp_path)
    answers = tmp_path / "essay.yaml"
    answers.write_text(yaml.safe_dump({**BASE, "rater_columns": ["rater_1", "rater_9"]}), encoding="utf-8")
    r = cli("report", str(path), "--answers", str(answers), "--seed", "1", "--bootstrap", "200",
            "-o", str(tmp_path / "r.md"))
    assert r.exit_code != 0 and "rater_9" in r.output and "Traceback" not in r.output
