r"""Item-level bootstrap of score, probability and cost metrics, paired across systems.

A resample draws ``n`` items with replacement (one ``rng.integers`` draw per resample, the same items
for every system: paired); it is represented by the item weights ``w_t`` = times item ``t`` was drawn.
Each system's items are sorted once (by score for ROC AUC and average precision, by confidence for
ECE, by cell for the confusion matrix), and every resample is evaluated on the sorted items with
cumulative sums of the weights — no re-sorting, no copies of the items
(:mod:`advisor.engine._scores`). Log loss and Brier are weighted means of per-item losses.

Reported per metric (:mod:`advisor.stats._item_summary`): the point estimate and its interval per
system, chosen as for the confusion-matrix metrics (BCa with a jackknife over the items; none for the
plug-in ECE, which carries the debiased ℓ2 calibration error with its interval beside it); per pair, the
interval of the difference, ``P(a better than b)`` (ties count half), the two-sided paired bootstrap
p-value ``2 (1 − Φ(|d̂| / se_boot))`` of the oriented difference ``d`` and the smallest difference it
resolves; the percentile interval of each system's rank; and the winners: with two systems, as the
confusion-matrix comparison decides them (the best, and the other when the interval of their difference
contains 0); with more, by :func:`advisor.stats._familywise.winners_against_best` (each against the top system,
the best system among the winners with probability ≥ 1 − α). The items are put in an order fixed by their values before resampling, so the
intervals do not depend on the order of the rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import (
    LOG_LOSS_EPS,
    LOWER_IS_BETTER,
    TARGET_VALUED,
    Calibration,
    Label,
    Ranking,
    ap_note,
    aurc,
    calibration_fit,
    cost_matrix,
    coverage_at_risk,
    expected_cost_batch,
    grouped_ap,
    grouped_auc,
    ici,
    ks_statistic,
    multiclass_auc,
    net_benefit,
    partial_roc_auc,
    precision_recall_at_k,
    ranked_probability_score,
    resolve_priors,
    rps_skill,
    score_inputs,
    selective_risk,
    tpr_at_fpr,
    untied_auc_ap,
)
from ._bootstrap import check_arguments, lacked_classes, make_rng, pick_seed
from ._clusters import check_groups, group_weights
from ._draws import ClassKeeper, ItemStrata, check_classes, class_design
from ._item_summary import canonical_order, summarise_items
from ._runs import RunLayout, combine_points

__all__ = ["ITEM_METRICS", "Draws", "DrawnRanking", "ItemComparison", "ScoredSystem", "compare_scored"]

#: Metrics the item bootstrap resamples.
ITEM_METRICS = ("roc_auc", "average_precision", "log_loss", "brier", "brier_binary", "ece",
                "expected_cost", "normalized_expected_cost")
#: Issue 21 (additive): metrics of operating constraints, clinical calibration and decision curves of a binary
#: score or risk, each evaluated under the resample's item weights by :mod:`advisor.engine._decisions`;
#: ``net_benefit@t`` ids are accepted too. Their parameters come in ``params`` of :func:`compare_scored`.
DECISION_ITEM_METRICS = ("tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k", "recall_at_k",
                         "calibration_intercept", "calibration_slope", "ici")


#: forecasts of ordered classes: the ranked probability score and its skill (``params["order_index"]``: the
#: probability columns in the class order, lowest first)
RPS_ITEM_METRICS = ("ranked_probability_score", "rps_skill")


#: selective prediction (issue 23 item 2): the top-label probability ranks the items, an item errs when its answer
#: (the system's decision when given, else the top label) is not its class; ``params["coverage"]`` for the
#: selective risk, ``params["target_risk"]`` for the coverage at a target risk. Evaluated under the resample's item
#: weights by :mod:`advisor.engine._selective`.
SELECTIVE_ITEM_METRICS = ("aurc", "selective_risk", "coverage_at_risk")


def _decision_metric(m: str) -> bool:
    return m in DECISION_ITEM_METRICS or m in RPS_ITEM_METRICS or m.startswith("net_benefit@")
_CHUNK_ITEMS = 800_000  # weights held at once (resamples × items): small enough for the caches


class ScoredSystem:
    """One system's outputs on the shared items, prepared (sorted) once for weighted evaluation."""

    def __init__(self, idx: np.ndarray, scores: np.ndarray, k: int, pos: int | None, decisions: np.ndarray | None,
                 costs: np.ndarray, priors: np.ndarray | None, metrics: Sequence[str],
                 abstained: np.ndarray | None = None) -> None:
        self.k, self.metrics, self.costs, self.priors = k, list(metrics), costs, priors
        self.params: dict[str, Any] = {}
        self.idx = idx
        n = idx.shape[0]
        self.onehot = (idx[None, :] == np.arange(k)[:, None]).astype(np.float64)  # (k, n)
        s = scores
        proba = s.ndim == 2
        if k == 2:
            p = 1 if pos is None else pos
            col = s[:, p] if proba else s
            self.binary = Ranking(col)
            self.y = (idx == p).astype(np.float64)
            self.decision_column = col
        else:
            self.rankings = [Ranking(s[:, c]) for c in range(k)]
        self.loss: dict[str, np.ndarray] = {}
        if proba:
            self.proba = s
            r = np.arange(n)
            self.loss["log_loss"] = -np.log(np.clip(s[r, idx], LOG_LOSS_EPS, 1.0 - LOG_LOSS_EPS))
            d = s - self.onehot.T
            self.loss["brier"] = (d * d).sum(axis=1)
            if k == 2:
                self.loss["brier_binary"] = (s[:, 1 if pos is None else pos] - self.y) ** 2
            self.calibration = Calibration(idx, s)
            self.calibration_pos = Calibration(idx, s, column=1 if pos is None else pos) if k == 2 else None
        if proba:  # issue 23: each answer's error and the top-label probability as its confidence
            answer = decisions if decisions is not None else s.argmax(axis=1)
            conf = s.max(axis=1)
            if abstained is not None:  # an abstention after every answered item, scored by its top label
                conf = np.where(abstained, conf - 2.0, conf)
            self.selective = ((answer != idx).astype(np.float64), conf)
        if decisions is None and proba:
            decisions = np.argmin(s @ costs, axis=1)  # Bayes decisions under the costs
        if decisions is not None:
            cell = idx * k + decisions
            self.cell_order = np.argsort(cell, kind="stable")
            sc = cell[self.cell_order]
            self.cell_starts = np.flatnonzero(np.r_[True, sc[1:] != sc[:-1]])
            self.cell_ids = sc[self.cell_starts]

    def evaluate(self, w: np.ndarray | Draws) -> dict[str, np.ndarray]:
        """Every metric under item weights ``w`` (shape (b, n) or (n,)) or a chunk of drawn resamples."""
        out: dict[str, np.ndarray] = {}
        ranking_only = self.k == 2 and not set(self.metrics) - {"roc_auc", "average_precision"}
        if isinstance(w, Draws):
            if ranking_only:  # one bincount of the weights in item order; nothing gathered into score order
                out["roc_auc"], out["average_precision"] = self._drawn_ranking()(w.w)
                return {m: out[m] for m in self.metrics}
            w = w.w
        w32, w = w, w if ranking_only else np.asarray(w, dtype=np.float64)
        total = w.sum(axis=-1, dtype=np.float64)
        for m in self.metrics:
            if m in ("roc_auc", "average_precision") and self.k == 2:
                if m not in out:
                    out["roc_auc"], out["average_precision"] = self.binary.binary(w32, self.y)
            elif m == "roc_auc":
                out[m] = multiclass_auc(self.idx, np.empty((0, self.k)), self.k, "ovr", "macro", w, self.rankings)
            elif m == "average_precision":
                out[m] = np.mean([r.ap(w * self.onehot[c], w * (1 - self.onehot[c]))
                                  for c, r in enumerate(self.rankings)], axis=0)
            elif m in self.loss:
                out[m] = (w @ self.loss[m]) / total
            elif m == "ece":  # with the debiased ℓ2 calibration errors beside it (issue 20, _item_summary)
                out[m], out["_ece_sq"] = self.calibration.ece(w), self.calibration.squared_debiased(w)
                if self.calibration_pos is not None:
                    out["_ece_pos"] = self.calibration_pos.ece(w)
                    out["_ece_pos_sq"] = self.calibration_pos.squared_debiased(w)
                if np.ndim(w) == 1:  # the observed items: the target of the resampling world
                    out["_ece_sq_plugin"] = self.calibration.squared_plugin(w)
                    if self.calibration_pos is not None:
                        out["_ece_pos_sq_plugin"] = self.calibration_pos.squared_plugin(w)
            elif m == "aurc":
                out[m] = aurc(*self.selective, w)
            elif m == "selective_risk":
                out[m] = selective_risk(*self.selective, float(self.params["coverage"]), w)
            elif m == "coverage_at_risk":
                out[m] = coverage_at_risk(*self.selective, float(self.params["target_risk"]), w)
            elif _decision_metric(m) and m not in out:
                out.update(self._decision(m, w))
            elif m in ("expected_cost", "normalized_expected_cost") and "expected_cost" not in out:
                cells = np.zeros(w.shape[:-1] + (self.k * self.k,))
                cells[..., self.cell_ids] = np.add.reduceat(w[..., self.cell_order], self.cell_starts, axis=-1)
                ec, nec = expected_cost_batch(cells.reshape(w.shape[:-1] + (self.k, self.k)), self.costs, self.priors)
                out["expected_cost"], out["normalized_expected_cost"] = ec, nec
        return {m: out[m] for m in self.metrics} | {key: v for key, v in out.items() if key.startswith("_")}

    def _decision(self, m: str, w: np.ndarray) -> dict[str, np.ndarray]:
        """Issue 21: the metric ``m`` of the positive class's score or risk under item weights ``w``."""
        if m in RPS_ITEM_METRICS:
            perm = list(self.params.get("order_index") or range(self.k))
            rank = np.argsort(perm)[self.idx]
            proba = self.proba[:, perm]
            return {"ranked_probability_score": ranked_probability_score(rank, proba, w),
                    "rps_skill": rps_skill(rank, proba, w)}
        col, y = self.decision_column, self.y
        if m == "tpr_at_fpr":
            return {m: tpr_at_fpr(y, col, float(self.params["max_fpr"]), w)[0]}
        if m == "partial_roc_auc":
            return {m: partial_roc_auc(y, col, float(self.params["max_fpr"]), w)}
        if m == "ks_statistic":
            return {m: ks_statistic(y, col, w)}
        if m in ("precision_at_k", "recall_at_k"):
            p, r = precision_recall_at_k(y, col, float(self.params["k"]), w)
            return {"precision_at_k": p, "recall_at_k": r}
        if m in ("calibration_intercept", "calibration_slope"):
            fit = calibration_fit(y, col, w)
            return {"calibration_intercept": fit["intercept"], "calibration_slope": fit["slope"]}
        if m == "ici":
            return {m: ici(y, col, w)}
        t = float(m.split("@", 1)[1])
        return {m: net_benefit(y, col, [t], w)[0][..., 0]}

    def _drawn_ranking(self) -> DrawnRanking:
        if getattr(self, "_drawn", None) is None:
            self._drawn = DrawnRanking(self.binary, self.y > 0)
        return self._drawn


