"""Issue 25 item 15: requests that cannot be honoured are one sentence, not a crash or a silent result.

* ``--bootstrap 1`` printed a "95% interval" that excluded its own estimate: a percentile interval at
  confidence c needs about 5 resamples beyond each end, i.e. at least 5 / ((1 − c) / 2) of them (200 at
  95%, 100 at 90%, 1,000 at 99%) — refused below that in compute, compare, report and the Python API.
* ``audit --budget 10**9`` ran out of memory (10 GB): the budget is capped.
* ``advisor.evaluate(..., scores=<2 columns for 3 classes>)`` raised a bare IndexError.
* ``--sql`` silently ignored ``--order``, ``--label-sep`` and ``--top-k``: refused (compute takes ``--order``,
  which needs only the counts).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score, mean_absolute_error

import advisor
from advisor import InputError
from advisor.stats._limits import min_resamples


def _one_sentence(r):
    assert r.exit_code == 2, r.output
    out = r.output.strip()
    assert "Traceback" not in out and "internal error" not in out and out.count("\n") == 0, out
    return out


@pytest.fixture
def preds(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 60)
    a = np.where(rng.random(60) < 0.7, y, (y + 1) % 3)
    b = np.where(rng.random(60) < 0.5, y, (y + 2) % 3)
    fa, fb = tmp_path / "a.csv", tmp_path / "b.csv"
    fa.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, a)))
    fb.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(y, b)))
    ans = tmp_path / "ans.yaml"
    ans.write_text("task: multiclass\nn_classes: 3\n")
    return fa, fb, ans, y, a, b


# ------------------------------------------------------------------------------------------------
# bootstrap minimum
# ------------------------------------------------------------------------------------------------
def test_minimum_follows_the_confidence():
    assert [min_resamples(c) for c in (0.8, 0.9, 0.95, 0.99, 0.999)] == [50, 100, 200, 1000, 10000]


@pytest.mark.parametrize("n, conf, ok", [(1, 0.95, False), (20, 0.95, False), (199, 0.95, False), (200, 0.95, True),
                                         (100, 0.9, True), (99, 0.9, False), (500, 0.99, False), (1000, 0.99, True)])
def test_cli_commands_refuse_too_few_resamples(tmp_path, cli, preds, n, conf, ok):
    fa, fb, ans, *_ = preds
    runs = [("compute", fa), ("compare", fa, fb), ("report", "--answers", ans, fa, "-o", tmp_path / f"r{n}.json")]
    for args in runs:
        r = cli(*args, "--bootstrap", n, "--confidence", conf, "--seed", 1)
        if ok:
            assert r.exit_code == 0, (args, r.output)
        else:
            out = _one_sentence(r)
            need = min_resamples(conf)
            assert f"at least {need:,} resamples" in out and f"got {n}" in out


def test_the_refusal_comes_before_reading_the_files(tmp_path, cli):
    missing = tmp_path / "does_not_exist.csv"
    for args in (["compute", missing], ["compare", missing, missing]):
        out = _one_sentence(cli(*args, "--bootstrap", "5"))
        assert "resamples" in out


def test_structured_inputs_refuse_too_few_resamples(tmp_path, cli):
    f = tmp_path / "o.csv"
    f.write_text("y_true,y_pred\n1,2\n2,2\n3,3\n1,1\n")
    out = _one_sentence(cli("compute", f, "--order", "1,2,3", "--bootstrap", "3"))
    assert "at least 200" in out


@pytest.mark.parametrize("call", [
    lambda: advisor.bootstrap([[5, 1], [2, 7]], n_resamples=1, seed=0),
    lambda: advisor.bootstrap([[5, 1], [2, 7]], n_resamples=150, seed=0),
    lambda: advisor.bootstrap([[5, 1], [2, 7]], n_resamples=900, confidence=0.99, seed=0),
    lambda: advisor.compare_systems([0, 1, 1, 0], {"a": [0, 1, 0, 0], "b": [1, 1, 0, 0]}, n_resamples=10, seed=0),
    lambda: advisor.build_report({"task": "binary"}, {"y_true": [0, 1, 1, 0], "m": [0, 1, 0, 0]}, bootstrap=1),
])
def test_python_api_refuses_too_few_resamples(call):
    with pytest.raises(InputError, match="resamples"):
        call()


def test_enough_resamples_give_an_interval_around_the_estimate():
    r = advisor.bootstrap([[50, 10], [5, 35]], n_resamples=200, seed=0, metrics=["accuracy", "mcc"])
    for m in ("accuracy", "mcc"):
        assert r[m]["low"] <= r[m]["estimate"] <= r[m]["high"]


# ------------------------------------------------------------------------------------------------
# audit budget
# ------------------------------------------------------------------------------------------------
def test_audit_refuses_a_budget_it_cannot_hold(cli, monkeypatch):
    import advisor.catalogue._audit as audit_module

    def no_search(*args, **kwargs):  # pragma: no cover - reached only if the refusal came too late
        raise AssertionError("the audit started checking claims before refusing the budget")

    monkeypatch.setattr(audit_module, "check_claim", no_search)  # refused before any search
    with pytest.raises(InputError, match="100,000"):
        advisor.catalogue.audit(10**9)
    out = _one_sentence(cli("audit", "--budget", "1000000000"))
    assert "budget" in out and "100,000" in out


# ------------------------------------------------------------------------------------------------
# probability columns that do not match the classes
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores, words", [
    (np.ones((4, 2)) / 2, "2 columns"),
    (np.ones((4, 4)) / 4, "4 columns"),
    (np.ones((3, 3)) / 3, "3 rows"),
    (np.ones((4, 1, 3)), "shape"),
])
def test_probability_columns_that_do_not_match_the_classes(scores, words):
    with pytest.raises(InputError, match=words) as exc:
        advisor.evaluate([1, 0, 2, 0], [1, 0, 1, 1], scores=scores)
    assert "\n" not in str(exc.value)


def test_matching_probabilities_still_work():
    from sklearn.metrics import log_loss

    p = np.array([[0.2, 0.5, 0.3], [0.6, 0.2, 0.2], [0.1, 0.3, 0.6], [0.5, 0.4, 0.1]])
    ev = advisor.evaluate([1, 0, 2, 0], [1, 0, 1, 1], scores=p)
    assert ev.metrics["y_pred"]["log_loss"] == pytest.approx(log_loss([1, 0, 2, 0], p))


# ------------------------------------------------------------------------------------------------
# --sql with the structure options
# ------------------------------------------------------------------------------------------------
def _stars(tmp_path):
    t = [1, 2, 4, 5, 1, 5, 2, 4]
    p = [2, 1, 5, 4, 1, 5, 4, 2]
    f = tmp_path / "stars.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(t, p)))
    return f, t, p


@pytest.mark.parametrize("extra", [["--label-sep", "|"], ["--top-k", "2"]])
def test_compute_refuses_sql_with_label_sets_or_top_k(tmp_path, cli, extra):
    f, *_ = _stars(tmp_path)
    out = _one_sentence(cli("compute", "--sql", f"SELECT * FROM '{f}'", *extra))
    assert "--sql" in out and extra[0] in out


@pytest.mark.parametrize("extra", [["--order", "1,2,3,4,5"], ["--label-sep", "|"], ["--top-k", "2"]])
def test_compare_refuses_sql_with_structure_options(tmp_path, cli, extra):
    f, *_ = _stars(tmp_path)
    q = f"SELECT y_true, y_pred AS a, y_pred AS b FROM '{f}'"
    out = _one_sentence(cli("compare", "--sql", q, *extra))
    assert "--sql" in out and extra[0] in out


@pytest.mark.parametrize("answers, extra, named", [
    ("task: multiclass\n", ["--order", "1,2,3,4,5"], "--order"),
    ("task: multiclass\n", ["--label-sep", "|"], "--label-sep"),
    ("task: multiclass\nn_classes: 4\n", ["--top-k", "2"], "--top-k"),
    ("label_structure: ordinal\n", [], "label_structure: ordinal"),
    ("label_structure: multilabel\n", [], "label_structure: multilabel"),
])
def test_report_refuses_sql_with_a_structure(tmp_path, cli, answers, extra, named):
    f, *_ = _stars(tmp_path)
    ans = tmp_path / "a.yaml"
    ans.write_text(answers)
    out_file = tmp_path / "r.json"
    out = _one_sentence(cli("report", "--answers", ans, "--sql", f"SELECT * FROM '{f}'", *extra, "-o", out_file))
    assert named in out and not out_file.exists()


def test_compute_takes_order_with_sql_from_the_counts(tmp_path, cli):
    f, t, p = _stars(tmp_path)
    r = cli("compute", "--sql", f"SELECT * FROM '{f}'", "--order", "1,2,3,4,5", "--json")
    assert r.exit_code == 0, r.output
    m = json.loads(r.stdout)["metrics"]["y_pred"]
    assert m["mae"] == pytest.approx(mean_absolute_error(t, p))
    assert m["weighted_kappa_quadratic"] == pytest.approx(cohen_kappa_score(t, p, weights="quadratic",
                                                                            labels=[1, 2, 3, 4, 5]))
    same = json.loads(cli("compute", f, "--order", "1,2,3,4,5", "--json").stdout)["metrics"]["stars"]
    assert same == pytest.approx(m)
