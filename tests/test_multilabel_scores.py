"""Multi-label predictions with a score per label (CheXpert-style per-finding AUROC).

Each label's ROC AUC and their macro mean equal scikit-learn's ``roc_auc_score(Y, S, average=None / "macro")``
to 1e-12 (a label whose truth holds one class is left out of the mean); the bootstrap's weighted AUC equals
scikit-learn's with ``sample_weight``; groups (patients) are resampled when answered; the reader refuses bad
scores in one sentence; and the methods text argues from the author's situation — no premise that outputs are
labels only when ``outputs`` is unanswered, an honest note when it is answered ``labels``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import advisor
from advisor import InputError
from advisor.engine import label_aucs, multilabel_metrics, per_label_metrics, scored_label_sets
from advisor.stats import structure_bootstrap

ROOT = Path(__file__).resolve().parents[1]
LABELS = ["atelectasis", "cardiomegaly", "consolidation", "edema", "pleural effusion"]


def _data(rng, n, n_labels, ties=False):
    y = (rng.random((n, n_labels)) < rng.uniform(0.1, 0.6, n_labels)).astype(int)
    s = np.clip(0.3 * y + 0.7 * rng.random((n, n_labels)), 0, 1)
    if ties:
        s = np.round(s, 1)  # many tied scores within and across classes
    return y, s


@pytest.mark.parametrize("n_labels", [1, 2, 3, 5, 8])
@pytest.mark.parametrize("ties", [False, True])
def test_aucs_equal_sklearn(n_labels, ties):
    rng = np.random.default_rng(100 * n_labels + ties)
    for _ in range(5):
        y, s = _data(rng, int(rng.integers(8, 200)), n_labels, ties)
        for j in range(n_labels):  # every label two classes here
            if y[:, j].min() == y[:, j].max():
                y[0, j] = 1 - y[0, j]
        per = label_aucs(y.astype(bool), s)
        np.testing.assert_allclose(per, roc_auc_score(y, s, average=None) if n_labels > 1
                                   else [roc_auc_score(y[:, 0], s[:, 0])], rtol=0, atol=1e-12)
        sets = scored_label_sets(y, s, [f"l{j}" for j in range(n_labels)])
        got = multilabel_metrics(sets)["multilabel_macro_roc_auc"]
        assert abs(got - roc_auc_score(y, s, average="macro")) <= 1e-12
        table = per_label_metrics(sets)
        assert all(abs(table[f"l{j}"]["roc_auc"] - per[j]) <= 1e-12 for j in range(n_labels))


def test_a_label_of_one_class_is_left_out_of_the_mean_and_said_once():
    rng = np.random.default_rng(7)
    y, s = _data(rng, 60, 4, ties=True)
    y[:, 2] = 0  # no item has label 2: its AUC is undefined
    for j in (0, 1, 3):
        y[0, j], y[1, j] = 1, 0
    sets = scored_label_sets(y, s, ["a", "b", "c", "d"])
    res = multilabel_metrics(sets, undefined="zero")  # whatever the convention: left out, never 0
    keep = [0, 1, 3]
    assert abs(res["multilabel_macro_roc_auc"] - roc_auc_score(y[:, keep], s[:, keep], average="macro")) <= 1e-12
    said = [u for u in res.undefined if u.metric == "multilabel_macro_roc_auc"]
    assert len(said) == 1 and "c" in said[0].reason and said[0].resolution == "left out of the mean"
    assert np.isnan(per_label_metrics(sets)["c"]["roc_auc"])


def test_weighted_aucs_equal_sklearn_sample_weight():
    """The bootstrap evaluates item weights (resampling counts): scikit-learn's sample_weight is the oracle."""
    rng = np.random.default_rng(3)
    y, s = _data(rng, 80, 3, ties=True)
    w = rng.multinomial(80, np.full(80, 1 / 80), size=4).astype(float)
    got = label_aucs(y.astype(bool), s, w)
    for b in range(4):
        for j in range(3):
            want = roc_auc_score(y[:, j], s[:, j], sample_weight=w[b])
            assert abs(got[b, j] - want) <= 1e-12


