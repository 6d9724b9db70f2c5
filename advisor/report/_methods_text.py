"""The words of the methods paragraph: every sentence pattern, in one place a writer can edit.

:mod:`advisor.report._methods` decides *what* to say (which metric leads, which properties argue for
it, which duties apply); this module says *how*. Patterns are ``str.format`` templates over plain
values; the builder inserts formulas and citations as separate spans, so a pattern never holds
markup. One source per pattern serves Markdown, LaTeX and HTML alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["ADDS", "ADDS_CITE", "AVOID", "GAPS_WHY", "BESIDE_PROPER", "DEFINITION_VARIANT", "DUTY", "LEAD", "LEAD_CITE", "LEAD_COSTS", "LEAD_ITEMS", "NOTE_SOURCES", "PARTITION_CITE", "PROMISE", "PROMISE_AT_PRIORS", "PROMISE_AT_PRIORS_BINARY", "PROMISE_AT_PRIORS_EQUAL", "PROMISE_AT_PRIORS_LISTED", "PROMISE_AT_PRIORS_MANY", "PROMISE_AT_PRIORS_ROWS", "PROMISE_AT_PRIORS_SCORES", "PROMISE_COMPARING", "PROMISE_FIRST_UNITS", "PROMISE_GAPS", "PROMISE_PER_CLASS", "PROMISE_SUBGROUPS", "GROUPS_OF_COLUMNS", "GROUPS_DESCRIBED", "subgroups_phrase", "subgroup_unit", "PROPERTY", "S", "SITUATION", "TERSE_FIRST", "TERSE_LAST", "UNDEFINED_CASE", "UNDEFINED_KEPT", "UNDEFINED_LEFT_OUT", "VARIANT", "VARIANT_BESIDE",
           "per_class_promised"]

from ..questionnaire import ADDS_PHRASES as ADDS
from ..questionnaire import AVOID_PHRASES as AVOID
from ..questionnaire import LEAD_COSTS_PHRASE as LEAD_COSTS
from ..questionnaire import LEAD_ITEMS_PHRASE as LEAD_ITEMS
from ..questionnaire import LEAD_PHRASES as LEAD
from ..questionnaire import PROPERTY_PHRASES as PROPERTY
from ..questionnaire import SITUATION_PHRASES as SITUATION

#: What the report shows beside the metrics (the plan's diagnostics), as the methods promise it ("We also give …").
PROMISE: dict[str, str] = {
    "per_class_recall": "the recall of every class",
    "per_class": "the precision, recall and F1 of every class",
    "recall_spread": "the range and standard deviation of per-class recall",
    "at_priors": "the metrics at the class shares in use",
    # the resamples named as what they are, bootstrap resamples of the unit (the s33 reader: with jackknife intervals
    # "the bootstrap resamples" had no antecedent)
    "ranking_stability": "how often each system ranks first across bootstrap resamples",
    "paired_difference": "each metric's paired difference",
    "class_order": "the order of the classes the distances are taken in",
    "per_label": "precision, recall and F1 of every label",
    # said by the sentence of the labels' ROC AUCs ("each reported beside it"), with the planned F1's illustration
    "label_aucs": "the ROC AUC of every label",
    "level_accuracy": ("the accuracy at each level of the taxonomy, from the top categories down: the share of the "
                       "items whose predicted class lies under the true class's node at that level"),
    "annotator_counts": "how many items each annotator rated",
    "pairwise_kappa": "Cohen's kappa of every pair of annotators",
    "cluster_sizes": "how many clusters each partition has and how large they are",
    "cross_tab": "the 2×2 table of the calls against the reference standard",
    "judge_agreement": "the judge's agreement with each human rater beside the human raters' with each other",
    # said in a sentence of its own, with its source and thresholds (advisor/report/_methods_baseline.py)
    "human_baseline": "the machine's agreement with each human rater beside the raters' with each other",
    # said in a sentence of its own, with its source and what each AUC catches (advisor/report/_methods_bias.py)
    "bias_aucs": "the subgroup, BPSN and BNSP AUCs",
    # said in a sentence of its own, with its source and the threshold (advisor/report/_methods_bias.py)
    "subgroup_smd": "the standardized mean difference of predicted minus true scores within each subgroup value",
    # said in a sentence of its own, with its source and the threshold's criterion (advisor/report/_methods_bias.py)
    "subgroup_error_rates": "false positive and false negative rates at the threshold where both overall rates are equal",
    # each said in a sentence of its own, with its source (advisor/report/_methods_bias.py)
    "adverse_impact": "the rate of the favourable decision within each subgroup value and its ratio to the highest",
    "bias_score": "the final bias score of the Jigsaw Unintended Bias competition",
    "stratified_estimates": ("the user's and producer's accuracy and the area of every class, estimated from area "
                             "proportions"),
}
#: The table at the shares in use, with the shares (a binary task names its predictive values and the positive share).
PROMISE_AT_PRIORS = "each metric that depends on the class shares as it would read at the shares in use ({shares})"
#: The same with more classes than a sentence can list with their shares: the table's caption lists them.
PROMISE_AT_PRIORS_MANY = ("each metric that depends on the class shares as it would read at the shares in use, which "
                          "the table of those figures gives for each of the {k} classes")
#: Every class equally common in use (the digits example): said so, not as a list of equal shares.
PROMISE_AT_PRIORS_EQUAL = "each metric that depends on the class shares as it would read with every class equally common"
#: More classes than this: their shares in use are listed with the table, not in the paragraph.
PROMISE_AT_PRIORS_LISTED = 8
#: (said in 22 words, not 30: with log loss and the Brier score beside the probabilities, the retinopathy paragraph
#: lost the promise by six words)
PROMISE_AT_PRIORS_BINARY = ("the positive and negative predictive values{others} at the shares in use ({shares}), "
                            "{how}")
#: How the table projects them: the matrix's rows rescaled to the shares.
PROMISE_AT_PRIORS_ROWS = "the confusion matrix's rows rescaled to those shares"
#: With log loss or the Brier score among them, which no matrix holds: what both projections do, in fewer words (each
#: item of true class c weighs π_c/n_c, in the rescaled matrix as in the weighted mean score; a paragraph of two
#: systems with probabilities lost this promise to a clause of eight words said beside the matrix's)
PROMISE_AT_PRIORS_SCORES = "each class reweighted to its share"
#: The same where the intervals are the jackknife's, whose sentence names no resamples (the s35 shared-task reader: "there
#: is no bootstrap: a dangling reference to a procedure that does not exist"): the shares still come from resampled
#: units, drawn with the report's seed (advisor/stats/_paired.py), so their design is said here
PROMISE_FIRST_UNITS = "how often each system ranks first in {n} bootstrap resamples of {units}{seed}"
#: The promises of the per-class table (its labels' threshold is said with them).
PROMISE_PER_CLASS: frozenset[str] = frozenset({PROMISE["per_class_recall"], PROMISE["per_class"],
                                                   PROMISE["recall_spread"]})
#: The promises about comparing systems: said after the sentence on how systems are compared, the others before it.
PROMISE_COMPARING: frozenset[str] = frozenset({PROMISE["ranking_stability"], PROMISE["paired_difference"]})


def per_class_promised(promised: Iterable[str]) -> bool:
    """Whether the per-class table is among the promises (the table of every class may name what the author asked
    of it: "…, among them the recall of “out-of-scope”")."""
    return any(x.startswith(p) for x in promised for p in PROMISE_PER_CLASS)


#: The subgroups of the answers' ``subgroups``, as the report shows them (issue 23 item 1).
# the gap is the range, highest minus lowest value (the s29 readers: "the largest gap in each figure unaffected by class
# shares" was undefined — between which groups?)
PROMISE_SUBGROUPS = "every metric {groups}"
#: The subgroups of a column, by its quoted name, or in the author's words when the answers give them
#: (``subgroup_descriptions``; the tox reader: "within each value of “identity_mentioned”" reads as tool language)
GROUPS_OF_COLUMNS = "within each value of {columns}"
GROUPS_DESCRIBED = "separately for {groups}"


def subgroups_phrase(columns: Iterable[object], descriptions: Mapping[str, str] | None = None,
                     quoted: bool = True) -> str:
    """What follows "every metric": "within each value of “sex” and “ethnicity”", or, where the author named the
    groups, "separately for comments that mention an identity and those that do not" (described columns in the
    author's words, the others by their quoted name).

    >>> subgroups_phrase(["sex"])
    'within each value of “sex”'
    >>> subgroups_phrase(["identity_mentioned"], {"identity_mentioned": "comments that mention an identity and those that do not"})
    'separately for comments that mention an identity and those that do not'
    """
    cols = [str(c) for c in columns]
    said = {str(k): str(v).strip() for k, v in (descriptions or {}).items() if str(v).strip()}
    named = [said[c] for c in cols if c in said]
    rest = [f"“{c}”" if quoted else c for c in cols if c not in said]
    parts = ([GROUPS_DESCRIBED.format(groups=", and for ".join(named))] if named else []) \
        + ([GROUPS_OF_COLUMNS.format(columns=" and ".join(rest))] if rest else [])
    return " and ".join(parts)


def subgroup_unit(descriptions: Mapping[str, str] | None) -> str:
    """The noun for one group in the sentences after the promise: "value" of a quoted column, "subgroup" once the
    author's words named the groups."""
    return "subgroup" if descriptions else "value"
#: The gaps the report's gap table gives, named (the loan and toxic readers: "the range of each figure unaffected by
#: class shares" named none): the figures whose gap compares the classifier, not the values' base rates
PROMISE_GAPS = ", and the {gaps} in {figures}"
#: Why those gaps: said unless the paragraph must shorten (the gap table's caption says it too)
GAPS_WHY = {False: ", which does not depend on class shares", True: ", which do not depend on class shares"}

#: A reporting duty of the situation, as a noun phrase ("We also give {duty}").
DUTY: dict[str, str] = {
    "per_class_large_k": "the range and standard deviation of per-class recall",
    "per_class_small_k": "the recall of every class",
    "target_prevalence_projection": "each metric at the shares in use",
    "error_costs_beta": "the expected cost per item",
}

#: The work behind what a metric beside the lead adds (its ADDS phrase), cited right after that phrase: MCC's constant
#: baseline, the expected value 0 of a random labeling with fixed class sizes (Gösgens et al. 2021, §3.5 and Table 2).
#: Purity with inverse purity: what the two reward, as text-clustering studies report them (Amigó et al. 2009, §4.1).
ADDS_CITE: dict[str, str] = {"mcc": "gosgens2021good", "purity": "amigo2009comparison",
                             "inverse_purity": "amigo2009comparison"}

#: What a variant is, when its name is ambiguous.
VARIANT: dict[str, str] = {
    "macro_f1": "macro F1 is the mean of the per-class F1 scores, not the F1 of macro precision and recall",
    "f1_of_averages": "this F1 is the harmonic mean of macro precision and macro recall",
    "weighted_f1": "per-class F1 scores are weighted by class size",
}

#: What a second proper scoring rule adds beside a proper lead (the lead already judges the probabilities).
BESIDE_PROPER: dict[str, dict[str, str]] = {
    "log_loss": {"brier": "a second proper scoring rule, bounded and milder on confident errors",
                 "brier_binary": "a second proper scoring rule, bounded and milder on confident errors"},
    "brier": {"log_loss": "a second proper scoring rule, unbounded and harsh on confident errors"},
    "brier_binary": {"log_loss": "a second proper scoring rule, unbounded and harsh on confident errors"},
}

#: Which formula an ambiguous name stands for, after the name in the Definitions ("**Macro F1 (mean of per-class
#: F1)**, not the F1 of macro precision and recall"): the name already says what the paragraph's note says.
DEFINITION_VARIANT: dict[str, str] = {
    "macro_f1": "not the F1 of macro precision and recall",
}

#: What a metric with an ambiguous name adds, said with the formula it stands for, beside the lead (its
#: variant note is then not repeated).
VARIANT_BESIDE: dict[str, str] = {
    "macro_f1": "the mean of the per-class F1 scores, not the F1 of macro precision and recall",
}

#: The works a note on the planned metrics cites, by the words that cite them: they become citations in the text.
NOTE_SOURCES: dict[str, str] = {"(Amigó et al. 2009)": "amigo2009comparison"}

#: Where the adjusted Rand index and adjusted mutual information of a partition comparison come from: the mutual
#: information's normalisation after Vinh et al., who list the variants, and scikit-learn, whose default it is.
PARTITION_CITE: dict[str, tuple[tuple[str, str], ...]] = {
    "adjusted_rand_index": (("Hubert", "1985"),),
    "adjusted_mutual_info": (("Vinh", "2010"), ("Pedregosa", "2011")),
    "normalized_mutual_info": (("Vinh", "2010"), ("Pedregosa", "2011")),
}

#: The work that argues for a lead metric's purpose (author substring, year), when it is not the
#: metric's own first reference.
LEAD_CITE: dict[str, tuple[str, str]] = {
    "log_loss": ("Gneiting", "2007"),
    "brier": ("Gneiting", "2007"),
    "normalized_expected_cost": ("Ferrer", "2022"),
    "expected_cost": ("Ferrer", "2022"),
    "average_precision": ("Saito", "2015"),
    "krippendorff_alpha": ("Krippendorff", "2011"),
    "krippendorff_alpha_ordinal": ("Krippendorff", "2011"),
    "top_k_accuracy": ("Russakovsky", "2015"),
    "ranked_probability_score": ("Epstein", "1969"),
    "tpr_at_fpr": ("Jesus", "2022"),
    "selective_risk": ("Geifman", "2017"),
    "coverage_at_risk": ("Geifman", "2017"),
    "coverage_guaranteed_risk": ("Geifman", "2017"),
    "risk_at_frozen_coverage": ("Geifman", "2017"),
    "hierarchical_f1": ("Kiritchenko", "2006"),
}

#: Sentence patterns.
S: dict[str, str] = {
    # the classes the author names as costly (answers focus_classes), one sentence after the lead
    "focus_because": "Because {names} {matter} most",
    "focus_figures": ", we give the {figures} of each",
    "focus_figures_one": ", we give its {figures}",
    "focus_label_aucs": ", we give {their} {aucs} first in the per-label table",
    # the class's own items, answered and then answered wrong (the s37 dermatology reader: "its recall among the
    # lesions answered … and the number answered as another class" read as if of every lesion answered)
    "focus_selective": (", we give {its} recall among its {items} answered at {coverage} coverage, how many of those "
                        "are answered as another class, and for every class the share answered"),
    # the by-class figures at the cut frozen on the calibration half, on the test half (the dermatology reader)
    "focus_selective_frozen": (", we give {its} recall among its {items} answered at that cut, how many of those "
                               "are answered as another class, and for every class the share answered"),
    "focus_area": ", and, since {names} {matter} most here, {cells}",
    "task_binary": "We evaluate a classifier that detects class “{pos}”",
    "task_binary_plain": "We evaluate the agreement of two binary labelings",
    "task_binary_classifier": "We evaluate a binary classifier",
    "task_binary_classifier_many": "We compare {n} binary classifiers",
    "task_multi": "We evaluate a {k}-class classifier",
    "task_multi_plain": "We evaluate a multi-class classifier",
    "task_agree": "We evaluate the agreement of two labelings with {k} classes",
    "task_ordinal": "We evaluate a classifier of {k} ordered classes",
    "task_multilabel": "We evaluate a classifier that gives each item any number of {k} labels",
    "task_top_k": "We evaluate a classifier of {k} classes{data}",  # the lead's reason says the cut-off
    "task_binary_many": "We compare {n} classifiers that detect class “{pos}”",
    "task_multi_many": "We compare {n} {k}-class classifiers",
    "task_multi_plain_many": "We compare {n} multi-class classifiers",
    "task_ordinal_many": "We compare {n} classifiers of {k} ordered classes",
    "task_multilabel_many": "We compare {n} classifiers that give each item any number of {k} labels",
    "task_top_k_many": "We compare {n} classifiers of {k} classes{data}",
    "task_annotators": "We measure how well {m} annotators agree when they sort {items} into {k} classes",
    "task_partition_context": "The cluster ids of either partition are arbitrary names, so only which {unit} share a cluster counts",
    "task_partition": ("We compare a clustering of {items} with a reference partition of them; the cluster ids of "
                       "either are arbitrary names, so only which {unit} share a cluster counts"),
    "task_partition_many": ("We compare {n} clusterings of {items} with a reference partition of them; the cluster ids "
                            "are arbitrary names, so only which {unit} share a cluster counts"),
    # the s30 text-clustering methodologist: "report the number of clusters each system produced beside every index:
    # purity and NMI cannot be read without it" (Table 1 has them, and the reference's once)
    "partition_cluster_counts": "Beside every index we give each clustering's number of clusters{reference}",
    "partition_reference_clusters": "; the reference has {k}",
    "task_annotators_plain": "We measure how well {m} annotators agree",
    "task_judge": "We compare a judge with {humans} on {items} in {k} categories",
    "task_judge_plain": "We compare a judge with {humans}",
    # the cut-off is r, defined with the formula; k stays the number of classes (issue 22: k meant both, and K
    # beside k still read as one letter)
    "notation_top_k": ("$g_t$ counts the classes scored above item $t$'s true class, $e_t$ those tied with it, itself "
                       "included"),
    "notation_n_k": "$n$ and $k$ count items and classes",
    "notation_n": "$n$ counts the {items}",
    "notation_k": "$k$ counts the classes",
    # the span types the answers name, nothing guessed ("such as named entities") and not the tool's own framing
    # ("rather than the classification of items"): the spans reader
    "spans_what": "We evaluate the extraction of spans{types}. ",
    "spans_types": " of the types {names}",
    "spans": ("We report precision, recall and F1 over whole spans; a span counts as found only when its "
              "boundaries and type both match. They are micro-averaged over entities and also given per entity type, "
              "and the background tag is never scored"),
    "spans_tool": "They are computed with the $seqeval$ package in its default, $conlleval$-compatible mode",
    "ranking_what": "We evaluate a system that ranks documents for each query rather than one that classifies items. ",
    # "graded" only when the answers give more than two relevance grades; the cut-off said open when not given (a
    # reader of the field: "@k" with no k, and graded relevance where the answers give two classes)
    "ranking": ("We report nDCG@k{graded}, the reciprocal rank of the first relevant document and recall@k, each "
                "computed per query and averaged over queries, with the cut-off k fixed before any run is scored"),
    "ranking_graded": " for graded relevance",
    "ranking_tool": "They are computed with $pytrec_eval$ or $ranx$ from the relevance judgements and the run. ",
    "external_intervals": ("Intervals are {conf} {method} intervals from {n} bootstrap resamples of the {unit}, each "
                           "resample scored again in the same way"),
    "task_annotators_data": "; no annotator is taken as the reference",
    "undefined_annotators": ("A coefficient whose chance disagreement is 0, as when every rating falls in one class, "
                             "is {value}"),
    "task_data": " on {n} test items",
    "in_which": ", where ",
    "pos_share": "; “{pos}” makes up {share} of the cases in use",
    "and_which": ", and ",
    "lead": "We lead with {name}",
    # the field's own name for the lead, with the field's source, in the lead sentence; our name after it (the
    # sentiment and speech-emotion readers: "in this field it is AvgRec … name it AvgRec in the lead sentence")
    "lead_field_term": "We lead with {term}, {the} customary figure in {field}",
    "lead_field_term_is": "It is {name}",
    # the field's other figures after a lead said in the field's words: the field and its source are said already,
    # and its name is not said twice (a repeated 8-word run)
    "field_lead_named_also": "Beside it the field reports {names}",
    # chance correction said with its value where it is exact: with both class-size vectors fixed, a classifier
    # whose calls are independent of the true class has E[C_ij] = a_i b_j / n, so the numerator of MCC and kappa,
    # n·ΣC_ii − Σa_i b_i, has expectation 0 over a denominator that is fixed (the CoLA reader)
    # the shares in use given as equal (target_prevalence): balanced accuracy is then the accuracy to expect in use,
    # the mean recall being the accuracy of the test set's matrix with every true class rescaled to one share (Opitz
    # 2024, prevalence calibration; the digits reader: "the decisive reason for the lead is missing")
    "lead_uniform": "is the accuracy to expect where every class is equally common, as in use",
    # exact at any size: given both class-size vectors the numerator's expectation is 0 (above), so the expectation is
    # 0 over any draw of them too — Gösgens et al.'s constant baseline (the s45 and s47 CoLA readers: "on a large
    # test set" understates it; the s37 reader's "only approximate" holds for Opitz's population value, not this)
    "chance_zero": ("has expected value 0 for every classifier whose predictions are independent of the true class, "
                    "whatever the class sizes"),
    "chance_zero_defined": ", where it is defined",
    # a class whose prediction takes no action (fallback_class): the errors split by what they cost
    "lead_no_action": "A prediction of “{f}” takes no action, so we lead with the {name}",
    "lead_no_action_what": ", the share of {items} on which an action is taken and is wrong",
    "fallback_beside": "Beside it we give the {name}",
    # "the other {items}", as m's sentence names them (the s30 intent reader: "of other classes" read as generated)
    "fallback_beside_what": ", the share of the other {items} taken as “{f}”",
    "fallback_defined": "The fallback rate is the share of the {items} not “{f}” that are taken as “{f}”",
    "fallback_not_merged": "With no cost ratio between them fixed, the two errors are reported apart",
    # the risks at which users act are given (decision_thresholds): the net benefit there leads (the sepsis reader)
    "lead_net_benefit": ("Because the risks of “{pos}” are acted on at {at}, we lead with the net benefit at {each}, "
                         "against treating every {item} and treating none"),
    "net_benefit_proper": "{names}{why} {verb} given as overall scores",
    "net_benefit_proper_why": ", which also weigh the accuracy of risks at which no one acts,",
    "net_benefit_proper_why_one": ", which also weighs the accuracy of risks at which no one acts,",
    # the lead depends on the test set's class shares, which were not said to be those met in use (the intent reader)
    "lead_test_shares": "Its value depends on the class shares of this test set",
    "beside_shares": "{names} {verb} on this test set's class shares",
    "beside_shares_too": "{names} {verb} on those shares too",
    "shares_differ": ", which differ from those met in use",
    "shares_unknown": ", which need not be those met in use",
    "accuracy_shares_too": "whose value depends on those shares too",
    # what accuracy is, when its dependence on the shares is said with the other figures' (one sentence for all)
    "accuracy_plain": "the share of {items} classified correctly",
    "fallback_shares": "It depends on the share π of “{f}” {items} in this test set",
    # m named before its formula (the s22 intent reader: "the misrouting among the others" was hard to parse)
    "fallback_parts": ("With m the share of the other {items} that trigger a wrong action, 1 − {acc} − {rate}, it "
                       "is (1 − π)·m + π·(1 − {recall}), so it can be recomputed at any share"),
    "lead_risks": "Because the predicted probabilities are used as risks, ",
    "lead_risks_of": "Because the predicted probabilities are used as risks of “{pos}”, ",
    # a planned name the catalogue reads as a reported metric under another name (micro F1 → accuracy)
    "planned_as": "The planned {planned} equals {name} here, so it is reported under that name",
    "planned_as_beside": "also called {planned}",
    # Fβ beside a cost lead when the author said true negatives count: its blind spot said as the author's concern
    "f_beta_tn": ("which weighs a missed positive β² times a false alarm in its denominator but is no mean cost of "
                  "the errors and leaves out the true negatives, which count here"),
    # a judge (an LLM, a model) against human raters (issue 22): the comparison opens the argument, alpha summarises
    "judge_compare": ("We set the judge's agreement with each human rater beside the human raters' agreement with "
                      "each other"),
    # the rater's column name is no word of the paper (the LLM-judge reader: "a column-name artifact"): the table
    # gives it
    "judge_compare_one": "The {judge} is compared with the human rater on the {items} both rated",
    "judge_figures_one": ("We give their agreement rate, the share of those {items} put in the same category, and "
                          "Cohen's kappa, which corrects it for chance"),
    "judge_figures": ("For each pair we give the agreement rate, the share of the {items} both rated put in the same "
                      "category, and Cohen's kappa, which corrects it for chance"),
    # Zheng et al. (2023) give agreement with and without ties (their FastChat compute_agreement.py): "pair" said of
    # the raters, never bare beside the author's items ("answer pairs"), and "without ties" defined as the engine
    # computes it, among the items neither rater of the pair called a tie (advisor/engine/_judge.py; the LLM-judge
    # reader: "'without ties' is never defined")
    "judge_figures_ties": ("For each pair of raters we give the agreement rate, the share of the {items} both rated "
                           "put in the same category, and Cohen's kappa, which corrects it for chance"),
    "judge_no_tie": "The agreement without ties counts only the {items} neither rater called “{tie}”",
    "judge_weighted": "; for the ordered categories also the quadratically weighted kappa",
    "judge_weighted_answer": "We read the weighted kappa's Δ first: it counts a disagreement two categories apart more",
    # Δ is taken on the items every rater rated, so its two sides compare the same items (the LLM-judge reader: the
    # pairs' own items differ; advisor/engine/_judge.py)
    "judge_delta": ("The difference Δ, the judge's mean with the humans minus {humans}, is taken on the {items} all "
                    "{m} rated; its interval resamples the {items}, both sides of Δ on the same resample"),
    "judge_delta_plain": "The difference Δ, taken on the {items} all {m} rated, is the judge's mean with the humans minus {humans}",
    # the lead named in Δ's own sentence (the LLM-judge reader: "the question makes Δ on Cohen's kappa the lead; say so
    # in one sentence")
    "judge_delta_lead": ("The lead figure is Δ of Cohen's kappa, the judge's mean with the humans minus {humans}; "
                         "both sides are taken on the {items} all {m} rated, on the same resamples"),
    "judge_delta_lead_plain": ("The lead figure is Δ of Cohen's kappa, taken on the {items} all {m} rated: the judge's "
                               "mean with the humans minus {humans}"),
    "judge_humans_mean": "the humans' mean with each other",
    "judge_humans_two": "the two humans' agreement with each other",
    "judge_one_human": ("With one human rater there is no agreement among humans to set the judge beside, so no "
                        "difference is given"),
    "judge_summary": "{name}, which {purpose}, summarises all {m} raters",
    "judge_summary_two": "{name}, which {purpose}, summarises both raters",
    # with a judge and two or more humans, alpha is the humans' baseline, computed without the judge
    "judge_summary_humans": "{name}, which corrects for chance and allows missing ratings, summarises the {humans} alone, without the {judge}",
    # two humans: an item one of them left unrated has no pair, so alpha leaves it out as their kappa does; its
    # allowance for missing ratings is not argued where it gives nothing (the LLM-judge and grading readers)
    "judge_summary_two_humans": "{name}, which corrects for chance, summarises the {humans} alone, without the {judge}",
    "lead_because": ", which ",
    # a selective lead: the per-class table's recall is of every item, beside the recall among the answered ones
    "per_class_all_answered": "the recall of every class with all {items} answered",
    "lead_cost_test_shares": "weighs each kind of error by its stated cost, at this test set's class shares",
    "lead_cost_same_shares": ("weighs each kind of error by its stated cost, at this test set's class shares, which "
                              "are those met in use"),
    # a binary expected cost at the test shares is a sum the reader can redo; a correct decision costs nothing, so
    # true negatives need no meaning of their own (the sarcasm reader)
    # (no "/n": n is defined only where a formula uses it; a reviewer found it undefined here)
    "lead_cost_mean": "is the mean cost per {item}, {fn}FN + {fp}FP divided by the number of {items}, {shares}",
    "avoid_macro_f1_both": "macro F1 in either of its two forms",
    "lead_mean_two": "is the mean of {recall} and {specificity}, so it does not depend on how common “{pos}” is among the {items}",
    "lead_fallback": ", which has the properties this setting asks for",
    "beta": " with β = {beta}",
    "weights": "The class weights are {weights}",
    "weights_many": "The weights of the {k} classes are given with its formula",
    "of_interest": "which show how this class of special interest fares against all others",
    "beside": "We also report ",
    "beside_more": "We add ",
    "beside_after_field": "Beside these we report ",
    "adds_fallback": "as planned",
    "accuracy_majority": "on which always predicting the largest class scores {majority} here",
    # systems ranked on one test set, the field's figure leading (the RumourEval reader): why it leads, and the
    # lead the properties would choose beside it with what it keeps
    "lead_ranked_field": "We rank the systems by {name}, customary in {field}",
    "ranked_same_shares": ". All are scored on the same {items}; under other class shares the ranking may change",
    "ranked_beside": "Beside it we report {name}, which {keeps}",
    "ranked_chance": "; its chance level is {level} for any guesser that ignores the input",
    # beside the recall of the deployed threshold (a threshold in use and a budget): TPR at the budget said as such
    "best_within_budget": ("the recall of the best threshold within the budget; chosen on the test set, that "
                           "threshold makes it optimistic for one fixed in advance"),
    "best_within_budget_beside": "We also report {name}",
    "field_lead": "It is also the customary figure in {field}{named}",
    "field_lead_with": "The customary figures in {field}",
    "field_lead_with_are": " are {names}",
    "field_named": ", where it is called {term}",
    "field_named_each": "There they are called {terms}",
    "field_named_one": "There {named}",
    "field_unreported": ("{field} also report {term}, the mean F1 of the {named} classes. We do not report it, "
                         "because {why}"),
    "field_classes_unnamed": "the classes are not named here",
    "field_classes_missing": "none of the classes {classes} is named {named}",
    "field_beside": "As is customary in {field}, we also report {names}",
    # a field figure read at another setting than the field's (fields.yaml settings; plural field names, as the one
    # row with settings has): the figure is theirs, the number is not comparable with theirs
    "field_beside_setting": "We also report {names}, the figure {field} report {setting}",
    "field_lead_setting": "It is the figure {field} report {setting}",
    "field_label_aucs": ("For {each} we report ROC AUC from the {items}' scores for that label, and their mean, the "
                         "macro-averaged ROC AUC, as is customary in {field}"),
    "label_threshold": "A label is given to {an} {item} when its score is at least {t:g}, which the F1s count",
    # the lead is the ranking of the scores (a worklist): the per-label ROC AUCs and their mean, in one sentence
    # every class at one depth of the taxonomy (answers key leaf_depth): hP = hR = hF = the mean per-level accuracy
    "leaf_depth": ("Every {item} is labelled with a class at depth {d} of the taxonomy, so hierarchical precision, "
                   "recall and F1 are one number: the mean of the accuracies at its {d} levels"),
    # a planned flat macro F1 beside a hierarchical lead (the taxonomy reader): how it weighs, against accuracy
    "macro_f1_tree": ("the mean of the per-class F1 scores, so each of the {k}classes counts the same, where accuracy "
                      "counts each {item}"),
    "lead_label_aucs": ("We lead with the macro-averaged ROC AUC, which averages the ROC AUCs of {each} from the "
                        "{items}' scores. The per-label ROC AUCs are reported beside it"),
    "lead_label_aucs_field": ", as is customary in {field}",
    "lead_label_aucs_why": ". The scores order the {items}, and ROC AUC reads that order itself, free of any threshold",
    # no threshold was answered: the cut that turns scores into label decisions is a convention, said as one
    "label_threshold_convention": ("A label is given to {an} {item} when its score is at least {t:g}, a conventional "
                                   "cut not chosen for this study, which the F1s count"),
    # no answer fixes the cut (the CheXpert reader): no figure at a cut is a result; a planned one is an illustration
    "label_cut_open": "No operating point is fixed, so no figure taken at a cut of the scores is a result of this study",
    "label_cut_open_none": "No operating point is fixed, so we report no figure taken at a cut of the scores",
    "label_cut_open_planned": ". The planned {names} {verb} given for illustration only, {how}",
    "label_cut_open_cut": "at a score of {t:g}, a conventional cut not chosen for this study",
    "label_cut_open_given": "from the label decisions the predictions hold",
    "field_reading": ", which {reading}, as is customary in {field}",
    "field_custom": ", as is customary in {field}",
    "field_custom_pair": "; the first two are customary in {field}",
    "field_first": "As is customary in {field}, we report {names}",
    "lead_mean_of_pair": "We lead with their mean, {name}, one figure that weighs both equally",
    "lead_mean_no_costs": ", as no ratio of the two errors' costs was fixed in advance",
    "lead_mean_equal_costs": ", as the two errors were said to cost alike",
    # one error named as the costlier, with no ratio (answers key costlier_error): its rate leads, the other's beside
    "lead_costlier_missed": "Because a missed “{pos}” is the costlier error, we lead with {name}, the share of the {items} with “{pos}” that are found",
    # risks used as risks beside a decision's error rate as the lead (the loan reader): calibration reads them
    "risk_calibration": "{names} read the predicted probabilities as risks",
    "risk_calibration_short": "{names} read the probabilities as risks",  # the last shortening (the loan paragraph)
    "lead_costlier_alarm": "Because a false alarm is the costlier error, we lead with {name}, {what}",
    "lead_costlier_alarm_tn": "the share of “{neg}” {items} the system calls “{neg}”",
    "lead_costlier_alarm_precision": "the share of “{pos}” calls that are right",
    "lead_costlier_other": ("As no ratio of the two errors' costs was fixed, no single figure can weigh them; {other} "
                            "stands beside the lead, not merged with it, as {name} alone is perfect for a system "
                            "that {trivial}"),
    # the reason the companion stands beside the lead, kept when the paragraph must shorten (the s38 credit reader read
    # the lead without it as "maximised by approving everyone"; the s36 reader had called it a tutorial aside)
    "lead_costlier_other_terse": "{other} stands beside it, as {name} alone is perfect for a system that {trivial}",
    # the costlier error named while another lead holds (risks used as such, a budget): its rate, read out
    "costlier_read_missed": ("The costlier error, a missed “{pos}”, is read from {name}: one minus it is the share of the "
                             "“{pos}” {items} the system misses; {other} stands beside it"),
    "costlier_read_alarm": ("The costlier error, a false alarm, is read from {name}: one minus it is the share of the "
                            "{items} not “{pos}” that the system calls “{pos}”; {other} stands beside it"),
    # ordered classes where one step off is tolerable (answers key tolerated_steps: 1)
    # the reason is the author's premise, cited to no one; the metric's source (the field's convention) is cited
    # at its name when no field sentence follows to cite it (issue 22, the essay reader)
    "lead_tolerated": "We lead with {name}, the share of {items} predicted within one step of the true class",
    "mae_macro_beside_tolerated": "since adjacent agreement counts an error of two steps like one of five",
    "lead_tolerated_why": ", because one step off is tolerable here and a larger error is not",
    "costlier_read_missed_terse": "{name} reads the costlier error, a missed “{pos}”; {other} stands beside it",
    "costlier_read_alarm_terse": "{name} reads the costlier error, a false alarm; {other} stands beside it",
    "trivial_all": "calls every {item} “{pos}”",
    "trivial_none": "never calls {an} {item} “{pos}”",
    "trivial_one": "calls a single sure {item} “{pos}”",
    "lead_mean_of_pair_prevalence": "; it does not depend on how common “{pos}” is among the {items}",
    "shares_not_given": ", and the class shares where the classifier will be used were not given",
    "field_form": ". {name} is also quoted there as {form}",
    "field_form_apart": "In {field}, {name} is also quoted as {form}",
    "field_why": ". We do not lead with {it}, because {they} {reason}",
    "field_why_each": ". We do not lead with them: {parts}",
    "item_data": " on {n} {items}",
    # with data, the smallest and the largest class of the test set, counted (the digits reader: "state the per-class
    # test counts"); every class's count is the Support column of the per-class table
    "class_counts": ", {lo} to {hi} per class",
    "which": ", ",
    # not "We do not lead with": the metric is not reported beside the lead either (issue 22: read as a disguised drop)
    "avoid": "We do not rely on ",
    "avoid_more": "Nor do we lead with ",
    # a metric set aside that the report does not compute (the s34 reader: "'We do not rely on' dangles")
    "avoid_unreported": "We do not report ",
    "avoid_more_unreported": "Nor do we report ",
    "avoid_because": ", because {they} ",
    # said beside the planned metrics, after the paragraph (the s40 and s41 derm readers: in the paragraph it "restates
    # the lead and can go")
    "accuracy_from_selective": ("The planned “{planned}” is given by the lead: among the {items} answered it is one "
                                "minus the selective risk."),
    "definitions": "Below, ",
    "notation_matrix": ("$C$ is the confusion matrix with true classes as rows, $a_i$ and $b_j$ are the sizes of "
                        "true class $i$ and predicted class $j$"),
    "notation_matrix_a": "$C$ is the confusion matrix with true classes as rows, $a_i$ is the size of true class $i$",
    "notation_matrix_c": "$C$ is the confusion matrix with true classes as rows",
    # two labelings, neither the reference (symmetric: true): no "true" class (a reviewer of agreement studies: the
    # notation stated a premise the answers did not give)
    "notation_matrix_symmetric": ("$C$ is the table crossing the two labelings, the first in rows; $a_i$ and $b_j$ are the sizes of "
                                  "class $i$ in the first and class $j$ in the second"),
    "notation_matrix_a_symmetric": ("$C$ is the table crossing the two labelings, the first in rows; $a_i$ is the "
                                    "size of its class $i$"),
    "notation_matrix_c_symmetric": "$C$ is the table crossing the two labelings, the first in rows",
    "notation_probs": "$p_{tj}$ is item $t$'s probability for class $j$, $y_t$ its true class",
    "notation_probs_n_k": ", and {size}",
    # a two-class task: y_t is 1 or 0 and p_t the positive class's probability in every formula (issue 22: y_t was
    # a class in one formula and 0/1 in the next, and p_t, p_tj and s_t named one number)
    "notation_outcome": "$y_t$ is 1 when item $t$ is {pos} and 0 otherwise",
    "notation_binary_probs": ", $p_t$ is its predicted probability of being {pos}",
    "notation_pos": "“{pos}”",
    "notation_pos_plain": "positive",
    "partition_adjusted_rand_index": "the adjusted Rand index holds the cluster sizes fixed in its chance correction",
    "partition_adjusted_mutual_info": ("adjusted mutual information divides by the arithmetic mean of the two "
                                       "entropies, scikit-learn's default"),
    "partition_normalized_mutual_info": ("normalized mutual information divides by the arithmetic mean of the two "
                                         "entropies, scikit-learn's default"),
    # both reported (NMI planned): one normalisation, said once for the two, just named beside the lead
    # a planned metric's caveat the paragraph had no room for, said in the note on the planned metrics
    "caveat_note": "The planned “{planned}” is reported as {name}, {caveat}.",
    # a planned purity's pair, when the paragraph had no room for why the two go together
    "purity_pair_note": "The planned “{planned}” is reported as purity with inverse purity, {why} (Amigó et al. 2009).",
    # after a planned purity set aside (the s28 clustering reader: "text-clustering papers report purity with
    # inverse purity, or the clustering F-measure; report that pair or say why not comparable")
    "purity_pair": ("Text-clustering studies pair it with inverse purity, which rewards merging instead, or combine "
                    "the two in an F-measure (Amigó et al. 2009); each index we report weighs splits and merges in "
                    "one figure."),
    "partition_mutual_info_both": ("both mutual information indices divide by the arithmetic mean of the two entropies, "
                                   "scikit-learn's default"),
    "notation_partition": ("$C$ is the contingency table of the two partitions, the reference's clusters as rows and "
                           "the clustering's as columns, $a_i$ and $b_j$ are the sizes of reference cluster $i$ and "
                           "cluster $j$, and $n$ counts items"),
    "notation_binary": "$TP$, $FP$, $FN$ and $TN$ count true and false positives and negatives",
    "notation_binary_pos": " of class “{pos}”",
    "notation_binary_each": " of the class each formula names",
    "undefined_zero": "A zero denominator{example} gives 0",
    # the convention of the author's field, its scorer's (fields.yaml undefined): said as the field's, the figure that
    # meets it named after it (the CoLA reader: "report 0, and say so, to stay comparable" with GLUE)
    "undefined_zero_field": "A zero denominator {gives} 0, as in {scorer}",
    "undefined_zero_field_whole": ": {name} is 0 {case}",
    "undefined_zero_field_term": ", for instance in {example}",
    "undefined_field_too": ", as in {scorer}",
    "undefined_example": ", as in {example},",
    "undefined_baseline": ("A ratio $C_{ii}/a_i$ with $a_i = 0$ takes $b_i/n$ and a ratio $C_{ii}/b_i$ with "
                           "$b_i = 0$ takes $a_i/n$, their expected values; a class absent from both labelings "
                           "takes 1, maximal agreement"),
    # issue 22, readers of 14 fields: a class absent from the test set or a resample is not a failure; an undefined
    # figure is reported as undefined
    "undefined_omit": "A {unit} whose score has a zero denominator{example} is left out of the mean, also in a resample",
    "undefined_omit_named": "{metric} leaves out of its mean {case}{also}",
    # the mean's 1/k (1/L) then counts the classes kept (the readers: "1/k contradicts the exclusion rule")
    "undefined_omit_counts": "{metric}'s ${symbol}$ counts only {kept}{also}",
    "also_resample": ", also in a resample",
    "also_one_out": ", also with one {one} left out",
    "undefined_omit_counts_bullet": "Here ${symbol}$ counts only {kept}, in the test set and in each resample",
    # resamples that keep every class (advisor/stats/_draws.py): only the test set can lack one
    "undefined_omit_counts_test": "Here ${symbol}$ counts only {kept} in the test set",
    # resampled units, whose jackknife leaves one unit out at a time (the speech-emotion reader: "with speaker
    # resampling all four classes are practically always present, so the clause is dead"): said only where it can be
    "undefined_omit_counts_one_out": "Here ${symbol}$ counts only {kept}, in the test set and with one {one} left out",
    "classes_one_group": "; one {one} alone holds {which}",
    "unit_within_class": "{items} drawn within each true class",
    # groups drawn whole cannot keep the classes: how often a resample lacked one (the shared-task reader)
    "classes_absent": "; {which} {verb} absent from {counts} of the {n} resamples",
    # resamples drawn again because they lacked a class, with data (the shared-task reader: "state how often")
    # said once, after the first mean's formula, where its k is read
    "classes_redrawn": "Every resample holds every class: the {count} that lacked {which} {verb} drawn again",
    # the class set fixed in advance, as a number (the blind readers of ten fields: "fix the class set in advance,
    # k = 4, L = 5, k = 30"): said where the resamples keep every class, so the number holds in each of them
    "classes_fixed": "Here ${symbol} = {count}$",
    # with data, a class of the answers absent from the test set: the number is that of the classes present
    "classes_fixed_present": "Here ${symbol} = {count}$, {kept}",
    "classes_fixed_one_group": ("Here ${symbol} = {count}$; one {one} alone holds {which}, which drops from the mean "
                                "when that {one} is left out"),
    "undefined_omit_scalar": ("A figure with a zero denominator{example} is reported as undefined, and the resamples "
                              "in which it is undefined are left out of its interval"),
    # the jackknife's intervals (the s35 sarcasm reader: "there are no resamples in a jackknife"): a leave-one-out value
    # that is undefined cannot be dropped from its variance, so the figure then has none (advisor/stats/_jackknife.py)
    "undefined_omit_scalar_jackknife": ("A figure with a zero denominator{example} is reported as undefined, and "
                                        "has no interval if leaving out one {one} makes it undefined"),
    # every figure with an exact interval: only the bootstrap of the differences resamples (the diagnostic reader)
    "undefined_omit_scalar_differences": ("A figure with a zero denominator{example} is reported as undefined; the "
                                          "bootstrap of the differences leaves out the resamples in which it is "
                                          "undefined"),
    "undefined_omit_exact": "A figure with a zero denominator{example} is reported as undefined",
    "undefined_count": "; {count} value{s} {were} undefined here",
    "undefined_none": "; none occurred",
    # sample-averaged F1 scores an item with both label sets empty as 1 under every convention (issue 22: "gives 0"
    # read as covering it)
    "undefined_empty_items": ("; in sample-averaged F1, an item with no true and no predicted label counts 1, as it is "
                              "predicted exactly"),
    "undefined_empty_items_alone": ("In sample-averaged F1, an item with no true and no predicted label counts 1, as "
                                    "it is predicted exactly"),
    "undefined_and_clip_none": " and log loss would clip a probability of 0; neither occurred",
    "undefined_zero_none": "A zero denominator{example} would give 0",
    "chance": "Guessing uniformly at random scores {uniform} {name} here, always predicting the largest class {majority}.",
    "chance_same": "Guessing uniformly at random or always predicting the largest class scores {uniform} {name} here.",
    "log_loss_clip": ("Log loss clips each probability to $[\\varepsilon, 1 - \\varepsilon]$, "
                      "$\\varepsilon = {mant} \\times 10^{{{exp}}}$"),
    "log_loss_zero": "; items whose true class got probability 0: {counts}",
    "log_loss_zero_none": "No true class got probability 0, so log loss needed no clipping",
    "log_loss_count": "{system} {count}",
    # issue 20: the method per metric, the unit resampled, the seed always, the paired test named
    "intervals": "Intervals are {conf} {method} intervals from {n} {paired}bootstrap resamples of the {unit}",
    # the reason for the second method, said with it (s26 readers: "one bootstrap for all figures would avoid the
    # unexplained mix"): a binomial proportion has an exact interval
    "intervals_exact_too": "; {names}, {kind}, {take}",
    "intervals_exact_brief": "; Clopper–Pearson for {names}",
    "binomial_one": "a binomial proportion",
    "binomial_many": "binomial proportions",
    "exact_take_one": "takes an exact Clopper–Pearson interval",
    "exact_take_many": "take exact Clopper–Pearson intervals",
    "intervals_exact_many": "; the binomial proportions take exact Clopper–Pearson intervals",
    # more than five exact: the few resampled named instead (the intent reader: "which figures are the binomial
    # proportions?")
    "intervals_exact_but": "; all but {names} take exact Clopper–Pearson intervals",
    # most figures proportions, a few resampled: the exact interval said first, the exceptions after it (s45 intent)
    "intervals_exact_first": ("Intervals ({conf}) are exact Clopper–Pearson ones except for {names}, {them} {method} "
                              "intervals from {n} {paired}bootstrap resamples of the {unit}"),
    "them_one": "which takes",
    "them_many": "which take",
    "units_named": "{count} {units}, not of single {items}",
    "groups_unit": "{groups} groups of {items} that share a value of “{column}”, not of single {items}",
    # resampled units (readers of a ten-speaker and a 22-record study: "BCa from 10 clusters does not have nominal
    # coverage … use a t-interval"): the delete-one-unit jackknife with t on G − 1 degrees of freedom, which
    # benchmarks/bench_few_groups_methods.py measured at 0.91–0.96 where BCa covered 0.80–0.93 with 5–22 groups
    "intervals_jackknife": "Intervals are {conf} jackknife t intervals{df} that leave out {leave} at a time",
    "jackknife_one": "one {one}",
    "jackknife_one_of": "one of the {count} {units}",
    "jackknife_df": " with {df} degrees of freedom",
    "jackknife_leave_sets": "one of {sets} random sets of {units}",
    # few units: the measured coverage of that interval was 0.91–0.95 below 40 groups, so it is said to be approximate
    "few_groups": "With only {count} {units}, these intervals are approximate",
    # BCa over few units (figures of scores or ordered classes, or asked for): bench_few_groups.py measured it narrow
    "few_groups_bca": ("With only {count} {units}, intervals from resampled {units} tend to be too narrow and are "
                       "approximate"),
    # cross-validation folds (the speech-emotion reader: "how UAR is pooled is not said … the numbers differ")
    "folds_pooled": "Each figure is computed once on the {items} of all {folds} pooled, not averaged over them",
    "folds_before": "; the mean and standard deviation of {lead} over the {folds}, each computed alone, are given beside it",
    "folds_mean": "; averaged over the {count} {folds} instead, {lead} is {values} (mean ± SD)",
    "intervals_exact_only": "Intervals are exact {conf} Clopper–Pearson intervals",
    "intervals_exact_pairs": ", paired differences come from {n} bootstrap resamples of the {unit}",
    "intervals_exact_systems": "; any difference between systems comes from {n} paired bootstrap resamples of the {unit}",
    # before data with the number of systems unknown (no ranking answered): a condition, not a premise (the
    # diagnostic reader: "assumes more than one index test; the answers give a single software read")
    "intervals_exact_systems_if": ("; should several systems be compared, any difference between them comes from {n} "
                                   "paired bootstrap resamples of the {unit}"),
    # a paired proportion (sensitivity, specificity, accuracy): blind readers of a diagnostic accuracy study, "paired
    # sensitivities and specificities are customarily compared with McNemar's test and a Newcombe interval"
    # on whom (the s27 diagnostic reader: "among culture-positive, resp. culture-negative participants")
    "paired_proportions": ("Differences between systems in {names} are compared with McNemar's exact test and "
                           "Newcombe's interval for paired proportions{among}"),
    "paired_proportions_interval": ("Differences between systems in {names} take Newcombe's interval for paired "
                                    "proportions{among}"),
    # after the winners, the lead not a paired proportion: the lead's interval first, the proportions' after it
    "paired_differences_after": ("Differences between systems take paired bootstrap intervals, in {names} Newcombe's "
                                 "interval for paired proportions{among}"),
    "paired_proportions_if": ("Should several systems be compared, differences in {names} take McNemar's exact test "
                              "and Newcombe's interval for paired proportions{among}"),
    # said only when a named proportion counts some of the items (sensitivity: the positives); accuracy counts all,
    # and the s28 digits reader read the clause there as "template carry-over … means nothing for accuracy"
    "paired_among": ", each among the {items} its denominator counts",
    # after the winners, when the lead is resampled and only a secondary figure is a paired proportion (the same
    # reader: "the formal comparison goes to a secondary metric"): the winners' sentence has named McNemar's test
    "paired_rest_systems": ". Any other difference comes from {n} paired bootstrap resamples of the {unit}",
    "paired_rest_pairs": ". Other paired differences come from {n} bootstrap resamples of the {unit}",
    # with data, where scores tied with the true class at a share's cut-off (a blind reader: fractional tie credit has
    # no exact binomial interval); before data nothing is said, since no answer says the scores can tie (the ImageNet
    # reader: "ties among float softmax scores do not occur")
    "intervals_tied": ("At the cut-off of {name}, the true class of {counts} tied in score with another class; each "
                       "such {item} counts part of a hit, so {name} is no binomial proportion{method}"),
    "intervals_tied_method": " and takes {an} {method} interval",
    "seed": ", seed {seed}",
    # the partition indices' resamples (advisor/stats/_partitions.py), said so a statistician can redo them. The
    # clustering methodologist of s28: the earlier "estimate plus each resample's error, its index minus that value
    # (Efron & Tibshirani 1993)" was an opaque recentring cited as if the book covered it; "leave out the pairs formed
    # by copies of the same article". So the pair-counting indices count only pairs of two distinct articles (plain
    # BCa, benchmarks/README.md) and AMI, which counts no pairs, keeps the recentring, said as what it is, uncited
    "intervals_partition_pairs": ("Each resampled pair-counting index leaves out the pairs formed by two copies of "
                                  "one {item}, which always share a cluster"),
    # the mutual-information indices (the s30 text-clustering methodologist: "the AMI interval is an unsupported,
    # home-made procedure … do not shift intervals by hand"): neither the recentred bootstrap nor m-out-of-n
    # subsampling covered at the stated rate (benchmarks/README.md), so none is given, said in one plain sentence.
    # The reason is the one a reader can check in print, not our simulations, which a paper cannot cite (the tox
    # clustering reader: "no citation, no description"): the mutual information of a finite sample is a biased
    # estimate of its population value (Roulston 1999 derives the bias), and a resampling interval centred on the
    # estimate keeps it (the benchmark's AMI rows: its estimate about half a standard error above the population's)
    "both_mutual_information": "both mutual information indices",
    # upward (the s36/s37 readers: "bias does not stop you from building an interval"): on the small test sets of the
    # benchmark by about half a standard error, which an interval centred on the estimate keeps
    "intervals_partition_mi": "{names} {verb} no interval{s} or test{s}: a sample's mutual information is biased upward",
    "intervals_partition_mi_tail": ", and resampling around the estimate keeps the bias",
    # a planned purity with its inverse: sums of each cluster's (each reference cluster's) largest count, which a sample
    # overstates (the expected maximum of counts is at least the maximum of their expectations), and their BCa
    # intervals under-covered (benchmarks/README.md, --purity): none given, said with the mutual information's bias
    "intervals_partition_shares": "Only pair-counting indices have intervals and tests: a sample overstates mutual information",
    "intervals_partition_shares_tail": " and majority counts, and resampling keeps the bias",
    "intervals_partition_shares_only": ("{names} {verb} no intervals or tests: a sample overstates majority counts, "
                                        "and resampling around the estimate keeps the bias"),
    # what the intervals leave out (the same readers: "ignores the algorithm's seed and initialisation"): a fact of
    # our resampling, fixed assignments drawn again, not a claim about the author's algorithm
    "intervals_partition_scope": ("These intervals reflect which {items} were drawn for the test, not reruns of a "
                                  "clustering algorithm with another seed or initialisation"),
    "same_seed": ", the same for every system",
    # the training runs of each system (issue 20 item 4; blind readers of clustering, CoLA, NER, ImageNet and speech
    # emotion: "the spread across runs is usually larger than the test-sample spread"): several runs are averaged and
    # resampled with the items, as advisor compare does (advisor/stats/_runs.py); one run is said to be one run
    "runs_mean": "Every figure is the mean over each {system}'s {runs} {run_noun}",
    "runs_mean_each": "Every figure is the mean over each {system}'s {run_noun}, {counts}",
    "intervals_runs": ("Intervals are {conf} {method} intervals from {n} {paired}bootstrap resamples of each {system}'s "
                       "runs and then of the {unit}"),
    "runs_not_exact": "A mean over runs is not a binomial proportion, so {names} {take} no exact Clopper–Pearson interval",
    "runs_not_mcnemar": " and McNemar's test does not apply",
    "runs_one": ("Each {system} is evaluated in a single training run, so these conclusions hold for that run, not "
                 "for retraining with another seed"),
    "runs_one_partition": ("Each clustering is one run of its algorithm, so the conclusions hold for that run, not for "
                           "other seeds"),
    "winners": "One system is called better than the other only when the interval of their paired difference excludes 0",
    "mcnemar": "{Name} is also compared with McNemar's exact test",
    # the winners' tests: the paired bootstrap's, or McNemar's where a paired proportion's interval is Newcombe's
    "tests_bootstrap": "bootstrap tests",
    "tests_jackknife": "jackknife t tests",
    # the paired proportions' test is named in their own sentence, beside the winners' (McNemar's exact test)
    "tests_plain": "tests",
    "tests_paired": "tests (McNemar's exact test for {names}, the bootstrap's otherwise)",
    # the lead not a paired proportion: its test first (the s41 digits reader: "the differences in the lead get only an
    # unspecified 'bootstrap's' test … give the lead's first, and demote the accuracy tests")
    "tests_paired_after": "bootstrap tests (McNemar's exact test for {names})",
    "on_each_metric": "On each metric,",
    # the indices, not "each other metric": the partitions' indices but the two just said to have no test
    "on_each_other_metric": "On the other indices,",
    "on_each_pair_counting_index": "On each pair-counting index,",
    # more than two systems: which cannot be told from the best (the s35 shared-task readers: Holm over all 300 pairs
    # of 25 teams "has very little power"; "shared-task papers compare against the top system only"), each system
    # against the top one, one-sided at α/(m − 1) — multiple comparisons with the best (advisor/stats/_familywise.py)
    "winners_best": ("On each metric, the winners are the systems that may be best: one-sided paired {tests} at "
                     "{alpha}/{others} do not place them below the leader"),
    "winners_best_any": ("On each metric, the winners are the systems that may be best: one-sided paired {tests} at "
                         "{alpha}, Bonferroni-corrected, do not place them below the leader"),
    "no_interval_ece": "ECE is biased upwards and has no interval; the debiased root-mean-square calibration error has one",
    "no_interval": "{names} {verb} no interval, the estimate's bias exceeding its sampling error",
    "no_interval_bound": "{names} {verb} no interval, being itself a bound",
    "no_interval_undefined": "{names} {verb} no interval where {its} denominator is 0",
    "no_interval_constant": ("{names} {verb} no interval where every resample gives the same value, as at the edge of "
                             "the range, so resampling cannot measure its uncertainty"),
    "duties": "We also give ",
    "duties_more": "In addition, we give ",
    "duties_comparing": "We also give ",
}


#: The cases of :data:`UNDEFINED_CASE` as a noun phrase, for "balanced accuracy leaves out of its mean a class absent
#: from the images" (the omit convention: the class, not the figure, goes).
UNDEFINED_LEFT_OUT: dict[str, str] = {
    "never_predicted": "a class never predicted",
    "absent": "a class absent from the {items}",
    "absent_both": "a class neither true nor predicted",
    "label_absent_both": "a label in neither labeling",
}

#: What a mean over classes keeps in each case, for "balanced accuracy's $k$ counts only the classes present among
#: the images" (the omit convention).
UNDEFINED_KEPT: dict[str, str] = {
    "never_predicted": "the classes predicted",
    "absent": "the classes present among the {items}",
    "absent_both": "the classes in the reference or the predictions",
    "label_absent_both": "the labels in the reference or the predictions",
}

#: When a metric meets a zero denominator (:data:`advisor.engine._probe.CASES`), after its name: "recall {case}";
#: ``_pos`` when a positive class is named, ``_negative`` for the binary negative class.
UNDEFINED_CASE: dict[str, str] = {
    "never_predicted": "when a class is never predicted",
    "never_predicted_pos": "when “{pos}” is never predicted",
    "never_predicted_negative": "when every {item} is predicted “{pos}”",
    "absent": "when a class is absent from the {items}",
    "absent_pos": "when no {item} is “{pos}”",
    "absent_negative": "when every {item} is “{pos}”",
    "absent_both": "when a class is neither true nor predicted",
    "absent_both_pos": "when “{pos}” is neither true nor predicted",
    "constant": "when every {item} has one and the same class",
    "empty_item": "over {items} with no true and no predicted label",
    "label_absent_both": "when a label is in neither labeling",
    "label_constant": "when no label is assigned in either labeling",
}


#: Metrics whose appositive goes first when the paragraph must be shortened: readers know what they add.
TERSE_FIRST: tuple[str, ...] = ("accuracy", "log loss", "Brier score", "balanced accuracy")
#: What is said beside these metrics is a caveat, not what they add: the last to go when the paragraph must shorten
#: (a planned NMI is not corrected for chance); when even it must go, the note on the planned metrics says it
#: (a planned NMI is not corrected for chance; a planned purity's pair says why the two go together)
TERSE_LAST: frozenset[str] = frozenset({"normalized_mutual_info", "purity", "inverse_purity"})
