"""The draft of an unfinished questionnaire: every answer is kept as soon as it is given.

``advisor ask --out answers.yaml`` writes the answers given so far to the sibling file
``answers.yaml.draft`` after each question (atomically: a temporary file renamed over the draft,
so an interrupt never leaves half a draft). ``advisor ask --resume`` reads it back and asks only
what is still open; the draft is removed once the answers file is saved.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "answers.yaml"
>>> save_draft(draft_path(out), {"task": "binary", "classes": None, "class_weights": {1: 2.0}})
>>> load_draft(draft_path(out))
{'task': 'binary', 'classes': None, 'class_weights': {1: 2.0}}
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from .._exceptions import InputError, arg
from ._answers import Answers
from ._answers_file import _AnswersLoader

__all__ = ["draft_path", "draft_text", "load_draft", "remove_draft", "save_draft"]

# A draft holds one answer per question; anything larger was not written by advisor.
_MAX_DRAFT_BYTES = 1_000_000


def draft_path(out: Path) -> Path:
    """Where the draft of the answers file ``out`` is kept: ``<out>.draft`` beside it."""
    return out.with_name(out.name + ".draft")


def draft_text(path: Path, answers: dict[str, Any]) -> str:
    """The text of the draft ``path`` holding ``answers`` (a YAML document with a comment header)."""
    header = (f"# advisor ask: unfinished answers ({len(answers)} so far). Continue with\n"
              f"#   advisor ask --out {path.name[:-len('.draft')]} --resume\n")
    return header + yaml.safe_dump(dict(answers), sort_keys=False, allow_unicode=True, width=100)


def save_draft(path: Path, answers: dict[str, Any]) -> None:
    """Write the answers given so far to ``path`` (temporary file + rename: never half a draft)."""
    text = draft_text(path, answers)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def load_draft(path: Path) -> dict[str, Any]:
    """The answers kept in the draft ``path`` (keys checked; values are checked when resumed).

    Raises ``InputError`` in one sentence when there is no draft or it is not one advisor wrote.
    """
    if not path.is_file():
        start = arg("resume", python="start without one", cli="run advisor ask without --resume to start")
        raise InputError(f"there is no draft to resume at {path}; {start}.")
    if path.stat().st_size > _MAX_DRAFT_BYTES:
        raise InputError(f"the draft {path} is larger than {_MAX_DRAFT_BYTES} bytes, so advisor did not write it; "
                         "delete it and start again.")
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_AnswersLoader)  # noqa: S506 - a safe loader
    except (UnicodeDecodeError, yaml.YAMLError):
        data = None
    if data is None:
        data = {}
    if not isinstance(data, dict) or any(k not in Answers.model_fields for k in data):
        raise InputError(f"the draft {path} is not a draft of answers written by advisor ask; delete it and start "
                         "again.")
    return data


def remove_draft(path: Path) -> None:
    """Delete the draft once the answers are saved (no error if it is gone)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
