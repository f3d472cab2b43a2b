"""R irr's agree(): the share of units on which every rater agrees (sql/_agree.sql.j2).

The published values: irr's documentation, ``data(video); agree(video)`` prints
"Subjects = 20, Raters = 4, %-agree = 35" and ``agree(video, 1)`` "%-agree = 90"
(https://rdrr.io/pkg/irr/man/agree.html, "Example output"). The video data is irr's
``video`` (tests/reference/irr_video_20x4.csv, long rows of the R dataset). The oracle: irr's
own algorithm (R/agree.R: ``ratings <- na.omit(ratings)``; numbers: ``max - min <=
tolerance``; otherwise ``length(table(row)) == 1``) written with pandas here.
"""
from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import agreement_sql as ag
from agreement_sql.errors import OptionError
from conftest import REFERENCE, without_route

VIDEO = REFERENCE / "irr_video_20x4.csv"


def irr_agree(wide: pd.DataFrame, tolerance: float = 0.0) -> float:
    """irr::agree, transcribed: listwise deletion, then the share of rows that agree, in %."""
    ratings = wide.dropna()
    if all(pd.api.types.is_numeric_dtype(t) for t in ratings.dtypes):
        spread = ratings.max(axis=1) - ratings.min(axis=1)
        return 100.0 * float((spread <= tolerance).sum()) / len(ratings)
    return 100.0 * float((ratings.nunique(axis=1) == 1).sum()) / len(ratings)


def test_video_is_irrs_documented_output():
    simple = ag.agree(VIDEO)
    assert simple["percent"] == pytest.approx(35.0)        # irr docs: %-agree = 35
    assert (simple["n_items"], simple["n_raters"]) == (20, 4)   # Subjects = 20, Raters = 4
    assert simple["value"] == pytest.approx(0.35)
    assert simple["n_agree"] == 7                           # 7 of 20 subjects unanimous
    extended = ag.agree(VIDEO, tolerance=1)
    assert extended["percent"] == pytest.approx(90.0)      # irr docs: agree(video, 1) = 90
    assert ag.unanimous_agreement is ag.agree


def test_video_agrees_with_the_transcribed_algorithm():
    wide = pd.read_csv(VIDEO).pivot(index="item", columns="rater", values="value")
    for tol in (0, 1, 2):
        assert ag.agree(VIDEO, tolerance=tol)["percent"] == pytest.approx(irr_agree(wide, tol))


def test_diagnoses_labels_and_forms(force_route):
    # Fleiss (1971) diagnoses (irr's diagnoses): 5 of 30 subjects unanimous (counted by hand
    # from the published table: subjects 1, 5, 8, 15, 26 have six identical diagnoses)
    data = REFERENCE / "fleiss1971_diagnoses_30x6.csv"
    wide = pd.read_csv(data).pivot(index="item", columns="rater", values="value")
    got = ag.agree(data)
    assert got["percent"] == pytest.approx(irr_agree(wide)) == pytest.approx(100 * 5 / 30)
    force_route(units="counts")
    assert without_route(ag.agree(data)) == without_route(got)


def test_missing_ratings_package_default_and_irrs_listwise_deletion():
    # 4 units, raters a, b, c; unit 3 rated by a and b only (agree), unit 4 by a only
    t = pa.table({"item": [1, 1, 1, 2, 2, 2, 3, 3, 4],
                  "rater": ["a", "b", "c", "a", "b", "c", "a", "b", "a"],
                  "value": [1, 1, 1, 1, 2, 1, 3, 3, 2]})
    default = ag.agree(t)
    assert (default["n_agree"], default["n_items"]) == (2, 3)          # units 1 and 3 of 1, 2, 3
    assert default["n_excluded"]["single_rated"] == 1                  # unit 4's rating
    assert default["n_rows"] == default["n_ratings"] + sum(default["n_excluded"].values())
    complete = ag.agree(t, units="complete")
    wide = t.to_pandas().pivot(index="item", columns="rater", values="value")
    assert complete["percent"] == pytest.approx(irr_agree(wide)) == 50.0   # irr: units 1, 2
    assert complete["n_excluded"]["incomplete_unit"] == 2               # unit 3's two ratings
    assert complete["n_rows"] == complete["n_ratings"] + sum(complete["n_excluded"].values())
    assert "na.omit" in complete["conventions"]["units"]


def test_tolerance_is_refused_on_labels_and_by_slices():
    labels = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b"] * 2, "value": ["x", "x", "x", "y"]})
    assert ag.agree(labels)["value"] == 0.5
    with pytest.raises(OptionError, match="tolerance"):
        ag.agree(labels, tolerance=1)
    t = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": ["a", "b"] * 3, "value": [1, 1, 1, 2, 4, 4],
                  "day": ["d1", "d1", "d2", "d2", "d2", "d2"]})
    got = ag.agree(t, group_by="day")
    assert [(r["group"], r["value"]) for r in got] == [({"day": "d1"}, 1.0), ({"day": "d2"}, 0.5)]


def test_no_unit_rated_twice_is_none():
    t = pa.table({"item": [1, 2], "rater": ["a", "b"], "value": [1, 2]})
    got = ag.agree(t)
    assert (got["value"], got["percent"], got["n_items"]) == (None, None, 0)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=3, max_size=3),
                min_size=2, max_size=12),
       st.sampled_from([0, 1, 0.5, 2]))
def test_property_complete_units_are_irrs_agree(rows, tolerance):
    wide = pd.DataFrame(rows, columns=["a", "b", "c"], dtype="float64")
    if wide.dropna().empty or wide.notna().sum().sum() == 0:
        return
    long = wide.reset_index().melt(id_vars="index", var_name="rater", value_name="value")
    long = long.dropna().rename(columns={"index": "item"})
    got = ag.agree(pa.Table.from_pandas(long, preserve_index=False), tolerance=tolerance,
                   units="complete")
    # irr reads every rater column; a rater with no rating at all makes every row incomplete
    raters = set(long["rater"])
    chosen = wide[sorted(raters)]
    if chosen.dropna().empty:               # irr divides by zero subjects: NaN; here None
        assert got["value"] is None and got["n_items"] == 0
        return
    assert got["percent"] == pytest.approx(irr_agree(chosen, tolerance))


def test_the_docstring_example_runs(monkeypatch):
    # agree's docstring: irr's documented video output, run from the repository root
    import doctest

    from conftest import ROOT

    monkeypatch.chdir(ROOT)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    for test in finder.find(ag.agree, "agree", globs={"agree": ag.agree}):
        runner.run(test)
    outcome = runner.summarize(verbose=False)
    assert outcome.attempted >= 2 and outcome.failed == 0
