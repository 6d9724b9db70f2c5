"""Writing report files safely: atomically, and never over an input file.

Each file is written to a temporary file in the destination directory, flushed to disk and then
moved into place with :func:`os.replace`, so a reader (or a crash) never sees half a report. Before
anything is written every destination is checked against every input file: a report that would
overwrite its own data is refused with :class:`~advisor.UnsafeOutputError`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from .._exceptions import UnsafeOutputError

__all__ = ["atomic_write", "check_outputs", "write_outputs"]


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists() and os.path.samefile(a, b):
            return True
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_outputs(outputs: Iterable[str | os.PathLike[str]], inputs: Iterable[str | os.PathLike[str]]) -> None:
    """Raise :class:`UnsafeOutputError` if any output path is one of the inputs (or a directory)."""
    ins = [Path(p) for p in inputs]
    seen: list[Path] = []
    for out in (Path(p) for p in outputs):
        for inp in ins:
            if _same_file(out, inp):
                raise UnsafeOutputError(
                    f"refusing to write the report to {out}: it is an input file; choose another output path."
                )
        if out.is_dir():
            raise UnsafeOutputError(f"output path {out} is a directory; give a file name.")
        if any(_same_file(out, s) for s in seen):
            raise UnsafeOutputError(f"two report outputs would be written to the same file {out}.")
        seen.append(out)


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory and :func:`os.replace`.

    The temporary file is removed if anything fails, so no partial file is ever left behind.
    Existing permissions of ``path`` are kept; new files get the usual umask-derived mode.
    """
    path = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = path.stat().st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_outputs(
    files: Mapping[str | os.PathLike[str], bytes | str],
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> list[Path]:
    """Check every destination against ``inputs`` first, then write each file atomically.

    Parent directories are created as needed (figure folders beside a Markdown or LaTeX report).
    Returns the paths written.
    """
    paths = [Path(p) for p in files]
    check_outputs(paths, list(inputs))
    written = []
    for p, data in zip(paths, files.values()):
        p.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(p, data)
        written.append(p)
    return written
