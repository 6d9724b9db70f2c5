"""The report's scores, probabilities and costs (issue 11): values, item-bootstrap intervals, curves.

:func:`prepare` runs before the metric entries are chosen: it reads the item-level outputs (a
``score`` column or ``p_<label>`` columns, from files, ``--sql``, a DataFrame or arrays), resolves the
costs and priors (given, else the answers' ``error_costs`` and deployment shares) and adds ROC AUC,
average precision, the binary Brier score, ECE, log loss/Brier where missing, and the expected costs
to every system's values. :func:`finish` runs after the matrix-metric intervals: paired item-bootstrap
intervals, winners (each against the top system) and paired differences of those metrics, their chance levels,
and the curves of the ROC/PR figure, the reliability diagram and the cost curve (thinned, kept in the
context so the report re-renders from JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import (
    LOWER_IS_BETTER,
    ConfusionMatrix,
    PriorScores,
    align_probabilities,
    cost_matrix,
    cost_metrics,
    probability_metrics,
    resolve_priors,
    score_classes,
    score_metrics,
)
from ..io import parse_costs, parse_priors, read_scored_frame
from ..stats import compare_scored
from ._build_decisions import decision_values, is_decision_id
from ._build_selective import selective_values
from ._curves_scores import cost_curves, item_curves
from ._models import MANY_CLASSES, ChanceRow, Estimate, IntervalSettings
from ._models_scores import Curve, ScoreData
from ._uncertainty import difference_row, estimate_of

__all__ = ["ScoreState", "finish", "item_ids", "prepare", "prior_scores"]

ITEM_SCORE_IDS = ("roc_auc", "average_precision", "brier_binary", "ece")
COST_IDS = ("expected_cost", "normalized_expected_cost")
_MAX_POINTS = 400  # points kept per curve in the context


@dataclass
class ScoreState:
    """What :func:`prepare` found, for :func:`finish`."""

    labels: list[Any]
    pos: Any
    y: list[Any] | None = None
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    decisions: dict[str, list[Any]] = field(default_factory=dict)
    costs: Any = None
    priors: Any = None
    cost_ids: bool = False
    systems: dict[str, Any] = field(default_factory=dict)
    data: ScoreData = field(default_factory=ScoreData)
    groups: Any = None  # the group of each item (--group): the item bootstrap resamples groups (issue 20)
    decision_params: dict[str, Any] = field(default_factory=dict)  # issue 21: max_fpr, k
    values_seen: list[dict[str, Any]] = field(default_factory=list)
    #: the classes of the probability columns: ``labels``, then classes no item has (engine ``score_classes``)
    score_labels: list[Any] = field(default_factory=list)
    #: the reject label, when some decision is an abstention (issue 23): AURC and the selective risk rank the
    #: abstentions after every answer, scored by their most probable class
    reject: Any = None


def item_ids(state: ScoreState | None) -> set[str]:
    """Metric ids whose intervals come from the item bootstrap here, not from the confusion matrices."""
    if state is None:
        return set()
    decisions = {m for vals in state.values_seen for m in vals if is_decision_id(m)} if state.values_seen else set()
    return {*ITEM_SCORE_IDS, "log_loss", "brier", *(COST_IDS if state.cost_ids else ()), *decisions}


def prior_scores(state: ScoreState | None) -> dict[str, PriorScores]:
    """Per system with probabilities, its items' log loss and Brier scores by true class, for those scores at the class
    shares in use (each class's mean score weighted by its share; :class:`advisor.engine.PriorScores`)."""
    if state is None or state.y is None:
        return {}
    labels = state.score_labels or state.labels
    pos = state.pos if len(labels) == 2 else None
    return {name: PriorScores(state.y, s, labels, positive_label=pos)
            for name, s in state.outputs.items() if s.ndim == 2}


# ----------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------
def _scored_like(x: Any) -> bool:
    return hasattr(x, "y_true") and hasattr(x, "proba") and hasattr(x, "score")


def _items(scores: Any, data: Any, labels: Sequence[Any], names: Sequence[str], reject: Any = None
           ) -> tuple[list[Any] | None, dict[str, np.ndarray], dict[str, list[Any]]]:
    """``(y_true, outputs aligned to labels, item decisions)`` from the forms ``scores`` may take; a decision may be
    the reject label ``reject`` (an abstention, issue 23), kept as it is."""
    label_of = {str(lab): lab for lab in labels}
    if reject is not None:
        label_of.setdefault(str(reject), reject)

    def match(values: Sequence[Any], what: str) -> list[Any]:
        out = []
        for i, v in enumerate(values):
            lab = label_of.get(str(v).strip() if isinstance(v, str) else str(v))
            if lab is None:
                raise InputError(f"{what} item {i + 1} has label {v!r}, which is not one of the classes "
                                 f"({', '.join(map(str, labels[:20]))}).")
            out.append(lab)
        return out

    if scores is None and type(data).__name__ == "Dataset" and getattr(data, "scores", None):
        scores = {k: v for k, v in data.scores.items() if k in names}  # read with the counts (advisor.load)
    if scores is None and _frame(data):
        f = read_scored_frame(data)
        if f is None:
            return None, {}, {}
        name = names[0] if len(names) == 1 else None
        if name is None:
            raise InputError("a DataFrame with score or p_<label> columns must hold one system (y_true, y_pred and its "
                             "scores); give scores={system: …} for several.")
        scores = {name: f}
    if not scores:
        return None, {}, {}
    if not isinstance(scores, Mapping):
        raise InputError(f"scores must map each system to its scores (n values) or probabilities (n × k); got "
                         f"{type(scores).__name__}.")
    y: list[Any] | None = None
    outputs: dict[str, np.ndarray] = {}
    decisions: dict[str, list[Any]] = {}
    for name, s in scores.items():
        name = str(name)
        if name not in names:
            raise InputError(f"scores are given for {name!r}, which is not one of the systems ({', '.join(names)}).")
        if _scored_like(s):
            y_s = match(s.y_true, name)
            if reject is not None and any(str(v) == str(reject) for v in y_s):
                raise InputError(f"the reject label {str(reject)!r} is also a true class of these items; a system's "
                                 "abstention must be a label no item has as its truth.")
            if s.score is not None:
                outputs[name] = np.asarray(s.score, dtype=np.float64)
            elif s.proba is not None:
                outputs[name] = align_probabilities(labels, s.proba, s.proba_labels, name)
            if s.y_pred is not None:
                decisions[name] = match(s.y_pred, name)
        else:
            if not isinstance(data, Mapping) or "y_true" not in data:
                raise InputError("scores given as arrays need the true labels beside them: data={'y_true': …, "
                                 f"'{name}': predicted labels}}.")
            y_s = match(list(data["y_true"]), "y_true")
            outputs[name] = _array(s, len(y_s), len(labels), name)
            if name in data:
                decisions[name] = match(list(data[name]), name)
        if y is not None and [str(v) for v in y] != [str(v) for v in y_s]:
            raise InputError(f"the scores of {name!r} are not on the same items as the others (true labels differ); "
                             "every system must score the same items in the same order.")
        y = y_s
    return y, outputs, decisions


def _array(s: Any, n: int, k: int, name: str) -> np.ndarray:
    try:
        a = np.asarray(s, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"the scores of {name!r} must be numbers; they contain a non-numeric entry.") from None
    if a.ndim == 1 and k != 2:
        raise InputError(f"the scores of {name!r} are a single column but the task has {k} classes; a single "
                         "score needs a binary task — give probabilities, one column per class, instead.")
    if a.shape[0] != n or (a.ndim == 2 and a.shape[1] != k) or a.ndim > 2:
        raise InputError(f"the scores of {name!r} have shape {a.shape}; expected ({n},) for a binary score or "
                         f"({n}, {k}) probabilities.")
    return a


def _frame(data: Any) -> bool:
    return hasattr(data, "columns") and hasattr(data, "shape") and not isinstance(data, Mapping) or (
        type(data).__module__.split(".")[0] == "pyarrow" and hasattr(data, "column_names"))


def resolve_costs(costs: Any, priors: Any, answers: Any, rec_json: Mapping[str, Any],
                  labels: Sequence[Any]) -> tuple[Any, Any]:
    """Costs and priors as given (text, path, mapping), else from the answers (``error_costs``, deployment shares)."""
    costs = parse_costs(costs)
    priors = parse_priors(priors)
    ec = getattr(answers, "error_costs", None)
    if costs is None and ec is not None:
        if ec.false_negative is not None:
            costs = {"fn": ec.false_negative, "fp": ec.false_positive}
        elif ec.matrix is not None and answers.classes and len(answers.classes) == len(ec.matrix):
            costs = {t: dict(zip(answers.classes, row)) for t, row in zip(answers.classes, ec.matrix)}
        elif ec.matrix is not None:  # rows and columns follow `classes`: without them the matrix cannot be placed
            raise InputError("the answers give error_costs.matrix but no classes, whose order its rows and columns "
                             "follow; add classes: [...] to the answers.")
    if priors is None:
        params = (rec_json.get("primary") or {}).get("params") or {}
        if params.get("priors"):
            priors = dict(params["priors"])
        elif getattr(answers, "deployment_prevalence", None) == "shifted" and answers.target_prevalence:
            priors = dict(answers.target_prevalence)
    return costs, priors


# ----------------------------------------------------------------------------------------------
# Values
# ----------------------------------------------------------------------------------------------
def prepare(ev: Any, systems: Mapping[str, Any], scores: Any, data: Any, answers: Any,
            rec_json: Mapping[str, Any], costs: Any, priors: Any, pos: Any,
            confidence: float = 0.95, resamples: int = 0, seed: Any = None) -> tuple[Any, ScoreState | None]:
    """``(evaluation with the score and cost metrics added, state)``; the state is None when there are none.
    ``confidence`` is the report's level: ``1 − δ`` of the coverage with guaranteed risk; ``resamples`` and ``seed``
    those of the groups' bootstrap bound of the error rate at its cut."""
    labels = list(ev.labels)
    names = list(ev.systems)
    reject = getattr(answers, "reject_label", None)
    y, outputs, decisions = _items(scores, data, labels, names, reject)
    given = costs is not None or priors is not None
    costs, priors = resolve_costs(costs, priors, answers, rec_json, labels)
    abstains = reject is not None and any(any(str(v) == str(reject) for v in d) for d in decisions.values())
    if abstains and (costs is not None or priors is not None):
        raise InputError(f"the error costs price the answers, and an abstention (the reject label {str(reject)!r}) has "
                         "no cost in the cost matrix; leave the costs out, or give the abstentions a class of their own.")
    if not outputs and costs is None and priors is None:
        return ev, None
    k = len(labels)
    if pos is None and k == 2:
        pos = ev.positive_label
    state = ScoreState(labels=labels, pos=pos, y=y, outputs=outputs, decisions=decisions, costs=costs, priors=priors,
                       systems=dict(systems), score_labels=_score_labels(labels, scores, data, outputs),
                       reject=reject if abstains else None)
    # the group of each item (--group): the scores' own, or, when the scores come with the loaded files
    # (advisor.load(group=…) and no scores=), the files' — else the API's score intervals resampled single items
    # while the paragraph said groups
    read = scores if isinstance(scores, Mapping) else getattr(data, "scores", None) \
        if type(data).__name__ == "Dataset" else None
    if isinstance(read, Mapping):
        state.groups = next((g for g in (getattr(v, "group", None) for k, v in read.items() if str(k) in names)
                             if g is not None), None)
    state.data.labels_given = bool(outputs)  # the labels are the predictions supplied beside the scores
    values = {name: dict(ev.metrics[name]) for name in names}
    _score_values(state, values)
    decision_values(state, values, rec_json)  # issue 21: budgets, clinical calibration, net benefit
    selective_values(state, values, rec_json, confidence, resamples, seed, state.groups)  # issue 23: AURC, selective risk, the risk–coverage curve
    state.values_seen = list(values.values())
    if costs is not None:  # shares without costs give no expected cost: unit costs would be costs nobody chose
        _cost_values(state, systems, values)
        binary_costs = getattr(getattr(answers, "error_costs", None), "false_negative", None) is not None
        state.data.costs_said = not given and binary_costs and k == 2
        if k == 2 and pos is not None and any(s.ndim == 2 for s in outputs.values()):
            state.data.bayes_threshold = _bayes_threshold(state, systems)
    return ev.model_copy(update={"metrics": values}), state


def _score_labels(labels: list[Any], scores: Any, data: Any, outputs: Mapping[str, np.ndarray]) -> list[Any]:
    """The classes of the probability columns (wider than ``labels`` when a column is for a class no item has)."""
    wide = [s for s in outputs.values() if s.ndim == 2 and s.shape[1] > len(labels)]
    if not wide:
        return list(labels)
    found = scores if scores else getattr(data, "scores", None) or {}
    for f in (found.values() if isinstance(found, Mapping) else ()):
        if _scored_like(f) and f.proba is not None and f.proba.shape[1] == wide[0].shape[1]:
            return score_classes(labels, f.proba_labels)
    return list(labels)  # pragma: no cover - wide outputs come from scored files


def _score_values(state: ScoreState, values: dict[str, dict[str, Any]]) -> None:
    if state.y is None:  # no item scores (costs or shares only): no outputs either
        return
    labels = state.score_labels or state.labels
    for name, s in state.outputs.items():
        kw = {"score": s} if s.ndim == 1 else {"proba": s, "proba_labels": [str(x) for x in labels]}
        v, details = score_metrics(state.y, labels, positive_label=state.pos, what=name, **kw)
        values[name].update(v)
        if s.ndim == 2:
            for m, x in probability_metrics(state.y, s, labels).items():
                values[name].setdefault(m, float(x))
            state.data.calibration_loss[name] = float(details["calibration_loss"])
            state.data.ece_bins = int(str(details["ece_binning"]).split()[0])


def _bayes_threshold(state: ScoreState, systems: Mapping[str, Any]) -> float | None:
    """Positive-class probability above which deciding positive costs less: with p estimated at the test
    shares ρ and used at π, ``p π₊/ρ₊ · c_FN > (1 − p) π₋/ρ₋ · c_FP``."""
    first = next(iter(systems.values()))
    rho = np.asarray(first.true_sizes, dtype=np.float64) / float(first.n)
    pi = resolve_priors(state.priors, state.labels, np.asarray(first.true_sizes, dtype=np.float64))
    c = cost_matrix(state.costs, state.labels, state.pos)
    p = state.labels.index(state.pos)
    a = pi[p] / rho[p] * c[p, 1 - p]
    b = pi[1 - p] / rho[1 - p] * c[1 - p, p]
    return float(b / (a + b)) if a + b > 0 and np.all(rho > 0) else None


def _cost_values(state: ScoreState, systems: Mapping[str, Any], values: dict[str, dict[str, Any]]) -> None:
    for name, cm in systems.items():
        values[str(name)].update(cost_metrics(cm, state.costs, state.priors, positive_label=state.pos))
    state.cost_ids = True
    c = cost_matrix(state.costs, state.labels, state.pos)
    state.data.costs = [[float(x) for x in row] for row in c]
    state.data.cost_labels = [str(x) for x in state.labels]
    if state.priors is not None:
        pi = resolve_priors(state.priors, state.labels, np.ones(len(state.labels)))
        state.data.priors = {str(lab): float(p) for lab, p in zip(state.labels, pi)}


# ----------------------------------------------------------------------------------------------
# Intervals, winners, chance levels and curves
# ----------------------------------------------------------------------------------------------
def finish(state: ScoreState, results: Any, joint: Any, entries: Sequence[Any], st: Any) -> ScoreData:
    """Item-bootstrap intervals, winners and differences of the score and cost metrics; chance rows; curves."""
    reported = [m.id for m in entries]

    # many classes: the item bootstrap of k rankings only for the recommended metrics (the appendix gives estimates)
    recommended = reported if len(state.labels) <= MANY_CLASSES else [m.id for m in entries if m.role != "appendix"]
    names = [r.name for r in results.reports]
    if st.bootstrap > 0:
        score_ids = [m for m in recommended if (m in (*ITEM_SCORE_IDS, "log_loss", "brier") or is_decision_id(m))
                     and all(r.values.get(m) is not None for r in results.reports)]
        if score_ids and set(state.outputs) == set(names):
            cmp = _compare({n: state.outputs[n] for n in names}, state, score_ids, st, state.y, state.decisions,
                           state.groups, scores=True)
            _apply(results, cmp, st)
            state.data.item_bootstrap = True
            state.data.calibration = dict(cmp.calibration)
        cost_ids = [m for m in recommended if m in COST_IDS and state.cost_ids]
        items = _decision_items(state, names, joint, getattr(st, "groups", None)) if cost_ids else None
        if items is not None:
            y, dec, _ = items
            uniform = np.full((len(y), len(state.labels)), 1.0 / len(state.labels))
            _apply(results, _compare({n: uniform for n in names}, state, cost_ids, st, y, dec, items[2]), st)
            state.data.item_bootstrap = True
        elif cost_ids and joint is None:
            _unpaired_costs(state, results, cost_ids, st)
        for rep in results.reports:  # the coverage at the frozen cut: its interval over resamples of the test half
            frozen = state.data.frozen_cut.get(rep.name)
            if "coverage_guaranteed_risk" in reported and frozen is not None:
                rep.intervals["coverage_guaranteed_risk"] = estimate_of(dict(frozen["test"]["coverage"]))
            at = state.data.frozen_coverage.get(rep.name)  # the selective risk at the cut frozen for a coverage
            if "risk_at_frozen_coverage" in reported and at is not None:
                rep.intervals["risk_at_frozen_coverage"] = estimate_of(dict(at["test"]["risk"]))
    _chance_rows(state, results, reported)
    _curves(state, results)
    return state.data


def _compare(outputs: Mapping[str, np.ndarray], state: ScoreState, ids: list[str], st: Any, y: Any,
             decisions: Mapping[str, Any], groups: Any = None, scores: bool = False) -> Any:
    """The paired item bootstrap of ``ids``; ``scores``: probability metrics over the probability columns' classes
    (wider than the items' classes when a column is for a class no item has; costs are not among them then)."""
    labels = state.score_labels if scores and state.score_labels else state.labels
    wide = len(labels) > len(state.labels)
    dec = {n: decisions[n] for n in outputs if n in decisions} if decisions and not wide else None
    if dec is not None and set(dec) != set(outputs):
        dec = None
    return compare_scored(y, dict(outputs), labels, positive_label=state.pos, metrics=ids, decisions=dec,
                          costs=None if wide else state.costs, priors=None if wide else state.priors,
                          n_resamples=st.bootstrap, confidence=st.confidence, seed=st.seed, groups=groups,
                          params=state.decision_params, reject_label=state.reject)


def _unpaired_costs(state: ScoreState, results: Any, ids: list[str], st: Any) -> None:
    """Confusion matrices of unpaired systems: each one's items resampled on its own (the same seed for every
    system, as the matrix metrics' unpaired intervals); no winners."""
    for rep in results.reports:
        m = np.asarray(state.systems[rep.name].counts, dtype=np.float64)
        if not np.all(m == np.round(m)) or m.sum() > 5_000_000:
            continue
        t, d = np.nonzero(m)
        reps = m[t, d].astype(np.int64)
        y = [state.labels[i] for i in np.repeat(t, reps)]
        dec = {rep.name: [state.labels[j] for j in np.repeat(d, reps)]}
        uniform = np.full((len(y), len(state.labels)), 1.0 / len(state.labels))
        cmp = _compare({rep.name: uniform}, state, ids, st, y, dec)
        for mid in ids:
            lo, hi = cmp.intervals[mid][rep.name]
            rep.intervals[mid] = Estimate(estimate=_num(cmp.estimates[mid][rep.name]), low=_num(lo), high=_num(hi),
                                          method=cmp.methods.get(mid, {}).get(rep.name),
                                          reason=cmp.reasons.get(mid, {}).get(rep.name))


def _decision_items(state: ScoreState, names: Sequence[str], joint: Any,
                    row_groups: Any = None) -> tuple[Any, dict[str, Any], Any] | None:
    """Item-level true labels, decisions and groups (None without --group) for the cost bootstrap: the files'
    rows, else the joint table's whole counts expanded (the items' order does not matter, only that they are
    paired; ``row_groups``: the group of each joint row)."""
    if state.y is not None and set(state.decisions) >= set(names):
        return state.y, state.decisions, state.groups
    if joint is None or list(joint.systems) != list(names):
        return None
    counts = np.asarray(joint.counts, dtype=np.float64)
    if not np.all(counts == np.round(counts)) or counts.sum() > 5_000_000:
        return None
    reps = counts.astype(np.int64)
    labels = list(joint.labels)
    y = [labels[i] for i in np.repeat(joint.codes[:, 0], reps)]
    dec = {n: [labels[i] for i in np.repeat(joint.codes[:, j + 1], reps)] for j, n in enumerate(names)}
    return y, dec, None if row_groups is None else np.repeat(np.asarray(row_groups), reps)


def _num(x: Any) -> float | None:
    if x is None:
        return None
    v = float(x)
    return None if np.isnan(v) else v


def _apply(results: Any, cmp: Any, st: Any) -> None:
    reports = results.reports
    for rep in reports:
        for m in cmp.metrics:
            lo, hi = cmp.intervals[m][rep.name]
            rep.intervals[m] = estimate_of({"estimate": cmp.estimates[m][rep.name], "low": lo, "high": hi,
                                            "method": cmp.methods.get(m, {}).get(rep.name),
                                            "reason": cmp.reasons.get(m, {}).get(rep.name)})
    if len(reports) > 1:
        for m in cmp.metrics:
            results.winners[m] = list(cmp.winners[m])
    if len(reports) == 2:
        a, b = reports[0].name, reports[1].name
        for m in cmp.metrics:
            pair = next(p for p in cmp.pairs[m] if {p["a"], p["b"]} == {a, b})
            flip = 1.0 if pair["a"] == a else -1.0
            sign = -1.0 if m in LOWER_IS_BETTER else 1.0
            d = pair["difference"]
            lo, hi = (d["low"], d["high"]) if flip > 0 else (_neg(d["high"]), _neg(d["low"]))
            # difference_row turns a lower-is-better interval with its dot, so positive means a is better
            better = pair["probability_better"] if flip > 0 or pair["probability_better"] is None else \
                1.0 - pair["probability_better"]
            results.figures.differences = [r for r in results.figures.differences if r.metric != m]
            results.figures.differences.append(difference_row(
                m, cmp.estimates[m][a] - cmp.estimates[m][b], lo, hi, sign,
                {"p_a_better": better, "p_value": pair["p_value"], "test": pair["test"],
                 "resolvable": pair["resolvable"]}))
    if results.intervals is None:
        results.intervals = IntervalSettings(n_resamples=st.bootstrap, confidence=st.confidence, seed=st.seed,
                                             paired=len(reports) > 1, classes=cmp.classes, redrawn=dict(cmp.redrawn))


def _neg(x: float | None) -> float | None:
    return None if x is None else -x


def _chance_rows(state: ScoreState, results: Any, reported: Sequence[str]) -> None:
    """Chance levels: ROC AUC 0.5; average precision the positive share; the binary Brier score of a constant 1/2,
    of each class's share (π(1 − π)) and of all on the larger class (1 − π_max); the expected costs of the three
    reference classifiers' expected confusion matrices."""
    rows: list[ChanceRow] = []
    first = results.reports[0] if results.reports else None
    if first is None or not first.confusion:
        return
    a = np.asarray(first.confusion, dtype=np.float64).sum(axis=1)
    k, n = len(a), float(a.sum())
    if "roc_auc" in reported and state.outputs:
        rows.append(ChanceRow(metric="roc_auc", uniform=0.5, prevalence=0.5, majority=0.5))
    if "brier_binary" in reported and state.outputs and k == 2:  # half the two-class sum's (probability_chance_levels)
        share = float(a.max() / n)  # a constant 1/2, each class's share, all on the larger class
        rows.append(ChanceRow(metric="brier_binary", uniform=0.25, prevalence=_num(share * (1 - share)),
                              majority=_num(1 - share)))
    if "average_precision" in reported and state.outputs and k == 2 and state.pos is not None:
        share = float(a[state.labels.index(state.pos)] / n)
        rows.append(ChanceRow(metric="average_precision", uniform=share, prevalence=share, majority=share))
    if state.cost_ids and any(m in reported for m in COST_IDS):
        ref = {"uniform": np.outer(a, np.ones(k)) / k, "prevalence": np.outer(a, a) / n,
               "majority": np.outer(a, np.eye(k)[int(np.argmax(a))])}
        vals = {key: cost_metrics(ConfusionMatrix(m, state.labels), state.costs, state.priors, positive_label=state.pos)
                for key, m in ref.items()}
        for mid in COST_IDS:
            if mid in reported:
                rows.append(ChanceRow(metric=mid, **{key: _num(v[mid]) for key, v in vals.items()}))
    have = {r.metric for r in results.chance}
    results.chance += [r for r in rows if r.metric not in have]
    order = {m: i for i, m in enumerate(reported)}
    results.chance.sort(key=lambda r: order.get(r.metric, len(order)))


def _pos_index(state: ScoreState) -> Any:
    return None if state.pos is None else state.labels.index(state.pos)


def _curves(state: ScoreState, results: Any) -> None:
    labels = state.labels
    pos = _pos_index(state)
    if state.y is not None:
        every = state.score_labels or labels
        at = {str(v): j for j, v in enumerate(every)}
        item_curves(state.data, np.array([at[str(v)] for v in state.y]), state.outputs, every, pos)
    if state.cost_ids and len(labels) == 2 and pos is not None and state.data.costs is not None:
        cost_curves(state.data, {r.name: r.confusion for r in results.reports}, labels, pos)
