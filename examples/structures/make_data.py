"""Generate the bundled ordinal, multi-label, top-k and annotator examples (deterministic seed).

    python examples/structures/make_data.py

Synthetic but realistic: star ratings whose errors are mostly one step off, topic tags with rare
labels, a 50-class task scored by per-class probabilities, and three annotators with missing ratings.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 2024


def _write(path: Path, header: list[str], rows: list[list[object]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def ordinal(rng: np.random.Generator) -> None:
    """Star ratings 1–5 (imbalanced: many 4 and 5 stars); two systems, one making far misses."""
    n = 600
    truth = rng.choice([1, 2, 3, 4, 5], size=n, p=[0.06, 0.08, 0.16, 0.35, 0.35])
    near = np.clip(truth + rng.choice([-1, 0, 0, 0, 1], size=n), 1, 5)
    far = np.where(rng.random(n) < 0.12, rng.integers(1, 6, n), np.clip(truth + rng.choice([0, 0, 0, 1], size=n), 1, 5))
    _write(HERE / "ordinal_near.csv", ["y_true", "y_pred"], [[int(a), int(b)] for a, b in zip(truth, near)])
    _write(HERE / "ordinal_far.csv", ["y_true", "y_pred"], [[int(a), int(b)] for a, b in zip(truth, far)])


def multilabel(rng: np.random.Generator) -> None:
    """Topic tags: 6 labels with frequencies from 40 % down to 3 %; two taggers."""
    labels = ["politics", "sport", "economy", "science", "health", "culture"]
    freq = np.array([0.40, 0.30, 0.20, 0.10, 0.05, 0.03])
    n = 500
    y = rng.random((n, len(labels))) < freq
    for name, miss, spur in (("tagger_a", 0.15, 0.02), ("tagger_b", 0.35, 0.01)):
        p = np.where(y, rng.random(y.shape) > miss * (1 + 3 * (freq < 0.1)), rng.random(y.shape) < spur)
        rows = [["|".join(lab for lab, on in zip(labels, yi) if on), "|".join(lab for lab, on in zip(labels, pi) if on)]
                for yi, pi in zip(y, p)]
        _write(HERE / f"{name}.csv", ["y_true", "y_pred"], rows)


def top_k(rng: np.random.Generator) -> None:
    """50 classes, probabilities per class; two models, the second sharper but more often wrong at top-1."""
    c, n = 50, 300
    names = [f"c{i:02d}" for i in range(c)]
    truth = rng.integers(0, c, n)
    for name, signal, temp in (("model_a", 2.0, 1.0), ("model_b", 1.6, 0.6)):
        logits = rng.normal(size=(n, c))
        logits[np.arange(n), truth] += signal
        p = np.exp(logits / temp)
        p /= p.sum(1, keepdims=True)
        rows = [[names[t], *(f"{x:.4f}" for x in row)] for t, row in zip(truth, p)]
        _write(HERE / f"{name}.csv", ["y_true", *(f"p_{lab}" for lab in names)], rows)


def annotators(rng: np.random.Generator) -> None:
    """Three annotators grade 300 items as low / medium / high; 8 % of ratings are missing."""
    cats = ["low", "medium", "high"]
    n = 300
    truth = rng.choice(3, size=n, p=[0.5, 0.3, 0.2])
    rows = []
    for t in truth:
        row = []
        for skill in (0.85, 0.75, 0.65):
            r = t if rng.random() < skill else int(np.clip(t + rng.choice([-1, 1]), 0, 2))
            row.append("" if rng.random() < 0.08 else cats[r])
        rows.append(row)
    _write(HERE / "annotators.csv", ["rater_ann", "rater_bob", "rater_cyd"], rows)


if __name__ == "__main__":
    rng = np.random.default_rng(SEED)
    ordinal(rng)
    multilabel(rng)
    top_k(rng)
    annotators(rng)
