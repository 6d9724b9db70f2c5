"""``advisor metrics``, ``advisor explain`` and ``advisor audit``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from advisor.catalogue import get_catalogue
from advisor.catalogue._models import PROPERTY_IDS
from advisor.catalogue._render import metrics_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs" / "metrics.md"


def test_metrics_json_has_the_documented_shape(cli):
    res = cli("metrics", "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert list(data) == ["metrics"]
    ids = [m["id"] for m in data["metrics"]]
    assert ids == list(get_catalogue().metrics)
    for m in data["metrics"]:
        assert set(m) == {"id", "name", "aliases", "formula", "higher_is_better", "target", "range", "binary_only",
                          "properties", "references"}
        # a signed metric's best value (the standardized mean difference: 0), else null
        assert m["target"] == (0 if m["id"] == "smd" else None)
        assert list(m["properties"]) == list(PROPERTY_IDS)
        for claim in m["properties"].values():
            assert set(claim) == {"status", "source", "verified", "counterexample", "condition"}
    lr = next(m for m in data["metrics"] if m["id"] == "lr_plus")
    assert lr["range"] == [0.0, "inf"]  # strict JSON: no Infinity literal
    mon = next(m for m in data["metrics"] if m["id"] == "mcc")["properties"]["monotonicity"]
    assert mon["status"] == "binary_only" and mon["counterexample"]["matrices"]


def test_metrics_table_and_markdown(cli, tmp_path):
    res = cli("metrics")
    assert res.exit_code == 0, res.stderr
    assert "balanced_accuracy" in res.stdout and "SMon" in res.stdout
    out = tmp_path / "metrics.md"
    res = cli("metrics", "--format", "md", "--out", out)
    assert res.exit_code == 0, res.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Metric reference") and "## Where the checker disagrees with the papers" in text
    # never overwrite without --force
    res = cli("metrics", "--format", "md", "--out", out)
    assert res.exit_code == 2 and "already exists" in res.stderr
    assert cli("metrics", "--format", "md", "--out", out, "--force").exit_code == 0
    res = cli("metrics", "--format", "pdf")
    assert res.exit_code == 2 and "--format" in res.stderr


def test_metrics_out_is_written_atomically(cli, tmp_path, monkeypatch):
    """A failed write leaves neither half a file nor a temporary file; an existing file is never touched."""
    import os

    out = tmp_path / "metrics.md"
    out.write_text("mine\n", encoding="utf-8")
    res = cli("metrics", "--format", "md", "-o", out)
    assert res.exit_code == 2 and "--force" in res.stderr and "Traceback" not in res.stderr
    assert out.read_text(encoding="utf-8") == "mine\n"

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    res = cli("metrics", "--format", "md", "-o", out, "--force")
    assert res.exit_code == 2 and res.stderr.startswith("error: No space left on device")
    assert out.read_text(encoding="utf-8") == "mine\n"  # the old file survives a failed overwrite
    new = tmp_path / "new.md"
    res = cli("metrics", "--format", "md", "-o", new)
    assert res.exit_code == 2 and not new.exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["metrics.md"]  # no temporary file left behind
    monkeypatch.undo()

    res = cli("metrics", "--format", "md", "-o", new)
    assert res.exit_code == 0, res.stderr
    assert new.read_text(encoding="utf-8") == metrics_markdown(get_catalogue())
    res = cli("metrics", "--format", "md", "-o", tmp_path / "missing" / "x.md")
    assert res.exit_code == 2 and "does not exist" in res.stderr and res.stderr.count("\n") == 1
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "nowhere.md")  # a dangling link is not silently replaced either
    res = cli("metrics", "-o", link)
    assert res.exit_code == 2 and "already exists" in res.stderr and link.is_symlink()
    res = cli("metrics", "-o", tmp_path)
    assert res.exit_code == 2 and "directory" in res.stderr


def test_reference_page_and_explain_state_what_an_unused_class_does(cli):
    from advisor.catalogue._render import ABSENT_CLASSES

    text = DOCS.read_text(encoding="utf-8")
    assert ABSENT_CLASSES in text and "[[0, 5, 0], [5, 0, 0], [0, 0, 0]]" in text
    assert "evaluated as `" in text  # the reduced matrices of counterexamples are shown
    res = cli("explain", "macro F1")
    assert res.exit_code == 0, res.stderr
    assert "truth or the prediction" in res.stdout and "maximal agreement" in res.stdout
    res = cli("explain", "macro_f1", "--format", "tex")
    assert res.exit_code == 0, res.stderr
    assert "truth or the prediction" in res.stdout and "maximal agreement" in res.stdout


def test_committed_reference_page_is_up_to_date():
    assert DOCS.read_text(encoding="utf-8") == metrics_markdown(get_catalogue()), (
        "docs/metrics.md is stale: run `advisor metrics --format md --out docs/metrics.md --force`")


def test_explain_macro_f1_explains_both_candidates(cli):
    res = cli("explain", "macro F1")
    assert res.exit_code == 0, res.stderr
    out = res.stdout
    assert "ambiguous" in out and "`macro_f1`" in out and "`f1_of_averages`" in out
    assert "mean of the per-class F1" in out and "harmonic mean of macro precision and macro recall" in out
    assert out.count("Meaning ") == 2


def test_explain_says_what_misleading_names_compute(cli):
    res = cli("explain", "balanced accuracy weighted")
    assert res.exit_code == 0, res.stderr
    assert "exactly accuracy" in res.stdout and "(`accuracy`)" in res.stdout
    res = cli("explain", "micro F1")
    assert res.exit_code == 0, res.stderr
    assert "equal accuracy" in res.stdout and "(`accuracy`)" in res.stdout
    res = cli("explain", "Macro-F1", "--format", "json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["ambiguous"] and [c["id"] for c in data["candidates"]] == ["macro_f1", "f1_of_averages"]
    assert data["candidates"][0]["properties"]["prevalence_invariance"]["status"] == "after_calibration"


def test_explain_formats_and_errors(cli):
    res = cli("explain", "MCC", "--format", "tex")
    assert res.exit_code == 0
    assert "\\[" in res.stdout and "\\cite{matthews1975comparison" in res.stdout
    res = cli("explain", "kappa")
    assert res.exit_code == 0 and "Cohen's kappa" in res.stdout and "$$" in res.stdout
    res = cli("explain", "macro F2")
    assert res.exit_code == 2
    assert res.stderr.startswith("error: unknown metric name 'macro F2'") and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr
    res = cli("explain", "kappa", "--format", "html")
    assert res.exit_code == 2


def test_explain_escapes_the_query_in_tex(cli):
    res = cli("explain", "macro_f1", "--format", "tex")
    assert res.exit_code == 0 and "macro\\_f1" in res.stdout


def test_audit_command(cli):
    res = cli("audit", "--budget", "20", "--metric", "accuracy", "--metric", "mcc", "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["refuted"] == 0 and data["claims_checked"] == 28
    res = cli("audit", "--budget", "20", "--metric", "nope")
    assert res.exit_code == 2 and "not a metric id" in res.stderr
    res = cli("audit", "--budget", "20", "--metric", "sba")
    assert res.exit_code == 0 and "0 refuted" in res.stdout


def test_cli_module_imports_no_numpy():
    code = ("import sys, advisor.cli._catalogue; "
            "print(any(m == 'numpy' or m.startswith('numpy.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
