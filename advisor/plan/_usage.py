"""Where every answer went: the metric, parameter, diagnostic or rule it decided — or why it changed nothing.

An answer *decided* something when

* a metric's parameter comes from it (the class of interest, β, the costs, the shares, the weights);
* a diagnostic the report shows rests on it;
* a rule of the situation fired and its condition names the answer, or a rule did not fire *because* of
  it — the same rule fires when only this answer takes another of its allowed values;
* it is the task itself (the task, the number and names of the classes) or the user's own note.

Otherwise it is ``unused``, with the reason: the question does not apply to this situation (its
condition, in words), or no rule, metric or diagnostic of this situation depends on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..questionnaire import (
    DERIVED_FACTS,
    QUESTIONS,
    Answers,
    Recommendation,
    RuleBook,
    condition_holds,
    describe_condition,
    external_metrics,
    is_agreement_rate,
    join_words,
    load_fields,
    planned_per_class,
    reader_terms,
    resolve_planned,
    scope_notes,
)
from ._models import DIAGNOSTICS, AnswerUse, Avoided, Diagnostic, MetricSpec
from ._notes import LABEL_QUANTITIES, covered_note, planned_quantity, unknown_reason, unreported_reason, \
    whole_task_reason

__all__ = ["answer_uses", "label_quantities", "runs_unsupported"]

_QUESTION = {q.key: q for q in QUESTIONS}
#: keys that state the task itself, or the words the text speaks in: used whenever given
_TASK_KEYS = {"task": "the task (binary or multi-class)", "n_classes": "the number of classes",
              "classes": "the class names, matched with the data and named in the text",
              "context": "opens the methods paragraph, in the author's words",
              "item_name": "counts the test items and names what is resampled, in the author's words"}
#: facts each answers key feeds
_FACTS: dict[str, set[str]] = {}
for _fact, (_keys, _) in DERIVED_FACTS.items():
    for _k in _keys:
        _FACTS.setdefault(_k, set()).add(_fact)
#: alternatives tried for a key when asking "would a rule fire with another answer?"
_ALTERNATIVES: dict[str, list[Any]] = {
    "true_negatives_meaningful": [True, False],
    "test_set_balanced": [True, False],
    "outputs": ["labels", "probabilities", "scores"],
    "operating_point": ["fixed", "open"],
}


def _alternatives(key: str, value: Any) -> list[Any]:
    if key in _ALTERNATIVES:
        return [v for v in _ALTERNATIVES[key] if v != value]
    q = _QUESTION.get(key)
    if q is None:
        return []
    if q.kind == "choice":
        return [c for c in q.choices if c != value]
    if q.kind == "bool":
        return [not value] if isinstance(value, bool) else [True, False]
    return []


def _rule_uses(key: str, value: Any, answers: Answers, facts: Mapping[str, Any], book: RuleBook,
               fired: set[str]) -> list[str]:
    """Rules this answer decided: fired with a condition on it, or not fired because of it."""
    touched = {key} | _FACTS.get(key, set())
    out: list[str] = []
    for rule in book.rules:
        if not (rule.facts & touched):
            continue
        if rule.id in fired:
            out.append(f"rule: {rule.title}")
            continue
        for alt in _alternatives(key, value):
            try:
                other = answers.model_copy(update={key: alt}).facts()
            except (ValueError, TypeError):  # pragma: no cover - an alternative the model refuses
                continue
            other.update({f: facts[f] for f in ("has_data", "n_systems", "imbalanced") if f in facts and key not in
                          DERIVED_FACTS.get(f, ((), ""))[0]})
            if condition_holds(rule.when, other):
                out.append(f"decided that this does not apply: {rule.title}")
                break
    return out


def _readings(name: str, structure: str, field: str | None = None) -> list[str]:
    """The metric ids a planned name can mean here: in a multi-label task "micro F1" is the multi-label form; in
    the author's field, the field's own word for a metric ("WA")."""
    ids = list(resolve_planned(name, field).ids)
    if structure == "multilabel":
        ids = list(resolve_planned(f"{name} (multi-label)").ids) + ids
    return ids


def label_quantities(planned: Iterable[Any], field: str | None = None) -> list[str]:
    """The quantities of one label the planned metrics name ("F1" of "F1" or "macro F1", "precision"), in the
    per-label table's order: what a multi-label evaluation shows of every label when no answer fixes the cut.

    >>> label_quantities(["AUROC", "macro F1", "precision"])
    ['precision', 'F1']
    """
    named = {planned_quantity(_readings(str(n), "multilabel", field)) for n in planned}
    return [q for q in LABEL_QUANTITIES if q in named]


def _planned_uses(names: Sequence[str], lead: MetricSpec, beside: Sequence[MetricSpec],
                  avoid: Sequence[Avoided], answers: Answers, diagnostics: Sequence[Diagnostic] = (),
                  classes: Sequence[Any] | None = None) -> list[AnswerUse]:
    """One entry per planned name: leads, reported beside, advised against, shown by a diagnostic (Cohen's kappa
    of every pair of annotators), or not evaluated."""
    out: list[AnswerUse] = []
    shown = {d.id for d in diagnostics}
    structure, field = answers.label_structure or "nominal", answers.field
    whole = [n for n in scope_notes(structure, ()) if n.task == structure]  # the task itself is not evaluated
    for name in names:
        ids = _readings(name, structure, field)
        used: list[str] = []
        weighted = any(d.id == "judge_agreement" and d.params.get("weighted") for d in diagnostics)
        # the judge's accuracy against a human rater is its agreement rate with that rater
        if "judge_agreement" in shown and ("cohen_kappa" in ids or is_agreement_rate(name) or "accuracy" in ids
                                           or (weighted and "weighted_kappa_quadratic" in ids)):
            used.append("shown for the judge and each human rater: " + DIAGNOSTICS["judge_agreement"])
        if "cohen_kappa" in ids and "pairwise_kappa" in shown:  # three annotators or more: kappa of every pair
            used.append("shown for every pair of annotators: " + DIAGNOSTICS["pairwise_kappa"])
        reported = [lead.id, *(m.id for m in beside)]
        if "per_class" in shown and (reading := planned_per_class(name, classes, field, reported)) is not None:
            used.append(f"shown in the per-class table: {reading.words}"
                        + ("" if reading.matched else ", if the data have a class of that name"))
        if "brier" in ids and "brier_binary" in reported:  # the Brier score reported in its binary form
            ids = [*ids, "brier_binary"]
        for mid in ids:
            if mid == lead.id:
                used.append(f"leads: {lead.name}")
            elif any(m.id == mid for m in beside):
                used.append(f"reported beside the lead: {next(m.name for m in beside if m.id == mid)}")
            elif any(a.id == mid for a in avoid):
                a = next(a for a in avoid if a.id == mid)
                used.append(f"advised against as the lead: {a.name} ({a.reason})")
        covered = None if used else covered_note(name, ids, answers, reported, diagnostics)
        if covered is not None:  # the multi-label F1: for each label and as its averages, never "not reported"
            out.append(AnswerUse(key="planned_metrics", value=name, used_by=[covered[0]], note=covered[1]))
        elif used:
            out.append(AnswerUse(key="planned_metrics", value=name, used_by=used))
        elif whole:  # span extraction, rankings, …: the task itself is said with what to use
            reason, note = whole_task_reason(name, whole[0].what, whole[0].use)
            out.append(AnswerUse(key="planned_metrics", value=name, unused=reason + ".", note=note))
        elif ids:  # the input it needs, or what the task's structure asks that it ignores (issue 22)
            reason, note = unreported_reason(name, ids, answers, lead, beside)
            out.append(AnswerUse(key="planned_metrics", value=name, unused=reason + ".", note=note))
        elif notes := external_metrics(name, structure):  # a metric of a task advisor does not evaluate (issue 23)
            what = " or ".join(dict.fromkeys(e.what for e in notes))
            variant = notes[0].task == "partition_variant"  # the comparison is evaluated, this index is not
            reason = (f"it {notes[0].because}" if variant else f"it scores {what}, which advisor does not evaluate "
                      "(see what to use under “Not evaluated by advisor”)")
            out.append(AnswerUse(key="planned_metrics", value=name, unused=reason + ".", note=(
                f"The planned “{name}” is {'not reported' if variant else 'not computed'}: {reason}.")))
        else:
            reason, note = unknown_reason(name, classes)
            out.append(AnswerUse(key="planned_metrics", value=name, unused=reason + ".", note=note))
    return out


def runs_unsupported(ans: Any) -> str | None:
    """What a report cannot yet combine over several runs of a system, in the words of its refusal with data
    (:func:`advisor.report._runs.check_runs`); None when it can (label predictions of one nominal class per item)."""
    structure = ans.label_structure or "nominal"
    if structure != "nominal":
        return f"label_structure: {structure}"
    if ans.outputs in ("probabilities", "scores") or ans.probabilities or ans.top_k:
        return "scores or probabilities"
    if ans.abstention:
        return "abstentions"
    if ans.subgroups:
        return "subgroups"
    if ans.group:
        return "resampled groups of items"
    if ans.annotators:
        return "raters"
    return None


def answer_uses(original: Answers, effective: Answers, replaced: Mapping[str, str], rec: Recommendation,
                book: RuleBook, facts: Mapping[str, Any], lead: MetricSpec, beside: Sequence[MetricSpec],
                avoid: Sequence[Avoided], diagnostics: Iterable[Diagnostic], inferred: Mapping[str, Any],
                classes: Sequence[Any] | None = None) -> list[AnswerUse]:
    """Every answer given (and every key an option set), with what it decided or why it was not used; ``classes``
    are the class names as the data confirmed them (a planned "<class> recall" is matched with them)."""
    given = set(original.model_fields_set) | set(replaced)
    fired = {e.rule for e in rec.rationale}
    dumped = effective.model_dump(mode="json")
    diagnostics = list(diagnostics)
    out: list[AnswerUse] = []
    for q in QUESTIONS:
        key = q.key
        if key not in given or key == "planned_metrics":
            continue
        value = dumped.get(key)
        used: list[str] = []
        if key in _TASK_KEYS:
            used.append(_TASK_KEYS[key])
        if key == "notes" and value:
            used.append("kept with the report as the author's note (not evaluated)")
        if key == "folds" and value:  # cross-validation folds: pooled, each fold's lead value beside
            used.append(f"the figures pool the folds named by the column {value!r}; each fold's lead value is given "
                        "with their mean and standard deviation")
        if key == "group" and value:  # issue 20 item 3: the bootstrap's unit (--group)
            used.append(f"the intervals resample whole units named by the column {value!r}, not single items")
        if key == "runs" and value and value > 1 and runs_unsupported(effective) is not None:
            pass  # not planned: said below as unused, with what a report cannot yet combine over runs
        elif key == "runs" and value:  # issue 20 item 4: the training runs of each system
            used.append("each system is its mean over its training runs, and the intervals resample runs and items"
                        if value > 1 else "the methods say that the conclusions hold for this run of each system, "
                        "not for retraining")
        if key == "systems" and value:  # before data, how the methods compare the systems; the data's count holds
            used.append("before data, the methods describe no comparison, one system being evaluated" if value == 1
                        else f"before data, the methods compare the {value} systems on the same items, as the report "
                        "does with data (paired differences" + (", and the winners among them)" if value > 2 else ")")
                        + "; the data's count of systems holds once there are data")
        if key == "subgroups" and value:  # issue 23 item 1: the report's per-subgroup tables (--by)
            used.append("every metric is also reported per subgroup of these columns, with the gaps across them")
        if key == "subgroup_descriptions" and value and effective.subgroups:  # the groups in the author's words
            used.append("the methods paragraph names the subgroups in these words, not by the column")
        if key == "subgroup_harm" and value in ("false_alarm", "missed", "both") \
                and any(d.id == "bias_aucs" for d in diagnostics):  # the bias AUC of the harm leads beside ROC AUC
            used.append({"false_alarm": "the BPSN AUC", "missed": "the BNSP AUC", "both": "the BPSN and BNSP AUCs"}[
                value] + " of each subgroup is said beside the lead, as the figure that answers this harm")
        if key == "margin" and value is not None and effective.subgroups:  # each gap's verdict, two-sided
            used.append("alike or not: the interval of each gap across subgroups is set against ±margin, fixed in "
                        "advance" if value != "unknown" else "no margin fixed: the gaps across subgroups are said "
                        "to be descriptive")
        if key == "margin" and value == "unknown" and effective.judge is not None:
            used.append("no margin fixed: the judge's Δ is said to be descriptive")
        if key in ("outputs", "probabilities"):  # which metrics can be computed at all (scores, probabilities)
            used.append("decides which metrics can be computed from the classifier's outputs")
        for m in (lead, *beside):
            if key in m.answers:
                used.append(f"{'lead' if m.role == 'lead' else 'beside the lead'}: {m.name}")
        for d in diagnostics:
            if key in d.answers:
                used.append(f"shown in the report: {d.promise}")
        used += [u for u in _rule_uses(key, getattr(effective, key), effective, facts, book, fired) if u not in used]
        used += [f"reasoning: {e.title}" for e in rec.rationale if e.rule not in book.rule_ids() and key in e.answers
                 and e.rule not in ("primary", "planned_metric")]
        use = AnswerUse(key=key, value=value, source="option" if key in replaced else "answers",
                        used_by=list(dict.fromkeys(used)))
        if key in inferred:
            use.used_by.append(f"the data shows {inferred[key]!r}, which is used instead")
        if key == "runs" and value and value > 1 and (why := runs_unsupported(effective)) is not None:
            use.unused = (f"a report does not yet combine several runs of a system with {why}; report each run as a "
                          "system of its own (NAME=FILE)")
        if not use.used_by and use.unused is None:
            cond = q.applies_when
            if cond and not condition_holds(cond, facts):
                when = reader_terms(describe_condition(cond), {})  # "label structure", not the key's id
                use.unused = f"this question applies only when {when[:1].lower() + when[1:]}, which is not the case here."
            else:
                use.unused = "no metric, diagnostic or rule of this situation depends on it."
        out.append(use)
    out += _field_defaults(effective, given, lead, beside)
    out += _margin_unanswered(effective, given)
    out += _planned_uses(list(original.planned_metrics) if "planned_metrics" in given else [], lead, beside, avoid,
                         effective, list(diagnostics), classes if classes is not None else effective.classes)
    return out


def _margin_unanswered(answers: Answers, given: set[str]) -> list[AnswerUse]:
    """A judge compared with the humans or gaps across subgroups, and no margin answered: recorded as not answered,
    with what follows (the differences are descriptive; no claim of sameness is made)."""
    if "margin" in given or not (answers.judge is not None or answers.subgroups):
        return []
    parts = [*(["the judge's Δ"] if answers.judge is not None else []),
             *(["the gaps across subgroups"] if answers.subgroups else [])]
    verb = "is" if parts == ["the judge's Δ"] else "are"
    return [AnswerUse(key="margin", value=None, given=False, source="default", used_by=[
        f"not answered: no margin was fixed in advance, so {join_words(parts)} {verb} reported as descriptive, with "
        "no claim of sameness"])]


def _field_defaults(answers: Answers, given: set[str], lead: MetricSpec,
                    beside: Sequence[MetricSpec]) -> list[AnswerUse]:
    """A parameter nobody answered that the author's field defines (issue 22): F1^PN's classes are the positive and
    the negative class by the SemEval tasks' definition; recorded as a default, with where it went and why."""
    f = load_fields().get(answers.field) if answers.field else None
    out: list[AnswerUse] = []
    for m in (lead, *beside):
        chosen = m.params.get("f1_classes")
        if f is None or "f1_classes" in given or not chosen or "field" not in m.answers:
            continue
        role = "lead" if m.role == "lead" else "beside the lead"
        term = f.terms.get(m.id, m.name)
        out.append(AnswerUse(key="f1_classes", value=list(chosen), given=False, source="default", used_by=[
            f"{role}: {m.name}, averaged over the classes {join_words([str(c) for c in chosen])} only: the classes "
            f"of {term} as {f.cite} define it for {f.name}; f1_classes was not given"]))
    return out
