"""The author's field in the methods paragraph (issue 22): its customary figure said right after the lead, in the
field's own words (``fields.yaml`` ``terms``), with a reason when it does not lead, and what a diagnostic answers in
that field (``readings``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..engine import LABEL_CUT
from ..plan import label_quantities
from ..questionnaire import SET_ASIDE_PREFIX, CommunityField, article, left_open_premises, load_fields, plural
from ..questionnaire import join_words as _join_words
from ..questionnaire import lower_name as _lower_name
from . import _methods_text as W
from ._methods_lists import Text, prose_name
from ._models import MetricEntry

__all__ = ["field_forms_text", "field_lead_term", "field_of", "field_scorer", "field_sentences", "field_term_lead_sentence",
           "in_field_terms", "label_aucs_sentence", "left_open_sentence",
           "pair_first_sentences", "promise_sentence", "ranked_field_sentences", "summarised_pair"]


def field_of(answers: Mapping[str, Any]) -> CommunityField | None:
    return load_fields().get(str(answers.get("field"))) if answers.get("field") else None


def left_open_sentence(p: Text, answers: Mapping[str, Any]) -> bool:
    """What the field's reports also state that the answers do not give, said to the authors after the methods
    (``fields.yaml`` ``left_open``), never assumed in the text: "Readers of diagnostic accuracy studies also look for
    how indeterminate results were handled … as items 15, 16 and 18 of STARD 2015 ask
    (Bossuyt et al. 2015). They were not given, so the text above does not state them." (the s45–s47 readers: "the text is silent instead of asking"). An item
    the author's context or notes already speak of (its ``said_by`` words) is not listed. Returns whether it was said.

    >>> t = Text()
    >>> left_open_sentence(t, {"field": "acceptability_judgements"})
    True
    >>> print(t.spans[0].text.rstrip())
    Readers of acceptability judgements such as CoLA also look for whether the in-domain sentences, the out-of-domain ones or both pooled are scored, as the two sets are also reported apart
    >>> left_open_sentence(Text(), {"field": "acceptability_judgements", "context": "CoLA's in-domain test set"})
    False
    """
    field = field_of(answers)
    premises = left_open_premises(answers.get("field"), answers.get("context"), answers.get("notes"))
    if field is None or not premises:
        return False
    items = [x.text for x in premises]
    # the guideline's items of those listed, none that asks for what the author said (the reviewer: "as items 15,
    # 16 and 18 … ask" stood beside the sample size alone)
    numbers = [x.item for x in premises if x.item]
    numbered = ("item " if len(numbers) == 1 else "items ") + _join_words(numbers) if numbers else ""
    # items with commas of their own are set apart by semicolons, so the list reads as one
    listed = "; ".join(items[:-1]) + "; and " + items[-1] \
        if len(items) > 1 and any("," in re.sub(r"\([^)]*\)", "", x) for x in items) else _join_words(items)
    asks = f", {field.left_open_as.format(items=numbered)}" if field.left_open_as else ""
    p.t(f"Readers of {field.name} also look for {listed}{asks}").cite(list(field.left_open_sources))
    one = len(items) == 1
    p.t(f". {'It was' if one else 'They were'} not given, so the text above does not state {'it' if one else 'them'}. ")
    return True


def field_scorer(answers: Mapping[str, Any], convention: str) -> tuple[str, list[str]] | None:
    """``(the scorer in words, its BibTeX keys)`` when the field the answers name scores with this undefined-value
    convention (``fields.yaml`` ``undefined``): the convention is then said as the field's, so a reader of the field
    knows the figures compare with its own (GLUE's MCC of a constant predictor is 0). None otherwise."""
    field = field_of(answers)
    if field is None or field.undefined != convention or not field.undefined_as:
        return None
    return field.undefined_as, list(field.undefined_sources)


def in_field_terms(rec: Sequence[MetricEntry], answers: Mapping[str, Any]) -> list[MetricEntry]:
    """The metrics under the field's own names where the catalogue's name already glosses them ("sensitivity" for
    "Recall (sensitivity, true positive rate)", "top-1 accuracy" for accuracy): a diagnostic-accuracy reader reads
    "recall and specificity" as a machine-learning text (issue 22). Other terms are said by the field sentence."""
    field = field_of(answers)
    if field is None or not field.terms:
        return list(rec)
    out = []
    for m in rec:
        term = field.terms.get(m.id)
        if term and _glossed(term, m.name):
            m = m.model_copy(update={"name": term[:1].upper() + term[1:]})
        out.append(m)
    return out


def field_lead_term(answers: Mapping[str, Any], primary: MetricEntry | None) -> str | None:
    """The field's own name for the lead when the field table gives it one that is not a gloss of ours ("AvgRec" for
    balanced accuracy in the SemEval sentiment tasks, "unweighted average recall (UAR)" in the INTERSPEECH
    challenges): the lead sentence then names the lead so, with the field's source (None otherwise)."""
    field = field_of(answers)
    # a field whose words are no names but a sentence of their own (TREC's complement of sm%: ``named``) keeps it
    if field is None or primary is None or primary.id not in field.metrics or not _named_apart(field, primary) \
            or field.named:
        return None
    return str(field.terms[primary.id])


def field_term_lead_sentence(p: Text, answers: Mapping[str, Any], primary: MetricEntry) -> bool:
    """"We lead with AvgRec, the customary figure in the SemEval shared tasks on sentiment in tweets (Rosenthal et al.
    2017). It is balanced accuracy" — the field's name for the lead, its source, then our name, which the formula
    keeps; what the lead does follows (", which …"). False, and nothing said, when the field has no name of its own
    for the lead."""
    term = field_lead_term(answers, primary)
    field = field_of(answers)
    if term is None or field is None:
        return False
    p.t(W.S["lead_field_term"].format(term=term, the="the" if field.metrics[0] == primary.id else "a",
                                      field=field.name))
    p.cite([field.source, *field.also]).t(". ")
    p.t(W.S["lead_field_term_is"].format(name=_lower_name(prose_name(primary))))
    return True


def _lead_in_field_term(p: Text, field: CommunityField, primary: MetricEntry) -> bool:
    """Whether the lead sentence already named the lead in the field's words, with its source."""
    term = field.terms.get(primary.id)
    return bool(term) and _named_apart(field, primary) and not field.named and f"We lead with {term}, " in p.text()


def _glossed(term: str, name: str) -> bool:
    """Whether a field's word for a metric is one of the catalogue name's glosses, or the name qualified."""
    low, short = term.lower(), _lower_name(name).lower()
    return low in name.lower() or low.endswith(" " + short)


def _initials(term: str, name: str) -> bool:
    """Whether a field's word for a metric is the name's initials: "QWK" of quadratically weighted kappa, said as
    "quadratically weighted kappa (QWK)", never "There quadratically weighted kappa is called QWK" (a tautology;
    issue 22, the essay reader).

    >>> _initials("QWK", "Quadratically weighted kappa"), _initials("exact agreement", "Accuracy")
    (True, False)
    """
    initials = "".join(w[0] for w in re.findall(r"[^\W\d_]+", _lower_name(name).lower()))
    return len(term) >= 2 and term.lower() == initials


def _with_initials(field: CommunityField, m: MetricEntry) -> str:
    """The metric's name in prose, with the field's initials for it in brackets when the field has them; a
    statistic takes its article in a list of names ("ROC AUC, Brier score and the Kolmogorov–Smirnov statistic")."""
    term = field.terms.get(m.id)
    name = prose_name(m)
    if name.endswith(" statistic"):  # a count noun, never bare in a list of figures
        name = "the " + name
    return name + (f" ({term})" if term and _initials(term, m.name) else "")


def field_sentences(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry], primary: MetricEntry | None,
                     cite: Any, why: Callable[[Sequence[MetricEntry]], str | None] | None = None,
                     forms: bool = True, each: bool = True) -> set[str]:
    """What the author's field reports (fields.yaml, with its source), said right after the lead: the lead is that
    figure (with the field's other figures), or the field's figure is reported beside it for comparison and, when
    the answers give a reason, why it does not lead. Said only for a field the answers name; returns the metrics
    it named, which the sentence of the other metrics then leaves out. ``forms`` False: the form in which the field
    quotes a figure beside the lead (Gini) is said with the formulas instead (:func:`field_forms_text`). ``each``
    False: figures with different reasons get none (a paragraph that must shorten drops these before the lead's
    own words, as it drops the sentence of the metrics set aside)."""
    field = field_of(answers)
    if field is None:
        return set()
    named = _field_figures(p, field, answers, rec, primary, why, forms, each)
    _unreported_classes(p, field, answers, rec)
    return named


