"""Answers files are small: aliases, oversized files and deep nesting are refused before validation,
and an error message never serialises a huge value before shortening it (issue 15, item 3)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from advisor import InputError
from advisor.questionnaire._answers import MAX_ANSWERS_BYTES, _show, load_answers

LEVELS = "abcdefgh"


def _bomb(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip(LEVELS, LEVELS[1:levels - 1]):
        lines.append(f"{cur}: &{cur} [{','.join(['*' + prev] * 9)}]")
    lines.append(f"notes: [{','.join(['*' + LEVELS[levels - 2]] * 9)}]")
    return "task: binary\n" + "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_before_expansion(tmp_path: Path) -> None:
    p = tmp_path / "bomb.yaml"
    p.write_text(_bomb(), encoding="utf-8")
    assert len(p.read_bytes()) < 600  # nine levels of nine aliases: 9**9 strings once expanded
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=r"alias \*a at line 3; answers files take no aliases"):
            load_answers(p)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000, peak  # refused while parsing: nothing was expanded


def test_a_single_alias_is_refused_too(tmp_path: Path) -> None:
    p = tmp_path / "a.yaml"
    p.write_text("classes: &c [a, b, c]\nplanned_metrics: *c\n", encoding="utf-8")
    with pytest.raises(InputError, match="alias"):
        load_answers(p)


def test_oversized_answers_file_is_refused_unread(tmp_path: Path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text("notes: " + "x" * (MAX_ANSWERS_BYTES + 10) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="larger than 1,000,000 bytes"):
        load_answers(p)


@pytest.mark.parametrize("suffix, text", [
    (".yaml", "notes: " + "[" * 5000 + "]" * 5000 + "\n"),
    (".json", '{"notes": ' + "[" * 200_000 + "]" * 200_000 + "}"),
])
def test_deep_nesting_is_one_sentence(tmp_path: Path, suffix: str, text: str) -> None:
    p = tmp_path / f"deep{suffix}"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="nests values") as info:
        load_answers(p)
    assert len(str(info.value)) < 300


def test_error_message_shortens_a_big_value_without_serialising_it(tmp_path: Path) -> None:
    p = tmp_path / "wide.yaml"
    p.write_text("notes: [" + ", ".join(["lol"] * 100_000) + "]\n", encoding="utf-8")
    with pytest.raises(InputError, match="notes") as info:
        load_answers(p)
    assert len(str(info.value)) < 400


def test_show_stops_at_the_limit() -> None:
    class Huge(list):  # a list that would take forever to serialise whole
        def __bool__(self) -> bool:
            return True

        def __iter__(self):
            i = 0
            while True:
                yield i
                i += 1
                if i > 10_000:
                    raise AssertionError("serialised far past the limit")

    assert _show(Huge(), 60).endswith("…") and len(_show(Huge(), 60)) == 60
    assert _show("x" * 10**7, 20) == "'" + "x" * 18 + "…"
    assert _show({"a": [1, 2]}) == '{"a": [1, 2]}'


def test_cli_alias_bomb_is_one_sentence(cli, tmp_path: Path) -> None:
    p = tmp_path / "bomb.yaml"
    p.write_text(_bomb(), encoding="utf-8")
    res = cli("recommend", "--answers", p)
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "alias" in res.stderr, res.stderr


@pytest.mark.parametrize("kind", ["fifo", "dir", "device"])
def test_answers_and_context_must_be_regular_files(tmp_path: Path, kind: str) -> None:
    import os

    from advisor.report._context_check import load_context

    if kind == "fifo":
        p = tmp_path / "a.yaml"
        os.mkfifo(p)  # reading it would block forever
    elif kind == "dir":
        p = tmp_path
    else:
        p = Path("/dev/zero")
        if not p.exists():
            pytest.skip("no /dev/zero")
    with pytest.raises(InputError, match="not a regular file"):
        load_answers(p)
    with pytest.raises(InputError, match="not a regular file"):
        load_context(p)
