"""Krippendorff's alpha against the reference library `krippendorff` (PyPI, test-only), the
declared value domain, and the degenerate cases with their documented values.

Property tests draw random long tables (missing ratings, raters who rate different numbers of
units, 2-10 categories with gaps between values) and compare at all four levels to 1e-9
(marked slow, 60 examples a level: ``pytest -m slow``; test_forms.py checks the library on
fixed random tables in every form in the default run).
Conventions where the library has none (docs/alpha_and_bootstrap.md): no pairable unit ->
None; a single category among the pairable values -> 1.0 (the library returns NaN or raises).
"""
from __future__ import annotations

import math

import krippendorff
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agreement_sql import InvalidRatingError, OptionError, krippendorff_alpha
from _budget import examples

LEVELS = ("nominal", "ordinal", "interval", "ratio")


@st.composite
def long_tables(draw):
    """(rows, wide matrix raters x units with NaN for missing, the values used)."""
    n_units = draw(st.integers(1, 14))
    n_raters = draw(st.integers(1, 7))
    n_categories = draw(st.integers(2, 10))
    categories = sorted(draw(st.lists(st.integers(1, 40), min_size=n_categories,
                                      max_size=n_categories, unique=True)))
    p_missing = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8]))
    wide = np.full((n_raters, n_units), np.nan)
    for r in range(n_raters):
        for u in range(n_units):
            if draw(st.floats(0, 1)) >= p_missing:
                wide[r, u] = draw(st.sampled_from(categories))
    rows = [(f"u{u:02d}", f"r{r}", wide[r, u]) for r in range(n_raters) for u in range(n_units)
            if not math.isnan(wide[r, u])]
    return rows, wide, categories


def _table(rows):
    return pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                     "value": pa.array([r[2] for r in rows], pa.float64())})


def _pairable_values(wide):
    counts = (~np.isnan(wide)).sum(axis=0)
    return sorted(set(wide[:, counts >= 2][~np.isnan(wide[:, counts >= 2])]))


