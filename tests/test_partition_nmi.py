"""Normalized mutual information beside the chance-corrected partition indices (the text-clustering reader; issue 22
item 2: a customary metric that is not the lead is reported beside it, for comparability, with what it lacks).

NMI = I / ½(H_a + H_b), the arithmetic-mean normalisation (Vinh, Epps & Bailey 2010; scikit-learn's default
``average_method``). Checked against ``sklearn.metrics.normalized_mutual_info_score`` on random partition pairs with
different cluster counts, singletons and all-singleton partitions; a partition with one cluster is refused (scikit-learn
returns 1 when both have one cluster, 0 when one has), as for every partition index. It is reported only when planned.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import normalized_mutual_info_score
from sklearn.metrics.cluster import contingency_matrix
from typer.testing import CliRunner

from advisor._exceptions import InputError
from advisor.catalogue import get_catalogue
from advisor.catalogue._check_structures import _recheck
from advisor.cli import app
from advisor.engine import PARTITION_METRICS, PartitionRows
from advisor.engine._partition import partition_cells_batch, partition_metrics
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, methods_paragraph
from advisor.stats._partitions import partition_intervals

SITUATIONS = Path(__file__).parent / "situations"
EXAMPLES = Path(__file__).parent.parent / "examples" / "structures"
NMI = "normalized_mutual_info"


def _pairs(seed: int, count: int):
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        n = int(rng.integers(2, 80))
        kind = made % 5
        if kind == 0:  # both all singletons: identical partitions up to renaming
            t, p = np.arange(n), rng.permutation(n)
        elif kind == 1:  # one side all singletons
            t, p = rng.integers(0, int(rng.integers(2, 6)), n), np.arange(n)
        elif kind == 2:  # many more clusters on one side
            t, p = rng.integers(0, 2, n), rng.integers(0, max(2, n // 2), n)
        elif kind == 3:  # related partitions: p a noisy copy of t
            t = rng.integers(0, int(rng.integers(2, 8)), n)
            p = np.where(rng.random(n) < 0.3, rng.integers(0, 9, n), t)
        else:
            t, p = rng.integers(0, int(rng.integers(2, 12)), n), rng.integers(0, int(rng.integers(2, 30)), n)
        if len(set(t.tolist())) >= 2 and len(set(p.tolist())) >= 2:
            made += 1
            yield t, p


@pytest.mark.parametrize("seed", range(4))
def test_nmi_matches_scikit_learn_on_random_partition_pairs(seed: int) -> None:
    for t, p in _pairs(seed, 150):
        got = partition_metrics(contingency_matrix(t, p), [NMI])[NMI]
        assert got == pytest.approx(normalized_mutual_info_score(t, p), abs=1e-12)
        assert got == pytest.approx(normalized_mutual_info_score(t, p, average_method="arithmetic"), abs=1e-12)


def test_nmi_in_a_batch_equals_the_table_value_and_is_its_own_population_value() -> None:
    rng = np.random.default_rng(3)
    t, p = rng.integers(0, 4, 60), rng.integers(0, 7, 60)
    c = contingency_matrix(t, p).astype(float)
    r, k = np.nonzero(c)
    w = np.stack([c[r, k], 3 * c[r, k]])  # a function of the shares: tripling every count changes nothing
    want = normalized_mutual_info_score(t, p)
    for population in (False, True):  # no pair of an item with itself enters it: the table's value is the population's
        got = partition_cells_batch(w, r, k, c.shape, [NMI, "adjusted_mutual_info"], population=population)
        assert got[NMI] == pytest.approx([want, want], abs=1e-12)
    pop = partition_cells_batch(w, r, k, c.shape, ["adjusted_mutual_info"], population=True)
    assert pop["adjusted_mutual_info"] == pytest.approx([want, want], abs=1e-12)  # AMI's target: the shares' NMI


def test_the_degenerate_cases_are_refused_as_for_every_partition_index() -> None:
    # scikit-learn: 1.0 when both partitions have one cluster, 0.0 when one of them has; advisor refuses both
    assert normalized_mutual_info_score([0, 0, 0], [1, 1, 1]) == 1.0
    assert normalized_mutual_info_score([0, 0, 1], [1, 1, 1]) == 0.0
    for table in ([[3]], [[2], [1]], [[2, 1]]):
        with pytest.raises(InputError, match="one cluster"):
            partition_metrics(table, [NMI])
    # a resample that loses every cluster but one on a side: NaN, left out of the interval
    got = partition_cells_batch([[4, 0, 3, 0], [2, 2, 2, 2]], [0, 0, 1, 1], [0, 1, 0, 1], (2, 2), [NMI])[NMI]
    assert np.isnan(got[0]) and got[1] == pytest.approx(0.0, abs=1e-12)
    assert partition_metrics([[2, 0], [0, 2]], [NMI])[NMI] == pytest.approx(1.0)


def test_nmi_is_computed_on_request_not_by_default() -> None:
    assert NMI not in PARTITION_METRICS
    assert NMI not in partition_metrics([[5, 1], [1, 5]])


def test_the_catalogue_record_shares_ami_symbols_and_the_checker_shows_it_is_not_corrected_for_chance() -> None:
    cat = get_catalogue()
    rec, ami = cat.metrics[NMI], cat.metrics["adjusted_mutual_info"]
    assert rec.structure == "partition" and rec.higher_is_better and list(rec.range) == [0, 1]
    assert "NMI" in rec.aliases and rec.references == ["vinh2010information"]
    for symbol in ("C_{ij}", "I", "H_a", "H_b"):  # defined once, the same way
        assert rec.symbols[symbol] == ami.symbols[symbol]
    assert rec.formula.split(r",\quad", 1)[1] == ami.formula.split(r",\quad", 1)[1]  # the same I, H_a, H_b
    assert "arithmetic mean" in " ".join(rec.pitfalls)
    for pid in ("chance_correction", "constant_baseline", "approximate_constant_baseline", "distance"):
        claim = rec.properties[pid]
        assert claim.status == "fails" and claim.verified, pid
        assert claim.counterexample is not None and _recheck(rec, pid, claim.counterexample) is not None, pid
    for pid in ("max_agreement", "symmetry", "class_symmetry", "monotonicity", "opitz_monotonicity"):
        assert rec.properties[pid].status == "holds" and rec.properties[pid].verified, pid
    # random partitions with many clusters score above 0: the stored chance case
    ce = rec.properties["chance_correction"].counterexample
    assert ce is not None and ce.values[0] > 0.03


def test_a_planned_nmi_is_reported_beside_the_lead_with_its_caveat_and_purity_with_its_inverse() -> None:
    plan = make_plan(load_answers(SITUATIONS / "clustering.yaml"))
    assert plan.lead.id == "pair_correlation"
    assert NMI in [m.id for m in plan.beside]
    # a planned purity is reported with inverse purity, as text-clustering studies report the pair (Amigó et al. 2009)
    assert {"purity", "inverse_purity"} <= {m.id for m in plan.beside} and "purity" not in [a.id for a in plan.avoid]
    ctx = build_report(load_answers(SITUATIONS / "clustering.yaml"), None, bootstrap=0)
    said = " ".join("".join(s.text for s in p.spans) for p in ctx.methods)
    assert "normalized mutual information, as planned, for comparison with earlier clustering work; it is not " \
           "corrected for chance, and with this normalisation it favours clusterings with more clusters" in said
    assert "“NMI” is not reported" not in said
    assert "Both mutual information indices divide by the arithmetic mean of the two entropies, scikit-learn's default" \
           in said


def test_an_nmi_not_planned_is_not_reported() -> None:
    answers = load_answers(EXAMPLES / "partition_answers.yaml")
    assert NMI not in make_plan(answers).metric_ids
    said = " ".join("".join(s.text for s in p.spans) for p in build_report(answers, None, bootstrap=0).methods)
    assert "normalized mutual information" not in said.lower()


def test_a_shortened_paragraph_keeps_the_caveat_in_the_planned_metrics_note() -> None:
    md = methods_paragraph(str(SITUATIONS / "clustering.yaml"), "md", seed=7)
    assert "with this normalisation it favours clusterings with more clusters (Vinh et al. 2010)" in md


def test_nmi_has_its_estimate_and_no_interval() -> None:
    """Like AMI, NMI gets no interval: the bootstrap and m-out-of-n subsampling both under-cover it on small test sets
    (benchmarks/README.md)."""
    rows = PartitionRows(true=np.array([0, 0, 1, 1, 2, 2]), pred={"a": np.array([0, 1, 0, 1, 1, 2])},
                         counts=np.array([30., 5., 4., 25., 6., 20.]))
    r = partition_intervals(rows, [NMI], n_resamples=300, seed=1)["a"][NMI]
    t = np.repeat([0, 0, 1, 1, 2, 2], [30, 5, 4, 25, 6, 20])
    p = np.repeat([0, 1, 0, 1, 1, 2], [30, 5, 4, 25, 6, 20])
    assert r["estimate"] == pytest.approx(normalized_mutual_info_score(t, p), abs=1e-12)
    assert r["method"] == "none" and np.isnan(r["low"]) and np.isnan(r["high"]) and "stated rate" in r["reason"]


def test_a_planned_nmi_is_computed_with_paired_intervals_in_the_report(tmp_path) -> None:
    """End to end on the bundled clusterings: Table 1 has NMI for both systems, equal to scikit-learn's, without an
    interval (none measured covers); without the plan it is not computed."""
    ans = tmp_path / "answers.yaml"
    ans.write_text((EXAMPLES / "partition_answers.yaml").read_text(encoding="utf-8")
                   + "planned_metrics: [NMI, ARI]\n", encoding="utf-8")
    files = [str(EXAMPLES / "clusters_a.csv"), str(EXAMPLES / "clusters_b.csv")]
    out = tmp_path / "r.json"
    res = CliRunner().invoke(app, ["report", "--answers", str(ans), *files, "--seed", "2024", "--bootstrap", "300",
                                   "-o", str(out)])
    assert res.exit_code == 0, res.output
    ctx = json.loads(out.read_text(encoding="utf-8"))
    assert NMI in {m["id"] for m in ctx["metric_definitions"]}
    for name, path in zip(ctx["systems"], files):
        d = pd.read_csv(path)
        assert ctx["metrics"][name][NMI] == pytest.approx(normalized_mutual_info_score(d["y_true"], d["y_pred"]),
                                                          abs=1e-12)
        iv = ctx["intervals"][name][NMI]
        assert iv["low"] is None and iv["high"] is None and iv["method"] == "none"
    assert not any("Normalized mutual information was recommended but is not reported" in w["message"]
                   for w in ctx["warnings"])
    text = " ".join(sp["text"] for p in ctx["methods"] for sp in p["spans"])
    assert "with this normalisation it favours clusterings with more clusters (Vinh et al. 2010)" in text
