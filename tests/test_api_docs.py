"""The runnable examples of docs/api.md run as written.

Every ```python block preceded by ``<!-- run -->`` is executed, each in a fresh namespace, in a temporary
folder that holds the repository's ``examples/`` (a link), so the documented paths work and whatever an
example writes (``out/…``) lands in the temporary folder. The Spark block is not marked: it needs the
``spark`` extra and Java.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api.md"
_BLOCK = re.compile(r"<!-- run -->\s*\n```python\n(.*?)\n```", re.S)


def _blocks() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    out = []
    for m in _BLOCK.finditer(text):
        heading = [h for h in re.findall(r"^## (.+)$", text[: m.start()], re.M)][-1:] or ["top"]
        line = text.count("\n", 0, m.start()) + 2
        out.append((f"api.md:{line} ({heading[0]})", m.group(1)))
    return out


BLOCKS = _blocks()


def test_the_doc_has_runnable_examples() -> None:
    assert len(BLOCKS) >= 8
    every = "\n".join(code for _, code in BLOCKS)
    for name in ("advisor.load(", "sql=", "pl.", "to_arrow()", "group=", "by=", "names=", "advisor.evaluate(",
                 "advisor.compare_systems(", "advisor.bootstrap(", "advisor.make_plan(", "advisor.build_report(",
                 "render_report(", "force=True", "advisor.subgroups("):
        assert name in every, name


@pytest.mark.parametrize("code", [c for _, c in BLOCKS], ids=[i for i, _ in BLOCKS])
def test_example_runs(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pandas")
    if "polars" in code:
        pytest.importorskip("polars")
    if "to_arrow" in code:
        pytest.importorskip("pyarrow")
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(DOC), "exec"), {"__name__": "__api_doc__"})
