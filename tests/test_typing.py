"""Typed for real (issue 24): ``mypy advisor`` passes with the configuration in pyproject.toml — strict on the
modules behind ``advisor.__all__`` — and the lazy packages show a type checker every name they export.

mypy comes with the test extra; without it the check is skipped — never in CI (``CI=true``), where it must run.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["advisor", "advisor.catalogue", "advisor.engine", "advisor.io", "advisor.plan", "advisor.questionnaire",
            "advisor.report", "advisor.stats"]


def test_mypy_passes() -> None:
    if importlib.util.find_spec("mypy") is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is not installed, and CI must type-check: pip install -e '.[test]' installs it.")
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    proc = subprocess.run([sys.executable, "-m", "mypy", "advisor"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 0, f"`mypy advisor` failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}"


def _lazy_and_checked(package: str) -> tuple[dict[str, str], dict[str, str]]:
    """The package's lazy table (public name → module[:name]) and what its ``if TYPE_CHECKING:`` block imports
    (public name → module:name)."""
    tree = ast.parse((ROOT / package.replace(".", "/") / "__init__.py").read_text(encoding="utf-8"))
    table: dict[str, str] = {}
    checked: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "_LAZY":
                table = ast.literal_eval(node.value)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom), f"{package}: only imports under TYPE_CHECKING"
                for alias in imp.names:
                    # ``from m import x`` is no re-export to a strict type checker; ``x as x`` is
                    assert alias.asname is not None, f"{package}: import {alias.name} as {alias.name}"
                    checked[alias.asname] = f"{'.' * imp.level}{imp.module}:{alias.name}"
    return table, checked


def _defined_in(package: str, name: str, spec: str) -> str:
    """``.module:name`` where a lazy name of ``package`` is defined (the top level's through its subpackage's table)."""
    module, _, defined = spec.partition(":")
    sub = f"advisor{module}"
    if package == "advisor" and sub in PACKAGES:  # ".engine" + "._confusion:ConfusionMatrix"
        return module + _defined_in(sub, name, _lazy_and_checked(sub)[0][name])
    return f"{module}:{defined or name}"


@pytest.mark.parametrize("package", PACKAGES)
def test_type_checkers_see_every_lazy_name(package: str) -> None:
    """A name only the lazy ``__getattr__`` resolves is ``Any`` to mypy: a misspelt import of it, or a wrong call,
    would pass unseen. Each package imports its lazy table's names under ``if TYPE_CHECKING:`` as well, from the
    module the table names."""
    table, checked = _lazy_and_checked(package)
    assert table, f"{package} has no lazy table"
    missing = sorted(set(table) - set(checked))
    assert not missing, f"{package}: add to its `if TYPE_CHECKING:` imports: {', '.join(missing)}"
    wrong = [f"{name} ({checked[name]}, not {_defined_in(package, name, spec)})" for name, spec in table.items()
             if checked[name] != _defined_in(package, name, spec)]
    assert not wrong, f"{package}: its `if TYPE_CHECKING:` imports differ from the lazy table: {'; '.join(wrong)}"
