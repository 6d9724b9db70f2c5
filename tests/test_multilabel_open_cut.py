"""Multi-label scores with no operating point answered (the CheXpert reader, issue 22).

Without ``operating_point: fixed`` or ``decision_thresholds`` no answer says where a label's score becomes a label,
so a figure taken at a cut is never presented as a result: the labels' ROC AUCs are shown, a planned F1 is kept
(never dropped without a word) but said to be an illustration at the conventional cut of 0.5, and nothing
unplanned (per-label precision and recall, Hamming loss, subset accuracy, …) is added at that cut. The plan, the
recommendation on screen, the methods paragraph and the report agree; with the operating point answered the
label decisions are reported as before. Checked on the chest-radiograph situation and on a second, different one
(ECG recordings, no F1 planned), with the figures of the report against scikit-learn.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml
from sklearn.metrics import f1_score, roc_auc_score

from advisor.plan import make_plan
from advisor.questionnaire import answers_from_mapping
from advisor.report import methods_paragraph

ROOT = Path(__file__).resolve().parents[1]
CHEX = yaml.safe_load((ROOT / "tests/situations/chex.yaml").read_text())
ILLUSTRATION = ("No operating point is fixed, so no figure taken at a cut of the scores is a result of this study. The "
                "planned F1 of every label and macro-averaged F1 are given for illustration only, at a score of 0.5, a "
                "conventional cut not chosen for this study.")
#: a second situation of the same kind: labels scored, no operating point answered, no F1 planned
ECG = {"context": "Twelve-lead ECG recordings are screened for four rhythm and conduction findings, each scored by "
                  "the model; the scores order the recordings for a cardiologist's review.",
       "item_name": "recording", "label_structure": "multilabel", "classes": ["AF", "LBBB", "RBBB", "PVC"],
       "class_weighting": "equal", "outputs": "probabilities", "planned_metrics": ["mean AUROC"]}
ECG_LABELS = ["AF", "LBBB", "RBBB", "PVC"]


def _answers(tmp_path: Path, answers: dict, name: str = "a.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(answers))
    return path


def _scores_csv(path: Path, labels: list[str], n: int = 90, seed: int = 3) -> tuple[Path, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random((n, len(labels))) < 0.35).astype(int)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random((n, len(labels))), 0, 1), 3)
    cols = [f"true_{lab}" for lab in labels] + [f"p_{lab}" for lab in labels]
    rows = [",".join([*map(str, y[i]), *(repr(float(v)) for v in s[i])]) for i in range(n)]
    path.write_text(",".join(cols) + "\n" + "\n".join(rows) + "\n")
    return path, y, s


def test_the_plan_keeps_the_planned_f1_as_an_illustration_and_promises_no_precision():
    plan = make_plan(answers_from_mapping(CHEX))
    ids = [d.id for d in plan.diagnostics]
    assert "label_aucs" in ids and "per_label" not in ids
    # the labels the situation names as costly come first in the per-label table (answers focus_classes)
    assert plan.diagnostic("label_aucs").params == {"quantities": ["F1"], "cut": 0.5,
                                                    "focus": ["edema", "pleural effusion"]}
    f1 = next(m for m in plan.metrics if m.id == "multilabel_macro_f1")
    assert "for illustration only" in f1.reason and "no answer chose" in f1.reason
    note = next(u.note for u in plan.answers if u.key == "planned_metrics" and u.value == "F1")
    assert note == ("The planned “F1” is given for each label, and as its macro average, as an illustration at the "
                    "conventional score cut of 0.5, not one chosen for this study, and not as a result.")


def test_an_answered_operating_point_keeps_the_label_decisions(tmp_path, cli):
    fixed = {**CHEX, "outputs": "probabilities", "operating_point": "fixed"}
    plan = make_plan(answers_from_mapping(fixed))
    assert [d.id for d in plan.diagnostics if d.id in ("per_label", "label_aucs")] == ["per_label"]
    text = methods_paragraph(answers_from_mapping(fixed), "md", seed=1)
    assert "A label is given to a radiograph when its score is at least 0.5, which the F1s count." in text
    assert "precision, recall and F1 of every label" in text
    assert "for illustration" not in text and "No operating point is fixed" not in text
    # the report: the full table of the label decisions, beside each label's ROC AUC
    data, _, _ = _scores_csv(tmp_path / "chex.csv", CHEX["classes"])
    out = tmp_path / "r.md"
    res = cli("report", "--answers", _answers(tmp_path, {k: v for k, v in fixed.items() if k != "group"}), data,
              "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    assert "| Label | Support | Predicted | Precision | Recall | F1 | ROC AUC |" in out.read_text()


def test_chex_methods_say_the_illustration_once_and_no_n(tmp_path, cli):
    text = methods_paragraph(answers_from_mapping(CHEX), "md", seed=1)
    assert ILLUSTRATION in text
    assert "Beside these we report" not in text and "We also give" not in text
    assert "$n$ counts" not in text  # no formula shown uses n
    # the planned F1 said once, in the Evaluation paragraph: no "Planned metrics" note before it repeating it
    # almost word for word (the s22 CheXpert reader)
    assert "**Planned metrics.**" not in text and text.count("illustration") == 1
    res = cli("recommend", "--answers", _answers(tmp_path, CHEX))
    assert res.exit_code == 0, res.output
    assert "only for illustration" in " ".join(res.output.split())


def test_a_second_situation_without_a_planned_f1_reports_nothing_at_the_cut(tmp_path, cli):
    answers = answers_from_mapping(ECG)
    plan = make_plan(answers)
    assert plan.diagnostic("label_aucs").params["quantities"] == []
    assert [m.id for m in plan.metrics] == ["multilabel_macro_roc_auc"]
    text = methods_paragraph(answers, "md", seed=1)
    assert "No operating point is fixed, so we report no figure taken at a cut of the scores." in text
    assert "AF, LBBB, RBBB and PVC from the recordings' scores" in text
    assert "F1" not in text and "precision" not in text.lower() and "$n$ counts" not in text
    data, y, s = _scores_csv(tmp_path / "ecg.csv", ECG_LABELS)
    out = tmp_path / "r.md"
    res = cli("report", "--answers", _answers(tmp_path, ECG), data, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    report = out.read_text()
    assert "| Label | Support | ROC AUC |" in report and "Precision" not in report
    for gone in ("Hamming loss", "Subset accuracy", "Micro-averaged F1", "Sample-averaged F1"):
        assert f"| {gone}" not in report, gone  # nothing unplanned at the cut, not even in the appendix
    assert f"| Macro-averaged ROC AUC (multi-label) | {roc_auc_score(y, s, average='macro'):.3f}" in report
    for j, lab in enumerate(ECG_LABELS):  # each label's AUC, against scikit-learn
        assert f"| {lab} | {y[:, j].sum()} | {roc_auc_score(y[:, j], s[:, j]):.2f} |" in report
    assert "ROC AUC of each label" in report  # the figure plots the labels' AUCs, not an F1 nobody chose


def test_the_illustrative_f1_in_the_report_is_the_f1_at_half(tmp_path, cli):
    data, y, s = _scores_csv(tmp_path / "chex.csv", CHEX["classes"], seed=5)
    out = tmp_path / "r.md"
    answers = {k: v for k, v in CHEX.items() if k != "group"}
    res = cli("report", "--answers", _answers(tmp_path, answers), data, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    report = out.read_text()
    macro = f1_score(y, (s >= 0.5).astype(int), average="macro", zero_division=0)
    assert f"| Macro-averaged F1 (multi-label) | {macro:.3f}" in report
    assert "The F1 is taken at a score of 0.5, a conventional cut not chosen for this study: an illustration, not a result." in report
    for j, lab in enumerate(CHEX["classes"]):
        f1 = f1_score(y[:, j], (s[:, j] >= 0.5).astype(int), zero_division=0)
        assert f"| {lab} | {y[:, j].sum()} | {f1:.2f} | {roc_auc_score(y[:, j], s[:, j]):.2f} |" in report
    assert "| Hamming loss" not in report and "| Subset accuracy" not in report


def test_a_planned_precision_is_kept_per_label_as_an_illustration_too(tmp_path, cli):
    answers = {**ECG, "planned_metrics": ["mean AUROC", "precision"]}
    plan = make_plan(answers_from_mapping(answers))
    assert plan.diagnostic("label_aucs").params["quantities"] == ["precision"]
    note = next(u.note for u in plan.answers if u.key == "planned_metrics" and u.value == "precision")
    assert note == ("The planned “precision” is given for each label, as an illustration at the conventional "
                    "score cut of 0.5, not one chosen for this study, and not as a result.")
    text = methods_paragraph(answers_from_mapping(answers), "md", seed=1)
    assert ("The planned precision of every label is given for illustration only, at a score of 0.5, a conventional "
            "cut not chosen for this study.") in text
    assert "recall" not in text.lower()
    data, y, s = _scores_csv(tmp_path / "ecg.csv", ECG_LABELS, seed=11)
    out = tmp_path / "r.md"
    res = cli("report", "--answers", _answers(tmp_path, answers), data, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    report = out.read_text()
    assert "| Label | Support | Precision | ROC AUC |" in report
    from sklearn.metrics import precision_score
    for j, lab in enumerate(ECG_LABELS):
        prec = precision_score(y[:, j], (s[:, j] >= 0.5).astype(int), zero_division=0)
        assert f"| {lab} | {y[:, j].sum()} | {prec:.2f} | {roc_auc_score(y[:, j], s[:, j]):.2f} |" in report


def test_many_labels_show_no_recall_spread_at_the_cut(tmp_path, cli):
    labels = [f"finding{i}" for i in range(16)]  # beyond MANY_CLASSES: the CSV and the spread of recall
    answers = {"item_name": "scan", "label_structure": "multilabel", "classes": labels, "outputs": "scores",
               "planned_metrics": ["mean AUROC", "F1"]}
    data, y, s = _scores_csv(tmp_path / "many.csv", labels, n=80, seed=2)
    out = tmp_path / "r.md"
    res = cli("report", "--answers", _answers(tmp_path, answers), data, "--bootstrap", "0", "-o", out)
    assert res.exit_code == 0, res.output
    report = out.read_text()
    assert "per-class recall ranges" not in report and "Per-class recall of the" not in report
    csv = (tmp_path / "r-per-class.csv").read_text().splitlines()
    assert csv[0] == "system,class,support,f1,roc_auc"
    row = next(line for line in csv if ",finding3," in line).split(",")
    assert abs(float(row[4]) - roc_auc_score(y[:, 3], s[:, 3])) < 1e-6
    assert abs(float(row[3]) - f1_score(y[:, 3], (s[:, 3] >= 0.5).astype(int), zero_division=0)) < 1e-6
