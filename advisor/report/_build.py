"""Stage 1: compute everything a report shows into a :class:`ReportContext`.

Nothing here formats text for a particular output: numbers stay numbers, user strings stay raw
(the renderer escapes them), formulas stay the catalogue's LaTeX.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ._models import (
    ChanceRow,
    DifferenceRow,
    Estimate,
    FigureData,
    IntervalSettings,
    MetricEntry,
    PerClassRow,
    PrevalenceCurve,
    RankingData,
    Reference,
    ReportContext,
    SystemReport,
    TaskInfo,
    UndefinedEntry,
    WarningEntry,
)

__all__ = ["build_report"]

_LOG = logging.getLogger(__name__)


def _f(v: Any) -> float | None:
    """A finite float, or None (undefined); infinities are kept."""
    if v is None:
        return None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


# ----------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------
def _load_answers(answers: Any) -> Any:
    from ..questionnaire import Answers, load_answers

    if isinstance(answers, Answers):
        return answers
    if isinstance(answers, (str, os.PathLike)):
        return load_answers(Path(answers))
    if isinstance(answers, Mapping):
        from ..questionnaire._answers import answers_from_mapping

        return answers_from_mapping(dict(answers))
    if answers is None:
        return Answers()
    raise InputError(f"answers must be an Answers object, a mapping or an answers file; got {type(answers).__name__}.")


def _systems_of(data: Any) -> tuple[dict[str, Any], Any, dict[str, dict[str, float]], list[str]]:
    """(name → ConfusionMatrix, joint table or None, probability scores, notes)."""
    from .._confusion import ConfusionMatrix

    if data is None:
        return {}, None, {}, []
    if hasattr(data, "systems") and hasattr(data, "joint"):
        return (dict(data.systems), data.joint, dict(getattr(data, "probabilities", {}) or {}),
                list(getattr(data, "notes", []) or []))
    if isinstance(data, ConfusionMatrix):
        return {"system": data}, None, {}, []
    if isinstance(data, Mapping):
        out = {}
        for name, m in data.items():
            out[str(name)] = m if isinstance(m, ConfusionMatrix) else ConfusionMatrix(m)
        if not out:
            raise InputError("no systems to report on; give at least one prediction file or matrix.")
        return out, None, {}, []
    raise InputError(
        f"data must be a PredictionSet (read_predictions) or a mapping of system name to confusion matrix; "
        f"got {type(data).__name__}."
    )


def _match_label(labels: Sequence[Any], wanted: Any, what: str) -> Any:
    for lab in labels:
        if lab == wanted or str(lab) == str(wanted):
            return lab
    shown = ", ".join(str(x) for x in labels[:20])
    raise InputError(f"{what} {wanted!r} is not one of the classes in the data ({shown}).")


def _check_arguments(*, title: Any, undefined: Any, digits: Any) -> None:
    """One sentence naming the argument, the value and what is allowed — before any work is done."""
    from .._metrics import CONVENTIONS

    if title is not None and not isinstance(title, str):
        raise InputError(f"title must be text (a str) or None; got {title!r} ({type(title).__name__}).")
    if not isinstance(undefined, str) or undefined not in CONVENTIONS:
        raise InputError(f"undefined must be one of {', '.join(CONVENTIONS)}; got {undefined!r}.")
    if not isinstance(digits, int) or isinstance(digits, bool) or not 0 <= digits <= 15:
        raise InputError(f"digits must be a whole number of decimals from 0 to 15; got {digits!r}.")


def _check_positive(positive_label: Any, answered: Any) -> None:
    """Refuse a positive class that contradicts the answers: the methods text and the numbers would disagree."""
    if positive_label is None or answered is None or str(positive_label) == str(answered):
        return
    raise InputError(f"the positive class {str(positive_label)!r} (positive_label, --positive) contradicts "
                     f"positive_class {str(answered)!r} in the answers; give the same class, or change the "
                     "answers and leave --positive out.")


# ----------------------------------------------------------------------------------------------
# Catalogue and references
# ----------------------------------------------------------------------------------------------
def _catalogue() -> Any:
    from ..catalogue import get_catalogue

    return get_catalogue()


def _bibliography() -> dict[str, Any]:
    from ..catalogue import BIB_FILE
    from ._bib import parse_bibtex

    try:
        return parse_bibtex(BIB_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _LOG.warning("references.bib not found beside the catalogue; the report has no bibliography")
        return {}


def _keys_in(source: str | None, bib: Mapping[str, Any]) -> list[str]:
    """BibTeX keys a free-text source ("opitz2024, Table 5" or "Opitz (2024)") refers to."""
    if not source:
        return []
    low = source.lower()
    keys = [k for k in bib if k.lower() in low]
    if keys:
        return keys
    out = []
    for k, e in bib.items():
        short = e.short.lower()
        last = short.split(" ")[0].rstrip(",")
        if e.year.lower() in low and last and last in low:
            out.append(k)
    return out[:2]


def _metric_entry(mid: str, rec: Any, role: str, reason: str | None, params: Mapping[str, Any],
                  pos_label: Any, beta: float) -> MetricEntry:
    from ._methods import VARIANT_NOTES

    variant = VARIANT_NOTES.get(mid)
    if mid in ("precision", "recall", "f1", "f_beta", "jaccard", "specificity", "npv") and pos_label is not None:
        variant = f"{_get(rec, 'name', mid)} refers to the positive class “{pos_label}”"
        if mid == "f_beta":
            variant += f", with β = {beta:g} (recall weighted β times as much as precision)"
    if rec is None:
        return MetricEntry(id=mid, name=mid.replace("_", " "), formula="", role=role, reason=reason,
                           variant=variant, params=dict(params))
    return MetricEntry(
        id=mid,
        name=rec.name,
        formula=rec.formula,
        interpretation=rec.interpretation,
        higher_is_better=rec.higher_is_better,
        role=role,  # type: ignore[arg-type]
        reason=reason,
        variant=variant,
        params=dict(params),
        references=list(rec.references),
        chance_level=rec.chance_level,
    )


def _property_status(cat: Any, ids: Sequence[str], bib: Mapping[str, Any]) -> dict[str, dict[str, tuple[str, list[str]]]]:
    out: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for mid in ids:
        rec = cat.metrics.get(mid)
        if rec is None:
            continue
        out[mid] = {}
        for pid, claim in rec.properties.items():
            out[mid][pid] = (claim.status, [k for k in _keys_in(claim.source, bib) if k in bib])
    return out


# ----------------------------------------------------------------------------------------------
# The build
# ----------------------------------------------------------------------------------------------
def build_report(
    answers: Any,
    data: Any = None,
    *,
    title: str | None = None,
    bootstrap: int = 2000,
    confidence: float = 0.95,
    seed: int | None = None,
    positive_label: Any = None,
    undefined: str = "zero",
    recommendation: Any = None,
    digits: int = 4,
    progress: Any = None,
) -> ReportContext:
    """Compute a report's context from the answers and the data.

    Parameters
    ----------
    answers : Answers, mapping or path
        The questionnaire's answers (see ``advisor ask``).
    data : PredictionSet or mapping name → ConfusionMatrix, optional
        From :func:`advisor.read_predictions` (paired: winners and ranking agreement are computed on
        the same items) or confusion matrices (unpaired intervals per system). ``None`` builds the
        methods part only.
    title : str, optional
    bootstrap : int
        Number of bootstrap resamples for the intervals (0: no intervals).
    confidence : float
        Coverage of the intervals.
    seed : int, optional
        Seed of the resampling, for reproducible intervals.
    positive_label : optional
        Positive class of a binary task (default: the answers' ``positive_class``).
    undefined : {"zero", "baseline", "omit"}
        Convention for undefined values.
    recommendation : Recommendation or mapping, optional
        Use this recommendation instead of computing one from the answers.
    digits : int
        Decimals printed (the same as ``advisor compute``).

    Examples
    --------
    >>> import advisor
    >>> ctx = build_report({"task": "binary", "positive_class": 1},
    ...                    {"a": [[50, 10], [5, 35]]}, bootstrap=200, seed=1)  # doctest: +SKIP
    >>> ctx.primary in ctx.systems[0].values  # doctest: +SKIP
    True
    """
    from .. import __version__
    from ._methods import build_methods

    _check_arguments(title=title, undefined=undefined, digits=digits)
    ans = _load_answers(answers)
    _check_positive(positive_label, ans.positive_class)
    # the keys the user answered; the methods text marks the others as the questionnaire's defaults
    given: set[str] | None = set(ans.model_fields_set) if answers is not None else None
    systems, joint, probs, data_notes = _systems_of(data)
    if bootstrap is None:
        bootstrap = 0
    if not isinstance(bootstrap, int) or isinstance(bootstrap, bool) or bootstrap < 0:
        raise InputError(f"bootstrap must be a whole number of resamples ≥ 0; got {bootstrap!r}.")
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise InputError(f"confidence must be a number between 0 and 1; got {confidence!r}.")

    # -- recommendation --------------------------------------------------------------------
    if recommendation is None:
        from ..questionnaire import recommend

        # the matrices as read here (a mapping may hold plain lists of counts)
        recommendation = (recommend(ans, data=data if hasattr(data, "systems") else systems) if systems
                          else recommend(ans))
    rec_json: dict[str, Any] = (recommendation.to_json_dict() if hasattr(recommendation, "to_json_dict")
                                else dict(recommendation))
    answers_dict = rec_json.get("answers") or ans.model_dump(mode="json")
    primary_id = str(rec_json["primary"]["metric"])
    primary_params = dict(rec_json["primary"].get("params") or {})

    cat = _catalogue()
    bib = _bibliography()
    warnings = [WarningEntry(code=str(_get(w, "code", "note")), message=str(_get(w, "message", w)))
                for w in rec_json.get("warnings") or []]

    # -- data ------------------------------------------------------------------------------
    first = next(iter(systems.values()), None)
    pos = positive_label if positive_label is not None else answers_dict.get("positive_class")
    task: TaskInfo | None = None
    if first is not None:
        if pos is not None:
            if first.k == 2 or positive_label is not None:
                pos = _match_label(first.labels, pos, "positive label")
            else:
                pos = None
        task = TaskInfo(
            kind="binary" if first.k == 2 else "multiclass",
            k=first.k,
            labels=[str(x) for x in first.labels],
            class_sizes=[float(x) for x in first.true_sizes],
            n=float(first.n),
            positive_label=None if pos is None else str(pos),
        )

    # -- metrics ---------------------------------------------------------------------------
    primary_reason = getattr(getattr(recommendation, "primary", None), "reason", None) or rec_json["primary"].get("reason")
    rec_items: list[tuple[str, str, str | None, dict[str, Any]]] = [
        ("primary", primary_id, primary_reason or None, primary_params)
    ]
    for item in rec_json.get("complementary") or []:
        rec_items.append(("complementary", str(item["metric"]), _get(item, "reason"), dict(_get(item, "params") or {})))
    # β of Fβ, whether Fβ leads or is reported beside the primary metric (one β per report)
    beta = next((float(params["beta"]) for _, mid, _, params in rec_items
                 if mid == "f_beta" and params.get("beta") is not None), 1.0)

    from .._metrics import METRICS

    ev = None
    computed: list[str] = []
    if systems:
        from .._evaluate import evaluate

        ev = evaluate(systems, positive_label=pos, beta=beta, undefined=undefined,
                      probabilities=probs or None)
        computed = list(ev.metrics[next(iter(ev.metrics))])

    entries: list[MetricEntry] = []
    seen: set[str] = set()
    for role, mid, reason, params in rec_items:
        if mid in seen:
            continue
        if systems and mid not in computed:
            spec = METRICS.get(mid)
            why = ("it needs predicted probabilities" if spec is not None and spec.needs_probabilities
                   else "it needs a positive class of a two-class task" if spec is not None and spec.binary_only
                   else "it is not computed from a confusion matrix")
            warnings.append(WarningEntry(code="metric_not_computed", source="report",
                                         message=f"{mid} was recommended but is not reported: {why}."))
            if role != "primary":
                continue
        seen.add(mid)
        entries.append(_metric_entry(mid, cat.metrics.get(mid), role, reason, params, pos, beta))
    appendix_ids = [m for m in computed if m not in seen and not (METRICS.get(m) and METRICS[m].alias_of)]
    for mid in appendix_ids:
        entries.append(_metric_entry(mid, cat.metrics.get(mid), "appendix", None, {}, pos, beta))
        seen.add(mid)
    for m in entries:
        if not m.formula:
            _LOG.warning("metric %s has no formula in the catalogue", m.id)

    discouraged = []
    for item in rec_json.get("discouraged") or []:
        mid = str(_get(item, "metric"))
        rec = cat.metrics.get(mid)
        discouraged.append({"metric": mid, "name": rec.name if rec else mid, "reason": str(_get(item, "reason", ""))})

    # -- per system ------------------------------------------------------------------------
    reports: list[SystemReport] = []
    chance: list[ChanceRow] = []
    winners: dict[str, list[str]] = {}
    intervals: IntervalSettings | None = None
    figures = FigureData()
    undefined_total = 0
    if ev is not None:
        for name in ev.systems:
            cm = systems[name]
            rows = []
            for lab in cm.labels:
                r = ev.per_class[name][str(lab)]
                rows.append(PerClassRow(label=str(lab), support=r["support"], predicted=r["predicted"],
                                        precision=_f(r["precision"]), recall=_f(r["recall"]), f1=_f(r["f1"]),
                                        jaccard=_f(r.get("jaccard")), specificity=_f(r.get("specificity")),
                                        npv=_f(r.get("npv"))))
            und = []
            for u in ev.undefined[name]:
                und.append(UndefinedEntry(metric=str(u["metric"]), quantity=str(u["quantity"]),
                                          label=None if u.get("label") is None else str(u["label"]),
                                          reason=str(u["reason"]), resolution=str(u["resolution"]),
                                          value=_f(u.get("value"))))
            undefined_total += len(und)
            reports.append(SystemReport(
                name=name,
                values={m: _f(v) for m, v in ev.metrics[name].items()},
                per_class=rows,
                confusion=[[float(x) for x in row] for row in cm.counts],
                undefined=und,
            ))
        for m in entries:
            if m.id in ev.chance:
                ch = ev.chance[m.id]
                chance.append(ChanceRow(metric=m.id, uniform=_f(ch.get("uniform")),
                                        prevalence=_f(ch.get("prevalence")), majority=_f(ch.get("majority"))))

        # -- intervals, winners, ranking agreement ------------------------------------------
        matrix_ids = [m.id for m in entries if m.id in computed and m.id in METRICS
                      and not METRICS[m.id].needs_probabilities]
        if bootstrap > 0 and matrix_ids:
            if joint is not None:
                from .._compare import compare_joint

                cmp = compare_joint(joint, n_resamples=bootstrap, seed=seed, metrics=matrix_ids,
                                    confidence=confidence, positive_label=pos, beta=beta,
                                    undefined=undefined, progress=progress)
                for rep in reports:
                    for mid, mc in cmp.metrics.items():
                        sr = mc.systems.get(rep.name)
                        if sr is None:
                            continue
                        rep.intervals[mid] = Estimate(estimate=_f(sr.estimate), low=_f(sr.low), high=_f(sr.high))
                        rep.p_first[mid] = _f(sr.p_first)
                if len(reports) > 1:
                    winners = {mid: list(mc.winners) for mid, mc in cmp.metrics.items()}
                if len(reports) == 2:
                    a, b = reports[0].name, reports[1].name
                    figures.difference_pair = [a, b]
                    for mid in cmp.metrics:
                        d = cmp.difference(a, b, mid)
                        sign = 1.0 if cat.metrics.get(mid) is None or cat.metrics[mid].higher_is_better else -1.0
                        lo, hi = _f(d.low), _f(d.high)
                        if sign < 0 and lo is not None and hi is not None:
                            lo, hi = -hi, -lo
                        est = _f(d.estimate)
                        figures.differences.append(DifferenceRow(
                            metric=mid, estimate=None if est is None else sign * est, low=lo, high=hi))
                ra = cmp.ranking_agreement
                if len(reports) > 1:
                    figures.ranking = RankingData(metrics=list(ra.metrics), kendall=ra.kendall,
                                                  spearman=ra.spearman, note=ra.note)
                intervals = IntervalSettings(method=cmp.method, n_resamples=bootstrap, confidence=confidence,
                                             seed=seed, paired=True)
            else:
                from .._bootstrap import bootstrap as run_bootstrap

                # the same seed for every system, as `advisor compute --bootstrap N --seed S`: each
                # interval can be reproduced from its own matrix alone
                for rep in reports:
                    bs = run_bootstrap(systems[rep.name], n_resamples=bootstrap, confidence=confidence, seed=seed,
                                       metrics=matrix_ids, positive_label=pos, beta=beta, undefined=undefined)
                    for mid in matrix_ids:
                        r = bs[mid]
                        rep.intervals[mid] = Estimate(estimate=_f(r["estimate"]), low=_f(r["low"]), high=_f(r["high"]))
                intervals = IntervalSettings(n_resamples=bootstrap, confidence=confidence, seed=seed, paired=False)
        if figures.ranking is None and len(reports) > 1:
            figures.ranking = _point_ranking(reports, [m.id for m in entries if m.id in METRICS
                                                       and not METRICS[m.id].needs_probabilities])

        # -- prevalence sensitivity of the primary metric -----------------------------------
        if primary_id in computed and not METRICS[primary_id].needs_probabilities:
            from .._prevalence import prevalence_sensitivity

            cls = pos if (pos is not None and first is not None and first.k == 2) else None
            try:
                for rep in reports:
                    s = prevalence_sensitivity(systems[rep.name], primary_id, class_label=cls, grid=49,
                                               positive_label=pos, beta=beta, undefined=undefined)
                    figures.prevalence.append(PrevalenceCurve(
                        system=rep.name,
                        share=[float(x) for x in s["share"]],
                        value=[_f(x) for x in s["value"]],
                        observed_share=float(s["observed_share"]),
                        observed_value=_f(s.get("observed_value")),
                    ))
                    figures.prevalence_class = str(s["class_label"])
                figures.prevalence_metric = primary_id
            except InputError as exc:
                figures.prevalence = []
                _LOG.info("no prevalence curve: %s", exc)

        # a small test set is flagged by the recommendation's small_sample warning (its thresholds)
        for note in data_notes:
            warnings.append(WarningEntry(code="data", message=str(note), source="report"))

    elif bootstrap > 0:
        intervals = IntervalSettings(n_resamples=bootstrap, confidence=confidence, seed=seed, paired=False)

    # -- methods and references ------------------------------------------------------------
    status = _property_status(cat, [m.id for m in entries if m.role != "appendix"], bib)

    def cite(author: str, year: str) -> str | None:
        for k, e in bib.items():
            if author.lower() in e.fields.get("author", "").lower() and e.year == year:
                return k
        return None

    methods = build_methods(
        answers_dict, rec_json, entries, names={**{m: r.name for m, r in cat.metrics.items()},
                                                **{m.id: m.name for m in entries}},
        property_status=status, cite=cite, given=given,
        cite_source=lambda src: [k for k in _keys_in(src, bib) if k in bib], task=task, convention=undefined,
        undefined_count=undefined_total if ev is not None else None, chance=chance, intervals=intervals,
        n_systems=len(reports), digits=digits,
    )
    used: list[str] = []
    for p in methods:
        for sp in p.spans:
            if sp.kind == "cite":
                used += sp.keys
    for m in entries:
        used += m.references
    references = []
    for key in dict.fromkeys(used):
        e = bib.get(key)
        if e is not None:
            references.append(Reference(key=key, text=e.text, short=e.short, bibtex=e.raw))
    for m in entries:
        m.references = [k for k in m.references if k in bib]
    for p in methods:
        for sp in p.spans:
            if sp.kind == "cite":
                sp.keys = [k for k in sp.keys if k in bib]

    if title is None:
        title = "Evaluation of " + (", ".join(s.name for s in reports) if 0 < len(reports) <= 4 else
                                    f"{len(reports)} classifiers" if reports else "a classifier")
    return ReportContext(
        advisor_version=__version__,
        title=title,
        digits=digits,
        task=task,
        convention=undefined,
        answers=answers_dict,
        primary=primary_id,
        metrics=entries,
        discouraged=discouraged,
        methods=methods,
        systems=reports,
        winners=winners,
        chance=chance,
        intervals=intervals,
        warnings=warnings,
        references=references,
        figures=figures,
        notes=answers_dict.get("notes"),
    )


def _point_ranking(reports: Sequence[SystemReport], ids: Sequence[str]) -> RankingData | None:
    """Rank agreement from point estimates, when no paired comparison was run."""
    import numpy as np

    from .._compare import average_ranks, kendall_tau_b, spearman_rho
    from ..catalogue import lower_is_better

    ids = [m for m in ids if all(r.values.get(m) is not None for r in reports)]
    if len(ids) < 2:
        return None
    pts = np.array([[r.values[m] for r in reports] for m in ids], dtype=float)
    sign = np.array([-1.0 if m in lower_is_better() else 1.0 for m in ids])[:, None]
    ranks = average_ranks(pts * sign)

    def clean(a: Any) -> list[list[float | None]]:
        return [[None if not np.isfinite(x) else float(x) for x in row] for row in np.asarray(a)]

    return RankingData(metrics=list(ids), kendall=clean(kendall_tau_b(ranks)), spearman=clean(spearman_rho(ranks)))
