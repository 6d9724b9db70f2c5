"""The metric catalogue: complete records, consistent data, forgiving name resolution."""

from __future__ import annotations

import copy
import re

import pytest
import yaml

from advisor import UnknownMetricError, resolve_metric
from advisor._exceptions import AdvisorError, InputError
from advisor.engine._metrics import METRICS
from advisor.catalogue import BIB_FILE, get_catalogue
from advisor.catalogue._load import VERIFICATION_FILE, bib_keys, load_catalogue, raw_metrics
from advisor.catalogue._models import PROPERTY_IDS, Catalogue

CAT = get_catalogue()

REQUIRED_BIB = {
    "opitz2024closer", "opitz2019macro", "grandini2020metrics", "gosgens2021good", "i2ml_performance",
    "matthews1975comparison", "gorodkin2004comparing", "cohen1960coefficient", "brodersen2010balanced",
    "powers2011evaluation", "chicco2020advantages", "sokolova2009systematic", "wei2010novel", "brier1950verification",
}


def test_one_complete_record_per_engine_metric():
    from advisor.engine._structures import STRUCTURE_METRICS

    specs = {**METRICS, **STRUCTURE_METRICS}  # ordinal, multi-label, top-k, agreement: their own spec table
    assert set(CAT.metrics) == set(specs)
    for mid, rec in CAT.metrics.items():
        spec = specs[mid]
        assert rec.id == mid
        assert rec.binary_only == spec.binary_only and rec.needs_probabilities == spec.needs_probabilities
        assert rec.needs_subgroups == getattr(spec, "needs_subgroups", False)  # structure specs compare no subgroups
        assert rec.alias_of == spec.alias_of
        assert rec.name and rec.formula and rec.interpretation and rec.chance_level and rec.references
        assert rec.range[0] < rec.range[1]
        assert set(rec.properties) == set(PROPERTY_IDS), mid


def test_alias_records_mirror_their_target():
    for mid in ("macro_recall", "micro_f1"):
        rec = CAT.metrics[mid]
        target = CAT.metrics[rec.alias_of]
        assert rec.formula == target.formula and rec.higher_is_better == target.higher_is_better
        assert {p: c.status for p, c in rec.properties.items()} == {p: c.status for p, c in target.properties.items()}


def test_every_failure_carries_a_counterexample_and_every_condition_is_written_out():
    for rec in CAT.metrics.values():
        for pid, c in rec.properties.items():
            if rec.needs_probabilities:
                continue
            if c.status in ("fails", "binary_only", "after_calibration"):
                assert c.counterexample is not None and c.counterexample.matrices, (rec.id, pid)
            if c.status == "conditional":
                assert c.condition and c.restriction, (rec.id, pid)
            if pid == "chance_correction" and c.status in ("holds", "after_calibration"):
                assert c.chance_correction is not None, rec.id


def test_every_checkable_claim_was_verified_by_the_last_full_audit():
    from advisor.catalogue._check_scores import hard_evaluator

    data = yaml.safe_load(VERIFICATION_FILE.read_text(encoding="utf-8"))
    assert data["audit"]["refuted"] == 0
    assert data["budget"] >= 1000
    for rec in CAT.metrics.values():
        for pid, c in rec.properties.items():
            # score/probability metrics are checked on their hard outputs (catalogue/_check_scores.py); a
            # not_applicable claim (issue 12) has nothing to verify; a score metric of label sets (the macro ROC AUC)
            # is checked by the label-set checker on hard outputs
            checkable = (rec.structure != "nominal" or not rec.needs_probabilities
                         or hard_evaluator(rec.id) is not None)
            assert c.verified is (checkable and c.status != "not_applicable"), (rec.id, pid)
    n_na = sum(c.status == "not_applicable" for r in CAT.metrics.values() for c in r.properties.values())
    assert data["audit"]["unverified"] == 0  # issue 11, item 5
    assert data["audit"]["not_applicable"] == n_na


def test_paper_disagreements_are_recorded_with_both_sides():
    disagreements = [(r.id, p) for r in CAT.metrics.values() if not r.alias_of for p, c in r.properties.items()
                     if c.paper_claim]
    assert len(disagreements) >= 15
    # Gösgens et al. Table 2 says BA is strongly monotone; with a recall already 1 it is not.
    sm = CAT.metrics["balanced_accuracy"].properties["strong_monotonicity"]
    assert sm.status == "fails" and "✓" in sm.paper_claim and sm.counterexample is not None
    # Opitz's (✓) for weighted F1 after calibration: the calibrated metric's counterexample is stored.
    wd = CAT.metrics["weighted_f1"].properties["class_decomposability"]
    assert wd.calibrated_counterexample is not None


