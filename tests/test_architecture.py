"""The package's shape: imports go down the stack, no circle, functions and modules a reader can hold.

The import graph is built from the source with :mod:`ast` (every import statement, also those inside
functions, which run later but still make one module depend on another); imports under
``if TYPE_CHECKING:`` are annotations only and are left out.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "advisor"

# Which stage may import which. Base modules (directly in advisor/) are below everything.
LAYERS: dict[str, set[str]] = {
    "base": {"base"},
    "engine": {"base", "engine"},
    "io": {"base", "engine", "io"},
    "stats": {"base", "engine", "stats"},
    "catalogue": {"base", "engine", "stats", "catalogue"},
    "questionnaire": {"base", "engine", "io", "stats", "catalogue", "questionnaire"},
    "spark": {"base", "engine", "io", "stats", "spark"},
    "plan": {"base", "engine", "io", "stats", "catalogue", "questionnaire", "plan"},
    "report": {"base", "engine", "io", "stats", "catalogue", "questionnaire", "plan", "report"},
    "cli": {"base", "engine", "io", "stats", "catalogue", "questionnaire", "plan", "report", "cli", "spark"},
}
MAX_FUNCTION_LINES = 100
MAX_MODULE_LINES = 600
MAX_TOP_LEVEL_MODULES = 5


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _stage(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1].startswith("_"):
        return "base"  # advisor itself and advisor._exceptions, advisor._format, ...
    return parts[1]


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(path: Path, module: str) -> set[str]:
    """advisor modules imported by ``module`` (resolved to the deepest module that exists)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.split(".")[0] == "advisor")
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.split(".")[0] != "advisor":
                    continue
                found.add(target)
                for a in child.names:  # "from . import x" may name a submodule
                    found.add(f"{target}.{a.name}")
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        graph[name] = {t for t in _imports(path, name) if t in modules and t != name}
    return graph


def test_every_import_goes_down_the_stack() -> None:
    wrong = []
    for mod, targets in _graph().items():
        stage = _stage(mod)
        allowed = LAYERS.get(stage)
        assert allowed is not None, f"{mod}: stage {stage!r} is not in LAYERS; say where it sits"
        wrong += [f"{mod} ({stage}) imports {t} ({_stage(t)})" for t in sorted(targets)
                  if _stage(t) not in allowed]
    assert not wrong, "imports against the direction of the stack:\n" + "\n".join(wrong)


def test_no_import_cycle() -> None:
    graph = _graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def dfs(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                dfs(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            dfs(node)
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_cycle_detector_sees_a_cycle(tmp_path: Path) -> None:
    """The graph builder resolves relative imports (a self-check of the test above)."""
    pkg = tmp_path / "advisor" / "engine"
    pkg.mkdir(parents=True)
    (pkg / "_a.py").write_text("from ._b import x\n")
    assert _imports(pkg / "_a.py", "advisor.engine._a") >= {"advisor.engine._b"}
    (pkg / "_c.py").write_text("def f():\n    from ..stats._d import y\n")
    assert "advisor.stats._d" in _imports(pkg / "_c.py", "advisor.engine._c")


def test_functions_and_modules_a_reader_can_hold() -> None:
    """Size is a review signal, not a rule: code is split by responsibility, never to meet a line count. Long
    functions and modules are reported as warnings for the reviewer (issue 19, acceptance 4)."""
    long_functions, long_modules = [], []
    for path in sorted(ROOT.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + 1
        if lines > MAX_MODULE_LINES:
            long_modules.append(f"{path.relative_to(ROOT.parent)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long_functions.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name}: {n} lines")
    if long_functions:
        warnings.warn("review: functions over 100 lines:\n" + "\n".join(long_functions), stacklevel=1)
    if long_modules:
        warnings.warn("review: modules over 600 lines:\n" + "\n".join(long_modules), stacklevel=1)


def test_few_modules_directly_in_the_package() -> None:
    top = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, top


@pytest.mark.parametrize("package", ["engine", "io", "stats", "catalogue", "questionnaire", "plan", "report", "cli"])
def test_each_stage_says_what_it_owns(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 12, f"advisor/{package}/__init__.py needs a docstring saying what it owns"

