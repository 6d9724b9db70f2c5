"""No label, file name, note or query reaches the terminal with a control character that acts.

A class label such as ``ESC ] 0 ; pwned BEL`` sets the window title, ``ESC [ 2 J`` clears the
screen; every command prints such user data with its control characters as visible escapes
(:func:`advisor._format.terminal_safe`), in its normal output and in its error messages.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor._format import terminal_safe
from advisor.cli import app

TITLE = "\x1b]0;pwned\x07a"  # sets the terminal's window title
CLEAR = "\x1b[2Jb"  # clears the screen
BIDI = "c\u202etxt.exe"  # a right-to-left override
C1 = "d\x9b31m"  # the 8-bit CSI
HOSTILE = (TITLE, CLEAR, BIDI, C1)
ACTING = ("\x1b", "\x07", "\u202e", "\x9b")

runner = CliRunner()


def _run(*args: object, input: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def _assert_safe(result, *shown: str) -> None:
    text = result.stdout + result.stderr
    for ch in ACTING:
        assert ch not in text, (repr(ch), text[:2000])
    joined = " ".join(text.split())
    for s in shown:  # the user data is still there, made visible
        assert terminal_safe(s) in joined or repr(s)[1:-1] in joined, (s, joined[:3000])


@pytest.fixture
def hostile(tmp_path: Path) -> dict[str, Path]:
    truth = [TITLE, CLEAR] * 10
    preds = {"sys_one": truth[:-2] + [CLEAR, TITLE], "sys_two": [TITLE] * 20}
    files = {}
    for name, pred in preds.items():
        f = tmp_path / f"{name}.csv"
        f.write_text("y_true,y_pred\n" + "".join(f"{t},{p}\n" for t, p in zip(truth, pred)), encoding="utf-8")
        files[name] = f
    answers = tmp_path / "answers.yaml"
    answers.write_text('task: binary\nclasses: ["\\e]0;pwned\\aa", "\\e[2Jb"]\npositive_class: "\\e[2Jb"\n'
                       'notes: "\\e]52;c;cGF5bG9hZA==\\a clipboard"\n', encoding="utf-8")
    files["answers"] = answers
    return files


def test_the_sanitiser_makes_every_acting_character_visible() -> None:
    for s in HOSTILE:
        out = terminal_safe(s)
        assert not any(ch in out for ch in ACTING) and out.isprintable()
    assert terminal_safe("plain label, ünïcode ✓") == "plain label, ünïcode ✓"
    assert terminal_safe("line\nbreak", keep_newlines=True) == "line\nbreak"


def test_compute_table_json_and_notes(hostile) -> None:
    res = _run("compute", hostile["sys_one"], hostile["sys_two"], "--positive", CLEAR)
    assert res.exit_code == 0, res.stderr
    _assert_safe(res, TITLE, CLEAR)
    res = _run("compute", hostile["sys_one"], "--json")
    assert res.exit_code == 0
    _assert_safe(res)
    assert TITLE in json.loads(res.stdout)["labels"]  # JSON escapes decode to the same label


def test_compare(hostile) -> None:
    res = _run("compare", hostile["sys_one"], hostile["sys_two"], "--bootstrap", "200", "--seed", "1")
    assert res.exit_code == 0, res.stderr
    _assert_safe(res)


def test_compare_with_a_hostile_system_name(tmp_path, hostile) -> None:
    odd = tmp_path / f"{TITLE}.csv"
    odd.write_bytes(hostile["sys_two"].read_bytes())
    res = _run("compare", hostile["sys_one"], odd, "--bootstrap", "200", "--seed", "1")
    assert res.exit_code == 0, res.stderr
    _assert_safe(res, TITLE)


def test_recommend_with_data_and_hostile_answers(hostile) -> None:
    res = _run("recommend", "--answers", hostile["answers"], "--data", hostile["sys_one"], "--data", hostile["sys_two"])
    assert res.exit_code == 0, res.stderr
    _assert_safe(res, CLEAR)


def test_methods_and_report_terminal_messages(tmp_path, hostile) -> None:
    res = _run("methods", "--answers", hostile["answers"])
    assert res.exit_code == 0, res.stderr
    _assert_safe(res)
    out = tmp_path / f"{CLEAR}report.md"
    res = _run("report", "--answers", hostile["answers"], hostile["sys_one"], hostile["sys_two"], "-o", out,
               "--bootstrap", "200", "--seed", "1")
    assert res.exit_code == 0, res.stderr
    _assert_safe(res, str(out))


def test_ask_with_hostile_data(tmp_path, hostile) -> None:
    res = _run("ask", "--out", tmp_path / "a.yaml", "--data", hostile["sys_one"], input="\n" * 40)
    assert res.exit_code == 0, res.stderr
    _assert_safe(res, TITLE)


def test_explain_of_a_hostile_query(tmp_path) -> None:
    for fmt in ("md", "text", "tex", "json"):
        res = _run("explain", TITLE, "--format", fmt)
        assert res.exit_code == 2
        _assert_safe(res)
    res = _run("explain", f"macro F1{CLEAR}")
    _assert_safe(res)


def test_error_messages_naming_a_hostile_file(tmp_path) -> None:
    missing = tmp_path / f"{TITLE}.csv"
    for args in (["compute", missing], ["compare", missing, missing], ["recommend", "--answers", missing],
                 ["report", "--answers", missing, missing, "-o", tmp_path / "r.md"]):
        res = _run(*args)
        assert res.exit_code == 2, (args, res.stdout, res.stderr)
        assert res.stderr.startswith("error: ") and "internal error" not in res.stderr
        _assert_safe(res)
    bad = tmp_path / f"{CLEAR}.csv"
    bad.write_text("y_true,y_pred\n", encoding="utf-8")  # no rows
    res = _run("compute", bad)
    assert res.exit_code == 2
    _assert_safe(res)


def test_no_text_keeps_an_acting_character() -> None:
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    acting = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
    def check(s: str) -> None:
        assert not acting.search(terminal_safe(s))
        kept = terminal_safe(s, keep_newlines=True)
        assert not acting.search(kept.replace("\n", "").replace("\t", ""))
        if not acting.search(s):
            assert terminal_safe(s) == s  # ordinary text is left alone

    check()
