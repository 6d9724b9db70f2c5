"""Issue 11, item 3: with more than two systems the winners control the family-wise error over all pairs."""

from __future__ import annotations

import numpy as np

from advisor import compare_systems
from advisor.stats._compare import familywise_winners

SEEDS = 20
N_SYSTEMS = 20  # 190 pairs


def _equal_systems(seed: int, n: int = 400) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """20 systems of identical quality: each item right with probability 0.75, independently."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    preds = {}
    for s in range(N_SYSTEMS):
        wrong = rng.random(n) > 0.75
        preds[f"s{s:02d}"] = np.where(wrong, (y + rng.integers(1, 3, n)) % 3, y)
    return y, preds


def test_twenty_equal_systems_are_not_called_separable_beyond_the_nominal_rate():
    separated = 0
    uncorrected = 0
    for seed in range(SEEDS):
        y, preds = _equal_systems(seed)
        c = compare_systems(y, preds, n_resamples=1000, seed=seed, metrics=["accuracy"])
        mc = c.metrics["accuracy"]
        assert len(mc.pairs) == 190 and all(p.p_value is not None for p in mc.pairs)
        separated += len(mc.winners) < N_SYSTEMS
        # what the old rule (each system against the best, no correction) would have said
        best = mc.best[0]
        uncorrected += any(not (c.difference(best, s, "accuracy").low <= 0 <= c.difference(best, s, "accuracy").high)
                           for s in c.systems if s != best)
        assert "Holm" in c.winners_method and "190 pairs" in c.winners_method
        ranks = mc.rank_intervals
        assert set(ranks) == set(c.systems) and all(1 <= lo <= hi <= N_SYSTEMS for lo, hi in ranks.values())
    # nominal family-wise error 5 %: at most 3 of 20 seeds (P(≥ 4 | 5 %) ≈ 1.6 %)
    assert separated <= 3, separated
    assert uncorrected > separated  # the uncorrected rule separates equal systems far more often


def test_clearly_different_systems_are_still_separated():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 2000)

    def noisy(p):
        return np.where(rng.random(y.size) < p, y, 1 - y)

    preds = {"best": noisy(0.95), "mid": noisy(0.8), "low": noisy(0.6), "twin": noisy(0.95)}
    c = compare_systems(y, preds, n_resamples=2000, seed=0, metrics=["accuracy", "mcc"])
    for m in ("accuracy", "mcc"):
        assert set(c.winners(m)) == {"best", "twin"}
        lo, hi = c.metrics[m].rank_intervals["low"]
        assert lo == hi == 4.0
    d = c.to_dict()
    assert d["bootstrap"]["winners_method"].startswith("more than two systems: Holm")


def test_two_systems_keep_the_interval_rule():
    y = [0, 0, 1, 1, 1, 0, 1, 0] * 25
    c = compare_systems(y, {"good": y, "bad": [0] * 200}, n_resamples=300, seed=0, metrics=["accuracy"])
    assert c.winners("accuracy") == ["good"] and c.winners_method.startswith("two systems")


def test_holm_step_down_stops_at_the_first_kept_pair():
    p = {("a", "b"): 0.001, ("a", "c"): 0.03, ("b", "c"): 0.02}
    # thresholds 0.05/3, 0.05/2, 0.05/1: 0.001 rejected, 0.02 ≤ 0.025 rejected, 0.03 ≤ 0.05 rejected
    assert familywise_winners(["a", "b", "c"], [3.0, 2.0, 1.0], p) == ["a"]
    p[("a", "b")] = 0.02  # sorted 0.02, 0.02, 0.03: first threshold 0.0167 fails, nothing rejected
    assert familywise_winners(["a", "b", "c"], [3.0, 2.0, 1.0], p) == ["a", "b", "c"]


def test_the_report_shows_holm_winners_and_rank_intervals(tmp_path):
    from advisor.report import build_report
    from advisor.report import render_report

    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 600)
    data = {"y_true": y}
    for name, p in (("a", 0.9), ("b", 0.88), ("c", 0.5)):
        data[name] = np.where(rng.random(y.size) < p, y, (y + 1) % 3)
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: multiclass\nn_classes: 3\nranking: true\n", encoding="utf-8")
    ctx = build_report(answers, data, seed=0, bootstrap=1000)
    lead = next(iter(ctx.winners))
    assert "c" not in ctx.winners[lead]
    c = next(s for s in ctx.systems if s.name == "c")
    assert c.rank_interval[lead] == [3.0, 3.0]
    text = render_report(ctx, "md", figures=False)
    assert "Holm's correction" in text and "interval of its rank" in text