def test_decisions_are_the_labels_scored_at_least_the_threshold():
    y = [[1, 0], [0, 1], [1, 1]]
    s = [[0.5, 0.49], [0.2, 0.7], [0.9, 0.5]]
    assert scored_label_sets(y, s).y_pred.astype(int).tolist() == [[1, 0], [0, 1], [1, 1]]
    assert scored_label_sets(y, s, threshold=0.6).y_pred.astype(int).tolist() == [[0, 0], [0, 1], [1, 0]]


def test_group_bootstrap_resamples_patients():
    rng = np.random.default_rng(11)
    n = 240
    y, s = _data(rng, n, 3)
    patients = rng.integers(0, 60, n)
    sets = scored_label_sets(y, s, ["a", "b", "c"])
    ids = ["multilabel_macro_roc_auc", "multilabel_macro_f1"]
    grouped = structure_bootstrap("multilabel", sets, ids, n_resamples=300, seed=5, groups=patients)
    items = structure_bootstrap("multilabel", sets, ids, n_resamples=300, seed=5)
    for m in ids:
        g = grouped[m]
        assert g["low"] <= g["estimate"] <= g["high"]
        assert g["estimate"] == items[m]["estimate"]
        assert (g["low"], g["high"]) != (items[m]["low"], items[m]["high"])
    with pytest.raises(InputError, match="at least two"):
        structure_bootstrap("multilabel", sets, ids, n_resamples=300, seed=5, groups=np.zeros(n))


def _csv(path: Path, n=40, seed=0, score=None, drop=None, group=True):
    rng = np.random.default_rng(seed)
    y, s = _data(rng, n, len(LABELS))
    s = np.round(s, 3)
    if score is not None:
        s[3, 1] = score
    cols = (["patient_id"] if group else []) + [f"true_{lab}" for lab in LABELS] + [f"p_{lab}" for lab in LABELS]
    cols = [c for c in cols if c != drop]
    lines = [",".join(cols)]
    for i in range(n):
        row = {"patient_id": f"P{i // 3:03d}", **{f"true_{lab}": str(y[i, j]) for j, lab in enumerate(LABELS)},
               **{f"p_{lab}": repr(float(s[i, j])) for j, lab in enumerate(LABELS)}}
        lines.append(",".join(row[c] for c in cols))
    path.write_text("\n".join(lines) + "\n")
    return path, y, s


def test_reader_reads_a_score_per_label_and_the_groups(tmp_path):
    path, y, s = _csv(tmp_path / "chex.csv", n=90)
    ds = advisor.load([path], label_sep="|", group="patient_id", id_col=None)
    st = ds.structured
    d = next(iter(st.systems.values()))
    assert st.structure == "multilabel" and list(st.labels) == sorted(LABELS)
    order = [LABELS.index(lab) for lab in st.labels]
    np.testing.assert_array_equal(d.y_true, y[:, order].astype(bool))
    np.testing.assert_allclose(d.scores, s[:, order])
    assert d.threshold == 0.5 and st.n_groups == 30 and st.group_col == "patient_id"


@pytest.mark.parametrize("score, drop, match", [
    (1.7, None, "between 0 and 1"),
    (-0.1, None, "between 0 and 1"),
    (None, "p_edema", "no score column"),
    (None, "true_edema", "no true_edema column"),
])
def test_reader_refuses_bad_scores_in_one_sentence(tmp_path, score, drop, match):
    path, *_ = _csv(tmp_path / "bad.csv", score=score, drop=drop, group=False)
    with pytest.raises(InputError, match=match):
        advisor.load([path], label_sep="|", id_col=None)


def test_cli_refuses_a_score_outside_zero_one_without_traceback(tmp_path, cli):
    path, *_ = _csv(tmp_path / "bad.csv", score=1.5)
    res = cli("report", "--answers", ROOT / "tests/situations/chex.yaml", path, "--bootstrap", "0",
              "-o", tmp_path / "r.md")
    assert res.exit_code != 0
    assert "between 0 and 1" in res.output and "Traceback" not in res.output


def _methods(tmp_path, cli, **extra):
    import yaml

    answers = yaml.safe_load((ROOT / "tests/situations/chex.yaml").read_text())
    answers.update(extra)
    f = tmp_path / "answers.yaml"
    f.write_text(yaml.safe_dump(answers))
    out = tmp_path / "m.md"
    res = cli("methods", "--answers", f, "--seed", "1", "-o", out, "--force")
    assert res.exit_code == 0, res.output
    return out.read_text()


