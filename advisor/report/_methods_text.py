"""The words of the methods paragraph: every sentence pattern, in one place a writer can edit.

:mod:`advisor.report._methods` decides *what* to say (which metric leads, which properties argue for
it, which duties apply); this module says *how*. Patterns are ``str.format`` templates over plain
values; the builder inserts formulas and citations as separate spans, so a pattern never holds
markup. One source per pattern serves Markdown, LaTeX and HTML alike.
"""

from __future__ import annotations

__all__ = ["ADDS", "AVOID", "DUTY", "LEAD_COSTS", "PROPERTY", "S", "SITUATION", "VARIANT"]

#: A property of the lead metric, said positively and in reader terms ("{name} … ").
PROPERTY: dict[str, str] = {
    "prevalence_invariance": "does not change when a class becomes more or less frequent",
    "class_decomposability": "is a plain mean of per-class scores",
    "chance_correction": "gives a classifier that guesses at random a fixed score",
    "constant_baseline": "gives every random labeling the same expected score",
    "symmetry": "stays the same when the two labelings swap roles",
    "distance": "satisfies the triangle inequality",
    "monotonicity": "rises whenever an error is corrected",
    "opitz_monotonicity": "never falls when a prediction is corrected",
    "strong_monotonicity": "rises with every corrected error",
    "class_sensitivity": "responds to the errors on every class",
}

#: Why a metric is not the lead, one clause ("… because it {reason}"); keyed by the property it lacks.
AVOID: dict[str, str] = {
    "true_negatives": "counts true negatives, which carry no information here",
    "opitz_monotonicity": "can fall when a prediction is corrected",
    "prevalence_invariance": "changes when a class becomes more or less frequent",
    "symmetry": "changes when the two labelings swap roles",
    "distance": "is not a distance",
    "chance_correction": "gives a random classifier a score that depends on the class sizes",
    "constant_baseline": "gives random labelings different expected scores",
    "class_sensitivity": "lets the large classes decide",
    "probabilities": "needs predicted probabilities",
    "other": "fits this setting less well",
    "same": "lacks this property",
}

#: Why Fβ leads when the error costs are given.
LEAD_ITEMS = "weighs every item equally"
LEAD_COSTS = "weighs recall β times as much as precision, as the error costs ask"

#: What a metric reported beside the lead adds, as an appositive ("{names}, {adds}"); metrics with
#: the same phrase are named together.
ADDS: dict[str, str] = {
    "accuracy": "comparable with earlier work but tied to this class mix",
    "balanced_accuracy": "to show how much the class distribution matters",
    "log_loss": "to judge the probabilities",
    "brier": "to judge the probabilities",
    "geometric_macro_recall": "stricter with a neglected class",
    "harmonic_macro_recall": "stricter with a neglected class",
    "recall": "the two class recalls",
    "recall_alone": "the share of positives found",
    "specificity_alone": "the share of negatives cleared",
    "specificity": "the two class recalls",
    "precision": "the share of positive predictions that are right",
    "npv": "the share of negative predictions that are right",
    "f1": "the harmonic mean of precision and recall",
    "f_beta": "weighing the errors as the costs say",
    "macro_f1": "which readers of this field expect",
    "cohen_kappa": "the agreement figure readers expect",
    "mcc": "exactly constant-baseline but no distance",
    "sba": "monotone with a constant baseline for any number of classes",
    "jaccard": "the overlap of predicted and true positives",
}

#: A reporting duty of the situation, as a noun phrase ("We also give {duty}").
DUTY: dict[str, str] = {
    "per_class_large_k": "the minimum, maximum and standard deviation of per-class recall",
    "per_class_small_k": "the recall of every class",
    "target_prevalence_projection": "each metric projected to the shares met in use",
    "error_costs_beta": "the expected cost per item",
}

#: What a variant is, when its name is ambiguous.
VARIANT: dict[str, str] = {
    "macro_f1": "macro F1 is the mean of the per-class F1 scores, not the F1 of macro precision and recall",
    "f1_of_averages": "this F1 is the harmonic mean of macro precision and macro recall",
    "weighted_f1": "per-class F1 scores are weighted by class size",
}

#: Phrases of the situation ("We compare … , in which {a}, {b} and {c}.").
SITUATION: dict[str, str] = {
    "shifted": "the class distribution in use differs from the test set's",
    "shifted_target": "class “{cls}” makes up {share} of the cases in use",
    "unknown": "the class distribution in use is unknown",
    "equal": "every class counts equally",
    "per_instance": "every item counts equally",
    "costs": "a missed positive costs {ratio} times as much as a false alarm",
    "no_tn": "true negatives carry no information",
    "symmetric": "neither labeling is the reference",
    "distance": "a true distance between labelings is needed",
    "chance": "chance agreement must get a fixed score",
}

#: Sentence patterns.
S: dict[str, str] = {
    "task_binary": "We evaluate a classifier that detects class “{pos}”",
    "task_binary_plain": "We evaluate the agreement of two binary labelings",
    "task_multi": "We evaluate a classifier of {k} classes",
    "task_multi_plain": "We evaluate a multi-class classifier",
    "task_agree": "We evaluate the agreement of two labelings with {k} classes",
    "task_data": " on {n} test items",
    "in_which": ", where ",
    "pos_share": ", which makes up {share} of the cases in use",
    "lead": "We lead with {name}",
    "lead_because": ", which ",
    "lead_fallback": ", which fits the requirements of this setting best",
    "beta": " with β = {beta}",
    "beside": "We also report ",
    "which": ", ",
    "avoid": "We do not lead with ",
    "avoid_because": ", because {they} ",
    "definitions": "Below, ",
    "notation_matrix": ("$C$ is the confusion matrix with true classes as rows, $a_i$ and $b_j$ are the sizes of "
                        "true class $i$ and predicted class $j$, $n$ and $k$ count items and classes"),
    "notation_probs": "$p_{tj}$ is the probability given to class $j$ for item $t$ of true class $y_t$",
    "notation_binary": "$TP$, $FP$, $FN$ and $TN$ count the true and false positives and negatives",
    "notation_binary_pos": " of class “{pos}”",
    "undefined_zero": "A zero denominator, as in the precision of a never-predicted class, gives 0",
    "undefined_baseline": ("A ratio with a zero denominator takes the value a random labeling would get in "
                           "expectation, and 1 when a class is absent from both labelings"),
    "undefined_omit": "A per-class score with a zero denominator is left out of the average",
    "undefined_count": " {count} value{s} {were} undefined on this test set.",
    "undefined_none": " No value was undefined on this test set.",
    "chance": ("A classifier that guesses uniformly at random scores {uniform} {name} on this test set, "
               "and one that always predicts the largest class {majority}."),
    "intervals": "Intervals are {conf} {method} intervals from {n} {paired}bootstrap resamples of the items",
    "seed": ", seed {seed}",
    "no_seed": ", drawn without a fixed seed",
    "winners": "; a system is among the winners when the interval of its difference to the best contains 0",
    "duties": "We also give ",
}
