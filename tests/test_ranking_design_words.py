"""The s35 shared-task and sarcasm readers: the paragraph names only procedures the report runs.

* Under the jackknife's intervals, how often each system ranks first comes from a bootstrap of the units drawn with
  the report's seed (advisor/stats/_compare.py): said so, in the paragraph and under the report's table.
* A leave-one-out value that is undefined leaves the jackknife without a variance: no interval, no separation, and
  the Definitions say it in the jackknife's terms.
* MCC is not added for chance correction beside balanced accuracy in a ranking: its strict chance level gives the
  chance-corrected ranking already.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import advisor
from advisor.report import build_report, methods_paragraph, render_report
from advisor.stats._jackknife import jackknife_p_value, jackknife_se, jackknife_t

ROOT = Path(__file__).resolve().parents[1]
SITUATIONS = ROOT / "tests" / "situations"
ANSWERS = "task: multiclass\nitem_name: utterance\ngroup: speaker_id\nranking: true\n"


def test_the_rank_first_shares_say_their_resamples_under_jackknife_intervals(tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS, encoding="utf-8")
    text = methods_paragraph(answers, "md", seed=5)
    assert "jackknife t intervals" in text
    assert "ranks first in 2,000 bootstrap resamples of speakers, seed 5" in text
    assert "ranks first across bootstrap resamples" not in text


def test_the_report_table_of_first_places_says_its_resamples(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    g = np.repeat(np.arange(12), rng.integers(5, 12, 12))
    y = rng.integers(0, 3, g.size)
    paths = []
    for name, acc in (("a", 0.8), ("b", 0.75), ("c", 0.5)):
        pred = np.where(rng.random(g.size) < acc, y, (y + 1) % 3)
        path = tmp_path / f"{name}.csv"
        path.write_text("speaker_id,y_true,y_pred\n" + "".join(f"s{a},{b},{c}\n" for a, b, c in zip(g, y, pred)),
                        encoding="utf-8")
        paths.append(path)
    answers = tmp_path / "answers.yaml"
    answers.write_text(ANSWERS, encoding="utf-8")
    ctx = build_report(answers, advisor.load(paths, group="speaker_id"), bootstrap=300, seed=9)
    text = render_report(ctx, "md", figures=False)
    assert "share of 300 bootstrap resamples of 12 speakers, seed 9, in which a system is best" in text
    assert "may be best (Hsu 1996)" in text and "5%/2 do not place them below the leader." in text


def test_an_undefined_leave_one_out_value_leaves_no_jackknife_variance() -> None:
    theta = np.array([0.7, np.nan, 0.9, 0.8])
    se, used = jackknife_se(theta)
    assert np.isnan(se) and used == 3
    lo, hi, why = jackknife_t(theta, 0.8, 0.95)
    assert np.isnan(lo) and np.isnan(hi) and why is not None and why.startswith("leaving out one of the groups")
    assert jackknife_p_value(theta, 0.5) == 1.0  # never separated
    assert jackknife_se(np.array([0.7, 0.9, 0.8]))[0] > 0  # every deletion defined: as before


def test_the_sarcasm_definitions_say_the_jackknife_not_resamples() -> None:
    text = methods_paragraph(SITUATIONS / "sarcasm.yaml", "md", seed=2024)
    assert "resamples in which it is undefined" not in text
    # before data the default convention is not said for a case only the data can meet (the s41 sarcasm reader: "cannot
    # happen unless one author holds all the predicted-sarcastic posts. Delete it."); chosen, it is, for the jackknife
    assert "zero denominator" not in text
    # where it is said (with data, where met), the jackknife's words: no resample is left out, the figure has none
    from advisor.report._methods import _undefined_sentence
    from advisor.report._methods_lists import Text

    said = Text()
    _undefined_sentence(said, "omit", 1, lambda *a: None, case=("precision when “sarcastic” is never predicted", True,
                                                                None, "precision"), resampled="jackknife:author")
    text = "".join(sp.text for sp in said.spans)
    assert "has no interval if leaving out one author makes it undefined" in text
    assert "resamples in which it is undefined" not in text


def test_the_shared_task_paragraph_names_no_dangling_procedure() -> None:
    text = methods_paragraph(SITUATIONS / "shared_task.yaml", "md", seed=2024).split("\n\n")[0]
    assert "Matthews" not in text  # balanced accuracy's chance level 1/4 gives the chance-corrected ranking
    assert "its chance level is 1/4" in text
    # the classes the author names (focus_classes: deny, query) take the per-class sentence's place; the table of
    # every class stays in the report, unpromised
    assert "Because “deny” and “query” matter most, we give the F1 score of each." in text
    assert "ranks first in 2,000 bootstrap resamples of threads, seed 2024" in text
    assert "Holm" not in text and "at 5%, Bonferroni-corrected, do not place them below the leader" in text
    assert "by which RumourEval 2019 ranked its teams" in text and "shared tasks" not in text


def test_mcc_added_for_chance_correction_says_its_role_with_a_source(tmp_path: Path) -> None:
    # no strict chance level among the figures (F1 leads, true negatives carry no information): MCC comes for the
    # chance correction the author prefers, said with the property and the work behind it
    answers = tmp_path / "answers.yaml"
    answers.write_text("task: binary\nclasses: [other, spam]\npositive_class: spam\ntrue_negatives_meaningful: false\n"
                       "ranking: true\nchance_correction: preferred\nitem_name: message\n", encoding="utf-8")
    text = methods_paragraph(answers, "md", seed=3)
    assert ("Matthews correlation coefficient, for chance correction: 0 in expectation for a random labeling "
            "(Gösgens et al. 2021)") in text
    assert "Gösgens, M." in text  # in the references
