"""The DuckDB table macros (agreement_sql/macros.py, decision 0018): every public coefficient,
pairwise agreement and the IRR summary called from SQL alone give the Python API's numbers on
the reference files (the API's own numbers are the published ones: tests/reference/published.json,
e.g. Krippendorff 2011 0.743 / 0.815 / 0.849 / 0.797, Fleiss 1971 0.4302); a bad input stops the
query with an error naming the row; install refuses a name it did not create. The same from the
DuckDB CLI binary of the duckdb-cli package (`duckdb`, beside the venv's python or on PATH)."""
from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import agreement_sql as ag
from agreement_sql.macros import public_macros, script_text
from agreement_sql.registry import REGISTRY
from _budget import examples, share

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "tests" / "reference"
K2011 = str(REF / "krippendorff2011_4x12.csv")
FLEISS = str(REF / "fleiss1971_diagnoses_30x6.csv")
SAS = str(REF / "sas_kappa_3x3.csv")
NEWSROOM = str(ROOT / "data" / "real" / "newsroom2018_humaneval.csv")
WORKSHOP = str(ROOT / "data" / "workshop_annotations.csv")
WORKSHOP_COLUMNS = dict(item="trace_id", rater="user_id", value="rating", metric="question_id")
FIELDS = ("value", "observed_agreement", "chance_agreement", "observed_disagreement",
          "expected_disagreement", "n_items")


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    assert ag.install_macros(con) == [m.name for m in public_macros()]
    return con


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)


def _rows(con, sql):
    rel = con.sql(sql)
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


# every registry entry: the two-rater ones on SAS's two raters, the others on Fleiss' six
CASES = [(name, SAS if entry.two_raters else FLEISS, {}) for name, entry in REGISTRY.items()
         if name != "cohen_kappa"] + [
    ("cohen_kappa", SAS, {}), ("cohen_kappa", SAS, {"weights": "linear"}),
    ("cohen_kappa", SAS, {"weights": "quadratic"}),
    ("fleiss_kappa", FLEISS, {"weights": "quadratic"}), ("gwet_ac1", FLEISS, {"weights": "linear"}),
    *[("krippendorff_alpha", K2011, {"level": lv}) for lv in ("nominal", "ordinal", "interval", "ratio")],
]


@pytest.mark.slow
@pytest.mark.parametrize("name,path,options", CASES,
                         ids=lambda v: v if isinstance(v, str) and "/" not in v else None)
def test_each_coefficient_macro_gives_the_apis_numbers(con, name, path, options):
    args = "".join(f", {k} := '{v}'" for k, v in options.items())
    got = _rows(con, f"SELECT * FROM {name}('{path}'{args})")
    expected = getattr(ag, name)(path, **options)
    assert len(got) == 1 and got[0]["coefficient"] == expected["coefficient"]
    for field in FIELDS:
        if field in expected:
            assert _close(got[0][field], expected[field]), (field, got[0][field], expected[field])


def test_a_metric_column_a_table_and_a_query(con):
    expected = {r["metric"]: r["value"] for r in ag.fleiss_kappa(NEWSROOM, metric="metric")}
    con.execute(f"CREATE OR REPLACE TEMP TABLE newsroom AS SELECT * FROM read_csv('{NEWSROOM}')")
    by_table = _rows(con, "SELECT metric, value FROM fleiss_kappa('newsroom', metric := 'metric')")
    query = ("SELECT item AS unit, rater AS coder, value AS score, metric FROM newsroom")
    by_query = _rows(con, f"SELECT metric, value FROM fleiss_kappa('{query}', item := 'unit', "
                          "rater := 'coder', value := 'score', metric := 'metric')")
    for rows in (by_table, by_query):
        assert {r["metric"] for r in rows} == set(expected)
        assert all(_close(r["value"], expected[r["metric"]]) for r in rows)


