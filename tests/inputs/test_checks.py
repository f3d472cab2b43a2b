"""Input checks: the bitmask duplicate detection is exact (compared with a Python count of
repeated keys on random tables with up to 120 raters), and every problem names a row."""
from __future__ import annotations

from collections import Counter

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import agreement_sql as ag
from agreement_sql.checks import check_ratings
from agreement_sql.session import ratings_session


def _counts(table):
    with ratings_session(table) as spec:
        return check_ratings(spec, numeric=False)


rows = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 119), st.integers(1, 3)),
                min_size=1, max_size=80)


@settings(max_examples=60, deadline=None)
@given(rows)
def test_duplicate_detection_is_exact(data):
    table = pa.table({"item": [d[0] for d in data], "rater": [f"r{d[1]:03d}" for d in data],
                      "value": [d[2] for d in data]})
    keys = Counter((d[0], d[1]) for d in data)
    expected_units = len({item for (item, _), n in keys.items() if n > 1})
    if expected_units == 0:
        assert _counts(table)["n_duplicate"] == 0
    else:
        with pytest.raises(ag.DuplicateRatingError) as err:
            _counts(table)
        n_keys = sum(1 for n in keys.values() if n > 1)
        assert str(err.value).startswith(f"{n_keys} (item, rater) key(s) occur more than once")


def test_same_rater_two_values_in_a_late_block():
    # 100 raters rate item 3, so r099 has code 99 (block 2); it gives two values to item 1
    others = [f"r{i:03d}" for i in range(100)]
    table = pa.table({"item": [1, 1, 1, 2, 2] + [3] * 100,
                      "rater": ["r001", "r099", "r099", "r001", "r099"] + others,
                      "value": [1, 2, 3, 1, 1] + [1] * 100})
    with pytest.raises(ag.DuplicateRatingError, match=r"item='?1'?, rater='r099'\) rated 2 times"):
        _counts(table)


def test_null_item_is_named():
    table = pa.table({"item": [1, None, 2], "rater": ["a", "b", "a"], "value": [1, 2, 3]})
    with pytest.raises(ag.MissingKeyError, match=r"column\(s\) 'item' are empty \(NULL\) in 1 rating"):
        _counts(table)


def test_null_ratings_are_missing_not_errors():
    table = pa.table({"item": [1, 1, 2, 2], "rater": ["a", "b", "a", "b"], "value": [1, None, 3, 3]})
    assert _counts(table)["n_ratings"] == 3
