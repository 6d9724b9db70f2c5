"""Methods sentences for the cost, score and probability metrics, in the register of the methods paragraph.

:func:`score_sentences` returns ``(sentence, citation keys)`` pairs that the methods builder places after
the notation and log-loss sentences: what the costs and the class shares in use are, how the expected
cost is normalised, how average precision is computed and what chance is for it, how the Brier score
is defined, how the ECE bins, and how much of the log loss recalibration removes. Formulas themselves
are in the Definitions block (the catalogue's); ``$…$`` marks inline math. No internal ids, no flags.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..catalogue import get_catalogue
from ..engine import LOG_LOSS_EPS
from ..questionnaire import lower_name as _lower
from ..questionnaire import plural
from ._budget import deployed_lead
from ._models_scores import ScoreData

__all__ = [
    "BudgetNote", "FigureNote", "Convention", "TableNote", "ThresholdNote", "cost_reference", "score_sentences"]


class Convention(str):
    """A sentence that states how a formula is computed (ties, interpolation, binning, which Brier form):
    it is printed beside the formulas, not in the paragraph — after the formula of ``metric`` when given."""

    metric: str | None

    def __new__(cls, text: str, metric: str | None = None) -> Convention:
        obj = super().__new__(cls, text)
        obj.metric = metric
        return obj


class TableNote(str):
    """A sentence the paragraph says only while it promises the per-class table it is about ("The predicted labels
    are scored as given …" before "We also give the recall of every class"): when the paragraph is shortened and
    the promise goes, the note goes with it."""


class FigureNote(str):
    """A sentence that says what a figure of the report shows ("We show the calibration curve, …"): said while the
    paragraph has room, the first of the added sentences to go once it must shorten (the figure and its caption
    stay in the report)."""


class ThresholdNote(str):
    """A sentence that says at which threshold the decision metrics read their labels ("Specificity and recall are
    computed from the labels the system gives at its fixed operating threshold, the one in use"): how those formulas
    are computed, so when the paragraph has no room for it, it is said with the formulas (the Definitions), never
    unsaid."""


class BudgetNote(str):
    """The sentence on the threshold TPR at the budget is read at, found on the test set and so optimistic: said
    right after that figure when it stands beside the recall of the deployed threshold (the lead's sentence, then
    the budget's, then this figure; issue 22), else where the added sentences go. ``predicate``: the sentence after
    its subject, "the true positive rate", for a sentence that names the figure itself ("It is read at …")."""

    predicate: str | None

    def __new__(cls, text: str, predicate: str | None = None) -> BudgetNote:
        obj = super().__new__(cls, text)
        obj.predicate = predicate
        return obj


def _share_words(x: float) -> str:
    """A share of the log loss recalibration removes, in words: under 0.5% (or a recalibration that does worse
    on the held-out folds, a negative share) is "less than 1%", never "0%".

    >>> _share_words(0.16), _share_words(0.004), _share_words(-0.01)
    ('16%', 'less than 1%', 'less than 1%')
    """
    return f"{x:.0%}" if x >= 0.005 else "less than 1%"


def _pct(x: float) -> str:
    return f"{x:.0%}" if x >= 0.01 else f"{x:.1%}" if x >= 0.001 else f"{x:.2g}"


def _join(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _costs_sentence(s: Any) -> str:
    labels, c = s.cost_labels, s.costs
    pos = s.positive_label
    if pos is not None and len(labels) == 2 and pos in labels:
        p = labels.index(pos)
        fn, fp = c[p][1 - p], c[1 - p][p]
        what = f"A missed “{pos}” item is taken to cost {fn:g} and a false alarm {fp:g}"
    else:
        what = "Each error is weighed by the stated cost of its true class and decision"
    if s.priors:
        order = sorted(s.priors.items(), key=lambda kv: kv[1])
        shares = _join([f"{lab} {_pct(v)}" for lab, v in order])
        return f"{what}, at the class shares in use, {shares}, rather than those of the test set"
    return f"{what}, at the class shares of the test set"


def _best_constant(s: Any) -> str | None:
    """The decision the normalisation refers to: argmin_j Σ_i π_i c_ij (the test shares when none are given)."""
    if not s.priors:
        return None
    cost = _constant_costs([s.priors.get(lab, 0.0) for lab in s.cost_labels], s.costs)
    return s.cost_labels[min(range(len(cost)), key=cost.__getitem__)]


def _constant_costs(pi: Sequence[float], costs: Sequence[Sequence[float]]) -> list[float]:
    """The expected cost of deciding class j for every item, Σ_i π_i c_ij, for each j (rows: true classes)."""
    return [sum(pi[i] * costs[i][j] for i in range(len(pi))) for j in range(len(pi))]


def _naive_before(answers: Mapping[str, Any]) -> str:
    """Before data, the decision that ignores the input which normalised expected cost is measured against, when the
    answers give the costs and the shares in use (the s26 retinopathy reader: "one sentence saying that the software
    must beat 'refer all' is what makes the figure readable"): ", here “B” for every person, an expected cost of 0.93
    per person against 1.40 for “A” for every person". Empty otherwise (the test set's shares are known with data).

    >>> _naive_before({"classes": ["no", "yes"], "positive_class": "yes", "item_name": "person",
    ...                "error_costs": {"false_negative": 20, "false_positive": 1},
    ...                "deployment_prevalence": "shifted", "target_prevalence": {"no": 0.93, "yes": 0.07}})
    ', here “yes” for every person, an expected cost of 0.93 per person against 1.40 for “no” for every person'
    """
    classes = [str(c) for c in answers.get("classes") or []]
    shares = answers.get("target_prevalence") if answers.get("deployment_prevalence") == "shifted" else None
    ec = answers.get("error_costs") or {}
    if not shares or not classes:
        return ""
    if ec.get("false_negative") is not None and len(classes) == 2 and answers.get("positive_class") is not None:
        pos = str(answers["positive_class"])
        if pos not in classes:
            return ""
        fn, fp = float(ec["false_negative"]), float(ec.get("false_positive") or 1.0)
        costs = [[0.0 if i == j else (fn if c == pos else fp) for j in range(2)] for i, c in enumerate(classes)]
    elif ec.get("matrix") is not None and len(ec["matrix"]) == len(classes):
        costs = [[float(x) for x in row] for row in ec["matrix"]]
    else:
        return ""
    cost = _constant_costs([float(shares.get(c, 0.0)) for c in classes], costs)
    order = sorted(range(len(classes)), key=cost.__getitem__)
    item = str(answers.get("item_name") or "item")
    best = f", here “{classes[order[0]]}” for every {item}, an expected cost of {cost[order[0]]:.2f} per {item}"
    if len(classes) == 2:
        best += f" against {cost[order[1]]:.2f} for “{classes[order[1]]}” for every {item}"
    return best


def cost_reference(answers: Mapping[str, Any], class_sizes: Mapping[str, float] | None,
                   nec_name: str | None) -> str | None:
    """The reference point of a raw binary expected cost (the sarcasm reader: "a raw value such as 0.21 cannot be
    judged"): what deciding the other class for every item and deciding the positive class for every item cost per
    item at the same class shares — the shares in use when given, else the test set's (``class_sizes``, from the
    data; without data, the formula in π). With ``nec_name`` (reported beside), that it is the expected cost divided
    by the cheaper of the two, which is Ferrer's normalisation at these shares and costs. None without a positive
    class, two named classes and both costs.

    >>> print(cost_reference({"classes": ["literal", "sarcastic"], "positive_class": "sarcastic", "item_name": "post",
    ...                        "error_costs": {"false_negative": 3, "false_positive": 1}}, {"literal": 7, "sarcastic": 1},
    ...                       "normalized expected cost"))
    For reference, calling no post “sarcastic” costs 0.38 here and calling every one 0.88; we also give the normalized expected cost, expected cost divided by the cheaper of the two
    """
    costs = answers.get("error_costs") or {}
    classes = [str(c) for c in answers.get("classes") or []]
    pos = answers.get("positive_class")
    if not isinstance(costs, Mapping) or costs.get("false_negative") is None or costs.get("false_positive") is None \
            or pos is None or len(classes) != 2 or str(pos) not in classes:
        return None
    fn, fp = float(costs["false_negative"]), float(costs["false_positive"])
    item = str(answers.get("item_name") or "item")
    shares = answers.get("target_prevalence") or None
    if shares:
        pi: float | None = float(shares.get(str(pos), 0.0)) / float(sum(float(v) for v in shares.values()))
    elif class_sizes:
        total = float(sum(class_sizes.values()))
        pi = float(class_sizes.get(str(pos), 0.0)) / total if total > 0 else None
    else:
        pi = None
    if pi is not None:
        none, every = f"{fn * pi:.2f} here", f"{fp * (1 - pi):.2f}"  # per item, as the lead said
        said = ""
    else:  # no data yet: the sums the reader can redo once the shares are known
        w_fn, w_fp = (f"{v:g}" if v != 1 else "" for v in (fn, fp))
        none = f"{w_fn}π"
        every = f"{w_fp}(1 − π)" if w_fp else "1 − π"
        said = f", with π the share of “{pos}”"
    text = f"For reference, calling no {item} “{pos}” costs {none} and calling every one {every}{said}"
    if nec_name:
        text += f"; we also give the {nec_name}, expected cost divided by the cheaper of the two"
    return text


def clip_epsilon() -> str:
    """The clipping constant of every logarithm and logit of a probability, in LaTeX: "$\\varepsilon = 2.2 \\times
    10^{-16}$", the float64 machine epsilon, as scikit-learn's log loss clips.

    >>> print(clip_epsilon())
    $\\varepsilon = 2.2 \\times 10^{-16}$
    """
    mant, exp = f"{LOG_LOSS_EPS:.1e}".split("e")
    return f"$\\varepsilon = {mant} \\times 10^{{{int(exp)}}}$"


def brier_convention(cite: Any = None) -> tuple[Convention, list[str]]:
    """Which Brier score a binary task reports: the sum over both classes, twice the binary form many fields report
    (scikit-learn's ``brier_score_loss``), said beside its formula."""
    key = (cite or (lambda author, year: None))("Brier", "1950")
    return (Convention("The Brier score sums over both classes, twice the binary form (the mean squared error of the "
                       "positive-class probability, as in scikit-learn) that many studies report",
                       "brier"), [key] if key else [])


#: Said of TPR at an FPR budget before there is data (with data, the threshold found is said with it).
TEST_SET_THRESHOLD = ("Chosen on the test set itself, the budget's threshold makes the true positive rate optimistic "
                      "for a threshold fixed in advance")


#: Said of the coverage at a target risk, data or not: its cut is the test set's own (the lead's sentence says it
#: when the coverage leads).
TEST_SET_CUT = ("The cut of the coverage at the target risk is found on this test set and is optimistic for a "
                "threshold fixed in advance")


def score_sentences(metrics: Sequence[str], scores: Any, cite: Any = None,
                    k: int | None = None, labels_shown: bool = False,
                    answers: Mapping[str, Any] | None = None,
                    names: Mapping[str, str] | None = None) -> list[tuple[str, list[str]]]:
    """Sentences for the reported cost/score/probability metrics (``scores`` is a :class:`ScoreData`).

    >>> from advisor.report._models_scores import ScoreData
    >>> s = ScoreData(positive_label="ill", costs=[[0, 1], [10, 0]], cost_labels=["well", "ill"],
    ...               priors={"well": 0.98, "ill": 0.02})
    >>> for text, _ in score_sentences(["normalized_expected_cost"], s): print(text)
    A missed “ill” item is taken to cost 10 and a false alarm 1, at the class shares in use, ill 2% and well 98%, rather than those of the test set
    Normalized expected cost is 1 for the best decision that ignores the input, here “well” for everyone; lower is better
    """
    if scores is None:  # no data yet: how each formula is computed (its citation with it), said all the same
        before: list[tuple[str, list[str]]] = [(t, c) for t, c in score_sentences(metrics, ScoreData(), cite, k)
                                               if isinstance(t, Convention)]
        if "normalized_expected_cost" in metrics:  # how to read it, with its formula (the ECG and retinopathy readers)
            before.append((Convention("Normalized expected cost is 0 when every decision is right and 1 for the best "
                                      "decision that ignores the input" + _naive_before(answers or {}) +
                                      "; lower is better", "normalized_expected_cost"), []))
        if "tpr_at_fpr" in metrics:  # the estimate's optimism is a fact of the design, data or not
            before.append((BudgetNote(TEST_SET_THRESHOLD),
                           [k for k in [(cite or (lambda a, y: None))("Tong", "2018")] if k]))
        if "coverage_at_risk" in metrics:  # so is the cut of the coverage at a target risk (issue 22)
            before.append((TEST_SET_CUT, []))
        brier: list[tuple[str, list[str]]] = [brier_convention(cite)] if k == 2 and "brier" in metrics else []
        curves = _curves_sentence(metrics, answers or {}, None, cite, k)
        cover = (answers or {}).get("target_coverage")
        by_class = _by_class_sentence(answers or {}, float(cover), "risk_at_frozen_coverage" in metrics) \
            if ("selective_risk" in metrics or "risk_at_frozen_coverage" in metrics) and cover else []
        return brier + before + _threshold_before(metrics, answers or {}, names or {}, k) + curves + by_class
    cite = cite or (lambda author, year: None)

    def keys(*pairs: tuple[str, str]) -> list[str]:
        return [k for k in (cite(a, y) for a, y in pairs) if k]

    out: list[tuple[str, list[str]]] = _curves_sentence(metrics, answers or {}, scores, cite, k)
    if ("selective_risk" in metrics or "risk_at_frozen_coverage" in metrics) and scores.selective_by_class \
            and scores.selective_coverage is not None:
        out += _by_class_sentence(answers or {}, scores.selective_coverage, bool(scores.frozen_coverage))
    ids = set(metrics)
    if ids & {"expected_cost", "normalized_expected_cost"} and scores.costs is not None:
        if not scores.costs_said:  # the situation sentence states the answers' costs and shares
            out.append((_costs_sentence(scores), keys(("Ferrer", "2022"))))
        if "normalized_expected_cost" in ids:
            best = _best_constant(scores)
            here = f", here “{best}” for everyone" if best is not None else ""
            out.append((f"Normalized expected cost is 1 for the best decision that ignores the input{here}; "
                        "lower is better", []))
        if scores.bayes_threshold is not None and scores.positive_label is not None:
            out.append(("With the probabilities reweighted from the test set's class shares to those in use, "
                        f"least-cost decisions call “{scores.positive_label}” above a probability of "
                        f"{scores.bayes_threshold:.2f}", []))
    if "roc_auc" in ids and k is not None and k > 2 and scores.positive_label is None:
        out.append((Convention(f"With {k} classes, ROC AUC is the unweighted mean over the classes of each class's "
                               "one-vs-rest area (scikit-learn's multi_class='ovr', average='macro'); it counts tied "
                               "scores as one half; 0.5 is chance", "roc_auc"), keys(("Fawcett", "2006"))))
    elif "roc_auc" in ids:
        out.append((Convention("ROC AUC counts tied scores as one half; 0.5 is chance", "roc_auc"), []))
    if "lam" in ids:  # the formula is TREC's definition rewritten: the definition said with it (Cormack & Lynam 2005)
        out.append((Convention("It is logit⁻¹ of the mean of the logits of the two error rates, FP/(FP + TN) and "
                               "FN/(FN + TP), and lam% is 100 times it", "lam"), keys(("Cormack", "2005"))))
    if "partial_roc_auc" in ids:  # McClish's rescaling: 0.5 for chance and 1 for a perfect ranking, at any budget
        out.append((Convention("The partial area is McClish's standardized form, 0.5 for a ranking no better than "
                               "chance and 1 for a perfect one", "partial_roc_auc"), keys(("McClish", "1989"))))
    if "ks_statistic" in ids:  # one threshold per tie group, as the ROC curve's points; one-sided, so never below 0
        out.append((Convention("The Kolmogorov–Smirnov statistic flags tied scores together, at one threshold, and is 0 "
                               "when no threshold does better than chance", "ks_statistic"), []))
    if "average_precision" in ids:
        # with its chance level, the positive share (the fraud reader: AP at 0.2% fraud without its no-skill value);
        # Saito & Rehmsmeier (2015) give the random classifier's precision–recall line at P/(P + N)
        out.append((Convention("Average precision is the step-wise area under the precision–recall curve, without "
                               "interpolation; a ranking no better than chance scores about the share of positives",
                               "average_precision"), keys(("Saito", "2015"))))
    if "brier_binary" in ids:
        out.append((Convention("The Brier score is the mean squared error of the positive-class probability; "
                               "the sum over both classes, also called the Brier score, is twice it", "brier_binary"),
                    keys(("Brier", "1950"))))
    elif "brier" in ids and scores.positive_share is not None:  # a binary task: say which convention
        out.append(brier_convention(cite))
    if "ece" in ids and scores.ece_bins:
        out.append((Convention(f"The expected calibration error uses {scores.ece_bins} equal-mass bins of the "
                               "top-label confidence", "ece"), keys(("Guo", "2017"))))
    out += _decision_sentences(ids, scores, keys, labels_shown, list(metrics), names or {},
                               deployed=deployed_lead(answers or {}, list(metrics)),
                               fixed=(answers or {}).get("operating_point") == "fixed")
    loss = {n: v for n, v in scores.calibration_loss.items() if v is not None}
    if loss and "ece" in ids:
        parts = [f"{_share_words(v)} of {'the log loss' if i == 0 else 'that'} of {n}"
                 for i, (n, v) in enumerate(loss.items())]
        out.append(("Temperature scaling fitted on held-out folds removes " + _join(parts) +
                    ", the part due to miscalibration", []))
    return out


def _decision_sentences(ids: set[str], s: Any, keys: Any, labels_shown: bool = False,
                        order: Sequence[str] = (), names: Mapping[str, str] | None = None,
                        deployed: bool = False, fixed: bool = False) -> list[tuple[str, list[str]]]:
    """Issue 21: the threshold each budget chose and how, K, the clinical calibration, the decision curve, and
    which threshold made the labels the decision metrics score. ``deployed``: the recall of the deployed threshold
    leads (:func:`~advisor.report._budget.deployed_lead`), and its sentence says the threshold it is read at.
    ``fixed``: the labels come from the operating threshold in use (the answers' ``operating_point``), said so, as
    before data (:func:`_threshold_before`)."""
    out: list[tuple[str, list[str]]] = []
    if "tpr_at_fpr" in ids and s.decision_budget is not None:
        read = (f"is read at the lowest threshold whose false positive rate on the test set is at most "
                f"{_pct(s.decision_budget)}, without interpolation; chosen on the test set, that threshold makes the "
                "rate optimistic")
        out.append((BudgetNote("The true positive rate " + read, read), keys(("Tong", "2018"))))
    if ids & {"precision_at_k", "recall_at_k"} and s.decision_k is not None and s.decision_n:
        share = f", the share {s.decision_review_share:g} of them" if s.decision_review_share is not None else ""
        out.append((f"Precision and recall at K count the K = {int(s.decision_k):,} highest-scored of the "
                    f"{s.decision_n:,} test items{share}; a tie at the cut counts fractionally", []))
    if ids & {"calibration_intercept", "calibration_slope"}:
        # one clipping constant, log loss's ε: said with log loss's formula when it is reported, else here
        # the clipping is ours, said before the definition the citation is for (the s24 reader: "clipping attributed
        # to Van Calster")
        # said only where a risk of 0 or 1 was clipped (the sepsis and loan readers: "ε = 2.2×10⁻¹⁶ serves nothing")
        n_clipped = sum(getattr(s, "extreme_risks", {}).values())
        clip = ("" if not n_clipped else
                f"With the {n_clipped:,} {'risk' if n_clipped == 1 else 'risks'} of 0 or 1 clipped to "
                "$[\\varepsilon, 1 - \\varepsilon]$"
                + (" as for log loss," if "log_loss" in ids else ", " + clip_epsilon() + ","))
        out.append((Convention((clip + " the" if clip else "The") + " calibration intercept is that of a logistic "
                               "regression of the outcome with the logit of the risk as offset, the slope that of a "
                               "regression on the logit",
                               "calibration_intercept"), keys(("McLernon", "2019"))))
    if "ici" in ids:
        # the smoother's settings are ours, said before the definition the citation is for (the s22 reader: the
        # sentence read as if Austin & Steyerberg had used a locally linear loess)
        out.append((Convention("The integrated calibration index, here with a locally linear loess of span 0.75, "
                               "averages the distance between each risk and a loess curve of the outcomes on the "
                               "risks", "ici"),
                    keys(("Austin", "2019"))))
    if any(i.startswith("net_benefit@") for i in ids):
        out.append((Convention("Net benefit treats the items whose risk is at least $\\theta$ and weighs each "
                               "false positive by the odds $\\theta/(1-\\theta)$"), keys(("Vickers", "2006"))))
    # the share of the log loss a logistic recalibration removes is a result: the calibration table gives it per
    # system, beside the intercept and slope it comes from, not this paragraph ("removes 0% of the log loss of a",
    # a number in the methods that the loan paragraph had no room for)
    if ids & {"ranked_probability_score", "rps_skill"} and s.rps_order:
        order = ", ".join(s.rps_order)
        out.append((Convention(f"The ranked probability score sums the squared differences of the cumulative "
                               f"forecast and outcome over the k − 1 cumulative categories of the order {order}, not "
                               "divided by k − 1; its skill score compares it with forecasting the test set's class "
                               "shares for every item", "ranked_probability_score"), keys(("Murphy", "1971"))))
    if "aurc" in ids:  # its source beside its formula, where it is the summary beside an operating figure (issue 22)
        out.append((Convention("The area under the risk-coverage curve summarises the selective risk over every "
                               "coverage", "aurc"), keys(("Geifman", "2019"))))
    selective = ids & {"aurc", "selective_risk", "coverage_at_risk"}
    if selective and s.selective_n:  # issue 23: how the confidence was taken, the coverage, the target risk
        answer = "the predicted label" if s.selective_given_labels else "the most probable class"
        at = (f"; the selective risk is the error rate among the ⌈c·n⌉ = {s.selective_answered:,} most confident of "
              f"the {s.selective_n:,} test items, at coverage c = {s.selective_coverage:g}"
              if "selective_risk" in ids and s.selective_coverage is not None else "")
        if "coverage_at_risk" in ids and s.selective_target_risk is not None:
            at += (f"; the coverage at a risk of {s.selective_target_risk * 100:.3g}% is the largest share of the "
                   f"{s.selective_n:,} test items, most confident first, whose error rate is at most r = "
                   f"{s.selective_target_risk:g}")
        lead = next(m for m in ("selective_risk", "coverage_at_risk", "aurc") if m in selective)
        out.append((Convention(f"Selective prediction ranks the items by the top-label probability, the confidence, "
                               f"and answers the most confident with {answer}{at}; a tie of equal confidences is "
                               "shared fractionally, the mean over the orders within it", lead),
                    keys(("Geifman", "2017"))))
        if "coverage_at_risk" in ids and s.selective_target_risk is not None:
            out.append((TEST_SET_CUT, []))
    # the threshold of given labels, when a reported metric or the per-class table scores them
    if s.labels_given and (ids & _DECISION_IDS or labels_shown) and s.bayes_threshold is None:
        what = "probabilities" if s.reliability or s.calibration_loss or s.calibration else "scores"
        # as given: no threshold of ours made them ("no threshold was chosen in this evaluation" read as if none
        # existed, where the loan's threshold is fixed in advance)
        text = f"The predicted labels are scored as given with the {what}"
        if "tpr_at_fpr" in ids and s.decision_budget is not None and ids & _DECISION_IDS:
            # the budget's threshold was chosen above: say which metrics it does not set (issue 22, the fraud reader);
            # the lead read at the deployed threshold has said so in its own sentence
            said, verb = _decision_names(order[1:] if deployed else order, names or {})
            if not said:
                return out
            text = (f"{said} {verb} the predicted labels given with the {what}, at the threshold that made "
                    "them, not at the one the budget sets")
        elif fixed and ids & _DECISION_IDS and not (s.frozen_coverage or s.frozen_cut):
            said, verb = _decision_names(order[1:] if deployed else order, names or {})
            if said:
                text = f"{said} {verb} the labels the system gives at its fixed operating threshold, the one in use"
        # how the decision metrics' formulas are computed: with them, in the Definitions, when the paragraph is full
        out.append((ThresholdNote(text) if ids & _DECISION_IDS else TableNote(text), []))
    return out


def _by_class_sentence(answers: Mapping[str, Any], coverage: float,
                       frozen: bool = False) -> list[tuple[str, list[str]]]:
    """"For each class we also give the share of its lesions answered at 80% coverage and the recall among them, so
    a cut met by deferring one class shows" (issue 22, the dermatology reader: the selective risk is met most
    cheaply by deferring the rare cancers); ``frozen``: at the cut frozen on the calibration half, on the test half.

    >>> _by_class_sentence({"item_name": "lesion"}, 0.8, frozen=True)[0][0]
    'For each class we also give the share of its lesions answered at that cut and the recall among them, so a cut met by deferring one class shows'
    """
    items = plural(str(answers.get("item_name") or "item"))
    if answers.get("focus_classes"):  # said with the classes that matter most, right after the lead, with every
        return []  # class's share answered (advisor/report/_methods_focus.py)
    at = "at that cut" if frozen else f"at {coverage:.0%} coverage"
    return [(f"For each class we also give the share of its {items} answered {at} and the recall "
             "among them, so a cut met by deferring one class shows", [])]


def _curves_sentence(metrics: Sequence[str], answers: Mapping[str, Any], s: Any, cite: Any,
                     k: int | None) -> list[tuple[str, list[str]]]:
    """"We show the calibration curve, smoothed by loess, with its pointwise 95% bootstrap band, and the decision
    curve over the risk thresholds from 0.05 to 0.2": the figures TRIPOD+AI asks for, said where the report draws them (issue 22, the sepsis reader:
    "no calibration plot, and net benefit at three points instead of a decision curve over 5–20%"). Before data
    (``s`` None) the band is not promised: it is drawn only where the test set is small enough for it.

    >>> _curves_sentence(["ici", "net_benefit@0.05", "net_benefit@0.2"], {"task": "binary", "outputs":
    ...     "probabilities", "positive_class": "sepsis", "item_name": "admission"}, None, None, 2)[0][0]
    'We show the calibration curve, smoothed by loess, and the decision curve over the risk thresholds from 0.05 to 0.2'
    """
    ids = set(metrics)
    binary = k == 2 or answers.get("task") == "binary"
    probabilities = (answers.get("outputs") or ("probabilities" if answers.get("probabilities") else None)) \
        == "probabilities"
    thresholds = sorted(float(m.split("@", 1)[1]) for m in ids if m.startswith("net_benefit@"))
    calibration = bool(ids & {"calibration_intercept", "calibration_slope", "ici"}) and (
        bool(s.smooth) if s is not None else binary and probabilities)
    decision = len(thresholds) > 1 and (bool(s.net_benefit_curve) if s is not None else True)
    if not calibration and not decision:
        return []
    parts, keys = [], []
    if calibration:
        band = ", with its pointwise 95% bootstrap band" if s is not None and s.smooth_band else ""
        parts.append(f"the calibration curve, smoothed by loess{band}")
        keys.append(("Van Calster, Ben and McLernon", "2019"))  # not Vickers, van Calster … (2019)
    if decision:
        parts.append(f"the decision curve over the risk thresholds from {thresholds[0]:g} to {thresholds[-1]:g}")
        keys.append(("Vickers", "2006"))
    cited = [x for x in ((cite(a, y) if cite else None) for a, y in keys) if x]
    return [(FigureNote("We show " + ", and ".join(parts)), cited)]


def _threshold_before(metrics: Sequence[str], answers: Mapping[str, Any], names: Mapping[str, str],
                      k: int | None) -> list[tuple[str, list[str]]]:
    """Before data: the threshold at which the decision metrics of a two-class system with scores read its labels
    (issue 22: the fraud, spam and retinopathy readers found precision and recall "at a threshold never named").
    Among several classes the labels are the system's classes, no threshold of one score.

    >>> _threshold_before(["recall", "specificity"], {"outputs": "probabilities", "operating_point": "fixed"},
    ...                   {"recall": "Sensitivity"}, 2)[0][0]
    'Sensitivity and specificity are computed from the labels the system gives at its fixed operating threshold, the one in use'
    """
    outputs = answers.get("outputs") or ("probabilities" if answers.get("probabilities") else None)
    binary = k == 2 or answers.get("task") == "binary"
    if outputs not in ("probabilities", "scores") or not binary or not set(metrics) & _DECISION_IDS:
        return []
    # the lead read at the deployed threshold says so in its own sentence: the others' threshold is said here
    said, verb = _decision_names(metrics[1:] if deployed_lead(answers, metrics) else metrics, names)
    if not said:
        return []
    if answers.get("fpr_budget") is not None and "tpr_at_fpr" in metrics and answers.get("operating_point") == "fixed":
        text = f"{said} {verb} the labels of the deployed threshold, not of the one the budget sets"
    elif answers.get("fpr_budget") is not None and "tpr_at_fpr" in metrics:
        text = (f"{said} {verb} the labels the system gives with its {outputs}, at the threshold that made them, "
                "not at the one the budget sets")
    elif answers.get("operating_point") == "fixed":
        text = f"{said} {verb} the labels the system gives at its fixed operating threshold, the one in use"
    else:
        text = (f"{said} {verb} the labels the system gives with its {outputs}, at the threshold that made them; "
                "this evaluation chooses none")
    return [(ThresholdNote(text), [])]


def _decision_names(order: Sequence[str], names: Mapping[str, str]) -> tuple[str, str]:
    """The decision metrics among ``order``, in the paragraph's names, as a sentence's subject, and its verb."""
    said = [_lower(names.get(m) or get_catalogue().metrics[m].name) for m in order if m in _DECISION_IDS]
    if not said:
        return "", ""
    text = _join(said)
    return text[:1].upper() + text[1:], "is computed from" if len(said) == 1 else "are computed from"


#: decision metrics of labels (a confusion matrix): their threshold is said
#: (the expected costs read the confusion matrix too: the retinopathy reader asked whether NEC used the fixed threshold)
_DECISION_IDS = {"accuracy", "expected_cost", "normalized_expected_cost", "balanced_accuracy", "recall", "precision",
                 "specificity", "npv", "f1", "f_beta", "mcc",
                 "cohen_kappa", "macro_f1", "jaccard", "adjusted_balanced_accuracy", "sba", "gm1",
                 "geometric_macro_recall", "harmonic_macro_recall", "weighted_f1", "macro_precision", "lam"}
