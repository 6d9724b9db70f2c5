"""Reader phrases shared by the one-screen recommendation and the methods paragraph.

Each phrase says a property, a reason or a warning in the reader's terms, never with an internal id.
The terminal view (:mod:`advisor.questionnaire._screen`) and the methods paragraph
(:mod:`advisor.report._methods_text`) take their words from here, so a pattern has one source.
"""

from __future__ import annotations

__all__ = ["ADDS", "AVOID", "CAVEAT", "LEAD", "LEAD_COSTLIER", "LEAD_COSTS", "LEAD_DEPLOYED", "LEAD_ITEMS", "PROPERTY", "PROPERTY_SYMMETRIC", "SCREEN",
           "SITUATION", "WARNING"]

#: A property of the lead metric, said positively and in reader terms ("{name} … ").
PROPERTY: dict[str, str] = {
    # row scaling (Opitz 2024, PIV): the share of each class's items in each column kept (the sentiment reader: "could be
    # read as a claim about the model")
    "prevalence_invariance": "does not change when only the class frequencies change",
    "class_decomposability": "averages the per-class scores, so a rare class counts as much as a common one",
    # Opitz's PV, strict: the expected score of a classifier whose calls are independent of the true class (the CoLA
    # reader: "however it guesses" is loose; independence of the true label is the condition)
    "chance_correction": "gives the same expected score to every classifier whose predictions are independent of the "
                         "true class",
    "constant_baseline": "gives every random labeling the same expected score",
    "symmetry": "stays the same when the two labelings swap roles",
    "distance": "satisfies the triangle inequality",
    "monotonicity": "rises whenever an error is corrected",
    "opitz_monotonicity": "never gets worse when a correct prediction is added, nor better when an error is",
    "strong_monotonicity": "rises with every corrected error",
    "class_sensitivity": "responds to the errors on every class",
}

#: A property said of labelings compared without a reference (no classifier guesses there).
PROPERTY_SYMMETRIC: dict[str, str] = {
    "chance_correction": "gives a labeling made at random a fixed score",
}

#: Why a metric is not the lead, one clause ("… because it {reason}"); keyed by the property it lacks.
AVOID: dict[str, str] = {
    "true_negatives": "counts true negatives, which carry no information here",
    # 1 − accuracy is the expected cost with every error costing the same
    "equal_costs": "weighs every error alike, though the costs given differ",
    "opitz_monotonicity": "can get worse when a correct prediction is added, or better when an error is",
    "prevalence_invariance": "depends on how often each class occurs",
    "symmetry": "changes when the two labelings swap roles",
    "distance": "is not a distance",
    "chance_correction": "gives a random classifier a score that depends on the class sizes",
    "constant_baseline": "gives random labelings different expected scores",
    "class_sensitivity": "lets the large classes decide",
    # every item was to count alike (class_weighting: per_instance), and a macro average weighs classes alike
    "weighs_classes": "weighs every class alike, a rare one as much as a common one, though every item was to count alike",
    "probabilities": "needs predicted probabilities",
    "threshold_free": "averages over every threshold, though only one is used",
    "unchosen_threshold": "scores labels at a threshold nobody chose, and no operating point is fixed",
    "answers_every_item": "scores every item, the ones the system would leave to a person included",
    "over_splitting": "reaches its best value when every item is a cluster of its own, so it rewards over-splitting",
    "other": "fits this setting less well",
    # a sample drawn by map class (rules_strata.yaml): the unweighted counts are the sample's, not the map's
    "unweighted_sample": "counts the sample's items unweighted: the sample's figure, not the map's",
    "kappa_practice": "is advised against by current good practice (Pontius & Millones, 2011)",
}

#: What Fβ with β² = the ratio of the error costs is, said truthfully when it leads (only where no expected cost is
#: defined: no class shares of use): a weighting in its denominator, not an expected cost (the sarcasm reader).
LEAD_ITEMS = "weighs every item equally"
LEAD_COSTS = ("weighs a miss β² times a false alarm in its denominator, β² the cost ratio, and ignores true "
              "negatives, though it is no mean cost")

