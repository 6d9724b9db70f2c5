r"""Claims of sameness against a margin fixed in advance (answers ``margin``).

An interval on a difference shows that two things are the same only against a margin fixed before the results are
seen: the largest difference called negligible (Schuirmann 1987; Walker & Nowacki 2011). Two questions are asked of
the figures advisor reports:

* **the judge against the humans** ("as well as the humans agree with each other") is one-sided — is the judge not
  worse by more than the margin (non-inferiority)? The judge's agreement counts as good as the humans' when the
  interval of Δ, the judge–human mean minus the human–human mean of the lead agreement figure, lies above −δ;
* **subgroups** ("treats women and men alike") is two-sided — does any value differ either way by more than the
  margin (equivalence)? The values count as alike when the interval of each gap lies within ±δ. A gap is the largest
  minus the smallest value, and its interval is the range the simultaneous intervals of every pairwise difference
  allow (:mod:`advisor.stats._subgroup_gaps`), so it lies within ±δ exactly when every pairwise difference does.

With a 95% interval each one-sided test is at level 2.5%, the convention of non-inferiority trials. The verdict of
an interval is ``inside`` (sameness shown), ``outside`` (a difference beyond the margin shown) or ``inconclusive``
(the interval straddles a bound). Without a margin (not answered, or ``unknown``) the differences are descriptive,
and the text says so in one clause instead of implying sameness.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Literal

from ._methods_lists import Text

__all__ = ["EQUIVALENCE_SOURCES", "NONINFERIORITY_SOURCES", "Verdict", "gap_margin_sentence", "gap_verdict_words",
           "humans_noun", "judge_margin_sentence", "judge_verdict_words", "margin_of", "verdict"]

Verdict = Literal["inside", "outside", "inconclusive"]
#: Non-inferiority through a confidence interval against a margin fixed in advance
NONINFERIORITY_SOURCES = ["walker2011understanding"]
#: Equivalence through two one-sided tests, i.e. an interval within ±margin
EQUIVALENCE_SOURCES = ["schuirmann1987comparison", "walker2011understanding"]
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def margin_of(answers: Mapping[str, Any]) -> float | None:
    """The author's margin as a number, or None (not answered, or ``unknown``).

    >>> margin_of({"margin": 0.1}), margin_of({"margin": "unknown"}), margin_of({})
    (0.1, None, None)
    """
    m = answers.get("margin")
    return float(m) if isinstance(m, (int, float)) and not isinstance(m, bool) and math.isfinite(m) else None


def verdict(low: float | None, high: float | None, margin: float, sided: Literal["one", "two"]) -> Verdict | None:
    """The verdict of an interval ``[low, high]`` of a difference against ``margin`` (None without an interval).

    ``sided="one"``: non-inferiority, the difference must lie above −margin; ``"two"``: equivalence, it must lie
    within ±margin. A bound on the margin is not inside it.

    >>> verdict(-0.05, 0.08, 0.1, "one"), verdict(-0.3, -0.12, 0.1, "one"), verdict(-0.2, 0.01, 0.1, "one")
    ('inside', 'outside', 'inconclusive')
    >>> verdict(0.0, 0.04, 0.05, "two"), verdict(0.06, 0.2, 0.05, "two"), verdict(0.01, 0.09, 0.05, "two")
    ('inside', 'outside', 'inconclusive')
    """
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or low > high:
        return None
    if sided == "one":
        return "inside" if low > -margin else "outside" if high < -margin else "inconclusive"
    if -margin < low and high < margin:
        return "inside"
    return "outside" if low > margin or high < -margin else "inconclusive"


def _num(x: float) -> str:
    """0.1 → "0.10", 0.05 → "0.05", 0.025 → "0.025": two decimals unless the margin needs more."""
    two = f"{x:.2f}"
    return two if float(two) == x else f"{x:.3g}"


def margin_text(margin: float) -> str:
    """The margin as the text writes it: ``0.10``, ``0.05``, ``0.025``."""
    return _num(margin)


def _conf(confidence: float | None) -> str:
    return f"{float(confidence if confidence is not None else 0.95):.0%}"


def humans_noun(answers: Mapping[str, Any]) -> str:
    """The author's word for the human raters when the context counts them ("two pathologists", "two human raters"),
    else "human raters".

    >>> humans_noun({"annotators": 3, "context": "graded by two pathologists independently and by the model"})
    'pathologists'
    >>> humans_noun({"annotators": 3, "context": "an LLM judge and two human raters each say"})
    'human raters'
    >>> humans_noun({"annotators": 4, "context": "two pathologists"})
    'human raters'
    """
    m = answers.get("annotators")
    humans = int(m) - 1 if m else None
    context = str(answers.get("context") or "")
    if humans is not None and humans >= 2:
        count = rf"(?:{_NUMBERS.get(humans, str(humans))}|{humans})"
        hit = re.search(rf"\b{count}\s+((?:human\s+)?[a-z]+s)\b", context, re.IGNORECASE)
        if hit:
            return hit.group(1).lower()
    return "human raters"


def judge_margin_sentence(p: Text, answers: Mapping[str, Any], noun: str, weighted: bool,
                          confidence: float | None, intervals: bool) -> None:
    """The decision rule of the judge comparison (one-sided, non-inferiority) with a margin; without one, one clause:
    Δ is descriptive."""
    delta = "the weighted kappa's Δ" if weighted else "Δ of Cohen's kappa"
    humans = humans_noun(answers)
    judge = f"the {noun}" if noun != "judge" else "the judge"
    margin = margin_of(answers)
    if margin is None:
        p.t(f"No margin was fixed in advance, so Δ is descriptive: it cannot show that {judge} agrees as well as the "
            f"{humans} do. ")
        return
    if not intervals:
        p.t(f"Without intervals Δ is descriptive: it cannot be set against the margin of {_num(margin)} fixed in "
            "advance. ")
        return
    p.t(f"We call {judge}'s agreement as good as the {humans}' when the {_conf(confidence)} interval of {delta} lies "
        f"above −{_num(margin)}, a margin fixed in advance: a one-sided, non-inferiority "
        "comparison")
    p.cite(NONINFERIORITY_SOURCES).t(". ")


def gap_margin_sentence(p: Text, answers: Mapping[str, Any], confidence: float | None, intervals: bool,
                        terse: bool = False, line: str | None = None, gaps: str | None = None) -> None:
    """The decision rule of the subgroup gaps (two-sided, equivalence) with a margin; without one, one clause: the
    gaps are descriptive (``terse``: without saying what they cannot show, once the paragraph must shorten).
    ``line``: the rates a fixed line was already drawn for (the four-fifths line for approval rates), set apart: "no
    margin was fixed" right after it read as a contradiction (the loan reader). ``gaps``: the figures whose gaps are
    given ("TPR, FPR and ROC AUC"), named where a line was drawn, so the sentence speaks of them alone.

    >>> t = Text(); gap_margin_sentence(t, {}, 0.95, True, line="approval rates", gaps="TPR, FPR and ROC AUC")
    >>> print(t.spans[0].text.rstrip())
    For the gaps in TPR, FPR and ROC AUC no margin was fixed in advance, so they describe and cannot show equal treatment.
    """
    margin = margin_of(answers)
    if margin is None and line:
        # the line is US practice, not the author's criterion, and a gap with no margin cannot show that groups are
        # treated alike (the s31 credit reader: "a must show cannot rest on descriptive gaps"; no jurisdiction given);
        # the ratios are read against the line, so the sentence names the gaps it speaks of (the fair-lending reader:
        # "no margin was fixed" beside a criterion the text cites read as a contradiction)
        p.t(f"For the gaps in {gaps} no margin was fixed in advance, so they describe and cannot show equal treatment. "
            if gaps else "For the gaps no margin was fixed in advance, so they describe and cannot show equal "
            "treatment. ")
        return
    if margin is None:
        p.t("No margin was fixed in advance, so the gaps are descriptive. ")  # "treated alike" cannot be shown
        return
    if not intervals:
        p.t(f"Without intervals the gaps are descriptive: they cannot be set against the margin of {_num(margin)} "
            "fixed in advance. ")
        return
    p.t(f"We call the groups alike when the {_conf(confidence)} interval of each gap lies within "
        f"±{_num(margin)}, a margin fixed in advance: a two-sided, equivalence "
        "comparison")
    p.cite(EQUIVALENCE_SOURCES).t(". ")


def judge_verdict_words(v: Verdict | None, margin: float, humans: str = "human raters") -> str:
    """The verdict of Δ in words, for the report.

    >>> judge_verdict_words("inside", 0.1, "pathologists")
    "as good as the pathologists': its interval lies above −0.10"
    """
    m = _num(margin)
    if v == "inside":
        return f"as good as the {humans}': its interval lies above −{m}"
    if v == "outside":
        return f"worse than the {humans}' by more than the margin: its interval lies below −{m}"
    if v == "inconclusive":
        return f"inconclusive: its interval contains −{m}"
    return "none: Δ has no interval"


def gap_verdict_words(v: Verdict | None, margin: float) -> str:
    """The verdict of a gap in words, for the report's gap table.

    >>> gap_verdict_words("inside", 0.05), gap_verdict_words("inconclusive", 0.05)
    ('alike within ±0.05', 'inconclusive at ±0.05')
    """
    m = _num(margin)
    return {"inside": f"alike within ±{m}", "outside": f"differ beyond ±{m}",
            "inconclusive": f"inconclusive at ±{m}"}.get(v or "", "no verdict")
