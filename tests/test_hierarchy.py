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


def test_hierarchy_metrics_are_in_the_one_registry_and_the_catalogue() -> None:
    from advisor.catalogue import get_catalogue
    from advisor.engine._structures import STRUCTURE_METRICS

    cat = get_catalogue()
    for mid in ("hierarchical_f1", "hierarchical_precision", "hierarchical_recall"):
        assert STRUCTURE_METRICS[mid].structure == "hierarchy" == cat.metrics[mid].structure
        assert "kiritchenko2006learning" in cat.metrics[mid].references
        for pid in ("class_symmetry", "opitz_monotonicity"):
            assert cat.metrics[mid].properties[pid].status == "holds"
    f1 = cat.metrics["hierarchical_f1"].properties
    assert all(f1[p].status == "holds" for p in ("max_agreement", "symmetry", "monotonicity"))
    assert cat.metrics["hierarchical_precision"].properties["max_agreement"].status == "fails"
    assert cat.metrics["hierarchical_recall"].properties["monotonicity"].status == "fails"


def test_the_hierarchy_checks_are_not_vacuous() -> None:
    """The stored counterexamples of precision and recall show their failures; F1 passes the same cases."""
    from advisor.catalogue import get_catalogue
    from advisor.catalogue._check_structures import _recheck

    cat = get_catalogue()
    for mid, pid in (("hierarchical_precision", "max_agreement"), ("hierarchical_recall", "max_agreement"),
                     ("hierarchical_recall", "monotonicity"), ("hierarchical_precision", "monotonicity"),
                     ("hierarchical_precision", "symmetry")):
        ce = cat.metrics[mid].properties[pid].counterexample
        assert _recheck(cat.metrics[mid], pid, ce) is not None, (mid, pid)
        assert _recheck(cat.metrics["hierarchical_f1"], pid, ce) is None, (mid, pid)


def test_the_rule_leads_with_hierarchical_f1_and_flat_metrics_beside() -> None:
    from advisor.questionnaire import recommend

    rec = recommend({"task": "multiclass", "label_structure": "hierarchy"})
    assert rec.primary.metric == "hierarchical_f1"
    beside = [a.metric for a in rec.complementary]
    assert beside[:2] == ["hierarchical_precision", "hierarchical_recall"] and "accuracy" in beside
    flat = next(a for a in rec.complementary if a.metric == "accuracy")
    assert "wrong shelf in the right aisle" in flat.reason and "never instead" in flat.reason


def test_hierarchy_answers() -> None:
    from advisor.questionnaire._answers import Answers

    assert Answers.model_validate({"task": "multiclass", "label_structure": "hierarchy"}).label_structure == "hierarchy"
    with pytest.raises(Exception):
        Answers.model_validate({"task": "multiclass", "label_structure": "hierarchy", "top_k": 3})


def _files(tmp_path, t: list[str], p: list[str], tax: str | None = None):  # type: ignore[no-untyped-def]
    f = tmp_path / "pred.csv"
    f.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(t, p)), encoding="utf-8")
    x = tmp_path / "tax.csv"
    x.write_text(tax if tax is not None else "child,parent\n" + "".join(f"{c},{q}\n" for c, q in EDGES),
                 encoding="utf-8")
    return f, x


