"""The rule engine: answers (+ data) → fired rules → property terms → ranked catalogue metrics.

Steps
-----
1. Facts: the answers, derived facts and — with data — what the data shows (:mod:`._infer`).
2. Every rule of ``rules.yaml`` whose condition holds fires; its ``require``/``forbid`` terms filter
   the catalogue's applicable metrics, its ``prefer`` terms rank them.
3. A property claim counts when its status is accepted (``binary_only`` counts as ``holds`` for two
   classes) **and the property checker verified it**. If no metric passes on verified claims alone,
   published claims are used and an ``unverified_claims`` warning says so.
4. Impossibility theorems (``impossibilities`` in the rule book): when a situation demands a set of
   properties no measure can have, the engine says so and takes the stated way out.
5. Conflicts: if no metric meets every requirement, the requirement with the lowest priority is
   dropped (then re-added if possible) and a ``conflicting_requirements`` warning names it.
6. Score = Σ weights of the preferred properties a metric verifiably has + a small bonus for the
   papers' own suggestions (only a tie-breaker: below any property's weight). The best is primary.
7. Complementary and discouraged metrics, warnings, checks, duties and the planned metrics'
   comments follow; every step leaves a rationale entry naming the answers and properties behind it.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .._exceptions import InputError
from .._format import few_names
from ..catalogue import Catalogue, MetricRecord, get_catalogue
from ..engine import METRICS, ONE_VS_REST, reported_ids
from ._answers import Answers, answers_from_mapping
from ._choice import fill_views, load_choice
from ._conditions import DERIVED_FACTS, holds
from ._fields import field_f1_classes, load_fields
from ._infer import apply_data, data_warnings, summarize
from ._planned import (Resolution, default_resolver, field_reading, is_agreement_rate, per_class_reading,
                       resolve_name)
from ._scope import external_metrics, scope_sentence
from ._screen import join as join_words
from ._recommendation import (
    Advice,
    MetricChoice,
    RationaleEntry,
    Recommendation,
    Warning,
)
from ._rules import PropertyTerm, Rule, RuleBook, Suggestion, load_rules
from ._select import (
    STATUS_WORDS,
    Active,
    applicable,
    claim_of,
    filter_pool,
    phrase,
    resolve_conflicts,
    satisfies,
    violates,
)
from ._structures import apply_structure
from ._words import PROPERTY, SET_ASIDE_PREFIX

__all__ = ["recommend"]


def _asked(a: Active) -> str:
    """What a term asks, in words: a forbidden property is "no …" (F1 meets "no class symmetry")."""
    return a.term.label if a.kind != "forbid" else f"no {a.term.label}"


class _Fmt(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if value is None:
            return "not given"
        if isinstance(value, bool):
            return "true" if value else "false"
        try:
            return str(super().format_field(value, format_spec))  # typeshed: Any; format() gives str
        except (TypeError, ValueError):
            return str(value)


class _Ctx(dict[str, Any]):
    def __missing__(self, key: str) -> str:  # validated at load time; defensive only
        return "?"


def _render(template: str, ctx: dict[str, Any]) -> str:
    return " ".join(_Fmt().vformat(template, (), _Ctx(ctx)).split())


# ----------------------------------------------------------------------------------------------
# The engine
# ----------------------------------------------------------------------------------------------
class _Run:
    def __init__(self, answers: Answers, cat: Catalogue, book: RuleBook, resolver: Callable[[str], Any]) -> None:
        self.answers = answers
        self.cat = cat
        self.book = book
        self.settings = book.settings
        self.resolver = resolver
        self.k = answers.k
        self.facts: dict[str, Any] = answers.facts()
        self.warnings: list[Warning] = []
        self.rationale: list[RationaleEntry] = []

        self.choice = load_choice()

    # -- helpers --------------------------------------------------------------------------------
    def named(self, m: MetricRecord) -> str:
        """A metric's name as the text says it: the sensitivity of an action by the action ("Referral sensitivity")."""
        return self.answers.action_metric_name(m.id, m.name)

    @property
    def lead_name(self) -> str:
        """The lead's name as the text says it: the sensitivity of an action by the action ("Referral sensitivity")."""
        return self.answers.action_metric_name(self.primary.id, self.primary.name)

    def answers_of(self, facts: Iterable[str]) -> dict[str, Any]:
        """The answer keys (with their values) behind a set of facts."""
        dumped = self.answers.model_dump(mode="json")
        out: dict[str, Any] = {}
        for f in sorted(facts):
            keys = DERIVED_FACTS[f][0] if f in DERIVED_FACTS else (f,)
            for key in keys:
                if key in dumped:
                    out[key] = dumped[key]
        return out

    def warn(self, code: str, message: str) -> None:
        for w in self.warnings:
            if w.code == code and w.message == message:
                return
        self.warnings.append(Warning(code=code, message=message))

    def ctx(self, **extra: Any) -> dict[str, Any]:
        c = dict(self.facts)
        costs = self.answers.costs()
        if costs is not None:
            fn, fp = costs
            c.update(cost_fn=fn, cost_fp=fp, beta_squared=fn / fp, beta=math.sqrt(fn / fp))
        c["small_k"] = self.settings.small_k
        c["shares"] = _mapping_text(self.answers.target_prevalence)
        c["weights"] = _mapping_text(self.answers.class_weights)
        c["strata"] = _mapping_text(self.answers.map_shares)
        group = self.answers.action_classes()
        c["action_group"] = join_words([f"“{x}”" for x in group]) if group else None
        c["other_action"] = next((str(a) for a in (self.answers.actions or {})
                                  if str(a) != str(self.answers.action_of_interest)), None)
        c.update(extra)
        return c

    # -- main -----------------------------------------------------------------------------------
    def run(self) -> Recommendation:
        fired = [r for r in self.book.rules if holds(r.when, self.facts)]
        self.fired = fired
        terms = [Active(t, kind, r) for r in fired for kind in ("require", "prefer", "forbid") for t in getattr(r, kind)]
        pool = applicable(self.cat, self.answers)
        imp_complementary = self.impossibilities(terms, pool)
        hard = [a for a in terms if a.kind != "prefer"]
        prefs = [a for a in terms if a.kind == "prefer"]
        passing, kept, dropped, trusted = resolve_conflicts(pool, hard, self.k)
        self.kept = kept
        if dropped:
            self.conflict_warning(kept, dropped)
        if trusted and kept:
            self.warn("unverified_claims", (
                "No metric meets the requirements on claims the property checker verified; the "
                "published (unverified) claims were used for: "
                + ", ".join(sorted({a.term.label for a in kept})) + "."
            ))
        self.prefs = prefs
        ranked = self.rank(passing, prefs, fired)
        primary = ranked[0][0]
        if primary.id == "f_beta" and self.answers.cost_ratio() == 1.0:
            primary = next((m for m, _ in ranked if m.id == "f1"), primary)
        self.primary = primary
        lead = next(((r, s) for r in fired for s in r.lead if holds(s.when, self.facts)), None)
        self.set_aside: frozenset[str] = frozenset()
        field_lead = None if lead is not None else self.field_lead(pool, hard, prefs, primary)
        if lead is None and field_lead is None:
            field_lead = self.ranking_field_lead(pool, hard, prefs, primary)
            if field_lead is not None:  # what matters only when shares change argues against nothing here either
                self.set_aside = SHIFT_ONLY
                terms = [a for a in terms if a.term.property not in SHIFT_ONLY]
                kept = [a for a in kept if a.term.property not in SHIFT_ONLY]
        if lead is not None:  # the user's own numbers define the metric (rules_costs.yaml)
            choice = self.lead_choice(*lead)
        elif field_lead is not None:
            choice = field_lead
        else:
            choice = self.primary_choice(primary, ranked, kept, prefs, fired)
        # the words name the lead actually chosen (a rule's lead replaces the property ranking's first)
        ctx = self.ctx(primary=self.primary.id, primary_name=self.lead_name)
        complementary = self.complementary(fired, imp_complementary, ranked, ctx, choice.metric)
        if field_lead is not None and primary.id not in {a.metric for a in complementary}:
            # the lead the properties chose stays beside the field's figure: it answers the premises left open
            complementary.insert(0, Advice(metric=primary.id, name=primary.name, params=self.params(primary, []),
                                           reason=self.property_lead_reason(primary)))
        discouraged = self.discouraged(fired, terms, ctx)
        self.add_views(complementary, discouraged, ctx)
        self.field_metrics(complementary, discouraged)
        self.one_brier(complementary)
        self.rule_warnings(fired, ctx)
        self.planned(kept, complementary, discouraged)
        self.overridden(fired, complementary, discouraged)
        discouraged = self.settle(complementary, discouraged)
        self.checks(fired, complementary)
        for r in fired:
            aside = self.set_aside and any(t.property in self.set_aside for t in r.require)
            self.rationale.append(RationaleEntry(
                rule=r.id, title=r.title, source=r.source,
                text=_render(r.rationale, ctx) + (_SET_ASIDE_NOTE.format(lead=self.lead_name) if aside else ""),
                answers=self.answers_of(r.facts), properties=r.properties,
                duties=[_render(d.text, ctx) for d in r.duties if holds(d.when, self.facts)],
                diagnostics=[d.diagnostic for d in r.duties if d.diagnostic and holds(d.when, self.facts)],
            ))
        return Recommendation(
            primary=choice, complementary=complementary, discouraged=discouraged,
            warnings=self.warnings, rationale=self.rationale, answers=self.answers,
        )

    # -- impossibility --------------------------------------------------------------------------
    def impossibilities(self, terms: list[Active], pool: list[MetricRecord]) -> list[Suggestion]:
        out: list[Suggestion] = []
        for imp in self.book.impossibilities:
            required = {a.term.property for a in terms if a.kind == "require"}
            demanded = required | {a.term.property for a in terms if a.kind == "prefer"}
            if not set(imp.properties) <= demanded or len(set(imp.properties) & required) < imp.min_required:
                continue
            probe = [Active(PropertyTerm(property=p, why=""), "require", self.fired[0]) for p in imp.properties]
            if any(all(satisfies(m, a, self.k, True) for a in probe) for m in pool):
                continue  # the catalogue disagrees with the theorem: say nothing
            self.warn(imp.code, _render(imp.message, self.ctx()))
            behind = {f for a in terms if a.term.property in imp.properties for f in a.rule.facts}
            for a in [a for a in terms if a.kind == "require" and a.term.property in imp.replace]:
                new = imp.replace[a.term.property]
                i = terms.index(a)
                if new is None:
                    del terms[i]
                    continue
                terms[i] = Active(a.term.model_copy(update={
                    "property": new, "detail": None,
                    "why": f"{a.term.why} — approximately, because of the impossibility theorem",
                }), a.kind, a.rule)
            out.extend(imp.complementary)
            self.rationale.append(RationaleEntry(
                rule=imp.id, title="Impossibility theorem", text=_render(imp.message, self.ctx()),
                source=imp.source,
                properties=list(dict.fromkeys([*imp.properties, *imp.replace, *(v for v in imp.replace.values() if v)])),
                answers=self.answers_of(behind),
            ))
        return out

    def conflict_warning(self, kept: list[Active], dropped: list[Active]) -> None:
        verb = {"require": "required", "prefer": "preferred", "forbid": "forbidden"}
        lost = "; ".join(f"{a.term.label} ({verb.get(a.kind, a.kind)} because {a.term.why})" for a in dropped)
        keep = ", ".join(sorted({f"{a.term.label}" for a in kept})) or "nothing"
        self.warn("conflicting_requirements", (
            f"No metric in the catalogue meets all requirements at once; dropped the least important: "
            f"{lost}. Kept: {keep}."
        ))
        facts = {f for a in dropped for f in a.rule.facts} | {f for a in kept for f in a.rule.facts}
        self.rationale.append(RationaleEntry(
            rule="conflicting_requirements", title="Requirements that cannot all be met",
            text=f"Dropped {', '.join(a.term.label for a in dropped)} (lowest priority) so that a metric "
                 f"meets the rest: {keep}.",
            answers=self.answers_of(facts),
            properties=sorted({a.term.property for a in (*dropped, *kept)}),
        ))

    # -- ranking --------------------------------------------------------------------------------
    def rank(self, passing: list[MetricRecord], prefs: list[Active], fired: list[Rule]) -> list[tuple[MetricRecord, float]]:
        bonus: dict[str, float] = {}
        first_seen: dict[str, int] = {}
        for r in fired:
            live = [s for s in r.primary if holds(s.when, self.facts)]
            for pos, s in enumerate(live):
                bonus[s.metric] = bonus.get(s.metric, 0.0) + self.settings.suggestion_bonus / (pos + 1)
                first_seen.setdefault(s.metric, len(first_seen))
        order = {mid: i for i, mid in enumerate(self.cat.metrics)}
        scored = []
        for m in passing:
            score = bonus.get(m.id, 0.0)
            for a in prefs:
                ok, verified, _ = claim_of(m, a.term, self.k)
                if ok:
                    score += a.term.weight * (1.0 if verified else self.settings.unverified_weight)
            scored.append((m, round(score, 9)))
        scored.sort(key=lambda t: (-t[1], first_seen.get(t[0].id, 10**6), order.get(t[0].id, 10**6)))
        return scored

    def params(self, m: MetricRecord, suggestions: list[Suggestion]) -> dict[str, Any]:
        ctx = self.ctx()
        out: dict[str, Any] = {}
        sym = m.properties.get("class_symmetry")
        of_class = m.binary_only or (m.id in METRICS and METRICS[m.id].needs_positive)  # in-scope accuracy: its class
        if of_class and self.answers.positive_class is not None and not (sym and sym.status == "holds"):
            out["positive_label"] = self.answers.positive_class
        if m.id == "f_beta":
            out["beta"] = ctx.get("beta", 1.0)
        if m.id in ("wrong_action_rate", "fallback_rate") and self.answers.fallback_class is not None:
            out["fallback_class"] = self.answers.fallback_class  # the class whose prediction takes no action
        if m.id == "macro_f1_of_classes":  # the classes given, else those of the field's definition (F1^PN)
            chosen = self.answers.f1_classes or field_f1_classes(self.answers.field, self.answers.classes)
            if chosen:
                out["f1_classes"] = list(chosen)
        if m.id in ("action_sensitivity", "action_specificity") and self.answers.action_classes():
            out["action_classes"] = self.answers.action_classes()  # the classes of the action of interest
            out["action"] = str(self.answers.action_of_interest)  # its name, which names the metric
        for s in suggestions:
            if s.metric == m.id:
                for key, value_name in s.params.items():
                    if ctx.get(value_name) is not None:
                        out[key] = ctx[value_name]
        return out

    def primary_choice(self, m: MetricRecord, ranked: list[tuple[MetricRecord, float]], kept: list[Active],
                       prefs: list[Active], fired: list[Rule]) -> MetricChoice:
        required = [a for a in kept if a.kind == "require"]
        forbidden = [a for a in kept if a.kind == "forbid"]
        has = [a for a in prefs if claim_of(m, a.term, self.k)[0]]
        parts = []
        if required:
            parts.append("required: " + "; ".join(dict.fromkeys(phrase(m, a.term, self.k) for a in required)))
        if forbidden:
            parts.append("must not have: " + "; ".join(dict.fromkeys(phrase(m, a.term, self.k) for a in forbidden)))
        if has:
            parts.append("preferred and present: " + ", ".join(sorted({a.term.label for a in has})))
        score = ranked[0][1]
        # the runner-up that could rank systems differently (a monotone transform of the lead is no alternative)
        other = next(((r, sc) for r, sc in ranked[1:] if not self.book.equivalent(r.id, m.id)), None)
        runner = f" The runner-up is {other[0].name} (score {other[1]:g})." if other is not None else ""
        suggested = [r.id for r in fired for s in r.primary if s.metric == m.id and holds(s.when, self.facts)]
        # the rule ids stay in the structured rationale (entry.rule); the prose names no internals
        why = " It is also the metric the papers name for this situation." if suggested else ""
        reason = (
            f"{m.name} matches the properties asked for best (score {score:g}, the weighted count of preferred "
            "properties it verifiably has among those meeting the requirements) — "
            + ("; ".join(parts) or "no property was demanded") + f".{runner}{why} {m.interpretation}"
        ).strip()
        rule_facts = {f for a in (*required, *forbidden, *has) for f in a.rule.facts}
        self.rationale.append(RationaleEntry(
            rule="primary", title=f"Primary metric: {self.named(m)}", text=reason,
            source="; ".join(sorted({a.rule.source for a in (*required, *forbidden)})),
            answers=self.answers_of(rule_facts),
            properties=list(dict.fromkeys(a.term.property for a in (*required, *forbidden, *has))),
        ))
        suggestions = [s for r in fired for s in r.primary if holds(s.when, self.facts)]
        return MetricChoice(metric=m.id, name=self.named(m), params=self.params(m, suggestions), reason=reason)

    def field_lead(self, pool: list[MetricRecord], hard: list[Active], prefs: list[Active],
                   primary: MetricRecord) -> MetricChoice | None:
        """The figure the author's field reports leads when the author's own answers do not argue against it
        (issue 22: CoLA's MCC was demoted for the class shares in use, which the author never gave and a benchmark
        test set does not need). Only when a premise of :data:`PREMISES` is unanswered and none is stated otherwise
        than :data:`PREMISES_NEUTRAL`: the figure must meet every requirement of a rule that holds without the
        unanswered premises, and no preference of such a rule may rank the property lead above it."""
        f = load_fields().get(self.answers.field) if self.answers.field else None
        given = self.answers.model_fields_set
        unanswered = [key for key in PREMISES if given and key not in given]
        # a premise the author stated decides, unless it is the one that asks nothing of the metric (the shares in
        # use are the test set's)
        stated = {key: getattr(self.answers, key) for key in PREMISES if key not in unanswered}
        if f is None or not unanswered or any(PREMISES_NEUTRAL.get(k) != v for k, v in stated.items()) \
                or not f.metrics:
            return None
        m = self.cat.metrics.get(f.metrics[0])
        if m is None or m.id == primary.id or m not in pool or not self._computable(m):
            return None
        stated_facts = {**self.facts, **{key: None for key in unanswered}}
        required = [a for a in hard if holds(a.rule.when, stated_facts)]
        if not filter_pool([m], required, self.k)[0]:
            return None
        stated_prefs = [a for a in prefs if holds(a.rule.when, stated_facts)]

        def score(r: MetricRecord) -> float:
            return sum(a.term.weight for a in stated_prefs if claim_of(r, a.term, self.k)[0])

        if score(primary) > score(m):
            return None
        self.primary = m
        premises = " and ".join(PREMISES[key] for key in unanswered)
        reason = (f"{m.name} is the figure {f.name} reports ({f.cite}) and meets every requirement the answers "
                  f"set; what would favour {primary.name} rests on {premises}, which the answers leave open. "
                  f"{m.interpretation}").strip()
        self.rationale.append(RationaleEntry(
            rule="primary", title=f"Primary metric: {self.named(m)}", text=reason, source=f.cite,
            answers={"field": f.id}, properties=list(dict.fromkeys(a.term.property for a in required)),
        ))
        return MetricChoice(metric=m.id, name=self.named(m), params=self.params(m, []), reason=reason)

    def ranking_field_lead(self, pool: list[MetricRecord], hard: list[Active], prefs: list[Active],
                           primary: MetricRecord) -> MetricChoice | None:
        """Systems ranked on one shared test set: the figure the author's field reports leads when what set it aside
        matters only where class shares change between the test set and use (:data:`SHIFT_ONLY`) — every system
        meets the same shares, so that changes no ranking. Not when the author said the shares in use are shifted
        (then a ranking at the test set's shares need not be the ranking in use). The figure must meet every other
        requirement and have each property a ranking on one test set depends on that the answers ask for
        (:data:`RANKING_MATTERS`: a figure that is not monotone, or lets the large classes decide while every class
        counts equally, keeps the property lead). The property lead stays beside it with its reason."""
        f = load_fields().get(self.answers.field) if self.answers.field else None
        if not self.answers.ranking or f is None or not f.metrics or self.answers.deployment_prevalence == "shifted":
            return None
        m = self.cat.metrics.get(f.metrics[0])
        if m is None or m.id == primary.id or m not in pool or not self._computable(m):
            return None
        shift = [a for a in hard if a.term.property in SHIFT_ONLY]
        if not filter_pool([m], [a for a in hard if a.term.property not in SHIFT_ONLY], self.k)[0]:
            return None
        needed = [a for a in (*hard, *prefs) if a.kind != "forbid" and a.term.property in RANKING_MATTERS]
        if not all(claim_of(m, a.term, self.k)[0] for a in needed):
            return None
        self.primary = m
        set_aside = "; ".join(dict.fromkeys(phrase(m, a.term, self.k) for a in shift if violates(m, a, self.k)))
        reason = (f"{m.name} is the figure reported in {f.name} ({f.cite}), and the systems are ranked on one test set: "
                  "every system meets the same class shares, so a score that moves with them ranks them as well"
                  + (f" ({set_aside})" if set_aside else "") + f". {m.interpretation}").strip()
        self.rationale.append(RationaleEntry(
            rule="primary", title=f"Primary metric: {self.named(m)}", text=reason, source=f.cite,
            answers={"field": f.id, "ranking": True, **self.answers_of({"deployment_prevalence"})},
            properties=list(dict.fromkeys(a.term.property for a in (*hard, *needed))),
        ))
        return MetricChoice(metric=m.id, name=self.named(m), params=self.params(m, []), reason=reason)

    def property_lead_reason(self, primary: MetricRecord) -> str:
        """Why the lead the properties chose stays beside the field's figure. Beside a figure that leads because
        systems are ranked on one test set: the property set aside, in words, and — when a fixed chance score is asked
        for and every random classifier scores the same on it — that its ranking is that of its chance-corrected
        form (an increasing affine map of it), with balanced accuracy's chance level 1/k."""
        if not self.set_aside:
            return f"the lead the properties asked for would choose; {primary.interpretation}"
        words = [_SET_ASIDE_WORDS[p] for p in sorted(self.set_aside)
                 if claim_of(primary, PropertyTerm(property=p, why=""), self.k)[0]]
        strict = claim_of(primary, PropertyTerm(property="chance_correction", detail="strict", why=""), self.k)[0]
        if strict and self.answers.chance_correction in ("preferred", "required"):
            level = f"1/{self.k}" if primary.id == "balanced_accuracy" and self.k else "the same score"
            words.append(f"every random classifier scores {level} on it in expectation, so it ranks systems as its "
                         "chance-corrected form does")
        return SET_ASIDE_PREFIX + "; ".join(words) + f". {primary.interpretation}"

    def lead_choice(self, rule: Rule, s: Suggestion) -> MetricChoice:
        """The primary metric a rule's ``lead`` names, with the rule's reason (no property trade-off)."""
        m = self.cat.metrics[s.metric]
        self.primary = m
        if "priors" in s.params:
            self.fixed_priors = m.id
        said = _render(s.reason, self.ctx())
        # the rule's reason says what the metric measures in this situation; its generic interpretation is added
        # only to a reason that does not already define it (a second definition read as a template)
        reason = said if len(said.split()) >= 30 else f"{said} {m.interpretation}".strip()
        self.rationale.append(RationaleEntry(
            rule="primary", title=f"Primary metric: {self.named(m)}", text=reason, source=rule.source,
            answers=self.answers_of(rule.facts), properties=[],
        ))
        return MetricChoice(metric=m.id, name=self.named(m), params=self.params(m, [s]), reason=reason)

    # -- beside and against --------------------------------------------------------------------
    def complementary(self, fired: list[Rule], extra: list[Suggestion], ranked: list[tuple[MetricRecord, float]],
                      ctx: dict[str, Any], lead: str | None = None) -> list[Advice]:
        out: dict[str, Advice] = {}
        suggestions = [s for r in fired for s in r.complementary if holds(s.when, self.facts)
                       and (s.with_lead is None or lead is None or lead in s.with_lead)] + extra
        for s in suggestions:
            m = self.cat.metrics.get(s.metric)
            if m is None or m.id == self.primary.id or not self._computable(m):
                continue
            reason = _render(s.reason, ctx)
            if m.id in out:
                if reason not in out[m.id].reason:
                    out[m.id] = out[m.id].model_copy(update={"reason": out[m.id].reason + "; " + reason})
                continue
            out[m.id] = Advice(metric=m.id, name=self.named(m), reason=reason, params=self.params(m, suggestions))
        return list(out.values())

    def add_views(self, complementary: list[Advice], discouraged: list[Advice], ctx: dict[str, Any]) -> None:
        """Metrics beside the lead for the views no recommended metric gives yet (choice.yaml)."""
        against = {d.metric for d in discouraged}
        chosen = [self.primary.id, *(a.metric for a in complementary)]

        def usable(mid: str) -> bool:
            m = self.cat.metrics.get(mid)
            return (m is not None and mid not in against and self._computable(m)
                    and not any(self.book.equivalent(mid, other) for other in chosen))

        def covers(mid: str, term: PropertyTerm) -> bool:
            m = self.cat.metrics.get(mid)
            return m is not None and all(claim_of(m, term, self.k)[:2])

        for s, reason in fill_views(self.choice, self.facts, chosen, covers=covers, usable=usable,
                                    render=lambda t: _render(t, ctx)):
            m = self.cat.metrics[s.metric]
            complementary.append(Advice(metric=m.id, name=self.named(m), reason=reason, params=self.params(m, [s])))

    def field_metrics(self, complementary: list[Advice], discouraged: list[Advice]) -> None:
        """The figure the author's field reports (fields.yaml), beside the lead for comparability, with the work
        that establishes it — said only for a field the answers name (issue 22)."""
        f = load_fields().get(self.answers.field) if self.answers.field else None
        if f is None:
            return
        chosen = {self.primary.id, *(a.metric for a in complementary)}
        added, present, missing, tabled = [], [], [], []
        if f.one_of and chosen & set(f.metrics):  # the alternative chosen stands for the field (its level)
            f = f.model_copy(update={"metrics": [m for m in f.metrics if m in chosen]})
        against = self.overriding(self.fired)
        a = self.answers  # label sets, partitions, …: only what that evaluation computes (a multi-label AUROC is not)
        kind = "agreement" if a.annotators else "top_k" if a.top_k else a.label_structure or "nominal"
        structured = reported_ids(kind)
        for mid in f.metrics:
            if kind == "multilabel" and mid == "roc_auc":  # per label (CheXpert's AUROC per finding) and averaged
                mid = "multilabel_macro_roc_auc"
            m = self.cat.metrics.get(mid)
            if m is None or mid in against:  # the design makes it wrong here (rules_strata.yaml)
                continue
            if mid in chosen:
                present.append(m.name)
                continue
            if structured and mid not in structured:  # the evaluation of these labels does not compute it
                missing.append(missing_input(m, self.answers) or "an evaluation of plain class labels, and these are "
                               + _EVALUATED_AS.get(kind, "evaluated otherwise"))
                continue
            if m.binary_only and mid in ONE_VS_REST and self.answers.task == "multiclass" \
                    and self.answers.positive_class is None:  # AAMI's Se and +P: one figure per class, not one
                tabled.append(m.name)
                continue
            if not self._computable(m) and not (self.answers.task == "multiclass" and self.unchosen_threshold(m)
                                                and self._computable(m, threshold=False)):
                # the most probable class is no threshold anyone chose: among several classes the field's figure of
                # labels is reported for comparability (issue 22: a router's accuracy, beside its risk-coverage)
                missing.append("a fixed operating point, since it " + _UNCHOSEN if self.unchosen_threshold(m)
                               else self._needs(mid, f.f1_classes))
                continue
            reason = f"the figure reported in {f.name} ({f.reports}; {f.cite}), for comparison with earlier work"
            complementary.append(Advice(metric=mid, name=self.named(m), reason=reason, params=self.params(m, [])))
            discouraged[:] = [d for d in discouraged if d.metric != mid]  # reported for comparability, not avoided
            chosen.add(mid)
            added.append(m.name)
        leads = self.primary.id in f.metrics
        said = [f"{self.lead_name} leads and is that figure."] if leads else []
        if added or [n for n in present if n != self.lead_name]:
            said.append("Beside the lead, for comparison with earlier work: "
                        + ", ".join([n for n in present if n != self.lead_name] + added) + ".")
        if tabled:
            said.append("A figure of one class, read for each class in the per-class table: " + ", ".join(tabled)
                        + ".")
        if missing:
            said.append("Not reported: it needs " + " and ".join(dict.fromkeys(missing)) + ".")
        text = f"In {f.name}, papers report {f.reports} ({f.cite}). " + " ".join(said)
        self.rationale.append(RationaleEntry(rule="field", title=f"The figure of {f.name}", text=text.strip(),
                                             source=f.cite, answers={"field": f.id}))

    def one_brier(self, complementary: list[Advice]) -> None:
        """In a two-class task, the Brier score in its binary form (:meth:`binary_brier`): one Brier, not both."""
        if not self.binary_brier():
            return
        binary = self.cat.metrics["brier_binary"]
        for i, c in enumerate(list(complementary)):
            if c.metric == "brier":
                complementary[i] = Advice(metric=binary.id, name=binary.name, reason=c.reason,
                                          params=self.params(binary, []))
        complementary[:] = [c for i, c in enumerate(complementary)
                            if all(c.metric != d.metric for d in complementary[:i])]

    def binary_brier(self) -> bool:
        """Whether the Brier score is reported in its binary form: the task has a positive class to take it of, and
        the author's field, if any, does not report the sum over both classes (``brier: classes`` in fields.yaml).
        The binary form is scikit-learn's and most fields' (the toxicity readers of s40 and s41: "for a binary score
        the field uses the binary form"); the sum is twice it."""
        f = load_fields().get(self.answers.field) if self.answers.field else None
        binary = self.cat.metrics.get("brier_binary")  # (a catalogue without it: the sum, the only form it has)
        return binary is not None and (f is None or f.brier != "classes") and self._computable(binary)

    def _needs(self, mid: str, named: Sequence[str]) -> str:
        """What a field's figure needs that these answers do not give."""
        if mid == "multilabel_macro_roc_auc":  # a score per label: said as the answers leave it
            return missing_input(self.cat.metrics[mid], self.answers) or "outputs these files do not have"
        if mid != "macro_f1_of_classes":
            return _NEEDS.get(mid, "outputs these files do not have")
        classes = self.answers.classes
        said = " and ".join(named) or "chosen"
        if not classes:
            return (f"the classes F1 is averaged over, the {said} classes, and the classes are not known (give "
                    "classes or f1_classes in the answers)")
        return (f"the classes F1 is averaged over, the {said} classes, and the classes here ({few_names(classes)}) "
                "have none of that name (give f1_classes in the answers)")

    def overriding(self, fired: list[Rule]) -> set[str]:
        """The metrics a fired rule advises against whatever else would report them (``overrides``)."""
        return {d.metric for r in fired for d in r.discouraged if d.overrides and holds(d.when, self.facts)
                and d.metric != self.primary.id}

    def overridden(self, fired: list[Rule], complementary: list[Advice], discouraged: list[Advice]) -> None:
        """A discouragement marked ``overrides`` wins over every reason to report the metric beside the lead (the
        design makes it wrong: rules_strata.yaml); its reason stands in the list of what is advised against."""
        for r in fired:
            for d in r.discouraged:
                if not d.overrides or not holds(d.when, self.facts) or d.metric == self.primary.id:
                    continue
                complementary[:] = [c for c in complementary if c.metric != d.metric]
                if not any(x.metric == d.metric for x in discouraged):
                    m = self.cat.metrics[d.metric]
                    reason = f"{_render(d.reason or '', self.ctx())} ({r.source}). Use {self.lead_name} instead."
                    discouraged.append(Advice(metric=m.id, name=self.named(m), reason=reason))

    def settle(self, complementary: list[Advice], discouraged: list[Advice]) -> list[Advice]:
        """Caveats said wherever a metric is offered; nothing both recommended and advised against."""
        for i, a in enumerate(complementary):
            caveat = self.choice.caveats.get(a.metric)
            if caveat and caveat not in a.reason:
                complementary[i] = a.model_copy(update={"reason": f"{a.reason}; {caveat}"})
        recommended = {self.primary.id, *(a.metric for a in complementary)}
        return [d for d in discouraged if d.metric not in recommended]

    def _computable(self, m: MetricRecord, threshold: bool = True) -> bool:
        """Whether ``m`` can be computed from these outputs and answers; ``threshold=False`` leaves out the check
        that no one chose the threshold of its labels."""
        if m.needs_subgroups:  # the subgroups of a subgroup column: planned with the subgroups, never a lead
            return False
        if m.structure != "nominal":  # ratings, top-k scores, ordered classes and label sets need their own inputs
            return {"agreement": bool(self.answers.annotators), "top_k": bool(self.answers.top_k),
                    "ordinal": self.answers.label_structure == "ordinal",
                    "multilabel": self.answers.label_structure == "multilabel"
                    and (not m.needs_probabilities or bool(self.facts.get("label_scores"))),
                    "partition": self.answers.label_structure == "partition",
                    "hierarchy": self.answers.label_structure == "hierarchy"}.get(m.structure, False)
        if m.id in _BUDGET and getattr(self.answers, _BUDGET[m.id]) is None:
            return False  # a rate at a budget nobody stated
        if m.needs_probabilities:
            outputs = self.facts.get("outputs")
            if m.binary_only and self.answers.task != "binary":
                return False
            return outputs in ("probabilities", "scores") if m.id in _SCORE_ONLY else outputs == "probabilities"
        if threshold and self.unchosen_threshold(m):
            return False
        if m.binary_only:
            if self.answers.task != "binary":  # one-vs-rest scores of a class of interest among several
                return self.answers.positive_class is not None and m.id in ONE_VS_REST
            return self.answers.positive_class is not None or (
                m.properties.get("class_symmetry") is not None
                and m.properties["class_symmetry"].status in ("holds", "binary_only"))
        if m.id in ("class_weighted_recall", "class_weighted_accuracy"):
            return bool(self.answers.class_weights)
        if m.id == "in_scope_accuracy":  # the accuracy over the classes other than the out-of-scope class of interest
            return self.answers.positive_class is not None
        if m.id == "stratified_accuracy":  # the strata's weights: the mapped shares of a sample drawn by map class
            return bool(self.answers.map_shares)
        if m.id in ("wrong_action_rate", "fallback_rate"):  # the class whose prediction takes no action
            return self.answers.fallback_class is not None
        if m.id in ("action_sensitivity", "action_specificity"):  # the classes of the action of interest
            return bool(self.answers.action_classes())
        if m.id == "macro_f1_of_classes":  # the classes given, or those of the field's definition (F1^PN)
            defined = field_f1_classes(self.answers.field, self.answers.classes)
            return bool(self.answers.f1_classes) or defined is not None
        return True

    def unchosen_threshold(self, m: MetricRecord) -> bool:
        """A decision metric at a threshold nobody chose (issue 21, item 2): the lead scores the scores or
        probabilities themselves, the outputs are scores or probabilities and no operating point was fixed — then
        a confusion-matrix metric would judge labels at an arbitrary cut, and it is not recommended beside it."""
        primary = getattr(self, "primary", None)
        return (primary is not None and primary.needs_probabilities and not m.needs_probabilities
                and m.id not in ("expected_cost", "normalized_expected_cost")
                and self.facts.get("outputs") in ("probabilities", "scores")
                and self.facts.get("operating_point") != "fixed")

    def against(self, m: MetricRecord, a: Active) -> str:
        """Why ``m`` fails the term ``a``: what it has, then what this setting asks — a requirement is said
        as one ("symmetry fails; required here: the score is the same when …"), never as a "but" that
        reads as the metric's own property."""
        said = phrase(m, a.term, self.k)
        return f"{said}; required here: {a.term.why}" if a.kind == "require" else f"{said}, but {a.term.why}"

    def discouraged(self, fired: list[Rule], terms: list[Active], ctx: dict[str, Any]) -> list[Advice]:
        out: dict[str, Advice] = {}
        for r in fired:
            own = [a for a in terms if a.rule is r]
            for d in r.discouraged:
                m = self.cat.metrics.get(d.metric)
                if m is None or m.id == self.primary.id or not holds(d.when, self.facts):
                    continue
                if m.binary_only and self.answers.task != "binary":
                    continue
                parts = []
                if d.because:
                    hits = [a for a in own if a.term.property in d.because and violates(m, a, self.k)]
                    if not hits and not d.reason and set(d.because) <= self.set_aside:
                        # set aside for this lead (the systems are ranked at the test set's shares): still avoided
                        # when it fails what a ranking on one test set depends on (weighted F1 is not monotone)
                        hits = list({a.term.property: a for a in terms if a.kind != "forbid"
                                     and a.term.property in RANKING_MATTERS and violates(m, a, self.k)}.values())
                        if not hits:
                            continue
                    if not hits and not d.reason:
                        self.rationale.append(RationaleEntry(
                            rule=r.id, title="Catalogue disagrees",
                            text=f"Rule {r.id} would discourage {m.name} ({m.id}) for lacking "
                                 f"{', '.join(d.because)}, but the catalogue says it has them; not discouraged.",
                            properties=list(d.because), answers=self.answers_of(r.facts),
                        ))
                        continue
                    parts += [self.against(m, a) for a in hits]
                if d.reason:
                    parts.append(_render(d.reason, ctx))
                reason = "; ".join(parts) + f" ({r.source}). Use {self.lead_name} instead."
                if m.id not in out:
                    out[m.id] = Advice(metric=m.id, name=self.named(m), reason=reason)
        return list(out.values())

    def rule_warnings(self, fired: list[Rule], ctx: dict[str, Any]) -> None:
        for r in fired:
            for w in r.warnings:
                if holds(w.when, self.facts):
                    self.warn(w.code, _render(w.message, ctx))

    def checks(self, fired: list[Rule], complementary: list[Advice]) -> None:
        groups = {
            "primary": [self.primary.id],
            "complementary": [a.metric for a in complementary],
            "planned": [i for res in self.resolutions for i in res.ids],
        }
        warned: dict[str, set[str]] = {}
        for r in fired:
            for c in r.checks:
                ids: list[str] = []
                for t in c.targets:
                    if t == "holders":
                        among = PropertyTerm(property=c.among or c.property, why="")
                        ids += [m.id for m in applicable(self.cat, self.answers) if claim_of(m, among, self.k)[0]]
                    else:
                        ids += groups[t]
                term = PropertyTerm(property=c.property, why="")
                lacking = []
                for mid in dict.fromkeys(ids):
                    m = self.cat.metrics.get(mid)
                    if m is None or m.needs_probabilities:
                        continue
                    if c.property == "prevalence_invariance" and getattr(self, "fixed_priors", None) == m.id:
                        continue  # evaluated at the stated deployment shares: the class mix is fixed
                    ok, _, claim = claim_of(m, term, self.k)
                    if claim is not None and not ok and m.id not in warned.get(c.code, set()):
                        lacking.append(m)
                warned.setdefault(c.code, set()).update(m.id for m in lacking)
                if lacking:
                    names = ", ".join(f"{self.named(m)} "
                                      f"({STATUS_WORDS.get(m.properties[c.property].status)})" for m in lacking)
                    self.warn(c.code, _render(c.message, self.ctx(metrics=names, primary_name=self.lead_name)))

    # -- planned metrics ------------------------------------------------------------------------
    def planned(self, kept: list[Active], complementary: list[Advice], discouraged: list[Advice]) -> None:
        self.resolutions: list[Resolution] = [self.stratified_reading(field_reading(
            resolve_name(n, self.resolver, self.cat), self.answers.field)) for n in self.answers.planned_metrics]
        ctx = self.ctx(primary=self.primary.id, primary_name=self.lead_name)
        for res in self.resolutions:
            for nc in self.book.name_checks:
                if nc.ambiguous_between:
                    hit = res.ambiguous and set(nc.ambiguous_between) <= set(res.ids)
                else:
                    hit = res.ids == [nc.resolves_to] and bool(re.search(nc.pattern or "", res.name.lower()))
                if hit and holds(nc.when, self.facts):
                    self.warn(nc.code, _render(nc.message, {**ctx, "name": res.name}))
            comments = []
            external = external_metrics(res.name) if not res.known else []
            # a metric of a task advisor does not evaluate (issue 23, item 5): said here and, first on the screen,
            # in the plan's out_of_scope notes — never "nothing can be said about its properties"
            comments += [scope_sentence(ext) for ext in external]
            judged = not res.known and not external and self.answers.judge is not None and is_agreement_rate(res.name)
            reading = (per_class_reading(res.name, self.answers.classes) if not res.known and not external
                       and self.answers.task == "multiclass" and self.answers.label_structure == "nominal" else None)
            if judged:
                comments.append(f"{res.name!r}: the agreement rate of the judge with each human rater and of the "
                                "human raters with each other is reported with the judge comparison.")
            elif reading is not None and self.answers.map_shares and reading.cls is None \
                    and reading.quantity in ("precision", "recall"):  # a sample drawn by map class (Olofsson 2014)
                words = "user's" if reading.quantity == "precision" else "producer's"
                comments.append(f"{res.name!r} reads as the {words} accuracy of every class, which the report's "
                                "table of accuracy and area estimated from area proportions shows.")
            elif reading is not None:  # "user's accuracy", "out-of-scope recall": a figure of the per-class table
                comments.append(f"{res.name!r} reads as {reading.words}, which the report's per-class table shows"
                                + ("" if reading.matched else " if the data have a class of that name") + ".")
            elif not res.known and not external:
                self.warn("unknown_metric", (
                    f"The planned metric {res.name!r} is not in the catalogue, so nothing can be said "
                    "about its properties; `advisor metrics` lists the known names."
                ))
                comments.append(f"{res.name!r}: not in the catalogue, so nothing can be said about its properties.")
            for mid in res.ids:
                comments.append(self.comment_planned(res, mid, kept, complementary, discouraged))
            facts = {f for a in kept for f in a.rule.facts}
            self.rationale.append(RationaleEntry(
                rule="planned_metric", title=f"Planned: {res.name}",
                text=" ".join(comments) + (f" Catalogue note: {res.note}" if res.note and res.known else ""),
                answers={"planned_metrics": self.answers.planned_metrics, **self.answers_of(facts)},
                properties=list(dict.fromkeys(a.term.property for a in kept)),
            ))

    def stratified_reading(self, res: Resolution) -> Resolution:
        """A sample drawn by map class: the planned "overall accuracy" is the one estimated from area proportions
        (Olofsson et al. 2014), not the sample's share of correct items."""
        if self.answers.map_shares and res.ids == ["accuracy"] and "overall" in res.name.lower():
            return Resolution(res.name, ["stratified_accuracy"], "estimated from area proportions, the strata "
                              "weighted by their mapped shares")
        return res

    def comment_planned(self, res: Resolution, mid: str, kept: list[Active], complementary: list[Advice],
                        discouraged: list[Advice]) -> str:
        m = self.cat.metrics[mid]
        label = f"{res.name!r} → {m.name} ({mid})"
        against = next((d for r in self.fired for d in r.discouraged if d.metric == mid and d.overrides
                        and holds(d.when, self.facts)), None)
        if against is not None and mid != self.primary.id:  # the design makes it wrong (rules_strata.yaml)
            return f"{label}: advised against here — {_render(against.reason or '', self.ctx())}."
        if mid == self.primary.id:
            return f"{label}: fits — it is the recommended primary metric."
        if self.set_aside and res.ambiguous and self.primary.id in res.ids:
            # the name also reads as the lead, the field's figure: that is the one meant (the warning names both)
            return f"{label}: the other formula of this name; the lead is the one reported under it."
        if mid == "brier" and self.binary_brier() and any(c.metric == "brier_binary" for c in complementary):
            field = self.answers.field and load_fields().get(self.answers.field)
            return f"{label}: reported beside {self.lead_name} in its binary form, " + (
                "as the author's field reports it." if field and field.brier == "binary" else
                "the mean squared error of the positive class's probability, as scikit-learn computes it.")
        beside = next((c for c in complementary if c.metric == mid), None)
        if beside is not None and not self._computable(m):  # the field's figure, reported for comparability
            return f"{label}: reported beside {self.lead_name}: {beside.reason}."
        if not self._computable(m) and m.binary_only and self.answers.task == "multiclass" \
                and self.answers.label_structure == "nominal" and mid in ("recall", "precision", "f1"):
            # among several classes a metric of one class is a column of the per-class table (AAMI's Se and +P)
            return f"{label}: shown for every class in the report's per-class table."
        if not self._computable(m):
            why = (_STRUCTURE_NEEDS.get(m.structure) if m.structure != "nominal" else "needs probabilities"
                   if m.needs_probabilities else _UNCHOSEN if self.unchosen_threshold(m)
                   else "is defined for binary tasks with a positive class only")
            if self.unchosen_threshold(m) and not any(d.metric == mid for d in discouraged):
                # said to the author as advice, not as "neither reported nor advised against" (issue 22)
                discouraged.append(Advice(metric=mid, name=self.named(m),
                                          reason=f"planned as {res.name!r}, but it {why}."))
            return f"{label}: does not fit — it {why}; use {self.lead_name} instead."
        bad = [a for a in kept if violates(m, a, self.k)]
        beside = next((c for c in complementary if c.metric == mid), None)
        if bad and beside is not None:
            reason = "; ".join(phrase(m, a.term, self.k) for a in bad)
            return (f"{label}: not as the lead metric ({reason}), but report it beside "
                    f"{self.lead_name}: {beside.reason}.")
        formula = self.choice.community_formula(mid, self.facts) if bad and beside is None else None
        if formula is not None:  # the community's figure: beside the lead with its formula (issue 11)
            formula = _render(formula, self.ctx())
            lacks = "; ".join(phrase(m, a.term, self.k) for a in bad)
            complementary.append(Advice(metric=mid, name=self.named(m), params=self.params(m, []), reason=(
                f"you planned it ({res.name!r}); reported beside {self.lead_name} with its formula — {formula} — "
                f"not as the lead ({lacks})")))
            discouraged[:] = [d for d in discouraged if d.metric != mid]
            return (f"{label}: not as the lead ({lacks}), but reported beside {self.lead_name} as planned, with its "
                    f"formula: {formula}.")
        if bad:
            reason = "; ".join(self.against(m, a) for a in bad)
            text = f"does not fit — {reason}. Use {self.lead_name} ({self.primary.id}) instead"
            if not any(d.metric == mid for d in discouraged):
                discouraged.append(Advice(metric=mid, name=self.named(m),
                                          reason=f"planned as {res.name!r}, but it {text}."))
            return f"{label}: {text}."
        lacked = sorted({
            a.term.label for a in self.prefs
            if claim_of(self.primary, a.term, self.k)[0] and not claim_of(m, a.term, self.k)[0]
        })
        short = f", but unlike {self.lead_name} it lacks {', '.join(lacked)}" if lacked else ""
        if not any(c.metric == mid for c in complementary):
            complementary.append(Advice(
                metric=mid, name=self.named(m), params=self.params(m, []),
                reason=f"you planned it ({res.name!r}) and it meets every requirement"
                       + (f" ({', '.join(sorted({_asked(a) for a in kept}))})" if kept else "") + short,
            ))
        return f"{label}: fits — it meets every requirement{short}; report it beside {self.lead_name}."


