"""Parquet read through one open file descriptor: DuckDB's own reader opens a Parquet file three times.

DuckDB 2.0.1 opens a Parquet file once to bind (schema and footer), then once per reader it starts —
three ``openat`` calls for one ``SELECT``, whatever the settings (``threads``, ``parquet_metadata_cache``,
``cache_local_files``, ``enable_external_file_cache``, prefetching: all tried). So advisor opens the file
itself, once, and registers a small fsspec file system with the connection whose files are reads
(``os.pread``) of that descriptor: every "open" DuckDB makes is a new view of the same descriptor,
not a new open of the file. Without fsspec installed, DuckDB reads the path itself (three opens).
"""

from __future__ import annotations

import datetime
import io
import os
from pathlib import Path
from typing import Any

__all__ = ["PROTOCOL", "fd_filesystem"]

PROTOCOL = "advisorfd"


class _FdFile(io.RawIOBase):
    """A seekable, read-only view of an open descriptor (``pread``: no shared position between views)."""

    def __init__(self, fd: int, size: int) -> None:
        super().__init__()
        self.fd, self.size, self.pos = fd, size, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = offset if whence == 0 else self.pos + offset if whence == 1 else self.size + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, buffer: Any) -> int:
        data = os.pread(self.fd, len(buffer), self.pos)
        buffer[:len(data)] = data
        self.pos += len(data)
        return len(data)

    def read(self, n: int | None = -1) -> bytes:
        if n is None or n < 0:
            n = self.size - self.pos
        data = os.pread(self.fd, n, self.pos)
        self.pos += len(data)
        return data


def fd_filesystem() -> Any:
    """A new fsspec file system serving registered descriptors, or None without fsspec."""
    try:
        from fsspec import AbstractFileSystem
    except ImportError:  # pragma: no cover - fsspec is a dependency; without it DuckDB opens the path
        return None

    class FdFileSystem(AbstractFileSystem):
        protocol = PROTOCOL
        root_marker = ""

        def __init__(self) -> None:
            super().__init__(skip_instance_cache=True)
            self.files: dict[str, tuple[int, int]] = {}

        def add(self, path: Path) -> str:
            """Open ``path`` (the one open) and return the name DuckDB reads it by."""
            fd = os.open(path, os.O_RDONLY)
            key = f"in{len(self.files)}{''.join(path.suffixes[-2:]).lower() or '.parquet'}"
            self.files[key] = (fd, os.fstat(fd).st_size)
            return f"{PROTOCOL}://{key}"

        def _key(self, path: str) -> str:
            return str(path).split("://", 1)[-1]

        def _open(self, path: str, mode: str = "rb", **_: Any) -> Any:
            fd, size = self.files[self._key(path)]
            return _FdFile(fd, size)

        def info(self, path: str, **_: Any) -> dict[str, Any]:
            size = self.files[self._key(path)][1]
            return {"name": path, "size": size, "type": "file"}

        def ls(self, path: str, detail: bool = True, **_: Any) -> list[Any]:
            entry = self.info(path)
            return [entry] if detail else [entry["name"]]

        def modified(self, path: str) -> Any:
            return datetime.datetime.fromtimestamp(0, datetime.timezone.utc)

        def close_all(self) -> None:
            for fd, _ in self.files.values():
                os.close(fd)
            self.files.clear()

    return FdFileSystem()
