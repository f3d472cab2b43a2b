"""The dbt package (agreement_sql/dbt.py, docs/decisions/0025): the committed dbt/ folder is a
fresh generation from the templates; its DuckDB macros, expanded, give the API's numbers; and
(slow, needs the `dbt` extra: dbt-core and dbt-duckdb 1.9) an example project built with
`dbt run` asserts the API's values. Expected values: the API's own results on the same file,
themselves held to published values (Krippendorff 2011's ordinal alpha 0.8153875, Fleiss 1971
0.4302: tests/reference/published.json)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import jinja2
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


@pytest.mark.parametrize("macro", [m.name for m in public_macros()
                                   if m.name not in ("pairwise_agreement", "irr_summary")])
def test_each_macro_expands_to_the_apis_value(macro, con):
    env = jinja2.Environment()
    source = package_files()["macros/agreement_sql.sql"]
    # dbt's context: the package's macros under agreement_sql, dispatch to duckdb__<name>
    holder: dict = {}
    context = {"return": lambda value: value,
               "adapter": type("Adapter", (), {
                   "type": staticmethod(lambda: "duckdb"),
                   "dispatch": staticmethod(lambda name, package: holder["m"][f"duckdb__{name}"])})}
    module = env.from_string(source).make_module(context)
    macros = {n: getattr(module, n) for n in dir(module) if not n.startswith("__")}
    holder["m"] = macros
    context["agreement_sql"] = type("NS", (), {k: staticmethod(v) for k, v in macros.items()})
    module = env.from_string(source).make_module(context)
    macros = {n: getattr(module, n) for n in dir(module) if not n.startswith("__")}
    holder["m"] = macros
    from agreement_sql.registry import REGISTRY

    two = REGISTRY[macro].two_raters
    view, path = ("sas", SAS) if two else ("k2011", K2011)
    level = {"level": "ordinal"} if macro == "krippendorff_alpha" else {}
    sql = str(macros[macro](view, **level))
    got = con.execute(sql).fetchall()
    columns = [d[0] for d in con.description]
    row = dict(zip(columns, got[0]))
    expected = getattr(ag, macro)(str(path), **level)
    assert row["value"] == pytest.approx(expected["value"], abs=1e-12)
    if macro == "krippendorff_alpha":
        assert row["value"] == pytest.approx(0.8153875037548813, abs=1e-12)   # Krippendorff 2011


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