def ranked_field_sentences(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry], primary: MetricEntry,
                           sources: Callable[[str], Sequence[str]]) -> set[str]:
    """"We rank the systems by macro F1, the customary figure in … (Gorrell et al. 2019); every system is scored on
    the same replies, …. Beside it we report balanced accuracy, which …": the field's figure leads a ranking on one
    test set, where what set it aside (its dependence on class shares) changes no ranking; the lead the properties
    would choose stands beside it with what it keeps, and — when every random classifier scores 1/k on it — that it
    ranks as its chance-corrected form does. ``sources(metric id)`` gives the works behind what that metric keeps.
    Returns the ids said."""
    field = field_of(answers)
    assert field is not None
    item = str(answers.get("item_name") or "test item")
    p.t((field.ranks or W.S["lead_ranked_field"]).format(name=_with_initials(field, primary), field=field.name))
    p.cite([field.source, *field.also])
    named, there = _field_named(field, primary, [])
    p.t(named + W.S["ranked_same_shares"].format(items=plural(item), name=_lower_name(primary.name)) + ". ")
    said = {primary.id}
    beside = next((m for m in rec if m.role == "complementary" and (m.reason or "").startswith(SET_ASIDE_PREFIX)),
                  None)
    if beside is not None:
        kept = (beside.reason or "")[len(SET_ASIDE_PREFIX):].split(". ")[0].split("; ")
        p.t(W.S["ranked_beside"].format(name=prose_name(beside), keeps=kept[0]))
        p.cite(list(sources(beside.id))[:1] or beside.references[:1])  # the work behind what it keeps
        chance = next((x for x in kept[1:] if x.startswith("every random classifier scores ")), None)
        if chance is not None:
            level = chance.removeprefix("every random classifier scores ").split(" on it")[0]
            p.t(W.S["ranked_chance"].format(level=level))
        p.t(". ")
        said.add(beside.id)
    return said


