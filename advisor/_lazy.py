"""Lazy re-exports for package ``__init__`` modules (PEP 562), written once.

A package lists ``public name -> private module`` and gets a module ``__getattr__`` that imports the
module on first use and caches the attribute, so ``import advisor`` stays cheap.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["HEAVY", "lazy_exports"]


def lazy_exports(package: str, table: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` resolving the names of ``table`` on demand."""

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)  # cached: later lookups skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__


#: Third-party libraries imported where they are needed, never at a module's top: each costs a noticeable
#: part of a second to import (or pulls a system library), and ``advisor --help`` must not pay for them.
#: Everything else — advisor's own modules included — is imported at the top of the module that uses it.
HEAVY: frozenset[str] = frozenset({
    "numpy", "pandas", "polars", "pyarrow", "duckdb", "matplotlib", "weasyprint", "ziamath", "pyspark",
    "scipy", "sklearn", "fsspec", "jinja2", "rich", "yaml", "readline", "pexpect",
})