#: score metrics a single binary score gives (the others need probabilities)
#: metrics read at a budget → the answers key that states it
_BUDGET = {"tpr_at_fpr": "fpr_budget", "partial_roc_auc": "fpr_budget", "precision_at_k": "review_share",
           "recall_at_k": "review_share"}
#: Answers whose default is a premise about the author's situation, not a fact of the task: left unanswered, they
#: do not displace the field's figure from the lead (:meth:`_Run.field_lead`)
PREMISES = {"deployment_prevalence": "the class shares where the classifier will be used",
            "class_weighting": "how much each class counts"}
#: The answer to a premise that asks nothing of the metric: the field's figure may still lead
PREMISES_NEUTRAL = {"deployment_prevalence": "same"}

#: Properties that matter only when class shares differ between the test set and use: no reason to keep a field's
#: figure from the lead when systems are ranked on one shared test set (:meth:`_Run.ranking_field_lead`)
SHIFT_ONLY = frozenset({"prevalence_invariance"})
#: said after the rationale of a rule whose requirement was set aside for a ranking on one test set
_SET_ASIDE_NOTE = (" Set aside for the lead: the systems are ranked on one test set, where every system meets the same "
                   "class shares, so {lead}, the field's figure, leads and this requirement decides what stands "
                   "beside it.")
