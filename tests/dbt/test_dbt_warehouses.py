"""The dbt package's Spark SQL, BigQuery and Snowflake macros (agreement_sql/dbt.py,
docs/decisions/0025): each the rendering of the same templates for its dialect, like the
PostgreSQL macros of test_dbt_package.py.

* Spark SQL runs here (marker spark: the local Spark of tests/engines/conftest.py): each
  coefficient's spark__ macro, expanded as dbt-spark would, gives the API's value; the caller's
  odd column names, a metric column and a refused input behave as in the API; and (slow) an
  example project built with dbt-spark's session method holds the API's values.
* BigQuery and Snowflake have no server here: every branch of every macro parses with sqlglot
  in its dialect, and the caller's names reach it exactly, as identifiers and as a text.

Expected values: the API's own results on the same file, themselves held to published values
(Krippendorff 2011's ordinal alpha 0.8153875, Fleiss 1971's kappa 0.4302445:
tests/reference/published.json)."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agreement_sql as ag
from agreement_sql.registry import REGISTRY
from _budget import examples
from tests.engines.conftest import missing, spark  # noqa: F401  (the session's Spark fixture)

from .test_dbt_package import (COEFFICIENTS, FLEISS, K2011, SAS, CompilerError, _choices, _dbt,
                               assert_rendering_rows, expand)

QUOTE = {"spark": "`", "bigquery": "`", "snowflake": '"'}
ODD = ("it`em", "rat'er", 'va\\l"u\'e')      # a backtick, a quote, a backslash, a double quote


class Relation:
    """A dbt relation as a model's Jinja sees it, quoted by the dialect's rule."""

    def __init__(self, dialect: str, *parts: str):
        self.q, self.parts = QUOTE[dialect], parts

    def __str__(self) -> str:
        return ".".join(self.q + p.replace(self.q, self.q * 2) + self.q for p in self.parts)


@pytest.fixture(scope="module")
def spark_macros():
    return expand("spark")


def _view(spark, name: str, path: Path, columns=("item", "rater", "value")) -> None:
    frame = spark.read.csv(str(path), header=True)          # every column a STRING
    for old, new in zip(("item", "rater", "value"), columns):
        frame = frame.withColumnRenamed(old, new)
    frame.createOrReplaceTempView(name)


def _spark_rows(spark, sql: str) -> list[dict]:
    return [r.asDict() for r in spark.sql(sql).collect()]


# Spark inlines every deterministic CTE wherever it is read: the pair-table statements of
# Cohen's kappa and Scott's pi become trees of some 2,800 and 6,900 CTE instances, which local
# Spark plans in 100-200 s given a driver of more than 2 GB (docs/decisions/0025). They are
# left out here (CI's time); every branch of them parses below.
PAIR_TABLE = ("cohen_kappa", "scott_pi")
SPARK_CASES = [m for m in COEFFICIENTS if m not in PAIR_TABLE]


@pytest.mark.spark
@pytest.mark.parametrize("macro", SPARK_CASES)
def test_each_spark_macro_expands_to_the_apis_value(macro, spark, spark_macros):
    """The spark__ macro at its default choice (alpha: ordinal), run on local Spark: the API's
    value. (Every other branch is the same rendering with other options: it parses below, and
    tests/engines runs the Spark rendering of every option.)"""
    two = REGISTRY[macro].two_raters
    view, path = ("sas", SAS) if two else ("k2011", K2011)
    _view(spark, view, path)
    options = {"level": "ordinal"} if macro == "krippendorff_alpha" else {}
    rows = _spark_rows(spark, str(spark_macros[macro](Relation("spark", view), **options)))
    assert len(rows) == 1 and rows[0]["metric"] == "value"
    expected = getattr(ag, macro)(str(path), **options)["value"]
    if expected is None:
        assert rows[0]["value"] is None
    else:
        assert rows[0]["value"] == pytest.approx(expected, abs=1e-12)
    if macro == "krippendorff_alpha":
        assert rows[0]["value"] == pytest.approx(0.8153875037548813, abs=1e-12)  # Krippendorff 2011
    if macro == "fleiss_kappa":
        _view(spark, "fleiss", FLEISS)
        got = _spark_rows(spark, str(spark_macros[macro](Relation("spark", "fleiss"))))[0]["value"]
        assert got == pytest.approx(0.4302445, abs=5e-8)  # R irr kappam.fleiss (published.json)


@pytest.mark.spark
@pytest.mark.parametrize("macro", ["pairwise_agreement", "irr_summary"])
def test_the_spark_statements_give_the_duckdb_renderings_rows(macro, spark, spark_macros):
    con = duckdb.connect()
    con.execute(f"CREATE VIEW k2011 AS SELECT * FROM read_csv('{K2011}', all_varchar = true)")
    _view(spark, "k2011", K2011)
    got = _spark_rows(spark, str(spark_macros[macro](Relation("spark", "k2011"))))
    assert_rendering_rows(got, macro, con, "k2011")


@pytest.mark.spark
def test_the_spark_macro_quotes_the_callers_names(spark, spark_macros):
    """Columns named with a backtick, quotes and a backslash reach Spark as identifiers, and the
    value column's name as the metric's text, exactly: the API's alpha on the same ratings."""
    _view(spark, "odd_names", K2011, ODD)
    sql = str(spark_macros["krippendorff_alpha"](Relation("spark", "odd_names"), item=ODD[0],
                                                 rater=ODD[1], value=ODD[2], level="ordinal"))
    row = _spark_rows(spark, sql)[0]
    assert row["metric"] == ODD[2]
    assert row["value"] == pytest.approx(0.8153875037548813, abs=1e-12)      # Krippendorff 2011


