"""``advisor compute``: JSON shape, inputs of every kind, and the installed console script."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import write_table

from advisor import chance_levels, compute_metrics, confusion_matrix, per_class
from advisor.engine._metrics import MULTICLASS_METRICS

Y = ["a", "b", "c", "a", "b", "a", "c", "b"]
P1 = ["a", "b", "a", "a", "c", "a", "c", "b"]
P2 = ["a", "a", "a", "a", "a", "a", "a", "b"]


@pytest.fixture
def two_systems(tmp_path: Path) -> list[Path]:
    return [write_table(tmp_path / "alpha.csv", {"y_true": Y, "y_pred": P1}),
            write_table(tmp_path / "beta.jsonl", {"y_true": Y, "y_pred": P2})]


def _json(result) -> dict:
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_json_shape_and_values(cli, two_systems: list[Path]) -> None:
    data = _json(cli("compute", *two_systems, "--json"))
    assert {"metrics", "per_class", "chance", "undefined", "labels", "convention", "n"} <= set(data)
    assert list(data["metrics"]) == ["alpha", "beta"]
    assert data["labels"] == ["a", "b", "c"] and data["convention"] == "omit" and data["n"] == 8  # the default (issue 22)
    for name, pred in (("alpha", P1), ("beta", P2)):
        expected = compute_metrics(confusion_matrix(Y, pred))
        assert list(data["metrics"][name]) == list(MULTICLASS_METRICS)
        for m, v in expected.items():
            assert data["metrics"][name][m] == pytest.approx(v, abs=1e-12), (name, m)
        table = per_class(confusion_matrix(Y, pred))
        # an undefined value (NaN, omit convention) is JSON null
        want = {k: None if isinstance(v, float) and v != v else v for k, v in table["c"].items()}
        got = data["per_class"][name]["c"]
        assert {k for k, v in got.items() if v is None} == {k for k, v in want.items() if v is None}
        assert {k: v for k, v in got.items() if v is not None} == pytest.approx(
            {k: v for k, v in want.items() if v is not None})
    chance = chance_levels(confusion_matrix(Y, P1))
    assert set(data["chance"]) == set(MULTICLASS_METRICS)
    assert data["chance"]["accuracy"] == pytest.approx(chance["accuracy"])
    # beta never predicts c: its precision is undefined, and every record says how it was resolved
    records = data["undefined"]["beta"]
    assert any(r["quantity"] == "precision" and r["label"] == "c" and r["metric"] == "macro_precision" for r in records)
    assert all({"metric", "quantity", "label", "reason", "resolution", "value"} <= set(r) for r in records)


def test_table_output(cli, two_systems: list[Path]) -> None:
    result = cli("compute", *two_systems)
    assert result.exit_code == 0, result.stderr
    for word in ("alpha", "beta", "balanced_accuracy", "majority", "Undefined values"):
        assert word in result.stdout


def test_metrics_positive_and_convention(cli, tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.parquet", {"y_true": [1, 0, 1, 1, 0], "y_pred": [1, 0, 0, 1, 0]})
    data = _json(cli("compute", f, "--json", "--metrics", "recall,mcc, f_beta", "--positive", "1", "--beta", "2"))
    assert list(data["metrics"]["s"]) == ["recall", "mcc", "f_beta"]
    assert data["metrics"]["s"]["recall"] == pytest.approx(2 / 3)
    assert data["metrics"]["s"]["f_beta"] == pytest.approx(5 * 2 / (4 * 3 + 2))
    assert data["positive_label"] == 1 and data["beta"] == 2.0
    g = write_table(tmp_path / "const.csv", {"y_true": [1, 0, 1], "y_pred": [1, 1, 1]})
    data = _json(cli("compute", g, "--json", "--metrics", "macro_precision,mcc", "--undefined", "omit"))
    assert data["convention"] == "omit"
    assert data["metrics"]["const"]["mcc"] is None  # NaN = not reported under omit
    assert {r["metric"] for r in data["undefined"]["const"]} >= {"macro_precision", "mcc"}


def test_matrix_counts_and_predictions_together(cli, tmp_path: Path) -> None:
    f = write_table(tmp_path / "pred.csv", {"y_true": Y, "y_pred": P1})
    cm = confusion_matrix(Y, P2)
    m = tmp_path / "mat.json"
    m.write_text(json.dumps(cm.to_dict()))
    c = write_table(tmp_path / "grouped.csv", {"true": Y, "pred": P1, "count": [1] * len(Y)})
    data = _json(cli("compute", f, "--matrix", m, "--counts", c, "--json", "--metrics", "accuracy"))
    assert data["metrics"] == {"pred": {"accuracy": 0.75}, "mat": {"accuracy": 0.5}, "grouped": {"accuracy": 0.75}}
    c2 = write_table(tmp_path / "custom.csv", {"gold": Y, "guess": P2, "n": [1] * len(Y)})
    data = _json(cli("compute", "--counts", c2, "--true-col", "gold", "--pred-col", "guess", "--count-col", "n",
                     "--json", "--metrics", "accuracy"))
    assert data["metrics"] == {"custom": {"accuracy": 0.5}}


def test_probability_metrics_and_their_chance_levels(cli, tmp_path: Path) -> None:
    f = write_table(tmp_path / "s.csv", {"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 0, 0],
                                         "p_0": [0.9, 0.2, 0.6, 0.5], "p_1": [0.1, 0.8, 0.4, 0.5]})
    data = _json(cli("compute", f, "--json", "--metrics", "accuracy,log_loss,brier"))
    expected = -(math.log(0.9) + math.log(0.8) + math.log(0.4) + math.log(0.5)) / 4
    assert data["metrics"]["s"]["log_loss"] == pytest.approx(expected)
    assert data["metrics"]["s"]["brier"] == pytest.approx((0.02 + 0.08 + 0.72 + 0.5) / 4)
    assert data["chance"]["log_loss"]["uniform"] == pytest.approx(math.log(2))
    assert data["chance"]["brier"]["prevalence"] == pytest.approx(0.5)


def test_installed_console_script(tmp_path: Path) -> None:
    """Smoke test of the real entry point (the script installed next to this Python)."""
    script = Path(sys.executable).parent / "advisor"
    if not script.exists():
        pytest.skip("console script not installed next to sys.executable")
    f = write_table(tmp_path / "s.csv", {"y_true": Y, "y_pred": P1})
    proc = subprocess.run([str(script), "compute", str(f), "--json", "--metrics", "accuracy"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["metrics"] == {"s": {"accuracy": 0.75}}
    bad = subprocess.run([str(script), "compute", str(tmp_path / "missing.csv")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


def test_bootstrap_intervals(cli, two_systems: list[Path]) -> None:
    args = ["compute", *two_systems, "--json", "--metrics", "accuracy,mcc", "--bootstrap", "300", "--seed", "7"]
    data = _json(cli(*args))
    # issue 20: the method is chosen per metric and each interval names it (it was one "percentile" for all)
    assert data["bootstrap"] == {"n_resamples": 300, "confidence": 0.95, "seed": 7, "seed_given": True,
                                 "method": "auto", "resampled": "items"}
    for name in ("alpha", "beta"):
        for m in ("accuracy", "mcc"):
            iv = data["intervals"][name][m]
            assert iv["estimate"] == pytest.approx(data["metrics"][name][m])
            assert iv["low"] <= iv["estimate"] <= iv["high"]
        assert data["intervals"][name]["accuracy"]["method"] == "clopper_pearson"
        assert data["intervals"][name]["mcc"]["method"] == "bca"
    assert _json(cli(*args)) == data  # same seed, same intervals
    table = cli("compute", *two_systems, "--metrics", "accuracy", "--bootstrap", "200", "--seed", "1")
    assert table.exit_code == 0 and "Clopper–Pearson for accuracy" in table.stdout and "seed 1" in table.stdout
