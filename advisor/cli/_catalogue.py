"""``advisor metrics``, ``advisor explain`` and ``advisor audit``: the metric catalogue on the command line."""

from __future__ import annotations

from pathlib import Path

import typer

from ._progress import job
from ._common import QUIET_HELP, echo, echo_json, fail, handle_errors, print_markdown

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
    from ..report._safe_io import write_outputs

    write_outputs({out: text}, (), force=force)
    echo(f"wrote {out}", err=True)


# The marks of the properties table in one ASCII character each, so its columns stay aligned on a
# terminal that cannot show them (the general fallback spells ✓ as "yes"); "–" (does not apply) → "-".
_ASCII_MARKS = str.maketrans({"✓": "y", "✗": "n", "–": "-"})


def _encodes(text: str) -> bool:
    """Whether standard output's encoding can write ``text`` as it is."""
    import sys

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
        from ..catalogue import get_catalogue

        cat = get_catalogue()
        if fmt == "json":
            from ..catalogue._render import metrics_json

            if out is None:
                echo_json(metrics_json(cat))
                return
            from ._common import to_json

            _write_or_print(to_json(metrics_json(cat)) + "\n", out, force)
            return
        if fmt == "md":
            from ..catalogue._render import metrics_markdown

            _write_or_print(metrics_markdown(cat), out, force)
            return
        from ..catalogue._terminal import metrics_table

        table = metrics_table(cat) + "\n"
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
        import sys

        if fmt is None:
            fmt = "text" if sys.stdout.isatty() else "md"
        if fmt not in _FORMATS_EXPLAIN:
            raise fail(f"--format must be one of {', '.join(_FORMATS_EXPLAIN)}; got {fmt!r}.")
        from ..catalogue import resolve_metric
        from ..catalogue._render import explain

        res = resolve_metric(name)
        if fmt == "text":
            from ..catalogue._terminal import explain_terminal

            print_markdown(explain_terminal(res))
            return
        text = explain(res, fmt)
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
        from ..catalogue import audit, get_catalogue

        from .._exceptions import UnknownMetricError
        from ..catalogue._names import metric_id_for

        cat = get_catalogue()
        ids = []
        for m in metric:  # ids, names or aliases
            try:
                ids.append(metric_id_for(m))
            except UnknownMetricError:
                raise fail(f"--metric {m!r} is not a metric id or name; run `advisor metrics` for the list.") from None
        metric = ids
        with job("audit", unit="claims", option="--budget", value=budget, usual=AUDIT_BUDGET) as progress:
            report = audit(budget, seed=seed, metrics=metric or None, progress=progress)
        if json_out:
            echo_json(report.to_dict())
        else:
            echo(report.summary())
        if not report.ok:
            raise typer.Exit(1)
