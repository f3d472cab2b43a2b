"""The workshop IRR report's rules (the README's irr() rules, seeds 000 and 001): validation order and messages, rounding
vs decisions, suggestions, patterns, the disagreement ranking, duplicates and declared scales."""
from __future__ import annotations

import math

import pytest

import agreement_sql as ag
from agreement_sql.reports import suggestions as S
from conftest import DATA, LONG, long_table, workshop_rows, write_jsonl


def irr(traces, **kw):
    return ag.irr(long_table(traces), **LONG, **kw)


# --- validation, in the seed's order, as error-shaped dicts ----------------------------------

@pytest.mark.parametrize("traces,message,n", [
    ({"t1": {"q": [3]}}, "Need at least 2 annotations to calculate IRR", 1),
    ({"t1": {"q": [3, 7]}, "t2": {"q": [1]}}, "Invalid rating 7: must be between 0 and 5", 3),
    ({"t1": {"q": [3]}, "t2": {"q": [4]}}, "Need at least 2 raters to calculate IRR, got 1", 2),
    ({"t1": {"q": [3, 4]}, "t2": {"q": [4, None]}},
     "Need at least 2 traces rated by multiple raters, got 1", 3),
])
def test_validation_messages(traces, message, n):
    report = irr(traces)
    # the seed's error shape, and the route every result carries (docs/decisions/0013)
    assert report.pop("route")[0]["statement"] == "irr_report"
    assert report == {"error": message, "metric_used": "none", "num_annotations": n,
                      "score": 0.0, "ready_to_proceed": False} | (
        {"invalid_rating": report["invalid_rating"]} if "invalid_rating" in report else {})


def test_invalid_rating_names_where_it_is():
    report = irr({"t1": {"q": [3, 7]}, "t2": {"q": [1, 2]}})
    assert report["invalid_rating"] == {"item": "t1", "rater": "u2", "metric": "q", "value": 7.0}


def test_invalid_rating_checked_before_rater_count():
    # one rater and a bad rating: the rating message wins (validation 2 precedes 3)
    report = irr({"t1": {"q": [9]}, "t2": {"q": [3]}})
    assert report["error"] == "Invalid rating 9: must be between 0 and 5"


