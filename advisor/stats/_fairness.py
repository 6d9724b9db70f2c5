r"""Intervals of the two summaries across subgroups (:mod:`advisor.engine._fairness`), from the project's bootstrap.

**Adverse impact ratio.** Per subgroup column and system: each value's rate of the favourable decision, its ratio to
the highest value's rate, and the column's smallest ratio. One resample draws the items of the whole test set anew
(the multinomial draw of :mod:`._bootstrap` over the rows of the joint table; with ``group=`` the groups of items,
:mod:`._clusters`), every system on the same draws, and recomputes the rates, the ratios and the minimum; each
interval is the percentile interval of its resampled values, left out with its reason when it would not contain the
estimate (the smallest ratio of values whose rates are nearly equal: every resampled minimum lies below it).
``method="bca"`` gives BCa instead, with the acceleration of the jackknife over the items; the benchmark
``benchmarks/bench_adverse_impact.py`` sets the two side by side, and the percentile interval covers better: a ratio
stops at 1, and when a value leads in the test set its estimate sits there, where BCa's bias correction pushes the
interval up against 1, above the value's true ratio. A ratio is undefined in a resample where no value has a favourable decision; too many such resamples
leave it without interval.

**Jigsaw bias score.** Per system: ``0.25·AUC + Σ_a 0.25·M₋₅(m_{s,a})`` over the identity subgroups. One resample
draws the items anew (their groups with ``group=``) as item weights, and every AUC of the score is recomputed on the
weighted items of its sets (:class:`advisor.engine.Ranking`, ties counting half). The interval is BCa, as for every
other resampled figure (:mod:`._intervals`), with the acceleration of a jackknife over the items (every item once up
to 1,000 items, 200 random groups above; whole groups with ``group=``), each deletion a row of item weights like a
resample's. ``method="percentile"`` gives the percentile interval of the same resamples instead: the benchmark
``benchmarks/bench_bias_score.py`` sets the two side by side (coverage on test sets drawn from populations whose score
is known in closed form).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import FOUR_FIFTHS, JointCounts, Ranking, adverse_impact, bias_auc_masks, identity_values, \
    jigsaw_bias_score, line_verdict, power_mean
from ._bootstrap import iter_resamples, make_rng, trials_and_probabilities
from ._clusters import item_weights, iter_cluster_resamples
from ._intervals import resampled_intervals
from ._item_summary import item_jackknife
from ._jackknife import acceleration, leave_out_values

__all__ = ["AIR_METHOD", "AIR_METHODS", "SCORE_METHODS", "adverse_impact_table", "bias_score"]

#: The interval method of the adverse impact ratio
AIR_METHOD = "percentile"
#: The interval methods of the adverse impact ratio: the percentile interval, or BCa of the same resamples
AIR_METHODS = ("percentile", "bca")
#: The interval methods of the bias score: BCa (advisor's own), or the percentile interval of the same resamples
SCORE_METHODS = ("auto", "percentile")
#: Below this share of resamples in which a value is defined it gets no interval.
_MIN_DEFINED = 0.9
#: Resamples per chunk of the bias score's weighted AUCs
_CHUNK = 100


def _percentile(draws: np.ndarray, confidence: float) -> dict[str, Any]:
    ok = draws[np.isfinite(draws)]
    if ok.shape[0] < max(2, _MIN_DEFINED * draws.shape[0]):
        return {"low": None, "high": None, "method": "percentile",
                "interval_reason": "undefined in too many resamples"}
    a = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(ok, [a, 1.0 - a])
    return {"low": float(lo), "high": float(hi), "method": "percentile"}


def _intervals(draws: np.ndarray, est: np.ndarray, confidence: float, method: str,
               accel: np.ndarray | None) -> list[dict[str, Any]]:
    """The interval of every column of ``draws`` (resamples, columns) around ``est``: percentile, or BCa with the
    acceleration ``accel``; a column undefined in too many resamples gets none, and so does one whose interval would
    not contain its estimate (:func:`advisor.stats._intervals.resampled_intervals` says why)."""
    iv = resampled_intervals(draws, est, confidence, method, accel=accel if method == "bca" else None,
                             bounds=[(0.0, 1.0)] * draws.shape[1])  # shares and ratios to the highest share
    res: list[dict[str, Any]] = []
    for j in range(draws.shape[1]):
        if np.isfinite(draws[:, j]).sum() < max(2, _MIN_DEFINED * draws.shape[0]):
            res.append({"low": None, "high": None, "method": "none",
                        "interval_reason": "undefined in too many resamples"})
        elif not (np.isfinite(iv.low[j]) and np.isfinite(iv.high[j])):
            res.append({"low": None, "high": None, "method": iv.methods[j], "interval_reason": iv.reasons[j]})
        else:
            res.append({"low": float(iv.low[j]), "high": float(iv.high[j]), "method": iv.methods[j]})
    return res


def _air_acceleration(stats: Any, counts: np.ndarray, gi: np.ndarray | None) -> dict[str, np.ndarray]:
    """BCa's acceleration of every figure of :func:`adverse_impact_table` per system, from the jackknife over the
    rows of the joint table (:func:`advisor.stats._jackknife.leave_out_values`: one item of a row left out, weighted by
    the row's count, or random groups of items above its limit); with ``gi`` (the group of each row), the groups."""
    whole = stats(counts[None, :])
    systems = list(whole)
    width = whole[systems[0]].shape[1] if systems else 0

    def evaluate(m: np.ndarray) -> np.ndarray:
        res = stats(m)
        return np.hstack([res[s] for s in systems])

    groups = None if gi is None else (gi, int(gi.max()) + 1)
    theta, weights = leave_out_values(counts, width * len(systems), evaluate,
                                      max(1, 2_000_000 // max(counts.shape[0], 1)), groups=groups)
    return {s: acceleration(theta[:, i * width:(i + 1) * width], weights) for i, s in enumerate(systems)}


def adverse_impact_table(joint: JointCounts, values: np.ndarray, names: Sequence[Any], favourable: int, *,
                         n_resamples: int | None = None, confidence: float = 0.95, seed: Any = None,
                         groups: Any = None, method: str = AIR_METHOD) -> dict[str, Any]:
    """``{system: {"values": {value: {"n", "rate", "ratio", "bad_rate"}}, "overall": {"n", "rate", "bad_rate"},
    "min_ratio", "argmin", "argmax", "below_line"}}`` of one subgroup column: ``values`` the value (index into
    ``names``) of each row of ``joint``, ``favourable`` the index of the class whose decision favours the item.
    ``rate`` is the share given the favourable decision (in credit, the approval rate); ``bad_rate`` the share of those
    whose true class is the other one (in credit, the bad rate among the approved: 1 − NPV when the class of interest
    is the default), None when nobody got the favourable decision; ``overall`` gives both over every item. With ``n_resamples``, each rate, ratio and the minimum carry
    ``"low"``, ``"high"``, ``"method"``, and each ratio and the minimum a ``"verdict"`` against the four-fifths line
    read by the interval (:func:`advisor.engine.line_verdict`: ``meets``, ``below``, ``undecided``; None without an
    interval). ``below_line`` is the point estimate's side of the line. ``method`` (:data:`AIR_METHODS`): the percentile
    interval of the resampled values, or BCa with the acceleration of a jackknife over the items (over the groups
    with ``groups``); an interval that would not contain its estimate is left out, with ``"interval_reason"``.

    >>> j = JointCounts(("repaid", "default"), ("m",), np.array([[0, 0], [1, 1], [0, 1], [0, 0]]),
    ...                 np.array([30.0, 10.0, 20.0, 40.0]))
    >>> r = adverse_impact_table(j, np.array([0, 0, 1, 1]), ["F", "M"], 0)
    >>> r["m"]["values"]["F"]["rate"], round(r["m"]["values"]["M"]["rate"], 6), round(r["m"]["min_ratio"]["estimate"], 6)
    (0.75, 0.666667, 0.888889)
    >>> b = JointCounts(("repaid", "default"), ("m",), np.array([[0, 0], [1, 0], [1, 1], [0, 0], [1, 0]]),
    ...                 np.array([30.0, 10.0, 10.0, 40.0, 20.0]))  # F: 40 of 50 approved, 10 of them default
    >>> r = adverse_impact_table(b, np.array([0, 0, 0, 1, 1]), ["F", "M"], 0)
    >>> r["m"]["values"]["F"]["bad_rate"], round(r["m"]["values"]["M"]["bad_rate"], 6), r["m"]["overall"]
    (0.25, 0.333333, {'n': 110.0, 'rate': 0.9090909090909091, 'bad_rate': 0.3})
    """
    if method not in AIR_METHODS:
        raise InputError(f"the adverse impact ratio's interval method is one of {', '.join(AIR_METHODS)}; "
                         f"got {method!r}.")
    vals = np.asarray(values).reshape(-1)
    labels = [str(x) for x in names]
    onehot = (vals[:, None] == np.arange(len(labels))[None, :]).astype(np.float64)  # rows × values
    out: dict[str, Any] = {}
    favs = {s: joint.codes[:, 1 + i] == favourable for i, s in enumerate(joint.systems)}
    other = joint.codes[:, 0] != favourable  # the true class is not the favourable one (in credit: a default)
    total = float(joint.counts.sum())
    for s, fav in favs.items():
        point = adverse_impact(fav, np.asarray(labels, dtype=object)[vals], joint.counts)
        n = onehot.T @ joint.counts
        given, bad = onehot.T @ (joint.counts * fav), onehot.T @ (joint.counts * (fav & other))
        per = {v: {"n": float(n[j]), "rate": point["rates"].get(v), "ratio": point["ratios"].get(v),
                   "bad_rate": float(bad[j] / given[j]) if given[j] > 0 else None}
               for j, v in enumerate(labels) if n[j] > 0}
        g_all, b_all = float(joint.counts[fav].sum()), float(joint.counts[fav & other].sum())
        out[s] = {"values": per, "overall": {"n": total, "rate": g_all / total if total > 0 else None,
                                             "bad_rate": b_all / g_all if g_all > 0 else None},
                  "min_ratio": {"estimate": point["min_ratio"]}, "argmin": point["argmin"],
                  "argmax": point["argmax"],
                  "below_line": None if point["min_ratio"] is None else bool(point["min_ratio"] < FOUR_FIFTHS)}
    if not n_resamples:
        return out
    k = len(labels)
    present = [j for j, v in enumerate(labels) if v in out[next(iter(favs))]["values"]] if favs else []

    def stats(m: np.ndarray) -> dict[str, np.ndarray]:
        """Per system, every figure under masses ``m`` (rows of the joint table, one row per resample or deletion):
        the rates (columns 0…k−1), the ratios (k…2k−1), the bad rates (2k…3k−1), the approval and bad rates over
        every item (3k, 3k+1) and the smallest ratio (3k+2); NaN where undefined."""
        tot = m @ onehot
        res: dict[str, np.ndarray] = {}
        for s, fav in favs.items():
            with np.errstate(invalid="ignore", divide="ignore"):
                rate = np.where(tot > 0, (m * fav[None, :]) @ onehot / tot, np.nan)
                top = np.nanmax(np.where(np.isfinite(rate), rate, -np.inf), axis=1, keepdims=True)
                ratio = np.where(np.isfinite(rate) & (top > 0), rate / np.where(top > 0, top, 1.0), np.nan)
                g, b = (m * fav[None, :]) @ onehot, (m * (fav & other)[None, :]) @ onehot
                g_all, b_all = (m * fav[None, :]).sum(axis=1), (m * (fav & other)[None, :]).sum(axis=1)
                t_all = m.sum(axis=1)
                mins = np.where(np.isfinite(ratio[:, present]).all(axis=1), np.nanmin(ratio[:, present], axis=1),
                                np.nan) if present else np.full(m.shape[0], np.nan)
                res[s] = np.column_stack([rate, ratio, np.where(g > 0, b / np.where(g > 0, g, 1.0), np.nan),
                                          np.where(t_all > 0, g_all / t_all, np.nan),
                                          np.where(g_all > 0, b_all / g_all, np.nan), mins])
        return res

    rng = make_rng(seed)
    draws = {s: np.full((n_resamples, 3 * k + 3), np.nan) for s in favs}
    size = max(1, min(n_resamples, 2_000_000 // max(joint.counts.shape[0], 1)))
    gi = None
    if groups is not None:
        _, gi = np.unique(np.asarray(groups, dtype=object).astype(str), return_inverse=True)
        gi = gi.reshape(-1)
        chunks = iter_cluster_resamples(rng, joint.counts, gi, int(gi.max()) + 1, n_resamples, size)
    else:
        trials, p, scale = trials_and_probabilities(joint.counts, "the test set")
        chunks = iter_resamples(rng, trials, p, n_resamples, size, scale)
    for start, masses in chunks:
        for s, fig in stats(np.asarray(masses, dtype=np.float64)).items():
            draws[s][start:start + fig.shape[0]] = fig
    accel = _air_acceleration(stats, np.asarray(joint.counts, dtype=np.float64), gi) if method == "bca" else {}
    for s, d in draws.items():
        e_all = out[s]["overall"]
        est = [out[s]["values"].get(v, {}).get(f) for f in ("rate", "ratio", "bad_rate") for v in labels] + \
            [e_all["rate"], e_all["bad_rate"], out[s]["min_ratio"]["estimate"]]
        ivs = _intervals(d, np.array([np.nan if x is None else float(x) for x in est]), confidence, method,
                         accel.get(s))
        for j, v in enumerate(labels):
            if v in out[s]["values"]:
                e = out[s]["values"][v]
                e["rate_interval"], e["ratio_interval"], e["bad_rate_interval"] = ivs[j], ivs[k + j], ivs[2 * k + j]
                e["verdict"] = line_verdict(e["ratio_interval"]["low"], e["ratio_interval"]["high"], FOUR_FIFTHS) \
                    if e.get("ratio") is not None else None
        e_all["rate_interval"], e_all["bad_rate_interval"] = ivs[3 * k], ivs[3 * k + 1]
        out[s]["min_ratio"].update(ivs[3 * k + 2])
        out[s]["min_ratio"]["verdict"] = line_verdict(out[s]["min_ratio"]["low"], out[s]["min_ratio"]["high"],
                                                      FOUR_FIFTHS) if out[s]["min_ratio"]["estimate"] is not None \
            else None
    return out


def bias_score(positive: np.ndarray, score: np.ndarray, columns: Mapping[str, Sequence[Any]],
               by: Mapping[str, np.ndarray], *, n_resamples: int | None = None, confidence: float = 0.95,
               seed: Any = None, groups: Any = None, method: str = "auto") -> dict[str, Any]:
    """``{"estimate", "identities": [[column, value], …], "overall_auc", "power_means": {id: M}[, "low", "high",
    "method"]}`` of one system, or ``{"estimate": None, "reason"}``: ``columns`` the values of each subgroup column,
    ``by`` each item's value per column (text), ``positive`` each item's class (True: the class of interest).
    ``method``: ``"auto"`` (BCa; ``"method"`` then says ``"bca"``, or ``"none"`` with ``"interval_reason"``) or
    ``"percentile"`` (:data:`SCORE_METHODS`).

    >>> pos = np.array([1, 0, 1, 0, 1, 0], dtype=bool); s = np.array([.9, .8, .7, .2, .6, .1])
    >>> r = bias_score(pos, s, {"m": ["no", "yes"]}, {"m": np.array(["yes"] * 3 + ["no"] * 3, dtype=object)})
    >>> r["identities"], round(r["estimate"], 6)  # 0.25 · (7/9 + 1/2 + 0 + 1)
    ([['m', 'yes']], 0.569444)
    """
    if method not in SCORE_METHODS:
        raise InputError(f"the bias score's interval method is one of {', '.join(SCORE_METHODS)}; got {method!r}.")
    ids = [(col, str(v)) for col, vals in columns.items() if col in by for v in identity_values([str(x) for x in vals])]
    if not ids:
        return {"estimate": None, "reason": "no value of a subgroup column names an identity"}
    masks = [bias_auc_masks(positive, by[col] == v) for col, v in ids]
    ranking = Ranking(score)
    w1 = np.ones(positive.shape[0])

    def value(w: np.ndarray) -> np.ndarray:
        """The score under item weights ``w`` (resamples × items); NaN where an AUC has an empty side."""
        with np.errstate(invalid="ignore", divide="ignore"):
            overall = np.asarray(ranking.auc(w * positive, w * ~positive), dtype=np.float64)
            terms = []
            for a in ("subgroup_auc", "bpsn_auc", "bnsp_auc"):
                aucs = np.stack([np.asarray(ranking.auc(w * m[a][0], w * m[a][1]), dtype=np.float64) for m in masks])
                empty = np.stack([((w * m[a][0]).sum(axis=-1) <= 0) | ((w * m[a][1]).sum(axis=-1) <= 0)
                                  for m in masks])
                aucs = np.where(empty, np.nan, aucs)
                with np.errstate(over="ignore"):  # an AUC of 0 makes the power mean 0, its limit
                    terms.append(np.mean(aucs ** -5.0, axis=0) ** (-1.0 / 5.0))
            return 0.25 * overall + 0.25 * (terms[0] + terms[1] + terms[2])

    point: dict[str, list[float]] = {}
    for a in ("subgroup_auc", "bpsn_auc", "bnsp_auc"):
        point[a] = []
        for (col, v), m in zip(ids, masks):
            if not (m[a][0].any() and m[a][1].any()):
                return {"estimate": None, "identities": [list(x) for x in ids],
                        "reason": f"the {a.replace('_auc', '').upper() if a != 'subgroup_auc' else 'subgroup'} AUC "
                                  f"of {col} = {v!r} is undefined (a class is missing)"}
            point[a].append(float(ranking.auc(m[a][0].astype(np.float64), m[a][1].astype(np.float64))))
    if not (positive.any() and (~positive).any()):
        return {"estimate": None, "identities": [list(x) for x in ids], "reason": "a class is missing"}
    overall = float(ranking.auc(positive.astype(np.float64), (~positive).astype(np.float64)))
    est = jigsaw_bias_score(overall, point)
    out: dict[str, Any] = {"estimate": est, "identities": [list(x) for x in ids], "overall_auc": overall,
                           "power_means": {a: power_mean(v) for a, v in point.items()}}
    assert abs(float(value(w1)) - est) < 1e-9  # the weighted form is the plug-in score at unit weights
    if not n_resamples:
        return out
    rng = make_rng(seed)
    n = positive.shape[0]
    gi = None
    if groups is not None:
        _, gi = np.unique(np.asarray(groups, dtype=object).astype(str), return_inverse=True)
    draws = np.full(n_resamples, np.nan)
    for start in range(0, n_resamples, _CHUNK):
        rows = min(_CHUNK, n_resamples - start)
        draws[start:start + rows] = value(item_weights(rng, n, rows, gi))
    if method == "percentile":
        out.update(_percentile(draws, confidence))
    else:
        out.update(_bca(draws, est, value, n, gi, confidence))
    return out


class _Weighted:
    """The score under rows of item weights, as :func:`advisor.stats._item_summary.item_jackknife` evaluates it."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def evaluate(self, w: np.ndarray) -> dict[str, np.ndarray]:
        return {"score": np.asarray(self.value(w), dtype=np.float64).reshape(-1)}


def _bca(draws: np.ndarray, est: float, value: Any, n: int, gi: np.ndarray | None,
         confidence: float) -> dict[str, Any]:
    """BCa interval of the resampled scores ``draws`` around ``est``, the acceleration from a jackknife over the items
    (or over the groups ``gi``); too many undefined resamples leave it without interval, as the percentile one."""
    ok = draws[np.isfinite(draws)]
    if ok.shape[0] < max(2, _MIN_DEFINED * draws.shape[0]):
        return {"low": None, "high": None, "method": "none", "interval_reason": "undefined in too many resamples"}
    clusters = None if gi is None else (gi.reshape(-1), int(gi.max()) + 1)
    theta, weights = item_jackknife({"score": _Weighted(value)}, n, clusters)
    accel = acceleration(theta["score"], weights)
    iv = resampled_intervals(draws[:, None], np.array([est]), confidence, "auto", accel=accel, bounds=[(0.0, 1.0)])
    if not np.isfinite(iv.low[0]) or not np.isfinite(iv.high[0]):
        return {"low": None, "high": None, "method": iv.methods[0], "interval_reason": iv.reasons[0]}
    return {"low": float(iv.low[0]), "high": float(iv.high[0]), "method": iv.methods[0]}