class Draws:
    """A chunk of paired resamples: the drawn item indices ``idx`` (rows, n), shared by every system,
    and the item weights ``w`` (times each item was drawn) tabulated once, when a metric needs them."""

    def __init__(self, idx: np.ndarray) -> None:
        self.idx = idx
        self._w: np.ndarray | None = None

    @property
    def w(self) -> np.ndarray:
        if self._w is None:
            rows, n = self.idx.shape
            self._w = np.empty((rows, n))
            for r in range(rows):  # one resample at a time: its counts stay in cache
                self._w[r] = np.bincount(self.idx[r], minlength=n)
        return self._w


class DrawnRanking:
    """Binary ROC AUC and AP straight from drawn item indices, through the ranking sorted once.

    Every item is given a bin once: a positive its own (its place among the positives in decreasing
    score order), a negative the gap between positives it falls in — or, with tied scores, each item
    its tie group, positives and negatives apart. A resample is then one weighted ``bincount`` of the
    item weights, read in item order, into ``O(positives)`` bins, from which the cumulative weights at
    each positive follow; nothing is gathered into score order. The sums are whole numbers, exact in
    float64, so the values equal :meth:`Ranking.binary` on the same weights bit for bit.
    """

    def __init__(self, ranking: Any, positive: np.ndarray) -> None:
        pos = np.asarray(positive, dtype=bool)
        order = ranking.order
        ys = pos[order]
        self.tied = bool(ranking.tied)
        before = np.cumsum(ys)  # positives at or above each place in score order
        if self.tied:
            group = np.zeros(order.shape[0], dtype=np.intp)
            group[ranking.starts[1:]] = 1
            group = np.cumsum(group)
            self.split = int(ranking.starts.shape[0])
            sorted_bins = np.where(ys, group, self.split + group)
        else:
            self.split = int(ys.sum())
            sorted_bins = np.where(ys, before - 1, self.split + before)
        self.size = 2 * self.split + (0 if self.tied else 1)
        self.bins = np.empty(order.shape[0], dtype=np.intp)
        self.bins[order] = sorted_bins

    def __call__(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(AUC, AP)`` of each row of whole-number item weights ``w`` (rows, n), float64."""
        m = self.split
        cnt = np.empty((w.shape[0], self.size))
        for r in range(w.shape[0]):
            cnt[r] = np.bincount(self.bins, weights=w[r], minlength=self.size)
        if self.tied:
            return grouped_auc(cnt[:, :m], cnt[:, m:]), grouped_ap(cnt[:, :m], cnt[:, m:])
        g1 = cnt[:, :m]
        cum1 = np.cumsum(g1, axis=-1)
        neg = np.cumsum(cnt[:, m:], axis=-1)  # negative weight above each positive, then in total
        if m == 0:
            return untied_auc_ap(g1, cum1, cum1, neg[:, -1])
        # untied_auc_ap's arithmetic in fewer passes, exact on whole counts: the negative weight above a
        # positive is ``neg`` itself, and a drawn positive (g1 ≥ 1) has cumulative weight ≥ 1, so the
        # precision needs no mask (0 · finite where g1 = 0) — the same numbers, bit for bit
        n1, n0 = cum1[:, -1], neg[:, -1]
        den = n1 * n0
        above0 = (g1 * neg[:, :m]).sum(axis=-1)
        prec = cum1 + neg[:, :m]
        np.maximum(prec, 1.0, out=prec)
        np.divide(cum1, prec, out=prec)
        prec *= g1
        with np.errstate(invalid="ignore", divide="ignore"):
            auc = np.where(den > 0, (den - above0) / np.where(den > 0, den, 1.0), np.nan)
            ap = np.where(n1 > 0, prec.sum(axis=-1) / np.where(n1 > 0, n1, 1.0), np.nan)
        return auc, ap


@dataclass
class ItemComparison:
    """Bootstrap intervals and paired comparisons of several scored systems (JSON-ready via :meth:`to_dict`)."""

    systems: list[str]
    metrics: list[str]
    n_resamples: int
    confidence: float
    estimates: dict[str, dict[str, float]]
    intervals: dict[str, dict[str, tuple[float, float]]]
    pairs: dict[str, list[dict[str, Any]]]
    rank_intervals: dict[str, dict[str, tuple[float, float]]]
    winners: dict[str, list[str]]
    method: str = ("intervals chosen per metric: BCa with the acceleration of a jackknife over the items, none for "
                   "the plug-in ECE, which is biased upwards (see calibration: the debiased root-mean-square "
                   "calibration error with its interval); paired differences; "
                   "winners: of two systems, the best and the other when the interval of their difference contains "
                   "0; of more, the top system and every system a one-sided paired-bootstrap test against it (normal "
                   "form with the bootstrap standard error) at (1 − confidence)/(m − 1) does not separate from it, so "
                   "that the best system is among them with probability ≥ confidence (multiple comparisons with the "
                   "best; Hsu 1996)")
    extra: dict[str, Any] = field(default_factory=dict)
    methods: dict[str, dict[str, str]] = field(default_factory=dict)  # metric → system → interval method
    reasons: dict[str, dict[str, str | None]] = field(default_factory=dict)  # why an interval is missing
    calibration: dict[str, dict[str, Any]] = field(default_factory=dict)  # system → top_label/positive_class
    seed: int | None = None
    groups: int | None = None  # groups of items resampled instead of items (issue 20)
    runs: dict[str, int] | None = None  # runs per system: each system is its mean over them (issue 20)
    classes: str = "free"  # how the true classes were resampled: kept (none lost), fixed (counts kept) or free
    redrawn: dict[str, int] = field(default_factory=dict)  # class → resamples that lacked it, drawn again (kept)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: ``metrics[system][id]`` = {"estimate", "low", "high", "method"} plus the comparisons."""
        def entry(m: str, s: str) -> dict[str, Any]:
            why = self.reasons.get(m, {}).get(s)
            return {"estimate": _num(self.estimates[m][s]), "low": _num(self.intervals[m][s][0]),
                    "high": _num(self.intervals[m][s][1]), "method": self.methods.get(m, {}).get(s),
                    **({"reason": why} if why else {})}

        return {
            "method": self.method, "n_resamples": self.n_resamples, "confidence": self.confidence, "seed": self.seed,
            **({"groups": self.groups} if self.groups is not None else {}),
            **({"runs": self.runs} if self.runs is not None else {}), "classes": self.classes, "redrawn": self.redrawn,
            "metrics": {s: {m: entry(m, s) for m in self.metrics} for s in self.systems},
            "pairs": self.pairs, "winners": self.winners,
            "rank_intervals": {m: {s: list(v) for s, v in r.items()} for m, r in self.rank_intervals.items()},
            **({"calibration": self.calibration} if self.calibration else {}),
        }


def _num(x: Any) -> float | None:
    v = float(x)
    return None if np.isnan(v) else v


def compare_scored(y_true: Any, systems: Mapping[str, Any], labels: Sequence[Label] | None = None, *,
                   positive_label: Label | None = None, metrics: Sequence[str] | None = None,
                   decisions: Mapping[str, Any] | None = None, costs: Any = None, priors: Any = None,
                   n_resamples: int = 2000, confidence: float = 0.95, seed: Any = 0,
                   groups: Any = None, runs: Sequence[str] | None = None,
                   params: Mapping[str, Any] | None = None, progress: Any = None,
                   reject_label: Label | None = None, classes: str = "kept") -> ItemComparison:
    r"""Paired item bootstrap of score/probability/cost metrics for systems scored on the same items.

    ``systems`` maps a name to scores (n,) (binary, higher = more positive) or probabilities (n, k);
    ``decisions`` optionally maps names to predicted labels for the expected cost (by default the Bayes
    decisions ``argmin_j Σ_i c_ij p_i`` of the probabilities). ``groups`` (one per item: a patient, a document)
    resamples groups of items instead of items (:mod:`advisor.stats._clusters`). ``runs`` (the system of each
    entry of ``systems``, repeated for its runs) compares means over runs (:mod:`advisor.stats._runs`).
    ``params`` holds the parameters of the issue-21 metrics of a binary task: ``max_fpr`` (TPR at an FPR
    budget) and ``k`` (precision and recall at K).
    ``progress``: called as ``progress(done, total)`` after each chunk of resamples.
    ``reject_label`` (issue 23): the label a system's ``decisions`` hold where it abstained; for AURC and the
    selective risk an abstention comes after every answered item and is scored by its top label
    (:func:`advisor.engine.selective_items`). Not with costs: an abstention has no cost in the cost matrix.
    ``classes`` says how the true classes are resampled (:func:`advisor.bootstrap`): "kept" (the default) draws
    again a resample that lacks a class; "fixed" keeps each class's count — cases and controls for a binary task,
    as pROC's bootstrap of the AUC does by default (Robin et al. 2011); "free" is the plain bootstrap. Groups are
    drawn whole whatever it says.

    >>> rng = np.random.default_rng(0); y = rng.integers(0, 2, 300)
    >>> good, bad = y + rng.normal(0, 0.7, 300), y + rng.normal(0, 3, 300)
    >>> r = compare_scored(y, {"good": good, "bad": bad}, [0, 1], positive_label=1, metrics=["roc_auc"], n_resamples=200)
    >>> r.winners["roc_auc"], r.estimates["roc_auc"]["good"] > 0.8
    (['good'], True)
    """
    check_arguments(n_resamples, confidence, progress=progress)
    check_classes(classes)
    if not systems:
        raise InputError("systems is empty; give at least one system's scores.")
    prepared: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    labs: list[Label] = []
    pos = None
    for name, sc in systems.items():
        idx, s, labs, pos = score_inputs(y_true, sc, labels, positive_label)
        prepared[name] = (idx, s)
        labels = labs
    k = len(labs)
    proba = all(s.ndim == 2 for _, s in prepared.values())
    has_dec = proba or decisions is not None and all(decisions.get(n) is not None for n in systems)
    ids = list(metrics) if metrics is not None else [m for m in ITEM_METRICS
                                                     if _applies(m, k, proba, costs is not None or priors is not None,
                                                                 has_dec)]
    if k != 2 or pos is None:  # average precision is the positive class's: one id, one definition
        if metrics is not None and "average_precision" in ids:
            raise InputError(ap_note(k))
        ids = [m for m in ids if m != "average_precision"]
    for m in ids:
        if m in SELECTIVE_ITEM_METRICS:  # issue 23: selective prediction ranks by the top-label probability
            if not proba:
                raise InputError(f"{m} needs probabilities (p_<label> columns): the top-label probability is the "
                                 f"confidence that ranks the items.")
            if m == "selective_risk" and (params or {}).get("coverage") is None:
                raise InputError("selective_risk needs its parameter coverage; give params={'coverage': …}.")
            if m == "coverage_at_risk" and (params or {}).get("target_risk") is None:
                raise InputError("coverage_at_risk needs its parameter target_risk; give params={'target_risk': …}.")
            continue
        if m in RPS_ITEM_METRICS:  # issue 21: forecasts of ordered classes
            if not proba:
                raise InputError(f"{m} needs probabilities, one column per ordered class.")
            continue
        if _decision_metric(m):  # issue 21: a binary task's score or risk, with its parameters
            need = {"tpr_at_fpr": "max_fpr", "partial_roc_auc": "max_fpr", "precision_at_k": "k", "recall_at_k": "k"}.get(m)
            if k != 2:
                raise InputError(f"{m} needs a binary task; these systems have {k} classes.")
            if need is not None and (params or {}).get(need) is None:
                raise InputError(f"{m} needs its parameter {need}; give params={{'{need}': …}}.")
            if m.startswith(("calibration_", "ici", "net_benefit@")) and not proba:
                raise InputError(f"{m} needs probabilities (p_<label> columns); a score is not a risk.")
            continue
        if m not in ITEM_METRICS:
            raise InputError(f"metric {m!r} is not resampled item by item; choose from {', '.join(ITEM_METRICS)}.")
        if not _applies(m, k, proba, True, has_dec):
            need = ("decisions (y_pred) or probabilities" if m.endswith("expected_cost") else
                    "probability columns p_<label>" if not proba else "a binary task")
            raise InputError(f"{m} needs {need}; the systems given do not have them.")
    c = cost_matrix(costs, labs, labs[pos] if pos is not None else None)
    idx0 = next(iter(prepared.values()))[0]
    pi = None if priors is None else resolve_priors(priors, labs, np.bincount(idx0, minlength=k))
    dec, off = {}, {}
    for name in prepared:
        d = (decisions or {}).get(name)
        if d is not None and reject_label is not None:  # abstentions: kept aside, the top label in their place
            d, mask = _abstentions(name, d, prepared[name][1], labs, reject_label, costs is not None or priors is not None)
            if mask is not None:
                off[name] = mask
        if d is not None:
            dec[name] = score_inputs(d, np.zeros(len(idx0)) if k == 2 else np.full((len(idx0), k), 1.0 / k), labs,
                                     labs[pos] if pos is not None else labs[1] if k == 2 else None)[0]
    gi: np.ndarray | None = None
    n_groups = 0  # with gi
    if groups is not None:
        gi, n_groups = check_groups(groups, idx0.shape[0], np.ones(idx0.shape[0]))
    # the items in an order fixed by their values: the same resamples whatever the order of the rows (issue 20)
    perm = canonical_order(idx0, [s for _, s in prepared.values()] + list(dec.values()) + list(off.values())
                           + ([] if gi is None else [gi]))
    gi = None if gi is None else gi[perm]
    sys_ = {name: ScoredSystem(idx[perm], s[perm], k, pos, dec[name][perm] if name in dec else None, c, pi, ids,
                               off[name][perm] if name in off else None)
            for name, (idx, s) in prepared.items()}
    for system in sys_.values():
        system.params = dict(params or {})
    names = list(sys_)
    n = idx0.shape[0]
    point = {name: sys_[name].evaluate(np.ones(n)) for name in names}
    draws: dict[str, np.ndarray] = {}
    seed = pick_seed(seed)
    rng = make_rng(seed)
    size = max(1, min(n_resamples, _CHUNK_ITEMS // max(n, 1)))
    design = "free" if gi is not None else class_design(np.bincount(idx0, minlength=k), classes)
    within = ItemStrata(idx0[perm]) if design == "fixed" else None
    keeper = ClassKeeper(rng, idx0[perm], k) if design == "kept" else None
    for start in range(0, n_resamples, size):
        rows = min(size, n_resamples - start)
        if within is not None:  # each class's items among themselves: every class keeps its count
            w: Any = Draws(within.draw(rng, rows))
        elif gi is None:
            drawn = rng.integers(0, n, size=(rows, n))  # intp: what gathers and bincount take without a copy
            if keeper is not None:  # a resample that lacks a class is drawn again
                for r in range(rows):
                    drawn[r] = keeper.keep_items(drawn[r], n)
            w = Draws(drawn)
        else:  # whole groups: each item weighs its group's multiplicity

            w = group_weights(rng, int(n_groups), rows)[:, gi].astype(np.float64)
        for j, name in enumerate(names):
            for m, v in sys_[name].evaluate(w).items():
                draws.setdefault(m, np.empty((n_resamples, len(names))))[start:start + rows, j] = v
        if progress is not None:
            progress(start + rows, n_resamples)
    layout = None
    if runs is not None:
        if len(runs) != len(sys_):
            raise InputError(f"runs must name the system of each of the {len(sys_)} score inputs; got {len(runs)}.")
        layout = RunLayout([str(r) for r in runs])
        layout = layout if layout.several else None
    out = _comparison(sys_, ids, point, draws, n, n_resamples, float(confidence), seed,
                      None if gi is None else (gi, int(n_groups)), layout, rng)
    out.classes = design
    out.redrawn = lacked_classes([keeper] if keeper is not None else [], labs)
    for m in ids:  # ideal at a value (intercept 0, slope 1): no system wins by being larger or smaller, and a
        if m in TARGET_VALUED:  # larger value is not "better": the difference keeps its interval and test only
            out.winners[m] = []
            for pair in out.pairs.get(m, []):
                pair["probability_better"] = None
    return out


def _abstentions(name: str, d: Any, s: np.ndarray, labs: Sequence[Label], reject: Any, costs: bool
                 ) -> tuple[Any, np.ndarray | None]:
    """``(decisions with each abstention replaced by the top label, where the system abstained)`` (None: nowhere)."""
    mask = np.array([str(v) == str(reject) for v in d], dtype=bool)
    if not mask.any():
        return d, None
    if costs:
        raise InputError(f"system {name!r} abstains (writes {str(reject)!r}) on some items, and an abstention has no "
                         "cost in the cost matrix; leave the costs out of its comparison.")
    if s.ndim != 2:
        raise InputError(f"system {name!r} abstains on some items; selective prediction needs its probabilities, one "
                         "column per class (the top label scores an abstention).")
    top = s.argmax(axis=1)
    return [labs[int(top[i])] if mask[i] else v for i, v in enumerate(d)], mask


def _applies(m: str, k: int, proba: bool, costs: bool, decisions: bool) -> bool:
    if m in ("expected_cost", "normalized_expected_cost"):
        return costs and decisions
    if m == "brier_binary":
        return k == 2 and proba
    if m in ("log_loss", "brier", "ece"):
        return proba
    return True


def _comparison(systems: dict[str, ScoredSystem], ids: list[str], point: dict[str, dict[str, np.ndarray]],
                draws: dict[str, np.ndarray], n: int, n_resamples: int, confidence: float, seed: Any,
                clusters: tuple[np.ndarray, int] | None = None, layout: Any = None,
                rng: Any = None) -> ItemComparison:
    """The :class:`ItemComparison` of the summaries of :func:`advisor.stats._item_summary.summarise_items`."""
    summaries, calibration = summarise_items(systems, ids, point, draws, n, confidence, clusters, layout, rng)
    names = list(systems) if layout is None else layout.names
    estimates = {s: {m: float(point[s][m]) for m in ids} for s in names} if layout is None else {
        s: {m: float(combine_points(np.array([float(point[c][m]) for c in systems]), layout)[j]) for m in ids}
        for j, s in enumerate(names)}
    pairs = {m: [{"a": p.a, "b": p.b, "difference": {"estimate": p.difference.estimate, "low": p.difference.low,
                                                      "high": p.difference.high, "method": p.difference.method},
                  "probability_better": p.p_a_better, "p_value": p.p_value, "test": p.test,
                  "resolvable": p.resolvable} for p in mc.pairs] for m, mc in summaries.items()}

    def end(x: float | None) -> float:
        return float("nan") if x is None else float(x)

    return ItemComparison(
        names, ids, n_resamples, confidence,
        estimates={m: {s: estimates[s][m] for s in names} for m in ids},
        intervals={m: {s: (end(r.low), end(r.high)) for s, r in mc.systems.items()} for m, mc in summaries.items()},
        pairs=pairs, rank_intervals={m: {s: (end(lo), end(hi)) for s, (lo, hi) in mc.rank_intervals.items()}
                                     for m, mc in summaries.items()},
        winners={m: list(mc.winners) for m, mc in summaries.items()},
        methods={m: {s: str(r.method) for s, r in mc.systems.items()} for m, mc in summaries.items()},
        reasons={m: {s: r.reason for s, r in mc.systems.items()} for m, mc in summaries.items()},
        calibration=calibration, seed=int(seed) if isinstance(seed, (int, np.integer)) else None,
        groups=None if clusters is None else clusters[1],
        runs=None if layout is None else layout.runs,
    )
