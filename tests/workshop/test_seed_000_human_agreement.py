"""Seed 000 (GDPval A^HH): worked examples and testing scenarios 1-8, through the Python API,
the IRR report and the CLI. Every expected value is the seed's own hand computation."""
from __future__ import annotations

import json

import pytest

import agreement_sql as ag
from agreement_sql.cli import main
from conftest import LONG, long_table


def a_hh(traces, **kw):
    return {q: r["human_agreement"] for q, r in ag.human_agreement(long_table(traces), **LONG, **kw).items()}


# --- worked examples (seed 000, "Worked Examples") ---------------------------------------------

def test_perfect_agreement_likert_example():
    # [4, 4, 4] -> normalised 0.75 each -> every pair 1.0 -> A^HH 1.0
    assert a_hh({"t1": {"q": [4, 4, 4]}}) == {"q": 1.0}


def test_adjacent_ratings_example():
    # [3, 4] -> |0.5 - 0.75| = 0.25 -> 0.75; [2, 3] -> 0.75; mean 0.75
    assert a_hh({"t1": {"q": [3, 4]}, "t2": {"q": [2, 3]}}) == {"q": pytest.approx(0.75, abs=1e-12)}


def test_maximum_disagreement_example():
    # [1, 5] -> |0 - 1| = 1 -> 0.0
    assert a_hh({"t1": {"q": [1, 5]}}) == {"q": 0.0}


def test_binary_partial_agreement_three_raters_example():
    # [1, 1, 0] -> pair scores 1, 0, 0 -> 1/3; [0, 0, 1] -> 1/3; A^HH = 1/3
    got = a_hh({"t1": {"q": [1, 1, 0]}, "t2": {"q": [0, 0, 1]}})
    assert got["q"] == pytest.approx(1 / 3, abs=1e-12)


# --- testing scenarios 1-8 ------------------------------------------------------------------

SCENARIOS = {
    # 1: perfect agreement (Likert)
    "perfect_likert": ({"t1": {"q": [4, 4]}, "t2": {"q": [2, 2]}, "t3": {"q": [5, 5]}}, {"q": 1.0}),
    # 2: raters give 1 and 5 on all traces
    "max_disagreement": ({"t1": {"q": [1, 5]}, "t2": {"q": [5, 1]}}, {"q": 0.0}),
    # 3: raters differ by 1 (3 vs 4) -> 0.75
    "adjacent": ({"t1": {"q": [3, 4]}, "t2": {"q": [4, 3]}}, {"q": 0.75}),
    # 4: binary perfect agreement
    "binary_perfect": ({"t1": {"q": [1, 1]}, "t2": {"q": [0, 0]}}, {"q": 1.0}),
    # 5: binary complete disagreement
    "binary_disagreement": ({"t1": {"q": [1, 0]}, "t2": {"q": [0, 1]}}, {"q": 0.0}),
    # 6: three raters, T1 [3,4,5], T2 [1,1,2] -> (2/3 + 5/6) / 2 = 0.75 (hand-calculated)
    "three_raters": ({"t1": {"q": [3, 4, 5]}, "t2": {"q": [1, 1, 2]}}, {"q": 0.75}),
    # 7: q_1 perfect agreement, q_2 maximum disagreement, computed independently
    "per_metric": ({"t1": {"q_1": [3, 3], "q_2": [1, 5]}, "t2": {"q_1": [2, 2], "q_2": [5, 1]}},
                   {"q_1": 1.0, "q_2": 0.0}),
    # 8: t3 has one rater and is excluded: (0.75 + 0.75) / 2, not pulled to 1.0 by t3
    "single_rater_excluded": ({"t1": {"q": [3, 4]}, "t2": {"q": [2, 3]}, "t3": {"q": [5, None]}},
                              {"q": 0.75}),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_python_api(name):
    traces, expected = SCENARIOS[name]
    got = a_hh(traces)
    assert got == {q: pytest.approx(v, abs=1e-12) for q, v in expected.items()}


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_through_irr_report(name, workshop_file):
    traces, expected = SCENARIOS[name]
    report = ag.irr(workshop_file(traces))
    for q, v in expected.items():
        assert report["per_metric_scores"][q]["human_agreement"] == round(v, 3)
    # overall A^HH = mean of per-question values (seed 000, "Integration in IRR Service")
    assert report["human_agreement"] == round(sum(expected.values()) / len(expected), 3)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_through_cli(name, workshop_file, capsys):
    traces, expected = SCENARIOS[name]
    assert main(["irr", str(workshop_file(traces))]) == 0
    report = json.loads(capsys.readouterr().out)
    for q, v in expected.items():
        assert report["per_metric_scores"][q]["human_agreement"] == round(v, 3)


def test_no_multi_rater_trace_gives_none():
    # seed 000 edge case: no trace with two ratings -> None, never 0.0
    assert a_hh({"t1": {"q": [3, None]}, "t2": {"q": [None, 4]}}) == {"q": None}


def test_declared_scale_changes_normalisation():
    # Likert 1..7 declared: [3, 4] -> |2/6 - 3/6| = 1/6 -> 5/6
    got = a_hh({"t1": {"q": [3, 4]}}, scales={"q": (1, 7)})
    assert got["q"] == pytest.approx(5 / 6, abs=1e-12)


def test_out_of_range_ratings_are_clamped():
    # seed 000 clamps normalised ratings to [0, 1]: a 0 on the default Likert 1..5 scale
    # normalises to -0.25 -> 0.0, the same as a 1, so [0, 1] agrees fully; [2, 2] agrees fully
    assert a_hh({"t1": {"q": [0, 1]}, "t2": {"q": [2, 2]}})["q"] == 1.0


def test_declared_scale_rejects_a_rating_outside_it():
    with pytest.raises(ag.InvalidRatingError, match=r"e.g. 0 at .*trace_id='t1'"):
        a_hh({"t1": {"q": [0, 1]}, "t2": {"q": [2, 2]}}, scales={"q": (1, 5)})
