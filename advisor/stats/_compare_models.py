"""The result of a paired comparison (:func:`advisor.stats.compare_joint`): plain data, JSON-ready."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from .._exceptions import InputError
from .._jsonio import dumps, envelope
from ..engine import Label, metric_id
from ._frames import comparison_frame, comparison_html, comparison_records

__all__ = ["Comparison", "Interval", "McNemar", "MetricComparison", "PairResult", "RankingAgreement", "SystemResult"]


def _num(x: Any) -> float | None:
    """Float for JSON models: NaN → None (infinities are kept)."""
    v = float(x)
    return None if np.isnan(v) else v


# ----------------------------------------------------------------------------------------------
# Result model
# ----------------------------------------------------------------------------------------------
class _Model(BaseModel):
    model_config = ConfigDict(ser_json_inf_nan="strings", frozen=True)


class Interval(_Model):
    """A point estimate with its interval (None = undefined, or no interval: ``reason`` says why)."""

    estimate: float | None
    low: float | None
    high: float | None
    method: str | None = None  # clopper_pearson, bca, basic, percentile, or none
    reason: str | None = None  # why there is no interval


class SystemResult(Interval):
    """One system's value of one metric."""

    p_first: float | None
    nan_resamples: int


class PairResult(_Model):
    """Paired difference ``a − b`` of one metric and the probability that ``a`` is better."""

    a: str
    b: str
    difference: Interval
    p_a_better: float | None
    p_value: float | None = None  # two-sided paired-bootstrap p-value (normal form), used by the winners' tests
    test: str = "paired bootstrap"
    resolvable: float | None = None  # the smallest difference this test set resolves at the confidence level


class MetricComparison(_Model):
    """Everything the comparison says about one metric."""

    metric: str
    higher_is_better: bool
    systems: dict[str, SystemResult]
    pairs: list[PairResult]
    best: list[str]
    winners: list[str]
    rank_intervals: dict[str, tuple[float | None, float | None]] = {}


class McNemar(_Model):
    """McNemar's exact test of two systems' correct/incorrect decisions on the same items: all items for accuracy,
    the positives for recall, the negatives for specificity (``metric``)."""

    a: str
    b: str
    a_only: float  # items (of the metric's set) a gets right and b wrong
    b_only: float  # items b gets right and a wrong
    p: float  # two-sided exact p-value, min(1, 2 P(X ≤ min(a_only, b_only))), X ~ Binomial(a_only + b_only, ½)
    #: more than two systems, a pair with the top system on this proportion: the one-sided p-value against it,
    #: Bonferroni-adjusted over the m − 1 comparisons with the top, min(1, (m − 1) p / 2); separated when ≤ α
    p_adjusted: float | None = None
    resolvable: float | None = None  # smallest difference of the metric this test separates with these discordant items
    metric: str = "accuracy"  # the proportion compared: accuracy, recall or specificity


class RankingAgreement(_Model):
    """Metrics × metrics rank correlations of the systems' rankings (Opitz (2024), Figure 1)."""

    metrics: list[str]
    ranks: dict[str, dict[str, float | None]]
    spearman: list[list[float | None]]
    kendall: list[list[float | None]]
    note: str | None = None


