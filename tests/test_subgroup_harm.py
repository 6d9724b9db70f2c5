"""The author's harm within a subgroup decides which bias AUC leads beside ROC AUC, and the author's words name the
groups (the tox readers: "the harm the author named is exactly what BPSN AUC measures, yet the paper leads with
overall ROC AUC"; "quoted column names read as tool language"; "if only a binary flag exists, say so").

Decided from the answers (``subgroup_harm``, ``subgroup_descriptions``), never from the situation's name: the same
rule reads a moderation queue and a queue of flagged job adverts alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.questionnaire import answers_from_mapping, load_answers
from advisor.report import build_report

from advisor._exceptions import InputError

TOXIC = Path(__file__).resolve().parent / "situations" / "toxic.yaml"


def _parts(answers):
    ctx = build_report(answers, None, bootstrap=2000, seed=2024)
    ev = "".join(sp.text if sp.kind == "text" else "(c)" for par in ctx.methods if par.heading == "Evaluation"
                 for sp in par.spans)
    limits = "".join(sp.text if sp.kind == "text" else "(c)" for par in ctx.methods if par.heading == "Limitations"
                     for sp in par.spans)
    return ev, limits


def _toxic(**update):
    return load_answers(TOXIC).model_copy(update=update)


def test_the_harm_named_puts_its_bias_auc_beside_the_lead():
    ev, _ = _parts(_toxic())
    lead = ev.index("We lead with ROC AUC")
    co = ev.index("BPSN AUC")
    assert lead < co < ev.index("We also report"), ev  # said with the lead, before the metrics beside it
    assert "because the harm is a subgroup's non-toxic comments flagged as toxic" in ev.lower()
    assert "the subgroup and BNSP AUCs" in ev  # the other two follow, named once


def test_a_missed_harm_puts_the_bnsp_auc_beside_the_lead():
    ev, _ = _parts(_toxic(subgroup_harm="missed"))
    assert ev.index("We lead with ROC AUC") < ev.index("BNSP AUC") < ev.index("We also report"), ev
    assert "toxic comments left unflagged" in ev
    assert "the subgroup and BPSN AUCs" in ev


@pytest.mark.parametrize("harm", [None, "unknown"])
def test_no_harm_named_no_bias_auc_leads(harm):
    ev, _ = _parts(_toxic(subgroup_harm=harm))
    assert "leads beside it" not in ev and "also leads" not in ev
    assert "BPSN" in ev and "BNSP" in ev  # the three AUCs side by side, as before


def test_the_rule_reads_the_answers_not_the_situation():
    """Job adverts flagged as scams, by the region they mention: the same answers, the same rule, other words."""
    ans = answers_from_mapping({
        "context": "Job adverts are scored as scams and adverts above the threshold are held for review.",
        "item_name": "advert", "task": "binary", "classes": ["genuine", "scam"], "positive_class": "scam",
        "outputs": "scores", "operating_point": "open", "subgroups": ["region"], "subgroup_harm": "false_alarm",
        "subgroup_descriptions": {"region": "adverts from each region"}})
    ev, limits = _parts(ans)
    assert "genuine adverts flagged as scam" in ev and "BPSN AUC" in ev, ev
    assert "separately for adverts from each region" in ev and "“region”" not in ev
    assert not limits  # a region is no pool of identities: no limitation of a single identity flag


def test_the_authors_words_name_the_groups_and_the_column_stays_out_of_the_paragraph():
    ev, _ = _parts(_toxic())
    assert "separately for comments that mention an identity and those that do not" in ev
    assert "identity_mentioned" not in ev and "each value" not in ev
    ev, _ = _parts(_toxic(subgroup_descriptions={}))
    assert "within each value of “identity_mentioned”" in ev  # no words given: the column, quoted as given


def test_one_identity_flag_is_said_as_a_limitation_before_data():
    _, limits = _parts(_toxic())
    assert limits.startswith("If “identity_mentioned” is a single flag for any identity mentioned, its bias AUCs pool "
                             "identities that unintended-bias work scores one by one"), limits
    assert "not comparable with the benchmark's (c)" in limits
    _, limits = _parts(_toxic(subgroups=["gay", "muslim", "black"]))
    assert not limits  # one column per identity: the AUCs are per identity, as Borkan et al. compute them


def test_a_description_is_a_short_plain_phrase():
    with pytest.raises(InputError, match="short phrase"):
        answers_from_mapping({"task": "binary", "classes": ["a", "b"], "positive_class": "b", "subgroups": ["g"],
                              "subgroup_descriptions": {"g": "x" * 121}})


def test_both_harms_put_both_bias_aucs_beside_the_lead():
    ev, _ = _parts(_toxic(subgroup_harm="both"))
    co = next(s for s in ev.split(". ") if "BPSN and BNSP AUCs" in s)
    assert co.startswith("Because the harm is a subgroup's non-toxic comments flagged and its toxic comments left "
                         "unflagged"), co
    assert ev.index("We lead with ROC AUC") < ev.index(co) < ev.index("We also report")
    assert "We also give the subgroup AUC." in ev
