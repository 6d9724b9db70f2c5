"""Input: prediction files, confusion matrices and count tables to the engine's count tables.

Owns the readers (CSV, TSV, JSON Lines, Parquet, JSON matrices, DataFrames and SQL queries, all
counted by DuckDB) and the naming of several systems.
It may import the engine and the base modules; the engine never reads files.
"""

from __future__ import annotations

from .._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "LoadedInputs": "._readers",
    "PredictionSet": "._readers",
    "evaluate": "._frames",
    "load_inputs": "._readers",
    "read_counts": "._matrices",
    "read_matrix": "._matrices",
    "read_frame": "._frames",
    "read_predictions": "._readers",
    "read_sql": "._frames",
    "load_structured": "._structures",
    "ordinal_from_tables": "._structures",
    "parse_costs": "._costspec",
    "parse_priors": "._costspec",  # ordinal, multi-label, top-k, annotators (issue 12)
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
