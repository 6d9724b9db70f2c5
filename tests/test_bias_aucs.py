"""The bias AUCs of Borkan et al. (2019) per subgroup value: subgroup AUC, BPSN AUC, BNSP AUC.

Oracle: scikit-learn's ``roc_auc_score`` on the items each one ranks (an independent implementation): the subgroup's
items; the subgroup's negatives with the background's positives (BPSN); the subgroup's positives with the
background's negatives (BNSP) — the definitions of Borkan et al. (2019), eqs. 1–3, the background being every item
outside the subgroup.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import advisor
from advisor.cli import app
from advisor.engine import bias_aucs
from advisor.plan import make_plan
from advisor.questionnaire import load_answers, load_fields, suggest_field
from advisor.report import build_report, render_report

sk = pytest.importorskip("sklearn.metrics")
pd = pytest.importorskip("pandas")


def _oracle(y: np.ndarray, s: np.ndarray, g: np.ndarray) -> dict[str, float]:
    parts = {"subgroup_auc": g, "bpsn_auc": (g & (y == 0)) | (~g & (y == 1)),
             "bnsp_auc": (g & (y == 1)) | (~g & (y == 0))}
    return {m: sk.roc_auc_score(y[mask], s[mask]) for m, mask in parts.items()}


def _frame(seed: int = 0, n: int = 600, ties: bool = True):
    rng = np.random.default_rng(seed)
    g = rng.choice(["gay", "muslim", "none"], n, p=[0.2, 0.2, 0.6])
    y = (rng.random(n) < 0.3).astype(int)
    s = y * 0.3 + rng.random(n) * 0.7 + np.where(g == "none", 0.0, 0.2)  # identity mentions scored higher
    if ties:
        s = np.round(s, 1)  # many tied scores, across the classes
    df = pd.DataFrame({"y_true": np.where(y == 1, "toxic", "ok"), "y_pred": np.where(s > 0.6, "toxic", "ok"),
                       "score": s, "identity": g})
    return df, y, s, g


@pytest.mark.parametrize("ties", [True, False])
def test_engine_matches_sklearn_on_the_subsets(ties):
    _, y, s, g = _frame(1, ties=ties)
    for value in ("gay", "muslim", "none"):
        got = bias_aucs(y, s, g == value, positive_label=1)
        want = _oracle(y, s, g == value)
        for m in want:
            assert got[m] == pytest.approx(want[m], abs=1e-12), (value, m)


def test_probabilities_use_the_positive_column():
    _, y, s, g = _frame(2)
    p = np.column_stack([1 - s / 2, s / 2])
    got = bias_aucs(np.where(y == 1, "toxic", "ok"), p, g == "gay", ["ok", "toxic"], positive_label="toxic")
    want = _oracle(y, s, g == "gay")
    assert got == pytest.approx(want, abs=1e-12)


def test_subgroups_of_a_dataset_match_sklearn_with_intervals():
    df, y, s, g = _frame(3)
    ds = advisor.load(df, by="identity")
    res = advisor.subgroups(ds, positive_label="toxic", n_resamples=400, seed=5)
    per_value = res["bias_aucs"]["identity"]
    # the identity subgroups of Borkan et al. (2019), not the value that mentions none (engine.identity_values)
    assert list(per_value) == ["gay", "muslim"]
    for value, per_system in per_value.items():
        want = _oracle(y, s, g == value)
        entry = per_system["y_pred"]
        for m, v in want.items():
            e = entry[m]
            assert e["estimate"] == pytest.approx(v, abs=1e-12), (value, m)
            assert e["low"] <= e["estimate"] <= e["high"] and e["method"] == "bca"
        assert entry["bpsn_auc"]["negatives"] == int(((g == value) & (y == 0)).sum())
        assert entry["bpsn_auc"]["positives"] == int(((g != value) & (y == 1)).sum())
    # the shift of the identity mentions shows where Borkan et al. say it does: a BPSN AUC below the overall ROC AUC,
    # a BNSP AUC above it
    overall = sk.roc_auc_score(y, s)
    assert per_value["gay"]["y_pred"]["bpsn_auc"]["estimate"] < overall < per_value["gay"]["y_pred"]["bnsp_auc"]["estimate"]


def test_the_interval_is_the_item_bootstrap_of_roc_auc_on_the_ranked_items():
    df, y, s, g = _frame(4)
    res = advisor.subgroups(advisor.load(df, by="identity"), positive_label="toxic", n_resamples=300, seed=9)
    got = res["bias_aucs"]["identity"]["muslim"]["y_pred"]["bpsn_auc"]
    mask = ((g == "muslim") & (y == 0)) | ((g != "muslim") & (y == 1))
    ref = advisor.stats.compare_scored(y[mask], {"s": s[mask]}, [0, 1], positive_label=1, metrics=["roc_auc"],
                                       n_resamples=300, seed=9)
    assert (got["low"], got["high"]) == pytest.approx(tuple(ref.intervals["roc_auc"]["s"]))


def test_two_values_bpsn_of_one_is_bnsp_of_the_other():
    df, y, s, g = _frame(5)
    df["two"] = np.where(g == "none", "b", "a")
    res = advisor.subgroups(advisor.load(df, by="two"), positive_label="toxic")
    v = res["bias_aucs"]["two"]
    assert v["a"]["y_pred"]["bpsn_auc"]["estimate"] == pytest.approx(v["b"]["y_pred"]["bnsp_auc"]["estimate"])


def test_a_yes_no_mention_column_has_the_bias_aucs_of_its_yes_alone():
    """Borkan et al. (2019) score the identity subgroup against its background: of a yes/no mention column, the "yes"
    (its "no" would repeat the same AUCs with BPSN and BNSP swapped, as a subgroup that mentions no identity)."""
    df, y, s, g = _frame(5)
    df["mention"] = np.where(g == "none", "no", "yes")
    res = advisor.subgroups(advisor.load(df, by="mention"), positive_label="toxic")
    v = res["bias_aucs"]["mention"]
    assert list(v) == ["yes"]
    want = _oracle(y, s, g != "none")
    for m, x in want.items():
        assert v["yes"]["y_pred"][m]["estimate"] == pytest.approx(x, abs=1e-12)


def test_a_subgroup_without_positives_is_undefined_said_and_kept():
    df, y, s, g = _frame(6)
    clean = (g == "gay") & (y == 1)
    df = df[~clean].reset_index(drop=True)  # no toxic comment mentions "gay"
    res = advisor.subgroups(advisor.load(df, by="identity"), positive_label="toxic", n_resamples=200, seed=1)
    gay = res["bias_aucs"]["identity"]["gay"]["y_pred"]
    assert gay["subgroup_auc"]["estimate"] is None and gay["bnsp_auc"]["estimate"] is None
    assert gay["bnsp_auc"]["reason"] == "the subgroup has no toxic items"
    assert gay["bpsn_auc"]["estimate"] is not None  # its negatives against the toxic comments elsewhere
    assert any("BNSP AUC" in w and "'gay'" in w and "no toxic items" in w for w in res["warnings"])
    assert any("subgroup AUC" in w and "'gay'" in w for w in res["warnings"])


def test_a_subgroup_without_negatives_is_undefined():
    y = np.array([1, 1, 0, 1, 0, 0])
    got = bias_aucs(y, [0.9, 0.2, 0.5, 0.7, 0.1, 0.3], [True, True, False, False, False, False], positive_label=1)
    assert got["subgroup_auc"] is None and got["bpsn_auc"] is None
    assert got["bnsp_auc"] == pytest.approx(sk.roc_auc_score([1, 1, 0, 0, 0], [0.9, 0.2, 0.5, 0.1, 0.3]))


def test_labels_without_scores_give_no_bias_aucs():
    df, *_ = _frame(7)
    res = advisor.subgroups(advisor.load(df.drop(columns="score"), by="identity"), positive_label="toxic")
    assert "bias_aucs" not in res


def test_compute_json_and_terminal(tmp_path):
    df, y, s, g = _frame(8)
    path = tmp_path / "toxic.csv"
    df.to_csv(path, index=False)
    runner = CliRunner()
    out = runner.invoke(app, ["compute", str(path), "--by", "identity", "--positive", "toxic", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    got = data["bias_aucs"]["identity"]["muslim"]["toxic"]["bnsp_auc"]["estimate"]
    assert got == pytest.approx(_oracle(y, s, g == "muslim")["bnsp_auc"], abs=1e-12)
    shown = runner.invoke(app, ["compute", str(path), "--by", "identity", "--positive", "toxic"])
    assert shown.exit_code == 0 and "BPSN AUC" in shown.stdout and "bias AUCs by identity" in shown.stdout


# ----------------------------------------------------------------------------------------------
# The plan, the methods paragraph, the Definitions and the report (the toxic-comment reader)
# ----------------------------------------------------------------------------------------------
SITUATION = Path(__file__).parent / "situations" / "toxic.yaml"


def _evaluation(ctx) -> str:
    p = next(p for p in ctx.methods if p.heading == "Evaluation")
    return "".join(s.text if s.kind in ("text", "strong") else " X " for s in p.spans)


def test_the_plan_carries_the_bias_aucs_only_with_scores_subgroups_and_a_class_of_interest():
    plan = make_plan(load_answers(SITUATION))
    assert plan.diagnostics[0].id == "bias_aucs"
    assert plan.diagnostics[0].params == {"columns": ["identity_mentioned"]}
    labels = load_answers(SITUATION).model_copy(update={"outputs": "labels"})
    assert "bias_aucs" not in [d.id for d in make_plan(labels).diagnostics]
    no_groups = load_answers(SITUATION).model_copy(update={"subgroups": []})
    assert "bias_aucs" not in [d.id for d in make_plan(no_groups).diagnostics]


def test_the_toxic_paragraph_names_the_bias_aucs_with_what_they_catch_and_defines_them():
    # no harm within a subgroup named, the column not described: the three AUCs side by side, by the column's name
    # (tests/test_toxic_fairness.py has the situation's named harm, whose AUC leads beside ROC AUC)
    plain = load_answers(SITUATION).model_copy(update={"subgroup_harm": None, "subgroup_descriptions": {}})
    ctx = build_report(plain, None, bootstrap=2000, seed=1)
    text = _evaluation(ctx)
    # what each AUC catches, in the comments' words; once the paragraph must shorten the sentence takes its terse
    # form, which says the same of both AUCs at once
    full = ("Within each value of “identity_mentioned” we give the subgroup AUC, the BPSN AUC, which catches non-toxic "
            "comments of that value scored above toxic ones elsewhere, and the BNSP AUC, which catches toxic comments of "
            "that value scored below non-toxic ones elsewhere")
    terse = ("the subgroup, BPSN and BNSP AUCs, which catch a value's non-toxic comments scored above toxic ones "
             "elsewhere or its toxic comments scored below non-toxic ones")
    assert full in text or terse in text, text
    # one flag column gives one identity: the competition's score (a power mean over identities) is not promised
    # before data (the fairness reader; tests/test_bias_score_identities.py has the several-column case)
    assert "Jigsaw" not in text and "competition" not in text
    cites = [s.keys for p in ctx.methods for s in p.spans if s.kind == "cite"]
    assert ["borkan2019nuanced"] in cites
    assert 100 <= len(text.split()) <= 220, len(text.split())
    defs = {m.id: m for m in ctx.definitions}
    assert {"subgroup_auc", "bpsn_auc", "bnsp_auc"} <= set(defs)
    # each symbol defined once in the block (issue 22): |·| with the subgroup AUC, the background with BPSN; the
    # probabilities are the p_t of the two-class notation above, not a score s_t of their own
    first = "".join(s.text for s in defs["subgroup_auc"].where.spans)
    where = "".join(s.text for s in defs["bpsn_auc"].where.spans)
    assert "the number of items in a set" in first and "outside subgroup" in where
    assert "the number of items in a set" not in where and "score for the positive" not in first + where
    assert "p_t" in defs["bpsn_auc"].formula and "s_t" not in defs["bpsn_auc"].formula
    assert "Borkan" in render_report(ctx, "md")


def test_the_report_shows_the_bias_aucs_with_intervals(tmp_path):
    df, y, s, g = _frame(10)
    df["identity_mentioned"] = np.where(g == "none", "no", "yes")
    df = df.rename(columns={"score": "p_toxic"}).assign(p_ok=lambda d: 1 - d["p_toxic"].clip(0, 1))
    df["p_toxic"] = df["p_toxic"].clip(0, 1)
    path = tmp_path / "comments.csv"
    df.to_csv(path, index=False)
    answers = load_answers(SITUATION).model_copy(update={"classes": ["ok", "toxic"], "subgroup_harm": None,
                                                         "subgroup_descriptions": {}})
    ctx = build_report(answers, advisor.load(path, by="identity_mentioned"), bootstrap=300, seed=2)
    table = next(t for t in ctx.tables if t.id == "bias_aucs")
    assert table.columns == ["identity_mentioned", "system", "subgroup AUC", "BPSN AUC", "BNSP AUC"]
    yes = next(r for r in table.rows if r[0] == "yes")
    want = _oracle(y, np.clip(s, 0, 1), g != "none")
    assert yes[3].startswith(f"{want['bpsn_auc']:.3f} [")
    assert ctx.subgroups["bias_aucs"]["identity_mentioned"]["yes"]["comments"]["bpsn_auc"]["low"] is not None
    text = _evaluation(ctx)
    # the full sentence, or its terse form once the Jigsaw score (kept first) leaves less room
    assert "we give the subgroup AUC, the BPSN AUC" in text or "the subgroup, BPSN and BNSP AUCs" in text, text
    md = render_report(ctx, "md")
    assert "Bias AUCs by identity" in md and "power mean (p = −5)" in md


def test_the_field_of_toxic_comments_reports_roc_auc_with_the_bias_aucs():
    field = load_fields()["content_moderation"]
    assert field.metrics == ["roc_auc"] and field.source == "borkan2019nuanced"
    assert "BPSN" in field.reports
    assert suggest_field(load_answers(SITUATION).context).id == "content_moderation"


def test_by_given_with_the_data_alone_shows_defines_and_cites_the_bias_aucs(tmp_path):
    df, *_ = _frame(11)
    df = df.rename(columns={"score": "p_toxic"})
    df["p_toxic"] = df["p_toxic"].clip(0, 1)
    df["p_ok"] = 1 - df["p_toxic"]
    path = tmp_path / "comments.csv"
    df.to_csv(path, index=False)
    answers = {"task": "binary", "classes": ["ok", "toxic"], "positive_class": "toxic", "outputs": "probabilities"}
    ctx = build_report(answers, advisor.load(path, by="identity"), by="identity", bootstrap=200, seed=3)
    assert any(t.id == "bias_aucs" for t in ctx.tables)
    assert "borkan2019nuanced" in [r.key for r in ctx.references]
    assert {"subgroup_auc", "bpsn_auc", "bnsp_auc"} <= {m.id for m in ctx.definitions}
    assert "Within each value of" not in _evaluation(ctx)  # the plan promised no subgroups: the report's own paragraph
    assert "(Borkan et al. 2019)." in render_report(ctx, "md")
