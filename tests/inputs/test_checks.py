"""Input checks: duplicate detection is exact, every problem names a row, and nothing is dropped
without being counted.

Duplicates are found by the statement's own per-unit aggregation (rater bits: a unit has a
duplicate exactly when it has more ratings than bits set in the OR of its raters' bits), or by
sql/duplicate_check.sql.j2 beyond 496 raters (docs/decisions/0009); they are compared here with
a Python count of repeated (item, rater) keys on random tables, in both forms of the statement
(agreement_sql.plan). Row-level problems are counted by the ratings profile
(agreement_sql.profile) and raised, with the first offending row, by agreement_sql.checks.
"""
from __future__ import annotations

from collections import Counter

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import agreement_sql as ag
from agreement_sql import checks, routes
from agreement_sql.profile import read_profile
from agreement_sql.session import ratings_session


def alpha(table, **options):
    return ag.krippendorff_alpha(table, level="nominal", **options)


rows = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 119), st.integers(1, 3)),
                min_size=1, max_size=80)


def check_duplicates(data, form):
    table = pa.table({"item": [d[0] for d in data], "rater": [f"r{d[1]:03d}" for d in data],
                      "value": [d[2] for d in data]})
    keys = Counter((d[0], d[1]) for d in data)          # the oracle: repeated (item, rater) keys
    n_keys = sum(1 for n in keys.values() if n > 1)
    n_merged = sum(n - 1 for n in keys.values())
    with routes.forcing(**({"units": form} if form else {})):
        if n_keys == 0:
            assert alpha(table)["n_excluded"]["duplicate"] == 0
        else:
            with pytest.raises(ag.DuplicateRatingError) as err:
                alpha(table)
            assert str(err.value).startswith(f"{n_keys} (item, rater) key(s) occur more than once")
        # with a policy the merged rows are counted, not dropped silently (decision 0005)
        kept = alpha(table, on_duplicate="first")
        assert kept["n_excluded"]["duplicate"] == n_merged
        assert kept["n_rows"] == len(data)
        assert kept["n_rows"] == kept["n_ratings"] + sum(kept["n_excluded"].values())


@settings(max_examples=20, deadline=None)
@given(rows, st.sampled_from(["wide", "counts"]))
@pytest.mark.slow  # seconds on 2 cores (many cases or routes); CI runs it
def test_duplicate_detection_is_exact(data, form):
    check_duplicates(data, form)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rows, st.sampled_from(["wide", "counts"]))
def test_duplicate_detection_is_exact_many_examples(data, form):
    check_duplicates(data, form)


def test_same_rater_two_values_in_a_late_block():
    # 100 raters rate item 3, so r099 has code 99 (the second block of 62 bits); it gives two
    # values to item 1
    others = [f"r{i:03d}" for i in range(100)]
    table = pa.table({"item": [1, 1, 1, 2, 2] + [3] * 100,
                      "rater": ["r001", "r099", "r099", "r001", "r099"] + others,
                      "value": [1, 2, 3, 1, 1] + [1] * 100})
    with pytest.raises(ag.DuplicateRatingError,
                       match=r"^1 \(item, rater\) key\(s\) .*\(item='1', rater='r099'\) rated 2 times"):
        alpha(table)


def test_duplicate_beyond_the_rater_bits():
    # 600 raters > 496 (8 blocks of 62 bits): sql/duplicate_check.sql.j2 runs first
    others = [f"r{i:03d}" for i in range(600)]
    clean = pa.table({"item": [1, 1, 2, 2] + [3] * 600, "rater": ["r001", "r599"] * 2 + others,
                      "value": [1, 2, 1, 1] + [1] * 600})
    assert alpha(clean)["n_raters"] == 600
    table = pa.table({"item": [1, 1, 1, 2, 2] + [3] * 600,
                      "rater": ["r001", "r599", "r599", "r001", "r599"] + others,
                      "value": [1, 2, 3, 1, 1] + [1] * 600})
    with pytest.raises(ag.DuplicateRatingError, match=r"\(item='1', rater='r599'\) rated 2 times"):
        alpha(table)


