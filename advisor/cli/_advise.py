"""``advisor ask`` (the interactive questionnaire) and ``advisor recommend``."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from .. import io as io_api
from .. import plan as plan_api
from .. import questionnaire as questionnaire_api
from .. import report as report_api
from .._exceptions import AdvisorError
from ._common import echo, echo_json, error_message, fail, handle_errors, terminal_columns
from ._report import _check_constraints, _check_selective


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
    app.command("recommend")(recommend)


_DATA_HELP = "Prediction file (CSV, TSV, JSON Lines, Parquet), one per system; repeatable."
_MATRIX_HELP = "A confusion matrix (CSV with labels, or JSON); repeatable."


def _read_data(files: list[Path], matrices: list[Path], true_col: str | None, pred_col: str | None) -> Any:
    """Predictions and/or matrices → what :func:`advisor.recommend` takes as ``data`` (None if nothing)."""
    if not files and not matrices:
        return None
    return io_api.load_inputs(files, matrices, true_col=true_col, pred_col=pred_col).data


def _ask_data(files: list[Path], matrices: list[Path], true_col: str | None, pred_col: str | None,
              label_sep: str | None = None) -> tuple[Any, dict[str, Any] | None, dict[str, str]]:
    """What ``ask --data`` reads: the data for the recommendation, the answers it suggests and the hints it gives.

    Single-label predictions suggest the task, the classes and the balance (numeric classes: a hint that they may
    be ordered, which the labels alone cannot tell). A file of ``rater_<name>`` columns is an agreement study with
    no ``y_true`` (issue 23 item 6); ``y_true``/``y_pred`` holding label sets (``a|b``, or ``--label-sep``) or
    ``true_<l>``/``pred_<l>`` columns are multi-label: they suggest the structure and the labels, the y_true-based
    inference (task, balance) is skipped, and the recommendation is made from the answers alone."""
    if label_sep is not None:
        found = _structured(files, matrices, true_col, pred_col, label_sep)
        if found is None:
            raise fail(f"--label-sep {label_sep!r}: the files hold no label sets (y_true and y_pred columns of one "
                       "system per file); leave --label-sep out for single-label predictions.")
        return None, found, {}
    try:
        loaded = _read_data(files, matrices, true_col, pred_col)
    except AdvisorError:
        found = _structured(files, matrices, true_col, pred_col, None) or \
            _structured(files, matrices, true_col, pred_col, "|")
        if found is None:
            raise
        return None, found, {}
    if loaded is None:
        return None, None, {}
    summary = questionnaire_api.summarize_data(loaded)
    if files and not matrices and any("|" in str(x) for x in summary.labels):  # label sets a|b read as classes
        found = _structured(files, matrices, true_col, pred_col, "|")
        if found is not None:
            return None, found, {}
    return (loaded, questionnaire_api.inferred_answers(summary, questionnaire_api.load_rules().settings.balance_ratio),
            questionnaire_api.data_hints(summary.labels))


def _structured(files: list[Path], matrices: list[Path], true_col: str | None, pred_col: str | None,
                label_sep: str | None) -> dict[str, Any] | None:
    """The answers a structured file suggests (an agreement study, label sets), or None when the files are not
    one (then the nominal reader's own error stands)."""
    if not files or matrices:
        return None
    try:
        ds = io_api.load(list(files), true_col=true_col, pred_col=pred_col, label_sep=label_sep)
    except AdvisorError:
        return None
    if ds.structured is None or (ds.structured.structure == "agreement" and len(files) != 1):
        return None
    return questionnaire_api.structure_answers(ds.structured)


def _answered(so_far: dict[str, Any]) -> int:
    """Answers given so far: a question skipped with Enter (no context, no item name) is kept, not counted."""
    return sum(v is not None for v in so_far.values())


def _save_answers(out: Path, text: str, inputs: list[Path], force: bool, draft: Path) -> None:
    """Write the answers file by the checked safe-write path every output takes
    (:func:`advisor.report._safe_io.write_outputs`): a regular file only, exclusive create without
    ``--force``, nothing half-written. If it fails the draft stays, and the message says where."""
    try:
        report_api.write_outputs({out: text}, inputs, force=force)
    except (AdvisorError, OSError) as exc:
        why = error_message(exc) if isinstance(exc, AdvisorError) else f"{exc.strerror or exc}: {exc.filename or out}"
        raise fail(f"could not save the answers to {out} ({why.rstrip('.')}); every answer is kept in {draft}: "
                   f"continue with: advisor ask --out {out} --resume") from None


def _read_line(prompt: str) -> str:
    """One line from the user; Ctrl-C (KeyboardInterrupt) and end of input (EOFError) propagate."""
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - line editing for input()
        except ImportError:  # pragma: no cover - not on every platform
            pass
    return input(prompt)


@handle_errors
def ask(
    out: Path = typer.Option(Path("answers.yaml"), "--out", "-o", help="Where to save the answers (YAML)."),
    data: Optional[list[Path]] = typer.Option(None, "--data", show_default=False, help=_DATA_HELP),
    matrix: Optional[list[Path]] = typer.Option(None, "--matrix", show_default=False, help=_MATRIX_HELP),
    true_col: Optional[str] = typer.Option(None, "--true-col", show_default=False, help="True-label column (default y_true)."),
    pred_col: Optional[str] = typer.Option(None, "--pred-col", show_default=False, help="Predicted-label column (default y_pred)."),
    force: bool = typer.Option(False, "--force", help="Overwrite --out if it exists."),
    resume: bool = typer.Option(False, "--resume", help="Continue the unfinished answers kept in <out>.draft."),
    label_sep: Optional[str] = typer.Option(
        None, "--label-sep", show_default=False,
        help="Separator of label sets in y_true/y_pred (default: '|' is recognised): multi-label data.",
    ),
) -> None:
    """Describe your evaluation situation, question by question, and get a justified metric choice.

    Enter accepts the default in brackets, '?' explains why a question matters. With --data the
    task, the classes and the balance are read from the data and only need confirming. Every
    answer is kept in <out>.draft as it is given: after Ctrl-C, continue with --resume.
    """
    inputs = [*(data or []), *(matrix or [])]
    if out.exists() and any(src.exists() and os.path.samefile(out, src) for src in inputs):
        raise fail(f"--out {out} is one of the input files; choose another file for the answers.")
    report_api.check_outputs([out], inputs, force=force)  # before the first question: not a device, not a folder, …
    folder = out.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):  # say so now, not after every question
        why = "does not exist" if not folder.is_dir() else "is not writable"
        raise fail(f"cannot save the answers to {out}: the folder {folder} {why}.")
    draft = questionnaire_api.draft_path(out)
    if not resume and (draft.exists() or draft.is_symlink()):
        raise fail(f"unfinished answers are kept in {draft}: continue them with --resume, or delete that file "
                   "to start afresh.")
    given = questionnaire_api.load_draft(draft) if resume else None
    loaded, inferred, hints = _ask_data(data or [], matrix or [], true_col, pred_col, label_sep)
    echo("Describe your evaluation situation. Enter accepts the [default]; '?' explains a question.")
    if given:
        echo(f"Resuming: {_answered(given)} answers kept in {draft}.")
    kept = {"n": _answered(given or {})}

    def keep(so_far: dict[str, Any]) -> None:
        try:  # the checked write every output takes: a regular file only, no temporary file left on a signal
            report_api.atomic_write(draft, questionnaire_api.draft_text(draft, so_far))
        except (AdvisorError, OSError) as exc:
            why = error_message(exc).rstrip(".") if isinstance(exc, AdvisorError) else (exc.strerror or str(exc))
            where = (f"the answers before it ({kept['n']}) are kept there; continue with: advisor ask --out {out} "
                     "--resume" if kept["n"] else "nothing was saved")
            raise fail(f"could not keep your last answer in {draft} ({why}); {where}.") from None
        kept["n"] = _answered(so_far)

    try:
        columns = shutil.get_terminal_size().columns
        answers = questionnaire_api.ask_questions(
            _read_line, lambda text: echo(questionnaire_api.wrap_for_terminal(text, columns)), inferred,
            given=given, on_answer=keep, hints=hints)
    except (KeyboardInterrupt, EOFError) as exc:
        interrupted = isinstance(exc, KeyboardInterrupt)
        what = "interrupted" if interrupted else "the input ended before every question was answered"
        so_far = "your one answer so far is" if kept["n"] == 1 else f"your {kept['n']} answers so far are"
        where = (f"{so_far} kept in {draft}; continue with: advisor ask --out {out} --resume"
                 if kept["n"] else "no answer was given yet, so nothing was saved")
        echo("")
        raise fail(f"{what}; {where}.", 130 if interrupted else 2) from None
    _save_answers(out, questionnaire_api.answers_to_yaml(answers), inputs, force, draft)
    questionnaire_api.remove_draft(draft)
    echo(f"\nSaved your answers to {out}.\n")
    with questionnaire_api.screen_width(columns):  # laid out for the terminal, not re-wrapped after the fact
        echo(questionnaire_api.recommend(answers, data=loaded).to_text(), nl=False)


