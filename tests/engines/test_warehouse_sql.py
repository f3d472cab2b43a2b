"""`agreement-sql render --dialect postgres|bigquery|snowflake`: the renderings a warehouse
analyst pastes. PostgreSQL runs on a real server (.ci/install-postgres.sh; a failure under
CI=true when the server is missing) and must give DuckDB's numbers (DuckDB is the oracle; its
own values on these files are the published ones, tests/reference/published.json); BigQuery and
Snowflake renderings must parse with sqlglot, with no error.

The differences sit in the dialect (agreement_sql/dialects.py; decision 0011): a text's number
(PostgreSQL: the ``pg_temp.agreement_to_number`` function the rendering's header defines, which
must read every text as DuckDB's TRY_CAST does), trimming, and the OR and count of rater bits.
"""
from __future__ import annotations

import csv
import math
import os
import re
from decimal import Decimal

import duckdb
import pytest

import agreement_sql as a
from agreement_sql.dialects import DUCKDB, SNOWFLAKE
from agreement_sql.rendering import statement

from ._cases import ref
from ._compare import assert_same
from .conftest import missing

DSN = os.environ.get("AGREEMENT_SQL_PG_DSN",
                     "host=localhost port=55432 dbname=agreement user=agreement password=agreement")
METRICS = ["krippendorff_alpha", "fleiss_kappa", "cohen_kappa", "percent_agreement"]


@pytest.mark.parametrize("dialect", ["duckdb", "spark", "postgres", "bigquery", "snowflake"])
def test_every_dialect_renders(dialect):
    for metric in METRICS:
        text = a.render(metric, dialect=dialect)
        assert text.startswith(f"-- agreement-sql: coefficients ({dialect})\n")
        # the PostgreSQL rendering defines the text-to-number function it calls, before the statement
        defines = "CREATE OR REPLACE FUNCTION pg_temp.agreement_to_number(" in text
        assert defines == (dialect == "postgres")
        if defines:
            assert text.index("CREATE OR REPLACE FUNCTION") < text.index("\nWITH")


@pytest.mark.parametrize("dialect", ["bigquery", "snowflake"])
def test_sqlglot_parses_the_rendering(dialect):
    sqlglot = pytest.importorskip("sqlglot")
    for metric in METRICS:
        sqlglot.parse(a.render(metric, dialect=dialect), read=dialect,
                      error_level=sqlglot.ErrorLevel.RAISE)


def test_snowflakes_bit_count_counts_the_bits():
    # Snowflake has no BIT_COUNT: its form adds the bits up with BITAND and BITSHIFTRIGHT, here
    # as DuckDB macros, for rater bits 0..61 (sql/_rater_codes.sql.j2)
    con = duckdb.connect()
    con.execute("CREATE TEMP MACRO bitand(a, b) AS (a & b)")
    con.execute("CREATE TEMP MACRO bitshiftright(a, n) AS (a >> n)")
    values = [0, 1, 2, 3, 2**61, 2**62 - 1, 2**61 + 2**30 + 5] + [(7919 * k) ** 3 % 2**62 for k in range(500)]
    form = SNOWFLAKE.bit_count.replace("{}", "x")
    rows = con.execute(f"SELECT x, {form} FROM (SELECT UNNEST(?::BIGINT[]) AS x)", [values]).fetchall()
    assert [count for _, count in rows] == [bin(x).count("1") for x, _ in rows]


