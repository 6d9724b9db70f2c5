"""Long work is said before it runs and shown while it runs (issue 25 item 12).

Lives with the commands: the library never prints. A run that passed every check could still be silent for 23 minutes (``compare --bootstrap 1000000``). One
mechanism now covers every long job — bootstrap and paired resampling, the report's, the audit's search,
the statement that reads large inputs:

1. **Estimate first.** A job is timed from its first update (the first chunk of resamples, the first claims
   of the audit, the first progress of a read) over the next ~0.25 s; the time it still takes is extrapolated
   from that rate. The work before the first update (reading, point estimates) is left out of the rate: a
   200-resample report on 100,000 classes once said "40 minutes" and took 44 s.
2. **Say it.** When the estimate passes :data:`SAY_AFTER` seconds, one sentence goes to standard error
   before the rest of the work: ``paired bootstrap: this will take about 44 s (1,000,000
   resamples); --bootstrap 2000 takes under 1 s.`` — with the option and the usual value that make it
   quick, where there is one.
3. **Show it.** A Rich progress bar on standard error, only when it is a terminal, never with ``--json``.

``--quiet`` turns off both. Every command runs inside :func:`reporting` (``advisor.cli._common.handle_errors``);
its jobs (:func:`job`) pass to the library as the ``progress(done, total)`` callbacks it already takes, and
the reader's staging statement is shown through :func:`advisor.io.watch_reads` (:func:`watch`). Outside a
command nothing is timed or shown.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .._format import terminal_safe
from ..io import watch_reads

__all__ = ["SAY_AFTER", "Reporting", "duration", "job", "reporting", "watch"]

#: A job estimated to take longer than this many seconds is said before it runs on.
SAY_AFTER = 10.0
#: Seconds of work (or the first update after them) the estimate is made from.
_SAMPLE = 0.25
#: A first update holding at least this share of the job is long enough to estimate from (see _Job).
_LARGE_PART = 0.25
_clock = time.perf_counter  # the clock jobs are timed by (tests give their own)


def duration(seconds: float) -> str:
    """A duration as a reader says it.

    >>> duration(0.4), duration(42), duration(250), duration(5400), duration(40000)
    ('under 1 s', '42 s', '4 minutes', '90 minutes', '11 hours')
    """
    if seconds < 1:
        return "under 1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 100 * 60:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:.0f} hours"


def _about(seconds: float) -> str:
    """``about 4 minutes``, or ``under 1 s``."""
    text = duration(seconds)
    return text if text.startswith("under") else f"about {text}"


@dataclass
class Reporting:
    """What one command shows of its long jobs."""

    say: Callable[[str], None] | None  # the sentence (None: --quiet)
    bar: bool  # a progress bar (a terminal, not --json, not --quiet)
    said: list[str] = field(default_factory=list)


_CURRENT: contextvars.ContextVar[Reporting | None] = contextvars.ContextVar("advisor_reporting", default=None)


def _stderr(text: str) -> None:
    sys.stderr.write(terminal_safe(text) + "\n")
    sys.stderr.flush()


@contextmanager
def reporting(*, quiet: bool = False, as_json: bool = False, say: Callable[[str], None] | None = None
              ) -> Iterator[Reporting]:
    """Around one command: its long jobs say their estimate (unless ``quiet``) and draw a bar (on a terminal,
    not with ``as_json``, not ``quiet``)."""
    rep = Reporting(say=None if quiet else (say or _stderr),
                    bar=not quiet and not as_json and sys.stderr.isatty())
    token = _CURRENT.set(rep)
    try:
        with watch_reads(watch):  # the reader's long statements are shown by watch() (advisor.io._watch)
            yield rep
    finally:
        _CURRENT.reset(token)


class _Job:
    """One long job: the ``progress(done, total)`` callback the library calls."""

    def __init__(self, rep: Reporting, what: str, unit: str | None, option: str | None, value: int | None,
                 usual: int | None) -> None:
        self.rep, self.what, self.unit = rep, what, unit
        self.option, self.value, self.usual = option, value, usual
        self.start = _clock()
        self.said = False
        self._first: tuple[float, float] | None = None  # (time, done) of the first update
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: float, total: float) -> None:
        now = _clock()
        if not self.said and done > 0 and total > 0:
            if self._first is None:
                # the time since the job began holds the work before its first part too (reading, the point
                # estimates): an upper bound. Below the limit the job is short. Above it, when the first part is
                # a small share of the job, the rate is measured between updates (set-up time left out); when it
                # is a large share (few, long parts), waiting would mean silence: the upper bound is said.
                self._first = (now, done)
                upper = (now - self.start) * total / done
                if done >= total or (upper <= SAY_AFTER and now - self.start >= _SAMPLE):
                    self.said = True
                elif upper > SAY_AFTER and done >= _LARGE_PART * total:
                    self.said = True
                    self._say(upper - (now - self.start), upper, total)
            elif now - self._first[0] >= _SAMPLE or done >= total:
                self.said = True
                t1, d1 = self._first
                if d1 < done < total and now > t1:
                    per_unit = (now - t1) / (done - d1)
                    self._say(per_unit * (total - done), per_unit * total, total)
        if self.rep.bar and total > 0:
            self._draw(done, total)

    def _say(self, remaining: float, whole: float, total: float) -> None:
        if remaining > SAY_AFTER and self.rep.say is not None:
            sentence = self.sentence(remaining, whole, total)
            self.rep.said.append(sentence)
            self.rep.say(sentence)

    def sentence(self, remaining: float, whole: float, total: float) -> str:
        """``remaining``: seconds still to go; ``whole``: seconds the whole job takes at the measured rate."""
        count = f" ({int(total):,} {self.unit})" if self.unit else ""
        text = f"{self.what}: this will take {_about(remaining)}{count}"
        if self.option and self.value and self.usual and self.usual < self.value:
            text += f"; {self.option} {self.usual} takes {_about(whole * self.usual / self.value)}"
        return text + "."

    def _draw(self, done: float, total: float) -> None:
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                                 TimeRemainingColumn(), console=Console(stderr=True), transient=True)
            self._task = self._bar.add_task(self.what, total=total)
            self._bar.start()
        self._bar.update(self._task, completed=done, total=total)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


@contextmanager
def job(what: str, *, unit: str | None = None, option: str | None = None, value: int | None = None,
        usual: int | None = None) -> Iterator[Callable[[float, float], None] | None]:
    """A long job of the current command: yields the ``progress(done, total)`` callback to hand to the library
    (None outside :func:`reporting`, so nothing is timed or shown). ``option``/``value``/``usual``: the option
    that sets its size, its value now and the usual one (``--bootstrap``, 1,000,000, 2,000) — the sentence then
    says how long the usual size takes."""
    rep = _CURRENT.get()
    if rep is None or (rep.say is None and not rep.bar):
        yield None
        return
    work = _Job(rep, what, unit, option, value, usual)
    try:
        yield work
    finally:
        work.close()


@contextmanager
def watch(what: str, poll: Callable[[], float]) -> Iterator[None]:
    """A job whose progress is polled (``poll()``: percent done, negative while unknown) while the caller's one
    long call runs — a DuckDB statement reading large inputs. A no-op outside :func:`reporting`."""
    with job(what) as progress:
        if progress is None:
            yield
            return
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(0.2):
                try:
                    pct = float(poll())
                except Exception:  # noqa: BLE001 - the statement ended (or failed): nothing to show
                    return
                if pct > 0:
                    progress(min(pct, 100.0), 100.0)

        poller = threading.Thread(target=run, name="advisor-progress", daemon=True)
        poller.start()
        try:
            yield
        finally:
            stop.set()
            poller.join(timeout=1.0)