#: Why an error rate leads when the author named the costlier error and no ratio (rules_costs.yaml,
#: costlier_error_named): the error it reads, never a property it happens to have (the loan reader)
LEAD_COSTLIER = {
    "missed": "reads the costlier error, a missed positive: one minus it is the miss rate; the other error's rate "
              "stands beside it, not merged with it",
    "false_alarm": "reads the costlier error, a false alarm; the other error's rate stands beside it, not merged "
                   "with it",
}

#: Why recall leads when a threshold is in use and a false positive rate budget is given ("{name} {reason}"; the rule
#: fpr_budget of rules_constraints.yaml): the threshold in use is what is evaluated, TPR at the budget stands beside it
LEAD_DEPLOYED = ("reads the threshold in use: the share of positives it flags, with its false positive rate set "
                 "against the budget through a one-sided upper bound; TPR at the budget, from a threshold found on the "
                 "test set, is optimistic for one fixed in advance")

#: Why a metric leads when its own purpose, not a shared property, is the reason ("{name} {reason}").
LEAD: dict[str, str] = {
    "normalized_expected_cost": "weighs each kind of error by its cost at the class shares met in use",
    "class_weighted_recall": "weighs each class's recall by its stated weight, however often the class occurs",
    "stratified_accuracy": ("weighs each stratum of the sample by its share of the mapped area, so it estimates "
                            "the share of the map correctly classified"),
    "class_weighted_accuracy": ("counts each item as many times as its class's weight, so it depends on how often "
                                "each class occurs"),
    "macro_f1_of_classes": ("averages the per-class F1 over the chosen classes only, while an item of another class "
                            "still counts as an error when it is predicted as one of them"),
    "expected_cost": "weighs each kind of error by its cost at the class shares met in use",
    "average_precision": "sums up precision over every level of recall without counting true negatives",
    "log_loss": "is a strictly proper scoring rule, best in expectation only for the true probabilities",
    "net_benefit": ("weighs what acting on the risks gains at each threshold you gave, against treating everyone and "
                    "no one; a proper score would also weigh risks at which no one acts"),
    "brier": "is a strictly proper scoring rule, best in expectation only for the true probabilities",
    "top_k_accuracy": "counts {an} {item} as right when its true class is among the {top_k} highest-scored",
    # a probability over pairs of items, with no threshold in it (Fawcett 2006): in the author's classes and items
    "roc_auc": "is the probability that {pair}",
    # issue 21: operating constraints and ordered forecasts
    "tpr_at_fpr": "is the share of positives found at the best threshold within the budget",
    "precision_at_k": "counts the positives among the items the review budget can open",
    # a class whose prediction takes no action (answers key fallback_class)
    "wrong_action_rate": "is the share of the items on which an action is taken and is wrong",
    # the classes grouped by action, the action whose miss is costly named (actions, action_of_interest)
    "action_sensitivity": ("is the share of the items whose true class leads to the action that are classified into "
                           "a class leading to it too; an error between classes of one action changes nothing"),
    # issue 23: selective prediction
    "selective_risk": ("is the error rate among the answers the system gives, on the {items} of highest top-label "
                       "probability, the maximum softmax probability; the cut "
                       "that answers that share is placed on this test set's confidences, so a threshold fixed in "
                       "advance answers a different share"),
    "aurc": "averages the error rate of the most confident answers over every share of the items answered",
    # the dermatology reader: the deferral threshold fixed on one half of the groups, frozen, tested on the other
    "risk_at_frozen_coverage": ("is the error rate among the {items} answered on a random half of the test set at "
                                "the cut that answers {coverage} of the other half, fixed there and frozen"),
    "coverage_at_risk": ("is the largest share of the {items} the system answers, most confident first, with at most "
                         "{risk} of them wrong; found on this test set, the cut is optimistic for a threshold fixed "
                         "in advance"),
    # the legal methodologist: the cut chosen with a risk guarantee (SGR), not read off the test set's own curve
    "coverage_guaranteed_risk": ("is the share of the {items} answered on a random half of the test set at the cut "
                                 "that selection with guaranteed risk fixes on the other half; with probability 95% "
                                 "over the draw of that half, the error rate of new {items} at the frozen cut is at "
                                 "most {risk}{independent}"),
    "ranked_probability_score": ("scores probability forecasts of ordered classes, penalising probability put far "
                                 "from the observed class more than probability put near it"),
    # issue 23: two partitions of the same items
    "pair_correlation": ("rises whenever a perfect split or merge of clusters brings the partitions closer, and gives "
                         "random partitions the same expected score whatever their cluster sizes"),
    # issue 23: a tree of classes
    "hierarchical_f1": ("gives a wrong prediction credit for every ancestor it shares with the true class; an error "
                        "in the right branch of the taxonomy thus costs less than one in another branch"),
    "krippendorff_alpha": ("takes any number of annotators and missing ratings and scores the agreement "
                           "expected by chance as 0"),
    "krippendorff_alpha_ordinal": ("takes any number of annotators and missing ratings and scores the agreement "
                                   "expected by chance as 0"),
}

