"""Stage 2: render a :class:`ReportContext` as Markdown, LaTeX, HTML, PDF or JSON.

Markdown and LaTeX come with their figure files (SVG, PDF) in a folder beside the report and LaTeX
with a ``.bib`` file; HTML is one self-contained file (inline CSS and SVG, no script, no URL); the
PDF is WeasyPrint's rendering of that HTML with print styles, through a URL fetcher that loads
nothing. Files are written atomically and never over an input file.
"""

from __future__ import annotations

import base64
import csv
import io
import logging
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup

from .._exceptions import AdvisorError, InputError, arg
from .._format import LABEL_DISPLAY_LIMIT, display_label, html_escape, latex_escape, markdown_escape, safe_filename
from .._jsonio import dumps
from ..catalogue import BIB_FILE, get_catalogue
from ..questionnaire import load_answers
from ._bib import parse_bibtex
from ._build import build_report
from ._context_json import context_json
from ._env import anchor, environment
from ._fetcher import make_fetcher
from ._figures import render_figures
from ._math import flush_formula_cache, formula_svg
from ._methods_field import in_field_terms
from ._methods_intervals import jackknife_unit, unit_noun
from ._methods_lists import net_benefits_once
from ._models import HEATMAP_RATERS, MANY_CLASSES, ReportContext
from ._report_text import T, diagnostics, digits_for, natural_key, significant_digits
from ._safe_io import check_outputs, write_outputs
from ._structure_text import label_columns, structure_text
from ._svg import clean_svg
from ._texsafe import safe_math

__all__ = ["EXTENSIONS", "FORMATS", "format_for", "methods_paragraph", "output_plan", "render_files", "render_methods",
           "render_report", "render_text"]

FORMATS = ("md", "tex", "html", "pdf", "json")
#: The figures a report may draw, in the order they are numbered; ``<id>.svg`` or ``<id>.pdf`` on disk.
FIGURE_IDS = ("metrics", "ranking", "structure", "roc_pr", "reliability", "cost_curve", "risk_coverage", "calibration_curve",
              "decision_curve", "subgroups", "recall", "confusion", "prevalence")
EXTENSIONS = {".md": "md", ".markdown": "md", ".tex": "tex", ".html": "html", ".htm": "html",
              ".pdf": "pdf", ".json": "json"}



def _context_json(ctx: ReportContext) -> str:
    """The context as strict JSON in the shape every command writes (:func:`context_json`): ±inf survive as
    "inf", undefined is null (pydantic's own JSON would write an infinite LR+ as null, read back as undefined)."""
    return dumps(context_json(ctx)) + "\n"

