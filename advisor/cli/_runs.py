"""``NAME=FILE`` arguments: a system's name, and several runs of one system (issue 20 item 4).

``advisor compare A=a_seed1.csv A=a_seed2.csv B=b_seed1.csv B=b_seed2.csv`` (or ``advisor report``) gives system A two runs and
B two: ``compare`` reports each system's mean over its runs, with intervals over runs and items
(:mod:`advisor.stats._runs`). A plain ``FILE`` is a system named after the file. An argument that exists
as a file is a file, whatever characters its name holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .. import io as io_api
from .. import report as report_api
from .._exceptions import InputError

__all__ = ["RunArgs", "parse_runs", "refuse_runs", "report_runs"]


class RunArgs:
    """The files, the column name of each (``A (run 2)`` for a run), and each column's system."""

    def __init__(self, paths: list[Path], columns: list[str] | None, systems: list[str] | None) -> None:
        self.paths, self.columns, self.systems = paths, columns, systems

    @property
    def several(self) -> bool:
        return self.systems is not None and len(set(self.systems)) < len(self.systems)


def parse_runs(files: Sequence[Path]) -> RunArgs:
    """Split ``NAME=FILE`` arguments; names repeated are runs of one system.

    >>> import tempfile, pathlib; d = pathlib.Path(tempfile.mkdtemp())
    >>> for f in ("a1.csv", "a2.csv", "b.csv"): _ = (d / f).write_text("y_true,y_pred\\n")
    >>> r = parse_runs([pathlib.Path(f"A={d}/a1.csv"), pathlib.Path(f"A={d}/a2.csv"), d / "b.csv"])
    >>> r.columns, r.systems, r.several
    (['A (run 1)', 'A (run 2)', 'b'], ['A', 'A', 'b'], True)
    """
    paths: list[Path] = []
    named: list[str | None] = []
    for f in files:
        text = str(f)
        if Path(text).exists() or "=" not in text:
            paths.append(Path(text))
            named.append(None)
            continue
        name, _, file = text.partition("=")
        if not name.strip() or not file.strip():
            raise InputError(f"{text!r}: give a system as FILE or NAME=FILE (e.g. A=a_seed1.csv).")
        if not Path(file).exists():
            raise InputError(f"{text}: the file {file!r} does not exist (NAME=FILE names a system's prediction file).")
        paths.append(Path(file))
        named.append(name.strip())
    if all(n is None for n in named):
        return RunArgs(paths, None, None)
    stems = io_api.system_names(paths)
    systems = [n if n is not None else s for n, s in zip(named, stems)]
    count = {s: systems.count(s) for s in systems}
    seen: dict[str, int] = {}
    columns = []
    for s in systems:
        seen[s] = seen.get(s, 0) + 1
        columns.append(s if count[s] == 1 else f"{s} (run {seen[s]})")
    return RunArgs(paths, columns, systems)


def refuse_runs(args: RunArgs, command: str) -> None:
    """compute takes one file per system: several runs are said in one sentence (report averages them: :func:`report_runs`)."""
    if args.several:
        name = next(s for s in args.systems or [] if (args.systems or []).count(s) > 1)
        raise InputError(f"{name} is given {(args.systems or []).count(name)} files (runs); advisor compare combines "
                         f"runs (their mean, with intervals over runs and items), while {command} takes one file per "
                         "system — give each run its own name, or use compare.")


def report_runs(args: RunArgs, answered: int | None, inputs: str | None) -> list[str] | None:
    """The system of each prediction file when some system has several runs (``advisor report A=a1.csv A=a2.csv …``),
    for the report of label predictions (``inputs`` None), which averages them (:mod:`advisor.report._runs`); for any
    other report (``inputs`` says what they are: partitions, a tree, ordered classes …) several runs are refused in
    one sentence naming what is supported, and a number of runs other than the answers' ``runs`` is said."""
    if inputs is not None:
        if args.several:
            name = next(s for s in args.systems or [] if (args.systems or []).count(s) > 1)
            raise InputError(f"{name} is given {(args.systems or []).count(name)} files (runs); a report averages "
                             f"runs only for {report_api.RUNS_SUPPORTED}, not for {inputs} — give each run its own "
                             "name, or report them apart.")
        # one file per system from here: several runs answered are not planned for these inputs (the plan keeps the
        # answer as unused, with the reason: advisor.plan._usage.runs_unsupported), so there is no mismatch to say
        return None
    return list(args.systems) if args.several and args.systems is not None else None
