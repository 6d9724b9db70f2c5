"""The hook through which a long read is shown: the command sets it, the staging statement uses it.

The reader never prints. A command that shows its long jobs (``advisor.cli._progress``) sets, for the time
it runs, a watcher with :func:`watch_reads`; the statement that reads the inputs (:mod:`advisor.io._stage`)
runs inside :func:`read_watch`, which hands the watcher DuckDB's progress of that statement — or does
nothing when no watcher is set (Python, tests, any caller but a command).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["read_watch", "watch_reads"]

#: ``watcher(what, poll)`` → a context manager shown while a read runs; ``poll()`` is its percent done.
Watcher = Callable[[str, Callable[[], float]], Any]
_WATCHER: contextvars.ContextVar[Watcher | None] = contextvars.ContextVar("advisor_read_watcher", default=None)


@contextlib.contextmanager
def watch_reads(watcher: Watcher | None) -> Iterator[None]:
    """Within this block, every read's staging statement is shown by ``watcher``."""
    token = _WATCHER.set(watcher)
    try:
        yield
    finally:
        _WATCHER.reset(token)


def read_watch(what: str, poll: Callable[[], float]) -> Any:
    """The context manager a read runs in: the watcher's, or one that does nothing."""
    watcher = _WATCHER.get()
    return contextlib.nullcontext() if watcher is None else watcher(what, poll)
