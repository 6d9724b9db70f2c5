"""Input: prediction files, confusion matrices and count tables to the engine's count tables.

Owns the one reader, :func:`load` (CSV, TSV, JSON Lines, Parquet — compressed too — DataFrames, Arrow
tables and SQL queries, each read once by DuckDB into a :class:`Dataset`; JSON and CSV confusion
matrices), the thin public wrappers over it and the naming of several systems.
It may import the engine and the base modules; the engine never reads files.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "Dataset": "._dataset",
    "load": "._load",
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
    "hierarchy_inputs": "._taxonomy",
    "partition_inputs": "._partitions",  # --partitions: cluster ids of two partitions (issue 23 item 3)
    "read_taxonomy": "._taxonomy",
    "taxonomy_summary": "._taxonomy",  # --taxonomy FILE: child,parent rows (issue 23 item 4)
    "watch_reads": "._watch",  # a command shows its long reads (advisor.cli._progress)
    "system_names": "._naming",  # NAME=FILE runs (advisor.cli._runs)
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
