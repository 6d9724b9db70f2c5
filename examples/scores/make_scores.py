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


if __name__ == "__main__":
    main()