@pytest.mark.slow
def test_pairwise_agreement_and_the_irr_summary(con):
    cols = ", ".join(f"{k} := '{v}'" for k, v in WORKSHOP_COLUMNS.items())
    pairwise = {r["metric"]: r for r in _rows(con, f"SELECT * FROM pairwise_agreement('{WORKSHOP}', {cols})")}
    api = ag.pairwise_agreement(WORKSHOP, **WORKSHOP_COLUMNS)
    assert set(pairwise) == set(api)
    for metric, r in api.items():
        assert _close(pairwise[metric]["exact_agreement"], r["exact_agreement"])
        assert _close(pairwise[metric]["adjacent_agreement"], r["adjacent_agreement"])
    scores = _rows(con, f"SELECT * FROM irr_summary('{WORKSHOP}', {cols}) WHERE part = 'scores'")
    report = ag.irr(WORKSHOP, **WORKSHOP_COLUMNS)
    # one row per part and metric, as the API's report: the routes that do not serve the
    # ratings add no row of their empty aggregates (they did: a validation and a scores row each)
    validation = _rows(con, f"SELECT * FROM irr_summary('{WORKSHOP}', {cols}) "
                            "WHERE part = 'validation'")
    assert [r["num_raters"] for r in validation] == [report["num_raters"]]
    assert len(scores) == len(report["per_metric_scores"]) + 1
    overall = [r for r in scores if r["metric"] is None][0]
    assert round(overall["primary_score"], 1) == report["score"] == 73.7   # README: 73.7%
    for r in scores:
        if r["metric"] is not None:
            # (the report shows alpha to three decimals)
            assert round(r["krippendorff_alpha"], 3) == \
                report["per_metric_scores"][r["metric"]]["krippendorff_alpha"]


@pytest.mark.parametrize("rows,expected", [
    ("(1, 'a', '1'), (1, 'a', '2'), (1, 'b', '2')", "DuplicateRatingError: a rater rated (item=1"),
    ("(1, 'a', '1'), (1, 'b', 'inf'), (2, 'a', '1')", "InvalidRatingError: the rating inf"),
    ("(1, 'a', '1'), (NULL, 'b', '1'), (2, 'a', '1')", "MissingKeyError"),
    ("(1, 'a', '1'), (1, 'b', 'x'), (2, 'a', '1')", "the rating x is not a number"),
])
def test_a_bad_input_stops_the_macro_naming_the_row(con, rows, expected):
    con.execute(f"CREATE OR REPLACE TEMP TABLE bad AS SELECT * FROM (VALUES {rows}) AS t(item, rater, value)")
    with pytest.raises(duckdb.Error, match="agreement-sql: .*" + expected.replace("(", r"\(")):
        con.sql("SELECT * FROM krippendorff_alpha('bad', level := 'interval')").fetchall()
    # the API refuses the same input
    with pytest.raises(ag.AgreementError):
        ag.krippendorff_alpha(con.sql("SELECT * FROM bad").arrow(), level="interval")


