"""Writing report files safely: checked first, atomically, and never over the user's files.

Before anything is written every destination is checked (:func:`check_outputs`): none may be an
input file, a directory, or lie below something that is a file rather than a folder; and without
``force`` none may exist already. With ``force`` the existing files among the destinations are
replaced; no other file is ever touched (a figure folder may hold the user's own files).

Then (:func:`write_outputs`) the missing folders are created, every file is written to a temporary
file beside its destination and flushed to disk, and only then are the files moved into place —
without ``force`` by a hard link that fails if the name was taken meanwhile. If anything fails,
the temporary files, the files already placed and the folders created are removed again, so a
failed run leaves nothing new behind, and the error names the output path, not a temporary file.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from .._exceptions import UnsafeOutputError

__all__ = ["atomic_write", "check_outputs", "write_outputs"]

_EXISTS = "{} already exists; pass --force to overwrite it, or choose another output name."

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


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def check_outputs(
    outputs: Iterable[str | os.PathLike[str]],
    inputs: Iterable[str | os.PathLike[str]],
    *,
    force: bool = False,
) -> None:
    """Raise :class:`UnsafeOutputError` unless every output can be written without harm.

    An output may not be one of ``inputs``, a directory, the same file as another output, or lie
    below a file; without ``force`` it may not exist.
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
        if any(_same_file(out, s) for s in seen):
            raise UnsafeOutputError(f"two report outputs would be written to the same file {out}.")
        seen.append(out)
    for out in seen:
        block = _blocking_file(out)
        if block is not None:
            raise UnsafeOutputError(f"cannot write {out}: {block} is a file, not a folder; "
                                    "move it away or choose another output path.")
    if not force:
        for out in seen:
            if _exists(out):
                raise UnsafeOutputError(_EXISTS.format(out))


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
    """Write ``data`` to a flushed temporary file beside ``path``; return its name."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _mode_for(path))
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: str | Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _place(tmp: str, path: Path, force: bool) -> None:
    """Move ``tmp`` to ``path``: replacing it with ``force``, else only if the name is still free."""
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # fails if path exists: no race with a file created meanwhile
    except FileExistsError:
        raise UnsafeOutputError(_EXISTS.format(path)) from None
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        if _exists(path):
            raise UnsafeOutputError(_EXISTS.format(path)) from None
        os.replace(tmp, path)
        return
    _unlink(tmp)


def atomic_write(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same directory and :func:`os.replace`.

    The temporary file is removed if anything fails, so no partial file is ever left behind, and an
    :class:`OSError` names ``path``. Existing permissions of ``path`` are kept; new files get the
    usual umask-derived mode. This replaces an existing file: callers check first.
    """
    path = Path(path)
    tmp = None
    try:
        tmp = _stage(path, data)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            _unlink(tmp)
        raise _naming(exc, path) from None
    except BaseException:
        if tmp is not None:
            _unlink(tmp)
        raise


def _make_folders(paths: Iterable[Path]) -> list[Path]:
    """Create the missing parent folders of ``paths``; return those created, outermost first."""
    created: list[Path] = []
    try:
        for p in paths:
            missing = [d for d in reversed(p.parents) if not _exists(d)]
            for d in missing:
                d.mkdir()
                created.append(d)
    except BaseException:
        _remove_folders(created)  # mkdir's error names the folder it could not create
        raise
    return created


def _remove_folders(created: list[Path]) -> None:
    for d in reversed(created):
        try:
            d.rmdir()
        except OSError:
            pass


def write_outputs(
    files: Mapping[str | os.PathLike[str], bytes | str],
    inputs: Iterable[str | os.PathLike[str]] = (),
    *,
    force: bool = False,
) -> list[Path]:
    """Check every destination (:func:`check_outputs`), then write all files or none.

    Missing parent folders are created (figure folders beside a Markdown or LaTeX report); on
    failure they are removed again with every file placed so far. Returns the paths written.
    """
    paths = [Path(p) for p in files]
    check_outputs(paths, list(inputs), force=force)
    created = _make_folders(paths)
    staged: list[tuple[str, Path]] = []
    placed: list[Path] = []
    current = paths[0] if paths else Path(".")
    try:
        for p, data in zip(paths, files.values()):
            current = p
            staged.append((_stage(p, data), p))
        for tmp, p in staged:
            current = p
            existed = _exists(p)
            _place(tmp, p, force)
            if not existed:
                placed.append(p)
    except BaseException as exc:
        for tmp, _ in staged:
            _unlink(tmp)
        for p in placed:  # new files only: with force a replaced file cannot be restored
            _unlink(p)
        _remove_folders(created)
        if isinstance(exc, OSError):
            raise _naming(exc, current) from None
        raise
    return paths
