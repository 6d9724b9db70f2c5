"""Regression tests for defects found by exploratory testing of the CLI and the Python API.

Each test names the defect it pins down. Bad input must give exit status 2 and one "error: …" line on
stderr — never a traceback — and must leave the user's files alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DIGITS = [EXAMPLES / "digits" / "logreg.csv", EXAMPLES / "digits" / "tree.csv"]
DIGITS_ANSWERS = EXAMPLES / "report" / "digits_answers.yaml"


def assert_one_error(result, *words: str) -> None:  # noqa: ANN001 - click Result
    """Exit 2, a single ``error:`` line on stderr naming ``words``, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr, result.exception)
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


# -- a negative or non-integer seed reached numpy and came back as a traceback -----------------------
@pytest.mark.parametrize("args", [
    ["compute", DIGITS[0], "--bootstrap", "200", "--seed", "-1"],
    ["compare", *DIGITS, "--bootstrap", "200", "--seed", "-1"],
    ["audit", "--budget", "10", "--seed", "-1", "--metric", "accuracy"],
])
def test_negative_seed_is_one_sentence(cli, args: list) -> None:
    assert_one_error(cli(*args), "seed", "-1")


@pytest.mark.parametrize("seed", [-1, "x", 1.5, True])
def test_bad_seed_raises_input_error(seed: object) -> None:
    from advisor import InputError, bootstrap, compare_systems

    with pytest.raises(InputError, match="seed"):
        bootstrap([[3, 1], [1, 3]], n_resamples=200, seed=seed, metrics=["accuracy"])
    with pytest.raises(InputError, match="seed"):
        compare_systems([0, 1, 1, 0], {"a": [0, 1, 0, 0]}, n_resamples=200, seed=seed, metrics=["accuracy"])


