"""How systems read from files are named: one rule for every command and the Python API."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ._duck import COMPRESSIONS

__all__ = ["system_names"]


def _system_names(paths: Sequence[Path]) -> list[str]:
    """File stems; where different files share a stem, enough parent folders to tell them apart.

    The same file given twice gets ``#2``, ``#3``….
    """
    resolved = [p.resolve() for p in paths]

    def stem(p: Path) -> str:  # m.csv.gz → m
        return Path(p.stem).stem if p.suffix.lower() in COMPRESSIONS else p.stem

    def leaf(p: Path) -> str:  # the extension only where a sibling shares the stem (a.csv, a.parquet)
        return p.name if any(q.parent == p.parent and stem(q) == stem(p) and q != p for q in resolved) else stem(p)

    def name(p: Path, depth: int) -> str:
        return "/".join([*p.parent.parts[len(p.parent.parts) - depth + 1:], leaf(p)]) if depth > 1 else leaf(p)

    names = []
    for p in resolved:
        depth = 1
        while depth < len(p.parts) and any(q != p and name(q, depth) == name(p, depth) for q in resolved):
            depth += 1
        names.append(name(p, depth))
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


system_names = _system_names
