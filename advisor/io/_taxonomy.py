"""``--taxonomy FILE``: a tree of classes as a CSV of ``child,parent`` rows (issue 23, item 4).

A header row ``child,parent`` is optional; an empty parent makes the child a top category. The root may be
implicit (several classes without a parent) or one named node (the only class without a parent). A missing file,
a row without two fields, a child with two parents or a cycle is refused in one sentence.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from .._exceptions import InputError
from ..engine import Taxonomy, taxonomy_from_edges

__all__ = ["read_taxonomy"]


def read_taxonomy(path: Any) -> Taxonomy:
    """The taxonomy of a ``child,parent`` CSV file."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"taxonomy file {str(p)!r} does not exist; give a CSV of child,parent rows.")
    edges: list[tuple[str, str | None]] = []
    try:
        with p.open(newline="", encoding="utf-8-sig") as fh:
            for i, row in enumerate(csv.reader(fh), start=1):
                cells = [c.strip() for c in row]
                if not any(cells):
                    continue
                if i == 1 and [c.lower() for c in cells[:2]] == ["child", "parent"]:
                    continue
                if len(cells) != 2 or not cells[0]:
                    raise InputError(f"row {i} of taxonomy file {str(p)!r} is not a child,parent pair; each row names "
                                     "a class and its parent (empty for a top category).")
                edges.append((cells[0], cells[1] or None))
    except UnicodeDecodeError:
        raise InputError(f"taxonomy file {str(p)!r} is not UTF-8 text; give a CSV of child,parent rows.") from None
    return taxonomy_from_edges(edges, f"taxonomy file {str(p)!r}")
