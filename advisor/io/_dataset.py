"""The :class:`Dataset`: everything a run needs from its inputs, read in one pass per source.

:func:`advisor.load` (:mod:`advisor.io._load`) returns it; every command and the Python API take their
counts, paired items, probability sums, item-level scores and structured inputs from it instead of
reading the files again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import ConfusionMatrix, Label

if TYPE_CHECKING:  # pragma: no cover - annotations only (the readers that build a Dataset import this module)
    from ..engine import JointCounts
    from ._items import ScoredFile
    from ._predset import PredictionSet
    from ._structures import StructuredInputs

__all__ = ["Dataset", "SourceInfo"]


@dataclass
class SourceInfo:
    """One input as it was read.

    Attributes
    ----------
    what : str
        The path, ``the SQL query`` or ``the DataFrame``.
    kind : str
        ``predictions``, ``matrix`` or ``counts`` (what the input holds), and how it came: see ``origin``.
    origin : str
        ``file``, ``sql`` or ``frame``.
    format : str
        ``csv``, ``tsv``, ``jsonl``, ``parquet``, ``json`` (a matrix), ``sql`` or ``table``.
    compression : str or None
        ``gzip`` or ``zstd``.
    columns : list of str
        The columns advisor read from it (labels, ids, scores, structure columns); other columns of a file
        are never materialised.
    query : str or None
        The ``sql=`` query, as given.
    systems : list of str
        The systems read from it.
    """

    what: str
    kind: str
    origin: str
    format: str
    compression: str | None = None
    columns: list[str] = field(default_factory=list)
    query: str | None = None
    systems: list[str] = field(default_factory=list)

    @property
    def path(self) -> Path | None:
        return Path(self.what) if self.origin == "file" else None


@dataclass
class Dataset:
    """Everything the later stages need from the inputs of one run.

    Attributes
    ----------
    sources : list of SourceInfo
        Each input: path or query, format, columns read.
    systems : dict of str → ConfusionMatrix
        Per system, its confusion counts (empty for an ordinal, multi-label, top-k or agreement run, and
        for files of true labels and scores without predicted labels).
    predictions : PredictionSet or None
        The paired item structure when every input is a prediction file, a query or a table: the joint
        table of (true label, each system's prediction) that the paired bootstrap resamples, with the
        probability sums. None when matrices or count tables are among the inputs.
    probabilities : dict of str → dict
        ``{system: {"log_loss": …, "brier": …}}`` from the ``p_<label>`` columns, summed in the same pass.
    scores : dict of str → ScoredFile
        Item-level outputs (``score`` or ``p_<label>`` columns), per system that has them, in file order:
        for ROC AUC, average precision, the binary Brier score, the ECE and top-k.
    structured : StructuredInputs or None
        Ordinal, multi-label, top-k or agreement inputs, when the options or the columns ask for them.
    notes : list of str
        What the reader did that the user should know.
    mixed : bool
        Prediction files together with matrices or count tables: the systems are not paired.
    score_only : list of str
        Systems read from files of true labels and scores without a predicted-label column.
    reject_label : label or None
        With ``reject_label=`` (``--reject-label``, issue 23): the label a system writes when it abstains. It is
        no class: ``systems`` hold the items each system answered, ``abstained`` the items it did not.
    abstained : dict of str → float
        With a reject label: per system, the number (mass) of items it abstained on (0 when none).
    """

    sources: list[SourceInfo] = field(default_factory=list)
    systems: dict[str, ConfusionMatrix] = field(default_factory=dict)
    predictions: PredictionSet | None = None
    probabilities: dict[str, dict[str, float]] = field(default_factory=dict)
    scores: dict[str, ScoredFile] = field(default_factory=dict)
    structured: StructuredInputs | None = None
    notes: list[str] = field(default_factory=list)
    mixed: bool = False
    score_only: list[str] = field(default_factory=list)
    reject_label: Any = None
    abstained: dict[str, float] = field(default_factory=dict)

    def coverage(self) -> dict[str, float]:
        """Per system, the share of the items it answered (1.0 without a reject label)."""
        out = {}
        for name, cm in self.systems.items():
            off = float(self.abstained.get(name, 0.0))
            total = float(cm.n) + off
            out[name] = float(cm.n) / total if total > 0 else float("nan")
        return out

    @property
    def labels(self) -> tuple[Label, ...]:
        """The classes shared by the systems (the structured inputs' when structured)."""
        if self.structured is not None:
            return tuple(self.structured.labels)
        first = next(iter(self.systems.values()), None)
        return tuple(first.labels) if first is not None else ()

    @property
    def joint(self) -> JointCounts | None:
        """The joint table of paired systems (:class:`~advisor.engine._joint.JointCounts`), or None."""
        return self.predictions.joint if self.predictions is not None else None

    @property
    def n_items(self) -> int:
        if self.predictions is not None:
            return int(self.predictions.n_items)
        first = next(iter(self.systems.values()), None)
        return int(first.n) if first is not None else 0

    @property
    def data(self) -> PredictionSet | dict[str, ConfusionMatrix]:
        """The predictions if paired, else the matrices by system: what ``recommend`` and ``build_report`` take."""
        return self.predictions if self.predictions is not None else self.systems

    @property
    def log_loss_zero(self) -> dict[str, int]:
        return dict(getattr(self.predictions, "log_loss_zero", {}) or {})