#: the properties set aside, in words
_SET_ASIDE_WORDS = {"prevalence_invariance": PROPERTY["prevalence_invariance"]}
#: Properties a ranking on one test set depends on, when the answers ask for them: a correct prediction never lowers
#: the score, only a perfect prediction scores best, small classes move the score
RANKING_MATTERS = frozenset({"opitz_monotonicity", "max_agreement", "class_sensitivity"})

#: what a field's figure needs when it cannot be computed here
_NEEDS = {"tpr_at_fpr": "a false positive rate budget (fpr_budget in the answers, or --max-fpr)",
          "partial_roc_auc": "a false positive rate budget (fpr_budget in the answers, or --max-fpr)",
          "precision_at_k": "a review budget (review_share in the answers, or --alerts)",
          "recall_at_k": "a review budget (review_share in the answers, or --alerts)",
          "calibration_intercept": "predicted probabilities of a class of interest in a binary task",
          "calibration_slope": "predicted probabilities of a class of interest in a binary task",
          "roc_auc": "scores or probabilities",
          "class_weighted_recall": "class weights (class_weighting: custom, with class_weights in the answers)",
          "class_weighted_accuracy": "class weights (class_weighting: custom, with class_weights in the answers)",
          "stratified_accuracy": "a sample stratified by the predicted class, with the mapped share of each class "
                                 "(map_shares in the answers)",
          "in_scope_accuracy": "the out-of-scope class, named as the class of interest (positive_class in the answers)",
          "wrong_action_rate": "the class whose prediction takes no action (fallback_class in the answers)",
          "fallback_rate": "the class whose prediction takes no action (fallback_class in the answers)",
          "action_sensitivity": "the classes grouped by the action they lead to, with the action whose miss is costly "
                                "named (actions and action_of_interest in the answers)",
          "action_specificity": "the classes grouped by the action they lead to, with the action whose miss is costly "
                                "named (actions and action_of_interest in the answers)"}
