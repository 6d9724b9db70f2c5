"""The plan's notes on planned metrics, said in a paper's voice.

The plan tells the author what became of each planned metric in the author's terms ("The planned “purity” is not
reported: …", :mod:`advisor.plan._notes`); the CLI and the plan show it so. In the methods text the same facts are
said as a paper says them — "We do not report purity: …" — since a reader of the paper never saw a plan (issue 22,
the s23 readers of the clustering, NER and sarcasm paragraphs: "tool-facing text"). Only the opening of our own
sentences changes; the reason, the names and any citation stay as the plan words them.
"""

from __future__ import annotations

import re

__all__ = ["paper_voice", "plain_name"]

#: a metric's name as a paper writes it without quotes: words, digits and the marks of metric names (F1^PN, nDCG@10)
_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 @^()\-–'’.]{0,60}")

_OPENINGS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^The planned “(?P<n>[^”]+)”, which papers in (?P<rest>.+?) report (?P<cite>\([^)]*\)), is not "
                r"computed: "), "We do not compute {n}, which papers in {rest} report {cite}: "),
    (re.compile(r"^The planned “(?P<n>[^”]+)” is not reported: "), "We do not report {n}: "),
    (re.compile(r"^The planned “(?P<n>[^”]+)” is not computed: "), "We do not compute {n}: "),
    (re.compile(r"^The planned “(?P<n>[^”]+)” is reported as (?P<m>[^,]+), "), "We report {m}, "),
    (re.compile(r"^The planned “(?P<n>[^”]+)” is (?P<verb>reported|given) "), "{N} is {verb} "),
    (re.compile(r"^The planned (?P<n>“[^”]+”(?:, “[^”]+”)*(?: and “[^”]+”)?) (?:is|are) not reported: "),
     "We do not report {n}: "),
    (re.compile(r"^The planned (?P<n>“[^”]+”(?:, “[^”]+”)*(?: and “[^”]+”)?) (?P<verb>is|are) not among "),
     "{N} {verb} not among "),
)


def plain_name(name: str) -> str:
    """A planned name without its quotes when it is a metric's name as a paper writes it; quoted otherwise.

    >>> plain_name("token accuracy"), plain_name("nDCG@10"), plain_name("my {odd} name")
    ('token accuracy', 'nDCG@10', '“my {odd} name”')
    """
    return name if _PLAIN.fullmatch(name) else f"“{name}”"


def _names(text: str) -> str:
    """“a”, “b” and “c” → a, b and c, each name plain where it can be."""
    return re.sub(r"“([^”]+)”", lambda m: plain_name(m.group(1)), text)


def paper_voice(sentence: str) -> str:
    """The plan's sentence on a planned metric in a paper's voice; a sentence of another shape as it stands.

    >>> paper_voice("The planned “purity” is not reported: it rewards over-splitting.")
    'We do not report purity: it rewards over-splitting.'
    >>> paper_voice("The planned “NMI” is reported as normalized mutual information, though it is not corrected.")
    'We report normalized mutual information, though it is not corrected.'
    >>> paper_voice("The planned “F1” is reported for each label.")
    'F1 is reported for each label.'
    >>> paper_voice("The planned “MAP” and “P@5” are not among the figures reported below.")
    'MAP and P@5 are not among the figures reported below.'
    >>> paper_voice("The planned “a {b}” is not computed: the metric catalogue does not know the name.")
    'We do not compute “a {b}”: the metric catalogue does not know the name.'
    """
    for pattern, opening in _OPENINGS:
        m = pattern.match(sentence)
        if m is None:
            continue
        parts = {k: ((_names(v) if "“" in v else plain_name(v)) if k == "n" else v) for k, v in m.groupdict().items()}
        n = parts["n"]
        said = opening.format(**parts, N=n[:1].upper() + n[1:])
        return said + sentence[m.end():]
    return sentence
