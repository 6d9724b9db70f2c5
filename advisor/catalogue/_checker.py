"""Operational definitions of the metric properties, and a search for counterexamples.

Every property of both frameworks is a function here that searches the space of confusion matrices
(:mod:`._space`) for a counterexample, plus a function that re-checks a stored counterexample. The
search is honest but finite: "no counterexample within budget" confirms a ``holds`` claim only up to
that budget; a counterexample, once found, is a proof.

Scores are oriented (``−value`` for lower-is-better metrics) so that "higher = more similar" in
every definition below. Gösgens et al.'s properties use the *full* domain and the ``baseline``
convention; Opitz's use the *regular* domain (see :mod:`._space`).

Conventions of the stored counterexamples: ``matrices`` are k×k lists (rows = true classes),
``values`` the metric's (not oriented) values on them, ``labelings`` the three labelings of a
triangle-inequality violation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _goesgens as G
from . import _opitz as O
from ._models import Counterexample
from ._opitz import pii_illustration, piii_separable, random_classifiers
from ._space import MetricFunction

__all__ = ["PROPERTIES", "Property", "pii_illustration", "piii_separable", "random_classifiers"]

Search = Callable[[MetricFunction, int, np.random.Generator, int], "Counterexample | None"]
Recheck = Callable[[MetricFunction, Counterexample], "str | None"]


@dataclass(frozen=True)
class Property:
    """One property: its framework, whether it is existential, and how to test it."""

    id: str
    framework: str  # "opitz" or "goesgens"
    definition: str
    search: Search
    recheck: Recheck
    existential: bool = False  # "holds" needs a witness; the search returns witnesses


PROPERTIES: dict[str, Property] = {
    p.id: p
    for p in [
        Property("opitz_monotonicity", "opitz", "Adding mass to a diagonal cell never lowers the score and adding "
                 "mass to an off-diagonal cell never raises it (regular matrices, unit or real-valued additions).",
                 O._pi_search, O._pi_recheck),
        Property("class_sensitivity", "opitz", "Some matrix exists where equal additions to two different diagonal "
                 "cells, or to two different off-diagonal cells, change the score differently (a witness is "
                 "searched; 'fails' means none exists: the metric only counts right and wrong items).",
                 O._pii_search, O._pii_recheck, existential=True),
        Property("class_decomposability", "opitz", "The score is a generalized mean (p = 1, 0 or −1, or the logistic "
                 "mean, logit⁻¹ of the mean logit) of per-class terms g(row_i, column_i): after φ_p the mixed difference of any two changes touching disjoint "
                 "classes vanishes. Refuted by a ranking flip: a change confined to classes S ranks two matrices "
                 "differently depending on a change confined to disjoint classes T (impossible for any mean of "
                 "per-class terms).", O._piii_search, O._piii_recheck),
        Property("prevalence_invariance", "opitz", "Scaling the mass of any true class (a row) by c > 0 leaves the "
                 "score unchanged (integer and real factors).", O._piv_search, O._piv_recheck),
        Property("chance_correction", "opitz", "Every random classifier (expected matrix C_ij = n p_i z_j, "
                 "p, z > 0) scores at most ω(k) (at least, for lower-is-better metrics), a bound that depends on k "
                 "only and lies below the metric's best value; strict: every random classifier scores exactly "
                 "ω(k); complete: ω does not depend on k either. Fails when random classifiers come within 5 % of "
                 "the best value.", O._pv_search, O._pv_recheck),
        Property("max_agreement", "goesgens", "A constant c_max bounds the score and is reached exactly by "
                 "diagonal matrices (identical labelings).", G._max_search, G._max_recheck),
        Property("min_agreement", "goesgens", "A constant c_min bounds the score from below and is reached exactly "
                 "by matrices with an empty diagonal.", G._min_search, G._min_recheck),
        Property("class_symmetry", "goesgens", "Renaming the classes (the same permutation of rows and columns) "
                 "never changes the score.", G._csym_search, G._csym_recheck),
        Property("symmetry", "goesgens", "Transposing the matrix (exchanging truth and prediction) never changes "
                 "the score.", G._sym_search, G._sym_recheck),
        Property("distance", "goesgens", "best − score is a metric distance between labelings: symmetric, zero "
                 "exactly for identical labelings, and satisfying the triangle inequality (all labelings of up to "
                 "6/4/3 items into 2/3/4 classes).", G._dist_search, G._dist_recheck),
        Property("monotonicity", "goesgens", "Moving one unit (or any real mass) from an off-diagonal cell to the "
                 "diagonal cell of its row or column strictly improves the score, whenever neither labeling is "
                 "constant.", G._mon_search, G._mon_recheck),
        Property("strong_monotonicity", "goesgens", "Raising a diagonal cell or lowering an off-diagonal cell "
                 "strictly improves the score (neither labeling constant; not both matrices diagonal or both "
                 "zero-diagonal).", G._smon_search, G._smon_recheck),
        Property("constant_baseline", "goesgens", "For any true labeling and any non-constant predicted class "
                 "sizes, the expected score of a uniformly random prediction with those sizes is the same "
                 "constant (it may depend on k only); computed exactly by enumerating every table of up to 8/5/4 "
                 "items for 2/3/4 classes.", G._cb_search, G._cb_recheck),
        Property("approximate_constant_baseline", "goesgens", "The expected matrix C̄_ij = a_i b_j / n scores the "
                 "same constant for every true sizes a and non-constant predicted sizes b.", G._acb_search,
                 G._acb_recheck),
    ]
}
