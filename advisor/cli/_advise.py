"""``advisor ask`` (the interactive questionnaire) and ``advisor recommend``."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

import typer

from ._common import echo, echo_json, fail, handle_errors


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
    app.command("recommend")(recommend)


_DATA_HELP = "Prediction file (CSV, TSV, JSON Lines, Parquet), one per system; repeatable."
_MATRIX_HELP = "A confusion matrix (CSV with labels, or JSON); repeatable."


def _read_data(files: list[Path], matrices: list[Path], true_col: str | None, pred_col: str | None) -> Any:
    """Predictions and/or matrices → what :func:`advisor.recommend` takes as ``data`` (None if nothing)."""
    from ..io._readers import load_inputs

    if not files and not matrices:
        return None
    return load_inputs(files, matrices, true_col=true_col, pred_col=pred_col).data


def _write_new(path: Path, text: str, force: bool) -> None:
    """Write ``text`` atomically (temporary file + rename); never replace a file unless ``force``."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        if force:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)  # fails if path exists: no race with a file created meanwhile
            os.unlink(tmp)
    except FileExistsError:
        os.unlink(tmp)
        raise fail(f"{path} already exists; pass --force to overwrite it or --out to choose another file.") from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
) -> None:
    """Describe your evaluation situation, question by question, and get a justified metric choice.

    Enter accepts the default in brackets, '?' explains why a question matters. With --data the
    task, the classes and the balance are read from the data and only need confirming. Every
    answer is kept in <out>.draft as it is given: after Ctrl-C, continue with --resume.
    """
    from ..questionnaire import answers_to_yaml, load_rules, recommend
    from ..questionnaire._ask import ask_questions, inferred_answers, wrap_for_terminal
    from ..questionnaire._draft import draft_path, load_draft, remove_draft, save_draft
    from ..questionnaire._infer import summarize

    if out.is_dir():
        raise fail(f"--out {out} is a directory; give a file name.")
    if out.exists() and any(src.exists() and os.path.samefile(out, src) for src in [*(data or []), *(matrix or [])]):
        raise fail(f"--out {out} is one of the input files; choose another file for the answers.")
    if out.exists() and not force:
        raise fail(f"{out} already exists; pass --force to overwrite it or --out to choose another file.")
    folder = out.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):  # say so now, not after every question
        why = "does not exist" if not folder.is_dir() else "is not writable"
        raise fail(f"cannot save the answers to {out}: the folder {folder} {why}.")
    draft = draft_path(out)
    if not resume and (draft.exists() or draft.is_symlink()):
        raise fail(f"unfinished answers are kept in {draft}: continue them with --resume, or delete that file "
                   "to start afresh.")
    given = load_draft(draft) if resume else None
    loaded = _read_data(data or [], matrix or [], true_col, pred_col)
    inferred = None
    if loaded is not None:
        inferred = inferred_answers(summarize(loaded), load_rules().settings.balance_ratio)
    echo("Describe your evaluation situation. Enter accepts the [default]; '?' explains a question.")
    if given:
        echo(f"Resuming: {len(given)} answers kept in {draft}.")
    kept = {"n": len(given or {})}

    def keep(so_far: dict[str, Any]) -> None:
        save_draft(draft, so_far)
        kept["n"] = len(so_far)

    try:
        columns = shutil.get_terminal_size().columns
        answers = ask_questions(_read_line, lambda text: echo(wrap_for_terminal(text, columns)), inferred,
                                given=given, on_answer=keep)
    except (KeyboardInterrupt, EOFError) as exc:
        interrupted = isinstance(exc, KeyboardInterrupt)
        what = "interrupted" if interrupted else "the input ended before every question was answered"
        where = (f"your {kept['n']} answers so far are kept in {draft}; continue with: advisor ask --out {out} --resume"
                 if kept["n"] else "no answer was given yet, so nothing was saved")
        echo("")
        raise fail(f"{what}; {where}.", 130 if interrupted else 2) from None
    _write_new(out, answers_to_yaml(answers), force)
    remove_draft(draft)
    echo(f"\nSaved your answers to {out}.\n")
    echo(wrap_for_terminal(recommend(answers, data=loaded).to_text(), columns), nl=False)


@handle_errors
def recommend(
    answers: Path = typer.Option(..., "--answers", "-a", help="Answers file (YAML or JSON), e.g. from `advisor ask`."),
    data: Optional[list[Path]] = typer.Option(None, "--data", show_default=False, help=_DATA_HELP),
    matrix: Optional[list[Path]] = typer.Option(None, "--matrix", show_default=False, help=_MATRIX_HELP),
    true_col: Optional[str] = typer.Option(None, "--true-col", show_default=False, help="True-label column (default y_true)."),
    pred_col: Optional[str] = typer.Option(None, "--pred-col", show_default=False, help="Predicted-label column (default y_pred)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    explain: bool = typer.Option(False, "--explain", help="Add the full reasoning, the duties and the sources."),
) -> None:
    """Recommend a primary metric, what to report beside it and what to avoid — with reasons."""
    from ..questionnaire import load_answers
    from ..questionnaire import recommend as _recommend

    parsed = load_answers(answers)
    loaded = _read_data(data or [], matrix or [], true_col, pred_col)
    rec = _recommend(parsed, data=loaded)
    if as_json:
        echo_json(rec.to_json_dict())
    else:
        echo(rec.to_explain_text() if explain else rec.to_text(), nl=False)
