"""Generate the bundled ordinal, multi-label, top-k, annotator and partition examples (deterministic seed).

    python examples/structures/make_data.py

Synthetic but realistic: star ratings whose errors are mostly one step off, topic tags with rare
labels, a 50-class task scored by per-class probabilities, three annotators with missing ratings, and two
clusterings of the same news articles compared with the editors' story threads.
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


def partitions(rng: np.random.Generator) -> None:
    """400 news articles in 7 story threads (the editors' reference); two clusterings with arbitrary ids: one splits
    the largest story in two and misplaces 12 % of the articles, the other merges two stories, misplaces 25 % and
    leaves some articles in clusters of their own."""
    n = 400
    stories = [f"story_{i}" for i in range(1, 8)]
    truth = rng.choice(7, size=n, p=[0.28, 0.2, 0.16, 0.13, 0.11, 0.08, 0.04])
    split = np.where((truth == 0) & (rng.random(n) < 0.45), 7, truth)  # the largest story cut in two
    a = np.where(rng.random(n) < 0.12, rng.integers(0, 8, n), split)
    ids_a = rng.permutation(8) * 3 + 2  # arbitrary numbers, unrelated to the stories' order
    merged = np.where(truth == 4, 2, truth)  # two stories taken for one
    b = np.where(rng.random(n) < 0.25, rng.integers(0, 7, n), merged)
    alone = rng.random(n) < 0.03
    names_b = [f"c{j:02d}" for j in rng.permutation(7)]
    rows_b = [f"single_{i}" if alone[i] else names_b[b[i]] for i in range(n)]
    _write(HERE / "clusters_a.csv", ["y_true", "y_pred"], [[stories[t], int(ids_a[x])] for t, x in zip(truth, a)])
    _write(HERE / "clusters_b.csv", ["y_true", "y_pred"], [[stories[t], y] for t, y in zip(truth, rows_b)])


def chest(rng: np.random.Generator) -> None:
    """Chest radiographs: five findings, a score (probability) per finding; 240 radiographs of 90 patients, a
    patient's radiographs sharing a tendency to show the findings."""
    findings = ["atelectasis", "cardiomegaly", "consolidation", "edema", "pleural effusion"]
    shares = np.array([0.25, 0.2, 0.08, 0.18, 0.3])
    patients = np.sort(rng.integers(0, 90, 240))
    frailty = rng.normal(0, 0.8, 90)[patients]
    logit = np.log(shares / (1 - shares))[None, :] + frailty[:, None]
    truth = (rng.random((240, 5)) < 1 / (1 + np.exp(-logit))).astype(int)
    separation = np.array([1.6, 2.2, 1.0, 1.8, 2.4])  # consolidation is the hardest finding
    z = -1.2 + separation[None, :] * truth + rng.normal(0, 1, (240, 5))
    scores = np.round(1 / (1 + np.exp(-z)), 3)
    rows = [[f"P{p:03d}", *t, *s] for p, t, s in zip(patients, truth.tolist(), scores.tolist())]
    _write(HERE / "chest_scores.csv", ["patient_id", *(f"true_{f}" for f in findings), *(f"p_{f}" for f in findings)],
           rows)


if __name__ == "__main__":
    rng = np.random.default_rng(SEED)
    ordinal(rng)
    multilabel(rng)
    top_k(rng)
    annotators(rng)
    partitions(rng)  # last: the files above keep their values
    chest(np.random.default_rng(SEED + 1))  # its own stream: the files above keep their values
