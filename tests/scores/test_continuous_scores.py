"""Continuous scores at linear cost (issue #26 point 1, docs/decisions/0019).

Ordinal alpha from midranks (routes decision ``alpha_distances``) against the krippendorff
package (Castro 2017, github.com/pln-fing-udelar/fast-krippendorff, an independent
implementation from the coincidence matrix), on floats with many distinct values, through both
alternatives; the refusal of value-by-value tables above constants.MAX_VALUE_TABLE distinct
values; coefficients()' default set on scores, which leaves those coefficients out and says why.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

import agreement_sql as ag
from agreement_sql import routes, value_tables
from _budget import examples

krippendorff = pytest.importorskip("krippendorff")


def _table(matrix: list[list[float | None]]) -> pa.Table:
    rows = [{"item": i, "rater": f"r{r}", "value": v}
            for r, line in enumerate(matrix) for i, v in enumerate(line) if v is not None]
    return pa.Table.from_pylist(rows, schema=pa.schema([("item", pa.int64()),
                                                        ("rater", pa.string()),
                                                        ("value", pa.float64())]))


def _oracle(matrix: list[list[float | None]], level: str) -> float:
    data = np.array([[np.nan if v is None else v for v in line] for line in matrix], dtype=float)
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))


# scores with two decimals: many distinct values (well above the wide form's 16 categories),
# some ties, some missing ratings
_score = st.one_of(st.none(), st.integers(0, 5000).map(lambda k: k / 100.0))
_matrices = st.integers(2, 4).flatmap(
    lambda raters: st.integers(20, 40).flatmap(
        lambda units: st.lists(st.lists(_score, min_size=units, max_size=units),
                               min_size=raters, max_size=raters)))


def _usable(matrix: list[list[float | None]]) -> bool:
    # at least two pairable units and more than 16 distinct values (the counts form)
    columns = list(zip(*matrix))
    pairable = sum(1 for c in columns if sum(v is not None for v in c) >= 2)
    values = {v for line in matrix for v in line if v is not None}
    return pairable >= 2 and len(values) > 16


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None)
@given(_matrices)
@pytest.mark.parametrize("distances", ["midranks", "value_pairs"])
def test_ordinal_alpha_on_scores_matches_krippendorff(distances, matrix):
    if not _usable(matrix):
        return
    expected = _oracle(matrix, "ordinal")
    with routes.collecting() as log, routes.forcing(alpha_distances=distances):
        got = ag.krippendorff_alpha(_table(matrix), level="ordinal")
    assert any(e.get("alpha_distances") == distances for e in log), log
    if math.isnan(expected):
        assert got["value"] is None
    else:
        assert got["value"] == pytest.approx(expected, rel=1e-9, abs=1e-12)


@settings(max_examples=examples(15), deadline=None)
@given(_matrices)
@pytest.mark.parametrize("units", ["sums", "counts"])
def test_interval_alpha_on_scores_matches_krippendorff(units, matrix):
    # the sums form (per-unit moments from the ratings, the default for interval alpha on
    # scores) and the counts form against the krippendorff package's coincidence matrix
    if not _usable(matrix):
        return
    expected = _oracle(matrix, "interval")
    with routes.forcing(units=units):
        result = ag.krippendorff_alpha(_table(matrix), level="interval")
    assert result["route"][0]["units"] == units
    got = result["value"]
    if math.isnan(expected):
        assert got is None
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_interval_alpha_on_scores_reads_per_unit_moments_without_a_counts_table():
    # the default route of interval alpha alone on scores is the sums form: its statement builds
    # no row per (unit, value); any other coefficient in the statement keeps the counts form
    from agreement_sql.engine import duckdb as engine

    statements: list[str] = []
    original = engine.DuckDBSession._run

    def spy(self, sql, params, *, what):
        if what == "coefficients":
            statements.append(sql)
        return original(self, sql, params, what=what)

    engine.DuckDBSession._run = spy
    try:
        alone = ag.krippendorff_alpha(_scores(), level="interval", ci=0.95, ci_method="analytic")
        nominal = ag.krippendorff_alpha(_scores(), level="nominal")
    finally:
        engine.DuckDBSession._run = original
    assert alone["route"][0]["units"] == "sums" and nominal["route"][0]["units"] == "counts"
    table = re.compile(r"\bcounts AS \(")            # not unit_counts
    assert not table.search(statements[0]) and table.search(statements[1])
    with routes.forcing(units="counts"):
        again = ag.krippendorff_alpha(_scores(), level="interval", ci=0.95, ci_method="analytic")
    for key in ("value", "se", "ci_low", "ci_high", "n_items", "n_values", "n_categories"):
        assert alone[key] == pytest.approx(again[key], rel=1e-12, abs=1e-15), key


def test_midranks_is_the_default_in_the_counts_form_only():
    # K2011-like few categories: the wide form (forced: so few ratings take the counts form by
    # default, constants.SMALL_INPUT_RATINGS), no alpha_distances decision; scores: midranks
    few = _table([[1, 2, 3, 3, 2, 1], [1, 2, 3, 3, 2, 2]])
    with routes.forcing(units="wide"):
        assert "alpha_distances" not in ag.krippendorff_alpha(few, level="ordinal")["route"][0]
    many = _table([[k / 10 for k in range(30)], [k / 10 + 0.05 for k in range(30)]])
    assert ag.krippendorff_alpha(many, level="ordinal")["route"][0]["alpha_distances"] == \
        "midranks"
    # ratio alpha keeps the value pairs (no moment form): no such choice is recorded
    assert "alpha_distances" not in ag.krippendorff_alpha(many, level="ratio")["route"][0]


def _scores(n_units: int = 40) -> pa.Table:
    # 3 raters x 40 units, 120 distinct values (k / 7 never repeats within 0..119)
    return _table([[(3 * i + r) / 7 for i in range(n_units)] for r in range(3)])


def test_table_bound_coefficients_refuse_above_the_declared_size(monkeypatch):
    monkeypatch.setattr(value_tables, "MAX_VALUE_TABLE", 100)
    # linear weights have no moment form (quadratic ones do: tests/scores/test_quadratic_moments)
    with pytest.raises(ag.OptionError, match=r"fleiss_kappa: 120 distinct values: more than 100"
                                             r".*level='interval'.*bin the values"):
        ag.fleiss_kappa(_scores(), weights="linear")
    with pytest.raises(ag.OptionError, match="krippendorff_alpha: 120 distinct values"):
        ag.krippendorff_alpha(_scores(), level="ratio")
    # at or below the size they run; the linear coefficients run at any size
    assert ag.fleiss_kappa(_scores(30), weights="linear")["value"] is not None
    assert ag.krippendorff_alpha(_scores(), level="interval")["value"] is not None
    assert ag.krippendorff_alpha(_scores(), level="ordinal")["value"] is not None


def test_coefficients_on_scores_leaves_out_the_table_bound_ones_and_says_why(monkeypatch):
    monkeypatch.setattr(value_tables, "MAX_VALUE_TABLE", 100)
    found = ag.coefficients(_scores(), level="interval")
    assert found["krippendorff_alpha"]["value"] == pytest.approx(
        _oracle([[(3 * i + r) / 7 for i in range(40)] for r in range(3)], "interval"), rel=1e-9)
    assert found["icc"]["value"] is not None
    skipped = {k for k, v in found.items() if v.get("skipped")}
    assert {"fleiss_kappa", "gwet_ac1", "percent_agreement"} <= skipped
    for name in skipped:
        assert found[name]["value"] is None
        assert "120 distinct values" in found[name]["skipped"]
        assert "scores" in found[name]["conventions"]
    # naming a table-bound coefficient is a request: refused, not left out
    with pytest.raises(ag.OptionError, match="fleiss_kappa: 120 distinct values"):
        ag.coefficients(_scores(), which=["fleiss_kappa", "krippendorff_alpha"])
