"""``advisor metrics``, ``advisor explain`` and ``advisor audit``: the metric catalogue on the command line."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from .. import catalogue as catalogue_api
from .. import report as report_api
from .._exceptions import UnknownMetricError
from ._common import QUIET_HELP, echo, echo_json, fail, handle_errors, print_markdown, to_json
from ._progress import job

#: The audit's usual budget (random matrices per property and class count).
AUDIT_BUDGET = 300

_FORMATS_METRICS = ("table", "md", "json")
_FORMATS_EXPLAIN = ("text", "md", "tex", "json")


def _write_or_print(text: str, out: Path | None, force: bool) -> None:
    """Print ``text``, or write it to ``out`` by the checked path every output takes
    (:func:`advisor.report._safe_io.write_outputs`): a regular file only, no overwrite without
    --force (an exclusive create), never half a file."""
    if out is None:
        echo(text, nl=not text.endswith("\n"))
        return
    if (out.exists() or out.is_symlink()) and not out.is_dir() and not force:
        raise fail(f"--out {out} already exists; pass --force to overwrite it.")
    parent = out.parent if str(out.parent) else Path(".")
    if not (parent.is_dir() or parent.is_symlink()) and not any(p.is_file() for p in out.parents):
        raise fail(f"--out {out}: the directory {parent} does not exist; create it first.")
    report_api.write_outputs({out: text}, (), force=force)
    echo(f"wrote {out}", err=True)


# The marks of the properties table in one ASCII character each, so its columns stay aligned on a
# terminal that cannot show them (the general fallback spells ✓ as "yes"); "–" (does not apply) → "-".
_ASCII_MARKS = str.maketrans({"✓": "y", "✗": "n", "–": "-"})


def _encodes(text: str) -> bool:
    """Whether standard output's encoding can write ``text`` as it is."""
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def register(app: typer.Typer) -> None:
    @app.command("metrics")
    @handle_errors
    def metrics_cmd(
        json_out: bool = typer.Option(False, "--json", help="Print the catalogue as JSON."),
        fmt: str = typer.Option("table", "--format", "-f",
                                help="table (metrics × properties), md (the reference page) or json."),
        out: Path | None = typer.Option(None, "--out", "-o", help="Write to this file instead of printing."),
        force: bool = typer.Option(False, "--force", help="Allow --out to overwrite an existing file."),
    ) -> None:
        """List every metric with the properties it has (two frameworks, checked against the code)."""
        if json_out:
            fmt = "json"
        if fmt not in _FORMATS_METRICS:
            raise fail(f"--format must be one of {', '.join(_FORMATS_METRICS)}; got {fmt!r}.")
        cat = catalogue_api.get_catalogue()
        if fmt == "json":
            if out is None:
                echo_json(catalogue_api.metrics_json(cat))
                return
            _write_or_print(to_json(catalogue_api.metrics_json(cat)) + "\n", out, force)
            return
        if fmt == "md":
            _write_or_print(catalogue_api.metrics_markdown(cat), out, force)
            return
        table = catalogue_api.metrics_table(cat) + "\n"
        _write_or_print(table if out is not None or _encodes(table) else table.translate(_ASCII_MARKS), out, force)

    @app.command("explain")
    @handle_errors
    def explain_cmd(
        name: str = typer.Argument(..., help="A metric id, name or alias, e.g. 'macro F1', MCC, kappa."),
        fmt: str | None = typer.Option(None, "--format", "-f", show_default=False,
                                       help="text (rendered for the terminal; the default on a terminal), md (the "
                                            "default otherwise), tex or json."),
    ) -> None:
        """Explain what a metric name really computes: formula, meaning, properties, pitfalls, references."""
        if fmt is None:
            fmt = "text" if sys.stdout.isatty() else "md"
        if fmt not in _FORMATS_EXPLAIN:
            raise fail(f"--format must be one of {', '.join(_FORMATS_EXPLAIN)}; got {fmt!r}.")
        res = catalogue_api.resolve_metric(name)
        if fmt == "text":
            print_markdown(catalogue_api.explain_terminal(res))
            return
        text = catalogue_api.explain(res, fmt)
        echo(text, nl=not text.endswith("\n"))

    @app.command("audit")
    @handle_errors
    def audit_cmd(
        budget: int = typer.Option(AUDIT_BUDGET, "--budget", "-b", min=10,
                                   help="Random matrices per property and class count (larger = slower, surer)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the random search."),
        json_out: bool = typer.Option(False, "--json", help="Print every check as JSON."),
        metric: list[str] = typer.Option([], "--metric", "-m", help="Audit only this metric id (repeatable)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
    ) -> None:
        """Re-check every property claim of the catalogue against the implementation (exit 1 if one is refuted)."""
        cat = catalogue_api.get_catalogue()
        ids = []
        for m in metric:  # ids, names or aliases
            try:
                ids.append(catalogue_api.metric_id_for(m))
            except UnknownMetricError:
                raise fail(f"--metric {m!r} is not a metric id or name; run `advisor metrics` for the list.") from None
        metric = ids
        with job("audit", unit="claims", option="--budget", value=budget, usual=AUDIT_BUDGET) as progress:
            report = catalogue_api.audit(budget, seed=seed, metrics=metric or None, progress=progress)
        if json_out:
            echo_json(report.to_dict())
        else:
            echo(report.summary())
        if not report.ok:
            raise typer.Exit(1)
