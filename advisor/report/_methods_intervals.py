"""The methods paragraph's sentence about intervals and comparisons (issue 20).

It says, in as few words as the 220-word paragraph allows: the interval method of the reported metrics
(BCa for most, exact Clopper–Pearson for the proportions; before data, that a share of top-k scores takes BCa
where tied scores give an item part of a hit), the number of resamples and what they
resample (the test items, in the answers' word for them: "children"), the seed (always: picked when none was given), how systems are separated
(the interval of the paired difference — Newcombe's, with McNemar's exact test, for a paired proportion with an
exact interval — and, for more than two systems, each system's one-sided test against the top one at α/(m − 1)) and, for a reported metric
without an interval, why.
Where units (patients, speakers) were resampled, the intervals are the delete-one-unit jackknife's t intervals, said
with their degrees of freedom (Cameron & Miller 2015; benchmarks/bench_few_groups_methods.py measured them beside BCa),
and with data from fewer of them than :data:`FEW_GROUPS` a sentence says that they are approximate.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from typing import Any

from ..questionnaire import article, lower_name, plural
from ..stats import JACKKNIFE_EXACT_UNITS, JACKKNIFE_SETS, PAIRED_PROPORTIONS, PARTITION_NO_INTERVAL, \
    PARTITION_PAIR_DISTINCT, interval_methods
from . import _methods_text as W
from ._folds import mean_sd
from ._models import IntervalSettings, MetricEntry

__all__ = ["FEW_GROUPS", "first_shares_words", "intervals_sentence", "jackknife_unit", "method_words", "tied_note", "unit_noun"]

_RESAMPLED = {"bca": "BCa", "basic": "basic bootstrap", "percentile": "percentile"}
#: Interval methods that come from the resampled values or, for resampled units, the jackknife over them.
_UNIT_METHODS = (*_RESAMPLED, "jackknife_t")
_UNIT = "test items"
#: Below this many resampled groups the methods text says the intervals are approximate. Measured, not chosen:
#: benchmarks/README.md, sections `bench_few_groups.py` and `bench_few_groups_methods.py`, where BCa from resampled
#: groups covered 0.85–0.90 with 8–10 groups and first reached about 0.93 with 40, and the jackknife t interval that
#: replaced it covered 0.91–0.95 with 5–22 groups and 0.94–0.96 with 50–100.
FEW_GROUPS = 40


def method_words(intervals: IntervalSettings) -> str:
    """The resampling method most metrics' intervals used, in words (BCa by default)."""
    counts: dict[str, int] = {}
    for m in intervals.methods.values():
        if m in _RESAMPLED:
            counts[m] = counts.get(m, 0) + 1
    best = max(counts, key=lambda m: counts[m]) if counts else "bca"
    return _RESAMPLED.get(best, "BCa") if intervals.method in ("auto", "") or intervals.method in _RESAMPLED \
        else intervals.method


#: Purity and inverse purity: no interval and no test either (advisor/stats/_partitions.py), for a bias of their own
_SHARES = ("purity", "inverse_purity")