def label_aucs_sentence(p: Text, answers: Mapping[str, Any], rec: Sequence[MetricEntry],
                        field: CommunityField | None = None) -> set[str]:
    """Multi-label scores: each label's ROC AUC and their mean, in the situation's words (its labels and items), as
    the field reports them (CheXpert's AUROC per finding), then the threshold that gives the label decisions."""
    if answers.get("label_structure") != "multilabel" or not any(m.id == "multilabel_macro_roc_auc" for m in rec):
        return set()
    classes = [str(c) for c in answers.get("classes") or []]
    item = str(answers.get("item_name") or "item")
    each = "each of " + _join_words(classes) if classes and len(classes) <= 6 else "each label"
    the = _join_words(classes) if classes and len(classes) <= 6 else "the labels"
    items = plural(item)
    lead = any(m.id == "multilabel_macro_roc_auc" and m.role == "primary" for m in rec)
    customary = field is not None and "roc_auc" in field.metrics
    if lead:  # the ranking leads: one sentence, the field's convention cited, and why (the scores order the items)
        p.t(W.S["lead_label_aucs"].format(each=the, items=items))
        if customary and field is not None:
            p.t(W.S["lead_label_aucs_field"].format(field=field.name)).cite([field.source])
        p.t(W.S["lead_label_aucs_why"].format(items=items) + ". ")
    elif customary and field is not None:
        p.t(W.S["field_label_aucs"].format(each=each, items=items, field=field.name)).cite([field.source]).t(". ")
    else:
        p.t(W.S["field_label_aucs"].split(", as is")[0].format(each=each, items=items) + ". ")
    threshold = answers.get("#label_threshold", LABEL_CUT)
    chosen = answers.get("operating_point") == "fixed" or bool(answers.get("decision_thresholds"))
    if not chosen and (threshold is None or float(threshold) == LABEL_CUT):
        # no answer fixes where a score becomes a label: no figure at a cut is a result, and a planned one is kept
        # (never dropped without a word) only as an illustration at the conventional cut (the CheXpert reader)
        planned = label_quantities(answers.get("planned_metrics") or [], answers.get("field"))
        return {"multilabel_macro_roc_auc", *_illustrated(p, rec, threshold, planned)}
    if threshold is not None:  # the per-label table's precision, recall and F1 count the label decisions
        an = article(item)
        p.t(W.S["label_threshold"].format(an=an, item=item, t=float(threshold)) + ". ")
    return {"multilabel_macro_roc_auc"}




