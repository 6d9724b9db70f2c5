"""Issue 23 item 1: subgroups (``--by``, ``by=``) — per-subgroup metrics and the gaps across subgroups.

Oracle: fairlearn's ``MetricFrame`` (per-subgroup values of scikit-learn's metrics) and its
``equalized_odds_difference``, ``equalized_odds_ratio``, ``demographic_parity_difference`` and
``demographic_parity_ratio``, which are defined as advisor's gaps (max − min) and ratios (min / max).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor import InputError
from advisor.cli import app

fairlearn_metrics = pytest.importorskip("fairlearn.metrics")
sk = pytest.importorskip("sklearn.metrics")


def _frame(seed: int = 0, n: int = 600):
    """Binary labels, two systems whose accuracy depends on sex and site, and the two subgroup columns."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    sex = rng.choice(["F", "M"], n, p=[0.4, 0.6])
    site = rng.choice(["north", "south", "east"], n)
    y = (rng.random(n) < np.where(sex == "F", 0.3, 0.45)).astype(int)
    acc_a = np.where(sex == "F", 0.9, 0.75) - np.where(site == "east", 0.1, 0.0)
    a = np.where(rng.random(n) < acc_a, y, 1 - y)
    b = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"y_true": y, "a": a, "b": b, "sex": sex, "site": site})


def _oracle(df, system: str, col: str):
    from fairlearn.metrics import MetricFrame, false_positive_rate, selection_rate, true_positive_rate

    return MetricFrame(metrics={"tpr": true_positive_rate, "fpr": false_positive_rate,
                                "selection_rate": selection_rate,
                                "precision": lambda t, p: sk.precision_score(t, p, zero_division=0),
                                "accuracy": sk.accuracy_score, "balanced_accuracy": sk.balanced_accuracy_score,
                                "f1": lambda t, p: sk.f1_score(t, p, zero_division=0),
                                "mcc": sk.matthews_corrcoef},
                       y_true=df["y_true"], y_pred=df[system], sensitive_features=df[col])


@pytest.mark.parametrize("col", ["sex", "site"])
def test_per_subgroup_values_and_gaps_match_fairlearn(col):
    df = _frame()
    ds = advisor.load(df, systems=["a", "b"], by=["sex", "site"])
    res = advisor.subgroups(ds, positive_label=1, metrics=["accuracy", "balanced_accuracy", "f1", "mcc"])
    for system in ("a", "b"):
        mf = _oracle(df, system, col)
        for value, row in mf.by_group.iterrows():
            got = res["groups"][col][str(value)][system]
            assert got["n"] == int((df[col] == value).sum())
            for m in ("tpr", "fpr", "selection_rate", "precision", "accuracy", "balanced_accuracy", "f1", "mcc"):
                assert got[m]["estimate"] == pytest.approx(row[m], abs=1e-12), (col, value, system, m)
        gaps = res["gaps"][col]
        for m in ("tpr", "fpr", "selection_rate", "precision", "accuracy"):
            assert gaps[m][system]["gap"] == pytest.approx(mf.difference()[m], abs=1e-12)
            assert gaps[m][system]["ratio"] == pytest.approx(mf.ratio()[m], abs=1e-12)
        kw = dict(y_true=df["y_true"], y_pred=df[system], sensitive_features=df[col])
        assert gaps["equalized_odds"][system]["gap"] == pytest.approx(
            fairlearn_metrics.equalized_odds_difference(**kw), abs=1e-12)
        assert gaps["equalized_odds"][system]["ratio"] == pytest.approx(
            fairlearn_metrics.equalized_odds_ratio(**kw), abs=1e-12)
        assert gaps["selection_rate"][system]["gap"] == pytest.approx(
            fairlearn_metrics.demographic_parity_difference(**kw), abs=1e-12)
        assert gaps["selection_rate"][system]["ratio"] == pytest.approx(
            fairlearn_metrics.demographic_parity_ratio(**kw), abs=1e-12)


