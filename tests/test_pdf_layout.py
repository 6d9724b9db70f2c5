"""The printed report, measured page by page (issue 22 item 6: "no page before the appendix more than half
empty; no orphaned heading; continued tables repeat their header").

Each case is written as HTML by ``advisor report`` and laid out by WeasyPrint exactly as ``-o report.pdf`` lays
it out; the page boxes are then measured: how far down each page the content reaches, which block ends the
page, and whether a table that runs onto a second page repeats its header row there. Before these checks the
digits report had a page 6 filled to 6 % (the appendix forced a new page after one paragraph of notes), the
screening report a page 3 filled to 29 % (a 40-row figure of paired differences did not fit below Figure 1).

WeasyPrint's page boxes (``page._page_box``) are an internal of WeasyPrint; the test reads them because no
public API reports the layout. If a WeasyPrint upgrade renames them the test fails loudly, not silently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import report_in, write_table

weasyprint = pytest.importorskip("weasyprint")

ROOT = Path(__file__).resolve().parents[1]
ST = ROOT / "examples" / "structures"
HALF = 0.5

CASES: dict[str, tuple[Path, list[str]]] = {
    "digits": (ROOT, ["--answers", "examples/report/digits_answers.yaml", "examples/digits/logreg.csv",
                      "examples/digits/tree.csv", "--seed", "2024"]),
    "screening": (ROOT, ["--answers", "examples/answers/medical_screening.yaml",
                         "examples/scores/screening_sensitive.csv", "examples/scores/screening_specific.csv",
                         "--seed", "7"]),
    "ordinal": (ST, ["--answers", "ordinal_answers.yaml", "ordinal_near.csv", "ordinal_far.csv", "--order",
                     "1,2,3,4,5", "--seed", "2024", "--bootstrap", "200"]),
    "annotators": (ST, ["--answers", "annotators_answers.yaml", "annotators.csv", "--seed", "2024",
                        "--bootstrap", "200"]),
}


def _many_classes(tmp: Path) -> tuple[Path, list[str]]:
    """100 classes, 3,000 items, two systems: the per-class values go to a CSV beside a sorted figure."""
    import numpy as np

    rng = np.random.default_rng(3)
    y = np.arange(3_000) % 100
    files = []
    for name, right in (("a", 0.7), ("b", 0.8)):
        pred = np.where(rng.random(y.size) < right, y, rng.integers(0, 100, y.size))
        files.append(str(write_table(tmp / f"{name}.csv", {"y_true": [f"c{i}" for i in y],
                                                           "y_pred": [f"c{i}" for i in pred]})))
    (tmp / "a.yaml").write_text("task: multiclass\n")
    return tmp, ["--answers", "a.yaml", *files, "--bootstrap", "200", "--seed", "1"]


def _walk(box: Any) -> Iterator[Any]:
    """The boxes of a page in document order, without the page's margin boxes (the page number)."""
    if type(box).__name__ == "MarginBox":
        return
    yield box
    for child in getattr(box, "children", None) or []:
        yield from _walk(child)


def _text(box: Any) -> str:
    return "".join(getattr(b, "text", "") or "" for b in _walk(box)).strip()


class Page:
    """One laid-out page: how full it is, its blocks in order, its tables."""

    def __init__(self, number: int, page: Any) -> None:
        box = page._page_box
        self.number = number
        top, height = box.content_box_y(), box.height
        bottom = top
        self.blocks: list[tuple[str, str]] = []  # (tag, text) of block-level elements with text, in order
        self.tables: list[Any] = []
        for b in _walk(box):
            kind = type(b).__name__
            if kind in ("TextBox", "LineBox") or kind.endswith("ReplacedBox"):
                bottom = max(bottom, b.position_y + b.margin_height())
            tag = getattr(b, "element_tag", None)
            if kind == "TableBox":
                self.tables.append(b)
            if (kind.endswith("BlockBox") and tag in ("h1", "h2", "h3", "h4", "p", "dt", "dd", "li", "figcaption",
                                                       "caption")) or kind == "TableCellBox":
                text = _text(b)
                if text:
                    self.blocks.append((tag, text))
            if kind.endswith("ReplacedBox"):  # a figure, or a formula drawn as SVG
                self.blocks.append(("figure", ""))
        self.fill = (bottom - top) / height
        self.headings = [t for tag, t in self.blocks if tag in ("h2", "h3")]