def _illustrated(p: Text, rec: Sequence[MetricEntry], threshold: Any, per_label: Sequence[str]) -> list[str]:
    """"No operating point is fixed, so no figure taken at a cut of the scores is a result of this study. The planned
    F1 of every label and macro-averaged F1 are given for illustration only, at a score of 0.5, a conventional cut
    that no answer chose." — the planned figures at a cut (every one but the labels' ROC AUC), or that none is
    reported; ``per_label``: the planned quantities the per-label table shows. Returns the ids said here.

    >>> p = Text()
    >>> _illustrated(p, [MetricEntry(id="multilabel_macro_f1", name="Macro-averaged F1 (multi-label)", formula="")],
    ...              0.5, ["F1"])
    ['multilabel_macro_f1']
    >>> p.spans[-1].text.split(". ")[1]
    'The planned F1 of every label and macro-averaged F1 are given for illustration only, at a score of 0.5, a \
conventional cut not chosen for this study'
    """
    cut = [m for m in rec if m.id != "multilabel_macro_roc_auc"]
    if not cut and not per_label:
        p.t(W.S["label_cut_open_none"] + ". ")
        return []
    # what was planned of every label is in the per-label table beside its ROC AUC (the averages are in the results)
    names = ([_join_words(list(per_label)) + " of every label"] if per_label else []) + [prose_name(m) for m in cut]
    how = W.S["label_cut_open_cut"].format(t=float(threshold)) if threshold is not None \
        else W.S["label_cut_open_given"]
    p.t(W.S["label_cut_open"] + W.S["label_cut_open_planned"].format(
        names=_join_words(names), verb="are" if len(names) > 1 or len(per_label) > 1 else "is", how=how) + ". ")
    return [m.id for m in cut]