_SCORE_ONLY = ("roc_auc", "average_precision", "tpr_at_fpr", "partial_roc_auc", "ks_statistic", "precision_at_k",
               "recall_at_k")
_UNCHOSEN = ("scores labels at a threshold nobody chose, while no operating point is fixed (give operating_point: "
             "fixed, or a budget, to evaluate decisions)")

def missing_input(m: MetricRecord, answers: Answers) -> str | None:
    """What ``m`` needs that these answers do not give, as a clause after "it needs" (the answers key that would
    give it named); None when nothing is missing. A planned metric that is not computed says this, never "neither
    reported nor advised against" (issue 22).

    >>> from advisor.catalogue import get_catalogue
    >>> missing_input(get_catalogue().metrics["roc_auc"], Answers(task="binary", outputs="labels"))
    "the model's scores or probabilities, and the outputs are labels only (answers key outputs)"
    >>> missing_input(get_catalogue().metrics["specificity"], Answers(task="multiclass", n_classes=3))
    'one class of interest among the classes, and none is named (answers key positive_class)'
    """
    outputs = answers.facts().get("outputs")
    if answers.label_structure == "multilabel" and m.needs_probabilities and (
            m.structure == "nominal" or not answers.label_scores()):
        need = f"a score for every label of every {answers.item_name or 'item'}"
        if outputs == "labels" and answers.model_fields_set and "outputs" not in answers.model_fields_set:
            # the answers gave scores, the data hold label sets only (advisor.report's structured build)
            return f"{need}, and these predictions hold label sets (0 or 1 per label) only"
        if outputs == "labels":
            return f"{need}, and the system outputs labels only (answers key outputs)"
        if answers.label_scores():  # scores per label: their ROC AUC is the multi-label one, per label and averaged
            return f"{need}, read per label as each label's ROC AUC and their mean"
        return f"{need}, and the answers do not say the model gives them (answers key outputs)"
    if m.needs_probabilities:
        if m.binary_only and answers.task != "binary" and m.id not in _SCORE_ONLY:
            return "the probabilities of a class of interest in a binary task"
        score = m.id in _SCORE_ONLY
        if outputs not in (("probabilities", "scores") if score else ("probabilities",)):
            what = "the model's scores or probabilities" if score else "the model's predicted probabilities"
            given = {"labels": "the outputs are labels only", "scores": "the outputs are scores, not probabilities",
                     None: "the answers do not say the model gives them"}.get(outputs, "the outputs do not have them")
            return f"{what}, and {given} (answers key outputs)"
    if m.id in _BUDGET and getattr(answers, _BUDGET[m.id]) is None:
        return _NEEDS[m.id]
    if m.id in ("class_weighted_recall", "class_weighted_accuracy") and not answers.class_weights:
        return _NEEDS[m.id]
    if m.id == "in_scope_accuracy" and answers.positive_class is None:
        return _NEEDS[m.id]
    if m.id in ("wrong_action_rate", "fallback_rate") and answers.fallback_class is None:
        return _NEEDS[m.id]
    if m.id in ("action_sensitivity", "action_specificity") and not answers.action_classes():
        return _NEEDS[m.id]
    if m.binary_only and answers.task != "binary":
        if answers.positive_class is None:
            return "one class of interest among the classes, and none is named (answers key positive_class)"
        if m.id not in ONE_VS_REST and not m.needs_probabilities:
            return "two classes, and this task has more"
    if m.id == "macro_f1_of_classes" and not answers.f1_classes \
            and field_f1_classes(answers.field, answers.classes) is None:
        return "the classes F1 is averaged over (answers key f1_classes)"
    return None