@pytest.mark.slow                      # 60 examples a level; test_forms.py checks fixed tables
@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=long_tables())
def test_alpha_matches_krippendorff(level, data):
    rows, wide, categories = data
    if not rows:
        return
    ours = krippendorff_alpha(_table(rows), level=level)
    pairable = _pairable_values(wide)
    if not pairable:
        assert ours["value"] is None and ours["n_items"] == 0
        return
    if len(pairable) == 1:
        assert ours["value"] == 1.0 and ours["n_categories"] == 1
        return
    theirs = krippendorff.alpha(reliability_data=wide, level_of_measurement=level,
                                value_domain=sorted(set(wide[~np.isnan(wide)])))
    assert ours["value"] == pytest.approx(theirs, abs=1e-9)
    # a declared domain with unused values changes nothing (ordinal ranks use n_c = 0 for them)
    domain = sorted(set(categories) | {0, 41, 45})
    with_domain = krippendorff_alpha(_table(rows), level=level, domain=domain)
    theirs_domain = krippendorff.alpha(reliability_data=wide, level_of_measurement=level,
                                       value_domain=domain)
    assert with_domain["value"] == pytest.approx(theirs_domain, abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_ordinal_domain_with_unused_values_against_the_library(level):
    # ratings use 1, 2, 5 of a declared 1..7 scale
    wide = np.array([[1, 2, 5, 5, np.nan, 1],
                     [1, 2, 5, 2, 1, np.nan],
                     [2, 2, 5, np.nan, 1, 1]], dtype=float)
    rows = [(f"u{u}", f"r{r}", wide[r, u]) for r in range(3) for u in range(6) if not np.isnan(wide[r, u])]
    domain = [1, 2, 3, 4, 5, 6, 7]
    ours = krippendorff_alpha(_table(rows), level=level, domain=domain)
    theirs = krippendorff.alpha(reliability_data=wide, level_of_measurement=level, value_domain=domain)
    assert ours["value"] == pytest.approx(theirs, abs=1e-12)
    assert ours["domain"] == domain and ours["n_categories"] == 3


@pytest.mark.parametrize("level", LEVELS)
def test_text_labels_with_a_declared_order_are_their_ranks(level):
    labels = ["low", "mid", "high"]
    wide = np.array([[1, 2, 3, 3, 2, np.nan, 1],
                     [1, 3, 3, 2, 2, 1, np.nan],
                     [np.nan, 2, 3, 3, 1, 1, 1]], dtype=float)
    rows = [(f"u{u}", f"r{r}", labels[int(wide[r, u]) - 1]) for r in range(3) for u in range(7)
            if not np.isnan(wide[r, u])]
    table = pa.table({"item": [r[0] for r in rows], "rater": [r[1] for r in rows],
                      "value": [r[2] for r in rows]})
    ours = krippendorff_alpha(table, level=level, domain=labels)
    theirs = krippendorff.alpha(reliability_data=wide, level_of_measurement=level, value_domain=[1, 2, 3])
    assert ours["value"] == pytest.approx(theirs, abs=1e-12)
    if level == "nominal":   # nominal needs no declared order: labels are categories as they are
        assert krippendorff_alpha(table, level="nominal")["value"] == pytest.approx(theirs, abs=1e-12)


def test_numbers_match_the_domain_by_value():
    # "2" and "2.0" are the same number 2 (docs/decisions/0002), with a declared domain or
    # without one, at every level
    table = pa.table({"item": ["a", "a", "b", "b", "c", "c"], "rater": ["x", "y"] * 3,
                      "value": ["2", "2.0", "1", "1", "2", "1"]})
    declared = krippendorff_alpha(table, level="nominal", domain=[1, 2])
    wide = np.array([[2, 1, 2], [2, 1, 1]], dtype=float)
    expected = krippendorff.alpha(reliability_data=wide, level_of_measurement="nominal")
    assert declared["value"] == pytest.approx(expected, abs=1e-12)
    undeclared = krippendorff_alpha(table, level="nominal")
    assert undeclared["n_categories"] == 2                    # 1 and 2, not the text "2.0"
    assert undeclared["value"] == pytest.approx(expected, abs=1e-12)
    assert krippendorff_alpha(table, level="interval")["value"] == pytest.approx(
        krippendorff.alpha(reliability_data=wide, level_of_measurement="interval"), abs=1e-12)


def test_a_rating_outside_the_domain_names_value_and_row():
    table = pa.table({"item": ["a", "a", "b", "b"], "rater": ["x", "y", "x", "y"],
                      "value": ["low", "high", "mid", "medium"]})
    with pytest.raises(InvalidRatingError) as err:
        krippendorff_alpha(table, level="ordinal", domain=["low", "mid", "high"])
    message = str(err.value)
    assert "1 rating(s) in column 'value' lie outside the declared domain ['low', 'mid', 'high']" in message
    assert "'medium' at (item='b', rater='y')" in message
    # a number is shown as a number, a label quoted
    with pytest.raises(InvalidRatingError, match=r", e\.g\. 7 at \(item='b', rater='y'\)"):
        krippendorff_alpha(pa.table({"item": ["a", "a", "b", "b"], "rater": ["x", "y"] * 2,
                                     "value": [1, 2, 3, 7]}), level="interval", domain=[1, 2, 3, 4, 5])


@pytest.mark.parametrize("domain,message", [
    ([], "domain is empty"),
    ("low,mid", "domain must be a list"),
    ([3, 2, 1], "increasing order"),
    ([1, 1, 2], "lists 1 twice"),
    ([1, "a"], "mixes numbers and text"),
    ([True, False], "numbers or text labels"),
    ([1.0, float("nan")], "finite"),
])
def test_bad_domains_are_option_errors(domain, message):
    with pytest.raises(OptionError, match=message):
        krippendorff_alpha(pa.table({"item": ["a", "a"], "rater": ["x", "y"], "value": [1, 2]}),
                           domain=domain)


def test_non_numeric_ratings_need_nominal_or_a_domain():
    table = pa.table({"item": ["a", "a"], "rater": ["x", "y"], "value": ["low", "high"]})
    with pytest.raises(InvalidRatingError, match="are not numbers"):
        krippendorff_alpha(table, level="ordinal")
    assert krippendorff_alpha(table, level="ordinal", domain=["low", "high"])["value"] is not None


# --- degenerate cases: the documented values -------------------------------------------------

def _rows(wide):
    return _table([(f"u{u}", f"r{r}", wide[r][u]) for r in range(len(wide))
                   for u in range(len(wide[0])) if wide[r][u] is not None])


@pytest.mark.parametrize("level", LEVELS)
def test_one_category_is_perfect_agreement(level):
    r = krippendorff_alpha(_rows([[3, 3, 3], [3, 3, None]]), level=level)
    assert r["value"] == 1.0 and r["n_categories"] == 1
    assert r["observed_disagreement"] == 0.0 and r["expected_disagreement"] == 0.0
    assert r["interpretation"] == "reliable"


@pytest.mark.parametrize("level", LEVELS)
def test_everyone_agrees_on_every_unit(level):
    r = krippendorff_alpha(_rows([[1, 2, 4, 4], [1, 2, 4, 4], [1, None, 4, None]]), level=level)
    assert r["value"] == 1.0 and r["observed_disagreement"] == 0.0 and r["n_categories"] == 3


@pytest.mark.parametrize("level", LEVELS)
def test_one_rater_is_undefined(level):
    r = krippendorff_alpha(_rows([[1, 2, 3, 4]]), level=level)
    assert r["value"] is None and r["interpretation"] is None
    assert (r["n_items"], r["n_values"], r["n_categories"], r["n_raters"]) == (0, 0, 0, 1)
    assert r["observed_disagreement"] is None and r["expected_disagreement"] is None


@pytest.mark.parametrize("level", LEVELS)
def test_no_item_rated_twice_is_undefined(level):
    r = krippendorff_alpha(_rows([[1, None, 3], [None, 2, None]]), level=level)
    assert r["value"] is None and r["n_items"] == 0 and r["n_raters"] == 2


@pytest.mark.parametrize("level", LEVELS)
def test_a_declared_category_never_used_changes_nothing(level):
    wide = [[1, 2, 3, 3, 2], [1, 3, 3, 2, 2], [2, 2, None, 3, 1]]
    plain = krippendorff_alpha(_rows(wide), level=level)
    declared = krippendorff_alpha(_rows(wide), level=level, domain=[1, 2, 3, 4, 5])
    assert declared["value"] == pytest.approx(plain["value"], abs=1e-12)
    assert declared["n_categories"] == plain["n_categories"] == 3


def test_single_rating_units_drop_out():
    # unit u2 has one value only: alpha is the same as without it
    with_single = krippendorff_alpha(_rows([[1, 2, 5], [1, 3, None]]), level="interval")
    without = krippendorff_alpha(_rows([[1, 2], [1, 3]]), level="interval")
    assert with_single["value"] == pytest.approx(without["value"], abs=1e-12)
    assert with_single["n_items"] == 2


def test_domain_is_checked_after_the_duplicate_policy():
    # rater y rated item a twice (2 and 3): "mean" makes 2.5, which is not a declared value
    table = pa.table({"item": ["a", "a", "a", "b", "b"], "rater": ["x", "y", "y", "x", "y"],
                      "value": [1.0, 2.0, 3.0, 2.0, 2.0]})
    with pytest.raises(InvalidRatingError,
                       match=r"lie outside the declared domain \[1, 2, 3, 4\], e\.g\. 2\.5 at "
                             r"\(item='a', rater='y'\)"):
        krippendorff_alpha(table, level="interval", domain=[1, 2, 3, 4], on_duplicate="mean")
    kept = krippendorff_alpha(table, level="interval", domain=[1, 2, 3, 4], on_duplicate="last")
    assert kept["n_items"] == 2 and kept["n_values"] == 4
