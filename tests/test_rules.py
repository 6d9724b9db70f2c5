"""The rule book (schema, conditions) and the ranking logic of the engine.

The ranking-logic tests use a small FAKE catalogue transcribed from science.md §3 so that they test
the engine's mechanics (filters, preferences, verification, conflicts, the impossibility check)
independently of the real catalogue's contents. Every scenario test — what the advisor actually
recommends — runs against the real catalogue in test_recommend.py.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from advisor._exceptions import UnknownMetricError
from advisor.catalogue._models import PROPERTY_IDS, Catalogue, ChanceCorrection, MetricRecord, PropertyClaim
from advisor.questionnaire import load_rules, recommend
from advisor.questionnaire._conditions import condition_facts, describe, holds, validate_condition
from advisor.questionnaire._planned import _ids_from, resolve_name
from advisor.questionnaire._rules import CITED_PASSAGE, INTERNAL_CITATION, RuleBook

# ----------------------------------------------------------------------------------------------
# A fake catalogue (test-only): columns in PROPERTY_IDS order
#   opitz_monotonicity class_sensitivity class_decomposability prevalence_invariance chance_correction
#   max_agreement min_agreement class_symmetry symmetry distance monotonicity strong_monotonicity
#   constant_baseline approximate_constant_baseline
# Y holds, N fails, B binary_only, C after_calibration; chance: S strict, X strict+complete, Y plain
# ----------------------------------------------------------------------------------------------
FAKE = {
    "accuracy": "YCCCC" "YYYYYYYNN",
    "balanced_accuracy": "YYYYS" "YYYNNYYYY",
    "adjusted_balanced_accuracy": "YYYYX" "YYYNNYYYY",
    "macro_precision": "YYYNS" "NNYNNYNNN",
    "macro_f1": "YYYNY" "YNYYNYNNN",
    "f1_of_averages": "YYNNS" "YNYYNYNNN",
    "weighted_f1": "NYNNN" "YNYNNNNNN",
    "cohen_kappa": "NYNNX" "YNYYNBNYY",
    "mcc": "BYNNX" "YBYYNBBYY",
    "sba": "YYYNS" "YYYYNYYYY",
    "correlation_distance": "BYNNN" "YBYYYBBNY",
    "geometric_macro_recall": "YYYYY" "YYYNNNNNN",
    "precision": "YYYNN" "NNNNNNNNN",
    "recall": "YYYYN" "NNNNNNNNN",
    "f1": "YYYNN" "YNNYNYNNN",
    "f_beta": "YYYNN" "YNNNNYNNN",
    "jaccard": "YYYNN" "YNNYYYNNN",
    "specificity": "YYYYN" "NNNNNNNNN",
    "informedness": "YYYYX" "YYYNNYYYY",
}
BINARY = {"precision", "recall", "f1", "f_beta", "jaccard", "specificity", "informedness"}
STATUS = {"Y": "holds", "N": "fails", "B": "binary_only", "C": "after_calibration", "S": "holds", "X": "holds"}


def _record(mid: str, codes: str, verified: bool = True) -> MetricRecord:
    props = {}
    for pid, c in zip(PROPERTY_IDS, codes):
        cc = None
        if pid == "chance_correction" and c in "SXY":
            cc = ChanceCorrection(strict=c in "SX", complete=c == "X", baseline="0" if c == "X" else "1/k")
        props[pid] = PropertyClaim(status=STATUS[c], source="fake", verified=verified, chance_correction=cc)
    return MetricRecord(
        id=mid, name=mid.replace("_", " "), formula="x", interpretation="", range=(0.0, 1.0),
        higher_is_better=mid != "correlation_distance", binary_only=mid in BINARY, chance_level="?",
        properties=props,
    )


def fake_catalogue(verified: bool = True, **overrides: str) -> Catalogue:
    table = {**FAKE, **overrides}
    metrics = {mid: _record(mid, codes, verified) for mid, codes in table.items()}
    metrics["macro_recall"] = metrics["balanced_accuracy"].model_copy(update={"id": "macro_recall", "alias_of": "balanced_accuracy"})
    for mid in ("log_loss", "brier"):
        metrics[mid] = _record(mid, "N" * 14).model_copy(update={"needs_probabilities": True})
    return Catalogue(metrics=metrics)


NAMES = {"macro f1": ["macro_f1", "f1_of_averages"], "micro f1": ["accuracy"], "mcc": ["mcc"],
         "macro recall": ["macro_recall"], "weighted f1": ["weighted_f1"]}


def fake_resolver(name: str):
    key = name.strip().lower()
    if key in NAMES:
        ids = NAMES[key]
        return ids[0] if len(ids) == 1 else SimpleNamespace(candidates=ids, note="two formulas")
    if key.replace(" ", "_") in FAKE:
        return key.replace(" ", "_")
    raise UnknownMetricError(f"unknown metric {name!r}")


def rec(answers: dict, catalogue: Catalogue | None = None, rules: RuleBook | None = None):
    return recommend(answers, catalogue=catalogue or fake_catalogue(), rules=rules, resolver=fake_resolver)


# ----------------------------------------------------------------------------------------------
# The rule book
# ----------------------------------------------------------------------------------------------
def test_rule_book_loads_and_every_rule_cites_a_passage() -> None:
    book = load_rules()
    assert len(book.rules) >= 20
    for r in book.rules:
        assert CITED_PASSAGE.search(r.source) or "decision theory" in r.source, r.id
        assert r.rationale.strip() and r.title.strip()
    for s in [i.source for i in book.impossibilities] + [n.source for n in book.name_checks]:
        assert CITED_PASSAGE.search(s), s
    assert {i.code for i in book.impossibilities} == {"impossible_combination"}
    assert {n.code for n in book.name_checks} >= {"macro_f1_ambiguous", "micro_f1_is_accuracy"}


def test_rule_book_covers_every_warning_code_of_the_issue() -> None:
    book = load_rules()
    codes = {w.code for r in book.rules for w in r.warnings} | {c.code for r in book.rules for c in r.checks}
    codes |= {i.code for i in book.impossibilities} | {n.code for n in book.name_checks}
    assert codes >= {"impossible_combination", "balanced_test_set", "macro_f1_ambiguous", "micro_f1_is_accuracy",
                     "prevalence_dependent", "non_monotone_multiclass", "ranking_sensitivity"}


def _minimal_rule(**extra):
    return {"id": "r", "title": "t", "source": "Opitz (2024), §8", "rationale": "x", **extra}


@pytest.mark.parametrize(
    ("rule", "fragment"),
    [
        (_minimal_rule(require=[{"property": "prevalence_invariancee", "why": "w"}]), "unknown property"),
        (_minimal_rule(when={"deployment": "shifted"}), "unknown fact"),
        (_minimal_rule(when={"k": {"atleast": 3}}), "unknown comparison"),
        (_minimal_rule(rationale="{nonsense}"), "unknown value"),
        (_minimal_rule(discouraged=[{"metric": "macro_f1", "because": ["symmetry"]}]), "neither requires"),
        (_minimal_rule(require=[{"property": "symmetry", "detail": "strict", "why": "w"}]), "chance_correction only"),
        ({**_minimal_rule(), "source": "folklore"}, "must cite a passage by author and year"),
        ({**_minimal_rule(), "source": "Opitz (2024)"}, "must cite a passage by author and year"),
        ({**_minimal_rule(), "source": "seed 000 §8"}, "internal file"),
        (_minimal_rule(rationale="as seed 003 shows"), "internal file name"),
        (_minimal_rule(surprise=1), "Extra inputs"),
    ],
)
def test_malformed_rules_are_refused(rule, fragment) -> None:
    with pytest.raises(ValidationError, match=fragment):
        RuleBook.model_validate({"rules": [rule]})


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


@pytest.mark.parametrize("name", ["rules.yaml", "questions.yaml"])
def test_user_facing_texts_cite_papers_not_internal_file_names(name) -> None:
    # every string a reader can see (help, reasons, warnings, sources); YAML comments are for developers
    import yaml
    from importlib import resources
    data = yaml.safe_load(resources.files("advisor.questionnaire").joinpath(name).read_text(encoding="utf-8"))
    texts = list(_strings(data))
    assert texts
    assert [s for s in texts if INTERNAL_CITATION.search(s) or "seed paper" in s] == []


def test_conditions() -> None:
    facts = {"task": "binary", "k": 2, "ranking": True, "target_prevalence": None}
    assert holds({}, facts)
    assert holds({"task": ["binary", "multiclass"], "k": {"gte": 2, "lt": 3}}, facts)
    assert not holds({"not": {"ranking": True}}, facts)
    assert holds({"any": [{"k": 3}, {"all": [{"ranking": True}, {"target_prevalence": {"set": False}}]}]}, facts)
    assert not holds({"k": {"gt": 1}}, {"k": None})  # unknown facts never satisfy a comparison
    assert condition_facts({"any": [{"k": 3}], "not": {"task": "x"}}) == {"k", "task"}
    assert describe({"k": {"lte": 5}, "task": ["a", "b"]}) == "k ≤ 5 and task ∈ {a, b}"
    with pytest.raises(ValueError, match="unknown fact"):
        validate_condition({"nope": 1}, {"k"})


# ----------------------------------------------------------------------------------------------
# Ranking logic (fake catalogue)
# ----------------------------------------------------------------------------------------------
def test_required_property_filters_and_verified_preferences_rank() -> None:
    r = rec({"n_classes": 3, "deployment_prevalence": "shifted"})
    assert r.primary.metric == "balanced_accuracy"
    assert "macro_f1" in [d.metric for d in r.discouraged]


def test_binary_only_claims_count_for_two_classes_only() -> None:
    two = rec({"n_classes": 2, "symmetric": True, "chance_correction": "required"})
    four = rec({"n_classes": 4, "symmetric": True, "chance_correction": "required"})
    assert two.primary.metric == "mcc"  # monotone for k = 2 (binary_only), the papers' binary pick
    assert four.primary.metric == "sba"
    assert "non_monotone_multiclass" in four.warning_codes
    assert "non_monotone_multiclass" not in two.warning_codes


def test_a_suggestion_only_breaks_ties_it_never_beats_a_property() -> None:
    book = RuleBook.model_validate({"rules": [_minimal_rule(
        prefer=[{"property": "prevalence_invariance", "why": "w"}],
        primary=[{"metric": "accuracy", "reason": "suggested"}],
    )]})
    r = rec({"n_classes": 3}, rules=book)
    assert r.primary.metric != "accuracy"  # accuracy lacks the preferred property (after calibration only)
    book2 = RuleBook.model_validate({"rules": [_minimal_rule(primary=[{"metric": "accuracy", "reason": "s"}])]})
    assert rec({"n_classes": 3}, rules=book2).primary.metric == "accuracy"  # all tied: the suggestion decides


def test_unverified_claims_are_a_fallback_with_a_warning() -> None:
    r = rec({"n_classes": 3, "deployment_prevalence": "shifted"}, catalogue=fake_catalogue(verified=False))
    assert "unverified_claims" in r.warning_codes
    assert r.primary.metric == "balanced_accuracy"  # the suggestion still breaks the (all-zero) tie
    assert "unverified_claims" not in rec({"n_classes": 3}).warning_codes


def test_conflicting_requirements_drop_the_lowest_priority() -> None:
    r = rec({"task": "binary", "classes": ["n", "p"], "positive_class": "p", "true_negatives_meaningful": False,
             "chance_correction": "required"})
    assert r.primary.metric == "f1"
    conflict = next(w for w in r.warnings if w.code == "conflicting_requirements")
    assert "chance correction (PV)" in conflict.message and "constant baseline" in conflict.message
    assert "Kept: class symmetry" in conflict.message  # kept, and said so


def test_impossibility_fires_and_takes_the_way_out() -> None:
    r = rec({"task": "binary", "distance": True, "chance_correction": "required"})
    assert "impossible_combination" in r.warning_codes
    assert r.primary.metric == "correlation_distance"
    assert {"mcc", "sba"} <= {c.metric for c in r.complementary}
    assert "conflicting_requirements" not in r.warning_codes


def test_impossibility_is_not_claimed_when_the_catalogue_has_a_counterexample() -> None:
    cat = fake_catalogue(sba="YYYNS" "YYYYYYYYY")  # pretend SBA were a distance too
    r = rec({"task": "binary", "distance": True, "chance_correction": "required"}, catalogue=cat)
    assert "impossible_combination" not in r.warning_codes
    assert r.primary.metric == "sba"


def test_discouragement_is_dropped_when_the_catalogue_disagrees() -> None:
    cat = fake_catalogue(macro_f1="YYYYY" "YNYYNYNNN")  # pretend macro F1 were prevalence-invariant
    r = rec({"n_classes": 3}, catalogue=cat)
    assert "macro_f1" not in [d.metric for d in r.discouraged]
    assert any(e.title == "Catalogue disagrees" and "macro_f1" in e.text for e in r.rationale)


def test_views_beside_the_lead_skip_metrics_that_rank_like_the_primary() -> None:
    # issue 11, item 6: metrics beside the lead add a view (choice.yaml), they are no runners-up
    r = rec({"n_classes": 3, "ranking": True, "chance_correction": "preferred"})
    ids = [c.metric for c in r.complementary]
    assert "adjusted_balanced_accuracy" not in ids  # (BA − 1/k)/(1 − 1/k) ranks like BA
    assert "accuracy" in ids  # the customary, item-level view
    assert not any("runner-up" in c.reason for c in r.complementary)


def test_beta_from_costs_and_f1_when_costs_are_equal() -> None:
    base = {"task": "binary", "classes": ["n", "p"], "positive_class": "p", "true_negatives_meaningful": False}
    r = rec({**base, "error_costs": {"false_negative": 9, "false_positive": 1}})
    assert r.primary.metric == "f_beta"
    assert r.primary.params == {"positive_label": "p", "beta": pytest.approx(3.0)}
    same = rec({**base, "error_costs": {"false_negative": 2, "false_positive": 2}})
    assert same.primary.metric == "f1"


def test_planned_names_are_resolved_and_commented() -> None:
    r = rec({"n_classes": 3, "planned_metrics": ["macro F1", "macro recall", "mcc", "bogus"]})
    comments = [e.text for e in r.rationale if e.rule == "planned_metric"]
    assert "does not fit" in comments[0] and "f1_of_averages" in comments[0]
    assert "fits — it is the recommended primary" in comments[1]  # alias macro_recall → balanced_accuracy
    assert "mcc" in comments[2]
    assert "not in the catalogue" in comments[3]
    assert {"macro_f1_ambiguous", "unknown_metric"} <= set(r.warning_codes)


def test_resolver_results_of_any_shape_are_understood() -> None:
    cat = fake_catalogue()
    assert _ids_from("mcc") == ["mcc"]
    assert _ids_from(["a", "b"]) == ["a", "b"]
    assert _ids_from(SimpleNamespace(candidates=[SimpleNamespace(id="x")])) == ["x"]
    assert _ids_from(SimpleNamespace(id="accuracy", candidates=None)) == ["accuracy"]
    res = resolve_name("macro recall", fake_resolver, cat)
    assert res.ids == ["balanced_accuracy"] and not res.ambiguous
    assert not resolve_name("bogus", fake_resolver, cat).known


def test_rationale_entries_name_answers_and_properties() -> None:
    r = rec({"n_classes": 3, "deployment_prevalence": "shifted"})
    entry = next(e for e in r.rationale if e.rule == "macro_under_prevalence_shift")
    assert entry.answers["deployment_prevalence"] == "shifted" and entry.answers["class_weighting"] == "equal"
    assert "prevalence_invariance" in entry.properties
    primary = next(e for e in r.rationale if e.rule == "primary")
    assert "prevalence_invariance" in primary.properties and "deployment_prevalence" in primary.answers
    assert math.isfinite(float(primary.text.split("score ")[1].split()[0].rstrip(",")))