@handle_errors
def recommend(
    answers: Path = typer.Option(..., "--answers", "-a", help="Answers file (YAML or JSON), e.g. from `advisor ask`."),
    data: Optional[list[Path]] = typer.Option(None, "--data", show_default=False, help=_DATA_HELP),
    matrix: Optional[list[Path]] = typer.Option(None, "--matrix", show_default=False, help=_MATRIX_HELP),
    true_col: Optional[str] = typer.Option(None, "--true-col", show_default=False, help="True-label column (default y_true)."),
    pred_col: Optional[str] = typer.Option(None, "--pred-col", show_default=False, help="Predicted-label column (default y_pred)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    explain: bool = typer.Option(False, "--explain", help="Add the full reasoning, the duties and the sources."),
    costs: Optional[str] = typer.Option(
        None, "--costs", show_default=False,
        help="Error costs: fn=10,fp=1 or a cost-matrix CSV; replaces the answers' costs.",
    ),
    priors: Optional[str] = typer.Option(
        None, "--priors", show_default=False, help="Deployment class shares LABEL=SHARE,…; replaces the answers'.",
    ),
    positive: Optional[str] = typer.Option(
        None, "--positive", show_default=False, help="The class of interest; replaces the answers' positive_class.",
    ),
    max_fpr: Optional[float] = typer.Option(
        None, "--max-fpr", show_default=False, help="False positive rate budget; replaces the answers' fpr_budget.",
    ),
    alerts: Optional[int] = typer.Option(
        None, "--alerts", show_default=False, help="Review budget: K items of the --data test set reviewed.",
    ),
    decision_thresholds: Optional[str] = typer.Option(
        None, "--decision-thresholds", show_default=False, help="Risk thresholds a,b,… at which users act.",
    ),
    coverage: Optional[str] = typer.Option(
        None, "--coverage", show_default=False,
        help="Share of the items a system that abstains answers, in (0, 1]; replaces the answers' target_coverage.",
    ),
    reject_label: Optional[str] = typer.Option(
        None, "--reject-label", show_default=False, help="The label a system writes when it abstains (not a class).",
    ),
) -> None:
    """Recommend a primary metric, what to report beside it and what to avoid — with reasons.

    With --json the whole evaluation plan is printed under "plan": every metric with its parameters,
    the diagnostics, the design, every answer with where it went, and the answers not used ("unused").
    """
    parsed = questionnaire_api.load_answers(answers)
    _check_constraints(max_fpr, alerts, decision_thresholds)  # one sentence naming the option (issue 21)
    _check_selective(coverage, reject_label, parsed)  # issue 23, before reading any data
    options = plan_api.PlanOptions(costs=costs, priors=priors, positive_label=positive, max_fpr=max_fpr, alerts=alerts,
                                   decision_thresholds=decision_thresholds, coverage=coverage,
                                   reject_label=reject_label).check()
    loaded = _read_data(data or [], matrix or [], true_col, pred_col)
    plan = plan_api.make_plan(parsed, data=loaded, options=options)
    if as_json:
        echo_json({"plan": plan.to_json_dict(), **plan.recommendation})
        return
    # a terminal narrower than 100 columns gets lines that fit it
    with questionnaire_api.screen_width(terminal_columns()):
        echo(plan_api.plan_text(plan, explain=explain), nl=False)
