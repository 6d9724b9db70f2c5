"""Every symbol of every formula is defined (issue 22 item 4).

A formula's symbols are read off its LaTeX: what the shared notation of the Definitions defines (the
confusion matrix C with a_i, b_j, n, k; TP/FP/FN/TN; p_tj and y_t; g_t and e_t), the indices its sums
bind, the names it defines itself (``\\quad P_o = …``) and constants (π alone, numbers) need nothing
more; every other symbol must be in the catalogue's ``symbols`` of that metric, which the report prints
after the formula ("where π_i is the share of class i in use; …").
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.catalogue import get_catalogue
from advisor.report import build_report, render_report
from advisor.report._methods import SHARED_NOTATION

CAT = get_catalogue()
ROOT = Path(__file__).resolve().parent.parent

SHARED = {"C", "a", "b", "n", "k", "TP", "FP", "FN", "TN", "p", "y", "g", "e"}
FUNCTIONS = r"frac|sum|prod|sqrt|left|right|cdot|quad|log|arccos|min|max|neq|le|in|notin|mathrm\{min\}|mathrm\{max\}"
_SYMBOL = re.compile(r"\\mathrm\{(\w+)\}|\\([A-Za-z]+)|([A-Za-z]+)'?")


def _bound(latex: str) -> set[str]:
    """Indices bound by a sum, product or minimum: ``\\sum_{i=1}``, ``\\sum_{i,j}``, ``\\sum_{t:y_t=+}``, ``\\min_{j}``."""
    out: set[str] = set()
    for sub in re.findall(r"\\(?:sum|prod|min)_(\{[^{}]*\}|\w)", latex):
        head = re.split(r"[=:]|\\neq|\\in\b|\\notin\b", sub.strip("{}"))[0]  # \sum_{i \in S}: i is bound, S a symbol
        out |= set(re.findall(r"[a-z]", head))
        if "\\neq" in sub:  # \sum_{c \neq k}: both are bound
            out |= set(re.findall(r"[a-z]", sub))
    return out


def _local(latex: str) -> set[str]:
    """Names the formula defines itself after ``\\quad`` (``P_o=…``, ``\\mathrm{macP}=…``, ``w_i=…``), with
    the letters of their subscripts (the o of P_o is a label, not a symbol)."""
    out: set[str] = set()
    for m in re.finditer(r"\\quad\s*(?:\\mathrm\{(\w+)\}|([A-Za-z]+))(?:_(\{[\w']+\}|\w))?\s*=", latex):
        out.add(m.group(1) or m.group(2))
        out |= set(re.findall(r"[a-z]", m.group(3) or ""))
    return out


def symbols_of(latex: str) -> set[str]:
    """The base names of a formula's symbols (``c`` for ``c_{ij}``, ``pi`` for ``\\pi_i``, ``acc``)."""
    out: set[str] = set()
    for m in _SYMBOL.finditer(latex):
        name = m.group(1) or m.group(2) or m.group(3)
        if m.group(2) and re.fullmatch(FUNCTIONS, m.group(2)):
            continue
        if m.group(2) == "pi" and not latex[m.end():].startswith("_"):
            continue  # the constant π (correlation distance)
        if m.group(1) in ("min", "max"):
            continue
        if m.group(3) and len(name) > 1 and name not in SHARED:  # two letters in a row are two symbols (nk, ab)
            out |= set(name)
            continue
        out.add(name)
    return out


def _defined(rec) -> set[str]:
    names: set[str] = set()
    for key in rec.symbols:
        names |= symbols_of(key)
        names |= set(re.findall(r"[A-Za-z]", key)) if "," in key else set()
    return names


def test_the_tokeniser():
    assert symbols_of(r"\sum_{i=1}^{k}\pi_i\sum_{j=1}^{k}c_{ij}\frac{C_{ij}}{a_i}") == {"i", "k", "pi", "j", "c", "C", "a"}
    assert _bound(r"\sum_{t:y_t=+}\sum_{u:y_u=-}") == {"t", "u"}
    assert _local(r"x,\quad P_o=\frac{1}{N},\quad \mathrm{macP}=1") == {"P", "o", "macP"}


@pytest.mark.parametrize("mid", sorted(CAT.metrics))
def test_every_symbol_is_defined(mid):
    rec = CAT.metrics[mid]
    if rec.alias_of:
        return
    f = rec.formula
    used = symbols_of(f)
    free = used - SHARED - _bound(f) - _local(f) - {"i", "j"} - _defined(rec)
    # a formula's own "where" clause defines its symbols; indices i, j of a class are shared notation
    assert not free, f"{mid}: {sorted(free)} used in {f} but defined nowhere (catalogue symbols: {rec.symbols})"


EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.yaml") if "answers" in p.name or p.parent.name == "answers")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_report_prints_the_symbols_after_the_formula(path):
    """The Definitions say what π_i, c_ij, n_uc, m_u, s_t … mean wherever those formulas are printed."""
    ctx = build_report(path)
    md = render_report(ctx, "md")
    for entry in ctx.metrics:
        rec = CAT.metrics.get(entry.id)
        if rec is None or f"{entry.name}**" not in md:
            continue
        for symbol, meaning in rec.symbols.items():
            if symbol in SHARED_NOTATION:  # defined by the notation before the formulas, in its words (checked below)
                continue
            assert meaning.split("$")[0].strip() in md, (entry.id, symbol)


# ----------------------------------------------------------------------------------------------
# One Definitions block, one notation: every symbol a formula uses is defined in the block, and no symbol is
# defined twice (field readers found n as "pairable ratings" and "items both rated", k as a category and the number
# of categories, y_t as a class and a 0/1 value, and n used in the multi-label formulas without a definition)
# ----------------------------------------------------------------------------------------------
SITUATIONS = sorted({*ROOT.glob("tests/situations/*.yaml"), *ROOT.glob("examples/answers/*.yaml")})
_DEFINED = re.compile(
    r"(?:^|Below, |where |[,;.] |, and |\band )"                      # a clause starts
    r"((?:\$[^$]+\$(?:, | and )?)+)"                                  # the symbols it defines
    r" (?:is|are|counts?|its|those|the number|the size)\b")           # and the verb or apposition that defines them


def definitions_block(md: str) -> tuple[str, list[str]]:
    """The Definitions of a methods text: the prose that defines symbols (the notation and each where clause, one
    string) and the display formulas."""
    body = md.partition("**References.**")[0]
    lines = body.splitlines()
    start = next((i for i, ln in enumerate(lines) if ln.startswith("**Evaluation.**")), -1) + 1
    rest = "\n".join(lines[start:])
    formulas = re.findall(r"\$\$(.+?)\$\$", rest, flags=re.S)
    prose = re.sub(r"\$\$.+?\$\$", " ", rest, flags=re.S)
    prose = re.sub(r"^- \*\*[^*]+\*\*[^:$]*:", " ", prose, flags=re.M)  # a formula's name
    return " ".join(prose.split()), formulas


def defined_symbols(prose: str) -> list[str]:
    """Each symbol a clause defines, once per definition ("$a_i$ and $b_j$ are …" defines two)."""
    out: list[str] = []
    for m in _DEFINED.finditer(prose):
        out += re.findall(r"\$([^$]+)\$", m.group(1))
    return out


def test_the_definition_reader():
    prose = ("Below, $C$ is the confusion matrix, $a_i$ and $b_j$ are the sizes of true class $i$ and predicted class "
             "$j$, $n$ and $k$ count items and classes. $p_{tj}$ is item $t$'s probability for class $j$, $y_t$ its "
             "true class. $TP$, $FP$, $FN$ and $TN$ count true positives. where $f$ is the budget; $\\mathrm{TP}_f$ "
             "counts the positives; $[c=c']$ is 1 when $c = c'$, else 0")
    assert defined_symbols(prose) == ["C", "a_i", "b_j", "n", "k", "p_{tj}", "y_t", "TP", "FP", "FN", "TN", "f",
                                      "\\mathrm{TP}_f", "[c=c']"]


@pytest.fixture(scope="module")
def methods_texts():
    from advisor.report import methods_paragraph

    return {p.stem: methods_paragraph(p, "md", seed=1) for p in SITUATIONS}


@pytest.mark.parametrize("path", SITUATIONS, ids=[p.stem for p in SITUATIONS])
def test_one_symbol_one_meaning_in_every_definitions_block(path, methods_texts):
    prose, formulas = definitions_block(methods_texts[path.stem])
    defined = defined_symbols(prose)
    twice = sorted({s for s in defined if defined.count(s) > 1})
    assert not twice, f"{path.stem}: {twice} defined more than once in: {prose}"
    known: set[str] = set()
    for s in defined:
        known |= symbols_of(s) | (set(re.findall(r"[A-Za-z]", s)) if "," in s else set())
    for f in formulas:
        named = set(re.findall(r"^\\?([A-Za-z]+)=", f.strip()))  # Δ = …: the formula names what it defines
        free = symbols_of(f) - _bound(f) - _local(f) - named - known - {"i", "j"}
        assert not free, f"{path.stem}: {sorted(free)} used in {f} but not defined in: {prose}"
        # n and k alone (not n_c, n_{uc}, k', n^+_l): defined as themselves, not by a sub- or superscripted relative
        for bare in ("n", "k"):
            if re.search(rf"(?<![A-Za-z\\]){bare}(?![a-z_{{']|\^[+-])", f) and bare not in defined \
                    and bare not in _bound(f):
                raise AssertionError(f"{path.stem}: ${bare}$ used in {f} but not defined in: {prose}")
