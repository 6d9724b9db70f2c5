"""Regenerate the bundled examples: real predictions of scikit-learn classifiers, and the papers'
worked confusion matrices.

    python examples/make_examples.py            # writes next to this script

Prediction files (one CSV per system; the systems of a data set share the same test items, in the
same order): columns ``y_true``, ``y_pred`` and one ``p_<label>`` probability column per class.
Only data sets that ship with scikit-learn are used (no downloads); every split and model has a
fixed seed, so the output is deterministic for a given scikit-learn version.

* ``digits/``        load_digits (10 classes) with class 9 made rare (30 of its 180 images kept):
                     ``logreg.csv`` (standardised logistic regression), ``tree.csv`` (decision tree).
* ``breast_cancer/`` load_breast_cancer, labels "malignant" / "benign":
                     ``logreg.csv``, ``naive_bayes.csv`` (Gaussian naive Bayes).
* ``wine/``          load_wine, labels "class_0" … "class_2": ``logreg.csv``, ``knn.csv`` (5 neighbours).

Probabilities are written with 4 decimals, rounded so that each row sums to exactly 1 (largest
remainder rounding in units of 1e-4).

Matrix files (``papers/``): first row = predicted labels, first column = true labels. Opitz & Burst
(2019), Opitz (2024) and the I2ML slides print m[predicted, true]; their tables are copied below as
printed and TRANSPOSED before writing.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 0


# --------------------------------------------------------------------------------------------------
# Predictions
# --------------------------------------------------------------------------------------------------
def _proba_strings(proba: np.ndarray) -> list[list[str]]:
    """Rows of probabilities as 4-decimal strings that sum to exactly 1."""
    units = np.floor(proba * 10_000).astype(np.int64)
    short = 10_000 - units.sum(axis=1)
    remainder = proba * 10_000 - units
    for i in range(proba.shape[0]):
        for j in np.argsort(-remainder[i], kind="stable")[: short[i]]:
            units[i, j] += 1
    assert np.all(units.sum(axis=1) == 10_000)
    return [[_fmt(u) for u in row] for row in units]


def _fmt(units: int) -> str:
    if units == 10_000:
        return "1"
    if units == 0:
        return "0"
    return f"0.{units:04d}".rstrip("0")


def _write_predictions(path: Path, y_true, y_pred, proba: np.ndarray, labels: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["y_true", "y_pred", *[f"p_{lab}" for lab in labels]])
        for t, p, row in zip(y_true, y_pred, _proba_strings(proba)):
            w.writerow([t, p, *row])


def _fit_and_write(folder: str, X_train, X_test, y_train, y_test, models: dict, labels: list[str]) -> None:
    for name, model in models.items():
        model.fit(X_train, y_train)
        proba = model.predict_proba(X_test)
        classes = [str(c) for c in model.classes_]
        assert classes == labels, (classes, labels)
        # the decision is the most probable class, so y_pred and the probabilities agree
        y_pred = np.asarray(model.classes_)[np.argmax(proba, axis=1)]
        _write_predictions(HERE / folder / f"{name}.csv", y_test, y_pred, proba, labels)


def make_predictions() -> None:
    from sklearn.datasets import load_breast_cancer, load_digits, load_wine
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    def logreg():
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))

    # digits, class 9 made rare
    X, y = load_digits(return_X_y=True)
    rng = np.random.default_rng(SEED)
    nines = np.flatnonzero(y == 9)
    drop = rng.choice(nines, size=len(nines) - 30, replace=False)
    keep = np.setdiff1d(np.arange(len(y)), drop)
    X, y = X[keep], y[keep]
    split = train_test_split(X, y, test_size=0.25, stratify=y, random_state=SEED)
    _fit_and_write("digits", *split,
                   {"logreg": logreg(), "tree": DecisionTreeClassifier(max_depth=8, random_state=SEED)},
                   [str(c) for c in range(10)])

    # breast cancer, string labels
    data = load_breast_cancer()
    y = np.asarray(data.target_names)[data.target]  # 0 = malignant, 1 = benign
    split = train_test_split(data.data, y, test_size=0.35, stratify=y, random_state=SEED)
    _fit_and_write("breast_cancer", *split, {"logreg": logreg(), "naive_bayes": GaussianNB()},
                   sorted(data.target_names.tolist()))

    # wine, string labels
    data = load_wine()
    y = np.asarray(data.target_names)[data.target]
    split = train_test_split(data.data, y, test_size=0.4, stratify=y, random_state=SEED)
    _fit_and_write("wine", *split,
                   {"logreg": logreg(), "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(5))},
                   sorted(data.target_names.tolist()))


# --------------------------------------------------------------------------------------------------
# The papers' worked matrices
# --------------------------------------------------------------------------------------------------
def _pt(m):
    """m[predicted, true] as printed by Opitz / I2ML → C[true, predicted]."""
    return np.asarray(m, dtype=float).T.tolist()


# name → (labels, C[true][predicted], source)
PAPERS: dict[str, tuple[list[str], list[list[float]], str]] = {
    "grandini2020_fig1": (list("abcd"), [[6, 0, 1, 2], [3, 9, 1, 1], [1, 0, 10, 2], [1, 2, 1, 12]],
                          "Grandini et al. 2020, Figure 1 (accuracy eq. 4, balanced accuracy eq. 6)"),
    "grandini2020_fig2": (["positive", "negative"], [[20, 5], [10, 15]],
                          "Grandini et al. 2020, Figures 2 and 7 (P = 2/3, R = 0.8, F1 = 8/11, MCC = 0.408)"),
    "grandini2020_fig3": (list("abcd"), [[5, 23, 17, 17], [10, 540, 21, 14], [166, 96, 436, 110], [1, 2, 5, 87]],
                          "Grandini et al. 2020, Figure 3 (accuracy 0.689, balanced accuracy 0.615)"),
    "grandini2020_fig4": (list("abcd"), [[50, 37, 24, 39], [10, 480, 5, 3], [14, 10, 765, 1], [0, 2, 9, 101]],
                          "Grandini et al. 2020, Figures 4 and 8 (macro and micro averages, multi-class MCC)"),
    "grandini2020_fig9": (["positive", "negative"], [[40, 0], [10, 0]],
                          "Grandini et al. 2020, Figure 9 (everything predicted positive: MCC 0, accuracy 0.8)"),
    "grandini2020_fig11": (["positive", "negative"], [[45, 15], [25, 15]],
                           "Grandini et al. 2020, Figures 11 and 12 left (kappa 0.13)"),
    "grandini2020_fig12": (["positive", "negative"], [[25, 35], [5, 35]],
                           "Grandini et al. 2020, Figure 12 right (kappa 0.259, same accuracy 0.6)"),
    "opitz_burst2019_table1": (["a", "b"], _pt([[5, 10], [5, 10]]),
                               "Opitz & Burst 2019, Table 1 (F1 of averages 0.5, averaged F1 0.49) — transposed"),
    "opitz_burst2019_table2": (["a", "b"], _pt([[1, 1], [9, 19]]),
                               "Opitz & Burst 2019, Table 2 (F1 of averages 0.555, averaged F1 0.48) — transposed"),
    "opitz_burst2019_table3": (["a", "b"], _pt([[100, 10000], [0, 100]]),
                               "Opitz & Burst 2019, Table 3 (0.505 vs 0.0196, gap 0.485) — transposed"),
    "opitz_burst2019_table4": (["a", "b"], _pt([[100, 5000], [5000, 100]]),
                               "Opitz & Burst 2019, Table 4 (both 0.0196) — transposed"),
    "opitz2024_table2": (["x", "y"], _pt([[15, 5], [10, 10]]),
                         "Opitz 2024, Table 2 (class y occurs 15 times) — transposed"),
    "opitz2024_table4": (["x", "y"], _pt([[15, 10], [10, 20]]),
                         "Opitz 2024, Tables 3–4 (class y scaled by 2: macro recall unchanged, macro precision not) — transposed"),
    "opitz2024_table7": (["x", "y", "z"], _pt([[10, 43, 0], [1, 1, 0], [0, 0, 1]]),
                         "Opitz 2024, Table 7 (MCC 0.0, kappa 0.0) — transposed"),
    "opitz2024_table8": (["x", "y", "z"], _pt([[10, 43, 0], [1, 1, 0], [0, 10, 1]]),
                         "Opitz 2024, Table 8 (ten more errors: MCC 0.07, kappa 0.02) — transposed"),
    "gosgens2021_cc_min_c1": (["0", "1", "2"], [[0, 1, 0], [0, 0, 1], [2, 0, 0]],
                              "Gösgens et al. 2021, App. C.1 (zero diagonal, MCC −0.5)"),
    "gosgens2021_cc_min_c2": (["0", "1", "2"], [[0, 1, 0], [1, 0, 1], [0, 1, 0]],
                              "Gösgens et al. 2021, App. C.1 (zero diagonal, MCC −0.6)"),
    "gosgens2021_ce_c1": (["0", "1"], [[0, 6], [6, 0]], "Gösgens et al. 2021, App. C.1 (confusion entropy 1)"),
    "gosgens2021_ce_c2": (["0", "1"], [[1, 5], [5, 1]], "Gösgens et al. 2021, App. C.1 (confusion entropy > 1)"),
    "gosgens2021_kappa_smon_1": (["0", "1"], [[1, 2], [1, 0]], "Gösgens et al. 2021, App. C.4 (kappa −0.5)"),
    "gosgens2021_kappa_smon_2": (["0", "1"], [[1, 3], [1, 0]], "Gösgens et al. 2021, App. C.4 (one more error, kappa −3/7)"),
    "gosgens2021_cc_mon_c1": (["0", "1", "2"], [[1, 0, 0], [6, 1, 0], [0, 0, 1]], "Gösgens et al. 2021, App. C.4"),
    "gosgens2021_cc_mon_c2": (["0", "1", "2"], [[1, 0, 0], [7, 0, 0], [0, 0, 1]],
                              "Gösgens et al. 2021, App. C.4 (a correct item made an error: MCC rises)"),
    "gosgens2021_kappa_mon_c1": (["0", "1", "2"], [[0, 1, 2], [0, 0, 0], [1, 0, 0]], "Gösgens et al. 2021, App. C.4"),
    "gosgens2021_kappa_mon_c2": (["0", "1", "2"], [[1, 0, 2], [0, 0, 0], [1, 0, 0]],
                                 "Gösgens et al. 2021, App. C.4 (an error corrected: kappa falls)"),
    "gosgens2021_rain_10min_t1": (["0", "1"], [[93.55, 1.12], [0.22, 5.11]],
                                  "Gösgens et al. 2021, App. E.1 (ten-minute horizon, lowest threshold, %)"),
    "gosgens2021_rain_10min_t2": (["0", "1"], [[93.76, 0.91], [0.29, 5.04]],
                                  "Gösgens et al. 2021, App. E.1 (second threshold: accuracy and SBA up, BA down)"),
}


def make_papers() -> None:
    folder = HERE / "papers"
    folder.mkdir(parents=True, exist_ok=True)
    for name, (labels, matrix, _) in PAPERS.items():
        with (folder / f"{name}.csv").open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["true\\pred", *labels])
            for lab, row in zip(labels, matrix):
                w.writerow([lab, *[f"{v:g}" for v in row]])


if __name__ == "__main__":
    make_predictions()
    make_papers()
    total = sum(p.stat().st_size for p in HERE.rglob("*.csv"))
    print(f"wrote {len(list(HERE.rglob('*.csv')))} CSV files, {total / 1024:.0f} KB")
