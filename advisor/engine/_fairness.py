r"""Two summaries of a classifier across subgroups that a field reports as its own figure.

**The adverse impact ratio** (the four-fifths rule; Uniform Guidelines on Employee Selection Procedures, 29 CFR
1607.4(D), 1978). For each value ``g`` of a subgroup column, the rate of the *favourable decision*
``r_g = (items of g given the favourable decision) / (items of g)``, and its ratio to the highest such rate among
the column's values, ``r_g / max_h r_h``; the column's summary is the smallest ratio, ``min_g r_g / max_h r_h``. A
ratio below 4/5 is what the guidelines regard as evidence of adverse impact. It is fairlearn's
``demographic_parity_ratio`` of the favourable decision.

*Which decision is favourable* is a declared parameter (``favourable``: the class label whose prediction favours the
item). advisor's rule (:func:`favourable_class`): when the class of interest names a favour given to the item
(approved, hired, admitted, …), predicting it is favourable; otherwise the class of interest is a harm or risk of the
item that the classifier flags (default, fraud, toxic — a comment hidden), and the favourable decision is the other
class: an applicant not predicted to default is approved.

**The final bias score of the Jigsaw Unintended Bias in Toxicity Classification competition** (Kaggle 2019, built on
Borkan et al. 2019): ``0.25·AUC + Σ_a 0.25·M_p(m_{s,a})`` over the three bias AUCs ``a`` (subgroup, BPSN, BNSP),
with ``M_p`` the generalized (power) mean over the identity subgroups ``s``, ``M_p = ((1/N) Σ_s m_s^p)^{1/p}`` at
``p = −5``, which pulls the mean towards the worst identity. An identity subgroup is the items that mention the
identity, against every other item (:func:`identity_values`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from .._exceptions import InputError

__all__ = ["FAIRNESS_IDS", "FAVOURABLE_WORDS", "FOUR_FIFTHS", "JIGSAW_POWER", "JIGSAW_WEIGHT", "adverse_impact",
           "equal_error_threshold", "extra_specs", "favourable_class", "identity_values", "jigsaw_bias_score",
           "line_verdict", "power_mean"]

#: ids of the two summaries (catalogue advisor/catalogue/metrics_bias.yaml)
FAIRNESS_IDS = ("adverse_impact_ratio", "jigsaw_bias_score")
#: The line of the four-fifths rule (29 CFR 1607.4(D))
FOUR_FIFTHS = 0.8
#: The power of the generalized mean and the weight of each of its four terms in the Jigsaw competition's score
JIGSAW_POWER = -5.0
JIGSAW_WEIGHT = 0.25
#: Words of a class of interest that is a favour to the item (its prediction is the favourable decision)
FAVOURABLE_WORDS = ("approve", "approved", "approval", "accept", "accepted", "admit", "admitted", "admission",
                    "hire", "hired", "grant", "granted", "eligible", "selected", "offer", "offered", "pass", "passed",
                    "qualified", "shortlisted", "invited", "promoted", "funded")
#: Values of a yes/no mention column: the first set marks an item that mentions the identity
_YES = frozenset({"yes", "y", "true", "t", "1", "1.0", "mentioned", "mention", "present", "identity"})
_NO = frozenset({"no", "n", "false", "f", "0", "0.0", "not mentioned", "none", "absent", "no identity", ""})


#: How an interval of a ratio reads against a line: wholly at or above it, wholly under it, or across it
LineVerdict = Literal["meets", "below", "undecided"]


def line_verdict(low: float | None, high: float | None, line: float = FOUR_FIFTHS) -> LineVerdict | None:
    """An adverse impact ratio read against ``line`` (the four-fifths rule of thumb) by its interval ``[low, high]``:
    ``"meets"`` when the lower bound is at least the line, ``"below"`` when the upper bound is under it, else
    ``"undecided"``; None without an interval (the point estimate alone decides nothing).

    >>> line_verdict(0.82, 0.97), line_verdict(0.55, 0.79), line_verdict(0.74, 0.88), line_verdict(None, 0.9)
    ('meets', 'below', 'undecided', None)
    >>> line_verdict(0.8, 0.9), line_verdict(0.7, 0.8)  # a bound on the line: at the line is not under it
    ('meets', 'undecided')
    """
    if low is None or high is None or not (np.isfinite(low) and np.isfinite(high)) or low > high:
        return None
    return "meets" if low >= line else "below" if high < line else "undecided"


def favourable_class(classes: Sequence[Any], positive: Any) -> Any:
    """The class whose prediction favours the item: the class of interest when its name is a favour
    (:data:`FAVOURABLE_WORDS`), else the other class (the class of interest is then a harm the classifier flags).

    >>> favourable_class(["repaid", "default"], "default"), favourable_class(["rejected", "hired"], "hired")
    ('repaid', 'hired')
    """
    if len(classes) != 2 or positive not in list(classes):
        raise InputError("the favourable decision needs two classes, one of them the class of interest.")
    words = str(positive).lower().replace("-", " ").replace("_", " ").split()
    if any(w in FAVOURABLE_WORDS for w in words):
        return positive
    return next(c for c in classes if c != positive)


def adverse_impact(favoured: Any, values: Any, weights: Any = None) -> dict[str, Any]:
    """``{"rates": {value: r_g}, "ratios": {value: r_g / max_h r_h}, "min_ratio", "argmin", "argmax"}`` of one
    subgroup column: ``favoured`` says per item whether it got the favourable decision, ``values`` its subgroup value,
    ``weights`` its mass (1 each by default). A value without items is left out; when no value has a favourable
    decision the ratios are undefined (None).

    >>> r = adverse_impact([1, 1, 0, 1, 0, 0, 1, 0], ["F", "F", "F", "F", "M", "M", "M", "M"])
    >>> r["rates"], r["min_ratio"], r["argmin"]
    ({'F': 0.75, 'M': 0.25}, 0.3333333333333333, 'M')
    """
    fav = np.asarray(favoured, dtype=np.float64).reshape(-1)
    val = np.asarray(values, dtype=object).reshape(-1)
    w = np.ones_like(fav) if weights is None else np.asarray(weights, dtype=np.float64).reshape(-1)
    if fav.shape != val.shape or w.shape != fav.shape:
        raise InputError("the adverse impact ratio needs one decision, one subgroup value and one weight per item.")
    rates: dict[str, float] = {}
    for v in dict.fromkeys(val.tolist()):
        m = val == v
        total = float(w[m].sum())
        if total > 0:
            rates[str(v)] = float((w[m] * fav[m]).sum() / total)
    top = max(rates.values(), default=0.0)
    if top <= 0:
        return {"rates": rates, "ratios": {v: None for v in rates}, "min_ratio": None, "argmin": None,
                "argmax": None}
    ratios = {v: r / top for v, r in rates.items()}
    argmin = min(ratios, key=lambda v: ratios[v])
    return {"rates": rates, "ratios": ratios, "min_ratio": ratios[argmin], "argmin": argmin,
            "argmax": max(rates, key=lambda v: rates[v])}


def power_mean(values: Any, p: float = JIGSAW_POWER) -> float:
    """The generalized mean ``((1/N) Σ m_s^p)^{1/p}`` of values ≥ 0 (p ≠ 0); with p < 0 a value 0 makes it 0, its
    limit.

    >>> round(power_mean([0.5, 1.0], -5), 12) == round((0.5 * (0.5 ** -5 + 1.0)) ** (-1 / 5), 12)
    True
    >>> power_mean([0.0, 0.9], -5)
    0.0
    """
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    if x.size == 0 or p == 0 or not np.all(x >= 0):
        raise InputError("the power mean needs values of at least 0 and a power other than 0.")
    if p < 0 and np.any(x == 0):
        return 0.0
    return float(np.mean(x ** p) ** (1.0 / p))


def jigsaw_bias_score(overall_auc: float, bias: Mapping[str, Sequence[float]], p: float = JIGSAW_POWER,
                      weight: float = JIGSAW_WEIGHT) -> float:
    """``w·AUC + Σ_a w·M_p(m_{s,a})``: ``bias`` maps each bias AUC (``subgroup_auc``, ``bpsn_auc``, ``bnsp_auc``) to
    its values over the identity subgroups.

    >>> jigsaw_bias_score(0.9, {"subgroup_auc": [0.8], "bpsn_auc": [0.7], "bnsp_auc": [0.9]})
    0.825
    """
    missing = [a for a in ("subgroup_auc", "bpsn_auc", "bnsp_auc") if not len(bias.get(a, ()))]
    if missing:
        raise InputError(f"the bias score needs the {missing[0]} of at least one identity subgroup.")
    return float(weight * overall_auc + sum(weight * power_mean(bias[a], p)
                                            for a in ("subgroup_auc", "bpsn_auc", "bnsp_auc")))


def identity_values(values: Sequence[Any]) -> list[Any]:
    """The values of a subgroup column that are identity subgroups: of a yes/no mention column (two values, one a
    "yes" and one a "no"), the "yes" value; otherwise every value but one that says no identity is mentioned
    ("none", "no", empty).

    >>> identity_values(["no", "yes"]), identity_values(["christian", "muslim", "none"])
    (['yes'], ['christian', 'muslim'])
    """
    vals = list(values)
    low = [str(v).strip().lower() for v in vals]
    if len(vals) == 2 and sum(x in _YES for x in low) == 1 and sum(x in _NO for x in low) == 1:
        return [v for v, x in zip(vals, low) if x in _YES]
    return [v for v, x in zip(vals, low) if x not in _NO]


def equal_error_threshold(positive: Any, score: Any) -> dict[str, float]:
    """``{"threshold", "fpr", "fnr"}``: the threshold at which the overall false positive and false negative rates
    are equal, or as near as the scores allow — the global criterion Dixon et al. (2018) set the per-term error rates
    of a toxicity classifier at (their code: ``compute_equal_error_rate``, conversationai/unintended-ml-bias-analysis).
    An item is flagged as the class of interest when its score is at least the threshold; the candidates are the
    distinct scores. Of the candidates with the smallest ``|FPR − FNR|`` the one with the smaller larger rate is
    taken, then the lower threshold, so the choice is unique.

    >>> r = equal_error_threshold([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.4, 0.3, 0.1])
    >>> r["threshold"], round(r["fpr"], 4), round(r["fnr"], 4)
    (0.7, 0.3333, 0.3333)
    """
    pos = np.asarray(positive, dtype=bool).reshape(-1)
    s = np.asarray(score, dtype=np.float64).reshape(-1)
    if pos.shape != s.shape or not pos.any() or pos.all() or not np.isfinite(s).all():
        raise InputError("the equal-error threshold needs a finite score for every item and items of both classes.")
    cand = np.unique(s)  # ascending
    neg_s, pos_s = np.sort(s[~pos]), np.sort(s[pos])
    # flagged at t: score >= t; FPR = negatives at or above t, FNR = positives below t
    fpr = (neg_s.shape[0] - np.searchsorted(neg_s, cand, side="left")) / neg_s.shape[0]
    fnr = np.searchsorted(pos_s, cand, side="left") / pos_s.shape[0]
    best = np.lexsort((cand, np.maximum(fpr, fnr), np.abs(fpr - fnr)))[0]
    return {"threshold": float(cand[best]), "fpr": float(fpr[best]), "fnr": float(fnr[best])}


def _subgroup_level(s: Any) -> np.ndarray:  # pragma: no cover - guarded where metrics are resolved
    raise InputError("this figure compares subgroups: it needs item predictions and a subgroup column (by=), "
                     "not a confusion matrix.")


def extra_specs(spec: Any) -> dict[str, Any]:
    """The :class:`~._metrics.MetricSpec` records of the two summaries (``spec`` is the class)."""
    return {"adverse_impact_ratio": spec("adverse_impact_ratio", _subgroup_level, binary_only=True,
                                         needs_subgroups=True),
            "jigsaw_bias_score": spec("jigsaw_bias_score", _subgroup_level, binary_only=True,
                                      needs_probabilities=True)}
