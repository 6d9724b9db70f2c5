"""Choosing the metrics beside the lead for the information they add (issue 11, item 6).

The data is ``choice.yaml``: *views* (the item-level figure for comparison, the per-class view, the
chance-corrected view, the cost view), *community* metrics (reported beside the lead with their formula
when the user plans them, even where they cannot lead) and *caveats* said wherever a metric is offered.
The property filter of the rule book still decides the lead; nothing here changes it.

Principles, tested on every bundled answers file (``tests/test_choice.py``): no metric is both
recommended (lead or beside it) and advised against; each metric beside the lead adds a view no other
recommended metric gives (no two of them rank systems alike, ``same_ranking``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from pydantic import Field, model_validator

from ._conditions import holds
from ._rules import PropertyTerm, Suggestion, _Strict

__all__ = ["Choice", "CommunityMetric", "View", "load_choice"]


class View(_Strict):
    """A kind of information a reader needs beside the lead."""

    id: str
    title: str
    when: dict[str, Any] | None = None
    covered_by: list[str] = Field(default_factory=list)
    covered_by_property: PropertyTerm | None = None
    candidates: list[Suggestion]

    @model_validator(mode="before")
    @classmethod
    def _term(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("covered_by_property"), dict):
            data = {**data, "covered_by_property": {"why": "covers the view", **data["covered_by_property"]}}
        return data


class CommunityMetric(_Strict):
    """A metric a community reports; planned by the user, it is reported beside the lead with its formula."""

    metric: str
    formula: str
    when: dict[str, Any] | None = None


class Choice(_Strict):
    views: list[View] = Field(default_factory=list)
    community: list[CommunityMetric] = Field(default_factory=list)
    caveats: dict[str, str] = Field(default_factory=dict)

    def metric_ids(self) -> set[str]:
        """Every metric id named (tests check them against the catalogue)."""
        out = {c.metric for v in self.views for c in v.candidates} | {m for v in self.views for m in v.covered_by}
        return out | {c.metric for c in self.community} | set(self.caveats)

    def community_formula(self, metric: str, facts: dict[str, Any]) -> str | None:
        """The formula to name for a planned community metric, or None if it is not one here."""
        return next((c.formula for c in self.community if c.metric == metric and holds(c.when, facts)), None)


@lru_cache(maxsize=1)
def load_choice() -> Choice:
    """The packaged ``choice.yaml``, validated."""
    text = resources.files(__package__).joinpath("choice.yaml").read_text(encoding="utf-8")
    return Choice.model_validate(yaml.safe_load(text) or {})


def fill_views(choice: Choice, facts: dict[str, Any], chosen: list[str], *, covers: Callable[[str, PropertyTerm], bool],
               usable: Callable[[str], bool], render: Callable[[str], str]) -> list[tuple[Suggestion, str]]:
    """``(suggestion, reason)`` for every view that applies and no chosen metric covers yet.

    ``chosen`` — the lead and the metrics already beside it (updated in place); ``covers(metric, term)``
    — whether a metric's verified claim meets a term; ``usable(metric)`` — computable here, not advised
    against, not ranking like a chosen metric.
    """
    out: list[tuple[Suggestion, str]] = []
    for view in choice.views:
        if not holds(view.when, facts):
            continue
        if any(m in view.covered_by for m in chosen):
            continue
        term = view.covered_by_property
        if term is not None and any(covers(m, term) for m in chosen):
            continue
        for cand in view.candidates:
            if holds(cand.when, facts) and cand.metric not in chosen and usable(cand.metric):
                chosen.append(cand.metric)
                out.append((cand, render(cand.reason)))
                break
    return out
