"""The dbt package (agreement_sql/dbt.py, docs/decisions/0025): the committed dbt/ folder is a
fresh generation from the templates; its DuckDB macros, expanded, give the API's numbers; its
PostgreSQL macros, expanded as dbt-postgres would and run on the local server (marker postgres,
.ci/install-postgres.sh), give the API's numbers too; and (slow, needs the `dbt` extra: dbt-core,
dbt-duckdb and dbt-postgres 1.9) example projects built with `dbt run` on each adapter assert
the API's values. Expected values: the API's own results on the same file, themselves held to
published values (Krippendorff 2011's ordinal alpha 0.8153875, Fleiss 1971 0.4302:
tests/reference/published.json)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

import agreement_sql as ag
from agreement_sql.dbt import package_files
from agreement_sql.macros import public_macros

ROOT = Path(__file__).resolve().parents[2]
K2011 = ROOT / "tests" / "reference" / "krippendorff2011_4x12.csv"
FLEISS = ROOT / "tests" / "reference" / "fleiss1971_diagnoses_30x6.csv"
SAS = ROOT / "tests" / "reference" / "sas_kappa_3x3.csv"           # two raters


def test_the_committed_package_is_a_fresh_generation():
    fresh = package_files()
    committed = {str(p.relative_to(ROOT / "dbt")): p.read_text(encoding="utf-8")
                 for p in (ROOT / "dbt").rglob("*") if p.is_file()}
    assert committed == fresh, "run: agreement-sql dbt-package dbt"


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    ag.install_macros(con)
    con.execute(f"CREATE VIEW k2011 AS SELECT * FROM read_csv('{K2011}', all_varchar = true)")
    con.execute(f"CREATE VIEW sas AS SELECT * FROM read_csv('{SAS}', all_varchar = true)")
    return con


class CompilerError(Exception):
    """dbt's compilation error (exceptions.raise_compiler_error)."""


def expand(adapter_type: str, *, schema: str = "main", variables: dict | None = None) -> dict:
    """The package's macros as dbt would expand them for ``adapter_type``, in a sandboxed Jinja
    environment as dbt's: every macro under ``agreement_sql``, ``adapter.dispatch`` to
    ``<adapter>__<name>`` else ``default__<name>``, dbt-postgres's ``adapter.quote`` (it puts
    the name between double quotes, doubling nothing), ``target``, ``var()``, and
    ``exceptions.raise_compiler_error``."""
    from jinja2.sandbox import SandboxedEnvironment

    macros: dict = {}

    class Package:
        def __getattr__(self, name):
            return macros[name]

    def dispatch(name, package):
        return macros.get(f"{adapter_type}__{name}") or macros[f"default__{name}"]

    def raise_compiler_error(message):
        raise CompilerError(message)

    context = {
        "return": lambda value: value,
        "adapter": type("Adapter", (), {"type": staticmethod(lambda: adapter_type),
                                        "dispatch": staticmethod(dispatch),
                                        "quote": staticmethod(lambda name: '"{}"'.format(name))}),
        "target": type("Target", (), {"type": adapter_type, "schema": schema}),
        "var": lambda name, default=None: (variables or {}).get(name, default),
        "exceptions": type("Exceptions", (), {
            "raise_compiler_error": staticmethod(raise_compiler_error)}),
        "agreement_sql": Package(),
    }
    env = SandboxedEnvironment()
    files = package_files()
    for path in sorted(p for p in files if p.startswith("macros/")):
        module = env.from_string(files[path]).make_module(context)
        macros.update({n: getattr(module, n) for n in dir(module) if not n.startswith("__")})
    return macros


@pytest.fixture(scope="module")
def duckdb_macros():
    return expand("duckdb")


COEFFICIENTS = [m.name for m in public_macros() if m.name not in ("pairwise_agreement", "irr_summary")]


@pytest.mark.slow
@pytest.mark.parametrize("macro", COEFFICIENTS)
def test_each_macro_expands_to_the_apis_value(macro, con, duckdb_macros):
    from agreement_sql.registry import REGISTRY

    two = REGISTRY[macro].two_raters
    view, path = ("sas", SAS) if two else ("k2011", K2011)
    level = {"level": "ordinal"} if macro == "krippendorff_alpha" else {}
    sql = str(duckdb_macros[macro](view, **level))
    got = con.execute(sql).fetchall()
    columns = [d[0] for d in con.description]
    row = dict(zip(columns, got[0]))
    expected = getattr(ag, macro)(str(path), **level)
    assert row["value"] == pytest.approx(expected["value"], abs=1e-12)
    if macro == "krippendorff_alpha":
        assert row["value"] == pytest.approx(0.8153875037548813, abs=1e-12)   # Krippendorff 2011