def _field_figures(p: Text, field: CommunityField, answers: Mapping[str, Any], rec: Sequence[MetricEntry],
                   primary: MetricEntry | None, why: Callable[[Sequence[MetricEntry]], str | None] | None,
                   forms: bool = True, each_reason: bool = True) -> set[str]:
    key = [field.source, *field.also]
    others = sorted((m for m in rec if m.role == "complementary" and m.id in field.metrics),
                    key=lambda m: field.metrics.index(m.id))  # in the field's order, its customary figure first
    names = [_with_initials(field, m) for m in others]
    if primary is not None and primary.id in field.metrics and _lead_in_field_term(p, field, primary):
        # the lead sentence said the field's name for it and its source: the field's other figures, once
        if names:
            p.t(W.S["field_lead_named_also"].format(names=_join_words([_in_field_words(field, m) for m in others]))
                + ". ")
        _targets(p, field)
        return {m.id for m in others}
    if primary is not None and primary.id in field.metrics:
        # a claim of what a field reports is cited where it is made (issue 22, item 2), even when the lead's
        # sentence just cited the same work for the lead's definition (the s33 ImageNet reader: "'The customary
        # figures … are top-1 accuracy and top-5 accuracy' carries no citation")
        cited = False
        if names:  # the lead named as such: "…, which we also report" read as if the lead were beside itself
            listed = sorted([primary, *others], key=lambda m: field.metrics.index(m.id))  # the field's order
            # the field's own words at first mention, ours in brackets, the source after the field's name, so no
            # bracket meets the citation's (the sentiment and essay readers: "There they are called …" read as a
            # template)
            words = [_in_field_words(field, m) for m in listed]
            plain = [_with_initials(field, m) for m in listed]
            inline = words != plain  # a bracket of ours in the list
            named, there = _field_named(field, primary, others)
            if there and any(w == n and _named_apart(field, m) for w, n, m in zip(words, plain, listed)):
                words, inline = plain, False  # a word that cannot stand in a list ("(1−ROCA)%"): all said apart
            else:
                named, there = "", ""
            p.t(W.S["field_lead_with"].format(field=field.name))
            if inline and not cited:
                p.cite(key)
            # in the field's own order, the lead unmarked: the sentence before named it ("our lead" read as a stock
            # phrase, the s26 readers)
            p.t(W.S["field_lead_with_are"].format(names=_join_words(words)))
            if not inline and not cited:
                p.cite(key)
        else:
            named, there = _field_named(field, primary, others)
            setting = _other_setting(field, primary)
            if setting is not None:
                # read at another setting than the field's, it is the field's figure, not its customary number (the
                # fraud readers: "customary … there at 5%" claimed a comparability its own 1% denies)
                p.t(W.S["field_lead_setting"].format(field=field.name, setting=setting))
            else:
                p.t(W.S["field_lead"].format(field=field.name, named=""))
            if not cited:
                p.cite(key)
        # the field's word after the citation: "(Schuller et al. 2009), where it is called … (UAR)", never "(UAR) (…)"
        p.t(named + ". " + (there + ". " if there else ""))
        _targets(p, field)
        return {m.id for m in others}
    if not names:
        return set()
    # a figure the field reads at another setting says the field's (Bank Account Fraud: 5%)
    apart = _other_setting(field, others[0]) if len(others) == 1 else None
    if apart is not None:  # the field's figure at our setting, not "as is customary": its number is not theirs
        p.t(W.S["field_beside_setting"].format(names=names[0], field=field.name, setting=apart)).cite(key)
    else:
        p.t((field.beside or W.S["field_beside"]).format(names=_join_words(names), field=field.name)).cite(key)
    reason = why(others) if why is not None else None
    if reason and W.AVOID["answers_every_item"] in reason and "at full coverage" in (field.beside or ""):
        reason = None  # "at full coverage" says it: the figure scores every item, the deferred ones included
    each = [why([m]) for m in others] if why is not None and each_reason and not reason and len(others) > 1 else []
    if reason:
        p.t(W.S["field_why"].format(it="it" if len(names) == 1 else "them", they="it" if len(names) == 1 else "they",
                                    reason=reason))
    elif each and all(each):  # a reason of its own for each (the legal reader: accuracy and macro F1 unexplained)
        item = str(answers.get("item_name") or "item")
        parts = [f"{n} {str(r).replace('every item', 'every ' + item)}" for n, r in zip(names, each)]
        p.t(W.S["field_why_each"].format(parts=". ".join([parts[0], *(s[:1].upper() + s[1:] for s in parts[1:])])))
    if forms:
        _field_forms(p, field, others)
    p.t(". ")
    there = _field_named(field, None, others)[1]
    if there:  # the field's own words for its figures beside the lead ("There … is called QWK"), as under a lead
        p.t(there + ". ")
    _targets(p, field)
    return {m.id for m in others}


def _targets(p: Text, field: CommunityField) -> None:
    """What the field reads its figures against (fields.yaml ``targets``), with its source: a fact about the field
    (the WHO target product profile of a TB triage test), said as the field's, never as the author's target."""
    if field.targets:
        p.t(field.targets).cite(list(field.targets_sources)).t(". ")


def _other_setting(field: CommunityField, m: MetricEntry) -> str | None:
    """The field's setting of ``m`` in words ("at 5%") when ours differs from it (fields.yaml ``settings``), else None."""
    setting = field.settings.get(m.id)
    ours = m.params.get(setting.param) if setting is not None else None
    if setting is None or ours is None or abs(float(ours) - setting.value) <= 1e-12:
        return None
    return setting.text


def _named_apart(field: CommunityField, m: MetricEntry) -> bool:
    """Whether the field's word for ``m`` is one :func:`_field_named` says in a sentence of its own."""
    term = field.terms.get(m.id)
    return bool(term) and not _glossed(str(term), m.name) and not _initials(str(term), m.name)


def _in_field_words(field: CommunityField, m: MetricEntry) -> str:
    """The metric as the field names it, ours in brackets ("AvgRec (balanced accuracy)"), when the field has a word
    of its own for it; else :func:`_with_initials`.

    >>> f = CommunityField(id="x", name="x", reports="x", metrics=["accuracy"], source="x", cite="x",
    ...                    terms={"accuracy": "exact agreement"})
    >>> _in_field_words(f, MetricEntry(id="accuracy", name="Accuracy", formula=""))
    'exact agreement (accuracy)'
    """
    term = field.terms.get(m.id)
    if not term or not _named_apart(field, m) or "(" in term:
        return _with_initials(field, m)
    return f"{term} ({_with_initials(field, m)})"


