r"""Agreement among two or more annotators without a gold standard: Fleiss' κ and Krippendorff's α.

Ratings are a table ``(items, raters)`` of category indices ``0 … C−1`` with ``-1`` for a missing rating.
With ``n_uc`` the number of ratings of category *c* for item *u* and ``m_u = Σ_c n_uc``:

* **Fleiss' κ** (Fleiss 1971; every item rated by the same number m ≥ 2 of raters):
  ``P_u = (Σ_c n_uc² − m) / (m (m − 1))``, ``P̄ = mean_u P_u``, ``p_c = Σ_u n_uc / (N m)``,
  ``P_e = Σ_c p_c²``, ``κ = (P̄ − P_e) / (1 − P_e)``.
* **Krippendorff's α** (Krippendorff 2011; Hayes & Krippendorff 2007; missing ratings allowed): the
  coincidence matrix ``o_ck = Σ_{u: m_u ≥ 2} (n_uc n_uk − [c = k] n_uc) / (m_u − 1)``, ``n_c = Σ_k o_ck``,
  ``n = Σ_c n_c``; ``α = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck`` with the nominal distance
  ``δ²_ck = [c ≠ k]`` or the ordinal one ``δ²_ck = (Σ_{g=c}^{k} n_g − (n_c + n_k)/2)²`` (categories in order).

Both take item weights ``(..., items)`` — the bootstrap's resampling counts. Undefined (every rating
in one category: no variation to agree on): ``zero`` → 0, ``baseline`` → 1, ``omit`` → NaN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._exceptions import InputError
from .._format import few_names
from ._components import MetricResult, UndefinedValue
from ._metrics import compute_metrics
from ._structure_args import resolve_ids

__all__ = ["AGREEMENT_METRICS", "Ratings", "agreement_metrics", "ratings_table"]

AGREEMENT_METRICS: tuple[str, ...] = ("fleiss_kappa", "krippendorff_alpha", "krippendorff_alpha_ordinal")
_FILL = {"zero": 0.0, "baseline": 1.0, "omit": np.nan}


@dataclass(frozen=True)
class Ratings:
    """Category counts per item ``n_uc`` (items × categories), the raters and the category names."""

    counts: np.ndarray
    raters: tuple[str, ...]
    categories: tuple[Any, ...]
    codes: np.ndarray  # (items, raters) category index, −1 = missing
    ordered: bool = True  # whether the categories' order is known (given, or every label a number)

    @property
    def level(self) -> str:
        """The level of measurement the ratings support here: ``ordinal`` or ``nominal``."""
        return "ordinal" if self.ordered else "nominal"


def ratings_table(ratings: Any, raters: Sequence[str] | None = None, categories: Sequence[Any] | None = None
                  ) -> Ratings:
    """Ratings ``(items, raters)`` of category labels (None/NaN/"" = missing) → :class:`Ratings`.

    ``categories`` fixes the category order (needed for the ordinal α). Without it numeric labels are
    put in numeric order; other labels are sorted only to index them, and the table is marked as
    unordered (nominal level of measurement), so the ordinal α is refused rather than computed on an
    alphabetical order.

    >>> r = ratings_table([["a", "a", None], ["b", "a", "b"]], ["x", "y", "z"])
    >>> r.counts.tolist(), r.categories, r.level
    ([[2.0, 0.0], [1.0, 2.0]], ('a', 'b'), 'nominal')
    >>> ratings_table([[2, 10], [10, 10]]).categories, ratings_table([["lo", "hi"]], categories=["lo", "hi"]).level
    (('2', '10'), 'ordinal')
    """
    rows = [list(r) for r in ratings]
    if not rows:
        raise InputError("the ratings table has no items.")
    width = len(rows[0])
    if width < 2 or any(len(r) != width for r in rows):
        raise InputError("the ratings table needs one column per annotator (at least two) and the same number in every row.")
    names = tuple(raters) if raters is not None else tuple(f"rater_{i + 1}" for i in range(width))
    cells = [[_missing(v) for v in r] for r in rows]
    for j, name in enumerate(names):
        if all(r[j] is None for r in cells):
            raise InputError(f"annotator column {name!r} has no ratings; drop it or fill in its ratings.")
    seen = sorted({str(v) for r in cells for v in r if v is not None}, key=_natural)
    cats = tuple(categories) if categories is not None else tuple(seen)
    index = {str(c): i for i, c in enumerate(cats)}
    bad = [v for v in seen if v not in index]
    if bad:
        raise InputError(f"a rating {bad[0]!r} is not among the categories {few_names(cats)}.")
    codes = np.array([[-1 if v is None else index[str(v)] for v in r] for r in cells], dtype=np.int64)
    ordered = categories is not None or all(_natural(v)[0] == 0 for v in seen)
    return ratings_from_codes(codes, len(cats), names, cats, ordered=ordered)


def ratings_from_codes(codes: np.ndarray, n_categories: int | None = None, raters: Sequence[str] | None = None,
                        categories: Sequence[Any] | None = None, *, ordered: bool = True) -> Ratings:
    """:class:`Ratings` from category indices ``(items, raters)`` with −1 for a missing rating."""
    c = n_categories if n_categories is not None else max(int(codes.max()) + 1, 1)
    counts = np.zeros((codes.shape[0], c))
    for j in range(codes.shape[1]):
        ok = codes[:, j] >= 0
        np.add.at(counts, (np.flatnonzero(ok), codes[ok, j]), 1.0)
    names = tuple(raters) if raters is not None else tuple(f"rater_{i + 1}" for i in range(codes.shape[1]))
    return Ratings(counts, names, tuple(categories) if categories is not None else tuple(range(c)), codes, ordered)


def _missing(v: Any) -> Any:
    if v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and v.strip() == ""):
        return None
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def _natural(s: str) -> tuple[int, float | str]:
    try:
        return (0, float(s))
    except ValueError:
        return (1, s)


def _fleiss(n_uc: np.ndarray, w: np.ndarray, convention: str) -> tuple[np.ndarray, np.ndarray]:
    m = n_uc.sum(1)
    if m.size and (m.min() != m.max() or m[0] < 2):
        raise InputError("fleiss_kappa needs every item rated by the same number (≥ 2) of annotators; with missing "
                         "ratings use krippendorff_alpha.")
    mm = float(m[0])
    p_u = ((n_uc**2).sum(1) - mm) / (mm * (mm - 1))
    total = w.sum(-1)
    p_bar = (w @ p_u) / total
    p_c = (w @ n_uc) / (total[..., None] * mm)
    p_e = (p_c**2).sum(-1)
    undef = p_e >= 1.0 - 1e-12
    return np.where(undef, _FILL[convention], (p_bar - p_e) / np.where(undef, 1.0, 1.0 - p_e)), undef


def _coincidences(n_uc: np.ndarray, w: np.ndarray) -> np.ndarray:
    m = n_uc.sum(1)
    ok = m >= 2
    u = n_uc[ok]
    q = (u[:, :, None] * u[:, None, :] - np.einsum("uc,ck->uck", u, np.eye(u.shape[1]))) / (m[ok] - 1)[:, None, None]
    return np.tensordot(w[..., ok], q, axes=([-1], [0]))  # (..., C, C)


def _alpha(o: np.ndarray, ordinal: bool, convention: str) -> tuple[np.ndarray, np.ndarray]:
    nc = o.sum(-1)
    n = nc.sum(-1)
    c = nc.shape[-1]
    if ordinal:
        cum = np.cumsum(nc, -1)
        lo = np.minimum.outer(np.arange(c), np.arange(c))
        hi = np.maximum.outer(np.arange(c), np.arange(c))
        between = cum[..., hi] - np.where(lo > 0, cum[..., np.maximum(lo - 1, 0)], 0.0)
        delta = (between - (nc[..., :, None] + nc[..., None, :]) / 2.0) ** 2
    else:
        delta = np.broadcast_to(1.0 - np.eye(c), o.shape)
    d_o = (o * delta).sum((-2, -1))
    d_e = (nc[..., :, None] * nc[..., None, :] * delta).sum((-2, -1))
    undef = d_e <= 1e-12 * np.maximum(n, 1.0) ** 2
    return np.where(undef, _FILL[convention], 1.0 - (n - 1) * d_o / np.where(undef, 1.0, d_e)), undef


def _evaluate(r: Ratings, ids: Sequence[str], convention: str, weights: np.ndarray | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    w = np.ones(r.counts.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    out: dict[str, np.ndarray] = {}
    ev: dict[str, np.ndarray] = {}
    if "fleiss_kappa" in ids:
        out["fleiss_kappa"], ev["fleiss_kappa"] = _fleiss(r.counts, w, convention)
    if "krippendorff_alpha" in ids or "krippendorff_alpha_ordinal" in ids:
        o = _coincidences(r.counts, w)
        for mid, ordinal in (("krippendorff_alpha", False), ("krippendorff_alpha_ordinal", True)):
            if mid in ids:
                out[mid], ev[mid] = _alpha(o, ordinal, convention)
    return out, ev


def evaluate_agreement_batch(r: Ratings, ids: Sequence[str], weights: np.ndarray,
                             undefined: str = "zero") -> dict[str, np.ndarray]:
    """Fast path for the bootstrap: item weights ``(B, items)``; no provenance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _evaluate(r, ids, undefined, weights)[0]


