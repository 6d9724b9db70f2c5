r"""Agreement among two or more annotators without a gold standard: Fleiss' κ and Krippendorff's α.

Ratings are a table ``(items, raters)`` of category indices ``0 … C−1`` with ``-1`` for a missing rating.
With ``n_uc`` the number of ratings of category *c* for item *u* and ``m_u = Σ_c n_uc``:

* **Fleiss' κ** (Fleiss 1971; every item rated by the same number m ≥ 2 of raters):
  ``P_u = (Σ_c n_uc² − m) / (m (m − 1))``, ``P̄ = mean_u P_u``, ``p_c = Σ_u n_uc / (N m)``,
  ``P_e = Σ_c p_c²``, ``κ = (P̄ − P_e) / (1 − P_e)``.
* **Krippendorff's α** (Krippendorff 2011; Hayes & Krippendorff 2007; missing ratings allowed): the
  coincidence matrix ``o_cc' = Σ_{u: m_u ≥ 2} (n_uc n_uc' − [c = c'] n_uc) / (m_u − 1)``, ``n_c = Σ_c' o_cc'``,
  ``n_·· = Σ_c n_c``; ``α = 1 − (n_·· − 1) Σ_cc' o_cc' δ²_cc' / Σ_cc' n_c n_c' δ²_cc'`` with the nominal distance
  ``δ²_cc' = [c ≠ c']`` or the ordinal one ``δ²_cc' = (Σ_{g=min(c,c')}^{max(c,c')} n_g − (n_c + n_c')/2)²``
  (categories numbered in their order; Krippendorff 2011 writes it for c ≤ c', and it is symmetric).

Both take item weights ``(..., items)`` — the bootstrap's resampling counts. Undefined (every rating
in one category: no variation to agree on): ``zero`` → 0, ``baseline`` → 1, ``omit`` → NaN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._conventions import DEFAULT_CONVENTION
from .._exceptions import InputError, arg
from .._format import few_names
from ._components import MetricResult, UndefinedValue
from ._structure_args import as_tuple, resolve_ids

__all__ = ["AGREEMENT_METRICS", "MAX_PAIRWISE_RATERS", "Ratings", "agreement_metrics", "kappa_pairs", "kappa_summary",
           "pairwise_kappa", "ratings_table"]

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
    declared: bool = True  # the order was given (not inferred from numbers): weighted kappa weighs by its ranks

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
    try:
        rows = [list(r) for r in ratings]
    except TypeError:
        raise InputError("the ratings must be a table of one row per item and one column per annotator (a list of "
                         f"lists, an array or a DataFrame); got {type(ratings).__name__}.") from None
    if not rows:
        raise InputError("the ratings table has no items.")
    width = len(rows[0])
    if width < 2 or any(len(r) != width for r in rows):
        raise InputError("the ratings table needs one column per annotator (at least two) and the same number in every row.")
    names = as_tuple(raters, "raters", "annotator names") if raters is not None else tuple(f"rater_{i + 1}" for i in range(width))
    cells = [[_missing(v) for v in r] for r in rows]
    for j, name in enumerate(names):
        if all(r[j] is None for r in cells):
            raise InputError(f"annotator column {name!r} has no ratings; drop it or fill in its ratings.")
    seen = sorted({str(v) for r in cells for v in r if v is not None}, key=_natural)
    cats = as_tuple(categories, "categories", "the categories, lowest first") if categories is not None else tuple(seen)
    index = {str(c): i for i, c in enumerate(cats)}
    bad = [v for v in seen if v not in index]
    if bad:
        raise InputError(f"a rating {bad[0]!r} is not among the categories {few_names(cats)}.")
    codes = np.array([[-1 if v is None else index[str(v)] for v in r] for r in cells], dtype=np.int64)
    ordered = categories is not None or all(_natural(v)[0] == 0 for v in seen)
    return ratings_from_codes(codes, len(cats), names, cats, ordered=ordered, declared=categories is not None)


def ratings_from_codes(codes: np.ndarray, n_categories: int | None = None, raters: Sequence[str] | None = None,
                        categories: Sequence[Any] | None = None, *, ordered: bool = True,
                        declared: bool = True) -> Ratings:
    """:class:`Ratings` from category indices ``(items, raters)`` with −1 for a missing rating."""
    c = n_categories if n_categories is not None else max(int(codes.max()) + 1, 1)
    counts = np.zeros((codes.shape[0], c))
    for j in range(codes.shape[1]):
        ok = codes[:, j] >= 0
        np.add.at(counts, (np.flatnonzero(ok), codes[ok, j]), 1.0)
    names = tuple(raters) if raters is not None else tuple(f"rater_{i + 1}" for i in range(codes.shape[1]))
    return Ratings(counts, names, tuple(categories) if categories is not None else tuple(range(c)), codes, ordered,
                   declared)


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
                             undefined: str = DEFAULT_CONVENTION) -> dict[str, np.ndarray]:
    """Fast path for the bootstrap: item weights ``(B, items)``; no provenance."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return _evaluate(r, ids, undefined, weights)[0]