def test_intervals_are_the_bootstrap_of_each_subgroup_and_contain_the_estimate():
    df = _frame(1)
    ds = advisor.load(df, systems=["a", "b"], by="sex")
    res = advisor.subgroups(ds, positive_label=1, metrics=["accuracy", "mcc"], n_resamples=300, seed=5)
    f = df[df.sex == "F"]
    cm = advisor.confusion_matrix(f["y_true"], f["a"], labels=[0, 1])
    alone = advisor.bootstrap(cm, n_resamples=300, seed=5, metrics=["accuracy", "mcc"], positive_label=1)
    got = res["groups"]["sex"]["F"]["a"]
    for m in ("accuracy", "mcc"):
        assert (got[m]["low"], got[m]["high"]) == pytest.approx((alone[m]["low"], alone[m]["high"]))
        assert got[m]["low"] <= got[m]["estimate"] <= got[m]["high"]
    assert got["tpr"]["method"] == "clopper_pearson" and got["tpr"]["low"] <= got["tpr"]["estimate"] <= got["tpr"]["high"]


def test_small_subgroups_are_warned_with_the_threshold_and_why():
    import pandas as pd

    df = pd.DataFrame({"y_true": [0, 1] * 40 + [0] * 10 + [1, 0],
                       "y_pred": [0, 1, 1, 1] * 20 + [0] * 12,
                       "site": ["big"] * 80 + ["tiny"] * 12})
    res = advisor.subgroups(advisor.load(df, by="site"), positive_label=1)
    assert len(res["warnings"]) == 1
    w = res["warnings"][0]
    assert "site = 'tiny'" in w and "12 items, fewer than 30" in w and "1 of class 1, fewer than 5" in w
    assert res["thresholds"] == {"items": 30, "per_class": 5}


def test_multiclass_gives_the_gap_of_every_metric_without_the_binary_rates():
    import pandas as pd

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 300)
    df = pd.DataFrame({"y_true": y, "y_pred": np.where(rng.random(300) < 0.7, y, (y + 1) % 3),
                       "g": rng.choice(["x", "y"], 300)})
    res = advisor.subgroups(advisor.load(df, by="g"), metrics=["accuracy", "macro_f1"])
    mf = __import__("fairlearn.metrics", fromlist=["MetricFrame"]).MetricFrame(
        metrics=sk.accuracy_score, y_true=df.y_true, y_pred=df.y_pred, sensitive_features=df.g)
    assert res["gaps"]["g"]["accuracy"]["y_pred"]["gap"] == pytest.approx(mf.difference())
    assert "tpr" not in res["gaps"]["g"] and "equalized_odds" not in res["gaps"]["g"]


def _write(path: Path, df) -> Path:
    df.to_csv(path, index=False)
    return path


@pytest.mark.parametrize("case,needle", [
    ("one value", "every item of"),
    ("missing", "has no column 'ethnicity'"),
    ("empty", "the sex cell (--by) is empty"),
])
def test_bad_by_columns_are_one_sentence_exit_2(tmp_path, case, needle):
    df = _frame(2, 60)[["y_true", "a", "sex"]].rename(columns={"a": "y_pred"})
    col = "sex"
    if case == "one value":
        df["sex"] = "F"
    elif case == "missing":
        col = "ethnicity"
    else:
        df.loc[7, "sex"] = ""
    path = _write(tmp_path / "m.csv", df)
    for command in (["compute"], ["compare"]):
        r = CliRunner().invoke(app, [*command, str(path), "--by", col])
        assert r.exit_code == 2, r.output
        msg = r.stderr.strip()
        assert needle in msg and msg.count("\n") == 0 and msg.endswith(".")
    with pytest.raises(InputError, match="by=" if case != "missing" else "ethnicity") as err:  # the API's name
        advisor.load(path, by=col)
    assert "--" not in str(err.value)


