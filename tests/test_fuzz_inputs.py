"""Fuzzing the readers through the command line: generated input files of every supported kind.

Each generated file (a valid table mutated — cells replaced by hostile values, bytes inserted, rows cut
or made ragged — or plain random bytes) is given to ``advisor compute`` several times: the answer must be
a result (exit 0) or one sentence (exit 2), never a traceback, never "internal error", and the same
every time. A few hostile files also run in a fresh process, where a reader thread outliving the
command would abort it (exit 134, "terminate called without an active exception").
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from advisor.cli import app

runner = CliRunner()

HOSTILE = ["", " ", "nan", "NaN", "inf", "-inf", "1e19", "1e300", "-0", "01", "1.5", "null", "true", '"', '""',
           "a,b", "\t", "\x1b[2J", "\x00", "é", "\ud7ff", "x" * 300, "[]", "{}", "-9223372036854775808",
           "99999999999999999999999", "-1", "1e-320"]
KINDS = ["csv", "tsv", "jsonl", "parquet", "matrix_csv", "matrix_json", "counts"]


def _valid_rows(k: int, n: int) -> list[list[str]]:
    return [[str(i % k), str((i * 7) % k)] for i in range(n)]


def _write(kind: str, rows: list[list[str]], path: Path) -> list[str]:
    """Write ``rows`` (cells as text) as ``kind``; returns the CLI arguments that read it."""
    if kind in ("csv", "tsv", "counts"):
        sep = "\t" if kind == "tsv" else ","
        header = ["true", "pred", "count"] if kind == "counts" else ["y_true", "y_pred"]
        body = [r + ["1"] if kind == "counts" and len(r) == 2 else r for r in rows]
        path.write_text("\n".join(sep.join(r) for r in [header, *body]) + "\n", encoding="utf-8", errors="surrogatepass")
        return ["--counts", str(path)] if kind == "counts" else [str(path)]
    if kind == "jsonl":
        def value(c: str) -> object:
            try:
                return json.loads(c)
            except ValueError:
                return c
        lines = [json.dumps({"y_true": value(r[0]), "y_pred": value(r[1] if len(r) > 1 else "")}) for r in rows]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        return [str(path)]
    if kind == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = list(zip(*[(r + ["", ""])[:2] for r in rows])) or [(), ()]
        arrays = []
        for c in cols:
            try:
                arrays.append(pa.array([float(x) for x in c]))
            except ValueError:
                arrays.append(pa.array([x.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for x in c]))
        pq.write_table(pa.table({"y_true": arrays[0], "y_pred": arrays[1]}), path)
        return [str(path)]
    labels = sorted({r[0] for r in rows})[:6] or ["a"]
    if kind == "matrix_json":
        def cell(c: str) -> object:  # a number where the text is one ("01" is not JSON), the text otherwise
            try:
                return int(c) if c.lstrip("-").isdigit() else c
            except ValueError:
                return c

        matrix = [[cell(c) for c in (r + ["0"] * 6)[: len(labels)]] for r in rows[: len(labels)]]
        path.write_text(json.dumps({"labels": labels, "matrix": matrix}), encoding="utf-8")
        return ["--matrix", str(path)]
    lines = [",".join(["", *labels])] + [",".join([lab, *(r + ["0"] * 6)[: len(labels)]]) for lab, r in zip(labels, rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    return ["--matrix", str(path)]


SUFFIX = {"csv": ".csv", "tsv": ".tsv", "jsonl": ".jsonl", "parquet": ".parquet", "matrix_csv": ".csv",
          "matrix_json": ".json", "counts": ".csv"}


@st.composite
def inputs(draw, kind: str) -> tuple[list[list[str]], bytes | None]:
    k = draw(st.integers(2, 5))
    rows = _valid_rows(k, draw(st.integers(0, 12)))
    for _ in range(draw(st.integers(0, 4))):
        if not rows:
            break
        i = draw(st.integers(0, len(rows) - 1))
        action = draw(st.sampled_from(["cell", "ragged", "drop", "text"]))
        if action == "cell":
            rows[i][draw(st.integers(0, len(rows[i]) - 1))] = draw(st.sampled_from(HOSTILE))
        elif action == "ragged":
            rows[i] = rows[i][:1] if draw(st.booleans()) else rows[i] + ["extra"]
        elif action == "drop":
            rows.pop(i)
        else:
            rows[i][0] = draw(st.text(max_size=12))
    junk = draw(st.one_of(st.none(), st.binary(min_size=1, max_size=64)))
    return rows, junk


def _check(args: list[str], repeat: int = 2) -> None:
    outputs = set()
    for _ in range(repeat):
        res = runner.invoke(app, ["compute", *args, "--json"])
        text = (res.stdout or "") + (res.stderr or "")
        assert res.exit_code in (0, 2), (args, res.exit_code, text[-500:], res.exception)
        assert "Traceback" not in text and "internal error" not in text, text[-500:]
        if res.exit_code == 2:
            assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1, res.stderr
        outputs.add((res.exit_code, res.stdout))
    assert len(outputs) == 1, "the same input gave different answers"


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_files_never_crash(kind: str, data: st.DataObject) -> None:
    rows, junk = data.draw(inputs(kind))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"in{SUFFIX[kind]}"
        args = _write(kind, rows, path)
        if junk is not None:  # splice random bytes into the file
            raw = path.read_bytes()
            at = data.draw(st.integers(0, len(raw)))
            path.write_bytes(raw[:at] + junk + raw[at:])
        _check(args)


@pytest.mark.parametrize("content", [
    b"y_true,y_pred\n1,0\n1\n" + b"0,1\n" * 50_000,            # a ragged row, then more data
    b"y_true,y_pred\n" + b"x" * 3_000_000 + b",1\n0,1\n",         # a 3 MB label cell
    b'y_true,y_pred\n"unclosed,1\n0,1\n',                        # an unclosed quote
])
def test_parse_errors_end_cleanly_in_a_fresh_process(tmp_path: Path, content: bytes) -> None:
    f = tmp_path / "p.csv"
    f.write_bytes(content)
    for _ in range(3):
        res = subprocess.run([sys.executable, "-c", "from advisor.cli import main; main()", "compute", str(f)], capture_output=True, text=True,
                             timeout=120)
        assert res.returncode == 2, (res.returncode, res.stderr[-500:])
        assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1, res.stderr[-500:]
        assert "terminate called" not in res.stderr and len(res.stderr) < 2000