def agreement_metrics(data: Ratings | Any, metrics: Sequence[str] | None = None, *, raters: Sequence[str] | None = None,
                      categories: Sequence[Any] | None = None, undefined: str = DEFAULT_CONVENTION) -> MetricResult:
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
                         f"({arg('order', python='categories= of agreement_metrics, order= of advisor.load')}, or "
                         "classes with label_structure: ordinal in the answers).")
    if (r.counts.sum(1) >= 2).sum() == 0:
        raise InputError("no item has two or more ratings, so there is no agreement to measure.")
    with np.errstate(invalid="ignore", divide="ignore"):
        vals, ev = _evaluate(r, ids, undefined)
    res = {"zero": "0", "baseline": "1 (maximal agreement)", "omit": "reported as undefined"}[undefined]
    records = [UndefinedValue(m, "chance disagreement", None, "every rating is in the same category", res,
                              None if np.isnan(vals[m]) else float(vals[m])) for m in ids if bool(ev[m])]
    return MetricResult({m: float(vals[m]) for m in ids}, records, undefined, r.categories, None, 1.0)


#: Pairwise kappas are computed for at most this many annotators (about two million pairs; each R × R
#: table is then 32 MB): beyond it the study's agreement is Krippendorff's alpha and Fleiss' kappa alone.
MAX_PAIRWISE_RATERS = 2_000


def kappa_pairs(r: Ratings, undefined: str = DEFAULT_CONVENTION) -> tuple[np.ndarray, np.ndarray]:
    """``(kappa, shared)``: Cohen's kappa of every pair of annotators on the items both rated (R × R, NaN where
    they share no item or there are fewer than two categories) and how many items both rated.

    All pairs at once, from products of the one-hot ratings (``X_c``: items × raters, 1 where a rater chose
    category c; ``V``: 1 where a rater rated): items both rated ``n = VᵀV``, agreements ``Σ_c X_cᵀX_c``, and
    the chance term ``Σ_c a_c ∘ a_cᵀ`` with ``a_c = X_cᵀV`` (how often rater i chose c on the items it shares
    with j). Kappa is ``(n·agree − Σ a b) / (n² − Σ a b)`` — every term a whole number below 2^53, so the value
    is the engine's ``cohen_kappa`` of the pair's confusion matrix to the last bit; where the denominator is 0
    (both annotators put every shared item in one and the same category) it is resolved as the engine resolves it
    under ``undefined``: NaN (``omit``, the default), 0 (``zero``) or 1, maximal agreement (``baseline``).
    For 1,000 annotators (499,500 pairs) this is a few matrix products instead of 499,500 evaluations.

    >>> k, n = kappa_pairs(ratings_table([["x", "x", "y"], ["y", "y", "y"], ["x", "y", "x"]], ["a", "b", "c"]))
    >>> round(float(k[0, 1]), 6), int(n[0, 2])
    (0.4, 3)
    """
    codes = np.asarray(r.codes)
    c = len(r.categories)
    # the products count items: whole numbers, exact in float32 up to 2^24 items (half the time of float64)
    exact = np.float32 if codes.shape[0] < 2**24 else np.float64
    rated: np.ndarray = (codes >= 0).astype(exact)
    shared = (rated.T @ rated).astype(np.float64)
    agree = np.zeros_like(shared)
    chance = np.zeros_like(shared)
    for cat in range(c):
        x = (codes == cat).astype(exact)
        agree += x.T @ x
        a = (x.T @ rated).astype(np.float64)
        chance += a * a.T
    den = shared * shared - chance
    with np.errstate(invalid="ignore", divide="ignore"):
        kappa = np.where(den > 0, (shared * agree - chance) / np.where(den > 0, den, 1.0), _FILL[undefined])
    kappa[(shared == 0) | (c < 2)] = np.nan
    return kappa, shared