def test_compute_and_compare_json_carry_the_groups_and_gaps_of_the_api(tmp_path):
    df = _frame(4, 300)
    paths = []
    for s in ("a", "b"):
        paths.append(_write(tmp_path / f"{s}.csv", df[["y_true", s, "sex", "site"]].rename(columns={s: "y_pred"})))
    api = advisor.subgroups(advisor.load(paths, by=["sex", "site"]), positive_label=1, metrics=["accuracy", "mcc"],
                            n_resamples=200, seed=9)
    for command in ("compute", "compare"):
        r = CliRunner().invoke(app, [command, *map(str, paths), "--by", "sex", "--by", "site", "--positive", "1",
                                     "--metrics", "accuracy,mcc", "--bootstrap", "200", "--seed", "9", "--json"])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)  # system first, as every metric of every command (issue 24)
        assert list(data["groups"]) == list(api["groups"]) == ["sex", "site"]
        for col, per_value in api["groups"].items():
            assert list(data["groups"][col]) == list(per_value), command
            for value, per_system in per_value.items():
                block = data["groups"][col][value]
                for name, entry in per_system.items():
                    assert block["n"] == entry["n"]
                    for m, e in entry.items():
                        if m == "n":
                            continue
                        assert block["metrics"][name][m] == e["estimate"], (command, col, value, name, m)
                        if "low" in e:
                            assert block["intervals"][name][m] == e, (command, col, value, name, m)
        for name in ("a", "b"):
            assert data["gaps"]["site"][name]["equalized_odds"] == api["gaps"]["site"]["equalized_odds"][name]
            assert data["gaps"]["sex"][name]["tpr"] == api["gaps"]["sex"]["tpr"][name]
        assert data["subgroups"]["columns"] == ["sex", "site"] and data["subgroups"]["thresholds"]["items"] == 30
    text = CliRunner().invoke(app, ["compute", str(paths[0]), "--by", "site", "--positive", "1", "--metrics",
                                    "accuracy"])
    assert text.exit_code == 0 and "subgroups by site" in text.stdout and "equalized-odds difference" in text.stdout


def test_by_with_matrices_or_partitions_is_one_sentence_exit_2(tmp_path):
    m = tmp_path / "m.csv"
    m.write_text(",a,b\na,5,1\nb,2,4\n", encoding="utf-8")
    p = _write(tmp_path / "p.csv", _frame(5, 40)[["y_true", "a", "sex"]].rename(columns={"a": "y_pred"}))
    for args in (["compute", "--matrix", str(m), "--by", "sex"], ["compute", str(p), "--partitions", "--by", "sex"]):
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 2 and "--by" in r.stderr and r.stderr.strip().count("\n") == 0, r.output


def test_answers_subgroups_reach_the_plan_and_are_used():
    ans = advisor.Answers(task="binary", n_classes=2, subgroups=["sex", "site"])
    plan = advisor.make_plan(ans)
    assert plan.design.subgroups == ["sex", "site"]
    use = next(a for a in plan.answers if a.key == "subgroups")
    assert use.unused is None and "per subgroup" in use.used_by[0]
    with pytest.raises(Exception, match="named twice"):
        advisor.Answers(task="binary", n_classes=2, subgroups=["sex", "sex"])