def _layout(html: str) -> list[Page]:
    doc = weasyprint.HTML(string=html, base_url=None).render()
    return [Page(i + 1, p) for i, p in enumerate(doc.pages)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, list[Page]]:
    out: dict[str, list[Page]] = {}
    tmp = tmp_path_factory.mktemp("layout")
    cases = dict(CASES)
    cases["100 classes"] = _many_classes(tmp_path_factory.mktemp("many"))
    for name, (cwd, args) in cases.items():
        target = report_in(cwd, args, tmp / f"{name.replace(' ', '_')}.html")
        out[name] = _layout(target.read_text(encoding="utf-8"))
    return out


NAMES = [*CASES, "100 classes"]


@pytest.mark.parametrize("name", NAMES)
def test_no_page_before_the_appendix_is_more_than_half_empty(name: str, pages: dict[str, list[Page]]) -> None:
    doc = pages[name]
    appendix = next((p.number for p in doc if "Appendix" in p.headings), len(doc) + 1)
    thin = [(p.number, round(p.fill, 2)) for p in doc if p.number < appendix and p.fill < HALF]
    assert not thin, f"{name}: pages before the appendix (page {appendix}) filled to less than half: {thin}"


@pytest.mark.parametrize("name", NAMES)
def test_no_heading_ends_a_page(name: str, pages: dict[str, list[Page]]) -> None:
    doc = pages[name]
    orphans = [(p.number, p.blocks[-1][1][:60]) for p in doc[:-1]
               if p.blocks and p.blocks[-1][0] in ("h1", "h2", "h3", "h4", "dt", "caption")]
    assert not orphans, f"{name}: headings left alone at the foot of a page: {orphans}"


@pytest.mark.parametrize("name", NAMES)
def test_a_table_continued_on_a_new_page_repeats_its_header(name: str, pages: dict[str, list[Page]]) -> None:
    doc = pages[name]
    parts: dict[int, list[tuple[int, Any]]] = {}
    for p in doc:
        for t in p.tables:
            parts.setdefault(id(t.element), []).append((p.number, t))
    bare = []
    for pieces in parts.values():
        first_header = [_text(c) for c in pieces[0][1].children if getattr(c, "is_header", False)]
        for number, t in pieces[1:]:
            header = [_text(c) for c in t.children if getattr(c, "is_header", False)]
            if not header or header != first_header:
                bare.append((number, _text(t)[:60]))
    assert not bare, f"{name}: continued tables without their header row: {bare}"


def test_the_measure_sees_what_it_should() -> None:
    """The probe itself: a page with one short paragraph is nearly empty; a heading forced to a page's foot is
    found; a long table split over pages is seen on each."""
    short = _layout("<html><body><p>One line.</p></body></html>")
    assert len(short) == 1 and short[0].fill < 0.1
    filler = "<p>" + "word " * 4000 + "</p>"
    doc = _layout(f"<html><body>{filler}<h2 style='break-after:page'>Alone</h2><p>next</p></body></html>")
    assert any(p.blocks and p.blocks[-1] == ("h2", "Alone") for p in doc)
    rows = "".join(f"<tr><td>{i}</td></tr>" for i in range(200))
    doc = _layout(f"<html><body><table><thead><tr><th>H</th></tr></thead><tbody>{rows}</tbody></table></body></html>")
    assert sum(len(p.tables) for p in doc) >= 2 and all(p.fill > HALF for p in doc[:-1])


def test_the_difference_figure_keeps_the_reported_metrics_and_counts_the_rest() -> None:
    """40 metrics would print at 4 pt on half a page: the figure keeps every metric Table 1 reports, then those
    that order the systems against the lead, at most 20 rows, and its caption counts the ones left out by
    direction, so that leaving them out hides nothing."""
    from types import SimpleNamespace

    from advisor.report._figures import DIFFERENCE_ROWS, _difference_rows_shown

    rows = [SimpleNamespace(metric=f"m{i}", estimate=(-1.0 if i in (30, 31) else 1.0 if i % 7 else 0.0))
            for i in range(40)]
    ctx = SimpleNamespace(primary="m1", recommended=[SimpleNamespace(id=f"m{i}") for i in (1, 2, 39)])
    shown, text = _difference_rows_shown(ctx, rows)
    ids = [r.metric for r in shown]
    assert len(shown) == DIFFERENCE_ROWS and {"m1", "m2", "m39", "m30", "m31"} <= set(ids)
    assert ids == sorted(ids, key=lambda m: int(m[1:]))  # catalogue order kept
    out = [r for r in rows if r.metric not in ids]
    same = sum(1 for r in out if r.estimate > 0)
    tie = sum(1 for r in out if r.estimate == 0)
    assert text == (f"20 of the 40 metrics are not shown: {same} order the systems as the lead does and {tie} not "
                    "at all; the appendix table gives their values.")
    assert _difference_rows_shown(ctx, rows[:DIFFERENCE_ROWS]) == (rows[:DIFFERENCE_ROWS], "")
