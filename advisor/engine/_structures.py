"""The registry of metrics for tasks that are not single-label nominal classification.

Ordinal (:mod:`._ordinal`), multi-label (:mod:`._multilabel`), top-k (:mod:`._topk`), agreement
(:mod:`._agreement`), partition (:mod:`._partition`, cluster ids of two clusterings) and hierarchy
(:mod:`._hierarchy`, classes in a taxonomy) metrics are not computed from a nominal confusion matrix, so they stay out of
:data:`advisor.engine.METRICS` (and out of ``compute_metrics``' defaults); this table tells the
catalogue loader their ids, orientation and structure, the same way ``METRICS`` does for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError, arg
from .._format import few_names
from ._agreement import (
    AGREEMENT_METRICS,
    MAX_PAIRWISE_RATERS,
    Ratings,
    agreement_metrics,
    kappa_pairs,
    kappa_summary,
    pairwise_kappa,
)
from ._hierarchy import HIERARCHY_METRICS, HierarchyCells, hierarchy_metrics, hierarchy_tables
from ._multilabel import MULTILABEL_METRICS, MULTILABEL_SCORE_METRICS, LabelSets, multilabel_metrics, per_label_metrics
from ._ordinal import ORDINAL_ASKED, ORDINAL_METRICS, ORDINAL_SIGNED, OrdinalCells, _class_sums, ordinal_metrics
from ._partition import PARTITION_INDICES, PARTITION_METRICS, PartitionTable, cluster_sizes, partition_metrics
from ._topk import top_k_accuracy, top_k_hits

__all__ = ["HIERARCHY_BESIDE", "STRUCTURE_METRICS", "STRUCTURES", "StructureSpec", "distance_note", "evaluate_inputs", "evaluate_structure"]

STRUCTURES: tuple[str, ...] = ("ordinal", "multilabel", "top_k", "agreement", "partition", "hierarchy")


@dataclass(frozen=True)
class StructureSpec:
    """The facts the catalogue loader checks (as for :class:`advisor.engine._metrics.MetricSpec`)."""

    id: str
    structure: str
    higher_is_better: bool = True
    binary_only: bool = False
    needs_probabilities: bool = False
    alias_of: str | None = None
    #: a signed metric's best value (the standardized mean difference: 0); ``higher_is_better`` is then False and
    #: speaks of the distance ``|value − target|``
    target: float | None = None


def _table() -> dict[str, StructureSpec]:
    lower = {"mae", "mae_macro", "hamming_loss", "pair_correlation_distance"}
    out: dict[str, StructureSpec] = {}
    for structure, ids in (("ordinal", (*ORDINAL_METRICS, *ORDINAL_ASKED)), ("multilabel", MULTILABEL_METRICS),
                           ("top_k", ("top_k_accuracy",)), ("agreement", AGREEMENT_METRICS),
                           ("partition", PARTITION_INDICES), ("hierarchy", HIERARCHY_METRICS)):
        for mid in ids:
            out[mid] = StructureSpec(mid, structure, higher_is_better=mid not in lower)
    # one figure per level of a taxonomy (the per-level table, engine.level_accuracies), not one number
    out["level_accuracy"] = StructureSpec("level_accuracy", "hierarchy")
    for mid in MULTILABEL_SCORE_METRICS:  # a score per label of every item
        out[mid] = StructureSpec(mid, "multilabel", needs_probabilities=True)
    for mid in ORDINAL_SIGNED:
        out[mid] = StructureSpec(mid, "ordinal", higher_is_better=False, target=0.0)
    return out


STRUCTURE_METRICS: dict[str, StructureSpec] = _table()


NOMINAL_BESIDE = ("accuracy", "balanced_accuracy")
#: reported beside the partition indices when the author plans them (computed on request, not by default): NMI, the
#: customary figure of topic clustering, not corrected for chance, and purity with inverse purity, which text-clustering
#: studies report together (purity alone rewards over-splitting, inverse purity over-merging)
PARTITION_BESIDE = ("normalized_mutual_info", "purity", "inverse_purity")
#: the flat metrics beside the hierarchical ones: also macro F1, which a product-taxonomy author plans for comparison
#: with flat results (each class weighs the same, whereas accuracy weighs the items)
HIERARCHY_BESIDE = (*NOMINAL_BESIDE, "macro_f1")


def reported_ids(structure: str) -> tuple[str, ...]:
    """The metric ids an evaluation of this structure reports (:func:`evaluate_structure`'s values).

    >>> reported_ids("top_k")
    ('top_k_accuracy', 'accuracy')
    """
    return {"ordinal": (*ORDINAL_METRICS, *ORDINAL_ASKED, *NOMINAL_BESIDE), "multilabel": (*MULTILABEL_METRICS, *MULTILABEL_SCORE_METRICS),
            "top_k": ("top_k_accuracy", "accuracy"), "agreement": AGREEMENT_METRICS,
            "partition": (*PARTITION_METRICS, *PARTITION_BESIDE),
            "hierarchy": (*HIERARCHY_METRICS, *HIERARCHY_BESIDE)}.get(structure, ())


def nominal_beside(cells: Any, ids: Sequence[str] = NOMINAL_BESIDE,
                   undefined: str = DEFAULT_CONVENTION) -> dict[str, Any]:
    """Accuracy and macro recall (over the classes in the truth) of ordinal or hierarchy cells, ``counts``
    ``(..., nnz)``; with ``"macro_f1"`` in ``ids``, also macro F1: the mean of ``2·TP_c / (2·TP_c + FP_c + FN_c)``
    over the classes of the table, a class in neither the truth nor the predictions (0/0) resolved as the nominal
    engine resolves it under ``undefined``: left out of the mean (``omit``, the default), 0 (``zero``) or 1
    (``baseline``).

    Reported beside the ordinal or hierarchical metrics, never instead (``evaluate_structure``, the bootstrap).
    """
    import numpy as np

    w = np.asarray(cells.counts, dtype=np.float64)
    diag = cells.rows == cells.cols
    a = _class_sums(cells.rows, w, cells.k)
    hit = _class_sums(cells.rows, np.where(diag, w, 0.0), cells.k)
    present = a > 0
    recall = np.where(present, hit / np.where(present, a, 1.0), 0.0)
    out = {"accuracy": (w * diag).sum(-1) / w.sum(-1), "balanced_accuracy": recall.sum(-1) / present.sum(-1)}
    if "macro_f1" in ids:
        b = _class_sums(cells.cols, w, cells.k)  # predicted per class
        some = (a + b) > 0
        fill = {"zero": 0.0, "baseline": 1.0}.get(undefined, 0.0)
        f1 = np.where(some, 2 * hit / np.where(some, a + b, 1.0), fill)
        with np.errstate(invalid="ignore", divide="ignore"):
            out["macro_f1"] = f1.sum(-1) / (some.sum(-1) if undefined == "omit" else cells.k)
    return {m: v for m, v in out.items() if m in ids}


def evaluate_structure(data: OrdinalCells | LabelSets | Ratings | HierarchyCells | tuple[Any, Any, Any], *,
                       undefined: str = DEFAULT_CONVENTION, top_k: int | None = None,
                       metrics: list[str] | None = None) -> dict[str, object]:
    """Every metric of one system's structured input: ``{"values": {id: float}, "undefined": [...], ...}``.

    ``data`` is :class:`~._ordinal.OrdinalCells` (ordinal metrics, plus accuracy and macro recall beside
    them), :class:`~._multilabel.LabelSets` (multi-label metrics plus every binary metric per label),
    ``(scores, true_index, labels)`` for top-k (plus top-1 accuracy), :class:`~._agreement.Ratings` or
    :class:`~._partition.PartitionTable` (the partition indices, and ``clusters``: the sizes of each side's clusters).
    """
    import numpy as np

    out: dict[str, object] = {}
    if isinstance(data, PartitionTable):  # two partitions: the partition indices alone, and the clusters' sizes
        out["values"] = partition_metrics(data.counts, [m for m in metrics if m in PARTITION_INDICES] if metrics
                                          else None)
        out["clusters"] = cluster_sizes(data)
        out["undefined"] = []
        return out
    if isinstance(data, HierarchyCells):  # hierarchical metrics, flat accuracy and macro recall beside them
        values = {**hierarchy_metrics(data),
                  **{m: float(v) for m, v in nominal_beside(data, HIERARCHY_BESIDE, undefined).items()}}
        out["values"] = {m: v for m, v in values.items() if not metrics or m in metrics}
        out.update(hierarchy_tables(data))
        out["undefined"] = []
        return out
    if isinstance(data, OrdinalCells):
        res = ordinal_metrics(data, [m for m in metrics if m not in NOMINAL_BESIDE] if metrics else None,
                              undefined=undefined)
        beside = {m: float(v) for m, v in nominal_beside(data, undefined=undefined).items()
                  if not metrics or m in metrics}
        out["values"] = {**res, **beside}
    elif isinstance(data, LabelSets):
        res = multilabel_metrics(data, metrics=metrics, undefined=undefined)
        out["values"] = dict(res)
        out["per_label"] = {str(k): v for k, v in per_label_metrics(data, undefined=undefined).items()}
    elif isinstance(data, Ratings):
        res = agreement_metrics(data, metrics, undefined=undefined)
        out["values"] = dict(res)
    else:
        scores, true_index, labels = data
        if top_k is None:
            raise InputError(f"top-k accuracy needs k, the number of top-scored classes a hit may be among: give {arg('top_k')}.")
        res = top_k_accuracy(scores, true_index, top_k, labels)
        out["values"] = {"top_k_accuracy": res["top_k_accuracy"],
                         "accuracy": float(top_k_hits(scores, true_index, 1).mean())}
        out["k"] = top_k
    out["undefined"] = [u.to_dict() for u in res.undefined]
    return out


def evaluate_inputs(inputs: Any, undefined: str = DEFAULT_CONVENTION, metrics: list[str] | None = None) -> dict[str, Any]:
    """The JSON of ``advisor compute`` for structured inputs (:class:`advisor.io._structures.StructuredInputs`)."""
    data: dict[str, Any] = {"structure": inputs.structure, "systems": list(inputs.systems),
                            "labels": [str(x) for x in inputs.labels], "metrics": {}, "undefined": {}}
    notes = list(getattr(inputs, "notes", None) or [])  # what the reader decided (e.g. a label never predicted)
    for name, d in inputs.systems.items():
        res = evaluate_structure(d, undefined=undefined, top_k=inputs.top_k, metrics=metrics)
        data["metrics"][name] = res["values"]
        data["undefined"][name] = res["undefined"]
        if "per_label" in res:
            data.setdefault("per_label", {})[name] = res["per_label"]
        for key in ("levels", "distances", "clusters"):  # hierarchy: depths, distances; partitions: clusters
            if key in res:
                data.setdefault(key, {})[name] = res[key]
    if inputs.structure == "ordinal":
        data["order"] = data.pop("labels")
        first = next(iter(inputs.systems.values()))
        data["distance"], data["kappa_distance"] = first.distance, first.kappa_distance
        notes.append(distance_note(first))
    if inputs.structure == "top_k":
        data["k"] = inputs.top_k
    if inputs.structure == "agreement":
        r = inputs.systems["agreement"]
        data["n_items"] = int(r.codes.shape[0])
        data["raters"] = {n: int((r.codes[:, j] >= 0).sum()) for j, n in enumerate(r.raters)}
        if len(r.raters) <= MAX_PAIRWISE_RATERS:  # every pair at once (a few matrix products), and their summary
            pairs = kappa_pairs(r, undefined)
            data["pairs"] = pairwise_kappa(r, pairs)
            data["pair_summary"] = kappa_summary(r, pairs=pairs)
        else:
            data["pairs"] = {}
            n = len(r.raters)
            notes.append(f"Cohen's kappa of each pair of annotators is not computed for {n:,} annotators "
                         f"({n * (n - 1) // 2:,} pairs; at most {MAX_PAIRWISE_RATERS:,} annotators are compared in "
                         "pairs): Krippendorff's alpha and Fleiss' kappa measure the agreement of all of them; to "
                         "compare pairs, keep fewer rater_ columns.")
        data["level"] = r.level
        if not r.ordered:
            notes.append(level_note(r))
    if notes:
        data["notes"] = notes
    return data


def distance_note(cells: Any) -> str:
    """The sentence saying how the ordinal metrics measure an error: label values or ranks of the order.

    >>> from ._ordinal import ordinal_cells
    >>> distance_note(ordinal_cells(y_true=[1, 5], y_pred=[2, 5], order=[1, 2, 5], declared=False))[:67]
    'MAE and macro MAE measure each error as the difference of the label'
    """
    import numpy as np

    order = few_names(cells.labels)
    if cells.distance == "ranks":
        return (f"The classes ({order}) are not numbers, so MAE, macro MAE, weighted kappa and adjacent agreement "
                "measure each error in steps of the order (rank distance: neighbouring classes are 1 apart).")
    mae = ("MAE and macro MAE measure each error as the difference of the label values (the classes are numbers: "
           "1 → 4 counts 3 even if nobody chose 2 or 3)")
    adjacent = f" Adjacent agreement counts steps of the order ({order}), whatever the values"
    gaps = np.diff(np.asarray(cells.values, dtype=np.float64))
    if not cells.declared and gaps.size and not np.allclose(gaps, gaps[0]):  # a value nobody chose is no step
        adjacent += ("; the order was inferred from the labels present and its values are unequally spaced, so give "
                     "the full order with --order (or the answers' classes) if a class between them was never "
                     "chosen")
    adjacent += "."
    if cells.kappa_distance == "values":
        return mae + "; weighted kappa weighs disagreements by the same differences." + adjacent
    return (mae + f"; weighted kappa weighs disagreements by their distance in the declared order ({order}), every "
            "declared class counting in the scale as Cohen (1968) defines it." + adjacent)


def level_note(r: Any) -> str:
    """The sentence saying agreement was measured at the nominal level, and how to give the order.

    >>> from ._agreement import ratings_table
    >>> level_note(ratings_table([["lo", "hi"], ["hi", "hi"]]))[:60]
    'Agreement is measured at the nominal level of measurement: t'
    """
    cats = few_names(r.categories)
    return (f"Agreement is measured at the nominal level of measurement: the categories ({cats}) are not numbers and "
            "no order was given, so every disagreement counts alike; if they are ordered, give the order from lowest "
            "to highest with --order (or classes with label_structure: ordinal in the answers) for the ordinal alpha.")
