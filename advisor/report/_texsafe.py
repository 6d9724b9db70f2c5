r"""Only harmless LaTeX math reaches a ``.tex`` or ``.md`` file.

Formulas normally come from advisor's own catalogue, but a report can be re-rendered from a JSON
context that someone else wrote. Every formula is therefore checked against an allow-list of math
commands (those of amsmath/amssymb the catalogue uses) before it is written verbatim; anything else
(``\input``, ``\write``, ``\catcode``, ``\def``, a ``$`` that would leave math mode, ``^^`` escapes)
makes the formula unsafe and it is shown as escaped text instead.

>>> safe_math(r"\frac{1}{k}\sum_{i=1}^{k} R_i")
'\\frac{1}{k}\\sum_{i=1}^{k} R_i'
>>> safe_math(r"x \input{/etc/passwd}") is None
True
"""

from __future__ import annotations

import re

__all__ = ["ALLOWED_COMMANDS", "MAX_MATH_CHARS", "MAX_MATH_DEPTH", "MAX_MATH_PALETTE", "math_bounds", "safe_math"]

#: Longest formula written (the catalogue's longest is about 200 characters).
MAX_MATH_CHARS = 2_000
#: Deepest nesting of groups — braces, ``\left…\right``, ``\begin…\end`` — (the catalogue's deepest is 4;
#: TeX stops at 255 and a formula 900 braces deep ended pdflatex with "TeX capacity exceeded").
MAX_MATH_DEPTH = 16
#: Most commands typeset in all four math styles (``\sqrt``, ``\boldsymbol``: TeX's \mathchoice), whose
#: nesting multiplies the work by four per level (the catalogue uses at most one).
MAX_MATH_PALETTE = 6
_PALETTE = ("sqrt", "boldsymbol")
_OPEN, _CLOSE = ("{", r"\left", r"\begin"), ("}", r"\right", r"\end")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}]")

ALLOWED_COMMANDS = frozenset(
    """
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi
    varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi
    Pi Sigma Upsilon Phi Psi Omega
    frac dfrac tfrac binom sqrt sum prod int coprod bigcup bigcap min max argmin argmax sup inf lim
    log ln exp cos sin tan arccos arcsin arctan det
    mathrm operatorname mathit mathbf mathbb mathcal mathsf mathtt boldsymbol text textrm textit
    textbf mbox
    left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr
    cdot cdots ldots dots vdots ddots times div pm mp ast star circ bullet
    le leq ge geq neq ne approx sim simeq equiv propto ll gg lt gt
    in notin ni subset subseteq supset supseteq cup cap setminus emptyset varnothing
    forall exists neg lnot land lor wedge vee implies iff to rightarrow leftarrow Rightarrow
    Leftarrow leftrightarrow Leftrightarrow mapsto
    infty partial nabla prime top perp angle
    hat widehat bar overline underline tilde widetilde vec dot ddot check breve acute grave
    overbrace underbrace
    quad qquad
    mid vert lvert rvert Vert lVert rVert langle rangle lfloor rfloor lceil rceil lbrace rbrace
    displaystyle textstyle scriptstyle limits nolimits
    begin end
    """.split()
)
_ENVIRONMENTS = frozenset({"cases", "matrix", "pmatrix", "bmatrix", "vmatrix", "aligned", "array", "smallmatrix"})
_COMMAND = re.compile(r"\\([A-Za-z]+)\*?|\\(.)")


def math_bounds(tex: str) -> str | None:
    r"""Why ``tex`` is beyond what a formula may be (length, group nesting, \sqrt-like commands), or None.

    >>> math_bounds("x^{2}"), math_bounds("{" * 900 + "}" * 900).split("; ")[1]
    (None, 'a formula nests at most 16')
    """
    if len(tex) > MAX_MATH_CHARS:
        return f"it has {len(tex):,} characters; a formula has at most {MAX_MATH_CHARS:,}"
    depth = deepest = palette = 0
    for m in _TOKEN.finditer(tex):
        t = m.group()
        if t in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif t in _CLOSE:
            depth -= 1
        elif t[1:] in _PALETTE:
            palette += 1
    if deepest > MAX_MATH_DEPTH:
        return (f"its groups (braces, \\left…\\right, \\begin…\\end) nest {deepest} deep; a formula nests at most "
                f"{MAX_MATH_DEPTH}")
    if palette > MAX_MATH_PALETTE:
        return (f"it has {palette} \\sqrt/\\boldsymbol, each typeset four times over; a formula has at most "
                f"{MAX_MATH_PALETTE}")
    return None


def safe_math(tex: str) -> str | None:
    """``tex`` if it uses only allow-listed math commands within the bounds of :func:`math_bounds`, else None."""
    if not isinstance(tex, str) or "$" in tex or "^^" in tex or "%" in tex.replace(r"\%", "") or "#" in tex:
        return None
    if math_bounds(tex) is not None:
        return None
    if tex.count("{") - tex.count(r"\{") != tex.count("}") - tex.count(r"\}"):
        return None
    for m in _COMMAND.finditer(tex):
        name, sym = m.group(1), m.group(2)
        if name is not None:
            if name not in ALLOWED_COMMANDS:
                return None
            if name in ("begin", "end"):
                env = re.match(r"\s*\{([A-Za-z*]+)\}", tex[m.end():])
                if not env or env.group(1) not in _ENVIRONMENTS:
                    return None
        elif sym not in ",;:! {}|\\_&%#":
            return None
    return tex