def test_compute_taxonomy_json_with_intervals(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    from advisor.cli import app

    t, p = _items(4, 120)
    f, x = _files(tmp_path, t, p)
    r = CliRunner().invoke(app, ["compute", str(f), "--taxonomy", str(x), "--bootstrap", "200", "--seed", "1",
                                 "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    want = _direct(t, p)
    m = data["metrics"]["pred"]
    assert m["hierarchical_f1"] == pytest.approx(want["hierarchical_f1"])
    assert m["accuracy"] == pytest.approx(np.mean(np.array(t) == np.array(p)))
    assert {r["depth"]: r["accuracy"] for r in data["levels"]["pred"]} == pytest.approx(want["levels"])
    assert {r["distance"]: r["items"] for r in data["distances"]["pred"]} == want["distances"]
    iv = data["intervals"]["pred"]["hierarchical_f1"]
    assert iv["low"] <= m["hierarchical_f1"] <= iv["high"] and iv["method"] in ("bca", "percentile", "basic")
    assert data["taxonomy"]["classes_per_level"] == [3, 4, 4]
    assert data["bootstrap"]["seed"] == 1


@pytest.mark.parametrize(("tax", "words"), [
    ("a,b\nb,a\nshoes,clothing\n", "has a cycle"),
    ("shoes,clothing\nshoes,electronics\n", "has two parents"),
    ("shoes,clothing\n", "are not in taxonomy file"),
    (None, "does not exist"),
])
def test_bad_taxonomy_one_sentence_exit_2(tmp_path, tax: str | None, words: str) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from advisor.cli import app

    f, x = _files(tmp_path, ["shoes", "tv"], ["shoes", "shirts"], tax or "")
    if tax is None:
        x = tmp_path / "missing.csv"
    r = CliRunner().invoke(app, ["compute", str(f), "--taxonomy", str(x)])
    assert r.exit_code == 2, r.output
    assert words in r.output and r.output.count("\n") == 1 and "Traceback" not in r.output


def test_compare_taxonomy_paired(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    from advisor.cli import app

    t, p = _items(6, 100)
    a, x = _files(tmp_path, t, p)
    b = tmp_path / "other.csv"
    b.write_text("y_true,y_pred\n" + "".join(f"{u},{u}\n" for u in t), encoding="utf-8")  # every item right
    r = CliRunner().invoke(app, ["compare", str(a), str(b), "--taxonomy", str(x), "--bootstrap", "200", "--seed", "2",
                                 "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["structure"] == "hierarchy" and data["winners"]["hierarchical_f1"] == ["other"]
    assert data["metrics"]["pred"]["hierarchical_f1"] == pytest.approx(_direct(t, p)["hierarchical_f1"])


def test_report_with_a_taxonomy(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from advisor.cli import app

    t, p = _items(8, 120)
    a, x = _files(tmp_path, t, p)
    b = tmp_path / "other.csv"
    b.write_text("y_true,y_pred\n" + "".join(f"{u},{u if i % 3 else p[i]}\n" for i, u in enumerate(t)),
                 encoding="utf-8")
    ans = tmp_path / "answers.yaml"
    ans.write_text("task: multiclass\nlabel_structure: hierarchy\n", encoding="utf-8")
    out = tmp_path / "r.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(ans), str(a), str(b), "--taxonomy", str(x),
                                 "--bootstrap", "400", "--seed", "3", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    table1 = text.split("*Table 1.*", 1)[1].split("\n\n", 2)[1]
    f1 = round(_direct(t, p)["hierarchical_f1"], 3)
    assert f"| Hierarchical F1 | {f1:.3f} [" in table1 and "| Accuracy |" in table1
    assert "*Accuracy at each depth of the taxonomy.*" in text and "*Error distances in the taxonomy.*" in text
    assert "The classes form a taxonomy (depth 3, 3 / 4 / 4 classes per level, under an implicit root)" in text
    assert "Kiritchenko, S., Matwin, S., Nock, R." in text.split("## References", 1)[1]


@pytest.mark.parametrize(("structure", "give_taxonomy", "words"), [
    ("hierarchy", False, "needs the tree of the classes"),
    ("nominal", True, "which the answers must declare with label_structure: hierarchy"),
])
def test_report_taxonomy_and_answers_must_agree(tmp_path, structure: str, give_taxonomy: bool, words: str) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from advisor.cli import app

    a, x = _files(tmp_path, ["shoes", "tv"], ["shoes", "shirts"])
    ans = tmp_path / "answers.yaml"
    ans.write_text(f"task: multiclass\nlabel_structure: {structure}\n", encoding="utf-8")
    args = ["report", "--answers", str(ans), str(a), "-o", str(tmp_path / "r.md")]
    r = CliRunner().invoke(app, args + (["--taxonomy", str(x)] if give_taxonomy else []))
    assert r.exit_code == 2 and words in r.output and r.output.count("\n") == 1, r.output
    assert not (tmp_path / "r.md").exists()


def test_report_from_two_matrices_has_unpaired_intervals(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Confusion matrices have no paired items: each system's cells are resampled on their own."""
    from typer.testing import CliRunner

    from advisor.cli import app

    _, x = _files(tmp_path, [], [])
    ms = []
    for i, rows in enumerate(("5,1,2\n0,6,1\n2,0,4\n", "6,1,1\n1,5,1\n1,1,4\n")):
        m = tmp_path / f"m{i}.csv"
        m.write_text(",shoes,tv,shirts\n" + "".join(f"{lab},{r}\n" for lab, r in
                                                    zip(("shoes", "tv", "shirts"), rows.split())), encoding="utf-8")
        ms += ["--matrix", str(m)]
    ans = tmp_path / "answers.yaml"
    ans.write_text("task: multiclass\nlabel_structure: hierarchy\n", encoding="utf-8")
    out = tmp_path / "r.md"
    r = CliRunner().invoke(app, ["report", "--answers", str(ans), *ms, "--taxonomy", str(x), "--bootstrap", "400",
                                 "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "| Hierarchical F1 | 0.81 [" in out.read_text(encoding="utf-8")


# -- the Python API takes the tree as taxonomy= (a path, a mapping child → parent, a list of pairs) ---------------
@pytest.mark.parametrize("form", ["path", "mapping", "pairs"])
def test_api_evaluate_with_a_taxonomy_equals_the_definition_and_compute(tmp_path, form: str) -> None:  # type: ignore[no-untyped-def]
    import json

    from typer.testing import CliRunner

    import advisor
    from advisor.cli import app

    t, p = _items(4, 150)
    a, x = _files(tmp_path, t, p)
    tree = {"path": str(x), "mapping": PARENT, "pairs": list(PARENT.items())}[form]
    got = advisor.evaluate(t, p, taxonomy=tree)
    want = _direct(t, p)
    assert got["structure"] == "hierarchy" and got["systems"] == ["y_pred"]
    for m in ("hierarchical_precision", "hierarchical_recall", "hierarchical_f1"):
        assert got["metrics"]["y_pred"][m] == pytest.approx(want[m], abs=1e-12)
    assert {r["distance"]: r["items"] for r in got["distances"]["y_pred"]} == want["distances"]
    assert got["taxonomy"]["depth"] == 3 and got["taxonomy"]["file"] == (str(x) if form == "path" else None)
    cli = json.loads(CliRunner().invoke(app, ["compute", str(a), "--taxonomy", str(x), "--json"]).stdout)
    assert cli["metrics"][a.stem] == pytest.approx(got["metrics"]["y_pred"])
    assert cli["distances"][a.stem] == got["distances"]["y_pred"]


def test_api_taxonomy_takes_frames_datasets_and_the_structured_loader(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pandas as pd

    import advisor

    t, p = _items(5, 80)
    a, x = _files(tmp_path, t, p)
    want = advisor.evaluate(t, p, taxonomy=PARENT)["metrics"]["y_pred"]
    df = pd.DataFrame({"y_true": t, "y_pred": p})
    assert advisor.evaluate(df, taxonomy=PARENT)["metrics"]["y_pred"] == pytest.approx(want)
    assert advisor.evaluate(t, {"m": p}, taxonomy=PARENT, metrics=["hierarchical_f1"])["metrics"] == \
        {"m": {"hierarchical_f1": pytest.approx(want["hierarchical_f1"])}}
    inputs = advisor.load_structured([a], taxonomy=x)
    assert inputs.structure == "hierarchy" and list(inputs.systems) == [a.stem]
    assert advisor.load_structured([df], taxonomy=PARENT).structure == "hierarchy"
    ctx = advisor.build_report({"label_structure": "hierarchy"}, advisor.load([a]), taxonomy=x, bootstrap=200, seed=1)
    assert ctx.primary == "hierarchical_f1"
    assert ctx.systems[0].values["hierarchical_f1"] == pytest.approx(want["hierarchical_f1"])
    same = advisor.build_structured_report({"label_structure": "hierarchy"}, inputs, bootstrap=200, seed=1)
    assert same.systems[0].intervals["hierarchical_f1"] == ctx.systems[0].intervals["hierarchical_f1"]


@pytest.mark.parametrize(("call", "words"), [
    (lambda a: a.evaluate(["shoes"], ["tv"], taxonomy=5), "taxonomy must be a CSV file of child,parent rows"),
    (lambda a: a.evaluate(["shoes"], ["tv"], taxonomy={"a": "b", "b": "a"}), "the taxonomy argument has a cycle"),
    (lambda a: a.evaluate(["shoes"], ["tv"], taxonomy="no/such.csv"), "does not exist"),
    (lambda a: a.evaluate(["shoes"], ["x"], taxonomy=PARENT), "label 'x' is not in the taxonomy argument"),
    (lambda a: a.evaluate(["shoes"], ["tv"], taxonomy=PARENT, positive_label="tv"), "positive_label does not apply"),
    (lambda a: a.evaluate(["shoes"], ["tv"], taxonomy=PARENT, metrics=["mcc"]), "'mcc' is not computed"),
    (lambda a: a.build_report({"label_structure": "nominal"}, {"y_true": ["tv"], "m": ["tv"]}, taxonomy=PARENT),
     "label_structure: hierarchy"),
    (lambda a: a.build_report({"label_structure": "hierarchy"}, {"y_true": ["tv"], "m": ["tv"]}),
     "needs the tree of the classes; give it with taxonomy="),
    (lambda a: a.build_report({"label_structure": "hierarchy"}, {"y_true": ["tv"], "m": ["tv"]}, taxonomy=PARENT,
                              costs="fn=1,fp=2"), "costs does not apply"),
    (lambda a: a.load_structured([{"y_true": ["tv"], "y_pred": ["tv"]}], taxonomy=PARENT, order=[1]),
     "order does not apply"),
])
def test_api_taxonomy_bad_input_is_one_sentence_naming_the_argument(call, words: str) -> None:  # type: ignore[no-untyped-def]
    import advisor

    with pytest.raises(InputError) as err:
        call(advisor)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_report_draws_the_error_distances_of_each_system(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import advisor
    from advisor.report import render_report

    t, p = _items(9, 150)
    q = [u if i % 4 else p[i] for i, u in enumerate(t)]
    ctx = advisor.build_report({"label_structure": "hierarchy"}, {"y_true": t, "near": q, "far": p},
                               taxonomy=PARENT, bootstrap=0)
    written = render_report(ctx, out_path=tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "r-figures/structure.svg" in md and (tmp_path / "r-figures" / "structure.svg").exists()
    assert "share of each system's errors at each tree distance" in md
    errors = {n: sum(c for d, c in _direct(t, s)["distances"].items() if d > 0) for n, s in (("near", q), ("far", p))}
    assert f"near: {errors['near']:,}; far: {errors['far']:,}" in md
    svg = (tmp_path / "r-figures" / "structure.svg").read_text(encoding="utf-8")
    assert "share of the errors" in svg and "near" in svg and "far" in svg
    assert any(str(w).endswith("structure.svg") for w in written)


def test_error_distance_figure_escapes_the_system_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import advisor
    from advisor.report import render_report

    t, p = _items(3, 60)
    ctx = advisor.build_report({"label_structure": "hierarchy"}, {"y_true": t, "$x$ <b>&": p, "other": t[::-1]},
                               taxonomy=PARENT, bootstrap=0)
    render_report(ctx, out_path=tmp_path / "r.md")
    svg = (tmp_path / "r-figures" / "structure.svg").read_text(encoding="utf-8")
    assert "<b>" not in svg and ("&lt;b&gt;" in svg or "&#60;b&#62;" in svg) and "$x$" in svg


def test_classes_at_one_depth_report_one_hierarchical_number(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every true and predicted class at depth 3 (issue 22, a taxonomy reviewer): Σ|A(p)| = Σ|A(t)|, so hP = hR = hF
    on the data and on every resample; Table 1 shows the lead alone and the methods say why, the appendix keeps the
    two equal figures."""
    import advisor
    from advisor.engine import one_depth

    leaves = ["sneakers", "boots", "headphones", "speakers"]
    rng = np.random.default_rng(3)
    t = [str(x) for x in rng.choice(leaves, 300)]
    p = [a if rng.random() < 0.6 else str(rng.choice(leaves)) for a in t]
    q = [a if rng.random() < 0.4 else str(rng.choice(leaves)) for a in t]
    ctx = advisor.build_report({"label_structure": "hierarchy"}, {"y_true": t, "a": p, "b": q}, taxonomy=PARENT,
                               bootstrap=200, seed=1)
    assert one_depth(list(advisor.load_structured([{"y_true": t, "y_pred": p}], taxonomy=PARENT).systems.values())) == 3
    roles = {m.id: m.role for m in ctx.metrics}
    assert roles["hierarchical_f1"] == "primary"
    assert roles["hierarchical_precision"] == roles["hierarchical_recall"] == "appendix"
    for s in ctx.systems:
        assert s.values["hierarchical_precision"] == pytest.approx(s.values["hierarchical_f1"], abs=1e-15)
        assert s.values["hierarchical_recall"] == pytest.approx(s.values["hierarchical_f1"], abs=1e-15)
    text = " ".join("".join(s.text for s in par.spans) for par in ctx.methods)
    assert "Every true and predicted class here sits at depth 3" in text
    assert "We also report hierarchical precision" not in text
    gone = {m["id"]: m["reason"] for m in ctx.plan["not_computed"]}
    assert gone["hierarchical_recall"] == "it equals hierarchical F1 here: every class in the data sits at depth 3"


def test_classes_at_several_depths_keep_hierarchical_precision_and_recall() -> None:
    import advisor

    t, p = _items(5)
    ctx = advisor.build_report({"label_structure": "hierarchy"}, {"y_true": t, "m": p}, taxonomy=PARENT, bootstrap=0)
    roles = {m.id: m.role for m in ctx.metrics}
    assert roles["hierarchical_precision"] != "appendix" and roles["hierarchical_recall"] != "appendix"
    assert "sits at depth" not in " ".join("".join(s.text for s in par.spans) for par in ctx.methods)


# --- the catalogue's level_accuracy (the taxonomy reader: the per-level figure, and hF as the mean of them) ---------

def test_level_accuracy_by_hand() -> None:
    """Five items on the 2 / 5 / 9 tree, counted by hand. Level 1 (5 items reach it): sneakers→boots (clothing, right),
    tv→tv (right), books→tv (wrong), headphones→speakers (electronics, right), sneakers→clothing (right) = 4/5.
    Level 2 (books is a top category, so 4 items): shoes=shoes, tv=tv, audio=audio, and clothing has no level-2
    ancestor, so the last is wrong = 3/4. Level 3 (sneakers, headphones, sneakers): boots≠sneakers, speakers≠
    headphones, clothing has none = 0/3."""
    from advisor.engine import level_accuracies

    t = ["sneakers", "tv", "books", "headphones", "sneakers"]
    p = ["boots", "tv", "tv", "speakers", "clothing"]
    acc, items = level_accuracies(_cells(t, p))
    assert items.tolist() == [5.0, 4.0, 3.0]
    assert acc.tolist() == pytest.approx([4 / 5, 3 / 4, 0.0], abs=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_level_accuracy_equals_the_per_item_definition_and_batches(seed: int) -> None:
    from advisor.engine import level_accuracies

    t, p = _items(seed)
    cells = _cells(t, p)
    acc, _ = level_accuracies(cells)
    want = _direct(t, p)["levels"]
    assert {d + 1: float(a) for d, a in enumerate(acc)} == pytest.approx(want)
    # a batch of masses (the bootstrap's resamples) gives each row's own figures
    rng = np.random.default_rng(seed)
    masses = rng.poisson(1.0, (3, cells.counts.size)).astype(float) * cells.counts
    batch, _ = level_accuracies(cells, masses)
    for row, m in zip(batch, masses):
        one, _ = level_accuracies(hierarchy_cells_with(cells, m))
        assert np.allclose(row, one, equal_nan=True)


def hierarchy_cells_with(cells, masses):  # type: ignore[no-untyped-def]
    from advisor.engine import hierarchy_with_counts

    return hierarchy_with_counts(cells, np.asarray(masses, dtype=float))


def _random_tree(rng: np.random.Generator, depth: int) -> tuple[dict[str, str | None], list[str]]:
    """A random tree whose leaves all sit at ``depth`` (2–4 children per node, implicit root)."""
    parent: dict[str, str | None] = {}
    level = [f"n{i}" for i in range(int(rng.integers(2, 5)))]
    for x in level:
        parent[x] = None
    for _ in range(depth - 1):
        nxt = []
        for x in level:
            for j in range(int(rng.integers(1, 4))):
                parent[f"{x}.{j}"] = x
                nxt.append(f"{x}.{j}")
        level = nxt
    return parent, level


@pytest.mark.parametrize("seed", range(8))
def test_with_every_leaf_at_one_depth_hp_hr_hf_are_the_mean_of_the_level_accuracies(seed: int) -> None:
    """Leaves all at depth D, one leaf predicted per item: each item's ancestor sets have D classes and share the
    levels where the two paths agree, so hP = hR = hF = (acc_1 + … + acc_D) / D — checked on random trees and
    predictions, against a per-item count over ancestor paths written here (no advisor code)."""
    from advisor.engine import level_accuracies

    rng = np.random.default_rng(seed)
    depth = int(rng.integers(2, 5))
    parent, leaves = _random_tree(rng, depth)

    def path(x: str) -> list[str]:
        out: list[str] = []
        cur: str | None = x
        while cur is not None:
            out.append(cur)
            cur = parent[cur]
        return out[::-1]

    n = 400
    t = [str(x) for x in rng.choice(leaves, n)]
    # near misses as well as far ones: a sibling leaf, or any leaf
    p = [a if rng.random() < 0.5 else str(rng.choice([s for s in leaves if parent[s] == parent[a]] or leaves))
         if rng.random() < 0.5 else str(rng.choice(leaves)) for a in t]
    labels = sorted(set(t) | set(p))
    m = np.zeros((len(labels), len(labels)))
    for a, b in zip(t, p):
        m[labels.index(a), labels.index(b)] += 1
    cells = hierarchy_cells(m, labels, taxonomy_from_edges([(c, q) for c, q in parent.items()]))
    per_level = [sum(path(a)[d] == path(b)[d] for a, b in zip(t, p)) / n for d in range(depth)]
    acc, _ = level_accuracies(cells)
    assert acc.tolist() == pytest.approx(per_level, abs=1e-12)
    got = hierarchy_metrics(cells)
    mean = sum(per_level) / depth
    for mid in ("hierarchical_precision", "hierarchical_recall", "hierarchical_f1"):
        assert got[mid] == pytest.approx(mean, abs=1e-12), mid


def test_level_accuracy_is_in_the_catalogue_with_its_symbols_and_sources() -> None:
    from advisor.catalogue import get_catalogue
    from advisor.engine._structures import STRUCTURE_METRICS

    rec = get_catalogue().metrics["level_accuracy"]
    assert STRUCTURE_METRICS["level_accuracy"].structure == "hierarchy" == rec.structure
    assert {"silla2011survey", "kiritchenko2006learning"} <= set(rec.references)
    assert {"l", "d_i", "a_l(i)"} <= set(rec.symbols)


def test_flat_macro_f1_beside_a_hierarchy_equals_the_nominal_engine_and_sklearn() -> None:
    """The planned macro F1 of a taxonomy's classes is kept beside the lead: computed from the cells, it equals
    scikit-learn's average='macro' over the table's classes and advisor's nominal engine."""
    from sklearn.metrics import f1_score

    from advisor.engine import HIERARCHY_BESIDE, nominal_beside
    from advisor.engine import evaluate as nominal_evaluate

    t, p = _items(2)
    cells = _cells(t, p)
    got = float(nominal_beside(cells, HIERARCHY_BESIDE)["macro_f1"])
    labels = sorted(set(t) | set(p))
    assert got == pytest.approx(f1_score(t, p, labels=labels, average="macro", zero_division=0), abs=1e-12)
    m = np.zeros((len(labels), len(labels)))
    for a, b in zip(t, p):
        m[labels.index(a), labels.index(b)] += 1
    assert got == pytest.approx(nominal_evaluate({"s": m}, metrics=["macro_f1"]).metrics["s"]["macro_f1"], abs=1e-12)


def test_leaf_depth_answered_reports_hf_as_the_mean_of_the_levels_without_hp_and_hr() -> None:
    """The taxonomy reader: every leaf at depth 3, so hP = hR = hF; the methods say hF is the mean of the per-level
    accuracies, which are planned (level_accuracy), and hierarchical precision and recall are not reported."""
    import advisor
    from advisor.plan import make_plan

    answers = {"label_structure": "hierarchy", "item_name": "product", "leaf_depth": 3}
    plan = make_plan(answers)
    assert plan.lead.id == "hierarchical_f1"
    assert not {"hierarchical_precision", "hierarchical_recall"} & {m.id for m in plan.beside}
    assert "level_accuracy" in [d.id for d in plan.diagnostics]
    ctx = advisor.build_report(answers, None, bootstrap=0)
    text = " ".join("".join(s.text for s in par.spans) for par in ctx.methods)
    assert ("Every product is labelled with a class at depth 3 of the taxonomy, so hierarchical precision, recall and "
            "F1 are one number: the mean of the accuracies at its 3 levels.") in text
    assert "the accuracy at each level of the taxonomy" in text
    # without the answer the depths are unknown before data: precision and recall stay beside the lead
    assert {"hierarchical_precision", "hierarchical_recall"} <= {m.id for m in make_plan(
        {"label_structure": "hierarchy"}).beside}


def test_leaf_depth_the_data_do_not_bear_out_is_said_once() -> None:
    import advisor

    t, p = _items(5)  # classes at several depths
    ctx = advisor.build_report({"label_structure": "hierarchy", "leaf_depth": 3}, {"y_true": t, "m": p},
                               taxonomy=PARENT, bootstrap=0)
    notes = [w.message for w in ctx.warnings if "leaf_depth" in w.message]
    assert len(notes) == 1 and "several depths" in notes[0]


def test_leaf_depth_needs_a_taxonomy() -> None:
    from advisor.questionnaire._answers import Answers

    with pytest.raises(Exception, match="leaf_depth"):
        Answers.model_validate({"task": "multiclass", "label_structure": "nominal", "leaf_depth": 3})