def _field_forms(p: Text, field: CommunityField, said: Sequence[MetricEntry]) -> None:
    """". ROC AUC is also quoted there as the Gini coefficient, 2·AUC − 1": the form in which the field's papers quote a
    figure we report (its row's ``forms``, from what its source reports), so a reader of the field can set ours
    beside theirs (the credit reader: "the field reports Gini")."""
    for m in said:
        form = field.forms.get(m.id)
        if form:
            name = _with_initials(field, m)
            p.t(W.S["field_form"].format(name=name[:1].upper() + name[1:], form=form))


def field_forms_text(answers: Mapping[str, Any], rec: Sequence[MetricEntry], primary: MetricEntry | None) -> str:
    """"In credit scoring ROC AUC is quoted as the Gini coefficient, 2·AUC − 1": the forms :func:`_field_forms` says
    in the paragraph, as a sentence for the formulas, when the paragraph has no room for them ("" when none)."""
    field = field_of(answers)
    if field is None or (primary is not None and primary.id in field.metrics):
        return ""
    said = [m for m in rec if m.role == "complementary" and m.id in field.metrics and field.forms.get(m.id)]
    return " ".join(W.S["field_form_apart"].format(field=field.name, name=_with_initials(field, m),
                                                   form=field.forms[m.id]) + "." for m in said)


def _unreported_classes(p: Text, field: CommunityField, answers: Mapping[str, Any], rec: Sequence[MetricEntry]) -> None:
    """The field's F1 over its own classes (F1^PN) when it is not reported: one sentence with why — the classes are
    not known, or none of them has the names the figure is defined over (issue 22)."""
    mid = "macro_f1_of_classes"
    if mid not in field.metrics or not field.f1_classes or any(m.id == mid for m in rec):
        return
    classes, named = answers.get("classes"), _join_words(list(field.f1_classes))
    why = (W.S["field_classes_unnamed"] if not classes else W.S["field_classes_missing"].format(
        classes=_join_words([f"“{c}”" for c in classes[:10]]), named=" or ".join(field.f1_classes)))
    text = W.S["field_unreported"].format(field=field.name, term=field.terms.get(mid, "F1"), named=named, why=why)
    p.t(text[:1].upper() + text[1:]).t(". ")


def _field_named(field: CommunityField, primary: MetricEntry | None, others: Sequence[MetricEntry]) -> tuple[str, str]:
    """The field's own words for its figures: ``(", where it is called AvgRec", "")`` for the lead alone, said in its
    sentence; with the field's other figures a sentence of its own, "There they are called AvgRec and F1^PN" (issue
    22), or "There macro F1 … is called F1^PN" when not every figure has a word of its own. ``primary`` None: the
    figures are reported beside a lead that is not the field's."""
    figures = [m for m in (primary, *others) if m is not None]
    terms = [(m, field.terms[m.id]) for m in figures if _named_apart(field, m)]
    if not terms:
        return "", ""
    if len(terms) == 1 and primary is not None and terms[0][0] is primary:
        return W.S["field_named"].format(term=terms[0][1]), ""
    if len(terms) == len(figures) > 1:
        if field.named:  # the field's own sentence: its words are a complement and a percentage, not names
            return "", field.named
        return "", W.S["field_named_each"].format(terms=_join_words([t for _, t in terms]))
    return "", W.S["field_named_one"].format(named=_join_words([f"{prose_name(m)} is called {t}" for m, t in terms]))