def _join(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _lower(name: str) -> str:
    """A metric's short name in running text: "Recall (sensitivity, true positive rate)" → "recall"."""
    return lower_name(name.split(" (")[0])  # an eponym keeps its capital ("Brier score", not "brier score")


def unit_noun(column: str, items: str) -> str | None:
    """The plural noun a group column names ("patient_id" → "patients"), or None (a code, or the items' own word)."""
    stem = re.sub(r"(?i)[\s_-]*(?:ids?|codes?|keys?|no|nr|number)$", "", column.strip())
    noun = plural(stem.lower()) if re.fullmatch(r"[A-Za-z]{3,}", stem) else None
    return noun if noun and noun != items else None


def _group_unit(column: str, groups: int | None, items: str) -> str:
    """What the resampling unit is, in words: "1,203 patients, not single lesions" when the column names a
    thing ("patient_id" → patients), else "groups of lesions that share a value of “site code”"."""
    count = f"{groups:,}" if groups else ""
    noun = unit_noun(column, items)
    if noun:
        return W.S["units_named"].format(count=count, units=noun, items=items).replace("  ", " ").strip()
    return W.S["groups_unit"].format(groups=count, column=column, items=items).replace("  ", " ").strip()


def intervals_sentence(p: Any, intervals: IntervalSettings | None, n_systems: int, answers: Mapping[str, Any],
                       rec: Sequence[MetricEntry], cite: Any, brief: bool = False) -> None:
    """Append the intervals sentence(s) to the paragraph ``p`` (a ``_Text``); ``brief`` leaves out the
    McNemar sentence (the results say it) and the reason an exact interval is exact when the paragraph would run
    over its budget."""
    if intervals is None:
        return
    methods = intervals.methods
    ids = [m.id for m in rec]
    name = {m.id: _lower(m.name) for m in rec}
    exact = [m for m in ids if methods.get(m) in ("clopper_pearson", "wilson")]
    resampled = [m for m in ids if methods.get(m) in _UNIT_METHODS] or (ids and not exact and not methods)
    paired = intervals.paired and n_systems > 1
    # before data the number of systems is known only from a ranking answered; without one it is not known, and how
    # systems would be compared is said as a condition, not as a premise (the diagnostic reader: "'Differences between
    # systems …' assumes more than one index test; the answers give a single software read")
    unknown = systems_unknown(n_systems, answers)
    # the paired proportions with an exact interval (accuracy, sensitivity, specificity): McNemar's test and Newcombe's
    # interval where the items are whole and not grouped — with data, where McNemar's test ran; not a share whose
    # exact interval holds only while no score ties (top-1 accuracy from scores)
    newcombe = [m for m in exact if m in PAIRED_PROPORTIONS and methods.get(m) == "clopper_pearson"
                and m not in intervals.tied_shares] if (
        (paired and intervals.mcnemar) or (n_systems == 0 and not intervals.group_column)) else []
    drawn_rest = True
    exact_clause = ""
    conf, n = f"{intervals.confidence:.0%}", f"{intervals.n_resamples:,}"
    items = plural(str(answers["item_name"])) if answers.get("item_name") else _UNIT  # the author's word (issue 22)
    # on whom each paired proportion is counted, unless the only one is accuracy, which counts every item
    among = W.S["paired_among"].format(items=items) if any(m != "accuracy" for m in newcombe) else ""
    unit = items if not intervals.group_column else _group_unit(intervals.group_column, intervals.groups, items)
    runs = _runs_said(p, intervals, answers, cite)
    if intervals.classes == "fixed" and not intervals.group_column:  # the stratified bootstrap: said with its unit
        unit = W.S["unit_within_class"].format(items=items)
    jack = _jackknifed(intervals)
    if jack:  # resampled units: the delete-one-unit jackknife's t intervals (benchmarks/bench_few_groups_methods.py)
        p.t(_jackknife_words(intervals, conf, items))
        p.cite([k for k in [cite("Cameron", "2015")] if k]).t(". ")
    elif isinstance(resampled, list) and 5 < len(exact) and 0 < len(resampled) < len(exact) and not runs \
            and set(ids) == set(exact) | set(resampled):  # every figure one or the other: "except for" is the whole list
        # most figures are proportions: their exact interval first, the few resampled named with their method (the s45
        # intent reader: "Nearly everything gets Clopper–Pearson … Say that directly")
        p.t(W.S["intervals_exact_first"].format(conf=conf, names=_join([name[m] for m in resampled]),
                                                them=W.S["them_one" if len(resampled) == 1 else "them_many"],
                                                method=method_words(intervals), n=n,
                                                paired="paired " if paired else "", unit=unit))
    elif resampled or not exact:
        p.t(W.S["intervals_runs" if runs else "intervals"].format(
            conf=conf, method=method_words(intervals), n=n, paired="paired " if paired else "", unit=unit,
            system=_system_noun(answers)))
        if exact:  # up to five named (a STARD table: sensitivity, specificity, PPV, NPV, accuracy), more as "proportions";
            # said after the seed, with its reason
            one = len(exact) == 1
            names = _join([name[m] for m in exact])
            listed = resampled if isinstance(resampled, list) else []
            exact_clause = (W.S["intervals_exact_brief"].format(names=names) if brief else W.S["intervals_exact_too"].format(
                names=names, take=W.S["exact_take_one" if one else "exact_take_many"],
                kind=W.S["binomial_one" if one else "binomial_many"])) if len(exact) <= 5 else \
                W.S["intervals_exact_but"].format(names=_join([name[m] for m in listed])) \
                if 0 < len(listed) < len(exact) else W.S["intervals_exact_many"]  # the shorter list named
    elif newcombe:  # McNemar's test and Newcombe's interval for the paired proportions, the bootstrap for the rest
        p.t(W.S["intervals_exact_only"].format(conf=conf) + ". ")
        p.t(W.S["paired_proportions_if" if unknown else "paired_proportions"].format(names=_join([name[m] for m in newcombe]), among=among))
        p.cite([k for k in [cite("Newcombe", "1998")] if k])
        rest = [m for m in exact if m not in newcombe]
        if rest:
            p.t(W.S["paired_rest_pairs" if paired else "paired_rest_systems"].format(n=n, unit=unit))
        drawn_rest = bool(rest)
    else:
        p.t(W.S["intervals_exact_only"].format(conf=conf))
        if paired:
            p.t(W.S["intervals_exact_pairs"].format(n=n, unit=unit))
        elif n_systems == 0:  # before data: what the seed is for, when systems are compared (should they be)
            p.t(W.S["intervals_exact_systems_if" if unknown else "intervals_exact_systems"].format(n=n, unit=unit))
    # exact intervals of a single system draw nothing: no seed to name (with several, their comparison resamples)
    drawn = bool(resampled or not exact or paired or n_systems != 1) and drawn_rest
    if not jack:  # the jackknife's intervals draw nothing: no seed to name
        if intervals.seed is not None and drawn:
            p.t(W.S["seed"].format(seed=intervals.seed))
            if not intervals.paired and n_systems > 1:
                p.t(W.S["same_seed"])
        p.t(exact_clause + ". ")
    if runs:  # the exact interval and McNemar's test, said where they would otherwise be (compare's rule)
        _runs_not_exact(p, intervals, ids, name, compared=paired or n_systems == 0)
    _few_groups(p, intervals, items, cite)
    _folds_said(p, intervals, items, ids, name)
    # one run answered, systems compared: with data, several systems; before data, systems ranked or a difference
    # between systems said above (exact intervals only: McNemar's test and Newcombe's interval, or the bootstrap of
    # any difference between systems)
    before = n_systems == 0 and (bool(answers.get("ranking")) or not (resampled or not exact))
    one_run = intervals.runs == 1 and not runs and (n_systems > 1 or before)
    pairs_only = False  # "Only pair-counting indices have intervals and tests": the winners are on each of them
    if answers.get("label_structure") == "partition":  # how the resamples are read (advisor/stats/_partitions.py)
        item = str(answers.get("item_name") or "item")
        if any(m in PARTITION_PAIR_DISTINCT for m in ids):
            p.t(W.S["intervals_partition_pairs"].format(item=item) + ". ")
        mi = [m for m in ids if m in PARTITION_NO_INTERVAL and m not in _SHARES]
        shares = [m for m in ids if m in _SHARES]  # purity and inverse purity: sums of each cluster's largest count
        pairs_only = bool(mi and shares)
        if mi and shares:  # one sentence for every index without an interval, each with its own bias: said by the
            # indices that have them, the pair-counting ones the sentence before names (the list beside the lead named
            # the others just before; the paragraph has no words to name them twice)
            p.t(W.S["intervals_partition_shares"])
            p.cite([k for k in [cite("Roulston", "1999")] if k]).t(W.S["intervals_partition_shares_tail"] + ". ")
        elif mi:
            one = len(mi) == 1
            names = _join([name[m] for m in mi]) if one else W.S["both_mutual_information"]
            p.t(W.S["intervals_partition_mi"].format(names=names[:1].upper() + names[1:], verb="has" if one else "have",
                                                     s="" if one else "s", items=plural(item)))
            p.cite([k for k in [cite("Roulston", "1999")] if k]).t(W.S["intervals_partition_mi_tail"] + ". ")
        elif shares:
            names = _join([name[m] for m in shares])
            p.t(W.S["intervals_partition_shares_only"].format(names=names[:1].upper() + names[1:],
                                                              verb="has" if len(shares) == 1 else "have") + ". ")
        if one_run:  # one run answered: what the intervals leave out, said as the author's design
            p.t(W.S["runs_one_partition"] + ". ")
            one_run = False
        elif not runs:  # not answered: what the resampling leaves out, as a fact of the resampling
            p.t(W.S["intervals_partition_scope"].format(items=plural(item)) + ". ")
    if paired or (n_systems == 0 and answers.get("ranking")):
        alpha = f"{1 - intervals.confidence:.0%}"  # issue 11: family-wise error over all pairs
        # said here when some interval is resampled, before the winners, whose tests are then McNemar's for these
        # proportions (one 2×2 table with the interval) — after them when the lead is not one of these proportions
        after = bool(ids) and ids[0] not in newcombe
        if newcombe and (resampled or not exact) and not brief and not after:
            p.t(W.S["paired_proportions"].format(names=_join([name[m] for m in newcombe]), among=among))
            p.cite([k for k in [cite("Newcombe", "1998")] if k]).t(". ")
        # McNemar's test is named by the paired proportions' sentence where there is one, else here
        # (only when that sentence comes first: said after the winners, it would leave their tests unnamed until then —
        # the digits reader: "one-sided paired tests" for balanced accuracy, then McNemar for accuracy, "two procedures")
        named = bool(newcombe) and bool(resampled or not exact) and not brief and not after
        lead_first = after and not jack  # the lead is resampled, a paired proportion is not the lead: its test first
        tests = (W.S["tests_plain"] if named else W.S["tests_paired_after" if lead_first else "tests_paired"].format(
            names=_join([name[m] for m in newcombe]))) if newcombe else W.S["tests_jackknife" if jack else "tests_bootstrap"]
        # the mutual information indices of partitions have no test: the winners are on the others (the clust3 note)
        untested = any(m in PARTITION_NO_INTERVAL for m in ids)
        conf = f"{intervals.confidence:.0%}"
        if n_systems == 2:
            p.t(W.S["winners"])
        else:  # each system against the top one (multiple comparisons with the best)
            said = _tested(W.S["winners_best"], untested, pairs_only).format(
                others=n_systems - 1, alpha=alpha, tests=tests, conf=conf) if n_systems > 2 else \
                _tested(W.S["winners_best_any"], untested, pairs_only).format(alpha=alpha, tests=tests, conf=conf)
            # Hsu's is the idea of the winners, the systems that may be best; the Bonferroni bound is ours, so the
            # citation follows the idea, not the test (the s34 reader: "attributes a Bonferroni comparison with the
            # observed leader to Hsu's MCB procedure")
            idea, colon, test = said.partition(": ")
            p.t(idea).cite([k for k in [cite("Hsu", "1996")] if k]).t(colon + test)
        p.t(". ")
        if newcombe and (resampled or not exact) and not brief and after:  # two systems' sentence names no test
            # the winners' sentence of more systems named McNemar's test for them: their interval only (the digits
            # reader: McNemar's test said twice read as "two testing procedures for one metric")
            key = "paired_proportions" if n_systems == 2 else \
                "paired_differences_after" if lead_first else "paired_proportions_interval"
            p.t(W.S[key].format(names=_join([name[m] for m in newcombe]), among=among))
            p.cite([k for k in [cite("Newcombe", "1998")] if k]).t(". ")
        if "accuracy" in ids and intervals.mcnemar and not brief and "accuracy" not in newcombe:
            said = name.get("accuracy", "accuracy")  # in the field's words (ImageNet's top-1 accuracy)
            p.t(W.S["mcnemar"].format(Name=said[:1].upper() + said[1:]) + ". ")
    if one_run:  # one training run of each system compared: the conclusions are about that run
        p.t(W.S["runs_one"].format(system=_system_noun(answers)) + ". ")
    _withheld(p, intervals, ids, name, cite)


def systems_unknown(n_systems: int, answers: Mapping[str, Any]) -> bool:
    """Before data (``n_systems`` 0), whether the number of systems is unknown: only a ranking answered says several
    are compared, and nothing says there is one, so a comparison is said as a condition ("should several systems be
    compared, …"), never as a premise of a single system's study."""
    return n_systems == 0 and not answers.get("ranking")


def _system_noun(answers: Mapping[str, Any]) -> str:
    """What one compared system is: a clustering algorithm for partitions, else a system."""
    return "algorithm" if answers.get("label_structure") == "partition" else "system"


def _runs_said(p: Any, intervals: IntervalSettings, answers: Mapping[str, Any], cite: Any) -> bool:
    """Several training runs of each system (the answers' ``runs`` before data, the files with data): each system's
    figures are its means over its runs, said before the intervals, which resample the runs and the items
    (:mod:`advisor.stats._runs`; Bouthillier et al. 2021). False, and nothing said, with one run or none answered."""
    by = {s: r for s, r in (intervals.runs_by_system or {}).items()}
    several = any(r > 1 for r in by.values()) or (intervals.runs or 0) > 1
    if not several:
        return False
    noun = "runs" if answers.get("label_structure") == "partition" else "training runs"
    if by and len(set(by.values())) > 1:
        counts = _join([f"{r} for {s}" for s, r in by.items()])
        p.t(W.S["runs_mean_each"].format(system=_system_noun(answers), run_noun=noun, counts=counts))
    else:
        runs = next(iter(by.values())) if by else intervals.runs
        p.t(W.S["runs_mean"].format(system=_system_noun(answers), runs=runs, run_noun=noun))
    p.cite([k for k in [cite("Bouthillier", "2021")] if k]).t(". ")
    return True


def _runs_not_exact(p: Any, intervals: IntervalSettings, ids: Sequence[str], name: Mapping[str, str],
                    compared: bool) -> None:
    """The proportions that would take an exact Clopper–Pearson interval (and McNemar's test, systems compared) with
    one run: a mean over runs is not binomial, so they take the bootstrap interval like every other metric."""
    if intervals.group_column:  # grouped items take no exact interval anyway (said by the unit)
        return
    would = [m for m, how in interval_methods(ids).items() if how in ("clopper_pearson", "wilson")]
    if not would:
        return
    mcnemar = compared and any(m in PAIRED_PROPORTIONS for m in would)
    p.t(W.S["runs_not_exact"].format(names=_join([name[m] for m in would]),
                                     take="takes" if len(would) == 1 else "take")
        + (W.S["runs_not_mcnemar"] if mcnemar else "") + ". ")


def tied_note(t: Any, intervals: IntervalSettings | None, answers: Mapping[str, Any],
              rec: Sequence[MetricEntry]) -> None:
    """With data, where scores tied with the true class at a share's cut-off: how many items, that each counts part of
    a hit, and so the share's interval (said with the formulas that define the fractional hit). Before data nothing:
    no answer says the scores can tie (discrete or rounded scores), and float scores do not (the ImageNet reader: the
    tie rule before data "does nothing"); with data and no tie, nothing either."""
    if intervals is None or not intervals.tied_items:
        return
    item = str(answers.get("item_name") or "item")
    for m in rec:
        counts = {s: c for s, c in (intervals.tied_items.get(m.id) or {}).items() if c > 0}
        if not counts:
            continue
        said = (f"{next(iter(counts.values())):,} {plural(item) if next(iter(counts.values())) != 1 else item}"
                if len(intervals.tied_items[m.id]) == 1 else
                _join([f"{c:,} {plural(item) if c != 1 else item} of {s}" for s, c in counts.items()]))
        how = intervals.methods.get(m.id)
        method = W.S["intervals_tied_method"].format(an=article(_RESAMPLED[how]), method=_RESAMPLED[how]) \
            if how in _RESAMPLED else ""
        t.t(" " if t.spans and not t.spans[-1].text.endswith(" ") else "")
        t.t(W.S["intervals_tied"].format(name=_lower(m.name), counts=said, item=item, method=method) + ".")


def _jackknifed(intervals: IntervalSettings) -> bool:
    """Whether the intervals are the jackknife's over resampled units: with data, where a metric got one; before
    data, where the plan gives it (confusion-matrix metrics of a flat task; :func:`advisor.stats._jackknife.jackknife_t`)."""
    return bool(intervals.group_column) and intervals.n_resamples > 0 and "jackknife_t" in intervals.methods.values()


def jackknife_unit(intervals: IntervalSettings | None, items: str = "") -> str | None:
    """The unit the jackknife leaves out, in the singular ("speaker", else "group"), where the intervals are the
    jackknife's over resampled units; None otherwise."""
    if intervals is None or not _jackknifed(intervals):
        return None
    noun = unit_noun(str(intervals.group_column), items)
    return (noun[:-1] if noun.endswith("s") else noun) if noun else "group"


def _jackknife_words(intervals: IntervalSettings, conf: str, items: str) -> str:
    """"Intervals are 95% jackknife t intervals with 9 degrees of freedom that leave out one of the 10 speakers at a
    time" — before data without the count and the degrees of freedom (the unit left out says what is resampled)."""
    column, groups = str(intervals.group_column), intervals.groups
    noun = unit_noun(column, items)
    units = noun or f"groups sharing a value of “{column}”"
    one = (noun[:-1] if noun.endswith("s") else noun) if noun else f"group sharing a value of “{column}”"
    if groups and groups > JACKKNIFE_EXACT_UNITS:  # the deletions are random sets of units (advisor/stats/_jackknife.py)
        df, leave = JACKKNIFE_SETS - 1, W.S["jackknife_leave_sets"].format(sets=f"{JACKKNIFE_SETS:,}", units=units)
    elif groups:
        df, leave = groups - 1, W.S["jackknife_one_of"].format(count=f"{groups:,}", units=units)
    else:
        df, leave = 0, W.S["jackknife_one"].format(one=one)
    return W.S["intervals_jackknife"].format(conf=conf, df=W.S["jackknife_df"].format(df=f"{df:,}") if df else "",
                                             leave=leave)


def first_shares_words(intervals: IntervalSettings | None, items: str) -> str:
    """How often each system ranks first, as the paragraph promises it: where the intervals are the jackknife's, with
    the resamples that give these shares (whole units drawn with the report's seed: advisor/stats/_compare.py), since
    the intervals sentence names none; otherwise that sentence has named the bootstrap resamples already."""
    if intervals is None or not _jackknifed(intervals) or intervals.n_resamples <= 0:
        return W.PROMISE["ranking_stability"]
    column = str(intervals.group_column)
    count = f"{intervals.groups:,} " if intervals.groups else ""
    units = count + (unit_noun(column, items) or f"groups sharing a value of “{column}”")
    seed = W.S["seed"].format(seed=intervals.seed) if intervals.seed is not None else ""
    return W.PROMISE_FIRST_UNITS.format(n=f"{intervals.n_resamples:,}", units=units, seed=seed)


def _few_groups(p: Any, intervals: IntervalSettings, items: str, cite: Any) -> None:
    """With data, fewer resampled groups than :data:`FEW_GROUPS`: the interval is approximate, said with the count
    (readers of a ten-speaker and a 22-record study: "say how many speakers there are"). Before data the count is
    unknown and nothing is said."""
    groups = intervals.groups
    if not intervals.group_column or not groups or groups >= FEW_GROUPS or intervals.n_resamples <= 0:
        return
    units = unit_noun(intervals.group_column, items) or "groups"
    if _jackknifed(intervals):
        p.t(W.S["few_groups"].format(count=f"{groups:,}", units=units) + ". ")
        return
    p.t(W.S["few_groups_bca"].format(count=f"{groups:,}", units=units))  # BCa over few units: narrow, with its source
    p.cite([k for k in [cite("Cameron", "2008")] if k]).t(". ")


def _folds_said(p: Any, intervals: IntervalSettings, items: str, ids: Sequence[str], name: Mapping[str, str]) -> None:
    """Cross-validation folds (the answers' ``folds``): every figure pools the folds' items, said once; with data the
    lead figure's mean ± SD over the folds beside it, before data that it will be given (:mod:`._folds`)."""
    column = intervals.fold_column
    if not column or not ids:
        return
    noun = unit_noun(column, items)
    folds = noun or f"folds of “{column}”"
    lead = name.get(intervals.fold_metric or ids[0], ids[0])
    p.t(W.S["folds_pooled"].format(items=items, folds=folds))
    if not intervals.fold_values:
        p.t(W.S["folds_before"].format(lead=lead, folds=folds) + ". ")
        return
    said = []
    for system, values in intervals.fold_values.items():
        ms = mean_sd(values)
        if ms is not None:
            digits = 2 if ms[1] >= 0.01 else 3
            said.append(f"{ms[0]:.{digits}f} ± {ms[1]:.{digits}f}"
                        + (f" for {system}" if len(intervals.fold_values) > 1 else ""))
    count = max((len([v for v in values.values() if v is not None]) for values in intervals.fold_values.values()),
                default=0)
    if said:
        p.t(W.S["folds_mean"].format(count=count, folds=noun or "folds", lead=lead, values=_join(said[:3])))
    p.t(". ")


def _withheld(p: Any, intervals: IntervalSettings, ids: Sequence[str], name: Mapping[str, str], cite: Any) -> None:
    """Why a reported metric has no interval: the plug-in ECE always, others when their bias was too large."""
    if "ece" in ids and intervals.methods.get("ece") == "none":
        p.t(W.S["no_interval_ece"]).cite([k for k in [cite("Kumar", "2019")] if k]).t(". ")
    others = [m for m in ids if m != "ece" and m in intervals.withheld]
    constant = [m for m in others if intervals.withheld[m].startswith("every resample gives the same value")]
    # a zero denominator is not a bias: said as such (issue 22: "bias exceeding its sampling error" was said of an
    # undefined precision)
    # undefined in every resample, or in the test set itself, under omit: a zero denominator too (a constant
    # predictor's MCC was said to have "the estimate's bias exceeding its sampling error")
    zero = [m for m in others if intervals.withheld[m].startswith(("its denominator is 0", "every resampled value is "
                                                                   "undefined", "the estimate is undefined",
                                                                   "leaving out one of the groups makes it undefined"))]
    # a bound needs no interval of its own: said as one, never as a bias (the coverage with guaranteed risk)
    bound = [m for m in others if intervals.withheld[m].startswith("it is itself a bound")]
    biased = [m for m in others if m not in constant and m not in zero and m not in bound]
    for group, key in ((biased, "no_interval"), (constant, "no_interval_constant"), (zero, "no_interval_undefined"),
                       (bound, "no_interval_bound")):
        if group:  # the reason the interval was withheld, not one reason for all (a coverage of 0 in every resample)
            names = _join([name[m] for m in group])
            p.t(W.S[key].format(names=names[:1].upper() + names[1:], verb="has" if len(group) == 1 else "have",
                                its="its" if len(group) == 1 else "their") + ". ")


def _tested(sentence: str, untested: bool, pairs_only: bool = False) -> str:
    """"On each metric, the winners …" as "On each other metric, …" where some reported metric has no test (the
    partitions' mutual information indices, said just before to have none), or as "On each pair-counting index, …"
    where the sentence before said only those have tests (purity and inverse purity have none either).

    >>> _tested("On each metric, the winners", True, pairs_only=True)
    'On each pair-counting index, the winners'
    """
    if pairs_only:
        return sentence.replace(W.S["on_each_metric"], W.S["on_each_pair_counting_index"], 1)
    return sentence.replace(W.S["on_each_metric"], W.S["on_each_other_metric"], 1) if untested else sentence
