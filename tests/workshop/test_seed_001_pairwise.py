"""Seed 001 (pairwise agreement IRR): its key test patterns through pairwise_agreement(), irr()
and the CLI. Expected values are the seed's own, or counted by hand in the comment."""
from __future__ import annotations

import json

import pytest

import agreement_sql as ag
from agreement_sql.cli import main
from conftest import LONG, long_table


def pw(traces, **kw):
    return ag.pairwise_agreement(long_table(traces), **LONG, **kw)


def test_perfect_agreement_both_modes_100():
    r = pw({"t1": {"q": [4, 4, 4]}, "t2": {"q": [2, 2, 2]}})["q"]
    assert (r["exact_agreement"], r["adjacent_agreement"]) == (100.0, 100.0)


def test_complete_disagreement_1_vs_5_is_0_both_modes():
    r = pw({"t1": {"q": [1, 5]}, "t2": {"q": [5, 1]}})["q"]
    assert (r["exact_agreement"], r["adjacent_agreement"]) == (0.0, 0.0)


def test_adjacent_but_not_exact():
    # 3 vs 4: 0% exact, 100% adjacent
    r = pw({"t1": {"q": [3, 4]}, "t2": {"q": [4, 3]}})["q"]
    assert (r["exact_agreement"], r["adjacent_agreement"]) == (0.0, 100.0)


def test_multi_rater_counts_all_pairs_pooled():
    # t1 [3, 3, 4]: 3 pairs, 1 exact, 3 adjacent; t2 [1, 2, 3, 5]: 6 pairs, 0 exact,
    # adjacent (1,2),(2,3) = 2. Pooled: exact 1/9, adjacent 5/9 (not a mean of per-trace rates)
    r = pw({"t1": {"q": [3, 3, 4]}, "t2": {"q": [1, 2, 3, 5]}})["q"]
    assert r["n_pairs"] == 9 and r["exact_pairs"] == 1 and r["adjacent_pairs"] == 5
    assert r["exact_agreement"] == pytest.approx(100 / 9)
    assert r["adjacent_agreement"] == pytest.approx(500 / 9)


def test_binary_exact_50_and_primary_is_exact():
    # binary via the ratings dict: t1 agrees, t2 disagrees -> exact 50%; adjacent is 100% but
    # meaningless for binary, so the primary score is exact
    r = pw({"t1": {"q": [1, 1]}, "t2": {"q": [1, 0]}})["q"]
    assert r["is_binary"] is True
    assert (r["exact_agreement"], r["adjacent_agreement"], r["primary"]) == (50.0, 100.0, 50.0)


def test_per_metric_scores_are_independent():
    r = pw({"t1": {"q1": [4, 4], "q2": [1, 5]}, "t2": {"q1": [2, 2], "q2": [2, 5]}})
    assert r["q1"]["adjacent_agreement"] == 100.0 and r["q2"]["adjacent_agreement"] == 0.0


def test_no_pairs_is_none_not_zero():
    r = pw({"t1": {"q": [3, None]}, "t2": {"q": [None, 4]}})["q"]
    assert r["n_pairs"] == 0 and r["exact_agreement"] is None and r["adjacent_agreement"] is None


def test_irr_end_to_end_perfect_agreement(workshop_file):
    report = ag.irr(workshop_file({"t1": {"q": [4, 4, 4]}, "t2": {"q": [2, 2, 2]}}))
    assert report["score"] == 100.0 and report["ready_to_proceed"] is True
    assert report["metric_used"] == "Pairwise Agreement"
    assert report["interpretation"] == "Excellent agreement"
    assert report["suggestions"] == []


def test_irr_per_metric_scores_include_agreement_details(workshop_file):
    # t1 [3, 4, 4]: pairs 3, exact 1, adjacent 3; t2 [2, 2, 5]: pairs 3, exact 1, adjacent 1
    # -> exact 2/6 = 33.3%, adjacent 4/6 = 66.7% -> primary (Likert) 66.7, Moderate, not acceptable
    report = ag.irr(workshop_file({"t1": {"q": [3, 4, 4]}, "t2": {"q": [2, 2, 5]}}))
    m = report["per_metric_scores"]["q"]
    assert set(m) >= {"score", "exact_agreement", "adjacent_agreement", "interpretation",
                      "acceptable", "suggestions", "is_binary", "krippendorff_alpha",
                      "human_agreement"}
    assert (m["score"], m["exact_agreement"], m["adjacent_agreement"]) == (66.7, 33.3, 66.7)
    assert m["interpretation"] == "Moderate agreement" and m["acceptable"] is False
    assert m["is_binary"] is False


def test_irr_cli_matches_python(workshop_file, capsys):
    path = workshop_file({"t1": {"q": [3, 4, 4]}, "t2": {"q": [2, 2, 5]}})
    assert main(["irr", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(ag.irr(path)))