class Comparison(_Model):
    """Result of :func:`compare_systems` / :func:`compare_joint`."""

    systems: list[str]
    labels: list[Label]
    n: float
    n_resamples: int
    confidence: float
    seed: int | None
    method: str = "auto"  # how intervals were chosen; each interval says its own method
    winners_method: str = ""
    convention: str
    positive_label: Label | None
    beta: float
    metrics: dict[str, MetricComparison]
    ranking_agreement: RankingAgreement
    undefined: dict[str, list[dict[str, Any]]]
    mcnemar: list[McNemar] = []  # accuracy, recall, specificity: McNemar's exact test of every pair (issue 20)
    test: str = ""  # the paired test behind the winners, named
    groups: int | None = None  # the bootstrap resampled this many groups of items, not items (issue 20)
    runs: dict[str, int] | None = None  # runs per system, each system its mean over them (issue 20)
    classes: str = "free"  # how the true classes were resampled: kept (none lost), fixed (counts kept) or free
    absent_classes: dict[str, int] = {}  # class → resamples that lacked it (a class of the test set; groups, free)
    redrawn: dict[str, int] = {}  # class → resamples that lacked it and were drawn again (kept)
    #: groups resampled: the classes of the test set that one group alone holds, so leaving that group out (a deletion
    #: of the jackknife behind the intervals) leaves the class out of a mean over the classes present
    one_group_classes: list[str] = []

    def _metric(self, metric: str) -> MetricComparison:
        if metric not in self.metrics:  # a catalogue name or alias
            metric = metric_id(metric)
        if metric not in self.metrics:
            raise InputError(f"metric {metric!r} is not in this comparison; it has {', '.join(self.metrics)}.")
        return self.metrics[metric]

    def _check_system(self, name: str) -> None:
        if name not in self.systems:
            raise InputError(f"no system named {name!r}; systems are {', '.join(self.systems)}.")

    def _pair(self, a: str, b: str, metric: str) -> tuple[PairResult | None, bool]:
        self._check_system(a)
        self._check_system(b)
        for pr in self._metric(metric).pairs:
            if (pr.a, pr.b) == (a, b):
                return pr, False
            if (pr.a, pr.b) == (b, a):
                return pr, True
        return None, False

    def probability_better(self, a: str, b: str, metric: str) -> float | None:
        """Share of paired resamples in which ``a`` beats ``b`` on ``metric`` (ties count half)."""
        pr, flipped = self._pair(a, b, metric)
        if pr is None:  # a == b
            return 0.5
        if pr.p_a_better is None:
            return None
        return 1.0 - pr.p_a_better if flipped else pr.p_a_better

    def difference(self, a: str, b: str, metric: str) -> Interval:
        """Point estimate and interval of ``metric(a) − metric(b)``."""
        pr, flipped = self._pair(a, b, metric)
        if pr is None:
            return Interval(estimate=0.0, low=0.0, high=0.0)
        d = pr.difference
        if not flipped:
            return d

        def neg(x: float | None) -> float | None:
            return None if x is None else -x

        return Interval(estimate=neg(d.estimate), low=neg(d.high), high=neg(d.low))

    def probability_first(self, metric: str) -> dict[str, float | None]:
        """Each system's probability of ranking first on ``metric``."""
        return {s: r.p_first for s, r in self._metric(metric).systems.items()}

    def winners(self, metric: str) -> list[str]:
        """The winners on ``metric``: with two systems those not separable from the best, with more the top system
        and those a one-sided test against it at ``α/(m − 1)`` does not separate (multiple comparisons with the best,
        :mod:`advisor.stats._familywise`)."""
        return list(self._metric(metric).winners)

    def to_dict(self) -> dict[str, Any]:
        """What ``advisor compare --json`` prints for these systems, as plain Python (infinities stay floats,
        undefined values are None), in the shape of ``docs/schema/advisor-output.schema.json``: per system
        ``metrics[system][metric id]`` (the estimate), ``intervals[system][metric id]`` (estimate, low, high,
        method and the reason of a missing interval), ``p_first``, ``rank_intervals`` and ``nan_resamples``;
        per metric ``pairs``, ``best``, ``winners`` and ``higher_is_better``; ``bootstrap`` (resamples,
        confidence, seed, methods, the test, groups, runs, how the classes were resampled and the resamples that lacked a class). :meth:`from_dict` reads it back."""
        ids = list(self.metrics)
        per_system: dict[str, dict[str, dict[str, Any]]] = {k: {s: {} for s in self.systems} for k in
                                                            ("metrics", "intervals", "p_first", "rank_intervals",
                                                             "nan_resamples")}
        for m, mc in self.metrics.items():
            for s, r in mc.systems.items():
                per_system["metrics"].setdefault(s, {})[m] = r.estimate
                per_system["intervals"].setdefault(s, {})[m] = {
                    "estimate": r.estimate, "low": r.low, "high": r.high, "method": r.method,
                    **({"reason": r.reason} if r.reason is not None else {})}
                per_system["p_first"].setdefault(s, {})[m] = r.p_first
                per_system["nan_resamples"].setdefault(s, {})[m] = r.nan_resamples
            for s, ri in mc.rank_intervals.items():
                per_system["rank_intervals"].setdefault(s, {})[m] = list(ri)
        return envelope("compare", {
            "systems": list(self.systems), "labels": list(self.labels), "n": self.n,
            **per_system,
            "pairs": {m: [p.model_dump() for p in self.metrics[m].pairs] for m in ids},
            "best": {m: list(self.metrics[m].best) for m in ids},
            "winners": {m: list(self.metrics[m].winners) for m in ids},
            "higher_is_better": {m: self.metrics[m].higher_is_better for m in ids},
            "bootstrap": {"n_resamples": self.n_resamples, "confidence": self.confidence, "seed": self.seed,
                          "method": self.method, "winners_method": self.winners_method, "test": self.test,
                          "groups": self.groups, "runs": self.runs, "classes": self.classes,
                          "absent_classes": self.absent_classes, "redrawn": self.redrawn,
                          "one_group_classes": self.one_group_classes},
            "convention": self.convention, "positive_label": self.positive_label, "beta": self.beta,
            "ranking_agreement": self.ranking_agreement.model_dump(), "undefined": self.undefined,
            "mcnemar": [t.model_dump() for t in self.mcnemar],
        })

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Comparison:
        """The comparison :meth:`to_dict` (or ``advisor compare --json``, read with :func:`json.loads`)
        describes: the metrics of ``higher_is_better``, each system's interval, P(first) and rank
        interval, the pairs and winners (the score metrics ``compare`` adds are left out)."""
        systems = list(data["systems"])
        metrics = {}
        for m, higher in data["higher_is_better"].items():
            results = {}
            for s in systems:
                iv = data["intervals"][s][m]
                results[s] = SystemResult(estimate=iv["estimate"], low=iv["low"], high=iv["high"],  # "inf" → inf
                                          method=iv.get("method"), reason=iv.get("reason"),
                                          p_first=data["p_first"][s][m], nan_resamples=data["nan_resamples"][s][m])
            pairs = [PairResult.model_validate(p) for p in data["pairs"][m]]
            ranks = {s: tuple(data["rank_intervals"][s][m]) for s in systems if m in data["rank_intervals"].get(s, {})}
            metrics[m] = MetricComparison(metric=m, higher_is_better=higher, systems=results, pairs=pairs,
                                          best=data["best"][m], winners=data["winners"][m], rank_intervals=ranks)
        b = data["bootstrap"]
        return cls(systems=systems, labels=data["labels"], n=data["n"], n_resamples=b["n_resamples"],
                   confidence=b["confidence"], seed=b["seed"], method=b["method"], winners_method=b["winners_method"],
                   convention=data["convention"], positive_label=data["positive_label"], beta=data["beta"],
                   metrics=metrics, ranking_agreement=RankingAgreement.model_validate(data["ranking_agreement"]),
                   undefined=data["undefined"], mcnemar=[McNemar.model_validate(t) for t in data["mcnemar"]],
                   test=b["test"], groups=b["groups"], runs=b["runs"], classes=b.get("classes", "free"),
                   absent_classes=b.get("absent_classes", {}), redrawn=b.get("redrawn", {}),
                   one_group_classes=b.get("one_group_classes", []))

    @classmethod
    def from_json(cls, text: str) -> Comparison:
        """The comparison of a JSON text written by :meth:`to_json` or ``advisor compare --json``."""
        return cls.from_dict(json.loads(text))

    def records(self) -> list[dict[str, Any]]:
        """One dict per metric and system: ``pandas.DataFrame(comparison.records())``."""
        return comparison_records(self)

    def to_frame(self) -> Any:
        """A pandas DataFrame indexed by (metric, system)."""
        return comparison_frame(self)

    def _repr_html_(self) -> str:
        return comparison_html(self)

    def to_json(self, indent: int | None = 2) -> str:
        """JSON text as ``advisor compare --json`` prints it (:meth:`to_dict`; :mod:`advisor._jsonio`): undefined →
        null, ±inf → "inf"/"-inf"."""
        return dumps(self.to_dict(), indent=indent)