#: What a metric reported beside the lead adds, as an appositive ("{names}, {adds}"); metrics with
#: the same phrase are named together.
ADDS: dict[str, str] = {
    "accuracy": "whose value depends on this test set's class shares",
    "balanced_accuracy": "the mean recall over the classes, each counting equally",
    "log_loss": "to judge the probabilities",
    "brier": "to judge the probabilities",
    "brier_binary": "to judge the probabilities",
    "geometric_macro_recall": "stricter with a neglected class, but 0 as soon as one class has recall 0",
    "harmonic_macro_recall": "stricter with a neglected class, but 0 as soon as one class has recall 0",
    "recall": "the two class recalls",
    "recall_alone": "the share of positives found",
    "specificity_alone": "the share of negatives cleared",
    "specificity": "the two class recalls",
    "precision": "the share of positive predictions that are right",
    "npv": "the share of negative predictions that are right",
    "f1": "the harmonic mean of precision and recall",
    "f_beta": ("which weighs a missed positive β² times a false alarm in its denominator and leaves out true "
               "negatives, though it is no mean cost of the errors"),
    "class_weighted_recall": "the per-class recalls weighted by your class weights",
    "class_weighted_accuracy": ("which counts each item as many times as its class's weight, so it depends on how "
                                "often each class occurs"),
    "macro_f1_of_classes": "the mean F1 over the chosen classes only, the others counting only as errors",
    "action_specificity": "the same share for the other action, without which taking the action always scores 1",
    "mae_macro": "the mean distance per true class, so a rare class counts as much as a common one",
    "class_of_interest": "how the class of interest fares, one-vs-rest",
    "planned": "as planned, with its formula named",
    # a planned figure at a cut no answer chose (the multi-label scores' F1): kept, never given as a result
    "planned_illustration": "as planned, but only for illustration, at the conventional score cut of 0.5 no answer chose",
    "field": "the figure reported in this field",
    # macro_f1: no phrase — the methods paragraph's variant note says what it is. What a field reports is said
    # only from fields.yaml, with its citation (issue 22); "planned" says the author asked for it
    "adjusted_balanced_accuracy": "balanced accuracy rescaled so that chance scores 0",
    "cohen_kappa": "agreement beyond chance, 0 when the labelings agree only by chance",
    # its role, the chance-corrected score the author asked for, then the property, which the methods paragraph cites
    # (ADDS_CITE in advisor/report/_methods_text.py; the s35 readers: "added … with no citation and no role")
    "mcc": "for chance correction: 0 in expectation for a random labeling",
    "sba": "never lower after a correction and fixed for random labelings, with any number of classes",
    "jaccard": "the overlap of predicted and true positives",
    "weighted_kappa_quadratic": "chance-corrected agreement that weighs far errors more",
    "weighted_kappa_linear": "chance-corrected agreement that weighs far errors more",
    "mae": "the mean distance between true and predicted class",
    "adjacent_accuracy": "the share of items predicted at most one step of the order from the true class",
    "fowlkes_mallows": "the geometric mean of precision and recall",
    "roc_auc": "how well the scores rank positives above negatives",
    "ece": "how far the stated probabilities are from the observed frequencies",
    "fleiss_kappa": "agreement beyond chance among all annotators",
    "hamming_loss": "the share of wrong label decisions",
    "subset_accuracy": "the share of items whose label set is exactly right",
    "multilabel_micro_f1": "pooled over all labels, so frequent labels weigh more",
    "multilabel_samples_f1": "the mean F1 of the items",
    "multilabel_macro_roc_auc": "the mean over labels of each label's ROC AUC from its scores",
    # issue 21
    "average_precision": "precision over every level of recall",
    "tpr_at_fpr": "the share of positives found within the false positive rate budget",
    "partial_roc_auc": "the ranking at false positive rates within the budget",
    "ks_statistic": "the largest gap between the true and false positive rates over the thresholds",
    "precision_at_k": "the share of positives among the items reviewed",
    "recall_at_k": "the share of all positives the review budget finds",
    "calibration_intercept": "whether the risks are right on average and neither too extreme nor too modest",
    "calibration_slope": "whether the risks are right on average and neither too extreme nor too modest",
    "ici": "the mean distance of the risks from a smoothed calibration curve",
    "net_benefit": ("true positives per item less false positives weighed by the odds of the threshold, to set against "
                    "treating everyone or no one"),
    "rps_skill": "the share of the ranked probability score of the test set's class shares that is removed",
    "ranked_probability_score": "a proper score of the forecasts that respects the class order",
    # issue 23
    "aurc": "the summary over every coverage",
    "selective_risk": "the error rate among the answers given at the target coverage",
    "risk_at_frozen_coverage": ("the error rate among the answers of a random half of the items at the cut that "
                                "answers the target coverage of the other half"),
    "coverage_at_risk": "the largest share of the items answered, most confident first, within the target risk",
    "coverage_guaranteed_risk": ("the share of a random half of the items answered at the cut that selection with "
                                 "guaranteed risk fixes on the other half"),
    # issue 23: partitions and hierarchies
    "pair_correlation": "the correlation of the two partitions' same-cluster indicators over pairs of items",
    "pair_correlation_distance": "the same agreement as a distance between partitions",
    "adjusted_rand_index": "the customary pair-counting index, corrected for chance",
    "adjusted_mutual_info": "the information the partitions share, corrected for chance",
    # planned only (rules_structures.yaml): kept beside the chance-corrected indices with its caveat
    # the s30 text-clustering methodologist: "say why: comparability with prior work; and that NMI (arithmetic-mean
    # normalisation) is biased toward more clusters (Vinh et al. 2010), which matters when the number is free"
    "normalized_mutual_info": ("as planned, for comparison with earlier clustering work; it is not corrected for "
                               "chance, and with this normalisation it favours clusterings with more clusters (Vinh et "
                               "al. 2010), which matters when the number of clusters is free"),
    # planned purity, reported with its inverse (rules_structures.yaml): why the pair, in what it rewards (the
    # text-clustering readers: "report purity with inverse purity, as Amigó et al. advise; don't argue it away");
    # the paragraph cites Amigó et al. (2009) as a reference in its place and says the author's items for "the items"
    "purity": ("as text-clustering studies report them: purity alone rewards splitting the items into more clusters, "
               "inverse purity rewards merging them, and together they show which a clustering does (Amigó et al. "
               "2009)"),
    "inverse_purity": ("as text-clustering studies report them: purity alone rewards splitting the items into more "
                       "clusters, inverse purity rewards merging them, and together they show which a clustering does "
                       "(Amigó et al. 2009)"),
    "hierarchical_f1": "the harmonic mean of hierarchical precision and recall",
    "hierarchical_precision": "how much of each predicted path in the tree is right",
    "hierarchical_recall": "how much of each true path in the tree is found",
    # further metrics a plan can put beside a lead
    "micro_f1": "which equals accuracy with one label per item",
    "macro_recall": "the mean of the per-class recalls",
    "macro_precision": "the mean of the per-class precisions",
    "weighted_f1": "per-class F1 weighted by class size",
    "informedness": "the recall of the positives plus that of the negatives, minus one",
    "markedness": "the two predictive values together, minus one",
    "lr_plus": "how much a positive result raises the odds of the class",
    "lr_minus": "how much a negative result lowers the odds of the class",
    "expected_cost": "the cost per item of the errors, at your costs",
    "normalized_expected_cost": "the cost of the errors relative to the best decision that ignores the input",
    "top_k_accuracy": "the share of items whose true class is among the k highest scores",
    "krippendorff_alpha": "agreement beyond chance that allows missing ratings",
    "krippendorff_alpha_ordinal": "agreement beyond chance that weighs far disagreements more",
}


