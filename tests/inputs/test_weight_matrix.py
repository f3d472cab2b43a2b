"""A caller's weight matrix is complete or refused (agreement_sql/metrics/weights.py, decision
0016): a dict matrix gives a weight for every (row, column) pair of its categories, the
diagonal included, and names every category of the ratings (every declared one with
categories=); a partial matrix is an OptionError naming a missing pair or category, never a
cell filled in silently. A complete matrix gives the numbers of the same weights by name
(linear weights written out: Cicchetti-Allison, w = 1 - |i - j| / (q - 1))."""
from __future__ import annotations

import itertools

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.errors import OptionError

CATS = ["a", "b", "c"]
DATA = pa.table({"item": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "rater": ["x", "y"] * 5,
                 "value": ["a", "a", "a", "b", "b", "c", "c", "c", "b", "b"]})
LINEAR = {(k, l): 1 - abs(i - j) / 2 for (i, k), (j, l) in itertools.product(enumerate(CATS), repeat=2)}


@pytest.mark.parametrize("function", [ag.cohen_kappa, ag.fleiss_kappa, ag.gwet_ac1, ag.scott_pi])
def test_a_complete_matrix_is_the_named_weights(function):
    named = function(DATA, weights="linear", categories=CATS)["value"]
    assert function(DATA, weights=LINEAR)["value"] == pytest.approx(named, abs=1e-12)
    nested = {k: {l: w for (kk, l), w in LINEAR.items() if kk == k} for k in CATS}
    assert function(DATA, weights=nested, categories=CATS)["value"] == pytest.approx(named, abs=1e-12)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(dropped=st.sets(st.sampled_from(sorted(LINEAR)), min_size=1, max_size=8),
       declared=st.booleans())
def test_any_partial_matrix_is_refused_naming_a_missing_cell(dropped, declared):
    partial = {cell: w for cell, w in LINEAR.items() if cell not in dropped}
    if not partial:
        return
    named = {c for cell in partial for c in cell}
    with pytest.raises(OptionError) as error:
        ag.cohen_kappa(DATA, weights=partial, **({"categories": CATS} if declared else {}))
    message = str(error.value)
    if declared or named == set(CATS):
        # a missing (row, column) pair, named
        assert any(f"row {k!r}, column {l!r}" in message for k, l in dropped), message
    else:
        # a category of the ratings the matrix does not name
        assert any(f"the category {c!r}" in message for c in set(CATS) - named), message


def test_a_misspelt_label_is_a_category_the_matrix_does_not_name():
    typo = {("lo" if k == "a" else k, "lo" if l == "a" else l): w for (k, l), w in LINEAR.items()}
    with pytest.raises(OptionError, match="the category 'a', which the weight matrix does not name"):
        ag.fleiss_kappa(DATA, weights=typo)


def test_numbers_match_by_value_and_a_wider_matrix_is_complete():
    numbers = pa.table({"item": [1, 1, 2, 2, 3, 3], "rater": ["x", "y"] * 3, "value": [1, 2, 2, 2, 3, 3]})
    wide = {(i, j): 1 - abs(i - j) / 3 for i in range(1, 5) for j in range(1, 5)}   # 1..4 on data 1..3
    # linear weights are invariant under w -> (1 - s) + s w, so the wider scale gives the same kappa
    assert ag.cohen_kappa(numbers, weights=wide)["value"] == pytest.approx(
        ag.cohen_kappa(numbers, weights="linear")["value"], abs=1e-12)
    with pytest.raises(OptionError, match="the category 3"):
        ag.cohen_kappa(numbers, weights={(i, j): float(i == j) for i in (1, 2) for j in (1, 2)})