def agreement_metrics(data: Ratings | Any, metrics: Sequence[str] | None = None, *, raters: Sequence[str] | None = None,
                      categories: Sequence[Any] | None = None, undefined: str = "zero") -> MetricResult:
    """Fleiss' κ and Krippendorff's α (nominal; ``krippendorff_alpha_ordinal`` on the category order).

    Fleiss' κ is left out by default when ratings are missing (it needs complete rows); the ordinal α
    when the categories have no known order (labels that are not numbers and no ``categories`` given):
    asking for it then is an error that says how to give the order.

    >>> r = agreement_metrics([[1, 1, 1], [1, 2, 2], [3, 3, 3], [2, 2, 1]])
    >>> round(r["fleiss_kappa"], 6), round(r["krippendorff_alpha"], 6)
    (0.489362, 0.531915)
    """
    r = data if isinstance(data, Ratings) else ratings_table(data, raters, categories)
    complete = bool(np.all(r.codes >= 0))
    ids = resolve_ids(metrics, undefined, AGREEMENT_METRICS, "an agreement",
                      default=[m for m in AGREEMENT_METRICS if (complete or m != "fleiss_kappa")
                               and (r.ordered or m != "krippendorff_alpha_ordinal")])
    if not r.ordered and "krippendorff_alpha_ordinal" in ids:
        raise InputError(f"krippendorff_alpha_ordinal needs the order of the categories "
                         f"{few_names(r.categories)}, which are not numbers; give it from lowest to highest "
                         "(--order A,B,C, or classes with label_structure: ordinal in the answers, or categories= in "
                         "Python).")
    if (r.counts.sum(1) >= 2).sum() == 0:
        raise InputError("no item has two or more ratings, so there is no agreement to measure.")
    with np.errstate(invalid="ignore", divide="ignore"):
        vals, ev = _evaluate(r, ids, undefined)
    res = {"zero": "0", "baseline": "1 (maximal agreement)", "omit": "not reported"}[undefined]
    records = [UndefinedValue(m, "chance disagreement", None, "every rating is in the same category", res,
                              None if np.isnan(vals[m]) else float(vals[m])) for m in ids if bool(ev[m])]
    return MetricResult({m: float(vals[m]) for m in ids}, records, undefined, r.categories, None, 1.0)


def pairwise_kappa(r: Ratings) -> dict[str, float | None]:
    """Cohen's kappa of every pair of annotators on the items both rated (``"a | b"`` → κ or None).

    >>> pairwise_kappa(ratings_table([["x", "x", "y"], ["y", "y", "y"], ["x", "y", "x"]], ["a", "b", "c"]))["a | b"]
    0.4
    """
    c = len(r.categories)
    out: dict[str, float | None] = {}
    for i in range(len(r.raters)):
        for j in range(i + 1, len(r.raters)):
            both = (r.codes[:, i] >= 0) & (r.codes[:, j] >= 0)
            key = f"{r.raters[i]} | {r.raters[j]}"
            if not both.any() or c < 2:
                out[key] = None
                continue
            m = np.zeros((c, c))
            np.add.at(m, (r.codes[both, i], r.codes[both, j]), 1.0)
            out[key] = float(compute_metrics(m, ["cohen_kappa"])["cohen_kappa"])
    return out