#: how labels of a structure are evaluated, after "these are" (a field's figure of plain labels is not computed)
_EVALUATED_AS = {"multilabel": "evaluated as label sets", "partition": "evaluated as partitions",
                 "hierarchy": "evaluated as classes in a taxonomy", "ordinal": "evaluated as ordered classes",
                 "top_k": "evaluated by their top-k scores", "agreement": "evaluated as ratings of several annotators"}
#: why a metric of another structure cannot be computed in this situation
_STRUCTURE_NEEDS = {
    "agreement": "scores the agreement of several annotators, which needs their ratings (no annotators are given)",
    "top_k": "scores the k highest-scored classes, which needs top_k and the class scores",
    "ordinal": "needs ordered classes (label_structure: ordinal)",
    "multilabel": "scores sets of labels per item (label_structure: multilabel)",
    "partition": "compares two partitions with arbitrary cluster ids (label_structure: partition)",
    "hierarchy": "scores classes in a taxonomy, which needs the tree (label_structure: hierarchy, --taxonomy FILE)",
}


def _mapping_text(mapping: dict[Any, float] | None) -> str:
    if not mapping:
        return "not given"
    return ", ".join(f"{k}: {v:g}" for k, v in mapping.items())


def recommend(
    answers: Answers | dict[str, Any],
    data: Any = None,
    *,
    catalogue: Catalogue | None = None,
    rules: RuleBook | None = None,
    resolver: Callable[[str], Any] | None = None,
) -> Recommendation:
    """Recommend a primary metric, metrics to report beside it and metrics to avoid, with reasons.

    Parameters
    ----------
    answers : Answers or mapping
        The questionnaire's answers (a mapping is validated like an answers file).
    data : PredictionSet, ConfusionMatrix or mapping of name → ConfusionMatrix, optional
        Predictions or matrices: the task, classes, balance, number of systems and probabilities are
        read from them, and ``undefined_values`` / ``small_sample`` warnings added.
    catalogue, rules, resolver
        Alternatives to the packaged catalogue, rule book and name resolver (for tests).

    Returns
    -------
    Recommendation
        ``.to_json_dict()`` gives ``{"primary": {"metric", "params"}, "complementary": [...],
        "discouraged": [...], "warnings": [...], "rationale": [...], "answers": {...}}``.
    """
    if not isinstance(answers, Answers):
        answers = answers_from_mapping(answers)
    for name, given, kind in (("catalogue", catalogue, Catalogue), ("rules", rules, RuleBook)):
        if given is not None and not isinstance(given, kind):
            raise InputError(f"{name} must be a {kind.__name__} (or None for advisor's own); got {type(given).__name__}.")
    if resolver is not None and not callable(resolver):
        raise InputError(f"resolver must be a function of a metric name, or None; got {type(resolver).__name__}.")
    book = rules or load_rules()
    if catalogue is None:
        catalogue = get_catalogue()
    if resolver is None:
        resolve_metric = default_resolver()
        chosen = catalogue

        def resolver(name: str) -> Any:
            return resolve_metric(name, chosen)

    pre_warnings: list[Warning] = []
    data_entry: RationaleEntry | None = None
    summary = None
    if data is not None:
        summary = summarize(data)
        answers, mismatch, notes = apply_data(answers, summary, book.settings)
        pre_warnings += mismatch + data_warnings(summary, book.settings)
        data_entry = RationaleEntry(
            rule="data", title="What the data shows",
            text=("; ".join(notes)[:1].upper() + "; ".join(notes)[1:] + ".") if notes else "",
            source="advisor (data inference)",
            answers={k: v for k, v in answers.model_dump(mode="json").items()
                     if k in ("task", "n_classes", "classes", "test_set_balanced", "ranking", "probabilities")},
        )
    run = _Run(answers, catalogue, book, resolver)
    if summary is not None:
        run.facts.update(
            has_data=True, n_systems=len(summary.systems),
            imbalanced=not summary.balanced(book.settings.balance_ratio),
        )
    run.warnings.extend(pre_warnings)
    if data_entry is not None:
        run.rationale.append(data_entry)
    rec = run.run()
    # ordered classes, label sets, top-k, annotators (issue 12)
    return apply_structure(rec, run.fired, catalogue, run.facts, run.ctx(), _render, book)
