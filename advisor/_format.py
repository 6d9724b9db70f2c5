r"""How advisor prints numbers and user-supplied text: one rule for the terminal, the report and its tests.

Numbers: :func:`format_number`, :func:`format_count`.

Escaping of user-supplied text for every output format.

Every string that did not come from advisor itself (class labels, system names, titles, notes,
file names) passes through one of these functions before it reaches a document. The Jinja
environments apply them automatically to every ``{{ … }}`` whose value is not explicitly marked
safe (see :mod:`advisor.report._env`), so a template cannot forget.

>>> latex_escape(r"\input{/etc/passwd} 50% & <b>")
'\\textbackslash{}input\\{/etc/passwd\\} 50\\% \\& \\textless{}b\\textgreater{}'
>>> markdown_escape("<script>alert(1)</script> a|b")
'\\<script\\>alert(1)\\</script\\> a\\|b'
>>> html_escape('<a href="x">')
'&lt;a href=&#34;x&#34;&gt;'
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from markupsafe import escape as _html_escape

__all__ = [
    "LABEL_DISPLAY_LIMIT",
    "beta_text",
    "display_label",
    "few_names",
    "format_count",
    "format_number",
    "html_escape",
    "html_table",
    "latex_escape",
    "markdown_code",
    "markdown_escape",
    "safe_filename",
    "terminal_safe",
    "visible_controls",
]


def format_number(
    value: Any,
    digits: int = 4,
    *,
    none: str = "n/a",
    nan: str = "n/a",
    inf: tuple[str, str] = ("inf", "-inf"),
) -> str:
    """Fixed ``digits`` decimals; ``-0.0000`` is printed ``0.0000``; None, NaN and ±inf as given.

    >>> format_number(0.81234), format_number(-1e-17), format_number(None, none="—")
    ('0.8123', '0.0000', '—')
    >>> format_number(float("nan")), format_number(float("-inf"), inf=("∞", "−∞")), format_number(3.0, 0)
    ('n/a', '−∞', '3')
    """
    if value is None:
        return none
    try:
        v = float(value)
    except (TypeError, ValueError):
        return nan
    if math.isnan(v):
        return nan
    if math.isinf(v):
        return inf[0] if v > 0 else inf[1]
    s = f"{v:.{digits}f}"
    if s.startswith("-") and float(s) == 0:
        s = s[1:]
    return s


def format_count(value: Any) -> str:
    """Counts: integers without decimals (no exponent however large), fractional masses with two.

    >>> format_count(1234567.0), format_count(2.5), format_count(None)
    ('1234567', '2.50', 'n/a')
    """
    if value is None:
        return "n/a"
    v = float(value)
    return f"{v:.0f}" if v.is_integer() else f"{v:.2f}"

# LaTeX special characters (text mode). Order matters only for the backslash, handled per character.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"$\$$",  # text-mode \$ needs the TS1 font (bitmap) under pdflatex's default OT1
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"{\ttfamily\char34}",
    "[": "{[}",  # a '[' after a table row's \\ would be read as the row's optional skip: \\[UNK]
    "]": "{]}",
    "\n": " ",
    "\r": " ",
    "\t": " ",
}

# Non-Latin-1 characters that pdflatex's default set-up cannot typeset from UTF-8 input: spelled
# out in math mode or as text commands.
_LATEX_UNICODE = {
    "≥": r"$\geq$", "≤": r"$\leq$", "≠": r"$\neq$", "≈": r"$\approx$", "±": r"$\pm$",
    "×": r"$\times$", "·": r"$\cdot$", "−": r"$-$", "→": r"$\rightarrow$", "←": r"$\leftarrow$",
    "∞": r"$\infty$", "∑": r"$\sum$", "√": r"$\surd$", "∈": r"$\in$", "⊂": r"$\subset$",
    "α": r"$\alpha$", "β": r"$\beta$", "γ": r"$\gamma$", "δ": r"$\delta$", "ε": r"$\varepsilon$",
    "κ": r"$\kappa$", "λ": r"$\lambda$", "μ": r"$\mu$", "π": r"$\pi$", "ρ": r"$\rho$",
    "σ": r"$\sigma$", "τ": r"$\tau$", "φ": r"$\phi$", "χ": r"$\chi$", "ω": r"$\omega$",
    "Ω": r"$\Omega$", "Σ": r"$\Sigma$", "Δ": r"$\Delta$",
    "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "…": r"\ldots{}",
    "\u00a0": "~", "•": r"$\bullet$", "✓": "yes", "✗": "no",
    "₀": r"$_0$", "₁": r"$_1$", "₂": r"$_2$", "ₑ": r"$_e$", "ᵢ": r"$_i$", "²": r"$^2$",
    "ʳ": r"$^r$", "§": r"$\S$", "¶": r"$\P$", "°": r"$^\circ$", "µ": r"$\mu$", "¬": r"$\neg$",
    "©": "(c)", "½": r"$\frac12$", "¼": r"$\frac14$", "¾": r"$\frac34$", "¹": r"$^1$",
    "³": r"$^3$", "«": r"$\ll$", "»": r"$\gg$", "£": "GBP", "÷": r"$\div$", "¡": "!`",
    "¿": "?`", "¦": r"$|$", "¯": r"$^-$", "´": "'", "¸": ",", "¨": r"\"{}", "ª": r"$^a$", "º": r"$^o$",
    "Þ": "Th", "þ": "th", "Ð": "D", "ð": "d", "ł": r"\l{}", "Ł": r"\L{}", "œ": r"\oe{}", "Œ": r"\OE{}",
    "®": "(R)", "¢": "c", "¥": "Y", "¤": "[U+00A4]", "\u00ad": "",
}

# Markdown (CommonMark) punctuation that can start markup inline or inside a table cell.
_MD_SPECIAL = set("\\`*_{}[]<>#|$~!")
#: "&" opens markup only as an entity or character reference ("&amp;", "&#38;"); elsewhere it stays bare
_MD_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def latex_escape(text: object) -> str:
    """Escape ``text`` for LaTeX text mode (pdflatex, default OT1/UTF-8 set-up).

    Every LaTeX special character becomes a command that prints it; characters outside Latin-1
    that pdflatex cannot typeset are spelled out (``≥`` → ``$\\geq$``) or, when unknown, replaced
    by ``[U+XXXX]`` so compilation never fails on a label.
    """
    out: list[str] = []
    for ch in visible_controls(text):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ord(ch) < 0x80:
            out.append(ch if ch.isprintable() else " ")
        elif not ch.isprintable() and ch != "\u00a0":
            out.append(" ")
        elif ch in _LATEX_UNICODE:
            out.append(_LATEX_UNICODE[ch])
        elif ord(ch) <= 0xFF and unicodedata.category(ch)[0] == "L":
            out.append(ch)  # Latin-1 letters: the utf8 input encoding builds them from OT1 accents
        else:
            decomposed = unicodedata.normalize("NFKD", ch)
            base = "".join(c for c in decomposed if ord(c) < 0x80 and c.isalnum())
            out.append(base if base else f"[U+{ord(ch):04X}]")
    return "".join(out)


def markdown_escape(text: object) -> str:
    """Escape ``text`` for CommonMark inline content, table cells included.

    Punctuation that could open markup (emphasis, links, raw HTML, math, tables) is
    backslash-escaped; line breaks become spaces so a label cannot break a table row.
    """
    s = re.sub(r"[\r\n\t]+", " ", visible_controls(text))
    out = "".join("\\" + ch if ch in _MD_SPECIAL and not (ch == "_" and _inert_underscore(s, i)) else ch
                  for i, ch in enumerate(s))
    return _MD_ENTITY.sub(r"\\&", out)


def _inert_underscore(s: str, i: int) -> bool:
    """Whether ``s[i]``, an underscore, lies between two letters or digits: CommonMark lets such an ``_`` neither open
    nor close emphasis (it is both left- and right-flanking, with no punctuation beside it), so it is left bare — a
    column name reads "rater_1", not "rater\\_1", in the Markdown a reader opens (the s26 readers)."""
    return 0 < i < len(s) - 1 and s[i - 1].isalnum() and s[i + 1].isalnum()


def html_escape(text: object) -> str:
    r"""Escape ``text`` for HTML element content and attribute values (control characters made visible).

    >>> html_escape("a\x1b[2Jb")
    'a\\x1b[2Jb'
    """
    return str(_html_escape(visible_controls(text)))


def markdown_code(text: object) -> str:
    """``text`` as a CommonMark code span: shown literally, fenced by more backticks than it contains.

    >>> markdown_code("advisor compute --seed 1"), markdown_code("a`b")
    ('`advisor compute --seed 1`', '`` a`b ``')
    """
    s = XML_INVALID.sub(_visible, re.sub(r"[\r\n\t]+", " ", str(text)))
    runs = [len(r) for r in re.findall(r"`+", s)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if runs or s.startswith(" ") or s.endswith(" ") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def safe_filename(text: object, default: str = "item") -> str:
    """A file-name fragment derived from user text: ASCII letters, digits, ``-`` and ``_`` only.

    >>> safe_filename("../../etc/passwd")
    'etc-passwd'
    """
    s = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", s).strip("-_")
    return s[:40] or default


# Characters a terminal acts on instead of showing: C0 controls (ESC, BEL, backspace, carriage
# return, …), DEL, C1 controls (U+0080–U+009F, e.g. the 8-bit CSI U+009B), and the bidirectional
# overrides, embeddings, isolates and marks that reorder what is shown (U+202A–U+202E,
# U+2066–U+2069, U+200E, U+200F, U+061C), plus the line and paragraph separators.
# Also what no text encoding or XML parser accepts: lone surrogates (U+D800–U+DFFF, which cannot even be
# written as UTF-8) and the non-characters U+FFFE and U+FFFF.
_TERMINAL_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                              "\ud800-\udfff\ufffe\uffff]")
_TERMINAL_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _TERMINAL_NAMED:
        return _TERMINAL_NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: object, *, keep_newlines: bool = False) -> str:
    r"""``text`` with every character a terminal would act on shown as a visible escape.

    The one sanitiser for user data printed to a terminal (class labels, system and file names,
    notes, queries) and for error messages: an escape sequence in a label cannot set the window
    title, clear the screen, write the clipboard or forge a hyperlink, and a bidi override cannot
    reorder what is shown. ``keep_newlines`` keeps line breaks (and tabs) of advisor's own
    multi-line text.

    >>> terminal_safe("\x1b]0;pwned\x07a"), terminal_safe("\x1b[2Jb"), terminal_safe("a\u202eb\x9bc")
    ('\\x1b]0;pwned\\x07a', '\\x1b[2Jb', 'a\\u202eb\\x9bc')
    >>> terminal_safe("two\nlines"), terminal_safe("two\nlines", keep_newlines=True)
    ('two\\nlines', 'two\nlines')
    """
    s = str(text)
    if keep_newlines:
        return "\n".join("\t".join(_TERMINAL_UNSAFE.sub(_visible, part) for part in line.split("\t"))
                         for line in s.split("\n"))
    return _TERMINAL_UNSAFE.sub(_visible, s)


def html_table(columns: list[str], rows: list[list[Any]], caption: str | None = None) -> str:
    """A plain HTML table (what a notebook shows for ``_repr_html_``); every cell escaped, numbers
    with four decimals.

    >>> html_table(["class", "recall"], [["<b>", 0.5]], caption="per class")
    '<table><caption>per class</caption><thead><tr><th>class</th><th>recall</th></tr></thead><tbody><tr><td>&lt;b&gt;</td><td style="text-align:right">0.5000</td></tr></tbody></table>'
    """
    def td(value: Any) -> str:
        if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
            return f'<td style="text-align:right">{html_escape(format_number(value))}</td>'
        return f"<td>{html_escape('' if value is None else value)}</td>"

    head = "".join(f"<th>{html_escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(td(v) for v in row) + "</tr>" for row in rows)
    cap = f"<caption>{html_escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# ----------------------------------------------------------------------------------------------
# User strings on display: control characters visible, long labels shortened
# ----------------------------------------------------------------------------------------------
#: Class labels and system names longer than this many characters are shortened in display
#: (report tables, text and figures) with a trailing "…"; the JSON context keeps them whole.
LABEL_DISPLAY_LIMIT = 60

# In documents: what terminal_safe shows, except tab, newline and carriage return (whitespace to every
# format), plus the invisible characters that hide text (zero-width ones, word joiner, BOM). Every code
# point XML 1.0 forbids is among them (C0 controls but tab/LF/CR, lone surrogates, U+FFFE, U+FFFF), so an
# SVG or HTML file holding user text always parses.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e"
                      "\u2060-\u2069\ufeff\ud800-\udfff\ufffe\uffff]")
#: What XML 1.0 forbids in a document (the last net of advisor.report._svg.clean_svg).
XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def visible_controls(text: object) -> str:
    r"""``text`` with control and invisible format characters written as visible escapes.

    Tab, newline and carriage return stay (each format turns them into spaces); everything else
    in the C0/C1 ranges, DEL, bidi overrides and zero-width characters becomes ``\xNN`` or
    ``\uNNNN`` (as :func:`terminal_safe` writes them), so a label can neither drive a terminal nor make
    an SVG file invalid XML nor hide text.

    >>> visible_controls("\x1b]0;pwned\x07a"), visible_controls("abc\u202edef")
    ('\\x1b]0;pwned\\x07a', 'abc\\u202edef')
    """
    return _CONTROL.sub(_visible, str(text))


def display_label(text: object, limit: int = LABEL_DISPLAY_LIMIT) -> str:
    r"""A class label or system name for display: controls visible, whitespace runs as one space, at
    most ``limit`` characters (longer ones end in "…"). Escape it for the output format afterwards.

    >>> display_label("a\tb\x07"), display_label("x" * 100, 10)
    ('a b\\x07', 'xxxxxxxxx…')
    """
    s = " ".join(visible_controls(text).split())
    return s if len(s) <= limit else s[: max(limit - 1, 0)] + "…"


def few_names(items: Any, limit: int = 10) -> str:
    r"""Names for a sentence: at most ``limit`` of them, then how many more — a message about a
    thousand classes stays one line. Each name keeps its spaces (it can be copied back) but shows
    control characters and line breaks as escapes and is cut at ``LABEL_DISPLAY_LIMIT`` characters.

    >>> few_names(["a", "b"]), few_names([f"c{i}" for i in range(8)], 3), few_names(["x  y\n"])
    ('a, b', 'c0, c1, c2 and 5 more', 'x  y\\n')
    """
    items = list(items)
    shown = ", ".join(_name(x) for x in items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def _name(text: object) -> str:
    s = visible_controls(text).replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return s if len(s) <= LABEL_DISPLAY_LIMIT else s[: LABEL_DISPLAY_LIMIT - 1] + "…"


def beta_text(beta: float) -> str:
    """β of Fβ as a reader checks it against the costs: the root of the cost ratio when that ratio is a whole
    number ("√3 ≈ 1.73" for costs 3 : 1, issue 22: "β = 1.73" had to be worked back), else three digits.

    >>> beta_text(3 ** 0.5), beta_text(2.0), beta_text(1.5)
    ('√3 ≈ 1.73', '2', '1.5')
    """
    square = beta * beta
    whole = round(square)
    if whole >= 2 and abs(square - whole) < 1e-9 and abs(beta - round(beta)) > 1e-9:
        return f"√{whole} ≈ {beta:.3g}"
    return f"{beta:.3g}"
