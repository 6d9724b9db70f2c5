"""Writing report files safely: checked first, atomically, and never over the user's files.

Before anything is written every destination is checked (:func:`check_outputs`): none may be an
input file, a directory, anything but a regular file (a device such as ``/dev/full``, a FIFO, a
socket — ``--force`` or not), or lie below something that is a file rather than a folder, and no
folder on the way may be a symbolic link created by someone else (a ``<output>-figures`` link
planted beside the report would send figures elsewhere); without ``force`` none may exist already.
With ``force`` the existing files among the destinations are replaced; no other file is ever
touched (a figure folder may hold the user's own files).

Then (:func:`write_outputs`) the missing folders are created, every file is written to a temporary
file beside its destination and flushed to disk, and only then are the files moved into place —
without ``force`` by a hard link that fails if the name was taken meanwhile (an exclusive create:
of two concurrent runs one wins, the other is refused). If anything fails — an error, or SIGTERM /
SIGINT / SIGHUP while writing — the temporary files, the files already placed and the folders
created are removed again and files replaced under ``force`` get their previous content back, so a
failed run leaves nothing new behind, and the error names the output path, not a temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from .._exceptions import UnsafeOutputError, arg

__all__ = ["WriteInterrupted", "atomic_write", "check_outputs", "write_outputs"]

_EXISTS = "{} already exists; pass {} to overwrite it, or choose another output name."
#: The override of an existing output: ``force=True`` in Python, ``--force`` on the command line.
_FORCE = arg("force", True)

# os.link errors that mean "this file system has no hard links", not "you may not write here"
_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS}


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists() and os.path.samefile(a, b):
            return True
    except OSError:
        pass
    return a.resolve() == b.resolve()


def _blocking_file(path: Path) -> Path | None:
    """The nearest existing ancestor of ``path`` if it is not a folder (so ``path`` cannot be made)."""
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            return None if parent.is_dir() else parent
    return None


def _existing_folder(path: Path) -> Path:
    """The nearest existing folder above ``path`` (where its file, or its first missing folder, goes)."""
    for parent in path.parents:
        if parent.is_dir():
            return parent
    return Path(".")


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _not_regular(path: Path) -> str | None:
    """What ``path`` is if it exists and is not a regular file (a symlink counts by its target)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a dangling symbolic link" if path.is_symlink() else None
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket")]
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _linked_folder(path: Path, anchor: Path) -> Path | None:
    """The first folder between ``anchor`` (the report's own folder) and ``path`` that is a symlink."""
    try:
        rel = path.parent.relative_to(anchor)
    except ValueError:
        return None
    folder = anchor
    for part in rel.parts:
        folder = folder / part
        if folder.is_symlink():
            return folder
    return None


def check_outputs(
    outputs: Iterable[str | os.PathLike[str]],
    inputs: Iterable[str | os.PathLike[str]],
    *,
    force: bool = False,
    force_word: str = _FORCE,
) -> None:
    """Raise :class:`UnsafeOutputError` unless every output can be written without harm.

    An output may not be one of ``inputs``, a directory or anything else but a regular file, the
    same file as another output, lie below a file, or below a symbolic link inside the first
    output's folder (the figure folder); without ``force`` it may not exist. ``force_word`` is how the
    messages name the override (by default ``force=True`` in Python, ``--force`` on the command line).
    """
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
        kind = _not_regular(out)
        if kind is not None:
            raise UnsafeOutputError(f"output path {out} exists and is {kind}, not a regular file; advisor writes "
                                    f"only regular files ({force_word} or not): choose another output path.")
        if any(_same_file(out, s) for s in seen):
            raise UnsafeOutputError(f"two report outputs would be written to the same file {out}.")
        seen.append(out)
    anchor = seen[0].parent if seen else Path(".")
    for out in seen:
        link = _linked_folder(out, anchor)
        if link is not None:
            raise UnsafeOutputError(f"cannot write {out}: the folder {link} is a symbolic link, which advisor does not "
                                    "follow; remove it or choose another output name.")
        block = _blocking_file(out)
        if block is not None:
            raise UnsafeOutputError(f"cannot write {out}: {block} is a file, not a folder; "
                                    "move it away or choose another output path.")
        folder = _existing_folder(out)
        if not os.access(folder, os.W_OK | os.X_OK):  # say so before the work, not after it (EROFS too)
            raise UnsafeOutputError(f"cannot write {out}: the folder {folder} is not writable (read-only or "
                                    "not yours); choose another output path.")
    if not force:
        for out in seen:
            if _exists(out):
                raise UnsafeOutputError(_EXISTS.format(out, force_word))