# bad rows on inputs the wide route would serve (whole numbers of the scale) and on inputs the
# counts route would (labels): the row checks run in the query that finds the route
# (agreement_sql/macros.py MacroRoute.checks), before any route's statement is served
BAD_ROWS = {
    "null_item_wide": ("(1, 'a', 1.0), (NULL, 'b', 2.0), (2, 'a', 1.0), (2, 'b', 1.0)",
                       "MissingKeyError"),
    "null_rater_labels": ("(1, 'a', 'x'), (1, NULL, 'y'), (2, 'a', 'x'), (2, 'b', 'x')",
                          "MissingKeyError"),
    "inf_wide": ("(1, 'a', 1.0), (1, 'b', 'inf'::DOUBLE), (2, 'a', 1.0), (2, 'b', 2.0)",
                 "InvalidRatingError: the rating inf"),
    "duplicate_wide": ("(1, 'a', 1.0), (1, 'a', 2.0), (1, 'b', 2.0), (2, 'b', 2.0)",
                       "DuplicateRatingError: a rater rated"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_every_macro_refuses_a_bad_row_on_any_route(con, case):
    rows, expected = BAD_ROWS[case]
    table = f"bad_{case}"
    con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * FROM (VALUES {rows}) "
                "AS t(item, rater, value)")
    # every public macro in the full run; by default the cases share them out (tests/_budget.py)
    names = [m.name for m in public_macros() if m.name != "irr_summary"]
    for name in share(names, sorted(BAD_ROWS).index(case), len(BAD_ROWS)):
        with pytest.raises(duckdb.Error, match="agreement-sql: .*" + expected):
            con.sql(f"SELECT * FROM {name}('{table}')").fetchall()


def test_the_route_statements_leave_the_row_checks_to_the_route_query():
    """The row checks are written once per call, in the found query every public macro
    materialises first; a route's statement keeps the per-unit duplicate check (and labels
    where numbers are needed, off the wide route, which serves numbers of the scale only)."""
    from itertools import product

    from agreement_sql.macros import FOUND, ROUTES, found_macros, public_macro, route_statement

    (_, found), = found_macros()
    for check in ("MissingKeyError", "is not a usable number"):
        assert check in found
    for macro in public_macros():
        assert f"agreement_found AS MATERIALIZED (SELECT * FROM {FOUND}(" in public_macro(macro)
        keys = [k for k, _ in macro.choices]
        for values in product(*(c for _, c in macro.choices)):
            for route in ROUTES:
                text = route_statement(macro, dict(zip(keys, values)), route)
                assert "MissingKeyError" not in text and "is not a usable number" not in text
                if route.name == "wide":
                    assert "is not a number" not in text, (macro.name, values)


def test_an_unknown_choice_is_an_error(con):
    with pytest.raises(duckdb.Error, match="level must be nominal"):
        con.sql(f"SELECT * FROM krippendorff_alpha('{K2011}', level := 'bogus')").fetchall()
    with pytest.raises(duckdb.Error, match="weights must be"):
        con.sql(f"SELECT * FROM fleiss_kappa('{FLEISS}', weights := 'cubic')").fetchall()


def test_install_refuses_a_name_it_did_not_create_and_replaces_its_own(tmp_path):
    path = str(tmp_path / "m.db")
    con = duckdb.connect(path)
    ag.install_macros(con)
    ag.install_macros(con)                       # its own macros: replaced
    con.execute("CREATE OR REPLACE MACRO fleiss_kappa(x) AS x + 1")    # the user's own
    before = con.sql("SELECT COUNT(*) FROM duckdb_functions() WHERE NOT internal").fetchall()
    with pytest.raises(ag.OptionError, match="'fleiss_kappa'.*nothing was written"):
        ag.install_macros(con)
    assert con.sql("SELECT fleiss_kappa(1)").fetchall() == [(2,)]
    assert con.sql("SELECT COUNT(*) FROM duckdb_functions() WHERE NOT internal").fetchall() == before
    con.close()


def _duckdb_cli() -> str | None:
    beside = Path(sys.executable).parent / "duckdb"
    return str(beside) if beside.exists() else shutil.which("duckdb")


@pytest.mark.slow
def test_the_macros_in_the_duckdb_cli(tmp_path):
    cli = _duckdb_cli()
    if cli is None:
        if os.environ.get("CI"):
            pytest.fail("no duckdb CLI (pip install -e '.[test]' installs duckdb-cli)")
        pytest.skip("no duckdb CLI (the duckdb-cli package)")
    from agreement_sql.cli import main

    db = str(tmp_path / "macros.db")
    script = tmp_path / "macros.sql"
    script.write_text(script_text() + f"SELECT value FROM krippendorff_alpha('{K2011}', level := 'ordinal');\n"
                      f"SELECT value FROM fleiss_kappa('{FLEISS}');\n")
    out = subprocess.run([cli, "-csv", "-noheader", db], input=script.read_text(), text=True,
                         capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    values = [float(line) for line in out.stdout.split()]
    assert _close(values[0], ag.krippendorff_alpha(K2011, level="ordinal")["value"])
    assert _close(values[1], ag.fleiss_kappa(FLEISS)["value"])
    # a bad input: the CLI prints the error naming the row
    bad = subprocess.run([cli, db], input="SELECT * FROM fleiss_kappa('SELECT 1 AS item, ''a'' AS rater, "
                         "1 AS value UNION ALL SELECT 1, ''a'', 2');\n", text=True,
                         capture_output=True, timeout=300)
    assert "DuplicateRatingError" in bad.stdout + bad.stderr
    # the macros persist in the database file the CLI wrote them into
    again = subprocess.run([cli, "-csv", "-noheader", db], input=f"SELECT value FROM gwet_ac1('{FLEISS}');\n",
                           text=True, capture_output=True, timeout=300)
    assert again.returncode == 0 and _close(float(again.stdout), ag.gwet_ac1(FLEISS)["value"]), again.stderr


def test_the_macros_command_writes_into_the_database_it_names(tmp_path, capsys):
    from agreement_sql.cli import main

    # (the Python duckdb's file: the CLI binary of another DuckDB version may not open it)
    db = str(tmp_path / "second.db")
    assert main(["macros", db]) == 0
    assert f"wrote {len(REGISTRY) + 2} table macros" in capsys.readouterr().err
    con = duckdb.connect(db)
    assert _close(con.sql(f"SELECT value FROM gwet_ac1('{FLEISS}')").fetchall()[0][0],
                  ag.gwet_ac1(FLEISS)["value"])
    con.close()
    assert main(["macros"]) == 0 and capsys.readouterr().out == script_text()


# -- the routes a macro finds for itself (agreement_sql/macros.py ROUTES, decision 0018) -------

def _ratings_table(con, name, rows):
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} (item BIGINT, rater VARCHAR, value {rows[0]})")
    con.executemany(f"INSERT INTO {name} VALUES (?, ?, ?)", rows[1])


def _synthetic(n_items, n_raters, values, seed):
    """Ratings of n_items by n_raters (each item rated by a varying subset of at least two),
    each value drawn from ``values`` by a fixed generator: an independent input for the routes."""
    import random

    rnd = random.Random(seed)
    rows = []
    for i in range(n_items):
        for r in rnd.sample(range(n_raters), rnd.randint(2, min(n_raters, 6))):
            rows.append((i, f"r{r:03d}", rnd.choice(values)))
    return rows


ROUTE_INPUTS = {
    # every rating a whole number from 0 to 9, five raters: the wide form over the scale 0..9
    "wide": ("DOUBLE", _synthetic(60, 5, [0.0, 1.0, 3.0, 9.0], 1), "wide"),
    # numbers beyond the scale, and fractions: the counts form, one block of rater bits
    "counts_beyond": ("DOUBLE", _synthetic(60, 5, [10.0, 12.0, 15.0], 2), "counts"),
    "counts_fractions": ("DOUBLE", _synthetic(60, 5, [1.0, 1.5, 2.0], 3), "counts"),
    # labels
    "counts_labels": ("VARCHAR", _synthetic(60, 5, ["yes", "no", "maybe"], 4), "counts"),
    # more raters than one block of rater bits (62): every block
    "blocks": ("DOUBLE", _synthetic(200, 70, [1.0, 2.0, 3.0], 5), "blocks"),
}


def _route_taken(con, table):
    from agreement_sql.macros import FOUND, ROUTES

    found = (f"(SELECT * FROM {FOUND}('{table}', 'item', 'rater', 'value', 'value', "
             "agreement_p_metric_given := FALSE))")
    return [r.name for r in ROUTES
            if con.sql(f"SELECT {r.served} FROM {found}").fetchall()[0][0]]


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(ROUTE_INPUTS))
def test_each_route_gives_the_apis_numbers(con, case):
    type_, rows, route = ROUTE_INPUTS[case]
    _ratings_table(con, "routed", (type_, rows))
    assert _route_taken(con, "routed") == [route]          # exactly one route serves an input
    source = con.sql("SELECT * FROM routed").to_arrow_table()
    # every coefficient on every route in the full run; by default each on one route (the
    # routes' cases share the registry out between them: tests/_budget.py)
    names = [name for name, entry in REGISTRY.items() if not entry.two_raters]
    for name in share(names, sorted(ROUTE_INPUTS).index(case), len(ROUTE_INPUTS)):
        got = _rows(con, f"SELECT * FROM {name}('routed')")
        expected = getattr(ag, name)(source)
        assert len(got) == 1, name
        for field in FIELDS:
            if field in expected:
                assert _close(got[0][field], expected[field]), (case, name, field)
    if type_ == "DOUBLE":
        got = _rows(con, "SELECT * FROM krippendorff_alpha('routed', level := 'interval')")
        assert _close(got[0]["value"], ag.krippendorff_alpha(source, level="interval")["value"])