def format_for(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The output format: ``fmt`` if given, else from the file extension."""
    if fmt is not None:
        f = fmt.lower().lstrip(".") if isinstance(fmt, str) else None
        f = {"markdown": "md", "latex": "tex", "htm": "html"}.get(f, f) if f is not None else None
        if f not in FORMATS:
            raise InputError(f"{arg('fmt')} must be one of {', '.join(FORMATS)}; got {fmt!r}.")
        return f
    if path is None:
        raise InputError(f"give an output file ({arg('out_path')}, the format from its extension) or {arg('fmt')} "
                         f"(one of {', '.join(FORMATS)}).")
    ext = Path(path).suffix.lower()
    if ext not in EXTENSIONS:
        raise InputError(f"cannot tell the report format from the extension of {path} "
                         f"(use .md, .tex, .html, .pdf or .json, or give {arg('fmt')}).")
    return EXTENSIONS[ext]


# ----------------------------------------------------------------------------------------------
# View: derived data the templates share
# ----------------------------------------------------------------------------------------------
class _Fig:
    def __init__(self, fig: Any, number: int) -> None:
        self.id = fig.id
        self.caption = fig.caption
        self.svg = fig.svg
        self.pdf = fig.pdf
        self.number = number
        self.path = ""


class _Figs(dict[str, _Fig]):
    """Figures by id; a figure that was not drawn (no ranking plot for one system) reads as None."""

    def __missing__(self, key: str) -> None:
        return None


def _shorten_all(node: Any, mapping: dict[str, str], shortest: int = 0) -> Any:
    if isinstance(node, str):
        if node in mapping:
            return mapping[node]
        if len(node) > shortest:  # running text that may name a long label
            for full, short in mapping.items():
                if full in node:
                    node = node.replace(full, short)
        return node
    if isinstance(node, dict):
        return {_shorten_all(k, mapping, shortest): _shorten_all(v, mapping, shortest) for k, v in node.items()}
    if isinstance(node, list):
        return [_shorten_all(v, mapping, shortest) for v in node]
    return node


def display_context(ctx: ReportContext) -> ReportContext:
    """``ctx`` with every class label and system name longer than :data:`LABEL_DISPLAY_LIMIT`
    shortened (:func:`~advisor._format.display_label`) wherever it occurs — tables, text, figures —
    each to a distinct display name; ``ctx`` itself (and so the JSON context) keeps them whole.

    A 5,000-character label would otherwise widen every table past the page, break the LaTeX
    build and keep the PDF renderer busy for minutes.
    """
    names = list(ctx.task.labels if ctx.task is not None else []) + [s.name for s in ctx.systems]
    long = sorted({n for n in names if len(n) > LABEL_DISPLAY_LIMIT}, key=len, reverse=True)
    if not long:
        return ctx
    taken = {n for n in names if len(n) <= LABEL_DISPLAY_LIMIT}
    mapping: dict[str, str] = {}
    for full in long:
        short, i = display_label(full), 1
        while short in taken:  # two labels alike in their first 59 characters stay apart
            i += 1
            tag = f"…#{i}"
            short = display_label(full, LABEL_DISPLAY_LIMIT - len(tag) + 1)[:-1] + tag
        taken.add(short)
        mapping[full] = short
    return ReportContext.model_validate(_shorten_all(ctx.model_dump(), mapping, min(map(len, mapping))))


#: The sensitivity and specificity of the action of interest, defined in the action's words when the rates are said.
_ACTION_IDS = ("action_sensitivity", "action_specificity")


def _defined_actions(ctx: ReportContext) -> set[str]:
    return {d.id for d in ctx.definitions if d.id in _ACTION_IDS}


def _view(ctx: ReportContext, figure_formats: tuple[str, ...]) -> dict[str, Any]:
    ctx = display_context(ctx)
    figs: dict[str, _Fig] = _Figs()
    if figure_formats:
        drawn = {f.id: f for f in render_figures(ctx, figure_formats)}
        for i, fid in enumerate([f for f in FIGURE_IDS if f in drawn], start=1):
            figs[fid] = _Fig(drawn[fid], i)
    rec = [m for m in ctx.metrics if m.role != "appendix"]
    rec_ids = {m.id for m in rec}
    norm = {}
    for s in ctx.systems:
        rows = []
        for row in s.confusion:
            tot = sum(row)
            rows.append([v / tot if tot > 0 else None for v in row])
        norm[s.name] = rows
    undefined_rows = _undefined_by_cause(ctx)

    k = ctx.task.k if ctx.task is not None else 0

    def dg(iv: Any, value: float | None = None) -> int:
        """Decimals an estimate's interval supports (half-width to two significant digits); without an
        interval, three significant digits of the value (0.105, 3.36, 32.0)."""
        if iv is not None and iv.low is not None:
            return digits_for(iv.low, iv.high, ctx.digits)
        return significant_digits(value, ctx.digits)

    iv = ctx.intervals
    return {
        # more than two systems: the winners are those not separated from the top one (multiple comparisons with the
        # best); under the jackknife's intervals the rank-first table says which resamples give its shares
        "T": structure_text(ctx, T if len(ctx.systems) <= 2 or iv is None else {
            **T, "winners_note": T["winners_note_best"].format(alpha=f"{1 - iv.confidence:.0%}",
                                                               others=len(ctx.systems) - 1,
                                                               conf=f"{iv.confidence:.0%}"),
            **({"pfirst_caption": T["pfirst_caption_units"].format(
                n=f"{iv.n_resamples:,}", seed=iv.seed,
                units=f"{iv.groups:,} " * bool(iv.groups) + (unit_noun(str(iv.group_column), "")
                                                             or f"groups sharing a value of “{iv.group_column}”"))}
               if jackknife_unit(iv) is not None and iv.seed is not None else {})}),
        "dg": dg,
        "large": k > MANY_CLASSES,
        # the full per-class table in the appendix up to 20 classes; beyond, the CSV beside the report holds it
        # (with the sorted per-class recall figure in the body): pages of half-width rows inform nobody
        "appendix_per_class": MANY_CLASSES < k <= PER_CLASS_APPENDIX_MAX,
        # the spread of per-class recall; never of a recall at a cut that no answer chose and nobody planned
        "diag": diagnostics(ctx) if ctx.systems and "recall" in label_columns(ctx) else [],
        "per_class_sorted": {s.name: focus_first(s.per_class, ctx.answers.get("focus_classes")) for s in ctx.systems},
        "cols": label_columns(ctx),  # the decisions' columns of the per-class table (none at a cut nobody chose)
        "col_heads": {"predicted": T["c_predicted"], "precision": T["c_precision"], "recall": T["c_recall"],
                      "f1": T["c_f1"]},  # their headers
        "csv": None,
        "ctx": ctx,
        "rec": rec,
        # one formula once, headed in the field's words where the catalogue's name glosses them ("Top-1 accuracy",
        # as the paragraph says it); then a diagnostic's
        # the author's costly action leads when named (advisor/report/_actions.py): its rates' formulas come first,
        # in the action's words ("G is the set of classes that lead to referral"), once: the plan's metrics of the
        # same ids are not defined again
        "defs": ([d for d in ctx.definitions if d.id in _ACTION_IDS]
                 + in_field_terms(net_benefits_once([m for m in rec if m.id not in _defined_actions(ctx)]),
                                  ctx.answers)
                 + [d for d in ctx.definitions if d.id not in _ACTION_IDS]),
        "figs": figs,
        "refs": {r.key: r for r in ctx.references},
        "names": {m.id: m.name for m in ctx.metrics},
        "norm": norm,
        "show_matrices": False,  # the heatmap figure carries the counts; the JSON context holds them all
        # a few hundred undefined per-class values say nothing row by row: the JSON context keeps them all
        "undefined_rows": undefined_rows[:40],
        "undefined_more": max(len(undefined_rows) - 40, 0),
        "chance_rec": [c for c in ctx.chance if c.metric in rec_ids],
        "chance_constant": any(c.constant is not None for c in ctx.chance if c.metric in rec_ids),
        # with two systems the probability of ranking first is 1 and 0 everywhere: no information
        "pfirst": any(s.p_first for s in ctx.systems) and len(ctx.systems) > 2,
    }


# ----------------------------------------------------------------------------------------------
# HTML
# ----------------------------------------------------------------------------------------------
def _html_formula(tex: str, *, display: bool = False, size: float = 14.0, label: str | None = None) -> Markup:
    """Inline SVG of an allow-listed formula; anything else (a context file is user input) as text.

    The same allow-list as the Markdown and LaTeX output (:func:`~._texsafe.safe_math`); a formula
    it accepts that the typesetter still cannot draw is shown as escaped text too, never a traceback.
    """
    if safe_math(tex) is not None:
        try:
            return formula_svg(tex, display=display, size=size, label=label)
        except Exception as exc:  # noqa: BLE001 - ziamath raises anything (IndexError, KeyError…) on odd input
            logging.getLogger(__name__).info("formula shown as text, ziamath failed on %r: %r", tex, exc)
    return Markup('<code class="formula-text">{}</code>').format(tex)


def _html(ctx: ReportContext, view: dict[str, Any], *, for_print: bool = False) -> str:
    env = environment("html")
    refs = view["refs"]

    def cite(keys: Iterable[str]) -> Markup:
        items = [Markup('<a href="#ref-{}">{}</a>').format(anchor(k), refs[k].short) for k in keys if k in refs]
        if not items:
            return Markup("")
        return Markup("(") + Markup("; ").join(items) + Markup(")")

    def formula(tex: str, display: bool = False, label: str | None = None) -> Markup:
        if not tex:
            return Markup('<span class="muted">(no formula in the catalogue)</span>')
        return _html_formula(tex, display=display, size=15.0 if display else 13.5, label=label)

    def figure_svg(fig: _Fig) -> Markup:
        return Markup(clean_svg(fig.svg or "", prefix=f"f{fig.number}-", inline=True,
                                extra_attrs=f'role="img" aria-label="{html_escape(fig.caption)}"'))

    tmpl = env.get_template("report.html.j2")
    html = tmpl.render(cite=cite, formula=formula, figure_svg=figure_svg, for_print=for_print, **view)
    flush_formula_cache()
    return html


_DATA_URI = re.compile(r"data:(image/(?:png|jpeg));base64,([A-Za-z0-9+/=\s]+)")


def _created_resources(svgs: Iterable[str]) -> dict[str, tuple[bytes, str]]:
    """``data:`` images embedded in figures advisor drew: the only URLs the PDF renderer may load."""
    out: dict[str, tuple[bytes, str]] = {}
    for svg in svgs:
        for m in _DATA_URI.finditer(svg or ""):
            b64 = re.sub(r"\s+", "", m.group(2))  # as clean_svg writes it into the page
            out[f"data:{m.group(1)};base64,{b64}"] = (base64.b64decode(b64), m.group(1))
    return out


PDF_LIBRARIES = (
    "PDF output needs WeasyPrint and its system libraries (Pango, HarfBuzz, fontconfig), which could not be "
    "loaded ({detail}); install them (Debian/Ubuntu: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
    "libharfbuzz0b libfontconfig1; macOS: brew install pango) or write HTML instead (-o report.html), which "
    "needs none"
)


def require_pdf_engine() -> Any:
    """WeasyPrint's ``HTML`` class, or :class:`AdvisorError` (one sentence) when WeasyPrint or the
    system libraries it loads (Pango…) are missing — checked before any work, not at the last step."""
    try:
        from weasyprint import HTML
    except (ImportError, OSError) as exc:
        detail = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise AdvisorError(PDF_LIBRARIES.format(detail=detail) + ".") from None
    return HTML


def html_to_pdf(html: str, resources: Any = None, *, fetcher: Any = None) -> bytes:
    """WeasyPrint's PDF of ``html``; it may load only ``resources`` (URL → (bytes, mime)), nothing else."""
    HTML = require_pdf_engine()  # noqa: N806 - WeasyPrint's class

    for name in ("weasyprint", "fontTools"):
        logging.getLogger(name).setLevel(logging.ERROR)
    fetcher = fetcher if fetcher is not None else make_fetcher(resources or {})
    return bytes(HTML(string=html, url_fetcher=fetcher, base_url=None).write_pdf())  # WeasyPrint is untyped


def _pdf(html: str, view: dict[str, Any]) -> bytes:
    return html_to_pdf(html, _created_resources(f.svg or "" for f in view["figs"].values()))


# ----------------------------------------------------------------------------------------------
# Markdown and LaTeX
# ----------------------------------------------------------------------------------------------
def _math_functions(fmt: str) -> tuple[Any, Any]:
    def formula(tex: str, display: bool = False, label: str | None = None) -> Markup:
        safe = safe_math(tex) if tex else None
        if safe is None:
            text = "(no formula in the catalogue)" if not tex else tex
            return Markup(markdown_escape(text) if fmt == "md" else r"\texttt{" + latex_escape(text) + "}")
        if fmt == "md":
            return Markup(f"$${safe}$$" if display else f"${safe}$")
        return Markup(f"\\[ {safe} \\]" if display else f"\\({safe}\\)")

    return formula, safe_math


def _text_doc(ctx: ReportContext, view: dict[str, Any], fmt: str, *, fragment: bool, figdir: str,
              template: str | None = None) -> str:
    env = environment(fmt)
    refs = view["refs"]
    formula, _ = _math_functions(fmt)

    def cite(keys: Iterable[str]) -> Markup:
        keys = [k for k in keys if k in refs]
        if not keys:
            return Markup("")
        if fmt == "tex":
            return Markup(r"\citep{" + ",".join(anchor(k) for k in keys) + "}")
        return Markup(markdown_escape("(" + "; ".join(refs[k].short for k in keys) + ")"))

    for fig in view["figs"].values():
        fig.path = Markup(f"{figdir}/{fig.id}.{'pdf' if fmt == 'tex' else 'svg'}")  # sanitised name
    name = template or f"report.{fmt}.j2"
    return env.get_template(name).render(cite=cite, formula=formula, fragment=fragment, figdir=figdir, **view)


def _bib(ctx: ReportContext) -> str:
    """The ``.bib`` beside a LaTeX report: advisor's own entries for the keys cited, by key.

    BibTeX text stored in the context is ignored (a context file may come from anyone); a key that
    is not in advisor's ``references.bib`` gets no entry.
    """
    packaged = parse_bibtex(BIB_FILE.read_text(encoding="utf-8"))
    parts = [f"% BibTeX entries cited by the report (advisor {ctx.advisor_version})."]
    for r in ctx.references:
        entry = packaged.get(r.key)
        if entry is not None and entry.raw.strip():
            parts.append(entry.raw.strip())
    return "\n\n".join(parts) + "\n"


# ----------------------------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------------------------
def _figdir_name(out_path: Path) -> str:
    return safe_filename(out_path.stem, "report") + "-figures"


def _undefined_by_cause(ctx: ReportContext) -> list[dict[str, Any]]:
    """The undefined values met, one row per cause (system, quantity, reason, resolution): the classes it touched
    and the metrics it reached named in one cell each, the first few and how many more (issue 22: a row per class,
    or per metric, repeated one fact)."""
    groups: dict[tuple[Any, ...], tuple[list[str | None], list[str]]] = {}
    known = {m.id: m.name for m in ctx.metrics}
    catalogue = get_catalogue().metrics
    for s in ctx.systems:
        for u in s.undefined:
            labels, metrics = groups.setdefault((s.name, u.quantity, u.reason, u.resolution, u.value), ([], []))
            if u.label not in labels:
                labels.append(u.label)
            entry = catalogue.get(u.metric)
            name = known.get(u.metric) or (entry.name if entry is not None else
                                           "the per-class table" if u.metric == "per_class" else u.metric)
            if name not in metrics:
                metrics.append(name)
    rows = []
    for (system, quantity, reason, resolution, value), (labels, metrics) in groups.items():
        rows.append({"system": system, "metric": _first_few(metrics), "quantity": quantity,
                     "label": _first_few([str(x) for x in labels if x is not None]), "reason": reason,
                     "resolution": resolution, "value": value})
    return rows


def _first_few(names: list[str]) -> str | None:
    """``a, b, c and 4 more``: the first :data:`UNDEFINED_LABELS` names, None when there are none."""
    if not names:
        return None
    return ", ".join(names[:UNDEFINED_LABELS]) + (
        f" and {len(names) - UNDEFINED_LABELS:,} more" if len(names) > UNDEFINED_LABELS else "")


#: classes named in one row of the undefined-values table before "and N more"
UNDEFINED_LABELS = 6

#: the most classes whose per-class table the appendix prints (issue 22: beyond, a CSV and a sorted figure)
PER_CLASS_APPENDIX_MAX = 20


def render_files(
    ctx: ReportContext,
    fmt: str,
    out_path: str | os.PathLike[str],
    *,
    fragment: bool = False,
    figures: bool = True,
) -> dict[Path, bytes | str]:
    """Every file of the report in ``fmt`` (main document first), as path → content; nothing written."""
    fmt = format_for(out_path, fmt)
    out = Path(out_path)
    files: dict[Path, bytes | str] = {}
    if fmt == "json":
        files[out] = _context_json(ctx)
        return files
    for suffix, text in _agreement_csvs(ctx).items():  # many annotators: every pair and annotator
        files[out.with_name(out.stem + suffix)] = text
    if fmt in ("html", "pdf"):
        view = _view(ctx, ("svg",) if figures else ())
        csv = _per_class_csv(ctx)
        if csv is not None:
            view["csv"] = out.stem + "-per-class.csv"
            files[out.with_name(view["csv"])] = csv
        html = _html(ctx, view, for_print=fmt == "pdf")
        files[out] = html if fmt == "html" else _pdf(html, view)
        return files
    csv = _per_class_csv(ctx)
    if csv is not None:
        files[out.with_name(out.stem + "-per-class.csv")] = csv
    figfmt = ("pdf",) if fmt == "tex" else ("svg",)
    view = _view(ctx, figfmt if figures else ())
    if csv is not None:
        view["csv"] = out.stem + "-per-class.csv"
    figdir = _figdir_name(out)
    files[out] = _text_doc(ctx, view, fmt, fragment=fragment, figdir=figdir)
    for fig in view["figs"].values():
        if fmt == "tex":
            files[out.parent / fig.path] = fig.pdf or b""
        else:
            files[out.parent / fig.path] = clean_svg(fig.svg or "", inline=False)
    if fmt == "tex" and ctx.references:
        files[out.with_suffix(".bib")] = _bib(ctx)
    return files


def focus_first(rows: Sequence[Any], focus: Any = None) -> list[Any]:
    """The per-class rows in natural order of their labels, the classes (labels) the author names as costly first, in
    the order named (answers focus_classes: "we give their ROC AUCs first in the per-label table")."""
    named = [str(f) for f in focus or []]
    return sorted(rows, key=lambda r: (named.index(r.label) if r.label in named else len(named), natural_key(r.label)))


def _per_class_csv(ctx: ReportContext) -> str | None:
    """Every class of every system as CSV (written beside reports with many classes)."""
    if ctx.task is None or ctx.task.k <= MANY_CLASSES or not ctx.systems:
        return None

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    # the columns the per-class table shows: at a cut nobody chose, only a planned F1, beside each label's ROC AUC
    cols = [c for c in label_columns(ctx) if c != "predicted"]
    predicted = "predicted" in label_columns(ctx)
    auc = any(r.roc_auc is not None for s in ctx.systems for r in s.per_class)
    w.writerow(["system", "class", "support", *(["predicted"] if predicted else []), *cols,
                *(["roc_auc"] if auc else [])])
    for s in ctx.systems:
        for r in sorted(s.per_class, key=lambda r: natural_key(r.label)):
            values = [getattr(r, c) for c in cols] + ([r.roc_auc] if auc else [])
            w.writerow([_csv_cell(s.name), _csv_cell(r.label), f"{r.support:g}",
                        *([f"{r.predicted:g}"] if predicted else []),
                        *("" if v is None else repr(round(v, 6)) for v in values)])
    return buf.getvalue()


#: The files written beside a report on more than ``HEATMAP_RATERS`` annotators, which shows their pairs summarised.
AGREEMENT_CSVS = ("-pairs.csv", "-annotators.csv")


def _agreement_csvs(ctx: ReportContext) -> dict[str, str]:
    """Every pair of annotators (their Cohen's kappa) and every annotator (items rated, mean kappa) as CSV, for a
    report on more annotators than its figure and tables show one by one."""
    st = ctx.structure
    if st is None or st.kind != "agreement" or len(st.raters) <= HEATMAP_RATERS or not st.pairs:
        return {}
    names = list(st.raters)
    pairs = io.StringIO()
    w = csv.writer(pairs, lineterminator="\n")
    w.writerow(["annotator_a", "annotator_b", "kappa"])
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            v = st.pairs.get(f"{a} | {b}")
            w.writerow([_csv_cell(a), _csv_cell(b), "" if v is None else repr(round(v, 6))])
    raters = io.StringIO()
    w = csv.writer(raters, lineterminator="\n")
    w.writerow(["annotator", "items_rated", "mean_kappa"])
    for name, n in st.raters.items():
        v = st.rater_kappa.get(name)
        w.writerow([_csv_cell(name), n, "" if v is None else repr(round(v, 6))])
    return {AGREEMENT_CSVS[0]: pairs.getvalue(), AGREEMENT_CSVS[1]: raters.getvalue()}


def _csv_cell(text: str) -> str:
    """A user string in a CSV cell, never read as a spreadsheet formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def notebook_html(ctx: ReportContext) -> str:
    """The report's body as an HTML fragment for a notebook cell (``ReportContext._repr_html_``): the HTML
    document's body, figures inline, inside ``<div class="advisor-report">``, without its ``<style>``."""
    html = _html(ctx, _view(ctx, ("svg",)))
    body = html.split("<body>", 1)[-1].rsplit("</body>", 1)[0]
    return f'<div class="advisor-report">{body}</div>'


def render_text(ctx: ReportContext, fmt: str, *, fragment: bool = False) -> str | bytes:
    """The main document alone (no figure files for Markdown/LaTeX): text, or PDF bytes."""
    fmt = format_for(None, fmt)
    if fmt == "json":
        return _context_json(ctx)
    if fmt in ("html", "pdf"):
        view = _view(ctx, ("svg",))
        html = _html(ctx, view, for_print=fmt == "pdf")
        return html if fmt == "html" else _pdf(html, view)
    view = _view(ctx, ())
    return _text_doc(ctx, view, fmt, fragment=fragment, figdir="figures")


def output_plan(
    out_path: str | os.PathLike[str], fmt: str | None = None, *, figures: bool = True, references: bool = True,
) -> list[Path]:
    """Every file a report at ``out_path`` may write, known before rendering it.

    The document; for LaTeX the ``.bib`` beside it (``references``); for Markdown and LaTeX each
    figure it may draw in the ``<stem>-figures`` folder (``figures``) — whether drawn or not.
    """
    fmt = format_for(out_path, fmt)
    out = Path(out_path)
    files = [out]
    if fmt != "json":  # the per-class CSV written beside reports with many classes, the pairs of many annotators
        files += [out.with_name(out.stem + suffix) for suffix in ("-per-class.csv", *AGREEMENT_CSVS)]
    if fmt == "tex" and references:
        files.append(out.with_suffix(".bib"))
    if fmt in ("md", "tex") and figures:
        folder = out.parent / _figdir_name(out)
        files += [folder / f"{fid}.{'pdf' if fmt == 'tex' else 'svg'}" for fid in FIGURE_IDS]
    return files


def render_report(
    context: ReportContext,
    fmt: str | None = None,
    out_path: str | os.PathLike[str] | None = None,
    *,
    fragment: bool = False,
    inputs: Iterable[str | os.PathLike[str]] = (),
    figures: bool = True,
    force: bool = False,
) -> list[Path] | str | bytes:
    """Render ``context`` as ``fmt`` (md, tex, html, pdf, json; default from ``out_path``'s extension).

    With ``out_path`` every file (the document, the figures in the ``<stem>-figures`` folder, the
    ``.bib`` beside LaTeX) is checked first — none may be one of ``inputs`` or lie below a file, and
    without ``force`` none may exist — then all are written atomically, or none; the paths written
    are returned. Other files in the figure folder are never touched. Without ``out_path`` the main
    document is returned (str, or bytes for PDF).
    """
    if not isinstance(context, ReportContext):
        raise InputError(f"context must be a ReportContext (from build_report); got {type(context).__name__}.")
    if out_path is not None and not isinstance(out_path, (str, os.PathLike)):
        raise InputError(f"out_path must be the path of the report file, or None for the text; got "
                         f"{type(out_path).__name__}.")
    if out_path is None:
        return render_text(context, format_for(None, fmt), fragment=fragment)
    fmt = format_for(out_path, fmt)
    if fmt == "pdf":
        require_pdf_engine()
    planned = output_plan(out_path, fmt, figures=figures and bool(context.systems),
                          references=bool(context.references))
    check_outputs(planned, inputs, force=force)  # fail fast, before any expensive rendering
    files = render_files(context, fmt, out_path, fragment=fragment, figures=figures)
    return write_outputs(files, inputs, force=force)


def cited_keys(paragraphs: Iterable[Any]) -> list[str]:
    """The citation keys of these paragraphs (their spans and list items), in order, once each."""
    keys = [k for p in paragraphs if p is not None for spans in [p.spans, *p.items] for sp in spans
            if sp.kind == "cite" for k in sp.keys]
    return list(dict.fromkeys(keys))


def _methods_parts(ctx: ReportContext, justify: bool) -> list[Any]:
    """What the methods text prints: its paragraphs, the notes after each formula (they cite too: "… span 0.75
    (Austin & Steyerberg 2019)") and, with ``justify``, the justification."""
    return [*ctx.methods, *(m.where for m in ctx.metrics if m.role != "appendix" and m.where is not None),
            ctx.justification if justify else None]


def render_methods(ctx: ReportContext, fmt: str = "md", *, justify: bool = False) -> str:
    """The methods section alone (``advisor methods``); with ``justify`` the justification follows it.

    The reference list holds exactly the works the printed text cites.
    """
    fmt = format_for(None, fmt)
    if fmt not in ("md", "tex", "html"):
        raise InputError(f"the methods paragraph is written as md, tex or html; got {fmt!r}.")
    used = set(cited_keys(_methods_parts(ctx, justify)))
    ctx = ctx.model_copy(update={"references": [r for r in ctx.references if r.key in used]})
    view = _view(ctx, ())
    view["justify"] = justify
    if fmt == "html":
        env = environment("html")
        refs = view["refs"]

        def cite(keys: Iterable[str]) -> Markup:
            items = [refs[k].short for k in keys if k in refs]
            return Markup(html_escape("(" + "; ".join(items) + ")")) if items else Markup("")

        def formula(tex: str, display: bool = False, label: str | None = None) -> Markup:
            return _html_formula(tex, display=display, label=label) if tex else Markup("")

        html = env.get_template("methods.html.j2").render(cite=cite, formula=formula, **view)
        flush_formula_cache()
        return html
    return _text_doc(ctx, view, fmt, fragment=True, figdir="figures", template=f"methods.{fmt}.j2")


def methods_paragraph(
    answers: Any,
    fmt: str = "md",
    *,
    bootstrap: int = 2000,
    confidence: float = 0.95,
    undefined: str | None = None,
    seed: int | None = None,
    justify: bool = False,
) -> str:
    """The methods paragraph alone, from the answers (no data), as Markdown, LaTeX or HTML text.

    ``answers`` is an :class:`advisor.Answers`, a mapping, or the path of an answers file; ``seed``
    is the seed the intervals will be drawn with; ``justify`` appends the full reasoning; ``undefined`` (None: the
    convention of the answers' field, its scorer's, else advisor's) as in :func:`advisor.build_report`.
    """
    return methods_texts(answers, fmt, bootstrap=bootstrap, confidence=confidence, undefined=undefined,
                         seed=seed, justify=justify)[0]


def methods_texts(answers: Any, fmt: str = "md", *, bootstrap: int = 2000, confidence: float = 0.95,
                  undefined: str | None = None, seed: int | None = None, justify: bool = False,
                  seed_given: bool = True) -> tuple[str, str]:
    """The methods text and the BibTeX of the works it cites (the ``.bib`` beside a ``.tex``).

    ``seed_given=False``: ``seed`` was picked by the caller, not by the author; a paragraph whose
    resamples the author's own tool draws (rankings, spans) then names no seed.
    """
    if isinstance(answers, (str, os.PathLike, Path)):
        answers = load_answers(answers)
    ctx = build_report(answers, None, bootstrap=bootstrap, confidence=confidence, undefined=undefined, seed=seed,
                       seed_given=seed_given)
    text = render_methods(ctx, fmt, justify=justify)
    used = set(cited_keys(_methods_parts(ctx, justify)))
    return text, _bib(ctx.model_copy(update={"references": [r for r in ctx.references if r.key in used]}))
