"""The number of systems compared (answers ``systems``): before data it decides how the methods compare them.

Without it, a comparison is said as a condition ("should several systems be compared, …"): nothing says there is
more than one. The ImageNet readers of s41–s43 read that hedge where the author's context said "we compare two
networks". With ``systems`` answered, the methods say before data what the report says with data for that many
systems; the data's count holds once there are data.
"""

from __future__ import annotations

import pytest

import advisor
from advisor.plan import make_plan
from advisor.report import build_report, methods_paragraph

BASE = {"task": "multiclass", "classes": ["a", "b", "c"], "planned_metrics": ["accuracy", "macro F1"],
        "item_name": "item"}


def _intervals(answers: dict) -> str:
    text = methods_paragraph(answers, "md", seed=1).split("\n")[0]
    return text[text.index("Intervals"):]


def test_two_systems_are_compared_as_the_report_compares_two():
    said = _intervals({**BASE, "systems": 2})
    assert "2,000 paired bootstrap resamples" in said
    assert "One system is called better than the other only when the interval of their paired difference" in said
    assert "McNemar's exact test and Newcombe's interval for paired proportions" in said
    plan = make_plan({**BASE, "systems": 2})
    assert plan.design.systems == 2 and plan.design.paired and "McNemar" in (plan.design.test or "")


def test_more_systems_name_the_winners_and_one_system_no_comparison():
    three = _intervals({**BASE, "systems": 3})
    assert "the winners are the systems that may be best" in three and "at 5%/2" in three
    one = _intervals({**BASE, "systems": 1})
    assert "paired" not in one and "should several" not in one and "better than the other" not in one
    assert make_plan({**BASE, "systems": 1}).design.paired is False


def test_the_datas_count_holds_once_there_are_data():
    y = ["a", "b", "c"] * 20
    data = {"y_true": y, "m1": y[:-3] + ["b", "c", "a"], "m2": y[:-6] + ["c"] * 6, "m3": ["a"] * 60}
    ctx = build_report({**BASE, "systems": 2}, data, seed=1, bootstrap=200)
    assert len(ctx.systems) == 3 and ctx.plan["design"]["systems"] == 3
    text = " ".join(s.text for p in ctx.methods for s in p.spans if s.kind == "text")
    assert "better than the other" not in text  # three systems: the winners, not a pair


def test_the_answer_is_a_whole_number_of_at_least_one():
    with pytest.raises(advisor.InputError):
        make_plan({**BASE, "systems": 0})


def test_the_plan_says_where_the_answer_went():
    use = next(a for a in make_plan({**BASE, "systems": 2}).answers if a.key == "systems")
    assert use.used_by and "compare the 2 systems on the same items" in use.used_by[0] and use.unused is None
    one = next(a for a in make_plan({**BASE, "systems": 1}).answers if a.key == "systems")
    assert "no comparison" in one.used_by[0]
