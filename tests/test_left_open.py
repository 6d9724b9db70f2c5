"""What a field's reports also state and no answer gives is said to the authors, never assumed (fields.yaml
``left_open``; the s45–s47 readers: "the text is silent instead of asking for them").

A diagnostic accuracy study states how indeterminate and missing results were handled and its intended sample size
(STARD 2015 items 15, 16 and 18); the answers have no key for them, so the methods may not state them, and saying
nothing left the reader to find the gap. They are listed after the methods under "Left to the authors", with the
guideline that asks for them; an item the author's context or notes already speak of is not listed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from advisor.questionnaire import answers_from_mapping, load_fields
from advisor.report import build_report, methods_paragraph

from test_methods_prose import prose_of, sentences, words

SITUATIONS = Path(__file__).parent / "situations"
BIB = Path(__file__).resolve().parents[1] / "advisor" / "catalogue" / "references.bib"


def _left(answers: dict) -> str:
    ctx = build_report(answers_from_mapping(answers), None, bootstrap=0)
    return "".join(s.text for p in ctx.methods if p.heading == "Left to the authors" for s in p.spans
                   if s.kind != "cite")


def test_a_diagnostic_study_is_told_what_stard_asks_that_it_did_not_say() -> None:
    answers = yaml.safe_load((SITUATIONS / "diagnostic.yaml").read_text(encoding="utf-8"))
    md = methods_paragraph(answers, "md", seed=1)
    assert ("**Left to the authors.** Readers of diagnostic accuracy studies also look for how indeterminate results "
            "were handled, how missing results were handled and the intended sample size, as items 15, 16 and 18 of "
            "STARD 2015 ask (Bossuyt et al. 2015). They were not given, so the text above does not state them.") in md
    # after the methods, never inside the paragraph a paper keeps
    evaluation = md.split("\n\n")[0]
    assert "STARD 2015 ask" not in evaluation and md.index("**Left to the authors.**") > md.index("**Evaluation.**")
    # the author who said it: that item is no longer listed, the rest is
    # and the guideline's items are those of the facts listed (the reviewer: "items 15, 16 and 18" beside one fact)
    said = _left({**answers, "context": answers["context"] + " Unreadable radiographs count as positive."})
    assert "indeterminate" not in said
    assert ("how missing results were handled and the intended sample size, as items 16 and 18 of STARD 2015 ask"
            in said) and "They were not given" in said
    said = _left({**answers, "notes": "Unreadable and missing results count as positive."})
    assert "also look for the intended sample size, as item 18 of STARD 2015 ask" in said and "It was not given" in said
    # a phrase counts only as whole words: an AI-powered reader says nothing of a power calculation
    assert "the intended sample size" in _left({**answers, "context": "An AI-powered power-calculation-free reader."})
    # everything said: no paragraph at all
    told = {**answers, "notes": "Indeterminate results are reported as positive, missing results as negative; the "
                                "sample size was set for a sensitivity half-width of 5 points."}
    assert _left(told) == ""


def test_no_field_or_a_field_without_such_items_says_nothing() -> None:
    for name in ("sentiment", "loan", "toxic"):
        answers = yaml.safe_load((SITUATIONS / f"{name}.yaml").read_text(encoding="utf-8"))
        assert _left(answers) == "", name
        assert _left({**answers, "field": None}) == "", name


@pytest.mark.parametrize("fid", sorted(f.id for f in load_fields().values() if f.left_open))
def test_every_field_item_is_sourced_and_reads_as_one_sentence(fid: str) -> None:
    field = load_fields()[fid]
    keys = set(re.findall(r"@\w+\{([^,]+),", BIB.read_text(encoding="utf-8")))
    assert field.left_open_sources and set(field.left_open_sources) <= keys
    md = methods_paragraph({"field": fid, "task": "binary", "classes": ["a", "b"], "positive_class": "b"}, "md",
                           seed=1)
    block = next(b for b in md.split("\n\n") if b.startswith("**Left to the authors.**"))
    text = prose_of(block)[0]
    assert all(len(words(s)) <= 40 for s in sentences(text)), text  # every item listed: the longest case
    assert "answers" not in text.lower() and "advisor" not in text.lower()  # the paper's words, not the tool's
    assert all(x.text in text for x in field.left_open)


def test_the_plan_carries_what_is_left_to_the_authors() -> None:
    """The plan, the one object every output works from, holds the list the methods say (the API and JSON)."""
    from advisor.plan import make_plan

    plan = make_plan(str(SITUATIONS / "diagnostic.yaml"))
    assert plan.left_open == ["how indeterminate results were handled", "how missing results were handled",
                              "the intended sample size"]
    assert make_plan(str(SITUATIONS / "loan.yaml")).left_open == []
    assert "left_open" in plan.model_dump(mode="json")
