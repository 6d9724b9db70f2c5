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



# ----------------------------------------------------------------------------------------------
# Issue 19, acceptance 4: packages talk through their public names; imports are made once, at the top
# ----------------------------------------------------------------------------------------------
def _import_nodes(path: Path) -> list[tuple[ast.AST, bool]]:
    """Every import statement of a module and whether it sits inside a function (TYPE_CHECKING left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[ast.AST, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append((child, in_function))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return out


def _targets(node: ast.AST, module: str, is_package: bool) -> list[tuple[str, list[str]]]:
    """``(module imported, names imported from it)`` of one import statement, advisor modules only."""
    package = module if is_package else module.rpartition(".")[0]
    if isinstance(node, ast.Import):
        return [(a.name, []) for a in node.names if a.name.split(".")[0] == "advisor"]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = package.split(".")
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    return [(target, [a.name for a in node.names])] if target.split(".")[0] == "advisor" else []


def _package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and not parts[1].startswith("_") else "base"


def test_no_private_names_across_packages() -> None:
    """A package uses another only through its public names (its ``__init__``), never a private module or a
    private name of it; base modules (``advisor._format``, …) are shared by all."""
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        module = _module_name(path)
        own = _package_of(module)
        for node, _ in _import_nodes(path):
            for target, names in _targets(node, module, path.name == "__init__.py"):
                other = _package_of(target)
                if other in ("base", own):
                    continue
                parts = target.split(".")
                private_module = any(p.startswith("_") for p in parts[2:])
                private_names = [n for n in names if n.startswith("_")]
                if private_module or private_names:
                    wrong.append(f"{module} imports {target}" + (f" ({', '.join(private_names)})" if private_names
                                                                 else ""))
    assert not wrong, f"{len(wrong)} private imports across packages:\n" + "\n".join(wrong)


def test_no_function_level_imports_of_advisor_modules() -> None:
    """advisor's own modules are imported at the top of a module; only heavy third-party libraries are imported
    where they are needed, and only those :data:`advisor._lazy.HEAVY` declares."""
    from advisor._lazy import HEAVY

    own, third = [], []
    for path in sorted(ROOT.rglob("*.py")):
        module = _module_name(path)
        for node, in_function in _import_nodes(path):
            if not in_function:
                continue
            if _targets(node, module, path.name == "__init__.py"):
                own.append(f"{path.relative_to(ROOT.parent)}:{node.lineno}")
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            third += [f"{path.relative_to(ROOT.parent)}:{node.lineno} {n}" for n in names
                      if n.split(".")[0] not in HEAVY]
    assert not own, f"{len(own)} function-level imports of advisor modules:\n" + "\n".join(own)
    assert not third, "function-level imports of libraries not declared heavy:\n" + "\n".join(third)


def test_the_cli_loads_no_heavy_library() -> None:
    """``advisor --help`` imports every command module: the stages are used through their lazy packages, so none
    of the heavy libraries loads before a command runs (the CLI imports advisor's modules at the top)."""
    import subprocess
    import sys

    heavy = ("numpy", "pandas", "duckdb", "matplotlib", "weasyprint", "pyarrow", "pyspark", "scipy")
    code = ("import sys, advisor.cli; "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