def test_duplicate_in_one_metric_names_the_metric():
    table = pa.table({"item": [1, 1, 1, 1, 1], "rater": ["a", "b", "a", "b", "b"],
                      "q": ["tone", "tone", "safe", "safe", "safe"], "value": [1, 2, 1, 1, 0]})
    assert [r["n_ratings"] for r in alpha(table.slice(0, 4), metric="q")] == [2, 2]
    with pytest.raises(ag.DuplicateRatingError,
                       match=r"^1 \(item, rater, q\) key\(s\) .*\(item='1', rater='b', q='safe'\) rated 2 times"):
        alpha(table, metric="q")


def test_null_item_is_named():
    table = pa.table({"item": [1, None, 2], "rater": ["a", "b", "a"], "value": [1, 2, 3]})
    with pytest.raises(ag.MissingKeyError,
                       match=r"column\(s\) 'item' are empty \(NULL\) in 1 row\(s\), e\.g\. \(item=None, rater='b'\)"):
        alpha(table)


def test_null_ratings_are_missing_not_errors():
    table = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b", "a", "b"], "value": [1, None, 3, 3]})
    with ratings_session(table) as spec:
        profile = read_profile(spec)
        profile.check()                                   # no error
    t = profile.totals
    assert (t["n_rows"], t["n_missing"], t["n_ratings"]) == (4, 1, 3)      # by hand: one NULL
    # Fleiss uses the single-rated item in its shares; alpha needs two ratings per item, so
    # item 1's one rating is single_rated (docs/decisions/0005)
    fleiss = ag.fleiss_kappa(table)
    assert (fleiss["n_ratings"], fleiss["n_excluded"]["missing"]) == (3, 1)
    result = alpha(table)
    assert (result["n_ratings"], result["n_excluded"]["missing"],
            result["n_excluded"]["single_rated"]) == (2, 1, 1)


def test_profile_counts_every_row_level_problem():
    # one row of each kind; the profile counts them before any statistic runs
    table = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4],
                      "rater": ["a", "b", "a", "b", "a", "b", "a", "b"],
                      "value": ["1", "NA", "", "x", "1_0", " 2 ", "NaN", "1e0"]})
    with ratings_session(table, missing=["NA"]) as spec:
        profile = read_profile(spec)
    t = profile.totals
    # by docs/decisions/0002: "" and "NaN" missing, "NA" a placeholder, "x" and "1_0" labels
    # (a digit separator is text on every engine), "1", " 2 " and "1e0" numbers
    assert (t["n_rows"], t["n_missing"], t["n_placeholder"], t["n_labels"], t["n_ratings"]) \
        == (8, 2, 1, 2, 5)
    # numeric text is read by TRY_CAST, so "inf" is the number infinity: refused, not a label
    table = pa.table({"item": [1, 1], "rater": ["a", "b"], "value": ["inf", "1"]})
    with ratings_session(table) as spec:
        t = read_profile(spec).totals
    assert (t["n_nonfinite"], t["n_labels"]) == (1, 0)


