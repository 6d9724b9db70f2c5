"""Objects that show themselves in a notebook (issue 24 item 7): the report, an evaluation, a comparison."""

from __future__ import annotations

import advisor


def _data() -> dict[str, list[str]]:
    truth = list("aabbccaabbccaabbcc") * 4
    return {"y_true": truth, "<b>sys&1</b>": [t if i % 5 else "a" for i, t in enumerate(truth)],
            "other": [t if i % 3 else "b" for i, t in enumerate(truth)]}


def test_a_report_shows_its_body_tables_and_figures_in_a_notebook() -> None:
    ctx = advisor.build_report({"task": "multiclass"}, _data(), bootstrap=200, seed=1, title="Run <1> & co")
    html = ctx._repr_html_()
    assert html.startswith('<div class="advisor-report">') and html.endswith("</div>")
    assert "<table" in html and "<svg" in html and "Methods" in html  # Table 1, figures, the methods
    assert "<style" not in html and "<html" not in html and "<body" not in html  # the notebook keeps its own style
    assert "Run &lt;1&gt; &amp; co" in html and "<b>sys&1</b>" not in html  # user text escaped


def test_evaluation_and_comparison_show_tables() -> None:
    d = _data()
    truth = d.pop("y_true")
    ev = advisor.evaluate(truth, d)
    assert "<table" in ev._repr_html_() and "&lt;b&gt;sys&amp;1&lt;/b&gt;" in ev._repr_html_()
    cmp = advisor.compare_systems(truth, d, n_resamples=200, seed=1)
    assert "<table" in cmp._repr_html_()