# -- PostgreSQL (dbt-postgres): the PostgreSQL rendering of the same templates ------------------

DSN = os.environ.get("AGREEMENT_SQL_PG_DSN",
                     "host=localhost port=55432 dbname=agreement user=agreement password=agreement")
# the tables, and the functions install() creates (the var); one pair per process (xdist workers)
PG_SCHEMA = f"agreement_sql_dbt_test_{os.getpid()}"
PG_FUNCTIONS = f"agreement_sql_dbt_fn_{os.getpid()}"


class Relation:
    """A dbt relation as a model's Jinja sees it: an object printing its quoted name."""

    def __init__(self, *parts: str):
        self.parts = parts

    def __str__(self) -> str:
        return ".".join('"' + p.replace('"', '""') + '"' for p in self.parts)


def _choices(name: str) -> list[dict]:
    macro = next(m for m in public_macros() if m.name == name)
    keys = [k for k, _ in macro.choices]
    from itertools import product

    return [dict(zip(keys, values)) for values in product(*(c for _, c in macro.choices))]


PG_CASES = [(m, c) for m in COEFFICIENTS for c in _choices(m)]


def _rows(cur) -> list[dict]:
    names = [d.name for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def _load_pg(pg, table: str, path: Path, columns=("item", "rater", "value")) -> None:
    import csv

    with open(path, newline="", encoding="utf-8") as handle:
        rows = [tuple(r.values()) for r in csv.DictReader(handle)]
    quoted = ", ".join('"' + c.replace('"', '""') + '" TEXT' for c in columns)
    pg.execute(f"CREATE TABLE {Relation(PG_SCHEMA, table)} ({quoted})")
    with pg.cursor() as cur:
        cur.executemany(f"INSERT INTO {Relation(PG_SCHEMA, table)} "
                        f"VALUES ({', '.join(['%s'] * len(columns))})", rows)


@pytest.fixture(scope="module")
def pg_macros():
    return expand("postgres", schema="public", variables={"agreement_sql_schema": PG_FUNCTIONS})


@pytest.fixture(scope="module")
def pg(pg_macros):
    """The local server (.ci/install-postgres.sh) with the package installed as the
    on-run-start hook would (functions in the var's schema) and the reference files as tables;
    both schemas dropped afterwards."""
    from tests.engines.conftest import missing

    try:
        import psycopg
    except ImportError:
        missing("psycopg is not installed (pip install -e '.[test]')")
    try:
        con = psycopg.connect(DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        missing(f"no PostgreSQL server at {DSN!r} (bash .ci/install-postgres.sh): {exc}")
    for schema in (PG_SCHEMA, PG_FUNCTIONS):
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    con.execute(f'CREATE SCHEMA "{PG_SCHEMA}"')
    con.execute(str(pg_macros["install"]()))
    _load_pg(con, "k2011", K2011)
    _load_pg(con, "sas", SAS)
    _load_pg(con, "fleiss", FLEISS)
    yield con
    for schema in (PG_SCHEMA, PG_FUNCTIONS):
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    con.close()


@pytest.mark.postgres
@pytest.mark.parametrize("macro,choice", PG_CASES,
                         ids=[f"{m}-{','.join(f'{k}={v}' for k, v in c.items()) or 'default'}"
                              for m, c in PG_CASES])
def test_each_postgres_macro_expands_to_the_apis_value(macro, choice, pg, pg_macros):
    """The postgres__ macro, expanded as dbt-postgres would, run on the server: the API's value
    on the same reference file (Krippendorff 2011's ordinal alpha 0.8153875, Fleiss 1971's
    kappa, R irr's 0.4302445), every choice of level and weights."""
    from agreement_sql.registry import REGISTRY

    two = REGISTRY[macro].two_raters
    table, path = ("sas", SAS) if two else ("k2011", K2011)
    options = {k: v for k, v in choice.items() if v is not None}
    sql = str(pg_macros[macro](Relation(PG_SCHEMA, table), **choice))
    rows = _rows(pg.execute(sql))
    assert len(rows) == 1 and rows[0]["metric"] == "value"
    expected = getattr(ag, macro)(str(path), **options)
    if expected["value"] is None:
        assert rows[0]["value"] is None
    else:
        assert float(rows[0]["value"]) == pytest.approx(expected["value"], abs=1e-12)
    if macro == "krippendorff_alpha" and options == {"level": "ordinal"}:
        assert float(rows[0]["value"]) == pytest.approx(0.8153875037548813, abs=1e-12)  # Krippendorff 2011
    if macro == "fleiss_kappa" and not options:
        got = _rows(pg.execute(str(pg_macros[macro](Relation(PG_SCHEMA, "fleiss")))))[0]["value"]
        assert float(got) == pytest.approx(ag.fleiss_kappa(str(FLEISS))["value"], abs=1e-12)
        assert float(got) == pytest.approx(0.4302445, abs=5e-8)  # R irr kappam.fleiss (published.json)


@pytest.mark.postgres
@pytest.mark.parametrize("macro", ["pairwise_agreement", "irr_summary"])
def test_the_postgres_statements_give_the_duckdb_renderings_rows(macro, pg, pg_macros, con):
    """pairwise_agreement and irr_summary (no single value): the rows of the DuckDB rendering of
    the same template over the same file (`agreement-sql render`, which tests/engines holds to
    the API), integers and texts exactly, floats to 1e-9. (Not the DuckDB table macro's rows:
    its irr_summary adds the empty validation and scores rows of the routes that do not serve.)"""
    got = _rows(pg.execute(str(pg_macros[macro](Relation(PG_SCHEMA, "k2011")))))
    assert_rendering_rows(got, macro, con, "k2011")


def assert_rendering_rows(got: list[dict], macro: str, con, view: str) -> None:
    """``got`` (a warehouse macro's rows) are the rows of the DuckDB rendering of ``macro``'s
    template over the view ``view`` of ``con``: integers and texts exactly, floats to 1e-9."""
    import math

    template = next(m.template for m in public_macros() if m.name == macro)
    rel = con.sql(ag.render(template, dialect="duckdb", relation=view))
    expected = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    assert expected and len(got) == len(expected)
    for g, e in zip(got, expected):
        assert set(g) == set(e)
        for key, value in e.items():
            shown = g[key]
            if isinstance(value, float):
                assert shown is not None, key
                assert math.isclose(float(shown), value, rel_tol=1e-9, abs_tol=1e-9), (key, shown, value)
            elif isinstance(value, int) and not isinstance(value, bool):
                assert shown == value, (key, shown, value)     # a NUMERIC count equals the int
            else:
                assert shown == value, (key, shown, value)


@pytest.mark.postgres
def test_the_postgres_macro_quotes_the_callers_names(pg, pg_macros):
    """Column names holding a double quote, a single quote and a backslash reach PostgreSQL as
    quoted identifiers and the value column's name (the metric's) as a text literal, never as
    SQL: the API's alpha on the same ratings, and the metric named exactly."""
    import pyarrow as pa
    import csv

    columns = ('it"em', "rat'er", "va\\l'ue")
    _load_pg(pg, 'odd "names"', K2011, columns)
    sql = str(pg_macros["krippendorff_alpha"](Relation(PG_SCHEMA, 'odd "names"'), item=columns[0],
                                              rater=columns[1], value=columns[2], level="ordinal"))
    row = _rows(pg.execute(sql))[0]
    assert row["metric"] == columns[2]
    with open(K2011, newline="", encoding="utf-8") as handle:
        data = list(csv.DictReader(handle))
    table = pa.table({c: [r[k] for r in data] for c, k in zip(columns, ("item", "rater", "value"))})
    expected = ag.krippendorff_alpha(table, item=columns[0], rater=columns[1], value=columns[2],
                                     level="ordinal")
    assert float(row["value"]) == pytest.approx(expected["value"], abs=1e-12)
    assert float(row["value"]) == pytest.approx(0.8153875037548813, abs=1e-12)  # Krippendorff 2011


@pytest.mark.postgres
def test_the_postgres_macro_reads_a_metric_column(pg, pg_macros):
    """metric= names a metric column: one row per metric, each the API's value."""
    pg.execute(f'CREATE TABLE "{PG_SCHEMA}"."two" AS SELECT item, rater, value, \'m1\' AS metric '
               f'FROM "{PG_SCHEMA}"."k2011" UNION ALL SELECT item, rater, value, \'m2\' '
               f'FROM "{PG_SCHEMA}"."sas"')
    sql = str(pg_macros["fleiss_kappa"](Relation(PG_SCHEMA, "two"), metric="metric"))
    rows = {r["metric"]: r for r in _rows(pg.execute(sql))}
    assert set(rows) == {"m1", "m2"}
    assert float(rows["m1"]["value"]) == pytest.approx(ag.fleiss_kappa(str(K2011))["value"], abs=1e-12)
    assert float(rows["m2"]["value"]) == pytest.approx(ag.fleiss_kappa(str(SAS))["value"], abs=1e-12)


@pytest.mark.postgres
def test_the_postgres_statement_refuses_what_the_api_refuses(pg, pg_macros):
    pg.execute(f'CREATE TABLE "{PG_SCHEMA}"."dup" (item TEXT, rater TEXT, value TEXT)')
    pg.execute(f'INSERT INTO "{PG_SCHEMA}"."dup" VALUES (\'1\', \'a\', \'1\'), (\'1\', \'a\', \'2\'), '
               f'(\'1\', \'b\', \'2\')')
    import psycopg

    with pytest.raises(psycopg.Error, match="agreement-sql: DuplicateRatingError"):
        pg.execute(str(pg_macros["fleiss_kappa"](Relation(PG_SCHEMA, "dup"))))


@pytest.mark.slow
def test_the_postgres_macros_refuse_at_compilation():
    """A text for the relation (it would be pasted), an unknown choice, a name PostgreSQL would
    truncate, and an adapter the package does not run on stop compilation."""
    macros = expand("postgres")
    with pytest.raises(CompilerError, match="relation"):
        macros["fleiss_kappa"]("ratings")
    with pytest.raises(CompilerError, match="OptionError: krippendorff_alpha: level must be"):
        macros["krippendorff_alpha"](Relation("s", "t"), level="nominl")
    with pytest.raises(CompilerError, match="OptionError: cohen_kappa: weights must be"):
        macros["cohen_kappa"](Relation("s", "t"), weights="cubic")
    with pytest.raises(CompilerError, match="63 bytes"):
        macros["fleiss_kappa"](Relation("s", "t"), value="é" * 32)
    other = expand("trino")
    with pytest.raises(CompilerError, match="agreement-sql render fleiss_kappa --dialect"):
        other["fleiss_kappa"](Relation("s", "t"))
    with pytest.raises(CompilerError, match="this target is 'trino'"):
        other["install"]()
    # dbt-redshift dispatches to postgres__ (its parent adapter): the PostgreSQL statements
    # are refused there rather than run on an engine they were not written for
    redshift = expand("redshift")
    for name in ("postgres__fleiss_kappa", "postgres__install"):
        with pytest.raises(CompilerError, match="run on dbt-postgres; this target is 'redshift'"):
            redshift[name](*([Relation("s", "t")] if name.endswith("kappa") else []))


def _dbt() -> str | None:
    found = os.environ.get("AGREEMENT_SQL_DBT") or shutil.which("dbt")
    if found:
        return found
    beside = Path(sys.executable).with_name("dbt")
    return str(beside) if beside.exists() else None


@pytest.mark.slow
def test_an_example_project_built_with_dbt_duckdb(tmp_path):
    dbt = _dbt()
    if dbt is None:
        if os.environ.get("CI"):
            pytest.fail("dbt is not installed (pip install -e '.[dbt]', .ci/setup)")
        pytest.skip("dbt is not installed (pip install -e '.[dbt]')")
    project = tmp_path / "example"
    (project / "models").mkdir(parents=True)
    (project / "dbt_project.yml").write_text(
        "name: example\nversion: '1.0'\nconfig-version: 2\nprofile: example\n"
        "model-paths: ['models']\n"
        "on-run-start:\n  - \"{{ agreement_sql.install() }}\"\n"
        "models:\n  example:\n    +materialized: table\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {ROOT / 'dbt'}\n")
    (project / "profiles.yml").write_text(
        "example:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: {tmp_path / 'example.duckdb'}\n      threads: 1\n")
    (project / "models" / "ratings.sql").write_text(
        f"SELECT * FROM read_csv('{K2011}', all_varchar = true)\n")
    (project / "models" / "fleiss_ratings.sql").write_text(
        f"SELECT * FROM read_csv('{FLEISS}', all_varchar = true)\n")
    (project / "models" / "alpha.sql").write_text(
        "{{ agreement_sql.krippendorff_alpha(ref('ratings'), level='ordinal') }}\n")
    (project / "models" / "fleiss.sql").write_text(
        "{{ agreement_sql.fleiss_kappa(ref('fleiss_ratings')) }}\n")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project)}
    for step in (["deps"], ["run"]):
        done = subprocess.run([dbt, *step, "--project-dir", str(project)], env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    con = duckdb.connect(str(tmp_path / "example.duckdb"), read_only=True)
    alpha = con.execute("SELECT value FROM alpha").fetchone()[0]
    fleiss = con.execute("SELECT value FROM fleiss").fetchone()[0]
    assert alpha == pytest.approx(ag.krippendorff_alpha(str(K2011), level="ordinal")["value"],
                                  abs=1e-12)
    assert alpha == pytest.approx(0.8153875037548813, abs=1e-12)        # Krippendorff 2011
    assert fleiss == pytest.approx(ag.fleiss_kappa(str(FLEISS))["value"], abs=1e-12)


@pytest.mark.slow
@pytest.mark.postgres
def test_an_example_project_built_with_dbt_postgres(tmp_path):
    """The same example on dbt-postgres against the local server (.ci/install-postgres.sh):
    `dbt deps`, `dbt seed` (the reference files, read as text), `dbt run` with the install()
    hook creating the functions in the target's schema; the tables dbt made hold the API's
    values."""
    from tests.engines.conftest import missing

    dbt = _dbt()
    if dbt is None:
        missing("dbt is not installed (pip install -e '.[dbt]', .ci/setup)")
    from importlib.metadata import PackageNotFoundError, version

    try:
        version("dbt-postgres")
    except PackageNotFoundError:
        missing("dbt-postgres is not installed (pip install -e '.[dbt]', .ci/setup)")
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    try:
        pg = psycopg.connect(DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        missing(f"no PostgreSQL server at {DSN!r} (bash .ci/install-postgres.sh): {exc}")
    info = conninfo_to_dict(DSN)
    schema = f"agreement_sql_dbt_run_{os.getpid()}"
    project = tmp_path / "example"
    (project / "models").mkdir(parents=True)
    (project / "seeds").mkdir()
    (project / "dbt_project.yml").write_text(
        "name: example\nversion: '1.0'\nconfig-version: 2\nprofile: example\n"
        "model-paths: ['models']\nseed-paths: ['seeds']\n"
        "on-run-start:\n  - \"{{ agreement_sql.install() }}\"\n"
        "seeds:\n  example:\n    +column_types: {item: text, rater: text, value: text}\n"
        "models:\n  example:\n    +materialized: table\n")
    (project / "packages.yml").write_text(f"packages:\n  - local: {ROOT / 'dbt'}\n")
    (project / "profiles.yml").write_text(
        "example:\n  target: dev\n  outputs:\n    dev:\n      type: postgres\n"
        f"      host: {info.get('host', 'localhost')}\n      port: {int(info.get('port', 5432))}\n"
        f"      user: {info.get('user', 'agreement')}\n      password: \"{info.get('password', '')}\"\n"
        f"      dbname: {info.get('dbname', 'agreement')}\n      schema: {schema}\n      threads: 1\n")
    shutil.copy(K2011, project / "seeds" / "ratings.csv")
    shutil.copy(FLEISS, project / "seeds" / "fleiss_ratings.csv")
    (project / "models" / "alpha.sql").write_text(
        "{{ agreement_sql.krippendorff_alpha(ref('ratings'), level='ordinal') }}\n")
    (project / "models" / "fleiss.sql").write_text(
        "{{ agreement_sql.fleiss_kappa(ref('fleiss_ratings')) }}\n")
    env = {**os.environ, "DBT_PROFILES_DIR": str(project)}
    try:
        for step in (["deps"], ["seed"], ["run"]):
            done = subprocess.run([dbt, *step, "--project-dir", str(project)], env=env,
                                  capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        alpha = pg.execute(f'SELECT value FROM "{schema}".alpha').fetchone()[0]
        fleiss = pg.execute(f'SELECT value FROM "{schema}".fleiss').fetchone()[0]
    finally:
        pg.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        pg.close()
    assert float(alpha) == pytest.approx(
        ag.krippendorff_alpha(str(K2011), level="ordinal")["value"], abs=1e-12)
    assert float(alpha) == pytest.approx(0.8153875037548813, abs=1e-12)        # Krippendorff 2011
    assert float(fleiss) == pytest.approx(ag.fleiss_kappa(str(FLEISS))["value"], abs=1e-12)
    assert float(fleiss) == pytest.approx(0.4302445, abs=5e-8)  # R irr kappam.fleiss (published.json)
