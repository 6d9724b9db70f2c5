"""Several training runs (seeds) of each system (issue 20 item 4), said by the author and carried through the plan, the
methods paragraph and the report.

Blind readers of the clustering, CoLA, NER, ImageNet and speech-emotion paragraphs asked for the variance across
training runs: "for stochastic algorithms the spread across runs is usually larger than the test-sample spread, so
winners declared from one run are not supported". The answers' ``runs`` says how many runs each system has; with
several, each system is its mean over them and the intervals resample runs and items (advisor compare's machinery,
:mod:`advisor.stats._runs`); with one, the paragraph says the conclusions hold for that run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score
from typer.testing import CliRunner

import advisor
from advisor import InputError
from advisor.cli import app
from advisor.plan import make_plan
from advisor.questionnaire import load_answers
from advisor.report import build_report, methods_paragraph
from test_methods_prose import evaluation_of, max_depth, repeated_ngram, sentences, words

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = ROOT / "tests" / "situations"
runner = CliRunner()


def _answers(tmp_path: Path, text: str, name: str = "answers.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _situation(tmp_path: Path, name: str, runs: int | None) -> Path:
    """A bundled situation with ``runs`` added (None: not answered)."""
    text = (SITUATIONS / f"{name}.yaml").read_text(encoding="utf-8")
    return _answers(tmp_path, text + ("" if runs is None else f"\nruns: {runs}\n"), f"{name}_{runs}.yaml")


def _paragraph_rules(text: str) -> None:
    assert 60 <= len(words(text)) <= 220, (len(words(text)), text)
    assert max_depth(text) <= 1 and repeated_ngram(text) is None, text
    assert not [s for s in sentences(text) if len(words(s)) > 40], text
    assert not [w for w in words(text) if "_" in w.strip(".,;:()")], text  # no snake_case ids


# ----------------------------------------------------------------------------------------------
# The answer
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["0", "-1", "x", "2.5", "true"])
def test_a_count_of_runs_that_is_not_a_whole_number_of_at_least_one_is_refused_in_one_sentence(tmp_path, value):
    path = _answers(tmp_path, f"task: multiclass\nruns: {value}\n")
    with pytest.raises(InputError) as err:
        load_answers(path)
    message = str(err.value)
    assert "'runs'" in message and "whole number of at least 1" in message, message
    assert message.count(". ") == 0 and message.endswith("."), message  # one sentence
    res = runner.invoke(app, ["methods", "--answers", str(path)])
    assert res.exit_code != 0 and "Traceback" not in res.output and "'runs'" in res.output, res.output


def test_runs_not_answered_stays_apart_from_one_run(tmp_path):
    assert load_answers(_answers(tmp_path, "task: multiclass\n")).runs is None
    assert load_answers(_answers(tmp_path, "task: multiclass\nruns: 1\n", "one.yaml")).runs == 1
    assert load_answers(_answers(tmp_path, "task: multiclass\nruns: null\n", "null.yaml")).runs is None


def test_the_plan_carries_the_runs_into_its_design_and_its_record_of_answers(tmp_path):
    plan = make_plan(load_answers(_situation(tmp_path, "cola", 5)))
    assert plan.design.runs == 5
    # a mean over runs is not binomial: BCa for every metric, and no McNemar test among the paired tests
    assert set(plan.design.interval_methods.values()) <= {"bca", "none"}, plan.design.interval_methods
    assert plan.design.test is None or "McNemar" not in plan.design.test
    use = next(a for a in plan.answers if a.key == "runs")
    assert use.value == 5 and use.unused is None and "mean over its training runs" in use.used_by[0]
    one = make_plan(load_answers(_situation(tmp_path, "cola", 1)))
    assert one.design.runs == 1 and "clopper_pearson" in one.design.interval_methods.values()
    none = make_plan(load_answers(_situation(tmp_path, "cola", None)))
    assert none.design.runs is None and not any(a.key == "runs" for a in none.answers)
    assert none.design.interval_methods == one.design.interval_methods
    assert plan.to_json_dict()["design"]["runs"] == 5  # what recommend --json and the report's JSON show


# ----------------------------------------------------------------------------------------------
# The paragraph before data
# ----------------------------------------------------------------------------------------------
def test_five_runs_are_said_as_a_mean_with_resamples_of_runs_and_items(tmp_path):
    md = methods_paragraph(_situation(tmp_path, "cola", 5), "md", seed=7)
    text = evaluation_of(md)
    assert "Every figure is the mean over each system's 5 training runs (Bouthillier et al. 2021)." in text, text
    assert ("Intervals are 95% BCa intervals from 2,000 bootstrap resamples of each system's runs and then of the "
            "sentences, seed 7.") in text, text
    # the exact interval and McNemar's test, which a single run would get, are said not to apply
    assert ("A mean over runs is not a binomial proportion, so accuracy takes no exact Clopper–Pearson interval and "
            "McNemar's test does not apply.") in text, text
    assert "exact Clopper–Pearson interval." not in text.replace("no exact Clopper–Pearson interval", "")
    assert "Accounting for Variance in Machine Learning Benchmarks" in md  # the source, in the references
    _paragraph_rules(text)


def test_one_run_of_systems_compared_is_said_to_bound_the_conclusions(tmp_path):
    text = evaluation_of(methods_paragraph(_situation(tmp_path, "imagenet", 1), "md", seed=7))
    assert ("Each system is evaluated in a single training run, so these conclusions hold for that run, not for "
            "retraining with another seed.") in text, text
    assert "Bouthillier" not in text and "mean over" not in text
    _paragraph_rules(text)
    absent = evaluation_of(methods_paragraph(_situation(tmp_path, "imagenet", None), "md", seed=7))
    assert "single training run" not in absent and "runs" not in absent  # not answered: as before


def test_one_run_of_a_single_system_adds_nothing(tmp_path):
    """CoLA's paragraph compares no systems: one run answered changes nothing there."""
    one = evaluation_of(methods_paragraph(_situation(tmp_path, "cola", 1), "md", seed=7))
    absent = evaluation_of(methods_paragraph(_situation(tmp_path, "cola", None), "md", seed=7))
    assert one == absent