@pytest.mark.parametrize("values,options,error,message", [
    # numbers are shown unquoted, labels quoted; the row as the caller knows it
    ([1.0, float("inf"), 2.0, 2.0], {}, ag.InvalidRatingError,
     r"^1 rating\(s\) in column 'value' are not usable numbers .*, e\.g\. inf at \(item='1', rater='b'\)$"),
    ([1.0, 2.0 ** 53 + 2, 2.0, 2.0], {}, ag.InvalidRatingError,         # 2^53 + 2 = 9007199254740994
     r"^1 rating\(s\) .* not usable numbers .*e\.g\. 9007199254740994\b.* at \(item='1', rater='b'\)$"),
    (["1", "x", " 2", "2"], {"level": "interval"}, ag.InvalidRatingError,
     r"^1 rating\(s\) in column 'value' are not numbers, .*e\.g\. 'x' at \(item='1', rater='b'\)$"),
    (["low", "mid", "odd", "low"], {"categories": ["low", "mid"]}, ag.InvalidRatingError,
     r"^1 rating\(s\) .* outside the declared domain \['low', 'mid'\], e\.g\. 'odd' at \(item='2', rater='a'\)$"),
    ([1, 2, 0, 1], {"categories": [1, 2]}, ag.InvalidRatingError,
     r"^1 rating\(s\) .* outside the declared domain \[1, 2\], e\.g\. 0 at \(item='2', rater='a'\)$"),
    (["x", "y", "x", "x"], {"on_duplicate": "mean"}, ag.OptionError,    # all 4 ratings are labels
     r"^4 rating\(s\) in column 'value' are labels, .*e\.g\. 'x' at \(item='1', rater='a'\)$"),
])
def test_every_problem_names_a_row(values, options, error, message):
    table = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b", "a", "b"], "value": values})
    options = {"level": "nominal", **options}
    with pytest.raises(error, match=message):
        ag.krippendorff_alpha(table, **options)


def test_shown_value_quotes_labels_only():
    assert checks.shown_value({"label": None, "x": 0.0}) == "0"
    assert checks.shown_value({"label": None, "x": 2.5}) == "2.5"
    assert checks.shown_value({"label": "0", "x": None}) == "'0'"
    assert checks.shown_value({"label": None, "x": None}) == "a missing value"
    long = checks.shown_value({"label": "y" * 100, "x": None})
    assert len(long) == 60 and long.endswith("...'")


def test_no_ratings_and_no_rows_are_source_errors():
    empty = pa.table({"item": pa.array([], pa.int64()), "rater": pa.array([], pa.string()),
                      "value": pa.array([], pa.int64())})
    with pytest.raises(ag.SourceError, match="has no rows"):
        alpha(empty)
    missing = pa.table({"item": [1, 1], "rater": ["a", "b"], "value": [None, "NA"]})
    with pytest.raises(ag.SourceError, match=r"no ratings: .*\(1 missing, 1 placeholder\(s\)\)"):
        alpha(missing, missing=["NA"])


def test_a_rekeyed_profile_is_the_profile_of_the_rekeyed_ratings():
    """judge_agreement reads the profile once and re-keys it for its pooled and per-point
    granularities (agreement_sql.profile.rekeyed): the totals, raters and categories must be
    those a profile of the re-keyed ratings reads; a spec over other ratings is refused."""
    from dataclasses import replace

    from agreement_sql.profile import rekeyed
    from agreement_sql.workflows._common import regrouped

    table = pa.table({"point": ["p1", "p1", "p2", "p2", "p3", "p1", "p1"],
                      "judge": ["a", "b", "a", "b", "c", "a", "c"],
                      "score": [1.0, None, 0.5, 0.5, 2.0, 0.0, 1.0],
                      "model": ["m1", "m1", "m1", "m1", "m1", "m2", "m2"]})
    with ratings_session(table, item="point", rater="judge", value="score", group_by=["model"],
                         ordered=True) as spec:
        profile = read_profile(spec)
        for other in (regrouped(spec, pool=True), regrouped(spec, across=spec.slices[0])):
            derived, read = rekeyed(profile, other), read_profile(other)
            assert derived.spec is other and derived.keys == {}
            assert (derived.totals, derived.n_raters, derived.raters, derived.categories) == \
                   (read.totals, read.n_raters, read.raters, read.categories)
        with pytest.raises(ValueError, match="same ratings"):
            rekeyed(profile, regrouped(spec, pool=True, raters=["a"]))
        with pytest.raises(ValueError, match="same ratings"):
            rekeyed(profile, replace(spec, on_duplicate="first"))