def _naming(exc: OSError, path: Path) -> OSError:
    """The same error, naming ``path`` (the output) instead of a temporary file."""
    if isinstance(exc, FileExistsError) or (exc.filename is not None and str(exc.filename) == str(path)):
        return exc
    return OSError(exc.errno, exc.strerror or str(exc), str(path))


def _mode_for(path: Path) -> int:
    """Existing permissions of ``path``, or the usual umask-derived mode of a new file."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _stage(path: Path, data: bytes | str) -> str:
    """Write ``data`` to a flushed temporary file beside ``path``; return its name.

    The name is recorded in this thread's writing run (:func:`_run`) in the same critical section that
    creates the file, so no signal can leave a temporary file that the clean-up does not know about."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent if str(path.parent) else Path(".")
    with _critical():
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        _record("tmps", tmp)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(path))
    except BaseException:
        with _critical():
            _unlink(tmp)
        raise
    return tmp


_LOCAL = threading.local()


def _record(kind: str, item: Any) -> None:
    """Note a temporary file (``"tmps"``) or a created folder (``"folders"``) in this thread's run."""
    run = getattr(_LOCAL, "run", None)
    if run is not None:
        run[kind].append(item)


@contextlib.contextmanager
def _run() -> Iterator[dict[str, list[Any]]]:
    """One writing run of this thread: every temporary file and folder it creates is recorded here as it
    is created, for the clean-up (a name returned but not yet stored by the caller is not lost)."""
    outer = getattr(_LOCAL, "run", None)
    _LOCAL.run = {"tmps": [], "folders": []}
    try:
        yield _LOCAL.run
    finally:
        _LOCAL.run = outer


