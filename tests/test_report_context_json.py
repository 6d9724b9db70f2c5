"""The JSON report context keeps infinities (LR+ of a classifier without false positives)."""

from __future__ import annotations

import json
import math

import advisor
from advisor.report import build_report, context_from_json, render_report


def test_infinite_values_survive_the_json_round_trip(tmp_path) -> None:
    cm = advisor.ConfusionMatrix([[50, 0], [10, 40]], ["neg", "pos"])  # no false positives: LR+ = inf
    assert math.isinf(advisor.compute_metrics(cm, ["lr_plus"], positive_label="pos")["lr_plus"])
    ctx = build_report({"task": "binary", "classes": ["neg", "pos"], "positive_class": "pos"}, {"s": cm},
                       bootstrap=200, seed=1)
    out = tmp_path / "ctx.json"
    render_report(ctx, "json", out)
    text = out.read_text(encoding="utf-8")
    json.loads(text)  # strict JSON: no NaN/Infinity literals
    assert "Infinity" not in text and '"inf"' in text
    assert json.loads(text)["metrics"]["s"]["lr_plus"] == "inf"
    assert context_from_json(json.loads(text)) == ctx
