"""Regenerate the score/probability examples (deterministic): ``python examples/scores/make_scores.py``.

* ``fraud_*.csv`` — a rare-positive ranking task (1.5 % fraud), two systems with real-valued scores
  (``score``, higher = more suspicious) and the decisions at a provisional threshold (``y_pred``);
  answers: ``examples/answers/fraud_ranking.yaml``.
* ``screening_*.csv`` — a case–control test set for disease screening (300 ill, 300 healthy; about
  2 % are ill in the screened population, a missed case costs ten false alarms), two systems' decisions
  and probabilities (``p_healthy``, ``p_disease``): one tuned for sensitivity, one for specificity;
  answers: ``examples/answers/medical_screening.yaml``.
* ``risk_*.csv`` — a risk-estimate task (30-day readmission), two systems' probabilities
  (``p_no``, ``p_yes``): one calibrated, one overconfident; answers: ``examples/answers/risk_estimates.yaml``.
* ``derm_*.csv`` — a four-class skin-lesion classifier that may defer to a dermatologist (issue 23): its
  predicted label is ``defer`` where it abstains (no class). ``derm_cnn.csv`` has the probabilities
  (``p_<class>``) and defers when its top-label probability is below 0.5; ``derm_labels.csv`` another
  system's labels alone, deferring on about 15 % of the items. Read them with ``--reject-label defer``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def main() -> None:
    rng = np.random.default_rng(2024)
    n = 4000
    y = rng.random(n) < 0.015
    for name, sep in (("fraud_gbm", 2.2), ("fraud_rules", 1.4)):
        s = np.round(y * sep + rng.normal(0, 1, n), 4)
        with (HERE / f"{name}.csv").open("w") as f:
            f.write("y_true,y_pred,score\n")
            for t, v in zip(y, s):
                f.write(f"{'fraud' if t else 'ok'},{'fraud' if v > 2.0 else 'ok'},{float(v)!r}\n")
    n = 3000
    risk = 1 / (1 + np.exp(-rng.normal(-1.2, 1.1, n)))
    y = rng.random(n) < risk
    for name, temp in (("risk_calibrated", 1.0), ("risk_overconfident", 0.45)):
        z = np.log(risk / (1 - risk)) / temp + rng.normal(0, 0.3, n)
        p = np.round(1 / (1 + np.exp(-z)), 4)
        with (HERE / f"{name}.csv").open("w") as f:
            f.write("y_true,y_pred,p_no,p_yes\n")
            for t, v in zip(y, p):
                f.write(f"{'yes' if t else 'no'},{'yes' if v > 0.5 else 'no'},{1 - v:.4f},{v:.4f}\n")

    n = 300
    y = np.r_[np.ones(n, bool), np.zeros(n, bool)]
    for name, shift in (("screening_sensitive", -1.0), ("screening_specific", 0.6)):
        z = np.where(y, 1.6, -1.6) + rng.normal(0, 1.2, 2 * n)
        p = np.round(1 / (1 + np.exp(-(z - shift))), 4)
        with (HERE / f"{name}.csv").open("w") as f:
            f.write("y_true,y_pred,p_healthy,p_disease\n")
            for t, v in zip(y, p):
                f.write(f"{'disease' if t else 'healthy'},{'disease' if v > 0.5 else 'healthy'},{1 - v:.4f},{v:.4f}\n")

    derm(np.random.default_rng(23))


def derm(rng: np.random.Generator, n: int = 400) -> None:
    """Two dermatology systems that may defer (reject label ``defer``) on the same 400 lesions."""
    classes = ["melanoma", "nevus", "keratosis", "other"]
    y = rng.choice(4, n, p=[0.15, 0.45, 0.25, 0.15])
    z = rng.normal(0, 1, (n, 4))
    z[np.arange(n), y] += rng.uniform(0.0, 3.5, n)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    p = np.round(p, 3)
    p[:, -1] = np.round(1 - p[:, :-1].sum(axis=1), 3)
    top = p.argmax(axis=1)
    with (HERE / "derm_cnn.csv").open("w") as f:
        f.write("y_true,y_pred," + ",".join(f"p_{c}" for c in classes) + "\n")
        for t, row, j in zip(y, p, top):
            pred = classes[j] if row[j] >= 0.5 else "defer"
            f.write(f"{classes[t]},{pred}," + ",".join(f"{v:.3f}" for v in row) + "\n")
    right = rng.random(n) < 0.72
    other = (y + rng.integers(1, 4, n)) % 4
    defer = rng.random(n) < 0.15
    with (HERE / "derm_labels.csv").open("w") as f:
        f.write("y_true,y_pred\n")
        for t, r, o, d in zip(y, right, other, defer):
            f.write(f"{classes[t]},{'defer' if d else classes[t] if r else classes[o]}\n")


if __name__ == "__main__":
    main()
