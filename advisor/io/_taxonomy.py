"""``--taxonomy FILE``: a tree of classes as a CSV of ``child,parent`` rows (issue 23, item 4).

A header row ``child,parent`` is optional; an empty parent makes the child a top category. The root may be
implicit (several classes without a parent) or one named node (the only class without a parent). A missing file,
a row without two fields, a child with two parents or a cycle is refused in one sentence.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import Taxonomy, hierarchy_cells, taxonomy_from_edges
from ._structures import StructuredInputs

__all__ = ["hierarchy_inputs", "read_taxonomy", "taxonomy_summary"]


def read_taxonomy(path: Any) -> Taxonomy:
    """The taxonomy of a ``child,parent`` CSV file."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"path must be the path of a taxonomy file (a CSV of child,parent rows); got "
                         f"{type(path).__name__}.")
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


def hierarchy_inputs(ds: Any, taxonomy: Taxonomy, source: str) -> StructuredInputs:
    """The hierarchy inputs of a :class:`~advisor.io.Dataset` read by :func:`advisor.load`: per system the cells of
    its confusion matrix over the taxonomy's classes. Prediction files (or a query) give the joint table, so every
    system indexes the same classes and the items are kept for a paired resampling; matrices and count tables give
    each system's cells alone."""
    name = f"taxonomy file {source!r}"
    joint = ds.joint
    if joint is not None and len(joint.systems) >= 1:
        labels = tuple(str(x) for x in joint.labels)
        reps = np.asarray(joint.counts, dtype=np.int64)
        codes = np.asarray(joint.codes, dtype=np.int64)
        k = len(labels)
        systems, items = {}, {}
        for j, s in enumerate(joint.systems):
            m = np.zeros((k, k))
            np.add.at(m, (codes[:, 0], codes[:, 1 + j]), reps)
            systems[s] = hierarchy_cells(m, labels, taxonomy, name)
            items[s] = (np.repeat(codes[:, 0], reps), np.repeat(codes[:, 1 + j], reps))
        return StructuredInputs("hierarchy", systems, labels, items=items, taxonomy=taxonomy_summary(taxonomy, source))
    systems = {s: hierarchy_cells(cm.counts, [str(x) for x in cm.labels], taxonomy, name) for s, cm in ds.systems.items()}
    first = next(iter(systems.values()))
    return StructuredInputs("hierarchy", systems, first.labels, taxonomy=taxonomy_summary(taxonomy, source))


def taxonomy_summary(taxonomy: Taxonomy, source: str) -> dict[str, Any]:
    """``{"file", "root", "depth", "classes_per_level"}`` of a taxonomy (what a report says of the tree)."""
    per: dict[int, int] = {}
    for node in taxonomy.parent:
        d = len(taxonomy.ancestors(node))
        per[d] = per.get(d, 0) + 1
    return {"file": source, "root": taxonomy.root, "depth": taxonomy.depth,
            "classes_per_level": [per[d] for d in sorted(per)]}
