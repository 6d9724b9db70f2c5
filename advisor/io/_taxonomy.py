"""``--taxonomy FILE``: a tree of classes as a CSV of ``child,parent`` rows (issue 23, item 4).

A header row ``child,parent`` is optional; an empty parent makes the child a top category. The root may be
implicit (several classes without a parent) or one named node (the only class without a parent). A missing file,
a row without two fields, a child with two parents or a cycle is refused in one sentence.

The Python API takes the tree as ``taxonomy=``: that file's path, a mapping child → parent, or a list of
``(child, parent)`` pairs (:func:`as_taxonomy`); :func:`hierarchy_of` turns label arrays, a DataFrame, a
:class:`~advisor.io.Dataset` or confusion matrices into the hierarchy inputs every entry point evaluates.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .._exceptions import InputError
from ..engine import JointCounts, Taxonomy, hierarchy_cells, taxonomy_from_edges
from ._load import load
from ._structures import StructuredInputs

__all__ = ["as_taxonomy", "hierarchy_inputs", "hierarchy_of", "read_taxonomy", "taxonomy_summary"]


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


def hierarchy_inputs(ds: Any, taxonomy: Taxonomy, source: str, name: str | None = None) -> StructuredInputs:
    """The hierarchy inputs of a :class:`~advisor.io.Dataset` read by :func:`advisor.load`: per system the cells of
    its confusion matrix over the taxonomy's classes. Prediction files (or a query) give the joint table, so every
    system indexes the same classes and the items are kept for a paired resampling; matrices and count tables give
    each system's cells alone."""
    name = name or f"taxonomy file {source!r}"  # how a message names the tree
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


_ALLOWED = ("a CSV file of child,parent rows (its path), a mapping child → parent (None for a top category) or a list "
            "of (child, parent) pairs")


def as_taxonomy(value: Any, what: str = "taxonomy") -> tuple[Taxonomy, str | None]:
    """``(tree, its file or None)`` of the API's ``taxonomy=``: a path, a mapping child → parent, a list of
    ``(child, parent)`` pairs, or a :class:`~advisor.engine.Taxonomy`; anything else, a cycle or a child with two
    parents is refused in one sentence naming ``what``.

    >>> t, f = as_taxonomy({"shoes": "clothing", "shirts": "clothing", "tv": "electronics"})
    >>> t.ancestors("shoes"), f
    (('clothing', 'shoes'), None)
    >>> as_taxonomy([("a", "root"), ("b", "root")])[0].root
    'root'
    """
    if isinstance(value, Taxonomy):
        return value, None
    if isinstance(value, (str, os.PathLike)):
        return read_taxonomy(value), str(value)
    name = f"the {what} argument"
    if isinstance(value, Mapping):
        edges = [(str(c), None if p is None or str(p) == "" else str(p)) for c, p in value.items()]
    elif isinstance(value, (list, tuple)) and all(isinstance(e, (list, tuple)) and len(e) == 2 for e in value):
        edges = [(str(c), None if p is None or str(p) == "" else str(p)) for c, p in value]
    else:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise InputError(f"{what} must be {_ALLOWED}; got {shown} ({type(value).__name__}).")
    if not edges:
        raise InputError(f"{what} is empty; give {_ALLOWED}.")
    return taxonomy_from_edges(edges, name), None


def hierarchy_of(data: Any, taxonomy: Any, what: str = "taxonomy") -> StructuredInputs:
    """The hierarchy inputs of ``data`` over the tree ``taxonomy`` (see :func:`as_taxonomy`).

    ``data``: a :class:`~advisor.io.Dataset` (:func:`advisor.load`), a mapping ``{"y_true": …, system: …}`` of label
    arrays (paired systems), a DataFrame with ``y_true`` and one predicted-label column per system (``y_pred`` for
    one), or a mapping of system name → confusion matrix (with labels). Every class must be a node of the tree."""
    tree, file = as_taxonomy(taxonomy, what)
    source = file if file is not None else f"the {what} argument"
    ds: Any = data
    if isinstance(data, Mapping) and "y_true" in data:
        preds = {str(k): v for k, v in data.items() if k != "y_true"}
        if not preds:
            raise InputError("data has y_true but no system; add one entry of predicted labels per system.")
        joint = JointCounts.from_arrays(data["y_true"], preds)
        ds = _Paired(joint, joint.matrices())
    elif hasattr(data, "columns") and hasattr(data, "shape") and not isinstance(data, Mapping):
        ds = load(data, structure="nominal")
    elif isinstance(data, Mapping):
        ds = _Paired(None, dict(data))
    if not hasattr(ds, "systems"):
        raise InputError(f"data must be a Dataset (advisor.load), label arrays with y_true, a DataFrame or confusion "
                         f"matrices to score over a taxonomy; got {type(data).__name__}.")
    inputs = hierarchy_inputs(ds, tree, source, None if file is not None else source)
    if file is None and inputs.taxonomy is not None:
        inputs.taxonomy["file"] = None
    return inputs


class _Paired:
    """A joint table and its systems' matrices, as :func:`hierarchy_inputs` reads a Dataset."""

    def __init__(self, joint: Any, systems: dict[str, Any]) -> None:
        self.joint, self.systems = joint, systems