@pytest.mark.parametrize("runs", [5, 1, None])
def test_the_clustering_paragraph_keeps_its_rules_with_runs_or_without(tmp_path, runs):
    text = evaluation_of(methods_paragraph(_situation(tmp_path, "clustering", runs), "md", seed=7))
    _paragraph_rules(text)
    scope = "These intervals reflect which articles were drawn for the test, not reruns of a clustering algorithm"
    one = "Each clustering is one run of its algorithm, so the conclusions hold for that run, not for other seeds."
    if runs is None:  # not answered: what the resampling leaves out, as before
        assert scope in text and one not in text and "Bouthillier" not in text
    elif runs == 1:
        assert one in text and scope not in text, text
    else:  # a partition report cannot yet combine runs: nothing is promised that it would refuse, the answer is
        # kept as unused with the reason, and the report takes one file per clustering (the lead's review)
        assert scope in text and one not in text and "Bouthillier" not in text, text
        plan = make_plan(load_answers(_situation(tmp_path, "clustering", runs)))
        use = next(a for a in plan.answers if a.key == "runs")
        assert plan.design.runs is None and not use.used_by
        assert use.unused and "label_structure: partition" in use.unused


# ----------------------------------------------------------------------------------------------
# The report with data
# ----------------------------------------------------------------------------------------------
def _runs_files(tmp_path: Path, n: int = 240, runs: int = 3) -> tuple[np.ndarray, dict[str, list[np.ndarray]],
                                                                         dict[str, list[Path]]]:
    """Two systems × ``runs`` runs of synthetic labels of 3 classes on the same ``n`` items."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 3, n)
    preds: dict[str, list[np.ndarray]] = {}
    files: dict[str, list[Path]] = {}
    for name, skill in (("A", 0.8), ("B", 0.65)):
        for r in range(runs):
            p = np.where(rng.random(n) < skill - 0.05 * r, y, rng.integers(0, 3, n))
            path = tmp_path / f"{name.lower()}_seed{r + 1}.csv"
            path.write_text("y_true,y_pred\n" + "".join(f"c{t},c{q}\n" for t, q in zip(y, p)), encoding="utf-8")
            preds.setdefault(name, []).append(p)
            files.setdefault(name, []).append(path)
    return y, preds, files


def test_table_1_gives_each_systems_mean_over_its_runs_with_an_interval_that_contains_it(tmp_path):
    y, preds, files = _runs_files(tmp_path)
    paths = [p for name in ("A", "B") for p in files[name]]
    runs = [name for name in ("A", "B") for _ in files[name]]
    columns = [f"{name} (run {i + 1})" for name in ("A", "B") for i in range(len(files[name]))]
    answers = _answers(tmp_path, "task: multiclass\nitem_name: sentence\nruns: 3\n")
    ctx = build_report(answers, advisor.load(paths, names=columns), bootstrap=400, seed=5, runs=runs)
    assert [s.name for s in ctx.systems] == ["A", "B"] and all(s.runs == 3 for s in ctx.systems)
    expected = {
        "accuracy": lambda p: accuracy_score(y, p),
        "balanced_accuracy": lambda p: balanced_accuracy_score(y, p),
        "macro_f1": lambda p: f1_score(y, p, average="macro"),
    }
    for rep in ctx.systems:
        for mid, metric in expected.items():
            mean = float(np.mean([metric(p) for p in preds[rep.name]]))
            assert rep.values[mid] == pytest.approx(mean, abs=1e-12), (rep.name, mid)
            iv = rep.intervals[mid]
            assert iv.estimate == pytest.approx(mean, abs=1e-12)
            assert iv.low is not None and iv.high is not None and iv.low <= iv.estimate <= iv.high, (rep.name, mid, iv)
            assert iv.method == "bca"  # a mean over runs: no exact interval
    assert ctx.intervals.runs == 3 and ctx.intervals.runs_by_system == {"A": 3, "B": 3}
    assert not ctx.intervals.mcnemar
    assert ctx.plan["design"]["runs"] == 3 and ctx.plan["design"]["systems"] == 2
    # the paired differences and the winners are the two systems', not the six runs'
    table = next(t for t in ctx.tables if t.id == "paired_differences")
    assert table.columns[1] == "A − B"
    assert set(ctx.winners["balanced_accuracy"]) <= {"A", "B"}


def test_the_report_of_runs_agrees_with_compare(tmp_path):
    """One machinery: the report's intervals are compare_joint's with the same runs and seed."""
    _, _, files = _runs_files(tmp_path, runs=2)
    paths = [p for name in ("A", "B") for p in files[name]]
    runs = [name for name in ("A", "B") for _ in files[name]]
    columns = [f"{name} (run {i + 1})" for name in ("A", "B") for i in range(2)]
    ds = advisor.load(paths, names=columns)
    answers = _answers(tmp_path, "task: multiclass\n")
    ctx = build_report(answers, ds, bootstrap=300, seed=9, runs=runs)
    cmp = advisor.stats.compare_joint(ds.joint, 300, 9, ["balanced_accuracy", "accuracy"], runs=runs)
    for rep in ctx.systems:
        for mid in ("balanced_accuracy", "accuracy"):
            got, want = rep.intervals[mid], cmp.metrics[mid].systems[rep.name]
            assert got.estimate == pytest.approx(want.estimate, abs=1e-12)
            assert (got.low, got.high) == pytest.approx((want.low, want.high), abs=1e-12), (rep.name, mid)


def test_the_report_refuses_runs_that_differ_from_the_answers(tmp_path):
    _, _, files = _runs_files(tmp_path, runs=2)
    paths = [p for name in ("A", "B") for p in files[name]]
    columns = [f"{name} (run {i + 1})" for name in ("A", "B") for i in range(2)]
    answers = _answers(tmp_path, "task: multiclass\nruns: 5\n")
    with pytest.raises(InputError, match=r"^The answers give runs: 5, but A has 2 run files; give 5 files for every "
                                         r"system \(NAME=FILE, the name repeated\), or change runs in the answers\.$"):
        build_report(answers, advisor.load(paths, names=columns), bootstrap=0, runs=["A", "A", "B", "B"])


# ----------------------------------------------------------------------------------------------
# The command, end to end
# ----------------------------------------------------------------------------------------------
def test_the_cli_writes_a_markdown_report_of_two_systems_with_three_runs_each(tmp_path):
    _, _, files = _runs_files(tmp_path)
    answers = _answers(tmp_path, "task: multiclass\nitem_name: sentence\nruns: 3\n")
    out = tmp_path / "report.md"
    args = [f"{name}={p}" for name in ("A", "B") for p in files[name]]
    res = runner.invoke(app, ["report", *args, "--answers", str(answers), "-o", str(out), "--seed", "4",
                              "--bootstrap", "400"])
    assert res.exit_code == 0, res.output
    md = out.read_text(encoding="utf-8")
    assert "| Metric | A (3 runs) | B (3 runs) |" in md, md
    assert "each the mean over the system's training runs" in md
    text = evaluation_of(md)
    assert "Every figure is the mean over each system's 3 training runs (Bouthillier et al. 2021)." in text, text
    assert "paired bootstrap resamples of each system's runs and then of the sentences, seed 4." in text, text
    assert "McNemar's test does not apply" in text
    _paragraph_rules(text)


def test_the_cli_says_a_mismatch_and_an_unsupported_path_in_one_sentence(tmp_path):
    _, _, files = _runs_files(tmp_path, runs=2)
    args = [f"{name}={p}" for name in ("A", "B") for p in files[name]]
    five = _answers(tmp_path, "task: multiclass\nruns: 5\n", "five.yaml")
    res = runner.invoke(app, ["report", *args, "--answers", str(five), "-o", str(tmp_path / "r.md")])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "The answers give runs: 5, but A has 2 run files" in res.output, res.output
    # one file per system while the answers say three runs: the same sentence
    three = _answers(tmp_path, "task: multiclass\nruns: 3\n", "three.yaml")
    res = runner.invoke(app, ["report", str(files["A"][0]), str(files["B"][0]), "--answers", str(three),
                              "-o", str(tmp_path / "r.md")])
    assert res.exit_code != 0 and "The answers give runs: 3, but a_seed1 has 1 run file" in res.output, res.output
    # partitions cannot average runs yet: said, with what is supported
    part = _answers(tmp_path, "label_structure: partition\n", "part.yaml")
    res = runner.invoke(app, ["report", *args, "--answers", str(part), "-o", str(tmp_path / "r.md")])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "a report averages runs only for label predictions of one class per item" in res.output, res.output
    assert "not for partitions" in res.output


def test_a_clustering_report_with_one_run_answered_says_it_as_the_paragraph_before_data_does(tmp_path):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 120)
    files = []
    for name in ("kmeans", "spectral"):
        p = np.where(rng.random(y.size) < 0.7, y, rng.integers(0, 6, y.size))
        path = tmp_path / f"{name}.csv"
        path.write_text("y_true,y_pred\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p)), encoding="utf-8")
        files.append(str(path))
    out = tmp_path / "c.md"
    res = runner.invoke(app, ["report", *files, "--answers", str(_situation(tmp_path, "clustering", 1)), "-o", str(out),
                              "--bootstrap", "200", "--seed", "1"])
    assert res.exit_code == 0, res.output
    text = evaluation_of(out.read_text(encoding="utf-8"))
    assert "Each clustering is one run of its algorithm, so the conclusions hold for that run, not for other seeds." \
        in text, text
    assert "These intervals reflect which articles were drawn" not in text


def test_several_runs_answered_for_a_partition_report_are_not_planned_and_do_not_block_it(tmp_path, monkeypatch):
    """A partition report takes one file per clustering: with runs: 5 answered, the plan keeps the answer as unused
    (with the reason) and the report is written, not refused for a mismatch it could never meet."""
    structures = ROOT / "examples" / "structures"
    answers = tmp_path / "partition_5.yaml"
    answers.write_text((structures / "partition_answers.yaml").read_text(encoding="utf-8") + "\nruns: 5\n",
                       encoding="utf-8")
    monkeypatch.chdir(structures)
    out = tmp_path / "report.md"
    result = runner.invoke(app, ["report", "--answers", str(answers), "clusters_a.csv", "clusters_b.csv",
                                 "--seed", "7", "--bootstrap", "200", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "Bouthillier" not in text and "mean over each" not in text
    assert "These intervals reflect which articles were drawn for the test, not reruns" in text  # as not answered
