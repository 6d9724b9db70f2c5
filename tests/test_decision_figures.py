"""Issue 21 items 3 and 4: binary risks get a calibration-curve figure (the loess curve the ICI averages its
distance to) and risks acted on at thresholds a decision-curve figure (net benefit of every system with its
intervals, treat-all and treat-none), in every format that draws figures."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app
from advisor.report._figures_scores import draw_calibration_curve, draw_decision_curve

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parents[1]
RISK = [ROOT / "examples/scores/risk_calibrated.csv", ROOT / "examples/scores/risk_overconfident.csv"]
ANSWERS = ROOT / "examples/answers/risk_estimates.yaml"


@pytest.fixture(scope="module")
def ctx():
    return advisor.build_report(ANSWERS, advisor.load([str(p) for p in RISK]), seed=7, bootstrap=200,
                                decision_thresholds=[0.1, 0.2, 0.3])


def test_decision_curve_draws_each_systems_net_benefit(ctx):
    import matplotlib.pyplot as plt

    fig, caption = draw_decision_curve(ctx, plt)
    ax = fig.axes[0]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    # the curve runs over every threshold from the smallest to the largest named one (the sepsis reader: "net
    # benefit at three points instead of a decision curve over 5–20%") and passes through the tabulated points
    for r in ctx.systems:
        xs, ys = list(lines[r.name].get_xdata()), list(lines[r.name].get_ydata())
        assert xs[0] == pytest.approx(0.1) and xs[-1] == pytest.approx(0.3) and len(xs) > 50
        at = {round(x, 12): y for x, y in zip(xs, ys)}
        assert [at[t] for t in (0.1, 0.2, 0.3)] == pytest.approx([r.values[f"net_benefit@{t:g}"] for t in (0.1, 0.2,
                                                                                                          0.3)])
    everyone = dict(zip((round(x, 12) for x in lines["treat all"].get_xdata()), lines["treat all"].get_ydata()))
    assert [everyone[t] for t in (0.1, 0.2, 0.3)] == pytest.approx([ctx.scores.net_benefit_all[f"{t:g}"]
                                                                    for t in (0.1, 0.2, 0.3)])
    assert "treat none" in lines and "95% bootstrap intervals" in caption and "Vickers" in caption
    assert "over every threshold from 0.1 to 0.3" in caption
    plt.close(fig)


def test_the_dense_decision_curve_equals_dcurves(ctx):
    dcurves = pytest.importorskip("dcurves")
    import pandas as pd

    frames = {p.stem: pd.read_csv(p) for p in RISK}
    for name, curve in ctx.scores.net_benefit_curve.items():
        df = frames[name]
        y = (df["y_true"].astype(str) == str(ctx.scores.positive_label)).astype(int)
        data = pd.DataFrame({"y": y, "risk": df[f"p_{ctx.scores.positive_label}"].astype(float)})
        ts = list(curve.x[::10])
        out = dcurves.dca(data=data, outcome="y", modelnames=["risk"], thresholds=ts)
        model = out[out["model"] == "risk"].sort_values("threshold")["net_benefit"].to_numpy()
        assert list(model) == pytest.approx([curve.y[i] for i in range(0, len(curve.x), 10)], abs=1e-12)


def test_calibration_curve_is_the_loess_curve_with_intercept_and_slope(ctx):
    import matplotlib.pyplot as plt

    fig, caption = draw_calibration_curve(ctx, plt)
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    over = next(r for r in ctx.systems if r.name == "risk_overconfident")
    assert any(f"slope {over.values['calibration_slope']:.2f}" in lab for lab in labels)
    assert "loess" in caption and "integrated calibration index" in caption
    plt.close(fig)


def test_report_writes_both_figures(tmp_path):
    out = tmp_path / "risk.md"
    res = CliRunner().invoke(app, ["report", "--answers", str(ANSWERS), *map(str, RISK), "--seed", "7", "--bootstrap",
                                   "200", "--decision-thresholds", "0.1,0.2,0.3", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    for fig in ("calibration_curve", "decision_curve"):
        assert (tmp_path / "risk-figures" / f"{fig}.svg").is_file() and f"{fig}.svg" in text


def test_calibration_band_holds_the_curve_and_ignores_row_order(ctx, tmp_path):
    import pandas as pd

    sd = ctx.scores
    for name, curve in sd.smooth.items():
        low, high = (b.y for b in sd.smooth_band[name])
        inside = [lo <= f <= hi for lo, f, hi in zip(low, curve.y, high)]
        assert all(lo <= hi for lo, hi in zip(low, high)) and sum(inside) >= 0.9 * len(inside), name
    shuffled = []
    for p in RISK:
        df = pd.read_csv(p).sample(frac=1.0, random_state=3)
        shuffled.append(tmp_path / p.name)
        df.to_csv(shuffled[-1], index=False)
    other = advisor.build_report(ANSWERS, advisor.load([str(p) for p in shuffled]), seed=7, bootstrap=200,
                                 decision_thresholds=[0.1, 0.2, 0.3])
    for name in sd.smooth_band:
        for a, b in zip(sd.smooth_band[name], other.scores.smooth_band[name]):
            assert a.y == pytest.approx(b.y, abs=1e-12)
