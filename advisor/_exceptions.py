"""The exceptions advisor raises.

Every error the library raises on purpose derives from :class:`AdvisorError`. Its message is one
sentence a user can act on: it names the argument or file, the value received and what is allowed.
The command-line interface prints that sentence and exits with status 2 instead of a traceback.
"""

from __future__ import annotations

__all__ = [
    "AdvisorError",
    "InputError",
    "UnknownMetricError",
    "UnsafeOutputError",
]


class AdvisorError(Exception):
    """Base class of every error advisor raises on purpose."""


class InputError(AdvisorError, ValueError):
    """A file, array or argument supplied by the user is unusable as given."""


class UnknownMetricError(AdvisorError, KeyError):
    """A metric id or name is not in the catalogue."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnsafeOutputError(AdvisorError):
    """Writing the requested output would overwrite an input or escape the output directory."""