def promise_sentence(p: Text, answers: Mapping[str, Any], shown: Sequence[str], field_readings: bool = True) -> None:
    """"We also give …" of what the report shows; a diagnostic the author's field reads in its own way (fields.yaml
    ``readings``) goes last, with that reading and the field's source: the pairwise kappa of an LLM judge and two
    humans is the field's comparison of the judge with the humans (issue 22); ``field_readings=False`` when the paragraph said
    that comparison already (a judge named in the answers)."""
    field = field_of(answers)
    pairs = list(field.readings.items()) if field and field_readings else []
    readings = {x: reading for x in shown for did, reading in pairs if _promises(did, x)}
    read = [x for x in shown if x in readings][:1]
    said = [x for x in shown if x not in read] + read
    # the per-class table promised in the field's own names (the plan's promise, advisor/report/_plan.py): the
    # reading would only rename them again (the ECG reader, issue 22: "says the same thing twice")
    renamed = read and field is not None and "recall" in field.terms \
        and read[0].startswith(f"the {field.terms['recall']}, ")
    # the field's custom covers its own figures, not the F1 we add to the table (the s27 ECG reader: "de Chazal
    # report Se, +P and FPR, not F1"): "…, positive predictivity (+P) and F1 of every class; the first two are
    # customary in … (…)"
    f1_too = bool(renamed) and read[0].endswith(" and F1 of every class")
    # an item that holds commas of its own gets a sentence of its own, so the next is not read into it
    plain, long = [x for x in said if "," not in x], [x for x in said if "," in x]
    if plain and long:
        p.t(W.S["duties"] + _join_words(plain) + ". " + W.S["duties_more"] + _join_words(long))
    elif len(said) == 2 and not read and any(" and " in x for x in said):  # "… of per-class recall, and each metric
        # that depends …": the shorter first, a comma before the "and" that joins them, so neither reads into the other
        first, second = sorted(said, key=lambda x: len(x.split()))
        p.t(W.S["duties"] + first + ", and " + second)
    else:
        p.t(W.S["duties"] + _join_words(said))
    if renamed and field is not None:
        p.t(W.S["field_custom_pair" if f1_too else "field_custom"].format(field=field.name)).cite([field.source])
    elif read and field is not None:
        p.t(W.S["field_reading"].format(field=field.name, reading=readings[read[0]])).cite([field.source])
    p.t(". ")


def _promises(did: str, said: str) -> bool:
    """Whether a promise of the paragraph is that of the diagnostic ``did``: its phrase, or for the per-class table
    the phrase in the author's words ("the precision (positive predictive value), recall (sensitivity) and F1 of
    every class", advisor/report/_plan.py).

    >>> _promises("per_class", "the precision (PPV), recall and F1 of every class"), _promises("per_class", "x")
    (True, False)
    """
    if said == W.PROMISE.get(did):
        return True
    return did == "per_class" and said.startswith("the ") and " F1 of every class" in said


#: A lead that is the plain mean of two figures a field reports side by side.
_MEAN_OF: dict[str, frozenset[str]] = {"balanced_accuracy": frozenset({"recall", "specificity"})}


def summarised_pair(answers: Mapping[str, Any], rec: Sequence[MetricEntry],
                    primary: MetricEntry | None) -> list[MetricEntry]:
    """The two figures of the author's field the lead is the mean of (sensitivity and specificity under balanced
    accuracy, in a diagnostic accuracy study), when both are reported; else none."""
    field = field_of(answers)
    if field is None or primary is None or primary.id not in _MEAN_OF:
        return []
    pair = [m for m in rec if m.role == "complementary" and m.id in _MEAN_OF[primary.id] and m.id in field.metrics]
    return pair if {m.id for m in pair} == _MEAN_OF[primary.id] else []


def pair_first_sentences(p: Text, answers: Mapping[str, Any], pair: Sequence[MetricEntry], primary: MetricEntry,
                         cite: Any) -> set[str]:
    """"As is customary in diagnostic accuracy studies, we report sensitivity and specificity (Bossuyt et al. 2015).
    We lead with their mean, balanced accuracy, …": the field's figures are the result a reader looks for, the lead
    the one number that ranks systems (issue 22: a STARD reader rejected the pair as an afterthought)."""
    field = field_of(answers)
    assert field is not None
    p.t(W.S["field_first"].format(field=field.name, names=_join_words([prose_name(m) for m in pair])))
    p.cite([field.source]).t(". ")
    pos = primary.params.get("positive_label") or answers.get("positive_class")
    items = answers.get("item_name")
    p.t(W.S["lead_mean_of_pair"].format(name=prose_name(primary)))
    if answers.get("costlier_error") == "equal":  # the author said so
        p.t(W.S["lead_mean_equal_costs"])
    elif not answers.get("error_costs"):  # equal weights are no premise of the author's: no costs were given
        p.t(W.S["lead_mean_no_costs"])
    if pos is not None:
        p.t(W.S["lead_mean_of_pair_prevalence"].format(pos=pos, items=plural(str(items)) if items else "test items"))
    p.cite(primary.references[:1]).t(". ")
    return {m.id for m in pair}