@pytest.mark.spark
def test_the_spark_macro_reads_a_metric_column(spark, spark_macros):
    _view(spark, "k2011", K2011)
    _view(spark, "sas", SAS)
    spark.sql("SELECT item, rater, value, 'm1' AS metric FROM k2011 UNION ALL "
              "SELECT item, rater, value, 'm2' FROM sas").createOrReplaceTempView("two")
    rows = {r["metric"]: r for r in _spark_rows(
        spark, str(spark_macros["fleiss_kappa"](Relation("spark", "two"), metric="metric")))}
    assert set(rows) == {"m1", "m2"}
    assert rows["m1"]["value"] == pytest.approx(ag.fleiss_kappa(str(K2011))["value"], abs=1e-12)
    assert rows["m2"]["value"] == pytest.approx(ag.fleiss_kappa(str(SAS))["value"], abs=1e-12)


@pytest.mark.spark
def test_the_spark_statement_refuses_what_the_api_refuses(spark, spark_macros):
    spark.createDataFrame([("1", "a", "1"), ("1", "a", "2"), ("1", "b", "2")],
                          "item STRING, rater STRING, value STRING").createOrReplaceTempView("dup")
    with pytest.raises(Exception, match="agreement-sql: DuplicateRatingError"):
        spark.sql(str(spark_macros["fleiss_kappa"](Relation("spark", "dup")))).collect()


# -- every dialect, no server: sqlglot --------------------------------------------------------

CASES = [(m, c) for m in COEFFICIENTS for c in _choices(m)] + [
    ("pairwise_agreement", {}), ("irr_summary", {})]


