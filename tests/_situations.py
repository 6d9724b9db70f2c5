"""Situations for the plan's invariants: every bundled answers file and a generated grid of valid answers.

The grid is drawn with a fixed seed from the keys of an answers file, with the values a user can give,
so it covers combinations nobody wrote an example for (costs with class weights, a class of interest
among many, ordered classes with probabilities, planned names advisor does not know, …).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor import InputError
from advisor.questionnaire import Answers, answers_from_mapping, load_answers, load_fields

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted([*ROOT.glob("examples/answers/*.yaml"), *ROOT.glob("examples/*/*answers*.yaml"),
                  *ROOT.glob("tests/situations/*.yaml")])  # issue 22: fourteen situations a methodologist read

PLANNED = ["macro F1", "accuracy", "MCC", "balanced accuracy", "F1", "Cohen's kappa", "weighted F1", "AUROC",
           "average precision", "log loss", "Brier score", "top-5 accuracy", "Krippendorff's alpha", "nDCG@10",
           "AURC", "equalized odds", "micro F1", "G-mean", "SBA", "quadratic weighted kappa", "MAE"]


FIELDS = sorted(load_fields())


def _classes(rng: random.Random, k: int) -> list[str]:
    pool = ["none", "light", "heavy", "spam", "ham", "ok", "defect", "cat", "dog", "owl", "billing", "legal",
            "tech", "sales", "other", "urgent", "routine", "mild", "severe", "absent", "present"]
    return rng.sample(pool, k) if k <= len(pool) else [f"c{i}" for i in range(k)]


def _shares(rng: random.Random, classes: list[str]) -> dict[str, float]:
    raw = [rng.random() + 0.05 for _ in classes]
    total = sum(raw)
    shares = [round(x / total, 4) for x in raw]
    shares[-1] = round(1 - sum(shares[:-1]), 4)
    return dict(zip(classes, shares))


def draw(rng: random.Random) -> dict[str, Any]:
    """One candidate answers mapping (may be refused by the validation)."""
    d: dict[str, Any] = {}
    binary = rng.random() < 0.4
    k = 2 if binary else rng.choice([3, 4, 5, 6, 12, 30])
    structure = rng.choice(["nominal"] * 7 + ["ordinal", "ordinal", "multilabel"])
    classes = _classes(rng, k)
    if rng.random() < 0.8:
        d["classes"] = classes
    else:
        d["n_classes"] = k
    if rng.random() < 0.7:
        d["task"] = "binary" if binary else "multiclass"
    if structure != "nominal":
        d["label_structure"] = structure
    if structure != "multilabel" and not binary and rng.random() < 0.12:
        d["top_k"] = rng.choice([2, 3])
    if not binary and structure != "multilabel" and rng.random() < 0.08:
        d["annotators"] = rng.choice([2, 3, 5])
        d["symmetric"] = True
    if "classes" in d and (binary or rng.random() < 0.3):
        if rng.random() < 0.75:
            d["positive_class"] = rng.choice(classes)
    if rng.random() < 0.6:
        d["deployment_prevalence"] = rng.choice(["same", "shifted", "unknown"])
        if d["deployment_prevalence"] == "shifted" and "classes" in d and rng.random() < 0.7:
            d["target_prevalence"] = _shares(rng, classes)
    if rng.random() < 0.5:
        d["class_weighting"] = rng.choice(["equal", "per_instance", "custom"] if "classes" in d else
                                          ["equal", "per_instance"])
        if d["class_weighting"] == "custom":
            d["class_weights"] = {c: rng.choice([1, 2, 3, 5]) for c in classes}
    if rng.random() < 0.4:
        d["chance_correction"] = rng.choice(["required", "preferred", "not_needed"])
    if rng.random() < 0.1 and "symmetric" not in d:
        d["symmetric"] = True
    if rng.random() < 0.06:
        d["distance"] = True
        d["symmetric"] = True
    if binary and rng.random() < 0.5:
        d["true_negatives_meaningful"] = rng.random() < 0.6
    if rng.random() < 0.35:
        if binary or rng.random() < 0.3:
            d["error_costs"] = {"false_negative": rng.choice([2, 5, 10, 100]), "false_positive": 1}
        elif "classes" in d:
            d["error_costs"] = {"matrix": [[0 if i == j else rng.choice([1, 2, 5, 10]) for j in range(k)]
                                           for i in range(k)]}
    if rng.random() < 0.4:
        d["test_set_balanced"] = rng.random() < 0.4
    if rng.random() < 0.6:
        d["outputs"] = rng.choice(["labels", "probabilities", "scores"] if binary else ["labels", "probabilities"])
        if d["outputs"] in ("probabilities", "scores") and rng.random() < 0.6:
            d["operating_point"] = rng.choice(["fixed", "open"])
        if d["outputs"] == "probabilities" and rng.random() < 0.4:
            d["risk_estimates"] = True
    if rng.random() < 0.4:
        d["ranking"] = rng.random() < 0.6
    if rng.random() < 0.15:
        d["strict_monotonicity"] = True
    if rng.random() < 0.5:
        d["planned_metrics"] = rng.sample(PLANNED, rng.choice([1, 1, 2, 3]))
    if rng.random() < 0.1:
        d["notes"] = "Decisions are reviewed by a person before anything happens."
    # issue 21: operating constraints and the risks at which users act (a binary task's scores or risks; drawn
    # now and then elsewhere too, where the validation refuses them)
    if d.get("outputs") in ("probabilities", "scores") and (binary or rng.random() < 0.1):
        if rng.random() < 0.25:
            d["fpr_budget"] = rng.choice([0.01, 0.05, 0.1])
        if rng.random() < 0.25:
            d["review_share"] = rng.choice([0.002, 0.02, 0.1])
        if d.get("risk_estimates") and rng.random() < 0.5:
            d["decision_thresholds"] = rng.choice([[0.05, 0.1, 0.2], [0.3], [0.1, 0.5]])
    # issue 23: a system that may abstain, drawn from a generator seeded by the situation so far, so that the
    # situations drawn before this key existed stay the same apart from it
    sub = random.Random(repr(sorted(d.items(), key=lambda kv: kv[0])))
    if structure == "nominal" and sub.random() < 0.15:
        d["abstention"] = True
        if sub.random() < 0.6:
            d["target_coverage"] = sub.choice([0.5, 0.8, 0.95, 1.0])
        if sub.random() < 0.3:
            d["target_risk"] = sub.choice([0.01, 0.05, 0.2])
    # issue 22: the author's field (its customary figure beside the lead, its terms and readings) and an item name,
    # drawn the same way so that the situations before stay as they were
    sub = random.Random("field" + repr(sorted(d.items(), key=lambda kv: kv[0])))
    if sub.random() < 0.3:
        d["field"] = sub.choice(FIELDS)
    if sub.random() < 0.3:
        d["item_name"] = sub.choice(["patient", "tweet", "claim", "image", "child", "query"])
    # classes grouped by the action they lead to, drawn the same way so that the situations before stay as they were
    sub = random.Random("actions" + repr(sorted(d.items(), key=lambda kv: kv[0])))
    if structure == "nominal" and not binary and "classes" in d and sub.random() < 0.15:
        cut = sub.randrange(1, k - 1)  # the first action groups at least two classes
        d["actions"] = {"referral": classes[:cut + 1], "no referral": classes[cut + 1:]}
        if sub.random() < 0.7:
            d["action_of_interest"] = sub.choice(["referral", "no referral"])
    return d


def grid(n: int = 320, seed: int = 19) -> list[dict[str, Any]]:
    """``n`` valid answers mappings, the same on every run."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    tries = 0
    while len(out) < n:
        tries += 1
        assert tries < 50 * n, "the generator draws too few valid situations"
        d = draw(rng)
        try:
            answers_from_mapping(d)
        except (InputError, ValidationError):
            continue
        out.append(d)
    return out


def bundled() -> list[tuple[str, Answers]]:
    return [(str(p.relative_to(ROOT)), load_answers(p)) for p in BUNDLED]
