"""What the user sees, for the reader items of issue 19 (9, 10, 11) and issue 25 (1, 2, 14, 19).

Each compares with an independent count or value (Python's csv module, scikit-learn) on the same file.
"""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

import advisor
from conftest import write_table


def _binary(n: int = 400, seed: int = 0) -> dict[str, list]:
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.35, "yes", "no")
    p_yes = np.clip((y == "yes") * 0.45 + rng.random(n) * 0.55, 0.0, 1.0).round(4)
    return {"y_true": y.tolist(), "y_pred": np.where(p_yes > 0.5, "yes", "no").tolist(),
            "p_no": (1 - p_yes).round(4).tolist(), "p_yes": p_yes.tolist()}


def _one_error(res, *words: str) -> None:
    assert res.exit_code == 2, (res.exit_code, res.stdout[-500:], res.stderr[-500:])
    err = res.stderr
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, (w, err)


# -- issue 19, item 9: options silently dropped ------------------------------------------------------------
def test_compare_costs_on_label_files_are_computed(tmp_path: Path, cli) -> None:
    d = _binary()
    a = write_table(tmp_path / "a.csv", {"y_true": d["y_true"], "y_pred": d["y_pred"]})
    b = write_table(tmp_path / "b.csv", {"y_true": d["y_true"], "y_pred": d["y_true"]})
    res = cli("compare", a, b, "--costs", "fn=10,fp=1", "--positive", "yes", "--bootstrap", "200", "--seed", "0",
              "--json")
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)["intervals"]
    cm = skm.confusion_matrix(d["y_true"], d["y_pred"], labels=["no", "yes"])
    n = cm.sum()
    expected = (10 * cm[1, 0] + 1 * cm[0, 1]) / n  # empirical priors: the cost per item
    assert got["a"]["expected_cost"]["estimate"] == pytest.approx(expected, abs=1e-12)
    assert got["b"]["expected_cost"]["estimate"] == 0.0


def test_cost_metrics_without_costs_are_refused_on_the_cli_and_in_python(tmp_path: Path, cli) -> None:
    f = write_table(tmp_path / "m.csv", _binary())
    _one_error(cli("compute", f, "--metrics", "expected_cost,normalized_expected_cost"), "--costs", "unit costs")
    with pytest.raises(advisor.InputError, match="need the error costs"):
        advisor.evaluate([0, 1, 1, 0], [0, 1, 0, 0], metrics=["expected_cost"])
    ev = advisor.evaluate([0, 1, 1, 0], [0, 1, 0, 0], metrics=["expected_cost"], costs="fn=10,fp=1",
                          positive_label=1)
    assert ev.metrics["y_pred"] == {"expected_cost": pytest.approx(10 * 1 / 4)}


# -- issue 19, item 10: one id, one definition --------------------------------------------------------------
def test_average_precision_means_the_positive_class_everywhere(tmp_path: Path, cli) -> None:
    d = _binary()
    a = write_table(tmp_path / "a.csv", d)
    b = write_table(tmp_path / "b.csv", {**d, "p_yes": d["p_no"], "p_no": d["p_yes"]})
    comp = cli("compute", a, "--json")
    assert comp.exit_code == 0 and "average_precision" not in json.loads(comp.stdout)["metrics"]["a"]
    assert "--positive" in comp.stderr  # the note says how to get it
    cmp = cli("compare", a, b, "--bootstrap", "200", "--seed", "0", "--json")
    assert cmp.exit_code == 0 and "average_precision" not in json.loads(cmp.stdout)["metrics"]["a"]
    ref = skm.average_precision_score(np.array(d["y_true"]) == "yes", d["p_yes"])
    comp = json.loads(cli("compute", a, "--positive", "yes", "--json").stdout)["metrics"]["a"]["average_precision"]
    cmp = json.loads(cli("compare", a, b, "--positive", "yes", "--bootstrap", "200", "--seed", "0", "--json").stdout)
    api = advisor.evaluate(d["y_true"], d["y_pred"], scores=np.column_stack([d["p_no"], d["p_yes"]]),
                           positive_label="yes").metrics["y_pred"]["average_precision"]
    assert comp == pytest.approx(ref, abs=1e-12) and api == pytest.approx(ref, abs=1e-12)
    assert cmp["metrics"]["a"]["average_precision"] == pytest.approx(ref, abs=1e-12)
    assert cmp["intervals"]["a"]["average_precision"]["estimate"] == cmp["metrics"]["a"]["average_precision"]
    entry = advisor.get_catalogue().metrics["average_precision"].interpretation
    assert "positive class" in entry and "one-vs-rest" not in entry


