"""``advisor report --context FILE``: a crafted context ends quickly with one sentence, never an
internal error (issue 15, item 3) — the checks one by one, then a hypothesis fuzz test."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor import InputError
from advisor.report._context_check import MAX_FORMULA_CHARS, check_context, load_context

MATRICES = {
    "a": {"labels": ["x", "y", "z"], "matrix": [[20, 3, 1], [2, 15, 4], [0, 2, 9]]},
    "b": {"labels": ["x", "y", "z"], "matrix": [[18, 5, 1], [4, 12, 5], [1, 1, 9]]},
}


@lru_cache(maxsize=1)
def _base() -> str:
    from advisor import build_report

    ctx = build_report({"task": "multiclass", "n_classes": 3}, {k: v["matrix"] for k, v in MATRICES.items()},
                       bootstrap=200, seed=1)
    check_context(ctx)  # advisor's own contexts pass the checks
    from advisor.report._render import _context_json

    return _context_json(ctx)


def _write(tmp_path: Path, data: Any, name: str = "ctx.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def _mutated(change) -> dict[str, Any]:  # noqa: ANN001
    d = json.loads(_base())
    change(d)
    return d


CASES = {  # the JSON's own paths (advisor.report._context_json): per-system blocks are keyed by system name
    "formula of 200 KB": (lambda d: d["metric_definitions"][0].update(formula=r"\frac{1}{2}" * 20_000), "formula"),
    "k disagrees with the labels": (lambda d: d["task"].update(k=50), "task"),
    "ragged confusion": (lambda d: d["confusion"].update(a=[[1, 2], [3]]), "confusion.a"),
    "unknown primary": (lambda d: d.update(primary="nope"), "primary"),
    "a billion digits": (lambda d: d.update(digits=10**9), "digits"),
    "NaN count": (lambda d: d["confusion"]["a"][0].__setitem__(0, "nan"), "confusion.a"),
    "overflowing counts": (lambda d: d["confusion"].update(a=[[1e308] * 3] * 3), "largest"),
    "winner that is no system": (lambda d: d.update(winners={"accuracy": ["ghost"]}), "winners"),
    "per-class label unknown": (lambda d: d["per_class"]["a"][0].update(label="ghost"), "per_class.a"),
    "confidence 7": (lambda d: d["bootstrap"].update(confidence=7), "bootstrap"),
    "duplicate system": (lambda d: d["systems"].append(d["systems"][0]), "twice"),
    "systems not names": (lambda d: d.update(systems=[{"name": "a"}]), "systems"),
    "metrics not per system": (lambda d: d["metrics"].update(a=[1, 2]), "metrics.a"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_crafted_context_is_one_sentence(cli, tmp_path: Path, name: str) -> None:
    change, word = CASES[name]
    p = _write(tmp_path, _mutated(change))
    with pytest.raises(InputError, match=word):
        load_context(p)
    res = cli("report", "--context", p, "-o", tmp_path / "r.html")
    assert res.exit_code == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "internal error" not in res.stderr and word in res.stderr
    assert not (tmp_path / "r.html").exists()


def test_formula_limit_is_far_above_the_catalogue() -> None:
    from advisor.catalogue import get_catalogue

    assert max(len(m.formula or "") for m in get_catalogue().metrics.values()) * 5 < MAX_FORMULA_CHARS


def test_deeply_nested_context_is_one_sentence(tmp_path: Path) -> None:
    p = _write(tmp_path, '{"notes": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(InputError, match="nests values"):
        load_context(p)


def test_the_saved_context_renders_again(cli, tmp_path: Path) -> None:
    p = _write(tmp_path, _base())
    res = cli("report", "--context", p, "-o", tmp_path / "r.md")
    assert res.exit_code == 0, res.stderr


def test_a_version_1_context_is_read_too(tmp_path: Path) -> None:
    """Contexts written before the shared JSON shape (schema_version 1: the model dumped as it is) still load."""
    ctx = load_context(_write(tmp_path, _base()))
    p = _write(tmp_path, {**json.loads(ctx.model_dump_json()), "schema_version": 1}, "v1.json")
    assert load_context(p) == ctx


# -- fuzz ---------------------------------------------------------------------------------------------
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from(["inf", "-inf", "nan", 1e308, -0.0]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["[UNK]", "\x1b]0;pwned\x07", "x" * 3000, r"\input{/etc/passwd}", "accuracy", "a", "x", "y"]),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                       max_leaves=8)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def _contexts(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:  # now and then not JSON at all, or cut short
        text = _base()
        return text[: draw(st.integers(0, len(text)))] + draw(st.text(max_size=5))
    d = json.loads(_base())
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(d)
        path = draw(st.sampled_from(paths[1:]))
        parent = d
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "replace", "delete", "duplicate"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
        else:
            parent[path[-1]] = draw(_VALUES)
    return json.dumps(d)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=_contexts(), fmt=st.sampled_from(["md", "html", "tex", "json"]))
def test_fuzzed_context_never_gives_an_internal_error(cli, tmp_path: Path, text: str, fmt: str) -> None:
    p = _write(tmp_path, text, "fuzz.json")
    out = tmp_path / f"fuzz.{fmt}"
    res = cli("report", "--context", p, "-o", out, "--force")
    assert res.exit_code in (0, 2), (res.exit_code, res.stderr)
    assert "internal error" not in res.stderr and "Traceback" not in res.stderr, res.stderr
    if res.exit_code == 2:
        assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1, res.stderr