@pytest.fixture(scope="module")
def pg():
    try:
        import psycopg
    except ImportError:
        missing("psycopg is not installed (pip install -e '.[test]')")
    try:
        con = psycopg.connect(DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        missing(f"no PostgreSQL server at {DSN!r} (bash .ci/install-postgres.sh): {exc}")
    yield con
    con.close()


def _load(con, path: str) -> None:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    con.execute("DROP TABLE IF EXISTS pg_temp.ratings")
    con.execute("CREATE TEMP TABLE ratings (item TEXT, rater TEXT, value TEXT)")
    with con.cursor() as cur:
        cur.executemany("INSERT INTO ratings VALUES (%s, %s, %s)",
                        [(r["item"], r["rater"], r["value"]) for r in rows])
    con.execute("ANALYZE ratings")


def _run_psql_style(con, rendered, params):
    """The rendering run as psql would after `\\set` of each header parameter: the header's
    setup (the pg_temp function), then the statement with :name replaced by the value as a
    literal (bound through psycopg, so the values travel apart from the text)."""
    for setup in rendered.setup():
        con.execute(setup)
    sql = rendered.sql.replace("%", "%%")
    sql = re.sub(r":([A-Za-z_][A-Za-z0-9_]*)\b",
                 lambda m: f"%({m.group(1)})s" if m.group(1) in rendered.params else m.group(0), sql)
    with con.cursor() as cur:
        cur.execute(sql, {p: params[p] for p in rendered.params})
        names = [d.name for d in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]


def _plain(value):
    """PostgreSQL's NUMERIC (a SUM of integers, an AVG) as DuckDB returns it: a whole number
    written without a fraction an int, any other a float."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return int(value) if isinstance(exponent, int) and exponent >= 0 else float(value)
    return value


@pytest.mark.postgres
def test_the_postgres_server_answers(pg):
    assert pg.execute("SELECT 1 + 1").fetchone()[0] == 2


# texts the canonical ratings read (sql/_ratings.sql.j2): DuckDB's TRY_CAST(t AS DOUBLE) is what
# a number is; PostgreSQL's own CAST raises on a label and reads hex
TEXTS = ["4", "00", "-0", "-0.0", "1e3", "1E-05", ".5", "5.", "1.e5", "+5", "+-1", "-+1", "++1",
         "--1", " 4 ", "\t4\n", "\x0b4\x0c", "\xa04", "0x10", "0b1", "1,5", "1_000", "1__0", "_1",
         "1_", "1_5.5_5e1_0", "", "  ", "abc", "e5", "5e", "1e+", ".", "-.", "1.2.3", "NaN",
         "nan", "-nan", "+nan", "nan(1)", "nan()", "INF", "-inf", "+Infinity", "iNfInItY",
         "infinit", "infinityy", "1e308", "1.7976931348623157e308", "1.7976931348623159e308",
         "1e400", "-1e400", "1e99999", "4.9e-324", "2e-324", "-2e-324", "1e-400",
         "2.4703282292062328e-324", "0e99999", "-0e99999", "0." + "0" * 400 + "1",
         "1" + "0" * 400, "-" + "9" * 309, "9" * 308, "12345678901234567890e-340", "true", "٣"]


@pytest.mark.postgres
def test_postgres_reads_text_as_duckdbs_try_cast(pg):
    from agreement_sql.dialects import POSTGRES

    for setup in POSTGRES.setup:
        pg.execute(setup)
    duck = duckdb.connect()
    for text in TEXTS:
        expected = duck.execute("SELECT TRY_CAST(? AS DOUBLE)", [text]).fetchone()[0]
        got = pg.execute("SELECT pg_temp.agreement_to_number(%s)", [text]).fetchone()[0]
        if expected is None or got is None or math.isnan(expected):
            assert (got is None, got is not None and math.isnan(got)) == \
                (expected is None, expected is not None and math.isnan(expected)), (text, expected, got)
        else:
            assert (got, math.copysign(1.0, got)) == (expected, math.copysign(1.0, expected)), text


@pytest.mark.postgres
@pytest.mark.parametrize("metric,data,options", [
    ("krippendorff_alpha", "krippendorff2011_4x12.csv", {}),
    ("fleiss_kappa", "fleiss1971_diagnoses_30x6.csv", {}),
    ("percent_agreement", "artstein_poesio2008_table1_2x2.csv", {}),
    ("cohen_kappa", "artstein_poesio2008_table1_2x2.csv", {}),
    ("cohen_kappa", "sas_kappa_3x3.csv", {"weights": "quadratic", "ci": True}),
    # the wide form: category columns and rater bits counted per unit
    ("krippendorff_alpha", "krippendorff2011_4x12.csv", {"level": "ordinal", "categories": "1,2,3,4,5"}),
    ("coefficients", "sas_kappa_3x3.csv", {}),
    # 1000 resamples drawn in SQL (integer MINSTD arithmetic) and their percentile interval
    ("fleiss_kappa", "fleiss1971_diagnoses_30x6.csv", {"bootstrap": True}),
], ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_postgres_rendering_gives_duckdbs_numbers(pg, metric, data, options):
    _load(pg, ref(data))
    rendered, params = statement(metric, dialect="postgres", **options)
    if options.get("bootstrap"):
        # PostgreSQL's planner underestimates the resampled rows and nests loops (minutes);
        # hash joins take seconds (decision 0011)
        pg.execute("SET enable_nestloop = off")
        pg.execute("SET jit = off")
    try:
        got = _run_psql_style(pg, rendered, params)
    finally:
        pg.execute("RESET enable_nestloop")
        pg.execute("RESET jit")
    duck_rendered, duck_params = statement(metric, dialect="duckdb", **options)
    con = duckdb.connect()
    con.execute(f"CREATE TABLE ratings AS SELECT * FROM read_csv('{ref(data)}', all_varchar = true)")
    for setup in DUCKDB.setup:
        con.execute(setup)
    cur = con.execute(duck_rendered.sql, duck_rendered.bind(duck_params))
    names = [d[0] for d in cur.description]
    expected = [dict(zip(names, row)) for row in cur.fetchall()]
    assert expected and expected[0]["value"] is not None
    assert_same(expected, [{k: _plain(v) for k, v in row.items()} for row in got], metric)


@pytest.mark.postgres
def test_postgres_student_t_gives_duckdbs_p_values(pg):
    """sql/student_t.sql.j2 (a recursive CTE; the alternative annotator test's p-values) run as
    rendered for PostgreSQL: DuckDB's P(T <= t) to 1e-12 over 1 .. 1e6 degrees of freedom."""
    rows = [(i, t, v) for i, (t, v) in enumerate(
        (s * t, v) for v in (1.0, 2.0, 29.0, 245.0, 1e4, 1e6) for t in (0.0, 1e-8, 0.5, 1.75, 3.0, 40.0, 1e200)
        for s in (1, -1))]
    pg.execute("DROP TABLE IF EXISTS pg_temp.t_values")
    pg.execute("CREATE TEMP TABLE t_values (row_id BIGINT, t DOUBLE PRECISION, v DOUBLE PRECISION)")
    with pg.cursor() as cur:
        cur.executemany("INSERT INTO t_values VALUES (%s, %s, %s)", rows)
    rendered, params = statement("student_t", dialect="postgres")
    got = _run_psql_style(pg, rendered, params)
    con = duckdb.connect()
    con.execute("CREATE TABLE t_values (row_id BIGINT, t DOUBLE, v DOUBLE)")
    con.executemany("INSERT INTO t_values VALUES (?, ?, ?)", rows)
    duck, duck_params = statement("student_t", dialect="duckdb")
    expected = con.execute(duck.sql, duck.bind(duck_params)).fetchall()
    assert [r["row_id"] for r in got] == [r[0] for r in expected]
    for row, (_, p, iterations) in zip(got, expected):
        assert abs(row["p"] - p) <= 1e-12 and row["iterations"] == iterations, (row, p)


# -- paste-ready renderings (decision 0018): run as printed by psql, with their checks ----------

PSQL_TEMPLATES = [("krippendorff_alpha", {"level": "ordinal"}), ("fleiss_kappa", {}),
                  ("cohen_kappa", {}), ("coefficients", {}), ("pairwise_agreement", {}),
                  ("irr_report", {}), ("rater_diagnostics", {})]


def _psql() -> str:
    import shutil

    found = shutil.which("psql")
    if found is None:
        missing("no psql client (bash .ci/install-postgres.sh)")
    return found


def _psql_rows(script: str) -> list[dict]:
    """The script run by psql as printed (`psql -f`, ON_ERROR_STOP), rows as dicts (CSV)."""
    import io
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as handle:
        handle.write(script)
    out = subprocess.run([_psql(), DSN, "-v", "ON_ERROR_STOP=1", "-q", "--csv", "-f", handle.name],
                         capture_output=True, text=True, timeout=300)
    os.unlink(handle.name)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return list(csv.DictReader(io.StringIO(out.stdout)))


def _number(text):
    if text in ("", None):
        return None
    try:
        return float(text)
    except ValueError:
        return {"t": True, "f": False}.get(text, text)


@pytest.mark.postgres
@pytest.mark.parametrize("template,options", PSQL_TEMPLATES, ids=[t for t, _ in PSQL_TEMPLATES])
def test_psql_runs_the_rendering_as_printed(pg, template, options):
    """`agreement-sql render NAME --dialect postgres` piped to psql as it is: the \\set lines set
    the parameters (a text read as :'name'), the header defines its functions; the rows equal
    the DuckDB rendering's (run as printed too), integers exactly and floats to 1e-9. The
    table is a real one (psql runs in its own session)."""
    _psql()
    data = ref("krippendorff2011_4x12.csv")
    pg.execute("DROP TABLE IF EXISTS public.ratings")
    pg.execute("CREATE TABLE public.ratings (item TEXT, rater TEXT, value TEXT)")
    with open(data, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with pg.cursor() as cur:
        cur.executemany("INSERT INTO public.ratings VALUES (%s, %s, %s)",
                        [(r["item"], r["rater"], r["value"]) for r in rows])
    got = _psql_rows(a.render(template, dialect="postgres", **options))
    con = duckdb.connect()
    con.execute(f"CREATE TABLE ratings AS SELECT * FROM read_csv('{data}', all_varchar = true)")
    rel = con.sql(a.render(template, dialect="duckdb", **options))
    expected = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    assert expected and len(got) == len(expected)
    for g, e in zip(got, expected):
        for key, value in e.items():
            shown = _number(g[key])
            if isinstance(value, (int, float)) and not isinstance(value, bool) and shown is not None:
                assert math.isclose(float(shown), float(value), rel_tol=1e-9, abs_tol=1e-9), (key, shown, value)
            elif value is None:
                assert shown is None, (key, g[key])
    # the natural psql form of a text parameter gives the same rows: \set NAME value (unquoted)
    script = a.render(template, dialect="postgres", **options).replace(
        "\\set default_metric 'value'", "\\set default_metric value")
    assert _psql_rows(script) == got


@pytest.mark.postgres
@pytest.mark.parametrize("rows,message", [
    ([("1", "a", "1"), ("1", "a", "2"), ("1", "b", "2")], "DuplicateRatingError"),
    ([("1", "a", "1"), ("1", "b", "inf"), ("2", "a", "1")], "InvalidRatingError: the rating Infinity"),
    ([("1", "a", "1"), (None, "b", "1"), ("2", "b", "1")], "MissingKeyError"),
])
def test_the_postgres_rendering_refuses_what_the_api_refuses(pg, rows, message):
    _psql()
    pg.execute("DROP TABLE IF EXISTS public.ratings")
    pg.execute("CREATE TABLE public.ratings (item TEXT, rater TEXT, value TEXT)")
    with pg.cursor() as cur:
        cur.executemany("INSERT INTO public.ratings VALUES (%s, %s, %s)", rows)
    with pytest.raises(RuntimeError, match="agreement-sql: " + message):
        _psql_rows(a.render("fleiss_kappa", dialect="postgres"))


@pytest.mark.parametrize("template", ["krippendorff_alpha", "fleiss_kappa", "cohen_kappa",
                                      "coefficients", "irr_report", "rater_diagnostics",
                                      "pairwise_agreement", "icc"])
@pytest.mark.parametrize("dialect", ["bigquery", "snowflake"])
def test_warehouse_renderings_parse_and_carry_their_checks(dialect, template):
    """BigQuery and Snowflake cannot run here: their renderings parse with sqlglot (every
    statement of the script), use the dialect's own remainder and substring forms (BigQuery has
    no % operator and no POSITION(.. IN ..)), and carry the error expression of their checks."""
    sqlglot = pytest.importorskip("sqlglot")
    text = a.render(template, dialect=dialect)
    sqlglot.parse(text, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
    code = "\n".join(line.split("--", 1)[0] for line in text.splitlines())
    assert ("ERROR(CONCAT(" if dialect == "bigquery" else "agreement_error(CONCAT(") in code
    if dialect == "bigquery":
        assert " % " not in code and "POSITION(" not in code
