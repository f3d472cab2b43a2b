"""Bangdiwala's B (Bangdiwala 1985): B = sum_i n_ii^2 / sum_i n_i. n_.i, the agreement chart's
share of the row x column rectangles that the diagonal squares fill.

The published value: Friendly & Meyer (2016), Discrete Data Analysis with R, sec. 4.5, and vcd's
``agreementplot`` on ``SexualFun`` (Hout, Duncan & Sobel 1987; 91 couples, husband x wife):
B = 0.146 (vcd prints 0.1464624). By hand: the diagonal 7, 8, 4, 14 gives 325; the row totals
19, 20, 19, 33 times the column totals 12, 28, 18, 33 give 2219; B = 325 / 2219.
"""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import agreement_sql as ag
from _budget import examples

CATEGORIES = ["Never Fun", "Fairly Often", "Very Often", "Always Fun"]
# vcd::SexualFun, rows the husband's rating, columns the wife's
SEXUAL_FUN = [[7, 7, 2, 3], [2, 8, 3, 7], [1, 5, 4, 9], [2, 8, 9, 14]]


def _table(cells, categories=CATEGORIES) -> pa.Table:
    return pa.table({"husband": categories,
                     **{c: [row[j] for row in cells] for j, c in enumerate(categories)}})


def test_sexual_fun_is_vcds_published_value():
    result = ag.bangdiwala_b(_table(SEXUAL_FUN), layout="table", item="husband")
    assert round(result["value"], 3) == 0.146            # Friendly & Meyer (2016), vcd
    assert result["value"] == pytest.approx(325 / 2219, rel=1e-14)   # by hand, above
    assert result["observed_agreement"] == pytest.approx(33 / 91)    # the diagonal's share
    assert (result["n_items"], result["n_raters"], result["chance_agreement"]) == (91, 2, None)


def test_perfect_agreement_is_one_and_more_raters_undefined():
    long = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": ["a", "b"] * 3,
                     "value": ["x", "x", "y", "y", "x", "x"]})
    assert ag.bangdiwala_b(long)["value"] == 1.0
    three = pa.table({"item": [1, 1, 1, 2, 2, 2], "rater": ["a", "b", "c"] * 2,
                      "value": ["x", "x", "y", "y", "y", "x"]})
    with pytest.raises(ag.OptionError, match="compares two raters"):
        ag.bangdiwala_b(three)
    assert ag.bangdiwala_b(three, raters=["a", "c"])["value"] == pytest.approx(
        (0.0 + 0.0) / (0.5 * 0.5 + 0.5 * 0.5))                    # a, c: x/y and y/x


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=3, max_size=3), min_size=3, max_size=3))
def test_matches_the_formula_on_random_tables(cells):
    # an independent computation of the same formula (numpy), on random 3 x 3 tables
    n = np.array(cells, dtype=float)
    if n.sum() == 0:
        return
    expected = (np.diag(n) ** 2).sum() / (n.sum(axis=1) * n.sum(axis=0)).sum()
    got = ag.bangdiwala_b(_table(cells, ["a", "b", "c"]), layout="table", item="husband")
    assert got["value"] == pytest.approx(expected, rel=1e-12)
