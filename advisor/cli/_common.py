"""Helpers shared by the command modules: error handling and output."""

from __future__ import annotations

import codecs
import functools
import os
import re
import shutil
import sys
import unicodedata
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from .._exceptions import AdvisorError
from .._format import _TERMINAL_UNSAFE, display_label, terminal_safe
from .._jsonio import dumps
from ._progress import reporting

F = TypeVar("F", bound=Callable[..., Any])


# Characters advisor itself prints, spelled in ASCII for a terminal that cannot show them.
_ASCII = {"−": "-", "–": "-", "—": "--", "·": ".", "×": "x", "≥": ">=", "≤": "<=", "≠": "!=", "≈": "~",
          "±": "+/-", "…": "...", "‘": "'", "’": "'", "“": '"', "”": '"', "→": "->", "←": "<-", "∞": "inf",
          "•": "*", "✓": "yes", "✗": "no", "│": "|", "─": "-", "━": "-", "┃": "|"}


def _spell_out(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: what an encoding cannot write is spelled in ASCII (``≥`` → ``>=``),
    stripped of accents (``é`` → ``e``) or written as a visible escape (``\\u03ba``) — never an error."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        plain = _ASCII.get(ch) or "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 0x80)
        out.append(plain if plain else ch.encode("ascii", "backslashreplace").decode("ascii"))
    return "".join(out), exc.end


def tolerant_output() -> None:
    """Let standard output and error write in any encoding (``PYTHONIOENCODING=ascii``, ``LANG=C``):
    characters the encoding lacks are spelled out (:func:`_spell_out`) instead of raising
    UnicodeEncodeError."""
    try:
        codecs.lookup_error("advisor-spell-out")
    except LookupError:
        codecs.register_error("advisor-spell-out", _spell_out)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None:
            continue
        try:
            "≥κ€".encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            reconfigure(errors="advisor-spell-out")


_LONG_WORD = 200  # characters of one unbroken run (a label, a cell) shown in an error message
_LONG_MESSAGE = 1200  # characters of a whole error message


def short_message(message: str) -> str:
    """An error message that stays one readable sentence whatever it quotes: an unbroken run longer
    than 200 characters (a 50,000-character label; not a file path) keeps its first 60 and says how long it was, and a
    message over 1,200 characters keeps its beginning and its end (the advice).

    >>> short_message("label " + "x" * 500 + " is too long")
    'label xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (500 characters) is too long'
    """
    def cut(m: re.Match[str]) -> str:  # a file path is what the user needs in full; the overall cap bounds it
        word = m.group()
        return word if "/" in word or os.sep in word else f"{word[:60]}… ({len(word):,} characters)"

    text = re.sub(r"\S{%d,}" % (_LONG_WORD + 1), cut, message)
    if len(text) > _LONG_MESSAGE:
        text = f"{text[:_LONG_MESSAGE - 300]} … {text[-250:]}"
    return text


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one sentence to stderr (control characters made visible, very long quoted values
    shortened: :func:`short_message`) and return the Exit to raise."""
    echo(f"error: {short_message(message)}", err=True)
    return typer.Exit(code)


def echo(text: Any = "", *, err: bool = False, nl: bool = True) -> None:
    """Print one piece of advisor's output: user data in it (labels, file names, notes) cannot act on
    the terminal — control characters and bidi overrides are shown as escapes
    (:func:`advisor._format.terminal_safe`); advisor's own line breaks are kept.

    Written to ``sys.stdout``/``sys.stderr`` in the stream's own encoding, like Rich tables and JSON
    (``typer.echo`` would write UTF-8 bytes to a stream declared ASCII, ``PYTHONIOENCODING=ascii``;
    :func:`tolerant_output` spells out what the encoding lacks)."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:  # pythonw: no console
        return
    stream.write(terminal_safe(text, keep_newlines=True) + ("\n" if nl else ""))
    stream.flush()


def cell(value: Any) -> str:
    """User data for a Rich table cell, title or markup line: terminal-safe, then markup-escaped."""
    from rich.markup import escape

    return escape(terminal_safe(value))


def label_cell(value: Any) -> str:
    """One class label or system name for a Rich table cell or title: shortened to
    :data:`advisor._format.LABEL_DISPLAY_LIMIT` characters (a 10,000-character label would push every
    number out of the table), control characters visible, markup-escaped."""
    return cell(display_label(value))


#: The option of each library argument an error message names (:func:`advisor._exceptions.arg`) where it is not
#: the argument's name with dashes (``true_col`` → ``--true-col``): the library's messages name the Python
#: arguments, the command line shows its own options.
OPTIONS = {
    "positive_label": "--positive",
    "n_resamples": "--bootstrap",
    "matrices": "--matrix",
    "fmt": "--format",
    "out_path": "-o",
    "sources": "the input files",
}