# -- a report on a single system crashed in every format but JSON (no ranking figure to show) -------
@pytest.mark.parametrize("suffix", ["md", "html", "tex"])
def test_report_of_one_system(cli, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"one.{suffix}"
    result = cli("report", DIGITS[0], "--answers", DIGITS_ANSWERS, "-o", out, "--bootstrap", "0")
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert "logreg" in out.read_text(encoding="utf-8")


# -- labels 1 and "1" were two classes that print, key JSON and match --positive identically ---------
def test_labels_equal_as_text_are_refused(cli, tmp_path: Path) -> None:
    from advisor import ConfusionMatrix, InputError

    with pytest.raises(InputError, match="unique"):
        ConfusionMatrix([[1, 2], [3, 4]], labels=["1", 1])
    path = tmp_path / "m.json"
    path.write_text('{"labels": ["1", 1], "matrix": [[1, 2], [3, 4]]}', encoding="utf-8")
    assert_one_error(cli("compute", "--matrix", path), "m.json", "unique")


# -- two files with the same stem in one folder were named after the whole path ('//tmp/…/a') --------
def test_same_stem_different_format_system_names(tmp_path: Path) -> None:
    from advisor import read_predictions

    from conftest import write_table

    cols = {"y_true": ["a", "b", "a"], "y_pred": ["a", "a", "b"]}
    ps = read_predictions([write_table(tmp_path / "sys.csv", cols), write_table(tmp_path / "sys.jsonl", cols)])
    assert list(ps.systems) == ["sys.csv", "sys.jsonl"]


# -- a repeated column name was read silently (the first of the two) ----------------------------------
@pytest.mark.parametrize("content", [b"y_true,y_pred,y_true\na,a,b\nb,a,a\n", b"y_true,y_pred,y_pred\na,a,b\nb,a,a\n"])
def test_repeated_column_is_refused(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    (tmp_path / "d.csv").write_bytes(content)
    monkeypatch.chdir(tmp_path)
    assert_one_error(cli("compute", "d.csv"), "d.csv", "2 columns named")


# -- `methods --undefined maybe` succeeded and described the omit convention ---------------------------
def test_methods_refuses_unknown_convention(cli) -> None:
    assert_one_error(cli("methods", "--answers", DIGITS_ANSWERS, "--undefined", "maybe"), "--undefined", "'maybe'")


# -- `ask --out` into a missing folder asked every question, then failed naming a temporary file ------
def test_ask_checks_the_output_folder_before_asking(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from advisor.cli import app

    for out in (tmp_path / "missing" / "answers.yaml", tmp_path):
        result = CliRunner().invoke(app, ["ask", "--out", str(out), "--force"], input="\n" * 40)
        assert result.exit_code == 2, (result.stdout, result.stderr)
        assert "1." not in result.stdout  # failed before the first question
        assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
        assert ".tmp" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


# -- an infinite error cost (or an overflowing ratio) gave β = inf, which every later step refused ----
@pytest.mark.parametrize("costs", ["{false_negative: .inf, false_positive: 1}",
                                   "{false_negative: 1e300, false_positive: 1e-300}",
                                   "{false_negative: 1e-300, false_positive: 1e300}"])
def test_error_costs_must_give_a_finite_beta(cli, tmp_path: Path, costs: str) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(f"task: binary\nclasses: [neg, pos]\npositive_class: pos\nerror_costs: {costs}\n", encoding="utf-8")
    assert_one_error(cli("recommend", "--answers", path), "a.yaml", "error_costs")


# -- a binary answers file got a generic "an input file is not valid UTF-8" without its name; a BOM ---
# -- at the start of a JSON answers file (Windows editors write one) was a JSON syntax error -----------
def test_answers_file_encoding(cli, tmp_path: Path) -> None:
    garbage = tmp_path / "a.yaml"
    garbage.write_bytes(b"\xff\xfe\x00\x81garbage" * 10)
    assert_one_error(cli("recommend", "--answers", garbage), "a.yaml")
    bom = tmp_path / "b.json"
    bom.write_bytes(b'\xef\xbb\xbf{"task": "binary"}\r\n')
    result = cli("recommend", "--answers", bom, "--json")
    assert result.exit_code == 0, result.stderr
    assert '"task": "binary"' in result.stdout


# -- compare_systems(y, [y_pred]) raised AttributeError ('list' object has no attribute 'values') -----
def test_compare_systems_needs_a_mapping() -> None:
    from advisor import InputError, compare_systems

    with pytest.raises(InputError, match="name"):
        compare_systems([0, 1, 1], [[0, 1, 0]], n_resamples=200, seed=0)


# -- a fractional label in a Parquet float column was shown as "np.float64(1.5)" ----------------------
def test_fractional_parquet_label_message(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import write_table

    write_table(tmp_path / "f.parquet", {"y_true": [1.5, 2.0], "y_pred": [1, 2]})
    monkeypatch.chdir(tmp_path)
    result = cli("compute", "f.parquet")
    assert_one_error(result, "f.parquet", "row 1", "1.5")
    assert "np." not in result.stderr


# -- `ask --out DATA --data DATA --force` replaced the prediction file with the answers --------------
def test_ask_never_overwrites_its_data(cli, tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_bytes(DIGITS[0].read_bytes())
    from typer.testing import CliRunner

    from advisor.cli import app

    result = CliRunner().invoke(app, ["ask", "--out", str(data), "--data", str(data), "--force"], input="\n" * 40)
    assert_one_error(result, "one of the input files")
    assert data.read_bytes() == DIGITS[0].read_bytes()


# -- compare printed system names as Rich markup: '[bold]x' lost its brackets, 'q[/]z' crashed -------
def test_compare_prints_system_names_literally(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import write_table

    cols = {"y_true": ["a", "b", "a", "b"], "y_pred": ["a", "b", "b", "b"]}
    for folder in ("q[", "r["):
        (tmp_path / folder).mkdir()
        write_table(tmp_path / folder / "]z.csv", cols)
    write_table(tmp_path / "[bold]x.csv", cols)
    monkeypatch.chdir(tmp_path)
    result = cli("compare", "q[/]z.csv", "r[/]z.csv", "[bold]x.csv", "--bootstrap", "200", "--seed", "0",
                 "--metrics", "accuracy")
    assert result.exit_code == 0, (result.stderr, result.exception)
    for name in ("q[/]z", "r[/]z", "[bold]x"):
        assert name in result.stdout


# -- YAML 1.1 read `classes: [no, yes]` as booleans, so the classes became 0 and 1 --------------------
def test_answers_yes_no_class_names(cli, tmp_path: Path) -> None:
    import json

    from conftest import write_table

    answers = tmp_path / "a.yaml"
    answers.write_text("task: binary\nclasses: [no, yes]\npositive_class: yes\nsymmetric: no\nranking: yes\n",
                       encoding="utf-8")
    data = write_table(tmp_path / "d.csv", {"y_true": ["yes", "no", "no"], "y_pred": ["yes", "yes", "no"]})
    result = cli("recommend", "--answers", answers, "--data", data, "--json")
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)["answers"]
    assert got["classes"] == ["no", "yes"] and got["positive_class"] == "yes"
    assert got["symmetric"] is False and got["ranking"] is True


# -- …and read zero-padded or hex-looking class names as numbers: [01, 02, 08] became [1, 2, '08'] -----
def test_answers_class_names_keep_their_spelling(tmp_path: Path) -> None:
    from advisor import load_answers

    path = tmp_path / "a.yaml"
    path.write_text("classes: [01, 02, 08, 0x1A, '1:30', 7]\nn_classes: 6\n", encoding="utf-8")
    answers = load_answers(path)
    assert list(answers.classes) == ["01", "02", "08", "0x1A", "1:30", 7]


# -- y_pred written as floats by pandas ("1.0") silently made every prediction wrong in a CSV ----------
def test_labels_spelling_the_same_number_get_a_note(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "p.csv").write_text("y_true,y_pred\n0,0.0\n1,1.0\n1,1.0\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("compute", "p.csv", "--metrics", "accuracy")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("note: ") and "'0' and '0.0'" in result.stderr


# -- a binary --context file got a generic message without its name; a BOM made the JSON invalid -------
def test_report_context_encoding(cli, tmp_path: Path) -> None:
    garbage = tmp_path / "g.json"
    garbage.write_bytes(b"\xff\xfe\x00\x81" * 20)
    assert_one_error(cli("report", "--context", garbage, "-o", tmp_path / "g.md"), "g.json")
    ctx = tmp_path / "c.json"
    assert cli("report", DIGITS[0], "--answers", DIGITS_ANSWERS, "-o", ctx, "--bootstrap", "0").exit_code == 0
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + ctx.read_bytes())
    result = cli("report", "--context", bom, "-o", tmp_path / "bom.md")
    assert result.exit_code == 0, result.stderr


# -- a bad byte after the sniffed start of a JSONL or matrix file gave a message without the file ------
@pytest.mark.parametrize("name,args,content", [
    ("late.jsonl", [], b'{"y_true": "a", "y_pred": "b"}\n' * 600 + b'{"y_true": "\xff", "y_pred": "b"}\n'),
    ("late.csv", ["--matrix"], b",a,b\na,1,2\nb,3,4\n" + b" " * 9000 + b"\n\xff,1,1\n"),
    ("late.json", ["--matrix"], b"[[1, 2], [3, 4]]" + b" " * 9000 + b"\xff"),
])
def test_late_invalid_utf8_names_the_file(cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          name: str, args: list, content: bytes) -> None:
    (tmp_path / name).write_bytes(content)
    monkeypatch.chdir(tmp_path)
    assert_one_error(cli("compute", *args, name), name, "UTF-8")