def test_table_claims_that_the_checker_confirms():
    st = {m: {p: c.status for p, c in r.properties.items()} for m, r in CAT.metrics.items()}
    # Gösgens et al. Table 2 (rows that the checker confirms)
    assert st["mcc"]["min_agreement"] == st["mcc"]["monotonicity"] == st["mcc"]["strong_monotonicity"] == "binary_only"
    assert st["cohen_kappa"]["monotonicity"] == "binary_only" and st["cohen_kappa"]["strong_monotonicity"] == "fails"
    assert st["accuracy"]["constant_baseline"] == "fails" and st["accuracy"]["distance"] == "holds"
    assert st["correlation_distance"]["distance"] == "holds"
    assert st["correlation_distance"]["constant_baseline"] == "fails"
    assert st["correlation_distance"]["approximate_constant_baseline"] == "holds"
    assert st["f1"]["class_symmetry"] == "fails" and st["jaccard"]["distance"] == "holds"
    # Opitz Table 5
    assert all(st["balanced_accuracy"][p] == "holds" for p in
               ("opitz_monotonicity", "class_sensitivity", "class_decomposability", "prevalence_invariance",
                "chance_correction"))
    assert st["accuracy"]["prevalence_invariance"] == "after_calibration"
    assert st["macro_f1"]["prevalence_invariance"] == "after_calibration"
    assert st["f1_of_averages"]["class_decomposability"] == "fails"
    cc = {m: CAT.metrics[m].properties["chance_correction"].chance_correction for m in
          ("balanced_accuracy", "macro_f1", "cohen_kappa", "mcc")}
    assert cc["balanced_accuracy"].strict and cc["balanced_accuracy"].baseline == "1/k"
    assert not cc["macro_f1"].strict
    assert cc["cohen_kappa"].complete and cc["mcc"].complete and cc["mcc"].baseline == "0"


def test_references_resolve_and_the_bib_file_has_every_required_key():
    keys = bib_keys()
    assert REQUIRED_BIB <= keys
    assert BIB_FILE.name == "references.bib" and BIB_FILE.exists()
    for rec in CAT.metrics.values():
        assert set(rec.references) <= keys


def test_inconsistent_data_is_rejected(tmp_path):
    data = raw_metrics()
    broken = copy.deepcopy(data)
    del broken["metrics"]["accuracy"]["properties"]["symmetry"]
    path = tmp_path / "metrics.yaml"
    path.write_text(yaml.safe_dump(broken, allow_unicode=True), encoding="utf-8")
    with pytest.raises(AdvisorError, match="accuracy: no claim for symmetry"):
        load_catalogue(path, None, strict=False)
    broken = copy.deepcopy(data)
    broken["metrics"]["mcc"]["properties"]["monotonicity"].pop("counterexample")
    path.write_text(yaml.safe_dump(broken, allow_unicode=True), encoding="utf-8")
    with pytest.raises(AdvisorError, match="needs a counterexample"):
        load_catalogue(path, None)
    broken = copy.deepcopy(data)
    broken["metrics"]["macro_f1"]["properties"]["min_agreement"]["restriction"] = "sometimes"
    path.write_text(yaml.safe_dump(broken, allow_unicode=True), encoding="utf-8")
    with pytest.raises(AdvisorError, match="unknown restriction 'sometimes'"):
        load_catalogue(path, None, strict=False)


def test_catalogue_is_cached_and_validated():
    assert get_catalogue() is CAT
    assert isinstance(CAT, Catalogue)