def option_of(name: str) -> str:
    """The command-line option of the library argument ``name``."""
    return OPTIONS.get(name, "--" + name.replace("_", "-"))


def error_message(exc: AdvisorError) -> str:
    """An advisor error's message as the command line says it: arguments named by their options."""
    return exc.message(option_of)


#: The ``--quiet`` option of the commands that run long jobs (see :mod:`advisor._progress`).
QUIET_HELP = "No estimate of a long run's time and no progress bar."
BY_HELP = ("A column of subgroups (sex, site, …): every metric per subgroup value with its interval, and the gaps "
           "across subgroups (TPR, FPR, selection rate, precision, equalized odds); repeatable.")
#: The resamples a long bootstrap's estimate is compared with ("--bootstrap 2000 takes about 1 s").
USUAL_RESAMPLES = 2000


def handle_errors(fn: F) -> F:
    """Turn expected failures into one clear sentence and exit status 2 — never a traceback.

    The command runs inside :func:`advisor._progress.reporting` (``quiet``/``as_json`` keyword arguments).

    Anything else is a bug: one sentence naming the exception and exit status 1, or the traceback
    when the environment variable ``ADVISOR_DEBUG`` is set (to anything but 0).
    """

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            # long jobs say their estimate and draw a bar (advisor._progress): --quiet turns both off, --json the bar
            with warnings.catch_warnings(), reporting(quiet=bool(kwargs.get("quiet")),
                                                      as_json=bool(kwargs.get("as_json") or kwargs.get("json_out"))):
                warnings.showwarning = _show_warning
                return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except AdvisorError as exc:
            raise fail(error_message(exc)) from None
        except FileNotFoundError as exc:
            raise fail(f"file not found: {exc.filename}") from None
        except IsADirectoryError as exc:
            raise fail(f"{exc.filename} is a directory, not a file") from None
        except PermissionError as exc:
            raise fail(f"permission denied: {exc.filename}") from None
        except UnicodeDecodeError:
            raise fail("an input file is not valid UTF-8 text (is it a binary file?)") from None
        except OSError as exc:
            raise fail(f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")) from None
        except KeyboardInterrupt as exc:  # SIGINT; SIGTERM/SIGHUP while writing exit 128 + signal number
            raise fail(str(exc) or "interrupted", getattr(exc, "exit_code", 130)) from None
        except typer.TyperException:  # click's own usage errors (BadParameter…): click reports them
            raise
        except Exception as exc:  # a bug, not bad input: one sentence, unless asked for the traceback
            if os.environ.get("ADVISOR_DEBUG", "").strip() not in ("", "0"):
                raise
            what = " ".join(str(exc).split())
            what = f"{type(exc).__name__}: {what}" if what else type(exc).__name__
            raise fail(f"internal error ({what}); please report it — set ADVISOR_DEBUG=1 to see the traceback", 1) \
                from None

    return wrapper  # type: ignore[return-value]


def _show_warning(message: Any, category: type[Warning], filename: str, lineno: int, file: Any = None,
                  line: str | None = None) -> None:
    """A library warning (matplotlib naming a missing glyph of a label, …) as one terminal-safe line."""
    echo(f"warning: {message}", err=True)


def to_json(obj: Any) -> str:
    """Strict JSON text (no NaN/Infinity literals): :func:`advisor._jsonio.dumps`."""
    return dumps(obj)


def echo_json(obj: Any) -> None:
    """Print strict JSON; characters a terminal would act on (C1 controls, bidi overrides — JSON
    itself escapes C0) are written as ``\\uXXXX`` escapes, which decode to the same strings."""
    def code(m: Any) -> str:  # JSON's own layout (newlines, indentation) stays as it is
        ch = m.group()
        return ch if ch in "\n\t\r" else f"\\u{ord(ch):04x}"

    text = _TERMINAL_UNSAFE.sub(code, to_json(obj))
    sys.stdout.write(text + "\n")


def terminal_columns() -> int | None:
    """The width of the terminal standard output is shown on (``COLUMNS`` when set); None when the
    output goes to a file or a pipe, so piped text keeps its usual layout."""
    if not os.environ.get("COLUMNS", "").strip().isdigit() and not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def parse_id_list(value: str | None) -> list[str] | None:
    """``"a,b , c"`` → ``["a", "b", "c"]``; empty or None → None."""
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def print_markdown(text: str) -> None:
    """Render Markdown for the terminal (Rich): headings, lists, emphasis, code blocks. User data in
    ``text`` must already be terminal-safe; every control character is made visible here too."""
    from rich.console import Console
    from rich.markdown import Markdown

    Console(highlight=False).print(Markdown(terminal_safe(text, keep_newlines=True), code_theme="ansi_dark"))
