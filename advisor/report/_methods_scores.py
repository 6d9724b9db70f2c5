"""Methods sentences for the cost, score and probability metrics, in the register of the methods paragraph.

Each function returns plain sentences (no markup, no internal ids) that the methods builder can place
after the lead-metric sentence; formulas are written in the notation of the catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["score_sentences"]


def _share(priors: Mapping[Any, float] | None, positive: Any) -> float | None:
    if priors is None or positive is None:
        return None
    return next((float(v) for k, v in priors.items() if str(k) == str(positive)), None)


def score_sentences(metrics: Sequence[str], *, costs: Mapping[str, float] | None = None,
                    priors: Mapping[Any, float] | None = None, positive: Any = None,
                    negative_action: str = "the best decision that ignores the classifier",
                    ece_bins: int = 15) -> list[str]:
    """Sentences stating what the cost, score and probability metrics in ``metrics`` compute.

    >>> s = score_sentences(["normalized_expected_cost"], costs={"fn": 10, "fp": 1}, priors={"ill": 0.02}, positive="ill")
    >>> print(s[0])
    We lead with the normalized expected cost at the deployment prevalence π = 0.02 (Ferrer, 2022), NEC = [10·π·(1 − Se) + 1·(1 − π)·(1 − Sp)] / min(10·π, 1·(1 − π)), where Se and Sp are sensitivity and specificity.
    """
    out: list[str] = []
    pi = _share(priors, positive)
    if "normalized_expected_cost" in metrics or "expected_cost" in metrics:
        if costs is not None and {"fn", "fp"} <= set(costs):
            fn, fp = f"{float(costs['fn']):g}", f"{float(costs['fp']):g}"
            at = f"at the deployment prevalence π = {pi:g}" if pi is not None else "at the test set's prevalence π"
            out.append(f"We lead with the normalized expected cost {at} (Ferrer, 2022), NEC = [{fn}·π·(1 − Se) + "
                       f"{fp}·(1 − π)·(1 − Sp)] / min({fn}·π, {fp}·(1 − π)), where Se and Sp are sensitivity and "
                       "specificity.")
        else:
            at = "at the deployment class shares" if priors is not None else "at the test set's class shares"
            out.append(f"We lead with the normalized expected cost {at} (Ferrer, 2022), the average cost "
                       "Σ_i π_i Σ_j c_ij R_ij of the decisions, with R_ij the share of class i given decision j, "
                       "divided by that of the cheapest constant decision.")
        out.append(f"NEC = 1 is the cost of {negative_action}; lower is better.")
    if "roc_auc" in metrics:
        out.append("The area under the ROC curve is the probability that a random positive item is scored above a "
                   "random negative one, ties counting one half; it does not depend on the prevalence.")
    if "average_precision" in metrics:
        out.append("Average precision is Σ_n (R_n − R_{n−1}) P_n over the score thresholds, without interpolation "
                   "(Saito and Rehmsmeier, 2015); its chance level is the positive share, which we report beside it.")
    if "log_loss" in metrics:
        out.append("Log loss is −(1/n) Σ_t ln p_t, with p_t the probability given to the true class, clipped to "
                   "[ε, 1 − ε] with ε = 2⁻⁵²; we state how many items received probability 0.")
    if "brier" in metrics or "brier_binary" in metrics:
        which = ("the binary form (1/n) Σ_t (p_t − y_t)²" if "brier_binary" in metrics else
                 "the multi-class sum (1/n) Σ_t Σ_j (p_tj − y_tj)², twice the binary form for two classes")
        out.append(f"The Brier score is {which} (Brier, 1950).")
    if "ece" in metrics:
        out.append(f"Calibration is summarised by the expected calibration error over {ece_bins} equal-mass bins of "
                   "the top-label confidence, ECE = Σ_b (|B_b|/n)·|acc(B_b) − conf(B_b)|, shown in a reliability "
                   "diagram (Guo et al., 2017).")
    return out