def test_chex_methods_report_each_findings_auroc_without_a_labels_only_premise(tmp_path, cli):
    text = _methods(tmp_path, cli)
    assert "label sets (0 or 1 per label) only" not in text and "labels only" not in text
    # the scores order a worklist: the per-label ROC AUCs and their mean lead (the CheXpert reader), no F1 does
    assert ("We lead with the macro-averaged ROC AUC, which averages the ROC AUCs of atelectasis, cardiomegaly, "
            "consolidation, edema and pleural effusion from the radiographs' scores. The per-label ROC AUCs are reported beside it, as is "
            "customary in chest radiograph benchmarks (Irvin et al. 2019). The scores order the radiographs") in text
    assert "We lead with macro-averaged F1" not in text
    # nobody chose 0.5: no figure at the cut is a result; the planned F1 is kept as an illustration at the
    # convention, the unplanned per-label precision and recall are not promised (the CheXpert reader, as toxic)
    assert ("No operating point is fixed, so no figure taken at a cut of the scores is a result of this study. The "
            "planned F1 of every label and macro-averaged F1 are given for illustration only, at a score of 0.5, a "
            "conventional cut not chosen for this study.") in text
    assert "precision" not in text.lower() and "recall" not in text.lower()
    assert "Beside these we report macro-averaged F1" not in text  # said once, as the illustration
    assert "$n$ counts" not in text  # no formula shown uses n (n^+_l is its own symbol, defined in its where)
    for gone in ("Hamming loss", "Subset accuracy", "Sample-averaged F1", "Micro-averaged F1"):
        assert gone not in text, gone
    assert "Macro-averaged F1 (multi-label)" in text  # the planned F1: per label and macro
    assert "resamples of the patients" in text
    assert "Macro-averaged ROC AUC (multi-label)" in text and "$s_{tl}$ is the score" in text


def test_chex_methods_with_outputs_labels_keep_an_honest_note(tmp_path, cli):
    text = _methods(tmp_path, cli, outputs="labels")
    assert ("We do not compute AUROC, which papers in chest radiograph benchmarks report (Irvin et al. 2019): it "
            "needs a score for every label of every radiograph, and the system outputs labels only") in text
    assert "we report ROC AUC" not in text and "Macro-averaged ROC AUC" not in text


def test_report_on_label_sets_only_says_so_once(tmp_path, cli):
    rng = np.random.default_rng(2)
    y, s = _data(rng, 60, len(LABELS))
    cols = ["patient_id", *(f"true_{lab}" for lab in LABELS), *(f"pred_{lab}" for lab in LABELS)]
    rows = [",".join([f"P{i // 2}", *map(str, y[i]), *map(str, (s[i] >= 0.5).astype(int))]) for i in range(60)]
    path = tmp_path / "sets.csv"
    path.write_text(",".join(cols) + "\n" + "\n".join(rows) + "\n")
    out = tmp_path / "r.md"
    res = cli("report", "--answers", ROOT / "tests/situations/chex.yaml", path, "--bootstrap", "200", "--seed", "1",
              "-o", out)
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.count("without a score for each label") == 1
    assert "we report ROC AUC" not in text and "Macro-averaged ROC AUC (multi-label) |" not in text


def test_report_with_scores_shows_the_per_label_auc_and_resamples_patients(tmp_path, cli):
    path, y, s = _csv(tmp_path / "chex.csv", n=120)
    out = tmp_path / "r.md"
    res = cli("report", "--answers", ROOT / "tests/situations/chex.yaml", path, "--bootstrap", "200", "--seed", "1",
              "-o", out)
    assert res.exit_code == 0, res.output
    text = out.read_text()
    # no answer fixes the cut: each label's ROC AUC, and the planned F1 only (an illustration at 0.5)
    assert "| Label | Support | F1 | ROC AUC |" in text
    assert "resamples of the 40 patients" in text
    auc = roc_auc_score(y, s, average="macro")
    assert f"| Macro-averaged ROC AUC (multi-label) | {auc:.3f} [" in text
