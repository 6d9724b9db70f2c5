"""The exceptions advisor raises.

Every error the library raises on purpose derives from :class:`AdvisorError`. Its message is one
sentence a user can act on: it names the argument or file, the value received and what is allowed.
The command-line interface prints that sentence and exits with status 2 instead of a traceback.

One message serves both callers. Code shared by the Python API and the command line names an argument
with :func:`arg`, never with a command-line flag: ``str(error)`` shows it as the Python argument
(``sql=``, ``group='patient'``) and the command line shows it as its option (``--sql``,
``--group patient``) through :meth:`AdvisorError.message`, given the option of each argument
(``advisor/cli/_common.py`` holds that table).

>>> e = InputError(f"{arg('sql')} replaces the input files; give {arg('group', 'site')} or nothing.")
>>> str(e)
"sql= replaces the input files; give group='site' or nothing."
>>> e.message(lambda name: "--" + name.replace("_", "-"))
'--sql replaces the input files; give --group site or nothing.'
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = [
    "AdvisorError",
    "InputError",
    "UnknownMetricError",
    "UnsafeOutputError",
    "arg",
    "check_keywords",
    "render_arguments",
]

# An argument in a message: \x1f name \x1e Python wording \x1e value on the command line \x1f. Both are control
# characters no message, label or path written by hand holds (they are stripped from what is marked), and
# str() of an error never shows them.
_MARK, _SEP = "\x1f", "\x1e"
_ARGUMENT = re.compile(f"{_MARK}([^{_MARK}{_SEP}]*){_SEP}([^{_MARK}{_SEP}]*){_SEP}([^{_MARK}{_SEP}]*){_MARK}")
_NO_VALUE = object()
_CLI = "!"  # a name starting with it is the command line's own wording, not an argument


def _plain(text: str) -> str:
    return text.replace(_MARK, "?").replace(_SEP, "?")


def arg(name: str, value: Any = _NO_VALUE, *, python: str | None = None, cli: str | None = None) -> str:
    """The argument ``name`` — and, if given, the value it received — in an error message.

    In Python the message shows ``name=`` (``name=<repr of value>``); on the command line it shows the
    argument's option (``--name``, ``--name value``; a value of True shows the option alone). ``python``
    and ``cli`` replace either wording where the two name a thing differently (a function of the API, a
    command).
    """
    if value is _NO_VALUE:
        shown, given = f"{name}=", ""
    else:
        shown, given = f"{name}={value!r}", ("" if value is True else str(value))
    if cli is not None:
        name, given = f"{_CLI}{cli}", ""
    return f"{_MARK}{_plain(name)}{_SEP}{_plain(python or shown)}{_SEP}{_plain(given)}{_MARK}"


def render_arguments(text: str, option: Callable[[str], str] | None = None) -> str:
    """``text`` with every :func:`arg` spelled out: as a Python argument (``name=``), or, given
    ``option`` (argument name → command-line option), as that option."""
    def spell(m: re.Match[str]) -> str:
        name, python, value = m.group(1), m.group(2), m.group(3)
        if option is None:
            return python
        flag = name[len(_CLI):] if name.startswith(_CLI) else option(name)
        return f"{flag} {value}" if value else flag

    return _ARGUMENT.sub(spell, text) if _MARK in text else text


def check_keywords(function: str, given: Mapping[str, Any], allowed: Iterable[str]) -> None:
    """Refuse a keyword argument ``function`` does not take (one sentence with the nearest name), where its
    ``**options`` would pass it on to a function that fails with a TypeError naming another function.

    >>> check_keywords("evaluate", {"score": [0.2]}, ["scores", "metrics"])
    Traceback (most recent call last):
    ...
    advisor._exceptions.InputError: evaluate() takes no argument 'score' (did you mean scores=?); it takes metrics, scores.
    """
    names = sorted(set(allowed))
    for key in given:
        if key not in names:
            near = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
            hint = f" (did you mean {near[0]}=?)" if near else ""
            raise InputError(f"{function}() takes no argument {str(key)!r}{hint}; it takes {', '.join(names)}.")


class AdvisorError(Exception):
    """Base class of every error advisor raises on purpose."""

    def __init__(self, *args: Any) -> None:
        template = args[0] if args and isinstance(args[0], str) and _MARK in args[0] else None
        if template is not None:  # str(), repr() and pickling see the Python wording
            args = (render_arguments(template), *args[1:])
        super().__init__(*args)
        self.template = template

    def message(self, option: Callable[[str], str] | None = None) -> str:
        """The message, its arguments named by ``option`` (name → command-line option), or as in
        Python without it. To quote the error in another message, keep :attr:`text`."""
        return render_arguments(self.template, option) if self.template is not None else str(self)

    @property
    def text(self) -> str:
        """The message with its arguments still unspelled: for an error that quotes this one."""
        return self.template if self.template is not None else str(self)


class InputError(AdvisorError, ValueError):
    """A file, array or argument supplied by the user is unusable as given."""


class UnknownMetricError(AdvisorError, KeyError):
    """A metric id or name is not in the catalogue."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnsafeOutputError(AdvisorError):
    """Writing the requested output would overwrite an input or escape the output directory."""
