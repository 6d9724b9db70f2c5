"""Input: prediction files, confusion matrices and count tables to the engine's count tables.

Owns the one reader, :func:`load` (CSV, TSV, JSON Lines, Parquet — compressed too — DataFrames, Arrow
tables and SQL queries, each read once by DuckDB into a :class:`Dataset`; JSON and CSV confusion
matrices), the thin public wrappers over it and the naming of several systems.
It may import the engine and the base modules; the engine never reads files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "Dataset": "._dataset",
    "load": "._load",
    "with_reject": "._load",
    "LoadedInputs": "._readers",
    "PredictionSet": "._readers",
    "evaluate": "._frames",
    "load_inputs": "._readers",
    "read_counts": "._matrices",
    "read_matrix": "._matrices",
    "read_frame": "._frames",
    "read_predictions": "._readers",
    "read_sql": "._frames",
    "load_structured": "._structured_api",  # ordinal, multi-label, top-k, annotators (issue 12)
    "ordinal_from_tables": "._structures",
    "parse_costs": "._costspec",
    "parse_priors": "._costspec",
    # the readers' building blocks that advisor.spark, the report and the CLI share
    "MAX_LABEL_CHARS": "._duck",
    "SCORE_COLUMN": "._items",
    "Scan": "._scan",
    "ScoredFile": "._items",
    "add_scores": "._evaluate_scores",
    "prediction_set": "._predset",
    "read_scored_frame": "._scores",
    "type_labels": "._scan",
    "as_taxonomy": "._taxonomy",
    "hierarchy_inputs": "._taxonomy",
    "hierarchy_of": "._taxonomy",
    "partition_inputs": "._partitions",  # --partitions: cluster ids of two partitions (issue 23 item 3)
    "read_taxonomy": "._taxonomy",
    "taxonomy_summary": "._taxonomy",  # --taxonomy FILE: child,parent rows (issue 23 item 4)
    "watch_reads": "._watch",  # a command shows its long reads (advisor.cli._progress)
    "system_names": "._naming",  # NAME=FILE runs (advisor.cli._runs)
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)


if TYPE_CHECKING:  # pragma: no cover - what the lazy table resolves to, for type checkers (``X as X``: re-exported)
    from ._partitions import partition_inputs as partition_inputs
    from ._load import with_reject as with_reject
    from ._taxonomy import as_taxonomy as as_taxonomy
    from ._taxonomy import hierarchy_of as hierarchy_of
    from ._costspec import parse_costs as parse_costs, parse_priors as parse_priors
    from ._dataset import Dataset as Dataset
    from ._duck import MAX_LABEL_CHARS as MAX_LABEL_CHARS
    from ._evaluate_scores import add_scores as add_scores
    from ._frames import evaluate as evaluate, read_frame as read_frame, read_sql as read_sql
    from ._items import SCORE_COLUMN as SCORE_COLUMN, ScoredFile as ScoredFile
    from ._load import load as load
    from ._matrices import read_counts as read_counts, read_matrix as read_matrix
    from ._naming import system_names as system_names
    from ._predset import prediction_set as prediction_set
    from ._readers import (
        LoadedInputs as LoadedInputs,
        PredictionSet as PredictionSet,
        load_inputs as load_inputs,
        read_predictions as read_predictions,
    )
    from ._scan import Scan as Scan, type_labels as type_labels
    from ._scores import read_scored_frame as read_scored_frame
    from ._structured_api import load_structured as load_structured
    from ._structures import ordinal_from_tables as ordinal_from_tables
    from ._taxonomy import (
        hierarchy_inputs as hierarchy_inputs,
        read_taxonomy as read_taxonomy,
        taxonomy_summary as taxonomy_summary,
    )
    from ._watch import watch_reads as watch_reads
