"""What :func:`~advisor.questionnaire.recommend` returns, and its JSON and text forms."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ._answers import Answers
from ._html import recommendation_html
from ._screen import explain_text, screen_text

__all__ = ["Advice", "MetricChoice", "RationaleEntry", "Recommendation", "Warning"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MetricChoice(_Model):
    """The lead metric: catalogue id, parameters (β, positive label) and why it leads."""

    metric: str
    name: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""


class Advice(_Model):
    """A metric to report beside the primary one, or to avoid, with the reason."""

    metric: str
    name: str = ""
    reason: str
    params: dict[str, Any] = Field(default_factory=dict)


class Warning(_Model):  # noqa: A001 - the issue's vocabulary
    code: str
    message: str


class RationaleEntry(_Model):
    """One step of the reasoning: a rule that fired (or the engine's choice), what it rests on."""

    rule: str
    title: str = ""
    text: str
    source: str = ""
    answers: dict[str, Any] = Field(default_factory=dict)
    properties: list[str] = Field(default_factory=list)
    duties: list[str] = Field(default_factory=list)
    diagnostics: list[str] = Field(default_factory=list, description="what the report shows for the duties")


class Recommendation(_Model):
    """A justified metric choice.

    ``to_json_dict()`` gives the documented JSON shape::

        {"primary": {"metric", "params"}, "complementary": [{"metric", "reason", "params"}],
         "discouraged": [{"metric", "reason"}], "warnings": [{"code", "message"}],
         "rationale": [...], "answers": {...}}
    """

    primary: MetricChoice
    complementary: list[Advice] = Field(default_factory=list)
    discouraged: list[Advice] = Field(default_factory=list)
    warnings: list[Warning] = Field(default_factory=list)
    rationale: list[RationaleEntry] = Field(default_factory=list)
    answers: Answers

    @property
    def duties(self) -> list[str]:
        """Every reporting duty of the fired rules, in order, without repeats."""
        out: list[str] = []
        for entry in self.rationale:
            for d in entry.duties:
                if d not in out:
                    out.append(d)
        return out

    @property
    def warning_codes(self) -> list[str]:
        return [w.code for w in self.warnings]

    def params_for(self, metric: str) -> dict[str, Any]:
        """Parameters of any recommended metric (e.g. β of a complementary Fβ)."""
        if metric == self.primary.metric:
            return dict(self.primary.params)
        for a in self.complementary:
            if a.metric == metric:
                return dict(a.params)
        return {}

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "primary": {"metric": self.primary.metric, "params": dict(self.primary.params)},
            "complementary": [{"metric": a.metric, "reason": a.reason, "params": dict(a.params)}
                              for a in self.complementary],
            "discouraged": [{"metric": a.metric, "reason": a.reason} for a in self.discouraged],
            "warnings": [{"code": w.code, "message": w.message} for w in self.warnings],
            "rationale": [e.model_dump() for e in self.rationale],
            "answers": self.answers.model_dump(mode="json"),
        }

    def _repr_html_(self) -> str:
        """The recommendation as an HTML table in a notebook (:mod:`advisor.questionnaire._html`)."""
        return recommendation_html(self)

    def to_text(self) -> str:
        """The recommendation on one screen: the lead and why, what to report beside it, what to
        avoid as the lead, warnings in plain words (no internal ids, no scores)."""
        return screen_text(self)

    def to_explain_text(self) -> str:
        """The one-screen view followed by the full reasoning, the duties and the warnings in full."""
        return explain_text(self)