# -- issue 19, item 11: every format and compression gives the plain CSV's metrics ---------------------------
def _packed(tmp_path: Path, d: dict, fmt: str, comp: str) -> Path:
    import duckdb

    plain = write_table(tmp_path / f"plain.{fmt}", d)
    if comp == "":
        return plain
    out = tmp_path / f"m.{fmt}.{comp}"
    if comp == "gz":
        out.write_bytes(gzip.compress(plain.read_bytes()))
    else:
        opts = "FORMAT json" if fmt == "jsonl" else f"FORMAT csv, DELIMITER '{',' if fmt == 'csv' else chr(9)}'"
        src = f"read_csv('{plain}', all_varchar=true)" if fmt != "jsonl" else f"'{plain}'"  # yes/no stay text
        duckdb.sql(f"COPY (SELECT * FROM {src}) TO '{out}' ({opts}, COMPRESSION zstd)")
    return out


@pytest.mark.parametrize("fmt, comp", [(f, c) for f in ("csv", "tsv", "jsonl") for c in ("", "gz", "zst")]
                         + [("parquet", "")])
def test_every_format_and_compression_gives_the_plain_csv_metrics(tmp_path: Path, fmt: str, comp: str, cli) -> None:
    d = _binary()
    ref_file = write_table(tmp_path / "ref.csv", d)
    ref = json.loads(cli("compute", ref_file, "--positive", "yes", "--json").stdout)["metrics"]["ref"]
    assert {"roc_auc", "average_precision", "brier_binary", "ece", "log_loss", "brier"} <= set(ref)
    f = _packed(tmp_path, d, fmt, comp)
    res = cli("compute", f, "--positive", "yes", "--json")
    assert res.exit_code == 0, res.stderr
    got = next(iter(json.loads(res.stdout)["metrics"].values()))
    assert set(got) == set(ref)
    for k, v in ref.items():
        assert got[k] == pytest.approx(v, abs=1e-9), k


