"""Issue 23, item 3: two partitions with arbitrary cluster ids compared by pair correlation, ARI and AMI from the
contingency table the one reader counts; oracles: scikit-learn and a direct count over all pairs of items."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score
from sklearn.metrics.cluster import contingency_matrix
from typer.testing import CliRunner

from advisor._exceptions import InputError
from advisor.cli import app
from advisor.engine._partition import partition_metrics

runner = CliRunner()


def _pair_correlation(t: np.ndarray, p: np.ndarray) -> float:
    """The Pearson correlation of the two 'same cluster' indicators over every pair of items, counted pair by pair."""
    x = np.array([t[i] == t[j] for i, j in combinations(range(len(t)), 2)], dtype=float)
    y = np.array([p[i] == p[j] for i, j in combinations(range(len(p)), 2)], dtype=float)
    return float(np.corrcoef(x, y)[0, 1])


def _pair(seed: int, n: int = 150) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2 + seed % 4, n)
    noise = rng.random(n) < 0.1 + 0.1 * (seed % 5)
    p = np.where(noise, rng.integers(0, 6, n), t * 7 + 3)  # other ids, some items moved
    return t, p


@pytest.mark.parametrize("seed", range(8))
def test_indices_match_scikit_learn_and_a_direct_pair_count(seed: int) -> None:
    t, p = _pair(seed)
    r = partition_metrics(contingency_matrix(t, p))
    assert r["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(t, p), abs=1e-12)
    assert r["adjusted_mutual_info"] == pytest.approx(adjusted_mutual_info_score(t, p), abs=1e-10)
    assert r["pair_correlation"] == pytest.approx(_pair_correlation(t, p), abs=1e-12)
    assert r["pair_correlation_distance"] == pytest.approx(np.arccos(r["pair_correlation"]) / np.pi, abs=1e-12)


def test_renaming_clusters_changes_nothing_and_identical_partitions_score_one() -> None:
    t, p = _pair(3)
    r = partition_metrics(contingency_matrix(t, p))
    assert partition_metrics(contingency_matrix(t + 100, (p * 13) % 97)) == pytest.approx(r)
    same = partition_metrics(contingency_matrix(t, t * 5 + 1))
    assert same["adjusted_rand_index"] == same["pair_correlation"] == pytest.approx(1.0)
    assert same["pair_correlation_distance"] == pytest.approx(0.0)


def test_compute_partitions_from_a_file(tmp_path) -> None:
    t, p = _pair(5, n=60)
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"g{a},{b}\n" for a, b in zip(t, p)), encoding="utf-8")
    res = runner.invoke(app, ["compute", "--partitions", "--json", str(f)])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["structure"] == "partition"
    vals = got["metrics"]["c"]
    assert set(vals) == {"pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info"}
    assert vals["adjusted_rand_index"] == pytest.approx(adjusted_rand_score(t, p), abs=1e-12)
    assert "accuracy" not in vals


@pytest.mark.parametrize(("rows", "extra", "words"), [
    ("a,7\na,7\na,3\n", [], "has one cluster"),
    ("a,7\nb,7\na,7\n", [], "has one cluster"),
    ("a,7\nb,3\n" * 9, ["--bootstrap", "1000"], "needs at least 20 resampled items; got 18"),
    ("a,7\nb,3\n" * 20, ["--bootstrap", "1000", "--order", "a,b"], "does not apply to --partitions"),
    ("a,7\nb,3\n", ["--metrics", "accuracy"], "not a partition metric"),
])
def test_bad_partitions_one_sentence_exit_2(tmp_path, rows: str, extra: list[str], words: str) -> None:
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\n" + rows, encoding="utf-8")
    res = runner.invoke(app, ["compute", "--partitions", *extra, str(f)])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output
    assert res.output.strip().count("\n") == 0


def test_one_cluster_refused_by_the_engine() -> None:
    with pytest.raises(InputError, match="one cluster"):
        partition_metrics([[3, 4]])


# ----------------------------------------------------------------------------------------------
# issue 23, item 3: the one registry, the answers and the rule
# ----------------------------------------------------------------------------------------------
PARTITION_IDS = ("pair_correlation", "pair_correlation_distance", "adjusted_rand_index", "adjusted_mutual_info")


def test_partition_metrics_are_in_the_one_registry_and_the_catalogue() -> None:
    from advisor.catalogue import get_catalogue
    from advisor.engine._structures import STRUCTURE_METRICS, reported_ids

    cat = get_catalogue()
    for mid in PARTITION_IDS:
        assert STRUCTURE_METRICS[mid].structure == "partition" == cat.metrics[mid].structure
        rec = cat.metrics[mid]
        # the stated properties are checked by computation on pairs of partitions
        for pid in ("class_symmetry", "symmetry", "max_agreement"):
            assert rec.properties[pid].status == "holds" and rec.properties[pid].verified, (mid, pid)
    assert not STRUCTURE_METRICS["pair_correlation_distance"].higher_is_better
    assert cat.metrics["pair_correlation_distance"].properties["distance"].status == "holds"
    assert cat.metrics["pair_correlation"].properties["distance"].status == "fails"
    # and NMI, and purity with inverse purity, reported beside them only when the author plans NMI or purity (computed
    # on request, not by default)
    assert set(reported_ids("partition")) == {*PARTITION_IDS, "normalized_mutual_info", "purity", "inverse_purity"}
    assert STRUCTURE_METRICS["normalized_mutual_info"].structure == "partition" == \
        cat.metrics["normalized_mutual_info"].structure


def test_the_partition_checks_are_not_vacuous() -> None:
    """Renamed ids are the same partition (best value); the stored AMI counterexample still shows a perfect split
    that does not raise it, while the pair correlation rises on the same split."""
    from advisor.catalogue import get_catalogue
    from advisor.catalogue._check_structures import _pt_checks, _recheck

    cat = get_catalogue()
    t = np.array([[0, 0, 1, 1, 2]])
    _, best = _pt_checks(cat.metrics["pair_correlation"])["max_agreement"]
    assert best([t, t * 7 + 3]) is None and best([t, np.array([[0, 1, 1, 1, 2]])]) is None
    ami = cat.metrics["adjusted_mutual_info"].properties["monotonicity"]
    assert ami.status == "fails" and _recheck(cat.metrics["adjusted_mutual_info"], "monotonicity", ami.counterexample)
    assert _recheck(cat.metrics["pair_correlation"], "monotonicity", ami.counterexample) is None


def test_the_rule_leads_with_pair_correlation_and_no_classification_metric() -> None:
    from advisor.questionnaire import recommend

    rec = recommend({"task": "multiclass", "label_structure": "partition"})
    assert rec.primary.metric == "pair_correlation"
    beside = [a.metric for a in rec.complementary]
    assert {"adjusted_rand_index", "adjusted_mutual_info"} <= set(beside)
    from advisor.catalogue import get_catalogue

    cat = get_catalogue()
    assert all(cat.metrics[m].structure == "partition" for m in beside), beside
    assert "accuracy" not in beside


def test_partition_answers_refuse_top_k() -> None:
    from advisor.questionnaire._answers import Answers

    assert Answers.model_validate({"task": "multiclass", "label_structure": "partition"}).label_structure == "partition"
    with pytest.raises(Exception):
        Answers.model_validate({"task": "multiclass", "label_structure": "partition", "top_k": 3})


def _clusterings(tmp_path, n: int = 120) -> tuple[Path, Path, Path]:
    t, p = _pair(2, n)
    q = np.where(np.random.default_rng(9).random(n) < 0.3, 99, p)
    a, b = tmp_path / "km.csv", tmp_path / "hdb.csv"
    a.write_text("y_true,y_pred\n" + "".join(f"g{x},{y}\n" for x, y in zip(t, p)), encoding="utf-8")
    b.write_text("y_true,y_pred\n" + "".join(f"g{x},c{y}\n" for x, y in zip(t, q)), encoding="utf-8")
    ans = tmp_path / "answers.yaml"
    ans.write_text("task: multiclass\nlabel_structure: partition\nitem_name: document\n", encoding="utf-8")
    return ans, a, b


def test_partition_report_has_the_indices_with_intervals_the_clusters_and_no_classification_metric(tmp_path) -> None:
    """Issue 23, item 3: ``advisor report`` with partition answers — the methods give every formula with its symbols
    and how the resamples are read, Table 1 the four indices with intervals for both clusterings (paired), the
    diagnostics the clusters of each partition; no classification metric anywhere, and --partitions says the same."""
    ans, a, b = _clusterings(tmp_path)
    out = tmp_path / "r.json"
    res = runner.invoke(app, ["report", "--answers", str(ans), str(a), str(b), "--partitions", "--seed", "1",
                              "--bootstrap", "300", "-o", str(out)])
    assert res.exit_code == 0, res.output
    ctx = json.loads(out.read_text(encoding="utf-8"))
    assert ctx["primary"] == "pair_correlation"
    assert {m["id"] for m in ctx["metric_definitions"]} == set(PARTITION_IDS)  # the JSON is system first
    for name in ctx["systems"]:
        assert set(ctx["metrics"][name]) == set(PARTITION_IDS)
        for m, iv in ctx["intervals"][name].items():
            if m == "adjusted_mutual_info":  # no interval measured covers (benchmarks/README.md)
                assert iv["low"] is None and iv["method"] == "none", (name, m, iv)
                continue
            assert iv["low"] <= ctx["metrics"][name][m] <= iv["high"], (name, m, iv)
    assert ctx["bootstrap"]["paired"] and ctx["winners"]["pair_correlation"] == ["km"]
    assert ctx["structure"] == "partition"
    assert ctx["structure_data"]["clusters"]["hdb"]["predicted"]["clusters"] > 1
    table = next(t for t in ctx["tables"] if t["id"] == "cluster_sizes")
    assert [r[0] for r in table["rows"]] == ["reference (y_true)", "km (y_pred)", "hdb (y_pred)"]
    text = " ".join(sp["text"] for p in ctx["methods"] for sp in p["spans"])
    assert "contingency table" in text and "two clusterings of 120 documents" in text
    assert "leaves out the pairs formed by two copies of one document" in text
    assert "These intervals reflect which documents were drawn for the test, not reruns of a clustering" in text
    assert not any(w in text for w in ("accuracy", "F1", "confusion matrix", "classifier"))
    # the same report from the answers alone, and a one-sentence refusal of options for classes
    assert runner.invoke(app, ["report", "--answers", str(ans), str(a), "--bootstrap", "0", "-o",
                               str(tmp_path / "r.md")]).exit_code == 0
    res = runner.invoke(app, ["report", "--answers", str(ans), str(a), "--positive", "g1", "-o", str(tmp_path / "x.md")])
    assert res.exit_code == 2 and "does not apply to partitions" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("fmt", ["md", "html", "tex"])
def test_table_1_gives_the_clusters_each_clustering_produced_and_the_references_once(tmp_path, fmt: str) -> None:
    """The s30 text-clustering methodologist: "report the number of clusters each system produced beside every
    index" — a row of Table 1, the reference's number once in its label, and a sentence of the methods."""
    ans, a, b = _clusterings(tmp_path)
    out = tmp_path / f"r.{fmt}"
    res = runner.invoke(app, ["report", "--answers", str(ans), str(a), str(b), "--seed", "1", "--bootstrap", "200",
                              "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    k_ref = len({line.split(",")[0] for line in a.read_text(encoding="utf-8").splitlines()[1:]})
    k_a = len({line.split(",")[1] for line in a.read_text(encoding="utf-8").splitlines()[1:]})
    k_b = len({line.split(",")[1] for line in b.read_text(encoding="utf-8").splitlines()[1:]})
    label = f"Clusters produced (the reference has {k_ref})"
    row = {"md": f"| {label} | {k_a} | {k_b} |",
           "html": f'<tr><th>{label}</th><td class="num">{k_a}</td><td class="num">{k_b}</td></tr>',
           "tex": f"{label} & {k_a} & {k_b} \\\\"}[fmt]
    assert row in text, text[:3000]
    assert text.count(label) == 1
    if fmt == "md":
        assert f"Beside every index we give each clustering's number of clusters; the reference has {k_ref}." in text


@pytest.mark.parametrize(("answers", "rows", "extra", "words"), [
    ("task: multiclass\n", "a,1\nb,2\n" * 15, ["--partitions"], "label_structure: partition"),
    ("task: multiclass\nlabel_structure: partition\n", "a,1\na,2\n" * 15, [], "has one cluster"),
    ("task: multiclass\nlabel_structure: partition\n", "a,1\nb,2\n" * 5, [], "needs at least 20 resampled items"),
])
def test_partition_report_bad_input_one_sentence_exit_2(tmp_path, answers: str, rows: str, extra: list[str],
                                                        words: str) -> None:
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\n" + rows, encoding="utf-8")
    a = tmp_path / "answers.yaml"
    a.write_text(answers, encoding="utf-8")
    res = runner.invoke(app, ["report", "--answers", str(a), str(f), *extra, "-o", str(tmp_path / "r.md")])
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output, res.output
    assert not (tmp_path / "r.md").exists()


# ----------------------------------------------------------------------------------------------
# issue 23, item 3: the property claims checked against Gösgens, Tikhonov & Prokhorenkova (2021) by enumeration
# ----------------------------------------------------------------------------------------------
def _all_partitions(n: int) -> np.ndarray:
    """Every partition of n items as a restricted growth string (52 for n = 5)."""
    out: list[list[int]] = []

    def grow(prefix: list[int], top: int) -> None:
        if len(prefix) == n:
            out.append(prefix)
            return
        for v in range(top + 2):
            grow([*prefix, v], max(top, v))

    grow([0], 0)
    return np.array(out)


def test_ari_and_the_pair_correlation_are_monotone_on_every_partition_of_five_items() -> None:
    """Monotonicity as Gösgens et al. define it: B′ is an A-consistent improvement of B when every pair of items B
    treats like A (together or apart) B′ treats so too, and B′ ≠ B. Over every pair of partitions of five items
    (two or more clusters, one of two or more items), each such B′ raises ARI and the pair correlation and lowers the
    correlation distance — what Gösgens et al. prove (AMI's failure is the catalogue's counterexample, above)."""
    from advisor.engine import pair_count_indices

    parts = [p for p in _all_partitions(5) if p.max() >= 1 and np.bincount(p).max() >= 2]
    iu = np.triu_indices(5, 1)
    together = np.array([(p[:, None] == p[None, :])[iu] for p in parts])
    ids = ["adjusted_rand_index", "pair_correlation", "pair_correlation_distance"]
    checked = 0
    for i in range(len(parts)):
        agree = together[i][None, :] == together  # pairs each B treats like A
        vals = {}
        for j in range(len(parts)):
            x, y = together[i], together[j]
            counts = (np.sum(x & y), np.sum(x), np.sum(y), x.size)  # N11, A, B, N
            vals[j] = {m: float(v) for m, v in pair_count_indices(*counts, ids).items()}
        for j in range(len(parts)):
            better = np.flatnonzero(np.all(agree[:, agree[j]], axis=1) & (agree.sum(1) > agree[j].sum()))
            for k in better:
                checked += 1
                assert vals[k]["adjusted_rand_index"] > vals[j]["adjusted_rand_index"] + 1e-12
                assert vals[k]["pair_correlation"] > vals[j]["pair_correlation"] + 1e-12
                assert vals[k]["pair_correlation_distance"] < vals[j]["pair_correlation_distance"] - 1e-12
    assert checked == 11940


def test_strong_monotonicity_on_the_pair_counts() -> None:
    """Strong monotonicity (Gösgens et al. 2021, defined on the four pair counts as free numbers): from the pair
    counts of any two different partitions of five items, one more agreeing pair raises the pair correlation and
    one more disagreeing pair lowers it; ARI — Cohen's kappa of the pair counts — has cases where one more
    disagreeing pair raises it, as the catalogue's counterexample shows."""
    from advisor.catalogue import get_catalogue
    from advisor.catalogue._check_structures import _recheck
    from advisor.engine import pair_count_indices

    parts = _all_partitions(5)
    iu = np.triu_indices(5, 1)
    together = np.array([(p[:, None] == p[None, :])[iu] for p in parts])
    ari_rises = 0
    for x in together:
        for y in together:
            if np.array_equal(x, y) or x.all() or y.all() or not x.any() or not y.any():
                continue
            base = np.array([np.sum(x & y), np.sum(x & ~y), np.sum(~x & y), np.sum(~x & ~y)], dtype=float)

            def at(q: np.ndarray, m: str) -> float:
                return float(pair_count_indices(q[0], q[0] + q[1], q[0] + q[2], q.sum(), [m])[m])

            for k, up in ((0, True), (1, False), (2, False), (3, True)):
                q = base.copy()
                q[k] += 1
                d = at(q, "pair_correlation") - at(base, "pair_correlation")
                assert (d > 1e-12) if up else (d < -1e-12), (base, k)
                ari_rises += (not up) and at(q, "adjusted_rand_index") > at(base, "adjusted_rand_index")
    assert ari_rises > 0
    ari = get_catalogue().metrics["adjusted_rand_index"].properties["strong_monotonicity"]
    assert ari.status == "fails" and _recheck(get_catalogue().metrics["adjusted_rand_index"], "strong_monotonicity",
                                              ari.counterexample)
    for mid in ("pair_correlation", "pair_correlation_distance"):
        assert get_catalogue().metrics[mid].properties["strong_monotonicity"].status == "holds"
