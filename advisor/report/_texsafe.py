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

__all__ = ["ALLOWED_COMMANDS", "safe_math"]

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


def safe_math(tex: str) -> str | None:
    """``tex`` if it uses only allow-listed math commands, else None."""
    if not isinstance(tex, str) or "$" in tex or "^^" in tex or "%" in tex.replace(r"\%", "") or "#" in tex:
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
