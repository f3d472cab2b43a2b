"""The README's "SQL without Python" commands run as printed (each line through bash, in a
scratch folder holding the reference files at the README's paths), and print Krippendorff's
(2011) ordinal alpha, 0.8153875037548813 (published 0.815, sec. C; the API's own value to
1e-12). The DuckDB lines need the duckdb CLI (the duckdb-cli package), the psql line a server
(.ci/install-postgres.sh; marker postgres), the spark-sql line pyspark's (marker spark)."""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ALPHA = 0.8153875037548813
DSN = os.environ.get("AGREEMENT_SQL_PG_DSN",
                     "host=localhost port=55432 dbname=agreement user=agreement password=agreement")


def block(name: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- sql-native: " + name + r" -->\n```sh\n(.*?)```", text, re.S)
    assert found, f"README has no sql-native block {name!r}"
    return [line for line in found.group(1).splitlines() if line.strip()]


def _need(tool: str) -> str:
    bindir = Path(sys.executable).parent
    path = bindir / tool if (bindir / tool).exists() else shutil.which(tool)
    if tool == "spark-sql" and path is None:
        try:
            import pyspark
            path = Path(pyspark.__file__).parent / "bin" / "spark-sql"
        except ImportError:
            path = None
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"no {tool} for the README's commands")
        pytest.skip(f"no {tool}")
    return str(Path(path).parent)


def run(lines: list[str], tmp_path: Path, env: dict[str, str] | None = None) -> str:
    (tmp_path / "tests").mkdir(exist_ok=True)
    if not (tmp_path / "tests" / "reference").exists():
        (tmp_path / "tests" / "reference").symlink_to(ROOT / "tests" / "reference")
    path = os.pathsep.join([str(Path(sys.executable).parent), *(env or {}).pop("EXTRA_PATH", "").split(os.pathsep),
                            os.environ.get("PATH", "")])
    out = []
    for line in lines:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", line], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600,
                              env={**os.environ, **(env or {}), "PATH": path,
                                   "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
        assert done.returncode == 0, (line, done.stderr[-2000:])
        out.append(done.stdout)
    return "".join(out)


def _has_alpha(output: str) -> bool:
    return any(abs(float(x) - ALPHA) < 1e-12 for x in re.findall(r"0\.81538\d*", output))


@pytest.mark.slow
def test_the_duckdb_macro_lines(tmp_path):
    _need("duckdb")
    assert _has_alpha(run(block("duckdb"), tmp_path))


def test_the_duckdb_rendering_lines(tmp_path):
    _need("duckdb")
    lines = [line for line in block("renderings") if "duckdb" in line or "dialect" not in line
             and line.startswith("agreement-sql")]
    assert _has_alpha(run(lines, tmp_path))


@pytest.mark.postgres
def test_the_psql_rendering_lines(tmp_path):
    _need("psql")
    import psycopg

    try:
        con = psycopg.connect(DSN, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL server: {exc}")
        pytest.skip(f"no PostgreSQL server: {exc}")
    con.execute("DROP TABLE IF EXISTS public.ratings")
    con.execute("CREATE TABLE public.ratings (item TEXT, rater TEXT, value TEXT)")
    with open(ROOT / "tests" / "reference" / "krippendorff2011_4x12.csv", newline="") as handle:
        rows = [(r["item"], r["rater"], r["value"]) for r in csv.DictReader(handle)]
    with con.cursor() as cur:
        cur.executemany("INSERT INTO public.ratings VALUES (%s, %s, %s)", rows)
    con.close()
    lines = [line for line in block("renderings") if "postgres" in line or line.startswith("psql")]
    dsn = "postgresql://agreement:agreement@localhost:55432/agreement"
    assert _has_alpha(run(lines, tmp_path, {"DATABASE_URL": os.environ.get("DATABASE_URL", dsn)}))


@pytest.mark.spark
def test_the_spark_sql_rendering_lines(tmp_path):
    bindir = _need("spark-sql")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        if os.environ.get("CI"):
            pytest.fail("no Java for spark-sql")
        pytest.skip("no Java")
    lines = [line for line in block("renderings") if "spark" in line or line.startswith("echo")]
    env = {"EXTRA_PATH": bindir}
    try:
        import pyspark
        env["SPARK_HOME"] = str(Path(pyspark.__file__).parent)
    except ImportError:
        pass
    assert _has_alpha(run(lines, tmp_path, env))
