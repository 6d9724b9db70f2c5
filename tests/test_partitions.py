"""Issue 23, item 3: two partitions with arbitrary cluster ids compared by pair correlation, ARI and AMI from the
contingency table the one reader counts; oracles: scikit-learn and a direct count over all pairs of items."""

from __future__ import annotations

import json
from itertools import combinations

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
    assert set(reported_ids("partition")) == set(PARTITION_IDS)


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


def test_report_with_partition_data_refused_in_one_sentence(tmp_path) -> None:
    f = tmp_path / "c.csv"
    f.write_text("y_true,y_pred\na,7\nb,3\na,7\nb,7\n", encoding="utf-8")
    a = tmp_path / "answers.yaml"
    a.write_text("task: multiclass\nlabel_structure: partition\n", encoding="utf-8")
    res = runner.invoke(app, ["report", "--answers", str(a), "-o", str(tmp_path / "r.md"), str(f)])
    assert res.exit_code == 2 and "--partitions" in res.output and "Traceback" not in res.output, res.output
