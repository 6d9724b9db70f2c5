r"""A small BibTeX reader for the catalogue's ``references.bib``: entries, plain-text citations.

Only what the report needs: split the file into entries, read their fields, undo the common LaTeX
accent commands for HTML/Markdown, and format an author–year citation.

>>> bib = '@article{x2020, author = {G{\\"o}sgens, Martijn and Zhiyanov, Anton and Tikhonov, A.},'
>>> bib += ' title = {Good {Measures}}, year = 2021, journal = {NeurIPS}}'
>>> e = parse_bibtex(bib)["x2020"]
>>> e.short
'Gösgens et al. 2021'
>>> e.text
'Gösgens, M., Zhiyanov, A., & Tikhonov, A. (2021). Good Measures. NeurIPS.'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["BibEntry", "parse_bibtex", "tex_to_text"]

_ACCENTS = {"\"": "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "c": "\u0327",
            "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b"}
_SYMBOLS = {r"\ss": "ß", r"\o": "ø", r"\O": "Ø", r"\ae": "æ", r"\AE": "Æ", r"\aa": "å", r"\AA": "Å",
            r"\l": "ł", r"\L": "Ł", r"\i": "ı", r"\&": "&", r"\%": "%", r"\_": "_", r"\$": "$", r"\#": "#"}


def tex_to_text(s: str) -> str:
    """Undo common BibTeX/LaTeX markup: accents, braces, dashes, ``~``."""
    def accent(m: re.Match[str]) -> str:
        return unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)])

    s = re.sub(r"\{?\\([\"'`^~=.])\s*\{?([A-Za-z])\}?\}?", accent, s)
    s = re.sub(r"\{?\\([cuvH])\s*\{([A-Za-z])\}\}?", accent, s)
    s = re.sub(r"\{?\\([cuvH]) ([A-Za-z])\}?", accent, s)
    for k, v in _SYMBOLS.items():
        tail = r"(?![A-Za-z])\s?" if k[1:].isalpha() else ""  # "\ss x" eats its space; "\& x" keeps it
        s = re.sub(re.escape(k) + tail, v, s)
    s = re.sub(r"\\(?:emph|textit|textbf|textrm|mathrm|url|texttt)\s*\{([^{}]*)\}", r"\1", s)
    s = s.replace("---", "—").replace("--", "–").replace("~", "\u00a0")
    s = s.replace("{", "").replace("}", "")
    s = s.replace("\\", "")
    return " ".join(s.split())


@dataclass
class BibEntry:
    key: str
    type: str
    fields: dict[str, str] = field(default_factory=dict)
    raw: str = ""

    def _authors(self) -> list[tuple[str, str]]:
        """(last, first) pairs."""
        text = self.fields.get("author") or self.fields.get("editor") or ""
        out = []
        for raw in re.split(r"\s+and\s+", text):
            raw = raw.strip()
            name = tex_to_text(raw).strip()
            if not name:
                continue
            if raw.startswith("{") and raw.endswith("}") and raw.count("{") == raw.count("}"):
                out.append((name, ""))  # a corporate author: {Introduction to Machine Learning (I2ML)}
                continue
            if "," in name:
                last, first = (x.strip() for x in name.split(",", 1))
            else:
                parts = name.split()
                last, first = parts[-1], " ".join(parts[:-1])
            out.append((last, first))
        return out

    @cached_property
    def year(self) -> str:
        return tex_to_text(self.fields.get("year", "n.d."))

    @cached_property
    def short(self) -> str:
        names = self._authors()
        if not names:
            who = tex_to_text(self.fields.get("title", self.key)).split(":")[0]
        elif len(names) == 1:
            who = names[0][0]
        elif len(names) == 2:
            who = f"{names[0][0]} & {names[1][0]}"
        else:
            who = f"{names[0][0]} et al."
        return f"{who} {self.year}"

    @cached_property
    def text(self) -> str:
        def initials(first: str) -> str:
            return " ".join(p[0] + "." for p in re.split(r"[\s]+", first) if p and p[0].isalpha())

        names = [f"{last}, {initials(first)}" if first else last for last, first in self._authors()]
        if len(names) > 1:
            who = ", ".join(names[:-1]) + ", & " + names[-1]
        else:
            who = names[0] if names else ""
        parts = [f"{who} ({self.year})." if who else f"({self.year})."]
        title = tex_to_text(self.fields.get("title", "")).rstrip(".")
        if title:
            parts.append(title + ".")
        venue = self.fields.get("journal") or self.fields.get("booktitle") or self.fields.get("publisher") \
            or self.fields.get("howpublished") or self.fields.get("institution") or ""
        venue = tex_to_text(venue)
        extra = [tex_to_text(self.fields[f]) for f in ("volume",) if f in self.fields]
        if extra and "series" in self.fields:  # "NIST Special Publication 500-266", never a bare number read as pages
            extra = [f"{tex_to_text(self.fields['series'])} {extra[0]}"]
        if "pages" in self.fields:
            extra.append(tex_to_text(self.fields["pages"]))
        if venue:
            parts.append(", ".join([venue, *extra]) + ".")
        if "doi" in self.fields:
            parts.append(f"doi:{tex_to_text(self.fields['doi'])}.")
        elif "eprint" in self.fields:
            parts.append(f"arXiv:{tex_to_text(self.fields['eprint'])}.")
        return " ".join(parts)


def _read_value(s: str, i: int) -> tuple[str, int]:
    """Read a braced, quoted or bare value starting at ``s[i]``; return it and the next index."""
    if s[i] == "{":
        depth, j = 0, i
        while j < len(s):
            if s[j] == "{":
                depth += 1
            elif s[j] == "}":
                depth -= 1
                if depth == 0:
                    return s[i + 1 : j], j + 1
            j += 1
        raise ValueError("unbalanced braces")
    if s[i] == '"':
        j = i + 1
        depth = 0
        while j < len(s) and not (s[j] == '"' and depth == 0):
            depth += {"{": 1, "}": -1}.get(s[j], 0)
            j += 1
        return s[i + 1 : j], j + 1
    m = re.match(r"[^,}\s]+", s[i:])
    value = m.group(0) if m else ""
    return value, i + len(value)


def parse_bibtex(text: str) -> dict[str, BibEntry]:
    """Entries of a BibTeX file by key (``@comment``, ``@string`` and ``@preamble`` are skipped)."""
    entries: dict[str, BibEntry] = {}
    for m in re.finditer(r"@(\w+)\s*\{\s*([^,\s]+)\s*,", text):
        etype = m.group(1).lower()
        if etype in ("comment", "string", "preamble"):
            continue
        key = m.group(2)
        i = m.end()
        fields: dict[str, str] = {}
        try:
            while i < len(text):
                fm = re.compile(r"\s*(\w[\w-]*)\s*=\s*").match(text, i)
                if not fm:
                    break
                value, i = _read_value(text, fm.end())
                fields[fm.group(1).lower()] = " ".join(value.split())
                cm = re.compile(r"\s*,?").match(text, i)
                i = cm.end() if cm else i
                if i < len(text) and text[i] == "}":
                    break
        except (ValueError, IndexError):
            continue
        end = text.find("}", i)
        entries[key] = BibEntry(key, etype, fields, text[m.start() : end + 1 if end >= 0 else len(text)].strip())
    return entries