@pytest.mark.parametrize("type_", ["INTEGER", "DECIMAL(4,1)", "VARCHAR", "FLOAT"])
def test_the_value_column_is_read_by_its_type(con, type_):
    """The macro reads a column of any type by the API's rule for that type (the value kind
    "typed": DuckDB folds the type test when it plans): the same numbers as the API."""
    rows = _synthetic(40, 4, [1, 2, 4], 6)
    con.execute(f"CREATE OR REPLACE TEMP TABLE typed_values AS SELECT item, rater, "
                f"CAST(value AS {type_}) AS value FROM (VALUES {', '.join(map(str, rows))}) "
                "AS t(item, rater, value)")
    got = _rows(con, "SELECT * FROM krippendorff_alpha('typed_values', level := 'interval')")
    expected = ag.krippendorff_alpha(con.sql("SELECT * FROM typed_values").to_arrow_table(), level="interval")
    assert _close(got[0]["value"], expected["value"])


def test_a_nan_float_item_is_a_missing_key_as_in_the_api(con):
    con.execute("CREATE OR REPLACE TEMP TABLE nan_items AS SELECT * FROM (VALUES (1.0, 'a', 1), "
                "(1.0, 'b', 2), ('NaN'::DOUBLE, 'a', 1)) AS t(item, rater, value)")
    with pytest.raises(duckdb.Error, match="MissingKeyError"):
        con.sql("SELECT * FROM fleiss_kappa('nan_items')").fetchall()
    with pytest.raises(ag.AgreementError):
        ag.fleiss_kappa(con.sql("SELECT * FROM nan_items").to_arrow_table())


