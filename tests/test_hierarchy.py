"""Issue 23, item 4: hierarchical precision, recall and F1 (Kiritchenko et al. 2006) from the confusion matrix the
one reader counts, per-level accuracy and error distances in the tree; oracles: a direct per-item computation over
ancestor sets, and HiClass when it is installed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from advisor._exceptions import InputError
from advisor.engine import hierarchy_cells, hierarchy_metrics, hierarchy_tables, taxonomy_from_edges
from advisor.io import read_taxonomy

# a 2 / 5 / 9 tree with an implicit root; "books" is a top category with no children
EDGES = [("shoes", "clothing"), ("shirts", "clothing"), ("sneakers", "shoes"), ("boots", "shoes"),
         ("tv", "electronics"), ("audio", "electronics"), ("headphones", "audio"), ("speakers", "audio"),
         ("books", "")]
PARENT = {c: (p or None) for c, p in EDGES} | {"clothing": None, "electronics": None}


def _anc(x: str) -> list[str]:
    out = []
    while x is not None:
        out.append(x)
        x = PARENT[x]
    return out[::-1]


def _direct(t: list[str], p: list[str]) -> dict[str, object]:
    """Item by item over ancestor sets: the definition, no confusion matrix."""
    inter = sum(len(set(_anc(a)) & set(_anc(b))) for a, b in zip(t, p))
    hp, hr = inter / sum(len(_anc(b)) for b in p), inter / sum(len(_anc(a)) for a in t)
    levels = {}
    for d in range(3):
        deep = [(a, b) for a, b in zip(t, p) if len(_anc(a)) > d]
        if deep:
            levels[d + 1] = sum(len(_anc(b)) > d and _anc(b)[d] == _anc(a)[d] for a, b in deep) / len(deep)
    dist = Counter(len(_anc(a)) + len(_anc(b)) - 2 * len(set(_anc(a)) & set(_anc(b))) for a, b in zip(t, p))
    return {"hierarchical_precision": hp, "hierarchical_recall": hr, "hierarchical_f1": 2 * hp * hr / (hp + hr),
            "levels": levels, "distances": dict(dist)}


def _items(seed: int, n: int = 200) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(seed)
    nodes = sorted(PARENT)
    t = list(rng.choice(nodes, n))
    p = [a if rng.random() < 0.4 else (PARENT[a] or a) if rng.random() < 0.3 else str(rng.choice(nodes)) for a in t]
    return t, p


def _cells(t: list[str], p: list[str]):  # type: ignore[no-untyped-def]
    labels = sorted(set(t) | set(p))
    m = np.zeros((len(labels), len(labels)))
    for a, b in zip(t, p):
        m[labels.index(a), labels.index(b)] += 1
    return hierarchy_cells(m, labels, taxonomy_from_edges(EDGES))


@pytest.mark.parametrize("seed", range(6))
def test_metrics_from_the_matrix_equal_the_per_item_definition(seed: int) -> None:
    t, p = _items(seed)
    cells = _cells(t, p)
    want = _direct(t, p)
    got = hierarchy_metrics(cells)
    for m in ("hierarchical_precision", "hierarchical_recall", "hierarchical_f1"):
        assert got[m] == pytest.approx(want[m], abs=1e-12)
    tables = hierarchy_tables(cells)
    assert {r["depth"]: r["accuracy"] for r in tables["levels"]} == pytest.approx(want["levels"])
    assert {r["distance"]: r["items"] for r in tables["distances"]} == want["distances"]


def test_hiclass_agrees_when_installed() -> None:
    hm = pytest.importorskip("hiclass.metrics")
    t, p = _items(11)

    def paths(xs: list[str]) -> np.ndarray:
        return np.array([_anc(x) + [""] * (3 - len(_anc(x))) for x in xs])

    got = hierarchy_metrics(_cells(t, p))
    assert got["hierarchical_precision"] == pytest.approx(hm.precision(paths(t), paths(p)))
    assert got["hierarchical_recall"] == pytest.approx(hm.recall(paths(t), paths(p)))
    assert got["hierarchical_f1"] == pytest.approx(hm.f1(paths(t), paths(p)))


def test_an_explicit_root_is_excluded_like_an_implicit_one() -> None:
    rooted = taxonomy_from_edges([*[(c, p or "all") for c, p in EDGES], ("clothing", "all"), ("electronics", "all")])
    t, p = _items(3)
    labels = sorted(set(t) | set(p))
    m = np.zeros((len(labels), len(labels)))
    for a, b in zip(t, p):
        m[labels.index(a), labels.index(b)] += 1
    assert hierarchy_metrics(hierarchy_cells(m, labels, rooted)) == hierarchy_metrics(_cells(t, p))
    with pytest.raises(InputError, match="is the root"):
        hierarchy_cells([[1, 0], [0, 1]], ["all", "tv"], rooted)


@pytest.mark.parametrize(("edges", "words"), [
    ([("a", "b"), ("b", "c"), ("c", "a")], "has a cycle"),
    ([("a", "a")], "its own parent"),
    ([("a", "b"), ("a", "c")], "has two parents"),
])
def test_a_taxonomy_that_is_not_a_tree_is_refused_in_one_sentence(edges: list, words: str) -> None:
    with pytest.raises(InputError, match=words) as e:
        taxonomy_from_edges(edges)
    assert str(e.value).count(". ") == 0 and str(e.value).endswith(".")


def test_a_label_outside_the_taxonomy_is_refused() -> None:
    with pytest.raises(InputError, match="'sofa' is not in the taxonomy"):
        hierarchy_cells([[1, 1], [0, 1]], ["sofa", "tv"], taxonomy_from_edges(EDGES))


def test_taxonomy_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "tax.csv"
    f.write_text("child,parent\n" + "\n".join(f"{c},{p}" for c, p in EDGES) + "\n", encoding="utf-8")
    assert read_taxonomy(f).ancestors("sneakers") == ("clothing", "shoes", "sneakers")
    with pytest.raises(InputError, match="does not exist"):
        read_taxonomy(tmp_path / "missing.csv")
    f.write_text("a,b,c\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a child,parent pair"):
        read_taxonomy(f)