# ----------------------------------------------------------------------------------------------
# name resolution
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, expected", [
    ("Macro-F1", ["macro_f1", "f1_of_averages"]),
    ("macro f1", ["macro_f1", "f1_of_averages"]),
    ("MACRO_F1", ["macro_f1"]),  # an id is an id
    ("MCC", ["mcc"]), ("Matthews", ["mcc"]), ("phi", ["mcc"]), ("phi coefficient", ["mcc"]),
    ("kappa", ["cohen_kappa"]), ("Cohen's kappa", ["cohen_kappa"]), ("κ", ["cohen_kappa"]),
    ("balanced accuracy", ["balanced_accuracy"]), ("BAC", ["balanced_accuracy"]), ("BA", ["balanced_accuracy"]),
    ("macro recall", ["balanced_accuracy"]), ("macro-recall", ["balanced_accuracy"]),
    ("Youden's J", ["adjusted_balanced_accuracy"]), ("informedness", ["informedness"]),
    ("micro F1", ["accuracy"]), ("micro-averaged precision", ["accuracy"]),
    ("balanced accuracy weighted", ["accuracy"]), ("Balanced Accuracy Weighted", ["accuracy"]),
    ("G-mean", ["geometric_macro_recall"]), ("G score", ["fowlkes_mallows"]),
    ("Dice", ["f1"]), ("IoU", ["jaccard"]), ("mIoU", ["macro_jaccard"]),
    ("LR+", ["lr_plus"]), ("LR-", ["lr_minus"]), ("LR−", ["lr_minus"]),
    ("F1 score", ["f1"]), ("balanced accuracy score", ["balanced_accuracy"]),
    ("macF1'", ["f1_of_averages"]), ("weighted macro F1", ["weighted_f1", "minority_weighted_f1"]),
    ("CE", ["confusion_entropy", "log_loss"]), ("cross-entropy", ["log_loss"]), ("Brier score", ["brier"]),
])
def test_names_resolve_forgivingly(name, expected):
    assert resolve_metric(name).ids == expected


def test_ambiguous_and_misleading_names_come_with_an_explanation():
    r = resolve_metric("macro F1")
    assert r.ambiguous and "f1_of_averages" in r.note and "macro_f1" in r.note
    r = resolve_metric("micro F1")
    assert not r.ambiguous and r.record.id == "accuracy" and "accuracy" in r.note
    r = resolve_metric("balanced accuracy weighted")
    assert r.record.id == "accuracy" and "exactly accuracy" in r.note
    r = resolve_metric("Youden's J")
    assert "informedness" in r.note and "k = 2" in r.note
    assert resolve_metric("mcc").note is None


def test_unknown_names_fail_with_one_sentence_and_close_matches():
    with pytest.raises(UnknownMetricError) as err:
        resolve_metric("macro F2")
    msg = str(err.value)
    assert "'macro F2'" in msg and "close names" in msg and "\n" not in msg
    with pytest.raises(UnknownMetricError):
        resolve_metric("   ")
    with pytest.raises(InputError):
        resolve_metric(3)  # type: ignore[arg-type]


def test_probability_metrics_reduce_to_accuracy_on_hard_predictions():
    """The catalogue's claims for log loss and Brier rest on this reduction (one-hot probabilities)."""
    import numpy as np

    from advisor.engine._probabilities import LOG_LOSS_EPS, probability_metrics

    rng = np.random.default_rng(3)
    labels = ["a", "b", "c"]
    y = rng.choice(labels, 200)
    pred = np.where(rng.random(200) < 0.7, y, rng.choice(labels, 200))
    onehot = (pred[:, None] == np.array(labels)[None, :]).astype(float)
    r = probability_metrics(list(y), onehot, labels)
    acc = float(np.mean(y == pred))
    assert r["brier"] == pytest.approx(2 * (1 - acc))
    assert r["log_loss"] == pytest.approx(-np.log(LOG_LOSS_EPS) * (1 - acc), rel=1e-9, abs=1e-12)
    # on hard outputs both are increasing affine functions of the error rate, as are ECE (1 − accuracy) and
    # the expected cost at its defaults (0/1 costs, test priors): the checker must give them the same statuses
    ec_claims = CAT.metrics["expected_cost"].properties
    for mid in ("log_loss", "brier", "ece"):
        rec = CAT.metrics[mid]
        for pid, c in rec.properties.items():
            assert c.status == ec_claims[pid].status, (mid, pid)
            assert c.verified, (mid, pid)


def test_every_bib_entry_closes_before_the_next_begins():
    """An entry left open swallowed the next one: geifman2019bias took gosgens2021systematic's fields, and the risk-
    coverage metrics cited Gösgens et al. under Geifman's key (issue 22). Braces balance within each entry."""
    text = BIB_FILE.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"(?m)^@", text)] + [len(text)]
    for a, b in zip(starts, starts[1:]):
        entry = text[a:b]
        depth, closed_at = 0, None
        for i, ch in enumerate(entry):
            depth += ch == "{"
            depth -= ch == "}"
            if depth == 0 and ch == "}":
                closed_at = i
                break
        assert closed_at is not None and not entry[closed_at + 1:].strip(), entry.splitlines()[0]