def test_header_only_file_is_the_seed_error(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("trace_id,user_id,question_id,rating\n")
    assert ag.irr(path, **LONG)["error"] == "Need at least 2 annotations to calculate IRR"


# --- rounding and decisions ------------------------------------------------------------------

def test_74_96_displays_75_0_and_is_not_ready():
    # adjacent pairs: 1874 of 2500 agree = 74.96%; 2500 traces rated [1, 2] or [1, 5]
    traces = {f"t{i}": {"q": [1, 2] if i < 1874 else [1, 5]} for i in range(2500)}
    report = irr(traces)
    assert report["score"] == 75.0 and report["ready_to_proceed"] is False
    assert report["per_metric_scores"]["q"]["acceptable"] is False
    assert report["interpretation"] == "Moderate agreement"   # label from 74.96, not 75.0


def test_threshold_is_a_parameter():
    traces = {"t1": {"q": [1, 2]}, "t2": {"q": [1, 5]}}       # 50% adjacent
    assert irr(traces, threshold=50.0)["ready_to_proceed"] is True
    assert irr(traces, threshold=50.0)["threshold"] == 50.0


def test_overall_is_unweighted_mean_of_primary_scores():
    # q1 binary exact 50%; q2 Likert adjacent 100% -> 75.0 (ready at 75 on the unrounded value)
    traces = {"t1": {"q1": [1, 1], "q2": [3, 4]}, "t2": {"q1": [1, 0], "q2": [2, 2]}}
    report = irr(traces)
    assert report["score"] == 75.0 and report["ready_to_proceed"] is True
    assert report["suggestions"] == [S.LOW_CRITERIA]


def test_counts_and_completeness():
    # 3 raters x 3 traces = 9 possible annotations, 7 present -> 0.778, missing data
    report = irr({"t1": {"q": [1, 2, 3]}, "t2": {"q": [2, 2, None]}, "t3": {"q": [None, 4, 4]}})
    assert (report["num_raters"], report["num_traces"], report["num_annotations"]) == (3, 3, 7)
    assert report["completeness"] == round(7 / 9, 3) and report["missing_data"] is True


# --- suggestions (seed 001 rules with the documented Decision) -------------------------------

def _sugg(**kw):
    base = dict(lo=1.0, hi=5.0)
    return S.metric_suggestions(**{**base, **kw})


def test_suggestions_binary_low():
    got = _sugg(primary=40.0, exact=40.0, adjacent=100.0, is_binary=True, acceptable=False)
    assert got == [S.REVISE, S.CALIBRATE, S.CLARIFY_BINARY, S.BORDERLINE, S.DISCUSS]


def test_suggestions_likert_low_with_very_low_exact():
    got = _sugg(primary=60.0, exact=20.0, adjacent=60.0, is_binary=False, acceptable=False)
    assert got == [S.CLARIFY_RUBRIC, "Provide anchor examples for each rating level (1-5)",
                   S.SIMPLIFY, S.DISCUSS]


def test_close_but_not_exact_note_is_reachable():
    # Decision: emitted whenever adjacent >= 75 and exact < 50, also when acceptable
    assert _sugg(primary=80.0, exact=40.0, adjacent=80.0, is_binary=False, acceptable=True) == [S.CLOSE]
    assert _sugg(primary=95.0, exact=60.0, adjacent=95.0, is_binary=False, acceptable=True) == []


def test_anchor_wording_follows_declared_scale():
    got = _sugg(primary=60.0, exact=40.0, adjacent=60.0, is_binary=False, acceptable=False, lo=1.0, hi=7.0)
    assert "Provide anchor examples for each rating level (1-7)" in got


# --- patterns, per question --------------------------------------------------------------------

def test_patterns_in_seed_order_per_question():
    traces = {
        "trace-0123456789abcdef-long": {"bin": [1, 0], "lik": [1, 5, 4]},
        "t2": {"bin": [1, 1], "lik": [1, 5, 4]},
        "t3": {"bin": [1, 1], "lik": [2, 4, 4]},
    }
    report = irr(traces)
    assert report["per_metric_scores"]["bin"]["problematic_patterns"] == [
        "Rater u1 always gives Pass (no variation)",
        "Trace trace-0123456789... has disagreement (Pass vs Fail)",
    ]
    assert report["per_metric_scores"]["lik"]["problematic_patterns"] == [
        "Rater u3 always gives rating 4 (no variation)",
        "Trace t2... has extreme disagreement (range: 4)",
        "Trace trace-0123456789... has extreme disagreement (range: 4)",
        S.RATER_MEANS,   # means 1.33 vs 4.67 differ by >= 2
    ]
    assert report["problematic_patterns"][0] == "Rater u1 always gives Pass (no variation)"


def test_trace_patterns_are_capped_with_a_count():
    traces = {f"t{i:02d}": {"q": [1, 5]} for i in range(30)}
    report = irr(traces, max_patterns=5)
    pats = report["per_metric_scores"]["q"]["problematic_patterns"]
    assert pats[:2] == ["Rater u1 always gives rating 1 (no variation)",
                        "Rater u2 always gives rating 5 (no variation)"]
    assert pats[2:7] == [f"Trace t{i:02d}... has extreme disagreement (range: 4)" for i in range(5)]
    assert S.more_message(25) in pats


# --- per-trace disagreement ranking ------------------------------------------------------------

def test_trace_disagreement_ranking():
    report = irr({"t1": {"q": [1, 5]}, "t2": {"q": [3, 3]}, "t3": {"q": [2, 4]}})
    ranking = report["trace_disagreements"]
    assert [t["trace_id"] for t in ranking] == ["t1", "t3", "t2"]
    # population sigma of [1, 5] = 2.0 -> Very High, priority; [2, 4] -> 1.0 Moderate; [3, 3] -> 0
    assert ranking[0]["std_dev"] == pytest.approx(2.0) and ranking[0]["label"] == "Very High"
    assert ranking[0]["priority"] is True
    assert (ranking[1]["label"], ranking[1]["priority"]) == ("Moderate", False)
    assert (ranking[2]["std_dev"], ranking[2]["label"]) == (0.0, "Perfect")
    assert math.isclose(ranking[1]["std_dev"], 1.0)


# --- duplicates, bad values, declared scales ---------------------------------------------------

def _dup_rows():
    rows = workshop_rows({"t1": {"q": [3, 4]}, "t2": {"q": [2, 2]}})
    rows.append({"trace_id": "t1", "user_id": "u1", "ratings": {"q": 5}})
    return rows


def test_duplicate_rater_is_an_error_naming_it(tmp_path):
    path = write_jsonl(tmp_path / "a.jsonl", _dup_rows())
    with pytest.raises(ag.DuplicateRatingError, match=r"trace_id='t1', user_id='u1', question='q'.*2 times"):
        ag.irr(path)


@pytest.mark.parametrize("policy,expected_exact", [("first", 0.0), ("last", 0.0), ("mean", 0.0)])
def test_duplicate_policy(tmp_path, policy, expected_exact):
    path = write_jsonl(tmp_path / "a.jsonl", _dup_rows())
    report = ag.irr(path, on_duplicate=policy)
    assert report["num_annotations"] == 4        # the duplicate is not a third rater
    # t2 agrees; t1 is [3 or 5 or 4, 4]: first -> 3 vs 4 (adjacent), last -> 5 vs 4, mean -> 4 vs 4
    exact = {"first": 50.0, "last": 50.0, "mean": 100.0}[policy]
    assert report["per_metric_scores"]["q"]["exact_agreement"] == exact


def test_non_numeric_rating_names_value_and_place():
    table = long_table({"t1": {"q": [3, 4]}, "t2": {"q": [2, 2]}})
    import pyarrow as pa
    table = table.set_column(3, "rating", pa.array(["3", "4", "2", "two"]))
    with pytest.raises(ag.InvalidRatingError, match=r"'two' at \(trace_id='t2', user_id='u2', question_id='q'\)"):
        ag.irr(table, **LONG)


def test_declared_scales_override_detection():
    # all ratings 0/1 but declared Likert 0..4: primary is adjacent, not exact
    report = irr({"t1": {"q": [0, 1]}, "t2": {"q": [1, 1]}}, scales={"q": (0, 4)})
    m = report["per_metric_scores"]["q"]
    assert m["is_binary"] is False and m["score"] == 100.0
    assert m["scale"] == {"kind": "likert", "min": 0.0, "max": 4.0, "declared": True}


def test_declared_scale_for_unknown_question_is_an_error():
    with pytest.raises(ag.OptionError, match="'nope'"):
        irr({"t1": {"q": [1, 2]}, "t2": {"q": [1, 1]}}, scales={"nope": "binary"})


def test_missing_column_lists_available():
    with pytest.raises(ag.ColumnError, match=r"rater column 'annotator' not found.*'user_id'"):
        ag.irr(long_table({"t1": {"q": [1, 2]}}), item="trace_id", rater="annotator",
               metric="question_id", value="rating")


def test_bundled_example_report():
    # data/workshop_annotations.jsonl is designed (data/make_examples.py) with one poor question,
    # one borderline, one good Likert and one binary question; hand-checked figures:
    report = ag.irr(DATA / "workshop_annotations.jsonl")
    scores = {q: m["score"] for q, m in report["per_metric_scores"].items()}
    assert scores == {"accuracy": 94.5, "follows_policy": 81.0, "helpfulness": 48.6, "tone": 70.9}
    assert report["score"] == 73.7 and report["ready_to_proceed"] is False
    assert "Rater sme_bob always gives rating 4 (no variation)" in report["problematic_patterns"]


def test_integer_item_ids_from_parquet(tmp_path):
    # items keep their own type in SQL; the report's trace ids are text, as in the seed
    import pyarrow as pa
    table = pa.table({"item": [1234567890123456789, 1234567890123456789, 2, 2],
                      "rater": ["a", "b", "a", "b"], "value": [1, 5, 3, 3]})
    report = ag.irr(table)
    assert report["trace_disagreements"][0]["trace_id"] == "1234567890123456789"
    assert "Trace 1234567890123456... has extreme disagreement (range: 4)" in report["problematic_patterns"]


def test_annotation_counts_with_many_raters_and_questions():
    # 90 raters (three blocks of rater codes) over 2 questions, with gaps: annotations are the
    # distinct (trace, rater) pairs, counted here in Python
    import random
    import pyarrow as pa
    rng = random.Random(5)
    rows = [(f"t{t}", f"r{r:02d}", q, rng.randint(1, 5)) for t in range(12) for r in range(90)
            for q in ("q1", "q2") if rng.random() < 0.3]
    table = pa.table({"trace_id": [r[0] for r in rows], "user_id": [r[1] for r in rows],
                      "question_id": [r[2] for r in rows], "rating": [r[3] for r in rows]})
    report = ag.irr(table, **LONG)
    pairs = {(r[0], r[1]) for r in rows}
    assert report["num_annotations"] == len(pairs)
    assert report["num_raters"] == len({r[1] for r in rows})
    assert report["completeness"] == round(len(pairs) / (report["num_raters"] * 12), 3)
