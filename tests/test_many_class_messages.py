"""With a thousand classes every sentence that names classes stays short: a few names, then how many
more (issue 13: any number of classes; the report must stay readable)."""

from __future__ import annotations

import numpy as np
import pytest

import advisor
from advisor import InputError
from advisor._format import few_names
from advisor.questionnaire import recommend

K = 1000
LABELS = [f"class_{i:04d}" for i in range(K)]


def _matrix() -> advisor.ConfusionMatrix:
    rng = np.random.default_rng(0)
    y = rng.integers(0, K, 20_000)
    p = np.where(rng.random(y.shape[0]) < 0.7, y, rng.integers(0, K, y.shape[0]))
    return advisor.confusion_matrix([LABELS[i] for i in y], [LABELS[i] for i in p], labels=LABELS)


def test_few_names_counts_the_rest_and_shortens_each_name() -> None:
    assert few_names(LABELS) == ", ".join(LABELS[:10]) + " and 990 more"
    assert few_names(["x" * 500]) == "x" * 59 + "…"
    assert few_names([]) == ""


def test_answers_naming_other_classes_get_a_one_line_warning() -> None:
    rec = recommend({"task": "multiclass", "classes": ["negative", "neutral", "positive"]}, data=_matrix())
    text = " ".join(w.message for w in rec.warnings if w.code == "answers_data_mismatch")
    assert "1000 classes: class_0000, class_0001" in text and "and 990 more are not in the answers" in text
    assert "negative, neutral, positive are not in the data" in text
    assert len(text) < 400


def test_the_class_mismatch_names_what_differs_even_beyond_the_first_ten() -> None:
    labels = [f"class_{i:02d}" for i in range(30)]
    rng = np.random.default_rng(1)
    y = [labels[i] for i in rng.integers(0, 30, 3000)]
    said = labels[:20] + ["class_2O"] + labels[21:]  # a typo at position 20
    rec = recommend({"task": "multiclass", "classes": said}, data=advisor.confusion_matrix(y, y, labels=labels))
    text = " ".join(w.message for w in rec.warnings if w.code == "answers_data_mismatch")
    assert "class_20 is not in the answers" in text and "class_2O is not in the data" in text


def test_probability_columns_name_the_missing_and_the_unknown_class() -> None:
    from advisor.engine._score_eval import align_probabilities

    labels = [f"class_{i:02d}" for i in range(30)]
    columns = [c for c in labels if c != "class_25"] + ["class_99"]
    with pytest.raises(InputError) as err:
        align_probabilities(labels, np.full((3, 30), 1 / 30), columns, "scores.csv")
    msg = str(err.value)
    assert "no column for class_25" in msg and "columns for class_99, which is not a class" in msg


def test_an_unknown_positive_class_names_a_few_classes() -> None:
    with pytest.raises(InputError) as err:
        recommend({"task": "multiclass", "positive_class": "nope"}, data=_matrix())
    assert "and 990 more" in str(err.value) and len(str(err.value)) < 400