# -- issue 25, item 1: no row is lost, whatever the line lengths ------------------------------------------------
def _long_file(path: Path, n: int, where: str, quoted: bool, length: int, gz: bool) -> None:
    rows = [f"{i % 2},{i % 3 % 2},short" for i in range(n)]
    big = ('"' + "x" * length + '"') if quoted else "x" * length
    rows[{"start": 0, "middle": n // 2, "end": n - 1}[where]] = f"1,0,{big}"
    data = ("y_true,y_pred,text\n" + "\n".join(rows) + "\n").encode()
    path.write_bytes(gzip.compress(data, 1) if gz else data)


def _python_rows(path: Path) -> list[tuple[str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as fh:  # type: ignore[operator]
        csv.field_size_limit(1 << 30)
        return [(r["y_true"], r["y_pred"]) for r in csv.DictReader(fh)]


@pytest.mark.parametrize("gz", [False, True])
@pytest.mark.parametrize("quoted", [False, True])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_long_lines_lose_no_row(tmp_path: Path, where: str, quoted: bool, gz: bool) -> None:
    f = tmp_path / ("l.csv.gz" if gz else "l.csv")
    _long_file(f, 150_000, where, quoted, 3_000_000, gz)  # > 4 MB, one line > 2 MB
    rows = _python_rows(f)
    cm = advisor.read_predictions(f).systems["l"]
    assert cm.n == len(rows) == 150_000
    assert cm == advisor.confusion_matrix([int(t) for t, _ in rows], [int(p) for _, p in rows])


def test_a_line_longer_than_the_compressed_buffer_is_read_again_not_lost(tmp_path: Path) -> None:
    f = tmp_path / "l.csv.gz"
    _long_file(f, 1000, "end", True, 40_000_000, True)  # 40 MB quoted last cell, > the 32 MB buffer
    assert advisor.read_predictions(f).systems["l"].n == 1000


def test_counts_tables_with_a_long_last_line_lose_no_count(tmp_path: Path, cli) -> None:
    f = tmp_path / "c.csv"
    lines = [f"{t},{p},{c},note" for t, p, c in (("a", "a", 100_000), ("a", "b", 5), ("b", "b", 7))] * 50_000
    lines[-1] = "b,a,100000," + "y" * 3_000_000
    f.write_text("true,pred,count,text\n" + "\n".join(lines) + "\n", encoding="utf-8")
    cm = advisor.read_counts(f)
    with f.open(newline="", encoding="utf-8") as fh:
        csv.field_size_limit(1 << 30)
        total = sum(float(r["count"]) for r in csv.DictReader(fh))
    assert cm.n == total and cm.counts.tolist()[1][0] == 100_000


# -- issue 25, item 2: one query, one sample -----------------------------------------------------------------
def test_a_sampled_query_runs_once_and_every_metric_sees_the_same_rows(tmp_path: Path) -> None:
    f = write_table(tmp_path / "m.parquet", _binary(3000))
    ds = advisor.load(sql=f"SELECT * FROM '{f}' USING SAMPLE 30% (bernoulli)")  # row by row: never empty here
    cm, items = ds.systems["y_pred"], ds.scores["y_pred"]
    assert cm.n == len(items.y_true) < 3000
    assert cm == advisor.confusion_matrix(items.y_true, items.y_pred, labels=list(cm.labels))
    ds = advisor.load(sql=f"SELECT * FROM '{f}' WHERE random() < 0.5")
    cm, items = ds.systems["y_pred"], ds.scores["y_pred"]
    assert cm == advisor.confusion_matrix(items.y_true, items.y_pred, labels=list(cm.labels))


# -- issue 25, item 19: exactly one SELECT, nothing written ---------------------------------------------------
@pytest.mark.parametrize("shape", [
    "SELECT 1 AS y_true, 1 AS y_pred); COPY (SELECT 42) TO '{out}/copied.csv'; SELECT * FROM (SELECT 1",
    "COPY (SELECT 1 AS y_true, 1 AS y_pred) TO '{out}/copied.csv'",
    "ATTACH '{out}/attached.db' AS x",
    "SELECT 1 AS y_true, 1 AS y_pred; ATTACH '{out}/attached.db' AS x",
    "INSTALL httpfs",
    "LOAD httpfs",
    "EXPORT DATABASE '{out}/exported'",
    "CREATE TABLE t AS SELECT 1 AS y_true, 1 AS y_pred",
    "SELECT 1 AS y_true, 1 AS y_pred -- a comment\n; COPY (SELECT 1) TO '{out}/copied.csv'",
    "WITH x AS (SELECT 1 AS y_true, 1 AS y_pred) INSERT INTO t SELECT * FROM x",
])
def test_sql_injection_is_refused_and_writes_nothing(tmp_path: Path, shape: str, cli) -> None:
    out = tmp_path / "out"
    out.mkdir()
    res = cli("compute", "--sql", shape.format(out=out))
    _one_error(res, "--sql")
    assert list(out.iterdir()) == []


# -- issue 25, item 14: the real limits are named -------------------------------------------------------------
def test_a_label_of_11_mb_is_refused_as_too_long(tmp_path: Path, cli) -> None:
    f = tmp_path / "l.csv"
    f.write_text("y_true,y_pred\na,a\n" + "x" * 11_000_000 + ",a\n", encoding="utf-8")
    _one_error(cli("compute", f), "row 2", "11,000,000 characters", "at most 10,000")


def test_compare_of_100_files_of_10000_items(tmp_path: Path, cli) -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 10_000)
    files = []
    for i in range(100):
        p = np.where(rng.random(10_000) < 0.5 + i / 400, y, rng.integers(0, 3, 10_000))
        f = tmp_path / f"s{i:03d}.csv"
        f.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p)), encoding="utf-8")
        files.append(f)
    res = cli("compare", *files, "--bootstrap", "200", "--seed", "0", "--metrics", "accuracy", "--json")
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)
    assert len(got["systems"]) == 100
    assert got["metrics"]["s099"]["accuracy"] == pytest.approx(
        float(np.mean(np.loadtxt(files[-1], delimiter=",", skiprows=1, dtype=int)[:, 1] == y)))