@pytest.mark.slow
@pytest.mark.parametrize("dialect", ["spark", "bigquery", "snowflake"])
def test_every_branch_of_every_macro_parses_in_its_dialect(dialect):
    """Each macro, for every choice of level or weights, expands to one statement that sqlglot
    parses in the adapter's dialect, with the caller's relation read in its first CTE; the
    install hook is the error function Snowflake lacks, nothing on Spark and BigQuery."""
    sqlglot = pytest.importorskip("sqlglot")
    from sqlglot import exp

    macros = expand(dialect)
    relation = Relation(dialect, "project", "dataset", "ratings")
    for name, choice in CASES:
        tree = sqlglot.parse_one(str(macros[name](relation, **choice)), read=dialect,
                                 error_level=sqlglot.ErrorLevel.RAISE)
        first = tree.find(exp.CTE)
        assert first is not None and first.alias == "agreement_input", name
        table = first.find(exp.Table)
        assert [table.catalog, table.db, table.name] == ["project", "dataset", "ratings"], name
    install = str(macros["install"]()).strip()
    if dialect == "snowflake":
        statements = sqlglot.parse(install, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
        assert len(statements) == 2 and "main.agreement_error(" in install
    else:
        assert install == ""


# column names a caller may have: the quote characters and escapes of every dialect, spaces,
# letters beyond ASCII (no NUL, which no dialect can quote; no control character, which
# BigQuery refuses and the next test covers)
NAMES = st.lists(st.sampled_from(list("`'\"\\ a_é€😀$;-") + ["--", "/*", "*/", "\\n", "\\'"]),
                 min_size=1, max_size=8).map("".join)


@pytest.mark.slow
@pytest.mark.parametrize("dialect", ["spark", "bigquery", "snowflake"])
@settings(max_examples=examples(45), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.tuples(NAMES, NAMES, NAMES).filter(lambda t: len(set(t)) == 3))
def test_the_callers_names_reach_each_dialect_exactly(dialect, names):
    """Any column names: sqlglot, reading the expanded statement in the adapter's dialect, finds
    the same names as identifiers in the first CTE and the value column's name as the metric's
    text (each escaped by that dialect's rule), and nothing of them as SQL (the statement
    parses to one SELECT). The fixed case ODD is in the Spark run above."""
    import sqlglot
    from sqlglot import exp

    sql = str(_macros(dialect)["fleiss_kappa"](Relation(dialect, "t"), item=names[0],
                                               rater=names[1], value=names[2]))
    trees = sqlglot.parse(sql, read=dialect, error_level=sqlglot.ErrorLevel.RAISE)
    assert len(trees) == 1 and isinstance(trees[0], exp.Select)
    first = trees[0].find(exp.CTE)
    assert first.alias == "agreement_input"
    assert [e.this.name for e in first.this.expressions][:3] == list(names)
    texts = {lit.this for lit in trees[0].find_all(exp.Literal) if lit.is_string}
    assert names[2] in texts


_EXPANDED: dict = {}


def _macros(dialect: str) -> dict:
    """expand(dialect), once per process (hypothesis calls the test many times)."""
    if dialect not in _EXPANDED:
        _EXPANDED[dialect] = expand(dialect)
    return _EXPANDED[dialect]


@pytest.mark.slow
def test_the_warehouse_macros_refuse_at_compilation():
    """A text relation, a name the dialect cannot hold, an unknown choice, and a target the
    statements were not written for stop compilation."""
    for dialect in ("spark", "bigquery", "snowflake"):
        macros = expand(dialect)
        with pytest.raises(CompilerError, match="is a relation"):
            macros["fleiss_kappa"]("ratings")
        with pytest.raises(CompilerError, match="OptionError: krippendorff_alpha: level must be"):
            macros["krippendorff_alpha"](Relation(dialect, "t"), level="nominl")
        with pytest.raises(CompilerError, match="identifier"):
            macros["fleiss_kappa"](Relation(dialect, "t"), rater="")
    with pytest.raises(CompilerError, match="without control characters"):
        expand("bigquery")["fleiss_kappa"](Relation("bigquery", "t"), item="it\nem")
    with pytest.raises(CompilerError, match="1 to 255 characters"):
        expand("snowflake")["fleiss_kappa"](Relation("snowflake", "t"), item="x" * 256)
    assert str(expand("snowflake")["fleiss_kappa"](Relation("snowflake", "t"), item="x" * 255))
    # dbt-databricks dispatches to spark__ (its parent adapter): the Spark SQL statements run
    # there; an adapter that reaches a warehouse's macros otherwise is refused
    arguments = ("item", "rater", "value", None, None)       # item, rater, value, metric, weights
    assert "agreement_input" in str(expand("databricks")["spark__fleiss_kappa"](
        Relation("spark", "t"), *arguments))
    with pytest.raises(CompilerError, match="run on dbt-snowflake; this target is 'duckdb'"):
        expand("duckdb")["snowflake__fleiss_kappa"](Relation("snowflake", "t"), *arguments)


@pytest.mark.slow
@pytest.mark.spark
def test_an_example_project_built_with_dbt_spark(tmp_path, spark):
    """The example of test_dbt_package.py on dbt-spark (its `session` method: a local Spark in
    dbt's process): `dbt deps`, `dbt seed` (the reference files as strings), `dbt run`; the
    tables dbt made, written as Parquet, hold the API's values."""
    from importlib.metadata import PackageNotFoundError, version

    dbt = _dbt()
    if dbt is None:
        missing("dbt is not installed (pip install -e '.[dbt]', .ci/setup)")
    try:
        version("dbt-spark")
    except PackageNotFoundError:
        missing("dbt-spark is not installed (pip install -e '.[dbt]', .ci/setup)")
    project = tmp_path / "example"
    (project / "models").mkdir(parents=True)
    (project / "seeds").mkdir()
    tables = tmp_path / "tables"
    (project / "dbt_project.yml").write_text(
        "name: example\nversion: '1.0'\nconfig-version: 2\nprofile: example\n"
        "model-paths: ['models']\nseed-paths: ['seeds']\n"
        "on-run-start:\n  - \"{{ agreement_sql.install() }}\"\n"
        "seeds:\n  example:\n    +column_types: {item: string, rater: string, value: string}\n"
        "models:\n  example:\n    +materialized: table\n    +file_format: parquet\n"
        f"    +location_root: {tables}\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {Path(__file__).parents[2] / 'dbt'}\n")
    (project / "profiles.yml").write_text(
        "example:\n  target: dev\n  outputs:\n    dev:\n      type: spark\n      method: session\n"
        "      host: NA\n      schema: agreement_example\n      threads: 1\n"
        "      server_side_parameters:\n"
        f"        spark.sql.warehouse.dir: \"{tmp_path / 'warehouse'}\"\n"
        "        spark.ui.enabled: \"false\"\n"
        f"        spark.driver.extraJavaOptions: \"-Dderby.system.home={tmp_path / 'derby'}\"\n")
    shutil.copy(K2011, project / "seeds" / "ratings.csv")
    shutil.copy(FLEISS, project / "seeds" / "fleiss_ratings.csv")
    (project / "models" / "alpha.sql").write_text(
        "{{ agreement_sql.krippendorff_alpha(ref('ratings'), level='ordinal') }}\n")
    (project / "models" / "fleiss.sql").write_text(
        "{{ agreement_sql.fleiss_kappa(ref('fleiss_ratings')) }}\n")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project)}
    for step in (["deps"], ["seed"], ["run"]):
        done = subprocess.run([dbt, *step, "--project-dir", str(project)], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    con = duckdb.connect()
    alpha = con.execute(f"SELECT value FROM read_parquet('{tables / 'alpha'}/*.parquet')").fetchone()[0]
    fleiss = con.execute(f"SELECT value FROM read_parquet('{tables / 'fleiss'}/*.parquet')").fetchone()[0]
    assert alpha == pytest.approx(ag.krippendorff_alpha(str(K2011), level="ordinal")["value"],
                                  abs=1e-12)
    assert alpha == pytest.approx(0.8153875037548813, abs=1e-12)        # Krippendorff 2011
    assert fleiss == pytest.approx(0.4302445, abs=5e-8)  # R irr kappam.fleiss (published.json)
