"""The catalogue as JSON, as the Markdown reference page (docs/metrics.md) and as ``explain`` text.

Only advisor's own data reach these documents, except the name a user asked about, which is
escaped (:func:`advisor._format.markdown_escape` / ``latex_escape``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .._format import latex_escape, markdown_escape
from ._checker import PROPERTIES
from ._load import BIB_FILE, VERIFICATION_FILE
from ._models import (
    GOESGENS_PROPERTIES,
    OPITZ_PROPERTIES,
    PROPERTY_IDS,
    Catalogue,
    Counterexample,
    MetricRecord,
)
from ._resolve import Resolution

__all__ = ["ABSENT_CLASSES", "SYMBOLS", "explain", "metric_dict", "metrics_json", "metrics_markdown", "references"]

ABSENT_CLASSES = (
    "A class absent from both labelings (`a_i = b_i = 0`) is not a class of Gösgens et al.'s evaluation: when a "
    "perturbation empties a class, the checker drops it and evaluates the remaining classes (shown as the "
    "reduced matrix of a counterexample). The engine does not drop classes: under `undefined=\"baseline\"` "
    "such a class counts as maximal agreement — recall, precision, F1 and Jaccard 1, and specificity/NPV 1 "
    "when `n − a_i = n − b_i = 0` — so a macro average over a label set with an unused class is pulled up: "
    "the zero-diagonal `[[0, 5, 0], [5, 0, 0], [0, 0, 0]]` scores balanced accuracy = macro F1 = SBA = 1/3, "
    "not 0. The minimal-agreement claims of such averages therefore hold only when every class occurs in the "
    "truth or the prediction (each says so); under `undefined=\"zero\"` the unused class contributes 0 instead."
)
SYMBOLS = {"holds": "✓", "fails": "✗", "binary_only": "b", "after_calibration": "(✓)", "conditional": "c", "not_applicable": "–"}
STATUS_WORDS = {
    "holds": "holds",
    "fails": "fails",
    "binary_only": "holds for two classes only",
    "after_calibration": "holds after prevalence calibration",
    "conditional": "holds under a condition",
    "not_applicable": "does not apply to this kind of task",
}
SHORT = {
    "opitz_monotonicity": "PI", "class_sensitivity": "PII", "class_decomposability": "PIII",
    "prevalence_invariance": "PIV", "chance_correction": "PV", "max_agreement": "Max", "min_agreement": "Min",
    "class_symmetry": "CSym", "symmetry": "Sym", "distance": "Dist", "monotonicity": "Mon",
    "strong_monotonicity": "SMon", "constant_baseline": "CB", "approximate_constant_baseline": "ACB",
}
LONG = {
    "opitz_monotonicity": "Monotonicity (Opitz PI)", "class_sensitivity": "Class sensitivity (PII)",
    "class_decomposability": "Class decomposability (PIII)", "prevalence_invariance": "Prevalence invariance (PIV)",
    "chance_correction": "Chance correction (PV)", "max_agreement": "Maximal agreement",
    "min_agreement": "Minimal agreement", "class_symmetry": "Class symmetry", "symmetry": "Symmetry",
    "distance": "Distance", "monotonicity": "Monotonicity (Gösgens)", "strong_monotonicity": "Strong monotonicity",
    "constant_baseline": "Constant baseline", "approximate_constant_baseline": "Approximate constant baseline",
}


# ----------------------------------------------------------------------------------------------
# references
# ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def references() -> dict[str, dict[str, str]]:
    """``{key: {"author", "title", "year", "where"}}`` parsed from the shipped ``references.bib``."""
    text = BIB_FILE.read_text(encoding="utf-8")
    out: dict[str, dict[str, str]] = {}
    for m in re.finditer(r"@\w+\s*\{\s*([^,\s]+)\s*,(.*?)\n\}", text, flags=re.S):
        fields = dict(re.findall(r"(\w+)\s*=\s*\{(.*?)\},?\s*\n", m.group(2) + "\n", flags=re.S))
        clean = {k: _detex(v) for k, v in fields.items()}
        where = clean.get("journal") or clean.get("booktitle") or clean.get("howpublished") or (
            f"arXiv:{clean['eprint']}" if "eprint" in clean else "")
        out[m.group(1)] = {"author": clean.get("author", ""), "title": clean.get("title", ""),
                           "year": clean.get("year", ""), "where": where}
    return out


_ACCENTS = {'\\"o': "ö", '\\"a': "ä", '\\"u': "ü", "\\'e": "é", "\\&": "&"}


def _detex(value: str) -> str:
    """BibTeX field → plain text (accents, braces, en dashes)."""
    text = " ".join(value.split())
    for tex, char in _ACCENTS.items():
        text = text.replace("{" + tex + "}", char).replace(tex, char)
    return re.sub(r"[{}]", "", text).replace("--", "–")


def _cite(key: str) -> str:
    r = references().get(key)
    if r is None:
        return key
    authors = [a.strip() for a in r["author"].split(" and ")]
    surname = authors[0].split(",")[0] if authors and authors[0] else key
    who = surname + (" et al." if len(authors) > 2 else f" & {authors[1].split(',')[0]}" if len(authors) == 2 else "")
    year = f" ({r['year']})" if r["year"] else ""
    where = f" {r['where']}." if r["where"] else ""
    return f"{who}{year}. {r['title']}.{where}".replace("..", ".")


# ----------------------------------------------------------------------------------------------
# JSON
# ----------------------------------------------------------------------------------------------
def _ce_dict(ce: Counterexample | None) -> dict[str, Any] | None:
    return None if ce is None else ce.model_dump(exclude_none=True)


def direction(rec: MetricRecord) -> str:
    """Which values are better, in words: "higher is better", "lower is better", or a signed metric's target.

    >>> from advisor.catalogue import get_catalogue
    >>> direction(get_catalogue().metrics["smd"])
    '0 is best; the sign says which way'
    """
    if rec.target is not None:
        return f"{rec.target:g} is best; the sign says which way"
    return "higher is better" if rec.higher_is_better else "lower is better"


def metric_dict(rec: MetricRecord, *, full: bool = False) -> dict[str, Any]:
    """The JSON form of one record (``advisor metrics --json``; ``full`` adds the descriptive fields)."""
    lo, hi = rec.range
    d: dict[str, Any] = {
        "id": rec.id, "name": rec.name, "aliases": list(rec.aliases), "formula": rec.formula,
        "higher_is_better": rec.higher_is_better, "target": rec.target, "range": [lo, hi],
        "binary_only": rec.binary_only,
        "properties": {
            pid: {"status": c.status, "source": c.source, "verified": c.verified,
                  "counterexample": _ce_dict(c.counterexample), "condition": c.condition}
            for pid, c in rec.properties.items()
        },
        "references": list(rec.references),
    }
    if full:
        for pid, c in rec.properties.items():
            extra = {"paper_claim": c.paper_claim, "note": c.note,
                     "chance_correction": None if c.chance_correction is None else c.chance_correction.model_dump(),
                     "calibrated_counterexample": _ce_dict(c.calibrated_counterexample)}
            d["properties"][pid].update({k: v for k, v in extra.items() if v is not None})
        d.update({"interpretation": rec.interpretation, "chance_level": rec.chance_level,
                  "pitfalls": list(rec.pitfalls), "needs_probabilities": rec.needs_probabilities,
                  **({"parameters": dict(rec.parameters)} if rec.parameters else {}),
                  "alias_of": rec.alias_of})
    return d


def metrics_json(cat: Catalogue) -> dict[str, Any]:
    """``{"metrics": [...]}`` in the shape documented for ``advisor metrics --json``."""
    return {"metrics": [metric_dict(rec) for rec in cat.metrics.values()]}


# ----------------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------------
def _matrix(m: list[list[float]]) -> str:
    def num(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else f"{x:.4g}"

    return "[" + ", ".join("[" + ", ".join(num(x) for x in row) + "]" for row in m) + "]"


def _ce_md(ce: Counterexample) -> str:
    mats = " → ".join(f"`{_matrix(m)}`" for m in ce.matrices) if len(ce.matrices) == 2 else \
        ", ".join(f"`{_matrix(m)}`" for m in ce.matrices)
    vals = ", ".join(f"{v:.4g}" for v in ce.values)
    labs = f" (labelings {', '.join(str(tuple(x)) for x in ce.labelings)})" if ce.labelings else ""
    src = "" if ce.source == "checker" else f" — {ce.source}"
    what = "exact expected values" if ce.kind == "expectations" else "values"
    how = [f"`undefined={ce.convention}`"]
    for i, r in enumerate(ce.reduced or [], 1):
        if r is not None:
            how.append(f"matrix {i} evaluated as `{_matrix(r)}`" if len(r) > 1 else
                       f"matrix {i} has one class left and scores as identical labelings")
    return f"{mats}{labs}; {what} {vals} ({'; '.join(how)}): {ce.explanation}{src}"


def _claim_md(rec: MetricRecord, pid: str) -> str:
    c = rec.properties[pid]
    parts = [f"**{STATUS_WORDS[c.status]}**"]
    if c.condition:
        parts.append(f"if {c.condition}")
    if c.chance_correction is not None:
        cc = c.chance_correction
        kind = "complete" if cc.complete else "strict" if cc.strict else "upper bound"
        parts.append(f"(ω(k) = {cc.baseline}, {kind})")
    text = " ".join(parts) + f". Source: {c.source}" + ("; verified by the checker." if c.verified else
                                                          "." if c.status == "not_applicable" else
                                                          "; not verified by the checker.")
    if c.paper_claim:
        text += f" The paper says: {c.paper_claim}."
    if c.note:
        text += f" {c.note}"
    if c.counterexample is not None:
        text += f" Counterexample: {_ce_md(c.counterexample)}."
    if c.calibrated_counterexample is not None:
        text += f" For the calibrated metric: {_ce_md(c.calibrated_counterexample)}."
    return text


def record_body(rec: MetricRecord, formula: list[str], properties: list[str]) -> list[str]:
    """A record's Markdown lines below its heading, with the formula block and the properties
    section given (the reference page and the terminal view differ only there)."""
    lo, hi = rec.range
    lines = ["Also called: " + ", ".join(rec.aliases) + ".", ""] if rec.aliases else []
    lines += [*formula, "", rec.interpretation, ""]
    tags = [f"range [{lo:g}, {hi:g}]", direction(rec)]
    if rec.binary_only:
        tags.append("binary (positive class)")
    if rec.needs_probabilities:
        tags.append("needs predicted probabilities")
    lines += ["*" + "; ".join(tags) + ".*", "", f"**Chance level.** {rec.chance_level}", ""]
    if rec.parameters:  # declared parameters: what each is and how advisor sets it
        lines += ["**Parameters.**", ""] + [f"- *{k}*: {v}" for k, v in rec.parameters.items()] + [""]
    if rec.pitfalls:
        lines += ["**Pitfalls.**", ""] + [f"- {p}" for p in rec.pitfalls] + [""]
    lines += properties
    if rec.references:
        lines += ["**References.** " + "; ".join(_cite(k) for k in rec.references), ""]
    return lines


def record_markdown(rec: MetricRecord, level: int = 2, *, heading: bool = True) -> str:
    h = "#" * level
    lines = [f"{h} {rec.name} (`{rec.id}`)", ""] if heading else []
    properties = ["**Properties.**", ""]
    properties += [f"- {LONG[pid]}: {_claim_md(rec, pid)}" for pid in PROPERTY_IDS if pid in rec.properties]
    formula = ["$$", rec.formula, "$$"]
    if rec.binary_form is not None:  # the form a two-class report with probabilities prints (y_t 1 or 0, p_t)
        formula += ["", "In a two-class task with probabilities ($y_t$ is 1 when item $t$ is positive, else 0; $p_t$ "
                    "is its probability of the positive class):", "", "$$", rec.binary_form.formula, "$$"]
    if rec.counts_form is not None:  # the form a two-class report prints (Matthews's MCC)
        formula += ["", "In a two-class task, in the counts of true and false positives and negatives:", "", "$$",
                    rec.counts_form.formula, "$$"]
    lines += record_body(rec, formula, properties + [""])
    return "\n".join(lines)


def _overview(cat: Catalogue, pids: tuple[str, ...]) -> list[str]:
    head = "| metric | " + " | ".join(SHORT[p] for p in pids) + " |"
    rule = "|---|" + "---|" * len(pids)
    rows = []
    for rec in cat.metrics.values():
        if rec.alias_of:
            continue
        cells = []
        for p in pids:
            c = rec.properties[p]
            cells.append(SYMBOLS[c.status] + ("" if c.verified or rec.needs_probabilities or c.status == "not_applicable" else "?")
                         + ("†" if c.paper_claim else ""))
        rows.append(f"| [{rec.name}](#{_anchor(rec)}) | " + " | ".join(cells) + " |")
    return [head, rule, *rows]


def _anchor(rec: MetricRecord) -> str:
    text = f"{rec.name} ({rec.id})".lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _audit_line() -> str:
    import yaml

    if not VERIFICATION_FILE.exists():
        return "The checker has not been run on this catalogue."
    data = yaml.safe_load(VERIFICATION_FILE.read_text(encoding="utf-8")) or {}
    a = data.get("audit") or {}
    return (f"Last full audit (`python -m advisor.catalogue --budget {data.get('budget')}`): "
            f"{a.get('claims_checked')} claims checked, {a.get('confirmed')} confirmed "
            f"({a.get('counterexamples')} by a counterexample), {a.get('refuted')} refuted, "
            f"{a.get('unverified')} not checkable, {a.get('not_applicable', 0)} not applicable (reason on record).")


def metrics_markdown(cat: Catalogue) -> str:
    """The metrics reference page (committed as ``docs/metrics.md``)."""
    out = [
        "# Metric reference",
        "",
        "*Generated by `advisor metrics --format md` from `advisor/catalogue/metrics.yaml`; do not edit.*",
        "",
        "Every metric advisor computes, with its formula, meaning, chance level, pitfalls and the properties "
        "of two frameworks: Opitz (2024, PI–PV) and Gösgens et al. (2021). Each property claim states its "
        "source and whether advisor's property checker confirmed it **on advisor's implementation**; where "
        "the checker contradicts a published table, both are given (marked † below).",
        "",
        "Conventions: matrices have rows = true classes and columns = predicted classes; `a_i` true and `b_i` "
        "predicted class sizes, `n` items, `k` classes. Gösgens et al.'s properties are checked under the "
        "`baseline` convention for undefined values (their App. B) on every matrix in which each class occurs "
        "in at least one labeling; Opitz's on matrices where every class occurs in the truth and is predicted. "
        "Binary metrics refer to the positive class.",
        "",
        ABSENT_CLASSES,
        "",
        "Every counterexample states the convention its values are computed under: `compute_metrics(M, [id], "
        "undefined=...)` (with `positive_label=1` for binary metrics, `calibrated_metrics` for the calibrated "
        "metric) reproduces them, using the reduced matrix where one is given. Constant-baseline counterexamples "
        "are different: each matrix stands for its margins and the values are exact expectations over random "
        "predictions with those class sizes.",
        "",
        _audit_line(),
        "",
        "## Reading the tables",
        "",
        "✓ holds · ✗ fails (with a counterexample) · b holds for two classes only · (✓) holds after prevalence "
        "calibration (the metric of the matrix whose rows are rescaled to equal class sizes) · c holds under a "
        "written condition · – does not apply to the metric's kind of input (the note says why) · ? not confirmed by the checker · † disagrees with the paper's table.",
        "",
        "### Opitz (2024)",
        "",
        *_overview(cat, OPITZ_PROPERTIES),
        "",
        "### Gösgens et al. (2021)",
        "",
        *_overview(cat, GOESGENS_PROPERTIES),
        "",
        "## How each property is checked",
        "",
        *[f"- **{LONG[p.id]}** — {p.definition}" for p in PROPERTIES.values()],
        "",
        "## Where the checker disagrees with the papers",
        "",
    ]
    for rec in cat.metrics.values():
        if rec.alias_of:
            continue
        for pid, c in rec.properties.items():
            if c.paper_claim:
                out.append(f"- **{rec.name}**, {LONG[pid]}: the paper says {c.paper_claim}; advisor says "
                           f"*{STATUS_WORDS[c.status]}*"
                           + (f" ({c.condition})" if c.condition else "")
                           + (f". Counterexample: {_ce_md(c.counterexample)}" if c.counterexample else "")
                           + (f". Calibrated: {_ce_md(c.calibrated_counterexample)}" if c.calibrated_counterexample
                              else "") + ".")
    out += ["", "## Names that mislead", ""]
    out += [f"- **{name}** — {note}" for name, note in cat.name_notes.items()]
    out += ["", "## Metrics", ""]
    for rec in cat.metrics.values():
        if rec.alias_of:
            target = cat.metrics[rec.alias_of]
            out += [f"## {rec.name} (`{rec.id}`)", "",
                    f"Another id for [{target.name}](#{_anchor(target)}). {rec.interpretation}", ""]
            continue
        out.append(record_markdown(rec))
    out += ["## References", ""] + [f"- `{k}`: {_cite(k)}" for k in sorted(references())] + [""]
    return "\n".join(out)


# ----------------------------------------------------------------------------------------------
# explain
# ----------------------------------------------------------------------------------------------
def explain(res: Resolution, fmt: str = "md") -> str:
    """Explain what a metric name computes, in ``md``, ``tex`` or ``json``."""
    if fmt == "json":
        return json.dumps({
            "query": res.query, "ambiguous": res.ambiguous, "note": res.note,
            "candidates": [metric_dict(r, full=True) for r in res.candidates],
        }, indent=2, ensure_ascii=False, default=_json_default)
    if fmt == "tex":
        return _explain_tex(res)
    return _explain_md(res)


def _json_default(x: Any) -> Any:
    if isinstance(x, float):
        return None
    raise TypeError(type(x).__name__)


def _record_md(rec: MetricRecord, heading: str) -> list[str]:
    return [heading, "", record_markdown(rec, heading=False)]


def _explain_md(
    res: Resolution,
    quoted: str | None = None,
    record: Callable[[MetricRecord, str], list[str]] = _record_md,
) -> str:
    """Markdown of ``explain``: the query as ``quoted`` (default: escaped, in quotes), each
    candidate as ``record(rec, heading)`` (the terminal view passes a shorter record)."""
    q = quoted if quoted is not None else f"“{markdown_escape(res.query)}”"
    out: list[str] = []
    if res.ambiguous:
        ids = " and ".join(f"`{r.id}`" for r in res.candidates)
        out += [f"# {q} is ambiguous", "", f"It can mean {len(res.candidates)} different metrics: {ids}.", ""]
    elif res.note:
        out += [f"# What {q} computes", ""]
    if res.note:
        out += [res.note, ""]
    for i, rec in enumerate(res.candidates, 1):
        title = f"{rec.name} (`{rec.id}`)"
        out += record(rec, f"## Meaning {i} of {len(res.candidates)}: {title}" if res.ambiguous
                      else ("## " if out else "# ") + title)
    return "\n".join(out).rstrip() + "\n"


def _explain_tex(res: Resolution) -> str:
    out = [f"% advisor explain {latex_escape(res.query)}"]
    if res.ambiguous:
        out.append(f"\\paragraph{{``{latex_escape(res.query)}'' is ambiguous.}} It can mean "
                   f"{len(res.candidates)} different metrics.")
    if res.note:
        out.append(latex_escape(res.note))
    for rec in res.candidates:
        lo, hi = rec.range
        top = "$\\infty$" if hi == float("inf") else f"${hi:g}$"
        bottom = "$-\\infty$" if lo == float("-inf") else f"${lo:g}$"
        out += [f"\\subsection*{{{latex_escape(rec.name)} (\\texttt{{{latex_escape(rec.id)}}})}}",
                "\\[", rec.formula, "\\]", latex_escape(rec.interpretation),
                f"Range {bottom} to {top}, {latex_escape(direction(rec))}. "
                f"Chance level: {latex_escape(rec.chance_level)}"]
        if rec.pitfalls:
            out += ["\\begin{itemize}"] + [f"  \\item {latex_escape(p)}" for p in rec.pitfalls] + ["\\end{itemize}"]
        out.append("\\begin{itemize}")
        for pid in PROPERTY_IDS:
            c = rec.properties[pid]
            extra = f" if {c.condition}" if c.condition else ""
            checked = "verified" if c.verified else "not verified"
            note = f" {latex_escape(c.note)}" if c.note else ""
            out.append(f"  \\item {latex_escape(LONG[pid])}: {latex_escape(STATUS_WORDS[c.status] + extra)} "
                       f"({latex_escape(c.source)}; {checked}).{note}")
        out.append("\\end{itemize}")
        if rec.references:
            out.append("References: \\cite{" + ",".join(rec.references) + "}.")
    return "\n".join(out) + "\n"