def test_report_has_the_subgroup_tables_the_gaps_and_one_methods_sentence(tmp_path):
    df = _frame(6, 300)
    paths = []
    for s in ("a", "b"):
        paths.append(_write(tmp_path / f"{s}.csv", df[["y_true", s, "sex", "site"]].rename(columns={s: "y_pred"})))
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\nn_classes: 2\npositive_class: 1\nsubgroups: [sex]\n", encoding="utf-8")
    out = tmp_path / "r.json"
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), *map(str, paths), "--by", "site", "--seed", "2",
                                 "--bootstrap", "200", "-o", str(out)])
    assert r.exit_code == 0, r.output
    ctx = json.loads(out.read_text(encoding="utf-8"))
    assert list(ctx["groups"]) == ctx["subgroups"]["columns"] == ["sex", "site"]
    mf = _oracle(df, "a", "site")
    assert ctx["gaps"]["site"]["a"]["equalized_odds"]["gap"] == pytest.approx(
        fairlearn_metrics.equalized_odds_difference(df["y_true"], df["a"], sensitive_features=df["site"]))
    assert ctx["groups"]["site"]["east"]["metrics"]["a"]["tpr"] == pytest.approx(mf.by_group["tpr"]["east"])
    east = ctx["groups"]["site"]["east"]["intervals"]["a"]["tpr"]
    assert east["method"] == "clopper_pearson" and east["low"] <= east["estimate"] <= east["high"]
    ids = [t["id"] for t in ctx["tables"]]
    assert ids.count("subgroups") == 2 and "subgroup_gaps" in ids
    text = " ".join(s["text"] for p in ctx["methods"] for s in p["spans"])
    assert text.count("per subgroup of sex and site") == 1 and "equalized-odds difference" in text
    md = tmp_path / "r.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), *map(str, paths), "--seed", "2", "--bootstrap",
                                 "0", "-o", str(md)])
    assert r.exit_code == 0, r.output
    body = md.read_text(encoding="utf-8")
    assert "Subgroups by sex" in body and "Gaps across subgroups" in body and "Subgroups by site" not in body
    assert "r-figures/subgroups.svg" in body and (tmp_path / "r-figures" / "subgroups.svg").exists()


def test_report_subgroup_column_missing_or_not_read_is_one_sentence(tmp_path):
    df = _frame(7, 80)
    path = _write(tmp_path / "a.csv", df[["y_true", "a", "sex"]].rename(columns={"a": "y_pred"}))
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\nn_classes: 2\npositive_class: 1\nsubgroups: [ethnicity]\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(path), "--seed", "1", "-o",
                                 str(tmp_path / "r.md")])
    assert r.exit_code == 2 and "has no column 'ethnicity'" in r.stderr and not (tmp_path / "r.md").exists()
    with pytest.raises(InputError, match="was not read with the predictions"):
        advisor.build_report({"task": "binary", "positive_class": 1}, advisor.load(path), by="sex", bootstrap=0)


# -- the gaps' intervals (a stratified bootstrap; benchmarks/bench_subgroup_gaps.py measures their coverage) -------
def test_every_gap_gets_an_interval_that_holds_the_plug_in_gap():
    df = _frame(2)
    ds = advisor.load(df, systems=["a", "b"], by=["sex", "site"])
    res = advisor.subgroups(ds, positive_label=1, metrics=["accuracy", "mcc"], n_resamples=400, seed=3)
    for col in ("sex", "site"):
        for m, by_system in res["gaps"][col].items():
            for system, e in by_system.items():
                assert e["method"] == "simultaneous_pairwise_bootstrap", (col, m, system)
                assert 0.0 <= e["low"] <= e["gap"] + 1e-12 <= e["high"] + 2e-12, (col, m, system, e)
    # the same seed, the same intervals; without resamples, none
    again = advisor.subgroups(ds, positive_label=1, metrics=["accuracy", "mcc"], n_resamples=400, seed=3)
    assert again["gaps"] == res["gaps"]
    assert "low" not in advisor.subgroups(ds, positive_label=1, metrics=["accuracy"])["gaps"]["sex"]["tpr"]["a"]


