"""Small pure helpers of the methods paragraph: lists of metrics in one sentence, shared name endings,
how many classifiers are compared in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..questionnaire import join_words as _join_words

__all__ = ["listed", "shared_tail", "systems_in_words"]


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def systems_in_words(n_systems: int, answers: Mapping[str, Any]) -> str | None:
    """How many classifiers the paragraph compares, in words ("two", "several"); None for one.

    >>> [systems_in_words(n, a) for n, a in [(2, {}), (12, {}), (0, {"ranking": True}), (1, {"ranking": True})]]
    ['two', '12', 'several', None]
    """
    if n_systems > 1:
        return _NUMBER_WORDS.get(n_systems, f"{n_systems:,}")
    return "several" if n_systems == 0 and answers.get("ranking") else None


def listed(opening: str, parts: Sequence[str]) -> str:
    """One sentence listing ``parts``, separated by semicolons, the last after "and".

    >>> listed("We add ", ["a, x", "b, y"])
    'We add a, x; and b, y. '
    """
    return opening + "; ".join(parts[:-1]) + ("; and " if len(parts) > 1 else "") + parts[-1] + ". "


def shared_tail(names: Sequence[str]) -> str:
    """Names joined, a shared ending said once.

    >>> shared_tail(["geometric mean of recalls", "harmonic mean of recalls"])
    'geometric and harmonic means of recalls'
    >>> shared_tail(["log loss", "Brier score"])
    'log loss and Brier score'
    """
    parts = [n.split() for n in names]
    tail = 0
    while len(parts) > 1 and all(len(w) > tail + 1 for w in parts) and len({" ".join(w[len(w) - tail - 1:])
                                                                            for w in parts}) == 1:
        tail += 1
    if tail < 2:
        return _join_words(list(names))
    shared = parts[0][-tail:]
    shared = [shared[0] + "s" if shared[0] == "mean" else shared[0], *shared[1:]]  # two means of recalls
    return _join_words([" ".join(w[:-tail]) for w in parts]) + " " + " ".join(shared)
