"""One set of hostile labels through every command and every output format, end to end.

Control characters, ANSI escapes, bidi overrides, a 10,000-character label (the longest the readers
accept), LaTeX/HTML/Markdown specials and HTML that would load something (``<img src=http://…>``,
``url(…)``): no terminal sees an acting character, a long label does not push the numbers out of a
table, no document carries a raw control character or live markup, and the PDF renderer fetches
nothing (a local HTTP server counts the requests).
"""

from __future__ import annotations

import http.server
import re
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from advisor.cli import app

runner = CliRunner()
ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
LONG = "L" * 10_000


@pytest.fixture(scope="module")
def server():
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server protocol
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1], hits
    httpd.shutdown()


def _labels(port: int) -> list[str]:
    return [
        "\x1b]0;pwned\x07a", "\x1b[2Jb", "r\u202eevil\u2066x", LONG, r"\input{/etc/passwd}$%&#_^~[UNK]",
        f'<img src="http://127.0.0.1:{port}/img"><style>@import url(http://127.0.0.1:{port}/css);</style>',
        f"*[x](javascript:alert(1))* | `c` # <script>alert(1)</script> url(http://127.0.0.1:{port}/u)",
        "\x9b31mcsi\x00nul\x7fdel",
    ]


@pytest.fixture(scope="module")
def files(tmp_path_factory, server):
    import csv

    port, _ = server
    labels = _labels(port)
    folder = tmp_path_factory.mktemp("hostile")
    out = {}
    for s, shift in (("sys\x1b[31mA", 1), ("b", 3)):
        path = folder / f"{s}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["y_true", "y_pred"])
            for i in range(160):
                t = labels[i % len(labels)]
                w.writerow([t, labels[(i + shift) % len(labels)] if i % 5 == 0 else t])
        out[s] = path
    answers = folder / "answers.yaml"
    answers.write_text('task: multiclass\nn_classes: 8\nranking: true\n'
                       f'notes: "\\e]0;t\\a <img src=\\"http://127.0.0.1:{port}/notes\\"> [UNK] $x$"\n',
                       encoding="utf-8")
    out["answers"] = answers
    out["folder"] = folder
    return out


def _safe(result) -> str:
    text = result.stdout + result.stderr
    assert not ACTING.search(text), repr(ACTING.search(text).group())
    assert "internal error" not in text and "Traceback" not in text
    return text


@pytest.mark.parametrize("extra", [[], ["--json"], ["--bootstrap", "200", "--seed", "1"]])
def test_compute_shows_every_number_beside_a_long_label(files, extra) -> None:
    res = runner.invoke(app, ["compute", str(files["sys\x1b[31mA"]), str(files["b"]), *extra])
    assert res.exit_code == 0, res.stderr
    text = _safe(res)
    if extra[:1] != ["--json"]:
        assert LONG[:200] not in text  # shortened in display (the JSON keeps it whole)
        row = next(line for line in text.splitlines() if "LLLLL" in line and "…" in line and "│" in line)
        assert re.search(r"│\s+\d+ │\s+\d+ │\s+[\d.]+ │", row), row  # support, predicted, precision still shown
    else:
        assert LONG in text


@pytest.mark.parametrize("args", [
    ["compare", "--bootstrap", "200", "--seed", "1"], ["compare", "--bootstrap", "200", "--seed", "1", "--json"],
])
def test_compare(files, args) -> None:
    res = runner.invoke(app, [args[0], str(files["sys\x1b[31mA"]), str(files["b"]), *args[1:]])
    assert res.exit_code == 0, res.stderr
    _safe(res)


@pytest.mark.parametrize("extra", [[], ["--explain"], ["--json"]])
def test_recommend_and_ask_with_hostile_data(files, tmp_path, extra) -> None:
    res = runner.invoke(app, ["recommend", "--answers", str(files["answers"]), "--data", str(files["b"]), *extra])
    assert res.exit_code == 0, res.stderr
    _safe(res)
    if not extra:
        res = runner.invoke(app, ["ask", "--out", str(tmp_path / "a.yaml"), "--data", str(files["b"])],
                            input="\n" * 60)
        assert res.exit_code == 0, res.stderr
        assert LONG[:200] not in _safe(res)


@pytest.mark.parametrize("fmt", ["md", "tex", "html", "json", "pdf"])
def test_report_in_every_format_escapes_and_fetches_nothing(files, server, fmt) -> None:
    port, hits = server
    out = files["folder"] / f"report.{fmt}"
    res = runner.invoke(app, ["report", "--answers", str(files["answers"]), str(files["sys\x1b[31mA"]),
                              str(files["b"]), "--bootstrap", "200", "--seed", "1", "-o", str(out), "--force"])
    assert res.exit_code == 0, res.stderr
    _safe(res)
    assert hits == []  # nothing was fetched, whatever the format
    if fmt == "pdf":
        assert out.read_bytes().startswith(b"%PDF")
        return
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        return  # the context keeps every label whole; JSON escapes what needs escaping
    assert not ACTING.search(text), repr(ACTING.search(text).group())
    assert LONG[:200] not in text
    if fmt == "html":
        assert not re.search(r"<(img|script|link)\b", text) and "<style>@import" not in text
    if fmt == "md":
        assert not re.search(r"(?<!\\)<(img|script|style)", text)  # every < of a label is escaped
    if fmt == "tex":
        assert r"\input{" not in text and "\\\\[UNK]" not in text


def test_methods_explain_and_audit_with_hostile_queries(files) -> None:
    for args in (["methods", "--answers", str(files["answers"])], ["explain", "\x1b]0;pwned\x07mcc"],
                 ["explain", LONG], ["audit", "-m", "\x1b[2Jx"]):
        res = runner.invoke(app, args)
        assert res.exit_code in (0, 2), res.stderr
        _safe(res)