#: Phrases of the situation ("We compare … , in which {a}, {b} and {c}.").
SITUATION: dict[str, str] = {
    "shifted": "the class distribution in use differs from the test set's",
    "shifted_target": "class “{cls}” makes up {share} of the cases in use",
    "unknown": "the class distribution in use is unknown",
    "equal": "every class counts equally",
    "per_instance": "every item counts equally",
    "costs_equal": "a missed positive costs as much as a false alarm",
    "costs": "a missed positive costs {ratio} times as much as a false alarm",
    "costs_both": "a missed positive costs {fn} and a false alarm {fp} (ratio {ratio})",
    "no_tn": "true negatives carry no information",
    "symmetric": "neither labeling is the reference",
    "distance": "a true distance between labelings is needed",
    "chance": "chance agreement must get a fixed score",
    "annotators": "no annotator is taken as the reference",
    "risks": "the predicted probabilities are used as risks",
}

#: A caveat folded into the line of a metric reported beside the lead (instead of a warning about it).
CAVEAT: dict[str, str] = {
    "prevalence_dependent": "tied to this class mix",
    "imbalance_dominated": "the large classes dominate it here",
    "non_monotone_multiclass": "not monotone beyond two classes",
}

#: Warnings in plain words, keyed by the recommendation's warning code ({lead}: the lead metric,
#: {metrics}: the metrics concerned, {where}: how the class distribution in use relates to the test set).
WARNING: dict[str, str] = {
    "ranking_sensitivity": ("Rankings of systems change with the metric: admit several winners and check the "
                            "ranking under resampling (Opitz, 2024)."),
    "macro_f1_ambiguous": "“macro F1” names two different formulas; if you report it, state which one (Opitz & Burst, 2019).",
    "prevalence_dependent": ("{metrics} changes with the class distribution, which {where}; report per-class recall "
                             "beside it (Opitz, 2024)."),
    "imbalance_dominated": "{metrics} is dominated by the large classes of this imbalanced test set.",
    "non_monotone_multiclass": ("{metrics} can get worse when a correct prediction is added, or better when an "
                                "error is, with three or more classes."),
    "balanced_test_set": ("Accuracy equals balanced accuracy on this balanced test set only; in use, where the "
                          "class distribution differs, it does not."),
    "micro_f1_is_accuracy": "“micro F1” is accuracy for single-label classification; call it accuracy (Opitz, 2024).",
    "micro_f1_is_not_accuracy_multilabel": ("“micro F1” pools the errors of all labels; it is not accuracy, because "
                                            "an item can be partly right (Tsoumakas et al., 2010)."),
    "weighted_balanced_accuracy_is_accuracy": "“Weighted balanced accuracy” is accuracy; call it accuracy.",
    "impossible_combination": ("No metric rises with every correction, is a distance and gives all random labelings "
                               "one score at once; {lead} is a distance and nearly keeps that score "
                               "(Gösgens et al., 2021)."),
}

#: How the reason of the lead the properties would choose begins when it stands beside the field's figure, which leads
#: a ranking on one test set (advisor/questionnaire/_engine.py); what follows it is what the metric keeps
SET_ASIDE_PREFIX = "the lead the properties asked for would choose beside the field's figure; "

#: The headings and fixed lines of the one-screen view.
SCREEN: dict[str, str] = {
    "lead": "Lead with {name}",
    "beside": "Also report",
    "avoid": "Avoid as the lead",
    "warnings": "Warnings",
    "explain": "advisor recommend --explain shows the reasoning and the sources.",
    "lead_fallback": "has the properties this setting asks for",
    "because": "{situation}; {name} {reason}.",
    # systems ranked on one shared test set, the field's figure leading (advisor/questionnaire/_engine.py)
    "ranked_by_field": ("The systems are ranked on one test set, where every system meets the same class shares; "
                        "{name} is the figure reported in {field}."),
    "where_shifted": "differs in use",
    "where_unknown": "is unknown in use",
    "where_unsaid": "may differ in use",
}