# a key is missing when its text is: NULL, a float NaN, an empty text ('' but not ' ': keys are
# not trimmed); the route query reads that off the column itself (sql/_ratings.sql.j2
# id_missing, so it never makes a key's text it does not need), the API off the key's text
# (sql/ratings_profile.sql.j2): the two must refuse the same inputs, naming the same row
KEY_VALUES = {
    "DOUBLE": [1.0, 2.5, 7.0, None, float("nan")],
    "VARCHAR": ["1", "b", " ", "", None, "TRUE"],
    "BIGINT": [1, 2, 3, None],
}


@pytest.mark.slow
def test_the_route_query_refuses_a_missing_key_as_the_api_does(con):
    """Differential over generated key columns of each kind (item and metric): the macro stops
    with MissingKeyError exactly when the API does, and names the row's item as the API's key
    text (7.0 a float's text, true a boolean spelling's)."""
    import pyarrow as pa
    from hypothesis import given, settings, strategies as st

    kinds = st.sampled_from(sorted(KEY_VALUES))

    @st.composite
    def tables(draw):
        item_type, metric_type = draw(kinds), draw(kinds)
        n = draw(st.integers(2, 6))
        items = draw(st.lists(st.sampled_from(KEY_VALUES[item_type]), min_size=n, max_size=n))
        metrics = draw(st.lists(st.sampled_from(KEY_VALUES[metric_type]), min_size=n, max_size=n))
        pa_type = {"DOUBLE": pa.float64(), "VARCHAR": pa.string(), "BIGINT": pa.int64()}
        return pa.table({"item": pa.array(items, pa_type[item_type]),
                         "rater": pa.array([f"r{i % 2}" for i in range(n)]),
                         "value": pa.array([float(i % 3) for i in range(n)]),
                         "metric": pa.array(metrics, pa_type[metric_type])})

    @settings(max_examples=examples(40), deadline=None, database=None)
    @given(table=tables())
    def check(table):
        con.register("keys_drawn", table)
        try:
            try:
                ag.fleiss_kappa(table, metric="metric")
                api = None
            except ag.MissingKeyError as e:
                api = e
            except ag.AgreementError:
                api = None
            try:
                con.sql("SELECT * FROM fleiss_kappa('keys_drawn', metric := 'metric')").fetchall()
                macro = None
            except duckdb.Error as e:
                macro = str(e) if "MissingKeyError" in str(e) else None
            assert (api is None) == (macro is None), (table.to_pylist(), api, macro)
        finally:
            con.unregister("keys_drawn")

    check()


@pytest.mark.parametrize("item, shown", [("7.0::DOUBLE", "7.0"), ("'TRUE'", "true"), ("3", "3")])
def test_the_route_query_names_a_refused_row_by_its_key_text(con, item, shown):
    con.execute("CREATE OR REPLACE TEMP TABLE named AS SELECT * FROM (VALUES "
                f"({item}, 'a', 1.0, 'q'), ({item}, 'b', 'inf'::DOUBLE, 'q')) AS t(item, rater, value, metric)")
    with pytest.raises(duckdb.Error, match=rf"the rating inf .* at \(item={shown}, rater=b, metric=q\)"):
        con.sql("SELECT * FROM fleiss_kappa('named', metric := 'metric')").fetchall()
