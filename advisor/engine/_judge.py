r"""A judge (an LLM, a model) against human raters: does it agree with them as well as they agree with each other?

Zheng et al. (2023) compare an LLM judge with human experts by setting the judge's agreement with each human beside
the humans' agreement with each other. For the judge J and each human h, and for every pair of humans h, h', on the
items *both* rated (an item one of the two left unrated is left out of that pair):

* the **agreement rate** — the share of those items both put in the same category (the accuracy of the pair's
  confusion matrix ``C``, rows the first rater, columns the second);
* with a tie category (a pairwise preference: answer A, answer B or a tie), the **agreement rate without ties** — the
  share put in the same category among the items neither rater called a tie, Zheng et al.'s agreement "w/o tie"
  beside their agreement "w/ tie" (their FastChat ``compute_agreement.py`` leaves out a pair of votes with a tie);
* **Cohen's kappa** of ``C`` — the engine's ``cohen_kappa`` (:mod:`._metrics`), with its undefined-value convention;
* for ordered categories of an ordinal study, the **quadratically weighted kappa** of ``C`` — the ordinal engine's
  ``weighted_kappa_quadratic`` (:mod:`._ordinal`), with its positions: the ranks of a declared order, else the
  categories' values.

The summary is ``Δ = mean_h q(J, h) − mean_{h<h'} q(h, h')`` for each quantity q, every q(·, ·) of Δ taken on the
items *every* rater rated, so both sides compare the same items (NaN when there are none). With one human there is no
human–human baseline and no Δ.

Every quantity takes item weights ``(..., items)`` — the bootstrap's resampling counts — so one resample gives the
judge–human and the human–human figures on the same items, and the interval of Δ is paired.

A machine scored against a *resolved* human score (automated essay scoring; Williamson et al. 2012) is read against
the human–human baseline like for like: the machine beside each single rater, the raters beside each other, and
``Δ = mean_h q(M, h) − mean_{h<h'} q(h, h')`` is the degradation from the human–human figure
(:func:`baseline_ratings`, with exact and adjacent agreement, the quadratically weighted kappa and the Pearson
correlation of the scores, the ordinal engine's ``pearson_r``). Set against the
resolved score instead, which pools two raters and is steadier than either, the machine would be favoured (the
essay reader, issue 22).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError
from .._format import few_names
from ._agreement import Ratings, ratings_from_codes
from ._metrics import evaluate_batch
from ._ordinal import OrdinalCells, class_values, evaluate_ordinal_batch

__all__ = ["BASELINE_QUANTITIES", "JUDGE_QUANTITIES", "baseline_ratings", "JudgeRatings", "evaluate_judge_batch", "human_ratings", "judge_comparison",
           "judge_ratings", "rated_by_all", "resolve_judge", "tie_category"]

#: What is measured for each pair of raters: the agreement rate, Cohen's kappa, the weighted kappa (ordinal).
JUDGE_QUANTITIES: tuple[str, ...] = ("agreement", "kappa", "weighted_kappa")
#: The agreement rate without ties, beside the agreement rate when one category is a tie (Zheng et al. 2023 report
#: agreement "with tie" and "without tie": a pair of votes counts only when neither rater voted a tie; their FastChat
#: compute_agreement.py)
NO_TIE = "agreement_no_tie"
#: The names of a pairwise preference's tie category
TIE_NAMES: frozenset[str] = frozenset({"tie", "draw"})
#: What a machine against a resolved human score reports for each pair (Williamson et al. 2012): exact agreement,
#: adjacent agreement (within one step), the quadratically weighted kappa and the Pearson correlation of the scores.
BASELINE_QUANTITIES: tuple[str, ...] = ("agreement", "adjacent", "weighted_kappa", "correlation")
#: The ordinal engine's kappa used for ordered categories (the ordinal studies' chance-corrected agreement).
WEIGHTED_KAPPA = "weighted_kappa_quadratic"
#: The ordinal engine's share of items within one step (adjacent agreement).
ADJACENT = "adjacent_accuracy"
#: The ordinal engine's Pearson correlation of the two raters' scores (symmetric in the pair).
CORRELATION = "pearson_r"
#: The standardized mean difference of a pair, the first rater's scores minus the second's (the machine's minus the
#: human score's; Williamson et al. 2012): a bias, not an agreement, so no degradation is taken of it
SMD = "smd"


@dataclass(frozen=True)
class JudgeRatings:
    """A ratings table with one rater named as the judge (``judge``: its index among ``ratings.raters``)."""

    ratings: Ratings
    judge: int
    weighted: bool = False  # the quadratically weighted kappa too (ordered categories, ordinal study)
    measured: tuple[str, ...] | None = None  # the quantities, when not the judge comparison's own
    tie: int | None = None  # the index of the tie category of a pairwise preference: agreement without ties too

    @property
    def judge_name(self) -> str:
        return self.ratings.raters[self.judge]

    @property
    def humans(self) -> tuple[int, ...]:
        """The human raters set beside each other."""
        return tuple(j for j in range(len(self.ratings.raters)) if j != self.judge)

    @property
    def judge_pairs(self) -> int:
        """How many of :attr:`pairs` are the judge's (the first ones)."""
        return len(self.humans)

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The judge with each human, then every pair of humans (indices into
        ``ratings.raters``)."""
        h = self.humans
        first = tuple((self.judge, a) for a in h)
        return (*first, *((h[i], h[j]) for i in range(len(h)) for j in range(i + 1, len(h))))

    @property
    def quantities(self) -> tuple[str, ...]:
        if self.measured is not None:
            return self.measured
        tie = (NO_TIE,) if self.tie is not None else ()
        return (JUDGE_QUANTITIES[0], *tie, *(JUDGE_QUANTITIES[1:] if self.weighted else JUDGE_QUANTITIES[1:2]))

    def ids(self) -> list[str]:
        """Every figure's id: ``agreement#p``, ``kappa#p`` (``weighted_kappa#p``) of pair p, then ``delta_<q>`` (with
        two humans or more)."""
        out = [f"{q}#{p}" for p in range(len(self.pairs)) for q in self.quantities]
        if len(self.humans) >= 2:
            out += [f"delta_{q}" for q in self.quantities if q != SMD]
        return out


def baseline_ratings(y_pred: Sequence[Any], raters: Mapping[str, Sequence[Any]], order: Sequence[Any],
                     quantities: Sequence[str] = BASELINE_QUANTITIES) -> JudgeRatings:
    """A machine's scores ``y_pred`` against each human rater's own scores (``raters``: column name → scores), and
    the raters against each other, on ordered classes ``order`` (lowest first): exact and adjacent agreement and the
    quadratically weighted kappa and the Pearson correlation of each pair, and the degradation Δ (the machine's mean
    with the raters minus the raters' mean with each other). A score that is not one of the classes is one sentence.
    ``quantities`` may add ``"smd"``, the standardized mean difference of the machine's scores minus each rater's (no
    degradation is taken of it).

    >>> jr = baseline_ratings([1, 2, 2, 3], {"r1": [1, 2, 3, 2], "r2": [1, 3, 3, 3]}, [1, 2, 3])
    >>> [(jr.ratings.raters[a], jr.ratings.raters[b]) for a, b in jr.pairs], jr.ids()[-1]
    ([('machine', 'r1'), ('machine', 'r2'), ('r1', 'r2')], 'delta_correlation')
    """
    cats = list(order)
    index = {str(c): i for i, c in enumerate(cats)}
    columns = {"machine": y_pred, **{str(k): v for k, v in raters.items()}}
    if len(columns) != 1 + len(raters):
        raise InputError("a rater column may not be called machine; rename it.")
    codes = []
    for name, values in columns.items():
        col = []
        for v in values:
            if v is None or (isinstance(v, float) and math.isnan(v)) or str(v).strip() == "":
                col.append(-1)  # a rating missing: that pair leaves the item out
            elif _key(v) in index:
                col.append(index[_key(v)])
            else:
                raise InputError(f"the score {str(v)[:40]!r} in column {name!r} is not one of the classes "
                                 f"{few_names([str(c) for c in cats])}.")
        codes.append(col)
    if len({len(c) for c in codes}) != 1:
        raise InputError("the rater columns do not have as many scores as there are items.")
    r = ratings_from_codes(np.asarray(codes, dtype=np.int64).T, len(cats), list(columns), cats, ordered=True,
                           declared=True)
    return JudgeRatings(r, 0, True, measured=tuple(quantities))


def _key(v: Any) -> str:
    """A score as the classes are keyed: 3.0 read from a CSV is the class 3."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def resolve_judge(raters: Sequence[str], judge: str) -> int:
    """The index of the judge among the raters: ``judge`` is the ``<name>`` of its ``rater_<name>`` column (or the
    column's whole name).

    >>> resolve_judge(["rater_llm", "rater_ann"], "llm"), resolve_judge(["rater_llm", "rater_ann"], "rater_ann")
    (0, 1)
    """
    names = [str(r) for r in raters]
    for want in (str(judge), f"rater_{judge}"):
        if want in names:
            return names.index(want)
    shown = [n[len("rater_"):] if n.startswith("rater_") else n for n in names]
    raise InputError(f"the judge {judge!r} of the answers is not one of the raters; the raters are "
                     f"{few_names(shown)} (the <name> of each rater_<name> column).")


def human_ratings(r: Ratings, judge: str) -> Ratings:
    """The ratings without the judge's column: the human baseline that Krippendorff's alpha summarises when a judge
    is compared with the humans (an alpha pooled over the judge too answers no question asked).

    >>> from ._agreement import ratings_table
    >>> r = ratings_table([["a", "a", "b"], ["b", "b", "b"]], ["rater_llm", "rater_x", "rater_y"])
    >>> h = human_ratings(r, "llm")
    >>> h.raters, h.counts.tolist()
    (('rater_x', 'rater_y'), [[1.0, 1.0], [0.0, 2.0]])
    """
    j = resolve_judge(r.raters, judge)
    keep = [i for i in range(len(r.raters)) if i != j]
    return ratings_from_codes(r.codes[:, keep], len(r.categories), [r.raters[i] for i in keep], r.categories,
                              ordered=r.ordered, declared=r.declared)


def tie_category(categories: Sequence[Any]) -> int | None:
    """The index of the tie category of a pairwise preference ("A", "B", "tie"): the one category named tie or draw,
    regardless of case; None when there is none or more than one.

    >>> tie_category(["A", "B", "tie"]), tie_category(["A", "B"]), tie_category(["low", "Draw", "high"])
    (2, None, 1)
    """
    hits = [i for i, c in enumerate(categories) if str(c).strip().lower() in TIE_NAMES]
    return hits[0] if len(hits) == 1 else None


def judge_ratings(r: Ratings, judge: str, *, weighted: bool = False, ties: bool = False) -> JudgeRatings:
    """The ratings with ``judge`` (a rater's name) as the judge; ``weighted`` asks for the weighted kappa too, which
    needs the categories' order; ``ties`` for the agreement rate without ties too, when a category is a tie
    (:func:`tie_category`)."""
    if weighted and not r.ordered:
        raise InputError(f"a weighted kappa needs the order of the categories {few_names(r.categories)}; give it from "
                         "lowest to highest (classes with label_structure: ordinal in the answers, or --order).")
    return JudgeRatings(r, resolve_judge(r.raters, judge), weighted, tie=tie_category(r.categories) if ties else None)


def _cells(jr: JudgeRatings, w: np.ndarray, a: int, b: int, common: bool = False) -> np.ndarray:
    """The weighted confusion matrix of raters a (rows) and b (columns) on the items both rated, or with ``common``
    on the items every rater rated: ``(..., k, k)``."""
    codes = jr.ratings.codes
    k = len(jr.ratings.categories)
    ok = (codes >= 0).all(axis=1) if common else (codes[:, a] >= 0) & (codes[:, b] >= 0)
    cell = codes[ok, a] * k + codes[ok, b]
    one_hot = np.zeros((cell.size, k * k))
    one_hot[np.arange(cell.size), cell] = 1.0
    return np.asarray(w[..., ok] @ one_hot).reshape(w.shape[:-1] + (k, k))


def rated_by_all(jr: JudgeRatings) -> int:
    """How many items every rater rated: the items Δ is computed on.

    >>> from ._agreement import ratings_table
    >>> r = ratings_table([["a", "a", "a"], ["b", "", "a"], ["a", "b", ""]], ["rater_llm", "rater_x", "rater_y"])
    >>> rated_by_all(judge_ratings(r, "llm"))
    1
    """
    return int((jr.ratings.codes >= 0).all(axis=1).sum())


def _mean(values: list[np.ndarray]) -> np.ndarray:
    """The mean over pairs, leaving out a pair that shares no item (NaN)."""
    stack = np.stack(values, axis=0)
    ok = ~np.isnan(stack)
    count = ok.sum(axis=0)
    total = np.where(ok, stack, 0.0).sum(axis=0)
    return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def _pair_values(jr: JudgeRatings, c: np.ndarray, undefined: str) -> dict[str, np.ndarray]:
    """Every quantity of one pair from its confusion matrices ``c`` ``(..., k, k)``; NaN where it has no item."""
    r = jr.ratings
    k = len(r.categories)
    cats = r.categories
    out: dict[str, np.ndarray] = {}
    empty = c.sum(axis=(-2, -1)) <= 0
    nominal = evaluate_batch(c, ["accuracy", "cohen_kappa"], undefined=undefined)
    out["agreement"] = np.where(empty, np.nan, nominal["accuracy"])
    if jr.tie is not None and NO_TIE in jr.quantities:  # the votes of which neither is a tie (Zheng et al. 2023)
        keep = np.arange(k) != jr.tie
        decided = c[..., keep, :][..., keep]
        total = decided.sum(axis=(-2, -1))
        same = np.trace(decided, axis1=-2, axis2=-1)
        out[NO_TIE] = np.where(total > 0, same / np.where(total > 0, total, 1.0), np.nan)
    if "kappa" in jr.quantities:
        out["kappa"] = np.where(empty, np.nan, nominal["cohen_kappa"])
    if jr.weighted:
        rows, cols = np.divmod(np.arange(k * k), k)
        cells = OrdinalCells(rows, cols, c.reshape(c.shape[:-2] + (k * k,)), cats, class_values(cats), r.declared)
        wanted = [WEIGHTED_KAPPA, *([ADJACENT] if "adjacent" in jr.quantities else []),
                  *([CORRELATION] if "correlation" in jr.quantities else [])]
        got = evaluate_ordinal_batch(cells, wanted, undefined)
        out["weighted_kappa"] = np.where(empty, np.nan, got[WEIGHTED_KAPPA])
        if "adjacent" in jr.quantities:
            out["adjacent"] = np.where(empty, np.nan, got[ADJACENT])
        if "correlation" in jr.quantities:
            out["correlation"] = np.where(empty, np.nan, got[CORRELATION])
        if SMD in jr.quantities:  # the first rater's scores minus the second's: the cells transposed
            flipped = OrdinalCells(cols, rows, cells.counts, cats, cells.values, r.declared)
            out[SMD] = np.where(empty, np.nan, evaluate_ordinal_batch(flipped, [SMD], undefined)[SMD])
    return out


def evaluate_judge_batch(jr: JudgeRatings, ids: Sequence[str] | None, weights: np.ndarray,
                         undefined: str = DEFAULT_CONVENTION) -> dict[str, np.ndarray]:
    """Every figure of :meth:`JudgeRatings.ids` (or those in ``ids``) under item weights ``(..., items)``: each pair's
    on the items both rated; Δ on the items every rater rated, so its two sides compare the same items (the LLM-judge
    reader: "each pair is compared on the answer pairs both rated" set agreements on different items against each
    other). With every item rated by all, the two are the same."""
    w = np.asarray(weights, dtype=np.float64)
    out: dict[str, np.ndarray] = {}
    complete = bool((jr.ratings.codes >= 0).all())
    delta = len(jr.humans) >= 2 and (ids is None or any(m.startswith("delta_") for m in ids))
    common: list[dict[str, np.ndarray]] = []
    with np.errstate(invalid="ignore", divide="ignore"):
        for p, (a, b) in enumerate(jr.pairs):
            own = _pair_values(jr, _cells(jr, w, a, b), undefined)
            out.update({f"{q}#{p}": v for q, v in own.items()})
            if delta:
                common.append(own if complete else _pair_values(jr, _cells(jr, w, a, b, common=True), undefined))
        n_judge = jr.judge_pairs
        if delta:
            for q in (q for q in jr.quantities if q != SMD):
                judge_side = _mean([common[p][q] for p in range(n_judge)])
                human_side = _mean([common[p][q] for p in range(n_judge, len(jr.pairs))])
                out[f"delta_{q}"] = judge_side - human_side
    return {m: v for m, v in out.items() if ids is None or m in ids}


def judge_comparison(jr: JudgeRatings, undefined: str = DEFAULT_CONVENTION) -> dict[str, Any]:
    """The judge against the humans, on the data: one row per pair of raters (the judge with each human first) with
    the items both rated, the agreement rate and Cohen's kappa (and the weighted kappa), then ``delta`` — the judge's
    mean with the humans minus the humans' mean with each other — or None with one human.

    >>> from ._agreement import ratings_table
    >>> r = ratings_table([["a", "a", "a"], ["b", "b", "a"], ["a", "b", "b"], ["b", "b", "b"]], ["rater_llm", "rater_x", "rater_y"])
    >>> c = judge_comparison(judge_ratings(r, "llm"))
    >>> [(row["first"], row["second"], row["agreement"]) for row in c["rows"]]
    [('rater_llm', 'rater_x', 0.75), ('rater_llm', 'rater_y', 0.5), ('rater_x', 'rater_y', 0.75)]
    >>> round(c["delta"]["agreement"], 6)
    -0.125
    >>> t = ratings_table([["A", "A", "tie"], ["B", "tie", "B"], ["A", "B", "A"], ["tie", "tie", "A"]],
    ...                   ["rater_llm", "rater_x", "rater_y"])
    >>> [row["agreement_no_tie"] for row in judge_comparison(judge_ratings(t, "llm", ties=True))["rows"]]
    [0.5, 1.0, 0.0]
    """
    r = jr.ratings
    values = evaluate_judge_batch(jr, None, np.ones((1, r.codes.shape[0])), undefined)
    rows = []
    for p, (a, b) in enumerate(jr.pairs):
        both = int(((r.codes[:, a] >= 0) & (r.codes[:, b] >= 0)).sum())
        row: dict[str, Any] = {"first": r.raters[a], "second": r.raters[b], "judge": a == jr.judge, "items": both}
        for q in jr.quantities:
            v = float(values[f"{q}#{p}"][0])
            row[q] = None if np.isnan(v) else v
        rows.append(row)
    delta = None
    if len(jr.humans) >= 2:
        delta = {q: None if np.isnan(values[f"delta_{q}"][0]) else float(values[f"delta_{q}"][0])
                 for q in jr.quantities if q != SMD}
    return {"judge": jr.judge_name, "humans": [r.raters[h] for h in jr.humans], "weighted": jr.weighted,
            "weighted_kappa": WEIGHTED_KAPPA if jr.weighted else None, "rows": rows, "delta": delta,
            "rated_by_all": rated_by_all(jr)}