def pairwise_kappa(r: Ratings, pairs: tuple[np.ndarray, np.ndarray] | None = None,
                   undefined: str = DEFAULT_CONVENTION) -> dict[str, float | None]:
    """Cohen's kappa of every pair of annotators on the items both rated (``"a | b"`` → κ or None).

    ``pairs``: :func:`kappa_pairs` of ``r``, when already computed; ``undefined``: the convention otherwise.

    >>> pairwise_kappa(ratings_table([["x", "x", "y"], ["y", "y", "y"], ["x", "y", "x"]], ["a", "b", "c"]))["a | b"]
    0.4
    """
    kappa, _ = pairs if pairs is not None else kappa_pairs(r, undefined)
    i, j = np.triu_indices(len(r.raters), 1)
    values = kappa[i, j].tolist()
    names = r.raters
    return {f"{names[a]} | {names[b]}": None if v != v else v for a, b, v in zip(i.tolist(), j.tolist(), values)}


def kappa_summary(r: Ratings, lowest: int = 10, pairs: tuple[np.ndarray, np.ndarray] | None = None
                  ) -> dict[str, Any]:
    """What a reader needs of many pairwise kappas: how they spread (quartiles), the ``lowest`` pairs, and each
    annotator's mean kappa with the others (the annotators who agree least stand out).

    >>> s = kappa_summary(ratings_table([["x", "x", "y"], ["y", "y", "y"], ["x", "y", "x"]], ["a", "b", "c"]))
    >>> s["pairs"], s["lowest"][0]["pair"], s["lowest"][0]["items"]
    (3, 'b | c', 3)
    """
    kappa, shared = pairs if pairs is not None else kappa_pairs(r)
    n = len(r.raters)
    i, j = np.triu_indices(n, 1)
    vals = kappa[i, j]
    ok = ~np.isnan(vals)
    # "defined": kappas with a value; "shared": pairs that rated an item in common (a pair can share items and
    # still have an undefined kappa under omit, both putting every shared item in one category)
    out: dict[str, Any] = {"pairs": int(vals.size), "defined": int(ok.sum()), "shared": int((shared[i, j] > 0).sum())}
    if ok.any():
        q = np.quantile(vals[ok], [0.0, 0.25, 0.5, 0.75, 1.0])
        out.update({"min": float(q[0]), "q1": float(q[1]), "median": float(q[2]), "q3": float(q[3]),
                    "max": float(q[4]), "mean": float(vals[ok].mean())})
    order = np.flatnonzero(ok)[np.argsort(vals[ok], kind="stable")[:lowest]]
    out["lowest"] = [{"pair": f"{r.raters[i[t]]} | {r.raters[j[t]]}", "kappa": float(vals[t]),
                      "items": int(shared[i[t], j[t]])} for t in order]
    with np.errstate(invalid="ignore"):
        full = np.where(np.eye(n, dtype=bool), np.nan, kappa)
        counts = (~np.isnan(full)).sum(axis=1)
        means = np.where(counts > 0, np.nansum(full, axis=1) / np.maximum(counts, 1), np.nan)
    out["rater_mean"] = {name: None if np.isnan(m) else float(m) for name, m in zip(r.raters, means)}
    return out