def test_two_subgroups_interval_is_the_simultaneous_interval_of_their_difference():
    """With two subgroups there is one pair: the gap's interval is |d̂| ± c·se folded at 0, c the 95 % quantile of
    the resampled |d* − d̂| / se — rebuilt here from a stratified resampling of the two subgroups' items."""
    df = _frame(3, 800)
    ds = advisor.load(df, systems=["a"], by="sex")
    res = advisor.subgroups(ds, positive_label=1, metrics=["accuracy"], n_resamples=4000, seed=1)
    e = res["gaps"]["sex"]["accuracy"]["a"]
    rng = np.random.default_rng(0)
    f, m = (df[df.sex == v] for v in ("F", "M"))
    acc = lambda d: float(np.mean(d["y_true"].to_numpy() == d["a"].to_numpy()))  # noqa: E731
    d_hat = acc(f) - acc(m)
    ok_f, ok_m = (d["y_true"].to_numpy() == d["a"].to_numpy() for d in (f, m))
    d_star = np.array([ok_f[rng.integers(0, len(f), len(f))].mean() - ok_m[rng.integers(0, len(m), len(m))].mean()
                       for _ in range(4000)])
    se = d_star.std(ddof=1)
    c = np.quantile(np.abs(d_star - d_hat) / se, 0.95)
    lo, hi = d_hat - c * se, d_hat + c * se
    want_lo = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
    assert e["gap"] == pytest.approx(abs(d_hat))
    assert e["low"] == pytest.approx(want_lo, abs=0.01) and e["high"] == pytest.approx(max(abs(lo), abs(hi)), abs=0.01)


def test_gap_intervals_resample_the_groups_of_items_when_read_with_group():
    """Every item written five times, the copies one group: resampling the groups gives about the interval of the
    items written once; resampling the copies as items gives one about √5 narrower."""
    import pandas as pd

    df = _frame(5, 300)
    df["unit"] = np.arange(len(df))
    five = pd.concat([df] * 5, ignore_index=True)
    once = advisor.subgroups(advisor.load(df, systems=["a"], by="sex"), positive_label=1, metrics=["accuracy"],
                             n_resamples=2000, seed=4)["gaps"]["sex"]["tpr"]["a"]
    grouped = advisor.subgroups(advisor.load(five, systems=["a"], by="sex", group="unit"), positive_label=1,
                                metrics=["accuracy"], n_resamples=2000, seed=4)["gaps"]["sex"]["tpr"]["a"]
    items = advisor.subgroups(advisor.load(five, systems=["a"], by="sex"), positive_label=1, metrics=["accuracy"],
                              n_resamples=2000, seed=4)["gaps"]["sex"]["tpr"]["a"]
    width = {k: v["high"] - v["low"] for k, v in (("once", once), ("grouped", grouped), ("items", items))}
    assert grouped["gap"] == pytest.approx(once["gap"])
    assert width["grouped"] == pytest.approx(width["once"], rel=0.15)
    assert width["items"] < 0.6 * width["grouped"]


def test_gap_intervals_reach_the_json_the_table_and_the_report(tmp_path):
    df = _frame(7, 300)
    path = _write(tmp_path / "a.csv", df[["y_true", "a", "sex"]].rename(columns={"a": "y_pred"}))
    r = CliRunner().invoke(app, ["compute", str(path), "--by", "sex", "--positive", "1", "--metrics", "accuracy",
                                 "--bootstrap", "300", "--seed", "1", "--json"])
    e = json.loads(r.stdout)["gaps"]["sex"]["a"]["equalized_odds"]  # system first (schema 2)
    assert {"low", "high", "method"} <= set(e) and e["low"] <= e["gap"] <= e["high"]
    r = CliRunner().invoke(app, ["compute", str(path), "--by", "sex", "--positive", "1", "--metrics", "accuracy",
                                 "--bootstrap", "300", "--seed", "1"])
    line = next(x for x in r.stdout.splitlines() if "equalized-odds difference across sex" in x)
    assert f"[{e['low']:.4f}, {e['high']:.4f}]" in line
    assert "simultaneous bootstrap intervals of every difference" in r.stdout
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\nn_classes: 2\npositive_class: 1\nsubgroups: [sex]\n", encoding="utf-8")
    out = tmp_path / "r.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(answers), str(path), "--seed", "1", "--bootstrap", "300",
                                 "-o", str(out)])
    assert r.exit_code == 0, r.output
    body = out.read_text(encoding="utf-8")
    gaps = body[body.index("Gaps across subgroups"):]
    assert "simultaneous bootstrap intervals of every difference" in gaps and "biases upward" in gaps
    assert "simultaneous bootstrap interval" in body[:body.index("## Results")]