def _unlink(path: str | Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _place(tmp: str, path: Path, force: bool) -> None:
    """Move ``tmp`` to ``path``: replacing it with ``force``, else only if the name is still free.
    Called in a critical section, with the caller recording the result in the same one."""
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # fails if path exists: no race with a file created meanwhile
    except FileExistsError:
        raise UnsafeOutputError(_EXISTS.format(path, _FORCE)) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        try:  # no hard links here: reserve the name by an exclusive create, then move the file onto it
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        except FileExistsError:
            raise UnsafeOutputError(_EXISTS.format(path, _FORCE)) from None
        try:
            os.replace(tmp, path)
        except BaseException:
            _unlink(path)  # the empty file that reserved the name is ours
            raise
        return
    _unlink(tmp)


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory and :func:`os.replace`.

    The temporary file is removed if anything fails (SIGTERM, SIGHUP and SIGINT included), so no partial
    file is ever left behind, and an :class:`OSError` names ``path``; an existing ``path`` that is not a
    regular file (a device, a FIFO) is refused. Existing permissions of ``path`` are kept; new files get the
    usual umask-derived mode. This replaces an existing file: callers check first.
    """
    path = Path(path)
    kind = _not_regular(path)
    if kind is not None:
        raise UnsafeOutputError(f"{path} exists and is {kind}, not a regular file; advisor writes only regular files.")
    with _signals_raise(), _run() as run:
        try:
            tmp = _stage(path, data)
            with _critical(deliver=False):  # once moved, the file is complete: a late signal is not a failure
                os.replace(tmp, path)
                run["tmps"].clear()
        except BaseException as exc:
            with _critical():
                for t in run["tmps"]:
                    _unlink(t)
            if isinstance(exc, OSError):
                raise _naming(exc, path) from None
            raise


def _make_folders(paths: Iterable[Path]) -> list[Path]:
    """Create the missing parent folders of ``paths``; return those created, outermost first (each is also
    recorded in this thread's run as it is created)."""
    created: list[Path] = []
    try:
        for p in paths:
            missing = [d for d in reversed(p.parents) if not _exists(d)]
            for d in missing:
                with _critical():
                    d.mkdir()
                    created.append(d)
                    _record("folders", d)
    except BaseException:
        with _critical():
            _remove_folders(created)  # mkdir's error names the folder it could not create
        raise
    return created


def _remove_folders(created: list[Path]) -> None:
    for d in reversed(created):
        try:
            d.rmdir()
        except OSError:
            pass


class WriteInterrupted(KeyboardInterrupt):
    """A termination signal arrived while files were being written; they have been cleaned up."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name} while writing; "
                         "the files being written were removed and any replaced file restored")
        self.exit_code = 128 + signum


_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, n))


class _Guard:
    """Signal state of the main thread while writing: how deep in critical sections it is, and the
    signals that arrived there (delivered when the outermost section ends)."""

    depth = 0
    pending: list[int] = []


def _on_signal(signum: int, frame: object) -> None:
    """While writing: outside a critical section raise at once (the clean-up knows every file); inside
    one, remember the signal and raise when the section ends, so a file is never created, moved or
    removed without its record, and a second signal cannot cut the clean-up short."""
    if _Guard.depth > 0:
        _Guard.pending.append(signum)
        return
    raise WriteInterrupted(signum)


@contextlib.contextmanager
def _critical(deliver: bool = True) -> Iterator[None]:
    """A section no termination signal interrupts: a file operation and its record, or the clean-up.
    A signal that arrived meanwhile is raised at the end — unless an exception is already on its way (it
    then waits for the end of the next section, the clean-up) or ``deliver`` is false (the files are
    complete: :func:`_signals_raise` hands it to the previous handler when the writing is over)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _Guard.depth += 1
    failed = True
    try:
        yield
        failed = False
    finally:
        _Guard.depth -= 1
        if _Guard.depth == 0 and _Guard.pending and not failed and deliver:
            signum = _Guard.pending[0]
            _Guard.pending = []
            raise WriteInterrupted(signum)


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """While writing, SIGTERM, SIGHUP and SIGINT raise :class:`WriteInterrupted` (exit 128 + signal), at once
    or, in a critical section, at its end — so the clean-up below runs instead of the process dying
    mid-write, and it always knows every file it must remove. A signal left pending when the writing is
    over (the files are complete) is delivered again to the previous handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    outer = not _installed()
    try:
        for sig in _SIGNALS:
            previous[sig] = signal.signal(sig, _on_signal)
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if outer and _Guard.pending and _Guard.depth == 0:
            late, _Guard.pending = _Guard.pending, []
            for signum in dict.fromkeys(late):
                os.kill(os.getpid(), signum)  # the previous handler (or the default action) takes it


def _installed() -> bool:
    """Whether :func:`_signals_raise` is already in force (nested writing)."""
    return any(signal.getsignal(sig) is _on_signal for sig in _SIGNALS)


def _backup(path: Path) -> str | None:
    """A hard link to the existing ``path`` (to restore it if the run fails); None if not possible."""
    if not path.is_file() or path.is_symlink():
        return None
    name = tempfile.mktemp(prefix=f".{path.name}.", suffix=".bak.tmp", dir=path.parent)  # noqa: S306 - link fails if taken
    try:
        os.link(path, name)
    except OSError:
        return None
    return name


_Dest = TypeVar("_Dest", bound="str | os.PathLike[str]")


def write_outputs(
    files: Mapping[_Dest, bytes | str],
    inputs: Iterable[str | os.PathLike[str]] = (),
    *,
    force: bool = False,
) -> list[Path]:
    """Check every destination (:func:`check_outputs`), then write all files or none.

    Missing parent folders are created (figure folders beside a Markdown or LaTeX report); on
    failure — an exception, or SIGTERM/SIGHUP/SIGINT while writing — they are removed again with
    every file placed so far, and files replaced under ``force`` get their previous content back.
    Returns the paths written.
    """
    paths = [Path(p) for p in files]
    with _signals_raise(), _run() as run:
        check_outputs(paths, list(inputs), force=force)
        staged: list[tuple[str, Path]] = []
        placed: list[Path] = []
        backups: list[tuple[str, Path]] = []
        current = paths[0] if paths else Path(".")
        try:
            _make_folders(paths)
            for p, data in zip(paths, files.values()):
                current = p
                staged.append((_stage(p, data), p))
            for tmp, p in staged:
                current = p
                with _critical():  # each step together with its record
                    existed = _exists(p)
                    bak = _backup(p) if existed and force else None
                    if bak is not None:
                        backups.append((bak, p))
                with _critical():
                    _place(tmp, p, force)
                    if not existed:
                        placed.append(p)
        except BaseException as exc:
            with _critical():  # the clean-up runs to its end, whatever signal comes
                _undo(run["tmps"], placed, backups, run["folders"])
            if isinstance(exc, OSError):
                raise _naming(exc, current) from None
            raise
        with _critical(deliver=False):  # every file is in place: a late signal is not a failure
            for bak, _ in backups:
                _unlink(bak)
    return paths


def _undo(tmps: list[str], placed: list[Path], backups: list[tuple[str, Path]], created: list[Path]) -> None:
    """Remove what a failed run wrote and put back what it replaced."""
    for tmp in tmps:
        _unlink(tmp)
    for p in placed:
        _unlink(p)
    for bak, p in backups:  # files replaced under force: the previous content comes back
        with contextlib.suppress(OSError):
            if not os.path.samefile(bak, p):  # (rename between two links of one file is a no-op)
                os.replace(bak, p)
        _unlink(bak)
    _remove_folders(created)
