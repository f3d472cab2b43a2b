"""Counts and contingency layouts against the same ratings written as long rows (issue #26 point
2, docs/decisions/0022).

The oracle is independent of the layout adapter (sql/_ratings.sql.j2's counts and table
branches): the test itself expands each random table into one long row per rating in Python
(a counts row of n in category c: n ratings of c by anonymous raters numbered across the row, as
the adapter's convention says; a table cell (a, b) of n: n units rated a by rater "A" and b by
rater "B") and the package reads those rows by its long route. Values and standard errors equal
to 1e-12, the counts (n_items, n_ratings, n_raters) exactly.

It is also the differential test of the cells producer (decision 0022, routes decision
``layout_cells``): each layout call runs by its default route (the cells, each nonzero cell
read once with its multiplicity, where the call allows) and once more with
``routes.forcing(layout_cells="expanded")`` (every count expanded into long rows, the route
before the producer existed), compared the same way; and both against the long rows, an
oracle that shares no code with either reading. Tables hypothesis draws: zeros, empty rows and
columns, a single category used.
"""
from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as a
from agreement_sql import routes

from ._data import irrcac_cont3x3, irrcac_distrib6

SETTINGS = settings(max_examples=10, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
COUNTED = ("n_items", "n_ratings", "n_raters")


def counts_to_long(table: pd.DataFrame) -> pd.DataFrame:
    """A counts layout (a row per unit, a count per category) as long rows: the raters of a
    unit numbered across its row ("0", "1", ...), as sql/_ratings.sql.j2 documents."""
    rows = []
    for unit, row in table.iterrows():
        k = 0
        for category in table.columns:
            for _ in range(int(row[category])):
                rows.append((str(unit), str(k), str(category)))
                k += 1
    return pd.DataFrame(rows, columns=["item", "rater", "value"])


def table_to_long(table: pd.DataFrame) -> pd.DataFrame:
    """A two-rater contingency table (rows rater A's categories, columns rater B's) as long
    rows: a cell of n is n units, each rated by A and by B."""
    rows = []
    unit = 0
    for a_category, row in table.iterrows():
        for b_category in table.columns:
            for _ in range(int(row[b_category])):
                rows.append((f"u{unit}", "A", str(a_category)))
                rows.append((f"u{unit}", "B", str(b_category)))
                unit += 1
    return pd.DataFrame(rows, columns=["item", "rater", "value"])


def same(from_layout: dict, from_long: dict, what: str) -> None:
    for key in COUNTED:
        if key in from_long:
            assert from_layout[key] == from_long[key], (what, key)
    for key in ("value", "observed_agreement", "chance_agreement", "se", "ci_low", "ci_high",
                "se0", "z", "p_value"):
        if key in from_long:
            expected = from_long[key]
            if expected is None:
                assert from_layout[key] is None, (what, key)
            else:
                assert from_layout[key] == pytest.approx(expected, abs=1e-12), (what, key)


CATEGORIES = ("c0", "c1", "c2")


@st.composite
def counts_tables(draw: st.DrawFn) -> pd.DataFrame:
    """3-8 units, 2-3 categories, every unit rated by the same number of raters (2-5), as
    statsmodels' aggregate_raters gives for complete data."""
    k = draw(st.integers(2, 3))
    m = draw(st.integers(2, 5))
    n_units = draw(st.integers(3, 8))
    rows = []
    for _ in range(n_units):
        cuts = sorted(draw(st.lists(st.integers(0, m), min_size=k - 1, max_size=k - 1)))
        edges = [0, *cuts, m]
        rows.append([edges[i + 1] - edges[i] for i in range(k)])
    return pd.DataFrame(rows, columns=list(CATEGORIES[:k]),
                        index=pd.Index([f"u{i}" for i in range(n_units)], name="unit"))


@st.composite
def contingency_tables(draw: st.DrawFn) -> pd.DataFrame:
    """A k x k table (k = 2 or 3) of 0-6 units a cell, at least 2 units in all."""
    k = draw(st.integers(2, 3))
    cells = draw(st.lists(st.integers(0, 6), min_size=k * k, max_size=k * k)
                 .filter(lambda c: sum(c) >= 2))
    names = list(CATEGORIES[:k])
    return pd.DataFrame([cells[i * k:(i + 1) * k] for i in range(k)], columns=names,
                        index=pd.Index(names, name="category"))


CI = {"ci": 0.95, "ci_method": "analytic"}


def same_coefficients(from_layout: dict, from_long: dict, what: str) -> None:
    assert set(from_layout) == set(from_long), what
    for name in from_long:
        same(from_layout[name], from_long[name], f"{what} {name}")


def layout_reading(result: dict) -> set[str]:
    """The layout_cells alternatives a result's statements took."""
    first = result if "route" in result else next(iter(result.values()))
    return {entry["layout_cells"] for entry in first["route"] if "layout_cells" in entry}


def by_both_readings(call, compare, what: str, cells: bool = True) -> dict:
    """``call()`` by its default route and with the expansion forced: the same numbers (1e-12,
    the counts exactly) and, when ``cells``, the default read the cells (else it expanded, as
    the call needs: Conger's variance on a table reads the counts form)."""
    got = call()
    with routes.forcing(layout_cells="expanded"):
        expanded = call()
    assert layout_reading(expanded) == {"expanded"}, what
    assert layout_reading(got) == ({"cells"} if cells else {"expanded"}), (what, got)
    compare(got, expanded, f"{what} (cells against expanded)")
    return got


def counts_agree(table: pd.DataFrame, full: bool = True) -> None:
    """Every rater-free coefficient with its analytic interval in one coefficients() call (the
    counts form: Conger's variance is not asked), and fleiss_kappa alone (the wide form)."""
    long = counts_to_long(table)
    # the long rows name raters; coefficients() on the counts layout leaves out the rater-
    # identity ones by default (tests/peers/test_layouts.py), so both are asked for the same
    free = {"which": ["fleiss_kappa", "gwet_ac1", "brennan_prediger", "percent_agreement",
                      "krippendorff_alpha"], **CI}
    same_coefficients(by_both_readings(lambda: a.coefficients(table, layout="counts", **free),
                                       same_coefficients, "counts coefficients"),
                      a.coefficients(long, **free), "counts coefficients")
    if not full:
        return
    same(by_both_readings(lambda: a.fleiss_kappa(table, layout="counts"), same, "counts fleiss"),
         a.fleiss_kappa(long), "counts fleiss")
    for name in ("fleiss_kappa", "gwet_ac1", "krippendorff_alpha"):
        # each function alone with its analytic interval
        function = getattr(a, name)
        same(by_both_readings(lambda: function(table, layout="counts", **CI), same,
                              f"counts {name}"),
             function(long, **CI), f"counts {name}")


def table_agrees(table: pd.DataFrame, full: bool = True) -> None:
    """Every coefficient with its analytic interval (the counts form), the quadratic-weighted
    ones on the table's category order, and cohen_kappa alone (the wide form, rater
    patterns)."""
    long = table_to_long(table)
    # coefficients()' default set on two raters' labels but Conger's kappa
    without_conger = ["cohen_kappa", "scott_pi", "fleiss_kappa", "gwet_ac1", "brennan_prediger",
                      "percent_agreement", "bangdiwala_b", "krippendorff_alpha"]
    same_coefficients(by_both_readings(
        lambda: a.coefficients(table, layout="table", which=without_conger, **CI),
        same_coefficients, "table coefficients by cells"),
        a.coefficients(long, which=without_conger, **CI), "table coefficients by cells")
    if not full:
        return
    # every coefficient with an analytic interval: Conger's variance reads the counts form,
    # which a table's cells do not feed, so this call expands (routes.layout_reader)
    same_coefficients(by_both_readings(lambda: a.coefficients(table, layout="table", **CI),
                                       same_coefficients, "table coefficients", cells=False),
                      a.coefficients(long, **CI), "table coefficients")
    same_coefficients(by_both_readings(lambda: a.coefficients(table, layout="table"),
                                       same_coefficients, "table coefficients, no interval"),
                      a.coefficients(long), "table coefficients, no interval")
    weighted = {"which": ["cohen_kappa", "scott_pi", "gwet_ac1", "brennan_prediger"],
                "weights": "quadratic", "categories": list(table.columns), **CI}
    same_coefficients(by_both_readings(lambda: a.coefficients(table, layout="table", **weighted),
                                       same_coefficients, "table weighted"),
                      a.coefficients(long, **weighted), "table weighted")
    same(by_both_readings(lambda: a.cohen_kappa(table, layout="table"), same, "table cohen"),
         a.cohen_kappa(long), "table cohen")
    for name in ("cohen_kappa", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha"):
        function = getattr(a, name)
        same(by_both_readings(lambda: function(table, layout="table", **CI), same,
                              f"table {name}"),
             function(long, **CI), f"table {name}")


@pytest.mark.slow  # about 1 s a call on 2 shared cores, 6 calls an example; CI runs it
@SETTINGS
@given(counts_tables())
def test_counts_layout_equals_its_long_rows(table: pd.DataFrame) -> None:
    counts_agree(table)


@pytest.mark.slow  # as above
@SETTINGS
@given(contingency_tables())
def test_table_layout_equals_its_long_rows(table: pd.DataFrame) -> None:
    table_agrees(table)


@pytest.mark.slow
def test_peers_worked_examples_through_the_oracle() -> None:
    # irrCAC's distrib6raters (counts, 15 units x 6 raters) and cont3x3abstractors (a 3 x 3
    # table of 100 units): the layouts and the test's own expansion give the same numbers;
    # their published values are held by tests/peers/test_irrcac.py
    # (the default run's share: one coefficients() call each, by both readings; the slow
    # tests run every call)
    counts, table = irrcac_distrib6(), irrcac_cont3x3()
    counts_agree(counts, full=False)
    table_agrees(table, full=False)
    kappa = a.cohen_kappa(table, layout="table")
    assert kappa["n_items"] == int(table.to_numpy().sum()) == 100
    assert layout_reading(kappa) == {"cells"}


def test_the_cells_register_no_numbers_and_a_large_expansion_is_refused(monkeypatch):
    # decision 0022: read by its cells, a table registers no numbers relation (which an
    # expansion of 1e9 units would make 1e9 rows long); a call that must expand a cell larger
    # than constants.MAX_EXPANDED_CELL (a bootstrap) is refused, naming the way out
    from agreement_sql.constants import MAX_EXPANDED_CELL
    from agreement_sql.engine.duckdb import DuckDBSession

    registered: list[str] = []
    register = DuckDBSession.register_arrow

    def spy(self, table, kind):
        registered.append(kind)
        return register(self, table, kind)

    monkeypatch.setattr(DuckDBSession, "register_arrow", spy)
    n = 10 ** 9                                   # sum of the cells: 1e9 units
    big = pd.DataFrame([[4 * n // 10, n // 10], [n // 10, 4 * n // 10]], columns=["yes", "no"],
                       index=pd.Index(["yes", "no"], name="category"))
    kappa = a.cohen_kappa(big, layout="table", ci=0.95, ci_method="analytic")
    # two raters of 1e9 units, p_o = 0.8, p_e = 0.5: kappa 0.6 (Cohen 1960); Fleiss, Cohen &
    # Everitt's (1969) variance by hand: [sum_i p_ii ((1 - p_e) - (p_i. + p_.i)(1 - p_o))^2
    # + (1 - p_o)^2 sum_{i != j} p_ij (p_i. + p_.j)^2 - (p_o p_e - 2 p_e + p_o)^2] / (n (1 - p_e)^4)
    # = [0.8 * 0.09 + 0.04 * 0.2 - 0.04] / (0.0625 n) = 0.64 / n, se = 0.8 / sqrt(n)
    assert kappa["value"] == pytest.approx(0.6, abs=1e-12)
    assert kappa["se"] == pytest.approx(0.8 / n ** 0.5, rel=1e-9)
    assert (kappa["n_items"], kappa["n_rows"], kappa["n_raters"]) == (n, 2 * n, 2)
    assert layout_reading(kappa) == {"cells"} and "numbers" not in registered
    assert 4 * n // 10 > MAX_EXPANDED_CELL
    with pytest.raises(a.OptionError, match="ci_method='analytic'"):
        a.cohen_kappa(big, layout="table", ci=0.95, ci_method="bootstrap", n_boot=10)
    assert "numbers" not in registered
    small = pd.DataFrame([[5, 1], [2, 4]], columns=["yes", "no"],
                         index=pd.Index(["yes", "no"], name="category"))
    a.cohen_kappa(small, layout="table", ci=0.95, ci_method="bootstrap", n_boot=10)
    assert "numbers" in registered           # the spy sees an expansion when one is taken
